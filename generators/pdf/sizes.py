"""Sizes that fit, as a content check: a marker is no larger than the squares of the tracks it sits on
(`sits_on`), and a slot is at least every piece it holds (`holds`). The squares are measured from the
faces as the print kit draws them (the same drawing as the text-fit check), so a track laid out
smaller by the renderer is caught as surely as a marker made larger in the content."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from reportlab.lib.units import mm

from generators.content.loader import walk_sides
from generators.content.model import Component, Icons, LoadedGame, size_mm
from generators.pdf.faces import Look
from generators.pdf.fit import audit_side

KeyPath = tuple[str | int, ...]
SLACK = 0.01  # mm: rounding of the drawing


@dataclass(frozen=True)
class Pair:
    """One declared fit: what goes (`piece`, w x h mm) where (`place`, w x h mm)."""

    comp: Component  # the component whose YAML declares the pair
    key: KeyPath  # where it is declared
    piece: str
    piece_size: tuple[float, float]
    place: str
    place_size: tuple[float, float]
    marker: bool  # True: a marker on a track's square (at most); False: a piece in a slot (at least)

    @property
    def fits(self) -> bool:
        (pw, ph), (sw, sh) = self.piece_size, self.place_size
        if self.marker:
            return max(pw, ph) <= min(sw, sh) + SLACK
        return (pw <= sw + SLACK and ph <= sh + SLACK) or (ph <= sw + SLACK and pw <= sh + SLACK)

    @property
    def problem(self) -> str:
        (pw, ph), (sw, sh) = self.piece_size, self.place_size
        if self.marker:
            return (f"the {pw:g} x {ph:g} mm {self.piece} is larger than the {sw:.1f} mm squares of {self.place} "
                    f"it sits on: make it at most {sw:.1f} mm, or the squares larger")
        return (f"the slot is {sw:g} x {sh:g} mm, smaller than the {pw:g} x {ph:g} mm {self.piece} it holds: "
                "make it at least the piece, or a panel (a layout guide) that outlines no slot")


def smallest_square(look: Look, comp: Component) -> float | None:
    """The side (mm) of the smallest track or grid square any side of `comp` draws, or None if it has none."""
    cells = [min(w, h) / mm for _, side in walk_sides(comp)
             for role, (_, _, w, h) in audit_side(look, comp, side).boxes if role == "cell"]
    return min(cells) if cells else None


def pairs(game: LoadedGame, icons: Icons) -> Iterator[Pair | tuple[Component, KeyPath, str]]:
    """Every declared pair of the game, or (component, key, problem) where a declaration names nothing usable."""
    by_id = {c.id: c for c in game.components}
    look = Look(game, icons)
    squares: dict[str, float | None] = {}
    for comp in game.components:
        for i, target in enumerate(comp.sits_on):
            track = by_id.get(target)
            if track is None:
                yield comp, ("sits_on", i), f"no component {target!r} in this game"
                continue
            if target not in squares:
                squares[target] = smallest_square(look, track)
            square = squares[target]
            if square is None:
                yield comp, ("sits_on", i), f"{track.name} draws no track or grid squares to sit on"
                continue
            yield Pair(comp, ("sits_on", i), comp.name, size_mm(comp.size), track.name, (square, square), True)
        for path, side in walk_sides(comp):
            for j, el in enumerate(side.elements):
                for k, held in enumerate(el.holds):
                    key = (*path, "elements", j, "holds", k)
                    piece = by_id.get(held)
                    if piece is None:
                        yield comp, key, f"no component {held!r} in this game"
                        continue
                    yield Pair(comp, key, piece.name, size_mm(piece.size), f"{comp.name} slot",
                               (el.width, el.height), False)


def check_sizes(game: LoadedGame, icons: Icons) -> None:
    """Raise at the first declaration whose piece does not fit where it goes, at its YAML key."""
    for found in pairs(game, icons):
        if isinstance(found, Pair):
            if not found.fits:
                raise game.docs[found.comp.id].error(found.key, found.problem)
        else:
            comp, key, problem = found
            raise game.docs[comp.id].error(key, problem)
