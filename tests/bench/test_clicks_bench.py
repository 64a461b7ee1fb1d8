"""The clicks bench follows the built-in player through the picker on the same seeds `make bench` uses."""

from __future__ import annotations

import pytest

from bench import clicks_bench


@pytest.mark.parametrize(("name", "games"), [("roll_player", 4), ("roll_for_the_galaxy", 4), ("talisman", 4)])
def test_every_move_of_the_built_in_player_is_found_in_the_picker(name, games):
    # Talisman's seed 1002 has the built-in player take a card and put it straight down, which the picker offers
    # as "leave it" (the chain ends alike): the bench must count that, not stop.
    counts = clicks_bench.measure(name, "typical", "now", games)
    assert counts["turn"] and min(counts["turn"]) >= 1
    if name == "talisman":
        assert counts["movement"] and min(counts["movement"]) >= 1
