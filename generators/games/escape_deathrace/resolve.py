"""Escape Deathrace 2182 Micro: each action applied to the state's one copy (its rules already allow it)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from generators.games.escape_deathrace.drops import gift_pile
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
from generators.games.escape_deathrace.flow import end_turn, settle
from generators.games.escape_deathrace.harm import (
    draw_power,
    graveyard_add,
    hurt,
    hurt_boss,
    player_killed,
    roll_d4,
)
from generators.games.escape_deathrace.race import (
    battle_strike,
    drive,
    effect_now,
    first_strike,
    open_move,
    pass_hazard,
    resolve_event,
    run_battle,
    strike_boss,
    strike_car,
)
from generators.games.escape_deathrace.road import (
    boss_alive,
    connected,
    distances,
    next_tile,
    nitro_ahead,
    open_spots,
    others_on,
    place,
    subs_dead,
    tile_of,
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
from generators.rules.chance import Chance
from generators.rules.contract import Event


def do_pick_drop(s: State, p: Player, a: PickDrop, chance: Chance, events: list[Event]) -> None:
    p.drops[a.kind] += 1
    s.draft = s.draft[1:]
    events.append(Event("drop-picked", {"player": p.name, "kind": a.kind}))


def do_draw(s: State, p: Player, a: Draw, chance: Chance, events: list[Event]) -> None:
    roll = roll_d4(chance, "movement", events, p.name)
    t = s.turn
    t.allowance = t.lay_allowance = roll + extra_space(p.abilities)
    t.phase = "drawn"
    events.append(Event("movement-draw", {"player": p.name, "roll": roll, "allowance": t.allowance}))


def do_draw_tile(s: State, p: Player, a: DrawTile, chance: Chance, events: list[Event]) -> None:
    face = next_tile(s, chance)
    s.turn.tile_in_hand = face
    s.turn.laid += 1
    events.append(Event("tile-drawn", {"player": p.name, "face": face, "kind": s.box.tiles[face].kind}))


def do_lay_tile(s: State, p: Player, a: LayTile, chance: Chance, events: list[Event]) -> None:
    face = s.turn.tile_in_hand
    assert face is not None
    x, y = a.at
    sources = open_spots(s)[(x, y)]
    src = next(t for t in sources if t.id == a.source) if a.source else sources[0]
    place(s, face, x, y, src, a.arrow, events)
    s.turn.tile_in_hand = None


def do_drive(s: State, p: Player, a: Drive, chance: Chance, events: list[Event]) -> None:
    t = s.turn
    by_card, card = t.extra_move, s.event_active
    t.extra_move = None
    if by_card is None:
        t.phase = "moved"
    start = tile_of(s, p)
    drive(s, p, a.path, chance, events)
    if by_card == "event" and p.alive and s.event_active == card and card is not None:
        resolve_event(s, p, chance, events)  # the card's movement was the last of it
    if p.alive and s.event_active is None and s.battle is None and t.extra_move is None:
        prev = s.tiles[a.path[-2]] if len(a.path) > 1 else start
        t.nitro_open = nitro_ahead(s, p, prev, s.tiles[a.path[-1]]) is not None


def do_nitro_draw(s: State, p: Player, a: NitroDraw, chance: Chance, events: list[Event]) -> None:
    """Landing on a nitro-nos tile at the end of the road: draw a tile ahead and move onto it."""
    here = tile_of(s, p)
    assert here.arrow is not None
    s.turn.nitro_open = False
    x, y = here.x + DIRS[here.arrow][0], here.y + DIRS[here.arrow][1]
    face = next_tile(s, chance)
    events.append(Event("tile-drawn", {"player": p.name, "face": face, "kind": s.box.tiles[face].kind}))
    tile = place(s, face, x, y, here, None, events)
    if tile.kind == "final-boss" and not subs_dead(s):
        events.append(Event("nitro-stopped", {"player": p.name, "reason": "the final boss tile waits for the "
                                                                          "sub-bosses"}))
        return
    if connected(here, tile):
        drive(s, p, [tile.id], chance, events)


def do_hazard_attempt(s: State, p: Player, a: HazardAttempt, chance: Chance, events: list[Event]) -> None:
    tile = tile_of(s, p)
    t = s.turn
    t.phase, t.hazard_tried = "moved", True
    assert p.hazard_side is not None
    roll = roll_d4(chance, "hazard", events, p.name)
    passed, damage = hazard_roll(roll)
    events.append(Event("hazard", {"player": p.name, "roll": roll, "result": "pass" if passed else "fail"}))
    hurt(s, p, damage, "hazard", None, events)
    if p.alive and passed:
        pass_hazard(s, p, tile, chance, events)


def do_boss_battle(s: State, p: Player, a: BossBattle, chance: Chance, events: list[Event]) -> None:
    """The sequence opens with the boss's -3 first strike, unless smoke or Shooter cancel it."""
    tile = tile_of(s, p)
    if a.smoke:  # the smoke is this sequence's one weapon drop
        p.drops["smoke"] -= 1
        graveyard_add(s, "smoke")
        s.turn.drop_used = True
        events.append(Event("drop-used", {"player": p.name, "kind": "smoke", "count": 1, "on": tile.boss}))
    s.turn.phase = "boss"
    s.turn.strikes_left = strikes(p.abilities)
    reason = first_strike_cancelled(p.abilities, a.smoke)
    if reason:
        events.append(Event("first-strike-cancelled", {"player": p.name, "reason": reason}))
    else:
        events.append(Event("first-strike", {"by": tile.boss, "target": p.name}))
        hurt(s, p, FIRST_STRIKE, "first-strike", tile.boss, events)


