"""Printed labels true to the book: the default kit badges no side as a proxy (those are for the
proxies kit), the Thunder Road dashboard restates Drift without adding a direction, and the
direction die's net puts opposite faces where the road tiles say they are opposite."""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from pathlib import Path

from generators.content.loader import load_content
from generators.content.model import size_mm
from generators.pdf import documents
from generators.pdf.faces import Look
from generators.pdf.options import Options
from generators.pdf.print_targets import with_proxies
from tests import pdfgeom
from tests.helpers import CONTENT

MM = 72 / 25.4


@cache
def content():
    return load_content(CONTENT)


def _printed_sides(game):
    for comp in game.components:
        for face in comp.faces:
            yield comp, face.front
            if face.back is not None:
                yield comp, face.back
        if comp.back is not None:
            yield comp, comp.back


def test_the_default_kit_prints_no_proxy_side() -> None:
    """Stand-ins the default kit prints (cubes, clips) are our house designs; proxy sides are only
    what `--proxies` swaps in."""
    stand_ins = 0
    for game in content().games:
        for comp, side in _printed_sides(game):
            assert side.provenance != "proxy", (game.id, comp.id, side.title)
            stand_ins += comp.kind == "cubes"
        proxied = [s.provenance for _, s in _printed_sides(with_proxies(game))]
        if any(c.proxy for c in game.components):
            assert "proxy" in proxied, game.id  # the proxies kit still has its stand-ins
    assert stand_ins >= 5


def test_dashboard_drift_restates_the_rule() -> None:
    """The rulebook: ignore the first car you move onto unless you end your move there; no slam. It
    gives no direction, so the dashboard must not either."""
    game = content().game("thunder-road-ignition")
    labels = [el.label or "" for comp in game.components if comp.id == "dashboards"
              for face in comp.faces for el in face.front.elements]
    drift = [label for label in labels if label.startswith("**Drift:**")]
    assert len(drift) == 4
    for label in drift:
        text = label.lower()
        assert "first car" in text and "no slam" in text and "end your move" in text, label
        for added in ("straight", "forward", "ahead", "through"):
            assert added not in text, label


def test_direction_die_opposite_faces_follow_the_tiles(tmp_path: Path) -> None:
    game = content().game("thunder-road-ignition")
    die = next(c for c in game.components if c.id == "direction-die")
    opposite: dict[str, str] = {}
    for comp in game.components:
        for face in comp.faces:
            spaces = face.front.art.spaces if face.front.art is not None else None
            if spaces is not None:
                opposite.update({d.id: d.opposite for d in spaces.directions})
    assert opposite, "the road tiles name their directions"
    title = {face.facts["direction"]: face.front.title for face in die.faces}
    expected = {frozenset((title[a], title[b])) for a, b in opposite.items()}
    assert len(expected) == 3
    tiles = tuple(c for c in game.components if c.kind == "tiles")
    only = replace(game, components=(die, *tiles))
    path = tmp_path / "dice.pdf"
    path.write_bytes(documents.dice(only, Look(only, content().icons), Options()))
    assert pdfgeom.net_opposites(_centres(path, list(title.values())), size_mm(die.size)[0] * MM) == expected


def _centres(path: Path, names: list[str]) -> dict[str, tuple[float, float]]:
    """Where each face title prints (a title wrapped at its hyphen reads with pdfium's break mark)."""
    chars = pdfgeom.chars(path)[0]
    text = "".join(c.text for c in chars).replace("\ufffe", "-")
    out = {}
    for name in names:
        i = text.find(name.replace(" ", ""))
        assert i >= 0 and text.count(name) == 1, name
        first, last = chars[i], chars[i + len(name.replace(" ", "")) - 1]
        out[name] = ((first.left + last.right) / 2, (first.bottom + first.top) / 2)
    return out
