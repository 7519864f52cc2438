"""Seeded fuzzing of the build beyond validation (the second half of `make fuzz`; tests/fuzz.py is the
first): three classes, each judged by what the editors' guide promises.

- keys: a mutant of the content that validates leaves every print document whose key did not change
  byte for byte as it was (an output must never depend on content outside its key);
- refused content: a link trick that would run a script, a folder under content/ that is not a game,
  a broken figures.json (tests/fuzz.py's mutators): `roadkit build` stops with one located line,
  exit 2, and build/ stays byte for byte as it was;
- link shapes: generated links (running schemes spelled every way, decoys whose spelling leaves the URL
  relative, ordinary targets, in every shape Markdown has) judged by validate, one located line each
  when refused; every accepted one, together, builds a site (never the build's exit 4 on content) with
  no link a browser would run;
- site pages: a hand-written site page in another encoding, random bytes, truncated or huge is one
  located line from the validation pass, never a traceback;
- faults: a `roadkit build` after an edit killed with `kill -9` at a random moment leaves no worker alive
  2 s later and prints no traceback; build/'s outputs are, by their digests, the old build's or the new
  one's (before the next run, unless the kill came after the run's commit point, and after that run's
  recovery), and the next build gives the uninterrupted build's bytes; a build on a disk of
  random small size succeeds or stops with one line (exit 3); a read-only build/ is one line naming
  build/ (exit 3), never a temporary file. The disk and read-only runs need root to mount a tmpfs and
  are left out elsewhere.

- arguments: random values (beyond every bound, other scripts' digits, addresses, paths into the
  sources, control characters) for every option of every subcommand and for the environment variables
  Roadkit reads: one line and a documented exit code, never a traceback, and a failed run leaves its
  --out as it was.

`python -m tests.fuzz_build --keys 30 --pages 300 --faults 12 --args 400 --seed 1`; the test suite runs a few.
"""

from __future__ import annotations

import argparse
import contextlib
import html
import io
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote

from tests import fuzz
from tests.helpers import alive, child_pids, copy_content, edit_one_card, fingerprint, mount_tmpfs, outputs_of, run_cli

ROOT = Path(__file__).resolve().parent.parent
FAULT_GAME = "vampire-chase"
BUILD = ("build", "--game", FAULT_GAME, "--paper", "a4", "-q")
QUICK = {"ROADKIT_SIMULATE": "2"}  # a few whole games: the simulations' workers run, briefly


@dataclass
class Findings:
    runs: dict[str, int] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)

    def count(self, what: str) -> None:
        self.runs[what] = self.runs.get(what, 0) + 1

    def summary(self) -> str:
        runs = ", ".join(f"{n} {what}" for what, n in sorted(self.runs.items()))
        return f"{runs}: {len(self.failures)} failures"


# --- keys ----------------------------------------------------------------------------------------------


def key_fuzz(mutants: int, seed: int, work: Path, games: tuple[str, ...], found: Findings) -> None:
    """`mutants` content mutants of `games` that validate: every A4 document whose key is unchanged must
    come out byte for byte as before."""
    from generators.build_system.errors import ContentError
    from generators.pdf.options import Options
    from generators.pdf.print_targets import document_targets
    from generators.validate import validate

    box = fuzz.Sandbox(work / "content")
    variants = [Options(paper="a4")]
    baseline: dict[str, dict[str, tuple[str, bytes]]] = {}
    for game in games:
        content = validate(box.root, [game]).content
        baseline[game] = {t.path.name: (t.key, t.make())
                          for t in document_targets(content, content.game(game), variants, work / "out")}
    files = [f for f in box.files() if f.split("/")[0] in games]
    rng = random.Random(seed)
    checked = tries = 0
    while checked < mutants and tries < mutants * 50:
        tries += 1
        mutant = fuzz.mutate(rng, box, files)
        try:
            if mutant.game not in games:
                continue
            try:
                content = validate(box.root, [mutant.game]).content
            except ContentError:
                continue
            checked += 1
            found.count("key mutants")
            before = baseline[mutant.game]
            for t in document_targets(content, content.game(mutant.game), variants, work / "out"):
                key, data = before.get(t.path.name, ("", b""))
                if t.key == key and t.make() != data:
                    found.failures.append(f"keys: {mutant}: {t.path.name} changed under the same key")
        except Exception:
            found.failures.append(f"keys: {mutant}:\n{traceback.format_exc(limit=-4)}")
        finally:
            box.restore()


