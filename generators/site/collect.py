"""Collect everything the staging docs folder should hold: the generated pages, the hand-written
files of site/, and copies of what the print kit and the rules check made. Also the navigation."""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from generators.content.loader import Content
from generators.site import play
from generators.site.context import GameSite, game_site
from generators.site.escape import nav_title
from generators.site.examples import CheckReport, load_report
from generators.site.guide import guide_pages
from generators.site.numbers import game_codes
from generators.site.pages import NavItem, environment, game_nav, game_pages, render
from generators.site.paths import SITE_SRC
from generators.site.projects import GAMES_SCRIPT, games_script
from generators.site.staged_docs import Stage

OVERRIDES = "overrides"  # site/overrides/ is the theme's custom_dir, not docs
SECTION_INDEX = "index.md"  # a folder of site/ holding one is a section of the navigation


@dataclass
class Collected:
    stage: Stage
    nav: list[NavItem]
    games: list[GameSite] = field(default_factory=list)
    rk_games: dict[str, dict[str, Any]] = field(default_factory=dict)  # RK_GAMES: id -> name, code, languages


def ordered_games(content: Content):
    return sorted(content.games, key=lambda g: (g.game.order, g.game.name.casefold(), g.id))


# Material's language switch fetches `sitemap.xml` beside each of its links (to map a page to the same
# page in the other language); MkDocs writes one at a project's top alone, so a translation's folder
# gets this one, as MkDocs writes it without a `site_url` (no page listed: the switch goes to the
# language's first page, as it does from the English pages). Without it every page of the game
# requested a missing file.
EMPTY_SITEMAP = ('<?xml version="1.0" encoding="UTF-8"?>\n'
                 '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n</urlset>\n')


@dataclass(frozen=True)
class Shared:
    """What the pages of every project need, made once before the projects are built apart."""

    report: CheckReport


def prepare(content: Content, out: Path) -> Shared:
    """The check's report, read; the page templates, compiled (forked workers inherit both)."""
    env = environment()
    for name in env.list_templates():
        env.get_template(name)
    return Shared(load_report(out))


def collect(content: Content, out: Path, site_src: Path = SITE_SRC, only: Collection[str] | None = None,
            shared: Shared | None = None) -> Collected:
    """Every page of the site, or (with `only`) the home and hand-written pages plus the pages of
    those games: the others then appear in the navigation by their overview alone. `shared`: from
    `prepare` (else made here)."""
    stage = Stage()
    report = shared.report if shared is not None else load_report(out)
    games = ordered_games(content)
    ready = [g for g in games if g.game.status == "ready"]
    codes = game_codes(ready)
    # `languages`: the folders of a game's translations (its pages in another language), which
    # search ranks after the reader's own language.
    rk_games = {g.id: {"name": g.game.name, "code": codes[g.id], "languages": [t.language for t in g.game.translations]}
                for g in ready}
    sites = [game_site(content, g, out, report, codes[g.id]) for g in ready if only is None or g.id in only]
    stage.text(GAMES_SCRIPT, games_script(rk_games, ""))
    stage.text("index.md", render("home.md.j2", "index.md", content, games=games).text)
    nav: list[NavItem] = [{"Home": "index.md"}]
    by_id = {site.id: site for site in sites}
    for game in ready:
        site = by_id.get(game.id)
        if site is None:
            nav.append({nav_title(game.game.name): [{"Overview": f"{game.id}/index.md"}]})
            continue
        site = replace(site, playable=play.playable_examples(out, game.id))
        for page in game_pages(site, content):
            stage.text(page.path, page.text)
        for lang in rk_games[game.id]["languages"]:
            stage.text(f"{game.id}/{lang}/sitemap.xml", EMPTY_SITEMAP)
        for dest, src in sorted(site.assets.copies.items()):
            stage.copy(dest, src)
        if site.report:
            stage.text(site.report, report.game_json(site.id))
        nav.append(game_nav(site, play.stage_game(stage, out, game.id, game.game.engine or "", game.game.name)))
    play.stage_hub(stage, out)
    for path, text in guide_pages(out).items():  # the editors' guide's generated pages
        stage.text(path, text)
    nav += _hand_written(stage, site_src)
    return Collected(stage, nav, sites, rk_games)


def _hand_written(stage: Stage, site_src: Path) -> list[NavItem]:
    """Copy site/ (but its theme overrides) into the docs; its top-level pages join the navigation,
    and so does each folder with an `index.md` (the editors' guide), as a section: its index first,
    then its pages (generated ones staged there included) in the order the index links them."""
    nav: list[NavItem] = []
    if not site_src.is_dir():
        return nav
    for rel, path in hand_written(site_src).items():
        stage.copy(rel, path)
        if path.suffix == ".md" and "/" not in rel and rel != "index.md":
            nav.append({nav_title(_title(path)): rel})
    for index in sorted(site_src.glob(f"*/{SECTION_INDEX}")):
        if index.parent.name != OVERRIDES:
            nav.append(_section(stage, index))
    return nav


def hand_written(site_src: Path) -> dict[str, Path]:
    """The files of site/ the docs hold, by their docs path: all but the theme's overrides and hidden ones."""
    found = {}
    for path in sorted(p for p in site_src.rglob("*") if p.is_file()):
        rel = path.relative_to(site_src).as_posix()
        if not rel.startswith(f"{OVERRIDES}/") and not any(part.startswith(".") for part in rel.split("/")):
            found[rel] = path
    return found


def _section(stage: Stage, index: Path) -> NavItem:
    folder = index.parent.name
    text = index.read_text("utf-8")
    pages = {p for p in (*stage.texts, *stage.copies) if p.startswith(f"{folder}/") and p.endswith(".md")
             and p.count("/") == 1}
    linked = [f"{folder}/{m}" for m in re.findall(r"\]\(([\w.-]+\.md)(?:#[^)]*)?\)", text)]
    order = [f"{folder}/{SECTION_INDEX}"]
    for page in [*linked, *sorted(pages)]:
        if page in pages and page not in order:
            order.append(page)
    return {nav_title(_heading(text, folder)): [{nav_title(_heading(_stage_text(stage, p), p)): p} for p in order]}


def _stage_text(stage: Stage, path: str) -> str:
    data = stage.texts.get(path)
    return data.decode("utf-8") if data is not None else Path(stage.copies[path]).read_text("utf-8")


def _title(path: Path) -> str:
    return _heading(path.read_text("utf-8"), path.stem)


def _heading(text: str, fallback: str) -> str:
    """A page's first heading, else its file name in words."""
    m = re.search(r"^#\s+(.+?)\s*$", text, re.M)
    return m.group(1) if m else Path(fallback).stem.replace("-", " ").capitalize()
