"""The one error type for content mistakes: `file:line:column: key.path: message`."""

from __future__ import annotations

import re
from collections.abc import Sequence
from enum import IntEnum

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


class Exit(IntEnum):
    """Every exit code `roadkit` ends with: each named here and explained in EXIT_CODES, the table the
    editors' guide prints (tests/test_exit_codes.py produces every one as a user would meet it)."""

    OK = 0
    EXAMPLE_FAILED = 1
    MISTAKE = 2
    CANNOT_WRITE = 3
    TOOL_FAILED = 4
    BAD_ENVIRONMENT = 5
    INTERNAL = 70
    INTERRUPTED = 130
    PIPE_CLOSED = 141  # what a shell reports for a command stopped by SIGPIPE (128 + 13)


EXIT_CODES: dict[Exit, str] = {
    Exit.OK: "success",
    Exit.EXAMPLE_FAILED: "a worked example failed (`check`, `build`)",
    Exit.MISTAKE: "a content mistake, or a mistake on the command line (every number has its range, e.g. "
                  "`--games` 1 to 100,000; `--scheduler` an address; `--out` outside the sources); one line; "
                  "nothing in `build/` was touched",
    Exit.CANNOT_WRITE: "`build/` cannot be written (read-only, disk full, no permission), whichever process meets "
                       "it (MkDocs included), or a worker process was killed from outside (out of memory); the "
                       "line names `build/` or the output, never a temporary file, and `build/` was left as it "
                       "was. Also the command's own output: a failed write to standard output says `cannot write "
                       "to standard output` (never `build/`), and a writing run stopped by it leaves `build/` as "
                       "it was (a failed write to standard error is lost, and changes neither the run nor its "
                       "exit code). `build/site` may be a mount of its own (a bind mount included: it is found by the "
                       "swap being refused, EBUSY or EXDEV): a rebuild then copies the new site into it (hard "
                       "links and renames cannot cross into it)",
    Exit.TOOL_FAILED: "MkDocs could not build the site; the previous site was kept",
    Exit.BAD_ENVIRONMENT: "a bad environment variable: `SOURCE_DATE_EPOCH` set but empty or not a whole number of "
                          "seconds, `ROADKIT_SIMULATE` not a whole number of games from 0 to 100,000, "
                          "`ROADKIT_SERVE_ADDR` not `host:port`",
    Exit.INTERNAL: "an internal error: a bug in Roadkit (the traceback is printed; please report it)",
    Exit.INTERRUPTED: "interrupted (Ctrl-C), or `roadkit play` stopped (q, or its input ended or was closed)",
    Exit.PIPE_CLOSED: "standard output was a pipe its reader closed (`roadkit play | head`): the command stops "
                      "quietly, as a shell reports SIGPIPE; a writing run leaves `build/` as it was",
}


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
    its own (Exit), and build/ left as it was."""

    exit_code = Exit.CANNOT_WRITE

    def __str__(self) -> str:
        text = one_line(super().__str__())
        # cut in the middle: a long name comes first, and the reason, last, must stay
        half = MAX_FAULT_LINE // 2
        return text if len(text) <= MAX_FAULT_LINE else text[:half - 1] + "…" + text[-half:]


class OutputError(EnvironmentFault):
    """build/ cannot be written: read-only, full, no permission, a path that is in the way."""

    exit_code = Exit.CANNOT_WRITE


class ToolError(EnvironmentFault):
    """A tool Roadkit runs (MkDocs) failed."""

    exit_code = Exit.TOOL_FAILED


class SettingError(EnvironmentFault):
    """An environment variable Roadkit or its tools read has a value they cannot use."""

    exit_code = Exit.BAD_ENVIRONMENT
