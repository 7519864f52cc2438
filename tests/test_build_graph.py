"""One build graph: every output keyed on its content inputs and the whole generators package, in one
manifest without absolute paths; faults (a full disk, a read-only folder, a failing MkDocs, a bad
SOURCE_DATE_EPOCH) are one line with their own exit code and leave build/ as it was.

Code changes are made in a private copy of the repository (generators/, site/, mkdocs.yml and the
content), run from there, so the real package is never edited."""

from __future__ import annotations

import errno
import json
import os
import re
import shutil
from pathlib import Path

import pytest

from generators.build_system import build_graph
from generators.cli import main as cli_main
from tests.helpers import ROOT, copy_content, fingerprint, run_cli

GAME = "mission-drive"


def _repo_copy(dest: Path, games: tuple[str, ...]) -> Path:
    """generators/, site/, mkdocs.yml and some games' content, as a repository of their own."""
    repo = dest / "repo"
    repo.mkdir()
    shutil.copytree(ROOT / "generators", repo / "generators", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "site", repo / "site")
    shutil.copy(ROOT / "mkdocs.yml", repo / "mkdocs.yml")
    copy_content(repo, games)
    return repo


def _made(stdout: str) -> int:
    if "up to date (nothing changed since the last" in stdout:
        return 0
    m = re.search(r"print kit: (\d+) made", stdout)
    assert m, stdout
    return int(m.group(1))


def test_a_changed_named_size_rebuilds_the_pdfs(tmp_path: Path) -> None:
    repo = _repo_copy(tmp_path, (GAME,))
    args = ("print", "--game", GAME, "--paper", "a4", "--no-png")
    first = run_cli(*args, cwd=repo)
    assert first.returncode == 0, first.stderr
    cards = repo / "build" / "print" / "a4" / f"{GAME}-cards-duplex.pdf"
    before = cards.read_bytes()
    assert _made(run_cli(*args, cwd=repo).stdout) == 0  # nothing changed: nothing made
    model = repo / "generators" / "content" / "model.py"
    text = model.read_text("utf-8")
    assert '"poker": (63.0, 88.0)' in text
    model.write_text(text.replace('"poker": (63.0, 88.0)', '"poker": (64.0, 89.0)'), "utf-8")
    again = run_cli(*args, cwd=repo)
    assert again.returncode == 0, again.stderr
    assert _made(again.stdout) > 0
    assert cards.read_bytes() != before


def test_a_changed_engine_string_rebuilds_the_site(tmp_path: Path) -> None:
    game = "escape-deathrace-2182-micro"
    repo = _repo_copy(tmp_path, (game,))
    args = ("build", "--game", game, "--paper", "a4", "--no-png", "-q")
    first = run_cli(*args, cwd=repo)
    assert first.returncode == 0, first.stderr
    out = repo / "build"
    report = json.loads((out / "check" / "report.json").read_text("utf-8"))
    engine = repo / "generators" / "games" / "escape_deathrace" / "odds.py"
    source = engine.read_text("utf-8")
    title = next((t["title"] for t in report["odds"][game] if f'"{t["title"]}"' in source), None)
    if title is None:
        pytest.skip("no odds table title written as a literal in the engine")
    odds_page = out / "site" / game / "odds.html"
    assert title in odds_page.read_text("utf-8").replace("&amp;", "&")
    engine.write_text(source.replace(f'"{title}"', '"A renamed odds table"'), "utf-8")
    again = run_cli(*args, cwd=repo)
    assert again.returncode == 0, again.stderr
    html = odds_page.read_text("utf-8")
    assert "A renamed odds table" in html
    assert title not in html.replace("&amp;", "&")


