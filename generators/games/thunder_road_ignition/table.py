"""Thunder Road at the table (generators/play/table.py): the round and each crew's dice, and a car's steps
offered as whole moves to each destination (the rules leave the path free; a slam on the way asks
again)."""

from __future__ import annotations

from typing import Any

from generators.games.thunder_road_ignition.state import State
from generators.rules.contract import Table
from generators.rules.facts import GameContent


def panel(state: State, seat: str, content: GameContent | None) -> list[tuple[str, list[str]]]:
    crews = [f"{c.name}: dice {', '.join(map(str, c.dice)) or 'none'}"
             + (f"; command {c.command}" if c.command else "") for c in state.crews.values()]
    return [("Round", [f"round {state.round}, {state.active}'s turn"]), ("Crews", crews)]


def path(state: State, action: Any) -> bool:
    return bool(action.do == "step")


TABLE: Table[Any, Any] = Table(panel=panel, path=path)
