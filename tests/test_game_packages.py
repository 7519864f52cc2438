"""Every game package has one shape, so that learning one game's code teaches the next: the same
modules, each holding the same part of the game under the same names, and the package's `GAME` built
from those parts. A module may hold more (a package splits its rules by chapter into modules of its
own: road, boss, market, ...), never less. No module of the package (or of any other) imports a name
another module keeps private (`from .x import _y`): a name shared across modules is public.

The list below is what each package must have; the games are found by their folders, never counted."""

from __future__ import annotations

import ast
import dataclasses
import importlib
from types import ModuleType
from typing import Any

import pytest

from generators.build_system.code_layers import PACKAGE
from generators.rules.contract import Game

GAMES = tuple(sorted(p.parent.name for p in (PACKAGE / "games").glob("*/__init__.py")))

# module -> (what it holds, the names it defines)
SHAPE: dict[str, tuple[str, tuple[str, ...]]] = {
    "facts": ("the rulebook's numbers and the card facts each content face declares", ()),
    "specs": ("what content converts to: a scenario's setup, a whole game's options, the actions",
              ("SetupSpec", "Options")),
    "state": ("the state records", ("State",)),
    "setup": ("a whole game set up as the rulebook says, and a scenario's position checked", ()),
    "turns": ("the steps of play as data and who acts", ("PHASES", "MOMENTS", "actors", "phase_of")),
    "moves": ("every action kind as a move: its options and the rule that refuses it", ("MOVES",)),
    "results": ("what a scenario's `expect` is compared with, and a whole game's result", ("outcome", "result")),
    "words": ("players' words for actions, events and endings", ("describe_event", "describe_end")),
    "drawing": ("the state as SVG, its pieces and legend", ("pieces", "legend")),
    "policy": ("hints for the players that look ahead or search (never the rules)", ("evaluate",)),
    "limits": ("setups no game reaches", ("LIMITS",)),
    "table": ("what the game adds to the shared table view", ("panel",)),
}
# Modules a package has exactly when its game gives the contract that part (the field differs from
# the contract's default): module -> the Game field.
WHERE_USED: dict[str, str] = {
    "odds": "odds",  # exact odds tables for the site, where the game's chance allows them
    "variety": "variety",  # what varies between whole games, for the balance report
}
# Which module each part of `GAME` comes from.
PARTS: dict[str, tuple[str, str]] = {
    "actors": ("turns", "actors"), "phase_of": ("turns", "phase_of"), "phases": ("turns", "PHASES"),
    "moments": ("turns", "MOMENTS"), "moves": ("moves", "MOVES"), "limits": ("limits", "LIMITS"),
    "result": ("results", "result"),
}


def _module(game: str, name: str) -> ModuleType:
    return importlib.import_module(f"generators.games.{game}.{name}")


def _has(game: str, name: str) -> bool:
    return (PACKAGE / "games" / game / f"{name}.py").is_file()


@pytest.mark.parametrize("game", GAMES)
def test_every_game_package_has_the_shared_modules_and_names(game: str) -> None:
    missing = [m for m in SHAPE if not _has(game, m)]
    assert not missing, f"generators/games/{game}/ lacks {missing} ({'; '.join(SHAPE[m][0] for m in missing)})"
    lacking = [f"{m}.{n}" for m, (_, names) in SHAPE.items() for n in names if not hasattr(_module(game, m), n)]
    assert not lacking, f"generators/games/{game}/ does not define {lacking}"
    undocumented = [m for m in (*SHAPE, *WHERE_USED) if _has(game, m) and not _module(game, m).__doc__]
    assert not undocumented, f"generators/games/{game}/: modules without a docstring: {undocumented}"


@pytest.mark.parametrize("game", GAMES)
def test_a_game_is_built_from_its_modules(game: str) -> None:
    built: Any = importlib.import_module(f"generators.games.{game}").GAME
    wrong = [f"GAME.{field} is not {module}.{name}" for field, (module, name) in PARTS.items()
             if getattr(built, field) is not getattr(_module(game, module), name)]
    default = {f.name: f.default for f in dataclasses.fields(Game)}
    for module, field in WHERE_USED.items():
        used = getattr(built, field) is not default[field]
        if used != _has(game, module):
            wrong.append(f"GAME.{field} is {'set' if used else 'the default'} but {module}.py is "
                         f"{'missing' if used else 'there'}")
    assert not wrong, "\n".join(wrong)


def test_no_module_imports_another_modules_private_names() -> None:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ImportFrom):
                found += [f"{path.relative_to(PACKAGE.parent)}:{node.lineno}: {a.name} from {node.module}"
                          for a in node.names if a.name.startswith("_") and not a.name.startswith("__")]
    assert not found, "a name another module imports is not private: drop its underscore\n" + "\n".join(found)
