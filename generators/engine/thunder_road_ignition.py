"""Thunder Road: Ignition: an executable model of the rulebook.

The rulebook transcription (`rulebooks/thunder-road-ignition.txt`) is the only source of rules. Every
piece the engine reads comes from content: the road tiles' maps of spaces (terrain, walls, entry
arrows and the neighbour in each of the six directions, drawn on the printed tiles from the same
data), the cars, and the faces of the movement dice, FX dice, damage tokens and hazard tokens. Where
the rulebook is silent or unclear the engine plays one reading, a ruling in the game's notes.yaml (shown on the
site), marked `# ruling: <id>` where the code applies it.

The road
--------
Road tiles are laid in order (tile 1 is the starting tile); a space is named `<tile>:<space>`, like
`3:c4` (third tile, lane c from the left, fourth row from the back). Pit stops stand beside tiles 1,
3 and 5 (and 7 on the long road); a car in the pit is at `pit:<tile>`. Cars start at `start` (the
starting area) and end at `finished`.

Chance
------
Every roll is labelled: `movement` (a movement die), `direction`, `stunt`, `slam`, `shooting` (the FX
dice), `hazard` (the face-down hazard token flipped on entering a hazard space: drawn from the tokens
not yet face up, which is how a shuffled, face-down token behaves), `damage` (a token drawn from the
damage pile). Slam and direction dice are rolled together: slam first, then direction; Blast Off
rolls stunt, then direction.

Setup (`setup:` of a scenario)
-----------------------------
    road: [1, 2, 5, 3, 15, 4]    # tile sides in order, the starting tile first (6 or 8 tiles)
    crews: [red, blue]           # seating order (to the left); default red, blue
    first: red                   # holds the first-player marker (default the first crew)
    active: red                  # whose turn begins (default the first player)
    round: 1, turn: 1            # which round, and which of its three turns
    cars: {red-small: {at: "2:c4", damage: [dent]}}   # default: in the starting area, undamaged
    dice: {red: [4, 2, 6, 1]}    # each crew's unassigned movement dice this round
    assigned: {red: {small: 3}}  # dice already on car slots this round
    commands: {red: drift}       # a command already used this round
    hazards: {"2:d5": oil-slick} # hazard tokens already face up
    pile: [dent, dazed]          # the damage pile (default: every token not under a car);
                                 # tokens in neither place are the discards

Actions
-------
    {do: command, command: slipstream | jumpstart | drift | missile, die: 3}
    {do: move, car: small | medium | large, die: 4}      put a die on a car's slot and move that car
    {do: enter, space: "1:c1"}       a car's first move: onto the starting tile's back row
    {do: exit_pit, space: "3:b1"}    leave the pit onto a back-row road space (an arrow)
    {do: step, direction: front-left | front | front-right}
    {do: stop}                       stop after an oil slick, or decline the road bonus
    {do: drift} / {do: slam}         Drift past the first car entered, or slam it
    {do: reroll} / {do: keep}        the owner of the larger car in a slam
    {do: slipstream, car: medium}    which car the Slipstream roll moves
    {do: shoot, target: blue-medium} / {do: end_turn}   (also the Missile's target)
    {do: set_aside, die: 5}          the die that goes with a car that finished before moving

Outcome keys: cars {car: place}, damage {car: tokens}, tokens {car: [token, ...]}, round, turn,
first, active, stage, waiting {player, for}, dice, assigned, command, set_aside, finished, winner,
revealed {space: terrain}, pile, discard, movement, can [legal `do` kinds], and from the events:
events [kinds], rolls [[label, value]], log [lines], slams, hits.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

from generators.content import geometry
from generators.content.model import SpaceMap
from generators.engine import svg as draw
from generators.engine.base import (
    Chance,
    Engine,
    Event,
    GameContent,
    GameType,
    IllegalAction,
    Setting,
    SetupError,
)

# ---------------------------------------------------------------------------------------------
# Printed facts

DIRECTIONS = ("front-left", "front", "front-right", "back-left", "back", "back-right")
FORWARD = DIRECTIONS[:3]
SIZES = ("small", "medium", "large")
COMMANDS = ("slipstream", "jumpstart", "drift", "missile")
TURNS_PER_ROUND = 3
CARS_TO_WIN = 2
ROAD_LENGTH = {"standard": 6, "long": 8}  # road tiles, the starting tile included (Setup)
PIT_TILES = {6: (1, 3, 5), 8: (1, 3, 5, 7)}  # pit stops: beside the starting, third, fifth (seventh) tiles
TERRAINS = ("road", "off-road", "oil-slick", "rubble", "minefield", "omni-ramp", "impassable", "hazard")
EFFECTS = ("dent", "battery-discharge", "skid", "dazed", "blast-off")
OFF, FINISH = "off", "finish"
START, FINISHED = "start", "finished"
DEFAULT_ROAD = (1, 2, 5, 3, 15, 4)


# ---------------------------------------------------------------------------------------------
# Content facts: what the engine reads from each component's faces


@dataclass(frozen=True)
class TileFacts:
    """A road tile: which kind it is and the numbers printed on its two sides (front, back)."""

    kind: Literal["starting", "straight", "curved"] = field(metadata={
        "doc": "starting (the one tile the road begins with), straight or curved"})
    sides: tuple[int, ...] = field(metadata={
        "doc": "the side numbers printed on it, front then back, like [1, 10]; each must match its side's map "
               "number, and a road names tiles by these numbers"})


@dataclass(frozen=True)
class CarFacts:
    """A car: the crew (colour) it races for and its size."""

    crew: str = field(metadata={"doc": "the crew colour it belongs to, like red; crews seat in the order their "
                                "cars first appear"})
    size: Literal["small", "medium", "large"] = field(metadata={
        "doc": "small, medium or large: the larger car of a slam may reroll, and a shot hits when the shooting "
               "die shows the target's size"})


@dataclass(frozen=True)
class MovementFaceFacts:
    """One face of a movement die."""

    value: int = field(metadata={"doc": "the spaces a car moves when this die goes on its slot (on the command "
                                 "slot the value does not matter)"})


@dataclass(frozen=True)
class DirectionFaceFacts:
    """One face of the direction die (FX): the adjacent space a car moves into."""

    direction: Literal["front-left", "front", "front-right", "back-left", "back", "back-right"] = field(metadata={
        "doc": "which of the six adjacent spaces the car moves into, as seen from the front of the road"})


@dataclass(frozen=True)
class StuntFaceFacts:
    """One face of the stunt die (FX): Slipstream, omni-ramp, Dazed and Blast Off distances."""

    spaces: int = field(metadata={"doc": "how many spaces (Slipstream moves, an omni-ramp or Blast Off jumps) or "
                                  "Dazed steps"})


@dataclass(frozen=True)
class SlamFaceFacts:
    """One face of the slam die (FX): which car of a slam moves."""

    moves: Literal["top", "bottom"] = field(metadata={
        "doc": "top: the car that entered the space moves; bottom: the car that was there moves"})


@dataclass(frozen=True)
class ShootingFaceFacts:
    """One face of the shooting die (FX): the size of car it hits."""

    hits: Literal["small", "medium", "large"] = field(metadata={
        "doc": "a shot hits when this matches the target car's size"})


@dataclass(frozen=True)
class DamageFacts:
    """A damage token's effect, resolved when a car draws it."""

    effect: Literal["dent", "battery-discharge", "skid", "dazed", "blast-off"] = field(metadata={
        "doc": "dent: no effect; battery-discharge: a car in the adjacent space the direction die shows takes a "
               "damage; skid: move 1 space in `direction`; dazed: roll the stunt die, then take that many 1-space "
               "steps, each in a rolled direction; blast-off: jump as many spaces as the stunt die shows, in a "
               "rolled direction"})
    direction: Literal["front-left", "front", "front-right", "back-left", "back", "back-right"] | None = field(
        default=None, metadata={"doc": "the way a skid moves the car (as printed on its token); default: none, "
                                "for every other effect"})


@dataclass(frozen=True)
class HazardFacts:
    """A hazard token: the terrain its space becomes once it is flipped face up."""

    terrain: Literal["road", "off-road", "oil-slick", "rubble", "minefield", "omni-ramp", "impassable"] = field(
        metadata={"doc": "the terrain shown, which the hazard space takes for the rest of the game"})


TILE_COMPONENTS = ("starting-tile", "straight-tiles", "curved-tiles")
MOVEMENT_DICE = ("movement-dice-red", "movement-dice-blue", "movement-dice-green", "movement-dice-yellow")
FACTS_SPECS: dict[str, type] = {
    **{c: TileFacts for c in TILE_COMPONENTS},
    "cars": CarFacts,
    **{c: MovementFaceFacts for c in MOVEMENT_DICE},
    "direction-die": DirectionFaceFacts,
    "stunt-die": StuntFaceFacts,
    "slam-die": SlamFaceFacts,
    "shooting-die": ShootingFaceFacts,
    "damage-tokens": DamageFacts,
    "hazard-tokens": HazardFacts,
}


class Shared:
    """Immutable data shared by every state of a game (content, the road): copying a state shares it."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        return self


class Value:
    """Frozen value objects: a deep copy is the object itself, as for a tuple of numbers."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        return self


def replace(obj: Any, /, **changes: Any) -> Any:
    """dataclasses.replace for this module's frozen values (every field set by __init__, no __post_init__),
    without its generic machinery, which cost a seventh of a simulation; unknown names are still refused."""
    unknown = changes.keys() - obj.__dataclass_fields__.keys()
    if unknown:
        raise TypeError(f"{type(obj).__name__} has no field(s) {sorted(unknown)}")
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__, **changes)
    return new


@dataclass(frozen=True, eq=False)
class Kit(Shared):
    """The game's pieces as content gives them."""

    sides: dict[int, SpaceMap]  # printed side number -> its map
    tile_of_side: dict[int, int]  # side number -> the physical tile (its first side's number)
    starting_sides: tuple[int, ...]
    other_tiles: tuple[tuple[int, int], ...]  # (front, back) of every tile but the starting one
    crews: tuple[str, ...]  # in content order
    movement: tuple[int, ...]
    direction: tuple[str, ...]
    stunt: tuple[int, ...]
    slam: tuple[str, ...]
    shooting: tuple[str, ...]
    damage: tuple[str, ...]  # every damage token (face ids, with repeats)
    effects: dict[str, DamageFacts]
    hazards: tuple[str, ...]  # every hazard token
    hazard_terrain: dict[str, str]


_KITS: dict[int, tuple[GameContent, Kit]] = {}


def kit_of(content: GameContent) -> Kit:
    """The kit read from content (cached: content is immutable and read once per game)."""
    cached = _KITS.get(id(content))
    if cached is not None and cached[0] is content:
        return cached[1]
    kit = _read_kit(content)
    _KITS[id(content)] = (content, kit)
    return kit


def _dice_faces(content: GameContent, component: str, attr: str) -> tuple[Any, ...]:
    return tuple(getattr(f.facts, attr) for f in content.faces(component) for _ in range(f.count))


