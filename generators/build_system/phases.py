"""Wall and CPU seconds per phase of a run (validate, print, check, site, ...), for `make bench`.

When ROADKIT_PHASES names a file, the CLI writes {phase: {"wall": s, "cpu": s}} there at exit. CPU
counts this process and its finished children (forked workers, MkDocs), so parallel work is counted."""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path

ENV = "ROADKIT_PHASES"
_TIMES: dict[str, dict[str, float]] = {}


def _cpu() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


@contextlib.contextmanager
def phase(name: str) -> Iterator[None]:
    wall, cpu = time.perf_counter(), _cpu()
    try:
        yield
    finally:
        times = _TIMES.setdefault(name, {"wall": 0.0, "cpu": 0.0})
        times["wall"] += time.perf_counter() - wall
        times["cpu"] += _cpu() - cpu


def write() -> None:
    """Write the phases to the file ROADKIT_PHASES names, if it names one; a file that cannot be
    written is said on one line (the run's own outcome and exit code stand)."""
    path = os.environ.get(ENV)
    if path:
        try:
            Path(path).write_text(json.dumps({k: {m: round(v, 4) for m, v in t.items()} for k, t in _TIMES.items()}))
        except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
            print(f"roadkit: cannot write the phase timings to {ENV}={path[:200]!r}: "
                  f"{getattr(exc, 'strerror', None) or exc}", file=sys.stderr)
