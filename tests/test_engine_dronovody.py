"""Дроноводи's engine beyond the shared contract: every card stays accounted for through whole games,
state copies share nothing mutable, setup follows the rulebook's numbers, odds are exact, free actions
are offered to any player at any time (issue 25), and the hints work."""

from __future__ import annotations

import pickle
import random
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from generators.games.dronovody import GAME as G
from generators.games.dronovody import facts as F
from generators.games.dronovody.state import State
from generators.rules.chance import Chance
from generators.rules.facts import game_content
from tests.helpers import real_content

ROOT = Path(__file__).resolve().parent.parent
GAME = real_content().game("dronovody")
CONTENT = game_content(GAME, G)


def every_card(s: State) -> Counter[str]:
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
        s = G.new_game(G.parse_options(options), CONTENT, chance)
        while G.players_to_act(s):
            assert every_card(s) == counts
            player = policy.choice(G.players_to_act(s))
            s, _ = G.apply(s, policy.choice(G.legal_actions(s, player)), chance)
        assert every_card(s) == counts
        assert s.result in ("won", "lost")


def test_playing_an_action_changes_only_its_copy() -> None:
    chance, policy = Chance.seeded(5), random.Random(5)
    s = G.new_game(G.parse_options({"players": 3}), CONTENT, chance)
    for _ in range(200):  # turns, recruits, buys, sorties, threats and deals with three boards about
        if not G.players_to_act(s):
            break
        before = pickle.dumps(s)
        player = policy.choice(G.players_to_act(s))
        after, _ = G.play(s, policy.choice(G.legal_actions(s, player)), chance)
        assert pickle.dumps(s) == before
        assert "_own" not in after.__dict__ and after.cat is s.cat
        s = after


def test_setup_deals_the_rulebook_numbers() -> None:
    s = G.new_game(G.parse_options({"players": 3}), CONTENT, Chance.seeded(1))
    assert len(s.trench) == 9 and len(s.shop) == 3 and len(s.battlefield) == 9
    assert all(CONTENT.face("threat-cards", c).facts.distance == 1 for c in s.battlefield)
    assert all(CONTENT.face("threat-cards", c).facts.kind == "enemy" for c in s.battlefield)
    for p in s.players.values():
        assert p.logistics == 3 and p.crew == ["universal-pilot"] and [d.card for d in p.warehouse] == ["mavic"]
        assert len(p.dealt) == 5
    assert Counter(s.out_of_game) == {"universal-pilot": 1, "mavic": 1}


def test_odds_are_exact_and_match_the_rule_functions() -> None:
    tables = {t["id"]: t for t in G.odds_for(CONTENT)}
    needs5 = {row[0]: row for row in tables["drone-attack-5"]["rows"]}
    assert needs5["0"][1]["fraction"] == "1/3" and needs5["0"][2]["fraction"] == "5/9"
    assert needs5["-1"][1]["fraction"] == "1/6"  # the FPV example: only a 6 hits
    hits = sum(1 for d in F.D6 if F.attack_hits(d, -1, 5))
    assert Fraction(hits, 6) == Fraction(1, 6)
    defence = {row[0]: row for row in tables["defence-activation"]["rows"]}
    assert defence["3 different value(s) on the field"][1]["fraction"] == "1/2"
    assert defence["3 different value(s) on the field"][4]["fraction"] == "15/16"


def _scenario(setup: dict[str, Any]) -> State:
    return G.initial_state(G.parse_setup(setup), CONTENT)


TWO = [{"name": "Olena", "crew": ["universal-pilot"], "hand": ["donations"]},
       {"name": "Taras", "crew": ["universal-pilot"], "trophies": ["tank"], "hand": ["recon-report"]}]


