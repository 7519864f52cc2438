"""The vampire chase at the table (generators/play/table.py): the hand and tracks the player looks at, the
shuffled decks worded without their order, and a Market Row cycled offered in parts: the cycle, then
the order its cards go under the Market Deck, a card at a time (the order is the player's: it decides
which comes back first when the deck runs through)."""

from __future__ import annotations

from typing import Any

from generators.games.vampire_chase.speed import chase_range
from generators.games.vampire_chase.state import State
from generators.rules.contract import Table, named_cards
from generators.rules.facts import GameContent

UNSEEN = {"driver deck": "the Driver's deck is shuffled face down",
          "passenger deck": "the Passenger's deck is shuffled face down",
          "market deck": "the Market Deck is shuffled face down",
          **{f"tier {t} reserve": f"the tier {t} reserve is shuffled face down" for t in (1, 2, 3)}}


def panel(state: State, seat: str, content: GameContent | None) -> list[tuple[str, list[str]]]:
    mission = state.lib.missions[state.mission]
    dawn, tiers = mission.dawn, len(mission.tiers)
    return [
        ("Your hand", [named_cards(content, state.hand)]),
        ("Tracks", [f"turn {state.turn} (dawn after turn {dawn}), checkpoint {state.checkpoint + 1} of {tiers}",
                    "the chase's speed range {}–{}".format(*chase_range(state)), f"Health {state.health}, "
                    f"Shield {state.shield}, corpses {state.corpses}",
                    f"played this turn: {named_cards(content, [p.card for p in state.played])}"]),
        ("Market Row", [named_cards(content, state.market_row)]),
        ("Decks", [f"{role.capitalize()}'s deck: {len(deck)} face down; discard: "
                   f"{named_cards(content, state.discards[role])}" for role, deck in state.decks.items()]),
    ]


CYCLE = "MARKET: cycle the row (then choose the order its cards go under the Market Deck)"


def parts(state: State, action: Any, content: GameContent | None) -> tuple[str, ...]:
    """A Market Row cycled (Player Turn · 3. Action: "in any order"): the cycle, then the card put
    under the Market Deck first (the first of them drawn again), then the next, the last at the very
    bottom; so a row of three is one choice, then three, then two, not six orderings at once."""
    if action.do != "cycle" or len(action.order) < 2:
        return ()
    names = [content.name(c) if content else c for c in action.order]
    first = f"{names[0]} under the Market Deck first (the first of them drawn again)"
    if len(names) == 2:
        return CYCLE, f"{first}, and {names[1]} at the very bottom"
    return (CYCLE, first, *(f"then {n}" for n in names[1:-2]), f"then {names[-2]}, and {names[-1]} at the very bottom")


TABLE: Table[Any, Any] = Table(panel=panel, parts=parts, unseen=UNSEEN)
