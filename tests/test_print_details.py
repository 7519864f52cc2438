"""Finishing details read back from the printed pages: every sheet of a board names the board and says
where it comes from (split boards too), dice pips are at least 1 mm across, ink-saver backs draw no
frame on their trim line, and Дроноводи's Wing drones wear the fixed-wing icon."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from reportlab.lib.units import mm

from generators.content.loader import walk_sides
from generators.pdf import documents
from generators.pdf.faces import Look, provenance_text
from generators.pdf.fit import audit_side
from generators.pdf.imposition import FOOT, PAPERS
from generators.pdf.options import CARD_KINDS, TOKEN_KINDS, Options
from tests import pdfgeom
from tests.helpers import real_content


@cache
def content():
    return real_content()


def _squash(text: str) -> str:
    return "".join(text.replace("\u00ad", "").replace("*", "").split())


def _board_games() -> list[str]:
    return [g.id for g in content().games if any(c.kind == "board" for c in g.components)]


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game_id", _board_games())
def test_every_board_sheet_carries_its_title_and_tag(game_id: str, paper: str) -> None:
    """Above the sheet's furniture band (whose note names the board too), each sheet's own print shows
    one board side's title and its provenance tag, whole: split boards on every sheet."""
    game = content().game(game_id)
    look = Look(game, content().icons)
    sides = [s for c in game.components if c.kind == "board" for _, s in walk_sides(c)]
    pdf = pdfium.PdfDocument(documents.boards(game, look, Options(paper=paper)))
    missing = []
    try:
        for n, page in enumerate(pdf, 1):
            w, h = page.get_size()
            text = _squash(page.get_textpage().get_text_bounded(0, FOOT, w, h))
            if not any(_squash(s.title) in text and _squash(provenance_text(s)) in text for s in sides):
                missing.append(n)
        pages = len(pdf)
    finally:
        pdf.close()
    assert pages >= 1
    assert missing == [], f"sheets without a whole title and tag: {missing}"


def test_dice_pips_are_at_least_1_mm() -> None:
    pips = 0
    small = []
    for game in content().games:
        look = Look(game, content().icons)
        for comp in game.components:
            for path, side in walk_sides(comp):
                for role, (_, _, w, _) in audit_side(look, comp, side).boxes:
                    if role == "pip":
                        pips += 1
                        if w < 1 * mm - 1e-6:
                            small.append(f"{game.id} {comp.id} {path}: {w / mm:.2f} mm")
    assert pips > 50
    assert small == []


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_ink_saver_backs_draw_nothing_on_their_trim_line(paper: str, tmp_path: Path) -> None:
    """A frame on a back's trim line would show as a coloured line inside one edge at the slightest
    duplex misregistration; the fronts keep theirs (they are cut on it)."""
    page = PAPERS[paper]
    backs_checked = fronts_framed = 0
    for game in content().games:
        look = Look(game, content().icons, ink_saver=True)
        for kinds, title in ((CARD_KINDS, "cards"), (TOKEN_KINDS, "tokens")):
            sheets = documents._sheets(documents.with_legend(game, look, kinds, paper), page)
            if not sheets:
                continue
            path = tmp_path / f"{game.id}-{title}.pdf"
            path.write_bytes(documents.duplex(game, look, Options(paper=paper, ink_saver=True), kinds, title))
            pages = pdfgeom.read(path)
            for k, sheet in enumerate(sheets):
                for placed, geometry, back in ((documents._fronts(sheet), pages[2 * k], False),
                                               (documents._backs(sheet, page[0]), pages[2 * k + 1], True)):
                    for p in placed:
                        if p.comp.shape == "round":
                            continue
                        on_trim = _on_trim(geometry, documents.footprint(p))
                        if back:
                            backs_checked += 1
                            assert not on_trim, (game.id, p.comp.id, p.side.title)
                        else:
                            fronts_framed += on_trim
    assert backs_checked > 100 and fronts_framed > 100


def _on_trim(page: pdfgeom.Page, r: tuple[float, float, float, float]) -> bool:
    """Whether a stroked line runs along one of the trim rectangle's edges, within 0.3 mm of it, for
    most of the edge's length."""
    left, bottom, right, top = r
    near = 0.3 * mm
    for s in page.segments:
        horizontal = abs(s.y0 - s.y1) < 0.01
        vertical = abs(s.x0 - s.x1) < 0.01
        if (horizontal and any(abs(s.y0 - y) < near for y in (bottom, top))
                and s.inside(left, s.y0 - 1, right, s.y0 + 1) > 0.6 * (right - left)):
            return True
        if (vertical and any(abs(s.x0 - x) < near for x in (left, right))
                and s.inside(s.x0 - 1, bottom, s.x0 + 1, top) > 0.6 * (top - bottom)):
            return True
    return False


def test_wing_drones_wear_the_fixed_wing_icon() -> None:
    """Every Дроноводи drone card whose type is Wing shows the fixed-wing drone, every other drone not."""
    game = content().game("dronovody")
    drones = next(c for c in game.components if c.id == "drone-cards")
    wings = 0
    for face in drones.faces:
        if face.facts is None or "type" not in face.facts:
            continue
        assert face.front.art is not None
        wing = face.facts["type"] == "wing"
        wings += wing
        assert (face.front.art.icon == "wing-drone") == wing, face.id
    assert wings >= 2
