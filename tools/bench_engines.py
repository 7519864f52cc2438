"""`make bench`, engines: whole games per CPU second for every engine, against the engines as they were
before the engine work (ENGINE_REFERENCE, that commit's own code and content, from `git archive`, run by
this interpreter), for the random and the one-step look-ahead players on each game's first setting,
and the shared play-through suite (the same number of games in both trees).

The speed targets these were measured against (look-ahead >= 5x, random >= 3x, the suite 2x) are
retired: what counts now is how strong the search plays for its time (tools/bench_search.py). The
figures stay, as ratios without a verdict, to show a slowdown; an engine that no longer plays is
still a failure. Each figure is measured in its own child process (CPU seconds of that process alone), so the two trees
never share a cache. On a shared machine one such figure moves by a third from run to run (the other
core's work slows this one's caches), so the trees are measured in alternating rounds, each tree first
in turn, and each tree's figure is its best round (as the build's timings are best of their runs:
interference only ever slows a run), with the rounds' own ratios beside it for their spread."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

ROOT = Path(__file__).resolve().parent.parent
T = TypeVar("T")
ENGINE_REFERENCE = "af88591"  # main before the engines moved to packages on the narrow contract
GAMES = {"random": 40, "greedy": 20}
SUITE_GAMES = 40  # play-throughs per engine in the suite, the same in both trees
ROUNDS = 5  # alternating rounds of the games per CPU second: each tree's best counts
SUITE_ROUNDS = 3  # the same for the play-through suite (about half a minute a tree a round)

_MEASURE = r"""
import json, sys, time
from pathlib import Path
from generators.content.loader import load_content
try:
    from generators.rules.chance import Chance
    from generators.rules.contract import load_engine
    from generators.rules.facts import game_content
    from generators.play.simulate import play
except ImportError:  # the reference tree: one module held the contract, chance and the content's views
    from generators.engine.base import Chance, game_content, load_engine
    from generators.engine.simulate import play
content = load_content(Path("content"))
out = {}
for game in content.games:
    if not game.engine:
        continue
    engine = load_engine(game.engine)
    facts = game_content(game, engine)
    options = dict(engine.simulation_setups()[0].options)
    for policy, n in json.loads(sys.argv[1]).items():
        probe = engine.new_game(engine.parse_options(options), facts, Chance.seeded(0))
        who = engine.players_to_act(probe)
        if policy == "greedy" and engine.evaluate(probe, who[0]) is None:
            continue
        play(engine, facts, options, 999, policy)  # warm: imports and the content's views
        start = time.process_time()
        for seed in range(1, n + 1):
            play(engine, facts, options, seed, policy)
        out[f"{game.id}/{policy}"] = n / (time.process_time() - start)
print(json.dumps(out))
"""


def _measure(tree: Path, games: dict[str, int]) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run([sys.executable, "-c", _MEASURE, json.dumps(games)], cwd=tree, env=env,
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"measuring the engines in {tree} failed: {done.stderr[-2000:]}")
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def _suite(tree: Path, games: int) -> float:
    """CPU seconds of the shared play-through suite's whole-game test, `games` games per engine."""
    env = {**os.environ, "PYTHONPATH": str(tree), "ROADKIT_PLAYTHROUGHS": str(games)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "tests/test_engine_contract.py", "-k", "playthroughs"],
                          cwd=tree, env=env, capture_output=True, text=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    # A suite that failed or ran nothing took no time worth comparing: never report it as a speed-up.
    if done.returncode != 0 or " passed" not in done.stdout:
        raise RuntimeError(f"the play-through suite in {tree} did not pass: {done.stdout[-1500:]}{done.stderr[-500:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _alternating(rounds: int, measure: Callable[[Path], T], ref: Path) -> list[tuple[T, T]]:
    """(reference, ours) per round, the reference measured first in even rounds and second in odd ones,
    so a machine that slows down or speeds up during the bench weighs on both trees alike."""
    out = []
    for r in range(rounds):
        if r % 2 == 0:
            old = measure(ref)
            new = measure(ROOT)
        else:
            new = measure(ROOT)
            old = measure(ref)
        out.append((old, new))
    return out


def _spread(ratios: list[float]) -> str:
    return f"{min(ratios):.1f}–{max(ratios):.1f}x" if len(ratios) > 1 else "–"


def engine_figures(quick: bool = False) -> tuple[list[str], list[str]]:
    """The table's lines, and what failed (an engine that no longer plays). `quick`: one round of a few
    games (the bench's quick mode, which `make test` runs so that a broken benchmark fails there; its
    figures are noise)."""
    games, suite_games = ({"random": 3, "greedy": 2}, 3) if quick else (GAMES, SUITE_GAMES)
    rounds, suite_rounds = (1, 1) if quick else (ROUNDS, SUITE_ROUNDS)
    with tempfile.TemporaryDirectory(prefix="roadkit-engines-") as tmp:
        ref = Path(tmp) / "ref"
        ref.mkdir()
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", ENGINE_REFERENCE], capture_output=True,
                                 check=False)
        if archive.returncode != 0:
            return [f"engines: cannot read the reference {ENGINE_REFERENCE} from git (a shallow clone?); skipped"], []
        subprocess.run(["tar", "-x", "-C", str(ref)], input=archive.stdout, check=True)
        started = time.perf_counter()
        rates = _alternating(rounds, lambda tree: _measure(tree, games), ref)
        suites = _alternating(suite_rounds, lambda tree: _suite(tree, suite_games), ref)
    lines = [f"## Engines: whole games per CPU second against {ENGINE_REFERENCE} "
             f"(random {games['random']} games, look-ahead {games['greedy']}, first setting; {rounds} alternating "
             "rounds, best of each; the speed targets are retired: see the search's strength per second)", "",
             "| game | player | before | now | ratio | rounds' ratios |", "|---|---|---|---|---|---|"]
    missed: list[str] = []
    keys = sorted({k for old, new in rates for k in (*old, *new)})
    for key in keys:
        game, policy = key.split("/")
        olds = [old[key] for old, _ in rates if key in old]
        news = [new[key] for _, new in rates if key in new]
        if not olds:
            lines.append(f"| {game} | {policy} | – | {max(news):.2f} | new | – |")
            continue
        if not news:
            lines.append(f"| {game} | {policy} | {max(olds):.2f} | – | gone | – |")
            missed.append(f"engine {key} no longer plays")
            continue
        ratios = [new[key] / old[key] for old, new in rates]
        ratio = max(news) / max(olds)
        lines.append(f"| {game} | {policy} | {max(olds):.2f} | {max(news):.2f} | {ratio:.1f}x | {_spread(ratios)} |")
    ratios = [old / new for old, new in suites]
    old_suite, new_suite = min(old for old, _ in suites), min(new for _, new in suites)
    ratio = old_suite / new_suite
    lines += ["", f"Play-through suite ({suite_games} games per engine, {suite_rounds} alternating rounds, best of "
              f"each): {old_suite:.1f} s CPU before, {new_suite:.1f} s now: {ratio:.1f}x faster "
              f"(rounds {_spread(ratios)}). Measured in {time.perf_counter() - started:.0f} s."]
    return lines, missed


if __name__ == "__main__":
    shown, _ = engine_figures()
    print("\n".join(shown))
