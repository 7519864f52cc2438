"""The printable documents of one game on one paper: cards double-sided and gutterfold, tokens and
tiles double-sided, boards split across sheets, dice as folding nets; and the duplex calibration
sheet. Each returns PDF bytes."""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import groupby

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from generators.content.model import Component, LoadedGame, Side, size_mm
from generators.pdf import seams
from generators.pdf.faces import (
    BLEED,
    STRIP,
    Look,
    Region,
    bleed_regions,
    bleeds,
    draw_side,
    draw_strips,
    has_strips,
    legend_side,
    mirror_bleed,
    picture_only,
    shared_label,
)
from generators.pdf.imposition import (
    BAND_TOP,
    EDGE,
    FOOT,
    PAPERS,
    SHEET,
    Block,
    Tiling,
    pack,
    separators,
    tiling,
)
from generators.pdf.options import CARD_KINDS, TOKEN_KINDS, Options
from generators.pdf.sheets import (
    CUT,
    CUT_WIDTH,
    GUIDE,
    MARK_R,
    alignment_mark,
    cut_marks,
    define_forms,
    edge_line,
    fold_line,
    furniture,
    glue_strip,
    separator,
)

FLIP = "print double-sided, flip on the long edge"


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


LEGEND = Component(id="legend", name="Legend", kind="cards", count=1, size="poker")


def with_legend(game: LoadedGame, look: Look, kinds: Sequence[str], paper: str = "a4") -> list[Piece]:
    """The pieces of `kinds`, plus the game's legend card in one document everyone prints (one legend
    per game): the tokens and tiles when it fits on their last sheet (it costs no paper there), else
    the cards (both card documents: a player prints one of them), else the tokens."""
    items = pieces(game, kinds)
    legend = Piece(LEGEND, legend_side(look), None, "")
    if items and legend_home(game, paper) == set(kinds):
        items.append(legend)
    return items


def legend_home(game: LoadedGame, paper: str) -> set[str]:
    """The kinds of the document that carries the game's legend card on `paper`."""
    tokens, cards = pieces(game, TOKEN_KINDS), pieces(game, CARD_KINDS)
    if tokens:
        page = PAPERS[paper]
        spare = Piece(LEGEND, Side(title="Legend", provenance="house"), None, "")
        if not cards or len(_sheets([*tokens, spare], page)) == len(_sheets(tokens, page)):
            return set(TOKEN_KINDS)
    return set(CARD_KINDS) if cards else set()


def reads_beyond(game: LoadedGame, layout: str, kinds: Sequence[str], paper: str) -> object:
    """What the document of `kinds` drawn by `layout` takes from the game besides those kinds'
    components (and the name, theme and icons every document's key holds): whether it carries the legend
    card (decided by the cards and the tokens together), and for dice the directions the space maps
    pair. Part of the document's key: kept beside the code that reads them, so the two agree."""
    if layout in ("duplex", "gutterfold"):
        return bool(pieces(game, kinds)) and legend_home(game, paper) == set(kinds)
    if layout == "dice":
        return sorted(map_opposites(game).items())
    return None


def _canvas(buf: io.BytesIO, font: str, pagesize: tuple[float, float]) -> Canvas:
    """A deterministic canvas whose initial font is ours, so no unembedded Helvetica is referenced."""
    return Canvas(buf, pagesize=pagesize, invariant=1, pageCompression=1, initialFontName=font)


def _new_canvas(buf: io.BytesIO, look: Look, game: LoadedGame, title: str, paper: str) -> Canvas:
    c = _canvas(buf, look.fonts.regular, PAPERS[paper])
    define_forms(c, look.fonts.regular)
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


@dataclass(frozen=True)
class Placed:
    """A side on a sheet: its footprint's bottom-left (x, y), its trim size (w, h), and how far it
    is turned (0, or 90 / -90 degrees anticlockwise for pieces laid sideways)."""

    comp: Component
    side: Side
    x: float
    y: float
    w: float
    h: float
    label: str = ""
    turn: int = 0
    back: bool = False  # on the other side of the paper (or folded behind): no frame on its trim line


FaceKey = tuple[int, int, float, float, str | bool | None]


def _face_key(p: Placed) -> FaceKey:
    """What a side's shared content depends on besides the look (ids: the document's pieces outlive it)."""
    return id(p.comp), id(p.side), p.w, p.h, shared_label(p.comp, p.side, p.label)


