"""Roll for the Galaxy's presenter: every action, value, event, status and refusal has words in en, ko, es."""

from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path

import pytest

from bot import i18n, rules
from bot.chooser import Chosen, Prompt, narrow, path_to
from bot.games import presenter
from bot.games.roll_for_the_galaxy import RollForTheGalaxyPresenter
from bot.ui import MAX_BUTTONS, MAX_SELECTS, OPTIONS_PER_SELECT
from engines.base import IllegalAction
from engines.roll_for_the_galaxy import data as D
from tests.playouts import bot_played

LOCALES = ("en", "ko", "es")
NAMES = ["Alice", "Bob", "Carol", "Dave", "Erin"]
# Codes that must never reach a reader: ids with underscores, tile ids, and in ko/es the English code words.
SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")
TILE_ID = re.compile(r"\bt\d\d\b")
CODE_WORDS = (
    set(D.PHASES)
    | set(D.COLORS)
    | {
        "wild",
        "development",
        "world",
        "manage",
        "assign",
        "setup",
        "unassigned",
        "top",
        "bottom",
        "cup",
        "citizenry",
        "dictate",
        "grey",
        "True",
        "False",
    }
)

SPANISH_WORDS = {"es": {"produce"}}  # "produce" is also a Spanish verb
# A Spanish reader sees no English component name (all of them differ from the Spanish ones).
ENGLISH_NAMES = {side["name"]["en"] for side in D.SIDES.values()}


@pytest.fixture(scope="module")
def game() -> RollForTheGalaxyPresenter:
    found = presenter("roll_for_the_galaxy")  # the bot's own instance (strings can be registered only once)
    assert isinstance(found, RollForTheGalaxyPresenter)
    return found


def check_text(text: str | None, locale: str, what: object) -> None:
    assert text, (locale, what)
    assert "{" not in text and "}" not in text, (locale, text)
    assert not SNAKE.search(text), (locale, text)
    assert not TILE_ID.search(text), (locale, text)
    if locale != "en":
        words = set(re.findall(r"[A-Za-z]+", text)) - SPANISH_WORDS.get(locale, set())
        assert not words & CODE_WORDS, (locale, text)
    if locale == "es":
        assert not [name for name in ENGLISH_NAMES if name in text], text


def check_prompts(game, actions, action, view, locale) -> None:
    """Walk the picker to `action`, checking every prompt and every option label on the way."""
    path: list[int] = []
    full = path_to(actions, action)
    while True:
        step = narrow(actions, path)
        if isinstance(step, Chosen):
            return
        assert isinstance(step, Prompt)
        check_text(game.prompt_text(step.key, locale), locale, step.key)
        labels = game.value_labels(step.key, step.values, step.chosen, view, locale)
        # A step asking several parameters at once may need a select's longer labels.
        limit = 80 if len(labels) <= MAX_BUTTONS and len(step.keys) == 1 else 100
        assert len(labels) <= OPTIONS_PER_SELECT * MAX_SELECTS, (step.key, len(labels))
        for label in labels:
            check_text(label, locale, step.key)
            assert len(label) <= limit, (locale, label)
        assert len(set(labels)) == len(labels), (locale, step.key, labels)  # options can be told apart
        path.append(full[len(path)])


