"""Escape Deathrace 2182 Micro rules model: set a state, apply actions, assert; exact odds."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from generators.content.scenario import load_scenarios
from generators.engine import escape_deathrace as ed
from generators.engine.base import Chance, IllegalAction, SetupError
from generators.engine.runner import run_scenario

# --- helpers ------------------------------------------------------------------------------------


def line(n: int, **kinds: str) -> list[dict[str, Any]]:
    """A straight east-west road: s, t1 .. t<n>; `kinds` overrides a tile's kind (t3='hazard')."""
    road = [{"id": "s", "kind": "start", "at": [0, 0]}]
    for i in range(1, n + 1):
        tid = f"t{i}"
        road.append({"id": tid, "kind": kinds.get(tid, "straight"), "at": [i, 0]})
    return road


def make(players: list[dict[str, Any]], road: list[dict[str, Any]] | None = None, **extra: Any) -> ed.State:
    return ed.initial_state({"players": players, "road": road or line(5), **extra})


def play(state: ed.State, actions: list[dict[str, Any]], rolls: list[Any] = ()) -> tuple[ed.State, list]:
    """Apply actions in order with scripted chance; every scripted result must be used."""
    chance = Chance(list(rolls))
    events: list = []
    for action in actions:
        state, step = ed.apply(state, action, chance)
        events += step
    assert chance.used == len(chance.script), "unused scripted results"
    return state, events


def out(state: ed.State, events: list | None = None) -> dict[str, Any]:
    return ed.outcome(state, events or [])


def two(a: str = "mista", b: str = "gooday", at_a: str = "t1", at_b: str = "s", **pa: Any) -> list[dict[str, Any]]:
    return [{"name": "X", "character": a, "at": at_a, **pa}, {"name": "Y", "character": b, "at": at_b}]


SUBS_DEAD = {"death-turret": 0, "omg-zilla-1": 0, "omg-zilla-2": 0}


def final_road(n: int = 2) -> list[dict[str, Any]]:
    return [*line(n), {"id": "h", "kind": "final-boss", "at": [n + 1, 0], "exits": "W"}]


# --- setup --------------------------------------------------------------------------------------


def test_setup_defaults() -> None:
    o = out(make([{"name": "X", "character": "mista"}, {"name": "Y", "character": "reegad"}]))
    assert o["hp"] == {"X": 20, "Y": 20}
    assert o["positions"] == {"X": "s", "Y": "s"}
    assert o["inventory"]["X"] == {"landmine": 1, "smoke": 1, "gunfire": 1, "fire": 1}
    assert o["boss_hp"] == {"death-turret": 7, "omg-zilla-1": 10, "omg-zilla-2": 10, "final-boss": 20}
    assert o["turn"] == "X" and o["winner"] is None


@pytest.mark.parametrize(
    ("setup", "path"),
    [
        ({"players": [{"name": "X", "character": "batman"}], "road": line(1)}, ("players", 0, "character")),
        ({"players": [{"name": "X", "character": "mista", "colour": "red"}], "road": line(1)},
         ("players", 0, "colour")),
        ({"players": [{"name": "X", "character": "mista"}], "road": [{"id": "s", "kind": "start", "at": [0, 0],
                                                                       "exits": "NE"}]}, ("road", 0, "exits")),
        ({"players": [{"name": "X", "character": "mista"}, {"name": "Y", "character": "mista"}], "road": line(1)},
         ("players", 1, "character")),
        ({"players": [{"name": "X", "character": "mista", "at": "t1"}], "road": line(1, t1="hazard")},
         ("players", 0, "hazard_side")),
        ({"players": [{"name": "X", "character": "mista"}], "road": line(1), "rules": {"car_bomb": "nearby"}},
         ("rules", "car_bomb")),
        ({"players": [{"name": "X", "character": "mista"}], "road": [{"id": "a", "kind": "straight", "at": [0, 0]}]},
         ("road",)),
    ],
)
def test_setup_errors_point_at_the_key(setup: dict[str, Any], path: tuple) -> None:
    with pytest.raises(SetupError) as err:
        ed.initial_state(setup)
    assert err.value.path == path


# --- movement -----------------------------------------------------------------------------------


def test_move_forward_and_backward() -> None:
    s, _ = play(make(two(at_a="t3")), [{"do": "move", "path": ["t2", "t1"]}], [2])
    assert out(s)["positions"]["X"] == "t1"


@pytest.mark.parametrize(
    ("path", "roll", "message"),
    [
        ([], 4, "at least 1 space"),
        (["t2", "t3", "t4"], 2, "costs 3"),
        (["t3"], 4, "not connected"),
        (["t2", "t1"], 4, "twice"),
    ],
)
def test_illegal_paths(path: list[str], roll: int, message: str) -> None:
    with pytest.raises(IllegalAction, match=message):
        play(make(two()), [{"do": "move", "path": path}], [roll])


