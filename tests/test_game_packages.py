"""Every game package has one shape, so that learning one game's code teaches the next: the same
modules, each holding the same part of the game under the same names, and the package's `GAME` built
from those parts. A module may hold more (a package splits its rules by chapter into modules of its
own: road, boss, market, ...), never less. No module of the package (or of any other) uses a name
another module keeps private (`from .x import _y`, or `x._y` on an imported module): a name shared
across modules is public.

The list below is what each package must have; the games are found by their folders (those of
generators/games/ and the tests' own games under tests/fixtures/*/games/), never counted."""

from __future__ import annotations

import ast
import dataclasses
import importlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from generators.build_system.code_layers import PACKAGE
from generators.rules.contract import Game

FIXTURES = PACKAGE.parent / "tests" / "fixtures"
# game -> (its package's dotted name, its folder). A fixture's package is imported under its own name
# here, so that this test does not add it to generators.games for every other test of the run.
PACKAGES: dict[str, tuple[str, Path]] = {
    **{p.parent.name: (f"generators.games.{p.parent.name}", p.parent)
       for p in sorted((PACKAGE / "games").glob("*/__init__.py"))},
    **{p.parent.name: (f"fixture_{p.parent.name}", p.parent)
       for p in sorted(FIXTURES.glob("*/games/*/__init__.py"))},
}
GAMES = tuple(PACKAGES)

# module -> (what it holds, the names it defines)
SHAPE: dict[str, tuple[str, tuple[str, ...]]] = {
    "facts": ("the rulebook's numbers and the card facts each content face declares", ()),
    "specs": ("what content converts to: a scenario's setup, a whole game's options, the actions",
              ("SetupSpec", "Options")),
    "state": ("the state records", ("State",)),
    "setup": ("a whole game set up as the rulebook says, and a scenario's position checked",
              ("start", "from_setup")),
    "turns": ("the steps of play as data and who acts", ("PHASES", "MOMENTS", "actors", "phase_of")),
    "flow": ("how play moves on by itself between decisions: a turn's end, the next turn, what settles "
             "after an action", ()),
    "moves": ("every action kind as a move: its options and the rules that refuse it", ("MOVES",)),
    "resolve": ("what each action does to the state (every move's `resolve` comes from here)", ()),
    "results": ("what a scenario's `expect` is compared with, and a whole game's result", ("outcome", "result")),
    "words": ("players' words for actions, events and endings", ("WORDS", "describe_event", "describe_end")),
    "drawing": ("the state as SVG, its pieces and legend", ("DRAWING", "pieces", "legend")),
    "policy": ("hints for the players that look ahead or search (never the rules)", ("evaluate",)),
}
# Modules a package has exactly when its game gives the contract that part (the field differs from
# the contract's default): module -> (the Game field, the names the module defines).
WHERE_USED: dict[str, tuple[str, tuple[str, ...]]] = {
    "odds": ("odds", ("odds_for",)),  # exact odds tables for the site, where the game's chance allows them
    "variety": ("variety", ("variety",)),  # what varies between whole games, for the balance report
    "limits": ("limits", ("LIMITS",)),  # setups no game reaches
    "table": ("table", ("TABLE", "panel")),  # what the game adds to the shared table view
}
# Which module each part of `GAME` comes from (where the game gives that part).
PARTS: dict[str, tuple[str, str]] = {
    "start": ("setup", "start"), "from_setup": ("setup", "from_setup"),
    "actors": ("turns", "actors"), "phase_of": ("turns", "phase_of"), "phases": ("turns", "PHASES"),
    "moments": ("turns", "MOMENTS"), "moves": ("moves", "MOVES"), "result": ("results", "result"),
    "words": ("words", "WORDS"), "drawing": ("drawing", "DRAWING"),
    "odds": ("odds", "odds_for"), "variety": ("variety", "variety"), "limits": ("limits", "LIMITS"),
    "table": ("table", "TABLE"),
}


def _package(game: str) -> ModuleType:
    name, folder = PACKAGES[game]
    if name.startswith("generators.") or name in sys.modules:
        return importlib.import_module(name)
    spec = importlib.util.spec_from_file_location(name, folder / "__init__.py",
                                                  submodule_search_locations=[str(folder)])
    assert spec is not None and spec.loader is not None
    module = sys.modules[name] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _module(game: str, name: str) -> ModuleType:
    return importlib.import_module(f"{_package(game).__name__}.{name}")


def _has(game: str, name: str) -> bool:
    return (PACKAGES[game][1] / f"{name}.py").is_file()


