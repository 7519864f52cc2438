"""Text on faces: wrapping, shrink-to-fit, **bold** and inline :icons: on the baseline.

Text is drawn with drawString, never through a markup parser, so `<`, `&` and quotes in content
print literally."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from generators.content.model import Icons
from generators.pdf.icons import draw_icon

_PIECE = re.compile(r"(\*\*|\\:|:[a-z0-9][a-z0-9-]*:|\n|[ \t]+)")  # `\:` is a literal colon


@dataclass(frozen=True)
class Run:
    kind: Literal["word", "icon", "space", "break"]
    value: str = ""
    bold: bool = False


def tokenize(text: str, icons: Icons) -> list[Run]:
    runs: list[Run] = []
    bold = False
    for piece in _PIECE.split(text):
        if not piece:
            continue
        if piece == "**":
            bold = not bold
        elif piece == "\n":
            runs.append(Run("break"))
        elif piece.isspace():
            runs.append(Run("space", bold=bold))
        elif piece.startswith(":") and piece.endswith(":") and piece[1:-1] in icons.icons:
            runs.append(Run("icon", piece[1:-1], bold))
        elif runs and runs[-1].kind == "word" and runs[-1].bold == bold:  # `1:2:3`, `a\:b`: one word
            runs[-1] = Run("word", runs[-1].value + (":" if piece == "\\:" else piece), bold)
        else:
            runs.append(Run("word", ":" if piece == "\\:" else piece, bold))
    return runs


@dataclass(frozen=True)
class Fonts:
    regular: str
    bold: str

    def name(self, bold: bool) -> str:
        return self.bold if bold else self.regular


def _width(run: Run, fonts: Fonts, size: float) -> float:
    if run.kind == "word":
        return stringWidth(run.value, fonts.name(run.bold), size)
    if run.kind == "icon":
        return size * 1.05
    if run.kind == "space":
        return stringWidth(" ", fonts.name(run.bold), size)
    return 0.0


def wrap(runs: list[Run], fonts: Fonts, size: float, width: float) -> list[list[Run]]:
    """Greedy line breaking; spaces at line starts are dropped."""
    lines: list[list[Run]] = [[]]
    used = 0.0
    for run in runs:
        if run.kind == "break":
            lines.append([])
            used = 0.0
            continue
        w = _width(run, fonts, size)
        if run.kind == "space":
            if lines[-1]:
                lines[-1].append(run)
                used += w
            continue
        if used + w > width and lines[-1]:
            while lines[-1] and lines[-1][-1].kind == "space":
                lines[-1].pop()
            lines.append([])
            used = 0.0
        lines[-1].append(run)
        used += w
    return lines


def fit(runs: list[Run], fonts: Fonts, width: float, height: float, size: float,
        min_size: float = 5.0, leading: float = 1.2) -> tuple[float, list[list[Run]]]:
    """The largest size from `size` down to `min_size` at which the text fits the box."""
    s = size
    while True:
        lines = wrap(runs, fonts, s, width)
        fits_w = all(sum(_width(r, fonts, s) for r in line) <= width + 0.01 for line in lines)
        if (len(lines) * s * leading <= height and fits_w) or s <= min_size:
            return s, lines
        s = round(s - 0.25, 2)


def _segments(line: list[Run]) -> list[list[Run]]:
    """Split a line into icons and stretches of words and spaces sharing one font."""
    out: list[list[Run]] = []
    for run in line:
        if run.kind == "icon" or not out or out[-1][0].kind == "icon" or out[-1][0].bold != run.bold:
            out.append([run])
        else:
            out[-1].append(run)
    return out


def draw_text(c: Canvas, text: str, icons: Icons, fonts: Fonts, x: float, top: float, width: float,
              height: float, size: float, *, align: Literal["left", "center"] = "left", color: object = None,
              min_size: float = 5.0, valign: Literal["top", "middle"] = "top") -> float:
    """Draw `text` in the box whose top-left is (x, top); returns the height used."""
    runs = tokenize(text, icons)
    s, lines = fit(runs, fonts, width, height, size, min_size)
    lead = s * 1.2
    used = len(lines) * lead
    y = top - s
    if valign == "middle":
        y -= max(0.0, (height - used) / 2)
    c.saveState()
    if color is not None:
        c.setFillColor(color)
    for line in lines:
        line_w = sum(_width(r, fonts, s) for r in line)
        cx = x + (width - line_w) / 2 if align == "center" else x
        for segment in _segments(line):
            if segment[0].kind == "icon":
                icon = icons.icons[segment[0].value]
                # Sit the icon on the baseline, dipping a little like a descender.
                draw_icon(c, icon.path, cx, y - s * 0.18, s * 1.05, fill=icon.fill, color=color)
            else:
                # One string per same-font stretch: text extracts as written, and the PDF stays small.
                c.setFont(fonts.name(segment[0].bold), s)
                c.drawString(cx, y, "".join(r.value if r.kind == "word" else " " for r in segment))
            cx += sum(_width(r, fonts, s) for r in segment)
        y -= lead
    c.restoreState()
    return used
