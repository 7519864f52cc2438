"""Where pieces go on a sheet: pure geometry, no drawing, so it can be tested on its own.

Pieces abut (no gutters) so that every cut line is shared by two neighbours and runs from page
edge to page edge; only the outside of the block carries bleed."""

from __future__ import annotations

import math
from dataclasses import dataclass

from reportlab.lib.units import mm

PAPERS: dict[str, tuple[float, float]] = {
    "a4": (210 * mm, 297 * mm),
    "letter": (8.5 * 72, 11 * 72),
}
# Room kept free at the page edges: the side margins carry the scale note and the ruler.
SIDE_MARGIN = 6 * mm
END_MARGIN = 4 * mm


@dataclass(frozen=True)
class Grid:
    """A block of `cols` x `rows` pieces of `w` x `h` points whose trim block starts at (x0, y0)."""

    cols: int
    rows: int
    w: float
    h: float
    x0: float
    y0: float

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    def slot(self, i: int) -> tuple[float, float]:
        """Bottom-left of the i-th piece, filled left to right, top to bottom."""
        col, row = i % self.cols, i // self.cols
        return self.x0 + col * self.w, self.y0 + (self.rows - 1 - row) * self.h

    def mirrored_slot(self, i: int, page_w: float) -> tuple[float, float]:
        """Where the back of piece i goes when the sheet is flipped on its long (vertical) edge."""
        x, y = self.slot(i)
        return page_w - x - self.w, y

    def xs(self) -> list[float]:
        return [self.x0 + k * self.w for k in range(self.cols + 1)]

    def ys(self) -> list[float]:
        return [self.y0 + k * self.h for k in range(self.rows + 1)]


def fit(area_w: float, area_h: float, w: float, h: float, bleed: float) -> tuple[int, int]:
    cols = int((area_w - 2 * bleed + 1e-6) // w)
    rows = int((area_h - 2 * bleed + 1e-6) // h)
    return max(cols, 0), max(rows, 0)


def grid_for(page: tuple[float, float], w: float, h: float, bleed: float, max_cols: int = 99,
             max_rows: int = 99) -> Grid:
    """The largest centred block of pieces that fits the page inside its margins."""
    pw, ph = page
    cols, rows = fit(pw - 2 * SIDE_MARGIN, ph - 2 * END_MARGIN, w, h, bleed)
    cols, rows = min(cols, max_cols), min(rows, max_rows)
    if cols < 1 or rows < 1:
        raise ValueError(f"a {w / mm:.0f}x{h / mm:.0f} mm piece does not fit this paper")
    return Grid(cols, rows, w, h, (pw - cols * w) / 2, (ph - rows * h) / 2)


def gutterfold_grid(page: tuple[float, float], w: float, h: float, bleed: float, gutter: float = 10 * mm) -> Grid:
    """Fronts on the left half of a landscape page; backs mirror them across the fold line."""
    pw, ph = page
    half = pw / 2 - gutter / 2 - SIDE_MARGIN
    cols, rows = fit(half, ph - 2 * END_MARGIN, w, h, bleed)
    if cols < 1 or rows < 1:
        raise ValueError(f"a {w / mm:.0f}x{h / mm:.0f} mm piece does not fit a gutterfold half page")
    x0 = pw / 2 - gutter / 2 - cols * w
    return Grid(cols, rows, w, h, x0, (ph - rows * h) / 2)


@dataclass(frozen=True)
class Tiling:
    """How a board bigger than the printable area is split into overlapping sheets."""

    nx: int
    ny: int
    step_x: float
    step_y: float
    area_w: float
    area_h: float
    overlap: float


def tiling(board_w: float, board_h: float, area_w: float, area_h: float, overlap: float = 12 * mm) -> Tiling:
    nx = 1 if board_w <= area_w else math.ceil((board_w - overlap) / (area_w - overlap))
    ny = 1 if board_h <= area_h else math.ceil((board_h - overlap) / (area_h - overlap))
    step_x = 0.0 if nx == 1 else (board_w - area_w) / (nx - 1)
    step_y = 0.0 if ny == 1 else (board_h - area_h) / (ny - 1)
    return Tiling(nx, ny, step_x, step_y, min(area_w, board_w), min(area_h, board_h), overlap)