class FaceForms:
    """The contents of a document's sides that recur (a deck's shared back, a card printed three times),
    each drawn once as a form XObject and placed at every copy: laid out and written once. A content that
    appears once is drawn in place: as a form it would cost an object and compress worse on its own."""

    def __init__(self, placed: Iterable[Placed]) -> None:
        self._recurring = {k for k, n in Counter(_face_key(p) for p in placed).items() if n > 1}
        self._names: dict[FaceKey, str] = {}
        self._pictures: dict[FaceKey, str] = {}

    def draw(self, c: Canvas, look: Look, p: Placed) -> None:
        """`p`'s content at the origin of the current coordinates, its copy number apart when shared."""
        key = _face_key(p)
        if key not in self._recurring:
            draw_side(c, look, p.comp, p.side, 0, 0, p.w, p.h, p.label, layer="content")
            return
        name = self._names.get(key)
        if name is None:
            name = self._names[key] = f"roadkit-face-{len(self._names)}"
            # A bounding box well clear of anything a side draws: the form must clip nothing.
            c.beginForm(name, -p.w, -p.h, 2 * p.w, 2 * p.h)
            draw_side(c, look, p.comp, p.side, 0, 0, p.w, p.h, p.label, layer="shared")
            c.endForm()
        c.doForm(name)
        draw_side(c, look, p.comp, p.side, 0, 0, p.w, p.h, p.label, layer="label")

    def picture(self, c: Canvas, look: Look, p: Placed) -> None:
        """`p`'s content without its text, at the origin: a form drawn once per face, placed in each
        region of the bleed its art runs into."""
        key = _face_key(p)
        name = self._pictures.get(key)
        if name is None:
            name = self._pictures[key] = f"roadkit-picture-{len(self._pictures)}"
            c.beginForm(name, -p.w, -p.h, 2 * p.w, 2 * p.h)
            draw_side(picture_only(c), look, p.comp, p.side, 0, 0, p.w, p.h, p.label, layer="content")
            c.endForm()
        c.doForm(name)


def footprint(p: Placed) -> tuple[float, float, float, float]:
    """The page rectangle (left, bottom, right, top) of a placed side's trim box."""
    w, h = (p.h, p.w) if p.turn else (p.w, p.h)
    return p.x, p.y, p.x + w, p.y + h


def _to_page(p: Placed, lx: float, ly: float) -> tuple[float, float]:
    """A point of `p`'s own coordinates (trim box from the origin, upright) on the page, as `place` turns it."""
    if p.turn == 90:
        return p.x + p.h - ly, p.y + lx
    if p.turn == -90:
        return p.x + ly, p.y + p.w - lx
    return p.x + lx, p.y + ly


def free_regions(p: Placed, items: Sequence[Placed], bleed: float) -> list[Region]:
    """The bleed regions of `p` that no other piece's trim box covers: where pieces abut, the cut is
    shared and the neighbour's face is there, so the art runs on into the bleed only on a block's outside."""
    out = []
    for region in bleed_regions(p.w, p.h, bleed):
        x, y, rw, rh = region[1]
        (ax, ay), (bx, by) = _to_page(p, x, y), _to_page(p, x + rw, y + rh)
        left, right, bottom, top = min(ax, bx), max(ax, bx), min(ay, by), max(ay, by)
        if not any(q is not p and _overlap((left, bottom, right, top), footprint(q)) for q in items):
            out.append(region)
    return out


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    eps = 0.01
    return min(a[2], b[2]) - max(a[0], b[0]) > eps and min(a[3], b[3]) - max(a[1], b[1]) > eps


def place(c: Canvas, look: Look, items: list[Placed], bleed: float = BLEED, forms: FaceForms | None = None) -> None:
    """All backgrounds first, then all contents: a piece's bleed runs under its neighbours'
    edges but never over their text or pictures. With `forms`, a recurring content is drawn once."""
    for layer in ("background", "content"):
        for p in items:
            c.saveState()
            if p.turn == 90:
                c.translate(p.x + p.h, p.y)
                c.rotate(90)
            elif p.turn == -90:
                c.translate(p.x, p.y + p.w)
                c.rotate(-90)
            else:
                c.translate(p.x, p.y)
            if layer == "content" and forms is not None:
                forms.draw(c, look, p)
            else:
                draw_side(c, look, p.comp, p.side, 0, 0, p.w, p.h, p.label, bleed=bleed, layer=layer,
                          trim_frame=not p.back)
            if layer == "content" and bleed and bleeds(p.comp, p.side):
                regions = free_regions(p, items, bleed)
                if regions:
                    mirror_bleed(c, partial((forms or FaceForms(())).picture, c, look, p), regions)
            c.restoreState()


Sheet = list[tuple[Block, list[Piece]]]


