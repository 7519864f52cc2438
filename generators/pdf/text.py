"""Text on faces: wrapping, shrink-to-fit, **bold** and inline :icons: on the baseline.

Fitting is a contract: every box has a minimum size (`GAMEPLAY` for anything a player reads to
play), and text that does not fit at it is never drawn outside the box. `measure` is the one
function that decides; the renderer draws what it returns and the content validation (see
`generators.pdf.fit`) reports what it refuses, so the two cannot disagree.

A word breaks only after a hyphen, a slash or a soft hyphen (U+00AD) the content puts in it.

Text is drawn with drawString, never through a markup parser, so `<`, `&` and quotes in content
print literally."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Generic, Literal, TypeVar

from reportlab.lib.colors import Color
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from generators.content.model import Icons
from generators.pdf.colour import readable
from generators.pdf.icons import draw_icon, forget_paths

GAMEPLAY = 6.5  # pt: the smallest size of anything a player reads to play
TAG = 6.0  # pt: the quiet tags (provenance, copy number) no rule depends on, still for players to read
LEADING = 1.2
_STEP = 0.25

_PIECE = re.compile(r"(\*\*|\\:|:[a-z0-9][a-z0-9-]*:|\n|[ \t]+)")  # `\:` is a literal colon
_BREAK_AFTER = re.compile(r"(?<=[-/–—·\u00ad])")  # a long word may break after these, and nowhere else
SOFT_HYPHEN = "\u00ad"  # a break point content marks inside a word: a hyphen where it breaks, else nothing

KeyPath = tuple[str | int, ...]


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


@lru_cache(maxsize=1 << 16)
def _string_width(text: str, font: str, size: float) -> float:
    """ReportLab's width, remembered: fitting tries every quarter point of every box, so the same
    words are measured at the same sizes again and again (same arguments, same float: bytes unchanged)."""
    return stringWidth(text, font, size)


def _width(run: Run, fonts: Fonts, size: float) -> float:
    if run.kind == "word":
        return _string_width(run.value, fonts.name(run.bold), size)
    if run.kind == "icon":
        return size * 1.05
    if run.kind == "space":
        return _string_width(" ", fonts.name(run.bold), size)
    return 0.0


def line_width(line: list[Run], fonts: Fonts, size: float) -> float:
    return sum(_width(r, fonts, size) for r in line)


def _parts(run: Run, fonts: Fonts, size: float, width: float) -> list[Run]:
    """A word too wide for the line, cut after its hyphens and slashes; otherwise whole."""
    if run.kind != "word" or _width(run, fonts, size) <= width:
        return [run]
    return [Run("word", p, run.bold) for p in _BREAK_AFTER.split(run.value) if p]


def wrap(runs: list[Run], fonts: Fonts, size: float, width: float) -> list[list[Run]]:
    """Greedy line breaking; spaces at line starts and ends are dropped; a word wider than the line
    breaks after a hyphen or slash where it has one."""
    lines: list[list[Run]] = [[]]
    used = 0.0
    for whole in runs:
        if whole.kind == "break":
            lines.append([])
            used = 0.0
            continue
        for run in _parts(whole, fonts, size, width):
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
    for line in lines:
        while line and line[-1].kind == "space":
            line.pop()
        line[:] = _settle_soft_hyphens(line)
    return lines


def _settle_soft_hyphens(line: list[Run]) -> list[Run]:
    """A soft hyphen ending a line prints as a hyphen; anywhere else it prints as nothing."""
    out = []
    for i, run in enumerate(line):
        if run.kind == "word" and SOFT_HYPHEN in run.value:
            value = run.value
            if i == len(line) - 1 and value.endswith(SOFT_HYPHEN):
                value = value[:-1] + "-"
            run = Run("word", value.replace(SOFT_HYPHEN, ""), run.bold)
        out.append(run)
    return out


@dataclass(frozen=True)
class Fit:
    """The outcome of fitting text to a box: the size and lines to draw, and whether they fit."""

    size: float
    lines: list[list[Run]]
    width: float  # the widest line, points
    height: float  # lines x leading, points
    fits: bool
    problem: str = ""  # why not, in words with millimetres


def measure(runs: list[Run], fonts: Fonts, width: float, height: float, size: float,
            min_size: float = GAMEPLAY) -> Fit:
    """The largest size from `size` down to `min_size` (in steps of a quarter point) at which the
    text fits the box; at `min_size` and still too big, a Fit that says by how much. Remembered: every
    copy of a card measures the same texts in the same boxes (the Fit returned is shared: read only)."""
    return _measure(tuple(runs), fonts, width, height, size, min_size)


@lru_cache(maxsize=1 << 13)
def _measure(runs: tuple[Run, ...], fonts: Fonts, width: float, height: float, size: float,
             min_size: float) -> Fit:
    s = max(size, min_size)
    while True:
        lines = wrap(list(runs), fonts, s, width)
        widest = max((line_width(line, fonts, s) for line in lines), default=0.0)
        used = len(lines) * s * LEADING
        fits = widest <= width + 0.01 and used <= height + 0.01
        if fits or s <= min_size:
            return Fit(s, lines, widest, used, fits, "" if fits else _problem(lines, fonts, s, width, height))
        s = max(min_size, round(s - _STEP, 2))


def _mm(points: float) -> str:
    return f"{points * 25.4 / 72:.1f} mm"


def _quoted(word: str, most: int = 40) -> str:
    """A word as an error message quotes it: a very long one by its start and its length, so one
    message stays one short line whatever the content holds."""
    return repr(word) if len(word) <= most else f"{word[:most]!r}… ({len(word)} characters)"


def _problem(lines: list[list[Run]], fonts: Fonts, size: float, width: float, height: float) -> str:
    box = f"the box is {_mm(width)} x {_mm(height)}"
    for line in lines:
        for run in line:
            if run.kind == "word" and _width(run, fonts, size) > width + 0.01:
                return (f"the word {_quoted(run.value)} is {_mm(_width(run, fonts, size))} wide at {size:g} pt, "
                        f"wider than the line ({box}); shorten it, or mark a break with a hyphen or a soft "
                        "hyphen (\\u00ad)")
    used = len(lines) * size * LEADING
    return (f"at the minimum {size:g} pt it takes {len(lines)} lines, {_mm(used)} high: {box}, "
            f"{_mm(used - height)} too much; shorten the text")


# ---------------------------------------------------------------------------------------------
# The audit: what validation and the tests learn from a render


@dataclass(frozen=True)
class Drawn:
    """One text box as drawn: where its text comes from, at what size, in which colours."""

    key: KeyPath
    text: str
    size: float
    min_size: float
    color: Color | None
    on: Color | None


@dataclass(frozen=True)
class Overflow:
    key: KeyPath
    text: str
    problem: str


@dataclass
class Audit:
    """Collects every text box drawn while it is active (see `auditing`)."""

    drawn: list[Drawn] = field(default_factory=list)
    overflows: list[Overflow] = field(default_factory=list)
    boxes: list[tuple[str, tuple[float, float, float, float]]] = field(default_factory=list)  # (role, x y w h)


_AUDIT: ContextVar[Audit | None] = ContextVar("roadkit_text_audit", default=None)


@contextmanager
def auditing() -> Iterator[Audit]:
    audit = Audit()
    token = _AUDIT.set(audit)
    try:
        yield audit
    finally:
        _AUDIT.reset(token)


def note_box(role: str, x: float, y: float, w: float, h: float) -> None:
    """Record where a non-text element (art, badge) went, for the layout tests."""
    audit = _AUDIT.get()
    if audit is not None:
        audit.boxes.append((role, (x, y, w, h)))


def note_text(key: KeyPath, text: str, size: float, color: Color | None, on: Color | None) -> None:
    """Record text drawn outside `draw_text` (a badge's letter), for the tests that read what a side says."""
    audit = _AUDIT.get()
    if audit is not None:
        audit.drawn.append(Drawn(key, text, size, size, color, on))


def _segments(line: list[Run]) -> list[list[Run]]:
    """Split a line into icons and stretches of words and spaces sharing one font."""
    out: list[list[Run]] = []
    for run in line:
        if run.kind == "icon" or not out or out[-1][0].kind == "icon" or out[-1][0].bold != run.bold:
            out.append([run])
        else:
            out[-1].append(run)
    return out


T = TypeVar("T")


class _Same(Generic[T]):
    """A cache key for an unhashable object that never changes (the icons): equal only to itself. The
    cache holding it keeps the object alive, so its id cannot pass to another while the entry lives."""

    __slots__ = ("obj",)

    def __init__(self, obj: T) -> None:
        self.obj = obj

    def __hash__(self) -> int:
        return id(self.obj)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Same) and other.obj is self.obj


