"""The one validation pass: every content check, before anything is written.

`roadkit validate` and the first step of every command that writes to build/ run `validate`, so a
content mistake stops a build before it has touched a file. The pass, in order:

1. the content model: YAML safety, schema, ids, numbers, colours, references, images
   (generators/content/loader.py);
2. every worked example against its game engine's specs, each setup built
   (generators/check/runner.py `load_all`);
3. links inside Markdown texts (rules bodies, notes and each part of a ruling, glossary definitions,
   the quick reference's answers, whose file is checked here too, each translation's too, and the
   hand-written site pages):
   each target's scheme checked on the page Markdown makes of the text (http, https, mailto or
   relative: generators/site/safe_links.py), and each relative target resolved exactly as the
   site resolves them (generators/site/links.py), so the site's strict MkDocs build cannot fail on one;
4. icon codes in those texts and in rules summaries naming known icons (the site would print an
   unknown one as it stands), and every ruling saying what we play (the site's rulings page needs it);
5. every printed character present in the embedded fonts (an emoji or a CJK character would print
   as an empty box);
6. the hand-written site pages (site/) readable as UTF-8, as MkDocs reads them, and each game's
   stored whole-game figures (figures.json) of the shape the site reads (generators/play/figures.py);

and, right after each game's model, text that cannot fit its printed box at the minimum size
(generators/pdf/fit.py: it draws each side as the print kit does, so it measures with the renderer's
own rules), then markers larger than their tracks' squares and slots smaller than their pieces
(generators/pdf/sizes.py, on the same drawing). The content loader itself imports no PDF code: the
rules and the engines load without ReportLab.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import re
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass, fields, is_dataclass
from functools import cache, partial
from pathlib import Path

from reportlab.pdfbase.ttfonts import TTFontFile

from generators.build_system import build_cache
from generators.build_system.build_graph import code_version, digest
from generators.build_system.errors import ContentError, KeyPath
from generators.build_system.tree import walk
from generators.check.runner import Work, load_all
from generators.content import inline
from generators.content.loader import Content, game_dirs, load_content, load_game, walk_sides
from generators.content.model import Component, Icons, LoadedGame
from generators.content.yaml_io import MAX_FILE_BYTES, Doc, content_files, display_path, load_yaml
from generators.pdf.fit import check_text_fit
from generators.pdf.fonts import family_files
from generators.pdf.sizes import check_sizes
from generators.play import figures
from generators.play.variants import load_variant
from generators.rules.contract import load_engine
from generators.site import hand_links, house_mark, paths
from generators.site.collect import hand_written
from generators.site.escape import INCOMPLETE_REFERENCE, markdown_body
from generators.site.guide import GENERATED
from generators.site.links import Anchors, GamePages
from generators.site.play import PLAY
from generators.site.projects import GAMES_SCRIPT
from generators.site.quick import FILE, load_quick
from generators.site.rulings import missing_play, parse
from generators.site.safe_links import Judge, column, forbidden, locate, relative


@dataclass(frozen=True)
class Validated:
    content: Content
    work: Work  # the worked examples, loaded, with their initial states built


def validate(root: Path, games: Sequence[str] | None = None, extra_paths: Sequence[Path] = ()) -> Validated:
    """Load and check everything under `root` (or only `games`); the first mistake is a ContentError."""
    content, remembered = _load_content(root, games)
    for game in content.games:
        if game.id not in remembered:  # a remembered game passed this too
            check_text_fit(game, content.icons)
            check_sizes(game, content.icons)
    check_game_ids(content)
    # A remembered game's examples passed with exactly these files and this code: loaded if needed.
    work = load_all(content, games, extra_paths, later=remembered if not extra_paths else ())
    _check_site_pages_once(sorted(folder.name for folder in game_dirs(Path(content.root))))
    for game in content.games:
        if game.id not in remembered:  # a remembered game passed these already
            check_link_schemes(game)
            check_links(game)
            figures.check_file(Path(game.dir))
            check_icon_codes(game, content.icons)
            check_rulings(game)
            check_glyphs(game)
            check_variants(game)
    return Validated(content, work)


# --- the hand-written site pages, checked once per change -----------------------------------------


SITE_PAGES_ENTRY = "site-pages.key"  # the key of the hand-written pages that last passed


def _check_site_pages_once(games: list[str]) -> None:
    """`check_site_pages`, unless the last run that passed validation checked exactly these bytes with
    this code and these game folders (from the same folder: errors name files relative to it). A
    print of one card no longer checks every page of the editors' guide again."""
    if not build_cache.active():  # a command that remembers nothing: no key to make
        check_site_pages(games=games)
        return
    root = paths.SITE_SRC
    key = digest(code_version(), str(root), os.getcwd(), games,
                 tuple(e for p in walk(root) if (e := _entry(p, p.relative_to(root).as_posix())) is not None)
                 if root.is_dir() else ()).encode()
    if build_cache.read(SITE_PAGES_ENTRY) == key:
        return
    check_site_pages(games=games)
    build_cache.stage(SITE_PAGES_ENTRY, key)  # kept only once the whole validation passed