def _sheets(items: list[Piece], page: tuple[float, float], area: tuple[float, float] | None = None,
            flush_right: bool = False) -> list[Sheet]:
    """Pages of blocks, each block with its pieces; sizes in order, smaller groups sharing sheets."""
    groups = list(_groups(items))
    ordered = [p for g in groups for p in g]
    sizes = [(g[0].size, len(g)) for g in groups]
    return [[(b, ordered[b.first:b.first + b.count]) for b in blocks]
            for blocks in pack(sizes, page, area, flush_right)]


def _fronts(sheet: Sheet, dx: float = 0.0, dy: float = 0.0) -> list[Placed]:
    out = []
    for block, chunk in sheet:
        for i, p in enumerate(chunk):
            x, y = block.grid.slot(i)
            out.append(Placed(p.comp, p.front, x + dx, y + dy, *p.size, p.label, 90 if block.grid.rotated else 0))
    return out


def _backs(sheet: Sheet, page_w: float, dx: float = 0.0, dy: float = 0.0) -> list[Placed]:
    """Each back behind its front once the sheet is turned over on its vertical edge: at the mirrored
    place, and turned the other way when the front lies sideways (so the back is upright when the
    card itself is turned over left to right)."""
    out = []
    for block, chunk in sheet:
        for i, p in enumerate(chunk):
            if p.back is None:
                continue
            x, y = block.grid.mirrored_slot(i, page_w)
            out.append(Placed(p.comp, p.back, x + dx, y + dy, *p.size, "", -90 if block.grid.rotated else 0, True))
    return out


def _used_columns(block: Block) -> list[float]:
    return block.grid.xs()[: block.cols_used + 1]


def _used_rows(block: Block) -> list[float]:
    return [block.grid.top - k * block.grid.h for k in range(block.rows_used + 1)]


def _marks(c: Canvas, page: tuple[float, float], blocks: list[Block], mirror: bool = False) -> None:
    """Cut marks of every block, up to the page edge, the separators or the furniture band; with
    `mirror`, each block's mirror image (the backs of a gutterfold sheet) is cut with it."""
    pw, ph = page
    seps = separators(blocks)
    for k, block in enumerate(blocks):
        above = ph if k == 0 else seps[k - 1]
        below = BAND_TOP if k == len(blocks) - 1 else seps[k]
        columns = [_used_columns(block)]
        if mirror:
            columns.append(sorted(pw - x for x in columns[0]))
        cut_marks(c, columns, _used_rows(block), above, below, 0.0, pw)
    for y in seps:
        separator(c, y, 0.0, pw)


def duplex(game: LoadedGame, look: Look, opts: Options, kinds: Iterable[str], title: str) -> bytes:
    """Each front page followed by its backs page, mirrored for long-edge flipping; a sheet with no
    backs still gets its (blank) back page, so fronts and backs stay paired through the document."""
    buf = io.BytesIO()
    c = _new_canvas(buf, look, game, title, opts.paper)
    page = PAPERS[opts.paper]
    font = look.fonts.regular
    sheets = _sheets(with_legend(game, look, tuple(kinds), opts.paper), page)
    dx, dy = opts.back_offset[0] * mm, opts.back_offset[1] * mm
    pages = [(_fronts(sheet), _backs(sheet, page[0], dx, dy)) for sheet in sheets]
    forms = FaceForms(p for fronts, backs in pages for p in fronts + backs)
    for n, (sheet, (fronts, backs)) in enumerate(zip(sheets, pages, strict=True), 1):
        name = f"{game.name} · {title} · sheet {n} of {len(sheets)}"
        place(c, look, fronts, forms=forms)
        _marks(c, page, [b for b, _ in sheet])
        furniture(c, page, font, f"{name}: fronts. Print double-sided, flip on the long edge.")
        c.showPage()
        place(c, look, backs, forms=forms)
        if backs:
            what = f"{name}: backs. The other side of the sheet before (flip on the long edge)."
        else:
            what = f"{name}: backs. Nothing to print here: it keeps fronts and backs paired."
        furniture(c, page, font, what)
        c.showPage()
    return _finish(c, buf, len(sheets))


