"""The build graph's one mechanism: keys, one manifest, commits that leave build/ whole, one build at a time.

Every output (a PDF, a PNG, a schema file, the rules check's folder, each site) is a target with a
key: a hash of everything it is made from, the whole `generators` package and the tools' versions
included. `build/.manifest.json` remembers the key each output was made with, by its path relative to
build/, so an output is remade when anything it depends on changed, and only then.

A writing run works in a staging copy of build/ (`Manifest.transaction`: hard links to every output,
the site reached by a symlink), where its steps read one another's new outputs. Writes there go
through a `Commit`: new files are written beside their destinations under temporary names
(`*.roadkit-tmp`, unique to the process) and renamed into place when all of them are complete; whole
folders (the sites) are swapped in. build/ itself changes once, at the end (`publish`): the changes
are listed in a journal, the commit point, then moved in, each site with one atomic exchange, so there
is never a moment without a site. A failure or a kill before the journal leaves build/ exactly as it
was; a kill after it is finished by the next run (`recover`). `build_lock` holds build/ for one run at a
time and clears what a killed run left behind.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import hashlib
import json
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any

from generators.build_system import workers
from generators.build_system.code_layers import GAMES_FOLDERS, label, module_files
from generators.build_system.errors import OutputError
from generators.build_system.workers import available_cores

PACKAGE = Path(__file__).resolve().parent.parent  # generators/, this module being in generators/build_system/
TMP_SUFFIX = ".roadkit-tmp"  # every temporary name ends so: what a killed run leaves is found by it
MANIFEST = ".manifest.json"
# Marks a folder as Roadkit's output folder: only a folder that has it (or was empty) is ever cleaned
# or has folders swapped in, so `--out ~/Documents` cannot lose anything.
MARKER = ".roadkit-build"
# Distributions whose version changes what Roadkit writes (PDF bytes, rendered PNGs, the site).
TOOLS = ("reportlab", "pillow", "pypdfium2", "pyyaml", "jinja2", "mkdocs", "mkdocs-material",
         "pymdown-extensions", "markdown")
# Left by earlier versions of Roadkit: four separate caches, now all in the manifest.
_LEGACY = (".site-inputs", ".site-stamp.json", "check/.inputs", "site.tmp", "site-offline.tmp", "site.old",
           "site-offline.old", "site-offline")  # site-offline/: the one site now also works from file://


def _file_mode() -> int:
    """The mode a plainly created file would get (mkstemp's are private, 0600)."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


FILE_MODE = _file_mode()
FOLDER_MODE = FILE_MODE | ((FILE_MODE & 0o444) >> 2)  # a plainly made folder: x wherever r


def describe_os_error(exc: OSError) -> str:
    """`cannot write build/x.pdf: No space left on device`, with the path as the user would type it."""
    if isinstance(exc, shutil.Error) and exc.args and isinstance(exc.args[0], list) and exc.args[0]:
        # A tree copy's list of (source, destination, reason): the first, and how many there were.
        errors = exc.args[0]
        first = errors[0]
        reason = first[2] if isinstance(first, tuple) and len(first) == 3 else first
        dest = user_path(first[1]) if isinstance(first, tuple) and len(first) == 3 else ""
        more = f" (and {len(errors) - 1} more files)" if len(errors) > 1 else ""
        return f"{dest}: {reason}{more}" if dest else f"{reason}{more}"
    where = user_path(exc.filename) if isinstance(exc.filename, (str, bytes, os.PathLike)) else ""
    reason = exc.strerror or str(exc)
    return f"{where}: {reason}" if where else reason


# The disk refused a write: full, over quota, read-only, too big.
_WRITE_FAULTS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EFBIG})


def describe_fault(exc: OSError) -> str:
    """The line for an OSError that reached the command: a refused write says so (`cannot write
    build/: Read-only file system; build/ was left as it was`), anything else names what failed."""
    if exc.errno in _WRITE_FAULTS:
        return f"cannot write {describe_os_error(exc)}; build/ was left as it was"
    return describe_os_error(exc)


# `.{name}.{pid}.{random or "old"}.roadkit-tmp`: the temporary twin of `name` in the same folder.
_TEMP_NAME = re.compile(r"^\.(?P<name>.+)\.\d+\.[^.]+" + re.escape(TMP_SUFFIX) + "$")


def user_path(path: str | bytes | os.PathLike[str] | os.PathLike[bytes]) -> str:
    """`path` as the user knows it, relative where that is shorter: a temporary name becomes the output
    it stands for (`build/site/x.html`), or its folder (`build/`) when that output is our own
    bookkeeping (a hidden file); a library's message never shows a name the user cannot act on."""
    given = list(Path(os.fsdecode(path)).parts)
    parts: list[str] = []
    folder = False  # the path ends at a folder's stand-in, or at our bookkeeping: shown as the folder
    for part in given:
        m = _TEMP_NAME.match(part)
        folder = m is not None
        if m is None:
            parts.append(part)
            continue
        name = m.group("name")
        if name.startswith("."):
            break
        if not (parts and parts[-1] == name):  # else kept aside inside the folder itself (the run's staging
            parts.append(name)                 # copy of build/, a site on a mount of its own)
            folder = False
    shown = str(Path(*parts)) if parts else "."
    with contextlib.suppress(ValueError):
        rel = os.path.relpath(shown)
        shown = rel if len(rel) <= len(shown) else shown
    folder = folder or os.path.isdir(shown)
    return shown + "/" if folder and not shown.endswith("/") else shown


