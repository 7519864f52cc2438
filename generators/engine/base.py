"""The small interface every game's rules module implements (OpenSpiel / boardgame.io style).

A game module is plain data plus pure functions: build a state from a scenario's `setup`, apply
one action (randomness only through the injected `Chance`), list the legal actions, project the
state to an observable outcome, and draw a state as SVG. The runner (generators/engine/runner.py)
drives it and compares the outcome with the scenario's `expect`; a module never sees `expect`.

A game's module is found from `engine:` in its game.yaml (`generators.engine.<engine>`), so a new
game adds one module and nothing else.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from generators.errors import KeyPath


class IllegalAction(Exception):
    """The scripted action breaks the rules in this state; `legal` lists what was allowed."""

    def __init__(self, message: str, legal: Sequence[Any] = ()):
        super().__init__(message)
        self.message = message
        self.legal = list(legal)


class SetupError(Exception):
    """A scenario's setup or action is malformed for this game; `path` points into the scenario
    (relative to the `setup` / action mapping) so the runner can report file:line:column."""

    def __init__(self, path: KeyPath, message: str):
        super().__init__(message)
        self.path = tuple(path)
        self.message = message


class ChanceExhausted(Exception):
    """The engine needed a random result the scenario did not script."""


@dataclass
class Chance:
    """The only source of randomness: scripted results in order (scenarios) or a seeded RNG."""

    script: list[Any] = field(default_factory=list)
    rng: Any = None  # a random.Random for simulations
    used: int = 0

    def next(self, what: str, options: Sequence[Any] | None = None) -> Any:
        """The next result for `what` (a die, a card draw); `options` are the possible values."""
        if self.used < len(self.script):
            value = self.script[self.used]
            self.used += 1
            if options is not None and value not in options:
                raise IllegalAction(f"scripted {what} {value!r} is not possible", options)
            return value
        if self.rng is not None and options:
            self.used += 1
            return self.rng.choice(list(options))
        raise ChanceExhausted(f"the scenario ran out of scripted random results at {what}")


@dataclass(frozen=True)
class Event:
    """Something that happened while applying an action: `kind` plus details."""

    kind: str
    data: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, **self.data}


class Rules(Protocol):
    """What a game module exposes (module-level functions with these names)."""

    def initial_state(self, setup: dict[str, Any]) -> Any: ...

    def apply(self, state: Any, action: dict[str, Any], chance: Chance) -> tuple[Any, list[Event]]: ...

    def legal_actions(self, state: Any) -> list[dict[str, Any]]: ...

    def outcome(self, state: Any, events: list[Event]) -> dict[str, Any]: ...

    def draw_svg(self, state: Any) -> str: ...


def rules_for(engine: str) -> Rules:
    """Import the rules module named in a game's `engine:` field."""
    return importlib.import_module(f"generators.engine.{engine}")  # type: ignore[return-value]
