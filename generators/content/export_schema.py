"""JSON Schemas for editors, exported from the model's type hints (one per kind of content file)."""

from __future__ import annotations

import json
from pathlib import Path

from generators.content.model import Component, Game, Glossary, Icons, Notes, RuleMeta
from generators.content.schema import json_schema
from generators.outputs import write_if_changed

# file name -> (root type, which content files it describes)
SCHEMAS: dict[str, tuple[type, str]] = {
    "game.schema.json": (Game, "content/*/game.yaml"),
    "component.schema.json": (Component, "content/*/components/*.yaml"),
    "glossary.schema.json": (Glossary, "content/*/glossary.yaml"),
    "notes.schema.json": (Notes, "content/*/notes.yaml"),
    "rule.schema.json": (RuleMeta, "front matter of content/*/rules/*.md"),
    "icons.schema.json": (Icons, "content/icons.yaml"),
}


def extra_schemas() -> dict[str, tuple[type, str]]:
    """Schemas owned by other parts (the engine's scenario format), if present."""
    try:
        from generators.engine.scenario import Scenario
    except ImportError:
        return {}
    return {"scenario.schema.json": (Scenario, "content/*/examples/*.yaml")}


def write_schemas(out: Path) -> list[Path]:
    written = []
    for name, (root, applies_to) in {**SCHEMAS, **extra_schemas()}.items():
        schema = json_schema(root, f"Roadkit: {applies_to}")
        path = out / name
        write_if_changed(path, (json.dumps(schema, indent=2, ensure_ascii=False) + "\n").encode())
        written.append(path)
    return written
