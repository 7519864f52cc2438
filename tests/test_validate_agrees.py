"""`roadkit validate` makes every content check a later stage makes: each class of mistake below was
once caught only by the site, by `print --proxies` or not at all (a traceback, a literal `:sheild:` on
the site, minutes of layout). Each case breaks a private copy of the content, shows the later stage's
own check would trip on it, then requires validate to report it as one located line, exit 2."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from generators.build_system.errors import ContentError
from tests.helpers import copy_content, run_cli

LINE = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): (?P<path>[^:\n]+): (?P<msg>.+)$")
GAME = "mission-drive"


@pytest.fixture
def content(tmp_path: Path) -> Path:
    return copy_content(tmp_path, (GAME,))


def _validate(content: Path) -> re.Match[str]:
    result = run_cli("validate", "--content", content)
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    m = LINE.match(lines[0])
    assert m, lines[0]
    return m


def _line_of(path: Path, needle: str) -> int:
    return next(n for n, text in enumerate(path.read_text("utf-8").splitlines(), 1) if needle in text)


def _replace(path: Path, old: str, new: str) -> None:
    text = path.read_text("utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), "utf-8")


# --- rulings ------------------------------------------------------------------------------------


def test_a_ruling_without_we_play_fails_validate(content: Path) -> None:
    from generators.content.loader import load_content
    from generators.site.rulings import missing_play, parse

    notes = content / GAME / "notes.yaml"
    text = notes.read_text("utf-8")
    start = text.index("**We play:**", text.index("\nnotes:"))
    end = text.index("\n\n", start)
    notes.write_text(text[:start] + "We keep the table." + text[end:], "utf-8")
    game = load_content(content, [GAME]).game(GAME)
    assert missing_play([parse(n) for n in game.notes.notes]) is not None  # the site stage would refuse it
    m = _validate(content)
    assert m["file"].endswith("notes.yaml") and m["path"] == "notes[0].text" and "We play:" in m["msg"]
    assert int(m["line"]) == _line_of(notes, "text: |-")


# --- icon codes in every text field ------------------------------------------------------------------


def test_an_unknown_icon_in_a_rules_body_fails_validate(content: Path) -> None:
    rule = content / GAME / "rules" / "boss-move.md"
    _replace(rule, "The boss's movements are predictable", "The boss's :sheild: movements are predictable")
    m = _validate(content)
    assert m["file"].endswith("boss-move.md") and "'sheild'" in m["msg"]
    assert int(m["line"]) == _line_of(rule, ":sheild:")
    assert int(m["col"]) == rule.read_text("utf-8").splitlines()[int(m["line"]) - 1].index(":sheild:") + 1


def test_an_unknown_icon_in_a_rules_summary_fails_validate(content: Path) -> None:
    rule = content / GAME / "rules" / "boss-move.md"
    _replace(rule, 'summary: "The boss goes', 'summary: "The :sheild: boss goes')
    m = _validate(content)
    assert m["file"].endswith("boss-move.md") and "'sheild'" in m["msg"]
    assert int(m["line"]) == _line_of(rule, "summary:")


def test_an_unknown_icon_in_a_glossary_definition_fails_validate(content: Path) -> None:
    glossary = content / GAME / "glossary.yaml"
    first = "definition: Your car, the one token you steer with hero cards. It fires, rams and takes damage."
    _replace(glossary, first, "definition: 'Your :sheild: car.'")
    m = _validate(content)
    assert m["file"].endswith("glossary.yaml") and m["path"] == "terms[0].definition" and "'sheild'" in m["msg"]
    assert int(m["line"]) == _line_of(glossary, ":sheild:")


def test_an_unknown_icon_in_a_ruling_fails_validate(content: Path) -> None:
    notes = content / GAME / "notes.yaml"
    _replace(notes, "**We play:** the table:", "**We play:** the :sheild: table:")
    m = _validate(content)
    assert m["file"].endswith("notes.yaml") and m["path"] == "notes[0].text" and "'sheild'" in m["msg"]
    assert int(m["line"]) == _line_of(notes, ":sheild:")


def test_colons_in_code_and_between_words_are_not_icon_codes(content: Path) -> None:
    rule = content / GAME / "rules" / "boss-move.md"
    _replace(rule, "The boss's movements are predictable",
             "The boss's movements (`:sheild:` in code, a ratio of 1:2:3) are predictable")
    result = run_cli("validate", "--content", content)
    assert result.returncode == 0, result.stderr


# --- images on every side of every variant ---------------------------------------------------------

PROXY_COLOUR = "    color: boss\n    note: >-\n      A write-in stand-in"


@pytest.mark.parametrize(("image", "setup", "words"), [
    ("art/missing.png", None, "does not exist"),
    ("art/text.png", b"not an image at all\n", "not a readable PNG or JPEG"),
    ("/etc/hostname.png", None, "leaves the content folder"),
])
def test_a_bad_image_on_a_proxy_side_fails_validate(content: Path, image: str, setup: bytes | None,
                                                    words: str) -> None:
    comp = content / GAME / "components" / "boss-movement-cards.yaml"
    if setup is not None:
        (content / GAME / image).parent.mkdir(parents=True, exist_ok=True)
        (content / GAME / image).write_bytes(setup)
    _replace(comp, PROXY_COLOUR, f"    color: boss\n    image: {image}\n    note: >-\n      A write-in stand-in")
    m = _validate(content)
    assert m["file"].endswith("boss-movement-cards.yaml") and m["path"] == "proxy.front.image", m.group(0)
    assert words in m["msg"]
    assert int(m["line"]) == _line_of(comp, f"image: {image}")


def test_an_image_a_side_never_prints_fails_validate(content: Path) -> None:
    """A board's side (layout: full) draws its own art and no image file: an `image:` there would
    pass unseen into the build and never appear on paper."""
    from PIL import Image

    (content / GAME / "art").mkdir(exist_ok=True)
    Image.new("RGB", (8, 8), "red").save(content / GAME / "art" / "road.png")
    comp = content / GAME / "components" / "road-boards.yaml"
    _replace(comp, "      layout: full\n", "      layout: full\n      image: art/road.png\n")
    m = _validate(content)
    assert m["file"].endswith("road-boards.yaml") and m["path"].endswith(".image"), m.group(0)
    assert "shows no image file" in m["msg"]
    assert int(m["line"]) == _line_of(comp, "image: art/road.png")


# --- huge numbers, huge texts -------------------------------------------------------------------------


def test_a_huge_coordinate_in_an_icon_path_fails_validate(content: Path) -> None:
    icons = content / "icons.yaml"
    _replace(icons, "path: M7.5 1.5 H16.5", "path: M7.5 1.5 H1e30")
    m = _validate(content)
    assert m["file"].endswith("icons.yaml") and "icon box" in m["msg"]
    assert int(m["line"]) == _line_of(icons, "H1e30")


def test_a_ten_megabyte_card_title_fails_validate_fast(content: Path) -> None:
    comp = content / GAME / "components" / "boss-movement-cards.yaml"
    _replace(comp, "    title: Boss Movement Card", "    title: " + "W" * 10_000_000)
    started = time.monotonic()
    m = _validate(content)
    assert time.monotonic() - started < 60  # refused before anything is laid out
    assert m["file"].endswith("boss-movement-cards.yaml") and "MB" in m["msg"]


def test_a_long_rules_title_fails_validate(content: Path) -> None:
    rule = content / GAME / "rules" / "boss-move.md"
    _replace(rule, 'title: "Boss step 2: Move the boss"', 'title: "' + "Move " * 2_000 + '"')
    m = _validate(content)
    assert m["file"].endswith("boss-move.md") and m["path"] == "title" and "at most 200" in m["msg"]
    assert int(m["line"]) == _line_of(rule, "title:")


def test_a_long_text_fails_validate(content: Path) -> None:
    glossary = content / GAME / "glossary.yaml"
    _replace(glossary, "definition: Your car,", "definition: " + "Your car, " * 2_000)
    m = _validate(content)
    assert m["path"] == "terms[0].definition" and "at most 10,000" in m["msg"]


def test_a_huge_rules_body_fails_validate(content: Path) -> None:
    rule = content / GAME / "rules" / "boss-move.md"
    rule.write_text(rule.read_text("utf-8") + "\nThe boss moves. " * 20_000, "utf-8")
    m = _validate(content)
    assert m["file"].endswith("boss-move.md") and "at most" in m["msg"]


# --- the hand-written site pages ---------------------------------------------------------------------


@pytest.mark.parametrize(("data", "col"), [("# About\n\nCaf\u00e9 racers.\n".encode("latin-1"), 4),
                                          (b"# About\n\n\xff\xfe\x00\x81", 1)])
def test_a_site_page_that_is_not_utf8_fails_validate(tmp_path: Path, data: bytes, col: int, monkeypatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    from generators import cli
    from generators.site import paths
    from generators.site.collect import _title
    from generators.validate import check_site_pages

    site = tmp_path / "site"
    site.mkdir()
    (site / "about.md").write_bytes(data)
    with pytest.raises(UnicodeDecodeError):  # what the site stage itself would meet
        _title(site / "about.md")
    with pytest.raises(ContentError) as caught:
        check_site_pages(site)
    assert (caught.value.line, caught.value.column) == (3, col)
    # and through the command, as `roadkit validate` runs it
    monkeypatch.setattr(paths, "SITE_SRC", site)
    status = cli.main(["validate", "--content", str(copy_content(tmp_path, (GAME,)))])
    err = capsys.readouterr().err.strip()
    assert status == 2 and "Traceback" not in err and len(err.splitlines()) == 1
    m = LINE.match(err)
    assert m and m["file"].endswith("about.md") and "UTF-8" in m["msg"]


def test_the_real_site_pages_are_utf8() -> None:
    from generators.validate import check_site_pages

    check_site_pages()  # raises on the first that is not
