"""Unit tests of the Mission: Drive rules model through the engine contract: set a state, apply typed
actions, assert (boardgame.io style); plus the content the engine reads, reachable setups, whole games
and the invariants of the later stages that random play-throughs seldom reach."""

from __future__ import annotations

import copy
import dataclasses
import itertools
import json
import pickle
import random
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from generators.build_system.errors import ContentError
from generators.check.runner import prepare
from generators.content.scenario import Scripted, load_scenarios
from generators.content.schema import to_data
from generators.games.mission_drive import GAME, MAX_ACTIONS
from generators.games.mission_drive.facts import (
    LEVELS,
    MISSION_SIDES,
    REWARD_POINTS,
    SLOTS,
    UPGRADES_REVEALED,
    Card,
    Facts,
    facts_of,
)
from generators.games.mission_drive.state import State
from generators.games.mission_drive.upgrades import EFFECTS
from generators.rules.chance import Chance, ChanceExhausted
from generators.rules.facts import GameContent, game_content
from generators.rules.refusals import IllegalAction, SetupError
from tests.engine_checks import check_state
from tests.helpers import real_content

ROOT = Path(__file__).resolve().parent.parent
MD = real_content().game("mission-drive")
CONTENT = game_content(MD, GAME)
FACTS = facts_of(CONTENT)
FIXTURES = ROOT / "tests" / "fixtures" / "scenarios" / "mission-drive"

FAR_ENEMY = {"type": "car", "at": [4, 10]}
DASHBOARD = {"left": ["left"], "center": ["forward"], "right": ["right"]}
TANK_PARTS = [
    {"id": "turret", "at": [0, 0], "vulnerable": True, "targets": [[0, -1], [0, -2]]},
    {"id": "left-track", "at": [-1, 0]},
    {"id": "right-track", "at": [1, 0], "vulnerable": True},
]
GREEN_COLUMN = [
    {"number": 1, "color": "green", "front": {"at": [2, 9]}, "back": {"at": [1, 9]}},
    {"number": 2, "color": "green", "front": {"at": [2, 8]}, "back": {"at": [3, 9]}},
    {"number": 3, "color": "green", "front": {"at": [3, 8]}, "back": {"at": [2, 10]}},
]
HERO_IDS = [fid for fid, card in FACTS.movement if card.kind == "hero"]


def state_of(content: GameContent = CONTENT, **setup: Any) -> State:
    return GAME.initial_state(GAME.parse_setup(setup), content)


def mission(**setup: Any) -> State:
    base: dict[str, Any] = {"enemies": [FAR_ENEMY], "dashboard": DASHBOARD, "deck": [["forward"]]}
    return state_of(**{**base, **setup})


def boss_fight(boss: dict[str, Any] | None = None, content: GameContent = CONTENT, **setup: Any) -> State:
    base: dict[str, Any] = {"phase": "boss", "dashboard": DASHBOARD, "deck": [["forward"]],
                            "boss": {"parts": TANK_PARTS, "column": GREEN_COLUMN, **(boss or {})}}
    return state_of(content, **{**base, **setup})


def act(data: dict[str, Any]) -> Any:
    return GAME.parse_action(data)


def play(state: State, *actions: dict[str, Any], script: list[Scripted] | None = None) -> tuple[State, list]:
    chance = Chance(list(script or []))
    events: list = []
    for action in actions:
        state, new = GAME.apply(state, act(action), chance)
        events += new
    assert not chance.unused, f"scripted results left over: {chance.unused}"
    return state, events


def out(state: State, key: str) -> Any:
    return GAME.outcome(state, [])[key]


def kinds(events: list) -> list[str]:
    return [e.kind for e in events]


def legal(state: State) -> list[dict[str, Any]]:
    return GAME.legal_data(state)


# --- setup ----------------------------------------------------------------------------------------


def test_defaults_come_from_the_content() -> None:
    s = mission()
    assert (s.lanes, s.rows) == (5, 12)  # two house road boards of 5 x 6
    assert s.hero == (2, 0)  # centre space on the edge nearest the player
    assert s.health_track == 6 and s.health == 5  # the dashboard's house health track
    assert out(s, "mission_status") == "playing"


@pytest.mark.parametrize(
    ("setup", "path", "text"),
    [
        ({"enemies": [{"type": "car", "at": [5, 0]}]}, ("enemies", 0, "at"), "off the road"),
        ({"enemies": [{"type": "car", "at": [2, 0]}]}, ("enemies", 0, "at"), "already occupies"),
        ({"civilians": [{"type": "car", "at": [1, 1], "damaged": True}]}, ("civilians", 0, "damaged"), "trucks"),
        ({"mission": 3, "cards": ["green", "pink"]}, ("cards",), "pink / pink"),
        ({"hero": {"health": 9}}, ("hero", "health"), "does not fit"),
        ({"health_track": 4, "hero": {"health": 4}}, ("hero", "health"), "does not fit"),
        ({"deck": [[]]}, ("deck", 0), "at least one arrow"),
        ({"phase": "upgrades"}, ("points",), "points"),
        ({"phase": "upgrades", "points": 8}, ("points",), "at most 7"),
        ({"phase": "upgrades", "points": 9, "reward": "rookie"}, ("points",), "at most 8"),
        ({"points": 3}, ("points",), "upgrade step"),
        ({"tokens": [{"kind": "rocket", "at": [1, 1]}]}, ("tokens",), "boss encounter"),
        ({"boss": {"parts": TANK_PARTS, "column": GREEN_COLUMN}}, ("boss",), "only the name"),
        ({"boss": {"name": "dragon"}}, ("boss", "name"), "no boss 'dragon'"),
        # counts beyond the box
        ({"enemies": [{"type": "truck", "at": [0, i]} for i in range(3)]}, ("enemies", 2), "only 2 enemy"),
        ({"enemies": [{"type": "car", "at": [0, i]} for i in range(5)],
          "destroyed": [{"side": "enemy", "type": "motorcycle"}] * 2}, ("destroyed", 1), "only 6 enemy"),
        ({"civilians": [{"type": "motorcycle", "at": [1, i]} for i in range(9)]}, ("civilians", 8), "only 8"),
        ({"deck": ["civilian", "civilian", "civilian"]}, ("deck", 2), "only 2 civilian"),
        ({"deck": [["back"]] * 12}, ("deck", 11), "only 14 hero"),
        ({"upgrades": [{"id": f"u{i}"} for i in range(4)], "offer": [{"id": f"o{i}"} for i in range(3)]},
         ("offer", 2), "at most 6"),
        ({"upgrades": [{"id": "repair-kit", "charges": 3}]}, ("upgrades", 0, "charges"), "2 charge spaces"),
        # progress the game cannot have made
        ({"dashboard": {"center": ["forward"]}}, ("dashboard", "left"), "refilled"),
        ({"laser_used": True}, ("laser_used",), "rookie"),
        ({"start_forward": 2}, ("start_forward",), "third mission"),
        ({"variant": "short", "mission": 2}, ("mission",), "one mission"),
        ({"mission": 2, "mission_deck": ["mission-a"]}, ("mission_deck",), "2 mission cards"),
        ({"mission_deck": ["mission-a", "mission-z"]}, ("mission_deck", 1), "no mission card"),
    ],
)
def test_unreachable_setups_are_refused_at_their_key(setup: dict[str, Any], path: tuple, text: str) -> None:
    with pytest.raises(SetupError) as caught:
        mission(**setup)
    assert caught.value.path == path
    assert text in caught.value.message


