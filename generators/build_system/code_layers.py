"""Which files of the `generators` package an output is made by: the modules its entry points run,
followed through their imports (at the top of a module or inside functions, relative ones included)
and through dynamic loads (`importlib`'s import of `f"generators.games.{name}"`), with the data
files of their packages (templates, fonts). Imports are read from each module's syntax tree, not from
text patterns, so every import Python can run is seen; those under `if TYPE_CHECKING:` never run and
are left out. Keys built on these files' bytes change when that code changes and not when unrelated
code does: a site-template edit leaves every print output as it is, one game's rules package keys
that game's outputs only.

A dynamic load whose name is built at run time stands for every module its name could be (the
constant start of the name), unless the output says which values the name's run-time part takes
(`loads`): the check of one game loads that game's package (`generators.games.{engine}`) and no other."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent  # generators/, this module being in generators/build_system/


GAMES = "games"  # the folder of the rules packages, one per game
# More folders of rules packages (`roadkit --engines DIR`): a package there is the module
# generators.games.<name>, read and keyed as if it sat in generators/games/ (the tests' own game).
GAMES_FOLDERS: list[Path] = []


def add_games_folder(folder: Path) -> None:
    resolved = folder.resolve()
    if resolved not in GAMES_FOLDERS:
        GAMES_FOLDERS.append(resolved)
        _modules.cache_clear()


@cache
def _modules(package: Path) -> dict[str, Path]:
    """Every module of `package` by its dotted name (a package by its own name, file `__init__.py`),
    with, for this package, the rules packages of GAMES_FOLDERS under generators.games."""
    out: dict[str, Path] = {}
    roots: list[tuple[Path, tuple[str, ...]]] = [(package, (package.name,))]
    if package == PACKAGE:
        roots += [(folder, (package.name, GAMES)) for folder in GAMES_FOLDERS]
    for root, prefix in roots:
        for path in sorted(root.rglob("*.py")):
            if "__pycache__" in path.parts:
                continue
            parts = path.relative_to(root).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            if parts or root == package:
                out.setdefault(".".join((*prefix, *parts)), path)
    return out


def module_path(name: str) -> Path:
    """The file of module `name` (dotted) of the package, GAMES_FOLDERS' packages included."""
    return _modules(PACKAGE)[name]


def label(path: Path) -> str:
    """A file's name in keys and bundles: its path inside the package (`games/<name>/...` for a file
    of GAMES_FOLDERS), the same on every machine."""
    if path.is_relative_to(PACKAGE):
        return path.relative_to(PACKAGE).as_posix()
    for folder in GAMES_FOLDERS:
        if path.is_relative_to(folder):
            return f"{GAMES}/{path.relative_to(folder).as_posix()}"
    raise ValueError(f"{path} is outside the package and its games folders")


# Where a statement that may import starts: `import x`, `from x import y`, `if TYPE_CHECKING:`, or a
# call of `import_module(`. Each is then read by Python's own parser (a whole file's syntax tree
# costs ten times as much); a line that only looks like one (in a docstring) does not parse.
_START = re.compile(r"^([ \t]*)(?:(?:from[ \t]+[\w.]+[ \t]+import|import)[ \t(\\]"
                    r"|if[ \t]+(?:typing\.)?TYPE_CHECKING[ \t]*:)|import_module\(", re.M)


