"""`roadkit site --engine zensical`: the site staged as one project (as `mkdocs serve` sees it) and
built by Zensical into build/site-zensical/, so the move from Material for MkDocs can be tried
before Material's support ends. Material stays the default engine and builds build/site/.

Zensical reads `mkdocs.yml`, but refuses options it does not know: the config it gets is the
top-level file with the generated navigation merged in (no INHERIT: one file to read), with only
the search options Zensical has. What this build lacks next to Material's is listed in the README.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import yaml

from generators.build_system import child_lifetime
from generators.build_system.build_graph import TMP_SUFFIX, Commit, Manifest, remove_tree, user_path, write_atomic
from generators.build_system.errors import ToolError
from generators.content.loader import Content
from generators.site.build import stage_site
from generators.site.index_fields import zensical_entry, zensical_kept
from generators.site.pages import BOOSTS

SITE = "site-zensical"  # build/site-zensical/
STAGE = "zensical-docs"  # build/zensical-docs/docs/: the pages as Zensical gets them
CONFIG = "zensical.mkdocs.yml"  # Zensical wants docs and site inside the config's folder (STAGE)
ZENSICAL_CACHE = ".cache"  # what Zensical writes beside its config (emptied by --clean, removed after)
SEARCH_OPTIONS = ("separator",)  # the search options Zensical 0.0.x accepts (it refuses the others)
# A page's front matter (Material's `search: boost:` among it, pages.BOOSTS).
_FRONT = re.compile(rb"\A---\n(.*?\n)---\n", re.S)
# Question words, dropped from the query and the index alike: Zensical's search has no stop words and
# requires every word of a query ("what is my starting health" found nothing), so they are made part
# of its word separator (a whole word alone, any case). The same words assets/roadkit-search.js drops
# from a query on Material's search.
QUESTION_WORDS = ("a an and are at can do does for how i if in is it my of on or the to what when where which who "
                  "why will with а в де до з за зі із і й коли ми мій на нас ну о по та у хто чи що як яка який які")


def available() -> bool:
    """Whether Zensical is installed (the optional extra: pip install -e '.[zensical]')."""

    return find_spec("zensical") is not None


def rules_alone(page: bytes) -> bytes:
    """A page Material weighs below a rules page (`search: boost:` under the rules' weight: quick
    references, turn summaries, overviews, worked examples, the A-Z, components) left out of the
    index: Zensical's search has no weights, so those pages outranked the rules they point to
    ("ramming" found three examples before the rule, "scoring" a quick reference)."""
    m = _FRONT.match(page)
    meta = yaml.safe_load(m.group(1)) if m else None
    search = meta.get("search") if isinstance(meta, dict) else None
    if m is None or not isinstance(meta, dict) or not isinstance(search, dict) \
            or float(search.get("boost", BOOSTS["rules"])) >= BOOSTS["rules"]:
        return page
    front = yaml.safe_dump({**meta, "search": {"exclude": True}}, allow_unicode=True, sort_keys=False)
    return b"---\n" + front.encode("utf-8") + page[m.end(1):]


def separator(base: str) -> str:
    """Material's word separator with the question words added, each a whole word in any case."""
    def anycase(word: str) -> str:
        return "".join(f"[{c}{c.upper()}]" for c in word)
    words = "|".join(anycase(w) for w in sorted(QUESTION_WORDS.split(), key=len, reverse=True))
    return f"{base}|(?<![\\p{{L}}\\p{{N}}'’])(?:{words})(?![\\p{{L}}\\p{{N}}'’])"


