"""The print kit of a game as build targets: which documents and PNGs exist, and what each is made of."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

from generators.content.loader import Content
from generators.content.model import Component, LoadedGame, Side
from generators.outputs import Target, code_version, digest
from generators.pdf.options import CARD_KINDS, TOKEN_KINDS, Options

PNG_DPI = 150


def variant_dir(opts: Options) -> str:
    """build/print/<this>/: the paper, plus any non-default option, so variants never overwrite."""
    name = opts.paper
    if opts.ink_saver:
        name += "-ink-saver"
    if opts.back_offset != (0.0, 0.0):
        name += f"-offset-{opts.back_offset[0]:g}x{opts.back_offset[1]:g}mm"
    return name


def _inputs(game: LoadedGame, kinds: tuple[str, ...], icons: object) -> tuple[object, ...]:
    """What a document is made of: the game's name and theme, its components of these kinds, icons."""
    comps = tuple(c for c in game.components if c.kind in kinds)
    return (game.game.name, game.game.theme, comps, icons)


def document_targets(content: Content, game: LoadedGame, opts: Options, out: Path) -> Iterator[Target]:
    code = code_version("pdf")
    kinds_present = {c.kind for c in game.components}
    base = out / "print" / variant_dir(opts)

    def target(name: str, kinds: tuple[str, ...], make) -> Target:
        key = digest(code, name, opts, _inputs(game, kinds, content.icons), _images(game, kinds))
        return Target(base / f"{game.id}-{name}.pdf", key, make)

    if kinds_present & set(CARD_KINDS):
        yield target("cards-duplex", CARD_KINDS, _render("duplex", content, game, opts, CARD_KINDS, "cards"))
        yield target("cards-gutterfold", CARD_KINDS,
                     _render("gutterfold", content, game, opts, CARD_KINDS, "cards, gutterfold"))
    if kinds_present & set(TOKEN_KINDS):
        yield target("tokens", TOKEN_KINDS, _render("duplex", content, game, opts, TOKEN_KINDS, "tokens and tiles"))
    if "board" in kinds_present:
        yield target("boards", ("board",), _render("boards", content, game, opts))
    if "dice" in kinds_present:
        yield target("dice", ("dice",), _render("dice", content, game, opts))


def _render(layout: str, content: Content, game: LoadedGame, opts: Options, *args: object) -> Callable[[], bytes]:
    """A document's maker; the renderers (and ReportLab) load only when something is stale."""

    def make() -> bytes:
        from generators.pdf import documents
        from generators.pdf.faces import Look

        return getattr(documents, layout)(game, Look(game, content.icons, opts.ink_saver), opts, *args)

    return make


def _images(game: LoadedGame, kinds: tuple[str, ...]) -> tuple[str, ...]:
    """Hashes of artwork files the sides use, so replacing an image rebuilds."""
    out = []
    for comp in game.components:
        if comp.kind not in kinds:
            continue
        for side in _all_sides(comp):
            if side.image:
                out.append(digest((Path(game.dir) / side.image).read_bytes()))
    return tuple(out)


def _all_sides(comp: Component) -> Iterator[Side]:
    if comp.back:
        yield comp.back
    for face in comp.faces:
        yield face.front
        if face.back:
            yield face.back


def png_name(comp: Component, face_id: str | None, which: str) -> str:
    return f"{comp.id}/{face_id}-{which}.png" if face_id else f"{comp.id}/back.png"


def face_images(game: LoadedGame) -> Iterator[tuple[Component, str | None, str, Side]]:
    """Each distinct side once: (component, face id or None for the shared back, front|back, side)."""
    for comp in game.components:
        for face in comp.faces:
            yield comp, face.id, "front", face.front
            if face.back is not None:
                yield comp, face.id, "back", face.back
        if comp.back is not None:
            yield comp, None, "back", comp.back


def png_targets(content: Content, game: LoadedGame, out: Path) -> Iterator[Target]:
    base = digest(code_version("pdf"), PNG_DPI, game.game.theme, content.icons)  # shared by every side
    for comp, face_id, which, side in face_images(game):
        # A side's picture depends on the component's size and shape, not on its other faces.
        shape = replace(comp, faces=(), back=None)
        image = digest((Path(game.dir) / side.image).read_bytes()) if side.image else None
        key = digest(base, shape, side, image)
        yield Target(out / "png" / game.id / png_name(comp, face_id, which), key,
                     lambda comp=comp, side=side: render_png(content, game, comp, side))


def render_png(content: Content, game: LoadedGame, comp: Component, side: Side) -> bytes:
    import pypdfium2 as pdfium

    from generators.pdf import documents
    from generators.pdf.faces import Look

    pdf = pdfium.PdfDocument(documents.single_side(Look(game, content.icons), comp, side, ""))
    try:
        image = pdf[0].render(scale=PNG_DPI / 72).to_pil()
    finally:
        pdf.close()
    buf = io.BytesIO()
    image.save(buf, format="PNG", optimize=True)
    return buf.getvalue()
