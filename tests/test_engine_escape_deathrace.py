"""Escape Deathrace 2182 Micro through the engine contract: set a state, apply typed actions with
labelled chance, assert; reachable setups; facts from content; whole games; exact odds."""

from __future__ import annotations

import dataclasses
import pickle
import random
import re
from fractions import Fraction
from pathlib import Path
from typing import Any, get_args

import pytest

from generators.content.scenario import Scripted
from generators.content.schema import to_data
from generators.games import escape_deathrace as ed
from generators.games.escape_deathrace import facts, policy
from generators.games.escape_deathrace.flow import settle
from generators.rules.chance import Chance
from generators.rules.facts import FaceFacts, GameContent, game_content
from generators.rules.refusals import IllegalAction, SetupError
from tests.helpers import real_content

GAME = ed.GAME
ROOT = Path(__file__).resolve().parents[1]
GAME_DATA = next(g for g in real_content().games if g.id == "escape-deathrace-2182-micro")
FACTS = game_content(GAME_DATA, GAME)
SUBS_DEAD = {"death-turret": 0, "omg-zilla-1": 0, "omg-zilla-2": 0}
ALL_DEAD = {**SUBS_DEAD, "final-boss": 0}

# --- helpers ------------------------------------------------------------------------------------


def line(n: int, **kinds: str) -> list[dict[str, Any]]:
    """A straight east-west road: s, t1 .. t<n>; `kinds` overrides a tile's kind (t3='hazard')."""
    road = [{"id": "s", "kind": "start", "at": [0, 0]}]
    for i in range(1, n + 1):
        tid = f"t{i}"
        road.append({"id": tid, "kind": kinds.get(tid, "straight"), "at": [i, 0]})
    return road


def setup(players: list[dict[str, Any]], road: list[dict[str, Any]] | None = None, **extra: Any) -> dict[str, Any]:
    return {"players": players, "road": road or line(4), **extra}


def make(players: list[dict[str, Any]], road: list[dict[str, Any]] | None = None, content: GameContent = FACTS,
         **extra: Any) -> ed.State:
    return GAME.initial_state(GAME.parse_setup(setup(players, road, **extra)), content)


def act(do: str, player: str = "X", **fields: Any) -> Any:
    return GAME.parse_action({"do": do, "player": player, **fields})


def chance(*results: tuple[str, Any]) -> Chance:
    return Chance([Scripted(label, value) for label, value in results])


def play(state: ed.State, actions: list[Any], *results: tuple[str, Any]) -> tuple[ed.State, list]:
    """Apply actions in order with labelled scripted chance; every scripted result must be used."""
    ch = chance(*results)
    events: list = []
    for action in actions:
        state, step = GAME.apply(state, action, ch)
        events += step
    assert not ch.unused, f"unused scripted results: {ch.unused}"
    return state, events


def out(state: ed.State, events: list | None = None) -> dict[str, Any]:
    return GAME.outcome(state, events or [])


def legal(state: ed.State) -> list[dict[str, Any]]:
    return GAME.legal_data(state)


def two(a: str = "mista", b: str = "gooday", at_a: str = "t1", at_b: str = "s", **pa: Any) -> list[dict[str, Any]]:
    return [{"name": "X", "character": a, "at": at_a, **pa}, {"name": "Y", "character": b, "at": at_b}]


def move(path: list[str], player: str = "X") -> list[Any]:
    return [act("draw", player), act("drive", player, path=path)]


# West of the start: a boss that has been fought has its tile on the road.
SUB_BOSS_TILES = [{"id": "dt", "kind": "death-turret", "at": [-1, 0]},
                  {"id": "z1", "kind": "omg-zilla-1", "at": [-2, 0]},
                  {"id": "z2", "kind": "omg-zilla-2", "at": [-3, 0]}]


def final_road(n: int = 2) -> list[dict[str, Any]]:
    return [*line(n), {"id": "h", "kind": "final-boss", "at": [n + 1, 0], "exits": "W"}, *SUB_BOSS_TILES]


def with_facts(component: str, face: str, **facts: Any) -> GameContent:
    """The game's content with one face's facts changed, as if the content file said so."""
    faces = tuple(dataclasses.replace(f, facts=dataclasses.replace(f.facts, **facts)) if f.id == face else f
                  for f in FACTS.faces(component))
    return GameContent(FACTS.game, {**FACTS.components, component: faces})


def with_count(component: str, face: str, count: int) -> GameContent:
    faces = tuple(dataclasses.replace(f, count=count) if f.id == face else f for f in FACTS.faces(component))
    return GameContent(FACTS.game, {**FACTS.components, component: faces})


# --- setup --------------------------------------------------------------------------------------


def test_setup_defaults_come_from_content() -> None:
    o = out(make([{"name": "X", "character": "mista"}, {"name": "Y", "character": "reegad"}]))
    assert o["hp"] == {"X": 20, "Y": 20}
    assert o["positions"] == {"X": "s", "Y": "s"}
    assert o["inventory"]["X"] == {"landmine": 1, "smoke": 1, "gunfire": 1, "fire": 1}
    assert o["boss_hp"] == {"death-turret": 7, "omg-zilla-1": 10, "omg-zilla-2": 10, "final-boss": 20}
    assert o["turn"] == "X" and o["winner"] is None and o["power_cards"] == {"X": 2, "Y": 2}


def test_facts_reach_the_engine() -> None:
    """Change a face's facts or count in content and the engine follows: nothing is retyped in Python."""
    assert out(make(two(), content=with_facts("character-cards", "mista", hp=15)))["hp"]["X"] == 15
    assert make(two(), content=with_facts("road-tiles", "death-turret", hp=9)).boss_hp["death-turret"] == 9
    tough = with_facts("character-cards", "mista", abilities=("tough",))
    s, _ = play(make(two(at_b="t2"), content=tough), [*move(["t2"]), act("end_turn")],
                ("movement", 1), ("battle-it-out X->Y", 4), ("counter Y->X", 1))
    assert out(s)["hp"]["X"] == 20  # Mista now shrugs off a 1-point hit like Reegad
    few = with_count("weapon-drops", "landmine", 1)
    with pytest.raises(SetupError, match="holds 1 landmine"):
        make(two(), content=few)
    assert ed.Box.of(FACTS).drops == {"landmine": 4, "smoke": 4, "gunfire": 4, "fire": 4}
    assert sum(ed.Box.of(FACTS).events.values()) == 13 and sum(ed.Box.of(FACTS).power.values()) == 11
    heals = with_facts("power-cards", "magic-monkey-wrench", effect=ed.Effect(heal=5))
    s, _ = play(make(two(hp=10, power=["magic-monkey-wrench"]), content=heals),
                [act("play_power", card="magic-monkey-wrench")])
    assert out(s)["hp"]["X"] == 15  # the card's effect is its facts: change them and the engine follows
    assert sum(t.count for t in ed.Box.of(FACTS).tiles.values()) == 20


@pytest.mark.parametrize(
    ("data", "path", "message"),
    [
        (setup([{"name": "X", "character": "batman"}]), ("players", 0, "character"), "unknown character"),
        (setup([{"name": "X", "character": "mista", "colour": "red"}]), ("players", 0, "colour"), "unknown key"),
        (setup([{"name": "X", "character": "mista"}], [{"id": "s", "kind": "start", "at": [0, 0], "exits": "NE"}]),
         ("road", 0, "exits"), "not straight"),
        (setup([{"name": "X", "character": "mista"}, {"name": "Y", "character": "mista"}]),
         ("players", 1, "character"), "already taken"),
        (setup([{"name": "X", "character": "mista", "at": "t1"}], line(1, t1="hazard")),
         ("players", 0, "hazard_side"), "one of its sides"),
        (setup([{"name": "X", "character": "mista"}], rules={"car_bomb": "nearby"}), ("rules", "car_bomb"),
         "expected one of"),
        (setup([{"name": "X", "character": "mista"}], [{"id": "a", "kind": "straight", "at": [0, 0]}]),
         ("road",), "start tile"),
        # Setups no game can reach:
        (setup([{"name": "X", "character": "mista", "at": "h"}], final_road()), ("players", 0, "at"),
         "while a sub-boss lives"),
        (setup([{"name": "X", "character": "mista", "drops": {"landmine": 30}}]), ("players", 0, "drops", "landmine"),
         "holds 4 landmine"),
        (setup([{"name": "X", "character": "mista", "drops": {"fire": 3}}], graveyard={"fire": 2}),
         ("graveyard", "fire"), "holds 4 fire"),
        (setup([{"name": "X", "character": "mista", "power": ["scrap-run"] * 2}]), ("players", 0, "power", 1),
         "holds 1 scrap-run"),
        (setup([{"name": "X", "character": "mista"}], power_deck=["magic-monkey-wrench"] * 4), ("power_deck", 3),
         "holds 4 magic-monkey-wrench"),
        (setup([{"name": "X", "character": "mista", "power": ["joker"]}]), ("players", 0, "power", 0),
         "no power card"),
        (setup([{"name": "X", "character": "mista"}], boss_hp={"death-turret": 8}), ("boss_hp", "death-turret"),
         "0 to 7"),
        (setup([{"name": "X", "character": "mista"}], final_road(), boss_hp={"final-boss": 12}),
         ("boss_hp", "final-boss"), "while a sub-boss lives"),
        (setup([{"name": "X", "character": "mista"}], boss_hp={"omg-zilla-2": 3}), ("boss_hp", "omg-zilla-2"),
         "its tile is on the road"),
        (setup([{"name": "X", "character": "mista", "hp": 21}]), ("players", 0, "hp"), "starts with 20"),
        (setup([{"name": "X", "character": "mista"}], line(5, t1="fire", t2="fire", t3="fire")), ("road", 2),
         "holds 1 Fire"),
        (setup([{"name": "X", "character": "mista"}], final_road(), boss_hp=SUBS_DEAD, tile_stack=["straight"]),
         ("tile_stack",), "last tile laid"),
        (setup([{"name": "X", "character": "mista"}], tile_stack=["final-boss"]), ("tile_stack", 0), "set aside"),
        (setup([{"name": "X", "character": "mista"}], [*line(1), {"id": "far", "kind": "straight", "at": [5, 5]}]),
         ("road", 2), "not joined"),
        (setup([{"name": "X", "character": "mista"}], board=[{"kind": "landmine", "tile": "t1", "owner": "X"},
                                                             {"kind": "landmine", "tile": "t1", "owner": "X"}]),
         ("board", 1, "tile"), "already a landmine"),
        (setup([{"name": "X", "character": "mista"}], line(2, t2="hazard"),
               board=[{"kind": "fire", "tile": "t2", "owner": "X"}]), ("board", 0, "tile"), "hazard"),
        (setup([{"name": "X", "character": "mista", "at": "h"}, {"name": "Y", "character": "gooday", "at": "h"}],
               final_road(), boss_hp=ALL_DEAD, final_arrivals=["X"]), ("final_arrivals",), "arrival order"),
        (setup([{"name": "X", "character": "mista"}], event_deck=["junkyard", "junkyard"]), ("event_deck", 1),
         "holds 1 Junkyard event card"),
        (setup([{"name": "X", "character": "mista"}], event_deck=["event-1"]), ("event_deck", 0), "roll-again"),
        (setup([{"name": n, "character": c} for n, c in zip("ABCDE", ["mista", "gooday", "reegad", "shooter",
                                                                     "rebecca-jones"], strict=True)]),
         ("players",), "1 to 4 players"),
    ],
)
def test_setup_errors_point_at_the_key(data: dict[str, Any], path: tuple, message: str) -> None:
    with pytest.raises(SetupError) as err:
        GAME.initial_state(GAME.parse_setup(data), FACTS)
    assert err.value.path == path
    assert message in err.value.message


