"""One copy of the theme's assets for the whole site.

MkDocs writes the theme's stylesheets, scripts and search worker (and our hand-written assets/)
into every project it builds, so each game's folder carried its own 2.6 MB copy and a reader moving
from one game to another downloaded them all again. Once a game's project is built, every file of
its assets/ that the hub's assets/ holds byte for byte is removed, and its pages (attributes and
Material's `__config`, both written as quoted relative paths) point at the hub's copy: one level
further up. What differs per project (its `roadkit-games.js`) stays in the project.
"""

from __future__ import annotations

import filecmp
import re
from pathlib import Path

ASSETS = "assets"


def share_assets(project: Path, hub: Path) -> int:
    """Point `project`'s pages at the files of its assets/ that `hub`/assets/ holds alike and remove
    its copies; the number of files removed."""
    own, theirs = project / ASSETS, hub / ASSETS
    if not own.is_dir() or not theirs.is_dir():
        return 0
    shared = {f.relative_to(own).as_posix() for f in own.rglob("*")
              if f.is_file() and (theirs / f.relative_to(own)).is_file()
              and filecmp.cmp(f, theirs / f.relative_to(own), shallow=False)}
    if not shared:
        return 0
    for page in project.rglob("*.html"):
        text = page.read_text("utf-8")
        new = _pointed_up(text, "../" * (len(page.relative_to(project).parts) - 1), shared)
        if new != text:
            page.write_text(new, "utf-8")
    for rel in shared:
        (own / rel).unlink()
    for folder in sorted((d for d in own.rglob("*") if d.is_dir()), key=lambda d: -len(d.parts)):
        if not any(folder.iterdir()):
            folder.rmdir()
    return len(shared)


def _pointed_up(text: str, up: str, shared: set[str]) -> str:
    """`text` of a page `up` below its project's top, its quoted links to a shared asset one level
    further up (to the hub's copy)."""

    def fix(m: re.Match[str]) -> str:
        return f'"../{up}{ASSETS}/{m[1]}' if m[1] in shared else m[0]

    return re.sub('"' + re.escape(up + ASSETS + "/") + r'([^"?#]+)', fix, text)
