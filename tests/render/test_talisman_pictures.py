"""The Talisman renderer draws views of a seeded mid-game state into PNGs."""

from __future__ import annotations

from engines.rng import Rng
from render.talisman import render_private, render_table
from tests.engines.talisman.helpers import talisman

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


def test_the_characters_dealt_are_shown_privately_while_choosing(artifacts_dir):
    options = talisman.validate_options({"choose_character": True, "starting_bonus": True})
    state = talisman.new_game(3, options, 4)
    dealt = [render_private(talisman.view(state, seat), "en") for seat in range(3)]
    assert all(image is not None and image.startswith(PNG) for image in dealt)
    assert len(set(dealt)) == 3  # each seat sees the three characters dealt to it
    assert render_private(talisman.view(state, None), "en") is None
    state, _ = talisman.apply(state, 0, talisman.legal_actions(state, 0)[0])
    chosen = render_private(talisman.view(state, 0), "ko")
    assert chosen is not None and chosen != dealt[0]  # the choice framed, the bonus still to pick
    (artifacts_dir / "talisman-setup-ko.png").write_bytes(chosen)
    # Without the choice, the character dealt is shown while the starting bonus is chosen.
    state = talisman.new_game(2, talisman.validate_options({"starting_bonus": True}), 4)
    assert render_private(talisman.view(state, 1), "es").startswith(PNG)


def test_the_decks_line_is_never_cut_short(monkeypatch):
    """'Mazo de aventura 86 · Mazo de hechizos 20' is wider than the side panel: each deck gets a line of its own
    rather than 'Mazo de hechi…'."""
    import render.talisman as drawn

    told: list[str] = []
    paste = drawn.paste_text
    monkeypatch.setattr(
        drawn, "paste_text", lambda image, xy, text, *rest: told.append(text) or paste(image, xy, text, *rest)
    )
    view = talisman.view(_mid_game(), None)
    render_table(view, ["Ana", "Bo", "Cy", "Dee"], "es")
    assert f"Mazo de hechizos {view['decks']['spells']}" in told
    assert not any(text.startswith("Mazo") and text.endswith("…") for text in told)


def test_a_characters_line_names_what_it_carries(monkeypatch):
    """'carries 6' told nothing of what: the line names the (public) Objects and Followers, as far as it goes."""
    import render.talisman as drawn

    told: list[str] = []
    paste = drawn.paste_text
    monkeypatch.setattr(
        drawn, "paste_text", lambda image, xy, text, *rest: told.append(text) or paste(image, xy, text, *rest)
    )
    state = _mid_game()
    view = talisman.view(state, None)
    render_table(view, ["Ana", "Bo", "Cy", "Dee"], "en")
    carrying = [ch for ch in view["chars"] if ch and ch["items"] + ch["followers"]]
    assert carrying
    for ch in carrying:
        first = drawn._card_label((ch["items"] + ch["followers"])[0], "en")[0]
        n = len(ch["items"]) + len(ch["followers"])
        assert any(f"carries {n}: {first[:3]}" in text for text in told), (first, told)
