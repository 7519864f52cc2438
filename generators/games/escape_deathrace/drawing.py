"""Escape Deathrace 2182 Micro: the road, its drops and the cars as a deterministic SVG."""

from __future__ import annotations

import math
from typing import Any

from generators.games.escape_deathrace.facts import DIRS
from generators.games.escape_deathrace.results import result_word
from generators.games.escape_deathrace.state import State, Tile
from generators.games.escape_deathrace.words import tile_ordinal
from generators.rules import svg as draw
from generators.rules.contract import Drawing
from generators.rules.wording import counted

# ---------------------------------------------------------------------------------------------
# Drawing

CELL = 96
KIND_STYLE = {  # fill, label
    "start": ("#d9ead3", "START"),
    "straight": ("#eeeeee", ""),
    "hazard": ("#fce5cd", "HAZARD"),
    "event": ("#d0e0f0", "82"),
    "fire": ("#f4cccc", "FIRE"),
    "nitro-nos": ("#ead1dc", "NOS"),
    "boss": ("#d9d2e9", ""),
    "final-boss": ("#cccccc", "H H H"),
}
ARROWS = {"N": "\u2191", "E": "\u2192", "S": "\u2193", "W": "\u2190"}
LAID_PER_EXAMPLE = 4  # a zoomed drawing makes room for at most this many tiles laid beyond the road
MIN_SHOWN = (3, 2)  # a zoomed drawing shows at least this many tiles across and down: the road around the action
CAR_R = 11.0  # a car's disc, room for its driver's initials
CAR_COLOURS = ("#c0392b", "#2471a3", "#1e8449", "#b9770e")


# Where cars sit on a tile, in pixels from its left edge, first car first: side by side along the
# bottom, under the tile's name (which may take two lines; a boss's HP is over its name).
CAR_SLOTS = tuple(14 + 2.2 * CAR_R * n for n in range(4))
CAR_Y = CELL - 3 - CAR_R  # a car's centre, from the tile's top edge


def _car_spots(s: State) -> dict[str, tuple[float, float]]:
    """Each car on the road, in tile units (x, y of the tile grid; cars sharing a tile side by side)."""
    slots: dict[str, int] = {}
    out = {}
    for name in s.order:
        p = s.players[name]
        if not p.alive or p.tile is None:
            continue
        tile = s.tiles[p.tile]
        n = slots.get(tile.id, 0)
        slots[tile.id] = n + 1
        out[name] = (tile.x + CAR_SLOTS[n % len(CAR_SLOTS)] / CELL, tile.y + CAR_Y / CELL)
    return out


def pieces(s: State) -> list[draw.Piece]:
    """The road tiles, cars and bosses, in tile units (the road is a few tiles: it is always drawn
    whole, in a frame wide enough for every tile an example lays)."""
    out = [draw.Piece(f"tile-{t.id}", "tile", f"road tile {t.id}", "the road", t.x + 0.5, t.y + 0.5, 0.5, on="on")
           for t in sorted(s.tiles.values(), key=lambda t: t.id)]
    for name, (x, y) in _car_spots(s).items():
        p = s.players[name]
        out.append(draw.Piece(f"car-{name}", f"car-{s.order.index(name) % len(CAR_COLOURS)}", f"{name}'s car",
                              f"tile {p.tile}", x, y, CAR_R / CELL, health=p.hp, on="on"))
    for tile in sorted(s.tiles.values(), key=lambda t: t.id):
        if tile.boss is not None:
            out.append(draw.Piece(f"boss-{tile.boss}", "boss", f"the boss {s.box.tiles[tile.face].title}",
                                  f"tile {tile.id}", tile.x + 0.5, tile.y + 0.5, 0.3, health=s.boss_hp[tile.boss],
                                  on="on"))
    return out


def _tile_swatch(svg: draw.Svg, cx: float, cy: float, n: float) -> None:
    svg.rect(1, 1, n - 2, n - 2, "#eeeeee", draw.COLORS["ink"])
    svg.line(1, cy, n - 1, cy, draw.COLORS["lane"], 8)


