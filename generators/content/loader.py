"""Load a content folder into the model, then cross-check what one file cannot check alone:
unique ids, references between files (icons, colours, chapters, related entries, glossary),
and artwork that must stay inside the content folder and decode as an image of bounded size."""

from __future__ import annotations

import hashlib
import os
import re
import warnings
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, fields, is_dataclass, replace
from pathlib import Path
from typing import Any

from generators.build_system.errors import ContentError, KeyPath
from generators.content import inline
from generators.content.model import (
    HEX,
    ID,
    Component,
    Game,
    GameTests,
    Glossary,
    Icons,
    LoadedGame,
    LoadedTranslation,
    Notes,
    RuleEntry,
    RuleMeta,
    RuleText,
    Side,
)
from generators.content.schema import convert
from generators.content.svg_path import parse_path
from generators.content.yaml_io import Doc, content_files, display_path, load_yaml, parse_yaml, read_text, require_file

ICON_RE = re.compile(r"(?<!\\):(" + inline.NAME + r"):")  # an icon code, not after an escaping backslash
# Artwork beyond these is not a card picture (and would make rendering crawl): refuse it up front.
# A rules entry restates a rulebook section or two (the longest is ~4,000 characters).
MAX_RULE_BODY = 50_000
MAX_IMAGE_BYTES = 20_000_000
MAX_IMAGE_PIXELS = 40_000_000
_FRONT_MATTER = re.compile(r"\A---[ \t]*\n(.*?\n)---[ \t]*\n?", re.S)


@dataclass(frozen=True)
class Content:
    root: str
    games: tuple[LoadedGame, ...]
    icons: Icons

    def game(self, game_id: str) -> LoadedGame:
        for g in self.games:
            if g.id == game_id:
                return g
        raise KeyError(game_id)


MAX_GAME_ID = 64  # a game's folder name is its id: in every URL of its site section and every output name


def game_dirs(root: Path) -> list[Path]:
    """The game folders of `root`. Every folder there is a game (a folder whose name is an id,
    holding a game.yaml file) or a located error: a game passed over in silence would lose its site
    section and keep stale PDFs, and a stray folder would load as a game."""
    dirs = []
    try:
        entries = sorted(root.iterdir())
    except OSError as exc:
        raise ContentError(display_path(root), 1, 1, (),
                           f"cannot read the content folder: {exc.strerror or exc}") from None
    for path in entries:
        if not path.is_dir():
            if path.is_symlink() and not path.exists():
                raise ContentError(display_path(path), 1, 1, (), "a broken link in the content folder; remove it "
                                   "or point it at a game folder")
            continue
        name = path.name
        if not re.fullmatch(ID, name) or len(name) > MAX_GAME_ID:
            raise ContentError(display_path(path), 1, 1, (), f"every folder here is a game and its name is the game's "
                               f"id: {name!r} is not one (lower-case letters, digits and dashes, at most "
                               f"{MAX_GAME_ID}); rename or move the folder")
        game_yaml = path / "game.yaml"
        if not game_yaml.exists() and not game_yaml.is_symlink():
            near = sorted(p.name for p in path.iterdir() if p.name.lower().startswith("game.")) \
                if os.access(path, os.R_OK | os.X_OK) else []
            hint = f" (found {', '.join(near)}: it must be named game.yaml)" if near else ""
            raise ContentError(display_path(path), 1, 1, (), f"every folder here is a game, and this one has no "
                               f"game.yaml{hint}; add it, or move the folder out of the content folder")
        require_file(game_yaml)  # a file, not a folder or a broken link
        dirs.append(path)
    return dirs


