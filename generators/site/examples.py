"""Worked examples as the site shows them: the scenario files (what is claimed, what is done) joined
with the rules check's report (the status and the before/after diagrams).

The scenario files say which examples exist, so the site lists every one even before `roadkit
check` has run; the report only adds what the engine computed. The site never runs the engine.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generators.content.model import LoadedGame
from generators.content.scenario import AS_WRITTEN, Scenario, load_scenarios, plain

MAX_ACTION_TEXT = 400  # an action's line on the site; also bounds walking an alias-heavy value

STATUSES = ("verified", "erratum", "failed", "unchecked")
REPORT_DOCS_PATH = "check/report.json"  # where the site offers the check's raw report


@dataclass(frozen=True)
class Example:
    game: str
    id: str
    title: str
    rule: str | None
    source: str  # printed | ours
    section: str | None
    claim: str | None
    actions: tuple[str, ...]
    discrepancy: str | None
    status: str  # one of STATUSES
    message: str | None
    before: Path | None  # the SVG files, if the check drew them
    after: Path | None
    steps: tuple[Path, ...]  # drawings between the actions of a multi-step example
    file: str
    page: str | None = None  # where in the rulebook section, for printed examples


@dataclass(frozen=True)
class EngineNote:
    """A reading the rules engine takes where the rulebook is silent (the report's `notes`)."""

    rule: str | None
    text: str


@dataclass(frozen=True)
class CheckReport:
    examples: dict[tuple[str, str], dict[str, Any]]
    notes: dict[str, tuple[EngineNote, ...]]
    odds: dict[str, list[Any]]


def load_report(out: Path) -> CheckReport:
    """build/check/report.json: examples by (game, id) and engine notes by game; empty when the
    check has not run (or wrote something unreadable: the site then shows examples unchecked)."""
    path = out / "check" / "report.json"
    try:
        data = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        data = {}
    data = data if isinstance(data, dict) else {}
    records = data.get("examples") or []
    examples = {(str(r.get("game")), str(r.get("id"))): r for r in records if isinstance(r, dict)}
    notes: dict[str, tuple[EngineNote, ...]] = {}
    raw_notes = data.get("notes") if isinstance(data.get("notes"), dict) else {}
    for game, items in raw_notes.items():
        notes[str(game)] = tuple(EngineNote(_opt(n.get("rule")), str(n.get("note", "")))
                                 for n in items or () if isinstance(n, dict) and n.get("note"))
    raw_odds = data.get("odds") if isinstance(data.get("odds"), dict) else {}
    odds = {str(g): [t for t in tables if isinstance(t, dict)] for g, tables in raw_odds.items()
            if isinstance(tables, list)}
    return CheckReport(examples, notes, odds)


def game_examples(game: LoadedGame, out: Path, report: CheckReport) -> list[Example]:
    """Every example of the game, in rules order then file order (loaded and checked by the same
    scenario loader the rules check uses)."""
    order = {r.id: i for i, r in enumerate(game.rules)}
    found: list[tuple[int, int, Example]] = []
    files = sorted((Path(game.dir) / "examples").glob("*.yaml"))
    for loaded in load_scenarios(files, AS_WRITTEN, rule_ids=[r.id for r in game.rules]):
        scenario = loaded.scenario
        ex = _example(game, Path(loaded.doc.file), scenario, report.examples.get((game.id, scenario.id)), out)
        found.append((order.get(ex.rule or "", len(order)), len(found), ex))
    return [ex for *_, ex in sorted(found, key=lambda t: (t[0], t[1]))]


def _opt(value: Any) -> str | None:
    return None if value is None or value == "" else str(value)


def _example(game: LoadedGame, path: Path, s: Scenario, rec: dict[str, Any] | None, out: Path) -> Example:
    rec = rec or {}
    status = str(rec.get("status", "unchecked"))
    told = [n.get("says") for n in rec.get("narrative") or () if isinstance(n, dict)]
    actions = tuple(str(told[i]) if i < len(told) and told[i] else describe_action(plain(a))
                    for i, a in enumerate(s.actions))
    steps = [_svg(p, out, game.id, s.id, "") for p in rec.get("step_svgs") or ()]
    if len(steps) == len(actions):
        steps = steps[:-1]  # the drawing after the last action is the "after" one
    return Example(
        game=game.id,
        id=s.id,
        title=s.title,
        rule=s.rule,
        source=s.source,
        section=_opt(s.section),
        claim=_opt(s.claim),
        actions=actions,
        discrepancy=_opt(s.discrepancy),
        status=status if status in STATUSES else "failed",
        message=_opt(rec.get("message")) if status != "verified" else None,
        before=_svg(rec.get("before_svg"), out, game.id, s.id, "before") if rec else None,
        after=_svg(rec.get("after_svg"), out, game.id, s.id, "after") if rec else None,
        steps=tuple(p for p in steps if p is not None),
        file=path.name,
        page=_opt(s.page),
    )


def _svg(field: Any, out: Path, game: str, example_id: str, which: str) -> Path | None:
    """The report names its diagrams; accept a path (relative to build/check/, to build/ or as
    given) and fall back to the documented build/check/svg/<game>/<id>-<which>.svg."""
    candidates: list[Path] = []
    if isinstance(field, str) and field and not field.lstrip().startswith("<"):
        p = Path(field)
        candidates += [p] if p.is_absolute() else [out / "check" / p, out / p, p]
    if which:
        candidates.append(out / "check" / "svg" / game / f"{example_id}-{which}.svg")
    return next((c for c in candidates if c.is_file()), None)


def describe_action(action: Any) -> str:
    """One action as a line of text where the report has no wording for it (the check has not run):
    its fields (`do: move, path: [t2, t3]` -> `move — path: t2, t3`)."""
    return _describe(action)[:MAX_ACTION_TEXT]


def _describe(action: Any) -> str:
    if not isinstance(action, Mapping):
        return _value(action)
    fields = {k: v for k, v in action.items() if k != "expect"}
    verb_key = next((k for k in ("do", "action", "type", "kind") if k in fields), None)
    verb = _value(fields.pop(verb_key)) if verb_key else ""
    rest = ", ".join(f"{k}: {_value(v)}" for k, v in fields.items())
    if verb and rest:
        return f"{verb} — {rest}"
    return verb or rest


def _value(v: Any, depth: int = 0) -> str:
    if depth > 6:
        return "…"
    if isinstance(v, Mapping):
        return "{" + ", ".join(f"{k}: {_value(x, depth + 1)}" for k, x in list(v.items())[:20]) + "}"
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_value(x, depth + 1) for x in v[:20]) + "]"
    if isinstance(v, bool):
        return "yes" if v else "no"
    return str(v)
