"""Thunder Road: Ignition: what a scenario's `expect` is compared with (`outcome`), and a whole
game's figures for the balance report (`result`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from generators.games.thunder_road_ignition.state import State, finished_count
from generators.rules.contract import Event


def outcome(state: State, events: Sequence[Event], legal: Sequence[Any] = ()) -> dict[str, Any]:
    """`legal`: the game's own listing of the legal actions (the contract's, passed in by the package),
    so `can` says exactly what the rules allow."""
    s = state
    d = s.decision
    return {
        "cars": {c.id: c.at for c in s.cars.values()},
        "damage": {c.id: len(c.tokens) for c in s.cars.values()},
        "tokens": {c.id: list(c.tokens) for c in s.cars.values()},
        "round": s.round,
        "turn": s.turn,
        "first": s.first,
        "active": s.active,
        "stage": s.stage,
        "waiting": {"player": d.player, "for": d.kind} if d is not None else None,
        "dice": {c.name: list(c.dice) for c in s.crews.values()},
        "assigned": {c.name: dict(c.assigned) for c in s.crews.values()},
        "command": {c.name: c.command for c in s.crews.values()},
        "set_aside": {c.name: list(c.set_aside) for c in s.crews.values()},
        "finished": {c: finished_count(s, c) for c in s.order},
        "winner": s.winner,
        "revealed": dict(sorted(s.revealed.items())),
        "pile": len(s.pile),
        "discard": len(s.discard),
        "movement": None if s.movement is None else {
            "car": s.movement.car, "remaining": s.movement.remaining, "road_only": s.movement.road_only,
            "drift": s.movement.drift},
        "can": sorted({a.do for a in legal}),
        "events": [e.kind for e in events if e.kind not in ("roll", "log")],
        "rolls": [[e.data["label"], e.data["value"]] for e in events if e.kind == "roll"],
        "log": [e.data["text"] for e in events if e.kind == "log"],
        "slams": sum(1 for e in events if e.kind == "slam"),
        "hits": sum(1 for e in events if e.kind == "shot" and e.data["hit"]),
    }


def result(state: State) -> dict[str, Any]:
    return {"result": f"{state.winner} wins" if state.winner else "unfinished", "rounds": state.round,
            "slams": state.stats.get("slams", 0), "damage tokens drawn": state.stats.get("damage", 0),
            "trips to the pit": state.stats.get("pits", 0), "shots": state.stats.get("shots", 0),
            "hazards flipped": len(state.revealed)}


def winners(state: State) -> tuple[str, ...]:
    """The seat that won (the rulebook's single winner), or nobody yet."""
    return (state.winner,) if state.winner else ()
