"""The Talisman renderer draws views of a seeded mid-game state into PNGs."""

from __future__ import annotations

from engines.rng import Rng
from render.talisman import render_private, render_table

from .helpers import talisman

PNG = b"\x89PNG\r\n\x1a\n"


def _mid_game(players: int = 4, steps: int = 400):
    state = talisman.new_game(players, talisman.validate_options({}), 11)
    chooser = Rng.from_seed(11)
    for _ in range(steps):
        if talisman.outcome(state) is not None:
            break
        seat = chooser.choice(talisman.to_act(state))
        state, _ = talisman.apply(state, seat, chooser.choice(talisman.legal_actions(state, seat)))
    return state


def test_table_and_private_views_render_to_png(artifacts_dir):
    state = _mid_game()
    names = ["Ana", "Bo", "천재", "Dee"]
    for locale in ("en", "ko"):
        table = render_table(talisman.view(state, None), names, locale)
        assert table.startswith(PNG) and len(table) < 1_500_000
        (artifacts_dir / f"talisman-table-{locale}.png").write_bytes(table)
    state["chars"][0]["spells"] = ["teleport", "psionic_blast"]
    private = render_private(talisman.view(state, 0), "ko")
    assert private is not None and private.startswith(PNG)
    (artifacts_dir / "talisman-private-ko.png").write_bytes(private)
    assert render_private(talisman.view(state, None), "en") is None
