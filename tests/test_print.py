"""The print kit, read back from the PDFs: page sizes, every piece of every component, fonts,
text, determinism, where cards and cut lines fall on a rasterised sheet, and the sheet geometry
home printers need, measured in millimetres: furniture inside the printable area and never crossed
by a cut line, cut marks with printable length, separators, duplex pairing and registration,
boards whose sheets assemble, dice nets and the calibration sheet."""

from __future__ import annotations

import re
from collections import Counter
from functools import cache
from itertools import pairwise
from pathlib import Path

import pypdf
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_raw
import pytest

from generators.content.loader import load_content
from generators.pdf.options import TOKEN_KINDS
from generators.pdf.sheets import CUT, GUIDE
from tests import pdfgeom
from tests.helpers import CONTENT, copy_content, fingerprint, run_cli

MM = 72 / 25.4
PAGE = {"a4": (210 * MM, 297 * MM), "letter": (612.0, 792.0)}
LABEL = re.compile(r"(?<![\d/])(\d+)/(\d+)(?![\d/])")
RGB_CUT = (CUT.red, CUT.green, CUT.blue)
RGB_GUIDE = (GUIDE.red, GUIDE.green, GUIDE.blue)
DEAD = 5 * MM  # what a home printer may leave blank
SAFE = 6 * MM  # where anything that matters must start
PAPERS = ("a4", "letter")


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("kit")
    result = run_cli("print", "--out", out, "-q")
    assert result.returncode == 0, result.stderr
    return out


@cache
def ready_games():
    return [g for g in load_content(CONTENT).games if g.game.status == "ready" and g.components]


def _pdfs(kit: Path, paper: str) -> list[Path]:
    return sorted((kit / "print" / paper).glob("*.pdf"))


@cache
def geometry(path: Path) -> list[pdfgeom.Page]:
    return pdfgeom.read(path)


@cache
def texts(path: Path) -> tuple[str, ...]:
    """The text of each page (pdfium's text layer: faster than pypdf's, same words)."""
    pdf = pdfium.PdfDocument(str(path))
    try:
        return tuple(page.get_textpage().get_text_range() for page in pdf)
    finally:
        pdf.close()


def mm(points: float) -> float:
    return points / MM


# ---------------------------------------------------------------------------------------------
# Pages, pieces, fonts, text


@pytest.mark.parametrize("paper", PAPERS)
def test_page_sizes(kit: Path, paper: str) -> None:
    w, h = PAGE[paper]
    pdfs = _pdfs(kit, paper)
    assert pdfs
    for path in pdfs:
        for page in pypdf.PdfReader(path).pages:
            size = sorted((float(page.mediabox.width), float(page.mediabox.height)))
            assert size == pytest.approx(sorted((w, h)), abs=0.5), (path.name, size)


def _labels(path: Path, which: str) -> Counter[str]:
    """'k/N' piece labels printed on the pages whose note names `which` (fronts/backs)."""
    found: Counter[str] = Counter()
    for text in texts(path):
        if which and which not in text:
            continue
        found.update(f"{a}/{b}" for a, b in LABEL.findall(text))
    return found


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("kind,doc,which", [("cards", "cards-duplex", ": fronts."), ("cards", "cards-gutterfold", ""),
                                            ("tokens", "tokens", ": fronts.")])
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


def _legends(kit: Path, paper: str, game_id: str, doc: str) -> int:
    path = kit / "print" / paper / f"{game_id}-{doc}.pdf"
    return "".join(texts(path)).count("Reading the tags") if path.exists() else 0


def test_one_legend_card_per_game(kit: Path) -> None:
    """Whichever card document a player prints (duplex or gutterfold), the kit holds one legend card:
    with the tokens when it fits on their sheets, else with the cards."""
    in_tokens = 0
    for paper in PAPERS:
        for game in ready_games():
            tokens = _legends(kit, paper, game.id, "tokens")
            in_tokens += tokens
            if not any(c.kind == "cards" for c in game.components):
                assert tokens == 1, (paper, game.id)
                continue
            for doc in ("cards-duplex", "cards-gutterfold"):
                assert tokens + _legends(kit, paper, game.id, doc) == 1, (paper, game.id, doc)
                text = "".join(texts(kit / "print" / paper / f"{game.id}-{doc}.pdf"))
                assert "house design · not the publisher's" in text
    assert in_tokens >= 3  # a legend that fits with the tokens costs no card sheet


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
            text += " ".join(texts(path))
        flat = re.sub(r"\s+", "", text)
        for comp in game.components:
            if comp.kind in ("cards", "board"):
                for face in comp.faces:
                    assert re.sub(r"\s+", "", face.front.title) in flat, (comp.id, face.front.title)


