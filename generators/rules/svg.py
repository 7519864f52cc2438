"""Small SVG helpers shared by the games' `draw_svg` functions.

Output must be byte-identical for the same state (the site and the report diff it), so numbers go
through one formatter, attributes keep a fixed order, and every piece of text is XML-escaped (labels
come from user-edited scenarios).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from generators.content import contrast as rgb
from generators.content.geometry import Box

# Side colours: enemies red, civilians blue/grey, the hero gold (the brief's convention).
COLORS = {
    "enemy": "#c0392b",
    "civilian": "#5b7fa6",
    "civilian-outline": "#7f8c8d",
    "hero": "#d4a017",
    "road": "#4d4d4d",
    "lane": "#9a9a9a",
    "paper": "#ffffff",
    "ink": "#1b1b1b",
    "boss": "#6c3483",
    "vulnerable": "#f1c40f",
    "damage": "#111111",
    "uplink": "#17a2b8",
    "rocket": "#e67e22",
    "drone": "#16a085",
    "muted": "#bdbdbd",
}


# The site shows a drawing no wider than a phone's text column: 358 CSS px at a 390 px screen, 332 px
# inside the fold of an example's positions in between (measured in Chromium). Text reads there at
# MIN_TEXT_PX or more when its size in drawing units is at least `readable(width)`.
PHONE_COLUMN = 330.0
MIN_TEXT_PX = 10.0
CHAR_WIDTH = 0.52  # a sans-serif character's average advance, in font sizes (bold a little wider)


def readable(width: float) -> float:
    """The smallest font size (drawing units) that reads at MIN_TEXT_PX on a phone in a drawing
    `width` units wide (such a drawing is shown PHONE_COLUMN px wide)."""
    return math.ceil(MIN_TEXT_PX * max(width, PHONE_COLUMN) / PHONE_COLUMN * 10) / 10  # up: never a hair under


def _chars(width: float, size: float) -> int:
    """How many average characters fit `width` units at font `size` (at least one)."""
    return max(1, int(width / (size * CHAR_WIDTH)))


def wrap(text: str, width: float, size: float) -> list[str]:
    """`text` broken at spaces into lines no wider than `width` units at font `size` (a longer
    single word stays whole on its line)."""
    most = _chars(width, size)
    lines: list[str] = []
    for word in text.split(" "):
        if lines and len(lines[-1]) + 1 + len(word) <= most:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


def fit(text: str, width: float, size: float) -> str:
    """`text` shortened with an ellipsis to fit `width` units at font `size` (an abbreviation: the
    full words are in the steps and alt text)."""
    most = _chars(width, size)
    return text if len(text) <= most else text[:most - 1].rstrip() + "…"


def fit_list(label: str, items: Sequence[str], width: float, size: float, empty: str = "—") -> str:
    """"label: a, b, c" on one line of `width` units; where it is too long, as many items as fit and
    how many more ("label: a, b +3 more"), so a line's height never depends on a list's length."""
    most = _chars(width, size)
    if not items:
        return f"{label}: {empty}"
    for n in range(len(items), 0, -1):
        more = f" +{len(items) - n} more" if n < len(items) else ""
        line = f"{label}: {', '.join(items[:n])}{more}"
        if len(line) <= most:
            return line
    return fit(f"{label}: +{len(items)} ({', '.join(items)})", width, size)


def num(value: float) -> str:
    """One number format for the whole file: integers bare, others with at most two decimals."""
    value = round(float(value), 2)
    if value.is_integer():
        return str(int(value))
    return f"{value:.2f}".rstrip("0").rstrip(".")


def esc(text: object) -> str:
    """Escape text for use in element content and in double-quoted attributes."""
    return (
        str(text)
        .replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("'", "&#39;")
    )


def text_box(x: float, y: float, text: str, size: float, anchor: str = "middle", weight: str | None = None) -> Box:
    """Where a line of text drawn at baseline (x, y) sits, estimated from its characters' average
    advance (bold a tenth wider): from its cap height to its descenders."""
    w = len(text) * size * CHAR_WIDTH * (1.1 if weight == "bold" else 1.0)
    left = x - w / 2 if anchor == "middle" else (x - w if anchor == "end" else x)
    return Box(left, y - size * 0.78, w, size)


def overlaps(a: Box, b: Box) -> bool:
    return a.x < b.x1 and b.x < a.x1 and a.y < b.y1 and b.y < a.y1


def inside(kind: str, shape: tuple[Any, ...], x: float, y: float) -> bool:
    """Whether (x, y) lies in a shape as `Svg.filled` notes it."""
    if kind == "rect":
        sx, sy, w, h = shape
        return bool(sx <= x <= sx + w and sy <= y <= sy + h)
    if kind == "circle":
        cx, cy, r = shape
        return bool((x - cx) ** 2 + (y - cy) ** 2 <= r * r)
    hit = False  # a polygon: count the edges a ray to the right crosses
    for (x0, y0), (x1, y1) in zip(shape, (*shape[1:], shape[0]), strict=True):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            hit = not hit
    return hit


def legible(fill: str, under: str) -> str:
    """A text colour that reads at 4.5:1 on `under`: `fill` itself where it does, else moved towards
    black or white just far enough (a dark label on a dark oil slick turns light)."""
    if not (fill.startswith("#") and under.startswith("#")):
        return fill
    moved = rgb.readable(rgb.from_hex(fill), rgb.from_hex(under))
    return fill if moved is None else rgb.to_hex(moved)


class Svg:
    """An SVG document built element by element, in drawing order."""

    def __init__(self, width: float, height: float, title: str = "", min_text: float = 0.0, paper: str | None = None):
        self.width = width
        self.height = height  # may grow while drawing (wrapped text): the paper and the document follow it
        self.title = title
        self.min_text = min_text  # no text is drawn smaller (see `readable`)
        self.paper = paper  # a background over the whole document, drawn first
        self.items: list[str] = []
        self.text_boxes: list[Box] = []  # where each text sits (estimated), so marks can keep clear of it
        self.texts: list[tuple[Box, str, str]] = []  # each text's box, element and the colour under it
        self.fills: list[tuple[str, tuple[Any, ...], str]] = []  # solid shapes so far: what text lands on
        self.strokes: list[tuple[tuple[float, float], tuple[float, float], float]] = []  # arrows: ends, width

    def element(self, tag: str, attrs: dict[str, object], text: str | None = None) -> None:
        parts = [tag]
        for key, value in attrs.items():
            if value is None:
                continue
            shown = num(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else esc(value)
            parts.append(f'{key}="{shown}"')
        opening = "<" + " ".join(parts)
        self.items.append(f"{opening}/>" if text is None else f"{opening}>{esc(text)}</{tag}>")

    def rect(self, x: float, y: float, w: float, h: float, fill: str, stroke: str | None = None,
             rx: float = 0, width: float = 1, dash: str | None = None) -> None:
        self.element("rect", {"x": x, "y": y, "width": w, "height": h, "rx": rx or None, "fill": fill,
                              "stroke": stroke, "stroke-width": width if stroke else None, "stroke-dasharray": dash})
        self.filled("rect", (x, y, w, h), fill)

    def circle(self, cx: float, cy: float, r: float, fill: str, stroke: str | None = None, width: float = 1) -> None:
        self.element("circle", {"cx": cx, "cy": cy, "r": r, "fill": fill, "stroke": stroke,
                                "stroke-width": width if stroke else None})
        self.filled("circle", (cx, cy, r), fill)

    def filled(self, kind: str, shape: tuple[Any, ...], fill: str) -> None:
        """Note a solid shape (rect: x, y, w, h; circle: cx, cy, r; polygon: its points)."""
        if fill.startswith("#"):
            self.fills.append((kind, shape, fill))

    def under(self, x: float, y: float) -> str:
        """The colour a point of the drawing shows: the last solid shape drawn over it, or the paper."""
        for kind, shape, fill in self.fills[::-1]:
            if inside(kind, shape, x, y):
                return fill
        return self.paper or COLORS["paper"]

    def ellipse(self, cx: float, cy: float, rx: float, ry: float, fill: str, stroke: str | None = None) -> None:
        self.element("ellipse", {"cx": cx, "cy": cy, "rx": rx, "ry": ry, "fill": fill, "stroke": stroke})

    def line(self, x1: float, y1: float, x2: float, y2: float, stroke: str, width: float = 1,
             dash: str | None = None) -> None:
        self.element("line", {"x1": x1, "y1": y1, "x2": x2, "y2": y2, "stroke": stroke, "stroke-width": width,
                              "stroke-dasharray": dash})

    def polygon(self, points: list[tuple[float, float]], fill: str, stroke: str | None = None) -> None:
        pts = " ".join(f"{num(x)},{num(y)}" for x, y in points)
        self.element("polygon", {"points": pts, "fill": fill, "stroke": stroke})
        self.filled("polygon", tuple(points), fill)

    def text(self, x: float, y: float, text: object, size: float = 10, anchor: str = "middle",
             fill: str = COLORS["ink"], weight: str | None = None) -> None:
        size = max(size, self.min_text)
        box = text_box(x, y, str(text), size, anchor, weight)
        under = self.under(box.x + box.w / 2, box.y + box.h / 2)
        fill = legible(fill, under)
        self.element("text", {"x": x, "y": y, "font-family": "sans-serif", "font-size": size,
                              "text-anchor": anchor, "fill": fill, "font-weight": weight}, str(text))
        self.text_boxes.append(box)
        self.texts.append((box, self.items[-1], under))

    def lines(self, x: float, y: float, text: str, width: float, size: float, step: float | None = None,
              **style: Any) -> float:
        """`text` wrapped to `width` units, one line under the other from baseline `y`; returns the
        baseline of the next line."""
        size = max(size, self.min_text)
        step = step or size * 1.3
        for line in wrap(text, width, size):
            self.text(x, y, line, size, **style)
            y += step
        return y

    def render(self, view: Box | None = None) -> str:
        """The document; with `view` (pixels), only that part of the drawing: the zoom."""
        x, y, w, h = (view.x, view.y, view.w, view.h) if view else (0, 0, self.width, self.height)
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{num(w)}" height="{num(h)}" '
                f'viewBox="{num(x)} {num(y)} {num(w)} {num(h)}">')
        title = [f"<title>{esc(self.title)}</title>"] if self.title else []
        paper = Svg(w, h)
        if self.paper:
            paper.rect(x, y, w, h, self.paper)
        return "\n".join([head, *title, *paper.items, *self.items, "</svg>"]) + "\n"


@dataclass(frozen=True)
class Grid:
    """A board of `cols` x `rows` square cells; row 0 is drawn at the bottom (nearest the player)."""

    x0: float
    y0: float
    cols: int
    rows: int
    cell: float

    def corner(self, col: int, row: int) -> tuple[float, float]:
        return self.x0 + col * self.cell, self.y0 + (self.rows - 1 - row) * self.cell

    def center(self, col: int, row: int) -> tuple[float, float]:
        x, y = self.corner(col, row)
        return x + self.cell / 2, y + self.cell / 2

    @property
    def width(self) -> float:
        return self.cols * self.cell

    @property
    def height(self) -> float:
        return self.rows * self.cell


def draw_grid(svg: Svg, grid: Grid, board_every: int = 0) -> None:
    """The road surface, dashed lane lines, and a solid line where one road board meets the next."""
    svg.rect(grid.x0, grid.y0, grid.width, grid.height, COLORS["road"])
    for col in range(1, grid.cols):
        x = grid.x0 + col * grid.cell
        svg.line(x, grid.y0, x, grid.y0 + grid.height, COLORS["lane"], 1, dash="4 4")
    for row in range(1, grid.rows):
        y = grid.y0 + row * grid.cell
        solid = board_every and (grid.rows - row) % board_every == 0
        svg.line(grid.x0, y, grid.x0 + grid.width, y, COLORS["paper"] if solid else COLORS["lane"],
                 2 if solid else 0.5, dash=None if solid else "1 3")
    svg.rect(grid.x0, grid.y0, grid.width, grid.height, "none", COLORS["ink"], width=2)


def side_colors(side: str) -> tuple[str, str]:
    """Fill and outline for a vehicle side (enemy, civilian, hero)."""
    fill = COLORS.get(side, COLORS["muted"])
    outline = COLORS["civilian-outline"] if side == "civilian" else COLORS["ink"]
    return fill, outline


def draw_vehicle(svg: Svg, grid: Grid, col: int, row: int, vtype: str, side: str, damaged: bool = False,
                 label: str | None = None) -> None:
    """A top-down vehicle: car = rounded box, motorcycle = slim ellipse, truck = long box with a cab line;
    a damaged truck is drawn dashed with a crack."""
    cx, cy = grid.center(col, row)
    c = grid.cell
    fill, outline = side_colors(side)
    if vtype == "motorcycle":
        svg.ellipse(cx, cy, c * 0.13, c * 0.34, fill, outline)
    elif vtype == "truck":
        w, h = c * 0.6, c * 0.86
        svg.rect(cx - w / 2, cy - h / 2, w, h, fill, outline, rx=2, width=1.5, dash="3 2" if damaged else None)
        svg.line(cx - w / 2, cy - h / 2 + c * 0.22, cx + w / 2, cy - h / 2 + c * 0.22, outline, 1)
        if damaged:
            svg.line(cx - w / 2, cy + h / 2, cx + w / 2, cy - h / 4, COLORS["damage"], 2)
    else:
        w, h = c * 0.5, c * 0.72
        svg.rect(cx - w / 2, cy - h / 2, w, h, fill, outline, rx=c * 0.12, width=1.5)
    if label:
        svg.text(cx, cy + c * 0.12, label, size=c * 0.28, fill=COLORS["paper"], weight="bold")


# --- what changed between two states: focus, arrows, bursts, legend ------------------------------
#
# Each engine lists the pieces of a state (`Engine.pieces`) in its own board units; comparing two
# lists gives the changes (moved, hit, removed, new) in players' words, the window around them (the
# zoom) and the overlay drawn on top of a drawing. Nothing here knows a game.

MARK = {"arrow": "#e6007e", "halo": "#ffffff", "burst": "#ffd23f", "burst-ink": "#b71c1c", "new": "#1565c0"}


@dataclass(frozen=True)
class Piece:
    """One piece on the board as the drawing and the alt text see it. `id` stays the same from state
    to state; `x`, `y` (its centre) and `r` (half its size) are in the engine's board units; `name`
    and `place` are players' words ("the enemy car", "lane 2, row 5"); `health` (higher is better,
    counted in `unit`) and `status` ("damaged", "face down") are what a hit changes."""

    id: str
    kind: str  # its legend entry
    name: str
    place: str
    x: float
    y: float
    r: float = 0.5
    health: int | None = None
    unit: str = "HP"
    status: str = ""
    on: str = "in"  # how players say where it is: "in lane 2", "on tile t3"
    reach: float = math.inf  # how far (board units) one of several alike pieces can go and still be itself


@dataclass(frozen=True)
class Change:
    """One thing that happened to one piece: `kind` is move, hit, heal, status, gone or new."""

    piece: str
    kind: str
    name: str  # the piece in players' words: "the hero"
    words: str  # what happened to it: "moves from lane 2 to lane 3", "loses 1 HP"
    at: tuple[float, float]  # where the piece is now (where it was last, for a piece gone)
    r: float
    was: str = ""  # where it stood before, in players' words
    start: tuple[float, float] | None = None  # where a moved piece came from
    amount: int = 0  # health lost (hit) or gained (heal)
    via: tuple[tuple[float, float], ...] = ()  # where a moved piece passed on its way, in order


@dataclass(frozen=True)
class Focus:
    """What a drawing should show: the window (board units) holding every change of the example with
    some context, and the changes to mark with arrows and bursts (none on a "before" drawing)."""

    window: Box | None
    changes: tuple[Change, ...] = ()

    def points(self) -> list[tuple[float, float, float]]:
        """Every place a change touches, with its piece's half size."""
        out = []
        for c in self.changes:
            out.append((*c.at, c.r))
            if c.start is not None:
                out.append((*c.start, c.r))
        return out


