"""`roadkit site`: generate the rules reference site.

1. Pages are rendered from content (jinja2 -> plain Markdown), with the hand-written files of site/,
   the face PNGs and PDFs of the print kit and the rules check's diagrams, and cut into projects
   (generators/site/projects.py): the hub (home, about) and one per game.
2. MkDocs (Material, with its offline plugin: the one build works from a server and from file://)
   builds each stale project into a temporary folder, with --strict, on every core, the largest
   first. Each project is rendered, staged and built in a worker forked from this process once
   MkDocs is loaded (generators/site/mkdocs_run.py), so start-up is paid once and the pages of
   several games are rendered at the same time.
3. The new site is assembled beside the old one: rebuilt projects moved in, the others hard-linked
   from the current site; the hub gets the search index of all of them, each game its own; every link of the
   assembled site is checked; then it is swapped in for build/site in one step. A failure anywhere
   leaves the old site as it was.

Each project is a target of the build graph (generators/build_system/build_graph.py): its key hashes the code, its
game's content, the hand-written site/ and mkdocs.yml, the games' names (every project shows them
as tabs) and the keys of the print kit's and the check's outputs it shows (the hub: the bytes of the
content schemas its editors' guide prints). An edit to one game's
content rebuilds that game's project alone; a no-op rebuild does nothing.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from generators.build_system.build_graph import (
    SITE_CODE,
    Commit,
    Manifest,
    available_cores,
    build_lock,
    code_version,
    describe_os_error,
    digest,
    files_key,
    link_or_copy,
    realize,
    write_atomic,
)
from generators.build_system.errors import OutputError, ToolError
from generators.build_system.tree import files
from generators.check.report import PARTS, SIMULATIONS
from generators.content.loader import Content
from generators.site import mkdocs_run, play
from generators.site.assets import THUMBS, thumb_targets
from generators.site.collect import Shared, collect, ordered_games, prepare
from generators.site.guide import schema_files
from generators.site.hand_links import check_pages, in_site
from generators.site.index_fields import material_entry
from generators.site.linkcheck import broken_links
from generators.site.live import serve as live_serve
from generators.site.paths import REPO, SITE_SRC
from generators.site.projects import HUB, index_files, merged_index, own_docs, own_index, split
from generators.site.shared_assets import share_assets

Say = Callable[[str], None]
BASE_CONFIG = REPO / "mkdocs.yml"
OVERRIDES = SITE_SRC / "overrides"
SITE = "site"  # build/site/
KEPT = "build/ was left as it was"


def shown(game: str) -> tuple[str, ...]:
    """Outputs of other steps a game's pages show: its face PNGs, its PDFs on standard paper, its
    part of the rules check and its whole-game figures."""
    return (f"png/{game}/", f"print/a4/{game}-", f"print/letter/{game}-", f"check/{PARTS}/{game}.json",
            f"check/{SIMULATIONS}/{game}/")


@dataclass(frozen=True)
class SiteResult:
    site: Path
    built: tuple[str, ...]  # the projects rebuilt ("" is the hub)
    kept: tuple[str, ...]
    mkdocs_seconds: dict[str, float]
    seconds: float


def stage_site(content: Content, out: Path, into: Path | None = None,
               page: Callable[[bytes], bytes] | None = None) -> tuple[Path, int, int, int]:
    """The whole site as ONE project (for `mkdocs serve`): render and stage every page and file into
    `into`/docs (default `out`/docs) with its mkdocs.yml beside it; return (config, written, kept,
    removed). `out` is where the print kit and the check are; `page` rewrites each Markdown page."""

    into = into if into is not None else out
    collected = collect(content, out)
    if page is not None:
        for rel, data in collected.stage.texts.items():
            if rel.endswith(".md"):
                collected.stage.texts[rel] = page(data)
    report = collected.stage.sync(into / "docs")
    config = mkdocs_run.write_config(into, BASE_CONFIG, OVERRIDES, collected.nav)
    return config, len(report.written), report.kept, len(report.removed)


def ready_games(content: Content) -> list[str]:
    return [g.id for g in ordered_games(content) if g.game.status == "ready"]


def project_keys(content: Content, manifest: Manifest) -> dict[str, str]:
    """The key of each project: the hub first, then each ready game in navigation order."""
    root = Path(content.root)
    site_files = [BASE_CONFIG, *files(SITE_SRC)]
    games = ready_games(content)
    by_id = {g.id: g for g in content.games}
    # Every project shows every ready game's name and languages (tabs, scoped search) and the
    # hand-written pages.
    common = digest(code_version(*SITE_CODE), files_key(REPO, site_files), files_key(root, [root / "icons.yaml"]),
                    [(g, by_id[g].game.name, by_id[g].game.order, [t.language for t in by_id[g].game.translations])
                     for g in games])
    out = manifest.root
    keys = {HUB: digest(common, "hub", files_key(root, [Path(g.dir) / "game.yaml" for g in content.games]),
                        files_key(out, play.key_files(out, None)), files_key(out, schema_files(out)))}
    for g in games:
        keys[g] = digest(common, g, files_key(root, files(Path(by_id[g].dir))), manifest.entries(shown(g)),
                         files_key(out, play.key_files(out, g)))
    return keys


def marker(site: Path, project: str) -> Path:
    """The path the manifest records a project's key under: its folder, or the hub's home page."""
    return site / (project or "index.html")


def build_site(content: Content, out: Path, say: Say = print, manifest: Manifest | None = None) -> SiteResult:
    """Build build/site/: every stale project rebuilt, the others kept."""
    started = time.perf_counter()
    manifest = manifest if manifest is not None else Manifest.load(out)
    site = out / SITE
    keys = project_keys(content, manifest)
    stale = [p for p, key in keys.items() if not manifest.fresh(marker(site, p), key)]
    if not stale:
        say("site: up to date")
        return SiteResult(site, (), tuple(keys), {}, time.perf_counter() - started)
    # The components pages' small copies, made (and committed) before the workers fork to read them.
    realize(thumb_targets(content, out, manifest), manifest, [str(out / THUMBS) + "/"])
    with Commit(manifest) as commit:
        jobs = _jobs(content, out, stale, commit)
        timings = mkdocs_run.build(jobs, say, parallel=available_cores())
        new = commit.temp_folder(site)
        try:
            _assemble(new, site, list(keys), {p: job.dest for p, job in jobs.items()})
        except OSError as exc:
            raise OutputError(f"cannot assemble the site: {describe_os_error(exc)}; {KEPT}") from None

        # The pages of rebuilt projects; a kept project's links were checked when it was built, and
        # what they reach in other projects (overviews, fixed page names) changes only when the
        # games do, which rebuilds every project.
        broken = broken_links(new, [p for project in stale for p in _pages(new, project, list(keys))])
        if broken:  # one on a hand-written page is a content mistake, named where it is written
            check_pages(SITE_SRC, in_site(new))
            raise ToolError(f"the site has {len(broken)} broken link(s): {'; '.join(broken[:5])}; "
                            "the previous site was kept")
        commit.folder(new, site)
        for p in keys:
            commit.record(marker(site, p), keys[p])
        for gone in _recorded_projects(manifest, site) - set(keys):
            commit.record(marker(site, gone), None)
        commit.apply()
    say(f"site: rebuilt {', '.join(p or 'home' for p in stale)}; mkdocs "
        + ", ".join(f"{p or 'home'} {t:.1f} s" for p, t in timings.items()))
    return SiteResult(site, tuple(stale), tuple(p for p in keys if p not in stale), timings,
                      time.perf_counter() - started)


def _jobs(content: Content, out: Path, stale: list[str], commit: Commit) -> dict[str, mkdocs_run.Job]:
    """One MkDocs job per stale project, the longest first: each stages its docs and config in a
    temporary folder (in its worker) and builds into an empty one."""

    shared = prepare(content, out)  # what every project's pages need, done once before the workers fork
    staging = commit.temp_folder(out / "docs")
    sizes = _content_sizes(content)
    jobs = {}
    for project in sorted(stale, key=lambda p: sizes.get(p, 0), reverse=True):
        folder = staging / (project or "_home")
        dest = commit.temp_folder(out / f"{SITE}-{project or 'home'}")
        jobs[project] = mkdocs_run.Job(partial(_stage_project, content, out, shared, project, folder), dest)
    return jobs


def _content_sizes(content: Content) -> dict[str, int]:
    """Bytes of each game's content: how long its project takes to build, near enough to order them."""
    sizes = {}
    for g in content.games:
        with contextlib.suppress(OSError):
            sizes[g.id] = sum(p.stat().st_size for p in Path(g.dir).rglob("*") if p.is_file())
    return sizes


