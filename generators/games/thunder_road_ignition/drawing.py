"""Thunder Road: Ignition: a state as a deterministic SVG: the tiles in play laid edge to edge, from the
same maps the print kit draws, with the cars, the pits, the starting area and the finish line."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from generators.content import geometry
from generators.content.geometry import Box
from generators.content.model import SpaceMap
from generators.games.thunder_road_ignition.facts import FINISHED, START
from generators.games.thunder_road_ignition.state import Car, State, terrain
from generators.rules import svg as draw
from generators.rules.contract import Drawing

UNIT = 40.0  # pixels per lane width: a space holds its name, its terrain mark and a car side by side
MIN_WIDTH = 340.0  # room for the caption
CAPTION_LINES = 6  # at most, wrapped: turn, who chooses, dice, the starting area and the finished cars
AROUND = 1.2  # lanes of road shown around what an example changes (the zoom)
# A space's id must fit its lane: where a drawing is so wide that 10 px on a phone would need more,
# its text stays at this size (smaller than 10 px on a phone; the lightbox shows it full size).
MAX_TEXT = 12.0
TERRAIN_FILL = {"road": "#9aa1a6", "off-road": "#a5c882", "oil-slick": "#3b3b3b", "rubble": "#b08d74",
                "minefield": "#e57373", "omni-ramp": "#f0a531", "impassable": "#37474f", "hazard": "#c9b458"}
TERRAIN_MARK = {"oil-slick": "OIL", "rubble": "RUB", "minefield": "MINE", "omni-ramp": "RAMP", "impassable": "X",
                "hazard": "?", "off-road": ""}
CREW_FILL = {"red": "#b71c1c", "blue": "#0d47a1", "green": "#1b5e20", "yellow": "#8a6d00"}
CAR_LENGTH = {"small": 0.46, "medium": 0.62, "large": 0.78}


@dataclass(frozen=True)
class _Piece:
    tile: int
    m: SpaceMap
    place: geometry.Placement


def _shown_tiles(state: State) -> list[int]:
    """The stretch of road worth drawing: from the rearmost car (or the start) to one tile past the
    frontmost, and the finish line when the last tile is shown."""
    n = len(state.board.road)
    tiles = [state.board.spaces[c.at].tile for c in state.cars.values() if c.at in state.board.spaces]
    tiles += [int(c.at[4:]) for c in state.cars.values() if c.at.startswith("pit:")]
    if not tiles:
        tiles = [1]
    lo, hi = min(tiles), min(n, max(tiles) + 1)
    return list(range(lo, hi + 1))


def _all_pieces(state: State) -> list[_Piece]:
    """Every road tile laid edge to edge from the first: one frame for every state of a game, so a
    car's place compares between two drawings."""
    maps = list(state.board.maps)
    return [_Piece(t, m, p) for t, m, p in zip(range(1, len(maps) + 1), maps, geometry.chain(maps), strict=True)]


@functools.lru_cache(maxsize=256)
def _outlines(m: SpaceMap, place: geometry.Placement, inset: float = 0.0) -> dict[str, tuple[tuple[float, float], ...]]:
    """Each space's outline laid on the shared plane. Every drawing of a game places the same tiles
    the same way, so this is worked out once per tile and placement, not once per drawing."""
    return {s.id: tuple(place.apply(q) for q in geometry.outline(m, s, inset)) for s in m.spaces}


def _tile_box(pc: _Piece) -> Box:
    pts = [q for outline in _outlines(pc.m, pc.place).values() for q in outline]
    xs, ys = [p[0] for p in pts], [-p[1] for p in pts]
    return Box.spanning(min(xs), min(ys), max(xs), max(ys))


def _focus_tiles(state: State, focus: draw.Focus | None) -> list[int]:
    """The tiles a drawing shows: with a focus, those under its window (one tile of road either side
    for context); else the stretch from the rearmost car to the frontmost."""
    if focus is None or focus.window is None:
        return _shown_tiles(state)
    window = focus.window.pad(0.5)
    hit = [pc.tile for pc in _all_pieces(state) if _overlap(_tile_box(pc), window)] or _shown_tiles(state)
    return list(range(min(hit), max(hit) + 1))


