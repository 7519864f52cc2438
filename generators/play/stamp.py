"""What a cluster worker must share with the client that sends it games: the code that plays them.

A Dask worker runs whatever checkout it was started from. One running other rules or players than
the client would play other games from the same seeds, and a `--write` would store its figures under
the client's version. So every batch sent to a cluster carries the client's stamp, a digest of the
code the games run (the play modules, what they import, and every engine package, loaded by name),
and a worker whose own stamp differs refuses the batch with a message that says what to do. The
content travels inside the batch, so a worker always plays the client's cards.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any, Generic, TypeVar

from generators.build_system.code_layers import PACKAGE, label, module_files

P = TypeVar("P")
R = TypeVar("R")
ROOTS = ("generators.play.balance", "generators.play.versus", "generators.play.simulate",
         "generators.play.variants")


class OtherCode(RuntimeError):
    """A worker was sent games by a client running other code."""


@cache
def code_stamp() -> str:
    """A digest of the code that plays whole games, as this process has it on disk."""
    files = set(module_files(ROOTS, PACKAGE))
    files |= {p for p in (PACKAGE / "games").rglob("*") if p.is_file() and "__pycache__" not in p.parts}
    h = hashlib.sha256()
    for p in sorted(files):
        h.update(label(p).encode() + b"\0" + hashlib.sha256(p.read_bytes()).digest())
    return h.hexdigest()[:16]


@dataclass(frozen=True)
class Stamped(Generic[P, R]):
    """A batch for a cluster worker, with the code stamp of the client that sent it."""

    fn: Callable[[P], R]
    part: P
    stamp: str


def run_stamped(item: Stamped[Any, Any]) -> Any:
    """On the worker: the batch's games, if this worker runs the client's code; else refused."""
    mine = code_stamp()
    if item.stamp != mine:
        raise OtherCode(f"a cluster worker runs other Roadkit code (its games' code {mine}, the client's "
                        f"{item.stamp}), so it would play other games from the same seeds; start the workers "
                        "from the client's checkout (same commit, same edits) and try again")
    return item.fn(item.part)
