"""Escape Deathrace 2182 Micro: the road. Where tiles join, distances along the road, bosses alive or
dead, the paths a car may drive, and where a road tile may be laid."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from generators.games.escape_deathrace.facts import DIRS, OPPOSITE, SIDES, Side, skips_hazard
from generators.games.escape_deathrace.specs import LayTile
from generators.games.escape_deathrace.state import Player, Roads, State, Tile
from generators.games.escape_deathrace.words import SIDE, tile_words
from generators.rules.chance import Chance
from generators.rules.contract import Event


def spot_problem(tile: Tile, kind: str, boss_hp: Mapping[str, int]) -> str | None:
    """Why a drop cannot lie on this tile."""
    if tile.kind in ("start", "hazard"):
        return f"weapon drops cannot be used on a {tile.kind} tile"
    if kind == "fire" and tile.kind == "fire":
        return "fire drops cannot be placed on fire road tiles"
    if tile.boss is not None and (boss_hp[tile.boss] > 0 or tile.kind == "final-boss"):
        return "on a boss tile weapon drops are used against the boss (or, once the final boss is dead, players)"
    return None


# ---------------------------------------------------------------------------------------------
# Board geometry


def direction(a: Tile, b: Tile) -> str | None:
    return _DIRECTION_OF.get((b.x - a.x, b.y - a.y))


_DIRECTION_OF = {step: d for d, step in DIRS.items()}  # a step between neighbouring spaces -> its direction


def connected(a: Tile, b: Tile) -> bool:
    d = direction(a, b)
    return d is not None and d in a.exits and OPPOSITE[d] in b.exits


def neighbour(s: State, tile: Tile, d: str) -> Tile | None:
    tid = s.spots.get((tile.x + DIRS[d][0], tile.y + DIRS[d][1]))
    return s.tiles[tid] if tid is not None else None


def _neighbours(s: State, tile: Tile) -> list[Tile]:
    """The tiles joined to `tile` by road, exits in N, E, S, W order (kept for the layout: read-only; the
    path search asks for the same ones again and again)."""
    known = s.roads.memo
    key = ("near", tile.id)
    found = known.get(key)
    if found is None:
        found = known[key] = _joined_to(s, tile)
    return found


def _joined_to(s: State, tile: Tile) -> list[Tile]:
    """`_neighbours`, worked out from the tiles and spots (not kept)."""
    out = []
    for d in tile.exits:  # _neighbour inlined: this runs millions of times in simulations
        dx, dy = DIRS[d]
        tid = s.spots.get((tile.x + dx, tile.y + dy))
        if tid is not None and OPPOSITE[d] in (other := s.tiles[tid]).exits:
            out.append(other)
    return out


def distances(s: State, origin: str) -> Mapping[str, int]:
    """Road distance in tiles from `origin` to every tile it connects to (read-only: shared by every
    state with this layout of tiles, since the simulator's look-ahead asks for the same ones again and
    again)."""
    roads = s.roads
    known = roads.memo
    key = ("from", origin)
    found = known.get(key)
    if found is None:
        before = roads.base.get(key) if roads.base is not None and roads.joined is not None else None
        if before is not None and roads.laid is not None:
            found = dict(before)
            if roads.joined in found:
                found[roads.laid.id] = found[roads.joined] + 1
        else:
            found = _breadth_first(s, origin)
        known[key] = found
    return found


def layout(s: State) -> dict[Any, Any]:
    """The values kept for this layout of tiles (see `Roads`)."""
    return s.roads.memo


def _breadth_first(s: State, origin: str) -> dict[str, int]:
    """Road distance in tiles from `origin` to every tile it connects to (breadth-first)."""
    seen = {origin: 0}
    frontier = [origin]
    while frontier:
        nxt = []
        for tid in frontier:
            for other in _neighbours(s, s.tiles[tid]):
                if other.id not in seen:
                    seen[other.id] = seen[tid] + 1
                    nxt.append(other.id)
        frontier = nxt
    return seen


def boss_alive(s: State, tile: Tile) -> bool:
    return tile.boss is not None and s.boss_hp[tile.boss] > 0


def subs_dead(s: State) -> bool:
    return all(s.boss_hp[b] == 0 for b in s.box.sub_bosses)


def final_dead(s: State) -> bool:
    return s.boss_hp[s.box.final] == 0


def final_tile(s: State) -> Tile | None:
    roads = s.roads  # kept for the layout: evaluating a state asks for it every time
    known = roads.memo
    if ("final",) not in known:
        base, laid = roads.base, roads.laid
        if base is not None and laid is not None and ("final",) in base:
            known[("final",)] = laid if laid.kind == "final-boss" else base[("final",)]
        else:
            known[("final",)] = next((t for t in s.tiles.values() if t.kind == "final-boss"), None)
    return known[("final",)]


def tile_of(s: State, p: Player) -> Tile:
    assert p.tile is not None, f"{p.name} is not on the road"
    return s.tiles[p.tile]


# ruling: active-boss-battle-tiles
def peaceful(s: State, tile: Tile) -> str | None:
    """Why no battle-it-out, drive-by or gunfire can happen on this tile (None if they can)."""
    if tile.kind == "start":
        return "start tile"
    if tile.kind == "hazard":
        return "hazard tile"
    if any(d.kind == "smoke" and d.tile == tile.id for d in s.board):
        return "smoke"
    return None


def turn_order_from(s: State, name: str) -> list[str]:
    i = s.order.index(name)
    return s.order[i:] + s.order[:i]


def others_on(s: State, tile_id: str | None, me: str) -> list[Player]:
    return [s.players[n] for n in turn_order_from(s, me)
            if n != me and s.players[n].alive and s.players[n].tile == tile_id]


def cars_alive(s: State) -> list[Player]:
    return [p for p in s.players.values() if p.alive]


# ruling: nitro-nos-direction
def _step_cost(prev: Tile, tile: Tile, nxt: Tile | None) -> int:
    """A nitro-nos tile entered along its arrows is a free space unless you turn off it."""
    if tile.kind != "nitro-nos" or direction(prev, tile) != tile.arrow:
        return 1
    if nxt is not None and direction(tile, nxt) != tile.arrow:
        return 1
    return 0


def _path_cost(s: State, p: Player, here: Tile, path: Sequence[str]) -> tuple[int, int]:
    """(spaces used, extra spaces earned): Reegad moves one more for each nitro-nos entered along its arrows."""
    cost = bonus = 0
    prev = here
    bonus_each = 1 if "nitro-bonus" in p.abilities else 0
    for i, tid in enumerate(path):
        tile = s.tiles[tid]
        nxt = s.tiles[path[i + 1]] if i + 1 < len(path) else None
        cost += _step_cost(prev, tile, nxt)
        if tile.kind == "nitro-nos" and direction(prev, tile) == tile.arrow:
            bonus += bonus_each
        prev = tile
    return cost, bonus


def _cannot_leave(s: State, p: Player, here: Tile) -> str | None:
    if here.kind == "final-boss":
        return "once on the final boss tile you cannot move off it"
    if boss_alive(s, here):
        return f"{p.name} cannot leave {tile_words(s, here.id)} until its boss is defeated"
    return None


# ruling: active-boss-battle-tiles
def _stops(s: State, p: Player, tile: Tile) -> bool:
    """Tiles that end a move: hazards (except for GoodDay), live bosses, the final boss tile."""
    return (tile.kind == "hazard" and not skips_hazard(p.abilities)) or boss_alive(s, tile) \
        or tile.kind == "final-boss"


@dataclass
class _PathRules:
    """What every step of one car's drive is checked against."""

    here: Tile
    final_dist: Mapping[str, int] | None  # once the final boss is dead: distances to the final tile


