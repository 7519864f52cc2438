"""Text fitting as a contract and the legibility pass: minimum sizes, overflow as a located content
error from the one validation pass (so a build that stops on it writes nothing), words that break
or are refused, nothing drawn outside its box, contrast on every theme colour, one arrow scale per
deck, round-token labels inside the ring, badges off the art, a quiet provenance tag."""

from __future__ import annotations

import io
import re
from functools import cache
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from generators.content.loader import walk_sides
from generators.content.model import Icons, size_mm
from generators.pdf.colour import MIN_CONTRAST, contrast, readable, text_on
from generators.pdf.faces import DEFAULT_COLORS, RING_WIDTH, Look, legend_side
from generators.pdf.fit import audit_side
from generators.pdf.text import GAMEPLAY, TAG, Fonts, auditing, draw_text
from tests import pdfgeom
from tests.helpers import CONTENT, copy_content, run_cli

GAMEPLAY_KEYS = {"title", "subtitle", "text", "fields", "corner", "label", "caption", "number", "arrows", "labels"}


@cache
def games():
    from generators.content.loader import load_content

    content = load_content(CONTENT)
    return content, [g for g in content.games if g.components]


@cache
def audits():
    """(game, component, side path, side, audit) for every side of every game, drawn as printed."""
    content, found = games()
    out = []
    for game in found:
        look = Look(game, content.icons)
        for comp in game.components:
            for path, side in walk_sides(comp):
                out.append((game, comp, path, side, audit_side(look, comp, side)))
    return out


# ---------------------------------------------------------------------------------------------
# Overflow is a content error, located, measured; the build writes nothing


def _card(tmp_path: Path, front: str) -> Path:
    content = copy_content(tmp_path, ("mission-drive",))
    (content / "mission-drive" / "components" / "zz-fit.yaml").write_text(
        "id: fit\nname: Fit\nkind: cards\ncount: 1\nfaces:\n  - id: a\n    front:\n" + front, "utf-8")
    return content


LONG_TITLE = "      provenance: house\n      title: " + "Extraordinarily Long Card Name " * 3 + "\n"
FINE = "      title: Fine\n      provenance: house\n"
LONG_BODY = FINE + "      text: >-\n        " + "Move one space and roll. " * 60 + "\n"
LONG_WORD = FINE + "      text: Roll " + "Superextraordinarilyunbreakable" * 2 + "\n"


@pytest.mark.parametrize("front,line,key,words", [
    (LONG_TITLE, 9, "faces[0].front.title", "too much"),
    (LONG_BODY, 10, "faces[0].front.text", "too much"),
    (LONG_WORD, 10, "faces[0].front.text", "the word 'Superextraordinarilyunbreakable"),
])
def test_text_that_cannot_fit_is_a_located_content_error(tmp_path: Path, front: str, line: int, key: str,
                                                         words: str) -> None:
    content = _card(tmp_path, front)
    result = run_cli("validate", "--content", content)
    assert result.returncode == 2, result.stdout
    message = result.stderr.strip()
    assert "Traceback" not in message
    assert re.fullmatch(rf".*zz-fit\.yaml:{line}:\d+: {re.escape(key)}: the text does not fit its box: .*", message)
    assert words in message
    # Measured: the box and the overflow (or the word's width), in millimetres.
    assert re.search(r"\d+\.\d mm x \d+\.\d mm", message)
    assert re.search(r"\d+\.\d mm (too much|wide)", message)


def test_a_build_that_stops_on_overflow_has_written_nothing(tmp_path: Path) -> None:
    content = _card(tmp_path, LONG_BODY)
    out = tmp_path / "out"
    for command in ("build", "print"):
        result = run_cli(command, "--content", content, "--out", out, "--no-png")
        assert result.returncode == 2, (command, result.stderr)
        assert "does not fit" in result.stderr
        assert not out.exists() or not any(out.rglob("*")), command


def test_a_long_word_breaks_after_its_hyphens(tmp_path: Path) -> None:
    word = "alpha-bravo-charlie-delta-echo-foxtrot-golf-hotel-india"
    content = _card(tmp_path, f"      title: Fine\n      provenance: house\n      text: Say {word}\n")
    result = run_cli("validate", "--content", content)
    assert result.returncode == 0, result.stderr
    out = tmp_path / "out"
    result = run_cli("print", "--content", content, "--out", out, "--paper", "a4", "--no-png")
    assert result.returncode == 0, result.stderr
    text = "".join(pdfgeom_text(out / "print" / "a4" / "mission-drive-cards-duplex.pdf"))
    # pdfium reports a hyphen that ends a line as U+FFFE: the word was broken there, and only there.
    broken = re.search(r"alpha[-a-z\ufffe]*india", text)
    assert broken and "\ufffe" in broken.group() and broken.group().replace("\ufffe", "-") == word


