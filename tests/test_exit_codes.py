"""Every exit code Roadkit defines (`Exit` and its table in generators/build_system/errors.py, which
the editors' guide prints), each produced the way a user would meet it, with the promise its row makes
(one located line, build/ untouched, the previous site kept, the traceback printed...). A code added
to the table without a test here fails `test_every_documented_code_is_exercised`."""

from __future__ import annotations

import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from generators.build_system.build_graph import MARKER
from generators.build_system.errors import EXIT_CODES, MAX_FAULT_LINE
from generators.cli import main as cli_main
from tests.helpers import ROOT, copy_content, fingerprint, run_cli, start_cli

GAME = "vampire-chase"
LOCATED = re.compile(r"^\S+\.(?:yaml|md):\d+:\d+: \S+: .+$")
EXERCISED: set[int] = set()  # filled by the `exercises` marker below, checked at the end


def exercises(code: int):  # type: ignore[no-untyped-def]
    EXERCISED.add(code)
    return lambda test: test


def _documented() -> set[int]:
    return {int(code) for code in EXIT_CODES}


def _one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert len(lines[0]) <= MAX_FAULT_LINE + len("roadkit: ")
    return lines[0]


@exercises(0)
def test_0_success() -> None:
    result = run_cli("validate", "--game", GAME)
    assert result.returncode == 0, result.stderr
    assert result.stderr == "" and "content OK" in result.stdout


def test_0_help_for_every_command() -> None:
    """Every help text formats (argparse reads a lone % as a placeholder) and ends in exit 0."""
    from generators.cli import parser

    commands = [a for a in parser()._subparsers._group_actions[0].choices]  # type: ignore[union-attr]
    assert "build" in commands and "balance" in commands
    for args in ([], *[[c] for c in commands]):
        result = run_cli(*args, "--help")
        assert result.returncode == 0 and result.stderr == "", (args, result.stderr[-500:])
        assert "usage: roadkit" in result.stdout


@exercises(1)
def test_1_a_worked_example_failed(tmp_path: Path) -> None:
    content = copy_content(tmp_path, (GAME,))
    example = sorted((content / GAME / "examples").glob("*.yaml"))[0]
    text = example.read_text("utf-8")
    top = text.rindex("\nexpect:")  # the example's final expectation: one more health than the rules give
    health = re.compile(r"(\n  health: )(\d+)")
    m = health.search(text, top)
    assert m is not None, example
    example.write_text(text[:m.start()] + f"{m.group(1)}{int(m.group(2)) + 1}" + text[m.end():], "utf-8")
    result = run_cli("check", "--content", content, "--out", tmp_path / "build", "--game", GAME, "-q")
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr


@exercises(2)
def test_2_a_content_mistake_is_located_and_touches_nothing(tmp_path: Path) -> None:
    content = copy_content(tmp_path, (GAME,))
    game = content / GAME / "game.yaml"
    game.write_text(game.read_text("utf-8").replace("name:", "nmae:", 1), "utf-8")
    out = tmp_path / "build"
    result = run_cli("print", "--content", content, "--out", out, "--game", GAME, "--paper", "a4")
    assert result.returncode == 2, result.stderr
    line = result.stderr.strip()
    assert "\n" not in line and LOCATED.match(line) and "game.yaml:" in line and "nmae" in line, line
    assert not out.exists(), "a content mistake touched build/"


@exercises(2)
def test_2_a_command_line_mistake() -> None:
    result = run_cli("print", "--paper", "a5")
    assert result.returncode == 2 and "a5" in result.stderr and "Traceback" not in result.stderr


@exercises(3)
def test_3_build_cannot_be_written(tmp_path: Path) -> None:
    # (a file given as --out itself is a usage mistake, exit 2: see test_output_folder)
    out = tmp_path / "build"
    assert run_cli("schema", "--out", out).returncode == 0  # a folder Roadkit made ...
    shutil.rmtree(out / "schema")
    blocker = out / "schema"  # ... where a file now blocks the command's own folder
    blocker.write_text("a file where the command's folder should be", "utf-8")
    result = run_cli("schema", "--out", out)
    assert result.returncode == 3, result.stderr
    assert "build" in _one_line(result.stderr)
    assert blocker.read_text("utf-8") == "a file where the command's folder should be"


@exercises(3)
@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("command", [["validate"], ["simulate", "--games", "2", "--policy", "random"],
                                     ["schema"]])
def test_3_a_full_stdout_is_named_as_the_output_not_build(tmp_path: Path, command: list[str]) -> None:
    out = tmp_path / "build"
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "generators.cli", *command, "--game", GAME, "--out", str(out)],
                              cwd=ROOT, stdout=full, stderr=subprocess.PIPE, text=True, timeout=600)
    assert proc.returncode == 3, proc.stderr
    line = _one_line(proc.stderr)
    assert "standard output" in line and "No space left" in line and "build" not in line, line


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("stderr", ["closed", "full"])
@pytest.mark.parametrize(("command", "status"), [(["validate", "--games", "3"], 2), (["validate", "--game", "nope"], 2),
                                                 (["simulate", "--games", "2", "--policy", "random"], 0),
                                                 (["schema", "--out", "{out}"], 0)])
def test_a_lost_stderr_changes_neither_the_run_nor_its_exit_code(tmp_path: Path, stderr: str, command: list[str],
                                                                status: int) -> None:
    """What the command says on stderr (a mistake's line, progress) is lost when stderr is closed or
    full, and only that: a usage mistake is still exit 2, a simulation still prints its results."""
    args = [a.format(out=tmp_path / "build") for a in command]
    if "validate" not in args and "schema" not in args:
        args += ["--game", GAME]
    redirect = "2>&-" if stderr == "closed" else "2>/dev/full"
    proc = subprocess.run(["sh", "-c", f'exec "$0" -m generators.cli "$@" {redirect}', sys.executable, *args],
                          cwd=ROOT, capture_output=False, stdout=subprocess.PIPE, text=True, timeout=600)
    assert proc.returncode == status, (args, proc.returncode)
    if "simulate" in args:
        assert GAME in proc.stdout and "95 % interval" in proc.stdout, proc.stdout[-500:]


