"""Дроноводи: the table as a deterministic SVG: the field's two lines, the Trench, the Shop, the decks,
and a panel per player."""

from __future__ import annotations

from typing import Any

from generators.games.dronovody.abilities import points
from generators.games.dronovody.facts import DECKS
from generators.games.dronovody.state import Player, State
from generators.rules import svg as draw
from generators.rules.contract import Drawing
from generators.rules.wording import counted

PLAYER_COLOURS = ("#2e6da4", "#b9770e", "#1e8449", "#8e44ad")


FIELD_LINES = ((2, "the second line", "Field, second line (distance 2)"),
               (1, "the first line", "Field, first line (distance 1)"))  # distance, players' words, heading
# Phone-shaped: the drawing is as wide as a phone's column, so its text reads at 10 px there. Its
# layout is fixed (a line of the field is two rows of three enemies, each list of a panel one line
# that says how many more it holds), so an example's drawings share one window and a piece stays put.
WIDTH = 380.0
PAD = 10.0
TEXT = draw.readable(WIDTH)
CARD_W, CARDS_ACROSS, SHOWN = 118.0, 3, 6
CARD_LINES = 3  # a card's name whole on up to two lines, then its activation value and trophy flag
CARD_H = 6 + CARD_LINES * (TEXT + 1)
HEAD_LINES = 2  # round, phase, turn, duty officer and the result, wrapped
FIELD_TOP = 46.0  # under the heading
LINE_H = 16 + 2 * (CARD_H + 4) + 4  # a line of the field: its label and two rows of cards


def _line_cards(s: State, distance: int) -> list[str]:
    return [c for c in s.battlefield if s.cat.threats[c].distance == distance]


def _field_rows(s: State) -> list[tuple[int, str, str, list[str], float]]:
    """Each line of the field (distance, players' words, heading, its enemies, the top of its cards):
    one layout for the drawing and for the pieces its marks point at."""
    return [(distance, words, label, _line_cards(s, distance), FIELD_TOP + i * LINE_H + 16)
            for i, (distance, words, label) in enumerate(FIELD_LINES)]


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
    lines = draw.wrap(head, inner, 12)
    if len(lines) > HEAD_LINES:
        lines = [*lines[:HEAD_LINES - 1], draw.fit(" ".join(lines[HEAD_LINES - 1:]), inner, 12)]
    for i, line in enumerate(lines):
        svg.text(PAD, 18 + 15 * i, line, size=12, anchor="start", weight="bold")
    for _, _, label, cards, top in _field_rows(s):
        _cards_row(svg, s, top, label, cards, draw.COLORS["enemy"])
    y = FIELD_TOP + len(FIELD_LINES) * LINE_H + 10
    svg.text(PAD, y, f"Trench: {counted(len(s.trench), 'Character')} face down", size=TEXT, anchor="start")
    shop = draw.fit_list("Drone Shop", [_short(s, c) for c in s.shop], inner, TEXT, "empty")
    svg.text(PAD, y + 15, shop, size=TEXT, anchor="start")
    decks = " · ".join(f"{d} {len(s.decks[d])}" for d in DECKS)
    svg.text(PAD, y + 30, draw.fit(f"Decks: {decks}", inner, TEXT), size=TEXT, anchor="start", fill="#555555")
    y += 40
    for i, n in enumerate(s.seats):
        y = _player_panel(svg, s, s.p(n), y, PLAYER_COLOURS[i % len(PLAYER_COLOURS)]) + 8
    svg.height = y
    draw.overlay(svg, focus, lambda p: p, 1.0)
    return svg.render()


def _short(s: State, card: str) -> str:
    return s.cat.title(card)


def card_label(name: str, activation: object, trophy: object) -> list[str]:
    """An enemy card's label: its whole name (wrapped at spaces, never cut) and, on the last line,
    the die value that activates it and its trophy flag."""
    return [*draw.wrap(name, CARD_W - 8, TEXT), f"activates on {activation} · ⚑{trophy}"]


def _cards_row(svg: draw.Svg, s: State, top: float, label: str, cards: list[str], colour: str) -> None:
    """A line of the field: each enemy with its activation value (die) and trophy flag."""
    svg.text(PAD, top - 4, label, size=TEXT, anchor="start", fill="#555555")
    for j, card in enumerate(cards[:SHOWN]):
        f = s.cat.threats[card]
        x, y = _card_at(top, j)
        fill = "#f3e5f5" if f.kind == "drone" else "#fbeaea"
        svg.rect(x, y, CARD_W, CARD_H, fill, colour, rx=3, width=2 if f.red_triangle else 1)
        lines = card_label(_short(s, card), f.activation, f.trophy)
        first = y + CARD_H / 2 + 4 - (len(lines) - 1) * (TEXT + 1) / 2
        for k, line in enumerate(lines):
            svg.text(x + CARD_W / 2, first + k * (TEXT + 1), line, size=TEXT)
    if not cards:
        svg.text(PAD + 4, top + CARD_H / 2 + 4, "no enemy", size=TEXT, anchor="start", fill="#767676")
    if len(cards) > SHOWN:
        svg.text(WIDTH - PAD, top - 4, f"+{len(cards) - SHOWN} more", size=TEXT, anchor="end")


def _player_panel(svg: draw.Svg, s: State, p: Player, top: float, colour: str) -> float:
    """A player's panel from `top`, a line for each of its lists; returns its bottom."""
    inner = WIDTH - 2 * PAD - 16

    def names(cards: Any, used: Any = (), mark: str = " (used)") -> list[str]:
        return [_short(s, c) + (mark if c in used else "") for c in cards]

    lines = [
        draw.fit(f"{p.name} · Logistics {p.logistics} · points {points(s, p)}", inner, 12),
        draw.fit_list("Crew", names(p.crew, p.used), inner, TEXT),
        draw.fit_list("HQ", names(p.hq, p.used), inner, TEXT),
        draw.fit_list("Warehouse", [_short(s, d.card) + (" (broken)" if d.broken else "") for d in p.warehouse],
                      inner, TEXT),
        draw.fit_list("Projects", [_short(s, pr.card) + (" [activated" + (", face down]" if pr.used else "]")
                                                         if pr.active else " [open]") for pr in p.projects],
                      inner, TEXT),
        draw.fit_list("Defence", names(p.defence), inner, TEXT),
        draw.fit_list(f"Hand: {len(p.hand)} · Trophies", names(p.trophies), inner, TEXT),
        draw.fit_list("Wounded", names(p.wounded), inner, TEXT),
    ]
    for k, line in enumerate(lines):
        first = k == 0
        svg.text(PAD + 8, top + 18 + 15 * k + (3 if not first else 0), line, size=12 if first else TEXT,
                 anchor="start", fill=colour if first else draw.COLORS["ink"], weight="bold" if first else None)
    bottom = top + 18 + 15 * len(lines) + 2
    svg.rect(PAD, top, WIDTH - 2 * PAD, bottom - top, "none", colour, rx=4, width=2)
    return bottom


DRAWING: Drawing[State] = Drawing(svg=draw_svg, pieces=pieces, legend=legend)
