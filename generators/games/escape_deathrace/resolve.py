"""Escape Deathrace 2182 Micro: each action applied to the state's one copy (its rules already allow it)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from generators.games.escape_deathrace.drops import _gift_pile
from generators.games.escape_deathrace.facts import (
    BOSS_DROP_DAMAGE,
    DIRS,
    FIRST_STRIKE,
    GUNFIRE_BY_DISTANCE,
    dealt,
    extra_space,
    first_strike_cancelled,
    hazard_roll,
    strikes,
)
from generators.games.escape_deathrace.harm import (
    _draw_power,
    _graveyard_add,
    _hurt,
    _hurt_boss,
    _player_killed,
    _roll,
)
from generators.games.escape_deathrace.race import (
    _battle_strike,
    _drive,
    _effect_now,
    _first_strike,
    _open_move,
    _pass_hazard,
    _resolve_event,
    _run_battle,
    _strike_boss,
    _strike_car,
)
from generators.games.escape_deathrace.road import (
    _boss_alive,
    _distances,
    _next_tile,
    _nitro_ahead,
    _open_spots,
    _others_on,
    _place,
    _subs_dead,
    _tile_of,
    connected,
)
from generators.games.escape_deathrace.specs import (
    Attack,
    BossBattle,
    ChooseTarget,
    CollectDrop,
    DiscardDrop,
    Draw,
    DrawPower,
    DrawTile,
    Drive,
    EndTurn,
    HazardAttempt,
    LayTile,
    NitroDraw,
    PickDrop,
    PlayPower,
    Strike,
    TradePower,
    UseDrop,
)
from generators.games.escape_deathrace.state import BoardDrop, Player, State, Tile, copied
from generators.games.escape_deathrace.turns import _end_turn, _settle
from generators.rules.chance import Chance
from generators.rules.contract import Event


def _do_pick_drop(s: State, p: Player, a: PickDrop, chance: Chance, events: list[Event]) -> None:
    p.drops[a.kind] += 1
    s.draft = s.draft[1:]
    events.append(Event("drop-picked", {"player": p.name, "kind": a.kind}))


def _do_draw(s: State, p: Player, a: Draw, chance: Chance, events: list[Event]) -> None:
    roll = _roll(chance, "movement", events, p.name)
    t = s.turn
    t.allowance = t.lay_allowance = roll + extra_space(p.abilities)
    t.phase = "drawn"
    events.append(Event("movement-draw", {"player": p.name, "roll": roll, "allowance": t.allowance}))


def _do_draw_tile(s: State, p: Player, a: DrawTile, chance: Chance, events: list[Event]) -> None:
    face = _next_tile(s, chance)
    s.turn.tile_in_hand = face
    s.turn.laid += 1
    events.append(Event("tile-drawn", {"player": p.name, "face": face, "kind": s.box.tiles[face].kind}))


def _do_lay_tile(s: State, p: Player, a: LayTile, chance: Chance, events: list[Event]) -> None:
    face = s.turn.tile_in_hand
    assert face is not None
    x, y = a.at
    sources = _open_spots(s)[(x, y)]
    src = next(t for t in sources if t.id == a.source) if a.source else sources[0]
    _place(s, face, x, y, src, a.arrow, events)
    s.turn.tile_in_hand = None


def _do_drive(s: State, p: Player, a: Drive, chance: Chance, events: list[Event]) -> None:
    t = s.turn
    by_card, card = t.extra_move, s.event_active
    t.extra_move = None
    if by_card is None:
        t.phase = "moved"
    start = _tile_of(s, p)
    _drive(s, p, a.path, chance, events)
    if by_card == "event" and p.alive and s.event_active == card and card is not None:
        _resolve_event(s, p, chance, events)  # the card's movement was the last of it
    if p.alive and s.event_active is None and s.battle is None and t.extra_move is None:
        prev = s.tiles[a.path[-2]] if len(a.path) > 1 else start
        t.nitro_open = _nitro_ahead(s, p, prev, s.tiles[a.path[-1]]) is not None


def _do_nitro_draw(s: State, p: Player, a: NitroDraw, chance: Chance, events: list[Event]) -> None:
    """Landing on a nitro-nos tile at the end of the road: draw a tile ahead and move onto it."""
    here = _tile_of(s, p)
    assert here.arrow is not None
    s.turn.nitro_open = False
    x, y = here.x + DIRS[here.arrow][0], here.y + DIRS[here.arrow][1]
    face = _next_tile(s, chance)
    events.append(Event("tile-drawn", {"player": p.name, "face": face, "kind": s.box.tiles[face].kind}))
    tile = _place(s, face, x, y, here, None, events)
    if tile.kind == "final-boss" and not _subs_dead(s):
        events.append(Event("nitro-stopped", {"player": p.name, "reason": "the final boss tile waits for the "
                                                                          "sub-bosses"}))
        return
    if connected(here, tile):
        _drive(s, p, [tile.id], chance, events)


def _do_hazard_attempt(s: State, p: Player, a: HazardAttempt, chance: Chance, events: list[Event]) -> None:
    tile = _tile_of(s, p)
    t = s.turn
    t.phase, t.hazard_tried = "moved", True
    assert p.hazard_side is not None
    roll = _roll(chance, "hazard", events, p.name)
    passed, damage = hazard_roll(roll)
    events.append(Event("hazard", {"player": p.name, "roll": roll, "result": "pass" if passed else "fail"}))
    _hurt(s, p, damage, "hazard", None, events)
    if p.alive and passed:
        _pass_hazard(s, p, tile, chance, events)


def _do_boss_battle(s: State, p: Player, a: BossBattle, chance: Chance, events: list[Event]) -> None:
    """The sequence opens with the boss's -3 first strike, unless smoke or Shooter cancel it."""
    tile = _tile_of(s, p)
    if a.smoke:  # the smoke is this sequence's one weapon drop
        p.drops["smoke"] -= 1
        _graveyard_add(s, "smoke")
        s.turn.drop_used = True
        events.append(Event("drop-used", {"player": p.name, "kind": "smoke", "count": 1, "on": tile.boss}))
    s.turn.phase = "boss"
    s.turn.strikes_left = strikes(p.abilities)
    reason = first_strike_cancelled(p.abilities, a.smoke)
    if reason:
        events.append(Event("first-strike-cancelled", {"player": p.name, "reason": reason}))
    else:
        events.append(Event("first-strike", {"by": tile.boss, "target": p.name}))
        _hurt(s, p, FIRST_STRIKE, "first-strike", tile.boss, events)