def do_attack(s: State, p: Player, a: Attack, chance: Chance, events: list[Event]) -> None:
    """The sequence's D4 action: every strike at the boss, or one strike at a player on the dead final tile."""
    tile = tile_of(s, p)
    t = s.turn
    if a.target is None:
        while t.strikes_left and boss_alive(s, tile) and p.alive:
            t.strikes_left -= 1
            strike_boss(s, p, tile, chance, events)
        t.strikes_left = 0
        return
    t.strikes_left -= 1
    strike_car(s, p, s.players[a.target], tile, chance, events)


def do_strike(s: State, p: Player, a: Strike, chance: Chance, events: list[Event]) -> None:
    battle_strike(s, p, s.players[a.target], chance, events)
    run_battle(s, chance, events)


def do_choose_target(s: State, p: Player, a: ChooseTarget, chance: Chance, events: list[Event]) -> None:
    s.turn.choosing_target = False
    events.append(Event("targeted", {"by": p.name, "target": a.target}))
    first_strike(s, s.players[a.target], p, events)


def do_use_drop(s: State, p: Player, a: UseDrop, chance: Chance, events: list[Event]) -> None:
    tile = tile_of(s, p)
    s.turn.drop_used = True
    p.drops[a.kind] -= a.count
    if boss_alive(s, tile):
        graveyard_add(s, a.kind, a.count)
        events.append(Event("drop-used", {"player": p.name, "kind": a.kind, "count": a.count, "on": tile.boss}))
        for _ in range(a.count):
            if boss_alive(s, tile):
                hurt_boss(s, tile, dealt(p.abilities, BOSS_DROP_DAMAGE, "boss"), p.name, events, source=a.kind)
    elif tile.kind == "final-boss":
        _drop_on_final(s, p, tile, a, events)
    elif a.kind == "gunfire":
        _gunfire(s, p, s.players[a.target or ""], events)
    else:
        spots = [p.tile or ""] if a.kind == "smoke" else list(a.tiles) or [a.tile or ""]
        for tid in spots:
            on = tuple(q.name for q in others_on(s, tid, p.name)) if a.kind == "landmine" else ()
            s.board = [*s.board, BoardDrop(a.kind, tid, p.name, on)]
            events.append(Event("drop-placed", {"player": p.name, "kind": a.kind, "tile": tid, "on": list(on)}))


