"""`make bench`, the search's strength: per game, the search player with the game's hints (its rating,
priors and rollout), the same search with none (random play to the end of the game rates a position),
and random play, on the same seeds of one setting; each win rate with its 95 % interval, CPU seconds a
game, and each search's gap over random play with the paired interval (the head to head's).

Target (issue 36): with hints off the search still beats random play in every game. A solo or
cooperative game is played by the one player at every seat; a competitive one puts the measured
player in one seat (each in turn over the seeds) with random players in the others, and random play's
figure is a random player's from the same seats.

Each search's simulations a CPU second of its own thinking say what a simulation costs: without hints a
rollout plays to the end of the game, with them it stops where the game's rating takes over.

`python -m tools.bench_search [GAMES [SIMULATIONS]]` prints the table alone.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

from generators.check.runner import engine_of
from generators.content.loader import load_content
from generators.play.players import RandomPlayer, SearchPlayer
from generators.play.simulate import play
from generators.play.versus import compare, measured_seat, seats
from generators.rules.contract import Game
from generators.rules.facts import game_content
from generators.rules.stats import rate

ROOT = Path(__file__).resolve().parent.parent
GAMES = 20  # seeds per player and game
SIMULATIONS = 20  # the search's simulations a move, hints on and off alike
SEED = 3000


def _won(engine: Game[Any, Any], content: Any, options: dict[str, Any], player: Any, games: int,
         taken: tuple[str, ...]) -> tuple[list[bool], float]:
    """Seed by seed: did the measured seat win? And the CPU seconds a game."""
    out = []
    start = time.process_time()
    for seed in range(SEED, SEED + games):
        seat = measured_seat(taken, seed)
        if seat is None:
            played = play(engine, content, options, seed, seats=dict.fromkeys(_all_seats(engine, content, options),
                                                                              player))
            out.append(played.won)
        else:
            played = play(engine, content, options, seed, "random", seats={seat: player})
            out.append(seat in played.winners)
    return out, (time.process_time() - start) / games


def _all_seats(engine: Game[Any, Any], content: Any, options: dict[str, Any]) -> tuple[str, ...]:
    return play(engine, content, options, 0, "random").order


def search_strength(games: int = GAMES, simulations: int = SIMULATIONS) -> tuple[list[str], list[str]]:
    """The table's lines, and the targets missed."""
    content = load_content(ROOT / "content")
    lines = [f"## Search strength, hints on and off ({games} games a player, {simulations} simulations a move, "
             f"seeds from {SEED})", "",
             "| game | setting | player | won | 95 % interval | CPU s a game | simulations a CPU s | "
             "gap over random | target |",
             "|---|---|---|---|---|---|---|---|---|"]
    missed: list[str] = []
    for game in content.games:
        trial = game.tests.search  # the game's tests.yaml: a setting where random play does not always win
        if not game.engine or trial is None:
            continue
        engine = engine_of(game)
        facts = game_content(game, engine)
        label = trial.setting
        options = dict(next(s for s in engine.simulation_setups() if s.label == label).options)
        taken = seats(engine, facts, options)
        base, base_cpu = _won(engine, facts, options, RandomPlayer(), games, taken)
        rows: list[tuple[str, list[bool], float, str, dict[str, Any] | None]] = [
            ("random", base, base_cpu, "–", None)]
        for name, hinted in (("search, hints on", True), ("search, hints off", False)):
            searcher = SearchPlayer(simulations=simulations, hinted=hinted)
            won, cpu = _won(engine, facts, options, searcher, games, taken)
            speed = f"{searcher.searched / searcher.thought:.0f}" if searcher.thought else "–"
            rows.append((name, won, cpu, speed, compare(won, base)))
        for name, won, cpu, speed, found in rows:
            share = rate(sum(won), len(won)).as_dict()
            gap = target = "–"
            if found:
                g = found["gap"]
                gap = f"{g['points']:+.1f} ({g['low']:+.1f} to {g['high']:+.1f}): {found['verdict']}"
            if name == "search, hints off":
                target = "met" if found and found["verdict"] == "better" else "MISSED"
                if target == "MISSED":
                    missed.append(f"{game.id}: the search without hints does not beat random play ({gap})")
            lines.append(f"| {game.id} | {label} | {name} | {sum(won)}/{len(won)} ({share['percent']:.0f} %) | "
                         f"{share['low']:.0f}–{share['high']:.0f} % | {cpu:.2f} | {speed} | {gap} | {target} |")
    return lines, missed


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:3]]
    shown, _ = search_strength(*args)
    print("\n".join(shown))
