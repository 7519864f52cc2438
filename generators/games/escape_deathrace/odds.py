"""Escape Deathrace 2182 Micro: exact odds. D4 results enumerated through the same rule functions the
engine resolves rolls with, so a table and the engine cannot disagree."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from generators.games.escape_deathrace.facts import (
    D4,
    FIRST_STRIKE,
    LANDMINE_LANDING,
    Abilities,
    counters_drive_by,
    damage_taken,
    first_strike_cancelled,
    hazard_roll,
    landmine_hit,
    skips_hazard,
    strike_hit,
    strikes,
)
from generators.rules.facts import GameContent
from generators.rules.wording import chance_cell, fraction

# ---------------------------------------------------------------------------------------------
# Exact odds (enumerating D4 draws through the same rule functions the engine uses)


@dataclass(frozen=True)
class OddsTable:
    """One exact distribution table: rows of (outcome label, probability per column)."""

    id: str
    title: str
    rule: str
    ability: str  # an ability id, or "any"
    columns: tuple[str, ...]  # probability columns (the first column, the outcome, is `outcome`)
    outcome: str
    rows: tuple[tuple[str, tuple[Fraction, ...]], ...]
    means: tuple[Fraction, ...] | None = None  # expected damage per column, where rows are damage

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "rule": self.rule,
            "ability": self.ability,
            "columns": [self.outcome, *self.columns],
            "rows": [[label, *(chance_cell(p) for p in probs)]
                     for label, probs in self.rows],
            "means": None if self.means is None else [fraction(m) for m in self.means],
        }




def distribution(n_rolls: int, value: Callable[..., Any]) -> dict[Any, Fraction]:
    """Exact distribution of `value(*rolls)` over `n_rolls` independent D4 draws."""
    out: dict[Any, Fraction] = {}
    combos: list[tuple[int, ...]] = [()]
    for _ in range(n_rolls):
        combos = [(*c, r) for c in combos for r in D4]
    weight = Fraction(1, len(D4) ** n_rolls)
    for combo in combos:
        key = value(*combo)
        out[key] = out.get(key, Fraction(0)) + weight
    return out


PLAIN: Abilities = frozenset()
WHO_HAS = {  # how a table names a car with one ability (the character cards say which character has it)
    "extra-damage": "a car that deals 1 extra damage",
    "tough": "a car that takes 1 less from every hit",
    "hazard-free": "a car that drives through hazards",
    "two-strikes": "a car that strikes twice",
    "gunproof": "a car immune to gunfire and drive-bys",
    "mineproof": "a car immune to landmines",
    "first-strike": "a car no first strike hits",
}


def _damage_table(key: str, title: str, ability: str | None, columns: dict[str, dict[int, Fraction]]) -> OddsTable:
    """A table whose rows are HP lost."""
    label = ability or "any"
    who = f", for {WHO_HAS[ability]}" if ability else ""
    values = sorted({v for dist in columns.values() for v in dist})
    rows = tuple((f"-{v} HP" if v else "0 HP", tuple(dist.get(v, Fraction(0)) for dist in columns.values()))
                 for v in values)
    means = tuple(sum((v * p for v, p in dist.items()), Fraction(0)) for dist in columns.values())
    return OddsTable(f"{key}-{label}", title + who, key, label, tuple(columns), "HP lost", rows, means)


def _ab(ability: str | None) -> Abilities:
    return frozenset({ability}) if ability else PLAIN


def _strike_dist(attacker: Abilities, target: Abilities, context: str, source: str) -> dict[int, Fraction]:
    """HP the target loses from all of the attacker's strikes in one action (two for Ariel & FlaMiN)."""
    return distribution(strikes(attacker), lambda *rolls: sum(
        damage_taken(target, strike_hit(attacker, r, context), source) for r in rolls))


def _hazard_outcome(ab: Abilities, roll: int) -> tuple[bool, int]:
    passed, damage = hazard_roll(roll)
    return passed, damage_taken(ab, damage, "hazard")


