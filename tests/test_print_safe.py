"""The safe zone, read back from each face as printed: every character of every face of every game
(cards, boards, road tiles drawn as space maps, tokens, dice faces) at least 3 mm inside the trim;
on a disc, every corner of every character's box at least 3 mm inside the cutting circle."""

from __future__ import annotations

import math
from functools import cache

import pypdfium2 as pdfium
import pytest

from generators.content.loader import walk_sides
from generators.content.model import size_mm
from generators.pdf.documents import single_side
from generators.pdf.faces import Look
from tests.helpers import real_content

MM = 72 / 25.4
SAFE = 3.0


@cache
def content():
    return real_content()


def _faces():
    for game in content().games:
        for comp in game.components:
            for path, side in walk_sides(comp):
                yield game, comp, path, side


def _clearance(pdf: bytes, w: float, h: float, disc: bool = False) -> tuple[float, str]:
    """The least distance (mm) from any character to the trim (a disc's: its circle), and that character."""
    doc = pdfium.PdfDocument(pdf)
    try:
        tp = doc[0].get_textpage()
        worst = (min(w, h), "")
        for i in range(tp.count_chars()):
            ch = tp.get_text_range(i, 1)
            if not ch.strip():
                continue
            left, bottom, right, top = (v / MM for v in tp.get_charbox(i))
            if disc:
                far = max(math.hypot(x - w / 2, y - h / 2) for x in (left, right) for y in (bottom, top))
                clear = min(w, h) / 2 - far
            else:
                clear = min(left, bottom, w - right, h - top)
            worst = min(worst, (clear, ch))
        return worst
    finally:
        doc.close()


@pytest.mark.parametrize("game_id", [g.id for g in real_content().games if g.components])
def test_text_keeps_3_mm_inside_the_trim(game_id: str) -> None:
    checked, kinds, problems = 0, set(), []
    for game, comp, path, side in _faces():
        if game.id != game_id:
            continue
        look = Look(game, content().icons)
        w, h = size_mm(comp.size)
        disc = comp.shape == "round"
        clear, ch = _clearance(single_side(look, comp, side, f"{comp.count}/{comp.count}"), w, h, disc)
        checked += 1
        kinds.add("disc" if disc else "map" if side.art is not None and side.art.spaces is not None
                  else "small" if min(w, h) < 40 else "large")
        if clear < SAFE - 0.01:
            problems.append(f"{comp.id} {'.'.join(map(str, path))}: {ch!r} {clear:.2f} mm from the trim")
    assert checked, game_id
    assert problems == []
    assert {"small", "large"} <= kinds, kinds


def test_every_face_kind_is_checked() -> None:
    """Discs, dice faces and tokens, cards and boards, and road tiles drawn as space maps are all
    among the faces the safe-zone test reads."""
    kinds = set()
    for _, comp, _, side in _faces():
        w, h = size_mm(comp.size)
        kinds.add("disc" if comp.shape == "round" else "map" if side.art is not None and side.art.spaces is not None
                  else "small" if min(w, h) < 40 else "large")
    assert kinds == {"disc", "map", "small", "large"}


def test_the_check_sees_text_near_a_disc_cut() -> None:
    """A character inside a disc's square but 2 mm from its circle is caught."""
    from io import BytesIO

    from reportlab.pdfgen.canvas import Canvas

    from generators.pdf.fonts import register

    regular, _ = register("dejavu-sans")
    buf = BytesIO()
    c = Canvas(buf, pagesize=(20 * MM, 20 * MM), initialFontName=regular)
    c.setFont(regular, 6)
    c.drawString(4 * MM, 4 * MM, "x")  # 3 mm and more from every edge, but near the circle (corner)
    c.save()
    square, _ = _clearance(buf.getvalue(), 20, 20)
    circle, _ = _clearance(buf.getvalue(), 20, 20, disc=True)
    assert square >= 3.5 and circle < 3


def test_the_check_sees_text_at_the_edge() -> None:
    from io import BytesIO

    from reportlab.pdfgen.canvas import Canvas

    from generators.pdf.fonts import register

    regular, _ = register("dejavu-sans")
    buf = BytesIO()
    c = Canvas(buf, pagesize=(50 * MM, 50 * MM), initialFontName=regular)
    c.setFont(regular, 8)
    c.drawString(1 * MM, 25 * MM, "edge")
    c.save()
    clear, _ = _clearance(buf.getvalue(), 50, 50)
    assert clear < 1.5


def test_mission_drive_boss_tiles_fit_their_two_road_spaces() -> None:
    """A boss tile covers two road spaces side by side: it must not overhang them (the spaces as the
    road board draws them)."""
    from generators.pdf.fit import audit_side

    game = content().game("mission-drive")
    look = Look(game, content().icons)
    road = next(c for c in game.components if c.id == "road-boards")
    cells = {round(bw / MM, 3) for role, (_, _, bw, _) in audit_side(look, road, road.faces[0].front).boxes
             if role == "cell"}
    assert len(cells) == 1
    cell = cells.pop()
    boss = next(c for c in game.components if c.id == "boss-tiles")
    w, h = size_mm(boss.size)
    assert w <= 2 * cell and h <= cell, (w, h, cell)
