"""A game's whole-game figures as a committed artefact: `content/<game>/figures.json`.

Figures that mean something take thousands of games, far more than a build can afford, so
`roadkit simulate --write` plays them once and stores them beside the game's content, with the version
they were computed for: a digest of what the engine reads of the content and of the engine's code. The
build never plays them again; the rules check reads the file, tells whether it is still current, and
the site shows the figures, marked as computed for an earlier version when they are not.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from generators.content.model import LoadedGame
from generators.engine.facts import GameContent

FILE = "figures.json"
ENGINE_DIR = Path(__file__).resolve().parent
# The shared modules a game's play depends on (the players and the simulator included).
SHARED = ("contract.py", "chance.py", "facts.py", "records.py", "refusals.py", "players.py", "simulate.py",
          "stats.py", "balance.py")


def _engine_files(engine: str) -> list[Path]:
    package = ENGINE_DIR / engine
    own = sorted(package.rglob("*.py")) if package.is_dir() else [ENGINE_DIR / f"{engine}.py"]
    return [*own, *(ENGINE_DIR / name for name in SHARED if (ENGINE_DIR / name).is_file())]


def version(engine: str, content: GameContent) -> str:
    """What the figures depend on: the engine's code and what it reads of the content."""
    h = hashlib.sha256()
    for path in _engine_files(engine):
        h.update(path.name.encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    h.update(repr(content).encode())
    return h.hexdigest()[:16]


def path_of(game: LoadedGame) -> Path:
    return Path(game.dir) / FILE


def read(game: LoadedGame) -> dict[str, Any] | None:
    path = path_of(game)
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def store(game: LoadedGame, part: str, data: dict[str, Any]) -> Path:
    """Put one part (`plays`, `balance`) of the game's figures, keeping the others; the file is
    written whole or not at all (a temporary file renamed into place)."""
    data = {**(read(game) or {}), part: data}
    path = path_of(game)
    tmp = path.with_name(f".{FILE}.roadkit-tmp")
    tmp.write_text(json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(tmp, path)
    return path


def for_report(game: LoadedGame, engine: str, content: GameContent) -> dict[str, Any]:
    """Each stored part with `current` saying whether it was computed for this very version."""
    data = read(game) or {}
    now = version(engine, content)
    return {part: {**value, "current": value.get("version") == now}
            for part, value in data.items() if isinstance(value, dict)}
