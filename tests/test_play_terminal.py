"""`roadkit play` driven through a pseudo-terminal, as a person at a keyboard would: every game is
played to its end, answering each prompt with an action's number (and once with a hint, once with
nonsense), the other seats played by the search player on a small budget."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.helpers import real_content

ROOT = Path(__file__).resolve().parent.parent
GAMES = [g.id for g in real_content().games if g.engine]
PROMPT = re.compile(rb"\n?(\S+)> $")


def _drive(args: list[str], answers: callable, limit: float = 600) -> tuple[int, str]:
    main, child = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-c", "from generators.cli import main; raise SystemExit(main())",
                             *args], stdin=child, stdout=child, stderr=child, cwd=ROOT, close_fds=True)
    os.close(child)
    seen = b""
    asked = 0
    deadline = time.monotonic() + limit
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([main], [], [], 1.0)
            if ready:
                try:
                    chunk = os.read(main, 65536)
                except OSError:  # the child closed the terminal: the game is over
                    break
                if not chunk:
                    break
                seen += chunk
                if PROMPT.search(seen[-200:]):
                    os.write(main, answers(asked).encode() + b"\n")
                    asked += 1
            elif proc.poll() is not None:
                break
        else:
            pytest.fail(f"roadkit play did not finish within {limit} s; last output: {seen[-500:]!r}")
        return proc.wait(timeout=30), seen.decode("utf-8", "replace")
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(main)


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_game_is_played_in_the_terminal(game: str) -> None:
    def answer(i: int) -> str:
        return {0: "h", 1: "nonsense"}.get(i, "1")

    status, text = _drive(["play", "--game", game, "--seed", "3", "--simulations", "3"], answer)
    assert status == 0, text[-2000:]
    assert "Type the number of an action" in text
    assert re.search(r"^\s+1\. \S", text, re.M), "the legal actions are numbered"
    assert "The search player would play" in text  # the hint
    assert re.search(r"tried in \d+ of \d+ simulations, scoring \d+ % on average", text), "the hint's figures"
    assert "Type the number of an action, h for a hint" in text.split("nonsense", 1)[-1]  # nonsense asks again
    assert "Game over:" in text and "Your result:" in text
    assert "Traceback" not in text
    for internal in ("None", "_"):
        lines = [ln for ln in text.splitlines() if re.match(r"^\s+\d+\. ", ln) and internal in ln]
        assert not lines, f"actions shown with internal words: {lines[:3]}"


def test_q_stops_the_game() -> None:
    status, text = _drive(["play", "--game", GAMES[0], "--simulations", "2"], lambda i: "q")
    assert status == 130 and "Stopped." in text


def test_an_unknown_setting_is_a_usage_error() -> None:
    status, text = _drive(["play", "--game", GAMES[0], "--setting", "no-such"], lambda i: "q")
    assert status == 2 and "the settings are:" in text


def test_only_the_listed_numbers_are_answers() -> None:
    """Digits str.isdigit() takes but int() refuses or reads otherwise ('²', '①', Arabic-Indic, 5,000
    digits), 0, one past the last action, signs and spaces: each asks again; then q stops."""
    odd = ["²", "①", "٣", "9" * 5000, "0", "-1", "+1", "1 2", "99999", "1.0"]
    status, text = _drive(["play", "--game", GAMES[0], "--simulations", "2"],
                          lambda i: odd[i] if i < len(odd) else "q")
    assert status == 130 and "Stopped." in text and "Traceback" not in text, text[-1500:]
    assert text.count("Type the number of an action, h for a hint") >= len(odd) + 1


@pytest.mark.parametrize("stdin", ["closed", "empty"])
def test_no_input_ends_the_game_cleanly(stdin: str) -> None:
    """A closed stdin (`<&-`: Python has no sys.stdin) or one at its end stops the game like q."""
    redirect = "<&-" if stdin == "closed" else "</dev/null"
    proc = subprocess.run(["sh", "-c", f'exec "$0" -m generators.cli play --game {GAMES[0]} --simulations 2 {redirect}',
                           sys.executable], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 130, proc.stderr[-1500:]
    assert "Stopped." in proc.stdout and "Traceback" not in proc.stderr and proc.stderr == "", proc.stderr[-1500:]
