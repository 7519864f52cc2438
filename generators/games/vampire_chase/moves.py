"""Vampire chase: the moves. For each action kind, the concrete actions worth asking about (`options`),
the rules that allow or refuse one (each None when it holds, else why not, in players' words), and
what it does (`resolve`).

The options come in the order the first engine listed them (the simulator's seeded choices replay
the same games). The MARKET action and the reward are in `market`; what every move asks, in `asks`.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from generators.games.vampire_chase.asks import (
    UNSET,
    AskS,
    Why,
    hand_cards,
    in_hand,
    move_gear,
    play_gear,
)
from generators.games.vampire_chase.effects import (
    available,
    card_targets,
    play_limit,
)
from generators.games.vampire_chase.facts import ENHANCE_COST, GEARS, HAND_SIZE, SLOTS
from generators.games.vampire_chase.market import MARKET_MOVES
from generators.games.vampire_chase.resolve import (
    do_discard,
    do_draw,
    do_end_turn,
    do_keep,
    do_move,
    do_play,
    do_shift,
    do_tuck,
    resolver,
)
from generators.games.vampire_chase.specs import (
    DiscardAction,
    DrawAction,
    EndTurnAction,
    KeepAction,
    MoveAction,
    PlayAction,
    ShiftAction,
    TuckAction,
)
from generators.games.vampire_chase.speed import reachable_speeds
from generators.games.vampire_chase.state import State, move_destinations
from generators.rules.contract import Move
from generators.rules.wording import listed

# Actions are frozen records, equal by value: each one offered is made once and then shared (making a
# frozen dataclass costs more than all the rules that judge it).
_shift = cache(ShiftAction)
_draw = cache(DrawAction)
_play_action = cache(PlayAction)
_tuck = cache(TuckAction)
_move_to = cache(MoveAction)
_end = cache(EndTurnAction)
_discard = cache(DiscardAction)
_KEEP = KeepAction("keep")


def _shift_options(ask: AskS, player: str) -> list[ShiftAction]:
    return [_shift("shift", g) for g in GEARS]


def _shift_moves_on(ask: AskS, a: ShiftAction) -> Why:
    s = ask.state
    if s.turn > 1 and a.gear == s.shifter:
        return (f"the Gear-Shifter covered {a.gear.upper()} last turn, and it cannot stay on the same gear two "
                "turns in a row")
    return None


def _draw_total(ask: AskS) -> tuple[int, int, int, int]:
    """Cards wanted (up to a hand of 5), cards each vampire has (deck and discard), and cards drawn."""
    found = ask.memo.get("draw")
    if found is None:
        state = ask.state
        need = max(0, HAND_SIZE - len(state.hand))
        d, p = available(state, "driver"), available(state, "passenger")
        found = ask.memo["draw"] = (need, d, p, min(need, d + p))
    return found


def _draw_options(ask: AskS, player: str) -> list[DrawAction]:
    _, d, p, total = _draw_total(ask)
    return [_draw("draw", a, total - a) for a in range(total + 1) if a <= d and total - a <= p]


def _draw_up_to_five(ask: AskS, a: DrawAction) -> Why:
    s = ask.state
    need, d, p, total = _draw_total(ask)
    if a.driver + a.passenger == total:
        return None
    if need == 0:
        return f"the hand already holds {len(s.hand)} cards (5 or more): draw nothing"
    if d + p < need:
        return (f"draw {total} cards in all: the two vampires' decks and discard piles hold only {d + p}, "
                f"short of a hand of {HAND_SIZE}")
    return f"draw {need} card{'s' if need != 1 else ''} in all, until the hand holds {HAND_SIZE}"


def _draw_from_what_is_there(ask: AskS, a: DrawAction) -> Why:
    _, d, p, _ = _draw_total(ask)
    for role, n, have in (("driver", a.driver, d), ("passenger", a.passenger, p)):
        if n > have:
            return (f"draw no more from a vampire than its deck and discard hold: the {role.title()}'s hold "
                    f"{have} card{'s' if have != 1 else ''}, not {n}")
    return None


# --- PLAY ----------------------------------------------------------------------------------------


def _can_play_more(state: State) -> Why:
    if state.tucked:
        return "cards are being tucked: once a card is tucked, no more cards are played this turn"
    limit = play_limit(state)
    if len(state.played) >= limit:
        return f"{limit} cards are played already, the most a turn allows: tuck more for their speed"
    return None


def _targets(ask: AskS, card: str, enhance: bool) -> list[int | None]:
    """The card's target choices (`card_targets`), asked once per card and once per way of aiming."""
    memo = ask.memo
    key = (card, enhance)
    known = memo.get(key)
    if known is not None:
        return known
    aim = ask.state.lib.aims[key]
    found: list[int | None]
    if aim is None:
        found = _UNTARGETED
    else:
        found = memo.get(aim) or card_targets(ask.state, card, enhance)
        memo[aim] = found
    memo[key] = found
    return found


