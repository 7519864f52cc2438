"""Build keys from the code an output really runs: its entry points' imports, followed through the
engine a game's outputs load (`importlib`), each file hashed by its bytes. An edit to one module
remakes exactly the outputs whose code reads it: a sample module of every layer and of every game
package is edited in turn and the keys of every output (print, PNG, Tabletop Simulator, the check's
parts and whole games, the schemas, the text-fit cache, each site project) are compared. The key
reader is checked against what Python really loads while making outputs."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest

from generators.build_system.build_graph import (
    CHECK_CODE,
    FIT_CODE,
    PACKAGE,
    PRINT_CODE,
    SCENARIO_SCHEMA_CODE,
    SITE_CODE,
    TTS_CODE,
)
from generators.build_system.code_layers import module_files, module_names
from generators.content.loader import load_content

ROOT = Path(__file__).resolve().parents[1]


@cache
def engines() -> dict[str, str]:
    """Game id -> its rules package, as the content names them."""
    return {g.id: g.engine for g in load_content(ROOT / "content").games if g.engine}


def _copy_repo(dest: Path, games: tuple[str, ...] | None = None) -> Path:
    shutil.copytree(ROOT / "generators", dest / "generators", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "site", dest / "site")
    shutil.copy(ROOT / "mkdocs.yml", dest / "mkdocs.yml")
    if games is None:
        shutil.copytree(ROOT / "content", dest / "content")
    else:
        (dest / "content").mkdir()
        shutil.copy(ROOT / "content" / "icons.yaml", dest / "content" / "icons.yaml")
        for g in games:
            shutil.copytree(ROOT / "content" / g, dest / "content" / g)
    return dest


# Lists every output's key as the build computes it, then, for each file named on the command line,
# appends a comment to it and lists them again: prints {file: [outputs whose key changed]}.
KEYS = r"""
import argparse, json, sys
from pathlib import Path
from generators.build_system import build_graph, code_layers
from generators.run import _print_targets
from generators.content.loader import load_content
from generators.check.runner import check_targets, load_all
from generators.check.schemas import schema_targets
from generators.build_system.build_graph import FIT_CODE, Manifest, code_version
from generators.site.build import project_keys

content = load_content(Path("content"))
work = load_all(content)
out = Path("build")
args = argparse.Namespace(paper="a4", back_offset=(0.0, 0.0), ink_saver=False, proxies=False, no_png=False,
                          tts=True, tts_url=None, out=out)

def keys():
    build_graph.code_version.cache_clear()
    build_graph._file_digest.cache_clear()
    targets, _ = _print_targets(args, content)
    targets += check_targets(work, out, 1) + schema_targets(content, out / "schema")
    found = {t.path.relative_to(out).as_posix(): t.key for t in targets}
    found["text-fit"] = code_version(*FIT_CODE)
    found.update({f"site/{p or 'hub'}": k for p, k in project_keys(content, Manifest.load(out)).items()})
    return found

before = keys()
changed = {"": sorted(before)}
for name in sys.argv[1:]:
    path = Path(name)
    text = path.read_bytes()
    path.write_bytes(text + (b"\n{# an edit #}\n" if name.endswith(".j2") else b"\n# an edit\n"))
    after = keys()
    path.write_bytes(text)
    changed[name] = sorted(k for k in before if after.get(k) != before[k])
