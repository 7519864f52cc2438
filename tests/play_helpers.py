"""The Play page's calls driven from Python (generators/play/browser.py, as the page's Pyodide runs it):
a game started, played a number of decisions (people's picked at random, the computer's searched), or
played to its end. Shared by tests/test_play_links.py and tests/test_play_browser.py."""

from __future__ import annotations

import json
import random
from typing import Any

from generators.check.runner import engine_of
from generators.play import browser
from generators.play.bundle import content_json
from generators.rules.facts import game_content
from tests.helpers import real_content

GAMES = {g.id: g for g in real_content().games if g.engine}
MOVES = 60


def start(game_id: str, request: dict[str, Any]) -> dict[str, Any]:
    game = GAMES[game_id]
    engine = engine_of(game)
    data = content_json(game_content(game, engine)).decode()
    return dict(json.loads(browser.start(game.engine or "", data, "{}", json.dumps(request))))


def played(game_id: str, seed: int, moves: int = MOVES) -> dict[str, Any]:
    """A game played `moves` decisions from the page's calls (people's and the computer's)."""
    view = start(game_id, {"seed": seed})
    rng = random.Random(seed)
    for _ in range(moves):
        if view["over"]:
            break
        view = json.loads(browser.computer(0.01) if view["computer_to_act"] else
                          browser.choose(rng.randrange(len(view["choices"])) + 1))
    return view


def finished(game_id: str, seed: int) -> dict[str, Any]:
    """A game played to its end (only a finished game has a link)."""
    view = played(game_id, seed, 3000)
    assert view["over"], "the game did not end"
    return view