def legend() -> list[draw.Swatch]:
    def car(i: int) -> Any:
        def paint(svg: draw.Svg, cx: float, cy: float, n: float) -> None:
            svg.circle(cx, cy, 9, CAR_COLOURS[i], draw.COLORS["ink"])
        return paint

    out = [draw.swatch(f"car-{i}", f"car of the {('first', 'second', 'third', 'fourth')[i]} player (its initials)",
                       car(i)) for i in range(len(CAR_COLOURS))]
    out.append(draw.swatch("tile", "road tile: its id top left, the road in grey",
                           _tile_swatch))
    out.append(draw.swatch("boss", "boss tile: its HP left in purple",
                           lambda svg, cx, cy, n: svg.text(cx, cy + 4, "HP", size=12, fill=draw.COLORS["boss"],
                                                           weight="bold")))
    return out


def _span(lo: int, hi: int, least: int, bounds: tuple[int, int]) -> tuple[int, int]:
    """[lo, hi] grown one tile at a time on either side, within `bounds`, until it holds `least` tiles."""
    while hi - lo + 1 < least and (lo > bounds[0] or hi < bounds[1]):
        lo, hi = (lo - 1, hi) if ((hi - lo) % 2 and lo > bounds[0]) or hi >= bounds[1] else (lo, hi + 1)
    return lo, hi


def _shown(s: State, focus: draw.Focus | None) -> tuple[int, int, int, int]:
    """The tiles drawn (min x, max x, min y, max y): the whole road, or with a focus the tiles under
    its window and a little road around them (every tile the example lays included)."""
    tiles = s.tiles.values()
    min_x, max_x = min(t.x for t in tiles), max(t.x for t in tiles)
    min_y, max_y = min(t.y for t in tiles), max(t.y for t in tiles)
    if focus is None or focus.window is None:
        return min_x, max_x, min_y, max_y
    w, n = focus.window, LAID_PER_EXAMPLE
    bx, by = (min_x - n, max_x + n), (min_y - n, max_y + n)
    x0, x1 = _span(max(math.floor(w.x), bx[0]), min(math.ceil(w.x1) - 1, bx[1]), MIN_SHOWN[0], (min_x, max_x))
    y0, y1 = _span(max(math.floor(w.y), by[0]), min(math.ceil(w.y1) - 1, by[1]), MIN_SHOWN[1], (min_y, max_y))
    return x0, x1, y0, y1


def draw_svg(s: State, focus: draw.Focus | None = None) -> str:
    """The laid road (kind, exits, boss HP, drops), the cars and a legend; deterministic. With a
    focus only the tiles around the action, so the text reads on a phone."""
    min_x, max_x, min_y, max_y = _shown(s, focus)
    tiles = sorted((t for t in s.tiles.values() if min_x <= t.x <= max_x and min_y <= t.y <= max_y),
                   key=lambda t: (t.y, t.x, t.id))
    board_h = (max_y - min_y + 1) * CELL
    width = max((max_x - min_x + 1) * CELL + 20, 300)
    svg = draw.Svg(width, board_h + 20, f"Escape Deathrace: {s.turn.player} to play", min_text=draw.readable(width),
                   paper=draw.COLORS["paper"])
    origin = (10 - min_x * CELL, 10 - min_y * CELL)
    for tile in tiles:
        _draw_tile(svg, s, tile, origin)
    _draw_cars(svg, s, origin, tiles)
    svg.height = _draw_legend(svg, s, board_h + 30)
    draw.overlay(svg, focus, lambda p: (origin[0] + p[0] * CELL, origin[1] + p[1] * CELL), CELL)
    return svg.render()


