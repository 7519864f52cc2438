"""Escape Deathrace at the table (generators/play/table.py): which character each seat drives, the seat's own
power cards (the others' only by number), and the face-down stacks' shuffles without their order."""

from __future__ import annotations

from typing import Any

from generators.games.escape_deathrace.state import State
from generators.rules.contract import Table
from generators.rules.facts import GameContent

UNSEEN = {"road tiles": "the road tiles are shuffled face down",
          "power deck": "the power deck is shuffled face down",
          "event deck": "the event deck is shuffled face down",
          "power cards": "the power cards are shuffled and dealt face down"}


def seats(state: State, content: GameContent | None) -> dict[str, str]:
    return {seat: state.box.characters[p.character].title for seat, p in state.players.items()}


def panel(state: State, seat: str, content: GameContent | None) -> list[tuple[str, list[str]]]:
    mine = state.players.get(seat)
    lines = []
    for p in state.players.values():
        drops = ", ".join(f"{n} {kind}" for kind, n in p.drops.items() if n) or "no drops"
        held = ", ".join(content.name(c) if content else c for c in p.power) if p is mine else \
            f"{len(p.power)} power card(s), face down"
        who = state.box.characters[p.character].title
        lines.append(f"{p.name} ({who}): {p.hp} HP, {drops}; {held or 'no power cards'}")
    return [("You are", [f"{seat}, driving {seats(state, content).get(seat, seat)}"] if mine else []),
            ("Drivers", lines)]


TABLE: Table[Any, Any] = Table(panel=panel, seats=seats, unseen=UNSEEN)
