"""Worked examples as the site shows them: the scenario files (what is claimed, what is done) joined
with the rules check's report (the status, the narrative in words and the diagrams).

The scenario files say which examples exist, so the site lists every one even before `roadkit
check` has run; the report only adds what the engine computed. The site never runs the engine.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generators.content.model import LoadedGame
from generators.content.scenario import AS_WRITTEN, Scenario, load_scenarios, plain
from generators.site.narrative import MAX_TEXT, Step, plain_words, steps

STATUSES = ("verified", "erratum", "failed", "unchecked")
REPORT_NAME = "report.json"  # the check's raw report; each game's authors page offers its part


@dataclass(frozen=True)
class Example:
    game: str
    id: str
    title: str
    rule: str | None
    source: str  # printed | ours
    section: str | None
    claim: str | None
    steps: tuple[Step, ...]  # what is done, in words, with every roll and draw
    discrepancy: str | None
    status: str  # one of STATUSES
    message: str | None
    before: Path | None  # the SVG files, if the check drew them
    after: Path | None
    between: tuple[Path, ...]  # drawings between the actions of a multi-step example
    file: str
    page: str | None = None  # where in the rulebook section, for printed examples
    alts: tuple[str, ...] = ()  # what each drawing shows changed: before, after, then those between
    written: str = ""  # setup, random and actions as written (JSON), for the authors' page
    ending: str | None = None  # where the example ends, in the rules check's words (who won, health, places)
    refused_setup: str | None = None  # why the rules refuse the example's setup (it then has no diagrams)

    @property
    def badge(self) -> str:
        """What the reader is told: `erratum` only where a printed example contradicts the rules;
        our own example that plays the other of two rule texts is a `table choice`."""
        if self.status == "erratum" and self.source != "printed":
            return "table-choice"
        return self.status


@dataclass(frozen=True)
class CheckReport:
    examples: dict[tuple[str, str], dict[str, Any]]
    odds: dict[str, list[Any]]
    simulations: dict[str, Any]
    legends: dict[str, list[dict[str, str]]] = field(default_factory=dict)  # per game: kind, label, svg
    # per game: the committed whole-game figures (content/<game>/figures.json) as the check reports them
    figures: dict[str, dict[str, Any]] = field(default_factory=dict)
    raw: dict[str, Any] = field(default_factory=dict, compare=False)

    def game_json(self, game: str) -> str:
        """The report's part about one game, as JSON (what that game's authors page links to)."""
        def mine(key: str) -> Any:
            part = self.raw.get(key)
            return part.get(game) if isinstance(part, dict) else None

        records = got if isinstance(got := self.raw.get("examples"), list) else []
        data = {"game": game, "examples": [r for r in records if isinstance(r, dict) and r.get("game") == game],
                "odds": mine("odds") or [], "simulations": mine("simulations"),
                "legend": mine("legends") or [], "figures": mine("figures")}
        return json.dumps(data, indent=1, ensure_ascii=False, sort_keys=True) + "\n"


def load_report(out: Path) -> CheckReport:
    """build/check/report.json: examples by (game, id), odds, figures and drawings' legends by game; empty when the
    check has not run (or wrote something unreadable: the site then shows examples unchecked)."""
    path = out / "check" / "report.json"
    try:
        data = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        data = {}
    data = data if isinstance(data, dict) else {}
    records = data.get("examples") or []
    examples = {(str(r.get("game")), str(r.get("id"))): r for r in records if isinstance(r, dict)}
    raw_odds = got if isinstance(got := data.get("odds"), dict) else {}
    odds = {str(g): [t for t in tables if isinstance(t, dict)] for g, tables in raw_odds.items()
            if isinstance(tables, list)}
    raw_sims = got if isinstance(got := data.get("simulations"), dict) else {}
    raw_legends = got if isinstance(got := data.get("legends"), dict) else {}
    legends = {str(g): [e for e in items if isinstance(e, dict)] for g, items in raw_legends.items()
               if isinstance(items, list)}
    raw_figures = got if isinstance(got := data.get("figures"), dict) else {}
    figures = {str(g): v for g, v in raw_figures.items() if isinstance(v, dict)}
    return CheckReport(examples, odds, {str(g): v for g, v in raw_sims.items()}, legends, figures,
                       data)


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
    actions = [plain(a) for a in s.actions]
    between = [_svg(p, out, game.id, s.id, "") for p in rec.get("step_svgs") or ()]
    if len(between) == len(actions):
        between = between[:-1]  # the drawing after the last action is the "after" one
    written = json.dumps({"setup": plain(s.setup), "random": plain(s.random), "actions": actions},
                         ensure_ascii=False, separators=(", ", ": "), sort_keys=True, default=str)
    return Example(
        game=game.id,
        id=s.id,
        title=s.title,
        rule=s.rule,
        source=s.source,
        section=_opt(s.section),
        claim=_opt(s.claim),
        steps=steps(rec, actions),
        discrepancy=_opt(s.discrepancy),
        status=status if status in STATUSES else "failed",
        message=_opt(rec.get("message")) if status != "verified" else None,
        before=_svg(rec.get("before_svg"), out, game.id, s.id, "before") if rec else None,
        after=_svg(rec.get("after_svg"), out, game.id, s.id, "after") if rec else None,
        between=tuple(p for p in between if p is not None),
        file=path.name,
        page=_opt(s.page),
        written=written,
        alts=tuple(str(a) for a in [rec.get("before_alt") or "", rec.get("after_alt") or "",
                                    *(rec.get("step_alts") or [])]),
        ending=plain_words(str(rec.get("ending")))[:MAX_TEXT] or None if rec.get("ending") else None,
        refused_setup=next((plain_words(str(st.get("reason")))[:MAX_TEXT] for st in rec.get("steps") or ()
                            if isinstance(st, dict) and st.get("step") == "setup" and st.get("reason")), None),
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
