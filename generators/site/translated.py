"""A game's rules reference in another language (game.yaml `translations:`): the rules pages and the
glossary, beside the English ones at <game>/<language>/, with the same rule numbers and anchors.

The translated site is the English GameSite with the translation's entries, glossary and chapter
titles swapped in and its own page paths, so that links between entries (`#entry-id`) resolve to the
pages of the same language. Examples, rulings and odds stay on the English pages, one link away.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from generators.content.model import Chapter, LoadedGame, LoadedTranslation, PageWords
from generators.site.context import GameSite
from generators.site.gloss import glosses
from generators.site.links import Anchors, GamePages


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
    translated = replace(site, game=other, pages=pages, anchors=Anchors(other, pages),
                         glosses=tuple(glosses(translation.glossary.terms)))
    return TranslatedSite(site, translated, translation)
