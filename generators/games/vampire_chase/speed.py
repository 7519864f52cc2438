"""Vampire chase: the speed gauge and the speed check (Chase Activation · 1. Check Speed)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from generators.games.vampire_chase.facts import GAUGE_MAX, GAUGE_MIN, MAX_SPEED_DAMAGE, ZONES
from generators.games.vampire_chase.state import State


def zone(gauge: int) -> int:
    return _ZONE_OF[gauge]


_ZONE_OF = {g: i for i, (low, high, _, _) in enumerate(ZONES) for g in range(low, high + 1)}


def clamp_speed(total: int) -> int:
    return max(GAUGE_MIN, min(GAUGE_MAX, total))


def speed_damage(gauge: int, rng: tuple[int, int]) -> int:
    """Check Speed: no damage inside the range's zone(s); -1 HP per zone of difference, at most -2."""
    # ruling: speed-token-or-card-back (a range spanning zones costs nothing in any of them)
    diff = min(abs(zone(gauge) - zone(s)) for s in range(rng[0], rng[1] + 1))
    return min(MAX_SPEED_DAMAGE, diff)


def reachable_speeds(values: Sequence[tuple[int, ...]], bonus: int = 0) -> list[int]:
    """Every gauge value the cards' speed symbols (one choice per card) can set, clamped to 1..6."""
    return list(_reachable(tuple(values), bonus))


@cache
def _reachable(values: tuple[tuple[int, ...], ...], bonus: int) -> tuple[int, ...]:
    totals = {bonus}
    for options in values:
        totals = {t + v for t in totals for v in options}
    return tuple(sorted({clamp_speed(t) for t in totals}))


def chase_range(state: State) -> tuple[int, int]:
    """The speed range to match: the back of the tier's top reserve card, or the tier's printed default."""
    # ruling: speed-token-or-card-back
    reserve = state.reserves[state.tier]
    if reserve:
        low, high = state.lib.enemies[reserve[0]].range
        return low, high
    return state.lib.defaults[state.tier]


def zone_name(gauge: int) -> str:
    return ZONES[zone(gauge)][2]

