"""Drawing one side of a component (card, token, tile, board) into its trim box.

Layout follows the print conventions: background to the bleed edge, all text inside the 3 mm
safe zone, and a provenance line on every side so that nothing we designed passes for the
publisher's."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path
from typing import Literal

from reportlab.lib.colors import Color, HexColor, white
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from generators.content.model import Component, Element, Icons, LoadedGame, Side, size_mm
from generators.pdf.art import Box, Pen, draw_art
from generators.pdf.fonts import register
from generators.pdf.spacemap import draw_space_map
from generators.pdf.text import Fonts, draw_text
from generators.pdf.writein import draw_write_in, write_in_height

BLEED = 3 * mm
SAFE = 3 * mm
DEFAULT_COLORS = {"primary": "#1f4e79", "accent": "#c0392b", "ink": "#1b1b1b", "paper": "#f6f1e7"}
PROVENANCE_LABEL = {
    "rulebook": "Rulebook",
    "house": "HOUSE DESIGN · not the publisher's",
    "proxy": "PROXY stand-in · not the publisher's",
}


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

    def color(self, name: str | None, default: str = "primary") -> Color:
        value = name or default
        if value.startswith("#"):
            return HexColor(value)
        colors = {**DEFAULT_COLORS, **self.game.game.theme.colors}
        return HexColor(colors.get(value, DEFAULT_COLORS.get(value, "#000000")))

    def pen(self, frame: Color) -> Pen:
        return Pen(ink=self.color("ink"), accent=frame, paper=self.color("paper"), fonts=self.fonts,
                   icons=self.icons, resolve=lambda n: self.color(n), ink_saver=self.ink_saver)


def is_small(comp: Component) -> bool:
    return min(size_mm(comp.size)) < 40


Layer = Literal["all", "background", "content"]


def draw_side(c: Canvas, look: Look, comp: Component, side: Side, x: float, y: float, w: float, h: float,
              set_label: str = "", bleed: float = BLEED, layer: Layer = "all") -> None:
    """Draw `side` with its trim box at (x, y, w, h) in points; background runs `bleed` further.

    Sheets draw every background first and every content second (see documents.place), so one
    piece's bleed never paints over its neighbour's content."""
    frame = look.color(side.color)
    c.saveState()
    if layer != "content":
        _background(c, look, comp, frame, x, y, w, h, bleed)
    if layer == "background":
        pass
    else:
        if comp.shape == "round" and not look.ink_saver:
            # The cutting ring is content: a neighbour's bleed, drawn earlier, must not cover it.
            c.setStrokeColor(frame)
            c.setLineWidth(1.2)
            c.circle(x + w / 2, y + h / 2, min(w, h) / 2 - 1.2, stroke=1, fill=0)
        _content(c, look, comp, side, frame, x, y, w, h, set_label)
    c.restoreState()


def _content(c: Canvas, look: Look, comp: Component, side: Side, frame: Color, x: float, y: float, w: float,
             h: float, set_label: str) -> None:
    if side.layout == "full":
        _full_layout(c, look, side, frame, x, y, w, h, set_label)
    elif is_small(comp):
        _token_layout(c, look, comp, side, frame, x, y, w, h)
    else:
        _card_layout(c, look, side, frame, x, y, w, h, set_label)


def _background(c: Canvas, look: Look, comp: Component, frame: Color, x: float, y: float, w: float, h: float,
                bleed: float) -> None:
    if look.ink_saver:
        c.setStrokeColor(frame)
        c.setLineWidth(0.8)
        if comp.shape == "round":
            c.circle(x + w / 2, y + h / 2, min(w, h) / 2 - 0.4, stroke=1, fill=0)
        else:
            c.rect(x + 0.4, y + 0.4, w - 0.8, h - 0.8, stroke=1, fill=0)
        return
    c.setFillColor(look.color("paper"))
    c.rect(x - bleed, y - bleed, w + 2 * bleed, h + 2 * bleed, stroke=0, fill=1)


def _card_layout(c: Canvas, look: Look, side: Side, frame: Color, x: float, y: float, w: float, h: float,
                 set_label: str) -> None:
    fonts, icons, ink = look.fonts, look.icons, look.color("ink")
    left, right, top, bottom = x + SAFE, x + w - SAFE, y + h - SAFE, y + SAFE
    inner_w = right - left
    band_h = 9 * mm if h < 200 * mm else 14 * mm
    # Title band: a filled bar (ink-saver: an outline) inside the safe zone.
    if look.ink_saver:
        c.setStrokeColor(frame)
        c.setLineWidth(1)
        c.roundRect(left, top - band_h, inner_w, band_h, 2 * mm, stroke=1, fill=0)
        title_color: Color = frame
    else:
        c.setFillColor(frame)
        c.roundRect(left, top - band_h, inner_w, band_h, 2 * mm, stroke=0, fill=1)
        title_color = white
    corner_w = left_w = 0.0
    if side.corner:
        corner_w = min(14 * mm, inner_w * 0.25)
        draw_text(c, f"**{side.corner}**", icons, fonts, right - corner_w - 1.5 * mm, top - 1 * mm, corner_w,
                  band_h - 2 * mm, band_h * 0.55, align="center", color=title_color, valign="middle")
    if side.corner_left:
        left_w = _corner_left(c, look, side.corner_left, frame, left, top, band_h)
    draw_text(c, f"**{side.title}**", icons, fonts, left + 2 * mm + left_w, top - 1 * mm,
              inner_w - corner_w - left_w - 4 * mm, band_h - 2 * mm, band_h * 0.5, color=title_color, valign="middle",
              min_size=4.5)
    cursor = top - band_h - 1.5 * mm
    if side.subtitle:
        used = draw_text(c, side.subtitle, icons, fonts, left, cursor, inner_w, 6 * mm, 7.5, color=frame,
                         align="center")
        cursor -= used + 1 * mm
    footer_h = 5 * mm
    _footer(c, look, side, left, bottom, inner_w, footer_h, set_label)
    body_bottom = bottom + footer_h + 1 * mm
    body_h = cursor - body_bottom
    for element in side.elements:
        _element(c, look, element, frame, x, y + h)
    has_words = bool(side.text or side.fields or side.write_in)
    if side.image:
        art_h = body_h * (0.5 if has_words else 1.0)
        c.drawImage(str(Path(look.game.dir) / side.image), left, cursor - art_h, inner_w, art_h,
                    preserveAspectRatio=True, anchor="c", mask="auto")
        cursor -= art_h + 1 * mm
    elif side.art is not None:
        art_h = body_h * (0.5 if has_words else 1.0)
        if side.write_in and not (side.text or side.fields):  # a write-in grid keeps what the ruled lines leave
            art_h = max(art_h, body_h - write_in_height(side.write_in) - 1 * mm)
        draw_art(c, side.art, Box(left, cursor - art_h, inner_w, art_h), look.pen(frame))
        cursor -= art_h + 1 * mm
    # Fields and body text are one block fitted at one size, so no line ends up smaller than another.
    lines = [f":{f.icon}: **{f.label}:** {f.text}" if f.icon else f"**{f.label}:** {f.text}" for f in side.fields]
    if side.text:
        lines.append(side.text)
    if lines and cursor - body_bottom > 4:
        size = 8.5 if w < 100 * mm else 11
        cursor -= draw_text(c, "\n".join(lines), icons, fonts, left, cursor, inner_w, cursor - body_bottom, size,
                            color=ink)
    if side.write_in:  # a proxy side: ruled lines for the owner's own card text fill the rest of the body
        draw_write_in(c, side.write_in, fonts.bold, left, cursor, inner_w, cursor - body_bottom, ink, frame)


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
    draw_text(c, f"**{mark}**", look.icons, look.fonts, cx - r, cy + r, 2 * r, 2 * r, r * 1.1, align="center",
              color=look.color("ink"), valign="middle", min_size=4)
    return 2 * r + 1 * mm


STRIP = 8 * mm  # side strips of a full-layout face: title up the left, provenance up the right


def _provenance_text(side: Side) -> str:
    if side.provenance == "rulebook" and side.section:
        return f"Rulebook · {side.section}"
    return PROVENANCE_LABEL[side.provenance]


def _provenance_color(look: Look, side: Side) -> Color:
    """Warnings (house, proxy) in the accent colour; rulebook citations in ink."""
    return look.color("ink") if side.provenance == "rulebook" else look.color("accent")


def _full_layout(c: Canvas, look: Look, side: Side, frame: Color, x: float, y: float, w: float, h: float,
                 set_label: str) -> None:
    """Pieces laid edge to edge (boards, road tiles): the art covers the whole face so the road runs
    on from one piece to the next. Boards carry title and provenance up their side margins; small
    pieces carry them on labels in the corners."""
    for element in side.elements:
        _element(c, look, element, frame, x, y + h)
    if side.art is not None and side.art.spaces is not None:
        _space_map_layout(c, look, side, frame, x, y, w, h, set_label)
        return
    small = min(w, h) < 100 * mm
    if side.art is not None:
        # On small pieces the caption becomes a label, so the picture keeps the whole face.
        art = replace(side.art, caption=None) if small else side.art
        draw_art(c, art, Box(x, y, w, h), look.pen(frame))
    provenance = f"{_provenance_text(side)}   {set_label}".strip()
    if not small:
        for text, cx, color in ((f"**{side.title}**", x + STRIP / 2, frame),
                                (provenance, x + w - STRIP / 2, _provenance_color(look, side))):
            c.saveState()
            c.translate(cx, y + h / 2)
            c.rotate(90)
            draw_text(c, text, look.icons, look.fonts, -h / 2 + SAFE, 2.2 * mm, h - 2 * SAFE, 4.5 * mm, 8,
                      align="center", color=color, valign="middle", min_size=4)
            c.restoreState()
        return
    label_w = (w - 2 * SAFE) * 0.62
    _label(c, look, f"**{side.title}**", x + SAFE, y + h - SAFE, label_w, 5 * mm, frame)
    if side.art is not None and side.art.caption:
        _label(c, look, side.art.caption, x + SAFE, y + SAFE + 10 * mm, w - 2 * SAFE, 5.5 * mm, look.color("ink"),
               size=5.5)
    _label(c, look, provenance, x + w - SAFE - label_w, y + SAFE + 4 * mm, label_w, 4 * mm,
           _provenance_color(look, side), size=5)


def _space_map_layout(c: Canvas, look: Look, side: Side, frame: Color, x: float, y: float, w: float, h: float,
                      set_label: str) -> None:
    """A piece of road drawn as a space map: the road covers the face, and the title and provenance
    go where the map leaves room (a straight piece's roadside, a bend's free corner)."""
    assert side.art is not None and side.art.spaces is not None
    slots = draw_space_map(c, side.art.spaces, Box(x, y, w, h), look.pen(frame))
    provenance = f"{_provenance_text(side)}   {set_label}".strip()
    texts = [(f"**{side.title}**", frame), (provenance, _provenance_color(look, side))]
    for (text, color), slot in zip(texts, slots, strict=False):
        c.saveState()
        c.translate(slot.cx, slot.cy)
        c.rotate(slot.angle)
        draw_text(c, text, look.icons, look.fonts, -slot.length / 2, slot.thickness / 2, slot.length, slot.thickness,
                  8, align="center", color=color, valign="middle", min_size=4)
        c.restoreState()
    for text, color in texts[len(slots):]:  # no room on the map: a label in a corner, as small pieces have
        _label(c, look, text, x + SAFE, y + h - SAFE, (w - 2 * SAFE) * 0.62, 5 * mm, color)


def _label(c: Canvas, look: Look, text: str, x: float, top: float, w: float, h: float, color: Color,
           size: float = 7) -> None:
    """Text on a paper-coloured box, readable over any art."""
    c.saveState()
    c.setFillColor(look.color("paper"), alpha=0.92)
    c.setStrokeColor(color)
    c.setLineWidth(0.5)
    c.roundRect(x, top - h, w, h, 1 * mm, stroke=1, fill=1)
    c.restoreState()
    draw_text(c, text, look.icons, look.fonts, x + 1 * mm, top - 0.4 * mm, w - 2 * mm, h - 0.8 * mm, size,
              align="center", color=color, valign="middle", min_size=3.5)


def _footer(c: Canvas, look: Look, side: Side, left: float, bottom: float, width: float, height: float,
            set_label: str) -> None:
    fonts, icons = look.fonts, look.icons
    label = _provenance_text(side)
    tag = _provenance_color(look, side)
    if side.provenance != "rulebook":
        c.setStrokeColor(tag)
        c.setLineWidth(0.6)
        c.roundRect(left, bottom, width, height, 1 * mm, stroke=1, fill=0)
    right_w = 14 * mm if set_label else 0
    draw_text(c, label, icons, fonts, left + 1 * mm, bottom + height - 0.8 * mm, width - right_w - 2 * mm,
              height - 1.2 * mm, 6, color=tag, valign="middle", min_size=3.5)
    if set_label:
        draw_text(c, set_label, icons, fonts, left + width - right_w, bottom + height - 0.8 * mm,
                  right_w - 1 * mm, height - 1.2 * mm, 6, color=look.color("ink"), valign="middle",
                  align="center", min_size=3.5)


def _element(c: Canvas, look: Look, el: Element, frame: Color, x0: float, top: float) -> None:
    """A board element, positioned in mm from the board's top-left corner."""
    x, y, w, h = x0 + el.x * mm, top - (el.y + el.height) * mm, el.width * mm, el.height * mm
    ink = look.color("ink")
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
                  10, align="center", color=ink, valign="middle", min_size=4)
    if el.art is not None:
        pad = 2 * mm
        draw_art(c, el.art, Box(x + pad, y + pad, w - 2 * pad, h - 2 * pad - label_h), look.pen(frame))
    c.restoreState()


