"""build/schema/ as targets of the build graph: the content files' schemas, and each game's scenario
schema with its engine's setup and actions typed. A game's scenario schema is keyed on the export
code and that game's rules package (its specs), so an edit to one game's specs remakes its schema
alone."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

from generators.build_system.build_graph import SCENARIO_SCHEMA_CODE, SCHEMA_CODE, Target, code_version, digest
from generators.content.export_schema import scenario_schema, schema_files
from generators.content.loader import Content
from generators.content.model import LoadedGame
from generators.rules.contract import load_engine


def scenario_schemas(content: Content) -> dict[str, dict[str, Any]]:
    """`<game>.scenario.schema.json` for every game with an engine: its setup and actions typed."""
    out = {}
    for game in content.games:
        if game.engine:
            engine = load_engine(game.engine)
            out[_name(game)] = scenario_schema(game.id, engine.setup_spec, engine.action_specs)
    return out


def _name(game: LoadedGame) -> str:
    return f"{game.id}.scenario.schema.json"


def schema_targets(content: Content, folder: Path) -> list[Target]:
    base = code_version(*SCHEMA_CODE)
    code = {_name(g): code_version(*SCENARIO_SCHEMA_CODE, loads=(g.engine,)) for g in content.games if g.engine}
    return [Target(folder / name, digest(code.get(name, base), name), partial(bytes, data))
            for name, data in schema_files(scenario_schemas(content)).items()]
