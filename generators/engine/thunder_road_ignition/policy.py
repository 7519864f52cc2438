"""Thunder Road: Ignition: hints for players that look ahead (never the rules). `evaluate` rates a
position for one crew: the race is won by the first two cars across the line, so a crew is as good
as its two best cars, less what its best rival has."""

from __future__ import annotations

from generators.engine.thunder_road_ignition.facts import FINISHED, START
from generators.engine.thunder_road_ignition.state import State

WIN, LOSS = 10_000.0, -10_000.0
DAMAGE = 0.3  # a damage token: one more sends the car to the pit
PIT = 0.6  # a car in the pit loses a move getting back on the road


def _crew_values(state: State) -> dict[str, list[float]]:
    """Each crew's cars, how far along in tiles (one pass over the cars for every crew): a finished
    car counts as past the last tile, a car in the pit as beside its pit stop less the move it loses."""
    board = state.board
    spaces = board.spaces
    finish = len(board.road) + 2.0
    out: dict[str, list[float]] = {}
    for car in state.cars.values():
        at = car.at
        space = spaces.get(at)
        if space is not None:
            v = space.progress
        elif at == FINISHED:
            v = finish
        elif at == START:
            v = 0.5
        else:  # pit:<tile>
            v = int(at[4:]) - PIT
        values = out.get(car.crew)
        if values is None:
            values = out[car.crew] = []
        values.append(v - DAMAGE * len(car.tokens))
    return out


def _value(values: list[float] | None) -> float:
    """A crew is as good as its two best cars (the rest count a tenth)."""
    if not values:
        return 0.0
    values.sort(reverse=True)
    return sum(values[:2]) + 0.1 * sum(values[2:])


def evaluate(state: State, player: str) -> float:
    """Higher is better for `player`: their crew's value less the best rival's."""
    if state.winner is not None:
        return WIN if state.winner == player else LOSS
    crews = _crew_values(state)
    rivals = [_value(crews.get(c)) for c in state.order if c != player]
    return _value(crews.get(player)) - max(rivals, default=0.0)