def _read_kit(content: GameContent) -> Kit:
    sides: dict[int, SpaceMap] = {}
    tile_of: dict[int, int] = {}
    starting: tuple[int, ...] = ()
    others: list[tuple[int, int]] = []
    for comp in TILE_COMPONENTS:
        for face in content.faces(comp):
            maps = [s.art.spaces if s is not None and s.art is not None else None for s in (face.front, face.back)]
            if len(face.facts.sides) != 2 or None in maps:
                raise ValueError(f"{comp}/{face.id}: a road tile has two sides, each a map of spaces")
            for number, m in zip(face.facts.sides, maps, strict=True):
                assert m is not None
                if m.number != str(number):
                    raise ValueError(f"{comp}/{face.id}: side {number} is printed as {m.number!r}")
                sides[number] = m
                tile_of[number] = face.facts.sides[0]
            pair = (face.facts.sides[0], face.facts.sides[1])
            for _ in range(face.count):
                if face.facts.kind == "starting":
                    starting = pair
                else:
                    others.append(pair)
    crews: list[str] = []
    for f in content.faces("cars"):
        if f.facts.crew not in crews:
            crews.append(f.facts.crew)
    damage = tuple(f.id for f in content.faces("damage-tokens") for _ in range(f.count))
    hazards = tuple(f.id for f in content.faces("hazard-tokens") for _ in range(f.count))
    return Kit(
        sides=sides, tile_of_side=tile_of, starting_sides=starting, other_tiles=tuple(others), crews=tuple(crews),
        movement=_dice_faces(content, MOVEMENT_DICE[0], "value"),
        direction=_dice_faces(content, "direction-die", "direction"),
        stunt=_dice_faces(content, "stunt-die", "spaces"),
        slam=_dice_faces(content, "slam-die", "moves"),
        shooting=_dice_faces(content, "shooting-die", "hits"),
        damage=damage, effects={f.id: f.facts for f in content.faces("damage-tokens")},
        hazards=hazards, hazard_terrain={f.id: f.facts.terrain for f in content.faces("hazard-tokens")},
    )


# ---------------------------------------------------------------------------------------------
# The board: the road's tiles joined into one graph of spaces


@dataclass(frozen=True)
class Space(Value):
    id: str
    tile: int
    local: str
    lane: int
    row: int
    terrain: str  # as printed ("hazard" where a face-down token lies)
    links: tuple[str, ...]  # in DIRECTIONS order: a space id, OFF or FINISH
    walls: frozenset[str]
    arrow: bool
    progress: float  # how far along the road: tile number plus the row's share of the tile


@dataclass(frozen=True, eq=False)
class Board(Shared):
    road: tuple[int, ...]
    spaces: dict[str, Space]
    pits: tuple[int, ...]
    maps: tuple[SpaceMap, ...]

    def tile_spaces(self, tile: int) -> list[Space]:
        return [s for s in self.spaces.values() if s.tile == tile]

    def back_row(self, tile: int) -> list[Space]:
        return sorted((s for s in self.tile_spaces(tile) if s.row == 0), key=lambda s: s.lane)


def build_board(kit: Kit, road: Sequence[int]) -> Board:
    maps = [kit.sides[n] for n in road]
    at_ids = [{tuple(s.at): s.id for s in m.spaces} for m in maps]  # per tile: (lane, row) -> its space
    spaces: dict[str, Space] = {}
    for t, m in enumerate(maps, 1):
        local = {s.id for s in m.spaces}
        for s in m.spaces:
            links = tuple(_resolve_link(target, t, maps, local, at_ids) for target in s.links)
            lane, row = s.at
            spaces[f"{t}:{s.id}"] = Space(f"{t}:{s.id}", t, s.id, lane, row, s.terrain, links, frozenset(s.walls),
                                          s.arrow, t + (row + 0.5) / m.rows)
    return Board(tuple(road), spaces, PIT_TILES[len(road)], tuple(maps))


def _resolve_link(target: str, tile: int, maps: list[SpaceMap], local: Collection[str],
                  at_ids: list[dict[tuple[int, ...], str]]) -> str:
    if target == "off":
        return OFF
    if target in local:
        return f"{tile}:{target}"
    kind, _, lane_text = target.partition(":")
    lane = int(lane_text)
    if kind == "next":
        if tile == len(maps):
            return FINISH
        ids = at_ids[tile]
        return f"{tile + 1}:{ids[(lane, 0)]}" if (lane, 0) in ids else OFF
    if tile == 1:
        return OFF  # behind the starting tile: off the board's rear edge
    ids, rows = at_ids[tile - 2], maps[tile - 2].rows
    return f"{tile - 1}:{ids[(lane, rows - 1)]}" if (lane, rows - 1) in ids else OFF


def link(board: Board, space: str, direction: str) -> str:
    return board.spaces[space].links[DIRECTIONS.index(direction)]


def walk(board: Board, space: str, direction: str, n: int) -> str:
    """Where a jump of `n` spaces in one direction lands, ignoring the spaces between: OFF or FINISH
    as soon as the line leaves the road."""
    here = space
    for _ in range(n):
        here = link(board, here, direction)
        if here in (OFF, FINISH):
            return here
    return here


def crosses_barricade(board: Board, origin: str, direction: str, target: str) -> bool:
    """A one-space move crosses a barricade along the front edge it leaves by, or the back edge it
    enters by (and the reverse going backward)."""
    here = board.spaces[origin]
    there = board.spaces.get(target)
    if direction in FORWARD:
        return "front" in here.walls or (there is not None and "back" in there.walls)
    return "back" in here.walls or (there is not None and "front" in there.walls)


# ---------------------------------------------------------------------------------------------
# State


@dataclass(frozen=True)
class Car(Value):
    id: str
    crew: str
    size: str
    at: str  # START, a space id, "pit:<tile>" or FINISHED
    tokens: tuple[str, ...] = ()


@dataclass(frozen=True)
class Crew(Value):
    name: str
    dice: tuple[int, ...]  # unassigned movement dice, in order
    assigned: tuple[tuple[str, int], ...] = ()  # (car size, die) this round
    command: str | None = None  # the command used this round
    set_aside: tuple[int, ...] = ()  # dice that went with finished cars this round

    def assigned_to(self, size: str) -> int | None:
        return dict(self.assigned).get(size)


@dataclass(frozen=True)
class Movement(Value):
    """A car moving under a player's control: its regular move or a Slipstream."""

    car: str
    kind: Literal["move", "slipstream"]
    remaining: int
    road_only: bool
    drift: Literal["off", "ready", "used"] = "off"
    ended: bool = False
    displaced: bool = False  # an oil slick moved it during the step just taken
    bonus: bool = False  # the road bonus step has been taken


@dataclass(frozen=True)
class Decision(Value):
    """What the game waits for: `kind`, who decides, and what the decision needs to remember."""

    kind: str
    player: str
    data: tuple[Any, ...] = ()


# Work the engine resolves on its own, kept on a stack so that a decision (a reroll, a set-aside)
# can pause a chain reaction and the chain can go on after it.


@dataclass(frozen=True)
class Task(Value):
    kind: str
    car: str = ""
    other: str = ""
    space: str = ""
    how: str = ""
    direction: str = ""
    n: int = 0

    def __init__(self, kind: str, car: str = "", other: str = "", space: str = "", how: str = "",
                 direction: str = "", n: int = 0) -> None:
        # Set at once, not field by field through the frozen __setattr__: every step of a game makes tasks.
        self.__dict__.update(kind=kind, car=car, other=other, space=space, how=how, direction=direction, n=n)


@dataclass
class State:
    kit: Kit
    board: Board
    order: tuple[str, ...]
    cars: dict[str, Car]
    crews: dict[str, Crew]
    revealed: dict[str, str]  # hazard spaces whose token is face up: terrain
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
    hits: dict[str, int] = field(default_factory=dict)  # per car: slams and damage so far (Dazed stops on one)
    stats: dict[str, int] = field(default_factory=dict)

    def clone(self) -> State:
        """A copy to change: the dicts are copied, everything else is immutable and shared."""
        new = object.__new__(State)
        fields = {k: v for k, v in self.__dict__.items() if k != "_legal"}
        for key in ("cars", "crews", "revealed", "hits", "stats"):
            fields[key] = dict(fields[key])
        new.__dict__.update(fields)
        return new

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        # Every field is immutable (values, tuples, shared content) except the dicts, which clone copies.
        return self.clone()


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
    return [car.size for car in unfinished(state, crew) if c.assigned_to(car.size) is None]


def finished_count(state: State, crew: str) -> int:
    return sum(1 for c in state.cars.values() if c.crew == crew and c.at == FINISHED)


def progress(state: State, car: Car) -> float:
    return 0.0 if car.at == START else state.board.spaces[car.at].progress


def slipstream_cars(state: State, crew: str) -> list[str]:
    """Sizes of the crew's cars Slipstream may move: on the road or in the starting area, never the
    farthest forward of them (nor any car tied for it)."""
    racing = [c for c in state.cars.values() if c.crew == crew and (c.at == START or c.at in state.board.spaces)]
    if not racing:
        return []
    # ruling: slipstream-farthest-forward
    best = max(progress(state, c) for c in racing)
    return [c.size for c in racing if progress(state, c) < best]


def front_targets(state: State, car: str) -> list[str]:
    """Cars in the three spaces in front of `car` (through barricades, any owner)."""
    at = state.cars[car].at
    out = []
    for d in FORWARD:
        target = link(state.board, at, d)
        if target in state.board.spaces:
            out += cars_at(state, target)
    return sorted(out)


# ---------------------------------------------------------------------------------------------
# Actions


# How a road space is written, repeated in the docs of the fields that hold one (editors show each alone).
ROAD_SPACE = ("<tile>:<space>, like 3:c4 (the third tile laid, the starting tile being 1; lane c from the left, "
              "row 4 from the back)")


@dataclass(frozen=True)
class CommandAction:
    """Step 1 of a turn, once a round: put a rolled die on the command slot and use a command."""

    do: Literal["command"]
    command: Literal["slipstream", "jumpstart", "drift", "missile"] = field(metadata={
        "doc": "slipstream: roll the stunt die and move a car other than the farthest forward; jumpstart: a car "
               "leaving the pit this turn moves too; drift: ignore the first car driven into this turn; missile: "
               "shoot at any car on the board"})
    die: int = field(metadata={"doc": "the value of the rolled die put on the command slot (any of the crew's "
                               "unassigned dice; its value does not matter otherwise)"})


@dataclass(frozen=True)
class MoveAction:
    """Step 2 of a turn: put a rolled die on an empty car slot and move that car its value."""

    do: Literal["move"]
    car: Literal["small", "medium", "large"] = field(metadata={
        "doc": "the size of the acting crew's car, whose slot has no die yet this round"})
    die: int = field(metadata={"doc": "the value of the unassigned die put on its slot: the spaces it moves"})


@dataclass(frozen=True)
class EnterAction:
    """A car's first move: from the starting area onto the starting tile's back row (its first step)."""

    do: Literal["enter"]
    space: str = field(metadata={"doc": f"a back-row space of the starting tile, {ROAD_SPACE}"})


@dataclass(frozen=True)
class ExitPitAction:
    """Leave the pit: discard the car's damage and place it on the pit's tile (it moves on only with Jumpstart)."""

    do: Literal["exit_pit"]
    space: str = field(metadata={"doc": "a back-row road space marked with an arrow on the tile beside the pit "
                                 f"stop, {ROAD_SPACE}"})


@dataclass(frozen=True)
class StepAction:
    """Move the moving car one space ahead (or across the finish line)."""

    do: Literal["step"]
    direction: Literal["front-left", "front", "front-right"] = field(metadata={
        "doc": "which of the three spaces ahead it moves into"})


@dataclass(frozen=True)
class StopAction:
    """End the move: after an oil slick moved the car, or instead of the road bonus step."""

    do: Literal["stop"]


