"""Drawing one side of a component (card, token, tile, board) into its trim box.

Layout follows the print conventions: background to the bleed edge, all text inside the 3 mm
safe zone, every text box with its minimum size (see text.py), text colours that read on what is
behind them (see colour.py), and a small, quiet provenance tag on every side so that nothing we
designed passes for the publisher's (the legend card of each game explains the tags)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache, partial
from pathlib import Path
from typing import Literal

from reportlab.lib.colors import Color, HexColor
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from generators.content.geometry import Box
from generators.content.model import Component, Element, Icons, LoadedGame, Side, size_mm
from generators.pdf.art import arrow_extent, draw_art, pip_diameter
from generators.pdf.colour import mix, readable, text_on
from generators.pdf.fonts import register
from generators.pdf.pen import Pen
from generators.pdf.spacemap import draw_space_map
from generators.pdf.text import (
    GAMEPLAY,
    LEADING,
    TAG,
    Fonts,
    KeyPath,
    Run,
    draw_text,
    line_width,
    measure,
    note_box,
    note_text,
    tokenize,
)
from generators.pdf.text import forget_layouts as forget_text_layouts
from generators.pdf.writein import draw_write_in, write_in_height

BLEED = 3 * mm
SAFE = 3 * mm
DEFAULT_COLORS = {"primary": "#1f4e79", "accent": "#c0392b", "ink": "#1b1b1b", "paper": "#f6f1e7"}
PROVENANCE_LABEL = {
    "rulebook": "rulebook",
    "house": "house design · not the publisher's",
    "proxy": "proxy stand-in · not the publisher's",
}
# Every small piece carries one (rulebook included), so a piece without a badge cannot be read as anything.
BADGE_LETTER = {"rulebook": "R", "house": "H", "proxy": "P"}


@dataclass(frozen=True)
class Look:
    """Everything a face needs from its game: colours, fonts, icons, and the ink-saver switch."""

    game: LoadedGame
    icons: Icons
    ink_saver: bool = False

    @cached_property
    def fonts(self) -> Fonts:
        regular, bold = register(self.game.game.theme.font)
        return Fonts(regular, bold)

    @cached_property
    def _colors(self) -> dict[str, Color]:
        """Colours already resolved, by name or #hex: a face asks for the same few many times."""
        return {}

    def color(self, name: str | None, default: str = "primary") -> Color:
        value = name or default
        known = self._colors.get(value)
        if known is None:
            known = self._colors[value] = self._resolve(value)
        return known

    def _resolve(self, value: str) -> Color:
        if value.startswith("#"):
            return HexColor(value)
        colors = {**DEFAULT_COLORS, **self.game.game.theme.colors}
        return HexColor(colors.get(value, DEFAULT_COLORS.get(value, "#000000")))

    @property
    def paper(self) -> Color:
        return self.color("paper")

    @property
    def ink(self) -> Color:
        return self.color("ink")

    @cached_property
    def quiet(self) -> Color:
        """Tags and small print: ink faded towards the paper, still 4.5:1 on it."""
        return readable(mix(self.ink, self.paper, 0.45), self.paper)

    def pen(self, frame: Color, comp: Component | None = None) -> Pen:
        return Pen(ink=self.ink, accent=frame, paper=self.paper, fonts=self.fonts, icons=self.icons,
                   resolve=lambda n: self.color(n), ink_saver=self.ink_saver,
                   arrow_extent=deck_arrow_extent(comp) if comp is not None else None)


def deck_arrow_extent(comp: Component) -> tuple[int, int] | None:
    """The largest arrow path of a component, so every card of a deck draws its arrows at one scale."""
    extents = [arrow_extent(side.art.arrows) for side in _sides(comp) if side.art and side.art.arrows]
    if not extents:
        return None
    return max(e[0] for e in extents), max(e[1] for e in extents)


def _sides(comp: Component) -> list[Side]:
    out = [f.front for f in comp.faces] + [f.back for f in comp.faces if f.back]
    return out + ([comp.back] if comp.back else [])


def is_small(comp: Component) -> bool:
    return min(size_mm(comp.size)) < 40


def token_like(comp: Component, side: Side) -> bool:
    """Whether a side is drawn as a small piece (picture and name). A small side with fields to read
    or write (a boss tile's parts and targets, its proxy's ruled lines) takes the card layout
    instead, which prints them; a small piece's text stays off it (the site shows it)."""
    return is_small(comp) and not (side.fields or side.write_in)


Layer = Literal["all", "background", "content", "shared", "label"]


def draw_side(c: Canvas, look: Look, comp: Component, side: Side, x: float, y: float, w: float, h: float,
              set_label: str = "", bleed: float = BLEED, layer: Layer = "all", strips: bool = True,
              trim_frame: bool = True) -> None:
    """Draw `side` with its trim box at (x, y, w, h) in points; background runs `bleed` further;
    `strips` False leaves out a board's side strips (see `draw_strips`); `trim_frame` False draws no
    ink-saver frame on the trim line (a back's: any duplex misregistration would show it inside an edge).

    Sheets draw every background first and every content second (see documents.place), so one
    piece's bleed never paints over its neighbour's content. The content splits in two for sheets
    that draw each distinct content once (as a form) and place it at every copy: "shared", what
    every copy with a label like `set_label` shows (see `shared_label`), and "label", the copy
    number drawn on its own over it."""
    if layer == "label":
        if label_apart(comp, side) and set_label:
            _copy_label(c, look, x, y, w, set_label)
        return
    frame = look.color(side.color)
    c.saveState()
    if layer in ("all", "background"):
        _background(c, look, comp, frame, x, y, w, h, bleed, trim_frame)
    if layer != "background":
        if comp.shape == "round" and not look.ink_saver:
            # The cutting ring is content: a neighbour's bleed, drawn earlier, must not cover it.
            c.setStrokeColor(frame)
            c.setLineWidth(RING_WIDTH)
            c.circle(x + w / 2, y + h / 2, min(w, h) / 2 - RING_WIDTH, stroke=1, fill=0)
        _content(c, look, comp, side, frame, x, y, w, h, set_label, layer == "shared", strips)
    c.restoreState()


