"""Escape Deathrace 2182 Micro: how play moves on by itself. A turn's beginning (smoke and fire clear,
a landmine goes off) and end (the next car still in the race, the round limit), and what settles after
every action (rewards that lapse, a blocked card movement, the end of the race)."""

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
from generators.rules.contract import Event


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
