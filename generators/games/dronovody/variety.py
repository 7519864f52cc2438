"""Дроноводи: what varies between whole games, for the balance report."""

from __future__ import annotations

from generators.games.dronovody.state import State


def variety(s: State) -> list[tuple[str | None, str, str]]:
    """The Drone Shop and the Trench at the start, and each player's dealt Support cards."""
    return [*((None, "drone in the shop at the start", d) for d in s.shop),
            *((None, "character in the Trench", c) for c in s.trench),
            *((seat, "Support card dealt", c) for seat in s.seats for c in [*s.p(seat).dealt, *s.p(seat).hand])]
