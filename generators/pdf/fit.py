"""Text fitting as a content check. Each side is drawn exactly as the print kit draws it, onto a
canvas that is thrown away, while an audit collects every text box that does not fit at its
minimum size; the first one becomes a located content error. The renderer and this check share
every layout rule and the one measuring function (text.measure), so they cannot disagree.

Drawing every side of every game is most of a no-op build's validation, so sides found to fit are
remembered in build/.cache/text-fit.json (for commands that write to build/: generators/build_system/build_cache.py),
keyed by everything the drawing reads: the side, its component's size, shape and count (the copy
label), the arrows of its deck (one scale per deck), its artwork's bytes, the game's theme, the
icons, and the whole generators package. A side that does not fit is never remembered, so the check
reports the same first mistake with or without the cache."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from generators.build_system import build_cache
from generators.build_system.build_graph import FIT_CODE, code_version, digest
from generators.content.loader import walk_sides
from generators.content.model import Component, Icons, LoadedGame, Side, size_mm
from generators.pdf.faces import Look, draw_side, token_like
from generators.pdf.text import Audit, Overflow, auditing

CACHE_FILE = "text-fit.json"


class _Fits:
    """Keys of sides known to fit, per game, from the last run (read once per command)."""

    def __init__(self) -> None:
        self.known: dict[str, list[str]] | None = None
        self.run = -1

    def of(self, game_id: str) -> frozenset[str]:
        if self.known is None or self.run != build_cache.run():
            self.known, self.run = _read(build_cache.read(CACHE_FILE)), build_cache.run()
        return frozenset(self.known.get(game_id, ()))

    def found(self, game_id: str, keys: list[str]) -> None:
        """This run's keys for a game, all of which fit: they replace the game's old ones."""

        if not build_cache.active():
            return
        self.of(game_id)
        assert self.known is not None
        self.known[game_id] = sorted(set(keys))
        data = {"code": code_version(*FIT_CODE), "games": dict(sorted(self.known.items()))}
        build_cache.stage(CACHE_FILE, (json.dumps(data, indent=0) + "\n").encode())


_FITS = _Fits()


def _read(raw: bytes | None) -> dict[str, list[str]]:
    try:
        data = json.loads(raw) if raw else None
    except ValueError:
        return {}
    if (not isinstance(data, dict) or data.get("code") != code_version(*FIT_CODE)
            or not isinstance(data.get("games"), dict)):
        return {}
    return {g: keys for g, keys in data["games"].items() if isinstance(keys, list)}


def side_keys(game: LoadedGame, icons: Icons) -> Iterator[tuple[Component, tuple[str | int, ...], Side, str]]:
    """Every side of the game with the key of everything its drawing reads."""

    base = digest(game.game.theme, icons)
    for comp in game.components:
        shape = replace(comp, faces=(), back=None)
        sides = list(walk_sides(comp))
        arrows = tuple(s.art.arrows for _, s in sides if s.art is not None and s.art.arrows)
        for path, side in sides:
            image = (Path(game.dir) / side.image).read_bytes() if side.image else None
            yield comp, path, side, digest(base, shape, arrows, side, image)


def audit_side(look, comp: Component, side: Side) -> Audit:
    """Draw one side (with the widest copy number it can carry) and return what its text did."""

    w, h = size_mm(comp.size)
    c = Canvas(io.BytesIO(), pagesize=(w * mm, h * mm), initialFontName=look.fonts.regular)
    with auditing() as audit:
        draw_side(c, look, comp, side, 0, 0, w * mm, h * mm, f"{comp.count}/{comp.count}")
    return audit


def overflows(game: LoadedGame, icons: Icons) -> Iterator[tuple[Component, tuple[str | int, ...], Overflow]]:
    """Every text box of the game that does not fit, in order; sides the cache knows to fit are skipped."""

    known = _FITS.of(game.id) if build_cache.active() else frozenset()
    fitting: list[str] = []
    look = None
    for comp, path, side, key in side_keys(game, icons):
        if key in known:
            fitting.append(key)
            continue
        look = look or Look(game, icons)
        found = audit_side(look, comp, side).overflows
        for overflow in found:
            yield comp, (*path, *overflow.key), overflow
        if not found:
            fitting.append(key)
    _FITS.found(game.id, fitting)


def check_images_drawn(game: LoadedGame) -> None:
    """Raise at the first `image:` its side would never print: only the card layout draws a picture
    file; a board or tile (`layout: full`) and a small piece draw their own art."""

    for comp in game.components:
        for path, side in walk_sides(comp):
            if side.image is None:
                continue
            drawn_as = ("a board or tile (layout: full)" if side.layout == "full"
                        else "a small piece (picture and name)" if token_like(comp, side) else None)
            if drawn_as:
                raise game.docs[comp.id].error((*path, "image"), f"this side prints as {drawn_as}, which shows no "
                                               "image file; draw it with art:, or give the image to a card-sized face")


def check_text_fit(game: LoadedGame, icons: Icons) -> None:
    """Raise the first text box of the game that cannot fit at its minimum size, at its YAML key."""
    check_images_drawn(game)
    for comp, path, overflow in overflows(game, icons):
        raise game.docs[comp.id].error(path, f"the text does not fit its box: {overflow.problem}")
