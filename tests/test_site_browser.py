"""The site in a real browser: Debian's Chromium driven by Playwright (never a downloaded browser).

- Search: every player question of each game's tests.yaml finds its rule among the first three
  results, on the served site and on the offline copy opened from file://; rule numbers are
  searchable; results name their game and, on a game's pages, stay within it unless the reader
  says otherwise.
- Phones: at 390 px no page is wider than the screen, every table fits or scrolls with its first
  column held, no examples page is taller than ten screens, every diagram fits the column whole
  (scaled down where its 12 px text width is wider) with its smallest text at 10 px or more and
  none running off its edge; a tap on a diagram opens it full screen. At 1440 px every diagram
  fits too.
- Escaping: a glossary definition holding markup shows as text in its tooltip and runs nothing; a
  site built from Markdown texts full of link tricks (tests/link_tricks.py) runs no script when
  every link of its content is clicked, and every URL Chromium parses there has an allowed scheme.
- Screenshots (phone and desktop, light and dark) of a rule, an example, the quick reference and
  the odds under build/screenshots/.

Without /usr/bin/chromium the tests are skipped, unless ROADKIT_REQUIRE_BROWSER=1 (CI) makes that
a failure."""

from __future__ import annotations

import functools
import gzip
import http.server
import json
import threading
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml

from generators.content.loader import load_content
from generators.site.build import build_site
from generators.site.page_weight import TARGET, TEXT, first_load
from tests.helpers import ROOT, copy_content
from tests.site_helpers import (
    DESKTOP,
    NUMBERS,
    Built,
    finds_rule,
    new_page,
    page_url,
    player_pages,
    questions,
    ready,
    scenarios,
    serve,
)

pytestmark = pytest.mark.browser

SHOTS = ROOT / "build" / "screenshots"
PHONE = {"width": 390, "height": 844}
QUERY = "ramming"




# JavaScript: the result groups a reader sees, each the links shown (not folded under "more").
_RESULTS = """() => [...document.querySelectorAll('.md-search-result__item')].map(li =>
  [...li.querySelectorAll('a.md-search-result__link')].filter(a => !a.closest('details'))
    .map(a => ({href: a.href, tags: [...a.querySelectorAll('.md-tag')].map(t => t.textContent)})))"""


def _search(page, query: str) -> list[list[dict]]:
    """Type into the search box and return the result groups once the results for the whole query
    (not for a prefix typed on the way) are shown."""
    box = page.get_by_role("combobox").or_(page.locator("input.md-search__input")).first
    if page.viewport_size["width"] < 960:  # narrower screens hide the box behind the search icon
        page.locator("label.md-header__button[for='__search']").click()
    box.click()
    box.fill("")
    page.keyboard.type(query)
    # Material reads the box on keyup; characters off the keyboard layout (Cyrillic) are typed
    # as inserted text with no key events, so a key that changes nothing ends the typing.
    page.keyboard.press("End")
    page.wait_for_function("(q) => window.RK_SEARCH && window.RK_SEARCH.answered() === q", arg=query,
                           timeout=20_000)
    page.wait_for_timeout(100)  # Material renders the message it has just been handed
    return page.evaluate(_RESULTS)


def _finds_rule(built: Built, game, groups: list[list[dict]], rule_id: str, top: int = 3, lang: str = "") -> bool:
    return finds_rule(built.site, game, [[link["href"] for link in g] for g in groups], rule_id, top, lang)


@pytest.mark.parametrize("variant", ["served", "file"])
def test_player_questions_find_their_rule_in_the_top_three(browser, server: str, built: Built, variant: str) -> None:
    base = (built.site.as_uri() + "/") if variant == "file" else server
    page, errors = new_page(browser, DESKTOP)
    misses = []
    for game, items in questions(built):
        assert len(items) >= 6, f"{game.id}: keep at least six player questions"
        at = None
        for q in items:
            # A question in a translation's language is asked on that language's pages.
            lang = q.lang or ""
            url = page_url(base, f"{game.id}/{lang + '/' if lang else ''}quick-reference.md")
            if url != at:
                page.goto(url)
                at = url
            groups = _search(page, q.query)
            if not _finds_rule(built, game, groups, q.rule, lang=lang):
                shown = [[urlsplit(link["href"]).fragment or urlsplit(link["href"]).path for link in g]
                         for g in groups[:3]]
                misses.append(f"{game.id}: {q.query!r} -> {q.rule} not in the top three: {shown}")
    assert not misses, "\n".join(misses)
    assert errors == []


