"""What every sheet carries besides the pieces: the furniture band (the 'print at 100%' note, the
sheet's name and instructions, a 50 mm ruler), cut marks from the trim edges out to the page edge,
separators between blocks, fold lines, glue strips and alignment marks.

Cut marks are drawn in `CUT`, solid; guides (fold lines, glue strips) in `GUIDE`, dashed. Rulers
and alignment marks are form XObjects, one definition per document, so they can be found and
measured in the PDF (tests/pdfgeom.py does)."""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from generators.pdf.imposition import BAND_TOP, SAFE_EDGE

CUT = HexColor("#404040")
GUIDE = HexColor("#8a8a8a")
NOTE = HexColor("#4d4d4d")  # 8.4:1 on white
RULER_MM = 50
RULER_FORM = "roadkit-ruler"
MARK_FORM = "roadkit-mark"
MARK_R = 2.5 * mm
CUT_WIDTH = 0.35
SEPARATOR_WIDTH = 0.25
NOTE_SIZE = 6.0
SCALE_NOTE = f"Print at 100 % (actual size, not 'fit to page'): the ruler must measure {RULER_MM} mm."
RULER_SIZE = 6.0  # its numbers, like every note on the sheet
SCALE_NOTE_SPLIT = ("Actual size, not 'fit to page':", f"Print at 100 %: the ruler must measure {RULER_MM} mm.")
_RULER_W = (RULER_MM + 8) * mm  # the ruler with its numbers and unit


def furniture(c: Canvas, page: tuple[float, float], font: str, what: str, *,
              note: str = SCALE_NOTE, centre: tuple[float, str] | None = None) -> None:
    """The band along the bottom of the sheet, 6 mm inside the page edge, that no cut line crosses:
    two lines of text at the left (what this sheet is and what to do; the scale note), the 50 mm
    ruler at the right, and optionally a short label centred at x (the fold of a gutterfold sheet),
    which then has the sheet's text on its left and the scale note on its right."""
    pw, _ = page
    ruler_x = pw - SAFE_EDGE - _RULER_W + 1.5 * mm
    right = ruler_x - 4 * mm
    # A hair inside the edge: a few glyphs (T, J) reach a little left of where they start.
    left = SAFE_EDGE + 0.1 * mm
    if centre is None:
        _band_text(c, font, [what, note], left, right)
    else:
        cx, label = centre
        _band_text(c, font, [label], cx - 10 * mm, cx + 10 * mm, align="center")
        _band_text(c, font, _two_lines(what, font, cx - 8 * mm - left), left, cx - 8 * mm)
        notes = list(SCALE_NOTE_SPLIT) if note == SCALE_NOTE else _two_lines(note, font, right - cx - 8 * mm)
        _band_text(c, font, notes, cx + 8 * mm, right)
    ruler(c, ruler_x, SAFE_EDGE + 1.9 * mm)


def _two_lines(text: str, font: str, width: float) -> list[str]:
    """`text` on one line of the band's size if it fits the width, else broken into two at a space."""
    if stringWidth(text, font, NOTE_SIZE) <= width:
        return [text]
    words = text.split(" ")
    for k in range(len(words) - 1, 0, -1):
        first = " ".join(words[:k])
        if stringWidth(first, font, NOTE_SIZE) <= width:
            return [first, " ".join(words[k:])]
    return [text]


def _band_text(c: Canvas, font: str, lines: Sequence[str], left: float, right: float,
               align: str = "left") -> None:
    """Up to two lines in the band at 6 pt; shrunk to the width only if a text is too long for it
    (the kit's own texts are not: tests/test_print_small.py reads every page)."""
    width = right - left
    size = NOTE_SIZE
    while size > 4.0 and max(stringWidth(t, font, size) for t in lines) > width:
        size = round(size - 0.25, 2)
    c.saveState()
    p = c.beginPath()
    p.rect(left, SAFE_EDGE, width, BAND_TOP - SAFE_EDGE)
    c.clipPath(p, stroke=0, fill=0)
    c.setFillColor(NOTE)
    c.setFont(font, size)
    baseline = SAFE_EDGE + 0.55 * mm  # the lowest line's descenders stay above SAFE_EDGE
    for k, text in enumerate(reversed(lines)):
        y = baseline + k * size * 1.1
        if align == "center":
            c.drawCentredString((left + right) / 2, y, text)
        else:
            c.drawString(left, y, text)
    c.restoreState()


