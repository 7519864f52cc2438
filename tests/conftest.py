"""Shared pytest options, the fixtures several test modules use, the `slow` tier, and the record of
how long a whole run took (`make bench` reports it)."""

from __future__ import annotations

import datetime
import json
import os
import time
import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import CONTENT, run_cli
from tests.site_helpers import ARGS, CHROMIUM, Built, serve, site_build, unavailable

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


@pytest.fixture(scope="session")
def print_kit(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`roadkit print --no-png --tts` of every game, made once for the session and only read: both
    papers' PDFs (print/) and the Tabletop Simulator export (tts/)."""
    out = tmp_path_factory.getbasetemp() / "print-kit"
    result = run_cli("print", "--out", out, "-q", "--no-png", "--tts")
    assert result.returncode == 0, result.stderr
    return out


@pytest.fixture(scope="module")
def server(built: Built) -> Iterator[str]:
    """The built site served on 127.0.0.1 (a free port) by the standard library."""
    httpd, url = serve(built.site)
    try:
        yield url
    finally:
        httpd.shutdown()
        httpd.server_close()


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


# --- collection stays short ------------------------------------------------------------------------

# Loading the real content costs about a third of a second; test modules that read it while being
# collected share one load (helpers.real_content). Counted on the config (`roadkit_real_loads`: where
# each load came from), held by tests/test_collection.py.
def pytest_configure(config: pytest.Config) -> None:
    from generators.content import loader

    real = loader.load_content
    loads: list[str] = []
    config.roadkit_real_loads = loads  # type: ignore[attr-defined]
    collecting = [True]

    def counted(root: Path, *args: Any, **kwargs: Any) -> Any:
        if collecting[0] and Path(root).resolve() == CONTENT.resolve():
            loads.append("".join(traceback.format_stack(limit=4)[:-1]))
        return real(root, *args, **kwargs)

    loader.load_content = counted
    config.roadkit_collecting = collecting  # type: ignore[attr-defined]


def pytest_collection_finish(session: pytest.Session) -> None:
    session.config.roadkit_collecting[0] = False  # type: ignore[attr-defined]


# --- the slow tier -------------------------------------------------------------------------------

# `make check` runs the tests that answer in minutes (`pytest -m "not slow"`); `make test` (and CI)
# runs these too: whole games and searches, whole builds of every game, the browser. Listed here, by
# file or test, with why: a name that no longer matches a collected test fails the run.
SLOW: dict[str, str] = {
    "tests/test_search_player.py": "search games against the other players, and the stored runs replayed",
    "tests/test_engine_contract.py::test_random_playthroughs_keep_every_invariant": "500 whole games per engine",
    "tests/test_engine_contract.py::test_a_whole_game_leaves_no_reference_cycles": "a whole game per player, traced",
    "tests/test_engine_contract.py::test_the_cycle_check_catches_a_cycle": "a whole game per engine, traced",
    "tests/test_engine_contract.py::test_a_seed_replays_the_same_game": "60 whole games per engine",
    "tests/test_engine_contract.py::test_greedy_policy_plays_whole_games": "whole games by the look-ahead",
    "tests/test_engine_mission_drive.py::test_random_play_from_later_stages_keeps_the_contract":
        "random games to the end from each later stage, every state checked",
    "tests/test_engine_escape_deathrace.py::test_greedy_play_escapes_more_often_than_random_play": "24 whole games",
    "tests/test_play_terminal.py::test_a_whole_game_is_played_in_the_terminal": "a whole game per engine, typed",
    "tests/test_exit_codes.py::test_130_ctrl_c_stops_the_workers_and_leaves_build_whole": "every game's whole build",
    "tests/test_safe_links.py::test_validate_and_the_build_agree_on_every_shape_of_link": "a game's whole site built",
    "tests/test_figures_version.py::test_a_small_change_to_the_search_changes_the_head_to_head_version":
        "the reference games played by the search, once per change",
    "tests/test_figures_version.py::test_a_changed_search_makes_head_to_head_figures_stale_and_leaves_the_rest":
        "the reference games played by the search",
    "tests/test_growth.py::test_the_built_site_grows_linearly_with_chapters": "whole sites built, growing",
    "tests/test_play_links.py::test_a_game_going_on_has_no_link_to_read_its_shuffles_from":
        "a whole game per engine through the Play page's calls",
    "tests/test_play_links.py::test_a_link_replays_the_same_game_and_is_short": "a whole game per engine, replayed",
    "tests/test_play_links.py::test_a_bad_or_changed_link_says_why_and_starts_a_new_game": "a whole game per engine",
    "tests/test_balance.py": "whole games for every seat and variant",
    "tests/test_difficulty_order.py": "whole games per setting",
    "tests/test_simulate_setting.py": "whole games per setting",
    "tests/test_simulate_cluster.py": "whole games on a local Dask cluster",
    "tests/test_versus.py": "head-to-head whole games",
    "tests/test_fuzz.py": "hundreds of content mutants, builds killed and starved",
    "tests/test_site.py": "the whole site of every game, with its print kit and check",
    "tests/test_site_browser.py": "Chromium over the whole site",
    "tests/test_play_browser.py": "Chromium plays a whole game of every game on its Play page",
    "tests/test_drawing_labels.py::test_no_piece_hides_a_label": "every game's drawing of some 200 positions",
    "tests/test_site_zensical.py": "the whole site built again by Zensical, and Chromium",
    "tests/test_site_projects.py": "the whole site's projects",
    "tests/test_print.py": "the whole print kit of every game on both papers, twice (byte for byte)",
    "tests/test_build_graph.py": "whole `roadkit build` runs in copies of the repository, step after step",
    "tests/test_concurrency.py": "builds run side by side",
    "tests/test_faults.py": "builds that fail, killed and resumed",
    "tests/test_read_only.py": "builds into read-only folders",
    "tests/test_workers.py": "builds whose workers are killed",
    "tests/test_bench.py": "the benchmark's quick mode: every step once",
}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    matched: set[str] = set()
    files = {item.nodeid.split("::")[0] for item in items}
    for item in items:
        for name in SLOW:
            if item.nodeid == name or item.nodeid.startswith(name + "::") or item.nodeid.startswith(name + "["):
                item.add_marker(pytest.mark.slow)
                matched.add(name)
    stale = [name for name in SLOW if name.split("::")[0] in files and name not in matched and "::" in name]
    if stale:
        raise pytest.UsageError(f"tests/conftest.py SLOW names tests that do not exist: {stale}")


# --- how long a whole run takes ----------------------------------------------------------------------

# `make test` and `make check` name their run (ROADKIT_TEST_RUN); its wall time, test count and outcome
# go to build/test-times.json, which `make bench` shows. Runs of a few files record nothing.
TEST_TIMES = Path(__file__).resolve().parent.parent / "build" / "test-times.json"
_STARTED = time.perf_counter()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    run = os.environ.get("ROADKIT_TEST_RUN")
    if not run or os.environ.get("PYTEST_XDIST_WORKER"):
        return
    try:
        runs = json.loads(TEST_TIMES.read_text("utf-8"))
    except (OSError, ValueError):
        runs = {}
    runs[run] = {"seconds": round(time.perf_counter() - _STARTED, 1), "tests": session.testscollected,
                 "outcome": "passed" if exitstatus == 0 else f"failed (exit {int(exitstatus)})",
                 "finished": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
                 "load": round(os.getloadavg()[0], 1)}
    try:
        TEST_TIMES.parent.mkdir(exist_ok=True)
        TEST_TIMES.write_text(json.dumps(runs, indent=1, sort_keys=True) + "\n", "utf-8")
    except OSError:
        pass  # a read-only checkout: nothing to report
