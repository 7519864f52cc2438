"""`roadkit site`: generate the rules reference site.

1. Pages are rendered from content (jinja2 -> plain Markdown) and staged in build/docs/ with the
   hand-written files of site/, the face PNGs and PDFs of the print kit, and the rules check's
   diagrams and report; a file is written only when its bytes change.
2. MkDocs (Material) builds build/site/, with --strict so that a broken link or anchor fails the
   build; and, with `offline`, build/site-offline/ (Material's offline plugin, switched on by
   ROADKIT_OFFLINE) to open from file:// without a server. Both run in parallel. A build whose
   inputs did not change since the last one is skipped, so a no-op rebuild takes well under a second.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from generators.content.loader import Content
from generators.outputs import code_version, digest, write_atomic
from generators.site import mkdocs_run
from generators.site.paths import REPO, SITE_SRC

Say = Callable[[str], None]
BASE_CONFIG = REPO / "mkdocs.yml"
OVERRIDES = SITE_SRC / "overrides"


@dataclass(frozen=True)
class SiteResult:
    docs: Path
    site: Path
    offline: Path | None
    pages_written: int
    files_kept: int
    files_removed: int
    mkdocs_seconds: dict[str, float | None]
    seconds: float


def stage_site(content: Content, out: Path) -> tuple[Path, int, int, int]:
    """Render and stage every page and file, write build/mkdocs.yml; return (config, written, kept, removed)."""
    from generators.site.collect import collect  # jinja2 and the page code: only when there is work

    collected = collect(content, out)
    report = collected.stage.sync(out / "docs")
    config = mkdocs_run.write_config(out, BASE_CONFIG, OVERRIDES, collected.nav)
    return config, len(report.written), report.kept, len(report.removed)


def build_site(content: Content, out: Path, offline: bool = True, say: Say = print) -> SiteResult:
    """Build build/site/ and, unless `offline` is False, build/site-offline/ as well (the two
    MkDocs runs share the staging and run side by side, so the offline copy costs little)."""
    started = time.perf_counter()
    out.mkdir(parents=True, exist_ok=True)
    variants = [mkdocs_run.ONLINE] + ([mkdocs_run.OFFLINE] if offline else [])
    stamp = out / ".site-inputs"
    inputs = _inputs_key(content, out)
    if stamp.is_file() and stamp.read_text("utf-8") == inputs and all((out / v.name).is_dir() for v in variants):
        say("site: up to date")
        return SiteResult(out / "docs", out / mkdocs_run.ONLINE.name,
                          out / mkdocs_run.OFFLINE.name if offline else None, 0, 0, 0, {}, 0.0)
    config, written, kept, removed = stage_site(content, out)
    key = mkdocs_run.inputs_hash(out, config, BASE_CONFIG, OVERRIDES)
    timings = mkdocs_run.build(out, config, key, variants, say)
    write_atomic(stamp, inputs.encode())
    built = [f"{name} {t:.1f} s" for name, t in timings.items() if t is not None]
    say(f"site: {written} files written, {kept} unchanged, {removed} removed; "
        + (f"mkdocs: {', '.join(built)}" if built else "mkdocs: up to date"))
    return SiteResult(
        docs=out / "docs",
        site=out / mkdocs_run.ONLINE.name,
        offline=out / mkdocs_run.OFFLINE.name if offline else None,
        pages_written=written,
        files_kept=kept,
        files_removed=removed,
        mkdocs_seconds=timings,
        seconds=time.perf_counter() - started,
    )


def _inputs_key(content: Content, out: Path) -> str:
    """Everything the staged pages are made from: content files (examples included), icons, the
    site's code and hand-written files, MkDocs' configuration, the check report and the print
    manifest (which changes whenever a PDF or PNG does). Unchanged inputs skip the whole site step."""
    files = [Path(content.root) / "icons.yaml", BASE_CONFIG, out / "check" / "report.json", out / ".manifest.json"]
    for game in content.games:
        files += [Path(game.dir) / "game.yaml", *sorted(Path(game.dir).rglob("*.yaml")),
                  *sorted(Path(game.dir).rglob("*.md"))]
    files += sorted(p for p in SITE_SRC.rglob("*") if p.is_file())
    parts: list[object] = [code_version("site")]
    parts += [(str(p), p.read_bytes() if p.is_file() else None) for p in files]
    return digest(*parts)


def serve(content_dir: Path, out: Path) -> int:
    """Live preview: `mkdocs serve` on build/docs, with a watcher that restages the pages whenever
    content/, site/ or the print kit's and the check's outputs change."""
    from generators.site.live import serve as live_serve

    return live_serve(content_dir, out, stage_site, BASE_CONFIG, [SITE_SRC])
