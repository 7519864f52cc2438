"""The strong player confirms: every stored balance finding, difficulty order and re-balance is
measured again with the search player at every seat (`roadkit balance --confirm`).

The stored figures are the one-step look-ahead's, which loses to the search in every game; a finding
measured with a weak player may be an artefact of its weakness (a character it plays badly, a card it
does not know how to use). So each is played again, on the settings it concerns only, by the search
with a declared budget (simulations a move, games per setting):

- a balance finding is `confirmed` when the search's effect goes the same way and its interval,
  corrected for the number of findings confirmed at once, leaves out 0; `contradicted` when it leaves
  out 0 the other way; else `not confirmed` (the search cannot tell it from chance);
- a difficulty order is worked out again from the search's win rates (in order, out of order, or not
  told apart);
- a re-balance played again beside its design before (a record with a `--base` overlay) is compared
  again, paired, by the search.

The result is stored as the `confirmed` part of figures.json, with a version that covers the search
player too, so a change to the rules or to the search marks it stale. A finding the search does not
confirm is then not presented as one.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from statistics import NormalDist
from typing import Any

from generators.content.loader import Content
from generators.play import difficulty, figures, progress, variants
from generators.play.balance import Tally, effect_words, measure, paired, play_tallies, player_words, setting_effects
from generators.play.chosen import with_engines
from generators.play.simulate import SimulateUsageError, cluster_executor
from generators.play.stamp import OtherCode
from generators.rules.facts import game_content
from generators.rules.stats import rate

CONFIRMED, CONTRADICTED, NOT_CONFIRMED = "confirmed", "contradicted", "not confirmed"


def wanted(stored: dict[str, Any]) -> dict[str, Any]:
    """What the stored figures ask to be confirmed: the flagged findings, the difficulty orders, the
    re-balance records (each with the settings it concerns)."""
    balance, plays = stored.get("balance") or {}, stored.get("plays") or {}
    findings = [e for e in balance.get("effects") or () if isinstance(e, dict) and e.get("flagged")]
    orders = [o for o in plays.get("difficulty") or () if isinstance(o, dict)]
    records = [r for r in balance.get("rebalanced") or () if isinstance(r, dict)]
    settings = {e["setting"] for e in findings}
    settings |= {s for o in orders for s in o.get("settings") or ()}
    settings |= {e.get("setting") for r in records for e in r.get("before") or () if isinstance(e, dict)}
    return {"findings": findings, "orders": orders, "rebalanced": records, "settings": settings}


def verdicts(findings: Sequence[dict[str, Any]], tallies: Sequence[Tally], utility: str) -> list[dict[str, Any]]:
    """Each finding with the search's effect beside it and its verdict. The search's intervals are
    corrected for the number of findings confirmed at once (Bonferroni), not for every effect."""
    measured = {(e.setting, e.kind, e.value): e for e in measure(tallies, utility).effects}
    level = 1 - 0.05 / max(1, len(findings))
    z = NormalDist().inv_cdf(1 - (1 - level) / 2)
    wide = {(e.setting, e.kind, e.value): e for e in _widened(tallies, utility, z)}
    out = []
    for f in findings:
        key = (f["setting"], f["kind"], f["value"])
        e, w = measured.get(key), wide.get(key)
        if e is None or w is None:
            out.append({**_key(f), "one_step": _brief(f), "search": None, "verdict": NOT_CONFIRMED})
            continue
        low, high = round(100 * w.low, 1), round(100 * w.high, 1)  # decided as stored, so it can be audited
        up = f["effect"] > 0
        verdict = (CONFIRMED if (low > 0 if up else high < 0) else
                   CONTRADICTED if (high < 0 if up else low > 0) else NOT_CONFIRMED)
        search = {**e.as_dict(), "corrected": {"interval": [low, high], "level": round(100 * level, 2)}}
        search.pop("flagged", None)
        out.append({**_key(f), "one_step": _brief(f), "search": _brief(search), "verdict": verdict})
    return out


def _widened(tallies: Sequence[Tally], utility: str, z: float) -> list[Any]:
    by: dict[str, list[Tally]] = {}
    for t in tallies:
        by.setdefault(t.setting, []).append(t)
    return [e for setting, games in by.items() for e in setting_effects(setting, games, utility, z)]


def _key(e: dict[str, Any]) -> dict[str, Any]:
    return {"setting": e["setting"], "kind": e["kind"], "value": e["value"]}


def _brief(e: dict[str, Any]) -> dict[str, Any]:
    keep = ("games", "won", "against", "baseline", "effect", "interval", "corrected")
    return {k: e[k] for k in keep if k in e}


def lines_of(tallies: Sequence[Tally], simulations: int) -> list[dict[str, Any]]:
    """The search's win rate per setting, as `simulate` summarises a setting (for the order check)."""
    by: dict[str, list[Tally]] = {}
    for t in tallies:
        by.setdefault(t.setting, []).append(t)
    return [{"setting": s, "policy": "search", "simulations": simulations, "games": len(ts),
             "results": {"won": rate(sum(1 for t in ts if t.winners), len(ts)).as_dict()}}
            for s, ts in by.items()]


