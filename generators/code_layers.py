"""Which files of the `generators` package an output is made by: the modules it runs, found by
following their imports (direct or inside functions) within the package, with the data files of
their packages (templates, fonts). Keys built on these change when that code changes and not when
unrelated code does: a site-template edit leaves every print output as it is."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent

# `from generators.x import a, b`, `from generators.x import (a, b)`, `import generators.x`
_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+(generators[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#]+)"
                     r"|import[ \t]+(generators[\w.]*))", re.M)


def _module_file(package: Path, name: str) -> Path | None:
    parts = name.split(".")[1:]
    if not parts:
        return package / "__init__.py"
    rel = Path(*parts)
    for candidate in (package / rel.with_suffix(".py"), package / rel / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _imported(path: Path) -> set[str]:
    """The package's module names `path` imports (a name imported from a module may be a submodule)."""
    out: set[str] = set()
    for m in _IMPORT.finditer(path.read_text("utf-8")):
        if m.group(3):
            out.add(m.group(3))
            continue
        out.add(m.group(1))
        names = m.group(2).strip("()\n \t")
        out.update(f"{m.group(1)}.{n.split(' as ')[0].strip()}" for n in names.split(",") if n.strip())
    return out


def module_files(roots: Iterable[str], package: Path = PACKAGE) -> list[Path]:
    """Every file of `package` the modules `roots` (dotted names) run or read, sorted."""
    found: set[Path] = set()
    todo = list(roots)
    while todo:
        name = todo.pop()
        path = _module_file(package, name)
        if path is None or path in found:
            continue
        found.add(path)
        parts = name.split(".")
        todo += [".".join(parts[:i]) for i in range(1, len(parts))]  # importing a module runs its packages
        todo += sorted(_imported(path))
    data: set[Path] = set()
    for init in (p for p in found if p.name == "__init__.py"):
        data.update(_data_files(init.parent))
    return sorted(found | data)


def _data_files(folder: Path) -> Iterable[Path]:
    """A package's files that are not code, in it and in its folders that are not packages themselves."""
    for path in folder.iterdir():
        if path.is_file() and path.suffix not in (".py", ".pyc"):
            yield path
        elif path.is_dir() and path.name != "__pycache__" and not (path / "__init__.py").exists():
            yield from (p for p in path.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
