"""The Play pages in a real Chromium over HTTP: each game played to its end from its page by clicking
choices (the engine in Pyodide, in a Web Worker), with undo, a reload that resumes the game, a hint
with its figures, every change of a figure the log tells (the check the examples pages pass), and
nothing a seat may not see in what the worker sends or in the page; from file:// the page explains
why it cannot play."""

from __future__ import annotations

import itertools
import json
import random
import re
from typing import Any
from urllib.parse import quote

import pytest

from generators.content.model import LoadedGame
from generators.play.table import Session
from generators.rules.contract import Figure, Place, load_engine
from generators.rules.facts import game_content
from tests.play_helpers import finished
from tests.site_helpers import Built, new_page, ready, scenarios
from tests.told_changes import untold

pytestmark = pytest.mark.browser

THINK = 0.05  # the computer's think time a move here: the game's moves, not its strength, are tested
CLICKS = 600  # the most choices one game takes before the test calls it stuck
BOOT_MS = 180_000  # Pyodide's first start on a busy 2-core machine
PAGE_KEYS = {"computer_to_act", "undo", "saved", "link", "people", "notice"}  # what the worker adds for the page

# Every message the worker posts, as the page receives it (recorded before the page's own script runs).
RECORD = """(() => {
  window.__rkMessages = [];
  const Base = window.Worker;
  window.Worker = class extends Base {
    set onmessage(f) { super.onmessage = (e) => { window.__rkMessages.push(e.data); f(e); }; }
    get onmessage() { return super.onmessage; }
  };
})();"""




def _games(built: Built) -> list[Any]:
    return [g for g in ready(built.content) if g.game.engine]


def _wait(page: Any) -> str:
    page.wait_for_selector("#rk-play[data-busy='0'][data-state]", timeout=BOOT_MS)
    state = page.get_attribute("#rk-play", "data-state")
    assert state != "error", page.inner_text(".rk-play-status")
    return str(state)


def _views(page: Any) -> list[dict[str, Any]]:
    out = []
    for m in page.evaluate("window.__rkMessages"):
        assert set(m) <= {"id", "result", "error"}, f"the worker sent more than a call's answer: {sorted(m)}"
        assert "error" not in m, m["error"]
        data = json.loads(m["result"])
        if isinstance(data, dict) and "svg" in data:
            out.append(data)
    return out


def _figures(view: dict[str, Any]) -> dict[Figure, int | Place]:
    return {Figure(f["piece"], f["name"]): f["value"] if isinstance(f["value"], int) else Place(f["value"], f["value"])
            for f in view["figures"]}


def _lines(entries: list[dict[str, Any]]) -> list[str]:
    return [line for e in entries for line in (e["said"], *e["then"])]


def test_every_game_plays_to_its_end_from_its_play_page(browser: Any, server: str, built: Built) -> None:
    games = _games(built)
    pages = sorted(p.parent.name for p in built.site.glob("*/play.html"))  # every game's Play page, none left out
    assert games and sorted(g.id for g in games) == pages, ([g.id for g in games], pages)
    for game in games:
        _play_one(browser, server, game)


