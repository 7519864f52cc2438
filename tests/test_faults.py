"""Environment faults: one short line with the documented exit code, whatever process meets the fault;
a site on a file system of its own is copied where hard links cannot cross; pool workers end with the
build that started them (no orphan, no traceback after `kill -9`)."""

from __future__ import annotations

import errno
import os
import re
import shutil
import signal
import time
from pathlib import Path

import pytest

from generators.build_system.build_graph import describe_os_error, link_or_copy
from generators.build_system.errors import MAX_FAULT_LINE, OutputError, ToolError
from generators.build_system.workers import WORKER_NAME
from tests.helpers import alive, child_named, child_pids, copy_content, mount_tmpfs, process_name, start_cli

# --- a full disk is exit 3 in every process ------------------------------------------------------


@pytest.mark.parametrize("output", [
    "INFO - Building documentation...\nTraceback (most recent call last):\n  File \"x.py\", line 1\n"
    "OSError: [Errno 28] No space left on device: '/tmp/site/index.html'\n",
    "ERROR - Error building page 'a.md': [Errno 28] No space left on device: 'site/a/index.html'\n",
    "OSError: [Errno 30] Read-only file system: 'build/site-x/search'\n",
])
def test_mkdocs_meeting_a_full_or_read_only_disk_is_an_output_fault(output: str) -> None:
    from generators.site.mkdocs_run import write_fault

    fault = write_fault(output)
    assert isinstance(fault, OutputError) and not isinstance(fault, ToolError)
    assert fault.exit_code == 3
    assert "\n" not in str(fault) and ("No space left" in str(fault) or "Read-only" in str(fault))


def test_a_mkdocs_content_failure_stays_a_tool_fault() -> None:
    from generators.site.mkdocs_run import write_fault

    assert write_fault("ERROR - Config value 'nav': a page is missing\nAborted with 1 errors\n") is None


