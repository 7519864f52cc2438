"""Vampire chase: the steps of a turn as data (which moves each allows, how players name it) and who
acts: the one player, until the mission is won or lost.

The actions step is three phases, one per gear the Gear-Shifter blocks: a blocked gear's moves are not
offered at all (and refused in the phase's words), rather than asked about and refused one by one.
"""

from __future__ import annotations

from generators.engine.contract import Phase
from generators.engine.vampire_chase.facts import GEARS, PLAYER
from generators.engine.vampire_chase.state import State

# The moves of each gear's action, in the order the legal actions list them.
GEAR_MOVES = {"play": ("play", "tuck"), "move": ("move",), "market": ("buy", "trash", "cycle")}


def _actions(blocked: str) -> Phase:
    # ruling: gears-are-actions
    moves = tuple(m for g in GEARS if g != blocked for m in GEAR_MOVES[g])
    return Phase(f"actions, {blocked} blocked",
                 f"this turn's actions: the {blocked.upper()} gear is blocked by the Gear-Shifter",
                 (*moves, "end_turn"))


PHASES: dict[str, Phase] = {p.id: p for p in (
    Phase("shift", "the Shift Gears step", ("shift",)),
    Phase("draw", "the Draw hand step", ("draw",)),
    *(_actions(g) for g in GEARS),
    Phase("hand", "Hand Management at cleanup", ("discard", "keep")),
    Phase("reward", "the Checkpoint Bonus Reward", ("reward",)),
    Phase("over", "the end of the mission", ()),
)}
_ACTIONS = {g: f"actions, {g} blocked" for g in GEARS}
_PLAYING = (PLAYER,)


def actors(state: State) -> tuple[str, ...]:
    return () if state.result else _PLAYING


def phase_of(state: State) -> str:
    if state.phase == "actions":
        return _ACTIONS[state.shifter]  # type: ignore[index]
    return state.phase
