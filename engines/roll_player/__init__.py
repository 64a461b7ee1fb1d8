from engines import register
from engines.roll_player.engine import RollPlayer

ENGINE = register(RollPlayer())
