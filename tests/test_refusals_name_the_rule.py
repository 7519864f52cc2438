"""No generic phase refusal: every engine, asked for each kind of move at each moment of play that does
not allow it, refuses it by the rule that holds it back, citing that rule's rulebook section, and tells
where play is without naming another rule (no "you cannot X during <phase>", no "not their turn", no
Gear-Shifter added to a refusal the gear has nothing to do with).

The moments are reached by seeded random play through the contract (no per-game code) and by replaying
the worked examples (a boss, a finish line: moments random play seldom reaches); each move kind is asked
with an action of that kind met somewhere in the same games.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from generators.check.runner import GameWork, engine_of
from generators.content.model import LoadedGame
from generators.rules.chance import Chance
from generators.rules.contract import Game
from generators.rules.facts import game_content
from tests.helpers import real_content

ROOT = Path(__file__).resolve().parent.parent
CONTENT = real_content()
GAMES = [g for g in CONTENT.games if g.engine]
GAMES_PER_SETTING = 6
GENERIC = re.compile(r"\byou cannot .+ during\b|\bnot (their|your) turn\b|\bplease report\b", re.I)


def _sections(game: LoadedGame) -> set[str]:
    """Every part of the rulebook sections the game's rules entries restate ("2. Move", "Hazards")."""
    return {part.strip() for entry in game.rules for part in entry.meta.section.split("·") if part.strip()}


def _cites(text: str, sections: set[str]) -> list[str]:
    return [s for s in sections if f"({s}" in text or f" · {s})" in text or f", {s})" in text]


def _moments(engine: Game[Any, Any], game: LoadedGame) -> tuple[dict[str, Any], dict[str, Any]]:
    """A state for each phase random play reaches, and an action of each kind it lists."""
    content = game_content(game, engine)
    states: dict[str, Any] = {}
    actions: dict[str, Any] = {}
    for setting in engine.simulation_setups():
        for seed in range(GAMES_PER_SETTING):
            rng = random.Random(seed)
            chance = Chance.seeded(seed)
            state = engine.new_game(engine.parse_options(dict(setting.options)), content, chance)
            for _ in range(engine.type.max_actions):
                who = engine.players_to_act(state)
                if not who:
                    break
                states.setdefault(engine.phase_of(state), state)
                legal = engine.legal_actions(state, rng.choice(who))
                for a in legal:
                    actions.setdefault(a.do, a)
                state, _ = engine.apply(state, rng.choice(legal), chance)
    for prepared in GameWork(game, (Path(game.dir) / "examples",)).scenarios:  # moments random play misses
        state, chance = prepared.state, Chance(list(prepared.loaded.random))
        for step in (*prepared.loaded.steps, None):
            if state is None or not engine.players_to_act(state):
                break
            states.setdefault(engine.phase_of(state), state)
            if step is None or step.refused is not None:
                continue
            try:
                state, _ = engine.apply(state, step.action, chance)
            except Exception:  # a step that needs what the scenario scripts differently: its moments so far count
                break
            actions.setdefault(step.action.do, step.action)
    return states, actions


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_a_move_out_of_its_moment_is_refused_by_its_rule(game: LoadedGame) -> None:
    engine = engine_of(game)
    sections = _sections(game)
    states, actions = _moments(engine, game)
    assert len(states) >= 3 and actions, "random play reached too few moments to test"
    asked = 0
    for phase_id, state in states.items():
        phase = engine.phases[phase_id]
        assert not _cites(phase.words, sections), f"{phase_id}: where play is names a rule: {phase.words!r}"
        for kind, action in actions.items():
            if kind in phase.moves:
                continue
            reason = engine.refusal(state, action)
            asked += 1
            where = f"{game.id}: {kind} at {phase_id}"
            assert reason, f"{where}: allowed"
            assert not GENERIC.search(reason), f"{where}: generic refusal {reason!r}"
            assert _cites(reason, sections), f"{where}: names no rulebook section: {reason!r}"
            rule = phase.says.get(kind) or phase.rule or engine.moments[kind]
            rule = rule if isinstance(rule, str) else rule(state)
            assert rule in reason, f"{where}: {reason!r} does not give the rule that holds the move back: {rule!r}"
            rest = reason.replace(rule, "")
            assert not _cites(rest, sections), f"{where}: the refusal names another rule besides its own: {reason!r}"
            if "blocked by the Gear-Shifter" in reason:  # the vampire chase: only for the blocked gear's moves
                assert kind in phase.says, f"{where}: a gear named where the gear has nothing to do: {reason!r}"
    assert asked, "no move was asked out of its moment"


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_every_moment_refuses_each_move_it_does_not_allow_by_a_rule(game: LoadedGame) -> None:
    """Declared, not only played: every phase that has moves names, for each move it does not allow, a
    rule citing a section (the phase's own, or the move's moment), so no moment falls back on a template."""
    engine = engine_of(game)
    sections = _sections(game)
    for phase in engine.phases.values():
        if not phase.moves:
            continue
        for kind in set(engine.moves) - set(phase.moves):
            rule = phase.says.get(kind) or phase.rule or engine.moments.get(kind)
            assert rule, f"{game.id}: {kind} at {phase.id} has no rule"
            if isinstance(rule, str):
                assert _cites(rule, sections), f"{game.id}: {kind} at {phase.id}: {rule!r} cites no section"


def test_the_contract_keeps_no_generic_template() -> None:
    source = (ROOT / "generators" / "rules" / "contract.py").read_text(encoding="utf-8")
    assert "you cannot {move.words} during" not in source
    assert " during {phase.words}" not in source
