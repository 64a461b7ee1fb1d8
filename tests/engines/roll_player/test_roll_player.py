"""Roll Player: data validation, the rulebook's worked scoring examples, and the renderer."""

from __future__ import annotations

from collections import Counter

from engines import get_engine
from engines.rng import Rng
from engines.roll_player.data import ALIGNMENTS, BACKSTORIES, CARDS, CLASSES, COLOUR_COUNTS, RACES
from engines.roll_player.scoring import armor_stars, backstory_stars, final_attribute, trait_card_stars
from render.roll_player import render_private, render_table
from tests.pictures import assert_drawn, assert_follows_the_view

ENGINE = get_engine("roll_player")


def _seat(**rows: list[list]) -> dict:
    base = {a: [] for a in ("str", "dex", "con", "int", "wis", "cha")}
    base.update(rows)
    return {
        "race": "human",
        "class": "warrior",
        "rows": base,
        "gold": 0,
        "token": 4,
        "cards": {"weapon": [], "armor": [], "trait": [], "skill": []},
    }


def test_component_counts_and_names():
    assert len(RACES) == 7 and len(CLASSES) == 12 and len(BACKSTORIES) == 16 and len(ALIGNMENTS) == 17
    assert sum(COLOUR_COUNTS.values()) == 73
    types = Counter(card["type"] for card in CARDS.values())
    assert types == {"weapon": 8, "armor": 12, "trait": 21, "skill": 13}
    groups = (RACES, CLASSES, BACKSTORIES, ALIGNMENTS, CARDS)
    for entry in [entry for group in groups for entry in group.values()]:
        assert entry["id"] and entry["name"]["en"] and entry["name"]["ko"]
        if entry.get("provisional"):
            assert entry["note"]
    assert all(len(card["grid"]) == 9 for card in ALIGNMENTS.values())


def test_jeweled_dagger_and_reckless_example():
    seat = _seat(str=[["blue", 5], ["gold", 6], ["gold", 5]], int=[["white", 2], ["black", 2], ["gold", 1]])
    seat["cards"]["weapon"] = ["jeweled_dagger"]
    seat["cards"]["trait"] = ["reckless"]
    assert final_attribute(seat, "str") == 18
    assert final_attribute(seat, "int") == 5
    assert trait_card_stars(seat, "reckless", []) == 2


def test_four_chain_cards_with_class_colour():
    seat = _seat()
    # The helm is red, the warrior's colour.
    seat["cards"]["armor"] = ["chain_helm", "chain_leggings", "chain_gorget", "chain_vambraces"]
    assert armor_stars(seat) == 7 + 1


def test_backstory_table():
    assert [backstory_stars(m) for m in range(7)] == [0, 0, 1, 1, 3, 3, 6]


def test_playout_and_render(artifacts_dir):
    for players in (1, 4):
        state = ENGINE.new_game(players, ENGINE.validate_options({}), 3)
        chooser = Rng.from_seed(players)
        while ENGINE.outcome(state) is None:
            seat = chooser.choice(sorted(ENGINE.to_act(state)))
            state, _ = ENGINE.apply(state, seat, chooser.choice(ENGINE.legal_actions(state, seat)))
        names = ["A", "B", "C", "D"][:players]
        png = render_table(ENGINE.view(state, None), names, "ko")
        assert_drawn(png, 600, 400)

        def richer(view):
            view["seats"][0]["gold"] += 4

        assert_follows_the_view(
            lambda v, names=names: render_table(v, names, "en"), ENGINE.view(state, None), richer
        )
        (artifacts_dir / f"roll_player-{players}p.png").write_bytes(png)
        assert render_private(ENGINE.view(state, 0), "en") is None
