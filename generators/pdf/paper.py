"""Sheets of paper a built print kit takes, per paper, game and document: a duplex document's pages in
pairs (front and back on one sheet), every other document's one page to a sheet. The benchmark
reports them and the tests hold each game under its count before the print kit v3 work."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium

DUPLEX_DOCS = ("cards-duplex", "tokens")  # two pages (front, back) to a sheet
CALIBRATION = "duplex-calibration.pdf"  # shared by every game


def sheet_counts(print_dir: Path) -> dict[str, dict[str, dict[str, int]]]:
    """paper -> game -> document -> sheets, for every game's PDF under `print_dir` (build/print)."""
    out: dict[str, dict[str, dict[str, int]]] = {}
    for paper in ("a4", "letter"):
        for pdf in sorted((print_dir / paper).glob("*.pdf")):
            game, _, doc = pdf.stem.rpartition("-cards-") if "-cards-" in pdf.stem else pdf.stem.rpartition("-")
            if not game or pdf.name == CALIBRATION:
                continue
            doc = f"cards-{doc}" if "-cards-" in pdf.stem else doc
            document = pdfium.PdfDocument(pdf)
            try:
                pages = len(document)
            finally:
                document.close()
            out.setdefault(paper, {}).setdefault(game, {})[doc] = pages // 2 if doc in DUPLEX_DOCS else pages
    return out


def route_total(docs: dict[str, int]) -> int:
    """The sheets one game takes with duplex cards: everything but the gutterfold alternative."""
    return sum(n for doc, n in docs.items() if doc != "cards-gutterfold")