def test_a_content_edit_rewrites_only_what_it_touches(tmp_path: Path) -> None:
    content = copy_content(tmp_path)
    out = tmp_path / "build"
    args = ("build", "--no-site", "--paper", "a4", "--content", content, "--out", out, "-q")
    assert run_cli(*args).returncode == 0
    before = {p: (p.stat().st_ino, p.stat().st_mtime_ns, p.read_bytes()) for p in out.rglob("*") if p.is_file()}
    deck = content / GAME / "components" / "movement-cards.yaml"
    text = deck.read_text("utf-8")
    m = re.search(r"^  - id: (\S+)\n(?:    facts: .*\n)?    front:\n      title: (.+)$", text, re.M)
    assert m, "the deck's first face"
    deck.write_text(text[: m.start(2)] + "Edited title" + text[m.end(2):], "utf-8")
    assert run_cli(*args).returncode == 0
    after = {p: (p.stat().st_ino, p.stat().st_mtime_ns, p.read_bytes()) for p in out.rglob("*") if p.is_file()}
    assert set(after) == set(before)
    rewritten = {p.relative_to(out).as_posix() for p in after if after[p][:2] != before[p][:2]}
    # The rules check words its examples with the printed titles (a shuffle of this deck lists its cards),
    # so its report is remade with the new title; nothing else of the check changes.
    expected = {f"print/a4/{GAME}-cards-duplex.pdf", f"print/a4/{GAME}-cards-gutterfold.pdf", ".manifest.json",
                f"png/{GAME}/movement-cards/{m.group(1)}-front.png",
                f".cache/content-{GAME}.pickle", ".cache/text-fit.json"}  # what the next run may reuse (build_cache.py)
    # The engine reads the card (its facts carry the title): the game's part of the check is remade,
    # and rewritten only if its bytes changed (the report with it).
    for part in (f"check/games/{GAME}.json", "check/report.json"):
        if after[out / part][2] != before[out / part][2]:
            expected.add(part)
    assert rewritten == expected
    assert "Edited title" in (out / "check" / "report.json").read_text("utf-8")


def test_no_absolute_paths_and_two_clones_agree(tmp_path: Path) -> None:
    manifests = []
    for clone in ("one", "two"):
        where = tmp_path / clone / "deeper" if clone == "two" else tmp_path / clone
        where.mkdir(parents=True)
        copy_content(where, (GAME,))
        result = run_cli("build", "--no-site", "--game", GAME, "--paper", "a4", "--no-png", "-q", cwd=where)
        assert result.returncode == 0, result.stderr
        manifests.append((where / "build" / ".manifest.json").read_text("utf-8"))
        for name in (".site-inputs", ".site-stamp.json", "check/.inputs"):
            assert not (where / "build" / name).exists(), f"{name}: a second cache besides the manifest"
    assert manifests[0] == manifests[1]
    assert str(tmp_path) not in manifests[0] and '"/' not in manifests[0]
    keys = json.loads(manifests[0])["targets"]
    assert f"check/games/{GAME}.json" in keys
    assert any(k.startswith("print/a4/") for k in keys) and any(k.startswith("schema/") for k in keys)


# --- faults are not results ------------------------------------------------------------------------


@pytest.fixture()
def built(tmp_path: Path) -> tuple[Path, Path]:
    """A private content copy of one game and its complete build (print, check, site)."""
    content = copy_content(tmp_path, (GAME,))
    out = tmp_path / "build"
    result = run_cli("build", "--content", content, "--out", out, "--paper", "a4", "--no-png", "-q")
    assert result.returncode == 0, result.stderr
    return content, out


def _edit_an_example(content: Path) -> None:
    example = sorted((content / GAME / "examples").glob("*.yaml"))[0]
    text = example.read_text("utf-8")
    example.write_text(re.sub(r"^title: (.*)$", r"title: \1 (edited)", text, count=1, flags=re.M), "utf-8")


def _failing_writes(monkeypatch: pytest.MonkeyPatch, code: int, after: int = 0) -> None:
    """Every write into a file after the first `after` fails with `code` (a full disk, a read-only folder)."""
    calls = {"n": 0}
    real = build_graph.write_bytes

    def write(f, data: bytes) -> None:
        calls["n"] += 1
        if calls["n"] > after:
            raise OSError(code, __import__("os").strerror(code), getattr(f, "name", None))
        real(f, data)

    monkeypatch.setattr(build_graph, "write_bytes", write)


def _one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


def test_a_full_disk_during_the_check_records_nothing(built, monkeypatch, capsys) -> None:
    content, out = built
    _edit_an_example(content)
    drawings = sorted((out / "check" / "svg").rglob("*.svg"))
    for svg in drawings[::2]:  # so that the check has many files to write, and the disk fills part-way
        svg.unlink()
    before = fingerprint(out)
    _failing_writes(monkeypatch, errno.ENOSPC, after=3)
    args = ["--content", str(content), "--out", str(out), "--game", GAME]
    assert cli_main(["check", *args]) == 3
    line = _one_line(capsys.readouterr().err)
    assert "No space left on device" in line and "left as it was" in line
    assert fingerprint(out) == before, "a failed check changed build/"
    monkeypatch.undo()
    assert cli_main(["check", "--json", *args]) == 0  # space is back: the check runs again, from scratch
    report = json.loads(capsys.readouterr().out)
    assert report["summary"]["failed"] == 0 and report["summary"]["verified"] > 0
    assert json.loads((out / "check" / "report.json").read_text("utf-8")) == report
    assert all((out / "check" / e["before_svg"]).is_file() for e in report["examples"] if e["before_svg"])


