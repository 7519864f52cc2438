"""Escape Deathrace 2182 Micro: driving and what happens on the way and on landing: fire and landmines,
drive-bys, battle-it-outs, boss tiles and the final tile, hazards passed, event cards and power card
effects. One module because they call each other: a card moves a car, which lands and draws a card."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from generators.games.escape_deathrace.facts import (
    FIRE_DAMAGE,
    FIRST_STRIKE,
    LANDMINE_LANDING,
    NEAR,
    OPPOSITE,
    Effect,
    counters_drive_by,
    dealt,
    extra_space,
    first_strike_cancelled,
    immune,
    landmine_hit,
    skips_hazard,
    strike_hit,
    strikes,
)
from generators.games.escape_deathrace.harm import (
    graveyard_add,
    hurt,
    hurt_boss,
    player_killed,
    roll_d4,
    top_card,
    without,
)
from generators.games.escape_deathrace.road import (
    boss_alive,
    connected,
    direction,
    distances,
    final_targets,
    neighbour,
    others_on,
    peaceful,
    subs_dead,
    tile_of,
    turn_order_from,
)
from generators.games.escape_deathrace.state import Battle, Player, State, Tile
from generators.rules.chance import Chance
from generators.rules.contract import Event

# ---------------------------------------------------------------------------------------------
# Driving and landing


def _touch(s: State, tid: str) -> None:
    # New lists, never appended to: the turn's copy shares them with the state before (see `copied`).
    if tid not in s.turn.touched:
        s.turn.touched = [*s.turn.touched, tid]
    if tid not in s.turn.moved_over:
        s.turn.moved_over = [*s.turn.moved_over, tid]


def drive(s: State, p: Player, path: Sequence[str], chance: Chance, events: list[Event]) -> None:
    """Drive a checked path: the effects of each tile passed over, then of the landing tile."""
    for i, tid in enumerate(path):
        prev = tile_of(s, p)
        tile = s.tiles[tid]
        last = i == len(path) - 1
        p.tile = tid
        p.hazard_side = None
        _touch(s, tid)
        _enter(s, p, tile, last, chance, events)
        if not p.alive:
            return
        if not last:
            _drive_bys(s, p, tile, chance, events)
            if not p.alive:
                return
        else:
            events.append(Event("moved", {"player": p.name, "path": list(path)}))
            _land(s, p, prev, tile, chance, events)


def _enter(s: State, p: Player, tile: Tile, landing: bool, chance: Chance, events: list[Event]) -> None:
    """Fire and landmines hurt whoever drives through or onto them."""
    if tile.kind == "fire":
        hurt(s, p, FIRE_DAMAGE, "fire-tile", None, events)
    for drop in [d for d in s.board if d.tile == tile.id]:
        if not p.alive:
            return
        if drop.kind == "fire":
            hurt(s, p, FIRE_DAMAGE, "fire-drop", drop.owner, events)
        elif drop.kind == "landmine":
            s.board = without(s.board, drop)
            graveyard_add(s, "landmine")
            events.append(Event("landmine-detonated", {"tile": tile.id, "player": p.name}))
            if landing:
                hurt(s, p, LANDMINE_LANDING, "landmine", drop.owner, events)
            else:
                hurt(s, p, landmine_hit(roll_d4(chance, "landmine", events, p.name)), "landmine", drop.owner, events)


# ruling: drive-by-each-car
def _drive_bys(s: State, p: Player, tile: Tile, chance: Chance, events: list[Event]) -> None:
    targets = others_on(s, tile.id, p.name)
    if not targets:
        return
    why = peaceful(s, tile)
    if why:
        events.append(Event("drive-by-prevented", {"by": p.name, "tile": tile.id, "reason": why}))
        return
    for target in targets:
        _drive_by(s, p, target, chance, events)
        if not p.alive:
            return


def _drive_by(s: State, p: Player, target: Player, chance: Chance, events: list[Event]) -> None:
    events.append(Event("drive-by", {"by": p.name, "target": target.name}))
    if immune(target.abilities, "drive-by"):  # nothing to roll for
        events.append(Event("damage-prevented", {"target": target.name, "amount": None, "source": "drive-by"}))
        return
    _strikes(s, p, target, "drive-by", "drive-by", strikes(p.abilities), chance, events)
    if target.alive and counters_drive_by(target.abilities):
        events.append(Event("counter-attack", {"by": target.name, "target": p.name}))
        _strikes(s, target, p, "counter", "drive-by", strikes(target.abilities), chance, events)


def _strikes(s: State, attacker: Player, target: Player, context: str, source: str, n: int, chance: Chance,
             events: list[Event]) -> None:
    """`n` D4 strikes at one target."""
    for _ in range(n):
        if not target.alive or not attacker.alive:
            return
        roll = roll_d4(chance, f"{context} {attacker.name}->{target.name}", events, attacker.name)
        events.append(Event("strike", {"by": attacker.name, "target": target.name, "roll": roll, "context": context}))
        hurt(s, target, strike_hit(attacker.abilities, roll, context), source, attacker.name, events)


# ruling: landing-order
def _land(s: State, p: Player, prev: Tile, tile: Tile, chance: Chance, events: list[Event]) -> None:
    """What the landing tile does: hazard stop, boss battle, final tile, battle-it-out, event card."""
    if tile.kind == "hazard":
        if skips_hazard(p.abilities):
            events.append(Event("hazard", {"player": p.name, "result": "skipped"}))
        else:
            p.hazard_side = direction(tile, prev)
            events.append(Event("hazard", {"player": p.name, "result": "stopped"}))
        return
    if tile.kind == "final-boss":
        _arrive_final(s, p, tile, events)
        return
    if boss_alive(s, tile):
        s.turn.phase = "boss-pending"
        events.append(Event("boss-battle", {"player": p.name, "boss": tile.boss}))
        return
    _battle_it_out(s, p, tile, chance, events)


# ruling: final-boss-example-first-strike
def _arrive_final(s: State, p: Player, tile: Tile, events: list[Event]) -> None:
    """Arrivals on the final tile are counted; once the boss is dead, first strikes follow."""
    s.final_arrivals = [*s.final_arrivals, p.name]
    number = len(s.final_arrivals)
    events.append(Event("final-arrival", {"player": p.name, "number": number}))
    if boss_alive(s, tile):
        s.turn.phase = "boss-pending"
        events.append(Event("boss-battle", {"player": p.name, "boss": tile.boss}))
        return
    s.turn.phase = "boss"
    s.turn.strikes_left = strikes(p.abilities)
    if number == 2:
        first = s.players[s.final_arrivals[0]]
        if first.alive and first.tile == tile.id:
            first_strike(s, first, p, events)
    elif number > 2:
        candidates = final_targets(s, p)
        if len(candidates) == 1:
            events.append(Event("targeted", {"by": p.name, "target": candidates[0].name}))
            first_strike(s, candidates[0], p, events)
        elif candidates:
            s.turn.choosing_target = True
        else:
            # ruling: final-tile-all-in-smoke
            events.append(Event("no-target", {"player": p.name, "reason": "smoke covers every car here"}))


# ruling: final-tile-first-strike-once
def first_strike(s: State, striker: Player, target: Player, events: list[Event]) -> None:
    """A player's first strike on the dead final tile: -3 like a boss's (players are the bosses now)."""
    reason = first_strike_cancelled(target.abilities, False)
    if reason:
        events.append(Event("first-strike-cancelled", {"player": target.name, "reason": reason}))
        return
    events.append(Event("first-strike", {"by": striker.name, "target": target.name}))
    tile = tile_of(s, target)
    # ruling: final-first-strike-damage
    hurt(s, target, dealt(striker.abilities, FIRST_STRIKE, "boss"), "first-strike", striker.name, events)
    if not target.alive:
        player_killed(s, striker, tile, events)


def _battle_it_out(s: State, p: Player, tile: Tile, chance: Chance, events: list[Event]) -> None:
    others = others_on(s, tile.id, p.name)
    then_event = tile.kind == "event"
    if others:
        why = peaceful(s, tile)
        if why:
            events.append(Event("battle-it-out-prevented", {"tile": tile.id, "reason": why}))
        else:
            fighters = [p, *others]
            events.append(Event("battle-it-out", {"players": [f.name for f in fighters]}))
            queue = [(f.name, "battle-it-out" if f is p else "counter", strikes(f.abilities)) for f in fighters]
            s.battle = Battle(tile.id, [f.name for f in fighters], queue, then_event)
            run_battle(s, chance, events)
            return
    if then_event:
        _event_card(s, p, chance, events)


def battle_candidates(s: State, b: Battle, f: Player) -> list[Player]:
    return [s.players[n] for n in b.fighters if n != f.name and s.players[n].alive and s.players[n].tile == b.tile]


# ruling: battle-it-out-order
def run_battle(s: State, chance: Chance, events: list[Event]) -> None:
    """Strike after strike; stop where a striker has a target to choose (a decision of theirs)."""
    b = s.battle
    assert b is not None
    while b.queue:
        name, _, left = b.queue[0]
        f = s.players[name]
        candidates = battle_candidates(s, b, f)
        if not f.alive or f.tile != b.tile or left == 0 or not candidates:
            b.queue.pop(0)
            continue
        if len(candidates) > 1:
            return
        battle_strike(s, f, candidates[0], chance, events)
    s.battle = None
    mover = s.players[s.turn.player]
    if b.then_event and mover.alive and mover.tile == b.tile:
        _event_card(s, mover, chance, events)


def battle_strike(s: State, f: Player, target: Player, chance: Chance, events: list[Event]) -> None:
    b = s.battle
    assert b is not None
    name, context, left = b.queue[0]
    b.queue[0] = (name, context, left - 1)
    _strikes(s, f, target, context, "battle-it-out", 1, chance, events)


def _event_card(s: State, p: Player, chance: Chance, events: list[Event]) -> None:
    """The 82 tile's event card; a second one waits until the one in play is resolved (Q&A 6)."""
    if s.event_active is not None:
        s.events_owed += 1
        events.append(Event("event-card-owed", {"player": p.name}))
        return
    _take_event(s, p, chance, events)