def test_scale_note_and_ruler_on_every_sheet(kit: Path) -> None:
    for paper in PAPERS:
        for path in _pdfs(kit, paper):
            for i, (text, geo) in enumerate(zip(texts(path), geometry(path), strict=True)):
                assert "Print at 100" in text and "50 mm" in text, (path.name, i)
                rulers = [f for f in geo.forms if f.name == "roadkit-ruler"]
                assert len(rulers) == 1, (path.name, i)


def test_ruler_measures_50_mm(kit: Path) -> None:
    for path in _pdfs(kit, "letter"):
        geo = geometry(path)[0]
        ticks = sorted({round(s.x0, 3) for s in geo.segments
                        if s.form == "roadkit-ruler" and abs(s.x0 - s.x1) < 1e-6})
        assert len(ticks) == 51, path.name
        assert mm(ticks[-1] - ticks[0]) == pytest.approx(50.0, abs=0.005), path.name


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
    """A4 poker sheet: 3x3 cards of 63x88 mm, 10.5 mm from the sides and centred between the top
    margin and the furniture band; cut lines run to the page edge at every shared edge; the margin
    between lines is blank."""
    game = ready_games()[0]
    dpi = 100
    px = dpi / 25.4
    img = _render(kit / "print" / "a4" / f"{game.id}-cards-duplex.pdf", 0, dpi)
    x0 = (210 - 3 * 63) / 2
    y0 = 10.5 + (297 - 10.5 - 16.5 - 3 * 88) / 2  # from the top
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


# ---------------------------------------------------------------------------------------------
# Margins: furniture inside the printable area, cut marks with printable length


def _objects(path: Path):
    """Per page: pdfium's top-level text and form objects with their page bounds."""
    pdf = pdfium.PdfDocument(str(path))
    try:
        out = []
        for page in pdf:
            found = []
            for obj in page.get_objects(max_depth=1):
                if obj.type in (pdfium_raw.FPDF_PAGEOBJ_TEXT, pdfium_raw.FPDF_PAGEOBJ_FORM):
                    found.append((obj.type, obj.get_bounds()))
            out.append(found)
        return out
    finally:
        pdf.close()


def _clear_of_edges(box: tuple[float, float, float, float], w: float, h: float) -> float:
    left, bottom, right, top = box
    return min(left, bottom, w - right, h - top)


@pytest.mark.parametrize("paper", PAPERS)
def test_nothing_that_matters_within_6_mm_of_the_edge(kit: Path, paper: str) -> None:
    """Every text and every placed form (ruler, marks) keeps 6 mm from every page edge; a board's
    window (the part of its form that shows) does too."""
    for path in _pdfs(kit, paper):
        for n, (objects, geo) in enumerate(zip(_objects(path), geometry(path), strict=True)):
            placed = iter([f for f in geo.forms if f.within is None])  # in the order pdfium lists them
            for kind, box in objects:
                if kind == pdfium_raw.FPDF_PAGEOBJ_FORM:
                    form = next(placed)
                    if form.name.startswith(SHOWN_THROUGH_A_CLIP):
                        # pdfium reports such a form by its whole bounding box: what shows is its clip.
                        assert form.clip is not None, (path.name, n, form.name)
                        box = form.clip
                assert _clear_of_edges(box, geo.width, geo.height) >= SAFE - 0.01, (path.name, n, [mm(v) for v in box])


# A board's window of its form; a face's picture mirrored into its bleed, through the bleed's region.
SHOWN_THROUGH_A_CLIP = ("roadkit-board", "roadkit-picture")


def _furniture(path: Path) -> list[list[tuple[float, float, float, float]]]:
    """Per page: the boxes of the scale note's line, the sheet's name line above it (part names,
    flip instructions), and the ruler."""
    pdf = pdfium.PdfDocument(str(path))
    out = []
    try:
        for page in pdf:
            tp = page.get_textpage()
            glyphs = _glyphs(tp)
            hit = tp.search("Print at 100").get_next()
            assert hit, path.name
            k = next(n for n, (i, _) in enumerate(glyphs) if i >= hit[0])
            note = _line(glyphs, k)
            above = [line for line in (_line(glyphs, note[0] - 1), _line(glyphs, note[-1] + 1))
                     if line and min(glyphs[n][1][1] for n in line) > glyphs[note[0]][1][1] + 3]
            assert above, (path.name, "no line above the scale note")
            out.append([_box([glyphs[n][1] for n in line]) for line in (note, above[0])])
    finally:
        pdf.close()
    for boxes, geo, forms in zip(out, geometry(path), _forms(path), strict=True):
        ruler = next(f for f in geo.forms if f.name == "roadkit-ruler")
        boxes.append(forms[tuple(round(v, 2) for v in ruler.origin)])
    return out


