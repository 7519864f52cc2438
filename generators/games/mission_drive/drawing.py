"""Mission: Drive: the road, the vehicles, the boss and the dashboard as a deterministic SVG, its pieces
for the zoom and alt text, and the legend."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from generators.content.geometry import Box
from generators.games.mission_drive.facts import FIRE_DIRECTION, SLOTS, Space
from generators.games.mission_drive.state import State, part_space, vkey
from generators.rules import svg as draw
from generators.rules.contract import Drawing, Event

# --- drawing -----------------------------------------------------------------------------------

CELL = 36
MARGIN = 14
PANEL = 148  # dashboard area under the road (its status on two lines, a card drawn on a third)
SLOT_W = 100
CONTEXT_ROWS = 1  # rows shown around what changed
MIN_ROWS = 4  # a zoomed drawing shows at least this many rows
VEHICLE_REACH = 4.0  # spaces: farther apart, two alike vehicles are two vehicles (one gone, one new)
ARROW_GLYPH = {"forward": "↑", "back": "↓", "left": "←", "right": "→"}
SIDE_WORDS = {"enemy": "enemy", "civilian": "civilian", "hero": "hero"}


def _unit(s: State, space: Space) -> tuple[float, float]:
    """Board units of a space's centre: x across the lanes, y down the road from the far end (as drawn)."""
    return space[0] + 0.5, s.rows - 1 - space[1] + 0.5


def _lane_row(space: Space) -> str:
    return f"lane {space[0] + 1}, row {space[1] + 1}"


def pieces(state: State) -> list[draw.Piece]:
    """The hero, vehicles, boss parts, weapon tokens and up-links, for the zoom, arrows and alt text."""
    s = state
    out = [draw.Piece("hero", "hero", "the hero", _lane_row(s.hero), *_unit(s, s.hero), health=s.health, unit="health")]
    for v in sorted(s.vehicles, key=vkey):
        name = f"the {SIDE_WORDS.get(v.side, v.side)} {v.type}"
        out.append(draw.Piece(f"{v.side}-{v.type}", f"{v.side}-{v.type}", name, _lane_row(v.at), *_unit(s, v.at),
                              status="damaged" if v.damaged else "", reach=VEHICLE_REACH))
    if s.boss is not None and s.boss.at is not None:
        for part in s.boss.parts:
            at = part_space(s.boss, part)
            name = part.id.removeprefix(f"{part.tile}-").replace("-", " ")
            name = name[:1].upper() + name[1:]  # a part's name as its tile prints it ("Engine", "Left track")
            out.append(draw.Piece(f"boss-{part.id}", "boss-vulnerable" if part.vulnerable else "boss",
                                  f"the boss's {name}", _lane_row(at), *_unit(s, at),
                                  status="damaged" if part.id in s.boss.damaged else ""))
    for t in sorted(s.tokens, key=lambda t: t.id):
        out.append(draw.Piece(f"token-{t.id}", t.kind, f"the {t.kind} token", _lane_row(t.at), *_unit(s, t.at)))
    for u in sorted(s.uplinks):
        out.append(draw.Piece("uplink", "uplink", "the up-link's energy", _lane_row(u), *_unit(s, u), reach=0))
    return out


def route(state: State, events: Sequence[Event]) -> dict[str, list[tuple[float, float]]]:
    """The spaces the hero drove through, one for each arrow followed (a forward-left-forward card
    is drawn as three legs, not one diagonal)."""
    spaces = [e.data["to"] for e in events if e.kind == "hero_moved"]
    return {"hero": [_unit(state, tuple(sp)) for sp in spaces]} if spaces else {}


def _rows_shown(s: State, focus: draw.Focus | None) -> tuple[int, int]:
    """The rows (drawn from the far end, top first) a drawing shows: all, or those around the focus."""
    if focus is None:
        return 0, s.rows
    x, y = _unit(s, s.hero)
    window = focus.window or Box(x - 0.5, y - 0.5, 1, 1)
    top = max(0, math.floor(window.y + 1e-6) - CONTEXT_ROWS)
    bottom = min(s.rows, math.ceil(window.y1 - 1e-6) + CONTEXT_ROWS)
    while bottom - top < min(MIN_ROWS, s.rows):
        top, bottom = (top - 1, bottom) if top > 0 else (top, bottom + 1)
    return top, bottom


