"""Every link of the assembled site leads somewhere.

MkDocs checks links inside one project; the site is several (generators/site/projects.py), so the
build checks the assembled HTML itself: each relative `href`/`src` must name a file of the site,
and an anchor on another page must exist there. It replaces MkDocs' --strict link check, which
cannot see across projects.
"""

from __future__ import annotations

import html
import posixpath
import re
from pathlib import Path
from urllib.parse import unquote

_REF = re.compile(r"""\b(?:href|src)\s*=\s*"([^"]*)\"""")
_ID = re.compile(r"""\bid\s*=\s*"([^"]*)\"""")
_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def broken_links(site: Path, pages: list[Path] | None = None) -> list[str]:
    """`page: link` for each link of `pages` (default: every HTML page) that leads nowhere."""
    files = _Files(site)
    problems = []
    for page in pages if pages is not None else sorted(site.rglob("*.html")):
        rel = page.relative_to(site).as_posix()
        folder = posixpath.dirname(rel)
        for raw in set(_REF.findall(page.read_text("utf-8", errors="replace"))):
            target = html.unescape(raw)
            if not target or target.startswith(("#", "/")) or _SCHEME.match(target):
                continue
            path, _, anchor = target.partition("#")
            resolved = posixpath.normpath(posixpath.join(folder, unquote(path.partition("?")[0])))
            found = files.find(resolved)
            if found is None:
                problems.append(f"{rel}: {target}")
            elif anchor and found.endswith(".html") and found != rel and anchor not in files.ids(found):
                problems.append(f"{rel}: {target} (no such anchor)")
    return sorted(problems)


class _Files:
    """What the site holds, each path looked up once."""

    def __init__(self, site: Path):
        self.site = site
        self.found: dict[str, str | None] = {}
        self.anchors: dict[str, frozenset[str]] = {}

    def find(self, path: str) -> str | None:
        """The file a site path names (a folder's index.html), or None."""
        if path not in self.found:
            file = self.site / path
            if path.startswith("../") or path == "..":
                self.found[path] = None
            elif file.is_file():
                self.found[path] = path
            elif (file / "index.html").is_file():
                self.found[path] = posixpath.join(path, "index.html")
            else:
                self.found[path] = None
        return self.found[path]

    def ids(self, path: str) -> frozenset[str]:
        if path not in self.anchors:
            text = (self.site / path).read_text("utf-8", errors="replace")
            self.anchors[path] = frozenset(html.unescape(i) for i in _ID.findall(text))
        return self.anchors[path]