@pytest.mark.parametrize(
    ("boss", "setup", "path", "text"),
    [
        ({"parts": [{"id": "hull", "at": [0, 0]}]}, {}, ("boss", "parts"), "no part is vulnerable"),
        ({"column": [{**GREEN_COLUMN[0], "front": {"at": [0, 9]}}, *GREEN_COLUMN[1:]]}, {},
         ("boss", "column", 0, "front", "at"), "off the road"),
        ({"column": [{**GREEN_COLUMN[0], "front": {"at": [2, 9], "weapons": ["launch"]}}, *GREEN_COLUMN[1:]]}, {},
         ("boss", "column", 0, "front", "weapons", 0), "no launch card"),
        ({"weapons": {"target": "voltage-missile"}}, {}, ("boss", "weapons", "target"), "not a target weapon"),
        ({"damaged": ["turret", "left-track", "turret"]}, {}, ("boss", "damaged"), "one damage token at most"),
        ({"weapons": {"launch": "concussion-missile"}}, {"tokens": [{"kind": "rocket", "at": [0, 0]}] * 3},
         ("tokens", 2), "only 2 rocket"),
        ({}, {"enemies": [FAR_ENEMY]}, ("enemies",), "no vehicles"),
        ({}, {"deck": [["forward"], "enemy"]}, ("deck", 1), "back in the box at boss setup"),
        ({}, {"turn": "hero"}, ("boss", "at"), "give boss.at"),
        ({"column": [GREEN_COLUMN[1], GREEN_COLUMN[0], GREEN_COLUMN[2]]}, {}, ("boss", "column"), "1, 2, 3"),
    ],
)
def test_unreachable_boss_setups_are_refused(boss: dict[str, Any], setup: dict[str, Any], path: tuple,
                                             text: str) -> None:
    with pytest.raises(SetupError) as caught:
        boss_fight(boss, **setup)
    assert caught.value.path == path
    assert text in caught.value.message


def test_a_house_boss_waits_at_its_start_for_boss_setup() -> None:
    s = state_of(phase="boss", boss={"name": "tank"}, dashboard=DASHBOARD, deck=[["forward"], "enemy"])
    assert s.turn == "setup" and s.boss is not None and len(s.boss.cards) == 6
    with pytest.raises(SetupError, match="start space") as caught:
        state_of(phase="boss", boss={"name": "tank"}, dashboard=DASHBOARD, hero={"at": [2, 5]})
    assert caught.value.path == ("hero", "at")
    with pytest.raises(SetupError, match="not on the road yet"):
        state_of(phase="boss", boss={"name": "tank", "at": [1, 9]}, dashboard=DASHBOARD)


def _located(name: str) -> ContentError:
    [loaded] = load_scenarios([FIXTURES / f"{name}.yaml"], GAME)
    with pytest.raises(ContentError) as caught:
        prepare(GAME, CONTENT, loaded)
    return caught.value


@pytest.mark.parametrize(
    ("name", "line", "column", "keypath", "text"),
    [
        ("bad-enemy-card-in-boss-deck", 14, 21, "setup.deck[1]", "back in the box at boss setup"),
        ("bad-three-enemy-trucks", 13, 7, "setup.enemies[2]", "only 2 enemy tokens that can show a truck"),
        ("bad-boss-damage", 16, 5, "setup.boss.damaged", "only 4 boss damage tokens"),
    ],
)
def test_bad_setup_fixtures_are_located(name: str, line: int, column: int, keypath: str, text: str) -> None:
    err = _located(name)
    assert err.file.endswith(f"{name}.yaml")
    assert (err.line, err.column) == (line, column)
    assert str(err).split(": ")[1] == keypath
    assert text in err.message


# --- moving, mirrors, off-road ----------------------------------------------------------------------


def test_moving_follows_arrows_in_order() -> None:
    s = mission(dashboard={**DASHBOARD, "center": ["forward", "right", "right", "forward"]})
    s, _ = play(s, {"do": "move", "slot": "center"})
    assert s.hero == (4, 2)


def test_mirror_flips_left_and_right_and_is_used_up() -> None:
    s = mission(dashboard={**DASHBOARD, "center": ["left", "forward", "left"]})
    s, events = play(s, {"do": "move", "slot": "center", "mirror": True})
    assert s.hero == (4, 1)
    assert s.mirrors == {"left": True, "center": False, "right": True}
    assert "mirror_used" in kinds(events)
    with pytest.raises(IllegalAction, match="already face down") as caught:
        play(s, {"do": "move", "slot": "center", "mirror": True})
    assert caught.value.message == GAME.refusal(s, act({"do": "move", "slot": "center", "mirror": True}))
    assert {"do": "move", "slot": "center"} in legal(s)
    assert {"do": "move", "slot": "center", "mirror": True} not in legal(s)


def test_off_road_arrows_are_skipped_on_every_edge() -> None:
    s = mission(hero={"at": [0, 11]}, dashboard={**DASHBOARD, "center": ["left", "forward", "right"]})
    s, events = play(s, {"do": "move", "slot": "center"})
    assert s.hero == (1, 11)
    assert kinds(events).count("off_road") == 2
    assert s.damage_taken == 0


def test_empty_slot_is_illegal_and_only_the_full_slot_is_listed() -> None:
    s = mission(dashboard={"left": None, "center": ["forward"], "right": None}, deck=[])
    with pytest.raises(IllegalAction, match="holds no hero card"):
        play(s, {"do": "move", "slot": "left"})
    assert all(a.get("slot") == "center" for a in legal(s) if a["do"] in ("move", "brake"))


def test_apply_does_not_change_the_given_state() -> None:
    s = mission(enemies=[{"type": "car", "at": [2, 1]}, FAR_ENEMY])
    before = copy.deepcopy(s)
    play(s, {"do": "move", "slot": "center"})
    assert s == before


def test_apply_takes_typed_actions_only() -> None:
    with pytest.raises(IllegalAction, match="no such action"):
        GAME.apply(mission(), {"do": "move", "slot": "center"}, Chance())


# --- ramming --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("vtype", "hero_at", "vehicle_at", "damage", "destroyed"),
    [
        ("motorcycle", (2, 1), None, 0, 1),
        ("car", (2, 1), (2, 2), 1, 0),
        ("truck", (2, 0), (2, 1), 1, 0),
    ],
)
def test_ramming_by_vehicle_type(vtype: str, hero_at: tuple, vehicle_at: tuple | None, damage: int,
                                 destroyed: int) -> None:
    s = mission(civilians=[{"type": vtype, "at": [2, 1]}])
    s, _ = play(s, {"do": "move", "slot": "center"})
    assert s.hero == hero_at
    assert s.damage_taken == damage
    assert [v.at for v in s.vehicles if v.side == "civilian"] == ([vehicle_at] if vehicle_at else [])
    assert out(s, "destroyed")["civilian"]["total"] == destroyed


def test_rammed_car_is_crushed_against_another_vehicle() -> None:
    s = mission(enemies=[{"type": "car", "at": [2, 1]}, {"type": "truck", "at": [2, 2]}, FAR_ENEMY])
    s, events = play(s, {"do": "move", "slot": "center"})
    assert s.hero == (2, 1) and s.damage_taken == 1
    assert [e.data["by"] for e in events if e.kind == "vehicle_destroyed"] == ["crushed"]
    assert [v.type for v in s.vehicles] == ["truck", "car"]


def test_braking_rams_backwards_and_never_fires() -> None:
    s = mission(hero={"at": [2, 2]}, civilians=[{"type": "car", "at": [2, 1]}])
    s, _ = play(s, {"do": "brake", "slot": "center", "spaces": 1})
    assert s.hero == (2, 1) and s.damage_taken == 1
    assert [v.at for v in s.vehicles if v.side == "civilian"] == [(2, 0)]
    with pytest.raises(SetupError) as caught:
        act({"do": "brake", "slot": "left", "spaces": 1, "fire": "before"})
    assert caught.value.path == ("fire",)
    with pytest.raises(SetupError) as caught:
        act({"do": "brake", "slot": "left", "spaces": 3})
    assert caught.value.path == ("spaces",)


# --- firing ---------------------------------------------------------------------------------------


def test_each_slot_fires_its_own_direction() -> None:
    targets = {"left": (1, 0), "center": (2, 1), "right": (3, 0)}
    for slot, at in targets.items():
        s = mission(enemies=[{"type": "motorcycle", "at": list(at)}, FAR_ENEMY],
                    dashboard={**DASHBOARD, slot: ["back"]})
        s, _ = play(s, {"do": "move", "slot": slot, "fire": "before"})
        assert out(s, "destroyed")["enemy"]["motorcycle"] == 1, slot


def test_truck_needs_two_hits() -> None:
    s = mission(enemies=[{"type": "truck", "at": [2, 1]}, FAR_ENEMY], dashboard={**DASHBOARD, "center": ["back"]},
                deck=[["back"]])
    s, _ = play(s, {"do": "move", "slot": "center", "fire": "before"})
    assert [v.damaged for v in s.vehicles if v.type == "truck"] == [True]
    s, _ = play(s, {"do": "move", "slot": "center", "fire": "before"})
    assert out(s, "destroyed")["enemy"]["truck"] == 1


