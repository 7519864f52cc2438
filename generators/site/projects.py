"""The site as one MkDocs project per game plus a hub (home and the hand-written pages).

A reader sees one site: build/site/index.html is the hub and build/site/<game>/ each game, with the
same navigation tabs everywhere. MkDocs builds each project on its own, so an edit to one game's
content rebuilds that game's pages and nothing else. Everything here is plain data: which staged
files and navigation each project gets, links between projects written as final URLs (MkDocs only
resolves links inside a project), and the hub's search index, merged from all projects so that a
reader can still search every game (a game's pages load their own and fetch the hub's on request).
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from generators.site.pages import NavItem
from generators.site.staged_docs import Stage

HUB = ""  # the hub's project name: its pages live at the top of the site
GAMES_SCRIPT = "assets/roadkit-games.js"  # which folder is which game, for scoped search
SHARED_PREFIX = "assets/"  # hand-written assets every project carries (its config points at them)
# Markdown links, and href/src attributes in the raw HTML the templates write.
_LINK = re.compile(r"(?P<lead>\]\(|\b(?:href|src)=\")(?P<target>[^)\"\s]+)")
_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


@dataclass(frozen=True)
class Project:
    name: str  # HUB or the game's id, which is also its folder under the site
    stage: Stage  # paths relative to the project's own docs folder
    nav: list[NavItem]


def project_of(path: str, games: Sequence[str]) -> str:
    """The project a site path (docs-relative, as the single-site staging writes it) belongs to."""
    first = path.split("/", 1)[0]
    return first if first in games and "/" in path else HUB


def split(stage: Stage, nav: list[NavItem], games: Mapping[str, dict[str, Any]],
          wanted: Sequence[str] | None = None) -> list[Project]:
    """Cut the single-site staging (`collect`) into projects; `wanted` limits which are made.
    `games` is the RK_GAMES data ({id: {name, code}}), in navigation order."""
    ids = list(games)
    names = [HUB, *ids] if wanted is None else list(wanted)
    return [Project(name, _stage_of(stage, name, ids, games), _nav_of(nav, name, ids)) for name in names]


def _stage_of(stage: Stage, name: str, ids: list[str], games: Mapping[str, dict[str, Any]]) -> Stage:
    out = Stage()
    prefix = f"{name}/" if name else ""
    for path in sorted(set(stage.texts) | set(stage.copies)):
        if path == GAMES_SCRIPT:
            continue
        shared = path.startswith(SHARED_PREFIX)
        if not shared and project_of(path, ids) != name:
            continue
        rel = path if shared else path[len(prefix):]
        if path in stage.texts:
            data = stage.texts[path]
            if path.endswith(".md"):
                data = cross_links(data.decode("utf-8"), path, name, ids).encode("utf-8")
            out.texts[rel] = data
        else:
            out.copies[rel] = stage.copies[path]
    out.text(GAMES_SCRIPT, games_script(games, "../" if name else ""))
    return out


def cross_links(text: str, page: str, project: str, games: Sequence[str]) -> str:
    """Links from `page` (a site path) that leave its project, as the final URL the reader follows:
    MkDocs turns `x.md` into `x.html` only inside a project."""

    def fix(m: re.Match[str]) -> str:
        target = m["target"]
        if target.startswith(("#", "/")) or _SCHEME.match(target):
            return m.group(0)
        path, sep, anchor = target.partition("#")
        resolved = posixpath.normpath(posixpath.join(posixpath.dirname(page), path))
        if project_of(resolved, games) == project or not path.endswith(".md"):
            return m.group(0)
        return f"{m['lead']}{path[:-3]}.html{sep}{anchor}"

    return _LINK.sub(fix, text)


def _nav_of(nav: list[NavItem], name: str, ids: list[str]) -> list[NavItem]:
    """The same tabs in every project: this project's own entries as pages, the others as links."""
    up = "../" if name else ""
    out: list[NavItem] = []
    for item in nav:
        first = _first_path(item)
        owner = project_of(first, ids) if first else HUB
        if owner == name:
            out.append(_strip(item, f"{name}/" if name else ""))
        else:
            title = next(iter(item)) if isinstance(item, dict) else first
            target = first if owner == HUB else f"{owner}/index.md"
            out.append({title: up + target[:-3] + ".html"})
    return out


def _first_path(item: NavItem) -> str:
    if isinstance(item, str):
        return item
    for value in item.values():
        if isinstance(value, str):
            return value
        for sub in value:
            found = _first_path(sub)
            if found:
                return found
    return ""


def _strip(item: Any, prefix: str) -> Any:
    if isinstance(item, str):
        return item.removeprefix(prefix)
    if isinstance(item, list):
        return [_strip(i, prefix) for i in item]
    return {k: _strip(v, prefix) for k, v in item.items()}


def games_script(games: Mapping[str, dict[str, Any]], root: str) -> str:
    """`window.RK_GAMES` (each ready game's folder, name and rule code) and `window.RK_ROOT` (the
    site's top from this project), read by the search scope script."""
    data = json.dumps(dict(games), ensure_ascii=True, sort_keys=True).replace("<", "\\u003c")
    return ("// Generated by `roadkit site`: the games, for scoped search.\n"
            f"window.RK_GAMES = {data};\nwindow.RK_ROOT = {json.dumps(root)};\n")


# --- search indexes: the hub's of every project, a game's of its own ------------------------------


def own_docs(index: dict[str, Any], name: str, games: Sequence[str]) -> list[dict[str, Any]]:
    """The entries of a project's search index that are its own pages (a merged index holds every
    project's, those of the others written from here with `../` or a game's folder in front)."""
    docs = _list(index.get("docs"))
    own = []
    for doc in docs:
        loc = str(doc.get("location", ""))
        if name and loc.startswith("../"):
            continue
        if not name and loc.split("/", 1)[0] in games and "/" in loc:
            continue
        own.append(doc)
    return own


def merged_index(index: dict[str, Any], name: str, parts: Mapping[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """Project `name`'s search index (its own `config`) holding every project's entries, in project
    order, each location rewritten to be relative to `name`'s folder."""
    docs = []
    for other, entries in parts.items():
        for doc in entries:
            loc = str(doc.get("location", ""))
            docs.append({**doc, "location": _rebase(loc, other, name)})
    return {**index, "docs": docs}


def own_index(index: dict[str, Any], docs: list[dict[str, Any]]) -> dict[str, Any]:
    """A game project's search index: its own entries alone (`own_docs`), its own `config`."""
    return {**index, "docs": docs}


def _rebase(location: str, frm: str, to: str) -> str:
    if frm == to:
        return location
    site_path = f"{frm}/{location}" if frm else location
    return f"../{site_path}" if to else site_path


def index_files(index: dict[str, Any]) -> dict[str, bytes]:
    """The two files Material reads the index from: JSON over HTTP, a script from file://."""
    text = json.dumps(index, ensure_ascii=False, separators=(",", ":"))
    return {"search/search_index.json": text.encode("utf-8"),
            "search/search_index.js": f"var __index = {text}".encode()}


def _list(value: Any) -> list[Any]:
    """`value` if it is a list, else an empty one."""
    return value if isinstance(value, list) else []
