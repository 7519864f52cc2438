"""`roadkit balance`: how much each thing that varies between games moves the result, with its error.

What varies comes from two places: every game's seats (the order players first act in, found by
playing, so no game has to say it), and what a game declares (`Game.variety`, read at its start):
`(player or None, kind, value)` triples such as `("P1", "character", "Reegad")` or
`(None, "mission", "red-mile")`.

- A player's feature (a seat, a character): the share of the games its holder won, against the fair
  share (1 / players) in a competitive game, or against the win rate of the others in a solo or
  cooperative one.
- A game's feature (a mission, a card in the deck): the win rate of the games with it against the
  games without it.

Each effect carries its 95 % interval (Wilson for a share against a fixed fair share, Newcombe for a
difference of two rates) and the number of games. Many effects are measured at once, so one in twenty
would leave out "no effect" by chance alone: an effect is flagged as an outlier only when its interval
widened for the number of effects measured in its game (Bonferroni) still leaves out no effect; the
rest is noise, reported as such.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from statistics import NormalDist
from typing import Any

from generators.content.loader import Content
from generators.content.model import LoadedGame
from generators.engine import figures
from generators.engine.chance import Chance
from generators.engine.contract import load_engine
from generators.engine.facts import GameContent, game_content
from generators.engine.simulate import SimulateUsageError, cluster_executor, play, run_parts, seed_batches
from generators.engine.stats import Z95, Rate, difference, rate


@dataclass
class Tally:
    """One game's features and who won it."""

    setting: str
    players: tuple[str, ...]
    winners: frozenset[str]
    features: list[tuple[str | None, str, str]] = field(default_factory=list)


def play_and_tally(engine: Any, content: GameContent, setting_index: int, seed: int, policy: str,
                   simulations: int) -> Tally:
    """One whole game (the simulator's, seed for seed), with what varied in it and who won."""
    setting = engine.simulation_setups()[setting_index]
    options = dict(setting.options)
    played = play(engine, content, options, seed, policy, simulations=simulations)
    start = engine.new_game(engine.parse_options(options), content, Chance.seeded(seed))  # the game's own start
    declared = [(p, kind, content.name(value)) for p, kind, value in engine.varies(start)]  # as printed
    order = played.order
    winners = frozenset(p for p in order if p in played.winners)
    features = [(p, "seat", _ordinal(i + 1)) for i, p in enumerate(order)] if len(order) > 1 else []
    return Tally(setting.label, order, winners, [*features, *declared])


@dataclass(frozen=True)
class Batch:
    """Seeds of one setting to tally anywhere (a local worker or a cluster's): everything pickles."""

    engine: str
    content: GameContent
    setting: int
    seeds: tuple[int, ...]
    policy: str
    simulations: int


def tally_batch(batch: Batch) -> list[Tally]:
    engine = load_engine(batch.engine)
    return [play_and_tally(engine, batch.content, batch.setting, s, batch.policy, batch.simulations)
            for s in batch.seeds]


def _ordinal(n: int) -> str:
    return f"{n}{'st' if n == 1 else 'nd' if n == 2 else 'rd' if n == 3 else 'th'} to play"


@dataclass(frozen=True)
class Effect:
    setting: str
    kind: str
    value: str
    games: int
    share: Rate
    against: float  # the fair share or the others' win rate
    low: float  # the effect's 95 % interval (share minus against), in points
    high: float
    baseline: str  # what it is compared with, in words
    flagged: bool = False  # outside the noise even with the interval widened for every effect measured

    def as_dict(self) -> dict[str, Any]:
        return {"setting": self.setting, "kind": self.kind, "value": self.value, "games": self.games,
                "won": self.share.as_dict(), "against": round(100 * self.against, 1), "baseline": self.baseline,
                "effect": round(100 * (self.share.share - self.against), 1),
                "interval": [round(100 * self.low, 1), round(100 * self.high, 1)], "flagged": self.flagged}


