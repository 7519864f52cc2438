"""Дроноводи: the steps of play as data (which moves each allows, how players name it) and who acts.

Free actions (trophy exchange, Project activation, Character and Project Effects) are taken "at any
time during the game": every step but the setup and the placing of hits allows them, for any player
who has one to take, so most steps let several players act. The game waits on some of them (the
player in turn, those still to roll, draft or place a hit: `waiting_on`); the others may only take
free actions.
"""

from __future__ import annotations

from generators.engine.contract import Phase
from generators.engine.dronovody.abilities import has_evacuation_source, has_repair_source
from generators.engine.dronovody.facts import FREE
from generators.engine.dronovody.state import Player, State


def _several(id: str, words: str, moves: tuple[str, ...]) -> Phase:
    return Phase(id, words, (*moves, *FREE), "several")


PHASES: dict[str, Phase] = {p.id: p for p in (
    Phase("setup", "the setup: the Operations Duty Officer sets up first", ("set_up",)),
    _several("deal", "the deal of Support cards", ("discard_support", "draft")),
    _several("support", "the start of a turn: first play or discard a Support card", ("play_support",
                                                                                     "discard_support")),
    _several("action", "the Action step: the turn's Support card is done, one Action follows",
             ("recruit", "move", "evacuate", "buy", "sortie")),
    _several("recruiting", "Recruiting: place one of the Characters drawn", ("place",)),
    _several("movement", "a Movement: move Characters or end the Movement", ("move", "end_move")),
    _several("buying", "Buying a drone: take a drone or buy nothing", ("take_drone", "decline")),
    _several("sortie", "a combat sortie: attack or end the sortie", ("attack", "end_sortie")),
    _several("done", "the end of the turn: one Action per turn (a Commander in the HQ gives one more, once per "
             "round)", ("extra_action", "end_turn")),
    _several("threat", "the Threat phase", ("defend",)),
    Phase("hits", "the placing of hits: the hits just taken are placed first", ("choose",), "several"),
    Phase("over", "the end of the game", ()),
)}
_MODES = {"recruit": "recruiting", "move": "movement", "buy": "buying", "sortie": "sortie"}


def phase_of(s: State) -> str:
    if s.phase == "over":
        return "over"
    if s.pending:
        return "hits"
    if s.phase != "management":
        return s.phase
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
