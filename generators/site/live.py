"""`roadkit site --serve`: a live preview while editing content.

`mkdocs serve` watches the staged docs folder and reloads the browser; a polling thread here watches
what the pages are made from (content/, site/, the print kit's PNGs and PDFs, the check's report)
and restages the pages when any of it changes. Restaging writes only the files whose bytes changed,
so MkDocs rebuilds once per edit. A content mistake is printed and the last good pages stay up.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from generators.build_system import child_lifetime
from generators.build_system.arguments import env_address
from generators.build_system.errors import ContentError
from generators.content.loader import load_content

POLL_SECONDS = 0.5
DEFAULT_ADDR = "127.0.0.1:8000"


def signature(roots: Iterable[Path]) -> tuple[tuple[str, int, int], ...]:
    """Path, size and mtime of every file under `roots`: cheap to take twice a second."""
    out = []
    for root in roots:
        if root.is_file():
            files = [root]
        elif root.is_dir():
            files = [p for p in root.rglob("*") if p.is_file()]
        else:
            continue
        for p in files:
            try:
                st = p.stat()
            except OSError:
                continue
            out.append((str(p), st.st_size, st.st_mtime_ns))
    return tuple(sorted(out))


def serve(content_dir: Path, out: Path, stage: Callable, base_config: Path, extra_watch: list[Path]) -> int:
    addr = env_address("ROADKIT_SERVE_ADDR", DEFAULT_ADDR)  # before anything is written
    out.mkdir(parents=True, exist_ok=True)
    watched = [content_dir, *extra_watch, out / "png", out / "print", out / "check" / "report.json"]

    def restage() -> bool:
        try:
            content = load_content(content_dir)
            _, written, _, removed = stage(content, out)
        except ContentError as exc:
            print(f"content error (the preview keeps the last good pages): {exc}", file=sys.stderr, flush=True)
            return False
        if written or removed:
            print(f"site: restaged {written} files, removed {removed}", flush=True)
        return True

    if not restage() and not (out / "mkdocs.yml").is_file():
        return 2
    # Tethered: `mkdocs serve` ends with this process, even when it is killed with -9.
    cmd = child_lifetime.command([sys.executable, "-m", "mkdocs", "serve", "-f", str((out / "mkdocs.yml").resolve()),
                          "--dev-addr", addr, "-w", str(base_config.resolve())])
    env = dict(os.environ)
    env.setdefault("NO_MKDOCS_2_WARNING", "1")
    print(f"serving on http://{addr}/ (Ctrl-C stops)", flush=True)
    proc = subprocess.Popen(cmd, env=env, cwd=out.resolve())
    stop = threading.Event()

    def watch() -> None:
        last = signature(watched)
        while not stop.wait(POLL_SECONDS):
            now = signature(watched)
            if now != last:
                time.sleep(0.2)  # let an editor finish writing
                last = signature(watched)
                restage()

    thread = threading.Thread(target=watch, name="roadkit-site-watch", daemon=True)
    thread.start()
    # A plain `kill` must not leave `mkdocs serve` running on its own: stop it as Ctrl-C does.
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        return proc.wait()
    except KeyboardInterrupt:
        return 0
    finally:
        stop.set()
        signal.signal(signal.SIGTERM, previous)
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt
