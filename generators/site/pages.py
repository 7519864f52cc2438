"""Rendering the site's pages: jinja2 templates -> plain Markdown files, plus the navigation.

Templates only arrange; every string from content goes through a filter of `escape.py` (`t` for
plain text, `p` for paragraphs, `L.body` for Markdown bodies), and every link through `L`, the
page's link helper, which writes it relative to the page so that strict MkDocs checks it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import jinja2

from generators.build_system.errors import ContentError
from generators.content.inline import NAME as ICON_NAME
from generators.content.loader import Content
from generators.content.model import Component, size_mm
from generators.site import escape, house_mark, index_fields, searchwords
from generators.site.assets import PAPER_LABELS, PAPERS, docs_for
from generators.site.context import GameSite
from generators.site.links import rel, slug, word_key
from generators.site.tooltips import add_tooltips
from generators.site.translated import TranslatedSite, translated_sites

NavItem = dict[str, Any] | str
# An icon code, or an escaped colon (`\:`, which face text reaches here as `&#92;:`): a literal colon.
_ICON_OR_ESCAPE = re.compile(r"(?:\\|&#92;):|:(" + ICON_NAME + r"):")

# Search weight per kind of page (Material's front matter `search: boost:`): a query that names a
# rule finds the rule before its examples and index entries. The rulings page is not searched at
# all: each ruling is also in its rule, which is where search should send the reader.
BOOSTS = {"rules": 20, "quick": 6, "summary": 2, "overview": 1, "odds": 1, "index": 0.4, "examples": 0.3,
          "components": 0.5}
_FIRST_LIST = re.compile(r"^(?:\d+[.)]|[-*+])\s")


@cache
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("generators.site", "templates"),
        undefined=jinja2.StrictUndefined,
        autoescape=False,  # the output is Markdown; escaping is explicit, per kind of text
        keep_trailing_newline=True,
        # `{#id}` is Markdown's attribute list (heading anchors), so Jinja comments are `{## ##}`.
        comment_start_string="{##",
        comment_end_string="##}",
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["t"] = escape.text
    env.filters["p"] = escape.paragraphs
    env.filters["attr"] = escape.attr
    env.filters["slug"] = slug
    env.globals["PAPERS"] = PAPERS
    env.globals["PAPER_LABELS"] = PAPER_LABELS
    env.globals["docs_for"] = docs_for
    env.globals["size_label"] = size_label
    env.globals["boosts"] = BOOSTS
    env.globals["labels"] = {"forms": index_fields.FORMS_LABEL, "names": index_fields.NAMES_LABEL}
    return env


def size_label(comp: Component) -> str:
    w, h = size_mm(comp.size)
    name = comp.size if isinstance(comp.size, str) else None
    dims = f"{w:g} × {h:g} mm"
    return f"{dims} ({name})" if name else dims


class Links:
    """Links and content Markdown for one page: everything relative to `page`."""

    def __init__(self, page: str, site: GameSite | None, content: Content):
        self.page = page
        self.site = site
        self.icons = content.icons.icons
        self.used_icons: dict[str, str] = {}  # icon name -> its symbol, drawn once per page

    def to(self, target: str) -> str:
        return rel(target, self.page)

    def rule(self, rule_id: str) -> str:
        assert self.site is not None
        return self.site.anchors.rule(rule_id, self.page)

    def has_rule(self, rule_id: str | None) -> bool:
        return self.site is not None and rule_id in self.site.anchors.rules

    def rule_title(self, rule_id: str) -> str:
        assert self.site is not None
        return self.site.anchors.rule_titles[rule_id]

    def other_names(self, rule_id: str) -> list[str]:
        """Words readers may search a rule by: the names of the glossary terms it explains, minus
        the title's own words and mere plurals or case variants (`driveby` for Drive-By)."""
        assert self.site is not None
        title = word_key(self.rule_title(rule_id))
        seen: set[str] = set()
        names: list[str] = []
        for term in self.site.home_terms(rule_id):
            for name in (term.term, *term.aliases):
                key = word_key(name)
                if key and key not in seen and key not in title:
                    seen.add(key)
                    names.append(name)
        return names

    def search_forms(self, rule_id: str) -> str:
        """Other spellings of the rule's title and names (generators/site/searchwords.py), for the
        search index alone."""
        assert self.site is not None
        names = [n for term in self.site.home_terms(rule_id) for n in (term.term, *term.aliases)]
        body = next((r.body for r in self.site.game.rules if r.id == rule_id), "")
        return " ".join(searchwords.forms(" ".join([self.rule_title(rule_id), *names]), body))

    def labelled(self, label: str, markdown: str, source: str | None = None) -> str:
        """`**Label:** text`; a part that starts with a list gets the label on a line of its own."""
        body = self.body(markdown, source).strip()
        if _FIRST_LIST.match(body):
            return f"**{label}:**\n\n{body}\n"
        return f"**{label}:** {body}\n"

    def inline(self, markdown: str, source: str | None = None) -> str:
        """A short content Markdown text (a definition) on one line, to sit inside a paragraph."""
        return " ".join(self.body(markdown, source).split())

    def first_list(self, markdown: str, source: str | None = None) -> str:
        """The first Markdown list of a body (a turn's steps), its nested items kept."""
        lines = markdown.splitlines()
        start = next((i for i, line in enumerate(lines) if _FIRST_LIST.match(line)), None)
        if start is None:
            return self.body(markdown, source)
        picked = []
        for line in lines[start:]:
            if line.strip() and not _FIRST_LIST.match(line) and not line.startswith((" ", "\t")):
                break
            picked.append(line)
        return self.body("\n".join(picked).rstrip(), source)

    @staticmethod
    def first_sentence(markdown: str | None, limit: int = 160) -> str:
        """The first sentence of a Markdown text as plain text (for one-line answers); a very short
        one ("Q&A 3.") takes the next sentence along."""
        text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", " ".join((markdown or "").split()))
        text = house_mark.plain(re.sub(r"[*_`]", "", text))
        sentences = re.findall(r".+?[.!?](?=\s|$)", text) or [text]
        sentence = sentences[0]
        if len(sentence) < 25 and len(sentences) > 1 and len(sentence) + len(sentences[1]) <= limit:
            sentence = f"{sentence} {sentences[1].strip()}"
        return sentence if len(sentence) <= limit else sentence[: limit - 1].rsplit(" ", 1)[0] + "…"

    def term(self, term: str) -> str:
        assert self.site is not None
        return self.site.anchors.term(term, self.page)

    def example(self, example_id: str) -> str:
        assert self.site is not None
        return self.site.anchors.example(example_id, self.page)

    def body(self, markdown: str, source: str | None = None) -> str:
        """A content Markdown body: links between entries resolved, raw HTML escaped, icons drawn.

        Entries link each other as `#entry-id`; a link that matches no entry would fail the strict
        MkDocs build far from its cause, so it is reported here at its line in `source`."""
        unknown: list[str] = []

        def resolve(target: str) -> str | None:
            new = self.site.anchors.body_link(target, self.page) if self.site else None
            if new is None:
                unknown.append(target)
            return new

        out = escape.markdown_body(markdown, resolve, self.icon_codes)
        if unknown:
            known = ", ".join(sorted(self.site.anchors.rules)) if self.site else ""
            raise _located(source, unknown[0], f"the link target {unknown[0]!r} matches no rules entry of this "
                           f"game; link an entry as #entry-id (entries: {known})")
        return out

    def text(self, value: str) -> str:
        """Face text: plain text with **bold** and :icon: codes."""
        s = escape.text(value)
        s = re.sub(r"&#42;&#42;(.+?)&#42;&#42;", r"**\1**", s)
        return self.icon_codes(s)

    def icon_codes(self, s: str) -> str:
        return _ICON_OR_ESCAPE.sub(lambda m: self._code(m.group(1), m.group(0)) if m.group(1) else ":", s)

    def _code(self, name: str, written: str) -> str:
        if name == house_mark.CODE:
            return house_mark.MARK
        return self.icon(name) or written

    def icon(self, name: str) -> str:
        icon = self.icons.get(name)
        if icon is None:
            return ""
        paint = 'fill="currentColor" fill-rule="evenodd"' if icon.fill else \
            'fill="none" stroke="currentColor" stroke-width="2"'
        label = escape.attr(icon.title or name)
        ref = f"rk-icon-{slug(name)}"
        self.used_icons.setdefault(name, f'<symbol id="{ref}" viewBox="0 0 24 24">'
                                         f'<path d="{escape.attr(icon.path)}" {paint}/></symbol>')
        return f'<svg class="rk-icon" role="img" aria-label="{label}"><use href="#{ref}"/></svg>'

    def icon_sprite(self) -> str:
        """The symbols of the icons this page used, once each (an icon is then a short reference)."""
        if not self.used_icons:
            return ""
        symbols = "".join(self.used_icons[name] for name in sorted(self.used_icons))
        return f'<svg class="rk-sprite" aria-hidden="true" style="display: none">{symbols}</svg>\n'


