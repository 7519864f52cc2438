"""Vampire chase: setups no game reaches (see `Limit`), from the rulebook's components and rules."""

from __future__ import annotations

from generators.rules.refusals import Limit

_RING = ["vehicle", "stake-thrower", None, None, None, None]

LIMITS = (
    Limit("ring", "space", {"ring": ["vehicle", "stake-thrower", "vehicle", None, None, None]}),
    Limit("kills", "space", {"ring": _RING, "kills": [2]}),  # a kill slot is an empty one
    Limit("hand", "token", {"ring": _RING, "hand": ["caspar-hearse-hitch"]}),  # gear cards are never in hand
    Limit("health", "count", {"ring": _RING, "health": 12}),
    Limit("market_row", "count", {"ring": _RING, "market_row": ["ilse-ram-plate", "caspar-rend", "caspar-claw",
                                                                 "ilse-fang-swipe"]}),
)
