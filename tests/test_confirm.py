"""The strong player confirms: stored findings measured again by the search, each confirmed,
contradicted or not confirmed; the overview presents only confirmed ones as findings."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from generators.cli import main as cli_main
from generators.play.balance import Tally, measure
from generators.play.confirm import CONFIRMED, CONTRADICTED, NOT_CONFIRMED, verdicts, wanted
from generators.site.played_games import careful_player

ROOT = Path(__file__).resolve().parent.parent


def _games(n: int, first_wins: float, rng: random.Random) -> list[Tally]:
    out = []
    for seed in range(n):
        winner = "A" if rng.random() < first_wins else "B"
        out.append(Tally("2 players", ("A", "B"), frozenset({winner}),
                         [("A", "seat", "1st to play"), ("B", "seat", "2nd to play")], seed))
    return out


def _finding(effect: float) -> dict:
    return {"setting": "2 players", "kind": "seat", "value": "1st to play", "effect": effect, "flagged": True,
            "interval": [effect - 5, effect + 5], "games": 300}


@pytest.mark.parametrize(("search_first_wins", "verdict"), [(0.75, CONFIRMED), (0.5, NOT_CONFIRMED),
                                                            (0.25, CONTRADICTED)])
def test_a_finding_is_confirmed_only_when_the_search_finds_it_too(search_first_wins: float, verdict: str) -> None:
    search = _games(400, search_first_wins, random.Random(3))
    [found] = verdicts([_finding(+20.0)], search, "competitive")
    assert found["verdict"] == verdict
    e = next(e for e in measure(search, "competitive").effects if e.value == "1st to play")
    assert found["search"]["effect"] == round(100 * (e.share.share - e.against), 1)
    assert found["one_step"]["effect"] == 20.0
    low, high = found["search"]["corrected"]["interval"]
    assert low <= found["search"]["interval"][0] and high >= found["search"]["interval"][1]


def test_a_setting_nobody_won_leaves_a_finding_unconfirmed() -> None:
    """A small confirmation run can play a setting whose every game ends with no winner (seen with one
    Escape Deathrace game a setting): the finding is then not confirmed, and nothing fails."""
    nobody = [Tally("2 players", ("A", "B"), frozenset(), [("A", "seat", "1st to play"), ("B", "seat", "2nd to play")],
                    seed) for seed in range(3)]
    [found] = verdicts([_finding(+20.0)], nobody, "competitive")
    assert found["verdict"] == NOT_CONFIRMED and found["search"] is None


def test_what_is_asked_to_be_confirmed_and_where() -> None:
    stored = {"balance": {"effects": [_finding(20.0), {**_finding(1.0), "setting": "3 players", "flagged": False}],
                          "rebalanced": [{"value": "X", "before": [{"setting": "4 players"}]}]},
              "plays": {"difficulty": [{"settings": ["easy", "hard"], "pairs": []}]}}
    want = wanted(stored)
    assert [f["setting"] for f in want["findings"]] == ["2 players"]  # flagged ones only
    assert want["settings"] == {"2 players", "easy", "hard", "4 players"}


def test_the_overview_presents_only_confirmed_findings_and_names_both_players() -> None:
    effects = [{**_finding(20.0), "won": {"percent": 70.0, "low": 64.0, "high": 75.0}, "against": 50.0,
                "baseline": "an even share of the decided games (1 in 2)"},
               {**_finding(-20.0), "value": "2nd to play", "won": {"percent": 30.0, "low": 25.0, "high": 36.0},
                "against": 50.0, "baseline": "an even share of the decided games (1 in 2)"}]
    balance = {"current": True, "version": "v", "policy": "greedy", "games_per_setting": 300, "effects": effects}
    search = {"effect": 15.0, "interval": [5.0, 25.0], "games": 100}
    confirmed = {"current": True, "balance_version": "v", "simulations": 100, "games_per_setting": 100,
                 "findings": [{"setting": "2 players", "kind": "seat", "value": "1st to play", "verdict": CONFIRMED,
                               "search": search},
                              {"setting": "2 players", "kind": "seat", "value": "2nd to play",
                               "verdict": NOT_CONFIRMED, "search": {**search, "effect": -3.0,
                                                                    "interval": [-12.0, 6.0]}}]}
    plays = {"current": True, "settings": [{"policy": "greedy", "setting": "2 players", "games": 10,
                                            "results": {"won": {"games": 4}}}]}
    careful = careful_player({"plays": plays, "balance": balance, "confirmed": confirmed})
    assert careful is not None
    [line] = careful.findings
    assert line.startswith("1st to play (seat, 2 players)")
    assert "the strong player confirms it: +15 points on 100 games (95 % range +5 to +25)" in line
    assert "100 simulated continuations a move), at every seat, 100 games per setting" in careful.confirmed_by
    [left] = careful.unconfirmed
    assert left.startswith("2nd to play (2 players): \u221220 points for the careful player")
    assert left.endswith("the strong player found \u22123 points on 100 games (95 % range \u221212 to +6): "
                         "its corrected range holds 0")
    assert "2nd to play" not in careful.in_short and "1st to play" in careful.in_short
    # a confirmation made for other findings (another balance version) confirms nothing
    stale = careful_player({"plays": plays, "balance": balance, "confirmed": {**confirmed, "balance_version": "w"}})
    assert stale is not None and len(stale.findings) == 2 and stale.confirmed_by == ""


def test_the_command_confirms_on_a_small_budget(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """End to end on the vampire chase's stored figures: the search plays the settings the stored
    difficulty order concerns, and the order is worked out again from its win rates."""
    import shutil

    content = tmp_path / "content"
    content.mkdir()
    shutil.copy(ROOT / "content" / "icons.yaml", content)
    shutil.copytree(ROOT / "content" / "vampire-chase", content / "vampire-chase")
    status = cli_main(["balance", "--confirm", "--game", "vampire-chase", "--content", str(content), "--games", "2",
                       "--simulations", "4", "-j", "1", "--json", "--write"])
    out = capsys.readouterr()
    if status == 2 and "not current" in out.err:
        pytest.skip("the vampire chase's stored figures are stale: nothing to confirm")
    assert status == 0, out.err
    part = json.loads(out.out)["vampire-chase"]
    assert part["policy"] == "search" and part["simulations"] == 4 and part["games_per_setting"] == 2
    stored = json.loads((content / "vampire-chase" / "figures.json").read_text(encoding="utf-8"))
    assert stored["confirmed"]["settings"] == part["settings"] and part["settings"]
    assert [o["policy"] for o in part["difficulty"]] == ["search"] * len(part["difficulty"])


def test_roadkit_balance_names_both_players_beside_a_finding() -> None:
    from generators.play.balance import _human

    effect = {**_finding(20.0), "won": {"percent": 70.0}, "against": 50.0, "baseline": "an even share of the "
              "decided games (1 in 2)", "corrected": {"interval": [12.0, 28.0], "level": 99.81}}
    search = {"effect": 15.0, "interval": [5.0, 25.0], "corrected": {"interval": [1.0, 29.0]}, "games": 100}
    part = {"policy": "greedy", "simulations": None, "games_per_setting": 300, "seed": 1, "family": 27,
            "effects": [effect], "confirmed": {"simulations": 100, "games_per_setting": 100, "findings": [
                {"setting": "2 players", "kind": "seat", "value": "1st to play", "verdict": CONFIRMED,
                 "search": search}]}}
    text = _human({"g": part})
    assert text.startswith("g: measured by the one-step look-ahead (greedy), 300 games per setting (seeds 1–300)")
    assert "re-measured by the search (search, 100 simulations a move), 100 games per setting, every seat" in text
    assert "FINDING [2 players] seat 1st to play: won 70.0 % of 300 decided games" in text
    assert "corrected 99.81 % interval +12.0 to +28.0" in text
    assert ("confirmed by the search: +15.0 points (95 % interval +5.0 to +25.0, corrected +1.0 to +29.0; "
            "100 games)") in text


def test_every_stored_confirmation_says_what_its_figures_say() -> None:
    """Each stored `confirmed` part: made for the game's stored balance, and every verdict worked out
    again from the search's stored corrected interval and the one-step effect's direction."""
    from generators.play.figures import FILE

    for path in sorted((ROOT / "content").glob(f"*/{FILE}")):
        data = json.loads(path.read_text(encoding="utf-8"))
        confirmed = data.get("confirmed")
        if not confirmed:
            continue
        assert confirmed["balance_version"] == data["balance"]["version"], path
        flagged = {(e["setting"], e["kind"], e["value"]) for e in data["balance"]["effects"] if e["flagged"]}
        assert {(f["setting"], f["kind"], f["value"]) for f in confirmed["findings"]} == flagged, path
        for f in confirmed["findings"]:
            if f["search"] is None:
                assert f["verdict"] == NOT_CONFIRMED
                continue
            low, high = f["search"]["corrected"]["interval"]
            up = f["one_step"]["effect"] > 0
            again = (CONFIRMED if (low > 0 if up else high < 0) else
                     CONTRADICTED if (high < 0 if up else low > 0) else NOT_CONFIRMED)
            assert f["verdict"] == again, (path, f)
