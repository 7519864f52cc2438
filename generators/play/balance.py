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
from pathlib import Path
from statistics import NormalDist
from typing import Any

from generators.content.loader import Content
from generators.content.model import LoadedGame
from generators.play import figures, progress, variants
from generators.play.chosen import with_engines
from generators.play.simulate import SimulateUsageError, cluster_executor, play, run_parts, seed_batches
from generators.play.stamp import OtherCode
from generators.rules.chance import Chance
from generators.rules.contract import load_engine
from generators.rules.facts import GameContent, game_content
from generators.rules.stats import Z95, Rate, difference, paired_difference, rate


@dataclass
class Tally:
    """One game's features and who won it."""

    setting: str
    players: tuple[str, ...]
    winners: frozenset[str]
    features: list[tuple[str | None, str, str]] = field(default_factory=list)
    seed: int = -1  # the game's seed: the same seed of another variant deals the same start


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
    return Tally(setting.label, order, winners, [*features, *declared], seed)


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
    games: int  # the games counted: every game it was in, or (a competitive game's seat) the decided ones
    share: Rate
    against: float  # the even share of the decided games, or the others' win rate
    low: float  # the effect's 95 % interval (share minus against), in points
    high: float
    baseline: str  # what it is compared with, in words
    flagged: bool = False  # outside the noise even with the interval widened for every effect measured
    wide_low: float = 0.0  # the corrected interval: widened for the number of effects measured at once
    wide_high: float = 0.0
    level: float = 0.95  # the corrected interval's confidence level (1 - 0.05 / effects measured)

    @property
    def verdict(self) -> str:
        """`finding` (the corrected interval leaves out 0), `unclear` (only the plain 95 % interval
        does: one in twenty such would come by chance among many), or `noise` (both hold 0)."""
        if self.wide_low > 0 or self.wide_high < 0:
            return FINDING
        return UNCLEAR if self.low > 0 or self.high < 0 else NOISE

    def as_dict(self) -> dict[str, Any]:
        return {"setting": self.setting, "kind": self.kind, "value": self.value, "games": self.games,
                "won": self.share.as_dict(), "against": round(100 * self.against, 1), "baseline": self.baseline,
                "effect": round(100 * (self.share.share - self.against), 1),
                "interval": [round(100 * self.low, 1), round(100 * self.high, 1)], "flagged": self.flagged,
                "corrected": {"interval": [round(100 * self.wide_low, 1), round(100 * self.wide_high, 1)],
                              "level": round(100 * self.level, 2)}}


FINDING, UNCLEAR, NOISE = "finding", "unclear", "noise"


@dataclass(frozen=True)
class Measured:
    """A game's balance: its effects (the correction counted over them alone), each competitive
    setting's games nobody won, and the settings that end the same way every time (left out)."""

    effects: list[Effect]
    undecided: list[dict[str, Any]]  # per competitive setting: the games nobody won, with their interval
    constant: list[dict[str, Any]]  # per setting every game of which ended alike: reported once, not tested

    def as_dict(self) -> dict[str, Any]:
        return {"effects": [e.as_dict() for e in self.effects], "undecided": self.undecided,
                "constant": self.constant, "family": len(self.effects)}


def effects(tallies: Sequence[Tally], utility: str) -> list[Effect]:
    """Every effect with its 95 % interval, flagged where the family-wide interval leaves out 0."""
    return measure(tallies, utility).effects


def measure(tallies: Sequence[Tally], utility: str) -> Measured:
    """Every effect with its plain 95 % interval and its corrected one (Bonferroni: widened for the
    number of effects measured, so that all of them together keep a 5 % chance of a false alarm),
    flagged where the corrected one leaves out 0. A setting every game of which ended alike (nobody
    ever won a solo mission, nobody won at all) tells nothing about what varies in it: it is reported
    once and adds nothing to the count the correction divides by."""
    by_setting: dict[str, list[Tally]] = defaultdict(list)
    for t in tallies:
        by_setting[t.setting].append(t)
    constant, undecided, kept = [], [], {}
    for setting, games in by_setting.items():
        decided = [t for t in games if t.winners]
        if utility == "competitive":
            nobody = len(games) - len(decided)
            undecided.append({"setting": setting, "games": len(games), "nobody": rate(nobody, len(games)).as_dict()})
        if not decided or (utility != "competitive" and len(decided) == len(games)):
            constant.append({"setting": setting, "games": len(games), "won": bool(decided)})
        else:
            kept[setting] = games
    first = [e for setting, games in kept.items() for e in setting_effects(setting, games, utility, Z95)]
    if not first:
        return Measured([], undecided, constant)
    level = 1 - 0.05 / len(first)
    strict = NormalDist().inv_cdf(1 - (1 - level) / 2)
    wide = [e for setting, games in kept.items() for e in setting_effects(setting, games, utility, strict)]
    found = [replace(e, flagged=w.low > 0 or w.high < 0, wide_low=w.low, wide_high=w.high, level=level)
             for e, w in zip(first, wide, strict=True)]
    return Measured(found, undecided, constant)