def run_confirm(content: Content, games_wanted: Sequence[str] | None, *, games: int, seed: int, simulations: int,
                as_json: bool, write: bool, jobs: int | None, scheduler: str | None) -> int:
    """`roadkit balance --confirm`: each chosen game's stored findings, orders and re-balances measured
    again by the search at every seat, on the settings they concern."""
    try:
        executor = cluster_executor(scheduler) if scheduler else None
    except SimulateUsageError as exc:
        print(f"roadkit balance: {exc}", file=sys.stderr)
        return 2
    report: dict[str, Any] = {}
    for game, name, engine in with_engines(content, games_wanted):
        facts = game_content(game, engine)
        stored = figures.for_report(game, name, facts)
        if not (stored.get("balance") or {}).get("current") or not (stored.get("plays") or {}).get("current"):
            print(f"roadkit balance: {game.id}: its stored figures are not current; play them again "
                  "(roadkit simulate --write, roadkit balance --write) before confirming them", file=sys.stderr)
            return 2
        want = wanted(stored)
        labels = [s.label for s in engine.simulation_setups()]
        chosen = [label for label in labels if label in want["settings"]]
        bases = {r["paired"]["file"] for r in want["rebalanced"] if isinstance(r.get("paired"), dict)
                 and r["paired"].get("file") and (Path(game.dir) / r["paired"]["file"]).is_file()}
        total = games * len(chosen) * (1 + len(bases))
        try:
            with progress.showing(f"roadkit balance --confirm {game.id}", total):
                tallies = play_tallies(name, engine, facts, seed, games, "search", simulations, jobs, executor,
                                   chosen)
                before = {b: play_tallies(name, engine,
                                      variants.load_variant(Path(game.dir) / b, game, engine).content,
                                      seed, games, "search", simulations, jobs, executor, chosen) for b in bases}
        except OtherCode as exc:
            print(f"roadkit balance: {exc}; nothing was written", file=sys.stderr)
            return 2
        utility = engine.type.utility
        found = {
            "policy": "search", "simulations": simulations, "games_per_setting": games, "seed": seed,
            "settings": chosen, "balance_version": stored["balance"].get("version"),
            "findings": verdicts(want["findings"], tallies, utility),
            "difficulty": difficulty.check(lines_of(tallies, simulations), engine.harder),
            "rebalanced": [{"value": r["value"], "comparisons": [
                c for c in paired(before[r["paired"]["file"]], tallies, utility)
                if c["value"] == r["value"] or c["kind"] == "game"]}
                for r in want["rebalanced"] if isinstance(r.get("paired"), dict) and r["paired"].get("file") in before],
        }
        report[game.id] = found
        if write:
            figures.store(game, "confirmed", {"version": figures.version(name, facts, "confirmed"), **found})
    if as_json:
        print(json.dumps(report, indent=2, sort_keys=True, ensure_ascii=False))
    else:
        print(human(report))
    return 0


def human(report: dict[str, Any]) -> str:
    lines = []
    for game, part in report.items():
        lines.append(f"{game}: confirmed by {player_words('search', part['simulations'])}, "
                     f"{part['games_per_setting']} games per setting ({', '.join(part['settings']) or 'none'}), "
                     f"every seat")
        for f in part["findings"]:
            lines.append(f"  {f['verdict']}: [{f['setting']}] {f['kind']} {f['value']}: "
                         f"one-step {effect_words(f['one_step'])}; search {effect_words(f['search'])}")
        lines += [f"  {line}" for line in difficulty.words(part["difficulty"])]
        for r in part["rebalanced"]:
            for c in r["comparisons"]:
                low, high = c["interval"]
                lines.append(f"  re-balanced {r['value']} [{c['setting']}] {c['kind']} {c['value']}: "
                             f"{c['before']['percent']} % before, {c['after']['percent']} % after, "
                             f"{c['effect']:+} points (95 % interval {low:+} to {high:+})")
        if not part["findings"] and not part["difficulty"] and not part["rebalanced"]:
            lines.append("  nothing stored to confirm")
    return "\n".join(lines) if lines else "no game with an engine chosen"