def test_rule_numbers_are_searchable(browser, server: str, built: Built) -> None:
    """A rule number finds its rule first, in the language of the page it is searched from: a
    translation's pages carry the same numbers ("ДР 5.4"), and the reader wants the one they read."""
    page, errors = new_page(browser, DESKTOP)
    misses = []
    for game in ready(built.content):
        for lang in ["", *(t.language for t in game.game.translations)]:
            page.goto(page_url(server, f"{game.id}/{lang + '/' if lang else ''}quick-reference.md"))
            numbers = json.loads((NUMBERS / f"{game.id}.json").read_text("utf-8"))
            for rule_id, number in sorted(numbers.items())[::4]:
                if not _finds_rule(built, game, _search(page, number), rule_id, top=1, lang=lang):
                    misses.append(f"{number} does not find {rule_id}{' (' + lang + ')' if lang else ''} first")
    assert not misses, "\n".join(misses)
    assert errors == []


def test_results_name_their_game_and_stay_within_it(browser, server: str, built: Built) -> None:
    games = {g.id: g.game.name for g in ready(built.content)}
    if len(games) < 2:
        pytest.skip("needs two ready games")
    page, errors = new_page(browser, DESKTOP)
    page.goto(server)
    groups = _search(page, "boss")
    folders = {urlsplit(g[0]["href"]).path.strip("/").split("/")[0] for g in groups}
    with_boss = {g.id for g in ready(built.content) if any("boss" in r.meta.title.lower() for r in g.rules)}
    assert with_boss <= folders, f"from the home page 'boss' should find every game with a boss: {folders}"
    for g in groups:
        folder = urlsplit(g[0]["href"]).path.strip("/").split("/")[0]
        if folder in games:
            assert games[folder] in [t for link in g for t in link["tags"]], f"a {folder} result does not name its game"
    game_id = sorted(with_boss)[0]  # a game where "boss" finds something
    page.goto(page_url(server, f"{game_id}/quick-reference.md"))
    scoped = _search(page, "boss")
    assert scoped and all(urlsplit(g[0]["href"]).path.strip("/").startswith(game_id) for g in scoped), \
        "on a game's page the results stay in that game"
    switch = page.get_by_label(f"Only {games[game_id]}")
    assert switch.is_checked()
    switch.uncheck()
    others_shown = """(own) => [...document.querySelectorAll('a.md-search-result__link')]
      .some(a => !new URL(a.href).pathname.replace(/^\\//, '').startsWith(own))"""
    page.wait_for_function(others_shown, arg=game_id, timeout=10_000)
    everywhere = page.evaluate(_RESULTS)
    others = {urlsplit(g[0]["href"]).path.strip("/").split("/")[0] for g in everywhere} - {game_id}
    assert others & set(games), "unticking the switch brings the other games back"
    assert errors == []


def test_a_result_matched_on_a_hidden_misspelling_shows_the_entry_not_the_list(browser, server: str,
                                                                               built: Built) -> None:
    """A rules entry's search-only words (misspellings, other forms) find it, and its result shows the
    entry's own text: the list of those words is in no result (it once was the result's text; the
    typed word itself may show, as Material's "Missing: <word>" under a neighbour)."""
    page, errors = new_page(browser, DESKTOP)
    for game in ready(built.content):
        index = json.loads((built.site / game.id / "search" / "search_index.json").read_text("utf-8"))
        text = " ".join(d["title"] + " " + d["text"] for d in index["docs"]).casefold()
        # A word found by the hidden words alone.
        words, typo = next((d["words"].split(), w) for d in index["docs"] if d.get("words")
                           for w in d["words"].split() if len(w) > 5 and w not in text)
        page.goto(page_url(server, f"{game.id}/quick-reference.md"))
        assert _search(page, typo), f"{game.id}: {typo!r} finds nothing"
        shown = page.locator(".md-search-result").inner_text()
        leaked = [w for w in words if w != typo and w not in text and w in shown.casefold()]
        assert not leaked, f"{game.id}: {typo!r} shows the hidden words {leaked[:5]}"
    assert errors == []


# JavaScript: the verified example folded inside the rule entry at #<id> (between its h2 and the next).
_EXAMPLE_IN_ENTRY = """(id) => {
  for (let el = document.getElementById(id)?.nextElementSibling; el && el.tagName !== 'H2';
       el = el.nextElementSibling) {
    if (el.matches('details.rk-example--verified')) { el.id = el.id || 'rk-under-test'; return el.id; }
  }
  return null;
}"""


def test_search_ramming_opens_a_verified_example_with_its_diagram(browser, server: str) -> None:
    page, errors = new_page(browser, DESKTOP)
    page.goto(server)
    groups = _search(page, QUERY)
    entry = [link["href"] for g in groups for link in g if urlsplit(link["href"]).fragment == QUERY]
    assert entry, f"no search result leads to the #{QUERY} entry: {groups[:3]}"
    page.goto(entry[0])
    assert page.locator(f"h2#{QUERY}").is_visible()
    example = page.evaluate(_EXAMPLE_IN_ENTRY, QUERY)
    assert example, f"no verified example inside the {QUERY} entry"
    details = page.locator(f"details#{example}")
    details.locator("summary").click()
    assert details.locator(".rk-status--verified").first.is_visible()
    diagram = details.locator(".rk-diagrams img").first
    diagram.scroll_into_view_if_needed()
    assert diagram.is_visible()
    page.wait_for_function("(img) => img.complete && img.naturalWidth > 0", arg=diagram.element_handle())
    assert errors == []