def _moved(a: Piece, b: Piece) -> bool:
    """A move is a change of place in players' words (shuffling over inside one space is none)."""
    return a.place != b.place


def _move_words(a: Piece, b: Piece) -> str:
    return f"moves from {a.place} to {b.place}"


def _health_words(a: Piece, b: Piece) -> tuple[str, int] | None:
    if a.health is None or b.health is None or a.health == b.health:
        return None
    n = b.health - a.health
    if b.unit == "damage":  # a count of damage taken, shown as minus: taking more is a loss
        return (f"takes {-n} damage" if n < 0 else f"sheds {n} damage"), n
    verb = "gains" if n > 0 else "loses"
    return f"{verb} {abs(n)} {b.unit}", n


def _distance(a: Piece, b: Piece) -> float:
    return math.hypot(a.x - b.x, a.y - b.y)


def pair(before: Sequence[Piece], after: Sequence[Piece]) -> dict[int, int]:
    """Which piece after (index) is which piece before (index). Pieces sharing an id are alike and
    without identity of their own (two enemy cars): those still in place are paired first, then the
    nearest within `reach` of each other, so a car that moved is one car, not one gone and one new."""
    out: dict[int, int] = {}
    groups: dict[str, tuple[list[int], list[int]]] = {}
    for i, p in enumerate(before):
        groups.setdefault(p.id, ([], []))[0].append(i)
    for j, p in enumerate(after):
        groups.setdefault(p.id, ([], []))[1].append(j)
    for olds, news in groups.values():
        options = sorted((_distance(before[i], after[j]), j, i) for i in olds for j in news
                         if _distance(before[i], after[j]) <= max(before[i].reach, after[j].reach))
        taken: set[int] = set()
        for _, j, i in options:
            if j not in out and i not in taken:
                out[j] = i
                taken.add(i)
    return out


