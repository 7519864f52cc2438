"""The engine contract, checked the same way for every game that has an engine (no per-game code),
as OpenSpiel checks every game: seeded random play-throughs of whole games from the rulebook's
setup to the end, with the contract's invariants checked along the way.

- a state that is not over has at least one legal action, for everyone who may act;
- every listed action applies (no IllegalAction) and reads back from its written form;
- an action that is not listed is refused, with the legal ones named;
- `apply` never changes the state it is given;
- outcomes and results are JSON-ready; drawings are deterministic;
- every game ends within the engine's declared bound.

`ROADKIT_PLAYTHROUGHS` sets the number of games per engine (default 500, spread over the engine's
simulation settings).
"""

from __future__ import annotations

import copy
import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

from generators.content.loader import load_content
from generators.content.schema import to_data
from generators.engine.base import Chance, Engine, GameContent, IllegalAction, SetupError, game_content
from generators.engine.runner import engine_of
from generators.engine.simulate import play, policies

ROOT = Path(__file__).resolve().parent.parent
CONTENT = load_content(ROOT / "content")
ENGINES = [(g.id, engine_of(g), g) for g in CONTENT.games if g.engine]
PLAYTHROUGHS = int(os.environ.get("ROADKIT_PLAYTHROUGHS", "500"))
DEEP_EVERY = 7  # every listed action is tried, and mutants refused, on one step in this many


def _ids(item: tuple[str, Engine, Any]) -> str:
    return item[0]


@pytest.fixture(scope="module", params=ENGINES, ids=_ids)
def engine_case(request: pytest.FixtureRequest) -> tuple[Engine, GameContent]:
    _, engine, game = request.param
    return engine, game_content(game, engine)


def _listed(engine: Engine, state: Any) -> list[Any]:
    return [a for p in engine.players_to_act(state) for a in engine.legal_actions(state, p)]


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


def _check_state(engine: Engine, state: Any, rng: random.Random, deep: bool) -> None:
    players = engine.players_to_act(state)
    json.dumps(engine.outcome(state, []))
    if not players:
        return
    for player in players:
        assert engine.legal_actions(state, player), f"{player} may act but has no legal action"
    if not deep:
        return
    legal = _listed(engine, state)
    for action in legal:
        assert engine.parse_action(to_data(action)) == action, f"{to_data(action)} does not read back as written"
        try:
            engine.apply(state, action, Chance.seeded(rng.randrange(1 << 30)))
        except IllegalAction as exc:
            raise AssertionError(f"listed action {to_data(action)} was refused: {exc.message}") from None
    for data in _mutants(engine, legal, rng):
        try:
            action = engine.parse_action(data)
        except SetupError:
            continue  # malformed for this game: refused before the rules are asked
        if action in legal:
            continue
        before = copy.deepcopy(state)
        with pytest.raises((IllegalAction, SetupError)) as refused:
            engine.apply(state, action, Chance.seeded(rng.randrange(1 << 30)))
            pytest.fail(f"unlisted action {data} was applied")
        assert state == before, f"refusing {data} changed the state"
        if isinstance(refused.value, IllegalAction):
            assert refused.value.message


def _playthrough(engine: Engine, content: GameContent, options: dict[str, Any], seed: int) -> int:
    rng = random.Random(seed)
    chance = Chance.seeded(seed)
    state = engine.new_game(engine.parse_options(options), content, chance)
    svg = engine.draw_svg(state)
    assert svg == engine.draw_svg(copy.deepcopy(state)), "drawing the same state twice differs"
    for n in range(engine.type.max_actions + 1):
        deep = n % DEEP_EVERY == 0
        _check_state(engine, state, rng, deep)
        players = engine.players_to_act(state)
        if not players:
            json.dumps(engine.result(state))
            assert engine.draw_svg(state) == engine.draw_svg(copy.deepcopy(state))
            return n
        action = rng.choice(engine.legal_actions(state, rng.choice(players)))
        before = copy.deepcopy(state)
        new, events = engine.apply(state, action, chance)
        assert state == before, f"apply changed its input state (action {to_data(action)})"
        json.dumps([e.as_dict() for e in events])
        state = new
    pytest.fail(f"seed {seed}: the game did not end within {engine.type.max_actions} actions")


def test_random_playthroughs_keep_every_invariant(engine_case: tuple[Engine, GameContent]) -> None:
    engine, content = engine_case
    settings = engine.simulation_setups()
    lengths = []
    for i in range(PLAYTHROUGHS):
        setting = settings[i % len(settings)]
        lengths.append(_playthrough(engine, content, dict(setting.options), seed=1000 + i))
    assert min(lengths) > 0, "a game that ends before anyone acts is not a game"


def test_a_seed_replays_the_same_game(engine_case: tuple[Engine, GameContent]) -> None:
    engine, content = engine_case
    options = dict(engine.simulation_setups()[0].options)
    assert play(engine, content, options, 7) == play(engine, content, options, 7)
    results = {json.dumps(play(engine, content, options, s).result, sort_keys=True) for s in range(1, 30)}
    lengths = {play(engine, content, options, s).actions for s in range(1, 30)}
    assert len(results) > 1 or len(lengths) > 1, "different seeds should give different games"


def test_type_is_declared(engine_case: tuple[Engine, GameContent]) -> None:
    engine, _ = engine_case
    t = engine.type
    assert 1 <= t.min_players <= t.max_players
    assert t.max_actions > 0
    assert engine.action_specs and all("do" in {f for f in spec.__dataclass_fields__}
                                        for spec in engine.action_specs.values())
    assert engine.simulation_setups(), "at least one setting to simulate"


def test_greedy_policy_plays_whole_games(engine_case: tuple[Engine, GameContent]) -> None:
    """Engines that rate states are also played one step ahead; those games end like any other."""
    engine, content = engine_case
    if "greedy" not in policies(engine, content):
        pytest.skip("this engine offers no evaluation")
    for setting in engine.simulation_setups():
        played = play(engine, content, dict(setting.options), 11, "greedy")
        assert played.actions > 0
        json.dumps(played.result)