# --- the content model, remembered game by game ---------------------------------------------------


CACHE_PREFIX = "content-"


def _cache_name(game: str) -> str:
    return f"{CACHE_PREFIX}{game}.pickle"


def _load_content(root: Path, games: Sequence[str] | None) -> tuple[Content, frozenset[str]]:
    """`load_content`, with each game (second: their ids) the last run loaded from exactly the same
    bytes (its folder, and whatever under `root` lies outside every game folder: icons, shared art),
    read from the same folder, with the same code, taken as it was: loading is deterministic, so it is
    the same game, and it passed the loader's checks and the links and glyphs checks below (a game is
    remembered only once the whole validation passed). An edit to one game reloads that game alone."""

    if not build_cache.active():
        return load_content(root, games), frozenset()
    keys = _game_keys(root)
    build_cache.keep_only(CACHE_PREFIX, {_cache_name(g) for g in keys})
    remembered: set[str] = set()

    def load(game_dir: Path, icons: Icons, root: Path) -> LoadedGame:
        key = keys.get(game_dir.name, "").encode()
        cached = build_cache.read(_cache_name(game_dir.name))
        if key and cached and cached[:len(key)] == key:
            try:
                game = pickle.loads(cached[len(key):])
            except Exception:  # an entry of another version, or a damaged file: load again
                pass
            else:
                remembered.add(game.id)
                return game
        game = load_game(game_dir, icons, root)
        if key:
            build_cache.stage(_cache_name(game_dir.name), key + pickle.dumps(game, protocol=pickle.HIGHEST_PROTOCOL))
        return game

    return load_content(root, games, load), frozenset(remembered)


def _game_keys(root: Path) -> dict[str, str]:
    """Per game folder: everything loading it reads, each path with its kind and bytes (or link target):
    the folder's own files and what lies outside every game folder, the folder as given and where it
    was given from (error messages name files relative to it), and the code."""

    if not root.is_dir():
        return {}
    games = {p.parent.name for p in root.glob("*/game.yaml")}
    own: dict[str, list[tuple[str, str, object]]] = {g: [] for g in games}
    shared: list[tuple[str, str, object]] = []
    for path in walk(root):  # into linked folders too: a symlinked game folder is keyed by what it holds
        rel = path.relative_to(root).as_posix()
        entry = _entry(path, rel)
        if entry is None:
            continue
        first = rel.split("/", 1)[0]
        (own[first] if first in games else shared).append(entry)
    base = digest(code_version(), str(root), os.getcwd(), tuple(shared))
    return {g: digest(base, g, tuple(entries)) for g, entries in own.items()}


def _entry(path: Path, rel: str) -> tuple[str, str, object] | None:
    """A path's kind and bytes; a link adds where it points (and then what it reaches)."""
    link = (os.readlink(path),) if path.is_symlink() else ()
    if path.is_file():
        try:
            return (rel, "file", (*link, hashlib.sha256(path.read_bytes()).hexdigest()))
        except OSError as exc:
            return (rel, "unreadable", (*link, exc.errno))
    if path.is_dir():
        return (rel, "dir", link)
    return (rel, "link", link) if link else None


# --- links in Markdown texts ---------------------------------------------------------------------


