"""Every value a user hands `roadkit` on its command line or in a ROADKIT_* variable, bounded: a value
out of range is one line naming the option and what it takes (exit 2 on the command line, 5 in the
environment), never a traceback or a run that cannot end."""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn
from urllib.parse import urlsplit

from generators.build_system.code_layers import PACKAGE
from generators.build_system.errors import SettingError, one_line

REPO = PACKAGE.parent  # the sources a build reads: never where its outputs go

# Whole games per setting and policy: 100,000 seeds of one setting hold a few hundred MB of results at
# most and play for hours; more is a typo (`--games 10**12` would ask for terabytes).
MAX_GAMES = 100_000
MAX_SIMULATIONS = 100_000  # the search player's simulations per move (the site's figures use 100 to 400)
MAX_JOBS = 256  # processes; each is a fork of the run
MAX_SEED = 2**63 - 1
MAX_BACK_OFFSET = 10.0  # mm: a duplex printer drifts by a millimetre or two
MAX_SECONDS = 3600.0  # the search player's think time a move, CPU seconds
DASK_SCHEMES = ("tcp", "tls", "ws", "wss", "ucx", "inproc")


class Parser(argparse.ArgumentParser):
    """argparse, with a mistake reported on one line (`roadkit simulate: --games ...`) instead of the
    usage block and the message on two."""

    def error(self, message: str) -> NoReturn:
        print(one_line(f"{self.prog}: {message} (see `{self.prog} --help`)"), file=sys.stderr)
        raise SystemExit(2)


def whole(low: int, high: int, what: str = "a whole number") -> Callable[[str], int]:
    """An argparse type: a whole number from `low` to `high`."""

    def parse(text: str) -> int:
        t = text.strip()
        digits = t[1:] if t[:1] in "+-" else t
        # isdigit() also takes '²' and other digits int() refuses; and a number beyond the range cannot
        # be meant, however many digits it has (int() refuses over 4,300 of them).
        if not digits or not digits.isascii() or not digits.isdigit() or len(digits) > 30:
            raise argparse.ArgumentTypeError(f"expected {what} from {low:,} to {high:,}, got {text[:40]!r}")
        value = int(t)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"expected {what} from {low:,} to {high:,}, got {value:,}")
        return value

    return parse


GAMES = whole(1, MAX_GAMES, "games")
SIMULATIONS = whole(1, MAX_SIMULATIONS, "simulations per move")
JOBS = whole(1, MAX_JOBS, "processes")
SEED = whole(0, MAX_SEED, "a seed")