@dataclass(frozen=True)
class DriftAction:
    """With Drift: ignore the car just driven into and keep moving."""

    do: Literal["drift"]


@dataclass(frozen=True)
class SlamAction:
    """With Drift: slam the car just driven into anyway (the move ends)."""

    do: Literal["slam"]


@dataclass(frozen=True)
class RerollAction:
    """The owner of the larger car in a slam rerolls the slam and direction dice (once)."""

    do: Literal["reroll"]


@dataclass(frozen=True)
class KeepAction:
    """The owner of the larger car in a slam keeps the dice as rolled."""

    do: Literal["keep"]


@dataclass(frozen=True)
class SlipstreamAction:
    """Slipstream: which car moves the spaces the stunt die showed."""

    do: Literal["slipstream"]
    car: Literal["small", "medium", "large"] = field(metadata={
        "doc": "the size of the acting crew's car, on the road or in the starting area and not the farthest forward "
               "of them (nor tied for it)"})


@dataclass(frozen=True)
class ShootAction:
    """Step 3 of a turn, or the Missile: shoot at a car; it is hit if the shooting die shows its size."""

    do: Literal["shoot"]
    target: str = field(metadata={"doc": "the car shot at, <crew>-<size> like blue-medium: in one of the three "
                                  "spaces in front of the car just moved (any car on the board for a Missile)"})


@dataclass(frozen=True)
class EndTurnAction:
    """Shoot at nobody and end the turn."""

    do: Literal["end_turn"]


@dataclass(frozen=True)
class SetAsideAction:
    """A car finished before its die was assigned: which unassigned die goes with it."""

    do: Literal["set_aside"]
    die: int = field(metadata={"doc": "the value of the unassigned die set aside with the finished car"})


ACTION_SPECS: dict[str, type] = {
    "command": CommandAction, "move": MoveAction, "enter": EnterAction, "exit_pit": ExitPitAction,
    "step": StepAction, "stop": StopAction, "drift": DriftAction, "slam": SlamAction, "reroll": RerollAction,
    "keep": KeepAction, "slipstream": SlipstreamAction, "shoot": ShootAction, "end_turn": EndTurnAction,
    "set_aside": SetAsideAction,
}


def legal(state: State) -> list[Any]:
    """Every concrete action the waiting player may take (worked out once per state: states are
    never changed once made, so the list cannot go stale)."""
    cached = state.__dict__.get("_legal")
    if cached is None:
        cached = _legal(state)
        state.__dict__["_legal"] = cached
    return list(cached)


def _legal(state: State) -> tuple[Any, ...]:
    return tuple(_legal_list(state))


def _legal_list(state: State) -> list[Any]:
    d = state.decision
    if d is None or state.winner is not None:
        return []
    crew = state.crews[d.player]
    dice = sorted(set(crew.dice))
    if d.kind in ("turn", "move"):
        out: list[Any] = []
        if d.kind == "turn" and crew.command is None:
            out += _command_actions(state, d.player, dice)
        slots = open_slots(state, d.player)
        out += [_action(MoveAction, "move", size, v) for size in SIZES if size in slots for v in dice]
        return out
    if d.kind == "slipstream-car":
        return [SlipstreamAction("slipstream", size) for size in slipstream_cars(state, d.player)]
    if d.kind == "enter":
        return [EnterAction("enter", s.id) for s in state.board.back_row(1)]
    if d.kind == "exit-pit":
        return [ExitPitAction("exit_pit", s.id) for s in pit_exits(state, d.data[0])]
    if d.kind == "step":
        return _steps(state)
    if d.kind in ("continue", "bonus"):
        return [*_steps(state), StopAction("stop")]
    if d.kind == "missile-target":
        return [ShootAction("shoot", c) for c in cars_on_board(state)]
    if d.kind == "drift":
        return [DriftAction("drift"), SlamAction("slam")]
    if d.kind == "reroll":
        return [RerollAction("reroll"), KeepAction("keep")]
    if d.kind == "shoot":
        return [*(ShootAction("shoot", t) for t in front_targets(state, d.data[0])), EndTurnAction("end_turn")]
    if d.kind == "set-aside":
        return [SetAsideAction("set_aside", v) for v in dice]
    raise AssertionError(f"unknown decision {d.kind}")


def _steps(state: State) -> list[Any]:
    """The forward steps open to the moving car: into a space ahead of it, or across the finish line
    (driving off a side of the board is not one of them)."""
    assert state.movement is not None
    at = state.cars[state.movement.car].at
    ahead = state.board.spaces[at].links[:len(FORWARD)]  # links are in DIRECTIONS order, the forward ones first
    # ruling: driving-off-the-side
    return [_action(StepAction, "step", x) for x, target in zip(FORWARD, ahead, strict=True) if target != OFF]


@functools.cache
def _action(spec: type, *fields: Any) -> Any:
    """One shared instance per action (actions are frozen values): listing them is the commonest work."""
    return spec(*fields)


def cars_on_board(state: State) -> list[str]:
    return sorted(c.id for c in state.cars.values() if c.at in state.board.spaces)


def _command_actions(state: State, crew: str, dice: list[int]) -> list[Any]:
    out: list[Any] = []
    slipstream = bool(slipstream_cars(state, crew))
    missile = bool(cars_on_board(state))
    for v in dice:
        if slipstream:
            out.append(CommandAction("command", "slipstream", v))
        out.append(CommandAction("command", "jumpstart", v))
        out.append(CommandAction("command", "drift", v))
        if missile:
            out.append(CommandAction("command", "missile", v))
    return out


def pit_exits(state: State, pit: int) -> list[Space]:
    """The back-row road spaces, marked with arrows, of the tile beside the pit stop."""
    return [s for s in state.board.back_row(pit) if s.arrow and terrain(state, s.id) == "road"]


def _why_not(state: State, action: Any) -> str:
    """A player-worded reason an action is refused."""
    d = state.decision
    if d is None or state.winner is not None:
        return "the game is over"
    crew = state.crews[d.player]
    kind = getattr(action, "do", "")
    waits = {"turn": "a command or a move", "move": "a move (a die on a car's slot)",
             "slipstream-car": "the car Slipstream moves", "enter": "the space the car enters the starting tile on",
             "exit-pit": "the back-row space the car leaves the pit onto", "step": "the car's next step",
             "continue": "keep moving or stop", "bonus": "the road bonus step or stop", "drift": "drift past or slam",
             "reroll": f"{d.player}'s reroll choice", "shoot": "a target or end of turn",
             "missile-target": "the car the missile is fired at",
             "set-aside": "the die that goes with the finished car"}[d.kind]
    if kind == "command" and d.kind in ("turn", "move"):
        if crew.command is not None or d.kind == "move":
            return f"{d.player} has already used a command this round ({crew.command})"
        if action.die not in crew.dice:
            return f"{d.player} has no die showing {action.die}"
        if action.command == "slipstream" and not slipstream_cars(state, d.player):
            return "Slipstream cannot move the farthest forward car (nor cars tied for it), and no other car may move"
        if action.command == "missile":
            return "there is no car on the board to shoot at"
    if kind == "move" and d.kind in ("turn", "move"):
        if action.car not in open_slots(state, d.player):
            return f"the {action.car} car's slot already has a die this round (or the car has finished)"
        if action.die not in crew.dice:
            return f"{d.player} has no unassigned die showing {action.die}"
    if kind == "slipstream" and d.kind == "slipstream-car":
        return "Slipstream cannot move the farthest forward car (nor one tied for it), nor a car in the pit"
    if kind == "enter" and d.kind == "enter":
        return "a first move enters a space on the starting tile's back row"
    if kind == "exit_pit" and d.kind == "exit-pit":
        return ("a car leaving the pit goes onto a road space with an arrow in the back row of the tile beside "
                "its pit stop")
    if kind == "shoot" and d.kind == "shoot":
        return "you can only shoot a car in the three spaces in front of the car you moved"
    if kind == "shoot" and d.kind == "missile-target":
        return f"{action.target} is not a car on the board"
    if kind == "step" and d.kind in ("step", "continue", "bonus"):
        return f"a car moves into one of the spaces ahead of it; there is no space {action.direction} of it"
    return f"not possible now: the game waits for {waits}"


# ---------------------------------------------------------------------------------------------
# Applying an action


def apply(state: State, action: Any, chance: Chance) -> tuple[State, list[Event]]:
    options = legal(state)
    if action not in options:
        raise IllegalAction(_why_not(state, action), [_written(a) for a in options])
    s = state.clone()
    events: list[Event] = []
    ACTIONS[action.do](s, action, chance, events)
    _run(s, chance, events)
    return s, events


def _written(action: Any) -> dict[str, Any]:
    """An action as a scenario writes it (every field of our actions is required)."""
    return dict(vars(action))


def _note(events: list[Event], kind: str, **data: Any) -> None:
    events.append(Event(kind, data))


def _roll(s: State, chance: Chance, label: str, faces: Sequence[Any], events: list[Event]) -> Any:
    value = chance.choice(label, faces)
    _note(events, "roll", label=label, value=value)
    return value


def _bump(s: State, key: str, n: int = 1) -> None:
    s.stats[key] = s.stats.get(key, 0) + n


def _push(s: State, *tasks: Task) -> None:
    """Push tasks to run in the order given (the first one runs first)."""
    s.stack = s.stack + tuple(reversed(tasks))


def _wait(s: State, kind: str, player: str, *data: Any) -> None:
    s.decision = Decision(kind, player, tuple(data))


def _do_command(s: State, a: CommandAction, chance: Chance, events: list[Event]) -> None:
    crew = s.crews[s.active]
    dice = list(crew.dice)
    dice.remove(a.die)
    s.crews[s.active] = replace(crew, dice=tuple(dice), command=a.command)
    s.decision = None
    _note(events, "command", crew=s.active, command=a.command, die=a.die)
    if a.command == "slipstream":
        n = _roll(s, chance, "stunt", s.kit.stunt, events)
        _wait(s, "slipstream-car", s.active, n)
    elif a.command == "jumpstart":
        s.jumpstart = True
        _push(s, Task("after-command"))
    elif a.command == "drift":
        s.drift = True
        _push(s, Task("after-command"))
    else:
        _wait(s, "missile-target", s.active)


def _do_move(s: State, a: MoveAction, chance: Chance, events: list[Event]) -> None:
    crew = s.crews[s.active]
    dice = list(crew.dice)
    dice.remove(a.die)
    s.crews[s.active] = replace(crew, dice=tuple(dice), assigned=(*crew.assigned, (a.car, a.die)))
    car = s.cars[car_id(s.active, a.car)]
    s.moved = car.id
    s.stage = "moving"
    s.decision = None
    _note(events, "assign", crew=s.active, car=car.id, die=a.die)
    if car.at.startswith("pit:"):
        _wait(s, "exit-pit", s.active, int(car.at[4:]), a.die)
        return
    _start_movement(s, car.id, "move", a.die)


def _start_movement(s: State, car: str, kind: Literal["move", "slipstream"], spaces: int) -> None:
    at = s.cars[car].at
    road_only = kind == "move" and at in s.board.spaces and terrain(s, at) == "road"
    drift = "ready" if kind == "move" and s.drift else "off"
    s.movement = Movement(car, kind, spaces, road_only, drift)
    _wait(s, "enter" if at == START else "step", s.active)


