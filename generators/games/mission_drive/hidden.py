"""Mission: Drive: what the hero cannot see. The movement deck and the mission deck lie face down:
the player knows which cards each still holds (every card of the deck is either in it, on the
dashboard or in the discard pile, all face up), never their order. `observe` is the state with those
orders left out; `resample` deals them again by chance, from what is seen alone."""

from __future__ import annotations

from typing import Any

from generators.games.mission_drive.facts import Card
from generators.games.mission_drive.state import State
from generators.rules.chance import Chance
from generators.rules.information import seen


def _order(card: Card) -> tuple[str, tuple[str, ...]]:
    return card.kind, card.arrows


def observe(state: State, player: str) -> Any:
    return seen(state, {"deck": sorted(state.deck, key=_order), "mission_deck": sorted(state.mission_deck)})


def resample(state: State, player: str, chance: Chance) -> State:
    """A copy with both face-down decks shuffled again (from their sorted cards, so the deal depends
    on what the player sees and `chance` alone)."""
    new = state.clone()
    new.deck = chance.shuffle("movement deck", sorted(state.deck, key=_order))
    new.mission_deck = chance.shuffle("mission deck", sorted(state.mission_deck))
    return new
