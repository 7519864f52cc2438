"""Seeded mutation fuzzing of the real content through the one validation pass.

Each mutant changes one thing in a private copy of content/, as an author could break it: a value's
type, a number (zero, negative, huge, NaN, infinite), a deleted or duplicated key or item, an odd
string (empty, very long, emoji, CJK, markup, colon pairs, bad colours, paths), control characters,
deep nesting, aliases (bombs and self-references), CRLF line ends, truncation, bytes that are not
UTF-8, a folder or a broken link where a file should be, a file that is not an image; and the classes
that once got past it: huge numbers in icon paths, files in other encodings, bad images on proxy
sides, unknown icon codes in rules bodies, summaries, glossary definitions and rulings, huge texts; link
tricks in every kind of Markdown text (tests/link_tricks.py), folders under content/ that are not games,
figures.json cut short or mistyped, control characters written as YAML escapes in a value that names
something (an id, a rule, an icon, an image path), which must be refused, not only answered cleanly. The pass
must answer each with either success or one located line (`file:line:column: key.path: message`);
anything else (a traceback) is a failure. A sample of the mutants that validate goes on through the
steps after validation (print with and without proxies, check, site pages, in memory) to show that
content which validates does not crash later.

`make fuzz` runs 5,000 mutants (`python -m tests.fuzz --mutants 5000`); the test suite a few hundred.
"""

from __future__ import annotations

import argparse
import random
import re
import shutil
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
CONTENT = ROOT / "content"
LINE = re.compile(r"^(?P<file>[^\n]+?):(?P<line>\d+):(?P<col>\d+): (?P<path>[^\n]+?): (?P<msg>[^\n]+)$")
_FRONT = re.compile(r"\A(---[ \t]*\n)(.*?\n)(---[ \t]*\n?)(.*)\Z", re.S)

ODD_STRINGS = [
    "", " ", "x" * 20_000, "😀 emoji", "漢字のカード", "مرحبا", "a\u200bb", "e\u0301\u0301\u0301",
    "<script>alert(1)</script>",
    "**", "**unclosed bold", ":no-such-icon:", "ratio 1:2:3", "\\:target:", "::", ":", "#zz", "#12345g", "#fff",
    "../../../../etc/passwd.png", "game.yaml", "art.png", "nope.png", "{#id}", "[x](#no-such-entry)", "[x](other.md)",
    "- list", "# heading", "null", "~", "yes", "0x1f", "1e308", ".nan", "\\", "%", "& < > \" '", "\t", "Дроноводи",
]
ODD_NUMBERS: list[Any] = [0, -1, 1, 7, 500, 501, 200_000, 2**70, -(2**70), 1e308, -1e308, 0.5, float("nan"),
                          float("inf"), float("-inf"), 1e-300, True, False]


@dataclass
class Mutant:
    """One change to the content copy: `file` (relative to the content root) and what was done."""

    game: str | None
    file: str
    kind: str
    detail: str = ""
    must_refuse: bool = False  # a mutant that validation must not pass (a running link, a stray folder)

    def __str__(self) -> str:
        return f"{self.kind} on {self.file}{': ' + self.detail if self.detail else ''}"


@dataclass
class Outcome:
    mutants: int = 0
    valid: int = 0
    located: int = 0
    tracebacks: list[str] = field(default_factory=list)
    bad_lines: list[str] = field(default_factory=list)
    later_crashes: list[str] = field(default_factory=list)
    later_checked: int = 0
    seconds: float = 0.0

    @property
    def failures(self) -> list[str]:
        return self.tracebacks + self.bad_lines + self.later_crashes

    def summary(self) -> str:
        return (f"{self.mutants} mutants in {self.seconds:.1f} s: {self.valid} validated, {self.located} located "
                f"errors, {len(self.tracebacks)} tracebacks, {len(self.bad_lines)} malformed error lines; "
                f"{self.later_checked} validated mutants through print/check/site pages, "
                f"{len(self.later_crashes)} crashes there")


