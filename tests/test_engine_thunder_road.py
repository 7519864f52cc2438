"""Thunder Road: Ignition: properties of the road built from the tiles' maps, and the odds tables,
checked against the content they are read from (the worked examples check the rules themselves)."""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction
from pathlib import Path

import pytest

from generators.check.runner import engine_of
from generators.content import geometry
from generators.content.model import size_mm
from generators.games.thunder_road_ignition import board as tb
from generators.games.thunder_road_ignition import facts as tr
from generators.games.thunder_road_ignition.odds import odds_tables
from generators.games.thunder_road_ignition.setup import lay_road
from generators.rules.chance import Chance
from generators.rules.facts import game_content
from tests.helpers import real_content

ROOT = Path(__file__).resolve().parent.parent
GAME = real_content().game("thunder-road-ignition")
CONTENT = game_content(GAME, engine_of(GAME))
KIT = CONTENT.view(tr.read_kit)
OPPOSITE = dict(zip(tr.DIRECTIONS, ("back-right", "back", "back-left", "front-right", "front", "front-left"),
                    strict=True))


def _roads(n: int, length: int) -> list[tuple[int, ...]]:
    rng = random.Random(length)
    return [lay_road(KIT, length, Chance(rng=random.Random(rng.random()))) for _ in range(n)]


@pytest.mark.parametrize("road", [*_roads(20, 6), *_roads(10, 8)], ids=str)
def test_every_link_leads_back_across_tiles(road: tuple[int, ...]) -> None:
    """Any tiles, any sides, in any order: moving one way and then the opposite way returns to the
    start, seams included; only the finish line and the board's edges lead nowhere."""
    board = tb.board_of(KIT, road)
    for space in board.spaces.values():
        last_row = space.row == board.maps[space.tile - 1].rows - 1
        for d in tr.DIRECTIONS:
            there = tb.link(board, space.id, d)
            if there == tr.FINISH:
                assert space.tile == len(road) and last_row and d in tr.FORWARD, (space.id, d)
            elif there == tr.OFF:
                # Straight ahead and straight back never leave the road, except off the rear edge.
                assert d != "front" and (d != "back" or (space.tile == 1 and space.row == 0)), (space.id, d)
            else:
                assert tb.link(board, there, OPPOSITE[d]) == space.id, (space.id, d, there)


def test_every_side_is_reachable_and_has_a_pit_exit() -> None:
    """Each tile side has road spaces with entry arrows on its back row (cars leave the pit there)."""
    for number, m in KIT.sides.items():
        arrows = [s for s in m.spaces if s.arrow]
        assert arrows, number
        assert all(s.at[1] == 0 and s.terrain == "road" for s in arrows), number


def test_hazard_tokens_cover_every_hazard_space_of_any_road() -> None:
    most = sum(max(sum(s.terrain == "hazard" for s in KIT.sides[n].spaces) for n in pair)
               for pair in [KIT.starting_sides, *KIT.other_tiles])
    assert most <= len(KIT.hazards)


def _widest_disc(m, space) -> float:
    """Diameter, in map units, of the largest disc inside a space: a straight piece's square, or a
    bend's ring sector (limited by its two arcs and its two radial edges)."""
    if m.bend == "straight":
        return 1.0
    r_in, r_out = geometry._radii(m, space.at[0])
    half = math.pi / 2 / m.rows / 2
    return 2 * max(min(rho - r_in, r_out - rho, rho * math.sin(half))
                   for rho in (r_in + k * (r_out - r_in) / 400 for k in range(401)))