def _path_rules(s: State, p: Player) -> _PathRules:
    final = final_tile(s)
    dist = distances(s, final.id) if final is not None and final_dead(s) else None
    return _PathRules(tile_of(s, p), dist)


# ruling: direct-path-after-final-boss
def _step_fault(s: State, p: Player, r: _PathRules, prev: Tile, tile: Tile, seen: set[str], last: bool) -> str | None:
    """Which step rule a step from `prev` onto `tile` breaks (a key of `_step_words`), None if none: the
    search for paths asks this for every step it tries, so words are made only for a refusal."""
    if not connected(prev, tile):
        return "unjoined"
    return _joined_step_fault(s, p, r, prev, tile, seen, last)


def _joined_step_fault(s: State, p: Player, r: _PathRules, prev: Tile, tile: Tile, seen: set[str],
                       last: bool) -> str | None:
    """`_step_fault` for a step between tiles joined by road (the path search steps only onto those)."""
    if prev is r.here and p.hazard_side is not None and direction(prev, tile) != p.hazard_side:
        return "hazard-side"
    if tile.id in seen:
        return "twice"
    if r.final_dist is not None and r.final_dist.get(tile.id, 1 << 20) >= r.final_dist.get(prev.id, 1 << 20):
        return "direct"
    if tile.kind == "final-boss" and not subs_dead(s):
        return "final-locked"
    if not last and _stops(s, p, tile):
        return "stops"
    return None