def pdfgeom_text(path: Path) -> list[str]:
    pdf = pdfium.PdfDocument(str(path))
    try:
        return [page.get_textpage().get_text_range() for page in pdf]
    finally:
        pdf.close()


def test_nothing_is_drawn_outside_its_box() -> None:
    """Text too big for its box, drawn anyway (as a bypassed check would): the audit reports it and
    not one pixel of it lands outside the box."""
    content, found = games()
    fonts = Look(found[0], content.icons).fonts
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(100 * mm, 100 * mm), initialFontName=fonts.regular)
    box = (30 * mm, 70 * mm, 40 * mm, 20 * mm)  # x, top, width, height
    with auditing() as audit:
        draw_text(c, "Roll two dice and move that far. " * 30, Icons(), fonts, *box, 9)
    c.showPage()
    c.save()
    assert len(audit.overflows) == 1 and "too much" in audit.overflows[0].problem
    pdf = pdfium.PdfDocument(buf.getvalue())
    dpi = 200
    img = pdf[0].render(scale=dpi / 72).to_pil().convert("L")
    pdf.close()
    px = dpi / 72
    x0, y0 = box[0] * px, img.height - box[1] * px
    x1, y1 = (box[0] + box[2]) * px, img.height - (box[1] - box[3]) * px
    inside = outside = 0
    for y in range(0, img.height, 2):
        for x in range(0, img.width, 2):
            if img.getpixel((x, y)) < 128:
                if x0 - 1 <= x <= x1 + 1 and y0 - 1 <= y <= y1 + 1:
                    inside += 1
                else:
                    outside += 1
    assert inside > 100 and outside == 0


def test_every_face_of_every_game_fits() -> None:
    assert audits()
    for game, comp, path, _, audit in audits():
        assert not audit.overflows, (game.id, comp.id, path, audit.overflows)


def test_the_legend_card_fits() -> None:
    content, found = games()
    from generators.pdf.documents import LEGEND

    for game in found:
        look = Look(game, content.icons)
        audit = audit_side(look, LEGEND, legend_side(look))
        assert not audit.overflows and audit.drawn


# ---------------------------------------------------------------------------------------------
# Sizes and contrast


def test_gameplay_text_is_at_least_6_5_pt_and_tags_at_least_5() -> None:
    gameplay = tags = 0
    for game, comp, path, _, audit in audits():
        for drawn in audit.drawn:
            if drawn.key and (set(map(str, drawn.key)) & GAMEPLAY_KEYS):
                assert drawn.min_size >= GAMEPLAY and drawn.size >= GAMEPLAY, (game.id, comp.id, path, drawn)
                gameplay += 1
            else:
                assert drawn.size >= TAG, (game.id, comp.id, path, drawn)
                tags += 1
    assert gameplay > 300 and tags > 100


def test_printed_characters_are_at_least_5_pt(tmp_path: Path) -> None:
    """Read back from the PDFs: no character on any sheet is under 5 pt, and the characters under
    6.5 pt are only the quiet tags and the sheet's own small print."""
    import pypdfium2.raw as raw

    out = tmp_path / "out"
    result = run_cli("print", "--out", out, "--paper", "letter", "--no-png")
    assert result.returncode == 0, result.stderr
    sizes = []
    for path in (out / "print" / "letter").glob("*.pdf"):
        pdf = pdfium.PdfDocument(str(path))
        try:
            for page in pdf:
                tp = page.get_textpage()
                sizes += [raw.FPDFText_GetFontSize(tp, i) for i in range(tp.count_chars())
                          if tp.get_text_range(i, 1).strip()]
        finally:
            pdf.close()
    assert len(sizes) > 5000
    assert min(sizes) >= TAG - 0.01


def _theme(game) -> dict[str, HexColor]:
    return {name: HexColor(value) for name, value in {**DEFAULT_COLORS, **game.game.theme.colors}.items()}