def test_a_diagram_opens_full_screen_and_closes(browser, server: str, built: Built) -> None:
    game = next(g for g in ready(built.content) if scenarios(g))
    page, errors = new_page(browser, PHONE)
    page.goto(page_url(server, f"{game.id}/examples/index.md"))
    page.locator("table a").first.click()
    link = page.locator("a.rk-zoom").first
    link.scroll_into_view_if_needed()
    link.click()
    dialog = page.locator("dialog.rk-lightbox[open]")
    dialog.wait_for(timeout=5000)
    img = dialog.locator("img")
    assert img.get_attribute("alt"), "the enlarged diagram has no alt text"
    page.wait_for_function("(img) => img.complete && img.naturalWidth > 0", arg=img.element_handle())
    assert img.bounding_box()["width"] >= float(link.locator("img").get_attribute("width"))
    page.keyboard.press("Escape")
    assert page.locator("dialog.rk-lightbox[open]").count() == 0
    assert errors == []


def test_offline_copy_searches_from_file_urls(browser, built: Built) -> None:
    page, errors = new_page(browser, DESKTOP)
    page.goto((built.offline / "index.html").as_uri())
    groups = _search(page, QUERY)
    hrefs = [link["href"] for g in groups for link in g]
    assert any(h.startswith("file://") and urlsplit(h).fragment == QUERY for h in hrefs), hrefs[:5]
    page.goto(next(h for h in hrefs if urlsplit(h).fragment == QUERY))
    assert page.locator(f"h2#{QUERY}").is_visible()
    assert errors == []


# --- phones -------------------------------------------------------------------------------------

# JavaScript: tables that do not fit their box, and whether the box scrolls with the first column held.
_TABLES = """() => [...document.querySelectorAll('.md-typeset table')].map(t => {
  const box = t.closest('.md-typeset__scrollwrap') || t.parentElement;
  const cell = t.querySelector('tr > :first-child');
  return {over: t.scrollWidth - box.clientWidth, scrolls: getComputedStyle(box).overflowX,
          sticky: cell ? getComputedStyle(cell).position : 'none', head: (t.rows[0]?.innerText || '').slice(0, 40)};
}).filter(t => t.over > 1)"""
# JavaScript: with every fold open, the diagrams that do not fit their column (cut or scrolling),
# and those shown narrower than both their 12 px text width and the column (shrunk for nothing).
_FIGURES = """() => {
  document.querySelectorAll('details').forEach(d => { d.open = true; });
  const col = document.querySelector('.md-content__inner').getBoundingClientRect();
  return [...document.querySelectorAll('.rk-fig img')].filter(i => i.offsetParent).map(i => {
    const r = i.getBoundingClientRect(), want = Number(i.getAttribute('width'));
    const cut = r.width > col.width + 1 || r.right > col.right + 1 || r.left < col.left - 1;
    const shrunk = r.width < Math.min(want, col.width) - 40;
    return {src: i.getAttribute('src').split('/').pop(), width: Math.round(r.width), want, cut, shrunk};
  }).filter(f => f.cut || f.shrunk);
}"""


def test_every_player_page_reads_on_a_phone(browser, server: str, built: Built) -> None:
    page, errors = new_page(browser, PHONE)
    problems = []
    checked_examples = 0
    for path in player_pages(built.site):
        rel = path.relative_to(built.site).as_posix()
        if rel == "404.html":
            continue
        page.goto(server + rel.removesuffix("index.html"))
        page.wait_for_load_state("load")
        wide = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
        if wide > 1:
            problems.append(f"{rel}: {wide}px wider than the phone")
        for t in page.evaluate(_TABLES):
            if t["scrolls"] not in ("auto", "scroll") or t["sticky"] != "sticky":
                problems.append(f"{rel}: table {t['head']!r} is cut off ({t})")
        if "/examples/" in rel and not rel.endswith("examples/index.html"):
            checked_examples += 1
            height = page.evaluate("() => document.documentElement.scrollHeight")
            if height > 10 * PHONE["height"]:
                problems.append(f"{rel}: {height / PHONE['height']:.1f} phone screens tall")
            for f in page.evaluate(_FIGURES):
                problems.append(f"{rel}: diagram {f['src']} does not fit the phone's column ({f})")
    assert checked_examples, "no examples pages checked"
    assert not problems, "\n".join(problems)
    assert errors == []