def _step_words(s: State, p: Player, fault: str, prev: Tile, tile: Tile) -> str:
    if fault == "unjoined":
        return f"{tile_words(s, tile.id)} is not joined by road to {tile_words(s, prev.id)}"
    if fault == "hazard-side":
        return (f"{p.name} is stopped at the {SIDE[p.hazard_side or 'N']} side of {tile_words(s, prev.id)}: get "
                "past it with a hazard attempt, or retreat out of that side")
    if fault == "twice":
        return f"the path visits {tile_words(s, tile.id)} twice"
    if fault == "direct":
        return f"the final boss is dead: {p.name} must take the most direct path to the final tile"
    if fault == "final-locked":
        return f"nobody may land on the final boss tile until all {len(s.box.sub_bosses)} sub-bosses are defeated"
    return f"{tile_words(s, tile.id)} ends the move (a hazard, or a boss battle): the path must end there"


# ruling: movement-up-to-vs-at-least-one
def path_problem(s: State, p: Player, path: Sequence[str], allowance: int) -> str | None:
    """Why `path` is not a legal drive for `p` with `allowance` spaces (None if it is)."""
    if not path:
        return "you must move at least 1 space (Q&A 3)"
    r = _path_rules(s, p)
    if why := _cannot_leave(s, p, r.here):
        return why
    seen = {r.here.id}
    prev = r.here
    for i, tid in enumerate(path):
        tile = s.tiles.get(tid)
        if tile is None:
            return f"no tile called {tid} is on the road"
        if fault := _step_fault(s, p, r, prev, tile, seen, i == len(path) - 1):
            return _step_words(s, p, fault, prev, tile)
        seen.add(tid)
        prev = tile
    cost, bonus = _path_cost(s, p, r.here, path)
    if cost > allowance + bonus:
        return f"the path costs {cost} spaces; {p.name} may move {allowance + bonus}"
    return None


def legal_paths(s: State, p: Player, allowance: int) -> list[tuple[str, ...]]:
    """Every drive `_path_problem` accepts, in a fixed order (depth first, exits in N, E, S, W order)."""
    r = _path_rules(s, p)
    if _cannot_leave(s, p, r.here):
        return []
    bonus_each = 1 if "nitro-bonus" in p.abilities else 0
    nitros = {t.id for t in s.tiles.values() if t.kind == "nitro-nos"} if bonus_each else set()
    out: list[tuple[str, ...]] = []

    # Depth first, as a loop over a stack of each path's untried neighbours (a recursive inner function
    # would refer to itself: garbage only the cycle collector frees, made on every listing). Each path's
    # `_path_cost` is carried forward a step at a time: `paid` is what its steps cost but its last, whose
    # cost depends on where the path turns next (`_step_cost`'s `nxt`), from `before` onto `prev`;
    # `bonus` the spaces earned so far.
    Frame = tuple[Iterator[Tile], tuple[str, ...], Tile | None, Tile, set[str], int, int]
    stack: list[Frame] = [(iter(_neighbours(s, r.here)), (), None, r.here, {r.here.id}, 0, 0)]
    while stack:
        near, path, before, prev, seen, paid, bonus = stack[-1]
        tile = next(near, None)  # joined to `prev` by road
        if tile is None:
            stack.pop()
            continue
        if _joined_step_fault(s, p, r, prev, tile, seen, True):
            continue
        candidate = (*path, tile.id)
        now_paid = paid if before is None else paid + _step_cost(before, prev, tile)
        cost = now_paid + _step_cost(prev, tile, None)  # a lower bound for any longer path
        now_bonus = bonus + (bonus_each if tile.kind == "nitro-nos" and direction(prev, tile) == tile.arrow else 0)
        if cost > allowance + now_bonus + (len(nitros - seen - {tile.id}) if nitros else 0):
            continue
        if cost <= allowance + now_bonus:
            out.append(candidate)
        if not _stops(s, p, tile):
            stack.append((iter(_neighbours(s, tile)), candidate, prev, tile, seen | {tile.id}, now_paid, now_bonus))
    return out


# ---------------------------------------------------------------------------------------------
# Laying road tiles


def tiles_left(s: State) -> int:
    final_pending = 0 if final_tile(s) is not None else 1
    return len(s.stack) + final_pending


def next_tile(s: State, chance: Chance) -> str:
    """The next road tile: the top of a listed stack, or one of an unordered pool; the final boss tile,
    set aside at setup, comes when the stack is used up."""
    if s.stack:
        face = s.stack[0] if s.stack_known else chance.choice("road tile", s.stack)
        i = s.stack.index(face)
        s.stack = [*s.stack[:i], *s.stack[i + 1:]]  # a new list: copies of the state share the old one
        return face
    return s.box.final


