"""What a reader's browser downloads to show one page of the built site the first time, read from
the files: the page, its stylesheets and scripts, Material's search worker and the search index it
loads at once (the game's own on a game's page, every game's on the hub), and the images not
marked lazy. Text is counted gzip-compressed, as a web server sends it; images as they are.
Images marked lazy load only near the screen: the browser test measures those on the wire."""

from __future__ import annotations

import gzip
import json
import re
from dataclasses import dataclass
from html import unescape
from pathlib import Path
from urllib.parse import unquote, urlsplit

TARGET = 500_000  # bytes transferred on a player page's first load, search index included
RULES_TARGET = 300_000  # ... on a rules page's first load (issue 39)
SECOND_TARGET = 150_000  # ... on a game's second page, after its overview (what the first did not load)
TEXT = (".html", ".css", ".js", ".json", ".svg", ".map")
_TAG = re.compile(r"<(link|script|img)\b([^>]*)>", re.I)
_ATTR = re.compile(r'([\w-]+)\s*=\s*"([^"]*)"')
_CONFIG = re.compile(r'<script id="__config" type="application/json">(.*?)</script>', re.S)


@dataclass(frozen=True)
class Weight:
    page: str  # site-relative path
    files: dict[str, int]  # site-relative path -> bytes transferred

    @property
    def total(self) -> int:
        return sum(self.files.values())


def transferred(path: Path, cache: dict[Path, int] | None = None) -> int:
    """Bytes on the wire: text gzip-compressed (level 6, a server's usual), other files whole."""
    if cache is not None and path in cache:
        return cache[path]
    data = path.read_bytes()
    size = len(gzip.compress(data, 6, mtime=0)) if path.suffix in TEXT else len(data)
    if cache is not None:
        cache[path] = size
    return size


def first_load(site: Path, page: Path, cache: dict[Path, int] | None = None) -> Weight:
    """The files `page` (under `site`) loads before the reader scrolls, and their bytes."""
    html = page.read_text("utf-8")
    wanted: list[Path | None] = [page]
    for tag, attrs in _TAG.findall(html):
        a = {k.lower(): unescape(v) for k, v in _ATTR.findall(attrs)}
        tag = tag.lower()
        if tag == "link" and a.get("rel") == "stylesheet":
            wanted.append(_local(page, a.get("href")))
        elif tag == "script" or (tag == "img" and a.get("loading") != "lazy"):
            wanted.append(_local(page, a.get("src")))
    config = _CONFIG.search(html)
    if config:
        data = json.loads(config.group(1))
        base = (page.parent / str(data.get("base", "."))).resolve()
        wanted += [_local(page, data.get("search")), base / "search" / "search_index.json"]
    files: dict[str, int] = {}
    for path in wanted:
        if path is not None and path.is_file():
            files[path.resolve().relative_to(site.resolve()).as_posix()] = transferred(path, cache)
    return Weight(page.relative_to(site).as_posix(), files)


def _local(page: Path, link: object) -> Path | None:
    if not isinstance(link, str) or not link:
        return None
    u = urlsplit(link)
    if u.scheme or link.startswith("//") or not u.path:
        return None
    return (page.parent / unquote(u.path)).resolve()


def second_load(first: Weight, then: Weight) -> Weight:
    """What the page of `then` transfers when the reader comes from `first`'s page: the files it
    loads that the first did not (the browser keeps those)."""
    return Weight(then.page, {f: n for f, n in then.files.items() if f not in first.files})
