"""Link targets checked on the parsed page: only http, https, mailto and relative URLs.

Rewriting the Markdown source cannot see every way Python-Markdown makes a link (a reference
definition whose target is on the next line, one inside a block quote or list item, an inline link
whose `(` ends its line, entities inside the scheme), so the check runs where those are already
resolved: on the element tree Python-Markdown built, after every inline pattern and its unescaping.
The extension is listed in mkdocs.yml's `markdown_extensions`, where it drops a forbidden target from
the page (the link's text stays); `forbidden_links` runs the same parser with the same extensions for
`roadkit validate`, which every build runs first and which refuses the text at its file:line:column,
so on the site the drop is only the net under that check.

A Markdown tree step rather than an HTML sanitiser library (bleach is deprecated, nh3 would be a
compiled dependency): the tree is where the links are, the pages' raw HTML is ours (content text
reaches the page with `<` escaped, generators/site/escape.py), and the assembled site's content
area is checked once more by generators/site/linkcheck.py.
"""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as etree
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

import markdown
import yaml
from markdown.extensions import Extension
from markdown.treeprocessors import Treeprocessor
from markdown.util import ETX, STX

ALLOWED_SCHEMES = frozenset({"http", "https", "mailto"})
# Attributes whose value a browser follows or loads as a URL.
URL_ATTRIBUTES = ("href", "src", "srcset", "action", "formaction", "poster", "cite", "background",
                  "data", "xlink:href", "ping")
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):")
_TAB_NEWLINE = str.maketrans("", "", "\t\n\r")
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")
_PLACEHOLDER = re.compile(f"{STX}wzxhzdk:(\\d+){ETX}")


def forbidden(url: str) -> str | None:
    """Why a browser could run or load something unsafe from `url` (None: it is allowed).

    Read as a browser reads an attribute: character references decoded, then the URL parser's own
    leniency (it strips leading C0 controls and spaces and drops tabs and newlines anywhere) applied
    before the scheme is taken. Other control characters are refused outright: no honest link has one."""
    value = html.unescape(url).translate(_TAB_NEWLINE)
    if _CONTROL.search(value):
        return "a link target may not hold a control character"
    m = _SCHEME.match(value.lstrip(" "))
    if m and m.group(1).lower() not in ALLOWED_SCHEMES:
        return (f"the link target {value.strip()[:60]!r} uses the scheme {m.group(1).lower()!r}; "
                "links may be relative or use http, https or mailto")
    return None


def relative(url: str) -> bool:
    """Whether a browser takes `url` (an attribute's value as written) for a relative URL: no scheme
    once references are decoded and its leading controls, spaces, tabs and newlines are gone."""
    value = html.unescape(url).translate(_TAB_NEWLINE).lstrip("".join(map(chr, range(0x21))))
    return _SCHEME.match(value) is None


Judge = Callable[[str], "str | None"]  # why a URL may not be on the page, or None


class _Check(Treeprocessor):
    """Every URL attribute of the tree against `judge` (`forbidden` on the site); a URL it refuses is
    recorded and dropped."""

    def __init__(self, md: markdown.Markdown, ext: SafeLinksExtension):
        super().__init__(md)
        self.ext = ext

    def run(self, root: etree.Element) -> None:
        for elem in root.iter():
            for name in URL_ATTRIBUTES:
                value = elem.get(name)
                if value is None:
                    continue
                url = self._resolved(value)
                why = self.ext.judge(url)
                if why is not None:
                    self.ext.found.append((url, why))
                    del elem.attrib[name]

    def _resolved(self, value: str) -> str:
        """The value as the page will hold it: stashed raw HTML put back (a placeholder inside an
        attribute is replaced by the raw HTML it stands for)."""
        stash = self.md.htmlStash.rawHtmlBlocks

        def put_back(m: re.Match[str]) -> str:
            i = int(m.group(1))
            return str(stash[i]) if i < len(stash) else m.group(0)

        return _PLACEHOLDER.sub(put_back, value).replace(markdown.util.AMP_SUBSTITUTE, "&")