def _play_one(browser: Any, server: str, game: LoadedGame) -> None:
    page, errors = new_page(browser, {"width": 1280, "height": 900})
    page.add_init_script(RECORD)
    url = f"{server}{game.id}/play.html?think={THINK}"
    page.goto(url + "#game=" + json.dumps({"seed": 11}))
    state = _wait(page)
    rng = random.Random(game.id)
    clicks = undone = resumed = hinted = 0
    while state != "over":
        assert clicks < CLICKS, f"{game.id}: not over after {CLICKS} choices"
        buttons = page.locator(".rk-choice")
        assert buttons.count() > 0, f"{game.id}: the page waits for a choice but offers none"
        if clicks == 3 and not hinted:
            page.click("text=Hint")
            _wait(page)
            hint = page.inner_text(".rk-play-hint")
            assert "simulations" in hint and "tried in" in hint, hint
            hinted = 1
        if clicks == 5 and not undone:
            log_before = page.locator(".rk-play-log > li").count()
            choices_before = buttons.all_inner_texts()
            buttons.nth(rng.randrange(buttons.count())).click()
            _wait(page)
            page.click("text=Undo")
            _wait(page)
            assert page.locator(".rk-play-log > li").count() == log_before, f"{game.id}: undo left the log longer"
            assert page.locator(".rk-choice").all_inner_texts() == choices_before, f"{game.id}: undo's choices"
            undone = 1
        if clicks == 8 and not resumed:
            log_text = page.inner_text(".rk-play-log")
            page.reload()
            state = _wait(page)
            assert page.inner_text(".rk-play-log") == log_text, f"{game.id}: the reload did not resume the game"
            resumed = 1
            continue
        buttons.nth(rng.randrange(buttons.count())).click()
        clicks += 1
        state = _wait(page)
    assert undone and resumed and hinted, f"{game.id}: over after {clicks} choices, before undo, reload and hint"
    assert "Game over" in page.inner_text(".rk-play-status")
    views = _views(page)
    told = 0
    for before, after in itertools.pairwise(views):
        if after["log"][:len(before["log"])] != before["log"]:
            continue  # an undo or a new start: no step between them
        new = after["log"][len(before["log"]):]
        bad = untold(_figures(before), _figures(after), _lines(new))
        assert not bad, f"{game.id}: {bad}; the lines: {_lines(new)}"
        told += sum(1 for f, v in _figures(before).items() if _figures(after).get(f, v) != v)
    assert told > 0, f"{game.id}: no figure changed in a whole game: the check would pass vacuously"
    # The same game replayed here: the worker sent the seat's table view, and no chance result the game
    # says no seat sees (a shuffled order) is in it or on the page.
    engine = load_engine(game.game.engine)
    session = Session.resume(engine, game_content(game, engine), views[-1]["saved"])
    seat = views[-1]["seat"]
    mine = session.view(seat)
    # A finished game resumed has no seats left to find (table.seats_of looks ahead from the end): its
    # seats are compared while it was going on, in every earlier view's `seat`, below.
    assert set(views[-1]) - PAGE_KEYS == set(mine), f"{game.id}: parts beyond the table view: {sorted(views[-1])}"
    differ = sorted(k for k in mine if views[-1].get(k) != mine[k] and not (k == "seats" and mine["over"]))
    assert not differ, f"{game.id}: the worker's view is not the seat's in {differ}: " + \
        "; ".join(f"{str(views[-1].get(k))[:300]} != {str(mine[k])[:300]}" for k in differ)
    hidden = [engine.describe_random(r.label, r.value, session.content) for r in session.chance.log
              if r.label in engine.table.unseen]
    sent = json.dumps(page.evaluate("window.__rkMessages"), ensure_ascii=False)
    text = page.inner_text("body") + page.content()
    for said in hidden:
        assert said not in text, f"{game.id}: the page shows what no seat sees: {said!r}"
        assert json.dumps(said, ensure_ascii=False)[1:-1] not in sent, f"{game.id}: the worker sent {said!r}"
    assert {v["seat"] for v in views} <= set(views[-1]["saved"]["humans"]), "a view for a seat no person plays"
    assert not errors, errors
    page.context.close()


def test_the_page_opened_from_disk_says_it_needs_the_site_served(browser: Any, built: Built) -> None:
    game = _games(built)[0]
    page, errors = new_page(browser, {"width": 1280, "height": 900})
    page.goto((built.site / game.id / "play.html").as_uri())
    page.wait_for_selector("#rk-play[data-state='file']", timeout=30_000)
    said = page.inner_text("#rk-play")
    assert "served" in said and "make serve" in said, said
    assert not errors, errors
    page.context.close()


def _printed_example(built: Built, game: Any) -> str:
    """A printed worked example the Play page offers to play from (else one of ours)."""
    offered = built.site / game.id / "examples"
    ids = [m for p in sorted(offered.glob("*.html")) for m in _offers(p.read_text("utf-8"))]
    assert ids, f"{game.id}: no worked example offers 'Play from here'"
    printed = {s["id"] for s in scenarios(game) if s.get("source") == "printed"}
    return next((i for i in ids if i in printed), ids[0])


def _offers(html: str) -> list[str]:
    return re.findall(r'class="md-button rk-play-here" href="\.\./play\.html\?example=([^"]+)"', html)


def test_play_from_here_opens_a_worked_example_of_every_game_at_its_setup(browser: Any, server: str,
                                                                          built: Built) -> None:
    for game in _games(built):
        example = _printed_example(built, game)
        page, errors = new_page(browser, {"width": 1280, "height": 900})
        page.add_init_script(RECORD)
        page.goto(f"{server}{game.id}/play.html?think={THINK}&example={example}")
        state = _wait(page)
        first = _views(page)[0]
        assert first["saved"].get("example") == example, first["saved"]
        assert "as in the example" in first["log"][0]["said"], first["log"][0]
        assert state == "over" or page.locator(".rk-choice").count() > 0 or first["computer_to_act"], game.id
        assert not errors, errors
        page.context.close()


def test_a_play_page_plays_offline_after_its_first_load(browser: Any, server: str, built: Built) -> None:
    game = _games(built)[0]
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{server}{game.id}/play.html?think={THINK}")
    _wait(page)
    # The service worker keeps what the page and its worker loaded; wait until it has the engine.
    page.wait_for_function("""async () => {
        const names = await caches.keys();
        for (const n of names) {
            const keys = await (await caches.open(n)).keys();
            if (keys.some(r => r.url.endsWith('.wasm')) && keys.some(r => r.url.includes('/play/engine-'))) return true;
        }
        return false; }""", timeout=60_000)
    context.set_offline(True)
    page.reload()
    state = _wait(page)
    assert state in ("you", "computer", "over"), state
    assert page.locator(".rk-play-log > li").count() > 0
    context.close()


