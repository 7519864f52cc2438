"""Pure geometry of a space map (`Art.spaces`): where each space lies, in map units.

A unit is one lane's width. Straight pieces are `lanes + 2 * margin` units wide and `rows` units
long, their spaces unit squares. Bends are quarter rings in a square `inner + lanes + margin` units
on a side: a left bend turns about the square's bottom-left corner, a right bend about its
bottom-right corner; both are entered at the bottom edge, row 0 first. Coordinates have y up.

The print kit draws faces from this and rules engines draw their road from it, so a tile looks the
same on paper and in a worked example.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import pairwise

from generators.content.model import MapSpace, SpaceMap

Point = tuple[float, float]
ARC_STEPS = 6  # points per arc edge of a bent space: smooth at print size, small in SVG


@dataclass(frozen=True)
class Box:
    """A rectangle in some unit: a face's points on paper, an engine's board units, a drawing's pixels."""

    x: float
    y: float
    w: float
    h: float

    @property
    def x1(self) -> float:
        return self.x + self.w

    @property
    def y1(self) -> float:
        return self.y + self.h

    @classmethod
    def spanning(cls, x0: float, y0: float, x1: float, y1: float) -> Box:
        return cls(min(x0, x1), min(y0, y1), abs(x1 - x0), abs(y1 - y0))

    def union(self, other: Box | None) -> Box:
        if other is None:
            return self
        return Box.spanning(min(self.x, other.x), min(self.y, other.y), max(self.x1, other.x1), max(self.y1, other.y1))

    def pad(self, dx: float, dy: float | None = None) -> Box:
        dy = dx if dy is None else dy
        return Box(self.x - dx, self.y - dy, self.w + 2 * dx, self.h + 2 * dy)

    def clamp(self, outer: Box) -> Box:
        """This box cut to `outer` (or `outer` itself where they do not meet)."""
        x0, y0 = max(self.x, outer.x), max(self.y, outer.y)
        x1, y1 = min(self.x1, outer.x1), min(self.y1, outer.y1)
        return Box.spanning(x0, y0, x1, y1) if x1 > x0 and y1 > y0 else outer

    def contains(self, x: float, y: float, slack: float = 0.01) -> bool:
        return self.x - slack <= x <= self.x1 + slack and self.y - slack <= y <= self.y1 + slack


@dataclass(frozen=True)
class Frame:
    """Where a piece's road begins or ends: the left end of its back (or front) edge, the way
    forward there, and the road's width (unit vectors; y up)."""

    left: Point
    forward: Point


def size(m: SpaceMap) -> tuple[float, float]:
    """The whole piece in units (width, height)."""
    if m.bend == "straight":
        return (m.lanes + 2 * m.margin, float(m.rows))
    side = m.inner + m.lanes + m.margin
    return (side, side)


def _radii(m: SpaceMap, lane: int) -> tuple[float, float]:
    """Inner and outer radius of a lane of a bend (lane 0 is on the left going forward)."""
    r_in = m.inner + lane if m.bend == "left" else m.inner + (m.lanes - 1 - lane)
    return r_in, r_in + 1


def _angle(m: SpaceMap, row: float) -> float:
    return math.pi / 2 * row / m.rows


def ring_point(m: SpaceMap, r: float, theta: float) -> Point:
    """The point at radius r and angle theta (0 at the entry edge) of a bend."""
    w, _ = size(m)
    if m.bend == "left":
        return (r * math.cos(theta), r * math.sin(theta))
    return (w - r * math.cos(theta), r * math.sin(theta))