# --- content a build must refuse ----------------------------------------------------------------------


def refused_fuzz(runs: int, seed: int, work: Path, found: Findings) -> None:
    """`runs` builds of content holding a mutant validation must refuse (a running link, a folder that is
    no game, broken figures): exit 2, one located line, build/ untouched."""
    box = fuzz.Sandbox(work / "content")
    out = work / "build"
    (out / "print").mkdir(parents=True)
    (out / "print" / "kept.pdf").write_bytes(b"%PDF- as it was")
    before = fingerprint(out)
    rng = random.Random(seed)
    made = [fuzz._link_mutation, fuzz._folder_mutation, fuzz._figures_mutation]
    checked = 0
    while checked < runs:
        mutant = made[checked % len(made)](rng, box, FAULT_GAME)
        try:
            if not mutant.must_refuse:
                continue
            checked += 1
            found.count("refused mutants")
            result = run_cli(*BUILD, "--content", box.root, "--out", out)
            lines = result.stderr.strip().splitlines()
            one_line = len(lines) == 1 and "Traceback" not in result.stderr and fuzz.LINE.match(lines[0])
            if result.returncode != 2 or not one_line:
                found.failures.append(f"refused: {mutant}: exit {result.returncode}: {result.stderr[-500:]!r}")
            elif fingerprint(out) != before:
                found.failures.append(f"refused: {mutant}: build/ changed")
        finally:
            box.restore()


# --- link shapes: what validate accepts builds ------------------------------------------------------

# Ordinary targets beside the generated tricks: an entry as the site resolves it or not, web addresses.
LINK_TARGETS = ["#achievements", "achievements", "achievements.md#x", "https://example.org/a:b",
                "mailto:x@example.org", "#nowhere", "//example.org/x"]


def link_fuzz(shapes: int, seed: int, work: Path, found: Findings) -> None:
    """`shapes` generated link shapes (tests/link_tricks.py: running schemes spelled every way, decoys
    that leave the URL relative, ordinary targets) in a rules body: validate judges each; every
    accepted one, all together, must make a site that builds (a link leading nowhere is the build's
    exit 4) and holds no link a browser would run."""
    from dataclasses import replace

    from generators.build_system.errors import ContentError
    from generators.content.loader import load_content
    from generators.site.build import build_site
    from generators.validate import check_link_schemes, check_links, validate
    from tests.link_tricks import generated, runs_script, shaped, urls

    content = copy_content(work, (FAULT_GAME,))
    game = validate(content, [FAULT_GAME]).content.game(FAULT_GAME)
    first = game.rules[0]
    rng = random.Random(seed)
    accepted = []
    for i in range(shapes):
        text = (shaped(rng, rng.choice(LINK_TARGETS), n=i) if i % 3 == 0 else
                generated(rng, n=i, decoy=i % 3 == 1)).replace("\x01", "&#1;")
        found.count("link shapes")
        changed = replace(game, rules=(replace(first, body=f"{first.body}\n\n{text}\n"), *game.rules[1:]))
        try:
            check_link_schemes(changed)
            check_links(changed)
            accepted.append(text)
        except ContentError as exc:
            if "\n" in str(exc):
                found.failures.append(f"link shape {text!r}: not one line: {str(exc)[:300]!r}")
        except Exception:
            found.failures.append(f"link shape {text!r}:\n{traceback.format_exc(limit=-4)}")
    file = Path(first.file)
    file.write_text(file.read_text("utf-8").rstrip("\n") + "\n\n" + "\n\n".join(accepted) + "\n", "utf-8")
    found.count("sites of accepted link shapes")
    try:
        validate(content, [FAULT_GAME])
        build_site(load_content(content), work / "out", say=lambda _: None)
    except Exception as exc:
        found.failures.append(f"{len(accepted)} accepted link shapes: {type(exc).__name__}: {str(exc)[:500]}")
        return
    running = [(p.name, u) for p in sorted((work / "out" / "site").rglob("*.html"))
               for u in urls(p.read_text("utf-8")) if runs_script(u)]
    if running:
        found.failures.append(f"accepted link shapes made running links: {running[:5]}")


# --- hand-written site pages ---------------------------------------------------------------------------


