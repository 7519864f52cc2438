"""Keys per layer: an output's key covers the code it depends on, found through the imports of the
layer's modules. A site-template edit remakes no print output; a print-code edit remakes the print kit;
development tools are not in the hashed package."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

from generators.code_layers import module_files
from generators.outputs import PACKAGE, PRINT_CODE, SITE_CODE, TTS_CODE

ROOT = Path(__file__).resolve().parents[1]
GAME = "vampire-chase"


def _rel(files: list[Path]) -> set[str]:
    return {p.relative_to(PACKAGE).as_posix() for p in files}


def test_the_print_layer_holds_print_and_content_code_only() -> None:
    files = _rel(module_files(PRINT_CODE))
    assert {"pdf/kit.py", "pdf/text.py", "content/model.py", "content/loader.py"} <= files
    assert any(f.startswith("pdf/fonts/") for f in files)  # data files of its packages too
    assert not any(f.startswith(("site/", "engine/")) for f in files), sorted(files)
    assert "pdf/tts.py" in _rel(module_files(TTS_CODE))


def test_the_site_layer_holds_its_templates() -> None:
    files = _rel(module_files(SITE_CODE))
    assert "site/build.py" in files and any(f.startswith("site/templates/") for f in files)


def test_imports_inside_functions_are_followed(tmp_path: Path) -> None:
    package = tmp_path / "generators"
    (package / "a").mkdir(parents=True)
    (package / "__init__.py").write_text("", "utf-8")
    (package / "a" / "__init__.py").write_text("", "utf-8")
    (package / "a" / "one.py").write_text("def f():\n    from generators.a import two\n", "utf-8")
    (package / "a" / "two.py").write_text("from generators.b import (\n    three,\n)\n", "utf-8")
    (package / "b.py").write_text("three = 3\n", "utf-8")
    (package / "c.py").write_text("", "utf-8")
    found = {p.relative_to(package).as_posix() for p in module_files(["generators.a.one"], package)}
    assert found == {"__init__.py", "a/__init__.py", "a/one.py", "a/two.py", "b.py"}


def test_development_tools_are_outside_the_package() -> None:
    assert not list(PACKAGE.glob("bench*.py"))
    assert (ROOT / "tools" / "bench.py").is_file()
    assert "-m tools.bench" in (ROOT / "Makefile").read_text("utf-8")


def _print(repo: Path) -> str:
    result = subprocess.run([sys.executable, "-m", "generators.cli", "print", "--game", GAME, "--paper", "a4",
                             "--no-png", "--content", "content", "--out", "build"], cwd=repo, capture_output=True,
                            text=True, timeout=900, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(repo)})
    assert result.returncode == 0, result.stderr
    m = re.search(r"print kit: (\d+) made, (\d+) up to date", result.stdout)
    assert m, result.stdout
    return f"{m[1]} made, {m[2]} up to date"


def test_a_site_template_edit_remakes_no_print_output(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    shutil.copytree(ROOT / "generators", repo / "generators", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "site", repo / "site")
    shutil.copy(ROOT / "mkdocs.yml", repo / "mkdocs.yml")
    (repo / "content").mkdir()
    shutil.copy(ROOT / "content" / "icons.yaml", repo / "content" / "icons.yaml")
    shutil.copytree(ROOT / "content" / GAME, repo / "content" / GAME)
    first = _print(repo)
    assert not first.startswith("0 made")
    total = sum(int(n) for n in re.findall(r"\d+", first))

    template = sorted((repo / "generators" / "site" / "templates").glob("*.j2"))[0]
    template.write_text(template.read_text("utf-8") + "{# a comment #}\n", "utf-8")
    assert _print(repo) == f"0 made, {total} up to date"

    kit = repo / "generators" / "pdf" / "kit.py"
    kit.write_text(kit.read_text("utf-8") + "# a comment\n", "utf-8")
    assert _print(repo) == f"{total} made, 0 up to date"  # print code: every print output is stale


def test_a_game_check_is_keyed_on_its_own_engine_only() -> None:
    """An edit to one game's rules package re-checks that game alone: no other game's check key
    covers it, and every game's covers the shared contract."""
    from generators.content.loader import load_content
    from generators.engine.runner import engine_modules

    engines = {g.engine for g in load_content(ROOT / "content").games if g.engine}
    assert len(engines) == 5
    for engine in engines:
        files = _rel(module_files(engine_modules(engine)))
        assert "engine/contract.py" in files and any(f.startswith(f"engine/{engine}/") for f in files)
        assert not [f for f in files for o in engines - {engine} if f.startswith(f"engine/{o}/")], engine
        assert not any(f.startswith(("site/", "pdf/kit")) for f in files)