# The smallest diagram text any game's examples pages may show at 390 px, in CSS px (measured: every
# drawing sizes its text from its width, generators/rules/svg.py `readable`). Before that work the
# smallest were 3.7 (Дроноводи), 4.1, 9.8, 4.5 and 5.3 px.
MIN_DIAGRAM_TEXT = 10.0
# JavaScript: each diagram drawn inline at the width its picture is shown: its smallest text in CSS
# px, and every line of status text (the drawings' captions, panels and status lines, drawn from
# their start) that runs past the drawing's edges: cut, as the picture shows only the drawing. A
# map's labels (centred) may run off a zoomed window's edge with the road they name.
_DIAGRAM_TEXT = """async () => {
  document.querySelectorAll('details').forEach(d => { d.open = true; });
  const out = [];
  for (const img of [...document.querySelectorAll('.rk-fig img')].filter(i => i.offsetParent)) {
    const shown = img.getBoundingClientRect().width;
    const box = document.createElement('div');
    box.style.cssText = `position:absolute;left:-20000px;top:0;width:${shown}px`;
    box.innerHTML = await (await fetch(img.src)).text();
    document.body.appendChild(box);
    const svg = box.querySelector('svg');
    svg.setAttribute('width', shown);
    svg.removeAttribute('height');
    const view = svg.viewBox.baseVal, scale = shown / view.width;
    let least = Infinity;
    const cut = [];
    for (const t of svg.querySelectorAll('text')) {
      if (!t.textContent.trim()) continue;
      least = Math.min(least, parseFloat(t.getAttribute('font-size')) * scale);
      const b = t.getBBox();
      const off = b.x < view.x - 1 || b.x + b.width > view.x + view.width + 1 || b.y < view.y - 1
        || b.y + b.height > view.y + view.height + 1;
      if (t.getAttribute('text-anchor') === 'start' && off) cut.push(t.textContent);
    }
    box.remove();
    out.push({src: img.getAttribute('src').split('/').pop(), least, cut});
  }
  return out;
}"""


def test_diagram_text_reads_on_a_phone(browser, server: str, built: Built) -> None:
    """At 390 px every diagram on every examples page shows its smallest text at least at its game's
    MIN_DIAGRAM_TEXT px, and no text runs off a drawing's edge."""
    page, errors = new_page(browser, PHONE)
    problems, least = [], {}
    for game in ready(built.content):
        for path in sorted((built.site / game.id / "examples").glob("*.html")):
            if path.name == "index.html":
                continue
            page.goto(server + path.relative_to(built.site).as_posix())
            for d in page.evaluate(_DIAGRAM_TEXT):
                if d["least"] < least.get(game.id, (float("inf"),))[0]:
                    least[game.id] = (d["least"], f"{path.name}: {d['src']}")
                problems += [f"{game.id}/{path.name}: {d['src']} cuts {t!r}" for t in d["cut"]]
    print({g: f"{px:.2f} px ({where})" for g, (px, where) in sorted(least.items())})
    assert least, "no diagram measured"
    for g, (px, where) in least.items():
        if px < MIN_DIAGRAM_TEXT - 0.01:
            problems.append(f"{g}: the smallest diagram text is {px:.2f} px at 390 px ({where})")
    assert not problems, "\n".join(problems[:40])
    assert errors == []


def test_diagrams_fit_the_desktop_column(browser, server: str, built: Built) -> None:
    """At 1440 px every diagram shows whole in the column, at its 12 px text width where that fits."""
    page, errors = new_page(browser, DESKTOP)
    problems, checked = [], 0
    for path in player_pages(built.site):
        rel = path.relative_to(built.site).as_posix()
        if "/examples/" not in rel or rel.endswith("examples/index.html"):
            continue
        page.goto(server + rel)
        checked += 1
        problems += [f"{rel}: diagram {f['src']} ({f})" for f in page.evaluate(_FIGURES)]
    assert checked, "no examples pages checked"
    assert not problems, "\n".join(problems)
    assert errors == []


# A quick reference is for a phone at the table: its answers end within this many screens.
QUICK_SCREENS = 1.5


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_quick_reference_fits_a_screen_and_a_half(browser, server: str, built: Built, viewport: dict) -> None:
    """Each quick reference, its last answer and the links after it, ends within 1.5 screens (at
    390×844 on a phone, at 1440×900 on a desktop)."""
    page, errors = new_page(browser, viewport)
    tall = {}
    for game in ready(built.content):
        page.goto(page_url(server, f"{game.id}/quick-reference.md"))
        assert page.locator(".rk-quick h2").count() >= 3, f"{game.id}: no answers on the quick reference"
        bottom = page.evaluate("() => document.querySelector('article').getBoundingClientRect().bottom + scrollY")
        if bottom > QUICK_SCREENS * viewport["height"]:
            tall[game.id] = f"{bottom / viewport['height']:.2f} screens"
    assert not tall, f"quick references taller than {QUICK_SCREENS} screens at {viewport['width']} px: {tall}"
    assert errors == []


