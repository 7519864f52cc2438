"""Space maps (`Art.spaces`): a piece of road as spaces with terrain and links, checked on load,
laid edge to edge by `geometry`, drawn by the print kit, and handed to engines with the face.

The maps here are written in the test, so every expected value is known from the text."""

from __future__ import annotations

import io
import math

import pytest
from reportlab.pdfgen.canvas import Canvas

from generators.build_system.errors import ContentError
from generators.content import geometry
from generators.content.model import Icons, SpaceMap
from generators.content.schema import convert
from generators.content.yaml_io import parse_yaml

DIRECTIONS = """
directions:
  - {id: front, opposite: back}
  - {id: back, opposite: front}
"""


def _map(text: str) -> SpaceMap:
    return convert(parse_yaml(text, "map.yaml"), SpaceMap)


def _two_rows(links_a1: str, links_a2: str, extra: str = "") -> str:
    return f"""
lanes: 1
rows: 2
{DIRECTIONS}
legend: [{{id: road, label: Road}}]
spaces:
  - {{id: a1, at: [0, 0], terrain: road, links: {links_a1}{extra}}}
  - {{id: a2, at: [0, 1], terrain: road, links: {links_a2}}}
"""


def test_a_consistent_map_loads() -> None:
    m = _map(_two_rows('[a2, "prev:0"]', '["next:0", a1]'))
    assert [s.id for s in m.spaces] == ["a1", "a2"]
    assert m.spaces[0].links == ("a2", "prev:0")


@pytest.mark.parametrize("text,message", [
    (_two_rows('[a2, "prev:0"]', '["next:0", "prev:0"]'), "leads front to a2, but a2 leads back to prev:0"),
    (_two_rows('[a9, "prev:0"]', '["next:0", a1]'), "'a9' is no space of this map"),
    (_two_rows('[a2]', '["next:0", a1]'), "has 1 links; the map has 2 directions"),
    (_two_rows('[a2, "next:3"]', '["next:0", a1]'), "'next:3' is no space"),
    (_two_rows('[a2, "prev:0"]', '["next:0", a1]').replace('road, links: ["next', 'mud, links: ["next'),
     "terrain 'mud' is not in the legend"),
    (_two_rows('[a2, "prev:0"]', '["next:0", a1]').replace("at: [0, 1]", "at: [0, 0]"), "where a1 already is"),
    (_two_rows('[a2, "prev:0"]', '["next:0", a1]').replace("at: [0, 1]", "at: [1, 1]"), "outside 1 lanes x 2 rows"),
    (_two_rows('[a2, "prev:0"]', '["next:0", a1]').replace("opposite: front", "opposite: left"),
     "its opposite 'left' is not a direction"),
    ("lanes: 2\nrows: 1\nbend: left\n", "a bend needs an inner radius above 0"),
])
def test_a_broken_map_is_a_located_error(text: str, message: str) -> None:
    with pytest.raises(ContentError) as err:
        _map(text)
    assert message in err.value.message
    assert err.value.line >= 1


def _grid(lanes: int, rows: int, bend: str = "straight", inner: float = 0.0) -> SpaceMap:
    spaces = "\n".join(f"  - {{id: s{lane}-{row}, at: [{lane}, {row}], terrain: road}}"
                       for lane in range(lanes) for row in range(rows))
    return _map(f"lanes: {lanes}\nrows: {rows}\nbend: {bend}\ninner: {inner}\nmargin: 0.5\n"
                f"legend: [{{id: road, label: Road}}]\nspaces:\n{spaces}\n")


def _close(p: tuple[float, float], q: tuple[float, float]) -> bool:
    return math.dist(p, q) < 1e-9


def test_pieces_join_edge_to_edge_in_any_order() -> None:
    """Each piece's back edge lies on the previous piece's front edge, heading the same way,
    whatever mix of straights and bends."""
    pieces = [_grid(3, 4), _grid(3, 2, "left", 2), _grid(3, 4), _grid(3, 2, "right", 2), _grid(3, 2, "right", 2)]
    places = geometry.chain(pieces)
    for (prev, p0), (m, p1) in zip(zip(pieces, places, strict=True), list(zip(pieces, places, strict=True))[1:],
                                   strict=False):
        end, start = geometry.exit_(prev), geometry.entry(m)
        assert _close(p0.apply(end.left), p1.apply(start.left))
        assert _close(p0.turn(end.forward), p1.turn(start.forward))
    # Left, then right twice: heading from up, to left, to up, to right.
    assert _close(places[4].turn(geometry.entry(pieces[4]).forward), (0.0, 1.0))
    assert _close(places[4].turn(geometry.exit_(pieces[4]).forward), (1.0, 0.0))


def test_a_bend_keeps_its_lanes_in_order() -> None:
    """On a left bend lane 0 is the inner ring; on a right bend the outer one (it is on the left)."""
    left, right = _grid(3, 2, "left", 2), _grid(3, 2, "right", 2)
    lane0 = next(s for s in left.spaces if s.at == (0, 0))
    lane2 = next(s for s in left.spaces if s.at == (2, 0))
    assert math.dist(geometry.centre(left, lane0), (0, 0)) < math.dist(geometry.centre(left, lane2), (0, 0))
    w, _ = geometry.size(right)
    r0 = next(s for s in right.spaces if s.at == (0, 0))
    r2 = next(s for s in right.spaces if s.at == (2, 0))
    assert math.dist(geometry.centre(right, r0), (w, 0)) > math.dist(geometry.centre(right, r2), (w, 0))


def test_the_print_kit_draws_a_map_and_offers_label_room() -> None:
    from reportlab.lib.colors import HexColor

    from generators.content.geometry import Box
    from generators.pdf.pen import Pen
    from generators.pdf.spacemap import draw_space_map
    from generators.pdf.text import Fonts

    c = Canvas(io.BytesIO())
    pen = Pen(HexColor("#000000"), HexColor("#aa0000"), HexColor("#ffffff"), Fonts("Helvetica", "Helvetica-Bold"),
              Icons(), lambda name: HexColor("#888888"))
    straight = draw_space_map(c, _grid(3, 4), Box(0, 0, 200, 200), pen)
    bend = draw_space_map(c, _grid(3, 2, "left", 2), Box(0, 0, 200, 200), pen)
    assert len(straight) == 2 and all(s.angle == 90.0 for s in straight)  # up both roadsides
    assert len(bend) == 2 and all(s.length > 0 for s in bend)  # in the free corner


def test_engines_get_each_face_with_its_printed_sides() -> None:
    """`game_content` hands an engine the art of the sides the print kit draws, so facts drawn on a
    face (a tile's map) are read from the same data, and nothing of their wording."""
    from pathlib import Path

    from generators.check.runner import engine_of
    from generators.content.loader import load_content
    from generators.rules.facts import game_content

    content = load_content(Path(__file__).resolve().parent.parent / "content")
    checked = 0
    for game in content.games:
        if not game.engine:
            continue
        facts = game_content(game, engine_of(game))
        for comp in game.components:
            if comp.id not in facts.components:
                continue
            for face, read in zip(comp.faces, facts.faces(comp.id), strict=True):
                for printed, given in ((face.front, read.front), (face.back or comp.back, read.back)):
                    if printed is None:
                        assert given is None
                        continue
                    # The very art the print kit draws (a tile's map), and the printed name ...
                    assert given.art is printed.art and given.title == printed.title
                    # ... but no wording: an edit to card text cannot change play.
                    assert given.text is None and given.fields == () and given.note is None
                checked += 1
    assert checked
