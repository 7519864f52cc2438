"""The site built once per test session from the real content (with the print kit's PNGs and PDFs and
the rules check's report, as `roadkit build` makes them), and what the site's tests share to read it
and to drive Chromium over it (the fixtures `built` and `browser` are in conftest.py)."""

from __future__ import annotations

import functools
import http.server
import os
import re
import threading
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml

from generators.build_system.build_graph import Manifest, realize
from generators.content.loader import Content, load_content
from generators.content.model import LoadedGame, SearchQuestion
from generators.pdf.options import Options
from generators.pdf.print_targets import document_targets, png_targets
from generators.site.build import SiteResult, build_site
from generators.site.guide import GUIDE
from tests.helpers import CONTENT, ROOT

NUMBERS = ROOT / "tests" / "golden" / "rule-numbers"  # <game>.json: each rule's number on the site
CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
DESKTOP = {"width": 1440, "height": 900}


@dataclass(frozen=True)
class Built:
    content: Content
    out: Path
    result: SiteResult

    @property
    def site(self) -> Path:
        return self.out / "site"

    @property
    def offline(self) -> Path:
        """The same build: it also opens from disk (file://)."""
        return self.out / "site"


def make_inputs(content: Content, out: Path) -> None:
    """What the site shows from other parts: the print kit (PNGs, PDFs) and the rules check."""
    targets = []
    for game in content.games:
        targets += list(png_targets(content, game, out))
        for paper in ("a4", "letter"):
            targets += list(document_targets(content, game, [Options(paper=paper)], out))
    realize(targets, Manifest.load(out))
    try:
        from generators.check.runner import run_check
    except ImportError:  # the engine not there yet: the site shows its examples as unchecked
        return
    run_check(content, [], out, quiet=True)
    from generators.play.bundle import write_play

    write_play(content, out)  # the Play pages' engine, content and Pyodide


@functools.cache
def site_build(out: Path) -> Built:
    """Build the site (both variants) into `out` once per process; later calls reuse it."""
    content = load_content(CONTENT)
    make_inputs(content, out)
    return Built(content, out, build_site(content, out, say=lambda _: None))


def ready(content: Content):
    return [g for g in content.games if g.game.status == "ready"]


def scenarios(game) -> list[dict]:
    out = []
    for path in sorted((Path(game.dir) / "examples").glob("*.yaml")):
        data = yaml.safe_load(path.read_text("utf-8"))
        out.append(data)
    return out


def player_pages(site: Path) -> list[Path]:
    """Every page but the content authors' ones and the editors' guide (both speak to the people who
    build the kit, in commands and file names)."""
    return [p for p in sorted(site.rglob("*.html"))
            if "authors" not in (parts := p.relative_to(site).with_suffix("").parts) and parts[0] != GUIDE]


def unavailable(reason: str) -> None:
    if os.environ.get("ROADKIT_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{reason} (ROADKIT_REQUIRE_BROWSER=1 requires the browser test to run)")
    pytest.skip(reason)


def serve(folder: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(folder)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}/"


def new_page(browser, viewport: dict[str, int], scheme: str = "light"):
    context = browser.new_context(viewport=viewport, color_scheme=scheme)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return page, errors


def page_url(base: str, docs_path: str) -> str:
    """A docs page ('g/x.md', 'g/index.md') as a URL of the served site or of the same files opened
    from disk (pages are files: x.html)."""
    return base + f"{docs_path.removesuffix('.md')}.html"


def questions(built: Built) -> list[tuple[LoadedGame, tuple[SearchQuestion, ...]]]:
    """Each ready game's players' questions (its tests.yaml `questions:`)."""
    games = ready(built.content)
    missing = [g.id for g in games if not g.tests.questions]
    assert not missing, f"no search questions in these games' tests.yaml: {missing}"
    return [(g, g.tests.questions) for g in games]


def _entry_of(site: Path, game_id: str, chapter: str, folder: str = "") -> dict[str, str]:
    """Every anchor of a rules page (of a translation's `folder`) -> the rules entry (h2) it belongs to."""
    raw = (site / game_id / folder / "rules" / f"{chapter}.html").read_text("utf-8")
    owner: dict[str, str] = {}
    current = ""
    for m in re.finditer(r'<h([23]) id="([^"]+)"', raw):
        if m.group(1) == "2":
            current = m.group(2)
        owner[m.group(2)] = current
    return owner


def finds_rule(site: Path, game, groups: list[list[str]], rule_id: str, top: int = 3, lang: str = "") -> bool:
    """The rule's entry (or a subsection of it) is one of the links (`groups`: each result's links,
    best first) of the first `top` results; with `lang`, on that translation's pages."""
    chapter = next(r.meta.chapter for r in game.rules if r.id == rule_id)
    owner = _entry_of(site, game.id, chapter, lang)
    folder = f"{game.id}/{lang}/rules" if lang else f"{game.id}/rules"
    for group in groups[:top]:
        for href in group:
            u = urlsplit(href)
            path = u.path.rstrip("/").removesuffix(".html")
            if path.endswith(f"{folder}/{chapter}") and owner.get(u.fragment) == rule_id:
                return True
    return False
