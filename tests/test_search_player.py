"""The search player plays well: on a small budget it beats the one-step look-ahead and the random
player by a margin outside the error (the difference's 95 % interval leaves out 0), in every game.

Solo and cooperative games compare win rates over the same seeds; competitive games put the search
player in one seat against look-ahead players and compare that seat's wins with what a look-ahead
player wins from the same seat. Budgets are small (a few dozen games, a few dozen simulations a move):
`roadkit simulate --policy search` measures the same on a large one.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from generators.content.loader import load_content
from generators.engine.base import game_content
from generators.engine.players import LookaheadPlayer, SearchPlayer
from generators.engine.runner import engine_of
from generators.engine.simulate import play
from generators.engine.stats import difference, rate

ROOT = Path(__file__).resolve().parent.parent
CONTENT = load_content(ROOT / "content")
# Per game: the setting to play, games per player, simulations a move. A setting where the look-ahead
# neither always wins nor always loses, so the search has room to show.
BUDGET = {
    "vampire-chase": ("red-mile", 24, 30),
}


def _won(engine, played, seat: str | None) -> bool:
    word = str(played.result.get("result", "")).casefold()
    if seat is None:
        return word.startswith("won")
    return seat.casefold() in word.replace(",", " ").split()


@pytest.mark.parametrize("game_id", sorted(BUDGET))
def test_search_beats_look_ahead_and_random(game_id: str) -> None:
    game = CONTENT.game(game_id)
    engine = engine_of(game)
    content = game_content(game, engine)
    label, games, sims = BUDGET[game_id]
    [setting] = [s for s in engine.simulation_setups() if s.label == label]
    options = dict(setting.options)
    seeds = range(100, 100 + games)
    solo = engine.type.utility in ("solo", "cooperative")
    seat = None
    if not solo:
        probe = engine.new_game(engine.parse_options(options), content, __import__("generators.engine.chance",
                                fromlist=["Chance"]).Chance.seeded(0))
        seat = engine.players_to_act(probe)[0]
    search = SearchPlayer(simulations=sims)

    def wins(policy: str) -> int:
        seats = {seat: search} if (seat and policy == "search") else None
        name = policy if (policy != "search" or solo) else "greedy"
        return sum(_won(engine, play(engine, content, options, s, name, seats=seats, simulations=sims), seat)
                   for s in seeds)

    searched, greedy, random_ = (rate(wins(p), games) for p in ("search", "greedy", "random"))
    for other, name in ((greedy, "look-ahead"), (random_, "random")):
        d = difference(searched, other)
        assert d.clear and d.value > 0, (
            f"{game_id}: search won {searched.hits}/{games}, {name} {other.hits}/{games}: "
            f"difference {d.value:+.2f}, 95 % interval {d.low:+.2f} to {d.high:+.2f}")
    assert isinstance(LookaheadPlayer(), LookaheadPlayer)