# --- legal actions and decisions ----------------------------------------------------------------


def test_a_turn_is_a_series_of_decisions_each_after_its_draw() -> None:
    s = make(two(at_a="t2"))
    assert legal(s)[0] == {"do": "draw", "player": "X"}
    assert "drive" not in out(s)["can"]  # the path is chosen once the draw is known
    s, _ = play(s, [act("draw")], ("movement", 2))
    paths = sorted(tuple(a["path"]) for a in legal(s) if a["do"] == "drive")
    assert paths == [("t1",), ("t1", "s"), ("t3",), ("t3", "t4")]
    assert {a["do"] for a in legal(s)} == {"drive", "draw_tile"}


def test_every_listed_action_applies_and_nothing_else_does() -> None:
    s, _ = play(make(two(at_a="t2", at_b="t3", drops={"landmine": 1, "gunfire": 1})), [act("draw")], ("movement", 2))
    for action in GAME.legal_actions(s):
        GAME.apply(s, action, Chance.seeded(1))
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(s, act("drive", path=["t1", "t2"]), Chance.seeded(1))
    assert "twice" in refused.value.message
    assert {"do": "drive", "player": "X", "path": ["t1"]} in legal(s)


def test_only_the_player_to_act_acts() -> None:
    with pytest.raises(IllegalAction, match="X's turn"):
        GAME.apply(make(two()), act("draw", "Y"), Chance.seeded(1))
    assert GAME.legal_actions(make(two()), "Y") == [] and GAME.players_to_act(make(two())) == ["X"]


# --- movement -----------------------------------------------------------------------------------


def test_move_forward_and_backward() -> None:
    s, _ = play(make(two(at_a="t3")), move(["t2", "t1"]), ("movement", 2))
    assert out(s)["positions"]["X"] == "t1"


@pytest.mark.parametrize(
    ("path", "roll", "message"),
    [
        ([], 4, "at least 1 space"),
        (["t2", "t3", "t4"], 2, "costs 3"),
        (["t3"], 4, "not joined by road"),
        (["t2", "t1"], 4, "twice"),
        (["t9"], 4, "no tile"),
    ],
)
def test_illegal_paths(path: list[str], roll: int, message: str) -> None:
    s, _ = play(make(two()), [act("draw")], ("movement", roll))
    with pytest.raises(IllegalAction, match=message):
        GAME.apply(s, act("drive", path=path), Chance.seeded(1))


def test_no_skipping_the_turn() -> None:
    s = make(two())
    assert "end_turn" not in out(s)["can"]
    with pytest.raises(IllegalAction, match="Q&A 3") as err:
        GAME.apply(s, act("end_turn"), Chance.seeded(1))
    assert {"do": "draw", "player": "X"} in legal(s) and "draw for movement" in err.value.message
    drawn, _ = play(s, [act("draw")], ("movement", 1))
    with pytest.raises(IllegalAction, match="Q&A 3"):
        GAME.apply(drawn, act("end_turn"), Chance.seeded(1))


def test_with_no_road_to_drive_on_the_turn_may_end() -> None:
    s = make(two(at_a="s", at_b="s"), [{"id": "s", "kind": "start", "at": [0, 0]}, *SUB_BOSS_TILES], tile_stack=[],
             boss_hp=SUBS_DEAD)
    s, _ = play(s, [act("draw"), act("draw_tile")], ("movement", 3))
    assert out(s)["tile_drawn"] == "final-boss"  # the stack is used up: the final boss tile comes last
    s, _ = play(s, [act("lay_tile", at=[1, 0])])
    assert out(s)["road"]["n1"] == "final-boss" and s.tiles["n1"].exits == "W"
    assert {"do": "drive", "player": "X", "path": ["n1"]} in legal(s)
    stuck, _ = play(make(two(at_a="s", at_b="s"), [{"id": "s", "kind": "start", "at": [0, 0], "exits": "EW"},
                                                   {"id": "h", "kind": "final-boss", "at": [1, 0], "exits": "W"}],
                         tile_stack=[]), [act("draw")], ("movement", 2))
    assert legal(stuck) == [{"do": "end_turn", "player": "X"}]  # the final tile is locked; nothing to lay


def test_lay_tiles_one_at_a_time_then_move() -> None:
    s = make(two("shooter"), line(1), tile_stack=["fire-straight", "event-dead-end"])
    s, _ = play(s, [act("draw"), act("draw_tile")], ("movement", 2))
    assert out(s)["tile_drawn"] == "fire-straight"
    assert legal(s) == [{"do": "lay_tile", "player": "X", "at": [-1, 0]},
                        {"do": "lay_tile", "player": "X", "at": [2, 0]}]
    s, ev = play(s, [act("lay_tile", at=[2, 0]), act("draw_tile"), act("lay_tile", at=[3, 0]),
                     act("drive", path=["n1"])])
    o = out(s, ev)
    assert o["road"]["n1"] == "fire" and o["road"]["n2"] == "event" and s.tiles["n2"].exits == "W"
    assert o["hp"]["X"] == 18 and o["tile_stack_left"] == 0
    assert "draw_tile" not in out(play(make(two("shooter"), line(1), tile_stack=["straight"] * 3),
                                       [act("draw"), act("draw_tile"), act("lay_tile", at=[2, 0])],
                                       ("movement", 1))[0])["can"]


def test_gooday_lays_one_more_tile() -> None:
    s, _ = play(make(two("gooday", "mista"), line(1), tile_stack=["straight"] * 3),
                [act("draw"), act("draw_tile"), act("lay_tile", at=[2, 0]), act("draw_tile"),
                 act("lay_tile", at=[3, 0])], ("movement", 1))
    assert "draw_tile" not in out(s)["can"]
    s, _ = play(s, [act("drive", path=["n1", "n2"])])
    assert out(s)["positions"]["X"] == "n2"


def test_a_stack_in_unknown_order_draws_labelled_road_tiles() -> None:
    s, _ = play(make(two(), line(1)), [act("draw"), act("draw_tile")], ("movement", 1), ("road tile", "hazard"))
    assert out(s)["tile_drawn"] == "hazard"
    with pytest.raises(IllegalAction, match="not possible here"):
        play(make(two(), line(1)), [act("draw"), act("draw_tile")], ("movement", 1), ("road tile", "start"))


def test_laying_joins_an_open_end_and_names_its_source_when_two_lead_there() -> None:
    road = [{"id": "s", "kind": "start", "at": [0, 0], "exits": "NS"},
            {"id": "a", "kind": "event", "at": [0, -1], "exits": "NESW"},
            {"id": "b", "kind": "nitro-nos", "at": [0, -2], "exits": "NESW", "arrow": "N"},
            {"id": "c", "kind": "fire", "at": [1, -2], "exits": "NESW"}]
    s, _ = play(make(two(at_a="s", at_b="s"), road, tile_stack=["straight"]), [act("draw"), act("draw_tile")],
                ("movement", 1))
    spots = [(tuple(a["at"]), a.get("from")) for a in legal(s)]
    assert ((1, -1), "a") in spots and ((1, -1), "c") in spots and ((0, 1), None) in spots
    s2, _ = play(s, [act("lay_tile", at=[1, -1], **{"from": "c"})])
    assert s2.tiles["n1"].exits == "NS"
    s3, _ = play(s, [act("lay_tile", at=[1, -1], **{"from": "a"})])
    assert s3.tiles["n1"].exits == "EW"
    with pytest.raises(IllegalAction):
        GAME.apply(s, act("lay_tile", at=[5, 5]), Chance.seeded(1))


def test_a_drawn_nitro_tile_is_laid_with_its_arrows_chosen() -> None:
    s, _ = play(make(two(), line(1), tile_stack=["nitro-nos-straight"]), [act("draw"), act("draw_tile")],
                ("movement", 1))
    assert [a.get("arrow") for a in legal(s) if a["at"] == [2, 0]] == ["E", "W"]


