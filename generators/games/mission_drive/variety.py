"""Mission: Drive: what varies between whole games, for the balance report."""

from __future__ import annotations

from generators.games.mission_drive.state import State


def variety(s: State) -> list[tuple[str | None, str, str]]:
    """The upgrades on offer at the start and the first mission's two cards (shuffled decks)."""
    return [*((None, "upgrade offered at the start", u.id) for u in s.offer),
            *((None, "first mission card", card) for card, _ in s.mission_cards)]