def _draw_tile(svg: draw.Svg, s: State, tile: Tile, origin: tuple[int, int]) -> None:
    x0, y0 = origin[0] + tile.x * CELL, origin[1] + tile.y * CELL
    cx = x0 + CELL / 2
    fill, label = KIND_STYLE[tile.kind]
    if tile.kind == "boss":  # whole, wrapped where long
        label = s.box.tiles[tile.face].title.upper()
    svg.rect(x0 + 2, y0 + 2, CELL - 4, CELL - 4, fill, draw.COLORS["ink"])
    for d in tile.exits:  # road stubs show the exits
        dx, dy = DIRS[d]
        svg.line(cx, y0 + CELL / 2, cx + dx * (CELL / 2 - 2), y0 + CELL / 2 + dy * (CELL / 2 - 2),
                 draw.COLORS["lane"], 14)
    if tile.arrow:
        label = f"{ARROWS[tile.arrow]} NOS {ARROWS[tile.arrow]}"
    # Top to bottom: a line for the tile's ordinal, a boss's HP and the drops; its name (two lines at
    # most); the cars along the bottom (CAR_Y), clear of all of it.
    size = max(10, svg.min_text)
    top = y0 + 4 + size * 0.8
    which = tile_ordinal(s, tile)
    if which:  # the steps say "the 2nd Straight Road tile": the drawing names it the same way
        svg.text(x0 + 6, top, which, size=10, anchor="start")
    if label:  # bold capitals run about a third wider than the average the wrap counts with
        lines = draw.wrap(label, (CELL - 8) / 1.3, size)
        room = max(1, int((y0 + CAR_Y - CAR_R - top - size * 0.25) / (size * 1.25)))  # lines above the cars
        if len(lines) > room:  # a wide road's large text: shortened (the steps name the tile in full)
            lines = [*lines[:room - 1], draw.fit(" ".join(lines[room - 1:]), (CELL - 8) / 1.3, size)]
        for i, line in enumerate(lines):
            svg.text(cx, top + size * 1.25 * (i + 1), line, size=10, weight="bold")
    if tile.boss is not None:
        hp = s.boss_hp[tile.boss]
        svg.text(cx, top, f"{hp}/{s.box.bosses[tile.boss]} HP" if hp else "defeated", size=10,
                 fill=draw.COLORS["boss"], weight="bold")
    for i, drop in enumerate(sorted(d.kind for d in s.board if d.tile == tile.id)):
        svg.text(x0 + CELL - 6, top + (size + 2) * i, drop, size=9, anchor="end",
                 fill=draw.COLORS["enemy"])


def _draw_cars(svg: draw.Svg, s: State, origin: tuple[int, int], shown: list[Tile]) -> None:
    spots = _car_spots(s)  # the same places the zoom and the change marks use
    on = {t.id for t in shown}
    for i, name in enumerate(s.order):
        if name not in spots or s.players[name].tile not in on:
            continue
        x, y = origin[0] + spots[name][0] * CELL, origin[1] + spots[name][1] * CELL
        svg.circle(x, y, CAR_R, CAR_COLOURS[i % len(CAR_COLOURS)], draw.COLORS["ink"])
        svg.text(x, y + 4, name[:2], size=9, fill=draw.COLORS["paper"], weight="bold")


def _draw_legend(svg: draw.Svg, s: State, top: float) -> float:
    """Whose turn, then two lines for each player's car (so every state of an example is drawn the
    same height), each fitted to the drawing's width; returns the bottom."""
    head = f"Round {s.round}, turn: {s.turn.player} ({s.turn.phase})"
    if s.ended:
        head = f"Race over: {result_word(s)} escaped" if s.winner else f"Race over: nobody escaped ({s.ended})"
    inner, step = svg.width - 20, svg.min_text * 1.35
    svg.text(10, top, draw.fit(head, inner, 12), size=12, anchor="start", weight="bold")
    y = top
    for i, name in enumerate(s.order):
        p = s.players[name]
        status = f"{p.hp} HP" if p.alive else "out"
        title = s.box.characters[p.character].title
        colour = CAR_COLOURS[i % len(CAR_COLOURS)]
        # the side a car entered a hazard by is said here, not under the car: its tile has no room for it
        side = f"; in the hazard from side {p.hazard_side}" if p.hazard_side else ""
        drops = draw.fit_list("drops", [f"{k} {n}" for k, n in p.drops.items() if n],
                              inner - len(side) * 11 * draw.CHAR_WIDTH, 11, "none")
        lines = [draw.fit(f"{name} ({title}): {status}; {counted(len(p.power), 'power card')}", inner, 11),
                 drops + side]
        for line in lines:
            y += step
            svg.text(10, y, line, size=11, anchor="start", fill=colour)
    return y + 10


DRAWING = Drawing(svg=draw_svg, pieces=pieces, legend=legend)
