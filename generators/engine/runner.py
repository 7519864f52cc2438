"""The rules-check runner: replay every scenario through its game's rules module and judge it.

For each scenario: `state = rules.initial_state(setup)`; then each action, with the runner-only
`expect` key removed (the engine never sees an expectation), goes through `rules.apply`; a step's
own `expect` is compared right after that step (against `outcome(state, events of that step)`);
at the end `outcome(state, all events)` is compared with the scenario's `expect`.

Comparison projects the computed outcome onto the keys present in `expect` (recursively for
mappings; lists must have the same length and are compared item by item). A key the engine does not
compute is a mismatch, so a typo never passes silently.

Statuses: `verified` (everything matches, no note); `erratum` (a mismatch, explained by a
`discrepancy` note); `failed` (a mismatch without a note, a note on an example that verifies, an
illegal action, an engine exception, scripted chance running out or left unused).

Outputs (atomic, deterministic): `<out>/report.json` and `<out>/svg/<game>/<id>-before.svg`,
`-after.svg`, and `-step-<i>.svg` after `actions[i]` for multi-step scenarios; the report's SVG paths
are relative to the report's folder.
"""

from __future__ import annotations

import json
import sys
import traceback
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generators.content.loader import Content
from generators.content.model import LoadedGame
from generators.content.yaml_io import Doc, display_path
from generators.engine.base import Chance, ChanceExhausted, IllegalAction, Rules, SetupError, rules_for
from generators.engine.scenario import RUNNER_ACTION_KEYS, Scenario, load_scenarios, located, plain, scenario_files
from generators.errors import ContentError
from generators.outputs import code_version, digest, write_atomic

STATUSES = ("verified", "erratum", "failed")


# Every scenario to run, loaded: (game, its rules module, [(scenario, its document)]).
Work = list[tuple[LoadedGame, Rules, list[tuple[Scenario, Doc]]]]


class CheckUsageError(Exception):
    """A command-line mistake (unknown game, a path outside any game): exit code 2."""


# --- finding games and their engines -----------------------------------------------------------


def rules_of(game: LoadedGame) -> Rules:
    """The rules module named by the game's `engine:`; a ContentError if it names none or a missing one."""
    game_yaml = Path(game.dir) / "game.yaml"
    if game.engine is None:
        raise ContentError(display_path(game_yaml), 1, 1, ("engine",),
                           "this game has worked examples but no engine: key naming its rules module")
    if not (Path(__file__).parent / f"{game.engine}.py").is_file():
        raise ContentError(display_path(game_yaml), 1, 1, ("engine",),
                           f"there is no rules module generators/engine/{game.engine}.py")
    return rules_for(game.engine)


def _owner(path: Path, games: Mapping[str, LoadedGame], chosen: Sequence[str] | None) -> str:
    """The game an extra scenario path belongs to: the nearest folder named after a game, or else
    the single --game given."""
    here = path.resolve()
    for folder in [here, *here.parents]:
        if folder.name in games:
            return folder.name
    if chosen and len(set(chosen)) == 1:
        return chosen[0]
    raise CheckUsageError(f"cannot tell which game {display_path(path)} belongs to; put it in a folder named "
                          "after the game or pass --game GAME")


def plan(content: Content, games: Sequence[str] | None = None,
         extra_paths: Sequence[Path] = ()) -> list[tuple[LoadedGame, list[Path]]]:
    """(game, scenario files) to check: every chosen game's examples/ plus the extra files or folders,
    each extra path going to the game it belongs to."""
    by_id = {g.id: g for g in content.games}
    for g in games or ():
        if g not in by_id:
            raise CheckUsageError(f"no game {g!r} in {content.root}; games: {', '.join(by_id) or 'none'}")
    files: dict[str, list[Path]] = {}
    for game in content.games:
        if not games or game.id in games:
            examples = sorted((Path(game.dir) / "examples").glob("*.yaml"))
            if examples:
                files[game.id] = examples
    for path in extra_paths:
        if not path.exists():
            raise CheckUsageError(f"no such file or folder: {display_path(path)}")
        files.setdefault(_owner(path, by_id, games), []).append(path)
    return [(by_id[g], files[g]) for g in sorted(files)]


