"""Thunder Road: Ignition: what each action does. `resolver` applies an action to the state's one
copy (the decision it answers taken off), then runs the work it sets going (`flow.run`) until the game
waits for someone; each `do_<kind>` is one action kind's part of that, by the rulebook's chapters
(1. Command, 2. Move, 3. Shoot, finishing). The rules that allow or refuse an action are in `moves`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from generators.games.thunder_road_ignition.events import larger, log, note, push, roll, set_aside, slam, wait
from generators.games.thunder_road_ignition.facts import FORWARD
from generators.games.thunder_road_ignition.flow import run
from generators.games.thunder_road_ignition.road import enter, start_movement
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
    Movement,
    State,
    Task,
    car_id,
)
from generators.rules.chance import Chance
from generators.rules.contract import Event

_MOVE_ON = Task("move-on")
AHEAD = {d: i for i, d in enumerate(FORWARD)}  # a space's links list the three ahead first


def resolver(do: Callable[[State, Any, Decision, Chance, list[Event]], None]) -> Callable[
        [State, Any, Chance], tuple[State, list[Event]]]:
    """The action on one copy of the state (the decision it answers taken off), then everything it
    sets going until someone decides."""
    def resolve(state: State, action: Any, chance: Chance) -> tuple[State, list[Event]]:
        d = state.decision
        assert d is not None
        s = state.copy()
        s.decision = None
        events: list[Event] = []
        do(s, action, d, chance, events)
        run(s, chance, events)
        return s, events
    return resolve


def do_command(s: State, a: CommandAction, d: Decision, chance: Chance, events: list[Event]) -> None:
    crew = s.crews[s.active]
    dice = list(crew.dice)
    dice.remove(a.die)
    s.put_crew(crew._replace(dice=tuple(dice), command=a.command))
    note(events, "command", crew=s.active, command=a.command, die=a.die)
    if a.command == "slipstream":
        n = roll(chance, "stunt", s.kit.stunt, events)
        wait(s, "slipstream-car", s.active, n)
    elif a.command == "jumpstart":
        s.jumpstart = True
        push(s, Task("after-command"))
    elif a.command == "drift":
        s.drift = True
        push(s, Task("after-command"))
    else:
        wait(s, "missile-target", s.active)


def do_slipstream(s: State, a: SlipstreamAction, d: Decision, chance: Chance, events: list[Event]) -> None:
    n = d.data[0]
    note(events, "slipstream", car=car_id(s.active, a.car), spaces=n)
    start_movement(s, car_id(s.active, a.car), "slipstream", n)


def do_move(s: State, a: MoveAction, d: Decision, chance: Chance, events: list[Event]) -> None:
    crew = s.crews[s.active]
    dice = list(crew.dice)
    dice.remove(a.die)
    s.put_crew(crew._replace(dice=tuple(dice), assigned=(*crew.assigned, (a.car, a.die))))
    car = s.cars[car_id(s.active, a.car)]
    s.moved = car.id
    s.stage = "moving"
    note(events, "assign", crew=s.active, car=car.id, die=a.die)
    if car.at.startswith("pit:"):
        wait(s, "exit-pit", s.active, int(car.at[4:]), a.die)
        return
    start_movement(s, car.id, "move", a.die)


def do_exit_pit(s: State, a: ExitPitAction, d: Decision, chance: Chance, events: list[Event]) -> None:
    die = d.data[1]
    car = s.cars[s.moved or ""]
    s.discard = s.discard + car.tokens
    s.put_car(car._replace(at=a.space, tokens=()))
    note(events, "pit-exit", car=car.id, space=a.space, discarded=len(car.tokens))
    log(events, f"{car.id} leaves the pit onto {a.space}")
    push(s, Task("resolve", car=car.id, space=a.space, how="pit-exit", direction="front"),
         Task("after-pit-exit", car=car.id, n=die))


def do_step(s: State, a: StepAction, d: Decision, chance: Chance, events: list[Event]) -> None:
    assert s.movement is not None
    # A step goes ahead: the space's links list the three ahead first (`link`, read directly here:
    # a look-ahead plays every step it considers).
    target = s.board.spaces[s.cars[s.movement.car].at].links[AHEAD[a.direction]]
    _take_step(s, target, a.direction, d.kind == "bonus", chance, events)


def do_enter(s: State, a: EnterAction, d: Decision, chance: Chance, events: list[Event]) -> None:
    # ruling: first-move-space (the edge space is the move's first space)
    _take_step(s, a.space, "front", False, chance, events)


def _take_step(s: State, target: str, direction: str, bonus: bool, chance: Chance, events: list[Event]) -> None:
    m = s.movement
    assert m is not None
    how = "bonus" if bonus else m.kind
    s.movement = Movement(m.car, m.kind, m.remaining if bonus else m.remaining - 1, m.road_only, m.drift, m.ended,
                          False, m.bonus or bonus)
    s.stack = (*s.stack, _MOVE_ON)  # `push`, of one task
    # Entered at once: the step is the next work on the stack in any case.
    enter(s, m.car, target, how, direction, chance, events)


def do_stop(s: State, a: StopAction, d: Decision, chance: Chance, events: list[Event]) -> None:
    assert s.movement is not None
    s.movement = s.movement._replace(ended=True)
    push(s, Task("move-on"))


def do_drift(s: State, a: DriftAction, d: Decision, chance: Chance, events: list[Event]) -> None:
    assert s.movement is not None
    s.movement = s.movement._replace(drift="used")
    note(events, "drift", car=s.movement.car)


def do_slam(s: State, a: SlamAction, d: Decision, chance: Chance, events: list[Event]) -> None:
    assert s.movement is not None
    # ruling: drift-declined (a declined Drift is spent: it only ever applies to the first car)
    s.movement = s.movement._replace(drift="used")
    slam(s, s.movement.car, d.data[0], chance, events)


def do_reroll(s: State, a: RerollAction | KeepAction, d: Decision, chance: Chance, events: list[Event]) -> None:
    top, bottom, moves, direction = d.data
    if a.do == "reroll":
        note(events, "reroll", player=s.cars[larger(s, top, bottom)].crew)
        moves = roll(chance, "slam", s.kit.slam, events)
        direction = roll(chance, "direction", s.kit.direction, events)
    push(s, Task("slam-move", car=top, other=bottom, how=moves, direction=direction))


def do_shoot(s: State, a: ShootAction, d: Decision, chance: Chance, events: list[Event]) -> None:
    if d.kind == "missile-target":
        push(s, Task("shot", other=a.target, how="missile"), Task("after-command"))
    else:
        push(s, Task("shot", car=s.moved or "", other=a.target, how="shoot"), Task("end-turn"))


def do_end_turn(s: State, a: EndTurnAction, d: Decision, chance: Chance, events: list[Event]) -> None:
    push(s, Task("end-turn"))


def do_set_aside(s: State, a: SetAsideAction, d: Decision, chance: Chance, events: list[Event]) -> None:
    set_aside(s, d.player, a.die, events)