_UNTARGETED: list[int | None] = [None]


def _play_options(ask: AskS, player: str) -> list[PlayAction]:
    s = ask.state
    if _play_open(ask, None):
        return []
    out: list[PlayAction] = []
    cards = s.lib.vampire_cards
    can_bury = s.corpses >= ENHANCE_COST
    for card in hand_cards(ask):
        for t in _targets(ask, card, False):
            out.append(_play_action("play", card, False, t))
        if can_bury and cards[card].enhance:
            for t in _targets(ask, card, True):
                out.append(_play_action("play", card, True, t))
    return out


def _play_open(ask: AskS, a: PlayAction | None) -> Why:
    memo = ask.memo
    found = memo.get("play more", UNSET)
    if found is not UNSET:
        return found
    why = memo["play more"] = play_gear(ask, a) or _can_play_more(ask.state)
    return why

def _as_played(ask: AskS, a: PlayAction) -> Why:
    """The card from the hand, its Enhance and its target (one rule: every option is judged by all three;
    the common case, a card in hand played plainly at a target it may choose, is answered here)."""
    if a.card in ask.state.hand and not a.enhance and a.target in _targets(ask, a.card, False):
        return None
    return in_hand(ask, a) or _enhance(ask, a) or _target(ask, a)


def _enhance(ask: AskS, a: PlayAction) -> Why:
    if not a.enhance:
        return None
    s = ask.state
    if not s.lib.vampire_cards[a.card].enhance:
        return f"{s.title(a.card)} has no Enhance section"
    if s.corpses < ENHANCE_COST:
        return "Enhance needs a corpse to bury, and the Corpse Pile is empty"
    return None


def _target(ask: AskS, a: PlayAction) -> Why:
    s = ask.state
    choices = _targets(ask, a.card, a.enhance)
    if a.target in choices:
        return None
    title = s.title(a.card)
    slots = [t for t in choices if t is not None]
    if not slots:
        facts = s.lib.vampire_cards[a.card]
        if any(e.targeted for e in (*facts.effects, *(facts.enhance if a.enhance else ()))):
            return f"nothing is in reach of {title} now: play it without a target"
        return f"{title} has no targeted effect: play it without a target"
    if a.target is None:
        return f"{title} needs a target: slot {listed(slots)}"
    return f"{title} cannot target slot {a.target}: it may target slot {listed(slots)}"


def _tuck_options(ask: AskS, player: str) -> list[TuckAction]:
    s = ask.state
    if play_gear(ask, None) or not s.played:
        return []
    return [_tuck("tuck", c) for c in hand_cards(ask)]


def _tuck_after_play(ask: AskS, a: TuckAction) -> Why:
    return None if ask.state.played else "play a card before tucking one: tucked cards go under played ones"


# --- MOVE ----------------------------------------------------------------------------------------


