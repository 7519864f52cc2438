"""Where pieces go on a sheet: pure geometry, no drawing, so it can be tested on its own.

Pieces abut (no gutters) so that every cut line is shared by two neighbours and runs from page
edge to page edge; only the outside of the block carries bleed."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

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


@dataclass(frozen=True)
class Block:
    """Pieces of one size laid out as a grid on a page; `first` indexes the pieces it holds."""

    grid: Grid
    first: int
    count: int


BAND_GAP = 4 * mm  # between blocks of different sizes, beside the bleed: room for their cut marks


def pack(sizes: list[tuple[tuple[float, float], int]], page: tuple[float, float], bleed: float,
         area: tuple[float, float] | None = None, flush_right: bool = False) -> list[list[Block]]:
    """Lay groups of pieces (size, how many) onto as few pages as possible: each group fills whole
    rows; a new group starts below the last one when its rows fit, else on the next page.

    `area` is the horizontal span (left, right) available; blocks are centred in it, or pushed
    against its right edge with `flush_right` (the fold of a gutterfold sheet)."""
    pw, ph = page
    left, right = area or (SIDE_MARGIN, pw - SIDE_MARGIN)
    top_limit, bottom_limit = ph - END_MARGIN - bleed, END_MARGIN + bleed
    pages: list[list[Block]] = [[]]
    top = top_limit
    index = 0
    for (w, h), count in sizes:
        cols, _ = fit(right - left, ph - 2 * END_MARGIN, w, h, bleed)
        if cols < 1 or h > top_limit - bottom_limit:
            raise ValueError(f"a {w / mm:.0f}x{h / mm:.0f} mm piece does not fit this paper")
        remaining = count
        while remaining:
            rows_fit = int((top - bottom_limit + 1e-6) // h)
            if rows_fit < 1:
                pages.append([])
                top = top_limit
                continue
            rows = min(rows_fit, -(-remaining // cols))
            n = min(remaining, rows * cols)
            x0 = right - bleed - cols * w if flush_right else left + (right - left - cols * w) / 2
            pages[-1].append(Block(Grid(cols, rows, w, h, x0, top - rows * h), index, n))
            index += n
            remaining -= n
            top -= rows * h + 2 * bleed + BAND_GAP
    return [_centre(p, bottom_limit) for p in pages if p]


def _centre(blocks: list[Block], bottom_limit: float) -> list[Block]:
    """Move a page's stack of blocks down by half the space left under it: equal top and bottom margins."""
    shift = (blocks[-1].grid.y0 - bottom_limit) / 2
    return [Block(replace(b.grid, y0=b.grid.y0 - shift), b.first, b.count) for b in blocks]
