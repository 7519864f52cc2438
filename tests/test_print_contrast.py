"""Contrast read back from each face as printed: every character of every face of every game reaches
4.5:1 against every colour that covers a real part of its box underneath it.

The text's colour is the fill the PDF paints it with; what is under it is the same page rendered with
its text taken out (no smoothing, so only the colours the drawing code used appear). This sees what a
declared background (`draw_text(on=...)`) cannot: a border, a stripe or a ring running under a label."""

from __future__ import annotations

import ctypes
from collections import Counter
from functools import cache

import pypdfium2 as pdfium
import pypdfium2.raw as raw
import pytest
from PIL import Image
from reportlab.lib.colors import Color

from generators.content.loader import walk_sides
from generators.pdf.colour import MIN_CONTRAST, contrast
from generators.pdf.documents import single_side
from generators.pdf.faces import Look
from tests.helpers import real_content

DPI = 150
SHARE = 0.03  # a colour under less of a character's box than this is a hairline's edge, not its ground

RGB = tuple[int, int, int]


@cache
def content():
    return real_content()


def _colour(c: RGB) -> Color:
    return Color(c[0] / 255, c[1] / 255, c[2] / 255)


def _read(pdf: bytes) -> tuple[list[tuple[str, tuple[float, float, float, float], RGB]], Image.Image]:
    """Each character (its box in points and its fill colour) and the page rendered without text."""
    doc = pdfium.PdfDocument(pdf)
    try:
        page = doc[0]
        tp = page.get_textpage()
        chars = []
        r, g, b, a = (ctypes.c_uint() for _ in range(4))
        for i in range(tp.count_chars()):
            ch = tp.get_text_range(i, 1)
            if ch.strip():
                assert raw.FPDFText_GetFillColor(tp, i, r, g, b, a)
                chars.append((ch, tp.get_charbox(i), (r.value, g.value, b.value)))
        for obj in list(page.get_objects(max_depth=1)):
            if obj.type == raw.FPDF_PAGEOBJ_TEXT:
                page.remove_obj(obj)
        page.gen_content()
        img = page.render(scale=DPI / 72, no_smoothpath=True, no_smoothimage=True).to_pil().convert("RGB")
        return chars, img
    finally:
        doc.close()


def _worst(pdf: bytes) -> tuple[float, str]:
    """The lowest contrast of any character on any colour under a real part of it, and that character."""
    chars, img = _read(pdf)
    k = DPI / 72
    worst = (21.0, "")
    for ch, (left, bottom, right, top), colour in chars:
        x0, y0 = int(left * k), int(img.height - top * k)
        box = img.crop((x0, y0, max(int(right * k), x0 + 1), max(int(img.height - bottom * k), y0 + 1)))
        pixels = box.get_flattened_data() if hasattr(box, "get_flattened_data") else box.getdata()
        under = Counter(pixels)
        total = sum(under.values())
        for ground, n in under.items():
            if n / total >= SHARE:
                worst = min(worst, (contrast(_colour(colour), _colour(ground)), ch))
    return worst


@pytest.mark.parametrize("game_id", [g.id for g in real_content().games if g.components])
def test_every_character_reads_on_what_is_under_it(game_id: str) -> None:
    game = content().game(game_id)
    look = Look(game, content().icons)
    checked, problems = 0, []
    for comp in game.components:
        for path, side in walk_sides(comp):
            ratio, ch = _worst(single_side(look, comp, side, f"{comp.count}/{comp.count}"))
            checked += 1
            if ratio < MIN_CONTRAST:
                problems.append(f"{comp.id} {'.'.join(map(str, path))}: {ch!r} at {ratio:.2f}:1")
    assert checked > 10
    assert problems == []


def test_the_check_sees_a_stripe_under_a_word() -> None:
    """White text on a dark fill reads; a yellow stripe run under it is caught."""
    from io import BytesIO

    from reportlab.lib.colors import HexColor, white
    from reportlab.lib.units import mm
    from reportlab.pdfgen.canvas import Canvas

    from generators.pdf.fonts import register

    regular, _ = register("dejavu-sans")

    def page(stripe: bool) -> bytes:
        buf = BytesIO()
        c = Canvas(buf, pagesize=(40 * mm, 20 * mm), initialFontName=regular)
        c.setFillColor(HexColor("#333333"))
        c.rect(0, 0, 40 * mm, 20 * mm, stroke=0, fill=1)
        if stripe:
            c.setStrokeColor(HexColor("#f2c200"))
            c.setLineWidth(1.5)
            c.line(0, 10 * mm + 2, 40 * mm, 10 * mm + 2)
        c.setFillColor(white)
        c.setFont(regular, 6)
        c.drawString(5 * mm, 10 * mm, "a4 label")
        c.save()
        return buf.getvalue()

    assert _worst(page(False))[0] >= MIN_CONTRAST
    assert _worst(page(True))[0] < 2