def _glyphs(tp) -> list[tuple[int, tuple[float, float, float, float]]]:
    """(index, box) of every visible character, in drawing order."""
    return [(i, tp.get_charbox(i)) for i in range(tp.count_chars()) if tp.get_text_range(i, 1).strip()]


def _line(glyphs: list, k: int) -> list[int]:
    """Positions (in `glyphs`) of the line glyph k belongs to: neighbours in drawing order on the
    same baseline, each to the right of the one before (one drawString)."""
    if not 0 <= k < len(glyphs):
        return []

    def within(a: int, b: int) -> bool:  # a's vertical centre inside b's height
        (_, ab, _, at), (_, bb, _, bt) = glyphs[a][1], glyphs[b][1]
        return bb - 1 <= (ab + at) / 2 <= bt + 1

    def same(a: int, b: int) -> bool:
        return (within(a, b) or within(b, a)) and glyphs[a][1][0] < glyphs[b][1][0]

    lo = hi = k
    while lo > 0 and same(lo - 1, lo):
        lo -= 1
    while hi + 1 < len(glyphs) and same(hi, hi + 1):
        hi += 1
    return list(range(lo, hi + 1))


def _box(boxes: list[tuple[float, float, float, float]]) -> tuple[float, float, float, float]:
    return min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes)


def _forms(path: Path) -> list[dict[tuple[float, float], tuple[float, float, float, float]]]:
    """Per page: pdfium's bounds (the form's box, which clips what it draws) of each placed form, by origin."""
    pdf = pdfium.PdfDocument(str(path))
    try:
        return [{(round(o.get_matrix().e, 2), round(o.get_matrix().f, 2)): o.get_bounds()
                 for o in page.get_objects(max_depth=1) if o.type == pdfium_raw.FPDF_PAGEOBJ_FORM} for page in pdf]
    finally:
        pdf.close()


@pytest.mark.parametrize("paper", PAPERS)
def test_furniture_inside_printable_area_and_never_crossed(kit: Path, paper: str) -> None:
    for path in _pdfs(kit, paper):
        for n, (boxes, geo) in enumerate(zip(_furniture(path), geometry(path), strict=True)):
            cuts = geo.lines(RGB_CUT)
            for box in boxes:
                assert _clear_of_edges(box, geo.width, geo.height) >= SAFE - 0.01, (path.name, n, box)
                for s in cuts:
                    assert s.inside(*box) == 0, (path.name, n, "cut line crosses furniture", s)


def _mark_docs(kit: Path, paper: str) -> list[Path]:
    return [p for p in _pdfs(kit, paper) if not p.name.endswith(("-dice.pdf", "calibration.pdf"))]


@pytest.mark.parametrize("paper", PAPERS)
def test_every_cut_mark_has_5_mm_printable(kit: Path, paper: str) -> None:
    shortest = []
    for path in _mark_docs(kit, paper):
        for n, geo in enumerate(geometry(path)):
            for s in geo.lines(RGB_CUT):
                printable = s.inside(DEAD, DEAD, geo.width - DEAD, geo.height - DEAD)
                shortest.append(printable)
                assert printable >= 5 * MM - 0.01, (path.name, n, round(mm(printable), 2), s)
    assert shortest, "no cut marks found"


@pytest.mark.parametrize("paper", PAPERS)
def test_card_sheets_keep_trims_10_mm_inside(kit: Path, paper: str) -> None:
    """Every piece's trim box (its background less the bleed) is 10.5 mm or more from the page edge
    (so 5.5 mm of every mark prints), which on Letter means laying poker cards sideways, 8 a sheet."""
    for game in ready_games():
        kinds = {c.kind for c in game.components}
        for doc, needs in (("cards-duplex", {"cards"}), ("cards-gutterfold", {"cards"}), ("tokens", set(TOKEN_KINDS))):
            if not kinds & needs:  # a game without cards (Thunder Road) has no card sheets
                continue
            path = kit / "print" / paper / f"{game.id}-{doc}.pdf"
            for geo in geometry(path):
                for box, _, form in geo.fills:
                    if form is None and box[2] - box[0] > 20 * MM and box[3] - box[1] > 20 * MM:
                        trim = (box[0] + 3 * MM, box[1] + 3 * MM, box[2] - 3 * MM, box[3] - 3 * MM)
                        if _clear_of_edges(box, geo.width, geo.height) > 5 * MM:  # a piece's bleed box
                            assert _clear_of_edges(trim, geo.width, geo.height) >= 10.5 * MM - 0.01, path.name
    letter = geometry(kit / "print" / "letter" / f"{ready_games()[0].id}-cards-duplex.pdf")[0]
    poker = [b for b, _, f in letter.fills if f is None and abs(b[2] - b[0] - 94 * MM) < 0.1]
    assert len(poker) == 8  # 88 x 63 footprints (with bleed) on the first Letter sheet


