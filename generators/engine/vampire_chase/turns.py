"""Vampire chase: the steps of a turn as data (which moves each allows, how players name it) and who
acts: the one player, until the mission is won or lost."""

from __future__ import annotations

from generators.engine.contract import Phase
from generators.engine.vampire_chase.facts import PLAYER
from generators.engine.vampire_chase.state import State

PHASES: dict[str, Phase] = {p.id: p for p in (
    Phase("shift", "the Shift Gears step", ("shift",)),
    Phase("draw", "the Draw hand step", ("draw",)),
    Phase("actions", "the turn's actions", ("play", "tuck", "move", "buy", "trash", "cycle", "end_turn")),
    Phase("hand", "Hand Management at cleanup", ("discard", "keep")),
    Phase("reward", "the Checkpoint Bonus Reward", ("reward",)),
    Phase("over", "the end of the mission", ()),
)}

_PLAYING = (PLAYER,)


def actors(state: State) -> tuple[str, ...]:
    return () if state.result else _PLAYING


def phase_of(state: State) -> str:
    return state.phase