def open_spots(s: State) -> dict[tuple[int, int], list[Tile]]:
    """Empty spaces an open road end leads to, with the tiles whose ends lead there (sorted by id; kept for
    the layout: read-only)."""
    roads = s.roads
    known = roads.memo
    found = known.get(("open-spots",))
    if found is None:
        before = roads.base.get(("open-spots",)) if roads.base is not None else None
        found = known[("open-spots",)] = _find_open_spots(s) if before is None or roads.laid is None \
            else _grown_open_spots(s, before, roads.laid)
    return found


def _grown_open_spots(s: State, before: dict[tuple[int, int], list[Tile]],
                      laid: Tile) -> dict[tuple[int, int], list[Tile]]:
    """`_find_open_spots` once `laid` is laid, from the spots open before: its own space closes, and each
    of its exits onto an empty space opens one (or joins the tiles already leading there)."""
    out = dict(before)
    out.pop((laid.x, laid.y), None)
    for d in laid.exits:
        spot = (laid.x + DIRS[d][0], laid.y + DIRS[d][1])
        if spot not in s.spots:
            out[spot] = sorted([*out.get(spot, ()), laid], key=lambda t: t.id)
    return dict(sorted(out.items()))


def _find_open_spots(s: State) -> dict[tuple[int, int], list[Tile]]:
    out: dict[tuple[int, int], list[Tile]] = {}
    for tile in s.tiles.values():
        for d in tile.exits:
            spot = (tile.x + DIRS[d][0], tile.y + DIRS[d][1])
            if spot not in s.spots:
                out.setdefault(spot, []).append(tile)
    return {spot: sorted(sources, key=lambda t: t.id) for spot, sources in sorted(out.items())}


def laid_exits(shape: str, toward: str) -> str:
    """A laid tile's exits: it joins the road on the `toward` side."""
    if shape == "4-way":
        return "NESW"
    if shape == "dead-end":
        return toward
    return "".join(d for d in "NESW" if d in (toward, OPPOSITE[toward]))


def lay_options(s: State, p: Player, face: str) -> list[LayTile]:
    kind, shape = s.box.tiles[face].kind, s.box.tiles[face].shape
    out = []
    for (x, y), sources in open_spots(s).items():
        for src in sources:
            toward = side_toward(x, y, src)
            arrows: list[Side | None] = [d for d in SIDES if d in laid_exits(shape, toward)] \
                if kind == "nitro-nos" else [None]
            named = src.id if len(sources) > 1 else None
            out += [LayTile("lay_tile", p.name, (x, y), named, a) for a in arrows]
    return out


def side_toward(x: int, y: int, src: Tile) -> str:
    """The side of the space (x, y) that faces `src`."""
    return next(d for d, (dx, dy) in DIRS.items() if (x + dx, y + dy) == (src.x, src.y))


def place(s: State, face: str, x: int, y: int, src: Tile, arrow: str | None, events: list[Event]) -> Tile:
    kind = s.box.tiles[face].kind
    side = side_toward(x, y, src)
    exits = laid_exits(s.box.tiles[face].shape, side)
    if kind == "nitro-nos":
        arrow = arrow or OPPOSITE[side]
    s.laid_count += 1
    n = s.laid_count
    while f"n{n}" in s.tiles:
        n += 1
    tile = Tile(f"n{n}", kind, face, x, y, exits, arrow)
    old = s.roads.memo
    s.tiles = {**s.tiles, tile.id: tile}  # new mappings: copies of the state before share the old ones
    s.spots = {**s.spots, (x, y): tile.id}
    joined = _joined_to(s, tile)  # not `_neighbours`: s.roads is still the layout before this tile
    # A new layout, its own (the old one's is shared), grown from the old one's as it is asked.
    s.roads = Roads(old, tile, joined[0].id if len(joined) == 1 else None)
    events.append(Event("tile-laid", {"tile": tile.id, "kind": tile.label, "face": face, "at": [x, y]}))
    return tile


def final_targets(s: State, p: Player) -> list[Player]:
    """Cars `p` may target on the dead final tile (smoke keeps a car from being targeted)."""
    return [q for q in others_on(s, p.tile, p.name) if q.name not in s.shielded]


def nitro_ahead(s: State, p: Player, prev: Tile, last: Tile) -> tuple[int, int] | None:
    """The empty space ahead of a nitro-nos tile the car stopped on, entered along its arrows."""
    if last.kind != "nitro-nos" or p.tile != last.id or not tiles_left(s) or direction(prev, last) != last.arrow:
        return None
    assert last.arrow is not None
    spot = (last.x + DIRS[last.arrow][0], last.y + DIRS[last.arrow][1])
    return None if spot in s.spots else spot
