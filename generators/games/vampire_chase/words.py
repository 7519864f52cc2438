"""Vampire chase: players' wording. Card effects as the faces print them, an action, a shuffle and
where an example ends, each with every card by its printed title."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from generators.games.vampire_chase.facts import SLOTS, Effect, EnemyEffect, build_library
from generators.games.vampire_chase.specs import Action
from generators.games.vampire_chase.state import State
from generators.rules.contract import Event, Figure, Place, Words, namer, random_words
from generators.rules.facts import GameContent
from generators.rules.wording import counted


def effect_words(e: Effect) -> str:
    """One vampire-card effect in players' words (the card faces print exactly these)."""
    n = e.amount
    if e.do == "damage":
        whom = {"adjacent": "an adjacent enemy", "any": "any enemy", "all-adjacent": "each adjacent enemy",
                "all": "every enemy"}[e.range]
        return f"Deal {n} damage to {whom}."
    return {
        "shield": f"Gain {n} Shield.",
        "heal": f"Heal {n}.",
        "move": "Move your vehicle as the MOVE action does.",
        "draw": f"Draw {counted(n, 'card')} from this vampire's deck.",
        "corpse": f"Gain {counted(n, 'corpse')}.",
        "speed": f"{signed(n, plus=True)} speed this turn.",
        "retaliate": f"Until cleanup, each enemy that attacks you takes {n} damage.",
    }[e.do]


def enemy_effect_words(e: EnemyEffect) -> str:
    if e.do == "attack":
        return f"Attack {e.amount}" + (" (any range)." if e.range == "any" else " (adjacent).")
    if e.do == "heal":
        return f"Heal {e.amount}." if e.range == "self" else f"Every enemy heals {e.amount}."
    if e.do == "move":
        return "Move 1 toward you."
    return "Destroy itself."


def effects_text(effects: Iterable[Effect]) -> str:
    return " ".join(effect_words(e) for e in effects)


def enemy_text(effects: Iterable[EnemyEffect]) -> str:
    return " ".join(enemy_effect_words(e) for e in effects)


def signed(n: int, plus: bool = False) -> str:
    """A number as printed: a true minus sign, and a plus sign where asked."""
    return f"−{-n}" if n < 0 else (f"+{n}" if plus else str(n))


def speed_words(values: Sequence[int]) -> str:
    """A card's speed symbol as its top-right corner prints it: one value, or the choice ("1 / 3")."""
    return " / ".join(signed(v) for v in values)


def describe_end(state: State) -> str:
    """Health, corpses, the checkpoint, the enemies on the road and defeated, and the result."""
    title = state.lib.titles.get
    parts = [f"Health {state.health}, {state.corpses} corpse{'s' if state.corpses != 1 else ''}, "
             f"checkpoint {state.checkpoint + 1}"]
    road = [f"{title(e.card, e.card)} ({e.health} health) in slot {slot}" for slot in SLOTS
            if slot != state.vehicle and (e := state.ring[slot]) is not None]
    parts.append(f"on the road: {', '.join(road)}" if road else "no enemy on the road")
    if state.result:
        parts.append(f"the chase is {state.result}" + (f" ({state.reason})" if state.reason else ""))
    return "; ".join(parts) + "."


def describe(titles: Mapping[str, str] | None, action: Any) -> str:
    def title(card: str) -> str:
        return titles.get(card, card) if titles is not None else card

    kind = action.do
    if kind == "shift":
        return f"Shift gears: the Gear-Shifter covers {action.gear.upper()}"
    if kind == "draw":
        return f"Draw {action.driver} from the Driver's deck and {action.passenger} from the Passenger's"
    if kind == "play":
        parts = [f"Play {title(action.card)}"]
        if action.enhance:
            parts.append("enhanced (bury a corpse)")
        if action.target is not None:
            parts.append(f"at slot {action.target}")
        return " ".join(parts)
    if kind == "tuck":
        return f"Tuck {title(action.card)} for its speed"
    if kind == "move":
        return f"MOVE the vehicle to slot {action.to}"
    if kind == "buy":
        return f"MARKET: buy {title(action.card)}"
    if kind == "trash":
        return f"MARKET: trash {title(action.card)} from the {action.pile}"
    if kind == "cycle":
        return "MARKET: cycle the row (" + ", ".join(title(c) for c in action.order) + " to the bottom)"
    if kind == "end_turn":
        return "End the turn" + (f" with speed {action.speed}" if action.speed is not None else " without PLAY")
    if kind == "reward":
        return f"Checkpoint bonus: take {title(action.card)} from the market"
    if kind == "discard":
        return f"Discard {title(action.card)}"
    return "Keep the rest of the hand"