def bleeds(comp: Component, side: Side) -> bool:
    """Whether a side's art reaches its trim, so it must run on into the bleed: a full-layout face
    (its art covers the face: roads, rails, grids, fills) or a board element within the safe zone of
    an edge. A disc's art stays inside its cutting ring."""
    if comp.shape == "round":
        return False
    if side.layout == "full":
        return True
    w, h = size_mm(comp.size)
    safe = SAFE / mm
    return any(el.x < safe or el.y < safe or el.x + el.width > w - safe or el.y + el.height > h - safe
               for el in side.elements)


# The eight bleed regions of a trim box (w, h) with bleed b, in the box's own coordinates: the clip
# rectangle (x, y, width, height) in units of (w, h, b), and the reflection that maps the face onto it.
# Each edge's strip shows the face mirrored in that edge, each corner the face turned half round on it:
# the art just inside the trim runs on past it with its own shapes (a road's width, a rail, a grid
# line across the edge), and text, kept 3 mm inside the trim, lands beyond the bleed and is clipped.
Region = tuple[str, tuple[float, float, float, float], tuple[float, float, float, float, float, float]]


def bleed_regions(w: float, h: float, b: float) -> list[Region]:
    """The eight regions around a trim box (x, y, width, height) with the matrix that mirrors the face into each."""
    xs = {"left": (-b, -1.0, 0.0), "mid": (0.0, 1.0, 0.0), "right": (w, -1.0, 2 * w)}
    ys = {"bottom": (-b, -1.0, 0.0), "mid": (0.0, 1.0, 0.0), "top": (h, -1.0, 2 * h)}
    out: list[Region] = []
    for xn, (x0, sx, tx) in xs.items():
        for yn, (y0, sy, ty) in ys.items():
            if xn == yn == "mid":
                continue
            name = "-".join(n for n in (yn, xn) if n != "mid")
            out.append((name, (x0, y0, w if xn == "mid" else b, h if yn == "mid" else b), (sx, 0.0, 0.0, sy, tx, ty)))
    return out


class _PictureOnly:
    """A canvas that draws everything but text: the face's picture for its mirrored bleed (text kept
    3 mm inside the trim would land beyond the bleed anyway, and must not be read twice from the page)."""

    def __init__(self, c: Canvas) -> None:
        self._c = c

    def __getattr__(self, name: str) -> object:
        return getattr(self._c, name)

    def _none(self, *args: object, **kwargs: object) -> None:
        return None

    drawString = drawCentredString = drawRightString = drawText = _none


def picture_only(c: Canvas) -> Canvas:
    return _PictureOnly(c)


def mirror_bleed(c: Canvas, draw: Callable[[], None], regions: list[Region]) -> None:
    """Draw the face (`draw` paints its content at the origin) once more in each of `regions`, mirrored."""
    for _, (x, y, rw, rh), matrix in regions:
        c.saveState()
        p = c.beginPath()
        p.rect(x, y, rw, rh)
        c.clipPath(p, stroke=0, fill=0)
        c.transform(*matrix)
        draw()
        c.restoreState()


def label_apart(comp: Component, side: Side) -> bool:
    """Whether the copy number is drawn in a corner of its own (the card layout's footer), apart from
    the rest of the side; a full-layout piece prints it in its provenance text, a small piece not at all."""
    return side.layout != "full" and not token_like(comp, side)


def shared_label(comp: Component, side: Side, set_label: str) -> str | bool | None:
    """What the "shared" layer of a side depends on of its copy number: whether there is one (the
    footer leaves it room), the number itself (printed in the provenance text), or nothing."""
    if label_apart(comp, side):
        return bool(set_label)
    return set_label if side.layout == "full" else None


RING_WIDTH = 1.2  # points


def _content(c: Canvas, look: Look, comp: Component, side: Side, frame: Color, x: float, y: float, w: float,
             h: float, set_label: str, label_later: bool, strips: bool = True) -> None:
    if side.layout == "full":
        _full_layout(c, look, comp, side, frame, x, y, w, h, set_label, strips)
    elif token_like(comp, side):
        _token_layout(c, look, comp, side, frame, x, y, w, h)
    else:
        _card_layout(c, look, comp, side, frame, x, y, w, h, set_label, label_later)


def _background(c: Canvas, look: Look, comp: Component, frame: Color, x: float, y: float, w: float, h: float,
                bleed: float, trim_frame: bool = True) -> None:
    if look.ink_saver:
        if not trim_frame:
            return
        c.setStrokeColor(frame)
        c.setLineWidth(0.8)
        if comp.shape == "round":
            c.circle(x + w / 2, y + h / 2, min(w, h) / 2 - 0.4, stroke=1, fill=0)
        else:
            c.rect(x + 0.4, y + 0.4, w - 0.8, h - 0.8, stroke=1, fill=0)
        return
    c.setFillColor(look.paper)
    c.rect(x - bleed, y - bleed, w + 2 * bleed, h + 2 * bleed, stroke=0, fill=1)


FOOTER = 3.2 * mm  # the provenance tag and copy number along the bottom of a card (one line)
FOOTER_SIZE = 6.0