def page_fuzz(mutants: int, seed: int, work: Path, found: Findings) -> None:
    """Mutants of a copy of site/ through the validation pass's check of hand-written pages."""
    from generators.build_system.errors import ContentError
    from generators.validate import check_site_pages

    site = work / "site"
    shutil.copytree(ROOT / "site", site)
    pages = sorted(p for p in site.rglob("*") if p.is_file() and p.suffix in (".md", ".html", ".css", ".js"))
    rng = random.Random(seed)
    for _ in range(mutants):
        page = rng.choice(pages)
        original = page.read_bytes()
        text = original.decode("utf-8")
        op = rng.randrange(6)
        dead = False
        if op == 5 and page.suffix == ".md":  # a relative link or image that leads nowhere: refused
            target = rng.choice(["nowhere.md", "../outside.md", "/rooted.md", "guide/gone.md", "assets/gone.png",
                                 "guide/site.md/x", "ab&#111;ut-not.md", "no%20where.md"])
            shape = rng.choice(["[x]({t})", "![x]({t})", "[x][r]\n\n[r]: {t}", "- a\n    - [x]({t})",
                                "| a |\n|---|\n| [x]({t}) |", "[x](\n{t})"])
            new = text + "\n\n" + shape.format(t=target) + "\n"
            # refused only where Markdown makes it a link (the end of a list item can swallow it as text)
            dead = any(html.unescape(target).strip("<>") in (u, unquote(u)) for u in _page_urls(new))
            data, what = new.encode(), f"dead link {target}"
        elif op == 0:
            data, what = text.replace("e", "\u00e9", 5).encode(rng.choice(["latin-1", "cp1252", "utf-16"]),
                                                                 errors="replace"), "another encoding"
        elif op == 1:
            data, what = bytes(rng.randrange(256) for _ in range(300)), "random bytes"
        elif op == 2:
            cut = rng.randrange(len(original) + 1)
            data, what = original[:cut] + b"\xc3", "truncated inside a character"
        elif op == 3:
            data, what = original + b"x" * rng.choice([10, 2_000_001, 5_000_000]), "huge"
        else:
            data, what = original.replace(b"\n", b"\r\n"), "CRLF"
        found.count("site page mutants")
        page.write_bytes(data)
        try:
            check_site_pages(site)
            if dead:
                found.failures.append(f"site page {page.name} ({what}): validated, but it leads nowhere")
        except ContentError as exc:
            line = str(exc)
            if "\n" in line or not fuzz.LINE.match(line):
                found.failures.append(f"site page {page.name} ({what}): not one located line: {line[:300]!r}")
        except Exception:
            found.failures.append(f"site page {page.name} ({what}):\n{traceback.format_exc(limit=-4)}")
        finally:
            page.write_bytes(original)


def _page_urls(text: str) -> list[str]:
    """The URLs Markdown makes of a hand-written page, with the site's extensions but its link check."""
    import markdown

    from generators.site import safe_links
    from tests.link_tricks import urls

    (names, configs), = safe_links._site_extensions()
    page = markdown.markdown(text, extensions=[n for n in names if n != safe_links.__name__],
                             extension_configs=configs)
    return urls(page)


# --- faults -----------------------------------------------------------------------------------------------




def _temporaries(out: Path) -> list[Path]:
    from generators.build_system.build_graph import TMP_SUFFIX

    return [p for p in out.rglob("*") if p.name.endswith(TMP_SUFFIX)] if out.exists() else []


def _umount(where: Path) -> None:
    subprocess.run(["umount", str(where)], capture_output=True)


def _one_line(err: str) -> str | None:
    """Why `err` is not one short line without a traceback, or None."""
    from generators.build_system.errors import MAX_FAULT_LINE

    lines = err.strip().splitlines()
    if "Traceback" in err or len(lines) != 1:
        return f"not one line: {err[-1500:]!r}"
    if len(lines[0]) > MAX_FAULT_LINE + 20:
        return f"a line of {len(lines[0])} characters"
    return None


