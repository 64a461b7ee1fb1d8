from engines import register
from engines.talisman.engine import Talisman

ENGINE = register(Talisman())