def _card_layout(c: Canvas, look: Look, comp: Component, side: Side, frame: Color, x: float, y: float, w: float,
                 h: float, set_label: str, label_later: bool = False) -> None:
    fonts, icons, ink, paper = look.fonts, look.icons, look.ink, look.paper
    left, right, top, bottom = x + SAFE, x + w - SAFE, y + h - SAFE, y + SAFE
    inner_w = right - left
    band_h = 9 * mm if h < 200 * mm else 14 * mm
    # Title band: a filled bar (ink-saver: an outline) inside the safe zone.
    if look.ink_saver:
        c.setStrokeColor(frame)
        c.setLineWidth(1)
        c.roundRect(left, top - band_h, inner_w, band_h, 2 * mm, stroke=1, fill=0)
        band, title_color = paper, frame
    else:
        c.setFillColor(frame)
        c.roundRect(left, top - band_h, inner_w, band_h, 2 * mm, stroke=0, fill=1)
        band, title_color = frame, text_on(frame, ink)
    corner_w = left_w = 0.0
    if side.corner:
        corner_w = _corner_width(look, side.corner, inner_w)
        draw_text(c, f"**{side.corner}**", icons, fonts, right - corner_w - 1.5 * mm, top - 1 * mm, corner_w,
                  band_h - 2 * mm, band_h * 0.55, align="center", color=title_color, on=band, valign="middle",
                  key=("corner",))
    if side.corner_left:
        left_w = _corner_left(c, look, side.corner_left, frame, left, top, band_h)
    draw_text(c, f"**{side.title}**", icons, fonts, left + 2 * mm + left_w, top - 1 * mm,
              inner_w - corner_w - left_w - 4 * mm, band_h - 2 * mm, band_h * 0.5, color=title_color, on=band,
              valign="middle", key=("title",))
    cursor = top - band_h - 1.5 * mm
    if side.subtitle:
        used = draw_text(c, side.subtitle, icons, fonts, left, cursor, inner_w, 6 * mm, 7.5, color=frame, on=paper,
                         align="center", key=("subtitle",))
        cursor -= used + 1 * mm
    body_bottom = bottom + _footer(c, look, side, left, bottom, inner_w, set_label) + 1 * mm
    if set_label and not label_later:
        _copy_label(c, look, x, y, w, set_label)
    body_h = cursor - body_bottom
    for i, element in enumerate(side.elements):
        _element(c, look, element, frame, x, y + h, ("elements", i))
    has_words = bool(side.text or side.fields or side.write_in)
    # Fields and body text are one block fitted at one size, so no line ends up smaller than another.
    lines = [f":{f.icon}: **{f.label}:** {f.text}" if f.icon else f"**{f.label}:** {f.text}" for f in side.fields]
    if side.text:
        lines.append(side.text)
    size = 8.5 if w < 100 * mm else 11
    if side.image:
        art_h = body_h * (0.5 if has_words else 1.0)
        c.drawImage(str(Path(look.game.dir) / side.image), left, cursor - art_h, inner_w, art_h,
                    preserveAspectRatio=True, anchor="c", mask="auto")
        cursor -= art_h + 1 * mm
    elif side.art is not None:
        art_h = body_h * (0.5 if has_words else 1.0)
        if side.write_in and not (side.text or side.fields):  # a write-in grid keeps what the ruled lines leave
            art_h = max(art_h, body_h - write_in_height(side.write_in) - 1 * mm)
        elif lines and not side.write_in:
            # The picture takes what the words leave at their full size (at least half the body): a short
            # text leaves no empty third under it.
            words = measure(tokenize("\n".join(lines), icons), fonts, inner_w, body_h / 2 - 1 * mm, size, size)
            if words.fits:
                art_h = max(art_h, body_h - words.height - 2.5 * mm)
        draw_art(c, side.art, Box(left, cursor - art_h, inner_w, art_h), look.pen(frame, comp), key=("art",))
        cursor -= art_h + 1 * mm
    if lines:
        key: KeyPath = ("text",) if not side.fields else ("fields",)
        cursor -= draw_text(c, "\n".join(lines), icons, fonts, left, cursor, inner_w, max(cursor - body_bottom, 0.0),
                            size, color=ink, on=paper, key=key)
    if side.write_in:  # a proxy side: ruled lines for the owner's own card text fill the rest of the body
        draw_write_in(c, side.write_in, fonts.bold, left, cursor, inner_w, cursor - body_bottom, ink, frame)


def _corner_width(look: Look, mark: str, inner_w: float) -> float:
    """The corner mark's width: 14 mm, or wider (up to 40 % of the band) when a word of the mark is
    wider than that at the minimum size, so a long type name (MULTIROTOR) is not cut."""
    base = min(14 * mm, inner_w * 0.25)
    words = [r for r in tokenize(f"**{mark}**", look.icons) if r.kind == "word"]
    widest = max((line_width([r], look.fonts, GAMEPLAY) for r in words), default=0.0)
    return min(max(base, widest + 0.5 * mm), inner_w * 0.4)


def _corner_left(c: Canvas, look: Look, mark: str, frame: Color, left: float, top: float, band_h: float) -> float:
    """A mark in the band's top-left corner (a card's cost): ink on a paper disc, so it reads on any band
    colour; returns the width it takes."""
    r = band_h / 2 - 0.6 * mm
    cx, cy = left + 1 * mm + r, top - band_h / 2
    c.saveState()
    c.setFillColor(look.color("paper"))
    c.setStrokeColor(frame)
    c.setLineWidth(1)
    c.circle(cx, cy, r, stroke=1, fill=1)
    c.restoreState()
    # The mark inside the disc's inscribed square, clear of its ring.
    half = r * 0.7
    draw_text(c, f"**{mark}**", look.icons, look.fonts, cx - half, cy + half, 2 * half, 2 * half, r * 1.1,
              align="center", color=look.color("ink"), on=look.color("paper"), valign="middle", min_size=4)
    return 2 * r + 1 * mm


STRIP = 8 * mm  # side strips of a full-layout face: title up the left, provenance up the right
STRIP_TEXT = 4.4 * mm  # the thickness of a strip's one line of text


def provenance_key(side: Side) -> KeyPath:
    return ("section",) if side.provenance == "rulebook" and side.section else ("provenance",)


def provenance_text(side: Side) -> str:
    if side.provenance == "rulebook" and side.section:
        return f"rulebook · {side.section}"
    return PROVENANCE_LABEL[side.provenance]


