"""The print kit of a game as build targets: which documents and PNGs exist, and what each is made of."""

from __future__ import annotations

import io
import struct
import zlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path

import pypdfium2 as pdfium

from generators.build_system.build_graph import PRINT_CODE, Batch, Target, code_version, digest
from generators.content.loader import Content
from generators.content.model import Component, LoadedGame, Side
from generators.pdf import documents
from generators.pdf.calibration import calibration
from generators.pdf.documents import reads_beyond
from generators.pdf.faces import Look, deck_arrow_extent
from generators.pdf.fonts import register
from generators.pdf.options import CARD_KINDS, TOKEN_KINDS, Options

PNG_DPI = 150
CALIBRATION = "duplex-calibration.pdf"


def variant_dir(opts: Options) -> str:
    """build/print/<this>/: the paper, plus any non-default option, so variants never overwrite."""
    name = opts.paper
    if opts.ink_saver:
        name += "-ink-saver"
    if opts.proxies:
        name += "-proxies"
    if opts.back_offset != (0.0, 0.0):
        name += f"-offset-{opts.back_offset[0]:g}x{opts.back_offset[1]:g}mm"
    return name


def _inputs(game: LoadedGame, kinds: tuple[str, ...], icons: object) -> str:
    """What a document is made of: the game's name and theme, its components of these kinds (and
    their artwork files), the icons. Hashed once and shared by every paper and variant."""
    comps = tuple(c for c in game.components if c.kind in kinds)
    return digest(game.game.name, game.game.theme, comps, icons, _images(game, kinds))


def document_targets(content: Content, game: LoadedGame, variants: Sequence[Options], out: Path) -> Iterator[Target]:
    """Every document of `game` for each requested paper and variant."""
    code = code_version(*PRINT_CODE)
    kinds_present = {c.kind for c in game.components}
    # (file name, kinds, layout, the layout's extra arguments)
    made: list[tuple[str, tuple[str, ...], str, tuple[object, ...]]] = []
    if kinds_present & set(CARD_KINDS):
        made += [("cards-duplex", CARD_KINDS, "duplex", (CARD_KINDS, "cards")),
                      ("cards-gutterfold", CARD_KINDS, "gutterfold", (CARD_KINDS, "cards, gutterfold"))]
    if kinds_present & set(TOKEN_KINDS):
        made.append(("tokens", TOKEN_KINDS, "duplex", (TOKEN_KINDS, "tokens and tiles")))
    if "board" in kinds_present:
        made.append(("boards", ("board",), "boards", ()))
    if "dice" in kinds_present:
        made.append(("dice", ("dice",), "dice", ()))

    inputs = {kinds: _inputs(game, kinds, content.icons) for _, kinds, _, _ in made}
    for opts in variants:
        base = out / "print" / variant_dir(opts)
        printed = with_proxies(game) if opts.proxies else game
        for name, kinds, layout, args in made:
            beyond = reads_beyond(printed, layout, kinds, opts.paper)
            yield Target(base / f"{game.id}-{name}.pdf", digest(code, name, opts, inputs[kinds], beyond),
                         _render(layout, content, game, opts, *args))


def calibration_targets(variants: Sequence[Options], out: Path) -> Iterator[Target]:
    """The duplex calibration sheet of each paper and variant (one per folder, shared by every game)."""
    code = code_version(*PRINT_CODE)
    for opts in variants:
        yield Target(out / "print" / variant_dir(opts) / CALIBRATION, digest(code, "calibration", opts),
                     partial(_calibration, opts))


def warm_up(content: Content) -> None:
    """Register every game's fonts once, in this process, before workers fork (the renderers load with
    this module): each worker then starts ready instead of parsing the fonts again."""

    for family in {"dejavu-sans", *(game.game.theme.font for game in content.games)}:  # the calibration's too
        register(family)


def _calibration(opts: Options) -> bytes:
    return calibration(opts)


def _render(layout: str, content: Content, game: LoadedGame, opts: Options, *args: object) -> Callable[[], bytes]:
    """A document's maker."""

    def make() -> bytes:
        printed = with_proxies(game) if opts.proxies else game
        return getattr(documents, layout)(printed, Look(printed, content.icons, opts.ink_saver), opts, *args)

    return make


def with_proxies(game: LoadedGame) -> LoadedGame:
    """The game as the proxies kit prints it: every house side of a component that has write-in stand-ins
    (`proxy:`) replaced by them, face by face (same ids and counts); shared backs and other sides unchanged."""
    return replace(game, components=tuple(_proxied(c) for c in game.components))


