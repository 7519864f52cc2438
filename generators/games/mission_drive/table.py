"""Mission: Drive at the table (generators/play/table.py): the dashboard, upgrades and points the hero looks
at, and the face-down decks' shuffles worded without their order."""

from __future__ import annotations

from typing import Any

from generators.games.mission_drive.facts import LASER_PENALTY, START_FORWARD_LIMIT, UPGRADES_REVEALED, Card
from generators.games.mission_drive.state import State
from generators.games.mission_drive.words import marks, place
from generators.rules.contract import Table
from generators.rules.facts import GameContent

# The upgrade deck's top six are turned face up (the offer, shown in the panel); the rest go back to
# the box unseen (Setting Up a Mission), so the shuffle's order is not told either.
UNSEEN = {"movement deck": "the movement cards are shuffled face down",
          "mission deck": "the mission cards are shuffled face down",
          "upgrade deck": f"the upgrade cards are shuffled; the top {UPGRADES_REVEALED} are turned face up "
                          "and the rest go back to the box unseen"}


def _name(content: GameContent | None, key: str) -> str:
    return content.name(key) if content else key


def _card(card: Card | None) -> str:
    if card is None:
        return "empty"
    return f"Hero Card {marks(card.arrows)}" if card.kind == "hero" else f"{card.kind.capitalize()} Card"


def _where(state: State, at: tuple[int, int]) -> str:
    return place(state, at).replace("the space ", "", 1)


def _points(n: int) -> str:
    return f"{n} point{'' if n == 1 else 's'}"


def _charges(spaces: int) -> str:
    if not spaces:
        return "no charge spaces (one use: the card is discarded)"
    return f"holds up to {spaces} charge{'' if spaces == 1 else 's'} (installed with none)"


def _spending(state: State) -> list[str]:
    """What points buy (Repairs and Upgrades), with the points to spend now in the upgrade step."""
    now = [f"{_points(state.points)} to spend now; what is not spent is lost"] if state.phase == "upgrades" else []
    forward = [f"a space of head start: 1 point each (at most {START_FORWARD_LIMIT}; only after the third mission, "
               f"{state.start_forward} bought)"] if state.variant == "standard" else []
    laser = [f"the satellite laser strike was used: {_points(LASER_PENALTY)} less in each upgrade step"] \
        if state.laser_used else []
    return [*now, f"health: 1 point each (health {state.health}, full at {state.max_health})",
            "a charge on an installed upgrade: 1 point each", "an upgrade on offer: its cost, below", *forward, *laser]


def panel(state: State, seat: str, content: GameContent | None) -> list[tuple[str, list[str]]]:
    cards = [f"{slot}: {_card(card)}" for slot, card in state.slots.items()]
    return [
        ("Dashboard", cards),
        ("Tracks", [f"mission {state.mission}, {state.difficulty}", f"health {state.health} of {state.max_health}",
                    f"points {state.points}", f"movement deck: {len(state.deck)} cards face down, "
                    f"{len(state.discard)} discarded"]),
        ("Points buy", _spending(state)),
        ("Upgrades", [f"{_name(content, u.id)}: {u.charges} of {u.charge_spaces} charges" if u.charge_spaces
                      else f"{_name(content, u.id)}: one use" for u in state.upgrades]
         or ["none"]),
        ("On offer", [f"{_name(content, u.id)}: costs {_points(u.cost)}, {_charges(u.charge_spaces)}"
                      for u in state.offer] or ["none"]),
        ("On the road", [f"{v.side} {v.type}{' (damaged)' if v.damaged else ''}: {_where(state, v.at)}"
                         for v in state.vehicles] or ["no other vehicle"]),
    ]


TABLE: Table[Any, Any] = Table(panel=panel, unseen=UNSEEN)
