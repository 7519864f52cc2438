"""Example diagrams for people, checked the same way for every engine (no per-game code): each worked
example is replayed, and its drawings must zoom to what changed, mark every change, share one window
between before and after, stay deterministic, show text that reads at 10 px on a phone, and come
with alt text that says what changed; every
engine declares a legend covering every kind of piece its drawings show.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from generators.check.runner import _replay, _Run, engine_of, load_all, run_scenario
from generators.rules import svg as draw
from tests.helpers import real_content

ROOT = Path(__file__).resolve().parent.parent
CONTENT = real_content()
WORK = {w.game.id: w for w in load_all(CONTENT)}
_VIEWBOX = re.compile(r'<svg [^>]*viewBox="([-\d.]+) ([-\d.]+) ([-\d.]+) ([-\d.]+)"')
EVERYWHERE = draw.Box(-1e6, -1e6, 2e6, 2e6)  # a window over the whole board, whatever its units
_CHANGE = re.compile(r'<g class="rk-change" data-piece="([^"]*)" data-kind="([^"]*)" data-at="([-\d.]+) ([-\d.]+)">')


def _view(svg: str) -> draw.Box:
    m = _VIEWBOX.search(svg)
    assert m, "a drawing without a viewBox"
    return draw.Box(*(float(v) for v in m.groups()))


def _replayed(game: str) -> list[tuple[Any, _Run, dict[str, bytes], dict[str, Any]]]:
    w = WORK[game]
    out = []
    for prepared in w.scenarios:
        run = _Run(game, prepared, {})
        _replay(run, w.engine)
        files: dict[str, bytes] = {}
        record = run_scenario(game, prepared, w.engine, files)
        out.append((prepared, run, files, record))
    return out


@pytest.fixture(scope="module", params=sorted(WORK), ids=str)
def replayed(request: pytest.FixtureRequest) -> tuple[str, list[tuple[Any, _Run, dict[str, bytes], dict[str, Any]]]]:
    return request.param, _replayed(request.param)


def _drawing(files: dict[str, bytes], rel: str | None) -> str:
    assert rel is not None
    return files[rel].decode()


def _drawn(engine: Any, runs: list[tuple[Any, _Run, dict[str, bytes], dict[str, Any]]]) -> Iterator[tuple[Any, ...]]:
    """Each example that ran to its end and has an after drawing: (its id, prepared scenario, run, files,
    record, what changed between its first and last states)."""
    for prepared, run, files, record in runs:
        if run.finished and record["after_svg"] is not None:
            changes = draw.changes_between(engine.pieces(run.states[0]), engine.pieces(run.states[-1]))
            yield prepared.loaded.scenario.id, prepared, run, files, record, changes


def test_zoom_holds_every_change_and_is_no_bigger_than_the_board(replayed: Any) -> None:
    game, runs = replayed
    engine = WORK[game].engine
    zoomed = 0
    for sid, _prepared, run, files, record, changes in _drawn(engine, runs):
        before, after = _drawing(files, record["before_svg"]), _drawing(files, record["after_svg"])
        full = _view(engine.draw_svg(run.states[-1], draw.Focus(EVERYWHERE)))
        view = _view(after)
        assert view == _view(before), f"{sid}: before and after are drawn in different windows"
        assert view.w * view.h <= full.w * full.h + 1e-6, f"{sid}: the zoomed drawing is bigger than the board"
        zoomed += view.w * view.h < full.w * full.h
        marks = _CHANGE.findall(after)
        assert sorted((p, k) for p, k, *_ in marks) == sorted((c.piece, c.kind) for c in changes), \
            f"{sid}: the after drawing does not mark exactly what changed"
        for piece, kind, x, y in marks:
            assert view.contains(float(x), float(y)), f"{sid}: {kind} of {piece} at {x},{y} is outside {view}"
        assert not _CHANGE.search(before), f"{sid}: a before drawing carries change marks"
    print(f"{game}: {zoomed} of {len(runs)} examples zoomed")


def test_alt_text_names_what_changed(replayed: Any) -> None:
    game, runs = replayed
    engine = WORK[game].engine
    said = 0
    for sid, prepared, _run, _files, record, changes in _drawn(engine, runs):
        alt = record["after_alt"]
        assert (alt.startswith("After: ") and prepared.loaded.scenario.title not in alt) if changes else alt == "", sid
        for c in changes:
            assert c.name.casefold() in alt.casefold() and c.words in alt, f"{sid}: {alt!r} misses {c.words!r}"
        said += bool(changes)
        where = draw.starting_places(changes)  # pieces that only appear stood nowhere before
        assert record["before_alt"] == (f"Before: {where}" if where else ""), sid
        assert all(c.name.casefold() in where.casefold() for c in changes if c.was), sid
        assert len(record.get("step_alts", [])) == len(record["step_svgs"]), sid
    assert said, f"{game}: no example's alt text says anything changed"


_FONT = re.compile(r'<text [^>]*font-size="([\d.]+)"[^>]*>([^<]*)</text>')


def test_text_reads_at_ten_px_in_a_phone_column(replayed: Any) -> None:
    """Every drawing's smallest text, shown at most PHONE_COLUMN px wide (the narrowest place the
    site shows a diagram at a 390 px screen), is at least MIN_TEXT_PX (the browser test measures the
    same on the built site)."""
    game, runs = replayed
    worst: tuple[float, str] = (float("inf"), "")
    for prepared, _run, files, _record in runs:
        for rel, data in files.items():
            svg = data.decode()
            sizes = [float(size) for size, text in _FONT.findall(svg) if text.strip()]
            if sizes:
                shown = min(sizes) * draw.PHONE_COLUMN / max(_view(svg).w, draw.PHONE_COLUMN)
                worst = min(worst, (shown, f"{prepared.loaded.scenario.id}: {rel}"))
    assert worst[0] >= draw.MIN_TEXT_PX - 0.01, f"{game}: text at {worst[0]:.2f} px on a phone ({worst[1]})"


def _texts(files: dict[str, bytes]) -> Iterator[tuple[str, str]]:
    for rel, data in files.items():
        for _size, text in _FONT.findall(data.decode()):
            yield rel, text


def test_labels_are_whole(replayed: Any) -> None:
    """No label in a drawing is cut short with an ellipsis ("Command… · 1 · ⚑3", "OMG-ZIL…"): a name
    too long for its card or tile wraps onto another line."""
    game, runs = replayed
    cut = {f"{prepared.loaded.scenario.id}: {text}" for prepared, _run, files, _record in runs
           for _rel, text in _texts(files) if text.rstrip().endswith(("…", "..."))}
    assert not cut, f"{game}: labels cut short: {sorted(cut)[:8]}"


def _ids(state: Any) -> set[str]:
    """The engine's own words in a state: its text fields holding an id ('boss-setup', 'playing')."""
    fields = vars(state) if hasattr(state, "__dict__") else {
        n: getattr(state, n) for n in getattr(state, "__slots__", ())}
    return {v for v in fields.values() if isinstance(v, str) and re.fullmatch(r"[a-z]+(?:[-_][a-z]+)*", v)}


