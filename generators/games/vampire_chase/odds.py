"""Vampire chase: exact probability tables for the site, computed with the rules' own functions."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from generators.games.vampire_chase.facts import GAUGE_MAX, GAUGE_MIN, HAND_SIZE, ZONES, Library, build_library
from generators.games.vampire_chase.specs import Options
from generators.games.vampire_chase.speed import reachable_speeds, speed_damage, zone, zone_name
from generators.rules.facts import GameContent
from generators.rules.wording import chance_cell


def damage_table(ranges: Sequence[tuple[int, int]]) -> dict[str, Any]:
    rows = []
    for gauge in range(GAUGE_MIN, GAUGE_MAX + 1):
        cells = []
        for rng in ranges:
            d = speed_damage(gauge, rng)
            cells.append("no damage" if d == 0 else f"−{d} HP")
        rows.append([f"gauge {gauge} ({zone_name(gauge)})", *cells])
    return {"id": "speed-check-damage", "title": "Speed check: damage for every gauge and range",
            "rule": "check-speed", "columns": ["your speed", *(f"range {a}–{b} ({zone_name(a)})" for a, b in ranges)],
            "rows": rows, "means": None}


def zones_reached(hand: Sequence[str], lib: Library) -> set[int]:
    """The zones some cards of this hand can set the gauge in (at least one played, the rest tucked)."""
    reached: set[int] = set()
    cards = list(hand)
    for k in range(1, len(cards) + 1):
        for combo in itertools.combinations(cards, k):
            values = [lib.vampire_cards[c].speed for c in combo]
            bonus = sum(e.amount for c in combo for e in lib.vampire_cards[c].effects if e.do == "speed")
            reached |= {zone(g) for g in reachable_speeds(values, bonus)}
    return reached


def _hands(deck: Sequence[str], k: int) -> Counter[tuple[str, ...]]:
    """Every k-card draw from a shuffled deck, as sorted hands with their number of equally likely orders."""
    return Counter(tuple(sorted(deck[i] for i in idx)) for idx in itertools.combinations(range(len(deck)), k))


def zone_reach_table(lib: Library, driver: str, passenger: str) -> dict[str, Any]:
    d_deck, p_deck = lib.cards_of(driver, "starter"), lib.cards_of(passenger, "starter")
    rows = []
    for a in range(HAND_SIZE, -1, -1):
        b = HAND_SIZE - a
        if a > len(d_deck) or b > len(p_deck):
            continue
        hits = [0] * len(ZONES)
        total = 0
        for dh, dn in _hands(d_deck, a).items():
            for ph, pn in _hands(p_deck, b).items():
                n = dn * pn
                total += n
                for z in zones_reached([*dh, *ph], lib):
                    hits[z] += n
        rows.append([f"{a} from {driver.title()}, {b} from {passenger.title()}",
                     *(chance_cell(Fraction(h, total)) for h in hits)])
    return {"id": f"zone-reach-{driver}-{passenger}",
            "title": f"First hand: chance to reach each speed zone ({driver.title()} drives, "
                     f"{passenger.title()} rides)",
            "rule": "check-speed",
            "columns": ["first hand drawn", *(f"{z[2]} ({z[0]}–{z[1]})" for z in ZONES)],
            "rows": rows, "means": None}


def odds_tables(lib: Library) -> list[dict[str, Any]]:
    ranges = sorted({(c.range[0], c.range[1]) for c in lib.enemies.values()} | set(lib.defaults.values()))
    default = (Options.driver, Options.passenger)
    pairs = sorted(itertools.permutations(lib.vampires(), 2), key=lambda pair: (pair != default, pair))
    tables = [damage_table(ranges)]
    for driver, passenger in pairs:
        tables.append(zone_reach_table(lib, driver, passenger))
    return tables



def odds_for(content: GameContent) -> list[dict[str, Any]]:
    return odds_tables(content.view(build_library))