def test_a_full_disk_in_a_site_worker_exits_3(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker that stops on a full disk while MkDocs writes: the build reports exit 3, not 4."""
    from generators.site import mkdocs_run

    def full(args: list[str], prog_name: str) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), "site/index.html")

    monkeypatch.setattr(mkdocs_run, "_mkdocs_main", lambda: full)
    monkeypatch.setattr(mkdocs_run, "warm_up", lambda: None)
    job = mkdocs_run.Job(lambda: Path("/tmp/mkdocs.yml"), Path("/tmp/never-written"))
    with pytest.raises(OutputError) as caught:
        mkdocs_run.build({"x": job}, print)
    assert caught.value.exit_code == 3 and "No space left on device" in str(caught.value)


# --- a short line -----------------------------------------------------------------------------------


def test_a_fault_line_stays_short() -> None:
    errors = [(f"/a/{i}.html", f"/b/{i}.html", "[Errno 18] Invalid cross-device link") for i in range(478)]
    line = describe_os_error(shutil.Error(errors))
    assert "(and 477 more files)" in line and len(line) < 200
    assert len(str(OutputError("x" * 200_000))) <= MAX_FAULT_LINE
    # a long name first keeps the reason, which comes last
    long_name = str(OutputError(describe_os_error(OSError(errno.ENAMETOOLONG, os.strerror(errno.ENAMETOOLONG),
                                                          "x" * 5000))))
    assert len(long_name) <= MAX_FAULT_LINE and long_name.endswith("File name too long"), long_name


# --- build/site on a mount of its own -------------------------------------------------------------


def test_links_fall_back_to_copies_across_file_systems(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from generators.site import build

    src = tmp_path / "site" / "game"
    (src / "search").mkdir(parents=True)
    (src / "index.html").write_text("<p>hub</p>", "utf-8")
    (src / "search" / "search_index.json").write_text("{}", "utf-8")

    def cross(a: object, b: object) -> None:
        raise OSError(errno.EXDEV, os.strerror(errno.EXDEV))

    monkeypatch.setattr(os, "link", cross)
    build._link_tree(src, tmp_path / "new" / "game")
    assert (tmp_path / "new" / "game" / "search" / "search_index.json").read_text("utf-8") == "{}"
    link_or_copy(src / "index.html", tmp_path / "copy.html")
    assert (tmp_path / "copy.html").read_text("utf-8") == "<p>hub</p>"


def test_other_link_errors_are_not_hidden(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "a").write_text("a", "utf-8")

    def full(a: object, b: object) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "link", full)
    with pytest.raises(OSError) as caught:
        link_or_copy(tmp_path / "a", tmp_path / "b")
    assert caught.value.errno == errno.ENOSPC


# --- pool workers end with the build -------------------------------------------------------------------





@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc (Linux)")
def test_kill_9_during_print_leaves_no_worker_and_no_traceback(tmp_path: Path) -> None:
    content = copy_content(tmp_path, ("mission-drive",))
    proc = start_cli("print", "--content", content, "--out", tmp_path / "build", "--paper", "a4", "-j", "2", "-q")
    workers: set[int] = set()
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline and proc.poll() is None:
        workers = child_pids(proc.pid)  # the pool's workers (print starts no other process)
        if len(workers) >= 2:
            break
        time.sleep(0.05)
    if proc.poll() is not None or len(workers) < 2:
        proc.kill()
        proc.communicate()
        pytest.skip("the print ended before its workers could be seen")
    time.sleep(0.3)  # mid-unit
    os.kill(proc.pid, signal.SIGKILL)
    killed = time.monotonic()
    gone = killed + 2  # killed with the build, not once their unit is done
    while time.monotonic() < gone and any(alive(w) for w in workers):
        time.sleep(0.05)
    assert not any(alive(w) for w in workers), f"a worker outlived the build by {time.monotonic() - killed:.1f} s"
    _, err = proc.communicate(timeout=60)  # every holder of the pipe (the workers too) has closed it
    assert all(process_name(w) in ("", WORKER_NAME) for w in workers)  # named so `ps` shows what they are
    assert proc.returncode == -signal.SIGKILL
    assert "Traceback" not in err and "BrokenPipe" not in err, err


@pytest.fixture
def mounted(tmp_path: Path):
    """A small tmpfs at tmp_path/build/site, where this machine lets the tests mount one."""
    import subprocess

    site = tmp_path / "build" / "site"
    if not mount_tmpfs(site, "4m"):
        pytest.skip("cannot mount a tmpfs here")
    try:
        yield site
    finally:
        subprocess.run(["umount", str(site)], capture_output=True)


def _swap_in(site: Path, files: dict[str, str], fail_after: bool = False) -> None:
    from generators.build_system.build_graph import Commit, Manifest

    manifest = Manifest.load(site.parent)
    with manifest.transaction() as into, Commit(manifest) as commit:  # the run writes into its copy of build/
        new = commit.temp_folder(into / site.name)
        for rel, text in files.items():
            (new / rel).parent.mkdir(parents=True, exist_ok=True)
            (new / rel).write_text(text, "utf-8")
        commit.folder(new, into / site.name)
        commit.apply()
        if fail_after:  # a later step of the same run fails: what was replaced comes back
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(site / "x"))


def _tree(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): p.read_text("utf-8") for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_site_on_a_mount_of_its_own_is_rebuilt_in_place(mounted: Path) -> None:
    _rebuilt_in_place(mounted)


@pytest.mark.parametrize("code", [errno.EBUSY, errno.EXDEV])
def test_a_site_that_cannot_be_renamed_is_rebuilt_in_place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           code: int) -> None:
    """A bind mount of the same file system (a container's volume, a web server's document root):
    os.path.ismount says no, and the kernel refuses to rename or exchange it (EBUSY; EXDEV where
    the mount is of another file system). Simulated: this folder answers as such a mount would."""
    from pathlib import PosixPath

    from generators.build_system import build_graph

    site = tmp_path / "build" / "site"
    site.mkdir(parents=True)
    real_exchange, real_rename = build_graph._exchange, PosixPath.rename

    def exchange(a: Path, b: Path) -> bool:
        if site in (Path(a), Path(b)):
            raise OSError(code, os.strerror(code), str(b))
        return real_exchange(a, b)

    def rename(self: Path, target: object) -> Path:
        if self == site or Path(str(target)) == site:
            raise OSError(code, os.strerror(code), str(self))
        return real_rename(self, target)  # type: ignore[arg-type]

    monkeypatch.setattr(build_graph, "_exchange", exchange)
    monkeypatch.setattr(PosixPath, "rename", rename)
    assert not os.path.ismount(site)
    _rebuilt_in_place(site)


def _rebuilt_in_place(mounted: Path) -> None:
    (mounted / "index.html").write_text("old", "utf-8")
    (mounted / "game").mkdir()
    (mounted / "game" / "index.html").write_text("old game", "utf-8")
    _swap_in(mounted, {"index.html": "new", "other/index.html": "new other"})
    assert _tree(mounted) == {"index.html": "new", "other/index.html": "new other"}  # nothing kept aside
    assert not [p for p in mounted.parent.iterdir() if p.name.startswith(".site.")]  # no temporary left

    with pytest.raises(OSError):
        _swap_in(mounted, {"index.html": "newer"}, fail_after=True)
    assert _tree(mounted) == {"index.html": "new", "other/index.html": "new other"}  # put back


def test_what_a_killed_rebuild_left_on_the_mount_is_removed(mounted: Path) -> None:
    from generators.build_system.build_graph import TMP_SUFFIX, clean_stale

    left = mounted / f".site.1.old{TMP_SUFFIX}"
    left.mkdir()
    (left / "index.html").write_text("old", "utf-8")
    (mounted / "index.html").write_text("new", "utf-8")
    assert left in clean_stale(mounted.parent)
    assert _tree(mounted) == {"index.html": "new"}


def test_a_really_full_disk_during_print_is_one_line_exit_3(tmp_path: Path) -> None:
    import subprocess

    from tests.helpers import run_cli

    out = tmp_path / "build"
    if not mount_tmpfs(out, "256k"):
        pytest.skip("cannot mount a tmpfs here")
    try:
        content = copy_content(tmp_path, ("vampire-chase",))
        result = run_cli("print", "--content", content, "--out", out, "--paper", "a4", "-q")
        assert result.returncode == 3, (result.returncode, result.stderr)
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and "No space left on device" in lines[0], result.stderr
        assert "Traceback" not in result.stderr and len(lines[0]) <= MAX_FAULT_LINE
    finally:
        subprocess.run(["umount", str(out)], capture_output=True)


def _edited_build(tmp_path: Path) -> tuple[Path, list[str], dict[str, str]]:
    """A built copy of one game, then one printed title edited: the content folder, the build's
    arguments and its environment."""
    from tests.helpers import run_cli

    content = copy_content(tmp_path, ("mission-drive",))
    out = tmp_path / "build"
    args = ["build", "--content", str(content), "--out", str(out), "--paper", "a4", "--no-png", "-q"]
    env = {**os.environ, "ROADKIT_SIMULATE": "0"}
    assert run_cli(*args, env=env).returncode == 0
    deck = content / "mission-drive" / "components" / "movement-cards.yaml"
    text = deck.read_text("utf-8")
    m = re.search(r"^  - id: (\S+)\n(?:    facts: .*\n)?    front:\n      title: (.+)$", text, re.M)
    assert m, "the deck's first face"
    deck.write_text(text[: m.start(2)] + "Edited title" + text[m.end(2):], "utf-8")  # a printed title
    return out, args, env


def _killed_at(hook: str, args: list[str], env: dict[str, str]) -> None:
    """The build run with `hook` (Python) run first, which arranges its own kill -9 at some point."""
    import subprocess
    import sys

    from tests.helpers import ROOT

    code = f"import os, signal, sys; {hook}; from generators.cli import main; sys.exit(main(sys.argv[1:]))"
    proc = subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=900)
    assert proc.returncode == -signal.SIGKILL, proc.stderr[-800:]


def _offers_what_it_describes(out: Path) -> None:
    for pdf in (out / "print" / "a4").glob("mission-drive-*.pdf"):
        offered = out / "site" / "mission-drive" / "downloads" / "a4" / pdf.name
        assert offered.read_bytes() == pdf.read_bytes(), pdf.name


def test_a_kill_between_stages_leaves_the_old_outputs(tmp_path: Path) -> None:
    """`kill -9` after print and the check made their outputs, before the site: they were made in the
    run's staging copy of build/, so build/ holds the old outputs, every one, even before the next
    run (never new PDFs beside a site offering the old ones); the next run removes the copy, and the
    run after that builds the new outputs whole."""
    from generators.build_system.build_graph import JOURNAL, build_lock
    from tests.helpers import outputs_of, run_cli

    out, args, env = _edited_build(tmp_path)
    before = outputs_of(out)
    _killed_at("import generators.site.build as b; "
               "b.build_site = lambda *a, **k: os.kill(os.getpid(), signal.SIGKILL)", args, env)
    assert not (out / JOURNAL).exists()
    assert outputs_of(out) == before
    with build_lock(out, lambda _: None):  # what the next run does first
        pass
    assert outputs_of(out) == before
    assert not _temporaries(out)
    assert run_cli(*args, env=env).returncode == 0
    assert outputs_of(out) != before
    _offers_what_it_describes(out)


def test_a_kill_while_the_outputs_move_in_is_finished_by_the_next_run(tmp_path: Path) -> None:
    """`kill -9` after the run's commit point, two steps into moving its new outputs into build/: the
    journal is there, and the next run finishes those steps before anything else, so build/ is the
    new build whole (as an uninterrupted run leaves it), and its manifest describes it: a run after
    that has nothing to make."""
    from generators.build_system.build_graph import JOURNAL, build_lock
    from tests.helpers import outputs_of, run_cli

    out, args, env = _edited_build(tmp_path)
    whole = tmp_path / "uninterrupted"
    shutil.copytree(out, whole, symlinks=True)
    assert run_cli(*[whole if a == str(out) else a for a in args], env=env).returncode == 0
    before, after = outputs_of(out), outputs_of(whole)
    assert before != after
    _killed_at("import generators.build_system.build_graph as o; real = o._step; n = []; "
               "o._step = lambda *a: (n.append(1), len(n) > 2 and os.kill(os.getpid(), signal.SIGKILL), real(*a))",
               args, env)
    assert (out / JOURNAL).is_file()
    assert outputs_of(out) not in (before, after)  # the moment the journal is there for
    with build_lock(out, lambda _: None):
        pass
    assert outputs_of(out) == after
    assert not _temporaries(out) and not (out / JOURNAL).exists()
    again = run_cli(*args[:-1], env=env)  # not quiet: it says what it made
    assert again.returncode == 0 and "0 made" in again.stdout, again.stdout
    assert outputs_of(out) == after
    _offers_what_it_describes(out)


def _temporaries(out: Path) -> list[Path]:
    from generators.build_system.build_graph import TMP_SUFFIX

    return [p for p in out.rglob("*") if p.name.endswith(TMP_SUFFIX)]


@pytest.mark.parametrize("relative", [False, True])
def test_the_staging_copy_is_links_that_reach_what_build_reaches(tmp_path: Path, relative: bool,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The run's copy of build/: a file is the same file (a hard link); the site, and a folder the user
    linked in (relative or absolute), are reached by links that lead where build/'s lead; removing the
    copy leaves build/ and what its links reach as they were. build/ given as a relative path too
    (`roadkit site` with its default --out): the site's link once led to build/build/site."""
    from generators.build_system.build_graph import remove_tree, stage_copy

    monkeypatch.chdir(tmp_path)
    out = Path("build") if relative else tmp_path / "build"
    (out / "site").mkdir(parents=True)
    (out / "site" / "index.html").write_text("site", "utf-8")
    (out / "check").mkdir()
    (out / "check" / "report.json").write_text("{}", "utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "a.pdf").write_text("pdf", "utf-8")
    os.symlink("../elsewhere", out / "print")
    os.symlink(elsewhere, out / "tts")
    staged = stage_copy(out)
    assert staged is not None
    stage, placed = staged
    assert (stage / "check" / "report.json").stat().st_ino == (out / "check" / "report.json").stat().st_ino
    assert (stage / "site").is_symlink() and (stage / "site" / "index.html").read_text("utf-8") == "site"
    assert (stage / "print" / "a.pdf").read_text("utf-8") == "pdf" and (stage / "tts" / "a.pdf").is_file()
    assert set(placed) == {"site", "check/report.json", "print", "tts"}
    remove_tree(stage)
    assert (out / "site" / "index.html").is_file() and (elsewhere / "a.pdf").is_file()
    assert sorted(p.name for p in out.iterdir()) == ["check", "print", "site", "tts"]


# --- Zensical's site swapped in by the run's commit ----------------------------------------------------


def _zensical_build(tmp_path: Path) -> tuple[Path, list[str], Path]:
    """A Zensical site of one game, built; then a rules page edited, so the next build's site differs.
    The content folder's edited page, the build's arguments, build/."""
    from generators.site import zensical_run
    from tests.helpers import run_cli

    if not zensical_run.available():
        pytest.skip("zensical is not installed: pip install -c constraints.txt -e '.[zensical]'")
    content = copy_content(tmp_path, ("vampire-chase",))
    out = tmp_path / "build"
    args = ["site", "--engine", "zensical", "--content", str(content), "--out", str(out), "-q"]
    first = run_cli(*args)
    assert first.returncode == 0 and (out / "site-zensical" / "index.html").is_file(), first.stderr
    page = sorted((content / "vampire-chase" / "rules").glob("*.md"))[0]
    page.write_text(page.read_text("utf-8") + "\nZensical swap test: an edit the next site shows.\n", "utf-8")
    return page, args, out


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc (Linux)")
@pytest.mark.parametrize("how", ["fault", "kill"])
def test_a_failed_or_killed_zensical_build_leaves_the_previous_site(tmp_path: Path, how: str) -> None:
    """Zensical builds into a temporary folder that the run's commit swaps in for build/site-zensical/:
    a build that fails after Zensical wrote the whole new site, or one killed (`kill -9`) while Zensical
    writes it, leaves build/ byte for byte as it was (no half-written site, Zensical not left running);
    the next run removes what the killed one left and swaps the new site in whole."""
    from generators.build_system.build_graph import build_lock
    from tests.helpers import outputs_of, run_cli

    _, args, out = _zensical_build(tmp_path)
    before = outputs_of(out)
    if how == "fault":
        env = {**os.environ}
        hook = ("import generators.site.zensical_run as z; from generators.build_system.errors import ToolError; "
                "real = z._run; z._run = lambda *a: (real(*a), (_ for _ in ()).throw(ToolError('injected fault')))")
        import subprocess
        import sys

        from tests.helpers import ROOT

        code = f"import sys; {hook}; from generators.cli import main; sys.exit(main(sys.argv[1:]))"
        failed = subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, env=env, capture_output=True,
                                text=True, timeout=900)
        assert failed.returncode == 4 and "injected fault" in failed.stderr, failed.stderr[-800:]
        assert "Traceback" not in failed.stderr
    else:
        proc = start_cli(*args)
        deadline, kid = time.monotonic() + 600, None
        # while Zensical runs (the build waits for it) and has written pages into the temporary site
        while kid is None or not alive(kid) or not any(out.glob("*/zensical-docs/.site-zensical*/**/*.html")):
            assert proc.poll() is None, f"the build ended before Zensical wrote a page: {proc.communicate()}"
            assert time.monotonic() < deadline, "Zensical never started writing"
            kid = kid or child_named(proc.pid, b"zensical", "cmdline")
            time.sleep(0.05)
        os.kill(proc.pid, signal.SIGKILL)
        proc.communicate(timeout=60)
        gone = time.monotonic() + 10
        while alive(kid) and time.monotonic() < gone:
            time.sleep(0.05)
        assert not alive(kid), "Zensical went on writing after the build was killed"
    assert outputs_of(out) == before
    with build_lock(out, lambda _: None):  # what the next run does first
        pass
    assert not _temporaries(out) and outputs_of(out) == before
    again = run_cli(*args)
    assert again.returncode == 0, again.stderr
    after = outputs_of(out)
    assert after != before and not _temporaries(out)
    shown = [p for p in (out / "site-zensical" / "vampire-chase").rglob("*.html")
             if b"Zensical swap test" in p.read_bytes()]
    assert shown, "the rebuilt site does not show the edit"