def playout(game, players: int, seed: int, first_game: bool, max_moves: int = 2000) -> dict[str, int]:
    engine = game.engine
    rng = random.Random(seed)
    state = engine.new_game(players, {"first_game": first_game}, seed)
    seen: dict[str, int] = {}
    labelled: set[str] = set()
    moves = 0
    while engine.outcome(state) is None and moves < max_moves:
        acting = engine.to_act(state)
        seat = rng.choice(acting)
        actions = engine.legal_actions(state, seat)
        view = engine.view(state, seat)
        public = engine.view(state, None)
        for locale in LOCALES:
            check_text(game.status_text(public, NAMES[:players], locale), locale, "status")
            check_text(game.status_text(view, NAMES[:players], locale), locale, "status")
        for action in actions + engine.side_actions(state, seat):
            key = repr(sorted(action.items())) + repr(view["seats"][seat].get("dev_stack"))
            if key in labelled:
                continue
            labelled.add(key)
            for locale in LOCALES:
                text = game.action_text(action, view, locale)
                check_text(text, locale, action)
                assert len(text) <= 100, text  # autocomplete choices
        action = engine.bot_action(state, seat, moves) if rng.random() < 0.4 else rng.choice(actions)
        for locale in LOCALES:
            check_prompts(game, actions, action, view, locale)
        if moves % 25 == 0:  # something illegal is refused with a code we can word
            bogus = dict(rng.choice(actions))
            bogus["type"] = rng.choice(
                ["ready", "reassign", "dictate", "trade", "end_manage", "place_tile", "unready"]
            )
            try:
                engine.apply(state, seat, bogus)
            except IllegalAction as error:
                for locale in LOCALES:
                    check_text(game.error_text(error.code, error.params, locale), locale, error)
        state, events = engine.apply(state, seat, action)
        for event in events + [e for e in game.condensed(events) if e not in events]:
            seen[event["type"]] = seen.get(event["type"], 0) + 1
            private = event.get("private")
            viewer = private[0] if private else None
            for locale in LOCALES:
                check_text(
                    game.event_text(event, NAMES[:players], engine.view(state, viewer), locale), locale, event
                )
        moves += 1
    return seen


@pytest.mark.parametrize(
    "players,seed,first_game", [(2, 1, False), (3, 2, True), (4, 3, False), (5, 4, True)]
)
def test_seeded_playouts_have_words_for_everything(game, players, seed, first_game):
    seen = playout(game, players, seed, first_game)
    assert "GameEnded" in seen and "AssignmentsRevealed" in seen


def test_runs_of_like_happenings_are_told_in_one_line(game):
    def recruit(seat, color, credits):
        return {"type": "WorkerRecruited", "seat": seat, "color": color, "credits": credits}

    def stock(seat, color, credits):
        return [
            {"type": "Stocked", "seat": seat, "color": color},
            {"type": "CreditsGained", "seat": seat, "amount": 2, "credits": credits, "reason": "stock"},
        ]

    events = [
        {"type": "PhaseStarted", "phase": "develop"},
        {"type": "PhaseStarted", "phase": "settle"},
        *stock(0, "red", 3),
        *stock(0, "white", 5),
        *stock(1, "white", 3),
        recruit(0, "yellow", 3),
        recruit(0, "blue", 2),
        recruit(0, "blue", 1),
        recruit(1, "white", 0),
        {"type": "CreditsFloored", "seat": 1, "credits": 1},
        recruit(2, "green", 4),
        {"type": "DiceRolled", "seat": 2, "faces": [], "private": [2]},
        recruit(2, "green", 3),
        {"type": "GoodConsumed", "seat": 0, "world": "new_sparta", "good": "white", "shipper": "blue"},
        {"type": "VpGained", "seat": 0, "amount": 2, "pool": 30, "reason": "consume"},
        {"type": "GoodTraded", "seat": 1, "world": "new_sparta", "good": "white", "shipper": "white"},
        {"type": "CreditsGained", "seat": 1, "amount": 3, "credits": 4, "reason": "trade"},
        {"type": "PlayerReady", "seat": 2},
        {"type": "PlayerReady", "seat": 0},
        {"type": "PlayerReady", "seat": 1},
        *[{"type": "TilesDiscarded", "seat": 2, "count": 1}] * 4,
    ]
    told = [game.event_text(e, NAMES, {}, "en") for e in game.condensed(events)]
    assert told == [
        "Nothing to tell from Develop. Settle begins.",
        "Alice stocks with 2 explorers (Military, Home): +$4, now $5.",
        "Bob stocks with a Home explorer: +$2, now $3.",
        "Alice recruits 3 dice into the cup: Alien Tech, Novelty ×2 ($1 left).",
        "Bob recruits a Home die into the cup, runs out of credits and goes back to $1.",
        "Carol recruits a Genes die into the cup ($4 left).",  # a private happening between: told apart
        "You rolled: nothing.",
        "Carol recruits a Genes die into the cup ($3 left).",
        "Alice consumes the Home good from New Sparta with a Novelty shipper: +2 VP, 30 left in the pool.",
        "Bob trades the Home good from New Sparta: +$3, now $4.",
        "Carol, Alice and Bob are ready.",
        "Carol discards 4 tiles.",
    ]
    assert events[2] == stock(0, "red", 3)[0]  # the record itself is left as it was


