"""The fitter of the Talisman player's weights finds the best weights for the games it is given."""

from bench import talisman_worth
from engines.talisman import autoplayer


def _objective(weights, data):
    """What the fit maximises: the mean log-likelihood less its small L2 penalty."""
    return talisman_worth.log_likelihood(weights, data) - talisman_worth.L2 * sum(w * w for w in weights)


def test_the_fit_maximises_the_likelihood_of_who_won():
    data = talisman_worth.positions(2, 4, 80_000)
    assert len(data) > 100 and all(0 <= winner < len(rows) for rows, winner in data)
    weights = talisman_worth.fit(data)
    best = _objective(weights, data)
    assert best > _objective([0.0] * len(weights), data)
    assert best > _objective([autoplayer.WORTH[name] for name in talisman_worth.FITTED], data)
    for i in range(len(weights)):  # no single weight moved either way does better: a maximum, not a guess
        for nudge in (-0.05, 0.05):
            moved = [w + nudge * (j == i) for j, w in enumerate(weights)]
            assert _objective(moved, data) <= best


def test_the_fit_prints_its_figures(capsys):
    talisman_worth.run(four_player_games=1, two_player_games=1)
    out = capsys.readouterr().out
    assert "mean log-likelihood: fitted" in out and "held, not fitted: fate" in out
    assert all(f"  {name} " in out for name in talisman_worth.FITTED)
