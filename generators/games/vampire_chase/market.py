"""Vampire chase: the MARKET action (buy, trash, cycle) and the Checkpoint Bonus Reward, which takes a
card from the Market Row as a purchase does: their options and rules (what they do is in `resolve`)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import cache
from typing import Any

from generators.games.vampire_chase.asks import (
    AskS,
    Why,
    begin,
    distinct,
    hand_cards,
    in_hand,
    market_gear,
)
from generators.games.vampire_chase.resolve import do_buy, do_cycle, do_reward, do_trash, resolver
from generators.games.vampire_chase.specs import BuyAction, CycleAction, RewardAction, TrashAction
from generators.games.vampire_chase.state import State
from generators.rules.chance import Chance
from generators.rules.contract import Move
from generators.rules.wording import listed

# Offered actions are made once and shared (see `moves`).
_buy = cache(BuyAction)
_trash = cache(TrashAction)
_reward = cache(RewardAction)


@cache
def _orders(row: tuple[str, ...]) -> tuple[CycleAction, ...]:
    """Every order a Market Row can go under the deck in (the same row always gives the same orders)."""
    return tuple(CycleAction("cycle", p) for p in sorted(set(itertools.permutations(row))))


# --- MARKET --------------------------------------------------------------------------------------


def _gear_corpses(state: State, gear: str) -> int:
    """Corpses a gear gives as its action begins (so a purchase can count on them)."""
    card = state.gears[gear]
    if card is None or gear in state.done:
        return 0
    return sum(e.amount for e in state.lib.vampire_cards[card].effects if e.do == "corpse")


def _buy_options(ask: AskS, player: str) -> list[BuyAction]:
    s = ask.state
    if market_gear(ask, None):
        return []
    corpses = s.corpses + _gear_corpses(s, "market")
    return [_buy("buy", c) for c in distinct(s.market_row) if s.lib.vampire_cards[c].cost <= corpses]


def _in_row(ask: AskS, a: Any) -> Why:
    s = ask.state
    return None if a.card in s.market_row else f"{s.title(a.card)} is not in the Market Row"


def _affordable(ask: AskS, a: BuyAction) -> Why:
    s = ask.state
    cost = s.lib.vampire_cards[a.card].cost
    corpses = s.corpses + _gear_corpses(s, "market")
    if cost <= corpses:
        return None
    return (f"{s.title(a.card)} costs {cost} corpse{'s' if cost != 1 else ''} to bury; "
            f"the Corpse Pile holds {corpses}")


def _discarded(state: State) -> list[str]:
    return [*state.discards["driver"], *state.discards["passenger"]]


def _after_gear(ask: AskS) -> State:
    """The state once MARKET has begun: a card on the MARKET gear acts first (it may draw, and a draw
    may shuffle a discard pile into the deck), so what can be trashed is what is left after it."""
    s = ask.state
    if "market" in s.done or s.gears["market"] is None:
        return s
    found = ask.memo.get("after market gear")
    if found is None:
        found = ask.memo["after market gear"] = s.copy()
        # which cards leave a pile does not depend on the draw's order: any seed tells it
        begin(found, "market", Chance.seeded(0), [])
    return found


def _trash_options(ask: AskS, player: str) -> list[TrashAction]:
    s = ask.state
    if market_gear(ask, None):
        return []
    after = _discarded(_after_gear(ask))
    return [*(_trash("trash", c, "hand") for c in hand_cards(ask)),
            *(_trash("trash", c, "discard") for c in distinct(_discarded(s)) if c in after)]


def _in_pile(ask: AskS, a: TrashAction) -> Why:
    s = ask.state
    if a.pile == "hand":
        return in_hand(ask, a)
    d = s.discards
    if a.card not in d["driver"] and a.card not in d["passenger"]:
        return f"{s.title(a.card)} is in neither vampire's discard pile"
    if a.card not in _discarded(_after_gear(ask)):
        return (f"the card on the MARKET gear acts first and takes {s.title(a.card)} out of the discard "
                "pile, so it cannot be trashed from there")
    return None


def _cycle_options(ask: AskS, player: str) -> Sequence[CycleAction]:
    s = ask.state
    if market_gear(ask, None) or not s.market_row:
        return []
    return _orders(s.market_row)


def _whole_row(ask: AskS, a: CycleAction) -> Why:
    s = ask.state
    if not s.market_row:
        return "the Market Row is empty: there is nothing to cycle"
    if sorted(a.order) != ask.cached("row", lambda: sorted(s.market_row)):
        return ("cycling puts all the Market Row's cards under the Market Deck, each once: "
                f"{listed((s.title(c) for c in s.market_row), 'and')}")
    return None


# --- Checkpoint Bonus Reward and Hand Management -------------------------------------------------


def _reward_options(ask: AskS, player: str) -> list[RewardAction]:
    return [_reward("reward", c) for c in distinct(ask.state.market_row)]


# `options_meet`: the rules every option meets by how it is made (see `moves`).
MARKET_MOVES: dict[str, Move[State, Any]] = {
    "buy": Move("buy a card", _buy_options, (market_gear, _in_row, _affordable), resolver(do_buy), options_meet=3),
    "trash": Move("trash a card", _trash_options, (market_gear, _in_pile), resolver(do_trash), options_meet=2),
    "cycle": Move("cycle the market", _cycle_options, (market_gear, _whole_row), resolver(do_cycle), options_meet=2),
    "reward": Move("take a reward card", _reward_options, (_in_row,), resolver(do_reward), options_meet=1),
}
