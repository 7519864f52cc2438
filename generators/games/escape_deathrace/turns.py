"""Escape Deathrace 2182 Micro: turns. Who acts, the steps of play as data (the moves each allows and
how players name it), a turn's beginning and end, and what settles after every action."""

from __future__ import annotations

from collections.abc import Sequence

from generators.games.escape_deathrace.drops import supply_left
from generators.games.escape_deathrace.facts import landmine_hit, strikes
from generators.games.escape_deathrace.harm import check_end, draw_power, graveyard_add, hurt, roll_d4, without
from generators.games.escape_deathrace.race import resolve_event
from generators.games.escape_deathrace.road import (
    boss_alive,
    lay_options,
    legal_paths,
    open_spots,
    tiles_left,
    turn_order_from,
)
from generators.games.escape_deathrace.state import Player, State, Turn
from generators.rules.chance import Chance
from generators.rules.contract import Event, Phase

# ---------------------------------------------------------------------------------------------
# Turns


# ruling: boss-sequence-each-turn
def set_phase_for_position(s: State, p: Player, phase: str) -> None:
    tile = s.tiles[p.tile] if p.tile else None
    if tile is not None and boss_alive(s, tile):
        s.turn.phase = "boss-pending"
    elif tile is not None and tile.kind == "final-boss":
        s.turn.phase = "boss"
        s.turn.strikes_left = strikes(p.abilities)
    else:
        s.turn.phase = phase


def _next_seat(s: State, name: str) -> tuple[str, list[str]]:
    """The next car still in the race, and the seats of destroyed cars passed on the way."""
    ring = [*turn_order_from(s, name)[1:], name]
    passed: list[str] = []
    for n in ring:
        if s.players[n].alive:
            return n, passed
        passed.append(n)
    return name, passed


# ruling: endless-roaming
def end_turn(s: State, p: Player, chance: Chance, events: list[Event]) -> None:
    p.last_moved = tuple(s.turn.moved_over)
    nxt, passed = _next_seat(s, p.name)
    if s.order.index(nxt) <= s.order.index(p.name):
        s.round += 1
        limit = s.rules.get("round_limit")
        if limit is not None and s.round > limit:
            s.ended = "portal-closed"
            events.append(Event("race-over", {"result": "nobody", "reason": f"the portal closed after {limit} rounds"}))
            return
    _begin_turn(s, s.players[nxt], passed, chance, events)


# ruling: timed-drops-of-destroyed-cars
def _begin_turn(s: State, p: Player, passed: Sequence[str], chance: Chance, events: list[Event]) -> None:
    """Your smoke and fire clear (and those of destroyed cars whose seat was passed); a landmine dropped
    on you goes off."""
    s.turn = Turn(p.name, "start", [p.tile] if p.tile else [])
    events.append(Event("turn", {"player": p.name, "round": s.round}))
    owners = {p.name, *passed}
    for drop in [d for d in s.board if d.owner in owners and d.kind in ("smoke", "fire")]:
        s.board = without(s.board, drop)
        graveyard_add(s, drop.kind)
        events.append(Event("drop-expired", {"kind": drop.kind, "tile": drop.tile, "owner": drop.owner}))
    if p.name in s.shielded:
        s.shielded = without(s.shielded, p.name)
        graveyard_add(s, "smoke")
        events.append(Event("drop-expired", {"kind": "smoke", "tile": p.tile, "owner": p.name}))
    # ruling: landmine-several-cars (the first of them to start a turn sets it off)
    for drop in [d for d in s.board if d.kind == "landmine" and p.name in d.on and d.tile == p.tile]:
        s.board = without(s.board, drop)
        graveyard_add(s, "landmine")
        events.append(Event("landmine-detonated", {"tile": drop.tile, "player": p.name}))
        hurt(s, p, landmine_hit(roll_d4(chance, "landmine", events, p.name)), "landmine", drop.owner, events)
        if not p.alive:
            return
    set_phase_for_position(s, p, "start")