def changes_between(before: Sequence[Piece], after: Sequence[Piece]) -> tuple[Change, ...]:
    """Every change from one list of pieces to the next, in the engine's order of pieces."""
    paired = pair(before, after)
    out: list[Change] = []
    for j, b in enumerate(after):
        a = before[paired[j]] if j in paired else None
        if a is None:
            out.append(Change(b.id, "new", b.name, f"appears {b.on} {b.place}", (b.x, b.y), b.r))
            continue
        if _moved(a, b):
            out.append(Change(b.id, "move", b.name, _move_words(a, b), (b.x, b.y), b.r, f"{a.on} {a.place}",
                              (a.x, a.y)))
        health = _health_words(a, b)
        if health is not None:
            words, n = health
            out.append(Change(b.id, "heal" if n > 0 else "hit", b.name, words, (b.x, b.y), b.r, f"{a.on} {a.place}",
                              amount=abs(n)))
        if a.status != b.status:
            words = f"is now {b.status}" if b.status else f"is no longer {a.status}"
            out.append(Change(b.id, "status", b.name, words, (b.x, b.y), b.r, f"{a.on} {a.place}"))
    kept = set(paired.values())
    for i, a in enumerate(before):
        if i not in kept:
            out.append(Change(a.id, "gone", a.name, f"is removed from {a.place}", (a.x, a.y), a.r,
                              f"{a.on} {a.place}"))
    return tuple(out)