def _full_layout(c: Canvas, look: Look, comp: Component, side: Side, frame: Color, x: float, y: float, w: float,
                 h: float, set_label: str, strips: bool = True) -> None:
    """Pieces laid edge to edge (boards, road tiles): the art covers the whole face so the road runs
    on from one piece to the next. Boards carry title and provenance up their side margins (with
    `strips` False a split board leaves them to `draw_strips`, once per sheet); small pieces carry
    them on labels in the corners."""
    for i, element in enumerate(side.elements):
        _element(c, look, element, frame, x, y + h, ("elements", i))
    if side.art is not None and side.art.spaces is not None:
        _space_map_layout(c, look, side, frame, x, y, w, h, set_label)
        return
    small = min(w, h) < 100 * mm
    if side.art is not None:
        # On small pieces the caption becomes a label, so the picture keeps the whole face.
        art = replace(side.art, caption=None) if small else side.art
        draw_art(c, art, Box(x, y, w, h), look.pen(frame, comp), key=("art",))
    provenance = f"{provenance_text(side)}   {set_label}".strip()
    if not small:
        if strips:
            draw_strips(c, look, side, frame, x, w, (y, y + h), set_label)
        return
    label_w = (w - 2 * SAFE) * 0.62
    _label(c, look, f"**{side.title}**", x + SAFE, y + h - SAFE, label_w, 5 * mm, frame, key=("title",))
    if side.art is not None and side.art.caption:
        _label(c, look, side.art.caption, x + SAFE, y + SAFE + 9.5 * mm, w - 2 * SAFE, 6.5 * mm, look.ink,
               size=GAMEPLAY, key=("art", "caption"))
    # The tag is wider than the title label: one line of 6 pt with the copy number.
    tag_w = (w - 2 * SAFE) * 0.75
    _label(c, look, provenance, x + w - SAFE - tag_w, y + SAFE + 3.2 * mm, tag_w, 3.2 * mm, look.quiet,
           size=TAG, least=TAG, outline=False, key=provenance_key(side))


def has_strips(comp: Component, side: Side) -> bool:
    """Whether a side carries its title and provenance up its side margins (a large full-layout face)."""
    w, h = size_mm(comp.size)
    return side.layout == "full" and not (side.art is not None and side.art.spaces is not None) and min(w, h) >= 100


def draw_strips(c: Canvas, look: Look, side: Side, frame: Color, x: float, w: float, span: tuple[float, float],
                set_label: str = "", which: tuple[bool, bool] = (True, True)) -> None:
    """The title up the left margin and the provenance up the right one of a face whose trim runs
    from x to x + w, centred on the stretch `span` (bottom, top) of its height: the whole face, or
    the part of a split board one sheet shows, so each sheet carries them whole. `which` says which
    margins that stretch holds; where it holds one, that margin carries both, the title on its lower
    half and the provenance on its upper half, so every sheet of a split board names the board and
    says where it comes from."""
    lo, hi = span
    provenance = f"{provenance_text(side)}   {set_label}".strip()
    # Each strip's text box (4.5 mm thick) starts at the safe zone: descenders included, 3 mm from the trim.
    inset = SAFE + STRIP_TEXT / 2
    margins = [cx for cx, held in zip((x + inset, x + w - inset), which, strict=True) if held]
    if not margins:
        return
    texts = ((f"**{side.title}**", frame, 8, GAMEPLAY, ("title",)),
             (provenance, look.quiet, FOOTER_SIZE, TAG, provenance_key(side)))
    length = hi - lo - 2 * SAFE
    if len(margins) == 2:
        places = [(margins[0], (lo + hi) / 2, length), (margins[1], (lo + hi) / 2, length)]
    else:
        half = (length - 2 * mm) / 2
        places = [(margins[0], lo + SAFE + half / 2, half), (margins[0], hi - SAFE - half / 2, half)]
    for (text, color, size, least, key), (cx, cy, room) in zip(texts, places, strict=True):
        c.saveState()
        c.translate(cx, cy)
        c.rotate(90)
        draw_text(c, text, look.icons, look.fonts, -room / 2, STRIP_TEXT / 2, room, STRIP_TEXT, size,
                  align="center", color=color, on=look.paper, valign="middle", min_size=least, key=key)
        c.restoreState()


def _space_map_layout(c: Canvas, look: Look, side: Side, frame: Color, x: float, y: float, w: float, h: float,
                      set_label: str) -> None:
    """A piece of road drawn as a space map: the road covers the face, and the title and provenance
    go where the map leaves room (a straight piece's roadside, a bend's free corner)."""
    assert side.art is not None and side.art.spaces is not None
    slots = draw_space_map(c, side.art.spaces, Box(x, y, w, h), look.pen(frame))
    provenance = f"{provenance_text(side)}   {set_label}".strip()
    texts = [(f"**{side.title}**", frame, ("title",), GAMEPLAY, 8.0),
             (provenance, look.quiet, provenance_key(side), TAG, FOOTER_SIZE)]
    for (text, color, key, least, size), slot in zip(texts, slots, strict=False):
        c.saveState()
        c.translate(slot.cx, slot.cy)
        c.rotate(slot.angle)
        draw_text(c, text, look.icons, look.fonts, -slot.length / 2, slot.thickness / 2, slot.length, slot.thickness,
                  size, align="center", color=color, on=look.paper, valign="middle", min_size=least, key=key)
        c.restoreState()
    for text, color, key, least, size in texts[len(slots):]:  # no room on the map: a corner label, as small pieces
        _label(c, look, text, x + SAFE, y + h - SAFE, (w - 2 * SAFE) * 0.62, 5 * mm, color, size=min(size, 7),
               least=least, key=key)


def _label(c: Canvas, look: Look, text: str, x: float, top: float, w: float, h: float, color: Color,
           size: float = 7, least: float = GAMEPLAY, outline: bool = True, key: KeyPath = ()) -> None:
    """Text on a paper-coloured box, readable over any art."""
    c.saveState()
    c.setFillColor(look.paper)
    c.setStrokeColor(color)
    c.setLineWidth(0.5)
    c.roundRect(x, top - h, w, h, 1 * mm, stroke=1 if outline else 0, fill=1)
    c.restoreState()
    draw_text(c, text, look.icons, look.fonts, x + 1 * mm, top - 0.3 * mm, w - 2 * mm, h - 0.6 * mm, size,
              align="center", color=color, on=look.paper, valign="middle", min_size=least, key=key)


