"""The game overview's "whole games played by the computer": from what `roadkit simulate` writes
into the check's report to the lines a player reads (settings, results in percent, averages)."""

from __future__ import annotations

import re
from pathlib import Path

from generators.content.loader import load_content
from generators.engine.base import game_content
from generators.engine.runner import engine_of
from generators.engine.simulate import POLICIES, simulate
from generators.site.plays import game_plays

ROOT = Path(__file__).resolve().parent.parent


def test_simulated_games_read_as_settings_results_and_averages() -> None:
    game = load_content(ROOT / "content", ["mission-drive"]).game("mission-drive")
    engine = engine_of(game)
    settings = simulate(game.engine or "", game_content(game, engine), games=3, jobs=1)
    plays = game_plays({"policies": POLICIES, "settings": settings})
    assert [p.name for p in plays] == sorted({s["policy"] for s in settings}, key=list(POLICIES).index)
    labels = [s.label for s in engine.simulation_setups()]
    for policy in plays:
        assert policy.says == POLICIES[policy.name]
        assert [r.setting for r in policy.rows] == [label.replace("-", " ") for label in labels]
        for row in policy.rows:
            assert row.games == 3
            assert row.results.endswith("%)") and "_" not in row.results
            # every share carries its 95 % interval, which holds the share
            for share, low, high in re.findall(r"([\d.]+) % \(([\d.]+)–([\d.]+) %\)", row.results):
                assert float(low) <= float(share) <= float(high)
            assert re.search(r"\d % \(\d", row.results)
            assert "actions" in row.figures and "_" not in row.figures


def test_no_simulations_no_section() -> None:
    assert game_plays(None) == ()
    assert game_plays({"settings": "not a list of settings"}) == ()
