"""Vampire chase: the Chase Board ring as a deterministic SVG, its pieces for the zoom and alt text,
and the legend."""

from __future__ import annotations

import math
from typing import Any

from generators.games.vampire_chase.facts import SLOTS
from generators.games.vampire_chase.speed import chase_range, zone_name
from generators.games.vampire_chase.state import State
from generators.rules import svg as draw
from generators.rules.contract import Drawing

RING_CENTRE, RING_RADIUS = (170.0, 170.0), 118.0
SLOT_W, SLOT_H = 100.0, 66.0
# Phone-shaped: the vehicle's numbers stand under the ring, so the drawing is no wider than the ring
# and its text reads at 10 px in a phone's column.
WIDTH = 340.0
TEXT = draw.readable(WIDTH)
PANEL_TOP, PANEL_LINE, PANEL_LINES = 366.0, 21.0, 9  # at most: seven, the speed and the result


def _slot_angle(slot: int) -> float:
    """Slot 1 at the top, the others clockwise (SVG's y axis points down, so clockwise is a growing angle)."""
    return math.radians(-90 + 60 * (slot - 1))


def _on_ring(angle: float, radius: float = RING_RADIUS) -> tuple[float, float]:
    return RING_CENTRE[0] + radius * math.cos(angle), RING_CENTRE[1] + radius * math.sin(angle)


def pieces(state: State) -> list[draw.Piece]:
    """The vehicle and the enemies on the ring, in pixels of the drawing (it is never zoomed: the ring
    and the vehicle's numbers under it are the whole table and fit a phone)."""
    x, y = _on_ring(_slot_angle(state.vehicle))
    out = [draw.Piece("vehicle", "vehicle", "the vehicle", f"slot #{state.vehicle}", x, y, SLOT_H / 2,
                      health=state.health, unit="health")]
    for slot in SLOTS:
        enemy = state.ring[slot]
        if enemy is not None and slot != state.vehicle:
            x, y = _on_ring(_slot_angle(slot))
            title = state.lib.titles.get(enemy.card, enemy.card)
            out.append(draw.Piece(f"enemy-{enemy.card}", "enemy", f"the {title}", f"slot #{slot}", x, y,
                                  SLOT_H / 2, health=enemy.health))
    return out


def legend() -> list[draw.Swatch]:
    def card(fill: str, stroke: str, text: str, dash: str | None = None) -> Any:
        def paint(svg: draw.Svg, cx: float, cy: float, n: float) -> None:
            svg.rect(2, 6, n - 4, n - 12, fill, stroke, rx=4, width=2, dash=dash)
            svg.text(cx, cy + 4, text, size=11, weight="bold")
        return paint

    return [draw.swatch("vehicle", "your vehicle's slot (gold)", card(draw.COLORS["hero"], draw.COLORS["ink"], "V")),
            draw.swatch("enemy", "an enemy, its health in the circle (red)", card("#fbe9e7", draw.COLORS["enemy"], "")),
            draw.swatch("empty", "an empty slot (dashed)", card(draw.COLORS["paper"], "#999999", "", "4 3"))]


def draw_svg(state: State, focus: draw.Focus | None = None) -> str:
    lines = _panel_lines(state)
    height = PANEL_TOP + PANEL_LINE * (PANEL_LINES - 1) + 12  # one height for every drawing: they compare
    svg = draw.Svg(WIDTH, height, "Vampire chase: the Chase Board ring", min_text=TEXT)
    svg.rect(0, 0, WIDTH, height, draw.COLORS["paper"])
    svg.circle(*RING_CENTRE, RING_RADIUS, "none", "#b0b0b0", width=2)
    for slot in SLOTS:  # an arrowhead half-way to the next slot: the clockwise order
        a = _slot_angle(slot) + math.radians(30)
        (x, y), (tx, ty), (nx, ny) = _on_ring(a), (-math.sin(a), math.cos(a)), (math.cos(a), math.sin(a))
        svg.polygon([(x + 8 * tx, y + 8 * ty), (x - 6 * tx + 6 * nx, y - 6 * ty + 6 * ny),
                     (x - 6 * tx - 6 * nx, y - 6 * ty - 6 * ny)], "#8a8a8a")
    svg.text(RING_CENTRE[0], RING_CENTRE[1] - 4, "clockwise", size=13, fill="#777777")
    svg.text(RING_CENTRE[0], RING_CENTRE[1] + 14, "1 → 2 → … → 6", size=12, fill="#777777")
    for slot in SLOTS:
        _draw_slot(svg, state, slot)
    for i, text in enumerate(lines):
        svg.text(12, PANEL_TOP + i * PANEL_LINE, text, size=14, anchor="start",
                 weight="bold" if i == 0 or text.startswith("Mission") else None)
    draw.overlay(svg, focus, lambda p: p, 1.0)
    return svg.render()


