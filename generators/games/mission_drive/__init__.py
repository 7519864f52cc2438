"""Mission: Drive, as an executable rules model (source: the Mission: Drive rulebook only).

A solo game: the hero drives up a road of two road boards (`lanes` x `rows`, read from the road
boards' facts; a space is [column, row], row 0 nearest the player), plays hero cards from a dashboard
of three slots to move and fire, resolves the enemy and civilian cards drawn, scores each mission,
spends the points in an upgrade step, and after three missions faces a boss. The short game is one
green/pink mission after a 7-point upgrade step.

The modules: `facts` (rulebook numbers, the facts read from the components), `specs` (setup,
options, actions), `state` (the state and the road's geometry), `setup` (a scenario's position, a
whole game), `context` (one action in progress), `road` (the hero's turn: moving, ramming, firing,
damage, drawn cards, up-links, weapon outcomes), `flow` (a turn's end, the slot refilled, how a
mission ends), `upgrades` (upgrade effects, the laser strike), `between` (scoring and the upgrade
step), `boss` (the boss encounter), `moves` (options and rules per action), `resolve` (each action
run on a copy), `turns` (the stages as data), `results`, `words`, `drawing`, `policy` (the look-
ahead's rating). Readings where the rulebook is silent or unclear are rulings in content/mission-
drive/notes.yaml, marked `# ruling: <id>` where the code applies them.
"""

from __future__ import annotations

from generators.games.mission_drive.drawing import DRAWING
from generators.games.mission_drive.facts import FACTS_SPECS, LEVELS
from generators.games.mission_drive.hidden import observe, resample
from generators.games.mission_drive.limits import LIMITS
from generators.games.mission_drive.moves import MOVES
from generators.games.mission_drive.policy import evaluate
from generators.games.mission_drive.results import outcome, result, winners
from generators.games.mission_drive.setup import from_setup, start
from generators.games.mission_drive.specs import ACTIONS, Action, Options, SetupSpec
from generators.games.mission_drive.state import State
from generators.games.mission_drive.table import TABLE
from generators.games.mission_drive.turns import MOMENTS, PHASES, actors, phase_of
from generators.games.mission_drive.variety import variety
from generators.games.mission_drive.words import WORDS
from generators.rules.contract import Game, GameType, Harder, Hints, Setting, Specs

# A whole game ends within 300 actions, whatever is played. Per mission: at most 14 hero turns (each
# discards a hero card for good), 7 traffic cards resolved, 28 upgrade uses (each spends one of at most
# 6 x 3 charges, 4 up-link energies or 6 cards) and the score: 3 x 50, plus 2 mission setups. Each
# upgrade step spends at most 8 points and finishes: 3 x 9. The boss: its setup, 14 hero turns, 15
# boss turns and 24 upgrade uses. In all 150 + 2 + 27 + 54 = 233 (the short game: 57).
MAX_ACTIONS = 300


GAME: Game[State, Action] = Game(
    # Imperfect information: the movement and mission decks lie face down (see `hidden`).
    type=GameType(name="Mission: Drive", min_players=1, max_players=1, information="imperfect", utility="solo",
                  max_actions=MAX_ACTIONS),
    specs=Specs(setup=SetupSpec, options=Options, actions=ACTIONS, facts=FACTS_SPECS),
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
    observation=observe,
    table=TABLE,
    resample=resample,
    drawing=DRAWING,
    words=WORDS,
    hints=Hints(evaluate=lambda state, player: evaluate(state)),
    # One setting per difficulty (reward level and boss difficulty alike), and the short game.
    settings=(*(Setting(level, {"reward": level, "difficulty": level}) for level in LEVELS),
              Setting("short game", {"variant": "short"})),
    harder=(Harder(tuple(LEVELS), "the rulebook's three levels, Rookie, Normal and Expert, for the mission "
                                  "reward and the boss alike (Setup, step 9)"),),
)
