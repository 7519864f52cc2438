"""Committed figures stay current while the engine plays the same way: the version is a digest of
what the engine reads of the content and of seeded reference games move by move, so a rating or a
rule that changes play makes them stale, and the check's report says so."""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from generators.play import figures, players
from generators.rules.contract import Hints, load_engine
from generators.rules.facts import game_content
from tests.helpers import real_content

ROOT = Path(__file__).resolve().parent.parent
GAME = real_content().game("vampire-chase")
ENGINE = load_engine(GAME.engine or "")
CONTENT = game_content(GAME, ENGINE)


def test_the_same_engine_and_content_give_the_same_version() -> None:
    assert figures.behaviour(ENGINE, CONTENT) == figures.behaviour(ENGINE, CONTENT)
    assert figures.version(GAME.engine or "", CONTENT) == figures.version(GAME.engine or "", CONTENT)


def test_a_changed_rating_changes_the_behaviour() -> None:
    rating = ENGINE.hints.evaluate
    assert rating is not None
    backwards = dataclasses.replace(ENGINE, hints=Hints(evaluate=lambda s, p: -rating(s, p)))
    assert figures.behaviour(backwards, CONTENT) != figures.behaviour(ENGINE, CONTENT)


def test_a_look_ahead_that_rates_its_moves_otherwise_changes_the_behaviour() -> None:
    """The look-ahead rating its moves on a world re-dealt from what it observes, or on the true state
    (whichever it does not do now): in the vampire chase the ratings differ at a few positions a game
    while its choice in the reference games stays the same (it changed 2 of 100 other games' outcomes),
    so the version digests every move's rating, not only the moves chosen."""
    other = functools.partial(players.LookaheadPlayer, redeal=not players.LookaheadPlayer.redeal)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(figures, "LookaheadPlayer", other)
        changed = figures.behaviour(ENGINE, CONTENT)
    assert changed != figures.behaviour(ENGINE, CONTENT)


def test_a_changed_result_changes_the_behaviour() -> None:
    lost = dataclasses.replace(ENGINE, result=lambda s: {**ENGINE.result(s), "result": "lost"})
    assert figures.behaviour(lost, CONTENT) != figures.behaviour(ENGINE, CONTENT)


def test_the_report_marks_figures_of_another_version_stale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(figures, "path_of", lambda game: tmp_path / figures.FILE)
    now = figures.version(GAME.engine or "", CONTENT)
    figures.store(GAME, "plays", {"version": now, "settings": []})
    figures.store(GAME, "balance", {"version": "0123456789abcdef", "effects": []})
    report = figures.for_report(GAME, GAME.engine or "", CONTENT)
    assert report["plays"]["current"] is True
    assert report["balance"]["current"] is False


def test_a_changed_count_changes_the_version_and_printed_wording_alone_does_not() -> None:
    name, faces = next(iter(sorted(CONTENT.components.items())))
    more = dataclasses.replace(CONTENT, components={**CONTENT.components,
                                                    name: (dataclasses.replace(faces[0], count=faces[0].count + 1),
                                                           *faces[1:])})
    reworded = dataclasses.replace(CONTENT, components={**CONTENT.components,
                                                        name: (dataclasses.replace(faces[0], back=None), *faces[1:])})
    engine = GAME.engine or ""
    assert figures.version(engine, more) != figures.version(engine, CONTENT)
    assert figures.version(engine, reworded) == figures.version(engine, CONTENT)


def test_a_changed_search_makes_head_to_head_figures_stale_and_leaves_the_rest(monkeypatch: pytest.MonkeyPatch) -> None:
    """Head-to-head figures were played by the search player: a change to how it searches (here three
    look-ahead moves before it rates a position) changes their version, and only theirs."""
    before = {part: figures.version(GAME.engine or "", CONTENT, part) for part in ("plays", "players")}
    wider = dataclasses.replace(ENGINE, hints=dataclasses.replace(ENGINE.hints, rollout=3))
    monkeypatch.setattr(figures, "load_engine", lambda name: wider)
    after = {part: figures.version(GAME.engine or "", CONTENT, part) for part in ("plays", "players")}
    assert after["plays"] == before["plays"]
    assert after["players"] != before["players"]


# Small changes to how the search plays, each of which changes a game's head-to-head figures: the
# probe (`figures.search_behaviour`) must notice every one. The old probe (the choices of the first 12
# moves at 8 simulations) missed the exploration and widening changes here, and players reading the
# true state (below).
SEARCH_CHANGES = {
    "exploration": {"exploration": 0.72},
    "widening": {"widening": 1.45},
    "ordering": {"rank_deep": False},
    "prior": {"puct": 0.5},
}


@pytest.mark.parametrize("change", sorted(SEARCH_CHANGES))
def test_a_small_change_to_the_search_changes_the_head_to_head_version(change: str,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    before = figures.version(GAME.engine or "", CONTENT, "players")
    monkeypatch.setattr(figures, "SearchPlayer", functools.partial(players.SearchPlayer, **SEARCH_CHANGES[change]))
    assert figures.version(GAME.engine or "", CONTENT, "players") != before


def test_players_that_read_the_true_state_change_the_head_to_head_version(monkeypatch: pytest.MonkeyPatch) -> None:
    """The search's root ratings and the look-ahead made on the true state instead of a world re-dealt
    from the observation: in the vampire chase the ratings differ at a few positions a game (after a
    draw), which the old probe never reached."""
    before = figures.version(GAME.engine or "", CONTENT, "players")
    monkeypatch.setattr(type(ENGINE), "deal", lambda self, state, player, chance, tries=0: state)
    assert figures.version(GAME.engine or "", CONTENT, "players") != before


def test_the_version_is_the_same_in_another_process() -> None:
    """A fresh interpreter with another hash seed deals the same re-dealt worlds and computes the same
    versions (a re-deal seeded from `hash` of a tuple holding None differed from process to process,
    so no game a re-dealing player played would replay)."""
    game = "mission-drive"  # its decks are re-dealt
    code = ("import json, random, sys; from pathlib import Path; from generators.content.loader import load_content; "
            "from generators.play import figures; from generators.play.players import _aside; "
            "from generators.rules.contract import load_engine; from generators.rules.facts import game_content; "
            f"g = load_content(Path(sys.argv[1])).game({game!r}); c = game_content(g, load_engine(g.engine)); "
            f"print(json.dumps({{'deal': _aside(random.Random(7)).seed, "
            f"**{{p: figures.version(g.engine, c, p) for p in {PARTS!r}}}}}))")
    out = subprocess.run([sys.executable, "-c", code, str(ROOT / "content")], cwd=ROOT, capture_output=True,
                         text=True, check=True, env={**os.environ, "PYTHONHASHSEED": "12345"})
    loaded = real_content().game(game)
    content = game_content(loaded, load_engine(loaded.engine or ""))
    assert json.loads(out.stdout) == {"deal": players._aside(random.Random(7)).seed,
                                      **{p: figures.version(loaded.engine or "", content, p) for p in PARTS}}


PARTS = ("plays", "players")
