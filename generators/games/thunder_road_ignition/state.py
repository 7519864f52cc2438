"""Thunder Road: Ignition: the state records and what the rules ask of a state.

A state is one `State` record whose parts are immutable (named tuples, tuples, and mappings replaced
whole, never changed in place): an action copies the record once (`Record.copy`, one dictionary
copy) and replaces the parts it changes, so states share everything else and `apply` never touches
the state it is given.

Where a car is: START (the starting area), a road space `<tile>:<space>`, `pit:<tile>` (beside
that tile's pit stop) or FINISHED.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple

from generators.games.thunder_road_ignition.board import Board
from generators.games.thunder_road_ignition.facts import FINISHED, START, Kit
from generators.rules.records import Record


class Car(NamedTuple):
    id: str
    crew: str
    size: str
    at: str
    tokens: tuple[str, ...] = ()


class Crew(NamedTuple):
    name: str
    dice: tuple[int, ...]  # unassigned movement dice, in order
    assigned: tuple[tuple[str, int], ...] = ()  # (car size, die) this round
    command: str | None = None  # the command used this round
    set_aside: tuple[int, ...] = ()  # dice that went with finished cars this round

    def assigned_to(self, size: str) -> int | None:
        for s, die in self.assigned:
            if s == size:
                return die
        return None


class Movement(NamedTuple):
    """A car moving under a player's control: its regular move or a Slipstream."""

    car: str
    kind: Literal["move", "slipstream"]
    remaining: int
    road_only: bool
    drift: Literal["off", "ready", "used"] = "off"
    ended: bool = False
    displaced: bool = False  # an oil slick moved it during the step just taken
    bonus: bool = False  # the road bonus step has been taken


class Decision(NamedTuple):
    """What the game waits for: `kind` (the phase), who decides, and what the decision remembers."""

    kind: str
    player: str
    data: tuple[Any, ...] = ()


class Task(NamedTuple):
    """Work the rules resolve on their own, kept on a stack so that a decision (a reroll, a
    set-aside) can pause a chain reaction and the chain goes on after it."""

    kind: str
    car: str = ""
    other: str = ""
    space: str = ""
    how: str = ""
    direction: str = ""
    n: int = 0


@dataclass
class State(Record):
    board: Board = field(repr=False, compare=False)
    order: tuple[str, ...]
    cars: Mapping[str, Car]
    crews: Mapping[str, Crew]
    revealed: Mapping[str, str]  # hazard spaces whose token is face up: terrain
    hazard_pool: tuple[str, ...]  # hazard tokens still face down (or unused), as token ids
    pile: tuple[str, ...]
    discard: tuple[str, ...]
    first: str
    round: int
    turn: int
    active: str
    stage: str = "command"  # command, move, moving, shoot, over
    jumpstart: bool = False
    drift: bool = False
    moved: str | None = None  # the car this turn's move step moved
    movement: Movement | None = None
    stack: tuple[Task, ...] = ()
    decision: Decision | None = None
    winner: str | None = None
    hits: Mapping[str, int] = field(default_factory=dict)  # per car: slams and damage so far (Dazed stops on one)
    stats: Mapping[str, int] = field(default_factory=dict)

    @property
    def kit(self) -> Kit:
        return self.board.kit

    # -- changes, on an action's own copy only: each mapping is replaced whole --

    def put_car(self, car: Car) -> None:
        self.cars = {**self.cars, car.id: car}

    def put_crew(self, crew: Crew) -> None:
        self.crews = {**self.crews, crew.name: crew}

    def bump(self, key: str, n: int = 1) -> None:
        self.stats = {**self.stats, key: self.stats.get(key, 0) + n}

    def hit(self, car: str) -> None:
        self.hits = {**self.hits, car: self.hits.get(car, 0) + 1}


def car_id(crew: str, size: str) -> str:
    return f"{crew}-{size}"


def on_road(state: State, car: str) -> bool:
    return state.cars[car].at in state.board.spaces


def terrain(state: State, space: str) -> str:
    return state.revealed.get(space) or state.board.spaces[space].terrain


def cars_at(state: State, space: str) -> list[str]:
    return [c.id for c in state.cars.values() if c.at == space]


def unfinished(state: State, crew: str) -> list[Car]:
    return [c for c in state.cars.values() if c.crew == crew and c.at != FINISHED]


def open_slots(state: State, crew: str) -> list[str]:
    """Sizes of the crew's cars still racing that have no die this round."""
    c = state.crews[crew]
    taken = {size for size, _ in c.assigned}
    return [car.size for car in state.cars.values() if car.crew == crew and car.at != FINISHED
            and car.size not in taken]


def finished_count(state: State, crew: str) -> int:
    return sum(1 for c in state.cars.values() if c.crew == crew and c.at == FINISHED)


def progress(state: State, car: Car) -> float:
    return 0.0 if car.at == START else state.board.spaces[car.at].progress


def slipstream_cars(state: State, crew: str) -> list[str]:
    """Sizes of the crew's cars Slipstream may move: on the road or in the starting area, never the
    farthest forward of them (nor any car tied for it)."""
    spaces = state.board.spaces
    racing = [c for c in state.cars.values() if c.crew == crew and (c.at == START or c.at in spaces)]
    if not racing:
        return []
    # ruling: slipstream-farthest-forward
    best = max(progress(state, c) for c in racing)
    return [c.size for c in racing if progress(state, c) < best]


def cars_on_board(state: State) -> list[str]:
    spaces = state.board.spaces
    return sorted(c.id for c in state.cars.values() if c.at in spaces)


def front_targets(state: State, car: str) -> list[str]:
    """Cars in the three spaces in front of `car` (through barricades, any owner)."""
    ahead = state.board.spaces[state.cars[car].at].links[:3]  # links are in DIRECTIONS order, forward first
    return sorted(c.id for c in state.cars.values() if c.at in ahead)


def car_words(car: str) -> str:
    """red-large -> "red's large car" (a car is its crew's colour and its size)."""
    crew, _, size = car.partition("-")
    return f"{crew}'s {size} car" if size else car


def space_words(space: str) -> str:
    """1:c1 -> "c1 of tile 1" (the space's printed id, and the tile counted from the start)."""
    tile, _, spot = space.partition(":")
    return f"{spot} of tile {tile}" if spot else space
