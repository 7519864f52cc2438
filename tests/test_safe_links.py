"""Link targets are judged on the parsed page: no Markdown text makes a link a browser would run.

The attempts (tests/link_tricks.py: the reported cases, the classic spellings and a few hundred
generated ones) are rendered as the site renders them; the oracle there reads each URL the way a
browser does, apart from the code under test. Every attempt that makes a running link without the
check must be found by validate's check (with a line in the text) and be gone from the page with
it; links that are allowed must pass untouched. `roadkit validate` names the place in every kind of
Markdown text: a rules body, a part of a ruling, a glossary definition, a quick-reference card and
a hand-written site page."""

from __future__ import annotations

import random
from pathlib import Path

import markdown
import pytest

from generators.build_system.errors import ContentError
from generators.site import safe_links
from generators.site.escape import markdown_body
from generators.validate import check_site_pages, validate
from tests.helpers import copy_content, fingerprint, run_cli
from tests.link_tricks import attempts, runs_script, urls


def _render(text: str, checked: bool) -> str:
    (names, configs), = safe_links._site_extensions()
    names = [n for n in names if checked or n != safe_links.__name__]
    return markdown.markdown(markdown_body(text), extensions=names, extension_configs=configs)


ATTEMPTS = attempts(seed=41, count=400)


def test_the_attempts_make_running_links_without_the_check() -> None:
    """The corpus is worth something: most attempts do make a running link on an unchecked page."""
    running = [a for a in ATTEMPTS if any(runs_script(u) for u in urls(_render(a, checked=False)))]
    assert len(running) > len(ATTEMPTS) // 2, f"only {len(running)} of {len(ATTEMPTS)} attempts run a script"
    assert "[a](\njavascript:alert(1))" in running and "[a](jav&#x61;script:alert(1))" in running


@pytest.mark.parametrize("attempt", ATTEMPTS, ids=range(len(ATTEMPTS)))
def test_every_running_link_is_found_and_kept_off_the_page(attempt: str) -> None:
    unchecked = [u for u in urls(_render(attempt, checked=False)) if runs_script(u)]
    page = markdown_body(attempt)
    if unchecked:
        assert safe_links.forbidden_links(page), f"not found: {unchecked}"
        found = safe_links.locate(page)
        assert found is not None and 1 <= found[0] <= page.count("\n") + 1
    assert not [u for u in urls(_render(attempt, checked=True)) if runs_script(u)]


ALLOWED = ["https://example.org/a:b?c=d#e", "http://example.org", "mailto:someone@example.org", "#ramming",
           "ramming.md#x", "../other/page.html", "//example.org/x", "a%3Ab", "./x:y"]


@pytest.mark.parametrize("url", ALLOWED)
def test_allowed_links_pass_untouched(url: str) -> None:
    for text in (f"[a]({url})", f"[a][r]\n\n[r]: {url}", f"![a]({url})"):
        assert safe_links.forbidden_links(markdown_body(text)) == []
        assert url in urls(_render(text, checked=True))


def test_generated_attempts_differ_by_seed() -> None:
    assert attempts(1, 20) != attempts(2, 20)
    assert all(isinstance(a, str) and a for a in attempts(random.randrange(1000), 5))


# --- validate names the place ---------------------------------------------------------------------

GAME = "vampire-chase"
# (what is written, the line of it that holds the target, the target's column on that line)
TRICKS = [
    ("[a][x]\n\n[x]:\n  javascript:alert(1)", 3, 3),
    ("> [x]: jav&#x61;script:alert(1)\n>\n> [x]", 0, 8),
    ("- item\n\n    [a](\n    JAVASCRIPT:alert(1))", 3, 5),
    ("[a](vbscript:msgbox(1))", 0, 5),
]


