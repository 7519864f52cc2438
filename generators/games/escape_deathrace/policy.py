"""Escape Deathrace 2182 Micro: search hints. How good a position looks for a player (`evaluate`), and
the hidden parts dealt again for a player who cannot see them (`resample`)."""

from __future__ import annotations

from typing import Any

from generators.games.escape_deathrace.facts import DIRS, NEAR
from generators.games.escape_deathrace.road import (
    boss_alive,
    cars_alive,
    distances,
    final_dead,
    final_tile,
    layout,
    subs_dead,
    tile_of,
)
from generators.games.escape_deathrace.state import Player, State, Tile, copied
from generators.rules.chance import Chance
from generators.rules.information import plain, seen

# ---------------------------------------------------------------------------------------------
# Rating a state (the simulator's greedy policy): a plain sum of what a player can see on the table

WON, LOST = 10_000.0, -10_000.0
RATE = {  # points per unit; one HP is one point
    "drop": 1.5,  # a weapon drop held: worth about half the -3 it deals a boss
    "card": 1.5,  # a power card held
    "boss_hp": 1.0,  # each HP a boss has lost (everyone needs the bosses dead to escape)
    "boss_down": 4.0,  # each boss defeated
    "tile": 0.5,  # each road tile laid (the bosses and the final tile are in the stack)
    "step": 1.5,  # each road tile between the car and where it is heading
    "rival_hp": 0.3,  # each HP a rival still has (1.0 once the final boss is dead: rivals stand in the way)
    "danger": 2.0,  # each rival's landmine or fire drop lying within 2 road tiles of the car
    "trap": 1.0,  # each of its own landmine or fire drops lying within 2 road tiles of a rival
}


def evaluate(s: State, name: str) -> float:
    """How good `s` looks for `name`: HP, drops and cards held, boss damage, road laid, and how far the car
    is from where it is heading (the nearest live sub-boss, then the final tile, else the end of the road)."""
    if s.ended is not None:
        return WON if s.winner == name else LOST
    p = s.players[name]
    if not p.alive:
        return LOST
    rival = RATE["rival_hp"] if not final_dead(s) else 1.0
    value = p.hp + RATE["drop"] * sum(p.drops.values()) + RATE["card"] * len(p.power)
    value -= rival * sum([q.hp for q in s.players.values() if q.alive and q is not p])
    full = s.box.bosses
    for b, hp in s.boss_hp.items():
        value += RATE["boss_hp"] * (full[b] - hp) + (RATE["boss_down"] if hp == 0 else 0)
    value += RATE["tile"] * (len(s.tiles) + (s.turn.tile_in_hand is not None))
    for what, who in s.rewards:
        if who == name:
            value += RATE["card"] if what == "power" else -RATE["drop"] if what == "discard" else RATE["drop"]
    steps = _steps_to_goal(s, p)
    if s.turn.player == name and s.turn.extra_move is not None:  # a card's move still to make: as good as made
        steps = max(0, steps - s.turn.allowance)
    return value - RATE["step"] * steps - _dangers(s, p)


def _dangers(s: State, p: Player) -> float:
    """Rivals' landmines and fire drops the car could run into (within 2 road tiles), less (at a lower rate)
    the car's own drops that rivals could run into."""
    traps = [d for d in s.board if d.kind in ("landmine", "fire")]
    if not traps:
        return 0.0
    value = 0.0
    for q in cars_alive(s):
        dist = distances(s, tile_of(s, q).id)
        for d in traps:
            if dist.get(d.tile, NEAR + 1) <= NEAR:
                if q is p and d.owner != p.name:
                    value += RATE["danger"]
                elif q is not p and d.owner == p.name:
                    value -= RATE["trap"]
    return value


def _steps_to_goal(s: State, p: Player) -> int:
    """Road tiles from the car to its goal: a live sub-boss, else the final tile, else an open road end (kept
    for the layout, by the car's tile and which bosses live: every look-ahead asks for it)."""
    key = ("goal", p.tile, *map(bool, s.boss_hp.values()))  # boss HP never goes below 0
    known = layout(s)
    if key not in known:
        known[key] = _goal_distance(s, tile_of(s, p))
    return known[key]