# --- the content copy and undoing a mutation ----------------------------------------------------


class Sandbox:
    """A private copy of content/ where each mutation is made and then undone."""

    def __init__(self, root: Path):
        self.root = root
        if not root.exists():
            shutil.copytree(CONTENT, root, symlinks=True)
        self.saved: dict[Path, bytes | None] = {}

    def files(self) -> list[str]:
        return sorted(p.relative_to(self.root).as_posix() for p in self.root.rglob("*")
                      if p.is_file() and p.suffix in (".yaml", ".md"))

    def remember(self, path: Path) -> None:
        if path not in self.saved:
            self.saved[path] = path.read_bytes() if path.is_file() else None

    def write(self, rel: str, data: bytes | str) -> None:
        path = self.root / rel
        self.remember(path)
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))

    def replace_with(self, rel: str, make: Callable[[Path], None]) -> None:
        path = self.root / rel
        self.remember(path)
        if path.is_symlink() or path.is_file():
            path.unlink()
        make(path)

    def restore(self) -> None:
        for path, data in self.saved.items():
            if path.is_symlink() or path.is_file():
                path.unlink()
            elif path.is_dir():
                shutil.rmtree(path)
            if data is not None:
                path.write_bytes(data)
        self.saved = {}


# --- mutations -------------------------------------------------------------------------------------


def _nodes(data: Any, path: tuple = ()) -> list[tuple[tuple, Any]]:
    out = [(path, data)]
    if isinstance(data, dict):
        for k, v in data.items():
            out += _nodes(v, (*path, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out += _nodes(v, (*path, i))
    return out


def _set(data: Any, path: tuple, value: Any) -> Any:
    if not path:
        return value
    parent = data
    for part in path[:-1]:
        parent = parent[part]
    parent[path[-1]] = value
    return data


def _parent(data: Any, path: tuple) -> Any:
    for part in path[:-1]:
        data = data[part]
    return data


def _odd_value(rng: random.Random, old: Any) -> Any:
    choice = rng.randrange(7)
    if choice == 0:
        return rng.choice(ODD_STRINGS)
    if choice == 1:
        return rng.choice(ODD_NUMBERS)
    if choice == 2:
        return None
    if choice == 3:
        return [old, old] if not isinstance(old, list) else []
    if choice == 4:
        return {"x": old} if not isinstance(old, dict) else {}
    if choice == 5 and isinstance(old, str):
        return old + rng.choice(ODD_STRINGS)
    if isinstance(old, (int, float)) and not isinstance(old, bool):
        return rng.choice([old * 1000, -old, old + 0.5, str(old)])
    return rng.choice(ODD_STRINGS + ODD_NUMBERS)


_DEEP = re.compile(r"DEEPNEST(\d+)")


def _deep(depth: int) -> str:
    """A marker `_dump` replaces by `depth` levels of flow-style nesting (a dumper would recurse on it)."""
    return f"DEEPNEST{depth}"


def _nested(depth: int) -> str:
    opens = "".join("[" if i % 2 else "{k: " for i in range(depth))
    closes = "".join("]" if i % 2 else "}" for i in reversed(range(depth)))
    return opens + "x" + closes


def _mutate_data(rng: random.Random, data: Any) -> tuple[Any, str]:
    """A structural change to parsed YAML: (new data, what was done)."""
    nodes = _nodes(data)
    path, old = rng.choice(nodes)
    op = rng.randrange(6)
    if op <= 1:
        new = _odd_value(rng, old)
        return _set(data, path, new), f"{_fmt(path)} = {_short(new)}"
    if op == 2 and path:
        parent = _parent(data, path)
        del parent[path[-1]]
        return data, f"delete {_fmt(path)}"
    if op == 3 and path:
        parent = _parent(data, path)
        if isinstance(parent, list):
            parent.insert(path[-1], old)
            return data, f"duplicate {_fmt(path)}"
        parent[f"{path[-1]}2"] = old
        return data, f"copy {_fmt(path)} to a new key"
    if op == 4:
        depth = rng.choice([10, 40, 65, 200, 490, 700, 999])
        return _set(data, path, _deep(depth)), f"{_fmt(path)} nested {depth} deep"
    lists = [(p, v) for p, v in nodes if isinstance(v, list) and v]
    if lists:
        p, v = rng.choice(lists)
        for _ in range(rng.choice([2, 10, 1000])):
            v.append(v[0])
        return data, f"{_fmt(p)} grown"
    return _set(data, path, _odd_value(rng, old)), f"{_fmt(path)} replaced"


def _fmt(path: tuple) -> str:
    return ".".join(map(str, path)) or "(document)"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) < 60 else text[:57] + "..."


def _dump(data: Any) -> str:
    text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=120)
    return _DEEP.sub(lambda m: _nested(int(m.group(1))), text)