def _statement(text: str, start: int) -> str:
    """The text of the statement (or call) that begins at `start`: up to the end of its line where
    its brackets close and no backslash continues it."""
    depth = 0
    i = start
    while i < len(text):
        c = text[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth < 0 or (depth == 0 and text.startswith("import_module(", start)):
                return text[start:i + 1]
        elif c == "\n" and depth <= 0 and text[i - 1] != "\\":
            break
        i += 1
    return text[start:i]


def _block_end(text: str, start: int, indent: int) -> int:
    """Where the block whose header ends at `start` ends: the first line of code indented no deeper
    than its header (`indent`)."""
    for line in re.finditer(r"^([ \t]*)([^ \t\n#].*)?$", text[start:], re.M):
        if line.start() and line.group(2) and len(line.group(1).expandtabs()) <= indent:
            return start + line.start()
    return len(text)


def _dynamic_prefix(call: ast.Call) -> str | None:
    """The module name a call of importlib's module import loads, or the constant start of a name
    built at run time (an f-string, ending in `*`); None for a name from elsewhere."""
    if not call.args:
        return None
    arg = call.args[0]
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return arg.value
    if isinstance(arg, ast.JoinedStr):
        prefix = ""
        for part in arg.values:
            if not (isinstance(part, ast.Constant) and isinstance(part.value, str)):
                break
            prefix += part.value
        return prefix + "*"
    return None  # a name from elsewhere (MkDocs' plugins): not a module of ours


def _imports(path: Path, name: str, is_package: bool) -> tuple[frozenset[str], frozenset[str]]:
    return _read_imports(path.read_text("utf-8"), name, is_package)


@cache  # by the module's text: an edited module is read again
def _read_imports(text: str, name: str, is_package: bool) -> tuple[frozenset[str], frozenset[str]]:
    """The dotted names module `name` imports (at the top or inside functions; relative ones resolved),
    and the prefixes (ending in `*`) of the names it loads dynamically. A name imported from a module
    may be a submodule: both are listed. Imports under `if TYPE_CHECKING:` never run: left out."""
    here = name if is_package else name.rpartition(".")[0]
    names: set[str] = set()
    dynamic: set[str] = set()
    skipped_to = -1  # the end of an `if TYPE_CHECKING:` block
    for m in _START.finditer(text):
        if m.start() < skipped_to:
            continue
        stmt = _statement(text, m.start() if m.group(1) is None else m.end(1))
        if stmt.startswith("if"):
            skipped_to = _block_end(text, m.end(), len(m.group(1).expandtabs()))
            continue
        try:
            tree = ast.parse(stmt.strip(), name) if m.group(1) is not None else ast.parse(stmt, name, "eval")
            node = tree.body[0] if isinstance(tree, ast.Module) else tree.body
        except (SyntaxError, IndexError):
            continue  # prose that looks like an import
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = here.split(".")
                anchor = anchor[:len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            names.add(base)
            names.update(f"{base}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Call) and (target := _dynamic_prefix(node)) is not None:
            (dynamic if target.endswith("*") else names).add(target)
    return frozenset(names), frozenset(dynamic)


def module_names(roots: Iterable[str], package: Path = PACKAGE, loads: Iterable[str] = ()) -> set[str]:
    """The dotted names of every module of `package` that importing `roots` and running their code may
    load: their imports, their packages, and what their dynamic loads can reach (only the names a value
    of `loads` completes, where one does)."""
    modules = _modules(package)
    chosen = tuple(loads)
    found: set[str] = set()
    todo = list(roots)
    while todo:
        name = todo.pop()
        if name in found or name not in modules:
            continue
        found.add(name)
        parts = name.split(".")
        todo += [".".join(parts[:i]) for i in range(1, len(parts))]  # importing a module runs its packages
        path = modules[name]
        static, dynamic = _imports(path, name, path.name == "__init__.py")
        todo += sorted(static)
        for prefix in sorted(dynamic):
            start = prefix[:-1]
            fits = [start + value for value in chosen if start + value in modules]
            todo += fits or sorted(m for m in modules if m.startswith(start) and m != start.rstrip("."))
    return found


def module_files(roots: Iterable[str], package: Path = PACKAGE, loads: Iterable[str] = ()) -> list[Path]:
    """Every file of `package` the modules `roots` (dotted names) run or read, sorted (see `module_names`)."""
    modules = _modules(package)
    found = {modules[n] for n in module_names(roots, package, loads)}
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