def _paper(path: Path) -> tuple[float, float, float]:
    """The paper colour of the game a document belongs to (its pieces' background)."""
    from reportlab.lib.colors import HexColor

    from generators.pdf.faces import DEFAULT_COLORS

    game = next(g for g in ready_games() if path.name.startswith(g.id))
    c = HexColor({**DEFAULT_COLORS, **game.game.theme.colors}["paper"])
    return (c.red, c.green, c.blue)


def _paper_fills(geo: pdfgeom.Page, paper: tuple[float, float, float]) -> list[tuple[float, float, float, float]]:
    """Bleed boxes of the pieces on a page: the paper-coloured rectangles drawn at page level (the
    smallest piece, an 8 mm marker, has a 14 mm one; a label's paper box is at most 6.5 mm high)."""
    return [box for box, colour, form in geo.fills if form is None and colour == pytest.approx(paper, abs=0.002)
            and box[2] - box[0] > 12 * MM and box[3] - box[1] > 12 * MM]


def _blocks(boxes: list[tuple[float, float, float, float]]) -> list[tuple[float, float]]:
    """Vertical extents of the blocks on a page, top first: bleed boxes whose heights overlap or touch."""
    spans: list[list[float]] = []
    for _, bottom, _, top in sorted(boxes, key=lambda b: -b[3]):
        if spans and top >= spans[-1][0] - 0.01:
            spans[-1][0] = min(spans[-1][0], bottom)
        else:
            spans.append([bottom, top])
    return [(b, t) for b, t in spans]


def test_separator_between_blocks_of_different_sizes(kit: Path) -> None:
    seen = 0
    for paper in PAPERS:
        for path in (kit / "print" / paper).glob("*-tokens.pdf"):
            for n, geo in enumerate(geometry(path)[::2]):  # fronts pages
                blocks = _blocks(_paper_fills(geo, _paper(path)))
                seps = [s for s in geo.lines(RGB_CUT) if abs(s.y0 - s.y1) < 1e-6 and s.length >= geo.width - 0.01]
                assert len(seps) == len(blocks) - 1, (path.name, 2 * n)
                for (low, _), (_, high) in pairwise(blocks):
                    between = [s for s in seps if high < s.y0 < low]
                    assert len(between) == 1, (path.name, 2 * n, "no separator between blocks")
                    seen += 1
    assert seen, "no sheet with blocks of two sizes was found"


# ---------------------------------------------------------------------------------------------
# Duplex: pairing, registration, offset, calibration


def _duplex_docs(kit: Path, paper: str) -> list[Path]:
    return sorted(p for p in (kit / "print" / paper).glob("*.pdf")
                  if p.name.endswith(("-cards-duplex.pdf", "-tokens.pdf")))


@pytest.mark.parametrize("paper", PAPERS)
def test_every_front_page_has_its_back_page(kit: Path, paper: str) -> None:
    for path in _duplex_docs(kit, paper):
        pages = [" ".join(t.split()) for t in texts(path)]
        assert len(pages) % 2 == 0, path.name
        for k in range(0, len(pages), 2):
            sheet = re.search(r"sheet (\d+) of (\d+): fronts\.", pages[k])
            assert sheet, (path.name, k)
            assert f"sheet {sheet.group(1)} of {sheet.group(2)}: backs." in pages[k + 1], (path.name, k + 1)


def test_sheet_without_backs_keeps_a_blank_back_page(tmp_path: Path) -> None:
    content = copy_content(tmp_path, ())  # a game of its own: tokens with no back, nothing else
    comps = content / "plain" / "components"
    comps.mkdir(parents=True)
    (content / "plain" / "game.yaml").write_text(
        "name: Plain\nstatus: ready\ncode: P\nrulebook: none.txt\nsummary: Tokens without backs.\n", "utf-8")
    (comps / "plain.yaml").write_text(
        "id: plain\nname: Plain\nkind: tokens\ncount: 40\nsize: square-token\n"
        "faces:\n  - {id: a, count: 40, front: {title: Plain, provenance: house}}\n", "utf-8")
    out = tmp_path / "out"
    result = run_cli("print", "--content", content, "--out", out, "--paper", "a4", "--no-png")
    assert result.returncode == 0, result.stderr
    reader = pypdf.PdfReader(out / "print" / "a4" / "plain-tokens.pdf")
    assert len(reader.pages) == 2
    back = reader.pages[1].extract_text() or ""
    assert "backs. Nothing to print here" in back


