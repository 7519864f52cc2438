"""Where a board bigger than the paper is cut, chosen from the board's own layout.

A split board is drawn once, without its side strips (each sheet prints those whole, see
`faces.draw_strips`), and read back: every character's box (through pdfium, so rotated text is
where it prints) and every box the layout notes while drawing (elements, grid cells, icons, rails;
see `text.note_box`). A seam then goes where it crosses no character and as few slots, cells and
panels as it can (between rows, slots or panels), and the alignment marks go where they cover no
character, icon or panel. Coordinates are board points, origin at the board's bottom-left."""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pypdfium2 as pdfium
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from generators.content.model import Component, Side
from generators.pdf.faces import STRIP, Look, draw_side, has_strips
from generators.pdf.imposition import OVERLAP, Tiling, split
from generators.pdf.text import auditing

TEXT = 1000.0  # a seam or a mark never goes through a character when it can help it
FRAME = 10.0  # a slot, a panel, a cell, an icon: cut between them
CELL = 1.0  # marks may sit on a grid, better on an empty part of it
STEP = 0.5 * mm  # seam positions tried
CLEAR = 0.3 * mm  # a box edge this close to a seam is not crossed by it
PAD = 0.8 * mm  # margin kept round every word
MARK_REACH = 4.5 * mm  # half the square a crosshair and its arms cover
MARK_ROLES = {"element": FRAME, "icon": FRAME, "rail": FRAME, "art": FRAME, "badge": FRAME, "label": FRAME,
              "cell": CELL, "arrow-cell": CELL}
SEAM_ROLES = {"element": FRAME, "cell": FRAME, "icon": FRAME, "art": FRAME, "arrow-cell": FRAME}


@dataclass(frozen=True)
class Keep:
    """A box (left, bottom, right, top) a seam or a mark should stay off, and how much it matters."""

    x0: float
    y0: float
    x1: float
    y1: float
    weight: float


@dataclass(frozen=True)
class Layout:
    """What a board side has where: the boxes seams avoid and the boxes marks avoid."""

    seam: tuple[Keep, ...]
    mark: tuple[Keep, ...]

    def seam_cost(self, at: float, vertical: bool) -> float:
        """What a cut across the whole board at `at` (x for a vertical cut, y for a horizontal one) crosses."""
        cost = 0.0
        for k in self.seam:
            lo, hi = (k.x0, k.x1) if vertical else (k.y0, k.y1)
            if lo + CLEAR < at < hi - CLEAR:
                cost += k.weight
        return cost

    def mark_cost(self, x: float, y: float, extra: Sequence[Keep] = ()) -> float:
        cost = 0.0
        for k in (*self.mark, *extra):
            if k.x0 < x + MARK_REACH and x - MARK_REACH < k.x1 and k.y0 < y + MARK_REACH and y - MARK_REACH < k.y1:
                cost += k.weight
        return cost


def layout(look: Look, comp: Component, side: Side, w: float, h: float, label: str) -> Layout:
    """Draw the side once (its strips left out when it has them) and read back where things are."""
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(w, h), invariant=1, initialFontName=look.fonts.regular)
    with auditing() as audit:
        draw_side(c, look, comp, side, 0, 0, w, h, label, bleed=0, strips=False)
    c.showPage()
    c.save()
    # Words with a margin: a cut that grazes a letter still shows.
    chars = [Keep(x0 - PAD, y0 - PAD, x1 + PAD, y1 + PAD, TEXT) for x0, y0, x1, y1 in _char_boxes(buf.getvalue())]
    seam = chars + [Keep(x, y, x + bw, y + bh, SEAM_ROLES[role]) for role, (x, y, bw, bh) in audit.boxes
                    if role in SEAM_ROLES]
    mark = chars + [Keep(x, y, x + bw, y + bh, MARK_ROLES[role]) for role, (x, y, bw, bh) in audit.boxes
                    if role in MARK_ROLES]
    if has_strips(comp, side):
        mark += [Keep(0, 0, STRIP, h, TEXT), Keep(w - STRIP, 0, w, h, TEXT)]
    return Layout(tuple(seam), tuple(mark))


Box4 = tuple[float, float, float, float]


def _char_boxes(pdf: bytes) -> list[Box4]:
    """The box of every line of text on the page: a seam between two letters or two words still cuts it."""
    doc = pdfium.PdfDocument(pdf)
    try:
        tp = doc[0].get_textpage()
        return words([(tp.get_text_range(i, 1), tp.get_charbox(i)) for i in range(tp.count_chars())])
    finally:
        doc.close()


