"""Escaping content text for the generated Markdown pages.

Every string from content/ lands in a page that Python-Markdown (with attr_list, md_in_html,
admonitions) and then a browser will read, so a card named `<script>` or
`*Boss* [1]` must reach the reader literally. Plain text is turned into character references
for every character either language gives meaning to: Python-Markdown passes references through
untouched (no emphasis, no links, no raw HTML can start from them) and the browser shows the
character. Rules bodies are Markdown on purpose: they keep their formatting, but raw HTML and
attribute lists in them are neutralised (see `markdown_body`). Link targets are not judged here:
their schemes are checked on the parsed page (generators/site/safe_links.py), where every way
Markdown has of making a link has already been taken.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from generators.site.safe_links import forbidden

# Characters with a meaning in Markdown (and the extensions mkdocs.yml enables) or in HTML.
_SPECIAL = {c: f"&#{ord(c)};" for c in "\\`*_[]{}<>#|&\""}
_SPECIAL["&"] = "&amp;"
_SPECIAL["<"] = "&lt;"
_SPECIAL[">"] = "&gt;"
_SPECIAL['"'] = "&quot;"
_TEXT_RE = re.compile("[" + re.escape("".join(_SPECIAL)) + "]")
# A line that starts like a list item or a heading would change the block it sits in.
_LEADING_BLOCK = re.compile(r"^(\s*)([-+]|\d+(?=[.)]))")


def text(value: object) -> str:
    """Plain content text as an inline Markdown fragment that renders literally, on one line."""
    s = " ".join(str(value).split())
    s = _TEXT_RE.sub(lambda m: _SPECIAL[m.group(0)], s)
    return _LEADING_BLOCK.sub(lambda m: m.group(1) + "".join(f"&#{ord(c)};" for c in m.group(2)), s)


def paragraphs(value: object) -> str:
    """Plain multi-paragraph text: paragraphs (blank-line separated) kept, each escaped."""
    parts = re.split(r"\n\s*\n", str(value).strip())
    return "\n\n".join(text(p) for p in parts if p.strip())


def attr(value: object) -> str:
    """For a double-quoted HTML attribute value (inside a raw HTML block)."""
    return (str(value).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("'", "&#39;"))


def nav_title(value: object) -> str:
    """A navigation title from content. MkDocs writes nav titles into the HTML unescaped, and
    Material's `<title>` runs them through `striptags`, which turns `&lt;` back into `<` (so
    `</title><script>` could escape the element). Angle brackets therefore become the look-alike
    single guillemets; the rest is HTML-escaped."""
    s = " ".join(str(value).split()).replace("<", "\u2039").replace(">", "\u203a")
    return attr(s)


# --------------------------------------------------------------------------------------------
# Markdown bodies

_FENCE = re.compile(r"^\s*(```+|~~~+)")
_CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.S)
_LINK = re.compile(r"(!?)\[((?:[^\[\]\\]|\\.)*)\]\(\s*<?((?:[^()\s<>]|\([^()\s<>]*\))*)>?((?:\s+\"[^\"]*\")?)\s*\)")
_ANY_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.I)
_HTMLISH = re.compile(r"[<{]")
# `&#` that does not begin a complete character reference (`&#115c`, `&#;`): the HTML scan Python-Markdown
# runs over a whole page stops at one (CPython's HTMLParser gives up there), and the raw HTML after it
# on the page comes out garbled (its headings lose their ids). In prose it becomes `&amp;#`, which
# shows the same characters; in code or a link target it is refused by validate (INCOMPLETE_REFERENCE).
INCOMPLETE_REFERENCE = re.compile(r"&#(?![0-9]+;|[xX][0-9a-fA-F]+;)")

# Entries are the page's h2s: a body's own # or ## heading would break out of its entry.
_TOP_HEADING = re.compile(r"^#{1,2}(?=\s)")

LinkResolver = Callable[[str], str | None]


def markdown_body(body: str, resolve: LinkResolver | None = None, inline: Callable[[str], str] | None = None) -> str:
    """A content Markdown body made safe to embed: formatting kept, raw HTML shown as text.

    Outside code: `<` and `{` become references (no raw HTML, no attribute lists carrying
    `onclick`), `#`/`##` headings become `###` (the entry's own heading is the h2), and every
    link target without a scheme goes through `resolve` (rules entries link each other as `#entry-id`), which
    returns the new target or None to leave it. `inline`, if given, post-processes each stretch of
    text outside code (icon shortcodes, say)."""
    out: list[str] = []
    fence: str | None = None
    for line in body.splitlines():
        m = _FENCE.match(line)
        if fence is not None:
            out.append(line)
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = None
            continue
        if m:
            fence = m.group(1)
            out.append(line)
            continue
        line = _TOP_HEADING.sub("###", line)
        out.append(_line(line, resolve, inline))
    return "\n".join(out).strip() + "\n"


def _line(line: str, resolve: LinkResolver | None, inline: Callable[[str], str] | None) -> str:
    pieces: list[str] = []
    pos = 0
    for m in _CODE_SPAN.finditer(line):
        pieces.append(_prose(line[pos:m.start()], resolve, inline))
        pieces.append(m.group(0))
        pos = m.end()
    pieces.append(_prose(line[pos:], resolve, inline))
    return "".join(pieces)


def _prose(s: str, resolve: LinkResolver | None, inline: Callable[[str], str] | None) -> str:
    def link(m: re.Match[str]) -> str:
        bang, label, target, title = m.groups()
        # A target the page's check will drop (generators/site/safe_links.py) is not resolved.
        if resolve is not None and not _ANY_SCHEME.match(target) and forbidden(target) is None:
            new = resolve(target)
            if new is not None:
                target = new
        return f"{bang}[{_neutral(label)}]({target}{_neutral(title)})"

    pieces: list[str] = []
    pos = 0
    for m in _LINK.finditer(s):
        pieces.append(_neutral(s[pos:m.start()]))
        pieces.append(link(m))
        pos = m.end()
    pieces.append(_neutral(s[pos:]))
    result = "".join(pieces)
    return inline(result) if inline else result


def _neutral(s: str) -> str:
    s = INCOMPLETE_REFERENCE.sub("&amp;#", s)
    return _HTMLISH.sub(lambda m: "&lt;" if m.group(0) == "<" else "&#123;", s)
