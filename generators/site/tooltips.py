"""Glossary tooltips: the first use of a term in each section of a page, and nowhere else.

The generated Markdown is scanned line by line; a term's first mention in a section's prose becomes
`<abbr title="definition">word</abbr>`, which Material shows as a tooltip. Headings, links, code,
HTML blocks, admonition titles and attribute lists are left alone, and the section that explains
a term (its `rule:` entry) gets no tooltip for it.

Material puts a tooltip's title into the page as HTML, so the definition is made plain text that
stays plain text there: no Markdown markers, and every `<` followed by an invisible word joiner,
which no HTML parser reads as the start of a tag.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from generators.content.model import Term
from generators.site import escape, house_mark

_WORD_JOINER = "\u2060"
_FENCE = re.compile(r"^\s*(```+|~~~+)")
_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s")
_HEADING_ID = re.compile(r"\{[^}]*#([\w-]+)[^}]*\}\s*$")
# Paragraphs marked with one of these classes are labels and citations, not prose.
_QUIET = re.compile(r"^\s*\{:[^}]*\.rk-(?:cite|related|ex-lead|odds-title|odds-headline|letters|index-see)\b")
_SKIP_LINE = re.compile(r"^\s*(?:!!!|\?\?\?|\{:|<|\*\[|\|?\s*:?-{2,}:?\s*\||\[[^\]]*\]:)")
# Stretches of a line that must not get a tooltip: code, links and images, HTML elements and
# tags, attribute lists, character references.
_PROTECTED = re.compile(
    r"(`+).+?\1"
    r"|!?\[(?:[^\[\]]|\[[^\[\]]*\])*\](?:\([^)]*\)|\[[^\]]*\])(?:\{[^}]*\})?"
    r"|<(a|abbr|code|span|sup|sub|kbd)\b[^>]*>.*?</\2>"
    r"|<[^>]*>"
    r"|\{[:#.][^}]*\}"
    r"|&#?\w+;"
)


@dataclass(frozen=True)
class Gloss:
    names: tuple[str, ...]  # its spellings
    title: str  # the tooltip, ready for a double-quoted HTML attribute
    home: str | None  # the rules entry that explains it: no tooltip in that entry's section


def tooltip_text(definition: str) -> str:
    """A definition as plain text that no HTML parser turns into markup."""
    s = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", definition)  # links: their text
    s = house_mark.plain(re.sub(r"[*_`]", "", " ".join(s.split())))
    return s.replace("<", "<" + _WORD_JOINER)


def glosses(terms: Iterable[Term]) -> list[Gloss]:
    out = []
    for term in terms:
        names = tuple(n for n in dict.fromkeys([term.term, *term.aliases]) if re.search(r"\w", n))
        title = escape.attr(tooltip_text(term.definition)).replace("|", "&#124;")
        out.append(Gloss(names, title, term.rule))
    return out


class _Matcher:
    """One regex for every spelling of every term, made once per glossary (every page uses it)."""

    def __init__(self, terms: tuple[Gloss, ...]):
        self.by_name: dict[str, int] = {}
        for i, g in enumerate(terms):
            for name in g.names:
                self.by_name.setdefault(name.casefold(), i)
        self.regex = re.compile(r"(?<![\w-])(" + _trie(self.by_name) + r")(?![\w-])", re.I) if self.by_name else None


def _trie(names: Iterable[str]) -> str:
    """The names as one pattern shaped like a trie: at each point of the text the regex follows the
    one branch its next character opens, so its work is the length of the name, not the number of
    names (a flat alternation tried every name at every word: pages times aliases). A longer name
    is tried before the shorter one it extends, as the longest-first alternation did."""
    root: dict[str, dict] = {}
    for name in names:
        node = root
        for ch in name:
            node = node.setdefault(ch, {})
        node[""] = {}

    def pattern(node: dict[str, dict]) -> str:
        branches = [re.escape(ch) + pattern(child) for ch, child in sorted(node.items()) if ch]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{body})?" if "" in node else body

    return pattern(root)


@lru_cache(maxsize=8)
def _matcher(terms: tuple[Gloss, ...]) -> _Matcher:
    return _Matcher(terms)


def add_tooltips(markdown: str, terms: Iterable[Gloss]) -> str:
    """The page's Markdown with each term's first use per section wrapped in a tooltip."""
    terms = tuple(terms)
    matcher = _matcher(terms)
    if matcher.regex is None:
        return markdown
    lines = markdown.split("\n")
    seen: set[int] = set()
    section: str | None = None
    fence: str | None = None
    start = _front_matter_end(lines)
    for n in range(start, len(lines)):
        line = lines[n]
        m = _FENCE.match(line)
        if fence is not None:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = None
            continue
        if m:
            fence = m.group(1)
            continue
        h = _HEADING.match(line)
        if h:
            if len(h.group(1)) <= 3:
                seen = set()
                ident = _HEADING_ID.search(line)
                section = ident.group(1) if ident else None
            continue
        if not line.strip() or _SKIP_LINE.match(line) or (n + 1 < len(lines) and _QUIET.match(lines[n + 1])):
            continue
        lines[n] = _line(line, matcher, terms, seen, section)
    return "\n".join(lines)


def _front_matter_end(lines: list[str]) -> int:
    if lines and lines[0].strip() == "---":
        for i in range(1, len(lines)):
            if lines[i].strip() == "---":
                return i + 1
    return 0


def _line(line: str, matcher: _Matcher, terms: tuple[Gloss, ...], seen: set[int], section: str | None) -> str:
    out: list[str] = []
    pos = 0
    for m in _PROTECTED.finditer(line):
        out.append(_prose(line[pos:m.start()], matcher, terms, seen, section))
        out.append(m.group(0))
        pos = m.end()
    out.append(_prose(line[pos:], matcher, terms, seen, section))
    return "".join(out)


def _prose(text: str, matcher: _Matcher, terms: tuple[Gloss, ...], seen: set[int], section: str | None) -> str:
    assert matcher.regex is not None

    def wrap(m: re.Match[str]) -> str:
        i = matcher.by_name[m.group(1).casefold()]
        if i in seen or (section is not None and terms[i].home == section):
            return m.group(0)
        seen.add(i)
        return f'<abbr title="{terms[i].title}">{m.group(1)}</abbr>'

    return matcher.regex.sub(wrap, text) if text.strip() else text