def offset(text: str) -> tuple[float, float]:
    """`X,Y` in millimetres, each finite and within the drift a printer has."""
    try:
        x, y = (_decimal(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError("expected X,Y in millimetres, like 1.5,-0.5") from None
    if not all(math.isfinite(v) and abs(v) <= MAX_BACK_OFFSET for v in (x, y)):
        raise argparse.ArgumentTypeError(f"expected X,Y in millimetres, each from -{MAX_BACK_OFFSET:g} to "
                                         f"{MAX_BACK_OFFSET:g}, like 1.5,-0.5; got {text[:40]!r}")
    return (x, y)


def _decimal(text: str) -> float:
    """A number as typed in ASCII (float() also takes '٣' and other scripts' digits, and '1_0'); nan if not one."""
    try:
        return float(text) if text.isascii() and "_" not in text else math.nan
    except ValueError:
        return math.nan


def precision(text: str) -> float:
    value = _decimal(text)
    if not 0 < value < 50:  # also refuses nan
        raise argparse.ArgumentTypeError(f"expected percentage points between 0 and 50 (e.g. 3), got {text[:40]!r}")
    return value


def think_time(text: str) -> float:
    value = _decimal(text)
    if not 0 < value <= MAX_SECONDS:  # also refuses nan
        raise argparse.ArgumentTypeError(f"expected CPU seconds, more than 0 and at most {MAX_SECONDS:g}, "
                                         f"got {text[:40]!r}")
    return value


def scheduler(text: str) -> str:
    """A Dask scheduler's address: `tcp://host:8786` (or tls, ws, wss, ucx), or `host:port`."""
    bad = argparse.ArgumentTypeError(f"expected a Dask scheduler address like tcp://host:8786, got {text[:80]!r}")
    parts = urlsplit(text if "://" in text else f"tcp://{text}")
    if parts.scheme == "inproc":
        return text
    try:
        port = parts.port
    except ValueError:
        raise bad from None
    if parts.scheme not in DASK_SCHEMES or not parts.hostname or port is None or not 0 < port < 65536 \
            or parts.path not in ("", "/") or parts.query or parts.fragment or parts.username:
        raise bad
    return text


def url(text: str) -> str:
    """A base URL the TTS images will be served from: http or https, with a host."""
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.netloc or any(c.isspace() or ord(c) < 32 for c in text):
        raise argparse.ArgumentTypeError(f"expected an http(s) URL like https://your.host/roadkit, got {text[:80]!r}")
    return text


def folder(text: str) -> Path:
    """A folder that exists (`--engines`): its packages are looked up beside generators/games/."""
    path = Path(text)
    try:
        found = bool(text.strip()) and not any(ord(c) < 32 for c in text) and path.is_dir()
    except (OSError, ValueError):  # a name too long for the file system
        found = False
    if not found:
        raise argparse.ArgumentTypeError(f"expected a folder of rules packages, got {text[:80]!r}")
    return path


def env_games(name: str, default: int) -> int:
    """A number of games from the environment variable `name` (unset or blank: `default`; 0: none)."""
    raw = os.environ.get(name, "")
    if not raw.strip():
        return default
    try:
        return whole(0, MAX_GAMES)(raw)
    except argparse.ArgumentTypeError:
        raise SettingError(f"{name} must be a whole number of games from 0 to {MAX_GAMES:,}, got "
                           f"{raw.strip()[:40]!r}") from None


def env_address(name: str, default: str) -> str:
    """`host:port` from the environment variable `name` (unset or blank: `default`)."""
    raw = os.environ.get(name, "").strip() or default
    host, _, port = raw.rpartition(":")
    if not host or not port.isascii() or not port.isdigit() or not 0 < int(port[:6]) < 65536 \
            or any(c.isspace() or c in "/@?#" for c in host):
        raise SettingError(f"{name} must be host:port (like 127.0.0.1:8000), got {raw[:80]!r}")
    return raw


def out_problem(out: Path, content: Path) -> str | None:
    """Why `out` cannot take a build's outputs: it is, holds or lies inside a folder the build reads
    (the content, the hand-written site, the code, the tests), or it is or holds the repository (a
    build there would replace site/ with generated pages and scatter outputs over the sources)."""
    where = _resolved(out)
    if where is None:
        return f"--out {out} cannot be followed (a link that leads round in a circle, or a name too long)"
    if where.exists() and not where.is_dir():
        return f"--out {out} is a file; give a folder for the outputs (default: build/)"
    sources = {"the content folder": _resolved(content), "site/ (the hand-written pages)": REPO / "site",
               "generators/ (the code)": PACKAGE, "tests/": REPO / "tests"}
    if REPO.is_relative_to(where):
        return f"--out {out} is or holds the repository; outputs go to a folder of their own (default: build/)"
    for name, folder in sources.items():
        if folder is None:  # a content folder that cannot be followed: validation names it
            continue
        if where == folder or where.is_relative_to(folder) or folder.is_relative_to(where):
            return f"--out {out} is or overlaps {name}; outputs go to a folder of their own (default: build/)"
    return None


def _resolved(path: Path) -> Path | None:
    """`path` with every link followed, or None where it cannot be (a loop of links, a name too long)."""
    try:
        return path.resolve()
    except (OSError, RuntimeError, ValueError):  # RuntimeError: a loop, before Python 3.13
        return None
