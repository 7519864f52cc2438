"""Thunder Road: Ignition: the moves. For each action kind, the concrete actions worth asking about
(`options`), the rules that allow or refuse one (each None when it holds, else why not, in players'
words), and what it does (`resolve`, by the same chapters).

The options come in the order the first engine listed them, so a seed replays the same game.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from generators.games.thunder_road_ignition.facts import COMMANDS, OFF
from generators.games.thunder_road_ignition.resolve import (
    AHEAD,
    do_command,
    do_drift,
    do_end_turn,
    do_enter,
    do_exit_pit,
    do_move,
    do_reroll,
    do_set_aside,
    do_shoot,
    do_slam,
    do_slipstream,
    do_step,
    do_stop,
    resolver,
)
from generators.games.thunder_road_ignition.specs import (
    CommandAction,
    DriftAction,
    EndTurnAction,
    EnterAction,
    ExitPitAction,
    KeepAction,
    MoveAction,
    RerollAction,
    SetAsideAction,
    ShootAction,
    SlamAction,
    SlipstreamAction,
    StepAction,
    StopAction,
)
from generators.games.thunder_road_ignition.state import (
    Decision,
    State,
    car_id,
    car_words,
    cars_on_board,
    front_targets,
    open_slots,
    slipstream_cars,
    terrain,
)
from generators.rules.contract import Ask, Move

AskS = Ask[State]
Why = str | None

# Actions are frozen values, equal by value: each one offered is made once and then shared.
_enter = cache(EnterAction)
_exit_pit = cache(ExitPitAction)
_shoot = cache(ShootAction)
_set_aside = cache(SetAsideAction)
_STEPS = (StepAction("step", "front-left"), StepAction("step", "front"), StepAction("step", "front-right"))
_SLIPSTREAMS = (SlipstreamAction("slipstream", "small"), SlipstreamAction("slipstream", "medium"),
                SlipstreamAction("slipstream", "large"))


def _dice(ask: AskS) -> tuple[int, ...]:
    """The deciding crew's unassigned dice, each value once."""
    return ask.cached("dice", lambda: tuple(sorted(set(ask.state.crews[_decision(ask).player].dice))))


def _decision(ask: AskS) -> Decision:
    d = ask.state.decision
    assert d is not None  # a phase with moves always has its decision
    return d


def _crew_has(ask: AskS, die: int) -> Why:
    s = ask.state
    if die in s.crews[s.decision.player].dice:  # type: ignore[union-attr]
        return None
    return f"{_decision(ask).player} has no unassigned die showing {die}"


def _slots(ask: AskS) -> list[str]:
    return ask.cached("slots", lambda: open_slots(ask.state, ask.state.active))


def _slipstreamers(ask: AskS) -> list[str]:
    return ask.cached("slipstream", lambda: slipstream_cars(ask.state, ask.state.active))


def _on_board(ask: AskS) -> list[str]:
    return ask.cached("on board", lambda: cars_on_board(ask.state))


# --- 1. Command --------------------------------------------------------------------------------


@cache
def _commands_with(dice: tuple[int, ...]) -> tuple[CommandAction, ...]:
    return tuple(CommandAction("command", c, v) for v in dice for c in COMMANDS)  # type: ignore[arg-type]


def _command_options(ask: AskS, player: str) -> tuple[CommandAction, ...]:
    # Once the round's command is used, no command is worth asking about (the first rule refuses each).
    if ask.state.crews[ask.state.active].command is not None:
        return ()
    return _commands_with(_dice(ask))


def _once_a_round(ask: AskS, a: CommandAction) -> Why:
    s = ask.state
    crew = s.crews[s.active]
    if crew.command is None:
        return None
    return f"{s.active} has already used a command this round ({crew.command})"


def _command_die(ask: AskS, a: CommandAction) -> Why:
    return _crew_has(ask, a.die)


def _command_has_an_effect(ask: AskS, a: CommandAction) -> Why:
    if a.command == "slipstream" and not _slipstreamers(ask):
        return ("Slipstream cannot move the farthest forward of your cars (nor cars tied for it), and no other "
                "car of yours may move")
    if a.command == "missile" and not _on_board(ask):
        return "the Missile shoots at a car on the board, and there is none"
    return None


def _slipstream_options(ask: AskS, player: str) -> tuple[SlipstreamAction, ...]:
    return _SLIPSTREAMS


def _slipstream_car(ask: AskS, a: SlipstreamAction) -> Why:
    s = ask.state
    if a.car in _slipstreamers(ask):
        return None
    at = s.cars[car_id(s.active, a.car)].at
    if at.startswith("pit:"):
        return f"Slipstream does not move a car in the pit: your {a.car} car is there"
    if at == "finished":
        return f"Slipstream does not move a car that has crossed the finish line: your {a.car} car has"
    return "Slipstream cannot move the farthest forward of your cars (nor one tied for it)"


# --- 2. Move -----------------------------------------------------------------------------------


@cache
def _moves_with(sizes: tuple[str, ...], dice: tuple[int, ...]) -> tuple[MoveAction, ...]:
    return tuple(MoveAction("move", size, v) for size in sizes for v in dice)  # type: ignore[arg-type]


def _move_options(ask: AskS, player: str) -> tuple[MoveAction, ...]:
    # Only the cars with an open slot are worth asking about (the first rule refuses the others).
    return _moves_with(tuple(_slots(ask)), _dice(ask))


