"""Do settings come out as hard as they should? The check compares neighbouring settings of a declared
order by their win rates with the gap's 95 % interval, and the site says the verdict in words."""

from __future__ import annotations

from pathlib import Path

import pytest

from generators.content.loader import load_content
from generators.play import difficulty
from generators.play.simulate import simulate
from generators.rules import stats
from generators.rules.contract import Harder, load_engine
from generators.rules.facts import game_content
from generators.rules.stats import rate
from generators.site.played_games import careful_player

ROOT = Path(__file__).resolve().parent.parent
ORDER = Harder(("easy", "middle", "hard"), "the book says so")


def _line(setting: str, won: int, games: int, policy: str = "greedy") -> dict[str, object]:
    return {"policy": policy, "setting": setting, "games": games,
            "results": {"won": {"games": won}, "lost": {"games": games - won}}}


def test_each_pair_is_in_order_out_of_order_or_not_told_apart() -> None:
    lines = [_line("easy", 600, 1000), _line("middle", 300, 1000), _line("hard", 320, 1000),
             _line("easy", 1, 10, "random"), _line("middle", 0, 10, "random")]  # random lacks "hard"
    [found] = difficulty.check(lines, [ORDER])
    assert found["policy"] == "greedy"
    first, second = found["pairs"]
    assert first["verdict"] == difficulty.IN_ORDER and first["gap"]["low"] > 0
    assert second["verdict"] == difficulty.UNSEPARATED and second["gap"]["low"] < 0 < second["gap"]["high"]
    reversed_ = difficulty.check([_line("easy", 100, 1000), _line("middle", 500, 1000), _line("hard", 600, 1000)],
                                 [ORDER])
    assert [p["verdict"] for p in reversed_[0]["pairs"]] == [difficulty.OUT_OF_ORDER, difficulty.OUT_OF_ORDER]


def test_several_kinds_of_win_count_as_wins() -> None:
    line = {"setting": "x", "games": 10, "results": {"won (rotation)": {"games": 3}, "won (technologies)": {"games": 2},
                                                     "lost": {"games": 5}}}
    assert stats.won(line) == rate(5, 10)


def test_the_site_says_each_verdict_in_words() -> None:
    lines = [_line("easy", 600, 1000), _line("middle", 300, 1000), _line("hard", 320, 1000)]
    careful = careful_player({"plays": {"current": True, "settings": lines,
                                        "difficulty": difficulty.check(lines, [ORDER])}})
    assert careful is not None and len(careful.order) == 2
    assert careful.order[0].startswith("Easy is easier than middle, as expected")
    # the reason for an expected order is told once, with its first step
    assert "the book says so" in careful.order[0] and "the book says so" not in careful.order[1]
    assert "could not be told apart" in careful.order[1]
    assert all("_" not in o for o in careful.order)


def test_a_competitive_game_shows_each_seats_share() -> None:
    lines = [{"policy": "greedy", "setting": "2 players", "games": 200,
              "results": {"blue wins": {"games": 120}, "red wins": {"games": 80}}}]
    careful = careful_player({"plays": {"current": True, "utility": "competitive", "settings": lines}})
    assert careful is not None and careful.competitive
    assert careful.rows[0].won.startswith("blue wins 60 % (") and "red wins 40 % (" in careful.rows[0].won


def test_declared_orders_name_real_settings() -> None:
    content = load_content(ROOT / "content")
    declared = 0
    for game in content.games:
        engine = load_engine(game.engine or "")
        labels = {s.label for s in engine.simulation_setups()}
        for order in engine.harder:
            declared += 1
            assert set(order.settings) <= labels and order.because
    assert declared >= 3  # Mission: Drive's levels, the vampire chase's missions, Дроноводи's first game


@pytest.mark.parametrize("points", [0.12, 0.08])
def test_precision_plays_until_every_interval_is_that_narrow(points: float) -> None:
    game = load_content(ROOT / "content", ["vampire-chase"]).game("vampire-chase")
    engine = load_engine(game.engine or "")
    lines = simulate(game.engine or "", game_content(game, engine), games=4, jobs=1, wanted=["random"],
                     precision=points)
    for line in lines:
        assert line["games"] > 4  # four games give ±24.5 points at best, never ±12 or less
        for v in line["results"].values():
            assert (v["high"] - v["low"]) / 2 <= 100 * points + 0.05
