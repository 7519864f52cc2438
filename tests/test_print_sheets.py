"""Paper: the sheets the print kit takes per game and paper, as `make bench` counts them, each game
within its count before the print kit v3 work (tools/sheets_before.json; a game added since has none);
boards that nearly fit one sheet print on one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generators.pdf.paper import route_total, sheet_counts
from tests.helpers import ROOT, real_content

BEFORE = json.loads((ROOT / "tools" / "sheets_before.json").read_text("utf-8"))  # data, shared with the bench


@pytest.fixture(scope="module")
def kit(print_kit: Path) -> Path:
    return print_kit  # the session's print kit (tests/conftest.py), shared with the other print tests


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_no_game_takes_more_sheets_than_before(kit: Path, paper: str) -> None:
    games = sheet_counts(kit / "print")[paper]
    assert set(games) == {g.id for g in real_content().games if g.components}  # the calibration sheet apart
    for game, docs in games.items():
        was = BEFORE[paper].get(game)
        if was is not None:  # a game added since the count has nothing to be held to
            assert route_total(docs) <= was["route"], (game, docs)
            assert docs.get("cards-gutterfold", 0) <= was["gutterfold"], (game, docs)
    counted = [g for g in games if g in BEFORE[paper]]
    assert sum(route_total(games[g]) for g in counted) < sum(BEFORE[paper][g]["route"] for g in counted)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_dronovody_player_boards_take_one_sheet_each(kit: Path, paper: str) -> None:
    assert sheet_counts(kit / "print")[paper]["dronovody"]["boards"] == 4


def test_sheet_counts_read_duplex_pages_in_pairs(tmp_path: Path) -> None:
    from reportlab.pdfgen.canvas import Canvas

    for name, pages in (("g-cards-duplex", 6), ("g-cards-gutterfold", 3), ("g-tokens", 4), ("g-dice", 2)):
        (tmp_path / "a4").mkdir(exist_ok=True)
        c = Canvas(str(tmp_path / "a4" / f"{name}.pdf"))
        for _ in range(pages):
            c.showPage()
        c.save()
    counts = sheet_counts(tmp_path)["a4"]["g"]
    assert counts == {"cards-duplex": 3, "cards-gutterfold": 3, "tokens": 2, "dice": 2}
    assert route_total(counts) == 7


def test_dice_nets_lie_on_their_side_when_more_fit() -> None:
    """Letter fits two upright 18 mm nets across and two down, or three of them lying on their side:
    Thunder Road's 16 movement dice take three sheets, not four, each net whole on its sheet."""
    import pypdfium2 as pdfium

    from generators.content.loader import load_content
    from generators.pdf import documents
    from generators.pdf.faces import Look
    from generators.pdf.options import Options
    from tests.helpers import CONTENT

    content = load_content(CONTENT, only=["thunder-road-ignition"])
    game = content.game("thunder-road-ignition")
    movement = tuple(c for c in game.components if c.id.startswith("movement-dice"))
    only = __import__("dataclasses").replace(game, components=movement)
    assert sum(c.count for c in movement) == 16
    for paper, sheets in (("letter", 3), ("a4", 3)):
        pdf = pdfium.PdfDocument(documents.dice(only, Look(only, content.icons), Options(paper=paper)))
        try:
            assert len(pdf) == sheets, paper
            width, height = pdf[0].get_size()
            for page in pdf:
                tp = page.get_textpage()
                for i in range(tp.count_chars()):
                    left, bottom, right, top = tp.get_charbox(i)
                    assert left >= 0 and right <= width and bottom >= 0 and top <= height, paper
        finally:
            pdf.close()
