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

Outputs (deterministic): `<out>/report.json` and `<out>/svg/<game>/<id>-before.svg`, `-after.svg`,
and `-step-<i>.svg` after `actions[i]` for multi-step scenarios; the report's SVG paths are relative
to the report's folder. The whole check is computed in memory and then committed as one output of
the build graph (generators/build_system/build_graph.py): a disk that cannot take it fails the run as an environment
error and records nothing, so the next run computes the check again.
"""

from __future__ import annotations

import functools
import json
import sys
import traceback
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from generators.build_system.build_graph import (
    CHECK_CODE,
    Commit,
    Manifest,
    Target,
    code_version,
    digest,
    realize,
    user_path,
)
from generators.build_system.errors import CheckUsageError, ContentError
from generators.check.report import PARTS, SIMULATIONS
from generators.content.loader import Content
from generators.content.model import LoadedGame
from generators.content.scenario import LoadedScenario, load_scenarios, located, plain, scenario_files
from generators.content.yaml_io import content_files, display_path
from generators.play import figures
from generators.play.players import POLICIES
from generators.play.simulate import policies, simulate_one
from generators.rules.chance import Chance, ChanceExhausted, ChanceMismatch
from generators.rules.contract import Game, has_engine, load_engine
from generators.rules.facts import GameContent, game_content
from generators.rules.refusals import IllegalAction, SetupError
from generators.rules.svg import Focus, change_swatches, changes_between, sentence, starting_places, via

STATUSES = ("verified", "erratum", "failed")


@dataclass(frozen=True)
class Prepared:
    """A scenario loaded and validated, with the initial state its setup builds."""

    loaded: LoadedScenario
    state: Any  # None when the rules refused the setup (`refused` says why)
    content: GameContent | None = None  # for the step wording: names as the content prints them
    refused: str | None = None


class GameWork:
    """One game's part of a check: its engine, the content it reads, its prepared scenarios, each
    loaded when first asked for (`load_all` loads at once every game validation must check now)."""

    def __init__(self, game: LoadedGame, paths: tuple[Path, ...]):
        self.game = game
        self.paths = paths  # the scenario files and folders it is loaded from

    @cached_property
    def _rules(self) -> tuple[Game[Any, Any], GameContent]:
        engine = engine_of(self.game)
        return engine, game_content(self.game, engine)

    @property
    def engine(self) -> Game[Any, Any]:
        return self._rules[0]

    @property
    def content(self) -> GameContent:
        return self._rules[1]

    @cached_property
    def scenarios(self) -> tuple[Prepared, ...]:
        engine, facts = self._rules
        loaded = load_scenarios(list(self.paths), engine, rule_ids=[r.id for r in self.game.rules])
        return tuple(prepare(engine, facts, s) for s in loaded)


Work = list[GameWork]


# --- finding games and their engines -----------------------------------------------------------


def engine_of(game: LoadedGame) -> Game[Any, Any]:
    """The engine named by the game's `engine:`; a ContentError if it names none or a missing one."""
    game_yaml = Path(game.dir) / "game.yaml"
    if game.engine is None:
        raise ContentError(display_path(game_yaml), 1, 1, ("engine",),
                           "this game has worked examples but no engine: key naming its rules module")
    if not has_engine(game.engine):
        raise ContentError(display_path(game_yaml), 1, 1, ("engine",),
                           f"there is no rules package generators/games/{game.engine}/ (nor in a folder "
                           "given with --engines)")
    return load_engine(game.engine)


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
            examples = content_files(Path(game.dir) / "examples", "*.yaml")
            if examples:
                files[game.id] = examples
    for path in extra_paths:
        if not path.exists():
            raise CheckUsageError(f"no such file or folder: {display_path(path)}")
        files.setdefault(_owner(path, by_id, games), []).append(path)
    return [(by_id[g], files[g]) for g in sorted(files)]


def load_all(content: Content, games: Sequence[str] | None = None,
             extra_paths: Sequence[Path] = (), later: Collection[str] = ()) -> Work:
    """Every scenario to check, loaded and validated before anything runs: the file format, the
    setup and every action against the engine's specs, ids unique, rules known, and each setup built
    (a setup the rules cannot reach is a located error). Games in `later` (ones a run validated
    from exactly the same files and code) are loaded only if something asks for them."""
    work = []
    for game, paths in plan(content, games, extra_paths):
        w = GameWork(game, tuple(paths))
        if game.id not in later:
            w.scenarios  # noqa: B018 - loaded now: a mistake stops the run before anything is written
        work.append(w)
    return work


