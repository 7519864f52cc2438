"""One schema mechanism: typed frozen dataclasses.

The content model is written as dataclasses with type hints. From those hints this module
(1) converts a parsed `Doc` into model instances, reporting any mismatch at its file:line:column
with the key path, and (2) exports a JSON Schema for editors. There is no second description of
the format to keep in step.

Field metadata understood: `doc` (a description), `min` / `max` (numbers), `pattern` (strings),
`examples`.
"""

from __future__ import annotations

import dataclasses
import difflib
import math
import re
import types
import typing
from functools import cache
from typing import Any, Literal, TypeVar, Union, get_args, get_origin, get_type_hints

from generators.build_system.errors import KeyPath
from generators.content.yaml_io import MAX_FILE_BYTES, UNPRINTABLE, Doc

T = TypeVar("T")

# No content number is anywhere near this: a bound for fields without their own `max`, so that no
# later sum, size or loop meets an infinity, NaN or a number with a thousand digits.
MAX_NUMBER = 1_000_000_000
# Bounds on text, checked before anything lays it out or indexes it: a name or title is one line on a
# card or a heading, other texts a few paragraphs (the longest in the rulebooks' content is ~1,600).
MAX_LINE_TEXT = 200
MAX_TEXT = 10_000
LINE_FIELDS = frozenset({"title", "name", "subtitle", "term", "corner", "corner_left"})
# Bounds on lists and mappings: the build walks them per entry (a page per chapter, every alias in
# every page's tooltips), so each has one. A field states a tighter one as `max_items` in its metadata;
# the longest list of the real content has 50 entries.
MAX_ITEMS = 1000
LIMITS = (f"Roadkit refuses a content file over {MAX_FILE_BYTES:,} bytes, a title, name, subtitle, term or corner "
          f"over {MAX_LINE_TEXT} characters, any other text over {MAX_TEXT:,} characters, a number beyond "
          f"{MAX_NUMBER:,} and a list or mapping of over {MAX_ITEMS:,} entries (some fewer, as stated); the "
          "properties below state the same bounds.")
_TYPE_NAMES = {str: "a string", int: "a whole number", float: "a number", bool: "true or false"}


def describe(value: Any) -> str:
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        short = value if len(value) <= 30 else value[:27] + "..."
        return f"the text {short!r}"
    return f"{type(value).__name__} {value!r}"


def type_label(tp: Any) -> str:
    origin = get_origin(tp)
    if tp in _TYPE_NAMES:
        return _TYPE_NAMES[tp]
    if origin is Literal:
        return "one of " + ", ".join(repr(a) for a in get_args(tp))
    if origin in (list, tuple):
        return "a list"
    if origin is dict:
        return "a mapping"
    if origin in (Union, types.UnionType):
        return " or ".join(type_label(a) for a in get_args(tp) if a is not type(None))
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return f"a mapping ({tp.__name__})"
    return str(tp)


@cache
def _hints(cls: type) -> dict[str, Any]:
    return get_type_hints(cls)


@cache
def fields_of(cls: type) -> tuple[dataclasses.Field, ...]:
    return tuple(f for f in dataclasses.fields(cls) if f.init and not f.name.startswith("_"))


def _key(f: dataclasses.Field) -> str:
    """The YAML key of a field: its name, or `metadata['key']` where the name is a Python keyword."""
    return f.metadata.get("key", f.name)


def _required(f: dataclasses.Field) -> bool:
    return f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING


class FrozenDict(dict):
    """A read-only mapping for converted content: like MappingProxyType, but it can be pickled (content
    goes to worker processes) and compared with plain dicts."""

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("converted content is read-only")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _refuse
    __ior__ = _refuse

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenDict, (dict(self),))

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(sorted(self.items(), key=repr)))


def convert(doc: Doc, tp: type[T], path: KeyPath = (), value: Any = ...) -> T:
    """Convert the value at `path` of `doc` to `tp`, or raise a located ContentError."""
    if value is ...:
        value = doc.data
        for part in path:
            value = value[part]
    return _convert(doc, tp, tuple(path), value)