def effects(tallies: Sequence[Tally], utility: str) -> list[Effect]:
    """Every effect with its 95 % interval, flagged where the family-wide interval leaves out 0."""
    first = _effects(tallies, utility, Z95)
    if not first:
        return first
    strict = NormalDist().inv_cdf(1 - 0.05 / (2 * len(first)))
    wide = _effects(tallies, utility, strict)
    return [replace(e, flagged=w.low > 0 or w.high < 0) for e, w in zip(first, wide, strict=True)]


def _effects(tallies: Sequence[Tally], utility: str, z: float) -> list[Effect]:
    out: list[Effect] = []
    by_setting: dict[str, list[Tally]] = defaultdict(list)
    for t in tallies:
        by_setting[t.setting].append(t)
    for setting, games in by_setting.items():
        per_player: dict[tuple[str, str], list[bool]] = defaultdict(list)
        per_game: dict[tuple[str, str], set[int]] = defaultdict(set)
        for i, t in enumerate(games):
            for player, kind, value in t.features:
                if player is None:
                    per_game[(kind, value)].add(i)
                else:
                    per_player[(kind, value)].append(player in t.winners)
        players = max(len(t.players) for t in games)
        for (kind, value), won in sorted(per_player.items()):
            r = rate(sum(won), len(won), z)
            if utility == "competitive":
                fair = 1 / players
                out.append(Effect(setting, kind, value, len(won), r, fair, r.low - fair, r.high - fair,
                                  f"a fair share of 1 in {players}"))
            else:
                others = [w for (k, v), ws in per_player.items() if k == kind and v != value for w in ws]
                o = rate(sum(others), len(others), z)
                d = difference(r, o)
                out.append(Effect(setting, kind, value, len(won), r, o.share, d.low, d.high, "the others"))
        for (kind, value), with_it in sorted(per_game.items()):
            won_with = [games[i].winners != frozenset() for i in with_it]
            won_without = [t.winners != frozenset() for i, t in enumerate(games) if i not in with_it]
            if not won_without:
                continue
            a, b = rate(sum(won_with), len(won_with), z), rate(sum(won_without), len(won_without), z)
            d = difference(a, b)
            out.append(Effect(setting, kind, value, len(won_with), a, b.share, d.low, d.high, "games without it"))
    return out


class RebalanceError(ValueError):
    """A `--rebalanced` record that cannot be kept: not a house design, or nothing measured before."""


def house_titles(game: LoadedGame) -> set[str]:
    """The printed titles every side of which is our design (`house`): only those may be re-balanced."""
    return {title for title, who in game.made_by().items() if who == "house"}


def rebalanced(game: LoadedGame, stored: dict[str, Any] | None, changes: Sequence[str]) -> list[dict[str, Any]]:
    """The re-balance records to keep: the stored ones, and one per `VALUE=what changed` in `changes`
    with the effects measured before the change (the stored findings, read before they are replaced);
    the effects after it are the new findings. Only a house design can be re-balanced."""
    kept = {r["value"]: r for r in (stored or {}).get("rebalanced") or () if isinstance(r, dict) and "value" in r}
    house = house_titles(game)
    for change in changes:
        value, sep, what = change.partition("=")
        value, what = value.strip(), what.strip()
        if not sep or not value or not what:
            raise RebalanceError(f"--rebalanced {change!r}: expected NAME=WHAT CHANGED, e.g. "
                                 "'Side Cannons=range 2 -> 1 space'")
        if value not in house:
            raise RebalanceError(f"--rebalanced {value!r}: only a house design of {game.id} can be re-balanced "
                                 "(a rulebook fact is reported, never changed)")
        before = [e for e in (stored or {}).get("effects") or () if isinstance(e, dict) and e.get("value") == value]
        if not before:
            raise RebalanceError(f"--rebalanced {value!r}: the stored findings of {game.id} measure nothing by that "
                                 "name, so there is no before to show")
        kept[value] = {"value": value, "change": what, "before": before,
                       "before_version": (stored or {}).get("version")}
    return [kept[v] for v in sorted(kept)]