def _hazard_tables() -> list[OddsTable]:
    out = []
    for ability in (None, "tough", "hazard-free"):
        ab = _ab(ability)
        dist = ({(True, 0): Fraction(1)} if skips_hazard(ab)
                else distribution(1, lambda r, ab=ab: _hazard_outcome(ab, r)))
        order = sorted(dist, key=lambda k: (not k[0], k[1]))
        rows = tuple((f"{'pass' if ok else 'fail'}, {f'-{d} HP' if d else '0 HP'}", (dist[(ok, d)],))
                     for ok, d in order)
        mean = sum((d * pr for (_, d), pr in dist.items()), Fraction(0))
        who = f", for {WHO_HAS[ability]}" if ability else ""
        out.append(OddsTable(f"hazard-attempt-{ability or 'any'}", f"One hazard attempt{who}", "hazard-tiles",
                             ability or "any", ("probability",), "result", rows, (mean,)))
    return out


def _battle_tables() -> list[OddsTable]:
    return [_damage_table("battle-it-out", "Battle-it-out exchange, against a car with no ability", a, {
        "dealt by its strike as the mover": _strike_dist(_ab(a), PLAIN, "battle-it-out", "battle-it-out"),
        "dealt by its counter attack": _strike_dist(_ab(a), PLAIN, "counter", "battle-it-out"),
        "taken from the other car's strike": _strike_dist(PLAIN, _ab(a), "battle-it-out", "battle-it-out"),
    }) for a in (None, "extra-damage", "tough", "two-strikes")]


def _drive_by_tables() -> list[OddsTable]:
    out = []
    for a in (None, "extra-damage", "gunproof", "tough", "two-strikes"):
        ab = frozenset({"extra-damage", "counters-drive-by"}) if a == "extra-damage" else _ab(a)
        columns = {
            "dealt by its drive-by": _strike_dist(ab, PLAIN, "drive-by", "drive-by"),
            "taken from a drive-by": _strike_dist(PLAIN, ab, "drive-by", "drive-by"),
        }
        if counters_drive_by(ab):
            columns["dealt by its counter attack"] = _strike_dist(ab, PLAIN, "counter", "drive-by")
        out.append(_damage_table("drive-by", "Drive-by, against a car with no ability", a, columns))
    return out


def _landmine_tables() -> list[OddsTable]:
    out = []
    for a in (None, "tough", "mineproof"):
        ab = _ab(a)
        out.append(_damage_table("landmine", "Landmine", a, {
            "taken driving over it": distribution(1, lambda r, ab=ab: damage_taken(ab, landmine_hit(r), "landmine")),
            "taken landing on it": {damage_taken(ab, LANDMINE_LANDING, "landmine"): Fraction(1)},
        }))
    return out


def _boss_tables() -> list[OddsTable]:
    out = []
    for a in (None, "extra-damage", "tough", "first-strike", "two-strikes"):
        ab = _ab(a)
        hit = 0 if first_strike_cancelled(ab, False) else damage_taken(ab, FIRST_STRIKE, "first-strike")
        out.append(_damage_table("boss-battle", "Boss battle round: first strike, then the D4 action", a, {
            "boss loses to the D4 action": distribution(
                strikes(ab), lambda *r, ab=ab: sum(strike_hit(ab, x, "boss") for x in r)),
            "player loses to the first strike": {hit: Fraction(1)},
        }))
    return out


def odds() -> list[OddsTable]:
    """Exact distributions for every roll the rulebook resolves on a D4 table."""
    return [*_hazard_tables(), *_battle_tables(), *_drive_by_tables(), *_landmine_tables(), *_boss_tables()]


def odds_for(content: GameContent) -> list[dict[str, Any]]:
    """The tables as the site reads them (the content is not needed: the rolls' rules are the rulebook's)."""
    return [t.as_dict() for t in odds()]
