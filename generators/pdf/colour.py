"""Colour contrast as WCAG defines it, and the text colours that keep 4.5:1 on any background.

Theme colours are chosen for their look; the renderer picks the text colour that reads on them:
the theme's ink or white on a filled band, the theme colour itself darkened (or lightened) just
enough where it is used as a text colour on paper."""

from __future__ import annotations

from reportlab.lib.colors import Color, black, white

from generators.content import contrast as rgb
from generators.content.contrast import MIN_CONTRAST, contrast, luminance

__all__ = ["MIN_CONTRAST", "contrast", "luminance", "mix", "readable", "text_on"]


def mix(a: Color, b: Color, t: float) -> Color:
    """`a` moved a fraction `t` of the way to `b`."""
    return Color(*rgb.mix(a, b, t))


def readable(fg: Color, bg: Color, minimum: float = MIN_CONTRAST) -> Color:
    """`fg` as it is when it already reads on `bg`, else moved towards black or white (whichever
    side of `bg` it can reach the minimum on) by the smallest step that does."""
    moved = rgb.readable(fg, bg, minimum)
    return fg if moved is None else Color(*moved)


def text_on(bg: Color, ink: Color) -> Color:
    """Text on a filled area: white or the theme's ink, whichever contrasts more (black or white
    when neither reaches the minimum; one of them always does)."""
    best = max((white, ink), key=lambda c: contrast(c, bg))
    if contrast(best, bg) >= MIN_CONTRAST:
        return best
    return max((white, black), key=lambda c: contrast(c, bg))