def gutterfold(game: LoadedGame, look: Look, opts: Options, kinds: Iterable[str], title: str,
               gutter: float = 2 * BLEED) -> bytes:
    """Front and back side by side on a landscape sheet: cut the pair out, fold on the centre line,
    glue, then trim the folded edge on its marks.

    The gutter is just the two bleeds meeting at the fold, so two poker cards fit each half of a
    Letter sheet as well as an A4 one."""
    buf = io.BytesIO()
    pw, ph = PAPERS[opts.paper]
    page = (ph, pw)
    c = _new_canvas(buf, look, game, title, opts.paper)
    c.setPageSize(page)
    font = look.fonts.regular
    fold = page[0] / 2
    sheets = _sheets(with_legend(game, look, tuple(kinds), opts.paper), page, area=(EDGE, fold - gutter / 2),
                     flush_right=True)
    pages = [_fronts(sheet) + _backs(sheet, page[0]) for sheet in sheets]
    forms = FaceForms(p for placed in pages for p in placed)
    for n, (sheet, placed) in enumerate(zip(sheets, pages, strict=True), 1):
        place(c, look, placed, forms=forms)
        _marks(c, page, [b for b, _ in sheet], mirror=True)
        fold_line(c, fold, BAND_TOP, page[1])
        furniture(c, page, font, f"{game.name} · {title} · sheet {n} of {len(sheets)}: single-sided. Cut each "
                  "pair out, fold on the dashed line, glue, trim the fold.", centre=(fold, "fold"))
        c.showPage()
    return _finish(c, buf, len(sheets))


# ---------------------------------------------------------------------------------------------
# Boards


def _board_page(bw: float, bh: float, paper: str) -> tuple[float, float]:
    """The page orientation that needs fewer sheets for a board (landscape for a wide board on a tie)."""
    pw, ph = PAPERS[paper]
    options = []
    for page in ((ph, pw), (pw, ph)):
        options.append((page, tiling(bw, bh, *_room(page))))
    landscape, portrait = options
    if portrait[1].sheets < landscape[1].sheets or (portrait[1].sheets == landscape[1].sheets and bh > bw):
        return portrait[0]
    return landscape[0]


def _room(page: tuple[float, float]) -> tuple[float, float]:
    return page[0] - SHEET.left - SHEET.right, page[1] - SHEET.top - SHEET.bottom


def boards(game: LoadedGame, look: Look, opts: Options, title: str = "boards") -> bytes:
    """Each board side on as few sheets as it takes. Split boards overlap by exactly the stated
    amount; every join has a glue strip on one sheet, a trimmed edge on the other, and crosshairs
    at the same board points on both, labelled per board (A1, A2 on the first, B1 … on the next)."""
    buf = io.BytesIO()
    c = _new_canvas(buf, look, game, title, opts.paper)
    font = look.fonts.regular
    n_pages = 0
    letter = 0
    for n, piece in enumerate(pieces(game, ("board",))):
        for side, which in ((piece.front, "front"), (piece.back, "back")):
            if side is None:
                continue
            bw, bh = piece.size
            page = _board_page(bw, bh, opts.paper)
            t = tiling(bw, bh, *_room(page))
            lay = None
            if t.sheets > 1:
                lay = seams.layout(look, piece.comp, side, bw, bh, piece.label)
                t = seams.chosen_tiling(lay, bw, bh, *_room(page))
            form = f"roadkit-board-{n}-{which}"
            c.setPageSize(page)
            # A split board's side strips are drawn on each sheet, whole, rather than cut with the board.
            _board_form(c, look, piece, side, form, strips=lay is None)
            tag = chr(65 + letter) if t.sheets > 1 else ""
            letter += t.sheets > 1
            joins = _joins(t, tag, lay)
            for ty in range(len(t.ys)):
                for tx in range(len(t.xs)):
                    n_pages += 1
                    c.setPageSize(page)
                    _board_sheet(c, page, t, tx, ty, form, joins, font,
                                 _board_name(game.name, piece, which))
                    if lay is not None and has_strips(piece.comp, side):
                        _sheet_strips(c, look, piece, side, page, t, tx, ty)
                    c.showPage()
    return _finish(c, buf, n_pages)


def _board_name(game: str, piece: Piece, which: str) -> str:
    """What a board sheet is: the game, the component and its face (once when they share a name)."""
    names = [piece.comp.name] if piece.front.title == piece.comp.name else [piece.comp.name, piece.front.title]
    return " · ".join([game, *names]) + f" ({which})"