# An overview is read once: the figures at a glance and the pages, details folded, within this many
# phone screens.
OVERVIEW_SCREENS = 3


def test_overview_fits_three_phone_screens_with_its_details_folded(browser, server: str, built: Built) -> None:
    """Each game's overview ends within three screens at 390×844 (its article, folds closed), says how
    often the careful player wins in words, and folds every figure's games and 95 % range."""
    page, errors = new_page(browser, PHONE)
    tall, missing = {}, []
    for game in ready(built.content):
        page.goto(page_url(server, f"{game.id}/index.md"))
        bottom = page.evaluate("() => document.querySelector('article').getBoundingClientRect().bottom + scrollY")
        if bottom > OVERVIEW_SCREENS * PHONE["height"]:
            tall[game.id] = f"{bottom / PHONE['height']:.2f} screens"
        text = page.locator("article").inner_text()
        folds = page.locator("article details:not([open]) > summary").all_inner_texts()
        if "the careful player" not in text and "wins most" not in text:
            missing.append(f"{game.id}: no figures at a glance")
        if not any("95 % range" in f for f in folds):
            missing.append(f"{game.id}: no folded figures with their 95 % ranges ({folds})")
    assert not tall, f"overviews taller than {OVERVIEW_SCREENS} phone screens: {tall}"
    assert not missing, missing
    assert errors == []


# --- weight -------------------------------------------------------------------------------------


