"""Where pieces go on a sheet: pure geometry, no drawing, so it can be tested on its own.

Pieces abut (no gutters) so that every cut line is shared by two neighbours and runs from page
edge to page edge; only the outside of the block carries bleed.

Home printers print nothing in the outer ~5 mm of the page (the dead margin). So every trim edge
stays `EDGE` inside the page, which leaves each cut mark (drawn from the trim edge outwards, over
the bleed) at least `MIN_MARK` of printable length, and the bottom of every sheet keeps a band,
6 mm inside the edge, for the sheet's furniture (the scale note, part name, flip instructions and
the 50 mm ruler) that no cut line crosses."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from itertools import pairwise

from reportlab.lib.units import mm

PAPERS: dict[str, tuple[float, float]] = {
    "a4": (210 * mm, 297 * mm),
    "letter": (8.5 * 72, 11 * 72),
}
DEAD = 5 * mm  # the outer margin a home printer may leave blank
SAFE_EDGE = 6 * mm  # furniture starts at least this far inside the page edge
MIN_MARK = 5 * mm  # printable length every cut mark keeps
_SLACK = 0.5 * mm
EDGE = DEAD + MIN_MARK + _SLACK  # page edge to the nearest trim edge: 10.5 mm
BAND = 4.5 * mm  # height of the furniture band (two lines of 6 pt, or the ruler), from SAFE_EDGE
BAND_TOP = SAFE_EDGE + BAND + 1 * mm  # where cut marks coming down stop, 1 mm clear of the band
FOOT = BAND_TOP + MIN_MARK  # page bottom to the lowest trim edge: 16.5 mm (marks there print whole)
GROUP_GAP = 2 * (MIN_MARK + _SLACK)  # trim to trim between blocks of different sizes: a separator in the middle


@dataclass(frozen=True)
class Margins:
    """Page edge to the trim edges of whatever is laid out, in points."""

    left: float = EDGE
    right: float = EDGE
    top: float = EDGE
    bottom: float = FOOT


SHEET = Margins()


@dataclass(frozen=True)
class Grid:
    """A block of `cols` x `rows` pieces whose footprints are `w` x `h` points, trim block starting
    at (x0, y0). `rotated`: each piece is turned a quarter (its top towards the sheet's left) so
    that more fit; its footprint is then its height by its width."""

    cols: int
    rows: int
    w: float
    h: float
    x0: float
    y0: float
    rotated: bool = False

    @property
    def top(self) -> float:
        return self.y0 + self.rows * self.h

    @property
    def right(self) -> float:
        return self.x0 + self.cols * self.w

    def slot(self, i: int) -> tuple[float, float]:
        """Bottom-left of the i-th footprint, filled left to right, top to bottom."""
        col, row = i % self.cols, i // self.cols
        return self.x0 + col * self.w, self.y0 + (self.rows - 1 - row) * self.h

    def mirrored_slot(self, i: int, page_w: float) -> tuple[float, float]:
        """Where the back of piece i goes when the sheet is flipped on its long (vertical) edge."""
        x, y = self.slot(i)
        return page_w - x - self.w, y

    def xs(self) -> list[float]:
        return [self.x0 + k * self.w for k in range(self.cols + 1)]



def fit(area_w: float, area_h: float, w: float, h: float) -> tuple[int, int]:
    """How many footprints of w x h fit in an area, across and down."""
    cols = int((area_w + 1e-6) // w)
    rows = int((area_h + 1e-6) // h)
    return max(cols, 0), max(rows, 0)


@dataclass(frozen=True)
class Block:
    """Pieces of one size laid out as a grid on a page; `first` indexes the pieces it holds."""

    grid: Grid
    first: int
    count: int

    @property
    def rows_used(self) -> int:
        return -(-self.count // self.grid.cols)

    @property
    def cols_used(self) -> int:
        return self.grid.cols if self.rows_used > 1 else self.count


def orientation(w: float, h: float, area_w: float, area_h: float) -> tuple[bool, int, int]:
    """(rotated, cols, rows) of the orientation that puts more pieces on an empty area; upright on a tie."""
    cols, rows = fit(area_w, area_h, w, h)
    if w != h:
        rcols, rrows = fit(area_w, area_h, h, w)
        if rcols * rrows > cols * rows:
            return True, rcols, rrows
    return False, cols, rows


def pack(sizes: list[tuple[tuple[float, float], int]], page: tuple[float, float],
         area: tuple[float, float] | None = None, flush_right: bool = False,
         margins: Margins = SHEET) -> list[list[Block]]:
    """Lay groups of pieces (size, how many) onto as few pages as possible: each group fills whole
    rows, turned a quarter when that fits more; a new group starts below the last one (a separator
    between them) when its rows fit, else on the next page.

    `area` is the horizontal span (left, right) of trim edges; blocks are centred in it, or pushed
    against its right edge with `flush_right` (the fold of a gutterfold sheet)."""
    pw, ph = page
    left, right = area or (margins.left, pw - margins.right)
    top_limit, bottom_limit = ph - margins.top, margins.bottom
    pages: list[list[Block]] = [[]]
    top = top_limit
    index = 0
    for (w, h), count in sizes:
        rotated, cols, rows_max = orientation(w, h, right - left, top_limit - bottom_limit)
        fw, fh = (h, w) if rotated else (w, h)
        if cols < 1 or rows_max < 1:
            raise ValueError(f"a {w / mm:.0f}x{h / mm:.0f} mm piece does not fit this paper")
        remaining = count
        while remaining:
            rows_fit = int((top - bottom_limit + 1e-6) // fh)
            if rows_fit < 1:
                pages.append([])
                top = top_limit
                continue
            rows = min(rows_fit, -(-remaining // cols))
            n = min(remaining, rows * cols)
            x0 = right - cols * fw if flush_right else left + (right - left - cols * fw) / 2
            pages[-1].append(Block(Grid(cols, rows, fw, fh, x0, top - rows * fh, rotated), index, n))
            index += n
            remaining -= n
            top -= rows * fh + GROUP_GAP
    return [_centre(p, bottom_limit) for p in pages if p]


def _centre(blocks: list[Block], bottom_limit: float) -> list[Block]:
    """Move a page's stack of blocks down by half the space left under it: equal room above and below."""
    shift = (blocks[-1].grid.y0 - bottom_limit) / 2
    return [Block(replace(b.grid, y0=b.grid.y0 - shift), b.first, b.count) for b in blocks]


def separators(blocks: list[Block]) -> list[float]:
    """The heights of the lines that part stacked blocks: halfway between one's bottom and the next's top."""
    return [(upper.grid.y0 + lower.grid.top) / 2 for upper, lower in pairwise(blocks)]


# ---------------------------------------------------------------------------------------------
# Boards bigger than the paper


OVERLAP = 12 * mm


def split(length: float, room: float, overlap: float = OVERLAP) -> tuple[tuple[float, float], ...]:
    """Windows (start, end) along one axis of a board of `length` that each fit `room` and overlap
    their neighbour by exactly `overlap`; all windows the same length."""
    if length <= room + 1e-6:
        return ((0.0, length),)
    n = math.ceil((length - overlap) / (room - overlap) - 1e-9)
    size = (length + (n - 1) * overlap) / n
    return tuple((k * (size - overlap), k * (size - overlap) + size) for k in range(n))


@dataclass(frozen=True)
class Tiling:
    """How a board is cut into sheets: windows across (left to right) and down (top to bottom),
    in board coordinates (millimetres from the board's bottom-left, y up, as points)."""

    xs: tuple[tuple[float, float], ...]
    ys: tuple[tuple[float, float], ...]  # top window first
    overlap: float

    @property
    def sheets(self) -> int:
        return len(self.xs) * len(self.ys)


def tiling(board_w: float, board_h: float, room_w: float, room_h: float, overlap: float = OVERLAP) -> Tiling:
    xs = split(board_w, room_w, overlap)
    down = split(board_h, room_h, overlap)
    # Sheets are named from the top row down; board y runs up.
    ys = tuple((board_h - end, board_h - start) for start, end in down)
    return Tiling(xs, ys, overlap)