def _overlap(a: Box, b: Box) -> bool:
    return a.x < b.x1 and b.x < a.x1 and a.y < b.y1 and b.y < a.y1


def _car_points(state: State, pieces: list[_Piece]) -> dict[str, tuple[float, float]]:
    """Where each car is drawn, in road units (before the nudge that separates cars sharing a space)."""
    by_tile = {pc.tile: pc for pc in pieces}
    out: dict[str, tuple[float, float]] = {}
    waiting: dict[str, int] = {}
    for car in sorted(state.cars.values(), key=lambda c: c.id):
        if car.at in state.board.spaces:
            sp = state.board.spaces[car.at]
            if sp.tile in by_tile:
                pc = by_tile[sp.tile]
                local = next(s for s in pc.m.spaces if s.id == sp.local)
                out[car.id] = pc.place.apply(geometry.centre(pc.m, local))
            continue
        k = waiting.get(car.at, 0)
        waiting[car.at] = k + 1
        if car.at == START and 1 in by_tile:
            out[car.id] = _start_point(by_tile[1], k)
        elif car.at == FINISHED and len(state.board.road) in by_tile:
            out[car.id] = _finish_point(by_tile[len(state.board.road)], k)
        elif car.at.startswith("pit:") and int(car.at[4:]) in by_tile:
            out[car.id] = _pit_side(by_tile[int(car.at[4:])], k)
    return out


def _where_words(at: str) -> str:
    if at == START:
        return "the starting area"
    if at == FINISHED:
        return "past the finish"
    if at.startswith("pit:"):
        return f"pit {at[4:]}"
    return f"space {at}"


def pieces(state: State) -> list[draw.Piece]:
    """The cars, in road units (y upward in the road's frame, flipped here so it grows down the page)."""
    points = _car_points(state, _all_pieces(state))
    out = []
    for car in sorted(state.cars.values(), key=lambda c: c.id):
        if car.id in points:
            x, y = points[car.id]
            out.append(draw.Piece(car.id, f"crew-{car.crew}", f"{car.crew}'s {car.size} car", _where_words(car.at),
                                  x, -y, 0.6, health=-len(car.tokens), unit="damage",
                                  on="at" if car.at in (START, FINISHED) or car.at.startswith("pit:") else "on"))
    return out


def legend() -> list[draw.Swatch]:
    def car(crew: str, size: str) -> Any:
        def paint(svg: draw.Svg, cx: float, cy: float, n: float) -> None:
            _car_shape(svg, Car(f"{crew}-{size}", crew, size, START), (cx, cy), (0.0, -1.0))
        return paint

    out = [draw.swatch(f"crew-{crew}", f"{crew} crew's car (S, M, L: its size; a dot per damage token)",
                       car(crew, "medium")) for crew in sorted(CREW_FILL)]
    return out


def _frame(state: State, focus: draw.Focus | None, pieces: list[_Piece]) -> tuple[float, float, float, float]:
    """The part of the plane drawn (road units, y up): the tiles shown, or with a focus only the road
    around its window (tight, so the text reads on a phone), at least MIN_WIDTH wide."""
    world = [q for pc in pieces for outline in _outlines(pc.m, pc.place).values() for q in outline]
    extra = _around(state, pieces)
    xs = [p[0] for p in world + extra]
    ys = [p[1] for p in world + extra]
    pad = 1.2
    x0, x1, y0, y1 = min(xs) - pad, max(xs) + pad, min(ys) - pad, max(ys) + pad
    if focus is not None and focus.window is not None:
        w = focus.window.pad(AROUND)  # its y grows down the page: the plane's y is its negative
        x0, x1, y0, y1 = max(x0, w.x), min(x1, w.x1), max(y0, -w.y1), min(y1, -w.y)
    grow = max(0.0, MIN_WIDTH / UNIT - (x1 - x0)) / 2
    return x0 - grow, x1 + grow, y0, y1


