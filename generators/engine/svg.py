"""Small SVG helpers shared by the games' `draw_svg` functions.

Output must be byte-identical for the same state (the site and the report diff it), so numbers go
through one formatter, attributes keep a fixed order, and every piece of text is XML-escaped (labels
come from user-edited scenarios).
"""

from __future__ import annotations

from dataclasses import dataclass

# Side colours: enemies red, civilians blue/grey, the hero gold (the brief's convention).
COLORS = {
    "enemy": "#c0392b",
    "civilian": "#5b7fa6",
    "civilian-outline": "#7f8c8d",
    "hero": "#d4a017",
    "road": "#4d4d4d",
    "lane": "#9a9a9a",
    "paper": "#ffffff",
    "ink": "#1b1b1b",
    "boss": "#6c3483",
    "vulnerable": "#f1c40f",
    "damage": "#111111",
    "uplink": "#17a2b8",
    "rocket": "#e67e22",
    "drone": "#16a085",
    "muted": "#bdbdbd",
}


def num(value: float) -> str:
    """One number format for the whole file: integers bare, others with at most two decimals."""
    value = round(float(value), 2)
    if value.is_integer():
        return str(int(value))
    return f"{value:.2f}".rstrip("0").rstrip(".")


def esc(text: object) -> str:
    """Escape text for use in element content and in double-quoted attributes."""
    return (
        str(text)
        .replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("'", "&#39;")
    )


class Svg:
    """An SVG document built element by element, in drawing order."""

    def __init__(self, width: float, height: float, title: str = ""):
        self.width = width
        self.height = height
        self.title = title
        self.items: list[str] = []

    def element(self, tag: str, attrs: dict[str, object], text: str | None = None) -> None:
        parts = [tag]
        for key, value in attrs.items():
            if value is None:
                continue
            shown = num(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else esc(value)
            parts.append(f'{key}="{shown}"')
        opening = "<" + " ".join(parts)
        self.items.append(f"{opening}/>" if text is None else f"{opening}>{esc(text)}</{tag}>")

    def rect(self, x: float, y: float, w: float, h: float, fill: str, stroke: str | None = None,
             rx: float = 0, width: float = 1, dash: str | None = None) -> None:
        self.element("rect", {"x": x, "y": y, "width": w, "height": h, "rx": rx or None, "fill": fill,
                              "stroke": stroke, "stroke-width": width if stroke else None, "stroke-dasharray": dash})

    def circle(self, cx: float, cy: float, r: float, fill: str, stroke: str | None = None, width: float = 1) -> None:
        self.element("circle", {"cx": cx, "cy": cy, "r": r, "fill": fill, "stroke": stroke,
                                "stroke-width": width if stroke else None})

    def ellipse(self, cx: float, cy: float, rx: float, ry: float, fill: str, stroke: str | None = None) -> None:
        self.element("ellipse", {"cx": cx, "cy": cy, "rx": rx, "ry": ry, "fill": fill, "stroke": stroke})

    def line(self, x1: float, y1: float, x2: float, y2: float, stroke: str, width: float = 1,
             dash: str | None = None) -> None:
        self.element("line", {"x1": x1, "y1": y1, "x2": x2, "y2": y2, "stroke": stroke, "stroke-width": width,
                              "stroke-dasharray": dash})

    def polygon(self, points: list[tuple[float, float]], fill: str, stroke: str | None = None) -> None:
        pts = " ".join(f"{num(x)},{num(y)}" for x, y in points)
        self.element("polygon", {"points": pts, "fill": fill, "stroke": stroke})

    def text(self, x: float, y: float, text: object, size: float = 10, anchor: str = "middle",
             fill: str = COLORS["ink"], weight: str | None = None) -> None:
        self.element("text", {"x": x, "y": y, "font-family": "sans-serif", "font-size": size,
                              "text-anchor": anchor, "fill": fill, "font-weight": weight}, str(text))

    def render(self) -> str:
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{num(self.width)}" height="{num(self.height)}" '
                f'viewBox="0 0 {num(self.width)} {num(self.height)}">')
        title = [f"<title>{esc(self.title)}</title>"] if self.title else []
        return "\n".join([head, *title, *self.items, "</svg>"]) + "\n"


@dataclass(frozen=True)
class Grid:
    """A board of `cols` x `rows` square cells; row 0 is drawn at the bottom (nearest the player)."""

    x0: float
    y0: float
    cols: int
    rows: int
    cell: float

    def corner(self, col: int, row: int) -> tuple[float, float]:
        return self.x0 + col * self.cell, self.y0 + (self.rows - 1 - row) * self.cell

    def center(self, col: int, row: int) -> tuple[float, float]:
        x, y = self.corner(col, row)
        return x + self.cell / 2, y + self.cell / 2

    @property
    def width(self) -> float:
        return self.cols * self.cell

    @property
    def height(self) -> float:
        return self.rows * self.cell


def draw_grid(svg: Svg, grid: Grid, board_every: int = 0) -> None:
    """The road surface, dashed lane lines, and a solid line where one road board meets the next."""
    svg.rect(grid.x0, grid.y0, grid.width, grid.height, COLORS["road"])
    for col in range(1, grid.cols):
        x = grid.x0 + col * grid.cell
        svg.line(x, grid.y0, x, grid.y0 + grid.height, COLORS["lane"], 1, dash="4 4")
    for row in range(1, grid.rows):
        y = grid.y0 + row * grid.cell
        solid = board_every and (grid.rows - row) % board_every == 0
        svg.line(grid.x0, y, grid.x0 + grid.width, y, COLORS["paper"] if solid else COLORS["lane"],
                 2 if solid else 0.5, dash=None if solid else "1 3")
    svg.rect(grid.x0, grid.y0, grid.width, grid.height, "none", COLORS["ink"], width=2)


def side_colors(side: str) -> tuple[str, str]:
    """Fill and outline for a vehicle side (enemy, civilian, hero)."""
    fill = COLORS.get(side, COLORS["muted"])
    outline = COLORS["civilian-outline"] if side == "civilian" else COLORS["ink"]
    return fill, outline


def draw_vehicle(svg: Svg, grid: Grid, col: int, row: int, vtype: str, side: str, damaged: bool = False,
                 label: str | None = None) -> None:
    """A top-down vehicle: car = rounded box, motorcycle = slim ellipse, truck = long box with a cab line;
    a damaged truck is drawn dashed with a crack."""
    cx, cy = grid.center(col, row)
    c = grid.cell
    fill, outline = side_colors(side)
    if vtype == "motorcycle":
        svg.ellipse(cx, cy, c * 0.13, c * 0.34, fill, outline)
    elif vtype == "truck":
        w, h = c * 0.6, c * 0.86
        svg.rect(cx - w / 2, cy - h / 2, w, h, fill, outline, rx=2, width=1.5, dash="3 2" if damaged else None)
        svg.line(cx - w / 2, cy - h / 2 + c * 0.22, cx + w / 2, cy - h / 2 + c * 0.22, outline, 1)
        if damaged:
            svg.line(cx - w / 2, cy + h / 2, cx + w / 2, cy - h / 4, COLORS["damage"], 2)
    else:
        w, h = c * 0.5, c * 0.72
        svg.rect(cx - w / 2, cy - h / 2, w, h, fill, outline, rx=c * 0.12, width=1.5)
    if label:
        svg.text(cx, cy + c * 0.12, label, size=c * 0.28, fill=COLORS["paper"], weight="bold")
