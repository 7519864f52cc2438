"""`make bench`: build figures measured in one run, on private copies of the content. `--quick`
(`make bench-quick`, and `make test` through tests/test_bench.py) runs every step once on one game:
a benchmark that no longer runs fails the tests; its figures are noise.

0. How long the last whole `make test` and `make check` took on this machine (tests/conftest.py).
1. `roadkit print` and `roadkit build`: cold (empty build/), no-op rebuild and rebuild after editing one
   card's text; wall and CPU seconds (this process's children: the CLI and its workers and MkDocs),
   CPU per phase (ROADKIT_PHASES), peak memory, files rewritten; each the best of three runs doing the
   same work (two for `build`). Targets: no-op <= 5 % of cold, one-card edit <= 25 % of cold (wall).
2. Workers: `roadkit print -j 1` against the default (every core), cold and one-card edit, in
   alternating pairs: more processes must never be slower.
3. Memory: peak of `roadkit print --no-png --paper a4 -j 1` with every card, token and tile component's
   counts (and its faces' counts) multiplied by 10 after loading, against the real counts. Target:
   within 1.3x.
4. The floor: our duplex card documents against tools/bench_floor.py (the same cards, 9-up,
   fronts and mirrored backs, same font and texts, plain ReportLab calls), CPU with content loading on
   both sides (as the issue measured it). Target: <= 1.5x. Drawing alone per card is shown beside it.
5. Page weight of the largest site page, the bytes a player page transfers on its first load (heaviest,
   and what every page loads; target <= 500 KB, generators/site/page_weight.py), and the sheets of paper the
   print kit takes per game and paper (target: each game no more than before the print kit v3 work,
   tools/sheets_before.json).
6. Growth: a cold `roadkit build` of every game against the cold build of the two games there were when
   the build-speed work began (REFERENCE, that commit's own code and content, run by this interpreter
   from `git archive`), in alternating pairs, best of two. Target: no slower (wall). Today's build is
   also shown without the whole-game figures (ROADKIT_SIMULATE=0), which the reference did not play.

7. Engines: whole games per CPU second and the play-through suite against the engines before their
   move to packages (tools/bench_engines.py), in alternating rounds, best of each. No target: the
   speed targets are retired (the search's strength per second, below, is what counts); an engine
   that no longer plays fails.
8. The search's strength with the games' hints on and off, against random play on the same seeds
   (tools/bench_search.py). Target: with hints off the search still beats random play in every game.

Each target is stated met or MISSED. Wall times on a shared machine are noisy: CPU is shown beside them."""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from generators.content.loader import load_content
from generators.pdf.paper import route_total, sheet_counts
from tests.helpers import edit_one_card

ROOT = Path(__file__).resolve().parent.parent
TARGETS = {"no-op rebuild": 0.05, "one-card edit": 0.25}
PAGE_KB = 150  # the largest page of the site, in KB of HTML
FLOOR_RATIO = 1.5
MEMORY_RATIO = 1.3
SCALE = 10  # the card counts the memory figure multiplies
# The last commit before the build-speed work: Mission: Drive and Escape Deathrace only. Its code runs
# on today's dependencies (ReportLab's accelerator included), so it is if anything a faster reference.
REFERENCE = "a6db706945aa022fad85aa82e1e0ad5c1be0c1ad"


@dataclass(frozen=True)
class Plan:
    """How much the bench measures: runs per figure, paired rounds, the memory scale, which games."""

    reps: int = 3  # runs of `roadkit print` per figure (best counts)
    build_reps: int = 2
    pairs: int = 2  # paired rounds of the worker and growth comparisons
    scale: int = SCALE
    game: str | None = None  # one game's content only (else every game)


FULL = Plan()
# `make bench --quick` (`python -m tools.bench --quick`), run by `make test`: every step once on one
# game (the home page's first, `first_game`), so a broken benchmark fails the tests; its figures are noise.
QUICK = Plan(reps=1, build_reps=1, pairs=1, scale=2)
PLAN = FULL


def first_game() -> str:
    """The game the home page lists first (game.yaml `order`): the oldest, so the growth reference has it."""
    return min(load_content(ROOT / "content").games, key=lambda g: (g.game.order, g.id)).id


