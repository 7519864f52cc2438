"""What a seat observes of a state: each game's declared information sets (after OpenSpiel's
information state and observer; none of their code).

A game declares `Game.observation(state, player)`: everything that seat can know, as plain data.
Two states a seat cannot tell apart give it equal observations, and a player decides from the
observation alone: where the state holds something the seat cannot see (a face-down order, another
player's hand), the game's `resample` deals it again from the observation, and players decide on
such re-dealt worlds, never on the true one. The shared test (tests/test_information.py) checks
both halves on seeded games of every engine.

`plain` turns a state into comparable plain data (records and dataclasses by field, mappings by
key, sets sorted), so an observation is "the state, with its hidden parts replaced by what the seat
knows of them" (`seen`); a game of perfect information observes the whole state (`whole`).
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Mapping
from typing import Any


def plain(value: Any) -> Any:
    """`value` as plain, comparable data: equal for states that hold the same things in the same
    places, whatever their identities or copy history. Dataclass fields declared `compare=False`
    (caches of what the rest already holds) are left out."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, Mapping):
        return sorted(([plain(k), plain(v)] for k, v in value.items()), key=repr)
    if isinstance(value, (set, frozenset)):
        return sorted((plain(v) for v in value), key=repr)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [type(value).__name__, {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)
                                       if f.compare and hasattr(value, f.name)}]
    if hasattr(value, "__dict__"):
        return [type(value).__name__, {k: plain(v) for k, v in sorted(vars(value).items())}]
    if callable(value):
        return getattr(value, "__qualname__", repr(value))
    return repr(value)


def seen(state: Any, hidden: Mapping[str, Any]) -> dict[str, Any]:
    """The state's fields as plain data, each field named in `hidden` replaced by what the seat
    knows of it (its cards sorted, a count): a game's observation in one line."""
    out = dict(plain(state)[1])
    for name, known in hidden.items():
        if name not in out:
            raise KeyError(f"{type(state).__name__} has no field {name!r} to hide")
        out[name] = plain(known)
    return out


def whole(state: Any, player: str) -> Any:
    """The observation of a game of perfect information: every seat sees the whole state."""
    return plain(state)


Observation = Callable[[Any, str], Any]
