"""Vampire chase: what each action does. `resolver` applies an action to one copy of the state (its
parts are immutable: replaced, never changed); each `do_<kind>` is one action kind's part of that, the
market's included. The rules that allow or refuse an action are in `moves` and `market`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from generators.games.vampire_chase.asks import begin
from generators.games.vampire_chase.effects import (
    apply_effects,
    draw_cards,
    gear_effects,
    move_vehicle,
    sweep,
)
from generators.games.vampire_chase.facts import ENHANCE_COST, MARKET_ROW
from generators.games.vampire_chase.flow import (
    all_defeated,
    begin_next_turn,
    chase_activation,
    check_speed,
    checkpoint_passed,
    cleanup,
    next_checkpoint,
)
from generators.games.vampire_chase.specs import (
    BuyAction,
    CycleAction,
    DiscardAction,
    DrawAction,
    EndTurnAction,
    KeepAction,
    MoveAction,
    PlayAction,
    RewardAction,
    ShiftAction,
    TrashAction,
    TuckAction,
)
from generators.games.vampire_chase.state import Played, State, with_pile, without
from generators.rules.chance import Chance
from generators.rules.contract import Event


def do_shift(state: State, a: ShiftAction, chance: Chance, events: list[Event]) -> None:
    state.shifter = a.gear
    state.phase = "draw"
    events.append(Event("shift", {"blocked": a.gear, "open": state.open_gears}))


def do_draw(state: State, a: DrawAction, chance: Chance, events: list[Event]) -> None:
    draw_cards(state, "driver", a.driver, chance, events)
    draw_cards(state, "passenger", a.passenger, chance, events)
    state.phase = "actions"


def do_play(state: State, a: PlayAction, chance: Chance, events: list[Event]) -> None:
    begin(state, "play", chance, events)  # ruling: play-and-tuck (playing a card takes the PLAY action)
    if state.result:
        return
    facts = state.lib.vampire_cards[a.card]
    state.hand = without(state.hand, a.card)
    state.played = (*state.played, Played(a.card, a.enhance))
    role = state.role_of(a.card)
    events.append(Event("played", {"card": a.card, "enhanced": a.enhance, "target": a.target}))
    apply_effects(state, facts.effects, a.target, role, chance, events)
    if a.enhance and not state.result:
        state.corpses -= ENHANCE_COST
        state.buried += ENHANCE_COST
        apply_effects(state, facts.enhance, a.target, role, chance, events)
    if not state.result:
        sweep(state, events)  # ruling: one-target-per-card (an enemy below 1 stays until the card resolved)


def do_tuck(state: State, a: TuckAction, chance: Chance, events: list[Event]) -> None:
    state.hand = without(state.hand, a.card)
    state.tucked = (*state.tucked, a.card)
    events.append(Event("tucked", {"card": a.card}))


def do_move(state: State, a: MoveAction, chance: Chance, events: list[Event]) -> None:
    begin(state, "move", chance, events)
    move_vehicle(state, a.to, events)
    if not state.result:
        gear_effects(state, "move", chance, events)


def do_end_turn(state: State, a: EndTurnAction, chance: Chance, events: list[Event]) -> None:
    if not state.played:  # no PLAY action: back to the player turn
        events.append(Event("no_chase", {}))
        begin_next_turn(state, events)
        return
    if all_defeated(state):
        checkpoint_passed(state, events)
        return
    assert a.speed is not None
    check_speed(state, a.speed, events)
    if not state.result:
        chase_activation(state, events)
    if state.result:
        return
    if all_defeated(state):
        checkpoint_passed(state, events)
        return
    cleanup(state, events)


def do_discard(state: State, a: DiscardAction, chance: Chance, events: list[Event]) -> None:
    state.hand = without(state.hand, a.card)
    role = state.role_of(a.card)
    state.discards = with_pile(state.discards, role, (*state.discards[role], a.card))
    events.append(Event("discarded", {"card": a.card}))


def do_keep(state: State, a: KeepAction, chance: Chance, events: list[Event]) -> None:
    state.shield = 0
    if state.checkpoint_done:
        next_checkpoint(state, events)
    begin_next_turn(state, events)


def resolver(handler: Callable[[State, Any, Chance, list[Event]], None]) -> Callable[..., tuple[State, list[Event]]]:
    """`handler` applied to one copy of the state (its parts are immutable: replaced, never changed)."""
    def resolve(state: State, action: Any, chance: Chance) -> tuple[State, list[Event]]:
        new = state.copy()
        events: list[Event] = []
        handler(new, action, chance, events)
        return new, events
    return resolve


def _acquire(state: State, card: str, events: list[Event]) -> None:
    """A market card joins you: ability cards on top of their vampire's deck, gear cards onto the Gear Board."""
    facts = state.lib.vampire_cards[card]
    row = state.market_row
    place = row.index(card)
    if state.market_deck:  # refill the emptied place from the top of the Market Deck
        state.market_row = (*row[:place], state.market_deck[0], *row[place + 1:])
        state.market_deck = state.market_deck[1:]
        state.known_bottom = min(state.known_bottom, len(state.market_deck))
    else:
        state.market_row = row[:place] + row[place + 1:]
    if facts.kind == "gear":
        assert facts.gear is not None
        old = state.gears[facts.gear]
        if old is not None:
            state.graveyard = (*state.graveyard, old)  # ruling: gear-cards
        state.gears = {**state.gears, facts.gear: card}
    else:
        role = state.role_of(card)
        state.decks = with_pile(state.decks, role, (card, *state.decks[role]))
        state.known_top = {**state.known_top, role: state.known_top[role] + 1}
    state.bump("cards_gained")
    events.append(Event("acquired", {"card": card, "to": facts.gear or state.role_of(card)}))


def do_buy(state: State, a: BuyAction, chance: Chance, events: list[Event]) -> None:
    begin(state, "market", chance, events)
    cost = state.lib.vampire_cards[a.card].cost
    state.corpses -= cost
    state.buried += cost
    _acquire(state, a.card, events)


def do_trash(state: State, a: TrashAction, chance: Chance, events: list[Event]) -> None:
    begin(state, "market", chance, events)
    if a.pile == "hand":
        state.hand = without(state.hand, a.card)
    else:
        role = state.role_of(a.card)
        state.discards = with_pile(state.discards, role, without(state.discards[role], a.card))
    state.graveyard = (*state.graveyard, a.card)
    events.append(Event("trashed", {"card": a.card, "from": a.pile}))


def do_cycle(state: State, a: CycleAction, chance: Chance, events: list[Event]) -> None:
    begin(state, "market", chance, events)
    deck = (*state.market_deck, *a.order)
    n = min(MARKET_ROW, len(deck))
    state.market_row, state.market_deck = deck[:n], deck[n:]
    state.known_bottom = min(state.known_bottom + len(a.order), len(state.market_deck))
    events.append(Event("cycled", {"row": list(state.market_row)}))


def do_reward(state: State, a: RewardAction, chance: Chance, events: list[Event]) -> None:
    _acquire(state, a.card, events)
    state.phase = "hand"