def test_nitro_is_a_free_space_along_the_arrows_only() -> None:
    road = line(4, t2="nitro-nos")
    s, _ = play(make(two(), road), move(["t2", "t3"]), ("movement", 1))
    assert out(s)["positions"]["X"] == "t3"
    s, _ = play(make(two(at_a="t3"), road), [act("draw")], ("movement", 1))
    with pytest.raises(IllegalAction, match="costs 2"):  # against the arrows it is a space like any other
        GAME.apply(s, act("drive", path=["t2", "t1"]), Chance.seeded(1))


def test_turning_off_a_nitro_costs_the_space() -> None:
    road = [*line(3), {"id": "n", "kind": "straight", "at": [2, -1], "exits": "NS"}]
    road[2] = {"id": "t2", "kind": "nitro-nos", "at": [2, 0], "exits": "NESW", "arrow": "E"}
    s, _ = play(make(two(), road), [act("draw")], ("movement", 1))
    with pytest.raises(IllegalAction, match="costs 2"):
        GAME.apply(s, act("drive", path=["t2", "n"]), Chance.seeded(1))


def test_reegad_gets_one_more_from_a_nitro() -> None:
    road = line(5, t2="nitro-nos")
    s, _ = play(make(two(), road), [act("draw")], ("movement", 1))
    with pytest.raises(IllegalAction, match="costs 2"):
        GAME.apply(s, act("drive", path=["t2", "t3", "t4"]), Chance.seeded(1))
    s, _ = play(make(two("reegad"), road), move(["t2", "t3", "t4"]), ("movement", 1))
    assert out(s)["positions"]["X"] == "t4"


def test_nitro_draw_at_the_end_of_the_road() -> None:
    s, _ = play(make(two(), line(2, t2="nitro-nos"), tile_stack=["event-straight"]), move(["t2"]),
                ("movement", 1))
    assert "nitro_draw" in out(s)["can"]
    s, _ = play(s, [act("nitro_draw")], ("event card", "tailwind"))
    o = out(s)
    assert o["positions"]["X"] == "n1" and o["road"]["n1"] == "event" and o["event_active"] == "tailwind"
    skipped, _ = play(make(two(), line(2, t2="nitro-nos"), tile_stack=["event-straight"]),
                      [*move(["t2"]), act("play_power", card="magic-monkey-wrench")], ("movement", 1))
    assert "nitro_draw" not in out(skipped)["can"]  # only right after the drive that earned it


def test_after_the_final_boss_dies_cars_take_the_direct_path() -> None:
    s = make(two(at_a="t2", at_b="h"), final_road(3), boss_hp=ALL_DEAD, tile_stack=[], final_arrivals=["Y"])
    s, _ = play(s, [act("draw")], ("movement", 1))
    assert legal(s) == [{"do": "drive", "player": "X", "path": ["t3"]}]
    with pytest.raises(IllegalAction, match="most direct path"):
        GAME.apply(s, act("drive", path=["t1"]), Chance.seeded(1))


# --- hazards ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("roll", "where", "hp"), [(1, "t2", 19), (2, "t2", 18), (3, "t3", 19), (4, "t3", 20)])
def test_hazard_table(roll: int, where: str, hp: int) -> None:
    s, _ = play(make(two(), line(3, t2="hazard")), [*move(["t2"]), act("hazard_attempt")],
                ("movement", 1), ("hazard", roll))
    o = out(s)
    assert (o["positions"]["X"], o["hp"]["X"]) == (where, hp)
    assert "hazard_attempt" not in o["can"]  # one attempt a turn


def test_hazard_stops_the_car_but_not_gooday() -> None:
    s, _ = play(make(two(), line(4, t2="hazard")), [act("draw")], ("movement", 2))
    with pytest.raises(IllegalAction, match="path must end there"):
        GAME.apply(s, act("drive", path=["t2", "t3"]), Chance.seeded(1))
    s, ev = play(make(two("gooday", "mista"), line(4, t2="hazard")), move(["t2", "t3"]), ("movement", 1))
    assert out(s, ev)["positions"]["X"] == "t3" and out(s, ev)["rolls"] == [1]


def test_a_car_at_a_hazard_must_cross_it_or_retreat() -> None:
    s = make(two(at_a="t2", hazard_side="W"), line(4, t2="hazard"))
    assert out(s)["can"] == ["draw", "hazard_attempt", "play_power", "trade_power"]
    drawn, _ = play(s, [act("draw")], ("movement", 1))
    with pytest.raises(IllegalAction, match="hazard attempt"):
        GAME.apply(drawn, act("drive", path=["t3"]), Chance.seeded(1))
    back, _ = play(drawn, [act("drive", path=["t1"])])
    assert out(back)["positions"]["X"] == "t1"
    crossed, _ = play(s, [act("hazard_attempt")], ("hazard", 4))
    assert out(crossed)["positions"]["X"] == "t3" and "draw" not in out(crossed)["can"]


def test_no_weapon_drops_on_a_hazard() -> None:
    s = make(two(at_a="t2", hazard_side="W"), line(4, t2="hazard"))
    with pytest.raises(IllegalAction, match="hazard tile"):
        GAME.apply(s, act("use_drop", kind="smoke"), Chance.seeded(1))


# --- battle-it-out and drive-by -------------------------------------------------------------------


def test_battle_it_out_both_strike() -> None:
    s, ev = play(make(two(at_b="t2")), move(["t2"]), ("movement", 1), ("battle-it-out X->Y", 3),
                 ("counter Y->X", 2))
    assert out(s, ev)["damage_log"] == ["Y -3 battle-it-out by X", "X -2 battle-it-out by Y"]


def test_three_cars_each_pick_a_target_when_their_strike_comes() -> None:
    players = [*two(at_b="t2"), {"name": "Z", "character": "shooter", "at": "t2"}]
    s, _ = play(make(players), move(["t2"]), ("movement", 1))
    assert GAME.players_to_act(s) == ["X"]
    assert legal(s) == [{"do": "strike", "player": "X", "target": "Y"}, {"do": "strike", "player": "X", "target": "Z"}]
    s, _ = play(s, [act("strike", target="Z")], ("battle-it-out X->Z", 1))
    assert GAME.players_to_act(s) == ["Y"]  # Y picks next: X or Z
    s, ev = play(s, [act("strike", "Y", target="Z"), act("strike", "Z", target="X")], ("counter Y->Z", 2),
                 ("counter Z->X", 3))
    assert out(s, ev)["damage_log"] == ["Z -2 battle-it-out by Y", "X -3 battle-it-out by Z"]
    assert GAME.players_to_act(s) == ["X"] and out(s)["hp"] == {"X": 17, "Y": 20, "Z": 17}


@pytest.mark.parametrize(
    ("road", "board"),
    [
        (line(3), [{"kind": "smoke", "tile": "t2", "owner": "Y"}]),
        ([*line(1), {"id": "t2", "kind": "omg-zilla-1", "at": [2, 0]}], []),
    ],
)
def test_no_battle_in_smoke_or_on_a_live_boss(road: list, board: list) -> None:
    s, ev = play(make(two(at_b="t2"), road, board=board), move(["t2"]), ("movement", 1))
    o = out(s, ev)
    assert o["hp"] == {"X": 20, "Y": 20}
    assert "battle-it-out" not in o["events"]


def test_drive_by_is_one_sided() -> None:
    s, _ = play(make(two(at_b="t2")), move(["t2", "t3"]), ("movement", 2), ("drive-by X->Y", 3))
    assert out(s)["hp"] == {"X": 20, "Y": 17}


def test_rebecca_counters_a_drive_by_with_her_bonus() -> None:
    s, _ = play(make(two(b="rebecca-jones", at_b="t2")), move(["t2", "t3"]), ("movement", 2),
                ("drive-by X->Y", 4), ("counter Y->X", 3))
    assert out(s)["hp"] == {"X": 16, "Y": 20}


def test_shooter_is_not_rolled_against_in_a_drive_by() -> None:
    s, ev = play(make(two(b="shooter", at_b="t2")), move(["t2", "t3"]), ("movement", 2))
    assert out(s, ev)["rolls"] == [2] and out(s)["hp"]["Y"] == 20


# --- weapon drops -------------------------------------------------------------------------------


def test_landmine_over_and_on() -> None:
    board = [{"kind": "landmine", "tile": "t2", "owner": "Y"}, {"kind": "landmine", "tile": "t3", "owner": "Y"}]
    s, ev = play(make(two(), board=board), move(["t2", "t3"]), ("movement", 2), ("landmine", 4))
    o = out(s, ev)
    assert o["damage_log"] == ["X -4 landmine by Y", "X -3 landmine by Y"]
    assert o["drops_on_board"] == [] and o["graveyard"] == {"landmine": 2}


def test_landmine_goes_only_on_a_tile_touched_this_turn() -> None:
    s = make(two(drops={"landmine": 1}))
    assert [a for a in legal(s) if a["do"] == "use_drop"] == [
        {"do": "use_drop", "player": "X", "kind": "landmine", "tile": "t1"}]
    with pytest.raises(IllegalAction, match="touched"):
        GAME.apply(s, act("use_drop", kind="landmine", tile="t3"), Chance.seeded(1))
    s2, _ = play(s, [act("use_drop", kind="landmine", tile="t1")])
    assert out(s2)["drops_on_board"] == ["landmine@t1"]


def test_landmine_dropped_on_a_car_goes_off_on_its_turn() -> None:
    s = make(two(at_b="t2", drops={"landmine": 1}))
    s, ev = play(s, [*move(["t2", "t3"]), act("use_drop", kind="landmine", tile="t2"), act("end_turn")],
                 ("movement", 2), ("drive-by X->Y", 4), ("landmine", 3))
    assert out(s)["hp"]["Y"] == 17 and out(s)["drops_on_board"] == []
    assert out(s, ev)["damage_log"] == ["Y -3 landmine by X"]  # the drive-by missed (4); the landmine drew 3