def _stage_project(content: Content, out: Path, shared: Shared, project: str, folder: Path) -> Path:
    """Render one project's pages into `folder`/docs and its mkdocs.yml beside them; the config."""

    try:
        collected = collect(content, out, only=[project] if project else [], shared=shared)
        (staged,) = split(collected.stage, collected.nav, collected.rk_games, wanted=[project])
        staged.stage.sync(folder / "docs", link=True)
        return mkdocs_run.write_config(folder, BASE_CONFIG, OVERRIDES, staged.nav, project=True,
                                       alternate=alternates(content, project))
    except OSError as exc:
        raise OutputError(f"cannot stage the site's pages: {describe_os_error(exc)}; {KEPT}") from None


def alternates(content: Content, project: str) -> list[dict[str, str]]:
    """The language switch of a game with translations: its English pages and each language's (links
    from the project's root, as Material's `extra.alternate` takes them)."""
    game = next((g for g in content.games if g.id == project), None)
    if game is None or not game.translations:
        return []
    return [{"name": "English", "link": "index.html", "lang": "en"},
            *({"name": t.spec.label, "link": f"{t.spec.language}/index.html", "lang": t.spec.language}
              for t in game.translations)]


def _pages(site: Path, project: str, projects: list[str]) -> list[Path]:
    if project:
        return sorted((site / project).rglob("*.html"))
    games = set(projects)
    return sorted(p for p in site.rglob("*.html") if p.relative_to(site).parts[0] not in games)