def via(changes: Sequence[Change], routes: Sequence[dict[str, list[Point]]],
        pieces: Sequence[Sequence[Piece]]) -> tuple[Change, ...]:
    """`changes` over the steps that `routes` (one a step) and `pieces` (before the first step, then
    after each) span, each move given the places its piece passed through: the step's route where the
    engine tells it, else where the piece stood after each step. Places equal to the start or the end,
    or repeated, are left out."""
    out = []
    for c in changes:
        if c.kind != "move" or c.start is None:
            out.append(c)
            continue
        passed: list[Point] = []
        for i, route in enumerate(routes):
            if c.piece in route:
                passed += route[c.piece]
            elif i + 1 < len(pieces):  # where it stood after the step, if it is the only piece of its id
                same = [(p.x, p.y) for p in pieces[i + 1] if p.id == c.piece]
                passed += same if len(same) == 1 else []
        points: list[Point] = []
        for p in passed:
            if p != c.start and p != c.at and (not points or points[-1] != p):
                points.append(p)
        out.append(replace(c, via=tuple(points)) if points else c)
    return tuple(out)


def window_of(changes: Sequence[Change]) -> Box | None:
    """The smallest box (board units) holding every changed piece whole, start and end."""
    box: Box | None = None
    for c in changes:
        for x, y in [c.at] + ([c.start] if c.start else []):
            box = Box(x - c.r, y - c.r, 2 * c.r, 2 * c.r).union(box)
    return box