# ruling: event-card-resolved-in-full
def _take_event(s: State, p: Player, chance: Chance, events: list[Event]) -> None:
    """Draw the next event card and carry it out: what happens at once, then the movement it orders (the card
    stays in play until that movement is done). Cards drawn this turn do not come back in it."""
    if not s.event_deck:
        back = list(s.event_discard)
        for card in s.turn.events_seen:
            if card in back:
                back.remove(card)
        if back:
            for card in back:
                s.event_discard = without(s.event_discard, card)
            s.event_deck, s.events_known = chance.shuffle("event deck", back), True
    if not s.event_deck:
        events.append(Event("event-deck-empty", {"player": p.name}))
        return
    card = top_card(s.event_deck, s.events_known, "event card", chance)
    s.event_deck = without(s.event_deck, card)
    s.event_active = card
    s.events_drawn += 1
    s.turn.events_seen = [*s.turn.events_seen, card]  # a new list: see `copied`
    events.append(Event("event-card-drawn", {"player": p.name, "card": card}))
    effect = s.box.effects[card]
    effect_now(s, p, effect, chance, events)
    if s.event_active != card:  # the car was destroyed: the card went with it
        return
    if effect.move or effect.roll:
        open_move(s, p, effect, "event", chance, events)
    else:
        resolve_event(s, p, chance, events)


