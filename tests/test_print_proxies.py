"""The proxies kit covers every game: where the boxed game prints a piece we replace with a house
design, `--proxies` prints a write-in stand-in instead (the cards document changes), or the piece is
named, with its game, in the editors' guide's list of pieces that need none and why (site/guide/printing.md)."""

from __future__ import annotations

import re
from functools import cache

import pytest

from generators.pdf import documents
from generators.pdf.faces import Look
from generators.pdf.options import CARD_KINDS, Options
from generators.pdf.print_targets import with_proxies
from tests.helpers import CONTENT, real_content


@cache
def content():
    return real_content()


def _house(comp) -> bool:
    return any(s is not None and s.provenance == "house" for f in comp.faces for s in (f.front, f.back))


def _readme_entry(game_name: str) -> str:
    """The editors' guide's proxies bullet for a game (its name in italics, up to the next bullet)."""
    readme = (CONTENT.parent / "site" / "guide" / "printing.md").read_text("utf-8")
    section = readme[readme.index("**Proxies (for owners of the boxed game).**"):readme.index("- **Boards** larger")]
    short = game_name.split(" (")[0]
    match = re.search(rf"  - \*{re.escape(short)}\*:(.*?)(?=\n  - \*|\Z)", section, re.S)
    return " ".join(match.group(1).split()) if match else ""


@pytest.mark.parametrize("game_id", [g.id for g in real_content().games])
def test_proxies_change_every_game_with_house_cards_or_the_guide_says_why_not(game_id: str) -> None:
    game = content().game(game_id)
    proxied = with_proxies(game)
    if any(c.kind == "cards" and c.proxy for c in game.components):
        look, opts = Look(game, content().icons), Options()
        default = documents.duplex(game, look, opts, CARD_KINDS, "cards")
        stand_ins = documents.duplex(proxied, Look(proxied, content().icons), Options(proxies=True), CARD_KINDS,
                                     "cards")
        assert default != stand_ins, game_id
    without = [c.name for c in game.components if c.proxy is None and _house(c)]
    if without:
        entry = _readme_entry(game.name).lower()
        assert entry, f"the editors' guide gives no reason for {game.name}'s house pieces without stand-ins"
        for name in without:
            assert " ".join(name.split()).lower() in entry, (game.name, name)