def _board_form(c: Canvas, look: Look, piece: Piece, side: Side, form: str, strips: bool = True) -> None:
    """The whole board side once, as a form every sheet of it shows a window of."""
    bw, bh = piece.size
    if not bleeds(piece.comp, side):
        c.beginForm(form, -BLEED, -BLEED, bw + BLEED, bh + BLEED)
        draw_side(c, look, piece.comp, side, 0, 0, bw, bh, piece.label, strips=strips)
        c.endForm()
        return
    # Art to the trim: its picture (no text) once as a form, shown again mirrored in the bleed all round.
    c.beginForm(f"{form}-picture", -bw, -bh, 2 * bw, 2 * bh)
    draw_side(picture_only(c), look, piece.comp, side, 0, 0, bw, bh, piece.label, layer="content", strips=strips)
    c.endForm()
    c.beginForm(form, -BLEED, -BLEED, bw + BLEED, bh + BLEED)
    draw_side(c, look, piece.comp, side, 0, 0, bw, bh, piece.label, strips=strips)
    mirror_bleed(c, lambda: c.doForm(f"{form}-picture"), bleed_regions(bw, bh, BLEED))
    c.endForm()


def visible(t: Tiling, tx: int, ty: int) -> tuple[float, float, float, float]:
    """The part (left, bottom, right, top, board points) of sheet (tx, ty)'s window that shows once the
    board is assembled: less the glue strips the sheets to its right and below are laid on."""
    (x0, x1), (y0, y1) = t.xs[tx], t.ys[ty]
    if tx + 1 < len(t.xs):
        x1 -= t.overlap
    if ty + 1 < len(t.ys):
        y0 += t.overlap
    return x0, y0, x1, y1


def _sheet_strips(c: Canvas, look: Look, piece: Piece, side: Side, page: tuple[float, float], t: Tiling,
                  tx: int, ty: int) -> None:
    """The title and provenance strips of a split board, on this sheet, whole, centred on the part of
    the margins this sheet shows (only the margins its window holds)."""
    bw, _ = piece.size
    x0, y0, x1, y1 = visible(t, tx, ty)
    left, bottom = window_on_page(page, t, tx, ty)
    c.saveState()
    c.translate(left - t.xs[tx][0], bottom - t.ys[ty][0])
    p = c.beginPath()
    p.rect(x0, y0, x1 - x0, y1 - y0)
    c.clipPath(p, stroke=0, fill=0)
    which = (x0 <= STRIP and x1 >= STRIP, x0 <= bw - STRIP and x1 >= bw - STRIP)
    draw_strips(c, look, side, look.color(side.color), 0, bw, (y0, y1), piece.label, which)
    c.restoreState()


def window_on_page(page: tuple[float, float], t: Tiling, tx: int, ty: int) -> tuple[float, float]:
    """Page position of the bottom-left corner of sheet (tx, ty)'s window, centred in the room."""
    pw, ph = page
    (x0, x1), (y0, y1) = t.xs[tx], t.ys[ty]
    room_w = pw - SHEET.left - SHEET.right
    room_h = ph - SHEET.top - SHEET.bottom
    return SHEET.left + (room_w - (x1 - x0)) / 2, SHEET.bottom + (room_h - (y1 - y0)) / 2


def _position(t: Tiling, tx: int, ty: int) -> str:
    across, down = len(t.xs), len(t.ys)
    if across * down == 1:
        return "one sheet"
    n = ty * across + tx + 1
    if down == 1:
        where = ("left", "right")[tx] if across == 2 else f"column {tx + 1}"
    elif across == 1:
        where = ("top", "bottom")[ty] if down == 2 else f"row {ty + 1}"
    else:
        where = f"row {ty + 1}, column {tx + 1}"
    return f"sheet {n} of {across * down} ({where})"


def _board_sheet(c: Canvas, page: tuple[float, float], t: Tiling, tx: int, ty: int, form: str, joins: list[Join],
                 font: str, name: str) -> None:
    """One sheet of a (possibly split) board: its window of the board (bleed all round), cut marks at
    the window's edges, and for each join with a neighbour either the glue strip (the neighbour is
    laid on this sheet) or the edge to trim (this sheet is laid on the neighbour)."""
    pw, ph = page
    (x0, x1), (y0, y1) = t.xs[tx], t.ys[ty]
    left, bottom = window_on_page(page, t, tx, ty)
    ox, oy = left - x0, bottom - y0  # page position of the board's origin
    right, top = left + (x1 - x0), bottom + (y1 - y0)
    c.saveState()
    p = c.beginPath()
    p.rect(left - BLEED, bottom - BLEED, right - left + 2 * BLEED, top - bottom + 2 * BLEED)
    c.clipPath(p, stroke=0, fill=0)
    c.translate(ox, oy)
    c.doForm(form)
    c.restoreState()
    cut_marks(c, [[left, right]], [top, bottom], ph, BAND_TOP, 0.0, pw)
    steps = []
    for join in joins:
        if (tx, ty) in (join.first, join.second):
            steps.append(_draw_join(c, join, (tx, ty) == join.first, ox, oy, font))
    what = f"{name} · {_position(t, tx, ty)}"
    note = " ".join(steps) if steps else "Cut on the marks."
    furniture(c, page, font, what, note=f"{note} Print at 100 %: the ruler must measure 50 mm.")