def test_no_skipping_the_turn() -> None:
    s = make(two())
    assert "end_turn" not in out(s)["can"]
    with pytest.raises(IllegalAction, match="Q&A 3") as err:
        ed.apply(s, {"do": "end_turn"}, Chance([]))
    assert {"do": "move", "player": "X"} in err.value.legal


def test_only_the_current_player_acts() -> None:
    with pytest.raises(IllegalAction, match="X's turn"):
        ed.apply(make(two()), {"do": "move", "player": "Y", "path": ["t1"]}, Chance([1]))


def test_lay_tiles_then_move() -> None:
    road = line(1)
    s, ev = play(make(two("shooter"), road, tile_stack=["fire", "event"]),
                 [{"do": "move", "lay": [{"id": "a", "at": [2, 0]}, {"id": "b", "at": [3, 0]}], "path": ["a"]}], [2])
    o = out(s, ev)
    assert o["road"]["a"] == "fire" and o["road"]["b"] == "event"
    assert o["hp"]["X"] == 18 and o["tile_stack_left"] == 0


def test_laying_is_limited_by_the_draw_but_gooday_lays_one_more() -> None:
    lay = [{"at": [2, 0]}, {"at": [3, 0]}]
    with pytest.raises(IllegalAction, match="at most 1"):
        play(make(two(), line(1), tile_stack=["straight"] * 2), [{"do": "move", "lay": lay, "path": ["L3"]}], [1])
    s, _ = play(make(two("gooday", "mista"), line(1), tile_stack=["straight"] * 2),
                [{"do": "move", "lay": lay, "path": ["L3", "L4"]}], [1])
    assert out(s)["positions"]["X"] == "L4"


def test_tiles_come_from_chance_without_a_stack_and_the_final_tile_comes_last() -> None:
    s, _ = play(make(two(), line(1)), [{"do": "move", "lay": [{"id": "a", "at": [2, 0]}], "path": ["a"],
                                        "hazard": "wait"}], [1, "hazard"])
    assert out(s)["road"]["a"] == "hazard"
    s, _ = play(make(two(), line(1), tile_stack=[]), [{"do": "move", "lay": [{"id": "h", "at": [2, 0]}],
                                                       "path": ["s"]}], [1])
    assert out(s)["road"]["h"] == "final-boss" and s.tiles["h"].exits == "W"


def test_a_laid_tile_must_join_one_open_road_end() -> None:
    with pytest.raises(IllegalAction, match="open road end"):
        play(make(two(), line(1), tile_stack=["straight"]), [{"do": "move", "lay": [{"at": [5, 5]}], "path": ["t1"]}],
             [1])


def test_nitro_is_a_free_space_along_the_arrows_only() -> None:
    road = line(4, t2="nitro-nos")
    s, _ = play(make(two(), road), [{"do": "move", "path": ["t2", "t3"]}], [1])
    assert out(s)["positions"]["X"] == "t3"
    # Against the arrows it costs a space like any other tile.
    with pytest.raises(IllegalAction, match="costs 2"):
        play(make(two(at_a="t3"), road), [{"do": "move", "path": ["t2", "t1"]}], [1])


def test_turning_off_a_nitro_costs_the_space() -> None:
    road = [*line(3), {"id": "n", "kind": "straight", "at": [2, -1], "exits": "NS"}]
    road[2] = {"id": "t2", "kind": "nitro-nos", "at": [2, 0], "exits": "NESW", "arrow": "E"}
    with pytest.raises(IllegalAction, match="costs 2"):
        play(make(two(), road), [{"do": "move", "path": ["t2", "n"]}], [1])


def test_reegad_gets_one_more_from_a_nitro() -> None:
    road = line(5, t2="nitro-nos")
    with pytest.raises(IllegalAction, match="costs 2"):
        play(make(two(), road), [{"do": "move", "path": ["t2", "t3", "t4"]}], [1])
    s, _ = play(make(two("reegad"), road), [{"do": "move", "path": ["t2", "t3", "t4"]}], [1])
    assert out(s)["positions"]["X"] == "t4"


def test_nitro_draw_at_the_end_of_the_road() -> None:
    s, _ = play(make(two(), line(2, t2="nitro-nos"), tile_stack=["event"]),
                [{"do": "move", "path": ["t2"], "nitro_draw": True}], [1])
    o = out(s)
    assert o["positions"]["X"] == "L4" and o["road"]["L4"] == "event" and o["event_active"] == "event-1"


