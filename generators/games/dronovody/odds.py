"""Дроноводи: exact odds for the site, enumerated through the rule functions the engine resolves rolls
with (`attack_hits`, `breaks_down`, `artillery_hits`, `activates`)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from generators.games.dronovody.facts import D6, activates, artillery_hits, attack_hits, breaks_down
from generators.rules.wording import chance_cell


def _chance(pred: Any) -> Fraction:
    return Fraction(sum(1 for d in D6 if pred(d)), len(D6))


def _attack_table(to_hit: int) -> dict[str, Any]:
    rows = []
    for mod in range(-3, 4):
        once = _chance(lambda d, m=mod: attack_hits(d, m, to_hit))
        twice = 1 - (1 - once) ** 2
        rows.append([f"{mod:+d}" if mod else "0", chance_cell(once), chance_cell(twice)])
    return {"id": f"drone-attack-{to_hit}", "title": f"One drone attack needing {to_hit}: chance to hit",
            "rule": "attack-procedure",
            "columns": ["modifier to the die", "one roll", "with a re-roll (as Artillery correction gives)"],
            "rows": rows, "means": None}


def _artillery_table() -> dict[str, Any]:
    rows = []
    for to_hit in (2, 3, 4, 5, 6):
        once = _chance(lambda d, n=to_hit: artillery_hits(d, n))
        rows.append([f"{to_hit} or more", chance_cell(once), chance_cell(1 - (1 - once) ** 2)])
    return {"id": "artillery-hit", "title": "An Artillery card's roll: chance to hit", "rule": "artillery-cards",
            "columns": ["the card needs", "no correction", "with Artillery correction (one re-roll)"],
            "rows": rows, "means": None}


def _breakdown_table() -> dict[str, Any]:
    rows = []
    for attacks in (1, 2, 3):
        never = (1 - _chance(lambda d: breaks_down(d, 1))) ** attacks
        rows.append([f"{attacks} attack(s) rolled", chance_cell(1 - never)])
    return {"id": "breakdown", "title": "A reusable drone with the red die on 1: chance it breaks during a sortie",
            "rule": "attack-procedure", "columns": ["sortie", "breaks down"], "rows": rows, "means": None}


def _defence_table() -> dict[str, Any]:
    rows = []
    for k in range(0, 7):
        one = _chance(lambda d, k=k: any(activates(d, v) for v in range(1, k + 1)))
        row: list[Any] = [f"{k} different value(s) on the field", chance_cell(one)]
        for n in (2, 3, 4):
            row.append(chance_cell(1 - (1 - one) ** n))
        rows.append(row)
    return {"id": "defence-activation", "title": "A defence roll activates at least one enemy",
            "rule": "threat-phase",
            "columns": ["activation values present", "one player's roll", "any of 2 players", "any of 3 players",
                        "any of 4 players"], "rows": rows, "means": None}


def odds_for(content: Any = None) -> list[dict[str, Any]]:
    """The tables (the content is not needed: the rolls' rules are the rulebook's)."""
    return [*(_attack_table(v) for v in (3, 4, 5, 6)), _breakdown_table(), _artillery_table(), _defence_table()]


