"""Дроноводи's engine beyond the shared contract: every card stays accounted for through whole games,
state copies share nothing mutable, setup follows the rulebook's numbers, odds are exact."""

from __future__ import annotations

import copy
import random
from collections import Counter
from dataclasses import fields, is_dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from generators.content.loader import load_content
from generators.engine import dronovody as D
from generators.engine.base import Chance, game_content

ROOT = Path(__file__).resolve().parent.parent
GAME = load_content(ROOT / "content", ["dronovody"]).game("dronovody")
CONTENT = game_content(GAME, D.GAME)


def every_card(s: D.State) -> Counter[str]:
    """Every card wherever it is: boards, hands, decks, piles, the Trench, the shop, the field, the box."""
    found: Counter[str] = Counter()
    for p in s.players.values():
        found.update([*p.crew, *p.hq, *p.hand, *p.defence, *p.trophies, *p.wounded, *p.dealt])
        found.update(d.card for d in p.warehouse)
        found.update(pr.card for pr in p.projects)
    for deck in s.decks.values():
        found.update([*deck.top, *deck.pool, *deck.bottom])
    for pile in s.discards.values():
        found.update(pile)
    found.update([*s.trench, *s.shop, *s.battlefield, *s.out_of_game])
    if s.turn is not None:
        found.update([*s.turn.bonus, *s.turn.recruit])
    return found


@pytest.mark.parametrize("options", [{"players": 1}, {"players": 4}, {"players": 2, "first_game": True},
                                     {"players": 3, "random_start": True, "istar": True, "horde": True,
                                      "fog_of_war": True, "extended_rotation": True}])
def test_every_card_is_somewhere_through_whole_games(options: dict[str, Any]) -> None:
    counts = Counter({f.id: f.count for comp in ("character-cards", "drone-cards", "support-cards",
                                                 "threat-cards") for f in CONTENT.faces(comp)})
    for seed in range(6):
        chance, policy = Chance.seeded(seed), random.Random(seed)
        s = D.GAME.new_game(D.GAME.parse_options(options), CONTENT, chance)
        while D.GAME.players_to_act(s):
            assert every_card(s) == counts
            player = policy.choice(D.GAME.players_to_act(s))
            s, _ = D.GAME.apply(s, policy.choice(D.GAME.legal_actions(s, player)), chance)
        assert every_card(s) == counts
        assert s.result in ("won", "lost")


def _mutables(value: Any, path: str = "state") -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    if isinstance(value, (list, dict)):
        out.append((path, value))
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for k, v in items:
            out += _mutables(v, f"{path}[{k!r}]")
    elif is_dataclass(value) and not value.__dataclass_params__.frozen and not isinstance(value, D.Catalogue):
        out.append((path, value))
        for f in fields(value):
            out += _mutables(getattr(value, f.name), f"{path}.{f.name}")
    return out


def test_a_state_copy_shares_nothing_mutable() -> None:
    chance, policy = Chance.seeded(5), random.Random(5)
    s = D.GAME.new_game(D.GAME.parse_options({"players": 3}), CONTENT, chance)
    for _ in range(60):  # into a turn, with Characters, drones and Projects about
        player = policy.choice(D.GAME.players_to_act(s))
        s, _ = D.GAME.apply(s, policy.choice(D.GAME.legal_actions(s, player)), chance)
    twin = copy.deepcopy(s)
    assert twin == s and twin.cat is s.cat
    shared = {id(v) for _, v in _mutables(s)} & {id(v) for _, v in _mutables(twin)}
    assert not shared, [p for p, v in _mutables(s) if id(v) in shared]


def test_setup_deals_the_rulebook_numbers() -> None:
    s = D.GAME.new_game(D.GAME.parse_options({"players": 3}), CONTENT, Chance.seeded(1))
    assert len(s.trench) == 9 and len(s.shop) == 3 and len(s.battlefield) == 9
    assert all(CONTENT.face("threat-cards", c).facts.distance == 1 for c in s.battlefield)
    assert all(CONTENT.face("threat-cards", c).facts.kind == "enemy" for c in s.battlefield)
    for p in s.players.values():
        assert p.logistics == 3 and p.crew == ["universal-pilot"] and [d.card for d in p.warehouse] == ["mavic"]
        assert len(p.dealt) == 5
    assert Counter(s.out_of_game) == {"universal-pilot": 1, "mavic": 1}


def test_odds_are_exact_and_match_the_rule_functions() -> None:
    tables = {t["id"]: t for t in D.GAME.odds()}
    needs5 = {row[0]: row for row in tables["drone-attack-5"]["rows"]}
    assert needs5["0"][1]["fraction"] == "1/3" and needs5["0"][2]["fraction"] == "5/9"
    assert needs5["-1"][1]["fraction"] == "1/6"  # the FPV example: only a 6 hits
    hits = sum(1 for d in D.D6 if D.attack_hits(d, -1, 5))
    assert Fraction(hits, 6) == Fraction(1, 6)
    defence = {row[0]: row for row in tables["defence-activation"]["rows"]}
    assert defence["3 different value(s) on the field"][1]["fraction"] == "1/2"
    assert defence["3 different value(s) on the field"][4]["fraction"] == "15/16"