def _draw_slot(svg: draw.Svg, state: State, slot: int) -> None:
    cx, cy = _on_ring(_slot_angle(slot))
    x, y = cx - SLOT_W / 2, cy - SLOT_H / 2
    enemy = state.ring[slot]
    if slot == state.vehicle:
        svg.rect(x, y, SLOT_W, SLOT_H, draw.COLORS["hero"], draw.COLORS["ink"], rx=7, width=2)
        svg.text(cx, cy + 6, "VEHICLE", size=14, weight="bold")
    elif enemy is not None:
        facts = state.lib.enemies[enemy.card]
        svg.rect(x, y, SLOT_W, SLOT_H, "#fbe9e7", draw.COLORS["enemy"], rx=7, width=2)
        _wrapped(svg, cx, cy - 8, state.lib.titles.get(enemy.card, enemy.card))
        marks = [m for m, on in (("boss", facts.boss), (facts.timing, facts.timing != "normal"),
                                 ("final", facts.final)) if on]
        if marks:
            svg.text(x + SLOT_W - 5, y + 13, " ".join(marks), size=TEXT, anchor="end", fill=draw.COLORS["enemy"])
        svg.circle(cx, cy + 19, 10, draw.COLORS["paper"], draw.COLORS["enemy"], width=1.5)
        svg.text(cx, cy + 23.5, enemy.health, size=12, weight="bold")
    else:
        svg.rect(x, y, SLOT_W, SLOT_H, draw.COLORS["paper"], "#999999", rx=7, width=1, dash="4 3")
        svg.text(cx, cy + 5, "empty", size=12, fill="#888888")
    svg.text(x + 5, y + 14, f"#{slot}", size=12, anchor="start", weight="bold")


def _wrapped(svg: draw.Svg, cx: float, y: float, text: str) -> None:
    words, lines, line = text.split(), [], ""
    for w in words:
        if line and len(line) + len(w) > 13:
            lines.append(line)
            line = w
        else:
            line = f"{line} {w}".strip()
    lines.append(line)
    for i, ln in enumerate(lines[:2]):
        svg.text(cx, y + i * 13, ln, size=11)


def _panel_lines(state: State) -> list[str]:
    """The vehicle's numbers, one line each, as the panel under the ring shows them."""
    rng = chase_range(state)
    lines = [
        f"Health {state.health} · Shield {state.shield}",
        f"Corpses {state.corpses} (buried {state.buried})",
        f"Turn {state.turn} · checkpoint {state.checkpoint + 1}, tier {state.tier}",
        f"Reserve: {len(state.reserves[state.tier])} left · range {rng[0]}–{rng[1]}",
        f"Gear-Shifter on {state.shifter.upper()}" if state.shifter else "Gear-Shifter not placed yet",
        f"Hand {len(state.hand)} · played {len(state.played)} · tucked {len(state.tucked)}",
        f"Decks: Driver {len(state.decks['driver'])}, Passenger {len(state.decks['passenger'])}",
    ]
    if state.gauge is not None:
        lines.append(f"Speed {state.gauge} ({zone_name(state.gauge)})")
    if state.result:
        lines.append(f"Mission {state.result.upper()}")
    return lines


DRAWING: Drawing[State] = Drawing(svg=draw_svg, pieces=pieces, legend=legend)
