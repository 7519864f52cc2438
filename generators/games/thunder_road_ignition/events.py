"""Thunder Road: Ignition: the small steps every rule takes on an action's own copy of the state:
telling what happened (events, log lines), rolling, waiting for a decision, pushing work, and the
three ends of a car's move (the pit, the finish line, a slam)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from generators.games.thunder_road_ignition.facts import CARS_TO_WIN, FINISHED, SIZES
from generators.games.thunder_road_ignition.state import Decision, State, Task, finished_count
from generators.rules.chance import Chance
from generators.rules.contract import Event


def note(events: list[Event], kind: str, **data: Any) -> None:
    events.append(Event(kind, data))


def log(events: list[Event], line: str) -> None:
    events.append(Event("log", {"text": line}))


def roll(chance: Chance, label: str, faces: Sequence[Any], events: list[Event]) -> Any:
    value = chance.choice(label, faces)
    events.append(Event("roll", {"label": label, "value": value}))
    return value


def push(s: State, *tasks: Task) -> None:
    """Push tasks to run in the order given (the first one runs first)."""
    s.stack = s.stack + tasks[::-1]


def wait(s: State, kind: str, player: str, *data: Any) -> None:
    s.decision = Decision(kind, player, data)


def is_mover(s: State, car: str) -> bool:
    return s.movement is not None and s.movement.car == car


def end_move(s: State, car: str) -> None:
    """Damage, a slam or a stop ends the move of the car moving, if that is this car."""
    m = s.movement
    if m is not None and m.car == car:
        s.movement = m._replace(ended=True)


def to_pit(s: State, car_name: str, why: str, events: list[Event]) -> None:
    car = s.cars[car_name]
    tile = s.board.spaces[car.at].tile if car.at in s.board.spaces else 1
    # ruling: pit-stop-on-the-same-tile
    pit = max(p for p in s.board.pits if p <= tile)
    s.put_car(car._replace(at=f"pit:{pit}"))
    end_move(s, car_name)
    s.bump("pits")
    note(events, "pit", car=car_name, pit=pit, why=why)
    log(events, f"{car_name} goes to the pit beside tile {pit} ({why})")


def finish(s: State, car_name: str, events: list[Event]) -> None:
    car = s.cars[car_name]
    s.put_car(car._replace(at=FINISHED))
    end_move(s, car_name)
    note(events, "finished", car=car_name)
    if finished_count(s, car.crew) >= CARS_TO_WIN:
        s.winner = car.crew
        s.stage = "over"
        s.stack = ()
        s.decision = None
        s.movement = None
        note(events, "won", crew=car.crew)
        log(events, f"{car.crew} has two cars across the finish line and wins")
        return
    crew = s.crews[car.crew]
    if crew.assigned_to(car.size) is not None:
        return  # its assigned die goes with it
    # ruling: finished-car-takes-a-die
    if len(set(crew.dice)) == 1:
        set_aside(s, crew.name, crew.dice[0], events)
    else:
        push(s, Task("set-aside", car=car_name))


def set_aside(s: State, crew_name: str, die: int, events: list[Event]) -> None:
    crew = s.crews[crew_name]
    dice = list(crew.dice)
    dice.remove(die)
    s.put_crew(crew._replace(dice=tuple(dice), set_aside=(*crew.set_aside, die)))
    note(events, "set-aside", crew=crew_name, die=die)


def larger(s: State, a: str, b: str) -> str:
    return a if SIZES.index(s.cars[a].size) > SIZES.index(s.cars[b].size) else b


def slam(s: State, top: str, bottom: str, chance: Chance, events: list[Event]) -> None:
    """A slam: both cars' moves end, the slam and direction dice are rolled, and the owner of the
    larger car (if one is larger) decides on the reroll before anything moves."""
    # ruling: slam-ends-every-move
    end_move(s, top)
    end_move(s, bottom)
    s.hit(top)
    s.hit(bottom)
    s.bump("slams")
    at = s.cars[top].at
    note(events, "slam", top=top, bottom=bottom, space=at)
    log(events, f"slam at {at}: {top} on top of {bottom}")
    kit = s.kit
    moves = roll(chance, "slam", kit.slam, events)
    direction = roll(chance, "direction", kit.direction, events)
    if s.cars[top].size != s.cars[bottom].size:
        wait(s, "reroll", s.cars[larger(s, top, bottom)].crew, top, bottom, moves, direction)
        return
    push(s, Task("slam-move", car=top, other=bottom, how=moves, direction=direction))