def _footer(c: Canvas, look: Look, side: Side, left: float, bottom: float, width: float, set_label: str) -> float:
    """The provenance tag in the bottom-left corner, small and in a quiet tone: it tells where a piece
    comes from without competing with its content; room is left for the copy number (`_copy_label`).
    Returns the footer's height: one line, or two for a long rulebook citation."""
    fonts, icons = look.fonts, look.icons
    right_w = COPY_LABEL_W if set_label else 0
    tag_w = width - right_w - 1 * mm
    tag = provenance_text(side)
    lines = len(measure(tokenize(tag, icons), fonts, tag_w, FOOTER, FOOTER_SIZE, TAG).lines)
    height = FOOTER if lines == 1 else FOOTER + FOOTER_SIZE * LEADING
    draw_text(c, tag, icons, fonts, left, bottom + height, tag_w, height, FOOTER_SIZE, color=look.quiet,
              on=look.paper, valign="middle", min_size=TAG, key=provenance_key(side))
    return height


COPY_LABEL_W = 12 * mm


def _copy_label(c: Canvas, look: Look, x: float, y: float, w: float, set_label: str) -> None:
    """The copy number in the bottom-right corner of a card's safe zone, in the footer's quiet tone."""
    left, bottom = x + SAFE, y + SAFE
    width = x + w - SAFE - left  # as the card layout computes its inner width
    draw_text(c, set_label, look.icons, look.fonts, left + width - COPY_LABEL_W, bottom + FOOTER, COPY_LABEL_W,
              FOOTER, FOOTER_SIZE, color=look.quiet, on=look.paper, valign="middle", align="right", min_size=TAG)


def _element(c: Canvas, look: Look, el: Element, frame: Color, x0: float, top: float, key: KeyPath) -> None:
    """A board element, positioned in mm from the board's top-left corner."""
    x, y, w, h = x0 + el.x * mm, top - (el.y + el.height) * mm, el.width * mm, el.height * mm
    note_box("element", x, y, w, h)
    if el.color:
        frame = look.color(el.color)
    c.saveState()
    c.setStrokeColor(frame)
    if el.style == "slot":
        c.setDash(6, 3)
        c.setLineWidth(1.2)
        c.roundRect(x, y, w, h, 3 * mm, stroke=1, fill=0)
        c.setDash()
    elif el.style == "space":
        c.setLineWidth(1.2)
        c.circle(x + w / 2, y + h / 2, min(w, h) / 2, stroke=1, fill=0)
    elif el.style == "panel":
        c.setLineWidth(1)
        c.roundRect(x, y, w, h, 2 * mm, stroke=1, fill=0)
    label_h = 0.0
    if el.label:
        label_h = min(h * 0.3, 10 * mm) if el.art else h - 2 * mm
        draw_text(c, el.label, look.icons, look.fonts, x + 1.5 * mm, y + h - 1 * mm, w - 3 * mm, label_h,
                  10, align="center", color=look.ink, on=look.paper, valign="middle", key=(*key, "label"))
    if el.art is not None:
        pad = 2 * mm
        draw_art(c, el.art, Box(x + pad, y + pad, w - 2 * pad, h - 2 * pad - label_h), look.pen(frame),
                 key=(*key, "art"))
    c.restoreState()


# ---------------------------------------------------------------------------------------------
# Small pieces: tokens, tiles under 40 mm, cube stand-ins


@dataclass(frozen=True)
class TokenLayout:
    """Where a small piece's label, picture and provenance badge go, in points from its bottom-left."""

    label: Box
    art: Box
    badge: tuple[float, float, float]  # centre x, centre y, radius
    lines: tuple[Box, ...] = ()  # each label line's own box (a round piece's lines follow the ring)
    title_size: float = 7.0  # pt: where the title's fitting starts
    badge_clear: bool = True  # False: the badge would cover the name, so it is left off


LABEL_LINES = 2
BADGE_R = 1.5 * mm
SMALL_BADGE_R = 1.1 * mm  # still around a 6 pt capital (4.4 pt, 1.6 mm tall)
_GAP = 0.5 * mm
_STEP = 0.25 * mm
# (width, height, starting size) of a label box in points -> the title's size and line widths there, or None if it
# does not fit at its minimum
TitleFit = Callable[[float, float, float], "tuple[float, list[float]] | None"]


def label_height(lines: int) -> float:
    return lines * GAMEPLAY * LEADING + 0.4 * mm


def token_layout(w: float, h: float, round_: bool, badge: bool = True, fit: TitleFit | None = None,
                 has_art: bool = True) -> TokenLayout:
    """A label along the bottom, a badge (when the side has one) and the largest square picture
    above the label that touches neither. On a round piece everything stays inside the cutting ring,
    1 mm clear of it, and the label's lines follow the ring's chords: of the lowest placements of a
    one- and a two-line title (`fit` says what fits), and the badge's places, the layout that leaves
    the largest picture; with no picture the label sits in the middle, where the chord is widest."""
    if not round_:
        return _square_token_layout(w, h, badge, fit, named=named_piece(w, h, round_))
    # Text (label and badge letter) keeps the safe zone: inside the circle 3 mm within the cut. The
    # picture, which a cut a little off does not spoil, may reach 1 mm inside the cutting ring.
    # (A hair more: a descender reaches a little below its line's box.)
    r = min(w, h) / 2 - SAFE - 0.05 * mm
    r_art = min(w, h) / 2 - RING_WIDTH - 1 * mm
    cx, cy = w / 2, h / 2
    d = max(r - BADGE_R, 0.0)  # a safe circle smaller than the badge (an 8 mm marker's): the badge in the middle
    spots = [(cx + d * math.cos(math.radians(a)), cy + d * math.sin(math.radians(a)), BADGE_R) for a in _BADGE_ANGLES]
    best: TokenLayout | None = None
    best_clear = False
    if not named_piece(w, h, round_):
        return _nameless_layout(w, h, r_art, spots if badge else spots[:1], badge)
    for label, lines, size in _chord_labels(r, cx, cy, fit or (lambda _w, _h, _s: (GAMEPLAY, [0.0])), has_art):
        art_bottom = label.y + label.h + _GAP
        clear = [s for s in spots if all(_clear_of(s, line) for line in lines)] if badge else spots[:1]
        most = _in_circle_at_most(r_art, cy, art_bottom)
        for spot in clear or spots[:1]:  # none clear (a label reaching high): the preferred place
            side = _largest_art(cx, art_bottom, r_art * 2,
                                lambda a, s=spot: _art_fits(a, s if badge else None, w, h, r_art),  # type: ignore[misc]
                                most)
            # A badge clear of the name first, then the largest picture.
            if best is None or (bool(clear), side) > (best_clear, best.art.w + 0.01):
                best = TokenLayout(label, Box(cx - side / 2, art_bottom, side, side), spot, lines, size)
                best_clear = bool(clear)
    assert best is not None  # _chord_labels always offers a label
    if badge and not best_clear:
        best = _badge_apart(w, h, r, r_art, fit, has_art) or replace(best, badge_clear=False)
    return best if has_art else replace(best, art=Box(cx, best.art.y, 0.0, 0.0))