def _clauses(changes: Sequence[Change], words: Callable[[Change], str]) -> str:
    """One clause per piece ("the hero moves from A to B and loses 1 HP"), joined by semicolons."""
    parts: list[str] = []
    last: tuple[str, tuple[float, float]] | None = None
    for c in changes:
        said = words(c)
        if not said:
            continue
        if last == (c.piece, c.at):  # the same piece (alike pieces share an id, not a place)
            parts[-1] += f" and {said}"
        else:
            parts.append(f"{c.name} {said}")
        last = (c.piece, c.at)
    text = "; ".join(parts)
    return text[:1].upper() + text[1:] + "." if text else ""


def sentence(changes: Sequence[Change]) -> str:
    """The changes as one sentence: "The hero moves from lane 2 to lane 3; the enemy car loses 1 HP." """
    return _clauses(changes, lambda c: c.words)


def starting_places(changes: Sequence[Change]) -> str:
    """Where the pieces that are about to change stand: "The hero is in lane 2, row 3; ..." """
    seen: set[tuple[str, str]] = set()
    firsts = []
    for c in changes:
        if c.was and (c.piece, c.name) not in seen:
            seen.add((c.piece, c.name))
            firsts.append(c)
    return _clauses(firsts, lambda c: f"is {c.was}")


