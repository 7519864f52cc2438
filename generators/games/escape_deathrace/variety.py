"""Escape Deathrace: what varies between whole games, for the balance report."""

from __future__ import annotations

from generators.games.escape_deathrace.state import State


def variety(s: State) -> list[tuple[str | None, str, str]]:
    """Each seat's character (the rulebook's characters, dealt at random)."""
    return [(seat, "character", s.box.characters[p.character].title) for seat, p in s.players.items()]
