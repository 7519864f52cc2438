"""The package's layers stack one way: content → rules core → game packages → play → check → print →
site → validate and the command line, with the build system (keys, manifest, workers) beneath them
all. No import circles; the site reads the engine only through the report model; the content model,
the loader and the engines import without ReportLab or Pillow (a Play page in the browser needs
that); imports inside functions only where they keep a dependency optional, each with its reason.

The import graph here is read with Python's own parser walking every statement, independently of
`generators.code_layers` (the build keys' reader), and the two are checked to agree."""

from __future__ import annotations

import ast
import subprocess
import sys
from functools import cache
from pathlib import Path

from generators.code_layers import PACKAGE, module_names

ROOT = PACKAGE.parent
GAMES = tuple(sorted(p.parent.name for p in (PACKAGE / "engine").glob("*/__init__.py")))

# Layers from the bottom; a module belongs to the longest prefix that names it.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("build system", ("generators", "generators.errors", "generators.code_layers", "generators.outputs",
                      "generators.workers", "generators.memo", "generators.tether", "generators.phases")),
    ("content", ("generators.content",)),
    ("rules core", ("generators.engine", *(f"generators.engine.{m}" for m in (
        "chance", "contract", "facts", "records", "refusals", "svg", "wording", "stats", "report")))),
    ("game packages", tuple(f"generators.engine.{g}" for g in GAMES)),
    ("play", tuple(f"generators.engine.{m}" for m in (
        "players", "simulate", "versus", "balance", "confirm", "difficulty", "figures", "table", "console",
        "browser", "bundle", "pyodide"))),
    ("check", ("generators.engine.runner", "generators.engine.schemas")),
    ("print", ("generators.pdf",)),
    ("site", ("generators.site",)),
    ("validate, cli", ("generators.validate", "generators.cli")),
)
# What the site may import of the engine: the report model and the two plain helpers it reads
# figures and lists with (neither imports anything of the package).
REPORT_MODEL = {"generators.engine", "generators.engine.report", "generators.engine.stats",
                "generators.engine.wording"}

# Imports inside functions, each with its reason: what it keeps optional. The command line loads
# only the layers a command runs (`roadkit validate` never imports MkDocs; importing every layer up
# front costs about 0.7 s on each command against 0.02 s).
LAZY: dict[tuple[str, str], str] = {
    ("generators.engine.simulate", "distributed"): "Dask is an optional extra (`--scheduler`)",
    ("generators.outputs", "fcntl"): "POSIX only: no lock where there is none",
    ("generators.content.loader", "PIL"): "Pillow only for content with artwork: the rules load without it",
    ("generators.content.yaml_io", "yaml"): "the engines import Doc in the browser (Play pages), where content "
                                            "comes as JSON: PyYAML only where YAML is parsed",
}
LAZY_MODULES = {"generators.cli": "each command loads only the layers it runs"}
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
def imports(name: str) -> tuple[frozenset[str], frozenset[tuple[str, int]]]:
    """(every module of the package `name` may import, the names it imports inside functions with
    their lines), from the module's whole syntax tree."""
    path = modules()[name]
    here = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    lazy: set[tuple[str, int]] = set()

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
                    lazy.add((base, node.lineno))
            if in_function and isinstance(node, ast.Import):
                lazy.update((n, node.lineno) for n in names)
            found.update(n for n in names if n in modules())
        for child in ast.iter_child_nodes(node):
            visit(child, in_function or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)))

    visit(ast.parse(path.read_text("utf-8")), False)
    return frozenset(found - {name}), frozenset(lazy)


def layer(name: str) -> int:
    best = max(((len(p), i) for i, (_, prefixes) in enumerate(LAYERS) for p in prefixes
                if name == p or name.startswith(p + ".")), default=None)
    assert best is not None, f"{name} is in no layer: add it to LAYERS"
    return best[1]


def test_every_import_goes_down_the_layers() -> None:
    wrong = [f"{name} ({LAYERS[layer(name)][0]}) imports {dep} ({LAYERS[layer(dep)][0]})"
             for name in modules() for dep in imports(name)[0] if layer(dep) > layer(name)]
    assert not wrong, "\n".join(wrong)


def test_the_site_reads_the_engine_through_the_report_model_only() -> None:
    wrong = [f"{name} imports {dep}" for name in modules() if name.startswith("generators.site")
             for dep in imports(name)[0] if dep.startswith("generators.engine") and dep not in REPORT_MODEL]
    assert not wrong, "\n".join(wrong)
    for helper in REPORT_MODEL:
        assert not imports(helper)[0], f"{helper} is a leaf the site may read: it imports nothing of ours"


def test_print_imports_no_engine_and_a_game_package_no_other_game() -> None:
    wrong = [f"{name} imports {dep}" for name in modules() if name.startswith("generators.pdf")
             for dep in imports(name)[0] if dep.startswith("generators.engine")]
    for game in GAMES:
        own = f"generators.engine.{game}"
        wrong += [f"{name} imports {dep}" for name in modules() if name == own or name.startswith(own + ".")
                  for dep in imports(name)[0] for other in GAMES if other != game
                  if dep == f"generators.engine.{other}" or dep.startswith(f"generators.engine.{other}.")]
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


def test_imports_inside_functions_each_keep_something_optional() -> None:
    found = {(name, mod): line for name in modules() if name not in LAZY_MODULES
             for mod, line in imports(name)[1] if not mod.startswith("__future__")}
    top = {(name, mod.split(".")[0]) for name, mod in found}
    unexplained = [f"{modules()[name].relative_to(ROOT)}:{line}: {mod}" for (name, mod), line in sorted(found.items())
                   if (name, mod) not in LAZY and (name, mod.split(".")[0]) not in LAZY]
    assert not unexplained, "imported inside a function without a reason in LAZY:\n" + "\n".join(unexplained)
    stale = [k for k in LAZY if k not in found and k not in top]
    assert not stale, f"listed but no longer imported inside a function: {stale}"


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
from generators.engine.contract import load_engine
from generators.engine.facts import game_content
from generators.engine import players, runner, simulate, table  # noqa: F401
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
