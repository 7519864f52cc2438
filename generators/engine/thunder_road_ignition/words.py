"""Thunder Road: Ignition: players' wording: an action, a roll or draw, and where an example ends,
with cars by crew and size and spaces by the id printed in their corner."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from generators.engine.contract import Words
from generators.engine.facts import GameContent
from generators.engine.thunder_road_ignition.facts import FINISHED, START
from generators.engine.thunder_road_ignition.results import outcome
from generators.engine.thunder_road_ignition.specs import Action
from generators.engine.thunder_road_ignition.state import State, car_words, space_words


def describe(action: Any) -> str:
    """An action in players' words: cars by crew and size, spaces by the id printed in their corner."""
    do = action.do
    if do == "command":
        return f"Use the command die (a {action.die}) for {action.command.capitalize()}"
    if do == "move":
        return f"Put the {action.die} on the {action.car} car's slot and move it"
    if do == "enter":
        return f"Enter the starting tile at {space_words(action.space)}"
    if do == "exit_pit":
        return f"Leave the pit onto {space_words(action.space)}"
    if do == "step":
        return f"Step {action.direction}"
    return {"stop": "Stop there", "drift": "Drift past the car", "slam": "Slam the car", "reroll": "Reroll the slam",
            "keep": "Keep the slam roll", "end_turn": "End the turn without shooting"}.get(do) or (
        f"Slipstream the {action.car} car" if do == "slipstream" else
        f"Shoot at {car_words(action.target)}" if do == "shoot" else f"Put the {action.die} aside")


def describe_end(o: Mapping[str, Any]) -> str:
    """Where each car on the road is and its damage, and the winner, in players' words."""
    parts = []
    for car, at in o["cars"].items():
        hurt = o["damage"].get(car, 0)
        if at == START and not hurt:
            continue
        where = ("waits at the start" if at == START else "has crossed the finish line" if at == FINISHED else
                 f"is in the pit beside tile {at[4:]}" if at.startswith("pit:") else f"is on {space_words(at)}")
        parts.append(f"{car_words(car)} {where}" + (f" with {hurt} damage" if hurt else ""))
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


def _action(action: Action, state: State | None = None, content: GameContent | None = None) -> str:
    return describe(action)


def _random(label: str, value: Any, content: GameContent | None = None) -> str:
    return describe_random(label, value, content.name if content is not None else str)


def _end(state: State, content: GameContent | None = None) -> str:
    return describe_end(outcome(state, []))


WORDS: Words[State, Action] = Words(action=_action, random=_random, end=_end)
