"""Roll for the Galaxy: dice-pool empire building for 2-5 players, every step simultaneous."""

from engines import register
from engines.roll_for_the_galaxy.engine import RollForTheGalaxy

ENGINE = register(RollForTheGalaxy())