def _written(content: Path, kind: str, trick: str) -> tuple[Path, int, int]:
    """Write `trick` into a text of `kind`; the file and where the trick's first line landed."""
    game = content / GAME
    indent = "      "
    if kind == "rules body":
        file = game / "rules" / "achievements.md"
        before = file.read_text("utf-8").rstrip("\n") + "\n\n"
        file.write_text(before + trick + "\n", "utf-8")
        return file, before.count("\n") + 1, 0
    if kind == "ruling":
        file = game / "notes.yaml"
        before = file.read_text("utf-8").rstrip("\n") + "\n"
        head = ("  - id: zz-trick\n    title: A trick\n    section: Nowhere\n    settles: kit\n    text: |-\n"
                f"{indent}**The book says:** nothing.\n\n{indent}**We play:** ")
        body = trick.replace("\n", "\n" + indent)
        file.write_text(before + head + body + "\n", "utf-8")
        return file, (before + head).count("\n") + 1, len(indent) + len("**We play:** ")
    if kind == "glossary":
        file = game / "glossary.yaml"
        before = file.read_text("utf-8").rstrip("\n") + "\n"
        head = f"  - term: Zz trick\n    definition: |-\n{indent}"
        file.write_text(before + head + trick.replace("\n", "\n" + indent) + "\n", "utf-8")
        return file, (before + head).count("\n") + 1, len(indent)
    file = game / "quick-reference.yaml"
    before = file.read_text("utf-8").rstrip("\n") + "\n"
    head = f"  - title: Zz trick\n    rule: mission\n    text: |-\n{indent}"
    file.write_text(before + head + trick.replace("\n", "\n" + indent) + "\n", "utf-8")
    return file, (before + head).count("\n") + 1, len(indent)


@pytest.mark.parametrize("kind", ["rules body", "ruling", "glossary", "quick reference"])
@pytest.mark.parametrize("trick", TRICKS, ids=[t[0][:24] for t in TRICKS])
def test_validate_names_a_forbidden_link_at_its_place(tmp_path: Path, kind: str,
                                                      trick: tuple[str, int, int]) -> None:
    text, line_in, col = trick
    content = copy_content(tmp_path, (GAME,))
    file, first, offset = _written(content, kind, text)
    with pytest.raises(ContentError) as err:
        validate(content, [GAME])
    e = err.value
    assert Path(e.file).name == file.name, str(e)
    expected_col = (offset if line_in == 0 else len("      ") if kind != "rules body" else 0) + col
    assert (e.line, e.column) == (first + line_in, expected_col), str(e)
    assert "scheme" in e.message, str(e)


def test_validate_refuses_a_forbidden_link_on_a_site_page(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "about.md").write_text("# About\n\nFine [link](https://example.org).\n\n[x]:\n  data:text/html,x\n\n[x]\n",
                                   "utf-8")
    with pytest.raises(ContentError) as err:
        check_site_pages(site)
    assert (err.value.line, err.value.column) == (6, 3), str(err.value)


def test_the_command_exits_2_with_one_located_line_and_build_untouched(tmp_path: Path) -> None:
    content = copy_content(tmp_path, (GAME,))
    out = tmp_path / "build"
    out.mkdir()
    (out / "keep.txt").write_text("as it was", "utf-8")
    before = fingerprint(out)
    file, first, _ = _written(content, "rules body", "[a](\njavascript:alert(1))")
    result = run_cli("build", "--content", content, "--game", GAME, "--out", out, "-q")
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and f"{file.name}:{first + 1}:1: " in lines[0], result.stderr
    assert fingerprint(out) == before


# --- validate and the build agree on every shape of link --------------------------------------------

# Targets a text may well hold, beside the running ones: an entry (as the site resolves it, or not),
# a web address, a page that is not there, and references or percent-encoding before a scheme that
# leave a relative URL leading nowhere.
TARGETS = ["#achievements", "achievements", "achievements.md#x", "https://example.org/a:b", "mailto:x@example.org",
           "#nowhere", "../other/page.html", "//example.org/x", "%6Aavascript:alert(1)", "&#0;javascript:alert(1)",
           "&#0javascript:alert(1)", "&#xFEFF;https://example.org", "java\tscript:alert(1)"]


def _shapes(seed: int, count: int) -> list[str]:
    from tests.link_tricks import generated, shaped

    rng = random.Random(seed)
    return [generated(rng, n=i, decoy=i % 3 == 1) if i % 3 else shaped(rng, rng.choice(TARGETS), n=i)
            for i in range(count)]


def _judged(game, text: str) -> bool:
    """Whether validate accepts `text` at the end of the game's first rules entry."""
    from dataclasses import replace

    from generators.validate import check_link_schemes, check_links

    first = game.rules[0]
    changed = replace(game, rules=(replace(first, body=f"{first.body}\n\n{text}\n"), *game.rules[1:]))
    try:
        check_link_schemes(changed)
        check_links(changed)
    except ContentError:
        return False
    return True


