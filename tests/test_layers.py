"""The package's layers are its folders, and they stack one way: the build system (`build_system/`) →
content → rules core (`rules/`) → game packages (`games/`) → play → check → print (`pdf/`) → site →
the validation pass and the command line (the modules at the package's top). A module's layer is the
folder it sits in, so a new module is placed by where it is saved, and a new folder must be given its
place here. No import circles; the site reads the engine only through the report model; the content
model, the loader and the engines import without ReportLab or Pillow (a Play page in the browser
needs that); imports inside functions only where they keep a dependency optional, each with its
reason.

The import graph here is read with Python's own parser walking every statement, independently of
`generators.build_system.code_layers` (the build keys' reader), and the two are checked to agree."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

from generators.build_system.code_layers import PACKAGE, module_names

ROOT = PACKAGE.parent
GAMES = tuple(sorted(p.parent.name for p in (PACKAGE / "games").glob("*/__init__.py")))

# The layers from the bottom, each a folder of the package; "" is the package's top, where the
# validation pass and the command line sit (the package's own `__init__` imports nothing).
LAYERS: tuple[tuple[str, str], ...] = (
    ("build system", "build_system"),
    ("content", "content"),
    ("rules core", "rules"),
    ("game packages", "games"),
    ("play", "play"),
    ("check", "check"),
    ("print", "pdf"),
    ("site", "site"),
    ("validate, cli", ""),
)
ENGINE = ("rules", "games", "play", "check")  # the folders of the rules engine
# What the site may import of the engine: the report model and the two plain helpers it reads
# figures and lists with (none imports anything of the package).
REPORT_MODEL = {"generators.check", "generators.check.report", "generators.rules", "generators.rules.stats",
                "generators.rules.wording"}

# An import inside a function says on its line what it keeps out of the runs that do not need it
# (`# lazy: Dask is an optional extra`): the folders stack one way, so no import needs to hide a
# back-edge. `grep -rn "# lazy:" generators` lists them all.
LAZY_REASON = re.compile(r"#\s*lazy:\s*\S+(\s+\S+){2,}")  # "# lazy:" and a reason of three words or more
KNOWN_CIRCLES: list[set[str]] = []


@cache
def modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def _type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


@cache
def imports(name: str) -> tuple[frozenset[str], frozenset[tuple[str, int, int]]]:
    """(every module of the package `name` may import, the names it imports inside functions with
    their lines), from the module's whole syntax tree."""
    path = modules()[name]
    here = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    lazy: set[tuple[str, int, int]] = set()

    def visit(node: ast.AST, in_function: bool) -> None:
        if _type_checking(node):
            return
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                base = node.module or ""
                if node.level:
                    anchor = here.split(".")[:len(here.split(".")) - node.level + 1]
                    base = ".".join([*anchor, base] if base else anchor)
                names = [base, *(f"{base}.{a.name}" for a in node.names)]
                if in_function:
                    lazy.add((base, node.lineno, node.end_lineno or node.lineno))
            if in_function and isinstance(node, ast.Import):
                lazy.update((n, node.lineno, node.end_lineno or node.lineno) for n in names)
            found.update(n for n in names if n in modules())
        for child in ast.iter_child_nodes(node):
            visit(child, in_function or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)))

    visit(ast.parse(path.read_text("utf-8")), False)
    return frozenset(found - {name}), frozenset(lazy)


def folder(name: str) -> str:
    """The folder of the package a module sits in: `generators.games.dronovody.moves` -> "games"; ""
    for a module at the package's top (`generators.cli`)."""
    parts = name.split(".")
    return parts[1] if len(parts) > 1 and (PACKAGE / parts[1]).is_dir() else ""


def layer(name: str) -> int:
    if name == "generators":
        return 0  # the package itself: importing any module runs it, so it sits beneath them all
    found = [i for i, (_, f) in enumerate(LAYERS) if f == folder(name)]
    assert found, f"{name} is in a folder that is no layer: give generators/{folder(name)}/ its place in LAYERS"
    return found[0]


def test_every_folder_is_a_layer_and_the_package_top_imports_nothing() -> None:
    folders = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()}
    assert folders == {f for _, f in LAYERS if f}, "every package folder is one layer, named in LAYERS"
    assert not imports("generators")[0]


def test_every_import_goes_down_the_layers() -> None:
    wrong = [f"{name} ({LAYERS[layer(name)][0]}) imports {dep} ({LAYERS[layer(dep)][0]})"
             for name in modules() for dep in imports(name)[0] if layer(dep) > layer(name)]
    assert not wrong, "\n".join(wrong)


def test_the_site_reads_the_engine_through_the_report_model_only() -> None:
    wrong = [f"{name} imports {dep}" for name in modules() if name.startswith("generators.site")
             for dep in imports(name)[0] if folder(dep) in ENGINE and dep not in REPORT_MODEL]
    assert not wrong, "\n".join(wrong)
    for helper in REPORT_MODEL:
        assert not imports(helper)[0], f"{helper} is a leaf the site may read: it imports nothing of ours"


