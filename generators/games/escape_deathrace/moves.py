"""Escape Deathrace 2182 Micro: the moves. For each action kind, the concrete actions worth asking about
(`options`), the rules that allow or refuse one (each None when it holds, else why not, in players'
words, naming the rule), and `resolve` (in `resolve`). Legal actions are the options every rule allows;
a refusal is the first rule that does not hold.

The options come in the order the first engine listed them, so seeded whole games replay the same.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from generators.games.escape_deathrace.drops import drop_spots, fire_reach, gift_pile, supply_left
from generators.games.escape_deathrace.facts import DROP_KINDS, GUNFIRE_BY_DISTANCE, Effect, extra_space
from generators.games.escape_deathrace.race import battle_candidates
from generators.games.escape_deathrace.resolve import (
    Handler,
    do_attack,
    do_boss_battle,
    do_choose_target,
    do_collect_drop,
    do_discard_drop,
    do_draw,
    do_draw_power,
    do_draw_tile,
    do_drive,
    do_end_turn,
    do_hazard_attempt,
    do_lay_tile,
    do_nitro_draw,
    do_pick_drop,
    do_play_power,
    do_strike,
    do_trade_power,
    do_use_drop,
    resolver,
)
from generators.games.escape_deathrace.road import (
    boss_alive,
    distances,
    final_targets,
    laid_exits,
    lay_options,
    legal_paths,
    open_spots,
    path_problem,
    peaceful,
    side_toward,
    spot_problem,
    tile_of,
    tiles_left,
    turn_order_from,
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
from generators.games.escape_deathrace.state import Player, State
from generators.games.escape_deathrace.turns import actor, phase_of
from generators.games.escape_deathrace.words import card_title, tile_words
from generators.rules.contract import Ask, Move
from generators.rules.wording import listed

Why = str | None
AskS = Ask[State]
Where = tuple[str | None, str | None, str | None]  # a power card's (target, tile, kind)
DROP_WORDS = {"landmine": "landmine", "smoke": "smoke bomb", "gunfire": "gunfire drop", "fire": "fire drop"}


class _Made:
    """Each offered action made once and shared: actions are frozen records equal by value, and making
    one costs more than the rules that judge it (a bounded cache per kind, keyed by the action's fields)."""

    PickDrop = staticmethod(lru_cache(maxsize=1 << 12)(PickDrop))
    Draw = staticmethod(lru_cache(maxsize=1 << 12)(Draw))
    DrawTile = staticmethod(lru_cache(maxsize=1 << 12)(DrawTile))
    Drive = staticmethod(lru_cache(maxsize=1 << 12)(Drive))
    NitroDraw = staticmethod(lru_cache(maxsize=1 << 12)(NitroDraw))
    HazardAttempt = staticmethod(lru_cache(maxsize=1 << 12)(HazardAttempt))
    BossBattle = staticmethod(lru_cache(maxsize=1 << 12)(BossBattle))
    Attack = staticmethod(lru_cache(maxsize=1 << 12)(Attack))
    Strike = staticmethod(lru_cache(maxsize=1 << 12)(Strike))
    ChooseTarget = staticmethod(lru_cache(maxsize=1 << 12)(ChooseTarget))
    UseDrop = staticmethod(lru_cache(maxsize=1 << 12)(UseDrop))
    PlayPower = staticmethod(lru_cache(maxsize=1 << 12)(PlayPower))
    TradePower = staticmethod(lru_cache(maxsize=1 << 12)(TradePower))
    DrawPower = staticmethod(lru_cache(maxsize=1 << 12)(DrawPower))
    CollectDrop = staticmethod(lru_cache(maxsize=1 << 12)(CollectDrop))
    DiscardDrop = staticmethod(lru_cache(maxsize=1 << 12)(DiscardDrop))
    EndTurn = staticmethod(lru_cache(maxsize=1 << 12)(EndTurn))


_made = _Made()


def _me(ask: AskS, player: str) -> Player:
    return ask.state.players[player]


# --- who acts ------------------------------------------------------------------------------------


def _acting(ask: AskS, a: Any) -> Why:
    who = ask.cached("actor", lambda: actor(ask.state))
    if a.player == who:
        return None
    s = ask.state
    if a.player not in s.players:
        return f"no player called {a.player} is in this race"
    if s.turn.phase == "draft":
        return f"{who} picks the next weapon drop (Setup, step 4: one at a time, in turn order)"
    if s.rewards:
        return f"{who} takes a reward first"
    if s.battle is not None:
        return f"{who} picks the target of the next strike in the battle-it-out"
    return f"it is {who}'s turn, not {a.player}'s"


# --- Setup: weapon drop picks ---------------------------------------------------------------------


def _pick_options(ask: AskS, player: str) -> list[PickDrop]:
    return [_made.PickDrop("pick_drop", player, k) for k in DROP_KINDS]


def _in_supply(ask: AskS, a: PickDrop) -> Why:
    supply = ask.cached("supply", lambda: supply_left(ask.state))
    return None if supply.get(a.kind, 0) > 0 else f"no {DROP_WORDS[a.kind]} is left in the supply"


# --- rewards and card gifts -------------------------------------------------------------------------


def _reward(s: State) -> str | None:
    return s.rewards[0][0] if s.rewards else None


_REWARD_WORDS = {
    "power": "the reward is a power card: draw it from the deck or the face-up discard pile",
    "drop": "the reward is a used weapon drop: collect one from the graveyard",
    "supply": "the card gives a weapon drop: collect one",
    "discard": "the card takes one of your weapon drops: give one up",
}


def _reward_is(*kinds: str) -> Callable[[AskS, Any], Why]:
    def rule(ask: AskS, a: Any) -> Why:
        what = _reward(ask.state)
        return None if what in kinds else _REWARD_WORDS.get(what or "", "no reward is being taken")
    return rule


def _draw_power_options(ask: AskS, player: str) -> list[DrawPower]:
    if _reward(ask.state) != "power":
        return []
    return [_made.DrawPower("draw_power", player, "deck"), _made.DrawPower("draw_power", player, "discard")]


def _collect_options(ask: AskS, player: str) -> list[CollectDrop]:
    s = ask.state
    what = _reward(s)
    if what not in ("drop", "supply"):
        return []
    pile = gift_pile(s, what)
    return [_made.CollectDrop("collect_drop", player, k) for k in DROP_KINDS if pile.get(k)]


def _in_gift_pile(ask: AskS, a: CollectDrop) -> Why:
    s = ask.state
    what = _reward(s) or "drop"
    if gift_pile(s, what).get(a.kind):
        return None
    where = "the graveyard" if what == "drop" or not any(supply_left(s).values()) else "the supply"
    return f"no {DROP_WORDS[a.kind]} is in {where}"


def _discard_options(ask: AskS, player: str) -> list[DiscardDrop]:
    if _reward(ask.state) != "discard":
        return []
    p = _me(ask, player)
    return [_made.DiscardDrop("discard_drop", player, k) for k in DROP_KINDS if p.drops[k]]


def _holds_drop(ask: AskS, a: DiscardDrop) -> Why:
    p = ask.state.players[a.player]
    return None if p.drops.get(a.kind, 0) else f"{a.player} holds no {DROP_WORDS[a.kind]}"


# --- battle-it-out with three or more cars, and the final tile's newcomer ---------------------------


def _strike_options(ask: AskS, player: str) -> list[Strike]:
    s = ask.state
    if s.battle is None:
        return []
    return [_made.Strike("strike", player, n) for n in _battle_names(s)]


def _battle_names(s: State) -> list[str]:
    b = s.battle
    assert b is not None
    return [q.name for q in battle_candidates(s, b, s.players[b.queue[0][0]])]


def _strike_target(ask: AskS, a: Strike) -> Why:
    names = _battle_names(ask.state)
    return None if a.target in names else f"{a.player} may strike at {listed(names)} (the cars in this battle-it-out)"


def _target_options(ask: AskS, player: str) -> list[ChooseTarget]:
    return [_made.ChooseTarget("choose_target", player, q.name) for q in final_targets(ask.state, _me(ask, player))]


def _target_here(ask: AskS, a: ChooseTarget) -> Why:
    s = ask.state
    names = [q.name for q in final_targets(s, s.players[a.player])]
    if a.target in names:
        return None
    if a.target in s.shielded:
        return f"smoke keeps {a.target} from being targeted; {a.player} may target {listed(names)}"
    return f"{a.player} may target {listed(names)} (the cars on the final tile)"


# --- the boss battle sequence -----------------------------------------------------------------------


def _boss_battle_options(ask: AskS, player: str) -> list[BossBattle]:
    out = [_made.BossBattle("boss_battle", player)]
    if _me(ask, player).drops["smoke"]:
        out.append(_made.BossBattle("boss_battle", player, True))
    return out


def _smoke_held(ask: AskS, a: BossBattle) -> Why:
    if a.smoke and not ask.state.players[a.player].drops["smoke"]:
        return f"{a.player} holds no smoke bomb to make the first strike miss"
    return None


def _attack_options(ask: AskS, player: str) -> list[Attack]:
    s = ask.state
    t = s.turn
    if t.phase != "boss" or not t.strikes_left:
        return []
    p = _me(ask, player)
    tile = tile_of(s, p)
    if boss_alive(s, tile):
        return [_made.Attack("attack", player)]
    if tile.kind == "final-boss":
        return [_made.Attack("attack", player, q.name) for q in final_targets(s, p)]
    return []


def _attack_allowed(ask: AskS, a: Attack) -> Why:
    s = ask.state
    t = s.turn
    p = s.players[a.player]
    here = tile_of(s, p)
    live = boss_alive(s, here)
    if not live and here.kind != "final-boss":
        return (f"an attack is a boss battle action: {a.player} is on {tile_words(s, here.id)}, where no boss "
                "lives (on the final tile, once its boss is dead, the cars attack each other)")
    if not t.strikes_left:
        return "the boss battle's D4 roll is already made this turn"
    if live:
        return None if a.target is None else f"the strike goes at the boss on {tile_words(s, here.id)}: name no car"
    names = [q.name for q in final_targets(s, p)]
    if not names:
        return "smoke covers every other car on the final tile: there is no car to strike"
    if a.target in names:
        return None
    return f"{a.player} may strike at {listed(names)} (a car on the final tile that smoke does not cover)"


# --- the turn: movement ------------------------------------------------------------------------------


def _movement_open(ask: AskS, a: Any) -> Why:
    """The movement (a draw's or a card's) is open; in the rest of a turn, why not."""
    s = ask.state
    t = s.turn
    if t.phase in ("drawn",) or t.extra_move is not None:
        return None
    p = s.players[a.player]
    here = tile_of(s, p) if p.tile else None
    if here is not None and boss_alive(s, here):
        return (f"{a.player} is in a boss battle: no car leaves {tile_words(s, here.id)} until its boss is "
                "defeated")
    if here is not None and here.kind == "final-boss":
        return "once on the final boss tile, a car never moves off it"
    if t.phase == "start":
        return "draw for movement first"
    return "the movement is already done this turn"


def _draw_options(ask: AskS, player: str) -> list[Draw]:
    return [_made.Draw("draw", player)] if ask.state.turn.phase == "start" else []


def _draw_first(ask: AskS, a: Draw) -> Why:
    t = ask.state.turn
    if t.phase == "start":
        return None
    why = _movement_open(ask, a)
    return "the movement is already done this turn" if why == "draw for movement first" else why


def _no_tile_in_hand(ask: AskS, a: Any) -> Why:
    t = ask.state.turn
    if t.tile_in_hand is None:
        return None
    return f"lay the road tile just drawn ({_card_tile(ask.state, t.tile_in_hand)}) first"


def _card_tile(s: State, face: str) -> str:
    f = s.box.tiles.get(face)
    return f.title if f is not None else face


def _drive_options(ask: AskS, player: str) -> list[Drive]:
    s = ask.state
    t = s.turn
    if (t.phase != "drawn" and t.extra_move is None) or t.tile_in_hand is not None:
        return []
    return [_made.Drive("drive", player, path) for path in _paths(ask, player)]


def _paths(ask: AskS, player: str) -> dict[tuple[str, ...], None]:
    """The drives the path rule allows `player` now: its own search (`legal_paths` follows the same step
    rules as `_path_problem`), asked once per question."""
    s = ask.state
    return ask.cached(("paths", player),
                    lambda: dict.fromkeys(legal_paths(s, s.players[player], s.turn.allowance)))


def _path_ok(ask: AskS, a: Drive) -> Why:
    # ruling: movement-up-to-vs-at-least-one
    if a.path in _paths(ask, a.player):
        return None
    s = ask.state
    return path_problem(s, s.players[a.player], a.path, s.turn.allowance)


def _draw_tile_options(ask: AskS, player: str) -> list[DrawTile]:
    s = ask.state
    t = s.turn
    if (t.phase != "drawn" and t.extra_move is None) or t.tile_in_hand is not None:
        return []
    if t.laid < t.lay_allowance and tiles_left(s) and open_spots(s):
        return [_made.DrawTile("draw_tile", player)]
    return []


def _tiles_to_lay(ask: AskS, a: DrawTile) -> Why:
    # ruling: tiles-laid-per-draw
    s = ask.state
    t = s.turn
    if t.laid >= t.lay_allowance:
        return f"this movement lays at most {t.lay_allowance} road tile(s), and {a.player} has laid them"
    if not tiles_left(s):
        return "the road stack is used up"
    if not open_spots(s):
        return "no open road end is left to lay a tile at"
    return None


def _lay_tile_options(ask: AskS, player: str) -> list[LayTile]:
    t = ask.state.turn
    if t.tile_in_hand is None or (t.phase != "drawn" and t.extra_move is None):
        return []
    return list(_lays(ask, player))


def _lays(ask: AskS, player: str) -> dict[LayTile, None]:
    """Where the tile in hand may go: the laying rule's own search (`_lay_options` walks the open spots
    `_lay_place` checks), asked once per question."""
    s = ask.state
    face = s.turn.tile_in_hand
    return ask.cached(("lays", player), lambda: dict.fromkeys(
        lay_options(s, s.players[player], face) if face is not None else ()))


def _tile_drawn(ask: AskS, a: LayTile) -> Why:
    return None if ask.state.turn.tile_in_hand is not None else "draw a road tile first"


def _lay_place(ask: AskS, a: LayTile) -> Why:
    if a in _lays(ask, a.player):
        return None
    s = ask.state
    face = s.turn.tile_in_hand
    assert face is not None
    sources = open_spots(s).get(tuple(a.at))  # type: ignore[arg-type]
    if not sources:
        return "a road tile goes on an empty space that an open road end leads to"
    names = [src.id for src in sources]
    if len(sources) > 1 and a.source not in names:
        return (f"several road ends lead to that space: name the tile it joins "
                f"({listed(tile_words(s, n) for n in names)})")
    if len(sources) == 1 and a.source is not None:
        return f"only {tile_words(s, names[0])} leads to that space: name no tile"
    src = sources[0] if len(sources) == 1 else next(t for t in sources if t.id == a.source)
    exits = laid_exits(s.box.tiles[face].shape, side_toward(a.at[0], a.at[1], src))
    if s.box.tiles[face].kind == "nitro-nos":
        if a.arrow not in tuple(exits):
            return "a nitro-nos tile's arrows point along its road: name which way"
    elif a.arrow is not None:
        return "only nitro-nos tiles have arrows"
    return None


# --- the turn: before or after moving ---------------------------------------------------------------


def _hazard_options(ask: AskS, player: str) -> list[HazardAttempt]:
    s = ask.state
    t = s.turn
    p = _me(ask, player)
    if p.hazard_side is None or t.extra_move is not None:
        return []
    if t.phase == "start" or (t.phase == "moved" and not t.hazard_tried):
        return [_made.HazardAttempt("hazard_attempt", player)]
    return []


def _at_hazard(ask: AskS, a: HazardAttempt) -> Why:
    # ruling: hazard-after-passing
    s = ask.state
    if s.players[a.player].hazard_side is None:
        return f"{a.player} is not stopped at a hazard tile"
    if s.turn.hazard_tried:
        return "one hazard attempt a turn: try again next turn, or retreat"
    return None


def _nitro_options(ask: AskS, player: str) -> list[NitroDraw]:
    t = ask.state.turn
    return [_made.NitroDraw("nitro_draw", player)] if t.nitro_open and t.phase == "moved" else []


def _nitro_open(ask: AskS, a: NitroDraw) -> Why:
    if ask.state.turn.nitro_open:
        return None
    return ("a nitro-nos draw comes right after a drive that ends on a nitro-nos tile, with an empty space "
            "ahead of its arrows")


# --- weapon drops -----------------------------------------------------------------------------------


def _drop_options(ask: AskS, player: str) -> list[UseDrop]:
    s = ask.state
    if s.turn.drop_used or s.turn.extra_move is not None:
        return []
    return _drop_actions(s, _me(ask, player))


# ruling: one-weapon-drop-per-turn
def _drop_actions(s: State, p: Player) -> list[UseDrop]:
    tile = tile_of(s, p)
    held = [k for k in DROP_KINDS if p.drops[k]]
    me = p.name
    two_fires = "double-fire" in p.abilities and p.drops["fire"] >= 2
    if not held or tile.kind in ("start", "hazard"):
        return []
    if boss_alive(s, tile):
        if s.turn.phase != "boss":
            return []
        out = [_made.UseDrop("use_drop", me, k) for k in held if k != "smoke"]
        return out + ([_made.UseDrop("use_drop", me, "fire", 2)] if two_fires else [])
    if tile.kind == "final-boss":
        targets = [q.name for q in final_targets(s, p)]
        out = [_made.UseDrop("use_drop", me, k, target=q) for k in held if k != "smoke" for q in targets]
        if two_fires:
            out += [_made.UseDrop("use_drop", me, "fire", 2, targets=(a, b)) for i, a in enumerate(targets)
                    for b in targets[i:]]
        if p.drops["smoke"] and me not in s.shielded:
            out.append(_made.UseDrop("use_drop", me, "smoke"))
        return out
    out = []
    for k in held:
        if k == "smoke":
            if not any(d.kind == "smoke" and d.tile == tile.id for d in s.board):
                out.append(_made.UseDrop("use_drop", me, "smoke"))
        elif k == "gunfire":
            out += [_made.UseDrop("use_drop", me, "gunfire", target=q.name) for q in _shootable(s, p)]
        else:
            out += [_made.UseDrop("use_drop", me, k, tile=tid) for tid in drop_spots(s, p, k)]
    if two_fires:
        spots = drop_spots(s, p, "fire")
        out += [_made.UseDrop("use_drop", me, "fire", 2, tiles=(a, b)) for i, a in enumerate(spots)
                for b in spots[i + 1:]]
    return out


def _shootable(s: State, p: Player) -> list[Player]:
    """Cars `p`'s gunfire reaches: the gunfire rule's own test, for every other car in turn order."""
    return [q for q in (s.players[n] for n in turn_order_from(s, p.name)[1:]) if _gunfire_problem(s, p, q) is None]


# ruling: gunfire-in-motion
def _gunfire_problem(s: State, p: Player, q: Player) -> Why:
    if not q.alive or q.tile is None:
        return f"{q.name} is out of the race"
    here = tile_of(s, p)
    why = peaceful(s, here)
    if why:
        return f"no gunfire is fired from {tile_words(s, here.id)}: {_CALM[why]}"
    if q.tile == p.tile:
        return f"{q.name} is on {p.name}'s own tile: gunfire shoots a car 1 or 2 road tiles away"
    dist = distances(s, here.id).get(q.tile)
    if dist not in GUNFIRE_BY_DISTANCE:
        away = "not joined by road" if dist is None else f"{dist} road tiles away"
        return f"{q.name} is out of gunfire range: {away}, and gunfire reaches 2 road tiles"
    why = peaceful(s, tile_of(s, q))
    if why:
        return f"no gunfire reaches {q.name} on {tile_words(s, q.tile)}: {_CALM[why]}"
    if q.name in s.shielded:
        return f"smoke keeps {q.name} from being targeted"
    return None


_CALM = {"start tile": "the start tile is out of play, and no weapon drop, power card, drive-by or battle-it-out takes "
                       "place on it (Questions and Answers, Q&A 1)",
         "hazard tile": "no weapon drop is used on a hazard tile",
         "smoke": "smoke covers it (smoke stops gunfire into and out of its tile)"}


def _one_drop_a_turn(ask: AskS, a: UseDrop) -> Why:
    return "one weapon drop a turn: this turn's is used" if ask.state.turn.drop_used else None


def _drop_ground(ask: AskS, a: UseDrop) -> Why:
    s = ask.state
    kind = tile_of(s, s.players[a.player]).kind
    return f"no weapon drop is used on the {kind} tile" if kind in ("start", "hazard") else None


def _drops_held(ask: AskS, a: UseDrop) -> Why:
    s = ask.state
    p = s.players[a.player]
    if a.count == 2 and "double-fire" not in p.abilities:
        return "only Mista may use two drops at once (two fire drops)"
    if a.count == 2 and a.kind != "fire":
        return "two drops at once are two fire drops (Mista)"
    n = p.drops.get(a.kind, 0)
    if n >= a.count:
        return None
    return f"{a.player} holds no {DROP_WORDS[a.kind]}" if n == 0 else f"{a.player} holds only {n} {a.kind} drop"


def _drop_aim(ask: AskS, a: UseDrop) -> Why:
    """Where the drop goes, or whom it hits: a boss battle, the dead final tile, or the open road."""
    s = ask.state
    p = s.players[a.player]
    here = tile_of(s, p)
    if boss_alive(s, here):
        if a.kind == "smoke":
            return ("in a boss battle a smoke bomb is used against the boss's first strike, as the sequence "
                    "begins")
        if a.tile or a.tiles or a.target or a.targets:
            return "in a boss battle a weapon drop hits the boss: name no tile or car"
        return None
    if here.kind == "final-boss":
        return _final_aim(s, p, a)
    if (a.target is not None or a.targets) and a.kind != "gunfire":
        return f"a {DROP_WORDS[a.kind]} goes on a tile, not at a car"
    if a.kind == "smoke":
        if a.tile is not None or a.tiles or a.target is not None:
            return "a smoke bomb covers its placer's own tile: name no tile or car"  # ruling: smoke-placement
        if any(d.kind == "smoke" and d.tile == here.id for d in s.board):
            return f"smoke already covers {tile_words(s, here.id)}"
        return None
    if a.kind == "gunfire":
        if a.target is None or a.tile is not None or a.tiles:
            return "name the car the gunfire shoots"
        q = s.players.get(a.target)
        if q is None or q is p:
            cars = [q.name for q in _shootable(s, p)]
            if not cars:
                return f"no car is in {a.player}'s gunfire range (1 or 2 road tiles, out of smoke)"
            return f"{a.player} may shoot at {listed(cars)}"
        return _gunfire_problem(s, p, q)
    spots = list(a.tiles) if a.count == 2 else [a.tile]
    if a.count == 2 and (len(a.tiles) != 2 or a.tile is not None):
        return "two fire drops at once go on two tiles: name both"
    for tid in spots:
        if tid is None:
            return f"name the tile the {DROP_WORDS[a.kind]} goes on"
        if why := _spot_refusal(s, p, a.kind, tid):
            return why
    if a.count == 2:
        reach = drop_spots(s, p, "fire")
        first, second = a.tiles
        if first == second:
            return "two fire drops go on two different tiles"
        if reach.index(first) > reach.index(second):
            return f"name the two tiles in the order they were driven: {listed(tile_words(s, t) for t in reach)}"
    return None


def _final_aim(s: State, p: Player, a: UseDrop) -> Why:
    """On the dead final tile the cars are the bosses: a drop hits a car smoke does not cover."""
    # ruling: kills-on-the-final-tile
    if a.kind == "smoke":
        if a.tile is not None or a.tiles or a.target is not None or a.targets:
            return "a smoke bomb covers its placer: name no tile or car"
        return f"smoke already covers {p.name}" if p.name in s.shielded else None
    if a.tile is not None or a.tiles:
        return "on the final tile a weapon drop hits a car: name the car, not a tile"
    names = [q.name for q in final_targets(s, p)]
    if not names:
        return "smoke covers every other car on the final tile: there is no car to hit"
    wanted = list(a.targets) if a.count == 2 else [a.target]
    if a.count == 2 and (len(a.targets) != 2 or a.target is not None):
        return "two fire drops at once hit two cars, or one car twice: name them both"
    for name in wanted:
        if name not in names:
            return f"{p.name} may hit {listed(names)} (a car on the final tile that smoke does not cover)"
    if a.count == 2 and names.index(a.targets[0]) > names.index(a.targets[1]):
        return f"name the two cars in turn order ({listed(names, 'then')})"
    return None


def _spot_refusal(s: State, p: Player, kind: str, tid: str) -> Why:
    """Why a landmine or fire drop cannot go on tile `tid` (None if it can)."""
    tile = s.tiles.get(tid)
    if tile is None:
        return f"no tile called {tid} is on the road"
    why = spot_problem(tile, kind, s.boss_hp)
    if why:
        return why
    if any(d.tile == tid and d.kind == kind for d in s.board):
        return f"a {DROP_WORDS[kind]} already lies on {tile_words(s, tid)}"
    if kind == "landmine":
        if tid in s.turn.touched:
            return None
        return (f"a landmine goes on a tile {p.name} touched this turn "
                f"({listed((tile_words(s, t) for t in s.turn.touched), 'and')})")
    # ruling: fire-drop-most-recent-turn
    reach = fire_reach(s, p)
    if tid in reach:
        return None
    return (f"a fire drop goes on a tile {p.name} moved over in its most recent turn "
            f"({listed((tile_words(s, t) for t in reach), 'and')})")


# --- power cards ------------------------------------------------------------------------------------


def _play_options(ask: AskS, player: str) -> list[PlayPower]:
    s = ask.state
    t = s.turn
    p = _me(ask, player)
    if t.power_used or t.extra_move is not None or tile_of(s, p).kind == "start":
        return []
    return [_made.PlayPower("play_power", player, c, target, tile, kind) for c in sorted(set(p.power))
            for target, tile, kind in _card_plays(ask, p, c)]


def _card_plays(ask: AskS, p: Player, card: str) -> list[Where]:
    return ask.cached(("plays", card), lambda: _plays(ask.state, p, ask.state.box.effects[card]))


# ruling: unprinted-cards
def _plays(s: State, p: Player, e: Effect) -> list[Where]:
    """Every way a power card can be played now: its one timed part decides when (and at what); a card with
    none can be played whenever power cards can, if any of its parts has something to do."""
    here, t = tile_of(s, p), s.turn
    fighting = t.phase == "boss" and boss_alive(s, here)
    final = t.phase == "boss" and here.kind == "final-boss" and not boss_alive(s, here)
    none: list[Where] = [(None, None, None)]
    if e.move:
        return none if t.phase == "moved" and legal_paths(s, p, e.move + extra_space(p.abilities)) else []
    if e.boss:
        return none if fighting else []
    if e.strike:
        return none if fighting else [(q.name, None, None) for q in final_targets(s, p)] if final else []
    if e.hit:
        if boss_alive(s, here):
            return []
        cars = final_targets(s, p) if here.kind == "final-boss" else _shootable(s, p)
        return [(q.name, None, None) for q in cars]
    if e.clear_drop:
        dist = distances(s, here.id)
        return [(None, d.tile, d.kind) for d in sorted(s.board, key=lambda d: (d.tile, d.kind))
                if dist.get(d.tile, e.clear_drop + 1) <= e.clear_drop]
    if e.hazard_pass:
        return none if p.hazard_side is not None and not t.hazard_tried and t.phase in ("start", "moved") else []
    useful = (e.heal or (e.power and (s.power_deck or s.power_discard))
              or (e.take_drop and (s.graveyard or (e.take_drop == "supply" and any(supply_left(s).values())))))
    return none if useful else []


def _holds_card(ask: AskS, a: PlayPower | TradePower) -> Why:
    s = ask.state
    if a.card in s.players[a.player].power:
        return None
    known = a.card in s.box.power
    return f"{a.player} holds no {card_title(s, a.card)} card" if known else f"{a.player} holds no such power card"


def _one_card_a_turn(ask: AskS, a: Any) -> Why:
    if ask.state.turn.power_used:
        return "one power card a turn, played or traded in: this turn's is used"
    return None


def _not_on_start(ask: AskS, a: PlayPower) -> Why:
    # ruling: start-tile-power-cards
    s = ask.state
    if tile_of(s, s.players[a.player]).kind == "start":
        return "power cards cannot be played on the start tile (Q&A 1); trading one in is allowed"
    return None


def _card_way(ask: AskS, a: PlayPower) -> Why:
    s = ask.state
    p = s.players[a.player]
    plays = _card_plays(ask, p, a.card)
    if (a.target, a.tile, a.kind) in plays:
        return None
    title = card_title(s, a.card)
    q = s.players.get(a.target or "")
    here = tile_of(s, p)
    if q is not None and q.tile is not None and s.box.effects[a.card].hit and here.kind != "final-boss":
        # the rule that keeps this car out of the card's reach, rather than the card's timing
        calm = peaceful(s, here)
        if calm:
            return f"{title} is not played from {tile_words(s, here.id)}: {_CALM[calm]}"
        calm = peaceful(s, tile_of(s, q))
        if calm:
            return f"{title} cannot hit {q.name} on {tile_words(s, q.tile)}: {_CALM[calm]}"
    if not plays:
        return f"{title} cannot be played now: {_timing(s.box.effects[a.card])}"
    shown = "; ".join(_play_words(s, w) for w in plays)
    return f"{title} can be played now only this way: {shown}" if len(plays) == 1 else \
        f"{title} can be played now in these ways: {shown}"


def _play_words(s: State, way: Where) -> str:
    """One way to play a power card (target, tile, kind of drop) in words."""
    target, tile, kind = way
    parts = [f"at {target}"] if target else []
    if tile:
        parts.append(f"on the {DROP_WORDS.get(kind or '', 'drop')} on {tile_words(s, tile)}")
    return ", ".join(parts) or "as it is"


def _timing(e: Effect) -> str:
    """When a power card can be played, in players' words (from its timed part)."""
    if e.move:
        return "after your movement, with road to move on"
    if e.boss:
        return "in a boss battle, against a live boss"
    if e.strike:
        return "in a boss battle, or on the final tile at a car once the final boss is dead"
    if e.hit:
        return "with a car in gunfire range (or a car to target on the final tile), not while fighting a boss"
    if e.clear_drop:
        return f"with a weapon drop lying within {e.clear_drop} road tiles"
    if e.hazard_pass:
        return "stopped at a hazard you have not tried this turn"
    return "it has nothing to do (no card, no drop to take)"


def _trade_options(ask: AskS, player: str) -> list[TradePower]:
    s = ask.state
    t = s.turn
    if t.power_used or t.extra_move is not None:
        return []
    cards = sorted(set(_me(ask, player).power))
    out: list[TradePower] = []
    if s.power_deck or s.power_discard:
        out += [_made.TradePower("trade_power", player, c, "deck") for c in cards]
    if s.power_discard:
        out += [_made.TradePower("trade_power", player, c, "discard") for c in cards]
    return out


def _pile_has(ask: AskS, a: TradePower | DrawPower) -> Why:
    s = ask.state
    if a.take == "discard":
        return None if s.power_discard else "the power card discard pile is empty"
    return None if s.power_deck or s.power_discard else "the power deck and its discard pile are both empty"


# --- ending the turn --------------------------------------------------------------------------------


def _can_move(ask: AskS, player: str) -> bool:
    """`flow.can_move`, from the answers this question already has (the same rules)."""
    t = ask.state.turn
    if t.tile_in_hand is not None:
        return bool(_lays(ask, player))
    return bool(_draw_tile_options(ask, player)) or bool(_paths(ask, player))


def _end_options(ask: AskS, player: str) -> list[EndTurn]:
    s = ask.state
    t = s.turn
    if t.phase == "over":
        return [_made.EndTurn("end_turn", player)]
    if t.extra_move is not None or t.phase == "start":
        return []
    if t.phase == "drawn":
        # ruling: movement-up-to-vs-at-least-one
        return [] if _can_move(ask, player) else [_made.EndTurn("end_turn", player)]
    if _attack_options(ask, player):  # ruling: boss-d4-roll-required
        return []
    return [_made.EndTurn("end_turn", player)]


def _may_end(ask: AskS, a: EndTurn) -> Why:
    s = ask.state
    t = s.turn
    if t.phase == "over":
        return None
    if t.extra_move == "event":
        return (f"Ending the turn must wait: the event card {card_title(s, s.event_active or '')} orders a movement, "
                "which comes first (an event card is resolved completely, Q&A 6)")
    if t.extra_move == "power":
        return "Ending the turn must wait: the power card's movement comes first"
    if t.phase == "start":
        return "you cannot skip your turn: draw for movement and move at least 1 space (Q&A 3)"
    if t.phase == "drawn":
        return "you cannot skip your turn: move at least 1 space (Q&A 3)" if _can_move(ask, a.player) else None
    if _attack_options(ask, a.player):
        return "the boss battle's D4 roll comes first: attack before ending the turn"
    return None


# --- the table ----------------------------------------------------------------------------------------

def _move(words: str, options: Any, rules: tuple[Any, ...], handler: Handler) -> Move[State, Any]:
    """One action kind. Every rule list opens with `_acting`, which every option meets (each is made for
    the player asked about, the one acting): listing skips it (Move.options_meet), a refusal asks it first."""
    assert rules[0] is _acting
    return Move(words, options, rules, resolver(handler), options_meet=1)


MOVES: dict[str, Move[State, Any]] = {
    "pick_drop": _move("pick a weapon drop", _pick_options, (_acting, _in_supply), do_pick_drop),
    "draw": _move("draw for movement", _draw_options, (_acting, _draw_first), do_draw),
    "draw_tile": _move("draw a road tile", _draw_tile_options,
                       (_acting, _movement_open, _no_tile_in_hand, _tiles_to_lay), do_draw_tile),
    "lay_tile": _move("lay a road tile", _lay_tile_options, (_acting, _movement_open, _tile_drawn, _lay_place),
                      do_lay_tile),
    "drive": _move("drive", _drive_options, (_acting, _movement_open, _no_tile_in_hand, _path_ok),
                   do_drive),
    "nitro_draw": _move("make a nitro-nos draw", _nitro_options, (_acting, _nitro_open), do_nitro_draw),
    "hazard_attempt": _move("try the hazard", _hazard_options, (_acting, _at_hazard), do_hazard_attempt),
    "boss_battle": _move("begin the boss battle", _boss_battle_options, (_acting, _smoke_held),
                         do_boss_battle),
    "attack": _move("attack", _attack_options, (_acting, _attack_allowed), do_attack),
    "strike": _move("strike in a battle-it-out", _strike_options, (_acting, _strike_target), do_strike),
    "choose_target": _move("pick a target", _target_options, (_acting, _target_here), do_choose_target),
    "use_drop": _move("use a weapon drop", _drop_options,
                      (_acting, _one_drop_a_turn, _drop_ground, _drops_held, _drop_aim), do_use_drop),
    "play_power": _move("play a power card", _play_options,
                        (_acting, _holds_card, _one_card_a_turn, _not_on_start, _card_way), do_play_power),
    "trade_power": _move("trade a power card in", _trade_options, (_acting, _holds_card, _one_card_a_turn, _pile_has),
                         do_trade_power),
    "draw_power": _move("draw a power card", _draw_power_options, (_acting, _reward_is("power"), _pile_has),
                        do_draw_power),
    "collect_drop": _move("collect a weapon drop", _collect_options, (_acting, _reward_is("drop", "supply"),
                                                                       _in_gift_pile), do_collect_drop),
    "discard_drop": _move("give up a weapon drop", _discard_options, (_acting, _reward_is("discard"), _holds_drop),
                          do_discard_drop),
    "end_turn": _move("end the turn", _end_options, (_acting, _may_end), do_end_turn),
}

__all__ = ["MOVES", "phase_of"]
