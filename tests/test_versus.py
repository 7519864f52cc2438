"""Head to head (`roadkit simulate --against P`): who takes which seat, and the comparison's figures,
checked against games played directly through the simulator."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from generators.check.runner import engine_of
from generators.play.players import player_for
from generators.play.simulate import play
from generators.play.versus import head_to_head, measured_seat, seats
from generators.rules.facts import game_content
from tests.helpers import real_content

ROOT = Path(__file__).resolve().parent.parent
CONTENT = real_content()


def _setup(game_id: str, label: str):
    game = CONTENT.game(game_id)
    engine = engine_of(game)
    content = game_content(game, engine)
    [setting] = [s for s in engine.simulation_setups() if s.label == label]
    return game, engine, content, dict(setting.options)


def test_competitive_game_puts_the_challenger_in_each_seat_in_turn() -> None:
    game, engine, content, options = _setup("escape-deathrace-2182-micro", "2 players")
    taken = seats(engine, content, options)
    assert sorted(taken) == ["P1", "P2"]
    seeds = range(1, 9)
    found = head_to_head(game.engine, content, "2 players", ["random"], "greedy", len(seeds), seed=1, jobs=1)
    assert found["seat"] == "each in turn"
    mine_at = {s: measured_seat(taken, s) for s in seeds}
    assert set(mine_at.values()) == {"P1", "P2"}
    # the baseline: the look-ahead in every seat; the challenger: random in that game's seat only
    base = sum(mine_at[s] in play(engine, content, options, s, "greedy").winners for s in seeds)
    mine = sum(mine_at[s] in play(engine, content, options, s, "greedy",
                                  seats={mine_at[s]: player_for("random")}).winners for s in seeds)
    assert found["against_won"]["games"] == base
    [row] = found["challengers"]
    assert row["player"] == "random" and row["won"]["games"] == mine
    assert row["gap"]["low"] <= row["gap"]["points"] <= row["gap"]["high"]


def test_solo_game_compares_whole_games() -> None:
    game, engine, content, options = _setup("mission-drive", "rookie")
    assert seats(engine, content, options) == () and measured_seat((), 1) is None
    found = head_to_head(game.engine, content, "rookie", ["random", "greedy"], "greedy", 6, seed=1, jobs=1)
    assert [r["player"] for r in found["challengers"]] == ["random"]  # a player is not compared with itself
    wins = sum(play(engine, content, options, s, "random").won for s in range(1, 7))
    assert found["challengers"][0]["won"]["games"] == wins


def test_cli_reports_the_gap_and_refuses_an_unknown_setting() -> None:
    run = [sys.executable, "-m", "generators.cli", "simulate", "--game", "mission-drive", "--against", "greedy",
           "--policy", "random", "--games", "3", "-j", "1"]
    done = subprocess.run([*run, "--setting", "rookie"], cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "head to head, 3 games" in done.stdout and "95 % interval" in done.stdout and "gap" in done.stdout
    bad = subprocess.run([*run, "--setting", "impossible"], cwd=ROOT, capture_output=True, text=True, check=False)
    assert bad.returncode == 2 and "no setting 'impossible'" in bad.stderr and "Traceback" not in bad.stderr
