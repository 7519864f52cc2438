"""The staging docs folder (build/docs/): what MkDocs reads.

Pages and copied files are collected first, then synced: a file is written only when its bytes
change and files nobody produced any more are removed, so MkDocs (and `mkdocs serve`'s watcher) see
exactly the edits a content change caused.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from generators.build_system.build_graph import write_atomic


@dataclass
class SyncReport:
    written: list[str] = field(default_factory=list)
    kept: int = 0
    removed: list[str] = field(default_factory=list)


@dataclass
class Stage:
    """Files to appear under the docs folder: generated text or copies of existing files."""

    texts: dict[str, bytes] = field(default_factory=dict)
    copies: dict[str, Path] = field(default_factory=dict)

    def text(self, rel: str, content: str) -> None:
        self._claim(rel)
        self.texts[rel] = content.encode("utf-8")

    def copy(self, rel: str, source: Path) -> None:
        self._claim(rel)
        self.copies[rel] = source

    def _claim(self, rel: str) -> None:
        if rel in self.texts or rel in self.copies:
            raise ValueError(f"two site files want the path {rel}")

    def has(self, rel: str) -> bool:
        return rel in self.texts or rel in self.copies

    def sync(self, docs: Path, link: bool = False) -> SyncReport:
        """Make `docs` hold exactly these files. `link`: a copy that `docs` lacks is a hard link to its
        source where the file system allows (for a throwaway folder only MkDocs reads)."""
        report = SyncReport()
        wanted = set(self.texts) | set(self.copies)
        for rel in sorted(wanted):
            dest = docs / rel
            data = self.texts.get(rel)
            if data is None and _same_file(self.copies[rel], dest):
                report.kept += 1
                continue
            if data is None and link and _linked(self.copies[rel], dest):
                report.written.append(rel)
                continue
            if data is None:
                data = self.copies[rel].read_bytes()
            if dest.is_file() and dest.stat().st_size == len(data) and dest.read_bytes() == data:
                report.kept += 1
                continue
            write_atomic(dest, data)
            report.written.append(rel)
        if docs.is_dir():
            for path in sorted(docs.rglob("*"), reverse=True):
                rel = path.relative_to(docs).as_posix()
                if path.is_file() and rel not in wanted:
                    path.unlink()
                    report.removed.append(rel)
                elif path.is_dir() and not any(path.iterdir()):
                    path.rmdir()
        return report


def _linked(source: Path, dest: Path) -> bool:
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
        os.link(source, dest)
    except OSError:  # another file system, links not allowed, `dest` there already: copy it
        return False
    return True


def _same_file(source: Path, dest: Path) -> bool:
    """Copies are compared by size first; equal sizes are compared byte for byte."""
    try:
        if source.stat().st_size != dest.stat().st_size:
            return False
    except OSError:
        return False
    return source.read_bytes() == dest.read_bytes()
