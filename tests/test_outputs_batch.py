"""Targets made together (build_graph.Batch) and the PNG exports they serve: grouping, order, limits, the
in-process and forked paths giving the same bytes, and a batched PNG equal in pixels to its face drawn
alone on a page of its own."""

from __future__ import annotations

import io
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image

from generators.build_system import build_graph
from generators.build_system.build_graph import Batch, Manifest, Target, realize, units
from tests.helpers import CONTENT


def _targets(tmp_path: Path, calls: list[list[str]]) -> list[Target]:
    def make(items):
        calls.append(list(items))
        return [f"batched {i}".encode() for i in items]

    batch = Batch(make, limit=2)
    lone = Target(tmp_path / "lone", "k", lambda: b"alone")
    return [Target(tmp_path / "a", "k", lambda: b"a", batch, "a"), lone,
            Target(tmp_path / "b", "k", lambda: b"b", batch, "b"),
            Target(tmp_path / "c", "k", lambda: b"c", batch, "c")]


def test_units_group_a_batch_in_chunks_of_its_limit(tmp_path: Path) -> None:
    targets = _targets(tmp_path, [])
    got = [[t.path.name for t in unit] for unit in units(targets)]
    assert got == [["a", "b"], ["lone"], ["c"]]


def test_a_batch_makes_its_stale_targets_in_one_call_each_chunk(tmp_path: Path) -> None:
    calls: list[list[str]] = []
    targets = _targets(tmp_path, calls)
    report = realize(targets, Manifest.load(tmp_path), jobs=1)
    assert sorted(p.name for p in report.made) == ["a", "b", "c", "lone"]
    assert calls == [["a", "b"], ["c"]]
    assert (tmp_path / "b").read_bytes() == b"batched b" and (tmp_path / "lone").read_bytes() == b"alone"
    calls.clear()
    (tmp_path / "b").unlink()  # only b is stale now: its batch is called for it alone
    realize(targets, Manifest.load(tmp_path), jobs=1)
    assert calls == [["b"]]


def test_forked_and_in_process_batches_write_the_same_bytes(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(build_graph, "MIN_PARALLEL_UNITS", 1)
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir(), two.mkdir()
    realize(_targets(one, []), Manifest.load(one), jobs=1)
    realize(_targets(two, []), Manifest.load(two), jobs=2)
    for name in ("a", "b", "c", "lone"):
        assert (one / name).read_bytes() == (two / name).read_bytes()


def test_prepare_runs_once_and_only_when_something_is_stale(tmp_path: Path) -> None:
    ran: list[int] = []
    targets = _targets(tmp_path, [])
    realize(targets, Manifest.load(tmp_path), jobs=1, prepare=lambda: ran.append(1))
    realize(targets, Manifest.load(tmp_path), jobs=1, prepare=lambda: ran.append(1))
    assert ran == [1]


def _pixels(data: bytes) -> tuple[str, tuple[int, int], bytes]:
    image = Image.open(io.BytesIO(data))
    return image.mode, image.size, image.tobytes()


def test_batched_pngs_have_the_pixels_of_each_face_drawn_alone() -> None:
    """One document for many faces must rasterise each face exactly as a page of its own does."""
    from generators.content.loader import load_content
    from generators.pdf.documents import single_side
    from generators.pdf.faces import Look
    from generators.pdf.print_targets import PNG_DPI, face_images, png_bytes, render_pngs

    content = load_content(CONTENT)
    checked = 0
    for game in content.games:
        by_comp: dict[str, list] = {}
        for comp, _, _, side in face_images(game):
            by_comp.setdefault(comp.id, [comp, []])[1].append(side)
        for comp, sides in list(by_comp.values())[:3]:
            sides = sides[:4]
            batched = render_pngs(content, game, comp, sides)
            for side, data in zip(sides, batched, strict=True):
                pdf = pdfium.PdfDocument(single_side(Look(game, content.icons), comp, side, ""))
                alone = png_bytes(pdf[0].render(scale=PNG_DPI / 72).to_pil())
                pdf.close()
                assert _pixels(data) == _pixels(alone), (game.id, comp.id, side.title)
                checked += 1
    assert checked >= 20
