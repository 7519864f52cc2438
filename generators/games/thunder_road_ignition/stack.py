"""Thunder Road: Ignition: the work an action sets going, resolved from a stack until the game waits
for someone's decision (or is won). A decision pauses a chain reaction; the chain goes on after it."""

from __future__ import annotations

from collections.abc import Callable

from generators.games.thunder_road_ignition.damage import t_damage, t_dazed, t_place_token, t_shot
from generators.games.thunder_road_ignition.road import (
    t_after_command,
    t_after_pit_exit,
    t_enter,
    t_move_on,
    t_occupancy,
    t_resolve,
    t_slam_move,
)
from generators.games.thunder_road_ignition.rounds import t_end_turn, t_set_aside
from generators.games.thunder_road_ignition.state import State, Task
from generators.rules.chance import Chance
from generators.rules.contract import Event

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
