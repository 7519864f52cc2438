"""The engine contract, checked the same way for every game that has an engine (no per-game code),
as OpenSpiel checks every game: seeded random play-throughs of whole games from the rulebook's
setup to the end, with the contract's invariants checked along the way.

- a state that is not over has at least one legal action, for everyone who may act;
- every listed action applies (no IllegalAction) and reads back from its written form;
- an action that is not listed is refused, with the legal ones named;
- `apply` never changes the state it is given: checked by serialization (the pickled state before and
  after, byte for byte), never through the engine's own copy or equality; the content's derived views
  a state refers to (its facts, its card library: the same objects in every state of a game) are
  written as references at each step and compared whole at the game's end;
- a refused action's reason is in players' words (no engine identifiers, no `None`, no Python
  reprs), and every refusal comes from a rule (never the contract's "no rule explains" fallback);
- outcomes and results are JSON-ready; drawings are deterministic;
- every game ends within the engine's declared bound.

`ROADKIT_PLAYTHROUGHS` sets the number of games per engine (default 500, spread over the engine's
simulation settings).
"""

from __future__ import annotations

import copyreg
import dataclasses
import gc
import io
import json
import pickle
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from generators.build_system.arguments import env_games
from generators.check.runner import engine_of
from generators.content.schema import to_data
from generators.play.simulate import play, policies
from generators.rules.chance import Chance
from generators.rules.contract import Game as Engine
from generators.rules.facts import GameContent, game_content
from tests.engine_checks import assert_players_words, check_state
from tests.helpers import real_content

ROOT = Path(__file__).resolve().parent.parent
CONTENT = real_content()
ENGINES = [(g.id, engine_of(g), g) for g in CONTENT.games if g.engine]
PLAYTHROUGHS = env_games("ROADKIT_PLAYTHROUGHS", 500)  # bounded, with its message, like ROADKIT_SIMULATE
DEEP_EVERY = 7  # every listed action is tried, and mutants refused, on one step in this many


def _ids(item: tuple[str, Engine, Any]) -> str:
    return item[0]


@pytest.fixture(scope="module", params=ENGINES, ids=_ids)
def engine_case(request: pytest.FixtureRequest) -> tuple[Engine, GameContent]:
    _, engine, game = request.param
    return engine, game_content(game, engine)


def _copy(state: Any) -> Any:
    return pickle.loads(pickle.dumps(state))


class Pickled:
    """`pickle.dumps` for the states of one game that writes the content's derived views (the facts and
    card library every state shares; `GameContent.derived`) as a reference, not their thousands of
    fields at every step. `views_unchanged` compares the views themselves, whole, with how they were
    when this was made: an action that changed one is still caught, by the game's end."""

    def __init__(self, content: GameContent) -> None:
        self.views = [v for v in content.derived() if type(v).__module__ != "builtins"]  # a dict pickles as data
        self.whole = pickle.dumps(self.views)
        table = copyreg.dispatch_table.copy()
        for view in self.views:
            table[type(view)] = self._reduce
        self.out = io.BytesIO()
        self.pickler = pickle.Pickler(self.out)  # one for every state: making one costs more than a small state
        self.pickler.dispatch_table = table

    def _reduce(self, obj: Any) -> Any:
        for i, view in enumerate(self.views):
            if obj is view:
                return str, (f"view {i}",)
        return obj.__reduce_ex__(pickle.DEFAULT_PROTOCOL)  # another object of a view's type: as data

    def __call__(self, state: Any) -> bytes:
        self.out.seek(0)
        self.out.truncate()
        self.pickler.clear_memo()
        self.pickler.dump(state)
        return self.out.getvalue()

    def views_unchanged(self) -> bool:
        return pickle.dumps(self.views) == self.whole


def assert_pure(engine: Engine, state: Any, action: Any, chance: Chance,
                dumps: Callable[[Any], bytes] = pickle.dumps, before: bytes | None = None) -> tuple[Any, list[Any]]:
    """Apply `action`, failing if the state given to apply changed: compared as pickled bytes, so an
    engine's own copy or equality cannot hide an in-place change (`before`: its bytes, if known)."""
    before = dumps(state) if before is None else before
    new, events = engine.apply(state, action, chance)
    assert dumps(state) == before, f"apply changed its input state (action {to_data(action)})"
    return new, events


def _playthrough(engine: Engine, content: GameContent, options: dict[str, Any], seed: int) -> int:
    rng = random.Random(seed)
    chance = Chance.seeded(seed)
    state = engine.new_game(engine.parse_options(options), content, chance)
    dumps = Pickled(content)
    acted: set[str] = set()
    for n in range(engine.type.max_actions + 1):
        deep = n % DEEP_EVERY == 0
        before = dumps(state)  # what every check of this step compares the state with
        legal = check_state(engine, state, rng, deep, content, dumps, before)
        players = engine.players_to_act(state)
        if not players:
            assert dumps.views_unchanged(), "an action changed the content's derived views (facts, cards)"
            result = engine.result(state)
            json.dumps(result)
            _check_winners(engine, state, acted, str(result.get("result", "")))
            json.dumps(engine.outcome(state, []))
            # drawn twice, the second time from a copy made by pickling: a drawing reads the state only
            assert engine.draw_svg(state) == engine.draw_svg(_copy(state)), "drawing the same state twice differs"
            return n
        assert not engine.winners(state), "a game still being played names its winners"
        acted.update(players)
        action = rng.choice(legal[rng.choice(players)])
        new, events = assert_pure(engine, state, action, chance, dumps, before)
        json.dumps([e.as_dict() for e in events])
        state = new
    pytest.fail(f"seed {seed}: the game did not end within {engine.type.max_actions} actions")


