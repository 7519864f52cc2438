"""The house mark in Markdown bodies: `:house:` after a name or a rule this kit designed (not the
rulebook's) shows the badge the components page and the printed faces' tag use. It is a mark, not an
icon: no icon may take its name."""

from __future__ import annotations

import re

CODE = "house"
MARK = ('<span class="rk-badge rk-prov rk-prov--house" title="house design: not in the rulebook">'
        'house</span>')
PLAIN = "(house)"  # where text is plain (tooltips, one-line answers)
_WRITTEN = re.compile(r"(?<![\\\w]):" + CODE + r":(?!\w)")


def plain(text: str) -> str:
    """`text` with each house mark as plain words."""
    return _WRITTEN.sub(PLAIN, text)


def marks(text: str) -> list[int]:
    """Where each house mark starts in `text`."""
    return [m.start() for m in _WRITTEN.finditer(text)]
