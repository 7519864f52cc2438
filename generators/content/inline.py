"""Inline icon codes in printed text, one definition for the checks, the faces and the site.

`:name:` is an icon when `name` is a known icon (content/icons.yaml). A colon pair that does not name
one is ordinary text when it touches a letter or digit (`ratio 1:2:3`, `10:30:00`); standing alone
(`roll :sheild:`) it is a typo and a content error. `\\:` is always a literal colon: write `\\:target:`
to print ":target:" itself.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

NAME = r"[a-z0-9][a-z0-9-]*"
ESCAPE = "\\:"
# An escaped colon or an icon code, scanned left to right so an escaped colon never opens a code.
CODE = re.compile(r"\\:|:(" + NAME + r"):")


def codes(text: str) -> Iterator[re.Match[str]]:
    """Every `:name:` code in `text` (escaped colons skipped); the name is group 1."""
    for m in CODE.finditer(text):
        if m.group(1) is not None:
            yield m


def _wordlike(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def stands_alone(text: str, m: re.Match[str]) -> bool:
    """True when a code is set apart from words: meant as an icon, not part of `1:2:3`."""
    before = text[m.start() - 1] if m.start() else ""
    after = text[m.end()] if m.end() < len(text) else ""
    return not (before and _wordlike(before)) and not (after and _wordlike(after))


def unknown_icons(text: str, known: set[str] | frozenset[str]) -> Iterator[re.Match[str]]:
    """Codes that stand alone but name no icon: the typos to report."""
    for m in codes(text):
        if m.group(1) not in known and stands_alone(text, m):
            yield m
