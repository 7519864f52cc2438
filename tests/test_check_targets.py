"""The check as targets of the build graph: each game's part keyed on that game alone, each line of
whole-game figures keyed on what the engine plays with (so an edit to card text replays nothing), and
a whole run with unchanged inputs that does nothing at all."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generators.check.runner import PARTS, SIMULATIONS, check_targets, load_all
from generators.cli import main as cli_main
from generators.content.loader import load_content
from tests.helpers import copy_content


def _keys(content_dir: Path, out: Path) -> dict[str, str]:
    work = load_all(load_content(content_dir))
    return {t.path.relative_to(out / "check").as_posix(): t.key for t in check_targets(work, out, simulate_games=3)}


def _edit_card_text(content_dir: Path) -> str:
    """Put a word into the first plain card text line of some game; returns the game."""
    for path in sorted(content_dir.glob("*/components/*.yaml")):
        text = path.read_text("utf-8")
        if "kind: cards" not in text:
            continue
        m = re.search(r"^(\s+text: )([A-Za-z][^'\"\n{}:#]{12,})$", text, re.M)
        if m:
            path.write_text(text.replace(m.group(0), m.group(1) + "Carefully " + m.group(2), 1), "utf-8")
            return path.relative_to(content_dir).parts[0]
    raise AssertionError("no plain card text line to edit")


def test_a_card_text_edit_remakes_its_games_part_and_replays_no_game(tmp_path: Path) -> None:
    content_dir = copy_content(tmp_path)
    out = tmp_path / "build"
    before = _keys(content_dir, out)
    assert any(k.startswith(f"{SIMULATIONS}/") for k in before) and any(k.startswith(f"{PARTS}/") for k in before)
    game = _edit_card_text(content_dir)
    after = _keys(content_dir, out)
    assert set(after) == set(before)
    changed = sorted(k for k in after if after[k] != before[k])
    assert changed == [f"{PARTS}/{game}.json"]


def test_a_changed_face_title_replays_that_games_simulations(tmp_path: Path) -> None:
    content_dir = copy_content(tmp_path)
    out = tmp_path / "build"
    before = _keys(content_dir, out)
    game = next(k.split("/")[1] for k in before if k.startswith(f"{SIMULATIONS}/"))
    # A face the engine reads (its facts carry the title): renaming it changes what is played.
    path = next(p for p in sorted((content_dir / game / "components").glob("*.yaml"))
                if "facts:" in p.read_text("utf-8"))
    text = path.read_text("utf-8")
    faces = text.index("\nfaces:")  # a face's own title, not the component's back or proxy stand-in
    m = re.compile(r"^(\s+title: )(.+)$", re.M).search(text, faces)
    assert m
    path.write_text(text[:m.start()] + m.group(1) + "Renamed" + text[m.end():], "utf-8")
    after = _keys(content_dir, out)
    changed = {k for k in after if after[k] != before[k]}
    assert {k for k in before if k.startswith(f"{SIMULATIONS}/{game}/")} <= changed
    assert not {k for k in changed if k.startswith(SIMULATIONS) and not k.startswith(f"{SIMULATIONS}/{game}/")}


def test_an_unchanged_run_does_nothing_and_any_change_runs_again(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    content_dir = copy_content(tmp_path, ("vampire-chase",))
    out = tmp_path / "build"
    args = ["print", "--content", str(content_dir), "--out", str(out), "--paper", "a4", "--no-png"]
    assert cli_main(args) == 0
    first = capsys.readouterr().out
    assert "making" in first
    assert cli_main(args) == 0
    second = capsys.readouterr().out
    assert "up to date (nothing changed" in second and "making" not in second
    pdf = next((out / "print" / "a4").glob("vampire-chase-*.pdf"))
    pdf.unlink()  # an output gone: the run is not up to date
    assert cli_main(args) == 0
    third = capsys.readouterr().out
    assert f"making {pdf}" in third and pdf.is_file()
    assert cli_main([*args, "--ink-saver"]) == 0  # other options: another run
    assert "making" in capsys.readouterr().out
    game_yaml = content_dir / "vampire-chase" / "game.yaml"
    game_yaml.write_text(game_yaml.read_text("utf-8") + "\n", "utf-8")  # any content file changed
    assert cli_main(args) == 0
    assert "up to date (nothing changed" not in capsys.readouterr().out