def _mirror(box: tuple[float, float, float, float], w: float) -> tuple[float, float, float, float]:
    return (w - box[2], box[1], w - box[0], box[3])


def _rounded(boxes, nd=2):
    return sorted(tuple(round(mm(v), nd) for v in b) for b in boxes)


def test_backs_register_with_fronts(kit: Path) -> None:
    """On every backs page, each back's bleed box is the mirror image of its front's (long-edge flip):
    registration 0.00 mm. Fronts without a back leave their mirrored place empty."""
    for paper in PAPERS:
        for path in _duplex_docs(kit, paper):
            pages = geometry(path)
            for k in range(0, len(pages), 2):
                paper_rgb = _paper(path)
                fronts, backs = _paper_fills(pages[k], paper_rgb), _paper_fills(pages[k + 1], paper_rgb)
                mirrored = _rounded(_mirror(b, pages[k].width) for b in fronts)
                assert set(_rounded(backs)) <= set(mirrored), (path.name, k)


def test_back_offset_moves_backs(kit: Path, tmp_path: Path) -> None:
    """--back-offset 2,-1.5 moves every back right by 2 mm and down by 1.5 mm (as seen from the back)
    and nothing else; the variant goes to its own folder."""
    game = ready_games()[0]
    out = tmp_path / "out"
    result = run_cli("print", "--out", out, "--paper", "a4", "--no-png", "--back-offset", "2,-1.5", "--game", game.id)
    assert result.returncode == 0, result.stderr
    shifted = geometry(out / "print" / "a4-offset-2x-1.5mm" / f"{game.id}-cards-duplex.pdf")
    plain = geometry(kit / "print" / "a4" / f"{game.id}-cards-duplex.pdf")
    paper = _paper(kit / "print" / "a4" / f"{game.id}-cards-duplex.pdf")
    assert _rounded(_paper_fills(shifted[0], paper)) == _rounded(_paper_fills(plain[0], paper))
    moved = [(b[0] + 2 * MM, b[1] - 1.5 * MM, b[2] + 2 * MM, b[3] - 1.5 * MM) for b in _paper_fills(plain[1], paper)]
    assert moved and _rounded(_paper_fills(shifted[1], paper)) == _rounded(moved)


def _crosses(geo: pdfgeom.Page, arm: float) -> list[tuple[float, float]]:
    """Centres of the black horizontal lines `arm` long (a calibration cross or a scale's axis)."""
    return sorted((round((s.x0 + s.x1) / 2, 2), round(s.y0, 2)) for s in geo.lines((0.0, 0.0, 0.0))
                  if abs(s.y0 - s.y1) < 1e-6 and abs(s.length - arm) < 0.01)


@pytest.mark.parametrize("offset", [(0.0, 0.0), (1.5, -0.5)])
def test_calibration_sheet_scales_sit_behind_the_crosses(tmp_path: Path, offset: tuple[float, float]) -> None:
    """The back's scales are centred where the front's crosses land after a long-edge flip, moved by
    the back offset the sheet is printed with, right and up as seen from the back."""
    from generators.pdf.calibration import CROSS_ARM, SCALE_GAP, SCALE_MM

    out = tmp_path / "out"
    result = run_cli("print", "--out", out, "--no-png", "--game", "mission-drive",
                     "--back-offset", f"{offset[0]:g},{offset[1]:g}")
    assert result.returncode == 0, result.stderr
    for paper in PAPERS:
        folder = paper if offset == (0.0, 0.0) else f"{paper}-offset-{offset[0]:g}x{offset[1]:g}mm"
        path = out / "print" / folder / "duplex-calibration.pdf"
        front, back = geometry(path)
        crosses = _crosses(front, 2 * CROSS_ARM)
        scales = _crosses(back, 2 * SCALE_MM * MM)
        assert len(crosses) == 5
        # The X scale's line runs under each point where a front cross should show through.
        expected = sorted((round(front.width - x + offset[0] * MM, 2), round(y + offset[1] * MM - SCALE_GAP, 2))
                          for x, y in crosses)
        assert len(scales) == len(expected)
        assert [v for p in scales for v in p] == pytest.approx([v for p in expected for v in p], abs=0.02)
        text = " ".join(p.extract_text() or "" for p in pypdf.PdfReader(path).pages)
        assert "Backs move right by X mm and up by Y mm, as seen from the back" in text


