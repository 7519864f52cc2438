"""Where every generated page and anchor lives, and relative links between them.

Links are written as MkDocs expects in Markdown (relative to the source `.md` file), so `mkdocs
build --strict` checks every one of them and rewrites them for directory URLs and for the offline
copy alike.
"""

from __future__ import annotations

import posixpath
import re
import unicodedata
from dataclasses import dataclass

from generators.content.model import LoadedGame

SETUP_CHAPTER = "setup"  # the chapter shown as the game's Setup page, ahead of the other rules


def slug(value: str) -> str:
    """A stable anchor for free text (glossary terms): letters and digits of any script, dashes."""
    s = unicodedata.normalize("NFKC", value).casefold()
    s = re.sub(r"[^\w]+", "-", s).strip("-_")
    return s or "term"


def word_key(text: str) -> str:
    """Words without case, punctuation or a plural ending: "Drive-Bys" and "drive by" match."""
    return " ".join(_singular(w) for w in re.findall(r"[^\W_]+", text.casefold()))


def _singular(word: str) -> str:
    if len(word) <= 3 or not word.endswith("s") or word.endswith("ss"):
        return word
    return word[:-2] if word.endswith(("ches", "shes", "sses", "xes")) else word[:-1]


def rel(target: str, from_page: str) -> str:
    """`target` (docs-relative, maybe with #anchor) as a link from the page `from_page`."""
    path, _, anchor = target.partition("#")
    if path == from_page:
        return f"#{anchor}" if anchor else posixpath.basename(path)
    out = posixpath.relpath(path, posixpath.dirname(from_page) or ".")
    return f"{out}#{anchor}" if anchor else out


@dataclass(frozen=True)
class GamePages:
    """The docs-relative path of each page of one game."""

    game: str

    def path(self, name: str) -> str:
        return f"{self.game}/{name}.md"

    @property
    def overview(self) -> str:
        return f"{self.game}/index.md"

    @property
    def components(self) -> str:
        return self.path("components")

    @property
    def turn_summary(self) -> str:
        return self.path("turn-summary")

    @property
    def quick_reference(self) -> str:
        return self.path("quick-reference")

    @property
    def examples(self) -> str:
        """The examples' index; the examples themselves are on pages per chapter (`examples_page`)."""
        return f"{self.game}/examples/index.md"

    def examples_page(self, name: str) -> str:
        return f"{self.game}/examples/{name}.md"

    @property
    def authors(self) -> str:
        return self.path("authors")

    @property
    def authors_written(self) -> str:
        """Every example's setup, rolls and actions as its file gives them (kept off the authors'
        page so no page passes the weight limit)."""
        return f"{self.game}/authors/as-written.md"

    @property
    def notes(self) -> str:
        return self.path("notes")

    @property
    def glossary(self) -> str:
        return self.path("glossary")

    @property
    def odds(self) -> str:
        return self.path("odds")

    def chapter(self, chapter_id: str) -> str:
        return f"{self.game}/rules/{chapter_id}.md"

    def asset(self, *parts: str) -> str:
        return posixpath.join(self.game, *parts)


class Anchors:
    """Rules entry ids, glossary terms, notes and examples of one game -> page#anchor."""

    def __init__(self, game: LoadedGame, pages: GamePages, example_pages: dict[str, str] | None = None):
        self.pages = pages
        self.examples = {ex_id: f"{page}#{ex_id}" for ex_id, page in (example_pages or {}).items()}
        self.rules = {r.id: f"{pages.chapter(r.meta.chapter)}#{r.id}" for r in game.rules}
        self.rule_titles = {r.id: r.meta.title for r in game.rules}
        self.terms: dict[str, str] = {}
        used: set[str] = set()
        for term in game.glossary.terms:
            base = slug(term.term)
            anchor, n = base, 2
            while anchor in used:
                anchor, n = f"{base}-{n}", n + 1
            used.add(anchor)
            self.terms[term.term] = anchor
        self.notes = {n.id: f"{pages.notes}#{n.id}" for n in game.notes.notes}

    def rule(self, rule_id: str, from_page: str) -> str:
        return rel(self.rules[rule_id], from_page)

    def term(self, term: str, from_page: str) -> str:
        return rel(f"{self.pages.glossary}#{self.terms[term]}", from_page)

    def example(self, example_id: str, from_page: str) -> str:
        return rel(self.examples[example_id], from_page)

    def body_link(self, target: str, from_page: str) -> str | None:
        """A link target written in a rules body (`#ramming`, `ramming`, `ramming.md#x`; `#note-id`
        for a ruling) resolved to the page it lives on; None leaves it as written."""
        path, _, anchor = target.partition("#")
        name = path[:-3] if path.endswith(".md") else path
        if not name and anchor in self.rules:
            return self.rule(anchor, from_page)
        if not name and anchor in self.examples:
            return self.example(anchor, from_page)
        if not name and anchor in self.notes:  # a ruling (quick references mark theirs as ours)
            return rel(self.notes[anchor], from_page)
        if name in self.rules and "/" not in name:
            if not anchor:
                return self.rule(name, from_page)
            page = self.rules[name].partition("#")[0]
            # Only an anchor the site is sure to set there (an entry on the same page): any other
            # would lead nowhere and fail the build's link check.
            if self.rules.get(anchor, "").partition("#")[0] == page:
                return rel(f"{page}#{anchor}", from_page)
        return None