def load_content(root: Path, only: Iterable[str] | None = None,
                 load: Callable[[Path, Icons, Path], LoadedGame] | None = None) -> Content:
    """Load and cross-check `root` (normally content/); `only` limits which games. `load` loads one
    game (default `load_game`; validation passes one that remembers games whose files are unchanged)."""
    if root.is_file():
        raise ContentError(display_path(root), 1, 1, (), "--content names a file; give the content folder "
                           "(the one holding icons.yaml and a folder per game)")
    if not root.is_dir():
        raise ContentError(display_path(root), 1, 1, (), "the content folder does not exist")
    icons = _load_icons(root)
    wanted = set(only) if only else None
    dirs = game_dirs(root)
    if not dirs:
        raise ContentError(display_path(root), 1, 1, (), "no games here: a game is a folder holding a game.yaml "
                           "(is this the content folder?)")
    if wanted:
        unknown = wanted - {d.name for d in dirs}
        if unknown:
            known = ", ".join(d.name for d in dirs)
            raise ContentError(display_path(root), 1, 1, (), f"no game {sorted(unknown)[0]!r}; the games are: {known}")
        dirs = [d for d in dirs if d.name in wanted]
    games = tuple((load or load_game)(d, icons, root) for d in dirs)
    _unique_codes(games)
    return Content(str(root), games, icons)


def _unique_codes(games: Iterable[LoadedGame]) -> None:
    """Each game's rule-number code is its own: the second game.yaml to take one is the mistake."""
    seen: dict[str, str] = {}
    for game in games:
        other = seen.setdefault(game.game.code, game.id)
        if other != game.id:
            doc = load_yaml(Path(game.dir) / "game.yaml")
            raise doc.error(("code",), f"code {game.game.code!r} is already {other}'s: each game's rule numbers "
                                       "begin with a code of its own")


def _load_icons(root: Path) -> Icons:
    path = root / "icons.yaml"
    if not path.exists() and not path.is_symlink():
        return Icons()
    doc = load_yaml(path)
    icons = convert(doc, Icons)
    for name, icon in icons.icons.items():
        if not re.fullmatch(ID, name):
            raise doc.error(("icons", name), "icon names are lower-case letters, digits and dashes")
        try:
            parse_path(icon.path)
        except ValueError as exc:
            raise doc.error(("icons", name, "path"), f"bad SVG path data: {exc}") from None
    return icons


def _hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def load_game(game_dir: Path, icons: Icons, root: Path) -> LoadedGame:
    files: dict[str, str] = {}
    game_doc = load_yaml(game_dir / "game.yaml")
    files[game_doc.file] = _hash(game_dir / "game.yaml")
    game = convert(game_doc, Game)
    _unique(game_doc, (c.id for c in game.chapters), lambda i: ("chapters", i, "id"), "chapter id")

    components: list[Component] = []
    component_docs: list[Doc] = []
    seen: dict[str, Doc] = {}
    for path in content_files(game_dir / "components", "*.yaml"):
        doc = load_yaml(path)
        files[doc.file] = _hash(path)
        comp = convert(doc, Component)
        if comp.id in seen:
            raise doc.error(("id",), f"duplicate component id {comp.id!r}; it is already used in {seen[comp.id].file}")
        seen[comp.id] = doc
        _unique(doc, (f.id for f in comp.faces), lambda i: ("faces", i, "id"), "face id")
        components.append(comp)
        component_docs.append(doc)

    rules, rule_docs = _load_rules(game_dir, files)
    glossary, glossary_doc = _load_optional(game_dir / "glossary.yaml", Glossary, files)
    notes, notes_doc = _load_optional(game_dir / "notes.yaml", Notes, files)
    tests, tests_doc = _load_optional(game_dir / "tests.yaml", GameTests, files)

    refs = _Refs(game, icons, {r.id for r in rules}, {c.id for c in components})
    for comp, doc in zip(components, component_docs, strict=True):
        refs.check_component(doc, comp, game_dir, root)
    for entry, doc in zip(rules, rule_docs, strict=True):
        refs.check_rule(doc, entry)
    if glossary_doc is not None:
        refs.check_glossary(glossary_doc, glossary)
    if notes_doc is not None:
        refs.check_notes(notes_doc, notes)

    if tests_doc is not None:
        _check_tests(tests_doc, tests, {r.id for r in rules}, {n.id for n in notes.notes})
    translations = _load_translations(game_dir, game_doc, game, rules, refs, files)
    components_unsorted = list(components)
    components.sort(key=lambda c: (c.order, c.id))
    rules.sort(key=lambda r: (r.meta.order, r.id))
    loaded = LoadedGame(
        id=game_dir.name,
        dir=str(game_dir),
        game=game,
        components=tuple(components),
        rules=tuple(rules),
        glossary=glossary,
        notes=notes,
        files=files,
        docs={c.id: d for c, d in zip(components_unsorted, component_docs, strict=True)},
        translations=translations,
        tests=tests,
    )
    return loaded


