"""Mission: Drive: what each action does. `run` applies an action to a copy of the state through its
handler (in `road`, `upgrades`, `between` and `boss`, by the rulebook's chapters), with the choices
written on the action handed out as the handler meets them; `resolve` and `advance` are the contract's
(with and without events). The rules that allow or refuse an action are in `moves`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from generators.games.mission_drive.between import (
    do_finish,
    do_score,
    do_spend,
    do_start_mission,
)
from generators.games.mission_drive.boss import do_boss_setup, do_boss_turn
from generators.games.mission_drive.context import Ctx, NeedChoice, option_words
from generators.games.mission_drive.facts import pair
from generators.games.mission_drive.road import (
    do_brake,
    do_civilian_move,
    do_enemy_fire,
    do_move,
)
from generators.games.mission_drive.state import State
from generators.games.mission_drive.upgrades import do_laser_strike, do_use_upgrade
from generators.rules.chance import Chance
from generators.rules.contract import Event
from generators.rules.refusals import IllegalAction

HANDLERS: dict[str, Callable[[Ctx, Any], None]] = {
    "move": do_move,
    "brake": do_brake,
    "enemy_fire": do_enemy_fire,
    "civilian_move": do_civilian_move,
    "laser_strike": do_laser_strike,
    "use_upgrade": do_use_upgrade,
    "score": do_score,
    "spend": do_spend,
    "finish": do_finish,
    "start_mission": do_start_mission,
    "boss_setup": do_boss_setup,
    "boss_turn": do_boss_turn,
}


_ASKED = {"energy": "an energy payment", "discard": "a discard", "hero_to": "a space for the hero"}


def run(state: State, act: Any, chance: Chance, quiet: bool = False) -> tuple[State, list[Event]]:
    """`act` applied to a copy of `state`; _NeedChoice or IllegalAction when its written choices do not
    fit what it meets. `quiet`: no events are made (an empty list comes back)."""
    new = state.clone()
    hero_to = getattr(act, "hero_to", None)
    choices = {"energy": list(getattr(act, "energy", ())), "discard": list(getattr(act, "discard", ())),
               "hero_to": [] if hero_to is None else [pair(hero_to)]}
    ctx = Ctx(new, chance, choices, quiet)
    HANDLERS[act.do](ctx, act)
    if choices["energy"] or choices["discard"] or choices["hero_to"]:
        unused = [(k, c) for k, queue in choices.items() for c in queue]
        raise IllegalAction("this move never asks for " + ", ".join(
            f"{_ASKED.get(k, 'a choice')} ({option_words(state.facts, c)})" for k, c in unused))
    if new.mission_status != state.mission_status and new.mission_status not in ("playing", None):
        ctx.event("mission_ended", status=new.mission_status)
    if new.game != state.game:
        ctx.event("game_over", result=new.game)
    return new, ctx.events if ctx.events is not None else []


def resolve(state: State, act: Any, chance: Chance) -> tuple[State, list[Event]]:
    try:
        return run(state, act, chance)
    except NeedChoice as need:  # the rules ask for every choice first: only a direct `play` gets here
        raise IllegalAction(choice_needed(state, need)) from None


def advance(state: State, act: Any, chance: Chance) -> State:
    """`resolve`'s state without its events (Move.advance)."""
    try:
        return run(state, act, chance, quiet=True)[0]
    except NeedChoice as need:
        raise IllegalAction(choice_needed(state, need)) from None


def choice_needed(s: State, need: NeedChoice) -> str:
    return f"choose {need.what}: {' or '.join(option_words(s.facts, o) for o in need.options)}"