@pytest.mark.parametrize("players,seed", [(2, 11), (4, 12)])
def test_told_lines_keep_every_die_and_credit_in_fewer_lines(game, players, seed):
    """Over a seeded game's public happenings, the condensed lines recruit the same dice, stock the same
    explorers for the same credits and end each run on the same balance, in far fewer lines."""
    engine = game.engine
    state = engine.new_game(players, {}, seed)
    public = []
    while engine.outcome(state) is None:
        seat = engine.to_act(state)[0]
        state, events = engine.apply(state, seat, engine.bot_action(state, seat, len(public)))
        public += [e for e in events if not e.get("private")]
    told = game.condensed(public)

    def tally(events):
        """Dice recruited and explorers stocked, per seat and colour; credits and victory points gained."""
        dice, stocked, gained = Counter(), Counter(), Counter()
        for e in events:
            kind = e["type"]
            colors = e.get("colors") or [e.get("color")]
            if kind in ("WorkerRecruited", "WorkersRecruited", "WorkersRecruitedFloored"):
                dice.update((e["seat"], c) for c in colors)
            if kind in ("Stocked", "ExplorersStocked"):
                stocked.update((e["seat"], c) for c in colors)
            if kind in ("CreditsGained", "ExplorersStocked", "GoodTradedForCredits"):
                gained["credits"] += e["amount"]
            if kind in ("VpGained", "GoodConsumedForVp"):
                gained["vp"] += e["amount"]
        return dice, stocked, gained

    assert tally(told) == tally(public) and sum(tally(public)[0].values()) > 20
    balances = {(e["seat"], e["credits"]) for e in public if "credits" in e}
    assert {(e["seat"], e["credits"]) for e in told if "credits" in e} <= balances
    assert len(told) < 0.6 * len(public), (len(told), len(public))
    for event in told:
        for locale in LOCALES:
            check_text(game.event_text(event, NAMES[:players], {}, locale), locale, event)


def test_every_event_type_the_engine_emits_has_a_text(game):
    source = (Path(__file__).resolve().parents[2] / "engines" / "roll_for_the_galaxy").glob("*.py")
    kinds = set()
    for path in source:
        kinds |= set(re.findall(r'"type": "([A-Z][A-Za-z]+)"', path.read_text("utf-8")))
    assert len(kinds) > 25
    for kind in kinds:
        assert game.has(f"event.{kind}"), kind


def test_every_error_code_the_engine_raises_has_a_text(game):
    source = Path(__file__).resolve().parents[2] / "engines"
    codes = set()
    for path in [*(source / "roll_for_the_galaxy").glob("*.py"), source / "base.py"]:
        codes |= set(re.findall(r'IllegalAction\(\s*"([a-z_]+)"', path.read_text("utf-8")))
    generic = {loc: i18n.t("error.illegal_action", loc) for loc in LOCALES}
    params = {
        "action": "trade",
        "stage": "explore",
        "power": "mad_scientists",
        "tile": "t01",
        "color": "red",
        "option": "speed",
        "value": "x",
        "players": 7,
        "min": 2,
        "max": 5,
        "low": 0,
        "high": 9,
    }
    for code in codes:
        for locale in LOCALES:
            text = game.error_text(code, params, locale)
            # Option refusals list the options by the names people type (first_game=true).
            check_text(text.replace("first_game", "option"), locale, code)
            if code != "illegal_action":
                assert text != generic[locale], (code, locale)


