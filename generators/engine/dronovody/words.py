"""Дроноводи: players' words for an action, a deal or draw, and where an example ends."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from generators.engine.contract import Words, named
from generators.engine.dronovody.state import State
from generators.engine.facts import GameContent


def describe_action(a: Any, name: Callable[[str], str]) -> str:
    """An action in players' words: cards by the titles `name` gives (the content's printed ones)."""

    def _t(card: str | None) -> str:
        return name(card or "")

    who = f"{a.player}: " if a.player else ""
    words = {
        "play_support": lambda: f"play {_t(a.card)}" + (f" at the {_t(a.target)}" if a.target else "")
        + (f", moving {_t(a.character)} from the Trench to the {a.to.upper() if a.to == 'hq' else a.to}"
           if a.character else ""),
        "discard_support": lambda: f"discard {_t(a.card)}",
        "draft": lambda: f"keep {_t(a.card)} from the draft",
        "recruit": lambda: "Recruiting: draw Characters",
        "place": lambda: f"place {_t(a.card)} in the {'HQ' if a.to == 'hq' else a.to.title()}",
        "move": lambda: f"move {_t(a.card)} to the {'HQ' if a.to == 'hq' else a.to.title()}",
        "end_move": lambda: "end the Movement",
        "evacuate": lambda: f"Evacuation: {_t(a.card)} leaves",
        "buy": lambda: "Buying a drone: reveal one more",
        "take_drone": lambda: f"buy the {_t(a.card)}" + (f", discarding the {_t(a.discard)}" if a.discard else ""),
        "decline": lambda: "buy nothing",
        "sortie": lambda: f"combat sortie with the {_t(a.drone)}",
        "attack": lambda: f"attack the {_t(a.target)}" + (" (guaranteed hit)" if a.guaranteed else ""),
        "end_sortie": lambda: "end the sortie",
        "extra_action": lambda: "take an extra Action (Commander)",
        "end_turn": lambda: "end the turn",
        "exchange_trophy": lambda: f"exchange the {_t(a.card)} trophy for Logistics",
        "activate_project": lambda: f"activate the {_t(a.card)} Project",
        "evacuate_effect": lambda: f"{_t(a.source)} evacuates {_t(a.card)}",
        "repair": lambda: f"{_t(a.source)} repairs the {_t(a.drone)}",
        "defend": lambda: "roll the defence die",
        "choose": lambda: f"the hit falls on {_t(a.card)}",
        "set_up": lambda: "set up the game (Operations Duty Officer)",
    }
    return who + words[a.do]()


def describe_end(s: State, name: Callable[[str], str]) -> str:
    """Each player's Logistics and wounded, the threats left on the field, and the result."""
    parts = []
    for p in (s.p(n) for n in s.seats):
        hurt = f", {', '.join(name(c) for c in p.wounded)} wounded" if p.wounded else ""
        parts.append(f"{p.name} has {p.logistics} Logistics{hurt}")
    field_cards = [name(c) for c in s.battlefield]
    parts.append(f"on the field: {', '.join(field_cards)}" if field_cards else "the field is clear")
    if s.result is not None:
        parts.append(f"the players have {s.result}" + (f" ({_HOW.get(s.how or '', s.how)})" if s.how else ""))
    return "; ".join(parts) + "."


_DEALT = {"drone draw": "reveals {} from the Drone deck", "random start character": "the random starting Character: {}",
          "random start drone": "the random starting drone: {}", "trench": "dealt to the Trench: {}",
          "drone shop": "dealt to the Shop: {}", "starting field": "dealt to the field: {}",
          "support deal": "Support cards dealt: {}"}
_HOW = {"trench": "the Trench is full", "wounded": "too many wounded", "technologies": "technologies",
        "rotation": "rotation"}




def _names(content: GameContent | None) -> Callable[[str], str]:
    return content.name if content is not None else str


def _action(a: Any, state: State | None, content: GameContent | None) -> str:
    return describe_action(a, _names(content))


def _random(label: str, value: Any, content: GameContent | None) -> str:
    if isinstance(value, (list, tuple)) and label in _DEALT:
        return _DEALT[label].format(", ".join(_names(content)(str(v)) for v in value))
    if isinstance(value, int) and not isinstance(value, bool):
        return f"rolls {value} on the {label}" if label.endswith("die") else f"rolls {value} for the {label}"
    if isinstance(value, (list, tuple)):
        return f"{label}, in order: {named(content, value)}"
    return f"{label}: {named(content, value)}"


def _end(s: State, content: GameContent | None) -> str:
    return describe_end(s, _names(content))


WORDS: Words[State, Any] = Words(action=_action, random=_random, end=_end)
