"""Everything the page templates need about one game, gathered once: its pages and anchors, rule
numbers, rulings, examples joined with the check report (split into pages a phone can scroll),
diagrams, odds, tooltips, staged images and downloads."""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from generators.build_system.errors import ContentError
from generators.content.loader import Content
from generators.content.model import Component, LoadedGame, RuleEntry, Term
from generators.site.assets import GameAssets, game_assets
from generators.site.diagrams import Diagram, diagram
from generators.site.examples import REPORT_NAME, CheckReport, Example, game_examples
from generators.site.glance import Glance, glance
from generators.site.links import SETUP_CHAPTER, Anchors, GamePages, word_key
from generators.site.numbers import rule_numbers
from generators.site.odds import OddsTable, game_odds
from generators.site.played_games import Careful, Policy, careful_player, game_plays
from generators.site.quick import QuickReference, load_quick
from generators.site.rulings import Ruling, missing_play, parse
from generators.site.tooltips import Gloss, glosses

_STEPS = re.compile(r"^(?:\d+\.|[-*+]) ", re.M)  # a list at the start of a line: a turn's steps

# How much of a phone (390 px wide) one examples page may fill: ~9 screens of 844 px, estimated from
# the text's length and the diagrams' displayed sizes (the browser test measures the real height).
PAGE_BUDGET_PX = 7200
PHONE_CHARS_PER_LINE = 40
LINE_PX = 26


@dataclass(frozen=True)
class Figures:
    before: Diagram | None
    after: Diagram | None
    between: tuple[Diagram, ...]


@dataclass(frozen=True)
class LegendEntry:
    symbol: Diagram
    label: str


@dataclass(frozen=True)
class ExamplePage:
    name: str  # file name under <game>/examples/
    chapter: str | None
    chapter_title: str
    part: str | None  # which part of the chapter, where it takes several pages: the rules it covers
    examples: tuple[Example, ...]

    @property
    def title(self) -> str:
        return f"{self.chapter_title}: {self.part}" if self.part else self.chapter_title


@dataclass(frozen=True)
class IndexEntry:
    """One line of the A–Z index: a glossary term, a rule, or another name pointing at a term."""

    name: str
    anchor: str | None  # its own anchor (terms only)
    term: Term | None = None
    aliases: tuple[str, ...] = ()  # its other names, plurals and case variants left out
    rule: str | None = None  # the rule that explains it
    see: str | None = None  # for another name: the term it stands for
    related: tuple[str, ...] = ()  # rules that use the term