class SafeLinksExtension(Extension):
    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self.found: list[tuple[str, str]] = []
        self.judge: Judge = forbidden

    def extendMarkdown(self, md: markdown.Markdown) -> None:
        # After `unescape` (priority 0): backslash escapes are characters again by then.
        md.treeprocessors.register(_Check(md, self), "roadkit_safe_links", -10)


def makeExtension(**kwargs: Any) -> SafeLinksExtension:
    return SafeLinksExtension(**kwargs)


# --- the same check for validate -------------------------------------------------------------------

_CONFIG = Path(__file__).resolve().parents[2] / "mkdocs.yml"


@cache
def _site_extensions() -> tuple[tuple[list[Any], dict[str, Any]], ...]:
    """mkdocs.yml's Markdown extensions and their settings, as MkDocs passes them."""
    listed = yaml.safe_load(_CONFIG.read_text("utf-8")).get("markdown_extensions") or []
    names: list[Any] = []
    configs: dict[str, Any] = {}
    for item in listed:
        if isinstance(item, dict):
            (name, config), = item.items()
            names.append(name)
            configs[name] = config or {}
        else:
            names.append(item)
    return ((names, configs),)


# Without a colon (a scheme, or `&colon;`), a character reference or a control character, no link
# target of a text can be forbidden: such texts skip the parser.
_MAYBE = re.compile("[:&\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
# Every link Markdown makes has a `]` (inline, reference, definition; the pages' `<` is escaped).
_LINKISH = re.compile(r"\]")


@cache
def _parser() -> tuple[markdown.Markdown, SafeLinksExtension]:
    (names, configs), = _site_extensions()
    check = SafeLinksExtension()
    names = [n for n in names if n != __name__]
    return markdown.Markdown(extensions=[*names, check], extension_configs=configs), check


def forbidden_links(text: str, judge: Judge = forbidden) -> list[tuple[str, str]]:
    """(target, why) of each link Markdown makes of `text` with the site's extensions that `judge`
    refuses (by default: a forbidden scheme), reference definitions included even where nothing uses
    them (another text on the same page may)."""
    if not (_MAYBE if judge is forbidden else _LINKISH).search(text):
        return []
    md, check = _parser()
    md.reset()
    check.found.clear()
    check.judge = judge
    try:
        md.convert(text)
    finally:
        check.judge = forbidden
    found = list(check.found)
    for url, _title in md.references.values():
        why = judge(url)
        if why is not None and (url, why) not in found:
            found.append((url, why))
    return found


def locate(text: str, judge: Judge = forbidden) -> tuple[int, int, str, str] | None:
    """Line, column (1-based, in `text`), target and reason of the first link `judge` refuses (by
    default, a forbidden one), or None.

    The line is the first one by which the text makes such a link (the target's line for a
    definition whose target is on the next line); the column, where the target starts on it."""
    if not forbidden_links(text, judge):
        return None
    lines = text.split("\n")
    lo, hi = 1, len(lines)  # the smallest prefix of lines that makes one
    while lo < hi:
        mid = (lo + hi) // 2
        if forbidden_links("\n".join(lines[:mid]), judge):
            hi = mid
        else:
            lo = mid + 1
    found = forbidden_links("\n".join(lines[:lo]), judge) or forbidden_links(text, judge)
    url, why = found[0]
    return lo, column(lines[lo - 1], url), url, why


def column(line: str, url: str) -> int:
    """Where `url` starts on `line` as written (references and controls allowed in between)."""
    want = _squeezed(url)[:10].lower()
    for start in _starts(line):
        if want and _squeezed(line[start:]).lower().startswith(want):
            return start + 1
    return len(line) - len(line.lstrip()) + 1


def _starts(line: str) -> Iterator[int]:
    return (i for i, c in enumerate(line) if not c.isspace() and ord(c) >= 0x20)


def _squeezed(s: str) -> str:
    return "".join(c for c in html.unescape(s) if ord(c) > 0x20 and not 0x7F <= ord(c) <= 0x9F)
