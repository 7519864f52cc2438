"""JSON Schemas for editors, exported from the model's type hints (one per kind of content file)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from generators.build_system.build_graph import write_if_changed
from generators.content.model import Component, Game, GameTests, Glossary, Icons, Notes, RuleMeta
from generators.content.scenario import Scenario
from generators.content.schema import json_schema, schema_ref

# file name -> (root type, which content files it describes)
SCHEMAS: dict[str, tuple[type, str]] = {
    "game.schema.json": (Game, "content/*/game.yaml"),
    "component.schema.json": (Component, "content/*/components/*.yaml"),
    "glossary.schema.json": (Glossary, "content/*/glossary.yaml"),
    "notes.schema.json": (Notes, "content/*/notes.yaml"),
    "tests.schema.json": (GameTests, "content/*/tests.yaml"),
    "rule.schema.json": (RuleMeta, "front matter of content/*/rules/*.md"),
    "icons.schema.json": (Icons, "content/icons.yaml"),
}


def scenario_schema(game: str, setup_spec: type, action_specs: Mapping[str, type]) -> dict[str, Any]:
    """The scenario format with one game engine's setup and actions filled in: what an editor needs
    to complete and check `content/<game>/examples/*.yaml`."""
    schema = json_schema(Scenario, f"Roadkit: content/{game}/examples/*.yaml")
    defs = schema["$defs"]
    props = defs["Scenario"]["properties"]
    props["setup"] = {**schema_ref(setup_spec, defs), "description": props["setup"].get("description", "")}
    options = []
    for kind, spec in action_specs.items():
        ref = schema_ref(spec, defs)
        entry = defs[spec.__name__]
        entry["properties"] = {**entry["properties"], "do": {"const": kind, "description": "the kind of action"},
                               "expect": {"type": "object", "description": "outcome keys checked after this step"},
                               "refused": {"type": "string", "description": "this action must be refused, with "
                                           "a reason containing this text"}}
        options.append(ref)
    props["actions"] = {"type": "array", "items": {"anyOf": options}, "description": props["actions"]["description"]}
    schema["$defs"] = dict(sorted(defs.items()))
    return schema


def schema_files(extra: Mapping[str, dict[str, Any]] | None = None) -> dict[str, bytes]:
    """Every content file's schema, plus `extra` ready-made ones (each game's scenarios), as file bytes."""
    schemas = {name: json_schema(root, f"Roadkit: {applies_to}") for name, (root, applies_to) in SCHEMAS.items()}
    schemas["scenario.schema.json"] = json_schema(Scenario, "Roadkit: content/*/examples/*.yaml")
    return {name: (json.dumps(schema, indent=2, ensure_ascii=False) + "\n").encode()
            for name, schema in {**schemas, **(extra or {})}.items()}


def write_schemas(out: Path, extra: Mapping[str, dict[str, Any]] | None = None) -> list[Path]:
    """The schemas written into `out` (outside the build graph: for tools and tests)."""
    written = []
    for name, data in schema_files(extra).items():
        write_if_changed(out / name, data)
        written.append(out / name)
    return written