class _Wire:
    """A static server that compresses text as web hosts do (gzip) and counts the bytes it sends."""

    def __init__(self, folder: Path):
        self.sent: list[tuple[str, int]] = []
        wire = self

        class Handler(http.server.SimpleHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_GET(self) -> None:
                path = Path(self.translate_path(self.path))
                if not path.is_file():
                    self.send_error(404)
                    return
                body = path.read_bytes()
                packed = path.suffix in TEXT and "gzip" in self.headers.get("Accept-Encoding", "")
                if packed:
                    body = gzip.compress(body, 6, mtime=0)
                self.send_response(200)
                self.send_header("Content-Type", self.guess_type(str(path)))
                if packed:
                    self.send_header("Content-Encoding", "gzip")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                wire.sent.append((urlsplit(self.path).path, len(body)))

        handler = functools.partial(Handler, directory=str(folder))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def _kinds(built: Built, game_id: str) -> list[str]:
    """One page of each kind of a game's: overview, quick reference, components, a rules chapter,
    the examples list and an examples page (site-relative)."""
    folder = built.site / game_id
    rules = sorted((folder / "rules").glob("*.html"))[:1]
    examples = [p for p in sorted((folder / "examples").glob("*.html")) if p.name != "index.html"][:1]
    names = ["index.html", "quick-reference.html", "components.html", "examples/index.html"]
    return [f"{game_id}/{n}" for n in names if (folder / n).is_file()] + \
        [p.relative_to(built.site).as_posix() for p in rules + examples]


def test_every_player_page_is_light_on_first_load(browser, built: Built) -> None:
    """Each player page, estimated from its files, and one page of each kind per game plus the hub
    and the heaviest estimate, loaded in a fresh browser at phone and desktop width (lazy images
    that show included): at most 500 KB transferred, the game's own search index included, and a
    game's page never loads the index of every game."""
    cache: dict[Path, int] = {}
    estimates = {w.page: w.total for w in (first_load(built.site, p, cache) for p in player_pages(built.site))}
    heavy = [p for p, n in estimates.items() if n > TARGET]
    assert not heavy, f"over {TARGET} bytes from their files alone: {heavy}"
    pages = ["index.html", max(estimates, key=lambda p: estimates[p])]
    pages += [p for g in ready(built.content) for p in _kinds(built, g.id)]
    wire = _Wire(built.site)
    problems, measured = [], {}
    try:
        for rel in dict.fromkeys(pages):
            for viewport in (PHONE, DESKTOP):
                context = browser.new_context(viewport=viewport)
                page = context.new_page()
                wire.sent.clear()
                page.goto(wire.url + rel)
                page.wait_for_load_state("networkidle")
                total = sum(n for _, n in wire.sent)
                measured[(rel, viewport["width"])] = total
                if total > TARGET:
                    problems.append(f"{rel} at {viewport['width']} px: {total / 1000:.0f} KB "
                                    f"({sorted(wire.sent, key=lambda s: -s[1])[:4]})")
                indexes = [path for path, _ in wire.sent if path.endswith("search_index.json")]
                game = rel.split("/")[0] if "/" in rel else ""
                if indexes != [f"/{game}/search/search_index.json" if game else "/search/search_index.json"]:
                    problems.append(f"{rel}: loads the search indexes {indexes}")
                context.close()
    finally:
        wire.close()
    assert len(measured) >= 2 * len(ready(built.content)) * 4
    assert not problems, "\n".join(problems)


def test_no_page_requests_a_missing_file(browser, built: Built) -> None:
    """Every page of a game with translations (its English and its other languages' pages: Material's
    language switch fetches a sitemap beside each language's link), one page of each kind of every
    other game and the hub's pages: loaded served, nothing they fetch is missing."""
    site = built.site
    pages = ["index.html", "about.html"]
    for g in ready(built.content):
        if g.translations:
            pages += [p.relative_to(site).as_posix() for p in sorted((site / g.id).rglob("*.html"))
                      if "authors" not in p.name]
        else:
            pages += _kinds(built, g.id)
    assert any("/uk/" in p for p in pages), "no translated page to load"
    httpd, url = serve(site)
    page, errors = new_page(browser, DESKTOP)
    missing: list[str] = []
    page.on("response", lambda r: r.status >= 400 and missing.append(f"{r.status} {r.url}"))
    try:
        for rel in pages:
            page.goto(url + rel)
            page.wait_for_load_state("networkidle")
            assert not missing, f"{rel} requests missing files: {missing}"
    finally:
        httpd.shutdown()
        httpd.server_close()
    assert errors == []


# --- accessibility ------------------------------------------------------------------------------

# JavaScript: with every fold open, what a screen reader or a keyboard user would stumble on.
_A11Y = """() => {
  document.querySelectorAll('details').forEach(d => { d.open = true; });
  const out = [];
  const article = document.querySelector('article') || document.body;
  let last = 1;
  for (const h of article.querySelectorAll('h1, h2, h3, h4, h5, h6')) {
    const level = Number(h.tagName[1]);
    if (level > last + 1) out.push(`heading h${last} -> h${level}: ${h.textContent.trim().slice(0, 40)}`);
    last = level;
  }
  for (const img of document.querySelectorAll('.rk-fig img'))
    if (!(img.getAttribute('alt') || '').trim()) out.push(`diagram without alt text: ${img.getAttribute('src')}`);
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const n = walker.currentNode, el = n.parentElement;
    if (!/[\u0400-\u04FF]/.test(n.nodeValue) || !el || el.closest('script, style')) continue;
    if ((el.closest('[lang]') || document.documentElement).lang !== 'uk')
      out.push(`Cyrillic without lang="uk": ${n.nodeValue.trim().slice(0, 40)}`);
  }
  for (const b of document.querySelectorAll('.rk-badge')) {
    const size = parseFloat(getComputedStyle(b).fontSize);
    if (b.offsetParent && size < 12) out.push(`badge in ${size.toFixed(1)} px type: ${b.textContent}`);
  }
  return out;
}"""


def test_pages_of_each_kind_read_with_assistive_technology(browser, server: str, built: Built) -> None:
    """One page of each kind per game: headings without gaps, every diagram described in words,
    Ukrainian marked as Ukrainian, badges in type of at least 12 px."""
    page, errors = new_page(browser, DESKTOP)
    problems = []
    for game in ready(built.content):
        kinds = ["index.html", "quick-reference.html", "components.html", "glossary.html"]
        kinds += [p.relative_to(built.site / game.id).as_posix() for p in
                  sorted((built.site / game.id / "rules").glob("*.html"))[:1]]
        kinds += [p.relative_to(built.site / game.id).as_posix() for p in
                  sorted((built.site / game.id / "examples").glob("*.html")) if p.name != "index.html"][:2]
        for rel in kinds:
            if not (built.site / game.id / rel).is_file():
                continue
            page.goto(f"{server}{game.id}/{rel}")
            problems += [f"{game.id}/{rel}: {p}" for p in page.evaluate(_A11Y)]
    assert not problems, "\n".join(problems[:40])
    assert errors == []


AXE = ROOT / "tests" / "vendor" / "axe-core" / "axe.min.js"
# JavaScript: axe-core's serious and critical violations on the page, with every fold open.
_AXE_RUN = """async () => {
  document.querySelectorAll('details').forEach(d => { d.open = true; });
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
    .map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.length,
                first: v.nodes[0].target.join(' ') + ': ' + (v.nodes[0].failureSummary || '').slice(0, 160)}));
}"""


# Every kind of page a game has (a rules chapter and an examples page stand for theirs).
_KINDS = ("index.html", "quick-reference.html", "components.html", "glossary.html", "notes.html",
          "turn-summary.html", "examples/index.html", "rules/", "examples/")


def _page_of_kind(built: Built, game_id: str, kind: str) -> str | None:
    folder = built.site / game_id
    if kind.endswith("/"):
        found = [p for p in sorted((folder / kind).glob("*.html")) if p.name != "index.html"][:1]
        return found[0].relative_to(built.site).as_posix() if found else None
    return f"{game_id}/{kind}" if (folder / kind).is_file() else None


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_axe_finds_no_serious_violation_on_every_kind_of_page(browser, server: str, built: Built,
                                                             viewport: dict, scheme: str) -> None:
    """axe-core (vendored, tests/vendor/axe-core) on every kind of page, phone and desktop, light and
    dark, and with the search panel open on its results: no serious or critical violation. Each run
    takes every kind once, from a game that turns with the run, so that all games are covered."""
    axe = AXE.read_text("utf-8")
    page, errors = new_page(browser, viewport, scheme)
    games = [g.id for g in ready(built.content)]
    turn = [PHONE, DESKTOP].index(viewport) * 2 + ["light", "dark"].index(scheme)
    pages = ["index.html", "about.html"]
    pages += [p for i, kind in enumerate(_KINDS) if (p := _page_of_kind(built, games[(i + turn) % len(games)], kind))]
    problems, checked = [], 0
    for rel in pages:
        page.goto(server + rel)
        page.wait_for_load_state("load")
        page.add_script_tag(content=axe)
        checked += 1
        problems += [f"{rel}: {v['impact']} {v['id']} ({v['nodes']}): {v['first']}" for v in page.evaluate(_AXE_RUN)]
    assert checked >= 2 + len(_KINDS), "a page of some kind is missing"
    game = games[turn % len(games)]
    page.goto(page_url(server, f"{game}/components.md"))
    first = next(g for g in built.content.games if g.id == game).rules[0].meta.title  # a word its pages hold
    groups = _search(page, first.split()[0])
    assert groups, f"{game}: the search panel shows no results to check"
    page.add_script_tag(content=axe)
    problems += [f"{game} search open: {v['impact']} {v['id']} ({v['nodes']}): {v['first']}"
                 for v in page.evaluate(_AXE_RUN)]
    assert not problems, "\n".join(problems)
    assert errors == []


# --- escaping -----------------------------------------------------------------------------------

PAYLOAD = 'Plain words <img src=x onerror="window.__xss=1"> & <script>window.__xss=2</script> <b>not bold</b>.'


def test_a_tooltip_shows_markup_in_its_definition_as_text(browser, tmp_path: Path) -> None:
    content_dir = copy_content(tmp_path)
    game = next(g for g in load_content(content_dir).games if g.game.status == "ready" and g.glossary.terms)
    glossary = content_dir / game.id / "glossary.yaml"
    data = yaml.safe_load(glossary.read_text("utf-8"))
    for term in data["terms"]:
        term["definition"] = PAYLOAD
    glossary.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "utf-8")
    out = tmp_path / "out"
    build_site(load_content(content_dir), out, say=lambda _: None)
    chapter = next(p for p in sorted((out / "site" / game.id / "rules").rglob("*.html"))
                   if "<abbr" in p.read_text("utf-8"))
    httpd, base = serve(out / "site")
    try:
        page, errors = new_page(browser, DESKTOP)
        page.goto(base + chapter.relative_to(out / "site").as_posix().removesuffix("index.html"))
        term = page.locator("article abbr").first
        term.scroll_into_view_if_needed()
        term.hover()
        tip = page.locator(".md-tooltip2, .md-tooltip").filter(has_text="Plain words").first
        tip.wait_for(state="visible", timeout=5000)
        page.wait_for_timeout(300)
        assert page.evaluate("() => window.__xss") is None, "script from a definition ran"
        assert tip.locator("img, script, b").count() == 0, "markup from a definition became elements"
        shown = " ".join(tip.inner_text().split()).replace("\u2060", "")
        assert "<img src=x" in shown and "<b>not bold</b>" in shown, shown
        assert errors == []
    finally:
        httpd.shutdown()
        httpd.server_close()


