"""`make test` type-checks generators/ and tools/ with mypy (settings in pyproject.toml) and needs zero errors."""

from __future__ import annotations

import re
from pathlib import Path

from mypy import api

ROOT = Path(__file__).resolve().parents[1]


def test_generators_type_check_clean() -> None:
    out, err, status = api.run(["--config-file", str(ROOT / "pyproject.toml")])
    assert status == 0, out + err
    assert re.search(r"Success: no issues found in \d+ source files", out)


def test_make_test_runs_the_type_check() -> None:
    target = re.search(r"^test:.*\n((?:\t.*\n)+)", (ROOT / "Makefile").read_text("utf-8"), re.M)
    assert target and "mypy" in target.group(1)
