"""How an example's diagram is shown: big enough that its smallest text reads at 12 px.

The rules check draws each diagram as SVG in its own units (1 unit = 1 CSS pixel at natural size).
The site reads the drawing's size and its smallest font size and shows it at the width where that
font reaches MIN_TEXT_PX; where that is wider than a phone, the figure scrolls sideways and a tap
opens it full screen. What the drawing holds (zoom, legend, arrows) is the rules check's business.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

MIN_TEXT_PX = 12.0

_VIEWBOX = re.compile(r"""<svg\b[^>]*?\bviewBox\s*=\s*["']\s*[-\d.]+[\s,]+[-\d.]+[\s,]+([\d.]+)[\s,]+([\d.]+)""", re.S)
_SIZE = re.compile(r"""<svg\b[^>]*?\bwidth\s*=\s*["']([\d.]+)(?:px)?["'][^>]*?\bheight\s*=\s*["']([\d.]+)(?:px)?["']""",
                   re.S)
_FONT = re.compile(r"""font-size\s*(?:=\s*["']|:\s*)([\d.]+)(?:px)?""")


@dataclass(frozen=True)
class Diagram:
    path: str  # docs-relative path of the staged SVG
    width: float  # the drawing's own size
    height: float
    min_font: float | None  # its smallest font size, None when it has no text

    @property
    def scale(self) -> float:
        return max(1.0, MIN_TEXT_PX / self.min_font) if self.min_font else 1.0

    @property
    def display_width(self) -> int:
        return round(self.width * self.scale)

    @property
    def display_height(self) -> int:
        return round(self.height * self.scale)


@cache
def measure(svg: Path) -> tuple[float, float, float | None]:
    """(width, height, smallest font size) of an SVG file; (300, 200, None) when unreadable."""
    try:
        text = svg.read_text("utf-8", errors="replace")
    except OSError:
        return 300.0, 200.0, None
    m = _VIEWBOX.search(text) or _SIZE.search(text)
    width, height = (float(m.group(1)), float(m.group(2))) if m else (300.0, 200.0)
    sizes = [float(s) for s in _FONT.findall(text) if float(s) > 0]
    return width, height, (min(sizes) if sizes else None)


def diagram(docs_path: str, source: Path) -> Diagram:
    width, height, font = measure(source)
    return Diagram(docs_path, width, height, font)
