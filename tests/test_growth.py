"""Bounds on everything that grows, and a cost that grows with it linearly up to the bound.

Every list and mapping of the content has a stated cap (chapters 50, aliases 20 a term, glossary
terms 400, ...; any other list 1,000 entries; a folder 1,000 content files): over it, one located
line. Below it the site's own work (staging every page, the tooltips on every page) must stay
linear: the extra CPU time that 10n chapters or aliases add is compared with what n add, measured
in the same test run (best of three), or the HTML the site build writes for them, against a generous
ratio: linear work gives about 10, the quadratic walks this replaced gave 100 and more."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from generators.build_system.errors import ContentError
from generators.content.loader import load_content
from generators.content.model import Game, Glossary, Term
from generators.content.schema import MAX_ITEMS
from generators.content.yaml_io import MAX_FOLDER_FILES
from generators.site import tooltips
from generators.site.build import build_site
from generators.site.tooltips import add_tooltips, glosses
from generators.validate import validate
from tests.helpers import copy_content

GAME = "vampire-chase"
LINEAR = 25  # the most 10x the entries may cost over 1x (linear: ~10; quadratic: ~100)


def _cap(cls: type, name: str) -> int:
    return next(f.metadata["max_items"] for f in cls.__dataclass_fields__.values() if f.name == name)


def _best_cpu(run: Callable[[], object], rounds: int = 3) -> float:
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        run()
        best = min(best, time.process_time() - start)
    return best


# --- caps ------------------------------------------------------------------------------------------


def _edit_yaml(path: Path, change: Callable[[dict], None]) -> None:
    data = yaml.safe_load(path.read_text("utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "utf-8")


def _chapters(n: int) -> Callable[[dict], None]:
    return lambda d: d["chapters"].extend({"id": f"extra-{i}", "title": f"Extra {i}"} for i in range(n))


CAPS: dict[str, tuple[str, Callable[[dict], None], str, int]] = {
    "chapters": ("game.yaml", _chapters(_cap(Game, "chapters")), "chapters", _cap(Game, "chapters")),
    "aliases": ("glossary.yaml", lambda d: d["terms"][0].__setitem__("aliases", [f"alias {i}" for i in range(21)]),
                "terms[0].aliases", _cap(Term, "aliases")),
    "terms": ("glossary.yaml", lambda d: d["terms"].extend({"term": f"word {i}", "definition": "x."}
                                                           for i in range(_cap(Glossary, "terms"))),
              "terms", _cap(Glossary, "terms")),
    "any other list": ("game.yaml", lambda d: d.__setitem__("needs", [f"thing {i}" for i in range(MAX_ITEMS + 1)]),
                       "needs", MAX_ITEMS),
}


@pytest.mark.parametrize("case", CAPS)
def test_a_list_over_its_cap_is_a_located_error(tmp_path: Path, case: str) -> None:
    file, change, keypath, cap = CAPS[case]
    content = copy_content(tmp_path, (GAME,))
    path = content / GAME / file
    _edit_yaml(path, change)
    with pytest.raises(ContentError) as err:
        validate(content, [GAME])
    e = err.value
    assert Path(e.file).name == file and str(e).split(": ")[1] == keypath, str(e)
    assert f"at most {cap:,}" in e.message
    key = keypath.rsplit(".", 1)[-1]
    assert re.match(rf"\s*(- )?{key}:", path.read_text("utf-8").split("\n")[e.line - 1]), str(e)


def test_a_folder_over_its_file_cap_is_a_located_error(tmp_path: Path) -> None:
    content = copy_content(tmp_path, (GAME,))
    examples = content / GAME / "examples"
    have = len(list(examples.glob("*.yaml")))
    for i in range(MAX_FOLDER_FILES - have + 1):
        (examples / f"zz-{i}.yaml").write_text("id: x\n", "utf-8")
    with pytest.raises(ContentError) as err:
        validate(content, [GAME])
    assert Path(err.value.file).name == "examples" and f"at most {MAX_FOLDER_FILES:,}" in err.value.message


# --- linear cost below the caps --------------------------------------------------------------------


def _with_chapters(root: Path, n: int) -> Path:
    content = copy_content(root, (GAME,))
    _edit_yaml(content / GAME / "game.yaml", _chapters(n))
    for i in range(n):
        (content / GAME / "rules" / f"extra-{i}.md").write_text(
            f"---\ntitle: Extra rule {i}\nchapter: extra-{i}\nsection: Extra\norder: {i}\nsummary: An extra rule.\n"
            f"---\nSome words about the extra rule {i}, its [neighbour](#extra-{max(i - 1, 0)}).\n", "utf-8")
    return content


def test_the_built_site_grows_linearly_with_chapters(tmp_path: Path) -> None:
    """Counted, not timed: the HTML MkDocs writes (every page carries its navigation, so a walk of
    every chapter on every page shows as bytes) for n and 10n more chapters, each with an entry."""
    have = len(yaml.safe_load((copy_content(tmp_path / "real", (GAME,)) / GAME / "game.yaml").read_text("utf-8"))
               ["chapters"])
    n = (_cap(Game, "chapters") - have) // 10
    size = {}
    for k in (0, n, 10 * n):
        out = tmp_path / f"out{k}"
        build_site(load_content(_with_chapters(tmp_path / f"c{k}", k)), out, say=lambda _: None)
        size[k] = sum(p.stat().st_size for p in (out / "site").rglob("*.html"))
    ratio = (size[10 * n] - size[0]) / (size[n] - size[0])
    print(f"chapters: +{n} add {size[n] - size[0]:,} bytes of HTML, +{10 * n} add {size[10 * n] - size[0]:,}")
    assert ratio < LINEAR, f"{n} chapters add {size[n] - size[0]:,} bytes, {10 * n} add {size[10 * n] - size[0]:,}"


def test_tooltips_cost_linear_in_aliases() -> None:
    """A glossary of n aliases on a page that names each (the glossary page lists them all)."""
    def page(n: int) -> tuple[str, list]:
        per = _cap(Term, "aliases")
        terms = [Term(term=f"term {t}", definition="A word.", aliases=tuple(f"alias {t} {a}" for a in range(per)))
                 for t in range(n // per)]
        text = "\n\n".join(f"## Term {t}\n\nUse alias {t} {a} and term {t} in a sentence."
                           for t in range(n // per) for a in range(per))
        return text, glosses(terms)

    def cold(text: str, terms: list) -> str:
        tooltips._matcher.cache_clear()  # its one regex, made per glossary, counted too
        return add_tooltips(text, terms)

    n = 200
    small, large = page(n), page(10 * n)
    cost_n = _best_cpu(lambda: cold(*small))
    cost_10n = _best_cpu(lambda: cold(*large))
    print(f"aliases: {n} cost {cost_n:.3f} s, {10 * n} cost {cost_10n:.3f} s")
    assert "<abbr" in add_tooltips(*small)
    assert cost_10n / max(cost_n, 1e-4) < LINEAR, f"{n} aliases: {cost_n:.3f} s; {10 * n}: {cost_10n:.3f} s"
