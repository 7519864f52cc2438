"""Exact odds tables, as the rules check wrote them into its report (from each engine's `odds()`).

A table is `{id, title, rule, columns: [outcome, col...], rows: [[label, cell...]], means?}`
(or an object with `as_dict()` giving that), a cell being `{fraction, percent}` or a bare value.
Everything is optional beyond id, title and rows, so a new game's tables render without site code.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from generators.content.model import LoadedGame


@dataclass(frozen=True)
class Cell:
    fraction: str
    percent: str
    width: float  # bar width in percent, 0..100
    numeric: bool = True  # False for a bare value that is not a probability ("-2 HP"): shown as it is, no bar


@dataclass(frozen=True)
class OddsTable:
    id: str
    title: str
    rule: str | None
    columns: tuple[str, ...]  # the outcome column's heading first
    rows: tuple[tuple[str, tuple[Cell, ...]], ...]
    means: tuple[str, ...] | None


def game_odds(game: LoadedGame, tables: list[Any]) -> list[OddsTable]:
    """The game's odds tables as the check's report carries them (the site runs no engine code)."""
    return [_table(data) for data in tables if isinstance(data, dict) and data.get("id")]


def _table(d: dict[str, Any]) -> OddsTable:
    rows = tuple((str(r[0]), tuple(_cell(c) for c in r[1:])) for r in d.get("rows", ()))
    width = max((len(cells) for _, cells in rows), default=1)
    columns = tuple(str(c) for c in d.get("columns", ())) or ("outcome", *(["probability"] * width))
    means = d.get("means")
    return OddsTable(
        id=str(d["id"]),
        title=str(d.get("title") or d["id"]),
        rule=str(d["rule"]) if d.get("rule") else None,
        columns=columns,
        rows=rows,
        means=tuple(str(m) for m in means) if means else None,
    )


def _cell(c: Any) -> Cell:
    if isinstance(c, dict):
        frac = str(c.get("fraction", ""))
        pct = str(c.get("percent", ""))
    else:
        frac, pct = str(c), ""
    try:
        value = Fraction(frac)
    except (ValueError, ZeroDivisionError):
        try:
            value = Fraction(pct.rstrip("%")) / 100
        except (ValueError, ZeroDivisionError):
            if not pct:
                return Cell(frac, "", 0.0, numeric=False)
            value = Fraction(0)
    if not pct and frac:
        pct = f"{float(value) * 100:.1f}%"
    return Cell(frac, pct, round(max(0.0, min(1.0, float(value))) * 100, 2))
