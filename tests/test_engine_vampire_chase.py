"""Vampire chase: what the scenarios cannot say on their own. The printed card text agrees with the
facts the engine reads; a new game follows the rulebook's setup; the speed check's rule function; the
ring geometry; the exact odds tables."""

from __future__ import annotations

import pickle
from fractions import Fraction
from typing import Any

import pytest

from generators.games.vampire_chase import GAME as VAMPIRE_CHASE
from generators.games.vampire_chase import facts as vc_facts
from generators.games.vampire_chase import results as vc_results
from generators.games.vampire_chase import speed as vc_speed
from generators.games.vampire_chase import state as vc_state
from generators.games.vampire_chase import words as vc_words
from generators.rules.chance import Chance
from generators.rules.facts import game_content
from tests.helpers import real_content

GAME = real_content().game("vampire-chase")
ENGINE = VAMPIRE_CHASE
FACTS = game_content(GAME, ENGINE)
LIB = FACTS.view(vc_facts.build_library)
GEAR_WHEN = {"play": "When you take PLAY", "move": "After you MOVE", "market": "When you take MARKET"}


def _faces(kind: type):
    for comp in GAME.components:
        for face in comp.faces:
            facts = next((f.facts for f in FACTS.components.get(comp.id, ()) if f.id == face.id), None)
            if isinstance(facts, kind):
                yield face, facts


def _fields(face) -> dict[str, str]:
    return {f.label: f.text for f in face.front.fields}


@pytest.mark.parametrize("face,facts", list(_faces(vc_facts.VampireCard)), ids=lambda v: getattr(v, "id", ""))
def test_vampire_card_text_is_its_facts(face, facts: vc_facts.VampireCard) -> None:
    fields = _fields(face)
    if facts.kind == "gear":
        assert GEAR_WHEN[facts.gear] in fields["Gear"] or not facts.effects
        assert vc_words.effects_text(facts.effects) in fields["Gear"]
        if facts.plays:
            assert f"up to {facts.plays} cards" in fields["Gear"]
    else:
        assert fields["Effect"] == (vc_words.effects_text(facts.effects) or "Speed only.")
        assert fields.get("Enhance", "") == vc_words.effects_text(facts.enhance)
        assert face.front.corner == ":speed: " + vc_words.speed_words(facts.speed)
    if facts.set == "advanced":
        assert face.front.corner_left == f"{facts.cost} :corpse:"


@pytest.mark.parametrize("face,facts", list(_faces(vc_facts.EnemyCard)), ids=lambda v: getattr(v, "id", ""))
def test_enemy_card_text_is_its_facts(face, facts: vc_facts.EnemyCard) -> None:
    texts = [f.text for f in face.front.fields]
    assert texts[0] == vc_words.enemy_text(facts.abilities)
    if facts.eot:
        assert texts[1] == vc_words.enemy_text(facts.eot)
    assert face.front.corner == f":heart: {facts.health}"
    marks = face.front.corner_left or ""
    assert (":late:" in marks) == (facts.timing == "late")
    assert (":ongoing:" in marks) == (facts.timing == "ongoing")
    assert (":final:" in marks) == facts.final
    assert (":crown:" in marks) == facts.boss
    assert face.back is not None and face.back.art is not None
    assert face.back.art.number == f"{facts.range[0]}–{facts.range[1]}"


def test_the_kit_has_the_rulebook_counts() -> None:
    for vampire in LIB.vampires():
        assert len(LIB.cards_of(vampire, "starter")) == 6  # Setup 3
        assert len(LIB.cards_of(vampire, "advanced")) == 15  # Setup 4
    for tier in (1, 2, 3):
        regular, bosses = LIB.tier_cards(tier)
        assert len(bosses) == 1 and len(regular) >= vc_facts.START_ENEMIES


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_new_game_follows_the_setup(seed: int) -> None:
    chance = Chance.seeded(seed)
    state = ENGINE.new_game(ENGINE.parse_options({"mission": "sunrise-run"}), FACTS, chance)
    assert [s.label for s in chance.log] == ["tier 1 reserve", "tier 2 reserve", "tier 3 reserve", "driver deck",
                                             "passenger deck", "market deck"]
    ring = vc_results.ring_view(state)
    assert ring[0] == "vehicle" and all(isinstance(e, dict) for e in ring[1:])
    assert all(LIB.enemies[e["card"]].tier == 1 and e["health"] == LIB.enemies[e["card"]].health for e in ring[1:])
    for tier in (1, 2, 3):
        assert LIB.enemies[state.reserves[tier][-1]].boss  # Setup 2: each boss at the bottom
        assert not any(LIB.enemies[c].boss for c in state.reserves[tier][:-1])
    assert len(state.reserves[1]) == 10 - 5
    assert len(state.market_row) == 3 and len(state.market_deck) == 27
    assert sorted(state.decks["driver"]) == sorted(LIB.cards_of("ilse", "starter"))
    assert (state.health, state.shield, state.corpses, state.phase) == (9, 0, 0, "shift")


def test_speed_check_damage_by_zones() -> None:
    assert vc_speed.speed_damage(1, (1, 2)) == 0
    assert vc_speed.speed_damage(2, (1, 2)) == 0
    assert vc_speed.speed_damage(3, (1, 2)) == 1
    assert vc_speed.speed_damage(1, (5, 6)) == 2 and vc_speed.speed_damage(6, (1, 2)) == 2
    assert vc_speed.speed_damage(4, (3, 3)) == 0  # same colour zone as the range
    assert vc_speed.speed_damage(1, (2, 5)) == 0 and vc_speed.speed_damage(6, (1, 3)) == 1
    assert vc_speed.reachable_speeds([(1,), (2, 3)]) == [3, 4]
    assert vc_speed.reachable_speeds([(-1, 2), (0,)], bonus=-3) == [1]  # clamped to segment 1
    assert vc_speed.reachable_speeds([(3,), (3,), (3,)]) == [6]


