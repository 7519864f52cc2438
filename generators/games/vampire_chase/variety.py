"""The vampire chase: what varies between whole games, for the balance report."""

from __future__ import annotations

from generators.games.vampire_chase.state import State


def variety(state: State) -> list[tuple[str | None, str, str]]:
    """The Market row at the start (the advanced cards, shuffled)."""
    return [(None, "Market card at the start", card) for card in state.market_row]
