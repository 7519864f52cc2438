"""The editors' guide's generated pages, staged beside its hand-written ones (site/guide/): every
subcommand's `--help` from the command line's own parser, the exit codes from the table that defines
them, and every key of every kind of content file from the JSON Schemas `roadkit schema` wrote into
build/schema/. Made from the code on every site build, so the reference cannot drift from it.

The guide is for editors: its pages name commands and code, and stay out of the players' search."""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping
from functools import partial
from pathlib import Path
from typing import Any

from generators.build_system.commands import parser
from generators.build_system.errors import EXIT_CODES
from generators.site import escape

GUIDE = "guide"  # its folder on the site (and in site/)
SCHEMA = "schema"  # build/schema/, where `roadkit schema` writes
HELP_WIDTH = 78  # columns the help is wrapped to: the same page whatever terminal builds the site
FRONT = "---\nsearch:\n  exclude: true\n---\n\n"  # players' search never lands on the editors' pages
# The content files' schemas, in the order an editor meets the files (any other one follows).
SCHEMA_ORDER = ("game", "component", "rule", "glossary", "notes", "icons", "scenario")


# The guide's generated pages, by their path on the site (hand-written pages link them by name).
GENERATED = (f"{GUIDE}/commands.md", f"{GUIDE}/exit-codes.md", f"{GUIDE}/schemas.md")


def guide_pages(out: Path) -> dict[str, str]:
    """The generated pages by their path on the site."""
    return dict(zip(GENERATED, (commands_page(), exit_codes_page(), schemas_page(schema_files(out))), strict=True))


def _help(p: argparse.ArgumentParser) -> str:
    p.formatter_class = partial(argparse.HelpFormatter, width=HELP_WIDTH)
    return p.format_help().rstrip()


def commands_page() -> str:
    top = parser()
    commands = next(a for a in top._actions if isinstance(a, argparse._SubParsersAction))
    subs: Mapping[str, argparse.ArgumentParser] = commands.choices
    summary = {a.dest: (a.help or "").replace("%%", "%") for a in commands._choices_actions}
    lines = [FRONT + "# Commands\n",
             "Every subcommand of `roadkit` (in `.venv/bin/`; `make build` runs `roadkit build`) with every "
             "option, as `roadkit <command> --help` prints it: this page is made from the parser the "
             "command itself runs (`generators/build_system/commands.py`). What the exit codes mean is on "
             "[exit codes](exit-codes.md).\n",
             "| command | does |", "|---|---|"]
    lines += [f"| [`roadkit {name}`](#roadkit-{name}) | {escape.text(summary.get(name, ''))} |" for name in subs]
    lines += ["", "```text", _help(top), "```", ""]
    for name, sub in subs.items():
        lines += [f"## `roadkit {name}` {{#roadkit-{name}}}", "", "```text", _help(sub), "```", ""]
    return "\n".join(lines)


def exit_codes_page() -> str:
    lines = [FRONT + "# Exit codes\n",
             "Every code `roadkit` ends with, from the table that defines them "
             "(`Exit` in `generators/build_system/errors.py`); `tests/test_exit_codes.py` produces each one "
             "as a user would meet it.\n",
             "| code | meaning |", "|---|---|"]
    # A meaning is Markdown of ours; a pipe in it stands in a code span, which the table leaves whole.
    lines += [f"| {int(code)} | {meaning} |" for code, meaning in EXIT_CODES.items()]
    lines += ["", "A content mistake is one line, `file:line:column: key.path: message`:", "", "```",
              "content/mission-drive/components/movement.yaml:41:7: faces[3].front.titel: unknown key 'titel' "
              "(did you mean 'title'?); expected one of: title, provenance, ...", "```", "",
              "and so is every other failure, kept short (`roadkit: cannot write build/print/a4/x.pdf: No space "
              "left on device; build/ was left as it was`). The worker processes a build starts end with it, "
              "even when it is killed with `kill -9`.", ""]
    return "\n".join(lines)


