"""What a print run is asked for, and which component kinds go into which document. Kept apart
from the renderers so that deciding what to build does not load ReportLab."""

from __future__ import annotations

from dataclasses import dataclass

CARD_KINDS = ("cards",)
TOKEN_KINDS = ("tokens", "tiles", "cubes")


@dataclass(frozen=True)
class Options:
    paper: str = "a4"
    back_offset: tuple[float, float] = (0.0, 0.0)  # mm, applied to back pages (printer duplex drift)
    ink_saver: bool = False
    proxies: bool = False  # write-in stand-ins (a component's `proxy:`) instead of its house sides
