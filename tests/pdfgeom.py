"""Read the vector geometry of a PDF page back, in page points, for tests that measure in
millimetres: every stroked straight segment (with its colour, width and dash), every form XObject
placed on the page (with the matrix it is drawn with and the clip in force), and every text
character's box (through pdfium).

A small interpreter of the content-stream operators ReportLab writes; it follows q/Q, cm, colours,
line widths, dashes, paths, clips and Do into forms."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pypdf
import pypdfium2 as pdfium

MM = 72 / 25.4
Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def mul(m: Matrix, n: Matrix) -> Matrix:
    """m then n (PDF order: a point is transformed by m first)."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


def apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = m
    return a * x + c * y + e, b * x + d * y + f


@dataclass(frozen=True)
class Segment:
    x0: float
    y0: float
    x1: float
    y1: float
    color: tuple[float, float, float]
    width: float
    dashed: bool
    form: str | None  # the outermost form it was drawn in, None on the page itself

    @property
    def length(self) -> float:
        return ((self.x1 - self.x0) ** 2 + (self.y1 - self.y0) ** 2) ** 0.5

    def inside(self, left: float, bottom: float, right: float, top: float) -> float:
        """Length of the part of the segment inside a rectangle (the segment is straight: clip it)."""
        t0, t1 = 0.0, 1.0
        dx, dy = self.x1 - self.x0, self.y1 - self.y0
        for p, q in ((-dx, self.x0 - left), (dx, right - self.x0), (-dy, self.y0 - bottom), (dy, top - self.y0)):
            if abs(p) < 1e-12:
                if q < 0:
                    return 0.0
                continue
            t = q / p
            if p < 0:
                t0 = max(t0, t)
            else:
                t1 = min(t1, t)
        return max(0.0, t1 - t0) * self.length


@dataclass(frozen=True)
class FormUse:
    name: str
    matrix: Matrix  # form space to page space
    clip: tuple[float, float, float, float] | None  # left, bottom, right, top in page points
    within: str | None = None  # the outermost form it is drawn in, None when placed on the page itself

    @property
    def origin(self) -> tuple[float, float]:
        return self.matrix[4], self.matrix[5]


@dataclass
class Page:
    width: float
    height: float
    segments: list[Segment] = field(default_factory=list)
    forms: list[FormUse] = field(default_factory=list)
    fills: list[tuple[tuple[float, float, float, float], tuple[float, float, float], str | None]] = field(
        default_factory=list)  # (bbox, fill colour, form) of filled paths

    def lines(self, color: tuple[float, float, float] | None = None, *, dashed: bool | None = None,
              on_page: bool = True) -> list[Segment]:
        out = []
        for s in self.segments:
            if on_page and s.form is not None:
                continue
            if color is not None and any(abs(a - b) > 0.01 for a, b in zip(s.color, color, strict=True)):
                continue
            if dashed is not None and s.dashed != dashed:
                continue
            out.append(s)
        return out


@dataclass
class _State:
    ctm: Matrix = IDENTITY
    stroke: tuple[float, float, float] = (0.0, 0.0, 0.0)
    fill: tuple[float, float, float] = (0.0, 0.0, 0.0)
    width: float = 1.0
    dashed: bool = False
    clip: tuple[float, float, float, float] | None = None

    def copy(self) -> _State:
        return _State(self.ctm, self.stroke, self.fill, self.width, self.dashed, self.clip)


def _rgb(op: str, args: list[float]) -> tuple[float, float, float]:
    if op in ("G", "g"):
        return (args[0],) * 3  # type: ignore[return-value]
    if op in ("K", "k"):
        c, m, y, k = args
        return ((1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k))
    return (args[0], args[1], args[2])


def _bbox(points: list[tuple[float, float]]) -> tuple[float, float, float, float]:
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def _intersect(a, b):
    if a is None:
        return b
    return max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])


_TOKEN = re.compile(rb"""
    (?P<str>\((?:\\.|[^\\()])*\))       # a literal string (ReportLab escapes parentheses)
  | (?P<hex><[0-9A-Fa-f\s]*>)                 # a hex string
  | (?P<name>/[^\s/\[\]()<>{}%]+)
  | (?P<num>[+-]?(?:\d+\.?\d*|\.\d+))
  | (?P<open>\[) | (?P<close>\])
  | (?P<op>[A-Za-z'"*]+)
""", re.VERBOSE)


def operations(data: bytes) -> list[tuple[list, str]]:
    """(operands, operator) of a content stream: numbers as floats, names and strings as bytes,
    arrays as lists. Enough for what ReportLab writes, and much faster than a general parser."""
    ops: list[tuple[list, str]] = []
    operands: list = []
    stack: list[list] = []
    for m in _TOKEN.finditer(data):
        kind = m.lastgroup
        value = m.group()
        target = stack[-1] if stack else operands
        if kind == "num":
            target.append(float(value))
        elif kind in ("str", "hex", "name"):
            target.append(value.decode("latin-1"))
        elif kind == "open":
            stack.append([])
        elif kind == "close":
            inner = stack.pop()
            (stack[-1] if stack else operands).append(inner)
        else:
            ops.append((operands, value.decode("latin-1")))
            operands = []
    return ops


