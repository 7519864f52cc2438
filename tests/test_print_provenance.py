"""Every printed side says where it comes from, and says it truly: "ours" is derived from the content
(a side tagged house, or a face whose mix of copies or whose layout the rulebook does not print, as its
`origin:` states), never from the tag itself; the tag or badge each document draws, on both papers and
in the proxies kit, is read back from the drawing's records."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from generators.content.loader import load_content
from generators.content.model import Component, LoadedGame, Side, has_layout, size_mm
from generators.pdf import documents
from generators.pdf.faces import BADGE_LETTER, PROVENANCE_LABEL, Look, named_piece, token_like
from generators.pdf.options import CARD_KINDS, TOKEN_KINDS, Options
from generators.pdf.print_targets import with_proxies
from generators.pdf.text import auditing
from tests.helpers import CONTENT, copy_content, run_cli

TAG_KEYS = {("provenance",), ("section",), ("badge",)}


@cache
def content():
    return load_content(CONTENT)


def _sides(game: LoadedGame):
    """(component, face or None, side) of every side the kit prints."""
    for comp in game.components:
        if comp.back is not None:
            yield comp, None, comp.back
        for face in comp.faces:
            yield comp, face, face.front
            if face.back is not None:
                yield comp, face, face.back


def derived(comp: Component, face, side: Side) -> str:
    """Where a side comes from, worked out from the content: a stand-in is a proxy; a side is ours where
    it is tagged so, where the rulebook gives only the total of its component (the mix is ours), or
    where it lays out parts the rulebook does not arrange; otherwise it is as the rulebook prints it."""
    if side.provenance == "proxy":
        return "proxy"
    if side.provenance == "house" or (face is not None and comp.ours(face)):
        return "house"
    return "rulebook"


def expected_tag(comp: Component, side: Side, origin: str) -> str:
    if side.layout != "full" and token_like(comp, side):  # a small piece: its badge
        return BADGE_LETTER[origin]
    return f"rulebook · {side.section}" if origin == "rulebook" else PROVENANCE_LABEL[origin]


def test_what_the_rulebook_does_not_print_is_ours() -> None:
    """The cases that were tagged "rulebook" though ours: boards and dashboards laid out by us, a mix of
    copies the rulebook does not give. Each is derived as ours from its `origin:`."""
    ours = {(g.id, c.id) for g in content().games for c, f, s in _sides(g) if derived(c, f, s) == "house"}
    for case in [("thunder-road-ignition", "dashboards"), ("dronovody", "player-boards"),
                 ("mission-drive", "dashboard"), ("vampire-chase", "chase-board"), ("vampire-chase", "player-board"),
                 ("vampire-chase", "gear-board"), ("vampire-chase", "speed-gauge"),
                 ("thunder-road-ignition", "hazard-tokens"), ("dronovody", "character-cards"),
                 ("escape-deathrace-2182-micro", "character-cards"), ("mission-drive", "mission-cards")]:
        assert case in ours, case
    laid_out = 0
    for game in content().games:
        for comp, face, side in _sides(game):
            if face is not None and has_layout(side):
                laid_out += 1
                assert comp.source(face, "layout") is not None, (game.id, comp.id, face.id)
            if face is not None and comp.kind != "dice" and len(comp.faces) > 1:
                assert comp.source(face, "counts") is not None, (game.id, comp.id, face.id)
    assert laid_out > 20


@pytest.mark.parametrize("proxies", [False, True], ids=["default", "proxies"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_printed_side_carries_its_true_tag(paper: str, proxies: bool) -> None:
    """Each document's drawing records pair every title with one tag or badge, and that tag is the one
    derived from the content: no side unbadged, no side of ours tagged as the rulebook's."""
    checked = 0
    untagged: list[str] = []
    for game in content().games:
        printed = with_proxies(game) if proxies else game
        look = Look(printed, content().icons)
        opts = Options(paper=paper, proxies=proxies)
        expected: dict[str, set[str]] = {}
        nameless: set[str] = set()
        for comp, face, side in _sides(printed):
            tag = expected_tag(comp, side, derived(comp, face, side))
            expected.setdefault(side.title.replace("\xad", ""), set()).add(tag)
            if not named_piece(*size_mm(comp.size), comp.shape == "round"):
                nameless.add(tag)
        renders = [(documents.duplex, CARD_KINDS, "cards"), (documents.duplex, TOKEN_KINDS, "tokens"),
                   (documents.boards,), (documents.dice,)]
        for render, *args in renders:
            with auditing() as audit:
                render(printed, look, opts, *args)
            title = None
            for drawn in audit.drawn:
                if drawn.key == ("title",):
                    untagged.extend([title] if title is not None else [])
                    title = drawn.text.strip("*").replace("\xad", "")
                elif drawn.key in TAG_KEYS:
                    tag = drawn.text.rsplit("   ", 1)[0] if "   " in drawn.text else drawn.text
                    if title == "Reading the tags":  # the legend card itself is ours
                        assert tag == PROVENANCE_LABEL["house"]
                    else:  # a disc too small for a name shows its picture and badge only
                        assert tag in expected.get(title, set()) if title else tag in nameless, (
                            game.id, paper, title, tag, expected.get(title or "", nameless))
                        checked += 1
                    title = None
            untagged.extend([title] if title is not None else [])
    assert not untagged, f"sides with no tag or badge: {untagged}"
    assert checked > 300


def test_the_legend_names_every_badge() -> None:
    from generators.pdf.faces import legend_side

    text = legend_side(Look(content().games[0], content().icons)).text or ""
    for origin, letter in BADGE_LETTER.items():
        assert f"**{letter}** {PROVENANCE_LABEL[origin].split(' ·')[0]}" in text, (letter, text)


@pytest.mark.parametrize(("origin", "where"), [
    ("{counts: house, layout: rulebook}", "count"),
    ("{counts: rulebook, layout: house}", "layout"),
])
def test_a_rulebook_tag_on_a_side_of_ours_is_a_content_error(tmp_path: Path, origin: str, where: str) -> None:
    root = copy_content(tmp_path, ("mission-drive",))
    (root / "mission-drive" / "components" / "zz.yaml").write_text(
        f"id: zz\nname: ZZ\nkind: board\ncount: 2\norigin: {origin}\nsize: {{width: 200, height: 100}}\nfaces:\n"
        "  - id: a\n    front:\n      title: A\n      provenance: rulebook\n      section: S\n"
        "      elements: [{x: 1, y: 1, width: 5, height: 5}]\n"
        "  - id: b\n    front: {title: B, provenance: house}\n", "utf-8")
    result = run_cli("validate", "--content", str(root))
    assert result.returncode == 2
    assert f"zz.yaml:11:7: faces[0].front.provenance: the {where} of this face is ours" in result.stderr, result.stderr


def test_an_unstated_origin_is_a_content_error(tmp_path: Path) -> None:
    root = copy_content(tmp_path, ("mission-drive",))
    (root / "mission-drive" / "components" / "zz.yaml").write_text(
        "id: zz\nname: ZZ\nkind: board\ncount: 1\nsize: {width: 200, height: 100}\nfaces:\n"
        "  - id: a\n    front:\n      title: A\n      provenance: rulebook\n      section: S\n"
        "      elements: [{x: 1, y: 1, width: 5, height: 5}]\n", "utf-8")
    result = run_cli("validate", "--content", str(root))
    assert result.returncode == 2
    assert "faces[0].origin.layout: this face lays out parts of its own" in result.stderr, result.stderr
