"""Escape Deathrace 2182 Micro: the weapon drop actions' options and rules (Weapon Drops: one a turn,
where each kind may go, who gunfire reaches). What a drop does is in `resolve`; the supply, the spots
and the reach are in `drops`."""

from __future__ import annotations

from generators.games.escape_deathrace.asks import DROP_WORDS, AskS, Why, made, player_of
from generators.games.escape_deathrace.drops import drop_spots, fire_reach
from generators.games.escape_deathrace.facts import DROP_KINDS, GUNFIRE_BY_DISTANCE
from generators.games.escape_deathrace.road import (
    boss_alive,
    distances,
    final_targets,
    peaceful,
    spot_problem,
    tile_of,
    turn_order_from,
)
from generators.games.escape_deathrace.specs import (
    UseDrop,
)
from generators.games.escape_deathrace.state import Player, State
from generators.games.escape_deathrace.words import tile_words
from generators.rules.wording import listed


def drop_options(ask: AskS, player: str) -> list[UseDrop]:
    s = ask.state
    if s.turn.drop_used or s.turn.extra_move is not None:
        return []
    return _drop_actions(s, player_of(ask, player))


# ruling: one-weapon-drop-per-turn
def _drop_actions(s: State, p: Player) -> list[UseDrop]:
    tile = tile_of(s, p)
    held = [k for k in DROP_KINDS if p.drops[k]]
    me = p.name
    two_fires = "double-fire" in p.abilities and p.drops["fire"] >= 2
    if not held or tile.kind in ("start", "hazard"):
        return []
    if boss_alive(s, tile):
        if s.turn.phase != "boss":
            return []
        out = [made.UseDrop("use_drop", me, k) for k in held if k != "smoke"]
        return out + ([made.UseDrop("use_drop", me, "fire", 2)] if two_fires else [])
    if tile.kind == "final-boss":
        targets = [q.name for q in final_targets(s, p)]
        out = [made.UseDrop("use_drop", me, k, target=q) for k in held if k != "smoke" for q in targets]
        if two_fires:
            out += [made.UseDrop("use_drop", me, "fire", 2, targets=(a, b)) for i, a in enumerate(targets)
                    for b in targets[i:]]
        if p.drops["smoke"] and me not in s.shielded:
            out.append(made.UseDrop("use_drop", me, "smoke"))
        return out
    out = []
    for k in held:
        if k == "smoke":
            if not any(d.kind == "smoke" and d.tile == tile.id for d in s.board):
                out.append(made.UseDrop("use_drop", me, "smoke"))
        elif k == "gunfire":
            out += [made.UseDrop("use_drop", me, "gunfire", target=q.name) for q in shootable(s, p)]
        else:
            out += [made.UseDrop("use_drop", me, k, tile=tid) for tid in drop_spots(s, p, k)]
    if two_fires:
        spots = drop_spots(s, p, "fire")
        out += [made.UseDrop("use_drop", me, "fire", 2, tiles=(a, b)) for i, a in enumerate(spots)
                for b in spots[i + 1:]]
    return out


def shootable(s: State, p: Player) -> list[Player]:
    """Cars `p`'s gunfire reaches: the gunfire rule's own test, for every other car in turn order."""
    return [q for q in (s.players[n] for n in turn_order_from(s, p.name)[1:]) if _gunfire_problem(s, p, q) is None]


# ruling: gunfire-in-motion
def _gunfire_problem(s: State, p: Player, q: Player) -> Why:
    if not q.alive or q.tile is None:
        return f"{q.name} is out of the race"
    here = tile_of(s, p)
    why = peaceful(s, here)
    if why:
        return f"no gunfire is fired from {tile_words(s, here.id)}: {CALM[why]}"
    if q.tile == p.tile:
        return f"{q.name} is on {p.name}'s own tile: gunfire shoots a car 1 or 2 road tiles away"
    dist = distances(s, here.id).get(q.tile)
    if dist not in GUNFIRE_BY_DISTANCE:
        away = "not joined by road" if dist is None else f"{dist} road tiles away"
        return f"{q.name} is out of gunfire range: {away}, and gunfire reaches 2 road tiles"
    why = peaceful(s, tile_of(s, q))
    if why:
        return f"no gunfire reaches {q.name} on {tile_words(s, q.tile)}: {CALM[why]}"
    if q.name in s.shielded:
        return f"smoke keeps {q.name} from being targeted"
    return None


CALM = {"start tile": "the start tile is out of play, and no weapon drop, power card, drive-by or battle-it-out takes "
                       "place on it (Questions and Answers, Q&A 1)",
         "hazard tile": "no weapon drop is used on a hazard tile",
         "smoke": "smoke covers it (smoke stops gunfire into and out of its tile)"}


def one_drop_a_turn(ask: AskS, a: UseDrop) -> Why:
    return "one weapon drop a turn: this turn's is used" if ask.state.turn.drop_used else None


def drop_ground(ask: AskS, a: UseDrop) -> Why:
    s = ask.state
    kind = tile_of(s, s.players[a.player]).kind
    return f"no weapon drop is used on the {kind} tile" if kind in ("start", "hazard") else None