def setting_effects(setting: str, games: Sequence[Tally], utility: str, z: float) -> list[Effect]:
    out: list[Effect] = []
    competitive = utility == "competitive"
    per_player: dict[tuple[str, str], list[bool]] = defaultdict(list)
    per_game: dict[tuple[str, str], set[int]] = defaultdict(set)
    for i, t in enumerate(games):
        for player, kind, value in t.features:
            if player is None:
                per_game[(kind, value)].add(i)
            elif not competitive or t.winners:  # a competitive share is of the games somebody won
                per_player[(kind, value)].append(player in t.winners)
    players = max(len(t.players) for t in games)
    if competitive:
        # An even share of the decided games: usually 1 in n, more where a game can have joint winners.
        decided = [t for t in games if t.winners]
        # None decided (a small confirmation run can have it): no seat's share to measure, none asked below.
        fair = sum(len(t.winners) for t in decided) / (len(decided) * players) if decided else 0.0
        even = f"an even share of the decided games (1 in {players})"
    for (kind, value), won in sorted(per_player.items()):
        r = rate(sum(won), len(won), z)
        if competitive:
            out.append(Effect(setting, kind, value, len(won), r, fair, r.low - fair, r.high - fair, even))
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


def paired(before: Sequence[Tally], after: Sequence[Tally], utility: str) -> list[dict[str, Any]]:
    """Two versions of a game (the base and a variant, before and after a re-balance) on the same seeds:
    per setting, the win rate (a solo or cooperative game) or the games nobody won (a competitive one),
    and per thing that varies, how often it won, each with the gap after minus before and its paired
    95 % interval (the same seed deals the same start to both, so games that go alike narrow it) and
    the corrected one (widened for every comparison made at once) that decides a finding."""
    games: dict[tuple[str, int], tuple[Tally, Tally]] = {}
    mine = {(t.setting, t.seed): t for t in after}
    for t in before:
        if (t.setting, t.seed) in mine:
            games[(t.setting, t.seed)] = (t, mine[(t.setting, t.seed)])
    pairs: dict[tuple[str, str, str], list[tuple[bool, bool]]] = defaultdict(list)
    overall = ("game", "nobody won") if utility == "competitive" else ("game", "won")
    for (setting, _), (a, b) in sorted(games.items()):
        if utility == "competitive":
            pairs[(setting, *overall)].append((not a.winners, not b.winners))
        else:
            pairs[(setting, *overall)].append((bool(a.winners), bool(b.winners)))
        held_a = {(k, v): p for p, k, v in a.features}
        for p_b, kind, value in b.features:
            if (kind, value) not in held_a:
                continue  # not in both games of this seed: nothing to pair
            p_a = held_a[(kind, value)]
            won_a = bool(a.winners) if p_a is None else p_a in a.winners
            won_b = bool(b.winners) if p_b is None else p_b in b.winners
            pairs[(setting, kind, value)].append((won_a, won_b))
    found = {k: v for k, v in pairs.items() if any(x != y for x, y in v) or k[1:] == overall}
    level = 1 - 0.05 / max(1, len(found))
    strict = NormalDist().inv_cdf(1 - (1 - level) / 2)
    out = []
    for (setting, kind, value), games_ in sorted(found.items()):
        both = sum(1 for x, y in games_ if x and y)
        only_before = sum(1 for x, y in games_ if x and not y)
        only_after = sum(1 for x, y in games_ if y and not x)
        neither = len(games_) - both - only_before - only_after
        d = paired_difference(both, only_after, only_before, neither)
        w = paired_difference(both, only_after, only_before, neither, strict)
        out.append({"setting": setting, "kind": kind, "value": value, "games": len(games_),
                    "before": rate(both + only_before, len(games_)).as_dict(),
                    "after": rate(both + only_after, len(games_)).as_dict(),
                    "effect": round(100 * d.value, 1), "interval": [round(100 * d.low, 1), round(100 * d.high, 1)],
                    "corrected": {"interval": [round(100 * w.low, 1), round(100 * w.high, 1)],
                                  "level": round(100 * level, 2)},
                    "flagged": w.clear, "paired": {"both": both, "only_before": only_before,
                                                   "only_after": only_after, "neither": neither}})
    return out