# --- drawing cards: enemy and civilian cards ----------------------------------------------------


def test_enemy_card_waits_for_a_target_and_lists_the_legal_ones() -> None:
    s = mission(enemies=[{"type": "car", "at": [3, 1]}, FAR_ENEMY], civilians=[{"type": "car", "at": [3, 2]}],
                deck=["enemy", ["left"]])
    s, _ = play(s, {"do": "move", "slot": "center"})
    assert out(s, "pending") == "enemy-card"
    assert legal(s) == [{"do": "enemy_fire", "target": [2, 1]}, {"do": "enemy_fire", "target": [3, 2]}]
    with pytest.raises(IllegalAction, match="a drawn enemy card is resolved before anything else"):
        play(s, {"do": "move", "slot": "left"})
    with pytest.raises(IllegalAction, match="not a civilian or the hero"):
        play(s, {"do": "enemy_fire", "target": [4, 10]})
    s, _ = play(s, {"do": "enemy_fire", "target": [3, 2]})
    assert out(s, "destroyed")["civilian"]["car"] == 1
    assert s.slots["center"] == Card("hero", ("left",))


def test_civilian_card_needs_an_empty_adjacent_space() -> None:
    s = mission(civilians=[{"type": "car", "at": [0, 5]}], enemies=[{"type": "car", "at": [0, 6]}, FAR_ENEMY],
                deck=["civilian"])
    s, _ = play(s, {"do": "move", "slot": "center"})
    with pytest.raises(IllegalAction, match="cannot move there") as caught:
        play(s, {"do": "civilian_move", "civilian": [0, 5], "to": [0, 6]})
    assert caught.value.message.startswith("that civilian cannot move there")
    assert {"do": "civilian_move", "civilian": [0, 5], "to": [0, 4]} in legal(s)
    assert {"do": "civilian_move", "civilian": [0, 5], "to": [0, 6]} not in legal(s)
    s, _ = play(s, {"do": "civilian_move", "civilian": [0, 5], "to": [1, 5]})
    assert s.slots["center"] is None and out(s, "mission_status") == "playing"


# --- mid-action choices: listed with the actions --------------------------------------------------


def test_uplink_energy_choices_are_part_of_the_listed_actions() -> None:
    s = mission(mission=3, hero={"health": 3}, uplinks=[[2, 1]], upgrades=[{"id": "nitro", "charge_spaces": 1}])
    centre = [a for a in legal(s) if a["do"] == "move" and a["slot"] == "center"]
    assert {"do": "move", "slot": "center", "energy": ["health"]} in centre
    assert {"do": "move", "slot": "center", "energy": [{"charge": "nitro"}]} in centre
    assert not any("energy" not in a for a in centre), "every centre move crosses the up-link"
    with pytest.raises(IllegalAction, match="choose the up-link's energy") as caught:
        play(s, {"do": "move", "slot": "center"})
    assert "health" in caught.value.message and "nitro" in caught.value.message
    s2, _ = play(s, {"do": "move", "slot": "center", "energy": [{"charge": "nitro"}]})
    assert (s2.health, s2.upgrades[0].charges, s2.uplinks) == (3, 1, [])


def test_a_choice_with_one_possibility_is_still_written_and_one_never_met_is_refused() -> None:
    s = mission(mission=3, hero={"health": 3}, uplinks=[[2, 1]])
    assert [a for a in legal(s) if a["do"] == "move" and a["slot"] == "center" and "fire" not in a
            and "mirror" not in a] == [{"do": "move", "slot": "center", "energy": ["health"]}]
    with pytest.raises(IllegalAction, match="never asks for an energy payment"):
        play(s, {"do": "move", "slot": "left", "energy": ["health"]})


def test_uplink_energy_is_lost_when_nothing_can_take_it() -> None:
    s, events = play(mission(mission=3, uplinks=[[2, 1]]), {"do": "move", "slot": "center"})
    assert "energy_unused" in kinds(events) and s.uplinks == []


def test_two_uplinks_in_one_move_give_every_combination() -> None:
    s = mission(mission=3, hero={"health": 3}, uplinks=[[2, 1], [2, 2]], upgrades=[{"id": "nitro", "charge_spaces": 2}],
                dashboard={**DASHBOARD, "center": ["forward", "forward"]})
    energies = [a["energy"] for a in legal(s) if a["do"] == "move" and a["slot"] == "center" and len(a) == 3]
    options = ["health", {"charge": "nitro"}]
    assert energies == [list(p) for p in itertools.product(options, options)]


def test_electric_shock_discards_are_listed_with_the_boss_turn() -> None:
    s = boss_fight({"at": [2, 8], "weapons": {"target": "lightning-coils"},
                    "column": [{**GREEN_COLUMN[0], "color": "pink", "front": {"at": [2, 8], "weapons": ["target"]}},
                               *GREEN_COLUMN[1:]]},
                   hero={"at": [2, 7]}, upgrades=[{"id": "nitro", "charge_spaces": 2, "charges": 1},
                                                 {"id": "radar", "device": True}])
    assert legal(s) == [{"do": "boss_turn", "discard": [{"charge": "nitro"}]},
                        {"do": "boss_turn", "discard": [{"card": "radar"}]}]
    s, _ = play(s, {"do": "boss_turn", "discard": [{"card": "radar"}]})
    assert s.hero == (2, 5) and [u.id for u in s.upgrades] == ["nitro"]


def test_boss_landing_on_the_hero_lists_where_it_can_go() -> None:
    s = boss_fight(hero={"at": [2, 9]})
    assert legal(s) == [{"do": "boss_turn", "hero_to": [2, 10]}, {"do": "boss_turn", "hero_to": [2, 8]}]
    with pytest.raises(IllegalAction, match="choose where the hero goes"):
        play(s, {"do": "boss_turn"})
    with pytest.raises(IllegalAction, match="not possible"):
        play(s, {"do": "boss_turn", "hero_to": [1, 9]})
    with pytest.raises(SetupError, match="list of 2"):  # a space is [column, row]: the action's type says so
        play(s, {"do": "boss_turn", "hero_to": [2, 8, 1]})


def _with_every_effect() -> State:
    """A mission with an upgrade of each effect kind, a used mirror, a civilian and an up-link, and a
    double-shot in effect: every kind of use is listed."""
    s = mission(mission=3, upgrades=[{"id": uid, "charges": 1 if FACTS.upgrades[uid].charge_spaces else 0}
                                     for uid in ("side-cannons", "nitro-burst", "mirror-gyro", "nav-computer",
                                                 "loudhailer", "twin-triggers")],
                mirrors={"left": False}, civilians=[{"type": "car", "at": [2, 2]}], uplinks=[[2, 1]],
                hero={"health": 4})
    s, _ = play(s, {"do": "use_upgrade", "upgrade": "twin-triggers", "pay": "charge"})
    return s


@pytest.mark.parametrize("build", [
    lambda: mission(mission=3, hero={"health": 3}, uplinks=[[2, 1], [1, 0]], reward="rookie",
                    upgrades=[{"id": "nitro", "charge_spaces": 2, "charges": 1}, {"id": "radar", "device": True}]),
    lambda: boss_fight({"at": [2, 9], "weapons": {"launch": "voltage-missile"}}, turn="hero", hero={"at": [2, 6]},
                       tokens=[{"kind": "rocket", "at": [2, 7]}],
                       upgrades=[{"id": "nitro", "charge_spaces": 2, "charges": 2}, {"id": "radar", "device": True}]),
    lambda: boss_fight(hero={"at": [2, 9]}),
    lambda: _with_every_effect(),
], ids=["uplinks", "voltage-rocket", "boss-lands", "every-effect"])
def test_hand_built_states_keep_the_contract(build: Any) -> None:
    check_state(GAME, build(), random.Random(3), deep=True)


# --- uplinks, upgrades, laser strike ----------------------------------------------------------------


def test_using_upgrades() -> None:
    s = mission(upgrades=[{"id": "nitro", "charge_spaces": 2, "charges": 1}])
    assert [a for a in legal(s) if a["do"] == "use_upgrade"] == [
        {"do": "use_upgrade", "upgrade": "nitro", "pay": "charge"},
        {"do": "use_upgrade", "upgrade": "nitro", "pay": "discard"}]
    s, _ = play(s, {"do": "use_upgrade", "upgrade": "nitro", "pay": "charge"})
    assert s.upgrades[0].charges == 0
    with pytest.raises(IllegalAction, match="no charge left"):
        play(s, {"do": "use_upgrade", "upgrade": "nitro", "pay": "charge"})
    s, _ = play(s, {"do": "use_upgrade", "upgrade": "nitro", "pay": "discard"})
    assert s.upgrades == []


