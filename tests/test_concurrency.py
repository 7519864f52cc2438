"""One build at a time, and kills: two `roadkit build` at once leave a complete site; a second run
waits for the first; a `kill -9` mid-build leaves no half-written file and no MkDocs process, and
the next build finishes the job (its result byte-identical to an uninterrupted build)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest
from PIL import Image

from generators.build_system.build_graph import TMP_SUFFIX, build_lock
from tests.helpers import alive, child_named, fingerprint, run_cli, start_cli

ARGS = ("build", "--game", "mission-drive", "--paper", "a4", "-q")


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """What an uninterrupted build of the same content makes."""
    out = tmp_path_factory.mktemp("reference") / "build"
    result = run_cli(*ARGS, "--out", out)
    assert result.returncode == 0, result.stderr
    return fingerprint(out)


def _temporaries(out: Path) -> list[Path]:
    """Marked temporaries under `out`. A running build removes folders while this walks them, so a
    folder that vanishes mid-walk is skipped (os.walk ignores such errors; Path.rglob raises)."""
    found: list[Path] = []
    for folder, dirs, files in os.walk(out):
        found += [Path(folder, name) for name in dirs + files if name.endswith(TMP_SUFFIX)]
    return found


def _assert_whole(out: Path) -> None:
    """Every file that is not a (hidden, marked) temporary one is complete."""
    for path in out.rglob("*"):
        if not path.is_file() or any(part.endswith(TMP_SUFFIX) for part in path.relative_to(out).parts):
            continue
        data = path.read_bytes()
        if path.suffix == ".pdf":
            assert data.startswith(b"%PDF") and data.rstrip().endswith(b"%%EOF"), path
        elif path.suffix == ".png":
            with Image.open(path) as img:
                img.verify()
        elif path.suffix == ".json":
            json.loads(data)
        elif path.suffix == ".svg":
            assert data.rstrip().endswith(b"</svg>"), path
        elif path.suffix == ".html":
            assert b"</html>" in data, path


def test_two_concurrent_builds_leave_a_complete_site(tmp_path: Path, reference: dict[str, str]) -> None:
    out = tmp_path / "build"
    procs = [start_cli(*ARGS, "--out", out) for _ in range(2)]
    results = [(p, *p.communicate(timeout=600)) for p in procs]
    for proc, _, err in results:
        assert proc.returncode == 0, err
    assert (out / "site" / "index.html").is_file() and (out / "site" / "search" / "search_index.js").is_file()
    assert not _temporaries(out)
    assert fingerprint(out) == reference


def test_a_second_run_waits_for_the_first(tmp_path: Path) -> None:
    out = tmp_path / "build"
    out.mkdir()
    with build_lock(out, lambda _: None):
        proc = start_cli("schema", "--out", out)
        assert proc.stderr is not None
        said: list[str] = []
        reader = threading.Thread(target=lambda: said.extend(proc.stderr), daemon=True)  # type: ignore[arg-type]
        reader.start()
        deadline = time.monotonic() + 300
        while not any("waiting for it to finish" in line for line in said):
            assert proc.poll() is None, f"the second run did not wait: {said}"
            assert time.monotonic() < deadline, "the second run never said it was waiting"
            time.sleep(0.1)
        time.sleep(1)
        assert proc.poll() is None and not (out / "schema").exists(), "it went on while build/ was held"
    proc.wait(timeout=300)
    reader.join(timeout=10)
    assert proc.returncode == 0, said
    assert (out / "schema" / "component.schema.json").is_file()



def _mkdocs_child(pid: int) -> int | None:
    """A MkDocs worker: a fork of the build that names itself (its command line is the build's)."""
    return child_named(pid, b"mkdocs")



def _wait_for(moment: str, proc: subprocess.Popen[str], out: Path) -> int | None:
    """Block until the build is in the middle of `moment`; the MkDocs child's pid for "site"."""
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        assert proc.poll() is None, f"the build ended before the {moment} step: {proc.communicate()}"
        # PNGs being written: the run's staging copy of build/ has its png folder (a single PNG's
        # temporary lives a few milliseconds, too short to catch reliably)
        if moment == "print" and any((p / "png").is_dir() for p in _temporaries(out)):
            return None
        if moment == "site":
            kid = _mkdocs_child(proc.pid)
            if kid is not None:
                return kid
        time.sleep(0.05)
    raise AssertionError(f"never reached the {moment} step")


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux /proc to find child processes")
@pytest.mark.parametrize("moment", ["print", "site"])
def test_kill_9_mid_build(tmp_path: Path, reference: dict[str, str], moment: str) -> None:
    out = tmp_path / "build"
    proc = start_cli(*ARGS, "--out", out)
    kid = _wait_for(moment, proc, out)
    os.kill(proc.pid, signal.SIGKILL)
    proc.communicate(timeout=60)
    if kid is not None:
        deadline = time.monotonic() + 10
        while alive(kid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not alive(kid), "MkDocs went on running after its parent was killed"
    _assert_whole(out)
    again = run_cli(*ARGS, "--out", out)
    assert again.returncode == 0, again.stderr
    assert not _temporaries(out), "the next build did not clear what the killed one left"
    assert fingerprint(out) == reference
