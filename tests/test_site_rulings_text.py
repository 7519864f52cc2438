"""What the rules pages and rulings tell players: contradictions shown both ways, no claims about the
publisher or the game's history that the rulebooks do not make, house names marked as house."""

from __future__ import annotations

import re
from pathlib import Path

from generators.content.loader import load_content
from generators.site.rulings import parse

ROOT = Path(__file__).resolve().parent.parent
CONTENT = load_content(ROOT / "content")
GAMES = {g.id: g for g in CONTENT.games}
BOOKS = ROOT.parent / "shared" / "rulebooks"
QUOTE = re.compile(r'"([^"]{12,})"')


def _flat(text: str) -> str:
    return " ".join(text.replace("\u2014", "-").split()).casefold()


def _rulebook(game) -> str:
    return _flat((BOOKS / game.game.rulebook).read_text(encoding="utf-8"))


def _rule(game, rule_id: str) -> str:
    return next(r.body for r in game.rules if r.id == rule_id)


# --- 1. the vampire chase's hand limit: two texts, both shown ------------------------------------

def test_hand_limit_is_a_table_choice_quoting_both_texts() -> None:
    game = GAMES["vampire-chase"]
    ruling = parse(next(n for n in game.notes.notes if n.id == "hand-limit"))
    assert ruling.two_texts and ruling.play and ruling.other
    quotes = QUOTE.findall(ruling.book or "")
    assert any("no hand limit" in q for q in quotes) and any("down to 5" in q for q in quotes), quotes
    book = _rulebook(game)
    for q in quotes:  # the book's words as printed, not a paraphrase in quotation marks
        assert _flat(q) in book, q
    # The other reading plays what the first text says: it must not bring back a limit.
    assert "no hand limit" in ruling.other.casefold()


def test_hand_limit_rules_do_not_reconcile_the_texts_silently() -> None:
    game = GAMES["vampire-chase"]
    draw, cleanup = _rule(game, "draw-hand"), _rule(game, "hand-management")
    assert not re.search(r"no hand limit\W*\s+during", draw, re.I), "draw-hand narrows the book's text"
    for body in (draw, cleanup):
        flat = _flat(body)
        assert "no hand limit" in flat and "down to" in flat and "disagree" in flat