def prepare(engine: Game[Any, Any], facts: GameContent, loaded: LoadedScenario) -> Prepared:
    """The scenario with the state its setup builds. A setup the rules refuse is a located content
    error, unless the scenario expects exactly that (`expect: {refused: ...}`): then the refusal is
    what the replay judges."""
    try:
        state = engine.initial_state(loaded.setup, facts)
    except SetupError as exc:
        if _expects_refusal(loaded):
            return Prepared(loaded, None, facts, refused=exc.message)
        raise located(loaded.doc, ("setup",), exc.path, exc.message) from None
    return Prepared(loaded, state, facts)


def _expects_refusal(loaded: LoadedScenario) -> bool:
    return "refused" in loaded.scenario.expect


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
    prepared: Prepared
    svgs_out: dict[str, bytes] | None  # the drawings, by path relative to the report's folder
    problems: list[str] = field(default_factory=list)
    fatal: str | None = None
    computed: Any = None
    final: dict[str, Any] | None = None
    steps: list[dict[str, Any]] = field(default_factory=list)
    narrative: list[dict[str, Any]] = field(default_factory=list)
    ending: str = ""  # where the example ends, in the engine's words
    svgs: dict[str, Any] = field(default_factory=lambda: {"before_svg": None, "after_svg": None, "step_svgs": []})
    states: list[Any] = field(default_factory=list)  # the setup, then the state after each applied step
    routes: list[dict[str, list[tuple[float, float]]]] = field(default_factory=list)  # each step's, by piece
    finished: bool = False  # every step ran: the last state is the "after" one

    @property
    def file(self) -> str:
        return self.prepared.loaded.doc.file

    def draw(self, engine: Game[Any, Any], state: Any, suffix: str, focus: Focus | None) -> str | None:
        if self.svgs_out is None:
            return None
        rel = f"svg/{self.game}/{self.prepared.loaded.scenario.id}-{suffix}.svg"
        self.svgs_out[rel] = engine.draw_svg(state, focus).encode()
        return rel

    def draw_all(self, engine: Game[Any, Any]) -> None:
        """Every drawing of the example in one window (so they compare), each after-drawing marked
        with what changed since the drawing before it, and alt text that says so."""
        if not self.states:
            return
        window = engine.focus_on(self.states).window
        pieces = [engine.pieces(s) for s in self.states]
        first = pieces[0]
        overall = via(changes_between(first, pieces[-1]), self.routes, pieces) if self.finished else ()
        self.svgs["before_svg"] = self.draw(engine, self.states[0], "before", Focus(window))
        self.svgs["before_alt"] = _alt("Before", starting_places(overall))
        steps = self.states[1:] if len(self.prepared.loaded.steps) > 1 else []
        for i, state in enumerate(steps):
            changed = via(changes_between(pieces[i], pieces[i + 1]), self.routes[i:i + 1], pieces[i:i + 2])
            self.svgs["step_svgs"].append(self.draw(engine, state, f"step-{i}", Focus(window, changed)))
            self.svgs.setdefault("step_alts", []).append(_alt(f"After step {i + 1}", sentence(changed)))
        if self.finished:
            self.svgs["after_svg"] = self.draw(engine, self.states[-1], "after", Focus(window, overall))
            self.svgs["after_alt"] = _alt("After", sentence(overall))


def _alt(when: str, said: str) -> str:
    """Alt text for one drawing; empty when no piece changed (the site then says the example's outcome)."""
    return f"{when}: {said}" if said else ""


def run_scenario(game: str, prepared: Prepared, engine: Game[Any, Any], svgs: dict[str, bytes] | None = None,
                 full: bool = False) -> dict[str, Any]:
    """Replay one prepared scenario and return its report record; with `svgs`, its drawings are added
    there (by path relative to the report). `full` adds the whole final outcome (every key the engine
    computes, events included) for golden files. Nothing is written: a replay never meets the disk."""
    run = _Run(game, prepared, svgs)
    try:
        _replay(run, engine)
        run.draw_all(engine)
    except Exception as exc:  # the engine or its drawing broke: report it, keep checking the others
        run.fatal = f"{run.file}: the engine raised {_describe(exc)}"
    record = _record(run)
    if full:
        record["outcome"] = run.final
    return record