def _badge_apart(w: float, h: float, r: float, r_art: float, fit: TitleFit | None,
                 has_art: bool) -> TokenLayout | None:
    """A small disc whose name leaves no room beside it for the badge: the badge at the foot or the
    head of the disc, where the ring is too narrow for a word but not for a letter, the name between;
    a smaller badge (still holding its letter) where the full one leaves the name no room."""
    cx, cy = w / 2, h / 2
    for radius in (BADGE_R, SMALL_BADGE_R):
        for below in (True, False):
            spot = (cx, cy - (r - radius) if below else cy + (r - radius), radius)
            edge = spot[1] + radius + _GAP if below else spot[1] - radius - _GAP
            best: TokenLayout | None = None
            for label, lines, size in _chord_labels(r, cx, cy, fit or (lambda _w, _h, _s: (GAMEPLAY, [0.0])), True,
                                                    floor=edge if below else None,
                                                    ceiling=cy + r if below else edge):
                if not all(_clear_of(spot, line) for line in lines) or (below and label.y < edge - 0.01):
                    continue  # the fallback box of _chord_labels, where nothing fits
                art_bottom = label.y + label.h + _GAP
                side = _largest_art(cx, art_bottom, r_art * 2, partial(_fits_beside, spot, w, h, r_art),
                                    _in_circle_at_most(r_art, cy, art_bottom)) if has_art else 0.0
                if best is None or side > best.art.w + 0.01:
                    best = TokenLayout(label, Box(cx - side / 2, art_bottom, side, side), spot, lines, size)
            if best is not None:
                return best
    return None


MIN_PICTURE = 4 * mm  # a smaller icon beside a name is left out
NAMED_DISC = 15 * mm  # a smaller disc's safe circle (under 9 mm across) holds no name beside a picture
NAMED_SQUARE = 10 * mm  # a smaller square's safe square (under 4 mm) holds no name


def named_piece(w: float, h: float, round_: bool) -> bool:
    """Whether a small piece prints its name. A disc under 15 mm has no room for a name at the gameplay
    size 3 mm inside its cut next to a picture: it shows its picture alone (the track or space it sits
    on names it, as the Health and Shield tracks do for the vampire chase's markers). Nor does a square
    under 10 mm (its 4 mm safe square holds no name)."""
    return min(w, h) >= (NAMED_DISC if round_ else NAMED_SQUARE)


def _nameless_layout(w: float, h: float, r_art: float, spots: list[tuple[float, float, float]],
                     badge: bool) -> TokenLayout:
    """A disc with no name: the largest picture inside the ring that keeps off the badge."""
    cx, cy = w / 2, h / 2
    best: TokenLayout | None = None
    for spot in spots:
        for k in range(int(r_art / _STEP) + 1):
            bottom = cy - r_art + k * _STEP
            side = _largest_art(cx, bottom, r_art * 2,
                                lambda a, s=spot: _art_fits(a, s if badge else None, w, h, r_art),  # type: ignore[misc]
                                _in_circle_at_most(r_art, cy, bottom))
            if best is None or side > best.art.w + 0.01:
                best = TokenLayout(Box(cx, cy, 0.0, 0.0), Box(cx - side / 2, bottom, side, side), spot, ())
    assert best is not None
    return best


# Degrees from the right: 40 is preferred; lower ones free the picture, higher ones clear a tall label.
_BADGE_ANGLES = (40, 30, 20, 10, 0, -15, -30, 55, 70, 90)


Label = tuple[Box, tuple[Box, ...], float]  # the box to draw the title in, each line's own box, the starting size


