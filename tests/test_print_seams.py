"""Split boards, read back from their PDFs: no seam cuts a character, no alignment mark covers one,
and each sheet of a split board carries its title and provenance whole. The checker is shown to
fail on the fixed, evenly spaced seams the kit used before."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

from generators.content.model import size_mm
from generators.pdf import documents, seams
from generators.pdf.faces import Look
from generators.pdf.imposition import tiling
from generators.pdf.options import Options
from generators.pdf.sheets import MARK_R
from tests import pdfgeom
from tests.helpers import real_content

MM = 72 / 25.4
PAPERS = ("a4", "letter")
OVERLAP = 12.0
TOL = 0.1  # mm: a character this close to a seam is not cut by it


@cache
def content():
    return real_content()


def board_games() -> list[str]:
    return [g.id for g in content().games if g.components and any(c.kind == "board" for c in g.components)]


def _render(game_id: str, paper: str, out: Path) -> Path:
    game = content().game(game_id)
    path = out / f"{game_id}-{paper}-boards.pdf"
    path.write_bytes(documents.boards(game, Look(game, content().icons), Options(paper=paper)))
    return path


def _words(path: Path) -> list[list[tuple[str, float, float, float, float]]]:
    """Each page's lines of text (text, left, bottom, right, top in points): runs of characters
    between line ends, spaces included, so a seam between two words of a sentence cuts it as surely as
    one between two letters of a word."""
    pdf = pdfgeom.pdfium.PdfDocument(str(path))
    out = []
    try:
        for page in pdf:
            tp = page.get_textpage()
            found: list[tuple[str, float, float, float, float]] = []
            joined = False
            for i in range(tp.count_chars()):
                ch = tp.get_text_range(i, 1)
                if ch in "\r\n":
                    joined = False
                    continue
                if not ch.strip():
                    continue  # a space: the line goes on if the next letter is near
                x0, y0, x1, y1 = tp.get_charbox(i)
                if joined:
                    t, a, b, c, d = found[-1]
                    size = max(d - b, y1 - y0, 1.0)
                    if max(a, x0) - min(c, x1) < size and max(b, y0) - min(d, y1) < size:
                        found[-1] = (t + ch, min(a, x0), min(b, y0), max(c, x1), max(d, y1))
                        continue
                found.append((ch, x0, y0, x1, y1))
                joined = True
            out.append(found)
    finally:
        pdf.close()
    return out


def _sheets(path: Path) -> Iterator[tuple[str, tuple[float, float, float, float], list[tuple], list[tuple]]]:
    """(board form, window in board mm, words in board mm, mark centres in board mm) per page."""
    for geo, words in zip(pdfgeom.read(path), _words(path), strict=True):
        board = next(f for f in geo.forms if f.name.startswith("roadkit-board"))
        ox, oy = board.origin
        left, bottom, right, top = board.clip
        window = ((left - ox) / MM + 3, (bottom - oy) / MM + 3, (right - ox) / MM - 3, (top - oy) / MM - 3)
        boxes = [(t, (a - ox) / MM, (b - oy) / MM, (c - ox) / MM, (d - oy) / MM) for t, a, b, c, d in words]
        marks = [((f.origin[0] - ox) / MM, (f.origin[1] - oy) / MM) for f in geo.forms if f.name == "roadkit-mark"]
        yield board.name, window, boxes, marks


def problems(path: Path) -> list[str]:
    """Every word a seam cuts or a mark covers, on every sheet of every split board."""
    pages = list(_sheets(path))
    size: dict[str, tuple[float, float]] = {}
    for name, (_, _, x1, y1), _, _ in pages:
        w, h = size.get(name, (0.0, 0.0))
        size[name] = (max(w, x1), max(h, y1))
    found = []
    for n, (name, (x0, y0, x1, y1), boxes, marks) in enumerate(pages, 1):
        w, h = size[name]
        if x0 < 0.05 and y0 < 0.05 and x1 > w - 0.05 and y1 > h - 0.05:
            continue  # one sheet: nothing is cut
        cuts_x, cuts_y, hidden = [], [], []
        if x0 > 0.05:
            cuts_x.append(x0)  # this sheet's left edge is the seam
        if x1 < w - 0.05:
            cuts_x.append(x1 - OVERLAP)  # the next sheet's edge lies on this one's glue strip
            hidden.append((x1 - OVERLAP, y0, x1 + 3.5, y1))  # and the bleed beyond
        if y1 < h - 0.05:
            cuts_y.append(y1)
        if y0 > 0.05:
            cuts_y.append(y0 + OVERLAP)
            hidden.append((x0, y0 - 3.5, x1, y0 + OVERLAP))
        for text, left, bottom, right, top in boxes:
            cx, cy = (left + right) / 2, (bottom + top) / 2
            if not (x0 - 1 < cx < x1 + 1 and y0 - 1 < cy < y1 + 1):
                continue  # the sheet's own furniture
            if any(a <= cx <= c and b <= cy <= d for a, b, c, d in hidden):
                continue  # under the glue strip, and under the next sheet once glued
            for x in (*cuts_x, x0, x1):
                if left < x - TOL and right > x + TOL:
                    found.append(f"{path.name} page {n}: {text!r} cut at x = {x:.1f} mm")
            for y in (*cuts_y, y0, y1):
                if bottom < y - TOL and top > y + TOL:
                    found.append(f"{path.name} page {n}: {text!r} cut at y = {y:.1f} mm")
            r, arm = MARK_R / MM, 1.6 * MARK_R / MM
            for mx, my in marks:
                ring = left < mx + r and right > mx - r and bottom < my + r and top > my - r
                arms = ((left < mx + arm and right > mx - arm and bottom < my + 0.2 and top > my - 0.2)
                        or (left < mx + 0.2 and right > mx - 0.2 and bottom < my + arm and top > my - arm))
                if ring or arms:
                    found.append(f"{path.name} page {n}: {text!r} under the mark at ({mx:.1f}, {my:.1f}) mm")
    return found


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game_id", board_games())
def test_no_seam_or_mark_on_a_character(game_id: str, paper: str, tmp_path: Path) -> None:
    path = _render(game_id, paper, tmp_path)
    assert problems(path) == []


def test_every_game_with_boards_is_checked_and_some_are_split() -> None:
    """The checks above see split boards on both papers (else they would pass on nothing)."""
    games = board_games()
    assert len(games) >= 3
    split = {paper: 0 for paper in PAPERS}
    for game_id in games:
        game = content().game(game_id)
        for comp in game.components:
            if comp.kind != "board":
                continue
            w, h = (v * MM for v in size_mm(comp.size))
            for paper in PAPERS:
                page = documents._board_page(w, h, paper)
                split[paper] += tiling(w, h, *documents._room(page)).sheets > 1
    assert all(n >= 1 for n in split.values()), split


def test_the_checker_catches_fixed_seams(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the seams at fixed, even positions (as before) the vampire chase's boards are cut through
    their words: the checker sees it."""
    monkeypatch.setattr(seams, "chosen_tiling", lambda lay, *size: tiling(*size))
    monkeypatch.setattr(seams, "mark_points", lambda lay, seam, vertical, span, avoid=(): (
        span[0] + (span[1] - span[0]) / 3, span[0] + (span[1] - span[0]) * 2 / 3))
    found = problems(_render("vampire-chase", "a4", tmp_path))
    assert any("cut at" in p for p in found), found


@pytest.mark.parametrize("paper", PAPERS)
def test_each_sheet_carries_the_title_and_provenance_whole(paper: str, tmp_path: Path) -> None:
    """Mission: Drive's road boards are split top from bottom: both sheets show the whole title."""
    path = _render("mission-drive", paper, tmp_path)
    game = content().game("mission-drive")
    titles = [f.front.title for c in game.components if c.id == "road-boards" for f in c.faces]
    pages = [page.get_textpage().get_text_range() for page in pdfgeom.pdfium.PdfDocument(str(path))]
    for title in titles:
        showing = [t for t in pages if title.replace(" ", "") in t.replace(" ", "").replace("\r\n", "")]
        assert len(showing) >= 2, (title, paper)