@dataclass(frozen=True)
class _Segment:
    """A stretch of a line to draw in one go: an icon (`font` None, `value` its name) or words in one font."""

    font: str | None
    value: str
    width: float


@dataclass(frozen=True)
class _Block:
    """Fitted text as draw_text draws it: the fit, and each line's width and segments."""

    fit: Fit
    lines: tuple[tuple[float, tuple[_Segment, ...]], ...]


@lru_cache(maxsize=1 << 13)
def _block(text: str, icons: _Same[Icons], fonts: Fonts, width: float, height: float, size: float,
           min_size: float) -> _Block:
    """Tokenised, fitted and measured once per text and box: a card printed several times, on several
    papers, in its PNG and in the text-fit check, is laid out once per process."""
    fit = measure(tokenize(text, icons.obj), fonts, width, height, size, min_size)
    lines = tuple((line_width(line, fonts, fit.size), tuple(_segment(seg, fonts, fit.size) for seg in _segments(line)))
                  for line in fit.lines)
    return _Block(fit, lines)


def _segment(runs: list[Run], fonts: Fonts, size: float) -> _Segment:
    width = line_width(runs, fonts, size)
    if runs[0].kind == "icon":
        return _Segment(None, runs[0].value, width)
    return _Segment(fonts.name(runs[0].bold), "".join(r.value if r.kind == "word" else " " for r in runs), width)


