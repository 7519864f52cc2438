"""Colour contrast as WCAG defines it, on plain RGB (0..1) with no drawing library: the print kit
(through generators.pdf.colour) and the engines' SVG drawings, which also run in the browser where
there is no ReportLab, pick text colours with the same arithmetic."""

from __future__ import annotations

from typing import NamedTuple, Protocol

MIN_CONTRAST = 4.5


class HasRgb(Protocol):
    @property
    def red(self) -> float: ...
    @property
    def green(self) -> float: ...
    @property
    def blue(self) -> float: ...


class Rgb(NamedTuple):
    red: float
    green: float
    blue: float


BLACK = Rgb(0.0, 0.0, 0.0)
WHITE = Rgb(1.0, 1.0, 1.0)


def from_hex(text: str) -> Rgb:
    """'#1a2b3c' as channels from 0 to 1."""
    value = int(text.lstrip("#"), 16)
    return Rgb(((value >> 16) & 255) / 255, ((value >> 8) & 255) / 255, (value & 255) / 255)


def to_hex(c: HasRgb) -> str:
    """'#rrggbb', each channel truncated to 0..255 as ReportLab's hexval does."""
    return "#" + "".join(f"{int(x * 255) & 255:02x}" for x in (c.red, c.green, c.blue))


def _channel(v: float) -> float:
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def luminance(c: HasRgb) -> float:
    return 0.2126 * _channel(c.red) + 0.7152 * _channel(c.green) + 0.0722 * _channel(c.blue)


def contrast(a: HasRgb, b: HasRgb) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def mix(a: HasRgb, b: HasRgb, t: float) -> Rgb:
    """`a` moved a fraction `t` of the way to `b`."""
    return Rgb(a.red + (b.red - a.red) * t, a.green + (b.green - a.green) * t, a.blue + (b.blue - a.blue) * t)


def readable(fg: HasRgb, bg: HasRgb, minimum: float = MIN_CONTRAST) -> Rgb | None:
    """None when `fg` already reads on `bg`, else `fg` moved towards black or white (whichever side
    of `bg` it can reach the minimum on) by the smallest step that does."""
    if contrast(fg, bg) >= minimum:
        return None
    target = BLACK if contrast(BLACK, bg) >= contrast(WHITE, bg) else WHITE
    for step in range(1, 21):
        candidate = mix(fg, target, step / 20)
        if contrast(candidate, bg) >= minimum:
            return candidate
    return target
