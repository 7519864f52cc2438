"""A game added touches nothing shared: Kerb Dash, a three-rule race of our own kept in
tests/fixtures/kerb-dash/ (its content beside its rules package), goes through the same commands as
every game, pointed at it with --content and --engines: print, the rules check, the site, whole games
simulated and one played in the terminal. No code in generators/ or tools/ names it (the editors'
guide does, as the example of a game kept outside the repository)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pypdf
import pytest

from tests.helpers import ROOT, run_cli

FIXTURE = ROOT / "tests" / "fixtures" / "kerb-dash"
GAME = "kerb-dash"
POINTED = ("--content", FIXTURE / "content", "--engines", FIXTURE / "games")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("own-game") / "build"
    result = run_cli("build", *POINTED, "--out", out, "-q", env={"ROADKIT_SIMULATE": "4"})
    assert result.returncode == 0, result.stderr[-2000:]
    return out


def test_the_print_kit_holds_every_card_on_both_papers(built: Path) -> None:
    faces = {p.stem for p in (built / "png" / GAME / "gear-cards").glob("*.png")}
    assert faces == {"gear-1-front", "gear-2-front", "gear-3-front", "back"}
    for paper in ("a4", "letter"):
        path = built / "print" / paper / f"{GAME}-cards-duplex.pdf"
        text = " ".join(page.extract_text() or "" for page in pypdf.PdfReader(path).pages)
        assert all(f"Gear {n}" in text for n in (1, 2, 3)), (paper, text[:300])
        assert "house" in text.lower()  # our own design, marked so on the pieces


def test_the_worked_example_is_replayed_and_verified(built: Path) -> None:
    report = json.loads((built / "check" / "report.json").read_text("utf-8"))
    records = [r for r in report["examples"] if r["game"] == GAME]
    assert [(r["id"], r["status"]) for r in records] == [("last-card-crosses-the-line", "verified")], records


def test_the_site_has_the_game_and_its_example(built: Path) -> None:
    site = built / "site"
    home = (site / "index.html").read_text("utf-8")
    assert "Kerb Dash" in home
    example = (site / GAME / "examples" / "race.html").read_text("utf-8")
    assert "A Gear 3 from 10 spaces crosses the line" in example and "verified" in example
    assert (site / GAME / "play.html").is_file()
    assert (site / "guide" / "commands.html").is_file()


def test_whole_games_are_simulated_with_their_intervals(tmp_path: Path) -> None:
    result = run_cli("simulate", *POINTED, "--games", "40", "--json", "--out", tmp_path / "build")
    assert result.returncode == 0, result.stderr[-2000:]
    runs = json.loads(result.stdout)["games"][GAME]
    assert {r["policy"] for r in runs} == {"random", "greedy"}  # greedy: the package rates positions
    for run in runs:
        results = run["results"]
        assert run["games"] == 40 and sum(r["games"] for r in results.values()) == 40, run
        assert set(results) <= {"Red wins", "Blue wins"}  # every game ends with a winner
        for r in results.values():
            assert r["low"] <= r["percent"] <= r["high"], r  # each rate with its 95 % interval


def test_a_whole_game_is_played_in_the_terminal() -> None:
    result = run_cli("play", *POINTED, "--game", GAME, "--simulations", "10", "--seed", "3", stdin="1\n" * 12)
    assert result.returncode == 0, result.stderr[-2000:]
    assert re.search(r"Game over: (Red|Blue) wins", result.stdout), result.stdout[-1500:]


def test_no_shared_file_names_the_game() -> None:
    named = [str(p.relative_to(ROOT)) for folder in ("generators", "tools")
             for p in (ROOT / folder).rglob("*") if p.is_file() and "__pycache__" not in p.parts
             and p.suffix in (".py", ".j2", ".md", ".js", ".yml", ".yaml")
             and re.search(r"kerb[-_ ]dash", p.read_text("utf-8", errors="replace"), re.I)]
    assert not named, named


def test_the_check_is_keyed_on_the_game_package_it_loads() -> None:
    """The rules check of a game whose package lives outside generators/games/ is keyed on that package's
    files (an edit there remakes its check), and on no other game's."""
    script = ("import sys\nfrom pathlib import Path\n"
              "from generators.rules.contract import add_engines\n"
              "from generators.build_system.code_layers import label, module_files\n"
              "add_engines(Path(sys.argv[1]))\n"
              "print('\\n'.join(label(p) for p in module_files(['generators.check.runner'], loads=['kerb_dash'])))\n")
    result = subprocess.run([sys.executable, "-c", script, str(FIXTURE / "games")], cwd=ROOT, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    files = result.stdout.split()
    package = {f"games/kerb_dash/{p.name}" for p in (FIXTURE / "games" / "kerb_dash").glob("*.py")}
    assert package <= set(files), sorted(package - set(files))
    others = [f for f in files if f.startswith("games/") and not f.startswith(("games/kerb_dash/", "games/__init__"))]
    assert not others, others


def test_the_game_declares_what_the_tests_ask_of_it() -> None:
    """Its tests.yaml (validated with the content) names a search trial in a setting its rules offer,
    and players' questions naming its own entries: nothing about it is written into a shared test."""
    script = ("import sys\nfrom pathlib import Path\n"
              "from generators.content.loader import load_content\n"
              "from generators.rules.contract import add_engines, load_engine\n"
              "add_engines(Path(sys.argv[1]) / 'games')\n"
              "game = load_content(Path(sys.argv[1]) / 'content').game(sys.argv[2])\n"
              "print(game.tests.search.setting in [s.label for s in load_engine(game.engine).simulation_setups()])\n"
              "rules = {r.id for r in game.rules}\n"
              "print(len(game.tests.questions), all(q.rule in rules for q in game.tests.questions))\n")
    result = subprocess.run([sys.executable, "-c", script, str(FIXTURE), GAME], cwd=ROOT, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    setting, questions = result.stdout.splitlines()
    assert setting == "True"
    count, named = questions.split()
    assert int(count) >= 6 and named == "True"
