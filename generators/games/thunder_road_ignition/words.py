"""Thunder Road: Ignition: players' wording: an action, a roll or draw, and where an example ends,
with cars by crew and size and spaces by the id printed in their corner."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from generators.games.thunder_road_ignition.facts import FINISHED, START
from generators.games.thunder_road_ignition.results import outcome
from generators.games.thunder_road_ignition.specs import Action
from generators.games.thunder_road_ignition.state import State, car_words, space_words
from generators.rules.contract import Event, Figure, Place, Words, namer
from generators.rules.facts import GameContent


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
    if label == "movement":  # rolled for every crew as a round begins: the round's line says whose
        return f"a movement die shows {value}"
    if label in _DIE:
        face = str(value) if isinstance(value, int) else name(str(value)).capitalize()
        face += " car moves" if label == "slam" else ""
        return f"rolls {face} on {_DIE[label]}"
    if label == "damage":  # drawn by the hit car's owner, not always the player acting: the next line names the car
        return f"the damage token drawn is {name(str(value))}"
    if label == "hazard":
        return f"flips the hazard token: {name(str(value))}"
    # The simulated road (see setup.lay_road): the tiles mixed, each laid one side up.
    if label == "tile side":
        return f"a road tile is laid with side {value} up"
    if label == "road tiles":
        return "the road tiles are mixed and laid in this order (each tile's two sides): " + \
            ", ".join("/".join(map(str, v)) if isinstance(v, (list, tuple)) else str(v) for v in value)
    if isinstance(value, (list, tuple)):
        return f"{label}, in order: {', '.join(name(str(v)) for v in value)}"
    return f"{label}: {name(str(value))}"


def _action(action: Action, state: State | None = None, content: GameContent | None = None) -> str:
    said = describe(action)
    if action.do == "shoot" and state is not None and action.target.partition("-")[0] == state.active:
        said += " (your own car: the rules let you)"  # §Shoot allows it; said so no one takes it for a slip
    return said


def _random(label: str, value: Any, content: GameContent | None = None) -> str:
    return describe_random(label, value, namer(content))


def _end(state: State, content: GameContent | None = None) -> str:
    return describe_end(outcome(state, []))


_HOW = {"slam": " (slammed)", "oil": " (sliding on the oil slick)", "ramp": " (the ramp)", "dazed": " (Dazed)",
        "bonus": " (bonus move)", "slipstream": " (slipstream)"}


_PIT = {"second damage": "its second damage token", "impassable": "an impassable space"}


def place_words(at: str) -> str:
    """Where a car is, as a line names it: a space by its printed id, the start, a pit, past the finish."""
    if at == START:
        return "the start"
    if at == FINISHED:
        return "the finish line"
    if at.startswith("pit:"):
        return f"the pit beside tile {at[4:]}"
    return space_words(at)


def describe_event(e: Event, s: State | None, content: GameContent | None) -> str | None:
    """What the rules did on their own, where it moves a car or changes its damage: each space a car
    moves onto and why (a slam, an oil slick, a ramp), damage tokens drawn and put under a car, a
    shot's hit or miss, a slam, trips to the pit and out, the finish line, a new round and the winner."""
    name = namer(content)
    d = e.data
    kind = e.kind
    if kind == "moved":
        how = _HOW.get(str(d["how"]), "")
        return f"{car_words(str(d['car']))} moves {d['direction']} onto {place_words(str(d['to']))}{how}"
    if kind == "damage":
        return f"{car_words(str(d['car']))} takes a damage token: {name(str(d['token']))}"
    if kind == "token":
        n = int(d["count"])
        return f"{car_words(str(d['car']))} now has {n} damage token{'s' if n != 1 else ''} under it"
    if kind == "shot":
        what = "the missile" if d["how"] == "missile" else "the shot"
        by = f"{car_words(str(d['shooter']))}'s shot" if d.get("shooter") and d["how"] != "missile" else what
        return f"{by} at {car_words(str(d['target']))} {'hits' if d['hit'] else 'misses'}"
    if kind == "slam":
        top, bottom = car_words(str(d["top"])), car_words(str(d["bottom"]))
        return f"slam on {space_words(str(d['space']))}: {top} on top of {bottom}"
    if kind == "pit":
        why = _PIT.get(str(d["why"]), name(str(d["why"])))
        return f"{car_words(str(d['car']))} goes to the pit beside tile {d['pit']} ({why})"
    if kind == "pit-exit":
        cleared = f", its {d['discarded']} damage token{'s' if d['discarded'] != 1 else ''} discarded" \
            if d["discarded"] else ""
        return f"{car_words(str(d['car']))} leaves the pit onto {space_words(str(d['space']))}{cleared}"
    if kind == "finished":
        return f"{car_words(str(d['car']))} crosses the finish line"
    if kind == "won":
        return f"{d['crew']} has two cars across the finish line and wins"
    if kind == "round":
        rolled = "; ".join(f"{crew} rolls {' '.join(map(str, dice))}" for crew, dice in dict(d.get("dice", {})).items())
        return f"round {d['number']} begins: {d['first']} goes first" + (f" ({rolled})" if rolled else "")
    if kind == "reshuffle":
        return "the damage tokens are shuffled into a new pile"
    return None


def figures(s: State, content: GameContent | None) -> dict[Figure, int | Place]:
    """Each car's damage tokens and where it is."""
    out: dict[Figure, int | Place] = {}
    for car in s.cars.values():
        out[Figure(car_words(car.id), "damage")] = len(car.tokens)
        out[Figure(car_words(car.id), "place")] = Place(car.at, place_words(car.at))
    return out


WORDS: Words[State, Action] = Words(action=_action, random=_random, end=_end, event=describe_event,
                                    figures=figures)
