"""Vampire chase: how play moves on by itself, at the end of a turn. Chase Activation (the speed check,
then the enemies act), Cleanup (enemies reposition and arrive, the play area is discarded), the next
turn or dawn, and Checkpoint Passed. Like `effects`, every function changes an action's own copy of
the state."""

from __future__ import annotations

from generators.games.vampire_chase.effects import activation_order, hurt_player, remove_if_dead, run_enemy
from generators.games.vampire_chase.facts import SLOTS
from generators.games.vampire_chase.setup import fill_for_checkpoint, place
from generators.games.vampire_chase.speed import chase_range, speed_damage, zone_name
from generators.games.vampire_chase.state import State, ring_distance
from generators.rules.contract import Event

# --- Chase Activation ----------------------------------------------------------------------------


def check_speed(state: State, gauge: int, events: list[Event]) -> None:
    """1. Check Speed: the gauge against the chase's range; the damage comes off Health, past Shield."""
    state.gauge = gauge
    rng = chase_range(state)
    damage = speed_damage(gauge, rng)
    events.append(Event("speed_check", {"gauge": gauge, "zone": zone_name(gauge), "range": list(rng),
                                        "range_zone": zone_name(rng[0]), "damage": damage}))
    if damage:
        hurt_player(state, damage, "speed check", events, shield=False)  # ruling: speed-damage-and-shield


def chase_activation(state: State, events: list[Event]) -> None:
    """Enemies activate: normal ones in order, then Late ones, then Final Activation end-of-turn effects."""
    order = activation_order(state)
    enemies = state.lib.enemies
    timing = {}
    for uid in order:
        slot = state.find(uid)
        assert slot is not None
        enemy = state.ring[slot]
        assert enemy is not None
        timing[uid] = enemies[enemy.card]
    normal = [u for u in order if timing[u].timing == "normal"]
    late = [u for u in order if timing[u].timing == "late"]
    finals: list[int] = []
    for step_name, group in (("activation", normal), ("late", late)):
        for uid in group:
            if (found := state.placed(uid)) is None or state.result:
                continue
            slot, enemy = found
            if enemy.health < 1:  # reduced below 1 before its activation: skipped and removed
                remove_if_dead(state, uid, events)
                continue
            facts = timing[uid]
            events.append(Event("activate", {"card": enemy.card, "slot": slot, "step": step_name}))
            run_enemy(state, uid, facts.abilities, events)
            if facts.eot and not facts.final:
                run_enemy(state, uid, facts.eot, events)
            elif facts.final:
                finals.append(uid)  # ruling: enemy-dies-in-own-activation (a lost Final effect)
            remove_if_dead(state, uid, events)
    for uid in finals:
        if (found := state.placed(uid)) is None or state.result:
            continue
        slot, enemy = found
        events.append(Event("activate", {"card": enemy.card, "slot": slot, "step": "final"}))
        run_enemy(state, uid, timing[uid].eot, events)
        remove_if_dead(state, uid, events)


# --- Cleanup -------------------------------------------------------------------------------------


def reposition(state: State, events: list[Event]) -> None:
    """Surviving enemies fill the spaces vacated by this turn's kills: starting with the enemy in the
    lowest-numbered occupied slot, each survivor in turn slides to the nearest vacated slot still empty
    (ring distance, the shorter way; ties to the lower-numbered slot), until none is left. The slots
    the survivors leave are where the reserve arrives."""
    # ruling: reposition-never-ends
    ring = state.ring
    gaps = sorted({s for s in state.kills if ring[s] is None and s != state.vehicle})
    for slot, enemy in state.enemies():  # each survivor once, in the order of the slots they hold now
        if not gaps:
            return
        dest = min(gaps, key=lambda g: (ring_distance(slot, g), g))
        gaps.remove(dest)
        state.put(dest, enemy)
        state.put(slot, None)
        events.append(Event("reposition", {"card": enemy.card, "from": slot, "to": dest}))


def arrivals(state: State, events: list[Event]) -> None:
    """Reserve enemies fill the empty slots left, lowest-numbered first, never a slot of this turn's kills."""
    # ruling: arrivals-skip-kill-slots
    tier = state.tier
    reserve = state.reserves[tier]
    taken = 0
    for slot in SLOTS:
        if taken == len(reserve):
            break
        if slot == state.vehicle or state.ring[slot] is not None or slot in state.kills:
            continue
        card = reserve[taken]
        taken += 1
        place(state, slot, card)
        events.append(Event("arrival", {"card": card, "slot": slot}))
    if taken:
        state.reserves = {**state.reserves, tier: reserve[taken:]}


def discard_play_area(state: State) -> None:
    discards = dict(state.discards)
    for card in [*(p.card for p in state.played), *state.tucked]:
        role = state.role_of(card)
        discards[role] = (*discards[role], card)
    state.discards = discards
    state.played, state.tucked, state.speed_bonus = (), (), 0


def begin_next_turn(state: State, events: list[Event]) -> None:
    """Back to the Player Turn; the mission is lost if dawn has come."""
    mission = state.lib.missions[state.mission]
    state.done, state.kills, state.retaliate = (), (), 0
    if state.turn >= mission.dawn:  # ruling: mission-cards
        state.result, state.reason, state.phase = "lost", "dawn", "over"
        events.append(Event("lost", {"reason": f"dawn after turn {mission.dawn}"}))
        return
    state.turn += 1
    state.phase = "shift"


def cleanup(state: State, events: list[Event]) -> None:
    """Cleanup 1-3: enemies reposition (after kills) and arrive; the play area goes to the discards."""
    if state.kills:
        reposition(state, events)
    arrivals(state, events)
    discard_play_area(state)
    state.phase = "hand"


# --- Checkpoint Passed ---------------------------------------------------------------------------


def all_defeated(state: State) -> bool:
    """Every enemy of the checkpoint is defeated: none on the Chase Board and none left in its tier's reserve."""
    # ruling: checkpoint-when-reserve-left
    return not state.reserves[state.tier] and not state.enemies()


def checkpoint_passed(state: State, events: list[Event]) -> None:
    mission = state.lib.missions[state.mission]
    bonus = state.overkills >= mission.overkills
    events.append(Event("checkpoint_passed", {"checkpoint": state.checkpoint + 1, "bonus": bonus}))
    state.bump("checkpoints")
    if state.checkpoint + 1 >= len(mission.tiers):
        state.result, state.reason, state.phase = "won", "mission complete", "over"
        events.append(Event("won", {}))
        return
    state.checkpoint_done = True
    if mission.rest:
        healed = min(mission.rest, state.lib.start_health - state.health)
        state.health += healed
        events.append(Event("heal", {"amount": healed, "health": state.health}))
    discard_play_area(state)
    state.phase = "reward" if bonus and state.market_row else "hand"


def next_checkpoint(state: State, events: list[Event]) -> None:
    """The next tier is set up like setup steps 5 and 6; everything else carries over."""
    # ruling: the-starting-tier
    state.checkpoint += 1
    state.checkpoint_done = False
    state.overkills = 0
    fill_for_checkpoint(state)
    events.append(Event("checkpoint_started", {"checkpoint": state.checkpoint + 1, "tier": state.tier}))

