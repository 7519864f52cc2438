"""Collection stays short: the real content is loaded at most once while the tests are collected
(test modules that read it at import or in their parameters share helpers.real_content; each load
is counted by tests/conftest.py)."""

from __future__ import annotations

import pytest


def test_the_real_content_is_loaded_once_while_collecting(pytestconfig: pytest.Config) -> None:
    loads = pytestconfig.roadkit_real_loads  # type: ignore[attr-defined]
    assert len(loads) <= 1, "loaded again while collecting; use tests.helpers.real_content():\n" + "\n".join(loads[1:])