def config(staged: Path, home: Path, site_dir: str = SITE) -> dict[str, Any]:
    """The whole configuration as Zensical reads it from `home`: the generated `staged` mkdocs.yml
    with the file it inherits merged in (as MkDocs' INHERIT does, theme and extra key by key), its
    docs and site folders, and the search options Zensical has."""
    generated = yaml.safe_load(staged.read_text("utf-8"))
    base = yaml.safe_load((staged.parent / generated.pop("INHERIT")).read_text("utf-8"))
    merged = {**base, **generated, "docs_dir": os.path.relpath(staged.parent / "docs", home), "site_dir": site_dir}
    for key in ("theme", "extra"):
        if isinstance(base.get(key), dict) and isinstance(generated.get(key), dict):
            merged[key] = {**base[key], **generated[key]}
    theme = merged.get("theme")
    if isinstance(theme, dict) and "custom_dir" in theme:  # written from the staged config's folder
        theme["custom_dir"] = os.path.relpath((staged.parent / theme["custom_dir"]).resolve(), home.resolve())
    plugins = []
    for entry in base.get("plugins") or []:
        name, options = next(iter(entry.items())) if isinstance(entry, dict) else (entry, {})
        if name == "search":
            options = {k: v for k, v in (options or {}).items() if k in SEARCH_OPTIONS}
            if isinstance(options.get("separator"), str):
                options["separator"] = separator(options["separator"])
        plugins.append({name: options or {}})
    merged["plugins"] = plugins
    merged.pop("validation", None)  # MkDocs' link checks; the build checks links itself
    return merged


def build(content: Content, out: Path, say: Callable[[str], None] = print, manifest: Manifest | None = None) -> Path:
    """Stage the site as one project and build it with Zensical into `out`/site-zensical; the folder.

    Zensical builds into a temporary folder inside the project (it refuses a site outside the
    config's folder), which is swapped in for build/site-zensical/ by the run's commit (`Commit`,
    within the run's transaction, as the Material site is): a failed or killed build leaves the
    previous site as it was, never a half-written one. Zensical itself dies with the run (`child_lifetime`),
    and its cache (which `--clean` empties anyway) never reaches build/."""

    if not available():
        raise ToolError("Zensical is not installed: pip install -c constraints.txt -e '.[zensical]'")
    home = out / STAGE
    staged, *_ = stage_site(content, out, into=home, page=rules_alone)
    site = out / SITE
    with Commit(manifest) as commit:
        new = commit.temp_folder(home / SITE)
        path = home / f".{CONFIG}.{os.getpid()}{TMP_SUFFIX}"  # names the temporary folder: temporary too
        text = "# Generated by `roadkit site --engine zensical`. Do not edit.\n" + yaml.safe_dump(
            config(staged, home, new.name), sort_keys=False, allow_unicode=True, width=1000)
        try:
            write_atomic(path, text.encode("utf-8"))
            _run(home, path, new)
            _hide_search_words(new)
        finally:
            path.unlink(missing_ok=True)
            remove_tree(home / ZENSICAL_CACHE)
        commit.folder(new, site)
        if (out / CONFIG).is_file():  # where earlier versions kept the config
            commit.remove(out / CONFIG)
        commit.apply()
    say(f"site (zensical): built {user_path(site)}")
    return site


def _run(home: Path, config_file: Path, site: Path) -> None:
    """Zensical, run in `home` (it wants docs and site inside the config's folder: the config's path
    is given from there, so a relative `--out`, the README's `build`, works as an absolute one)."""
    env = {**os.environ, "SOURCE_DATE_EPOCH": os.environ.get("SOURCE_DATE_EPOCH") or "0"}
    program = child_lifetime.command([sys.executable, "-m", "zensical", "build", "--clean", "-f", config_file.name])
    run = subprocess.run(program, cwd=home, env=env, capture_output=True, text=True, check=False)
    if run.returncode != 0 or not (site / "index.html").is_file():
        reason = (run.stderr or run.stdout).strip().splitlines()[-1:] or ["no site written"]
        raise ToolError(f"Zensical could not build the site: {reason[0]}")


def _hide_search_words(site: Path) -> None:
    """Zensical's index (search.json, and search.js for file://) with each rules entry's search-only
    words hidden in its text and no entry that says nothing (index_fields)."""
    path = site / "search.json"
    index = json.loads(path.read_text("utf-8"))
    index["items"] = [zensical_entry(item) for item in index.get("items", []) if zensical_kept(item)]
    text = json.dumps(index, ensure_ascii=False, separators=(",", ":"))
    write_atomic(path, text.encode("utf-8"))
    write_atomic(site / "search.js", f"var __index = {text}".encode())