def test_the_guide_states_the_back_offset_sign() -> None:
    printing = " ".join((CONTENT.parent / "site" / "guide" / "printing.md").read_text("utf-8").split())
    assert "backs move right by X" in printing and "as seen from the back" in printing
    assert "duplex-calibration.pdf" in printing


# ---------------------------------------------------------------------------------------------
# Boards


def _board_sheets(path: Path) -> list[tuple[pdfgeom.Page, pdfgeom.FormUse, str]]:
    out = []
    for geo, text in zip(geometry(path), texts(path), strict=True):
        board = next(f for f in geo.forms if f.name.startswith("roadkit-board"))
        out.append((geo, board, text))
    return out


def _window(board: pdfgeom.FormUse) -> tuple[float, float, float, float]:
    """The sheet's window in board coordinates (mm): the clip less the 3 mm bleed, minus the origin."""
    ox, oy = board.origin
    left, bottom, right, top = board.clip
    return (mm(left - ox) + 3, mm(bottom - oy) + 3, mm(right - ox) - 3, mm(top - oy) - 3)


def _marks(geo: pdfgeom.Page, board: pdfgeom.FormUse) -> list[tuple[float, float]]:
    ox, oy = board.origin
    return sorted((round(mm(f.origin[0] - ox), 3), round(mm(f.origin[1] - oy), 3))
                  for f in geo.forms if f.name == "roadkit-mark")


def _check_board_document(path: Path, overlap_mm: float = 12.0) -> int:
    """For every pair of neighbouring sheets of a board: windows that overlap by exactly the stated
    amount, the same marks at the same board points on both, inside the overlap; a trim mark at
    every window edge; a glue strip on the first. Returns how many joins were checked."""
    sheets = _board_sheets(path)
    by_form: dict[str, list[tuple[pdfgeom.Page, pdfgeom.FormUse, str]]] = {}
    for sheet in sheets:
        by_form.setdefault(sheet[1].name, []).append(sheet)
    joins = 0
    labels_by_board = {}
    for name, group in by_form.items():
        labels_by_board[name] = set()
        for geo, board, text in group:
            labels_by_board[name] |= set(re.findall(r"\b([A-Z][0-9])\b", text))
            _check_trims(geo, board, path)
        for i, (geo_a, board_a, _) in enumerate(group):
            for geo_b, board_b, _ in group[i + 1:]:
                a, b = _window(board_a), _window(board_b)
                across = min(a[2], b[2]) - max(a[0], b[0])
                down = min(a[3], b[3]) - max(a[1], b[1])
                if across <= 0 or down <= 0:
                    continue
                # Neighbours share one full side: the overlap is the stated amount along the other.
                side_by_side = abs(a[1] - b[1]) < 0.01 and abs(a[3] - b[3]) < 0.01
                stacked = abs(a[0] - b[0]) < 0.01 and abs(a[2] - b[2]) < 0.01
                if not (side_by_side or stacked):
                    continue
                assert (across if side_by_side else down) == pytest.approx(overlap_mm, abs=0.005), path.name
                common = _marks(geo_a, board_a)
                strip = (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))
                in_strip = [m for m in common if strip[0] - 0.01 <= m[0] <= strip[2] + 0.01
                            and strip[1] - 0.01 <= m[1] <= strip[3] + 0.01]
                assert len(in_strip) >= 2, (path.name, "no marks in the overlap")
                assert set(in_strip) <= set(_marks(geo_b, board_b)), (path.name, in_strip)
                glue = [f for f, colour, form in geo_a.fills if form is None and colour == pytest.approx(
                    (0.949, 0.949, 0.949), abs=0.01)]
                assert glue, (path.name, "no glue strip")
                joins += 1
    boards = [labels for labels in labels_by_board.values() if labels]
    for i, labels in enumerate(boards):
        for other in boards[i + 1:]:
            assert not labels & other, (path.name, "mark labels repeat across boards")
    return joins


def _check_trims(geo: pdfgeom.Page, board: pdfgeom.FormUse, path: Path) -> None:
    left, bottom, right, top = (v + d for v, d in zip(board.clip, (3 * MM, 3 * MM, -3 * MM, -3 * MM), strict=True))
    cuts = geo.lines(RGB_CUT)
    for x in (left, right):
        assert any(abs(s.x0 - x) < 0.01 and abs(s.x1 - x) < 0.01 for s in cuts), (path.name, "no trim mark", mm(x))
    for y in (bottom, top):
        assert any(abs(s.y0 - y) < 0.01 and abs(s.y1 - y) < 0.01 for s in cuts), (path.name, "no trim mark", mm(y))


