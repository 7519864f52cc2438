"""Run a command that ends when the process that started it ends, even by `kill -9`.

`python -m generators.build_system.child_lifetime PARENT_PID PROGRAM ARGS...` asks Linux to send it SIGKILL when its
parent dies (PR_SET_PDEATHSIG, kept across exec), checks the parent is still the one that started
it, and becomes PROGRAM: `mkdocs serve` runs like this, and MkDocs where there is no fork. Every
worker of the one pool (`generators.build_system.workers`) ties itself the same way with `tie`, so a killed build
leaves no process writing into build/. Elsewhere than Linux it simply runs PROGRAM.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys

_PR_SET_PDEATHSIG = 1
_PR_SET_NAME = 15  # the name `ps` and /proc/PID/comm show (15 bytes at most)


def command(program: list[str]) -> list[str]:
    """`program` wrapped so that it dies with this process."""
    return [sys.executable, "-m", "generators.build_system.child_lifetime", str(os.getpid()), *program]


def tie(parent: int, name: str | None = None) -> bool:
    """Make this process die with `parent` (and show as `name`); False if `parent` has ended already
    (before the request took effect)."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(AttributeError, OSError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
            if name:
                libc.prctl(_PR_SET_NAME, name.encode()[:15])
    return os.getppid() == parent


def main(argv: list[str]) -> int:
    parent, program = int(argv[0]), argv[1:]
    if not tie(parent):
        return 1
    os.execv(program[0], program)
    return 1  # not reached


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
