"""A private picture is cached by what its game says it draws of a seat's view (`private_shows`): two views that
agree on that part must give the very same picture, or a seat would be shown a stale one."""

from __future__ import annotations

import pytest

from bot.games import presenters
from engines.rng import Rng

PRIVATE = sorted(name for name, game in presenters().items() if game.has_private)


@pytest.mark.parametrize("name", PRIVATE)
def test_views_that_agree_on_what_is_shown_give_the_same_picture(name: str) -> None:
    game = presenters()[name]
    engine = game.engine
    state = engine.new_game(3, engine.validate_options({}), 11)
    rng = Rng.from_seed(11)
    pictures: dict[object, bytes | None] = {}
    compared = 0
    for _ in range(120):
        if engine.outcome(state) is not None:
            break
        for seat in range(3):
            view = engine.view(state, seat)
            shown = repr(game.private_shows(view))
            png = game.render_private(view, "en")
            if shown in pictures:
                assert pictures[shown] == png
                compared += 1
            pictures[shown] = png
        mover = rng.choice(engine.to_act(state))
        state, _ = engine.apply(state, mover, rng.choice(engine.legal_actions(state, mover)))
    assert compared > 50  # the public table moved on while many seats' pictures stood still
