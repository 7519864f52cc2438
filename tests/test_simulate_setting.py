"""`roadkit simulate --setting`: one setting's games alone (a large search run need not play them all)."""

from __future__ import annotations

from pathlib import Path

from generators.check.runner import engine_of
from generators.cli import main as cli_main
from generators.content.loader import load_content
from generators.play.simulate import simulate
from generators.rules.facts import game_content

ROOT = Path(__file__).resolve().parent.parent


def test_only_the_named_setting_is_played() -> None:
    game = load_content(ROOT / "content").game("mission-drive")
    engine = engine_of(game)
    assert game.engine is not None
    lines = simulate(game.engine, game_content(game, engine), 3, jobs=1, wanted=["greedy"], settings=["expert"])
    assert [(line["setting"], line["games"]) for line in lines] == [("expert", 3)]


def test_setting_with_write_is_refused(capsys) -> None:  # type: ignore[no-untyped-def]
    code = cli_main(["simulate", "--content", str(ROOT / "content"), "--game", "mission-drive", "--setting",
                     "expert", "--write", "--games", "1"])
    assert code == 2
    assert "--setting" in capsys.readouterr().err
