"""No player sees what its seat cannot: every game's declared observation (`Game.observation`, after
OpenSpiel's information state) and its re-deal (`Game.resample`) checked the same way for every
engine, on positions of seeded games of every setting (no per-game code):

- a game of perfect information observes its whole state (a game that hides an order must say so);
- a re-deal keeps what the seat observes and its legal moves, and depends on that observation and
  the chance it is given alone (two states the seat cannot tell apart deal the same worlds);
- two states that differ only in what the seat cannot observe give it the same observation and the
  same move, from the search and from the one-step look-ahead (same seed);
- planted leaks are caught: an observation that shows a face-down order, a re-deal that reads the
  true one, a player that reads the whole state, a look-ahead that rates moves on the true state.
"""

from __future__ import annotations

import dataclasses
import random
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from generators.check.runner import engine_of
from generators.play.players import LookaheadPlayer, Player, SearchPlayer
from generators.rules.chance import Chance
from generators.rules.contract import Game
from generators.rules.facts import GameContent, game_content
from generators.rules.information import plain, whole
from tests.helpers import real_content

ROOT = Path(__file__).resolve().parent.parent
CONTENT = real_content()
ENGINES = {g.id: (engine_of(g), g) for g in CONTENT.games if g.engine}
EVERY = 6  # a position checked every this many actions of a seeded random game
SIMULATIONS = 8  # the search's budget for its move (enough to read a hidden card through its ratings)

Position = tuple[Any, str]


@dataclasses.dataclass(frozen=True)
class _Case:
    engine: Game[Any, Any]
    content: GameContent
    positions: tuple[Position, ...]


_CASES: dict[str, _Case] = {}


def _case(game_id: str) -> _Case:
    if game_id not in _CASES:
        engine, game = ENGINES[game_id]
        content = game_content(game, engine)
        _CASES[game_id] = _Case(engine, content, tuple(_positions(engine, content)))
    return _CASES[game_id]


def _positions(engine: Game[Any, Any], content: GameContent) -> Iterator[Position]:
    """Decision points with a choice, from one seeded random game per setting."""
    for i, setting in enumerate(engine.simulation_setups()):
        chance, rng = Chance.seeded(700 + i), random.Random(700 + i)
        state = engine.new_game(engine.parse_options(dict(setting.options)), content, chance)
        for n in range(engine.type.max_actions):
            actors = engine.players_to_act(state)
            if not actors:
                break
            player = actors[0]
            legal = engine.legal_actions(state, player)
            if n % EVERY == 0 and len(legal) > 1:
                yield state, player
            state = engine.play(state, rng.choice(legal), chance)[0]


def _deal(engine: Game[Any, Any], state: Any, player: str, seed: int) -> Any:
    """A world the seat cannot tell from `state` (its menu of moves included)."""
    return engine.deal(state, player, Chance.seeded(seed))


def leaks(engine: Game[Any, Any], positions: tuple[Position, ...], players: tuple[Player, ...] = ()) -> list[str]:
    """What breaks the rule that a seat decides from its observation alone, at these positions."""
    found: list[str] = []
    redealt = 0
    for k, (state, player) in enumerate(positions):
        seen = engine.observe(state, player)
        if engine.observe(state, player) != seen:
            found.append(f"position {k}: the observation differs for the same state")
        if engine.resample is None:
            if seen != whole(state, player):
                found.append(f"position {k}: a game of perfect information observes less than its whole state: "
                             "declare it imperfect, with a re-deal of what is hidden")
            continue
        twin = _deal(engine, state, player, 10_000 + k)
        redealt += plain(twin) != plain(state)
        if engine.observe(twin, player) != seen:
            found.append(f"position {k}: two states {player} cannot tell apart give different observations "
                         "(the observation shows something hidden, or the re-deal changes something seen)")
            continue
        if plain(_deal(engine, state, player, k)) != plain(_deal(engine, twin, player, k)):
            found.append(f"position {k}: the re-deal depends on more than what {player} observes")
        if engine.legal_actions(state, player) != engine.legal_actions(twin, player):
            found.append(f"position {k}: the legal moves depend on what {player} cannot observe")
            continue
        legal = engine.legal_actions(state, player)
        for who in players:
            moves = [who.choose(engine, s, player, legal, random.Random(f"move-{k}")) for s in (state, twin)]
            if moves[0] != moves[1]:
                found.append(f"position {k}: {who.name} moves differently on two states {player} cannot tell "
                             f"apart: {moves[0]!r} and {moves[1]!r}")
    if engine.resample is not None and not redealt:
        found.append("the re-deal changed nothing at any position: nothing hidden was exercised")
    return found


# --- every game ---------------------------------------------------------------------------------

GAMES = sorted(ENGINES)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_observation_and_the_re_deal_agree(game_id: str) -> None:
    case = _case(game_id)
    assert case.positions, f"{game_id}: no position with a choice"
    assert leaks(case.engine, case.positions) == []


@pytest.mark.parametrize(("game_id", "player"), [(g, p) for g in GAMES for p in ("search", "greedy")])
def test_players_decide_from_the_observation(game_id: str, player: str) -> None:
    case = _case(game_id)
    who: Player = SearchPlayer(simulations=SIMULATIONS) if player == "search" else LookaheadPlayer()
    assert leaks(case.engine, case.positions, (who,)) == []


# --- planted leaks ------------------------------------------------------------------------------

PLANTED = "vampire-chase"  # a game that hides orders and re-deals them from the observation


def test_a_planted_observation_of_a_hidden_order_is_caught() -> None:
    case = _case(PLANTED)
    showing = dataclasses.replace(case.engine, observation=whole)
    found = leaks(showing, case.positions)
    assert found and all("different observations" in f for f in found), found


def test_a_planted_re_deal_that_reads_the_true_order_is_caught() -> None:
    case = _case(PLANTED)
    deal = case.engine.resample
    assert deal is not None

    def reading(state: Any, player: str, chance: Chance) -> Any:  # its seed drawn from the true state
        return deal(state, player, Chance.seeded(zlib.crc32(repr(plain(state)).encode()) ^ (chance.seed or 0)))

    found = leaks(dataclasses.replace(case.engine, resample=reading), case.positions)
    assert any("depends on more than" in f for f in found), found


@dataclasses.dataclass
class _Peeking:
    """A player that reads the whole state (a planted leak)."""

    name: str = "peeking"

    def choose(self, game: Any, state: Any, player: str, legal: Any, rng: random.Random) -> Any:
        return legal[zlib.crc32(repr(plain(state)).encode()) % len(legal)]


def test_a_planted_player_that_reads_the_whole_state_is_caught() -> None:
    case = _case(PLANTED)
    assert leaks(case.engine, case.positions) == []
    found = leaks(case.engine, case.positions, (_Peeking(),))
    assert any("peeking moves differently" in f for f in found), found


# Games where a move draws a face-down card whose place the look-ahead's rating reads.
DRAWS = ("mission-drive", "escape-deathrace-2182-micro")


@pytest.mark.parametrize("game_id", DRAWS)
def test_a_planted_look_ahead_on_the_true_state_is_caught(game_id: str) -> None:
    case = _case(game_id)
    found = leaks(case.engine, case.positions, (LookaheadPlayer(redeal=False, name="true-state look-ahead"),))
    assert any("true-state look-ahead moves differently" in f for f in found), found
