"""The balance report: effects measured against their baseline with intervals, outliers flagged only
outside the noise (after accounting for how many effects were measured), on made-up tallies whose
truth is known, and on a real game end to end."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from generators.check.runner import engine_of
from generators.content.loader import load_content
from generators.play.balance import (
    RebalanceError,
    Tally,
    before_and_after,
    effects,
    measure,
    play_and_tally,
    rebalanced,
)
from generators.rules.facts import game_content
from generators.rules.stats import rate
from generators.site.played_games import careful_player

ROOT = Path(__file__).resolve().parent.parent


def _seats(n: int, first_wins: float, rng: random.Random) -> list[Tally]:
    out = []
    for _ in range(n):
        winner = "A" if rng.random() < first_wins else "B"
        out.append(Tally("2 players", ("A", "B"), frozenset({winner}),
                         [("A", "seat", "1st to play"), ("B", "seat", "2nd to play")]))
    return out


def test_a_first_seat_that_wins_too_often_is_flagged() -> None:
    found = {e.value: e for e in effects(_seats(400, 0.7, random.Random(1)), "competitive")}
    first = found["1st to play"]
    assert first.flagged and first.low > 0 and first.against == 0.5
    assert found["2nd to play"].flagged and found["2nd to play"].high < 0


def test_fair_seats_are_noise() -> None:
    found = effects(_seats(400, 0.5, random.Random(2)), "competitive")
    assert found and not any(e.flagged for e in found)
    assert all(e.low < 0 < e.high for e in found)


def test_a_card_in_a_solo_game_is_compared_with_games_without_it() -> None:
    rng = random.Random(3)
    tallies = []
    for _ in range(600):
        has = rng.random() < 0.5
        won = rng.random() < (0.6 if has else 0.3)
        tallies.append(Tally("solo", ("me",), frozenset({"me"}) if won else frozenset(),
                             [(None, "card", "strong")] if has else [(None, "card", "weak")]))
    found = {e.value: e for e in effects(tallies, "solo")}
    assert found["strong"].flagged and found["strong"].low > 0
    assert found["weak"].flagged and found["weak"].high < 0


def test_a_real_game_is_tallied_with_its_seats() -> None:
    game = load_content(ROOT / "content", ["thunder-road-ignition"]).game("thunder-road-ignition")
    engine = engine_of(game)
    t = play_and_tally(engine, game_content(game, engine), 0, 5, "random", 0)
    assert len(t.players) >= 2 and t.winners <= set(t.players)
    assert {k for _, k, _ in t.features} >= {"seat"}


def _stored(value: str) -> dict:
    """Findings as `roadkit balance --write` stores them, for one value at two settings."""
    def effect(setting: str, eff: float) -> dict:
        return {"setting": setting, "kind": "upgrade offered at the start", "value": value, "games": 120,
                "won": {"percent": 50.0, "low": 41.0, "high": 59.0, "games": 60}, "against": 50.0 - eff,
                "baseline": "games without it", "effect": eff, "interval": [eff - 10, eff + 10],
                "flagged": eff > 25}
    return {"version": "v1", "effects": [effect("rookie", 26.6), effect("normal", 20.8)]}


def test_a_rebalanced_house_design_keeps_its_findings_from_before_the_change() -> None:
    game = load_content(ROOT / "content").game("mission-drive")
    history = rebalanced(game, _stored("Side Cannons"), ["Side Cannons=range 2 -> 1 space"])
    [record] = history
    assert record["change"] == "range 2 -> 1 space" and record["before_version"] == "v1"
    assert [e["effect"] for e in record["before"]] == [26.6, 20.8]
    # a later write keeps the record while the findings it was measured against are replaced
    again = rebalanced(game, {"effects": [], "rebalanced": history}, [])
    assert again == history
    now = [{**e, "effect": 6.1, "interval": [-4.4, 16.7], "flagged": False} for e in _stored("Side Cannons")["effects"]]
    told = before_and_after(record, now)
    assert told[0] == "rookie: before +26.6 points (+16.6 to +36.6), finding, after +6.1 points (-4.4 to +16.7)"
    careful = careful_player({"plays": {"settings": [{"policy": "greedy", "setting": "rookie", "games": 10,
                                                      "results": {"won": {"games": 4}}}]},
                              "balance": {"effects": now, "rebalanced": history}})
    assert careful is not None
    [line] = careful.rebalanced
    assert "Side Cannons (our design) was changed: range 2 -> 1 space" in line
    assert "rookie: +26.6 (+16.6 to +36.6, a finding) before, +6.1 (\u22124.4 to +16.7) now" in line
    # an effect whose 95 % range leaves out 0 is marked even when the correction does not flag it
    assert "normal: +20.8 (+10.8 to +30.8, unclear) before" in line


@pytest.mark.parametrize(("change", "why"), [
    ("Blaster Drone=cost 3", "only a house design"),  # printed by the rulebook: reported, never changed
    ("Side Cannons", "expected NAME=WHAT CHANGED"),
    ("Tail Gun=range 1", "measure nothing by that name"),  # nothing stored for it
])
def test_a_rebalance_that_cannot_be_kept_is_refused(change: str, why: str) -> None:
    game = load_content(ROOT / "content").game("mission-drive")
    with pytest.raises(RebalanceError, match=why):
        rebalanced(game, _stored("Side Cannons"), [change])


def _three_seats(n: int, nobody: float, rng: random.Random) -> list[Tally]:
    """Three even seats, with a share of games nobody wins."""
    seats = ("A", "B", "C")
    out = []
    for _ in range(n):
        winners = frozenset() if rng.random() < nobody else frozenset({rng.choice(seats)})
        out.append(Tally("3 players", seats, winners,
                         [(p, "seat", f"{i + 1}") for i, p in enumerate(seats)]))
    return out


def test_a_seats_even_share_is_of_the_decided_games() -> None:
    """With a sixth of the games won by nobody, even seats win about 28 % of all games each: compared
    with 1 in 3 of every game they would be flagged; compared over the decided games they are not,
    and the games nobody won are their own line."""
    tallies = _three_seats(3000, 1 / 6, random.Random(4))
    measured = measure(tallies, "competitive")
    assert measured.effects and not any(e.flagged for e in measured.effects)
    decided = sum(1 for t in tallies if t.winners)
    assert all(e.games == decided and abs(e.against - 1 / 3) < 1e-9 for e in measured.effects)
    [line] = measured.undecided
    assert line["games"] == 3000 and line["nobody"]["games"] == 3000 - decided
    # the old comparison, every game against 1 in 3, would have called every seat weak
    for e in measured.effects:
        seat = "ABC"[int(e.value) - 1]
        assert rate(sum(1 for t in tallies if seat in t.winners), len(tallies)).high < 1 / 3


def test_the_corrected_interval_is_kept_beside_the_plain_one_and_decides_the_flag() -> None:
    found = measure(_seats(400, 0.58, random.Random(6)), "competitive").effects
    for e in found:
        assert e.wide_low <= e.low and e.wide_high >= e.high  # wider, around the same gap
        assert e.flagged == (e.wide_low > 0 or e.wide_high < 0)
        assert abs(e.level - (1 - 0.05 / len(found))) < 1e-12
        assert e.as_dict()["corrected"]["interval"] == [round(100 * e.wide_low, 1), round(100 * e.wide_high, 1)]
    assert {e.verdict for e in found} <= {"finding", "unclear", "noise"}
    unclear = [e for e in found if e.verdict == "unclear"]
    assert all((e.low > 0 or e.high < 0) and not e.flagged for e in unclear)


def test_a_setting_that_always_ends_alike_is_reported_once_and_left_out_of_the_correction() -> None:
    rng = random.Random(5)
    tallies = []
    for setting, p in (("easy", 0.5), ("impossible", 0.0)):
        for _ in range(300):
            card = rng.choice(["a", "b", "c"])
            won = rng.random() < p
            tallies.append(Tally(setting, ("me",), frozenset({"me"}) if won else frozenset(), [(None, "card", card)]))
    measured = measure(tallies, "solo")
    assert {e.setting for e in measured.effects} == {"easy"}
    assert measured.constant == [{"setting": "impossible", "games": 300, "won": False}]
    alone = measure([t for t in tallies if t.setting == "easy"], "solo")
    assert [e.level for e in measured.effects] == [e.level for e in alone.effects]  # the same family
