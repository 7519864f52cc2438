"""What every sheet carries besides the pieces: the 'print at 100%' note, a ruler to check the
scale, cut lines running to the page edge, fold and alignment marks."""

from __future__ import annotations

from reportlab.lib.colors import Color, HexColor
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from generators.pdf.imposition import Grid

CUT = HexColor("#404040")
GUIDE = HexColor("#8a8a8a")
RULER_MM = 50


def note_and_ruler(c: Canvas, page: tuple[float, float], font: str, label: str,
                   ruler_span: tuple[float, float] | None = None) -> None:
    """Scale note up the left margin, a 50 mm ruler up the right margin.

    `ruler_span` is a vertical range (bottom, top) free of cut lines where the ruler should sit."""
    pw, ph = page
    c.saveState()
    c.setFillColor(GUIDE)
    c.setFont(font, 6)
    c.translate(3.2 * mm, ph / 2)
    c.rotate(90)
    c.drawCentredString(0, 0, f"Print at 100% (actual size, no 'fit to page'). The ruler must measure {RULER_MM} mm."
                        f"  ·  {label}")
    c.restoreState()
    lo, hi = ruler_span or (ph / 2 - RULER_MM * mm / 2, ph / 2 + RULER_MM * mm / 2)
    start = lo + max(0.0, (hi - lo - RULER_MM * mm) / 2)
    _ruler(c, pw - 2.5 * mm, start, font)


def _ruler(c: Canvas, x: float, y0: float, font: str) -> None:
    c.saveState()
    c.setStrokeColor(CUT)
    c.setLineWidth(0.3)
    c.line(x, y0, x, y0 + RULER_MM * mm)
    for k in range(RULER_MM + 1):
        length = 2.2 * mm if k % 10 == 0 else (1.5 * mm if k % 5 == 0 else 0.8 * mm)
        c.line(x - length, y0 + k * mm, x, y0 + k * mm)
    c.setFillColor(CUT)
    c.setFont(font, 4.5)
    for k in (0, 10, 20, 30, 40, 50):
        c.drawRightString(x - 2.6 * mm, y0 + k * mm - 1.5, str(k))
    c.drawRightString(x - 0.3 * mm, y0 + RULER_MM * mm + 1.5 * mm, "mm")
    c.restoreState()


def cut_lines(c: Canvas, page: tuple[float, float], grid: Grid, used: int, bleed: float,
              x_range: tuple[float, float] | None = None, y_range: tuple[float, float] | None = None) -> None:
    """Lines from the block's bleed edge out to the page edge (or to the `x_range` / `y_range`
    limits where other blocks share the sheet), one per shared cut.

    Only rows and columns that hold pieces get lines, so a half-empty last page has no stray cuts."""
    pw, ph = page
    bottom_end, top_end = y_range or (0.0, ph)
    rows_used = (used + grid.cols - 1) // grid.cols
    cols_used = grid.cols if rows_used > 1 else used
    xs = grid.xs()[: cols_used + 1]
    top = grid.y0 + grid.rows * grid.h
    ys = [top - k * grid.h for k in range(rows_used + 1)]
    left, right = x_range or (0.0, pw)
    c.saveState()
    c.setStrokeColor(CUT)
    c.setLineWidth(0.35)
    for x in xs:
        c.line(x, top + bleed, x, top_end)
        c.line(x, ys[-1] - bleed, x, bottom_end)
    for y in ys:
        c.line(left, y, xs[0] - bleed, y)
        c.line(xs[-1] + bleed, y, right, y)
    c.restoreState()


def fold_line(c: Canvas, page: tuple[float, float], font: str) -> None:
    pw, ph = page
    c.saveState()
    c.setStrokeColor(GUIDE)
    c.setDash(3 * mm, 2 * mm)
    c.setLineWidth(0.5)
    c.line(pw / 2, 0, pw / 2, ph)
    c.setFillColor(GUIDE)
    c.setFont(font, 6)
    c.drawCentredString(pw / 2, ph - 3 * mm, "fold")
    c.drawCentredString(pw / 2, 2 * mm, "fold")
    c.restoreState()


def alignment_mark(c: Canvas, x: float, y: float, label: str, font: str, color: Color = CUT) -> None:
    """A crosshair in a circle with a label: matched by the same mark on the neighbouring sheet."""
    c.saveState()
    c.setStrokeColor(color)
    c.setLineWidth(0.4)
    r = 2.5 * mm
    c.circle(x, y, r, stroke=1, fill=0)
    c.line(x - 1.6 * r, y, x + 1.6 * r, y)
    c.line(x, y - 1.6 * r, x, y + 1.6 * r)
    c.setFillColor(color)
    c.setFont(font, 5)
    c.drawString(x + r + 0.8 * mm, y + r * 0.3, label)
    c.restoreState()
