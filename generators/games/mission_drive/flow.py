"""Mission: Drive: how play moves on by itself. A hero's turn ending (the card discarded, the slot
refilled with the enemy and civilian cards drawn on the way resolved or left waiting for a choice,
the turn's effects ended), the turn resumed after such a card, and how a mission (or the boss
encounter) ends (`settle`). Every function changes the action's own copy of the state (`Ctx`)."""

from __future__ import annotations

from generators.games.mission_drive.context import Ctx
from generators.games.mission_drive.facts import Space
from generators.games.mission_drive.state import (
    Boss,
    Pending,
    State,
    blocked,
    halted,
    neighbours,
)


def end_hero_turn(ctx: Ctx, slot: str) -> None:
    """Playing Your Turn: the used card goes to the discard pile and the slot is refilled."""
    s = ctx.s
    s.turns += 1
    card = s.slots[slot]
    if card is not None:
        s.slots[slot] = None
        s.discard.append(card)
        ctx.event("card_discarded", slot=slot, card=card)
    if not halted(s):
        refill(ctx, slot)
        settle(s)
    if not s.pending:
        turn_over(ctx)
    if s.phase == "boss" and not halted(s):
        s.turn = "boss"


def turn_over(ctx: Ctx) -> None:
    """The hero's turn is over (its card played, the slot refilled): effects for this turn end; in a mission
    the hero's next turn follows at once, so a shield ends too (in a boss encounter, after the boss's turn)."""
    s = ctx.s
    if s.effects:
        ctx.event("effects_ended", effects=list(s.effects))
        s.effects = []
    # ruling: upgrade-timing
    if s.shield and s.phase == "mission":
        drop_shield(ctx)


def drop_shield(ctx: Ctx) -> None:
    ctx.event("shield_ended", unused=ctx.s.shield)
    ctx.s.shield = 0


def refill(ctx: Ctx, slot: str, ends_turn: bool = True) -> None:
    """Draw until a hero card fills the slot; enemy and civilian cards are resolved on the way.
    A card needing a choice pauses here (state.pending) until its action arrives."""
    s = ctx.s
    while s.deck:
        card = s.deck.pop(0)
        ctx.event("card_drawn", slot=slot, card=card)
        if card.kind == "hero":
            s.slots[slot] = card
            return
        if card.kind == "enemy" and "jam" in s.effects:
            ctx.event("enemy_card_jammed")
            s.discard.append(card)
            continue
        has_choice = _enemy_has_target(s) if card.kind == "enemy" else _civilian_can_move(s)
        if has_choice:
            s.pending = Pending(card.kind, slot, card, ends_turn)
            return
        ctx.event(f"{card.kind}_card_no_effect", reason=_no_choice_reason(s, card.kind))
        s.discard.append(card)
    ctx.event("deck_empty", slot=slot)


def _no_choice_reason(s: State, kind: str) -> str:
    if not any(v.side == kind for v in s.vehicles):
        return f"no {kind} vehicles left"
    return "no legal target" if kind == "enemy" else "no civilian can move"


def resume_after_card(ctx: Ctx) -> None:
    s = ctx.s
    assert s.pending is not None
    slot, card, ends_turn = s.pending.slot, s.pending.card, s.pending.ends_turn
    s.pending = None
    s.discard.append(card)
    ctx.event("card_discarded", slot=slot, card=card)
    settle(s)
    if not halted(s):
        refill(ctx, slot, ends_turn)
        settle(s)
    if ends_turn and not s.pending and not halted(s):
        turn_over(ctx)


def _enemy_has_target(s: State) -> bool:
    """Whether _enemy_targets has any: a civilian or the hero next to an enemy, without listing them all."""
    vehicles = s.vehicles
    near: set[Space] = set()
    for v in vehicles:
        if v.side == "enemy":
            near.update(neighbours(s, v.at))
    if not near:
        return False
    return s.hero in near or "civilian" in [v.side for v in vehicles if v.at in near]


def _civilian_can_move(s: State) -> bool:
    """Whether _civilian_moves has any: the first one found answers, without listing and sorting all."""
    for v in s.vehicles:
        if v.side == "civilian":
            for q in neighbours(s, v.at):
                if not blocked(s, q):
                    return True
    return False


def settle(s: State) -> None:
    """Check how the mission (or the boss encounter) ends; immobilization is checked first."""
    phase = s.phase
    if s.game != "playing" or s.mission_status != "playing" or (phase != "mission" and phase != "boss"):
        return
    # ruling: simultaneous-endings
    if s.health <= 0:
        s.mission_status, s.game = "immobilization", "lost"
    elif phase == "boss" and s.boss is not None and not vulnerable_left(s.boss):
        s.mission_status, s.game = "boss-defeated", "won"
    # ruling: goal-wording
    elif phase == "mission" and not _any_enemy(s):
        s.mission_status = "accomplished"
        # ruling: short-game-end
        if s.variant == "short":
            s.game = "won"  # Variant - Short Game: you win if you defeat all enemies
            s.missions_accomplished += 1
    # ruling: losing-to-boss
    elif not s.pending and not s.deck and not any(s.slots.values()):
        s.mission_status, s.game = "exhaustion", "lost"


def _any_enemy(s: State) -> bool:
    for v in s.vehicles:  # a plain loop, not a generator: asked after every step of every look-ahead
        if v.side == "enemy":
            break
    else:
        return False
    return True


def vulnerable_left(boss: Boss) -> list[str]:
    return sorted(p.id for p in boss.parts if p.vulnerable and p.id not in boss.damaged)