def _chord_labels(r: float, cx: float, cy: float, fit: TitleFit, has_art: bool, floor: float | None = None,
                  ceiling: float | None = None) -> list[Label]:
    """Labels for a round piece: the box to draw the title in and each line's own box (as wide as its
    text), every line no wider than the chord at its outer edge. With a picture, the lowest such label
    of one line and of two, at the full title size and at the minimum, wrapped to the box's widest and
    its narrowest chord; without, a centred one. `floor` and `ceiling` bound the label from below and
    above (default: the ring, and half-way up the upper half). When nothing fits, the old narrow box,
    where the audit reports the title."""
    def chord(y: float) -> float:
        return 2 * math.sqrt(max(r * r - (y - cy) ** 2, 0.0))

    def attempt(bottom: float, n: int, start: float, narrow: bool) -> Label | None:
        height = label_height(n)
        top = bottom + height
        width = min(chord(bottom), chord(top)) if narrow else (
            chord(cy) if bottom <= cy <= top else max(chord(bottom), chord(top)))
        got = fit(width, height, start)
        if got is None or len(got[1]) != n:
            return None
        size, widths = got
        lead = size * LEADING
        offset = max(0.0, (height - n * lead) / 2)  # as draw_text centres the lines
        slots = []
        for i, line_w in enumerate(widths):
            hi = top - offset - i * lead
            if line_w > min(chord(hi), chord(hi - lead)) + 0.01:
                return None
            slots.append(Box(cx - line_w / 2, hi - lead, line_w, lead))
        return Box(cx - width / 2, bottom, width, height), tuple(slots), start

    found = []
    for n, start, narrow in itertools.product(range(1, LABEL_LINES + 1), (TOKEN_TITLE, GAMEPLAY), (False, True)):
        if not has_art:
            got = attempt(cy - label_height(n) / 2, n, start, narrow)
            if got is not None:
                return [got]
            continue
        bottom = cy - r if floor is None else floor  # the chords keep every line off the ring
        while bottom + label_height(n) <= (cy + r * 0.5 if ceiling is None else ceiling):
            got = attempt(bottom, n, start, narrow)
            if got is not None:
                found.append(got)
                break
            bottom += _STEP
    if found:
        return found
    bottom, height = cy - r * 0.82, label_height(LABEL_LINES)
    box = Box(cx - chord(bottom) / 2, bottom, chord(bottom), height)
    return [(box, (box,), TOKEN_TITLE)]


def _clear_of(spot: tuple[float, float, float], box: Box) -> bool:
    """A badge circle at least a gap away from a box."""
    bx, by, br = spot
    nx, ny = min(max(bx, box.x), box.x + box.w), min(max(by, box.y), box.y + box.h)
    return math.hypot(bx - nx, by - ny) >= br + _GAP


def _largest_art(cx: float, bottom: float, start: float, ok: Callable[[Box], bool], most: float = math.inf) -> float:
    """The first side, stepping down from `start`, that is `ok`; `most` is a size no larger side can fit
    at, so the costly test is skipped above it (the sides tried, and so the answer, stay the same)."""
    side = start
    while side > _STEP:
        if side <= most and ok(Box(cx - side / 2, bottom, side, side)):
            return side
        side -= _STEP
    return 0.0


def _in_circle_at_most(r: float, cy: float, bottom: float) -> float:
    """The largest square standing on `bottom` (centred across) with all four corners within `r` of the
    centre, or a hair more: the bottom corners bound it by the chord there, the top ones by
    (s/2)² + (bottom + s - cy)² <= r²."""
    d = bottom - cy
    chord = 2 * math.sqrt(max(r * r - d * d, 0.0))
    top = 0.4 * (-2 * d + math.sqrt(max(5 * r * r - d * d, 0.0)))
    return min(chord, top) + 1e-6


MIN_PIP = 1.0 * mm  # a die's pips, across


def badge_on_back(comp: Component, side: Side) -> bool:
    """Whether `side` is a front whose back (its own or the component's) carries a provenance badge."""
    for face in comp.faces:
        if face.front is side:
            back = face.back or comp.back
            return back is not None and back.provenance != "rulebook"
    return False


def nameless_layout(w: float, h: float, round_: bool, badge: bool) -> TokenLayout:
    """A small piece that shows its picture alone: the largest picture that keeps off the badge."""
    if not round_:
        return _square_token_layout(w, h, badge, named=False)
    r_art = min(w, h) / 2 - RING_WIDTH - 1 * mm
    d = max(min(w, h) / 2 - SAFE - 0.05 * mm - BADGE_R, 0.0)
    spots = [(w / 2 + d * math.cos(math.radians(a)), h / 2 + d * math.sin(math.radians(a)), BADGE_R)
             for a in _BADGE_ANGLES]
    return _nameless_layout(w, h, r_art, spots if badge else spots[:1], badge)


def _square_token_layout(w: float, h: float, badge: bool, fit: TitleFit | None = None,
                         named: bool = True) -> TokenLayout:
    """The label and badge inside the safe zone; the picture may reach 1.5 mm from the cut (and stand
    on that line when the piece prints no name). The badge sits in the top corner, or, where that leaves
    too small a picture and the name fits beside it, at the end of the label."""
    pad = 1.5 * mm
    label = Box(SAFE, SAFE, w - 2 * SAFE, label_height(LABEL_LINES) if named else 0.0)
    spot = (w - SAFE - BADGE_R, h - SAFE - BADGE_R, BADGE_R)
    if min(w, h) - 2 * SAFE < 2 * BADGE_R:  # a safe square smaller than the badge (an 8 mm marker's): in the middle
        spot = (w / 2, h / 2, BADGE_R)
    art_bottom = label.y + label.h + _GAP if named else pad
    side = _largest_art(w / 2, art_bottom, h - art_bottom - pad,
                        lambda a: _art_fits(a, spot if badge else None, w, h, 0.0))
    if named and badge and side < MIN_PICTURE and fit is not None:
        beside = Box(SAFE, SAFE, w - 2 * SAFE - 2 * BADGE_R - _GAP, label.h)
        if fit(beside.w, beside.h, TOKEN_TITLE) is not None:
            low = (w - SAFE - BADGE_R, SAFE + label.h / 2, BADGE_R)
            wide = _largest_art(w / 2, art_bottom, h - art_bottom - pad, lambda a: _art_fits(a, None, w, h, 0.0))
            if wide > side:
                return TokenLayout(beside, Box(w / 2 - wide / 2, art_bottom, wide, wide), low, (beside,), TOKEN_TITLE)
    art = Box(w / 2 - side / 2, art_bottom, side, side)
    return TokenLayout(label, art, spot, (label,) if named else (), TOKEN_TITLE)


def word_art_box(lay: TokenLayout, w: float, h: float, badge: bool) -> Box:
    """For a word as the picture (a die face's TOP or BOTTOM): the whole width above the label and
    below the badge, when a square is too narrow for the word."""
    top = (lay.badge[1] - lay.badge[2] - _GAP) if badge else h - 1.5 * mm
    return Box(lay.label.x, lay.art.y, lay.label.w, max(top - lay.art.y, 0.0))


