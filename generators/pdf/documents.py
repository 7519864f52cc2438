"""The printable documents of one game on one paper: cards double-sided and gutterfold, tokens and
tiles double-sided, boards split across sheets, dice as folding nets. Each returns PDF bytes."""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import groupby

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from generators.content.model import Component, LoadedGame, Side, size_mm
from generators.pdf.faces import BLEED, Look, draw_side
from generators.pdf.imposition import BAND_GAP, END_MARGIN, PAPERS, SIDE_MARGIN, Block, Grid, pack, tiling
from generators.pdf.options import Options
from generators.pdf.sheets import GUIDE, alignment_mark, cut_lines, fold_line, note_and_ruler


@dataclass(frozen=True)
class Piece:
    """One physical copy to cut out."""

    comp: Component
    front: Side
    back: Side | None
    label: str

    @property
    def size(self) -> tuple[float, float]:
        w, h = size_mm(self.comp.size)
        return w * mm, h * mm


def pieces(game: LoadedGame, kinds: Iterable[str]) -> list[Piece]:
    out: list[Piece] = []
    for comp in game.components:
        if comp.kind not in kinds:
            continue
        k = 0
        for face in comp.faces:
            for _ in range(face.count):
                k += 1
                out.append(Piece(comp, face.front, face.back or comp.back, f"{k}/{comp.count}"))
    return out


def _canvas(buf: io.BytesIO, look: Look, pagesize: tuple[float, float]) -> Canvas:
    """A deterministic canvas whose initial font is ours, so no unembedded Helvetica is referenced."""
    return Canvas(buf, pagesize=pagesize, invariant=1, pageCompression=1, initialFontName=look.fonts.regular)


def _new_canvas(buf: io.BytesIO, look: Look, game: LoadedGame, title: str, paper: str) -> Canvas:
    c = _canvas(buf, look, PAPERS[paper])
    c.setTitle(f"{game.name} — {title} ({paper.upper()})")
    c.setAuthor("Roadkit")
    c.setCreator("Roadkit print kit")
    c.setSubject(f"Print at 100% on {paper.upper()}")
    return c


def _finish(c: Canvas, buf: io.BytesIO, pages: int) -> bytes:
    """The document's bytes; none when it has no page (the game has nothing of that kind)."""
    if not pages:
        return b""
    c.save()
    return buf.getvalue()


def _groups(items: list[Piece]) -> Iterator[list[Piece]]:
    """Pieces of the same size and shape share sheets; order within the game is kept."""
    keyed = sorted(enumerate(items), key=lambda p: (p[1].size, p[1].comp.shape, p[0]))
    for _, group in groupby(keyed, key=lambda p: (p[1].size, p[1].comp.shape)):
        yield [p for _, p in group]


Placement = tuple[Component, Side, float, float, float, float, str]


def place(c: Canvas, look: Look, items: list[Placement], bleed: float = BLEED) -> None:
    """All backgrounds first, then all contents: a piece's bleed runs under its neighbours'
    edges but never over their text or pictures."""
    for layer in ("background", "content"):
        for comp, side, x, y, w, h, label in items:
            draw_side(c, look, comp, side, x, y, w, h, label, bleed=bleed, layer=layer)


def _sheets(items: list[Piece], page: tuple[float, float], area: tuple[float, float] | None = None,
            flush_right: bool = False) -> list[list[tuple[Block, list[Piece]]]]:
    """Pages of blocks, each block with its pieces; sizes in order, smaller groups sharing sheets."""
    groups = list(_groups(items))
    ordered = [p for g in groups for p in g]
    sizes = [(g[0].size, len(g)) for g in groups]
    return [[(b, ordered[b.first:b.first + b.count]) for b in blocks]
            for blocks in pack(sizes, page, BLEED, area, flush_right)]


def _cut_blocks(c: Canvas, page: tuple[float, float], blocks: list[Block], x_range: tuple[float, float] | None = None,
                mirror_x: float | None = None) -> None:
    """Cut lines of each block; a block's vertical lines run through the gaps to its neighbours."""
    for k, block in enumerate(blocks):
        grid = block.grid
        if mirror_x is not None:
            grid = Grid(grid.cols, grid.rows, grid.w, grid.h, mirror_x - grid.x0 - grid.cols * grid.w, grid.y0)
        above = page[1] if k == 0 else blocks[k - 1].grid.y0 - BLEED - BAND_GAP / 2
        below = 0.0 if k == len(blocks) - 1 else grid.y0 - BLEED - BAND_GAP / 2
        cut_lines(c, page, grid, block.count, BLEED, x_range=x_range, y_range=(below, above))


