"""Content mistakes: one located line on stderr, exit code 2, no traceback, build/ untouched.

Each case writes one small broken file into a private copy of the content, so the expected line
and column are known from the text written here, not from the code under test."""

from __future__ import annotations

import argparse
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.helpers import copy_content, fingerprint, run_cli

GOOD = """\
id: test-deck
name: Test Deck
kind: cards
count: 2
faces:
  - id: one
    count: 2
    front:
      title: One
      provenance: house
      note: made for a test
"""

LINE = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): (?P<path>[^:\n]+): (?P<msg>.+)$")


@pytest.fixture(scope="module")
def baseline(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A content copy with a valid extra deck, and a build of it to protect."""
    root = tmp_path_factory.mktemp("baseline")
    content = copy_content(root, ("mission-drive",))
    (content / "mission-drive" / "components" / "zz-test.yaml").write_text(GOOD, "utf-8")
    out = root / "build"
    result = run_cli("print", "--content", content, "--out", out, "--paper", "a4", "-q")
    assert result.returncode == 0, result.stderr
    return content, out


def _break(tmp_path: Path, baseline: tuple[Path, Path], files: dict[str, bytes | str]) -> tuple[str, Path]:
    """Copy the baseline, write the broken files, run a full build; return stderr's one line."""

    def write(game: Path) -> None:
        for name, data in files.items():
            path = game / name
            if isinstance(data, str):
                path.write_text(data, "utf-8")
            else:
                path.write_bytes(data)

    return _break_with(tmp_path, baseline, write)


def _break_with(tmp_path: Path, baseline: tuple[Path, Path], change: Callable[[Path], None]) -> tuple[str, Path]:
    """Copy the baseline, `change` the game folder, run a full build: exit 2, one line on stderr, no
    traceback, build/ byte-identical. Returns the line and the content folder."""
    content_src, out_src = baseline
    content = tmp_path / "content"
    out = tmp_path / "build"
    shutil.copytree(content_src, content)
    shutil.copytree(out_src, out)
    before = fingerprint(out)
    change(content / "mission-drive")
    result = run_cli("build", "--no-site", "--content", content, "--out", out)
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert fingerprint(out) == before, "a failed build changed build/"
    return lines[0], content


def _expect(line: str, file_end: str, row: int, col: int | None, path: str, *words: str) -> None:
    m = LINE.match(line)
    assert m, f"not file:line:column: key.path: message -> {line!r}"
    assert m["file"].endswith(file_end), line
    assert int(m["line"]) == row, line
    if col is not None:
        assert int(m["col"]) == col, line
    assert m["path"] == path, line
    for word in words:
        assert word in m["msg"], line


def test_yaml_syntax_error(tmp_path, baseline):
    text = GOOD.replace("name: Test Deck", "name: [Test Deck")
    line, _ = _break(tmp_path, baseline, {"components/zz-test.yaml": text})
    m = LINE.match(line)
    assert m and m["file"].endswith("zz-test.yaml") and "YAML syntax error" in m["msg"], line
    assert int(m["line"]) >= 2, line


def test_unknown_key_typo(tmp_path, baseline):
    text = GOOD.replace("      title: One", "      titel: One")
    line, _ = _break(tmp_path, baseline, {"components/zz-test.yaml": text})
    _expect(line, "zz-test.yaml", 9, 7, "faces[0].front.titel", "unknown key 'titel'", "did you mean 'title'")


def test_wrong_type(tmp_path, baseline):
    text = GOOD.replace("    count: 2", "    count: two")
    line, _ = _break(tmp_path, baseline, {"components/zz-test.yaml": text})
    _expect(line, "zz-test.yaml", 7, 5, "faces[0].count", "expected a whole number", "'two'")


def test_missing_required_field(tmp_path, baseline):
    text = GOOD.replace("name: Test Deck\n", "")
    line, _ = _break(tmp_path, baseline, {"components/zz-test.yaml": text})
    _expect(line, "zz-test.yaml", 1, 1, "(document)", "missing required key 'name'")


def test_duplicate_id(tmp_path, baseline):
    line, _ = _break(tmp_path, baseline, {"components/zz-test2.yaml": GOOD})
    _expect(line, "zz-test2.yaml", 1, 1, "id", "duplicate component id 'test-deck'", "zz-test.yaml")


def test_reference_to_missing_id(tmp_path, baseline):
    text = GOOD + "      art: {icon: no-such-icon}\n"
    line, _ = _break(tmp_path, baseline, {"components/zz-test.yaml": text})
    _expect(line, "zz-test.yaml", 12, None, "faces[0].front.art.icon", "unknown icon 'no-such-icon'")


def test_python_object_tag(tmp_path, baseline):
    text = GOOD + 'description: !!python/object/apply:os.system ["echo pwned > /tmp/roadkit-pwned"]\n'
    line, _ = _break(tmp_path, baseline, {"components/zz-test.yaml": text})
    _expect(line, "zz-test.yaml", 12, 14, "description", "tag", "not allowed")
    assert not Path("/tmp/roadkit-pwned").exists()


def test_alias_bomb(tmp_path, baseline):
    bomb = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
    for prev, name in zip("abcdefgh", "bcdefghi", strict=True):
        bomb += f"{name}: &{name} [{','.join(['*' + prev] * 9)}]\n"
    line, _ = _break(tmp_path, baseline, {"components/zz-test.yaml": bomb})
    m = LINE.match(line)
    assert m and m["file"].endswith("zz-test.yaml") and "aliases" in m["msg"] and "expand" in m["msg"], line


def test_not_utf8(tmp_path, baseline):
    data = GOOD.replace("title: One", "title: Caf\u00e9").encode("latin-1")
    line, _ = _break(tmp_path, baseline, {"components/zz-test.yaml": data})
    _expect(line, "zz-test.yaml", 9, 17, "(document)", "not UTF-8")


def test_image_path_leaving_content(tmp_path, baseline):
    text = GOOD + "      image: ../../../../../../etc/passwd.png\n"
    line, _ = _break(tmp_path, baseline, {"components/zz-test.yaml": text})
    _expect(line, "zz-test.yaml", 12, 7, "faces[0].front.image", "leaves the content folder")


def test_count_disagrees_with_faces(tmp_path, baseline):
    text = GOOD.replace("count: 2\nfaces", "count: 3\nfaces")
    line, _ = _break(tmp_path, baseline, {"components/zz-test.yaml": text})
    _expect(line, "zz-test.yaml", 4, 1, "count", "add up to 2", "count says 3")


def test_unknown_game_is_a_clear_error(tmp_path, baseline):
    content, _ = baseline
    result = run_cli("validate", "--content", content, "--game", "no-such-game")
    assert result.returncode == 2 and "no game 'no-such-game'" in result.stderr
    assert "Traceback" not in result.stderr


# --- issue 9: every input gives a located line, never a traceback --------------------------------


def test_self_referencing_alias(tmp_path, baseline):
    text = GOOD + "description: &r [*r]\n"
    line, _ = _break(tmp_path, baseline, {"components/zz-test.yaml": text})
    _expect(line, "zz-test.yaml", 12, 14, "description[0]", "refers to the value that contains it")


@pytest.mark.parametrize("depth", [100, 490, 700, 999])
def test_deep_nesting(tmp_path, baseline, depth):
    text = GOOD + "description: " + "[" * depth + "x" + "]" * depth + "\n"
    line, _ = _break(tmp_path, baseline, {"components/zz-test.yaml": text})
    m = LINE.match(line)
    assert m and m["file"].endswith("zz-test.yaml") and int(m["line"]) == 12, line
    assert "nest more than" in m["msg"], line


@pytest.mark.parametrize("folder, name", [("components", "x.yaml"), ("rules", "x.md"), ("examples", "x.yaml")])
def test_a_folder_named_like_a_content_file(tmp_path, baseline, folder, name):
    line, _ = _break_with(tmp_path, baseline, lambda game: (game / folder / name).mkdir())
    _expect(line, f"{folder}/{name}", 1, 1, "(document)", "this is a folder")


def test_control_character_is_one_line_at_its_position(tmp_path, baseline):
    text = GOOD.replace("title: One", "title: O\x01ne")
    line, _ = _break(tmp_path, baseline, {"components/zz-test.yaml": text})
    _expect(line, "zz-test.yaml", 9, 15, "(document)", "U+0001")


@pytest.mark.parametrize("title, char", [("Boom 💥", "U+1F4A5"), ("漢字", "U+6F22")])
def test_characters_missing_from_the_font(tmp_path, baseline, title, char):
    text = GOOD.replace("title: One", f"title: {title}")
    line, _ = _break(tmp_path, baseline, {"components/zz-test.yaml": text})
    _expect(line, "zz-test.yaml", 9, 7, "faces[0].front.title", char, "embedded font", "empty box")


def test_a_standalone_unknown_icon_is_an_error_naming_the_escape(tmp_path, baseline):
    text = GOOD + "      text: 'roll :sheild: twice'\n"
    line, _ = _break(tmp_path, baseline, {"components/zz-test.yaml": text})
    _expect(line, "zz-test.yaml", 12, 7, "faces[0].front.text", "unknown icon 'sheild'", "\\:")


def test_colon_pairs_print_as_text_and_the_escape_prints_a_literal_icon_code(tmp_path):
    import pypdf

    content = copy_content(tmp_path, ("mission-drive",))
    deck = GOOD + "      text: 'ratio 1:2:3, at 10:30:00, and \\:target: is written so'\n"
    (content / "mission-drive" / "components" / "zz-test.yaml").write_text(deck, "utf-8")
    out = tmp_path / "out"
    result = run_cli("print", "--content", content, "--out", out, "--paper", "a4", "--no-png")
    assert result.returncode == 0, result.stderr
    reader = pypdf.PdfReader(out / "print" / "a4" / "mission-drive-cards-duplex.pdf")
    text = " ".join(" ".join((p.extract_text() or "").split()) for p in reader.pages)
    assert "ratio 1:2:3, at 10:30:00, and :target: is written so" in text


def test_the_site_shows_the_escape_as_a_colon_and_a_code_as_an_icon():
    from generators.content.loader import load_content
    from generators.site.pages import Links
    from tests.helpers import CONTENT

    links = Links("x.md", None, load_content(CONTENT, ["mission-drive"]))
    assert links.text("\\:target: 1:2:3") == ":target: 1:2:3"
    assert "<svg" in links.text("a :target: b")
    assert "<svg" not in links.body("write \\:target: for the code\n") and ":target:" in links.body("\\:target:\n")


def test_crlf_rules_files_are_accepted(tmp_path, baseline):
    content = tmp_path / "content"
    shutil.copytree(baseline[0], content)
    for rule in (content / "mission-drive" / "rules").glob("*.md"):
        rule.write_bytes(rule.read_bytes().replace(b"\n", b"\r\n"))
    result = run_cli("validate", "--content", content)
    assert result.returncode == 0, result.stderr


def test_an_empty_content_folder_is_a_clear_error(tmp_path):
    (tmp_path / "empty").mkdir()
    result = run_cli("validate", "--content", tmp_path / "empty")
    assert result.returncode == 2 and "no games here" in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_file_given_as_content_is_a_clear_error(tmp_path):
    (tmp_path / "file.yaml").write_text("a: 1\n", "utf-8")
    result = run_cli("validate", "--content", tmp_path / "file.yaml")
    assert result.returncode == 2 and "names a file" in result.stderr, result.stderr
    assert "does not exist" not in result.stderr


# --- content that validated, then crashed a later step, is refused by validation ----------------


def test_a_bad_hex_colour(tmp_path, baseline):
    text = GOOD + '      color: "#zz"\n'
    line, _ = _break(tmp_path, baseline, {"components/zz-test.yaml": text})
    _expect(line, "zz-test.yaml", 12, 7, "faces[0].front.color", "bad hex colour '#zz'")


def test_a_size_that_is_not_a_number(tmp_path, baseline):
    text = GOOD.replace("count: 2\nfaces", "count: 2\nsize: {width: .nan, height: 88}\nfaces")
    line, _ = _break(tmp_path, baseline, {"components/zz-test.yaml": text})
    _expect(line, "zz-test.yaml", 5, 8, "size.width", "expected an ordinary number", "nan")


BOARD = """\
id: test-board
name: Test Board
kind: board
count: 1
size: {width: 200, height: 150}
faces:
  - id: main
    front:
      title: Board
      provenance: house
      note: made for a test
      elements:
        - {x: 1.0e+308, y: 10, width: 20, height: 20, label: A}
"""


def test_a_board_element_far_off_the_board(tmp_path, baseline):
    line, _ = _break(tmp_path, baseline, {"components/zz-board.yaml": BOARD})
    _expect(line, "zz-board.yaml", 13, 12, "faces[0].front.elements[0].x", "1e+308")


def test_an_image_that_does_not_decode(tmp_path, baseline):
    text = GOOD + "      image: art.png\n"
    files = {"art.png": b"\x89PNG\r\n\x1a\n" + b"not really an image" * 10, "components/zz-test.yaml": text}
    line, _ = _break(tmp_path, baseline, files)
    _expect(line, "zz-test.yaml", 12, 7, "faces[0].front.image", "not a readable PNG or JPEG")


def test_an_image_too_large_is_refused_before_decoding(tmp_path, baseline):
    from PIL import Image

    def write(game: Path) -> None:
        Image.new("1", (8000, 6000)).save(game / "huge.png")  # 48 megapixels, a few kB on disk
        (game / "components" / "zz-test.yaml").write_text(GOOD + "      image: huge.png\n", "utf-8")

    line, _ = _break_with(tmp_path, baseline, write)
    _expect(line, "zz-test.yaml", 12, 7, "faces[0].front.image", "8000x6000", "megapixels")


def test_two_chapters_with_the_same_id(tmp_path, baseline):
    def write(game: Path) -> None:
        path = game / "game.yaml"
        path.write_text(path.read_text("utf-8").replace("chapters:\n", "chapters:\n  - {id: turn, title: Again}\n"))

    line, _ = _break_with(tmp_path, baseline, write)
    m = LINE.match(line)
    assert m and m["file"].endswith("game.yaml") and re.fullmatch(r"chapters\[\d+\]\.id", m["path"]), line
    assert "duplicate chapter id 'turn'" in m["msg"], line


DICE = "id: test-dice\nname: Test Dice\nkind: dice\ncount: COUNT\nsize: {width: 16, height: 16}\nfaces:\n" + "".join(
    f"  - id: f{i}\n    front: {{title: '{i}', provenance: house, note: test}}\n" for i in range(1, 7))


@pytest.mark.parametrize("count, words", [(200000, ("at most 500",)), (31, ("at most 30 dice",))])
def test_dice_counts_have_a_maximum(tmp_path, baseline, count, words):
    line, _ = _break(tmp_path, baseline, {"components/zz-dice.yaml": DICE.replace("COUNT", str(count))})
    _expect(line, "zz-dice.yaml", 4, 1, "count", *words)


def test_an_unknown_link_in_a_rules_body_is_found_by_validate(tmp_path, baseline):
    content = tmp_path / "content"
    shutil.copytree(baseline[0], content)
    rule = sorted((content / "mission-drive" / "rules").glob("*.md"))[0]
    lines = rule.read_text("utf-8").splitlines()
    rule.write_text("\n".join([*lines, "See [there](#no-such-entry) for more."]) + "\n", "utf-8")
    result = run_cli("validate", "--content", content)
    assert result.returncode == 2, result.stderr
    _expect(result.stderr.strip(), rule.name, len(lines) + 1, 13, "(document)", "'#no-such-entry'", "no rules entry")


def test_an_engine_setup_error_stops_the_build_before_any_write(tmp_path, baseline):
    def write(game: Path) -> None:
        path = sorted((game / "examples").glob("*.yaml"))[0]
        text = path.read_text("utf-8")
        assert "hero: {at: [" in text
        path.write_text(re.sub(r"hero: \{at: \[\d+, \d+\]\}", "hero: {at: [2, 500]}", text, count=1), "utf-8")

    line, _ = _break_with(tmp_path, baseline, write)
    m = LINE.match(line)
    assert m and m["path"] == "setup.hero.at" and "off the road" in m["msg"], line


# --- every value on the command line and in the environment -----------------------------------------

# Options that take free text and check it themselves later (a game, a folder, a setting's or a seat's
# name, a policy, a design's change), each with a test of its own elsewhere.
FREE_TEXT = {"--game", "--content", "--out", "--setting", "--seat", "--policy", "--against", "--rebalanced",
             "--variant", "--base", "--resume",
             "paths"}


def _value_options() -> list[tuple[str, argparse.Action]]:
    """(subcommand, action) for every option of every subcommand that takes a value."""
    from generators.cli import parser

    subs = parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    return [(name, action) for name, sub in subs.items() for action in sub._actions
            if action.nargs != 0 and action.dest != "help"]


def _flag(action: argparse.Action) -> str:
    strings = action.option_strings
    return strings[0] if strings else str(action.dest)


def test_every_value_option_is_bounded_or_checked() -> None:
    """A numeric option added with a bare `type=int` (no bound, no message) fails here."""
    loose = [f"{cmd} {_flag(a)}" for cmd, a in _value_options()
             if _flag(a) not in FREE_TEXT and a.choices is None
             and a.type in (None, int, float, str, Path)]
    assert not loose, f"options without a bound or a check: {loose}"


# Values no bounded number takes: below and beyond any range, digits int() refuses, a number of 5,000
# digits (int() refuses over 4,300), not a number at all, nan and infinity.
BAD_NUMBERS = ["-1", "10" * 20, "²", "①", "٣", "9" * 5000, "lots", "", "nan", "inf", "1e99", "0x10"]


def test_every_bounded_option_refuses_bad_values_on_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    from generators.cli import parser

    tried = 0
    for cmd, action in _value_options():
        flag = _flag(action)
        if flag in FREE_TEXT or action.choices is not None:
            continue
        for value in BAD_NUMBERS:
            with pytest.raises(SystemExit) as stop:
                parser().parse_args([cmd, flag, value] if flag.startswith("-") else [cmd, value])
                pytest.fail(f"roadkit {cmd} {flag} {value[:20]!r} was taken")
            err = capsys.readouterr().err
            assert stop.value.code == 2, (cmd, flag, value)
            assert len(err.strip().splitlines()) == 1 and len(err) < 600, (cmd, flag, value, err[:300])
            assert flag in err and f"roadkit {cmd}" in err and "Traceback" not in err, err
            tried += 1
    assert tried > 100  # every subcommand's numbers were found


@pytest.mark.parametrize("args", [
    ["simulate", "--games", "0"], ["simulate", "--games", str(10**12)], ["balance", "--games", "-1"],
    ["simulate", "--max-games", "0", "--precision", "3"], ["simulate", "--simulations", "0"],
    ["play", "--simulations", "0"], ["balance", "-j", "0"], ["print", "-j", "-3"],
    ["simulate", "--scheduler", "garbage"], ["balance", "--scheduler", "tcp://host"],
    ["simulate", "--scheduler", "tcp://host:99999"], ["simulate", "--scheduler", "tcp://host:port"],
    ["print", "--back-offset", "nan,0"], ["print", "--back-offset", "1e9,0"], ["build", "--tts-url", "javascript:x"],
    ["simulate", "--precision", "nan"], ["play", "--seed", "-1"],
])
def test_bad_numbers_and_addresses_are_refused_before_anything_runs(tmp_path: Path, args: list[str]) -> None:
    out = tmp_path / "build"
    result = run_cli(*args, "--out", out)
    assert result.returncode == 2, (args, result.returncode, result.stderr[-500:])
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr[-500:]
    assert args[1] in lines[0], lines[0]
    assert not out.exists()


def test_good_addresses_pass() -> None:
    from generators.build_system import arguments

    for address in ("tcp://10.0.0.5:8786", "scheduler:8786", "tls://[::1]:8786", "inproc://10.0.0.5/1/2"):
        assert arguments.scheduler(address) == address


def test_an_unknown_setting_is_refused_by_simulate() -> None:
    result = run_cli("simulate", "--game", "mission-drive", "--setting", "no-such-setting", "--games", "1")
    assert result.returncode == 2, result.stdout[-300:]
    assert "no-such-setting" in result.stderr and "rookie" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize(("variable", "value", "command"), [
    ("ROADKIT_SIMULATE", "99999999999999999999", "build"), ("ROADKIT_SIMULATE", "-1", "build"),
    ("ROADKIT_SIMULATE", "²", "build"), ("ROADKIT_SIMULATE", "1" * 5000, "build"),
    ("ROADKIT_SERVE_ADDR", "nowhere", "site --serve"), ("ROADKIT_SERVE_ADDR", "host:99999", "site --serve"),
    ("SOURCE_DATE_EPOCH", "²", "validate"), ("SOURCE_DATE_EPOCH", "9" * 30, "schema"),  # found by make fuzz
])
def test_a_bad_environment_variable_is_exit_5_before_anything_is_written(
        tmp_path: Path, variable: str, value: str, command: str) -> None:
    out = tmp_path / "build"
    result = run_cli(*command.split(), "--game", "mission-drive", "--out", out, env={variable: value})
    assert result.returncode == 5, (result.returncode, result.stderr[-500:])
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and variable in lines[0] and "Traceback" not in result.stderr, result.stderr[-500:]
    assert not out.exists()


# --- outputs never inside the sources ---------------------------------------------------------------

@pytest.mark.parametrize("out", [".", "content", "content/mission-drive/out", "site", "site/new", "generators",
                                 "tests", "tests/build", "..", "/"])
@pytest.mark.parametrize("command", ["build", "site", "schema"])
def test_out_inside_the_sources_is_refused(out: str, command: str, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """Run in this process (the command line's own `main`, from the repository's folder): thirty
    interpreters started for one refused argument each cost more than the rest of the file."""
    from generators.cli import main
    from tests.helpers import ROOT

    monkeypatch.chdir(ROOT)
    before = sorted(p.name for p in ROOT.iterdir()), fingerprint(ROOT / "site")
    status = main([command, "--out", out, "--game", "mission-drive"])
    err = capsys.readouterr().err
    assert status == 2, (out, err[-300:])
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "--out" in lines[0] and "Traceback" not in err, err[-300:]
    assert (sorted(p.name for p in ROOT.iterdir()), fingerprint(ROOT / "site")) == before


@pytest.mark.parametrize("out", ["link-to-site", "link-to-site/", "link-to-site/new", "link-to-content/mission-drive",
                                 "{root}/tests/x/../../site/", "{root}/./content/", "{root}/generators/../tests",
                                 "link-to-root/", "loop-a", "loop-a/x", "{root}/mkdocs.yml", "link-to-file"])
def test_out_reached_another_way_is_refused(tmp_path: Path, out: str) -> None:
    """The sources reached through a link, `..`, `.` or a trailing slash are still the sources; a
    link that leads round in a circle and a file are no output folder either: one line, exit 2."""
    from tests.helpers import ROOT

    for name, target in (("link-to-site", ROOT / "site"), ("link-to-content", ROOT / "content"),
                         ("link-to-root", ROOT), ("loop-a", tmp_path / "loop-b"), ("loop-b", tmp_path / "loop-a"),
                         ("link-to-file", ROOT / "README.md")):
        (tmp_path / name).symlink_to(target)
    before = sorted(p.name for p in ROOT.iterdir()), fingerprint(ROOT / "site")
    result = run_cli("schema", "--content", ROOT / "content", "--out", out.format(root=ROOT), cwd=tmp_path)
    assert result.returncode == 2, (out, result.stderr[-300:])
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "--out" in lines[0] and "Traceback" not in result.stderr, result.stderr[-300:]
    assert (sorted(p.name for p in ROOT.iterdir()), fingerprint(ROOT / "site")) == before


def test_out_inside_another_content_folder_is_refused(tmp_path: Path) -> None:
    content = copy_content(tmp_path, ("mission-drive",))
    result = run_cli("schema", "--content", content, "--out", content / "mission-drive" / "build")
    assert result.returncode == 2 and "content folder" in result.stderr, result.stderr
    assert not (content / "mission-drive" / "build").exists()


def test_a_folder_roadkit_did_not_make_is_never_cleaned_or_swapped(tmp_path: Path) -> None:
    """`--out ~/Documents`: a folder with files of someone else's is refused before anything is
    removed (a build cleans `*.roadkit-tmp` files and swaps `site/`); an empty one becomes Roadkit's
    (marked), as does the build/ of an earlier version (it has a manifest)."""
    from generators.build_system.build_graph import MARKER

    stray = tmp_path / "documents"
    (stray / "site").mkdir(parents=True)
    (stray / "site" / "index.html").write_text("mine", "utf-8")
    (stray / ".notes.1.old.roadkit-tmp").write_text("mine too", "utf-8")
    before = fingerprint(stray)
    content = copy_content(tmp_path, ("mission-drive",))  # one game: each run's validation pass is short
    result = run_cli("schema", "--content", content, "--out", stray)
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "Roadkit did not make" in result.stderr and fingerprint(stray) == before
    empty = tmp_path / "empty"
    empty.mkdir()
    assert run_cli("schema", "--content", content, "--out", empty).returncode == 0
    assert (empty / MARKER).is_file()
    (empty / MARKER).unlink()  # as an earlier version left it: a manifest, no marker
    shutil.rmtree(empty / "schema")  # something to do
    assert run_cli("schema", "--content", content, "--out", empty).returncode == 0
    assert (empty / MARKER).is_file()


def test_a_failed_first_run_leaves_no_marker(tmp_path: Path) -> None:
    content = copy_content(tmp_path, ("mission-drive",))
    (content / "mission-drive" / "game.yaml").write_text("nmae: broken\n", "utf-8")
    out = tmp_path / "empty"
    out.mkdir()
    assert run_cli("print", "--content", content, "--out", out).returncode == 2
    assert list(out.iterdir()) == []
