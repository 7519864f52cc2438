"""Progress of a long run (simulate, balance, head to head; local or on a cluster): games done of
the total, time elapsed and an estimate of what is left, on one line of a terminal. Nothing is
printed when the error stream is not a terminal (piped, redirected, under a test), so a `--json`
report or a log stays exactly as it was.

A command opens a `showing(...)` for its run; `run_parts` (simulate.py) reports every batch of games
as it comes back, so the games' own code knows nothing of it.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TextIO

REDRAW = 0.5  # seconds between two redraws of the line


class Progress:
    def __init__(self, label: str, total: int, stream: TextIO | None = None,
                 clock: Callable[[], float] = time.monotonic, force: bool = False) -> None:
        self.label, self.total, self.done = label, total, 0
        self.stream = stream if stream is not None else sys.stderr
        self.clock = clock
        self.started = clock()
        self.enabled = force or _is_terminal(self.stream)
        self._drawn = -REDRAW

    def grow(self, games: int) -> None:
        """More games than first planned (a `--precision` run plays on)."""
        self.total += games

    def add(self, games: int) -> None:
        self.done += games
        if self.enabled and (self.clock() - self._drawn >= REDRAW or self.done >= self.total):
            self._drawn = self.clock()
            self.stream.write("\r" + self.line() + "\x1b[K")
            self.stream.flush()

    def line(self) -> str:
        """"mission-drive: 120 of 1200 games, 0:35 elapsed, about 5:15 left"."""
        elapsed = self.clock() - self.started
        text = f"{self.label}: {self.done} of {self.total} games, {_clock(elapsed)} elapsed"
        if 0 < self.done < self.total:
            text += f", about {_clock(elapsed * (self.total - self.done) / self.done)} left"
        return text

    def close(self) -> None:
        if self.enabled and self.done:
            self.stream.write("\r\x1b[K")  # the line goes: what follows is the report
            self.stream.flush()


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _clock(seconds: float) -> str:
    s = int(seconds + 0.5)
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


_current: list[Progress] = []


@contextmanager
def showing(label: str, total: int, stream: TextIO | None = None) -> Iterator[Progress]:
    """The progress of a run, which `advance` moves while it lasts."""
    p = Progress(label, total, stream)
    _current.append(p)
    try:
        yield p
    finally:
        _current.remove(p)
        p.close()


def advance(games: int) -> None:
    """`games` more played, for the run being shown (none: nothing)."""
    if _current:
        _current[-1].add(games)


def grow(games: int) -> None:
    if _current:
        _current[-1].grow(games)
