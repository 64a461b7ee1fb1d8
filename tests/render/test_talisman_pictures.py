"""The Talisman renderer draws views of a seeded mid-game state into PNGs."""

from __future__ import annotations

import copy
import io

import pytest
from PIL import Image, ImageDraw

from engines.rng import Rng
from engines.talisman.data import SPACES
from render.common import CHAT_WIDTH, font, font_sizes
from render.talisman import render_private, render_table
from tests.engines.talisman.helpers import talisman
from tests.render.helpers import played

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


def _seen(monkeypatch):
    """Every text the renderer pastes, with where and how large."""
    import render.talisman as drawn

    told: list[tuple[tuple[float, float], str, int, str]] = []
    paste = drawn.paste_text

    def record(image, xy, text, size, fill, bold=False, anchor="la"):
        told.append((xy, text, size, anchor))
        paste(image, xy, text, size, fill, bold, anchor)

    monkeypatch.setattr(drawn, "paste_text", record)
    return told


@pytest.mark.parametrize("locale", ["ko", "en", "es"])
def test_ones_spells_read_at_12_px_in_the_chat(locale):
    """A review's player read the Spells picture's text at about 9 px: drawn 900 px wide, the chat showed it at
    550. Its smallest letters are now at least 12 px tall there."""
    state = _mid_game()
    state["chars"][0]["spells"] = ["teleport", "psionic_blast", "healing"]
    with font_sizes() as sizes:
        image = Image.open(io.BytesIO(render_private(talisman.view(state, 0), locale)))
    assert sizes and min(sizes) * min(CHAT_WIDTH, image.width) / image.width >= 12, (min(sizes), image.width)


PANEL_CASES = [(players, moves) for players in (2, 4, 6) for moves in (0, 40, 3000)]


@pytest.mark.parametrize(("players", "moves"), PANEL_CASES)
def test_the_side_panel_reads_at_12_px_in_the_chat(players, moves):
    """Whose turn it is and every character's numbers and belongings are what a player looks for on a phone:
    the side panel's smallest letters are at least 12 px tall when the chat shows the picture 550 px wide
    (its 18 px letters on an 1100 px picture were 9 px, too small for Hangul)."""
    import render.talisman as drawn

    _, _, views = played("talisman", players, seed=players * 7 + moves, moves=moves)
    names = ["민지", "Sam", "지호", "Alexander", "하윤", "F"][:players]
    for locale in ("ko", "en", "es"):
        image = Image.new("RGB", (drawn.WIDTH, drawn.HEIGHT))
        with font_sizes() as sizes:
            drawn._draw_side(image, ImageDraw.Draw(image), views[-1], names, locale)
        assert sizes
        assert min(sizes) * CHAT_WIDTH / drawn.WIDTH >= 12, (locale, min(sizes), drawn.WIDTH)


