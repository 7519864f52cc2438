"""Unit tests of the Mission: Drive rules model: set a state, apply actions, assert (boardgame.io style)."""

from __future__ import annotations

import copy
import json
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from generators.engine import mission_drive as md
from generators.engine.base import Chance, ChanceExhausted, IllegalAction, SetupError

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


def mission(**setup: Any) -> md.State:
    base: dict[str, Any] = {"enemies": [FAR_ENEMY], "dashboard": DASHBOARD, "deck": [["forward"]]}
    return md.initial_state({**base, **setup})


def boss_fight(boss: dict[str, Any] | None = None, **setup: Any) -> md.State:
    base: dict[str, Any] = {"phase": "boss", "dashboard": DASHBOARD, "deck": [["forward"]],
                            "boss": {"parts": TANK_PARTS, "column": GREEN_COLUMN, **(boss or {})}}
    return md.initial_state({**base, **setup})


def play(state: md.State, *actions: dict[str, Any], script: list[Any] | None = None) -> tuple[md.State, list]:
    chance = Chance(list(script or []))
    events: list = []
    for action in actions:
        state, new = md.apply(state, action, chance)
        events += new
    return state, events


def out(state: md.State, key: str) -> Any:
    return md.outcome(state, [])[key]


def kinds(events: list) -> list[str]:
    return [e.kind for e in events]


# --- setup ----------------------------------------------------------------------------------------


def test_defaults_road_hero_and_health() -> None:
    s = mission()
    assert (s.lanes, s.rows) == (5, 12)
    assert s.hero == (2, 0)  # centre space on the edge nearest the player
    assert s.health == md.DEFAULT_HEALTH_TRACK - 1
    assert out(s, "mission_status") == "playing"


@pytest.mark.parametrize(
    ("setup", "path", "text"),
    [
        ({"enemies": [{"type": "car", "at": [5, 0]}]}, ("enemies", 0, "at"), "off the road"),
        ({"enemies": [{"type": "car", "at": [2, 0]}]}, ("enemies", 0, "at"), "already occupies"),
        ({"civilians": [{"type": "car", "at": [1, 1], "damaged": True}]}, ("civilians", 0, "damaged"), "trucks"),
        ({"mission": 3, "cards": ["green", "pink"]}, ("cards",), "pink / pink"),
        ({"hero": {"health": 9}}, ("hero", "health"), "does not fit"),
        ({"deck": [[]]}, ("deck", 0), "at least one arrow"),
        ({"phase": "upgrades"}, ("points",), "points"),
        ({"tokens": [{"kind": "rocket", "at": [1, 1]}]}, ("tokens",), "boss encounter"),
    ],
)
def test_setup_errors_point_at_the_key(setup: dict[str, Any], path: tuple, text: str) -> None:
    with pytest.raises(SetupError) as caught:
        mission(**setup)
    assert caught.value.path == path
    assert text in caught.value.message


def test_boss_setup_errors() -> None:
    with pytest.raises(SetupError, match="no part is vulnerable") as caught:
        boss_fight({"parts": [{"id": "hull", "at": [0, 0]}]})
    assert caught.value.path == ("boss", "parts")
    with pytest.raises(SetupError, match="off the road") as caught:
        boss_fight({"column": [{**GREEN_COLUMN[0], "front": {"at": [0, 9]}}, *GREEN_COLUMN[1:]]})
    assert caught.value.path == ("boss", "column", 0, "front", "at")
    with pytest.raises(SetupError, match="no vehicles"):
        boss_fight(enemies=[FAR_ENEMY])
    with pytest.raises(SetupError, match="no launch card"):
        boss_fight({"column": [{**GREEN_COLUMN[0], "front": {"at": [2, 9], "weapons": ["launch"]}},
                               *GREEN_COLUMN[1:]]})


# --- moving, mirrors, off-road ----------------------------------------------------------------------


def test_moving_follows_arrows_in_order() -> None:
    s = mission(dashboard={"center": ["forward", "right", "right", "forward"]})
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
    assert {"do": "move", "slot": "center"} in caught.value.legal


def test_off_road_arrows_are_skipped_on_every_edge() -> None:
    s = mission(hero={"at": [0, 11]}, dashboard={"center": ["left", "forward", "right"]})
    s, events = play(s, {"do": "move", "slot": "center"})
    assert s.hero == (1, 11)
    assert kinds(events).count("off_road") == 2
    assert s.damage_taken == 0