def _text_mutation(rng: random.Random, text: str) -> tuple[str, str]:
    """A change to the raw text of a file: (new text, what was done)."""
    lines = text.split("\n")
    op = rng.randrange(12)
    at = rng.randrange(len(text) + 1)
    n = rng.randrange(len(lines))
    if op == 0:
        ch = chr(rng.choice([0, 1, 7, 8, 11, 12, 27, 127, 0x85, 0x9B, 0xFFFE, 0x2028, 0x202E]))
        return text[:at] + ch + text[at:], f"U+{ord(ch):04X} at offset {at}"
    if op == 1:
        return text.replace("\n", "\r\n"), "CRLF line ends"
    if op == 2:
        return text[:at], f"truncated at {at}"
    if op == 3:
        del lines[n]
        return "\n".join(lines), f"line {n + 1} deleted"
    if op == 4:
        lines.insert(n, lines[n])
        return "\n".join(lines), f"line {n + 1} duplicated"
    if op == 5:
        m = rng.randrange(len(lines))
        lines[n], lines[m] = lines[m], lines[n]
        return "\n".join(lines), f"lines {n + 1} and {m + 1} swapped"
    if op == 6:
        snippet = rng.choice(["zz: &r [*r]\n", "zz: &r {a: *r}\n", "&a [*a]", "*undefined", "<<: {a: 1}\n",
                              "!!python/object/apply:os.system ['true']", "a: !!binary aGk=\n", "? [a]\n: b\n",
                              "a: 2001-02-30\n", "a: 1\na: 2\n", "\t- tab\n", "{", "]", "'", '"\\x"'])
        return text[:at] + snippet + text[at:], f"{snippet.strip()!r} at offset {at}"
    if op == 7:
        bomb = "a: &a [x,x,x,x,x,x,x,x,x]\n" + "".join(
            f"{c}: &{c} [{','.join(['*' + p] * 9)}]\n" for p, c in zip("abcdefgh", "bcdefghi", strict=True))
        return bomb + text, "alias bomb"
    if op == 8:
        return "", "emptied"
    if op == 9:
        return text[:at] + "\t" + text[at:], f"tab at offset {at}"
    if op == 10:
        lines[n] = "  " + lines[n]
        return "\n".join(lines), f"line {n + 1} indented"
    return text[:at] + rng.choice(["[", "]", "{", "}", ":", "-", "#", "&", "*", "!", "|", ">", "%", "@", "`"]) + \
        text[at:], f"punctuation at offset {at}"


