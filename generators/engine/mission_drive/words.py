"""Mission: Drive: players' wording of an action, a shuffle or draw, and where an example ends: every
card by its printed title, every space told from the hero's car."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from generators.engine.mission_drive.facts import FIRE_DIRECTION, Facts
from generators.engine.mission_drive.specs import (
    BrakeAction,
    CivilianMoveAction,
    DiscardChoice,
    EnemyFireAction,
    LaserStrikeAction,
    MoveAction,
    SpendAction,
    UseUpgradeAction,
)
from generators.engine.mission_drive.state import State

# --- players' wording --------------------------------------------------------------------------

_SLOT_NAME = {"left": "left", "center": "centre", "right": "right"}


def describe_action(act: Any, s: State | None = None, name: Callable[[str], str] = str) -> str:
    """An action in players' words, for the site's step lists: upgrades by their printed titles
    (`name`), spaces told from where the hero is in `s` (the position the action is played from)."""
    text = _describe(act, s, name)
    extra = [f"the up-link's energy goes to {_energy_words(c, name)}" for c in getattr(act, "energy", ())]
    extra += [f"the shock costs {_discard_words(c, name)}" for c in getattr(act, "discard", ())]
    if getattr(act, "hero_to", None) is not None:
        extra.append(f"the hero moves aside to {_place(s, act.hero_to)}")
    return text + ("; " + "; ".join(extra) if extra else "")


def _place(s: State | None, pos: Sequence[int]) -> str:
    """A space as a player points at it, from the hero's car: "2 rows ahead, 1 lane to the left"."""
    if s is None:
        return "that space"
    dx, dy = pos[0] - s.hero[0], pos[1] - s.hero[1]
    if not dx and not dy:
        return "the hero's space"
    rows = "level with the hero" if not dy else \
        f"{abs(dy)} row{'s' if abs(dy) != 1 else ''} {'ahead of' if dy > 0 else 'behind'} the hero"
    lanes = "in the same lane" if not dx else \
        f"{abs(dx)} lane{'s' if abs(dx) != 1 else ''} to the {'right' if dx > 0 else 'left'}"
    return f"the space {rows}, {lanes}"


def _describe(act: Any, s: State | None, name: Callable[[str], str]) -> str:
    if isinstance(act, MoveAction):
        text = f"Move with the {_SLOT_NAME[act.slot]} card" + (", mirrored" if act.mirror else "")
        if act.fire == "both":
            text += f", firing {FIRE_DIRECTION[act.slot]} before and after moving"
        elif act.fire:
            text += f", firing {FIRE_DIRECTION[act.slot]} {act.fire} moving"
        return text
    if isinstance(act, BrakeAction):
        return f"Brake {act.spaces} space{'s' if act.spaces != 1 else ''} with the {_SLOT_NAME[act.slot]} card"
    if isinstance(act, EnemyFireAction):
        return f"Enemy card: the enemy fires at {_place(s, act.target)}"
    if isinstance(act, CivilianMoveAction):
        return f"Civilian card: the civilian on {_place(s, act.civilian)} moves to {_place(s, act.to)}"
    if isinstance(act, LaserStrikeAction):
        return f"Call the satellite laser strike on the enemy on {_place(s, act.target)}"
    if isinstance(act, UseUpgradeAction):
        paid = "removing a charge" if act.pay == "charge" else "discarding the card"
        text = f"Use {name(act.upgrade)}, {paid}"
        if act.direction is not None:
            text += f", {act.direction}"
        if act.slot is not None:
            text += f", on the {_SLOT_NAME[act.slot]} slot"
        if act.civilian is not None and act.to is not None:
            text += f", moving the civilian on {_place(s, act.civilian)} to {_place(s, act.to)}"
        return text
    if isinstance(act, SpendAction):
        upgrade = name(act.upgrade or "")
        what = {"health": "one health", "install": f"installing {upgrade}", "charge": f"a charge on {upgrade}",
                "start_forward": "starting one space forward"}[act.buy]
        return f"Spend points on {what}" + (f", {act.times} times" if act.times > 1 else "")
    words = {"score": "Score the mission", "finish": "End the upgrade step", "start_mission": "Set up the next mission",
             "boss_setup": "Set up the boss", "boss_turn": "Play the boss's turn"}
    return words[act.do]


def _energy_words(choice: Any, name: Callable[[str], str] = str) -> str:
    return "one health" if choice == "health" else f"a charge on {name(choice.charge)}"


def _discard_words(choice: DiscardChoice, name: Callable[[str], str] = str) -> str:
    if choice.charge is not None:
        return f"a charge from {name(choice.charge)}"
    return f"the device card {name(choice.card or '')}"


def describe_end(o: Mapping[str, Any]) -> str:
    """The hero's health, what was destroyed this mission, the boss's damage and the game's result."""
    gone = o["destroyed"]
    parts = [f"the hero has {o['health']} health",
             f"{gone['enemy']['total']} enemy and {gone['civilian']['total']} civilian vehicles destroyed this mission"]
    if o.get("boss"):
        parts.append(f"the boss has taken {o['boss_damage']} damage")
    if o["game"] != "playing":
        parts.append(f"the game is {o['game']}")
    text = "; ".join(parts)
    return text[:1].upper() + text[1:] + "."


_DECKS = {"mission deck": "mission cards", "upgrade deck": "upgrade cards", "movement deck": "movement cards"}


def describe_random(label: str, value: Any, name: Callable[[str], str], facts: Facts | None = None) -> str:
    """A shuffle or draw in players' words: cards by their printed titles, a movement card by its
    kind and arrows (every hero card has the same title)."""
    if isinstance(value, (list, tuple)):
        shown = ", ".join(_card_words(str(v), name, facts) for v in value)
        if label in _DECKS:
            return f"the {_DECKS[label]} are shuffled, top first: {shown}"
        return f"{label} drawn: {shown}"
    return f"draws the {label}: {name(str(value))}"


def _card_words(face: str, name: Callable[[str], str], facts: Facts | None) -> str:
    card = next((c for fid, c in facts.movement if fid == face), None) if facts is not None else None
    if card is None or not card.arrows:
        return name(face)
    return f"{name(face)} {''.join(_ARROW_MARK.get(a, a) for a in card.arrows)}"


_ARROW_MARK = {"forward": "↑", "left": "←", "right": "→", "back": "↓"}  # as the cards print their arrows
