"""Дроноводи at the table (generators/play/table.py): the round and every player's board (the game is
cooperative and hands are open), and the Trench's shuffle without its order."""

from __future__ import annotations

from typing import Any

from generators.games.dronovody.state import State
from generators.rules.contract import Table, named_cards
from generators.rules.facts import GameContent

UNSEEN = {"trench": "the Trench is shuffled face down"}


def panel(state: State, seat: str, content: GameContent | None) -> list[tuple[str, list[str]]]:
    players = [f"{p.name}: {p.logistics} Logistics; hand: {named_cards(content, p.hand)}; "
               f"crew: {named_cards(content, p.crew)}; HQ: {named_cards(content, p.hq)}; "
               f"drones: {named_cards(content, [d.card for d in p.warehouse])}; "
               f"trophies: {named_cards(content, p.trophies)}" for p in state.players.values()]
    return [("Round", [f"round {state.round} of {state.rules.rounds}"]),
            ("The field", [named_cards(content, state.battlefield)]), ("The Shop", [named_cards(content, state.shop)]),
            ("Players", players)]


TABLE: Table[Any, Any] = Table(panel=panel, unseen=UNSEEN)
