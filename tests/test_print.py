"""The print kit, read back from the PDFs: page sizes, every piece of every component, fonts,
text, determinism, and where cards and cut lines fall on a rasterised sheet."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pypdf
import pypdfium2 as pdfium
import pytest

from generators.content.loader import load_content
from tests.helpers import CONTENT, copy_content, fingerprint, run_cli

MM = 72 / 25.4
PAGE = {"a4": (210 * MM, 297 * MM), "letter": (612.0, 792.0)}
LABEL = re.compile(r"(?<![\d/])(\d+)/(\d+)(?![\d/])")


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("kit")
    result = run_cli("print", "--out", out, "-q")
    assert result.returncode == 0, result.stderr
    return out


def ready_games():
    return [g for g in load_content(CONTENT).games if g.game.status == "ready" and g.components]


def _pdfs(kit: Path, paper: str) -> list[Path]:
    return sorted((kit / "print" / paper).glob("*.pdf"))


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_page_sizes(kit: Path, paper: str) -> None:
    w, h = PAGE[paper]
    pdfs = _pdfs(kit, paper)
    assert pdfs
    for path in pdfs:
        for page in pypdf.PdfReader(path).pages:
            size = sorted((float(page.mediabox.width), float(page.mediabox.height)))
            assert size == pytest.approx(sorted((w, h)), abs=0.5), (path.name, size)


def _labels(path: Path, which: str) -> Counter[str]:
    """'k/N' piece labels printed on the pages whose scale note names `which` (fronts/backs)."""
    found: Counter[str] = Counter()
    for page in pypdf.PdfReader(path).pages:
        text = page.extract_text() or ""
        if which and which not in text:
            continue
        found.update(f"{a}/{b}" for a, b in LABEL.findall(text))
    return found


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("kind,doc,which", [("cards", "cards-duplex", "fronts"), ("cards", "cards-gutterfold", ""),
                                            ("tokens", "tokens", "fronts")])
def test_every_piece_is_printed_once(kit: Path, paper: str, kind: str, doc: str, which: str) -> None:
    """Each component of a kind prints labels 1/N..N/N exactly once across the document."""
    kinds = ("cards",) if kind == "cards" else ("tokens", "tiles", "cubes")
    for game in ready_games():
        comps = [c for c in game.components if c.kind in kinds]
        if not comps:
            continue
        expected: Counter[str] = Counter()
        for comp in comps:
            if comp.kind == "cubes" and not comp.faces:
                continue
            expected.update(f"{k}/{comp.count}" for k in range(1, comp.count + 1))
        found = _labels(kit / "print" / paper / f"{game.id}-{doc}.pdf", which)
        if kind == "tokens":
            # Tokens too small for a label print none; the big ones (tiles) must all be there.
            found = Counter({k: v for k, v in found.items() if k in expected})
            assert found <= expected
            continue
        assert found == expected, game.id


def test_duplex_backs_follow_fronts(kit: Path) -> None:
    for game in ready_games():
        if not any(c.kind == "cards" for c in game.components):
            continue  # a game without cards has no card document
        reader = pypdf.PdfReader(kit / "print" / "a4" / f"{game.id}-cards-duplex.pdf")
        kinds = []
        for page in reader.pages:
            text = page.extract_text() or ""
            kinds.append("backs" if "backs: flip on the long edge" in text else "fronts")
        for i, kind in enumerate(kinds):
            if kind == "backs":
                assert i > 0 and kinds[i - 1] == "fronts", (game.id, kinds)


def test_fonts_embedded_and_subset(kit: Path) -> None:
    for path in _pdfs(kit, "a4"):
        reader = pypdf.PdfReader(path)
        fonts = {}
        for page in reader.pages:
            resources = page.get("/Resources") or {}
            for font in (resources.get("/Font") or {}).values():
                font = font.get_object()
                descendants = font.get("/DescendantFonts")
                target = descendants[0].get_object() if descendants else font
                descriptor = target.get("/FontDescriptor")
                embedded = bool(descriptor and descriptor.get_object().get("/FontFile2"))
                fonts[str(font["/BaseFont"])] = embedded
        assert fonts, path.name
        for name, embedded in fonts.items():
            assert embedded, f"{path.name}: {name} is not embedded"
            assert re.match(r"/?[A-Z]{6}\+DejaVu", name), f"{path.name}: {name} is not a DejaVu subset"


def test_face_titles_present_as_text(kit: Path) -> None:
    for game in ready_games():
        text = ""
        for path in (kit / "print" / "a4").glob(f"{game.id}-*.pdf"):
            text += " ".join((p.extract_text() or "") for p in pypdf.PdfReader(path).pages)
        flat = re.sub(r"\s+", "", text)
        for comp in game.components:
            if comp.kind in ("cards", "board"):
                for face in comp.faces:
                    assert re.sub(r"\s+", "", face.front.title) in flat, (comp.id, face.front.title)


def test_scale_note_and_ruler_on_every_sheet(kit: Path) -> None:
    for path in _pdfs(kit, "letter"):
        for i, page in enumerate(pypdf.PdfReader(path).pages):
            text = page.extract_text() or ""
            assert "Print at 100%" in text and "50 mm" in text, (path.name, i)


def test_byte_identical_rebuild(kit: Path, tmp_path: Path) -> None:
    again = tmp_path / "again"
    result = run_cli("print", "--out", again, "-q")
    assert result.returncode == 0, result.stderr
    first = {k: v for k, v in fingerprint(kit).items() if not k.startswith(".")}
    second = {k: v for k, v in fingerprint(again).items() if not k.startswith(".")}
    assert first == second


def _render(path: Path, index: int, dpi: int = 72):
    pdf = pdfium.PdfDocument(str(path))
    image = pdf[index].render(scale=dpi / 72).to_pil().convert("L")
    pdf.close()
    return image


def test_raster_cards_and_cut_lines(kit: Path) -> None:
    """A4 poker sheet: 3x3 cards of 63x88 mm centred on the page; cut lines run to the page edge
    at every shared edge; the margin between lines is blank."""
    game = ready_games()[0]
    dpi = 100
    px = dpi / 25.4
    img = _render(kit / "print" / "a4" / f"{game.id}-cards-duplex.pdf", 0, dpi)
    x0 = (210 - 3 * 63) / 2
    y0 = (297 - 3 * 88) / 2  # from the top
    for k in range(4):
        x = round((x0 + 63 * k) * px)
        assert min(img.getpixel((x + d, 2)) for d in (-1, 0, 1)) < 200, f"no cut line at column edge {k}"
        y = round((y0 + 88 * k) * px)
        assert min(img.getpixel((2, y + d)) for d in (-1, 0, 1)) < 200, f"no cut line at row edge {k}"
    # Between two cut lines, in the top margin: nothing printed.
    assert img.getpixel((round((x0 + 31) * px), 3)) > 245
    # Inside each card: its background is printed (not paper white).
    for col in range(3):
        for row in range(3):
            cx = round((x0 + 63 * col + 31.5) * px)
            cy = round((y0 + 88 * row + 80) * px)
            assert img.getpixel((cx, cy)) < 250, (col, row)


def test_backs_are_mirrored(tmp_path: Path) -> None:
    """One card with a distinct back: on the backs page it sits in the mirrored (right) column."""
    content = copy_content(tmp_path, ("mission-drive",))
    comps = content / "mission-drive" / "components"
    for f in comps.glob("*.yaml"):
        if f.name != "boss-weapons.yaml":
            f.unlink()
    (comps / "boss-weapons.yaml").write_text(
        "id: one\nname: One\nkind: cards\ncount: 1\nback: {title: Back, provenance: house, color: '#000000'}\n"
        "faces:\n  - id: a\n    front: {title: Front, provenance: house}\n", "utf-8")
    out = tmp_path / "out"
    result = run_cli("print", "--content", content, "--out", out, "--paper", "a4", "--no-png")
    assert result.returncode == 0, result.stderr
    path = out / "print" / "a4" / "mission-drive-cards-duplex.pdf"
    px = 100 / 25.4
    back = _render(path, 1, 100)
    x0 = (210 - 3 * 63) / 2
    y = round(((297 - 88) / 2 + 6) * px)  # one row, centred on the page: its title band, in the back's black
    right = round((x0 + 2 * 63 + 31.5) * px)
    left = round((x0 + 31.5) * px)
    assert back.getpixel((right, y)) < 60 and back.getpixel((left, y)) > 245


def test_back_offset_moves_backs(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = run_cli("print", "--out", out, "--paper", "a4", "--no-png", "--back-offset", "2,0", "--game",
                     ready_games()[0].id)
    assert result.returncode == 0, result.stderr
    assert list((out / "print").glob("a4-offset-2x0mm/*cards-duplex.pdf"))


def test_text_prints_literally_and_cyrillic(tmp_path: Path) -> None:
    content = copy_content(tmp_path, ("mission-drive",))
    (content / "mission-drive" / "components" / "zz-literal.yaml").write_text(
        "id: literal\nname: Literal\nkind: cards\ncount: 1\nfaces:\n  - id: a\n    front:\n"
        "      title: '<b>Tom & \"Jerry\"</b>'\n      provenance: house\n      text: 'Дроноводи &amp; <i>x</i>'\n",
        "utf-8")
    out = tmp_path / "out"
    result = run_cli("print", "--content", content, "--out", out, "--paper", "a4", "--no-png")
    assert result.returncode == 0, result.stderr
    reader = pypdf.PdfReader(out / "print" / "a4" / "mission-drive-cards-duplex.pdf")
    text = "".join(p.extract_text() or "" for p in reader.pages)
    assert '<b>Tom & "Jerry"</b>' in text
    assert "Дроноводи &amp; <i>x</i>" in text


def test_png_per_face(kit: Path) -> None:
    from generators.pdf.kit import face_images, png_name

    for game in ready_games():
        for comp, face_id, which, _side in face_images(game):
            path = kit / "png" / game.id / png_name(comp, face_id, which)
            assert path.is_file() and path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", path


def test_boards_split_with_alignment_marks(kit: Path) -> None:
    from generators.content.model import size_mm

    for game in ready_games():
        boards = [c for c in game.components if c.kind == "board"]
        if not boards:
            continue
        reader = pypdf.PdfReader(kit / "print" / "a4" / f"{game.id}-boards.pdf")
        texts = [p.extract_text() or "" for p in reader.pages]
        big = [b for b in boards if max(size_mm(b.size)) > 280 or min(size_mm(b.size)) > 200]
        if big:
            assert any("part A2" in t or "part B1" in t for t in texts)
            assert any("→" in t or "↓" in t for t in texts)


def test_ink_saver_has_no_bleed_fills_and_less_ink(kit: Path, tmp_path: Path) -> None:
    game = ready_games()[0]
    out = tmp_path / "ink"
    result = run_cli("print", "--out", out, "--paper", "a4", "--no-png", "--ink-saver", "--game", game.id)
    assert result.returncode == 0, result.stderr
    normal = _render(kit / "print" / "a4" / f"{game.id}-cards-duplex.pdf", 0, 50)
    saver = _render(out / "print" / "a4-ink-saver" / f"{game.id}-cards-duplex.pdf", 0, 50)
    px = 50 / 25.4
    # 1.5 mm outside the top-left card's corner: inside the bleed.
    bleed = (round(((210 - 3 * 63) / 2 - 1.5) * px), round(((297 - 3 * 88) / 2 - 1.5) * px))
    assert normal.getpixel(bleed) < 250 and saver.getpixel(bleed) > 250

    def ink(img) -> float:
        return sum((255 - level) * n for level, n in enumerate(img.histogram())) / (img.width * img.height)

    assert ink(saver) < 0.7 * ink(normal)


def test_dice_print_as_nets_one_per_die(tmp_path: Path) -> None:
    content = copy_content(tmp_path, ("mission-drive",))
    faces = "".join(f"  - {{id: f{i}, front: {{title: 'Side {i}', provenance: house, art: {{pips: {i}}}}}}}\n"
                    for i in range(1, 7))
    (content / "mission-drive" / "components" / "zz-die.yaml").write_text(
        f"id: die\nname: Die\nkind: dice\ncount: 3\nsize: {{width: 18, height: 18}}\nfaces:\n{faces}", "utf-8")
    out = tmp_path / "out"
    result = run_cli("print", "--content", content, "--out", out, "--paper", "a4", "--no-png")
    assert result.returncode == 0, result.stderr
    reader = pypdf.PdfReader(out / "print" / "a4" / "mission-drive-dice.pdf")
    text = " ".join(p.extract_text() or "" for p in reader.pages)
    for i in range(1, 7):
        assert text.count(f"Side {i}") == 3  # every side once per die, three dice


def test_a_die_needs_six_faces(tmp_path: Path) -> None:
    content = copy_content(tmp_path, ("mission-drive",))
    (content / "mission-drive" / "components" / "zz-die.yaml").write_text(
        "id: die\nname: Die\nkind: dice\ncount: 3\nfaces:\n  - {id: a, front: {title: A, provenance: house}}\n",
        "utf-8")
    result = run_cli("validate", "--content", content)
    assert result.returncode == 2 and "a die has six faces" in result.stderr


def test_corner_left_prints_beside_the_title(tmp_path: Path) -> None:
    """A side's top-left mark (a card's cost) is printed, and the title starts to its right."""
    from generators.content.model import Component, Side
    from generators.pdf.documents import single_side
    from generators.pdf.faces import Look

    game = load_content(CONTENT, only=["mission-drive"]).game("mission-drive")
    icons = load_content(CONTENT, only=["mission-drive"]).icons
    comp = Component(id="c", name="C", kind="cards", count=1)
    side = Side(title="Heavy bomber", provenance="house", corner_left="7", corner="FPV ×3")
    plain_side = Side(title="Heavy bomber", provenance="house")

    def words(s: Side) -> dict[str, float]:
        pdf = pypdf.PdfReader(__import__("io").BytesIO(single_side(Look(game, icons), comp, s, "")))
        found: dict[str, float] = {}

        def visit(text: str, cm, tm, font, size) -> None:
            if text.strip():
                found.setdefault(text.strip(), tm[4] * cm[0] + cm[4])

        pdf.pages[0].extract_text(visitor_text=visit)
        return found

    marked, plain = words(side), words(plain_side)
    assert "7" in marked and "FPV ×3" in marked
    assert marked["Heavy bomber"] > plain["Heavy bomber"] + 5  # moved right of the mark
    assert marked["7"] < marked["Heavy bomber"]


def test_an_icon_picture_can_carry_its_own_colour() -> None:
    """`art: {icon, color}` paints the picture in that colour (a red triangle must print red)."""
    from generators.content.model import Art, Component, Side
    from generators.pdf.documents import single_side
    from generators.pdf.faces import Look

    content = load_content(CONTENT, only=["mission-drive"])
    game = content.game("mission-drive")
    comp = Component(id="c", name="C", kind="cards", count=1)

    def red_pixels(art: Art) -> int:
        side = Side(title="T", provenance="house", color="#202020", art=art)
        pdf = pdfium.PdfDocument(single_side(Look(game, content.icons), comp, side, ""))
        image = pdf[0].render(scale=1).to_pil().convert("RGB")
        pdf.close()
        return sum(1 for r, g, b in image.getdata() if r > 180 and g < 80 and b < 80)

    # The house footer is red already: the coloured picture adds hundreds more red pixels.
    assert red_pixels(Art(icon="skull", color="#e00000")) > red_pixels(Art(icon="skull")) + 500
# --- the proxies kit: write-in stand-ins instead of house designs ----------------------------------


def _text(path: Path) -> str:
    return " ".join(p.extract_text() or "" for p in pypdf.PdfReader(path).pages)


@pytest.fixture(scope="module")
def proxies_kit(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("proxies")
    result = run_cli("print", "--out", out, "--paper", "a4", "--no-png", "--proxies", "--game", "mission-drive", "-q")
    assert result.returncode == 0, result.stderr
    return out


def test_proxies_kit_has_its_own_folder_and_every_document(kit: Path, proxies_kit: Path) -> None:
    default = sorted(p.name for p in (kit / "print" / "a4").glob("mission-drive-*.pdf"))
    assert sorted(p.name for p in (proxies_kit / "print" / "a4-proxies").glob("*.pdf")) == default
    assert not (proxies_kit / "print" / "a4").exists()


def test_proxies_kit_prints_write_in_faces_where_the_default_prints_house_designs(kit: Path,
                                                                                  proxies_kit: Path) -> None:
    game = load_content(CONTENT, ["mission-drive"]).game("mission-drive")
    upgrades = next(c for c in game.components if c.id == "upgrade-cards")
    assert upgrades.proxy is not None
    write_in = upgrades.proxy.front.subtitle
    default = _text(kit / "print" / "a4" / "mission-drive-cards-duplex.pdf")
    proxies = _text(proxies_kit / "print" / "a4-proxies" / "mission-drive-cards-duplex.pdf")
    assert default.count(write_in) == 0 and proxies.count(write_in) == upgrades.count
    for face in upgrades.faces:  # our designs are in the default kit only
        assert face.front.title in default and face.front.title not in proxies, face.id
    for label in ("Name", "Charge spaces", "Device card (yes / no)", "Effect"):
        assert label in proxies
    # Rulebook faces print in both kits; every piece keeps its k/N label.
    assert "Enemy Card" in default and "Enemy Card" in proxies and "Laser" in proxies
    assert _labels(proxies_kit / "print" / "a4-proxies" / "mission-drive-cards-duplex.pdf", "fronts") == \
        _labels(kit / "print" / "a4" / "mission-drive-cards-duplex.pdf", "fronts")
    tiles = _text(proxies_kit / "print" / "a4-proxies" / "mission-drive-tokens.pdf")
    assert "Boss Tile" in tiles and "Tank" not in tiles


def _ruled_rows(path: Path, page: int) -> int:
    """Pixel rows crossing the top-left card's body from side to side (ruled write-in lines)."""
    img = _render(path, page, 100)
    px = 100 / 25.4
    left, top = (210 - 3 * 63) / 2, (297 - 3 * 88) / 2
    x0, x1 = round((left + 8) * px), round((left + 58) * px)
    return sum(1 for y in range(round((top + 40) * px), round((top + 75) * px))
               if sum(img.getpixel((x, y)) < 200 for x in range(x0, x1)) > 0.95 * (x1 - x0))