def _convert(doc: Doc, tp: Any, path: KeyPath, value: Any) -> Any:
    origin = get_origin(tp)
    if tp is Any:
        return value
    if origin in (Union, types.UnionType):
        options = get_args(tp)
        if value is None and type(None) in options:
            return None
        # Pick the member that matches the shape of the value, so the error names the right one.
        for opt in options:
            if opt is type(None):
                continue
            if _shape_matches(opt, value):
                return _convert(doc, opt, path, value)
        raise doc.error(path, f"expected {type_label(tp)}, got {describe(value)}")
    if origin is Literal:
        allowed = get_args(tp)
        if value not in allowed or isinstance(value, bool) != any(isinstance(a, bool) for a in allowed):
            hint = suggest(str(value), [str(a) for a in allowed])
            raise doc.error(path, f"expected one of {', '.join(map(str, allowed))}, got {describe(value)}{hint}")
        return value
    if isinstance(value, (list, dict)) and len(value) > MAX_ITEMS:
        raise doc.error(path, _too_many(len(value), MAX_ITEMS))
    if origin in (list, tuple):
        if not isinstance(value, list):
            raise doc.error(path, f"expected a list, got {describe(value)}")
        fixed = _fixed(tp)
        if fixed is not None:  # tuple[int, int]: that many items, each of its own type
            if len(value) != len(fixed):
                raise doc.error(path, f"expected a list of {len(fixed)} ({', '.join(type_label(a) for a in fixed)}), "
                                      f"got {len(value)} item{'s' if len(value) != 1 else ''}")
            return tuple(_convert(doc, a, (*path, i), v) for i, (a, v) in enumerate(zip(fixed, value, strict=True)))
        (item_tp, *_rest) = get_args(tp) or (Any,)
        items = [_convert(doc, item_tp, (*path, i), v) for i, v in enumerate(value)]
        return tuple(items)
    if origin is dict:
        if not isinstance(value, dict):
            raise doc.error(path, f"expected a mapping, got {describe(value)}")
        key_tp, val_tp = get_args(tp)
        return FrozenDict({_convert(doc, key_tp, (*path, k), k) if isinstance(k, str) else k:
                           _convert(doc, val_tp, (*path, k), v) for k, v in value.items()})
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _convert_dataclass(doc, tp, path, value)
    if tp is bool:
        if not isinstance(value, bool):
            raise doc.error(path, f"expected true or false, got {describe(value)}")
        return value
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise doc.error(path, f"expected a whole number, got {describe(value)}")
        if abs(value) > MAX_NUMBER:
            raise doc.error(path, f"expected an ordinary number, got {value!r}")
        return value
    if tp is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise doc.error(path, f"expected a number, got {describe(value)}")
        if not math.isfinite(value) or abs(value) > MAX_NUMBER:
            raise doc.error(path, f"expected an ordinary number, got {value!r}")
        return float(value)
    if tp is str:
        # Numbers typed where text is expected (a card titled 82) are text; lists and maps are not.
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            raise doc.error(path, f"expected text, got {describe(value)}")
        text = str(value)
        if len(text) > (limit := text_limit(path)):
            raise doc.error(path, f"{len(text):,} characters of text; this holds at most {limit:,}")
        # A file may not hold control characters (yaml_io), and neither may what a YAML escape
        # ("\0", "\x07", "\u0085") writes: in a path or a name one would reach the file system.
        if bad := UNPRINTABLE.search(text):
            raise doc.error(path, f"the control character U+{ord(bad.group()):04X} (written as an escape) is not "
                            "allowed in content; delete it")
        return text
    raise TypeError(f"schema cannot handle type {tp!r}")


def text_limit(path: KeyPath) -> int:
    """The most characters the text at `path` may hold (by the field it is in)."""
    key = next((p for p in reversed(path) if isinstance(p, str)), "")
    return MAX_LINE_TEXT if key in LINE_FIELDS else MAX_TEXT


def _fixed(tp: Any) -> tuple[Any, ...] | None:
    """The item types of a tuple of fixed length (`tuple[int, int]`), else None (`tuple[int, ...]`, lists)."""
    args = get_args(tp)
    return args if get_origin(tp) is tuple and args and args[-1] is not Ellipsis else None