def _goal_distance(s: State, here: Tile) -> int:
    if boss_alive(s, here) or here.kind == "final-boss":
        return 0
    dist = distances(s, here.id)
    live = [t.id for t in _boss_tiles(s) if boss_alive(s, t)]
    final = final_tile(s)
    if live:
        goals = live
    elif final is not None and subs_dead(s):
        goals = [final.id]
    else:
        goals = _open_ends(s)
    return min((dist[g] for g in goals if g in dist), default=len(s.tiles))


def _boss_tiles(s: State) -> list[Tile]:
    """The sub-boss tiles laid, in the order laid (kept for the layout: read-only)."""
    roads = s.roads
    known = roads.memo
    if ("boss-tiles",) not in known:
        base, laid = roads.base, roads.laid
        if base is not None and laid is not None and ("boss-tiles",) in base:
            before = base[("boss-tiles",)]
            known[("boss-tiles",)] = [*before, laid] if laid.kind == "boss" else before
        else:
            known[("boss-tiles",)] = [t for t in s.tiles.values() if t.kind == "boss"]
    return known[("boss-tiles",)]


def _open_ends(s: State) -> list[str]:
    """The tiles with an exit onto an empty space (kept for the layout: read-only)."""
    roads = s.roads
    known = roads.memo
    if ("open-ends",) not in known:
        base, laid = roads.base, roads.laid
        if base is not None and laid is not None and ("open-ends",) in base:
            # Only a tile beside the one laid can have lost its open exit (the laid tile fills one space).
            tiles, x, y = s.tiles, laid.x, laid.y
            ends = [tid for tid in base[("open-ends",)]
                    if abs(tiles[tid].x - x) + abs(tiles[tid].y - y) != 1 or _open(s, tiles[tid])]
            known[("open-ends",)] = [*ends, laid.id] if _open(s, laid) else ends
        else:
            known[("open-ends",)] = [t.id for t in s.tiles.values() if _open(s, t)]
    return known[("open-ends",)]


def _open(s: State, t: Tile) -> bool:
    return any((t.x + DIRS[d][0], t.y + DIRS[d][1]) not in s.spots for d in t.exits)


def observe(state: State, player: str) -> Any:
    """What `player` sees: the state without the face-down orders (road stack, power and event
    decks) and without the other players' power cards, of which only the number shows; the cards
    they and the power deck hold between them are known (every other card is face up)."""
    others = [q for q in state.players.values() if q.name != player]
    players = {}
    for name, q in state.players.items():
        mine = plain(q)
        if name != player:
            mine[1]["power"] = len(q.power)
        players[name] = mine
    unseen = sorted([*state.power_deck, *(c for q in others for c in q.power)])
    return seen(state, {"stack": sorted(state.stack), "event_deck": sorted(state.event_deck),
                        "power_deck": unseen, "players": players})


def resample(state: State, player: str, chance: Chance) -> State:
    """A copy with everything `player` cannot see dealt again by `chance`: the order of the face-down
    road stack, power deck and event deck, and the other players' power cards (their number is seen),
    dealt from those cards and the power deck together. The face-up discard piles stay. Each is dealt
    from its cards sorted, so the deal depends on what the player sees and `chance` alone."""
    s = copied(state)
    s.stack = chance.shuffle("road tiles", sorted(s.stack))
    s.event_deck = chance.shuffle("event deck", sorted(s.event_deck))
    others = [q for q in s.players.values() if q.name != player]
    pool = sorted([*s.power_deck, *(c for q in others for c in q.power)])
    dealt = chance.shuffle("power cards", pool)
    for q in others:
        q.power, dealt = dealt[:len(q.power)], dealt[len(q.power):]
    s.power_deck = dealt
    return s
