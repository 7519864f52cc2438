"""Thunder Road: Ignition: moving along the road (2. Move, The Road, Slamming). Each task resolves
one piece of a move: a car entering a space, the space's terrain, a slam, and what comes after a
step (the next step, a choice, or the end of the move)."""

from __future__ import annotations

from typing import Literal

from generators.games.thunder_road_ignition.board import crosses_barricade, link, walk
from generators.games.thunder_road_ignition.events import (
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
from generators.games.thunder_road_ignition.facts import DIRECTIONS, FINISH, OFF, START, slam_mover
from generators.games.thunder_road_ignition.state import (
    Car,
    Decision,
    Movement,
    State,
    Task,
    front_targets,
    on_road,
    open_slots,
    terrain,
)
from generators.rules.chance import Chance
from generators.rules.contract import Event


def start_movement(s: State, car: str, kind: Literal["move", "slipstream"], spaces: int) -> None:
    at = s.cars[car].at
    road_only = kind == "move" and at in s.board.spaces and terrain(s, at) == "road"
    drift: Literal["off", "ready"] = "ready" if kind == "move" and s.drift else "off"
    s.movement = Movement(car, kind, spaces, road_only, drift)
    wait(s, "enter" if at == START else "step", s.active)


def t_enter(s: State, t: Task, chance: Chance, events: list[Event]) -> None:
    enter(s, t.car, t.space, t.how, t.direction, chance, events)


def enter(s: State, car_name: str, space: str, how: str, direction: str, chance: Chance,
          events: list[Event]) -> None:
    """A car enters `space` (or leaves the road), and the space is resolved."""
    car = s.cars[car_name]
    origin = car.at
    spaces = s.board.spaces
    here = spaces.get(origin)
    if here is None and origin != START:
        return  # it left the road before this could happen
    # Most spaces have no barricade: asked of `crosses_barricade` only where one of the two has one.
    there = spaces.get(space)
    if here is not None and (here.walls or (there is not None and there.walls)) and how != "ramp" \
            and how != "blast" and direction in DIRECTIONS and crosses_barricade(s.board, origin, direction, space):
        log(events, f"{car_name} crosses a barricade leaving {origin}")
        to_pit(s, car_name, "barricade", events)
        return
    if space == OFF:
        log(events, f"{car_name} leaves the board from {origin}")
        to_pit(s, car_name, "off the board", events)
        return
    if space == FINISH:
        log(events, f"{car_name} crosses the finish line from {origin}")
        finish(s, car_name, events)
        return
    s.cars = {**s.cars, car_name: Car(car_name, car.crew, car.size, space, car.tokens)}
    events.append(Event("moved", {"car": car_name, "origin": origin, "to": space, "how": how, "direction": direction}))
    line = f"{car_name} {origin} → {space} ({how}{', ' + direction if direction else ''})"
    events.append(Event("log", {"text": line}))  # `log`, written out: every step of every move logs it
    # Resolved at once: the space entered is the next work on the stack in any case.
    resolve_space(s, car_name, space, how, direction, chance, events)


def t_resolve(s: State, t: Task, chance: Chance, events: list[Event]) -> None:
    resolve_space(s, t.car, t.space, t.how, t.direction, chance, events)


def resolve_space(s: State, car: str, space: str, how: str, direction: str, chance: Chance,
                  events: list[Event]) -> None:
    """Resolve the space a car entered: flip a hazard, apply its terrain, then any slam."""
    if s.cars[car].at != space:
        return
    here = s.revealed.get(space) or s.board.spaces[space].terrain
    if here == "hazard":
        token = roll(chance, "hazard", s.hazard_pool, events)
        pool = list(s.hazard_pool)
        pool.remove(token)
        s.hazard_pool = tuple(pool)
        here = s.kit.hazard_terrain[token]
        s.revealed = {**s.revealed, space: here}
        note(events, "flipped", space=space, token=token, terrain=here)
        log(events, f"hazard at {space} flipped: {here}")
    m = s.movement
    if m is not None and m.road_only and here != "road" and m.car == car and how in ("move", "bonus"):
        s.movement = m._replace(road_only=False)
    if here == "road" or here == "off-road":
        occupancy(s, car, space, how, chance, events)  # no effect of the terrain: the slam, if any, comes next
    else:
        t = Task("resolve", car, "", space, how, direction)
        push(s, *_terrain_tasks(s, t, here, chance, events), Task("occupancy", car, "", space, how))


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
    occupancy(s, t.car, t.space, t.how, chance, events)


def occupancy(s: State, car: str, space: str, how: str, chance: Chance, events: list[Event]) -> None:
    """A car that is in a space with another car slams it, unless Drift lets it drive on."""
    if s.cars[car].at != space:
        return
    others = [c.id for c in s.cars.values() if c.at == space and c.id != car]
    if not others:
        return
    m = s.movement
    if m is not None and m.car == car and how == "move" and m.drift == "ready" and not m.ended \
            and m.remaining > 0:
        wait(s, "drift", s.active, others[0])
        return
    slam(s, car, others[0], chance, events)


def t_slam_move(s: State, t: Task, chance: Chance, events: list[Event]) -> None:
    mover = slam_mover(t.how, t.car, t.other)
    at = s.cars[mover].at
    log(events, f"the {t.how} car, {mover}, moves {t.direction}")
    push(s, Task("enter", car=mover, space=link(s.board, at, t.direction), how="slam", direction=t.direction))


def t_move_on(s: State, t: Task, chance: Chance, events: list[Event]) -> None:
    """After a step has been resolved: the next step, a choice, or the end of the move."""
    m = s.movement
    assert m is not None
    if not m.ended and s.cars[m.car].at in s.board.spaces:  # on the road
        # ruling: oil-slick-continue
        if m.displaced and m.remaining > 0:
            wait(s, "continue", s.active)
            return
        if m.remaining > 0:
            s.decision = Decision("step", s.active)  # `wait`: the next step, after almost every step
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
