"""The search with the game's hints off (`--policy search-hints-off`, make bench): the same search on
the same rules with no rating, priors or rollout, so what it finds is the search's own.

How strong it is per game is measured by `make bench` (tools/bench_search.py) and `roadkit simulate
--against random --policy search-hints-off`, not asserted here: on budgets a test can afford it is not
told apart from random play in any game (see the bench's table)."""

from __future__ import annotations

import dataclasses
import random
import shutil
from pathlib import Path

import pytest

from generators.cli import main as cli_main
from generators.play.players import POLICIES, SEARCHES, SearchPlayer, player_for
from generators.rules.contract import Hints
from tests.helpers import first_choice, real_content

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted(g.id for g in real_content().games)  # found, not listed: a game added is tested too


@pytest.mark.parametrize("game_id", GAMES)
def test_hints_off_is_the_search_on_the_game_without_its_hints(game_id: str) -> None:
    """Move for move the analysis of the search on the game with its hints taken out, and not the
    hinted search's (whose rating gives the moves other values)."""
    engine, _, state, player, legal = first_choice(game_id)
    bare = dataclasses.replace(engine, hints=Hints())
    off = SearchPlayer(simulations=12, hinted=False).analyse(engine, state, player, legal, random.Random(4))
    alike = SearchPlayer(simulations=12).analyse(bare, state, player, legal, random.Random(4))
    hinted = SearchPlayer(simulations=12).analyse(engine, state, player, legal, random.Random(4))
    assert off.moves == alike.moves
    assert off.moves != hinted.moves
    assert engine.hints.evaluate is not None  # the game itself keeps its hints


def test_the_policy_is_named_and_counts_its_simulations() -> None:
    player = player_for("search-hints-off", simulations=7)
    assert isinstance(player, SearchPlayer) and not player.hinted and "hints off" in player.name
    assert set(SEARCHES) <= set(POLICIES)
    engine, _, state, player_id, legal = first_choice(GAMES[0])
    player.analyse(engine, state, player_id, legal, random.Random(1))
    player.analyse(engine, state, player_id, legal, random.Random(2))
    assert player.searched == 14 and player.thought > 0


def test_its_figures_are_not_stored(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The site describes the players whose figures it stores; the hint-less search is for measuring.
    (On a copy of the content: a refusal that failed would write its figures.)"""
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    game = next(g for g in GAMES if (content / g / "figures.json").is_file())  # a game with stored figures
    stored = (content / game / "figures.json").read_bytes()
    for policy in (["--policy", "search-hints-off", "--against", "random"], ["--against", "search-hints-off"]):
        code = cli_main(["simulate", "--content", str(content), "--game", game, *policy,
                         "--games", "1", "--simulations", "2", "--write"])
        assert code == 2
        assert "hints off" in capsys.readouterr().err
    assert (content / game / "figures.json").read_bytes() == stored
