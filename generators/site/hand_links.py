"""The relative links and images of the hand-written pages (site/*.md) lead somewhere: a target the
site does not hold is a content mistake at its `file:line:column` (exit 2), not a failed build.

Judged on what Python-Markdown makes of the page (generators/site/safe_links.py: reference
definitions, angle brackets, character references and titles resolved as the site resolves them),
against a set of docs paths: in `roadkit validate`, site/'s own files and the pages the site makes
by name (home, the guide's generated pages; a game's folder is taken on trust, its pages being
known only once rendered); in the site build, the assembled site itself, where every page is.
"""

from __future__ import annotations

import html
import posixpath
from collections.abc import Callable
from pathlib import Path
from urllib.parse import unquote

from generators.build_system.errors import ContentError
from generators.content.yaml_io import display_path
from generators.site.collect import hand_written
from generators.site.safe_links import Judge, forbidden, locate, relative

Exists = Callable[[str], bool]  # whether the site holds a docs path (`guide/site.md`, `assets/x.png`)


def dead_links(page: str, exists: Exists) -> Judge:
    """Why a relative link on the docs page `page` leads nowhere (None: it leads somewhere, or is not
    relative: schemes are `forbidden`'s to judge)."""
    folder = posixpath.dirname(page)

    def judge(url: str) -> str | None:
        if forbidden(url) is not None or not relative(url):
            return None
        target = html.unescape(url).strip()
        path = unquote(target.partition("#")[0].partition("?")[0])
        if not path:
            return None  # an anchor on the page itself
        if path.startswith("/"):
            return (f"the link to {target[:80]!r} starts at the root of a web server, so it leads nowhere when the "
                    "site is opened from a folder; write it relative to this page")
        resolved = posixpath.normpath(posixpath.join(folder, path))
        if resolved == ".." or resolved.startswith("../"):
            return f"the link to {target[:80]!r} leads out of the site; link a page of the site, or use https://"
        if resolved == ".":
            resolved = "index.md"
        stem = resolved[:-5] if resolved.endswith(".html") else None
        candidates = [resolved, f"{resolved}/index.md"] + ([f"{stem}.md"] if stem else [])
        if any(exists(c) for c in candidates):
            return None
        return (f"the link to {target[:80]!r} leads nowhere: the site has no {resolved[:80]!r} (neither a file of "
                "site/ nor a page the site makes); link an existing page or file by its path from this page")

    return judge


def in_site(site: Path) -> Exists:
    """Whether the built `site` holds a docs path (a Markdown page as its .html page)."""
    return lambda path: (site / (path[:-3] + ".html" if path.endswith(".md") else path)).exists()


def check_pages(site_src: Path, exists: Exists) -> None:
    """The first hand-written page with a link or image `exists` does not hold, as a ContentError."""
    for rel, path in hand_written(site_src).items():
        if not rel.endswith(".md"):
            continue
        text = path.read_text("utf-8", errors="replace")
        found = locate(text, dead_links(rel, exists))
        if found is not None:
            line, col, _url, why = found
            raise ContentError(display_path(path), line, col, (), why)
