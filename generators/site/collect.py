"""Collect everything the staging docs folder should hold: the generated pages, the hand-written
files of site/, and copies of what the print kit and the rules check made. Also the navigation."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from generators.content.loader import Content
from generators.site.context import GameSite, game_site
from generators.site.escape import nav_title
from generators.site.examples import REPORT_DOCS_PATH, load_report
from generators.site.pages import NavItem, game_nav, game_pages, render
from generators.site.paths import SITE_SRC
from generators.site.stage import Stage

OVERRIDES = "overrides"  # site/overrides/ is the theme's custom_dir, not docs


@dataclass
class Collected:
    stage: Stage
    nav: list[NavItem]
    games: list[GameSite] = field(default_factory=list)


def ordered_games(content: Content):
    return sorted(content.games, key=lambda g: (g.game.order, g.game.name.casefold(), g.id))


def collect(content: Content, out: Path, site_src: Path = SITE_SRC) -> Collected:
    stage = Stage()
    report = load_report(out)
    report_file = out / "check" / "report.json"
    if report_file.is_file():
        stage.copy(REPORT_DOCS_PATH, report_file)
    games = ordered_games(content)
    sites = [game_site(content, g, out, report) for g in games if g.game.status == "ready"]
    stage.text("index.md", render("home.md.j2", "index.md", content, games=games).text)
    nav: list[NavItem] = [{"Home": "index.md"}]
    for site in sites:
        for page in game_pages(site, content):
            stage.text(page.path, page.text)
        for dest, src in sorted(site.assets.copies.items()):
            stage.copy(dest, src)
        nav.append(game_nav(site))
    nav += _hand_written(stage, site_src)
    return Collected(stage, nav, sites)


def _hand_written(stage: Stage, site_src: Path) -> list[NavItem]:
    """Copy site/ (but its theme overrides) into the docs; its top-level pages join the navigation."""
    nav: list[NavItem] = []
    if not site_src.is_dir():
        return nav
    for path in sorted(p for p in site_src.rglob("*") if p.is_file()):
        rel = path.relative_to(site_src).as_posix()
        if rel.startswith(f"{OVERRIDES}/") or any(part.startswith(".") for part in rel.split("/")):
            continue
        stage.copy(rel, path)
        if path.suffix == ".md" and "/" not in rel and rel != "index.md":
            nav.append({nav_title(_title(path)): rel})
    return nav


def _title(path: Path) -> str:
    m = re.search(r"^#\s+(.+?)\s*$", path.read_text("utf-8"), re.M)
    return m.group(1) if m else path.stem.replace("-", " ").capitalize()
