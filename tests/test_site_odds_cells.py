"""Odds tables may hold bare values that are not probabilities (a damage table): they show as written,
with no bar and no made-up percentage; probabilities keep their bar."""

from __future__ import annotations

from generators.site.odds import _table


def test_bare_words_are_shown_as_written() -> None:
    table = _table({"id": "t", "title": "T", "columns": ["gauge", "range 1–2"],
                    "rows": [["1", "no damage"], ["6", "−2 HP"], ["x", {"fraction": "1/4", "percent": "25.0%"}],
                             ["y", "1/2"]]})
    [view] = table.views
    rows = {r.label: r for r in view.rows}
    words, damage, prob, bare = rows["1"], rows["6"], rows["x"], rows["y"]
    assert (words.fraction, words.percent, words.numeric, words.width) == ("no damage", "no damage", False, 0.0)
    assert (damage.fraction, damage.numeric) == ("−2 HP", False)
    assert prob.numeric and prob.width == 25.0
    assert bare.numeric and bare.percent.startswith("50")


# --- every headline recomputed from its own table, for every game -------------------------------

import re  # noqa: E402
from fractions import Fraction  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

from generators.check.runner import engine_of  # noqa: E402
from generators.rules.facts import game_content  # noqa: E402
from tests.helpers import real_content  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
GAMES = [g for g in real_content().games if g.engine]
AVERAGE = re.compile(r"average(?: [^:]+)?: ([\u2212\-]?\d+(?:\.\d+)?)")


def _views(game):
    engine = engine_of(game)
    for data in engine.odds_for(game_content(game, engine)):
        yield from _table(data).views


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_every_average_is_a_mean_of_a_distribution(game) -> None:
    """A headline's average is recomputed here from the table's rows: the rows must be outcomes
    whose chances sum to 1, each a number (no threshold such as "8 or more"), and the average
    their chance-weighted sum, to the two decimals shown."""
    for view in _views(game):
        for line in view.headline:
            m = AVERAGE.match(line)
            if not m:
                continue
            total = sum((r.value for r in view.rows), Fraction(0))
            assert total == 1, f"{game.id} {view.anchor}: {line!r} over rows whose chances sum to {total}"
            values = []
            for r in view.rows:
                n = re.match(r"\s*([\u2212\-+]?\d+(?:\.\d+)?)", r.label.split(",")[-1])
                assert n, f"{game.id} {view.anchor}: {line!r} over a row that is not a number: {r.label!r}"
                assert not re.search(r"or (more|less)|\+\s*$", r.label), f"{view.anchor}: threshold {r.label!r}"
                values.append(Fraction(n.group(1).replace("\u2212", "-")))
            mean = sum((v * r.value for v, r in zip(values, view.rows, strict=True)), Fraction(0))
            shown = float(m.group(1).replace("\u2212", "-"))
            assert abs(shown - float(mean)) <= 0.005 + 1e-9, f"{game.id} {view.anchor}: {line!r}, mean {float(mean)}"


def test_a_threshold_table_has_no_average() -> None:
    table = _table({"id": "t", "columns": ["to hit", "chance"],
                    "rows": [["6 or more", "5/6"], ["8 or more", "1/2"], ["10 or more", "1/6"]]})
    assert not any(line.startswith("average") for line in table.views[0].headline)


def test_a_distribution_has_its_mean() -> None:
    table = _table({"id": "t", "columns": ["damage", "chance"],
                    "rows": [["0 HP", "1/2"], ["2 HP", "1/4"], ["4 HP", "1/4"]]})
    assert "average: 1.5\u00a0HP" in table.views[0].headline