def load_all(content: Content, games: Sequence[str] | None = None,
             extra_paths: Sequence[Path] = ()) -> Work:
    """Every scenario to check, loaded and validated (ids unique, rules known) before anything runs."""
    return [(game, rules_of(game), load_scenarios(paths, rule_ids=[r.id for r in game.rules]))
            for game, paths in plan(content, games, extra_paths)]


# --- comparing ---------------------------------------------------------------------------------


def fmt(value: Any) -> str:
    """A compact YAML-flow rendering, so messages read like the scenario files."""
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k}: {fmt(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(fmt(v) for v in value) + "]"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _same(expected: Any, computed: Any) -> bool:
    if isinstance(expected, bool) or isinstance(computed, bool):
        return type(expected) is type(computed) and expected == computed
    return bool(expected == computed)


def project(expected: Any, computed: Any, where: str = "") -> tuple[Any, list[str]]:
    """The computed value cut down to the shape of `expected`, plus one line per mismatch."""
    problems: list[str] = []

    def walk(exp: Any, comp: Any, at: str) -> Any:
        if isinstance(exp, Mapping):
            if not isinstance(comp, Mapping):
                problems.append(f"{at or 'outcome'}: expected {fmt(exp)}, computed {fmt(comp)}")
                return comp
            out = {}
            for key, sub in exp.items():
                path = f"{at}.{key}" if at else str(key)
                if key not in comp:
                    problems.append(f"engine does not compute {path!r}")
                    continue
                out[key] = walk(sub, comp[key], path)
            return out
        if isinstance(exp, (list, tuple)):
            if not isinstance(comp, (list, tuple)) or len(comp) != len(exp):
                problems.append(f"{at}: expected {fmt(exp)}, computed {fmt(comp)}")
                return comp
            return [walk(e, c, f"{at}[{i}]") for i, (e, c) in enumerate(zip(exp, comp, strict=True))]
        if not _same(exp, comp):
            problems.append(f"{at}: expected {fmt(exp)}, computed {fmt(comp)}")
        return comp

    return walk(expected, computed, where), problems


# --- running one scenario ----------------------------------------------------------------------


@dataclass
class _Run:
    """What one replay produced so far."""

    game: str
    scenario: Scenario
    doc: Doc
    svg_dir: Path | None
    out_dir: Path | None
    problems: list[str] = field(default_factory=list)
    fatal: str | None = None
    computed: Any = None
    steps: list[dict[str, Any]] = field(default_factory=list)
    svgs: dict[str, Any] = field(default_factory=lambda: {"before_svg": None, "after_svg": None, "step_svgs": []})

    def draw(self, rules: Rules, state: Any, suffix: str) -> str | None:
        if self.svg_dir is None or self.out_dir is None:
            return None
        target = self.svg_dir / f"{self.scenario.id}-{suffix}.svg"
        write_atomic(target, rules.draw_svg(state).encode())
        return target.relative_to(self.out_dir).as_posix()


def run_scenario(game: str, scenario: Scenario, doc: Doc, rules: Rules, out_dir: Path | None = None) -> dict[str, Any]:
    """Replay one scenario and return its report record. Malformed setup/actions raise ContentError."""
    svg_dir = out_dir / "svg" / game if out_dir is not None else None
    run = _Run(game, scenario, doc, svg_dir, out_dir)
    try:
        _replay(run, rules)
    except ContentError:
        raise
    except Exception as exc:  # the engine or its drawing broke: report it, keep checking the others
        run.fatal = f"{doc.file}: the engine raised {_describe(exc)}"
    return _record(run)


def _describe(exc: BaseException) -> str:
    frame = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None
    where = f" (at {Path(frame.filename).name}:{frame.lineno})" if frame else ""
    return f"{type(exc).__name__}: {exc}{where}"


def _replay(run: _Run, rules: Rules) -> None:
    sc, doc = run.scenario, run.doc
    try:
        state = rules.initial_state(plain(sc.setup))
    except SetupError as exc:
        raise located(doc, ("setup",), exc.path, exc.message) from None
    run.svgs["before_svg"] = run.draw(rules, state, "before")
    chance = Chance(list(plain(sc.random)))
    all_events: list[Any] = []
    for i, raw in enumerate(sc.actions):
        action = plain(raw)
        step_expect = action.get("expect")
        for key in RUNNER_ACTION_KEYS:
            action.pop(key, None)
        where = f"actions[{i}]"
        try:
            state, events = rules.apply(state, action, chance)
        except SetupError as exc:
            raise located(doc, ("actions", i), exc.path, exc.message) from None
        except IllegalAction as exc:
            legal = exc.legal or rules.legal_actions(state)
            listed = "; ".join(fmt(a) for a in legal) if legal else "none"
            run.fatal = f"{doc.file}: {where}: illegal action {fmt(action)}: {exc.message}. Legal: {listed}"
            return
        except ChanceExhausted as exc:
            run.fatal = f"{doc.file}: {where}: {exc}; add the missing results to random:"
            return
        all_events += events
        if step_expect is not None:
            _compare_step(run, rules.outcome(state, events), step_expect, where)
        if len(sc.actions) > 1:
            run.svgs["step_svgs"].append(run.draw(rules, state, f"step-{i}"))
    run.svgs["after_svg"] = run.draw(rules, state, "after")
    final = rules.outcome(state, all_events)
    run.computed, problems = project(plain(sc.expect), final)
    run.problems += [f"{doc.file}: final outcome: {p}" for p in problems]
    if chance.used < len(chance.script):
        unused = len(chance.script) - chance.used
        run.fatal = f"{doc.file}: random: {unused} scripted result(s) were never used; remove them or fix the actions"


def _compare_step(run: _Run, computed: Mapping[str, Any], expected: Any, where: str) -> None:
    projection, problems = project(plain(expected), computed)
    run.steps.append({"step": where, "expected": plain(expected), "computed": projection, "ok": not problems})
    run.problems += [f"{run.doc.file}: after {where}: {p}" for p in problems]


def _record(run: _Run) -> dict[str, Any]:
    sc = run.scenario
    note = sc.discrepancy
    if run.fatal:
        status, message = "failed", run.fatal
    elif run.problems:
        status = "erratum" if note else "failed"
        message = "; ".join(run.problems)
    elif note:
        status = "failed"
        message = f"{run.doc.file}: discrepancy: the example verifies, so its note is stale; remove it"
    else:
        status, message = "verified", ""
    return {
        "game": run.game, "id": sc.id, "title": sc.title, "rule": sc.rule, "source": sc.source,
        "section": sc.section, "claim": sc.claim, "page": sc.page, "file": Path(run.doc.file).as_posix(),
        "status": status, "expected": plain(sc.expect), "computed": run.computed, "message": message,
        "discrepancy": note, "steps": run.steps, **run.svgs,
    }


# --- the whole check ---------------------------------------------------------------------------


@dataclass
class Report:
    examples: list[dict[str, Any]]
    notes: dict[str, list[dict[str, str]]] = field(default_factory=dict)

    @property
    def summary(self) -> dict[str, int]:
        return {s: sum(1 for e in self.examples if e["status"] == s) for s in STATUSES}

    def as_dict(self) -> dict[str, Any]:
        return {"examples": self.examples, "summary": self.summary, "notes": self.notes}

    def to_json(self) -> str:
        return json.dumps(self.as_dict(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def _engine_notes(rules: Rules) -> list[dict[str, str]]:
    """A module's NOTES (rule id, our reading where the rulebook is silent), for the site."""
    return [{"rule": rule, "note": text} for rule, text in getattr(rules, "NOTES", ())]


def check(content: Content, games: Sequence[str] | None = None, extra_paths: Sequence[Path] = (),
          out_dir: Path = Path("build/check"), loaded: Work | None = None) -> Report:
    """Check every scenario of `games` (default all) plus `extra_paths`; write the report and SVGs.

    Every scenario is loaded before anything runs (or was, and is passed as `loaded`), so a content
    mistake stops the check (ContentError) before any output is written.
    """
    work = loaded if loaded is not None else load_all(content, games, extra_paths)
    examples: list[dict[str, Any]] = []
    notes: dict[str, list[dict[str, str]]] = {}
    for game, rules, scenarios in work:
        notes[game.id] = _engine_notes(rules)
        examples += [run_scenario(game.id, sc, doc, rules, out_dir) for sc, doc in scenarios]
    report = Report(examples, notes)
    _remove_stale_svgs(out_dir, [g.id for g, _, _ in work], examples)
    write_atomic(out_dir / "report.json", report.to_json().encode())
    return report


def _inputs_key(content: Content, games: Sequence[str] | None, extra_paths: Sequence[Path]) -> str:
    """What a check depends on: the engine code, the scenario files and each game's rule ids."""
    parts: list[object] = [code_version("engine")]
    for game, paths in plan(content, games, extra_paths):
        parts.append((game.id, game.engine, tuple(r.id for r in game.rules)))
        parts += [(str(p), p.read_bytes()) for p in scenario_files(paths)]
    return digest(*parts)


def validate_scenarios(content: Content, games: Sequence[str] | None, out: Path) -> Work | None:
    """Load every scenario so a mistake stops the build before anything is written; skipped (None)
    when the check's inputs are those of its last run, which loaded them all without error. The
    loaded scenarios go on to `run_check`, so they are read once."""
    stamp = out / "check" / ".inputs"
    if stamp.is_file() and stamp.read_text("utf-8") == _inputs_key(content, games, ()):
        return None
    return load_all(content, games)


def run_check(content: Content, extra_paths: Sequence[Path], out: Path, *, games: Sequence[str] | None = None,
              as_json: bool = False, quiet: bool = False, loaded: Work | None = None) -> int:
    """The check as `roadkit check` and `roadkit build` run it: skipped when nothing it reads changed.
    Returns the exit status: 1 if an example failed."""
    out_dir = out / "check"
    try:
        key = _inputs_key(content, games, extra_paths)
        stamp = out_dir / ".inputs"
        report_path = out_dir / "report.json"
        if stamp.is_file() and report_path.is_file() and stamp.read_text("utf-8") == key:
            data = json.loads(report_path.read_text("utf-8"))
            report = Report(data["examples"], data.get("notes", {}))
        else:
            report = check(content, games, extra_paths, out_dir, loaded)
            write_atomic(stamp, key.encode())
    except CheckUsageError as exc:
        print(f"roadkit check: {exc}", file=sys.stderr)
        return 2
    if as_json:
        print(report.to_json(), end="")
    elif not quiet:
        print(_human(report, out_dir))
    return 1 if report.summary["failed"] else 0


def _remove_stale_svgs(out_dir: Path, games: Iterable[str], examples: list[dict[str, Any]]) -> None:
    """Drop drawings of scenarios that no longer exist, so the site never shows a deleted example."""
    keep = {e[k] for e in examples for k in ("before_svg", "after_svg") if e[k]}
    keep |= {p for e in examples for p in e["step_svgs"] if p}
    for game in games:
        folder = out_dir / "svg" / game
        for svg in sorted(folder.glob("*.svg")) if folder.is_dir() else ():
            if svg.relative_to(out_dir).as_posix() not in keep:
                svg.unlink()


# --- command line ------------------------------------------------------------------------------


def _human(report: Report, out_dir: Path) -> str:
    lines = []
    for e in report.examples:
        label = "FAILED" if e["status"] == "failed" else e["status"]
        lines.append(f"{label:<9} {e['game']}/{e['id']}  {e['title']}")
        if e["status"] != "verified":
            lines.append(f"          {e['message']}")
        if e["status"] == "erratum":
            lines.append(f"          note: {e['discrepancy']}")
    s = report.summary
    lines.append(f"{len(report.examples)} examples: {s['verified']} verified, {s['erratum']} erratum, "
                 f"{s['failed']} failed (report: {display_path(out_dir / 'report.json')})")
    return "\n".join(lines)


def check_main(argv: Sequence[str] | None = None) -> int:
    """`roadkit check ...` (the CLI's subcommand), for tests and `python -m generators.engine.runner`."""
    from generators.cli import main

    return main(["check", *(argv or [])])


if __name__ == "__main__":  # pragma: no cover - the CLI normally goes through generators/cli.py
    sys.exit(check_main())