def resolve_event(s: State, p: Player, chance: Chance, events: list[Event]) -> None:
    """The card in play is done: to the discard pile; an event card owed meanwhile is drawn now (Q&A 6)."""
    card = s.event_active
    assert card is not None
    s.event_discard = [*s.event_discard, card]
    s.event_active = None
    if s.turn.extra_move == "event":
        s.turn.extra_move = None
    events.append(Event("event-card-resolved", {"player": p.name, "card": card}))
    if s.events_owed and p.alive:
        s.events_owed -= 1
        _take_event(s, p, chance, events)


# ---------------------------------------------------------------------------------------------
# Card effects (power and event cards: house designs, read from the cards' facts)


def effect_now(s: State, p: Player, e: Effect, chance: Chance, events: list[Event], target: str | None = None,
                tile: str | None = None, kind: str | None = None) -> None:
    """The parts of a card that happen at once, in the order `Effect` lists them; choices it leaves the player
    (cards and drops to take or give up) are queued like boss rewards. Its movement is opened by the caller."""
    here = tile_of(s, p)
    if e.lose:
        hurt(s, p, e.lose, "event", None, events)
    if e.everyone:
        for q in [s.players[n] for n in turn_order_from(s, p.name)]:
            if q.alive and q.tile is not None and s.tiles[q.tile].kind != "start":
                hurt(s, q, e.everyone, "event", None, events)
    if e.near and p.alive:
        dist = distances(s, here.id)
        for q in _near_cars(s, p, dist):
            hurt(s, q, e.near, "event", p.name, events)
    if not p.alive:
        return
    if e.hit and target is not None:
        _card_hit(s, p, s.players[target], e.hit, here, events)
    if e.boss and boss_alive(s, here):
        hurt_boss(s, here, dealt(p.abilities, e.boss, "boss"), p.name, events, source="power-card")
    for _ in range(e.strike):
        _card_strike(s, p, here, target, chance, events)
    if e.heal and p.alive:
        _heal(s, p, e.heal, events)
    if e.clear_drop and tile is not None:
        drop = next(d for d in s.board if d.tile == tile and d.kind == kind)
        s.board = without(s.board, drop)
        graveyard_add(s, drop.kind)
        events.append(Event("drop-cleared", {"player": p.name, "kind": drop.kind, "tile": tile}))
    if e.hazard_pass:
        events.append(Event("hazard", {"player": p.name, "result": "pass"}))
        pass_hazard(s, p, here, chance, events)
    if not p.alive:
        return
    queued = [("power", p.name)] * e.power + [("discard", p.name)] * e.lose_drop
    if e.take_drop:
        queued.append(("drop" if e.take_drop == "used" else "supply", p.name))
    s.rewards = [*s.rewards, *queued]