def test_validate_and_the_build_agree_on_every_shape_of_link(tmp_path: Path) -> None:
    """Generated link shapes (entity-encoded, numeric references with and without `;`, tabs and
    newlines in a scheme, percent-encoding, data: and vbscript:, nested brackets, reference
    definitions), with running schemes and with ordinary targets: validate refuses some; all the others
    together make a site that builds (no link leading nowhere: the build's exit 4) and holds no link a
    browser would run."""
    from generators.content.loader import load_content
    from generators.site.build import build_site

    content = copy_content(tmp_path, (GAME,))
    game = validate(content, [GAME]).content.game(GAME)
    shapes = [s for s in _shapes(41, 240) if not any(ord(c) < 32 and c not in "\n\t" for c in s)]
    accepted = [s for s in shapes if _judged(game, s)]
    refused = len(shapes) - len(accepted)
    assert accepted and refused > len(shapes) // 2, (len(accepted), refused)  # two thirds run or lead nowhere
    file = content / GAME / "rules" / "achievements.md"
    file.write_text(file.read_text("utf-8").rstrip("\n") + "\n\n" + "\n\n".join(accepted) + "\n", "utf-8")
    validate(content, [GAME])  # together too
    out = tmp_path / "out"
    build_site(load_content(content), out, say=lambda _: None)  # a link leading nowhere raises (exit 4)
    emitted = [(p.name, u) for p in sorted((out / "site").rglob("*.html")) for u in urls(p.read_text("utf-8"))]
    assert [(p, u) for p, u in emitted if runs_script(u)] == []
    assert any(u == "https://example.org/a:b" for _, u in emitted)  # accepted links do reach the page


@pytest.mark.parametrize(("trick", "line", "said"), [("[a](javascript:alert(1))", 0, "scheme"),
                                                      ("[b][x]\n\n[x]: #nowhere", 2, "matches no rules entry"),
                                                      ("[c](#nowhere)", 0, "matches no rules entry")])
def test_a_translation_s_texts_are_checked_as_the_english_ones(tmp_path: Path, trick: str, line: int,
                                                               said: str) -> None:
    """The site renders each translation's rules bodies, glossary and quick reference too: validate
    reads them as it reads the English ones, at their own file and line."""
    content = copy_content(tmp_path, ("dronovody",))
    file = sorted((content / "dronovody" / "uk" / "rules").glob("*.md"))[0]
    before = file.read_text("utf-8").rstrip("\n") + "\n\n"
    file.write_text(before + trick + "\n", "utf-8")
    with pytest.raises(ContentError) as err:
        validate(content, ["dronovody"])
    assert Path(err.value.file).name == file.name and "uk" in Path(err.value.file).parts, str(err.value)
    assert err.value.line == before.count("\n") + 1 + line, str(err.value)
    assert said in err.value.message, str(err.value)


def test_a_glossary_definition_is_judged_as_the_site_puts_it_too(tmp_path: Path) -> None:
    """The glossary shows a definition on one line: there a target split over two lines (a raw line
    break in the scheme) is one relative target leading nowhere (the link-trick site's build failed on
    this one). Validate judges the definition as written and on one line, and refuses it at the
    definition."""
    from generators.validate import _forms

    content = copy_content(tmp_path, (GAME,))
    trick = '[a](&#1;Java&#13;S&#99;ript\n:alert(document.domain)\n"t")'
    one_line = " ".join(markdown_body(trick).split())
    assert [u for u, _ in safe_links.forbidden_links(one_line, lambda u: "x" if safe_links.relative(u) else None)]
    assert [one for _, one in _forms(("terms", 0, "definition"), trick)] == [False, True]
    assert [one for _, one in _forms(("notes", 0, "text"), trick)] == [False]
    file, first, _ = _written(content, "glossary", trick)
    with pytest.raises(ContentError) as err:
        validate(content, [GAME])
    assert Path(err.value.file).name == file.name and first - 1 <= err.value.line <= first + 2, str(err.value)
    assert "definition" in str(err.value), str(err.value)