def test_people_sharing_a_phone_pass_it_between_turns(browser: Any, server: str, built: Built) -> None:
    """Two people on one phone (Escape Deathrace, both seats played by people): before each one's turn
    the page empties the table and asks for the device to be passed; nothing of the last person's table
    (their power cards) is in the page until the next one taps to see theirs."""
    game = next(g for g in _games(built) if g.id == "escape-deathrace-2182-micro")
    page, errors = new_page(browser, {"width": 390, "height": 844})
    page.add_init_script(RECORD)
    request = {"seed": 4, "setting": "2 players", "humans": ["P1", "P2"]}
    page.goto(f"{server}{game.id}/play.html?think={THINK}#game=" + json.dumps(request))
    handed = 0
    for _ in range(6):
        assert _wait(page) == "handover", "two people: each turn begins with the hand-over screen"
        said = page.inner_text(".rk-play-handover")
        seat = re.search(r"Pass the device to .*\((P\d)\)", said).group(1)  # type: ignore[union-attr]
        views = _views(page)
        mine = views[-1]
        assert mine["seat"] == seat and mine["people"] == 2
        # What the other person holds (their own panel's cards) is nowhere in the page now.
        other = next((v for v in reversed(views) if v["seat"] != seat), None)
        if other is not None:
            theirs = [c["name"] for c in other["cards"] if c["name"] not in {d["name"] for d in mine["cards"]}]
            text = page.inner_text("body") + page.content()
            assert not [n for n in theirs if n in text], f"{other['seat']}'s cards on {seat}'s hand-over screen"
        assert page.locator(".rk-choice").count() == 0 and page.inner_text(".rk-play-log").strip() == ""
        # The page scrolled up to the hand-over: Material's "Back to top" (shown on a scroll up) covers
        # none of its lines; on the table, the seats people play stand in even columns (one row for two).
        page.mouse.wheel(0, 400)
        page.mouse.wheel(0, -200)
        page.wait_for_timeout(400)
        top = page.locator(".md-top")
        if top.count() and top.is_visible():
            box = top.bounding_box()
            for line in page.locator(".md-content p, .md-content h1, .md-content h2").all():
                b = line.bounding_box() if line.is_visible() else None
                assert not (box and b and box["y"] < b["y"] + b["height"] and b["y"] < box["y"] + box["height"]
                            and box["x"] < b["x"] + b["width"] and b["x"] < box["x"] + box["width"]), \
                    f"Back to top over {line.inner_text()!r}"
        page.click(".rk-play-show")
        assert _wait(page) == "you" and re.search(rf"You are\s+{seat},", page.inner_text(".rk-play-side"))
        rows = {round(b["y"]) for b in (x.bounding_box() for x in page.locator(".rk-play-seat label").all()) if b}
        assert len(rows) == 1, f"the two seats' boxes on {len(rows)} rows"
        page.locator(".rk-choice").first.click()
        handed += 1
    assert handed == 6 and not errors, errors
    page.context.close()


def test_a_replay_link_is_short_and_a_bad_one_says_why(browser: Any, server: str, built: Built) -> None:
    game = next(g for g in _games(built) if g.id == "thunder-road-ignition")
    page, errors = new_page(browser, {"width": 390, "height": 844})
    page.add_init_script(RECORD)
    page.goto(f"{server}{game.id}/play.html?think={THINK}#game=" + json.dumps({"seed": 6}))
    rng = random.Random(6)
    for _ in range(12):
        if _wait(page) == "over":
            break
        buttons = page.locator(".rk-choice")
        buttons.nth(rng.randrange(buttons.count())).click()
    _wait(page)
    # A game going on has no link: it would hold the seed, and with it every face-down order.
    assert _views(page)[-1]["link"] == "" and not page.get_attribute(".rk-play-link", "href")
    assert page.locator(".rk-play-link").is_hidden(), "a link to a game going on"
    # A finished game (played here by the page's own calls, then opened as a save) has one.
    page.goto(f"{server}{game.id}/play.html?think={THINK}#game=" + quote(json.dumps(finished(game.id, 6)["saved"])))
    page.reload()  # a new hash alone does not load the page again
    assert _wait(page) == "over"
    href = page.get_attribute(".rk-play-link", "href") or ""
    moves = len(_views(page)[-1]["saved"]["moves"])
    assert "#g=g1." in href and len(href.split("#g=")[1]) <= 24 + 2 * moves, href
    log = page.inner_text(".rk-play-log")
    other, more = new_page(browser, {"width": 1280, "height": 900})
    other.goto(f"{server}{game.id}/{href.split('/')[-1]}")
    _wait(other)
    assert other.inner_text(".rk-play-log") == log, "the link replays the same game"
    other.goto(f"{server}{game.id}/play.html?think={THINK}#g=g1.0.6.1.AAAA%3Cscript%3E")
    other.reload()
    assert _wait(other) in ("you", "computer")
    notice = other.inner_text(".rk-play-notice")
    assert notice.startswith("This link could not be replayed"), notice
    assert "<script>" not in other.content().split("rk-play-notice")[1][:300], "the link's text is not markup"
    assert not errors and not more, errors + more
    page.context.close()
    other.context.close()
