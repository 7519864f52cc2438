"""The search player plays well, in every game, by a margin outside the error (the difference's 95 %
interval leaves out 0):

- on a small budget (a few dozen games, a few dozen simulations a move) it beats the random player,
  and the one-step look-ahead where the gap is wide enough for that budget to show;
- the large runs `roadkit simulate --against greedy --write` stores in each game's figures.json (the
  figures the site tells) show it beating both, and are audited here: each stored run is current for
  the engine and the search as they are, its verdicts are worked out again from its game-by-game
  outcomes, and a sample of its games is played again and must come out as stored. Escape Deathrace's
  and Дроноводи's edge over the look-ahead (about 12 and 17 points) needs hundreds of games to show, more
  than a test can play; the audit checks the run that did.

Solo and cooperative games compare win rates over the same seeds; competitive games put the search
player in one seat against look-ahead players and compare that seat's wins with what a look-ahead
player wins from the same seat (generators/play/versus.py, which this test calls).
"""

from __future__ import annotations

import dataclasses
import functools
import os
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from generators.check.runner import engine_of
from generators.play import figures
from generators.play.players import LookaheadPlayer, SearchPlayer, _unit
from generators.play.versus import Bout, compare, outcomes, play_bout, recorded, seats
from generators.rules.chance import Chance
from generators.rules.facts import game_content
from tests.helpers import first_choice, real_content

ROOT = Path(__file__).resolve().parent.parent
CONTENT = real_content()
# Per game (its tests.yaml `search:`): the setting to play, games per player, simulations a move, and
# whether that budget shows the edge over the look-ahead (not where the edge is about 12 or 17 points
# and a few dozen games give an interval of about ±15; their audited large runs, below, show it).
TRIALS = {g.id: g.tests.search for g in CONTENT.games if g.engine and g.tests.search}
# The large runs' games played again: a few of the search's (seconds each), more of the others'.
REPLAYED = {"search": 3, "greedy": 12, "random": 12}


@functools.cache
def _won(game_id: str) -> dict[str, tuple[bool, ...]]:
    """Each player's wins, seed by seed: alone, or in each seat in turn with the look-ahead in the
    others (the same games `roadkit simulate --against greedy` plays)."""
    trial = TRIALS[game_id]
    game = CONTENT.game(game_id)
    content = game_content(game, engine_of(game))
    return {p: tuple(outcomes(game.engine or "", content, trial.setting, p, "greedy", trial.games, seed=100,
                              simulations=trial.simulations, jobs=min(4, os.cpu_count() or 1)))
            for p in ("search", "greedy", "random")}


def _beats(game_id: str, other: str, name: str) -> None:
    won = _won(game_id)
    found = compare(won["search"], won[other])
    gap = found["gap"]
    assert found["verdict"] == "better", (
        f"{game_id}: search won {sum(won['search'])}/{len(won['search'])}, {name} {sum(won[other])}/"
        f"{len(won[other])}: gap {gap['points']:+.1f} points, 95 % interval {gap['low']:+.1f} to "
        f"{gap['high']:+.1f} (pairs: {gap['paired']})")


def test_every_game_with_an_engine_declares_its_search_trial() -> None:
    missing = [g.id for g in CONTENT.games if g.engine and g.tests.search is None]
    assert not missing, f"no `search:` in these games' tests.yaml: {missing}"
    for game_id, trial in TRIALS.items():
        settings = [s.label for s in engine_of(CONTENT.game(game_id)).simulation_setups()]
        assert trial.setting in settings, f"{game_id}: tests.yaml search.setting is not one of {settings}"


@pytest.mark.parametrize("game_id", sorted(TRIALS))
def test_search_beats_random(game_id: str) -> None:
    _beats(game_id, "random", "random")


@pytest.mark.parametrize("game_id", sorted(g for g, trial in TRIALS.items() if trial.beats_look_ahead))
def test_search_beats_look_ahead(game_id: str) -> None:
    _beats(game_id, "greedy", "look-ahead")


