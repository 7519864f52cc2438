"""The overview's figures at a glance (generators/site/glance.py): players' words for each share, the
settings in the book's order, one basis per game, and each figure's player, games and 95 % range."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generators.rules.stats import rate
from generators.site.context import face_titles
from generators.site.glance import book_order, glance, often
from tests.helpers import ROOT, real_content


@pytest.mark.parametrize(("hits", "games", "said"), [
    (14, 100, "about 1 game in 7"), (82, 100, "about 8 games in 10"), (38, 100, "about 4 games in 10"),
    (0, 400, "no game in 400"), (1, 400, "almost never (1 of 400 games)"),
    (199, 200, "almost always (199 of 200 games)"),
    (30, 30, "every one of 30 games"), (0, 0, "not measured")])
def test_a_share_reads_as_a_player_says_it(hits: int, games: int, said: str) -> None:
    assert often(hits, games) == said


def test_settings_read_in_the_books_order() -> None:
    stored = ["2 players", "1 player", "3 players", "4 players", "2 players, first game",
              "2 players, every advanced rule"]
    assert book_order(stored) == ["1 player", "2 players", "3 players", "4 players", "2 players, first game",
                                  "2 players, every advanced rule"]
    assert book_order(["rookie", "normal", "expert", "short game"]) == ["rookie", "normal", "expert", "short game"]


def _solo(current: bool = True) -> dict:
    return {"plays": {"utility": "solo", "settings": [
        {"policy": "greedy", "setting": "red-mile", "games": 700,
         "results": {"won": {"games": 100}, "lost": {"games": 600}}},
        {"policy": "greedy", "setting": "last-orders", "games": 400, "results": {"won": {"games": 320}}}]},
        "players": {"current": current, "comparisons": [
            {"setting": "red-mile", "against": "greedy", "games": 90, "simulations": 100, "seat": None,
             "against_won": {"games": 9}, "challengers": [{"player": "search", "won": {"games": 60}}]}]}}


def test_each_setting_names_the_careful_and_the_strong_players_share() -> None:
    seen = glance(_solo(), {"red-mile": "Red Mile", "last-orders": "Last Orders"})
    assert seen is not None and not seen.competitive
    assert seen.lines[0] == ("- **Red Mile**: the careful player wins about 1 game in 7; "
                             "the strong player about 7 games in 10.")
    assert seen.lines[1].startswith("- **Last Orders**: the careful player wins about 8 games in 10.")
    strong = [s for s in seen.shares if s.player == "strong player"]
    assert [(s.setting, s.hits, s.games) for s in strong] == [("Red Mile", 60, 90)]
    r = rate(60, 90)
    assert strong[0].interval == f"{round(100 * r.low, 1):g}–{round(100 * r.high, 1):g} %"
    assert "all the games" in seen.basis
    assert any("The strong player" in p for p in seen.players)
    stale = glance(_solo(current=False))
    assert stale is not None and all("strong" not in line for line in stale.lines)  # no stale head-to-head


def test_a_competitive_game_says_who_wins_most_and_least_on_one_basis() -> None:
    def effect(value: str, hits: int, games: int, kind: str = "character") -> dict:
        return {"setting": "3 players", "kind": kind, "value": value, "games": games, "against": 33.3,
                "baseline": "an even share of the decided games (1 in 3)", "won": {"games": hits}}
    figures = {"plays": {"utility": "competitive", "settings": [{"policy": "greedy", "setting": "3 players",
                                                                  "games": 300, "results": {}}]},
               "balance": {"current": True, "effects": [effect("A & B", 70, 100), effect("C", 5, 100),
                                                        effect("1st to play", 100, 300, "seat"),
                                                        effect("2nd to play", 100, 300, "seat")]}}
    figures["players"] = {"current": True, "comparisons": [
        {"setting": "3 players", "against": "greedy", "games": 100, "seat": "each in turn", "simulations": 50,
         "against_won": {"games": 45}, "challengers": [{"player": "search", "won": {"games": 60}}]}]}
    seen = glance(figures)
    assert seen is not None and seen.competitive
    line, strong = seen.lines
    assert line == ("- **3 players** (an even share: 1 in 3): A &amp; B wins most (7 games in 10), C least "
                    "(1 game in 20); the seats win about evenly.")
    # the head-to-head is not split by who won: counts of all its games, not a share on another basis
    assert strong.endswith("won 60 of its 100 games; a careful player in the same seat, 45.")
    assert "that somebody won" in seen.basis and "%" not in strong
    assert {(s.who, s.hits, s.games) for s in seen.shares} >= {("A & B", 70, 100), ("C", 5, 100)}


@pytest.mark.parametrize("game_id", sorted(p.parent.name for p in (ROOT / "content").glob("*/figures.json")))
def test_every_game_with_stored_figures_has_a_glance(game_id: str) -> None:
    game = real_content().game(game_id)  # the session's one load of content/
    figures = json.loads((Path(game.dir) / "figures.json").read_text(encoding="utf-8"))
    for part in ("plays", "balance", "players", "confirmed"):
        if part in figures:
            figures[part]["current"] = True
    seen = glance(figures, face_titles(game))
    assert seen is not None and seen.lines
    assert all(s.games > 0 and "%" in s.interval for s in seen.shares)
    assert all("_" not in line and "greedy" not in line and "search" not in line for line in seen.lines)