def _near_cars(s: State, p: Player, dist: Mapping[str, int]) -> list[Player]:
    """Other cars within NEAR road tiles of `p` (its own tile included), except on the start tile."""
    return [q for q in (s.players[n] for n in turn_order_from(s, p.name)[1:])
            if q.alive and q.tile is not None and dist.get(q.tile, NEAR + 1) <= NEAR
            and s.tiles[q.tile].kind != "start"]


def _heal(s: State, p: Player, amount: int, events: list[Event]) -> None:
    top = s.box.characters[p.character].hp
    gained = min(amount, top - p.hp)
    p.hp += gained
    events.append(Event("healed", {"player": p.name, "amount": gained}))


def _card_hit(s: State, p: Player, q: Player, amount: int, here: Tile, events: list[Event]) -> None:
    """A power card's hit on a car: on the dead final tile players are the bosses (boss-battle damage)."""
    if here.kind == "final-boss":
        hurt(s, q, dealt(p.abilities, amount, "boss"), "power-card", p.name, events)
        if not q.alive:
            player_killed(s, p, here, events)
    else:
        hurt(s, q, amount, "power-card", p.name, events)


def _card_strike(s: State, p: Player, here: Tile, target: str | None, chance: Chance, events: list[Event]) -> None:
    """One more D4 strike on the battle table: at the live boss, or at a car on the dead final tile."""
    if not p.alive:
        return
    if target is None:
        if boss_alive(s, here):
            strike_boss(s, p, here, chance, events)
        return
    q = s.players[target]
    if q.alive:
        strike_car(s, p, q, here, chance, events)


def strike_boss(s: State, p: Player, tile: Tile, chance: Chance, events: list[Event]) -> None:
    """One D4 strike on the battle table at the tile's boss."""
    roll = roll_d4(chance, f"boss battle {p.name}->{tile.boss}", events, p.name)
    events.append(Event("strike", {"by": p.name, "target": tile.boss, "roll": roll, "context": "boss"}))
    hurt_boss(s, tile, strike_hit(p.abilities, roll, "boss"), p.name, events, source="strike")


def strike_car(s: State, p: Player, q: Player, tile: Tile, chance: Chance, events: list[Event]) -> None:
    """One D4 strike on the battle table at a car on the dead final tile (the cars are the bosses there)."""
    roll = roll_d4(chance, f"final tile {p.name}->{q.name}", events, p.name)
    events.append(Event("strike", {"by": p.name, "target": q.name, "roll": roll, "context": "boss"}))
    hurt(s, q, strike_hit(p.abilities, roll, "boss"), "strike", p.name, events)
    if not q.alive:
        player_killed(s, p, tile, events)


def open_move(s: State, p: Player, e: Effect, source: str, chance: Chance, events: list[Event]) -> None:
    """A card's movement: a number of spaces, or a new movement draw that lays road tiles as well."""
    t = s.turn
    if e.roll:
        roll = roll_d4(chance, "movement (event card)", events, p.name)
        t.allowance = t.lay_allowance = roll + extra_space(p.abilities)
    else:
        t.allowance, t.lay_allowance = e.move + extra_space(p.abilities), 0
    t.laid, t.extra_move = 0, source
    events.append(Event("card-move", {"player": p.name, "allowance": t.allowance, "lay": t.lay_allowance}))


# ruling: hazard-after-passing
def pass_hazard(s: State, p: Player, tile: Tile, chance: Chance, events: list[Event]) -> None:
    """Past the hazard: onto the connecting tile, or to the far side if there is none; the movement ends."""
    t = s.turn
    t.phase, t.hazard_tried = "moved", True
    assert p.hazard_side is not None
    far = OPPOSITE[p.hazard_side]
    beyond = neighbour(s, tile, far)
    if beyond is not None and connected(tile, beyond) and (beyond.kind != "final-boss" or subs_dead(s)):
        drive(s, p, [beyond.id], chance, events)  # the pass ends the movement
    else:
        p.hazard_side = far