def test_text_reads_on_every_theme_colour() -> None:
    """For every colour of every game's theme: the title text on a band of it, and it as a text
    colour on the paper, reach 4.5:1."""
    _, found = games()
    checked = 0
    for game in found + [g for g in games()[0].games if not g.components]:
        colours = _theme(game)
        paper, ink = colours["paper"], colours["ink"]
        for name, colour in colours.items():
            assert contrast(text_on(colour, ink), colour) >= MIN_CONTRAST, (game.id, name)
            if name != "paper":
                assert contrast(readable(colour, paper), paper) >= MIN_CONTRAST, (game.id, name)
            checked += 1
    assert checked > 20


def test_every_drawn_text_declares_its_background_and_reads_on_it() -> None:
    worst = 21.0
    for game, comp, path, _, audit in audits():
        for drawn in audit.drawn:
            assert drawn.on is not None and drawn.color is not None, (game.id, comp.id, path, drawn.key)
            ratio = contrast(drawn.color, drawn.on)
            worst = min(worst, ratio)
            assert ratio >= MIN_CONTRAST, (game.id, comp.id, path, drawn.key, round(ratio, 2))
    assert worst >= MIN_CONTRAST


def test_hero_card_title_measured_on_the_rendered_card() -> None:
    """Mission: Drive's mustard hero cards, rendered: the title's glyphs against its band reach 4.5:1
    (white on that mustard was 2.1:1)."""
    from generators.pdf.documents import single_side

    content, found = games()
    game = next(g for g in found if g.id == "mission-drive")
    comp = next(c for c in game.components if c.id == "movement-cards")
    look = Look(game, content.icons)
    side = comp.faces[0].front
    pdf = pdfium.PdfDocument(single_side(look, comp, side, ""))
    dpi = 400
    img = pdf[0].render(scale=dpi / 72).to_pil().convert("RGB")
    pdf.close()
    px = dpi / 25.4
    band = img.crop((round(5 * px), round(4 * px), round(40 * px), round(11 * px)))
    counts = band.getcolors(band.width * band.height)
    background = max(counts)[1]
    # The text colour: the pixel farthest from the band's colour.
    text = max((c for _, c in counts), key=lambda c: sum(abs(a - b) for a, b in zip(c, background, strict=True)))
    ratio = contrast(_hex(text), _hex(background))
    assert ratio >= MIN_CONTRAST, ratio


def _hex(rgb: tuple[int, int, int]) -> HexColor:
    return HexColor("#{:02x}{:02x}{:02x}".format(*rgb))


# ---------------------------------------------------------------------------------------------
# Arrow scale, round tokens, badges, provenance


def test_one_arrow_grid_scale_per_deck() -> None:
    cells: dict[tuple[str, str], set[float]] = {}
    for game, comp, _, _, audit in audits():
        for role, (_, _, w, _) in audit.boxes:
            if role == "arrow-cell":
                cells.setdefault((game.id, comp.id), set()).add(round(w, 3))
    assert cells
    for deck, sizes in cells.items():
        assert len(sizes) == 1, (deck, sorted(sizes))


def test_round_token_labels_fit_inside_the_ring() -> None:
    """Every label box and every printed character of a round piece stays 1 mm inside its cutting ring."""
    from generators.pdf.documents import single_side

    content, _ = games()
    checked = 0
    for game, comp, path, side, audit in audits():
        if comp.shape != "round":
            continue
        w, h = (v * mm for v in size_mm(comp.size))
        r = min(w, h) / 2 - RING_WIDTH - 1 * mm + 0.01
        for role, (x, y, bw, bh) in audit.boxes:
            if role == "label":
                for cx in (x, x + bw):
                    for cy in (y, y + bh):
                        assert ((cx - w / 2) ** 2 + (cy - h / 2) ** 2) ** 0.5 <= r, (game.id, comp.id, path)
        pdf = pdfium.PdfDocument(single_side(Look(game, content.icons), comp, side, ""))
        try:
            tp = pdf[0].get_textpage()
            for i in range(tp.count_chars()):
                if tp.get_text_range(i, 1).strip():
                    left, bottom, right, top = tp.get_charbox(i)
                    for cx in (left, right):
                        for cy in (bottom, top):
                            assert ((cx - w / 2) ** 2 + (cy - h / 2) ** 2) ** 0.5 <= r, (game.id, comp.id, path)
                    checked += 1
        finally:
            pdf.close()
    assert checked > 20


def test_badges_stay_off_the_art() -> None:
    badges = 0
    for game, comp, path, _, audit in audits():
        arts = [b for role, b in audit.boxes if role == "art"]
        for role, (bx, by, bw, bh) in audit.boxes:
            if role != "badge":
                continue
            badges += 1
            for ax, ay, aw, ah in arts:
                overlap = min(bx + bw, ax + aw) - max(bx, ax) > 0 and min(by + bh, ay + ah) - max(by, ay) > 0
                assert not overlap, (game.id, comp.id, path)
    assert badges > 10


