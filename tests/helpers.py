"""Shared test helpers: run the CLI as a user would, copy content, fingerprint a folder."""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from generators.content import loader
from generators.content.loader import Content
from generators.rules.information import plain

ROOT = Path(__file__).resolve().parent.parent
CONTENT = ROOT / "content"


@functools.cache
def real_content() -> Content:
    """The repository's content, loaded once per test process (the model is immutable): test modules
    that read it at import share one load, which keeps collection short."""
    return loader.load_content(CONTENT)  # through the module: conftest.py counts each load


def run_cli(*args: str | Path, cwd: Path | None = None, env: Mapping[str, str] | None = None,
            stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """`roadkit ...` in a fresh interpreter, exactly as from the shell (`env`: variables to add;
    `stdin`: what is typed, else no input at all)."""
    return subprocess.run(
        [sys.executable, "-m", "generators.cli", *map(str, args)], input=stdin,
        cwd=cwd or ROOT, capture_output=True, text=True, timeout=600, env={**os.environ, **(env or {})},
    )


def start_cli(*args: str | Path, cwd: Path | None = None, interruptible: bool = False) -> subprocess.Popen[str]:
    """`roadkit ...` started in the background (for concurrency and kill tests); `interruptible`: with
    Ctrl-C's default action, whatever the test runner's own (an ignored signal stays ignored in a child)."""
    def default_sigint() -> None:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
    return subprocess.Popen([sys.executable, "-m", "generators.cli", *map(str, args)], cwd=cwd or ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=default_sigint if interruptible else None)


def copy_content(dest: Path, games: tuple[str, ...] | None = None) -> Path:
    """A private copy of content/ (optionally only some games) to break on purpose."""
    target = dest / "content"
    target.mkdir(parents=True)
    shutil.copy(CONTENT / "icons.yaml", target / "icons.yaml")
    for game in sorted(p for p in CONTENT.iterdir() if p.is_dir()):
        if games is None or game.name in games:
            shutil.copytree(game, target / game.name)
    return target


_TEXT = re.compile(r"^(?P<lead>\s+text: )(?P<q>[\"']?)(?P<rest>.*)$")


def edit_one_card(content: Path) -> str:
    """Put a word in front of the first card text found (plain, quoted or block scalar): the one-card
    edit `make bench` times and tests/fuzz_build.py kills builds after."""
    for path in sorted(content.glob("*/components/*.yaml")):
        lines = path.read_text("utf-8").splitlines(keepends=True)
        if not any(line.strip() == "kind: cards" for line in lines):
            continue
        for i, line in enumerate(lines):
            m = _TEXT.match(line)
            if not m:
                continue
            if m["rest"].strip() in ("|", ">", "|-", ">-"):
                indent = len(lines[i + 1]) - len(lines[i + 1].lstrip())
                lines[i + 1] = lines[i + 1][:indent] + "Edited. " + lines[i + 1][indent:]
            else:
                lines[i] = f"{m['lead']}{m['q']}Edited. {m['rest']}\n"
            path.write_text("".join(lines), "utf-8")
            return f"{path.relative_to(content)} line {i + 1}"
    raise SystemExit("no card text found to edit")


def fingerprint(folder: Path) -> dict[str, str]:
    """Path -> sha256 of every file under `folder`: equal fingerprints mean byte-identical trees."""
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*")) if p.is_file()
    }


def outputs_of(out: Path) -> dict[str, str]:
    """`fingerprint` of build/'s outputs alone: no temporary file (a killed run's, the staging copy of
    build/ it worked in), none of build/'s own bookkeeping (manifest, journal, marker, cache)."""
    from generators.build_system.build_graph import JOURNAL, MANIFEST, MARKER, TMP_SUFFIX

    skip = (JOURNAL, MANIFEST, MARKER, ".cache")
    return {k: v for k, v in fingerprint(out).items()
            if TMP_SUFFIX not in k and Path(k).parts[0] not in skip}


# --- processes, read from /proc (the kill tests: no worker may outlive its parent) ---------------


def child_pids(pid: int) -> set[int]:
    """The processes `pid` started, from every one of its threads."""
    out: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            out |= {int(c) for c in (task / "children").read_text().split()}
    return out