def mutate(rng: random.Random, box: Sandbox, files: list[str]) -> Mutant:
    """Apply one random mutation to the sandbox; return what it was."""
    rel = rng.choice(files)
    parts = rel.split("/")
    game = parts[0] if len(parts) > 1 else None
    path = box.root / rel
    roll = rng.random()
    if roll < 0.06:
        return _file_mutation(rng, box, rel, game)
    if roll < 0.16:
        return _class_mutation(rng, box)
    text = path.read_text("utf-8")
    if roll < 0.45:
        new, what = _text_mutation(rng, text)
        if rng.random() < 0.1:
            box.write(rel, new.encode("utf-8")[: rng.randrange(1, len(new.encode()) + 2)] + b"\xff\xfe")
            return Mutant(game, rel, "text+bytes", what + ", then bytes that are not UTF-8")
        box.write(rel, new)
        return Mutant(game, rel, "text", what)
    if rel.endswith(".md"):
        m = _FRONT.match(text)
        if not m or rng.random() < 0.3:
            link = rng.choice(["[x](#no-such-entry)", "[x](missing.md)", "[x](../x)", "[x](ramming)", "<b>x</b>",
                               "## heading", ":unknown-icon:", "\\:", "😀", "[x](javascript:alert(1))"])
            box.write(rel, text + "\n" + link + "\n")
            return Mutant(game, rel, "markdown body", link)
        data = yaml.safe_load(m.group(2))
        new, what = _mutate_data(rng, data if data is not None else {})
        box.write(rel, m.group(1) + _dump(new) + m.group(3) + m.group(4))
        return Mutant(game, rel, "front matter", what)
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError:
        data = None
    if data is None:
        new_text, what = _text_mutation(rng, text)
        box.write(rel, new_text)
        return Mutant(game, rel, "text", what)
    new, what = _mutate_data(rng, data)
    box.write(rel, _dump(new))
    return Mutant(game, rel, "data", what)


def _file_mutation(rng: random.Random, box: Sandbox, rel: str, game: str | None) -> Mutant:
    folder = rel.rsplit("/", 1)[0] if "/" in rel else ""
    op = rng.randrange(6)
    if op == 0:
        box.replace_with(rel, lambda p: p.mkdir())
        return Mutant(game, rel, "file", "replaced by a folder of the same name")
    if op == 1:
        name = f"{folder}/zz-folder{'.md' if rel.endswith('.md') else '.yaml'}".lstrip("/")
        box.replace_with(name, lambda p: p.mkdir())
        return Mutant(game, name, "file", "a folder named like a content file")
    if op == 2:
        box.replace_with(rel, lambda p: p.symlink_to(p.parent / "no-such-target"))
        return Mutant(game, rel, "file", "replaced by a broken link")
    if op == 3:
        box.replace_with(rel, lambda p: None)
        return Mutant(game, rel, "file", "deleted")
    if op == 4 and game:
        junk = box.root / game / "zz-art.png"
        box.replace_with(f"{game}/zz-art.png", lambda p: p.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4))
        comps = sorted((box.root / game / "components").glob("*.yaml"))
        if comps:
            target = comps[rng.randrange(len(comps))]
            crel = target.relative_to(box.root).as_posix()
            text = target.read_text("utf-8")
            box.write(crel, re.sub(r"(\n( +)title: [^\n]*)", r"\1\n\2image: zz-art.png", text, count=1))
            return Mutant(game, crel, "file", f"image: {junk.name}, which is not a decodable image")
    box.replace_with(rel, lambda p: p.write_bytes(bytes(rng.randrange(256) for _ in range(200))))
    return Mutant(game, rel, "file", "random bytes")


# Icon codes that name no icon, set apart as an author would type them.
_TYPO_CODES = [":sheild:", ":no-such-icon:", ":Car:", ":car :"]


