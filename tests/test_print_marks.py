"""Two small face elements any game may use: a mark in a card's top-left corner (a cost), and a
board element framed in its own colour (zones of a gauge)."""

from __future__ import annotations

import io

import pypdf
import pypdfium2 as pdfium
from PIL import ImageChops

from generators.content.model import Component, Element, Face, Side
from generators.pdf.documents import single_side
from generators.pdf.faces import Look
from tests.helpers import real_content

GAME = real_content().game("mission-drive")
ICONS = real_content().icons


def _pdf(comp: Component, side: Side) -> bytes:
    return single_side(Look(GAME, ICONS), comp, side, "")


def test_corner_left_prints_beside_the_title() -> None:
    side = Side(title="Blood Rush", provenance="house", corner="R", corner_left="3 C", text="Draw 2 cards.")
    comp = Component(id="c", name="C", kind="cards", count=1, faces=(Face(id="a", front=side),))
    text = pypdf.PdfReader(io.BytesIO(_pdf(comp, side))).pages[0].extract_text()
    assert "3 C" in text and "Blood Rush" in text and "R" in text
    plain = Side(title="Blood Rush", provenance="house", corner="R", text="Draw 2 cards.")
    assert "3 C" not in (pypdf.PdfReader(io.BytesIO(_pdf(comp, plain))).pages[0].extract_text() or "")


def _green_pixels(pdf: bytes) -> int:
    image = pdfium.PdfDocument(pdf)[0].render(scale=4).to_pil().convert("RGB")
    r, g, b = (band.point(lambda v, lo=lo, hi=hi: 255 if lo <= v <= hi else 0) for band, (lo, hi) in
               zip(image.split(), ((0, 90), (181, 255), (0, 90)), strict=True))
    both = ImageChops.multiply(ImageChops.multiply(r, g), b)
    return both.histogram()[255]


def test_element_colour_frames_that_element_only() -> None:
    def board(color: str | None) -> tuple[Component, Side]:
        el = Element(x=10, y=10, width=30, height=20, style="panel", color=color)
        side = Side(title="Gauge", provenance="house", layout="full", color="primary", elements=(el,))
        return Component(id="b", name="B", kind="board", count=1, size="square-tile",
                         faces=(Face(id="a", front=side),)), side

    assert _green_pixels(_pdf(*board("#00c000"))) > 50
    assert _green_pixels(_pdf(*board(None))) == 0
