"""Safe YAML loading that remembers where every value came from.

Content is user-edited, so loading is defensive: only the YAML core tags are accepted (no
`!!python/...`), alias expansion is bounded (no billion laughs), an alias may not contain itself,
nesting is bounded (so no later step can run out of stack), duplicate keys are refused, the bytes
must be UTF-8 without control characters, and CRLF or CR line ends read as LF. Every value's
position is kept in `Doc.marks`, keyed by its key path, so any later check (schema, references,
engine setup) can point at `file:line:column`.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import yaml

from generators.build_system.errors import ContentError, KeyPath

# More expanded nodes than this in one file can only come from alias abuse.
MAX_EXPANDED_NODES = 200_000
# Content nests a handful of levels (a board's element's art's grid's cells); far deeper is a mistake.
MAX_DEPTH = 64
# A content file is a page or two of YAML or Markdown; a far bigger one is a mistake that would cost
# minutes of layout and indexing before any bound on its fields was reached.
MAX_FILE_BYTES = 2_000_000
MAX_FOLDER_FILES = 1000  # content files of one kind in one folder (components, rules entries, examples)
# What YAML 1.1 does not allow as printable (C0 controls but tab and line ends, DEL, C1 but NEL,
# non-characters), refused in Markdown as well: invisible in most editors, garbage in print.
UNPRINTABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\ufffe\uffff]")
# An anchor (`&name`) starts a value: after the start, a space, a flow indicator or a colon.
_MAY_HAVE_ANCHORS = re.compile(r"(?:^|[\s\[{,:])&[^\s\[\]{},]", re.M)
_CORE_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:map",
    "tag:yaml.org,2002:seq",
}


def display_path(path: Path) -> str:
    """A path as the user would type it: relative to the working directory when inside it."""
    try:
        return os.path.relpath(path)
    except ValueError:  # another drive on Windows
        return str(path)


@dataclass(frozen=True)
class Doc:
    """A parsed YAML document: plain data plus the position of every value."""

    file: str
    data: Any
    marks: dict[KeyPath, tuple[int, int]] = field(repr=False)

    def where(self, path: KeyPath) -> tuple[int, int]:
        """Line and column of `path`, or of its nearest ancestor that has a mark."""
        path = tuple(path)
        while path not in self.marks and path:
            path = path[:-1]
        return self.marks.get(path, (1, 1))

    def error(self, path: KeyPath, message: str) -> ContentError:
        line, col = self.where(path)
        return ContentError(self.file, line, col, path, message)

    def sub(self, path: KeyPath) -> Doc:
        """The part of this document under `path`, with marks re-rooted; for nested validation."""
        path = tuple(path)
        data = self.data
        for part in path:
            data = data[part]
        n = len(path)
        marks = {k[n:]: v for k, v in self.marks.items() if k[:n] == path}
        return _SubDoc(self.file, data, marks, path)


@dataclass(frozen=True)
class _SubDoc(Doc):
    prefix: KeyPath = ()

    def error(self, path: KeyPath, message: str) -> ContentError:
        line, col = self.where(path)
        return ContentError(self.file, line, col, self.prefix + tuple(path), message)


def _decode(raw: bytes, name: str) -> str:
    """The text of a content file: UTF-8 (a BOM dropped), line ends as LF, no control characters."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]
        line = before.count(b"\n") + 1
        col = exc.start - (before.rfind(b"\n") + 1) + 1
        raise ContentError(
            name, line, col, (), f"the file is not UTF-8 (byte 0x{raw[exc.start]:02x}); save it as UTF-8"
        ) from None
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    bad = UNPRINTABLE.search(text)
    if bad:
        line = text.count("\n", 0, bad.start()) + 1
        col = bad.start() - (text.rfind("\n", 0, bad.start()) + 1) + 1
        raise ContentError(name, line, col, (), f"the control character U+{ord(bad.group()):04X} is not allowed "
                           "in content (most editors do not show it); delete it")
    return text


