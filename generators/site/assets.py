"""Files the site shows or offers that other parts of Roadkit made: face PNGs and PDFs from the
print kit, diagrams and the report from the rules check. Each is staged under the docs folder only
if it exists, so a link is never written to a file that is not there (strict MkDocs would fail)."""

from __future__ import annotations

import posixpath
from dataclasses import dataclass
from pathlib import Path

from generators.content.loader import Content
from generators.content.model import Component, LoadedGame
from generators.pdf.kit import document_targets, face_images, png_name, variant_dir
from generators.pdf.options import CARD_KINDS, TOKEN_KINDS, Options

PAPERS = ("a4", "letter")
PAPER_LABELS = {"a4": "A4", "letter": "US Letter"}
DOC_LABELS = {
    "cards-duplex": "Cards (duplex)",
    "cards-gutterfold": "Cards (gutterfold)",
    "tokens": "Tokens and tiles",
    "boards": "Boards",
    "dice": "Dice",
}
DOC_HELP = {
    "cards-duplex": "fronts and backs on alternate pages; print double-sided, flip on the long edge",
    "cards-gutterfold": "front and back side by side; print single-sided, fold, glue",
    "tokens": "print double-sided, flip on the long edge",
    "boards": "large boards split across sheets with overlap and alignment marks",
    "dice": "fold-up dice nets",
}


@dataclass(frozen=True)
class Download:
    doc: str  # cards-duplex, tokens, ...
    label: str
    help: str
    files: dict[str, str]  # paper -> docs-relative path (only papers whose PDF exists)


@dataclass(frozen=True)
class GameAssets:
    faces: dict[tuple[str, str | None, str], str]  # (component id, face id | None, front|back) -> docs path
    downloads: tuple[Download, ...]
    copies: dict[str, Path]  # docs path -> source file
    missing_pngs: int
    missing_pdfs: int


def game_assets(content: Content, game: LoadedGame, out: Path) -> GameAssets:
    copies: dict[str, Path] = {}
    faces: dict[tuple[str, str | None, str], str] = {}
    missing_pngs = 0
    for comp, face_id, which, _side in face_images(game):
        name = png_name(comp, face_id, which)
        src = out / "png" / game.id / name
        if src.is_file():
            dest = posixpath.join(game.id, "faces", name)
            copies[dest] = src
            faces[(comp.id, face_id, which)] = dest
        else:
            missing_pngs += 1
    downloads: dict[str, dict[str, str]] = {}
    missing_pdfs = 0
    for paper in PAPERS:
        opts = Options(paper=paper)
        for target in document_targets(content, game, [opts], out):
            doc = target.path.stem.removeprefix(f"{game.id}-")
            downloads.setdefault(doc, {})
            if target.path.is_file():
                dest = posixpath.join(game.id, "downloads", variant_dir(opts), target.path.name)
                copies[dest] = target.path
                downloads[doc][paper] = dest
            else:
                missing_pdfs += 1
    return GameAssets(
        faces=faces,
        downloads=tuple(Download(doc, DOC_LABELS.get(doc, doc.replace("-", " ").capitalize()),
                                 DOC_HELP.get(doc, ""), files) for doc, files in downloads.items()),
        copies=copies,
        missing_pngs=missing_pngs,
        missing_pdfs=missing_pdfs,
    )


def docs_for(comp: Component) -> tuple[str, ...]:
    """Which documents print a component (by its kind, as generators.pdf.kit groups them)."""
    if comp.kind in CARD_KINDS:
        return ("cards-duplex", "cards-gutterfold")
    if comp.kind in TOKEN_KINDS:
        return ("tokens",)
    if comp.kind == "board":
        return ("boards",)
    if comp.kind == "dice":
        return ("dice",)
    return ()