def test_empty_slot_is_illegal_and_legal_actions_are_listed() -> None:
    s = mission(dashboard={"left": None, "center": ["forward"], "right": None})
    with pytest.raises(IllegalAction, match="holds no hero card") as caught:
        play(s, {"do": "move", "slot": "left"})
    assert caught.value.legal == md.legal_actions(s)
    assert all(a.get("slot") == "center" for a in caught.value.legal if a["do"] in ("move", "brake"))


def test_apply_does_not_change_the_given_state() -> None:
    s = mission(enemies=[{"type": "car", "at": [2, 1]}, FAR_ENEMY])
    before = copy.deepcopy(s)
    play(s, {"do": "move", "slot": "center"})
    assert s == before


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
        play(mission(), {"do": "brake", "slot": "left", "spaces": 1, "fire": "before"})
    assert caught.value.path == ("fire",)
    with pytest.raises(SetupError) as caught:
        play(mission(), {"do": "brake", "slot": "left", "spaces": 3})
    assert caught.value.path == ("spaces",)


# --- firing ---------------------------------------------------------------------------------------


def test_each_slot_fires_its_own_direction() -> None:
    targets = {"left": (1, 0), "center": (2, 1), "right": (3, 0)}
    for slot, at in targets.items():
        s = mission(enemies=[{"type": "motorcycle", "at": list(at)}, FAR_ENEMY], dashboard={slot: ["back"]})
        s, _ = play(s, {"do": "move", "slot": slot, "fire": "before"})
        assert out(s, "destroyed")["enemy"]["motorcycle"] == 1, slot


