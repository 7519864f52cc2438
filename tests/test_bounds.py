"""Bounds on every text field and file size, checked by `roadkit validate` before anything lays text
out or indexes it: a huge title is refused by its bound (never by the fit check, which would lay all of
it out), quickly, with a located line; the JSON Schemas state the same bounds."""

from __future__ import annotations

import re
import resource
import time
from pathlib import Path
from typing import Any

import pytest

from generators.build_system.errors import ContentError
from generators.content.export_schema import schema_files
from generators.content.loader import MAX_RULE_BODY
from generators.content.schema import LINE_FIELDS, MAX_LINE_TEXT, MAX_NUMBER, MAX_TEXT, text_limit
from generators.content.yaml_io import MAX_FILE_BYTES
from tests.helpers import copy_content, run_cli

GAME = "vampire-chase"
LOCATED = re.compile(r"^(?P<file>\S+):(?P<line>\d+):(?P<col>\d+): (?P<key>\S+): (?P<message>.+)$")


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _validate(content: Path, capsys: pytest.CaptureFixture[str] | None = None) -> tuple[re.Match[str], str]:
    """Run `roadkit validate`; the located error it must give, and a note of what it cost."""
    cpu, wall = _children_cpu(), time.perf_counter()
    result = run_cli("validate", "--content", content, "--game", GAME)
    cost = f"validate refused it in {time.perf_counter() - wall:.2f} s wall, {_children_cpu() - cpu:.2f} s CPU"
    print(cost)  # measured, not asserted: shown with `pytest -s`
    assert result.returncode == 2, result.stderr[-2000:]
    assert "Traceback" not in result.stderr
    line = result.stderr.strip()
    m = LOCATED.match(line)
    assert m is not None and "\n" not in line, line[:2000]
    assert len(line) < 1000, "the error repeats the huge text"
    return m, cost


def _rules_file(content: Path) -> Path:
    return sorted((content / GAME / "rules").glob("*.md"))[0]


def _retitle(path: Path, title: str) -> None:
    text = path.read_text("utf-8")
    path.write_text(re.sub(r"^(\s*-?\s*title:) .*$", lambda m: f"{m.group(1)} {title}", text, count=1, flags=re.M),
                    "utf-8")


@pytest.mark.parametrize("size", [10_000_000, MAX_FILE_BYTES - 100_000, MAX_LINE_TEXT + 1])
def test_a_huge_rules_title_is_refused_by_its_bound(tmp_path: Path, size: int) -> None:
    content = copy_content(tmp_path, (GAME,))
    rules = _rules_file(content)
    _retitle(rules, "A" * size)
    m, _ = _validate(content)
    assert m["file"].endswith(rules.name)
    if size > MAX_FILE_BYTES:
        assert m["line"] == "1" and "MB are accepted" in m["message"]
    else:
        assert m["key"] == "title" and int(m["line"]) > 1
        assert f"{size:,} characters of text; this holds at most {MAX_LINE_TEXT}" in m["message"]