def _describe(exc: BaseException) -> str:
    frame = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None
    where = f" (at {Path(frame.filename).name}:{frame.lineno})" if frame else ""
    return f"{type(exc).__name__}: {exc}{where}"


def computed_outcome(engine: Game[Any, Any], state: Any, events: list[Any], wanted: Any = None) -> dict[str, Any]:
    """The engine's outcome, plus `legal` (every legal action, as scenarios write them) when asked for."""
    result = engine.outcome(state, events)
    if isinstance(wanted, Mapping) and "legal" in wanted:
        result = {**result, "legal": engine.legal_data(state)}
    return result


def _judge_setup_refusal(run: _Run) -> None:
    """A scenario that expects its setup refused: the refusal's reason must say what it claims."""
    wanted = str(run.prepared.loaded.scenario.expect["refused"])
    reason = run.prepared.refused
    run.finished = True
    if reason is None:
        run.final = run.computed = {"refused": None}
        run.problems.append(f"{run.file}: setup: should be refused ({wanted!r}), but the rules allowed it")
        return
    run.final = run.computed = {"refused": reason}
    ok = wanted.casefold() in reason.casefold()
    run.steps.append({"step": "setup", "refused": wanted, "reason": reason, "ok": ok})
    if not ok:
        run.problems.append(f"{run.file}: setup: refused, but the reason {reason!r} does not say {wanted!r}")


def _replay(run: _Run, engine: Game[Any, Any]) -> None:
    loaded = run.prepared.loaded
    sc, state, content = loaded.scenario, run.prepared.state, run.prepared.content
    if _expects_refusal(loaded):
        _judge_setup_refusal(run)
        return
    run.states.append(state)
    chance = Chance(list(loaded.random))
    all_events: list[Any] = []
    for i, step in enumerate(loaded.steps):
        where = f"actions[{i}]"
        asked = len(chance.log)
        try:
            new_state, events = engine.apply(state, step.action, chance)
        except SetupError as exc:
            if step.refused is not None:  # refused for a reason found in the action itself
                _check_refusal(run, where, exc.message, step.refused, engine, state)
                continue
            raise located(loaded.doc, ("actions", i), exc.path, exc.message) from None
        except IllegalAction as exc:
            if step.refused is not None:
                _check_refusal(run, where, exc.message, step.refused, engine, state)
                continue
            legal = exc.legal or engine.legal_data(state)
            listed = "; ".join(fmt(a) for a in legal) if legal else "none"
            run.fatal = f"{run.file}: {where}: illegal action {fmt(step.data)}: {exc.message}. Legal: {listed}"
            return
        except (ChanceExhausted, ChanceMismatch) as exc:
            run.fatal = f"{run.file}: {where}: {exc}"
            return
        if step.refused is not None:
            run.problems.append(f"{run.file}: {where}: {fmt(step.data)} should be refused ({step.refused!r}), "
                                "but the rules allowed it")
            run.steps.append({"step": where, "refused": step.refused, "ok": False})
            return
        drawn = chance.log[asked:]
        told = {"action": step.data, "says": engine.describe_action(step.action, state, content),
                "random": [[r.label, r.value] for r in drawn],
                "draws": [engine.describe_random(r.label, r.value, content) for r in drawn]}
        then = engine.describe_events(events, content, new_state)
        run.narrative.append({**told, "then": then} if then else told)
        state = new_state
        all_events += events
        if step.expect is not None:
            _compare_step(run, computed_outcome(engine, state, events, step.expect), step.expect, where)
        run.states.append(state)
        run.routes.append(engine.route(state, events))
    run.finished = True
    run.ending = engine.describe_end(state, content)
    expect = plain(sc.expect)
    run.final = computed_outcome(engine, state, all_events, expect)
    run.computed, problems = project(expect, run.final)
    run.problems += [f"{run.file}: final outcome: {p}" for p in problems]
    if chance.unused:
        labels = ", ".join(r.label for r in chance.unused)
        run.fatal = f"{run.file}: random: {len(chance.unused)} scripted result(s) were never used ({labels}); " \
                    "remove them or fix the actions"