@pytest.mark.parametrize("game_id", sorted(TRIALS))
def test_the_stored_large_run_holds_and_replays(game_id: str) -> None:
    """The stored head to head (the site's claim) is current, says what its own game-by-game outcomes
    say (search better than the look-ahead and than random), and its games replay as stored."""
    game = CONTENT.game(game_id)
    engine = engine_of(game)
    content = game_content(game, engine)
    part = (figures.read(game) or {}).get("players") or {}
    version = figures.version(game.engine or "", content, "players")
    assert part.get("version") == version, (
        f"{game_id}: the stored head to head was played by another version of the engine or the search; "
        f"play it again with `roadkit simulate --game {game_id} --against greedy --write`")
    runs = [c for c in part.get("comparisons", ()) if c.get("against") == "greedy"]
    assert runs, f"{game_id}: no head to head against the look-ahead is stored"
    for run in runs:
        won = {p: recorded(text) for p, text in (run.get("outcomes") or {}).items()}
        assert set(won) >= {"search", "greedy", "random"}, f"{game_id}: the run stores no game-by-game outcomes"
        assert all(len(w) == run["games"] for w in won.values())
        for row in run["challengers"]:
            again = compare(won[row["player"]], won["greedy"])
            assert {k: row[k] for k in again} == again, f"{game_id}: the stored {row['player']} row differs"
            # The search must beat the look-ahead; random must not. Where the look-ahead itself rarely
            # wins (Дроноводи with every advanced rule: 11 % of 300), random's lower rate may not be
            # told apart from it, and the overview says so from the stored verdict.
            allowed = {"better"} if row["player"] == "search" else {"worse", "not told apart"}
            assert again["verdict"] in allowed, f"{game_id}: {row['player']} is {again['verdict']}: {again['gap']}"
        above = compare(won["search"], won["random"])
        assert above["verdict"] == "better", f"{game_id}: search against random: {above['gap']}"
        options = dict(next(s for s in engine.simulation_setups() if s.label == run["setting"]).options)
        taken = seats(engine, content, options)
        pick = random.Random(f"{game_id}/{version}")
        for player, k in REPLAYED.items():
            chosen = sorted(pick.sample(range(run["games"]), k))
            bout = Bout(game.engine or "", content, options, tuple(run["seed"] + i for i in chosen), player,
                        run["simulations"], "greedy", taken)
            assert play_bout(bout) == [won[player][i] for i in chosen], (
                f"{game_id}: {player}'s games {[run['seed'] + i for i in chosen]} do not come out as stored")


def test_search_by_priors_is_deterministic_for_a_seed() -> None:
    """PUCT search (the game's `priors` hint) replays its choices from the same seed, move for move."""
    game = next(g for g in CONTENT.games if g.engine and engine_of(g).hints.priors > 0)  # it asks for PUCT
    engine = engine_of(game)
    content = game_content(game, engine)
    state = engine.new_game(engine.parse_options(dict(engine.simulation_setups()[-1].options)), content,
                            Chance.seeded(7))
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
    game = next(g for g in CONTENT.games if g.engine)
    engine = engine_of(game)
    engine = dataclasses.replace(engine, hints=dataclasses.replace(engine.hints, rollout=rollout))
    content = game_content(game, engine)
    state = engine.new_game(engine.parse_options(dict(engine.simulation_setups()[0].options)), content,
                            Chance.seeded(3))
    rolled: list[int] = []
    choose = LookaheadPlayer.choose

    def counted(self: LookaheadPlayer, *args: Any) -> Any:
        rolled.append(1)
        return choose(self, *args)
    monkeypatch.setattr(LookaheadPlayer, "choose", counted)
    player = engine.players_to_act(state)[0]
    SearchPlayer(simulations=8).choose(engine, state, player, engine.legal_actions(state, player), random.Random(1))
    assert (len(rolled) > 8) if rollout else not rolled


