"""Roll for the Galaxy's picker facts: the lines under a step's question tell what its buttons can only name (found
in a three-player seat review, in Korean and English)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.chooser import Prompt, narrow, picker_actions
from bot.games import presenter
from engines.base import State
from engines.roll_for_the_galaxy import data as D
from engines.roll_for_the_galaxy import rules as R

GAME = presenter("roll_for_the_galaxy")
ENGINE = GAME.engine
NAMES = ["Ana", "Bo", "Cy"]


def reached(seed: int, wanted: Callable[[State], bool], first_game: bool = True) -> State:
    """A three-player game played by the built-in player until seat 0 may act and `wanted` holds."""
    state = ENGINE.new_game(3, {"first_game": first_game}, seed)
    for moves in range(5000):
        if 0 in ENGINE.to_act(state) and wanted(state):
            return state
        seat = ENGINE.to_act(state)[0]
        state, _ = ENGINE.apply(state, seat, ENGINE.bot_action(state, seat, moves))
    raise AssertionError("never reached")


def offers(state: State, kind: str) -> bool:
    return any(action["type"] == kind for action in ENGINE.legal_actions(state, 0))


def step(state: State, path: list[int] | None = None) -> Prompt:
    found = narrow(picker_actions(ENGINE, state, 0), path or [])
    assert isinstance(found, Prompt)
    return found


def facts(state: State, locale: str, path: list[int] | None = None) -> list[str]:
    """The lines the picker puts under its question, as `Picker.message` asks for them."""
    at = step(state, path)
    return GAME.choice_facts(at.key, at.values, at.chosen, ENGINE.view(state, 0), locale)


def name(side_id: str, locale: str) -> str:
    return D.side(side_id)["name"][locale]


def drawn(state: State) -> list[str]:
    return state["seats"][0]["task"]["scout"]["drawn"]


def test_scouted_tiles_show_both_sides_with_cost_effect_and_vp():
    """ "You drew: Space Marines / Prosperous World. As which side?" named the sides only."""
    state = reached(1, lambda s: offers(s, "place_tile"))
    [tile] = drawn(state)
    dev, world = D.TILE_SIDES[tile]["development"], D.TILE_SIDES[tile]["world"]
    en = facts(state, "en")
    assert en[0].startswith(f"• **{name(dev, 'en')}** [Development, cost {D.side(dev)['cost']}]")
    assert en[0].endswith(f"({D.side(dev)['cost']} VP)")
    world_color = GAME.world_color(D.side(world)["color"], "en")
    assert en[1].startswith(f"• **{name(world, 'en')}** [{world_color} world, cost {D.side(world)['cost']}]")
    assert en[1].endswith(f"({D.side(world)['cost']} VP)")
    ko = facts(state, "ko")
    assert ko[0].startswith(f"• **{name(dev, 'ko')}** [개발, 비용 {D.side(dev)['cost']}]")
    assert ko[1].endswith(f"(승점 {D.side(world)['cost']}점)")
    # The lone tile is never asked for; its side buttons name the face it would show.
    at = step(state)
    labels = GAME.value_labels(at.key, at.values, at.chosen, ENGINE.view(state, 0), "en")
    assert labels[0].startswith(f"Development: {name(dev, 'en')}")
    assert any(label.startswith(f"World: {name(world, 'en')}") for label in labels)


def test_several_scouted_tiles_show_each_then_the_one_left():
    state = reached(1, lambda s: offers(s, "discard_tile"))
    discard = next(a for a in ENGINE.legal_actions(state, 0) if a["type"] == "discard_tile")
    state, _ = ENGINE.apply(state, 0, discard)
    state, _ = ENGINE.apply(state, 0, {"type": "draw"})
    tiles = drawn(state)
    assert len(tiles) == 2
    sides = [D.TILE_SIDES[tile][kind] for tile in tiles for kind in ("development", "world")]
    assert [line.split("**")[1] for line in facts(state, "ko")] == [name(side, "ko") for side in sides]
    place = {"type": "place_tile", "tile": tiles[0], "side": "world", "position": "bottom"}
    state, _ = ENGINE.apply(state, 0, place)
    assert [line.split("**")[1] for line in facts(state, "en")] == [name(side, "en") for side in sides[2:]]


def ship_state(credits: int, powers: list[str]) -> State:
    state = reached(1, lambda s: offers(s, "trade"))
    seat = state["seats"][0]
    seat["credits"] = credits
    seat["tableau"] += [{"id": power, "goods": []} for power in powers]
    return state


def paid(state: State, action: dict) -> dict[str, int]:
    """What the engine pays for `action`: its credits and VP, by what they are for."""
    _, events = ENGINE.apply(state, 0, action)
    return {
        e["type"]: e["amount"]
        for e in events
        if e["type"] in ("CreditsGained", "VpGained") and e["seat"] == 0
    }


@pytest.mark.parametrize("powers", [[], ["export_duties", "galactic_renaissance", "new_economy"]])
def test_each_good_says_what_trading_and_consuming_it_pay_as_the_engine_pays(powers):
    """ "Trade · Alien Tech die · Jungle World · Genes good" never said the trade pays $5, nor the VP of
    consuming; tile powers that add to either are counted in."""
    state = ship_state(1, powers)
    lines = facts(state, "en")
    actions = ENGINE.legal_actions(state, 0)
    goods = {(a["world"], a["good"]) for a in actions if a["type"] == "trade"}
    assert len(lines) == len(goods) >= 2
    for world, good in goods:
        [line] = [ln for ln in lines if name(world, "en") in ln and f"{GAME.die_name(good, 'en')} good" in ln]
        trade = next(a for a in actions if a["type"] == "trade" and (a["world"], a["good"]) == (world, good))
        assert f"Trade +${paid(state, trade)['CreditsGained']} ·" in line
        consumed = {
            a["shipper"]: paid(state, a)
            for a in actions
            if a["type"] == "consume" and (a["world"], a["good"]) == (world, good)
        }
        for shipper, gain in consumed.items():
            told = f"+{gain['VpGained']} VP" + (
                f" and ${gain['CreditsGained']}" if "CreditsGained" in gain else ""
            )
            if len({repr(g) for g in consumed.values()}) > 1:
                told = f"with a {GAME.die_name(shipper, 'en')} die {told}"
            assert told in line, (told, line)
    if powers:  # Export Duties: +$1 a trade; Galactic Renaissance: +1 VP, New Economy: +$2 a consume
        assert any(" and $2" in line for line in lines)


def test_a_trade_past_the_credit_cap_says_so_in_every_language():
    state = ship_state(9, [])
    en, ko = facts(state, "en"), facts(state, "ko")
    assert en and all("(credits stop at $10)" in line for line in en)
    assert ko and all("(크레디트는 $10까지만 모입니다) · 소비 시 승점" in line for line in ko)


def test_managing_shows_the_credits_citizenry_and_cup():
    """Recruiting said "Nothing behind the screen right now" and nowhere the credits it spends; and a review's
    player, not told that recruiting goes on while credits and citizenry last (the rulebook's 고용), was surprised
    when all seven dice were recruited."""
    state = reached(1, lambda s: offers(s, "recruit"))
    seat = ENGINE.view(state, 0)["seats"][0]
    citizenry = GAME.dice_list(seat["citizenry"], "en")
    assert (
        f"You have ${seat['credits']}; recruiting costs $1 a die and goes on until your credits or your "
        f"citizenry run out (which dice is yours to choose). Citizenry: {citizenry}." in facts(state, "en")[0]
    )
    ko = facts(state, "ko")[0]
    assert ko.startswith(
        f"가진 크레디트 ${seat['credits']}. 고용은 주사위 1개에 $1이며, 크레디트나 시민 집단의 주사위가 떨어질 때까지"
    )
    state = reached(1, lambda s: offers(s, "reclaim"))
    seat = ENGINE.view(state, 0)["seats"][0]
    assert facts(state, "en") == [
        f"You have ${seat['credits']}. Citizenry: {GAME.dice_list(seat['citizenry'], 'en') or 'nothing'}. "
        f"Cup: {GAME.dice_list(seat['cup'], 'en') or 'nothing'}."
    ]


def dictating(state: State) -> bool:
    if state["stage"] != "assign":
        return False
    if offers(state, "choose_phase"):  # the built-in player readies at once: choose a phase by hand
        return True
    return offers(state, "dictate")


def dictate_state() -> State:
    state = reached(1, dictating)
    choose = next(a for a in ENGINE.legal_actions(state, 0) if a["type"] == "choose_phase")
    state, _ = ENGINE.apply(state, 0, choose)
    assert offers(state, "dictate")
    return state


def test_dictate_says_what_dictating_does():
    state = dictate_state()
    assert facts(state, "en") == [
        "Dictate: put one of your placed workers on Dictate to move one other worker to any other phase; the "
        "worker on Dictate goes back to your cup."
    ]
    assert facts(state, "ko")[0].startswith("명령: 배정한 일꾼 1명을 명령 구역에 놓으면 다른 일꾼 1명을")
    dictate = next(a for a in ENGINE.legal_actions(state, 0) if a["type"] == "dictate")
    after, _ = ENGINE.apply(state, 0, dictate)  # the move it allows is offered next, told the same way
    assert facts(after, "en")[0].startswith("Dictate: ")
    state["seats"][0]["tableau"].append({"id": "galactic_mandate", "goods": []})
    assert "move up to 3 other workers" in facts(state, "en")[0]


def test_finishing_managing_is_told_naturally():
    state = reached(1, lambda s: offers(s, "end_manage"))
    action = {"type": "end_manage"}
    after, events = ENGINE.apply(state, 0, action)
    told = {
        locale: GAME.confirmation(events, NAMES, ENGINE.view(after, 0), locale, 0, [action])
        for locale in ("en", "ko", "es")
    }
    assert told["en"].startswith("Done: finished managing")
    assert told["ko"].startswith("완료: 제국 관리를 마쳤습니다")
    assert told["es"].startswith("Hecho: gestión terminada")


def test_a_six_cost_development_with_an_end_game_bonus_says_its_vp_are_six_and_more():
    """The rulebook marks these developments "6+": their cost in VP, and their bonus on top. The scout's facts
    said "(6 VP)", as if that were all."""
    sides = [side for tile in D.TILE_SIDES.values() for side in tile.values()]
    plus = [s for s in sides if any(power["when"] == "end_game" for power in D.powers(s))]
    assert plus
    for side_id in plus:
        assert GAME.side_fact(side_id, "en").endswith("(6+ VP)")
    plain = D.TILE_SIDES["t28"]["development"]
    assert GAME.side_fact(plain, "en").endswith(f"({D.side(plain)['cost']} VP)")


def test_exploring_says_how_many_explorers_are_still_to_send():
    """A review's player had three explorers while the first menu's chains suggested two: the step says how many
    are left, and which."""
    state = reached(2, lambda s: s["stage"] == "explore" and len(s["seats"][0]["task"]["explorers"]) >= 2)
    explorers = [c for c, _ in ENGINE.view(state, 0)["seats"][0]["task"]["explorers"]]
    dice = GAME.dice_list(explorers, "en")
    assert f"{len(explorers)} explorers still to send: {dice}. Each scouts or stocks." in facts(state, "en")
    assert f"아직 보낼 탐험가 {len(explorers)}개" in facts(state, "ko")[0]


def test_producing_tells_what_a_good_on_each_world_will_be_worth():
    """ "Produce · Home die · Wormhole Station" or "· Gem World" said nothing of what either good would be worth,
    where shipping tells it (a review's player). Each world on offer: its trade price, and which dice make a good
    of its own colour, which consumes for 1 VP more."""
    state = reached(3, lambda s: offers(s, "produce"))
    seat = state["seats"][0]
    produce = [a for a in ENGINE.legal_actions(state, 0) if a["type"] == "produce"]
    for locale in ("en", "ko"):
        lines = facts(state, locale)
        for world in {a["world"] for a in produce}:
            color = D.side(world)["color"]
            [line] = [ln for ln in lines if name(world, locale) in ln]
            assert f"${R.trade_price(seat, color)}" in line
            matching = [
                a["color"] for a in produce if a["world"] == world and a["color"] in (color, "purple")
            ]
            for (
                die
            ) in matching:  # a good of the world's colour: 1 VP more when consumed, as the engine scores it
                assert R.consume_vp("white", die, color) == R.consume_vp("white", "red", color) + (
                    color != "red"
                )
                assert GAME.die_name(die, locale) in line
            if locale == "en":
                assert ("consumes for 1 VP more" in line) == bool(matching)
