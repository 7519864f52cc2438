"""Thunder Road: Ignition: a whole game set up as the rulebook's Setup says (`start`), and a scenario's
position (`from_setup`), with the setups the rules cannot reach refused (SetupError, pointing into
the setup)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from generators.content.model import SpaceMap
from generators.games.thunder_road_ignition.board import Board, board_of
from generators.games.thunder_road_ignition.facts import (
    CARS_TO_WIN,
    COMMANDS,
    FINISHED,
    NEVER_STOOD_ON,
    PIT_TILES,
    ROAD_LENGTH,
    SIZES,
    START,
    Kit,
    read_kit,
)
from generators.games.thunder_road_ignition.flow import begin_round, begin_turn
from generators.games.thunder_road_ignition.specs import Options, SetupSpec
from generators.games.thunder_road_ignition.state import (
    Car,
    Crew,
    State,
    car_id,
    finished_count,
    open_slots,
    space_words,
)
from generators.rules.chance import Chance
from generators.rules.facts import GameContent
from generators.rules.refusals import SetupError


def _check_road(kit: Kit, road: Sequence[int], path: tuple[Any, ...]) -> None:
    if len(road) not in PIT_TILES:
        raise SetupError(path, f"the road has {len(road)} tiles; the rulebook lays 6 (or 8 for a longer game)")
    if road[0] not in kit.starting_sides:
        sides = " or ".join(map(str, kit.starting_sides))
        raise SetupError((*path, 0), f"the road starts with the starting tile (side {sides})")
    seen: dict[int, int] = {}
    for i, side in enumerate(road):
        if side not in kit.sides:
            raise SetupError((*path, i), f"no tile side {side}; sides: {', '.join(map(str, sorted(kit.sides)))}")
        tile = kit.tile_of_side[side]
        if tile in seen:
            raise SetupError((*path, i),
                             f"side {side} is the other side of the tile already laid as tile {seen[tile] + 1}")
        seen[tile] = i


def from_setup(setup: SetupSpec, content: GameContent) -> State:
    kit = content.view(read_kit)
    _check_road(kit, setup.road, ("road",))
    board = board_of(kit, setup.road)
    order = tuple(setup.crews)
    if len(order) > len(kit.crews):
        raise SetupError(("crews",), f"at most {len(kit.crews)} crews race, one per colour "
                         f"({', '.join(kit.crews)})")
    for i, crew in enumerate(order):
        if crew not in kit.crews or order.count(crew) > 1:
            raise SetupError(("crews", i), f"crews are 2 to 4 of {', '.join(kit.crews)}, each once")
    if not 2 <= len(order) <= 4:
        raise SetupError(("crews",), "2 to 4 crews play")
    first = setup.first or order[0]
    active = setup.active or first
    for key, name in (("first", first), ("active", active)):
        if name not in order:
            raise SetupError((key,), f"{name} is not one of the crews racing ({', '.join(order)})")
    cars, used_tokens = _setup_cars(kit, board, setup, order)
    revealed, pool = _setup_hazards(kit, board, setup)
    for cid, car in cars.items():
        if car.at in board.spaces and board.spaces[car.at].terrain == "hazard" and car.at not in revealed:
            raise SetupError(("cars", cid, "at"), "a car stands on a hazard space only once its token is face up "
                             "(add it to hazards:)")
        if car.at in board.spaces and (revealed.get(car.at) or board.spaces[car.at].terrain) in NEVER_STOOD_ON:
            raise SetupError(("cars", cid, "at"), f"no car stands on {space_words(car.at)}: entering an impassable "
                             "space sends a car to the pit (The Road · Impassable)")
    pile, discard = _setup_pile(kit, setup, used_tokens)
    crews = {name: _setup_crew(setup, name, cars) for name in order}
    s = State(board, order, cars, crews, revealed, pool, pile, discard, first, setup.round, setup.turn, active)
    winners = [c for c in order if finished_count(s, c) >= CARS_TO_WIN]
    if winners:
        raise SetupError(("cars",), f"{winners[0]} already has two cars across the line: the game is over")
    if not open_slots(s, active):
        raise SetupError(("active",), f"{active} has no car left to move this round")
    begin_turn(s, setup.turn, active)
    return s


def _setup_cars(kit: Kit, board: Board, setup: SetupSpec, order: Sequence[str]) -> tuple[dict[str, Car], list[str]]:
    cars = {car_id(c, size): Car(car_id(c, size), c, size, START) for c in order for size in SIZES}
    used: list[str] = []
    for cid, spec in setup.cars.items():
        if cid not in cars:
            raise SetupError(("cars", cid), f"no car {cid!r}; cars are <crew>-<small|medium|large> of {list(order)}")
        at = spec.at
        if at.startswith("pit:"):
            if not at[4:].isdigit() or int(at[4:]) not in board.pits:
                raise SetupError(("cars", cid, "at"), f"no pit stop {at!r}; pit stops: "
                                 + ", ".join(f"pit:{p}" for p in board.pits))
        elif at not in (START, FINISHED) and at not in board.spaces:
            raise SetupError(("cars", cid, "at"), f"no space {at!r} on this road (spaces are like 2:c4)")
        for token in spec.damage:
            if token not in kit.effects:
                raise SetupError(("cars", cid, "damage"),
                                 f"no damage token {token!r}; tokens: {', '.join(kit.effects)}")
        if len(spec.damage) > 1 and at in board.spaces:
            raise SetupError(("cars", cid, "damage"), "a car with two damage tokens is in the pit")
        cars[cid] = cars[cid]._replace(at=at, tokens=tuple(spec.damage))
        used += spec.damage
    crowded = [a for a, n in Counter(c.at for c in cars.values() if c.at in board.spaces).items() if n > 1]
    if crowded:
        raise SetupError(("cars",),
                         f"two cars share {space_words(crowded[0])}: every slam is resolved before anyone acts")
    return cars, used


def _setup_hazards(kit: Kit, board: Board, setup: SetupSpec) -> tuple[dict[str, str], tuple[str, ...]]:
    pool = list(kit.hazards)
    revealed: dict[str, str] = {}
    for space, token in setup.hazards.items():
        if space not in board.spaces or board.spaces[space].terrain != "hazard":
            raise SetupError(("hazards", space), f"{space} is not a hazard space of this road")
        if token not in pool:
            known = ", ".join(sorted(set(kit.hazards)))
            raise SetupError(("hazards", space), f"no hazard token {token!r} left; tokens: {known}")
        pool.remove(token)
        revealed[space] = kit.hazard_terrain[token]
    return revealed, tuple(pool)


def _setup_pile(kit: Kit, setup: SetupSpec, used: list[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The damage pile and the discards: tokens under no car and not in the pile were discarded."""
    rest = list(kit.damage)
    for token in used:
        if token not in rest:
            raise SetupError(("cars",), f"there are not that many {token} damage tokens")
        rest.remove(token)
    if setup.pile is None:
        return tuple(rest), ()
    for i, token in enumerate(setup.pile):
        if token not in rest:
            raise SetupError(("pile", i), f"no {token} damage token left for the pile")
        rest.remove(token)
    return tuple(setup.pile), tuple(rest)


