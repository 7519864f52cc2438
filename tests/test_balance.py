"""The balance report: effects measured against their baseline with intervals, outliers flagged only
outside the noise (after accounting for how many effects were measured), on made-up tallies whose
truth is known, and on a real game end to end."""

from __future__ import annotations

import random
from pathlib import Path

from generators.content.loader import load_content
from generators.engine.balance import Tally, effects, play_and_tally
from generators.engine.facts import game_content
from generators.engine.runner import engine_of

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
