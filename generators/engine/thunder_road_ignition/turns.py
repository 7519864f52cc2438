"""Thunder Road: Ignition: the decisions of a turn as data (which moves each allows, how players
name it) and who acts: the one player whose decision the game waits for, until a crew has won.

A turn is 1. Command, 2. Move, 3. Shoot; a move is made of steps, and slams, the road bonus, Drift,
Slipstream and a finished car each pause it for a choice. Each such choice is a phase."""

from __future__ import annotations

from generators.engine.contract import Phase
from generators.engine.thunder_road_ignition.state import State

PHASES: dict[str, Phase] = {p.id: p for p in (
    Phase("turn", "the start of a turn (a command or a move)", ("command", "move")),
    Phase("move", "the move step (a die on a car's slot)", ("command", "move")),
    Phase("slipstream-car", "the Slipstream command's choice of a car", ("slipstream",)),
    Phase("enter", "a car's first move (onto the starting tile's back row)", ("enter",)),
    Phase("exit-pit", "a car's exit from the pit (onto the tile beside the pit stop)", ("exit_pit",)),
    Phase("step", "a car's move (its next step ahead)", ("step",)),
    Phase("continue", "the choice after an oil slick (keep moving or stop)", ("step", "stop")),
    Phase("bonus", "the road bonus choice (one more step, or stop)", ("step", "stop")),
    Phase("drift", "the Drift choice (drift past the car, or slam it)", ("drift", "slam")),
    Phase("reroll", "the slam's reroll choice (reroll or keep)", ("reroll", "keep")),
    Phase("shoot", "the shoot step (a target, or end the turn)", ("shoot", "end_turn")),
    Phase("missile-target", "the Missile command's choice of a target", ("shoot",)),
    Phase("set-aside", "the choice of the die that goes with a finished car", ("set_aside",)),
    Phase("over", "the end of the race", ()),
)}


def actors(state: State) -> tuple[str, ...]:
    d = state.decision
    if d is None or state.winner is not None:
        return ()
    return (d.player,)


def phase_of(state: State) -> str:
    d = state.decision
    return "over" if d is None or state.winner is not None else d.kind
