"""Tabletop Simulator export: for each game, deck sheets (the distinct faces of a deck, up to 10 x 7
to an image, each card's picture rendered from the same drawing as the print kit), the images of
every token, tile and board side, and one saved-object JSON that loads the whole game as a bag.

The format targeted is TTS's save-file JSON (a SaveState whose ObjectStates hold the objects):
a deck is a `DeckCustom` whose `CustomDeck` maps a sheet number N to its face sheet (`FaceURL`,
`NumWidth` x `NumHeight` cards, read left to right, top to bottom), its back (`BackURL`, one image,
or a sheet of backs with `UniqueBack`), and `BackIsHidden: true` (the back stands for a hidden card,
so every slot of the sheet is a card); each card is a `Card` with `CardID` = N * 100 + slot, and
`DeckIDs` lists the deck's cards, a card once per copy. Tokens, tiles and boards are `Custom_Tile`
objects (type 0 a box, 2 a circle) with their front and back images; identical tokens are one
`Custom_Tile_Stack` with the same `CustomImage` and `Number` copies. Each die is a `Custom_Dice`
with `CustomDice.Type` 1 (a six-sided die, as public TTS saves write it, nested in `CustomImage`) and one `ImageURL`
laid out as TTS's own D6 template (`DIE_TEMPLATE`): a square of 3 x 3 cells, the top row unused, TTS's
faces 2 4 5 in the middle row and 1 3 6 in the bottom one, 1 and 6 drawn upside down as the template
draws them; and `RotationValues`: for each of TTS's faces 1 to 6, the value TTS reports when it lands
up (the printed face's number, or its name) and the rotation that shows it, TTS's own six rotations
for a D6 (-90 about x, none, -90 and 90 about z, -180 about z, 90 about x: faces 1 and 6, 2 and 5, 3
and 4 opposite). The print kit's faces go onto TTS's faces so that the same faces are opposite as on
the printed net (`documents.opposite_pairs`), and each cell of the image shows the face whose value
that TTS face reports.

Image URLs are bare file names (`<game>-<image>.png`, relative to the save's folder), never a path
of the building machine: TTS finds a bare name in its Mods/Images folder, where the README says to
copy the images; or they sit under the base URL given with `roadkit print --tts-url` once the
folder is uploaded somewhere others can read it.
Sizes: a card at scale 1 shows at poker size, so a deck's scale is its card height over the poker card's
(a 70 x 120 mm card: 1.36); a tile's `scaleX`/`scaleZ` are its sides in TTS's tile unit, measured
against those cards (`TILE_UNIT`), so every piece lies beside the cards at its printed size."""

from __future__ import annotations

import io
import json
import math
from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium
from PIL import Image

from generators.build_system.build_graph import TTS_CODE, Target, code_version, digest
from generators.content.loader import Content
from generators.content.model import Component, LoadedGame, Side, size_mm
from generators.pdf import documents
from generators.pdf.documents import die_value, map_opposites, opposite_pairs
from generators.pdf.faces import Look
from generators.pdf.print_targets import component_images

MAX_COLS, MAX_ROWS = 10, 7  # TTS deck sheets hold up to 10 x 7 cards
MAX_PIXELS = 4096  # TTS's advice for the longer side of a sheet
DPI = 150
TILE_KINDS = ("tokens", "tiles", "cubes", "board")
# TTS's D6 template (Modding/Dice Templates, shown on the knowledge base's Custom Dice page,
# kb.tabletopsimulator.com/custom-content/custom-dice, picture ps1): a square image of 3 x 3 cells whose top
# row is unused; each other cell names the TTS face (1 to 6) it paints. The template draws 1 and 6 upside down.
DIE_TEMPLATE = ((0, 0, 0), (2, 4, 5), (1, 3, 6))
DIE_UPSIDE_DOWN = frozenset({1, 6})
STACKED_KINDS = ("tokens", "cubes")  # identical copies of these stack; tiles and boards lie apart
DIE_DPI = 400  # an 18 mm face at 150 dpi is ~100 px, blurry on a die held up close in TTS
D6 = 1  # TTS's CustomDice type for a six-sided die
# TTS's rotations that show each face of a D6, faces 1 to 6 in order (faces k and 5 - k of this list are
# opposite), as saves write them in the RotationValues of TTS's D6 (found in public save-writing code, whose
# table for a plain D6 lists values 1 to 6 with these six and uses the same six for a custom D6).
D6_ROTATIONS = ((-90.0, 0.0, 0.0), (0.0, 0.0, 0.0), (0.0, 0.0, -90.0), (0.0, 0.0, 90.0), (0.0, 0.0, -180.0),
                (90.0, 0.0, 0.0))


