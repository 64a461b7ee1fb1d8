"""The renderer draws table and screen images from views of a seeded mid-game state."""

from __future__ import annotations

import io
import itertools

import pytest
from PIL import Image, ImageChops, ImageDraw

import render.roll_for_the_galaxy as rftg
from engines.base import clone
from engines.rng import Rng
from engines.roll_for_the_galaxy import ENGINE
from engines.roll_for_the_galaxy import data as D
from engines.roll_for_the_galaxy import rules as R
from engines.roll_for_the_galaxy.scoring import score
from render.common import BACKGROUND, CHAT_WIDTH, GOLD, fitted_to_content, font, font_sizes
from render.roll_for_the_galaxy import render_private, render_table
from tests.pictures import assert_drawn, assert_follows_the_view
from tests.render.helpers import picture, played


def _mid_game(players: int, stop_stage: str, seed: int = 7):
    """Built-in players play until the given stage of round 4 or later."""
    state = ENGINE.new_game(players, {}, seed)
    chooser = Rng.from_seed(seed)
    while not (state["round"] >= 4 and state["stage"] == stop_stage):
        seat = chooser.choice(ENGINE.to_act(state))
        state, _ = ENGINE.apply(state, seat, ENGINE.bot_action(state, seat, chooser.next_u64() % 1000))
        assert ENGINE.outcome(state) is None
    return state


@pytest.mark.parametrize(
    ("players", "stage", "locale"),
    [(4, "assign", "ko"), (5, "manage", "en"), (2, "explore", "es"), (3, "ship", "ko")],
)
def test_table_and_screen_render_as_png(players, stage, locale, artifacts_dir):
    state = _mid_game(players, stage)
    names = ["Ana", "민준", "Bea", "서연", "Chris"][:players]
    table = render_table(ENGINE.view(state, None), names, locale)
    screen = render_private(ENGINE.view(state, 0), locale)
    assert_drawn(table, 600, 200)
    assert_drawn(screen, 550, 150)  # fitted to what is on it: the chat shows it larger
    assert render_private(ENGINE.view(state, None), locale) is None

    def richer(view):
        view["seats"][0]["credits"] += 3

    assert_follows_the_view(lambda v: render_table(v, names, locale), ENGINE.view(state, None), richer)
    (artifacts_dir / f"roll_for_the_galaxy-table-{players}p-{stage}.png").write_bytes(table)
    (artifacts_dir / f"roll_for_the_galaxy-screen-{players}p-{stage}.png").write_bytes(screen)


def test_private_screen_shows_the_roll_only_to_its_owner():
    state = _mid_game(3, "assign")
    assert ENGINE.view(state, 1)["seats"][0].get("dice") is None
    assert ENGINE.view(state, 0)["seats"][0]["dice"]
    assert render_private(ENGINE.view(state, 1), "en") != render_private(ENGINE.view(state, 0), "en")


@pytest.mark.parametrize(("players", "stage", "locale"), [(4, "assign", "ko"), (3, "ship", "en")])
def test_the_fixed_palette_keeps_every_pixel_close_to_what_was_drawn(players, stage, locale, monkeypatch):
    """The pictures go out through one palette made of the colours drawn and the letters' edges: no pixel of the
    decoded picture, thin die edges and letters on every ground included, moves far from the drawing."""
    drawn = []
    encode = rftg._png
    monkeypatch.setattr(rftg, "_png", lambda image: drawn.append(image) or encode(image))
    state = _mid_game(players, stage)
    pictures = [render_table(ENGINE.view(state, None), ["Ana", "민준", "Bea", "서연"][:players], locale)]
    pictures += [render_private(ENGINE.view(state, seat), locale) for seat in range(players)]
    assert len(drawn) == len(pictures)
    for image, png in zip(drawn, pictures, strict=True):
        decoded = Image.open(io.BytesIO(png)).convert("RGB")
        worst = max(high for _, high in ImageChops.difference(image, decoded).getextrema())
        assert worst <= 16


def test_a_screen_with_little_on_it_is_as_narrow_as_the_chat_so_it_shows_at_full_size():
    """A screen with no dice behind it drew a few lines on the left of an 1100-pixel picture, which the chat
    shrank to half; fitted to what is on it (never narrower than the chat), it is shown at its own size, and a
    screen full of dice keeps its width."""
    quiet = render_private(ENGINE.view(_mid_game(3, "explore"), 0), "en")
    busy = render_private(ENGINE.view(_mid_game(3, "assign"), 0), "en")
    assert Image.open(io.BytesIO(quiet)).width == CHAT_WIDTH
    assert Image.open(io.BytesIO(busy)).width > 1000
    image = Image.new("RGB", (1100, 300), BACKGROUND)
    ImageDraw.Draw(image).rectangle((600, 40, 700, 250), fill=GOLD)
    fitted = fitted_to_content(image)
    assert fitted.size == (717, 267)  # the drawing (to 700 and 250 inclusive) and a margin of 16
    assert ImageChops.difference(fitted, image.crop((0, 0, 717, 267))).getbbox() is None


