"""Дроноводи: the steps of play as data (which moves each allows, how players name it) and who acts.

Free actions (trophy exchange, Project activation, Character and Project Effects) are taken "at any
time during the game": every step but the setup and the placing of hits allows them, for any player
who has one to take, so most steps let several players act. The game waits on some of them (the
player in turn, those still to roll, draft or place a hit: `waiting_on`); the others may only take
free actions.
"""

from __future__ import annotations

from collections.abc import Callable

from generators.games.dronovody.abilities import has_evacuation_source, has_repair_source
from generators.games.dronovody.facts import FREE
from generators.games.dronovody.state import Player, State
from generators.rules.contract import Phase
from generators.rules.wording import listed


def _several(id: str, words: str, moves: tuple[str, ...]) -> Phase:
    return Phase(id, words, (*moves, *FREE), "several")


PHASES: dict[str, Phase] = {p.id: p for p in (
    Phase("setup", "the setup", ("set_up",),
          rule="the Operations Duty Officer sets up first, before anything else is done (Setup)"),
    _several("deal", "the deal of Support cards", ("discard_support", "draft")),
    _several("recovery", "the Recovery phase's deal of Support cards, before the round ends",
             ("discard_support", "draft")),
    _several("support", "the start of a turn, its Support card", ("play_support", "discard_support")),
    _several("action", "the turn's Action step, its Support card done",
             ("recruit", "move", "evacuate", "buy", "sortie")),
    _several("recruiting", "a Recruiting Action", ("place",)),
    _several("movement", "a Movement Action", ("move", "end_move")),
    _several("buying", "a Buying a Drone Action", ("take_drone", "decline")),
    _several("sortie", "a combat sortie", ("attack", "end_sortie")),
    _several("done", "the end of a turn, its Action done", ("extra_action", "end_turn")),
    _several("threat", "the Threat phase", ("defend",)),
    # ruling: hits-before-free-actions
    Phase("hits", "the placing of hits", ("choose",), "several",
          rule="the hits just taken are placed first, before any other action (2. Threat Phase)"),
    Phase("over", "the end of the game", ()),
)}


def _attack_moment(s: State) -> str:
    if s.turn is not None and s.turn.sortied:  # ruling: sortie-attacks
        return ("this turn's combat sortie is over, its attacks used up or ended: a sortie is 1 to 3 attacks, as "
                "its drone card shows, and one drone a turn (Drones and Combat Sorties)")
    return "attacks are made in a combat sortie, flown as the turn's Action (1.5 Combat Sortie)"


_ACTION = "an Action is taken once a turn, after the turn's Support card is played or discarded (1. Management Phase)"
_FREE = ("free actions are taken at any time once the game has begun, except while hits are placed (Support "
         "Cards (At any time during the game))")
# When each move is taken, by the rule that says so: the refusal of a move out of its moment.
MOMENTS: dict[str, str | Callable[[State], str]] = {
    "set_up": "the game is set up once, before the first deal (Setup)",
    "discard_support": "a Support card is discarded at the start of your turn in the Management phase (instead "
                       "of playing one), or one of the five dealt in Setup and Recovery (1. Management Phase)",
    "draft": "with ISTAR, the Support cards dealt in Setup and Recovery are drafted (Advanced Rules (optional))",
    "play_support": "a Support card is played at the start of your turn in the Management phase, before its "
                    "Action (1. Management Phase)",
    "recruit": _ACTION, "move": _ACTION, "evacuate": _ACTION, "buy": _ACTION, "sortie": _ACTION,
    "place": "a recruited Character is placed as the Recruiting Action goes on (1.1 Recruiting)",
    "end_move": "a Movement is ended by the player making it, during that Action (1.2 Movement)",
    "take_drone": "a drone is taken while Buying a drone, after a card is revealed in the Drone Shop (Buying a "
                  "Drone (Action 1.4))",
    "decline": "buying nothing is the other answer while Buying a drone (Buying a Drone (Action 1.4))",
    "attack": _attack_moment,
    "end_sortie": "a combat sortie is ended by the player flying it, during that Action (1.5 Combat Sortie)",
    "extra_action": "an extra Action (a Commander in the HQ, once per round) follows the turn's Action (1. "
                    "Management Phase)",
    "end_turn": "a turn ends once its Action is done (1. Management Phase)",
    "exchange_trophy": _FREE, "activate_project": _FREE, "evacuate_effect": _FREE, "repair": _FREE,
    "defend": "each player rolls the defence die once, in the Threat phase that follows the Management phase "
              "(2. Threat Phase)",
    "choose": "a hit is placed by the player who took it, as it is taken (2. Threat Phase)",
}
_MODES = {"recruit": "recruiting", "move": "movement", "buy": "buying", "sortie": "sortie"}