def test_write_in_lines_are_drawn_ruled(kit: Path, proxies_kit: Path) -> None:
    """The first upgrade card has the Effect entry's ruled lines across its body; our design has none."""
    page = 6  # the sheet of upgrade fronts, in both kits
    assert "Upgrade" in pypdf.PdfReader(proxies_kit / "print" / "a4-proxies" / "mission-drive-cards-duplex.pdf")\
        .pages[page].extract_text()
    assert _ruled_rows(proxies_kit / "print" / "a4-proxies" / "mission-drive-cards-duplex.pdf", page) >= 4
    assert _ruled_rows(kit / "print" / "a4" / "mission-drive-cards-duplex.pdf", page) == 0


def test_with_proxies_swaps_only_house_sides() -> None:
    from generators.pdf.kit import with_proxies

    game = load_content(CONTENT, ["mission-drive"]).game("mission-drive")
    swapped = {c.id: c for c in with_proxies(game).components}
    for comp in game.components:
        new = swapped[comp.id]
        assert [(f.id, f.count) for f in new.faces] == [(f.id, f.count) for f in comp.faces]
        assert new.back == comp.back, "a shared back stays"
        proxy = comp.proxy
        for old, face in zip(comp.faces, new.faces, strict=True):
            for before, after, which in ((old.front, face.front, "front"), (old.back, face.back, "back")):
                if proxy is not None and before is not None and before.provenance == "house":
                    assert after == (proxy.front if which == "front" else proxy.back or proxy.front)
                else:
                    assert after == before
    movement = swapped["movement-cards"]
    assert {f.front.provenance for f in movement.faces} == {"proxy", "rulebook"}  # enemy and civilian cards stay
    mission = swapped["mission-cards"].faces[0]
    assert (mission.front.color, mission.back.color) == ("green", "pink")


@pytest.mark.parametrize(("component", "text"), [
    ("id: x\nname: X\nkind: cards\ncount: 1\nproxy: {front: {title: P, provenance: proxy}}\n"
     "faces:\n  - {id: a, front: {title: A, provenance: rulebook, section: S}}\n", "no face has a house side"),
    ("id: x\nname: X\nkind: cards\ncount: 1\nproxy: {front: {title: P, provenance: house}}\n"
     "faces:\n  - {id: a, front: {title: A, provenance: house}}\n", "a write-in stand-in is provenance: proxy"),
    ("id: x\nname: X\nkind: cards\ncount: 1\n"
     "faces:\n  - {id: a, front: {title: A, provenance: house, write_in: [{label: Name}]}}\n", "belong on proxy"),
])
def test_proxy_mistakes_are_located(tmp_path: Path, component: str, text: str) -> None:
    content = copy_content(tmp_path, ("mission-drive",))
    (content / "mission-drive" / "components" / "zz-x.yaml").write_text(component, "utf-8")
    result = run_cli("validate", "--content", content)
    assert result.returncode == 2 and text in result.stderr and "zz-x.yaml:" in result.stderr, result.stderr