def copy_content(dest: Path, src: Path = ROOT / "content") -> Path:
    """A private copy of `src` (a content folder): every game, or the plan's one game and what the
    games share (icons, shared art)."""
    shutil.copytree(src, dest)
    if PLAN.game is not None:
        for game in dest.iterdir():
            if (game / "game.yaml").is_file() and game.name != PLAN.game:
                shutil.rmtree(game)
    return dest


# --- child processes ------------------------------------------------------------------------------


def _peak_kb() -> int:
    usage = (resource.getrusage(who).ru_maxrss for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    return max(usage)


def _child(argv: list[str]) -> int:
    """Run the CLI in this process and report its peak memory (and its children's) on stderr."""
    from generators.cli import main

    code = main(argv)
    print(json.dumps({"peak_kb": _peak_kb()}), file=sys.stderr)
    return code


def times_counts(content, k: int):
    """`content` with every card, token and tile component printed `k` times as often."""
    from generators.pdf.options import CARD_KINDS, TOKEN_KINDS

    def scaled(comp):
        if comp.kind not in CARD_KINDS + TOKEN_KINDS:
            return comp
        return replace(comp, count=comp.count * k, faces=tuple(replace(f, count=f.count * k) for f in comp.faces))

    games = tuple(replace(g, components=tuple(scaled(c) for c in g.components)) for g in content.games)
    return replace(content, games=games)


def _child_scaled(k: int, argv: list[str]) -> int:
    """The CLI with the validated content's counts multiplied by `k` (validation itself sees the real
    content: the engines' decks are checked at their real size)."""
    import generators.validate as validate

    real = validate.validate

    def scaled(*args, **kwargs):
        checked = real(*args, **kwargs)
        return replace(checked, content=times_counts(checked.content, k))

    validate.validate = scaled
    return _child(argv)


def _child_floor(content_dir: str) -> int:
    """CPU of our duplex card documents (A4, every game) and of the bare-ReportLab floor on the same cards."""
    from generators.content.loader import load_content
    from generators.pdf import documents
    from generators.pdf.faces import Look, forget_layouts
    from generators.pdf.fit import check_text_fit
    from generators.pdf.options import CARD_KINDS, Options
    from tools import bench_floor

    start = time.process_time()
    content = load_content(Path(content_dir))
    for game in content.games:  # as validation loads it: the model, then the text-fit check
        check_text_fit(game, content.icons)
    ours_load = time.process_time() - start
    for game in content.games:
        Look(game, content.icons).fonts  # noqa: B018 (registered, as the print kit's workers find them)
    forget_layouts()  # validation's text-fit check laid these texts out: start cold
    start = time.process_time()
    cards = 0
    for game in content.games:
        if documents.pieces(game, CARD_KINDS):
            cards += len(documents.pieces(game, CARD_KINDS))
            documents.duplex(game, Look(game, content.icons), Options(paper="a4"), CARD_KINDS, "cards")
    ours = time.process_time() - start
    start = time.process_time()
    import yaml

    for path in sorted(Path(content_dir).glob("*/components/*.yaml")):
        yaml.safe_load(path.read_text("utf-8"))
    floor_load = time.process_time() - start
    floor_cards = bench_floor.cards_of(Path(content_dir))
    fonts = bench_floor.register_fonts()
    start = time.process_time()
    bench_floor.floor_document(floor_cards, fonts)
    floor = time.process_time() - start
    print(json.dumps({"cards": cards, "floor_cards": len(floor_cards), "ours": ours, "floor": floor,
                      "ours_load": ours_load, "floor_load": floor_load}))
    return 0


# --- running ---------------------------------------------------------------------------------------


@dataclass
class Run:
    name: str
    wall: float
    cpu: float
    peak_kb: int
    files: int
    phases: dict[str, dict[str, float]]


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _run(args: list[str], cwd: Path, mode: str = "--child") -> tuple[float, float, int, dict]:
    """(wall s, CPU s, peak KB, phases) of one child run."""
    phases = Path(tempfile.mkstemp(prefix="roadkit-phases-", suffix=".json")[1])
    cpu, start = _children_cpu(), time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "tools.bench", mode, *args], cwd=cwd, capture_output=True,
                          text=True, env={**os.environ, "ROADKIT_PHASES": str(phases)})
    elapsed, cpu = time.perf_counter() - start, _children_cpu() - cpu
    try:
        if proc.returncode != 0:
            sys.exit(f"bench: `roadkit {' '.join(args)}` failed:\n{proc.stderr}")
        peak = json.loads(proc.stderr.strip().splitlines()[-1])["peak_kb"]
        found = json.loads(phases.read_text() or "{}") if phases.stat().st_size else {}
    finally:
        phases.unlink(missing_ok=True)
    return elapsed, cpu, peak, found


