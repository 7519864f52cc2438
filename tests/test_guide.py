"""Documents in their place: the README is a newcomer's page and the reference is the editors' guide,
built with the site, whose commands, exit codes and content schemas pages are made from the code (the
parser, the exit-code table, the JSON Schemas), so they cannot drift from it."""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

from generators.build_system.commands import parser
from generators.build_system.errors import EXIT_CODES
from generators.content.export_schema import write_schemas
from generators.site.collect import collect
from generators.site.escape import nav_title
from generators.site.guide import GUIDE, HELP_WIDTH, commands_page, exit_codes_page, guide_pages, schema_files
from tests.helpers import ROOT, real_content

README = ROOT / "README.md"
PAGES = ROOT / "site" / GUIDE


def _subcommands() -> dict[str, argparse.ArgumentParser]:
    top = parser()
    return next(a for a in top._actions if isinstance(a, argparse._SubParsersAction)).choices


def test_the_readme_is_a_newcomers_page_with_the_two_commands_first() -> None:
    text = README.read_text("utf-8")
    lines = text.splitlines()
    assert len(lines) <= 170, len(lines)
    first = "\n".join(lines[:8])
    assert first.index("make build") < first.index("make test")
    assert "make test" in (ROOT / ".ci" / "run").read_text("utf-8")  # CI runs what the README says it runs
    for target in ("build", "test", "check", "serve"):
        assert re.search(rf"^{target}:", (ROOT / "Makefile").read_text("utf-8"), re.M), target
    assert "build/site/guide/index.html" in text  # where to go next


def test_every_path_the_documents_name_exists() -> None:
    """A module moved or renamed makes the README or the guide name a file that is gone."""
    texts = [README, *sorted(PAGES.glob("*.md"))]
    missing = []
    for path in texts:
        for name in re.findall(r"(?<![\w/])((?:generators|tests|tools|site)/[\w./-]+)", path.read_text("utf-8")):
            name = name.rstrip(".")
            if "<" not in name and not (ROOT / name).exists():
                missing.append(f"{path.name}: {name}")
    assert not missing, missing


def test_the_commands_page_is_every_subcommands_own_help() -> None:
    page = commands_page()
    subs = _subcommands()
    assert subs
    for name, sub in subs.items():
        assert f"## `roadkit {name}`" in page, name
        for action in sub._actions:
            for flag in action.option_strings:
                assert flag in page, (name, flag)
        sub.formatter_class = lambda prog: argparse.HelpFormatter(prog, width=HELP_WIDTH)
        assert sub.format_help().rstrip() in page, name  # verbatim: the page cannot say other than --help
    assert "%%" not in page


def test_the_exit_codes_page_holds_the_table_the_codes_are_defined_in() -> None:
    page = exit_codes_page()
    rows = dict(re.findall(r"^\| (\d+) \| (.+) \|$", page, re.M))
    assert {int(c) for c in rows} == {int(c) for c in EXIT_CODES}
    for code, meaning in EXIT_CODES.items():
        assert rows[str(int(code))] == meaning


def test_the_schemas_page_names_every_key_of_every_content_file(tmp_path: Path) -> None:
    write_schemas(tmp_path / "schema", {"x-game.scenario.schema.json": {"title": "left out"}})
    files = schema_files(tmp_path)
    assert files and "x-game.scenario.schema.json" not in {p.name for p in files}
    page = guide_pages(tmp_path)[f"{GUIDE}/schemas.md"]
    for path in files:
        schema = json.loads(path.read_text("utf-8"))
        for name, node in schema["$defs"].items():
            assert f"### {name} " in page, (path.name, name)
            for key in node.get("properties", {}):
                assert f"| `{key}` |" in page, (path.name, name, key)
    assert "left out" not in page


def test_the_guide_is_in_the_hubs_navigation_and_out_of_the_players_search(tmp_path: Path) -> None:
    collected = collect(real_content(), tmp_path, only=[])
    title = nav_title("Editors' guide")
    sections = [item for item in collected.nav if isinstance(item, dict) and title in item]
    assert len(sections) == 1
    pages = [next(iter(p.values())) for p in sections[0][title]]
    assert pages[0] == f"{GUIDE}/index.md"
    linked = re.findall(r"\]\(([\w-]+\.md)\)", (PAGES / "index.md").read_text("utf-8"))
    assert [p.removeprefix(f"{GUIDE}/") for p in pages[1:]] == linked  # in the order the index gives
    for page in pages:
        data = collected.stage.texts.get(page)
        text = data.decode("utf-8") if data is not None else collected.stage.copies[page].read_text("utf-8")
        assert text.startswith("---\nsearch:\n  exclude: true\n---\n"), page
    about = (ROOT / "site" / "about.md").read_text("utf-8")
    assert "](guide/index.md)" in about
