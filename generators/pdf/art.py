"""Drawing the picture area of a face: arrows, grids, tracks, road tiles, pips, numbers, icons, space maps.
Each kind is one small function taking the canvas, the art and a box in points.

No transparency: faint lines are the ink pre-mixed with the paper colour. (Boards are drawn as
form XObjects, and ReportLab does not give a form the transparency states it uses.)"""

from __future__ import annotations

from reportlab.lib.colors import white
from reportlab.pdfgen.canvas import Canvas

from generators.content.geometry import Box
from generators.content.model import Art, Grid, Tile, Track
from generators.pdf.colour import mix
from generators.pdf.pen import Pen, draw_icon_in
from generators.pdf.spacemap import draw_space_map
from generators.pdf.text import GAMEPLAY, KeyPath, draw_text, note_box

STEP = {
    "forward": (0, 1), "back": (0, -1), "left": (-1, 0), "right": (1, 0),
    "forward-left": (-1, 1), "forward-right": (1, 1), "back-left": (-1, -1), "back-right": (1, -1),
}


def draw_art(c: Canvas, art: Art, box: Box, pen: Pen, key: KeyPath = ("art",)) -> None:
    """Draw `art` in `box`; `key` is where the art sits in its side, for located text-fit errors."""
    caption_h = 0.0
    if art.caption:
        caption_h = min(box.h * 0.25, 12.0)
        draw_text(c, art.caption, pen.icons, pen.fonts, box.x, box.y + caption_h, box.w, caption_h, 7,
                  align="center", color=pen.ink, on=pen.paper, valign="middle", key=(*key, "caption"))
    inner = Box(box.x, box.y + caption_h, box.w, box.h - caption_h)
    if art.icon is not None:
        draw_icon_in(c, art.icon, inner, pen, pen.resolve(art.color) if art.color else None)
    elif art.arrows is not None:
        _arrows(c, art.arrows, inner, pen, (*key, "arrows"))
    elif art.grid is not None:
        _grid(c, art.grid, inner, pen, (*key, "grid"))
    elif art.track is not None:
        _track(c, art.track, inner, pen, (*key, "track"))
    elif art.tile is not None:
        _tile(c, art.tile, inner, pen)
    elif art.pips is not None:
        _pips(c, art.pips, inner, pen)
    elif art.spaces is not None:
        draw_space_map(c, art.spaces, inner, pen)
    elif art.number is not None:
        draw_text(c, f"**{art.number}**", pen.icons, pen.fonts, inner.x, inner.y + inner.h, inner.w, inner.h,
                  min(inner.h * 0.8, 60), align="center", color=pen.ink, on=pen.paper, valign="middle",
                  key=(*key, "number"))


def _path(arrows: tuple[str, ...]) -> list[tuple[int, int]]:
    pts = [(0, 0)]
    for a in arrows:
        dx, dy = STEP[a]
        pts.append((pts[-1][0] + dx, pts[-1][1] + dy))
    return pts


def arrow_extent(arrows: tuple[str, ...]) -> tuple[int, int]:
    """(columns, rows) of the spaces an arrow path crosses."""
    pts = _path(arrows)
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return max(xs) - min(xs) + 1, max(ys) - min(ys) + 1


