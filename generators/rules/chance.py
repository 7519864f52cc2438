"""Chance: the only way randomness reaches a game's rules.

Every request names what it is for (`label`, such as "movement" or "road tile"). A scenario answers
with scripted results in order (each naming the roll it answers: one for another label is a
mismatch, never silently consumed); a simulation or a search answers with a seeded generator, so a
seed replays the same game.
"""

from __future__ import annotations

import random as _random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from generators.content.scenario import Scripted
from generators.rules.refusals import IllegalAction


class ChanceExhausted(Exception):
    """The engine needed a random result the scenario did not script."""


class ChanceMismatch(Exception):
    """A scripted random result answers another roll than the one the engine asked for."""


# --- chance ------------------------------------------------------------------------------------


@dataclass
class Chance:
    """The only source of randomness: labelled scripted results in order (scenarios), or a seeded
    generator (simulations). Every request names what it is for (`label`, such as "movement" or
    "road tile"); a scripted result for another label is a mismatch, never silently consumed."""

    script: list[Scripted] = field(default_factory=list)
    rng: _random.Random | None = None
    used: int = 0
    log: list[Scripted] = field(default_factory=list)  # what was asked and answered, in order
    seed: int | None = None  # the generator's seed, until the first request makes `rng` from it

    @classmethod
    def seeded(cls, seed: int) -> Chance:
        # Seeded on first use: seeding costs more than many a simulator's look-ahead, and most never roll.
        return cls(seed=seed)

    def _generator(self, label: str) -> _random.Random:
        if self.rng is None:
            if self.seed is None:
                raise self._exhausted(label)
            self.rng = _random.Random(self.seed)
        return self.rng

    def _scripted(self, label: str) -> Scripted | None:
        if self.used >= len(self.script):
            return None
        entry = self.script[self.used]
        if entry.label != label:
            raise ChanceMismatch(f"random[{self.used}] answers {entry.label!r}, but the engine asked for {label!r}")
        self.used += 1
        return entry

    def _exhausted(self, label: str) -> ChanceExhausted:
        return ChanceExhausted(f"the scenario ran out of scripted random results at {label!r}; "
                               f"add {{{label}: ...}} to random:")

    def _record(self, label: str, value: Any) -> Any:
        self.log.append(Scripted(label, value))
        return value

    def choice(self, label: str, options: Sequence[Any]) -> Any:
        """One result among `options` (a die roll, a card drawn from a known set)."""
        entry = self._scripted(label)
        if entry is not None:
            if entry.value not in options:
                shown = ", ".join(map(str, options))
                raise IllegalAction(f"scripted {label} {entry.value!r} is not possible here; possible: {shown}",
                                    [])
            return self._record(label, entry.value)
        rng = self._generator(label)
        if not options:
            raise IllegalAction(f"{label}: nothing to choose from")
        return self._record(label, rng.choice(list(options)))

    def sample(self, label: str, options: Sequence[Any], k: int) -> tuple[Any, ...]:
        """`k` different results among `options`, in order (cards dealt from a known set)."""
        entry = self._scripted(label)
        if entry is not None:
            value = tuple(entry.value) if isinstance(entry.value, (list, tuple)) else (entry.value,)
            pool = list(options)
            for item in value:
                if item not in pool:
                    raise IllegalAction(f"scripted {label} {list(value)} is not {k} different items of "
                                        f"{', '.join(map(str, options))}")
                pool.remove(item)
            if len(value) != k:
                raise IllegalAction(f"scripted {label} gives {len(value)} item(s); {k} are dealt")
        else:
            value = tuple(self._generator(label).sample(list(options), k))
        self._record(label, list(value))  # logged as a list: JSON-ready, as a scenario writes it
        return value

    def shuffle(self, label: str, items: Sequence[Any]) -> list[Any]:
        """A shuffled copy of `items` (a deck). A scripted shuffle gives the whole order, top first,
        and must be a rearrangement of exactly these items."""
        entry = self._scripted(label)
        if entry is not None:
            order = list(entry.value) if isinstance(entry.value, (list, tuple)) else [entry.value]
            if sorted(map(repr, order)) != sorted(map(repr, items)):
                raise IllegalAction(f"scripted {label} {order} is not an order of {list(items)}")
            self._record(label, order)
            return order
        order = list(items)
        self._generator(label).shuffle(order)
        self._record(label, order)
        return order

    @property
    def unused(self) -> list[Scripted]:
        return self.script[self.used:]