# --- drawing the changes -----------------------------------------------------------------------


def arrow(svg: Svg, start: tuple[float, float], end: tuple[float, float], gap: float = 0, width: float = 3) -> None:
    """A movement arrow from `start` to `end`, stopping `gap` short of each centre, on a white halo
    so it reads on the dark road and on paper alike."""
    (x0, y0), (x1, y1) = start, end
    dx, dy = x1 - x0, y1 - y0
    length = (dx * dx + dy * dy) ** 0.5
    if length < 1e-6:
        return
    ux, uy = dx / length, dy / length
    gap = min(gap, length / 3)
    ax, ay = x0 + ux * gap, y0 + uy * gap
    bx, by = x1 - ux * gap, y1 - uy * gap
    head = width * 3.2
    hx, hy = bx - ux * head, by - uy * head
    svg.strokes += [((ax, ay), (hx, hy), width + 3), ((hx, hy), (bx, by), head * 1.2 + 3)]  # shaft, head: halo too
    wing = [(bx, by), (hx - uy * head * 0.6, hy + ux * head * 0.6), (hx + uy * head * 0.6, hy - ux * head * 0.6)]
    svg.line(ax, ay, hx, hy, MARK["halo"], width + 3)
    svg.line(ax, ay, hx, hy, MARK["arrow"], width)
    svg.element("polygon", {"points": " ".join(f"{num(x)},{num(y)}" for x, y in wing), "fill": MARK["arrow"],
                            "stroke": MARK["halo"], "stroke-width": 1.5})


