"""Escape Deathrace 2182 Micro: what a scenario's `expect` is compared with, and a whole game's result."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from generators.games.escape_deathrace.facts import DROP_KINDS
from generators.games.escape_deathrace.road import final_tile
from generators.games.escape_deathrace.state import State
from generators.games.escape_deathrace.turns import actor
from generators.rules.contract import Event

# ---------------------------------------------------------------------------------------------
# Outcome, result, wording


def outcome(s: State, events: list[Event], legal: Sequence[Any]) -> dict[str, Any]:
    """The observable result (stable keys); `legal`: the actions the rules allow now."""
    players = s.players.values()
    final = final_tile(s)
    return {
        "turn": s.turn.player,
        "phase": s.turn.phase,
        "round": s.round,
        "to_act": actor(s),
        "hp": {p.name: p.hp for p in players},
        "eliminated": [p.name for p in players if not p.alive],
        "positions": {p.name: p.tile for p in players},
        "hazard_side": {p.name: p.hazard_side for p in players if p.hazard_side},
        "boss_hp": dict(s.boss_hp),
        "bosses_defeated": [b for b in s.boss_hp if s.boss_hp[b] == 0],
        "tiles_laid": len(s.tiles),
        "road": {t.id: t.label for t in s.tiles.values()},
        "tile_stack_left": len(s.stack) if s.stack_known else None,
        "tile_drawn": s.turn.tile_in_hand,
        "drops_on_board": sorted(f"{d.kind}@{d.tile}" for d in s.board),
        "inventory": {p.name: {k: n for k, n in p.drops.items() if n} for p in players},
        "drops_held": {p.name: sum(p.drops.values()) for p in players},
        "power_cards": {p.name: len(p.power) for p in players},
        "power_hands": {p.name: sorted(p.power) for p in players},
        "power_discard": list(s.power_discard),
        "graveyard": {k: s.graveyard[k] for k in DROP_KINDS if s.graveyard.get(k)},
        "event_active": s.event_active,
        "events_owed": s.events_owed,
        "event_cards_drawn": s.events_drawn,
        "event_cards_this_turn": list(s.turn.events_seen),
        "card_move": s.turn.allowance if s.turn.extra_move else None,
        "rewards_owed": [name for what, name in s.rewards if what in ("drop", "supply")],
        "power_owed": [name for what, name in s.rewards if what == "power"],
        "discard_owed": [name for what, name in s.rewards if what == "discard"],
        "final_arrivals": list(s.final_arrivals),
        "first_on_final_tile": s.final_arrivals[0] if s.final_arrivals else None,
        "final_tile": final.id if final else None,
        "shielded": list(s.shielded),
        "winner": s.winner,
        "ended": s.ended,
        "can": sorted({a.do for a in legal}),
        **_event_summary(events),
    }


def _event_summary(events: list[Event]) -> dict[str, Any]:
    damage: dict[str, int] = {}
    log = []
    hazard = None
    for e in events:
        if e.kind == "damage":
            damage[e.data["target"]] = damage.get(e.data["target"], 0) + e.data["amount"]
            by = f" by {e.data['by']}" if e.data.get("by") else ""
            log.append(f"{e.data['target']} -{e.data['amount']} {e.data['source']}{by}")
        elif e.kind == "hazard":
            hazard = e.data["result"]
    return {
        "events": [e.kind for e in events if e.kind != "roll"],
        "damage": damage,
        "damage_log": log,
        "rolls": [e.data["value"] for e in events if e.kind == "roll"],
        "hazard": hazard,
    }


def result_word(s: State) -> str:
    if s.winner is not None:
        return s.box.characters[s.players[s.winner].character].title
    return "nobody"


def result(s: State) -> dict[str, Any]:
    """Whole-game figures: who escaped (a character) or nobody, and how the race went."""
    return {
        "result": result_word(s),
        "rounds": s.round - 1 if s.ended == "portal-closed" else s.round,
        "eliminated": sum(1 for p in s.players.values() if not p.alive),
        "damage_taken": sum(p.damage for p in s.players.values()),
        "bosses_defeated": sum(1 for hp in s.boss_hp.values() if hp == 0),
        "tiles_laid": len(s.tiles),
        "event_cards_drawn": s.events_drawn,
        "portal_closed": 1 if s.ended == "portal-closed" else 0,
    }


def winners(s: State) -> tuple[str, ...]:
    """The seat whose car escaped, or nobody."""
    return (s.winner,) if s.winner is not None else ()