def _do_slipstream(s: State, a: SlipstreamAction, chance: Chance, events: list[Event]) -> None:
    assert s.decision is not None
    n = s.decision.data[0]
    s.decision = None
    _note(events, "slipstream", car=car_id(s.active, a.car), spaces=n)
    _start_movement(s, car_id(s.active, a.car), "slipstream", n)


def _do_enter(s: State, a: EnterAction, chance: Chance, events: list[Event]) -> None:
    _take_step(s, a.space, "front")


def _do_step(s: State, a: StepAction, chance: Chance, events: list[Event]) -> None:
    assert s.movement is not None
    _take_step(s, link(s.board, s.cars[s.movement.car].at, a.direction), a.direction)


def _take_step(s: State, target: str, direction: str) -> None:
    m = s.movement
    assert m is not None and s.decision is not None
    bonus = s.decision.kind == "bonus"
    how = "bonus" if bonus else ("move" if m.kind == "move" else "slipstream")
    s.movement = replace(m, remaining=m.remaining if bonus else m.remaining - 1, bonus=m.bonus or bonus,
                         displaced=False)
    s.decision = None
    _push(s, Task("enter", car=m.car, space=target, how=how, direction=direction), Task("move-on"))


def _do_stop(s: State, a: StopAction, chance: Chance, events: list[Event]) -> None:
    assert s.movement is not None
    s.movement = replace(s.movement, ended=True)
    s.decision = None
    _push(s, Task("move-on"))


def _do_drift(s: State, a: DriftAction, chance: Chance, events: list[Event]) -> None:
    assert s.movement is not None
    s.movement = replace(s.movement, drift="used")
    s.decision = None
    _note(events, "drift", car=s.movement.car)


def _do_slam(s: State, a: SlamAction, chance: Chance, events: list[Event]) -> None:
    assert s.movement is not None and s.decision is not None
    other = s.decision.data[0]
    s.movement = replace(s.movement, drift="used")
    s.decision = None
    _slam(s, s.movement.car, other, chance, events)


def _do_reroll(s: State, a: RerollAction | KeepAction, chance: Chance, events: list[Event]) -> None:
    assert s.decision is not None
    top, bottom, moves, direction = s.decision.data
    s.decision = None
    if a.do == "reroll":
        _note(events, "reroll", player=s.cars[_larger(s, top, bottom)].crew)
        moves = _roll(s, chance, "slam", s.kit.slam, events)
        direction = _roll(s, chance, "direction", s.kit.direction, events)
    _push(s, Task("slam-move", car=top, other=bottom, how=moves, direction=direction))


def _do_exit_pit(s: State, a: ExitPitAction, chance: Chance, events: list[Event]) -> None:
    assert s.decision is not None
    die = s.decision.data[1]
    car = s.cars[s.moved or ""]
    s.discard = s.discard + car.tokens
    s.cars[car.id] = replace(car, at=a.space, tokens=())
    s.decision = None
    _note(events, "pit-exit", car=car.id, space=a.space, discarded=len(car.tokens))
    _log(events, f"{car.id} leaves the pit onto {a.space}")
    _push(s, Task("resolve", car=car.id, space=a.space, how="pit-exit", direction="front"),
          Task("after-pit-exit", car=car.id, n=die))


def _do_shoot(s: State, a: ShootAction, chance: Chance, events: list[Event]) -> None:
    assert s.decision is not None
    missile = s.decision.kind == "missile-target"
    s.decision = None
    if missile:
        _push(s, Task("shot", other=a.target, how="missile"), Task("after-command"))
    else:
        _push(s, Task("shot", car=s.moved or "", other=a.target, how="shoot"), Task("end-turn"))


def _do_end_turn(s: State, a: EndTurnAction, chance: Chance, events: list[Event]) -> None:
    s.decision = None
    _push(s, Task("end-turn"))


def _do_set_aside(s: State, a: SetAsideAction, chance: Chance, events: list[Event]) -> None:
    assert s.decision is not None
    crew = s.crews[s.decision.player]
    _set_aside(s, crew.name, a.die, events)
    s.decision = None


def _set_aside(s: State, crew_name: str, die: int, events: list[Event]) -> None:
    crew = s.crews[crew_name]
    dice = list(crew.dice)
    dice.remove(die)
    s.crews[crew_name] = replace(crew, dice=tuple(dice), set_aside=(*crew.set_aside, die))
    _note(events, "set-aside", crew=crew_name, die=die)


ACTIONS = {
    "command": _do_command, "move": _do_move, "enter": _do_enter, "exit_pit": _do_exit_pit, "step": _do_step,
    "stop": _do_stop, "drift": _do_drift, "slam": _do_slam, "reroll": _do_reroll, "keep": _do_reroll,
    "slipstream": _do_slipstream, "shoot": _do_shoot, "end_turn": _do_end_turn, "set_aside": _do_set_aside,
}


# ---------------------------------------------------------------------------------------------
# Resolving: the stack of work after an action, until the game waits for someone


def _run(s: State, chance: Chance, events: list[Event]) -> None:
    while s.decision is None and s.winner is None:
        if not s.stack:
            raise AssertionError("nothing to resolve and nobody to wait for")
        task = s.stack[-1]
        s.stack = s.stack[:-1]
        TASKS[task.kind](s, task, chance, events)


def _log(events: list[Event], line: str) -> None:
    _note(events, "log", text=line)


def _is_mover(s: State, car: str) -> bool:
    return s.movement is not None and s.movement.car == car


def _end_move(s: State, car: str) -> None:
    """Damage, a slam or a stop ends the move of the car moving, if that is this car."""
    if _is_mover(s, car) and s.movement is not None:
        s.movement = replace(s.movement, ended=True)


def _t_enter(s: State, t: Task, chance: Chance, events: list[Event]) -> None:
    car = s.cars[t.car]
    origin = car.at
    if origin != START and origin not in s.board.spaces:
        return  # it left the road before this could happen
    jump = t.how in ("ramp", "blast")
    if origin in s.board.spaces and not jump and t.direction in DIRECTIONS \
            and crosses_barricade(s.board, origin, t.direction, t.space):
        _log(events, f"{car.id} crosses a barricade leaving {origin}")
        _to_pit(s, car.id, "barricade", events)
        return
    if t.space == OFF:
        _log(events, f"{car.id} leaves the board from {origin}")
        _to_pit(s, car.id, "off the board", events)
        return
    if t.space == FINISH:
        _log(events, f"{car.id} crosses the finish line from {origin}")
        _finish(s, car.id, events)
        return
    s.cars[car.id] = replace(car, at=t.space)
    _note(events, "moved", car=car.id, origin=origin, to=t.space, how=t.how, direction=t.direction)
    _log(events, f"{car.id} {origin} → {t.space} ({t.how}{', ' + t.direction if t.direction else ''})")
    _push(s, Task("resolve", car=car.id, space=t.space, how=t.how, direction=t.direction))


def _t_resolve(s: State, t: Task, chance: Chance, events: list[Event]) -> None:
    """Resolve the space a car entered: flip a hazard, apply its terrain, then any slam."""
    if s.cars[t.car].at != t.space:
        return
    here = terrain(s, t.space)
    if here == "hazard":
        token = _roll(s, chance, "hazard", s.hazard_pool, events)
        pool = list(s.hazard_pool)
        pool.remove(token)
        s.hazard_pool = tuple(pool)
        here = s.kit.hazard_terrain[token]
        s.revealed[t.space] = here
        _note(events, "flipped", space=t.space, token=token, terrain=here)
        _log(events, f"hazard at {t.space} flipped: {here}")
    m = s.movement
    if m is not None and m.car == t.car and t.how in ("move", "bonus") and here != "road":
        s.movement = replace(m, road_only=False)
    _push(s, *_terrain_tasks(s, t, here, chance, events), Task("occupancy", car=t.car, space=t.space, how=t.how))


def _terrain_tasks(s: State, t: Task, here: str, chance: Chance, events: list[Event]) -> list[Task]:
    car = s.cars[t.car]
    if here == "oil-slick":
        d = _roll(s, chance, "direction", s.kit.direction, events)
        if _is_mover(s, car.id) and s.movement is not None:
            s.movement = replace(s.movement, displaced=True)
        _log(events, f"{car.id} slides on the oil slick: {d}")
        return [Task("enter", car=car.id, space=link(s.board, t.space, d), how="oil", direction=d)]
    if here == "rubble":
        if len(car.tokens) == 1:
            _log(events, f"{car.id} hits rubble with one damage")
            _end_move(s, car.id)
            _to_pit(s, car.id, "rubble", events)
        return []
    if here == "minefield":
        _end_move(s, car.id)
        _log(events, f"{car.id} stops in the minefield")
        return [Task("damage", car=car.id)]
    if here == "omni-ramp":
        _end_move(s, car.id)
        n = _roll(s, chance, "stunt", s.kit.stunt, events)
        direction = t.direction or "front"
        _log(events, f"{car.id} takes the omni-ramp: {n} {direction}")
        return [Task("enter", car=car.id, space=walk(s.board, t.space, direction, n), how="ramp", direction=direction)]
    if here == "impassable":
        _end_move(s, car.id)
        _log(events, f"{car.id} hits an impassable space")
        _to_pit(s, car.id, "impassable", events)
    return []


def _t_occupancy(s: State, t: Task, chance: Chance, events: list[Event]) -> None:
    if s.cars[t.car].at != t.space:
        return
    others = [c for c in cars_at(s, t.space) if c != t.car]
    if not others:
        return
    m = s.movement
    if m is not None and m.car == t.car and t.how == "move" and m.drift == "ready" and not m.ended \
            and m.remaining > 0:
        _wait(s, "drift", s.active, others[0])
        return
    _slam(s, t.car, others[0], chance, events)


def _larger(s: State, a: str, b: str) -> str:
    return a if SIZES.index(s.cars[a].size) > SIZES.index(s.cars[b].size) else b


def _slam(s: State, top: str, bottom: str, chance: Chance, events: list[Event]) -> None:
    # ruling: slam-ends-every-move
    _end_move(s, top)
    _end_move(s, bottom)
    for c in (top, bottom):
        s.hits[c] = s.hits.get(c, 0) + 1
    _bump(s, "slams")
    _note(events, "slam", top=top, bottom=bottom, space=s.cars[top].at)
    _log(events, f"slam at {s.cars[top].at}: {top} on top of {bottom}")
    moves = _roll(s, chance, "slam", s.kit.slam, events)
    direction = _roll(s, chance, "direction", s.kit.direction, events)
    # ruling: slam-ends-every-move
    if s.cars[top].size != s.cars[bottom].size:
        _wait(s, "reroll", s.cars[_larger(s, top, bottom)].crew, top, bottom, moves, direction)
        return
    _push(s, Task("slam-move", car=top, other=bottom, how=moves, direction=direction))


def _t_slam_move(s: State, t: Task, chance: Chance, events: list[Event]) -> None:
    mover = slam_mover(t.how, t.car, t.other)
    at = s.cars[mover].at
    _log(events, f"the {t.how} car, {mover}, moves {t.direction}")
    _push(s, Task("enter", car=mover, space=link(s.board, at, t.direction), how="slam", direction=t.direction))