# Hard links cannot cross file systems (EXDEV), may be refused by the file system (EPERM, ENOTSUP) or run
# out per file (EMLINK): a copy does the same job there.
_NO_LINK = frozenset({errno.EXDEV, errno.EPERM, errno.ENOTSUP, errno.EMLINK, errno.EOPNOTSUPP})


def remove_tree(path: str | os.PathLike[str]) -> None:
    """Remove the folder `path` as far as this user can. A folder without write permission (a copy of
    a read-only site keeps its modes) would keep its entries from everyone but root; its owner may
    open it up again, so it is, and the removal retried."""
    if os.path.islink(path):  # the link itself, never what it points to
        os.unlink(path)
        return

    def retry(func: Callable[[str], object], failed: str, _exc: object) -> None:
        with contextlib.suppress(OSError):
            os.chmod(os.path.dirname(failed), 0o700)
            if os.path.isdir(failed) and not os.path.islink(failed):
                os.chmod(failed, 0o700)
            func(failed)

    for _ in range(2):  # the second pass gets into folders that could not even be listed in the first
        if not os.path.lexists(path):
            return
        if sys.version_info >= (3, 12):
            shutil.rmtree(path, onexc=retry)
        else:
            shutil.rmtree(path, onerror=retry)


def link_or_copy(src: str | os.PathLike[str], dst: str | os.PathLike[str]) -> None:
    """`dst` as a hard link to `src`, or a copy of it where links cannot be made."""
    try:
        os.link(src, dst)
    except OSError as exc:
        if exc.errno not in _NO_LINK:
            raise
        shutil.copy2(src, dst)


def write_atomic(path: Path, data: bytes) -> None:
    """Write to a temporary file beside `path`, then rename over it: readers never see half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = _write_temp(path, data)
    try:
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_if_changed(path: Path, data: bytes) -> bool:
    """Write only when the bytes differ, so an unchanged output keeps its time stamp."""
    if _same_bytes(path, data):
        return False
    write_atomic(path, data)
    return True


def _same_bytes(path: Path, data: bytes) -> bool:
    try:
        return path.stat().st_size == len(data) and path.read_bytes() == data
    except OSError:
        return False


def _write_temp(path: Path, data: bytes) -> Path:
    """`data` in a new temporary file beside `path` (same folder, so a rename is atomic). A failure
    names `path`, the file the user knows, not the temporary one."""
    try:
        fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.{os.getpid()}.", suffix=TMP_SUFFIX)
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, str(path)) from None
    tmp = Path(name)
    try:
        with os.fdopen(fd, "wb") as f:
            write_bytes(f, data)
        os.chmod(tmp, FILE_MODE)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise OSError(exc.errno, exc.strerror, str(path)) from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return tmp


def write_bytes(f, data: bytes) -> None:
    f.write(data)
    f.flush()


def digest(*parts: object) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(part if isinstance(part, bytes) else repr(part).encode())
        h.update(b"\0")
    return h.hexdigest()


# The entry points of each layer of outputs (code_version follows what they import): print outputs the
# print kit (and through it the content model), the site its build (site code; the report it shows is
# keyed through the manifest), the content schemas their export; a game's check and whole games the
# check runner, its scenario schema the schema targets, each with that game's rules package as the
# engine it loads.
PRINT_CODE = ("generators.pdf.print_targets",)
TTS_CODE = ("generators.pdf.tts",)
FIT_CODE = ("generators.pdf.fit",)
SITE_CODE = ("generators.site.build",)
SCHEMA_CODE = ("generators.content.export_schema",)
SCENARIO_SCHEMA_CODE = ("generators.check.schemas",)
CHECK_CODE = ("generators.check.runner",)


@cache
def code_version(*modules: str, loads: tuple[str, ...] = ()) -> str:
    """What outputs are made by: the package's files that `modules` (dotted names; see the layers above)
    run or read, found through their imports and through their dynamic loads (of `loads` alone where
    those fit: a game's rules package), or without `modules` every file of the package (code,
    templates, fonts, and the games folders `--engines` adds), each hashed by its bytes; the versions
    of the tools that write bytes; SOURCE_DATE_EPOCH (dates in PDFs and the sitemap)."""
    if modules:
        files = module_files(modules, PACKAGE, loads)
    else:
        files = sorted(p for root in (PACKAGE, *GAMES_FOLDERS) for p in root.rglob("*")
                       if p.is_file() and "__pycache__" not in p.parts)
    h = hashlib.sha256()
    for p in files:  # bytes hashed as they are (a repr of the fonts' bytes costs more than hashing them)
        h.update(label(p).encode() + b"\0" + _file_digest(p))
    return digest(h.hexdigest(), tuple(_version(d) for d in TOOLS), os.environ.get("SOURCE_DATE_EPOCH"))


@cache
def _file_digest(path: Path) -> bytes:
    """A package file's hash, once per run (several layers share the fonts and the content model)."""
    return hashlib.sha256(path.read_bytes()).digest()


MAX_EPOCH = 2**32 - 1  # the gzip header of the site's sitemap holds the date in 32 bits


def source_date_epoch_problem() -> str | None:
    """Why SOURCE_DATE_EPOCH (the date ReportLab and MkDocs write into outputs) cannot be used, or None."""
    value = os.environ.get("SOURCE_DATE_EPOCH")
    if value is None:
        return None
    if not value.strip():
        return "SOURCE_DATE_EPOCH is set but empty; unset it or give seconds since 1970 (like 1700000000)"
    digits = value.strip()
    # isdigit() alone takes '²' (int() refuses it); more than ten digits cannot be at most MAX_EPOCH
    if not (digits.isascii() and digits.isdigit() and len(digits) <= 10) or int(digits) > MAX_EPOCH:
        return f"SOURCE_DATE_EPOCH={value!r} is not a number of seconds since 1970 (0 to {MAX_EPOCH}); fix or unset it"
    return None


