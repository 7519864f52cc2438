"""Whole games played by a simple rules-legal policy: the engines' end-to-end exercise and the
figures the site shows (win rate, game length, damage) for each game's settings.

A game is set up with `Engine.new_game` from the rulebook's setup, then played to the end: at each
state one player among those who may act, then one of their legal actions. Two policies: `random`
(uniformly random legal actions) and, for engines that offer `evaluate`, `greedy` (one step ahead: the
action whose resulting state the engine evaluates best for the acting player, ties broken at random;
chance in that look-ahead is a throwaway generator, so the policy cannot see the real dice). Choices
use a generator seeded from the game's seed. Chance (dice, shuffles, draws) has its own seeded
generator, so a seed replays the same game exactly. Every move goes through the contract, so the
simulator also checks what the shared engine suite checks on each game it plays: a state that is not
over always has a legal action, and every game ends within the engine's declared bound.
"""

from __future__ import annotations

import json
import math
import os
import random
import statistics
import sys
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any, TypeVar

from generators.build_system import workers
from generators.content.loader import Content
from generators.play import difficulty, figures, progress
from generators.play.chosen import with_engines
from generators.play.players import POLICIES, SEARCHES, LookaheadPlayer, Player, player_for
from generators.play.stamp import OtherCode, Stamped, code_stamp, run_stamped
from generators.rules.chance import Chance
from generators.rules.contract import Game, Setting, load_engine
from generators.rules.facts import GameContent, game_content
from generators.rules.stats import games_for, rate

POLICY = POLICIES["random"]
P = TypeVar("P")
R = TypeVar("R")


class InvariantBroken(Exception):
    """A game reached a state the contract forbids (no legal action, or no end in sight)."""


@dataclass(frozen=True)
class Played:
    """One whole game: its seed, the engine's result figures and how many actions it took."""

    seed: int
    result: dict[str, Any]
    actions: int
    winners: tuple[str, ...] = ()  # the players the game names as winners (everybody in a won team game)
    order: tuple[str, ...] = ()  # the players in the order they first acted (the seats, found by playing)

    @property
    def won(self) -> bool:
        """Did anybody win (a solo or cooperative game's win)?"""
        return bool(self.winners)


def play(engine: Game[Any, Any], content: GameContent, options: Any, seed: int, policy_name: str = "random",
         seats: Mapping[str, Player] | None = None, simulations: int = 100, rollout_depth: int | None = None) -> Played:
    """Play one whole game from the rulebook's setup to the end: every seat by `policy_name`, or each
    seat named in `seats` by its own player (a head-to-head), the rest by `policy_name`."""
    chance = Chance.seeded(seed)
    policy = random.Random(f"policy-{seed}")
    default = player_for(policy_name, simulations, rollout_depth)
    state = engine.new_game(engine.parse_options(dict(options)), content, chance)
    order: dict[str, None] = {}
    for n in range(engine.type.max_actions + 1):
        players = engine.players_to_act(state)
        if not players:
            return Played(seed, engine.result(state), n, tuple(engine.winners(state)), tuple(order))
        player = players[0] if len(players) == 1 else policy.choice(players)
        order[player] = None
        legal = engine.legal_actions(state, player)
        if not legal:
            raise InvariantBroken(f"seed {seed}: {player} may act but has no legal action after {n} actions")
        chooser = seats.get(player, default) if seats else default
        if isinstance(chooser, LookaheadPlayer):
            action, after = chooser.choose_with_state(engine, state, player, legal, policy)
        else:
            action, after = chooser.choose(engine, state, player, legal, policy), None
        state = after if after is not None else engine.advance(state, action, chance)  # nobody reads its events
    raise InvariantBroken(f"seed {seed}: the game did not end within {engine.type.max_actions} actions")


@dataclass(frozen=True)
class Job:
    """One batch of games to play anywhere (a local worker or a cluster's): everything in it pickles."""

    engine: str
    content: GameContent
    options: dict[str, Any]
    seeds: tuple[int, ...]
    policy: str
    simulations: int = 100


def play_job(job: Job) -> list[Played]:
    engine = load_engine(job.engine)
    return [play(engine, job.content, job.options, s, job.policy, simulations=job.simulations) for s in job.seeds]


def summarize(setting: Setting, played: Sequence[Played], policy: str = "random",
              simulations: int | None = None) -> dict[str, Any]:
    """Results as people read them: how often each result came up, and each figure's spread."""
    n = len(played)
    results = Counter(str(p.result.get("result")) for p in played)
    figures: dict[str, list[float]] = {"actions": [p.actions for p in played]}
    for p in played:
        for key, value in p.result.items():
            if key != "result" and isinstance(value, (int, float)) and not isinstance(value, bool):
                figures.setdefault(key, []).append(value)
    strength = {"simulations": simulations} if policy in SEARCHES and simulations else {}
    return {
        "setting": setting.label,
        "policy": policy,
        **strength,
        "options": dict(setting.options),
        "games": n,
        # Each result's share with its 95 % Wilson interval (percent), so no figure travels without its error.
        "results": {k: rate(v, n).as_dict() for k, v in sorted(results.items())},
        "figures": {k: {"mean": round(statistics.fmean(v), 2), "median": statistics.median(v),
                        "min": min(v), "max": max(v)} for k, v in figures.items() if len(v) == n},
    }


