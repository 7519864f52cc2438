"""What keeps the print kit fast without changing it: ReportLab's C accelerator in use, binary (not
ASCII85) streams, and the same content still giving byte-identical PDFs."""

from __future__ import annotations

from generators.content.loader import load_content
from tests.helpers import CONTENT


def test_reportlab_uses_its_c_accelerator() -> None:
    from reportlab.lib import rl_accel

    for name in ("fp_str", "escapePDF", "instanceStringWidthTTF", "unicode2T1"):
        assert getattr(rl_accel, name).__module__ == "_rl_accel", name


def test_documents_have_binary_streams_and_stay_byte_identical() -> None:
    from generators.pdf import documents
    from generators.pdf.faces import Look
    from generators.pdf.options import CARD_KINDS, Options

    content = load_content(CONTENT, ["mission-drive"])
    game = content.games[0]
    made = [documents.duplex(game, Look(game, content.icons), Options(paper="a4"), CARD_KINDS, "cards")
            for _ in range(2)]
    assert made[0] == made[1]
    assert b"/FlateDecode" in made[0] and b"ASCII85" not in made[0]