def draw_svg(state: State, focus: draw.Focus | None = None) -> str:
    """The road (row 0 at the bottom), vehicles by side and type, boss, tokens, and the dashboard; with
    a focus, only the rows around what changed (full width, so lanes stay countable), marked."""
    s = state
    width = max(s.lanes * CELL, 3 * SLOT_W) + 2 * MARGIN
    road_x = (width - s.lanes * CELL) / 2
    grid = draw.Grid(road_x, MARGIN, s.lanes, s.rows, CELL)
    top, bottom = _rows_shown(s, focus)
    road_top, road_bottom = MARGIN + top * CELL, MARGIN + bottom * CELL
    height = road_bottom + MARGIN + PANEL
    pic = draw.Svg(width, height, title=f"Mission: Drive — {s.phase}", min_text=draw.readable(width))
    pic.rect(0, 0, pic.width, pic.height, draw.COLORS["paper"])
    board = s.facts.board_rows
    draw.draw_grid(pic, grid, board if s.rows % board == 0 else 0)
    for u in sorted(s.uplinks):
        _draw_uplink(pic, *grid.center(*u))
    _draw_boss(pic, grid, s)
    for t in sorted(s.tokens, key=lambda t: t.id):
        _draw_token(pic, *grid.center(*t.at), t.kind)
    for v in sorted(s.vehicles, key=vkey):
        draw.draw_vehicle(pic, grid, v.at[0], v.at[1], v.type, v.side, v.damaged, v.type[0].upper())
    draw.draw_vehicle(pic, grid, s.hero[0], s.hero[1], "car", "hero", label="H")
    for row in range(s.rows - bottom, s.rows - top):
        y = grid.center(0, row)[1]
        pic.text(road_x - 4, y + 4, row + 1, size=10, anchor="end", fill="#555555")
    draw.overlay(pic, focus, lambda p: (road_x + p[0] * CELL, MARGIN + p[1] * CELL), CELL)
    pic.rect(0, road_bottom, width, height - road_bottom, draw.COLORS["paper"])  # the road below the window
    pic.rect(0, 0, width, road_top, draw.COLORS["paper"])  # and above it
    if top > 0:
        pic.text(width / 2, road_top - 3, "⋮ the road goes on", size=10, fill="#555555")
    pic.rect(road_x, road_top, s.lanes * CELL, road_bottom - road_top, "none", draw.COLORS["ink"], width=2)
    _draw_dashboard(pic, s, road_bottom + MARGIN)
    view = Box(0, road_top - MARGIN, width, height - road_top + MARGIN)
    return pic.render(view if focus is not None else None)


def _draw_uplink(pic: draw.Svg, cx: float, cy: float) -> None:
    r = CELL * 0.22
    pic.polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], draw.COLORS["uplink"], "#0b5563")


def legend() -> list[draw.Swatch]:
    """Every kind of piece, drawn as the road draws it, in players' words."""
    def vehicle(vtype: str, side: str, damaged: bool = False) -> Any:
        def paint(pic: draw.Svg, cx: float, cy: float, n: float) -> None:
            grid = draw.Grid(cx - CELL / 2, cy - CELL / 2, 1, 1, CELL)
            draw.draw_vehicle(pic, grid, 0, 0, vtype, side, damaged, "H" if side == "hero" else vtype[0].upper())
        return paint

    entries = [draw.swatch("hero", "H: the hero's car (gold)", vehicle("car", "hero"))]
    for side, colour in (("enemy", "red"), ("civilian", "blue")):
        for vtype in ("car", "motorcycle", "truck"):
            entries.append(draw.swatch(f"{side}-{vtype}", f"{vtype[0].upper()}: {side} {vtype} ({colour})",
                                       vehicle(vtype, side)))
    entries.append(draw.swatch("truck-damaged", "damaged truck (dashed, cracked)", vehicle("truck", "enemy", True)))
    entries.append(draw.swatch("uplink", "satellite up-link energy", lambda p, cx, cy, n: _draw_uplink(p, cx, cy)))
    entries.append(draw.swatch("boss", "boss part (purple)", lambda p, cx, cy, n: _boss_tile(p, cx - CELL / 2,
                                                                                            cy - CELL / 2)))
    entries.append(draw.swatch("boss-vulnerable", "boss part: vulnerable spot (yellow ring)",
                               lambda p, cx, cy, n: _boss_tile(p, cx - CELL / 2, cy - CELL / 2, vulnerable=True)))
    entries.append(draw.swatch("rocket", "rocket token", lambda p, cx, cy, n: _draw_token(p, cx, cy, "rocket")))
    entries.append(draw.swatch("drone", "drone token", lambda p, cx, cy, n: _draw_token(p, cx, cy, "drone")))
    return entries


def _boss_tile(pic: draw.Svg, x: float, y: float, vulnerable: bool = False, damaged: bool = False) -> None:
    pic.rect(x + 2, y + 2, CELL - 4, CELL - 4, draw.COLORS["boss"], draw.COLORS["ink"], rx=3)
    if vulnerable:
        pic.circle(x + CELL / 2, y + CELL / 2, CELL * 0.3, "none", draw.COLORS["vulnerable"], 2.5)
    if damaged:
        pic.line(x + 8, y + 8, x + CELL - 8, y + CELL - 8, draw.COLORS["damage"], 4)
        pic.line(x + CELL - 8, y + 8, x + 8, y + CELL - 8, draw.COLORS["damage"], 4)


