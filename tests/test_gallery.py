"""A rules entry's `gallery:` shows every face of the components it names, both sides, under the
entry (a tile atlas); naming a component the game does not have is a located content error."""

from __future__ import annotations

from pathlib import Path

from generators.content.loader import load_content
from generators.site.context import game_site
from generators.site.examples import load_report
from generators.site.numbers import game_codes
from generators.site.pages import render
from tests.helpers import copy_content, run_cli

ROOT = Path(__file__).resolve().parent.parent


def test_a_gallery_shows_every_side_of_its_components(tmp_path: Path) -> None:
    content = load_content(ROOT / "content")
    games = [g for g in content.games if any(r.meta.gallery for r in g.rules)]
    assert games, "no game uses a gallery yet"
    for game in games:
        site = game_site(content, game, tmp_path, load_report(tmp_path), game_codes(content.games)[game.id])
        for entry in (r for r in game.rules if r.meta.gallery):
            chapter = next(c for c in game.game.chapters if c.id == entry.meta.chapter)
            text = render("chapter.md.j2", site.pages.chapter(chapter.id), content, site, chapter=chapter).text
            gallery = text.split(f"{{#{entry.id}}}", 1)[1].split("rk-gallery", 1)[1]
            for comp in (c for c in game.components if c.id in entry.meta.gallery):
                for face in comp.faces:
                    for side in (face.front, face.back):
                        if side is not None:
                            assert f"**{side.title}**" in gallery.replace("&#42;", "*"), side.title


def test_a_gallery_naming_no_component_is_a_located_error(tmp_path: Path) -> None:
    content = copy_content(tmp_path, ("mission-drive",))
    rule = next((content / "mission-drive" / "rules").glob("*.md"))
    text = rule.read_text("utf-8")
    rule.write_text(text.replace("---\n", "---\ngallery: [no-such-deck]\n", 1), "utf-8")
    result = run_cli("validate", "--content", content)
    assert result.returncode == 2
    line = result.stderr.strip().splitlines()[-1]
    assert f"rules/{rule.name}:2:" in line and "no component 'no-such-deck'" in line
