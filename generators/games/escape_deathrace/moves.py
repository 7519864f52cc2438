"""Escape Deathrace 2182 Micro: the moves. For each action kind, the concrete actions worth asking about
(`options`), the rules that allow or refuse one (each None when it holds, else why not, in players'
words, naming the rule), and `resolve` (in `resolve`); the weapon drops' and the power cards' options
and rules are chapters of their own (`drop_moves`, `power_moves`). Legal actions are the options every
rule allows; a refusal is the first rule that does not hold.

The options come in the order the first engine listed them, so seeded whole games replay the same.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from generators.games.escape_deathrace.asks import DROP_WORDS, AskS, Why, made, player_of
from generators.games.escape_deathrace.drop_moves import (
    drop_aim,
    drop_ground,
    drop_options,
    drops_held,
    one_drop_a_turn,
)
from generators.games.escape_deathrace.drops import gift_pile, supply_left
from generators.games.escape_deathrace.facts import DROP_KINDS
from generators.games.escape_deathrace.power_moves import (
    card_way,
    holds_card,
    not_on_start,
    one_card_a_turn,
    pile_has,
    play_options,
    trade_options,
)
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
    final_targets,
    laid_exits,
    lay_options,
    legal_paths,
    open_spots,
    path_problem,
    side_toward,
    tile_of,
    tiles_left,
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
    Strike,
)
from generators.games.escape_deathrace.state import State
from generators.games.escape_deathrace.turns import actor, phase_of
from generators.games.escape_deathrace.words import card_title, tile_words
from generators.rules.contract import Move
from generators.rules.wording import listed

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
    return [made.PickDrop("pick_drop", player, k) for k in DROP_KINDS]


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
    return [made.DrawPower("draw_power", player, "deck"), made.DrawPower("draw_power", player, "discard")]


def _collect_options(ask: AskS, player: str) -> list[CollectDrop]:
    s = ask.state
    what = _reward(s)
    if what not in ("drop", "supply"):
        return []
    pile = gift_pile(s, what)
    return [made.CollectDrop("collect_drop", player, k) for k in DROP_KINDS if pile.get(k)]


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
    p = player_of(ask, player)
    return [made.DiscardDrop("discard_drop", player, k) for k in DROP_KINDS if p.drops[k]]


def _holds_drop(ask: AskS, a: DiscardDrop) -> Why:
    p = ask.state.players[a.player]
    return None if p.drops.get(a.kind, 0) else f"{a.player} holds no {DROP_WORDS[a.kind]}"


# --- battle-it-out with three or more cars, and the final tile's newcomer ---------------------------


def _strike_options(ask: AskS, player: str) -> list[Strike]:
    s = ask.state
    if s.battle is None:
        return []
    return [made.Strike("strike", player, n) for n in _battle_names(s)]


def _battle_names(s: State) -> list[str]:
    b = s.battle
    assert b is not None
    return [q.name for q in battle_candidates(s, b, s.players[b.queue[0][0]])]


def _strike_target(ask: AskS, a: Strike) -> Why:
    names = _battle_names(ask.state)
    return None if a.target in names else f"{a.player} may strike at {listed(names)} (the cars in this battle-it-out)"


def _target_options(ask: AskS, player: str) -> list[ChooseTarget]:
    targets = final_targets(ask.state, player_of(ask, player))
    return [made.ChooseTarget("choose_target", player, q.name) for q in targets]


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
    out = [made.BossBattle("boss_battle", player)]
    if player_of(ask, player).drops["smoke"]:
        out.append(made.BossBattle("boss_battle", player, True))
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
    p = player_of(ask, player)
    tile = tile_of(s, p)
    if boss_alive(s, tile):
        return [made.Attack("attack", player)]
    if tile.kind == "final-boss":
        return [made.Attack("attack", player, q.name) for q in final_targets(s, p)]
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
    return [made.Draw("draw", player)] if ask.state.turn.phase == "start" else []


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
    return [made.Drive("drive", player, path) for path in _paths(ask, player)]


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
        return [made.DrawTile("draw_tile", player)]
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
    p = player_of(ask, player)
    if p.hazard_side is None or t.extra_move is not None:
        return []
    if t.phase == "start" or (t.phase == "moved" and not t.hazard_tried):
        return [made.HazardAttempt("hazard_attempt", player)]
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
    return [made.NitroDraw("nitro_draw", player)] if t.nitro_open and t.phase == "moved" else []


def _nitro_open(ask: AskS, a: NitroDraw) -> Why:
    if ask.state.turn.nitro_open:
        return None
    return ("a nitro-nos draw comes right after a drive that ends on a nitro-nos tile, with an empty space "
            "ahead of its arrows")


# --- weapon drops -----------------------------------------------------------------------------------


# --- power cards ------------------------------------------------------------------------------------


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
        return [made.EndTurn("end_turn", player)]
    if t.extra_move is not None or t.phase == "start":
        return []
    if t.phase == "drawn":
        # ruling: movement-up-to-vs-at-least-one
        return [] if _can_move(ask, player) else [made.EndTurn("end_turn", player)]
    if _attack_options(ask, player):  # ruling: boss-d4-roll-required
        return []
    return [made.EndTurn("end_turn", player)]


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
    "use_drop": _move("use a weapon drop", drop_options,
                      (_acting, one_drop_a_turn, drop_ground, drops_held, drop_aim), do_use_drop),
    "play_power": _move("play a power card", play_options,
                        (_acting, holds_card, one_card_a_turn, not_on_start, card_way), do_play_power),
    "trade_power": _move("trade a power card in", trade_options, (_acting, holds_card, one_card_a_turn, pile_has),
                         do_trade_power),
    "draw_power": _move("draw a power card", _draw_power_options, (_acting, _reward_is("power"), pile_has),
                        do_draw_power),
    "collect_drop": _move("collect a weapon drop", _collect_options, (_acting, _reward_is("drop", "supply"),
                                                                       _in_gift_pile), do_collect_drop),
    "discard_drop": _move("give up a weapon drop", _discard_options, (_acting, _reward_is("discard"), _holds_drop),
                          do_discard_drop),
    "end_turn": _move("end the turn", _end_options, (_acting, _may_end), do_end_turn),
}

__all__ = ["MOVES", "phase_of"]