def _t_damage(s: State, t: Task, chance: Chance, events: list[Event]) -> None:
    car = s.cars[t.car]
    if car.at not in s.board.spaces:
        return
    _end_move(s, car.id)
    s.hits[car.id] = s.hits.get(car.id, 0) + 1
    if not s.pile:
        s.pile, s.discard = s.discard, ()
        _note(events, "reshuffle", tokens=len(s.pile))
    # ruling: damage-with-no-tokens-left
    if not s.pile:
        _log(events, f"{car.id} would take damage, but every damage token is under a car")
        return
    token = _roll(s, chance, "damage", s.pile, events)
    pile = list(s.pile)
    pile.remove(token)
    s.pile = tuple(pile)
    _bump(s, "damage")
    facts = s.kit.effects[token]
    _note(events, "damage", car=car.id, token=token, effect=facts.effect)
    _log(events, f"{car.id} takes damage: {token}")
    _push(s, *_damage_tasks(s, car, facts, chance, events), Task("place-token", car=car.id, space=token))


def _damage_tasks(s: State, car: Car, facts: DamageFacts, chance: Chance, events: list[Event]) -> list[Task]:
    at = car.at
    if facts.effect == "battery-discharge":
        d = _roll(s, chance, "direction", s.kit.direction, events)
        target = link(s.board, at, d)
        victims = cars_at(s, target) if target in s.board.spaces else []
        _log(events, f"battery discharge {d}: " + (", ".join(victims) if victims else "no car there"))
        return [Task("damage", car=v) for v in victims]
    if facts.effect == "skid":
        d = facts.direction or "front"
        return [Task("enter", car=car.id, space=link(s.board, at, d), how="skid", direction=d)]
    if facts.effect == "dazed":
        n = _roll(s, chance, "stunt", s.kit.stunt, events)
        return [Task("dazed", car=car.id, n=n, how=str(s.hits.get(car.id, 0)))]
    if facts.effect == "blast-off":
        n = _roll(s, chance, "stunt", s.kit.stunt, events)
        d = _roll(s, chance, "direction", s.kit.direction, events)
        _log(events, f"{car.id} blasts off {n} {d}")
        return [Task("enter", car=car.id, space=walk(s.board, at, d, n), how="blast", direction=d)]
    return []


def _t_dazed(s: State, t: Task, chance: Chance, events: list[Event]) -> None:
    car = s.cars[t.car]
    # ruling: dazed-stops
    if t.n <= 0 or car.at not in s.board.spaces or str(s.hits.get(car.id, 0)) != t.how:
        return
    d = _roll(s, chance, "direction", s.kit.direction, events)
    _push(s, Task("enter", car=car.id, space=link(s.board, car.at, d), how="dazed", direction=d),
          Task("dazed", car=car.id, n=t.n - 1, how=t.how))


def _t_place_token(s: State, t: Task, chance: Chance, events: list[Event]) -> None:
    car = s.cars[t.car]
    # ruling: damage-with-no-tokens-left
    if car.at == FINISHED:
        s.discard = (*s.discard, t.space)
        return
    car = replace(car, tokens=(*car.tokens, t.space))
    s.cars[car.id] = car
    if len(car.tokens) >= 2 and car.at in s.board.spaces:
        _log(events, f"{car.id} has a second damage token")
        _to_pit(s, car.id, "second damage", events)


def _to_pit(s: State, car_name: str, why: str, events: list[Event]) -> None:
    car = s.cars[car_name]
    tile = s.board.spaces[car.at].tile if car.at in s.board.spaces else 1
    # ruling: pit-stop-on-the-same-tile
    pit = max(p for p in s.board.pits if p <= tile)
    s.cars[car_name] = replace(car, at=f"pit:{pit}")
    _end_move(s, car_name)
    _bump(s, "pits")
    _note(events, "pit", car=car_name, pit=pit, why=why)
    _log(events, f"{car_name} goes to the pit beside tile {pit} ({why})")


def _finish(s: State, car_name: str, events: list[Event]) -> None:
    car = s.cars[car_name]
    s.cars[car_name] = replace(car, at=FINISHED)
    _end_move(s, car_name)
    _note(events, "finished", car=car_name)
    if finished_count(s, car.crew) >= CARS_TO_WIN:
        s.winner = car.crew
        s.stage = "over"
        s.stack = ()
        s.decision = None
        s.movement = None
        _note(events, "won", crew=car.crew)
        _log(events, f"{car.crew} has two cars across the finish line and wins")
        return
    crew = s.crews[car.crew]
    if crew.assigned_to(car.size) is not None:
        return  # its assigned die goes with it
    # ruling: finished-car-takes-a-die
    if len(set(crew.dice)) == 1:
        _set_aside(s, crew.name, crew.dice[0], events)
    else:
        _push(s, Task("set-aside", car=car_name))


def _t_set_aside(s: State, t: Task, chance: Chance, events: list[Event]) -> None:
    crew = s.cars[t.car].crew
    _wait(s, "set-aside", crew)


def _t_move_on(s: State, t: Task, chance: Chance, events: list[Event]) -> None:
    """After a step has been resolved: the next step, a choice, or the end of the move."""
    m = s.movement
    assert m is not None
    if not m.ended and on_road(s, m.car):
        # ruling: oil-slick-continue
        if m.displaced and m.remaining > 0:
            _wait(s, "continue", s.active)
            return
        if m.remaining > 0:
            _wait(s, "step", s.active)
            return
        # ruling: road-bonus-step
        if m.kind == "move" and m.road_only and not m.bonus:
            _wait(s, "bonus", s.active)
            return
    s.movement = None
    if m.kind == "slipstream":
        _push(s, Task("after-command"))
    elif on_road(s, m.car):
        _shoot_or_end(s)
    else:
        _push(s, Task("end-turn"))


def _shoot_or_end(s: State) -> None:
    if s.moved and on_road(s, s.moved) and front_targets(s, s.moved):
        s.stage = "shoot"
        _wait(s, "shoot", s.active, s.moved)
    else:
        _push(s, Task("end-turn"))


def _t_after_command(s: State, t: Task, chance: Chance, events: list[Event]) -> None:
    s.stage = "move"
    if open_slots(s, s.active):
        _wait(s, "move", s.active)
    else:
        _push(s, Task("end-turn"))


def _t_after_pit_exit(s: State, t: Task, chance: Chance, events: list[Event]) -> None:
    if s.jumpstart and on_road(s, t.car):
        _start_movement(s, t.car, "move", t.n)
    else:
        _push(s, Task("end-turn"))


def _t_shot(s: State, t: Task, chance: Chance, events: list[Event]) -> None:
    target = s.cars[t.other]
    face = _roll(s, chance, "shooting", s.kit.shooting, events)
    hit = shot_hits(face, target.size)
    _bump(s, "shots")
    _note(events, "shot", shooter=t.car or None, target=target.id, face=face, hit=hit, how=t.how)
    _log(events, f"{t.how} at {target.id}: shooting die {face}: {'hit' if hit else 'miss'}")
    if hit:
        _bump(s, "hits")
        _push(s, Task("damage", car=target.id))


def _t_end_turn(s: State, t: Task, chance: Chance, events: list[Event]) -> None:
    _next_turn(s, chance, events)


TASKS = {
    "enter": _t_enter, "resolve": _t_resolve, "occupancy": _t_occupancy, "slam-move": _t_slam_move,
    "damage": _t_damage, "dazed": _t_dazed, "place-token": _t_place_token, "set-aside": _t_set_aside,
    "move-on": _t_move_on, "after-command": _t_after_command, "after-pit-exit": _t_after_pit_exit,
    "shot": _t_shot, "end-turn": _t_end_turn,
}


# ---------------------------------------------------------------------------------------------
# Rounds and turns


def seating_from(order: Sequence[str], first: str) -> list[str]:
    i = order.index(first)
    return [*order[i:], *order[:i]]


def _next_turn(s: State, chance: Chance, events: list[Event]) -> None:
    """The next player in the round with a car still to move; a new round when nobody has one."""
    seats = seating_from(s.order, s.first)
    sequence = [(turn, p) for turn in range(1, TURNS_PER_ROUND + 1) for p in seats]
    here = sequence.index((s.turn, s.active))
    # ruling: finished-car-takes-a-die
    for turn, player in sequence[here + 1:]:
        if open_slots(s, player):
            _begin_turn(s, turn, player)
            return
    s.first = seats[1 % len(seats)]
    _note(events, "marker", first=s.first)
    _begin_round(s, s.round + 1, chance, events)


def _begin_round(s: State, number: int, chance: Chance, events: list[Event]) -> None:
    s.round = number
    for name in seating_from(s.order, s.first):
        n = len(unfinished(s, name)) + 1
        dice = tuple(_roll(s, chance, "movement", s.kit.movement, events) for _ in range(n))
        s.crews[name] = Crew(name, tuple(sorted(dice)))
    _note(events, "round", number=number, first=s.first)
    for turn, player in [(t, p) for t in range(1, TURNS_PER_ROUND + 1) for p in seating_from(s.order, s.first)]:
        if open_slots(s, player):
            _begin_turn(s, turn, player)
            return
    raise AssertionError("a round with nobody to move")


def _begin_turn(s: State, turn: int, player: str) -> None:
    s.turn, s.active = turn, player
    s.stage = "command"
    s.jumpstart = s.drift = False
    s.moved = None
    s.movement = None
    _wait(s, "turn", player)


# ---------------------------------------------------------------------------------------------
# Rule functions the odds tables enumerate (the engine resolves rolls through the same ones)


def shot_hits(face: str, size: str) -> bool:
    """A shot hits when the shooting die shows the target's size."""
    return face == size


def slam_mover(moves: str, top: str, bottom: str) -> str:
    return top if moves == "top" else bottom


# ---------------------------------------------------------------------------------------------
# Setting up: a scenario's setup, or a whole game


@dataclass(frozen=True)
class CarSetup:
    """Where one car is and the damage tokens under it."""

    at: str = field(default=START, metadata={
        "doc": f"start (the starting area, the default), a road space {ROAD_SPACE}, pit:<tile> (the pit stop "
               "beside that tile: 1, 3, 5, or 7 on the long road) or finished (across the finish line)"})
    damage: tuple[str, ...] = field(default=(), metadata={
        "doc": "damage tokens under the car, by token id (like dent or skid-front-left); at most one for a car on "
               "the road; default: none"})


@dataclass(frozen=True)
class Setup:
    """A moment of a game: the road, the crews, where every car is, the dice of the round."""

    road: tuple[int, ...] = field(default=DEFAULT_ROAD, metadata={
        "doc": "the tile sides laid, in order from the start: the starting tile's side (1 or 10) first, 6 tiles "
               "(8 on the long road), each tile once; default: [1, 2, 5, 3, 15, 4]"})
    crews: tuple[str, ...] = field(default=("red", "blue"), metadata={
        "doc": "the crews playing (2 to 4 colours, each once), in seating order (the next one sits to the left); "
               "default: red, blue"})
    first: str | None = field(default=None, metadata={
        "doc": "the crew holding the first-player marker this round; default: the first crew"})
    active: str | None = field(default=None, metadata={
        "doc": "the crew whose turn begins; default: the first player"})
    round: int = field(default=1, metadata={"doc": "the round number, from 1", "min": 1})
    turn: int = field(default=1, metadata={"doc": "which of the round's three turns begins (1 to 3)", "min": 1,
                                           "max": 3})
    cars: dict[str, CarSetup] = field(default_factory=dict, metadata={
        "doc": "per car, <crew>-<size> like red-small: where it is and its damage; cars not given are in the "
               "starting area, undamaged"})
    dice: dict[str, tuple[int, ...]] = field(default_factory=dict, metadata={
        "doc": "per crew: the values (1 to 6) of its rolled dice not yet placed this round, one per car without a "
               "die plus one if the command is unused; default: that many 3s"})
    assigned: dict[str, dict[str, int]] = field(default_factory=dict, metadata={
        "doc": "per crew: the dice already on its car slots this round, car size -> value, like {small: 3}; "
               "default: none"})
    commands: dict[str, str] = field(default_factory=dict, metadata={
        "doc": "per crew: the command it already used this round (slipstream, jumpstart, drift or missile); "
               "default: none"})
    hazards: dict[str, str] = field(default_factory=dict, metadata={
        "doc": f"hazard tokens already face up: hazard space ({ROAD_SPACE}) -> token id, like oil-slick; every "
               "other hazard space still has a face-down token"})
    pile: tuple[str, ...] | None = field(default=None, metadata={
        "doc": "the damage tokens in the face-down pile, by token id (drawn at random); tokens neither here nor "
               "under a car are discarded; default: every token not under a car"})