def test_fire_drop_goes_where_the_car_moved_in_its_most_recent_turn() -> None:
    s = make(two(at_a="t1", drops={"fire": 1}), line(4, t2="fire"))
    assert not [a for a in legal(s) if a["do"] == "use_drop"]  # no movement yet: nowhere to set fire
    s, _ = play(s, move(["t2", "t3"]), ("movement", 2))
    assert [a["tile"] for a in legal(s) if a["do"] == "use_drop"] == ["t3"]  # t2 is a fire road tile
    with pytest.raises(IllegalAction, match="fire road"):
        GAME.apply(s, act("use_drop", kind="fire", tile="t2"), Chance.seeded(1))
    burning, _ = play(s, [act("use_drop", kind="fire", tile="t3")])
    s3, _ = play(burning, [act("end_turn"), *move(["t1"], "Y"), act("end_turn", "Y")], ("movement", 1))
    assert out(s3)["drops_on_board"] == [] and out(s3)["graveyard"] == {"fire": 1}
    later, _ = play(s, [act("end_turn"), *move(["t1"], "Y"), act("end_turn", "Y")], ("movement", 1))
    assert [a["tile"] for a in legal(later) if a["do"] == "use_drop" and a["kind"] == "fire"] == ["t3"]


def test_mista_sets_two_fires_on_two_tiles() -> None:
    s, _ = play(make(two(drops={"fire": 2}), line(4)), move(["t2", "t3"]), ("movement", 2))
    doubles = [a["tiles"] for a in legal(s) if a.get("count") == 2]
    assert doubles == [["t2", "t3"]]
    s, _ = play(s, [act("use_drop", kind="fire", count=2, tiles=["t2", "t3"])])
    assert out(s)["drops_on_board"] == ["fire@t2", "fire@t3"]
    gooday, _ = play(make(two("gooday", "mista", drops={"fire": 2}), line(4)), move(["t2", "t3"]), ("movement", 1))
    assert not [a for a in legal(gooday) if a.get("count") == 2]


@pytest.mark.parametrize(("at_b", "hp"), [("t2", 18), ("t3", 19)])
def test_gunfire_by_distance(at_b: str, hp: int) -> None:
    s, _ = play(make(two(at_b=at_b, drops={"gunfire": 1})), [act("use_drop", kind="gunfire", target="Y")])
    assert out(s)["hp"]["Y"] == hp


@pytest.mark.parametrize(("at_b", "board"), [
    ("t4", []),
    ("s", []),
    ("t2", [{"kind": "smoke", "tile": "t2", "owner": "Y"}]),
])
def test_gunfire_limits(at_b: str, board: list) -> None:
    s = make(two(at_b=at_b, drops={"gunfire": 1}), board=board)
    assert not [a for a in legal(s) if a["do"] == "use_drop"]
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, act("use_drop", kind="gunfire", target="Y"), Chance.seeded(1))
    assert legal(s) and err.value.message


INTERNAL_WORDS = re.compile(r"\bNone\b|\b[a-z]+_[a-z_]+\b|legal choices|not possible now|phase \w+|[{}]|'\w+'")


def refused(state: ed.State, action: Any) -> str:
    """The refusal's reason, checked to be in players' words."""
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, action, Chance.seeded(1))
    reason = err.value.message
    assert not INTERNAL_WORDS.search(reason), f"internal words in {reason!r}"
    assert reason == GAME.refusal(state, action)  # the same rules answer both questions
    return reason


@pytest.mark.parametrize(("at_b", "board", "why"), [
    ("t4", [], "Y is out of gunfire range: 3 road tiles away, and gunfire reaches 2 road tiles"),
    ("t2", [{"kind": "smoke", "tile": "t2", "owner": "Y"}], "no gunfire reaches Y on the 2nd Straight Road tile: "
     "smoke covers it"),
    ("t1", [], "Y is on X's own tile"),
    ("s", [], "no gunfire reaches Y on the Start tile"),
])
def test_gunfire_refusals_name_the_rule(at_b: str, board: list, why: str) -> None:
    s = make(two(at_b=at_b, drops={"gunfire": 1}), board=board)
    assert why in refused(s, act("use_drop", kind="gunfire", target="Y"))


def test_an_attack_off_a_boss_tile_names_the_boss_battle_rule() -> None:
    s, _ = play(make(two()), move(["t2"]), ("movement", 1))
    assert "an attack is a boss battle action" in refused(s, act("attack"))
    assert "the movement is already done this turn" in refused(s, act("drive", path=["t3"]))


def test_leaving_a_live_boss_after_the_d4_roll_names_the_boss_rule() -> None:
    s, _ = play(boss_state(), [act("boss_battle"), act("attack")], ("boss battle X->omg-zilla-1", 1))
    for action in (act("drive", path=["t1"]), act("draw")):
        assert "no car leaves the OMG-ZILLA" in refused(s, action)
    assert "the boss battle's D4 roll is already made this turn" in refused(s, act("attack"))


def test_refusals_out_of_turn_and_before_the_draw() -> None:
    s = make(two())
    assert refused(s, act("draw", "Y")) == "it is X's turn, not Y's"
    assert refused(s, act("drive", path=["t2"])) == "draw for movement first"
    assert "cannot skip your turn" in refused(s, act("end_turn"))


def test_one_drop_per_turn() -> None:
    s, _ = play(make(two(at_b="t2", drops={"gunfire": 2})), [act("use_drop", kind="gunfire", target="Y")])
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
    s, _ = play(boss_state(character, drops={"smoke": 1, "gunfire": 1}), [act("boss_battle", smoke=smoke)])
    assert out(s)["hp"]["X"] == hp
    assert ("use_drop" in out(s)["can"]) is not smoke  # smoke is the sequence's one drop


def test_cannot_leave_a_live_boss_and_must_roll_the_d4() -> None:
    s = boss_state()
    assert out(s)["can"] == ["boss_battle"]
    s, _ = play(s, [act("boss_battle")])
    assert "end_turn" not in out(s)["can"] and "draw" not in out(s)["can"]
    s, _ = play(s, [act("attack")], ("boss battle X->omg-zilla-1", 1))
    assert "end_turn" in out(s)["can"] and "attack" not in out(s)["can"]


@pytest.mark.parametrize(("character", "rolls", "boss"), [
    ("mista", [3], 7), ("rebecca-jones", [2], 7), ("rebecca-jones", [4], 10), ("ariel-and-flamin", [3, 2], 5)])
def test_boss_d4_action(character: str, rolls: list[int], boss: int) -> None:
    s, _ = play(boss_state(character), [act("boss_battle"), act("attack")],
                *[("boss battle X->omg-zilla-1", r) for r in rolls])
    assert out(s)["boss_hp"]["omg-zilla-1"] == boss


def test_weapon_drops_deal_three_to_a_boss_and_mista_may_use_two_fires() -> None:
    s, _ = play(boss_state(drops={"fire": 2}), [act("boss_battle"), act("use_drop", kind="fire", count=2)])
    assert out(s)["boss_hp"]["omg-zilla-1"] == 4
    s, _ = play(boss_state("gooday", drops={"fire": 2}), [act("boss_battle")])
    with pytest.raises(IllegalAction, match="only Mista"):
        GAME.apply(s, act("use_drop", kind="fire", count=2), Chance.seeded(1))


def test_boss_rewards_are_taken_one_car_at_a_time() -> None:
    road = [*line(1), {"id": "z", "kind": "death-turret", "at": [2, 0]}]
    players = [{"name": "X", "character": "mista", "at": "z"}, {"name": "Y", "character": "gooday", "at": "z"},
               {"name": "Z", "character": "shooter", "at": "t1"}]
    s = make(players, road, boss_hp={"death-turret": 1}, graveyard={"smoke": 1, "fire": 1},
             power_discard=["magic-monkey-wrench"])
    s, _ = play(s, [act("boss_battle"), act("attack")], ("boss battle X->death-turret", 1))
    o = out(s)
    assert o["power_owed"] == ["X"] and o["rewards_owed"] == ["X", "Y"] and o["to_act"] == "X"
    assert legal(s) == [{"do": "draw_power", "player": "X"}, {"do": "draw_power", "player": "X", "take": "discard"}]
    s, _ = play(s, [act("draw_power", take="discard"), act("collect_drop", kind="smoke")])
    assert GAME.players_to_act(s) == ["Y"] and legal(s) == [{"do": "collect_drop", "player": "Y", "kind": "fire"}]
    with pytest.raises(IllegalAction, match="reward"):
        GAME.apply(s, act("end_turn"), Chance.seeded(1))
    s, _ = play(s, [act("collect_drop", "Y", kind="fire")])
    assert out(s)["graveyard"] == {} and "end_turn" in out(s)["can"]
    assert out(s)["power_cards"] == {"X": 3, "Y": 2, "Z": 2} and out(s)["inventory"]["Y"]["fire"] == 2


def test_a_reward_with_nothing_left_to_take_lapses() -> None:
    road = [*line(1), {"id": "z", "kind": "death-turret", "at": [2, 0]}]
    players = [{"name": "X", "character": "mista", "at": "z"}, {"name": "Y", "character": "gooday", "at": "z"}]
    s, ev = play(make(players, road, boss_hp={"death-turret": 1}, power_deck=[]),
                 [act("boss_battle"), act("attack")], ("boss battle X->death-turret", 1))
    o = out(s, ev)
    assert o["rewards_owed"] == [] and o["power_owed"] == [] and o["events"].count("reward-lapsed") == 3
    assert "end_turn" in o["can"] and o["power_cards"]["X"] == 2