def _stamp(out: Path) -> dict[str, float]:
    return {str(p.relative_to(out)): p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()}


def _series(command: str, work: Path, extra: tuple[str, ...] = (), label: str = "",
            reps: int = 3) -> tuple[list[Run], str, list[str], Path]:
    """Cold, no-op and one-card-edit runs of `roadkit <command>` on a fresh copy of the content, each
    the best (wall) of `reps` runs doing the same work: cold from an empty build/ each time, and the
    edit undone (and built back) between its runs. Single runs on a shared machine vary by a fifth."""
    folder = work / (label or command)
    content, out = folder / "content", folder / "build"
    copy_content(content)
    args = [command, "-q", "--content", str(content), "--out", str(out), *extra]

    def best(name: str, before: dict[str, float] | None, undo: Callable[[], None] | None = None) -> Run:
        found: Run | None = None
        for rep in range(reps):
            if before is None:
                shutil.rmtree(out, ignore_errors=True)
            elif rep and undo is not None:
                undo()
            stamp = before if before is not None else {}
            wall, cpu, peak, phases = _run(args, ROOT)
            after = _stamp(out)
            touched = [k for k in after if stamp.get(k) != after[k] and not Path(k).name.startswith(".")]
            run = Run(name, wall, cpu, peak, len(after) if before is None else len(touched), phases)
            found = run if found is None or run.wall < found.wall else found
        assert found is not None
        return found

    runs = [best("cold build", None)]
    built = _stamp(out)
    runs.append(best("no-op rebuild", built))
    built = _stamp(out)
    originals = {p: p.read_bytes() for p in content.rglob("*.yaml")}
    edited = edit_one_card(content)
    edit_bytes = {p: p.read_bytes() for p in originals if p.read_bytes() != originals[p]}

    def undo_and_redo() -> None:  # back to the built state before the edit, then the same edit again
        for p in edit_bytes:
            p.write_bytes(originals[p])
        _run(args, ROOT)
        for p, data in edit_bytes.items():
            p.write_bytes(data)

    runs.append(best("one-card edit", built, undo_and_redo))
    after = _stamp(out)
    touched = sorted(k for k in after if built.get(k) != after[k] and not Path(k).name.startswith("."))
    return runs, edited, touched, out


def _verdict(ok: bool) -> str:
    return "met" if ok else "MISSED"


def _table(title: str, runs: list[Run]) -> list[str]:
    cold = runs[0]
    print(f"\n{title}")
    print(f"  {'step':<15}{'wall s':>8}{'× cold':>8}{'CPU s':>8}{'× cold':>8}{'peak MB':>9}{'files':>7}  target (wall)")
    missed = []
    for r in runs:
        ratio = r.wall / cold.wall
        target = TARGETS.get(r.name)
        verdict = "" if target is None else f"≤ {target:.0%}: {_verdict(ratio <= target)}"
        if target is not None and ratio > target:
            missed.append(f"{title.split(' (')[0]}: {r.name} {ratio:.0%} of cold")
        print(f"  {r.name:<15}{r.wall:>8.2f}{ratio:>8.1%}{r.cpu:>8.2f}{r.cpu / cold.cpu:>8.1%}{r.peak_kb / 1024:>9.1f}"
              f"{r.files:>7}  {verdict}")
    print("  CPU s per phase:")
    names = sorted({p for r in runs for p in r.phases}, key=lambda p: ("validate", "print", "schema", "check",
                                                                       "site").index(p) if p in
                   ("validate", "print", "schema", "check", "site") else 9)
    for r in runs:
        print(f"    {r.name:<15}" + "  ".join(f"{p} {r.phases[p]['cpu']:.2f}" for p in names if p in r.phases))
    return missed