def _killed(content: Path, work: Path, start: Path, old: dict[str, str], new: dict[str, str], delay: float,
            found: Findings) -> None:
    """A rebuild after an edit (of `start`, a build of the content before it) killed with `kill -9`
    `delay` seconds in: no worker outlives it, build/'s outputs are the old build's or the new one's by
    their digests, before the next run (unless the run had passed its commit point: its journal is
    there) and after that run's recovery; the next build then gives the uninterrupted build's bytes."""
    from generators.build_system.build_graph import JOURNAL, build_lock

    out = work / "build"
    shutil.rmtree(out, ignore_errors=True)
    shutil.copytree(start, out, symlinks=True)
    proc = subprocess.Popen([sys.executable, "-m", "generators.cli", *BUILD, "--content", str(content), "--out",
                             str(out)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, **QUICK})
    seen: set[int] = set()
    end = time.monotonic() + delay
    while time.monotonic() < end and proc.poll() is None:
        seen |= child_pids(proc.pid)
        time.sleep(0.02)
    if proc.poll() is None:
        os.kill(proc.pid, signal.SIGKILL)
    killed = time.monotonic()
    while time.monotonic() < killed + 2 and any(alive(k) for k in seen):
        time.sleep(0.05)
    survivors = [k for k in seen if alive(k)]
    _, err = proc.communicate(timeout=120)
    found.count("kills")
    where = f"kill -9 after {delay:.2f} s ({len(seen)} children seen)"
    if survivors:
        found.failures.append(f"{where}: {len(survivors)} outlived the build by 2 s")
    if "Traceback" in err or "BrokenPipe" in err:
        found.failures.append(f"{where}: printed {err[-1500:]!r}")
    mid_commit = (out / JOURNAL).exists()
    found.count("kills during the commit" if mid_commit else "kills before or after it")
    if not mid_commit and outputs_of(out) not in (old, new):
        found.failures.append(f"{where}: build/ holds some old outputs and some new ones, with no journal")
    with build_lock(out, lambda _: None):  # what the next run does first
        pass
    if outputs_of(out) not in (old, new):
        found.failures.append(f"{where}: after the next run's recovery build/ is neither the old build nor the new")
    elif mid_commit and outputs_of(out) != new:
        found.failures.append(f"{where}: a commit the journal recorded was not finished")
    again = run_cli(*BUILD, "--content", content, "--out", out, env=QUICK)
    if again.returncode != 0:
        found.failures.append(f"{where}: the next build failed: {again.stderr[-1500:]!r}")
    elif _temporaries(out):
        found.failures.append(f"{where}: the next build left temporary files")
    elif outputs_of(out) != new:
        found.failures.append(f"{where}: the next build differs from an uninterrupted one")
    shutil.rmtree(out, ignore_errors=True)


def _full_disk(content: Path, work: Path, size_kb: int, found: Findings) -> None:
    out = work / "disk"
    if not mount_tmpfs(out, f"{size_kb}k"):
        return
    try:
        result = run_cli(*BUILD, "--content", content, "--out", out, env=QUICK)
        found.count("small disks")
        where = f"a disk of {size_kb} kB"
        if result.returncode not in (0, 3):
            found.failures.append(f"{where}: exit {result.returncode}: {result.stderr[-1500:]!r}")
        elif result.returncode == 3 and (problem := _one_line(result.stderr)):
            found.failures.append(f"{where}: {problem}")
    finally:
        _umount(out)


def _read_only(content: Path, work: Path, reference_out: Path, command: str, found: Findings) -> None:
    from generators.build_system.build_graph import TMP_SUFFIX

    out = work / "ro" / "build"
    if not mount_tmpfs(out, "200m"):
        return
    edited = work / "ro" / "content"
    try:
        shutil.copytree(reference_out, out, dirs_exist_ok=True, symlinks=True)
        shutil.copytree(content, edited)
        deck = sorted((edited / FAULT_GAME / "components").glob("*-deck.yaml"))[0]
        deck.write_text(deck.read_text("utf-8").replace("title:", "title: X", 1), "utf-8")
        subprocess.run(["mount", "-o", "remount,ro", str(out)], capture_output=True, check=True)
        paper = ("--paper", "a4") if command in ("print", "build") else ()
        result = run_cli(command, "--game", FAULT_GAME, *paper, "--content", edited, "--out", "build", "-q",
                         cwd=out.parent, env=QUICK)
        found.count("read-only runs")
        where = f"{command} on a read-only build/"
        if result.returncode != 3:
            found.failures.append(f"{where}: exit {result.returncode}: {result.stderr[-1500:]!r}")
        elif problem := _one_line(result.stderr):
            found.failures.append(f"{where}: {problem}")
        elif TMP_SUFFIX in result.stderr or ".manifest" in result.stderr or "build/" not in result.stderr:
            found.failures.append(f"{where}: does not name build/ plainly: {result.stderr.strip()!r}")
    finally:
        _umount(out)
        shutil.rmtree(edited, ignore_errors=True)


