"""Every reading an engine takes where the rulebook is silent, unclear or contradicts itself is a
ruling players see: the code marks the place with `# ruling: <id>`, and the id is a ruling in the
game's `notes.yaml` (with the book's words, our reading and the other reading), shown on the site; and
every ruling about play is one the engine applies (the link holds both ways).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.helpers import real_content

ROOT = Path(__file__).resolve().parent.parent
CONTENT = real_content()
ENGINES = ROOT / "generators" / "games"
MARK = re.compile(r"#\s*ruling:\s*([a-z0-9][a-z0-9-]*)")


def _sources(engine: str) -> list[Path]:
    package = ENGINES / engine
    return sorted(package.rglob("*.py")) if package.is_dir() else [ENGINES / f"{engine}.py"]


def marks(engine: str) -> dict[str, list[str]]:
    """Each ruling id marked in the engine's code, with where."""
    found: dict[str, list[str]] = {}
    for path in _sources(engine):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for m in MARK.finditer(line):
                found.setdefault(m.group(1), []).append(f"{path.relative_to(ROOT)}:{n}")
    return found


@pytest.mark.parametrize("game", [g for g in CONTENT.games if g.engine], ids=lambda g: g.id)
def test_every_marked_reading_is_a_ruling_players_see(game) -> None:
    rulings = {n.id for n in game.notes.notes}
    unknown = {k: v for k, v in marks(game.engine).items() if k not in rulings}
    assert not unknown, f"{game.id}: readings marked in the engine with no ruling in notes.yaml: {unknown}"


@pytest.mark.parametrize("game", [g for g in CONTENT.games if g.engine], ids=lambda g: g.id)
def test_every_ruling_about_play_is_a_reading_the_engine_takes(game) -> None:
    """The other way round: a ruling that settles how the game plays (not only this kit's components or
    the book's text, `settles: kit`) is applied by the engine, at a place its code marks."""
    marked = marks(game.engine)
    unmarked = [n.id for n in game.notes.notes if n.settles == "play" and n.id not in marked]
    assert not unmarked, (f"{game.id}: rulings about play that the engine never marks as applied (mark the code "
                          f"with '# ruling: <id>', or say 'settles: kit'): {unmarked}")


def test_a_mark_is_found(tmp_path: Path) -> None:
    assert MARK.findall("x = 1  # ruling: reposition-fills-gaps") == ["reposition-fills-gaps"]
    assert MARK.findall("# rulings are told") == []
