"""Mission: Drive: the rating the look-ahead player uses (progress first: missions, enemies destroyed,
the boss's vulnerable spots hit; then health and upgrades; then how close the hero is to something it
can hit). It only speeds a player up; it never changes the rules."""

from __future__ import annotations

import functools
from collections.abc import Sequence

from generators.games.mission_drive.boss import boss_spaces
from generators.games.mission_drive.facts import DELTA, FIRE_DIRECTION, SLOTS, Space
from generators.games.mission_drive.state import State, Vehicle, deltas, part_space

# --- evaluation (the simulator's greedy policy) ---------------------------------------------------

# Weights of a state's worth to the hero, in rough units of "one health". Progress through the game comes
# first; resources (health, charges, upgrades, mirrors) next; then how close the hero is to something it can
# hit, so that a one-step look-ahead drives toward enemies and the boss's vulnerable spots.
WORTH = {
    "won": 10_000.0, "lost": -10_000.0, "mission": 400.0, "boss_stage": 1_300.0, "vulnerable_hit": 120.0,
    "enemy": 40.0, "truck_hit": 15.0, "civilian": -8.0, "health": 10.0, "last_health": 15.0, "charge": 3.0,
    "mirror": 1.0, "start_forward": 2.0, "reach": -4.0, "passed": -6.0, "threat": 10.0,
    "shield": 6.0, "jam": 10.0, "laser_strike": 28.0, "upgrade_step": 4.0,
}
# What an installed upgrade is worth to the greedy policy, by its effect kind (before its charges).
EFFECT_WORTH = {"shot": 7.0, "double-shot": 6.0, "repair": 5.0, "shield": 5.0, "shift": 4.0, "ram-proof": 3.0,
                "jam": 3.0, "disarm": 3.0, "redraw": 3.0, "civilian": 2.0, "mirror": 2.0}


def evaluate(s: State) -> float:
    """How good `s` looks for the hero (higher is better): the simulator's greedy one-step policy."""
    if s.game != "playing":
        return WORTH[s.game] + _progress(s)
    value = _progress(s)
    value += WORTH["health"] * s.health + (WORTH["last_health"] if s.health > 1 else 0.0)
    value += sum([WORTH["charge"] * u.charges + (EFFECT_WORTH[u.effect.kind] if u.effect else 0.0)
                  for u in s.upgrades])
    value += WORTH["mirror"] * sum(s.mirrors.values()) + WORTH["start_forward"] * s.start_forward
    if s.reward == "rookie" and s.variant == "standard":
        # The laser strike: worth keeping for a hard moment; once used, each later upgrade step has a point less.
        steps_after = 3 - s.mission + (s.phase == "mission")
        value += WORTH["laser_strike"] if not s.laser_used else -WORTH["upgrade_step"] * steps_after
    if s.phase in ("mission", "upgrades"):  # the short game's upgrade step comes with its mission laid out
        value += _mission_shaping(s)
    elif s.phase == "boss" and s.boss is not None:
        value += _boss_shaping(s)
    return value


def _progress(s: State) -> float:
    value = WORTH["mission"] * s.missions_accomplished
    if s.boss is not None:
        value += WORTH["boss_stage"] + WORTH["vulnerable_hit"] * sum(
            1 for p in s.boss.parts if p.vulnerable and p.id in s.boss.damaged)
    if s.phase == "mission":
        value += sum([WORTH["enemy"] if d.side == "enemy" else WORTH["civilian"] for d in s.destroyed
                      if d.by != "earlier"])
        value += WORTH["truck_hit"] * len([v for v in s.vehicles if v.damaged and v.side == "enemy"])
    return value


def _mission_shaping(s: State) -> float:
    """Toward the nearest enemy's firing spaces and a card that can hit one next; enemies left behind are
    hard to reach again; protection is worth something while an enemy is next to the hero."""
    enemies = [v.at for v in s.vehicles if v.side == "enemy"]
    if not enemies:
        return 0.0
    reach: int | None = None
    passed, exposed = 0, False  # counted in one pass: this runs on every look-ahead
    hero_row = s.hero[1]
    lanes, rows = s.lanes, s.rows
    for v in s.vehicles:
        if v.side != "enemy":
            continue
        here, beside = _enemy_view(s.hero, v.at, v.type == "motorcycle", lanes, rows)
        reach = here if reach is None or here < reach else reach
        passed += v.at[1] < hero_row - 1
        exposed = exposed or beside
    assert reach is not None  # there is an enemy
    value = WORTH["reach"] * reach + WORTH["passed"] * passed
    value += WORTH["threat"] * _threat(s, enemies, ram=True)
    if exposed and s.deck and "jam" in s.effects:  # without a jam the term is 0.0: adding it changes nothing
        enemy_cards = sum(1 for c in s.deck if c.kind == "enemy") / len(s.deck)
        value += WORTH["jam"] * enemy_cards * ("jam" in s.effects)
    return value + WORTH["shield"] * s.shield * (1.0 if exposed else 0.2)