def _token_layout(c: Canvas, look: Look, comp: Component, side: Side, frame: Color, x: float, y: float,
                  w: float, h: float) -> None:
    """Small pieces: one big picture, the name underneath, a provenance letter when not rulebook."""
    ink = look.color("ink")
    pad = 2.5 * mm if comp.shape == "round" else 1.5 * mm
    label_h = h * 0.22
    art_box = Box(x + pad + label_h * 0.3, y + pad + label_h, w - 2 * pad - label_h * 0.6, h - 2 * pad - label_h)
    if side.art is not None:
        # Side colour, not ink: an enemy car must differ from a civilian one at a glance.
        draw_art(c, side.art, art_box, replace(look.pen(frame), ink=frame))
    draw_text(c, f"**{side.title}**", look.icons, look.fonts, x + pad, y + pad + label_h, w - 2 * pad,
              label_h, 6, align="center", color=frame if side.art is not None else ink, valign="middle",
              min_size=3)
    if side.provenance != "rulebook":
        letter = "H" if side.provenance == "house" else "P"
        c.setFillColor(look.color("accent"))
        r = 1.6 * mm
        cx, cy = (x + w / 2, y + h - pad - r) if comp.shape == "round" else (x + w - pad - r, y + h - pad - r)
        c.circle(cx, cy, r, stroke=0, fill=1)
        c.setFillColor(white)
        c.setFont(look.fonts.bold, 6)
        c.drawCentredString(cx, cy - 2.1, letter)
