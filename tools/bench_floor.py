"""The ReportLab floor for `make bench`: the same cards as our duplex card documents, drawn with plain
ReportLab calls and nothing of Roadkit's layout: 9-up on A4, each front page followed by its backs
page mirrored for long-edge flipping, the same embedded font, the same texts (title, subtitle, body,
copy label) wrapped with ReportLab's own simpleSplit, a coloured frame per card. What our PDF phase
costs per card is compared against this.

    python -m tools.bench_floor [--content content] [--out floor.pdf]
"""

from __future__ import annotations

import argparse
import io
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from reportlab.lib.colors import HexColor
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from generators.pdf.fonts import FONT_DIR  # the fonts the print kit embeds, where the package keeps them

CARD_W, CARD_H = 63 * mm, 88 * mm
COLS = ROWS = 3


@dataclass(frozen=True)
class Card:
    """One printed copy: the texts of its front and back."""

    title: str
    subtitle: str
    body: str
    label: str
    back_title: str


def cards_of(content_dir: Path) -> list[Card]:
    """Every card copy of every game, as our duplex card documents print them (legend cards aside)."""
    from generators.content.loader import load_content
    from generators.pdf.documents import pieces
    from generators.pdf.options import CARD_KINDS

    content = load_content(content_dir)
    out = []
    for game in content.games:
        for p in pieces(game, CARD_KINDS):
            out.append(Card(p.front.title or "", p.front.subtitle or "", _body(p.front), p.label,
                            p.back.title if p.back is not None and p.back.title else ""))
    return out


def _body(side: object) -> str:
    text = getattr(side, "text", None)
    return text if isinstance(text, str) else ""


def register_fonts() -> tuple[str, str]:
    for name in ("DejaVuSans", "DejaVuSans-Bold"):
        pdfmetrics.registerFont(TTFont(name, str(FONT_DIR / f"{name}.ttf")))
    return "DejaVuSans", "DejaVuSans-Bold"


def _slot(i: int, mirrored: bool) -> tuple[float, float]:
    col, row = i % COLS, i // COLS
    if mirrored:
        col = COLS - 1 - col
    x0 = (A4[0] - COLS * CARD_W) / 2
    top = (A4[1] + ROWS * CARD_H) / 2
    return x0 + col * CARD_W, top - (row + 1) * CARD_H


def _front(c: Canvas, card: Card, x: float, y: float, fonts: tuple[str, str]) -> None:
    regular, bold = fonts
    c.setFillColor(HexColor("#f6f1e7"))
    c.setStrokeColor(HexColor("#1f4e79"))
    c.setLineWidth(2)
    c.rect(x + 3 * mm, y + 3 * mm, CARD_W - 6 * mm, CARD_H - 6 * mm, stroke=1, fill=1)
    c.setFillColor(HexColor("#1b1b1b"))
    c.setFont(bold, 11)
    c.drawString(x + 5 * mm, y + CARD_H - 10 * mm, card.title)
    c.setFont(regular, 8)
    c.drawString(x + 5 * mm, y + CARD_H - 15 * mm, card.subtitle)
    line_y = y + CARD_H - 22 * mm
    for line in simpleSplit(card.body, regular, 8, CARD_W - 10 * mm):
        c.drawString(x + 5 * mm, line_y, line)
        line_y -= 10
    c.setFont(regular, 6.5)
    c.drawRightString(x + CARD_W - 5 * mm, y + 5 * mm, card.label)


def _back(c: Canvas, card: Card, x: float, y: float, fonts: tuple[str, str]) -> None:
    c.setFillColor(HexColor("#1f4e79"))
    c.rect(x, y, CARD_W, CARD_H, stroke=0, fill=1)
    c.setFillColor(HexColor("#f6f1e7"))
    c.setFont(fonts[1], 14)
    c.drawCentredString(x + CARD_W / 2, y + CARD_H / 2, card.back_title)


def floor_document(cards: Sequence[Card], fonts: tuple[str, str]) -> bytes:
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=A4, invariant=1, pageCompression=1, initialFontName=fonts[0])
    per_sheet = COLS * ROWS
    for start in range(0, len(cards), per_sheet):
        sheet = cards[start:start + per_sheet]
        for i, card in enumerate(sheet):
            _front(c, card, *_slot(i, False), fonts)
        c.showPage()
        for i, card in enumerate(sheet):
            _back(c, card, *_slot(i, True), fonts)
        c.showPage()
    c.save()
    return buf.getvalue()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--content", type=Path, default=Path("content"))
    p.add_argument("--out", type=Path, default=None)
    args = p.parse_args(argv)
    cards = cards_of(args.content)
    fonts = register_fonts()
    start = time.process_time()
    data = floor_document(cards, fonts)
    cpu = time.process_time() - start
    if args.out:
        args.out.write_bytes(data)
    print(f"{len(cards)} cards, {cpu:.3f} s CPU, {cpu / len(cards) * 1000:.2f} ms per card, {len(data) / 1024:.0f} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
