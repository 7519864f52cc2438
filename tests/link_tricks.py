"""Markdown that tries to make a link a browser would run: the known tricks and generated ones.

Shared by the scheme check's tests (tests/test_safe_links.py), the browser test that clicks every
link of a site built from them, and the content fuzzers (`make fuzz`). `runs_script` is the oracle:
written from how a browser reads an attribute (WHATWG URL parsing), apart from the code it judges.
"""

from __future__ import annotations

import random
import re
from html.parser import HTMLParser

RUNNING = ("javascript", "vbscript", "data")  # schemes that run or render something of the author's

# The reported cases of issue 41, and the classic spellings.
KNOWN = [
    "[a][x]\n\n[x]:\n  javascript:alert(1)",
    "> [a][x]\n>\n> [x]: javascript:alert(1)",
    "- [a][x]\n\n- [x]: javascript:alert(1)",
    "[a](\njavascript:alert(1))",
    "[a]( \n javascript:alert(1) )",
    "[x]:\njavascript:alert(1)\n\n[x]",
    "[a](jav&#x61;script:alert(1))",
    "[a](&#106;avascript:alert(1))",
    "[a](javascript&colon;alert(1))",
    "[a](javascript&#58;alert(1))",
    "[a](&#9;javascript:alert(1))",
    "[a](JaVaScRiPt:alert(1))",
    "[a](vbscript:msgbox(1))",
    "[a](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
    "![a](javascript:alert(1))",
    "[a](<javascript:alert(1)>)",
    "<javascript:alert(1)>",
    '<a href="javascript:alert(1)">a</a>',
    "[a](javascript:alert(1) \"title\")",
    "   [x]: javascript:alert(1)\n\n[x]",
    "* item\n\n    [x]: javascript:alert(1)\n\n[x]",
]


def _reference(rng: random.Random, ch: str, next_ch: str) -> str:
    """`ch` as a numeric character reference, decimal or hex, with or without its `;` (a browser
    decodes one without where the next character cannot continue the number)."""
    hexa = rng.random() < 0.5
    ref = f"&#x{ord(ch):x}" if hexa else f"&#{ord(ch)}"
    continues = next_ch in "0123456789abcdefABCDEF" if hexa else next_ch.isdigit()
    return ref if rng.random() < 0.4 and next_ch and not continues else ref + ";"


# Before a scheme: what a browser strips (spaces, C0 controls, as such or as references), and what it
# does not, which leaves the URL relative (U+FFFD that `&#0;` reads as, a BOM, a no-break space, `%20`).
_LEADS = ["", "", " ", "&#32;", "&#1;", "\x01", "&#x20;&#9;"]
_DECOY_LEADS = ["&#x0;", "&#0;", "&#0", "&#x0", "&#xFEFF;", "&#160;", "%20"]


def _spell(rng: random.Random, scheme: str, decoy: bool = False) -> str:
    """`scheme:` written one of the ways a browser still reads as that scheme; a `decoy` is spelled
    one way more that leaves the URL relative (a lead the browser keeps, a percent-encoded letter, a
    raw tab, which Markdown turns into spaces), so it must lead somewhere all the same."""
    out = []
    text = scheme + ":"
    for i, ch in enumerate(text):
        r = rng.random()
        if r < 0.15:
            out.append(_reference(rng, ch, text[i + 1] if i + 1 < len(text) else "a"))
        elif r < 0.2 and ch == ":":
            out.append("&colon;")
        elif r < 0.35:
            out.append(ch.upper())
        elif r < 0.4 and ch != ":":
            out.append(ch + rng.choice(["&#9;", "&#10;", "&#13;", "&Tab;", "&NewLine;", "\n"]))
        else:
            out.append(ch)
    lead = rng.choice(_LEADS)
    if decoy:
        i = rng.randrange(len(scheme))
        kind = rng.randrange(3)
        if kind == 0:
            lead = rng.choice(_DECOY_LEADS)
        elif kind == 1:
            out[i] = f"%{ord(scheme[i]):02X}"
        else:
            out[i] += "\t"
    return lead + "".join(out)


_BODY = {"javascript": "alert(document.domain)", "vbscript": "msgbox(1)",
         "data": "text/html,<script>alert(1)</script>"}
