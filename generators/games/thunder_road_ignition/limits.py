"""Thunder Road: Ignition: setups no game reaches (see `Limit`), from the rulebook's components and rules."""

from __future__ import annotations

from generators.rules.refusals import Limit

LIMITS = (
    Limit("cars", "space", {"cars": {"red-small": {"at": "4:c3"}}}),  # the default road's impassable space
    Limit("cars", "space", {"cars": {"red-small": {"at": "2:c3"}, "blue-large": {"at": "2:c3"}}}),
    Limit("hazards", "token", {"hazards": {"1:a3": "road"}}),  # hazard tokens lie on hazard spaces only
    Limit("crews", "count", {"crews": ["red", "blue", "green", "yellow", "red"]}),
    Limit("cars", "count", {"cars": {"red-small": {"at": "1:a3", "damage": ["dent", "dent"]}}}),
)
