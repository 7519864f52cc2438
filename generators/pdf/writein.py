"""Write-in spaces of a proxy face: each a label followed by ruled lines, on which the owner of the boxed
game copies their own card's text by hand (the proxies kit, `roadkit print --proxies`)."""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.lib.colors import Color
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from generators.content.model import WriteIn

LINE_PITCH = 6.5 * mm  # room for handwriting; lines close up only if the face has no room for them
MIN_PITCH = 4 * mm
LABEL_SIZE = 7.0
MIN_LABEL_SIZE = 5.0


def draw_write_in(c: Canvas, entries: Sequence[WriteIn], bold: str, x: float, top: float, w: float, h: float,
                  ink: Color, rule: Color) -> None:
    """Lay the entries out from `top` down within (x, w, h): a label on the first line of each entry, its
    rule running on from the label to the right edge, then the entry's further lines ruled full width."""
    total = sum(e.lines for e in entries)
    if not total or h <= 0:
        return
    pitch = max(MIN_PITCH, min(LINE_PITCH, h / total))
    c.saveState()
    c.setLineWidth(0.5)
    c.setStrokeColor(rule)
    c.setFillColor(ink)
    baseline = top
    for entry in entries:
        for line in range(entry.lines):
            baseline -= pitch
            if baseline < top - h - 0.01:
                break  # never below the box: the content gave more lines than the face holds
            start = x
            if line == 0:
                size = _label_size(entry.label, bold, w * 0.6)
                c.setFont(bold, size)
                c.drawString(x, baseline + 1.0 * mm, entry.label)
                start = x + stringWidth(entry.label, bold, size) + 1.5 * mm
            c.line(start, baseline + 0.6 * mm, x + w, baseline + 0.6 * mm)
    c.restoreState()


def write_in_height(entries: Sequence[WriteIn]) -> float:
    """The height the entries take at full line spacing."""
    return sum(e.lines for e in entries) * LINE_PITCH


def _label_size(label: str, font: str, most: float) -> float:
    """The label's size: LABEL_SIZE, smaller for a long label so that its rule keeps some length."""
    width = stringWidth(label, font, LABEL_SIZE)
    return LABEL_SIZE if width <= most else max(MIN_LABEL_SIZE, LABEL_SIZE * most / width)
