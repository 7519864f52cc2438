"""The duplex calibration sheet: crosshairs on the front, scales behind them on the back, so a
user reads how far their printer shifts the back of a page, and a 50 mm ruler to check the scale.

Sign convention (the same as `--back-offset X,Y`): backs move right by X mm and up by Y mm as seen
from the back. A scale's zero is where the front's cross should be; the reading where it is found
is the offset to pass."""

from __future__ import annotations

import io

from reportlab.lib.colors import black
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from generators.pdf.fonts import register
from generators.pdf.imposition import FOOT, PAPERS, SHEET
from generators.pdf.options import Options
from generators.pdf.sheets import CUT, NOTE, define_forms, furniture

SCALE_MM = 8  # each scale reads -8 .. +8 mm
SCALE_GAP = 11 * mm  # the scales sit this far below and left of where the front's cross should show
CROSS_ARM = 17 * mm  # long enough to reach both scales with the back shifted up to 5 mm


def targets(page: tuple[float, float]) -> list[tuple[float, float]]:
    """Where the front crosses are: the middle of the sheet and near its four corners, clear of the
    heading, the furniture band and (on the back) the scales' numbers."""
    pw, ph = page
    top, bottom = ph - SHEET.top - 55 * mm, FOOT + 40 * mm
    left, right = 40 * mm, pw - 40 * mm
    return [(pw / 2, (top + bottom) / 2), (left, top), (right, top), (left, bottom), (right, bottom)]


def calibration(opts: Options, family: str = "dejavu-sans") -> bytes:
    regular, bold = register(family)
    page = PAPERS[opts.paper]
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=page, invariant=1, pageCompression=1, initialFontName=regular)
    define_forms(c, regular)
    c.setTitle(f"Roadkit — duplex calibration ({opts.paper.upper()})")
    c.setAuthor("Roadkit")
    c.setCreator("Roadkit print kit")
    c.setSubject(f"Print at 100% on {opts.paper.upper()}, double-sided, flip on the long edge")
    dx, dy = opts.back_offset
    _front(c, page, regular, bold)
    furniture(c, page, regular, f"Duplex calibration · front · printed with back offset {dx:g},{dy:g} mm. "
              "Print double-sided, flip on the long edge.")
    c.showPage()
    _back(c, page, regular, bold, dx * mm, dy * mm)
    furniture(c, page, regular, f"Duplex calibration · back · read X and Y where the front's centre cross shows; "
              f"then: roadkit print --back-offset {dx:g}+X,{dy:g}+Y")
    c.showPage()
    c.save()
    return buf.getvalue()


def _front(c: Canvas, page: tuple[float, float], regular: str, bold: str) -> None:
    _heading(c, page, bold, regular, "Duplex calibration: front", [
        "1. Print this file double-sided (flip on the long edge) at 100 % (actual size).",
        "2. Hold the sheet against a bright light, back side towards you (or push a pin through",
        "   the centre of each cross below), and read where each cross falls on the back's scales.",
    ])
    for k, (x, y) in enumerate(targets(page)):
        _cross(c, x, y)
        c.setFillColor(NOTE)
        c.setFont(regular, 6.5)
        c.drawString(x + 2 * mm, y + 2 * mm, "centre" if k == 0 else f"corner {k}")


def _back(c: Canvas, page: tuple[float, float], regular: str, bold: str, dx: float, dy: float) -> None:
    pw, _ = page
    _heading(c, page, bold, regular, "Duplex calibration: back", [
        "Read where the front's cross shows through on the scales: its upright line on the lower",
        "scale (X), its level line on the left scale (Y), in mm.",
        "Then build with  roadkit print --back-offset X,Y  (add it to the offset this sheet was",
        "printed with). Backs move right by X mm and up by Y mm, as seen from the back.",
        "The four corner readings should agree with the centre; if not, the printer also skews.",
    ])
    for x, y in targets(page):
        _scales(c, pw - x + dx, y + dy, regular)


def _heading(c: Canvas, page: tuple[float, float], bold: str, regular: str, title: str, lines: list[str]) -> None:
    top = page[1] - SHEET.top
    c.setFillColor(CUT)
    c.setFont(bold, 11)
    c.drawString(SHEET.left, top - 11, title)
    c.setFont(regular, 7.5)
    for k, line in enumerate(lines):
        c.drawString(SHEET.left, top - 24 - k * 9.5, line)


def _cross(c: Canvas, x: float, y: float) -> None:
    c.saveState()
    c.setStrokeColor(black)
    c.setLineWidth(0.25)
    c.line(x - CROSS_ARM, y, x + CROSS_ARM, y)
    c.line(x, y - CROSS_ARM, x, y + CROSS_ARM)
    c.circle(x, y, 1 * mm, stroke=1, fill=0)
    c.restoreState()


def _scales(c: Canvas, x: float, y: float, font: str) -> None:
    """Where the front's cross should show through, (x, y): a small dotted reference cross, a
    millimetre scale under it to read the cross's vertical line on (X) and one left of it to read
    its horizontal line on (Y). Half-millimetre ticks, longer every millimetre and every 2 mm, numbers
    every 4 mm, positive to the right and up as seen from this side."""
    c.saveState()
    c.setStrokeColor(black)
    c.setFillColor(black)
    c.setLineWidth(0.2)
    span = SCALE_MM * mm
    c.setDash(0.5, 1)
    c.line(x - 3 * mm, y, x + 3 * mm, y)
    c.line(x, y - 3 * mm, x, y + 3 * mm)
    c.setDash()
    sx, sy = y - SCALE_GAP, x - SCALE_GAP  # the X scale's line (a height), the Y scale's line (an x)
    c.line(x - span, sx, x + span, sx)
    c.line(sy, y - span, sy, y + span)
    c.setFont(font, 6)
    for k in range(-2 * SCALE_MM, 2 * SCALE_MM + 1):
        t = k * 0.5 * mm
        length = 1.6 * mm if k % 4 == 0 else (1.0 * mm if k % 2 == 0 else 0.6 * mm)
        c.line(x + t, sx, x + t, sx + length)
        c.line(sy, y + t, sy + length, y + t)
        if k % 8 == 0:
            label = f"{k // 2:+d}" if k else "0"
            c.drawCentredString(x + t, sx - 2.2 * mm, label)
            c.drawRightString(sy - 0.8 * mm, y + t - 1.5, label)
    c.setFont(font, 6)
    c.drawString(x + span + 1 * mm, sx - 0.7 * mm, "X")
    c.drawCentredString(sy, y + span + 1 * mm, "Y")
    c.restoreState()