def define_forms(c: Canvas, font: str) -> None:
    """The ruler and the alignment mark, defined once at the start of a document (defining a form in
    the middle of a page would lose that page's transparency states)."""
    c.beginForm(RULER_FORM, -2 * mm, -1.9 * mm, (RULER_MM + 8) * mm, 2.8 * mm)
    c.setStrokeColor(CUT)
    c.setLineWidth(0.3)
    c.line(0, 0, RULER_MM * mm, 0)
    for k in range(RULER_MM + 1):
        length = 2.6 * mm if k % 10 == 0 else (1.8 * mm if k % 5 == 0 else 1.0 * mm)
        c.line(k * mm, 0, k * mm, length)
    c.setFillColor(CUT)
    c.setFont(font, RULER_SIZE)
    for k in range(0, RULER_MM + 1, 10):
        c.drawCentredString(k * mm, -1.75 * mm, str(k))
    c.drawString(RULER_MM * mm + 2.2 * mm, -1.75 * mm, "mm")
    c.endForm()
    c.beginForm(MARK_FORM, -1.7 * MARK_R, -1.7 * MARK_R, 1.7 * MARK_R, 1.7 * MARK_R)
    c.setStrokeColor(CUT)
    c.setLineWidth(0.4)
    c.circle(0, 0, MARK_R, stroke=1, fill=0)
    c.line(-1.6 * MARK_R, 0, 1.6 * MARK_R, 0)
    c.line(0, -1.6 * MARK_R, 0, 1.6 * MARK_R)
    c.endForm()


def ruler(c: Canvas, x: float, y: float) -> None:
    """The 50 mm ruler with its zero at (x, y): ticks up from its base line, numbers under it."""
    c.saveState()
    c.translate(x, y)
    c.doForm(RULER_FORM)
    c.restoreState()


def cut_marks(c: Canvas, columns: Sequence[Sequence[float]], rows: Sequence[float], above: float, below: float,
              left: float, right: float) -> None:
    """Cut lines of a block from its trim edges out: at each of its column edges (`columns`: one
    sorted list per copy of the block on the sheet, two on a gutterfold sheet) up to `above` and
    down to `below`; at each row edge (`rows`, top first) out to `left` and `right`, and across the
    gutter between copies.

    Marks run over the bleed (it is cut away) so each keeps its full printable length."""
    top, bottom = rows[0], rows[-1]
    c.saveState()
    c.setStrokeColor(CUT)
    c.setLineWidth(CUT_WIDTH)
    for xs in columns:
        for x in xs:
            c.line(x, top, x, above)
            c.line(x, bottom, x, below)
    ends = [left, *[v for xs in sorted(columns, key=tuple) for v in (xs[0], xs[-1])], right]
    for y in rows:
        for a, b in zip(ends[::2], ends[1::2], strict=True):
            if b > a:
                c.line(a, y, b, y)
    c.restoreState()


def separator(c: Canvas, y: float, left: float, right: float) -> None:
    """A thin cut line between blocks of different sizes: cut here first, then each block on its marks."""
    c.saveState()
    c.setStrokeColor(CUT)
    c.setLineWidth(SEPARATOR_WIDTH)
    c.line(left, y, right, y)
    c.restoreState()


def fold_line(c: Canvas, x: float, bottom: float, top: float) -> None:
    c.saveState()
    c.setStrokeColor(GUIDE)
    c.setDash(3 * mm, 2 * mm)
    c.setLineWidth(0.5)
    c.line(x, bottom, x, top)
    c.restoreState()


def glue_strip(c: Canvas, x: float, y: float, w: float, h: float, text: str, font: str) -> None:
    """A hatched strip where the next sheet is glued on, with what goes there."""
    c.saveState()
    p = c.beginPath()
    p.rect(x, y, w, h)
    c.clipPath(p, stroke=0, fill=0)
    c.setFillColor(HexColor("#f2f2f2"))
    c.rect(x, y, w, h, stroke=0, fill=1)
    c.setStrokeColor(GUIDE)
    c.setLineWidth(0.3)
    step = 3 * mm
    span = w + h
    k = 0.0
    while k < span:
        c.line(x + k, y, x + k - h, y + h)
        k += step
    c.setFillColor(NOTE)
    c.setFont(font, NOTE_SIZE)
    c.translate(x + w / 2, y + h / 2)
    if h > w:
        c.rotate(90)
    c.drawCentredString(0, -NOTE_SIZE * 0.35, text)
    c.restoreState()


def edge_line(c: Canvas, x0: float, y0: float, x1: float, y1: float) -> None:
    """Where the next sheet's trimmed edge goes: a dashed guide across a glue strip's inner border."""
    c.saveState()
    c.setStrokeColor(GUIDE)
    c.setDash(1.5 * mm, 1 * mm)
    c.setLineWidth(0.4)
    c.line(x0, y0, x1, y1)
    c.restoreState()


def alignment_mark(c: Canvas, x: float, y: float, label: str, font: str, label_at: tuple[float, float]) -> None:
    """A crosshair in a circle, the same board point on both sheets of a join; its label at `label_at`
    (offset from the centre), on the side that is cut or glued over."""
    c.saveState()
    c.translate(x, y)
    c.doForm(MARK_FORM)
    c.setFillColor(CUT)
    c.setFont(font, 6)
    c.drawCentredString(label_at[0], label_at[1] - 2, label)
    c.restoreState()