def test_every_tile_can_be_looked_up_in_every_language(game):
    for locale in LOCALES:
        cards = game.cards(locale)
        assert len(cards) == len(D.SIDES)
        for name, text in cards:
            check_text(name, locale, name)
            check_text(text, locale, name)
            assert len(name) <= 100 and len(text) < 1800
            assert game.lookup_card(name.upper(), locale) == (name, text)
    assert game.lookup_card("미친 과학자", "ko")[1].startswith("[개발, 비용 3]")


def test_a_card_is_found_by_its_name_in_any_language_and_told_in_the_readers(game):
    mad_es = game.lookup_card("científicos locos", "es")
    assert mad_es[0] == "Científicos locos" and mad_es[1].startswith("[Desarrollo, coste 3]")
    assert game.lookup_card("Mad Scientists", "es") == mad_es
    assert game.lookup_card("Científicos locos", "en")[0] == "Mad Scientists"
    assert game.lookup_card("Nueva Esparta", "ko")[0] == "뉴 스파르타"
    assert game.lookup_card("Mundo Rosetta", "es") is None  # whole names only
    assert ("Obras públicas", "Obras públicas") in game.suggest_cards("obras", "es")
    assert ("Public Works (Obras públicas)", "Public Works") in game.suggest_cards("obras", "en")
    assert ("Obras públicas (Public Works)", "Obras públicas") in game.suggest_cards("public w", "es")


def test_card_texts_carry_the_same_numbers_in_every_language(game):
    numbers = {loc: [Counter(re.findall(r"\d+", text)) for _, text in game.cards(loc)] for loc in LOCALES}
    assert numbers["es"] == numbers["en"]
    # Korean counts things with numerals ("1개") where English says "a", so it may carry more.
    assert all(en <= ko for en, ko in zip(numbers["en"], numbers["ko"], strict=True))


def test_labels_name_things_in_the_readers_language(game):
    engine = game.engine
    state = engine.new_game(3, {}, 5)
    view = engine.view(state, 0)
    action = engine.legal_actions(state, 0)[0]
    tile = action["development"]
    ko = game.action_text(action, view, "ko")
    assert D.side(D.TILE_SIDES[tile]["development"])["name"]["ko"] in ko
    assert game.value_label("color", "red", {}, view, "ko") == "무력 주사위"
    assert game.value_label("from", "unassigned", {}, view, "es") == "comodín sin colocar"
    # a place said with its article, as the event lines put it after "from" (a review read "from good on …")
    assert game.value_label("where", "good:alpha_centauri", {}, view, "en") == "the good on Alpha Centauri"
    assert game.value_label("side", "world", {"tile": "t01"}, view, "en") == "World: Designer Species, Ultd."
    assert game.value_label("side", "world", {"tile": "t01"}, view, "es") == "Mundo: Especies de diseño, S.A."
    assert game.value_label("world", "alpha_centauri", {}, view, "es") == "Alfa Centauri"
    es = game.action_text(action, view, "es")
    assert D.side(D.TILE_SIDES[tile]["development"])["name"]["es"] in es
    check_text(es, "es", action)


def test_spanish_pickers_name_every_tile_in_spanish(game):
    """Every tile as a picker or an action shows it: both faces, or the face in a construction stack."""
    view = game.engine.view(game.engine.new_game(2, {}, 9), 0)
    place = {"type": "place_tile", "side": "development", "position": "bottom"}
    for tile, sides in D.TILE_SIDES.items():
        labels = [game.tile_both(tile, "es"), game.start_label(tile, view, "es")]
        labels += [game.value_label("side", kind, {"tile": tile}, view, "es") for kind in sides]
        for key in ("dev_stack", "world_stack"):
            labels.append(game.tile_label(tile, {**view, "seats": [{key: [tile]}]}, "es"))
        labels.append(game.action_text({**place, "tile": tile}, view, "es"))
        for label in labels:
            check_text(label, "es", tile)
            assert len(label) <= 100, label
        assert D.side(sides["world"])["name"]["es"] in labels[0]
    # The start-tile buttons pair any development with any world.
    longest = {
        kind: max((game.side_name(sides[kind], "es") for sides in D.TILE_SIDES.values()), key=len)
        for kind in ("development", "world")
    }
    assert len(game.t("start_pair", "es", dev=longest["development"], world=longest["world"])) <= 80


