"""Vampire chase: what cards do. Drawing (with the reshuffle), damage to the player and to enemies,
enemies leaving the board and the Ongoing triggers that follows, vampire-card and gear effects, and
the vehicle's move.

Every function here changes `state` in place: it is always an action's own copy (`Record.copy` in
`moves`), whose parts are immutable and replaced whole.
"""

from __future__ import annotations

from collections.abc import Iterable

from generators.games.vampire_chase.facts import PLAY_LIMIT, SLOTS, TARGETED, Effect, EnemyEffect
from generators.games.vampire_chase.state import (
    CLOCKWISE,
    NEAR,
    Enemy,
    State,
    adjacent,
    move_destinations,
    ring_distance,
    step,
    with_pile,
)
from generators.rules.chance import Chance
from generators.rules.contract import Event

# --- drawing -------------------------------------------------------------------------------------


def _reshuffle(state: State, role: str, chance: Chance, events: list[Event]) -> None:
    discard = state.discards[role]
    state.decks = with_pile(state.decks, role, state.decks[role] + tuple(chance.shuffle(f"{role} deck",
                                                                                       sorted(discard))))
    events.append(Event("reshuffle", {"vampire": role, "cards": len(discard)}))
    state.discards = with_pile(state.discards, role, ())


def draw_cards(state: State, role: str, n: int, chance: Chance, events: list[Event]) -> int:
    """Draw n cards from a vampire's deck; its discard becomes a new deck the moment the deck runs out."""
    # ruling: reshuffle-when-deck-runs-out
    drawn = 0
    for _ in range(n):
        if not state.decks[role] and state.discards[role]:
            _reshuffle(state, role, chance, events)
        deck = state.decks[role]
        if not deck:
            break
        state.hand = (*state.hand, deck[0])
        state.decks = with_pile(state.decks, role, deck[1:])
        drawn += 1
        if not deck[1:] and state.discards[role]:
            _reshuffle(state, role, chance, events)
    if drawn:
        events.append(Event("draw", {"vampire": role, "cards": drawn}))
        known = state.known_top[role]
        if known:
            state.known_top = {**state.known_top, role: max(0, known - drawn)}
    return drawn


def available(state: State, role: str) -> int:
    return len(state.decks[role]) + len(state.discards[role])


# --- damage and defeat ---------------------------------------------------------------------------


def hurt_player(state: State, amount: int, source: str, events: list[Event], shield: bool = True) -> int:
    """Damage to the player: Shield absorbs first (not for the speed check); Health 0 loses the game."""
    absorbed = min(state.shield, amount) if shield else 0
    state.shield -= absorbed
    lost = amount - absorbed
    state.health -= lost
    state.bump("damage_taken", lost)
    events.append(Event("player_hurt", {"source": source, "amount": amount, "absorbed": absorbed,
                                        "health": state.health, "shield": state.shield}))
    if state.health <= 0 and state.result is None:
        state.result, state.reason, state.phase = "lost", "health", "over"
        events.append(Event("lost", {"reason": "Health reached 0"}))
    return lost


def hurt_enemy(state: State, slot: int, amount: int, source: str, events: list[Event]) -> None:
    enemy = state.ring[slot]
    if enemy is None:
        return
    state.put(slot, Enemy(enemy.card, enemy.health - amount, enemy.uid))
    events.append(Event("enemy_hurt", {"card": enemy.card, "slot": slot, "amount": amount,
                                       "health": enemy.health - amount, "source": source}))


def remove_enemy(state: State, slot: int, events: list[Event]) -> None:
    """An enemy below 1 Health leaves the board: corpses, its kill slot, an overkill if below 0."""
    enemy = state.ring[slot]
    assert enemy is not None
    facts = state.lib.enemies[enemy.card]
    state.put(slot, None)
    state.kills = (*state.kills, slot)
    state.corpses += facts.corpses
    state.bump("defeated")
    overkill = enemy.health < 0  # ruling: overkill
    if overkill:
        state.overkills += 1
    events.append(Event("defeated", {"card": enemy.card, "slot": slot, "corpses": facts.corpses,
                                     "overkill": overkill}))


