"""A read-only build/: every writing command stops with one line that names build/ (never one of our
temporary files or the manifest), exit 3, build/ as it was; temporary folders an earlier run left,
even read-only copies of a read-only site, are removed by the next run of their owner."""

from __future__ import annotations

import os
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from generators.build_system.build_graph import TMP_SUFFIX, clean_stale, remove_tree, user_path
from generators.build_system.errors import MAX_FAULT_LINE
from tests.helpers import copy_content, fingerprint, mount_tmpfs, run_cli

GAME = "vampire-chase"


@pytest.mark.parametrize(("path", "shown"), [
    (f"build/..manifest.json.123.old{TMP_SUFFIX}", "build/"),
    (f"build/.site.123.k2j4h5g6{TMP_SUFFIX}/game/index.html", "build/site/game/index.html"),
    (f"build/site/.site.123.old{TMP_SUFFIX}", "build/site/"),
    (f"build/print/a4/.x-cards.pdf.9.abcdefgh{TMP_SUFFIX}", "build/print/a4/x-cards.pdf"),
    (f"build/.cache/.model.pickle.9.abcdefgh{TMP_SUFFIX}", "build/.cache/model.pickle"),
    ("build/print/a4/x.pdf", "build/print/a4/x.pdf"),
    # the run's staging copy of build/, and temporary names inside it
    (f"build/.build.123.next{TMP_SUFFIX}", "build/"),
    (f"build/.build.123.next{TMP_SUFFIX}/print/a4/.x.pdf.123.abcdefgh{TMP_SUFFIX}", "build/print/a4/x.pdf"),
    (f"build/.build.123.next{TMP_SUFFIX}/.site.123.k2j4h5g6{TMP_SUFFIX}/index.html", "build/site/index.html"),
])
def test_a_temporary_name_is_shown_as_the_output_it_stands_for(path: str, shown: str) -> None:
    assert user_path(path) == shown


@pytest.fixture
def read_only_build(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    """A built print kit and schemas on a tmpfs, a card edited since, then the mount made read-only."""
    out = tmp_path / "build"
    if not mount_tmpfs(out, "64m"):
        pytest.skip("cannot mount a tmpfs here")
    try:
        content = copy_content(tmp_path, (GAME,))
        for command in (("print", "--paper", "a4", "--no-png"), ("schema",)):
            made = run_cli(*command, "--content", content, "--out", "build", "--game", GAME, "-q", cwd=tmp_path)
            assert made.returncode == 0, made.stderr
        deck = sorted((content / GAME / "components").glob("*-deck.yaml"))[0]
        deck.write_text(deck.read_text("utf-8").replace("title:", "title: X", 1), "utf-8")
        assert subprocess.run(["mount", "-o", "remount,ro", str(out)], capture_output=True).returncode == 0
        yield content, out
    finally:
        subprocess.run(["umount", str(out)], capture_output=True)


@pytest.mark.parametrize("command", [("print", "--paper", "a4", "--no-png"), ("schema",), ("check",)])
def test_a_read_only_build_is_named_plainly(read_only_build: tuple[Path, Path], command: tuple[str, ...]) -> None:
    content, out = read_only_build
    before = fingerprint(out)
    result = run_cli(*command, "--content", content, "--out", "build", "--game", GAME, "-q", cwd=out.parent)
    assert result.returncode == 3, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    line = lines[0]
    assert line.startswith("roadkit: cannot write build/") and "Read-only file system" in line, line
    assert TMP_SUFFIX not in line and ".manifest" not in line and len(line) <= MAX_FAULT_LINE, line
    assert fingerprint(out) == before


def _read_only_leftover(root: Path) -> Path:
    """What a failed swap of a read-only site left: a temporary copy whose folders kept its modes."""
    left = root / f".site.77.k2j4h5g6{TMP_SUFFIX}"
    (left / "game" / "search").mkdir(parents=True)
    (left / "index.html").write_text("old", "utf-8")
    (left / "game" / "search" / "search_index.json").write_text("{}", "utf-8")
    for folder in (left / "game" / "search", left / "game", left):
        folder.chmod(0o555)
    return left


def _as_owner(root: Path, work: object) -> None:
    """Run `work()` as the unprivileged owner of `root` (root ignores folder permissions)."""
    if os.geteuid() != 0:
        work()  # type: ignore[operator]
        return
    uid = 65534  # nobody
    for path in [root, *root.rglob("*")]:
        os.lchown(path, uid, uid)
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            os.setgid(uid)
            os.setuid(uid)
            work()  # type: ignore[operator]
            code = 0
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0


def test_a_read_only_leftover_is_removed_by_its_owner() -> None:
    with tempfile.TemporaryDirectory() as where:  # not under pytest's private folder: `nobody` must reach it
        root = Path(where) / "build"
        root.mkdir()
        left = _read_only_leftover(root)
        (root / "site").mkdir()
        (root / "site" / "index.html").write_text("current", "utf-8")
        os.chmod(where, 0o755)
        _as_owner(root, lambda: clean_stale(root))
        assert not left.exists(), "the next run left the read-only temporary site behind"
        assert (root / "site" / "index.html").read_text("utf-8") == "current"


def test_remove_tree_opens_up_what_it_owns(tmp_path: Path) -> None:
    left = _read_only_leftover(tmp_path)
    remove_tree(left)
    assert not left.exists()