print(json.dumps(changed))
"""


def _game(output: str) -> str | None:
    m = re.match(r"(?:check/games/|check/simulations/|schema/)([\w-]+?)(?:\.json|/|\.scenario\.schema\.json)", output)
    return m[1] if m else None


def _is_print(o: str) -> bool:
    return o.startswith(("print/", "png/", "tts/")) or o == "text-fit"


def _is_check(o: str) -> bool:
    return o.startswith("check/")


def _is_scenario_schema(o: str) -> bool:
    return o.endswith(".scenario.schema.json") and o != "schema/scenario.schema.json"


def _of_game(engine: str) -> Callable[[str], bool]:
    games = {g for g, e in engines().items() if e == engine}
    return lambda o: _game(o) in games and (_is_check(o) or _is_scenario_schema(o))


def _sample() -> dict[str, Callable[[str], bool]]:
    """Module edited -> which outputs must be remade (all others kept), by what the layer feeds."""
    sample: dict[str, Callable[[str], bool]] = {
        "generators/build_system/build_graph.py": lambda o: True,  # the build system: everything is made through it
        "generators/content/model.py": lambda o: True,  # the content model: everything reads it
        "generators/content/export_schema.py": lambda o: o.startswith("schema/"),
        "generators/rules/contract.py": lambda o: _is_check(o) or _is_scenario_schema(o),  # rules core
        "generators/rules/stats.py": lambda o: _is_check(o) or o.startswith("site/"),  # figures the site reads
        "generators/check/report.py": lambda o: _is_check(o) or o.startswith("site/"),  # the report model
        "generators/play/players.py": _is_check,  # play
        "generators/check/runner.py": _is_check,  # check
        "generators/check/schemas.py": _is_scenario_schema,
        "generators/games/mission_drive/specs.py": _of_game("mission_drive"),
        "generators/pdf/text.py": lambda o: _is_print(o) or o.startswith("site/"),  # the site lists the print kit
        "generators/pdf/tts.py": lambda o: o.startswith("tts/"),
        "generators/site/pages.py": lambda o: o.startswith("site/"),
        "generators/site/templates/" + sorted(p.name for p in (PACKAGE / "site" / "templates").glob("*.j2"))[0]:
            lambda o: o.startswith("site/"),
        "generators/validate.py": lambda o: False,  # no output is made by the validation pass
        "generators/cli.py": lambda o: False,
    }
    for engine in sorted(set(engines().values())):  # a module of every game package
        module = sorted(p for p in (PACKAGE / "games" / engine).glob("*.py") if p.name != "__init__.py")[0]
        sample[module.relative_to(ROOT).as_posix()] = _of_game(engine)
    return sample


def test_an_edit_remakes_exactly_the_outputs_that_run_it(tmp_path: Path) -> None:
    repo = _copy_repo(tmp_path / "repo")
    sample = _sample()
    result = subprocess.run([sys.executable, "-c", KEYS, *sample], cwd=repo, capture_output=True, text=True,
                            timeout=900, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(repo)})
    assert result.returncode == 0, result.stderr[-3000:]
    changed = json.loads(result.stdout)
    every = changed.pop("")
    assert {_game(o) for o in every} >= set(engines()), "every game's check and schema are listed"
    assert any(o.startswith("tts/") for o in every) and any(o.startswith("site/") for o in every)
    wrong = []
    for module, remade in changed.items():
        expected = sorted(o for o in every if sample[module](o))
        if remade != expected:
            wrong.append(f"{module}: remade but should not be {sorted(set(remade) - set(expected))[:5]}, "
                         f"kept but should be remade {sorted(set(expected) - set(remade))[:5]}")
    assert not wrong, "\n".join(wrong)


def test_a_specs_doc_edit_rewrites_the_scenario_schema(tmp_path: Path) -> None:
    """The bug this keying fixed: `roadkit schema` said it wrote the scenario schema and left the old file."""
    repo = _copy_repo(tmp_path / "repo", ("mission-drive",))
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(repo)}

    def schema() -> bytes:
        result = subprocess.run([sys.executable, "-m", "generators.cli", "schema", "--content", "content", "--out",
                                 "build"], cwd=repo, capture_output=True, text=True, timeout=300, env=env)
        assert result.returncode == 0, result.stderr
        return (repo / "build" / "schema" / "mission-drive.scenario.schema.json").read_bytes()

    before = schema()
    specs = repo / "generators" / "games" / "mission_drive" / "specs.py"
    text = specs.read_text("utf-8")
    old = "columns (lanes) across the road"
    assert old in text
    specs.write_text(text.replace(old, "lanes across the road"), "utf-8")
    after = schema()
    assert b"lanes across the road" in after and old.encode() not in after and before != after


# The modules Python loads while making one output of each kind, in a fresh process: every one must be
# in that output's key.
MAKE = r"""
import json, sys
from pathlib import Path
kind, game = sys.argv[1], sys.argv[2]
from generators.content.loader import load_content
content = load_content(Path("content"), [game])
g = content.games[0]
if kind == "print":
    from generators.pdf.print_targets import document_targets, png_targets
    from generators.pdf.options import Options
    next(iter(document_targets(content, g, [Options(paper="a4")], Path("build")))).make()
    next(iter(png_targets(content, g, Path("build")))).make()
