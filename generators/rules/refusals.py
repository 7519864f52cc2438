"""How the rules say no: an action refused in play, or a setup the rules cannot reach.

Both carry a reason in players' words (a refusal names the rule that forbids the action, never the
engine's own state); a setup refusal also points into the setup, so a scenario's mistake is reported
at file:line:column, and a scenario can expect it (`expect: {refused: ...}`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from generators.build_system.errors import KeyPath


class IllegalAction(Exception):
    """The action breaks the rules in this state; `legal` lists what was allowed (dicts)."""

    def __init__(self, message: str, legal: Sequence[Any] = ()):
        super().__init__(message)
        self.message = message
        self.legal = list(legal)


class SetupError(Exception):
    """A setup, option or action is malformed or unreachable for this game; `path` points into it
    (relative to the `setup` / action mapping) so callers can report file:line:column."""

    def __init__(self, path: KeyPath, message: str):
        super().__init__(message)
        self.path = tuple(path)
        self.message = message


@dataclass(frozen=True)
class Limit:
    """A setup no game reaches, declared by a rules package from its rulebook: `setup` (scenario setup
    data) puts `field` (its first key) beyond the rules' reach, of one `kind`: a piece on a space it can
    never stand on, a token where the book puts none, or a count above the components. The shared suite
    checks that each is refused, at that field, in players' words."""

    field: str
    kind: Literal["space", "token", "count"]
    setup: Mapping[str, Any]