def _setup_crew(setup: SetupSpec, name: str, cars: dict[str, Car]) -> Crew:
    assigned = tuple((size, die) for size, die in setup.assigned.get(name, {}).items())
    for size, die in assigned:
        if size not in SIZES or die not in range(1, 7):
            raise SetupError(("assigned", name, size), "a slot is small, medium or large and holds a die 1 to 6")
    command = setup.commands.get(name)
    if command is not None and command not in COMMANDS:
        raise SetupError(("commands", name), f"commands are {', '.join(COMMANDS)}")
    racing = [c for c in cars.values() if c.crew == name and c.at != FINISHED]
    open_count = sum(1 for c in racing if c.size not in dict(assigned))
    needed = open_count + (0 if command else 1)
    dice = setup.dice.get(name)
    if dice is None:
        dice = (3,) * needed
    if len(dice) != needed or any(d not in range(1, 7) for d in dice):
        raise SetupError(("dice", name), f"{name} holds {needed} unassigned dice (1 to 6): one per car without a "
                         "die this round, plus one for the command if unused")
    return Crew(name, tuple(dice), assigned, command)


def start(options: Options, content: GameContent, chance: Chance) -> State:
    kit = content.view(read_kit)
    if not 2 <= options.players <= len(kit.crews):
        raise SetupError(("players",), f"2 to {len(kit.crews)} players")
    road = tuple(options.road) or lay_road(kit, ROAD_LENGTH[options.length], chance)
    _check_road(kit, road, ("road",))
    board = board_of(kit, road)
    order = kit.crews[:options.players]
    cars = {car_id(c, size): Car(car_id(c, size), c, size, START) for c in order for size in SIZES}
    s = State(board, order, cars, {c: Crew(c, ()) for c in order}, {}, kit.hazards, kit.damage, (),
              order[0], 0, 1, order[0])
    begin_round(s, 1, chance, [])
    return s


def lay_road(kit: Kit, length: int, chance: Chance) -> tuple[int, ...]:
    """Tiles and sides as players might lay them: the road never turns back toward the start."""
    # ruling: simulated-roads
    first = chance.choice("tile side", kit.starting_sides)
    tiles = chance.shuffle("road tiles", list(kit.other_tiles))[:length - 1]
    road, heading = [first], 0
    for pair in tiles:
        allowed = [n for n in pair if abs(heading + _turn(kit.sides[n])) <= 1]
        side = chance.choice("tile side", allowed)
        heading += _turn(kit.sides[side])
        road.append(side)
    return tuple(road)


def _turn(m: SpaceMap) -> int:
    return {"straight": 0, "left": 1, "right": -1}[m.bend]
