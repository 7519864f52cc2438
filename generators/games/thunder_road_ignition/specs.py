"""Thunder Road: Ignition: what content is converted to: a scenario's setup, a whole game's options,
and each action by its `do:` value (located errors and JSON Schemas come from these)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from generators.games.thunder_road_ignition.facts import DEFAULT_ROAD, START

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


ACTIONS: dict[str, type] = {
    "command": CommandAction, "move": MoveAction, "enter": EnterAction, "exit_pit": ExitPitAction,
    "step": StepAction, "stop": StopAction, "drift": DriftAction, "slam": SlamAction, "reroll": RerollAction,
    "keep": KeepAction, "slipstream": SlipstreamAction, "shoot": ShootAction, "end_turn": EndTurnAction,
    "set_aside": SetAsideAction,
}


Action = (CommandAction | MoveAction | EnterAction | ExitPitAction | StepAction | StopAction | DriftAction | SlamAction
          | RerollAction | KeepAction | SlipstreamAction | ShootAction | EndTurnAction | SetAsideAction)


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
class SetupSpec:
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
