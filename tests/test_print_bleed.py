"""Bleed, read back from the printed pixels: wherever a face's art reaches its trim, it runs on 3 mm
past it, so a cut a little outside the line leaves no paper-coloured sliver at a road's end.

Every face of every game on both papers, on its sheets (cards and tokens double-sided, fronts and
backs) and every board: along each edge of a face that no neighbour shares (where pieces abut the cut
is shared and the neighbour's face is beyond it), a pixel just inside the trim that is not the paper
colour must have art, not paper, in the bleed beyond it."""

from __future__ import annotations

import io
from collections.abc import Iterator
from functools import cache

import pypdfium2 as pdfium
import pytest
from PIL import Image
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from generators.pdf import documents
from generators.pdf.faces import BLEED, Look, bleeds
from generators.pdf.imposition import PAPERS
from generators.pdf.options import CARD_KINDS, TOKEN_KINDS, Options
from tests.helpers import real_content

DPI = 150
PX = 72 / DPI  # points per pixel
INSIDE = 0.35 * mm  # where "just inside the trim" is read
OUTSIDE = (0.8 * mm, 1.6 * mm, 2.4 * mm)  # where the bleed is read: paper at all three is a bleed with no art
CORNER = 1.5 * mm  # cut marks meet the trim at a face's corners: read the edge clear of them
STEP = 0.8 * mm
Rect = tuple[float, float, float, float]  # left, bottom, right, top (points)


@cache
def content():
    return real_content()


def _pages(pdf: bytes) -> list[Image.Image]:
    doc = pdfium.PdfDocument(pdf)
    try:
        return [doc[i].render(scale=DPI / 72).to_pil().convert("RGB") for i in range(len(doc))]
    finally:
        doc.close()


def _far(a: tuple[int, int, int], b: tuple[int, int, int], limit: int = 40) -> bool:
    return sum(abs(x - y) for x, y in zip(a, b, strict=True)) > limit


def _edges(r: Rect) -> Iterator[tuple[str, list[tuple[float, float]], tuple[float, float]]]:
    """Each edge of a trim rectangle: its name, points along it (clear of the corners), and its outward normal."""
    left, bottom, right, top = r

    def along(a: float, b: float) -> list[float]:
        n = max(int((b - a - 2 * CORNER) / STEP), 0)
        return [a + CORNER + k * STEP for k in range(n + 1)]

    yield "left", [(left, y) for y in along(bottom, top)], (-1.0, 0.0)
    yield "right", [(right, y) for y in along(bottom, top)], (1.0, 0.0)
    yield "bottom", [(x, bottom) for x in along(left, right)], (0.0, -1.0)
    yield "top", [(x, top) for x in along(left, right)], (0.0, 1.0)


def _strip(r: Rect, normal: tuple[float, float]) -> Rect:
    left, bottom, right, top = r
    nx, ny = normal
    if nx:
        return (right, bottom, right + BLEED, top) if nx > 0 else (left - BLEED, bottom, left, top)
    return (left, top, right, top + BLEED) if ny > 0 else (left, bottom - BLEED, right, bottom)


def _touches(a: Rect, b: Rect) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > 0.01 and min(a[3], b[3]) - max(a[1], b[1]) > 0.01


def _stops(img: Image.Image, page_h: float, r: Rect, others: list[Rect], paper: tuple[int, int, int],
           edges: tuple[str, ...] = ("left", "right", "bottom", "top")) -> list[str]:
    """The edges of face `r` (page points) where art just inside the trim meets paper in the bleed."""

    def px(x: float, y: float) -> tuple[int, int, int]:
        return img.getpixel((int(x / PX), int((page_h - y) / PX)))  # type: ignore[return-value]

    found = []
    for name, points, (nx, ny) in _edges(r):
        if name not in edges or any(_touches(_strip(r, (nx, ny)), o) for o in others):
            continue  # a neighbour's face is beyond this edge
        bad = [(x, y) for x, y in points
               if _far(px(x - nx * INSIDE, y - ny * INSIDE), paper)
               and not any(_far(px(x + nx * d, y + ny * d), paper) for d in OUTSIDE)]
        if bad:
            x, y = bad[0]
            found.append(f"{name} edge: art stops at the trim at {len(bad)} of {len(points)} points "
                         f"(first at {x / mm:.1f}, {y / mm:.1f} mm on the page)")
    return found


