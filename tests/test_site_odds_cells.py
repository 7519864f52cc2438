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