@dataclass(frozen=True)
class Join:
    """Two neighbouring sheets of a board: `second` is laid over `first`'s glue strip, its edge on
    the strip's inner border. Coordinates are board points."""

    first: tuple[int, int]
    second: tuple[int, int]
    vertical: bool  # the join runs up and down (sheets side by side)
    strip: tuple[float, float, float, float]  # x, y, w, h of the overlap
    marks: tuple[tuple[float, float, str], ...]  # board points and their labels


def _joins(t: Tiling, tag: str, lay: seams.Layout | None = None) -> list[Join]:
    """The joins of a split board; with the board's layout, each join's two marks go where they cover
    nothing (else at the thirds of the seam), clear of the glue strip's word."""
    out: list[Join] = []
    k = 0

    def spots(seam: float, vertical: bool, lo: float, hi: float, strip: tuple[float, float, float, float]
              ) -> tuple[float, float]:
        if lay is None:
            return lo + (hi - lo) / 3, lo + (hi - lo) * 2 / 3
        sx, sy, sw, sh = strip
        cx, cy = sx + sw / 2, sy + sh / 2
        word = seams.Keep(cx - 8 * mm, cy - 8 * mm, cx + 8 * mm, cy + 8 * mm, seams.TEXT)
        return seams.mark_points(lay, seam, vertical, (lo, hi), (word,))

    for ty, (y0, y1) in enumerate(t.ys):
        for tx, (x0, x1) in enumerate(t.xs):
            if tx + 1 < len(t.xs):
                s, e = t.xs[tx + 1][0], x1
                strip = (s, y0, e - s, y1 - y0)
                ys = spots(s, True, y0, y1, strip)
                marks = tuple((s, y, f"{tag}{k + i + 1}") for i, y in enumerate(ys))
                k += len(marks)
                out.append(Join((tx, ty), (tx + 1, ty), True, strip, marks))
            if ty + 1 < len(t.ys):
                lo, hi = y0, t.ys[ty + 1][1]  # the sheet below overlaps this one's bottom edge
                xs = spots(hi, False, x0, x1, (x0, lo, x1 - x0, hi - lo))
                marks = tuple((x, hi, f"{tag}{k + i + 1}") for i, x in enumerate(xs))
                k += len(marks)
                out.append(Join((tx, ty), (tx, ty + 1), False, (x0, lo, x1 - x0, hi - lo), marks))
    return out


def _draw_join(c: Canvas, join: Join, mine: bool, ox: float, oy: float, font: str) -> str:
    """Draw this sheet's half of a join; returns the instruction for the furniture note."""
    x, y, w, h = join.strip
    labels = ", ".join(label for _, _, label in join.marks)
    if mine:  # the glue strip: the other sheet is laid on it
        glue_strip(c, ox + x, oy + y, w, h, "glue", font)
        for bx, by, label in join.marks:
            at = (w / 2, MARK_R + 1 * mm) if join.vertical else (0.0, -h / 2 - 1 * mm)
            alignment_mark(c, ox + bx, oy + by, label, font, at)
        if join.vertical:
            edge_line(c, ox + x, oy + y, ox + x, oy + y + h)
            return f"Glue the next sheet's left edge on the dashed line, marks {labels} on these."
        edge_line(c, ox + x, oy + y + h, ox + x + w, oy + y + h)
        return f"Glue the next sheet's top edge on the dashed line, marks {labels} on these."
    for bx, by, label in join.marks:
        at = (-1.8 * mm, MARK_R + 0.8 * mm) if join.vertical else (MARK_R + 3 * mm, 0.9 * mm)
        alignment_mark(c, ox + bx, oy + by, label, font, at)
    edge = "left" if join.vertical else "top"
    return f"Cut the {edge} edge; lay it on the previous sheet's dashed line, {labels} on {labels}."


# ---------------------------------------------------------------------------------------------
# Dice


# A cube's cross-shaped net in face units, (column, row) with row 0 at the top. Opposite on the
# folded cube: slots 0 and 4, 1 and 3, 2 and 5. Glue tabs: (slot, edge), one on each of the seven
# pairs of edges that meet on folding.
CROSS = ((1, 0), (0, 1), (1, 1), (2, 1), (1, 2), (1, 3))
OPPOSITE_SLOTS = ((2, 5), (1, 3), (0, 4))
TABS = ((0, "left"), (0, "right"), (4, "left"), (4, "right"), (5, "left"), (5, "right"), (5, "bottom"))


