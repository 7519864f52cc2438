"""Thunder Road: Ignition: numbers printed in the rulebook, the facts content declares for each
component's faces (`facts:`), and the kit the rules read, derived once per content
(`content.view(read_kit)`): the road tiles' maps, the crews and every die's and token's faces.
"""

from __future__ import annotations

import pickle
from dataclasses import dataclass, field
from typing import Any, Literal

from generators.content.model import SpaceMap
from generators.rules.facts import GameContent

# --- printed in the rulebook -------------------------------------------------------------------

DIRECTIONS = ("front-left", "front", "front-right", "back-left", "back", "back-right")
FORWARD = DIRECTIONS[:3]
SIZES = ("small", "medium", "large")
COMMANDS = ("slipstream", "jumpstart", "drift", "missile")
TURNS_PER_ROUND = 3
CARS_TO_WIN = 2
NEVER_STOOD_ON = ("impassable",)  # terrain a car never stays on: entering it sends the car to the pit
ROAD_LENGTH = {"standard": 6, "long": 8}  # road tiles, the starting tile included (Setup)
PIT_TILES = {6: (1, 3, 5), 8: (1, 3, 5, 7)}  # pit stops: beside the starting, third, fifth (seventh) tiles
EFFECTS = ("dent", "battery-discharge", "skid", "dazed", "blast-off")
OFF, FINISH = "off", "finish"  # where a link leads when it leaves the road
START, FINISHED = "start", "finished"  # where a car is when it is not on the road nor in a pit
DEFAULT_ROAD = (1, 2, 5, 3, 15, 4)

Direction = Literal["front-left", "front", "front-right", "back-left", "back", "back-right"]
Size = Literal["small", "medium", "large"]

# --- content facts (read from each face's facts:) ----------------------------------------------


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


# --- the kit: what the rules read of the content -----------------------------------------------


@dataclass(frozen=True, eq=False)
class Kit:
    """The game's pieces as content gives them; every state of a game shares its content's one kit."""

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
    # Roads built from these tiles, by their sides in order (`board.board_of`): a game builds its
    # road once, and a simulation replays the same few roads. Not compared, not pickled.
    roads: dict[tuple[int, ...], Any] = field(default_factory=dict, compare=False, repr=False)
    # The spaces of each side as the n-th tile of a road, and of each seam it meets (`board`): a new
    # road lays the same sides again. Not compared, not pickled.
    tiles: dict[tuple[Any, ...], Any] = field(default_factory=dict, compare=False, repr=False)
    packed: dict[str, bytes] = field(default_factory=dict, compare=False, repr=False)

    def __reduce__(self) -> tuple[Any, ...]:
        # Every state carries its kit, and the purity check pickles a state at every step: the kit
        # (its maps, without the roads built so far) is pickled once, then copied as those bytes.
        blob = self.packed.get("kit")
        if blob is None:
            values = {k: v for k, v in self.__dict__.items() if k not in ("roads", "tiles", "packed")}
            blob = self.packed["kit"] = pickle.dumps(values, protocol=pickle.HIGHEST_PROTOCOL)
        return (_unpack, (blob,))


def _unpack(blob: bytes) -> Kit:
    kit = Kit(**pickle.loads(blob))
    kit.packed["kit"] = blob  # pickled again, it is the very same bytes
    return kit


def _dice_faces(content: GameContent, component: str, attr: str) -> tuple[Any, ...]:
    return tuple(getattr(f.facts, attr) for f in content.faces(component) for _ in range(f.count))


def read_kit(content: GameContent) -> Kit:
    """The kit of `content` (read it through `content.view(read_kit)`: once per content)."""
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
    return Kit(
        sides=sides, tile_of_side=tile_of, starting_sides=starting, other_tiles=tuple(others), crews=tuple(crews),
        movement=_dice_faces(content, MOVEMENT_DICE[0], "value"),
        direction=_dice_faces(content, "direction-die", "direction"),
        stunt=_dice_faces(content, "stunt-die", "spaces"),
        slam=_dice_faces(content, "slam-die", "moves"),
        shooting=_dice_faces(content, "shooting-die", "hits"),
        damage=tuple(f.id for f in content.faces("damage-tokens") for _ in range(f.count)),
        effects={f.id: f.facts for f in content.faces("damage-tokens")},
        hazards=tuple(f.id for f in content.faces("hazard-tokens") for _ in range(f.count)),
        hazard_terrain={f.id: f.facts.terrain for f in content.faces("hazard-tokens")},
    )


# --- rule functions the odds tables enumerate (the rules resolve rolls through the same ones) ----


def shot_hits(face: str, size: str) -> bool:
    """A shot hits when the shooting die shows the target's size."""
    return face == size


def slam_mover(moves: str, top: str, bottom: str) -> str:
    return top if moves == "top" else bottom