@dataclass(frozen=True)
class Options:
    """A whole game from the rulebook's setup."""

    players: int = field(default=4, metadata={
        "doc": "how many crews race, 2 to 4, taken in the cars' content order (red, blue, green, yellow); the "
               "first holds the first-player marker", "min": 2, "max": 4})
    length: Literal["standard", "long"] = field(default="standard", metadata={
        "doc": "standard: 6 road tiles with 3 pit stops; long: 8 tiles with 4 (ignored when `road` is given)"})
    road: tuple[int, ...] = field(default=(), metadata={
        "doc": "the tile sides to lay, in order, the starting tile's side first; default: empty, tiles and sides "
               "drawn at random so that the road never turns back toward the start"})


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
            raise SetupError((*path, i), f"side {side} is the other side of the tile already laid at {seen[tile] + 1}")
        seen[tile] = i


def initial_state(setup: Setup, content: GameContent) -> State:
    kit = kit_of(content)
    _check_road(kit, setup.road, ("road",))
    board = build_board(kit, setup.road)
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
            raise SetupError((key,), f"{name!r} is not one of the crews {list(order)}")
    cars, used_tokens = _setup_cars(kit, board, setup, order)
    revealed, pool = _setup_hazards(kit, board, setup)
    for cid, car in cars.items():
        if car.at in board.spaces and board.spaces[car.at].terrain == "hazard" and car.at not in revealed:
            raise SetupError(("cars", cid, "at"), "a car stands on a hazard space only once its token is face up "
                             "(add it to hazards:)")
    pile, discard = _setup_pile(kit, setup, used_tokens)
    crews = {name: _setup_crew(setup, name, cars) for name in order}
    s = State(kit, board, order, cars, crews, revealed, pool, pile, discard, first, setup.round, setup.turn, active)
    winners = [c for c in order if finished_count(s, c) >= CARS_TO_WIN]
    if winners:
        raise SetupError(("cars",), f"{winners[0]} already has two cars across the line: the game is over")
    if not open_slots(s, active):
        raise SetupError(("active",), f"{active} has no car left to move this round")
    _begin_turn(s, setup.turn, active)
    return s


def _setup_cars(kit: Kit, board: Board, setup: Setup, order: Sequence[str]) -> tuple[dict[str, Car], list[str]]:
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
        cars[cid] = replace(cars[cid], at=at, tokens=tuple(spec.damage))
        used += spec.damage
    crowded = [a for a, n in Counter(c.at for c in cars.values() if c.at in board.spaces).items() if n > 1]
    if crowded:
        raise SetupError(("cars",), f"two cars share {crowded[0]}: every slam is resolved before anyone acts")
    return cars, used


def _setup_hazards(kit: Kit, board: Board, setup: Setup) -> tuple[dict[str, str], tuple[str, ...]]:
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