def test_printed_numbers_use_a_true_minus() -> None:
    assert vc_words.speed_words((-1, 2)) == "−1 / 2" and vc_words.speed_words((3,)) == "3"
    assert vc_words.effect_words(vc_facts.Effect("speed", -2)) == "−2 speed this turn."
    assert vc_words.effect_words(vc_facts.Effect("speed", 2)) == "+2 speed this turn."


def test_ring_geometry() -> None:
    assert vc_state.ring_distance(1, 4) == 3 and vc_state.ring_distance(6, 1) == 1 and vc_state.ring_distance(2, 5) == 3
    assert vc_state.neighbours(1) == (6, 2) and vc_state.clockwise_from(5) == [5, 6, 1, 2, 3, 4]


def test_odds_tables_are_exact_and_complete() -> None:
    tables = {t["id"]: t for t in ENGINE.odds_for(FACTS)}
    damage = tables["speed-check-damage"]
    assert len(damage["rows"]) == 6
    assert damage["rows"][0][1:] == ["no damage", "−1 HP", "−2 HP"]
    reach = tables["zone-reach-ilse-caspar"]
    assert list(tables)[1] == "zone-reach-ilse-caspar"  # the default pairing first
    for row in reach["rows"]:
        cells = [Fraction(c["fraction"]) for c in row[1:]]
        assert len(cells) == 3 and all(0 <= p <= 1 for p in cells)
    # Any hand reaches Cyan: one played card of speed 2 or less (every starter has one) sets the gauge there.
    assert all(Fraction(row[1]["fraction"]) == 1 for row in reach["rows"])
    # Five of Ilse's six starters always include a Floor It or two cards making 5: Dark Blue is certain.
    assert Fraction(reach["rows"][0][3]["fraction"]) == 1


def _played_to(seed: int, actions: int) -> Any:
    """A game of the first setting after `actions` random legal actions (or at its end)."""
    import random

    chance, rng = Chance.seeded(seed), random.Random(seed)
    state = ENGINE.new_game(ENGINE.parse_options({"mission": "red-mile"}), FACTS, chance)
    for _ in range(actions):
        if ENGINE.is_terminal(state):
            break
        state = ENGINE.play(state, rng.choice(ENGINE.legal_actions(state)), chance)[0]
    return state


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_resample_deals_only_what_the_player_cannot_see(seed: int) -> None:
    state = _played_to(seed, 12)
    before = pickle.dumps(state)
    world = ENGINE.resample(state, "player", Chance.seeded(seed + 100))
    assert pickle.dumps(state) == before  # the real state is untouched
    assert ENGINE.outcome(world, [])["ring"] == ENGINE.outcome(state, [])["ring"]
    assert (world.hand, world.market_row, world.discards, world.turn) == \
        (state.hand, state.market_row, state.discards, state.turn)
    for role in ("driver", "passenger"):
        assert sorted(world.decks[role]) == sorted(state.decks[role])  # the same cards, dealt again
        known = state.known_top[role]
        assert world.decks[role][:known] == state.decks[role][:known]  # bought cards stay on top
    assert sorted(world.market_deck) == sorted(state.market_deck)
    for tier, cards in state.reserves.items():
        assert sorted(world.reserves[tier]) == sorted(cards)
        if cards:
            assert LIB.enemies[world.reserves[tier][0]].range == LIB.enemies[cards[0]].range  # the back seen
            assert world.reserves[tier][-1] == cards[-1] or not LIB.enemies[cards[-1]].boss  # the boss stays


def test_resample_deals_a_deck_again() -> None:
    state = _played_to(1, 0)
    orders = {ENGINE.resample(state, "player", Chance.seeded(s)).market_deck for s in range(5)}
    assert len(orders) > 1


def test_a_bought_card_is_known_on_top_until_drawn() -> None:
    state = ENGINE.initial_state(ENGINE.parse_setup({
        "phase": "actions", "shifter": "play", "corpses": 2, "market_row": ["caspar-rend"],
        "passenger_deck": ["caspar-claw", "caspar-feed"]}), FACTS)
    bought, _ = ENGINE.apply(state, ENGINE.parse_action({"do": "buy", "card": "caspar-rend"}), Chance.seeded(1))
    assert bought.decks["passenger"][0] == "caspar-rend" and bought.known_top["passenger"] == 1
    for seed in range(4):
        assert ENGINE.resample(bought, "player", Chance.seeded(seed)).decks["passenger"][0] == "caspar-rend"


def test_evaluate_prefers_progress_and_health() -> None:
    state = _played_to(2, 3)
    rating = ENGINE.evaluate(state, "player")
    hurt = state.evolve(health=state.health - 2)
    assert ENGINE.evaluate(hurt, "player") < rating
    enemy_slot = next(s for s in range(1, 7) if state.ring[s] is not None)
    ring = list(state.ring)
    ring[enemy_slot] = None
    assert ENGINE.evaluate(state.evolve(ring=tuple(ring)), "player") > rating  # one enemy fewer
    won, lost = state.evolve(result="won"), state.evolve(result="lost")
    assert ENGINE.evaluate(won, "player") > ENGINE.evaluate(lost, "player")


def test_look_ahead_wins_more_than_random_play() -> None:
    from generators.play.simulate import play

    greedy = [play(ENGINE, FACTS, {"mission": "last-orders"}, s, "greedy").result["result"] for s in range(1, 9)]
    random_ = [play(ENGINE, FACTS, {"mission": "last-orders"}, s, "random").result["result"] for s in range(1, 9)]
    assert greedy.count("won") > random_.count("won")
