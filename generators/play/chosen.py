"""The games a whole-game command plays (`simulate`, its head to head, `balance`, `balance --confirm`):
each chosen game that has a rules package, in content order, with its package's name and its rules,
so a caller needs no check of its own that the game has an engine."""

from __future__ import annotations

from collections.abc import Collection, Iterator
from typing import Any

from generators.content.loader import Content
from generators.content.model import LoadedGame
from generators.rules.contract import Game, load_engine


def with_engines(content: Content, wanted: Collection[str] | None = None) -> Iterator[
        tuple[LoadedGame, str, Game[Any, Any]]]:
    """(game, its engine's name, its rules) for every game with an engine, or those of `wanted` (every
    one when it is empty or None)."""
    for game in content.games:
        if game.engine is not None and (not wanted or game.id in wanted):
            yield game, game.engine, load_engine(game.engine)
