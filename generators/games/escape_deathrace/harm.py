"""Escape Deathrace 2182 Micro: damage and its consequences: hits, car bombs, bosses hurt and killed,
the rewards they owe, the graveyard, power card draws and the end of the race."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from generators.games.escape_deathrace.facts import CAR_BOMB, D4, damage_taken
from generators.games.escape_deathrace.road import boss_alive, cars_alive, final_dead, turn_order_from
from generators.games.escape_deathrace.state import Player, State, Tile
from generators.rules.chance import Chance
from generators.rules.contract import Event

T = TypeVar("T")

# ---------------------------------------------------------------------------------------------
# Damage, car bombs, bosses, rewards


def hurt(s: State, target: Player, amount: int, source: str, by: str | None, events: list[Event]) -> None:
    """Apply `amount` base damage of kind `source`; protections apply here, once."""
    if not target.alive:
        return
    taken = min(target.hp, damage_taken(target.abilities, amount, source))
    if taken == 0:
        if amount > 0:
            events.append(Event("damage-prevented", {"target": target.name, "amount": amount, "source": source}))
        return
    target.hp -= taken
    target.damage += taken
    events.append(Event("damage", {"target": target.name, "amount": taken, "source": source, "by": by}))
    if target.hp == 0:
        _explode(s, target, events)


# ruling: car-bomb-two-statements
def _explode(s: State, dead: Player, events: list[Event]) -> None:
    """A car at 0 HP is out; its car bomb hurts the others (which ones: the reading in `rules`)."""
    dead.alive = False
    tile_id = dead.tile
    events.append(Event("eliminated", {"player": dead.name, "tile": tile_id}))
    dead.tile = None
    dead.hazard_side = None
    if dead.name in s.shielded:  # nothing left to hide: the smoke token is used up
        s.shielded = without(s.shielded, dead.name)
        graveyard_add(s, "smoke")
        events.append(Event("drop-expired", {"kind": "smoke", "tile": tile_id, "owner": dead.name}))
    if s.turn.player == dead.name:
        _turn_player_out(s, events)
    reading = s.rules["car_bomb"]
    events.append(Event("car-bomb", {"player": dead.name, "reading": reading}))
    if reading == "all-players":
        victims = cars_alive(s)
    else:
        victims = [p for p in cars_alive(s) if p.tile == tile_id]
        tile = s.tiles[tile_id] if tile_id else None
        if tile is not None and boss_alive(s, tile):
            hurt_boss(s, tile, CAR_BOMB, None, events, source="car-bomb")
    for victim in victims:
        hurt(s, victim, CAR_BOMB, "car-bomb", dead.name, events)
    check_end(s, events)


def _turn_player_out(s: State, events: list[Event]) -> None:
    """The car whose turn it is was destroyed: what it had open ends with it."""
    t = s.turn
    t.phase = "over"
    t.nitro_open, t.extra_move, t.choosing_target = False, None, False
    if s.event_active is not None:
        s.event_discard = [*s.event_discard, s.event_active]
        events.append(Event("event-card-discarded", {"card": s.event_active, "owed": s.events_owed}))
        s.event_active, s.events_owed = None, 0


def hurt_boss(s: State, tile: Tile, amount: int, by: str | None, events: list[Event], source: str) -> None:
    boss = tile.boss
    assert boss is not None
    before = s.boss_hp[boss]
    s.boss_hp = {**s.boss_hp, boss: max(0, before - amount)}
    events.append(Event("boss-damage", {"boss": boss, "amount": before - s.boss_hp[boss], "by": by, "source": source}))
    if before > 0 and s.boss_hp[boss] == 0:
        events.append(Event("boss-defeated", {"boss": boss, "by": by}))
        present = [p.name for p in cars_alive(s) if p.tile == tile.id]
        killer = by if by is not None and s.players[by].alive else None
        first = killer or s.turn.player
        ordered = [n for n in turn_order_from(s, first) if n in present]
        _owe(s, killer, ordered, events)
        check_end(s, events)


def _owe(s: State, killer: str | None, present: Sequence[str], events: list[Event]) -> None:
    """The killer is owed a power card and a used drop; every other car present, a used drop."""
    owed = ([("power", killer)] if killer is not None else []) + [("drop", name) for name in present]
    s.rewards = [*s.rewards, *owed]
    for what, name in owed:
        events.append(Event("reward-owed", {"player": name, "reward": what}))


# ruling: kills-on-the-final-tile
def player_killed(s: State, killer: Player, tile: Tile, events: list[Event]) -> None:
    """Defeating a player on the final tile pays like a boss victory (to the killer only)."""
    if tile.kind == "final-boss" and killer.alive:
        _owe(s, killer.name, [killer.name], events)


def graveyard_add(s: State, kind: str, n: int = 1) -> None:
    s.graveyard = {**s.graveyard, kind: s.graveyard.get(kind, 0) + n}


# ruling: power-card-discard-pile
def draw_power(s: State, p: Player, take: str, chance: Chance, events: list[Event]) -> None:
    """Take the face-up discard, or the top of the deck (the discard reshuffled into a new deck when the
    deck is used up)."""
    if take == "discard":
        card, s.power_discard = s.power_discard[-1], s.power_discard[:-1]
    else:
        if not s.power_deck:
            s.power_deck = chance.shuffle("power deck", s.power_discard)
            s.power_discard, s.power_known = [], True
            events.append(Event("power-deck-reshuffled", {"cards": len(s.power_deck)}))
        card = top_card(s.power_deck, s.power_known, "power card", chance)
        s.power_deck = without(s.power_deck, card)
    p.power.append(card)
    events.append(Event("power-card-drawn", {"player": p.name, "card": card, "from": take}))


def top_card(deck: list[str], known: bool, label: str, chance: Chance) -> str:
    """The top card of a deck in a known order; from a deck in an unknown order (a scenario that does not
    list it), the card is a labelled chance result among the faces left."""
    return deck[0] if known else chance.choice(label, sorted(set(deck)))


def without(items: list[T], item: T) -> list[T]:
    """`items` less the first `item`, as a new list (a state's shared parts are replaced, never changed)."""
    i = items.index(item)
    return [*items[:i], *items[i + 1:]]


def check_end(s: State, events: list[Event]) -> None:
    alive = cars_alive(s)
    if s.ended is not None:
        return
    if not alive:  # ruling: last-two-cars-together
        s.ended = "all-eliminated"
        events.append(Event("race-over", {"result": "nobody", "reason": "every car was destroyed"}))
    elif final_dead(s) and len(alive) == 1:
        s.winner, s.ended = alive[0].name, "escaped"
        events.append(Event("winner", {"player": alive[0].name}))


# ---------------------------------------------------------------------------------------------
# Paths


def roll_d4(chance: Chance, what: str, events: list[Event], who: str) -> int:
    value = chance.choice(what, D4)
    events.append(Event("roll", {"what": what, "player": who, "value": value}))
    return value
