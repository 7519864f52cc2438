"""Scenario files (`content/<game>/examples/*.yaml`): one worked example each.

A scenario states a setup, scripted randomness, a list of actions and the outcome the rulebook (or
our own text) claims. The runner replays it through the game's rules module; see runner.py. The
format is a typed dataclass, so mistakes are reported at file:line:column with their key path.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from generators.content.schema import convert
from generators.content.yaml_io import Doc, load_yaml
from generators.errors import ContentError

ID_PATTERN = r"[a-z0-9][a-z0-9-]*"
# Keys of an action that belong to the runner; the engine never sees them.
RUNNER_ACTION_KEYS = ("expect",)


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
    setup: dict[str, Any] = field(metadata={"doc": "game-specific starting state"})
    expect: dict[str, Any] = field(metadata={"doc": "the claimed outcome; only the keys given are compared"})
    random: tuple[Any, ...] = field(default=(), metadata={"doc": "scripted die results and draws, in order"})
    actions: tuple[dict[str, Any], ...] = field(
        default=(), metadata={"doc": "game-specific actions; each may carry its own `expect`, checked after it"})
    discrepancy: str | None = field(
        default=None, metadata={"doc": "only where the printed outcome contradicts the rules: why"})
    page: str | None = field(default=None, metadata={"doc": "where in the rulebook (page or heading)"})

    def check(self) -> tuple[str, str] | None:
        if not self.expect:
            return "expect", "state at least one expected value, or the example can never fail"
        if self.discrepancy is not None and not self.discrepancy.strip():
            return "discrepancy", "an empty note explains nothing; remove the key or write the explanation"
        return None


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


def load_scenario(path: Path) -> tuple[Scenario, Doc]:
    doc = load_yaml(path)
    scenario = convert(doc, Scenario)
    for i, action in enumerate(scenario.actions):
        step = action.get("expect")
        if step is not None and not isinstance(step, Mapping):
            raise doc.error(("actions", i, "expect"), "a step's expect is a mapping of outcome keys to values")
        if step is not None and not step:
            raise doc.error(("actions", i, "expect"), "an empty expect checks nothing; remove it or add keys")
    return scenario, doc


def load_scenarios(paths: Sequence[Path], rule_ids: Iterable[str] | None = None) -> list[tuple[Scenario, Doc]]:
    """Load one game's scenarios; ids must be unique (reported at the second), rules known if given."""
    known = set(rule_ids) if rule_ids is not None else None
    loaded: list[tuple[Scenario, Doc]] = []
    seen: dict[str, str] = {}
    for path in scenario_files(paths):
        scenario, doc = load_scenario(path)
        if scenario.id in seen:
            raise doc.error(("id",), f"duplicate scenario id {scenario.id!r}; {seen[scenario.id]} already uses it")
        seen[scenario.id] = doc.file
        if known is not None and scenario.rule not in known:
            choices = ", ".join(sorted(known))
            raise doc.error(("rule",), f"unknown rule id {scenario.rule!r}; expected one of: {choices}")
        loaded.append((scenario, doc))
    return loaded


def located(doc: Doc, prefix: tuple[str | int, ...], path: Sequence[str | int], message: str) -> ContentError:
    """A SetupError's path (relative to setup or to one action) as a located ContentError."""
    return doc.error((*prefix, *path), message)