def _boss_shaping(s: State) -> float:
    boss = s.boss
    assert boss is not None
    value = WORTH["shield"] * s.shield
    if boss.at is None:
        return value
    spots = [part_space(boss, p) for p in boss.parts if p.vulnerable and p.id not in boss.damaged]
    value += WORTH["reach"] * min((_reach(s, p) for p in spots), default=0)
    return value + WORTH["threat"] * _threat(s, spots, ram=False)


@functools.cache
def _enemy_view(hero: Space, at: Space, ram: bool, lanes: int, rows: int) -> tuple[int, bool]:
    """From the hero's space, an enemy's `_reach` and whether it is next to the hero (a pure function
    of a few numbers, asked for every enemy in every look-ahead, so kept)."""
    col, row = at
    hero_col, hero_row = hero
    best = abs(hero_col - col) + abs(hero_row - row) if ram else None
    for c, r in ((col - 1, row), (col + 1, row), (col, row - 1)):
        if 0 <= c < lanes and 0 <= r < rows:
            steps = abs(hero_col - c) + abs(hero_row - r)
            best = steps if best is None or steps < best else best
    return 0 if best is None else best, abs(hero_col - col) + abs(hero_row - row) == 1


def _reach(s: State, target: Space, ram: bool = False) -> int:
    """Steps from the hero to a space it can fire into `target` from (beside it, or below it), or to the
    target itself when ramming destroys it."""
    col, row = target
    hero_col, hero_row = s.hero
    best = abs(hero_col - col) + abs(hero_row - row) if ram else None
    for c, r in ((col - 1, row), (col + 1, row), (col, row - 1)):
        if 0 <= c < s.lanes and 0 <= r < s.rows:
            steps = abs(hero_col - c) + abs(hero_row - r)
            best = steps if best is None or steps < best else best
    return 0 if best is None else best


def _threat(s: State, targets: Sequence[Space], ram: bool) -> int:
    """The most targets one dashboard card could hit next turn (its arrows, mirrored or not, with a shot
    before or after, both under a double-shot effect; rammed enemy motorcycles when `ram`): a cheap sketch of
    the movement rules, in which a car, truck or boss part in the way stops the card."""
    wanted = set(targets)
    blocked: dict[Space, Vehicle | None] = {v.at: v for v in s.vehicles}
    if s.boss is not None and s.boss.at is not None:
        blocked.update((sp, None) for sp in boss_spaces(s.boss))
    both = "double-shot" in s.effects
    lanes, rows = s.lanes, s.rows
    hero_col, hero_row = s.hero
    slots, mirrors = s.slots, s.mirrors
    best = 0
    for slot, aim_col, aim_row in _AIMS:
        card = slots[slot]
        if card is None:
            continue
        first = (hero_col + aim_col, hero_row + aim_row)
        before = first in wanted
        for path in _paths(card.arrows, mirrors[slot]):
            col, row, rammed = hero_col, hero_row, None
            for d_col, d_row in path:
                c, r = col + d_col, row + d_row
                if not (0 <= c < lanes and 0 <= r < rows):
                    continue
                if (c, r) in blocked:
                    v = blocked[c, r]
                    if not (ram and v is not None and v.type == "motorcycle"):
                        break
                    rammed = (c, r) if (c, r) in wanted else rammed
                col, row = c, r
            last = (col + aim_col, row + aim_row)
            after = last in wanted and last != rammed
            shots = before + after if both and first != last else before or after  # or: max of two flags
            shots += rammed is not None
            if shots > best:
                best = shots
    return best


# Each slot with the step its shot goes (Firing a Weapon), in SLOTS order.
_AIMS = tuple((slot, *DELTA[FIRE_DIRECTION[slot]]) for slot in SLOTS)


@functools.cache
def _paths(arrows: tuple[str, ...], mirror: bool) -> tuple[tuple[Space, ...], ...]:
    """The steps of a card's arrows as played, then mirrored when its mirror token is face up."""
    return (deltas(arrows, False), deltas(arrows, True)) if mirror else (deltas(arrows, False),)
