"""Mission: Drive: the hero's turn on the road. Playing a hero card (move or brake, firing), the enemy
and civilian cards, ramming, hero damage, up-link energy, weapon outcomes and boss damage; the turn's
end, the slot refilled and how a mission ends are in `flow`. Every function changes the action's own
copy of the state (`Ctx`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from generators.games.mission_drive.context import Ctx
from generators.games.mission_drive.facts import DELTA, FIRE_DIRECTION, MIRRORED, BossPart, Space, pair
from generators.games.mission_drive.flow import end_hero_turn, resume_after_card, settle
from generators.games.mission_drive.specs import (
    BrakeAction,
    ChargeChoice,
    CivilianMoveAction,
    DiscardChoice,
    EnemyFireAction,
    MoveAction,
)
from generators.games.mission_drive.state import (
    Destroyed,
    State,
    Token,
    Upgrade,
    Vehicle,
    add,
    blocked,
    enemies,
    halted,
    neighbours,
    on_board,
    outcome_of,
    part_at,
    token_at,
    vehicle_at,
)
from generators.rules.refusals import IllegalAction

# --- the hero's turn ---------------------------------------------------------------------------


def do_move(ctx: Ctx, act: MoveAction) -> None:
    s = ctx.s
    card = s.slots[act.slot]
    assert card is not None
    arrows = card.arrows
    if act.mirror:
        s.mirrors[act.slot] = False
        # ruling: mirror-which-token
        arrows = tuple(MIRRORED[a] for a in arrows)
        ctx.event("mirror_used", slot=act.slot, arrows=arrows)
    ctx.event("card_played", slot=act.slot, use="move", arrows=arrows)
    if act.fire in ("before", "both"):
        _fire(ctx, act.slot)
    completed = False if halted(s) else move_path(ctx, arrows)
    if act.fire in ("after", "both"):
        if completed:
            _fire(ctx, act.slot)
        elif not halted(s):
            ctx.event("fire_cancelled", reason="disorientation")
    end_hero_turn(ctx, act.slot)


def do_brake(ctx: Ctx, act: BrakeAction) -> None:
    ctx.event("card_played", slot=act.slot, use="brake", spaces=act.spaces)
    move_path(ctx, ("back",) * act.spaces)
    end_hero_turn(ctx, act.slot)


def enemy_targets(s: State) -> list[Space]:
    """Enemy Card: any civilian vehicle or the hero that is adjacent to an enemy vehicle."""
    near = {q for e in enemies(s) for q in neighbours(s, e.at)}
    targets = [v.at for v in s.vehicles if v.side == "civilian" and v.at in near]
    if s.hero in near:
        targets.append(s.hero)
    return sorted(targets)


# ruling: civilian-onto-uplink
def civilian_moves(s: State) -> list[tuple[Space, Space]]:
    """Civilian Card: a civilian moves to an adjacent empty space (backwards too); it never rams."""
    return sorted((v.at, q) for v in s.vehicles if v.side == "civilian"
                  for q in neighbours(s, v.at) if not blocked(s, q))


def civilian_may_move(s: State, frm: tuple[Any, ...], to: tuple[Any, ...]) -> bool:
    """Whether (frm, to) is one of _civilian_moves, decided without listing and sorting them all."""
    return (any(v.side == "civilian" and v.at == frm for v in s.vehicles) and to in neighbours(s, frm)
            and not blocked(s, to))


def do_enemy_fire(ctx: Ctx, act: EnemyFireAction) -> None:
    s = ctx.s
    target = pair(act.target)
    ctx.event("enemy_fires", target=target)
    if target == s.hero:
        damage_hero(ctx, "enemy card")
    else:
        victim = vehicle_at(s, target)
        assert victim is not None
        hit_vehicle(ctx, victim, "enemy")
    resume_after_card(ctx)


def do_civilian_move(ctx: Ctx, act: CivilianMoveAction) -> None:
    move_civilian(ctx, act.civilian, act.to)
    resume_after_card(ctx)


def move_civilian(ctx: Ctx, civilian: Sequence[int], to: Sequence[int]) -> None:
    """A civilian moved by a card or an upgrade: one step to an adjacent empty space."""
    s = ctx.s
    v = vehicle_at(s, pair(civilian))
    assert v is not None
    v = ctx.own(s.vehicles, v)
    v.at = pair(to)
    ctx.event("civilian_moved", **{"from": pair(civilian)}, to=v.at)
    _vehicle_enters(ctx, v)


# --- movement, ramming, firing -----------------------------------------------------------------


def move_path(ctx: Ctx, arrows: tuple[str, ...]) -> bool:
    """Move the hero arrow by arrow; False if the movement was cut short (disorientation, mission end)."""
    # ruling: mission-ends-at-once
    s = ctx.s
    for arrow in arrows:
        if s.game != "playing" or s.mission_status not in ("playing", None):  # _halted, inline
            return False
        completed = _step(ctx, arrow)
        settle(s)
        if not completed:
            return False
    return not halted(s)


def _step(ctx: Ctx, arrow: str) -> bool:
    """One arrow: off-road is ignored, vehicles and the boss are rammed. False = movement cancelled."""
    s = ctx.s
    delta = DELTA[arrow]
    dest = (s.hero[0] + delta[0], s.hero[1] + delta[1])
    if not (0 <= dest[0] < s.lanes and 0 <= dest[1] < s.rows):
        ctx.event("off_road", arrow=arrow, at=s.hero)
        return True
    part = part_at(s, dest) if s.boss is not None else None
    if part is not None:
        ctx.event("rammed", target="boss", part=part.id, at=dest)
        damage_hero(ctx, "rammed the boss", ram=True)
        return True
    victim = None
    for v in s.vehicles:  # _vehicle_at, inline
        if v.at == dest:
            victim = v
            break
    if victim is None:
        s.hero = dest
        ctx.event("hero_moved", arrow=arrow, to=dest)
        return _hero_enters(ctx, dest)
    ctx.event("rammed", target=victim.type, side=victim.side, at=dest)
    # ruling: ram-continue
    if victim.type == "truck":
        damage_hero(ctx, "rammed a truck", ram=True)
        return True
    s.hero = dest
    ctx.event("hero_moved", arrow=arrow, to=dest)
    if victim.type == "motorcycle":
        destroy(ctx, victim, "rammed")
    else:
        _push_car(ctx, victim, delta)
        damage_hero(ctx, "rammed a car", ram=True)
    return _hero_enters(ctx, dest)


def _push_car(ctx: Ctx, car: Vehicle, delta: Space) -> None:
    s = ctx.s
    beyond = add(car.at, delta)
    # ruling: crush-occupied
    if not on_board(s, beyond) or blocked(s, beyond):
        destroy(ctx, car, "crushed")
        return
    ctx.event("vehicle_pushed", side=car.side, **{"from": car.at}, to=beyond)
    car = ctx.own(s.vehicles, car)
    car.at = beyond
    _vehicle_enters(ctx, car)


def _vehicle_enters(ctx: Ctx, v: Vehicle) -> None:
    """A non-hero vehicle arrived: it discards an up-link cube and removes a weapon token there."""
    s = ctx.s
    if v.at in s.uplinks:
        s.uplinks.remove(v.at)
        ctx.event("uplink_discarded", at=v.at, by=v.side)
    token = token_at(s, v.at)
    if token is not None:
        remove_token(ctx, token, f"collided with a {v.side} {v.type}")


def _hero_enters(ctx: Ctx, p: Space) -> bool:
    """The hero arrived on `p`: collect an up-link, collide with a weapon token. False = disoriented."""
    s = ctx.s
    if p in s.uplinks:
        s.uplinks.remove(p)
        ctx.event("uplink_collected", at=p)
        _gain_energy(ctx)
    token = token_at(s, p)
    if token is None:
        return True
    remove_token(ctx, token, "collided with the hero")
    if token.kind == "rocket" and s.boss is not None and "launch" in s.boss.weapons:
        return weapon_outcome(ctx, outcome_of(s, "launch"), "rocket")
    return True


def _fire(ctx: Ctx, slot: str) -> None:
    """Firing a Weapon: one shot into the adjacent space in the slot's direction."""
    s = ctx.s
    direction = FIRE_DIRECTION[slot]
    target = add(s.hero, DELTA[direction])
    ctx.event("fired", slot=slot, direction=direction, at=target)
    part = part_at(s, target) if on_board(s, target) else None
    victim = vehicle_at(s, target)
    token = token_at(s, target)
    if part is not None:
        hit_boss(ctx, part)
    elif victim is not None:
        hit_vehicle(ctx, victim, "shot")
    elif token is not None:
        remove_token(ctx, token, "shot")
    else:
        ctx.event("shot_missed", at=target)
    settle(s)


