"""What the rules pages and rulings tell players: contradictions shown both ways, no claims about the
publisher or the game's history that the rulebooks do not make, house names marked as house."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

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


# --- 2. no invented facts about the publisher or the game's history -----------------------------

# Claims about where a rule came from, what its makers meant or how the game changed: the rulebooks
# make none, so player text must not either (outside the book's own words in quotation marks).
HISTORY = (
    "earlier gauge", "earlier edition", "earlier version", "earlier printing", "earlier draft",
    "older version", "old version", "previous edition", "previous version", "first edition",
    "second edition", "new edition", "later edition", "later printing", "reprint", "print run",
    "the designer", "the designers", "the game's designer", "the publisher intended",
    "the publisher meant", "the publisher changed", "the publisher forgot", "the authors intended",
    "the authors meant", "the author intended", "the author meant", "designers intended",
    "was renamed", "were renamed", "was changed from", "used to be", "used to say", "originally",
    "the original game", "in the original", "carried over from", "a leftover", "a relic of",
    "official errata", "official faq", "kickstarter", "playtest",
)
PLAYER_TEXT = ("notes.yaml", "game.yaml", "glossary.yaml", "rules/*.md", "examples/*.yaml", "components/*.yaml")


def history_claims(text: str, book: str) -> list[str]:
    """The history phrases in `text`, once the rulebook's own quoted words are set aside."""
    unquoted = QUOTE.sub(lambda m: " " if _flat(m.group(1)) in book else m.group(0), text)
    flat = _flat(unquoted)
    return [p for p in HISTORY if re.search(rf"(?<!\w){re.escape(p)}(?!\w)", flat)]


def test_history_phrases_are_found_but_not_in_the_books_own_words() -> None:
    book = _flat('The rulebook said "an earlier gauge was green" once.')
    assert history_claims("It was drawn on an earlier gauge coloured green.", book) == ["earlier gauge"]
    assert history_claims('The book: "an earlier gauge was green".', book) == []
    assert history_claims("The words are a leftover.", book) == ["a leftover"]
    assert history_claims("Leftover drop tokens wait beside their card.", book) == []
    assert history_claims("movement left over from the draw; ours, not the publisher's", book) == []


# Found in a file being ported on another branch right now (append-only here): fixed at the merge.
PENDING = {("mission-drive", "notes.yaml"): "device-card: 'the words are a leftover'"}


@pytest.mark.parametrize("game_id,kind", [
    pytest.param(g, k, marks=pytest.mark.xfail(strict=True, reason=PENDING[(g, k)]) if (g, k) in PENDING else ())
    for g in sorted(GAMES) for k in PLAYER_TEXT])
def test_player_text_makes_no_claim_about_the_publisher_or_history(game_id: str, kind: str) -> None:
    game = GAMES[game_id]
    book = _rulebook(game)
    found = {}
    for path in sorted((ROOT / "content" / game_id).glob(kind)):
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".yaml":  # authors' comments are not player text; Markdown's # is a heading
            text = "\n".join(ln for ln in text.splitlines() if not ln.lstrip().startswith("#"))
        claims = history_claims(text, book)
        if claims:
            found[path.name] = claims
    assert not found, f"{game_id}: history or publisher claims the rulebook does not make: {found}"