def content_files(folder: Path, pattern: str) -> list[Path]:
    """The files in `folder` whose names match `pattern`, sorted. Anything else with such a name (a
    folder called x.yaml, a broken link) is a located error rather than a file silently skipped."""
    if not folder.is_dir():
        return []
    found = sorted(folder.glob(pattern))
    _refuse_strays(folder, pattern, found)
    if len(found) > MAX_FOLDER_FILES:
        raise ContentError(display_path(folder), 1, 1, (), f"{len(found):,} files named {pattern} here; a folder "
                           f"holds at most {MAX_FOLDER_FILES:,} (every file is walked by the build)")
    for path in found:
        require_file(path)
    return found


def _refuse_strays(folder: Path, pattern: str, found: list[Path]) -> None:
    """A content folder holds only its own kind of file: a subfolder or a file named otherwise
    (`x.yml`, `x.md.txt`) would be passed over in silence, its edits never built. Hidden files and
    editors' backups (`.x`, `x~`) are left alone: no one means them as content."""
    kept = set(found)
    for path in sorted(folder.iterdir()):
        if path in kept or path.name.startswith(".") or path.name.endswith("~"):
            continue
        what = "a folder" if path.is_dir() else "a file"
        raise ContentError(display_path(path), 1, 1, (), f"{what} the build never reads: {folder.name}/ holds "
                           f"only {pattern} files, one level deep; rename or move it")


def require_file(path: Path) -> None:
    if not path.is_file():
        what = "a folder" if path.is_dir() else "a broken link" if path.is_symlink() and not path.exists() else \
            "missing" if not path.exists() else "a link to something that is not a file (a device, a pipe)" \
            if path.is_symlink() else "not a regular file"
        raise ContentError(display_path(path), 1, 1, (), f"expected a content file but this is {what}; "
                           "rename or move it")