def _class_mutation(rng: random.Random, box: Sandbox) -> Mutant:
    """The classes that once passed validation and failed later (or never): a huge number in an icon
    path, an unknown icon code in a rules body, summary, glossary definition or ruling, a bad image on
    a proxy side, a file in another encoding, a huge text."""
    games = sorted(p.name for p in box.root.iterdir() if (p / "game.yaml").is_file())
    game = rng.choice(games)
    op = rng.randrange(9)
    if op == 8:
        return _control_mutation(rng, box, game)
    if op == 5:
        return _link_mutation(rng, box, game)
    if op == 6:
        return _folder_mutation(rng, box, game)
    if op == 7:
        return _figures_mutation(rng, box, game)
    if op == 0:
        text = (box.root / "icons.yaml").read_text("utf-8")
        numbers = list(re.finditer(r"(?<=[ MLHVCQ])-?\d+(?:\.\d+)?(?=[ \n])", text))
        m = rng.choice(numbers)
        huge = rng.choice(["1e30", "-1e30", "1e308", "9" * 400, "1e-320", "1001", "-1000.5"])
        box.write("icons.yaml", text[:m.start()] + huge + text[m.end():])
        return Mutant(None, "icons.yaml", "icon path", f"{m.group()} -> {huge[:20]}")
    if op == 1:
        code = rng.choice(_TYPO_CODES)
        where = rng.randrange(4)
        if where == 0 and (rules := sorted((box.root / game / "rules").glob("*.md"))):
            rel = rng.choice(rules).relative_to(box.root).as_posix()
            text = (box.root / rel).read_text("utf-8")
            box.write(rel, text + f"\nAnd {code} here.\n")
            return Mutant(game, rel, "icon code", f"{code} in a rules body")
        if where == 1 and (rules := sorted((box.root / game / "rules").glob("*.md"))):
            rel = rng.choice(rules).relative_to(box.root).as_posix()
            text = (box.root / rel).read_text("utf-8")
            box.write(rel, re.sub(r"(?m)^summary: .*$", f"summary: 'Roll {code} first.'", text, count=1)
                      if "\nsummary:" in text else text.replace("\n---\n", f"\nsummary: 'Roll {code}.'\n---\n", 1))
            return Mutant(game, rel, "icon code", f"{code} in a rules summary")
        name = "glossary.yaml" if where == 2 else "notes.yaml"
        path = box.root / game / name
        if path.is_file():
            data = yaml.safe_load(path.read_text("utf-8")) or {}
            items = data.get("terms" if where == 2 else "notes") or []
            if items:
                item = rng.choice(items)
                key = "definition" if where == 2 else "text"
                item[key] = f"{item.get(key, '')} Then {code}."
                box.write(f"{game}/{name}", _dump(data))
                return Mutant(game, f"{game}/{name}", "icon code", f"{code} in a {key}")
        return Mutant(game, f"{game}/game.yaml", "icon code", "nowhere to put it (no change)")
    if op == 2:
        comps = [p for p in sorted((box.root / game / "components").glob("*.yaml"))
                 if "\nproxy:" in p.read_text("utf-8")]
        if comps:
            target = rng.choice(comps)
            rel = target.relative_to(box.root).as_posix()
            image = rng.choice(["zz-missing.png", "zz-text.png", "/etc/hostname.png", "../../zz.png", "zz-dir.png"])
            if image == "zz-text.png":
                box.replace_with(f"{game}/zz-text.png", lambda p: p.write_text("not an image\n", "utf-8"))
            if image == "zz-dir.png":
                box.replace_with(f"{game}/zz-dir.png", lambda p: p.mkdir())
            text = target.read_text("utf-8")
            box.write(rel, re.sub(r"(\nproxy:\n( +)front:\n)", rf"\1\2\2image: {image}\n", text, count=1))
            return Mutant(game, rel, "proxy image", image)
        return Mutant(game, f"{game}/game.yaml", "proxy image", "no proxy in this game (no change)")
    files = [p.relative_to(box.root).as_posix() for p in sorted((box.root / game).rglob("*"))
             if p.is_file() and p.suffix in (".yaml", ".md")]
    rel = rng.choice(files)
    text = (box.root / rel).read_text("utf-8")
    if op == 3:
        encoding = rng.choice(["latin-1", "utf-16", "cp1252", "utf-32"])
        box.write(rel, text.replace("e", "\u00e9", 3).encode(encoding, errors="replace"))
        return Mutant(game, rel, "encoding", encoding)
    size = rng.choice([250, 12_000, 1_000_000, 3_000_000])
    new = re.sub(r"(?m)^(\s*(?:- )?(?:title|name|text|definition|term): ).*$",
                 lambda m: m.group(1) + "'" + "W" * size + "'", text, count=1)
    box.write(rel, new if new != text else text + "\n" + "W" * size + "\n")
    return Mutant(game, rel, "huge text", f"{size:,} characters")