class RebalanceError(ValueError):
    """A `--rebalanced` record that cannot be kept: not a house design, or nothing measured before."""


def house_titles(game: LoadedGame) -> set[str]:
    """The printed titles every side of which is our design (`house`): only those may be re-balanced."""
    return {title for title, who in game.made_by().items() if who == "house"}


def rebalanced(game: LoadedGame, stored: dict[str, Any] | None, changes: Sequence[str],
               keep_before: bool = False) -> list[dict[str, Any]]:
    """The re-balance records to keep: the stored ones, and one per `VALUE=what changed` in `changes`
    with the effects measured before the change (the stored findings, read before they are replaced);
    the effects after it are the new findings. Only a house design can be re-balanced. With
    `keep_before` (the design before is played again beside it, `--base`), a stored record keeps the
    findings it was first measured with."""
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
        if keep_before and value in kept:  # played again beside the design before: its findings then stay
            kept[value] = {**kept[value], "change": what}
            continue
        before = [e for e in (stored or {}).get("effects") or () if isinstance(e, dict) and e.get("value") == value]
        if not before:
            raise RebalanceError(f"--rebalanced {value!r}: the stored findings of {game.id} measure nothing by that "
                                 "name, so there is no before to show")
        kept[value] = {"value": value, "change": what, "before": before,
                       "before_version": (stored or {}).get("version")}
    return [kept[v] for v in sorted(kept)]


def run_balance(content: Content, games_wanted: Sequence[str] | None, *, games: int, seed: int, policy: str,
                simulations: int, as_json: bool, write: bool = False, changes: Sequence[str] = (),
                jobs: int | None = None, scheduler: str | None = None, variant: Path | None = None,
                base: Path | None = None) -> int:
    """`roadkit balance`: every chosen game's effects, flagged where they are outside the noise. With
    `changes` (and `write`), the re-balanced house designs are recorded with their findings before.
    With `variant` (a YAML overlay, see variants.py), its game is played as the overlay makes it and
    compared, seed for seed, with the content as it is, or with the overlay `base`; with `base` alone,
    the content as it is is compared with `base` (the design before a re-balance), and `--write
    --rebalanced` keeps that paired comparison in the record. The games go to `jobs` local processes,
    or to a Dask cluster at `scheduler`: the same seeds, the same findings."""
    if changes and not write:
        print("roadkit balance: --rebalanced records a change in the stored findings: add --write", file=sys.stderr)
        return 2
    if write and variant is not None:
        print("roadkit balance: --write stores the figures of the content as it is, not of a variant: "
              "leave out --write (or edit the content and use --base FILE for the design before)", file=sys.stderr)
        return 2
    if (variant or base) and games_wanted:
        print("roadkit balance: a variant names its own game: leave out --game", file=sys.stderr)
        return 2
    try:
        overlaid = [variants.game_of(f) for f in (base, variant) if f is not None]
        executor = cluster_executor(scheduler) if scheduler else None
    except SimulateUsageError as exc:
        print(f"roadkit balance: {exc}", file=sys.stderr)
        return 2
    if len(set(overlaid)) > 1:
        print(f"roadkit balance: --base and --variant change different games ({' and '.join(overlaid)})",
              file=sys.stderr)
        return 2
    if overlaid and overlaid[0] not in {g.id for g in content.games if g.engine}:
        print(f"roadkit balance: {overlaid[0]!r} (named by the variant) is no game with an engine in "
              f"{', '.join(g.id for g in content.games if g.engine)}", file=sys.stderr)
        return 2
    report: dict[str, Any] = {}
    for game, name, engine in with_engines(content, games_wanted):
        if overlaid and game.id != overlaid[0]:
            continue
        stored = (figures.read(game) or {}).get("balance")
        try:
            history = rebalanced(game, stored, changes, keep_before=base is not None)
        except RebalanceError as e:
            print(f"roadkit balance: {e}", file=sys.stderr)
            return 2
        facts = game_content(game, engine)
        before = variants.load_variant(base, game, engine) if base else None
        after = variants.load_variant(variant, game, engine) if variant else None
        runs = [("after", after.content if after else facts)] + ([("before", before.content if before else facts)]
                                                                   if before or after else [])
        total = games * len(engine.simulation_setups()) * len(runs)
        try:
            with progress.showing(f"roadkit balance {game.id}", total):
                played = {which: play_tallies(name, engine, played_content, seed, games, policy, simulations,
                                          jobs, executor) for which, played_content in runs}
        except OtherCode as exc:
            print(f"roadkit balance: {exc}; nothing was written", file=sys.stderr)
            return 2
        found = measure(played["after"], engine.type.utility)
        report[game.id] = {"policy": policy, "simulations": simulations if policy == "search" else None,
                           "games_per_setting": games, "seed": seed, "utility": engine.type.utility,
                           **found.as_dict(), "rebalanced": history}
        check = figures.for_report(game, name, facts).get("confirmed") or {}
        if check.get("current") and (stored or {}).get("version") == check.get("balance_version") and \
                {k: (stored or {}).get(k) for k in ("policy", "seed", "games_per_setting")} == \
                {"policy": policy, "seed": seed, "games_per_setting": games} and "before" not in played:
            report[game.id]["confirmed"] = check  # the search's re-measurement of these very findings
        if "before" in played:
            compared = paired(played["before"], played["after"], engine.type.utility)
            report[game.id]["variant"] = {
                "before": before.name if before else "the content as it is",
                "after": after.name if after else "the content as it is",
                "changed": sorted({*(before.changed if before else ()), *(after.changed if after else ())}),
                "comparisons": compared}
            if changes and before is not None:
                names = {c.partition("=")[0].strip() for c in changes}
                for r in history:
                    if r["value"] in names:
                        r["paired"] = {"before": before.name, "file": _within(Path(before.file), Path(game.dir)),
                                       "games_per_setting": games, "seed": seed, "policy": policy,
                                       "comparisons": [c for c in compared if c["value"] == r["value"]
                                                       or c["kind"] == "game"]}
        if write:
            # The search's part is its own; a variant's comparison is kept only in its re-balance record.
            kept = {k: v for k, v in report[game.id].items() if k not in ("confirmed", "variant")}
            figures.store(game, "balance", {"version": figures.version(name, facts), **kept})
    if as_json:
        print(json.dumps(report, indent=2, sort_keys=True, ensure_ascii=False))
    else:
        print(_human(report))
    return 0


