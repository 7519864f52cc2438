"""Thunder Road's drawn map (the Play page's and the examples' drawing): each space's name and its
terrain mark (OIL, RUB, MINE, RAMP, X, ?) sit inside the space and clear of each other, on every tile
shape (straight and curved, inner lanes too), and each reads against the space's fill."""

from __future__ import annotations

import html
import random
import re
from typing import Any

import pytest

from generators.check.runner import engine_of
from generators.content.geometry import Box
from generators.games.thunder_road_ignition.drawing import TERRAIN_MARK
from generators.rules import svg as draw
from generators.rules.chance import Chance
from generators.rules.facts import game_content
from tests.helpers import real_content

CONTENT = real_content()
GAME = next(g for g in CONTENT.games if g.id == "thunder-road-ignition")
_TEXT = re.compile(r'<text ([^>]*)>([^<]*)</text>')
_POLY = re.compile(r'<polygon points="([^"]+)" fill="[^"]+" stroke="#555555"')  # a space (cars have white edges)
_ATTR = re.compile(r'([\w-]+)="([^"]*)"')
SPACE = re.compile(r"\d+:[a-z]\d+")


def _texts(svg: str) -> list[tuple[str, Box]]:
    out = []
    for attrs, text in _TEXT.findall(svg):
        a = dict(_ATTR.findall(attrs))
        words = html.unescape(text)
        out.append((words, draw.text_box(float(a["x"]), float(a["y"]), words, float(a["font-size"]),
                                         a.get("text-anchor", "start"), a.get("font-weight"))))
    return out


def _states(seed: int, moves: int) -> list[Any]:
    engine = engine_of(GAME)
    content = game_content(GAME, engine)
    out = []
    for setting in engine.simulation_setups():
        state = engine.new_game(engine.parse_options(dict(setting.options)), content, Chance.seeded(seed))
        chance, rng = Chance.seeded(seed), random.Random(seed)
        for n in range(moves):
            actors = engine.players_to_act(state)
            if not actors:
                break
            if n % 15 == 0:
                out.append(state)
            state = engine.play(state, rng.choice(engine.legal_actions(state, actors[0])), chance)[0]
    return out


def clashes(svg: str) -> list[str]:
    """Each space name whose box meets a terrain mark's, or sticks out of the space it names."""
    texts = _texts(svg)
    polygons = [tuple(tuple(map(float, p.split(","))) for p in pts.split()) for pts in _POLY.findall(svg)]
    marks = [(t, b) for t, b in texts if t in set(TERRAIN_MARK.values()) - {""}]
    out = []
    for name, box in texts:
        if not SPACE.fullmatch(name):
            continue
        out += [f"{name} on {mark}" for mark, other in marks if draw.overlaps(box, other)]
        centre = (box.x + box.w / 2, box.y + box.h / 2)
        home = [p for p in polygons if draw.inside("polygon", p, *centre)]
        corners = [(x, y) for x in (box.x + 1, box.x1 - 1) for y in (box.y + 1, box.y1 - 1)]
        if home and not all(draw.inside("polygon", home[-1], *c) for c in corners):
            out.append(f"{name} outside its space")
    return out


@pytest.mark.parametrize("seed", [3, 8, 21])
def test_space_names_are_clear_of_terrain_marks(seed: int) -> None:
    engine = engine_of(GAME)
    found, marked = set(), 0
    for state in _states(seed, 90):
        svg = engine.draw_svg(state, None)
        marked += sum(1 for t, _ in _texts(svg) if t in TERRAIN_MARK.values())
        found |= set(clashes(svg))
    assert marked, "no terrain mark drawn: the check would pass vacuously"
    assert not found, sorted(found)[:10]


def test_clashes_finds_a_name_on_a_mark() -> None:
    pic = draw.Svg(100, 100)
    pic.polygon([(0, 0), (40, 0), (40, 40), (0, 40)], "#3b3b3b", "#555555")
    pic.text(20, 24, "OIL", size=10, weight="bold")
    pic.text(20, 26, "1:c6", size=7)
    assert clashes(pic.render()) == ["1:c6 on OIL"]