def path_arrow(svg: Svg, points: Sequence[Point], gap: float = 0, width: float = 3) -> None:
    """A movement arrow along a driven path (each place the piece passed through), leaving the first
    and last places `gap` clear, its head on the last leg; on a white halo like `arrow`."""
    pts = list(points)
    if len(pts) < 3:
        arrow(svg, pts[0], pts[-1], gap, width)
        return

    def toward(a: Point, b: Point, d: float) -> Point:
        length = math.hypot(b[0] - a[0], b[1] - a[1]) or 1.0
        d = min(d, length / 3)
        return a[0] + (b[0] - a[0]) / length * d, a[1] + (b[1] - a[1]) / length * d

    pts[0] = toward(pts[0], pts[1], gap)
    body = pts[:-1]
    svg.strokes += [(a, b, width + 3) for a, b in itertools.pairwise(body)]
    line = " ".join(f"{num(x)},{num(y)}" for x, y in body)
    for colour, w in ((MARK["halo"], width + 3), (MARK["arrow"], width)):
        svg.element("polyline", {"points": line, "fill": "none", "stroke": colour, "stroke-width": w,
                                 "stroke-linejoin": "round", "stroke-linecap": "round"})
    arrow(svg, body[-1], toward(pts[-1], body[-1], gap), 0, width)  # the last leg carries the head


def burst(svg: Svg, cx: float, cy: float, r: float, label: str = "") -> None:
    """A damage burst: a jagged star over the piece hit, with what it lost (such as "-1")."""
    points = []
    for i in range(16):
        radius = r if i % 2 == 0 else r * 0.55
        angle = math.pi * i / 8
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    svg.element("polygon", {"points": " ".join(f"{num(x)},{num(y)}" for x, y in points), "fill": MARK["burst"],
                            "stroke": MARK["burst-ink"], "stroke-width": 1.5, "fill-opacity": 0.92})
    svg.filled("polygon", tuple(points), MARK["burst"])
    if label:
        svg.text(cx, cy + 4.5, label, size=13, fill=MARK["burst-ink"], weight="bold")


def ring(svg: Svg, cx: float, cy: float, r: float, colour: str = MARK["new"]) -> None:
    """A dashed ring around a piece that appeared or changed state."""
    svg.element("circle", {"cx": cx, "cy": cy, "r": r, "fill": "none", "stroke": colour, "stroke-width": 3,
                           "stroke-dasharray": "5 3"})


Point = tuple[float, float]


def overlay(svg: Svg, focus: Focus | None, to_px: Callable[[Point], Point], px_per_unit: float) -> None:
    """Arrows for moves, bursts for hits and removals, rings for new pieces and new states, drawn on
    top of a finished drawing; `to_px` maps the engine's board units to the drawing's pixels. Each
    change is one group naming its piece and kind, so tests can find it."""
    if focus is None:
        return
    drawn, bursts = len(svg.texts), []
    for c in focus.changes:
        x, y = to_px(c.at)
        r = max(10.0, c.r * px_per_unit)
        svg.items.append(f'<g class="rk-change" data-piece="{esc(c.piece)}" data-kind="{esc(c.kind)}" '
                         f'data-at="{num(x)} {num(y)}">')
        if c.kind == "move" and c.start is not None and c.via:
            path_arrow(svg, [to_px(c.start), *(to_px(p) for p in c.via), (x, y)], gap=r * 0.6)
        elif c.kind == "move" and c.start is not None:
            arrow(svg, *_beside(to_px(c.start), (x, y), r * 0.75), gap=r * 0.2)
        elif c.kind in ("hit", "gone"):
            radius, first, label = (13, (0.7, -0.7), f"-{c.amount}") if c.kind == "hit" else (15, (0.0, 0.0), "×")
            bx, by = clear_spot(svg, x, y, r, radius, first)
            burst(svg, bx, by, radius, label)
            bursts.append(Box(bx - radius, by - radius, 2 * radius, 2 * radius))
        elif c.kind == "heal":
            ring(svg, x, y, r, "#2e7d32")
        else:
            ring(svg, x, y, r)
        svg.items.append("</g>")
    # Where no place around a piece was clear, the labels a burst or an arrow covers are drawn again
    # over it, on a halo of the colour they were drawn on, so that none is hidden.
    for box, element, under in svg.texts[:drawn]:
        if any(overlaps(box, b) for b in bursts) or any(crosses(box, *s) for s in svg.strokes):
            svg.items.append(element.replace('">', f'" stroke="{under}" stroke-width="3" stroke-linejoin="round" '
                                                  'paint-order="stroke">', 1))