def _jobs(work: Path) -> list[str]:
    """`roadkit print` on every core against -j 1, cold and after a one-card edit: paired runs, the two
    settings alternating so that both see the same machine, best of `pairs` (wall)."""
    from generators.build_system.workers import available_cores

    best: dict[tuple[str, str], tuple[float, float]] = {}
    pairs = PLAN.pairs
    for rep in range(pairs):
        folders = {}
        for jobs in ("default", "1"):
            folder = work / f"jobs-{rep}-{jobs}"
            copy_content(folder / "content")
            folders[jobs] = folder
        for step in ("cold build", "one-card edit"):
            for jobs, folder in folders.items():
                if step == "one-card edit":
                    edit_one_card(folder / "content")
                args = ["print", "-q", "--content", str(folder / "content"), "--out", str(folder / "build")]
                wall, cpu, _, _ = _run(args + ([] if jobs == "default" else ["-j", jobs]), ROOT)
                old = best.get((step, jobs))
                best[(step, jobs)] = min(old, (wall, cpu)) if old else (wall, cpu)
    print(f"\nworkers: `roadkit print` on {available_cores()} cores against -j 1; paired runs, best of {pairs} "
          "(wall s; CPU s)")
    missed = []
    for step in ("cold build", "one-card edit"):
        (dw, dc), (ow, oc) = best[(step, "default")], best[(step, "1")]
        ok = dw <= ow * 1.05  # within 5 %: the noise of a shared machine
        print(f"  {step:<15} default {dw:6.2f} ({dc:.2f})   -j 1 {ow:6.2f} ({oc:.2f})   "
              f"never slower (5 % noise): {_verdict(ok)}")
        if not ok:
            missed.append(f"workers: {step} slower than -j 1")
    return missed


def _memory(work: Path) -> list[str]:
    content = copy_content(work / "memory" / "content")
    peaks = {}
    cpus = {}
    scale = PLAN.scale
    for k in (1, scale):
        args = ["print", "-q", "--no-png", "--paper", "a4", "-j", "1", "--content", str(content),
                "--out", str(work / "memory" / f"build-{k}")]
        _, cpus[k], peaks[k], _ = _run(args, ROOT, mode=f"--child-scaled={k}")
    ratio = peaks[scale] / peaks[1]
    print(f"\nmemory: `roadkit print --no-png --paper a4 -j 1`, every card, token and tile count x{scale} "
          "(faces' counts too, after validation)")
    print(f"  1x: peak {peaks[1] / 1024:.1f} MB, CPU {cpus[1]:.2f} s;  {scale}x: peak {peaks[scale] / 1024:.1f} MB, "
          f"CPU {cpus[scale]:.2f} s;  ratio {ratio:.2f}, target ≤ {MEMORY_RATIO}: {_verdict(ratio <= MEMORY_RATIO)}")
    return [] if ratio <= MEMORY_RATIO else [f"memory: {scale}x cards peak {ratio:.2f}x of 1x"]


def _floor(work: Path) -> list[str]:
    content = copy_content(work / "floor" / "content")
    proc = subprocess.run([sys.executable, "-m", "tools.bench", "--child-floor", str(content)],
                          cwd=ROOT, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"bench: the floor comparison failed:\n{proc.stderr}")
    f = json.loads(proc.stdout.strip().splitlines()[-1])
    ours, floor = f["ours"] / f["cards"] * 1000, f["floor"] / f["floor_cards"] * 1000
    ratio = ours / floor
    with_load = (f["ours"] + f["ours_load"]) / (f["floor"] + f["floor_load"])
    # The issue measured its 2.0x starting point with content loading included on both sides; that is
    # the target's figure. Drawing alone is shown beside it.
    print(f"\nfloor: duplex card documents (A4, {PLAN.game or 'every game'}, {f['cards']} cards) against the same "
          "cards in bare ReportLab, CPU")
    print(f"  content loading included (ours: the validated model with its text-fit check, {f['ours_load']:.2f} s; "
          f"floor: yaml.safe_load of the component files, {f['floor_load']:.2f} s): {with_load:.2f}x; "
          f"target ≤ {FLOOR_RATIO}x: {_verdict(with_load <= FLOOR_RATIO)}")
    print(f"  drawing alone, per card: ours {ours:.2f} ms, bare ReportLab {floor:.2f} ms: {ratio:.1f}x")
    return [] if with_load <= FLOOR_RATIO else [f"floor: {with_load:.2f}x the bare-ReportLab cards"]


