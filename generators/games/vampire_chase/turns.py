"""Vampire chase: the steps of a turn as data (which moves each allows, how players name it) and who
acts: the one player, until the mission is won or lost.

The actions step is three phases, one per gear the Gear-Shifter blocks: a blocked gear's moves are not
offered at all (and refused in the phase's words), rather than asked about and refused one by one.
"""

from __future__ import annotations

from generators.games.vampire_chase.facts import GEARS, PLAYER
from generators.games.vampire_chase.state import State
from generators.rules.contract import Phase

# The moves of each gear's action, in the order the legal actions list them.
GEAR_MOVES = {"play": ("play", "tuck"), "move": ("move",), "market": ("buy", "trash", "cycle")}


def _actions(blocked: str) -> Phase:
    # ruling: gears-are-actions
    moves = tuple(m for g in GEARS if g != blocked for m in GEAR_MOVES[g])
    gear = (f"the {blocked.upper()} gear is blocked by the Gear-Shifter this turn: its action is not available "
            "(Player Turn · 1. Shift Gears)")
    return Phase(f"actions, {blocked} blocked", "this turn's actions", (*moves, "end_turn"),
                 says={m: gear for m in GEAR_MOVES[blocked]})


# When each move is taken, by the rule that says so: the refusal of a move out of its moment.
MOMENTS: dict[str, str] = {
    "shift": "the Gear-Shifter is placed at the start of your turn, before the hand is drawn (Player Turn · 1. "
             "Shift Gears)",
    "draw": "the hand is drawn up to 5 once the Gear-Shifter is placed, before the actions (Player Turn · 2. "
            "Draw hand)",
    "play": "cards are played in the PLAY action, one of the turn's actions (Player Turn · 3. Action: PLAY)",
    "tuck": "cards are tucked in the PLAY action, after the cards played (Player Turn · 3. Action: PLAY)",
    "move": "the vehicle moves in the MOVE action, one of the turn's actions (Player Turn · 3. Action: MOVE)",
    "buy": "a card is bought in the MARKET action, one of the turn's actions (Player Turn · 3. Action: MARKET)",
    "trash": "a card is trashed in the MARKET action, one of the turn's actions (Player Turn · 3. Action: "
             "MARKET)",
    "cycle": "the market is cycled in the MARKET action, one of the turn's actions (Player Turn · 3. Action: "
             "MARKET)",
    "end_turn": "the turn ends after its actions (Player Turn · 4. End of Turn)",
    "reward": "a reward card is taken when a checkpoint is passed (Checkpoint Passed)",
    "discard": "cards are discarded in Hand Management, at cleanup after the enemies arrive (Cleanup · 3–5)",
    "keep": "the hand is kept in Hand Management, at cleanup after the enemies arrive (Cleanup · 3–5)",
}


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