def draw_state(state: State, focus: draw.Focus | None = None) -> str:
    tiles = _focus_tiles(state, focus)
    every = _all_pieces(state)
    pieces = [every[t - 1] for t in tiles]
    x0, x1, y0, y1 = _frame(state, focus, pieces)
    width = (x1 - x0) * UNIT
    text = min(draw.readable(width), MAX_TEXT)
    lines = [ln for line in _caption(state) for ln in draw.wrap(line, width - 16, text * 1.1)]
    if focus is not None and len(lines) > CAPTION_LINES:  # one height for an example's drawings
        lines = [*lines[:CAPTION_LINES - 1], draw.fit(" ".join(lines[CAPTION_LINES - 1:]), width - 16, text * 1.1)]
    step = text * 1.35
    head = 8.0 + step * (len(lines) if focus is None else CAPTION_LINES)
    svg = draw.Svg(width, (y1 - y0) * UNIT + head, "Thunder Road: Ignition", min_text=text, paper="#f7f3ea")

    def pt(p: tuple[float, float]) -> tuple[float, float]:
        return ((p[0] - x0) * UNIT, head + (y1 - p[1]) * UNIT)

    placed: dict[str, _Placed] = {}
    for pc in pieces:
        placed |= _draw_piece(svg, state, pc, pt)
    _draw_places(svg, state, pieces, pt)
    _draw_cars(svg, state, pieces, pt, placed)
    draw.overlay(svg, focus, lambda p: pt((p[0], -p[1])), UNIT)
    svg.rect(0, 0, svg.width, head, "#f7f3ea")  # the caption over any road drawn under it
    for i, line in enumerate(lines):
        svg.text(8, 4 + step * (i + 1), line, size=12, anchor="start", weight="bold" if i == 0 else None)
    return svg.render()


WAITING_WORDS = {"turn": "a command or a move", "move": "a move", "slipstream-car": "the car to slipstream",
                 "enter": "the entry space", "exit-pit": "where to leave the pit", "step": "the next step",
                 "continue": "keep moving or stop", "bonus": "the road bonus", "drift": "drift past or slam",
                 "reroll": "reroll the slam or keep it", "shoot": "a target", "missile-target": "the missile's target",
                 "set-aside": "the die for the finished car"}


def _caption(state: State) -> list[str]:
    if state.winner:
        return [f"{state.winner} wins (round {state.round})"]
    d = state.decision
    lines = [f"Round {state.round}, turn {state.turn}: {state.active}'s turn"]
    if d is not None:
        lines.append(f"{d.player} to choose {WAITING_WORDS.get(d.kind, d.kind)}")
    lines.append("dice: " + " · ".join(f"{c.name} {' '.join(map(str, c.dice)) or '-'}" for c in state.crews.values()))
    shown = _shown_tiles(state)
    for where, label, tile in ((START, "starting area", 1), (FINISHED, "finished", len(state.board.road))):
        cars = [c.id for c in state.cars.values() if c.at == where]
        if cars and tile not in shown:
            lines.append(f"{label}: {', '.join(cars)}")
    return lines


def _frame_point(pc: _Piece, frame: geometry.Frame, right: float, fwd: float) -> tuple[float, float]:
    fx, fy = frame.forward
    rx, ry = fy, -fx
    x, y = frame.left
    return pc.place.apply((x + rx * right + fx * fwd, y + ry * right + fy * fwd))


def _pit_point(pc: _Piece) -> tuple[float, float]:
    return _frame_point(pc, geometry.entry(pc.m), -1.1, 1.0)


def _start_point(pc: _Piece, k: int) -> tuple[float, float]:
    return _frame_point(pc, geometry.entry(pc.m), 0.5 + k * 0.75, -0.8)


def _finish_point(pc: _Piece, k: int) -> tuple[float, float]:
    return _frame_point(pc, geometry.exit_(pc.m), 0.5 + k * 0.75, 1.4)


def _around(state: State, pieces: list[_Piece]) -> list[tuple[float, float]]:
    """Points outside the road that get drawn (pits, the starting area, finished cars)."""
    out = []
    for pc in pieces:
        out.append(_pit_point(pc))
        if pc.tile == 1:
            out += [_start_point(pc, 0), _start_point(pc, 6)]
        if pc.tile == len(state.board.road):
            out += [_finish_point(pc, 0), _finish_point(pc, 6)]
    return out