def _link_mutation(rng: random.Random, box: Sandbox, game: str) -> Mutant:
    """A link trick (tests/link_tricks.py: known and generated) in one of the Markdown texts."""
    from tests.link_tricks import KNOWN, generated, makes_relative_link, makes_running_link

    # Running tricks, and decoys whose spelling leaves the URL relative (so it leads nowhere): both refused.
    trick = rng.choice(KNOWN) if rng.random() < 0.3 else generated(rng, n=rng.randrange(100), decoy=rng.random() < 0.3)
    trick = trick.replace("\x01", "&#1;")  # a raw control character is refused as the file is read
    refused = makes_running_link(trick) or makes_relative_link(trick)
    where = rng.randrange(4)
    rules = sorted((box.root / game / "rules").glob("*.md"))
    if where != 0 or not rules:
        name = {1: "notes.yaml", 2: "glossary.yaml", 3: "quick-reference.yaml"}.get(where, "glossary.yaml")
        path = box.root / game / name
        if path.is_file():
            data = yaml.safe_load(path.read_text("utf-8")) or {}
            items = data.get({"notes.yaml": "notes", "glossary.yaml": "terms"}.get(name, "cards")) or []
            if items:
                item = rng.choice(items)
                key = {"notes.yaml": "text", "glossary.yaml": "definition"}.get(name, "text")
                item[key] = f"{item.get(key, '')}\n\n{trick}"
                box.write(f"{game}/{name}", _dump(data))
                return Mutant(game, f"{game}/{name}", "markdown link", f"{trick!r} in a {key}", refused)
    rel = rng.choice(rules).relative_to(box.root).as_posix()
    box.write(rel, (box.root / rel).read_text("utf-8") + f"\n\n{trick}\n")
    return Mutant(game, rel, "markdown link", f"{trick!r} in a rules body", refused)


# YAML escapes that make a control character (C0, DEL, C1: refused where an id or path is expected),
# and others that make characters an id or path may well refuse too (separators, a direction override).
_CONTROL_ESCAPES = ["\\0", "\\x01", "\\e", "\\x7f", "\\N", "\\x9b", "\\t", "\\r", "\\b", "\\a", "\\v", "\\f"]
_OTHER_ESCAPES = ["\\L", "\\P", "\\u202e", "\\_", "\\uFEFF"]
# Keys whose value names something (an id, a rule, an icon, an image file, an action, a kind).
_NAMING = re.compile(r"(?m)^(\s*(?:- )?(?:id|rule|icon|image|do|kind|origin): )([\w./-]+)[ \t]*$")


def _control_mutation(rng: random.Random, box: Sandbox, game: str) -> Mutant:
    """A control character written as a YAML escape (`"\\0"`, `"\\e"`, ...) inside a value that names
    something: an id, a rule, an icon, an image path, an action (a NUL in an image path once escaped
    as a traceback)."""
    files = [p.relative_to(box.root).as_posix() for p in sorted((box.root / game).rglob("*.yaml"))]
    named = [(rel, m) for rel in files for m in _NAMING.finditer((box.root / rel).read_text("utf-8"))]
    if not named:
        return Mutant(game, f"{game}/game.yaml", "control character", "no named value (no change)")
    rel, m = rng.choice(named)
    control = rng.random() < 0.75
    escape = rng.choice(_CONTROL_ESCAPES if control else _OTHER_ESCAPES)
    value = m.group(2)
    at = rng.randrange(len(value) + 1)
    text = (box.root / rel).read_text("utf-8")
    box.write(rel, text[:m.start(2)] + f'"{value[:at]}{escape}{value[at:]}"' + text[m.end(2):])
    return Mutant(game, rel, "control character", f"{escape} in {m.group(1).strip()} {value!r}", must_refuse=control)