def schema_files(out: Path) -> list[Path]:
    """The content files' schemas in build/schema/ (each game's scenario schema left out: its setup and
    actions are that game's engine's, and the page shows the frame they fill)."""
    folder = out / SCHEMA
    found = sorted(folder.glob("*.schema.json")) if folder.is_dir() else []
    kept = [p for p in found if p.name.count(".") == 2]  # <kind>.schema.json, not <game>.scenario.schema.json
    rank = {name: i for i, name in enumerate(SCHEMA_ORDER)}
    return sorted(kept, key=lambda p: (rank.get(p.name.split(".")[0], len(rank)), p.name))


def schemas_page(files: list[Path]) -> str:
    lines = [FRONT + "# Content schemas\n",
             "Every key of every kind of content file, read from the JSON Schemas `roadkit schema` writes "
             "into `build/schema/` (made from the content model's type hints, the same code that checks the "
             "files). Point your editor at those files to have the YAML completed and checked as you type "
             "(see [editor support](content.md#editor-support)). Each game with an engine also has "
             "`<game>.scenario.schema.json`: the scenario frame below with that game's `setup:` and actions "
             "typed.\n"]
    if not files:
        lines.append("*The schemas are not built yet: run `roadkit schema` (or `make build`), then build the "
                     "site again.*\n")
    for path in files:
        schema = json.loads(path.read_text("utf-8"))
        lines += _schema_section(path.name, schema)
    return "\n".join(lines)


def _schema_section(name: str, schema: Mapping[str, Any]) -> list[str]:
    prefix = name.split(".")[0]
    title = str(schema.get("title", name)).removeprefix("Roadkit: ")
    lines = [f"## {escape.text(title)} {{#{prefix}}}", "", f"Schema: `build/schema/{name}`.", ""]
    if schema.get("$comment"):
        lines += [escape.text(schema["$comment"]), ""]
    defs: Mapping[str, Any] = schema.get("$defs", {})
    root = str(schema.get("$ref", "")).rsplit("/", 1)[-1]
    for def_name in sorted(defs, key=lambda d: (d != root, d)):
        node = defs[def_name]
        lines += [f"### {escape.text(def_name)} {{#{prefix}-{def_name.lower()}}}", ""]
        if node.get("description"):
            lines += [escape.text(node["description"]), ""]
        props: Mapping[str, Any] = node.get("properties", {})
        if not props:
            lines += [f"Written as {_type(node, prefix)}.", ""]
            continue
        required = set(node.get("required", ()))
        lines += ["| key | type | required | what |", "|---|---|---|---|"]
        for key, prop in props.items():
            lines.append(f"| `{key}` | {_type(prop, prefix)} | {'yes' if key in required else ''} | "
                         f"{escape.text(prop.get('description', ''))} |")
        lines.append("")
    return lines


def _type(node: Mapping[str, Any], prefix: str) -> str:
    """A schema node's type in a few words, a definition as a link to its table."""
    if "$ref" in node:
        target = str(node["$ref"]).rsplit("/", 1)[-1]
        return f"[{escape.text(target)}](#{prefix}-{target.lower()})"
    if "const" in node:
        return _code(node["const"])
    if "enum" in node:
        return " or ".join(_code(v) for v in node["enum"])
    if "anyOf" in node:
        options = [n for n in node["anyOf"] if n.get("type") != "null"]
        text = " or ".join(_type(n, prefix) for n in options)
        return text + (", or null" if len(options) < len(node["anyOf"]) else "")
    kind = node.get("type")
    if kind == "array":
        return f"list of {_type(node.get('items', {}), prefix)}"
    if kind == "object":
        extra = node.get("additionalProperties")
        return f"mapping to {_type(extra, prefix)}" if isinstance(extra, Mapping) else "mapping"
    if isinstance(kind, list):
        return " or ".join(str(k) for k in kind)
    return str(kind) if kind else "any value"


def _code(value: Any) -> str:
    shown = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return "`" + shown.replace("`", "'") + "`"  # a pipe inside a code span leaves the table cell whole