def _proxied(comp: Component) -> Component:
    proxy = comp.proxy
    if proxy is None:
        return comp

    def swap(side: Side | None, stand_in: Side) -> Side | None:
        return stand_in if side is not None and side.provenance == "house" else side

    faces = tuple(replace(f, front=swap(f.front, proxy.front) or f.front,
                          back=swap(f.back, proxy.back or proxy.front))
                  for f in comp.faces)
    return replace(comp, faces=faces)


def _images(game: LoadedGame, kinds: tuple[str, ...]) -> tuple[str, ...]:
    """Hashes of artwork files the sides use, so replacing an image rebuilds."""
    return tuple(h for comp in game.components if comp.kind in kinds for h in component_images(game, comp))


def component_images(game: LoadedGame, comp: Component) -> tuple[str, ...]:
    """Hashes of the artwork files `comp`'s sides show: part of the key of anything that draws them."""
    return tuple(digest((Path(game.dir) / side.image).read_bytes()) for side in _all_sides(comp) if side.image)


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
    """A PNG per distinct side; the stale sides of one component are rendered together (one batch)."""

    base = digest(code_version(*PRINT_CODE), PNG_DPI, game.game.theme, content.icons)  # shared by every side
    batches: dict[str, Batch] = {}
    for comp, face_id, which, side in face_images(game):
        # A side's picture depends on the component's size and shape (and the scale its deck draws
        # arrows at), not on its other faces.
        shape = replace(comp, faces=(), back=None)
        image = digest((Path(game.dir) / side.image).read_bytes()) if side.image else None
        key = digest(base, shape, deck_arrow_extent(comp), side, image)
        if comp.id not in batches:
            batches[comp.id] = Batch(partial(render_pngs, content, game, comp))
        yield Target(out / "png" / game.id / png_name(comp, face_id, which), key,
                     partial(render_png, content, game, comp, side), batches[comp.id], side)


def render_png(content: Content, game: LoadedGame, comp: Component, side: Side) -> bytes:
    return render_pngs(content, game, comp, [side])[0]


def render_pngs(content: Content, game: LoadedGame, comp: Component, sides: Sequence[Side]) -> list[bytes]:
    """The PNG of each side: one document with a page per side, each page rasterised."""

    pdf = pdfium.PdfDocument(documents.single_sides(Look(game, content.icons), comp, sides, ""))
    try:
        return [png_bytes(pdf[i].render(scale=PNG_DPI / 72).to_pil()) for i in range(len(sides))]
    finally:
        pdf.close()


# The PNG exports are written with PNG's "None" row filter and zlib level 3. Measured on the five games'
# 510 faces (CPU to encode them all / total size): Pillow's encoder (adaptive row filters) at level 1
# 1.5 s / 13.6 MB, 3 1.6 s / 13.3 MB, 9 10.1 s / 12.2 MB; no filter at level 1 0.85 s / 11.6 MB, 3 0.83 s /
# 11.0 MB, 6 1.6 s / 10.0 MB. Faces are flat colours with anti-aliased edges, where the filters (chosen
# per row by trying all five) cost time and gain nothing: rows of one colour already compress best as they are.
PNG_COMPRESS_LEVEL = 3
_PNG_COLOUR_TYPE = {"L": 0, "RGB": 2, "RGBA": 6}  # 8 bits a sample


def png_bytes(image: object) -> bytes:
    """`image` (a PIL image) as a PNG file, each row unfiltered (see PNG_COMPRESS_LEVEL); modes other
    than 8-bit grey, RGB and RGBA go through Pillow's encoder."""
    colour_type = _PNG_COLOUR_TYPE.get(image.mode)  # type: ignore[attr-defined]
    if colour_type is None or 0 in image.size:  # type: ignore[attr-defined]
        buf = io.BytesIO()
        image.save(buf, format="PNG", compress_level=PNG_COMPRESS_LEVEL)  # type: ignore[attr-defined]
        return buf.getvalue()
    width, height = image.size  # type: ignore[attr-defined]
    raw = image.tobytes()  # type: ignore[attr-defined]
    stride = len(raw) // height
    rows = b"".join(b"\0" + raw[i:i + stride] for i in range(0, len(raw), stride))  # filter byte 0: None
    header = struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(rows, PNG_COMPRESS_LEVEL))
            + _chunk(b"IEND", b""))


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