def die_value(side: Side) -> int | None:
    art = side.art
    if art is None:
        return None
    if art.pips is not None:
        return art.pips
    digits = (art.number or "").strip()
    if digits.isascii() and digits.isdigit() and len(digits) <= 6:  # not '²' (int() refuses it) nor 5,000 digits
        return int(digits)
    return None


def map_opposites(game: LoadedGame) -> dict[str, str]:
    """Each direction the game's space maps (its road tiles) name, with the direction opposite it."""
    out: dict[str, str] = {}
    for comp in game.components:
        for face in comp.faces:
            for side in (face.front, face.back):
                if side is not None and side.art is not None and side.art.spaces is not None:
                    out.update({d.id: d.opposite for d in side.art.spaces.directions})
    return out


def _paired(comp: Component, opposites: dict[str, str]) -> list[int] | None:
    """Face indices in opposite pairs when every face is a direction (`facts.direction`) the maps pair."""
    found = [(f.facts or {}).get("direction") for f in comp.faces]
    names = [n for n in found if isinstance(n, str) and n in opposites]
    if len(names) != len(found):
        return None
    order: list[int] = []
    for i, name in enumerate(names):
        if i in order:
            continue
        other = names.index(opposites[name]) if opposites[name] in names else -1
        if other < 0 or other in order:
            return None
        order += [i, other]
    return order


def opposite_pairs(comp: Component, opposites: dict[str, str] | None = None) -> list[int]:
    """A die's face indices, each pair of opposite faces together (1st with 2nd, 3rd with 4th, 5th
    with 6th). Faces numbered 1 to 6 go opposite as on a standard die (1-6, 2-5, 3-4); faces that are
    directions go opposite as the road tiles pair them (`opposites`: front-left across from
    back-right); other faces go opposite in the pairs they are listed in. The printed net and the
    Tabletop Simulator die both follow it, so the two dice are the same."""
    values = [die_value(f.front) for f in comp.faces]
    if sorted(v for v in values if v is not None) == [1, 2, 3, 4, 5, 6]:
        return [values.index(v) for v in (1, 6, 2, 5, 3, 4)]
    if opposites and (paired := _paired(comp, opposites)) is not None:
        return paired
    return list(range(6))


def net_order(comp: Component, opposites: dict[str, str] | None = None) -> list[int]:
    """Which face goes in each slot of the net (opposite faces as `opposite_pairs` pairs them)."""
    order = opposite_pairs(comp, opposites)
    slots = [0] * 6
    for (a, b), (sa, sb) in zip(zip(order[::2], order[1::2], strict=True), OPPOSITE_SLOTS, strict=True):
        slots[sa], slots[sb] = a, b
    return slots


