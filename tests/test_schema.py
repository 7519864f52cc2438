"""The JSON Schemas exported for editors: every option documented (Squib's rule), and every real
content file accepted by them, so an editor's squiggles agree with `roadkit validate`."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from generators.content.export_schema import SCHEMAS, write_schemas
from generators.content.loader import load_content, split_front_matter
from generators.content.yaml_io import load_yaml
from generators.engine.runner import scenario_schemas

ROOT = Path(__file__).resolve().parent.parent
CONTENT = ROOT / "content"


@pytest.fixture(scope="module")
def schemas(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    out = tmp_path_factory.mktemp("schema")
    return {p.name: json.loads(p.read_text("utf-8")) for p in write_schemas(out, scenario_schemas(LOADED))}


LOADED = load_content(CONTENT)
WITH_ENGINE = {g.id for g in LOADED.games if g.engine}


def test_one_schema_per_kind_of_file(schemas: dict[str, dict]) -> None:
    per_game = {f"{g}.scenario.schema.json" for g in WITH_ENGINE}
    assert set(schemas) == set(SCHEMAS) | {"scenario.schema.json"} | per_game
    for schema in schemas.values():
        jsonschema.Draft202012Validator.check_schema(schema)


def test_every_option_is_documented(schemas: dict[str, dict]) -> None:
    undocumented = [f"{name}: {definition}.{prop}"
                    for name, schema in schemas.items()
                    for definition, body in schema["$defs"].items()
                    for prop, spec in body.get("properties", {}).items()
                    if not spec.get("description")]
    assert not undocumented


def _files() -> list[tuple[str, Path]]:
    pairs = [("icons.schema.json", CONTENT / "icons.yaml")]
    for game in sorted(p for p in CONTENT.iterdir() if (p / "game.yaml").is_file()):
        pairs.append(("game.schema.json", game / "game.yaml"))
        pairs += [("component.schema.json", p) for p in sorted(game.glob("components/*.yaml"))]
        pairs += [("rule.schema.json", p) for p in sorted(game.glob("rules/*.md"))]
        scenario = f"{game.name}.scenario.schema.json" if game.name in WITH_ENGINE else "scenario.schema.json"
        pairs += [(scenario, p) for p in sorted(game.glob("examples/*.yaml"))]
        pairs += [("scenario.schema.json", p) for p in sorted(game.glob("examples/*.yaml"))]
        for name in ("glossary", "notes"):
            if (game / f"{name}.yaml").is_file():
                pairs.append((f"{name}.schema.json", game / f"{name}.yaml"))
    return pairs


def _data(path: Path) -> object:
    if path.suffix == ".md":
        doc, _, _ = split_front_matter(path.read_text("utf-8"), str(path))
        return doc.data
    return load_yaml(path).data


@pytest.mark.parametrize("schema_name,path", _files(), ids=lambda v: v if isinstance(v, str) else v.name)
def test_content_file_matches_its_schema(schemas: dict[str, dict], schema_name: str, path: Path) -> None:
    jsonschema.validate(_data(path), schemas[schema_name])


def test_schema_rejects_what_the_loader_rejects(schemas: dict[str, dict]) -> None:
    component = load_yaml(CONTENT / "mission-drive" / "components" / "boss-weapons.yaml").data
    component["faces"][0]["front"]["titel"] = component["faces"][0]["front"].pop("title")
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(component, schemas["component.schema.json"])


def test_a_game_scenario_schema_checks_setup_and_actions(schemas: dict[str, dict]) -> None:
    for game in sorted(WITH_ENGINE):
        schema = schemas[f"{game}.scenario.schema.json"]
        example = load_yaml(next((CONTENT / game / "examples").glob("*.yaml"))).data
        jsonschema.validate(example, schema)
        bad_setup = {**example, "setup": {**example["setup"], "no-such-key": 1}}
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(bad_setup, schema)
        bad_action = {**example, "actions": [{"do": "no-such-action"}]}
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(bad_action, schema)
