"""Small print: every character on every page of the kit, both papers (sheet notes, provenance
tags, copy numbers, badges, the ruler's numbers, mark labels, the calibration scales), at 6 pt or
more, read back from the PDFs."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_raw
import pytest

LEAST = 6.0


@pytest.fixture(scope="module")
def kit(print_kit: Path) -> Path:
    return print_kit  # the session's print kit (tests/conftest.py), shared with the other print tests


def _too_small(path: Path) -> list[str]:
    found = []
    pdf = pdfium.PdfDocument(str(path))
    try:
        for n, page in enumerate(pdf, 1):
            tp = page.get_textpage()
            for i in range(tp.count_chars()):
                ch = tp.get_text_range(i, 1)
                size = pdfium_raw.FPDFText_GetFontSize(tp, i)
                if ch.strip() and size < LEAST - 0.01:
                    found.append(f"{path.parent.name}/{path.name} page {n}: {ch!r} at {size:.2f} pt")
    finally:
        pdf.close()
    return found


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_no_character_below_6_pt(kit: Path, paper: str) -> None:
    pdfs = sorted((kit / "print" / paper).glob("*.pdf"))
    assert len(pdfs) >= 15
    found = [problem for path in pdfs for problem in _too_small(path)]
    assert found == [], found[:20]


def test_the_check_reads_sizes(tmp_path: Path) -> None:
    """The size pdfium reports is the size drawn: a 5 pt line is caught, a 6 pt one is not."""
    from reportlab.pdfgen.canvas import Canvas

    from generators.pdf.fonts import register

    regular, _ = register("dejavu-sans")
    path = tmp_path / "sizes.pdf"
    c = Canvas(str(path), pagesize=(200, 100), initialFontName=regular)
    c.setFont(regular, 5)
    c.drawString(10, 10, "five")
    c.setFont(regular, 6)
    c.drawString(10, 50, "six")
    c.save()
    assert [p.split(": ")[1] for p in _too_small(path)] == [f"{ch!r} at 5.00 pt" for ch in "five"]