def _within(path: Path, folder: Path) -> str:
    """A variant's file as a re-balance record keeps it: inside the game's folder, relative to it (so
    `--confirm` finds it from any working directory), else as given."""
    try:
        return path.resolve().relative_to(folder.resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def play_tallies(engine_name: str, engine: Any, facts: GameContent, seed: int, games: int, policy: str,
             simulations: int, jobs: int | None, executor: Any, settings: Sequence[str] | None = None) -> list[Tally]:
    """Every setting's games (or those labelled in `settings`), seeds seed..seed+games-1, tallied."""
    batches = [Batch(engine_name, facts, i, tuple(b), policy, simulations)
               for i, setting in enumerate(engine.simulation_setups()) if settings is None or setting.label in settings
               for b in seed_batches(range(seed, seed + games), policy, jobs if executor is None else None)]
    return [t for part in run_parts(tally_batch, batches, jobs, executor) for t in part]


MARKS = {FINDING: "FINDING", UNCLEAR: "unclear", NOISE: "noise  "}
VERDICT_TAIL = {FINDING: ", finding", UNCLEAR: ", unclear (its 95 % interval leaves out 0, the corrected one not)",
                NOISE: ""}


def measured_by(part: dict[str, Any]) -> str:
    """Who played the games and how many: "the one-step look-ahead (greedy), 300 games per setting"."""
    return f"{player_words(part['policy'], part.get('simulations'))}, {part['games_per_setting']} games per setting"


def player_words(policy: str, simulations: int | None = None) -> str:
    return {"greedy": "the one-step look-ahead (greedy)", "random": "random play (random)",
            "search": f"the search (search, {simulations} simulations a move)"}.get(policy, policy)


def effect_line(e: dict[str, Any]) -> str:
    """One effect for the terminal: its share, what it is compared with, the plain 95 % interval and
    the corrected one that decides a flag, each named."""
    wide = e.get("corrected") or {}
    low, high = wide.get("interval") or e["interval"]
    counted = "decided games" if str(e.get("baseline", "")).startswith("an even share") else "games"
    return (f"[{e['setting']}] {e['kind']} {e['value']}: won {e['won']['percent']} % of {e['games']} {counted} "
            f"(against {e['against']} %, {e['baseline']}): effect {e['effect']:+} points, "
            f"95 % interval {e['interval'][0]:+} to {e['interval'][1]:+}; "
            f"corrected {wide.get('level', 95)} % interval {low:+} to {high:+}")


def verdict_of(e: dict[str, Any]) -> str:
    """`finding`, `unclear` or `noise` of a stored effect (see `Effect.verdict`)."""
    low, high = e["interval"]
    wide_low, wide_high = (e.get("corrected") or {}).get("interval") or ((1, 1) if e.get("flagged") else (-1, 1))
    if wide_low > 0 or wide_high < 0:
        return FINDING
    return UNCLEAR if low > 0 or high < 0 else NOISE


def _human(report: dict[str, Any]) -> str:
    lines = []
    for game, part in report.items():
        lines.append(f"{game}: measured by {measured_by(part)} (seeds {part['seed']}–"
                     f"{part['seed'] + part['games_per_setting'] - 1})")
        if part["effects"]:
            lines.append(f"  {FINDING}: the corrected interval (widened for the {part['family']} effects measured "
                         f"at once, Bonferroni) leaves out 0; {UNCLEAR}: only the plain 95 % one does; "
                         f"{NOISE}: both hold 0")
        for c in part.get("constant") or ():
            lines.append(f"  [{c['setting']}] {'every one' if c['won'] else 'none'} of {c['games']} games won: "
                         "nothing to compare there, left out of the correction")
        for u in part.get("undecided") or ():
            n = u["nobody"]
            if not n["games"]:
                continue
            lines.append(f"  [{u['setting']}] nobody won {n['games']} of {u['games']} games ({n['percent']} %, "
                         f"95 % interval {n['low']}–{n['high']} %): the seats' shares are of the decided games")
        check = {(f["setting"], f["kind"], f["value"]): f for f in (part.get("confirmed") or {}).get("findings") or ()}
        if part.get("confirmed"):
            c = part["confirmed"]
            lines.append(f"  each finding re-measured by {player_words('search', c['simulations'])}, "
                         f"{c['games_per_setting']} games per setting, every seat: only a confirmed one is a finding")
        for e in part["effects"]:
            lines.append(f"  {MARKS[verdict_of(e)]} {effect_line(e)}")
            f = check.get((e["setting"], e["kind"], e["value"]))
            if f is not None:
                lines.append(f"          {f['verdict']} by the search: {effect_words(f['search'])}")
        if not part["effects"] and not part.get("constant"):
            lines.append("  nothing varies between this game's plays")
        for r in part.get("rebalanced") or ():
            lines.append(f"  re-balanced (house) {r['value']}: {r['change']}")
            for line in before_and_after(r, part["effects"]):
                lines.append(f"    {line}")
        if part.get("variant"):
            lines += variant_lines(part["variant"])
    return "\n".join(lines) if lines else "no game with an engine chosen"


def variant_lines(v: dict[str, Any]) -> list[str]:
    """A paired comparison for the terminal: the game's result per setting, every effect that moved
    beyond the noise, and every effect of what the variant changed, after against before."""
    changed = set(v.get("changed") or ())
    shown = [c for c in v["comparisons"] if c["kind"] == "game" or c["value"] in changed or verdict_of(c) != NOISE]
    family = len(v["comparisons"])
    out = [f"  {v['after']} against {v['before']}, on the same seeds (paired; {family} comparisons, "
           f"the corrected interval widened for them all):"]
    for c in shown:
        b, a = c["before"], c["after"]
        low, high = c["interval"]
        wide_low, wide_high = c["corrected"]["interval"]
        out.append(f"    {MARKS[verdict_of(c)]} [{c['setting']}] {c['kind']} {c['value']}: won {b['percent']} % "
                   f"before, {a['percent']} % after, of {c['games']} games: {c['effect']:+} points, 95 % interval "
                   f"{low:+} to {high:+}; corrected {c['corrected']['level']} % interval "
                   f"{wide_low:+} to {wide_high:+}")
    return out


def before_and_after(record: dict[str, Any], now: Sequence[dict[str, Any]]) -> list[str]:
    """Per setting, a re-balanced design's effect before its change and now, each with its interval."""
    after = {e.get("setting"): e for e in now if e.get("value") == record.get("value")}

    def said(e: dict[str, Any] | None) -> str:
        if e is None:
            return "not measured"
        low, high = e["interval"]
        return f"{e['effect']:+} points ({low:+} to {high:+}){VERDICT_TAIL[verdict_of(e)]}"
    return [f"{e.get('setting')}: before {said(e)}, after {said(after.get(e.get('setting')))}"
            for e in record.get("before") or ()]


def effect_words(e: dict[str, Any] | None) -> str:
    if not e:
        return "not measured"
    low, high = e["interval"]
    text = f"{e['effect']:+} points (95 % interval {low:+} to {high:+}"
    wide = (e.get("corrected") or {}).get("interval")
    if wide:
        text += f", corrected {wide[0]:+} to {wide[1]:+}"
    return text + f"; {e.get('games')} games)"
