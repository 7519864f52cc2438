"""The site as projects (a hub and one per game): links across projects, one search index for all,
the assembled site's own link check, and an edit that rebuilds its game's project alone."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

from generators.content.loader import load_content
from generators.site.build import build_site
from generators.site.linkcheck import broken_links
from generators.site.pages import NavItem
from generators.site.projects import HUB, cross_links, index_files, merged_index, own_docs, own_index, split
from generators.site.staged_docs import Stage
from tests.helpers import copy_content
from tests.site_helpers import Built, ready

GAMES = ["alpha", "beta"]


def test_links_leaving_a_project_become_final_urls() -> None:
    text = ("[home](../index.md#how-to-print) [rule](rules/turn.md#x) [other](../beta/index.md) "
            '[pdf](downloads/a4/alpha-cards.pdf) <a href="../about.md">about</a> [web](https://x.org/a.md)')
    out = cross_links(text, "alpha/index.md", "alpha", GAMES)
    assert "(../index.html#how-to-print)" in out
    assert "(rules/turn.md#x)" in out  # inside the project: MkDocs resolves and checks it
    assert "(../beta/index.html)" in out
    assert "(downloads/a4/alpha-cards.pdf)" in out
    assert 'href="../about.html"' in out
    assert "(https://x.org/a.md)" in out
    hub = cross_links("[a](alpha/quick-reference.md) [b](about.md)", "index.md", HUB, GAMES)
    assert hub == "[a](alpha/quick-reference.html) [b](about.md)"


def test_split_gives_each_project_its_pages_the_shared_assets_and_the_same_tabs() -> None:
    stage = Stage()
    stage.text("index.md", "# Home\n[A](alpha/index.md)\n")
    stage.text("about.md", "# About\n")
    stage.text("assets/roadkit-games.js", "window.RK_GAMES = {};\n")
    stage.copy("assets/roadkit.css", Path("/dev/null"))
    stage.text("alpha/index.md", "# Alpha\n[back](../index.md)\n")
    stage.text("alpha/rules/turn.md", "# Turn\n")
    stage.text("beta/index.md", "# Beta\n")
    nav: list[NavItem] = [{"Home": "index.md"},
                          {"Alpha": [{"Overview": "alpha/index.md"}, {"Rules": [{"Turn": "alpha/rules/turn.md"}]}]},
                          {"Beta": [{"Overview": "beta/index.md"}]}, {"About": "about.md"}]
    games = {"alpha": {"name": "Alpha", "code": "A"}, "beta": {"name": "Beta", "code": "B"}}
    projects = {p.name: p for p in split(stage, nav, games)}
    assert set(projects) == {HUB, "alpha", "beta"}
    alpha = projects["alpha"]
    assert set(alpha.stage.texts) | set(alpha.stage.copies) == {
        "index.md", "rules/turn.md", "assets/roadkit-games.js", "assets/roadkit.css"}
    assert "(../index.html)" in alpha.stage.texts["index.md"].decode()
    assert 'window.RK_ROOT = "../"' in alpha.stage.texts["assets/roadkit-games.js"].decode()
    assert alpha.nav == [{"Home": "../index.html"},
                         {"Alpha": [{"Overview": "index.md"}, {"Rules": [{"Turn": "rules/turn.md"}]}]},
                         {"Beta": "../beta/index.html"}, {"About": "../about.html"}]
    hub = projects[HUB]
    assert set(hub.stage.texts) == {"index.md", "about.md", "assets/roadkit-games.js"}
    assert hub.nav == [{"Home": "index.md"}, {"Alpha": "alpha/index.html"}, {"Beta": "beta/index.html"},
                       {"About": "about.md"}]
    assert 'window.RK_ROOT = ""' in hub.stage.texts["assets/roadkit-games.js"].decode()


def test_every_project_searches_every_project_from_its_own_folder() -> None:
    config = {"lang": ["en"]}
    indexes = {HUB: {"config": config, "docs": [{"location": "index.html", "title": "Home", "text": ""}]},
             "alpha": {"config": config, "docs": [{"location": "rules/turn.html#ram", "title": "Ram", "text": ""}]},
             "beta": {"config": config, "docs": [{"location": "index.html", "title": "Beta", "text": ""}]}}
    parts = {p: own_docs(i, p, GAMES) for p, i in indexes.items()}
    merged = {p: merged_index(indexes[p], p, parts) for p in indexes}
    assert [d["location"] for d in merged["alpha"]["docs"]] == [
        "../index.html", "rules/turn.html#ram", "../beta/index.html"]
    assert [d["location"] for d in merged[HUB]["docs"]] == [
        "index.html", "alpha/rules/turn.html#ram", "beta/index.html"]
    # A merged index gives back each project's own entries (how a kept project's part is found).
    assert {p: own_docs(merged[p], p, GAMES) for p in merged} == parts
    files = index_files(merged["beta"])
    assert json.loads(files["search/search_index.json"]) == merged["beta"]
    assert files["search/search_index.js"].decode().startswith("var __index = {")


def test_a_game_index_holds_its_own_pages_alone() -> None:
    config = {"lang": ["en"]}
    merged = {"config": config, "docs": [{"location": "../index.html", "title": "Home", "text": ""},
                                         {"location": "rules/turn.html#ram", "title": "Ram", "text": ""},
                                         {"location": "../beta/index.html", "title": "Beta", "text": ""}]}
    index = own_index(merged, own_docs(merged, "alpha", GAMES))
    assert index == {"config": config, "docs": [{"location": "rules/turn.html#ram", "title": "Ram", "text": ""}]}


def test_the_link_check_finds_missing_files_and_anchors_across_projects(tmp_path: Path) -> None:
    (tmp_path / "alpha").mkdir()
    (tmp_path / "index.html").write_text('<h2 id="how">x</h2><a href="alpha/index.html#top">a</a>'
                                         '<a href="alpha/gone.html">b</a><a href="https://x.org/">c</a>'
                                         '<a href="#local">d</a><img src="/assets/x.png">', "utf-8")
    (tmp_path / "alpha" / "index.html").write_text('<p id="top"></p><a href="../index.html#how">h</a>'
                                                   '<a href="../index.html#nowhere">n</a>'
                                                   '<a href="../../outside.html">o</a>', "utf-8")
    assert broken_links(tmp_path) == sorted([
        "index.html: alpha/gone.html",
        "alpha/index.html: ../index.html#nowhere (no such anchor)",
        "alpha/index.html: ../../outside.html",
    ])


def _card_text_line(content_dir: Path, game: str) -> tuple[Path, str, str]:
    for path in sorted((content_dir / game / "components").glob("*.yaml")):
        text = path.read_text("utf-8")
        if "kind: cards" not in text:
            continue
        m = re.search(r"^(\s+text: )([A-Za-z][^'\"\n{}:#]{12,})$", text, re.M)
        if m:
            return path, m.group(0), m.group(1) + "Zebracrossing " + m.group(2)
    raise AssertionError(f"{game}: no plain card text line to edit")


def test_an_edit_to_one_game_rebuilds_that_game_alone(built: Built, tmp_path: Path) -> None:
    games = [g.id for g in ready(built.content)]
    edited = games[-1]
    out = tmp_path / "build"
    shutil.copytree(built.out, out, copy_function=os.link)  # the session's build, shared, never changed
    content_dir = copy_content(tmp_path)
    path, old, new = _card_text_line(content_dir, edited)
    path.write_text(path.read_text("utf-8").replace(old, new, 1), "utf-8")
    before = {p: p.stat().st_ino for p in (built.site).rglob("*") if p.is_file()}

    result = build_site(load_content(content_dir), out, say=lambda _: None)

    assert result.built == (edited,)
    assert set(result.kept) == {HUB, *games} - {edited}
    site = out / "site"
    rewritten = sorted(p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()
                       and before.get(built.site / p.relative_to(site)) != p.stat().st_ino)
    others = [p for p in rewritten if not p.startswith(f"{edited}/")]
    # Outside the rebuilt game only the hub's search index, which holds every game, is new.
    assert sorted(others) == ["search/search_index.js", "search/search_index.json"]
    hub_index = json.loads((site / "search" / "search_index.json").read_text("utf-8"))
    assert any("Zebracrossing" in d["text"] and d["location"].startswith(f"{edited}/") for d in hub_index["docs"])
    assert broken_links(site) == []
    # The session's site is untouched.
    assert "Zebracrossing" not in (built.site / "search" / "search_index.json").read_text("utf-8")
