"""Escape Deathrace 2182 Micro: the power card actions' options and rules (Power Cards: one a turn,
played or traded in; what each card may aim at). What a card does is in `resolve` and `race`."""

from __future__ import annotations

from typing import Any

from generators.games.escape_deathrace.asks import DROP_WORDS, AskS, Where, Why, made, player_of
from generators.games.escape_deathrace.drop_moves import CALM, shootable
from generators.games.escape_deathrace.drops import supply_left
from generators.games.escape_deathrace.facts import Effect, extra_space
from generators.games.escape_deathrace.road import (
    boss_alive,
    distances,
    final_targets,
    legal_paths,
    peaceful,
    tile_of,
)
from generators.games.escape_deathrace.specs import (
    DrawPower,
    PlayPower,
    TradePower,
)
from generators.games.escape_deathrace.state import Player, State
from generators.games.escape_deathrace.words import card_title, tile_words


def play_options(ask: AskS, player: str) -> list[PlayPower]:
    s = ask.state
    t = s.turn
    p = player_of(ask, player)
    if t.power_used or t.extra_move is not None or tile_of(s, p).kind == "start":
        return []
    return [made.PlayPower("play_power", player, c, target, tile, kind) for c in sorted(set(p.power))
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
        cars = final_targets(s, p) if here.kind == "final-boss" else shootable(s, p)
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


def holds_card(ask: AskS, a: PlayPower | TradePower) -> Why:
    s = ask.state
    if a.card in s.players[a.player].power:
        return None
    known = a.card in s.box.power
    return f"{a.player} holds no {card_title(s, a.card)} card" if known else f"{a.player} holds no such power card"


def one_card_a_turn(ask: AskS, a: Any) -> Why:
    if ask.state.turn.power_used:
        return "one power card a turn, played or traded in: this turn's is used"
    return None


def not_on_start(ask: AskS, a: PlayPower) -> Why:
    # ruling: start-tile-power-cards
    s = ask.state
    if tile_of(s, s.players[a.player]).kind == "start":
        return "power cards cannot be played on the start tile (Q&A 1); trading one in is allowed"
    return None


def card_way(ask: AskS, a: PlayPower) -> Why:
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
            return f"{title} is not played from {tile_words(s, here.id)}: {CALM[calm]}"
        calm = peaceful(s, tile_of(s, q))
        if calm:
            return f"{title} cannot hit {q.name} on {tile_words(s, q.tile)}: {CALM[calm]}"
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


def trade_options(ask: AskS, player: str) -> list[TradePower]:
    s = ask.state
    t = s.turn
    if t.power_used or t.extra_move is not None:
        return []
    cards = sorted(set(player_of(ask, player).power))
    out: list[TradePower] = []
    if s.power_deck or s.power_discard:
        out += [made.TradePower("trade_power", player, c, "deck") for c in cards]
    if s.power_discard:
        out += [made.TradePower("trade_power", player, c, "discard") for c in cards]
    return out


def pile_has(ask: AskS, a: TradePower | DrawPower) -> Why:
    s = ask.state
    if a.take == "discard":
        return None if s.power_discard else "the power card discard pile is empty"
    return None if s.power_deck or s.power_discard else "the power deck and its discard pile are both empty"