# JavaScript: every URL in the page's content, as Chromium parsed it.
_CONTENT_URLS = """() => [...document.querySelectorAll('article [href], article [src], article [action]')]
  .map(e => e.href?.baseVal ?? e.href ?? e.src ?? e.action)"""


def test_every_link_of_a_site_built_from_link_tricks_runs_no_script(browser, tmp_path: Path) -> None:
    """Link tricks in every kind of Markdown text (a rules body, a ruling, a glossary definition, a
    quick-reference card), built without validation (which refuses them) so the page's own check is
    what stands between them and a reader; then every link of every page is clicked."""
    from tests.link_tricks import attempts

    chosen = next(g for g in ready(load_content(ROOT / "content")) if (Path(g.dir) / "quick-reference.yaml").is_file())
    game = chosen.id
    content_dir = copy_content(tmp_path, (game,))
    from generators.site import safe_links
    from generators.site.escape import markdown_body

    def relative(trick: str) -> list[tuple[str, str]]:
        """The relative links the trick makes, in any shape (`&#0;javascript:` is one: the reference
        reads as U+FFFD, so the target has no scheme)."""
        return safe_links.forbidden_links(markdown_body(trick),
                                          lambda u: "relative" if safe_links.relative(u) else None)

    # Raw control characters are refused when a file is read (their entity spellings stay in), and a
    # relative link that names no page stops the build.
    tricks = [t for t in attempts(seed=4141, count=80)
              if not any(ord(c) < 32 and c != "\n" for c in t) and not relative(t)
              and not relative(" ".join(t.split()))]  # as a glossary definition: on one line
    assert len(tricks) > 50
    folder = content_dir / game
    rules = sorted((folder / "rules").glob("*.md"))
    for i, trick in enumerate(tricks):
        rule = rules[i % len(rules)]
        rule.write_text(rule.read_text("utf-8") + f"\n\n{trick}\n", "utf-8")
    indent = "\n      "
    notes = "\n\n".join(tricks[:10]).replace("\n", indent)
    (folder / "notes.yaml").write_text((folder / "notes.yaml").read_text("utf-8").rstrip() + "\n"
                                       "  - id: zz-tricks\n    title: Tricks?\n    section: None\n    settles: kit\n"
                                       f"    text: |-{indent}**The book says:** nothing.{indent}{indent}"
                                       f"**We play:** {notes}\n", "utf-8")
    for name, head in (("glossary.yaml", "  - term: Zz tricks\n    definition: |-"),
                       ("quick-reference.yaml", f"  - title: Zz tricks\n    rule: {chosen.rules[0].id}\n    text: |-")):
        text = "\n\n".join(tricks[10:30]).replace("\n", indent)
        (folder / name).write_text((folder / name).read_text("utf-8").rstrip() + f"\n{head}{indent}{text}\n", "utf-8")
    out = tmp_path / "out"
    build_site(load_content(content_dir), out, say=lambda _: None)
    pages = sorted((out / "site").rglob("*.html"))
    assert any("Zz tricks" in p.read_text("utf-8") for p in pages)
    httpd, base = serve(out / "site")
    ran: list[str] = []
    clicked = 0
    try:
        page, _errors = new_page(browser, DESKTOP)
        page.on("dialog", lambda d: (ran.append(f"{page.url}: {d.message}"), d.dismiss()))
        page.on("popup", lambda p: ran.append(f"popup {p.url}"))
        # A click on a link to a document (http, https, file, mailto: the site's own pages, each also
        # visited here) is kept from leaving the page; a link with any other scheme gets its click.
        page.add_init_script("""addEventListener('click', e => {
          const a = e.target.closest('a');
          if (a && ['http:', 'https:', 'file:', 'mailto:'].includes(a.protocol)) e.preventDefault();
        }, true)""")
        for html_file in pages:
            url = base + html_file.relative_to(out / "site").as_posix()
            page.goto(url)
            for found in page.evaluate(_CONTENT_URLS):
                assert urlsplit(found).scheme in ("http", "https", "mailto", "file", ""), f"{url}: {found}"
            clicked += page.evaluate("() => { const all = [...document.querySelectorAll('article a')];"
                                     " all.forEach(a => a.click()); return all.length; }")
            page.wait_for_timeout(50)
            assert page.evaluate("() => document.title") and page.url.split("#")[0] == url
    finally:
        httpd.shutdown()
        httpd.server_close()
    assert clicked > 100
    assert ran == []