_SHAPES = [
    "[{label}]({url})",
    "![{label}]({url})",
    "[{label}](\n{url})",
    "[{label}](<{url}>)",
    "[{label}]({url} \"t\")",
    "[{label}]({url}\n\"t\")",
    "[{label}][r{n}]\n\n[r{n}]: {url}",
    "[{label}][r{n}]\n\n[r{n}]:\n  {url}",
    "[{label}][r{n}]\n\n[r{n}]: <{url}>",
    "[{label}][r{n}]\n\n[r{n}]: {url}\n  \"title\"",
    "> [{label}][r{n}]\n>\n> [r{n}]: {url}",
    "- [{label}][r{n}]\n\n- [r{n}]: {url}",
    "1. item\n\n    [{label}][r{n}]\n\n    [r{n}]: {url}",
    "<{url}>",
    "[{label}]: {url}\n\n[{label}]",
    "[{label} [x]]({url})",
    "[[{label}]]({url})",
    "[{label} [x] y]({url})",
    "[![{label}]({url})]({url})",
    # nested lists, tables, footnote-like labels, admonitions and details, a label of character
    # references, reference labels in another case, a tab or spaces around the target
    "- item\n    - [{label}]({url})",
    "- item\n    - [{label}][r{n}]\n\n        [r{n}]: {url}",
    "| a | b |\n|---|---|\n| [{label}]({url}) | x |",
    "| a |\n|---|\n| [{label}][r{n}] |\n\n[r{n}]: {url}",
    "x[^{n}]\n\n[^{n}]: {url}",
    "!!! note\n    [{label}]({url})",
    "??? note \"t\"\n    [{label}][r{n}]\n\n    [r{n}]: {url}",
    "[{label}](\t{url})",
    "[&#91;{label}&#93;]({url})",
    "> - [{label}]({url})",
    "1. a\n    1. b\n\n        [{label}]({url})",
    "[{label}][R{n}]\n\n[r{n}]: {url}",
    "**[{label}][r{n}]**\n\n[r{n}]:\t{url}",
    "[{label}]\n(  {url}  )",
    "`code` [{label}](  <{url}>  'x')",
]


def generated(rng: random.Random, label: str = "a", n: int = 0, decoy: bool = False) -> str:
    """One generated attempt: a running scheme, spelled oddly, in one of the shapes of a link (a
    `decoy`: spelled so that it does not run, but leads nowhere)."""
    scheme = rng.choice(RUNNING)
    url = _spell(rng, scheme, decoy) + _BODY[scheme]
    return rng.choice(_SHAPES).format(label=label, url=url, n=n)


def shaped(rng: random.Random, target: str, label: str = "a", n: int = 0) -> str:
    """`target` (a link a text may well hold: an entry's anchor, a web address) in one of the shapes."""
    return rng.choice(_SHAPES).format(label=label, url=target, n=n)


def attempts(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    return KNOWN + [generated(rng, n=i) for i in range(count)]


# --- the oracle ------------------------------------------------------------------------------------

_URL_ATTRS = frozenset({"href", "src", "srcset", "action", "formaction", "poster", "xlink:href", "data"})


class _Urls(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.urls += [v for k, v in attrs if k in _URL_ATTRS and v is not None]  # values come unescaped


def urls(page_html: str) -> list[str]:
    """Every URL attribute value of an HTML fragment, as the browser reads it (references decoded)."""
    parser = _Urls()
    parser.feed(page_html)
    parser.close()
    return parser.urls


def _scheme(url: str) -> str | None:
    """The scheme a browser takes `url` (an attribute's decoded value) to have, lowercase, or None:
    leading and trailing C0 controls and spaces stripped, tabs and newlines removed anywhere."""
    s = url.strip("".join(map(chr, range(0x21)))).replace("\t", "").replace("\n", "").replace("\r", "")
    m = re.match(r"([A-Za-z][A-Za-z0-9+.\-]*):", s)
    return m.group(1).lower() if m else None


def runs_script(url: str) -> bool:
    """Whether a browser would take `url` (an attribute's decoded value) as a running scheme."""
    return _scheme(url) in RUNNING


def _unchecked_urls(text: str) -> list[str]:
    """The URLs of `text` put on a page as the site puts a Markdown text, without the page's own check
    (the parser with the site's other extensions)."""
    import markdown

    from generators.site import safe_links
    from generators.site.escape import markdown_body

    (names, configs), = safe_links._site_extensions()
    page = markdown.markdown(markdown_body(text), extensions=[n for n in names if n != safe_links.__name__],
                             extension_configs=configs)
    return urls(page)


def makes_running_link(text: str) -> bool:
    """Whether `text` would make a running link on the page without the page's own check."""
    return any(runs_script(u) for u in _unchecked_urls(text))


def makes_relative_link(text: str) -> bool:
    """Whether `text` makes a link a browser reads as relative. A generated trick names no page of the
    site, so such a link leads nowhere: validate must refuse it (the build would fail on it)."""
    return any(_scheme(u) is None for u in _unchecked_urls(text))
