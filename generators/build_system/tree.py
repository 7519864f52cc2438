"""Every path under a folder, linked folders included: what a key hashes must be what a load reads,
and the loader follows a symlinked game folder (or any linked folder inside one) where `Path.rglob`
does not, so an edit behind a link would otherwise never rebuild anything."""

from __future__ import annotations

from pathlib import Path


def walk(root: Path) -> list[Path]:
    """Every path under `root` (by the names they are reached by, sorted), descending into symlinked
    folders too; each real folder once, so a link to an ancestor ends instead of looping."""
    found: list[Path] = []
    seen: set[Path] = set()

    def visit(folder: Path) -> None:
        try:
            real = folder.resolve()
            entries = sorted(folder.iterdir())
        except (OSError, RuntimeError):  # unreadable, or a link loop resolve() gave up on
            return
        if real in seen:
            return
        seen.add(real)
        for path in entries:
            found.append(path)
            if path.is_dir():
                visit(path)

    visit(root)
    return sorted(found)


def files(root: Path) -> list[Path]:
    """Every file under `root` (see `walk`)."""
    return [p for p in walk(root) if p.is_file()]