def _draw_piece(svg: draw.Svg, state: State, pc: _Piece, pt: Any) -> dict[str, _Placed]:
    """A tile's spaces with their names and marks; returns where the cars on it go (each space's
    cars placed with its name and mark, so that no car covers them)."""
    placed: dict[str, _Placed] = {}
    for s in pc.m.spaces:
        sid = f"{pc.tile}:{s.id}"
        here = terrain(state, sid)
        poly = [pt(q) for q in _outlines(pc.m, pc.place)[s.id]]
        svg.polygon(poly, TERRAIN_FILL.get(here, "#cccccc"), "#555555")
        if here == "impassable":
            inner = [pt(q) for q in _outlines(pc.m, pc.place, 0.08)[s.id]]
            svg.polygon(inner, "none", "#f2c200")
        mark = TERRAIN_MARK.get(here, "")
        cars = sorted((c for c in state.cars.values() if c.at == sid), key=lambda c: c.id)
        fx, fy = pc.place.turn(geometry.heading(pc.m, s.at[1] + 0.5))
        at, (mx, my), cars_at = _label_and_mark(svg, pc, s, poly, sid, mark, pt, cars, (fx, -fy))
        placed |= cars_at
        if sid in state.revealed:  # a hazard turned face up: a frame just inside the space, clear of its text
            inner = [pt(q) for q in _outlines(pc.m, pc.place, 0.05)[s.id]]
            for a, b in zip(inner, (*inner[1:], inner[0]), strict=True):
                svg.line(a[0], a[1], b[0], b[1], "#8d6e00", 2)
        if mark:
            svg.text(mx, my + max(MARK_SIZE, svg.min_text) * 0.35, mark, size=MARK_SIZE,
                     fill="#ffffff" if here in ("oil-slick", "impassable") else "#1b1b1b", weight="bold")
        size = max(LABEL_SIZE, svg.min_text)
        svg.text(at[0], at[1] + size * 0.35, sid, size=LABEL_SIZE, fill="#333333")
        for which in s.walls:
            a, b = (pt(pc.place.apply(q)) for q in geometry.edge(pc.m, s, which))
            svg.line(a[0], a[1], b[0], b[1], "#1b1b1b", 6)
            svg.line(a[0], a[1], b[0], b[1], "#f2c200", 3, dash="5 5")
    if pc.tile in state.board.pits:
        x, y = pt(_pit_point(pc))
        svg.circle(x, y, UNIT * 0.42, "#00695c")
        svg.text(x, y + 4, f"PIT {pc.tile}", size=9, fill="#ffffff", weight="bold")
    a = pt(_frame_point(pc, geometry.entry(pc.m), 0, 0))
    b = pt(_frame_point(pc, geometry.entry(pc.m), pc.m.lanes, 0))
    svg.line(a[0], a[1], b[0], b[1], "#1b1b1b", 2.5)
    return placed


LABEL_SIZE, MARK_SIZE = 7.0, 10.0
# Where in a space its id and its terrain mark may sit: (forward from the back edge, across from the
# left), as fractions of the space; the id prefers the back, the mark the middle.
LABEL_SPOTS = [(t, u) for t in (0.22, 0.78, 0.5, 0.35, 0.65, 0.15) for u in (0.5, 0.25, 0.75, 0.15, 0.85)]
MARK_SPOTS = [(t, u) for t in (0.5, 0.7, 0.3, 0.45, 0.55) for u in (0.5, 0.3, 0.7)]


# Where a car may sit in a space it shares with its name (and mark), front first, then to a side;
# and how far its token may shrink (of its full size) to leave them clear.
CAR_SPOTS = [(0.68, 0.5), (0.74, 0.5), (0.62, 0.5), (0.68, 0.28), (0.68, 0.72), (0.5, 0.5), (0.4, 0.5),
             *((t, u) for u in (0.84, 0.16) for t in (0.5, 0.75, 0.25)), (0.85, 0.5), (0.85, 0.3), (0.85, 0.7)]
