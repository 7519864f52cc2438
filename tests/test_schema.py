"""The JSON Schemas exported for editors: every option documented (Squib's rule), and every real
content file accepted by them, so an editor's squiggles agree with `roadkit validate`."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any, get_args, get_type_hints

import jsonschema
import pytest

from generators.check.runner import engine_of
from generators.check.schemas import scenario_schemas
from generators.content.export_schema import SCHEMAS, write_schemas
from generators.content.loader import split_front_matter
from generators.content.schema import fields_of
from generators.content.yaml_io import load_yaml
from tests.helpers import real_content

ROOT = Path(__file__).resolve().parent.parent
CONTENT = ROOT / "content"


@pytest.fixture(scope="module")
def schemas(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    out = tmp_path_factory.mktemp("schema")
    return {p.name: json.loads(p.read_text("utf-8")) for p in write_schemas(out, scenario_schemas(LOADED))}


LOADED = real_content()
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
        for name in ("glossary", "notes", "tests"):
            if (game / f"{name}.yaml").is_file():
                pairs.append((f"{name}.schema.json", game / f"{name}.yaml"))
    return pairs


def _data(path: Path) -> object:
    if path.suffix == ".md":
        doc, _, _ = split_front_matter(path.read_text("utf-8"), str(path))
        return doc.data
    return load_yaml(path).data


@pytest.fixture(scope="module")
def validators(schemas: dict[str, dict]) -> dict[str, Any]:
    """One validator per schema, made once: `jsonschema.validate` checks the schema itself on every call
    (test_one_schema_per_kind_of_file checks each once), most of this file's time over 900 files."""
    return {name: jsonschema.validators.validator_for(schema)(schema) for name, schema in schemas.items()}


@pytest.mark.parametrize("schema_name,path", _files(), ids=lambda v: v if isinstance(v, str) else v.name)
def test_content_file_matches_its_schema(validators: dict[str, Any], schema_name: str, path: Path) -> None:
    validators[schema_name].validate(_data(path))


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


def _dataclasses_in(tp: Any, found: list[type]) -> None:
    """Every dataclass `tp` is or holds (through lists, unions, mappings and dataclass fields), once each."""
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        if tp in found:
            return
        found.append(tp)
        hints = get_type_hints(tp)
        for f in fields_of(tp):
            _dataclasses_in(hints[f.name], found)
        return
    for arg in get_args(tp):
        _dataclasses_in(arg, found)


@pytest.mark.parametrize("game", sorted(WITH_ENGINE))
def test_every_facts_and_options_field_is_documented(game: str) -> None:
    """The facts a face's `facts:` mapping holds and a whole game's options are no scenario schema's, so the
    schema test above does not see them: every field of them carries a `doc`, every class a docstring of its own."""
    engine = engine_of(next(g for g in LOADED.games if g.id == game))
    found: list[type] = []
    for spec in (engine.options_spec, *engine.facts_specs.values()):
        _dataclasses_in(spec, found)
    assert engine.options_spec in found
    undocumented = [f"{cls.__name__}.{f.name}" for cls in found for f in fields_of(cls) if not f.metadata.get("doc")]
    # A dataclass without a docstring gets a generated one: its signature, "Name(field: type, ...)".
    unexplained = [cls.__name__ for cls in found if (cls.__doc__ or "").startswith(f"{cls.__name__}(")]
    assert not undocumented, undocumented
    assert not unexplained, unexplained


def test_a_pair_is_two_items_exactly(tmp_path: Path) -> None:
    """A field typed as a fixed number of items (`tuple[int, int]`: a space [column, row]) takes exactly
    that many: one more or one fewer is a located mistake, not a traceback in the engine (a boss part's
    target of one number, an example's uplink of five, found by `make fuzz`); the schema says the same."""
    from generators.build_system.errors import ContentError
    from generators.content.schema import _schema_for, convert
    from generators.content.yaml_io import Doc
    from generators.validate import validate
    from tests.helpers import copy_content

    for value, ok in (([1, 2], True), ([1], False), ([1, 2, 3], False), ([], False), ([1, "x"], False)):
        try:
            assert convert(Doc("<t>", value, {}), tuple[int, int], (), value) == tuple(value) and ok
        except ContentError as exc:
            assert not ok and ("list of 2" in exc.message or "whole number" in exc.message), exc.message
    assert _schema_for(tuple[int, int], {})["maxItems"] == 2
    content = copy_content(tmp_path, ("mission-drive",))
    example = next(p for p in sorted((content / "mission-drive" / "examples").glob("*.yaml"))
                   if (load_yaml(p).data.get("setup") or {}).get("uplinks"))
    text = example.read_text("utf-8")
    first = load_yaml(example).data["setup"]["uplinks"][0]
    pair = f"[{first[0]}, {first[1]}]"
    assert pair in text, "the example's first uplink, written as [column, row]"
    example.write_text(text.replace(pair, f"[{first[0]}, {first[1]}, 7]", 1), "utf-8")
    with pytest.raises(ContentError) as caught:
        validate(content, ["mission-drive"])
    assert Path(caught.value.file).name == example.name and "list of 2" in caught.value.message, str(caught.value)


def test_a_list_of_distinct_names_names_each_once(tmp_path: Path) -> None:
    """A field whose items are names of distinct things (`unique` in its metadata: the Characters a
    Project discards) refuses a name listed twice at its place; the engine would discard the one
    Character twice (a traceback found by `make fuzz`). The JSON Schema says the same (uniqueItems)."""
    from generators.build_system.errors import ContentError
    from generators.validate import validate
    from tests.helpers import copy_content

    found: list[type] = []
    for game in sorted(WITH_ENGINE):
        for spec in engine_of(next(g for g in LOADED.games if g.id == game)).facts_specs.values():
            _dataclasses_in(spec, found)
    marked = [f for cls in found for f in fields_of(cls) if f.metadata.get("unique")]
    assert marked, "no field is marked unique: the check below would test nothing"
    from generators.content.schema import _key, _schema_for
    for cls in {c for c in found for f in fields_of(c) if f in marked}:  # a schema of it says so too
        defs: dict[str, Any] = {}
        _schema_for(cls, defs)
        props = defs[cls.__name__]["properties"]
        for f in fields_of(cls):
            if f in marked:
                assert props[_key(f)].get("uniqueItems") is True, (cls.__name__, f.name, props[_key(f)])
    content = copy_content(tmp_path, ("dronovody",))
    path = content / "dronovody" / "components" / "support-cards.yaml"
    text = path.read_text("utf-8")
    first = next(line for line in text.splitlines() if line.strip().startswith("requires: ["))
    name = first.split("[", 1)[1].split(",")[0].rstrip("]").strip()
    path.write_text(text.replace(first, first.replace("]", f", {name}]", 1), 1), "utf-8")
    with pytest.raises(ContentError) as caught:
        validate(content, ["dronovody"])
    err = caught.value
    assert Path(err.file).name == path.name and "once" in err.message and err.keypath[-1] == 1, str(err)
    assert err.line == text[: text.index(first)].count("\n") + 1, str(err)