def test_after_the_final_boss_dies_cars_take_the_direct_path() -> None:
    boss = {**SUBS_DEAD, "final-boss": 0}
    s = make(two(at_a="t2", at_b="h"), final_road(3), boss_hp=boss, tile_stack=[], final_arrivals=["Y"])
    with pytest.raises(IllegalAction, match="most direct path"):
        play(s, [{"do": "move", "path": ["t1"]}], [1])
    s2, _ = play(s, [{"do": "move", "path": ["t3"]}], [1])
    assert out(s2)["positions"]["X"] == "t3"


# --- hazards ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("roll", "where", "hp"), [(1, "hz", 19), (2, "hz", 18), (3, "t3", 19), (4, "t3", 20)])
def test_hazard_table(roll: int, where: str, hp: int) -> None:
    road = line(3, t2="hazard")
    road[2]["id"] = "hz"
    road[3]["id"] = "t3"
    s, _ = play(make(two(), road), [{"do": "move", "path": ["hz"]}], [1, roll])
    o = out(s)
    assert (o["positions"]["X"], o["hp"]["X"]) == (where, hp)


def test_hazard_stops_the_car_but_not_gooday() -> None:
    road = line(4, t2="hazard")
    with pytest.raises(IllegalAction, match="stops the car"):
        play(make(two(), road), [{"do": "move", "path": ["t2", "t3"]}], [2])
    s, ev = play(make(two("gooday", "mista"), road), [{"do": "move", "path": ["t2", "t3"]}], [1])
    assert out(s, ev)["positions"]["X"] == "t3" and out(s, ev)["rolls"] == [1]


def test_a_car_at_a_hazard_must_cross_it_or_retreat() -> None:
    road = line(4, t2="hazard")
    s = make(two(at_a="t2", hazard_side="W"), road)
    assert out(s)["can"] == ["hazard_attempt", "move", "play_power", "trade_power"]
    with pytest.raises(IllegalAction, match="hazard_attempt"):
        play(s, [{"do": "move", "path": ["t3"]}], [1])
    back, _ = play(s, [{"do": "move", "path": ["t1"]}], [1])
    assert out(back)["positions"]["X"] == "t1"
    crossed, _ = play(s, [{"do": "hazard_attempt"}], [4])
    assert out(crossed)["positions"]["X"] == "t3"


def test_no_weapon_drops_on_a_hazard() -> None:
    s = make(two(at_a="t2", hazard_side="W"), line(4, t2="hazard"))
    with pytest.raises(IllegalAction):
        ed.apply(s, {"do": "use_drop", "kind": "smoke"}, Chance([]))


# --- battle-it-out and drive-by -------------------------------------------------------------------


def test_battle_it_out_both_strike() -> None:
    s, ev = play(make(two(at_b="t2")), [{"do": "move", "path": ["t2"]}], [1, 3, 2])
    assert out(s, ev)["damage_log"] == ["Y -3 battle-it-out by X", "X -2 battle-it-out by Y"]


def test_three_cars_must_name_targets() -> None:
    players = [*two(at_b="t2"), {"name": "Z", "character": "shooter", "at": "t2"}]
    with pytest.raises(SetupError) as err:
        play(make(players), [{"do": "move", "path": ["t2"]}], [1])
    assert err.value.path == ("targets",)


@pytest.mark.parametrize(
    ("road", "board", "reason"),
    [
        (line(3), [{"kind": "smoke", "tile": "t2", "owner": "Y"}], "smoke"),
        ([*line(1), {"id": "t2", "kind": "omg-zilla-1", "at": [2, 0]}], [], None),
    ],
)
def test_no_battle_in_smoke_or_on_a_live_boss(road: list, board: list, reason: str | None) -> None:
    s, ev = play(make(two(at_b="t2"), road, board=board), [{"do": "move", "path": ["t2"]}], [1])
    o = out(s, ev)
    assert o["hp"] == {"X": 20, "Y": 20}
    assert "battle-it-out" not in o["events"]


def test_drive_by_is_one_sided() -> None:
    s, ev = play(make(two(at_b="t2")), [{"do": "move", "path": ["t2", "t3"]}], [2, 3])
    assert out(s, ev)["hp"] == {"X": 20, "Y": 17}


def test_rebecca_counters_a_drive_by_with_her_bonus() -> None:
    s, ev = play(make(two(b="rebecca-jones", at_b="t2")), [{"do": "move", "path": ["t2", "t3"]}], [2, 4, 3])
    assert out(s, ev)["hp"] == {"X": 16, "Y": 20}


def test_shooter_is_not_rolled_against_in_a_drive_by() -> None:
    s, ev = play(make(two(b="shooter", at_b="t2")), [{"do": "move", "path": ["t2", "t3"]}], [2])
    assert out(s, ev)["rolls"] == [2] and out(s)["hp"]["Y"] == 20