@dataclass(frozen=True)
class GameSite:
    game: LoadedGame
    code: str  # the game's short code in rule numbers ("MD")
    pages: GamePages
    anchors: Anchors
    numbers: dict[str, str]  # rule id -> "MD 2.4"
    examples: tuple[Example, ...]
    example_pages: tuple[ExamplePage, ...]
    figures: dict[str, Figures]  # example id -> its diagrams
    odds: tuple[OddsTable, ...]
    assets: GameAssets
    rulings: tuple[Ruling, ...]
    glosses: tuple[Gloss, ...]
    report: str | None  # docs path of the check's report.json, when the check has run
    plays: tuple[Policy, ...] = ()  # whole games the computer played, by policy
    careful: Careful | None = None  # how hard each setting is, from the committed figures
    glance: Glance | None = None  # the same figures at a glance, for the overview's top
    legend: tuple[LegendEntry, ...] = ()  # one symbol per piece kind, shown once per examples page
    playable: frozenset[str] = frozenset()  # examples the Play page opens at their setup (play from here)
    quick: QuickReference = field(default_factory=QuickReference)  # quick-reference.yaml

    @property
    def id(self) -> str:
        return self.game.id

    def source(self, name: str) -> str:
        """A file of the game's folder, for located errors."""
        return str(Path(self.game.dir) / name)

    def component(self, component_id: str) -> Component:
        return next(c for c in self.game.components if c.id == component_id)

    def rule(self, rule_id: str | None) -> RuleEntry | None:
        return next((r for r in self.game.rules if r.id == rule_id), None)

    def chapter_entries(self, chapter_id: str) -> list[RuleEntry]:
        return [r for r in self.game.rules if r.meta.chapter == chapter_id]

    def chapter_number(self, chapter_id: str) -> int:
        return 1 + [c.id for c in self.game.game.chapters].index(chapter_id)

    @property
    def setup_chapter(self) -> str | None:
        ids = [c.id for c in self.game.game.chapters]
        return SETUP_CHAPTER if SETUP_CHAPTER in ids else None

    @property
    def turn_entries(self) -> list[RuleEntry]:
        """The entries whose first lists make a turn, in order: as the quick reference data names
        them, else the one `turn_entry` finds."""
        named = [e for e in (self.rule(i) for i in self.quick.turn) if e is not None]
        return named or [e for e in [self.turn_entry] if e is not None]

    @property
    def turn_entry(self) -> RuleEntry | None:
        """The entry that says what a turn holds: the first entry after setup that lists steps (an
        overview in prose comes before the turn in some rulebooks), else the first after setup."""
        entries = [e for c in self.game.game.chapters if c.id != self.setup_chapter
                   for e in self.chapter_entries(c.id)]
        listing = next((e for e in entries if _STEPS.search(e.body)), None)
        return listing or (entries[0] if entries else None)

    # --- per rule ---------------------------------------------------------------------------

    def rulings_for(self, rule_id: str) -> list[Ruling]:
        return [r for r in self.rulings if r.note.rule == rule_id]

    def examples_for(self, rule_id: str) -> list[Example]:
        return [ex for ex in self.examples if ex.rule == rule_id]

    def odds_for(self, rule_id: str) -> list[OddsTable]:
        return [t for t in self.odds if t.rule == rule_id]

    def home_terms(self, rule_id: str) -> list[Term]:
        """The glossary terms this entry explains (their `rule:`), with their other names."""
        return sorted((t for t in self.game.glossary.terms if t.rule == rule_id), key=lambda t: t.term.casefold())

    def related_terms(self, rule_id: str) -> list[Term]:
        """Terms the entry uses by name (or that point at it), for the A–Z index."""
        entry = self.rule(rule_id)
        body = entry.body if entry else ""
        return [t for t in self.game.glossary.terms if t.rule == rule_id or _mentions(body, t.term)]

    # --- per example ------------------------------------------------------------------------

    def example_label(self, ex: Example) -> str:
        """A short, keyword-led heading: the rule's number and title, and which of its examples."""
        entry = self.rule(ex.rule)
        if entry is None:
            return f"Example {self.examples.index(ex) + 1}"
        siblings = self.examples_for(entry.id)
        which = f", example {siblings.index(ex) + 1}" if len(siblings) > 1 else ", example"
        return f"{self.numbers[entry.id]} {entry.meta.title}{which}"

    def rulings_about(self, ex: Example) -> list[Ruling]:
        """The rulings that explain an example: those linking it, else (for an erratum or a table
        choice) its rule's rulings."""
        linked = [r for r in self.rulings if ex.id in r.links()]
        if linked or ex.status not in ("erratum", "failed"):
            return linked
        return self.rulings_for(ex.rule or "")

    def index(self) -> list[tuple[str, list[IndexEntry]]]:
        """The A–Z index: every glossary term (with the rules that use it), every rule by its
        title, and other names of a term where they sort elsewhere; grouped by first letter."""
        entries: list[IndexEntry] = []
        titled = set()
        uses = {r.id: {t.term for t in self.related_terms(r.id)} for r in self.game.rules}
        for t in self.game.glossary.terms:
            related = tuple(r.id for r in self.game.rules if r.id != t.rule and t.term in uses[r.id])
            entries.append(IndexEntry(t.term, self.anchors.terms[t.term], t, _distinct(t.term, t.aliases), t.rule,
                                      related=related))
            titled.add(t.term.casefold())
            for alias in t.aliases:
                if not alias.casefold().startswith(t.term.casefold()[:4]) and alias.casefold() not in titled:
                    entries.append(IndexEntry(alias, None, see=t.term))
        for r in self.game.rules:
            if r.meta.title.casefold() not in titled:
                entries.append(IndexEntry(r.meta.title, None, rule=r.id))
        groups: dict[str, list[IndexEntry]] = defaultdict(list)
        for e in sorted(entries, key=lambda e: (_sort_key(e.name), e.see is not None)):
            groups[_letter(e.name)].append(e)
        return sorted(groups.items(), key=lambda kv: (kv[0] == "#", kv[0]))

    def plays_other_reading(self, ex: Example) -> bool:
        """An example a table-choice ruling names as playing the reading we do not play."""
        return any(ex.id in r.other_reading_links() for r in self.rulings)

    def badges(self, ex: Example) -> list[str]:
        """Its check status (`table-choice` for ours that follows the other text), plus `table-choice`
        for a verified example that plays the other reading, so both readings' examples say so."""
        out = [ex.badge]
        if ex.badge != "table-choice" and self.plays_other_reading(ex):
            out.append("table-choice")
        return out

    def status_counts(self) -> dict[str, int]:
        counts: dict[str, int] = defaultdict(int)
        for ex in self.examples:
            counts[ex.badge] += 1
        return dict(counts)

    def odds_by_page(self) -> list[tuple[str | None, tuple[OddsTable, ...]]]:
        """Odds tables under the rule they belong to, in rules order; the others last."""
        groups = [(r.id, tuple(self.odds_for(r.id))) for r in self.game.rules if self.odds_for(r.id)]
        known = {r.id for r in self.game.rules}
        rest = tuple(t for t in self.odds if t.rule not in known)
        return groups + ([(None, rest)] if rest else [])


