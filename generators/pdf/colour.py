"""Colour contrast as WCAG defines it, and the text colours that keep 4.5:1 on any background.

Theme colours are chosen for their look; the renderer picks the text colour that reads on them:
the theme's ink or white on a filled band, the theme colour itself darkened (or lightened) just
enough where it is used as a text colour on paper."""

from __future__ import annotations

from reportlab.lib.colors import Color, black, white

MIN_CONTRAST = 4.5


def _channel(v: float) -> float:
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def luminance(c: Color) -> float:
    return 0.2126 * _channel(c.red) + 0.7152 * _channel(c.green) + 0.0722 * _channel(c.blue)


def contrast(a: Color, b: Color) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def mix(a: Color, b: Color, t: float) -> Color:
    """`a` moved a fraction `t` of the way to `b`."""
    return Color(a.red + (b.red - a.red) * t, a.green + (b.green - a.green) * t, a.blue + (b.blue - a.blue) * t)


def readable(fg: Color, bg: Color, minimum: float = MIN_CONTRAST) -> Color:
    """`fg` as it is when it already reads on `bg`, else moved towards black or white (whichever
    side of `bg` it can reach the minimum on) by the smallest step that does."""
    if contrast(fg, bg) >= minimum:
        return fg
    target = black if contrast(black, bg) >= contrast(white, bg) else white
    for step in range(1, 21):
        candidate = mix(fg, target, step / 20)
        if contrast(candidate, bg) >= minimum:
            return candidate
    return target


def text_on(bg: Color, ink: Color) -> Color:
    """Text on a filled area: white or the theme's ink, whichever contrasts more (black or white
    when neither reaches the minimum; one of them always does)."""
    best = max((white, ink), key=lambda c: contrast(c, bg))
    if contrast(best, bg) >= MIN_CONTRAST:
        return best
    return max((white, black), key=lambda c: contrast(c, bg))