def _given(built: Game[Any, Any], field: str) -> bool:
    """Whether the game sets `field` (it differs from the contract's default)."""
    f = next(f for f in dataclasses.fields(Game) if f.name == field)
    value = getattr(built, field)
    if f.default is not dataclasses.MISSING:
        return value is not f.default
    return bool(value != f.default_factory())  # type: ignore[misc]


def test_the_games_are_found_with_the_tests_own_game() -> None:
    assert set(PACKAGES) >= {"kerb_dash"}
    assert sum(1 for name, _ in PACKAGES.values() if name.startswith("generators.games.")) >= 1


@pytest.mark.parametrize("game", GAMES)
def test_every_game_package_has_the_shared_modules_and_names(game: str) -> None:
    missing = [m for m in SHAPE if not _has(game, m)]
    assert not missing, f"{PACKAGES[game][1]} lacks {missing} ({'; '.join(SHAPE[m][0] for m in missing)})"
    names = {**{m: n for m, (_, n) in SHAPE.items()}, **{m: n for m, (_, n) in WHERE_USED.items() if _has(game, m)}}
    lacking = [f"{m}.{n}" for m, ns in names.items() for n in ns if not hasattr(_module(game, m), n)]
    assert not lacking, f"{PACKAGES[game][1]} does not define {lacking}"
    undocumented = [m for m in names if not _module(game, m).__doc__]
    assert not undocumented, f"{PACKAGES[game][1]}: modules without a docstring: {undocumented}"


@pytest.mark.parametrize("game", GAMES)
def test_a_game_is_built_from_its_modules(game: str) -> None:
    built: Any = _package(game).GAME
    wrong = [f"GAME.{field} is not {module}.{name}" for field, (module, name) in PARTS.items()
             if _has(game, module) and getattr(built, field) is not getattr(_module(game, module), name)]
    for module, (field, _) in WHERE_USED.items():
        used = _given(built, field)
        if used != _has(game, module):
            wrong.append(f"GAME.{field} is {'set' if used else 'the default'} but {module}.py is "
                         f"{'missing' if used else 'there'}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("game", GAMES)
def test_what_every_move_does_comes_from_resolve(game: str) -> None:
    resolve = f"{_package(game).__name__}.resolve"
    elsewhere = [f"{kind}: {part} from {fn.__module__}" for kind, move in _package(game).GAME.moves.items()
                 for part, fn in (("resolve", move.resolve), ("advance", move.advance))
                 if fn is not None and fn.__module__ != resolve]
    assert not elsewhere, f"{PACKAGES[game][1]}: moves resolved outside resolve.py:\n" + "\n".join(elsewhere)


def _private_uses(path: Path) -> list[str]:
    """Where `path` uses a name another module keeps private: imported by name, or read off a module
    it imported (`from . import x` then `x._y`)."""
    tree = ast.parse(path.read_text("utf-8"))
    found, modules = [], set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            found += [f"{node.lineno}: {a.name} from {node.module or '.'}" for a in node.names
                      if a.name.startswith("_") and not a.name.startswith("__")]
            modules |= {a.asname or a.name for a in node.names}
        elif isinstance(node, ast.Import):
            modules |= {a.asname or a.name.split(".")[0] for a in node.names}
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in modules
                and node.attr.startswith("_") and not node.attr.startswith("__")
                and node.value.id not in _STANDARD):
            found.append(f"{node.lineno}: {node.value.id}.{node.attr}")
    return found


# Modules of Python's own whose underscore names are theirs to document (os._exit for a forked worker,
# argparse's subparser class for the guide), not another module of ours kept private.
_STANDARD = frozenset({"os", "argparse", "sys"})


def test_no_module_uses_another_modules_private_names() -> None:
    outside = [folder for _, folder in PACKAGES.values() if not folder.is_relative_to(PACKAGE)]
    files = [*sorted(PACKAGE.rglob("*.py")), *sorted(p for folder in outside for p in folder.glob("*.py"))]
    found = [f"{path.relative_to(PACKAGE.parent)}:{use}" for path in files for use in _private_uses(path)]
    assert not found, "a name another module uses is not private: drop its underscore\n" + "\n".join(found)


def test_the_private_names_check_sees_both_ways_of_reaching_in(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("from .harm import _hurt\nfrom . import flow\nflow._settle(1)\nimport os\nos._exit(0)\n")
    assert _private_uses(sample) == ["1: _hurt from harm", "3: flow._settle"]