def test_the_audit_catches_a_stored_outcome_the_game_does_not_give(monkeypatch: pytest.MonkeyPatch) -> None:
    """One replayed look-ahead game's stored outcome flipped (its rows made to agree with the flipped
    outcomes, so only the replay can tell): the audit fails on that game."""
    game_id = next(g for g in sorted(TRIALS) if ((figures.read(CONTENT.game(g)) or {}).get("players") or {})
                   .get("comparisons"))
    read = figures.read

    def flipped(game: Any) -> Any:
        data = read(game)
        run = data["players"]["comparisons"][0]
        pick = random.Random(f"{game_id}/{data['players']['version']}")  # the audit's draws, in its order
        for player, k in REPLAYED.items():
            chosen = sorted(pick.sample(range(run["games"]), k))
            if player == "greedy":
                break
        text = list(run["outcomes"]["greedy"])
        text[chosen[0]] = "1" if text[chosen[0]] == "0" else "0"
        run["outcomes"]["greedy"] = "".join(text)
        won = {p: recorded(t) for p, t in run["outcomes"].items()}
        for row in run["challengers"]:
            row.update(compare(won[row["player"]], won["greedy"]))
        return data
    monkeypatch.setattr(figures, "read", flipped)
    monkeypatch.setattr(sys.modules[__name__], "REPLAYED", {"search": 0, "greedy": 12})
    with pytest.raises(AssertionError, match=r"greedy's games .* do not come out as stored"):
        test_the_stored_large_run_holds_and_replays(game_id)


def _without_priors() -> str:
    """A game whose search plays plain UCT (no `priors` hint): every simulation is a visit at the root."""
    return next(g for g in sorted(TRIALS) if not engine_of(CONTENT.game(g)).hints.priors)


def test_the_analysis_explains_the_move_the_search_makes() -> None:
    """Every legal move is listed once, the chosen one first (the move `choose` makes from the same
    seed), then by visits; the visits add up to the simulations and each value is a mean return."""
    engine, _, state, player, legal = first_choice(_without_priors())
    search = SearchPlayer(simulations=20)
    found = search.analyse(engine, state, player, legal, random.Random(3))
    assert found.best == search.choose(engine, state, player, legal, random.Random(3))
    assert sorted(map(repr, (m.action for m in found.moves))) == sorted(map(repr, legal))
    assert [m.visits for m in found.moves] == sorted((m.visits for m in found.moves), reverse=True)
    assert found.simulations == 20 and sum(m.visits for m in found.moves) == 20
    assert all(m.value is None if not m.visits else 0.0 <= m.value <= 1.0 for m in found.moves)


def test_a_think_time_budget_stops_the_search_early() -> None:
    engine, _, state, player, legal = first_choice(_without_priors())
    found = SearchPlayer(simulations=100_000, seconds=0.05).analyse(engine, state, player, legal,
                                                                   random.Random(3))
    assert 1 <= found.simulations < 100_000
    assert found.seconds < 5


def test_the_kept_tree_is_reused_only_for_a_foreseen_position() -> None:
    """Kept where the move leads, without chance, to the same player's next decision: the next search
    starts from the kept visits; a position it did not foresee starts afresh."""
    engine, _, state, _, legal = first_choice("escape-deathrace-2182-micro")
    chance = Chance.seeded(8)
    search = SearchPlayer(simulations=30, keep=True)
    reused = fresh = 0
    for _ in range(40):
        actors = engine.players_to_act(state)
        if not actors:
            break
        who = actors[0]
        legal = engine.legal_actions(state, who)
        kept = search._kept
        found = search.analyse(engine, state, who, legal, random.Random(1))
        total = sum(m.visits for m in found.moves)
        if len(legal) > 1 and kept is not None and kept[1:] == (who, engine.observe(state, who)):
            reused += 1
            assert total > found.simulations, "the kept visits count at the new root"
        elif len(legal) > 1:
            fresh += 1
            assert total == found.simulations
        state = engine.play(state, found.best, chance)[0]
    assert reused and fresh, (reused, fresh)