# --- weapon drops -------------------------------------------------------------------------------


def test_landmine_over_and_on() -> None:
    board = [{"kind": "landmine", "tile": "t2", "owner": "Y"}, {"kind": "landmine", "tile": "t3", "owner": "Y"}]
    s, ev = play(make(two(), board=board), [{"do": "move", "path": ["t2", "t3"]}], [2, 4])
    o = out(s, ev)
    assert o["damage_log"] == ["X -4 landmine by Y", "X -3 landmine by Y"]
    assert o["drops_on_board"] == [] and o["graveyard"] == {"landmine": 2}


def test_landmine_goes_only_on_a_tile_touched_this_turn() -> None:
    s = make(two(drops={"landmine": 1}))
    with pytest.raises(IllegalAction, match="touched"):
        ed.apply(s, {"do": "use_drop", "kind": "landmine", "tile": "t3"}, Chance([]))
    s2, _ = play(s, [{"do": "use_drop", "kind": "landmine", "tile": "t1"}])
    assert out(s2)["drops_on_board"] == ["landmine@t1"]


def test_landmine_dropped_on_a_car_goes_off_on_its_turn() -> None:
    s = make(two(at_b="t2", drops={"landmine": 1}))
    s, ev = play(s, [{"do": "move", "path": ["t2", "t3"]}, {"do": "use_drop", "kind": "landmine", "tile": "t2"},
                     {"do": "end_turn"}], [2, 4, 3])
    assert out(s)["hp"]["Y"] == 17 and out(s)["drops_on_board"] == []
    assert out(s, ev)["damage_log"] == ["Y -3 landmine by X"]  # the drive-by missed (4); the landmine drew 3


def test_fire_drop_rules() -> None:
    s = make(two(at_a="t1", drops={"fire": 1}), line(4, t2="fire"))
    with pytest.raises(IllegalAction, match="fire road"):
        play(s, [{"do": "move", "path": ["t2", "t3"]}, {"do": "use_drop", "kind": "fire", "tile": "t2"}], [2])
    s2, _ = play(s, [{"do": "move", "path": ["t2", "t3"]}, {"do": "use_drop", "kind": "fire", "tile": "t3"}], [2])
    assert out(s2)["drops_on_board"] == ["fire@t3"]
    s3, _ = play(s2, [{"do": "end_turn"}, {"do": "move", "path": ["t1"]}, {"do": "end_turn"}], [1])
    assert out(s3)["drops_on_board"] == [] and out(s3)["graveyard"] == {"fire": 1}


@pytest.mark.parametrize(("at_b", "hp"), [("t2", 18), ("t3", 19)])
def test_gunfire_by_distance(at_b: str, hp: int) -> None:
    s, _ = play(make(two(at_b=at_b, drops={"gunfire": 1})), [{"do": "use_drop", "kind": "gunfire", "target": "Y"}])
    assert out(s)["hp"]["Y"] == hp


@pytest.mark.parametrize(("at_b", "board", "message"), [
    ("t4", [], "reaches 1 or 2"),
    ("s", [], "start tile"),
    ("t2", [{"kind": "smoke", "tile": "t2", "owner": "Y"}], "smoke"),
])
def test_gunfire_limits(at_b: str, board: list, message: str) -> None:
    s = make(two(at_b=at_b, drops={"gunfire": 1}), board=board)
    with pytest.raises(IllegalAction, match=message):
        ed.apply(s, {"do": "use_drop", "kind": "gunfire", "target": "Y"}, Chance([]))


def test_one_drop_per_turn() -> None:
    s, _ = play(make(two(at_b="t2", drops={"gunfire": 2})), [{"do": "use_drop", "kind": "gunfire", "target": "Y"}])
    assert "use_drop" not in out(s)["can"]


# --- boss battles -------------------------------------------------------------------------------


def boss_state(character: str = "mista", **kw: Any) -> ed.State:
    road = [*line(1), {"id": "z", "kind": "omg-zilla-1", "at": [2, 0]}]
    other = "reegad" if character == "gooday" else "gooday"
    players = [{"name": "X", "character": character, "at": "z", **kw}, {"name": "Y", "character": other}]
    return make(players, road)


@pytest.mark.parametrize(("character", "smoke", "hp"), [
    ("mista", False, 17), ("reegad", False, 18), ("shooter", False, 20), ("mista", True, 20)])
def test_first_strike(character: str, smoke: bool, hp: int) -> None:
    s, _ = play(boss_state(character, drops={"smoke": 1}), [{"do": "boss_battle", "smoke": smoke}])
    assert out(s)["hp"]["X"] == hp
    assert ("use_drop" in out(s)["can"]) is not smoke  # smoke is the sequence's one drop


