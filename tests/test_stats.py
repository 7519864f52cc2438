"""Intervals checked against values computed by hand from their textbook formulas, and by coverage."""

from __future__ import annotations

import random

import pytest

from generators.rules.stats import difference, games_for, mean, rate


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


def test_paired_difference_without_correlation_is_the_unpaired_interval() -> None:
    # 10 both, 10 only a, 10 only b, 10 neither: a = b = 0.5 and no correlation (ad = bc)
    from generators.rules.stats import paired_difference

    paired, unpaired = paired_difference(10, 10, 10, 10), difference(rate(20, 40), rate(20, 40))
    assert paired.value == 0
    assert paired.low == pytest.approx(unpaired.low) and paired.high == pytest.approx(unpaired.high)


def test_paired_difference_is_narrower_when_games_go_the_same_way() -> None:
    from generators.rules.stats import paired_difference

    # the same rates (40 of 60 against 28 of 60) with most games going the same way for both
    paired, unpaired = paired_difference(26, 14, 2, 18), difference(rate(40, 60), rate(28, 60))
    assert paired.value == pytest.approx(unpaired.value) == pytest.approx(0.2)
    assert unpaired.low < paired.low < paired.value < paired.high < unpaired.high
    assert paired.clear and not paired_difference(0, 1, 0, 0).clear  # one game tells nothing apart
    assert paired_difference(0, 30, 0, 0).low >= -1.0 and paired_difference(0, 30, 0, 0).high <= 1.0


def test_paired_difference_covers_the_true_gap_about_95_percent_of_the_time() -> None:
    from generators.rules.stats import paired_difference

    rng = random.Random(11)
    cells, n, trials = (0.35, 0.25, 0.10, 0.30), 80, 2000  # both, only a, only b, neither: gap 0.15
    covered = 0
    for _ in range(trials):
        counts = [0, 0, 0, 0]
        for _ in range(n):
            u, k = rng.random(), 0
            while k < 3 and u >= cells[k]:
                u -= cells[k]
                k += 1
            counts[k] += 1
        d = paired_difference(*counts)
        covered += d.low <= 0.15 <= d.high
    assert 0.93 <= covered / trials <= 0.975
