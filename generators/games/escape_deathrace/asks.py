"""Escape Deathrace 2182 Micro: what the moves' options and rules share: the reason type, the question
type, each offered action made once, the player asked about, and the drops' names in players' words."""

from __future__ import annotations

from functools import lru_cache

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
    NitroDraw,
    PickDrop,
    PlayPower,
    Strike,
    TradePower,
    UseDrop,
)
from generators.games.escape_deathrace.state import Player, State
from generators.rules.contract import Ask

Why = str | None


AskS = Ask[State]


Where = tuple[str | None, str | None, str | None]  # a power card's (target, tile, kind)


DROP_WORDS = {"landmine": "landmine", "smoke": "smoke bomb", "gunfire": "gunfire drop", "fire": "fire drop"}


class Made:
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


made = Made()


def player_of(ask: AskS, player: str) -> Player:
    return ask.state.players[player]