def duplex(game: LoadedGame, look: Look, opts: Options, kinds: Iterable[str], title: str) -> bytes:
    """Each front page followed by its backs, mirrored for long-edge flipping."""
    buf = io.BytesIO()
    c = _new_canvas(buf, look, game, title, opts.paper)
    page = PAPERS[opts.paper]
    font = look.fonts.regular
    sheets = _sheets(pieces(game, kinds), page)
    for n, sheet in enumerate(sheets, 1):
        place(c, look, [(p.comp, p.front, *b.grid.slot(i), *p.size, p.label)
                        for b, chunk in sheet for i, p in enumerate(chunk)])
        _cut_blocks(c, page, [b for b, _ in sheet])
        span = _ruler_span(sheet[0][0].grid)
        note_and_ruler(c, page, font, f"{game.name} · {title} · sheet {n} fronts", span)
        c.showPage()
        if not any(p.back for _, chunk in sheet for p in chunk):
            continue
        dx, dy = opts.back_offset[0] * mm, opts.back_offset[1] * mm
        backs = []
        for b, chunk in sheet:
            for i, p in enumerate(chunk):
                if p.back is not None:
                    x, y = b.grid.mirrored_slot(i, page[0])
                    backs.append((p.comp, p.back, x + dx, y + dy, *p.size, ""))
        place(c, look, backs)
        note_and_ruler(c, page, font, f"{game.name} · {title} · sheet {n} backs: flip on the long edge", span)
        c.showPage()
    return _finish(c, buf, len(sheets))


def gutterfold(game: LoadedGame, look: Look, opts: Options, kinds: Iterable[str], title: str,
               gutter: float = 2 * BLEED) -> bytes:
    """Front and back side by side on a landscape sheet: fold on the centre line, glue, cut.

    The gutter is just the two bleeds meeting at the fold, so two poker cards fit each half of a
    Letter sheet as well as an A4 one."""
    buf = io.BytesIO()
    pw, ph = PAPERS[opts.paper]
    page = (ph, pw)
    c = _new_canvas(buf, look, game, title, opts.paper)
    c.setPageSize(page)
    font = look.fonts.regular
    fold = page[0] / 2
    sheets = _sheets(pieces(game, kinds), page, area=(SIDE_MARGIN, fold - gutter / 2 + BLEED), flush_right=True)
    for n, sheet in enumerate(sheets, 1):
        items = [(p.comp, p.front, *b.grid.slot(i), *p.size, p.label)
                 for b, chunk in sheet for i, p in enumerate(chunk)]
        items += [(p.comp, p.back, *b.grid.mirrored_slot(i, page[0]), *p.size, "")
                  for b, chunk in sheet for i, p in enumerate(chunk) if p.back is not None]
        place(c, look, items)
        blocks = [b for b, _ in sheet]
        _cut_blocks(c, page, blocks, x_range=(0.0, fold - 2 * mm))
        _cut_blocks(c, page, blocks, x_range=(fold + 2 * mm, page[0]), mirror_x=page[0])
        fold_line(c, page, font)
        note_and_ruler(c, page, font, f"{game.name} · {title} · sheet {n}", _ruler_span(blocks[0].grid))
        c.showPage()
    return _finish(c, buf, len(sheets))


def _ruler_span(grid: Grid) -> tuple[float, float] | None:
    """The first row's height range, where no horizontal cut line crosses the ruler; rows too
    short for it (tokens) leave the ruler at mid-page."""
    if grid.h < 54 * mm:
        return None
    top = grid.y0 + grid.rows * grid.h
    return (top - grid.h + 2 * mm, top - 2 * mm)


def boards(game: LoadedGame, look: Look, opts: Options, title: str = "boards") -> bytes:
    """Each board side on as few sheets as it takes, with overlap and alignment marks between them."""
    buf = io.BytesIO()
    c = _new_canvas(buf, look, game, title, opts.paper)
    font = look.fonts.regular
    pw, ph = PAPERS[opts.paper]
    n_pages = 0
    for piece in pieces(game, ("board",)):
        for side, which in ((piece.front, "front"), (piece.back, "back")):
            if side is None:
                continue
            bw, bh = piece.size
            # Landscape when the board is wider than tall, so it needs fewer sheets.
            page = (ph, pw) if bw > bh else (pw, ph)
            area_w = page[0] - 2 * SIDE_MARGIN - 2 * BLEED
            area_h = page[1] - 2 * END_MARGIN - 2 * BLEED - 6 * mm
            t = tiling(bw, bh, area_w, area_h)
            for ty in range(t.ny):
                for tx in range(t.nx):
                    n_pages += 1
                    c.setPageSize(page)
                    _board_sheet(c, look, piece, side, page, t, tx, ty, font)
                    part = f"part {chr(65 + ty)}{tx + 1} of {t.nx * t.ny}" if t.nx * t.ny > 1 else "one sheet"
                    note_and_ruler(c, page, font, f"{game.name} · {piece.comp.name} ({which}) · {part}")
                    c.showPage()
    return _finish(c, buf, n_pages)