def test_final_tile_is_locked_until_the_sub_bosses_die() -> None:
    s, _ = play(make(two(at_a="t2"), final_road()), [act("draw")], ("movement", 1))
    with pytest.raises(IllegalAction, match="sub-bosses"):
        GAME.apply(s, act("drive", path=["h"]), Chance.seeded(1))
    s, _ = play(make(two(at_a="t2"), final_road(), boss_hp=SUBS_DEAD), move(["h"]), ("movement", 1))
    assert out(s)["phase"] == "boss-pending"


# --- king of the hill ---------------------------------------------------------------------------


def finale(players: list[dict[str, Any]], arrivals: list[str], **extra: Any) -> ed.State:
    return make(players, final_road(), boss_hp=ALL_DEAD, tile_stack=[], final_arrivals=arrivals, **extra)


def test_second_arrival_is_struck_first_by_the_first() -> None:
    s, ev = play(finale(two(at_a="t2", at_b="h"), ["Y"]), move(["h"]), ("movement", 1))
    assert out(s, ev)["damage_log"] == ["X -3 first-strike by Y"]
    assert legal(s)[0] == {"do": "attack", "player": "X", "target": "Y"} and "end_turn" not in out(s)["can"]


def test_third_arrival_targets_and_the_target_strikes_first() -> None:
    players = [{"name": "X", "character": "reegad", "at": "t2"}, {"name": "Y", "character": "gooday", "at": "h"},
               {"name": "Z", "character": "mista", "at": "h"}]
    s, _ = play(finale(players, ["Y", "Z"]), move(["h"]), ("movement", 1))
    assert legal(s) == [{"do": "choose_target", "player": "X", "target": "Y"},
                        {"do": "choose_target", "player": "X", "target": "Z"}]
    s, ev = play(s, [act("choose_target", target="Z")])
    assert out(s, ev)["damage_log"] == ["X -2 first-strike by Z"]


def test_a_third_arrival_with_every_car_in_smoke_goes_on() -> None:
    players = [{"name": "X", "character": "reegad", "at": "t2"}, {"name": "Y", "character": "gooday", "at": "h"},
               {"name": "Z", "character": "mista", "at": "h"}]
    s = finale(players, ["Y", "Z"])
    s.shielded += ["Y", "Z"]  # both covered by their smoke (a state reached by play in the scenario)
    s, ev = play(s, move(["h"]), ("movement", 1))
    assert out(s, ev)["hp"]["X"] == 20 and "no-target" in out(s, ev)["events"]
    assert legal(s)[-1] == {"do": "end_turn", "player": "X"} and "attack" not in out(s)["can"]


def test_a_kill_by_first_strike_pays_the_striker() -> None:
    players = [{"name": "X", "character": "mista", "at": "t2", "hp": 3},
               {"name": "Y", "character": "gooday", "at": "h"}, {"name": "Z", "character": "shooter"}]
    s, _ = play(finale(players, ["Y"], graveyard={"gunfire": 1}), move(["h"]), ("movement", 1),
                ("power card", "scrap-run"))
    o = out(s)
    assert o["eliminated"] == ["X"] and o["power_cards"]["Y"] == 3 and o["rewards_owed"] == ["Y"]
    assert GAME.players_to_act(s) == ["Y"]
    s, _ = play(s, [act("collect_drop", "Y", kind="gunfire"), act("end_turn")])
    assert out(s)["turn"] == "Y" and out(s)["inventory"]["Y"]["gunfire"] == 2


def test_shooter_takes_no_first_strike_on_the_final_tile() -> None:
    s, _ = play(finale(two("shooter", at_a="t2", at_b="h"), ["Y"]), move(["h"]), ("movement", 1))
    assert out(s)["hp"]["X"] == 20


def test_finale_drops_and_smoke() -> None:
    s = finale(two(at_a="h", at_b="h", drops={"gunfire": 1, "smoke": 1}), ["X", "Y"])
    hit, _ = play(s, [act("use_drop", kind="gunfire", target="Y")])
    assert out(hit)["hp"]["Y"] == 17
    hidden, _ = play(s, [act("attack", target="Y"), act("use_drop", kind="smoke"), act("end_turn")],
                     ("final tile X->Y", 4))
    assert "attack" not in out(hidden)["can"] and out(hidden)["shielded"] == ["X"]
    with pytest.raises(IllegalAction):
        GAME.apply(hidden, act("attack", "Y", target="X"), Chance.seeded(1))


def test_last_car_standing_wins() -> None:
    s = finale([{"name": "X", "character": "mista", "at": "h"}, {"name": "Y", "character": "gooday", "at": "h",
                                                                  "hp": 1}], ["X", "Y"])
    s, _ = play(s, [act("attack", target="Y")], ("final tile X->Y", 1), ("power card", "scrap-run"))
    assert out(s)["winner"] == "X" and GAME.players_to_act(s) == []
    assert GAME.result(s)["result"] == "Mista"
    with pytest.raises(IllegalAction, match="over"):
        GAME.apply(s, act("end_turn"), Chance.seeded(1))


# --- car bomb and clocks that must keep running -------------------------------------------------


@pytest.mark.parametrize(("reading", "z_hp"), [("same-tile", 20), ("all-players", 19)])
def test_car_bomb_readings(reading: str, z_hp: int) -> None:
    players = [*two(at_b="t2"), {"name": "Z", "character": "shooter", "at": "t4"}]
    players[1]["hp"] = 1
    s, _ = play(make(players, rules={"car_bomb": reading}), move(["t2"]), ("movement", 1),
                ("battle-it-out X->Y", 1))
    o = out(s)
    assert o["eliminated"] == ["Y"] and o["hp"]["X"] == 19 and o["hp"]["Z"] == z_hp


def test_car_bomb_does_nothing_to_reegad_and_can_chain() -> None:
    players = [{"name": "X", "character": "reegad", "at": "t1"},
               {"name": "Y", "character": "gooday", "at": "t2", "hp": 1},
               {"name": "Z", "character": "mista", "at": "t2", "hp": 1}]
    s, _ = play(make(players), [*move(["t2"]), act("strike", target="Y")], ("movement", 1),
                ("battle-it-out X->Y", 1))
    o = out(s)
    assert o["eliminated"] == ["Y", "Z"] and o["hp"]["X"] == 20


def test_smoke_of_a_destroyed_car_still_clears() -> None:
    players = [{"name": "X", "character": "mista", "at": "t1", "hp": 1, "drops": {"smoke": 1}},
               {"name": "Y", "character": "gooday", "at": "s"}, {"name": "Z", "character": "shooter", "at": "t3",
                                                                 "hp": 1}]
    s = make(players, rules={"car_bomb": "all-players"})
    s, _ = play(s, [*move(["t2"]), act("use_drop", kind="smoke"), act("end_turn")], ("movement", 1))
    s, ev = play(s, move(["t1", "t2", "t3"], "Y"), ("movement", 2), ("battle-it-out Y->Z", 1))
    o = out(s, ev)
    assert o["eliminated"] == ["X", "Z"] and "drive-by-prevented" in o["events"]
    assert o["drops_on_board"] == ["smoke@t2"]  # X's next turn will never come...
    s, ev = play(s, [act("end_turn", "Y")])
    assert out(s)["turn"] == "Y" and out(s)["drops_on_board"] == []  # ...so it clears when X's seat is passed
    assert out(s)["graveyard"] == {"smoke": 1} and out(s)["round"] == 2


def test_a_destroyed_cars_shield_goes_to_the_graveyard() -> None:
    players = [{"name": "X", "character": "mista", "at": "h", "hp": 1}, {"name": "Y", "character": "gooday",
                                                                          "at": "h"},
               {"name": "Z", "character": "reegad", "at": "h", "hp": 1}]
    s = finale(players, ["X", "Y", "Z"], turn="Y")
    s.shielded.append("X")  # X covered itself with smoke on its turn
    s, _ = play(s, [act("attack", "Y", target="Z")], ("final tile Y->Z", 2), ("power card", "scrap-run"))
    o = out(s)
    assert o["eliminated"] == ["X", "Z"] and o["shielded"] == [] and o["graveyard"] == {"smoke": 1}
    assert o["winner"] == "Y"


# --- events and power cards ---------------------------------------------------------------------


def test_event_cards_wait_for_the_one_in_play() -> None:
    road = line(4, t2="event", t4="event")
    road[4]["exits"] = "W"
    s, _ = play(make(two(), road, event_deck=["tailwind", "blown-tyre"]), move(["t2"]), ("movement", 1))
    o = out(s)
    assert (o["event_active"], o["card_move"], o["can"]) == ("tailwind", 2, ["drive"])
    with pytest.raises(IllegalAction, match="must wait"):
        GAME.apply(s, act("end_turn"), Chance.seeded(1))
    s, ev = play(s, [act("drive", path=["t3", "t4"])])
    o = out(s, ev)
    assert o["events"] == ["moved", "event-card-owed", "event-card-resolved", "event-card-drawn", "damage",
                           "event-card-resolved"]  # the second card only once the first is done (Q&A 6)
    assert o["event_cards_drawn"] == 2 and o["hp"]["X"] == 18 and "end_turn" in o["can"]


def test_an_event_chain_ends_when_the_deck_runs_out_in_that_turn() -> None:
    road = line(3, t1="event")
    road[1]["exits"] = "NESW"
    road.append({"id": "e2", "kind": "event", "at": [1, -1], "exits": "S"})
    s = make(two(at_a="t2"), road, event_deck=["tailwind"])
    s.event_discard = ["ambush"]  # drawn on an earlier turn: it comes back when the deck runs out
    s, _ = play(s, [*move(["t1"]), act("drive", path=["e2"])], ("movement", 1), ("event deck", ["ambush"]))
    assert out(s)["event_active"] == "ambush" and out(s)["hp"]["X"] == 19
    s, ev = play(s, [act("drive", path=["t1"])])
    o = out(s, ev)
    assert o["event_active"] is None and o["event_cards_drawn"] == 2  # both were drawn this turn...
    assert "event-deck-empty" in o["events"] and o["positions"]["X"] == "t1"  # ...so neither comes back in it