def _setup_pile(kit: Kit, setup: Setup, used: list[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
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


def _setup_crew(setup: Setup, name: str, cars: dict[str, Car]) -> Crew:
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


def new_game(options: Options, content: GameContent, chance: Chance) -> State:
    kit = kit_of(content)
    if not 2 <= options.players <= len(kit.crews):
        raise SetupError(("players",), f"2 to {len(kit.crews)} players")
    road = tuple(options.road) or lay_road(kit, ROAD_LENGTH[options.length], chance)
    _check_road(kit, road, ("road",))
    board = build_board(kit, road)
    order = kit.crews[:options.players]
    cars = {car_id(c, size): Car(car_id(c, size), c, size, START) for c in order for size in SIZES}
    s = State(kit, board, order, cars, {c: Crew(c, ()) for c in order}, {}, kit.hazards, kit.damage, (),
              order[0], 0, 1, order[0])
    _begin_round(s, 1, chance, [])
    return s


def lay_road(kit: Kit, length: int, chance: Chance) -> tuple[int, ...]:
    """Tiles and sides as players might lay them: the road never turns back toward the start."""
    # ruling: simulated-roads
    start = chance.choice("tile side", kit.starting_sides)
    tiles = chance.shuffle("road tiles", list(kit.other_tiles))[:length - 1]
    road, heading = [start], 0
    for pair in tiles:
        allowed = [n for n in pair if abs(heading + _turn(kit.sides[n])) <= 1]
        side = chance.choice("tile side", allowed)
        heading += _turn(kit.sides[side])
        road.append(side)
    return tuple(road)


def _turn(m: SpaceMap) -> int:
    return {"straight": 0, "left": 1, "right": -1}[m.bend]


# ---------------------------------------------------------------------------------------------
# What scenarios compare


def outcome(state: State, events: Sequence[Event]) -> dict[str, Any]:
    s = state
    d = s.decision
    return {
        "cars": {c.id: c.at for c in s.cars.values()},
        "damage": {c.id: len(c.tokens) for c in s.cars.values()},
        "tokens": {c.id: list(c.tokens) for c in s.cars.values()},
        "round": s.round,
        "turn": s.turn,
        "first": s.first,
        "active": s.active,
        "stage": s.stage,
        "waiting": {"player": d.player, "for": d.kind} if d is not None else None,
        "dice": {c.name: list(c.dice) for c in s.crews.values()},
        "assigned": {c.name: dict(c.assigned) for c in s.crews.values()},
        "command": {c.name: c.command for c in s.crews.values()},
        "set_aside": {c.name: list(c.set_aside) for c in s.crews.values()},
        "finished": {c: finished_count(s, c) for c in s.order},
        "winner": s.winner,
        "revealed": dict(sorted(s.revealed.items())),
        "pile": len(s.pile),
        "discard": len(s.discard),
        "movement": None if s.movement is None else {
            "car": s.movement.car, "remaining": s.movement.remaining, "road_only": s.movement.road_only,
            "drift": s.movement.drift},
        "can": sorted({a.do for a in legal(s)}),
        "events": [e.kind for e in events if e.kind not in ("roll", "log")],
        "rolls": [[e.data["label"], e.data["value"]] for e in events if e.kind == "roll"],
        "log": [e.data["text"] for e in events if e.kind == "log"],
        "slams": sum(1 for e in events if e.kind == "slam"),
        "hits": sum(1 for e in events if e.kind == "shot" and e.data["hit"]),
    }


# ---------------------------------------------------------------------------------------------
# The engine contract


class ThunderRoadIgnition(Engine):
    type = GameType(name="Thunder Road: Ignition", min_players=2, max_players=4, information="imperfect",
                    max_actions=20000)
    setup_spec = Setup
    action_specs = ACTION_SPECS
    options_spec = Options
    facts_specs = FACTS_SPECS

    def initial_state(self, setup: Any, content: GameContent) -> State:
        return initial_state(setup, content)

    def new_game(self, options: Any, content: GameContent, chance: Chance) -> State:
        return new_game(options, content, chance)

    def players_to_act(self, state: State) -> list[str]:
        if state.winner is not None or state.decision is None:
            return []
        return [state.decision.player]

    def legal_actions(self, state: State, player: str | None = None) -> list[Any]:
        if player is not None and player not in self.players_to_act(state):
            return []
        return legal(state)

    def apply(self, state: State, action: Any, chance: Chance) -> tuple[State, list[Event]]:
        return apply(state, action, chance)

    def outcome(self, state: State, events: list[Event]) -> dict[str, Any]:
        return outcome(state, events)

    def result(self, state: State) -> dict[str, Any]:
        return {"result": f"{state.winner} wins" if state.winner else "unfinished", "rounds": state.round,
                "slams": state.stats.get("slams", 0), "damage tokens drawn": state.stats.get("damage", 0),
                "trips to the pit": state.stats.get("pits", 0), "shots": state.stats.get("shots", 0),
                "hazards flipped": len(state.revealed)}

    def draw_svg(self, state: State, focus: draw.Focus | None = None) -> str:
        return draw_state(state, focus)

    def pieces(self, state: State) -> list[draw.Piece]:
        return pieces(state)

    def legend(self) -> list[draw.Swatch]:
        return legend()

    def describe_action(self, action: Any, state: Any = None, content: GameContent | None = None) -> str:
        return describe(action)

    def describe_random(self, label: str, value: Any, content: GameContent | None = None) -> str:
        return describe_random(label, value, content.name if content is not None else str)

    def describe_end(self, state: State, content: GameContent | None = None) -> str:
        return describe_end(self.outcome(state, []))

    def simulation_setups(self) -> list[Setting]:
        return [Setting("2 players", {"players": 2}), Setting("3 players", {"players": 3}),
                Setting("4 players", {"players": 4}), Setting("4 players, long road", {"players": 4, "length": "long"})]

    def odds_for(self, content: GameContent) -> list[dict[str, Any]]:
        return odds_tables(kit_of(content))


def describe(action: Any) -> str:
    """An action in players' words: cars by crew and size, spaces by the id printed in their corner."""
    do = action.do
    if do == "command":
        return f"Use the command die (a {action.die}) for {action.command.capitalize()}"
    if do == "move":
        return f"Put the {action.die} on the {action.car} car's slot and move it"
    if do == "enter":
        return f"Enter the starting tile at {_space_words(action.space)}"
    if do == "exit_pit":
        return f"Leave the pit onto {_space_words(action.space)}"
    if do == "step":
        return f"Step {action.direction}"
    return {"stop": "Stop there", "drift": "Drift past the car", "slam": "Slam the car", "reroll": "Reroll the slam",
            "keep": "Keep the slam roll", "end_turn": "End the turn without shooting"}.get(do) or (
        f"Slipstream the {action.car} car" if do == "slipstream" else
        f"Shoot at {_car_words(action.target)}" if do == "shoot" else f"Put the {action.die} aside")


def _car_words(car: str) -> str:
    """red-large -> "red's large car" (a car is its crew's colour and its size)."""
    crew, _, size = car.partition("-")
    return f"{crew}'s {size} car" if size else car


def _space_words(space: str) -> str:
    """1:c1 -> "c1 of tile 1" (the space's printed id, and the tile counted from the start)."""
    tile, _, spot = space.partition(":")
    return f"{spot} of tile {tile}" if spot else space


def describe_end(o: Mapping[str, Any]) -> str:
    """Where each car on the road is and its damage, and the winner, in players' words."""
    parts = []
    for car, at in o["cars"].items():
        hurt = o["damage"].get(car, 0)
        if at == START and not hurt:
            continue
        where = ("waits at the start" if at == START else "has crossed the finish line" if at == FINISHED else
                 f"is in the pit beside tile {at[4:]}" if at.startswith("pit:") else f"is on {_space_words(at)}")
        parts.append(f"{_car_words(car)} {where}" + (f" with {hurt} damage" if hurt else ""))
    if o.get("winner"):
        parts.append(f"{o['winner']} wins")
    text = "; ".join(parts) or "every car waits at the start"
    return text[:1].upper() + text[1:] + "."


_DIE = {"movement": "a movement die", "stunt": "the stunt die", "shooting": "the shooting die",
        "direction": "the direction die", "slam": "the slam die"}


def describe_random(label: str, value: Any, name: Callable[[str], str]) -> str:
    """A roll or draw in players' words: the face as the die or token prints it."""
    if label in _DIE:
        face = str(value) if isinstance(value, int) else name(str(value)).capitalize()
        face += " car moves" if label == "slam" else ""
        return f"rolls {face} on {_DIE[label]}"
    if label == "damage":
        return f"draws the damage token {name(str(value))}"
    if label == "hazard":
        return f"flips the hazard token: {name(str(value))}"
    if isinstance(value, (list, tuple)):
        return f"{label}, in order: {', '.join(name(str(v)) for v in value)}"
    return f"{label}: {name(str(value))}"


# ---------------------------------------------------------------------------------------------
# Drawing a state: the tiles in play laid edge to edge, from the same maps the print kit draws

UNIT = 34.0  # pixels per lane width
MIN_WIDTH = 380.0  # room for the caption
CAPTION_LINES = 5  # at most: turn, who chooses, dice, the starting area and the finished cars
TERRAIN_FILL = {"road": "#9aa1a6", "off-road": "#a5c882", "oil-slick": "#3b3b3b", "rubble": "#b08d74",
                "minefield": "#e57373", "omni-ramp": "#f0a531", "impassable": "#37474f", "hazard": "#c9b458"}
TERRAIN_MARK = {"oil-slick": "OIL", "rubble": "RUB", "minefield": "MINE", "omni-ramp": "RAMP", "impassable": "X",
                "hazard": "?", "off-road": ""}
CREW_FILL = {"red": "#b71c1c", "blue": "#0d47a1", "green": "#1b5e20", "yellow": "#8a6d00"}
CAR_LENGTH = {"small": 0.46, "medium": 0.62, "large": 0.78}


@dataclass(frozen=True)
class _Piece:
    tile: int
    m: SpaceMap
    place: geometry.Placement


def _shown_tiles(state: State) -> list[int]:
    """The stretch of road worth drawing: from the rearmost car (or the start) to one tile past the
    frontmost, and the finish line when the last tile is shown."""
    n = len(state.board.road)
    tiles = [state.board.spaces[c.at].tile for c in state.cars.values() if c.at in state.board.spaces]
    tiles += [int(c.at[4:]) for c in state.cars.values() if c.at.startswith("pit:")]
    if not tiles:
        tiles = [1]
    lo, hi = min(tiles), min(n, max(tiles) + 1)
    return list(range(lo, hi + 1))


def _all_pieces(state: State) -> list[_Piece]:
    """Every road tile laid edge to edge from the first: one frame for every state of a game, so a
    car's place compares between two drawings."""
    maps = list(state.board.maps)
    return [_Piece(t, m, p) for t, m, p in zip(range(1, len(maps) + 1), maps, geometry.chain(maps), strict=True)]


@functools.lru_cache(maxsize=256)
def _outlines(m: SpaceMap, place: geometry.Placement, inset: float = 0.0) -> dict[str, tuple[tuple[float, float], ...]]:
    """Each space's outline laid on the shared plane. Every drawing of a game places the same tiles
    the same way, so this is worked out once per tile and placement, not once per drawing."""
    return {s.id: tuple(place.apply(q) for q in geometry.outline(m, s, inset)) for s in m.spaces}


def _tile_box(pc: _Piece) -> draw.Box:
    pts = [q for outline in _outlines(pc.m, pc.place).values() for q in outline]
    xs, ys = [p[0] for p in pts], [-p[1] for p in pts]
    return draw.Box.spanning(min(xs), min(ys), max(xs), max(ys))


def _focus_tiles(state: State, focus: draw.Focus | None) -> list[int]:
    """The tiles a drawing shows: with a focus, those under its window (one tile of road either side
    for context); else the stretch from the rearmost car to the frontmost."""
    if focus is None or focus.window is None:
        return _shown_tiles(state)
    window = focus.window.pad(0.5)
    hit = [pc.tile for pc in _all_pieces(state) if _overlap(_tile_box(pc), window)] or _shown_tiles(state)
    return list(range(min(hit), max(hit) + 1))


def _overlap(a: draw.Box, b: draw.Box) -> bool:
    return a.x < b.x1 and b.x < a.x1 and a.y < b.y1 and b.y < a.y1


def _car_points(state: State, pieces: list[_Piece]) -> dict[str, tuple[float, float]]:
    """Where each car is drawn, in road units (before the nudge that separates cars sharing a space)."""
    by_tile = {pc.tile: pc for pc in pieces}
    out: dict[str, tuple[float, float]] = {}
    waiting: dict[str, int] = {}
    for car in sorted(state.cars.values(), key=lambda c: c.id):
        if car.at in state.board.spaces:
            sp = state.board.spaces[car.at]
            if sp.tile in by_tile:
                pc = by_tile[sp.tile]
                local = next(s for s in pc.m.spaces if s.id == sp.local)
                out[car.id] = pc.place.apply(geometry.centre(pc.m, local))
            continue
        k = waiting.get(car.at, 0)
        waiting[car.at] = k + 1
        if car.at == START and 1 in by_tile:
            out[car.id] = _start_point(by_tile[1], k)
        elif car.at == FINISHED and len(state.board.road) in by_tile:
            out[car.id] = _finish_point(by_tile[len(state.board.road)], k)
        elif car.at.startswith("pit:") and int(car.at[4:]) in by_tile:
            out[car.id] = _pit_side(by_tile[int(car.at[4:])], k)
    return out


def _where_words(at: str) -> str:
    if at == START:
        return "the starting area"
    if at == FINISHED:
        return "past the finish"
    if at.startswith("pit:"):
        return f"pit {at[4:]}"
    return f"space {at}"


def pieces(state: State) -> list[draw.Piece]:
    """The cars, in road units (y upward in the road's frame, flipped here so it grows down the page)."""
    points = _car_points(state, _all_pieces(state))
    out = []
    for car in sorted(state.cars.values(), key=lambda c: c.id):
        if car.id in points:
            x, y = points[car.id]
            out.append(draw.Piece(car.id, f"crew-{car.crew}", f"{car.crew}'s {car.size} car", _where_words(car.at),
                                  x, -y, 0.6, health=-len(car.tokens), unit="damage",
                                  on="at" if car.at in (START, FINISHED) or car.at.startswith("pit:") else "on"))
    return out


def legend() -> list[draw.Swatch]:
    def car(crew: str, size: str) -> Any:
        def paint(svg: draw.Svg, cx: float, cy: float, n: float) -> None:
            _car_shape(svg, Car(f"{crew}-{size}", crew, size, START), (cx, cy), (0.0, -1.0))
        return paint

    out = [draw.swatch(f"crew-{crew}", f"{crew} crew's car (S, M, L: its size; a dot per damage token)",
                       car(crew, "medium")) for crew in sorted(CREW_FILL)]
    return out


def draw_state(state: State, focus: draw.Focus | None = None) -> str:
    tiles = _focus_tiles(state, focus)
    every = _all_pieces(state)
    pieces = [every[t - 1] for t in tiles]
    world = [q for pc in pieces for outline in _outlines(pc.m, pc.place).values() for q in outline]
    extra = _around(state, pieces)
    xs = [p[0] for p in world + extra]
    ys = [p[1] for p in world + extra]
    pad = 1.2
    x0, x1, y0, y1 = min(xs) - pad, max(xs) + pad, min(ys) - pad, max(ys) + pad
    x1 = max(x1, x0 + MIN_WIDTH / UNIT)
    lines = _caption(state)
    head = 8.0 + 16.0 * (len(lines) if focus is None else CAPTION_LINES)  # one height for an example's drawings
    svg = draw.Svg((x1 - x0) * UNIT, (y1 - y0) * UNIT + head, "Thunder Road: Ignition")

    def pt(p: tuple[float, float]) -> tuple[float, float]:
        return ((p[0] - x0) * UNIT, head + (y1 - p[1]) * UNIT)

    svg.rect(0, 0, svg.width, svg.height, "#f7f3ea")
    for i, line in enumerate(lines):
        svg.text(8, 18 + 16 * i, line, size=12, anchor="start", weight="bold" if i == 0 else None)
    for pc in pieces:
        _draw_piece(svg, state, pc, pt)
    _draw_places(svg, state, pieces, pt)
    _draw_cars(svg, state, pieces, pt)
    draw.overlay(svg, focus, lambda p: pt((p[0], -p[1])), UNIT)
    return svg.render()


WAITING_WORDS = {"turn": "a command or a move", "move": "a move", "slipstream-car": "the car to slipstream",
                 "enter": "the entry space", "exit-pit": "where to leave the pit", "step": "the next step",
                 "continue": "keep moving or stop", "bonus": "the road bonus", "drift": "drift past or slam",
                 "reroll": "reroll the slam or keep it", "shoot": "a target", "missile-target": "the missile's target",
                 "set-aside": "the die for the finished car"}


def _caption(state: State) -> list[str]:
    if state.winner:
        return [f"{state.winner} wins (round {state.round})"]
    d = state.decision
    lines = [f"Round {state.round}, turn {state.turn}: {state.active}'s turn"]
    if d is not None:
        lines.append(f"{d.player} to choose {WAITING_WORDS.get(d.kind, d.kind)}")
    lines.append("dice: " + " · ".join(f"{c.name} {' '.join(map(str, c.dice)) or '-'}" for c in state.crews.values()))
    shown = _shown_tiles(state)
    for where, label, tile in ((START, "starting area", 1), (FINISHED, "finished", len(state.board.road))):
        cars = [c.id for c in state.cars.values() if c.at == where]
        if cars and tile not in shown:
            lines.append(f"{label}: {', '.join(cars)}")
    return lines


def _frame_point(pc: _Piece, frame: geometry.Frame, right: float, fwd: float) -> tuple[float, float]:
    fx, fy = frame.forward
    rx, ry = fy, -fx
    x, y = frame.left
    return pc.place.apply((x + rx * right + fx * fwd, y + ry * right + fy * fwd))


def _pit_point(pc: _Piece) -> tuple[float, float]:
    return _frame_point(pc, geometry.entry(pc.m), -1.1, 1.0)


def _start_point(pc: _Piece, k: int) -> tuple[float, float]:
    return _frame_point(pc, geometry.entry(pc.m), 0.5 + k * 0.75, -0.8)


def _finish_point(pc: _Piece, k: int) -> tuple[float, float]:
    return _frame_point(pc, geometry.exit_(pc.m), 0.5 + k * 0.75, 1.4)


def _around(state: State, pieces: list[_Piece]) -> list[tuple[float, float]]:
    """Points outside the road that get drawn (pits, the starting area, finished cars)."""
    out = []
    for pc in pieces:
        out.append(_pit_point(pc))
        if pc.tile == 1:
            out += [_start_point(pc, 0), _start_point(pc, 6)]
        if pc.tile == len(state.board.road):
            out += [_finish_point(pc, 0), _finish_point(pc, 6)]
    return out


def _draw_piece(svg: draw.Svg, state: State, pc: _Piece, pt: Any) -> None:
    for s in pc.m.spaces:
        sid = f"{pc.tile}:{s.id}"
        here = terrain(state, sid)
        poly = [pt(q) for q in _outlines(pc.m, pc.place)[s.id]]
        svg.polygon(poly, TERRAIN_FILL.get(here, "#cccccc"), "#555555")
        if here == "impassable":
            inner = [pt(q) for q in _outlines(pc.m, pc.place, 0.08)[s.id]]
            svg.polygon(inner, "none", "#f2c200")
        cx, cy = pt(pc.place.apply(geometry.centre(pc.m, s)))
        mark = TERRAIN_MARK.get(here, "")
        if sid in state.revealed:
            svg.circle(cx, cy, UNIT * 0.36, "none", "#8d6e00", width=2)
        if mark:
            svg.text(cx, cy + 4, mark, size=10, fill="#ffffff" if here in ("oil-slick", "impassable") else "#1b1b1b",
                     weight="bold")
        left, right = geometry.edge(pc.m, s, "back")
        fx, fy = geometry.heading(pc.m, s.at[1])
        # The id sits just inside the back edge, centred, whichever way the tile is turned.
        at = ((left[0] + right[0]) / 2 + fx * 0.18, (left[1] + right[1]) / 2 + fy * 0.18)
        lx, ly = pt(pc.place.apply(at))
        svg.text(lx, ly + 2, sid, size=7, fill="#333333")
        for which in s.walls:
            a, b = (pt(pc.place.apply(q)) for q in geometry.edge(pc.m, s, which))
            svg.line(*a, *b, "#1b1b1b", 6)
            svg.line(*a, *b, "#f2c200", 3, dash="5 5")
    if pc.tile in state.board.pits:
        x, y = pt(_pit_point(pc))
        svg.circle(x, y, UNIT * 0.42, "#00695c")
        svg.text(x, y + 4, f"PIT {pc.tile}", size=9, fill="#ffffff", weight="bold")
    a = pt(_frame_point(pc, geometry.entry(pc.m), 0, 0))
    b = pt(_frame_point(pc, geometry.entry(pc.m), pc.m.lanes, 0))
    svg.line(*a, *b, "#1b1b1b", 2.5)


def _draw_places(svg: draw.Svg, state: State, pieces: list[_Piece], pt: Any) -> None:
    last = pieces[-1]
    if last.tile == len(state.board.road):
        a = pt(_frame_point(last, geometry.exit_(last.m), 0, 0))
        b = pt(_frame_point(last, geometry.exit_(last.m), last.m.lanes, 0))
        svg.line(*a, *b, "#1b1b1b", 8)
        svg.line(*a, *b, "#ffffff", 8, dash="8 8")
        x, y = pt(_frame_point(last, geometry.exit_(last.m), last.m.lanes / 2, 0.6))
        svg.text(x, y, "FINISH", size=11, weight="bold")
    if pieces[0].tile == 1:
        x, y = pt(_frame_point(pieces[0], geometry.entry(pieces[0].m), pieces[0].m.lanes / 2, -0.3))
        svg.text(x, y, "starting area", size=10, fill="#555555")


def _car_shape(svg: draw.Svg, car: Car, centre: tuple[float, float], heading: tuple[float, float]) -> None:
    length, width = CAR_LENGTH[car.size] * UNIT, 0.42 * UNIT
    hx, hy = heading
    px, py = -hy, hx
    cx, cy = centre
    pts = []
    for a, b in ((1, 1), (1, -1), (-1, -1), (-1, 1)):
        pts.append((cx + hx * length / 2 * a + px * width / 2 * b, cy + hy * length / 2 * a + py * width / 2 * b))
    svg.polygon(pts, CREW_FILL.get(car.crew, "#777777"), "#ffffff")
    label = car.size[0].upper() + ("·" * len(car.tokens))
    svg.text(cx, cy + 4, label, size=11, fill="#ffffff", weight="bold")


def _draw_cars(svg: draw.Svg, state: State, pieces: list[_Piece], pt: Any) -> None:
    by_tile = {pc.tile: pc for pc in pieces}
    shared: Counter[str] = Counter()
    waiting: dict[str, int] = {}
    for car in sorted(state.cars.values(), key=lambda c: c.id):
        if car.at in state.board.spaces:
            sp = state.board.spaces[car.at]
            if sp.tile not in by_tile:
                continue  # off the zoomed stretch of road
            pc = by_tile[sp.tile]
            local = next(s for s in pc.m.spaces if s.id == sp.local)
            cx, cy = pt(pc.place.apply(geometry.centre(pc.m, local)))
            k = shared[car.at]
            shared[car.at] += 1
            fx, fy = pc.place.turn(geometry.heading(pc.m, sp.row + 0.5))
            _car_shape(svg, car, (cx + k * 9, cy - k * 9), (fx, -fy))
            continue
        if car.at == START:
            if 1 not in by_tile:
                continue  # listed in the caption
            pc, where = by_tile[1], _start_point
        elif car.at == FINISHED:
            if pieces[-1].tile != len(state.board.road):
                continue
            pc, where = pieces[-1], _finish_point
        else:
            if int(car.at[4:]) not in by_tile:
                continue
            pc, where = by_tile[int(car.at[4:])], _pit_side
        k = waiting.get(f"{car.at}", 0)
        waiting[car.at] = k + 1
        cx, cy = pt(where(pc, k))
        _car_shape(svg, car, (cx, cy), (0.0, -1.0))


def _pit_side(pc: _Piece, k: int) -> tuple[float, float]:
    return _frame_point(pc, geometry.entry(pc.m), -1.1, 1.9 + k * 0.8)


# ---------------------------------------------------------------------------------------------
# Odds


ROWS_GAINED = {"front-left": 1, "front": 1, "front-right": 1, "back-left": -1, "back": -1, "back-right": -1}
# The stunt, slam and shooting dice faces are ours (the rulebook prints only the direction die's).
HOUSE_FACES = "house die faces"


def _frac(f: Fraction) -> str:
    return str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"


def _cell(f: Fraction) -> dict[str, str]:
    return {"fraction": _frac(f), "percent": f"{float(f) * 100:.1f}%"}


def _table(table_id: str, title: str, rule: str, columns: Sequence[str],
           rows: Sequence[tuple[str, Sequence[Fraction]]], means: Sequence[Fraction] | None = None) -> dict[str, Any]:
    return {"id": table_id, "title": title, "rule": rule, "columns": list(columns),
            "rows": [[label, *(_cell(p) for p in probs)] for label, probs in rows],
            "means": None if means is None else [f"{float(m):.2f}" for m in means]}


def _spread(faces: Sequence[Any]) -> dict[Any, Fraction]:
    """How likely each face value is (faces may repeat)."""
    counts = Counter(faces)
    return {v: Fraction(n, len(faces)) for v, n in counts.items()}


def _shot_table(kit: Kit) -> dict[str, Any]:
    rows = []
    for size in SIZES:
        hit = sum((p for face, p in _spread(kit.shooting).items() if shot_hits(face, size)), Fraction(0))
        rows.append((f"{size} car", (hit, 1 - hit)))
    return _table("shot-hits", f"A shot (or missile) hits, by the target's size ({HOUSE_FACES})", "shoot",
                  ["target", "hit", "miss"], rows)


def _slam_table(kit: Kit) -> dict[str, Any]:
    """Which car moves: no reroll; and when the owner of the larger car rerolls whenever the first roll
    would move their own car (the second roll stands)."""
    faces = _spread(kit.slam)

    def moves(larger: str | None) -> dict[str, Fraction]:
        out = {"top": Fraction(0), "bottom": Fraction(0)}
        for first, p in faces.items():
            mover = slam_mover(first, "top", "bottom")
            if larger is not None and mover == larger:
                for second, q in faces.items():
                    out[slam_mover(second, "top", "bottom")] += p * q
            else:
                out[mover] += p
        return out

    rows = [("same size: no reroll", moves(None)), ("larger car on top, rerolled when it would move", moves("top")),
            ("larger car underneath, rerolled when it would move", moves("bottom"))]
    return _table("slam-mover", f"Which car moves in a slam ({HOUSE_FACES})", "slam-reroll",
                  ["slam", "top car moves", "bottom car moves"],
                  [(label, (m["top"], m["bottom"])) for label, m in rows])


def _direction_table(kit: Kit) -> dict[str, Any]:
    faces = _spread(kit.direction)
    return _table("direction", "The direction die: each of the six directions", "direction-die",
                  ["direction", "chance"], [(d, (faces.get(d, Fraction(0)),)) for d in DIRECTIONS])


def _jump_tables(kit: Kit) -> list[dict[str, Any]]:
    stunt = _spread(kit.stunt)
    distance = [(f"{n} space{'s' if n > 1 else ''}", (p,)) for n, p in sorted(stunt.items())]
    mean = sum((n * p for n, p in stunt.items()), Fraction(0))
    ramp = _table("omni-ramp-distance", f"How far an omni-ramp throws a car ({HOUSE_FACES})", "omni-ramp",
                  ["distance", "chance"], distance, [mean])
    slip = _table("slipstream-distance", f"How far Slipstream moves a car ({HOUSE_FACES})", "slipstream",
                  ["spaces", "chance"], distance, [mean])
    gained: dict[int, Fraction] = {}
    for n, p in stunt.items():
        for d, q in _spread(kit.direction).items():
            gained[n * ROWS_GAINED[d]] = gained.get(n * ROWS_GAINED[d], Fraction(0)) + p * q
    blast = _table("blast-off-rows", f"Blast Off: rows gained (minus: lost) on an open road ({HOUSE_FACES})",
                   "blast-off", ["rows", "chance"], [(f"{k:+d}", (v,)) for k, v in sorted(gained.items())],
                   [sum((k * v for k, v in gained.items()), Fraction(0))])
    return [slip, ramp, blast]


def _dazed_table(kit: Kit) -> dict[str, Any]:
    """Net rows after Dazed on an open road with no other car: the stunt die's moves, each one row
    forward or back as the direction die says."""
    step = _spread([ROWS_GAINED[d] for d in kit.direction])
    out: dict[int, Fraction] = {}
    for n, p in _spread(kit.stunt).items():
        paths: dict[int, Fraction] = {0: Fraction(1)}
        for _ in range(n):
            nxt: dict[int, Fraction] = {}
            for at, q in paths.items():
                for delta, r in step.items():
                    nxt[at + delta] = nxt.get(at + delta, Fraction(0)) + q * r
            paths = nxt
        for at, q in paths.items():
            out[at] = out.get(at, Fraction(0)) + p * q
    return _table("dazed-rows", f"Dazed: where the car ends up, in rows, on an open road ({HOUSE_FACES})", "dazed",
                  ["rows", "chance"], [(f"{k:+d}", (v,)) for k, v in sorted(out.items())],
                  [sum((k * v for k, v in out.items()), Fraction(0))])


def _dazed_length_table(kit: Kit) -> dict[str, Any]:
    stunt = _spread(kit.stunt)
    return _table("dazed-moves", f"Dazed: how many moves at most ({HOUSE_FACES})", "dazed",
                  ["moves", "chance"], [(str(n), (p,)) for n, p in sorted(stunt.items())])


def odds_tables(kit: Kit) -> list[dict[str, Any]]:
    """Exact tables, enumerating the dice faces read from content through the engine's own rules."""
    return [_shot_table(kit), _slam_table(kit), _direction_table(kit), *_jump_tables(kit), _dazed_length_table(kit),
            _dazed_table(kit)]


GAME = ThunderRoadIgnition()