def _check_refusal(run: _Run, where: str, reason: str, wanted: str, engine: Game[Any, Any], state: Any) -> None:
    ok = wanted.casefold() in reason.casefold()
    run.steps.append({"step": where, "refused": wanted, "reason": reason, "ok": ok})
    step = run.prepared.loaded.steps[int(where[8:-1])]
    run.narrative.append({"action": step.data, "refused": reason,
                          "says": _tried(engine, step.action, state, run.prepared.content)})
    if not ok:
        run.problems.append(f"{run.file}: {where}: refused, but the reason {reason!r} does not say {wanted!r}")


def _tried(engine: Game[Any, Any], action: Any, state: Any, content: GameContent | None) -> str | None:
    """The refused action in words, if the engine can word it from the position it was tried in."""
    try:
        return engine.describe_action(action, state, content)
    except Exception:  # an action the rules refuse may name what does not exist: the reason says so
        return None


def _compare_step(run: _Run, computed: Mapping[str, Any], expected: Any, where: str) -> None:
    projection, problems = project(plain(expected), computed)
    run.steps.append({"step": where, "expected": plain(expected), "computed": projection, "ok": not problems})
    run.problems += [f"{run.file}: after {where}: {p}" for p in problems]


def _record(run: _Run) -> dict[str, Any]:
    sc = run.prepared.loaded.scenario
    note = sc.discrepancy
    if run.fatal:
        status, message = "failed", run.fatal
    elif run.problems:
        status = "erratum" if note else "failed"
        message = "; ".join(run.problems)
    elif note:
        status = "failed"
        message = f"{run.file}: discrepancy: the example verifies, so its note is stale; remove it"
    else:
        status, message = "verified", ""
    return {
        "game": run.game, "id": sc.id, "title": sc.title, "rule": sc.rule, "source": sc.source,
        "section": sc.section, "claim": sc.claim, "page": sc.page, "file": Path(run.file).as_posix(),
        "status": status, "expected": plain(sc.expect), "computed": run.computed, "message": message,
        "discrepancy": note, "steps": run.steps, "narrative": run.narrative, "ending": run.ending,
        **run.svgs,
    }


# --- the whole check ---------------------------------------------------------------------------