@pytest.mark.parametrize("command", ["print", "build"])
def test_a_read_only_build_folder_is_one_line_and_leaves_build_as_it_was(built, monkeypatch, capsys, command):
    content, out = built
    _edit_a_card(content)
    before = fingerprint(out)
    _failing_writes(monkeypatch, errno.EROFS)
    code = cli_main([command, "--content", str(content), "--out", str(out), "--paper", "a4", "--no-png"])
    assert code == 3
    line = _one_line(capsys.readouterr().err)
    assert line.startswith("roadkit: cannot write ") and "Read-only file system" in line
    assert fingerprint(out) == before
    assert not [p for p in out.rglob("*") if p.name.endswith(build_graph.TMP_SUFFIX)]


def test_a_failing_mkdocs_keeps_the_previous_site(built, monkeypatch, capsys) -> None:
    content, out = built
    _edit_an_example(content)  # the site is now stale
    before = fingerprint(out / "site")
    from generators.site import mkdocs_run

    def failing(args: list[str], prog_name: str) -> None:  # run by the worker in place of MkDocs' command line
        print("INFO - working")
        print("ERROR - the theme is broken")
        raise SystemExit(1)

    monkeypatch.setattr(mkdocs_run, "_mkdocs_main", lambda: failing)
    assert cli_main(["site", "--content", str(content), "--out", str(out)]) == 4
    line = _one_line(capsys.readouterr().err)
    assert "MkDocs" in line and "ERROR - the theme is broken" in line and "previous site was kept" in line
    assert fingerprint(out / "site") == before
    assert not [p for p in out.iterdir() if p.name.endswith(build_graph.TMP_SUFFIX)]


def test_a_real_mkdocs_failure_gives_its_own_reason(built, monkeypatch, capsys, tmp_path) -> None:
    content, out = built
    _edit_an_example(content)
    before = fingerprint(out / "site")
    from generators.site import build

    # A theme override MkDocs cannot compile: the worker's MkDocs fails with Jinja's own words.
    (tmp_path / "main.html").write_text('{% extends "base.html" %}{% block content %}{{ 1 | nope }}{% endblock %}')
    monkeypatch.setattr(build, "OVERRIDES", tmp_path)
    assert cli_main(["site", "--content", str(content), "--out", str(out)]) == 4
    line = _one_line(capsys.readouterr().err)
    assert "MkDocs could not build the site (mission-drive: " in line and "No filter named 'nope'" in line, line
    assert fingerprint(out / "site") == before
    assert not [p for p in out.iterdir() if p.name.endswith(build_graph.TMP_SUFFIX)]


def _edit_a_card(content: Path) -> None:
    deck = content / GAME / "components" / "movement-cards.yaml"
    deck.write_text(deck.read_text("utf-8").replace("title:", "title: X", 1), "utf-8")


def test_a_failing_mkdocs_in_a_build_puts_back_what_the_earlier_steps_replaced(built, monkeypatch, capsys) -> None:
    content, out = built
    _edit_a_card(content)  # the PDFs, the check's inputs and the site are stale
    _edit_an_example(content)
    before = fingerprint(out)
    from generators.site import mkdocs_run

    def failing(args: list[str], prog_name: str) -> None:
        raise SystemExit("ERROR - no")  # Python prints the text of an uncaught exit

    monkeypatch.setattr(mkdocs_run, "_mkdocs_main", lambda: failing)
    assert cli_main(["build", "--content", str(content), "--out", str(out), "--paper", "a4", "--no-png"]) == 4
    assert "ERROR - no" in _one_line(capsys.readouterr().err)
    assert fingerprint(out) == before
    assert not [p for p in out.rglob("*") if p.name.endswith(build_graph.TMP_SUFFIX)]


def test_a_full_disk_while_staging_the_site_leaves_build_as_it_was(built, monkeypatch, capsys) -> None:
    content, out = built
    _edit_a_card(content)
    before = fingerprint(out)
    from generators.site import staged_docs

    def full(path: Path, data: bytes) -> None:
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(staged_docs, "write_atomic", full)
    assert cli_main(["build", "--content", str(content), "--out", str(out), "--paper", "a4", "--no-png"]) == 3
    assert "No space left on device" in _one_line(capsys.readouterr().err)
    assert fingerprint(out) == before
    monkeypatch.undo()
    assert cli_main(["build", "--content", str(content), "--out", str(out), "--paper", "a4", "--no-png", "-q"]) == 0
    assert fingerprint(out) != before


