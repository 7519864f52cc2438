"""Head to head: does one player play a game better than another? (`roadkit simulate --against P`.)

Both are measured on the same seeds of one setting. A solo or cooperative game compares their win
rates. A competitive game puts the challenger in one seat, each seat in turn over the seeds, with every other
seat played by the other player, and compares its wins with what the other player wins from the same
seats of the same games against its own kind, so a seat's own advantage cancels out.
The gap carries its 95 % interval for paired rates (Newcombe's, from the two Wilson intervals and
the games' correlation: the same seed deals the same start to both); a gap whose interval holds 0 is
not a finding.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

from generators.content.loader import Content
from generators.play import figures, progress
from generators.play.chosen import with_engines
from generators.play.players import POLICIES, SEARCHES, player_for
from generators.play.simulate import Job, SimulateUsageError, executor_for, play, run_parts, seed_batches
from generators.play.stamp import OtherCode
from generators.rules.contract import Game, load_engine
from generators.rules.facts import GameContent, game_content
from generators.rules.stats import paired_difference, rate


def seats(engine: Game[Any, Any], content: GameContent, options: dict[str, Any]) -> tuple[str, ...]:
    """A competitive game's seats in the order they first act, found by playing (as `roadkit balance`
    finds them, so no game has to list them); () when solo or cooperative."""
    if engine.type.utility in ("solo", "cooperative"):
        return ()
    return play(engine, content, options, 0, "random").order


def measured_seat(taken: tuple[str, ...], seed: int) -> str | None:
    """The seat the challenger takes in the game of `seed`: each seat in turn over the seeds, so the
    comparison covers every seat (and who starts, as the rules deal it); None when solo or cooperative."""
    return taken[seed % len(taken)] if taken else None


@dataclass(frozen=True)
class Bout(Job):
    """The simulator's batch of games, with `policy` in the measured seat (every seat of a solo or
    cooperative game) and `others` in the rest."""

    others: str = "greedy"
    seats: tuple[str, ...] = ()  # a competitive game's seats (see `seats`); () when solo or cooperative


def play_bout(bout: Bout) -> list[bool]:
    """For each seed: did the measured seat win?"""
    engine = load_engine(bout.engine)
    out = []
    for seed in bout.seeds:
        seat = measured_seat(bout.seats, seed)
        if seat is None:
            played = play(engine, bout.content, bout.options, seed, bout.policy, simulations=bout.simulations)
            out.append(played.won)
        else:
            seats = {seat: player_for(bout.policy, bout.simulations)}
            played = play(engine, bout.content, bout.options, seed, bout.others, seats=seats,
                          simulations=bout.simulations)
            out.append(seat in played.winners)
    return out


def compare(mine: Sequence[bool], base: Sequence[bool]) -> dict[str, Any]:
    """Two players' wins on the same games, seed by seed: each win rate, and the gap with its 95 %
    interval for paired rates (the same seeds deal the same start, so games tend to go the same way)."""
    both = sum(1 for m, b in zip(mine, base, strict=True) if m and b)
    only_mine, only_base = sum(mine) - both, sum(base) - both
    neither = len(mine) - both - only_mine - only_base
    d = paired_difference(both, only_mine, only_base, neither)
    return {"won": rate(sum(mine), len(mine)).as_dict(),
            "gap": {"points": round(100 * d.value, 1), "low": round(100 * d.low, 1), "high": round(100 * d.high, 1),
                    "paired": {"both": both, "only_this": only_mine, "only_other": only_base, "neither": neither}},
            "verdict": "better" if d.clear and d.value > 0 else "worse" if d.clear else "not told apart"}


def outcomes(engine_name: str, content: GameContent, setting: str, player: str, against: str, games: int,
             seed: int = 1, simulations: int = 100, jobs: int | None = None,
             executor: Executor | None = None) -> list[bool]:
    """Seed by seed (seed..seed+games-1 of the setting labelled `setting`): did `player` win, alone or
    from its seat (each in turn) with `against` in the others?"""
    engine = load_engine(engine_name)
    found = [s for s in engine.simulation_setups() if s.label == setting]
    if not found:
        raise ValueError(f"no setting {setting!r}; expected one of: "
                         f"{', '.join(s.label for s in engine.simulation_setups())}")
    options = dict(found[0].options)
    taken = seats(engine, content, options)
    parts = [Bout(engine_name, content, options, tuple(b), player, simulations, against, taken)
             for b in seed_batches(range(seed, seed + games), player, jobs if executor is None else None)]
    return [w for part in run_parts(play_bout, parts, jobs, executor) for w in part]


def head_to_head(engine_name: str, content: GameContent, setting: str, challengers: Sequence[str], against: str,
                 games: int, seed: int = 1, simulations: int = 100, jobs: int | None = None,
                 executor: Executor | None = None) -> dict[str, Any]:
    """Each challenger against `against` on seeds seed..seed+games-1 of the setting labelled `setting`."""
    def wins(player: str) -> list[bool]:
        return outcomes(engine_name, content, setting, player, against, games, seed, simulations, jobs, executor)

    base = wins(against)
    won = {c: wins(c) for c in challengers if c != against}
    rows = [{"player": c, **compare(w, base)} for c, w in won.items()]
    competitive = load_engine(engine_name).type.utility not in ("solo", "cooperative")
    return {"setting": setting, "against": against, "against_won": rate(sum(base), games).as_dict(), "games": games,
            "seed": seed, "seat": "each in turn" if competitive else None, "simulations": simulations,
            "challengers": rows, "policies": {p: POLICIES[p] for p in {against, *challengers}},
            "outcomes": {p: record(w) for p, w in {against: base, **won}.items()}}


def record(won: Sequence[bool]) -> str:
    """Game-by-game wins as stored: one character per seed, in seed order ("1" won, "0" did not), so
    the tests can replay any of the games and check the figures were made by the code as it is."""
    return "".join("1" if w else "0" for w in won)


def recorded(text: str) -> list[bool]:
    return [c == "1" for c in text]


def words(game: str, found: dict[str, Any]) -> list[str]:
    """The comparison in sentences, for the terminal."""
    seat = f"in each seat in turn (the others by {found['against']})" if found["seat"] else "alone"
    base = found["against_won"]
    lines = [f"{game} [{found['setting']}] head to head, {found['games']} games (seeds {found['seed']}–"
             f"{found['seed'] + found['games'] - 1}): {found['against']} won {_pc(base, found['games'])}"
             + (" from the same seats" if found["seat"] else "")]
    for row in found["challengers"]:
        who = row["player"] + (f" ({found['simulations']} simulations a move)" if row["player"] in SEARCHES else "")
        gap = row["gap"]
        lines.append(f"  {who} {seat}: won {_pc(row['won'], found['games'])}; gap {gap['points']:+.1f} points "
                     f"(95 % interval {gap['low']:+.1f} to {gap['high']:+.1f}): {row['verdict']}")
    return lines


def _pc(r: dict[str, Any], games: int) -> str:
    return f"{r['games']} of {games} ({r['percent']} %, 95 % interval {r['low']}–{r['high']} %)"


def run_head_to_head(content: Content, games_wanted: Sequence[str] | None, *, games: int, seed: int,
                     as_json: bool, jobs: int | None, quiet: bool, challengers: Sequence[str], against: str,
                     simulations: int, scheduler: str | None, write: bool, settings: Sequence[str] | None) -> int:
    """`roadkit simulate --against P`: each challenger against P, per setting (every one, or `settings`)."""
    try:
        executor = executor_for([*challengers, against], scheduler)
    except SimulateUsageError as exc:
        print(f"roadkit simulate: {exc}", file=sys.stderr)
        return 2
    report: dict[str, Any] = {}
    for game, name, engine in with_engines(content, games_wanted):
        labels = [s.label for s in engine.simulation_setups()]
        unknown = [s for s in settings or () if s not in labels]
        if unknown:
            print(f"roadkit simulate: {game.id} has no setting {unknown[0]!r}; expected one of: {', '.join(labels)}",
                  file=sys.stderr)
            return 2
        facts = game_content(game, engine)
        chosen = settings or labels
        try:
            with progress.showing(f"roadkit simulate {game.id} head to head",
                                  len(chosen) * games * len({against, *challengers})):
                found = [head_to_head(name, facts, label, challengers, against, games, seed, simulations,
                                      jobs, executor) for label in chosen]
        except OtherCode as exc:
            print(f"roadkit simulate: {exc}; nothing was written", file=sys.stderr)
            return 2
        report[game.id] = found
        if not quiet and not as_json:
            print("\n".join(line for f in found for line in words(game.id, f)))
        if write:
            stored = ((figures.read(game) or {}).get("players") or {}).get("comparisons") or []
            kept = [c for c in stored if (c.get("setting"), c.get("against")) not in
                    {(f["setting"], f["against"]) for f in found}]
            where = figures.store(game, "players", {"version": figures.version(name, facts, "players"),
                                                    "comparisons": [*kept, *found]})
            if not quiet:
                print(f"head-to-head figures written to {where}", file=sys.stderr)
    if as_json:
        print(json.dumps(report, indent=2, sort_keys=True, ensure_ascii=False))
    return 0