def test_an_event_card_with_nowhere_to_move_is_done_at_once() -> None:
    road = [{"id": "s", "kind": "start", "at": [0, 0]}, {"id": "e1", "kind": "event", "at": [1, 0], "exits": "W"}]
    s, _ = play(make(two(at_a="s", at_b="s"), road, event_deck=["tailwind", "blown-tyre"]), move(["e1"]),
                ("movement", 1))
    assert out(s)["event_active"] == "tailwind" and legal(s) == [{"do": "drive", "player": "X", "path": ["s"]}]
    s.turn.allowance = 0  # a guard: a card's movement that cannot be made ends the card, so play goes on
    events: list = []
    settle(s, Chance(), events)
    o = out(s, events)
    assert o["events"] == ["card-move-blocked", "event-card-resolved"] and o["event_active"] is None
    assert "end_turn" in o["can"]


def test_a_car_destroyed_during_its_event_card_ends_its_turn() -> None:
    road = line(3, t1="event", t2="fire")
    s, _ = play(make(two("shooter", at_a="s", hp=2), road, event_deck=["tailwind"]), move(["t1"]), ("movement", 1))
    s, ev = play(s, [act("drive", path=["t2"])])
    o = out(s, ev)
    assert o["eliminated"] == ["X"] and o["event_active"] is None and "event-card-discarded" in o["events"]
    assert legal(s) == [{"do": "end_turn", "player": "X"}]
    s, _ = play(s, [act("end_turn")])
    assert out(s)["turn"] == "Y" and out(s)["winner"] is None  # the final boss lives: Y races on alone


def test_a_nitro_draw_that_turns_up_the_final_tile_too_early_leaves_the_car_where_it_is() -> None:
    s, _ = play(make(two(), line(2, t2="nitro-nos"), tile_stack=[]), [*move(["t2"]), act("nitro_draw")],
                ("movement", 1))
    o = out(s)
    assert o["road"]["n1"] == "final-boss" and o["positions"]["X"] == "t2" and "end_turn" in o["can"]


def test_power_cards() -> None:
    s = make(two(at_a="s", power=["magic-monkey-wrench", "scrap-run"]), power_deck=["nitro-canister"])
    with pytest.raises(IllegalAction, match="start tile"):
        GAME.apply(s, act("play_power", card="magic-monkey-wrench"), Chance.seeded(1))
    s, _ = play(s, [act("trade_power", card="magic-monkey-wrench")])
    assert s.players["X"].power == ["scrap-run", "nitro-canister"] and s.power_discard == ["magic-monkey-wrench"]
    assert "trade_power" not in out(s)["can"]


def test_trading_needs_a_card_to_take_and_an_empty_deck_is_reshuffled_by_chance() -> None:
    s = make(two(power=["scrap-run"]), power_deck=[])
    assert not [a for a in legal(s) if a["do"] == "trade_power"]
    s = make(two(power=["scrap-run"]), power_deck=[], power_discard=["magic-monkey-wrench", "nitro-canister"])
    s, _ = play(s, [act("trade_power", card="scrap-run")],
                ("power deck", ["nitro-canister", "magic-monkey-wrench"]))
    assert s.players["X"].power == ["nitro-canister"] and s.power_deck == ["magic-monkey-wrench"]
    assert s.power_discard == ["scrap-run"]


def test_a_deck_in_an_unknown_order_is_drawn_by_labelled_chance() -> None:
    s = make(two(power=["scrap-run"]))  # the deck is the cards nobody holds, order unknown
    s, _ = play(s, [act("trade_power", card="scrap-run")], ("power card", "overdrive"))
    assert s.players["X"].power == ["overdrive"]
    with pytest.raises(IllegalAction, match="not possible here"):
        play(make(two(power=["scrap-run"])), [act("trade_power", card="scrap-run")], ("power card", "scrap-run"))


def test_power_cards_on_the_dead_final_tile_aim_at_players() -> None:
    players = [{"name": "X", "character": "rebecca-jones", "at": "h", "power": ["overdrive", "harpoon-gun"]},
               {"name": "Y", "character": "gooday", "at": "h", "hp": 3}, {"name": "Z", "character": "mista",
                                                                         "at": "h"}]
    s = finale(players, ["X", "Y", "Z"], graveyard={"smoke": 1})
    plays = [a for a in legal(s) if a["do"] == "play_power"]
    assert plays == [{"do": "play_power", "player": "X", "card": card, "target": t}
                     for card in ("harpoon-gun", "overdrive") for t in ("Y", "Z")]
    s, ev = play(s, [act("play_power", card="overdrive", target="Y")], ("final tile X->Y", 2))
    o = out(s, ev)  # a boss-battle strike: Rebecca's +1 makes the 2 a 3, and the kill pays like a boss's
    assert o["eliminated"] == ["Y"] and o["power_owed"] == ["X"] and o["rewards_owed"] == ["X"]
    s = finale(players, ["X", "Y", "Z"])
    s, _ = play(s, [act("play_power", card="harpoon-gun", target="Z")])
    assert out(s)["hp"]["Z"] == 17  # 2, and 1 more: on the dead final tile the players are the bosses


def test_harpoon_gun_needs_a_car_in_reach_that_smoke_does_not_hide() -> None:
    players = [{"name": "X", "character": "mista", "at": "t1", "power": ["harpoon-gun"]},
               {"name": "Y", "character": "gooday", "at": "t3"}]
    s = make(players, board=[{"kind": "smoke", "tile": "t3", "owner": "Y"}])
    assert not [a for a in legal(s) if a["do"] == "play_power"]
    with pytest.raises(IllegalAction, match=r"cannot hit Y on .*: smoke covers it"):
        GAME.apply(s, act("play_power", card="harpoon-gun", target="Y"), Chance.seeded(1))
    boss = make([{"name": "X", "character": "mista", "at": "dt", "power": ["harpoon-gun"]},
                 {"name": "Y", "character": "gooday", "at": "s"}], [*line(1), SUB_BOSS_TILES[0]])
    boss, _ = play(boss, [act("boss_battle")])
    assert not [a for a in legal(boss) if a["do"] == "play_power"]


def test_rocket_salvo_and_rebecca() -> None:
    players = [{"name": "X", "character": "rebecca-jones", "at": "dt", "power": ["rocket-salvo"]},
               {"name": "Y", "character": "gooday"}]
    s = make(players, [*line(1), SUB_BOSS_TILES[0]])
    assert not [a for a in legal(s) if a["do"] == "play_power"]  # the sequence has not begun
    s, _ = play(s, [act("boss_battle"), act("play_power", card="rocket-salvo")])
    assert out(s)["boss_hp"]["death-turret"] == 3


def test_nitro_canister_times_and_goodday() -> None:
    s = make(two("gooday", "mista", power=["nitro-canister"]), line(5, t5="event"))
    s, _ = play(s, [*move(["t2"]), act("play_power", card="nitro-canister")], ("movement", 1))
    assert out(s)["card_move"] == 3 and {"do": "drive", "player": "X", "path": ["t3", "t4", "t5"]} in legal(s)
    boss = make([{"name": "X", "character": "mista", "at": "dt", "power": ["nitro-canister"]},
                 {"name": "Y", "character": "gooday"}], [*line(1), SUB_BOSS_TILES[0]])
    boss, _ = play(boss, [act("boss_battle")])
    assert not [a for a in legal(boss) if a["do"] == "play_power"]  # nobody drives off a live boss


def test_off_road_tyres_replace_the_attempt() -> None:
    players = [{"name": "X", "character": "mista", "at": "t1", "power": ["off-road-tyres"]},
               {"name": "Y", "character": "gooday"}]
    s, _ = play(make(players, line(3, t2="hazard")), [*move(["t2"]), act("hazard_attempt")], ("movement", 1),
                ("hazard", 1))
    assert out(s)["hazard_side"] == {"X": "W"}
    assert not [a for a in legal(s) if a["do"] == "play_power"]  # one attempt a turn, and this was it
    turn = [act("end_turn"), *move(["t1"], "Y"), act("end_turn", "Y"), act("play_power", card="off-road-tyres")]
    s, _ = play(s, turn, ("movement", 1))
    assert out(s)["positions"]["X"] == "t3" and "draw" not in out(s)["can"] and out(s)["hp"]["X"] == 19


def test_card_gifts_that_find_nothing_lapse() -> None:
    players = [{"name": "X", "character": "mista", "at": "t1", "drops": {}}, {"name": "Y", "character": "gooday"}]
    road = line(2, t2="event")
    s, ev = play(make(players, road, event_deck=["lost-cargo"]), move(["t2"]), ("movement", 1))
    assert "reward-lapsed" in out(s, ev)["events"] and out(s)["discard_owed"] == []
    s, ev = play(make(players, road, event_deck=["scrap-heap"]), move(["t2"]), ("movement", 1))
    assert "reward-lapsed" in out(s, ev)["events"] and out(s)["inventory"]["X"] == {}
    junk, ev = play(make(players, road, event_deck=["junkyard"]), move(["t2"]), ("movement", 1),
                    ("power card", "overdrive"))
    assert "overdrive" in out(junk)["power_hands"]["X"]  # no face-up card to choose: the deck's top comes at once