def _draw_boss(pic: draw.Svg, grid: draw.Grid, s: State) -> None:
    boss = s.boss
    if boss is None or boss.at is None:
        return
    for part in boss.parts:
        x, y = grid.corner(*part_space(boss, part))
        _boss_tile(pic, x, y, part.vulnerable, part.id in boss.damaged)
        name = part.id.removeprefix(f"{part.tile}-").replace("-", " ")  # an id, in words, whole
        size = max(9, pic.min_text)
        rows = draw.wrap(name, CELL - 2, size)
        pic.lines(x + CELL / 2, y + CELL - 4 - (len(rows) - 1) * size * 1.1, name, CELL - 2, size, step=size * 1.1,
                  fill=draw.COLORS["paper"])


def _draw_token(pic: draw.Svg, cx: float, cy: float, kind: str) -> None:
    r = CELL * 0.26
    if kind == "rocket":
        pic.polygon([(cx, cy + r), (cx + r * 0.7, cy - r), (cx - r * 0.7, cy - r)], draw.COLORS["rocket"],
                    draw.COLORS["ink"])
    else:
        pic.circle(cx, cy, r, draw.COLORS["drone"], draw.COLORS["ink"])
        pic.line(cx - r, cy - r, cx + r, cy + r, draw.COLORS["ink"])
        pic.line(cx - r, cy + r, cx + r, cy - r, draw.COLORS["ink"])


FIRE_GLYPH = {"left": "←", "forward": "↑", "right": "→"}
# The game's phases and how a mission ended, in players' words (the state keeps ids); short, so that
# the status line fits the drawing at phone width.
PHASE_WORDS = {"upgrades": "Repairs and upgrades", "next-mission": "Between missions",
               "boss-setup": "Setting up the boss", "boss": "Boss encounter"}
ENDED_WORDS = {"accomplished": "accomplished", "immobilization": "lost: immobilized",
               "exhaustion": "lost: exhausted", "boss-defeated": "won"}


def status_lines(s: State) -> tuple[str, str]:
    """Where the game stands, in players' words, on two lines: "Mission 2 · accomplished", then
    "deck: 12 cards · 3 discarded"."""
    where = f"Mission {s.mission}" if s.phase == "mission" else PHASE_WORDS.get(s.phase, s.phase)
    ended = ENDED_WORDS.get(s.mission_status or "", "") if s.phase in ("mission", "boss") else ""
    deck = "deck empty" if not s.deck else f"deck: {len(s.deck)} card{'s' if len(s.deck) != 1 else ''}"
    return " · ".join([where, *([ended] if ended else [])]), f"{deck} · {len(s.discard)} discarded"


def _draw_dashboard(pic: draw.Svg, s: State, top: float) -> None:
    x0 = (pic.width - 3 * SLOT_W) / 2
    for i, slot in enumerate(SLOTS):
        x = x0 + i * SLOT_W
        card = s.slots[slot]
        pic.rect(x + 3, top, SLOT_W - 6, 56, "#f4f1ea", draw.COLORS["ink"], rx=4)
        pic.text(x + SLOT_W / 2, top + 14, f"{slot}, fires {FIRE_GLYPH.get(FIRE_DIRECTION[slot], '')}", size=10)
        arrows = " ".join(ARROW_GLYPH[a] for a in card.arrows) if card else "(empty)"
        pic.text(x + SLOT_W / 2, top + 35, arrows, size=16 if card else 10)
        pic.text(x + SLOT_W / 2, top + 51, "mirror ready" if s.mirrors[slot] else "mirror used", size=10,
                 fill=draw.COLORS["ink"] if s.mirrors[slot] else "#767676")
    track_y = top + 64
    box = min(22.0, (pic.width - 2 * MARGIN - 60) / s.health_track)
    pic.text(MARGIN, track_y + box * 0.7, "health", size=10, anchor="start")
    for i in range(s.health_track):
        x = MARGIN + 48 + i * box
        pic.rect(x, track_y, box - 2, box - 2, "#fdecea" if i == 0 else "#ffffff", draw.COLORS["ink"])
        if i == s.health:
            pic.rect(x + 4, track_y + 4, box - 10, box - 10, draw.COLORS["enemy"])
    for k, line in enumerate(status_lines(s)):
        pic.text(MARGIN, track_y + box + 18 + 14 * k, line, size=10, anchor="start")
    if s.pending:
        pic.text(MARGIN, track_y + box + 46, f"{s.pending.kind} card drawn", size=10, anchor="start")


DRAWING = Drawing(svg=draw_svg, pieces=pieces, legend=legend, route=route)
