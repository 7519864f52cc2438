"""Scenario files (`content/<game>/examples/*.yaml`): one worked example each.

A scenario states a setup, scripted randomness, a list of actions and the outcome the rulebook (or
our own text) claims. Its `setup:` and each action are converted with the game engine's declared
specs (`ScenarioSpecs`), so a mistake anywhere in a scenario is reported at file:line:column with its
key path. The runner (generators/check/runner.py) replays it; the engine never sees `expect`.

Scripted randomness is labelled: each `random:` entry is `{label: value}`, the label naming the roll,
draw or shuffle it answers (`{movement: 3}`, `{road tile: hazard}`); a result offered to another
roll fails the example.

An action may carry runner keys, never passed to the engine: `expect` (outcome keys checked right
after that step) and `refused` (the action must be refused, with a reason containing this text; the
state stays as it was).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol

from generators.build_system.errors import ContentError
from generators.content.schema import convert
from generators.content.yaml_io import Doc, load_yaml

ID_PATTERN = r"[a-z0-9][a-z0-9-]*"
# Keys of an action that belong to the runner; the engine never sees them.
RUNNER_ACTION_KEYS = ("expect", "refused")


@dataclass(frozen=True)
class Scenario:
    """One worked example: setup, scripted chance, actions, and the claimed outcome."""

    id: str = field(metadata={"pattern": ID_PATTERN, "pattern_doc": "lower-case letters, digits and hyphens",
                              "doc": "unique within the game; also the file name and the SVG names"})
    title: str = field(metadata={"doc": "a short headline for the site"})
    rule: str = field(metadata={"doc": "id of the rules entry this example illustrates"})
    source: Literal["printed", "ours"] = field(metadata={"doc": "printed in the rulebook, or written by us"})
    section: str = field(metadata={"doc": "the rulebook section it comes from or illustrates"})
    claim: str = field(metadata={"doc": "what the example says happens, in our own words"})
    setup: dict[str, Any] = field(metadata={"doc": "game-specific starting state (the engine's setup spec)"})
    expect: dict[str, Any] = field(metadata={"doc": "the claimed outcome; only the keys given are compared. "
                                                    "{refused: text}: the rules refuse this setup, with a "
                                                    "reason containing text"})
    random: tuple[dict[str, Any], ...] = field(
        default=(), metadata={"doc": "scripted die results, draws and shuffles in order, each {label: value} "
                                     "naming the roll it answers"})
    actions: tuple[dict[str, Any], ...] = field(
        default=(), metadata={"doc": "game-specific actions; each may carry `expect` (checked after it) or "
                                     "`refused` (it must be refused with a reason containing this text)"})
    discrepancy: str | None = field(
        default=None, metadata={"doc": "only where the printed outcome contradicts the rules: why"})
    page: str | None = field(default=None, metadata={"doc": "where in the rulebook (page or heading)"})

    def check(self) -> tuple[str, str] | None:
        if not self.expect:
            return "expect", "state at least one expected value, or the example can never fail"
        if "refused" in self.expect:
            reason = self.expect["refused"]
            if len(self.expect) != 1 or self.actions:
                return "expect", ("expect: {refused: ...} says the setup itself is refused: nothing else is "
                                  "compared and no action is played (remove the other keys and actions)")
            if not isinstance(reason, str) or not reason.strip():
                return "expect.refused", "give the text the setup's refusal must contain"
        if self.discrepancy is not None and not self.discrepancy.strip():
            return "discrepancy", "an empty note explains nothing; remove the key or write the explanation"
        for i, entry in enumerate(self.random):
            if len(entry) != 1:
                return "random", (f"random[{i}]: write each result as {{label: value}}, the label naming the roll "
                                  "it answers (for example {movement: 3})")
        return None


@dataclass(frozen=True)
class Scripted:
    """One scripted random result: the roll or draw it answers (`label`) and its value."""

    label: str
    value: Any


@dataclass(frozen=True)
class Step:
    """One scripted action: as the engine's typed spec, as written, and the runner's keys."""

    action: Any
    data: dict[str, Any]
    expect: dict[str, Any] | None
    refused: str | None


@dataclass(frozen=True)
class LoadedScenario:
    scenario: Scenario
    doc: Doc
    setup: Any  # the engine's setup spec
    steps: tuple[Step, ...]
    random: tuple[Scripted, ...]


class ScenarioSpecs(Protocol):
    """What loading needs from a game's engine: its setup and action specs, as converters."""

    def parse_setup(self, data: Any, doc: Doc | None = None, path: tuple = ()) -> Any: ...

    def parse_action(self, data: Any, doc: Doc | None = None, path: tuple = ()) -> Any: ...