def test_cannot_leave_a_live_boss() -> None:
    s = boss_state()
    assert out(s)["can"] == ["boss_battle"]
    s, _ = play(s, [{"do": "boss_battle"}])
    with pytest.raises(IllegalAction):
        ed.apply(s, {"do": "move", "path": ["t1"]}, Chance([1]))


@pytest.mark.parametrize(("character", "rolls", "boss"), [
    ("mista", [3], 7), ("rebecca-jones", [2], 7), ("rebecca-jones", [4], 10), ("ariel-and-flamin", [3, 2], 5)])
def test_boss_d4_action(character: str, rolls: list[int], boss: int) -> None:
    s, _ = play(boss_state(character), [{"do": "boss_battle"}, {"do": "attack"}], rolls)
    assert out(s)["boss_hp"]["omg-zilla-1"] == boss


def test_weapon_drops_deal_three_to_a_boss_and_mista_may_use_two_fires() -> None:
    s, _ = play(boss_state(drops={"fire": 2}), [{"do": "boss_battle"}, {"do": "use_drop", "kind": "fire", "count": 2}])
    assert out(s)["boss_hp"]["omg-zilla-1"] == 4
    with pytest.raises(IllegalAction, match="only Mista"):
        play(boss_state("gooday", drops={"fire": 2}),
             [{"do": "boss_battle"}, {"do": "use_drop", "kind": "fire", "count": 2}])


def test_boss_rewards() -> None:
    road = [*line(1), {"id": "z", "kind": "death-turret", "at": [2, 0]}]
    players = [{"name": "X", "character": "mista", "at": "z"}, {"name": "Y", "character": "gooday", "at": "z"},
               {"name": "Z", "character": "shooter", "at": "t1"}]
    s = make(players, road, boss_hp={"death-turret": 1}, graveyard={"smoke": 1, "fire": 1})
    s, _ = play(s, [{"do": "boss_battle"}, {"do": "attack"}], [1])
    o = out(s)
    assert o["rewards_owed"] == ["X", "Y"] and o["power_cards"] == {"X": 3, "Y": 2, "Z": 2}
    assert "end_turn" not in o["can"]
    s, _ = play(s, [{"do": "collect_drop", "player": "Y", "kind": "fire"},
                    {"do": "collect_drop", "player": "X", "kind": "smoke"}])
    assert out(s)["graveyard"] == {} and "end_turn" in out(s)["can"]
    with pytest.raises(IllegalAction, match="no boss reward"):
        ed.apply(s, {"do": "collect_drop", "player": "Z", "kind": "smoke"}, Chance([]))


def test_final_tile_is_locked_until_the_sub_bosses_die() -> None:
    with pytest.raises(IllegalAction, match="sub-bosses"):
        play(make(two(at_a="t2"), final_road()), [{"do": "move", "path": ["h"]}], [1])
    s, _ = play(make(two(at_a="t2"), final_road(), boss_hp=SUBS_DEAD), [{"do": "move", "path": ["h"]}], [1])
    assert out(s)["phase"] == "boss-pending"


# --- king of the hill ---------------------------------------------------------------------------


def finale(players: list[dict[str, Any]], arrivals: list[str]) -> ed.State:
    return make(players, final_road(), boss_hp={**SUBS_DEAD, "final-boss": 0}, tile_stack=[], final_arrivals=arrivals)


def test_second_arrival_is_struck_first_by_the_first() -> None:
    s, ev = play(finale(two(at_a="t2", at_b="h"), ["Y"]), [{"do": "move", "path": ["h"]}], [1])
    assert out(s, ev)["damage_log"] == ["X -3 first-strike by Y"]


def test_third_arrival_targets_and_the_target_strikes_first() -> None:
    players = [{"name": "X", "character": "reegad", "at": "t2"}, {"name": "Y", "character": "gooday", "at": "h"},
               {"name": "Z", "character": "mista", "at": "h"}]
    s = finale(players, ["Y", "Z"])
    with pytest.raises(IllegalAction, match="must target"):
        play(s, [{"do": "move", "path": ["h"]}], [1])
    s, ev = play(s, [{"do": "move", "path": ["h"], "target": "Z"}], [1])
    assert out(s, ev)["damage_log"] == ["X -2 first-strike by Z"]


def test_shooter_takes_no_first_strike_on_the_final_tile() -> None:
    s, _ = play(finale(two("shooter", at_a="t2", at_b="h"), ["Y"]), [{"do": "move", "path": ["h"]}], [1])
    assert out(s)["hp"]["X"] == 20


