"""`make bench`: build figures measured in one run, on a private copy of the content.

Cold build (venv present, empty build/), no-op rebuild, rebuild after editing one card's text,
peak memory of each, which outputs each rebuild rewrote, and the size of every PDF. Targets:
no-op <= 5 % of cold, one-card edit <= 30 % of cold."""

from __future__ import annotations

import json
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGETS = {"no-op rebuild": 0.05, "one-card edit": 0.30}
PAGE_KB = 150  # the largest page of the site, in KB of HTML


def _child(argv: list[str]) -> int:
    """Run the CLI in this process and report its peak memory (and its children's) on stderr."""
    from generators.cli import main

    code = main(argv)
    self_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    kids_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    print(json.dumps({"peak_kb": max(self_kb, kids_kb)}), file=sys.stderr)
    return code


def _run(args: list[str], cwd: Path) -> tuple[float, int]:
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "generators.bench", "--child", *args], cwd=cwd,
                          capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"bench: `roadkit {' '.join(args)}` failed:\n{proc.stderr}")
    peak = json.loads(proc.stderr.strip().splitlines()[-1])["peak_kb"]
    return elapsed, peak


def _stamp(out: Path) -> dict[str, float]:
    return {str(p.relative_to(out)): p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()}


_TEXT = re.compile(r"^(?P<lead>\s+text: )(?P<q>[\"']?)(?P<rest>.*)$")


def _edit_one_card(content: Path) -> str:
    """Put a word in front of the first card text found (plain, quoted or block scalar)."""
    for path in sorted(content.glob("*/components/*.yaml")):
        lines = path.read_text("utf-8").splitlines(keepends=True)
        if not any(line.strip() == "kind: cards" for line in lines):
            continue
        for i, line in enumerate(lines):
            m = _TEXT.match(line)
            if not m:
                continue
            if m["rest"].strip() in ("|", ">", "|-", ">-"):
                indent = len(lines[i + 1]) - len(lines[i + 1].lstrip())
                lines[i + 1] = lines[i + 1][:indent] + "Edited. " + lines[i + 1][indent:]
            else:
                lines[i] = f"{m['lead']}{m['q']}Edited. {m['rest']}\n"
            path.write_text("".join(lines), "utf-8")
            return f"{path.relative_to(content)} line {i + 1}"
    raise SystemExit("bench: no card text found to edit")


Row = tuple[str, float, int, int]


def _series(command: str, work: Path) -> tuple[list[Row], str, list[str], Path]:
    """Cold, no-op and one-card-edit runs of `roadkit <command>` on a fresh copy of the content."""
    content, out = work / command / "content", work / command / "build"
    shutil.copytree(ROOT / "content", content)
    args = [command, "-q", "--content", str(content), "--out", str(out)]
    rows: list[Row] = []
    cold, peak = _run(args, ROOT)
    rows.append(("cold build", cold, peak, len(_stamp(out))))
    before = _stamp(out)
    noop, peak = _run(args, ROOT)
    after = _stamp(out)
    rows.append(("no-op rebuild", noop, peak, sum(1 for k in after if before.get(k) != after[k])))
    edited = _edit_one_card(content)
    before = after
    edit, peak = _run(args, ROOT)
    after = _stamp(out)
    touched = sorted(k for k in after if before.get(k) != after[k] and not Path(k).name.startswith("."))
    rows.append(("one-card edit", edit, peak, len(touched)))
    return rows, edited, touched, out


def _table(title: str, rows: list[Row]) -> list[str]:
    cold = rows[0][1]
    print(f"\n{title}")
    print(f"  {'step':<16}{'seconds':>10}{'× cold':>9}{'peak MB':>10}{'files written':>15}  target")
    missed = []
    for name, secs, peak_kb, files in rows:
        ratio = secs / cold
        target = TARGETS.get(name)
        verdict = "" if target is None else f"≤ {target:.0%}: {'met' if ratio <= target else 'MISSED'}"
        if target is not None and ratio > target:
            missed.append(f"{title}: {name}")
        print(f"  {name:<16}{secs:>10.2f}{ratio:>9.1%}{peak_kb / 1024:>10.1f}{files:>15}  {verdict}")
    return missed


