"""A game's quick reference data (`content/<game>/quick-reference.yaml`): what a player needs first.

    turn: [round, turn-steps]   rules entries whose first list, in order, is a turn (default: the
                                first entry after setup that lists steps)
    cards:                      the page: short answers in the kit's own words, in the book's order,
      - title: Setup            each naming the rule it restates; whole sentences with their numbers
        rule: setup
        text: Markdown (links as #entry-id; `[our ruling](#note-id)` marks a ruling of ours;
              `:house:` a house design)

The site reads it (it shapes one page, not the game), with located errors like every content file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from generators.content.model import LoadedGame
from generators.content.schema import convert
from generators.content.yaml_io import load_yaml

FILE = "quick-reference.yaml"


@dataclass(frozen=True)
class QuickCard:
    title: str = field(metadata={"doc": "What it answers (Setup, Your turn, Win and loss)."})
    text: str = field(metadata={"doc": "The answer: short Markdown in the kit's own words."})
    rule: str | None = field(default=None, metadata={"doc": "The rules entry it restates (linked)."})


@dataclass(frozen=True)
class QuickReference:
    turn: tuple[str, ...] = field(default=(), metadata={"doc": "Rules entries whose first lists are a turn, in order."})
    cards: tuple[QuickCard, ...] = field(default=(), metadata={"doc": "Answers shown after the turn.", "max_items": 40})


def load_quick(game: LoadedGame, folder: str = "") -> QuickReference:
    """The game's quick reference data, or an empty one when it has no file; `folder`: a translation's
    (its language), whose entries are the same ids."""
    path = Path(game.dir) / folder / FILE
    if not path.is_file():
        return QuickReference()
    doc = load_yaml(path)
    quick = convert(doc, QuickReference)
    rules = {r.id for r in game.rules}
    known = ", ".join(sorted(rules))
    for i, rule_id in enumerate(quick.turn):
        if rule_id not in rules:
            raise doc.error(("turn", i), f"expected a rules entry id (entries: {known}), got {rule_id!r}")
    for i, card in enumerate(quick.cards):
        if card.rule is not None and card.rule not in rules:
            raise doc.error(("cards", i, "rule"), f"expected a rules entry id (entries: {known}), got {card.rule!r}")
    return quick