def test_upgrades_named_by_card_read_their_values_from_the_content() -> None:
    s = mission(upgrades=[{"id": "repair-kit", "charges": 1}], offer=[{"id": "mirror-gyro"}])
    card = FACTS.upgrades["repair-kit"]
    assert (s.upgrades[0].cost, s.upgrades[0].charge_spaces, s.upgrades[0].effect) == (card.cost, card.charge_spaces,
                                                                                       card.effect)
    assert s.offer[0].device is FACTS.upgrades["mirror-gyro"].device is True


# --- the house upgrades: effects, their choices and how long they last --------------------------------

ALL_UPGRADES = [{"id": uid, "charges": 1 if FACTS.upgrades[uid].charge_spaces else 0}
                for uid in ("side-cannons", "nitro-burst", "mirror-gyro", "nav-computer", "loudhailer", "deflector")]


def _uses(state: State, upgrade: str) -> list[dict[str, Any]]:
    return [a for a in legal(state) if a["do"] == "use_upgrade" and a["upgrade"] == upgrade]


def test_every_house_upgrade_has_an_effect_and_a_scenario_that_uses_it() -> None:
    paths = sorted((ROOT / "content" / "mission-drive" / "examples").glob("*.yaml"))
    used = {a["upgrade"] for sc in load_scenarios(paths, GAME, rule_ids=[r.id for r in MD.rules])
            for a in map(to_data, sc.scenario.actions) if a["do"] == "use_upgrade"}
    assert len(FACTS.upgrades) == 15
    assert set(FACTS.upgrades) <= used, f"no scenario uses {sorted(set(FACTS.upgrades) - used)}"
    kinds_used = {u.effect.kind for u in FACTS.upgrades.values()}
    assert kinds_used == set(EFFECTS), f"effects no card has: {set(EFFECTS) - kinds_used}"


def test_upgrade_faces_print_what_the_engine_reads() -> None:
    comp = next(c for c in MD.components if c.id == "upgrade-cards")
    for face in comp.faces:
        card, front = FACTS.upgrades[face.id], face.front
        fields = {f.label: f.text for f in front.fields}
        assert front.provenance == "house" and front.corner_left == str(card.cost), face.id
        assert fields["Cost"] == f"{card.cost} point{'s' if card.cost != 1 else ''}", face.id
        assert fields["Charge spaces"].split(" ")[0] == (str(card.charge_spaces) if card.charge_spaces else "none")
        assert ("Device" in fields) == card.device == ("device" in (front.subtitle or "")), face.id


def test_the_rules_page_table_matches_the_cards() -> None:
    body = (ROOT / "content" / "mission-drive" / "rules" / "upgrades.md").read_text(encoding="utf-8")
    rows = {}
    for line in body.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 4 and cells[1].isdigit():
            rows[cells[0]] = cells
    comp = next(c for c in MD.components if c.id == "upgrade-cards")
    assert len(rows) == len(comp.faces)
    for face in comp.faces:
        card = FACTS.upgrades[face.id]
        name = face.front.title + (" *(device)*" if card.device else "")
        assert rows[name][1:3] == [str(card.cost), str(card.charge_spaces)], face.id


def test_effect_choices_are_listed_and_only_where_they_do_something() -> None:
    s = mission(upgrades=ALL_UPGRADES, civilians=[{"type": "car", "at": [0, 0]}])
    assert [(a["pay"], a["direction"]) for a in _uses(s, "side-cannons")] == [
        ("charge", "left"), ("charge", "right"), ("discard", "left"), ("discard", "right")]
    assert _uses(s, "mirror-gyro") == []  # every mirror is face up: nothing to turn
    assert [a["slot"] for a in _uses(s, "nav-computer")] == ["left", "center", "right"] * 2
    assert [(a["civilian"], a["to"]) for a in _uses(s, "loudhailer")] == [([0, 0], [0, 1]), ([0, 0], [1, 0])] * 2
    assert [a for a in _uses(s, "deflector")] == [{"do": "use_upgrade", "upgrade": "deflector", "pay": "charge"},
                                                  {"do": "use_upgrade", "upgrade": "deflector", "pay": "discard"}]
    s = mission(upgrades=ALL_UPGRADES, mirrors={"center": False}, mission=3, uplinks=[[2, 1]], hero={"health": 4})
    assert [a["slot"] for a in _uses(s, "mirror-gyro")] == ["center", "center"]
    shifts = _uses(s, "nitro-burst")
    assert all(a["direction"] == "forward" and len(a["energy"]) == 1 for a in shifts)
    # Paid with its charge, the nitro burst itself has a free space for the up-link's energy; discarded, it is gone.
    assert {"do": "use_upgrade", "upgrade": "nitro-burst", "pay": "charge", "direction": "forward",
            "energy": [{"charge": "nitro-burst"}]} in shifts
    assert not any(a["pay"] == "discard" and a["energy"] == [{"charge": "nitro-burst"}] for a in shifts)
    assert sum(a["energy"] == ["health"] for a in shifts) == 2


@pytest.mark.parametrize(("use", "text"), [
    ({"upgrade": "side-cannons", "direction": "forward"}, "left or right, not forward"),
    ({"upgrade": "side-cannons"}, "needs a direction"),
    ({"upgrade": "mirror-gyro", "direction": "left", "slot": "left"}, "takes no direction"),
    ({"upgrade": "nav-computer", "slot": "left", "civilian": [0, 0]}, "takes no civilian to move"),
    ({"upgrade": "nitro", "slot": "left"}, "an upgrade with no effect"),
])
def test_effect_choices_that_do_not_fit_are_refused(use: dict[str, Any], text: str) -> None:
    s = mission(upgrades=[*ALL_UPGRADES[:5], {"id": "nitro", "charge_spaces": 1, "charges": 1}])
    with pytest.raises(IllegalAction, match=text):
        play(s, {"do": "use_upgrade", "pay": "charge", **use})


def test_this_turn_effects_last_through_the_refill_and_end_with_the_turn() -> None:
    s = mission(enemies=[{"type": "car", "at": [3, 0]}, FAR_ENEMY], civilians=[{"type": "car", "at": [0, 5]}],
                upgrades=[{"id": "signal-jammer", "charges": 2}], deck=["civilian", "enemy", ["forward"], "enemy"])
    s, _ = play(s, {"do": "use_upgrade", "upgrade": "signal-jammer", "pay": "charge"})
    s, _ = play(s, {"do": "brake", "slot": "left", "spaces": 0})
    assert s.pending is not None and s.pending.kind == "civilian" and s.effects == ["jam"]
    s, events = play(s, {"do": "civilian_move", "civilian": [0, 5], "to": [0, 6]})
    assert "enemy_card_jammed" in kinds(events) and s.effects == [] and s.slots["left"] == Card("hero", ("forward",))
    s, _ = play(s, {"do": "brake", "slot": "center", "spaces": 0})  # next turn: the enemy card fires again
    assert s.pending is not None and s.pending.kind == "enemy"


def test_a_redraw_keeps_the_turn_effects_while_its_traffic_card_is_resolved() -> None:
    s = mission(enemies=[{"type": "car", "at": [2, 1]}, FAR_ENEMY], civilians=[{"type": "car", "at": [0, 5]}],
                upgrades=[{"id": "ram-plate", "charges": 1}, {"id": "nav-computer", "charges": 1}],
                deck=["civilian", ["forward"], ["back"]])
    s, _ = play(s, {"do": "use_upgrade", "upgrade": "ram-plate", "pay": "charge"},
                {"do": "use_upgrade", "upgrade": "nav-computer", "pay": "charge", "slot": "right"},
                {"do": "civilian_move", "civilian": [0, 5], "to": [0, 6]})
    assert s.effects == ["ram-proof"] and s.slots["right"] == Card("hero", ("forward",)) and s.turns == 0
    s, events = play(s, {"do": "move", "slot": "right"})  # forward into the car at [2, 1]: pushed, no damage
    assert s.effects == [] and s.turns == 1 and s.damage_taken == 0 and "damage_prevented" in kinds(events)