@dataclass(frozen=True)
class Sheet:
    """One deck sheet: which sides it holds, in slot order, and its grid."""

    number: int  # the CustomDeck key
    sides: tuple[Side, ...]
    cols: int
    rows: int


def deck_sheets(comp: Component, first_number: int) -> list[Sheet]:
    """The distinct front faces of a deck on sheets of at most 10 x 7, numbered from `first_number`.
    A deck's sheet is at least 2 x 2 (as TTS's own deck templates are; spare slots stay blank); a
    lone card is a sheet of one."""
    faces = [f.front for f in comp.faces]
    least = 1 if comp.count == 1 else 2
    out: list[Sheet] = []
    for k in range(0, len(faces), MAX_COLS * MAX_ROWS):
        chunk = tuple(faces[k:k + MAX_COLS * MAX_ROWS])
        cols = max(least, min(MAX_COLS, len(chunk)))
        rows = max(least, math.ceil(len(chunk) / cols))
        out.append(Sheet(first_number + len(out), chunk, cols, rows))
    return out


def card_dpi(comp: Component, sheet: Sheet) -> float:
    """Print resolution, lowered where a full sheet would pass 4096 pixels."""
    w, h = size_mm(comp.size)
    return min(DPI, MAX_PIXELS / (sheet.cols * w / 25.4), MAX_PIXELS / (sheet.rows * h / 25.4))


def _render(content: Content, game: LoadedGame, comp: Component, side: Side, dpi: float):
    """One side as a PIL image, drawn by the print kit's own renderer."""

    pdf = pdfium.PdfDocument(documents.single_side(Look(game, content.icons), comp, side, ""))
    try:
        return pdf[0].render(scale=dpi / 72).to_pil().convert("RGB")
    finally:
        pdf.close()


def _png(image) -> bytes:
    buf = io.BytesIO()
    image.save(buf, format="PNG", optimize=True)
    return buf.getvalue()