def _fits_beside(badge: tuple[float, float, float], w: float, h: float, r: float, art: Box) -> bool:
    return _art_fits(art, badge, w, h, r)


def _art_fits(art: Box, badge: tuple[float, float, float] | None, w: float, h: float, r: float) -> bool:
    clear = True
    if badge is not None:
        bx, by, br = badge
        clear = (art.x + art.w <= bx - br - _GAP) or (art.y + art.h <= by - br - _GAP)
    if r:  # every corner inside the usable circle
        cx, cy = w / 2, h / 2
        inside = all(math.hypot(px - cx, py - cy) <= r for px in (art.x, art.x + art.w)
                     for py in (art.y, art.y + art.h))
    else:
        inside = art.y + art.h <= h - 1.5 * mm and art.x >= 1.5 * mm and art.x + art.w <= w - 1.5 * mm
    return clear and inside


def _token_layout(c: Canvas, look: Look, comp: Component, side: Side, frame: Color, x: float, y: float,
                  w: float, h: float) -> None:
    """Small pieces: one big picture, the name underneath, the provenance letter in a badge."""
    title = f"**{side.title}**"
    badge = True
    round_ = comp.shape == "round"
    runs = tuple(tokenize(title, look.icons))
    lay = _titled_token_layout(w, h, round_, badge, runs, look.fonts, side.art is not None)
    named = named_piece(w, h, round_)
    if side.art is not None and side.art.pips is not None and pip_diameter(lay.art.w) < MIN_PIP:
        # Pips too small to count beside a name: the pips alone, larger (they say the value).
        lay, named = nameless_layout(w, h, round_, badge), False
    if (badge and not named and side.art is not None and lay.art.w < MIN_PICTURE
            and badge_on_back(comp, side)):
        # A marker too small for a picture beside its badge (an 8 mm disc's safe circle holds the
        # letter alone): the picture here, the badge on its back.
        lay, badge = nameless_layout(w, h, round_, False), False
    picture = side.art is not None
    if picture and named and side.art is not None and side.art.icon is not None and lay.art.w < MIN_PICTURE:
        # The name took the safe zone: a speck of a picture helps no one, the name alone reads better
        # (where it stands, clear of the badge). A piece with no name keeps its picture, however small.
        picture = False
    local = lay.art
    if side.art is not None and side.art.number is not None and not round_:
        number = tokenize(f"**{side.art.number}**", look.icons)
        if not measure(number, look.fonts, local.w, local.h, GAMEPLAY, GAMEPLAY).fits:
            local = word_art_box(lay, w, h, badge)
    art = Box(x + local.x, y + local.y, local.w, local.h)
    label = Box(x + lay.label.x, y + lay.label.y, lay.label.w, lay.label.h)
    if picture:
        note_box("art", art.x, art.y, art.w, art.h)
    for line in lay.lines:
        note_box("label", x + line.x, y + line.y, line.w, line.h)
    if picture and side.art is not None:
        # Side colour, not ink: an enemy car must differ from a civilian one at a glance.
        draw_art(c, side.art, art, replace(look.pen(frame, comp), ink=frame), key=("art",))
    if named:
        draw_text(c, title, look.icons, look.fonts, label.x, label.y + label.h, label.w, label.h, lay.title_size,
                  align="center", color=frame if side.art is not None else look.ink, on=look.paper,
                  valign="middle", key=("title",))
    if badge and lay.badge_clear:  # a disc too small for both keeps its name (its other side has the badge)
        bx, by, r = x + lay.badge[0], y + lay.badge[1], lay.badge[2]
        note_box("badge", bx - r, by - r, 2 * r, 2 * r)
        c.setFillColor(look.quiet)
        c.circle(bx, by, r, stroke=0, fill=1)
        c.setFillColor(text_on(look.quiet, look.ink))
        c.setFont(look.fonts.bold, TAG)
        c.drawCentredString(bx, by - TAG * 0.36, BADGE_LETTER[side.provenance])
        note_text(("badge",), BADGE_LETTER[side.provenance], TAG, text_on(look.quiet, look.ink), look.quiet)


@lru_cache(maxsize=1 << 10)
def _titled_token_layout(w: float, h: float, round_: bool, badge: bool, title: tuple[Run, ...], fonts: Fonts,
                         has_art: bool) -> TokenLayout:
    """`token_layout` for a title, remembered: the search for the largest picture is the costliest part
    of a small piece, and every copy of a token, on every paper and in its PNG, searches the same."""

    def fit(bw: float, bh: float, start: float) -> tuple[float, list[float]] | None:
        got = measure(list(title), fonts, bw, bh, start, GAMEPLAY)
        return (got.size, [line_width(line, fonts, got.size) for line in got.lines]) if got.fits else None

    return token_layout(w, h, round_, badge=badge, fit=fit, has_art=has_art)


def forget_layouts() -> None:
    """Empty every layout memo of the renderer (text and small pieces), for measuring a cold render."""
    forget_text_layouts()
    _titled_token_layout.cache_clear()


TOKEN_TITLE = 7.0  # pt: a small piece's name, shrinking to GAMEPLAY where the label is tight


def legend_side(look: Look) -> Side:
    """The legend card of a game: what the provenance tags mean."""
    tags = "\n".join([
        f"**{PROVENANCE_LABEL['house']}**: our design where the rulebook prints nothing, or names "
        "the contents but not the layout or how many there are; it lets you play from this kit alone.",
        f"**{PROVENANCE_LABEL['proxy']}**: stands in for a piece the rulebook names but does not print; "
        "use the real one if you own it.",
        "**rulebook · section**: as the rulebook prints it; the section says where.",
        "On tokens, tiles and dice a small badge says the same: **R** rulebook, **H** house design, "
        "**P** proxy stand-in.",
    ])
    return Side(title="Reading the tags", provenance="house", color="primary",
                subtitle=f"{look.game.name} · where each piece comes from",
                text=f"Every piece says where it comes from in the small tag at its foot.\n{tags}")
