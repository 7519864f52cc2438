"""Thunder Road: Ignition: hints for players that look ahead (never the rules). `evaluate` rates a
position for one crew: the race is won by the first two cars across the line, so a crew is as good
as its two best cars, less what its best rival has."""

from __future__ import annotations

from generators.engine.thunder_road_ignition.facts import FINISHED, START
from generators.engine.thunder_road_ignition.state import State

WIN, LOSS = 10_000.0, -10_000.0
DAMAGE = 0.3  # a damage token: one more sends the car to the pit
PIT = 0.6  # a car in the pit loses a move getting back on the road


def _crew_value(state: State, crew: str) -> float:
    """How far along the crew's two best cars are, in tiles: a finished car counts as past the last
    tile, a car in the pit as beside its pit stop less the move it loses."""
    board = state.board
    spaces = board.spaces
    finish = len(board.road) + 2.0
    values = []
    for car in state.cars.values():
        if car.crew != crew:
            continue
        at = car.at
        if at == FINISHED:
            v = finish
        elif at == START:
            v = 0.5
        elif at in spaces:
            v = spaces[at].progress
        else:  # pit:<tile>
            v = int(at[4:]) - PIT
        values.append(v - DAMAGE * len(car.tokens))
    values.sort(reverse=True)
    return sum(values[:2]) + 0.1 * sum(values[2:])


def evaluate(state: State, player: str) -> float:
    """Higher is better for `player`: their crew's value less the best rival's."""
    if state.winner is not None:
        return WIN if state.winner == player else LOSS
    rivals = [_crew_value(state, c) for c in state.order if c != player]
    return _crew_value(state, player) - max(rivals, default=0.0)