@pytest.mark.parametrize("paper", PAPERS)
def test_split_boards_assemble(kit: Path, paper: str) -> None:
    joins = 0
    for game in ready_games():
        path = kit / "print" / paper / f"{game.id}-boards.pdf"
        if path.exists():
            joins += _check_board_document(path)
    assert joins >= 2  # the two road boards of Mission: Drive are each split once


def test_board_split_both_ways_assembles(tmp_path: Path) -> None:
    """A board bigger than the paper both ways: four sheets, two vertical and two horizontal joins,
    each with its own marks, labels unique per board."""
    content = copy_content(tmp_path, ("mission-drive",))
    (content / "mission-drive" / "components" / "zz-big.yaml").write_text(
        "id: big\nname: Big\nkind: board\ncount: 1\nsize: {width: 400, height: 300}\nfaces:\n"
        "  - id: big\n    front:\n      title: Big board\n      provenance: house\n      layout: full\n"
        "      art: {grid: {cols: 8, rows: 6}}\n", "utf-8")
    out = tmp_path / "out"
    result = run_cli("print", "--content", content, "--out", out, "--no-png")
    assert result.returncode == 0, result.stderr
    for paper in PAPERS:
        path = out / "print" / paper / "mission-drive-boards.pdf"
        assert _check_board_document(path) == 2 + 4  # one join per road board, then the big board's four
        text = " ".join(p.extract_text() or "" for p in pypdf.PdfReader(path).pages)
        assert "row 2, column 2" in text


# ---------------------------------------------------------------------------------------------
# Dice


def _die_content(tmp_path: Path, faces: str) -> Path:
    content = copy_content(tmp_path, ("mission-drive",))
    (content / "mission-drive" / "components" / "zz-die.yaml").write_text(
        f"id: die\nname: Die\nkind: dice\ncount: 2\nsize: {{width: 18, height: 18}}\nfaces:\n{faces}", "utf-8")
    out = tmp_path / "out"
    result = run_cli("print", "--content", content, "--out", out, "--paper", "a4", "--no-png")
    assert result.returncode == 0, result.stderr
    return out / "print" / "a4" / "mission-drive-dice.pdf"


