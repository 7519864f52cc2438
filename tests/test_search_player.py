"""The search player plays well: on a small budget it beats the random player, and the one-step
look-ahead where the gap is wide enough for a few dozen games to show, by a margin outside the error
(the difference's 95 % interval leaves out 0), in every game.

Solo and cooperative games compare win rates over the same seeds; competitive games put the search
player in one seat against look-ahead players and compare that seat's wins with what a look-ahead
player wins from the same seat. Budgets are small (a few dozen games, a few dozen simulations a move):
`roadkit simulate --against greedy` (generators/engine/versus.py, which this test calls) measures the
same on a large one.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import random
from pathlib import Path
from typing import Any

import pytest

from generators.content.loader import load_content
from generators.engine.chance import Chance
from generators.engine.facts import game_content
from generators.engine.players import LookaheadPlayer, SearchPlayer, _unit
from generators.engine.runner import engine_of
from generators.engine.versus import compare, outcomes

ROOT = Path(__file__).resolve().parent.parent
CONTENT = load_content(ROOT / "content")
# Per game: the setting to play, games per player, simulations a move. A setting where the look-ahead
# neither always wins nor always loses, so the search has room to show.
BUDGET = {
    "vampire-chase": ("red-mile", 16, 60),
    "thunder-road-ignition": ("2 players", 24, 20),
    "mission-drive": ("normal", 40, 60),
    "escape-deathrace-2182-micro": ("2 players", 60, 60),
    "dronovody": ("2 players, every advanced rule", 40, 30),
}


# Not shown on this budget, in two games where the search's edge over the look-ahead is about ten
# points: a few dozen games cannot tell that from noise (their 95 % interval is about ±15 points); the
# large runs, stored in each game's figures.json and told on its overview, do. Strict: the day one
# passes, its mark must go.
# - Escape Deathrace, 2 players, each seat in turn, 600 games at 100 simulations (seeds from 1000):
#   search 55.8 % against the look-ahead's 46.7 %, +9.2 points (+4.6 to +13.6).
# - Дроноводи, 2 players with every advanced rule (the look-ahead wins 13-18 %), 100 games at 60
#   simulations with the look-ahead's rollouts (seeds 200-299): search 26 against 13, +13 (+3.0 to +22.9);
#   at 3 players the look-ahead already wins about 77 %.
SHORT = {"dronovody": "search 13/40 against the look-ahead 9/40 with every advanced rule: inside the noise",
         "escape-deathrace-2182-micro": "search 31/60 against the look-ahead 25/60 at 2 players: inside the noise"}


@functools.cache
def _won(game_id: str) -> dict[str, tuple[bool, ...]]:
    """Each player's wins, seed by seed: alone, or in each seat in turn with the look-ahead in the
    others (the same games `roadkit simulate --against greedy` plays)."""
    label, games, sims = BUDGET[game_id]
    game = CONTENT.game(game_id)
    content = game_content(game, engine_of(game))
    return {p: tuple(outcomes(game.engine or "", content, label, p, "greedy", games, seed=100, simulations=sims,
                              jobs=min(4, os.cpu_count() or 1))) for p in ("search", "greedy", "random")}


def _beats(game_id: str, other: str, name: str) -> None:
    won = _won(game_id)
    found = compare(won["search"], won[other])
    gap = found["gap"]
    assert found["verdict"] == "better", (
        f"{game_id}: search won {sum(won['search'])}/{len(won['search'])}, {name} {sum(won[other])}/"
        f"{len(won[other])}: gap {gap['points']:+.1f} points, 95 % interval {gap['low']:+.1f} to "
        f"{gap['high']:+.1f} (pairs: {gap['paired']})")


@pytest.mark.parametrize("game_id", sorted(BUDGET))
def test_search_beats_random(game_id: str) -> None:
    _beats(game_id, "random", "random")


@pytest.mark.parametrize("game_id", [pytest.param(g, marks=pytest.mark.xfail(strict=True, reason=SHORT[g]))
                                     if g in SHORT else g for g in sorted(BUDGET)])
def test_search_beats_look_ahead(game_id: str) -> None:
    _beats(game_id, "greedy", "look-ahead")


def test_search_by_priors_is_deterministic_for_a_seed() -> None:
    """PUCT search (the game's `priors` hint) replays its choices from the same seed, move for move."""
    game = CONTENT.game("dronovody")
    engine = engine_of(game)
    content = game_content(game, engine)
    assert engine.hints.priors > 0  # the path under test: the game asks for PUCT
    state = engine.new_game(engine.parse_options({"players": 3}), content, Chance.seeded(7))
    chance, picks = Chance.seeded(8), []
    for n in range(12):
        player = engine.players_to_act(state)[0]
        legal = engine.legal_actions(state, player)
        first, again = (SearchPlayer(simulations=12).choose(engine, state, player, legal, random.Random(n))
                        for _ in range(2))
        assert first == again
        picks.append(first)
        state = engine.play(state, first, chance)[0]
    assert len(picks) == 12


def test_the_unit_ignores_rounding_and_falls_back_to_the_games() -> None:
    """Ratings equal but for float rounding give no scale of their own: the game's unit is used, not a
    gap of 1e-13 that would make every real difference look infinite."""
    alike = [1000.0 * 0.1 * 3, 1000.0 * 0.3, 300.0, 300.0 + 1e-10]
    assert _unit(alike, 50.0) == 50.0
    assert _unit([300.0, 300.0, 310.0], 50.0) == 10.0  # a real difference is the scale
    assert _unit([1.0, 2.0, 3.0, 4.0, 5.0], 50.0) == 1.0  # half the middle half's spread


@pytest.mark.parametrize("rollout", [0, 3])
def test_the_search_rates_after_the_games_rollout_of_look_ahead_moves(rollout: int,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A game's `rollout` hint: the look-ahead plays that many actions past each new position before it
    is rated (none by default)."""
    game = CONTENT.game("dronovody")
    engine = engine_of(game)
    engine = dataclasses.replace(engine, hints=dataclasses.replace(engine.hints, rollout=rollout))
    content = game_content(game, engine)
    state = engine.new_game(engine.parse_options({"players": 2}), content, Chance.seeded(3))
    rolled: list[int] = []
    choose = LookaheadPlayer.choose

    def counted(self: LookaheadPlayer, *args: Any) -> Any:
        rolled.append(1)
        return choose(self, *args)
    monkeypatch.setattr(LookaheadPlayer, "choose", counted)
    player = engine.players_to_act(state)[0]
    SearchPlayer(simulations=8).choose(engine, state, player, engine.legal_actions(state, player), random.Random(1))
    assert (len(rolled) > 8) if rollout else not rolled