def test_truck_needs_two_hits() -> None:
    s = mission(enemies=[{"type": "truck", "at": [2, 1]}, FAR_ENEMY], dashboard={"center": ["back"]},
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
    assert md.legal_actions(s) == [{"do": "enemy_fire", "target": [2, 1]}, {"do": "enemy_fire", "target": [3, 2]}]
    with pytest.raises(IllegalAction, match="must be resolved first"):
        play(s, {"do": "move", "slot": "left"})
    with pytest.raises(IllegalAction, match="not a civilian or the hero"):
        play(s, {"do": "enemy_fire", "target": [4, 10]})
    s, _ = play(s, {"do": "enemy_fire", "target": [3, 2]})
    assert out(s, "destroyed")["civilian"]["car"] == 1
    assert s.slots["center"] == md.Card("hero", ("left",))


def test_civilian_card_needs_an_empty_adjacent_space() -> None:
    s = mission(civilians=[{"type": "car", "at": [0, 5]}], enemies=[{"type": "car", "at": [0, 6]}, FAR_ENEMY],
                deck=["civilian"])
    s, _ = play(s, {"do": "move", "slot": "center"})
    with pytest.raises(IllegalAction, match="cannot move there") as caught:
        play(s, {"do": "civilian_move", "civilian": [0, 5], "to": [0, 6]})
    assert {"do": "civilian_move", "civilian": [0, 5], "to": [0, 4]} in caught.value.legal
    s, _ = play(s, {"do": "civilian_move", "civilian": [0, 5], "to": [1, 5]})
    assert s.slots["center"] is None and out(s, "mission_status") == "playing"


# --- uplinks, upgrades, laser strike ----------------------------------------------------------------


def test_uplink_energy_needs_a_choice_when_several_are_possible() -> None:
    s = mission(hero={"health": 3}, uplinks=[[2, 1]], upgrades=[{"id": "nitro", "charge_spaces": 1}])
    with pytest.raises(IllegalAction, match="choose an up-link") as caught:
        play(s, {"do": "move", "slot": "center"})
    assert caught.value.legal == ["health", {"charge": "nitro"}]
    s2, _ = play(s, {"do": "move", "slot": "center", "energy": [{"charge": "nitro"}]})
    assert (s2.health, s2.upgrades[0].charges, s2.uplinks) == (3, 1, [])


def test_uplink_energy_is_lost_when_nothing_can_take_it() -> None:
    s, events = play(mission(uplinks=[[2, 1]]), {"do": "move", "slot": "center"})
    assert "energy_unused" in kinds(events) and s.uplinks == []


def test_a_choice_that_is_never_needed_is_illegal() -> None:
    with pytest.raises(IllegalAction, match="never needed"):
        play(mission(), {"do": "move", "slot": "center", "energy": ["health"]})


def test_using_upgrades() -> None:
    s = mission(upgrades=[{"id": "nitro", "charge_spaces": 2, "charges": 1}])
    s, _ = play(s, {"do": "use_upgrade", "upgrade": "nitro"})
    assert s.upgrades[0].charges == 0
    with pytest.raises(IllegalAction, match="no charge left"):
        play(s, {"do": "use_upgrade", "upgrade": "nitro", "pay": "charge"})
    s, _ = play(s, {"do": "use_upgrade", "upgrade": "nitro"})
    assert s.upgrades == []


def test_laser_strike_only_at_rookie_level_and_once() -> None:
    with pytest.raises(IllegalAction, match="rookie"):
        play(mission(reward="normal"), {"do": "laser_strike", "target": [4, 10]})
    s = mission(reward="rookie", enemies=[FAR_ENEMY, {"type": "truck", "at": [0, 9]}])
    assert {"do": "laser_strike", "target": [0, 9]} in md.legal_actions(s)
    s, _ = play(s, {"do": "laser_strike", "target": [0, 9]})
    assert out(s, "destroyed")["enemy"]["truck"] == 1  # destroyed outright, not just damaged
    with pytest.raises(IllegalAction, match="already been used"):
        play(s, {"do": "laser_strike", "target": [4, 10]})
    assert not any(a["do"] == "laser_strike" for a in md.legal_actions(s))


# --- mission ending and scoring -------------------------------------------------------------------


def test_immobilization_stops_the_move_at_once() -> None:
    s = mission(hero={"health": 1}, enemies=[{"type": "truck", "at": [2, 1]}, {"type": "motorcycle", "at": [1, 0]}],
                dashboard={"center": ["forward", "left"]})
    s, events = play(s, {"do": "move", "slot": "center"})
    assert (out(s, "mission_status"), out(s, "game")) == ("immobilization", "lost")
    assert s.hero == (2, 0) and len(s.vehicles) == 2
    assert md.legal_actions(s) == []
    assert kinds(events)[-2:] == ["mission_ended", "game_over"]


def test_exhaustion_when_no_hero_card_is_left() -> None:
    s = mission(dashboard={"center": ["forward"]}, deck=[])
    s, _ = play(s, {"do": "move", "slot": "center"})
    assert out(s, "mission_status") == "exhaustion"


@pytest.mark.parametrize(("reward", "civilians", "laser", "score", "points"),
                         [("rookie", 0, False, 8, 8), ("normal", 2, False, 5, 5), ("expert", 1, True, 5, 4),
                          ("expert", 9, False, 0, 0)])
def test_scoring(reward: str, civilians: int, laser: bool, score: int, points: int) -> None:
    s = mission(reward=reward, enemies=[], laser_used=laser,
                destroyed=[{"side": "civilian", "type": "car"}] * civilians + [{"side": "enemy", "type": "car"}])
    assert md.legal_actions(s) == [{"do": "score"}]
    s, _ = play(s, {"do": "score"})
    assert (s.score, s.points, s.phase) == (score, points, "upgrades")


def test_repairs_spend_options_and_lost_points() -> None:
    s = md.initial_state({"phase": "upgrades", "points": 2, "hero": {"health": 5},
                          "offer": [{"id": "armour", "cost": 3}]})
    assert md.legal_actions(s) == [{"do": "finish"}]  # full health, nothing affordable
    with pytest.raises(IllegalAction, match="cannot spend on health"):
        play(s, {"do": "spend", "buy": "health"})
    s, _ = play(s, {"do": "finish"})
    assert (s.points, s.points_lost, s.phase, s.mission) == (0, 2, "next-mission", 2)


def test_start_forward_only_after_the_third_mission_and_at_most_four() -> None:
    early = md.initial_state({"phase": "upgrades", "points": 5, "mission": 2})
    assert {"do": "spend", "buy": "start_forward"} not in md.legal_actions(early)
    late = md.initial_state({"phase": "upgrades", "points": 6, "mission": 3})
    late, _ = play(late, {"do": "spend", "buy": "start_forward", "times": 4})
    assert {"do": "spend", "buy": "start_forward"} not in md.legal_actions(late)
    with pytest.raises(IllegalAction):
        play(late, {"do": "spend", "buy": "start_forward"})


def test_short_game_wins_on_the_last_enemy() -> None:
    s = mission(variant="short", enemies=[{"type": "motorcycle", "at": [2, 1]}])
    s, _ = play(s, {"do": "move", "slot": "center"})
    assert (out(s, "mission_status"), out(s, "game")) == ("accomplished", "won")
    assert md.legal_actions(s) == []


# --- the boss -------------------------------------------------------------------------------------


def _cards(pink_weapons: dict[int, list[str]]) -> list[dict[str, Any]]:
    pink = [{"number": n, "color": "pink", "front": {"at": c["front"]["at"], "weapons": pink_weapons.get(n, [])},
             "back": c["back"]} for n, c in zip((1, 2, 3), GREEN_COLUMN, strict=True)]
    return GREEN_COLUMN + pink


def test_boss_setup_uses_difficulty_and_chance() -> None:
    s = boss_fight({"column": [], "cards": _cards({1: ["target"], 2: ["drone"]}), "difficulty": "rookie"},
                   deck=[["forward"], "enemy", "civilian"])
    assert md.legal_actions(s) == [{"do": "boss_setup"}]
    with pytest.raises(IllegalAction, match="scripted pink boss movement cards"):
        play(s, {"do": "boss_setup"}, script=[[1, 2]])  # rookie difficulty has only one pink card
    with pytest.raises(ChanceExhausted):
        play(s, {"do": "boss_setup"}, script=[[2]])  # a drone weapon card must be drawn too
    s, _ = play(s, {"do": "boss_setup"}, script=[[2], "smoke-drone"])
    assert [(c.number, c.color) for c in s.boss.column] == [(1, "green"), (2, "pink"), (3, "green")]
    assert s.boss.weapons == {"drone": "smoke-drone"}
    assert [c.kind for c in s.deck] == ["hero"]


def test_boss_setup_pink_count_is_checked() -> None:
    with pytest.raises(SetupError, match="expert boss difficulty uses 3") as caught:
        boss_fight({"column": [], "cards": _cards({}), "difficulty": "expert", "pink": [1]})
    assert caught.value.path == ("boss", "pink")


def test_boss_turns_alternate_with_the_hero() -> None:
    s = boss_fight()
    with pytest.raises(IllegalAction, match="not the hero's turn"):
        play(s, {"do": "move", "slot": "center"})
    s, _ = play(s, {"do": "boss_turn"})
    assert s.turn == "hero" and md.legal_actions(s)[0]["do"] == "move"
    s, _ = play(s, {"do": "brake", "slot": "left", "spaces": 0})
    assert md.legal_actions(s) == [{"do": "boss_turn"}]


def test_boss_landing_on_hero_asks_where_to_go() -> None:
    s = boss_fight(hero={"at": [2, 9]})
    with pytest.raises(IllegalAction, match="choose hero_to") as caught:
        play(s, {"do": "boss_turn"})
    assert {"do": "boss_turn", "hero_to": [2, 8]} in caught.value.legal
    with pytest.raises(IllegalAction, match="not a free space"):
        play(s, {"do": "boss_turn", "hero_to": [1, 9]})


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


# --- outcome and drawing --------------------------------------------------------------------------


def test_outcome_is_stable_and_json_ready() -> None:
    s, events = play(mission(), {"do": "move", "slot": "center"})
    result = md.outcome(s, events)
    assert json.loads(json.dumps(result)) == result
    assert {"hero", "health", "vehicles", "destroyed", "damage_taken", "mission_status", "points", "boss_damage",
            "events", "weapon_tokens"} <= set(result)
    assert result == md.outcome(copy.deepcopy(s), events)


def test_svg_is_deterministic_valid_and_escaped() -> None:
    s = boss_fight({"at": [2, 9], "parts": [{"id": "<gun&co>", "at": [0, 0], "vulnerable": True}]},
                   tokens=[], hero={"at": [2, 1]})
    svg = md.draw_svg(s)
    assert svg == md.draw_svg(copy.deepcopy(s))
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    assert "&lt;gun&amp;" in svg and "<gun" not in svg
    damaged = mission(enemies=[{"type": "truck", "at": [1, 1], "damaged": True}, FAR_ENEMY])
    assert 'stroke-dasharray="3 2"' in md.draw_svg(damaged)  # a damaged truck is drawn dashed
