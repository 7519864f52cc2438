"""Vampire chase: the state records and the ring's geometry.

A state is one `State` record whose every part is immutable (tuples, frozen records, and mappings
replaced whole, never changed in place): an action copies the record once (`Record.copy`, one
dictionary update) and replaces the parts it changes, so states share everything else and `apply`
never touches the state it is given.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from generators.games.vampire_chase.facts import GEARS, SLOTS, Library
from generators.rules.records import Record


@dataclass(frozen=True, slots=True)
class Enemy:
    """An enemy card on the Chase Board; its Health is shown by the die on it."""

    card: str
    health: int
    uid: int


@dataclass(frozen=True, slots=True)
class Played:
    card: str
    enhanced: bool = False


PhaseId = Literal["shift", "draw", "actions", "hand", "reward", "over"]
Ring = tuple["Enemy | None", ...]  # index 0 unused, then slots 1..6: ring[slot] reads as the board does
EMPTY_RING: Ring = (None,) * (len(SLOTS) + 1)


@dataclass
class State(Record):
    lib: Library = field(repr=False, compare=False)
    mission: str
    checkpoint: int  # 0-based index into the mission's tiers
    vampires: Mapping[str, str]  # role -> vampire id
    vehicle: int
    ring: Ring
    reserves: Mapping[int, tuple[str, ...]]  # tier -> cards, top first
    decks: Mapping[str, tuple[str, ...]]  # role -> cards, top first
    discards: Mapping[str, tuple[str, ...]]
    hand: tuple[str, ...]
    played: tuple[Played, ...]
    tucked: tuple[str, ...]
    speed_bonus: int
    market_deck: tuple[str, ...]
    market_row: tuple[str, ...]
    gears: Mapping[str, str | None]
    shifter: str | None
    phase: PhaseId
    done: tuple[str, ...]  # gears whose action was taken (or begun) this turn, in order
    turn: int
    health: int
    shield: int
    corpses: int
    buried: int
    graveyard: tuple[str, ...]
    kills: tuple[int, ...]
    overkills: int
    retaliate: int
    next_uid: int
    result: str | None = None  # won | lost
    reason: str | None = None
    checkpoint_done: bool = False  # in the reward/hand phases after a checkpoint is passed
    gauge: int | None = None  # the last speed check's gauge
    stats: Mapping[str, int] = field(default_factory=dict)
    # Cards the player knows on top of each vampire's deck (bought ability cards go there face up)
    # and at the bottom of the Market Deck (a cycled row): what `resample` must not deal again.
    known_top: Mapping[str, int] = field(default_factory=lambda: {"driver": 0, "passenger": 0})
    known_bottom: int = 0

    def copy(self) -> State:
        # One C-level copy of the field dictionary: three times faster than Record.copy's update for
        # this record's ~40 fields, and every action makes one.
        new = object.__new__(State)
        new.__dict__ = self.__dict__.copy()
        return new

    # -- derived --

    @property
    def tier(self) -> int:
        return self.lib.missions[self.mission].tiers[self.checkpoint]

    @property
    def open_gears(self) -> list[str]:
        return [g for g in GEARS if g != self.shifter]

    def role_of(self, card: str) -> str:
        vampire = self.lib.vampire_cards[card].vampire
        for role, v in self.vampires.items():
            if v == vampire:
                return role
        raise KeyError(card)

    def enemies(self) -> list[tuple[int, Enemy]]:
        ring = self.ring
        return [(s, e) for s in SLOTS if (e := ring[s]) is not None]

    def find(self, uid: int) -> int | None:
        ring = self.ring
        for s in SLOTS:
            e = ring[s]
            if e is not None and e.uid == uid:
                return s
        return None

    def placed(self, uid: int) -> tuple[int, Enemy] | None:
        """Enemy `uid` with its slot, while it is on the ring."""
        slot = self.find(uid)
        enemy = None if slot is None else self.ring[slot]
        return None if slot is None or enemy is None else (slot, enemy)

    def title(self, card: str) -> str:
        """A card as players read it: its printed title."""
        return self.lib.titles.get(card, card)

    # -- changes, on an action's own copy only --

    def put(self, slot: int, enemy: Enemy | None) -> None:
        ring = self.ring
        self.ring = (*ring[:slot], enemy, *ring[slot + 1:])

    def bump(self, key: str, n: int = 1) -> None:
        self.stats = {**self.stats, key: self.stats.get(key, 0) + n}


def without(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    """`cards` less the first `card`."""
    i = cards.index(card)
    return cards[:i] + cards[i + 1:]


def with_pile(piles: Mapping[str, tuple[str, ...]], key: str, cards: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    return {**piles, key: cards}


# --- ring geometry -----------------------------------------------------------------------------------

N = len(SLOTS)
# Precomputed: the rules ask these for every enemy on every step.
DISTANCE = {(a, b): min(abs(a - b) % N, N - abs(a - b) % N) for a in SLOTS for b in SLOTS}


def ring_distance(a: int, b: int) -> int:
    return DISTANCE[a, b]


def step(slot: int, direction: int) -> int:
    return (slot - 1 + direction) % N + 1


def neighbours(slot: int) -> tuple[int, int]:
    return step(slot, -1), step(slot, 1)


def adjacent(a: int, b: int) -> bool:
    return DISTANCE[a, b] == 1


def clockwise_from(start: int) -> list[int]:
    return [step(start, i) for i in range(N)]


def move_destinations(state: State) -> list[int]:
    """MOVE: through any number of empty slots, forward or back; entering an occupied slot ends it."""
    out: set[int] = set()
    ring = state.ring
    for direction in (1, -1):
        slot = state.vehicle
        for _ in range(N - 1):
            slot = step(slot, direction)
            out.add(slot)
            if ring[slot] is not None:
                break
    return sorted(out)


# Precomputed: the two slots next to each slot, lower-numbered first; each slot's clockwise round.
NEAR = {s: tuple(sorted(neighbours(s))) for s in SLOTS}
CLOCKWISE = {s: tuple(clockwise_from(s)) for s in SLOTS}
