"""Escape Deathrace 2182 Micro, as an executable rules model (source: ../shared/rulebooks/
escape-deathrace-2182-micro.txt).

One to four cars race along a road of tiles laid as they go, fight each other and three bosses, and
the last car alive once the final boss is dead escapes. Facts come from the game's content (characters,
weapon drops, power and event cards with their effects, road tiles), never retyped here.

The modules: `facts` (the rulebook's numbers and rule functions, the box), `specs` (setup, options,
actions), `state`, `setup`, `road` (geometry, distances, paths, laying tiles), `drops`, `harm`
(damage, car bombs, bosses, rewards), `race` (driving, landing, fights, event cards and power card
effects), `turns` (who acts, the steps as data), `flow` (a turn's start and end, what settles after
every action), `moves` (options and rules per action; the weapon drops' and power cards' in
`drop_moves` and `power_moves`, what they share in `asks`), `resolve` (each action applied),
`results`, `words`, `drawing`, `odds`, `policy` (search hints).
Readings where the rulebook is silent or unclear are rulings in
content/escape-deathrace-2182-micro/notes.yaml, marked `# ruling: <id>` where the code applies them.

Randomness comes only through `Chance`, each request labelled: `movement` (a movement draw),
`movement (event card)`, `hazard`, `landmine`, `battle-it-out X->Y`, `counter Y->X`, `drive-by X->Y`,
`boss battle X-><boss>`, `final tile X->Y`, `road tile` (the next tile of a stack whose order is not
listed), `power card` and `event card` (the next card of a deck whose order is not listed),
`power deck` / `event deck` (a discard pile shuffled into a new deck), and for a whole game
`characters`, `first player`, `power cards`, `power deck`, `event deck`, `road tiles`.
"""

from __future__ import annotations

from typing import Any

from generators.games.escape_deathrace.drawing import DRAWING
from generators.games.escape_deathrace.facts import (
    DEFAULT_ROUND_LIMIT,
    DROP_KINDS,
    FACTS_SPECS,
    MAX_PLAYERS,
    STRIKE_TABLE,
    Ability,
    Box,
    Effect,
    TileFacts,
    strikes,
)
from generators.games.escape_deathrace.limits import LIMITS
from generators.games.escape_deathrace.moves import MOVES
from generators.games.escape_deathrace.odds import OddsTable, odds, odds_for
from generators.games.escape_deathrace.policy import evaluate, observe, resample
from generators.games.escape_deathrace.results import outcome, result, winners
from generators.games.escape_deathrace.setup import from_setup, start
from generators.games.escape_deathrace.specs import ACTION_SPECS, Action, Options, SetupSpec
from generators.games.escape_deathrace.state import State
from generators.games.escape_deathrace.table import TABLE
from generators.games.escape_deathrace.turns import MOMENTS, PHASES, actors, phase_of
from generators.games.escape_deathrace.variety import variety
from generators.games.escape_deathrace.words import WORDS
from generators.rules.contract import Event, Game, GameType, Hints, Setting, Specs

__all__ = ["DROP_KINDS", "GAME", "STRIKE_TABLE", "Ability", "Box", "Effect", "OddsTable", "State", "TileFacts",
           "odds", "strikes"]


def _outcome(state: State, events: list[Event]) -> dict[str, Any]:
    return outcome(state, events, GAME.legal_actions(state))


# A bound, not a typical length (a random game takes a few hundred actions): the draft, then the round
# limit times four cars times the most one turn can hold: the draw and the drive 2, drawing and laying
# the 19 road tiles a game has 38 (by movement draws and Roll Again! cards alike), nitro draws 4, 13
# event cards at a drive and a choice each 26, a power card's play, move and choice 3, up to 8 strike
# choices on each of 20 landings (the drive, a hazard pass, 4 nitro draws, 13 event moves, a power
# card's move), rewards for 4 bosses and 3 cars 26, the rest 8.
GAME: Game[State, Action] = Game(
    type=GameType(name="Escape Deathrace 2182 Micro", min_players=1, max_players=MAX_PLAYERS,
                  information="imperfect",  # face-down road stack, power and event decks, others' hands
                  max_actions=16 + MAX_PLAYERS * DEFAULT_ROUND_LIMIT * 270),
    specs=Specs(setup=SetupSpec, options=Options, actions=ACTION_SPECS, facts=FACTS_SPECS),
    start=start,
    from_setup=from_setup,
    actors=actors,
    phase_of=phase_of,
    phases=PHASES,
    moves=MOVES,
    moments=MOMENTS,
    limits=LIMITS,
    outcome=_outcome,
    result=result,
    winners=winners,
    variety=variety,
    drawing=DRAWING,
    words=WORDS,
    odds=odds_for,
    hints=Hints(evaluate=evaluate),
    settings=tuple(Setting(f"{n} players", {"players": n}) for n in (2, 3, 4)),
    observation=observe,
    table=TABLE,
    resample=resample,
)