def check_links(game: LoadedGame) -> None:
    """Every relative link in the game's Markdown texts must name one of its rules entries or worked
    examples (an example file's name is its id), written as the site resolves links: `[text](target)`
    on one line. Checked twice: each target the site would resolve, and then every link Markdown makes
    of the text in any shape (a reference definition, a target on the next line, a label holding
    brackets, a character reference or control before a scheme that leaves it relative), read as a
    browser reads it: a relative one the site did not resolve would lead nowhere and fail the build."""

    pages = GamePages(game.id)
    examples = {p.stem: pages.examples for p in sorted((Path(game.dir) / "examples").glob("*.yaml"))}
    anchors = Anchors(game, pages, examples)
    known = ", ".join(sorted(anchors.rules)) or "none"

    def unknown_target(target: str) -> str:
        return (f"the link target {target!r} matches no rules entry or example of this game; "
                f"link an entry as #entry-id or an example as #example-id (entries: {known})")

    unknown: list[str] = []
    made: set[str] = set()  # what the site's resolution made of the text's targets

    def resolve(target: str) -> str | None:
        new = anchors.body_link(target, pages.overview)
        if new is None:
            unknown.append(target)
        else:
            made.add(new)
        return new

    def left_as_written(url: str) -> str | None:
        if url in made or forbidden(url) is not None or not relative(url):
            return None  # resolved, or refused by the scheme check, or http(s)/mailto
        if anchors.body_link(url, pages.overview) is None:
            return unknown_target(url)
        return (f"the link to {url!r} is not written as the site resolves links, [text]({url}) on one line "
                "(a reference definition, a target on another line or a label with brackets leads nowhere)")

    for file, path, written in _markdown_texts(game):
        for text, one_line in _forms(path, written):
            made.clear()
            page = markdown_body(text, resolve)
            page = " ".join(page.split()) if one_line else page
            if (ref := INCOMPLETE_REFERENCE.search(page)) is not None:  # in code or a link target
                bad = re.match(r"&#\w{0,10}", page[ref.start():]).group()  # type: ignore[union-attr]
                line, col = _find(file, path, bad)
                raise ContentError(display_path(Path(file)), line, col, path if path else (),
                                   f"{bad!r} does not complete a character reference (like &#8212; or &#x2014;): "
                                   "end it with ';' or write the '&' as &amp; (the site's pages and a browser would "
                                   "read it differently)")
            if unknown:
                line, col = _find(file, path, f"]({unknown[0]}", skip=2)
                raise ContentError(display_path(Path(file)), line, col, path if path else (),
                                   unknown_target(unknown[0]))
            _check_page(file, path, " ".join(text.split()) if one_line else text, page, left_as_written)


def check_link_schemes(game: LoadedGame) -> None:
    """No Markdown text of the game makes a link (or image, or reference definition) whose target a
    browser could run: checked on what Python-Markdown makes of the text as the site embeds it."""
    for file, path, written in _markdown_texts(game, parts=True):
        for text, one_line in _forms(path, written):
            page = markdown_body(text)
            if one_line:
                text, page = " ".join(text.split()), " ".join(page.split())
            _check_page(file, path, text, page)


def _forms(path: KeyPath, text: str) -> list[tuple[str, bool]]:
    """The forms a text is judged in: as written, and a glossary definition also as the site puts it
    inside its entry, made Markdown and then put on one line (`pages.inline`), where a line break no
    longer ends a reference definition or a link's target (True: that form)."""
    one_line = len(path) == 3 and path[0] == "terms" and path[2] == "definition"
    return [(text, False), (text, True)] if one_line else [(text, False)]


def _check_page(file: str, path: KeyPath, text: str, page: str, judge: Judge = forbidden) -> None:
    """`page` is the Markdown the site embeds for `text` (line for line, leading blank lines cut): the
    first link on it that `judge` refuses (by default, a forbidden scheme), at its place in `file`."""
    found = locate(page, judge)
    if found is None:
        return
    line, _col, url, why = found
    lines = text.split("\n")
    source = lines[min(line - 1 + next((i for i, s in enumerate(lines) if s.strip()), 0), len(lines) - 1)]
    at = source[column(source, url) - 1:][:40]
    at_line, at_col = _find(file, path, at)
    raise ContentError(display_path(Path(file)), at_line, at_col, path, why)


