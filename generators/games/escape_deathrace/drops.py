"""Escape Deathrace 2182 Micro: weapon drops: the supply left after setup, where each kind may go, and
who gunfire can reach."""

from __future__ import annotations

from generators.games.escape_deathrace.facts import DROP_KINDS, GUNFIRE_BY_DISTANCE
from generators.games.escape_deathrace.road import distances, peaceful, spot_problem, tile_of, turn_order_from
from generators.games.escape_deathrace.state import Player, State


def supply_left(s: State) -> dict[str, int]:
    """Tokens nobody picked at setup (Setup, step 4): the box less those held, on the road and used."""
    out: dict[str, int] = {}
    for k in DROP_KINDS:
        used = sum(q.drops[k] for q in s.players.values()) + s.graveyard.get(k, 0)
        used += sum(1 for d in s.board if d.kind == k) + (len(s.shielded) if k == "smoke" else 0)
        out[k] = s.box.drops[k] - used
    return out


def gift_pile(s: State, what: str) -> dict[str, int]:
    """Where a drop reward comes from: the used pile; or, for a supply gift, the supply while it lasts."""
    if what == "supply":
        supply = supply_left(s)
        if any(supply.values()):
            return supply
    return s.graveyard


# ruling: fire-drop-most-recent-turn
def fire_reach(s: State, p: Player) -> list[str]:
    """Tiles moved onto or over in the player's most recent turn: this one once it has moved, else the last."""
    return list(s.turn.moved_over) if s.turn.moved_over else list(p.last_moved)


def drop_spots(s: State, p: Player, kind: str) -> list[str]:
    """Where a landmine (a tile touched this turn) or a fire drop (see `_fire_reach`) may go."""
    spots = s.turn.touched if kind == "landmine" else fire_reach(s, p)
    return [tid for tid in spots if tid in s.tiles and spot_problem(s.tiles[tid], kind, s.boss_hp) is None
            and not any(d.tile == tid and d.kind == kind for d in s.board)]


# ruling: gunfire-in-motion
def _gunfire_targets(s: State, p: Player) -> list[Player]:
    if peaceful(s, tile_of(s, p)):
        return []
    dist = distances(s, tile_of(s, p).id)
    return [q for q in (s.players[n] for n in turn_order_from(s, p.name)[1:])
            if q.alive and dist.get(q.tile or "") in GUNFIRE_BY_DISTANCE and not peaceful(s, tile_of(s, q))
            and q.name not in s.shielded]
