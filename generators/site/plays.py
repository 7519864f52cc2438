"""Whole games the computer played, as the check's report carries them (`simulations`), turned into
lines a player reads on a game's overview: per policy and setting, how often each result came up and
the average of each figure. The site runs no engine code; the words come from the report."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Played:
    setting: str
    games: int
    results: str  # "won 40 % (31–50 %), lost 60 % (50–69 %)": each share with its 95 % interval
    figures: str  # "game length 17 actions on average, damage taken 2.5 ..."


@dataclass(frozen=True)
class Policy:
    name: str
    says: str  # what the policy does, in words
    rows: tuple[Played, ...]


def _words(key: str) -> str:
    return str(key).replace("_", " ").replace("-", " ")


def _number(x: Any) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".") if isinstance(x, float) else str(x)


def _share(key: str, v: dict[str, Any]) -> str:
    """"won 40 % (31–50 %)": a share with its 95 % interval, when the report gives one."""
    text = f"{_words(key)} {_number(v.get('percent'))} %"
    if "low" in v and "high" in v:
        text += f" ({_number(v['low'])}–{_number(v['high'])} %)"
    return text


def game_plays(data: Any) -> tuple[Policy, ...]:
    """The report's simulations of one game (or nothing, when the build played none)."""
    if not isinstance(data, dict):
        return ()
    said = data.get("policies") if isinstance(data.get("policies"), dict) else {}
    by_policy: dict[str, list[Played]] = {}
    for s in data.get("settings") or ():
        if not isinstance(s, dict):
            continue
        results = s.get("results") if isinstance(s.get("results"), dict) else {}
        figures = s.get("figures") if isinstance(s.get("figures"), dict) else {}
        result_text = ", ".join(_share(k, v) for k, v in results.items() if isinstance(v, dict))
        figure_text = "; ".join(f"{'actions' if k == 'actions' else _words(k)} {_number(v.get('mean'))}"
                                for k, v in figures.items() if isinstance(v, dict))
        by_policy.setdefault(str(s.get("policy", "random")), []).append(
            Played(_words(s.get("setting", "")), int(s.get("games", 0)), result_text, figure_text))
    return tuple(Policy(name, str(said.get(name, name)), tuple(rows)) for name, rows in by_policy.items())