class _AsWritten:
    """Specs for readers that only show scenarios (the site): setup and actions kept as written."""

    def parse_setup(self, data: Any, doc: Doc | None = None, path: tuple = ()) -> Any:
        return plain(data)

    def parse_action(self, data: Any, doc: Doc | None = None, path: tuple = ()) -> Any:
        return plain(data)


AS_WRITTEN: ScenarioSpecs = _AsWritten()


def plain(value: Any) -> Any:
    """Read-only mappings and tuples from the schema, back to plain dicts and lists."""
    if isinstance(value, Mapping):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def scenario_files(paths: Iterable[Path]) -> list[Path]:
    """Expand folders to their YAML files (recursively), sorted, without duplicates."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found += sorted(p for p in path.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())
        else:
            found.append(path)
    unique: dict[Path, Path] = {}
    for path in found:  # the same file named two ways (relative, absolute) counts once
        unique.setdefault(path.resolve(), path)
    return list(unique.values())


def load_scenario(path: Path, specs: ScenarioSpecs) -> LoadedScenario:
    doc = load_yaml(path)
    scenario = convert(doc, Scenario)
    setup = specs.parse_setup(doc.data["setup"], doc, ("setup",))
    steps = []
    for i, raw in enumerate(doc.data.get("actions") or ()):
        at = ("actions", i)
        if not isinstance(raw, Mapping):
            raise doc.error(at, "an action is a mapping such as {do: ...}")
        expect = raw.get("expect")
        if expect is not None and (not isinstance(expect, Mapping) or not expect):
            raise doc.error((*at, "expect"), "a step's expect is a non-empty mapping of outcome keys to values")
        refused = raw.get("refused")
        if refused is not None and (not isinstance(refused, str) or not refused.strip()):
            raise doc.error((*at, "refused"), "refused: gives the text the refusal's reason must contain")
        if refused is not None and expect is not None:
            raise doc.error((*at, "refused"), "a refused action changes nothing: check the state on another step")
        data = {k: v for k, v in raw.items() if k not in RUNNER_ACTION_KEYS}
        action = specs.parse_action(data, doc, at)
        steps.append(Step(action, plain(data), plain(expect) if expect is not None else None, refused))
    random = tuple(Scripted(str(label), plain(value)) for entry in scenario.random for label, value in entry.items())
    return LoadedScenario(scenario, doc, setup, tuple(steps), random)


def load_scenarios(paths: Sequence[Path], specs: ScenarioSpecs,
                   rule_ids: Iterable[str] | None = None) -> list[LoadedScenario]:
    """Load one game's scenarios; ids must be unique (reported at the second), rules known if given."""
    known = set(rule_ids) if rule_ids is not None else None
    loaded: list[LoadedScenario] = []
    seen: dict[str, str] = {}
    for path in scenario_files(paths):
        item = load_scenario(path, specs)
        scenario, doc = item.scenario, item.doc
        if scenario.id in seen:
            raise doc.error(("id",), f"duplicate scenario id {scenario.id!r}; {seen[scenario.id]} already uses it")
        seen[scenario.id] = doc.file
        if known is not None and scenario.rule not in known:
            choices = ", ".join(sorted(known))
            raise doc.error(("rule",), f"unknown rule id {scenario.rule!r}; expected one of: {choices}")
        loaded.append(item)
    return loaded


def located(doc: Doc, prefix: tuple[str | int, ...], path: Sequence[str | int], message: str) -> ContentError:
    """A SetupError's path (relative to setup or to one action) as a located ContentError."""
    return doc.error((*prefix, *path), message)
