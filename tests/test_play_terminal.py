"""`roadkit play` driven through a pseudo-terminal, as a person at a keyboard would: every game is
played to its end, answering each prompt with an action's number (and once with a hint, once with
nonsense, once a rule looked up, once an undo), saved halfway, stopped and resumed from the file to its
end; the other seats played by the search player on a small budget. And in process, for every game,
nothing the terminal prints tells a face-down order the player's seat cannot see."""

from __future__ import annotations

import io
import json
import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from generators.play.console import play_in_terminal
from generators.play.table import Session
from generators.rules.contract import load_engine
from generators.rules.facts import game_content
from tests.helpers import hidden_orders, real_content, tells_an_order

ROOT = Path(__file__).resolve().parent.parent
CONTENT = real_content()
GAMES = [g.id for g in CONTENT.games if g.engine]
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
def test_a_whole_game_is_played_in_the_terminal(game: str, tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    script = {0: "h", 1: "nonsense", 2: "r the", 3: "1", 4: "u", 5: "1", 6: f"s {saved}", 7: "q"}

    status, text = _drive(["play", "--game", game, "--seed", "3", "--simulations", "3"],
                          lambda i: script.get(i, "1"))
    assert status == 130 and "Stopped." in text, text[-2000:]
    assert "Type the number of an action" in text
    assert re.search(r"^\s+1\. \S", text, re.M), "the choices are numbered"
    assert "The search player would play" in text  # the hint
    assert re.search(r"won \d+ % of the \d+ of \d+ simulations that tried it", text), "the hint's figures"
    assert "Type the number of an action, h for a hint" in text.split("nonsense", 1)[-1]  # nonsense asks again
    assert "Undone: back to your previous decision." in text
    assert f"Saved to {saved}" in text and saved.exists()
    assert "Traceback" not in text

    status, rest = _drive(["play", "--game", game, "--simulations", "3", "--resume", str(saved)], lambda i: "1")
    assert status == 0, rest[-2000:]
    assert "Game over:" in rest and "Your result:" in rest and "Traceback" not in rest
    for internal in ("None", "_"):
        lines = [ln for ln in (text + rest).splitlines() if re.match(r"^\s+\d+\. ", ln) and internal in ln]
        assert not lines, f"choices shown with internal words: {lines[:3]}"
    assert not re.search(r"^(\S+): \1:", text + rest, re.M), "a doubled prefix"


def _spied(game: str, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, Any, list[tuple[Any, str]]]:
    """The game's engine and content, and a list that records each (state, seat) the terminal looks at."""
    loaded = next(g for g in CONTENT.games if g.id == game)
    engine = load_engine(loaded.engine or "")
    looked: list[tuple[Any, str]] = []
    view = Session.view

    def spy(self: Session, seat: str) -> dict[str, Any]:
        looked.append((self.state, seat))
        return view(self, seat)

    monkeypatch.setattr(Session, "view", spy)
    return engine, game_content(loaded, engine), looked


@pytest.mark.parametrize("game", GAMES)
def test_the_terminal_shows_nothing_hidden(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A seeded game played in process: before each answer, nothing printed so far shows three cards
    of a face-down order in the order they lie (the true state's, read behind the player's back)."""
    engine, content, looked = _spied(game, monkeypatch)
    out = io.StringIO()
    asked = [0]

    def read(prompt: str) -> str:
        state, seat = looked[-1]
        told = tells_an_order(out.getvalue(), hidden_orders(engine, state, seat, content))
        assert told is None, f"the terminal shows a face-down order: {told}"
        asked[0] += 1
        if asked[0] > 30:
            raise EOFError
        return "1"

    play_in_terminal(engine, content, setting=None, seat=None, seed=21, hint=False, simulations=2, read=read, out=out)
    assert asked[0] > 1 and "Then:" in out.getvalue()


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


@pytest.mark.parametrize("saved", ["missing", "garbage", "other game"])
def test_a_bad_saved_game_is_a_usage_error(saved: str, tmp_path: Path) -> None:
    path = tmp_path / "saved.json"
    if saved == "garbage":
        path.write_text("{not json", encoding="utf-8")
    elif saved == "other game":
        path.write_text('{"game": "Chess", "setting": "x", "seed": 1, "moves": []}', encoding="utf-8")
    status, text = _drive(["play", "--game", GAMES[0], "--resume", str(path)], lambda i: "q")
    assert status == 2 and f"roadkit play: cannot resume {path}:" in text and "Traceback" not in text, text


def _play(game: str, answers: list[str], tmp_path: Path, resume: str | None = None) -> tuple[int, str]:
    """`roadkit play` in this process with `answers` typed (then q), in `tmp_path`: status and output."""
    engine_name = next(g.engine for g in CONTENT.games if g.id == game)
    engine = load_engine(engine_name or "")
    content = game_content(next(g for g in CONTENT.games if g.id == game), engine)
    typed = iter(answers)
    out = io.StringIO()
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        status = play_in_terminal(engine, content, setting=None, seat=None, seed=4, hint=False, simulations=2,
                                  resume=resume, read=lambda _: next(typed, "q"), out=out, name=game)
    finally:
        os.chdir(here)
    return status, out.getvalue()


@pytest.mark.parametrize("where", [".", "/", "..", "{tmp}/", "/dev/null", "{tmp}/no-folder/x.json", "a\x00b",
                                   "x" * 5000])
def test_saving_where_no_file_can_be_is_refused_and_leaves_nothing(where: str, tmp_path: Path) -> None:
    """`s .`, `s /`, a folder, a device (as root, `/dev/full` was once replaced by the save: never
    write over what is not a plain file), a missing folder, a NUL, a name too long: one line saying
    why, the game goes on, nothing is left behind."""
    before = sorted(tmp_path.parent.iterdir()), sorted(tmp_path.iterdir())
    device = Path("/dev/null").stat()
    status, text = _play(GAMES[0], [f"s {where.format(tmp=tmp_path)}"], tmp_path)
    assert status == 130 and "Stopped." in text and "Traceback" not in text, text[-800:]
    said = [line for line in text.splitlines() if "Cannot save to" in line]
    assert len(said) == 1 and len(said[0]) < 200, said
    assert (sorted(tmp_path.parent.iterdir()), sorted(tmp_path.iterdir())) == before
    assert Path("/dev/null").stat().st_rdev == device.st_rdev and Path("/dev/null").is_char_device()


@pytest.mark.parametrize("saved", ["folder", "device", "pipe", "too deep", "a list", "negative seed", "huge seed",
                                   "moves a string", "a move without action", "people a number", "too big"])
def test_a_saved_game_of_any_shape_is_a_usage_error(saved: str, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """Whatever `--resume` names (a folder, a device that never ends, a pipe nobody writes, JSON of any
    shape or depth or size): one line, exit 2, never a traceback or a read that does not end."""
    game = {"game": load_engine(next(g.engine for g in CONTENT.games if g.id == GAMES[0]) or "").type.name,
            "setting": "x", "seed": 1, "moves": []}
    path = tmp_path / "saved.json"
    shapes = {"too deep": "[" * 100_000, "a list": "[]", "negative seed": {**game, "seed": -1},
              "huge seed": {**game, "seed": 2**64}, "moves a string": {**game, "moves": "abc"},
              "a move without action": {**game, "moves": [{"by": "you"}]}, "people a number": {**game, "humans": 3},
              "too big": " " * 10_000_001 + "{}"}
    if saved == "folder":
        path = tmp_path
    elif saved == "device":
        path = Path("/dev/zero")
    elif saved == "pipe":
        os.mkfifo(path)
    else:
        shape = shapes[saved]
        path.write_text(shape if isinstance(shape, str) else json.dumps(shape), "utf-8")
    status, _ = _play(GAMES[0], [], tmp_path, resume=str(path))
    err = capsys.readouterr().err
    assert status == 2 and err.startswith(f"roadkit play: cannot resume {path}:"), err[-500:]
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_an_unknown_seat_lists_every_seat() -> None:
    status, text = _drive(["play", "--game", "thunder-road-ignition", "--setting", "4 players", "--seat", "purple"],
                          lambda i: "q")
    assert status == 2 and "the seats are:" in text
    assert len(text.split("the seats are:", 1)[1].split(",")) == 4, text


def test_a_hint_never_changes_the_computers_moves() -> None:
    """The same seed and answers with and without asking for hints: the same game, move for move."""
    loaded = next(g for g in CONTENT.games if g.id == "escape-deathrace-2182-micro")
    engine = load_engine(loaded.engine or "")
    content = game_content(loaded, engine)

    def game(hints: bool) -> list[str]:
        out, asked = io.StringIO(), [0]

        def read(prompt: str) -> str:
            asked[0] += 1
            if asked[0] > 40:
                raise EOFError
            return "h" if hints and asked[0] % 2 else "1"

        play_in_terminal(engine, content, setting=None, seat="P2", seed=5, hint=False, simulations=4, read=read,
                         out=out)
        return [ln for ln in out.getvalue().splitlines() if ln.startswith("P1")]

    plain_game, hinted = game(False), game(True)
    # with hints, half the answers ask for one: the same moves, as far as the shorter game went
    assert len(hinted) > 3 and plain_game[:len(hinted)] == hinted


class _Screen(io.StringIO):
    """A terminal's screen: it says it is one, so the game clears it between two people's turns."""

    def isatty(self) -> bool:
        return True


def test_people_sharing_the_terminal_each_see_only_their_own_table() -> None:
    """Two people at one terminal (`--seat P1 --seat P2`): before each one's turn the screen is cleared
    and the game waits for the terminal to be passed; what is shown until the next hand-over is that
    person's table (their own seat and prompt), never the other one's hand."""
    from generators.play.console import CLEAR

    out, asked = _Screen(), [0]

    def read(prompt: str) -> str:
        asked[0] += 1
        if asked[0] > 40:
            raise EOFError
        return "" if "press Enter" in prompt else "1"

    with pytest.MonkeyPatch.context() as mp:
        engine, content, looked = _spied("escape-deathrace-2182-micro", mp)
        play_in_terminal(engine, content, setting="2 players", seat=["P1", "P2"], seed=4, hint=False, simulations=2,
                         read=read, out=out)
    shown = out.getvalue()
    turns = shown.split(CLEAR)[1:]
    handed = [t for t in turns if "== Pass the terminal to" in t]
    tables = [t for t in turns if "You are: " in t]
    assert len(handed) >= 4 and len(tables) >= 4, shown[-1500:]
    for table in tables:
        seat = re.search(r"You are: (P\d)", table).group(1)  # type: ignore[union-attr]
        other = "P2" if seat == "P1" else "P1"
        assert f"You are: {other}" not in table, "two people's tables on one screen"
        state = next(s for s, looker in reversed(looked) if looker == seat)
        theirs = {content.name(c) for c in state.players[other].power} - \
            {content.name(c) for c in state.players[seat].power}
        drivers = [ln for ln in table.splitlines() if ln.startswith("  Drivers:")]
        assert drivers and not [n for n in theirs if any(n in ln for ln in drivers)], f"{other}'s hand shown to {seat}"
    for i, turn in enumerate(turns[:-1]):
        if "== Pass the terminal to" in turn:
            person = re.search(r"Pass the terminal to (P\d)", turn).group(1)  # type: ignore[union-attr]
            assert f"You are: {person}" in turns[i + 1]


def test_a_decision_in_parts_is_asked_a_part_at_a_time() -> None:
    """The vampire chase's market cycle in the terminal: one numbered choice, then the card put under
    first with the parts picked so far said above the choices, u back to the whole decision."""
    loaded = next(g for g in CONTENT.games if g.id == "vampire-chase")
    engine = load_engine(loaded.engine or "")
    out, answers, asked = io.StringIO(), ["1"], [0]

    def read(prompt: str) -> str:
        asked[0] += 1
        if asked[0] > 60:
            raise EOFError
        if answers:
            return answers.pop(0)
        shown = out.getvalue().rsplit("player>", 1)[-1]
        cycle = re.search(r"^  (\d+)\. MARKET: cycle the row", shown, re.M)
        if cycle and "Undone: back to the whole decision." not in out.getvalue():
            answers.extend(["1", "u"])
            return cycle.group(1)
        if "Undone: back to the whole decision." in out.getvalue():
            raise EOFError
        return "1"

    play_in_terminal(engine, game_content(loaded, engine), setting=None, seat=None, seed=3, hint=False,
                     simulations=2, read=read, out=out)
    text = out.getvalue()
    assert "Undone: back to the whole decision." in text, text[-1500:]
    parts = text.split("MARKET: cycle the row (then choose the order its cards go under the Market Deck):\n", 1)
    assert len(parts) == 2, "the parts picked are said above the next part's choices"
    asked_next = parts[1].split("player>", 1)[0]
    assert re.search(r"^  1\. .+ under the Market Deck first", asked_next, re.M)
    assert re.search(r"^  \d+\. Back: choose something else", asked_next, re.M)