def _reference(work: Path) -> list[str]:
    """Cold `roadkit build` of today's games against the reference commit's, alternating, best of
    `pairs`; today's also without the whole-game figures, which the reference did not play yet."""
    ref = work / "reference"
    ref.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", REFERENCE], capture_output=True)
    if archive.returncode != 0:
        print(f"\ngrowth: skipped (commit {REFERENCE[:7]} is not in this clone's history)")
        return []
    subprocess.run(["tar", "-x", "-C", str(ref)], input=archive.stdout, check=True)
    runs = {"today": (ROOT, {}), "today, no whole games": (ROOT, {"ROADKIT_SIMULATE": "0"}),
            REFERENCE[:7]: (ref, {})}
    best: dict[str, tuple[float, float]] = {}
    pairs = PLAN.pairs
    for rep in range(pairs):
        for i, (name, (src, env)) in enumerate(runs.items()):
            folder = work / f"growth-{rep}-{i}"
            copy_content(folder / "content", src / "content")
            args = ["build", "-q", "--content", str(folder / "content"), "--out", str(folder / "build")]
            start, cpu = time.perf_counter(), _children_cpu()
            done = subprocess.run([sys.executable, "-m", "generators.cli", *args], cwd=src, capture_output=True,
                                  text=True, env={**os.environ, "PYTHONPATH": str(src), **env})
            wall, cpu = time.perf_counter() - start, _children_cpu() - cpu
            if done.returncode != 0:
                sys.exit(f"bench: the {name} build failed:\n{done.stderr}")
            best[name] = min(best.get(name, (wall, cpu)), (wall, cpu))
    games = {name: sum(1 for g in (work / f"growth-0-{i}" / "content").iterdir() if (g / "components").is_dir())
             for i, name in enumerate(runs)}  # games with components (not "coming")
    rw = best[REFERENCE[:7]][0]
    print(f"\ngrowth: cold `roadkit build`, paired runs, best of {pairs}: wall s (CPU s; CPU s per game)")
    for name, (wall, cpu) in best.items():
        print(f"  {name:<24}{games[name]} games {wall:6.2f} ({cpu:.2f}; {cpu / games[name]:.2f})  {wall / rw:.2f}x")
    tw = best["today"][0]
    ok = tw <= rw * 1.05  # within 5 %: the noise of a shared machine
    print(f"  target: today no slower than {REFERENCE[:7]} (5 % noise): {_verdict(ok)}")
    return [] if ok else [f"growth: cold build of {games['today']} games {tw / rw:.2f}x the "
                          f"{games[REFERENCE[:7]]}-game build at {REFERENCE[:7]}"]


