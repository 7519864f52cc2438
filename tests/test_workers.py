"""The one worker pool (generators/build_system/workers.py): the only module that starts worker processes; its
workers, shared or fresh per item, end with their parent even by `kill -9` (no orphan, no traceback);
results come in order; an error or a worker killed from outside stops the run instead of hanging it."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from generators.build_system import workers
from tests.helpers import alive, child_pids, copy_content, process_name, start_cli

ROOT = Path(__file__).resolve().parent.parent
LINUX_PROC = pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc (Linux)")


def test_no_other_module_starts_workers() -> None:
    """Print, check, simulations and MkDocs share the pool: no second mechanism anywhere else."""
    starts = re.compile(r"\bos\.fork\b|\bmultiprocessing\b|ProcessPoolExecutor|\bPool\(|os\.posix_spawn|"
                        r"\bselectors\b")
    offenders = [str(p.relative_to(ROOT)) for p in sorted((ROOT / "generators").rglob("*.py"))
                 if p.name != "workers.py" and starts.search(p.read_text("utf-8"))]
    assert offenders == []


def _square(n: int) -> int:
    return n * n


def _fail_on_three(n: int) -> int:
    if n == 3:
        raise ValueError("three")
    time.sleep(0.05)
    return n


def _die_on_two(n: int) -> int:
    if n == 2:
        os.kill(os.getpid(), signal.SIGKILL)
    return n


@pytest.mark.parametrize("fresh", [False, True])
def test_results_come_in_order(fresh: bool) -> None:
    items = list(range(12))
    assert list(workers.imap(_square, items, 3, fresh=fresh)) == [n * n for n in items]


@pytest.mark.parametrize("fresh", [False, True])
def test_an_error_in_a_worker_reaches_the_caller(fresh: bool) -> None:
    with pytest.raises(ValueError, match="three"):
        list(workers.imap(_fail_on_three, range(8), 2, fresh=fresh))


@pytest.mark.skipif(not workers.can_fork(), reason="needs fork")
@pytest.mark.parametrize("fresh", [False, True])
def test_a_worker_killed_from_outside_is_one_fault_not_a_hang(fresh: bool) -> None:
    with pytest.raises(workers.WorkerLost) as caught:
        list(workers.imap(_die_on_two, range(6), 2, fresh=fresh))
    assert caught.value.exit_code == 3 and "\n" not in str(caught.value)


# --- kill -9 ------------------------------------------------------------------------------------------

_PARENT = """
import sys, time
from generators.build_system import workers

def slow(n):
    time.sleep(30)
    return n

print("started", flush=True)
for _ in workers.imap(slow, range(8), 2, fresh={fresh}):
    pass
"""





def _kill_and_watch(proc: subprocess.Popen[str], want: int, names: tuple[str, ...]) -> str:
    """Wait for `want` live children named one of `names`, kill -9 the parent; assert they all end
    within 2 s; return the parent's stderr."""
    kids: set[int] = set()
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline and proc.poll() is None:
        kids = {k for k in child_pids(proc.pid) if process_name(k) in names}
        if len(kids) >= want:
            break
        time.sleep(0.05)
    if proc.poll() is not None or len(kids) < want:
        proc.kill()
        _, err = proc.communicate()
        pytest.fail(f"never saw {want} workers: {err[-2000:]}")
    time.sleep(0.3)  # mid-item
    os.kill(proc.pid, signal.SIGKILL)
    killed = time.monotonic()
    while time.monotonic() < killed + 2 and any(alive(k) for k in kids):
        time.sleep(0.05)
    assert not any(alive(k) for k in kids), f"a worker outlived its parent by {time.monotonic() - killed:.1f} s"
    _, err = proc.communicate(timeout=60)  # every holder of the pipe (the workers too) has closed it
    assert proc.returncode == -signal.SIGKILL
    return err


@LINUX_PROC
@pytest.mark.parametrize("fresh", [False, True])
def test_kill_9_leaves_no_worker_of_the_pool(fresh: bool) -> None:
    code = textwrap.dedent(_PARENT.format(fresh=fresh))
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    err = _kill_and_watch(proc, 2, (workers.WORKER_NAME,))
    assert "Traceback" not in err and "BrokenPipe" not in err, err


@LINUX_PROC
def test_kill_9_during_simulate_leaves_no_worker(tmp_path: Path) -> None:
    content = copy_content(tmp_path, ("mission-drive",))
    proc = start_cli("simulate", "--content", content, "--game", "mission-drive", "--games", "4000", "-j", "2")
    err = _kill_and_watch(proc, 2, (workers.WORKER_NAME,))
    assert "Traceback" not in err and "BrokenPipe" not in err, err


@LINUX_PROC
def test_kill_9_during_the_site_leaves_no_mkdocs_worker(tmp_path: Path) -> None:
    from generators.site.mkdocs_run import WORKER_NAME as MKDOCS

    content = copy_content(tmp_path, ("mission-drive",))
    proc = start_cli("site", "--content", content, "--out", tmp_path / "build", "-q")
    err = _kill_and_watch(proc, 1, (MKDOCS,))
    assert "Traceback" not in err and "BrokenPipe" not in err, err