def test_a_hazard_token_fits_on_every_hazard_space() -> None:
    """The rules put a hazard token on a space: the printed disc fits inside the smallest one."""
    token = next(c for c in GAME.components if c.id == "hazard-tokens")
    diameter = min(size_mm(token.size))
    smallest = 99.0
    for comp in GAME.components:
        for side in [s for f in comp.faces for s in (f.front, f.back) if s and s.art and s.art.spaces]:
            m = side.art.spaces
            w, h = geometry.size(m)
            scale = min(size_mm(comp.size)[0] / w, size_mm(comp.size)[1] / h)  # mm per map unit, as printed
            for space in m.spaces:
                if space.terrain == "hazard":
                    smallest = min(smallest, _widest_disc(m, space) * scale)
    assert 10 < diameter <= smallest, (diameter, smallest)


def _faces(component: str, attr: str) -> list[object]:
    return [getattr(f.facts, attr) for f in CONTENT.faces(component) for _ in range(f.count)]


def _cell(table: dict, row: int, col: int = 1) -> Fraction:
    return Fraction(table["rows"][row][col]["fraction"])


def test_odds_follow_the_faces_in_content() -> None:
    tables = {t["id"]: t for t in odds_tables(KIT)}
    shooting = _faces("shooting-die", "hits")
    for i, size in enumerate(tr.SIZES):
        assert _cell(tables["shot-hits"], i) == Fraction(shooting.count(size), len(shooting))
    stunt = _faces("stunt-die", "spaces")
    for i, n in enumerate(sorted(set(stunt))):
        assert _cell(tables["omni-ramp-distance"], i) == Fraction(stunt.count(n), len(stunt))
    slam = _faces("slam-die", "moves")
    top = Fraction(slam.count("top"), len(slam))
    assert _cell(tables["slam-mover"], 0) == top
    assert _cell(tables["slam-mover"], 1) == top * top  # the larger car on top rerolls a 'top'


def test_distributions_add_up_to_one() -> None:
    for table in odds_tables(KIT):
        if table["id"] in ("shot-hits", "slam-mover"):
            for row in table["rows"]:
                assert sum(Fraction(c["fraction"]) for c in row[1:]) == 1, table["id"]
        else:
            assert sum(Fraction(r[1]["fraction"]) for r in table["rows"]) == 1, table["id"]


def test_dazed_rows_match_a_brute_force_count() -> None:
    """The Dazed table against every sequence of rolls, counted one by one."""
    stunt, direction = _faces("stunt-die", "spaces"), _faces("direction-die", "direction")
    counts: dict[int, Fraction] = {}
    for n in stunt:
        for rolls in itertools.product(direction, repeat=n):
            net = sum(1 if d.startswith("front") else -1 for d in rolls)
            counts[net] = counts.get(net, Fraction(0)) + Fraction(1, len(stunt) * len(direction) ** n)
    table = next(t for t in odds_tables(KIT) if t["id"] == "dazed-rows")
    assert {int(r[0]): Fraction(r[1]["fraction"]) for r in table["rows"]} == counts


def test_a_shot_at_your_own_car_says_the_rules_allow_it() -> None:
    """The rulebook's Shoot lets a player shoot one of their own cars; the choice says so, so that a
    player offered it does not take it for a slip (shots at others say nothing of the kind)."""
    engine = engine_of(GAME)
    said: dict[bool, list[str]] = {True: [], False: []}
    for seed in range(40):
        state = engine.new_game(engine.parse_options(dict(engine.simulation_setups()[0].options)), CONTENT,
                                Chance.seeded(seed))
        chance, rng = Chance.seeded(seed), random.Random(seed)
        for _ in range(300):
            actors = engine.players_to_act(state)
            if not actors:
                break
            legal = engine.legal_actions(state, actors[0])
            for a in legal:
                if a.do == "shoot":
                    said[a.target.partition("-")[0] == state.active].append(engine.describe_action(a, state, CONTENT))
            state = engine.play(state, rng.choice(legal), chance)[0]
        if said[True] and said[False]:
            break
    assert said[True] and said[False], "no shot at one's own car (or at another's) was offered"
    assert all("your own car" in w for w in said[True]) and not any("your own" in w for w in said[False])
