"""`roadkit site --engine zensical`: the site staged as one project (as `mkdocs serve` sees it) and
built by Zensical into build/site-zensical/, so the move from Material for MkDocs can be tried
before Material's support ends. Material stays the default engine and builds build/site/.

Zensical reads `mkdocs.yml`, but refuses options it does not know: the config it gets is the
top-level file with the generated navigation merged in (no INHERIT: one file to read), with only
the search options Zensical has. What this build lacks next to Material's is listed in the README.
"""

from __future__ import annotations

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

SITE = "site-zensical"  # build/site-zensical/
STAGE = "zensical-docs"  # build/zensical-docs/docs/: the pages as Zensical gets them
CONFIG = "zensical.mkdocs.yml"  # Zensical wants docs and site inside the config's folder (STAGE)
ZENSICAL_CACHE = ".cache"  # what Zensical writes beside its config (emptied by --clean, removed after)
SEARCH_OPTIONS = ("separator",)  # the search options Zensical 0.0.x accepts (it refuses the others)
# A page's search weight in its front matter (Material's `search: boost:`, pages.BOOSTS).
_BOOST = re.compile(rb"\A---\nsearch:\n  boost: ([0-9.]+)\n")


def available() -> bool:
    """Whether Zensical is installed (the optional extra: pip install -e '.[zensical]')."""

    return find_spec("zensical") is not None


def without_weights(page: bytes) -> bytes:
    """A page Material weighs below an ordinary one (`search: boost:` under 1: worked examples, the
    A-Z, components) left out of the index: Zensical's search has no weights, so those pages
    outranked the rules they illustrate ("ramming" found three examples before the rule)."""
    m = _BOOST.match(page)
    if m is None or float(m.group(1)) >= 1:
        return page
    return page[: m.end()] + b"  exclude: true\n" + page[m.end():]


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
    staged, *_ = stage_site(content, out, into=home, page=without_weights)
    site = out / SITE
    with Commit(manifest) as commit:
        new = commit.temp_folder(home / SITE)
        path = home / f".{CONFIG}.{os.getpid()}{TMP_SUFFIX}"  # names the temporary folder: temporary too
        text = "# Generated by `roadkit site --engine zensical`. Do not edit.\n" + yaml.safe_dump(
            config(staged, home, new.name), sort_keys=False, allow_unicode=True, width=1000)
        try:
            write_atomic(path, text.encode("utf-8"))
            _run(home, path, new)
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