def _folder_name(rng: random.Random) -> str:
    from generators.site.paths import reserved_names

    kind = rng.randrange(4)
    if kind == 0:
        return rng.choice(sorted(reserved_names()))
    if kind == 1:
        return rng.choice(["Bad Name..x", "UPPER", "a b", ".hidden", "-dash", "名前", "x" * 70, "under_score",
                           "dot.ted"])
    alphabet = "abcXYZ09-_. é"
    name = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 12))).strip() or "Q"
    return name if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", name) else name + "_X"  # never a game's id


def _folder_mutation(rng: random.Random, box: Sandbox, game: str) -> Mutant:
    """A folder under content/ that is not a game: a name that is no id or one the site uses, a game
    with game.yml, an empty folder. Each must be refused (every folder is a game or an error)."""
    shape = rng.randrange(3)
    name = _folder_name(rng) if shape == 0 else re.sub(r"[^a-z0-9-]", "", _folder_name(rng).lower()) or "stray"
    if shape == 0 and not (box.root / name).exists():
        box.replace_with(name, lambda p: shutil.copytree(box.root / game, p))
        return Mutant(game, name, "folder", f"a copy of {game} named {name!r}", must_refuse=True)
    name = f"zz-{name}".rstrip("-")
    if shape == 1:
        def yml(p: Path) -> None:
            shutil.copytree(box.root / game, p)
            (p / "game.yaml").rename(p / "game.yml")
        box.replace_with(name, yml)
        return Mutant(game, name, "folder", f"{name!r} with game.yml", must_refuse=True)
    box.replace_with(name, lambda p: p.mkdir())
    return Mutant(game, name, "folder", f"an empty folder {name!r}", must_refuse=True)


def _figures_mutation(rng: random.Random, box: Sandbox, game: str) -> Mutant:
    """figures.json cut short, made another JSON value, or with a value of the wrong type."""
    rel = f"{game}/figures.json"
    path = box.root / rel
    if not path.is_file():
        return Mutant(game, rel, "figures", "no figures (no change)")
    text = path.read_text("utf-8")
    op = rng.randrange(3)
    if op == 0:
        box.write(rel, text[: rng.randrange(len(text))])
        return Mutant(game, rel, "figures", "cut short", must_refuse=True)
    if op == 1:
        box.write(rel, rng.choice(["[]", "null", "3", '"x"', "{", ""]))
        return Mutant(game, rel, "figures", "another JSON value", must_refuse=True)
    import json

    data = json.loads(text)
    typed = [(part, key) for part, key in (("plays", "seed"), ("plays", "version"), ("balance", "games_per_setting"),
                                           ("players", "comparisons")) if isinstance(data.get(part), dict)]
    if not typed:
        return Mutant(game, rel, "figures", "no typed value to change (no change)")
    part, key = rng.choice(typed)
    data[part][key] = rng.choice([{"x": 1}, [1, 2], True]) if key == "version" else rng.choice(["lots", "", 1.5, None])
    box.write(rel, json.dumps(data, indent=1))
    return Mutant(game, rel, "figures", f"{part}.{key} of the wrong type", must_refuse=True)


# --- running ----------------------------------------------------------------------------------------


def judge(error_text: str, box: Sandbox) -> str | None:
    """None if `error_text` is one located line naming a real place, else why not."""
    if "\n" in error_text:
        return "more than one line"
    m = LINE.match(error_text)
    if not m:
        return "not file:line:column: key.path: message"
    if int(m["line"]) < 1 or int(m["col"]) < 1:
        return "line or column below 1"
    named = Path(m["file"])
    if not named.is_absolute():
        named = Path.cwd() / named
    if not (named.exists() or named.is_symlink()):
        return f"names a file that does not exist: {m['file']}"
    if named.is_file():
        lines = named.read_bytes().count(b"\n") + 1
        if int(m["line"]) > lines + 1:
            return f"line {m['line']} is past the end of {m['file']}"
    return None


