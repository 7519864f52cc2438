"""`roadkit simulate --scheduler`: the same games on a Dask distributed cluster (started here, on this
machine) as on local processes, with the same figures, since every game is played from its own seed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generators.cli import main as cli_main
from generators.content.loader import load_content
from generators.engine.facts import game_content
from generators.engine.runner import engine_of
from generators.engine.simulate import simulate

distributed = pytest.importorskip("distributed")

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=50) as c:
        yield c


def test_a_cluster_gives_the_figures_local_processes_give(cluster) -> None:
    game = load_content(ROOT / "content", ["mission-drive"]).game("mission-drive")
    engine = engine_of(game)
    content = game_content(game, engine)
    local = simulate(game.engine or "", content, games=24, seed=3, jobs=2, wanted=["random", "greedy"])
    with distributed.Client(cluster.scheduler_address) as client:
        remote = simulate(game.engine or "", content, games=24, seed=3, wanted=["random", "greedy"],
                          executor=client.get_executor())
        assert sum(len(w) for w in client.run(lambda: [0]).values()) == 2  # both workers were there
    assert remote == local
    assert all(s["games"] == 24 for s in local)


def test_the_command_line_runs_on_the_cluster(cluster, capsys: pytest.CaptureFixture[str]) -> None:
    status = cli_main(["simulate", "--game", "vampire-chase", "--games", "6", "--json",
                       "--scheduler", cluster.scheduler_address])
    assert status == 0
    report = json.loads(capsys.readouterr().out)
    settings = report["games"]["vampire-chase"]
    assert settings and all(s["games"] == 6 for s in settings)


def test_an_unreachable_scheduler_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    status = cli_main(["simulate", "--game", "vampire-chase", "--games", "2", "--scheduler", "tcp://127.0.0.1:9"])
    assert status == 2
    err = capsys.readouterr().err
    assert "cannot reach the Dask scheduler" in err and "Traceback" not in err


def test_balance_on_the_cluster_finds_what_local_processes_find(cluster, capsys: pytest.CaptureFixture[str]) -> None:
    """`roadkit balance --scheduler`: the same seeds, the same effects as on local processes."""
    args = ["balance", "--game", "thunder-road-ignition", "--games", "8", "--policy", "random", "--json"]
    assert cli_main([*args, "-j", "2"]) == 0
    local = json.loads(capsys.readouterr().out)
    assert cli_main([*args, "--scheduler", cluster.scheduler_address]) == 0
    remote = json.loads(capsys.readouterr().out)
    assert remote == local
    assert local["thunder-road-ignition"]["effects"], "seats vary between games: there is something to measure"
