"""Mission: Drive: the outcome a scenario's `expect` is compared with, and a whole game's figures."""

from __future__ import annotations

from typing import Any

from generators.games.mission_drive.flow import vulnerable_left
from generators.games.mission_drive.state import State, vkey
from generators.games.mission_drive.turns import PLAYER
from generators.rules.contract import Event

# --- outcome and result ------------------------------------------------------------------------


def outcome(state: State, events: list[Event]) -> dict[str, Any]:
    """The observable result the runner compares with a scenario's `expect`."""
    s = state
    destroyed = {side: {t: 0 for t in ("car", "motorcycle", "truck")} for side in ("enemy", "civilian")}
    for d in s.destroyed:
        destroyed[d.side][d.type] += 1
    for counts in destroyed.values():
        counts["total"] = sum(counts.values())
    return {
        "phase": s.phase,
        "variant": s.variant,
        "mission": s.mission,
        "mission_cards": [{"card": mid, "side": side} for mid, side in s.mission_cards],
        "mission_deck": len(s.mission_deck),
        "reward": s.reward,
        "difficulty": s.difficulty,
        "mission_status": s.mission_status,
        "game": s.game,
        "pending": f"{s.pending.kind}-card" if s.pending else None,
        "hero": {"at": list(s.hero), "health": s.health},
        "health": s.health,
        "health_track": s.health_track,
        "damage_taken": s.damage_taken,
        "vehicles": [{"at": list(v.at), "side": v.side, "type": v.type, "damaged": v.damaged}
                     for v in sorted(s.vehicles, key=vkey)],
        "destroyed": destroyed,
        "uplinks": sorted(list(u) for u in s.uplinks),
        "dashboard": {slot: (list(c.arrows) if c else None) for slot, c in s.slots.items()},
        "mirrors": dict(s.mirrors),
        "deck": len(s.deck),
        "discard": len(s.discard),
        "upgrades": {u.id: {"charges": u.charges, "charge_spaces": u.charge_spaces, "device": u.device}
                     for u in sorted(s.upgrades, key=lambda u: u.id)},
        "effects": list(s.effects),
        "shield": s.shield,
        "offer": sorted(u.id for u in s.offer),
        "points": s.points,
        "score": s.score,
        "points_lost": s.points_lost,
        "missions_accomplished": s.missions_accomplished,
        "total_score": s.total_score,
        "turns": s.turns,
        "laser_strike": {"used": s.laser_used,
                         "available": s.reward == "rookie" and not s.laser_used and s.phase == "mission"},
        "start_forward": s.start_forward,
        "boss": _boss_outcome(s),
        "boss_damage": len(s.boss.damaged) if s.boss else 0,
        "weapon_tokens": sorted(({"kind": t.kind, "at": list(t.at)} for t in s.tokens),
                                key=lambda t: (t["at"][1], t["at"][0], t["kind"])),
        "supply": dict(sorted(s.supply.items())),
        "events": [e.as_dict() for e in events],
    }


def _boss_outcome(s: State) -> dict[str, Any] | None:
    boss = s.boss
    if boss is None:
        return None
    return {
        "name": boss.name,
        "at": None if boss.at is None else {t: list(p) for t, p in boss.at.items()},
        "damaged": list(boss.damaged),
        "vulnerable_left": vulnerable_left(boss),
        "defeated": not vulnerable_left(boss),
        "column": [{"number": c.number, "color": c.color, "side": "back" if c.up else "front"} for c in boss.column],
        "weapons": dict(sorted(boss.weapons.items())),
        "turn": s.turn,
        "turns": s.boss_turns,
    }


def result(state: State) -> dict[str, Any]:
    """Whole-game figures: won or lost, damage taken, missions accomplished, points scored, turns."""
    s = state
    return {
        "result": s.game,
        "damage_taken": s.damage_taken,
        "missions": s.missions_accomplished,
        "score": s.total_score,
        "turns": s.turns,
        "boss_damage": len(s.boss.damaged) if s.boss else 0,
        "reached_boss": int(s.boss is not None and s.boss.at is not None),
        "upgrades_used": s.upgrades_used,
    }


def winners(s: State) -> tuple[str, ...]:
    """The hero, when the game is won."""
    return (PLAYER,) if s.game == "won" else ()