@exercises(141)
def test_141_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    """`roadkit play | head`: the reader had what it wanted (here: it ended at once); no message, no
    traceback, and a writer stopped so leaves build/ as it was."""
    pipe = subprocess.run(["bash", "-c", f'"$0" -m generators.cli play --game {GAME} --simulations 2 < /dev/null'
                           ' | true; echo "${PIPESTATUS[0]}"', sys.executable],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert pipe.stdout.strip() == "141" and pipe.stderr == "", (pipe.stdout, pipe.stderr[-800:])
    content = copy_content(tmp_path, (GAME,))
    out = tmp_path / "build"
    assert run_cli("print", "--game", GAME, "--content", content, "--out", out, "--paper", "a4").returncode == 0
    (content / GAME / "game.yaml").write_text((content / GAME / "game.yaml").read_text("utf-8") + "\n", "utf-8")
    before = fingerprint(out)
    build = subprocess.run(["bash", "-c", f'"$0" -m generators.cli print --game {GAME} --content {content} --out {out}'
                            ' --paper a4 --no-png | true; echo "${PIPESTATUS[0]}"',
                            sys.executable], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert build.stdout.strip() == "141" and "Traceback" not in build.stderr, (build.stdout, build.stderr[-800:])
    assert fingerprint(out) == before


@exercises(4)
def test_4_mkdocs_failed_and_the_previous_site_was_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    from generators.site import mkdocs_run

    content = copy_content(tmp_path, (GAME,))
    out = tmp_path / "build"
    (out / "site").mkdir(parents=True)
    (out / "site" / "index.html").write_text("<p>the previous site</p>", "utf-8")
    (out / MARKER).write_text("", "utf-8")  # as an earlier build left it
    before = fingerprint(out / "site")

    def failing(args: list[str], prog_name: str) -> None:  # MkDocs' command line, in the worker
        print("ERROR - the theme is broken")
        raise SystemExit(1)

    monkeypatch.setattr(mkdocs_run, "_mkdocs_main", lambda: failing)
    assert cli_main(["site", "--content", str(content), "--out", str(out), "--game", GAME]) == 4
    line = _one_line(capsys.readouterr().err)
    assert "MkDocs" in line and "the theme is broken" in line and "previous site was kept" in line
    assert fingerprint(out / "site") == before


@exercises(5)
@pytest.mark.parametrize("value", ["", "yesterday"])
def test_5_a_bad_source_date_epoch(tmp_path: Path, value: str) -> None:
    out = tmp_path / "build"
    result = run_cli("schema", "--out", out, env={"SOURCE_DATE_EPOCH": value})
    assert result.returncode == 5, result.stderr
    assert "SOURCE_DATE_EPOCH" in _one_line(result.stderr)
    assert not out.exists()


@exercises(5)
def test_5_a_bad_roadkit_simulate(tmp_path: Path) -> None:
    out = tmp_path / "build"
    result = run_cli("build", "--game", GAME, "--out", out, env={"ROADKIT_SIMULATE": "lots"})
    assert result.returncode == 5, result.stderr
    assert "ROADKIT_SIMULATE" in _one_line(result.stderr)
    assert not out.exists()


@exercises(70)
def test_70_an_internal_error_prints_its_traceback(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    import generators.validate

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug planted by the test")

    monkeypatch.setattr(generators.validate, "validate", broken)
    assert cli_main(["validate", "--game", GAME]) == 70
    err = capsys.readouterr().err
    assert "Traceback" in err and "a bug planted by the test" in err and "please report it" in err


@exercises(130)
@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc (Linux)")
def test_130_ctrl_c_stops_the_workers_and_leaves_build_whole(tmp_path: Path) -> None:
    # Every game's whole build: the rules check and the site run tens of seconds after the print's
    # workers start, so Ctrl-C lands mid-build even on a loaded machine. Ctrl-C as a terminal gives it:
    # a test runner's worker (pytest-xdist's) ignores SIGINT, and a child keeps an ignored signal
    # ignored, as it should (a job started in the background is not meant to see Ctrl-C).
    content = copy_content(tmp_path)
    out = tmp_path / "build"
    proc = start_cli("build", "--content", content, "--out", out, "-j", "2", "-q", interruptible=True)
    kids: set[int] = set()
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline and proc.poll() is None and len(kids) < 2:
        kids = {int(k) for t in Path(f"/proc/{proc.pid}/task").glob("*")
                for k in _read(t / "children").split()}
        time.sleep(0.05)
    assert proc.poll() is None, proc.communicate()
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert not [k for k in kids if Path(f"/proc/{k}").exists() and _state(k) not in ("Z", "X", "")]
    assert not [p for p in out.rglob("*.pdf") if not p.read_bytes().rstrip().endswith(b"%%EOF")]


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


def _state(pid: int) -> str:
    text = _read(Path(f"/proc/{pid}/stat"))
    return text.rsplit(")", 1)[1].split()[0] if ")" in text else ""


def test_every_documented_code_is_exercised() -> None:
    documented = _documented()
    assert {0, 2, 3}.issubset(documented)  # the table was found
    assert documented == EXERCISED, f"documented but untested: {documented - EXERCISED}; " \
                                    f"tested but undocumented: {EXERCISED - documented}"