def main() -> int:
    if sys.argv[1:2] == ["--child"]:
        return _child(sys.argv[2:])
    if sys.argv[1:2] and sys.argv[1].startswith("--child-scaled="):
        return _child_scaled(int(sys.argv[1].split("=", 1)[1]), sys.argv[2:])
    if sys.argv[1:2] == ["--child-floor"]:
        return _child_floor(sys.argv[2])
    global PLAN
    PLAN = replace(QUICK, game=first_game()) if sys.argv[1:] == ["--quick"] else FULL
    work = Path(tempfile.mkdtemp(prefix="roadkit-bench-"))
    try:
        print(f"Roadkit benchmark (Python {sys.version.split()[0]}, {_cores()} cores, load average "
              f"{os.getloadavg()[0]:.1f} at start; content copied to {work})")
        if PLAN.game:
            print(f"QUICK MODE: {PLAN.game} only, one run each: the figures are noise, the run is the test")
        _test_times()
        print_runs, edited, print_touched, _ = _series("print", work, reps=PLAN.reps)
        build_runs, _, build_touched, out = _series("build", work, reps=PLAN.build_reps)
        missed = _table(f"print kit (`roadkit print`: every PDF for both papers and a PNG per face; best of "
                        f"{PLAN.reps} runs each)", print_runs)
        missed += _table(f"everything (`roadkit build`: print kit, rules check, site; best of {PLAN.build_reps} runs "
                         "each)", build_runs)
        missed += _jobs(work)
        missed += _memory(work)
        missed += _floor(work)
        missed += _reference(work)
        from tools.bench_engines import engine_figures

        shown, engine_missed = engine_figures(quick=PLAN.game is not None)
        print("\n" + "\n".join(shown))
        missed += engine_missed
        from tools.bench_search import search_strength

        shown, search_missed = search_strength(2, 4) if PLAN.game else search_strength()
        print("\n" + "\n".join(shown))
        missed += search_missed
        print(f"\nedited: {edited}")
        print(f"rewritten by the edit, print kit ({len(print_touched)}):")
        for name in print_touched:
            print(f"  {name}")
        rest = _outside_site(build_touched)
        print(f"rewritten by the edit, everything: {len(build_touched)} files, of which "
              f"{len(build_touched) - len(rest)} in the rebuilt sites and these {len(rest)} elsewhere:")
        for name in rest:
            print(f"  {name}")
        _sizes(out)
        missed += _sheets(out)
        missed += _page_weight(out / "site")
        from tools.bench_play import play_times, play_weight

        print("\n" + "\n".join(play_weight(out / "site") + play_times(out / "site", 1 if PLAN.game else None)))
        judged = " (quick mode: one run of one game, noise, not judged)" if PLAN.game else ""
        print(f"\ntargets missed{judged}: " + ("; ".join(missed) if missed else "none"))
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _outside_site(paths: list[str]) -> list[str]:
    """The rewritten files that are not the built sites (MkDocs rewrites those whole)."""
    return [p for p in paths if not p.startswith("site/")]


def _sizes(out: Path) -> None:
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


# Sheets of paper each game's print kit took before the print kit v3 work (issue 23: commit d9e6204),
# per paper: the duplex card route and the gutterfold card documents alone. Each game must stay within
# its own; a game added since has no count before and is shown, not judged.
SHEETS_BEFORE_FILE = Path(__file__).with_name("sheets_before.json")


def sheets_before() -> dict[str, dict[str, dict[str, int]]]:
    """paper -> game -> {"route": sheets, "gutterfold": sheets}."""
    return dict(json.loads(SHEETS_BEFORE_FILE.read_text("utf-8")))


def _sheets(out: Path) -> list[str]:
    counts = sheet_counts(out / "print")
    before = sheets_before()
    print("\nsheets of paper per game (duplex cards; the gutterfold cards in brackets), against the count "
          "before the print kit v3 work:")
    missed = []
    for paper, games in counts.items():
        for game, docs in games.items():
            parts = ", ".join(f"{doc} {n}" for doc, n in docs.items() if doc != "cards-gutterfold")
            fold = f" [gutterfold {docs['cards-gutterfold']}]" if "cards-gutterfold" in docs else ""
            was = before.get(paper, {}).get(game)
            ok = was is None or route_total(docs) <= was["route"]
            verdict = "new since" if was is None else f"before {was['route']}: {_verdict(ok)}"
            print(f"  {paper:<7}{game:<30}{route_total(docs):>4}  ({parts}){fold}; {verdict}")
            if not ok:
                missed.append(f"sheets of {game} on {paper}: {route_total(docs)}")
    return missed


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
          f" target < {PAGE_KB} KB: {_verdict(ok)}")
    for size, page in pages[1:5]:
        print(f"  {page:<60}{size / 1000:>10.1f} KB")
    missed = [] if ok else [f"site: largest page {largest / 1000:.0f} KB"]
    return missed + _first_load(site)


