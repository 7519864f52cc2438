"""Mission: Drive: the state (the road, the dashboard, the upgrades, the boss) and the geometry of
the road. Parts are `Record`s: a copy is one dictionary copy, and an action copies a shared part
(a vehicle, an upgrade) only when it changes it (`_Ctx.own`), so the state it was given never changes."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

from generators.games.mission_drive.facts import (
    DELTA,
    MIRRORED,
    SLOTS,
    BossCard,
    BossPart,
    Card,
    Facts,
    Space,
    UpgradeEffect,
)
from generators.rules.records import Record

# --- state -------------------------------------------------------------------------------------


@dataclass
class Vehicle(Record):
    side: str
    type: str
    at: Space
    damaged: bool = False


@dataclass
class Upgrade(Record):
    id: str
    cost: int
    charge_spaces: int
    charges: int
    device: bool
    effect: UpgradeEffect | None = None  # frozen, shared between copies


@dataclass
class Token(Record):
    id: int
    kind: str  # rocket | drone
    at: Space


@dataclass(frozen=True)
class Pending:
    """A drawn enemy or civilian card waiting for the player's choice. `ends_turn`: it was drawn while
    refilling after the hero card was played (not by an upgrade during the turn)."""

    kind: str
    slot: str
    card: Card
    ends_turn: bool = True


@dataclass(frozen=True)
class Destroyed:
    side: str
    type: str
    by: str


@dataclass
class Boss(Record):
    name: str
    parts: tuple[BossPart, ...]
    tiles: tuple[str, ...]
    activation: tuple[tuple[str, Space], ...]
    column: list[BossCard]
    cards: tuple[BossCard, ...]  # the six to set up (before boss_setup)
    pink: tuple[int, ...] | None
    weapons: dict[str, str]
    fixed_weapons: dict[str, str]
    at: dict[str, Space] | None
    damaged: list[str]

    def clone(self) -> Boss:
        new = self.copy()
        new.column, new.weapons, new.fixed_weapons = list(self.column), dict(self.weapons), dict(self.fixed_weapons)
        new.at, new.damaged = None if self.at is None else dict(self.at), list(self.damaged)
        return new


@dataclass
class State(Record):
    facts: Facts
    lanes: int
    rows: int
    phase: str  # mission | upgrades | next-mission | boss-setup | boss
    variant: str
    mission: int
    reward: str
    difficulty: str
    boss_name: str
    health_track: int
    health: int
    hero: Space
    vehicles: list[Vehicle] = field(default_factory=list)
    uplinks: list[Space] = field(default_factory=list)
    slots: dict[str, Card | None] = field(default_factory=lambda: dict.fromkeys(SLOTS))
    mirrors: dict[str, bool] = field(default_factory=lambda: dict.fromkeys(SLOTS, True))
    deck: list[Card] = field(default_factory=list)
    discard: list[Card] = field(default_factory=list)
    destroyed: list[Destroyed] = field(default_factory=list)
    upgrades: list[Upgrade] = field(default_factory=list)
    offer: list[Upgrade] = field(default_factory=list)
    mission_cards: list[tuple[str, str]] = field(default_factory=list)  # (card id, side), near card first
    mission_deck: list[str] = field(default_factory=list)
    points: int = 0
    laser_used: bool = False
    start_forward: int = 0
    boss: Boss | None = None
    tokens: list[Token] = field(default_factory=list)
    turn: str | None = None  # boss phase: setup | boss | hero
    mission_status: str | None = "playing"
    game: str = "playing"
    pending: Pending | None = None
    damage_taken: int = 0
    score: int | None = None
    points_lost: int = 0
    next_token: int = 1
    supply: dict[str, int] = field(default_factory=dict)
    turns: int = 0  # hero turns played (missions and boss encounter)
    effects: list[str] = field(default_factory=list)  # upgrade effects lasting for the rest of this turn
    shield: int = 0  # damage an upgrade will prevent before the hero's next turn
    upgrades_used: int = 0
    boss_turns: int = 0
    missions_accomplished: int = 0
    total_score: int = 0

    @property
    def max_health(self) -> int:
        return self.health_track - 1

    def clone(self) -> State:
        """A copy `apply` changes freely: every mutable part is copied; frozen parts (cards, facts) are
        shared, and so are the vehicles, installed and offered upgrades until one changes (`_Ctx.own`)."""
        new = self.copy()
        new.vehicles = list(self.vehicles)
        new.uplinks = list(self.uplinks)
        new.slots = dict(self.slots)
        new.mirrors = dict(self.mirrors)
        new.deck = list(self.deck)
        new.discard = list(self.discard)
        new.upgrades = list(self.upgrades)
        # Shared, not copied: offer, effects, destroyed, mission cards and mission deck are replaced
        # whole when they change, never changed in place.
        new.boss = None if self.boss is None else self.boss.clone()
        new.tokens = [t.copy() for t in self.tokens]
        new.supply = dict(self.supply)
        return new

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        new = self.clone()
        new.vehicles = [v.copy() for v in self.vehicles]
        new.upgrades = [u.copy() for u in self.upgrades]
        new.offer = [u.copy() for u in self.offer]
        new.effects, new.destroyed = list(self.effects), list(self.destroyed)  # shared by clone, not here
        new.mission_cards, new.mission_deck = list(self.mission_cards), list(self.mission_deck)
        return new


# --- geometry and lookups ----------------------------------------------------------------------


def add(a: Space, b: Space) -> Space:
    return a[0] + b[0], a[1] + b[1]


def on_board(s: State, p: Space) -> bool:
    return 0 <= p[0] < s.lanes and 0 <= p[1] < s.rows


# ruling: adjacent
def neighbours(s: State, p: Space) -> tuple[Space, ...]:
    """The orthogonally adjacent spaces on the road (our reading of "adjacent")."""
    near = _adjacency(s.lanes, s.rows).get(p)
    if near is None:  # off the road: not in the table
        near = tuple(q for d in DELTA.values() if on_board(s, q := add(p, d)))
    return near


@functools.cache
def _adjacency(lanes: int, rows: int) -> dict[Space, tuple[Space, ...]]:
    """Each road space's neighbours on a road of this size, in DELTA's order (a pure function of two
    numbers, so kept once per size; callers only read it)."""
    return {(c, r): tuple((c + dc, r + dr) for dc, dr in DELTA.values()
                          if 0 <= c + dc < lanes and 0 <= r + dr < rows)
            for c in range(lanes) for r in range(rows)}


def manhattan(a: Space, b: Space) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def vehicle_at(s: State, p: Space) -> Vehicle | None:
    for v in s.vehicles:  # a plain loop: this runs millions of times in simulations
        if v.at == p:
            return v
    return None


def token_at(s: State, p: Space) -> Token | None:
    for t in s.tokens:
        if t.at == p:
            return t
    return None


def part_space(boss: Boss, part: BossPart) -> Space:
    assert boss.at is not None
    return add(boss.at[part.tile], part.offset)


def part_at(s: State, p: Space) -> BossPart | None:
    if s.boss is None or s.boss.at is None:
        return None
    return next((part for part in s.boss.parts if part_space(s.boss, part) == p), None)


def blocked(s: State, p: Space) -> bool:
    """A vehicle (or the hero) or the boss is there: nothing can move in without ramming."""
    if p == s.hero:
        return True
    for v in s.vehicles:
        if v.at == p:
            return True
    return s.boss is not None and s.boss.at is not None and part_at(s, p) is not None


def empty(s: State, p: Space) -> bool:
    return not blocked(s, p) and token_at(s, p) is None and p not in s.uplinks


def halted(s: State) -> bool:
    return s.game != "playing" or s.mission_status not in ("playing", None)


def enemies(s: State) -> list[Vehicle]:
    return [v for v in s.vehicles if v.side == "enemy"]


def outcome_of(s: State, kind: str) -> str:
    assert s.boss is not None
    return s.facts.weapons[s.boss.weapons[kind]].outcome


def vkey(v: Vehicle) -> tuple[int, int]:
    return v.at[1], v.at[0]


@functools.cache
def deltas(arrows: tuple[str, ...], mirrored: bool) -> tuple[Space, ...]:
    """The steps a card's arrows make, mirrored or not (a pure function of a card's arrows)."""
    return tuple(DELTA[MIRRORED[arrow] if mirrored else arrow] for arrow in arrows)
