"""`make bench` cannot rot: its quick mode (every step once, on one game) runs end to end from the
repository as a fresh clone has it, and prints every section. Its figures are noise: only that it
runs and reports is checked here (the figures themselves are `make bench`'s)."""

from __future__ import annotations

import subprocess
import sys

from tests.helpers import ROOT

SECTIONS = ("test suite", "print kit (`roadkit print`", "everything (`roadkit build`", "workers:", "memory:",
            "floor:", "growth:", "engines", "search strength", "pdf sizes", "sheets of paper", "page weight",
            "targets missed")


def test_the_benchmark_runs_end_to_end_in_quick_mode() -> None:
    result = subprocess.run([sys.executable, "-m", "tools.bench", "--quick"], cwd=ROOT, capture_output=True,
                            text=True, timeout=3600)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-3000:]
    missing = [s for s in SECTIONS if s not in result.stdout.lower()]
    assert not missing, f"sections missing: {missing}\n{result.stdout[-3000:]}"
    assert "Traceback" not in result.stderr