def _markdown_texts(game: LoadedGame, parts: bool = False) -> Iterator[tuple[str, KeyPath, str]]:
    """(file, key path, text) of every text the site renders as Markdown (with `parts`, also each
    part of a ruling, which the site embeds on its own), each translation's included."""
    for entry in game.rules:
        yield entry.file, (), entry.body
    for i, note in enumerate(game.notes.notes):
        yield str(Path(game.dir) / "notes.yaml"), ("notes", i, "text"), note.text
        if parts:
            ruling = parse(note)
            for part in (ruling.book, ruling.play, ruling.other):
                if part:
                    yield str(Path(game.dir) / "notes.yaml"), ("notes", i, "text"), part
    for i, term in enumerate(game.glossary.terms):
        yield str(Path(game.dir) / "glossary.yaml"), ("terms", i, "definition"), term.definition

    for i, card in enumerate(load_quick(game).cards):
        yield str(Path(game.dir) / FILE), ("cards", i, "text"), card.text
    for translation in game.translations:  # its pages resolve links as the English ones do (same ids)
        language = translation.spec.language
        for entry in translation.rules.values():
            yield entry.file, (), entry.body
        for i, term in enumerate(translation.glossary.terms):
            yield translation.glossary_file, ("terms", i, "definition"), term.definition
        for i, card in enumerate(load_quick(game, language).cards):
            yield str(Path(game.dir) / language / FILE), ("cards", i, "text"), card.text


def _find(file: str, path: KeyPath, needle: str, skip: int = 0) -> tuple[int, int]:
    """Line and column of `needle` (plus `skip` characters) in `file`, searching from where `path`
    starts (1:1 if not found)."""
    start = 1
    if path:
        start = load_yaml(Path(file)).where(path)[0]
    try:
        lines = Path(file).read_text("utf-8").splitlines()
    except OSError:
        return start, 1
    for n in range(start, len(lines) + 1):
        col = lines[n - 1].find(needle)
        if col >= 0:
            return n, col + 1 + skip
    return start, 1


# --- icon codes and rulings in the site's texts ---------------------------------------------------


def check_icon_codes(game: LoadedGame, icons: Icons) -> None:
    """A stand-alone `:name:` outside code in a Markdown text or a rules summary must name an icon (faces
    are checked by the loader); the site draws known ones and would print a typo as it stands."""

    listed = ", ".join(sorted(icons.icons)) or "none defined"
    known = frozenset(icons.icons) | {house_mark.CODE}  # the house mark is a mark, not an icon, and is known
    texts = list(_markdown_texts(game))
    texts += [(entry.file, (), entry.meta.summary) for entry in game.rules if entry.meta.summary]
    for file, path, text in texts:
        found: list[str] = []

        def collect(stretch: str, found: list[str] = found) -> str:
            found += [m.group(0) for m in inline.unknown_icons(stretch, known)]
            return stretch

        markdown_body(text, None, collect)
        if found:
            line, col = _find(file, path, found[0])
            raise ContentError(display_path(Path(file)), line, col, path,
                               f"unknown icon {found[0][1:-1]!r} in {found[0]!r}; icons in content/icons.yaml: "
                               f"{listed} (for a literal colon write \\:)")


def check_rulings(game: LoadedGame) -> None:
    """Every ruling says what we play, in a paragraph starting **We play:**."""

    bad = missing_play([parse(n) for n in game.notes.notes])
    if bad is None:
        return
    i = game.notes.notes.index(bad.note)
    raise load_yaml(Path(game.dir) / "notes.yaml").error(
        ("notes", i, "text"), "a ruling says what we play: add a paragraph starting **We play:**")


def check_game_ids(content: Content) -> None:
    """A game's id is its folder under the site: none may be a name the site itself uses there (every
    game folder, also those a `--game` leaves out: the site holds them all)."""
    taken = paths.reserved_names()
    for folder in game_dirs(Path(content.root)):
        if folder.name in taken:
            raise ContentError(display_path(folder), 1, 1, (), f"the game folder's name {folder.name!r} is one the "
                               f"site uses for its own files ({', '.join(sorted(taken))}); rename the folder")


# --- the hand-written site pages -------------------------------------------------------------------

# What MkDocs and its theme read as text from site/ (the rest is copied as bytes).
_SITE_TEXT = frozenset({".md", ".html", ".css", ".js", ".svg", ".yml", ".yaml", ".json", ".txt"})


def check_variants(game: LoadedGame) -> None:
    """Every house variant kept with the game (`variants/*.yaml`, see generators/play/variants.py) applies to its
    content: a face it names exists and its merged facts convert with the engine's spec."""
    files = content_files(Path(game.dir) / "variants", "*.yaml")
    if files and game.engine is not None:
        engine = load_engine(game.engine)
        for path in files:
            load_variant(path, game, engine)