elif kind == "tts":
    from generators.pdf.tts import tts_targets
    next(iter(tts_targets(content, g, Path("build")))).make()
elif kind == "fit":
    from generators.pdf.fit import check_text_fit
    check_text_fit(g, content.icons)
elif kind == "check":
    from generators.check.runner import check_targets, load_all
    for t in check_targets(load_all(content), Path("build"), 1):
        t.make()
elif kind == "schema":
    from generators.check.schemas import schema_targets
    for t in schema_targets(content, Path("build")):
        t.make()
elif kind == "site":
    from generators.site.collect import collect
    collect(content, Path("build"))
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] == "generators")))
"""

KINDS = {"print": (PRINT_CODE, False), "tts": (TTS_CODE, False), "fit": (FIT_CODE, False),
         "check": (CHECK_CODE, True), "schema": (SCENARIO_SCHEMA_CODE, True), "site": (SITE_CODE, False)}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_what_python_loads_to_make_an_output_is_in_its_key(kind: str) -> None:
    game = "vampire-chase"
    result = subprocess.run([sys.executable, "-c", MAKE, kind, game], cwd=ROOT, capture_output=True, text=True,
                            timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    loaded = set(json.loads(result.stdout.splitlines()[-1]))
    roots, per_game = KINDS[kind]
    keyed = module_names(roots, loads=(engines()[game],) if per_game else ())
    assert loaded - keyed == set(), f"{kind}: loaded but not in its key"
    assert any(m.startswith(f"generators.games.{engines()[game]}") for m in loaded) == per_game
    if per_game:  # the other games' packages are neither loaded nor keyed
        assert not [m for m in keyed for e in set(engines().values()) - {engines()[game]}
                    if m.startswith(f"generators.games.{e}")]


def test_the_print_layer_holds_print_and_content_code_only() -> None:
    files = {p.relative_to(PACKAGE).as_posix() for p in module_files(PRINT_CODE)}
    assert {"pdf/print_targets.py", "pdf/text.py", "content/model.py", "content/loader.py"} <= files
    assert any(f.startswith("pdf/fonts/") for f in files)  # data files of its packages too
    assert not any(f.startswith(("site/", "engine/")) for f in files), sorted(files)


def test_the_key_reader_follows_every_kind_of_import(tmp_path: Path) -> None:
    """Relative imports, imports inside functions, parenthesised lists, a dynamic load by an f-string
    (all candidates, or the one the output names), and nothing under `if TYPE_CHECKING:`."""
    package = tmp_path / "generators"
    (package / "a").mkdir(parents=True)
    (package / "games" / "x").mkdir(parents=True)
    (package / "games" / "y").mkdir(parents=True)
    files = {
        "__init__.py": "",
        "a/__init__.py": "",
        "a/one.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from generators import typed\n"
                    "def f():\n    from . import two\n    from ..b import (\n        three,\n    )\n",
        "a/two.py": "import importlib\ndef load(name):\n"
                    "    return importlib.import_module(f'generators.games.{name}')\n",
        "b.py": "three = 3\n",
        "typed.py": "",
        "c.py": "",
        "games/__init__.py": "",
        "games/x/__init__.py": "from generators.games.x import rules\n",
        "games/x/rules.py": "",
        "games/y/__init__.py": "",
    }
    for name, text in files.items():
        (package / name).write_text(text, "utf-8")
    shared = {"generators", "generators.a", "generators.a.one", "generators.a.two", "generators.b", "generators.games"}
    assert module_names(["generators.a.one"], package) == shared | {
        "generators.games.x", "generators.games.x.rules", "generators.games.y"}
    assert module_names(["generators.a.one"], package, loads=("y",)) == shared | {"generators.games.y"}


def test_development_tools_are_outside_the_package() -> None:
    assert not list(PACKAGE.glob("bench*.py"))
    assert (ROOT / "tools" / "bench.py").is_file()
    assert "-m tools.bench" in (ROOT / "Makefile").read_text("utf-8")