def _recorded_projects(manifest: Manifest, site: Path) -> set[str]:
    prefix = manifest.rel(site) + "/"
    return {k[len(prefix):] if k != prefix + "index.html" else HUB for k in manifest.keys
            if k.startswith(prefix) and "/" not in k[len(prefix):]}


def _assemble(new: Path, site: Path, projects: list[str], built: dict[str, Path]) -> None:
    """Fill `new` with the whole site: built projects moved in, the others hard-linked from `site`
    (the current site is never changed), each rebuilt game's pages pointed at the hub's one copy of
    the theme's assets, then the search indexes written (the hub's merged)."""
    games = [p for p in projects if p]
    for project in projects:
        dest = new / project if project else new
        if project in built:
            _move_into(built[project], dest)
            if project:  # servers show the site's one 404 page; a game's own links from the top
                (dest / "404.html").unlink(missing_ok=True)
        elif project:
            _link_tree(site / project, dest)
        else:
            for entry in sorted(site.iterdir()) if site.is_dir() else ():
                if entry.is_dir() and (entry / "search").is_dir():
                    continue  # a game's project (or one no longer built): not the hub's
                _link_tree(entry, new / entry.name) if entry.is_dir() else link_or_copy(entry, new / entry.name)
    for project in games:
        if project in built:  # a kept game's pages point at the hub's assets already
            share_assets(new / project, new)
    _merge_search(new, projects, games)


def _move_into(src: Path, dest: Path) -> None:
    dest.mkdir(parents=True, exist_ok=True)
    for entry in sorted(src.iterdir()):
        os.replace(entry, dest / entry.name)


def _link_tree(src: Path, dest: Path) -> None:
    """A copy of `src` made of hard links (no bytes copied) where the file system allows them, else of
    copies (build/site on a mount of its own); a file later rewritten in the copy is replaced by a new
    file, so the original stays as it was."""
    if not src.is_dir():
        raise OSError(2, "missing from the current site", str(src))
    shutil.copytree(src, dest, copy_function=link_or_copy)


def _merge_search(new: Path, projects: list[str], games: list[str]) -> None:
    """The hub's index holds every project's pages; a game's holds its own alone (a quarter of the
    whole, which its every page loads): its search panel fetches the hub's only when the reader asks
    for every game (assets/roadkit-search.js)."""
    indexes = {}
    for p in projects:
        path = (new / p if p else new) / "search" / "search_index.json"
        indexes[p] = json.loads(path.read_text("utf-8"))
    parts = {p: [material_entry(doc) for doc in own_docs(indexes[p], p, games)] for p in projects}
    for p in projects:
        folder = new / p if p else new
        index = merged_index(indexes[p], p, parts) if p == HUB else own_index(indexes[p], parts[p])
        for rel, data in index_files(index).items():
            with contextlib.suppress(OSError):
                if p != HUB and (folder / rel).read_bytes() == data:
                    continue  # a kept game's own index, as it was
            write_atomic(folder / rel, data)  # a new file: the current site's (hard-linked) one stays


def serve(content_dir: Path, out: Path) -> int:
    """Live preview: `mkdocs serve` on build/docs, with a watcher that restages the pages whenever
    content/, site/ or the print kit's and the check's outputs change."""

    def stage(content: Content, out: Path) -> tuple[Path, int, int, int]:
        with build_lock(out, waiting=print):  # never while a build writes build/
            return stage_site(content, out)

    return live_serve(content_dir, out, stage, BASE_CONFIG, [SITE_SRC])
