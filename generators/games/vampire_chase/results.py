"""Vampire chase: what a scenario's `expect` is compared with (`outcome`) and a whole game's figures
(`result`)."""

from __future__ import annotations

from typing import Any

from generators.games.vampire_chase.facts import PLAYER, SLOTS
from generators.games.vampire_chase.speed import chase_range
from generators.games.vampire_chase.state import State
from generators.rules.contract import Event


def ring_view(state: State) -> list[Any]:
    out: list[Any] = []
    for s in SLOTS:
        e = state.ring[s]
        out.append("vehicle" if s == state.vehicle else None if e is None else {"card": e.card, "health": e.health})
    return out


def outcome(state: State, events: list[Event]) -> dict[str, Any]:
    return {
        "result": state.result or "playing",
        "reason": state.reason,
        "phase": state.phase,
        "turn": state.turn,
        "checkpoint": state.checkpoint + 1,
        "tier": state.tier,
        "health": state.health,
        "shield": state.shield,
        "corpses": state.corpses,
        "buried": state.buried,
        "vehicle": state.vehicle,
        "ring": ring_view(state),
        "reserves": {str(t): list(c) for t, c in state.reserves.items()},
        "chase_range": list(chase_range(state)),
        "hand": list(state.hand),
        "driver_deck": list(state.decks["driver"]),
        "passenger_deck": list(state.decks["passenger"]),
        "driver_discard": list(state.discards["driver"]),
        "passenger_discard": list(state.discards["passenger"]),
        "played": [p.card for p in state.played],
        "tucked": list(state.tucked),
        "market_row": list(state.market_row),
        "market_deck": list(state.market_deck),
        "gears": dict(state.gears),
        "shifter": state.shifter,
        "done": list(state.done),
        "graveyard": list(state.graveyard),
        "kills": list(state.kills),
        "overkills": state.overkills,
        "gauge": state.gauge,
        "speed_check": _last(events, "speed_check"),
        "activations": [f"{e.data['card']}@{e.data['slot']}" + ("" if e.data["step"] == "activation"
                                                               else f" ({e.data['step']})")
                        for e in events if e.kind == "activate"],
        "defeated": [e.data["card"] for e in events if e.kind == "defeated"],
        "events": [e.as_dict() for e in events],
    }


def _last(events: list[Event], kind: str) -> dict[str, Any] | None:
    found = [e.data for e in events if e.kind == kind]
    return dict(found[-1]) if found else None


def result(state: State) -> dict[str, Any]:
    return {
        "result": state.result or "unfinished",
        "turns": state.turn,
        "health": max(state.health, 0),
        "checkpoints": state.stats.get("checkpoints", 0),
        "defeated": state.stats.get("defeated", 0),
        "damage_taken": state.stats.get("damage_taken", 0),
        "cards_gained": state.stats.get("cards_gained", 0),
        "lost_at_dawn": int(state.reason == "dawn"),
    }


def winners(state: State) -> tuple[str, ...]:
    """The player, when the mission is complete."""
    return (PLAYER,) if state.result == "won" else ()
