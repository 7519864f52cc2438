"""The rules reference site, built once from the real content (with the print kit's PNGs and PDFs and
the rules check's report, as `roadkit build` makes them) and read back from the HTML.

What the pages must hold is derived from the content, never listed by hand: every rules entry at its
anchor, every worked example (on the examples page and inside its rule), every component and face,
every glossary term and rulebook note. Every internal link and anchor must resolve, in the served
build and in the offline one."""

from __future__ import annotations

import functools
import json
import re
import shutil
import time
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
import yaml

from generators.content.loader import Content, load_content
from generators.errors import ContentError
from generators.outputs import Manifest, realize
from generators.pdf.kit import document_targets, face_images, png_name, png_targets
from generators.pdf.options import Options
from generators.site.build import SiteResult, build_site, stage_site
from generators.site.examples import load_report
from generators.site.links import slug
from generators.site.odds import game_odds
from tests.helpers import CONTENT, copy_content, fingerprint

# --- building once ----------------------------------------------------------------------------


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
        return self.out / "site-offline"


def make_inputs(content: Content, out: Path) -> None:
    """What the site shows from other parts: the print kit (PNGs, PDFs) and the rules check."""
    targets = []
    for game in content.games:
        targets += list(png_targets(content, game, out))
        for paper in ("a4", "letter"):
            targets += list(document_targets(content, game, [Options(paper=paper)], out))
    realize(targets, Manifest.load(out))
    try:
        from generators.engine.runner import run_check
    except ImportError:  # the engine not there yet: the site shows its examples as unchecked
        return
    run_check(content, [], out, quiet=True)


@functools.cache
def site_build(out: Path) -> Built:
    """Build the site (both variants) into `out` once per process; later calls reuse it."""
    content = load_content(CONTENT)
    make_inputs(content, out)
    return Built(content, out, build_site(content, out, offline=True, say=lambda _: None))


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    return site_build(tmp_path_factory.getbasetemp() / "site-build")


# --- reading the HTML -------------------------------------------------------------------------


