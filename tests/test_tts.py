"""The Tabletop Simulator export, checked against the format it targets: deck sheets of at most
10 x 7 cards whose grid matches the image, every card's slot showing that card, card ids that
point into their sheet, every copy present, tiles with their images, dice images in TTS's D6 template
with the values TTS reports matching the printed faces, every piece sized against the poker cards,
deterministic output.

What is checked here is checked against TTS's documentation and public saves, not in a running TTS
(there is none where these tests run): the D6 template's layout is read off the knowledge base's Custom
Dice page, the size unit from one published measurement (see the constants below)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from generators.content.model import size_mm
from tests.helpers import CONTENT, fingerprint, real_content, run_cli


def _with(*kinds: str) -> list[str]:
    """The games with a component of one of these kinds."""
    return [g.id for g in real_content().games if any(c.kind in kinds for c in g.components)]


GAMES = _with("cards")


@pytest.fixture(scope="module")
def export(print_kit: Path) -> Path:
    return print_kit  # the session's print kit with its TTS export (tests/conftest.py)


@cache
def game(game_id: str):
    content = real_content()
    return content, content.game(game_id)


def _saved(export: Path, game_id: str) -> dict:
    return json.loads((export / "tts" / game_id / f"{game_id}.json").read_text("utf-8"))


def _path(export: Path, game_id: str, url: str) -> Path:
    """Where a relative image URL points: a bare file name in the save's own folder."""
    assert "/" not in url and ":" not in url, url
    return export / "tts" / game_id / url


def _objects(save: dict) -> list[dict]:
    assert set(save) >= {"SaveName", "ObjectStates"}
    (bag,) = save["ObjectStates"]
    assert bag["Name"] == "Bag" and bag["GUID"]
    return bag["ContainedObjects"]


@pytest.mark.parametrize("game_id", GAMES)
def test_every_deck_matches_its_sheets(export: Path, game_id: str) -> None:
    _, g = game(game_id)
    decks = {o["Nickname"]: o for o in _objects(_saved(export, game_id)) if o["Name"] in ("DeckCustom", "Card")}
    for comp in (c for c in g.components if c.kind == "cards"):
        deck = decks[comp.name] if comp.name in decks else decks[comp.faces[0].front.title]
        cards = deck.get("ContainedObjects", [deck])
        assert len(cards) == comp.count, comp.id
        if deck["Name"] == "DeckCustom":
            assert deck["DeckIDs"] == [c["CardID"] for c in cards]
        w_mm, h_mm = size_mm(comp.size)
        for card in cards:
            number, slot = divmod(card["CardID"], 100)
            sheet = card["CustomDeck"][str(number)]
            assert 1 <= sheet["NumWidth"] <= 10 and 1 <= sheet["NumHeight"] <= 7
            assert slot < sheet["NumWidth"] * sheet["NumHeight"]
            assert sheet["BackIsHidden"] is True
            image = Image.open(_path(export, game_id, sheet["FaceURL"]))
            assert max(image.size) <= 4096
            cell_w, rem_w = divmod(image.width, sheet["NumWidth"])
            cell_h, rem_h = divmod(image.height, sheet["NumHeight"])
            assert rem_w == 0 and rem_h == 0, comp.id
            assert cell_w / cell_h == pytest.approx(w_mm / h_mm, rel=0.01)
            assert _path(export, game_id, sheet["BackURL"]).is_file()
        # Every face, copies counted: as many cards with its title as the content says.
        for face in comp.faces:
            titles = [c["Nickname"] for c in cards]
            assert titles.count(face.front.title) >= face.count


