"""Exact odds tables, for games whose engine module offers `odds()`.

A table is `{id, title, rule, columns: [outcome, col...], rows: [[label, cell...]], means?}`
(or an object with `as_dict()` giving that), a cell being `{fraction, percent}` or a bare value.
Everything is optional beyond id, title and rows, so a new game's tables render without site code.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from generators.content.model import LoadedGame


@dataclass(frozen=True)
class Cell:
    fraction: str
    percent: str
    width: float  # bar width in percent, 0..100


@dataclass(frozen=True)
class OddsTable:
    id: str
    title: str
    rule: str | None
    columns: tuple[str, ...]  # the outcome column's heading first
    rows: tuple[tuple[str, tuple[Cell, ...]], ...]
    means: tuple[str, ...] | None


def engine_module(game: LoadedGame) -> Any | None:
    if not game.engine:
        return None
    try:
        return importlib.import_module(f"generators.engine.{game.engine}")
    except ImportError:
        return None


def game_odds(game: LoadedGame) -> list[OddsTable]:
    module = engine_module(game)
    provider = getattr(module, "odds", None)
    if provider is None:
        return []
    tables = []
    for raw in provider():
        data = raw.as_dict() if hasattr(raw, "as_dict") else dict(raw)
        tables.append(_table(data))
    return tables


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
            value = Fraction(0)
    if not pct and frac:
        pct = f"{float(value) * 100:.1f}%"
    return Cell(frac, pct, round(max(0.0, min(1.0, float(value))) * 100, 2))
