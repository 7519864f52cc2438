"""Thunder Road: Ignition: the decisions of a turn as data (which moves each allows, how players
name it) and who acts: the one player whose decision the game waits for, until a crew has won.

A turn is 1. Command, 2. Move, 3. Shoot; a move is made of steps, and slams, the road bonus, Drift,
Slipstream and a finished car each pause it for a choice. Each such choice is a phase."""

from __future__ import annotations

from generators.games.thunder_road_ignition.state import State
from generators.rules.contract import Phase

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


# When each move is taken, by the rule that says so: the refusal of a move out of its moment.
MOMENTS: dict[str, str] = {
    "command": "a command is used once per round, at the start of your turn, before the move: a die on the "
               "command slot (1. Command)",
    "move": "a die goes on a car's slot in the move step, after any command and before the shot; the car then "
            "moves that die's full value (2. Move)",
    "enter": "a car enters the starting tile's back row on its first move, once its die is on its slot (2. Move)",
    "exit_pit": "a car leaves the pit onto the back row of the tile beside its pit stop, once its die is on its "
                "slot (2. Move · Pit Stop Exit)",
    "step": "a car steps ahead only while it moves: the full value of the die on its slot, then the road bonus "
            "if it moved only on road (2. Move · Movement Limit)",
    "stop": "a moving car uses the die's full value; it stops by choice only at the road bonus (after a move "
            "only on road) or when an oil slick leaves it movement (2. Move · Movement Limit)",
    "drift": "Drift is chosen when the moving car meets the first car in its path, the turn the Drift command "
             "was used (1. Command · C. Drift)",
    "slam": "choosing to slam is the other answer to Drift, when the moving car meets the first car in its path "
            "(1. Command · C. Drift)",
    "reroll": "a slam's dice are rerolled just after they are rolled, by the owner of the larger car, and only "
              "once (Slamming)",
    "keep": "a slam's roll is kept or rerolled just after it is rolled, by the owner of the larger car (Slamming)",
    "slipstream": "the car Slipstream moves is chosen as the Slipstream command is used (1. Command · A. "
                  "Slipstream)",
    "shoot": "a car shoots once its move is over, at a car in front of it; the Missile command shoots as it is "
             "used (3. Shoot)",
    "end_turn": "the turn ends after the shoot step, with or without a shot (On Your Turn)",
    "set_aside": "a die is set beside a car as it crosses the finish line, when no die was on its slot that "
                 "round (Winning the Game)",
}


def actors(state: State) -> tuple[str, ...]:
    d = state.decision
    if d is None or state.winner is not None:
        return ()
    return (d.player,)


def phase_of(state: State) -> str:
    d = state.decision
    return "over" if d is None or state.winner is not None else d.kind