class _Reader:
    def __init__(self, reader: pypdf.PdfReader, page: Page):
        self.reader = reader
        self.page = page

    def run(self, stream, resources, state: _State, form: str | None) -> None:
        ops = operations(stream.get_data())
        stack: list[_State] = []
        path: list[tuple[str, list[tuple[float, float]]]] = []  # ("line"|"curve", points in page space)
        subpath_start: tuple[float, float] | None = None
        current: tuple[float, float] | None = None
        pending_clip = False
        for operands, op in ops:
            if op == "q":
                stack.append(state.copy())
            elif op == "Q":
                state = stack.pop()
            elif op == "cm":
                state.ctm = mul(tuple(float(v) for v in operands), state.ctm)  # type: ignore[arg-type]
            elif op == "w":
                state.width = float(operands[0])
            elif op == "d":
                state.dashed = bool(list(operands[0]))
            elif op in ("RG", "G", "K"):
                state.stroke = _rgb(op, [float(v) for v in operands])
            elif op in ("rg", "g", "k"):
                state.fill = _rgb(op, [float(v) for v in operands])
            elif op == "m":
                current = subpath_start = apply(state.ctm, float(operands[0]), float(operands[1]))
            elif op == "l":
                nxt = apply(state.ctm, float(operands[0]), float(operands[1]))
                path.append(("line", [current, nxt]))
                current = nxt
            elif op in ("c", "v", "y"):
                pts = [apply(state.ctm, float(operands[i]), float(operands[i + 1])) for i in range(0, len(operands), 2)]
                path.append(("curve", [current, *pts]))
                current = pts[-1]
            elif op == "h":
                if current is not None and subpath_start is not None and current != subpath_start:
                    path.append(("line", [current, subpath_start]))
                current = subpath_start
            elif op == "re":
                x, y, w, h = (float(v) for v in operands)
                corners = [apply(state.ctm, *p) for p in ((x, y), (x + w, y), (x + w, y + h), (x, y + h))]
                for i in range(4):
                    path.append(("line", [corners[i], corners[(i + 1) % 4]]))
                current = subpath_start = corners[0]
            elif op in ("W", "W*"):
                pending_clip = True
            elif op in ("S", "s", "f", "F", "f*", "B", "B*", "b", "b*", "n"):
                if op in ("S", "s", "B", "B*", "b", "b*"):
                    for kind, pts in path:
                        if kind == "line":
                            (x0, y0), (x1, y1) = pts
                            self.page.segments.append(Segment(x0, y0, x1, y1, state.stroke, state.width,
                                                              state.dashed, form))
                if op in ("f", "F", "f*", "B", "B*", "b", "b*") and path:
                    self.page.fills.append((_bbox([p for _, pts in path for p in pts]), state.fill, form))
                if pending_clip and path:
                    state.clip = _intersect(state.clip, _bbox([p for _, pts in path for p in pts]))
                pending_clip = False
                path = []
            elif op == "Do":
                self._do(operands[0], resources, state, form)

    def _do(self, name: str, resources, state: _State, form: str | None) -> None:
        xobjects = resources.get("/XObject") if resources else None
        if not xobjects or name not in xobjects:
            return
        xobj = xobjects[name].get_object()
        if xobj.get("/Subtype") != "/Form":
            return
        matrix = tuple(float(v) for v in xobj.get("/Matrix", IDENTITY))
        inner = state.copy()
        inner.ctm = mul(matrix, state.ctm)  # type: ignore[arg-type]
        self.page.forms.append(FormUse(name.removeprefix("/FormXob."), inner.ctm, state.clip, form))
        self.run(xobj, xobj.get("/Resources") or resources, inner, form or name.removeprefix("/FormXob."))


def read(path: Path) -> list[Page]:
    reader = pypdf.PdfReader(path)
    pages = []
    for p in reader.pages:
        page = Page(float(p.mediabox.width), float(p.mediabox.height))
        _Reader(reader, page).run(p.get_contents(), p.get("/Resources"), _State(), None)
        pages.append(page)
    return pages


@dataclass(frozen=True)
class Char:
    text: str
    left: float
    bottom: float
    right: float
    top: float


def chars(path: Path) -> list[list[Char]]:
    """Every character of every page with its box in page points (pdfium's text layer)."""
    pdf = pdfium.PdfDocument(str(path))
    out = []
    try:
        for page in pdf:
            tp = page.get_textpage()
            found = []
            for i in range(tp.count_chars()):
                text = tp.get_text_range(i, 1)
                if not text.strip():
                    continue
                left, bottom, right, top = tp.get_charbox(i)
                found.append(Char(text, left, bottom, right, top))
            out.append(found)
    finally:
        pdf.close()
    return out


def find(line_chars: list[Char], text: str) -> list[Char]:
    """The characters of the first occurrence of `text` (spaces ignored) on a page."""
    want = text.replace(" ", "")
    joined = "".join(c.text for c in line_chars)
    i = joined.find(want)
    return line_chars[i:i + len(want)] if i >= 0 else []


def net_opposites(centres: dict[str, tuple[float, float]], s: float) -> set[frozenset[str]]:
    """Opposite faces of a folded cross net: two apart in the long strip, and the two arms."""
    names = list(centres)
    cells = {n: (round(centres[n][0] / s), round(-centres[n][1] / s)) for n in names}
    pairs = set()
    for a in names:
        for b in names:
            (ca, ra), (cb, rb) = cells[a], cells[b]
            if a < b and ((ca == cb and abs(ra - rb) == 2) or (ra == rb and abs(ca - cb) == 2)):
                pairs.add(frozenset((a, b)))
    return pairs