def fault_fuzz(runs: int, seed: int, work: Path, found: Findings) -> None:
    if not Path("/proc/self/task").is_dir():
        return  # finding a build's workers reads /proc (Linux)
    content = copy_content(work / "src", (FAULT_GAME,))
    reference_out = work / "reference" / "build"
    made = run_cli(*BUILD, "--content", content, "--out", reference_out, env=QUICK)
    if made.returncode != 0:
        found.failures.append(f"faults: the reference build failed: {made.stderr[-1500:]!r}")
        return
    used_kb = sum(p.stat().st_size for p in reference_out.rglob("*") if p.is_file()) // 1024
    edited = copy_content(work / "edited", (FAULT_GAME,))  # the content after one card's text is edited
    edit_one_card(edited)
    new_out = work / "new" / "build"
    shutil.copytree(reference_out, new_out, symlinks=True)
    started = time.monotonic()
    made = run_cli(*BUILD, "--content", edited, "--out", new_out, env=QUICK)
    length = time.monotonic() - started
    if made.returncode != 0:
        found.failures.append(f"faults: the build after the edit failed: {made.stderr[-1500:]!r}")
        return
    old, new = outputs_of(reference_out), outputs_of(new_out)
    rng = random.Random(seed)
    for _ in range(runs):
        kind = rng.choice(["kill", "kill", "disk", "read-only"])
        try:
            if kind == "kill":
                _killed(edited, work / "kill", reference_out, old, new, rng.uniform(0.1, length * 1.1), found)
            elif kind == "disk":
                _full_disk(content, work, rng.randrange(64, max(128, used_kb)), found)
            else:
                _read_only(content, work, reference_out, rng.choice(["print", "build", "site", "check"]), found)
        except Exception:
            found.failures.append(f"faults ({kind}):\n{traceback.format_exc(limit=-4)}")


# --- arguments and environment variables -----------------------------------------------------------

# Values for any option: numbers at and beyond every bound, other scripts' digits, huge and empty ones,
# odd spellings of numbers, addresses and URLs, paths into the sources and nowhere, control characters.
ODD_VALUES = ["0", "-1", "1", "2", "100000", "100001", "99999999999999999999", "9" * 5000, "²", "①", "٣", "",
              " ", "1e3", "0x10", "nan", "inf", "-inf", "1.5,-0.5", "nan,0", "11,0", "3,", ",", "tcp://h:8786",
              "garbage", "h:", ":1", "tcp://h:99999", "http://x", "javascript:alert(1)", "rookie", "no-such",
              ".", "..", "/", "content", "site", "generators", "tests", "build", "/nonexistent/x", "/dev/null",
              "a\tb", "a\x1bb", "é" * 300, "--games", "1_0", "+0", "-0", "3.0", "1,nan", "x" * 5000, "mkdocs.yml",
              "README.md/x", "site/", "content/../site", "{loop}", "{loop}/x"]
ENV_VALUES = {"ROADKIT_SIMULATE": ["0", "2", "-1", "99999999999999999999", "²", "lots", " ", "1" * 5000],
              "SOURCE_DATE_EPOCH": ["0", "", "-1", "4294967296", "yesterday", "1700000000", "²"],
              "ROADKIT_PHASES": ["/nonexistent/x", "/dev/full", "", "phases.json"]}
# Commands cheap enough to run for real whatever the values (play answers nothing: its input is empty).
RUNNABLE = ("validate", "schema", "check", "play")


def _options() -> dict[str, list[tuple[str, bool]]]:
    """Per subcommand, each option as (flag, takes a value?), positionals as ('', True)."""
    from generators.cli import parser

    subs = parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    return {name: [(a.option_strings[0] if a.option_strings else "", a.nargs != 0) for a in sub._actions
                   if a.dest != "help"] for name, sub in subs.items()}


def _odd_args(rng: random.Random, options: list[tuple[str, bool]], loop: Path) -> list[str]:
    """`loop`: a link that leads round in a circle (`{loop}` in a value)."""
    args: list[str] = []
    for _ in range(rng.randint(1, 3)):
        flag, takes = rng.choice(options)
        value = rng.choice(ODD_VALUES).replace("{loop}", str(loop))
        args += ([flag] if flag else []) + ([value] if takes else [])
    return args