def sweep(state: State, events: list[Event]) -> None:
    """Remove every enemy below 1 Health (lowest slot first), then Ongoing 'when an enemy is defeated' triggers."""
    dead = [s for s, e in state.enemies() if e.health < 1]
    for slot in dead:
        remove_enemy(state, slot, events)
    for _ in dead:
        if state.result:
            return
        trigger(state, "defeat", events)


def activation_order(state: State) -> list[int]:
    """Enemies (by uid) clockwise once round, from the lowest-numbered slot next to the vehicle holding one."""
    # ruling: activation-order
    ring = state.ring
    near = NEAR[state.vehicle]
    occupied = [s for s in near if ring[s] is not None]
    first = occupied[0] if occupied else near[0]
    return [e.uid for s in CLOCKWISE[first] if (e := ring[s]) is not None]


def trigger(state: State, when: str, events: list[Event]) -> None:
    """Ongoing enemies whose written trigger happened act now, in activation order."""
    lib = state.lib
    if not any(lib.enemies[e.card].trigger == when for _, e in state.enemies()):
        return  # nobody listens: the common case, answered without ordering the ring
    for uid in activation_order(state):
        if (found := state.placed(uid)) is None or state.result:
            continue
        slot, enemy = found
        facts = lib.enemies[enemy.card]
        if facts.timing == "ongoing" and facts.trigger == when and enemy.health >= 1:
            events.append(Event("activate", {"card": enemy.card, "slot": slot, "step": "ongoing"}))
            run_enemy(state, uid, facts.abilities, events)
            remove_if_dead(state, uid, events)


def remove_if_dead(state: State, uid: int, events: list[Event]) -> None:
    """After its own activation (or trigger), an enemy below 1 Health is removed."""
    # ruling: enemy-dies-in-own-activation
    slot = state.find(uid)
    if slot is not None and (e := state.ring[slot]) is not None and e.health < 1:
        remove_enemy(state, slot, events)
        if not state.result:
            trigger(state, "defeat", events)


# --- enemies acting ------------------------------------------------------------------------------


def enemy_move(state: State, uid: int, events: list[Event]) -> None:
    """One slot the shorter way towards the vehicle, swapping with an enemy there; never into the vehicle."""
    # ruling: enemy-moves-toward-vehicle
    slot = state.find(uid)
    if slot is None or adjacent(slot, state.vehicle):
        return
    forward, back = step(slot, 1), step(slot, -1)
    options = sorted((ring_distance(s, state.vehicle), s) for s in (forward, back))
    dest = options[0][1]
    mover, other = state.ring[slot], state.ring[dest]
    state.put(dest, mover)
    state.put(slot, other)
    assert mover is not None
    events.append(Event("enemy_moved", {"card": mover.card, "from": slot, "to": dest,
                                        "swapped": other.card if other else None}))


def run_enemy(state: State, uid: int, effects: Iterable[EnemyEffect], events: list[Event]) -> None:
    for effect in effects:
        if (found := state.placed(uid)) is None or state.result:
            return
        slot, enemy = found
        if effect.do == "attack":
            if effect.range == "adjacent" and not adjacent(slot, state.vehicle):
                events.append(Event("attack_out_of_reach", {"card": enemy.card, "slot": slot}))
                continue
            hurt_player(state, effect.amount, enemy.card, events)
            if state.retaliate and not state.result:
                hurt_enemy(state, slot, state.retaliate, "retaliation", events)
        elif effect.do == "heal":
            targets = [slot] if effect.range == "self" else [s for s, _ in state.enemies()]
            for s in targets:
                e = state.ring[s]
                assert e is not None
                top = state.lib.enemies[e.card].health
                if 1 <= e.health < top:
                    healed = Enemy(e.card, min(top, e.health + effect.amount), e.uid)
                    state.put(s, healed)
                    events.append(Event("enemy_healed", {"card": e.card, "slot": s, "health": healed.health}))
        elif effect.do == "move":
            enemy_move(state, uid, events)
        elif effect.do == "destruct":
            state.put(slot, Enemy(enemy.card, min(enemy.health, 0), enemy.uid))
            events.append(Event("self_destruct", {"card": enemy.card, "slot": slot}))