def _arrows(c: Canvas, arrows: tuple[str, ...], box: Box, pen: Pen, key: KeyPath) -> None:
    """The path the vehicle takes, step by step, from a start dot, on a faint grid. The space size
    comes from the deck's largest path, so a space is the same size on every card of the deck."""
    pts = _path(arrows)
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    cols, rows = arrow_extent(arrows)
    scale_cols, scale_rows = pen.arrow_extent or (cols, rows)
    cell = min(box.w / (scale_cols + 0.6), box.h / (scale_rows + 0.6), 64)
    note_box("arrow-cell", box.x, box.y, cell, cell)
    ox = box.x + (box.w - cols * cell) / 2 - min(xs) * cell
    oy = box.y + (box.h - rows * cell) / 2 - min(ys) * cell
    c.saveState()
    c.setStrokeColor(mix(pen.paper, pen.ink, 0.25))
    c.setLineWidth(0.4)
    for gx in range(min(xs), max(xs) + 1):
        for gy in range(min(ys), max(ys) + 1):
            c.rect(ox + gx * cell, oy + gy * cell, cell, cell, stroke=1, fill=0)
    centre = [(ox + (px + 0.5) * cell, oy + (py + 0.5) * cell) for px, py in pts]
    c.setStrokeColor(pen.accent)
    c.setFillColor(pen.accent)
    c.setLineWidth(max(1.5, cell * 0.09))
    c.setLineCap(1)
    for i in range(1, len(centre)):
        (x0, y0), (x1, y1) = centre[i - 1], centre[i]
        # Stop short of the centre so the arrowhead sits inside the target space.
        hx, hy = x0 + (x1 - x0) * 0.78, y0 + (y1 - y0) * 0.78
        c.line(x0, y0, hx, hy)
        _arrowhead(c, hx, hy, x1 - x0, y1 - y0, cell * 0.28)
    c.circle(*centre[0], cell * 0.14, stroke=0, fill=1)
    # Step numbers in badges at each step's midpoint, drawn last so no line covers them.
    size = max(cell * 0.2, GAMEPLAY)
    r = max(cell * 0.16, size * 0.85)
    for i in range(1, len(centre)):
        (x0, y0), (x1, y1) = centre[i - 1], centre[i]
        mx, my = (x0 + x1) / 2, (y0 + y1) / 2
        c.setFillColor(pen.paper)
        c.setStrokeColor(pen.accent)
        c.setLineWidth(0.8)
        c.circle(mx, my, r, stroke=1, fill=1)
        draw_text(c, f"**{i}**", pen.icons, pen.fonts, mx - r, my + size * 0.6, 2 * r, size * 1.2, size,
                  align="center", color=pen.ink, on=pen.paper, key=key)
    c.restoreState()


def _arrowhead(c: Canvas, x: float, y: float, dx: float, dy: float, size: float) -> None:
    length = (dx * dx + dy * dy) ** 0.5 or 1.0
    ux, uy = dx / length, dy / length
    px, py = -uy, ux
    p = c.beginPath()
    p.moveTo(x + ux * size, y + uy * size)
    p.lineTo(x - ux * size * 0.3 + px * size * 0.7, y - uy * size * 0.3 + py * size * 0.7)
    p.lineTo(x - ux * size * 0.3 - px * size * 0.7, y - uy * size * 0.3 - py * size * 0.7)
    p.close()
    c.drawPath(p, stroke=0, fill=1)


def _grid(c: Canvas, grid: Grid, box: Box, pen: Pen, key: KeyPath) -> None:
    rail = 0.0
    cell = min(box.w / (grid.cols + (0.6 if grid.rails else 0)), box.h / grid.rows)
    if grid.rails:
        rail = cell * 0.3
    gw, gh = cell * grid.cols, cell * grid.rows
    ox = box.x + (box.w - gw) / 2
    oy = box.y + (box.h - gh) / 2
    c.saveState()
    c.setLineWidth(0.6)
    c.setStrokeColor(mix(pen.paper, pen.ink, 0.6))
    for col in range(grid.cols):
        for row in range(grid.rows):
            c.rect(ox + col * cell, oy + row * cell, cell, cell, stroke=1, fill=0)
            note_box("cell", ox + col * cell, oy + row * cell, cell, cell)
    if grid.rails:
        c.setFillColor(pen.ink)
        c.setStrokeColor(pen.ink)
        solid = 0 if pen.ink_saver else 1
        c.rect(ox - rail, oy, rail * 0.6, gh, stroke=1 - solid, fill=solid)
        c.rect(ox + gw + rail * 0.4, oy, rail * 0.6, gh, stroke=1 - solid, fill=solid)
        note_box("rail", ox - rail, oy, rail * 0.6, gh)
        note_box("rail", ox + gw + rail * 0.4, oy, rail * 0.6, gh)
    for i, mark in enumerate(grid.cells):
        col, row = mark.at
        cx, cy = ox + col * cell, oy + row * cell
        color = pen.resolve(mark.color) if mark.color else pen.ink
        if mark.icon:
            draw_icon_in(c, mark.icon, Box(cx + cell * 0.1, cy + cell * 0.1, cell * 0.8, cell * 0.8), pen, color)
        if mark.label:
            draw_text(c, mark.label, pen.icons, pen.fonts, cx + 1, cy + cell - 1, cell - 2, cell - 2,
                      min(cell * 0.4, 9), align="center", color=color, on=pen.paper, valign="middle",
                      key=(*key, "cells", i, "label"))
    c.restoreState()