def _check_tests(doc: Doc, tests: GameTests, rule_ids: set[str], note_ids: set[str]) -> None:
    """tests.yaml names the game's own rules entries and rulings."""
    for i, q in enumerate(tests.questions):
        if q.rule not in rule_ids:
            raise doc.error(("questions", i, "rule"), f"expected a rules entry id of this game, got {q.rule!r}")
    for i, item in enumerate(tests.quick.checklist if tests.quick else ()):
        if item.ruling is not None and item.ruling not in note_ids:
            raise doc.error(("quick", "checklist", i, "ruling"),
                            f"expected a ruling id of this game's notes.yaml, got {item.ruling!r}")


def _load_optional(path: Path, cls: type, files: dict[str, str]) -> tuple[Any, Doc | None]:
    if not path.exists() and not path.is_symlink():
        return cls(), None
    doc = load_yaml(path)
    files[doc.file] = _hash(path)
    return convert(doc, cls), doc


def _unique(doc: Doc, keys: Iterable[str], where: Callable[[int], KeyPath], what: str) -> None:
    """Refuse the second occurrence of a key, at its own position."""
    seen: set[str] = set()
    for i, key in enumerate(keys):
        if key in seen:
            raise doc.error(where(i), f"duplicate {what} {key!r}")
        seen.add(key)


def split_front_matter(text: str, name: str) -> tuple[Doc, str, int]:
    """Split a Markdown file into its YAML front matter (as a Doc with true line numbers),
    its body, and the line number where the body starts."""
    match = _FRONT_MATTER.match(text)
    if not match:
        raise ContentError(name, 1, 1, (), "expected YAML front matter between '---' lines at the top of the file")
    doc = parse_yaml("\n" + match.group(1), name)  # the leading newline keeps line numbers true
    body_line = text[: match.end()].count("\n") + 1
    return doc, text[match.end():], body_line


def _entry_file(name: str, text: str, files: dict[str, str]) -> tuple[Doc, str]:
    """A rules entry file (English or a translation), recorded: its front matter and its body."""
    files[name] = hashlib.sha256(text.encode()).hexdigest()
    doc, body, body_line = split_front_matter(text, name)
    if len(body) > MAX_RULE_BODY:
        raise ContentError(name, body_line, 1, (), f"the entry's text is {len(body):,} characters; an entry "
                           f"holds at most {MAX_RULE_BODY:,} (split it into several entries)")
    return doc, body


def _load_rules(game_dir: Path, files: dict[str, str]) -> tuple[list[RuleEntry], list[Doc]]:
    entries: list[RuleEntry] = []
    docs: list[Doc] = []
    for path in content_files(game_dir / "rules", "*.md"):
        name, text = read_text(path)
        if not re.fullmatch(ID, path.stem):
            raise ContentError(name, 1, 1, (), f"rules file names are ids ({ID}); rename {path.name}")
        doc, body = _entry_file(name, text, files)
        meta = convert(doc, RuleMeta)
        entries.append(RuleEntry(path.stem, meta, body.strip() + "\n", name))
        docs.append(doc)
    return entries, docs


