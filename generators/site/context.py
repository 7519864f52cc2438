"""Everything the page templates need about one game, gathered once: its pages and anchors, its
examples joined with the check report, its odds tables, its staged images and downloads."""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from generators.content.loader import Content
from generators.content.model import Component, LoadedGame, RuleEntry, RuleNote, Term
from generators.site.assets import GameAssets, game_assets
from generators.site.escape import abbr_title
from generators.site.examples import REPORT_DOCS_PATH, CheckReport, EngineNote, Example, game_examples
from generators.site.links import SETUP_CHAPTER, Anchors, GamePages
from generators.site.odds import OddsTable, game_odds


@dataclass(frozen=True)
class GameSite:
    game: LoadedGame
    pages: GamePages
    anchors: Anchors
    examples: tuple[Example, ...]
    diagrams: dict[str, tuple[str | None, str | None]]  # example id -> docs paths of before/after SVGs
    step_diagrams: dict[str, tuple[str, ...]]  # example id -> docs paths of the drawings between actions
    odds: tuple[OddsTable, ...]
    assets: GameAssets
    terms_by_rule: dict[str, tuple[Term, ...]]
    notes_by_rule: dict[str, tuple[RuleNote, ...]]
    examples_by_rule: dict[str, tuple[Example, ...]]
    odds_by_rule: dict[str, tuple[OddsTable, ...]]
    abbreviations: tuple[tuple[str, str], ...]  # (spelling, its abbr definition line)
    engine_notes: tuple[EngineNote, ...]
    engine_notes_by_rule: dict[str, tuple[EngineNote, ...]]
    report: str | None  # docs path of the check's report.json, when the check has run

    @property
    def id(self) -> str:
        return self.game.id

    def source(self, name: str) -> str:
        """A file of the game's folder, for located errors."""
        return str(Path(self.game.dir) / name)

    def component(self, component_id: str) -> Component:
        return next(c for c in self.game.components if c.id == component_id)

    def chapter_entries(self, chapter_id: str) -> list[RuleEntry]:
        return [r for r in self.game.rules if r.meta.chapter == chapter_id]

    @property
    def setup_chapter(self) -> str | None:
        ids = [c.id for c in self.game.game.chapters]
        return SETUP_CHAPTER if SETUP_CHAPTER in ids else None

    def examples_by_chapter(self) -> list[tuple[str, list[Example]]]:
        """Examples grouped under the chapter of the rule they illustrate, in chapter order."""
        chapter_of = {r.id: r.meta.chapter for r in self.game.rules}
        groups: list[tuple[str, list[Example]]] = []
        for c in self.game.game.chapters:
            found = [ex for ex in self.examples if chapter_of.get(ex.rule or "") == c.id]
            if found:
                groups.append((c.title, found))
        other = [ex for ex in self.examples if (ex.rule or "") not in chapter_of]
        if other:
            groups.append(("Other examples", other))
        return groups

    def odds_by_page(self) -> list[tuple[str | None, tuple[OddsTable, ...]]]:
        """Odds tables under the rule they belong to, in rules order; the others last."""
        groups: list[tuple[str | None, tuple[OddsTable, ...]]] = [
            (r.id, self.odds_by_rule[r.id]) for r in self.game.rules if r.id in self.odds_by_rule]
        rest = tuple(t for t in self.odds if t.rule not in self.odds_by_rule)
        return groups + ([(None, rest)] if rest else [])

    def status_counts(self) -> dict[str, int]:
        counts: dict[str, int] = defaultdict(int)
        for ex in self.examples:
            counts[ex.status] += 1
        return dict(counts)


def game_site(content: Content, game: LoadedGame, out: Path, report: CheckReport) -> GameSite:
    pages = GamePages(game.id)
    anchors = Anchors(game, pages)
    examples = tuple(game_examples(game, out, report))
    diagrams: dict[str, tuple[str | None, str | None]] = {}
    step_diagrams: dict[str, tuple[str, ...]] = {}
    copies = {}
    for ex in examples:
        steps = []
        for i, src in enumerate(ex.steps, 1):
            dest = pages.asset("diagrams", f"{ex.id}-step-{i}.svg")
            copies[dest] = src
            steps.append(dest)
        step_diagrams[ex.id] = tuple(steps)
        paths: list[str | None] = []
        for which, src in (("before", ex.before), ("after", ex.after)):
            if src is None:
                paths.append(None)
                continue
            dest = pages.asset("diagrams", f"{ex.id}-{which}.svg")
            copies[dest] = src
            paths.append(dest)
        diagrams[ex.id] = (paths[0], paths[1])
    assets = game_assets(content, game, out)
    assets.copies.update(copies)
    odds = tuple(game_odds(game, report.odds.get(game.id, [])))
    rule_ids = {r.id for r in game.rules}
    return GameSite(
        game=game,
        pages=pages,
        anchors=anchors,
        examples=examples,
        diagrams=diagrams,
        step_diagrams=step_diagrams,
        odds=odds,
        assets=assets,
        terms_by_rule=_terms_by_rule(game),
        notes_by_rule=_group(game.notes.notes, lambda n: n.rule),
        examples_by_rule=_group(examples, lambda e: e.rule if e.rule in rule_ids else None),
        odds_by_rule=_group(odds, lambda t: t.rule if t.rule in rule_ids else None),
        abbreviations=_abbreviations(game.glossary.terms),
        engine_notes=report.notes.get(game.id, ()),
        engine_notes_by_rule=_group(report.notes.get(game.id, ()), lambda n: n.rule if n.rule in rule_ids else None),
        report=REPORT_DOCS_PATH if (out / "check" / "report.json").is_file() else None,
    )


def _group(items, key) -> dict:
    out: dict = defaultdict(list)
    for item in items:
        k = key(item)
        if k is not None:
            out[k].append(item)
    return {k: tuple(v) for k, v in out.items()}


def _names(term: Term) -> list[str]:
    return [term.term, *term.aliases]


def _terms_by_rule(game: LoadedGame) -> dict[str, tuple[Term, ...]]:
    """The glossary terms an entry uses by name (or that point at it), for its 'Glossary' line;
    aliases (often everyday words like 'car') would list half the glossary under every entry."""
    out: dict[str, tuple[Term, ...]] = {}
    for entry in game.rules:
        used = []
        for term in game.glossary.terms:
            if term.rule == entry.id or _mentions(entry.body, term.term):
                used.append(term)
        out[entry.id] = tuple(sorted(used, key=lambda t: t.term.casefold()))
    return out


def _mentions(text: str, name: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text, re.I) is not None


def _abbreviations(terms: tuple[Term, ...]) -> tuple[tuple[str, str], ...]:
    """Abbreviation definitions for Python-Markdown's abbr extension: every term (and alias) in the
    spellings prose uses, so hovering the word shows its definition (Material's content.tooltips).
    Appended to each of the game's pages, so one game's terms never gloss another game's pages."""
    lines: list[tuple[str, str]] = []
    seen: set[str] = set()
    for term in terms:
        definition = abbr_title(term.definition)
        for name in _names(term):
            for variant in (name, name.lower(), name[:1].upper() + name[1:]):
                if not variant.strip() or variant in seen or re.search(r"[\[\]\n]", variant):
                    continue
                seen.add(variant)
                lines.append((variant, f"*[{variant}]: {definition}"))
    return tuple(lines)
