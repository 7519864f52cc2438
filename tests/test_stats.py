"""Intervals checked against values computed by hand from their textbook formulas, and by coverage."""

from __future__ import annotations

import random

import pytest

from generators.engine.stats import difference, games_for, mean, rate


def test_wilson_interval_matches_its_formula() -> None:
    # 40 of 100: centre (0.4 + z²/200) / (1 + z²/100), half-width from the score formula.
    r = rate(40, 100)
    assert r.low == pytest.approx(0.30940, abs=1e-4)  # published: [0.3094, 0.4980]
    assert r.high == pytest.approx(0.49800, abs=1e-4)


def test_wilson_stays_inside_zero_and_one() -> None:
    assert rate(0, 30).low == 0.0 and 0.0 < rate(0, 30).high < 0.15
    assert rate(30, 30).high == pytest.approx(1.0) and rate(30, 30).low > 0.85


def test_wilson_covers_the_true_rate_about_95_percent_of_the_time() -> None:
    rng = random.Random(5)
    p, n, trials = 0.3, 200, 2000
    covered = 0
    for _ in range(trials):
        hits = sum(rng.random() < p for _ in range(n))
        r = rate(hits, n)
        covered += r.low <= p <= r.high
    assert 0.93 <= covered / trials <= 0.97


def test_a_difference_inside_the_noise_is_not_clear() -> None:
    assert not difference(rate(52, 100), rate(48, 100)).clear
    assert difference(rate(70, 100), rate(40, 100)).clear
    d = difference(rate(70, 100), rate(40, 100))
    assert d.low < 0.3 < d.high


def test_mean_interval_and_games_needed() -> None:
    m = mean([1.0, 2.0, 3.0, 4.0])
    assert m.value == 2.5 and m.low < 2.5 < m.high
    assert games_for(0.03) == 1068  # ±3 points at 50 %