def test_a_shield_ends_with_the_turn_in_a_mission_and_after_the_boss_turn_against_the_boss() -> None:
    s = mission(upgrades=[{"id": "deflector", "charges": 1}])
    s, _ = play(s, {"do": "use_upgrade", "upgrade": "deflector", "pay": "charge"})
    assert s.shield == 1
    s, events = play(s, {"do": "brake", "slot": "left", "spaces": 0})
    assert s.shield == 0 and "shield_ended" in kinds(events)
    s = boss_fight({"at": [2, 9]}, turn="hero", hero={"at": [2, 5]}, upgrades=[{"id": "deflector", "charges": 1}])
    s, _ = play(s, {"do": "use_upgrade", "upgrade": "deflector", "pay": "charge"},
                {"do": "brake", "slot": "left", "spaces": 0})
    assert s.shield == 1 and s.turn == "boss"
    s, events = play(s, {"do": "boss_turn"})
    assert s.shield == 0 and s.turn == "hero" and "shield_ended" in kinds(events)


def test_a_shield_prevents_a_ram_and_ram_proof_leaves_it_unspent() -> None:
    s = mission(enemies=[{"type": "truck", "at": [2, 1]}, FAR_ENEMY], upgrades=[{"id": "deflector", "charges": 1},
                                                                              {"id": "ram-plate", "charges": 1}])
    shielded, _ = play(s, {"do": "use_upgrade", "upgrade": "deflector", "pay": "charge"})
    after, events = play(shielded, {"do": "move", "slot": "center"})
    assert after.damage_taken == 0 and [e.data["by"] for e in events if e.kind == "damage_prevented"] == ["shield"]
    both, _ = play(shielded, {"do": "use_upgrade", "upgrade": "ram-plate", "pay": "charge"})
    after, events = play(both, {"do": "move", "slot": "center"})
    assert [e.data["by"] for e in events if e.kind == "damage_prevented"] == ["ram-proof"]
    assert "shield_ended" in kinds(events)  # unspent, and gone with the turn


def test_upgrade_shots_and_moves_can_end_the_mission() -> None:
    s = mission(enemies=[{"type": "motorcycle", "at": [2, 1]}], upgrades=[{"id": "nitro-burst", "charges": 1}])
    s, _ = play(s, {"do": "use_upgrade", "upgrade": "nitro-burst", "pay": "charge", "direction": "forward"})
    assert (s.mission_status, s.hero, s.turns) == ("accomplished", (2, 1), 0)
    assert [a["do"] for a in legal(s)] == ["score"]


def test_an_upgrade_shot_stops_at_the_road_edge_and_at_the_boss() -> None:
    s = mission(hero={"at": [4, 3]}, upgrades=[{"id": "side-cannons", "charges": 1}])
    s, events = play(s, {"do": "use_upgrade", "upgrade": "side-cannons", "pay": "charge", "direction": "right"})
    assert "shot_missed" in kinds(events)
    s = boss_fight({"at": [2, 9]}, turn="hero", hero={"at": [2, 6]}, upgrades=[{"id": "rocket-pod", "charges": 1}])
    s, events = play(s, {"do": "use_upgrade", "upgrade": "rocket-pod", "pay": "charge", "direction": "forward"})
    assert s.boss is not None and s.boss.damaged == ["turret"]


def test_effects_do_not_outlive_the_mission() -> None:
    s = mission(enemies=[{"type": "motorcycle", "at": [2, 1]}], upgrades=[{"id": "deflector", "charges": 1},
                                                                        {"id": "twin-triggers", "charges": 1}])
    s, _ = play(s, {"do": "use_upgrade", "upgrade": "deflector", "pay": "charge"},
                {"do": "use_upgrade", "upgrade": "twin-triggers", "pay": "charge"},
                {"do": "move", "slot": "center"})
    assert s.mission_status == "accomplished"
    s, _ = play(s, {"do": "score"}, {"do": "finish"})
    assert (s.effects, s.shield) == ([], 0)


def test_laser_strike_only_at_rookie_level_and_once() -> None:
    with pytest.raises(IllegalAction, match="rookie"):
        play(mission(reward="normal"), {"do": "laser_strike", "target": [4, 10]})
    s = mission(reward="rookie", enemies=[FAR_ENEMY, {"type": "truck", "at": [0, 9]}])
    assert {"do": "laser_strike", "target": [0, 9]} in legal(s)
    s, _ = play(s, {"do": "laser_strike", "target": [0, 9]})
    assert out(s, "destroyed")["enemy"]["truck"] == 1  # destroyed outright, not just damaged
    with pytest.raises(IllegalAction, match="already been used"):
        play(s, {"do": "laser_strike", "target": [4, 10]})
    assert not any(a["do"] == "laser_strike" for a in legal(s))


# --- mission ending and scoring -------------------------------------------------------------------


def test_immobilization_stops_the_move_at_once() -> None:
    s = mission(hero={"health": 1}, enemies=[{"type": "truck", "at": [2, 1]}, {"type": "motorcycle", "at": [1, 0]}],
                dashboard={**DASHBOARD, "center": ["forward", "left"]})
    s, events = play(s, {"do": "move", "slot": "center"})
    assert (out(s, "mission_status"), out(s, "game")) == ("immobilization", "lost")
    assert s.hero == (2, 0) and len(s.vehicles) == 2
    assert legal(s) == [] and GAME.players_to_act(s) == []
    assert kinds(events)[-2:] == ["mission_ended", "game_over"]


def test_exhaustion_when_no_hero_card_is_left() -> None:
    s = mission(dashboard={"center": ["forward"]}, deck=[])
    s, _ = play(s, {"do": "move", "slot": "center"})
    assert out(s, "mission_status") == "exhaustion"


@pytest.mark.parametrize(("reward", "civilians", "laser", "score", "points"),
                         [("rookie", 0, False, 8, 8), ("normal", 2, False, 5, 5), ("rookie", 1, True, 7, 6),
                          ("expert", 7, False, 0, 0)])
def test_scoring(reward: str, civilians: int, laser: bool, score: int, points: int) -> None:
    s = mission(reward=reward, enemies=[], laser_used=laser,
                destroyed=[{"side": "civilian", "type": "car"}] * civilians + [{"side": "enemy", "type": "car"}])
    assert legal(s) == [{"do": "score"}]
    s, _ = play(s, {"do": "score"})
    assert (s.score, s.points, s.phase, s.missions_accomplished, s.total_score) == (score, points, "upgrades", 1,
                                                                                     score)


def test_repairs_spend_options_list_every_amount_and_lost_points() -> None:
    s = state_of(phase="upgrades", points=2, hero={"health": 2}, offer=[{"id": "armour", "cost": 3}],
                 upgrades=[{"id": "nitro", "charge_spaces": 1}])
    assert legal(s) == [{"do": "spend", "buy": "health"}, {"do": "spend", "buy": "health", "times": 2},
                        {"do": "spend", "buy": "charge", "upgrade": "nitro"}, {"do": "finish"}]
    with pytest.raises(IllegalAction, match="3 health cost 3 points and only 2 points left"):
        play(s, {"do": "spend", "buy": "health", "times": 3})
    with pytest.raises(IllegalAction, match="costs 3 points and only 2 points left"):
        play(s, {"do": "spend", "buy": "install", "upgrade": "armour"})
    with pytest.raises(IllegalAction, match="only 1 empty charge space"):
        play(s, {"do": "spend", "buy": "charge", "upgrade": "nitro", "times": 2})
    with pytest.raises(IllegalAction, match="after the third mission"):
        play(s, {"do": "spend", "buy": "start_forward"})
    s, _ = play(s, {"do": "finish"})
    assert (s.points, s.points_lost, s.phase, s.mission) == (0, 2, "next-mission", 2)
    assert legal(s) == [{"do": "start_mission"}]


def test_start_forward_only_after_the_third_mission_and_at_most_four() -> None:
    early = state_of(phase="upgrades", points=5, mission=2)
    assert not any(a["buy"] == "start_forward" for a in legal(early) if a["do"] == "spend")
    late = state_of(phase="upgrades", points=6, mission=3)
    late, _ = play(late, {"do": "spend", "buy": "start_forward", "times": 4})
    assert not any(a.get("buy") == "start_forward" for a in legal(late))
    with pytest.raises(IllegalAction):
        play(late, {"do": "spend", "buy": "start_forward"})
    late, _ = play(late, {"do": "finish"})
    assert (late.phase, late.hero) == ("boss-setup", (2, 4))
    assert legal(late) == [{"do": "boss_setup"}]


