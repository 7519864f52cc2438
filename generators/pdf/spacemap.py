"""Drawing a space map (`Art.spaces`): a piece of road as terrain-coloured spaces, with walls,
entry arrows, space ids and the piece's number, from the same data a rules engine reads.

A full-layout face hands its title and provenance to the map, which knows where the road leaves
room for them (the roadside strips of a straight piece, the corners a bend leaves free):
`draw_space_map` returns those places as `Slot`s."""

from __future__ import annotations

import math
from dataclasses import dataclass

from reportlab.lib.colors import Color, HexColor
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from generators.content import geometry
from generators.content.geometry import Box
from generators.content.model import MapSpace, SpaceMap, Terrain
from generators.pdf.colour import mix, text_on
from generators.pdf.pen import Pen, draw_icon_in
from generators.pdf.text import draw_text

WALL_LIGHT = HexColor("#f2c200")
SAFE = 3 * mm  # text keeps this far inside the trim (the print kit's safe zone)


@dataclass(frozen=True)
class Slot:
    """A free box for a line of text: centre, length along the text, thickness, and rotation."""

    cx: float
    cy: float
    length: float
    thickness: float
    angle: float = 0.0


@dataclass(frozen=True)
class _View:
    """Map units to points: origin and scale."""

    x0: float
    y0: float
    scale: float

    def pt(self, p: geometry.Point) -> tuple[float, float]:
        return self.x0 + p[0] * self.scale, self.y0 + p[1] * self.scale


def draw_space_map(c: Canvas, m: SpaceMap, box: Box, pen: Pen) -> list[Slot]:
    """Draw the map to fill `box`; the free places for a title and a provenance line, in that order."""
    w, h = geometry.size(m)
    scale = min(box.w / w, box.h / h)
    view = _View(box.x + (box.w - w * scale) / 2, box.y + (box.h - h * scale) / 2, scale)
    legend = {t.id: t for t in m.legend}
    c.saveState()
    for s in m.spaces:
        _space(c, m, s, legend[s.terrain], view, pen)
    for s in m.spaces:
        _marks(c, m, s, legend[s.terrain], view, pen)
    c.restoreState()
    number = _number_room(m, view) if m.number else 0.0
    slots = _slots(m, view, number)
    if m.number:
        _number(c, m, view, pen)
    return slots


def _path(c: Canvas, pts: list[tuple[float, float]]):
    p = c.beginPath()
    p.moveTo(*pts[0])
    for q in pts[1:]:
        p.lineTo(*q)
    p.close()
    return p


def _space(c: Canvas, m: SpaceMap, s: MapSpace, t: Terrain, view: _View, pen: Pen) -> None:
    pts = [view.pt(p) for p in geometry.outline(m, s)]
    c.setLineWidth(0.5)
    fill = t.color is not None and not pen.ink_saver
    under = pen.resolve(t.color) if fill and t.color is not None else pen.paper
    # No transparency (a face is drawn as a form, which gets no transparency states): the ink pre-mixed.
    c.setStrokeColor(mix(under, pen.ink, 0.55))
    if fill:
        c.setFillColor(under)
    c.drawPath(_path(c, pts), stroke=1, fill=1 if fill else 0)
    if t.border is not None:
        color = pen.resolve(t.border.color)
        insets = (0.06, 0.14) if t.border.style == "double" else (0.08,)
        for inset in insets:
            c.setStrokeColor(color)
            c.setLineWidth(max(0.8, view.scale * 0.035))
            c.drawPath(_path(c, [view.pt(p) for p in geometry.outline(m, s, inset)]), stroke=1, fill=0)
    if t.icon is not None:
        cx, cy = view.pt(geometry.centre(m, s))
        k = view.scale * 0.58
        color = _icon_color(pen, t)
        draw_icon_in(c, t.icon, Box(cx - k / 2, cy - k / 2, k, k), pen, color)


def _icon_color(pen: Pen, t: Terrain) -> Color:
    """Icons read on their space: paper on dark fills, ink on light ones (and always in ink saver)."""
    if pen.ink_saver or t.color is None:
        return pen.ink
    fill = pen.resolve(t.color)
    light = 0.299 * fill.red + 0.587 * fill.green + 0.114 * fill.blue
    return pen.paper if light < 0.5 else pen.ink


def _marks(c: Canvas, m: SpaceMap, s: MapSpace, t: Terrain, view: _View, pen: Pen) -> None:
    for which in s.walls:
        a, b = (view.pt(p) for p in geometry.edge(m, s, which))
        width = max(2.5, view.scale * 0.14)
        c.setLineCap(0)
        c.setStrokeColor(pen.ink)
        c.setLineWidth(width)
        c.line(*a, *b)
        # Hazard stripes: the wall reads as a barricade even in grey print.
        c.setStrokeColor(WALL_LIGHT)
        c.setLineWidth(width * 0.55)
        c.setDash(width * 0.9, width * 0.9)
        c.line(*a, *b)
        c.setDash()
    if s.arrow:
        _arrow(c, m, s, view, pen)
    if m.ids:
        _space_id(c, m, s, t, view, pen)


