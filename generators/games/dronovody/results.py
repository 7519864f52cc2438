"""Дроноводи: what a scenario's `expect` is compared with (`outcome`) and a whole game's figures
(`result`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from generators.games.dronovody.abilities import activated_total, has_ammunition, points, recon, winners
from generators.games.dronovody.facts import DECKS
from generators.games.dronovody.state import State
from generators.games.dronovody.turns import waiting_on
from generators.rules.contract import Event


def outcome(s: State, events: list[Event], legal: Callable[[State, str], list[Any]]) -> dict[str, Any]:
    """Every key a scenario may expect. `acting` names the players the game waits on and `can` what they may
    do (other players' free actions are not listed; a scenario takes them by naming the player)."""
    players = [s.p(n) for n in s.seats]
    t = s.turn
    over = s.phase == "over"
    return {
        "round": s.round,
        "phase": "recovery" if s.recovering else s.phase,  # the Recovery phase's deal
        "turn": t.player if t else None,
        "step": t.step if t else None,
        "mode": t.mode if t else None,
        "odo": s.odo,
        "acting": waiting_on(s),
        "logistics": {p.name: p.logistics for p in players},
        "crew": {p.name: list(p.crew) for p in players},
        "hq": {p.name: list(p.hq) for p in players},
        "warehouse": {p.name: [d.label() for d in p.warehouse] for p in players},
        "hand": {p.name: sorted(p.hand) for p in players},
        "dealt": {p.name: sorted(p.dealt) for p in players},
        "projects": {p.name: [pr.card for pr in p.projects if not pr.active] for p in players},
        "activated": {p.name: [pr.label() for pr in p.projects if pr.active] for p in players},
        "defence": {p.name: list(p.defence) for p in players},
        "trophies": {p.name: list(p.trophies) for p in players},
        "wounded": {p.name: list(p.wounded) for p in players},
        "used": {p.name: list(p.used) for p in players},
        "exchanged": {p.name: p.exchanged for p in players},
        "reconnaissance": {p.name: recon(s, p) for p in players},
        "ammunition": {p.name: has_ammunition(s, p) for p in players},
        "trench": list(s.trench),
        "trench_size": len(s.trench),
        "shop": list(s.shop),
        "field": {"first_line": [c for c in s.battlefield if s.cat.threats[c].distance == 1],
                  "second_line": [c for c in s.battlefield if s.cat.threats[c].distance == 2]},
        "decks": {d: len(s.decks[d]) for d in DECKS},
        "character_deck_bottom": list(s.decks["characters"].bottom),
        "discards": {k: list(v) for k, v in s.discards.items()},
        "bonus": list(t.bonus) if t else [],
        "sortie": None if not (t and t.sortie) else {"drone": t.sortie.drone, "attacks_left": t.sortie.attacks,
                                                      "drone_attacks_left": t.sortie.drone_attacks},
        "recruit_choices": list(t.recruit) if t else [],
        "pending": [{"player": x.player, "hit": x.kind, "source": x.source} for x in s.pending],
        "rolled": list(s.rolled),
        "threats_placed": s.threats_placed,
        "activated_projects": activated_total(s),
        "result": s.result,
        "how": s.how,
        "points": {p.name: points(s, p) for p in players},
        "winners": winners(s) if over and s.result == "won" else [],
        "can": sorted({a.do for n in waiting_on(s) for a in legal(s, n)}),
        **_event_summary(events),
    }


def _event_summary(events: list[Event]) -> dict[str, Any]:
    attacks = [{k: v for k, v in e.data.items() if k != "player"} for e in events if e.kind == "attack"]
    return {
        "events": [e.kind for e in events],
        "attacks": attacks,
        "artillery": [{k: v for k, v in e.data.items() if k != "player"} for e in events if e.kind == "artillery"],
        "defence_rolls": [{"player": e.data["player"], "die": e.data["die"], "activated": e.data["activated"]}
                          for e in events if e.kind == "defence"],
        "wounds": [f"{e.data['player']}: {e.data['card']} ({e.data['from']})" for e in events if e.kind == "wound"],
        "logistics_changes": [f"{e.data['player']} {e.data['change']:+d} ({e.data['why']})"
                              for e in events if e.kind == "logistics"],
        "cancelled": [f"{e.data['player']}: {e.data['card']} ({e.data['by']})" for e in events
                      if e.kind == "cancelled"],
        "mishaps": [f"{e.data['player']}: {e.data['card']}" for e in events if e.kind == "mishap"],
    }


def result(s: State) -> dict[str, Any]:
    players = list(s.players.values())
    return {
        "result": f"{s.result or 'unfinished'} ({s.how})" if s.how else (s.result or "unfinished"),
        "rounds": s.round,
        "enemies_hit": s.hits,
        "activated_projects": activated_total(s),
        "wounded": sum(len(p.wounded) for p in players),
        "best_points": max(points(s, p) for p in players),
    }


def winning_seats(s: State) -> tuple[str, ...]:
    """Every seat, when the team has won (a cooperative game: the best score among them is told apart
    in the result's figures, not in the returns)."""
    return tuple(s.seats) if s.result == "won" else ()