def _open_slot(ask: AskS, a: MoveAction) -> Why:
    s = ask.state
    if a.car in _slots(ask):
        return None
    if s.crews[s.active].assigned_to(a.car) is not None:
        return f"the {a.car} car's slot already has a die this round: one die per car each round"
    return f"the {a.car} car has crossed the finish line: it races no more"


def _move_die(ask: AskS, a: MoveAction) -> Why:
    return _crew_has(ask, a.die)


def _enter_options(ask: AskS, player: str) -> list[EnterAction]:
    return [_enter("enter", sp.id) for sp in ask.state.board.back_row(1)]


def _onto_the_back_row(ask: AskS, a: EnterAction) -> Why:
    if any(sp.id == a.space for sp in ask.state.board.back_row(1)):
        return None
    return "a first move enters a space on the starting tile's back row"


def _exit_options(ask: AskS, player: str) -> list[ExitPitAction]:
    return [_exit_pit("exit_pit", sp.id) for sp in ask.state.board.back_row(_decision(ask).data[0])]


def _onto_an_arrow(ask: AskS, a: ExitPitAction) -> Why:
    s, d = ask.state, _decision(ask)
    if any(sp.id == a.space and sp.arrow and terrain(s, sp.id) == "road" for sp in s.board.back_row(d.data[0])):
        return None
    return ("a car leaving the pit goes onto a road space with an arrow in the back row of the tile beside "
            "its pit stop")


def _step_options(ask: AskS, player: str) -> list[StepAction]:
    # Only the steps into a space are worth asking about (the rule refuses the others); the space's
    # links list the three ahead first, in the order of `_STEPS`.
    s = ask.state
    m = s.movement
    assert m is not None
    ahead = s.board.spaces[s.cars[m.car].at].links
    return [a for a, to in zip(_STEPS, ahead, strict=False) if to != OFF]  # the three ahead of six


def _into_a_space(ask: AskS, a: StepAction) -> Why:
    s = ask.state
    m = s.movement
    assert m is not None
    # ruling: driving-off-the-side
    if s.board.spaces[s.cars[m.car].at].links[AHEAD[a.direction]] != OFF:
        return None
    return f"a car moves into one of the spaces ahead of it; there is no space {a.direction} of it"


# --- 3. Shoot (and the Missile) ----------------------------------------------------------------


def _shoot_options(ask: AskS, player: str) -> list[ShootAction]:
    s, d = ask.state, _decision(ask)
    targets = cars_on_board(s) if d.kind == "missile-target" else front_targets(s, d.data[0])
    return [_shoot("shoot", t) for t in targets]


def _in_range(ask: AskS, a: ShootAction) -> Why:
    s, d = ask.state, _decision(ask)
    if a.target not in s.cars:
        return "there is no such car to shoot at"
    if d.kind == "missile-target":
        if s.cars[a.target].at in s.board.spaces:
            return None
        return f"the Missile shoots at a car on the board, and {car_words(a.target)} is not on it"
    if a.target in front_targets(s, d.data[0]):
        return None
    return "you can only shoot a car in the three spaces in front of the car you moved"


# --- finishing ---------------------------------------------------------------------------------


def _set_aside_options(ask: AskS, player: str) -> list[SetAsideAction]:
    return [_set_aside("set_aside", v) for v in _dice(ask)]


def _set_aside_die(ask: AskS, a: SetAsideAction) -> Why:
    return _crew_has(ask, a.die)


def _constant(*actions: Any) -> Callable[[AskS, str], tuple[Any, ...]]:
    return lambda ask, player: actions


# `options_meet`: the first rules every option meets by how its options are made (the round's command unused,
# a die the crew holds, a car with an open slot, a space ahead, a target in range), so listing does
# not ask them.
MOVES: dict[str, Move[State, Any]] = {
    "command": Move("use a command", _command_options, (_once_a_round, _command_die, _command_has_an_effect),
                    resolver(do_command), options_meet=2),
    "move": Move("put a die on a car's slot", _move_options, (_open_slot, _move_die),
                 resolver(do_move), options_meet=2),
    "enter": Move("enter the starting tile", _enter_options, (_onto_the_back_row,),
                  resolver(do_enter), options_meet=1),
    "exit_pit": Move("leave the pit", _exit_options, (_onto_an_arrow,), resolver(do_exit_pit)),
    "step": Move("step ahead", _step_options, (_into_a_space,), resolver(do_step), options_meet=1),
    "stop": Move("stop", _constant(StopAction("stop")), (), resolver(do_stop)),
    "drift": Move("drift past a car", _constant(DriftAction("drift")), (), resolver(do_drift)),
    "slam": Move("choose to slam", _constant(SlamAction("slam")), (), resolver(do_slam)),
    "reroll": Move("reroll a slam", _constant(RerollAction("reroll")), (), resolver(do_reroll)),
    "keep": Move("keep a slam's roll", _constant(KeepAction("keep")), (), resolver(do_reroll)),
    "slipstream": Move("choose the car Slipstream moves", _slipstream_options, (_slipstream_car,),
                       resolver(do_slipstream)),
    "shoot": Move("shoot", _shoot_options, (_in_range,), resolver(do_shoot), options_meet=1),
    "end_turn": Move("end the turn", _constant(EndTurnAction("end_turn")), (), resolver(do_end_turn)),
    "set_aside": Move("set a die aside", _set_aside_options, (_set_aside_die,),
                      resolver(do_set_aside), options_meet=1),
}