def settle(s: State, chance: Chance, events: list[Event]) -> None:
    """After every action: rewards and card gifts nobody can take lapse (they never block the game), a power
    card with only one pile to come from is drawn at once, a card's movement with nowhere to go ends its card,
    and the race ends when it is over."""
    if s.turn.phase == "draft" and (not s.draft or not any(supply_left(s).values())):
        s.draft = []  # every car holds its drops, or the supply ran out: the first turn begins
        _begin_turn(s, s.players[s.turn.player], (), chance, events)
    while True:
        _settle_rewards(s, chance, events)
        if s.rewards or s.ended is not None or not _move_blocked(s):
            break
        p = s.players[s.turn.player]
        events.append(Event("card-move-blocked", {"player": p.name, "card": s.event_active}))
        s.turn.extra_move = None
        if s.event_active is not None:
            resolve_event(s, p, chance, events)
    check_end(s, events)


def _settle_rewards(s: State, chance: Chance, events: list[Event]) -> None:
    while s.rewards:
        what, name = s.rewards[0]
        p = s.players[name]
        why = _lapses(s, what, p)
        if not p.alive:
            s.rewards = s.rewards[1:]
        elif why:
            s.rewards = s.rewards[1:]
            reward = "drop" if what == "supply" else what
            events.append(Event("reward-lapsed", {"player": name, "reward": reward, "reason": why}))
        elif what == "power" and not s.power_discard:
            s.rewards = s.rewards[1:]
            draw_power(s, p, "deck", chance, events)
        else:
            break


# ruling: rewards-when-the-graveyard-runs-out
def _lapses(s: State, what: str, p: Player) -> str | None:
    """Why a reward or card gift cannot be taken (None if it can)."""
    if what == "drop" and not s.graveyard:
        return "no used drop left"
    if what == "supply" and not s.graveyard and not any(supply_left(s).values()):
        return "no drop left in the supply or the used pile"
    if what == "power" and not s.power_deck and not s.power_discard:
        return "no power card left"
    if what == "discard" and not any(p.drops.values()):
        return "no weapon drop to give up"
    return None


def can_move(s: State, p: Player) -> bool:
    """The open movement (a draw's, or a card's) can go on: a tile to lay, a tile to draw, or a path."""
    t = s.turn
    if t.tile_in_hand is not None:
        return bool(lay_options(s, p, t.tile_in_hand))
    if t.laid < t.lay_allowance and tiles_left(s) and open_spots(s):
        return True
    return bool(legal_paths(s, p, t.allowance))


def _move_blocked(s: State) -> bool:
    """A card's movement is open but the car can neither drive nor lay a road tile."""
    t = s.turn
    if t.extra_move is None or s.battle is not None or t.choosing_target:
        return False
    p = s.players[t.player]
    return p.alive and not can_move(s, p)


# ---------------------------------------------------------------------------------------------
# Who acts, and the steps of play as data

TURN_MOVES = ("draw", "hazard_attempt", "nitro_draw", "attack", "use_drop", "play_power", "trade_power",
              "end_turn", "drive", "draw_tile", "lay_tile")
MOVEMENT_MOVES = ("draw_tile", "lay_tile", "drive", "end_turn")

def _stay_on_boss_tile(s: State) -> str:
    """A car on a live boss's tile stays there (and on the final tile for good)."""
    p = s.players[s.turn.player]
    here = s.tiles[p.tile] if p.tile else None
    if here is not None and here.kind == "final-boss":
        return "once on the final boss tile a car cannot move off it (Final Boss)"
    return "a car cannot move off a boss's tile until that boss is defeated (Boss Battle)"


_OFF_THE_TILE = ("draw", "draw_tile", "lay_tile", "drive", "nitro_draw", "hazard_attempt")

