"""The strength bench runs on tiny settings and prints every figure it promises (the figures are for `make bench`)."""

import json

from bench import strength_bench
from engines import get_engine


def test_the_strength_bench_prints_its_figures(capsys):
    strength_bench.run(games=1, budget=8, only=["roll_player", "talisman"], round_cap=2)
    out = capsys.readouterr().out
    assert "roll_player: thinking p50" in out and "p99" in out
    assert "solo mean score: hard" in out
    assert "2 players: hard wins" in out and "4 players: hard wins" in out
    assert "talisman: thinking p50" in out
    assert "median" in out and "p90" in out and "reached the Crown in 0/1" in out
    assert "stopped at 2 rounds 1" in out and "NOT MET" in out


def test_the_talisman_race_alone_prints_its_figures(capsys):
    strength_bench.run(games=1, round_cap=2, race_only=True, first_seed=7000)
    out = capsys.readouterr().out
    assert out.startswith("talisman race: seeds 7000-7000, 4 easy bots") and "hard" not in out


def test_wilson_interval_brackets_the_rate():
    low, high = strength_bench.wilson(60, 100)
    assert 0.49 < low < 0.6 < high < 0.7
    assert strength_bench.wilson(0, 10)[0] == 0.0


def test_a_record_keeps_played_games_and_plays_only_the_missing_ones(tmp_path):
    engine = get_engine("roll_player")
    path = tmp_path / "games.jsonl"
    # Game 0 as recorded: a share no 2-player game of this seed gives, so reading it is what decides.
    strength_bench.Record(path).add("roll_player", 2, 8, 0, {"share": 0.5, "finished": True, "think": [9.0]})
    think: list[float] = []
    line = strength_bench.head_to_head(engine, 2, 3, 8, think, strength_bench.Record(path), jobs=2)
    recorded = [json.loads(text) for text in path.read_text().splitlines()]
    assert sorted(entry["game"] for entry in recorded) == [0, 1, 2]  # games 1 and 2 played and added
    wins = 0.5 + sum(entry["share"] for entry in recorded[1:])
    assert f"hard wins {wins / 3:6.1%}" in line and think[0] == 9.0
    # Played again from the record alone: the same figures, nothing added.
    again: list[float] = []
    assert strength_bench.head_to_head(engine, 2, 3, 8, again, strength_bench.Record(path)) == line
    assert again == think and len(path.read_text().splitlines()) == 3
    # The games played in processes are those played here.
    for entry in recorded[1:]:
        alone = strength_bench.head_to_head_game("roll_player", 2, entry["game"], 8)
        assert alone["share"] == entry["share"] and len(alone["think"]) == len(entry["think"])
