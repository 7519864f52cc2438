"""Odds tables as people read them, from the exact fractions the rules check reports.

A report table is `{id, title, rule, columns: [outcome, col...], rows: [[label, cell...]], means?}`,
a cell being `{fraction, percent}` or a bare value. Each value column is one point of view (what a
car deals, what it takes), so each becomes its own small table (a view) with a headline: the chance
of each result group ("pass: 50 %") where the labels name one ("pass, -1 HP"), and the average as a
decimal with its unit where the labels carry numbers ("average: −1.5 HP"). The exact fractions
stay on the authors' page.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from generators.content.model import LoadedGame
from generators.site.links import slug

NBSP = "\u00a0"
MINUS = "\u2212"
_NUMBER = re.compile(r"^\s*([+\-\u2212]?\d+(?:\.\d+)?)\s*(.*?)\s*$")
_GROUPED = re.compile(r"^\s*([^,]+?)\s*,\s*(.+?)\s*$")


@dataclass(frozen=True)
class Row:
    label: str
    fraction: str  # exact, as the report gives it
    value: Fraction
    percent: str  # "25 %"
    width: float  # bar width in percent, 0..100
    numeric: bool = True  # False for a bare value that is not a probability ("-2 HP"): shown as it is, no bar


@dataclass(frozen=True)
class OddsView:
    """One value column of a report table: a single point of view."""

    anchor: str
    view: str | None  # the column's heading, when the table has several
    outcome: str  # the heading of the outcome column
    headline: tuple[str, ...]
    rows: tuple[Row, ...]
    mean: str | None  # the report's mean for this column, exact


@dataclass(frozen=True)
class OddsTable:
    id: str
    title: str
    rule: str | None
    views: tuple[OddsView, ...]


def game_odds(game: LoadedGame, tables: list[Any]) -> list[OddsTable]:
    """The game's odds tables as the check's report carries them (the site runs no engine code)."""
    return [_table(data) for data in tables if isinstance(data, dict) and data.get("id")]


def _table(d: dict[str, Any]) -> OddsTable:
    raw_rows = [r for r in d.get("rows", ()) if isinstance(r, list | tuple) and r]
    width = max((len(r) - 1 for r in raw_rows), default=1)
    columns = [str(c) for c in d.get("columns", ())]
    columns = columns + ["chance"] * (width + 1 - len(columns))
    means = [str(m) for m in d.get("means") or ()]
    views = []
    for col in range(width):
        every = tuple(_row(str(r[0]), r[col + 1] if col + 1 < len(r) else None) for r in raw_rows)
        rows = tuple(r for r in every if r.value or not r.numeric) or every  # impossible outcomes left out
        mean = means[col] if col < len(means) else None
        anchor = f"odds-{slug(str(d['id']))}" + (f"-{col + 1}" if col else "")
        views.append(OddsView(anchor, columns[col + 1] if width > 1 else None, columns[0],
                              _headline(rows, mean, columns[0]), rows, mean))
    return OddsTable(str(d["id"]), str(d.get("title") or d["id"]), str(d["rule"]) if d.get("rule") else None,
                     tuple(views))


def _row(label: str, cell: Any) -> Row:
    if isinstance(cell, dict):
        frac, pct = str(cell.get("fraction", "")), str(cell.get("percent", ""))
    else:
        frac, pct = ("" if cell is None else str(cell)), ""
    value = _fraction(frac)
    if value is None:
        from_pct = _fraction(pct.rstrip("% ")) if pct else None
        if from_pct is None and frac:  # a bare value that is not a probability ("-2 HP"): as it is, no bar
            return Row(label, frac, Fraction(0), frac, 0.0, numeric=False)
        value = (from_pct or Fraction(0)) / 100
    value = max(Fraction(0), min(Fraction(1), value))
    return Row(label, frac or str(value), value, percent(value), round(float(value) * 100, 2))


def _fraction(s: str) -> Fraction | None:
    try:
        return Fraction(s.replace(MINUS, "-"))
    except (ValueError, ZeroDivisionError):
        return None


def percent(p: Fraction) -> str:
    """A probability as people read it: whole percent where exact enough, else one decimal."""
    tenths = p * 1000
    if 0 < tenths < 1:
        return f"<0.1{NBSP}%"
    n = int(tenths + Fraction(1, 2))  # tenths of a percent, half up
    text = str(n // 10) if n % 10 == 0 else f"{n // 10}.{n % 10}"
    return f"{text}{NBSP}%"


def decimal(x: Fraction) -> str:
    """An expected value as a decimal with a real minus sign: 5/2 -> 2.5, -9/4 -> −2.25."""
    text = f"{float(x):.2f}".rstrip("0").rstrip(".")
    text = "0" if text in ("-0", "") else text
    return text.replace("-", MINUS)


def _headline(rows: tuple[Row, ...], mean: str | None, outcome: str) -> tuple[str, ...]:
    out: list[str] = []
    groups: dict[str, Fraction] = {}
    amounts: list[str] = []
    for r in rows:
        m = _GROUPED.match(r.label)
        if m:
            groups[m.group(1)] = groups.get(m.group(1), Fraction(0)) + r.value
            amounts.append(m.group(2))
        else:
            amounts.append(r.label)
    if (groups and len(groups) < len(rows)) or (groups and len(rows) == 1):
        out += [f"{name}: {percent(p)}" for name, p in groups.items()]
    average = _average(rows, amounts)
    if average is not None:
        out.append(f"average: {average}")
    elif mean is not None and is_distribution(rows) and (exact := _fraction(mean)) is not None:
        out.append(f"average {outcome}: {decimal(exact)}")
    zero = next((r for r, a in zip(rows, amounts, strict=True) if _is_zero(a)), None)
    if not groups and zero is not None and 0 < zero.value < 1:
        out.append(f"{zero.label}: {zero.percent}")
    return tuple(out)


def _is_zero(amount: str) -> bool:
    m = _NUMBER.match(amount)
    return m is not None and float(m.group(1).replace(MINUS, "-")) == 0


# A label naming a threshold ("8 or more", "3+", "at least 2") is a chance of reaching it, not an
# outcome: a table of thresholds has no average.
_THRESHOLD = re.compile(r"\bor (more|less|fewer|higher|lower|better|worse)\b|\+$|^at (least|most)\b", re.I)


def is_distribution(rows: tuple[Row, ...]) -> bool:
    """Do the rows list outcomes that exclude each other and cover everything (chances summing to 1)?
    Only then is there an average to give."""
    return bool(rows) and all(r.numeric for r in rows) and sum((r.value for r in rows), Fraction(0)) == 1


def _average(rows: tuple[Row, ...], amounts: list[str]) -> str | None:
    """The expected value (the sum of each outcome times its chance), where the rows are a
    distribution and every outcome is a number with the same unit ("-1 HP")."""
    if not is_distribution(rows):
        return None
    units = set()
    total = Fraction(0)
    for r, amount in zip(rows, amounts, strict=True):
        m = _NUMBER.match(amount)
        if not m or _THRESHOLD.search(m.group(2)) or _THRESHOLD.search(amount.strip()):
            return None
        units.add(m.group(2))
        total += r.value * Fraction(m.group(1).replace(MINUS, "-"))
    if len(units) != 1:
        return None
    unit = units.pop()
    return f"{decimal(total)}{NBSP}{unit}" if unit else decimal(total)
