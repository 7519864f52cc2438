"""Test modules stand alone: none imports another test module (what two share lives in a helper
module: tests/helpers.py, site_helpers.py, engine_checks.py, told_changes.py) and nothing under tests/
imports tools/ (the benchmark is run as a program, `python -m tools.bench`, by tests/test_bench.py).
Importing a test module runs its collection-time work again and ties two files' fixtures together;
importing tools/ makes the test suite depend on the benchmark's internals."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.helpers import ROOT

TESTS = ROOT / "tests"
IMPORTERS = {"import_module", "__import__"}  # a module named in a string: importlib.import_module("...")


def imported(path: Path) -> list[tuple[int, str]]:
    """Every module an import statement or an importer's call in the file names (at any depth), with
    its line."""
    found = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.append((node.lineno, node.module))
            found += [(node.lineno, f"{node.module}.{alias.name}") for alias in node.names]
        elif (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)
              and isinstance(node.args[0].value, str)
              and getattr(node.func, "attr", getattr(node.func, "id", None)) in IMPORTERS):
            found.append((node.lineno, node.args[0].value))
    return found


def forbidden(module: str) -> bool:
    parts = module.split(".")
    return parts[0] == "tools" or (parts[0] == "tests" and len(parts) > 1 and parts[1].startswith("test_"))


def test_no_test_imports_a_test_module_or_tools() -> None:
    files = sorted(p for p in TESTS.rglob("*.py") if "fixtures" not in p.relative_to(TESTS).parts)
    assert len(files) > 50, "too few test files found: the scan would pass vacuously"
    bad = [f"{p.relative_to(ROOT)}:{line}: imports {module}" for p in files
           for line, module in imported(p) if forbidden(module)]
    assert not bad, ("move what is shared to a helper module under tests/ (or run the tool as a program):\n"
                     + "\n".join(bad))


def test_the_scan_catches_what_it_is_for(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("import tools.bench\nfrom tests.test_site import built\nfrom tests import test_print\n"
                      "def f():\n    from tools.bench_search import SETTINGS\n"
                      "import importlib\nimportlib.import_module('tests.test_x')\n"
                      "from tests.helpers import ROOT\nimport tests.site_helpers\n", "utf-8")
    bad = sorted({line for line, module in imported(sample) if forbidden(module)})
    assert bad == [1, 2, 3, 5, 7]