@pytest.mark.parametrize("game_id", GAMES)
def test_each_slot_shows_its_card(export: Path, game_id: str) -> None:
    """Cut a card out of its sheet: it is the face that card names, drawn by the print kit's renderer."""
    from generators.pdf import tts

    content, g = game(game_id)
    checked = 0
    number = 1
    for comp in (c for c in g.components if c.kind == "cards"):
        for sheet in tts.deck_sheets(comp, number):
            number = sheet.number + 1
            name = f"{game_id}-{comp.id}-faces-{sheet.number}.png"
            image = Image.open(export / "tts" / game_id / name).convert("RGB")
            w, h = image.width // sheet.cols, image.height // sheet.rows
            for slot in (0, len(sheet.sides) - 1):
                cell = image.crop(((slot % sheet.cols) * w, (slot // sheet.cols) * h,
                                   (slot % sheet.cols + 1) * w, (slot // sheet.cols + 1) * h))
                alone = tts._render(content, g, comp, sheet.sides[slot], tts.card_dpi(comp, sheet))
                assert alone.size == cell.size
                assert ImageChops.difference(alone, cell).getbbox() is None, (comp.id, slot)
                checked += 1
    assert checked >= 4


@pytest.mark.parametrize("game_id", _with("tokens", "tiles", "cubes", "board"))
def test_tokens_tiles_and_boards_are_tiles_with_their_images(export: Path, game_id: str) -> None:
    _, g = game(game_id)
    objects = _objects(_saved(export, game_id))
    for comp in (c for c in g.components if c.kind in ("tokens", "tiles", "cubes", "board") and c.faces):
        expected = sum(f.count for f in comp.faces)
        title = comp.faces[0].front.title.replace("\xad", "")  # a soft hyphen is for print only
        found = next(o for o in objects if o["Nickname"] in (comp.name, title))
        tiles = found.get("ContainedObjects", [found])
        assert sum(t.get("Number", 1) for t in tiles) == expected, comp.id
        for tile in tiles:
            # Identical tokens come as one stack; tiles and boards lie apart.
            stacked = comp.kind in ("tokens", "cubes") and tile.get("Number", 1) > 1
            assert tile["Name"] == ("Custom_Tile_Stack" if stacked else "Custom_Tile")
            custom = tile["CustomImage"]
            assert custom["CustomTile"]["Type"] == (2 if comp.shape == "round" else 0)
            for key in ("ImageURL", "ImageSecondaryURL"):
                assert _path(export, game_id, custom[key]).is_file(), (comp.id, key)
            w, h = size_mm(comp.size)
            # Beside a poker card (88 mm tall, 3.5 card inches at scale 1), at its printed size.
            shown = tuple(tile["Transform"][k] * TILE_INCHES * POKER_MM / CARD_INCHES for k in ("scaleX", "scaleZ"))
            assert shown == pytest.approx((w, h), rel=2e-3), comp.id


# The published measurement (github.com/frankieliu/tts-tools, docs/TTS_SCALING_SOLVED.md: Clank Legacy's
# 20 x 29 in boards at scale 22 beside its 2.5 x 3.5 in cards at scale 1): a scale-1 tile spans 1.300 x
# 1.318 of the inches in which a scale-1 card is 3.5 tall.
TILE_INCHES = (1.300 + 1.318) / 2
CARD_INCHES = 3.5
POKER_MM = 88.0


@pytest.mark.parametrize("game_id", [g.id for g in real_content().games])
def test_every_piece_lies_beside_the_cards_at_its_printed_size(export: Path, game_id: str) -> None:
    """Relative sizes: a deck's cards show at their height over the poker card's (a tarot card at 120/88,
    not at poker height), a tile at its sides in the tile unit; so any two pieces compare in TTS as
    printed: a 70 mm tile is 70/88 of a poker card's height, not 30 % more."""
    _, g = game(game_id)
    objects = {o["Nickname"]: o for o in _objects(_saved(export, game_id))}
    seen = 0
    for comp in g.components:
        if not comp.faces or comp.kind == "dice":
            continue
        found = objects.get(comp.name) or objects[comp.faces[0].front.title.replace("\xad", "")]
        pieces = found.get("ContainedObjects", [found]) if found["Name"] in ("Bag", "DeckCustom") else [found]
        w, h = size_mm(comp.size)
        for piece in [found, *pieces] if found["Name"] == "DeckCustom" else pieces:
            t = piece["Transform"]
            if comp.kind == "cards":
                assert t["scaleX"] == t["scaleZ"] == pytest.approx(h / POKER_MM, rel=1e-3), comp.id
            else:
                height = t["scaleZ"] * TILE_INCHES / CARD_INCHES * POKER_MM
                assert height == pytest.approx(h, rel=2e-3), comp.id
                assert t["scaleX"] / t["scaleZ"] == pytest.approx(w / h, rel=2e-3), comp.id
            seen += 1
    assert seen

DICE_GAMES = _with("dice")


@pytest.mark.parametrize("game_id", DICE_GAMES)
def test_dice_are_custom_dice_wearing_their_faces(export: Path, game_id: str) -> None:
    """Every die of the print is a Custom_Dice (a D6, type 1) whose image is TTS's D6 template: square,
    3 x 3 cells, the top row empty, each other cell the print kit's drawing of the face TTS paints there
    (1 and 6 upside down, as the template draws them), and that face is the one whose value TTS reports
    for it."""
    from generators.pdf import tts

    content, g = game(game_id)
    dice_comps = [c for c in g.components if c.kind == "dice"]
    assert dice_comps, game_id
    objects = _objects(_saved(export, game_id))
    for comp in dice_comps:
        found = next(o for o in objects if o["Nickname"] == comp.name)
        dice = found.get("ContainedObjects", [found])
        assert len(dice) == comp.count, comp.id
        urls = set()
        for die in dice:
            assert die["Name"] == "Custom_Dice"
            custom = die["CustomImage"]
            assert custom["CustomDice"] == {"Type": 1}
            urls.add(custom["ImageURL"])
        (url,) = urls
        image = Image.open(_path(export, game_id, url)).convert("RGB")
        assert image.width == image.height, comp.id
        cell, rem = divmod(image.width, 3)
        assert rem == 0, comp.id
        faces = tts.die_faces(g, comp)
        assert sorted(map(id, faces)) == sorted(id(f.front) for f in comp.faces), comp.id
        values = [r["Value"] for r in dice[0]["RotationValues"]]
        for (row, col), face in D6_TEMPLATE.items():
            box = (col * cell, row * cell, (col + 1) * cell, (row + 1) * cell)
            shown = image.crop(box)
            if face is None:
                assert shown.getextrema() == ((255, 255), (255, 255), (255, 255)), (comp.id, row, col)
                continue
            alone = tts._render(content, g, comp, faces[face - 1], tts.DIE_DPI).resize((cell, cell))
            if face in (1, 6):
                alone = alone.rotate(180)
            assert ImageChops.difference(alone, shown).getbbox() is None, (comp.id, face)
            assert values[face - 1] == tts.die_value_text(faces[face - 1]), (comp.id, face)


# TTS's D6 template (Modding/Dice Templates; the knowledge base's Custom Dice page shows it): 3 x 3 cells,
# the top row unused, faces 2 4 5 over 1 3 6. (row, column) -> the TTS face painted there.
D6_TEMPLATE = {(0, 0): None, (0, 1): None, (0, 2): None, (1, 0): 2, (1, 1): 4, (1, 2): 5, (2, 0): 1, (2, 1): 3,
               (2, 2): 6}


# A D6's RotationValues as public TTS saves list them (face order; faces k and 5 - k opposite).
PUBLIC_D6 = [(-90.0, 0.0, 0.0), (0.0, 0.0, 0.0), (0.0, 0.0, -90.0), (0.0, 0.0, 90.0), (0.0, 0.0, -180.0),
             (90.0, 0.0, 0.0)]


@pytest.mark.parametrize("game_id", DICE_GAMES)
def test_dice_report_their_faces_and_match_the_printed_net(export: Path, game_id: str) -> None:
    """Each Custom_Dice lists its six faces' values (the number, or the face's name) with TTS's D6
    rotations; faces TTS puts opposite are opposite on the printed net too (a standard die's add to
    7; the direction die's follow the road tiles)."""
    from generators.pdf import documents, tts

    _, g = game(game_id)
    opposites = documents.map_opposites(g)
    checked = 0
    objects = _objects(_saved(export, game_id))
    for comp in (c for c in g.components if c.kind == "dice"):
        found = next(o for o in objects if o["Nickname"] == comp.name)
        for die in found.get("ContainedObjects", [found]):
            rotations = die["RotationValues"]
            assert [(r["Rotation"]["x"], r["Rotation"]["y"], r["Rotation"]["z"]) for r in rotations] == PUBLIC_D6
            values = [r["Value"] for r in rotations]
            assert all(isinstance(v, str) and v for v in values), values
            faces = tts.die_faces(g, comp)
            assert values == [tts.die_value_text(f) for f in faces], comp.id
            slots = documents.net_order(comp, opposites)  # net slot -> face index
            net_pairs = {frozenset((slots[a], slots[b])) for a, b in documents.OPPOSITE_SLOTS}
            index = {id(f.front): i for i, f in enumerate(comp.faces)}
            tts_pairs = {frozenset((index[id(faces[k])], index[id(faces[5 - k])])) for k in range(3)}
            assert tts_pairs == net_pairs, comp.id
            if sorted(values) == list("123456"):
                assert all(int(values[k]) + int(values[5 - k]) == 7 for k in range(3)), values
            checked += 1
    assert checked


def test_base_url_and_deterministic_output(tmp_path: Path) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    for out in (first, second):
        result = run_cli("print", "--out", out, "--paper", "a4", "--no-png", "--tts", "--game", GAMES[0],
                         "--tts-url", "https://example.org/kit", "-q")
        assert result.returncode == 0, result.stderr
    a = fingerprint(first / "tts")
    assert a and a == fingerprint(second / "tts")
    save = json.loads((first / "tts" / GAMES[0] / f"{GAMES[0]}.json").read_text("utf-8"))
    urls = _urls(save)
    assert urls and all(u.startswith(f"https://example.org/kit/{GAMES[0]}/{GAMES[0]}-") for u in urls)
    for url in urls:
        assert (first / "tts" / GAMES[0] / url.rsplit("/", 1)[1]).is_file(), url


def _urls(value: object) -> list[str]:
    """Every image URL in a saved object (the keys TTS reads images from; an empty one means none)."""
    if isinstance(value, dict):
        return [u for k, v in value.items()
                for u in (([v] if v else []) if k.endswith("URL") and isinstance(v, str) else _urls(v))]
    if isinstance(value, list):
        return [u for v in value for u in _urls(v)]
    return []


def test_no_save_names_a_path_of_the_building_machine(export: Path) -> None:
    """Every save in the export: image URLs are bare names of files beside it, and neither the build
    folder nor a file:// URL appears anywhere in it, so the folder works once copied elsewhere."""
    saves = sorted((export / "tts").glob("*/*.json"))
    assert len(saves) >= len(GAMES)
    for path in saves:
        text = path.read_text("utf-8")
        assert "file:" not in text and str(export.resolve()) not in text and str(export) not in text
        urls = _urls(json.loads(text))
        assert urls, path
        for url in urls:
            assert "/" not in url and "\\" not in url and ":" not in url, (path.name, url)
            assert (path.parent / url).is_file(), (path.name, url)
            assert url.startswith(path.parent.name + "-"), url


def test_the_guide_documents_the_export() -> None:
    readme = (CONTENT.parent / "site" / "guide" / "printing.md").read_text("utf-8")
    assert "--tts" in readme and "Tabletop Simulator" in readme and "10 x 7" in readme


# The object types and fields this export writes, as public TTS saves spell them.
OBJECT_KEYS = {"Name", "Transform", "Nickname", "Description", "GUID"}
TRANSFORM_KEYS = {"posX", "posY", "posZ", "rotX", "rotY", "rotZ", "scaleX", "scaleY", "scaleZ"}
DECK_KEYS = {"FaceURL": str, "BackURL": str, "NumWidth": int, "NumHeight": int, "BackIsHidden": bool,
             "UniqueBack": bool, "Type": int}
PIECES = {"Card", "Custom_Tile", "Custom_Tile_Stack", "Custom_Dice"}


def _check_object(obj: dict, folder: Path, guids: set[str]) -> list[dict]:
    """Check one object's structure; return the playing pieces it is or holds."""
    assert set(obj) >= OBJECT_KEYS, obj.get("Name")
    assert set(obj["Transform"]) == TRANSFORM_KEYS
    assert len(obj["GUID"]) == 6 and obj["GUID"] not in guids, obj["GUID"]
    guids.add(obj["GUID"])
    name = obj["Name"]
    if name in ("Card", "DeckCustom"):
        for deck in obj["CustomDeck"].values():
            assert {k: type(deck[k]) for k in DECK_KEYS} == DECK_KEYS
            for key in ("FaceURL", "BackURL"):
                assert (folder / deck[key]).is_file(), deck[key]
    if name in ("Custom_Tile", "Custom_Tile_Stack", "Custom_Dice"):
        assert (folder / obj["CustomImage"]["ImageURL"]).is_file()
        assert ("CustomDice" if name == "Custom_Dice" else "CustomTile") in obj["CustomImage"]
    if name == "Custom_Tile_Stack":
        assert isinstance(obj["Number"], int) and obj["Number"] > 1
    if name == "DeckCustom":
        assert obj["DeckIDs"] == [c["CardID"] for c in obj["ContainedObjects"]]
        return [p for c in obj["ContainedObjects"] for p in _check_object(c, folder, guids)]
    if name == "Bag":
        return [p for c in obj["ContainedObjects"] for p in _check_object(c, folder, guids)]
    assert name in PIECES, name
    return [obj]


@pytest.mark.parametrize("game_id", [g.id for g in real_content().games])
def test_every_save_is_one_bag_holding_every_printed_piece(export: Path, game_id: str) -> None:
    """Each game's save, validated as a whole: one bag of known object types with their fields, unique
    GUIDs, every image present, and exactly as many cards, tiles, tokens, boards and dice of each
    component as the print kit prints."""
    _, g = game(game_id)
    folder = export / "tts" / game_id
    save = json.loads((folder / f"{game_id}.json").read_text("utf-8"))
    guids: set[str] = set()
    (bag,) = save["ObjectStates"]
    assert bag["Name"] == "Bag" and bag["Nickname"] == g.name
    pieces = _check_object(bag, folder, guids)
    expected = {"Card": 0, "Custom_Tile": 0, "Custom_Dice": 0}
    for comp in g.components:
        kind = {"cards": "Card", "dice": "Custom_Dice"}.get(comp.kind, "Custom_Tile")
        expected[kind] += comp.count if comp.faces else 0
    found = {k: sum(p.get("Number", 1) for p in pieces if p["Name"].removesuffix("_Stack") == k)
             for k in expected}
    assert found == expected
    # One object in the bag per component, named for it (a lone piece is named for its face).
    assert len(bag["ContainedObjects"]) == sum(1 for c in g.components if c.faces)