# --- screenshots --------------------------------------------------------------------------------


def _shot(name: str, width: str, scheme: str = "light") -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS / f"{name}-{width}{'-dark' if scheme == 'dark' else ''}.png"


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", ["phone", "desktop"])
def test_screenshots(browser, server: str, built: Built, width: str, scheme: str) -> None:
    games = [g for g in ready(built.content) if g.rules and g.components]
    game = next((g for g in games if any(r.id == QUERY for r in g.rules)), games[0])
    entry = next((r for r in game.rules if r.id == QUERY), game.rules[0])
    example = next((sc["id"] for sc in scenarios(game) if sc.get("rule") == entry.id), None)
    odds_game = next((g for g in games if (built.site / g.id / "odds.html").is_file()), game)
    example_page = next(p for p in sorted((built.site / game.id / "examples").rglob("*.html"))
                        if example and f'id="{example}"' in p.read_text("utf-8"))
    pages = {
        "home": "index.html",
        "rule": f"{game.id}/rules/{entry.meta.chapter}.html#{entry.id}",
        "example": example_page.relative_to(built.site).as_posix() + f"#{example}",
        "quick-reference": f"{game.id}/quick-reference.html",
        "odds": f"{odds_game.id}/odds.html",
        "components": f"{game.id}/components.html",
    }
    page, errors = new_page(browser, PHONE if width == "phone" else DESKTOP, scheme)
    for name, path in pages.items():
        page.goto(server + path)
        page.wait_for_load_state("networkidle")
        overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 1, f"{name} is {overflow}px wider than a {width} screen"
        page.screenshot(path=str(_shot(name, width, scheme)))
    assert errors == []