def test_status_lines_speak_players_words(replayed: Any) -> None:
    """A drawing's status lines say where the game stands in players' words: none of the ids the
    engine keeps in its state (its phase, a mission's status such as 'playing' or 'next-mission'),
    and no '-' standing for nothing."""
    game, runs = replayed
    ids: set[str] = set()
    for _prepared, run, _files, _record in runs:
        for state in run.states:
            ids |= _ids(state)
    words = {w for w in ids if "-" in w or "_" in w} | {"playing"}
    found = set()
    for prepared, _run, files, _record in runs:
        for _rel, text in _texts(files):
            if " · " not in text:
                continue
            bad = [w for w in words if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text)]
            if bad or re.search(r"· -(?: |$)", text):
                found.add(f"{prepared.loaded.scenario.id}: {text!r} ({', '.join(bad) or '-'})")
    assert not found, f"{game}: status lines in engine words: {sorted(found)[:6]}"


_TEXT_EL = re.compile(r'<text x="([-\d.]+)" y="([-\d.]+)" font-family="[^"]*" font-size="([\d.]+)" '
                      r'text-anchor="(\w+)"[^>]*?(?: font-weight="(\w+)")?>([^<]*)</text>')
_BURST = re.compile(r'<g class="rk-change"[^>]*data-kind="(?:hit|gone)"[^>]*>\s*<polygon points="([^"]+)"')
_GROUP = re.compile(r'<g class="rk-change".*?</g>', re.S)


def bursts_over_text(svg: str) -> list[str]:
    """The texts of a drawing (outside its change marks) that a damage burst covers and that are not
    drawn again over it (on a halo: `paint-order="stroke"`)."""
    import html

    found = _TEXT_EL.findall(_GROUP.sub("", svg))
    on_top = {(x, y, t) for x, y, _s, _a, _w, t in found if re.search(
        rf'<text x="{re.escape(x)}" y="{re.escape(y)}"[^>]*paint-order="stroke"[^>]*>{re.escape(t)}<', svg)}
    texts = [(html.unescape(t), draw.text_box(float(x), float(y), html.unescape(t), float(size), anchor,
                                              weight or None))
             for x, y, size, anchor, weight, t in found if t.strip() and (x, y, t) not in on_top]
    out = []
    for points in _BURST.findall(svg):
        xy = [tuple(map(float, p.split(","))) for p in points.split()]
        xs, ys = [p[0] for p in xy], [p[1] for p in xy]
        box = draw.Box(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))
        out += [t for t, tb in texts if draw.overlaps(box, tb)]
    return out


