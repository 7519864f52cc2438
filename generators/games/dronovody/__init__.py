"""Дроноводи (Drone Operators), as an executable rules model (source: ../shared/rulebooks/dronovody.txt).

A cooperative card game for 1-4 players. Every card's numbers (costs, attacks, to-hit values, threat
distances, activation values, Project requirements) are read from the content faces' `facts:`; the
rulebook's own numbers (Logistics starts at 3, a Warehouse of 3, trophy exchange 1 or 2, 3 Characters
and 3 enemies per player, 4 wounded, 4 rounds, 3 Projects per player) are constants in `facts`.

The modules: `facts` (numbers, card facts, the catalogue, roll rules), `state`, `specs` (setup, options,
actions), `setup`, `abilities` (what a player has: Pilots, Reconnaissance, Ammunition, targets, points),
`flow` (dealing, turns, wounds, threats, Recovery), `resolve` (what each move does), `moves` (options
and rules per action), `turns` (the steps as data; who acts), `results`, `words`, `drawing`,
`odds`, `policy` (search hints). Readings where the rulebook is silent or unclear are rulings in
content/dronovody/notes.yaml, marked `# ruling: <id>` where the code applies them.

State
    Each player: Logistics, Warehouse (drones, some broken), Crew, HQ, hand, Projects (open or
    activated; an activated one may be face down for the round), Defence cards, trophies, wounded,
    Characters whose once-per-round Effect is spent. Shared: the Trench (face down, top first), the
    Drone Shop, the field (first line = distance 1, second line = distance 2), four decks and three
    discard piles (Characters go to the bottom of their deck), the Operations Duty Officer.

Decks
    A deck is a known top (in order), an unknown middle drawn through `Chance`, and a known bottom
    (cards put under it). A whole game puts every card in the middle, so each draw is a labelled chance
    result: `{character draw: engineer}`, `{drone draw: fury}`, `{support deal: [...]}`,
    `{threat draw: [...]}`; a scenario's `decks:` gives a known top instead.

Setup (`setup:` of a scenario; card ids are the content faces' ids)
    players: [{name, logistics: 3, crew: [...], hq: [...], warehouse: [mavic, {card: x, broken: true}],
               hand: [...], projects: [ai-module, {card: delta, active: true, used: false}],
               defence: [...], trophies: [...], wounded: [...], used: [...], exchanged: false,
               dealt: [...]}]                      # seat order, clockwise (the next seat is on the left)
    trench: [...]                                  # top first; must not be empty
    odo: name                                      # Operations Duty Officer (default: the first seat)
    round: 1;  phase: deal | management | threat;  turn: name;  step: support | action | done
    bonus: [...];  shop: [...];  field: [...];  rolled: [...];  threats_placed: false
    decks: {characters: [...], drones: [...], support: [...], threats: [...]}   # known tops
    discards: {drones: [...], support: [...], threats: [...]};  out_of_game: [...]
    rules: {extended_rotation, rounds, fog_of_war, horde, istar}
    cards: {mavic: {to_hit: 5}}                    # play a card's printed values instead of the kit's
    start: {first_game, random_start}              # with phase: setup (only names, odo, rules and cards)
    Cards not placed anywhere are in the middle of their deck.

Actions (`player` defaults to the player the game waits on)
    Management, the player in turn:  {do: play_support, card, target?, character?, to?} or
        {do: discard_support, card}, then one Action: {do: recruit} -> {do: place, card, to};
        {do: move, card, to} ... {do: end_move};  {do: evacuate, card};  {do: buy} -> {do: take_drone, card,
        discard?} | {do: decline};  {do: sortie, drone} -> {do: attack, target, guaranteed?} ... {do: end_sortie}
        then {do: extra_action} (Commander) or {do: end_turn}.
    Free actions, any player at any time (not while hits are placed):  {do: exchange_trophy, card};
        {do: activate_project, card};  {do: evacuate_effect, source, card};  {do: repair, source, drone}.
    Threat phase: {do: defend} (each player once, in any order);  {do: choose, card} (a hit the player
        places).  Deal (setup, Recovery): {do: discard_support, card} or, with ISTAR, {do: draft, card}.
"""

from __future__ import annotations

from typing import Any

from generators.games.dronovody.drawing import DRAWING
from generators.games.dronovody.facts import FACTS, MAX_PLAYERS
from generators.games.dronovody.limits import LIMITS
from generators.games.dronovody.moves import MOVES, complete
from generators.games.dronovody.odds import odds_for
from generators.games.dronovody.policy import PRIORS, ROLLOUT, UNIT, evaluate, observe, resample
from generators.games.dronovody.results import outcome, result, winning_seats
from generators.games.dronovody.setup import from_setup, start
from generators.games.dronovody.specs import ACTIONS, Action, Options, SetupSpec
from generators.games.dronovody.state import State
from generators.games.dronovody.table import TABLE
from generators.games.dronovody.turns import MOMENTS, PHASES, actors, phase_of
from generators.games.dronovody.variety import variety
from generators.games.dronovody.words import WORDS
from generators.rules.contract import Event, Game, GameType, Harder, Hints, Setting, Specs


def _outcome(state: State, events: list[Event]) -> dict[str, Any]:
    return outcome(state, events, GAME.legal_actions)


GAME: Game[State, Action] = Game(
    type=GameType(name="Дроноводи (Drone Operators)", min_players=1, max_players=MAX_PLAYERS,
                  information="imperfect", utility="cooperative", max_actions=4000),
    specs=Specs(setup=SetupSpec, options=Options, actions=ACTIONS, facts=FACTS),
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
    winners=winning_seats,
    variety=variety,
    drawing=DRAWING,
    words=WORDS,
    odds=odds_for,
    hints=Hints(evaluate=evaluate, priors=PRIORS, rating_unit=UNIT, rollout=ROLLOUT),
    settings=(
        Setting("2 players", {"players": 2}),
        Setting("1 player", {"players": 1}),
        Setting("3 players", {"players": 3}),
        Setting("4 players", {"players": 4}),
        Setting("2 players, first game", {"players": 2, "first_game": True}),
        Setting("2 players, every advanced rule", {"players": 2, "extended_rotation": True, "random_start": True,
                                                    "fog_of_war": True, "horde": True, "istar": True}),
    ),
    # The rulebook rates no player count or advanced rule as harder; its first game leaves out the
    # threats marked with a red triangle, so that game should be no harder than the full one.
    harder=(Harder(("2 players, first game", "2 players"),
                   "the first game leaves the threat cards marked with a red triangle out of the deck "
                   "(Setup, first game)"),),
    observation=observe,
    table=TABLE,
    resample=resample,
    complete=complete,
)
