"""Thunder Road: Ignition, as an executable rules model (source: ../shared/rulebooks/thunder-road-ignition.txt).

Every piece the rules read comes from content: the road tiles' maps of spaces (terrain, barricades,
entry arrows and the neighbour in each of the six directions, drawn on the printed tiles from the
same data), the cars, and the faces of the movement dice, FX dice, damage tokens and hazard tokens.
Readings where the rulebook is silent or unclear are rulings in content/thunder-road-ignition/notes.yaml,
marked `# ruling: <id>` where the code applies them.

The modules: `facts` (rulebook numbers, content facts, the kit), `board` (the road as one graph of
spaces), `state`, `specs` (setup, options, actions), `setup`, the rules by chapter (`road`: moving,
terrain and slams; `damage`: shots and damage tokens; `events`: what they share), `flow` (the work an
action sets going, rounds and turns), `moves` (options and rules per action), `resolve` (what each
action does), `turns` (the decisions as phases), `results`, `words`, `drawing`, `odds`, `policy`.

Chance: every roll is labelled: `movement`, `direction`, `stunt`, `slam`, `shooting` (the FX dice),
`hazard` (the face-down token flipped on entering a hazard space, drawn from the tokens not yet face
up) and `damage` (a token drawn from the pile). Slam and direction dice are rolled together: slam
first; Blast Off rolls stunt, then direction. Face-down tokens are drawn at random when drawn, so a
state holds no order a player could not know: the game is one of perfect information with chance.

Scenario setups, actions and outcome keys are documented by `specs` (the JSON Schemas editors show)
and `results.outcome`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from generators.games.thunder_road_ignition import results
from generators.games.thunder_road_ignition.drawing import DRAWING
from generators.games.thunder_road_ignition.facts import FACTS_SPECS
from generators.games.thunder_road_ignition.limits import LIMITS
from generators.games.thunder_road_ignition.moves import MOVES
from generators.games.thunder_road_ignition.odds import odds_for
from generators.games.thunder_road_ignition.policy import evaluate
from generators.games.thunder_road_ignition.results import result, winners
from generators.games.thunder_road_ignition.setup import from_setup, start
from generators.games.thunder_road_ignition.specs import ACTIONS, Action, Options, SetupSpec
from generators.games.thunder_road_ignition.state import State
from generators.games.thunder_road_ignition.table import TABLE
from generators.games.thunder_road_ignition.turns import MOMENTS, PHASES, actors, phase_of
from generators.games.thunder_road_ignition.words import WORDS
from generators.rules.contract import Event, Game, GameType, Hints, Setting, Specs
from generators.rules.information import whole


def outcome(state: State, events: Sequence[Event]) -> dict[str, Any]:
    """The scenario outcome, with what the rules allow next listed by the game itself."""
    return results.outcome(state, events, GAME.legal_actions(state))


GAME: Game[State, Action] = Game(
    type=GameType(name="Thunder Road: Ignition", min_players=2, max_players=4, max_actions=20000),
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
    drawing=DRAWING,
    words=WORDS,
    odds=odds_for,
    hints=Hints(evaluate=evaluate),
    observation=whole,  # every token face down is drawn by chance when drawn: nothing is hidden
    table=TABLE,
    settings=(Setting("2 players", {"players": 2}), Setting("3 players", {"players": 3}),
              Setting("4 players", {"players": 4}), Setting("4 players, long road", {"players": 4, "length": "long"})),
)