def describe_action(action: Action, state: State | None, content: GameContent | None) -> str:
    lib = state.lib if state is not None else content.view(build_library) if content is not None else None
    text = describe(lib.titles if lib is not None else None, action)
    if action.do == "buy" and lib is not None:  # the price is buried from the corpses
        text += f", burying {counted(lib.vampire_cards[action.card].cost, 'corpse')}"
    if action.do == "keep" and state is not None and state.shield:  # cleanup ends what the Shield held
        text += f"; cleanup: the Shield goes from {state.shield} to 0"
    return text


def describe_random(label: str, value: Any, content: GameContent | None) -> str:
    """A shuffle in players' words: the cards it orders, by their printed titles."""
    if isinstance(value, (list, tuple)) and label.endswith(("deck", "reserve")):
        names = namer(content)
        deck = {"driver deck": "the Driver's deck", "passenger deck": "the Passenger's deck",
                "market deck": "the Market Deck"}.get(label, f"the {label}")
        return f"cards for {deck} are shuffled, in order: {', '.join(names(str(v)) for v in value)}"
    return random_words(label, value, content)


def describe_event(event: Event, state: State | None, content: GameContent | None) -> str | None:
    """What the rules did on their own inside a step, where it changes a figure the reader follows:
    the end-of-turn speed check, an enemy's hit (and the Shield left), a heal, a Shield gained,
    corpses gained by a card, an enemy defeated (its corpses), an enemy arriving."""
    name = namer(content)
    d = event.data
    if event.kind == "speed_check":
        r0, r1 = d["range"][0], d["range"][-1]
        cost = f"{d['damage']} Health lost" if d["damage"] else "no Health lost"
        return (f"the speed check: the gauge at {d['gauge']} ({d['zone']}) against the chase range {r0}–{r1} "
                f"({d['range_zone']}), {cost}")
    if event.kind == "player_hurt" and d["source"] != "speed check":  # the speed check tells its own cost
        shield = f", the Shield takes {d['absorbed']} (Shield {d['shield']})" if d["absorbed"] else ""
        return f"{name(str(d['source']))} hits for {d['amount']}{shield}: Health {d['health']}"
    if event.kind == "heal" and d["amount"]:
        return f"{d['amount']} Health healed: Health {d['health']}"
    if event.kind == "shield":
        return f"Shield +{d['amount']}: Shield {d['shield']}"
    if event.kind == "corpses":  # a card's effect adds to the Corpse Pile
        return f"{counted(d['gained'], 'corpse')} gained: {d['corpses']} in the Corpse Pile"
    if event.kind == "defeated":
        return f"{name(str(d['card']))} is defeated: {counted(d['corpses'], 'corpse')} gained"
    if event.kind == "arrival":
        return f"{name(str(d['card']))} arrives in slot {d['slot']}"
    return None


def figures(state: State, content: GameContent | None) -> dict[Figure, int | Place]:
    """The vehicle's Health, Shield and corpses."""
    return {Figure("", "Health"): state.health, Figure("", "Shield"): state.shield,
            Figure("", "corpse"): state.corpses}


WORDS: Words[State, Action] = Words(action=describe_action, random=describe_random,
                                    end=lambda state, content: describe_end(state), event=describe_event,
                                    figures=figures)
