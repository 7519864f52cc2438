"""Escape Deathrace 2182 Micro: setups no game reaches (see `Limit`), from the rulebook's components and
rules."""

from __future__ import annotations

from typing import Any

from generators.rules.refusals import Limit

_ROAD: list[dict[str, Any]] = [{"id": "s", "kind": "start", "at": [0, 0]},
                               {"id": "t1", "kind": "straight", "at": [1, 0]},
                               {"id": "z1", "kind": "omg-zilla-1", "at": [2, 0]},
                               {"id": "h", "kind": "final-boss", "at": [3, 0], "exits": "W"}]
_PLAYERS: list[dict[str, Any]] = [{"name": "X", "character": "mista", "at": "t1"},
                                  {"name": "Y", "character": "gooday", "at": "s"}]

LIMITS = (
    # the final boss tile, while OMG-ZILLA #1 still lives (Final Boss)
    Limit("players", "space", {"players": [{"name": "X", "character": "mista", "at": "h"}, _PLAYERS[1]],
                               "road": _ROAD, "tile_stack": []}),
    Limit("board", "token", {"players": _PLAYERS, "road": _ROAD, "tile_stack": [],
                             "board": [{"kind": "landmine", "tile": "s", "owner": "X"}]}),  # the start tile (Q&A 1)
    Limit("players", "count", {"players": [{"name": "X", "character": "mista", "at": "t1", "hp": 25}, _PLAYERS[1]],
                               "road": _ROAD, "tile_stack": []}),
    Limit("event_deck", "count", {"players": _PLAYERS, "road": _ROAD, "tile_stack": [],
                                  "event_deck": ["roll-again"] * 3}),  # the box holds 2
)
