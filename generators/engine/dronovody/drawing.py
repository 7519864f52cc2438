"""Дроноводи: the table as a deterministic SVG: the field's two lines, the Trench, the Shop, the decks,
and a panel per player."""

from __future__ import annotations

from typing import Any

from generators.engine import svg as draw
from generators.engine.contract import Drawing
from generators.engine.dronovody.abilities import points
from generators.engine.dronovody.facts import DECKS
from generators.engine.dronovody.state import Player, State

PLAYER_COLOURS = ("#2e6da4", "#b9770e", "#1e8449", "#8e44ad")


FIELD_LINES = ((2, 40, "the second line"), (1, 82, "the first line"))  # distance, top, players' words


def pieces(s: State) -> list[draw.Piece]:
    """The enemies and drones on the field, in pixels of the drawing (the tableau is drawn whole:
    the players' panels under the field are where most of a turn happens)."""
    out = []
    for distance, top, words in FIELD_LINES:
        cards = [c for c in s.battlefield if s.cat.threats[c].distance == distance]
        for j, card in enumerate(cards[:7]):
            kind = "threat-drone" if s.cat.threats[card].kind == "drone" else "threat"
            out.append(draw.Piece(card, kind, f"the {_short(s, card)}", words, 10 + j * 132 + 64, top + 27, 14))
    return out


def legend() -> list[draw.Swatch]:
    def card(fill: str, width: float) -> Any:
        def paint(svg: draw.Svg, cx: float, cy: float, n: float) -> None:
            svg.rect(2, cy - 9, n - 4, 18, fill, draw.COLORS["enemy"], rx=3, width=width)
        return paint

    return [draw.swatch("threat", "an enemy on the field: name · activation · ⚑ trophy", card("#fbeaea", 1)),
            draw.swatch("threat-drone", "an enemy drone on the field (lilac)", card("#f3e5f5", 1)),
            draw.swatch("threat-red", "thick border: a red-triangle enemy", card("#fbeaea", 2.5))]


def draw_svg(s: State, focus: draw.Focus | None = None) -> str:
    width = 960
    height = 190 + 118 * len(s.seats)
    svg = draw.Svg(width, height, f"Дроноводи: round {s.round}, {s.phase}")
    svg.rect(0, 0, width, height, draw.COLORS["paper"])
    turn = f" · turn: {s.turn.player} ({s.turn.mode or s.turn.step})" if s.turn else ""
    head = f"Round {s.round} of {s.rules.rounds} · {s.phase}{turn} · Duty Officer: {s.odo}"
    if s.result:
        head += f" · {s.result.upper()} ({s.how})"
    svg.text(10, 20, head, size=14, anchor="start", weight="bold")
    _cards_row(svg, s, 10, 40, "Field, second line (distance 2)",
               [c for c in s.battlefield if s.cat.threats[c].distance == 2], draw.COLORS["enemy"])
    _cards_row(svg, s, 10, 82, "Field, first line (distance 1)",
               [c for c in s.battlefield if s.cat.threats[c].distance == 1], draw.COLORS["enemy"])
    svg.text(10, 140, f"Trench: {len(s.trench)} Character(s) face down · Drone Shop: "
             + (", ".join(_short(s, c) for c in s.shop) or "empty"), size=11, anchor="start")
    decks = " · ".join(f"{d} {len(s.decks[d])}" for d in DECKS)
    svg.text(10, 158, f"Decks: {decks}", size=10, anchor="start", fill="#555555")
    for i, n in enumerate(s.seats):
        _player_panel(svg, s, s.p(n), 10, 172 + 118 * i, PLAYER_COLOURS[i % len(PLAYER_COLOURS)])
    draw.overlay(svg, focus, lambda p: p, 1.0)
    return svg.render()


def _short(s: State, card: str) -> str:
    return s.cat.title(card)


def _cards_row(svg: draw.Svg, s: State, x: float, y: float, label: str, cards: list[str], colour: str) -> None:
    """A line of the field: each enemy with its activation value (die) and trophy flag."""
    svg.text(x, y + 10, label, size=11, anchor="start", fill="#555555")
    for j, card in enumerate(cards[:7]):
        f = s.cat.threats[card]
        cx = x + j * 132
        fill = "#f3e5f5" if f.kind == "drone" else "#fbeaea"
        svg.rect(cx, y + 14, 128, 26, fill, colour, rx=3, width=2 if f.red_triangle else 1)
        svg.text(cx + 64, y + 31, f"{_short(s, card)[:15]} · {f.activation} · ⚑{f.trophy}", size=10)
    if len(cards) > 7:
        svg.text(x + 7 * 132 + 4, y + 31, f"+{len(cards) - 7}", size=11, anchor="start")


def _player_panel(svg: draw.Svg, s: State, p: Player, x: float, y: float, colour: str) -> None:
    svg.rect(x, y, 940, 110, "#ffffff", colour, rx=4, width=2)
    svg.text(x + 8, y + 18, f"{p.name} · Logistics {p.logistics} · points {points(s, p)}", size=12, anchor="start",
             fill=colour, weight="bold")
    lines = [
        "Crew: " + (", ".join(_short(s, c) + (" (used)" if c in p.used else "") for c in p.crew) or "—"),
        "HQ: " + (", ".join(_short(s, c) + (" (used)" if c in p.used else "") for c in p.hq) or "—"),
        "Warehouse: " + (", ".join(_short(s, d.card) + (" (broken)" if d.broken else "") for d in p.warehouse) or "—"),
        "Projects: " + (", ".join(_short(s, pr.card) + (" [activated" + (", face down]" if pr.used else "]")
                                                        if pr.active else " [open]") for pr in p.projects) or "—")
        + " · Defence: " + (", ".join(_short(s, c) for c in p.defence) or "—"),
        f"Hand: {len(p.hand)} · Trophies: " + (", ".join(_short(s, c) for c in p.trophies) or "—")
        + " · Wounded: " + (", ".join(_short(s, c) for c in p.wounded) or "—"),
    ]
    for k, line in enumerate(lines):
        svg.text(x + 8, y + 36 + 16 * k, line, size=11, anchor="start")




DRAWING: Drawing[State] = Drawing(svg=draw_svg, pieces=pieces, legend=legend)