def test_short_game_wins_on_the_last_enemy() -> None:
    s = mission(variant="short", enemies=[{"type": "motorcycle", "at": [2, 1]}])
    s, _ = play(s, {"do": "move", "slot": "center"})
    assert (out(s, "mission_status"), out(s, "game")) == ("accomplished", "won")
    assert legal(s) == [] and GAME.result(s)["missions"] == 1


# --- the boss -------------------------------------------------------------------------------------


def _cards(pink_weapons: dict[int, list[str]]) -> list[dict[str, Any]]:
    pink = [{"number": n, "color": "pink", "front": {"at": c["front"]["at"], "weapons": pink_weapons.get(n, [])},
             "back": c["back"]} for n, c in zip((1, 2, 3), GREEN_COLUMN, strict=True)]
    return GREEN_COLUMN + pink


def test_boss_setup_uses_difficulty_and_labelled_chance() -> None:
    s = boss_fight({"column": [], "cards": _cards({1: ["target"], 2: ["drone"]})}, difficulty="rookie",
                   deck=[["forward"], "enemy", "civilian"])
    assert legal(s) == [{"do": "boss_setup"}]
    with pytest.raises(IllegalAction, match="scripted pink boss cards"):
        play(s, {"do": "boss_setup"}, script=[Scripted("pink boss cards", [1, 2])])  # rookie: one pink card
    with pytest.raises(ChanceExhausted):
        play(s, {"do": "boss_setup"}, script=[Scripted("pink boss cards", [2])])  # a drone card is drawn too
    s, _ = play(s, {"do": "boss_setup"},
                script=[Scripted("pink boss cards", [2]), Scripted("drone weapon card", "smoke-drone")])
    assert [(c.number, c.color) for c in s.boss.column] == [(1, "green"), (2, "pink"), (3, "green")]
    assert s.boss.weapons == {"drone": "smoke-drone"}
    assert [c.kind for c in s.deck] == ["hero"]


def test_expert_boss_setup_leaves_nothing_to_chance_for_the_pink_cards() -> None:
    s = state_of(phase="boss", difficulty="expert", boss={"name": "tank"}, dashboard=DASHBOARD,
                 deck=[["forward"]])
    s, _ = play(s, {"do": "boss_setup"}, script=[Scripted("target weapon card", "laser"),
                                                 Scripted("launch weapon card", "voltage-missile")])
    assert [c.color for c in s.boss.column] == ["pink"] * 3
    with pytest.raises(SetupError, match="expert boss difficulty uses 3") as caught:
        boss_fight({"column": [], "cards": _cards({}), "pink": [1]}, difficulty="expert")
    assert caught.value.path == ("boss", "pink")


def test_boss_turns_alternate_with_the_hero() -> None:
    s = boss_fight()
    with pytest.raises(IllegalAction, match="not the hero's turn"):
        play(s, {"do": "move", "slot": "center"})
    s, _ = play(s, {"do": "boss_turn"})
    assert s.turn == "hero" and legal(s)[0]["do"] == "move"
    s, _ = play(s, {"do": "brake", "slot": "left", "spaces": 0})
    assert legal(s) == [{"do": "boss_turn"}]
    assert (s.boss_turns, s.turns) == (1, 1)


def test_rocket_hits_the_boss_when_it_cannot_avoid_it() -> None:
    s = boss_fight({"at": [2, 9], "weapons": {"launch": "concussion-missile"}},
                   tokens=[{"kind": "rocket", "at": [2, 10]}])
    s, events = play(s, {"do": "boss_turn"})
    assert s.tokens == [] and s.supply["rocket"] == 2
    assert [e.data["reason"] for e in events if e.kind == "token_removed"] == ["collided"]
    assert s.boss.damaged == []  # colliding does no damage unless a card says so


def test_disorientation_with_an_empty_deck_still_cancels_the_shot() -> None:
    s = boss_fight({"at": [2, 9], "weapons": {"launch": "dazzling-missile"}}, turn="hero", hero={"at": [2, 6]},
                   tokens=[{"kind": "rocket", "at": [2, 7]}], deck=[], dashboard={**DASHBOARD, "center": ["forward"]})
    s, events = play(s, {"do": "move", "slot": "center", "fire": "after"})
    assert s.hero == (2, 7) and s.boss.damaged == []
    assert "fire_cancelled" in kinds(events)


def test_hitting_every_vulnerable_spot_wins() -> None:
    s = boss_fight({"at": [2, 8], "damaged": ["turret"]}, turn="hero", hero={"at": [3, 7]},
                   dashboard={**DASHBOARD, "center": ["back"]})
    s, _ = play(s, {"do": "move", "slot": "center", "fire": "before"})
    assert (s.game, s.mission_status, s.hero) == ("won", "boss-defeated", (3, 7))
    assert GAME.result(s)["result"] == "won" and GAME.players_to_act(s) == []


# --- the content reaches the engine -------------------------------------------------------------


def _with_facts(component: str, change: Any) -> GameContent:
    faces = tuple(dataclasses.replace(f, facts=change(f)) for f in CONTENT.faces(component))
    return GameContent(CONTENT.game, {**CONTENT.components, component: faces})


def test_weapon_outcomes_come_from_the_weapon_cards() -> None:
    def disorienting_laser(face: Any) -> Any:
        return dataclasses.replace(face.facts, outcome="disorientation") if face.id == "laser" else face.facts

    boss = {"at": [2, 8], "weapons": {"target": "laser"},
            "column": [{**GREEN_COLUMN[0], "color": "pink", "front": {"at": [2, 8], "weapons": ["target"]}},
                       *GREEN_COLUMN[1:]]}
    as_printed, _ = play(boss_fight(boss, hero={"at": [2, 7]}), {"do": "boss_turn"})
    assert as_printed.damage_taken == 1  # the laser explodes
    changed, events = play(boss_fight(boss, content=_with_facts("boss-weapons", disorienting_laser),
                                      hero={"at": [2, 7]}, deck=[["back"], ["forward"]]), {"do": "boss_turn"})
    assert changed.damage_taken == 0 and "disoriented" in kinds(events) and changed.hero == (2, 6)


def test_the_engine_keeps_no_copy_of_card_facts() -> None:
    package = ROOT / "generators" / "games" / "mission_drive"
    source = "".join(p.read_text(encoding="utf-8") for p in sorted(package.glob("*.py")))
    for name in FACTS.weapons:
        assert f'"{name}"' not in source, f"weapon card {name} is retyped in the engine"
    for fid in HERO_IDS:
        assert f'"{fid}"' not in source
    for uid in FACTS.upgrades:
        assert f'"{uid}"' not in source, f"upgrade card {uid} is named in the engine"


def test_faces_draw_what_the_engine_reads() -> None:
    """The printed art and the facts agree: hero arrows, mission layouts, boss card positions."""
    comps = {c.id: c for c in MD.components}
    for face in comps["movement-cards"].faces:
        if face.facts["kind"] == "hero":
            assert list(face.front.art.arrows) == face.facts["arrows"], face.id
    for face in comps["mission-cards"].faces:
        for side, printed in (("green", face.front), ("pink", face.back)):
            layout = getattr(FACTS.missions[face.id], side)
            drawn = sorted((tuple(c.at), c.icon, c.color) for c in printed.art.grid.cells)
            facts = sorted([(tuple(v.at), v.type, v.side) for v in layout.vehicles]
                           + [(tuple(u), "uplink", "uplink") for u in layout.uplinks])
            assert drawn == facts, f"{face.id} {side}"
    designs = FACTS.bosses
    for face in comps["boss-movement-cards"].faces:
        facts = face.facts
        for printed, side in ((face.front, facts["front"]), (face.back, facts["back"])):
            at = dict(zip(designs[facts["boss"]].tiles, side["at"], strict=True))
            spaces = sorted((a[0] + p.offset[0], a[1] + p.offset[1]) for tile, a in at.items()
                            for p in designs[facts["boss"]].parts if p.tile == tile)
            assert sorted(tuple(c.at) for c in printed.art.grid.cells) == spaces, face.id
            symbols = " ".join(f":{w}:" for w in side.get("weapons", [])) or "none"
            assert printed.fields[0].text == symbols, face.id