def dice(game: LoadedGame, look: Look, opts: Options, title: str = "dice") -> bytes:
    """Each die as a cube net: a cross of its six faces with glue tabs; as many nets as the
    component has dice, several to a sheet. Cut on the solid lines, fold on the dashed ones."""
    buf = io.BytesIO()
    c = _new_canvas(buf, look, game, title, opts.paper)
    page = PAPERS[opts.paper]
    font = look.fonts.regular
    nets = [comp for comp in game.components if comp.kind == "dice" for _ in range(comp.count)]
    opposites = map_opposites(game)
    n_pages = 0
    i = 0
    while i < len(nets):
        s = size_mm(nets[i].size)[0] * mm
        tab = 0.3 * s
        net_w, net_h = 3 * s + 2 * tab, 4 * s + 2 * tab  # an upright cross with its tabs
        room_w, room_h = page[0] - SHEET.left - SHEET.right, page[1] - SHEET.top - FOOT
        # Nets upright, or lying on their side when that fits more of them to the sheet.
        grids = [(max(1, int(room_w // (w + 4 * mm))), max(1, int(room_h // (h + 4 * mm))), w + 4 * mm, h + 4 * mm,
                  turned) for w, h, turned in ((net_w, net_h, False), (net_h, net_w, True))]
        cols, rows, cell_w, cell_h, turned = max(grids, key=lambda g: (g[0] * g[1], not g[4]))
        x0 = SHEET.left + (room_w - cols * cell_w) / 2
        top = page[1] - SHEET.top - (room_h - rows * cell_h) / 2
        # A sheet holds nets of one size (the run of them from here), so the grid above fits all of them.
        on_page: list[Component] = []
        for net in nets[i:i + cols * rows]:
            if net.size != nets[i].size:
                break
            on_page.append(net)
        for k, comp in enumerate(on_page):
            col, row = k % cols, k // cols
            cx, cy = x0 + (col + 0.5) * cell_w, top - (row + 0.5) * cell_h
            c.saveState()
            c.translate(cx, cy)
            if turned:
                c.rotate(90)
            _die_net(c, look, comp, -net_w / 2 + tab, net_h / 2 - tab, s, tab, opposites)
            c.restoreState()
        n_pages += 1
        furniture(c, page, font, f"{game.name} · {title} · sheet {n_pages}: single-sided. Cut on the solid "
                  "lines, fold on the dashed ones, glue the tabs inside.")
        c.showPage()
        i += len(on_page)
    return _finish(c, buf, n_pages)


def _die_net(c: Canvas, look: Look, comp: Component, x0: float, top: float, s: float, tab: float,
             opposites: dict[str, str] | None = None) -> None:
    """One net with its top-left face corner at (x0, top): faces, then fold lines (dashed: every edge
    two faces or a face and a tab share) and cut lines (solid: the outline)."""
    boxes = [(x0 + col * s, top - (row + 1) * s) for col, row in CROSS]
    order = net_order(comp, opposites)
    # No bleed: it would show on the glue tabs; a die is cut on its outline.
    place(c, look, [Placed(comp, comp.faces[order[slot]].front, x, y, s, s) for slot, (x, y) in enumerate(boxes)],
          bleed=0)
    folds, cuts = [], []
    for slot, (x, y) in enumerate(boxes):
        for edge, (a, b) in _edges(x, y, s).items():
            neighbours = [o for o in range(6) if o != slot and _has_edge(boxes[o], s, a, b)]
            if neighbours:
                if slot < neighbours[0]:  # each shared edge once
                    folds.append((a, b))
            elif (slot, edge) in TABS:
                folds.append((a, b))
            else:
                cuts.append((a, b))
    for slot, edge in TABS:
        cuts.extend(_tab_outline(boxes[slot], s, tab, edge))
    c.saveState()
    c.setLineWidth(CUT_WIDTH)
    c.setStrokeColor(GUIDE)
    c.setDash(2, 1.5)
    for (ax, ay), (bx, by) in folds:
        c.line(ax, ay, bx, by)
    c.setDash()
    c.setStrokeColor(CUT)
    for (ax, ay), (bx, by) in cuts:
        c.line(ax, ay, bx, by)
    c.restoreState()


Point = tuple[float, float]


def _edges(x: float, y: float, s: float) -> dict[str, tuple[Point, Point]]:
    return {"left": ((x, y), (x, y + s)), "right": ((x + s, y), (x + s, y + s)),
            "bottom": ((x, y), (x + s, y)), "top": ((x, y + s), (x + s, y + s))}


def _has_edge(box: Point, s: float, a: Point, b: Point) -> bool:
    def same(p: Point, q: Point) -> bool:
        return abs(p[0] - q[0]) < 0.01 and abs(p[1] - q[1]) < 0.01

    return any((same(a, p) and same(b, q)) or (same(a, q) and same(b, p)) for p, q in _edges(*box, s).values())


def _tab_outline(box: Point, s: float, tab: float, edge: str) -> list[tuple[Point, Point]]:
    """The three outer sides of a trapezoid tab on `edge` of the face at `box`."""
    (ax, ay), (bx, by) = _edges(*box, s)[edge]
    nx, ny = {"left": (-1, 0), "right": (1, 0), "bottom": (0, -1), "top": (0, 1)}[edge]
    ux, uy = (bx - ax) / s, (by - ay) / s
    p1 = (ax + nx * tab + ux * tab, ay + ny * tab + uy * tab)
    p2 = (bx + nx * tab - ux * tab, by + ny * tab - uy * tab)
    return [((ax, ay), p1), (p1, p2), (p2, (bx, by))]


def single_side(look: Look, comp: Component, side: Side, label: str) -> bytes:
    """One side alone on a page of its trim size (no bleed)."""
    return single_sides(look, comp, [side], label)


def single_sides(look: Look, comp: Component, sides: Sequence[Side], label: str) -> bytes:
    """Sides of one component, each alone on a page of its trim size (no bleed), in order: the source of
    the PNG exports, many faces per document (each page as `single_side` would draw it)."""
    w, h = size_mm(comp.size)
    buf = io.BytesIO()
    c = _canvas(buf, look.fonts.regular, (w * mm, h * mm))
    for side in sides:
        draw_side(c, look, comp, side, 0, 0, w * mm, h * mm, label, bleed=0)
        c.showPage()
    c.save()
    return buf.getvalue()
