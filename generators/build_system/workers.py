"""The one worker pool: print, the rules check, simulations and the MkDocs runs all spread their work
over forked processes through `imap` here, and nowhere else.

Workers are forks of this process (what it loaded is shared; only the arguments and the results are
pickled), all forked by the calling thread and tied to this process: each asks Linux to kill it when
the build ends, even by `kill -9`, instead of finishing its item and meeting a closed pipe
(`generators.build_system.child_lifetime`). They leave Ctrl-C to the build, which kills them. A
worker killed from outside (the kernel's out-of-memory killer) stops the run with one line instead of
a hang. Where the platform cannot fork, the work runs in this process, one item after another, with the same results.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

from generators.build_system import child_lifetime
from generators.build_system.errors import EnvironmentFault, Exit

T = TypeVar("T")
R = TypeVar("R")

WORKER_NAME = "roadkit-worker"  # what `ps` and /proc/PID/comm show for a worker


class WorkerLost(EnvironmentFault):
    """A worker process ended without its result: killed from outside (out of memory, a signal)."""

    exit_code = Exit.CANNOT_WRITE


def available_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def can_fork() -> bool:
    return "fork" in multiprocessing.get_all_start_methods()


def _start(parent: int, name: str) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if not child_lifetime.tie(parent, name):
        os._exit(1)  # the build ended before this worker started


def _executor(jobs: int, name: str) -> ProcessPoolExecutor:
    # With fork, the executor forks all its workers at the first submit, in this thread: a worker's
    # death signal follows the thread that forked it, so no helper thread may be the one.
    return ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("fork"), initializer=_start,
                               initargs=(os.getpid(), name))


def _kill(executor: ProcessPoolExecutor) -> None:
    """Stop `executor` now: its workers killed mid-item, then reaped."""
    processes = getattr(executor, "_processes", None) or {}  # the executor offers no public kill
    for process in list(processes.values()):
        with contextlib.suppress(OSError, ValueError):
            process.kill()
    executor.shutdown(wait=True, cancel_futures=True)


def imap(fn: Callable[[T], R], items: Iterable[T], jobs: int, name: str = WORKER_NAME,
         fresh: bool = False) -> Iterator[R]:
    """`fn` of each item, in the items' order, on up to `jobs` workers. `fn` must be a module-level
    function and the items must pickle (an index into a module-level list is enough: workers are forks
    and see it). Without `fresh`, in this process when `jobs` < 2 or there is one item. `fresh`: each
    item in a new worker, however few (for a tool that changes its process: its folder, its output,
    state left behind, like MkDocs). Stopping early (an error, Ctrl-C, a generator closed) kills the
    workers."""
    todo = list(items)
    if not can_fork() or (not fresh and (jobs < 2 or len(todo) < 2)):
        for item in todo:
            yield fn(item)
        return
    jobs = max(1, min(jobs, len(todo)))
    try:
        if fresh:
            yield from _fresh(fn, todo, jobs, name)
        else:
            yield from _shared(fn, todo, jobs, name)
    except BrokenProcessPool:
        raise WorkerLost("a worker process was killed before it finished (out of memory?); "
                         "nothing was written from it") from None


def _shared(fn: Callable[[T], R], todo: list[T], jobs: int, name: str) -> Iterator[R]:
    executor = _executor(jobs, name)
    try:
        futures = [executor.submit(fn, item) for item in todo]
        for future in futures:
            yield future.result()
    except BaseException:
        _kill(executor)
        raise
    executor.shutdown(wait=True)


def _fresh(fn: Callable[[T], R], todo: list[T], jobs: int, name: str) -> Iterator[R]:
    """Each item on an executor of its own (one worker, one item), `jobs` at a time."""
    waiting = list(enumerate(todo))
    running: dict[Future[R], tuple[int, ProcessPoolExecutor]] = {}
    done: dict[int, R] = {}
    following = 0
    try:
        while waiting or running:
            while waiting and len(running) < jobs:
                index, item = waiting.pop(0)
                executor = _executor(1, name)
                running[executor.submit(fn, item)] = (index, executor)
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                index, executor = running.pop(future)
                executor.shutdown(wait=True)
                done[index] = future.result()
            while following in done:
                yield done.pop(following)
                following += 1
    finally:
        for _, executor in running.values():
            _kill(executor)
