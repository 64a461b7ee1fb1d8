from engines import register
from engines.druids.engine import Druids

ENGINE = register(Druids())