def check_site_pages(site_src: Path | None = None, games: Collection[str] = ()) -> None:
    """Every hand-written text file of the site is UTF-8 (MkDocs would stop on the first that is not);
    no page makes a link with a forbidden scheme, nor a relative link or image that leads nowhere
    (generators/site/hand_links.py; `games`: the game folders, whose pages the site makes)."""

    root = paths.SITE_SRC if site_src is None else site_src  # read when called: tests point it elsewhere
    if not root.is_dir():
        return
    for path in sorted(p for p in root.rglob("*") if p.suffix.lower() in _SITE_TEXT and p.is_file()):
        try:
            raw = path.read_bytes()
        except OSError as exc:
            raise ContentError(display_path(path), 1, 1, (), f"cannot read this file: {exc.strerror or exc}") from None
        if len(raw) > MAX_FILE_BYTES:  # MkDocs would lay out and index all of it
            raise ContentError(display_path(path), 1, 1, (), f"the file is {len(raw) / 1e6:.1f} MB; site pages up to "
                               f"{MAX_FILE_BYTES // 1_000_000} MB are accepted")
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            before = raw[: exc.start]
            line, col = before.count(b"\n") + 1, exc.start - (before.rfind(b"\n") + 1) + 1
            raise ContentError(display_path(path), line, col, (),
                               f"the file is not UTF-8 (byte 0x{raw[exc.start]:02x}); save it as UTF-8") from None
        if path.suffix.lower() == ".md":
            text = raw.decode("utf-8")
            _check_page(str(path), (), text, text)
    hand = set(hand_written(root))
    generated = {"index.md", GAMES_SCRIPT, *GENERATED}
    # The site's own folders and a game's are taken on trust here (their files are made in the build,
    # whose link check sees them and names the hand-written page a dead link is on).
    trusted = {PLAY, "search", *games}

    def exists(path: str) -> bool:
        top, _, rest = path.partition("/")
        if path in hand or path in generated or (top in trusted and rest):
            return True
        if top == "assets":  # the theme's own (Material's folders) besides site/assets
            return rest.split("/")[0] in ("javascripts", "stylesheets", "images")
        return not rest and top.split(".")[0] in paths.HUB_NAMES  # 404.html, sitemap.xml

    hand_links.check_pages(root, exists)


# --- characters the embedded fonts can print -----------------------------------------------------

# Side fields that never reach the paper as text.
_NOT_PRINTED = frozenset({"note", "image", "color", "icon", "provenance", "layout", "style", "id", "arrows"})


@cache
def printable(family: str) -> frozenset[int]:
    """Code points every face (regular and bold) of an embedded font family has a glyph for."""

    maps = [set(TTFontFile(str(path)).charToGlyph) for path in family_files(family)]
    return frozenset(set.intersection(*maps))


def check_glyphs(game: LoadedGame) -> None:
    """Every character of printed text must be in the theme's embedded font."""
    family = game.game.theme.font
    glyphs = printable(family)
    game_yaml = Path(game.dir) / "game.yaml"
    _check_text(game.game.name, glyphs, family, lambda: load_yaml(game_yaml).error(("name",), ""))
    for comp in game.components:
        doc: Doc = game.docs[comp.id]
        for path, value in _printed_strings(comp):
            _check_text(value, glyphs, family, partial(doc.error, path, ""))


def _printed_strings(comp: Component) -> Iterator[tuple[KeyPath, str]]:
    yield ("name",), comp.name
    for path, side in walk_sides(comp):
        yield from _strings(side, path)


def _strings(obj: object, path: KeyPath) -> Iterator[tuple[KeyPath, str]]:
    if is_dataclass(obj):
        for f in fields(obj):
            if f.name in _NOT_PRINTED:
                continue
            value = getattr(obj, f.name)
            if isinstance(value, str):
                yield (*path, f.name), value
            elif isinstance(value, (tuple, list)) or is_dataclass(value):
                yield from _strings(value, (*path, f.name))
    elif isinstance(obj, (tuple, list)):
        for i, item in enumerate(obj):
            if isinstance(item, str):
                yield (*path, i), item
            else:
                yield from _strings(item, (*path, i))


def _check_text(text: str, glyphs: frozenset[int], family: str, where: Callable[[], ContentError]) -> None:
    for m in inline.codes(text):  # icon codes print as drawings, not letters
        text = text.replace(m.group(0), " ")
    for ch in text:
        if ch in " \t\n" or ord(ch) in glyphs:
            continue
        at = where()
        raise ContentError(at.file, at.line, at.column, at.keypath,
                           f"{ch!r} (U+{ord(ch):04X}) is not in the embedded font {family}, so it would print as an "
                           "empty box; use another character, or an :icon: for a symbol")
