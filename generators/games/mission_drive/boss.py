"""Mission: Drive: the boss encounter. Setting up the boss (pink cards, weapon cards, a hero-only deck)
and the boss's turn: upkeep, move, weapon activation, card replacement."""

from __future__ import annotations

import itertools

from generators.games.mission_drive.context import Ctx
from generators.games.mission_drive.facts import PINK_CARDS, SLOTS, TOKEN_OF, WEAPON_TYPES, Space
from generators.games.mission_drive.flow import drop_shield, settle
from generators.games.mission_drive.road import damage_hero, remove_token, weapon_outcome
from generators.games.mission_drive.setup import deal, design_cards
from generators.games.mission_drive.specs import BossSetupAction, BossTurnAction
from generators.games.mission_drive.state import (
    Boss,
    State,
    Token,
    add,
    empty,
    halted,
    manhattan,
    neighbours,
    on_board,
    outcome_of,
    part_at,
    part_space,
    vehicle_at,
)

# --- the boss ----------------------------------------------------------------------------------


def do_boss_setup(ctx: Ctx, act: BossSetupAction) -> None:
    """Setting Up the Boss: pink cards by difficulty, one weapon card per symbol, hero-only deck."""
    s = ctx.s
    from_mission = s.phase == "boss-setup"
    if from_mission:
        design = s.facts.bosses[s.boss_name]
        s.boss = Boss(name=design.name, parts=design.parts, tiles=design.tiles, activation=design.activation,
                      column=[], cards=design_cards(s, design, ("boss",)), pink=None, weapons={},
                      fixed_weapons={}, at=None, damaged=[])
        s.phase, s.mission_status, s.turn = "boss", "playing", "setup"
    boss = s.boss
    assert boss is not None
    count = PINK_CARDS[s.difficulty]
    pink = boss.pink
    if pink is None:
        options = [list(c) for c in itertools.combinations((1, 2, 3), count)]
        # Expert difficulty takes all three pink cards: nothing is left to chance.
        pink = tuple(options[0] if len(options) == 1 else ctx.chance.choice("pink boss cards", options))
    boss.column = [next(c for c in boss.cards if c.number == n and c.color == ("pink" if n in pink else "green"))
                   for n in (1, 2, 3)]
    ctx.event("boss_column", pink=sorted(pink), column=[f"{c.number} {c.color}" for c in boss.column])
    # ruling: boss-card-flip
    shown = {w for c in boss.column for f in c.faces for w in f.weapons}
    for kind in (k for k in WEAPON_TYPES if k in shown):
        name = boss.fixed_weapons.get(kind)
        if name is None:
            name = ctx.chance.choice(f"{kind} weapon card", [n for n, w in s.facts.weapons.items() if w.type == kind])
        boss.weapons[kind] = name
        ctx.event("weapon_card", type=kind, card=name)
    if from_mission:
        deal(ctx, [fid for fid, card in s.facts.movement if card.kind == "hero"])
    else:
        removed = [c for c in s.deck + s.discard if c.kind != "hero"]
        s.deck = [c for c in s.deck if c.kind == "hero"]
        s.discard = [c for c in s.discard if c.kind == "hero"]
        if removed:
            ctx.event("cards_to_box", cards=[c.kind for c in removed])
    # ruling: boss-setup-reset
    # Like every mission setup, the boss encounter starts with all three mirrors active (notes.yaml).
    if not all(s.mirrors.values()):
        s.mirrors = dict.fromkeys(SLOTS, True)
        ctx.event("mirrors_reset")
    s.turn = "boss"
    settle(s)


def do_boss_turn(ctx: Ctx, act: BossTurnAction) -> None:
    """The Boss' Turn: upkeep, move, weapon activation, card replacement."""
    s = ctx.s
    s.boss_turns += 1
    for step in (_boss_upkeep, _boss_move, _boss_activate, _boss_replace_card):
        step(ctx)
        settle(s)
        if halted(s):
            return
    s.turn = "hero"
    if s.shield:
        drop_shield(ctx)  # a shield lasts until the hero's next turn, which starts now


def _boss_upkeep(ctx: Ctx) -> None:
    s = ctx.s
    assert s.boss is not None
    for token in sorted(s.tokens, key=lambda t: t.id):
        if token not in s.tokens or halted(s):
            continue  # removed by an earlier collision this upkeep
        if token.kind == "rocket" and "launch" in s.boss.weapons:
            _rocket_upkeep(ctx, token)
        elif token.kind == "drone" and "drone" in s.boss.weapons and _surrounds(token.at, s.hero):
            ctx.event("drone_triggered", at=token.at)
            weapon_outcome(ctx, outcome_of(s, "drone"), "drone")
        settle(s)