def hit_vehicle(ctx: Ctx, v: Vehicle, by: str) -> None:
    """One damage: motorcycles and cars are destroyed, a truck flips to damaged, a damaged one dies."""
    if v.type == "truck" and not v.damaged:
        v = ctx.own(ctx.s.vehicles, v)
        v.damaged = True
        ctx.event("truck_damaged", side=v.side, at=v.at, by=by)
        return
    destroy(ctx, v, by)


def destroy(ctx: Ctx, v: Vehicle, by: str) -> None:
    ctx.s.vehicles.remove(v)
    ctx.s.destroyed = [*ctx.s.destroyed, Destroyed(v.side, v.type, by)]  # a new list: the state before shares it
    ctx.event("vehicle_destroyed", side=v.side, type=v.type, at=v.at, by=by)


def damage_hero(ctx: Ctx, cause: str, ram: bool = False) -> None:
    """Hero Damage: the health cube moves one space left; on the leftmost space the mission ends. A
    ram-proof upgrade this turn takes away the damage of rams; a shield prevents damage of any kind."""
    s = ctx.s
    if ram and "ram-proof" in s.effects:
        ctx.event("damage_prevented", cause=cause, by="ram-proof")
        return
    if s.shield:
        s.shield -= 1
        ctx.event("damage_prevented", cause=cause, by="shield", shield_left=s.shield)
        return
    s.health = max(0, s.health - 1)
    s.damage_taken += 1
    ctx.event("hero_damaged", cause=cause, health=s.health)