def test_finale_drops_and_smoke() -> None:
    s = finale(two(at_a="h", at_b="h", drops={"gunfire": 1, "smoke": 1}), ["X", "Y"])
    hit, _ = play(s, [{"do": "use_drop", "kind": "gunfire", "target": "Y"}])
    assert out(hit)["hp"]["Y"] == 17
    hidden, _ = play(s, [{"do": "use_drop", "kind": "smoke"}, {"do": "end_turn"}])
    assert "attack" not in out(hidden)["can"]
    with pytest.raises(IllegalAction):
        ed.apply(hidden, {"do": "attack", "target": "X"}, Chance([3]))


def test_last_car_standing_wins() -> None:
    s = finale([{"name": "X", "character": "mista", "at": "h"}, {"name": "Y", "character": "gooday", "at": "h",
                                                                  "hp": 1}], ["X", "Y"])
    s, _ = play(s, [{"do": "attack", "target": "Y"}], [1])
    assert out(s)["winner"] == "X"
    with pytest.raises(IllegalAction, match="over"):
        ed.apply(s, {"do": "end_turn"}, Chance([]))


# --- car bomb -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("reading", "z_hp"), [("same-tile", 20), ("all-players", 19)])
def test_car_bomb_readings(reading: str, z_hp: int) -> None:
    players = [*two(at_b="t2"), {"name": "Z", "character": "shooter", "at": "t5"}]
    players[1]["hp"] = 1
    s, _ = play(make(players, rules={"car_bomb": reading}), [{"do": "move", "path": ["t2"]}], [1, 1])
    o = out(s)
    assert o["eliminated"] == ["Y"] and o["hp"]["X"] == 19 and o["hp"]["Z"] == z_hp


def test_car_bomb_does_nothing_to_reegad_and_can_chain() -> None:
    players = [{"name": "X", "character": "reegad", "at": "t1"},
               {"name": "Y", "character": "gooday", "at": "t2", "hp": 1},
               {"name": "Z", "character": "mista", "at": "t2", "hp": 1}]
    s, _ = play(make(players), [{"do": "move", "path": ["t2"], "targets": {"X": "Y", "Y": "X", "Z": "X"}}], [1, 1])
    o = out(s)
    assert o["eliminated"] == ["Y", "Z"] and o["hp"]["X"] == 20


# --- events and power cards ---------------------------------------------------------------------


def test_event_cards_wait_for_the_one_in_play() -> None:
    road = line(4, t2="event", t4="event")
    s, _ = play(make(two(), road), [{"do": "move", "path": ["t2"]},
                                    {"do": "event_move", "spaces": 2, "path": ["t3", "t4"]}], [1])
    o = out(s)
    assert (o["event_active"], o["events_owed"], o["can"]) == ("event-1", 1, ["event_move", "resolve_event"])
    s, _ = play(s, [{"do": "resolve_event"}, {"do": "resolve_event"}])
    assert out(s)["event_cards_drawn"] == 2 and "end_turn" in out(s)["can"]


def test_power_cards() -> None:
    s = make(two(at_a="s", power=["wrench", "other"]), power_deck=["fresh"])
    with pytest.raises(IllegalAction, match="start tile"):
        ed.apply(s, {"do": "play_power", "card": "wrench"}, Chance([]))
    s, _ = play(s, [{"do": "trade_power", "card": "other"}])
    assert s.players["X"].power == ["wrench", "fresh"] and s.power_discard == ["other"]
    assert "trade_power" not in out(s)["can"]


# --- every ability changes an outcome somewhere -------------------------------------------------


def _fire_tile(character: str) -> int:
    s, _ = play(make(two(character, "reegad"), line(3, t2="fire")), [{"do": "move", "path": ["t2"]}], [1])
    return out(s)["hp"]["X"]


def _hazard(character: str) -> tuple:
    s, ev = play(make(two(character, "mista" if character != "mista" else "gooday"), line(3, t2="hazard")),
                 [{"do": "move", "path": ["t2"]}], [1] if character == "gooday" else [1, 1])
    return out(s, ev)["rolls"], out(s)["hp"]["X"]


def _driven_by(character: str) -> dict:
    other = "mista" if character != "mista" else "gooday"
    s, _ = play(make(two(other, character, at_b="t2")), [{"do": "move", "path": ["t2", "t3"]}],
                [2, 2, 2] if ed.counters_drive_by(character) else ([2] if character == "shooter" else [2, 2]))
    return out(s)["hp"]


def _battle(character: str) -> dict:
    other = "mista" if character != "mista" else "gooday"
    rolls = [1, 1, 1, 1] if ed.strikes(character) == 2 else [1, 1, 1]
    s, _ = play(make(two(character, other, at_b="t2")), [{"do": "move", "path": ["t2"]}], rolls)
    return out(s)["hp"]


