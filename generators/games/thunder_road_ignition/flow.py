"""Thunder Road: Ignition: how play moves on by itself. The work an action sets going, resolved from a
stack until the game waits for someone's decision (or is won): a decision pauses a chain reaction, the
chain goes on after it. And rounds and turns (How to Play): each round every crew rolls its dice and
takes three turns in seating order from the first player; a crew with no car left to move that round
skips its turns; the first-player marker passes left."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache

from generators.games.thunder_road_ignition.damage import t_damage, t_dazed, t_place_token, t_shot
from generators.games.thunder_road_ignition.events import note, roll, wait
from generators.games.thunder_road_ignition.facts import TURNS_PER_ROUND
from generators.games.thunder_road_ignition.road import (
    t_after_command,
    t_after_pit_exit,
    t_enter,
    t_move_on,
    t_occupancy,
    t_resolve,
    t_slam_move,
)
from generators.games.thunder_road_ignition.state import Crew, State, Task, open_slots, unfinished
from generators.rules.chance import Chance
from generators.rules.contract import Event


def seating_from(order: Sequence[str], first: str) -> list[str]:
    i = order.index(first)
    return [*order[i:], *order[:i]]


@cache
def turns_of_round(order: tuple[str, ...], first: str) -> tuple[tuple[int, str], ...]:
    """The round's turns in order: (turn, player), three times round the table from the first player."""
    seats = seating_from(order, first)
    return tuple((turn, p) for turn in range(1, TURNS_PER_ROUND + 1) for p in seats)


def next_turn(s: State, chance: Chance, events: list[Event]) -> None:
    """The next player in the round with a car still to move; a new round when nobody has one."""
    sequence = turns_of_round(s.order, s.first)
    here = sequence.index((s.turn, s.active))
    # ruling: finished-car-takes-a-die
    for turn, player in sequence[here + 1:]:
        if open_slots(s, player):
            begin_turn(s, turn, player)
            return
    seats = seating_from(s.order, s.first)
    s.first = seats[1 % len(seats)]
    note(events, "marker", first=s.first)
    begin_round(s, s.round + 1, chance, events)


def begin_round(s: State, number: int, chance: Chance, events: list[Event]) -> None:
    s.round = number
    crews = dict(s.crews)
    faces = s.kit.movement
    for name in seating_from(s.order, s.first):
        n = len(unfinished(s, name)) + 1
        dice = tuple(roll(chance, "movement", faces, events) for _ in range(n))
        crews[name] = Crew(name, tuple(sorted(dice)))
    s.crews = crews
    note(events, "round", number=number, first=s.first,
         dice={name: list(crews[name].dice) for name in seating_from(s.order, s.first)})  # who rolled what
    for turn, player in turns_of_round(s.order, s.first):
        if open_slots(s, player):
            begin_turn(s, turn, player)
            return
    raise AssertionError("a round with nobody to move")


def begin_turn(s: State, turn: int, player: str) -> None:
    s.turn, s.active = turn, player
    s.stage = "command"
    s.jumpstart = s.drift = False
    s.moved = None
    s.movement = None
    wait(s, "turn", player)


def t_end_turn(s: State, t: Task, chance: Chance, events: list[Event]) -> None:
    next_turn(s, chance, events)


def t_set_aside(s: State, t: Task, chance: Chance, events: list[Event]) -> None:
    wait(s, "set-aside", s.cars[t.car].crew)


TASKS: dict[str, Callable[[State, Task, Chance, list[Event]], None]] = {
    "enter": t_enter, "resolve": t_resolve, "occupancy": t_occupancy, "slam-move": t_slam_move,
    "damage": t_damage, "dazed": t_dazed, "place-token": t_place_token, "set-aside": t_set_aside,
    "move-on": t_move_on, "after-command": t_after_command, "after-pit-exit": t_after_pit_exit,
    "shot": t_shot, "end-turn": t_end_turn,
}


def run(s: State, chance: Chance, events: list[Event]) -> None:
    while s.decision is None and s.winner is None:
        stack = s.stack
        if not stack:
            raise AssertionError("nothing to resolve and nobody to wait for")
        task = stack[-1]
        s.stack = stack[:-1]
        TASKS[task.kind](s, task, chance, events)