PHASES: dict[str, Phase] = {p.id: p for p in (
    Phase("draft", "the weapon drop picks of Setup", ("pick_drop",),
          rule="the weapon drops are picked in Setup, before the first turn (Setup)"),
    Phase("reward", "a reward being taken (a boss's, a kill's or a card's gift)",
          ("draw_power", "collect_drop", "discard_drop"),
          rule="a reward is taken as it is won, before play goes on (Landing on Road Tiles)"),
    Phase("battle", "a battle-it-out between three or more cars", ("strike",),
          rule="a battle-it-out is fought first: each car on the tile picks one car to attack (Battle-It-Out)"),
    Phase("target", "a newcomer's arrival on the final tile", ("choose_target",),
          rule="a third or fourth car to land on the final tile once the boss is dead targets a player at once "
               "(Final Boss)"),
    Phase("boss-pending", "the start of a boss battle sequence", ("boss_battle",),
          rule="the boss battle sequence begins first, and the boss always gets first strike (Boss Battle)",
          says=dict.fromkeys(_OFF_THE_TILE, _stay_on_boss_tile)),
    Phase("drawn", "the movement: laying road tiles and driving", MOVEMENT_MOVES),
    Phase("card-move", "a card's movement", MOVEMENT_MOVES),
    Phase("turn", "a turn", TURN_MOVES),
    Phase("over", "the end of the turn, with nothing left to do but end it", ("end_turn",)),
    Phase("race-over", "the end of the race", ()),
)}

# When each move is taken, by the rule that says so: the refusal of a move out of its moment.
MOMENTS: dict[str, str] = {
    "pick_drop": "weapon drops are picked in Setup, before the first turn (Setup)",
    "draw": "the movement card is drawn once a turn, at its start (Taking a Turn)",
    "draw_tile": "road tiles are drawn one at a time after the movement draw, as many as it shows (Taking a Turn)",
    "lay_tile": "a drawn road tile is laid after the movement draw, before the car drives (Taking a Turn)",
    "drive": "a car drives after the movement draw, up to as many road tiles as it shows (Taking a Turn)",
    "nitro_draw": "a nitro-nos draw comes when a car lands on a nitro-nos tile along its arrows with an empty "
                  "space ahead (Landing on Road Tiles)",
    "hazard_attempt": "a hazard is tried by a car stopped at its start, once a turn (Hazard Road Tiles)",
    "boss_battle": "a boss battle sequence begins when a car lands on a live boss's tile, or starts its turn "
                   "there (Boss Battle)",
    "attack": "a car attacks in its boss battle sequence, or at another car on the final tile once the final "
              "boss is dead (Boss Battle)",
    "strike": "strikes are picked in a battle-it-out of three or more cars on one tile (Battle-It-Out)",
    "choose_target": "a car picks its target as it lands third or fourth on the final tile once the boss is "
                     "dead (Final Boss)",
    "use_drop": "a weapon drop is used once a turn, before or after the movement, never in the middle (Taking "
                "a Turn)",
    "play_power": "a power card is played once a turn, before or after the movement, never in the middle "
                  "(Taking a Turn)",
    "trade_power": "a power card is traded in on a turn no power card is played, before or after the movement "
                   "(Taking a Turn)",
    "draw_power": "a power card is drawn as a reward, when a boss or a car is defeated or a card gives one "
                  "(Landing on Road Tiles)",
    "collect_drop": "a used weapon drop is collected as a reward, when a boss or a car is defeated or a card "
                    "gives one (Landing on Road Tiles)",
    "discard_drop": "a weapon drop is given up when a card takes one of yours, as the card is played (Taking a "
                    "Turn)",
    "end_turn": "the turn ends once its movement is done or left out, never in its middle (Taking a Turn)",
}


def actor(s: State) -> str | None:
    """The one player whose decision the game waits for (None when the race is over)."""
    if s.ended is not None:
        return None
    if s.turn.phase == "draft":
        return s.draft[0]
    if s.rewards:
        return s.rewards[0][1]
    if s.battle is not None:
        return s.battle.queue[0][0]
    return s.turn.player


def actors(s: State) -> tuple[str, ...]:
    who = actor(s)
    return () if who is None else (who,)


def phase_of(s: State) -> str:
    t = s.turn
    if s.ended is not None:
        return "race-over"
    if t.phase == "draft":
        return "draft"
    if s.rewards:
        return "reward"
    if s.battle is not None:
        return "battle"
    if t.phase == "over":
        return "over"
    if t.choosing_target:
        return "target"
    if t.extra_move is not None:
        return "card-move"
    if t.phase in ("boss-pending", "drawn"):
        return t.phase
    return "turn"
