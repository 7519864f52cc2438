"""An example as numbered steps in words, from the rules check's report.

For every action the report carries the engine's wording (`says`), every die roll or card draw it
used in the engine's words (`draws`; `random` has the raw label and result) or why it was refused.
The site shows those words, never the action as written; as a safety net for wording still in a
developer's shape, identifiers and Python-looking lists are turned into plain words here (`play_power` -> "play power",
`['t2', 't3']` -> "t2, t3"). Before the check has run, the scenario's actions are described from
their fields in the same plain way.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

MAX_TEXT = 400  # one step's text; also bounds walking a deeply nested value
MAX_DRAW = 2000  # one roll or draw's text: a shuffle lists a whole deck
_IDENT = re.compile(r"(?<=[^\W\d_])_(?=[^\W_])")
_ARROW = re.compile(r"\s*->\s*")


@dataclass(frozen=True)
class Step:
    text: str  # what is done, in words
    draws: tuple[str, ...] = ()  # every roll or draw of the step in words ("rolls 4 for movement"), in order
    refused: str | None = None  # why the rules refuse it, for a step the example expects refused
    then: tuple[str, ...] = ()  # what the rules did on their own in the step (a speed check, an attack)


def steps(record: Mapping[str, Any] | None, actions: Sequence[Any]) -> tuple[Step, ...]:
    """One step per action: from the report's narrative where it has one, else from the action."""
    told = [n for n in (record or {}).get("narrative") or () if isinstance(n, Mapping)]
    out = []
    for i, action in enumerate(actions):
        item = told[i] if i < len(told) else {}
        out.append(_step(item, action))
    return tuple(out)


def _step(item: Mapping[str, Any], action: Any) -> Step:
    says = item.get("says")
    text = plain_words(str(says)) if says else describe(item.get("action", action))
    told = item.get("draws")
    if isinstance(told, Sequence) and not isinstance(told, str):
        draws = tuple(plain_words(str(d))[:MAX_DRAW] for d in told)
    else:  # a report from before the engines worded their draws
        draws = tuple(f"{plain_words(str(pair[0]))}: {words(pair[1])}" for pair in item.get("random") or ()
                      if isinstance(pair, Sequence) and not isinstance(pair, str) and len(pair) == 2)
    refused = item.get("refused")
    then = item.get("then")
    followed = tuple(plain_words(str(t))[:MAX_TEXT] for t in then) if isinstance(then, list) else ()
    return Step(text[:MAX_TEXT], draws, plain_words(str(refused))[:MAX_TEXT] if refused else None, followed)


def describe(action: Any) -> str:
    """An action from its fields, in plain words: `{do: use_drop, kind: fire}` -> "use drop: kind fire"."""
    if not isinstance(action, Mapping):
        return words(action)[:MAX_TEXT]
    fields = {k: v for k, v in action.items() if k not in ("expect", "refused")}
    verb_key = next((k for k in ("do", "action", "type", "kind") if k in fields), None)
    verb = words(fields.pop(verb_key)) if verb_key else ""
    rest = ", ".join(f"{words(k)} {words(v)}" for k, v in fields.items())
    return (f"{verb}: {rest}" if verb and rest else verb or rest)[:MAX_TEXT]


def words(value: Any, depth: int = 0) -> str:
    """A value as plain words: lists joined with commas, pairs of numbers as (x, y), no quotes."""
    if depth > 6:
        return "…"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, Mapping):
        return ", ".join(f"{words(k, depth + 1)} {words(v, depth + 1)}" for k, v in list(value.items())[:20])
    if isinstance(value, list | tuple):
        inner = ", ".join(words(v, depth + 1) for v in list(value)[:20])
        point = len(value) == 2 and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
        return f"({inner})" if (depth or point) and value else inner
    return _ARROW.sub(" → ", _IDENT.sub(" ", str(value)))


def plain_words(text: str) -> str:
    """Developer-shaped wording made readable: Python literals as plain lists, identifiers as words."""
    out: list[str] = []
    pos = 0
    while pos < len(text):
        start = _next_literal(text, pos)
        if start is None:
            out.append(text[pos:])
            break
        end = _closing(text, start)
        literal = _literal(text[start:end]) if end else None
        if literal is None or end is None:
            out.append(text[pos:start + 1])
            pos = start + 1
            continue
        out.append(text[pos:start])
        out.append(words(literal))
        pos = end
    s = "".join(out)
    s = re.sub(r"\b(True|False|None)\b", lambda m: {"True": "yes", "False": "no", "None": "none"}[m.group(1)], s)
    return " ".join(_ARROW.sub(" → ", _IDENT.sub(" ", s)).split())


def _next_literal(text: str, pos: int) -> int | None:
    found = [i for i in (text.find("[", pos), text.find("{", pos)) if i >= 0]
    return min(found) if found else None


def _closing(text: str, start: int) -> int | None:
    """The index after the bracket that closes the one at `start` (quotes respected), or None."""
    depth = 0
    quote: str | None = None
    for i in range(start, min(len(text), start + 2000)):
        c = text[i]
        if quote:
            if c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif c in "[{(":
            depth += 1
        elif c in "]})":
            depth -= 1
            if depth == 0:
                return i + 1
    return None


def _literal(s: str) -> Any:
    try:
        return ast.literal_eval(s)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None