def phase_of(s: State) -> str:
    if s.phase == "over":
        return "over"
    if s.pending:
        return "hits"
    if s.phase != "management":
        return "recovery" if s.recovering else s.phase
    t = s.turn
    assert t is not None  # the Management phase always has a player in turn
    return _MODES[t.mode] if t.mode else t.step


def waiting_on(s: State) -> list[str]:
    """The players the game waits on: the one in turn, those still to roll or draft, those placing hits."""
    if s.phase == "over":
        return []
    if s.pending:
        return [n for n in s.seats if any(x.player == n for x in s.pending)]
    if s.phase == "setup":
        return [s.odo]
    if s.phase == "deal":
        return [n for n in s.seats if s.p(n).dealt and not (s.rules.istar and s.p(n).picked)]
    if s.phase == "management":
        return [s.turn.player] if s.turn else []
    return [n for n in s.seats if n not in s.rolled]


def not_waiting_on(s: State, name: str) -> str:
    """Why the game does not wait on `name` now: what play is in, and the rule that says whose move it is."""
    if s.pending:
        return (f"the hits just taken are placed first, by the player who took them ({listed(waiting_on(s))}) "
                "(2. Threat Phase)")
    if s.phase == "setup":
        return f"the Operations Duty Officer ({s.odo}) sets up first (Setup)"
    if s.phase == "deal":
        if s.rules.istar and s.p(name).picked:
            return (f"{name} has drafted from this packet; the next comes once every player has (Advanced Rules "
                    "(optional))")
        return f"{name} has kept their Support cards from this deal: four of five (Setup · 3. Recovery Phase)"
    if s.phase == "threat":
        return (f"each player rolls the defence die once in the Threat phase, and {name} has rolled (2. Threat "
                "Phase)")
    turn = s.turn.player if s.turn else "another player"
    return (f"it is {turn}'s turn in the Management phase; between turns a player takes only free actions "
            "(1. Management Phase)")


def free_time(s: State) -> bool:
    """Free actions may be taken now: the game has begun, is not over, and no hit waits to be placed."""
    # ruling: free-actions-any-time
    # ruling: hits-before-free-actions
    return s.phase not in ("setup", "over") and not s.pending


def has_free_action(s: State, p: Player) -> bool:
    """`p` has a free action to take (the free moves' options, asked only whether there is one).
    Asked for every player on every step, so written out as loops that stop at the first answer."""
    if p.trophies and not p.exchanged:
        return True
    if p.projects:
        support = s.cat.support
        board: set[str] | None = None
        for pr in p.projects:
            if not pr.active:
                if board is None:
                    board = {*p.crew, *p.hq}
                if board.issuperset(support[pr.card].requires):
                    return True
    if p.wounded and has_evacuation_source(s, p):
        return True
    for d in p.warehouse:
        if d.broken:
            return has_repair_source(s, p)
    return False


def actors(s: State) -> list[str]:
    """Who may act: the players the game waits on, and any other player with a free action to take."""
    waiting = waiting_on(s)
    if not free_time(s):
        return waiting
    return [n for n in s.seats if n in waiting or has_free_action(s, s.players[n])]