@lru_cache(maxsize=1 << 10)
def _readable(color: Color, on: Color) -> Color:
    return readable(color, on)


def forget_layouts() -> None:
    """Empty the text layout memos, and the icons' (for measuring a cold render)."""
    for memo in (_string_width, _measure, _block, _readable):
        memo.cache_clear()
    forget_paths()


def draw_text(c: Canvas, text: str, icons: Icons, fonts: Fonts, x: float, top: float, width: float,
              height: float, size: float, *, align: Literal["left", "center", "right"] = "left",
              color: Color | None = None, on: Color | None = None, min_size: float = GAMEPLAY,
              valign: Literal["top", "middle"] = "top",
              key: KeyPath = ()) -> float:
    """Draw `text` in the box whose top-left is (x, top); returns the height used.

    `on` is the colour behind the box: the text colour is adjusted to read on it. Text that does not
    fit at `min_size` is reported to the active audit and drawn clipped to the box."""
    block = _block(text, _Same(icons), fonts, width, height, size, min_size)
    fit = block.fit
    if color is not None and on is not None:
        color = _readable(color, on)
    audit = _AUDIT.get()
    if audit is not None:
        audit.drawn.append(Drawn(key, text, fit.size, min_size, color, on))
        if not fit.fits:
            audit.overflows.append(Overflow(key, text, fit.problem))
    s = fit.size
    lead = s * LEADING
    y = top - s
    if valign == "middle":
        y -= max(0.0, (height - fit.height) / 2)
    c.saveState()
    if not fit.fits:
        p = c.beginPath()
        p.rect(x, top - height, width, height)
        c.clipPath(p, stroke=0, fill=0)
    if color is not None:
        c.setFillColor(color)
    words = None  # one text object for the strings between icons: fewer objects to build and write
    for line_w, segments in block.lines:
        cx = x + (0.0 if align == "left" else (width - line_w) / 2 if align == "center" else width - line_w)
        for segment in segments:
            if segment.font is None:
                if words is not None:
                    c.drawText(words)
                    words = None
                icon = icons.icons[segment.value]
                # Sit the icon on the baseline, dipping a little like a descender.
                draw_icon(c, icon.path, cx, y - s * 0.18, s * 1.05, fill=icon.fill, color=color)
            else:
                # One string per same-font stretch: text extracts as written, and the PDF stays small.
                if words is None:
                    words = c.beginText(cx, y)
                else:
                    words.setTextOrigin(cx, y)
                words.setFont(segment.font, s)
                words.textLine(segment.value)
            cx += segment.width
        y -= lead
    if words is not None:
        c.drawText(words)
    c.restoreState()
    return min(fit.height, height)
