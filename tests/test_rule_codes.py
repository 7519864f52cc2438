"""Rule numbers begin with the code each game declares in its game.yaml: a game added later, even one
whose initials are another's ("Mad Dash" beside Mission: Drive), renumbers no other game's rules; two
games declaring one code is a located content mistake."""

from __future__ import annotations

import re
from pathlib import Path

from generators.content.loader import load_content
from generators.site.numbers import game_codes, rule_numbers
from tests.helpers import copy_content, run_cli

GAME = "mission-drive"


def _add_game(content: Path, code: str) -> None:
    (content / "mad-dash").mkdir()
    (content / "mad-dash" / "game.yaml").write_text(
        f'name: "Mad Dash"\nstatus: coming\ncode: {code}\nrulebook: none.txt\nsummary: A race.\n', "utf-8")


def test_a_new_game_with_the_same_initials_renumbers_nothing(tmp_path: Path) -> None:
    content = copy_content(tmp_path, (GAME,))
    before = load_content(content)
    numbers = rule_numbers(before.game(GAME), game_codes(before.games)[GAME])
    assert numbers and all(n.startswith("MD ") for n in numbers.values())
    _add_game(content, "MAD")
    after = load_content(content)
    codes = game_codes(after.games)
    assert codes == {GAME: "MD", "mad-dash": "MAD"}
    assert rule_numbers(after.game(GAME), codes[GAME]) == numbers


def test_two_games_with_one_code_is_a_located_mistake(tmp_path: Path) -> None:
    content = copy_content(tmp_path, (GAME,))
    _add_game(content, "MD")
    result = run_cli("validate", "--content", content)
    assert result.returncode == 2, result.stdout
    line = result.stderr.strip()
    m = re.fullmatch(r".*/([\w-]+)/game\.yaml:(\d+):\d+: code: code 'MD' is already ([\w-]+)'s: .*", line)
    assert m and {m[1], m[3]} == {GAME, "mad-dash"}, line  # at the code of the second game read
    assert (content / m[1] / "game.yaml").read_text("utf-8").splitlines()[int(m[2]) - 1].startswith("code: MD")


def test_a_code_is_short_capital_letters(tmp_path: Path) -> None:
    content = copy_content(tmp_path, (GAME,))
    _add_game(content, "mad")
    result = run_cli("validate", "--content", content)
    assert result.returncode == 2 and "one to five capital letters" in result.stderr, result.stderr