def test_supply_crate_falls_back_to_the_used_drops() -> None:
    def cars(*lacking: str) -> list[dict[str, Any]]:
        """Four cars holding one drop of each kind, less the kinds listed (one per car, in order)."""
        chars = ("mista", "gooday", "reegad", "shooter")
        return [{"name": n, "character": c, "at": "t1" if n == "X" else "s",
                 "drops": {k: 1 for k in ed.DROP_KINDS if k != (lacking[i] if i < len(lacking) else None)}}
                for i, (n, c) in enumerate(zip("XYZW", chars, strict=True))]

    road = line(2, t2="event")
    s, _ = play(make(cars("smoke"), road, event_deck=["supply-crate"], graveyard={"smoke": 1}), move(["t2"]),
                ("movement", 1))
    assert legal(s) == [{"do": "collect_drop", "player": "X", "kind": "smoke"}]  # nothing left over: the used one
    s, _ = play(s, [act("collect_drop", kind="smoke")])
    assert out(s)["graveyard"] == {}
    s, _ = play(make(cars("smoke", "fire"), road, event_deck=["supply-crate"], graveyard={"fire": 1}),
                move(["t2"]), ("movement", 1))
    assert legal(s) == [{"do": "collect_drop", "player": "X", "kind": "smoke"}]  # the smoke nobody picked first
    s, _ = play(s, [act("collect_drop", kind="smoke")])
    assert out(s)["graveyard"] == {"fire": 1} and out(s)["inventory"]["X"]["smoke"] == 1


def test_a_reshuffled_event_deck_keeps_both_copies_of_a_card_apart() -> None:
    road = line(3, t1="event")
    road[1]["exits"] = "NESW"
    road.append({"id": "e2", "kind": "event", "at": [1, -1], "exits": "S"})
    s = make(two(at_a="t2"), road, event_deck=["roll-again"])
    s.event_discard = ["roll-again"]  # the other copy, drawn on an earlier turn
    s, _ = play(s, [*move(["t1"]), act("drive", path=["e2"])], ("movement", 1), ("movement (event card)", 1),
                ("event deck", ["roll-again"]), ("movement (event card)", 1))
    assert out(s)["event_active"] == "roll-again" and out(s)["event_cards_this_turn"] == ["roll-again"] * 2


def test_every_house_card_has_a_worked_example() -> None:
    """Each power and event card face is played or drawn in some example (content/<game>/examples)."""
    texts = "\n".join(p.read_text(encoding="utf-8") for p in (Path(GAME_DATA.dir) / "examples").glob("*.yaml"))
    box = ed.Box.of(FACTS)
    played = {c for c in box.power if f"card: {c}" in texts}
    drawn = {c for c in box.events if f"event card: {c}}}" in texts}
    assert played == set(box.power) and drawn == set(box.events)


# --- rating states (the greedy policy) ----------------------------------------------------------


def test_evaluate_rates_what_a_player_can_see() -> None:
    s = make(two(at_a="t1", at_b="t3"), [*line(3), {"id": "dt", "kind": "death-turret", "at": [4, 0]}])
    base = GAME.evaluate(s, "X")
    nearer, _ = play(s, move(["t2"]), ("movement", 1))
    assert GAME.evaluate(nearer, "X") > base  # one tile nearer the live boss
    hurt = make([{**two(at_a="t1", at_b="t3")[0], "hp": 15}, two()[1]], s_road := [*line(3)])
    assert GAME.evaluate(hurt, "X") < GAME.evaluate(make(two(at_a="t1", at_b="t3"), s_road), "X")
    won = finale([{"name": "X", "character": "mista", "at": "h"}, {"name": "Y", "character": "gooday", "at": "h",
                                                                    "hp": 1}], ["X", "Y"])
    won, _ = play(won, [act("attack", target="Y")], ("final tile X->Y", 1), ("power card", "scrap-run"))
    assert GAME.evaluate(won, "X") == policy.WON and GAME.evaluate(won, "Y") == policy.LOST


def test_resample_deals_again_only_what_the_player_cannot_see() -> None:
    s = GAME.new_game(GAME.parse_options({"players": 3}), FACTS, Chance.seeded(3))
    while GAME.players_to_act(s) and s.turn.phase == "draft":
        s, _ = GAME.play(s, GAME.legal_actions(s)[0], Chance.seeded(1))
    me = GAME.players_to_act(s)[0]
    before = pickle.dumps(s)
    seen = {q.name: sorted(q.power) for q in s.players.values()}
    hidden = sorted([*s.power_deck, *(c for n, q in s.players.items() if n != me for c in q.power)])
    dealt = [GAME.resample(s, me, Chance.seeded(seed)) for seed in range(8)]
    assert pickle.dumps(s) == before, "resample changed the state it was given"
    for r in dealt:
        assert sorted(r.players[me].power) == seen[me]  # the player's own hand stays
        assert {n: len(q.power) for n, q in r.players.items()} == {n: len(c) for n, c in seen.items()}
        assert sorted([*r.power_deck, *(c for n, q in r.players.items() if n != me for c in q.power)]) == hidden
        assert sorted(r.stack) == sorted(s.stack) and sorted(r.event_deck) == sorted(s.event_deck)
        assert r.power_discard == s.power_discard and r.tiles == s.tiles and r.board == s.board
        assert GAME.legal_actions(r) == GAME.legal_actions(s)  # nothing the player sees has changed
    assert len({(tuple(r.stack), tuple(r.power_deck)) for r in dealt}) > 1, "nothing was dealt again"


def test_greedy_play_escapes_more_often_than_random_play() -> None:
    from generators.play.simulate import play as play_game

    escapes = {policy: sum(play_game(GAME, FACTS, {"players": 2}, seed, policy).result["result"] != "nobody"
                           for seed in range(12)) for policy in ("random", "greedy")}
    assert escapes["greedy"] >= 8 and escapes["greedy"] > escapes["random"], escapes


# --- every ability changes an outcome somewhere -------------------------------------------------


def _other(character: str) -> str:
    return "mista" if character != "mista" else "gooday"


def _fire_tile(character: str) -> int:
    s, _ = play(make(two(character, "reegad" if character != "reegad" else "gooday"), line(3, t2="fire")),
                move(["t2"]), ("movement", 1))
    return out(s)["hp"]["X"]


def _hazard(character: str) -> tuple:
    s, _ = play(make(two(character, _other(character)), line(3, t2="hazard")), move(["t2"]), ("movement", 1))
    if "hazard_attempt" in out(s)["can"]:
        s, _ = play(s, [act("hazard_attempt")], ("hazard", 1))
    return out(s)["positions"]["X"], out(s)["hp"]["X"]


def _driven_by(character: str) -> dict:
    other = _other(character)
    results: list[tuple[str, Any]] = [("movement", 2)]
    if character != "shooter":
        results.append(("drive-by X->Y", 2))
    if character == "rebecca-jones":
        results.append(("counter Y->X", 2))
    s, _ = play(make(two(other, character, at_b="t2")), move(["t2", "t3"]), *results)
    return out(s)["hp"]


def _battle(character: str) -> dict:
    rolls = [("battle-it-out X->Y", 1)] * ed.strikes(ed.Box.of(FACTS).characters[character].abilities)
    s, _ = play(make(two(character, _other(character), at_b="t2")), move(["t2"]), ("movement", 1), *rolls,
                ("counter Y->X", 1))
    return out(s)["hp"]


def _landmine(character: str) -> int:
    s, _ = play(make(two(character, "reegad" if character != "reegad" else "mista"),
                     board=[{"kind": "landmine", "tile": "t2", "owner": "Y"}]), move(["t2"]), ("movement", 1))
    return out(s)["hp"]["X"]


def _boss_round(character: str) -> tuple:
    n = ed.strikes(ed.Box.of(FACTS).characters[character].abilities)
    s, _ = play(boss_state(character), [act("boss_battle"), act("attack")], *[("boss battle X->omg-zilla-1", 2)] * n)
    return out(s)["hp"]["X"], out(s)["boss_hp"]["omg-zilla-1"]


def _extra_move(character: str) -> list:
    s, _ = play(make(two(character, _other(character)), line(4)), [act("draw")], ("movement", 1))
    return sorted(tuple(a["path"]) for a in legal(s) if a["do"] == "drive")


def _nitro(character: str) -> list:
    s, _ = play(make(two(character, _other(character)), line(4, t2="nitro-nos")), [act("draw")], ("movement", 1))
    return sorted(tuple(a["path"]) for a in legal(s) if a["do"] == "drive")


def _double_fire(character: str) -> int:
    s, _ = play(boss_state(character, drops={"fire": 2}), [act("boss_battle")])
    return len([a for a in legal(s) if a["do"] == "use_drop"])


@pytest.mark.parametrize(("character", "probe", "baseline"), [
    ("gooday", _hazard, "shooter"),
    ("gooday", _extra_move, "shooter"),
    ("mista", _fire_tile, "gooday"),
    ("mista", _double_fire, "gooday"),
    ("rebecca-jones", _driven_by, "gooday"),
    ("rebecca-jones", _boss_round, "gooday"),
    ("shooter", _driven_by, "gooday"),
    ("shooter", _boss_round, "gooday"),
    ("reegad", _battle, "gooday"),
    ("reegad", _nitro, "shooter"),
    ("ariel-and-flamin", _landmine, "gooday"),
    ("ariel-and-flamin", _battle, "gooday"),
])
def test_every_ability_changes_an_outcome(character: str, probe: Any, baseline: str) -> None:
    assert probe(character) != probe(baseline)


def test_every_ability_id_is_one_the_engine_knows() -> None:
    known = set(get_args(ed.Ability))
    used = {a for c in ed.Box.of(FACTS).characters.values() for a in c.abilities}
    assert used <= known and len(used) == 12


# --- whole games --------------------------------------------------------------------------------