def policies(engine: Game[Any, Any], content: GameContent) -> list[str]:
    """The policies this engine can be played by: random always, greedy if it evaluates states."""
    probe = engine.new_game(engine.parse_options(dict(engine.simulation_setups()[0].options)), content,
                            Chance.seeded(0))
    players = engine.players_to_act(probe)
    rates = bool(players) and engine.evaluate(probe, players[0]) is not None
    return ["random", "greedy"] if rates else ["random"]


def simulate(engine_name: str, content: GameContent, games: int, seed: int = 1, jobs: int | None = None,
             wanted: Sequence[str] | None = None, simulations: int = 100,
             executor: Executor | None = None, precision: float | None = None,
             max_games: int = 20000, settings: Sequence[str] | None = None) -> list[dict[str, Any]]:
    """Play `games` whole games for each of the engine's settings and policies (`wanted`, default every
    one it can be played by but the search); seeds are seed, seed+1... With `precision` (a share, 0.03
    for ±3 points), more games follow, on the next seeds, until every result's 95 % interval is that
    narrow (at most `max_games`). `settings` keeps only the settings with those labels. The games go to
    `executor` (a cluster's, see `cluster_executor`) or to local processes; either way each game is
    played from its own seed, so the figures are the same."""
    engine = load_engine(engine_name)
    out = []
    for policy in wanted or policies(engine, content):
        for setting in engine.simulation_setups():
            if settings and setting.label not in settings:
                continue
            options = dict(setting.options)
            played: list[Played] = []
            want = games
            while len(played) < want:
                seeds = list(range(seed + len(played), seed + want))
                batches = seed_batches(seeds, policy, jobs if executor is None else None)
                work = [Job(engine_name, content, options, tuple(b), policy, simulations) for b in batches]
                played += _run(work, executor, jobs)
                if precision is not None:
                    more = min(max_games, max(want, _games_for(played, precision)))
                    progress.grow(more - want)
                    want = more
            out.append(summarize(setting, sorted(played, key=lambda p: p.seed), policy, simulations))
    return out


def _games_for(played: Sequence[Played], precision: float) -> int:
    """Games enough for every result's interval to be ± `precision`, judged from the shares so far
    (a tenth more, so the next check rarely falls short by a game or two)."""
    n = len(played)
    counts = Counter(str(p.result.get("result")) for p in played)
    if all(rate(k, n).half_width <= precision for k in counts.values()):
        return n
    worst = max(min(k / n, 1 - k / n) for k in counts.values())
    return max(n + 1, math.ceil(1.1 * games_for(precision, max(worst, 0.02))))