@pytest.mark.parametrize("size", [10_000_000, 150_000])
def test_a_huge_card_title_is_refused_before_the_fit_check(tmp_path: Path, size: int) -> None:
    content = copy_content(tmp_path, (GAME,))
    deck = sorted((content / GAME / "components").glob("*-deck.yaml"))[0]
    _retitle(deck, "Word " * (size // 5))
    m, _ = _validate(content)
    assert m["file"].endswith(deck.name)
    assert "does not fit" not in m["message"]  # refused by the bound, not after laying the text out
    assert "MB are accepted" in m["message"] or m["key"].endswith(".title")


@pytest.mark.parametrize(("file", "key", "prefix"), [
    ("glossary.yaml", "definition", "    definition: "),
    ("notes.yaml", "text", None),
])
def test_long_texts_elsewhere_are_refused_where_they_are(tmp_path: Path, file: str, key: str,
                                                         prefix: str | None) -> None:
    content = copy_content(tmp_path, (GAME,))
    path = content / GAME / file
    text = path.read_text("utf-8")
    long = "Long. " * (MAX_TEXT // 5)
    if prefix:  # a one-line value
        text = re.sub(rf"^{prefix}.*$", lambda _: prefix + long, text, count=1, flags=re.M)
    else:  # a block value: one more paragraph line under it
        text = re.sub(r"^(\s+text: \|-?\n)(\s+)", lambda m: f"{m.group(1)}{m.group(2)}{long}\n{m.group(2)}",
                      text, count=1, flags=re.M)
    path.write_text(text, "utf-8")
    m, _ = _validate(content)
    assert m["file"].endswith(file) and m["key"].endswith(key), m.group(0)[:300]
    assert f"this holds at most {MAX_TEXT:,}" in m["message"]


def test_a_rules_body_has_its_bound(tmp_path: Path) -> None:
    content = copy_content(tmp_path, (GAME,))
    rules = _rules_file(content)
    rules.write_text(rules.read_text("utf-8") + "\n" + "A sentence of rules. " * (MAX_RULE_BODY // 20), "utf-8")
    m, _ = _validate(content)
    assert m["file"].endswith(rules.name) and f"{MAX_RULE_BODY:,}" in m["message"]


def test_a_huge_site_page_is_refused(tmp_path: Path) -> None:
    from generators.validate import check_site_pages

    (tmp_path / "about.md").write_bytes(b"# About\n" + b"x" * (MAX_FILE_BYTES + 1))
    with pytest.raises(ContentError) as caught:
        check_site_pages(tmp_path)
    assert caught.value.file.endswith("about.md") and "MB" in caught.value.message


# --- the schemas state the bounds ------------------------------------------------------------------------


def _nodes(node: Any, key: str = "") -> list[tuple[str, dict[str, Any]]]:
    """Every schema node with the property name it belongs to."""
    out: list[tuple[str, dict[str, Any]]] = []
    if isinstance(node, dict):
        if "type" in node:
            out.append((key, node))
        for k, sub in node.items():
            if k == "properties":
                for name, prop in sub.items():
                    out += _nodes(prop, name)
            elif k == "$defs":
                out += [n for d in sub.values() for n in _nodes(d)]
            elif k in ("anyOf", "items", "additionalProperties"):
                out += _nodes(sub, key)
    elif isinstance(node, list):
        out += [n for sub in node for n in _nodes(sub, key)]
    return out


def test_the_schemas_state_every_bound() -> None:
    import json

    schemas = {name: json.loads(data) for name, data in schema_files().items()}
    strings = numbers = 0
    for name, schema in schemas.items():
        assert str(MAX_FILE_BYTES // 1000) in schema["$comment"].replace(",", ""), name
        for key, node in _nodes(schema):
            if node["type"] == "string" and "enum" not in node:
                strings += 1
                assert node.get("maxLength") == text_limit((key,)), (name, key, node)
            elif node["type"] in ("integer", "number"):
                numbers += 1
                assert node.get("maximum", MAX_NUMBER + 1) <= MAX_NUMBER, (name, key, node)
                assert node.get("minimum", -MAX_NUMBER - 1) >= -MAX_NUMBER, (name, key, node)
    assert strings > 50 and numbers > 10  # the walk found the schemas' fields
    assert LINE_FIELDS & {key for s in schemas.values() for key, _ in _nodes(s)}


def test_a_word_too_wide_for_its_box_is_quoted_short(tmp_path: Path) -> None:
    """A single word wider than its box (within the field's bound) is reported by the fit check, which
    quotes its start and its length, not the whole word."""
    content = copy_content(tmp_path, (GAME,))
    deck = sorted((content / GAME / "components").glob("*-deck.yaml"))[0]
    word = "W" * (MAX_LINE_TEXT - 10)
    _retitle(deck, word)
    m, _ = _validate(content)
    assert "does not fit" in m["message"] and f"({len(word)} characters)" in m["message"]
    assert word not in m["message"] and len(m.group(0)) < 400
