"""The command's own output (stdout, stderr), told apart from build/: a write there that fails is the
terminal's or the pipe's fault, never the output folder's. A pipe its reader closed (`roadkit play |
head`) ends the command quietly; any other failure (a full disk behind `> file`, a terminal that went
away) is one line on stderr naming the output, exit 3. A write to stderr that fails is lost, and only
that: stderr carries what the command says about its run (progress, a mistake's line), so losing it
must not change the run's outcome or its exit code (a usage mistake stays exit 2; a simulation whose
progress cannot be shown still prints its results)."""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from typing import Any, TextIO

from generators.build_system.errors import Exit

CLOSED_PIPE = Exit.PIPE_CLOSED
NAMES = {"stdout": "standard output", "stderr": "standard error"}


class OutputLost(Exception):
    """A write to stdout or stderr failed. Not an OSError, so nothing that handles file faults (and
    blames build/) takes it for one."""

    def __init__(self, stream: str, error: OSError):
        super().__init__(f"cannot write to {NAMES[stream]}: {error.strerror or error}")
        self.stream = stream
        self.errno = error.errno


class Guarded:
    """A text stream whose failed writes raise OutputLost; everything else is the stream's own."""

    def __init__(self, stream: TextIO | None, name: str):
        self._stream = stream  # None: the command was started with the stream closed (`>&-`)
        self._name = name
        self._gone = False

    def write(self, text: str) -> int:
        try:
            return self._open().write(text)
        except OSError as exc:
            self._lost(exc)
            return len(text)

    def flush(self) -> None:
        try:
            self._open().flush()
        except OSError as exc:
            self._lost(exc)

    def _lost(self, exc: OSError) -> None:
        if self._name == "stdout":
            raise OutputLost(self._name, exc) from None
        # stderr: what could not be said is dropped, and so is every later write (none retries a
        # buffer that cannot drain)
        self._gone = True

    def _open(self) -> TextIO:
        if self._gone or self._stream is None or self._stream.closed:
            raise OSError(errno.EBADF, "it was closed")
        return self._stream

    def __getattr__(self, attr: str) -> Any:
        return getattr(self._stream, attr)


@contextlib.contextmanager
def guarded() -> Any:
    """sys.stdout and sys.stderr guarded for the length of the block (and flushed at its end, so a
    failure shows while it can still be reported, not in the interpreter's last flush)."""
    saved = sys.stdout, sys.stderr
    sys.stdout = Guarded(saved[0], "stdout")
    sys.stderr = Guarded(saved[1], "stderr")
    try:
        yield
        sys.stdout.flush()
    finally:
        sys.stdout, sys.stderr = saved


def lost(exc: OutputLost) -> int:
    """Report `exc` where that is still possible; the exit code. The failed stream is pointed at
    /dev/null, so the interpreter's own last flush has nothing left to fail on."""
    stream = sys.stdout if exc.stream == "stdout" else sys.stderr
    with contextlib.suppress(OSError, ValueError, AttributeError):  # no stream, or one without a file
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
        os.close(devnull)
    if exc.errno == errno.EPIPE:
        return CLOSED_PIPE  # its reader had what it wanted: nothing to say
    if exc.stream == "stdout":
        with contextlib.suppress(OSError, ValueError, AttributeError):
            print(f"roadkit: {exc}", file=sys.stderr, flush=True)
    return Exit.CANNOT_WRITE
