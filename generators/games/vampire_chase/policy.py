"""Vampire chase: hints for players that search (never the rules). `evaluate` rates the solo position;
`resample` deals again what the player cannot see (the order of the face-down decks).

The state stores the order of every face-down deck (scenarios script it, and outcomes show it), so
the game is one of imperfect information: a search must not read those orders, and plays on worlds
`resample` deals consistently with what the player knows (which cards each deck holds, the cards
bought onto a deck's top, the row cycled under the Market Deck, each reserve's boss at the bottom
and the speed range on the back of its top card).
"""

from __future__ import annotations

from itertools import chain
from typing import Any

from generators.games.vampire_chase.state import State
from generators.rules.chance import Chance
from generators.rules.information import seen

WIN, LOSS = 10_000.0, -10_000.0


def evaluate(state: State, player: str) -> float:
    """Higher is better: checkpoints passed, then the chase's progress (enemy Health left on the board
    and in the tier's reserve), Health and Shield, corpses, and the cards bought into the decks; dawn
    closing in weighs the enemies left more."""
    result = state.result
    if result == "won":
        return WIN + state.health
    if result == "lost":
        return LOSS + 100.0 * state.checkpoint - state.turn
    lib = state.lib
    board = 0
    for e in state.ring:
        if e is not None:
            health = e.health
            board += (health if health > 0 else 0) + 2
    mission = lib.missions[state.mission]
    checkpoint = state.checkpoint
    waiting = sum(map(lib.enemy_weights.__getitem__, state.reserves[mission.tiers[checkpoint]]))  # the tier's reserve
    turns_left = max(1, mission.dawn - state.turn + 1)
    checkpoints_left = len(mission.tiers) - checkpoint
    pressure = 1.0 + 6.0 * checkpoints_left / turns_left
    # Whole numbers: summed over every pile at once, the total is the same in any order.
    cost = lib.costs.__getitem__
    decks, discards = state.decks, state.discards
    bought = sum(map(cost, chain(state.hand, decks["driver"], decks["passenger"], discards["driver"],
                                 discards["passenger"], state.tucked)))
    if state.played:
        bought += sum(cost(p.card) for p in state.played)
    gears = 0
    for g in state.gears.values():
        if g is not None:
            gears += cost(g)
    return (1000.0 * (state.checkpoint + state.checkpoint_done)
            - pressure * (3.0 * board + 2.0 * waiting)
            + 12.0 * state.health + 2.0 * state.shield
            + 1.5 * state.corpses + 1.0 * (bought + gears)
            + 0.5 * state.overkills)


def _shuffled_below(cards: tuple[str, ...], keep_top: int, keep_bottom: int, label: str,
                    chance: Chance) -> tuple[str, ...]:
    top, rest = cards[:keep_top], cards[keep_top:]
    cut = max(0, len(rest) - keep_bottom)
    middle, bottom = rest[:cut], rest[cut:]
    return (*top, *chance.shuffle(label, sorted(middle)), *bottom)


def observe(state: State, player: str) -> Any:
    """What the player sees: the state with each face-down order left out, keeping what `resample`
    keeps (the known tops and bottom, each reserve's boss at the bottom, the back of its top card)."""
    enemies = state.lib.enemies
    decks = {role: (deck[:state.known_top[role]], sorted(deck[state.known_top[role]:]))
             for role, deck in state.decks.items()}
    cut = max(0, len(state.market_deck) - state.known_bottom)
    market = (sorted(state.market_deck[:cut]), state.market_deck[cut:])
    reserves = {tier: (sorted(cards), cards[-1] if cards and enemies[cards[-1]].boss else None,
                       enemies[cards[0]].range if cards else None)
                for tier, cards in state.reserves.items()}
    return seen(state, {"decks": decks, "market_deck": market, "reserves": reserves})


def resample(state: State, player: str, chance: Chance) -> State:
    """A copy with every face-down order the player cannot know dealt again by `chance`."""
    new = state.copy()
    new.decks = {role: _shuffled_below(deck, state.known_top[role], 0, f"{role} deck", chance)
                 for role, deck in state.decks.items()}
    new.market_deck = _shuffled_below(state.market_deck, 0, state.known_bottom, "market deck", chance)
    enemies = state.lib.enemies
    reserves: dict[int, tuple[str, ...]] = {}
    for tier, cards in state.reserves.items():
        boss = 1 if cards and enemies[cards[-1]].boss else 0
        dealt = list(_shuffled_below(cards, 0, boss, f"tier {tier} reserve", chance))
        if cards:  # the top card's back (its speed range) is seen: the top stays a card with that back
            seen = enemies[cards[0]].range
            i = next(i for i, c in enumerate(dealt) if enemies[c].range == seen)
            dealt[0], dealt[i] = dealt[i], dealt[0]
        reserves[tier] = tuple(dealt)
    new.reserves = reserves
    return new
