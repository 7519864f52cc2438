"""Mission: Drive: using an upgrade (paid by a charge or the card) and what each house effect does, and
the satellite laser strike."""

from __future__ import annotations

from generators.games.mission_drive.context import Ctx
from generators.games.mission_drive.facts import DELTA, NEEDS_DIRECTIONS, UpgradeEffect, pair
from generators.games.mission_drive.flow import refill, settle
from generators.games.mission_drive.road import (
    destroy,
    hit_boss,
    hit_vehicle,
    move_civilian,
    move_path,
    remove_token,
    upgrade_by_id,
)
from generators.games.mission_drive.specs import LaserStrikeAction, UseUpgradeAction
from generators.games.mission_drive.state import State, add, on_board, part_at, token_at, vehicle_at


def do_use_upgrade(ctx: Ctx, act: UseUpgradeAction) -> None:
    """Using Upgrades: each use removes a charge or sends the card to the box, then its effect happens."""
    s = ctx.s
    upgrade = upgrade_by_id(s, act.upgrade)
    # ruling: upgrade-payment
    if act.pay == "charge":
        upgrade = ctx.own(s.upgrades, upgrade)
        upgrade.charges -= 1
    else:
        s.upgrades.remove(upgrade)
    s.upgrades_used += 1
    ctx.event("upgrade_used", upgrade=upgrade.id, paid=act.pay, charges=upgrade.charges,
              effect=upgrade.effect.kind if upgrade.effect else None)
    if upgrade.effect is not None:
        EFFECTS[upgrade.effect.kind](ctx, upgrade.effect, act)
        settle(s)


# What each effect kind needs written on the use_upgrade action (beyond upgrade and pay).
EFFECT_CHOICES: dict[str, tuple[str, ...]] = {"shot": ("direction",), "shift": ("direction",), "mirror": ("slot",),
                                              "redraw": ("slot",), "civilian": ("civilian", "to")}


# What each choice written on a use is, as players name it.
CHOICE_WORDS = {"direction": "a direction", "slot": "a card slot", "civilian": "a civilian to move",
                "to": "a space for the civilian"}


def effect_choices_refusal(s: State, effect: UpgradeEffect | None, act: UseUpgradeAction) -> str | None:
    """Why the choices written on a use do not fit its effect (None when they do), in players' words."""
    name = s.facts.title(act.upgrade) if act.upgrade in s.facts.upgrades else "this upgrade"
    wanted = EFFECT_CHOICES.get(effect.kind, ()) if effect else ()
    for key in ("direction", "slot", "civilian", "to"):
        given = getattr(act, key) is not None
        if given and key not in wanted:
            if effect is None:
                return f"{name} is an upgrade with no effect, so it takes no {CHOICE_WORDS[key][2:]}"
            return f"the {effect.kind} effect of {name} takes no {CHOICE_WORDS[key][2:]}"
        if not given and key in wanted:
            return f"the {effect.kind} effect of {name} needs {CHOICE_WORDS[key]}"  # type: ignore[union-attr]
    if effect is not None and effect.kind in NEEDS_DIRECTIONS and act.direction not in effect.directions:
        return f"the {effect.kind} effect of {name} goes {' or '.join(effect.directions)}, not {act.direction}"
    return None


def _effect_repair(ctx: Ctx, effect: UpgradeEffect, act: UseUpgradeAction) -> None:
    s = ctx.s
    gained = min(effect.amount, s.max_health - s.health)
    s.health += gained
    ctx.event("health_repaired", gained=gained, health=s.health)


def _effect_shot(ctx: Ctx, effect: UpgradeEffect, act: UseUpgradeAction) -> None:
    """A shot along a line: the first vehicle, boss part or weapon token within range takes the hit."""
    s = ctx.s
    assert act.direction is not None
    delta = DELTA[act.direction]
    at = s.hero
    for _ in range(effect.range):
        at = add(at, delta)
        if not on_board(s, at):
            break
        part, victim, token = part_at(s, at), vehicle_at(s, at), token_at(s, at)
        if part is None and victim is None and token is None:
            continue
        ctx.event("upgrade_shot", direction=act.direction, at=at)
        if part is not None:
            hit_boss(ctx, part)
        elif victim is not None:
            hit_vehicle(ctx, victim, "upgrade shot")
        else:
            assert token is not None
            remove_token(ctx, token, "shot")
        return
    ctx.event("shot_missed", direction=act.direction, reach=effect.range)


def _effect_shift(ctx: Ctx, effect: UpgradeEffect, act: UseUpgradeAction) -> None:
    assert act.direction is not None
    move_path(ctx, (act.direction,))


def _effect_mirror(ctx: Ctx, effect: UpgradeEffect, act: UseUpgradeAction) -> None:
    s = ctx.s
    assert act.slot is not None
    s.mirrors[act.slot] = True
    ctx.event("mirror_restored", slot=act.slot)


def _effect_redraw(ctx: Ctx, effect: UpgradeEffect, act: UseUpgradeAction) -> None:
    s = ctx.s
    assert act.slot is not None
    card = s.slots[act.slot]
    assert card is not None
    s.slots[act.slot] = None
    s.discard.append(card)
    ctx.event("card_discarded", slot=act.slot, card=card)
    refill(ctx, act.slot, ends_turn=False)


def _effect_civilian(ctx: Ctx, effect: UpgradeEffect, act: UseUpgradeAction) -> None:
    assert act.civilian is not None and act.to is not None
    move_civilian(ctx, act.civilian, act.to)


def _effect_disarm(ctx: Ctx, effect: UpgradeEffect, act: UseUpgradeAction) -> None:
    s = ctx.s
    near = [t for t in s.tokens if max(abs(t.at[0] - s.hero[0]), abs(t.at[1] - s.hero[1])) <= effect.range]
    for token in sorted(near, key=lambda t: t.id):
        remove_token(ctx, token, "disarmed")
    if not near:
        ctx.event("nothing_disarmed", reach=effect.range)


def _effect_this_turn(ctx: Ctx, effect: UpgradeEffect, act: UseUpgradeAction) -> None:
    s = ctx.s
    if effect.kind not in s.effects:
        s.effects = [*s.effects, effect.kind]  # a new list: the state before shares it
    ctx.event("effect_this_turn", effect=effect.kind)


def _effect_shield(ctx: Ctx, effect: UpgradeEffect, act: UseUpgradeAction) -> None:
    ctx.s.shield += effect.amount
    ctx.event("shield_raised", shield=ctx.s.shield)


EFFECTS = {
    "repair": _effect_repair,
    "shot": _effect_shot,
    "shift": _effect_shift,
    "mirror": _effect_mirror,
    "redraw": _effect_redraw,
    "civilian": _effect_civilian,
    "disarm": _effect_disarm,
    "ram-proof": _effect_this_turn,
    "double-shot": _effect_this_turn,
    "jam": _effect_this_turn,
    "shield": _effect_shield,
}


def do_laser_strike(ctx: Ctx, act: LaserStrikeAction) -> None:
    """Satellite Laser Strike: rookie mission reward level, once, during the three missions."""
    s = ctx.s
    victim = vehicle_at(s, pair(act.target))
    assert victim is not None
    s.laser_used = True
    destroy(ctx, victim, "laser strike")
    settle(s)
