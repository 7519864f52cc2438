"""Text fitting as a content check. Each side is drawn exactly as the print kit draws it, onto a
canvas that is thrown away, while an audit collects every text box that does not fit at its
minimum size; the first one becomes a located content error. The renderer and this check share
every layout rule and the one measuring function (text.measure), so they cannot disagree."""

from __future__ import annotations

import io
from collections.abc import Iterator

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from generators.content.loader import walk_sides
from generators.content.model import Component, Icons, LoadedGame, Side, size_mm
from generators.pdf.faces import Look, draw_side
from generators.pdf.text import Audit, Overflow, auditing


def audit_side(look: Look, comp: Component, side: Side) -> Audit:
    """Draw one side (with the widest copy number it can carry) and return what its text did."""
    w, h = size_mm(comp.size)
    c = Canvas(io.BytesIO(), pagesize=(w * mm, h * mm), initialFontName=look.fonts.regular)
    with auditing() as audit:
        draw_side(c, look, comp, side, 0, 0, w * mm, h * mm, f"{comp.count}/{comp.count}")
    return audit


def overflows(game: LoadedGame, icons: Icons) -> Iterator[tuple[Component, tuple[str | int, ...], Overflow]]:
    look = Look(game, icons)
    for comp in game.components:
        for path, side in walk_sides(comp):
            for overflow in audit_side(look, comp, side).overflows:
                yield comp, (*path, *overflow.key), overflow


def check_text_fit(game: LoadedGame, icons: Icons) -> None:
    """Raise the first text box of the game that cannot fit at its minimum size, at its YAML key."""
    for comp, path, overflow in overflows(game, icons):
        raise game.docs[comp.id].error(path, f"the text does not fit its box: {overflow.problem}")