def _check_winners(engine: Engine, state: Any, acted: set[str], word: str) -> None:
    """The winners a finished game names (the players' returns) are players of it, agree with the
    result's wording, and in a solo or cooperative game are everybody or nobody."""
    winners = set(engine.winners(state))
    assert winners <= acted, f"winners {sorted(winners)} are not among the players {sorted(acted)}"
    if engine.type.utility in ("solo", "cooperative"):
        assert winners in (set(), acted), f"a team game's winners are everybody or nobody, not {sorted(winners)}"
        assert bool(winners) == word.casefold().startswith("won"), f"winners {sorted(winners)} but result {word!r}"
    else:
        assert len(winners) <= 1 or "draw" in word.casefold() or "tie" in word.casefold()


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


def _cyclic_garbage(engine: Engine, content: GameContent, policy: str) -> int:
    """Objects only the cycle collector could free, left by one whole game of `policy` (a small search)."""
    gc.collect()
    gc.disable()
    try:
        play(engine, content, dict(engine.simulation_setups()[0].options), 5, policy, simulations=4)
    finally:
        found = gc.collect()
        gc.enable()
    return found


def test_a_whole_game_leaves_no_reference_cycles(engine_case: tuple[Engine, GameContent]) -> None:
    """The engines and players make no reference cycles: every state is freed by reference counting the
    moment nobody holds it, not kept until the cycle collector's next pass (Escape Deathrace's path
    search once made one on every listing), so a long search's memory stays flat."""
    engine, content = engine_case
    for policy in [*policies(engine, content), "search"]:
        assert _cyclic_garbage(engine, content, policy) == 0, f"{policy} play left reference cycles"


def test_the_cycle_check_catches_a_cycle(engine_case: tuple[Engine, GameContent]) -> None:
    """The check above fails for an engine whose every action leaves a list that holds itself."""
    engine, content = engine_case

    def advance(state: Any, action: Any, chance: Chance) -> Any:
        loop: list[Any] = []
        loop.append(loop)
        return engine.advance(state, action, chance)
    looping = dataclasses.replace(engine)
    object.__setattr__(looping, "advance", advance)
    assert _cyclic_garbage(looping, content, "random") > 0


class _Mutating:
    """An engine whose apply also changes, in place, the first list or dict it finds in the state it
    was given: the planted fault the purity check must catch."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def apply(self, state: Any, action: Any, chance: Chance) -> tuple[Any, list[Any]]:
        new, events = self.engine.apply(state, action, chance)
        for value in vars(state).values():
            if isinstance(value, list):
                value.append(value[0] if value else 0)
                break
            if isinstance(value, dict):
                value["planted"] = 1
                break
        else:
            raise AssertionError("the state holds no list or dict to plant a change in")
        return new, events


def test_purity_check_catches_an_in_place_change(engine_case: tuple[Engine, GameContent]) -> None:
    engine, content = engine_case
    state = engine.new_game(engine.parse_options(dict(engine.simulation_setups()[0].options)), content,
                            Chance.seeded(3))
    player = engine.players_to_act(state)[0]
    action = engine.legal_actions(state, player)[0]
    assert_pure(engine, state, action, Chance.seeded(4))  # the real engine passes
    with pytest.raises(AssertionError, match="apply changed its input state"):
        assert_pure(_Mutating(engine), state, action, Chance.seeded(4))  # type: ignore[arg-type]


class _View:
    def __init__(self) -> None:
        self.cards = ["a", "b"]


class _State:
    def __init__(self, view: _View) -> None:
        self.view, self.hand = view, ["c"]


def test_a_view_is_written_by_reference_and_a_change_to_it_is_caught() -> None:
    view = _View()
    content = GameContent("g", {})
    content.view(lambda c: view)
    state = _State(view)
    dumps = Pickled(content)
    before = dumps(state)
    assert len(before) < len(pickle.dumps(state)) and dumps(_State(_View())) != before  # another view is data
    state.hand.append("d")  # the state's own part: caught at the step
    assert dumps(state) != before and dumps.views_unchanged()
    view.cards.append("e")  # the shared view: caught at the game's end
    assert not dumps.views_unchanged()


@pytest.mark.parametrize("reason", ["turn None has ended", "not possible now (phase moved)",
                                    "is not one of the legal choices now", "no such tile_in_hand",
                                    "Action(do='move')", "{'do': 'fire'}"])
def test_internal_words_in_a_refusal_are_caught(reason: str) -> None:
    with pytest.raises(AssertionError):
        assert_players_words(reason, {"do": "x"})


def test_players_words_pass() -> None:
    assert_players_words("the road ends here: there is no tile to drive onto", {"do": "drive"})


def test_an_id_instead_of_a_printed_name_is_caught() -> None:
    content = GameContent("g", {}, {"caspar-feed": "Caspar: Feed"})
    with pytest.raises(pytest.fail.Exception):
        assert_players_words("caspar-feed cannot target slot 2", {"do": "play"}, content)
    assert_players_words("Caspar: Feed cannot target slot 2", {"do": "play"}, content)