def crosses(box: Box, a: Point, b: Point, width: float) -> bool:
    """Whether a stroke from `a` to `b`, `width` wide, passes over the middle of `box` (a text's)."""
    inner = Box(box.x + box.w * 0.1, box.y + box.h * 0.2, box.w * 0.8, box.h * 0.6).pad(width / 2)
    steps = max(1, int(math.hypot(b[0] - a[0], b[1] - a[1]) / 2))
    return any(inner.contains(a[0] + (b[0] - a[0]) * i / steps, a[1] + (b[1] - a[1]) * i / steps, 0)
               for i in range(steps + 1))


# Where a burst may go around its piece, nearest first: over a corner, then beside, above or below
# it (directions; how far out grows until the burst clears the piece's own letters).
_AROUND = ((0.7, -0.7), (-0.7, -0.7), (0.7, 0.7), (-0.7, 0.7), (1.0, 0.0), (-1.0, 0.0), (0.0, -1.0), (0.0, 1.0))


def clear_spot(svg: Svg, x: float, y: float, r: float, radius: float, first: Point) -> Point:
    """The nearest place around the piece at (x, y) (half size `r`) where a burst of `radius` covers
    no text drawn so far (a car's letters, a tile's name, another burst's figure) and stays on the
    drawing; `first` (in half sizes) where none is."""
    inside = Box(0, 0, svg.width, svg.height)
    spots = [(x + first[0] * r, y + first[1] * r)]
    for reach in (r, r + radius * 0.6, r + radius):
        spots += [(x + dx * reach, y + dy * reach) for dx, dy in _AROUND]
    for cx, cy in spots:
        box = Box(cx - radius, cy - radius, 2 * radius, 2 * radius)
        if (inside.x <= box.x and box.x1 <= inside.x1 and inside.y <= box.y and box.y1 <= inside.y1
                and not any(overlaps(box, t) for t in svg.text_boxes)):
            return cx, cy
    return spots[0]


def _beside(start: Point, end: Point, shift: float) -> tuple[Point, Point]:
    """The segment moved `shift` to the left of its direction, so an arrow runs beside the pieces
    it joins instead of under them."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = math.hypot(dx, dy) or 1.0
    ox, oy = dy / length * shift, -dx / length * shift
    return (start[0] + ox, start[1] + oy), (end[0] + ox, end[1] + oy)


@dataclass(frozen=True)
class Swatch:
    """One legend entry: a small drawing of a piece kind (made with the engine's own drawing code, so
    it matches the diagrams) and what players call it."""

    kind: str
    label: str
    svg: str


def swatch(kind: str, label: str, paint: Callable[[Svg, float, float, float], None], size: float = 36) -> Swatch:
    """A legend entry drawn by `paint(svg, cx, cy, size)` on a square of `size` pixels."""
    pic = Svg(size, size, label)
    paint(pic, size / 2, size / 2, size)
    return Swatch(kind, label, pic.render())


def change_swatches() -> list[Swatch]:
    """The marks every game's diagrams share: movement arrows, damage bursts, rings."""
    return [
        swatch("move", "moves (arrow from where it was)", lambda s, cx, cy, n: arrow(s, (4, n - 6), (n - 4, 6))),
        swatch("hit", "loses health or is hit", lambda s, cx, cy, n: burst(s, cx, cy, n / 2 - 2, "-1")),
        swatch("gone", "removed (destroyed or off the board)", lambda s, cx, cy, n: burst(s, cx, cy, n / 2 - 2, "×")),
        swatch("new", "new on the board, or changed state", lambda s, cx, cy, n: ring(s, cx, cy, n / 2 - 4)),
    ]
