"""`roadkit simulate --scheduler`: the same games on a Dask distributed cluster (started here, on this
machine) as on local processes, with the same figures, since every game is played from its own seed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generators.check.runner import engine_of
from generators.cli import main as cli_main
from generators.content.loader import load_content
from generators.play.simulate import simulate
from generators.rules.facts import game_content

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


def test_a_worker_running_other_code_is_refused_and_nothing_is_written(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """A worker whose games' code differs from the client's would give other figures from the same seeds,
    and `--write` would store them under the client's version: it refuses the batch, the client says why
    and writes nothing."""
    import shutil

    content = tmp_path / "content"
    content.mkdir()
    shutil.copy(ROOT / "content" / "icons.yaml", content)
    shutil.copytree(ROOT / "content" / "vampire-chase", content / "vampire-chase")
    before = (content / "vampire-chase" / "figures.json").read_bytes()
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=50) as other, distributed.Client(other.scheduler_address) as client:
        # the worker's checkout differs: its stamp is not the client's
        client.run(lambda: setattr(__import__("generators.play.stamp", fromlist=["x"]), "code_stamp",
                                   lambda: "0" * 16))
        for args in (["simulate", "--games", "2", "--write"], ["balance", "--games", "2", "--write"],
                     ["simulate", "--games", "1", "--against", "random", "--policy", "greedy"]):
            status = cli_main([*args, "--game", "vampire-chase", "--content", str(content),
                               "--scheduler", other.scheduler_address])
            err = capsys.readouterr().err
            assert status == 2, err
            assert "a cluster worker runs other Roadkit code" in err and "Traceback" not in err
            assert "nothing was written" in err
    assert (content / "vampire-chase" / "figures.json").read_bytes() == before
