"""Vampire chase: what the scenarios cannot say on their own. The printed card text agrees with the
facts the engine reads; a new game follows the rulebook's setup; the speed check's rule function; the
ring geometry; the exact odds tables."""

from __future__ import annotations

from fractions import Fraction

import pytest

from generators.content.loader import load_content
from generators.engine.chance import Chance
from generators.engine.facts import game_content
from generators.engine.vampire_chase import GAME as VAMPIRE_CHASE
from generators.engine.vampire_chase import facts as vc_facts
from generators.engine.vampire_chase import results as vc_results
from generators.engine.vampire_chase import speed as vc_speed
from generators.engine.vampire_chase import state as vc_state
from generators.engine.vampire_chase import words as vc_words
from tests.helpers import CONTENT

GAME = load_content(CONTENT).game("vampire-chase")
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