def test_strings_match_across_languages_and_rules_cover_the_game(game):
    fields = i18n.placeholders
    english = {k: v for k, v in i18n._CATALOG["en"].items() if k.startswith("roll_for_the_galaxy.")}
    for locale in ("ko", "es"):
        other = {k: v for k, v in i18n._CATALOG[locale].items() if k.startswith("roll_for_the_galaxy.")}
        assert set(other) == set(english)
        assert all(fields(other[k]) == fields(v) for k, v in english.items())
    sections = rules.sections("roll_for_the_galaxy")
    ids = {s.id for s in sections}
    assert {
        "overview",
        "setup",
        "assign",
        "explore",
        "build",
        "produce_ship",
        "manage",
        "end",
        "options",
        "host_choices",
    } <= ids
    for section in sections:
        for locale in LOCALES:
            assert section.title_in(locale) and len(section.body_in(locale)) < 1900
    assert "provisional" in rules.find("roll_for_the_galaxy", "components", "en").body_in("en").lower()


def test_a_good_is_named_by_its_world_not_by_its_die():
    """A good's kind is its world's colour; the die's colour only counts when it is consumed. 'Minji produces a
    Home good on Pirate World' read as a kind of good that does not exist (found in a player-seat review)."""
    game = presenter("roll_for_the_galaxy")
    for key in ("event.GoodProduced", "event.GoodGained"):
        for locale in i18n.LOCALES:
            text = game.t(key, locale, player="Minji", world="Pirate World", color="Home")
            assert "Pirate World" in text and "Home" in text
        english = game.t(key, "en", player="Minji", world="Pirate World", color="Home")
        assert "Home good" not in english and english.endswith("(a Home die).")


def test_a_suggested_placement_names_each_tile_by_the_face_it_goes_on():
    """ "Suggested: 3 moves at once" was a blind commit: the option names the tiles, grouped by stack."""
    from engines.roll_for_the_galaxy import data as D

    game = presenter("roll_for_the_galaxy")
    tiles = list(D.TILE_SIDES)[:3]
    events = [
        {"type": "TilePlaced", "seat": 0, "side": side, "position": "bottom", "tile": tile, "private": [0]}
        for tile, side in zip(tiles, ("development", "world", "development"), strict=True)
    ]
    label = game.suggestion_label(events, "en")
    dev = [game.side_name(D.TILE_SIDES[t]["development"], "en") for t in (tiles[0], tiles[2])]
    world = game.side_name(D.TILE_SIDES[tiles[1]]["world"], "en")
    assert label == f"Suggested: developments {dev[0]}, {dev[1]} · worlds {world}"
    # and once placed, each is told by the face it went on (both faces, "A / B", read as two tiles in a review)
    told = game.confirmation(events, ["Minji"], {}, "en", 0)
    assert all(f"You put {name} on your" in told for name in (*dev, world)), told
    assert game.side_name(D.TILE_SIDES[tiles[1]]["development"], "en") not in told


def test_the_row_a_die_stands_in_reads_apart_from_the_phase_it_chooses():
    """ "Choose a phase · Home die · Explore · Develop" named two phases alike: the row the die stands in now says
    it is where the die comes from, in a picker's joint label and in a move's whole name (never "from from")."""
    game = presenter("roll_for_the_galaxy")
    for locale in i18n.LOCALES:
        row = game.part_label("from", "explore", {}, {}, locale)
        assert (
            row
            == game.t("from.row", locale, phase=game.phase_name("explore", locale))
            != game.phase_name("explore", locale)
        )
    assert game.part_label("from", "unassigned", {}, {}, "en") == "unplaced wild"
    dictate = game.t(
        "action.dictate", "en", color="Home die", **{"from": game.part_label("from", "settle", {}, {}, "en")}
    )
    assert dictate == "Dictate with a Home die from Settle"