def _board_sheet(c: Canvas, look: Look, piece: Piece, side: Side, page: tuple[float, float], t, tx: int, ty: int,
                 font: str) -> None:
    """One sheet of a (possibly split) board: the board translated so this sheet's window shows,
    clipped to the window; marks on the overlapping edges."""
    bw, bh = piece.size
    pw, ph = page
    win_x0 = (pw - t.area_w) / 2
    win_y0 = (ph - t.area_h) / 2 - 2 * mm
    # Board coordinates of this window (origin at the board's bottom-left; row A is the top).
    bx = tx * t.step_x
    by = bh - t.area_h - ty * t.step_y
    c.saveState()
    p = c.beginPath()
    bleed_l = BLEED if tx == 0 else 0.0
    bleed_r = BLEED if tx == t.nx - 1 else 0.0
    bleed_t = BLEED if ty == 0 else 0.0
    bleed_b = BLEED if ty == t.ny - 1 else 0.0
    p.rect(win_x0 - bleed_l, win_y0 - bleed_b, t.area_w + bleed_l + bleed_r, t.area_h + bleed_b + bleed_t)
    c.clipPath(p, stroke=0, fill=0)
    draw_side(c, look, piece.comp, side, win_x0 - bx, win_y0 - by, bw, bh, piece.label)
    c.restoreState()
    # Trim lines where this sheet has the board's real edge; overlap edges get glue marks.
    c.saveState()
    c.setStrokeColor(look.color("ink"))
    c.setLineWidth(0.35)
    x1, y1 = win_x0 + t.area_w, win_y0 + t.area_h
    edges = {
        "left": (tx == 0, (win_x0, 0, win_x0, win_y0 - BLEED), (win_x0, y1 + BLEED, win_x0, ph)),
        "right": (tx == t.nx - 1, (x1, 0, x1, win_y0 - BLEED), (x1, y1 + BLEED, x1, ph)),
        "bottom": (ty == t.ny - 1, (0, win_y0, win_x0 - BLEED, win_y0), (x1 + BLEED, win_y0, pw, win_y0)),
        "top": (ty == 0, (0, y1, win_x0 - BLEED, y1), (x1 + BLEED, y1, pw, y1)),
    }
    for real, a, b in edges.values():
        if real:
            c.line(*a)
            c.line(*b)
    c.restoreState()
    name = f"{chr(65 + ty)}{tx + 1}"
    ov = t.overlap
    # Matching marks: the right overlap strip of this sheet is the left strip of the next one.
    if tx < t.nx - 1:
        for fy in (0.25, 0.75):
            alignment_mark(c, x1 - ov / 2, win_y0 + t.area_h * fy, f"{name}→{chr(65 + ty)}{tx + 2}", font)
        _overlap_note(c, x1 - ov, win_y0, ov, t.area_h, "overlap: glue the next sheet over this strip", font)
    if tx > 0:
        for fy in (0.25, 0.75):
            alignment_mark(c, win_x0 + ov / 2, win_y0 + t.area_h * fy, f"{chr(65 + ty)}{tx}→{name}", font)
    if ty < t.ny - 1:
        for fx in (0.25, 0.75):
            alignment_mark(c, win_x0 + t.area_w * fx, win_y0 + ov / 2, f"{name}↓{chr(66 + ty)}{tx + 1}", font)
    if ty > 0:
        for fx in (0.25, 0.75):
            alignment_mark(c, win_x0 + t.area_w * fx, y1 - ov / 2, f"{chr(64 + ty)}{tx + 1}↓{name}", font)


def _overlap_note(c: Canvas, x: float, y: float, w: float, h: float, text: str, font: str) -> None:
    c.saveState()
    c.setStrokeColor(GUIDE)
    c.setDash(2 * mm, 1.5 * mm)
    c.setLineWidth(0.4)
    c.line(x, y, x, y + h)
    c.setFillColor(GUIDE)
    c.setFont(font, 5)
    c.translate(x + w / 2 + 1, y + h / 2)
    c.rotate(90)
    c.drawCentredString(0, 0, text)
    c.restoreState()