def seed_batches(seeds: Sequence[int], policy: str, jobs: int | None) -> list[list[int]]:
    """Seeds in batches, small enough to spread over the workers (a search game is slow) and, in one
    process, to show progress (about a hundred batches; every game is played from its own seed, so
    the batches never change a figure)."""
    workers = max(1, min(jobs or _cores(), 8))
    searching = policy in SEARCHES
    if workers == 1 or (not searching and len(seeds) < 20):
        size = 1 if searching else max(1, math.ceil(len(seeds) / 100))
    else:
        size = 1 if searching else max(1, len(seeds) // (workers * 4))
    return [list(seeds[i:i + size]) for i in range(0, len(seeds), size)]


def _run(work: list[Job], executor: Executor | None, jobs: int | None) -> list[Played]:
    return [p for part in run_parts(play_job, work, jobs, executor) for p in part]


def run_parts(fn: Callable[[P], R], parts: Sequence[P], jobs: int | None, executor: Executor | None) -> list[R]:
    """`fn` over `parts` in order: on the cluster's executor if given (each batch stamped with this
    process's code, which a worker running other code refuses: `stamp.OtherCode`), else on up to
    `jobs` local processes (in this one when a single part or a single process). Each batch that
    comes back moves the progress shown on a terminal by its games."""
    if executor is not None:
        stamp = code_stamp()
        results = executor.map(run_stamped, [Stamped(fn, part, stamp) for part in parts])
    else:
        results = workers.imap(fn, parts, max(1, min(jobs or _cores(), 8)))
    out = []
    try:
        for part, result in zip(parts, results, strict=True):
            out.append(result)
            progress.advance(len(getattr(part, "seeds", ())) or 1)
    except ImportError as exc:
        if executor is None:
            raise
        # A worker from an older checkout cannot even load the stamped batch.
        raise OtherCode(f"a cluster worker cannot load the client's code ({exc}): it runs other Roadkit "
                        "code; start the workers from the client's checkout and try again") from None
    return out


def cluster_executor(address: str) -> Executor:
    """A Dask distributed cluster's executor (`concurrent.futures`), so the games take the same path as
    on local processes. Dask is an optional dependency: `pip install distributed`."""
    try:
        from distributed import Client  # lazy: Dask is an optional extra (`--scheduler`)
    except ImportError:
        raise SimulateUsageError("--scheduler needs Dask's distributed package: pip install distributed") from None
    try:
        client = Client(address, timeout="5s")  # type: ignore[no-untyped-call]  # Dask is not annotated
    except (OSError, ValueError) as exc:  # ValueError: an address Dask cannot parse
        raise SimulateUsageError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    return client.get_executor()  # type: ignore[no-untyped-call, no-any-return]  # Dask is not annotated


class SimulateUsageError(Exception):
    """A mistake on `roadkit simulate`'s command line (exit 2)."""


def executor_for(policies: Sequence[str], scheduler: str | None) -> Executor | None:
    """Where the games are played (a Dask cluster, or None: local workers), once the policies named
    are known ones; a mistake is a SimulateUsageError."""
    unknown = [p for p in policies if p not in POLICIES]
    if unknown:
        raise SimulateUsageError(f"unknown policy {unknown[0]!r}; expected one of: {', '.join(POLICIES)}")
    return cluster_executor(scheduler) if scheduler else None


def simulate_one(engine_name: str, content: GameContent, games: int, policy: str, setting_index: int,
                 seed: int = 1) -> dict[str, Any]:
    """One setting and policy of `simulate`, played in this process (the build spreads these over
    its workers)."""
    engine = load_engine(engine_name)
    setting = engine.simulation_setups()[setting_index]
    played = [play(engine, content, dict(setting.options), s, policy) for s in range(seed, seed + games)]
    return summarize(setting, played, policy)


def _cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def run_simulate(content: Content, games_wanted: Sequence[str] | None, *, games: int, seed: int, as_json: bool,
                 jobs: int | None, quiet: bool, policies_wanted: Sequence[str] | None = None,
                 simulations: int = 100, scheduler: str | None = None, write: bool = False,
                 precision: float | None = None, max_games: int = 20000,
                 settings: Sequence[str] | None = None) -> int:
    """`roadkit simulate`: every chosen game that has an engine (`--against`: versus.run_head_to_head)."""
    report: dict[str, Any] = {"policies": dict(POLICIES), "games": {}}
    try:
        executor = executor_for(policies_wanted or (), scheduler)
    except SimulateUsageError as exc:
        print(f"roadkit simulate: {exc}", file=sys.stderr)
        return 2
    chosen = list(with_engines(content, games_wanted))
    labels = {s.label for _, _, engine in chosen for s in engine.simulation_setups()}
    unknown = [s for s in settings or () if s not in labels]
    if unknown:  # none of the chosen games has it (head to head checks each game: versus.py)
        print(f"roadkit simulate: no setting {unknown[0]!r}; the settings are: {', '.join(sorted(labels))}",
              file=sys.stderr)
        return 2
    for game, name, engine in chosen:
        try:
            facts = game_content(game, engine)
            planned = len(policies_wanted or policies(engine, facts)) * games * sum(
                1 for s in engine.simulation_setups() if not settings or s.label in settings)
            with progress.showing(f"roadkit simulate {game.id}", planned):
                lines = simulate(name, facts, games, seed, jobs, policies_wanted, simulations, executor,
                                 precision, max_games, settings)
            report["games"][game.id] = lines
            order = difficulty.check(lines, engine.harder)
            if order:
                report.setdefault("difficulty", {})[game.id] = order
        except InvariantBroken as exc:
            print(f"roadkit simulate: {game.id}: {exc}", file=sys.stderr)
            return 1
        except OtherCode as exc:
            print(f"roadkit simulate: {exc}; nothing was written", file=sys.stderr)
            return 2
        if write:
            where = figures.store(game, "plays", {"version": figures.version(name, facts), "seed": seed,
                                                  "policies": dict(POLICIES), "utility": engine.type.utility,
                                                  "settings": lines, "difficulty": order})
            if not quiet:
                print(f"figures written to {where}", file=sys.stderr)
    if as_json:
        print(json.dumps(report, indent=2, sort_keys=True, ensure_ascii=False))
    elif not quiet:
        print(_human(report))
    return 0


def _human(report: dict[str, Any]) -> str:
    lines = [f"policy {name}: {text}" for name, text in report["policies"].items()]
    for game, settings in report["games"].items():
        for s in settings:
            results = ", ".join(f"{k} {v['percent']}% (95 % interval {v['low']}–{v['high']}%)"
                                for k, v in s["results"].items())
            figures = "; ".join(f"{k} mean {v['mean']} (median {v['median']}, {v['min']}–{v['max']})"
                                for k, v in s["figures"].items())
            who = f"{s['policy']}, {s['simulations']} simulations a move" if "simulations" in s else s["policy"]
            lines.append(f"{game} [{s['setting']}, {who}] {s['games']} games: {results}; {figures}")
        lines += [f"{game} difficulty: {line}" for line in difficulty.words(report.get("difficulty", {}).get(game, []))]
    return "\n".join(lines)
