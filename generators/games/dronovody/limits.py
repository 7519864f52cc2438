"""Дроноводи: setups no game reaches (see `Limit`), from the rulebook's components and rules."""

from __future__ import annotations

from typing import Any

from generators.rules.refusals import Limit

_TRENCH = ["sapper", "medic"]


def _olena(**board: Any) -> dict[str, Any]:
    """One player, Olena, with a Support card to play and `board` on her board."""
    return {"players": [{"name": "Olena", "hand": ["donations"], **board}], "trench": _TRENCH}


LIMITS = (
    Limit("players", "count", {"players": [{"name": n, "hand": ["donations"]} for n in "ABCDE"], "trench": _TRENCH}),
    Limit("players", "count", _olena(warehouse=["mavic", "fury", "valkyrie", "fpv-kit"])),  # a Warehouse of 3
    Limit("players", "count", _olena(wounded=["blogger", "engineer", "psychologist", "commander"])),
    Limit("field", "space", {**_olena(), "field": ["paperwork"]}),  # Mishaps are dealt, never on the field
    Limit("players", "token", _olena(trophies=["paperwork"])),  # a Mishap is never a trophy
    Limit("players", "token", _olena(defence=["bunker", "bunker"])),  # no two identical Defence cards
)