# --- the table read in the chat (550 px wide): letter sizes, nothing off the picture, the score, each die once --


def _told(monkeypatch):
    """Every text the table pastes (where, what, how large, bold, anchor) and every die (colour, mark, where)."""
    texts: list[tuple[tuple[float, float], str, int, bool, str]] = []
    dice: list[tuple[str, str, int, int, int]] = []
    paste, die = rftg.paste_text, rftg._die

    def text(image, xy, line, size, fill, bold=False, anchor="la"):
        texts.append((xy, line, size, bold, anchor))
        paste(image, xy, line, size, fill, bold, anchor)

    def one_die(image, x, y, color, mark="", size=rftg.DIE, *rest, **kw):
        dice.append((color, mark, x, y, size))
        die(image, x, y, color, mark, size, *rest, **kw)

    monkeypatch.setattr(rftg, "paste_text", text)
    monkeypatch.setattr(rftg, "_die", one_die)
    return texts, dice


def _games():
    """Public views of seeded games with 2 and 5 players: new, under way (assigning and in the phases), over."""
    for players in (2, 5):
        engine, state, views = played("roll_for_the_galaxy", players, seed=players * 31, moves=4000)
        assert engine.outcome(state) is not None
        picks = [views[0], views[len(views) // 3], views[2 * len(views) // 3], views[-1]]
        yield players, picks


NAMES = ["Alexandria Longname-Smith", "민준민준민준민준", "Bea", "서연", "Chris"]


def test_names_and_numbers_read_at_11_px_in_the_chat(monkeypatch):
    """At 550 px wide, the old board's tile names were 7 px tall and scores 9 px: player names, scores and tile
    names are now at least 11 px there, and no letter is under 9.4 px."""
    texts, _ = _told(monkeypatch)
    for players, views in _games():
        for view in views:
            for locale in ("en", "ko", "es"):
                tiles = {rftg._side_name(e["id"], locale) for s in view["seats"] for e in s["tableau"]}
                wanted = tiles | set(NAMES[:players])
                texts.clear()
                with font_sizes() as sizes:
                    width = picture(render_table(view, NAMES[:players], locale)).width
                chat = CHAT_WIDTH / width
                assert min(sizes) * chat >= 9.4, (locale, min(sizes), width)
                labels = rftg._labels(locale)
                scores = {labels["vp"].format(n=rftg.current_score(view, s)) for s in range(players)}
                names = [t for t in texts if _shows(t[1], wanted)]
                assert len(names) >= players + sum(len(s["tableau"]) for s in view["seats"])
                shown_scores = [t for t in texts if t[1] in scores]
                assert len(shown_scores) >= players, (locale, scores)
                for _, text, size, _, _ in names + shown_scores:
                    assert size * chat >= 11, (text, size, width)


def _shows(text: str, names: set[str]) -> bool:
    """The text is one of the names, whole or cut short with an ellipsis."""
    return text in names or (text.endswith("…") and any(n.startswith(text[:-1]) for n in names))


def _crowded():
    """Five players far along, the first with every colour in its cup and Citizenry, a long construction stack
    and a full tableau: the most a strip has to hold."""
    _, _, views = played("roll_for_the_galaxy", 5, seed=155, moves=4000)
    view = clone(views[-2])
    s = view["seats"][0]
    s["cup"] = [c for c in D.COLORS for _ in range(2)]
    s["citizenry"] = list(D.COLORS)
    s["credits"] = 10
    s["vp"] = 38
    s["tableau"] = [{"id": side, "goods": ["yellow"]} for side in sorted(D.SIDES)[:14]]
    if s["dev_top"] is not None:
        s["dev_size"], s["dev_cost"], s["dev_workers"] = 6, 6, ["red", "purple"]
    return view


@pytest.mark.parametrize("locale", ["en", "ko", "es"])
def test_nothing_runs_off_the_picture_or_over_other_text(monkeypatch, locale):
    """Every text and die lies inside the picture, and no two texts overlap, even in the most crowded strip and
    the longest language."""
    texts, dice = _told(monkeypatch)
    views = [_crowded(), *(v for _, views in _games() for v in views)]
    for view in views:
        texts.clear()
        dice.clear()
        image = picture(render_table(view, NAMES[: view["players"]], locale))
        _assert_inside_and_apart(image, texts, dice)


def _assert_inside_and_apart(image, texts, dice) -> None:
    """Every text and die drawn lies inside the picture, and no two texts overlap."""
    boxes = []
    for (x, y), text, size, bold, anchor in texts:
        left, top, right, bottom = font(size, bold).getbbox(text, anchor=anchor)
        box = (x + left, y + top, x + right, y + bottom)
        assert 0 <= box[0] and box[2] <= image.width and 0 <= box[1] and box[3] <= image.height, (text, box)
        boxes.append((box, text))
    for (a, ta), (b, tb) in itertools.combinations(boxes, 2):
        overlap = min(a[2], b[2]) - max(a[0], b[0]) > 1 and min(a[3], b[3]) - max(a[1], b[1]) > 1
        assert not overlap, (ta, a, tb, b)
    for color, mark, x, y, size in dice:
        assert 0 <= x and x + size < image.width and 0 <= y and y + size < image.height, (color, mark, x, y)


def test_the_header_shows_the_score_the_game_would_give_now(monkeypatch):
    """'0 VP' counted only the VP chips of a tableau worth 11: each seat's header shows the game's own scoring
    of the seat (tiles, chips and bonuses), whatever the stage, and its chips beside it."""
    texts, _ = _told(monkeypatch)
    engine, _, _ = played("roll_for_the_galaxy", 3, seed=8, moves=0)
    state = engine.new_game(3, engine.validate_options({}), 8)
    chooser = Rng.from_seed(8)
    differs = 0
    drawn: set[tuple[int, str]] = set()
    while engine.outcome(state) is None:
        view = engine.view(state, None)
        for seat, p in enumerate(state["seats"]):
            total = score(p)["total"]
            assert rftg.current_score(view, seat) == total, (seat, view["stage"])
            differs += total != p["vp"]
        seat = chooser.choice(engine.to_act(state))
        state, _ = engine.apply(state, seat, engine.bot_action(state, seat, chooser.next_u64() % 1000))
        if state["round"] in (3, 6) and (state["round"], state["stage"]) not in drawn:
            drawn.add((state["round"], state["stage"]))
            texts.clear()
            render_table(engine.view(state, None), ["A", "B", "C"], "en")
            told = [t[1] for t in texts]
            for p in state["seats"]:
                assert f"{score(p)['total']} VP" in told and f"(VP chips {p['vp']})" in told, told
    assert differs > 100 and len(drawn) >= 6, drawn


def test_each_die_is_drawn_once(monkeypatch):
    """After the reveal, the assignment row stayed beside the cup and the Citizenry, so the dice that had gone
    back there were drawn twice: now every die a seat owns is drawn once, wherever it is (cup, Citizenry, at
    work, on a construction, as a good), the dice drawn one per colour with their number on them."""
    _, dice = _told(monkeypatch)
    for players in (2, 4):
        state = ENGINE.new_game(players, {}, players)
        chooser = Rng.from_seed(players)
        stages = set()
        for move in itertools.count():
            if ENGINE.outcome(state) is not None:
                break
            view = ENGINE.view(state, None)
            if view["stage"] not in stages or move % 5 == 0:  # every stage, and a fifth of the moves
                dice.clear()
                render_table(view, NAMES[:players], "en")
                drawn = sum(int(mark) if mark.isdigit() else 1 for _, mark, *_ in dice)
                extra = view["extra_die"] is not None  # the two-player Home die, in the phase strip
                owned = sum(len(R.owned_dice(p)) for p in state["seats"])
                assert drawn == owned + extra, (view["round"], view["stage"], drawn, owned)
                stages.add(view["stage"])
            seat = chooser.choice(ENGINE.to_act(state))
            state, _ = ENGINE.apply(state, seat, ENGINE.bot_action(state, seat, chooser.next_u64() % 1000))
        assert {"assign", "manage"} <= stages and len(stages & set(D.PHASES)) >= 4, stages


def _screens():
    """Seat 0's screen while assigning (every die in one box, and spread over the boxes) and in later stages."""
    state = _mid_game(4, "assign")
    crowded = ENGINE.view(state, 0)
    seat = crowded["seats"][0]
    seat["dice"] = [{"c": c, "f": "explore", "at": None} for c in D.COLORS for _ in range(2)]
    spread = clone(crowded)
    for index, die in enumerate(spread["seats"][0]["dice"]):
        die["at"] = [*D.PHASES, "dictate", None][index % 7]
    return [crowded, spread, ENGINE.view(_mid_game(3, "explore"), 0), ENGINE.view(_mid_game(3, "ship"), 0)]


@pytest.mark.parametrize("locale", ["en", "ko", "es"])
def test_the_screen_reads_in_the_chat_and_keeps_everything_on_it(monkeypatch, locale):
    """Seven boxes in a row left a review's dice letters about 6 px tall in the chat and every word 9 px: the boxes
    go four a row, so a die is at least 22 px there with a 13 px mark, every word at least 11 px, and every text
    and die still lies inside the picture without overlapping another text."""
    texts, dice = _told(monkeypatch)
    for view in _screens():
        texts.clear()
        dice.clear()
        with font_sizes() as sizes:
            image = picture(render_private(view, locale))
        chat = CHAT_WIDTH / max(image.width, CHAT_WIDTH)
        assert min(sizes) * chat >= 10.9, (min(sizes), image.width)
        shown = view["seats"][0].get("dice") or []
        assert len(dice) == len(shown)
        for color, mark, _, _, size in dice:
            assert size * chat >= 21.9 and mark, (color, size, image.width)
        _assert_inside_and_apart(image, texts, dice)