def _landmine(character: str) -> int:
    s, _ = play(make(two(character, "reegad" if character != "reegad" else "mista"),
                     board=[{"kind": "landmine", "tile": "t2", "owner": "Y"}]), [{"do": "move", "path": ["t2"]}], [1])
    return out(s)["hp"]["X"]


def _boss_round(character: str) -> tuple:
    rolls = [2, 2] if ed.strikes(character) == 2 else [2]
    s, _ = play(boss_state(character), [{"do": "boss_battle"}, {"do": "attack"}], rolls)
    return out(s)["hp"]["X"], out(s)["boss_hp"]["omg-zilla-1"]


@pytest.mark.parametrize(("character", "probe", "baseline"), [
    ("gooday", _hazard, "shooter"),
    ("mista", _fire_tile, "gooday"),
    ("rebecca-jones", _driven_by, "gooday"),
    ("rebecca-jones", _boss_round, "gooday"),
    ("shooter", _driven_by, "gooday"),
    ("shooter", _boss_round, "gooday"),
    ("reegad", _battle, "gooday"),
    ("reegad", _landmine, "gooday"),
    ("ariel-and-flamin", _landmine, "gooday"),
    ("ariel-and-flamin", _battle, "gooday"),
])
def test_every_ability_changes_an_outcome(character: str, probe: Any, baseline: str) -> None:
    assert probe(character) != probe(baseline)


# --- outcome and drawing ------------------------------------------------------------------------


def test_outcome_keys_are_stable() -> None:
    assert set(out(make(two()))) == {
        "turn", "phase", "hp", "eliminated", "positions", "hazard_side", "boss_hp", "bosses_defeated", "tiles_laid",
        "road", "tile_stack_left", "drops_on_board", "inventory", "drops_held", "power_cards", "graveyard",
        "event_active", "events_owed", "event_cards_drawn", "rewards_owed", "final_arrivals", "first_on_final_tile",
        "shielded", "winner", "can", "events", "damage", "damage_log", "rolls", "hazard"}


def test_apply_does_not_touch_the_old_state_and_ignores_expect() -> None:
    s = make(two())
    s2, _ = ed.apply(s, {"do": "move", "path": ["t2"], "expect": {"hp": {"X": 1}}}, Chance([1]))
    assert out(s)["positions"]["X"] == "t1" and out(s2)["positions"]["X"] == "t2"


def test_svg_is_deterministic_and_escaped() -> None:
    players = [{"name": "<A&B>", "character": "mista", "at": "t1"}, {"name": "Y", "character": "gooday"}]
    s = make(players, [*line(2), {"id": "z\"1", "kind": "death-turret", "at": [3, 0]}],
             board=[{"kind": "smoke", "tile": "t2", "owner": "Y"}])
    svg = ed.draw_svg(s)
    assert svg == ed.draw_svg(make(players, [*line(2), {"id": "z\"1", "kind": "death-turret", "at": [3, 0]}],
                                   board=[{"kind": "smoke", "tile": "t2", "owner": "Y"}]))
    assert "&lt;A&amp;B&gt;" in svg and "<A&B>" not in svg and "z&quot;1" in svg
    assert "7/7 HP" in svg and "smoke" in svg


# --- exact odds ---------------------------------------------------------------------------------


def table(table_id: str) -> ed.OddsTable:
    return next(t for t in ed.odds() if t.id == table_id)


def column(t: ed.OddsTable, name: str) -> dict[str, Fraction]:
    i = t.columns.index(name)
    return {label: probs[i] for label, probs in t.rows if probs[i]}


def test_every_distribution_sums_to_one() -> None:
    tables = ed.odds()
    assert len({t.id for t in tables}) == len(tables)
    for t in tables:
        for i, name in enumerate(t.columns):
            assert sum(probs[i] for _, probs in t.rows) == 1, (t.id, name)
        assert t.character == "any" or t.character in ed.CHARACTERS
        assert t.as_dict()["rows"][0][1]["percent"].endswith("%")


