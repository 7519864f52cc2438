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

from generators.content.inline import NAME as ICON_NAME
from generators.content.loader import Content
from generators.content.model import Component, size_mm
from generators.errors import ContentError
from generators.site import escape
from generators.site.assets import PAPER_LABELS, PAPERS, docs_for
from generators.site.context import GameSite
from generators.site.links import rel, slug

NavItem = dict[str, Any] | str
# An icon code, or an escaped colon (`\:`, which face text reaches here as `&#92;:`): a literal colon.
_ICON_OR_ESCAPE = re.compile(r"(?:\\|&#92;):|:(" + ICON_NAME + r"):")


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
        return _ICON_OR_ESCAPE.sub(lambda m: (self.icon(m.group(1)) or m.group(0)) if m.group(1) else ":", s)

    def icon(self, name: str) -> str:
        icon = self.icons.get(name)
        if icon is None:
            return ""
        paint = 'fill="currentColor" fill-rule="evenodd"' if icon.fill else \
            'fill="none" stroke="currentColor" stroke-width="2"'
        label = escape.attr(icon.title or name)
        return (f'<svg class="rk-icon" viewBox="0 0 24 24" role="img" aria-label="{label}">'
                f'<title>{label}</title><path d="{escape.attr(icon.path)}" {paint}/></svg>')


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
    """Render one page; `glossed` appends the game's glossary as abbreviations (hover tooltips)."""
    L = Links(page, site, content)  # short on purpose: it is in every template line
    text = environment().get_template(template).render(L=L, site=site, content=content, **extra)
    if glossed and site is not None:
        # Only the spellings this page uses: every definition on every page made Markdown the
        # slowest step of the build. One block per definition, since Python-Markdown re-tests the
        # rest of a block after each one it takes (one long block is quadratic).
        used = [line for name, line in site.abbreviations if name in text]
        if used:
            text = text.rstrip("\n") + "\n\n" + "\n\n".join(used) + "\n"
    return Page(page, _tidy(text))


def _tidy(text: str) -> str:
    """Collapse runs of blank lines the templates' conditionals leave behind."""
    return re.sub(r"\n{3,}", "\n\n", text).strip("\n") + "\n"


def game_pages(site: GameSite, content: Content) -> list[Page]:
    """Every page of a ready game. Rules prose gets glossary tooltips; the overview, the component
    list (card names) and the glossary itself do not, where dotted words would only be noise."""
    p = site.pages
    out = [
        render("overview.md.j2", p.overview, content, site),
        render("components.md.j2", p.components, content, site),
        render("turn-summary.md.j2", p.turn_summary, content, site, glossed=True),
        render("examples.md.j2", p.examples, content, site, glossed=True),
        render("notes.md.j2", p.notes, content, site, glossed=True),
        render("glossary.md.j2", p.glossary, content, site),
    ]
    if site.odds:
        out.append(render("odds.md.j2", p.odds, content, site, glossed=True))
    for chapter in site.game.game.chapters:
        out.append(render("chapter.md.j2", p.chapter(chapter.id), content, site, glossed=True, chapter=chapter))
    return out


def game_nav(site: GameSite) -> NavItem:
    """The game's section of the navigation; titles from content go through `escape.nav_title`."""
    p = site.pages
    h = escape.nav_title
    chapters = site.game.game.chapters
    setup = [c for c in chapters if c.id == site.setup_chapter]
    rules = [c for c in chapters if c.id != site.setup_chapter]
    items: list[NavItem] = [
        {"Overview": p.overview},
        {"Components": p.components},
        *({h(c.title): p.chapter(c.id)} for c in setup),
        {"Turn summary": p.turn_summary},
    ]
    if rules:
        items.append({"Rules": [{h(c.title): p.chapter(c.id)} for c in rules]})
    items.append({"Worked examples": p.examples})
    if site.odds:
        items.append({"Odds": p.odds})
    items += [{"Rulebook notes": p.notes}, {"Glossary": p.glossary}]
    return {h(site.game.name): items}
