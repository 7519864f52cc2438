"""Vampire chase (untitled), as an executable rules model (source: ../shared/rulebooks/vampire-chase.txt).

A solo deckbuilder. One player drives two vampires (the Driver and the Passenger, each with a draw deck
and a discard pile), blocks one of three gears each turn, buys from a market with corpses, and fights an
enemy gang whose cards sit on a ring of six Chase Board slots. Slots are 1..6; clockwise is counting up
(#1 is the vehicle's start, #2 the space in front of it); ring distance is the shorter way round.

The modules: `facts` (rulebook constants, card facts, the library), `state`, `specs` (setup,
options, actions), `setup`, `speed`, `effects` (what cards do), `flow` (the end of a turn:
activation, cleanup, checkpoints), `moves` (options and rules per action), `resolve` (what each
action does), `turns` (the steps as data), `outcome`, `words`, `drawing`, `odds`, `policy` (search
hints). Readings where the rulebook is silent or unclear are rulings in
content/vampire-chase/notes.yaml, marked `# ruling: <id>` where the code applies them.
"""

from __future__ import annotations

from generators.games.vampire_chase.drawing import DRAWING
from generators.games.vampire_chase.facts import FACTS
from generators.games.vampire_chase.limits import LIMITS
from generators.games.vampire_chase.moves import MOVES
from generators.games.vampire_chase.odds import odds_for
from generators.games.vampire_chase.policy import evaluate, observe, resample
from generators.games.vampire_chase.results import outcome, result, winners
from generators.games.vampire_chase.setup import from_setup, start
from generators.games.vampire_chase.specs import ACTIONS, Action, Options, SetupSpec
from generators.games.vampire_chase.state import State
from generators.games.vampire_chase.table import TABLE
from generators.games.vampire_chase.turns import MOMENTS, PHASES, actors, phase_of
from generators.games.vampire_chase.variety import variety
from generators.games.vampire_chase.words import WORDS
from generators.rules.contract import Game, GameType, Harder, Hints, Setting, Specs

GAME: Game[State, Action] = Game(
    type=GameType(name="Vampire chase (untitled)", min_players=1, max_players=1, information="imperfect",
                  utility="solo", max_actions=4000),
    specs=Specs(setup=SetupSpec, options=Options, actions=ACTIONS, facts=FACTS),
    start=start,
    from_setup=from_setup,
    actors=actors,
    phase_of=phase_of,
    phases=PHASES,
    moves=MOVES,
    moments=MOMENTS,
    limits=LIMITS,
    outcome=outcome,
    result=result,
    winners=winners,
    variety=variety,
    drawing=DRAWING,
    words=WORDS,
    odds=odds_for,
    hints=Hints(evaluate=evaluate),
    settings=(Setting("last-orders", {"mission": "last-orders"}),
              Setting("red-mile", {"mission": "red-mile"}),
              Setting("sunrise-run", {"mission": "sunrise-run"})),
    harder=(Harder(("last-orders", "red-mile", "sunrise-run"),
                   "the kit's mission cards (a house design) are marked difficulty 1, 2 and 3"),),
    observation=observe,
    table=TABLE,
    resample=resample,
)