def _located(source: str | None, needle: str, message: str) -> ContentError:
    """A ContentError at the first line of `source` that contains `needle`."""
    line = col = 1
    if source:
        try:
            for n, text in enumerate(Path(source).read_text("utf-8").splitlines(), 1):
                if needle in text:
                    line, col = n, text.index(needle) + 1
                    break
        except OSError:
            pass
    return ContentError(source or "(content)", line, col, ("body",), message)


@dataclass(frozen=True)
class Page:
    path: str
    text: str


def render(template: str, page: str, content: Content, site: GameSite | None = None, glossed: bool = False,
           **extra: Any) -> Page:
    """Render one page; `glossed` gives the first use of each glossary term per section a tooltip."""
    L = Links(page, site, content)  # short on purpose: it is in every template line
    text = environment().get_template(template).render(L=L, site=site, content=content, **extra)
    text = text.rstrip("\n") + "\n\n" + L.icon_sprite() if L.used_icons else text
    if glossed and site is not None:
        text = add_tooltips(text, site.glosses)
    return Page(page, _tidy(text))


def _tidy(text: str) -> str:
    """Collapse runs of blank lines the templates' conditionals leave behind."""
    return re.sub(r"\n{3,}", "\n\n", text).strip("\n") + "\n"


def game_pages(site: GameSite, content: Content) -> list[Page]:
    """Every page of a ready game. Rules prose gets glossary tooltips; the overview, the component
    list (card names), the index and the authors' page do not, where dotted words would be noise."""
    p = site.pages
    out = [
        render("overview.md.j2", p.overview, content, site),
        render("quick-reference.md.j2", p.quick_reference, content, site),
        render("components.md.j2", p.components, content, site),
        render("turn-summary.md.j2", p.turn_summary, content, site, glossed=True),
        render("examples-index.md.j2", p.examples, content, site),
        render("notes.md.j2", p.notes, content, site, glossed=True),
        render("glossary.md.j2", p.glossary, content, site),
        render("authors.md.j2", p.authors, content, site),
        render("authors-written.md.j2", p.authors_written, content, site),
    ]
    for ex_page in site.example_pages:
        out.append(render("examples.md.j2", p.examples_page(ex_page.name), content, site, glossed=True,
                          ex_page=ex_page))
    if site.odds:
        out.append(render("odds.md.j2", p.odds, content, site, glossed=True))
    translations = translated_sites(site)
    for chapter in site.game.game.chapters:
        others = [(t.translation.spec.label, t.language, t.site.pages.chapter(chapter.id)) for t in translations]
        out.append(render("chapter.md.j2", p.chapter(chapter.id), content, site, glossed=True, chapter=chapter,
                          others=others))
    for tr in translations:
        out += translated_pages(tr, content)
    return out