def run(mutants: int, seed: int, work: Path, later: int = 0, on_mutant: Callable[[int], None] | None = None,
        failing: list[tuple[Mutant, Sandbox]] | None = None, keep_failing: int = 0,
        outcome: Outcome | None = None) -> Outcome:
    """Validate `mutants` seeded mutants of the content copied into `work`; run `later` of those that
    validate through the steps after validation. With `failing`, keep up to `keep_failing` mutants that
    fail validation (applied, in their own copies) for build tests."""
    from generators.build_system.errors import ContentError
    from generators.validate import validate

    rng = random.Random(seed)
    box = Sandbox(work / "content")
    files = box.files()
    outcome = outcome if outcome is not None else Outcome()  # given: filled as the run goes (progress reports)
    started = time.perf_counter()
    for i in range(mutants):
        mutant = mutate(rng, box, files)
        outcome.mutants += 1
        try:
            validate(box.root, [mutant.game] if mutant.game else None)
        except ContentError as exc:
            outcome.located += 1
            problem = judge(str(exc), box)
            if problem:
                outcome.bad_lines.append(f"#{i} {mutant}: {problem}: {str(exc)[:300]!r}")
            elif failing is not None and len(failing) < keep_failing and rng.random() < 0.5:
                copy = Sandbox(work / f"failing-{len(failing)}" / "content")
                shutil.rmtree(copy.root)
                shutil.copytree(box.root, copy.root, symlinks=True)
                failing.append((mutant, copy))
        except Exception:
            outcome.tracebacks.append(f"#{i} {mutant}:\n{traceback.format_exc(limit=-4)}")
        else:
            outcome.valid += 1
            if mutant.must_refuse:
                outcome.bad_lines.append(f"#{i} {mutant}: validated, but it must be refused")
            if outcome.later_checked < later and mutant.game:
                outcome.later_checked += 1
                crash = after_validation(box.root, mutant.game, work / "later")
                if crash:
                    outcome.later_crashes.append(f"#{i} {mutant}: {crash}")
        box.restore()
        if on_mutant:
            on_mutant(i)
    outcome.seconds = time.perf_counter() - started
    return outcome


def after_validation(root: Path, game_id: str, out: Path) -> str | None:
    """Content that validated goes through the later steps in memory: each A4 document of its game
    rendered, its examples replayed and drawn, its site pages rendered. None, or the traceback."""
    from generators.check.runner import compute_check
    from generators.pdf.options import Options
    from generators.pdf.print_targets import document_targets
    from generators.site.collect import collect
    from generators.validate import validate

    try:
        checked = validate(root, [game_id])
        game = checked.content.game(game_id)
        variants = [Options(paper="a4"), Options(paper="a4", proxies=True)]
        for target in document_targets(checked.content, game, variants, out):
            target.make()
        compute_check(checked.work)
        collect(checked.content, out)
    except Exception:
        return traceback.format_exc(limit=-4)
    return None


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__.splitlines()[0])
    p.add_argument("--mutants", type=int, default=5000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--later", type=int, default=60, help="validated mutants to run through print/check/site pages")
    args = p.parse_args(argv)
    import tempfile

    with tempfile.TemporaryDirectory(prefix="roadkit-fuzz-") as tmp:
        outcome = Outcome()  # filled as the run goes
        told = [0]
        started = time.perf_counter()

        def progress(i: int) -> None:
            # each failure said as it is found, so a long run stopped early has told what it found
            failures = outcome.failures
            for failure in failures[told[0]:]:
                print(failure, file=sys.stderr, flush=True)
            told[0] = len(failures)
            if (i + 1) % 100 == 0:
                print(f"  {i + 1} mutants, {len(failures)} failures, {time.perf_counter() - started:.0f} s",
                      flush=True)

        run(args.mutants, args.seed, Path(tmp), later=args.later, on_mutant=progress, outcome=outcome)
    print(outcome.summary())
    return 1 if outcome.failures else 0


if __name__ == "__main__":
    sys.exit(main())
