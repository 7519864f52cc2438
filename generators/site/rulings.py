"""Rulings: one box per question the rulebook leaves open (`notes.yaml`).

A ruling's text is Markdown in labelled parts, each starting a paragraph with its bold label:

    **The book says:** what the rulebook prints (or **The book says two things:** and both texts)
    **We play:** the reading this kit follows
    **The other reading:** how to play the other one (optional)

A ruling whose book part says two things is a `table choice`: two rule texts disagree and a table
picks one. A ruling links the examples it explains as `#example-id`; the site shows it beside them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from generators.content.model import RuleNote

BOOK, BOOK_TWO, PLAY, OTHER = "The book says", "The book says two things", "We play", "The other reading"
LABELS = (BOOK_TWO, BOOK, PLAY, OTHER)
_PART = re.compile(r"^\*\*(" + "|".join(re.escape(label) for label in LABELS) + r"):\*\*[ \t]*", re.M)
_LINK_TARGET = re.compile(r"\]\(\s*#([\w-]+)\s*\)")


@dataclass(frozen=True)
class Ruling:
    note: RuleNote
    book: str | None  # Markdown of each part, label removed
    play: str | None
    other: str | None
    two_texts: bool  # the book part quotes two rule texts that disagree: a table choice

    @property
    def id(self) -> str:
        return self.note.id

    @property
    def title(self) -> str:
        return self.note.title

    @property
    def is_question(self) -> bool:
        return self.note.title.rstrip().endswith("?")

    def links(self) -> set[str]:
        """The `#id` targets its text links (entries and examples)."""
        return set(_LINK_TARGET.findall(self.note.text))

    def other_reading_links(self) -> set[str]:
        """The `#id` targets linked from how to play the other reading (examples that play it)."""
        return set(_LINK_TARGET.findall(self.other or "")) if self.two_texts else set()


def parse(note: RuleNote) -> Ruling:
    """Split a note into its parts; text before the first label counts as what the book says."""
    parts: dict[str, str] = {}
    text = note.text.strip()
    matches = list(_PART.finditer(text))
    lead = text[: matches[0].start()].strip() if matches else text
    if lead:
        parts[BOOK] = lead
    ends = [m.start() for m in matches[1:]] + [len(text)] * bool(matches)  # none for a text of blanks
    for m, end in zip(matches, ends, strict=True):
        body = text[m.end(): end].strip()
        label = m.group(1)
        parts[BOOK if label == BOOK_TWO else label] = body
    two = any(m.group(1) == BOOK_TWO for m in matches)
    return Ruling(note, parts.get(BOOK), parts.get(PLAY), parts.get(OTHER), two)


def missing_play(rulings: list[Ruling]) -> Ruling | None:
    """The first ruling that does not say what we play (every ruling has to)."""
    return next((r for r in rulings if not r.play), None)
