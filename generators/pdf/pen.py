"""What every art drawer holds besides the art (colours, fonts, icons), and the one way a content icon
is drawn in a box: shared by the art of faces (art.py) and the space maps (spacemap.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from reportlab.lib.colors import Color
from reportlab.pdfgen.canvas import Canvas

from generators.content.geometry import Box
from generators.content.model import Icons
from generators.pdf.icons import draw_icon
from generators.pdf.text import Fonts, note_box


@dataclass(frozen=True)
class Pen:
    """What art drawing needs besides the art: colours, fonts, icons."""

    ink: Color
    accent: Color
    paper: Color
    fonts: Fonts
    icons: Icons
    resolve: Callable[[str | None], Color]
    ink_saver: bool = False  # outlines instead of large solid areas
    arrow_extent: tuple[int, int] | None = None  # (columns, rows) every arrow path of the deck fits in


def draw_icon_in(c: Canvas, name: str, box: Box, pen: Pen, color: Color | None = None) -> None:
    """A content icon centred in `box`, as large as fits."""
    icon = pen.icons.icons[name]
    s = min(box.w, box.h)
    # Ink saver: big pictures as outlines; small ones stay solid, or they would not read.
    fill = icon.fill and not (pen.ink_saver and s > 40)
    note_box("icon", box.x + (box.w - s) / 2, box.y + (box.h - s) / 2, s, s)
    draw_icon(c, icon.path, box.x + (box.w - s) / 2, box.y + (box.h - s) / 2, s, fill=fill,
              color=color or pen.ink, stroke_width=1.2 if not fill else None)
