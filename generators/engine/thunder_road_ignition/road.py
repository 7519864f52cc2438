"""Thunder Road: Ignition: moving along the road (2. Move, The Road, Slamming). Each task resolves
one piece of a move: a car entering a space, the space's terrain, a slam, and what comes after a
step (the next step, a choice, or the end of the move)."""

from __future__ import annotations

from typing import Literal

from generators.engine.chance import Chance
from generators.engine.contract import Event
from generators.engine.thunder_road_ignition.board import crosses_barricade, link, walk
from generators.engine.thunder_road_ignition.events import (
    end_move,
    finish,
    is_mover,
    log,
    note,
    push,
    roll,
    slam,
    to_pit,
    wait,
)
from generators.engine.thunder_road_ignition.facts import DIRECTIONS, FINISH, OFF, START, slam_mover
from generators.engine.thunder_road_ignition.state import (
    Movement,
    State,
    Task,
    cars_at,
    front_targets,
    on_road,
    open_slots,
    terrain,
)


def start_movement(s: State, car: str, kind: Literal["move", "slipstream"], spaces: int) -> None:
    at = s.cars[car].at
    road_only = kind == "move" and at in s.board.spaces and terrain(s, at) == "road"
    drift: Literal["off", "ready"] = "ready" if kind == "move" and s.drift else "off"
    s.movement = Movement(car, kind, spaces, road_only, drift)
    wait(s, "enter" if at == START else "step", s.active)


def t_enter(s: State, t: Task, chance: Chance, events: list[Event]) -> None:
    car = s.cars[t.car]
    origin = car.at
    spaces = s.board.spaces
    if origin != START and origin not in spaces:
        return  # it left the road before this could happen
    jump = t.how in ("ramp", "blast")
    if origin in spaces and not jump and t.direction in DIRECTIONS \
            and crosses_barricade(s.board, origin, t.direction, t.space):
        log(events, f"{car.id} crosses a barricade leaving {origin}")
        to_pit(s, car.id, "barricade", events)
        return
    if t.space == OFF:
        log(events, f"{car.id} leaves the board from {origin}")
        to_pit(s, car.id, "off the board", events)
        return
    if t.space == FINISH:
        log(events, f"{car.id} crosses the finish line from {origin}")
        finish(s, car.id, events)
        return
    s.put_car(car._replace(at=t.space))
    note(events, "moved", car=car.id, origin=origin, to=t.space, how=t.how, direction=t.direction)
    log(events, f"{car.id} {origin} → {t.space} ({t.how}{', ' + t.direction if t.direction else ''})")
    push(s, Task("resolve", car=car.id, space=t.space, how=t.how, direction=t.direction))


def t_resolve(s: State, t: Task, chance: Chance, events: list[Event]) -> None:
    """Resolve the space a car entered: flip a hazard, apply its terrain, then any slam."""
    if s.cars[t.car].at != t.space:
        return
    here = terrain(s, t.space)
    if here == "hazard":
        token = roll(chance, "hazard", s.hazard_pool, events)
        pool = list(s.hazard_pool)
        pool.remove(token)
        s.hazard_pool = tuple(pool)
        here = s.kit.hazard_terrain[token]
        s.revealed = {**s.revealed, t.space: here}
        note(events, "flipped", space=t.space, token=token, terrain=here)
        log(events, f"hazard at {t.space} flipped: {here}")
    m = s.movement
    if m is not None and m.car == t.car and t.how in ("move", "bonus") and here != "road":
        s.movement = m._replace(road_only=False)
    occupancy = Task("occupancy", car=t.car, space=t.space, how=t.how)
    if here in ("road", "off-road"):
        push(s, occupancy)
    else:
        push(s, *_terrain_tasks(s, t, here, chance, events), occupancy)


def _terrain_tasks(s: State, t: Task, here: str, chance: Chance, events: list[Event]) -> list[Task]:
    car = s.cars[t.car]
    kit = s.kit
    if here == "oil-slick":
        d = roll(chance, "direction", kit.direction, events)
        if is_mover(s, car.id) and s.movement is not None:
            s.movement = s.movement._replace(displaced=True)
        log(events, f"{car.id} slides on the oil slick: {d}")
        return [Task("enter", car=car.id, space=link(s.board, t.space, d), how="oil", direction=d)]
    if here == "rubble":
        if len(car.tokens) == 1:
            log(events, f"{car.id} hits rubble with one damage")
            end_move(s, car.id)
            to_pit(s, car.id, "rubble", events)
        return []
    if here == "minefield":
        end_move(s, car.id)
        log(events, f"{car.id} stops in the minefield")
        return [Task("damage", car=car.id)]
    if here == "omni-ramp":
        end_move(s, car.id)
        n = roll(chance, "stunt", kit.stunt, events)
        direction = t.direction or "front"
        log(events, f"{car.id} takes the omni-ramp: {n} {direction}")
        return [Task("enter", car=car.id, space=walk(s.board, t.space, direction, n), how="ramp", direction=direction)]
    if here == "impassable":
        end_move(s, car.id)
        log(events, f"{car.id} hits an impassable space")
        to_pit(s, car.id, "impassable", events)
    return []


def t_occupancy(s: State, t: Task, chance: Chance, events: list[Event]) -> None:
    if s.cars[t.car].at != t.space:
        return
    others = [c for c in cars_at(s, t.space) if c != t.car]
    if not others:
        return
    m = s.movement
    if m is not None and m.car == t.car and t.how == "move" and m.drift == "ready" and not m.ended \
            and m.remaining > 0:
        wait(s, "drift", s.active, others[0])
        return
    slam(s, t.car, others[0], chance, events)


def t_slam_move(s: State, t: Task, chance: Chance, events: list[Event]) -> None:
    mover = slam_mover(t.how, t.car, t.other)
    at = s.cars[mover].at
    log(events, f"the {t.how} car, {mover}, moves {t.direction}")
    push(s, Task("enter", car=mover, space=link(s.board, at, t.direction), how="slam", direction=t.direction))


def t_move_on(s: State, t: Task, chance: Chance, events: list[Event]) -> None:
    """After a step has been resolved: the next step, a choice, or the end of the move."""
    m = s.movement
    assert m is not None
    if not m.ended and on_road(s, m.car):
        # ruling: oil-slick-continue
        if m.displaced and m.remaining > 0:
            wait(s, "continue", s.active)
            return
        if m.remaining > 0:
            wait(s, "step", s.active)
            return
        # ruling: road-bonus-step
        if m.kind == "move" and m.road_only and not m.bonus:
            wait(s, "bonus", s.active)
            return
    s.movement = None
    if m.kind == "slipstream":
        push(s, Task("after-command"))
    elif on_road(s, m.car):
        shoot_or_end(s)
    else:
        push(s, Task("end-turn"))


def shoot_or_end(s: State) -> None:
    if s.moved and on_road(s, s.moved) and front_targets(s, s.moved):
        s.stage = "shoot"
        wait(s, "shoot", s.active, s.moved)
    else:
        push(s, Task("end-turn"))


def t_after_command(s: State, t: Task, chance: Chance, events: list[Event]) -> None:
    s.stage = "move"
    if open_slots(s, s.active):
        wait(s, "move", s.active)
    else:
        push(s, Task("end-turn"))


def t_after_pit_exit(s: State, t: Task, chance: Chance, events: list[Event]) -> None:
    # ruling: jumpstart-after-a-slam
    if s.jumpstart and on_road(s, t.car):
        start_movement(s, t.car, "move", t.n)
    else:
        push(s, Task("end-turn"))