def _surrounds(a: Space, b: Space) -> bool:
    """Drone Weapons: `b` is one of the 8 spaces around `a`."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1


def _rocket_upkeep(ctx: Ctx, token: Token) -> None:
    s = ctx.s
    dest = _rocket_step(s, token.at)
    if dest is None:
        return
    ctx.event("token_moved", token="rocket", **{"from": token.at}, to=dest)
    token.at = dest
    if dest == s.hero:
        remove_token(ctx, token, "collided with the hero")
        weapon_outcome(ctx, outcome_of(s, "launch"), "rocket")
        return
    other = next((t for t in s.tokens if t.at == dest and t is not token), None)
    if part_at(s, dest) is not None or vehicle_at(s, dest) is not None or other is not None:
        remove_token(ctx, token, "collided")
        if other is not None:
            remove_token(ctx, other, "collided")


# ruling: rocket-path
def _rocket_step(s: State, frm: Space) -> Space | None:
    """One orthogonal step that brings the rocket closer to the hero, avoiding the boss if it can."""
    closer = [p for p in neighbours(s, frm) if manhattan(p, s.hero) < manhattan(frm, s.hero)]
    if not closer:
        return None
    clear = [p for p in closer if part_at(s, p) is None] or closer
    gaps = {"row": abs(s.hero[1] - frm[1]), "col": abs(s.hero[0] - frm[0])}

    def preference(p: Space) -> tuple[int, int]:
        axis = "row" if p[1] != frm[1] else "col"
        return -gaps[axis], 0 if axis == "row" else 1

    return min(clear, key=preference)


def boss_spaces(boss: Boss) -> list[Space]:
    return [part_space(boss, p) for p in boss.parts]


def _boss_move(ctx: Ctx) -> None:
    s = ctx.s
    boss = s.boss
    assert boss is not None
    face = boss.column[0].face
    first = boss.at is None
    boss.at = dict(face.at)
    # ruling: road-size
    ctx.event("boss_placed" if first else "boss_moved", card=boss.column[0].number, at=dict(boss.at))
    spaces = boss_spaces(boss)
    for token in [t for t in s.tokens if t.at in spaces]:
        remove_token(ctx, token, "the boss landed on it")
    for v in [v for v in s.vehicles if v.at in spaces]:
        s.vehicles.remove(v)
        ctx.event("token_removed", token=f"{v.side} {v.type}", at=v.at, reason="the boss landed on it")
    if s.hero not in spaces:
        return
    damage_hero(ctx, "the boss landed on the hero")
    settle(s)
    if halted(s):
        return
    # ruling: boss-landing
    free = [q for q in neighbours(s, s.hero) if q not in spaces and empty(s, q)]
    if not free:
        ctx.event("hero_trapped", at=s.hero)
        return
    s.hero = ctx.pick("hero_to", free, "where the hero goes when the boss lands on it")
    ctx.event("hero_pushed_aside", to=s.hero)


def _boss_activate(ctx: Ctx) -> None:
    s = ctx.s
    boss = s.boss
    assert boss is not None
    for kind in boss.column[0].face.weapons:
        name = boss.weapons[kind]
        ctx.event("weapon_activated", type=kind, card=name)
        if kind == "target":
            targeted = {add(part_space(boss, p), t) for p in boss.parts if p.id not in boss.damaged
                        for t in p.targets}
            # ruling: multiple-strikes
            if s.hero in targeted:
                weapon_outcome(ctx, s.facts.weapons[name].outcome, name)
        else:
            _place_token(ctx, TOKEN_OF[kind])
        settle(s)
        if halted(s):
            return


def _place_token(ctx: Ctx, kind: str) -> None:
    """Put a rocket or drone on the closest empty activation space (reusing one if the supply is out)."""
    s = ctx.s
    boss = s.boss
    assert boss is not None and boss.at is not None
    spaces = list(dict.fromkeys(add(boss.at[tile], off) for tile, off in boss.activation))
    spaces = [p for p in spaces if on_board(s, p) and empty(s, p)]
    if not spaces:
        ctx.event("token_not_placed", token=kind, reason="no empty activation space")
        return
    # ruling: closest-activation-space
    where = min(spaces, key=lambda p: (manhattan(p, s.hero), spaces.index(p)))
    if s.supply.get(kind, 0) > 0:
        s.supply[kind] -= 1
        s.tokens.append(Token(s.next_token, kind, where))
        s.next_token += 1
        ctx.event("token_placed", token=kind, at=where)
        return
    oldest = min((t for t in s.tokens if t.kind == kind), key=lambda t: t.id, default=None)
    if oldest is None:
        ctx.event("token_not_placed", token=kind, reason="the game has no such token")
        return
    ctx.event("token_moved", token=kind, **{"from": oldest.at}, to=where, reason="supply empty")
    oldest.at = where


def _boss_replace_card(ctx: Ctx) -> None:
    boss = ctx.s.boss
    assert boss is not None
    # ruling: boss-card-flip
    card = boss.column.pop(0).flipped()
    boss.column.append(card)
    ctx.event("boss_card_replaced", card=card.number, side="back" if card.up else "front",
              next=boss.column[0].number)
