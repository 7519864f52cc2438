"""The one error type for content mistakes: `file:line:column: key.path: message`."""

from __future__ import annotations

import re
from collections.abc import Sequence

KeyPath = tuple[str | int, ...]
# Line breaks and other control characters (from a file name, a quoted value, a library's message)
# would split a report over lines or hide part of it: each is shown as an escape instead.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def one_line(text: str) -> str:
    return _CONTROL.sub(lambda m: " " if m.group() in "\n\t" else f"\\x{ord(m.group()):02x}"
                        if ord(m.group()) < 0x100 else f"\\u{ord(m.group()):04x}", text)


def format_keypath(path: Sequence[str | int]) -> str:
    """Render ('decks', 'hero', 'faces', 3, 'text') as `decks.hero.faces[3].text`."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out or "(document)"


class CheckUsageError(Exception):
    """A command-line mistake (unknown game, a path outside any game): exit code 2."""


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
        return one_line(f"{self.file}:{self.line}:{self.column}: {format_keypath(self.keypath)}: {self.message}")

    def __reduce__(self) -> tuple[type[ContentError], tuple[str, int, int, tuple[str | int, ...], str]]:
        # Pickled whole (a site worker hands it to the process that reports it).
        return type(self), (self.file, self.line, self.column, self.keypath, self.message)


# A fault's line names what failed and why; a library's message can be far longer (a list of every
# file a copy failed on), and the rest of it helps no one at a terminal.
MAX_FAULT_LINE = 400


class EnvironmentFault(Exception):
    """Not a content mistake: the machine got in the way. One short line on stderr, an exit code of
    its own (documented in the README), and build/ left as it was."""

    exit_code = 3

    def __str__(self) -> str:
        text = one_line(super().__str__())
        return text if len(text) <= MAX_FAULT_LINE else text[:MAX_FAULT_LINE - 1] + "…"


class OutputError(EnvironmentFault):
    """build/ cannot be written: read-only, full, no permission, a path that is in the way."""

    exit_code = 3


class ToolError(EnvironmentFault):
    """A tool Roadkit runs (MkDocs) failed."""

    exit_code = 4


class SettingError(EnvironmentFault):
    """An environment variable Roadkit or its tools read has a value they cannot use."""

    exit_code = 5
