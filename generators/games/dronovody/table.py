"""Дроноводи at the table (generators/play/table.py): the round and every player's board (the game is
cooperative and hands are open), and the Trench's shuffle without its order."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from generators.games.dronovody.state import State
from generators.rules.contract import Table
from generators.rules.facts import GameContent

UNSEEN = {"trench": "the Trench is shuffled face down"}


def _names(content: GameContent | None, cards: Sequence[str]) -> str:
    return ", ".join(content.name(c) if content else c for c in cards) or "none"


def panel(state: State, seat: str, content: GameContent | None) -> list[tuple[str, list[str]]]:
    players = [f"{p.name}: {p.logistics} Logistics; hand: {_names(content, p.hand)}; crew: {_names(content, p.crew)}; "
               f"HQ: {_names(content, p.hq)}; drones: {_names(content, [d.card for d in p.warehouse])}; "
               f"trophies: {_names(content, p.trophies)}" for p in state.players.values()]
    return [("Round", [f"round {state.round} of {state.rules.rounds}"]),
            ("The field", [_names(content, state.battlefield)]), ("The Shop", [_names(content, state.shop)]),
            ("Players", players)]


TABLE: Table[Any, Any] = Table(panel=panel, unseen=UNSEEN)
