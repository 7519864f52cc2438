"""Thunder Road: Ignition: hints for players that look ahead (never the rules). `evaluate` rates a
position for one crew: the race is won by the first two cars across the line, so a crew is as good
as its two best cars, less what its best rival has."""

from __future__ import annotations

from generators.games.thunder_road_ignition.board import Board
from generators.games.thunder_road_ignition.facts import FINISHED, START
from generators.games.thunder_road_ignition.state import State

WIN, LOSS = 10_000.0, -10_000.0
DAMAGE = 0.3  # a damage token: one more sends the car to the pit
PIT = 0.6  # a car in the pit loses a move getting back on the road


def _place_values(board: Board) -> dict[str, float]:
    """How far along each place a car can be is, in tiles: a finished car counts as past the last
    tile, a car in the pit as beside its pit stop less the move it loses."""
    values = {START: 0.5, FINISHED: len(board.road) + 2.0}
    values.update((at, space.progress) for at, space in board.spaces.items())
    values.update((f"pit:{tile}", tile - PIT) for tile in board.pits)
    return values


def _crew_values(state: State) -> dict[str, list[float]]:
    """Each crew's cars, how far along (`_place_values`) less their damage, in one pass over the cars."""
    board = state.board
    places = board.derived.get("place values")
    if places is None:
        places = board.derived["place values"] = _place_values(board)
    out: dict[str, list[float]] = {}
    for car in state.cars.values():
        v = places.get(car.at)
        if v is None:  # a pit no car is sent to in play (a scenario may put one there)
            v = int(car.at[4:]) - PIT
        values = out.get(car.crew)
        if values is None:
            values = out[car.crew] = []
        values.append(v - DAMAGE * len(car.tokens))
    return out


def _value(values: list[float] | None) -> float:
    """A crew is as good as its two best cars (the rest count a tenth): the sum of the sorted list's
    first two, plus a tenth of the rest's sum. With three cars (every crew in a race) the worst car is
    the rest, found without sorting: adding two floats gives the same in either order."""
    if not values:
        return 0.0
    if len(values) == 3:
        a, b, c = values
        if a < b:
            a, b = b, a
        if c > b:  # c is one of the best two, b the rest
            b, c = c, b
        return a + b + 0.1 * (0 + c)
    values.sort(reverse=True)
    return sum(values[:2]) + 0.1 * sum(values[2:])


def evaluate(state: State, player: str) -> float:
    """Higher is better for `player`: their crew's value less the best rival's."""
    if state.winner is not None:
        return WIN if state.winner == player else LOSS
    crews = _crew_values(state)
    rivals = [_value(crews.get(c)) for c in state.order if c != player]
    return _value(crews.get(player)) - max(rivals, default=0.0)