def words(chars: Sequence[tuple[str, Box4]]) -> list[Box4]:
    """Characters in reading order joined into lines: a run between line ends whose letters touch
    (across the spaces between words), so a seam between two words of a sentence cuts it too."""
    out: list[Box4] = []
    word: Box4 | None = None
    for text, (x0, y0, x1, y1) in chars:
        if text in ("\r", "\n"):
            word = None
            continue
        if not text.strip():
            continue  # a space: the line goes on if the next letter is near
        size = max(x1 - x0, y1 - y0, 1.0)
        if word is not None and _touch(word, (x0, y0, x1, y1), size):
            word = (min(word[0], x0), min(word[1], y0), max(word[2], x1), max(word[3], y1))
            out[-1] = word
        else:
            word = (x0, y0, x1, y1)
            out.append(word)
    return out


def _touch(a: Box4, b: Box4, size: float) -> bool:
    gap_x = max(a[0], b[0]) - min(a[2], b[2])
    gap_y = max(a[1], b[1]) - min(a[3], b[3])
    return gap_x < size * 0.6 and gap_y < size * 0.6


def windows(length: float, room: float, overlap: float,
            cost: Callable[[float], float]) -> tuple[tuple[float, float], ...]:
    """Windows (start, end) along one axis, as few as `imposition.split` needs, each at most `room`
    long and overlapping the next by exactly `overlap`; the seams (where each window after the first
    starts: the edge that shows once the sheets are glued) put where `cost` is least, the windows
    as even as that allows."""
    n = len(split(length, room, overlap))
    if n == 1:
        return ((0.0, length),)
    steps = int(length // STEP)
    positions = [k * STEP for k in range(1, steps)]
    raw = {p: cost(p) for p in positions}
    # A seam keeps clear of what it could cross: what lies within 3 mm either side costs a little.
    near = [d * mm for d in (-3, -2, -1, 1, 2, 3)]
    costs = {p: raw[p] + 0.05 * sum(raw.get(p + d, cost(p + d)) for d in near) for p in positions}
    even = (length + (n - 1) * overlap) / n - overlap  # seam spacing of equal windows
    # best[k][p]: least cost of seams 1..k with seam k at p, and where seam k-1 was.
    best: list[dict[float, tuple[float, float]]] = [{0.0: (0.0, -1.0)}]
    for k in range(1, n):
        layer: dict[float, tuple[float, float]] = {}
        for p in positions:
            if k == n - 1 and length - p > room + 1e-6:
                continue
            prior = [(v[0], q) for q, v in best[-1].items() if p - q > overlap and p + overlap - q <= room + 1e-6]
            if not prior:
                continue
            total, q = min(prior)
            # A little for each millimetre from the even split: ties go to even windows.
            layer[p] = (total + costs[p] + 0.001 * abs(p - k * even), q)
        best.append(layer)
    if not best[-1]:
        return split(length, room, overlap)
    seams = [min(best[-1], key=lambda p: (best[-1][p][0], p))]
    for k in range(n - 1, 1, -1):
        seams.append(best[k][seams[-1]][1])
    seams.reverse()
    starts = [0.0, *seams]
    ends = [s + overlap for s in seams] + [length]
    return tuple(zip(starts, ends, strict=True))


def mark_points(lay: Layout, seam: float, vertical: bool, span: tuple[float, float],
                avoid: Sequence[Keep] = ()) -> tuple[float, float]:
    """Two places along a seam (`span`: its extent on the other axis) for the alignment marks, one in
    each half, where the crosshair covers least: no character, then no panel or icon; nearest the
    thirds when several are clear."""
    lo, hi = span
    inset = 6 * mm
    out = []
    halves = ((lo + inset, (lo + hi) / 2, lo + (hi - lo) / 3), ((lo + hi) / 2, hi - inset, lo + (hi - lo) * 2 / 3))
    for a, b, target in halves:
        best = None
        t = a
        while t <= b + 1e-6:
            x, y = (seam, t) if vertical else (t, seam)
            key = (lay.mark_cost(x, y, avoid), abs(t - target))
            if best is None or key < best[0]:
                best = (key, t)
            t += 1 * mm
        out.append(best[1] if best else target)
    return out[0], out[1]


def chosen_tiling(lay: Layout, board_w: float, board_h: float, room_w: float, room_h: float,
                  overlap: float = OVERLAP) -> Tiling:
    """`imposition.tiling`'s sheets, with each seam where the board's layout lets it cut nothing."""
    xs = windows(board_w, room_w, overlap, lambda x: lay.seam_cost(x, True))
    # Windows down the board are measured from its top; a seam there is the top edge of the sheet below.
    down = windows(board_h, room_h, overlap, lambda d: lay.seam_cost(board_h - d, False))
    ys = tuple((board_h - end, board_h - start) for start, end in down)
    return Tiling(xs, ys, overlap)
