"""The site in a real browser: Debian's Chromium driven by Playwright (never a downloaded browser).

Search for "ramming", open the result, see a verified example with its diagram; do the same search
in the offline copy opened from file://; and save screenshots (phone and desktop, light and dark)
of the home page, a rules page, an example and a components page under build/screenshots/.

Without /usr/bin/chromium the test is skipped, unless ROADKIT_REQUIRE_BROWSER=1 (CI) makes that a
failure."""

from __future__ import annotations

import functools
import http.server
import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers import ROOT
from tests.test_site import Built, ready, scenarios, site_build

pytestmark = pytest.mark.browser

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
SHOTS = ROOT / "build" / "screenshots"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}
QUERY = "ramming"


def _unavailable(reason: str) -> None:
    if os.environ.get("ROADKIT_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{reason} (ROADKIT_REQUIRE_BROWSER=1 requires the browser test to run)")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    return site_build(tmp_path_factory.getbasetemp() / "site-build")


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if not CHROMIUM.is_file():
        _unavailable(f"{CHROMIUM} is missing: install Debian's chromium (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("the playwright Python package is not installed")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="module")
def server(built: Built) -> Iterator[str]:
    """build/site served on 127.0.0.1 (a free port) by the standard library."""

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(built.site)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()


def _new_page(browser, viewport: dict[str, int], scheme: str = "light"):
    context = browser.new_context(viewport=viewport, color_scheme=scheme)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return page, errors


def _search(page, query: str) -> list[tuple[str, str]]:
    """Type into Material's search box; return the (href, text) of the results."""
    box = page.locator("input.md-search__input")
    if not box.is_visible():  # phone widths hide the box behind the search icon
        page.locator("label.md-header__button[for='__search']").click()
    box.click()
    box.fill("")
    page.keyboard.type(query)
    page.wait_for_selector(".md-search-result__item", timeout=15_000)
    links = page.locator(".md-search-result__link")
    return [(links.nth(i).get_attribute("href") or "", links.nth(i).inner_text()) for i in range(links.count())]


# JavaScript: the verified example folded inside the rule entry at #<id> (between its h2 and the next).
_EXAMPLE_IN_ENTRY = """(id) => {
  for (let el = document.getElementById(id)?.nextElementSibling; el && el.tagName !== 'H2';
       el = el.nextElementSibling) {
    if (el.matches('details.rk-example--verified')) { el.id = el.id || 'rk-under-test'; return el.id; }
  }
  return null;
}"""


def test_search_ramming_opens_a_verified_example_with_its_diagram(browser, server: str) -> None:
    page, errors = _new_page(browser, DESKTOP)
    page.goto(server)
    results = _search(page, QUERY)
    entry = [href for href, _ in results if href.endswith(f"#{QUERY}")]
    assert entry, f"no search result leads to the #{QUERY} entry: {results[:5]}"
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
    page.screenshot(path=str(_shot("example-in-rule", "desktop")))
    assert errors == []


def test_offline_copy_searches_from_file_urls(browser, built: Built) -> None:
    page, errors = _new_page(browser, DESKTOP)
    page.goto((built.offline / "index.html").as_uri())
    results = _search(page, QUERY)
    assert any(href.startswith("file://") and f"#{QUERY}" in href for href, _ in results), results[:5]
    target = next(href for href, _ in results if href.endswith(f"#{QUERY}"))
    page.goto(target)
    assert page.locator(f"h2#{QUERY}").is_visible()
    assert errors == []


def _shot(name: str, width: str, scheme: str = "light") -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS / f"{name}-{width}{'-dark' if scheme == 'dark' else ''}.png"


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", ["phone", "desktop"])
def test_screenshots(browser, server: str, built: Built, width: str, scheme: str) -> None:
    games = [g for g in ready(built.content) if g.rules and g.components]
    game = next((g for g in games if any(r.id == QUERY for r in g.rules)), games[0])
    entry = next((r for r in game.rules if r.id == QUERY), game.rules[0])
    examples = scenarios(game)
    example = next((sc["id"] for sc in examples if sc.get("rule") == entry.id), examples[0]["id"] if examples else "")
    pages = {
        "home": "",
        "rule": f"{game.id}/rules/{entry.meta.chapter}/#{entry.id}",
        "example": f"{game.id}/examples/#{example}",
        "components": f"{game.id}/components/",
    }
    page, errors = _new_page(browser, PHONE if width == "phone" else DESKTOP, scheme)
    for name, path in pages.items():
        page.goto(server + path)
        page.wait_for_load_state("networkidle")
        # The page must fit the screen: nothing wider than the viewport but tables, which scroll.
        overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 1, f"{name} is {overflow}px wider than a {width} screen"
        page.screenshot(path=str(_shot(name, width, scheme)))
    assert errors == []