def _reach(ask: AskS) -> list[int]:
    return ask.cached("reach", lambda: move_destinations(ask.state))


def _move_options(ask: AskS, player: str) -> list[MoveAction]:
    if move_gear(ask, None):
        return []
    return [_move_to("move", s) for s in _reach(ask)]


def _move_reach(ask: AskS, a: MoveAction) -> Why:
    s = ask.state
    if a.to not in SLOTS:
        return f"the Chase Board has slots 1 to {len(SLOTS)}: there is no slot {a.to}"
    if a.to == s.vehicle:
        return f"the vehicle is in slot {a.to} already: a move goes forward or back"
    if a.to not in _reach(ask):
        return (f"the vehicle cannot reach slot {a.to}: it moves only through empty slots, and entering an "
                "enemy's slot ends the move")
    return None


# --- End of Turn ---------------------------------------------------------------------------------


def _speeds(ask: AskS) -> list[int]:
    memo = ask.memo
    found = memo.get("speeds", UNSET)
    if found is not UNSET:
        return found
    s = ask.state
    cards = s.lib.vampire_cards
    values = [cards[c].speed for c in [*(p.card for p in s.played), *s.tucked]]
    speeds = memo["speeds"] = reachable_speeds(values, s.speed_bonus)
    return speeds


def _end_options(ask: AskS, player: str) -> list[EndTurnAction]:
    if ask.state.played:
        return [_end("end_turn", v) for v in _speeds(ask)]
    return [_end("end_turn", None)]


def _speed_named(ask: AskS, a: EndTurnAction) -> Why:
    # ruling: speed-total-chosen
    if not ask.state.played:
        if a.speed is None:
            return None
        return "no card was played this turn, so there is no speed check: end the turn without a speed"
    speeds = _speeds(ask)
    if a.speed is None:
        return f"cards were played, so the speed check follows: name the speed total ({listed(speeds)})"
    if a.speed in speeds:
        return None
    return f"the played and tucked cards cannot make speed {a.speed}: they make {listed(speeds)}"


def _discard_options(ask: AskS, player: str) -> list[DiscardAction]:
    return [_discard("discard", c) for c in hand_cards(ask)]


def _keep_options(ask: AskS, player: str) -> list[KeepAction]:
    return [_KEEP]


def _hand_within_limit(ask: AskS, a: KeepAction) -> Why:
    # ruling: hand-limit (no limit while drawing in your turn; down to 5 at cleanup)
    n = len(ask.state.hand)
    return None if n <= HAND_SIZE else f"the hand holds {n} cards: discard down to {HAND_SIZE} first"


# --- the table -----------------------------------------------------------------------------------

# Each move's functions take its own action class (the contract picks the move by `do:`). `options_meet`: the
# first rules every option meets by how its options are made (the gear open, a card in hand, a
# target it may choose, a speed the cards make), so listing does not ask them again.
MOVES: dict[str, Move[State, Any]] = {
    "shift": Move("shift gears", _shift_options, (_shift_moves_on,), resolver(do_shift)),
    "draw": Move("draw cards", _draw_options, (_draw_from_what_is_there, _draw_up_to_five),
                 resolver(do_draw), options_meet=2),
    "play": Move("play a card", _play_options, (_play_open, _as_played), resolver(do_play), options_meet=2),
    "tuck": Move("tuck a card", _tuck_options, (play_gear, _tuck_after_play, in_hand),
                 resolver(do_tuck), options_meet=3),
    "move": Move("move the vehicle", _move_options, (move_gear, _move_reach), resolver(do_move), options_meet=2),
    **MARKET_MOVES,
    "end_turn": Move("end the turn", _end_options, (_speed_named,), resolver(do_end_turn), options_meet=1),
    "discard": Move("discard a card", _discard_options, (in_hand,), resolver(do_discard), options_meet=1),
    "keep": Move("keep the hand", _keep_options, (_hand_within_limit,), resolver(do_keep)),
}
