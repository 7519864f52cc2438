"""Progress of long runs: games done of the total, elapsed, an estimate, on a terminal only."""

from __future__ import annotations

import io
import json

import pytest

from generators.cli import main as cli_main
from generators.play import progress


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_line_says_games_done_of_the_total_elapsed_and_what_is_left() -> None:
    clock, out = Clock(), Terminal()
    p = progress.Progress("roadkit balance mission-drive", 1200, out, clock)
    clock.now += 35
    p.add(120)
    assert p.line() == "roadkit balance mission-drive: 120 of 1200 games, 0:35 elapsed, about 5:15 left"
    assert out.getvalue().endswith(p.line() + "\x1b[K") and out.getvalue().startswith("\r")
    p.grow(300)  # a --precision run plays on
    clock.now += 3600
    p.add(1380)
    assert p.line() == "roadkit balance mission-drive: 1500 of 1500 games, 1:00:35 elapsed"
    p.close()
    assert out.getvalue().endswith("\r\x1b[K")  # the line is cleared for the report


def test_nothing_is_drawn_when_the_stream_is_not_a_terminal() -> None:
    out = io.StringIO()
    p = progress.Progress("x", 10, out)
    p.add(10)
    p.close()
    assert out.getvalue() == ""


def test_runs_report_their_games_as_they_come_back(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[int] = []
    monkeypatch.setattr(progress.Progress, "add", lambda self, n: seen.append(n))
    out = Terminal()
    with progress.showing("t", 12, out):
        from generators.play.simulate import run_parts, seed_batches

        parts = seed_batches(range(12), "random", 1)
        assert len(parts) == 12  # in one process too, small batches so the line moves
        run_parts(_count, [_Part(tuple(b)) for b in parts], 1, None)
    assert sum(seen) == 12


class _Part:
    def __init__(self, seeds: tuple[int, ...]) -> None:
        self.seeds = seeds


def _count(part: _Part) -> int:
    return len(part.seeds)


def test_json_and_piped_output_are_unchanged(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["balance", "--game", "vampire-chase", "--games", "3", "--json", "-j", "1"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["vampire-chase"]["games_per_setting"] == 3
    assert captured.err == ""  # not a terminal: no progress line