def _face_centres(path: Path, names: list[str]) -> list[dict[str, tuple[float, float]]]:
    """Per net (left to right, top to bottom): the centre of each named face's title."""
    chars = pdfgeom.chars(path)[0]
    text = "".join(c.text for c in chars)
    found: dict[str, list[tuple[float, float]]] = {}
    for name in names:
        want = name.replace(" ", "")
        for m in re.finditer(re.escape(want), text):
            cs = chars[m.start():m.end()]
            found.setdefault(name, []).append(((cs[0].left + cs[-1].right) / 2, (cs[0].bottom + cs[0].top) / 2))
    nets = len(found[names[0]])
    out = []
    for k in range(nets):
        out.append({name: sorted(found[name], key=lambda p: (-p[1] // 200, p[0]))[k] for name in names})
    return out


def test_numbered_dice_have_standard_opposite_faces(tmp_path: Path) -> None:
    order = (4, 1, 6, 3, 2, 5)  # listed out of order on purpose
    # Numbers, not pips: an 18 mm face keeps its name beside a number (pips of 1 mm leave it no room), and
    # the name finds the face. Numbered faces pair as pips do.
    faces = "".join(f"  - {{id: f{i}, front: {{title: 'Side {i}', provenance: house, art: {{number: '{i}'}}}}}}\n"
                    for i in order)
    path = _die_content(tmp_path, faces)
    names = [f"Side {i}" for i in range(1, 7)]
    nets = _face_centres(path, names)
    assert len(nets) == 2
    for centres in nets:
        assert pdfgeom.net_opposites(centres, 18 * MM) == {
            frozenset(("Side 1", "Side 6")), frozenset(("Side 2", "Side 5")), frozenset(("Side 3", "Side 4"))}
    text = " ".join(p.extract_text() or "" for p in pypdf.PdfReader(path).pages)
    for i in range(1, 7):
        assert text.count(f"Side {i}") == 2


def test_other_dice_go_opposite_in_listed_pairs(tmp_path: Path) -> None:
    names = ["Red", "Blue", "Sun", "Moon", "Up", "Down"]
    faces = "".join(f"  - {{id: f{k}, front: {{title: {n}, provenance: house, art: {{icon: heart}}}}}}\n"
                    for k, n in enumerate(names))
    path = _die_content(tmp_path, faces)
    for centres in _face_centres(path, names):
        assert pdfgeom.net_opposites(centres, 18 * MM) == {frozenset(("Red", "Blue")), frozenset(("Sun", "Moon")),
                                                frozenset(("Up", "Down"))}


def test_dice_nets_fold_dashed_and_cut_solid(tmp_path: Path) -> None:
    """Per net: 5 folds between faces and 7 where the tabs attach, dashed; the outline (7 face edges
    and 3 sides of each of the 7 tabs) solid."""
    faces = "".join(f"  - {{id: f{i}, front: {{title: 'Side {i}', provenance: house, art: {{pips: {i}}}}}}}\n"
                    for i in range(1, 7))
    geo = geometry(_die_content(tmp_path, faces))[0]
    folds = [s for s in geo.lines(RGB_GUIDE) if s.dashed]
    cuts = [s for s in geo.lines(RGB_CUT) if not s.dashed]
    assert not [s for s in geo.lines(RGB_CUT) if s.dashed]
    assert len(folds) == 2 * 12
    assert len(cuts) == 2 * (7 + 21)
    s = 18 * MM
    assert sum(abs(f.length - s) < 0.01 for f in folds) == 2 * 12
    assert sum(abs(c.length - s) < 0.01 for c in cuts) == 2 * 7


def test_a_die_needs_six_faces(tmp_path: Path) -> None:
    content = copy_content(tmp_path, ("mission-drive",))
    (content / "mission-drive" / "components" / "zz-die.yaml").write_text(
        "id: die\nname: Die\nkind: dice\ncount: 3\nfaces:\n  - {id: a, front: {title: A, provenance: house}}\n",
        "utf-8")
    result = run_cli("validate", "--content", content)
    assert result.returncode == 2 and "a die has six faces" in result.stderr


# ---------------------------------------------------------------------------------------------
# Everything else


def test_backs_are_mirrored(tmp_path: Path) -> None:
    """One card with a distinct back: on the backs page it sits in the mirrored (right) column."""
    content = copy_content(tmp_path, ())  # a game of its own: one card, nothing else
    comps = content / "mission-drive" / "components"
    comps.mkdir(parents=True)
    (content / "mission-drive" / "game.yaml").write_text(
        "name: One card\nstatus: ready\ncode: OC\nrulebook: none.txt\nsummary: One card.\n", "utf-8")
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
    # The card and the legend card share one row, centred between the top margin and the band.
    top = 10.5 + (297 - 10.5 - 16.5 - 88) / 2
    y = round((top + 6) * px)  # its title band, in the back's black
    right = round((x0 + 2 * 63 + 31.5) * px)
    left = round((x0 + 31.5) * px)
    assert back.getpixel((right, y)) < 60 and back.getpixel((left, y)) > 245


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
    from generators.pdf.print_targets import face_images, png_name

    for game in ready_games():
        for comp, face_id, which, _side in face_images(game):
            path = kit / "png" / game.id / png_name(comp, face_id, which)
            assert path.is_file() and path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", path


def test_ink_saver_has_no_bleed_fills_and_less_ink(kit: Path, tmp_path: Path) -> None:
    game = ready_games()[0]
    out = tmp_path / "ink"
    result = run_cli("print", "--out", out, "--paper", "a4", "--no-png", "--ink-saver", "--game", game.id)
    assert result.returncode == 0, result.stderr
    normal = _render(kit / "print" / "a4" / f"{game.id}-cards-duplex.pdf", 0, 50)
    saver = _render(out / "print" / "a4-ink-saver" / f"{game.id}-cards-duplex.pdf", 0, 50)
    px = 50 / 25.4
    # 1.5 mm outside the top-left card's corner: inside the bleed.
    top = 10.5 + (297 - 10.5 - 16.5 - 3 * 88) / 2
    bleed = (round(((210 - 3 * 63) / 2 - 1.5) * px), round((top - 1.5) * px))
    assert normal.getpixel(bleed) < 250 and saver.getpixel(bleed) > 250

    def ink(img) -> float:
        return sum((255 - level) * n for level, n in enumerate(img.histogram())) / (img.width * img.height)

    assert ink(saver) < 0.7 * ink(normal)


def test_dice_print_as_nets_one_per_die(tmp_path: Path) -> None:
    content = copy_content(tmp_path, ("mission-drive",))
    faces = "".join(f"  - {{id: f{i}, front: {{title: 'Side {i}', provenance: house, art: {{number: '{i}'}}}}}}\n"
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
        data = image.tobytes()  # RGB triples (Image.getdata goes in Pillow 14)
        return sum(1 for r, g, b in zip(data[0::3], data[1::3], data[2::3], strict=True)
                   if r > 180 and g < 80 and b < 80)

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
    assert sorted(p.name for p in (proxies_kit / "print" / "a4-proxies").glob("mission-drive-*.pdf")) == default
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
    from generators.pdf.print_targets import with_proxies

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
