"""No piece hides a label, in every game's drawing (the Play page's and the examples'): a solid shape
drawn after a piece of text (a car token after a space's name, a second car after the first car's
letter) must not cover it. Checked on the SVG itself, with no per-game code, over positions of
seeded games played at random. A shape in the paper's colour clears room on purpose (a caption's
background over the road scrolled under it) and is not a piece."""

from __future__ import annotations

import html
import random
import re
from typing import Any

import pytest

from generators.check.runner import engine_of
from generators.rules import svg as draw
from generators.rules.chance import Chance
from generators.rules.facts import game_content
from tests.helpers import real_content

CONTENT = real_content()
_ELEMENT = re.compile(r'<(text|rect|circle|ellipse|polygon) ([^>]*?)/?>(?:([^<]*)</text>)?')
_ATTR = re.compile(r'([\w-]+)="([^"]*)"')
SAMPLES = 4  # points across and down a text's box (inset) that a later shape must leave uncovered


def _shape(kind: str, a: dict[str, str]) -> tuple[str, tuple[Any, ...]] | None:
    if a.get("fill", "none") == "none" or a.get("fill-opacity"):  # outlines and see-through marks hide nothing
        return None
    if kind == "rect":
        return "rect", tuple(float(a[k]) for k in ("x", "y", "width", "height"))
    if kind == "circle":
        return "circle", (float(a["cx"]), float(a["cy"]), float(a["r"]))
    if kind == "ellipse":  # its bounding box: a piece's outline is what matters
        cx, cy, rx, ry = (float(a[k]) for k in ("cx", "cy", "rx", "ry"))
        return "rect", (cx - rx, cy - ry, 2 * rx, 2 * ry)
    return "polygon", tuple(tuple(map(float, p.split(","))) for p in a["points"].split())


def hidden_labels(svg: str) -> list[str]:
    """Each text covered, at one of its inner points, by a solid shape drawn after it."""
    texts: list[tuple[str, list[tuple[float, float]]]] = []
    out: list[str] = []
    paper = None
    for kind, attrs, words in _ELEMENT.findall(svg):
        a = dict(_ATTR.findall(attrs))
        if kind == "text":
            text = html.unescape(words)
            box = draw.text_box(float(a["x"]), float(a["y"]), text, float(a["font-size"]),
                                a.get("text-anchor", "start"), a.get("font-weight"))
            points = [(box.x + box.w * (i + 0.5) / SAMPLES, box.y + box.h * (0.25 + 0.5 * j / (SAMPLES - 1)))
                      for i in range(SAMPLES) for j in range(SAMPLES)]
            texts.append((text, points))
            continue
        shape = _shape(kind, a)
        if shape is None:
            continue
        if paper is None:
            paper = a["fill"]  # the first solid shape is the paper
            continue
        if a["fill"] == paper:
            continue
        for text, points in texts:
            if text.strip() and any(draw.inside(*shape, x, y) for x, y in points):
                out.append(f"{text!r} under a {kind} filled {a['fill']}")
        texts = [(t, p) for t, p in texts if not any(draw.inside(*shape, x, y) for x, y in p)]
    return out


def _positions(game: Any, seed: int, moves: int, every: int) -> list[Any]:
    engine = engine_of(game)
    content = game_content(game, engine)
    out = []
    for setting in engine.simulation_setups()[:3]:
        state = engine.new_game(engine.parse_options(dict(setting.options)), content, Chance.seeded(seed))
        chance, rng = Chance.seeded(seed), random.Random(seed)
        for n in range(moves):
            actors = engine.players_to_act(state)
            if not actors:
                break
            if n % every == 0:
                out.append(state)
            state = engine.play(state, rng.choice(engine.legal_actions(state, actors[0])), chance)[0]
        out.append(state)
    return out


@pytest.mark.parametrize("game", sorted(g.id for g in CONTENT.games), ids=str)
def test_no_piece_hides_a_label(game: str) -> None:
    spec = next(g for g in CONTENT.games if g.id == game)
    engine = engine_of(spec)
    found: dict[str, int] = {}
    drawn = 0
    for seed in (3, 8, 21):
        for state in _positions(spec, seed, 150, 7):
            for hidden in hidden_labels(engine.draw_svg(state, None)):
                found[hidden] = found.get(hidden, 0) + 1
            drawn += 1
    assert drawn > 10
    assert not found, sorted(found.items(), key=lambda kv: -kv[1])[:12]


def test_hidden_labels_finds_a_token_on_a_name() -> None:
    pic = draw.Svg(100, 100, paper="#ffffff")
    pic.rect(0, 0, 60, 60, "#9aa1a6", "#555555")
    pic.text(20, 24, "1:c6", size=10)
    pic.rect(10, 15, 20, 14, "#b71c1c")  # a car token over the name
    pic.text(80, 80, "free", size=10)
    pic.rect(0, 0, 100, 10, "#ffffff")  # the paper's colour: room cleared on purpose
    assert hidden_labels(pic.render()) == ["'1:c6' under a rect filled #b71c1c"]


def test_an_arrow_over_a_label_draws_the_label_again_on_top() -> None:
    """A change's arrow (the examples' marks) that runs over a space's name leaves it readable: the
    name is drawn again over the arrow, on a halo of the colour under it; a name the arrow misses
    is drawn once."""
    pic = draw.Svg(200, 100, paper="#ffffff")
    pic.rect(0, 0, 200, 100, "#9aa1a6")
    pic.text(100, 47, "1:d6", size=10)  # the arrow runs beside the pieces, 7.5 above their line
    pic.text(100, 90, "1:d1", size=10)
    move = draw.Change("car", "move", "the car", "moves", (180.0, 50.0), 0.3, "on a", (20.0, 50.0))
    draw.overlay(pic, draw.Focus(None, (move,)), lambda p: p, 1.0)
    svg = pic.render()
    assert svg.count(">1:d6<") == 2 and svg.rindex(">1:d6<") > svg.index('data-kind="move"')
    assert svg.count(">1:d1<") == 1
