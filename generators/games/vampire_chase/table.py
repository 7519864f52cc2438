"""The vampire chase at the table (generators/play/table.py): the hand and tracks the player looks at, the
shuffled decks worded without their order, and a Market Row cycled in any order offered once (which
card goes under first changes nothing the player can act on before the deck runs through)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from generators.games.vampire_chase.speed import chase_range
from generators.games.vampire_chase.state import State
from generators.rules.contract import Table
from generators.rules.facts import GameContent

UNSEEN = {"driver deck": "the Driver's deck is shuffled face down",
          "passenger deck": "the Passenger's deck is shuffled face down",
          "market deck": "the Market Deck is shuffled face down",
          **{f"tier {t} reserve": f"the tier {t} reserve is shuffled face down" for t in (1, 2, 3)}}


def _names(content: GameContent | None, cards: Sequence[str]) -> str:
    return ", ".join(content.name(c) if content else c for c in cards) or "none"


def panel(state: State, seat: str, content: GameContent | None) -> list[tuple[str, list[str]]]:
    mission = state.lib.missions[state.mission]
    dawn, tiers = mission.dawn, len(mission.tiers)
    return [
        ("Your hand", [_names(content, state.hand)]),
        ("Tracks", [f"turn {state.turn} (dawn after turn {dawn}), checkpoint {state.checkpoint + 1} of {tiers}",
                    "the chase's speed range {}–{}".format(*chase_range(state)), f"Health {state.health}, "
                    f"Shield {state.shield}, corpses {state.corpses}",
                    f"played this turn: {_names(content, [p.card for p in state.played])}"]),
        ("Market Row", [_names(content, state.market_row)]),
        ("Decks", [f"{role}'s deck: {len(deck)} face down; discard: {_names(content, state.discards[role])}"
                   for role, deck in state.decks.items()]),
    ]


def same(state: State, action: Any) -> Any:
    return ("cycle", tuple(sorted(action.order))) if action.do == "cycle" else action


TABLE: Table[Any, Any] = Table(panel=panel, same=same, unseen=UNSEEN)