def outline(m: SpaceMap, s: MapSpace, inset: float = 0.0) -> list[Point]:
    """The space's outline, counter-clockwise; `inset` units inside its edges."""
    lane, row = s.at
    if m.bend == "straight":
        x0, y0 = m.margin + lane + inset, row + inset
        x1, y1 = m.margin + lane + 1 - inset, row + 1 - inset
        return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    r_in, r_out = _radii(m, lane)
    r_in, r_out = r_in + inset, r_out - inset
    t0, t1 = _angle(m, row), _angle(m, row + 1)
    outer = [t0 + inset / r_out + (t1 - t0 - 2 * inset / r_out) * k / ARC_STEPS for k in range(ARC_STEPS + 1)]
    inner = [t0 + inset / r_in + (t1 - t0 - 2 * inset / r_in) * k / ARC_STEPS for k in range(ARC_STEPS + 1)]
    pts = [ring_point(m, r_out, t) for t in outer] + [ring_point(m, r_in, t) for t in reversed(inner)]
    return pts if m.bend == "right" else list(reversed(pts))


def centre(m: SpaceMap, s: MapSpace) -> Point:
    lane, row = s.at
    if m.bend == "straight":
        return (m.margin + lane + 0.5, row + 0.5)
    r_in, r_out = _radii(m, lane)
    return ring_point(m, (r_in + r_out) / 2, _angle(m, row + 0.5))


def heading(m: SpaceMap, row: float) -> Point:
    """The way forward (unit vector) at a row position (row 0.0 = the back edge)."""
    if m.bend == "straight":
        return (0.0, 1.0)
    t = _angle(m, row)
    if m.bend == "left":
        return (-math.sin(t), math.cos(t))
    return (math.sin(t), math.cos(t))


def edge(m: SpaceMap, s: MapSpace, which: str) -> tuple[Point, Point]:
    """The space's front or back edge as (left end, right end) going forward."""
    lane, row = s.at
    at = row + (1 if which == "front" else 0)
    if m.bend == "straight":
        x0 = m.margin + lane
        return (x0, float(at)), (x0 + 1, float(at))
    r_in, r_out = _radii(m, lane)
    t = _angle(m, at)
    near, far = ring_point(m, r_in, t), ring_point(m, r_out, t)
    return (near, far) if m.bend == "left" else (far, near)


def entry(m: SpaceMap) -> Frame:
    """The road's back edge: where the piece joins the one before it."""
    w, _ = size(m)
    if m.bend == "left":
        return Frame((m.inner, 0.0), (0.0, 1.0))
    if m.bend == "right":
        return Frame((w - m.inner - m.lanes, 0.0), (0.0, 1.0))
    return Frame((m.margin, 0.0), (0.0, 1.0))


def exit_(m: SpaceMap) -> Frame:
    """The road's front edge: where the next piece joins."""
    w, _ = size(m)
    if m.bend == "left":
        return Frame((0.0, m.inner), (-1.0, 0.0))
    if m.bend == "right":
        return Frame((w, m.inner + m.lanes), (1.0, 0.0))
    return Frame((m.margin, float(m.rows)), (0.0, 1.0))


@dataclass(frozen=True)
class Placement:
    """A rigid motion from a piece's units to a shared plane: rotate (cos, sin), then shift."""

    cos: float
    sin: float
    dx: float
    dy: float

    def apply(self, p: Point) -> Point:
        x, y = p
        return (x * self.cos - y * self.sin + self.dx, x * self.sin + y * self.cos + self.dy)

    def turn(self, v: Point) -> Point:
        x, y = v
        return (x * self.cos - y * self.sin, x * self.sin + y * self.cos)


def chain(maps: list[SpaceMap]) -> list[Placement]:
    """Placements that lay pieces edge to edge, each one's back edge on the previous one's front
    edge, the first piece where it is."""
    out = [Placement(1.0, 0.0, 0.0, 0.0)]
    for prev, m in pairwise(maps):
        end = exit_(prev)
        left, fwd = out[-1].apply(end.left), out[-1].turn(end.forward)
        start = entry(m)
        # Rotation taking this piece's entry heading onto the previous exit heading.
        a = math.atan2(fwd[1], fwd[0]) - math.atan2(start.forward[1], start.forward[0])
        cos, sin = round(math.cos(a), 12), round(math.sin(a), 12)
        sx, sy = start.left
        rx, ry = sx * cos - sy * sin, sx * sin + sy * cos
        out.append(Placement(cos, sin, left[0] - rx, left[1] - ry))
    return out
