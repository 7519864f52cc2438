"""Files the site shows or offers that other parts of Roadkit made: face PNGs and PDFs from the
print kit, diagrams and the report from the rules check. Each is staged under the docs folder only
if it exists, so a link is never written to a file that is not there (strict MkDocs would fail)."""

from __future__ import annotations

import io
import posixpath
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from PIL import Image

from generators.build_system.build_graph import Manifest, Target, code_version, digest, files_key
from generators.content.loader import Content
from generators.content.model import Component, LoadedGame
from generators.pdf.options import CARD_KINDS, TOKEN_KINDS, Options
from generators.pdf.print_targets import document_targets, face_images, png_name, variant_dir

PAPERS = ("a4", "letter")
# The components page shows every face at most about 280 CSS px wide: a copy 560 px across (sharp on
# a phone's 2x screen) in WebP is a tenth of the print PNG's bytes. The PNG stays for the galleries.
THUMB_PX = 560
THUMB_CODE = ("generators.site.assets",)
THUMBS = "site-thumbs"  # under build/: one per face PNG, a target keyed by that PNG's own key (its content)
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
class Thumb:
    path: str  # docs path
    width: int
    height: int


@dataclass(frozen=True)
class GameAssets:
    faces: dict[tuple[str, str | None, str], str]  # (component id, face id | None, front|back) -> docs path
    thumbs: dict[tuple[str, str | None, str], Thumb]  # the same keys -> a small copy for the components page
    downloads: tuple[Download, ...]
    copies: dict[str, Path]  # docs path -> source file
    missing_pngs: int
    missing_pdfs: int


def game_assets(content: Content, game: LoadedGame, out: Path) -> GameAssets:
    copies: dict[str, Path] = {}
    faces: dict[tuple[str, str | None, str], str] = {}
    thumbs: dict[tuple[str, str | None, str], Thumb] = {}
    missing_pngs = 0
    for comp, face_id, which, _side in face_images(game):
        name = png_name(comp, face_id, which)
        src = out / "png" / game.id / name
        if src.is_file():
            dest = posixpath.join(game.id, "faces", name)
            copies[dest] = src
            faces[(comp.id, face_id, which)] = dest
            small_name = posixpath.splitext(name)[0] + ".webp"
            small = thumb_path(out, game.id, name)
            if small.is_file() and small.stat().st_size < src.stat().st_size:
                thumb, size = posixpath.join(game.id, "faces", "small", small_name), _size(small)
                copies[thumb] = small
            else:  # a plain face's PNG is already smaller (flat colours compress well); or no copy made
                thumb, size = dest, _size(src)  # (the live preview makes none)
            thumbs[(comp.id, face_id, which)] = Thumb(thumb, *size)
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
        thumbs=thumbs,
        downloads=tuple(Download(doc, DOC_LABELS.get(doc, doc.replace("-", " ").capitalize()),
                                 DOC_HELP.get(doc, ""), files) for doc, files in downloads.items()),
        copies=copies,
        missing_pngs=missing_pngs,
        missing_pdfs=missing_pdfs,
    )


def thumb_path(out: Path, game: str, png: str) -> Path:
    return out / THUMBS / game / (posixpath.splitext(png)[0] + ".webp")


def thumb_targets(content: Content, out: Path, manifest: Manifest) -> list[Target]:
    """The components page's small copies of every face PNG there is, as targets of the build graph
    (committed with the rest of the run, so a failed run leaves none of its own): each keyed by its
    PNG's key, or the PNG's bytes where it has none, never by a time stamp."""
    code = code_version(*THUMB_CODE)
    targets = []
    for game in content.games:
        for comp, face_id, which, _side in face_images(game):
            name = png_name(comp, face_id, which)
            src = out / "png" / game.id / name
            if src.is_file():
                made_as = manifest.keys.get(manifest.rel(src)) or files_key(out, [src])
                targets.append(Target(thumb_path(out, game.id, name), digest(code, THUMB_PX, made_as),
                                      partial(thumbnail, src)))
    return targets


def thumbnail(src: Path) -> bytes:
    """`src` at most THUMB_PX on its longer side, in WebP."""
    with Image.open(src) as img:
        small = img.convert("RGBA" if "A" in img.getbands() else "RGB")
        small.thumbnail((THUMB_PX, THUMB_PX), Image.Resampling.LANCZOS)
        buf = io.BytesIO()
        small.save(buf, "WEBP", quality=82, method=4)
    return buf.getvalue()


def _size(path: Path) -> tuple[int, int]:
    with Image.open(path) as img:
        return img.size


def docs_for(comp: Component) -> tuple[str, ...]:
    """Which documents print a component (by its kind, as generators.pdf.print_targets groups them)."""
    if comp.kind in CARD_KINDS:
        return ("cards-duplex", "cards-gutterfold")
    if comp.kind in TOKEN_KINDS:
        return ("tokens",)
    if comp.kind == "board":
        return ("boards",)
    if comp.kind == "dice":
        return ("dice",)
    return ()
