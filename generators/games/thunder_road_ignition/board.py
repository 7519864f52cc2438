"""Thunder Road: Ignition: the road's tiles joined into one graph of spaces.

A space is named `<tile>:<space>`, like `3:c4` (third tile laid, lane c from the left, fourth row
from the back). Each space links to the space in each of the six directions, across the seams
between tiles, or to OFF (off the board) or FINISH (across the finish line).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from generators.content.model import SpaceMap
from generators.games.thunder_road_ignition.facts import DIRECTIONS, FINISH, FORWARD, OFF, PIT_TILES, Kit


@dataclass(frozen=True, slots=True)
class Space:
    id: str
    tile: int
    local: str
    lane: int
    row: int
    terrain: str  # as printed ("hazard" where a face-down token lies)
    links: tuple[str, ...]  # in DIRECTIONS order: a space id, OFF or FINISH
    walls: frozenset[str]
    arrow: bool
    progress: float  # how far along the road: tile number plus the row's share of the tile


@dataclass(frozen=True, eq=False)
class Board:
    """One laid road, shared by every state of a game (and by games on the same road)."""

    kit: Kit
    road: tuple[int, ...]
    spaces: dict[str, Space]
    pits: tuple[int, ...]
    maps: tuple[SpaceMap, ...]
    back_rows: dict[int, tuple[Space, ...]]  # per tile, its back row from left to right
    # What players' hints derive from this road once (a table by name), so a look-ahead does not
    # work it out again for every position it rates. Not compared, not pickled (rebuilt with the road).
    derived: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled as the road it is (the purity check pickles every state): rebuilt from the kit.
        return (board_of, (self.kit, self.road))

    def back_row(self, tile: int) -> tuple[Space, ...]:
        return self.back_rows[tile]


def board_of(kit: Kit, road: Sequence[int]) -> Board:
    """The road laid with these sides, built once per kit."""
    key = tuple(road)
    board: Board | None = kit.roads.get(key)
    if board is None:
        board = kit.roads[key] = _build(kit, key)
    return board


def _build(kit: Kit, road: tuple[int, ...]) -> Board:
    maps = [kit.sides[n] for n in road]
    at_ids = [_at_ids(m) for m in maps]  # per tile: (lane, row) -> its space
    spaces: dict[str, Space] = {}
    for t, side in enumerate(road, 1):
        for sp, seams in _tile(kit, side, t):
            if seams:  # its links across a seam depend on the tiles beside it
                links = list(sp.links)
                for i, target in seams:
                    links[i] = _resolve_link(target, t, maps, (), at_ids)
                sp = _space(kit, side, sp, tuple(links))
            spaces[sp.id] = sp
    rows: dict[int, list[Space]] = {t: [] for t in range(1, len(maps) + 1)}
    for sp in spaces.values():
        if sp.row == 0:
            rows[sp.tile].append(sp)
    back_rows = {t: tuple(sorted(row, key=lambda sp: sp.lane)) for t, row in rows.items()}
    return Board(kit, road, spaces, PIT_TILES[len(road)], tuple(maps), back_rows)


def _at_ids(m: SpaceMap) -> dict[tuple[int, ...], str]:
    return {tuple(s.at): s.id for s in m.spaces}


def _tile(kit: Kit, side: int, t: int) -> tuple[tuple[Space, tuple[tuple[int, str], ...]], ...]:
    """The side laid as tile `t`: each space (its links on the tile named, those across a seam left
    as the map gives them) with its links across a seam (index, target). Made once per kit, so a
    new road shares the spaces it can with the roads laid before (spaces are immutable)."""
    key = (side, t)
    found = kit.tiles.get(key)
    if found is None:
        m = kit.sides[side]
        local = {s.id: f"{t}:{s.id}" for s in m.spaces}
        made = []
        for s in m.spaces:
            links = tuple(local.get(x) or (OFF if x == "off" else x) for x in s.links)
            seams = tuple((i, x) for i, x in enumerate(s.links) if x not in local and x != "off")
            lane, row = s.at
            made.append((Space(local[s.id], t, s.id, lane, row, s.terrain, links, frozenset(s.walls), s.arrow,
                               t + (row + 0.5) / m.rows), seams))
        found = kit.tiles[key] = tuple(made)
    return found


def _space(kit: Kit, side: int, sp: Space, links: tuple[str, ...]) -> Space:
    """`sp`, a space of `side`, with these links: made once per kit (a side meets the same few sides
    at its seams)."""
    key = (side, sp.id, links)
    found = kit.tiles.get(key)
    if found is None:
        found = kit.tiles[key] = replace(sp, links=links)
    return found


def _resolve_link(target: str, tile: int, maps: list[SpaceMap], local: Collection[str],
                  at_ids: list[dict[tuple[int, ...], str]]) -> str:
    if target == "off":
        return OFF
    if target in local:
        return f"{tile}:{target}"
    kind, _, lane_text = target.partition(":")
    lane = int(lane_text)
    if kind == "next":
        if tile == len(maps):
            return FINISH
        ids = at_ids[tile]
        return f"{tile + 1}:{ids[(lane, 0)]}" if (lane, 0) in ids else OFF
    if tile == 1:
        return OFF  # behind the starting tile: off the board's rear edge
    ids, rows = at_ids[tile - 2], maps[tile - 2].rows
    return f"{tile - 1}:{ids[(lane, rows - 1)]}" if (lane, rows - 1) in ids else OFF


# ruling: curved-tile-neighbours (six directions, rows ahead and behind; never the spaces beside)
_INDEX = {d: i for i, d in enumerate(DIRECTIONS)}


def link(board: Board, space: str, direction: str) -> str:
    return board.spaces[space].links[_INDEX[direction]]


def walk(board: Board, space: str, direction: str, n: int) -> str:
    """Where a jump of `n` spaces in one direction lands, ignoring the spaces between: OFF or FINISH
    as soon as the line leaves the road."""
    here = space
    for _ in range(n):
        here = link(board, here, direction)
        if here in (OFF, FINISH):
            return here
    return here


# ruling: barricade-diagonals
def crosses_barricade(board: Board, origin: str, direction: str, target: str) -> bool:
    """A one-space move crosses a barricade along the front edge it leaves by, or the back edge it
    enters by (and the reverse going backward)."""
    here = board.spaces[origin]
    there = board.spaces.get(target)
    if not here.walls and (there is None or not there.walls):
        return False  # most spaces have no barricade: the common case first
    if direction in FORWARD:
        return "front" in here.walls or (there is not None and "back" in there.walls)
    return "back" in here.walls or (there is not None and "front" in there.walls)