def read_text(path: Path) -> tuple[str, str]:
    """(display name, text) of a content file; a folder or an unreadable file is a located error."""
    name = display_path(path)
    require_file(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ContentError(name, 1, 1, (), f"cannot read this file: {exc.strerror or exc}") from None
    if len(raw) > MAX_FILE_BYTES:
        raise ContentError(name, 1, 1, (), f"the file is {len(raw) / 1e6:.1f} MB; content files up to "
                           f"{MAX_FILE_BYTES // 1_000_000} MB are accepted (the largest real one is ~35 kB)")
    return name, _decode(raw, name)


def _check_expansion(root: yaml.Node, name: str) -> None:
    """Refuse documents whose aliases would expand to an enormous tree (billion laughs)."""
    import yaml  # lazy: PyYAML only where YAML is read (not in the browser)

    sizes: dict[int, int] = {}

    def size(node: yaml.Node, depth: int) -> int:
        if depth > MAX_DEPTH:
            raise _too_deep(name, node)
        key = id(node)
        if key in sizes:
            return sizes[key]
        sizes[key] = 1  # guards against recursive aliases
        if isinstance(node, yaml.MappingNode):
            total = 1 + sum(size(k, depth + 1) + size(v, depth + 1) for k, v in node.value)
        elif isinstance(node, yaml.SequenceNode):
            total = 1 + sum(size(v, depth + 1) for v in node.value)
        else:
            total = 1
        sizes[key] = total
        if total > MAX_EXPANDED_NODES:
            mark = node.start_mark
            raise ContentError(
                name, mark.line + 1, mark.column + 1, (),
                f"aliases here expand to more than {MAX_EXPANDED_NODES} values; "
                "write the data out or use fewer aliases",
            )
        return total

    size(root, 0)


def _too_deep(name: str, node: yaml.Node, path: KeyPath = ()) -> ContentError:
    mark = node.start_mark
    return ContentError(name, mark.line + 1, mark.column + 1, path,
                        f"values nest more than {MAX_DEPTH} levels deep here; content never needs that many")


class _Builder:
    """Turns a composed node tree into plain data, recording marks and refusing odd tags."""

    def __init__(self, name: str, loader: yaml.SafeLoader):
        self.name = name
        self.loader = loader
        self.marks: dict[KeyPath, tuple[int, int]] = {}
        self.open: set[int] = set()  # the nodes being built, outermost first: an alias back to one is a cycle

    def fail(self, node: yaml.Node, path: KeyPath, message: str) -> ContentError:
        return ContentError(self.name, node.start_mark.line + 1, node.start_mark.column + 1, path, message)

    def build(self, node: yaml.Node, path: KeyPath) -> Any:
        import yaml  # lazy: PyYAML only where YAML is read (not in the browser)

        self.marks.setdefault(path, (node.start_mark.line + 1, node.start_mark.column + 1))
        if node.tag not in _CORE_TAGS:
            raise self.fail(node, path, f"the tag {node.tag!r} is not allowed; content may only hold plain YAML values")
        if not isinstance(node, yaml.ScalarNode):
            if id(node) in self.open:
                raise self.fail(node, path, "an alias here refers to the value that contains it (like &a [*a]); "
                                "a value cannot contain itself")
            if len(path) > MAX_DEPTH:
                raise _too_deep(self.name, node, path)
            self.open.add(id(node))
            try:
                return self._collection(node, path)
            finally:
                self.open.discard(id(node))
        try:
            return self.loader.construct_object(node)
        except (yaml.YAMLError, ValueError) as exc:
            raise self.fail(node, path, f"cannot read this value ({exc})") from None

    def _collection(self, node: yaml.Node, path: KeyPath) -> Any:
        import yaml  # lazy: PyYAML only where YAML is read (not in the browser)

        if isinstance(node, yaml.MappingNode):
            out: dict[str, Any] = {}
            for key_node, value_node in node.value:
                if not isinstance(key_node, yaml.ScalarNode):
                    raise self.fail(key_node, path, "expected a plain key, got a nested structure")
                if key_node.tag == "tag:yaml.org,2002:merge":
                    raise self.fail(key_node, path, "merge keys (<<) are not supported; write the keys out")
                if key_node.tag not in _CORE_TAGS:
                    raise self.fail(key_node, path, f"the tag {key_node.tag!r} is not allowed on a key")
                try:
                    key = self.loader.construct_object(key_node)
                except (yaml.YAMLError, ValueError) as exc:
                    raise self.fail(key_node, path, f"cannot read this key ({exc})") from None
                key = str(key) if not isinstance(key, str) else key
                if key in out:
                    raise self.fail(key_node, (*path, key), f"duplicate key {key!r} in this mapping")
                self.marks[(*path, key)] = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
                out[key] = self.build(value_node, (*path, key))
            return out
        return [self.build(item, (*path, i)) for i, item in enumerate(node.value)]


def parse_yaml(text: str, name: str) -> Doc:
    """Parse one YAML document from `text`; `name` is what errors call the file."""
    import yaml  # lazy: PyYAML only where YAML is read (not in the browser)

    # libyaml's parser when PyYAML was built with it (about ten times faster), the same safe constructor.
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)(text)
    try:
        root = loader.get_single_node()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or "YAML syntax error"
        if exc.context:
            problem = f"{exc.context}, {problem}"
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        raise ContentError(name, line, col, (), f"YAML syntax error: {problem}") from None
    except yaml.YAMLError as exc:
        raise ContentError(name, 1, 1, (), "YAML error: " + " ".join(str(exc).split())) from None
    except RecursionError:  # the pure-Python parser (no libyaml) recurses once per nesting level
        raise ContentError(name, 1, 1, (), f"values nest more than {MAX_DEPTH} levels deep; "
                           "content never needs that many") from None
    finally:
        loader.dispose()
    if root is None:
        return Doc(name, None, {(): (1, 1)})
    if _MAY_HAVE_ANCHORS.search(text):  # no anchor, no alias: nothing can expand
        _check_expansion(root, name)
    builder = _Builder(name, loader)
    data = builder.build(root, ())
    return Doc(name, data, builder.marks)


def load_yaml(path: Path) -> Doc:
    """Read and parse a content file safely."""
    name, text = read_text(path)
    return parse_yaml(text, name)