def drops_held(ask: AskS, a: UseDrop) -> Why:
    s = ask.state
    p = s.players[a.player]
    if a.count == 2 and "double-fire" not in p.abilities:
        return "only Mista may use two drops at once (two fire drops)"
    if a.count == 2 and a.kind != "fire":
        return "two drops at once are two fire drops (Mista)"
    n = p.drops.get(a.kind, 0)
    if n >= a.count:
        return None
    return f"{a.player} holds no {DROP_WORDS[a.kind]}" if n == 0 else f"{a.player} holds only {n} {a.kind} drop"


def drop_aim(ask: AskS, a: UseDrop) -> Why:
    """Where the drop goes, or whom it hits: a boss battle, the dead final tile, or the open road."""
    s = ask.state
    p = s.players[a.player]
    here = tile_of(s, p)
    if boss_alive(s, here):
        if a.kind == "smoke":
            return ("in a boss battle a smoke bomb is used against the boss's first strike, as the sequence "
                    "begins")
        if a.tile or a.tiles or a.target or a.targets:
            return "in a boss battle a weapon drop hits the boss: name no tile or car"
        return None
    if here.kind == "final-boss":
        return _final_aim(s, p, a)
    if (a.target is not None or a.targets) and a.kind != "gunfire":
        return f"a {DROP_WORDS[a.kind]} goes on a tile, not at a car"
    if a.kind == "smoke":
        if a.tile is not None or a.tiles or a.target is not None:
            return "a smoke bomb covers its placer's own tile: name no tile or car"  # ruling: smoke-placement
        if any(d.kind == "smoke" and d.tile == here.id for d in s.board):
            return f"smoke already covers {tile_words(s, here.id)}"
        return None
    if a.kind == "gunfire":
        if a.target is None or a.tile is not None or a.tiles:
            return "name the car the gunfire shoots"
        q = s.players.get(a.target)
        if q is None or q is p:
            cars = [q.name for q in shootable(s, p)]
            if not cars:
                return f"no car is in {a.player}'s gunfire range (1 or 2 road tiles, out of smoke)"
            return f"{a.player} may shoot at {listed(cars)}"
        return _gunfire_problem(s, p, q)
    spots = list(a.tiles) if a.count == 2 else [a.tile]
    if a.count == 2 and (len(a.tiles) != 2 or a.tile is not None):
        return "two fire drops at once go on two tiles: name both"
    for tid in spots:
        if tid is None:
            return f"name the tile the {DROP_WORDS[a.kind]} goes on"
        if why := _spot_refusal(s, p, a.kind, tid):
            return why
    if a.count == 2:
        reach = drop_spots(s, p, "fire")
        first, second = a.tiles
        if first == second:
            return "two fire drops go on two different tiles"
        if reach.index(first) > reach.index(second):
            return f"name the two tiles in the order they were driven: {listed(tile_words(s, t) for t in reach)}"
    return None


def _final_aim(s: State, p: Player, a: UseDrop) -> Why:
    """On the dead final tile the cars are the bosses: a drop hits a car smoke does not cover."""
    # ruling: kills-on-the-final-tile
    if a.kind == "smoke":
        if a.tile is not None or a.tiles or a.target is not None or a.targets:
            return "a smoke bomb covers its placer: name no tile or car"
        return f"smoke already covers {p.name}" if p.name in s.shielded else None
    if a.tile is not None or a.tiles:
        return "on the final tile a weapon drop hits a car: name the car, not a tile"
    names = [q.name for q in final_targets(s, p)]
    if not names:
        return "smoke covers every other car on the final tile: there is no car to hit"
    wanted = list(a.targets) if a.count == 2 else [a.target]
    if a.count == 2 and (len(a.targets) != 2 or a.target is not None):
        return "two fire drops at once hit two cars, or one car twice: name them both"
    for name in wanted:
        if name not in names:
            return f"{p.name} may hit {listed(names)} (a car on the final tile that smoke does not cover)"
    if a.count == 2 and names.index(a.targets[0]) > names.index(a.targets[1]):
        return f"name the two cars in turn order ({listed(names, 'then')})"
    return None


def _spot_refusal(s: State, p: Player, kind: str, tid: str) -> Why:
    """Why a landmine or fire drop cannot go on tile `tid` (None if it can)."""
    tile = s.tiles.get(tid)
    if tile is None:
        return f"no tile called {tid} is on the road"
    why = spot_problem(tile, kind, s.boss_hp)
    if why:
        return why
    if any(d.tile == tid and d.kind == kind for d in s.board):
        return f"a {DROP_WORDS[kind]} already lies on {tile_words(s, tid)}"
    if kind == "landmine":
        if tid in s.turn.touched:
            return None
        return (f"a landmine goes on a tile {p.name} touched this turn "
                f"({listed((tile_words(s, t) for t in s.turn.touched), 'and')})")
    # ruling: fire-drop-most-recent-turn
    reach = fire_reach(s, p)
    if tid in reach:
        return None
    return (f"a fire drop goes on a tile {p.name} moved over in its most recent turn "
            f"({listed((tile_words(s, t) for t in reach), 'and')})")
