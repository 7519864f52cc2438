"""Impossible setups refused, as a class: every rules package declares the setups no game reaches
(`Game.limits`: a piece on a space it can never stand on, a token where the book puts none, a count above
the components), and each is refused at the field it puts out of reach, in players' words. No per-game
code: the declarations are the packages' own."""

from __future__ import annotations

from pathlib import Path

import pytest

from generators.check.runner import engine_of
from generators.content.model import LoadedGame
from generators.rules.facts import game_content
from generators.rules.refusals import SetupError
from tests.engine_checks import assert_players_words
from tests.helpers import real_content

ROOT = Path(__file__).resolve().parent.parent
CONTENT = real_content()
GAMES = [g for g in CONTENT.games if g.engine]
KINDS = {"space", "token", "count"}


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_every_declared_limit_is_refused_in_players_words(game: LoadedGame) -> None:
    engine = engine_of(game)
    content = game_content(game, engine)
    assert {limit.kind for limit in engine.limits} == KINDS, f"{game.id} declares no limit of some kind"
    for limit in engine.limits:
        with pytest.raises(SetupError) as refused:
            engine.initial_state(engine.parse_setup(dict(limit.setup)), content)
        exc = refused.value
        assert exc.path[:1] == (limit.field,), f"{game.id}: {limit} refused at {exc.path}: {exc.message}"
        assert_players_words(exc.message, limit.setup, content)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_each_limit_is_refused_for_its_value_alone(game: LoadedGame) -> None:
    """The limits are honest: each setup without its out-of-reach field builds (so the refusal comes from
    the value declared, not from a broken rest of the setup)."""
    engine = engine_of(game)
    content = game_content(game, engine)
    for limit in engine.limits:
        rest = {k: v for k, v in limit.setup.items() if k != limit.field}
        if limit.field in ("players", "cars", "ring", "crews"):  # the pieces themselves: see the first test
            continue
        engine.initial_state(engine.parse_setup(rest), content)