def test_odds_spot_values_from_the_printed_tables() -> None:
    # Hazard: fail -1, fail -2, pass -1, pass 0, one quarter each; mean damage (1 + 2 + 1 + 0) / 4 = 1.
    assert table("hazard-attempt-any").means == (Fraction(1),)
    assert dict(table("hazard-attempt-gooday").rows) == {"pass, 0 HP": (Fraction(1),)}
    # Reegad: 1 -> 0, 2 -> 1, 1 -> 0, 0: passing is 1/2 and every pass is free.
    assert column(table("hazard-attempt-reegad"), "probability")["pass, 0 HP"] == Fraction(1, 2)
    # Damage table 1, 2, 3, miss: mean 6/4.
    assert table("battle-it-out-any").means == (Fraction(3, 2),) * 3
    # Two independent strikes: 6 only from 3 + 3 (1/16); 3 from 0+3, 3+0, 1+2, 2+1 (4/16).
    ariel = column(table("battle-it-out-ariel-and-flamin"), "dealt by its strike as the mover")
    assert ariel["-6 HP"] == Fraction(1, 16) and ariel["-3 HP"] == Fraction(1, 4)
    # Rebecca's counter: 2, 3, 4 or a miss -> mean 9/4; her plain battle strike is unchanged.
    assert table("battle-it-out-rebecca-jones").means == (Fraction(3, 2), Fraction(9, 4), Fraction(3, 2))
    assert column(table("drive-by-shooter"), "taken from a drive-by") == {"0 HP": Fraction(1)}
    assert table("drive-by-reegad").means[1] == Fraction(3, 4)  # (0 + 1 + 2 + 0) / 4
    assert table("landmine-any").means == (Fraction(5, 2), Fraction(3))
    assert table("landmine-reegad").means == (Fraction(3, 2), Fraction(2))
    assert table("landmine-ariel-and-flamin").means == (Fraction(0), Fraction(0))
    assert column(table("boss-battle-shooter"), "player loses to the first strike") == {"0 HP": Fraction(1)}
    assert column(table("boss-battle-reegad"), "player loses to the first strike") == {"-2 HP": Fraction(1)}
    assert table("boss-battle-ariel-and-flamin").means[0] == Fraction(3)


def test_odds_and_engine_share_the_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    """Change a printed table and both the odds and the engine follow: they cannot drift apart."""
    monkeypatch.setitem(ed.STRIKE_TABLE, 4, 4)
    assert table("battle-it-out-any").means[0] == Fraction(10, 4)
    s, _ = play(make(two(at_b="t2")), [{"do": "move", "path": ["t2", "t3"]}], [2, 4])
    assert out(s)["hp"]["Y"] == 16


def test_odds_match_replayed_engine_rolls() -> None:
    """Each hazard row's probability equals the share of D4 results that produce it in the engine."""
    seen: dict[tuple, int] = {}
    for roll in ed.D4:
        road = line(3, t2="hazard")
        s, _ = play(make(two("reegad"), road), [{"do": "move", "path": ["t2"]}], [1, roll])
        key = (out(s)["positions"]["X"] != "t2", 20 - out(s)["hp"]["X"])
        seen[key] = seen.get(key, 0) + 1
    engine = {f"{'pass' if ok else 'fail'}, {f'-{d} HP' if d else '0 HP'}": Fraction(n, 4)
              for (ok, d), n in seen.items()}
    assert engine == column(table("hazard-attempt-reegad"), "probability")


# --- the scenario files -------------------------------------------------------------------------

EXAMPLES = Path(__file__).resolve().parents[1] / "content" / "escape-deathrace-2182-micro" / "examples"
RULE_IDS = (
    "setup", "taking-a-turn", "movement", "landing-on-tiles", "start-tile", "straight-tile", "event-tile",
    "fire-tile", "nitro-nos-tile", "hazard-tiles", "weapon-drops", "landmine", "smoke-bomb", "gunfire", "fire-drop",
    "battle-it-out", "drive-by", "car-bomb", "boss-battle", "boss-rewards", "final-boss", "king-of-the-hill",
    "characters", "gooday", "mista", "rebecca-jones", "shooter", "reegad", "ariel-and-flamin", "power-cards",
    "event-cards", "questions-and-answers",
)


def test_every_scenario_replays() -> None:
    """Each example verifies, or is an erratum with its note (the runner judges; out_dir None draws nothing)."""
    loaded = load_scenarios([EXAMPLES], RULE_IDS)
    records = [run_scenario("escape-deathrace-2182-micro", sc, doc, ed, None) for sc, doc in loaded]
    bad = [f"{r['id']}: {r['message']}" for r in records if r["status"] == "failed"]
    assert not bad, "\n".join(bad)
    errata = sorted(r["id"] for r in records if r["status"] == "erratum")
    assert errata == ["car-bomb-final-boss-statement", "printed-final-boss-sequence"]
    for sc, doc in loaded:
        assert Path(doc.file).stem == sc.id


def test_scenarios_cover_every_rule_entry() -> None:
    rules = {sc.rule for sc, _ in load_scenarios([EXAMPLES], RULE_IDS)}
    assert set(RULE_IDS) - rules <= {"setup", "power-cards", "event-cards"}
    printed = [sc.id for sc, _ in load_scenarios([EXAMPLES]) if sc.source == "printed"]
    assert len([i for i in printed if i.startswith("qa-")]) == 7 and len(printed) == 12