def _load_translations(game_dir: Path, game_doc: Doc, game: Game, rules: list[RuleEntry], refs: _Refs,
                       files: dict[str, str]) -> tuple[LoadedTranslation, ...]:
    """Each translation of game.yaml, complete: a chapter title and an entry for every English one
    (so that no page of the other language is half English), nothing that the English lacks."""
    out = []
    english = {r.id: r for r in rules}
    _unique(game_doc, (t.language for t in game.translations), lambda i: ("translations", i, "language"),
            "translation language")
    for i, spec in enumerate(game.translations):
        where = ("translations", i)
        for chapter in game.chapters:
            if chapter.id not in spec.chapters:
                raise game_doc.error((*where, "chapters"), f"no {spec.language} title for chapter {chapter.id!r}")
        for chapter_id in spec.chapters:
            if chapter_id not in refs.chapters:
                raise game_doc.error((*where, "chapters", chapter_id), f"unknown chapter {chapter_id!r}; "
                                     f"game.yaml chapters: {', '.join(sorted(refs.chapters))}")
        folder = game_dir / spec.language
        texts: dict[str, RuleEntry] = {}
        for path in content_files(folder / "rules", "*.md"):
            name, text = read_text(path)
            if path.stem not in english:
                raise ContentError(name, 1, 1, (), f"no English rules entry {path.stem!r} to translate; the "
                                   f"file names are those of rules/ ({game_dir.name}/rules/<id>.md)")
            doc, body = _entry_file(name, text, files)
            meta = convert(doc, RuleText)
            base = english[path.stem].meta
            texts[path.stem] = RuleEntry(path.stem, replace(base, title=meta.title, summary=meta.summary),
                                         body.strip() + "\n", name)
        missing = [r.id for r in rules if r.id not in texts]
        if missing:
            raise game_doc.error((*where, "language"), f"the {spec.language} translation lacks {len(missing)} "
                                 f"rules entries, first {missing[0]!r}: add {spec.language}/rules/{missing[0]}.md")
        glossary, glossary_doc = _load_optional(folder / "glossary.yaml", Glossary, files)
        if glossary_doc is None:
            raise game_doc.error((*where, "language"), f"no {spec.language}/glossary.yaml: a translation has "
                                 "its glossary")
        refs.check_glossary(glossary_doc, glossary)
        out.append(LoadedTranslation(spec, texts, glossary, glossary_doc.file))
    return tuple(out)


def walk_sides(comp: Component) -> Iterator[tuple[KeyPath, Side]]:
    """Every side of a component with its key path (for located errors), the proxies kit's stand-ins
    included: every variant's sides pass the same checks."""
    if comp.back is not None:
        yield ("back",), comp.back
    for i, face in enumerate(comp.faces):
        yield ("faces", i, "front"), face.front
        if face.back is not None:
            yield ("faces", i, "back"), face.back
    if comp.proxy is not None:
        yield ("proxy", "front"), comp.proxy.front
        if comp.proxy.back is not None:
            yield ("proxy", "back"), comp.proxy.back


TEXT_FIELDS = frozenset({"text", "label", "caption", "title", "subtitle", "corner", "corner_left"})
CHECKED_FIELDS = TEXT_FIELDS | {"icon", "color"}  # icon names, colour names, texts with inline :icons:


def string_fields(obj: Any, names: frozenset[str], path: KeyPath = ()) -> Iterator[tuple[KeyPath, str]]:
    """Every string field named in `names` inside a tree of model dataclasses, with its key path."""
    if is_dataclass(obj):
        for f in fields(obj):
            value = getattr(obj, f.name)
            if isinstance(value, str):
                if f.name in names:
                    yield (*path, f.name), value
            elif value is not None and not isinstance(value, (int, float, bool)):
                yield from string_fields(value, names, (*path, f.name))
    elif isinstance(obj, tuple):
        for i, item in enumerate(obj):
            yield from string_fields(item, names, (*path, i))