def _drop_on_final(s: State, p: Player, tile: Tile, a: UseDrop, events: list[Event]) -> None:
    """On the dead final tile drops hit players for -3; smoke keeps you from being targeted."""
    if a.kind == "smoke":
        s.shielded = [*s.shielded, p.name]
        events.append(Event("drop-used", {"player": p.name, "kind": "smoke", "count": 1, "on": p.name}))
        return
    targets = list(a.targets) or [a.target or ""]
    graveyard_add(s, a.kind, a.count)
    events.append(Event("drop-used", {"player": p.name, "kind": a.kind, "count": a.count, "on": targets}))
    source = "fire-drop" if a.kind == "fire" else a.kind
    for name in targets:
        target = s.players[name]
        if target.alive:
            hurt(s, target, dealt(p.abilities, BOSS_DROP_DAMAGE, "boss"), source, p.name, events)
            if not target.alive:
                player_killed(s, p, tile, events)


def _gunfire(s: State, p: Player, target: Player, events: list[Event]) -> None:
    gap = distances(s, tile_of(s, p).id)[tile_of(s, target).id]
    graveyard_add(s, "gunfire")
    events.append(Event("drop-used", {"player": p.name, "kind": "gunfire", "count": 1, "on": target.name,
                                      "distance": gap}))
    hurt(s, target, dealt(p.abilities, GUNFIRE_BY_DISTANCE[gap], "gunfire"), "gunfire", p.name, events)


def do_play_power(s: State, p: Player, a: PlayPower, chance: Chance, events: list[Event]) -> None:
    """The card goes face up on the discard pile, then does what its face says."""
    p.power.remove(a.card)
    s.power_discard = [*s.power_discard, a.card]
    s.turn.power_used = True
    events.append(Event("power-card-played", {"player": p.name, "card": a.card}))
    effect = s.box.effects[a.card]
    effect_now(s, p, effect, chance, events, a.target, a.tile, a.kind)
    if effect.move and p.alive:
        open_move(s, p, effect, "power", chance, events)


def do_trade_power(s: State, p: Player, a: TradePower, chance: Chance, events: list[Event]) -> None:
    """Trade one card for the top of the deck or the face-up discard; the card traded in goes face up."""
    draw_power(s, p, a.take, chance, events)
    p.power.remove(a.card)
    s.power_discard = [*s.power_discard, a.card]
    s.turn.power_used = True
    events.append(Event("power-card-traded", {"player": p.name, "card": a.card}))


def do_draw_power(s: State, p: Player, a: DrawPower, chance: Chance, events: list[Event]) -> None:
    s.rewards = s.rewards[1:]
    draw_power(s, p, a.take, chance, events)


def do_collect_drop(s: State, p: Player, a: CollectDrop, chance: Chance, events: list[Event]) -> None:
    what, s.rewards = s.rewards[0][0], s.rewards[1:]
    pile = gift_pile(s, what)
    used = pile is s.graveyard
    if used:
        left = s.graveyard[a.kind] - 1
        s.graveyard = {k: n for k, n in s.graveyard.items() if k != a.kind}
        if left:
            s.graveyard[a.kind] = left
    p.drops[a.kind] += 1
    events.append(Event("drop-collected", {"player": p.name, "kind": a.kind, "from": "used" if used else "supply"}))


def do_discard_drop(s: State, p: Player, a: DiscardDrop, chance: Chance, events: list[Event]) -> None:
    s.rewards = s.rewards[1:]
    p.drops[a.kind] -= 1
    graveyard_add(s, a.kind)
    events.append(Event("drop-discarded", {"player": p.name, "kind": a.kind}))


def do_end_turn(s: State, p: Player, a: EndTurn, chance: Chance, events: list[Event]) -> None:
    end_turn(s, p, chance, events)


Handler = Callable[[State, Player, Any, Chance, list[Event]], None]


def resolver(handler: Handler) -> Callable[[State, Any, Chance], tuple[State, list[Event]]]:
    """`handler` applied to one copy of the state, then whatever settles after every action."""
    def resolve(state: State, action: Any, chance: Chance) -> tuple[State, list[Event]]:
        s = copied(state)
        s.turn.nitro_open = False  # a nitro-nos draw is open only right after the drive that earned it
        events: list[Event] = []
        handler(s, s.players[action.player], action, chance, events)
        settle(s, chance, events)
        return s, events
    return resolve
