"""A hand-written site page (site/*.md) whose relative link or image leads nowhere is a content
mistake at its `file:line:column` (exit 2 from `roadkit validate` and every command that runs it),
not a build that fails at the site's link check: judged on what Python-Markdown makes of the page
(inline links, images, reference definitions, angle brackets, a target on the next line), against
site/'s files and the pages the site makes; in the site build, against the assembled site."""

from __future__ import annotations

from pathlib import Path

import pytest

from generators.build_system.errors import ContentError
from generators.site import hand_links
from generators.validate import check_site_pages
from tests.fuzz import LINE
from tests.helpers import copy_content

GAME = "vampire-chase"
TOP = "# About\n\nSome words.\n\n"  # the tested line is line 5


def _site(tmp_path: Path, text: str, page: str = "about.md") -> Path:
    site = tmp_path / "site"
    for rel, body in {"guide/index.md": "# Guide\n", "guide/site.md": "# Site\n", "assets/map.png": "png",
                      "about.md": "# About\n"}.items():
        (site / rel).parent.mkdir(parents=True, exist_ok=True)
        (site / rel).write_text(body, "utf-8")
    (site / page).write_text(text, "utf-8")
    return site


@pytest.mark.parametrize(("text", "at", "col", "why"), [
    ("See [the rules](rules.md) first.", 5, 17, "leads nowhere"),
    ("A map: ![the map](assets/mapp.png)", 5, 19, "leads nowhere"),
    ("Read [this][ref].\n\n[ref]: <gone.md>", 7, 9, "leads nowhere"),
    ("Read [this][ref].\n\n[ref]:\n    guide/gone.md", 8, 5, "leads nowhere"),  # its target on the next line
    ("- a list\n    - with [a link](guide/site.md/x.md)", 6, 21, "leads nowhere"),
    ("| a | b |\n|---|---|\n| [x](../../etc/passwd) | y |", 7, 7, "out of the site"),
    ("Served [here](/guide/site.md).", 5, 15, "root of a web server"),
    ("[Ab&#111;ut](abuot.md)", 5, 14, "leads nowhere"),
    ("[x](<gone.md> 'a title')", 5, 6, "leads nowhere"),
])
def test_a_dead_relative_link_on_a_site_page_is_located(tmp_path: Path, text: str, at: int, col: int,
                                                        why: str) -> None:
    site = _site(tmp_path, TOP + text + "\n")
    with pytest.raises(ContentError) as caught:
        check_site_pages(site, ["mission-drive"])
    e = caught.value
    assert Path(e.file).name == "about.md" and why in e.message, str(e)
    assert (e.line, e.column) == (at, col), str(e)


@pytest.mark.parametrize("link", [
    "[g](guide/index.md)", "[g](guide/)", "[g](guide/site.md#zensical)", "[c](guide/commands.md)",
    "[h](index.md)", "![m](assets/map.png)", "[o](mission-drive/index.md)", "[t](#top)", "[w](https://example.org)",
    "[m](mailto:a@example.org)", "[a](about.md?x=1)", "[e](ab&#111;ut.md)", "[p](%61bout.md)", "[s](404.html)",
    "[u](<about.md> \"title\")",
])
def test_links_that_lead_somewhere_pass(tmp_path: Path, link: str) -> None:
    check_site_pages(_site(tmp_path, TOP + link + "\n"), ["mission-drive"])


def test_a_guide_page_resolves_from_its_own_folder(tmp_path: Path) -> None:
    site = _site(tmp_path, "# Site\n\n[home](../index.md), [about](../about.md), [itself](site.md)\n\n"
                 "[gone](about.md)\n", page="guide/site.md")
    with pytest.raises(ContentError) as caught:
        check_site_pages(site, [])
    assert (caught.value.line, caught.value.column) == (5, 8) and "guide/about.md" in caught.value.message


def test_the_assembled_site_judges_what_validate_takes_on_trust(tmp_path: Path) -> None:
    """A game's pages are known by name only once made: validate takes a link into a game's folder on
    trust, and the site build judges it on the assembled site, still as a located mistake."""
    site = _site(tmp_path, TOP + "Play [it](mission-drive/nope.md) or [here](mission-drive/index.md).\n")
    check_site_pages(site, ["mission-drive"])
    built = tmp_path / "built"
    for rel in ("index.html", "about.html", "guide/index.html", "guide/site.html", "assets/map.png",
                "mission-drive/index.html"):
        (built / rel).parent.mkdir(parents=True, exist_ok=True)
        (built / rel).write_text("x", "utf-8")
    with pytest.raises(ContentError) as caught:
        hand_links.check_pages(site, hand_links.in_site(built))
    assert (caught.value.line, caught.value.column) == (5, 11) and "mission-drive/nope.md" in caught.value.message
    (built / "mission-drive" / "nope.html").write_text("x", "utf-8")
    hand_links.check_pages(site, hand_links.in_site(built))


def test_validate_exits_2_with_one_located_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    from generators import cli
    from generators.site import paths

    monkeypatch.setattr(paths, "SITE_SRC", _site(tmp_path, TOP + "[rules](gone.md)\n"))
    status = cli.main(["validate", "--content", str(copy_content(tmp_path, (GAME,)))])
    err = capsys.readouterr().err.strip()
    assert status == 2 and "Traceback" not in err and len(err.splitlines()) == 1, err
    m = LINE.match(err)
    assert m and m["file"].endswith("about.md") and (m["line"], m["col"]) == ("5", "9"), err


def test_the_real_site_pages_lead_somewhere() -> None:
    from generators.site.paths import SITE_SRC

    check_site_pages(SITE_SRC, [p.name for p in (Path(__file__).parent.parent / "content").iterdir() if p.is_dir()])