class Html(HTMLParser):
    """Ids, links and text of one page."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[tuple[str, str]] = []
        self.chunks: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"])
        for key in ("href", "src"):
            value = a.get(key)
            if value is not None and tag in ("a", "img", "link", "script", "source", "iframe"):
                self.links.append((tag, value))

    def handle_data(self, data: str) -> None:
        self.chunks.append(data)

    @property
    def text(self) -> str:
        return " ".join("".join(self.chunks).split())


@functools.cache
def parse(path: Path) -> Html:
    return Html(path.read_text("utf-8"))


def page(site: Path, docs_path: str, offline: bool = False) -> Path:
    """The built HTML file of a docs page ('x/y.md' -> x/y/index.html, or x/y.html offline)."""
    stem = docs_path.removesuffix(".md")
    if stem == "index" or stem.endswith("/index"):
        return site / f"{stem}.html"
    return site / (f"{stem}.html" if offline else f"{stem}/index.html")


def ready(content: Content):
    return [g for g in content.games if g.game.status == "ready"]


def scenarios(game) -> list[dict]:
    out = []
    for path in sorted((Path(game.dir) / "examples").glob("*.yaml")):
        data = yaml.safe_load(path.read_text("utf-8"))
        out.append(data)
    return out


def norm(text: str) -> str:
    return " ".join(text.split())


# --- every piece of content is on its page ----------------------------------------------------


def test_every_rules_entry_is_at_its_anchor_citing_its_section(built: Built) -> None:
    for game in ready(built.content):
        assert game.rules, f"{game.id} is ready but has no rules entries"
        for entry in game.rules:
            html = parse(page(built.site, f"{game.id}/rules/{entry.meta.chapter}.md"))
            assert entry.id in html.ids, f"{game.id}: no anchor #{entry.id}"
            assert norm(entry.meta.title) in html.text
            assert f"Rulebook: {norm(entry.meta.section)}" in html.text


def test_every_rules_entry_links_its_related_entries_to_the_right_page(built: Built) -> None:
    for game in ready(built.content):
        chapter = {r.id: r.meta.chapter for r in game.rules}
        for entry in game.rules:
            path = page(built.site, f"{game.id}/rules/{entry.meta.chapter}.md")
            hrefs = {href for tag, href in parse(path).links if tag == "a"}
            for rel in entry.meta.related:
                same = chapter[rel] == entry.meta.chapter
                want = f"#{rel}" if same else f"../{chapter[rel]}/#{rel}"
                assert want in hrefs, f"{game.id}/{entry.id}: no link to related entry {rel} ({want})"


def test_every_example_is_on_the_examples_page_and_inside_its_rule(built: Built) -> None:
    for game in ready(built.content):
        examples = parse(page(built.site, f"{game.id}/examples.md"))
        rule_ids = {r.id: r for r in game.rules}
        for sc in scenarios(game):
            assert sc["id"] in examples.ids, f"{game.id}: example {sc['id']} missing from the examples page"
            assert norm(sc["title"]) in examples.text
            if sc.get("claim"):
                assert norm(sc["claim"]) in examples.text
            rule = rule_ids.get(sc.get("rule"))
            if rule is not None:
                raw = page(built.site, f"{game.id}/rules/{rule.meta.chapter}.md").read_text("utf-8")
                assert f"Example: {norm(sc['title'])}" in norm(Html(raw).text), \
                    f"{game.id}: example {sc['id']} not shown inside rule {rule.id}"


def test_examples_show_their_status_and_diagrams(built: Built) -> None:
    report = json.loads((built.out / "check" / "report.json").read_text("utf-8")) \
        if (built.out / "check" / "report.json").is_file() else None
    if report is None:
        pytest.skip("the rules check is not available yet, so there are no statuses or diagrams")
    by_key = {(e["game"], e["id"]): e for e in report["examples"]}
    for game in ready(built.content):
        path = page(built.site, f"{game.id}/examples.md")
        raw = path.read_text("utf-8")
        imgs = {src for tag, src in parse(path).links if tag == "img"}
        for sc in scenarios(game):
            rec = by_key.get((game.id, sc["id"]))
            assert rec is not None, f"{game.id}/{sc['id']} is not in the check report"
            for which in ("before", "after"):
                assert f"diagrams/{sc['id']}-{which}.svg" in " ".join(imgs), f"{sc['id']}: no {which} diagram"
            if rec["status"] == "erratum":
                assert norm(rec["discrepancy"].split(".")[0]) in norm(Html(raw).text)
        for status in {by_key[(game.id, sc["id"])]["status"] for sc in scenarios(game)}:
            assert f"rk-status--{status}" in raw


def test_every_component_and_face_is_shown_with_its_preview(built: Built) -> None:
    for game in ready(built.content):
        path = page(built.site, f"{game.id}/components.md")
        html = parse(path)
        imgs = {src for tag, src in html.links if tag == "img"}
        for comp in game.components:
            assert comp.id in html.ids, f"{game.id}: component {comp.id} has no anchor"
            assert norm(comp.name) in html.text
            for face in comp.faces:
                assert norm(face.front.title) in html.text, f"{comp.id}/{face.id}: title not shown"
        for comp, face_id, which, _side in face_images(game):
            want = "faces/" + png_name(comp, face_id, which)
            assert any(src.endswith(want) for src in imgs), f"{game.id}: no preview {want}"
            assert (built.site / game.id / want).is_file()


def test_components_page_offers_every_pdf_for_both_papers(built: Built) -> None:
    for game in ready(built.content):
        path = page(built.site, f"{game.id}/components.md")
        hrefs = {href for tag, href in parse(path).links if tag == "a"}
        for paper in ("a4", "letter"):
            for target in document_targets(built.content, game, [Options(paper=paper)], built.out):
                want = f"downloads/{paper}/{target.path.name}"
                assert any(h.endswith(want) for h in hrefs), f"{game.id}: no link to {want}"
                assert (built.site / want).is_file()


def test_glossary_notes_and_turn_summary(built: Built) -> None:
    for game in ready(built.content):
        glossary = parse(page(built.site, f"{game.id}/glossary.md"))
        for term in game.glossary.terms:
            assert slug(term.term) in glossary.ids or any(i.startswith(slug(term.term)) for i in glossary.ids)
            assert norm(term.definition) in glossary.text
        notes = parse(page(built.site, f"{game.id}/notes.md"))
        for note in game.notes.notes:
            assert note.id in notes.ids
            assert norm(note.title) in notes.text
        summary = parse(page(built.site, f"{game.id}/turn-summary.md"))
        for entry in game.rules:
            if entry.meta.summary:
                assert norm(entry.meta.summary) in summary.text


def test_glossary_terms_give_hover_tooltips_on_rules_pages(built: Built) -> None:
    for game in ready(built.content):
        if not game.glossary.terms:
            continue
        raw = "".join(page(built.site, f"{game.id}/rules/{c.id}.md").read_text("utf-8") for c in game.game.chapters)
        assert "<abbr title=" in raw
    html = (built.site / "index.html").read_text("utf-8")
    assert "content.tooltips" in html


def test_odds_tables_render_where_the_engine_offers_them(built: Built) -> None:
    for game in ready(built.content):
        tables = game_odds(game, load_report(built.out).odds.get(game.id, []))
        if not tables:
            continue
        odds = parse(page(built.site, f"{game.id}/odds.md"))
        rule_chapter = {r.id: r.meta.chapter for r in game.rules}
        for table in tables:
            assert f"odds-{slug(table.id)}" in odds.ids
            if table.rule in rule_chapter:
                html = parse(page(built.site, f"{game.id}/rules/{rule_chapter[table.rule]}.md"))
                assert f"odds-{slug(table.id)}" in html.ids, f"odds {table.id} not inside rule {table.rule}"
        assert "rk-bar" in page(built.site, f"{game.id}/odds.md").read_text("utf-8")


def test_no_markdown_syntax_leaks_into_the_text(built: Built) -> None:
    """A template indentation slip turns a block into a code block or leaves `{: .class }` visible."""
    for path in sorted(built.site.rglob("*.html")):
        text = parse(path).text
        for leak in ("{: .", 'class="rk-', "<span", "???", "!!!"):
            assert leak not in text, f"{path.relative_to(built.site)}: {leak!r} shows as text"


def test_home_lists_every_game_and_how_to_print(built: Built) -> None:
    home = parse(built.site / "index.html")
    for game in built.content.games:
        assert norm(game.game.name) in home.text
        if game.game.subtitle:  # a name in another script shows its subtitle beside it
            assert norm(game.game.subtitle) in home.text
    assert home.text.count("coming") >= sum(1 for g in built.content.games if g.game.status == "coming")
    for words in ("A4", "Letter", "long edge", "--back-offset", "gutterfold", "--ink-saver", "50 mm", "100%"):
        assert words in home.text, words


def test_search_finds_rules_cards_and_terms(built: Built) -> None:
    index = json.loads((built.site / "search" / "search_index.json").read_text("utf-8"))
    docs = index["docs"]

    def found(text: str, where: str) -> bool:
        text = text.casefold()
        return any(where in d["location"] and (text in d["title"].casefold() or text in d["text"].casefold())
                   for d in docs)

    for game in ready(built.content):
        entry = game.rules[0]
        assert found(entry.meta.title, f"{game.id}/rules/{entry.meta.chapter}/")
        card = next(f for c in game.components for f in c.faces)
        assert found(card.front.title, f"{game.id}/components/")
        if game.glossary.terms:
            assert found(game.glossary.terms[0].term, f"{game.id}/glossary/")


# --- links, offline, rebuilds -----------------------------------------------------------------


def broken_links(site: Path) -> list[str]:
    """Every internal href/src of every page that points at no file, or at an anchor not there."""
    problems = []
    for path in sorted(site.rglob("*.html")):
        html = parse(path)
        for tag, link in html.links:
            u = urlsplit(link)
            if u.scheme or link.startswith("//"):
                continue
            if not u.path:
                target = path
            elif u.path.startswith("/"):  # the 404 page's links are root-relative
                target = site / unquote(u.path).lstrip("/")
            else:
                target = (path.parent / unquote(u.path)).resolve()
            if target.is_dir():
                target = target / "index.html"
            if not target.is_file():
                problems.append(f"{path.relative_to(site)}: {tag} {link}: no such file")
            elif u.fragment and target.suffix == ".html" and unquote(u.fragment) not in parse(target).ids:
                problems.append(f"{path.relative_to(site)}: {tag} {link}: no such anchor")
    return problems


@pytest.mark.parametrize("variant", ["site", "site-offline"])
def test_every_internal_link_and_anchor_resolves(built: Built, variant: str) -> None:
    site = built.out / variant
    assert (site / "index.html").is_file()
    assert broken_links(site) == []


def test_offline_build_works_from_files_without_a_network(built: Built) -> None:
    site = built.offline
    assert (site / "search" / "search_index.json").is_file()
    script = (site / "search" / "search_index.js").read_text("utf-8")
    assert script.startswith("var __index =")
    for game in ready(built.content):
        assert page(site, f"{game.id}/components.md", offline=True).is_file()  # no directory URLs
    for path in site.rglob("*.html"):
        for tag, link in parse(path).links:
            if tag in ("script", "link", "img"):
                assert not urlsplit(link).scheme.startswith("http"), f"{path}: loads {link} from the network"


def test_a_noop_rebuild_writes_nothing_and_skips_mkdocs(built: Built) -> None:
    before = fingerprint(built.site)
    started = time.perf_counter()
    again = build_site(built.content, built.out, offline=True, say=lambda _: None)
    elapsed = time.perf_counter() - started
    assert again.pages_written == 0 and again.files_removed == 0
    assert all(t is None for t in again.mkdocs_seconds.values())
    assert elapsed < 3, f"a no-op rebuild took {elapsed:.2f} s"
    assert fingerprint(built.site) == before


def test_same_content_gives_the_same_site(built: Built, tmp_path: Path) -> None:
    out = tmp_path / "again"
    for part in ("png", "print", "check"):
        if (built.out / part).is_dir():
            shutil.copytree(built.out / part, out / part)
    build_site(built.content, out, offline=False, say=lambda _: None)
    assert fingerprint(out / "docs") == fingerprint(built.out / "docs")
    assert fingerprint(out / "site") == fingerprint(built.site)


# --- escaping and content mistakes ------------------------------------------------------------

NASTY = "</title><script>alert('x')</script> A & B \"quoted\" *star* [link](http://x) {#id}"


def _card_face_file(content_dir: Path, game_id: str) -> tuple[Path, str] | None:
    """The first card whose title has the whole title band (no corner marks): a long hostile name
    must still fit it, since text that cannot fit is a content error."""
    for comp_file in sorted((content_dir / game_id / "components").glob("*.yaml")):
        data = yaml.safe_load(comp_file.read_text("utf-8"))
        front = data["faces"][0]["front"] if data.get("faces") else {}
        if data.get("kind") == "cards" and not front.get("corner") and not front.get("corner_left"):
            return comp_file, front["title"]
    return None


def test_content_text_is_shown_literally(tmp_path: Path) -> None:
    content_dir = copy_content(tmp_path)
    game, (comp_file, title) = next((g, found) for g in load_content(content_dir).games
                                    if g.game.status == "ready" and g.components and g.rules
                                    and (found := _card_face_file(content_dir, g.id)))
    text = comp_file.read_text("utf-8")
    # The face's own title line (a subtitle may end with the same words).
    line = re.compile(rf'^(\s*)title: "?{re.escape(title)}"?$', re.M)
    assert line.search(text)
    comp_file.write_text(line.sub(lambda m: f"{m.group(1)}title: {json.dumps(NASTY)}", text, count=1), "utf-8")
    game_yaml = content_dir / game.id / "game.yaml"
    meta = yaml.safe_load(game_yaml.read_text("utf-8"))
    meta["chapters"][-1]["title"] = NASTY  # chapter titles reach the navigation, which MkDocs does not escape
    game_yaml.write_text(yaml.safe_dump(meta, allow_unicode=True, sort_keys=False), "utf-8")
    rule = game.rules[0]
    rule_file = content_dir / game.id / "rules" / Path(rule.file).name
    rule_file.write_text(rule_file.read_text("utf-8") + "\n\nRaw <script>alert(2)</script> <img src=x onerror=alert(3)>"
                         " [js](javascript:alert(4)) and `<b>code</b>`\n", "utf-8")
    content = load_content(content_dir)
    out = tmp_path / "out"
    build_site(content, out, offline=False, say=lambda _: None)

    components = (page(out / "site", f"{game.id}/components.md")).read_text("utf-8")
    assert "<script>alert" not in components
    assert "&lt;script&gt;alert(" in components
    shown = Html(components).text
    assert NASTY in shown, "the card name is not shown literally"

    rules = page(out / "site", f"{game.id}/rules/{rule.meta.chapter}.md").read_text("utf-8")
    assert "<script>alert(2)" not in rules and "<img src=x" not in rules
    assert 'href="javascript:' not in rules
    assert "&lt;script&gt;alert(2)&lt;/script&gt;" in rules
    assert "<code>&lt;b&gt;code&lt;/b&gt;</code>" in rules

    for path in (out / "site").rglob("*.html"):
        raw = path.read_text("utf-8")
        assert "<script>alert" not in raw, f"{path}: raw script from content"
    nav_page = page(out / "site", f"{game.id}/rules/{meta['chapters'][-1]['id']}.md")
    shown = Html(nav_page.read_text("utf-8")).text
    assert NASTY in shown  # the page's heading: literal
    assert NASTY.replace("<", "\u2039").replace(">", "\u203a") in shown  # nav and <title>: no angle brackets
    assert broken_links(out / "site") == []


def test_a_rules_link_to_no_entry_is_a_located_content_error(tmp_path: Path) -> None:
    content_dir = copy_content(tmp_path)
    game = next(g for g in load_content(content_dir).games if g.game.status == "ready" and g.rules)
    rule_file = content_dir / game.id / "rules" / Path(game.rules[0].file).name
    lines = rule_file.read_text("utf-8").splitlines()
    lines.append("See [nowhere](#no-such-entry).")
    rule_file.write_text("\n".join(lines) + "\n", "utf-8")
    with pytest.raises(ContentError) as err:
        stage_site(load_content(content_dir), tmp_path / "out")
    assert err.value.file.endswith(rule_file.name)
    assert err.value.line == len(lines)
    assert "no-such-entry" in str(err.value)