# --- vampire cards and gears ---------------------------------------------------------------------


def effect_targets(state: State, effect: Effect) -> list[int]:
    """Slots a targeted effect may choose."""
    ring = state.ring
    if effect.do == "move":
        return move_destinations(state)
    if effect.range == "adjacent":
        return [s for s in NEAR[state.vehicle] if ring[s] is not None]
    return [s for s in SLOTS if ring[s] is not None]


def card_targets(state: State, card: str, enhance: bool) -> list[int | None]:
    """The target choices of a card (None when it has no targeted effect, or nothing to target)."""
    # ruling: one-target-per-card
    facts = state.lib.vampire_cards[card]
    targeted = [e for e in (*facts.effects, *(facts.enhance if enhance else ())) if e.targeted]
    if not targeted:
        return [None]
    slots = effect_targets(state, targeted[0])
    return list(slots) if slots else [None]


def move_vehicle(state: State, to: int, events: list[Event]) -> None:
    """The vehicle moves; entering an occupied slot swaps with that enemy, whose die goes with it."""
    # ruling: enemy-dice
    # ruling: move-swap-destination (the enemy takes the slot the move started from)
    before = state.vehicle
    enemy = state.ring[to]
    state.put(to, None)
    state.put(before, enemy)
    state.vehicle = to
    events.append(Event("vehicle_moved", {"from": before, "to": to, "swapped": enemy.card if enemy else None}))
    trigger(state, "move", events)


def apply_effects(state: State, effects: Iterable[Effect], target: int | None, role: str, chance: Chance,
                  events: list[Event]) -> None:
    for effect in effects:
        if state.result:
            return
        apply_effect(state, effect, target, role, chance, events)


def apply_effect(state: State, effect: Effect, target: int | None, role: str, chance: Chance,
                 events: list[Event]) -> None:
    n = effect.amount
    if effect.do == "damage":
        if effect.range in TARGETED:
            slots = [target] if target is not None and state.ring[target] is not None else []
        elif effect.range == "all-adjacent":
            slots = [s for s, _ in state.enemies() if adjacent(s, state.vehicle)]
        else:
            slots = [s for s, _ in state.enemies()]
        for slot in slots:
            hurt_enemy(state, slot, n, "card", events)
    elif effect.do == "shield":
        state.shield += n
        events.append(Event("shield", {"amount": n, "shield": state.shield}))
    elif effect.do == "heal":
        healed = min(n, state.lib.start_health - state.health)  # ruling: mission-cards (never above 9)
        state.health += healed
        events.append(Event("heal", {"amount": healed, "health": state.health}))
    elif effect.do == "move":
        if target is not None and target != state.vehicle:
            move_vehicle(state, target, events)
    elif effect.do == "draw":
        draw_cards(state, role, n, chance, events)
    elif effect.do == "corpse":
        state.corpses += n
        events.append(Event("corpses", {"gained": n, "corpses": state.corpses}))
    elif effect.do == "speed":
        state.speed_bonus += n
        events.append(Event("speed_bonus", {"amount": n}))
    elif effect.do == "retaliate":
        state.retaliate += n
        events.append(Event("retaliate", {"amount": state.retaliate}))


def gear_effects(state: State, gear: str, chance: Chance, events: list[Event]) -> None:
    # ruling: gear-cards (PLAY and MARKET gears act as their action begins, MOVE gears after the move)
    card = state.gears[gear]
    if card is None:
        return
    facts = state.lib.vampire_cards[card]
    if facts.effects:
        events.append(Event("gear", {"gear": gear, "card": card}))
        apply_effects(state, facts.effects, None, state.role_of(card), chance, events)
        sweep(state, events)


def play_limit(state: State) -> int:
    card = state.gears["play"]
    plays = state.lib.vampire_cards[card].plays if card else None
    return plays or PLAY_LIMIT