def _distinct(name: str, aliases: tuple[str, ...]) -> tuple[str, ...]:
    """Other names that are not just a plural or a case variant of the name or of each other."""
    keys = {word_key(name)}
    out = []
    for alias in aliases:
        if word_key(alias) not in keys:
            keys.add(word_key(alias))
            out.append(alias)
    return tuple(out)


def _sort_key(name: str) -> str:
    return re.sub(r"[^\w ]", "", name).strip().casefold()


def _letter(name: str) -> str:
    key = _sort_key(name)
    return key[0].upper() if key and key[0].isalpha() else "#"


def _mentions(text: str, name: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text, re.I) is not None


def game_site(content: Content, game: LoadedGame, out: Path, report: CheckReport, code: str) -> GameSite:
    pages = GamePages(game.id)
    examples = tuple(game_examples(game, out, report))
    figures: dict[str, Figures] = {}
    copies: dict[str, Path] = {}

    def stage(src: Path | None, name: str) -> Diagram | None:
        if src is None:
            return None
        dest = pages.asset("diagrams", name)
        copies[dest] = src
        return diagram(dest, src)

    for ex in examples:
        between = tuple(d for i, src in enumerate(ex.between, 1) if (d := stage(src, f"{ex.id}-step-{i}.svg")))
        figures[ex.id] = Figures(stage(ex.before, f"{ex.id}-before.svg"), stage(ex.after, f"{ex.id}-after.svg"),
                                 between)
    legend = []
    for entry in report.legends.get(game.id, []):
        src = out / "check" / str(entry.get("svg", ""))
        kind = re.sub(r"[^\w-]", "", str(entry.get("kind", "")))
        if src.is_file() and kind:
            staged = stage(src, f"legend-{kind}.svg")
            if staged is not None:
                legend.append(LegendEntry(staged, str(entry.get("label", kind))))
    example_pages = tuple(_example_pages(game, examples, figures))
    where = {ex.id: pages.examples_page(p.name) for p in example_pages for ex in p.examples}
    assets = game_assets(content, game, out)
    assets.copies.update(copies)
    rulings = tuple(parse(n) for n in game.notes.notes)
    bad = missing_play(list(rulings))
    if bad is not None:
        raise _note_error(game, bad.id, "a ruling says what we play: add a paragraph starting **We play:**")
    titles = face_titles(game)
    return GameSite(
        game=game,
        code=code,
        pages=pages,
        anchors=Anchors(game, pages, where),
        numbers=rule_numbers(game, code),
        examples=examples,
        example_pages=example_pages,
        figures=figures,
        odds=tuple(game_odds(game, report.odds.get(game.id, []))),
        assets=assets,
        rulings=rulings,
        glosses=tuple(glosses(game.glossary.terms)),
        report=pages.asset("check", REPORT_NAME) if (out / "check" / REPORT_NAME).is_file() else None,
        plays=game_plays(report.simulations.get(game.id), titles),
        careful=careful_player(report.figures.get(game.id), titles, game.made_by()),
        glance=glance(report.figures.get(game.id), titles),
        legend=tuple(legend),
        quick=load_quick(game),
    )


