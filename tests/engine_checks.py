"""Checks every engine test shares: a state's legal actions applied and read back, near-miss actions
refused in players' words, the state left as it was."""

from __future__ import annotations

import functools
import json
import pickle
import random
import re
from collections.abc import Callable
from typing import Any

import pytest

from generators.content.schema import to_data
from generators.rules.chance import Chance
from generators.rules.contract import Game as Engine
from generators.rules.facts import GameContent
from generators.rules.refusals import IllegalAction, SetupError


def _mutants(engine: Engine, legal: list[Any], rng: random.Random) -> list[dict[str, Any]]:
    """Written actions near the legal ones: one field of a legal action given another action's value
    for that field, or a value no game uses; and every action kind with no parameters."""
    written = [to_data(a) for a in legal]
    values: dict[str, list[Any]] = {}
    for data in written:
        for key, value in data.items():
            values.setdefault(key, []).append(value)
    out: list[dict[str, Any]] = [{"do": kind} for kind in engine.action_specs]
    for data in rng.sample(written, min(6, len(written))):
        for key in data:
            if key == "do":
                continue
            for value in [*rng.sample(values[key], min(3, len(values[key]))), "no-such-thing", 999]:
                out.append({**data, key: value})
    return out


_READ_BACK: set[Any] = set()  # listed actions already shown to read back as written


def check_state(engine: Engine, state: Any, rng: random.Random, deep: bool, content: GameContent | None = None,
                 dumps: Callable[[Any], bytes] = pickle.dumps, before: bytes | None = None) -> dict[str, list[Any]]:
    """Each player's legal actions, checked. `before`: the state's pickled bytes (by `dumps`), when the
    caller has them."""
    players = engine.players_to_act(state)
    each = {player: engine.legal_actions(state, player) for player in players}
    for player, actions in each.items():
        assert actions, f"{player} may act but has no legal action"
    if not deep:
        return each
    json.dumps(engine.outcome(state, []))  # on the deep steps and at the end: an outcome is JSON-ready
    was = dumps(state) if before is None else before
    legal = [a for actions in each.values() for a in actions]
    for action in legal:
        if action not in _READ_BACK:  # an action reads back as written once proved, whatever the state
            assert engine.parse_action(to_data(action)) == action, f"{to_data(action)} does not read back as written"
            _READ_BACK.add(action)
        try:
            engine.apply(state, action, Chance.seeded(rng.randrange(1 << 30)))
        except IllegalAction as exc:
            raise AssertionError(f"listed action {to_data(action)} was refused: {exc.message}") from None
    refused_here = []
    for data in _mutants(engine, legal, rng):
        try:
            action = engine.parse_action(data)
        except SetupError:
            continue  # malformed for this game: refused before the rules are asked
        complete = getattr(engine, "complete", None)  # a scenario's shorthand: defaults filled in from the state
        if action in legal or (complete is not None and complete(state, action) in legal):
            continue
        with pytest.raises((IllegalAction, SetupError)) as refused:
            engine.apply(state, action, Chance.seeded(rng.randrange(1 << 30)))
            pytest.fail(f"unlisted action {data} was applied")
        refused_here.append(data)
        if isinstance(refused.value, IllegalAction):
            assert_players_words(refused.value.message, data, content)
    # Every refusal (and every listed action tried above) must leave the state as it was: compared
    # once for the step, since a change made by any of them stays in the state.
    assert dumps(state) == was, f"trying the listed actions or refusing {refused_here} changed the state"
    return each


# What a refusal may not contain: it is read by players, not by the engine's authors.
INTERNAL = [
    (re.compile(r"\bNone\b"), "None"),
    (re.compile(r"\b[a-z]+_[a-z_]+\b"), "an identifier with underscores"),
    (re.compile(r"[{}]|\w\(|'\w+':|<\w"), "a Python repr"),
    (re.compile(r"legal choices|phase moved|not possible now", re.I), "a reason that names no rule"),
    (re.compile(r"no rule explains", re.I), "the contract's fallback: a rule is missing"),
]


_WORDS_PASSED: set[tuple[str, str | None]] = set()  # (reason, game) already found to be in players' words


def assert_players_words(reason: str, action: Any, content: GameContent | None = None) -> None:
    key = (reason, None if content is None else content.game)
    if key in _WORDS_PASSED:  # the same refusal comes up again and again in a game
        return
    assert reason.strip(), f"{action} was refused without a reason"
    for pattern, what in INTERNAL:
        found = pattern.search(reason)
        assert found is None, f"refusing {action}: the reason {reason!r} contains {what} ({found.group(0)!r})"
    ids = _ids_pattern(tuple(content.names.items())) if content is not None else None
    found = ids.search(reason) if ids is not None else None
    if found is not None:
        assert content is not None
        pytest.fail(f"refusing {action}: the reason {reason!r} names {found.group(0)!r} by its id, not as "
                    f"printed ({content.names[found.group(0)]!r})")
    _WORDS_PASSED.add(key)


@functools.cache
def _ids_pattern(names: tuple[tuple[str, str], ...]) -> re.Pattern[str] | None:
    """One pattern for every content id that reads differently from its printed name (asked once per
    content, not once per id and refusal)."""
    keys = sorted((k for k, n in names if "-" in k and k.replace("-", " ").casefold() != n.casefold()),
                  key=len, reverse=True)
    return re.compile(r"(?<![\w-])(?:" + "|".join(map(re.escape, keys)) + r")(?![\w-])") if keys else None
