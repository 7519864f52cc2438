"""A game's rules reference in another language (game.yaml `translations:`): the rules pages and the
glossary, beside the English ones at <game>/<language>/, with the same rule numbers and anchors.

The translated site is the English GameSite with the translation's entries, glossary and chapter
titles swapped in and its own page paths, so that links between entries (`#entry-id`) resolve to the
pages of the same language. Examples, rulings and odds stay on the English pages, one link away.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from generators.build_system.errors import ContentError
from generators.content.model import Chapter, LoadedGame, LoadedTranslation, PageWords, RuleEntry
from generators.site.context import GameSite
from generators.site.inflect import forms, key_words
from generators.site.links import Anchors, GamePages
from generators.site.quick import FILE, load_quick
from generators.site.tooltips import glosses


@dataclass(frozen=True)
class TranslatedSite:
    english: GameSite
    site: GameSite  # the translated game, with the translation's pages and anchors
    translation: LoadedTranslation

    @property
    def language(self) -> str:
        return self.translation.spec.language

    @property
    def words(self) -> PageWords:
        return self.translation.spec.words

    @property
    def quick_file(self) -> str:
        return str(Path(self.english.game.dir) / self.language / FILE)

    def search_forms(self, entry: RuleEntry) -> str:
        """The other inflected forms of the entry's key words, for the search index alone."""
        terms = [n for t in self.translation.glossary.terms if t.rule == entry.id for n in (t.term, *t.aliases)]
        return " ".join(forms(key_words(entry.meta.title, terms), self.language))

    @property
    def index(self) -> str:
        return self.site.pages.overview

    @property
    def glossary(self) -> str:
        return self.site.pages.glossary


def translated_sites(site: GameSite) -> list[TranslatedSite]:
    return [_translated(site, t) for t in site.game.translations]


def _translated(site: GameSite, translation: LoadedTranslation) -> TranslatedSite:
    spec = translation.spec
    game: LoadedGame = site.game
    chapters = tuple(Chapter(c.id, spec.chapters[c.id]) for c in game.game.chapters)
    rules = tuple(translation.rules[r.id] for r in game.rules)
    other = replace(game, game=replace(game.game, chapters=chapters), rules=rules, glossary=translation.glossary)
    pages = GamePages(f"{game.id}/{spec.language}")
    anchors = Anchors(other, pages)
    anchors.notes = site.anchors.notes  # rulings stay on the English page ("our ruling" links there)
    quick = load_quick(game, spec.language)
    if site.quick.cards and not quick.cards:
        raise ContentError(str(Path(game.dir) / "game.yaml"), 1, 1, ("translations",), f"no {spec.language}/{FILE}: "
                           f"the game has a quick reference, and a translation has its own")
    translated = replace(site, game=other, pages=pages, anchors=anchors, quick=quick,
                         glosses=tuple(glosses(translation.glossary.terms)))
    return TranslatedSite(site, translated, translation)