def face_titles(game: LoadedGame) -> dict[str, str]:
    """Every face's printed title by its id, where the id names one face only (a setting named after a
    mission card is shown by the card's title)."""
    seen: dict[str, set[str]] = {}
    for comp in game.components:
        for face in comp.faces:
            seen.setdefault(face.id, set()).add(face.front.title)
    return {fid: next(iter(titles)) for fid, titles in seen.items() if len(titles) == 1}


def _note_error(game: LoadedGame, note_id: str, message: str) -> ContentError:
    path = Path(game.dir) / "notes.yaml"
    line = 1
    try:
        for n, text in enumerate(path.read_text("utf-8").splitlines(), 1):
            if re.search(rf"\bid:\s*{re.escape(note_id)}\s*$", text):
                line = n
                break
    except OSError:
        pass
    return ContentError(str(path), line, 1, ("notes", note_id, "text"), message)


# --- examples split into pages ----------------------------------------------------------------


def estimated_height(ex: Example, figures: Figures) -> int:
    """Roughly how tall an example is on a phone: its text by length, its diagrams as displayed."""
    chars = len(ex.title) + 60 + len(ex.claim or "") + sum(
        len(s.text) + sum(len(d) + 3 for d in s.draws) + 12 for s in ex.steps)
    lines = chars // PHONE_CHARS_PER_LINE + 2 * len(ex.steps) + 4
    shown = [d for d in (figures.before, figures.after) if d]
    return 140 + lines * LINE_PX + sum(d.display_height + 60 for d in shown) + (60 if figures.between else 0)


def _example_pages(game: LoadedGame, examples: tuple[Example, ...], figures: dict[str, Figures]) -> list[ExamplePage]:
    """Examples grouped by the chapter of their rule; a chapter too tall for a phone is split into
    several pages, preferably where one rule's examples end and the next begin."""
    chapter_of = {r.id: r.meta.chapter for r in game.rules}
    titles = {r.id: r.meta.title for r in game.rules}
    groups: list[tuple[str | None, str, list[Example]]] = [
        (c.id, c.title, [ex for ex in examples if chapter_of.get(ex.rule or "") == c.id]) for c in game.game.chapters]
    groups.append((None, "Other examples", [ex for ex in examples if (ex.rule or "") not in chapter_of]))
    pages: list[ExamplePage] = []
    for chapter, title, found in groups:
        if not found:
            continue
        chunks = _chunks(found, figures)
        parts: list[str | None] = [_part(chunk, titles) for chunk in chunks] if len(chunks) > 1 else [None]
        for k, (chunk, part) in enumerate(zip(chunks, parts, strict=True), 1):
            if part is not None and parts.count(part) > 1:
                part = f"{part} ({parts[:k].count(part)})"
            name = (chapter or "other") + (f"-{k}" if len(chunks) > 1 else "")
            pages.append(ExamplePage(name, chapter, title, part, tuple(chunk)))
    return pages


def _part(chunk: list[Example], titles: dict[str, str]) -> str:
    rules = list(dict.fromkeys(titles.get(ex.rule or "", "Other") for ex in chunk))
    return ", ".join(rules[:3]) + ("…" if len(rules) > 3 else "")


def _chunks(examples: list[Example], figures: dict[str, Figures]) -> list[list[Example]]:
    heights = [estimated_height(ex, figures[ex.id]) for ex in examples]
    chunks: list[list[Example]] = [[]]
    used = 0
    for i, (ex, h) in enumerate(zip(examples, heights, strict=True)):
        current = chunks[-1]
        rule_starts = not current or current[-1].rule != ex.rule
        rest_of_rule = sum(hh for e, hh in zip(examples[i:], heights[i:], strict=True) if e.rule == ex.rule)
        # Break before a rule whose examples would overflow the page, once the page is half full;
        # otherwise only when this one example does not fit.
        if current and ((rule_starts and used > PAGE_BUDGET_PX / 2 and used + rest_of_rule > PAGE_BUDGET_PX)
                        or used + h > PAGE_BUDGET_PX):
            chunks.append([])
            used = 0
        chunks[-1].append(ex)
        used += h
    return chunks