def test_a_chained_move_every_choice_shares_is_named_in_each_label():
    """A review's player read "World: Asteroid Belt · top → Genes die" without knowing the die is recruited in
    the Manage phase: where every choice of a step chains the same kind of move, nothing asks the kind, and each
    label names it all the same."""
    from bot.chooser import picker_actions

    game = presenter("roll_for_the_galaxy")
    engine = game.engine
    checked = 0
    for state, seat in bot_played(engine, 2, range(40), 400):
        if checked == 3:
            break
        offered = picker_actions(engine, state, seat)
        step = narrow(offered, [])
        if (
            isinstance(step, Prompt)
            and len(step.values) > 1
            and "then.type" not in step.keys
            and any(key.startswith("then.") for key in step.keys)
            and all(action.get("then.type") == "recruit" for action in offered)
        ):
            view = engine.view(state, seat)
            for locale, kind in (("en", "Recruit"), ("ko", "고용")):
                labels = game.value_labels(step.key, step.values, step.chosen, view, locale)
                assert all(f"→ {kind} · " in label for label in labels), labels
            checked += 1
    assert checked == 3


def test_workers_put_on_an_unfinished_tile_are_told():
    """A review's player saw a development's boxes fill on the board while the story went from "this round:
    Develop, Ship" straight to Manage: only a finished tile had a line. Workers put on a tile that stays
    unfinished are now told, with how far it is built."""
    from engines.roll_for_the_galaxy.engine import STACKS

    game = presenter("roll_for_the_galaxy")
    engine = game.engine
    told = 0
    for seed in range(3):
        state = engine.new_game(3, engine.validate_options({}), seed)
        for move in range(400):
            if engine.outcome(state) is not None:
                break
            seat = engine.to_act(state)[0]
            after, events = engine.apply(state, seat, engine.bot_action(state, seat, move))
            for s, (before_seat, after_seat) in enumerate(zip(state["seats"], after["seats"], strict=True)):
                for kind, (stack, workers) in STACKS.items():
                    same_tile = before_seat[stack][:1] == after_seat[stack][:1] != []
                    if same_tile and len(after_seat[workers]) > len(before_seat[workers]):
                        [event] = [
                            e
                            for e in events
                            if e["type"] == "TileProgressed" and (e["seat"], e["kind"]) == (s, kind)
                        ]
                        assert event["filled"] == len(after_seat[workers])
                        assert game.event_text(event, ["A", "B", "C"], engine.view(after, None), "ko")
                        told += 1
            state = after
    assert told >= 10


def test_placing_a_wild_die_says_wild_once():
    """'와일드 특산품 주사위 (와일드)를 생산에 놓기', a review read: the die's name says it is wild already."""
    game = presenter("roll_for_the_galaxy")
    engine = game.engine
    for state, seat in bot_played(engine, 2, range(20), 300):
        placing = [a for a in engine.legal_actions(state, seat) if a["type"] == "assign_die"]
        if placing:
            view = engine.view(state, seat)
            for locale, word in (("en", "wild"), ("ko", "와일드"), ("es", "comodín")):
                text = game.action_text(placing[0], view, locale)
                assert text.lower().count(word) == 1, text
            return
    raise AssertionError("no wild die to place")