# --- energy, upgrades, weapon outcomes ---------------------------------------------------------


def _energy_options(s: State) -> list[Any]:
    options: list[Any] = ["health"] if s.health < s.max_health else []
    options += [ChargeChoice(u.id) for u in s.upgrades if u.charges < u.charge_spaces]
    return options


# ruling: cube-names
def _gain_energy(ctx: Ctx) -> None:
    """Satellite Uplink: one energy, spent at once on one health or one charge."""
    s = ctx.s
    # ruling: uplink-energy
    choice = ctx.pick("energy", _energy_options(s), "the up-link's energy")
    if choice is None:
        ctx.event("energy_unused", reason="health is full and no upgrade has a free charge space")
        return
    if choice == "health":
        s.health += 1
    else:
        ctx.own(s.upgrades, upgrade_by_id(s, choice.charge)).charges += 1
    ctx.event("energy_spent", on=choice)


def upgrade_by_id(s: State, uid: str) -> Upgrade:
    found = next((u for u in s.upgrades if u.id == uid), None)
    if found is None:
        raise IllegalAction(f"{s.facts.title(uid)} is not installed on the car")
    return found


def weapon_outcome(ctx: Ctx, outcome: str, source: str) -> bool:
    """Weapon Outcomes. Returns False for disorientation: it cancels the movement in progress."""
    s = ctx.s
    ctx.event("weapon_outcome", outcome=outcome, source=source)
    if outcome == "explosion":
        damage_hero(ctx, f"explosion ({source})")
    # ruling: shock-mid-move
    elif outcome == "electric-shock":
        _shock_discard(ctx)
        move_path(ctx, ("back", "back"))
    else:
        if s.deck:
            card = s.deck.pop(0)
            s.discard.append(card)
            ctx.event("disoriented", card=card)
            # ruling: disorientation-traffic-card
            if card.kind == "hero":
                move_path(ctx, card.arrows)
        # ruling: disorientation-empty-deck
        else:
            ctx.event("disoriented", card=None)
    settle(s)
    return outcome != "disorientation"


# ruling: device-card
def shock_options(s: State) -> list[DiscardChoice]:
    return ([DiscardChoice(charge=u.id) for u in s.upgrades if u.charges]
            + [DiscardChoice(card=u.id) for u in s.upgrades if u.device])


def _shock_discard(ctx: Ctx) -> None:
    s = ctx.s
    choice = ctx.pick("discard", shock_options(s), "the electric shock's discard")
    if choice is None:
        ctx.event("shock_nothing_to_discard")
        return
    upgrade = upgrade_by_id(s, choice.charge or choice.card)
    if choice.charge is not None:
        ctx.own(s.upgrades, upgrade).charges -= 1
    else:
        s.upgrades.remove(upgrade)
    ctx.event("shock_discarded", what=choice)


def remove_token(ctx: Ctx, token: Token, reason: str) -> None:
    ctx.s.tokens.remove(token)
    ctx.s.supply[token.kind] = ctx.s.supply.get(token.kind, 0) + 1
    ctx.event("token_removed", token=token.kind, at=token.at, reason=reason)


def hit_boss(ctx: Ctx, part: BossPart) -> None:
    """Playing Against the Boss: a damage token on the part fired upon, unless it already has one."""
    boss = ctx.s.boss
    assert boss is not None
    # ruling: vulnerable-spots
    if part.id in boss.damaged:
        ctx.event("boss_already_damaged", part=part.id)
    elif len(boss.damaged) >= ctx.s.facts.damage_tokens:
        ctx.event("no_damage_token_left", part=part.id)
    else:
        boss.damaged = sorted([*boss.damaged, part.id])
        ctx.event("boss_damaged", part=part.id, vulnerable=part.vulnerable)


