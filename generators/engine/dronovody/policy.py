"""Дроноводи: hints for players that look ahead or search (never the rules). `evaluate` rates the
team's position (the game is cooperative: every player shares one rating); `resample` deals again what
the players cannot see.

Hidden information: the Trench lies face down, so which Character a Trench hit takes is unknown to the
players, though the state records the order (a scenario sets it). The decks' middles are drawn by
chance when they are drawn, so their order is never stored; a scenario's known deck tops are known
only to the scenario, not to players, so they go back into the shuffled middle too.
"""

from __future__ import annotations

from generators.engine.chance import Chance
from generators.engine.dronovody.abilities import points
from generators.engine.dronovody.facts import PROJECTS_PER_PLAYER, WOUNDED_LIMIT
from generators.engine.dronovody.state import State

WIN, LOSS = 10_000.0, -10_000.0
# The search leans on the rating's one-step order as its prior over moves (PUCT): a turn is many small
# moves whose worth shows only rounds later, and without the prior the search strayed from the
# look-ahead's good moves on a few noisy simulations (3 players, 60 simulations a move: 21 of 40 games
# won against the look-ahead's 16 of 40, inside the noise).
PRIORS = 1.0


def evaluate(state: State, player: str) -> float:
    """Higher is better for the whole team: a win, then the margin from defeat (the Trench, the worst
    wounded count), the rounds survived, the Projects towards Technologies, trophies and Logistics,
    and the enemies left on the field."""
    if state.result == "won":
        return WIN + max(points(state, p) for p in state.players.values())
    if state.result == "lost":
        return LOSS + 100.0 * state.round
    n = len(state.seats)
    cat = state.cat
    threats = cat.threats
    # One pass over the boards (whole numbers, so the totals are those of a sum in any order).
    worst = assets = activated = 0
    for p in state.players.values():
        wounded = len(p.wounded)
        if wounded > worst:
            worst = wounded
        assets += p.logistics + 2 * len(p.warehouse)
        for d in p.warehouse:
            if d.broken:
                assets -= 2
        for t in p.trophies:
            assets += threats[t].trophy
        for pr in p.projects:
            if pr.active:
                activated += 1
    trench = len(state.trench)
    field = 0
    for c in state.battlefield:
        field += threats[c].trophy + 1
    projects = activated / (PROJECTS_PER_PLAYER * n)
    return (60.0 * state.round
            + 25.0 * min(trench, 2 * n) - 40.0 * (trench <= 1)
            - 30.0 * worst - 80.0 * (worst >= WOUNDED_LIMIT - 1)
            + 300.0 * projects ** 2
            + 1.0 * assets
            - 1.5 * field)


def resample(state: State, player: str, chance: Chance) -> State:
    """A copy with the Trench's order and the decks' known tops dealt again by `chance`."""
    new = state.copy()
    new.trench = chance.shuffle("trench", sorted(state.trench))
    decks = {}
    for name, deck in state.decks.items():
        decks[name] = deck.evolve(top=[], pool=tuple(sorted([*deck.pool, *deck.top]))) if deck.top else deck
    new.decks = decks
    return new