def _rgb(look: Look) -> tuple[int, int, int]:
    p = look.paper
    return round(p.red * 255), round(p.green * 255), round(p.blue * 255)


def _games():
    return [g.id for g in content().games if g.components]


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game_id", _games())
def test_art_at_the_trim_runs_into_the_bleed_on_every_sheet(game_id: str, paper: str) -> None:
    game = content().game(game_id)
    look = Look(game, content().icons)
    opts = Options(paper=paper)
    page = PAPERS[paper]
    problems, faces, bled = [], 0, 0
    for kinds, title in ((CARD_KINDS, "cards"), (TOKEN_KINDS, "tokens")):
        sheets = documents._sheets(documents.with_legend(game, look, kinds, paper), page)
        if not sheets:
            continue
        images = _pages(documents.duplex(game, look, opts, kinds, title))
        assert len(images) == 2 * len(sheets)
        for n, sheet in enumerate(sheets):
            for img, placed in ((images[2 * n], documents._fronts(sheet)),
                                (images[2 * n + 1], documents._backs(sheet, page[0]))):
                rects = [documents.footprint(p) for p in placed]
                for p, r in zip(placed, rects, strict=True):
                    if p.comp.shape == "round":
                        continue  # a disc's trim is the circle its ring draws, inside the square read here
                    faces += 1
                    bled += bleeds(p.comp, p.side)
                    for problem in _stops(img, page[1], r, [o for o in rects if o is not r], _rgb(look)):
                        problems.append(f"{title} sheet {n + 1}: {p.comp.id} {p.side.title!r}: {problem}")
    assert faces
    assert problems == []


@pytest.mark.parametrize("game_id", [g for g in _games()
                                     if any(c.kind == "board" for c in content().game(g).components)])
def test_board_art_at_the_trim_runs_into_the_bleed(game_id: str) -> None:
    """Each board side as its sheets show it: the form with its bleed, on a page of its own."""
    game = content().game(game_id)
    look = Look(game, content().icons)
    problems = []
    for n, piece in enumerate(documents.pieces(game, ("board",))):
        for side in (piece.front, piece.back):
            if side is None:
                continue
            bw, bh = piece.size
            buf = io.BytesIO()
            c = Canvas(buf, pagesize=(bw + 4 * BLEED, bh + 4 * BLEED), invariant=1, initialFontName=look.fonts.regular)
            documents._board_form(c, look, piece, side, f"board-{n}")
            c.translate(2 * BLEED, 2 * BLEED)
            c.doForm(f"board-{n}")
            c.save()
            img = _pages(buf.getvalue())[0]
            r = (2 * BLEED, 2 * BLEED, 2 * BLEED + bw, 2 * BLEED + bh)
            problems += [f"{piece.comp.id} {side.title!r}: {p}" for p in _stops(img, bh + 4 * BLEED, r, [], _rgb(look))]
    assert problems == []


def test_the_check_sees_a_road_that_stops_at_the_trim() -> None:
    """A dark bar to the trim on a paper page, with paper beyond: caught; the same bar run on: not."""
    paper = (246, 241, 231)
    for run_on, expected in ((0.0, ["top edge"]), (BLEED, [])):
        buf = io.BytesIO()
        c = Canvas(buf, pagesize=(60 * mm, 60 * mm))
        c.setFillColorRGB(*(v / 255 for v in paper))
        c.rect(0, 0, 60 * mm, 60 * mm, stroke=0, fill=1)
        c.setFillColorRGB(0.1, 0.1, 0.1)
        c.rect(25 * mm, 20 * mm, 10 * mm, 20 * mm + run_on, stroke=0, fill=1)  # the trim's top is at 40 mm
        c.save()
        img = _pages(buf.getvalue())[0]
        found = _stops(img, 60 * mm, (10 * mm, 10 * mm, 50 * mm, 40 * mm), [], paper)
        assert [f.split(":")[0] for f in found] == expected
