"""Shared pytest options."""

from __future__ import annotations

import os

import pytest

# Builds in tests play no whole games for the overviews (the engine suite plays 500 per engine):
# subprocesses inherit this. Tests of the overview section set it themselves.
os.environ.setdefault("ROADKIT_SIMULATE", "0")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-golden", action="store_true",
                     help="rewrite tests/golden/ from what the engines compute now (review the diff)")