def test_every_mission_pairing_fits_the_box() -> None:
    for sides in MISSION_SIDES.values():
        for near, far in itertools.permutations(FACTS.missions, 2):
            vehicles = [{"side": v.side, "type": v.type} for mid, side in ((near, sides[0]), (far, sides[1]))
                        for v in getattr(FACTS.missions[mid], side).vehicles]
            mission(enemies=[], destroyed=vehicles)  # every vehicle fits the box (as if destroyed)


def test_house_bosses_are_complete_and_fit_the_far_board() -> None:
    assert sorted(FACTS.bosses) == ["jet", "rovers", "tank"]
    for design in FACTS.bosses.values():
        assert sorted((c.number, c.color) for c in design.cards) == sorted(
            itertools.product((1, 2, 3), ("green", "pink")))
        assert any(p.vulnerable for p in design.parts) and design.activation
        s = state_of(phase="boss", boss={"name": design.name}, dashboard=DASHBOARD)  # positions checked on the road
        for card in s.boss.cards:
            for face in card.faces:
                assert all(s.rows - FACTS.board_rows <= at[1] < s.rows for _, at in face.at), design.name
                assert bool(face.weapons) == (card.color == "pink"), f"{design.name} {card.number} {card.color}"


# --- whole games ------------------------------------------------------------------------------------


def _opening(variant: str = "standard", **options: Any) -> tuple[State, Chance]:
    rest = [fid for fid, _ in FACTS.movement if fid not in HERO_IDS[:3]]
    rest.remove("enemy")
    order = ["enemy", *HERO_IDS[:3], *rest]  # the enemy card drawn first goes back into the deck
    chance = Chance([Scripted("mission deck", ["mission-b", "mission-a", "mission-c", "mission-d", "mission-e",
                                               "mission-f"]),
                     Scripted("upgrade deck", list(reversed(FACTS.upgrades))),
                     Scripted("movement deck", order),
                     Scripted("movement deck", [*order[4:], "enemy"])])
    s = GAME.new_game(GAME.parse_options({"variant": variant, **options}), CONTENT, chance)
    assert not chance.unused
    return s, chance


def test_new_game_sets_up_mission_one_from_the_content() -> None:
    s, _ = _opening()
    assert (s.phase, s.mission, s.mission_status) == ("mission", 1, "playing")
    assert s.mission_cards == [("mission-b", "green"), ("mission-a", "green")]
    assert s.mission_deck == ["mission-c", "mission-d", "mission-e", "mission-f"]
    near, far = FACTS.missions["mission-b"].green, FACTS.missions["mission-a"].green
    assert sorted(v.at for v in s.vehicles) == sorted([tuple(v.at) for v in near.vehicles]
                                                      + [(v.at[0], v.at[1] + 6) for v in far.vehicles])
    assert [u.id for u in s.offer] == list(reversed(FACTS.upgrades))[:6]
    assert [s.slots[slot] for slot in SLOTS] == [FACTS.card(fid) for fid in HERO_IDS[:3]]
    assert len(s.deck) == 18 and s.deck[-1] == Card("enemy")  # the enemy drawn at the deal went back
    assert (s.hero, s.health, s.uplinks) == ((2, 0), 5, [])


def test_new_game_short_variant_starts_with_seven_points() -> None:
    s, _ = _opening("short")
    assert (s.phase, s.points, s.mission_cards) == ("upgrades", 7, [("mission-b", "green"), ("mission-a", "pink")])
    assert s.uplinks, "the pink card brings its up-links"
    assert not any(a.get("buy") == "start_forward" for a in legal(s))
    s, _ = play(s, {"do": "finish"})
    assert (s.phase, s.mission_status) == ("mission", "playing")


def test_new_game_options_are_checked() -> None:
    with pytest.raises(SetupError) as caught:
        GAME.new_game(GAME.parse_options({"boss": "dragon"}), CONTENT, Chance.seeded(1))
    assert caught.value.path == ("boss",)
    with pytest.raises(SetupError):
        GAME.parse_options({"difficulty": "nightmare"})


def test_stages_carry_health_upgrades_and_the_laser_penalty() -> None:
    s = mission(reward="rookie", laser_used=True, hero={"health": 2}, enemies=[], mission_deck=["mission-c",
                "mission-d", "mission-e", "mission-f"], upgrades=[{"id": "repair-kit", "charges": 1}],
                destroyed=[{"side": "enemy", "type": "car"}])
    s, _ = play(s, {"do": "score"}, {"do": "finish"})
    assert (s.points_lost, s.mission) == (7, 2)  # 8 for a rookie mission, one less for the laser strike
    order = [*HERO_IDS, *(["enemy"] * 5), "civilian", "civilian"]
    s, events = play(s, {"do": "start_mission"}, script=[Scripted("movement deck", order)])
    assert (s.health, s.upgrades[0].charges, s.mission_cards) == (2, 1, [("mission-c", "green"), ("mission-d", "pink")])
    assert s.uplinks == [(2, 9)] and kinds(events) == ["mission_set_up", "dashboard_dealt"]
    assert out(s, "laser_strike") == {"used": True, "available": False}


def test_boss_setup_after_the_missions_deals_the_hero_cards() -> None:
    s = state_of(phase="upgrades", mission=3, points=0, difficulty="rookie", boss={"name": "rovers"})
    s, _ = play(s, {"do": "finish"})
    script = [Scripted("pink boss cards", [3]), Scripted("launch weapon card", "voltage-missile"),
              Scripted("drone weapon card", "buzzing-drone"), Scripted("movement deck", HERO_IDS)]
    s, _ = play(s, {"do": "boss_setup"}, script=script)
    assert (s.phase, s.turn, s.boss.name, s.boss.tiles) == ("boss", "boss", "rovers", ("rover-1", "rover-2"))
    assert [s.slots[slot] for slot in SLOTS] == [FACTS.card(fid) for fid in HERO_IDS[:3]]
    assert len(s.deck) == 11 and all(c.kind == "hero" for c in s.deck)


def test_result_gives_the_figures_worth_averaging() -> None:
    s, _ = play(mission(variant="short", enemies=[{"type": "motorcycle", "at": [2, 1]}]),
                {"do": "move", "slot": "center"})
    figures = GAME.result(s)
    assert figures["result"] == "won"
    assert {"damage_taken", "missions", "score", "turns", "boss_damage"} <= set(figures)
    assert figures["turns"] == 1 and json.loads(json.dumps(figures)) == figures


def test_simulation_settings_cover_every_difficulty() -> None:
    labels = [s.label for s in GAME.simulation_setups()]
    assert labels[:3] == ["rookie", "normal", "expert"]
    for setting in GAME.simulation_setups():
        GAME.parse_options(dict(setting.options))


# --- the later stages keep the contract (random play seldom reaches them) -------------------------


def _later_stages() -> list[tuple[str, State]]:
    starts = []
    for boss, level in itertools.product(("tank", "rovers", "jet"), LEVELS):
        starts.append((f"boss {boss} {level}", state_of(phase="upgrades", mission=3, points=5, difficulty=level,
                                                        boss={"name": boss}, hero={"health": 3},
                                                        upgrades=[{"id": "rocket-pod", "charges": 1},
                                                                  {"id": "emp-pulse"}])))
    starts.append(("mission 3", state_of(phase="upgrades", mission=2, points=4, reward="rookie",
                                         offer=[{"id": "nav-computer"}, {"id": "loudhailer"}])))
    return starts


@pytest.mark.parametrize(("label", "start"), _later_stages(), ids=lambda v: v if isinstance(v, str) else "")
def test_random_play_from_later_stages_keeps_the_contract(label: str, start: State) -> None:
    lengths = []
    for seed in range(8):
        rng, chance, s = random.Random(seed), Chance.seeded(seed), start
        for n in range(GAME.type.max_actions + 1):
            check_state(GAME, s, rng, deep=n % 3 == 0)
            if not GAME.players_to_act(s):
                break
            before = copy.deepcopy(s)
            s, _ = GAME.apply(s, rng.choice(GAME.legal_actions(s)), chance)
            assert before == copy.deepcopy(before)
        else:
            pytest.fail(f"{label}: no end within {GAME.type.max_actions} actions")
        lengths.append(n)
    assert max(lengths) > 5