def test_new_game_follows_the_rulebooks_setup() -> None:
    s = GAME.new_game(GAME.parse_options({"players": 4}), FACTS, Chance.seeded(3))
    assert sorted(p.character for p in s.players.values()) == sorted(set(p.character for p in s.players.values()))
    assert all(p.hp == 20 and p.tile == "s" for p in s.players.values())
    assert all(p.power[0] == "magic-monkey-wrench" and p.power[1] != "magic-monkey-wrench" and len(p.power) == 2
               for p in s.players.values())
    assert len({p.power[1] for p in s.players.values()}) == 4  # one of each other card in the box
    assert len(s.power_deck) == 11 - 8 and len(s.event_deck) == 13 and s.events_known and s.power_known
    assert len(s.stack) == 18 and "final-boss" not in s.stack and "start" not in s.stack
    assert out(s)["phase"] == "draft" and len(s.draft) == 16
    assert {a["do"] for a in legal(s)} == {"pick_drop"}
    for _ in range(16):
        s, _ = GAME.apply(s, GAME.legal_actions(s)[0], Chance.seeded(1))
    assert all(sum(p.drops.values()) == 4 for p in s.players.values()) and out(s)["phase"] == "start"
    assert sum(sum(p.drops.values()) for p in s.players.values()) == 16


def test_new_game_deals_by_labelled_chance_or_takes_the_characters_chosen() -> None:
    ch = Chance.seeded(5)
    GAME.new_game(GAME.parse_options({"players": 3}), FACTS, ch)
    assert [e.label for e in ch.log] == ["characters", "first player", "power cards", "road tiles", "power deck",
                                         "event deck"]
    chosen = GAME.new_game(GAME.parse_options({"players": 2, "characters": ["reegad", "shooter"]}), FACTS,
                           Chance.seeded(5))
    assert [chosen.players[n].character for n in ("P1", "P2")] == ["reegad", "shooter"]
    with pytest.raises(SetupError) as err:
        GAME.new_game(GAME.parse_options({"players": 2, "characters": ["reegad", "batman"]}), FACTS,
                      Chance.seeded(5))
    assert err.value.path == ("characters", 1)


def test_whole_games_end_and_report() -> None:
    for setting in GAME.simulation_setups():
        for seed in range(3):
            ch, policy = Chance.seeded(seed), random.Random(seed)
            s = GAME.new_game(GAME.parse_options(dict(setting.options)), FACTS, ch)
            for _ in range(GAME.type.max_actions):
                if not GAME.players_to_act(s):
                    break
                s, _ = GAME.apply(s, policy.choice(GAME.legal_actions(s)), ch)
            result = GAME.result(s)
            assert GAME.players_to_act(s) == [] and result["rounds"] >= 1
            assert result["result"] == "nobody" or result["result"] in {c.title for c in
                                                                       ed.Box.of(FACTS).characters.values()}


def test_the_portal_closes_after_the_round_limit() -> None:
    s = make(two(at_a="t1", at_b="t3"), rules={"round_limit": 1})
    s, _ = play(s, [*move(["t2"]), act("end_turn"), *move(["t4"], "Y"), act("end_turn", "Y")],
                ("movement", 1), ("movement", 1))
    assert out(s)["ended"] == "portal-closed" and GAME.players_to_act(s) == []
    assert GAME.result(s)["result"] == "nobody" and GAME.result(s)["rounds"] == 1


# --- outcome, wording and drawing ---------------------------------------------------------------


def test_outcome_keys_are_stable() -> None:
    assert set(out(make(two()))) == {
        "turn", "phase", "round", "to_act", "hp", "eliminated", "positions", "hazard_side", "boss_hp",
        "bosses_defeated", "tiles_laid", "road", "tile_stack_left", "tile_drawn", "drops_on_board", "inventory",
        "drops_held", "power_cards", "power_hands", "power_discard", "graveyard", "event_active", "events_owed",
        "event_cards_drawn", "event_cards_this_turn", "card_move", "rewards_owed", "power_owed", "discard_owed",
        "final_arrivals", "first_on_final_tile", "final_tile", "shielded", "winner",
        "ended", "can", "events", "damage", "damage_log", "rolls", "hazard"}


def test_apply_does_not_touch_the_old_state() -> None:
    s = make(two())
    before = pickle.dumps(s)
    s2, _ = play(s, move(["t2"]), ("movement", 1))
    assert pickle.dumps(s) == before and out(s)["positions"]["X"] == "t1" and out(s2)["positions"]["X"] == "t2"


def test_every_action_kind_has_player_wording() -> None:
    for kind, spec in GAME.action_specs.items():
        fields = {f.name for f in dataclasses.fields(spec)}
        data: dict[str, Any] = {"do": kind, "player": "X"}
        data.update({k: v for k, v in {"kind": "fire", "target": "Y", "card": "harpoon-gun", "at": [1, 0],
                                       "path": ["t1"], "tile": "t2"}.items() if k in fields})
        words = GAME.describe_action(GAME.parse_action(data))
        assert words.startswith("X ") and "{" not in words and "_" not in words, words
    assert to_data(act("lay_tile", at=[2, 0], **{"from": "t1"})) == {"do": "lay_tile", "player": "X", "at": [2, 0],
                                                                     "from": "t1"}


def test_svg_is_deterministic_and_escaped() -> None:
    players = [{"name": "<A&B>", "character": "mista", "at": "t1"}, {"name": "Y\"Z", "character": "gooday"}]
    road = [*line(2), {"id": "z\"1", "kind": "death-turret", "at": [3, 0]}]
    board = [{"kind": "smoke", "tile": "t2", "owner": "Y\"Z"}]
    svg = GAME.draw_svg(make(players, road, board=board))
    assert svg == GAME.draw_svg(make(players, road, board=board))
    assert "&lt;A&amp;B&gt;" in svg and "<A&B>" not in svg and "Y&quot;Z" in svg
    assert "7/7 HP" in svg and "smoke" in svg
    # The boss tile's name whole, wrapped where a tile is too narrow for it at phone size.
    assert ">DEATH TURRET<" in svg or (">DEATH<" in svg and ">TURRET<" in svg), re.findall(r">([^<>]+)</text>", svg)
    # Tiles are named as the steps name them ("the 2nd Straight Road tile"), never by their ids.
    assert "z&quot;1" not in svg and ">t2<" not in svg and ">2nd<" in svg


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
        assert t.ability == "any" or t.ability in get_args(ed.Ability)
        assert t.as_dict()["rows"][0][1]["percent"].endswith("%")


def test_odds_spot_values_from_the_printed_tables() -> None:
    # Hazard: fail -1, fail -2, pass -1, pass 0, one quarter each; mean damage (1 + 2 + 1 + 0) / 4 = 1.
    assert table("hazard-attempt-any").means == (Fraction(1),)
    assert dict(table("hazard-attempt-hazard-free").rows) == {"pass, 0 HP": (Fraction(1),)}
    # 1 less from every hit: 1 -> 0, 2 -> 1, 1 -> 0, 0: passing is 1/2 and every pass is free.
    assert column(table("hazard-attempt-tough"), "probability")["pass, 0 HP"] == Fraction(1, 2)
    # Damage table 1, 2, 3, miss: mean 6/4.
    assert table("battle-it-out-any").means == (Fraction(3, 2),) * 3
    # Two independent strikes: 6 only from 3 + 3 (1/16); 3 from 0+3, 3+0, 1+2, 2+1 (4/16).
    ariel = column(table("battle-it-out-two-strikes"), "dealt by its strike as the mover")
    assert ariel["-6 HP"] == Fraction(1, 16) and ariel["-3 HP"] == Fraction(1, 4)
    # Rebecca's counter: 2, 3, 4 or a miss -> mean 9/4; her plain battle strike is unchanged.
    assert table("battle-it-out-extra-damage").means == (Fraction(3, 2), Fraction(9, 4), Fraction(3, 2))
    assert column(table("drive-by-gunproof"), "taken from a drive-by") == {"0 HP": Fraction(1)}
    assert table("drive-by-tough").means[1] == Fraction(3, 4)  # (0 + 1 + 2 + 0) / 4
    assert table("landmine-any").means == (Fraction(5, 2), Fraction(3))
    assert table("landmine-tough").means == (Fraction(3, 2), Fraction(2))
    assert table("landmine-mineproof").means == (Fraction(0), Fraction(0))
    assert column(table("boss-battle-first-strike"), "player loses to the first strike") == {"0 HP": Fraction(1)}
    assert column(table("boss-battle-tough"), "player loses to the first strike") == {"-2 HP": Fraction(1)}
    assert table("boss-battle-two-strikes").means[0] == Fraction(3)


def test_odds_and_engine_share_the_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    """Change a printed table and both the odds and the engine follow: they cannot drift apart."""
    monkeypatch.setitem(ed.STRIKE_TABLE, 4, 4)
    assert table("battle-it-out-any").means[0] == Fraction(10, 4)
    s, _ = play(make(two(at_b="t2")), move(["t2", "t3"]), ("movement", 2), ("drive-by X->Y", 4))
    assert out(s)["hp"]["Y"] == 16


def test_odds_match_replayed_engine_rolls() -> None:
    """Each hazard row's probability equals the share of D4 results that produce it in the engine."""
    seen: dict[tuple, int] = {}
    for roll in facts.D4:
        s, _ = play(make(two("reegad"), line(3, t2="hazard")), [*move(["t2"]), act("hazard_attempt")],
                    ("movement", 1), ("hazard", roll))
        key = (out(s)["positions"]["X"] != "t2", 20 - out(s)["hp"]["X"])
        seen[key] = seen.get(key, 0) + 1
    engine = {f"{'pass' if ok else 'fail'}, {f'-{d} HP' if d else '0 HP'}": Fraction(n, 4)
              for (ok, d), n in seen.items()}
    assert engine == column(table("hazard-attempt-tough"), "probability")


def test_facts_spec_rejects_a_boss_tile_without_hp() -> None:
    assert ed.TileFacts("boss", "4-way").check() == ("hp", "a boss tile (and only a boss tile) gives its boss's HP")
    assert ed.TileFacts("hazard", "4-way").check() is not None
    assert isinstance(FACTS.face("road-tiles", "final-boss"), FaceFacts)