def arg_fuzz(mutants: int, seed: int, work: Path, found: Findings) -> None:
    """Random values for every option of every subcommand and for the ROADKIT_* and SOURCE_DATE_EPOCH
    variables: parsing gives exit 2 on one line or takes the value; a cheap command run with them ends
    with a documented code, no traceback, at most one line on stderr when it fails, and a failed run
    leaves its --out as it was."""
    from generators.cli import parser

    options = _options()
    rng = random.Random(seed)
    content = copy_content(work / "src", (FAULT_GAME,))
    loop = work / "loop-a"
    (work / "loop-b").symlink_to(loop)
    loop.symlink_to(work / "loop-b")
    for i in range(mutants):
        command = rng.choice(sorted(options))
        args = [command, *_odd_args(rng, options[command], loop)]
        found.count("argument mutants")
        said = io.StringIO()
        try:  # the parser alone, in this process: every subcommand
            with contextlib.redirect_stderr(said):
                parser().parse_args(args)
        except SystemExit as exc:
            if exc.code != 2 or len(said.getvalue().strip().splitlines()) != 1:
                found.failures.append(f"arguments {args!r}: parse exit {exc.code}: {said.getvalue()[-300:]!r}")
        except Exception:
            found.failures.append(f"arguments {args!r}:\n{traceback.format_exc(limit=-3)}")
        if command not in RUNNABLE or i % 4:
            continue
        env = {}
        if rng.random() < 0.5:
            name = rng.choice(sorted(ENV_VALUES))
            env[name] = rng.choice(ENV_VALUES[name])
            if env[name] == "phases.json":  # a file it may write: in the work folder, not the repository
                env[name] = str(work / "phases.json")
        out = work / "out" / str(i)
        out.mkdir(parents=True)
        (out / "keep.txt").write_text("not Roadkit's", "utf-8") if rng.random() < 0.2 else None
        before = fingerprint(out)
        runs = ["--content", str(content), "--game", FAULT_GAME, "--out", str(out)]
        result = run_cli(*args, *runs, "--simulations", "1", env=env) if command == "play" else \
            run_cli(*args, *runs, env=env)
        found.count("argument runs")
        told = f"{args!r} {env!r}: exit {result.returncode}: {result.stderr[-600:]!r}"
        lines = [ln for ln in result.stderr.strip().splitlines() if "ROADKIT_PHASES" not in ln]
        failed = result.returncode not in (0, 1, 130)  # 130: play stopped, its input being empty
        if "Traceback" in result.stderr or result.returncode not in (0, 1, 2, 3, 5, 130):
            found.failures.append(f"arguments {told}")
        elif failed and len(lines) != 1:
            found.failures.append(f"arguments, not one line: {told}")
        elif failed and fingerprint(out) != before:
            found.failures.append(f"arguments, a failed run changed --out: {told}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.fuzz_build", description=__doc__.splitlines()[0])
    p.add_argument("--keys", type=int, default=30, help="content mutants whose print keys are checked")
    p.add_argument("--pages", type=int, default=300, help="hand-written site page mutants")
    p.add_argument("--faults", type=int, default=12, help="builds killed, on small disks or read-only")
    p.add_argument("--refused", type=int, default=30, help="builds of content that must be refused")
    p.add_argument("--args", type=int, default=400, help="mutants of arguments and environment variables")
    p.add_argument("--links", type=int, default=300, help="generated link shapes judged by validate, the "
                                                            "accepted ones built into a site")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    found = Findings()
    with tempfile.TemporaryDirectory(prefix="roadkit-fuzz-build-") as tmp:
        work = Path(tmp)
        page_fuzz(args.pages, args.seed, work / "pages", found)
        print(f"  site pages: {found.summary()}", flush=True)
        key_fuzz(args.keys, args.seed, work / "keys", ("vampire-chase", "escape-deathrace-2182-micro"), found)
        print(f"  keys: {found.summary()}", flush=True)
        refused_fuzz(args.refused, args.seed, work / "refused", found)
        print(f"  refused: {found.summary()}", flush=True)
        link_fuzz(args.links, args.seed, work / "links", found)
        print(f"  link shapes: {found.summary()}", flush=True)
        fault_fuzz(args.faults, args.seed, work / "faults", found)
        print(f"  faults: {found.summary()}", flush=True)
        arg_fuzz(args.args, args.seed, work / "args", found)
    for failure in found.failures:
        print(failure, file=sys.stderr)
    print(found.summary())
    return 1 if found.failures else 0


if __name__ == "__main__":
    sys.exit(main())
