"""The fuzz test in the suite: a few hundred seeded mutants of the real content through the one
validation pass (tests/fuzz.py; `make fuzz` runs 5,000). No mutant may give a traceback, every error
is one located line, a few mutants that validate go on through print, check and site pages without
crashing, and for a sample of those that do not validate, `roadkit build` leaves build/ byte-identical."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generators.cli import main as cli_main
from tests import fuzz
from tests.helpers import fingerprint

MUTANTS = 200
SEED = 20240901
BUILD_ARGS = ["build", "--no-site", "--paper", "a4", "--no-png", "-q"]


def test_mutated_content_never_gives_a_traceback(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    failing: list[tuple[fuzz.Mutant, fuzz.Sandbox]] = []
    outcome = fuzz.run(MUTANTS, SEED, tmp_path, later=2, failing=failing, keep_failing=3)
    print(outcome.summary())
    assert not outcome.failures, "\n\n".join(outcome.failures)
    # The mutants reach both sides of the pass: some validate, most are caught, and are located.
    assert outcome.valid > MUTANTS // 10 and outcome.located > MUTANTS // 3, outcome.summary()
    assert outcome.later_checked == 2

    good = tmp_path / "content"  # restored after every mutant: the unmutated copy
    out = tmp_path / "build"
    assert cli_main([*BUILD_ARGS, "--content", str(good), "--out", str(out)]) == 0
    before = fingerprint(out)
    assert len(failing) == 3, "the sample of failing mutants"
    for mutant, box in failing:
        capsys.readouterr()
        copy = tmp_path / "out-copy"
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(out, copy)
        assert cli_main([*BUILD_ARGS, "--content", str(box.root), "--out", str(copy)]) == 2, str(mutant)
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and fuzz.LINE.match(err), (str(mutant), err)
        assert fingerprint(copy) == before, f"a failing build changed build/: {mutant}"


def test_the_build_fuzz_finds_nothing(tmp_path: Path) -> None:
    """A few of `make fuzz`'s build classes (tests/fuzz_build.py): print keys under content mutants,
    hand-written site pages, builds killed, on a small disk or read-only, builds of content that must be
    refused (a running link, a folder that is no game, broken figures), link shapes that validate accepts
    building into a site, and odd argument values."""
    from tests import fuzz_build

    found = fuzz_build.Findings()
    fuzz_build.page_fuzz(60, SEED, tmp_path / "pages", found)
    fuzz_build.key_fuzz(2, SEED, tmp_path / "keys", ("vampire-chase",), found)
    fuzz_build.fault_fuzz(2, SEED, tmp_path / "faults", found)
    fuzz_build.refused_fuzz(3, SEED, tmp_path / "refused", found)
    fuzz_build.link_fuzz(40, SEED, tmp_path / "links", found)
    fuzz_build.arg_fuzz(80, SEED, tmp_path / "args", found)
    print(found.summary())
    assert not found.failures, "\n\n".join(found.failures)
    assert found.runs["site page mutants"] == 60 and found.runs["key mutants"] == 2
    assert found.runs["refused mutants"] == 3 and found.runs["link shapes"] == 40
    assert found.runs["argument mutants"] == 80 and found.runs["argument runs"] >= 5
