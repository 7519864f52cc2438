"""Content mistakes: one located line on stderr, exit code 2, no traceback, build/ untouched.

Each case writes one small broken file into a private copy of the content, so the expected line
and column are known from the text written here, not from the code under test."""

from __future__ import annotations

import re
import shutil
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
    content_src, out_src = baseline
    content = tmp_path / "content"
    out = tmp_path / "build"
    shutil.copytree(content_src, content)
    shutil.copytree(out_src, out)
    before = fingerprint(out)
    for name, data in files.items():
        path = content / "mission-drive" / name
        if isinstance(data, str):
            path.write_text(data, "utf-8")
        else:
            path.write_bytes(data)
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
