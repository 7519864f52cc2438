"""Pyodide, pinned: the Python the Play pages run the engines in, served by the site itself.

The npm registry's `pyodide` package holds the core (the interpreter as WebAssembly, its standard
library, the loader); the engines need nothing more. Its tarball is downloaded once per version from
the registry (plain HTTPS, so a machine with Python alone can build: no npm needed), checked against
its pinned integrity hash (the registry's own `dist.integrity`) and unpacked into a cache outside the
repo, then copied into build/play/ once per version.
"""

from __future__ import annotations

import base64
import hashlib
import os
import shutil
import tarfile
import tempfile
import urllib.error
import urllib.request
from pathlib import Path

from generators.build_system.errors import ToolError

VERSION = "0.29.5"
INTEGRITY = "sha512-TkYrUv9m8QmfImADKRmpwZulL48E0uUaBSO+dvRQKyAJc0qh9gu7jn8btyHPh3NZm1r2IH2YrJhIr7Q2B9urAw=="
FILES = ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
FOLDER = f"pyodide-{VERSION}"
# Where the tarball is read from: the public npm registry, or a mirror of it.
REGISTRY = os.environ.get("ROADKIT_NPM_REGISTRY", "https://registry.npmjs.org").rstrip("/")


def cache_root() -> Path:
    return Path(os.environ.get("ROADKIT_CACHE") or Path.home() / ".cache" / "roadkit")


def cached() -> Path:
    """The unpacked core of Pyodide VERSION in the cache, fetched and checked on first use."""
    dest = cache_root() / FOLDER
    if all((dest / f).is_file() for f in FILES):
        return dest
    dest.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=dest.parent) as tmp:
        tgz = Path(tmp) / f"pyodide-{VERSION}.tgz"
        url = f"{REGISTRY}/pyodide/-/pyodide-{VERSION}.tgz"
        try:
            with urllib.request.urlopen(url, timeout=600) as answer:
                tgz.write_bytes(answer.read())
        except (OSError, urllib.error.URLError, ValueError) as exc:
            raise ToolError(f"cannot download Pyodide {VERSION} from {url} ({exc}); the Play pages need it") from None
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
