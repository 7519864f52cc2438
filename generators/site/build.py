"""`roadkit site`: generate the rules reference site.

1. Pages are rendered from content (jinja2 -> plain Markdown) and staged, with the hand-written
   files of site/, the face PNGs and PDFs of the print kit, and the rules check's diagrams and
   report, in a temporary folder of this run.
2. MkDocs (Material) builds each variant into a temporary folder, with --strict so that a broken
   link or anchor fails the build: build/site/ and, with `offline`, build/site-offline/ (Material's
   offline plugin, switched on by ROADKIT_OFFLINE) to open from file:// without a server. Both run
   in parallel. A complete build is swapped in for the old one in one step; a failed one leaves
   the old site as it was.

Each variant is a target of the build graph (generators/outputs.py): its key hashes the content,
the code, site/, mkdocs.yml and the keys of the outputs it shows, so a no-op rebuild does nothing.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from generators.content.loader import Content
from generators.errors import OutputError
from generators.outputs import Commit, Manifest, build_lock, code_version, describe_os_error, digest, files_key
from generators.site import mkdocs_run
from generators.site.paths import REPO, SITE_SRC

Say = Callable[[str], None]
BASE_CONFIG = REPO / "mkdocs.yml"
OVERRIDES = SITE_SRC / "overrides"
# Outputs of other steps the site shows: face PNGs, the PDFs on standard paper, the check's folder.
SHOWN = ("png/", "print/a4/", "print/letter/", "check")


@dataclass(frozen=True)
class SiteResult:
    docs: Path | None
    site: Path
    offline: Path | None
    pages_written: int
    files_kept: int
    files_removed: int
    mkdocs_seconds: dict[str, float | None]
    seconds: float


def stage_site(content: Content, out: Path, into: Path | None = None) -> tuple[Path, int, int, int]:
    """Render and stage every page and file into `into`/docs (default `out`/docs) with its mkdocs.yml
    beside it; return (config, written, kept, removed). `out` is where the print kit and the check are."""
    from generators.site.collect import collect  # jinja2 and the page code: only when there is work

    into = into if into is not None else out
    collected = collect(content, out)
    report = collected.stage.sync(into / "docs")
    config = mkdocs_run.write_config(into, BASE_CONFIG, OVERRIDES, collected.nav)
    return config, len(report.written), report.kept, len(report.removed)


def site_key(content: Content, manifest: Manifest) -> str:
    """Everything a site is made from: the code, the content (examples included) and icons, the
    hand-written site/ and mkdocs.yml, and the keys of the PNGs, PDFs and check it shows."""
    root = Path(content.root)
    files = [root / "icons.yaml"]
    for game in content.games:
        files += sorted(p for p in Path(game.dir).rglob("*") if p.is_file())
    site_files = [BASE_CONFIG, *sorted(p for p in SITE_SRC.rglob("*") if p.is_file())]
    return digest(code_version(), files_key(root, files), files_key(REPO, site_files), manifest.entries(SHOWN))


def build_site(content: Content, out: Path, offline: bool = True, say: Say = print,
               manifest: Manifest | None = None) -> SiteResult:
    """Build build/site/ and, unless `offline` is False, build/site-offline/ as well (the two
    MkDocs runs share the staging and run side by side, so the offline copy costs little)."""
    started = time.perf_counter()
    manifest = manifest if manifest is not None else Manifest.load(out)
    variants = [mkdocs_run.ONLINE] + ([mkdocs_run.OFFLINE] if offline else [])
    key = site_key(content, manifest)
    keys = {v: digest(key, v.name) for v in variants}
    stale = [v for v in variants if not manifest.fresh(out / v.name, keys[v])]
    result = SiteResult(None, out / mkdocs_run.ONLINE.name, out / mkdocs_run.OFFLINE.name if offline else None,
                        0, 0, 0, {}, 0.0)
    if not stale:
        say("site: up to date")
        return result
    with Commit(manifest) as commit:
        staging = commit.temp_folder(out / "docs")
        try:
            config, written, kept, removed = stage_site(content, out, staging)
        except OSError as exc:
            raise OutputError(f"cannot stage the site's pages: {describe_os_error(exc)}; "
                              "build/ was left as it was") from None
        dests = {v: commit.temp_folder(out / v.name) for v in stale}
        timings = mkdocs_run.build(config, dests, say)
        for v, dest in dests.items():
            commit.folder(dest, out / v.name)
            commit.record(out / v.name, keys[v])
        commit.apply()
    say(f"site: {written} pages and files staged; mkdocs: "
        + ", ".join(f"{name} {t:.1f} s" for name, t in timings.items()))
    return SiteResult(None, result.site, result.offline, written, kept, removed,
                      {v.name: timings.get(v.name) for v in variants}, time.perf_counter() - started)


def serve(content_dir: Path, out: Path) -> int:
    """Live preview: `mkdocs serve` on build/docs, with a watcher that restages the pages whenever
    content/, site/ or the print kit's and the check's outputs change."""
    from generators.site.live import serve as live_serve

    def stage(content: Content, out: Path) -> tuple[Path, int, int, int]:
        with build_lock(out, waiting=print):  # never while a build writes build/
            return stage_site(content, out)

    return live_serve(content_dir, out, stage, BASE_CONFIG, [SITE_SRC])