def test_bursts_never_hide_a_label(replayed: Any) -> None:
    """A damage burst sits beside the piece it marks, clear of a car's letters, a tile's name and any
    other text of the drawing (the text's box estimated as the drawing code estimates it); where no
    place around the piece is clear, the labels it covers are drawn again over it."""
    game, runs = replayed
    found = {f"{prepared.loaded.scenario.id}: {t!r}" for prepared, _run, files, _record in runs
             for data in files.values() for t in bursts_over_text(data.decode())}
    assert not found, f"{game}: bursts over labels: {sorted(found)[:8]}"


def test_bursts_over_text_finds_a_covered_letter() -> None:
    pic = draw.Svg(100, 100)
    pic.text(50, 54, "X", size=10, weight="bold")
    pic.items.append('<g class="rk-change" data-piece="x" data-kind="hit" data-at="50 50">')
    draw.burst(pic, 50, 50, 13, "-1")
    pic.items.append("</g>")
    assert bursts_over_text(pic.render()) == ["X"]
    pic.items[1:] = []
    pic.items.append('<g class="rk-change" data-piece="x" data-kind="hit" data-at="50 50">')
    draw.burst(pic, *draw.clear_spot(pic, 50, 50, 11, 13, first=(0.7, -0.7)), 13, "-1")
    pic.items.append("</g>")
    assert bursts_over_text(pic.render()) == []


_SHAPE = re.compile(r'<(rect|circle|polygon|text) ([^>]*)>(?:([^<]*)</text>)?')
_ATTR = re.compile(r'([\w-]+)="([^"]*)"')


def low_contrast_labels(svg: str) -> list[str]:
    """Each text of a drawing whose colour reads below 4.5:1 on the solid shape drawn under it (read
    from the SVG itself, in document order; the paper where no shape is)."""
    import html

    from reportlab.lib.colors import HexColor

    from generators.pdf.colour import contrast

    shapes: list[tuple[str, tuple[Any, ...], str]] = []
    out = []
    for tag, attrs, text in _SHAPE.findall(svg):
        a = dict(_ATTR.findall(attrs))
        fill = a.get("fill", "")
        if tag == "text":
            words = html.unescape(text)
            if not words.strip() or not fill.startswith("#"):
                continue
            box = draw.text_box(float(a["x"]), float(a["y"]), words, float(a["font-size"]),
                                a.get("text-anchor", "start"), a.get("font-weight"))
            cx, cy = box.x + box.w / 2, box.y + box.h / 2
            under = next((f for k, sh, f in reversed(shapes) if draw.inside(k, sh, cx, cy)), "#ffffff")
            if a.get("paint-order") == "stroke" and a.get("stroke", "").startswith("#"):
                under = a["stroke"]  # drawn on its own halo
            ratio = contrast(HexColor(fill), HexColor(under))
            if ratio < 4.5:
                out.append(f"{words!r} {fill} on {under} ({ratio:.2f}:1)")
        elif fill.startswith("#") and float(a.get("fill-opacity", "1")) >= 0.9:
            if tag == "rect":
                shape: tuple[Any, ...] = tuple(float(a[k]) for k in ("x", "y", "width", "height"))
            elif tag == "circle":
                shape = tuple(float(a[k]) for k in ("cx", "cy", "r"))
            else:
                shape = tuple(tuple(map(float, p.split(","))) for p in a["points"].split())
            shapes.append((tag, shape, fill))
    return out


def test_labels_contrast_with_what_is_under_them(replayed: Any) -> None:
    """Every text of every drawing reads at 4.5:1 or more against the fill under it (a space's
    name on a dark oil slick, a burst's figure on the burst)."""
    game, runs = replayed
    found = {f"{prepared.loaded.scenario.id}: {t}" for prepared, _run, files, _record in runs
             for data in files.values() for t in low_contrast_labels(data.decode())}
    assert not found, f"{game}: labels that do not stand out from what is under them: {sorted(found)[:8]}"