def run_balance(content: Content, games_wanted: Sequence[str] | None, *, games: int, seed: int, policy: str,
                simulations: int, as_json: bool, write: bool = False, changes: Sequence[str] = (),
                jobs: int | None = None, scheduler: str | None = None) -> int:
    """`roadkit balance`: every chosen game's effects, flagged where they are outside the noise. With
    `changes` (and `write`), the re-balanced house designs are recorded with their findings before.
    The games go to `jobs` local processes, or to a Dask cluster at `scheduler`: the same seeds, the
    same findings."""
    if changes and not write:
        print("roadkit balance: --rebalanced records a change in the stored findings: add --write", file=sys.stderr)
        return 2
    try:
        executor = cluster_executor(scheduler) if scheduler else None
    except SimulateUsageError as exc:
        print(f"roadkit balance: {exc}", file=sys.stderr)
        return 2
    report: dict[str, Any] = {}
    for game in content.games:
        if game.engine is None or (games_wanted and game.id not in games_wanted):
            continue
        stored = (figures.read(game) or {}).get("balance")
        try:
            history = rebalanced(game, stored, changes)
        except RebalanceError as e:
            print(f"roadkit balance: {e}", file=sys.stderr)
            return 2
        engine = load_engine(game.engine)
        facts = game_content(game, engine)
        batches = [Batch(game.engine, facts, i, tuple(b), policy, simulations)
                   for i in range(len(engine.simulation_setups()))
                   for b in seed_batches(range(seed, seed + games), policy, jobs if executor is None else None)]
        tallies = [t for part in run_parts(tally_batch, batches, jobs, executor) for t in part]
        found = effects(tallies, engine.type.utility)
        report[game.id] = {"policy": policy, "simulations": simulations if policy == "search" else None,
                           "games_per_setting": games, "effects": [e.as_dict() for e in found],
                           "rebalanced": history}
        if write:
            figures.store(game, "balance", {"version": figures.version(game.engine, facts), "seed": seed,
                                            **report[game.id]})
    if as_json:
        print(json.dumps(report, indent=2, sort_keys=True, ensure_ascii=False))
    else:
        print(_human(report))
    return 0


def _human(report: dict[str, Any]) -> str:
    lines = []
    for game, part in report.items():
        who = part["policy"] + (f", {part['simulations']} simulations a move" if part["simulations"] else "")
        lines.append(f"{game} ({who}; {part['games_per_setting']} games per setting)")
        for e in part["effects"]:
            mark = "OUTLIER" if e["flagged"] else "noise  "
            lines.append(f"  {mark} [{e['setting']}] {e['kind']} {e['value']}: won {e['won']['percent']} % of "
                         f"{e['games']} (against {e['against']} %, {e['baseline']}): effect {e['effect']:+} points, "
                         f"95 % interval {e['interval'][0]:+} to {e['interval'][1]:+}")
        if not part["effects"]:
            lines.append("  nothing varies between this game's plays")
        for r in part.get("rebalanced") or ():
            lines.append(f"  re-balanced (house) {r['value']}: {r['change']}")
            for line in before_and_after(r, part["effects"]):
                lines.append(f"    {line}")
    return "\n".join(lines) if lines else "no game with an engine chosen"


def before_and_after(record: dict[str, Any], now: Sequence[dict[str, Any]]) -> list[str]:
    """Per setting, a re-balanced design's effect before its change and now, each with its interval."""
    after = {e.get("setting"): e for e in now if e.get("value") == record.get("value")}

    def said(e: dict[str, Any] | None) -> str:
        if e is None:
            return "not measured"
        low, high = e["interval"]
        return f"{e['effect']:+} points ({low:+} to {high:+}){', outlier' if e.get('flagged') else ''}"
    return [f"{e.get('setting')}: before {said(e)}, after {said(after.get(e.get('setting')))}"
            for e in record.get("before") or ()]