class _Refs:
    """Reference checks across files, each reported at the referring value."""

    def __init__(self, game: Game, icons: Icons, rule_ids: set[str],
                 component_ids: frozenset[str] | set[str] = frozenset()):
        self.game = game
        self.icons = icons
        self.rule_ids = rule_ids
        self.component_ids = component_ids
        self.chapters = {c.id for c in game.chapters}

    def _icon(self, doc: Doc, path: KeyPath, name: str) -> None:
        if name not in self.icons.icons:
            known = ", ".join(sorted(self.icons.icons)) or "none defined"
            raise doc.error(path, f"unknown icon {name!r}; icons in content/icons.yaml: {known}")

    def _rule(self, doc: Doc, path: KeyPath, rule_id: str) -> None:
        if rule_id not in self.rule_ids:
            raise doc.error(path, f"no rules entry {rule_id!r}; entries are the files in rules/ (without .md)")

    def check_component(self, doc: Doc, comp: Component, game_dir: Path, root: Path) -> None:
        for path, value in string_fields(comp, CHECKED_FIELDS):
            kind = path[-1]
            if kind == "icon":
                self._icon(doc, path, value)
            elif kind == "color":
                if value.startswith("#") and not re.fullmatch(HEX, value):
                    raise doc.error(path, f"bad hex colour {value!r}; write six hex digits, like '#1f6feb'")
                if not value.startswith("#") and value not in self.game.theme.colors:
                    known = ", ".join(sorted(self.game.theme.colors))
                    raise doc.error(path, f"unknown colour {value!r}; use a hex colour or one of the theme's: {known}")
            else:
                for m in inline.unknown_icons(value, frozenset(self.icons.icons)):
                    known = ", ".join(sorted(self.icons.icons)) or "none defined"
                    raise doc.error(path, f"unknown icon {m.group(1)!r} in {m.group(0)!r}; icons in "
                                    f"content/icons.yaml: {known} (for a literal colon write \\:)")
        for path, side in walk_sides(comp):
            if side.image is not None:
                self._image(doc, (*path, "image"), side.image, game_dir, root)

    def _image(self, doc: Doc, path: KeyPath, image: str, game_dir: Path, root: Path) -> None:
        target = (game_dir / image).resolve()
        if not target.is_relative_to(root.resolve()):
            raise doc.error(path, f"the image path {image!r} leaves the content folder; keep artwork inside content/")
        if target.suffix.lower() not in (".png", ".jpg", ".jpeg"):
            raise doc.error(path, f"expected a .png or .jpg image, got {image!r}")
        if not target.is_file():
            raise doc.error(path, f"the image {image!r} does not exist (looked for {display_path(target)})")
        problem = image_problem(target)
        if problem:
            raise doc.error(path, f"the image {image!r} {problem}")

    def check_rule(self, doc: Doc, entry: RuleEntry) -> None:
        meta: RuleMeta = entry.meta
        if meta.chapter not in self.chapters:
            known = ", ".join(sorted(self.chapters)) or "none"
            raise doc.error(("chapter",), f"unknown chapter {meta.chapter!r}; game.yaml chapters: {known}")
        for i, rel in enumerate(meta.related):
            self._rule(doc, ("related", i), rel)
        for i, comp in enumerate(meta.gallery):
            if comp not in self.component_ids:
                known = ", ".join(sorted(self.component_ids)) or "none"
                raise doc.error(("gallery", i), f"no component {comp!r} in this game; components: {known}")

    def check_glossary(self, doc: Doc, glossary: Glossary) -> None:
        _unique(doc, (t.term.lower() for t in glossary.terms), lambda i: ("terms", i, "term"), "glossary term")
        for i, term in enumerate(glossary.terms):
            if term.rule is not None:
                self._rule(doc, ("terms", i, "rule"), term.rule)

    def check_notes(self, doc: Doc, notes: Notes) -> None:
        _unique(doc, (n.id for n in notes.notes), lambda i: ("notes", i, "id"), "note id")
        for i, note in enumerate(notes.notes):
            if note.rule is not None:
                self._rule(doc, ("notes", i, "rule"), note.rule)


_IMAGE_PROBLEMS: dict[tuple[str, int, int], str | None] = {}


def image_problem(path: Path) -> str | None:
    """Why `path` cannot be printed as artwork (not a PNG or JPEG Pillow decodes in full, too large), or
    None. Decoded here, once per file version, so that a bad image never reaches a renderer."""
    try:
        st = path.stat()
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"
    key = (str(path), st.st_size, st.st_mtime_ns)
    if key not in _IMAGE_PROBLEMS:
        _IMAGE_PROBLEMS[key] = _decode_image(path, st.st_size)
    return _IMAGE_PROBLEMS[key]


def _decode_image(path: Path, size: int) -> str | None:
    from PIL import Image  # lazy: only content with artwork needs Pillow; the rules load without it

    if size > MAX_IMAGE_BYTES:
        return f"is {size / 1e6:.0f} MB; artwork up to {MAX_IMAGE_BYTES // 1_000_000} MB is accepted"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(path) as img:
                if img.format not in ("PNG", "JPEG"):
                    return f"is {img.format or 'not a known'} image data, not PNG or JPEG"
                w, h = img.size
                if w * h > MAX_IMAGE_PIXELS:
                    return f"is {w}x{h} pixels; artwork up to {MAX_IMAGE_PIXELS // 1_000_000} megapixels is accepted"
                img.load()
    except Exception as exc:  # Pillow reports bad data with many exception types
        return f"is not a readable PNG or JPEG image ({type(exc).__name__}: {exc})"
    return None
