"""Match statistics: the Elo difference and its confidence interval."""

from __future__ import annotations

import math

import pytest

from tools.engine.stats import Tally, elo_from_score


def test_elo_of_familiar_scores() -> None:
    assert elo_from_score(0.5) == 0
    assert elo_from_score(0.75) == pytest.approx(190.85, abs=0.01)
    assert elo_from_score(0.25) == pytest.approx(-190.85, abs=0.01)
    assert elo_from_score(1.0) == math.inf
    assert elo_from_score(0.0) == -math.inf


def test_an_even_match_has_a_symmetric_interval() -> None:
    tally = Tally(wins=90, draws=20, losses=90)
    elo, low, high = tally.elo()
    assert tally.score == 0.5 and elo == 0
    assert low == pytest.approx(-high)
    # 200 games, per-game deviation sqrt(0.225): half-width 1.96 * 0.0335 in score.
    assert tally.score_interval()[1] == pytest.approx(0.5 + 1.959964 * math.sqrt(0.225 / 200))
    assert tally.elo_text().startswith("+0 ± ")


def test_a_clean_sweep_has_an_infinite_elo_but_a_finite_lower_bound() -> None:
    tally = Tally(wins=200, draws=0, losses=0)
    elo, low, high = tally.elo()
    assert elo == math.inf and high == math.inf
    # Wilson's interval: 200 wins in 200 games rules out scores below about 98.1%.
    assert low == pytest.approx(elo_from_score(200 / (200 + 1.959964**2)), abs=1)
    assert 600 < low < 800
    assert "+inf" in tally.elo_text()


def test_more_games_narrow_the_interval() -> None:
    few, many = Tally(15, 0, 5), Tally(150, 0, 50)
    assert few.score == many.score
    assert many.elo()[2] - many.elo()[1] < few.elo()[2] - few.elo()[1]