def test_print_imports_no_engine_and_a_game_package_no_other_game() -> None:
    wrong = [f"{name} imports {dep}" for name in modules() if folder(name) == "pdf"
             for dep in imports(name)[0] if folder(dep) in ENGINE]
    for game in GAMES:
        own = f"generators.games.{game}"
        wrong += [f"{name} imports {dep}" for name in modules() if name == own or name.startswith(own + ".")
                  for dep in imports(name)[0] for other in GAMES if other != game
                  if dep == f"generators.games.{other}" or dep.startswith(f"generators.games.{other}.")]
    assert not wrong, "\n".join(wrong)


def _circles() -> list[set[str]]:
    """Strongly connected groups of more than one module (Tarjan), imports inside functions included."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[set[str]] = []
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in imports(v)[0]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(group)

    for v in sorted(modules()):
        if v not in index:
            visit(v)
    return out


def test_no_import_circles() -> None:
    assert [c for c in _circles() if c not in KNOWN_CIRCLES] == []
    assert all(c in _circles() for c in KNOWN_CIRCLES), "a known circle is gone: take it off the list"


def test_imports_inside_functions_each_say_what_they_keep_optional() -> None:
    unexplained = []
    for name, path in modules().items():
        lines = path.read_text("utf-8").splitlines()
        for mod, first, last in sorted(imports(name)[1]):
            if not mod.startswith("__future__") and not any(LAZY_REASON.search(s) for s in lines[first - 1:last]):
                unexplained.append(f"{path.relative_to(ROOT)}:{first}: {mod}")
    assert not unexplained, ("imported inside a function without `# lazy: <what it keeps optional>` on its line "
                             "(or move it to the top of the module):\n" + "\n".join(unexplained))


def test_the_key_reader_sees_every_import() -> None:
    """`code_layers` (which keys outputs) finds, for every module, what the whole syntax tree holds."""
    for name in modules():
        deps = module_names([name]) - {name}
        direct = set(imports(name)[0])
        assert direct <= deps, f"{name}: the key reader misses {sorted(direct - deps)}"


BLOCK = """
import importlib.abc, sys
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("reportlab", "PIL", "pypdfium2", "mkdocs", "jinja2"):
            raise ImportError(f"{name} is blocked")
sys.meta_path.insert(0, Block())
"""


def test_the_rules_load_and_play_without_reportlab_or_pillow() -> None:
    """The content model and loader, every engine, the players and the check runner import (and a
    game's content loads and plays a few moves) with ReportLab, Pillow, MkDocs and Jinja blocked."""
    script = BLOCK + f"""
import random
from pathlib import Path
from generators.content.loader import load_content
from generators.rules.contract import load_engine
from generators.rules.facts import game_content
from generators.check import runner  # noqa: F401
from generators.play import players, simulate, table  # noqa: F401
content = load_content(Path({str(ROOT / "content")!r}))
played = 0
for game in content.games:
    if not game.engine:
        continue
    engine = load_engine(game.engine)
    facts = game_content(game, engine)
    setting = engine.simulation_setups()[0]
    line = simulate.play(engine, facts, setting.options, 1, "random")
    played += 1
print(played, sorted(m for m in sys.modules if m.split(".")[0] in ("reportlab", "PIL")))
"""
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    played, blocked = result.stdout.split(maxsplit=1)
    assert int(played) == len(GAMES) and blocked.strip() == "[]", result.stdout


def test_a_no_op_run_loads_neither_rules_nor_players_nor_checks(tmp_path: Path) -> None:
    """An unchanged `roadkit print` answers "up to date" from the build's keys alone: importing the
    rules, the players or the checks (0.1 s, half its time) only to say so is a regression."""
    from tests.helpers import copy_content

    content = copy_content(tmp_path, ("vampire-chase",))
    args = ["print", "--content", str(content), "--out", str(tmp_path / "build"), "--paper", "a4", "--no-png"]
    script = f"""
import sys
from generators.cli import main
code = main({args!r})
print(code, sorted({{".".join(m.split(".")[:2]) for m in sys.modules if m.startswith("generators.")}}))
"""

    def loaded() -> tuple[str, str]:
        result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=600)
        assert result.returncode == 0, result.stderr[-3000:]
        return result.stdout, result.stdout.splitlines()[-1]

    said, first = loaded()
    assert first.startswith("0 ") and "'generators.rules'" in first, said[-500:]  # the probe sees a real run's
    said, again = loaded()
    assert again.startswith("0 ") and "up to date (nothing changed" in said, said[-500:]
    heavy = [m for m in ("generators.rules", "generators.play", "generators.check", "generators.games",
                         "generators.pdf") if f"'{m}'" in again]
    assert not heavy, f"a no-op run loaded {heavy}: {again}"