@pytest.mark.parametrize("value", ["", "  ", "yesterday", "-5", "1e9", str(2**40)])
def test_a_bad_source_date_epoch_is_one_line_with_its_own_code(built, value) -> None:
    content, out = built
    before = fingerprint(out)
    result = run_cli("build", "--content", content, "--out", out, env={"SOURCE_DATE_EPOCH": value})
    assert result.returncode == 5, result.stderr
    assert "SOURCE_DATE_EPOCH" in _one_line(result.stderr)
    assert fingerprint(out) == before


def test_stale_temporary_files_and_old_caches_are_cleaned_at_start(built) -> None:
    content, out = built
    stale = [out / "print" / "a4" / f".x.pdf.123.abc{build_graph.TMP_SUFFIX}", out / ".site-inputs",
             out / "check" / ".inputs", out / "png" / ".y.png.abcdef.tmp"]
    for path in stale:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"half")
    folder = out / f".site.999.xyz{build_graph.TMP_SUFFIX}"
    folder.mkdir()
    (folder / "index.html").write_text("half a site", "utf-8")
    result = run_cli("print", "--content", content, "--out", out, "--paper", "a4", "--no-png")
    assert result.returncode == 0, result.stderr
    assert not [p for p in [*stale, folder] if p.exists()]


def test_a_failed_build_leaves_no_thumbnail_of_its_edit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """The components page's small copies are targets of the run: a build that fails after print (here
    MkDocs) leaves build/ byte for byte as it was, thumbnails included; the next good build's copies
    are made from the PNGs it shows, whatever their time stamps."""
    from generators.site import mkdocs_run
    from generators.site.assets import THUMBS, thumbnail

    monkeypatch.setenv("ROADKIT_SIMULATE", "0")
    content = copy_content(tmp_path, (GAME,))
    out = tmp_path / "build"
    args = ["build", "--content", str(content), "--out", str(out), "--paper", "a4", "-q"]
    assert cli_main(args) == 0
    thumbs = sorted((out / THUMBS).rglob("*.webp"))
    assert thumbs
    _edit_a_card(content)
    before = fingerprint(out)
    real = mkdocs_run._mkdocs_main

    def failing(args: list[str], prog_name: str) -> None:
        raise SystemExit("ERROR - no")

    monkeypatch.setattr(mkdocs_run, "_mkdocs_main", lambda: failing)
    assert cli_main(args) == 4
    capsys.readouterr()
    assert fingerprint(out) == before
    monkeypatch.setattr(mkdocs_run, "_mkdocs_main", real)
    for png in (out / "png").rglob("*.png"):  # older than any thumbnail: a time stamp must not decide
        os.utime(png, ns=(1, 1))
    assert cli_main(args) == 0
    for thumb in sorted((out / THUMBS).rglob("*.webp")):
        png = out / "png" / thumb.relative_to(out / THUMBS).with_suffix(".png")
        assert thumb.read_bytes() == thumbnail(png), thumb


def test_an_edit_behind_a_symlinked_game_folder_is_rebuilt(tmp_path: Path) -> None:
    """A game folder that is a link (and a linked folder inside one) is keyed by the bytes of what it
    points to: an edit there is neither "up to date" nor "0 made"."""
    content = copy_content(tmp_path, (GAME,))
    elsewhere = tmp_path / "elsewhere"
    shutil.move(content / GAME, elsewhere)
    (content / GAME).symlink_to(elsewhere, target_is_directory=True)
    shutil.move(elsewhere / "components", tmp_path / "components")
    (elsewhere / "components").symlink_to(tmp_path / "components", target_is_directory=True)
    out = tmp_path / "build"
    args = ("print", "--content", content, "--out", out, "--paper", "a4", "--no-png")
    assert run_cli(*args).returncode == 0
    again = run_cli(*args)
    assert again.returncode == 0 and "up to date" in again.stdout
    _edit_a_card(content)  # through both links
    result = run_cli(*args)
    assert result.returncode == 0, result.stderr
    assert "up to date (nothing changed" not in result.stdout and _made(result.stdout) > 0, result.stdout[-500:]
    plain = tmp_path / "plain"
    shutil.copytree(content, plain / "content", symlinks=False)  # the same bytes, no links
    assert run_cli(*args[:2], plain / "content", "--out", plain / "build", *args[5:]).returncode == 0
    assert fingerprint(out / "print") == fingerprint(plain / "build" / "print")
