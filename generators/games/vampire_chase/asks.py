"""Vampire chase: what every move asks. Which gear actions are open (one answer per question, shared
by all the options), the hand's cards, an action beginning, and lists in players' words."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from generators.games.vampire_chase.effects import gear_effects
from generators.games.vampire_chase.state import State
from generators.rules.chance import Chance
from generators.rules.contract import Ask, Event

Why = str | None
AskS = Ask[State]
UNSET = object()  # a memo's "not asked yet" (None is an answer: the rule holds); .get, as a miss raising costs more

def distinct(cards: Iterable[str]) -> list[str]:
    return sorted(set(cards))


# --- the gears: which actions are open ---------------------------------------------------------


def gear_closed(state: State, gear: str) -> Why:
    """Why the gear's action cannot be taken now (None: it can). PLAY goes on while it is the last action
    begun; the others are taken once."""
    # ruling: gears-are-actions
    name = gear.upper()
    if gear == state.shifter:
        return f"the {name} gear is blocked by the Gear-Shifter this turn: its action is not available"
    done = state.done
    if gear == "play":
        if "play" in done and done[-1] != "play":
            return ("the PLAY action is over: another action began after it, and each action is completed "
                    "before the next one begins")  # ruling: play-and-tuck
        return None
    if gear in done:
        return f"the {name} action is already taken this turn"
    return None


def gear_rule(gear: str) -> Callable[[AskS, Any], Why]:
    """The gear's rule, asked once per question (every option of the action shares the answer)."""
    key = f"{gear} gear"

    def rule(ask: AskS, action: Any) -> Why:
        memo = ask.memo
        found = memo.get(key, UNSET)
        if found is not UNSET:
            return found
        why = memo[key] = gear_closed(ask.state, gear)
        return why
    return rule


play_gear, market_gear, move_gear = gear_rule("play"), gear_rule("market"), gear_rule("move")


def hand_cards(ask: AskS) -> list[str]:
    """The hand's different cards, in order (each is one choice)."""
    memo = ask.memo
    found = memo.get("hand", UNSET)
    if found is not UNSET:
        return found
    cards = memo["hand"] = sorted(set(ask.state.hand))
    return cards


def in_hand(ask: AskS, a: Any) -> Why:
    s = ask.state
    return None if a.card in s.hand else f"{s.title(a.card)} is not in the hand"


def begin(state: State, gear: str, chance: Chance, events: list[Event]) -> None:
    """An action begins: the action before it is over; PLAY and MARKET gears act now."""
    if gear in state.done:
        return
    state.done = (*state.done, gear)
    if gear in ("play", "market"):
        gear_effects(state, gear, chance, events)