def test_provenance_is_a_small_quiet_tag() -> None:
    """The provenance tag: 6 pt (small, and no smaller: players read it), in the quiet tone (ink faded
    towards the paper), never in the accent colour, and no box drawn around it."""
    from generators.pdf.documents import single_side

    content, _ = games()
    tags = 0
    for game, comp, path, side, audit in audits():
        look = Look(game, content.icons)
        for drawn in audit.drawn:
            if drawn.key in (("provenance",), ("section",)):
                tags += 1
                assert abs(drawn.size - 6.0) < 0.01, (game.id, comp.id, path, drawn.size)
                assert contrast(drawn.color, look.quiet) < 1.05, (game.id, comp.id, path)
        if side.provenance != "rulebook" and side.layout == "framed" and min(size_mm(comp.size)) >= 40:
            geo = _page_geometry(single_side(look, comp, side, "1/1"))
            footer = [s for s in geo.segments if max(s.y0, s.y1) < 7 * mm and s.length > 20 * mm]
            assert not footer, (game.id, comp.id, path, "a box around the tag")
    assert tags > 100


def _page_geometry(data: bytes) -> pdfgeom.Page:
    import tempfile

    with tempfile.NamedTemporaryFile(suffix=".pdf") as f:
        f.write(data)
        f.flush()
        return pdfgeom.read(Path(f.name))[0]


def test_fonts_helper_is_what_faces_use() -> None:
    """The Fonts the validation measures with are the ones the game's theme renders with."""
    content, found = games()
    for game in found:
        fonts = Look(game, content.icons).fonts
        assert isinstance(fonts, Fonts) and fonts.regular.startswith("DejaVuSans")


def test_a_soft_hyphen_prints_only_where_the_word_breaks() -> None:
    from generators.pdf.text import measure, tokenize

    content, _ = games()
    fonts = Look(games()[1][0], content.icons).fonts
    runs = tokenize("**Mine\u00adfield**", content.icons)
    narrow = measure(runs, fonts, 8 * mm, 10 * mm, GAMEPLAY)
    wide = measure(runs, fonts, 40 * mm, 10 * mm, GAMEPLAY)
    words = [["".join(r.value for r in line) for line in fit.lines] for fit in (narrow, wide)]
    assert narrow.fits and words[0] == ["Mine-", "field"]
    assert wide.fits and words[1] == ["Minefield"]


def test_round_token_titles_sit_below_their_picture() -> None:
    """On a round piece with a picture the title's lines lie below it, each inside the ring's chord; a
    disc under 15 mm shows its picture alone, and a picture the name leaves under 4 mm is left out
    (the name alone is printed)."""
    from generators.pdf.faces import MIN_PICTURE, named_piece

    pieces = dropped = nameless = 0
    for game, comp, path, side, audit in audits():
        if comp.shape != "round" or side.art is None:
            continue
        arts = [b for role, b in audit.boxes if role == "art"]
        labels = [b for role, b in audit.boxes if role == "label"]
        w, h = (v * mm for v in size_mm(comp.size))
        if not named_piece(w, h, True):
            assert arts and not labels and arts[0][2] >= MIN_PICTURE, (game.id, comp.id, path)
            nameless += 1
            continue
        assert labels, (game.id, comp.id, path)
        if not arts:
            dropped += 1
            continue
        assert max(y + h for _, y, _, h in labels) <= min(y for _, y, _, _ in arts) + 0.01, (game.id, comp.id, path)
        assert arts[0][2] >= MIN_PICTURE, (game.id, comp.id, path, "a picture too small to read")
        pieces += 1
    assert pieces > 20 and nameless >= 2 and dropped < pieces / 3, (pieces, nameless, dropped)


def test_every_side_with_fields_prints_them() -> None:
    """Fields are rules a player reads (a boss tile's parts and targets): every side that has them
    prints them, small pieces included."""
    with_fields = 0
    for game, comp, path, side, audit in audits():
        if side.fields:
            with_fields += 1
            assert any(drawn.key == ("fields",) for drawn in audit.drawn), (game.id, comp.id, path)
    small = [comp.id for game, comp, _, side, _ in audits() if side.fields and min(size_mm(comp.size)) < 40]
    assert with_fields > 10 and "boss-tiles" in small
