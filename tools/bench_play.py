"""The Play pages in the benchmark: what a Play page downloads (Pyodide, the engine zip, the game's
content and examples; gzip for text as servers send it, the WebAssembly as it is) beside the site's
other pages, and, in headless Chromium over HTTP on this machine, the time from opening the page to
the first choice offered and the time the computer takes for a move (its budget is about a second)."""

from __future__ import annotations

import functools
import gzip
import http.server
import re
import threading
import time
from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
BOOT_MS = 300_000


def _sent(path: Path) -> int:
    data = path.read_bytes()
    return len(data) if path.suffix in (".wasm", ".zip") else len(gzip.compress(data, 6))


def play_weight(site: Path) -> list[str]:
    """Lines: the bytes each Play page loads beyond an ordinary page, by part."""
    pages = sorted(site.glob("*/play.html"))
    if not pages:
        return ["Play pages: none in this site (build/play/ was not made)"]
    out = ["Play pages (first load beyond an ordinary page; gzip for text, WebAssembly and zips as they are):"]
    for page in pages:
        html = page.read_text("utf-8")
        found = dict(re.findall(r'data-(pyodide|engine-zip|content|examples)="([^"]+)"', html))
        pyodide = (page.parent / found["pyodide"]).resolve()
        parts = {
            "Pyodide": sum(_sent(p) for p in pyodide.iterdir() if p.is_file()),
            "engine": _sent((page.parent / found["engine-zip"]).resolve()),
            "content": _sent(page.parent / found["content"]),
            "examples": _sent(page.parent / found["examples"]),
            # Where the page loads them from: the site's one assets/ folder (shared_assets.py).
            "page and scripts": _sent(page) + sum(_sent((page.parent / n).resolve()) for n in re.findall(
                r'(?:src|data-worker)="([^"]*play(?:-worker)?\.js)"', html)),
        }
        out.append(f"  {page.parent.name:<32}{sum(parts.values()) / 1e6:6.2f} MB: "
                   + ", ".join(f"{k} {v / 1000:.0f} KB" for k, v in parts.items()))
    return out


def play_times(site: Path, games: int | None = None) -> list[str]:
    """Lines: seconds to the first choice and per computer move, each game's Play page in Chromium."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return ["Play page times: playwright is not installed"]
    if not CHROMIUM.is_file():
        return [f"Play page times: {CHROMIUM} is missing"]

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{httpd.server_address[1]}/"
    out = ["Play page times in headless Chromium (a fresh browser: Pyodide downloaded, compiled, the engine "
           "imported; the computer at its default budget of about a second a move):"]
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox", "--disable-gpu"])
            try:
                for page_path in sorted(site.glob("*/play.html"))[:games]:
                    out.append(_time_one(browser, base + f"{page_path.parent.name}/play.html"))
            finally:
                browser.close()
    finally:
        httpd.shutdown()
        httpd.server_close()
    return out


def _time_one(browser, url: str) -> str:
    context = browser.new_context()
    page = context.new_page()
    started = time.perf_counter()
    page.goto(url + "#game=" + '{"seed":1}')
    page.wait_for_selector("#rk-play[data-busy='0'][data-state]", timeout=BOOT_MS)
    first = time.perf_counter() - started
    moves, spent = 0, 0.0
    for _ in range(8):  # a few of the player's choices, and the computer's moves they bring
        if page.get_attribute("#rk-play", "data-state") != "you":
            break
        before = page.locator(".rk-play-log > li.rk-by-computer").count()
        clicked = time.perf_counter()
        page.locator(".rk-choice").first.click()
        page.wait_for_selector("#rk-play[data-busy='0']", timeout=BOOT_MS)
        made = page.locator(".rk-play-log > li.rk-by-computer").count() - before
        if made > 0:
            moves += made
            spent += time.perf_counter() - clicked
    context.close()
    name = url.rsplit("/", 2)[-2]
    per = f"{spent / moves:.2f} s a computer move ({moves} moves)" if moves else "no computer move (a solo game)"
    return f"  {name:<32}first choice after {first:5.1f} s; {per}"
