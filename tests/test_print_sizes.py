"""Sizes that fit: every marker is no larger than the squares of the tracks it declares it sits on
(`sits_on`), every slot is at least each piece it declares it holds (`holds`), as printed on both
papers; every dashed slot says what it holds; a declaration that does not fit is a located content
error (exit 2)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from reportlab.lib.units import mm

from generators.content.loader import load_content, walk_sides
from generators.content.model import size_mm
from generators.pdf import documents
from generators.pdf.faces import Look
from generators.pdf.imposition import PAPERS
from generators.pdf.options import TOKEN_KINDS
from generators.pdf.sizes import Pair, pairs
from tests.helpers import CONTENT, copy_content, run_cli


@cache
def content():
    return load_content(CONTENT)


def _printed_sizes(game, paper: str) -> dict[str, set[tuple[float, float]]]:
    """Each token, tile and cube component's trim size (mm) as its sheets lay it out on `paper`."""
    look = Look(game, content().icons)
    out: dict[str, set[tuple[float, float]]] = {}
    for sheet in documents._sheets(documents.with_legend(game, look, TOKEN_KINDS, paper), PAPERS[paper]):
        for p in documents._fronts(sheet):
            out.setdefault(p.comp.id, set()).add((round(p.w / mm, 2), round(p.h / mm, 2)))
    return out


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_marker_fits_its_track_and_every_slot_its_piece(paper: str) -> None:
    checked, markers, problems = 0, 0, []
    for game in content().games:
        printed = _printed_sizes(game, paper)
        for found in pairs(game, content().icons):
            assert isinstance(found, Pair), found  # a declaration naming nothing is a content error
            checked += 1
            markers += found.marker
            if found.marker:
                # The marker as its sheets print it on this paper: the size the check measured.
                assert printed[found.comp.id] == {found.piece_size}, (found.comp.id, printed[found.comp.id])
            if not found.fits:
                problems.append(f"{game.id} {found.comp.id} {found.key}: {found.problem}")
    assert markers >= 5 and checked > markers
    assert problems == []


def test_the_reported_markers_fit_their_tracks() -> None:
    """The issue's cases: Escape Deathrace's health clips and boss cubes, Дроноводи's logistics markers,
    each declared on its track and at most the track's square."""
    declared = {(g.id, c.id): c.sits_on for g in content().games for c in g.components if c.sits_on}
    for key, track in ((("escape-deathrace-2182-micro", "health-clips"), "character-cards"),
                       (("escape-deathrace-2182-micro", "boss-health-cubes"), "boss-health-tracker"),
                       (("dronovody", "logistics-markers"), "player-boards")):
        assert track in declared[key], key


def test_every_slot_says_what_it_holds_and_holds_it() -> None:
    """A dashed slot outlines one piece: each says which, and is at least that piece; the Дроноводи
    player board's areas for several cards are panels (layout guides), not card slots."""
    slots = 0
    for game in content().games:
        by_id = {c.id: c for c in game.components}
        for comp in game.components:
            for _, side in walk_sides(comp):
                for el in side.elements:
                    if el.style != "slot":
                        continue
                    slots += 1
                    assert el.holds, (comp.id, el.label)
                    for held in el.holds:
                        w, h = size_mm(by_id[held].size)
                        assert (w <= el.width and h <= el.height) or (h <= el.width and w <= el.height), \
                            (comp.id, el.label, held)
    assert slots > 20


def _validate(tmp_path: Path, edit: tuple[str, str, str]) -> tuple[int, str]:
    content_dir = copy_content(tmp_path, ("escape-deathrace-2182-micro",))
    path, old, new = edit
    f = content_dir / "escape-deathrace-2182-micro" / "components" / path
    text = f.read_text("utf-8")
    assert old in text
    f.write_text(text.replace(old, new), "utf-8")
    result = run_cli("validate", "--content", content_dir)
    return result.returncode, result.stderr + result.stdout


@pytest.mark.parametrize("edit,where,words", [
    (("health-clips.yaml", "size: {width: 8, height: 8}", "size: {width: 25, height: 25}"),
     "health-clips.yaml:", "sits_on[0]: the 25 x 25 mm Character Health Clips is larger than the 8.1 mm squares"),
    (("health-clips.yaml", "sits_on: [character-cards]", "sits_on: [no-such-cards]"),
     "health-clips.yaml:", "sits_on[0]: no component 'no-such-cards'"),
    (("boss-health-tracker.yaml", "          width: 62\n          height: 29\n          label: \":death-turret:",
      "          width: 62\n          height: 12\n          label: \":death-turret:"),
     "boss-health-cubes.yaml:", "larger than the"),
])
def test_a_marker_too_large_is_a_located_content_error(tmp_path: Path, edit: tuple[str, str, str], where: str,
                                                       words: str) -> None:
    code, out = _validate(tmp_path, edit)
    assert code == 2, out
    assert where in out and words in out, out
    assert "Traceback" not in out


def test_a_slot_smaller_than_its_card_is_a_located_content_error(tmp_path: Path) -> None:
    content_dir = copy_content(tmp_path, ("mission-drive",))
    f = content_dir / "mission-drive" / "components" / "dashboard.yaml"
    text = f.read_text("utf-8")
    old = "{x: 7.25, y: 45, width: 67, height: 92, style: slot"
    assert old in text
    f.write_text(text.replace(old, "{x: 7.25, y: 45, width: 60, height: 92, style: slot"), "utf-8")
    result = run_cli("validate", "--content", content_dir)
    out = result.stderr + result.stdout
    assert result.returncode == 2, out
    assert "dashboard.yaml:" in out and "holds[0]: the slot is 60 x 92 mm, smaller than the 63 x 88 mm" in out, out