def test_a_free_action_is_offered_in_another_players_turn() -> None:
    s = _scenario({"players": TWO, "trench": ["medic", "blogger"]})
    assert G.players_to_act(s) == ["Olena", "Taras"]
    taras = G.legal_data(s, "Taras")
    assert taras == [{"do": "exchange_trophy", "card": "tank", "player": "Taras"}]
    turn = G.parse_action({"do": "discard_support", "card": "recon-report", "player": "Taras"})
    assert "it is Olena's turn in the Management phase" in (G.refusal(s, turn) or "")
    after, _ = G.apply(s, G.parse_action(taras[0]), Chance())
    assert after.players["Taras"].logistics == 5 and after.turn is not None and after.turn.player == "Olena"
    assert G.players_to_act(after) == ["Olena"]  # one exchange a round: Taras has nothing left to do


def test_free_actions_after_ones_own_roll_but_not_while_hits_wait() -> None:
    s = _scenario({"players": [{**TWO[0], "crew": ["universal-pilot", "fpv-pilot"], "trophies": ["sniper"]},
                               TWO[1]], "trench": ["medic", "blogger"], "phase": "threat", "rolled": ["Olena"],
                   "field": ["tank"]})
    assert {a["do"] for a in G.legal_data(s, "Olena")} == {"exchange_trophy"}
    rolled, _ = G.apply(s, G.parse_action({"do": "defend", "player": "Taras"}), Chance.seeded(3))
    if rolled.pending:  # the Tank struck: its hit is placed before anyone's free action
        assert G.phase(rolled).id == "hits" and G.legal_actions(rolled, "Olena") == []
    assert G.phase(s).acts == "several"


def test_a_full_warehouse_may_discard_the_drone_just_bought() -> None:
    s = _scenario({"players": [{"name": "Olena", "logistics": 5, "crew": ["universal-pilot"],
                                "warehouse": ["mavic", "fpv-kit", "valkyrie"], "hand": ["donations"]}],
                   "trench": ["sapper"], "step": "action", "shop": ["fury"], "decks": {"drones": ["strike-wing"]}})
    s, _ = G.apply(s, G.parse_action({"do": "buy"}), Chance())
    discards = {a["discard"] for a in G.legal_data(s) if a["do"] == "take_drone" and a["card"] == "fury"}
    assert discards == {"fury", "mavic", "fpv-kit", "valkyrie"}


def test_the_hints_rate_and_redeal_without_changing_the_state() -> None:
    s = G.new_game(G.parse_options({"players": 2}), CONTENT, Chance.seeded(4))
    won, lost = s.changed(), s.changed()
    won.result, lost.result = "won", "lost"
    assert G.evaluate(won, "P1") > G.evaluate(s, "P1") > G.evaluate(lost, "P1")
    assert G.resample is not None
    orders = {tuple(G.resample(s, "P1", Chance.seeded(k)).trench) for k in range(8)}
    assert all(sorted(o) == sorted(s.trench) for o in orders) and len(orders) > 1



def test_the_rating_values_what_keeps_the_team_alive() -> None:
    """Issue 21: the look-ahead by the rating beat random play only once the rating priced the defence
    rolls to come: the enemies that wound, a Defence card against them, a drone ready to destroy them,
    and the wounded already taken."""
    def rated(field: tuple[str, ...] = ("sniper", "assault-group", "apc"), **olena: Any) -> float:
        player = {"name": "Olena", "crew": ["universal-pilot"], "hand": ["donations"], **olena}
        return G.evaluate(_scenario({"players": [player], "trench": ["medic", "blogger", "sapper"],
                                     "field": list(field), "step": "action"}), "Olena")

    base = rated()
    assert rated(("apc", "apc", "ifv")) > base  # no enemy on the field wounds anyone
    assert rated(defence=["bunker"]) > base  # the Sniper's hit on the Crew is cancelled this round
    # a drone its Pilot flies can destroy the Assault group; without a Pilot it cannot
    assert rated(warehouse=["mavic"]) > rated(warehouse=["mavic"], crew=["sapper"])
    assert rated(wounded=["engineer"]) < base
    assert rated(wounded=["engineer", "psychologist", "commander"]) < rated(wounded=["engineer"])
