"""Run a command that ends when the process that started it ends, even by `kill -9`.

`python -m generators.tether PARENT_PID PROGRAM ARGS...` asks Linux to send it SIGKILL when its
parent dies (PR_SET_PDEATHSIG, kept across exec), checks the parent is still the one that started
it, and becomes PROGRAM. Roadkit starts MkDocs through it, so a killed build leaves no MkDocs
process writing into build/. Elsewhere it simply runs PROGRAM.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys

_PR_SET_PDEATHSIG = 1


def command(program: list[str]) -> list[str]:
    """`program` wrapped so that it dies with this process."""
    return [sys.executable, "-m", "generators.tether", str(os.getpid()), *program]


def main(argv: list[str]) -> int:
    parent, program = int(argv[0]), argv[1:]
    if sys.platform.startswith("linux"):
        with contextlib.suppress(AttributeError, OSError):
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the parent died before the request took effect
        return 1
    os.execv(program[0], program)
    return 1  # not reached


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
