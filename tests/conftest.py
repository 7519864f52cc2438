"""Shared pytest options."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.site_helpers import ARGS, CHROMIUM, Built, site_build, unavailable

# Builds in tests play no whole games for the overviews (the engine suite plays 500 per engine):
# subprocesses inherit this. Tests of the overview section set it themselves.
os.environ.setdefault("ROADKIT_SIMULATE", "0")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-golden", action="store_true",
                     help="rewrite tests/golden/ from what the engines compute now (review the diff)")


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    """The site built once for the whole session (tests/site_helpers.py)."""
    return site_build(tmp_path_factory.getbasetemp() / "site-build")


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Debian's Chromium driven by Playwright; skipped (or failed, in CI) where either is missing."""
    if not CHROMIUM.is_file():
        unavailable(f"{CHROMIUM} is missing: install Debian's chromium (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("the playwright Python package is not installed")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield b
        finally:
            b.close()