def _version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "-"


def files_key(root: Path, paths: Iterable[Path]) -> tuple[tuple[str, str | None], ...]:
    """(path relative to `root`, hash of its bytes or None if absent) for each path: what an output is
    made from, keyed without absolute paths so that two clones agree."""
    out: list[tuple[str, str | None]] = []
    for p in paths:
        rel = os.path.relpath(p, root)
        try:
            out.append((Path(rel).as_posix(), hashlib.sha256(p.read_bytes()).hexdigest()))
        except OSError:
            out.append((Path(rel).as_posix(), None))
    return tuple(sorted(out))


# --- the manifest ------------------------------------------------------------------------------


@dataclass
class Manifest:
    """Which key each output under `root` (build/) was last made with, by its relative path."""

    root: Path
    keys: dict[str, str]
    journal: list[Undo] | None = field(default=None, repr=False, compare=False)
    swapped: set[str] | None = field(default=None, repr=False, compare=False)  # folders swapped in the stage

    @contextlib.contextmanager
    def transaction(self) -> Iterator[Path]:
        """Everything the run writes stands or falls together, and build/ shows the old outputs or the
        new ones, never some of each (new PDFs beside a site offering the old ones).

        The run works in a staging copy of build/ (`stage_copy`: hard links to every output, made in a
        moment), yielded as the folder to write into (the manifest's root meanwhile): its steps read
        one another's new outputs there. A fault (an exception) or a kill leaves build/ untouched (the
        next run removes the copy). On success `publish` moves what changed into build/ at one commit
        point, its journal, from which a run killed part-way through is finished by the next one.
        Where no copy can be made (build/ itself cannot be written) the run works in place, and a
        fault puts back what it replaced."""
        out, keys = self.root, dict(self.keys)
        staged = stage_copy(out)
        self.journal = []
        if staged is not None:
            self.root, self.swapped = staged[0], set()
        try:
            yield self.root
            if staged is not None and self.swapped is not None:
                publish(out, *staged, self.swapped)
        except BaseException:
            self.root = out
            for undo in reversed(self.journal):
                undo.rollback(self)
            self.keys = keys
            raise
        else:
            for undo in self.journal:
                undo.discard()
        finally:
            self.root, self.journal, self.swapped = out, None, None
            if staged is not None:
                remove_tree(staged[0])

    @classmethod
    def load(cls, root: Path) -> Manifest:
        try:
            data = json.loads((root / MANIFEST).read_text("utf-8"))
        except (OSError, ValueError):
            data = None
        keys = data.get("targets") if isinstance(data, dict) and data.get("version") == 2 else None
        if not isinstance(keys, dict):
            keys = {}
        return cls(root, {k: v for k, v in keys.items() if isinstance(k, str) and isinstance(v, str)})

    def rel(self, path: Path) -> str:
        rel = Path(os.path.relpath(path, self.root)).as_posix()
        if rel.startswith("../") or rel == "..":
            raise ValueError(f"{path} is not inside {self.root}")
        return rel

    def fresh(self, path: Path, key: str) -> bool:
        return self.keys.get(self.rel(path)) == key and path.exists()

    def entries(self, prefixes: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
        """(path, key) of recorded outputs under these relative prefixes that exist: for keys of outputs
        made from other outputs (the site shows the PNGs, PDFs and the check)."""
        return tuple(sorted((k, v) for k, v in self.keys.items()
                            if k.startswith(prefixes) and (self.root / k).exists()))

    # A whole run (`roadkit build` with its options) whose inputs are unchanged since it last
    # succeeded, and whose outputs are all still there as it left them, has nothing to do: the CLI
    # then skips even the validation pass. Runs are recorded beside the outputs under this prefix.
    RUN = "run:"

    def outputs_digest(self) -> str:
        return digest(sorted((k, v) for k, v in self.keys.items() if not k.startswith(self.RUN)))

    def run_current(self, name: str, inputs: str) -> bool:
        """Did run `name` last succeed with these inputs, leaving every output as recorded (and no
        killed run's journal waiting to put old ones back)?"""
        if (self.root / JOURNAL).exists():
            return False
        if self.keys.get(self.RUN + name) != digest(inputs, self.outputs_digest()):
            return False
        return all((self.root / k).exists() for k in self.keys if not k.startswith(self.RUN))

    def record_run(self, name: str, inputs: str) -> None:
        self.keys[self.RUN + name] = digest(inputs, self.outputs_digest())
        self.save()

    def save(self) -> None:
        data = {"version": 2, "targets": dict(sorted(self.keys.items()))}
        try:
            write_if_changed(self.root / MANIFEST, (json.dumps(data, indent=1) + "\n").encode())
        except OSError as exc:  # our bookkeeping: the user knows the folder
            raise OSError(exc.errno, exc.strerror, str(self.root)) from None


# --- committing outputs ------------------------------------------------------------------------


@dataclass
class Commit:
    """Outputs staged under temporary names and put in place together by `apply`; `abort` (or leaving
    the `with` block by an exception) removes everything staged and leaves build/ as it was. Without a
    manifest (a folder outside the build graph) nothing is recorded."""

    manifest: Manifest | None
    files: list[tuple[Path, Path]] = field(default_factory=list)  # (temporary, destination)
    folders: list[tuple[Path, Path]] = field(default_factory=list)  # (complete new folder, destination)
    removals: list[Path] = field(default_factory=list)
    keys: dict[str, str | None] = field(default_factory=dict)  # relative path -> new key (None: forget)
    created: list[Path] = field(default_factory=list)  # folders made for staging, removed again on abort
    scratch: list[Path] = field(default_factory=list)  # temporary folders, removed when done either way

    def __enter__(self) -> Commit:
        return self

    def __exit__(self, kind: object, exc: object, tb: object) -> None:
        if kind is not None:
            self.abort()

    def _mkdir(self, folder: Path) -> None:
        make_folders(folder, self.created)

    def write(self, path: Path, data: bytes) -> None:
        """Stage `data` as the new `path`."""
        try:
            self._mkdir(path.parent)
            self.files.append((_write_temp(path, data), path))
        except OSError as exc:
            raise _output_error(exc) from None

    def temp_folder(self, dest: Path) -> Path:
        """A new empty folder beside `dest` to work in or make its replacement in (see `folder`);
        removed when the commit is done unless swapped in."""
        try:
            self._mkdir(dest.parent)
            tmp = tempfile.mkdtemp(dir=dest.parent, prefix=f".{dest.name}.{os.getpid()}.", suffix=TMP_SUFFIX)
            os.chmod(tmp, FOLDER_MODE)
        except OSError as exc:
            raise _output_error(OSError(exc.errno, exc.strerror, str(dest))) from None
        self.scratch.append(Path(tmp))
        return Path(tmp)

    def folder(self, new: Path, dest: Path) -> None:
        """Swap the complete folder `new` (from `temp_folder`) in for `dest` when applied."""
        self.scratch.remove(new)
        self.folders.append((new, dest))

    def remove(self, path: Path) -> None:
        self.removals.append(path)

    def record(self, path: Path, key: str | None) -> None:
        """Record `key` for the output at `path` once applied (None: forget it)."""
        assert self.manifest is not None, "recording needs a manifest"
        self.keys[self.manifest.rel(path)] = key

    def sync_folder(self, folder: Path, files: Mapping[str, bytes],
                    keep: Callable[[str], bool] = lambda _: False) -> None:
        """Make `folder` hold exactly `files` (relative paths): changed ones staged, the others left alone
        (so their time stamps stay), files no longer made removed unless `keep` says otherwise."""
        for rel, data in sorted(files.items()):
            if not _same_bytes(folder / rel, data):
                self.write(folder / rel, data)
        if folder.is_dir():
            for path in sorted(folder.rglob("*")):
                rel = path.relative_to(folder).as_posix()
                if path.is_file() and rel not in files and not keep(rel) and not path.name.endswith(TMP_SUFFIX):
                    self.remove(path)

    def apply(self) -> None:
        """Put everything staged in place and update the manifest. What it replaces is kept aside
        until the run ends (see `Manifest.transaction`), so a later fault can still put it back; in
        the run's staging copy of build/ nothing needs keeping: a fault drops the whole copy."""
        manifest = self.manifest
        undo = Undo(dict(manifest.keys) if manifest is not None else None, manifest.root if manifest else None)
        try:
            changing = [rel for rel in self.keys if manifest is not None and rel in manifest.keys]
            if manifest is not None and changing:  # forget first: a kill during the renames leaves them unrecorded
                for rel in changing:
                    del manifest.keys[rel]
                manifest.save()
            for tmp, dest in self.files:
                undo.replace(tmp, dest)
            for new, dest in self.folders:
                undo.swap(new, dest)
                if manifest is not None and manifest.swapped is not None:
                    manifest.swapped.add(manifest.rel(dest))
            for path in self.removals:
                undo.remove(path)
            if manifest is not None:
                for rel, key in self.keys.items():
                    if key is None:
                        manifest.keys.pop(rel, None)
                    else:
                        manifest.keys[rel] = key
                manifest.save()
        except OSError as exc:
            undo.rollback(manifest)
            self.abort()
            raise _output_error(exc) from None
        undo.created, self.created = self.created, []
        self.files, self.folders = [], []
        self._drop_scratch()
        if manifest is not None and manifest.journal is not None and manifest.swapped is None:
            manifest.journal.append(undo)
        else:
            undo.discard()

    def _drop_scratch(self) -> None:
        for tmp in self.scratch:
            remove_tree(tmp)
        self.scratch = []

    def abort(self) -> None:
        for tmp, _ in self.files:
            tmp.unlink(missing_ok=True)
        for new, _ in self.folders:
            remove_tree(new)
        self._drop_scratch()
        for folder in reversed(self.created):
            with contextlib.suppress(OSError):
                folder.rmdir()
        self.files, self.folders, self.created = [], [], []


@dataclass
class Undo:
    """What one applied commit replaced, kept aside (under temporary names) so that it can be put back."""

    keys: dict[str, str] | None  # the manifest before
    root: Path | None = None  # build/: empty folders a removal leaves are pruned up to here
    moved: list[tuple[Path | None, Path, bool]] = field(default_factory=list)  # (old copy or None, path, folder?)
    created: list[Path] = field(default_factory=list)

    def _aside(self, path: Path) -> Path:
        return path.with_name(f".{path.name}.{os.getpid()}.old{TMP_SUFFIX}")

    def replace(self, tmp: Path, dest: Path) -> None:
        old = None
        if dest.exists():
            old = self._aside(dest)
            old.unlink(missing_ok=True)
            try:
                os.link(dest, old)  # the old file stays where it is until the new one replaces it
            except OSError:
                os.replace(dest, old)  # no hard links here: a moment without the file
        self.moved.append((old, dest, False))
        os.replace(tmp, dest)

    def mkdir(self, folder: Path) -> None:
        """`folder` and any missing parent, made (and removed again by a rollback)."""
        make_folders(folder, self.created)

    def swap(self, new: Path, dest: Path) -> None:
        """Put the folder `new` at `dest`: by an atomic exchange (or two renames), or, where `dest`
        cannot be renamed (a mount point: EBUSY, a bind mount of the same disk included, which
        os.path.ismount does not see; or `new` cannot reach its file system: EXDEV), by refilling it."""
        try:
            if dest.exists() and _exchange(new, dest):
                self.moved.append((new, dest, True))  # `new` now holds the old folder
                return
            old = None
            if dest.exists():
                old = self._aside(dest)
                remove_tree(old)
                dest.rename(old)
            self.moved.append((old, dest, True))
        except OSError as exc:
            if exc.errno not in _IN_PLACE:
                raise
            self._refill(new, dest)
            return
        new.rename(dest)

    def _refill(self, new: Path, dest: Path) -> None:
        """`dest` is a mount point of its own (build/site on another disk): it cannot be renamed, and
        `new` cannot be moved onto its file system. Its entries are moved aside inside it (kept until
        the run ends, as any replaced output) and `new`'s copied in. Readers may see the site half
        copied for that moment; a fault puts the old entries back."""
        aside = dest / f".{dest.name}.{os.getpid()}.old{TMP_SUFFIX}"
        remove_tree(aside)
        aside.mkdir()
        self.moved.append((aside, dest, True))
        for entry in sorted(dest.iterdir()):
            if entry != aside:
                entry.rename(aside / entry.name)
        _copy_into(new, dest)
        remove_tree(new)

    def remove(self, path: Path) -> None:
        if path.exists():
            old = self._aside(path)
            os.replace(path, old)
            self.moved.append((old, path, False))

    def rollback(self, manifest: Manifest | None) -> None:
        """Put back what was replaced, as well as the manifest; best effort, last change first."""
        for old, path, folder in reversed(self.moved):
            with contextlib.suppress(OSError):
                if old is None:
                    shutil.rmtree(path) if folder else path.unlink(missing_ok=True)
                elif folder:
                    swap_folder(old, path)
                else:
                    os.replace(old, path)
        for made in reversed(self.created):
            with contextlib.suppress(OSError):
                made.rmdir()
        if manifest is not None and self.keys is not None:
            manifest.keys = dict(self.keys)
            with contextlib.suppress(OSError):
                manifest.save()
        self.moved, self.created = [], []

    def discard(self) -> None:
        for old, path, folder in self.moved:
            if old is not None:
                remove_tree(old) if folder else old.unlink(missing_ok=True)
                if not path.exists() and self.root is not None:  # a removal: drop the folders it emptied
                    _prune_empty(path.parent, self.root)
        self.moved = []


def make_folders(folder: Path, created: list[Path]) -> None:
    """`folder` and any missing parent, each noted in `created` (to be removed again on a fault)."""
    missing = []
    while not folder.exists():
        missing.append(folder)
        folder = folder.parent
    for f in reversed(missing):
        f.mkdir()
        created.append(f)


def _copy_into(new: Path, dest: Path) -> None:
    for entry in sorted(new.iterdir()):
        if entry.is_dir() and not entry.is_symlink():
            shutil.copytree(entry, dest / entry.name, symlinks=True)
        else:
            shutil.copy2(entry, dest / entry.name, follow_symlinks=False)


# --- the run's staging copy and its one commit -------------------------------------------------

JOURNAL = ".journal.json"  # in build/ only while a run's changes are being moved in (see `publish`)
# build/'s own bookkeeping, never part of a run's staging copy: the marker, the journal, the cache of
# loaded content (written after the run, outside its transaction).
_NOT_OUTPUTS = frozenset({MARKER, JOURNAL, ".cache"})
# Folders a run only ever replaces whole (a swap, never a write inside): the staging copy reaches the
# current one by a symlink instead of a copy of its thousands of files. The sites (Material's, Zensical's).
WHOLE = frozenset({"site", "site-zensical"})
# Rename steps in the journal: how a file's new bytes come in, or it goes, or a folder is swapped.
_FILE, _GONE, _FOLDER = "file", "gone", "folder"


def stage_copy(out: Path) -> tuple[Path, dict[str, int]] | None:
    """A copy of every output under `out` in a new folder inside it, for a run to write into, made of
    hard links (an unchanged file is the same file in both; copies where links cannot be made, as
    into a site on a mount of its own), with the inode number of each file as placed, by relative
    path (every name in the copy is on build/'s own file system, so a number tells files apart);
    None where `out` cannot take one (read-only, say: the run then writes in place, if at all)."""
    stage = out / f".{out.resolve().name}.{os.getpid()}.next{TMP_SUFFIX}"
    placed: dict[str, int] = {}

    def fill(src: str, dst: str, prefix: str) -> None:
        with os.scandir(src) as entries:
            for entry in entries:
                if entry.name.endswith(TMP_SUFFIX) or (not prefix and entry.name in _NOT_OUTPUTS):
                    continue
                rel, into = prefix + entry.name, os.path.join(dst, entry.name)
                if entry.is_symlink() or rel in WHOLE:
                    # a link reaches what it reached from build/ (a relative one is made relative anew);
                    # `entry.path` already starts with `src` (build/ given as a relative path too)
                    link = os.readlink(entry.path) if entry.is_symlink() else None
                    os.symlink(link if link is not None and os.path.isabs(link) else
                               os.path.relpath(entry.path if link is None else os.path.join(src, link), dst), into)
                    placed[rel] = os.lstat(into).st_ino
                elif entry.is_dir():
                    os.mkdir(into)
                    fill(entry.path, into, rel + "/")
                else:
                    try:
                        os.link(entry.path, into)
                        placed[rel] = entry.inode()
                    except OSError as exc:
                        if exc.errno not in _NO_LINK:
                            raise
                        shutil.copy2(entry.path, into)
                        placed[rel] = os.lstat(into).st_ino

    try:
        stage.mkdir()
    except OSError:
        return None
    try:
        fill(str(out), str(stage), "")
    except OSError:
        remove_tree(stage)
        return None
    return stage, placed


def _inventory(root: Path, skip: set[str]) -> dict[str, int]:
    """Every file (or link) under `root` but temporary ones and the folders in `skip` (relative
    paths): relative path -> inode number."""
    found: dict[str, int] = {}

    def walk(folder: str, prefix: str) -> None:
        with os.scandir(folder) as entries:
            for entry in entries:
                rel = prefix + entry.name
                if entry.name.endswith(TMP_SUFFIX) or rel in skip:
                    continue
                if entry.is_dir(follow_symlinks=False):
                    walk(entry.path, rel + "/")
                else:
                    found[rel] = entry.inode()

    walk(str(root), "")
    return found


def changes(stage: Path, placed: Mapping[str, int], swapped: Iterable[str]) -> list[dict[str, Any]]:
    """The steps that make build/ what its staging copy `stage` holds: each folder swapped in the
    copy, whole; every other file that is not the one `stage_copy` placed there (new or replaced)
    moved in; files the copy no longer has removed; the manifest last."""
    folders = sorted(f for f in set(swapped) if (stage / f).is_dir())
    folders = [f for f in folders if not any(f.startswith(g + "/") for g in folders)]  # the outermost
    skip = set(folders)
    now = _inventory(stage, skip)
    steps: list[dict[str, Any]] = [{"kind": _FOLDER, "path": f, "inode": (stage / f).stat().st_ino}
                                   for f in folders]
    steps += [{"kind": _FILE, "path": p} for p in sorted(now) if placed.get(p) != now[p] and p != MANIFEST]
    steps += [{"kind": _GONE, "path": p} for p in sorted(placed)
              if p not in now and not any(p == f or p.startswith(f + "/") for f in folders)]
    if MANIFEST in now and placed.get(MANIFEST) != now[MANIFEST]:
        steps.append({"kind": _FILE, "path": MANIFEST})
    return steps


def publish(out: Path, stage: Path, placed: Mapping[str, int], swapped: Iterable[str]) -> None:
    """Move what a run changed in its staging copy into `out`. The commit point is the journal
    (build/.journal.json) that lists the steps, written before the first: a kill before it leaves
    the old outputs (the next run drops the copy), a kill after it is finished by the next run
    (`recover`), so build/ is the old build or the new one, whole, for every run of Roadkit. A fault
    part-way (a full disk copying into a site on a mount of its own) puts every step back."""
    steps = changes(stage, placed, swapped)
    if not steps:
        return
    try:
        write_atomic(out / JOURNAL, json.dumps({"version": 3, "stage": stage.name, "steps": steps}).encode())
    except OSError as exc:  # our bookkeeping: the user knows the folder
        raise _output_error(OSError(exc.errno, exc.strerror, str(out))) from None
    undo = Undo(None, out)
    try:
        for step in steps:
            _step(out, stage, step, undo)
    except BaseException as exc:
        undo.rollback(None)
        (out / JOURNAL).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise _output_error(exc) from None
        raise
    (out / JOURNAL).unlink(missing_ok=True)
    with contextlib.suppress(OSError):  # the old copies: temporary files from here on (`clean_stale`)
        undo.discard()


def _step(out: Path, stage: Path, step: dict[str, Any], undo: Undo) -> None:
    path = step["path"]
    dest, new = out / path, stage / path
    if step["kind"] == _GONE:
        undo.remove(dest)
    elif step["kind"] == _FILE:
        undo.mkdir(dest.parent)
        undo.replace(new, dest)
    else:
        undo.mkdir(dest.parent)
        undo.swap(new, dest)


def recover(out: Path) -> bool:
    """Finish what a run killed while moving its changes in had begun, by its journal (with build/
    held): every step not yet made, made. True if there was a journal. A journal that cannot be read
    (or one of an earlier version) makes every output be remade: the manifest is forgotten."""
    path = out / JOURNAL
    try:
        data = json.loads(path.read_text("utf-8"))
        stage, steps = out / data["stage"], list(data["steps"])
        if data.get("version") != 3 or not stage.is_dir():
            raise ValueError("not a journal of this version")
    except FileNotFoundError:
        return False
    except (OSError, ValueError, KeyError, TypeError):
        (out / MANIFEST).unlink(missing_ok=True)
        path.unlink(missing_ok=True)
        return True
    for step in steps:
        with contextlib.suppress(OSError, KeyError, TypeError):
            _redo(out, stage, step)
    path.unlink(missing_ok=True)  # the stage and the steps' aside copies are temporary: `clean_stale`
    return True


def _redo(out: Path, stage: Path, step: dict[str, Any]) -> None:
    """Make one step of a killed run's commit unless it was made: a file still in the stage moves in,
    a file to go goes, a folder that is not yet the stage's own (by its inode) is swapped in."""
    dest, new = out / step["path"], stage / step["path"]
    if step["kind"] == _GONE:
        dest.unlink(missing_ok=True)
        _prune_empty(dest.parent, out)
    elif step["kind"] == _FILE:
        if new.exists() or new.is_symlink():
            dest.parent.mkdir(parents=True, exist_ok=True)
            os.replace(new, dest)
    elif new.is_dir() and not (dest.is_dir() and dest.stat().st_ino == step["inode"]):
        dest.parent.mkdir(parents=True, exist_ok=True)
        try:
            swap_folder(new, dest)
        except OSError as exc:
            if exc.errno not in _IN_PLACE:
                raise
            for entry in sorted(dest.iterdir()):  # a mount of its own: filled again whole
                if not entry.name.endswith(TMP_SUFFIX):
                    remove_tree(entry) if entry.is_dir() and not entry.is_symlink() else entry.unlink()
            _copy_into(new, dest)


def _output_error(exc: OSError) -> OutputError:
    return OutputError(f"cannot write {describe_os_error(exc)}; build/ was left as it was")


def _prune_empty(folder: Path, root: Path) -> None:
    while folder != root and folder.is_relative_to(root):
        try:
            folder.rmdir()
        except OSError:
            return
        folder = folder.parent


# --- swapping folders --------------------------------------------------------------------------

_RENAME_EXCHANGE = 2
# A folder that cannot be renamed or exchanged is rebuilt in place: a mount point (EBUSY), or one
# that the new folder cannot be moved onto (EXDEV).
_IN_PLACE = frozenset({errno.EBUSY, errno.EXDEV})
_AT_FDCWD = -100


def _exchange(a: Path, b: Path) -> bool:
    """Atomically exchange two paths (Linux renameat2); False where the system cannot."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):
        return False
    if renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP):
        return False
    raise OSError(err, os.strerror(err), str(b))


def _refill_back(old: Path, dest: Path) -> None:
    """Undo `Undo._refill`: `dest`'s new entries removed, the ones kept aside in `old` moved back."""
    for entry in sorted(dest.iterdir()):
        if entry != old:
            shutil.rmtree(entry) if entry.is_dir() and not entry.is_symlink() else entry.unlink()
    for entry in sorted(old.iterdir()):
        entry.rename(dest / entry.name)
    old.rmdir()


def swap_folder(new: Path, dest: Path) -> None:
    """Put the folder `new` at `dest`: readers see the old folder or the new one, never neither (where
    the system can exchange two paths atomically; elsewhere two quick renames)."""
    if new.parent == dest:  # putting back what `Undo._refill` moved aside inside `dest`
        _refill_back(new, dest)
        return
    if dest.exists() and _exchange(new, dest):
        shutil.rmtree(new)  # `new` now holds the old folder
        return
    old = dest.with_name(f".{dest.name}.{os.getpid()}.old{TMP_SUFFIX}")
    if dest.exists():
        dest.rename(old)
    new.rename(dest)
    remove_tree(old)


# --- file targets ------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Batch:
    """Targets made together: stale targets that share one Batch (the same object) are made by one call,
    `make(items)` with their `item`s in order, returning their bytes in the same order. For outputs that
    are cheaper made in bulk (the PNGs: one document for many faces). At most `limit` per call, so a big
    batch still spreads over the workers and holds a bounded amount in memory."""

    make: Callable[[Sequence[Any]], Sequence[bytes]]
    limit: int = 64


@dataclass(frozen=True)
class Target:
    path: Path
    key: str
    make: Callable[[], bytes]
    batch: Batch | None = None
    item: Any = None  # what `batch.make` is given for this target


@dataclass
class Report:
    made: list[Path]
    kept: list[Path]
    removed: list[Path]


def realize(targets: Iterable[Target], manifest: Manifest, owned: Iterable[str] = (),
            on_make: Callable[[Target], None] | None = None, jobs: int | None = None,
            prepare: Callable[[], None] | None = None) -> Report:
    """Make every stale target and commit them together; remove outputs this manifest made whose path
    starts with one of `owned` (paths, as strings) but that no target claims any more (a deleted
    component's PDF, say). `prepare` runs once, in this process, before anything is made (and before
    workers fork, so they inherit what it loads), and only when something is stale."""
    report = Report([], [], [])
    claimed: set[str] = set()
    stale: list[Target] = []
    for t in targets:
        claimed.add(manifest.rel(t.path))
        if manifest.fresh(t.path, t.key):
            report.kept.append(t.path)
        else:
            stale.append(t)
    prefixes = tuple(manifest.rel(Path(p)) + ("/" if p.endswith("/") else "") for p in owned)
    if not stale and not any(k.startswith(prefixes) and k not in claimed for k in manifest.keys if prefixes):
        return report
    if stale and prepare is not None:
        prepare()
    with Commit(manifest) as commit:
        for t, data in _make_all(stale, on_make, jobs or available_cores()):
            if not _same_bytes(t.path, data):  # the same bytes again: only the record changes
                commit.write(t.path, data)
            commit.record(t.path, t.key)
            report.made.append(t.path)
        if prefixes:
            for old in sorted(k for k in manifest.keys if k.startswith(prefixes) and k not in claimed):
                commit.remove(manifest.root / old)
                commit.record(manifest.root / old, None)
                report.removed.append(manifest.root / old)
        commit.apply()
    return report


Unit = list[Target]  # what one call makes: a lone target, or part of a batch


def units(stale: Sequence[Target]) -> list[Unit]:
    """The stale targets grouped into calls: each batch's targets together (in chunks of its limit, at
    the place of its first target), every other target alone."""
    out: list[Unit] = []
    open_: dict[int, Unit] = {}
    for t in stale:
        if t.batch is None:
            out.append([t])
            continue
        unit = open_.get(id(t.batch))
        if unit is None or len(unit) >= t.batch.limit:
            unit = open_[id(t.batch)] = []
            out.append(unit)
        unit.append(t)
    return out


def make_unit(unit: Unit) -> list[bytes]:
    first = unit[0]
    if first.batch is None:
        return [first.make()]
    made = list(first.batch.make([t.item for t in unit]))
    if len(made) != len(unit):
        raise RuntimeError(f"a batch made {len(made)} outputs for {len(unit)} targets ({first.path})")
    return made


# Below this many calls the work is too small for workers to win (forking, collecting the bytes). A
# one-card edit (4 PDFs and a PNG) measured 0.94 s in this process and 0.83 s on 2 workers (paired runs,
# 2 cores), now that workers start warm and the PDFs are cheaper; it used to lose on workers.
MIN_PARALLEL_UNITS = 4

_PENDING: list[Unit] = []  # what forked workers make, by index (closures do not pickle; fork copies)


def _make_index(i: int) -> list[bytes]:
    return make_unit(_PENDING[i])


def _make_all(stale: list[Target], on_make: Callable[[Target], None] | None,
              jobs: int) -> Iterator[tuple[Target, bytes]]:
    """Each stale target with its bytes, in order of its call; made on every core (the one worker pool)
    where the work is big enough. Workers only compute bytes: this process alone writes files and the
    manifest."""
    global _PENDING
    work = units(stale)
    if len(work) < MIN_PARALLEL_UNITS:
        jobs = 1
    _PENDING = work
    try:
        for unit, made in zip(work, workers.imap(_make_index, range(len(work)), jobs), strict=True):
            for t, data in zip(unit, made, strict=True):
                if on_make:
                    on_make(t)
                yield t, data
    finally:
        _PENDING = []


# --- one build at a time -----------------------------------------------------------------------


_MARKER_TEXT = b"Roadkit's output folder: everything here is made by `roadkit` and may be replaced or deleted.\n"


class StrayFolder(Exception):
    """The output folder holds files Roadkit did not make: a command-line mistake (exit 2)."""


@contextlib.contextmanager
def build_lock(out: Path, waiting: Callable[[str], None]) -> Iterator[None]:
    """Hold `out` (build/) for this run: a second run waits until the first is done (the lock is the
    kernel's, so it is released even when a run is killed). Once held, what a killed run left behind
    (temporary files and folders, caches of earlier versions) is removed. A folder that is not empty
    and not Roadkit's (no MARKER, no manifest of an earlier version) is refused. A build/ this call
    creates, or marks, is put back as it was if the run leaves nothing else in it."""
    existed = out.exists()
    try:
        out.mkdir(parents=True, exist_ok=True)
        fd = os.open(out, os.O_RDONLY)
    except OSError as exc:
        raise OutputError(f"cannot use the output folder {describe_os_error(exc)}") from None
    marked = False
    try:
        _lock(fd, out, waiting)
        marked = _mark(out)
        recover(out)
        clean_stale(out)
        yield
    finally:
        os.close(fd)
        if marked and [p.name for p in out.iterdir()] == [MARKER]:
            (out / MARKER).unlink(missing_ok=True)
        if not existed:
            with contextlib.suppress(OSError):
                out.rmdir()


def _mark(out: Path) -> bool:
    """Make sure `out` is Roadkit's, marking it if it is new (True: marked now)."""
    if (out / MARKER).is_file():
        return False
    try:
        entries = [p.name for p in out.iterdir()]
    except OSError as exc:
        raise OutputError(f"cannot use the output folder {describe_os_error(exc)}") from None
    if entries and MANIFEST not in entries:
        raise StrayFolder(f"{user_path(out).rstrip('/')}/ holds files Roadkit did not make ({sorted(entries)[0]}, "
                          "...); give --out a new or empty folder (Roadkit replaces and deletes what is in it)")
    with contextlib.suppress(OSError):  # a folder that cannot take it fails at its first real write
        write_atomic(out / MARKER, _MARKER_TEXT)
        return True
    return False


def _lock(fd: int, out: Path, waiting: Callable[[str], None]) -> None:
    try:
        import fcntl  # lazy: POSIX only, no lock where there is none
    except ImportError:  # not POSIX: no lock
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        waiting(f"another roadkit run is writing {os.path.relpath(out)}/; waiting for it to finish")
        fcntl.flock(fd, fcntl.LOCK_EX)


def clean_stale(out: Path) -> list[Path]:
    """Remove temporary files and folders a killed run left in `out`, and the caches of earlier
    versions; only ever called with the lock held, when nothing else can be writing. Returns them."""
    found: list[Path] = [out / name for name in _LEGACY if (out / name).exists()]
    for folder, dirs, files in os.walk(out):
        here = Path(folder)
        for name in list(dirs):
            if name.endswith(TMP_SUFFIX):
                found.append(here / name)
                dirs.remove(name)
            elif here == out and name in WHOLE:
                dirs.remove(name)  # a site is built in a temporary folder and swapped in: nothing of ours
                # inside but what a rebuild on a mount of its own moved aside there
                with contextlib.suppress(OSError):
                    found += [p for p in (out / name).iterdir() if p.name.endswith(TMP_SUFFIX)]
        found += [here / name for name in files if name.endswith(TMP_SUFFIX) or _legacy_temp(name)]
    for path in found:
        if path.is_dir() and not path.is_symlink():
            remove_tree(path)
        else:
            path.unlink(missing_ok=True)
    return found


def _legacy_temp(name: str) -> bool:
    """Earlier versions named their temporary files `.<name>.<random>.tmp`."""
    return name.startswith(".") and name.endswith(".tmp") and name.count(".") >= 3
