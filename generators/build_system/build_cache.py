"""What a writing command may reuse from its last run, kept in build/.cache/: the loaded content model
(keyed by every byte under the content folder) and which sides' text is known to fit (generators/pdf/fit.py).

Only commands that write to build/ use it (the CLI sets the folder for one command with `caching`).
Entries are read freely; new ones are staged and written by `save`, which the CLI calls only once the
validation pass succeeded and build/ is held, so a failed run writes nothing and a mistake is never
remembered. A missing, stale or unreadable entry just means doing the work again."""

from __future__ import annotations

import contextlib
import shutil
from collections.abc import Iterator
from pathlib import Path

from generators.build_system.build_graph import write_if_changed

_FOLDER: Path | None = None
_PENDING: dict[str, bytes | None] = {}  # None: the entry is to go
# Entries earlier versions kept that nothing reads any more: the one model of all games, and what
# Zensical wrote here while `roadkit site --engine zensical` ran it in build/ (its cache files, each
# named by a number, and its index files; 15 MB a build). Zensical now runs in its own staging folder.
_RETIRED = ("content.pickle", ".gitignore", "mkdocstrings.json", "objects.inv")


def _retired(name: str) -> bool:
    return name in _RETIRED or name.isdigit()
_RUN = [0]  # counts `caching` calls: what was read in an earlier command is read again


@contextlib.contextmanager
def caching(folder: Path | None) -> Iterator[None]:
    """Use `folder` (None: remember nothing) for the duration of one command."""
    global _FOLDER
    _FOLDER = folder
    _PENDING.clear()
    _RUN[0] += 1
    try:
        yield
    finally:
        _FOLDER = None
        _PENDING.clear()


def run() -> int:
    """Which command this is (a number): anything read from the cache in another one is stale."""
    return _RUN[0]


def active() -> bool:
    return _FOLDER is not None


def read(name: str) -> bytes | None:
    if _FOLDER is None:
        return None
    try:
        return (_FOLDER / name).read_bytes()
    except OSError:
        return None


def stage(name: str, data: bytes) -> None:
    """`data` becomes entry `name` when `save` is called (the latest staged wins)."""
    if _FOLDER is not None:
        _PENDING[name] = data


def keep_only(prefix: str, names: set[str]) -> None:
    """Entries starting with `prefix` other than `names` go when `save` is called (a game's entry once
    the game is gone, say), along with retired ones."""
    if _FOLDER is None:
        return
    with contextlib.suppress(OSError):
        for path in _FOLDER.iterdir():
            if path.name in _PENDING:
                continue
            if (path.name.startswith(prefix) and path.name not in names) or _retired(path.name):
                _PENDING[path.name] = None


def save() -> None:
    """Write the staged entries and remove the ones to go; one that cannot be written is just not remembered."""

    if _FOLDER is None:
        return
    for name, data in sorted(_PENDING.items()):
        with contextlib.suppress(OSError):
            if data is None and (_FOLDER / name).is_dir():
                shutil.rmtree(_FOLDER / name)
            elif data is None:
                (_FOLDER / name).unlink(missing_ok=True)
            else:
                write_if_changed(_FOLDER / name, data)
    _PENDING.clear()
