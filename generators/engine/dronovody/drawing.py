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


FIELD_LINES = ((2, "the second line", "Field, second line (distance 2)"),
               (1, "the first line", "Field, first line (distance 1)"))  # distance, players' words, heading
# Phone-shaped: the drawing is as wide as a phone's column, so its text reads at 10 px there; a line
# of the field is two enemies across, the players' panels wrap their lists.
WIDTH = 380.0
PAD = 10.0
TEXT = draw.readable(WIDTH)
CARD_W, CARD_H, CARDS_ACROSS, SHOWN = 178.0, 26.0, 2, 8
FIELD_TOP = 44.0  # under the heading (at most two lines: round, phase, turn, duty officer, result)


def _line_cards(s: State, distance: int) -> list[str]:
    return [c for c in s.battlefield if s.cat.threats[c].distance == distance]


def _field_rows(s: State) -> list[tuple[int, str, str, list[str], float]]:
    """Each line of the field (distance, players' words, heading, its enemies, the top of its cards):
    one layout for the drawing and for the pieces its marks point at."""
    out, y = [], FIELD_TOP
    for distance, words, label in FIELD_LINES:
        cards = _line_cards(s, distance)
        out.append((distance, words, label, cards, y + 16))
        rows = max(1, -(-min(len(cards), SHOWN) // CARDS_ACROSS))
        y += 16 + rows * (CARD_H + 4) + 4
    return out


def _card_at(top: float, j: int) -> tuple[float, float]:
    return PAD + (j % CARDS_ACROSS) * (CARD_W + 4), top + (j // CARDS_ACROSS) * (CARD_H + 4)


def pieces(s: State) -> list[draw.Piece]:
    """The enemies and drones on the field, in pixels of the drawing (the tableau is drawn whole:
    the players' panels under the field are where most of a turn happens)."""
    out = []
    for _, words, _, cards, top in _field_rows(s):
        for j, card in enumerate(cards[:SHOWN]):
            kind = "threat-drone" if s.cat.threats[card].kind == "drone" else "threat"
            x, y = _card_at(top, j)
            out.append(draw.Piece(card, kind, f"the {_short(s, card)}", words, x + CARD_W / 2, y + CARD_H / 2, 14))
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
    svg = draw.Svg(WIDTH, 0, f"Дроноводи: round {s.round}, {s.phase}", min_text=TEXT, paper=draw.COLORS["paper"])
    inner = WIDTH - 2 * PAD
    turn = f" · turn: {s.turn.player} ({s.turn.mode or s.turn.step})" if s.turn else ""
    head = f"Round {s.round} of {s.rules.rounds} · {s.phase}{turn} · Duty Officer: {s.odo}"
    if s.result:
        head += f" · {s.result.upper()} ({s.how})"
    svg.lines(PAD, 18, head, inner, 12, step=15, anchor="start", weight="bold")
    y = 0.0
    for _, _, label, cards, top in _field_rows(s):
        _cards_row(svg, s, top, label, cards, draw.COLORS["enemy"])
        y = top + max(1, -(-min(len(cards), SHOWN) // CARDS_ACROSS)) * (CARD_H + 4)
    y = svg.lines(PAD, y + 16, f"Trench: {len(s.trench)} Character(s) face down · Drone Shop: "
                  + (", ".join(_short(s, c) for c in s.shop) or "empty"), inner, TEXT, anchor="start")
    decks = " · ".join(f"{d} {len(s.decks[d])}" for d in DECKS)
    y = svg.lines(PAD, y, f"Decks: {decks}", inner, TEXT, anchor="start", fill="#555555") - 4
    for i, n in enumerate(s.seats):
        y = _player_panel(svg, s, s.p(n), y, PLAYER_COLOURS[i % len(PLAYER_COLOURS)]) + 8
    svg.height = y
    draw.overlay(svg, focus, lambda p: p, 1.0)
    return svg.render()


def _short(s: State, card: str) -> str:
    return s.cat.title(card)


def _cards_row(svg: draw.Svg, s: State, top: float, label: str, cards: list[str], colour: str) -> None:
    """A line of the field: each enemy with its activation value (die) and trophy flag."""
    svg.text(PAD, top - 4, label, size=TEXT, anchor="start", fill="#555555")
    for j, card in enumerate(cards[:SHOWN]):
        f = s.cat.threats[card]
        x, y = _card_at(top, j)
        fill = "#f3e5f5" if f.kind == "drone" else "#fbeaea"
        svg.rect(x, y, CARD_W, CARD_H, fill, colour, rx=3, width=2 if f.red_triangle else 1)
        marks = f" · {f.activation} · ⚑{f.trophy}"
        name = draw.fit(_short(s, card), CARD_W - 8 - len(marks) * TEXT * draw.CHAR_WIDTH, TEXT)
        svg.text(x + CARD_W / 2, y + CARD_H / 2 + 4, name + marks, size=TEXT)
    if len(cards) > SHOWN:
        svg.text(WIDTH - PAD, top - 4, f"+{len(cards) - SHOWN} more", size=TEXT, anchor="end")


def _player_panel(svg: draw.Svg, s: State, p: Player, top: float, colour: str) -> float:
    """A player's panel from `top`, its lists wrapped to the drawing's width; returns its bottom."""
    inner = WIDTH - 2 * PAD - 16
    y = svg.lines(PAD + 8, top + 18, f"{p.name} · Logistics {p.logistics} · points {points(s, p)}", inner, 12,
                  anchor="start", fill=colour, weight="bold")
    lines = [
        "Crew: " + (", ".join(_short(s, c) + (" (used)" if c in p.used else "") for c in p.crew) or "—"),
        "HQ: " + (", ".join(_short(s, c) + (" (used)" if c in p.used else "") for c in p.hq) or "—"),
        "Warehouse: " + (", ".join(_short(s, d.card) + (" (broken)" if d.broken else "") for d in p.warehouse) or "—"),
        "Projects: " + (", ".join(_short(s, pr.card) + (" [activated" + (", face down]" if pr.used else "]")
                                                        if pr.active else " [open]") for pr in p.projects) or "—"),
        "Defence: " + (", ".join(_short(s, c) for c in p.defence) or "—"),
        f"Hand: {len(p.hand)} · Trophies: " + (", ".join(_short(s, c) for c in p.trophies) or "—"),
        "Wounded: " + (", ".join(_short(s, c) for c in p.wounded) or "—"),
    ]
    for line in lines:
        y = svg.lines(PAD + 8, y, line, inner, TEXT, anchor="start")
    bottom = y - TEXT + 4
    svg.rect(PAD, top, WIDTH - 2 * PAD, bottom - top, "none", colour, rx=4, width=2)
    return bottom


DRAWING: Drawing[State] = Drawing(svg=draw_svg, pieces=pieces, legend=legend)