def _shape_matches(tp: Any, value: Any) -> bool:
    origin = get_origin(tp)
    if dataclasses.is_dataclass(tp) or origin is dict:
        return isinstance(value, dict)
    if origin in (list, tuple):
        return isinstance(value, list)
    if origin is Literal:
        return value in get_args(tp)
    if tp is str:
        return isinstance(value, str)
    if tp in (int, float):
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if tp is bool:
        return isinstance(value, bool)
    return False


def suggest(word: str, options: list[str]) -> str:
    close = difflib.get_close_matches(word, options, n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _convert_dataclass(doc: Doc, cls: type, path: KeyPath, value: Any) -> Any:
    if not isinstance(value, dict):
        raise doc.error(path, f"expected {type_label(cls)}, got {describe(value)}")
    hints = _hints(cls)
    fields = fields_of(cls)
    by_key = {_key(f): f for f in fields}
    for key in value:
        if key not in by_key:
            hint = suggest(key, list(by_key))
            allowed = ", ".join(by_key)
            raise doc.error((*path, key), f"unknown key {key!r}{hint}; expected one of: {allowed}")
    kwargs: dict[str, Any] = {}
    for f in fields:
        key = _key(f)
        if key not in value:
            if _required(f):
                raise doc.error(path, f"missing required key {key!r} ({type_label(hints[f.name])})")
            continue
        cap = f.metadata.get("max_items")
        if cap is not None and isinstance(value[key], (list, dict)) and len(value[key]) > cap:
            raise doc.error((*path, key), _too_many(len(value[key]), cap))
        kwargs[f.name] = _convert(doc, hints[f.name], (*path, key), value[key])
        _check_constraints(doc, f, (*path, key), kwargs[f.name])
    obj = cls(**kwargs)
    check = getattr(obj, "check", None)
    if check is not None:
        problem = check()
        if problem:
            bad_key, message = problem  # a key of this object, or a key path inside it
            raise doc.error(path + (tuple(bad_key) if isinstance(bad_key, tuple) else (bad_key,) if bad_key else ()),
                            message)
    return obj


def _too_many(n: int, cap: int) -> str:
    return f"{n:,} entries; this holds at most {cap:,} (every list a build walks has a bound)"


def _check_constraints(doc: Doc, f: dataclasses.Field, path: KeyPath, value: Any) -> None:
    meta = f.metadata
    if "min" in meta and isinstance(value, (int, float)) and value < meta["min"]:
        raise doc.error(path, f"expected at least {meta['min']}, got {value}")
    if "max" in meta and isinstance(value, (int, float)) and value > meta["max"]:
        raise doc.error(path, f"expected at most {meta['max']}, got {value}")
    if meta.get("unique") and isinstance(value, (list, tuple)):
        seen: set[Any] = set()
        for i, item in enumerate(value):
            if item in seen:
                raise doc.error((*path, i), f"expected each item once; {describe(item)} is listed again")
            seen.add(item)
    if "pattern" in meta and isinstance(value, str) and not re.fullmatch(meta["pattern"], value):
        what = meta.get("pattern_doc", f"text matching {meta['pattern']}")
        raise doc.error(path, f"expected {what}, got {describe(value)}")


def to_data(value: Any) -> Any:
    """A converted value back to plain YAML/JSON data: dataclasses as mappings without the fields
    left at their defaults, tuples as lists, read-only mappings as dicts. `convert` of the result
    gives an equal value back."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out: dict[str, Any] = {}
        for f in fields_of(type(value)):
            item = getattr(value, f.name)
            if f.default is not dataclasses.MISSING and item == f.default:
                continue
            if f.default_factory is not dataclasses.MISSING and item == f.default_factory():
                continue
            out[_key(f)] = to_data(item)
        return out
    if isinstance(value, dict):
        return {k: to_data(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_data(v) for v in value]
    return value


# ---------------------------------------------------------------------------------------------
# JSON Schema export


def json_schema(root: type, title: str) -> dict[str, Any]:
    """A JSON Schema (draft 2020-12) for `root`, with one definition per dataclass."""
    defs: dict[str, Any] = {}
    body = _schema_for(root, defs)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": title,
        "$comment": LIMITS,
        **body,
        "$defs": dict(sorted(defs.items())),
    }


def _bounded(node: dict[str, Any], key: str) -> dict[str, Any]:
    """`node` (the schema of field `key`) stating the bounds `convert` enforces: the text limit of the
    field on every string in it, the number bound where the field has no tighter one of its own."""
    kind = node.get("type")
    if kind == "string" and "enum" not in node:
        node.setdefault("maxLength", text_limit((key,)))
    elif kind in ("integer", "number"):
        node.setdefault("minimum", -MAX_NUMBER)
        node.setdefault("maximum", MAX_NUMBER)
    elif kind == "array":
        node.setdefault("maxItems", MAX_ITEMS)
    elif kind == "object" and "additionalProperties" in node and "properties" not in node:
        node.setdefault("maxProperties", MAX_ITEMS)
    for sub in node.get("anyOf", ()):
        _bounded(sub, key)
    for part in ("items", "additionalProperties"):
        if isinstance(node.get(part), dict):
            _bounded(node[part], key)
    return node


def schema_ref(tp: Any, defs: dict[str, Any]) -> dict[str, Any]:
    """The schema of `tp` (a `$ref` for dataclasses), adding the definitions it needs to `defs`;
    for composing schemas (a scenario whose setup is a game engine's spec)."""
    return _schema_for(tp, defs)


def _schema_for(tp: Any, defs: dict[str, Any]) -> dict[str, Any]:
    origin = get_origin(tp)
    if tp is Any:
        return {}
    if origin in (Union, types.UnionType):
        opts = [_schema_for(a, defs) if a is not type(None) else {"type": "null"} for a in get_args(tp)]
        return {"anyOf": opts}
    if origin is Literal:
        return {"enum": list(get_args(tp))}
    if origin in (list, tuple):
        args = get_args(tp)
        fixed = _fixed(tp)
        if fixed is not None:
            return {"type": "array", "prefixItems": [_schema_for(a, defs) for a in fixed], "items": False,
                    "minItems": len(fixed), "maxItems": len(fixed)}
        return {"type": "array", "items": _schema_for(args[0], defs) if args else {}}
    if origin is dict:
        return {"type": "object", "additionalProperties": _schema_for(get_args(tp)[1], defs)}
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        name = tp.__name__
        if name not in defs:
            defs[name] = {}  # placeholder against recursion
            hints = _hints(tp)
            props: dict[str, Any] = {}
            required = []
            for f in fields_of(tp):
                prop = _schema_for(hints[f.name], defs)
                meta = f.metadata
                if "doc" in meta:
                    prop["description"] = meta["doc"]
                if "min" in meta:
                    prop["minimum"] = meta["min"]
                if "max" in meta:
                    prop["maximum"] = meta["max"]
                if "pattern" in meta:
                    prop["pattern"] = f"^(?:{meta['pattern']})$"
                if "max_items" in meta:
                    for node in (prop, *prop.get("anyOf", ())):
                        if node.get("type") == "array":
                            node["maxItems"] = meta["max_items"]
                if meta.get("unique"):
                    for node in (prop, *prop.get("anyOf", ())):
                        if node.get("type") == "array":
                            node["uniqueItems"] = True
                if "examples" in meta:
                    prop["examples"] = list(meta["examples"])
                default = f.default
                if default is not dataclasses.MISSING and isinstance(default, (str, int, float, bool)):
                    prop["default"] = default
                props[_key(f)] = _bounded(prop, _key(f))
                if _required(f):
                    required.append(_key(f))
            entry: dict[str, Any] = {"type": "object", "properties": props, "additionalProperties": False}
            if required:
                entry["required"] = required
            if tp.__doc__:
                entry["description"] = " ".join(tp.__doc__.split())
            defs[name] = entry
        return {"$ref": f"#/$defs/{name}"}
    if tp is bool:
        return {"type": "boolean"}
    if tp is int:
        return {"type": "integer"}
    if tp is float:
        return {"type": "number"}
    if tp is str:
        return {"type": "string"}
    raise TypeError(f"schema cannot export type {tp!r}")


__all__ = ["convert", "describe", "fields_of", "json_schema", "schema_ref", "to_data", "type_label"]
_ = typing  # keep typing importable for forward references in models