def _do_attack(s: State, p: Player, a: Attack, chance: Chance, events: list[Event]) -> None:
    """The sequence's D4 action: every strike at the boss, or one strike at a player on the dead final tile."""
    tile = _tile_of(s, p)
    t = s.turn
    if a.target is None:
        while t.strikes_left and _boss_alive(s, tile) and p.alive:
            t.strikes_left -= 1
            _strike_boss(s, p, tile, chance, events)
        t.strikes_left = 0
        return
    t.strikes_left -= 1
    _strike_car(s, p, s.players[a.target], tile, chance, events)


def _do_strike(s: State, p: Player, a: Strike, chance: Chance, events: list[Event]) -> None:
    _battle_strike(s, p, s.players[a.target], chance, events)
    _run_battle(s, chance, events)


def _do_choose_target(s: State, p: Player, a: ChooseTarget, chance: Chance, events: list[Event]) -> None:
    s.turn.choosing_target = False
    events.append(Event("targeted", {"by": p.name, "target": a.target}))
    _first_strike(s, s.players[a.target], p, events)


def _do_use_drop(s: State, p: Player, a: UseDrop, chance: Chance, events: list[Event]) -> None:
    tile = _tile_of(s, p)
    s.turn.drop_used = True
    p.drops[a.kind] -= a.count
    if _boss_alive(s, tile):
        _graveyard_add(s, a.kind, a.count)
        events.append(Event("drop-used", {"player": p.name, "kind": a.kind, "count": a.count, "on": tile.boss}))
        for _ in range(a.count):
            if _boss_alive(s, tile):
                _hurt_boss(s, tile, dealt(p.abilities, BOSS_DROP_DAMAGE, "boss"), p.name, events, source=a.kind)
    elif tile.kind == "final-boss":
        _drop_on_final(s, p, tile, a, events)
    elif a.kind == "gunfire":
        _gunfire(s, p, s.players[a.target or ""], events)
    else:
        spots = [p.tile or ""] if a.kind == "smoke" else list(a.tiles) or [a.tile or ""]
        for tid in spots:
            on = tuple(q.name for q in _others_on(s, tid, p.name)) if a.kind == "landmine" else ()
            s.board = [*s.board, BoardDrop(a.kind, tid, p.name, on)]
            events.append(Event("drop-placed", {"player": p.name, "kind": a.kind, "tile": tid, "on": list(on)}))