def _stall(s: State) -> Any:
    """A policy that makes a stage last: every use of an upgrade first, spending one point at a time,
    braking zero spaces."""
    options = GAME.legal_actions(s)
    for pick in (lambda a: a.do == "use_upgrade" and a.pay == "charge", lambda a: a.do == "spend" and a.times == 1,
                 lambda a: a.do == "brake" and a.spaces == 0):
        found = [a for a in options if pick(a)]
        if found:
            return found[0]
    return options[0]


def test_stalling_cannot_keep_a_stage_going() -> None:
    full = [{"id": uid, "charges": FACTS.upgrades[uid].charge_spaces}
            for uid in ("repair-kit", "rocket-pod", "nav-computer", "mirror-gyro", "side-thrusters", "deflector")]
    for start in (mission(mission=3, upgrades=full, uplinks=[[0, 1], [4, 1]], deck=[["back"]] * 11),
                  boss_fight(upgrades=full, deck=[["back"]] * 11)):
        s, n = start, 0
        while GAME.players_to_act(s):
            s, _ = GAME.apply(s, _stall(s), Chance())
            n += 1
        assert s.game == "lost" and n <= 14 + 18 + 6 + 15, n


def test_the_action_bound_holds_for_this_content() -> None:
    """MAX_ACTIONS rests on counts from the content: recompute the bound from them."""
    hero, traffic = FACTS.count("hero"), FACTS.count("enemy") + FACTS.count("civilian")
    charges = UPGRADES_REVEALED * max(u.charge_spaces for u in FACTS.upgrades.values())
    uplinks = 2 * max(len(m.pink.uplinks) for m in FACTS.missions.values())
    uses = charges + uplinks + UPGRADES_REVEALED
    missions = 3 * (hero + traffic + uses + 1) + 2 + 1  # + the laser strike
    upgrade_steps = 3 * (max(REWARD_POINTS.values()) + 1)
    boss = 1 + hero + (hero + 1) + charges + UPGRADES_REVEALED
    assert missions + upgrade_steps + boss <= MAX_ACTIONS == GAME.type.max_actions


# --- state copies, outcome and drawing --------------------------------------------------------------


def _mutables(obj: Any, seen: set[int], found: set[int]) -> set[int]:
    if id(obj) in seen or isinstance(obj, (str, int, float, bool, type(None), Facts)):
        return found
    seen.add(id(obj))
    if isinstance(obj, (list, dict, set)) or (dataclasses.is_dataclass(obj)
                                              and not type(obj).__dataclass_params__.frozen):  # type: ignore[attr-defined]
        found.add(id(obj))
    children: list[Any] = []
    if isinstance(obj, dict):
        children = [*obj.keys(), *obj.values()]
    elif isinstance(obj, (list, tuple, set)):
        children = list(obj)
    elif dataclasses.is_dataclass(obj):
        children = [getattr(obj, f.name) for f in dataclasses.fields(obj)]
    for child in children:
        _mutables(child, seen, found)
    return found


def test_a_copied_state_shares_nothing_that_can_change() -> None:
    s = boss_fight({"at": [2, 9], "weapons": {"launch": "concussion-missile"}}, turn="hero",
                   tokens=[{"kind": "rocket", "at": [2, 5]}], upgrades=[{"id": "nitro", "charge_spaces": 1}])
    pending = mission(enemies=[{"type": "car", "at": [3, 1]}, FAR_ENEMY], deck=["enemy", ["left"]])
    pending, _ = play(pending, {"do": "move", "slot": "center"})
    for state in (s, pending):
        copied = copy.deepcopy(state)
        assert copied == state
        assert not _mutables(state, set(), set()) & _mutables(copied, set(), set())


def test_outcome_is_stable_and_json_ready() -> None:
    s, events = play(mission(), {"do": "move", "slot": "center"})
    result = GAME.outcome(s, events)
    assert json.loads(json.dumps(result)) == result
    assert {"hero", "health", "vehicles", "destroyed", "damage_taken", "mission_status", "points", "boss_damage",
            "events", "weapon_tokens", "mission_cards", "turns"} <= set(result)
    assert result == GAME.outcome(copy.deepcopy(s), events)


def test_actions_read_as_players_words() -> None:
    assert GAME.describe_action(act({"do": "move", "slot": "center", "mirror": True, "fire": "after",
                                     "energy": [{"charge": "nitro"}]})) == (
        "Move with the centre card, mirrored, firing forward after moving; the up-link's energy goes to a charge "
        "on nitro")
    assert GAME.describe_action(act({"do": "boss_turn", "hero_to": [1, 6]})) == (
        "Play the boss's turn; the hero moves aside to that space")
    # From the position it is played in, a space is told from the hero's car, never as coordinates.
    s = mission(hero={"at": [2, 4], "health": 3})
    assert GAME.describe_action(act({"do": "boss_turn", "hero_to": [1, 6]}), s) == (
        "Play the boss's turn; the hero moves aside to the space 2 rows ahead of the hero, 1 lane to the left")
    assert GAME.describe_action(act({"do": "enemy_fire", "target": [2, 4]}), s) == (
        "Enemy card: the enemy fires at the hero's space")
    for kind in GAME.action_specs:
        assert kind not in GAME.describe_action(next(a for a in _one_of_each() if a.do == kind))


def _one_of_each() -> list[Any]:
    return [act(d) for d in ({"do": "move", "slot": "left"}, {"do": "brake", "slot": "left", "spaces": 2},
                             {"do": "enemy_fire", "target": [1, 1]}, {"do": "civilian_move", "civilian": [0, 0],
                                                                      "to": [0, 1]},
                             {"do": "laser_strike", "target": [1, 1]}, {"do": "use_upgrade", "upgrade": "x",
                                                                        "pay": "discard"},
                             {"do": "score"}, {"do": "spend", "buy": "health", "times": 2}, {"do": "finish"},
                             {"do": "start_mission"}, {"do": "boss_setup"}, {"do": "boss_turn"})]


def test_every_listed_action_reads_back_from_its_written_form() -> None:
    s = mission(mission=3, hero={"health": 3}, uplinks=[[2, 1]], reward="rookie",
                upgrades=[{"id": "nitro", "charge_spaces": 1, "charges": 1}])
    for action in GAME.legal_actions(s):
        assert GAME.parse_action(to_data(action)) == action


def test_svg_is_deterministic_valid_and_escaped() -> None:
    s = boss_fight({"at": [2, 9], "parts": [{"id": "<gun&co>", "at": [0, 0], "vulnerable": True}]},
                   tokens=[], hero={"at": [2, 1]})
    svg = GAME.draw_svg(s)
    assert svg == GAME.draw_svg(copy.deepcopy(s))
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    assert "&lt;gun&amp;" in svg and "<gun" not in svg
    damaged = mission(enemies=[{"type": "truck", "at": [1, 1], "damaged": True}, FAR_ENEMY])
    assert 'stroke-dasharray="3 2"' in GAME.draw_svg(damaged)  # a damaged truck is drawn dashed


def test_asking_the_rules_writes_nothing_into_the_state() -> None:
    """Listing the legal actions (with the dry runs of the mid-action choices), asking why an action is
    refused and applying one leave the state exactly as it was, byte for byte, with no cache added."""
    s = mission(mission=3, hero={"health": 3}, uplinks=[[2, 1]], upgrades=[{"id": "nitro", "charge_spaces": 1}])
    before, keys = pickle.dumps(s), set(s.__dict__)
    listed = GAME.legal_actions(s)
    assert any(getattr(a, "energy", ()) for a in listed), "the up-link's choice is listed"
    assert GAME.refusal(s, act({"do": "move", "slot": "center"})) is not None
    GAME.apply(s, listed[0], Chance())
    assert set(s.__dict__) == keys and pickle.dumps(s) == before


def test_upgrade_step_refusals_name_the_real_cause() -> None:
    full = state_of(phase="upgrades", points=3, mission=3, start_forward=4,
                    upgrades=[{"id": "nitro", "charge_spaces": 1, "charges": 1}])
    assert "no empty charge space" in GAME.refusal(full, act({"do": "spend", "buy": "charge", "upgrade": "nitro"}))
    assert "at most 4 spaces" in GAME.refusal(full, act({"do": "spend", "buy": "start_forward"}))
    early = state_of(phase="upgrades", points=3, mission=2)
    assert "after the third mission" in GAME.refusal(early, act({"do": "spend", "buy": "start_forward"}))
    assert "full health" in GAME.refusal(early, act({"do": "spend", "buy": "health"}))