SHARED_SPOTS = [(0.68, 0.28), (0.68, 0.72), (0.45, 0.28), (0.45, 0.72), *CAR_SPOTS]  # cars sharing a space
CAR_SCALES = (1.0, 0.82, 0.66, 0.5)
_Placed = tuple[tuple[float, float], tuple[float, float], float]  # a car's centre, heading (pixels) and scale


def _label_and_mark(svg: draw.Svg, pc: _Piece, s: Any, poly: list[tuple[float, float]], sid: str, mark: str,
                    pt: Any, cars: list[Car], heading: tuple[float, float],
                    ) -> tuple[tuple[float, float], tuple[float, float], dict[str, _Placed]]:
    """Where a space's id and its terrain mark are centred, and where each car on it goes: each inside
    the space and clear of the others, the id as near the back edge as that allows, a car as near
    the front and as large as that allows."""
    back, front = geometry.edge(pc.m, s, "back"), geometry.edge(pc.m, s, "front")

    def spot(t: float, u: float) -> tuple[float, float]:
        a = [back[0][k] + (back[1][k] - back[0][k]) * u for k in (0, 1)]
        b = [front[0][k] + (front[1][k] - front[0][k]) * u for k in (0, 1)]
        return pt(pc.place.apply((a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)))

    label, mark_size = max(LABEL_SIZE, svg.min_text), max(MARK_SIZE, svg.min_text)

    def box(x: float, y: float, text: str, size: float, bold: bool) -> Box:
        return draw.text_box(x, y + size * 0.35, text, size, weight="bold" if bold else None)

    def outside(b: Box) -> int:
        return sum(not draw.inside("polygon", tuple(poly), x, y) for x in (b.x, b.x1) for y in (b.y, b.y1))

    def meet(b: Box, o: Box) -> float:
        return max(0.0, min(b.x1, o.x1) - max(b.x, o.x)) * max(0.0, min(b.y1, o.y1) - max(b.y, o.y))

    spots = CAR_SPOTS if len(cars) == 1 else SHARED_SPOTS

    def place_cars(scale: float, first: int) -> tuple[dict[str, _Placed], list[Box], float]:
        """The first car at spot `first`, each other at the first spot inside the space and clear of
        the cars placed before it; and the cost of where they went (1000 and over: a car on another)."""
        out: dict[str, _Placed] = {}
        boxes: list[Box] = []
        total = 0.0
        for n, car in enumerate(cars):
            options = []
            for i in [first] if n == 0 else range(len(spots)):
                b = _car_box(car, spot(*spots[i]), heading, scale)
                options.append((i + 100 * outside(b) + (1000 if any(meet(b, o) for o in boxes) else 0), i, b))
            cost, i, b = min(options)
            out[car.id] = (spot(*spots[i]), heading, scale)
            boxes.append(b)
            total += cost
        return out, boxes, total

    # The texts' places do not depend on the cars: worked out once, with what each costs alone.
    marks: list[tuple[float, tuple[float, float], Box | None]] = [
        (i + 50 * outside(b), m, b) for i, m in enumerate(spot(t, u) for t, u in MARK_SPOTS)
        for b in [box(*m, mark, mark_size, True)]] if mark else [(0, spot(0.5, 0.5), None)]
    labels = [(j + 100 * outside(b), at, b) for j, at in enumerate(spot(t, u) for t, u in LABEL_SPOTS)
              for b in [box(*at, sid, label, False)]]
    best: tuple[float, tuple[float, float], tuple[float, float], dict[str, _Placed]] | None = None
    layouts = [(scale, first) for scale in CAR_SCALES for first in range(len(spots))] if cars else [(1.0, 0)]
    for scale, first in layouts:
        cars_at, car_boxes, cost_cars = place_cars(scale, first)
        if best is not None and cost_cars >= best[0]:
            continue
        for alone, m, mb in marks:
            taken = [mb] if mb is not None else []
            cost_mark = alone + cost_cars + sum(1000 + meet(mb, c) for c in car_boxes if mb is not None and meet(mb, c))
            if best is not None and cost_mark >= best[0]:
                continue
            for cost_label, at, lb in labels:
                clash = sum(meet(lb, o) for o in taken + car_boxes)
                cost = cost_mark + cost_label + (1000 + clash if clash else 0)
                if best is None or cost < best[0]:
                    best = (cost, at, m, cars_at)
        if best is not None and best[0] < 100:
            break  # the largest cars nearest the front that leave the name and mark clear, inside the space
    assert best is not None
    return best[1], best[2], best[3]


