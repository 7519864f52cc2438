"""The one error type for content mistakes: `file:line:column: key.path: message`."""

from __future__ import annotations

from collections.abc import Sequence

KeyPath = tuple[str | int, ...]


def format_keypath(path: Sequence[str | int]) -> str:
    """Render ('decks', 'hero', 'faces', 3, 'text') as `decks.hero.faces[3].text`."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out or "(document)"


class ContentError(Exception):
    """A mistake in user-edited content; reported as one line, exit code 2."""

    def __init__(self, file: str, line: int, column: int, keypath: Sequence[str | int], message: str):
        self.file = file
        self.line = line
        self.column = column
        self.keypath = tuple(keypath)
        self.message = message
        super().__init__(str(self))

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}: {format_keypath(self.keypath)}: {self.message}"