def translated_pages(tr: TranslatedSite, content: Content) -> list[Page]:
    """A translation's pages: its first page, a page per chapter and the glossary."""
    p = tr.site.pages
    out = [render("translated-index.md.j2", p.overview, content, tr.site, tr=tr),
           render("translated-glossary.md.j2", p.glossary, content, tr.site, tr=tr)]
    if tr.site.quick.cards:
        out.append(render("translated-quick.md.j2", p.quick_reference, content, tr.site, tr=tr))
    for chapter in tr.site.game.game.chapters:
        out.append(render("translated-chapter.md.j2", p.chapter(chapter.id), content, tr.site, glossed=True,
                          chapter=chapter, tr=tr))
    return out


def _example_nav(site: GameSite) -> list[NavItem]:
    """One entry per chapter; a chapter whose examples take several pages lists them by part."""
    h = escape.nav_title
    out: list[NavItem] = []
    by_chapter: dict[str, list] = {}
    for e in site.example_pages:
        by_chapter.setdefault(e.chapter_title, []).append(e)
    for title, parts in by_chapter.items():
        if len(parts) == 1:
            out.append({h(title): site.pages.examples_page(parts[0].name)})
        else:
            out.append({h(title): [{h(e.part): site.pages.examples_page(e.name)} for e in parts]})
    return out


def game_nav(site: GameSite, play: str | None = None) -> NavItem:
    """The game's section of the navigation (with its Play page where there is one); titles from
    content go through `escape.nav_title`."""
    p = site.pages
    h = escape.nav_title
    chapters = site.game.game.chapters
    setup = [c for c in chapters if c.id == site.setup_chapter]
    rules = [c for c in chapters if c.id != site.setup_chapter]
    items: list[NavItem] = [
        {"Overview": p.overview},
        *([{"Play": play}] if play else []),
        {"Quick reference": p.quick_reference},
        {"Components": p.components},
        *({h(c.title): p.chapter(c.id)} for c in setup),
        {"Turn summary": p.turn_summary},
    ]
    if rules:
        items.append({"Rules": [{h(c.title): p.chapter(c.id)} for c in rules]})
    items.append({"Worked examples": [p.examples, *_example_nav(site)]})
    if site.odds:
        items.append({"Odds": p.odds})
    items += [{"Rulings": p.notes}, {"Index A–Z": p.glossary}, {"For content authors": [p.authors, p.authors_written]}]
    for tr in translated_sites(site):
        t = tr.site.pages
        chapter_nav: list[NavItem] = [{h(c.title): t.chapter(c.id)} for c in tr.site.game.game.chapters]
        quick: list[NavItem] = [{h(tr.words.quick): t.quick_reference}] if tr.site.quick.cards else []
        items.append({h(tr.translation.spec.label): [{h(tr.site.game.game.name): t.overview}, *quick, *chapter_nav,
                                                     {h(tr.words.glossary): t.glossary}]})
    return {h(site.game.name): items}