def child_named(pid: int, word: bytes, where: str = "comm") -> int | None:
    """A process `pid` started whose /proc `where` (its name, `comm`, or its `cmdline`) holds `word`."""
    for kid in child_pids(pid):
        try:
            if word in Path(f"/proc/{kid}/{where}").read_bytes():
                return kid
        except OSError:
            pass
    return None


def alive(pid: int) -> bool:
    """Whether `pid` still runs (a zombie waiting for its parent does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def process_name(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return ""


def mount_tmpfs(where: Path, size: str) -> bool:
    """Mount a tmpfs of `size` (such as "4m") at `where`, made if missing; False where this machine
    does not let the tests mount one (not root, no mount)."""
    where.mkdir(parents=True, exist_ok=True)
    return os.geteuid() == 0 and subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                                                 capture_output=True).returncode == 0


# --- counts in players' words (examples, site pages) ---------------------------------------------

COUNT = re.compile(r"(?<![\w.#/,:+-])(\d+) ([a-z]+)\b(?! [a-z]+s\b)")  # "2 tiles" (not "4 player boards")


def counted_nouns(texts: list[str]) -> set[str]:
    """Words counted in the plural ("2 tiles") whose singular is counted too ("1 tile", "a tile",
    "each tile"): the nouns whose number a count must agree with (verbs such as "takes" are not)."""
    joined = " ".join(texts)
    plural = {w for n, w in COUNT.findall(joined) if int(n) >= 2 and w.endswith("s") and len(w) > 3}
    return {w for w in plural if re.search(rf"\b(?:1|a|an|one|each|every) {re.escape(w[:-1])}\b", joined)}


def disagreements(text: str, nouns: set[str]) -> list[str]:
    """"1 tiles" or "3 tile" in `text`, with a little of what is around it."""
    return [text[max(0, m.start() - 30):m.end() + 10] for m in COUNT.finditer(text)
            if (int(m.group(1)) == 1 and m.group(2) in nouns) or (int(m.group(1)) >= 2 and m.group(2) + "s" in nouns)]


def hidden_orders(engine: Any, state: Any, seat: str, content: Any) -> list[list[str]]:
    """Every three different cards the state holds one after the other in an order `seat` does not
    observe (a face-down deck, another player's hand as dealt), by their printed names: none may be
    shown in that order."""
    seen = json.dumps(engine.observe(state, seat), default=str, ensure_ascii=False)
    runs: list[list[str]] = []

    def visit(value: Any) -> None:
        if isinstance(value, list) and len(value) >= 3 and all(isinstance(v, str) for v in value):
            for i in range(len(value) - 2):
                three = value[i:i + 3]
                if len(set(three)) == 3 and json.dumps(three, ensure_ascii=False)[1:-1] not in seen:
                    runs.append([content.name(v) for v in three])
        elif isinstance(value, (list, tuple)):
            for v in value:
                visit(v)
        elif isinstance(value, dict):
            for v in value.values():
                visit(v)
    visit(plain(state))
    return runs


def tells_an_order(text: str, runs: list[list[str]]) -> list[str] | None:
    """The first three names of a hidden order that `text` shows one after the other, if any."""
    return next((run for run in runs if ", ".join(run) in text), None)


def first_choice(game_id: str) -> tuple[Any, Any, Any, str, list[Any]]:
    """A game's first decision with two or more legal moves (its first setting, seeded): the engine, its
    content, the state, who decides and the legal moves."""
    from generators.check.runner import engine_of  # lazy: the rules engines, for the tests that play only
    from generators.rules.chance import Chance  # lazy: with the engines
    from generators.rules.facts import game_content  # lazy: with the engines

    game = real_content().game(game_id)
    engine = engine_of(game)
    content = game_content(game, engine)
    state = engine.new_game(engine.parse_options(dict(engine.simulation_setups()[0].options)), content,
                            Chance.seeded(5))
    while len(engine.legal_actions(state, player := engine.players_to_act(state)[0])) < 2:
        state = engine.play(state, engine.legal_actions(state, player)[0], Chance.seeded(6))[0]
    return engine, content, state, player, engine.legal_actions(state, player)
