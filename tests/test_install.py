"""Installs come from constraints.txt: every dependency pinned to one exact version, the venv the tests
run in holds exactly those, and the libraries whose internals we rely on carry an upper bound."""

from __future__ import annotations

import re
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]


def _pins() -> dict[str, str]:
    pins: dict[str, str] = {}
    for raw in (ROOT / "constraints.txt").read_text("utf-8").splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        m = re.fullmatch(r"([A-Za-z0-9_.\-]+)==([^\s;]+)", line)
        assert m, f"constraints.txt: {raw!r} is not name==version"
        pins[canonicalize_name(m.group(1))] = m.group(2)
    return pins


def _requirements() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    reqs = [Requirement(r) for r in project["dependencies"]]
    for extra in project["optional-dependencies"].values():
        reqs += [Requirement(r) for r in extra]
    return reqs


def test_every_dependency_is_pinned_within_its_bounds() -> None:
    pins = _pins()
    assert "roadkit" not in pins  # the project itself is installed from the work tree
    for req in _requirements():
        name = canonicalize_name(req.name)
        assert name in pins, f"{req.name} has no exact version in constraints.txt (run `make lock`)"
        assert req.specifier.contains(Version(pins[name]), prereleases=True), \
            f"constraints.txt pins {req.name}=={pins[name]}, outside pyproject's {req.specifier}"


def test_the_venv_holds_the_pinned_versions() -> None:
    for name, version in _pins().items():
        try:
            installed = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue  # a pin for an extra this venv did not install
        assert canonicalize_name(name) and Version(installed) == Version(version), \
            f"{name} {installed} is installed but constraints.txt pins {version}: run `make test` to reinstall"


def test_material_has_an_upper_bound() -> None:
    # The search script talks to Material's search worker through its internal messages.
    material = next(r for r in _requirements() if canonicalize_name(r.name) == "mkdocs-material")
    assert any(s.operator in ("<", "<=", "~=", "==") for s in material.specifier)


def test_make_installs_from_the_constraints() -> None:
    makefile = (ROOT / "Makefile").read_text("utf-8")
    installs = [line for line in makefile.splitlines() if "pip install" in line and "-e '.[test" in line]
    stamp = [line for line in installs if "LOCKVENV" not in line]
    assert stamp and all("-c constraints.txt" in line for line in stamp)
    assert re.search(r"^\$\(STAMP\):.*constraints\.txt", makefile, re.M)  # a new lock reinstalls
    assert re.search(r"^lock:", makefile, re.M)
    assert "make test" in (ROOT / ".ci" / "run").read_text("utf-8")  # CI goes through the same target