def _track(c: Canvas, track: Track, box: Box, pen: Pen, key: KeyPath) -> None:
    n = track.spaces
    s = min(box.w / n, box.h)
    ox = box.x + (box.w - s * n) / 2
    oy = box.y + (box.h - s) / 2
    c.saveState()
    c.setLineWidth(0.8)
    c.setStrokeColor(pen.ink)
    for i in range(n):
        c.rect(ox + i * s + s * 0.06, oy + s * 0.06, s * 0.88, s * 0.88, stroke=1, fill=0)
        note_box("cell", ox + i * s, oy, s, s)
        label = track.labels[i] if i < len(track.labels) else str(i)
        draw_text(c, label, pen.icons, pen.fonts, ox + i * s, oy + s * 0.9, s, s * 0.8, s * 0.38,
                  align="center", color=pen.ink, on=pen.paper, valign="middle",
                  key=(*key, "labels", i) if i < len(track.labels) else key)
    c.restoreState()


def _tile(c: Canvas, tile: Tile, box: Box, pen: Pen) -> None:
    """A road tile: a square with the road running from the centre to each exit."""
    s = min(box.w, box.h)
    ox, oy = box.x + (box.w - s) / 2, box.y + (box.h - s) / 2
    road = s * 0.42
    mid = (s - road) / 2
    spans = {
        "north": (mid, s / 2, road, s / 2),
        "south": (mid, 0, road, s / 2),
        "east": (s / 2, mid, s / 2, road),
        "west": (0, mid, s / 2, road),
    }
    c.saveState()
    road_path = c.beginPath()
    road_path.rect(ox + mid, oy + mid, road, road)
    for exit_ in tile.exits:
        x, y, w, h = spans[exit_]
        road_path.rect(ox + x, oy + y, w, h)
    if pen.ink_saver:
        # Only the road's edges: the union's outline is drawn by stroking each piece and then
        # painting the insides paper-coloured, which erases the inner seams.
        c.setStrokeColor(pen.ink)
        c.setLineWidth(1.2)
        c.drawPath(road_path, stroke=1, fill=0)
        c.setFillColor(pen.paper)
        c.drawPath(road_path, stroke=0, fill=1, fillMode=1)
        centre_line = pen.ink
    else:
        c.setFillColor(pen.ink)
        c.drawPath(road_path, stroke=0, fill=1, fillMode=1)
        centre_line = white
    c.setStrokeColor(centre_line)
    c.setDash(4, 4)
    c.setLineWidth(1)
    for exit_ in tile.exits:
        if exit_ in ("north", "south"):
            y0 = oy + (s if exit_ == "north" else 0)
            c.line(ox + s / 2, oy + s / 2, ox + s / 2, y0)
        else:
            x0 = ox + (s if exit_ == "east" else 0)
            c.line(ox + s / 2, oy + s / 2, x0, oy + s / 2)
    c.restoreState()
    if tile.icon:
        k = road * 0.8
        draw_icon_in(c, tile.icon, Box(ox + (s - k) / 2, oy + (s - k) / 2, k, k), pen,
                     pen.ink if pen.ink_saver else white)


_PIPS = {
    1: [(0.5, 0.5)], 2: [(0.25, 0.75), (0.75, 0.25)], 3: [(0.25, 0.75), (0.5, 0.5), (0.75, 0.25)],
    4: [(0.25, 0.25), (0.25, 0.75), (0.75, 0.25), (0.75, 0.75)],
    5: [(0.25, 0.25), (0.25, 0.75), (0.5, 0.5), (0.75, 0.25), (0.75, 0.75)],
    6: [(0.25, 0.2), (0.25, 0.5), (0.25, 0.8), (0.75, 0.2), (0.75, 0.5), (0.75, 0.8)],
}


PIP_SPREAD = 0.8  # the pips' square, a share of the art box's side
PIP_RADIUS = 0.09  # a pip's radius, a share of that square's side


def pip_diameter(side: float) -> float:
    """How wide the pips drawn in an art box of `side` are."""
    return 2 * PIP_RADIUS * PIP_SPREAD * side


def _pips(c: Canvas, n: int, box: Box, pen: Pen) -> None:
    s = min(box.w, box.h) * PIP_SPREAD
    ox, oy = box.x + (box.w - s) / 2, box.y + (box.h - s) / 2
    c.saveState()
    c.setFillColor(pen.ink)
    for px, py in _PIPS[n]:
        r = s * PIP_RADIUS
        note_box("pip", ox + px * s - r, oy + py * s - r, 2 * r, 2 * r)
        c.circle(ox + px * s, oy + py * s, r, stroke=0, fill=1)
    c.restoreState()