@dataclass
class Report:
    """The check's result, and everything else the site reads from the engines (it imports none)."""

    examples: list[dict[str, Any]]
    odds: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    simulations: dict[str, dict[str, Any]] = field(default_factory=dict)
    legends: dict[str, list[dict[str, str]]] = field(default_factory=dict)  # per game: kind, label, svg path
    # per game: the committed figures (content/<game>/figures.json), each part marked current or not
    figures: dict[str, dict[str, Any]] = field(default_factory=dict)

    @property
    def summary(self) -> dict[str, int]:
        return {s: sum(1 for e in self.examples if e["status"] == s) for s in STATUSES}

    def as_dict(self) -> dict[str, Any]:
        return {"examples": self.examples, "summary": self.summary, "odds": self.odds,
                "simulations": self.simulations, "legends": self.legends, "figures": self.figures}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Report:
        return cls(data["examples"], data.get("odds", {}), data.get("simulations", {}),
                   data.get("legends", {}), data.get("figures", {}))

    def to_json(self) -> str:
        return json.dumps(self.as_dict(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def _legend(game: str, engine: Game[Any, Any], files: dict[str, bytes]) -> list[dict[str, str]]:
    """The game's legend (its piece kinds, then the marks every game shares), each swatch a file."""
    swatches = engine.legend()
    if not swatches:
        return []
    out = []
    for sw in [*swatches, *change_swatches()]:
        rel = f"svg/{game}/legend-{sw.kind}.svg"
        files[rel] = sw.svg.encode()
        out.append({"kind": sw.kind, "label": sw.label, "svg": rel})
    return out


def compute_check(work: Work, simulate_games: int = 0) -> tuple[Report, dict[str, bytes]]:
    """Replay every prepared scenario: the report and every file of the check's folder, in memory;
    `simulate_games` whole games per setting go into the report too (for the site's overviews)."""
    parts = [json.loads(game_part(w)) for w in work]
    sims = {w.game.id: _figures([json.loads(_simulated(w, simulate_games, policy, i))
                                 for policy, i in simulation_plan(w)])
            for w in work} if simulate_games > 0 else {}
    return assemble(work, parts, sims)


def game_part(w: GameWork) -> bytes:
    """One game's part of the check: its examples replayed, the engine's odds, and the
    drawings (by path relative to the check's folder), as JSON."""
    svgs: dict[str, bytes] = {}
    examples = [run_scenario(w.game.id, p, w.engine, svgs) for p in w.scenarios]
    data = {"examples": examples, "odds": w.engine.odds_for(w.content),
            "figures": figures.for_report(w.game, w.game.engine or "", w.content),
            "legend": _legend(w.game.id, w.engine, svgs),
            "svgs": {rel: svg.decode("utf-8") for rel, svg in sorted(svgs.items())}}
    return json.dumps(data, sort_keys=True, ensure_ascii=False).encode("utf-8")


def simulation_plan(w: GameWork) -> list[tuple[str, int]]:
    """(policy, setting index) of every line of a game's whole-game figures, in report order."""

    return [(policy, i) for policy in policies(w.engine, w.content) for i in range(len(w.engine.simulation_setups()))]


def _simulated(w: GameWork, games: int, policy: str, index: int) -> bytes:
    line = simulate_one(w.game.engine or "", w.content, games, policy, index)
    return json.dumps(line, sort_keys=True, ensure_ascii=False).encode("utf-8")


def _figures(lines: list[dict[str, Any]]) -> dict[str, Any]:
    """A game's whole-game figures as the report holds them: what each policy is, then its lines."""

    return {"policies": dict(POLICIES), "settings": lines}


def assemble(work: Work, parts: Sequence[Mapping[str, Any]],
             sims: Mapping[str, Mapping[str, Any]]) -> tuple[Report, dict[str, bytes]]:
    """The report and the check's files from each game's part and simulations."""
    files: dict[str, bytes] = {}
    examples: list[dict[str, Any]] = []
    odds: dict[str, list[dict[str, Any]]] = {}
    legends: dict[str, list[dict[str, str]]] = {}
    stored: dict[str, dict[str, Any]] = {}
    for w, part in zip(work, parts, strict=True):
        examples += part["examples"]
        stored[w.game.id] = part.get("figures") or {}
        odds[w.game.id] = part["odds"]
        legends[w.game.id] = part["legend"]
        files.update({rel: svg.encode("utf-8") for rel, svg in part["svgs"].items()})
    report = Report(examples, odds, {g: dict(v) for g, v in sims.items()}, legends, stored)
    files["report.json"] = report.to_json().encode()
    return report, files


def check(content: Content, games: Sequence[str] | None = None, extra_paths: Sequence[Path] = (),
          out_dir: Path = Path("build/check"), loaded: Work | None = None) -> Report:
    """Check every scenario of `games` (default all) plus `extra_paths`; write the report and SVGs to
    `out_dir` (outside the build graph: for tests and tools).

    Every scenario is loaded before anything runs (or was, and is passed as `loaded`), so a content
    mistake stops the check (ContentError) before any output is written.
    """
    work = loaded if loaded is not None else load_all(content, games, extra_paths)
    report, files = compute_check(work)
    with Commit(None) as commit:
        commit.sync_folder(out_dir, files, keep=lambda rel: not rel.startswith("svg/"))
        commit.apply()
    return report


# --- the check as targets of the build graph --------------------------------------------------



def engine_code(engine: str | None) -> str:
    """The code a game's check, whole games and scenario schema run: what the runner imports, with
    the game's own rules package as the engine it loads; an edit to one game's engine remakes that
    game's outputs alone, and a site or print edit none."""
    return code_version(*CHECK_CODE, loads=(engine or "",))


def game_key(w: GameWork) -> str:
    """What a game's part depends on: the code, the game's content files (the engine reads card
    facts from them) and rule ids, its committed figures, and its scenario files with the names the
    report shows."""
    stored = figures.path_of(w.game)
    return digest(engine_code(w.game.engine), w.game.id, w.game.engine, tuple(r.id for r in w.game.rules),
                  sorted(w.game.files.items()), stored.read_bytes() if stored.is_file() else None,
                  [(display_path(p), p.read_bytes()) for p in scenario_files(list(w.paths))])


def check_targets(work: Work, out: Path, simulate_games: int = 0) -> list[Target]:
    """Each game's part, and each line of its whole-game figures, as a target: the build makes the
    stale ones on its workers beside the print kit. Simulations first: they take longest. A line's
    key is what the engine plays with (the game's facts), so an edit to card text replays nothing."""
    folder = out / "check"
    targets: list[Target] = []
    if simulate_games > 0:
        for w in work:
            facts = digest(engine_code(w.game.engine), w.game.engine, w.content, simulate_games)
            for policy, i in simulation_plan(w):
                targets.append(Target(folder / SIMULATIONS / w.game.id / f"{policy}-{i}.json",
                                      digest(facts, policy, i),
                                      functools.partial(_simulated, w, simulate_games, policy, i)))
    for w in work:
        targets.append(Target(folder / PARTS / f"{w.game.id}.json", game_key(w),
                              functools.partial(game_part, w)))
    return targets


def assemble_check(work: Work, out: Path, manifest: Manifest, simulate_games: int = 0) -> Report:
    """report.json and the drawings from the parts the targets made (all fresh by now); files whose
    bytes are unchanged are left alone."""
    folder = out / "check"
    parts = [json.loads((folder / PARTS / f"{w.game.id}.json").read_text("utf-8")) for w in work]
    sims = {}
    if simulate_games > 0:
        for w in work:
            lines = [json.loads((folder / SIMULATIONS / w.game.id / f"{policy}-{i}.json").read_text("utf-8"))
                     for policy, i in simulation_plan(w)]
            sims[w.game.id] = _figures(lines)
    report, files = assemble(work, parts, sims)
    with Commit(manifest) as commit:
        commit.sync_folder(folder, files, keep=lambda rel: rel.startswith((f"{PARTS}/", f"{SIMULATIONS}/")))
        commit.apply()
    return report


def run_check(content: Content, extra_paths: Sequence[Path], out: Path, *, games: Sequence[str] | None = None,
              as_json: bool = False, quiet: bool = False, loaded: Work | None = None,
              manifest: Manifest | None = None, simulate_games: int = 0, jobs: int | None = None) -> int:
    """The check as `roadkit check` runs it: each game's part (and its whole-game figures) is an
    output of the build graph, remade only when something it reads changed. Returns the exit status:
    1 if an example failed. A folder that cannot be written raises OutputError and records nothing."""
    manifest = manifest if manifest is not None else Manifest.load(out)
    try:
        work = loaded if loaded is not None else load_all(content, games, extra_paths)
        if extra_paths:  # a draft of the author's: reported here, never put in build/check (the site shows it)
            return report_status(compute_check(work)[0], None, as_json, quiet)
        realize(check_targets(work, out, simulate_games), manifest, owned_by_check(out, games),
                jobs=jobs)
        report = assemble_check(work, out, manifest, simulate_games)
    except CheckUsageError as exc:
        print(f"roadkit check: {exc}", file=sys.stderr)
        return 2
    return report_status(report, out / "check", as_json, quiet)


def owned_by_check(out: Path, games: Sequence[str] | None) -> list[str]:
    """Check outputs no target claims any more (a game removed, a setting dropped) are removed; a
    run limited to some games leaves the others' alone."""
    folder = out / "check"
    if games:
        return [str(folder / PARTS / f"{g}.json") for g in games] + [str(folder / SIMULATIONS / g) + "/" for g in games]
    return [str(folder / PARTS) + "/", str(folder / SIMULATIONS) + "/"]


def report_status(report: Report, folder: Path | None, as_json: bool, quiet: bool) -> int:
    if as_json:
        print(report.to_json(), end="")
    elif not quiet:
        print(_human(report, folder))
    return 1 if report.summary["failed"] else 0


# --- command line ------------------------------------------------------------------------------


def _human(report: Report, out_dir: Path | None) -> str:
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
                 f"{s['failed']} failed" + (f" (report: {user_path(out_dir / 'report.json')})" if out_dir else
                                            " (scenario files given as paths: nothing written to build/)"))
    return "\n".join(lines)
