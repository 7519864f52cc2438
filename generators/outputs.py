"""Writing outputs: atomically, and only when their inputs changed.

Every output is a Target: a path, a key (a hash of everything it is made from, code included)
and a function that makes its bytes. A manifest in build/ remembers the key each file was made
with, so a rebuild makes only what a change touched, and a failed build leaves the previous
files as they were."""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import tempfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

PACKAGE = Path(__file__).parent


def _file_mode() -> int:
    """The mode a plainly created file would get (mkstemp's are private, 0600)."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


FILE_MODE = _file_mode()


def write_atomic(path: Path, data: bytes) -> None:
    """Write to a temporary file beside `path`, then rename over it: readers never see half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, FILE_MODE)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_if_changed(path: Path, data: bytes) -> bool:
    """Write only when the bytes differ, so an unchanged output keeps its time stamp."""
    try:
        if path.read_bytes() == data:
            return False
    except OSError:
        pass
    write_atomic(path, data)
    return True


def digest(*parts: object) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(part if isinstance(part, bytes) else repr(part).encode())
        h.update(b"\0")
    return h.hexdigest()


@cache
def code_version(subpackage: str = "") -> str:
    """A hash of the generator code (and fonts) that makes an output, so code changes rebuild."""
    root = PACKAGE / subpackage if subpackage else PACKAGE
    files = sorted(p for p in root.rglob("*") if p.is_file() and p.suffix in (".py", ".ttf", ".j2", ".md", ".css"))
    return digest(*[(str(p.relative_to(PACKAGE)), p.read_bytes()) for p in files])


@dataclass(frozen=True)
class Target:
    path: Path
    key: str
    make: Callable[[], bytes]


@dataclass
class Manifest:
    """Which key each output was last made with; kept at build/.manifest.json."""

    path: Path
    keys: dict[str, str]

    @classmethod
    def load(cls, build_dir: Path) -> Manifest:
        path = build_dir / ".manifest.json"
        try:
            keys = json.loads(path.read_text("utf-8"))
        except (OSError, ValueError):
            keys = {}
        return cls(path, keys if isinstance(keys, dict) else {})

    def fresh(self, target: Target) -> bool:
        return self.keys.get(str(target.path)) == target.key and target.path.exists()

    def save(self) -> None:
        write_if_changed(self.path, json.dumps(self.keys, indent=1, sort_keys=True).encode())


@dataclass
class Report:
    made: list[Path]
    kept: list[Path]
    removed: list[Path]


def realize(targets: Iterable[Target], manifest: Manifest, owned: Iterable[str] = (),
            on_make: Callable[[Target], None] | None = None, jobs: int | None = None) -> Report:
    """Make every stale target; remove files this manifest made whose path starts with one of
    `owned` but that no target claims any more (a deleted component's PDF, say)."""
    report = Report([], [], [])
    claimed: set[str] = set()
    stale: list[Target] = []
    for t in targets:
        claimed.add(str(t.path))
        if manifest.fresh(t):
            report.kept.append(t.path)
        else:
            stale.append(t)
    for t, data in _make_all(stale, on_make, jobs or available_cores()):
        write_atomic(t.path, data)
        manifest.keys[str(t.path)] = t.key
        report.made.append(t.path)
    prefixes = tuple(owned)
    if prefixes:
        for old in sorted(k for k in manifest.keys if k.startswith(prefixes) and k not in claimed):
            Path(old).unlink(missing_ok=True)
            del manifest.keys[old]
            report.removed.append(Path(old))
    manifest.save()
    return report


_PENDING: list[Target] = []  # what forked workers make, by index (closures do not pickle; fork copies)


def _make_index(i: int) -> bytes:
    return _PENDING[i].make()


def available_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _make_all(stale: list[Target], on_make: Callable[[Target], None] | None,
              jobs: int) -> Iterator[tuple[Target, bytes]]:
    """Each stale target with its bytes, in order; made on every core where the platform can fork.
    Workers only compute bytes: this process alone writes files and the manifest."""
    global _PENDING
    jobs = min(jobs, len(stale))
    if jobs < 2 or "fork" not in multiprocessing.get_all_start_methods():
        for t in stale:
            if on_make:
                on_make(t)
            yield t, t.make()
        return
    _PENDING = stale
    try:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            for t, data in zip(stale, pool.imap(_make_index, range(len(stale))), strict=True):
                if on_make:
                    on_make(t)
                yield t, data
    finally:
        _PENDING = []
