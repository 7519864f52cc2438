"""Icons are SVG path data in a 24x24 box (content/icons.yaml), drawn here as vector paths on a
ReportLab canvas."""

from __future__ import annotations

from functools import lru_cache

from reportlab.pdfgen.canvas import FILL_EVEN_ODD, Canvas
from reportlab.pdfgen.pathobject import PDFPathObject

from generators.content.svg_path import parse_path


@lru_cache(maxsize=1 << 12)
def _path_code(data: str, x: float, y: float, size: float) -> str:
    """The PDF path operators of icon `data` placed at (x, y), `size` wide, remembered: a face draws its
    icons at the same places in every document and PNG it appears in (faces are drawn at the origin)."""
    scale = size / 24.0
    p = PDFPathObject()
    for cmd in parse_path(data):
        op = cmd[0]
        if op == "M":
            p.moveTo(x + cmd[1] * scale, y + (24 - cmd[2]) * scale)
        elif op == "L":
            p.lineTo(x + cmd[1] * scale, y + (24 - cmd[2]) * scale)
        elif op == "C":
            p.curveTo(x + cmd[1] * scale, y + (24 - cmd[2]) * scale, x + cmd[3] * scale, y + (24 - cmd[4]) * scale,
                      x + cmd[5] * scale, y + (24 - cmd[6]) * scale)
        else:
            p.close()
    return p.getCode()


def forget_paths() -> None:
    """Empty the placed-path memo (for measuring a cold render)."""
    _path_code.cache_clear()


def draw_icon(c: Canvas, data: str, x: float, y: float, size: float, *, fill: bool = True,
              color: object = None, stroke_width: float | None = None) -> None:
    """Draw icon path `data` with its 24x24 box's bottom-left at (x, y), `size` points wide.
    SVG's y axis points down, the PDF's up: flip while placing."""
    p = PDFPathObject([_path_code(data, x, y, size)])
    c.saveState()
    if color is not None:
        c.setFillColor(color)
        c.setStrokeColor(color)
    if fill:
        c.drawPath(p, stroke=0, fill=1, fillMode=FILL_EVEN_ODD)  # holes in icons stay open
    else:
        c.setLineWidth(stroke_width if stroke_width is not None else max(0.6, size / 14))
        c.setLineJoin(1)
        c.setLineCap(1)
        c.drawPath(p, stroke=1, fill=0)
    c.restoreState()
