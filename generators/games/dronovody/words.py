"""Дроноводи: players' words for an action, a deal or draw, and where an example ends."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from generators.games.dronovody.state import State
from generators.rules.contract import Event, Figure, Place, Words, namer, random_words
from generators.rules.facts import GameContent


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
        "take_drone": lambda: f"buy the {_t(a.card)} drone"
        + (f", discarding the {_t(a.discard)}" if a.discard else ""),
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




def _action(a: Any, state: State | None, content: GameContent | None) -> str:
    return describe_action(a, namer(content))


def _random(label: str, value: Any, content: GameContent | None) -> str:
    if isinstance(value, (list, tuple)) and label in _DEALT:
        return _DEALT[label].format(", ".join(namer(content)(str(v)) for v in value))
    return random_words(label, value, content)


def _end(s: State, content: GameContent | None) -> str:
    return describe_end(s, namer(content))


def _logistics_why(why: str, name: Callable[[str], str]) -> str:
    """Why Logistics changed: a card paid for, a drone bought, a trophy exchanged, the HQ, a card's gift."""
    verb, _, card = why.partition(" ")
    if verb == "played" and card:
        return f"for {name(card)}"
    if verb == "bought" and card:
        return f"for the {name(card)}"
    if verb == "trophy" and card:
        return f"for the {name(card)} trophy"
    if why == "HQ":
        return "from the Characters in the HQ"
    return f"from {name(why)}"


_FROM = {"crew": "the Crew", "trench": "the Trench", "hq": "the HQ"}


def describe_event(e: Event, s: State | None, content: GameContent | None) -> str | None:
    """What the rules did on their own, where it changes a figure the reader follows: Logistics paid
    and gained and why, Characters wounded and evacuated, trophies taken, drones shot down, broken,
    repaired and discarded, a sortie's or artillery's hit or miss, defences and what they cancel,
    mishaps, threats placed on the field, and the end of the game."""
    name = namer(content)
    d = e.data
    kind, who = e.kind, str(d.get("player", ""))
    if kind == "logistics":
        change, why = int(d["change"]), _logistics_why(str(d["why"]), name)
        return f"{who} {'gains' if change > 0 else 'pays'} {abs(change)} Logistics {why}"
    if kind == "wound":
        return f"{who} has a Character wounded: {name(str(d['card']))}, from {_FROM.get(str(d['from']), d['from'])}"
    if kind == "evacuated":
        return f"{who} has a wounded Character evacuated: {name(str(d['card']))}"
    if kind == "trophy-exchanged":
        return f"{who} gives up a trophy: the {name(str(d['card']))}"
    if kind == "set-up" and s is not None:
        starts = [f"{p.name} starts with the {' and the '.join(name(x.card) for x in p.warehouse)} drone"
                  + ("s" if len(p.warehouse) > 1 else "") for p in (s.p(n) for n in s.seats) if p.warehouse]
        return "; ".join(starts) or None
    if kind == "trophy":
        return f"{who} takes a trophy: the {name(str(d['card']))}"
    if kind == "shot-down":
        return f"{who} loses a drone: the {name(str(d['drone']))}, to the {name(str(d['by']))}"
    if kind == "broken":
        cause = "breaks down" if d["by"] == "breakdown" else f"is broken by the {name(str(d['by']))}"
        return f"{who}: the {name(str(d['drone']))} drone {cause}"
    if kind == "repaired":
        return f"{who}: the {name(str(d['drone']))} drone is repaired ({name(str(d['by']))})"
    if kind == "drone-discarded":
        why = "a Kamikaze drone is used up in its attack" if d["why"] == "kamikaze" else d["why"]
        return f"{who} discards a drone: the {name(str(d['drone']))} ({why})"
    if kind == "attack":
        how = f"a guaranteed hit: {name(str(d['guaranteed']))}" if d["guaranteed"] else \
            f"{d['total']} against {d['needed']} to hit"
        return f"the {name(str(d['drone']))} {'hits' if d['hit'] else 'misses'} the {name(str(d['target']))} ({how})"
    if kind == "artillery":
        rolls = " and ".join(str(r) for r in d["rolls"])
        modifier = f", {'+' if d['modifier'] > 0 else '−'}{abs(d['modifier'])}" if d["modifier"] else ""
        return f"the {name(str(d['card']))} {'hits' if d['hit'] else 'misses'} the {name(str(d['target']))}" \
               f" (rolled {rolls}{modifier}; {d['needed']} to hit)"
    if kind == "defence":
        up = [name(str(c)) for c in d["activated"]]
        return f"the defence die activates the {', '.join(up)}" if up else "the defence die activates no threat"
    if kind == "cancelled":
        return f"{who}'s {name(str(d['by']))} cancels the {name(str(d['card']))}"
    if kind == "mishap":
        return f"{who} suffers a mishap: {name(str(d['card']))}"
    if kind == "no-effect":
        where = f"nobody in {who}'s Crew" if d["hit"] == "wound" else f"no drone in {who}'s Warehouse"
        return f"the {name(str(d['source']))} finds {where} to hit: the hit does nothing"
    if kind == "threats-placed":
        return f"threats placed on the field: {', '.join(name(str(c)) for c in d['cards'])}"
    if kind == "game-over":
        return f"the players have {d['result']} ({_HOW.get(str(d['how']), d['how'])})"
    return None


def figures(s: State, content: GameContent | None) -> dict[Figure, int | Place]:
    """Each player's Logistics, wounded Characters, trophies and drones in the Warehouse."""
    out: dict[Figure, int | Place] = {}
    for p in (s.p(n) for n in s.seats):
        out[Figure(p.name, "Logistics")] = p.logistics
        out[Figure(p.name, "wounded")] = len(p.wounded)
        out[Figure(p.name, "trophy")] = len(p.trophies)
        out[Figure(p.name, "drone")] = len(p.warehouse)
    return out


WORDS: Words[State, Any] = Words(action=_action, random=_random, end=_end, event=describe_event, figures=figures)
