"""Mission: Drive: setups no game reaches (see `Limit`), from the rulebook's components and rules."""

from __future__ import annotations

from typing import Any

from generators.rules.refusals import Limit

_HAND: dict[str, Any] = {"dashboard": {"left": ["left"], "center": ["forward"], "right": ["right"]},
                         "deck": [["forward"]]}

LIMITS = (
    Limit("uplinks", "token", {"mission": 2, "enemies": [{"type": "car", "at": [4, 10]}], "uplinks": [[2, 2]],
                               **_HAND}),
    Limit("uplinks", "token", {"mission": 1, "enemies": [{"type": "car", "at": [4, 10]}], "uplinks": [[2, 8]],
                               **_HAND}),
    Limit("enemies", "space", {"enemies": [{"type": "car", "at": [2, 0]}], **_HAND}),  # on the hero's space
    Limit("enemies", "count", {"enemies": [{"type": "car", "at": [c, r]} for c in range(5) for r in range(4, 12)],
                               **_HAND}),
    Limit("hero", "count", {"hero": {"health": 99}, "enemies": [{"type": "car", "at": [4, 10]}], **_HAND}),
)
