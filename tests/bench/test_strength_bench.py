"""The strength bench runs on tiny settings and prints every figure it promises (the figures are for `make bench`)."""

from bench import strength_bench


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