def _outside_site(paths: list[str]) -> list[str]:
    """The rewritten files that are not the two built sites (MkDocs rewrites those whole)."""
    return [p for p in paths if not p.startswith(("site/", "site-offline/"))]


def main() -> int:
    if sys.argv[1:2] == ["--child"]:
        return _child(sys.argv[2:])
    work = Path(tempfile.mkdtemp(prefix="roadkit-bench-"))
    try:
        print(f"Roadkit benchmark (Python {sys.version.split()[0]}, {_cores()} cores; content copied to {work})")
        print_rows, edited, print_touched, _ = _series("print", work)
        build_rows, _, build_touched, out = _series("build", work)
        missed = _table("print kit (`roadkit print`: every PDF for both papers and a PNG per face)", print_rows)
        missed += _table("everything (`roadkit build`: print kit, rules check, site and its offline copy)", build_rows)
        print(f"\nedited: {edited}")
        print(f"rewritten by the edit, print kit ({len(print_touched)}):")
        for name in print_touched:
            print(f"  {name}")
        rest = _outside_site(build_touched)
        print(f"rewritten by the edit, everything: {len(build_touched)} files, of which "
              f"{len(build_touched) - len(rest)} in the rebuilt sites and these {len(rest)} elsewhere:")
        for name in rest:
            print(f"  {name}")
        print("\nPDF sizes:")
        total = 0
        for pdf in sorted(out.glob("print/**/*.pdf")):
            size = pdf.stat().st_size
            total += size
            print(f"  {pdf.relative_to(out)!s:<60}{size / 1024:>10.1f} KiB")
        print(f"  {'total':<60}{total / 1024:>10.1f} KiB")
        pngs = list(out.glob("png/**/*.png"))
        print(f"\nPNG exports: {len(pngs)} files, {sum(p.stat().st_size for p in pngs) / 1024:.1f} KiB")
        site = [p for p in (out / "site").rglob("*") if p.is_file()]
        print(f"site: {len(site)} files, {sum(p.stat().st_size for p in site) / 1024:.1f} KiB")
        missed += _page_weight(out / "site")
        if missed:
            print("\ntargets missed: " + "; ".join(missed))
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _page_weight(site: Path) -> list[str]:
    """What a reader downloads per page: the HTML of each page (largest, median, the five
    heaviest), and what every page loads besides (search index, stylesheets, scripts)."""
    pages = sorted(((p.stat().st_size, p.relative_to(site).as_posix()) for p in site.rglob("*.html")), reverse=True)
    if not pages:
        return []
    largest, name = pages[0]
    median = pages[len(pages) // 2][0]
    ok = largest < PAGE_KB * 1000
    print(f"\npage weight: {len(pages)} pages; largest {largest / 1000:.1f} KB ({name}), median {median / 1000:.1f} KB;"
          f" target < {PAGE_KB} KB: {'met' if ok else 'MISSED'}")
    for size, page in pages[1:5]:
        print(f"  {page:<60}{size / 1000:>10.1f} KB")
    shared = {"search index": site / "search" / "search_index.json",
              "stylesheets": site / "assets" / "stylesheets", "scripts": site / "assets" / "javascripts"}
    for label, path in shared.items():
        files = [path] if path.is_file() else [p for p in path.rglob("*") if p.is_file() and p.suffix in (".css", ".js")
                                               and "workers" not in p.parts and "lunr" not in p.parts]
        print(f"  {label:<60}{sum(f.stat().st_size for f in files) / 1000:>10.1f} KB")
    return [] if ok else [f"site: largest page {largest / 1000:.0f} KB"]


def _cores() -> int:
    from generators.outputs import available_cores

    return available_cores()


if __name__ == "__main__":
    sys.exit(main())