def _space_id(c: Canvas, m: SpaceMap, s: MapSpace, t: Terrain, view: _View, pen: Pen) -> None:
    """The space's id, small in a corner, so worked examples can name it: in a tone that keeps 4.5:1
    on the space's own fill (paper-coloured on a dark space, ink on a light one)."""
    left, right = geometry.edge(m, s, "back")
    lx, ly = view.pt(left)
    fx, fy = geometry.heading(m, s.at[1])
    rx, ry = right[0] - left[0], right[1] - left[1]
    size = max(4.2, min(6.0, view.scale * 0.2))
    # On the back row the back edge is the trim: the id stands back the safe zone from it.
    ahead = 0.1 if s.at[1] > 0 else SAFE / view.scale + 0.02
    x, y = lx + (rx * 0.08 + fx * ahead) * view.scale, ly + (ry * 0.08 + fy * ahead) * view.scale
    c.saveState()
    c.translate(x, y)
    c.rotate(math.degrees(math.atan2(ry, rx)))
    fill = pen.resolve(t.color) if t.color is not None and not pen.ink_saver else pen.paper
    if t.border is not None:
        # The id sits where the border runs: a patch of the space's own colour under it keeps the
        # border's lines from the text's background.
        pad = size * 0.2
        c.setFillColor(fill)
        c.rect(-pad, -size * 0.3, c.stringWidth(s.id, pen.fonts.regular, size) + 2 * pad, size * 1.2, stroke=0, fill=1)
    c.setFillColor(text_on(fill, pen.ink))
    c.setFont(pen.fonts.regular, size)
    c.drawString(0, 0, s.id)
    c.restoreState()


def _arrow(c: Canvas, m: SpaceMap, s: MapSpace, view: _View, pen: Pen) -> None:
    """A small arrow just inside the back edge, pointing forward: cars leaving the pit enter here."""
    left, right = geometry.edge(m, s, "back")
    mx, my = (left[0] + right[0]) / 2, (left[1] + right[1]) / 2
    fx, fy = geometry.heading(m, s.at[1])
    px, py = -fy, fx
    k = 0.16
    tip = (mx + fx * 0.3, my + fy * 0.3)
    base = (mx + fx * 0.06, my + fy * 0.06)
    pts = [tip, (base[0] + px * k, base[1] + py * k), (base[0] - px * k, base[1] - py * k)]
    c.setFillColor(pen.ink)
    c.setStrokeColor(pen.paper)
    c.setLineWidth(0.6)
    c.drawPath(_path(c, [view.pt(p) for p in pts]), stroke=1, fill=1)


def _slots(m: SpaceMap, view: _View, number: float = 0.0) -> list[Slot]:
    """Where the title and provenance go, every line the safe zone inside the trim: on a straight
    piece the roadside strips beyond the safe zone (the title's strip leaves `number` points at its top
    for the piece's number), on a bend the corner beyond the ring."""
    w, h = geometry.size(m)
    sc = view.scale
    safe = SAFE / sc
    if m.bend == "straight":
        if m.margin <= safe:
            return []
        t = (m.margin - safe) * sc
        length = (h - 2 * safe) * sc
        return [Slot(view.x0 + (safe + m.margin) / 2 * sc, view.y0 + safe * sc + (length - number) / 2,
                     length - number, t, 90.0),
                Slot(view.x0 + (w - (safe + m.margin) / 2) * sc, view.y0 + h * sc / 2, length, t, 90.0)]
    # A bend: the corner beyond the ring (title) and, under it, a second line.
    outer = m.inner + m.lanes + 0.15
    out = []
    for top, thick in ((h - safe, 0.5), (h - safe - 0.54, 0.42)):
        bottom = top - thick
        room = w - safe - math.sqrt(max(0.0, outer * outer - bottom * bottom))
        x_left = w - safe - room if m.bend == "left" else safe
        out.append(Slot(view.x0 + (x_left + room / 2) * sc, view.y0 + (bottom + thick / 2) * sc, room * sc, thick * sc))
    return out


def _number_room(m: SpaceMap, view: _View) -> float:
    """The length (points) of the title strip's top end the number takes on a straight piece."""
    if m.bend != "straight":
        return 0.0
    return 12 * mm


def _number(c: Canvas, m: SpaceMap, view: _View, pen: Pen) -> None:
    """The piece's number: inside a bend's inner corner, or at the top of a straight piece's title
    strip, turned as the title is; either way inside the safe zone."""
    w, h = geometry.size(m)
    sc = view.scale
    safe = SAFE / sc
    text = f"**{m.number}**"
    if m.bend == "straight":
        if m.margin <= safe:
            return
        t, length = (m.margin - safe) * sc, _number_room(m, view)
        c.saveState()
        c.translate(view.x0 + (safe + m.margin) / 2 * sc, view.y0 + (h - safe) * sc - length / 2)
        c.rotate(90)
        draw_text(c, text, pen.icons, pen.fonts, -length / 2, t / 2, length, t, 40, align="center",
                  color=pen.ink, on=pen.paper, valign="middle", key=("art", "spaces", "number"))
        c.restoreState()
        return
    k = m.inner * 0.62
    x = safe if m.bend == "left" else w - safe - k
    box = Box(view.x0 + x * sc, view.y0 + safe * sc, k * sc, k * sc)
    draw_text(c, text, pen.icons, pen.fonts, box.x, box.y + box.h, box.w, box.h, min(box.h * 0.8, 40),
              align="center", color=pen.ink, on=pen.paper, valign="middle", key=("art", "spaces", "number"))