def test_a_status_waiting_for_several_gives_each_name_its_honorific_in_korean():
    """A review's Korean player read "Alice, Bob, Bot 1님을 기다리는 중": the honorific on the last name only."""
    engine = presenter("roll_for_the_galaxy").engine
    state = engine.new_game(3, engine.validate_options({}), 1)  # set-up: everyone chooses at once
    game = presenter("roll_for_the_galaxy")
    view = engine.view(state, None)
    assert len(view["to_act"]) == 3
    assert "Alice님, Bob님, Carol님이" in game.status_text(view, NAMES[:3], "ko")
    assert "waiting for Alice, Bob, Carol to" in game.status_text(view, NAMES[:3], "en")


def test_a_phase_in_which_nothing_was_told_is_named_and_everyone_ready_has_an_honorific():
    """ "This round: Explore, Develop, Ship" and then no word of Develop or Ship: a review's player could not tell
    whether they had happened. Nor did "Ana, Bo님이 준비를 마쳤습니다" give Ana her honorific."""
    game = presenter("roll_for_the_galaxy")
    events = [
        {"type": "PlayerReady", "seat": 0},
        {"type": "PlayerReady", "seat": 1},
        {"type": "PhaseStarted", "phase": "develop"},
        {"type": "PhaseStarted", "phase": "ship"},
        {"type": "PhaseStarted", "phase": "manage"},
    ]
    view = game.engine.view(game.engine.new_game(2, game.engine.validate_options({}), 1), None)
    told = {
        locale: [game.event_text(e, NAMES[:2], view, locale) for e in game.condensed(events)]
        for locale in LOCALES
    }
    assert told["en"] == [
        "Alice and Bob are ready.",
        "Nothing to tell from Develop, Ship. Manage empire begins.",
    ]
    assert told["ko"][0] == "Alice님, Bob님이 준비를 마쳤습니다."
    assert all(len(lines) == 2 for lines in told.values())


@pytest.mark.parametrize(
    "moves,lines",
    [
        ([("ready", 0), ("unready", 0)], []),
        ([("ready", 0), ("unready", 0), ("ready", 0)], ["Alice is ready."]),
        ([("ready", 0), ("ready", 1), ("unready", 0)], ["Bob is ready."]),
        ([("ready", 0), ("ready", 1), ("ready", 2), ("unready", 1)], ["Alice and Carol are ready."]),
        ([("unready", 2)], ["Carol is no longer ready."]),  # the ready it takes back was told earlier
    ],
)
def test_a_ready_taken_back_is_not_told(moves, lines):
    """A review's board filled with one player's "is ready", "is no longer ready", "is ready" lines."""
    game = presenter("roll_for_the_galaxy")
    kinds = {"ready": "PlayerReady", "unready": "PlayerUnready"}
    events = [{"type": kinds[kind], "seat": seat} for kind, seat in moves]
    view = game.engine.view(game.engine.new_game(3, game.engine.validate_options({}), 1), None)
    assert [game.event_text(e, NAMES[:3], view, "en") for e in game.condensed(events)] == lines


def test_a_die_moved_in_the_assignment_is_labelled_with_its_sentence():
    """ "단계 선택 · 본성 주사위 · 탐험에서 · 개발" read as a code to a review's Korean players: a die's move is
    labelled as the sentence it is, in every language."""
    from bot.chooser import narrow, picker_actions

    game = presenter("roll_for_the_galaxy")
    engine = game.engine
    state = engine.new_game(2, engine.validate_options({}), 5)
    for seat in engine.to_act(state):  # the two tiles chosen: the assignment begins
        state, _ = engine.apply(state, seat, engine.legal_actions(state, seat)[0])
    step = narrow(picker_actions(engine, state, 0), [])
    assert step.key == "type+color+from+phase"
    view = engine.view(state, 0)
    labels = {
        locale: game.value_labels(step.key, step.values, step.chosen, view, locale) for locale in LOCALES
    }
    assert "Choose Develop with a Home die (from Explore)" in labels["en"], labels["en"]
    assert "본성 주사위로 개발 선택 (탐험에서)" in labels["ko"], labels["ko"]
    for locale, said in labels.items():
        assert len(set(said)) == len(said) and not any(" · " in label for label in said), (locale, said)