def _first_load(site: Path) -> list[str]:
    """Bytes transferred on each player page's first load (gzip for text, as servers send it; the
    search index its page loads, the game's own or the hub's; images not marked lazy): the
    heaviest, and what every page of a game loads whatever its own size."""
    from generators.site.page_weight import TARGET, first_load

    cache: dict[Path, int] = {}
    players = [p for p in sorted(site.rglob("*.html")) if "authors" not in p.relative_to(site).parts
               and p.name != "404.html"]
    weights = sorted((first_load(site, p, cache) for p in players), key=lambda w: (-w.total, w.page))
    heaviest = weights[0]
    ok = heaviest.total <= TARGET
    print(f"\nfirst load of a player page (gzip, search index included, images above the fold): heaviest "
          f"{heaviest.total / 1000:.1f} KB ({heaviest.page}); target <= {TARGET / 1000:.0f} KB: {_verdict(ok)}")
    for w in weights[1:4]:
        print(f"  {w.page:<60}{w.total / 1000:>10.1f} KB")
    # Every page of one project shares these files: the page and its own images aside.
    by_project: dict[str, set[str]] = {}
    for w in weights:
        project = w.page.split("/")[0] if "/" in w.page else "home"
        files = {f for f in w.files if f != w.page and not f.endswith((".png", ".webp", ".svg"))}
        by_project[project] = by_project.get(project, files) & files
    print("  every page loads (stylesheets, scripts, search worker and index), per project:")
    sizes = {f: n for w in weights for f, n in w.files.items()}
    for project, files in sorted(by_project.items()):
        index = next((f for f in files if f.endswith("search_index.json")), "")
        print(f"    {project:<58}{sum(sizes[f] for f in files) / 1000:>10.1f} KB, of which search index "
              f"{sizes.get(index, 0) / 1000:.1f} KB")
    missed = [] if ok else [f"site: heaviest first load {heaviest.total / 1000:.0f} KB ({heaviest.page})"]
    return missed + _game_weights(site, weights)


def _game_weights(site: Path, weights: list) -> list[str]:
    """Per game: its heaviest rules page on a first load, and its heaviest second page: any of its
    pages after its overview (the theme's assets and the game's search index already there), or
    after another game's overview or the home page (the theme's assets there, not its index)."""
    from generators.site.page_weight import RULES_TARGET, SECOND_TARGET, second_load

    by_page = {w.page: w for w in weights}
    games = sorted({w.page.split("/")[0] for w in weights if f"{w.page.split('/')[0]}/index.html" in by_page})
    print(f"  per game: heaviest rules page (first load; target <= {RULES_TARGET / 1000:.0f} KB) and heaviest "
          f"second page, after its own overview, another's or home (target <= {SECOND_TARGET / 1000:.0f} KB):")
    missed = []
    for game in games:
        own = by_page[f"{game}/index.html"]
        before = [own, *(by_page[p] for p in ("index.html", *(f"{g}/index.html" for g in games if g != game))
                         if p in by_page)]
        rules = max((w for w in weights if w.page.startswith(f"{game}/rules/")), key=lambda w: w.total, default=None)
        second = max((second_load(first, w) for first in before for w in weights
                      if w.page.startswith(f"{game}/") and w is not first), key=lambda w: w.total, default=None)
        if rules is None or second is None:
            continue
        ok = rules.total <= RULES_TARGET and second.total <= SECOND_TARGET
        print(f"    {game:<32}rules {rules.total / 1000:6.1f} KB ({rules.page.split('/', 1)[1]}); second "
              f"{second.total / 1000:6.1f} KB ({second.page.split('/', 1)[1]}): {_verdict(ok)}")
        if not ok:
            missed.append(f"site: {game} rules page {rules.total / 1000:.0f} KB, "
                          f"second page {second.total / 1000:.0f} KB")
    return missed


TEST_TIMES = ROOT / "build" / "test-times.json"  # written by tests/conftest.py after each whole run


def _test_times() -> None:
    """How long the last whole `make test` and `make check` took here (tests/conftest.py records them)."""
    try:
        runs = json.loads(TEST_TIMES.read_text("utf-8"))
    except (OSError, ValueError):
        runs = {}
    print("\ntest suite (its last whole run on this machine):")
    for name in ("make test", "make check"):
        run = runs.get(name)
        if not isinstance(run, dict):
            print(f"  {name:<12}not run here yet")
            continue
        print(f"  {name:<12}{run.get('seconds', 0) / 60:5.1f} min wall, {run.get('tests')} tests, "
              f"{run.get('outcome')}, on {run.get('finished')} (load average {run.get('load', '?')} at the end)")


def _cores() -> int:
    from generators.build_system.workers import available_cores

    return available_cores()


if __name__ == "__main__":
    sys.exit(main())
