"""Embedded fonts. DejaVu ships in the package (not looked up on the system) so every machine
renders the same glyphs, with Cyrillic coverage, and the PDFs stay byte-identical."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

FONT_DIR = Path(__file__).parent / "fonts"
_FAMILIES = {
    "dejavu-sans": ("DejaVuSans", "DejaVuSans-Bold"),
    "dejavu-sans-condensed": ("DejaVuSansCondensed", "DejaVuSansCondensed-Bold"),
}


@cache
def register(family: str) -> tuple[str, str]:
    """Register a family's regular and bold faces with ReportLab; returns their font names."""
    names = _FAMILIES[family]
    for name in names:
        pdfmetrics.registerFont(TTFont(name, str(FONT_DIR / f"{name}.ttf")))
    return names


def font_files() -> list[Path]:
    return sorted(FONT_DIR.glob("*.ttf"))


def family_files(family: str) -> tuple[Path, ...]:
    """The font files of a family (regular, bold): what validation reads to know which characters print."""
    return tuple(FONT_DIR / f"{name}.ttf" for name in _FAMILIES[family])