def sheet_png(content: Content, game: LoadedGame, comp: Component, sheet: Sheet, backs: bool = False) -> bytes:
    dpi = card_dpi(comp, sheet)
    faces = sheet.sides if not backs else tuple(_back_of(comp, s) for s in sheet.sides)
    images = [_render(content, game, comp, side, dpi) for side in faces]
    w, h = images[0].size
    canvas = Image.new("RGB", (sheet.cols * w, sheet.rows * h), "white")
    for i, image in enumerate(images):
        canvas.paste(image, ((i % sheet.cols) * w, (i // sheet.cols) * h))
    return _png(canvas)


def die_faces(game: LoadedGame, comp: Component) -> list[Side]:
    """A die's faces in TTS's face order: the printed net's opposite pairs at faces k and 5 - k."""

    pairs = opposite_pairs(comp, map_opposites(game))
    order = [0] * 6
    for k in range(3):
        order[k], order[5 - k] = pairs[2 * k], pairs[2 * k + 1]
    return [comp.faces[i].front for i in order]


def die_value_text(side: Side) -> str:
    """What TTS reports for a face that lands up: its number, else its name."""

    value = die_value(side)
    return str(value) if value is not None else side.title.replace("\u00ad", "")


def die_png(content: Content, game: LoadedGame, comp: Component) -> bytes:
    """A die's six faces, each as the print kit draws it, laid out as TTS's D6 template (`DIE_TEMPLATE`)."""

    images = [_render(content, game, comp, side, DIE_DPI) for side in die_faces(game, comp)]
    cell = max(max(image.size) for image in images)
    canvas = Image.new("RGB", (len(DIE_TEMPLATE[0]) * cell, len(DIE_TEMPLATE) * cell), "white")
    for row, faces in enumerate(DIE_TEMPLATE):
        for col, face in enumerate(faces):
            if face:
                image = images[face - 1].resize((cell, cell))
                canvas.paste(image.rotate(180) if face in DIE_UPSIDE_DOWN else image, (col * cell, row * cell))
    return _png(canvas)


def _back_of(comp: Component, front: Side) -> Side:
    face = next(f for f in comp.faces if f.front is front)
    back = face.back or comp.back
    return back if back is not None else front


def _unique_backs(comp: Component) -> bool:
    return any(f.back is not None for f in comp.faces)


# ---------------------------------------------------------------------------------------------
# Files and the saved object


def _files(game: LoadedGame) -> Iterator[tuple[str, Component, tuple[str, Any]]]:
    """Every image the export writes: (file name, component, what it shows)."""
    number = 1
    for comp in game.components:
        if comp.kind == "cards":
            for sheet in deck_sheets(comp, number):
                yield f"{comp.id}-faces-{sheet.number}.png", comp, ("faces", sheet)
                if _unique_backs(comp):
                    yield f"{comp.id}-backs-{sheet.number}.png", comp, ("backs", sheet)
                number = sheet.number + 1
            if not _unique_backs(comp):
                yield f"{comp.id}-back.png", comp, ("back", comp.back)
        elif comp.kind == "dice":
            yield f"{comp.id}-die.png", comp, ("die", None)
        elif comp.kind in TILE_KINDS:
            for face in comp.faces:
                yield f"{comp.id}-{face.id}-front.png", comp, ("side", face.front)
                back = face.back or comp.back
                if back is not None:
                    yield f"{comp.id}-{face.id}-back.png", comp, ("side", back)


def tts_targets(content: Content, game: LoadedGame, out: Path, base_url: str | None = None) -> Iterator[Target]:
    """The images and the saved object of a game (none for a game with nothing to put on a table)."""
    if not any(c.kind in ("cards", "dice") or (c.kind in TILE_KINDS and c.faces) for c in game.components):
        return
    folder = out / "tts" / game.id
    # Relative by default: a bare file name, so the save names nothing of the building machine.
    # Names carry the game's id because TTS looks bare names up in one shared Mods/Images folder.
    prefix = f"{game.id}-"
    base = (base_url.rstrip("/") + "/" if base_url else "") + prefix

    code = code_version(*TTS_CODE)

    opposites = map_opposites(game)  # a direction die's face order follows the road tiles
    for name, comp, (what, thing) in _files(game):
        key = digest(code, "tts", name, game.game.theme, comp, content.icons, component_images(game, comp),
                     opposites if what == "die" else None)
        yield Target(folder / (prefix + name), key, partial(_image, content, game, comp, what, thing))
    data = saved_object(game, base)
    yield Target(folder / f"{game.id}.json", digest(code, "tts-json", data), partial(bytes, data))


def _image(content: Content, game: LoadedGame, comp: Component, what: str, thing) -> bytes:
    if what in ("faces", "backs"):
        return sheet_png(content, game, comp, thing, backs=what == "backs")
    if what == "die":
        return die_png(content, game, comp)
    side = thing if thing is not None else Side(title=comp.name, provenance="house")
    w, h = size_mm(comp.size)
    dpi = min(DPI, MAX_PIXELS / (max(w, h) / 25.4))
    return _png(_render(content, game, comp, side, dpi))


def _guid(*parts: object) -> str:
    return digest("tts-guid", *parts)[:6]


# Sizes on the table. TTS stores no physical size: a card shows at poker size at scale 1, and a tile's
# size is its scale times a unit of TTS's own. One published measurement (Clank Legacy's boards, 20 x 29 in
# at scale 22, beside its 2.5 x 3.5 in cards at scale 1: github.com/frankieliu/tts-tools,
# docs/TTS_SCALING_SOLVED.md) puts that unit at 1.300 x 1.318 in where a card is 3.5 in tall.
POKER_MM = 88.0  # the height a card shows at scale 1: our poker card (63 x 88 mm, as 2.5 x 3.5 in)
CARD_INCHES = 3.5  # that height in the measurement's inches
TILE_UNIT = (1.300 + 1.318) / 2  # card-relative inches a scale-1 tile spans (the measurement, both sides)


def card_scale(comp: Component) -> float:
    """A card's scale: its height over the poker card's (the width follows the sheet's cell)."""
    return size_mm(comp.size)[1] / POKER_MM


def tile_scale(comp: Component) -> tuple[float, float]:
    """A tile's scaleX and scaleZ: its sides in TTS's tile unit, measured against the cards."""
    w, h = size_mm(comp.size)
    return (w / POKER_MM * CARD_INCHES / TILE_UNIT, h / POKER_MM * CARD_INCHES / TILE_UNIT)


def _transform(x: float, z: float, scale: tuple[float, float] = (1.0, 1.0), face_down: bool = False) -> dict:
    return {"posX": round(x, 3), "posY": 1.0, "posZ": round(z, 3), "rotX": 0.0, "rotY": 180.0,
            "rotZ": 180.0 if face_down else 0.0, "scaleX": round(scale[0], 4), "scaleY": 1.0,
            "scaleZ": round(scale[1], 4)}


def _base(name: str, nickname: str, guid: str, transform: dict, description: str = "") -> dict:
    nickname = nickname.replace("\u00ad", "")  # a soft hyphen is a print break point, not part of the name
    return {"Name": name, "Transform": transform, "Nickname": nickname, "Description": description,
            "GMNotes": "", "ColorDiffuse": {"r": 0.713, "g": 0.713, "b": 0.713}, "Locked": False, "Grid": True,
            "Snap": True, "Autoraise": True, "Sticky": True, "Tooltip": True, "GUID": guid}


def saved_object(game: LoadedGame, base: str) -> bytes:
    """The saved-object JSON: one bag named after the game holding every deck, tile and board."""
    contained = []
    number = 1
    x = 0.0
    for comp in game.components:
        if comp.kind == "cards":
            sheets = deck_sheets(comp, number)
            number = sheets[-1].number + 1
            contained.append(_deck(comp, sheets, base, x))
        elif comp.kind in TILE_KINDS and comp.faces:
            contained.append(_tiles(comp, base, x))
        elif comp.kind == "dice":
            contained.append(_dice(game, comp, base, x))
        else:
            continue
        x += 3.0
    bag = _base("Bag", game.name, _guid(game.id, "bag"), _transform(0.0, 0.0),
                "Roadkit print kit: every deck, token, tile and board of the game.")
    bag["ContainedObjects"] = contained
    save = {"SaveName": "", "GameMode": "", "Date": "", "Gravity": 0.5, "PlayArea": 0.5, "Table": "", "Sky": "",
            "Note": "", "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "", "ObjectStates": [bag]}
    return (json.dumps(save, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def _custom_deck(comp: Component, sheet: Sheet, base: str) -> dict:
    unique = _unique_backs(comp)
    back = f"{comp.id}-backs-{sheet.number}.png" if unique else f"{comp.id}-back.png"
    return {"FaceURL": f"{base}{comp.id}-faces-{sheet.number}.png", "BackURL": f"{base}{back}",
            "NumWidth": sheet.cols, "NumHeight": sheet.rows, "BackIsHidden": True, "UniqueBack": unique, "Type": 0}


def _deck(comp: Component, sheets: list[Sheet], base: str, x: float) -> dict:
    decks = {str(s.number): _custom_deck(comp, s, base) for s in sheets}
    scale = card_scale(comp)
    cards, ids = [], []
    for sheet in sheets:
        for slot, side in enumerate(sheet.sides):
            face = next(f for f in comp.faces if f.front is side)
            for copy in range(face.count):
                card_id = sheet.number * 100 + slot
                card = _base("Card", side.title, _guid(comp.id, face.id, copy),
                             _transform(x, 0.0, (scale, scale), face_down=True))
                card.update({"CardID": card_id, "SidewaysCard": False,
                             "CustomDeck": {str(sheet.number): decks[str(sheet.number)]}})
                cards.append(card)
                ids.append(card_id)
    if len(cards) == 1:
        return cards[0]
    deck = _base("DeckCustom", comp.name, _guid(comp.id, "deck"), _transform(x, 0.0, (scale, scale), face_down=True),
                 comp.description or "")
    deck.update({"HideWhenFaceDown": True, "Hands": False, "SidewaysCard": False, "DeckIDs": ids,
                 "CustomDeck": decks, "ContainedObjects": cards})
    return deck


def _dice(game: LoadedGame, comp: Component, base: str, x: float) -> dict:
    """The component's dice, each a Custom_Dice wearing the faces image (a bag when there are several)."""
    dice = []
    values = [{"Value": die_value_text(side), "Rotation": dict(zip("xyz", rotation, strict=True))}
              for side, rotation in zip(die_faces(game, comp), D6_ROTATIONS, strict=True)]
    for copy in range(comp.count):
        die = _base("Custom_Dice", comp.name, _guid(comp.id, "die", copy), _transform(x, 0.0))
        die["CustomImage"] = {"ImageURL": f"{base}{comp.id}-die.png", "ImageSecondaryURL": "", "ImageScalar": 1.0,
                              "WidthScale": 0.0, "CustomDice": {"Type": D6}}
        die["RotationValues"] = values
        dice.append(die)
    if len(dice) == 1:
        return dice[0]
    bag = _base("Bag", comp.name, _guid(comp.id, "bag"), _transform(x, 0.0), comp.description or "")
    bag["ContainedObjects"] = dice
    return bag


def _tiles(comp: Component, base: str, x: float) -> dict:
    """A bag of the component's pieces: one tile per copy, identical tokens as a stack (a lone piece
    or stack stands alone)."""
    scale = tile_scale(comp)
    pieces = []
    for face in comp.faces:
        back = face.back or comp.back
        image = {"ImageURL": f"{base}{comp.id}-{face.id}-front.png",
                 "ImageSecondaryURL": f"{base}{comp.id}-{face.id}-{'back' if back else 'front'}.png",
                 "ImageScalar": 1.0, "WidthScale": 0.0,
                 "CustomTile": {"Type": 2 if comp.shape == "round" else 0,
                                # Thickness in TTS units ("about an inch", Custom Tile page): a thin piece.
                                "Thickness": 0.2 if comp.kind == "board" else 0.1,
                                # Stretch: the image is stretched onto a square tile (Custom Tile page,
                                # "Stretch Aspect Ratio"), so scaleX and scaleZ set its two sides.
                                "Stackable": comp.kind != "board", "Stretch": True}}
        if comp.kind in STACKED_KINDS and face.count > 1:
            # Identical tokens as one stack, as TTS saves a pile of tiles: `Number` is its height.
            stack = _base("Custom_Tile_Stack", face.front.title, _guid(comp.id, face.id, "stack"),
                          _transform(x, 0.0, scale))
            stack.update({"CustomImage": image, "Number": face.count})
            pieces.append(stack)
            continue
        for copy in range(face.count):
            tile = _base("Custom_Tile", face.front.title, _guid(comp.id, face.id, copy), _transform(x, 0.0, scale))
            tile["CustomImage"] = image
            pieces.append(tile)
    if len(pieces) == 1:
        return pieces[0]
    bag = _base("Bag", comp.name, _guid(comp.id, "bag"), _transform(x, 0.0), comp.description or "")
    bag["ContainedObjects"] = pieces
    return bag