def _car_corners(car: Car, centre: tuple[float, float], heading: tuple[float, float],
                 scale: float = 1.0) -> list[tuple[float, float]]:
    length, width = CAR_LENGTH[car.size] * UNIT * scale, 0.42 * UNIT * max(scale, 0.6)
    length = max(length, width)  # never shorter than wide: its letter fits
    hx, hy = heading
    px, py = -hy, hx
    cx, cy = centre
    return [(cx + hx * length / 2 * a + px * width / 2 * b, cy + hy * length / 2 * a + py * width / 2 * b)
            for a, b in ((1, 1), (1, -1), (-1, -1), (-1, 1))]


def _car_box(car: Car, centre: tuple[float, float], heading: tuple[float, float], scale: float) -> Box:
    pts = _car_corners(car, centre, heading, scale)
    return Box.spanning(min(p[0] for p in pts), min(p[1] for p in pts), max(p[0] for p in pts),
                        max(p[1] for p in pts))


def _draw_places(svg: draw.Svg, state: State, pieces: list[_Piece], pt: Any) -> None:
    last = pieces[-1]
    if last.tile == len(state.board.road):
        a = pt(_frame_point(last, geometry.exit_(last.m), 0, 0))
        b = pt(_frame_point(last, geometry.exit_(last.m), last.m.lanes, 0))
        svg.line(a[0], a[1], b[0], b[1], "#1b1b1b", 8)
        svg.line(a[0], a[1], b[0], b[1], "#ffffff", 8, dash="8 8")
        x, y = pt(_frame_point(last, geometry.exit_(last.m), last.m.lanes / 2, 0.6))
        svg.text(x, y, "FINISH", size=11, weight="bold")
    if pieces[0].tile == 1:
        x, y = pt(_frame_point(pieces[0], geometry.entry(pieces[0].m), pieces[0].m.lanes / 2, -0.3))
        svg.text(x, y, "starting area", size=10, fill="#555555")


def _car_shape(svg: draw.Svg, car: Car, centre: tuple[float, float], heading: tuple[float, float],
               scale: float = 1.0) -> None:
    svg.polygon(_car_corners(car, centre, heading, scale), CREW_FILL.get(car.crew, "#777777"), "#ffffff")
    label = car.size[0].upper() + ("·" * len(car.tokens))
    svg.text(centre[0], centre[1] + 4, label, size=11, fill="#ffffff", weight="bold")


def _draw_cars(svg: draw.Svg, state: State, pieces: list[_Piece], pt: Any, placed: dict[str, _Placed]) -> None:
    waiting: dict[str, int] = {}
    for car in sorted(state.cars.values(), key=lambda c: c.id):
        if car.at in state.board.spaces:
            if car.id in placed:  # else off the zoomed stretch of road
                _car_shape(svg, car, *placed[car.id])
            continue
        if car.at == START:
            if pieces[0].tile != 1:
                continue  # listed in the caption
            pc, where = pieces[0], _start_point
        elif car.at == FINISHED:
            if pieces[-1].tile != len(state.board.road):
                continue
            pc, where = pieces[-1], _finish_point
        else:
            by_tile = {p.tile: p for p in pieces}
            if int(car.at[4:]) not in by_tile:
                continue
            pc, where = by_tile[int(car.at[4:])], _pit_side
        k = waiting.get(f"{car.at}", 0)
        waiting[car.at] = k + 1
        cx, cy = pt(where(pc, k))
        _car_shape(svg, car, (cx, cy), (0.0, -1.0))


def _pit_side(pc: _Piece, k: int) -> tuple[float, float]:
    return _frame_point(pc, geometry.entry(pc.m), -1.1, 1.9 + k * 0.8)


DRAWING: Drawing[State] = Drawing(svg=draw_state, pieces=pieces, legend=legend)