def _drop_on_final(s: State, p: Player, tile: Tile, a: UseDrop, events: list[Event]) -> None:
    """On the dead final tile drops hit players for -3; smoke keeps you from being targeted."""
    if a.kind == "smoke":
        s.shielded = [*s.shielded, p.name]
        events.append(Event("drop-used", {"player": p.name, "kind": "smoke", "count": 1, "on": p.name}))
        return
    targets = list(a.targets) or [a.target or ""]
    _graveyard_add(s, a.kind, a.count)
    events.append(Event("drop-used", {"player": p.name, "kind": a.kind, "count": a.count, "on": targets}))
    source = "fire-drop" if a.kind == "fire" else a.kind
    for name in targets:
        target = s.players[name]
        if target.alive:
            _hurt(s, target, dealt(p.abilities, BOSS_DROP_DAMAGE, "boss"), source, p.name, events)
            if not target.alive:
                _player_killed(s, p, tile, events)


def _gunfire(s: State, p: Player, target: Player, events: list[Event]) -> None:
    gap = _distances(s, _tile_of(s, p).id)[_tile_of(s, target).id]
    _graveyard_add(s, "gunfire")
    events.append(Event("drop-used", {"player": p.name, "kind": "gunfire", "count": 1, "on": target.name,
                                      "distance": gap}))
    _hurt(s, target, dealt(p.abilities, GUNFIRE_BY_DISTANCE[gap], "gunfire"), "gunfire", p.name, events)


def _do_play_power(s: State, p: Player, a: PlayPower, chance: Chance, events: list[Event]) -> None:
    """The card goes face up on the discard pile, then does what its face says."""
    p.power.remove(a.card)
    s.power_discard = [*s.power_discard, a.card]
    s.turn.power_used = True
    events.append(Event("power-card-played", {"player": p.name, "card": a.card}))
    effect = s.box.effects[a.card]
    _effect_now(s, p, effect, chance, events, a.target, a.tile, a.kind)
    if effect.move and p.alive:
        _open_move(s, p, effect, "power", chance, events)


def _do_trade_power(s: State, p: Player, a: TradePower, chance: Chance, events: list[Event]) -> None:
    """Trade one card for the top of the deck or the face-up discard; the card traded in goes face up."""
    _draw_power(s, p, a.take, chance, events)
    p.power.remove(a.card)
    s.power_discard = [*s.power_discard, a.card]
    s.turn.power_used = True
    events.append(Event("power-card-traded", {"player": p.name, "card": a.card}))


def _do_draw_power(s: State, p: Player, a: DrawPower, chance: Chance, events: list[Event]) -> None:
    s.rewards = s.rewards[1:]
    _draw_power(s, p, a.take, chance, events)


def _do_collect_drop(s: State, p: Player, a: CollectDrop, chance: Chance, events: list[Event]) -> None:
    what, s.rewards = s.rewards[0][0], s.rewards[1:]
    pile = _gift_pile(s, what)
    used = pile is s.graveyard
    if used:
        left = s.graveyard[a.kind] - 1
        s.graveyard = {k: n for k, n in s.graveyard.items() if k != a.kind}
        if left:
            s.graveyard[a.kind] = left
    p.drops[a.kind] += 1
    events.append(Event("drop-collected", {"player": p.name, "kind": a.kind, "from": "used" if used else "supply"}))


def _do_discard_drop(s: State, p: Player, a: DiscardDrop, chance: Chance, events: list[Event]) -> None:
    s.rewards = s.rewards[1:]
    p.drops[a.kind] -= 1
    _graveyard_add(s, a.kind)
    events.append(Event("drop-discarded", {"player": p.name, "kind": a.kind}))


def _do_end_turn(s: State, p: Player, a: EndTurn, chance: Chance, events: list[Event]) -> None:
    _end_turn(s, p, chance, events)


Handler = Callable[[State, Player, Any, Chance, list[Event]], None]


def resolver(handler: Handler) -> Callable[[State, Any, Chance], tuple[State, list[Event]]]:
    """`handler` applied to one copy of the state, then whatever settles after every action."""
    def resolve(state: State, action: Any, chance: Chance) -> tuple[State, list[Event]]:
        s = copied(state)
        s.turn.nitro_open = False  # a nitro-nos draw is open only right after the drive that earned it
        events: list[Event] = []
        handler(s, s.players[action.player], action, chance, events)
        _settle(s, chance, events)
        return s, events
    return resolve