def test_space_names_are_as_large_as_their_spaces_allow(monkeypatch):
    """No name under the chat's 9 px, and most spaces (short names) far above it: half of the spaces have
    their names at least 12 px tall in the chat, where every one was 9 px before."""
    import render.talisman as drawn

    seen = _seen(monkeypatch)
    text = ImageDraw.ImageDraw.text

    def written(draw, xy, line, *rest, **kw):  # names written straight onto the board count as well
        if draw.im.size == (drawn.WIDTH, drawn.HEIGHT):  # not the pasted letters' own small drawings
            seen.append((xy, line, kw["font"].size, ""))
        return text(draw, xy, line, *rest, **kw)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", written)
    for locale in ("ko", "en", "es"):
        seen.clear()
        with font_sizes() as asked:  # empties the cache of the drawn board too
            drawn._empty_board(locale)
        # each space but the Crown carries the number the choices give it ("Hills (28)": several share a name)
        numbers = [line for _, line, _, _ in seen if line.isdigit()]
        assert sorted(numbers, key=int) == [str(s["index"] + 1) for s in SPACES if s["index"] != drawn.CROWN]
        seen[:] = [entry for entry in seen if not entry[1].isdigit()]
        # a name's lines come one after the other, just below each other on the same middle
        sizes = sorted(
            size
            for i, ((x, y), _, size, _) in enumerate(seen)
            if i == 0
            or not (seen[i - 1][0][0] == x and seen[i - 1][2] == size and 0 < y - seen[i - 1][0][1] < 40)
        )
        assert len(sizes) == len(SPACES), (locale, sizes)
        assert min(asked) * CHAT_WIDTH / drawn.WIDTH >= 9, (locale, min(asked))
        assert sizes[len(sizes) // 2] * CHAT_WIDTH / drawn.WIDTH >= 12, (locale, sizes)


def _crowded(weather: bool = True):
    """A six-player game far along, its first character (whose turn it is) a toad missing a turn with a full
    pack; with `weather`, the Crown reached and a Blizzard too: the most the panel has to tell."""
    _, _, views = played("talisman", 6, seed=21, moves=700)
    view = copy.deepcopy(views[-1])
    first = next(ch for ch in view["chars"] if ch is not None)
    first.update(toad=3, miss=1, spells=4)
    first["items"] = [{"uid": 900 + i, "card": card, "origin": "p"} for i, card in enumerate(PURCHASES)]
    view["to_act"] = [first["seat"]]
    view["blizzard"] = int(weather)
    view["crown_reached"] = weather
    return view


PURCHASES = ["axe", "sword", "helmet", "shield", "armour", "raft", "mule", "water_bottle"]


@pytest.mark.parametrize("locale", ["ko", "en", "es"])
def test_nothing_in_the_side_panel_runs_off_the_picture(monkeypatch, locale):
    """Six players with every detail to tell still fit: each text in the panel lies inside the picture."""
    import render.talisman as drawn

    told = _seen(monkeypatch)
    names = ["김민지김민지김민지김민지", "Sam Longname-Smith", "지호", "Alexander the Great", "하윤", "F"]
    render_table(_crowded(), names, locale)
    panel = [seen for seen in told if seen[0][0] >= drawn.HEIGHT]  # right of the (square) board
    assert panel
    for (x, y), text, size, anchor in panel:
        _, _, right, bottom = font(size, True).getbbox(text, anchor=anchor)
        assert x + right <= drawn.WIDTH and y + bottom <= drawn.HEIGHT, (text, x, y, size)


def test_whoever_acts_has_what_they_carry_named_even_in_a_crowd(monkeypatch):
    """With six players there is no room to name everyone's belongings: the others' are counted ('Objects 2'),
    and the one whose turn it is has them named."""
    seen = _seen(monkeypatch)
    view = _crowded(weather=False)
    render_table(view, ["A", "B", "C", "D", "E", "F"], "en")
    told = [text for _, text, _, _ in seen]
    acting = view["chars"][view["to_act"][0]]
    n = len(acting["items"]) + len(acting["followers"])
    assert any(text.startswith(f"carries {n}: Axe, Sword") for text in told), told
    others = [ch for ch in view["chars"] if ch and ch is not acting and ch["items"]]
    assert others and told.count("Objects") == len(others)
    assert all(
        text.startswith(f"carries {n}:") for text in told if text.startswith("carries")
    )  # no room left


def test_a_characters_trophies_are_on_the_table(monkeypatch):
    """A review's player beat the Spectre and found its trophy nowhere: each character's line tells its trophies
    by what they trade for, the Strength of Enemies and the Craft of Spirits killed."""
    told = _seen(monkeypatch)
    state = _mid_game(2, 0)
    view = talisman.view(state, None)
    view["chars"][1]["trophies"] = [
        {"kind": "craft", "value": 3, "card": "spectre"},
        {"kind": "strength", "value": 4, "card": "bear"},
        {"kind": "strength", "value": 2, "card": "wild_boar"},
    ]
    render_table(view, ["Ana", "Bo"], "en")
    texts = [text for _, text, _, _ in told]
    at = texts.index("Trophies")
    assert texts[at + 1 : at + 5] == ["Str", "6", "Craft", "3"], texts[at : at + 5]
    assert texts.count("Trophies") == 1  # Ana has none


def test_figures_and_cards_never_cover_a_spaces_number():
    """The choices name spaces by number ("Fields (18)"): a review's board showed 33 as "3" under a token and 18 as
    "8" under a gold tile. However crowded a space, the pixels of its number are the empty board's."""
    import render.talisman as drawn

    _, _, views = played("talisman", 4, seed=3, moves=40)
    view = copy.deepcopy(views[-1])
    chars = [ch for ch in view["chars"] if ch is not None]
    card = next(cards[0] for cards in view["board"].values() if cards)
    crowded = [17, 32, 6, 44]  # an outer, a middle and an inner space, and an outer corner
    for n, index in enumerate(crowded):
        view["board"][str(index)] = [card]
        view["gold"][str(index)] = 1 + n
        for ch in chars[: 1 + n % 3]:
            ch["space"], ch["dead"] = index, False
        chars = chars[1:] + chars[:1]
    empty = drawn._empty_board("ko")
    board = empty.copy()
    drawn._draw_board(board, view, "ko")
    face = font(drawn.SMALL)
    for index in crowded:
        _, _, right, bottom = drawn._cell(index)
        x, y = right - drawn.NUMBER_PAD, bottom - 4
        left, top, end, low = face.getbbox(str(index + 1), anchor="rd")
        box = (x + left, y + top, x + end, y + low)
        assert board.crop(box).tobytes() == empty.crop(box).tobytes(), index + 1