def test_low_contrast_labels_finds_dark_on_dark() -> None:
    text = '<text x="20" y="{}" font-family="sans-serif" font-size="10" text-anchor="middle" fill="#1b1b1b">{}</text>'
    dark = '<rect x="0" y="0" width="40" height="40" fill="#3b3b3b"/>'
    svg = f'<svg>{dark}{text.format(24, "1:c6")}{text.format(60, "ok")}</svg>'
    assert len(low_contrast_labels(svg)) == 1 and "1:c6" in low_contrast_labels(svg)[0]
    pic = draw.Svg(40, 40)
    pic.rect(0, 0, 40, 40, "#3b3b3b")
    pic.text(20, 24, "1:c6", fill="#1b1b1b")
    assert low_contrast_labels(pic.render()) == []


_POLYLINE = re.compile(r'<polyline points="([^"]+)"')


def test_moves_are_drawn_as_driven(replayed: Any) -> None:
    """Where the engine tells the places a piece passed through (a forward-left-forward card), the
    drawing's arrow for that move bends through each of them: the path is a polyline with a corner
    for every place passed, not one straight line from start to end."""
    game, runs = replayed
    checked = 0
    for prepared, run, files, record in runs:
        if not run.finished or record["after_svg"] is None:
            continue
        turns = [places for route in run.routes for places in route.values() if len(places) >= 2]
        if not turns:
            continue
        groups = "".join(g for g in _GROUP.findall(_drawing(files, record["after_svg"])) if 'data-kind="move"' in g)
        corners = max((len(m.split()) for m in _POLYLINE.findall(groups)), default=0)
        assert corners >= 2, f"{prepared.loaded.scenario.id}: a move through {turns[0]} drawn straight"
        checked += 1
    if game == "mission-drive":  # its moves follow a card's arrows
        assert checked, "no example of a move along several places was drawn"


def test_via_keeps_the_places_between() -> None:
    start, mid1, mid2, end = (0.5, 3.5), (0.5, 2.5), (1.5, 2.5), (1.5, 1.5)
    moved = draw.Change("hero", "move", "the hero", "moves", end, 0.5, start=start)
    piece = draw.Piece("hero", "hero", "the hero", "x", *start)
    out = draw.via([moved], [{"hero": [mid1, mid2, end]}], [[piece], [piece]])
    assert out[0].via == (mid1, mid2)
    assert draw.via([moved], [{}], [[piece], [piece]])[0].via == ()


def test_focused_drawings_are_deterministic(replayed: Any) -> None:
    game, runs = replayed
    engine = WORK[game].engine
    drawn = [r for r in runs if r[3]["after_svg"] is not None]
    assert drawn, f"{game}: no example draws anything"
    for prepared, _run, files, _record in drawn[::max(1, len(drawn) // 10)]:  # ten, from first to last
        again: dict[str, bytes] = {}
        run_scenario(game, prepared, engine, again)
        assert again == files


@pytest.mark.parametrize("game", sorted(WORK), ids=str)
def test_legend_covers_every_piece_kind(game: str) -> None:
    w = WORK[game]
    legend = w.engine.legend()
    kinds = [s.kind for s in legend]
    assert legend, f"{game}: no legend"
    assert len(set(kinds)) == len(kinds), f"{game}: a legend kind twice"
    for s in legend:
        assert s.label and "_" not in s.label and s.svg.startswith("<svg "), s
    # A scenario whose setup the rules refuse has no state to draw.
    shown = {p.kind for pr in w.scenarios if pr.state is not None for p in w.engine.pieces(pr.state)}
    assert shown, f"{game}: the engine lists no pieces"
    assert shown <= set(kinds), f"{game}: pieces without a legend entry: {sorted(shown - set(kinds))}"


def test_changes_pair_alike_pieces_by_distance() -> None:
    car = dict(kind="enemy-car", name="the enemy car", r=0.5, reach=4)
    before = [draw.Piece("car", place="row 1", x=0, y=1, **car), draw.Piece("car", place="row 2", x=0, y=2, **car)]
    after = [draw.Piece("car", place="row 2", x=0, y=2, **car), draw.Piece("car", place="row 3", x=0, y=3, **car),
             draw.Piece("car", place="row 9", x=0, y=9, **car)]
    changes = draw.changes_between(before, after)
    assert [(c.kind, c.words) for c in changes] == [("move", "moves from row 1 to row 3"), ("new", "appears in row 9")]
    assert draw.sentence(changes) == "The enemy car moves from row 1 to row 3; the enemy car appears in row 9."
    window = draw.window_of(changes)
    assert window is not None and window.contains(0, 1) and window.contains(0, 9)


def test_a_drawing_without_focus_stays_whole() -> None:
    for w in WORK.values():
        state = next(pr.state for pr in w.scenarios if pr.state is not None)
        assert w.engine.draw_svg(state) == w.engine.draw_svg(state, None)
        assert engine_of(w.game) is not None
