"""Every link of the assembled site leads somewhere.

MkDocs checks links inside one project; the site is several (generators/site/projects.py), so the
build checks the assembled HTML itself: each relative `href`/`src` must name a file of the site,
and an anchor on another page must exist there. It replaces MkDocs' --strict link check, which
cannot see across projects. Every URL in a page's content area (what Markdown made of the pages)
must also have an allowed scheme (generators/site/safe_links.py): the last look at what reaches a
reader, raw HTML included. The theme's own chrome around it (Material's search share button is a
`javascript:void(0)`) is not content.
"""

from __future__ import annotations

import html
import posixpath
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote

from generators.site.safe_links import URL_ATTRIBUTES, forbidden

_REF = re.compile(r"""\b(?:href|src)\s*=\s*"([^"]*)\"""")
_ID = re.compile(r"""\bid\s*=\s*"([^"]*)\"""")
_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
_CONTENT = re.compile(r"<article\b.*?</article>", re.S)


def broken_links(site: Path, pages: list[Path] | None = None) -> list[str]:
    """`page: link` for each link of `pages` (default: every HTML page) that leads nowhere."""
    files = _Files(site)
    problems = []
    for page in pages if pages is not None else sorted(site.rglob("*.html")):
        rel = page.relative_to(site).as_posix()
        folder = posixpath.dirname(rel)
        text = page.read_text("utf-8", errors="replace")
        for article in _CONTENT.findall(text):
            problems += [f"{rel}: {why}" for why in _forbidden_urls(article)]
        for raw in set(_REF.findall(text)):
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


def _forbidden_urls(fragment: str) -> list[str]:
    """Why each URL attribute of an HTML fragment is forbidden, read as a browser reads the tags."""
    found: list[str] = []

    class Urls(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            for name, value in attrs:
                if name in URL_ATTRIBUTES and value is not None and (why := forbidden(value)) is not None:
                    found.append(why)

    parser = Urls(convert_charrefs=True)
    parser.feed(fragment)
    parser.close()
    return found


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