# A cube's cross-shaped net in face units, (column, row) with row 0 at the top, and the edges that
# carry a glue tab: (face index, edge). Each of the seven edge pairs that meet on folding gets one.
CROSS = ((1, 0), (0, 1), (1, 1), (2, 1), (1, 2), (1, 3))
TABS = ((0, "left"), (0, "right"), (4, "left"), (4, "right"), (5, "left"), (5, "right"), (5, "bottom"))


def dice(game: LoadedGame, look: Look, opts: Options, title: str = "dice") -> bytes:
    """Each die as a cube net: a cross of its six faces, in the order listed, with glue tabs; as
    many nets as the component has dice, several to a sheet."""
    buf = io.BytesIO()
    c = _new_canvas(buf, look, game, title, opts.paper)
    page = PAPERS[opts.paper]
    font = look.fonts.regular
    nets = [comp for comp in game.components if comp.kind == "dice" for _ in range(comp.count)]
    n_pages = 0
    i = 0
    while i < len(nets):
        s = size_mm(nets[i].size)[0] * mm
        tab = 0.3 * s
        cell_w, cell_h = 3 * s + 2 * tab + 4 * mm, 4 * s + 2 * tab + 4 * mm
        cols = max(1, int((page[0] - 2 * SIDE_MARGIN) // cell_w))
        rows = max(1, int((page[1] - 2 * END_MARGIN) // cell_h))
        x0 = (page[0] - cols * cell_w) / 2
        top = page[1] - (page[1] - rows * cell_h) / 2
        # A sheet holds nets of one size, so the grid above fits all of them.
        on_page = [n for n in nets[i:i + cols * rows] if n.size == nets[i].size]
        for k, comp in enumerate(on_page):
            col, row = k % cols, k // cols
            _die_net(c, look, comp, x0 + col * cell_w + tab + 2 * mm, top - row * cell_h - tab - 2 * mm, s, tab)
        n_pages += 1
        note_and_ruler(c, page, font, f"{game.name} · {title} · sheet {n_pages}: cut the outline, fold on the "
                       "lines between faces, glue the tabs inside")
        c.showPage()
        i += len(on_page)
    return _finish(c, buf, n_pages)


def _die_net(c: Canvas, look: Look, comp: Component, x0: float, top: float, s: float, tab: float) -> None:
    """One net with its top-left face corner at (x0, top)."""
    boxes = [(x0 + col * s, top - (row + 1) * s) for col, row in CROSS]
    # No bleed: it would show on the glue tabs; a die is cut on its outline.
    place(c, look, [(comp, face.front, x, y, s, s, "") for face, (x, y) in zip(comp.faces, boxes, strict=True)],
          bleed=0)
    c.saveState()
    c.setLineWidth(0.35)
    c.setStrokeColor(look.color("ink"))
    for x, y in boxes:
        c.rect(x, y, s, s, stroke=1, fill=0)
    for face, edge in TABS:
        x, y = boxes[face]
        # A trapezoid outward from the edge: (start, end) of the edge and the outward unit vector.
        (ax, ay), (bx, by), (nx, ny) = {
            "left": ((x, y), (x, y + s), (-1, 0)),
            "right": ((x + s, y), (x + s, y + s), (1, 0)),
            "bottom": ((x, y), (x + s, y), (0, -1)),
        }[edge]
        ux, uy = (bx - ax) / s, (by - ay) / s
        p = c.beginPath()
        p.moveTo(ax, ay)
        p.lineTo(ax + nx * tab + ux * tab, ay + ny * tab + uy * tab)
        p.lineTo(bx + nx * tab - ux * tab, by + ny * tab - uy * tab)
        p.lineTo(bx, by)
        c.setDash(2, 1.5)
        c.drawPath(p, stroke=1, fill=0)
    c.restoreState()


def single_side(look: Look, comp: Component, side: Side, label: str) -> bytes:
    """One side alone on a page of its trim size (no bleed): the source of its PNG export."""
    w, h = size_mm(comp.size)
    buf = io.BytesIO()
    c = _canvas(buf, look, (w * mm, h * mm))
    draw_side(c, look, comp, side, 0, 0, w * mm, h * mm, label, bleed=0)
    c.showPage()
    c.save()
    return buf.getvalue()
