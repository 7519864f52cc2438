"""Pyodide, pinned: the Python the Play pages run the engines in, served by the site itself.

The npm registry's `pyodide` package holds the core (the interpreter as WebAssembly, its standard
library, the loader); the engines need nothing more. It is fetched once per version with `npm pack`
(npm is on every machine that builds the site: Debian's package), checked against its integrity hash
and unpacked into a cache outside the repo, then copied into build/play/ once per version.
"""

from __future__ import annotations

import base64
import hashlib
import os
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

from generators.errors import ToolError

VERSION = "0.29.5"
INTEGRITY = "sha512-TkYrUv9m8QmfImADKRmpwZulL48E0uUaBSO+dvRQKyAJc0qh9gu7jn8btyHPh3NZm1r2IH2YrJhIr7Q2B9urAw=="
FILES = ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
FOLDER = f"pyodide-{VERSION}"


def cache_root() -> Path:
    return Path(os.environ.get("ROADKIT_CACHE") or Path.home() / ".cache" / "roadkit")


def cached() -> Path:
    """The unpacked core of Pyodide VERSION in the cache, fetched and checked on first use."""
    dest = cache_root() / FOLDER
    if all((dest / f).is_file() for f in FILES):
        return dest
    dest.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=dest.parent) as tmp:
        try:
            done = subprocess.run(["npm", "pack", f"pyodide@{VERSION}", "--silent"], cwd=tmp, capture_output=True,
                                  text=True, timeout=600, check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise ToolError(f"cannot fetch Pyodide {VERSION} with npm ({exc}); the Play pages need it") from None
        tgz = Path(tmp) / f"pyodide-{VERSION}.tgz"
        if done.returncode != 0 or not tgz.is_file():
            raise ToolError(f"npm pack pyodide@{VERSION} failed: {done.stderr.strip()[-300:]}")
        algo, _, want = INTEGRITY.partition("-")
        got = base64.b64encode(hashlib.new(algo, tgz.read_bytes()).digest()).decode()
        if got != want:
            raise ToolError(f"pyodide-{VERSION}.tgz does not match its pinned integrity hash; not used")
        unpacked = Path(tmp) / FOLDER
        unpacked.mkdir()
        with tarfile.open(tgz) as tar:
            for name in FILES:
                member = tar.extractfile(f"package/{name}")
                if member is None:
                    raise ToolError(f"pyodide-{VERSION}.tgz has no {name}")
                (unpacked / name).write_bytes(member.read())
        shutil.rmtree(dest, ignore_errors=True)
        os.replace(unpacked, dest)
    return dest


def copy_into(folder: Path) -> Path:
    """Pyodide's files under `folder`/pyodide-VERSION, copied only when that version is not there."""
    dest = folder / FOLDER
    if all((dest / f).is_file() for f in FILES):
        return dest
    src = cached()
    tmp = folder / f".{FOLDER}.tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    shutil.copytree(src, tmp)
    shutil.rmtree(dest, ignore_errors=True)
    os.replace(tmp, dest)
    for old in folder.glob("pyodide-*"):
        if old.name != FOLDER:
            shutil.rmtree(old, ignore_errors=True)
    return dest
