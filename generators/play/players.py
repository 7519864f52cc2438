"""Players that choose moves through the engine contract alone, for every game, with no per-game code.

- `RandomPlayer`: a uniformly random legal action.
- `LookaheadPlayer`: one step ahead: the legal action whose result the game's `evaluate` hint rates
  best for the acting player (ties at random); chance in the look-ahead is a throwaway generator, so
  it cannot see the real dice, and in a game of imperfect information it looks ahead on a world
  re-dealt from what the player observes (`Game.deal`), so it cannot see the next card either.
- `SearchPlayer`: Monte Carlo tree search in its information-set form (learned from OpenSpiel's
  `mcts.py` and `ismcts.py`; none of their code). Each simulation re-deals what the searching player
  cannot see (`Game.resample`, for games of imperfect information; the root's one-step ratings are
  made on such a world too, never on the true state) and samples chance afresh, then
  walks one tree of action sequences (open loop: a node is the actions played, not a state) by UCB1
  with availability counts, adds one node, and rates it: by the game's `evaluate` hint where it has
  one (after the look-ahead plays the game's `rollout` actions on, none by default), else by random
  play to the end of the game and its returns. Where the game's hints give `priors`,
  the tree is walked by PUCT instead, with the one-step ratings as the prior over moves. Strength is
  `simulations` per move (and, where `seconds` is given, at most that much think time); the report
  names it. `analyse` tells why it moves: every legal move's visits and mean return (its win rate for
  the mover), most visited first, as hints and play pages show them. With `keep`, the subtree under
  its move is kept for its next decision where nothing it did not foresee happened in between (its
  own next step, no chance asked, nobody else acting).

A world re-dealt for the root's ratings or the look-ahead is dealt from a seed read off the player's
generator without drawing from it (`_aside`), so where the game's rating never reads what is hidden,
every move is the one the player made when it looked at the true state.

Returns come from the game's `winners`: 1 for each player it names (every seat of a won solo or
cooperative game), 0 for the rest.
"""

from __future__ import annotations

import dataclasses
import math
import random
import statistics
import time
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, cast

from generators.rules.chance import Chance
from generators.rules.contract import Hints


class Rules(Protocol):
    """What a player needs of a game: the contract's state API (the old engines have it too)."""

    @property
    def type(self) -> Any: ...

    def players_to_act(self, state: Any) -> list[str]: ...

    def legal_actions(self, state: Any, player: str | None = None) -> list[Any]: ...

    def play(self, state: Any, action: Any, chance: Chance) -> tuple[Any, list[Any]]: ...

    def advance(self, state: Any, action: Any, chance: Chance) -> Any: ...

    def result(self, state: Any) -> dict[str, Any]: ...

    def winners(self, state: Any) -> Sequence[str]: ...

    def evaluate(self, state: Any, player: str) -> float | None: ...

    @property
    def hints(self) -> Hints[Any, Any]: ...

    @property
    def resample(self) -> Callable[[Any, str, Chance], Any] | None: ...

    def observe(self, state: Any, player: str) -> Any: ...

    def deal(self, state: Any, player: str, chance: Chance) -> Any: ...


class Player(Protocol):
    name: str

    def choose(self, game: Rules, state: Any, player: str, legal: Sequence[Any], rng: random.Random) -> Any: ...


def returns(game: Rules, state: Any, player: str) -> float:
    """`player`'s return at the end of a game: 1 if the game names them among its winners, else 0."""
    return 1.0 if player in game.winners(state) else 0.0


@dataclass
class RandomPlayer:
    name: str = "random"

    def choose(self, game: Rules, state: Any, player: str, legal: Sequence[Any], rng: random.Random) -> Any:
        return rng.choice(legal)


@dataclass
class LookaheadPlayer:
    """One step ahead by the game's `evaluate` hint (see the module's note)."""

    name: str = "greedy"
    # Look ahead on a world re-dealt from the player's observation (games of imperfect information).
    # Off only inside the search, whose simulations already play on such a world.
    redeal: bool = True

    def choose(self, game: Rules, state: Any, player: str, legal: Sequence[Any], rng: random.Random) -> Any:
        return self.choose_with_state(game, state, player, legal, rng)[0]

    def choose_with_state(self, game: Rules, state: Any, player: str, legal: Sequence[Any],
                          rng: random.Random) -> tuple[Any, Any | None]:
        """The action chosen, and the state it leads to when its look-ahead asked no chance (None
        otherwise): a pure engine reaching randomness only through chance would make exactly it."""
        action, after, _ = self.rated(game, state, player, legal, rng)
        return action, after

    def rated(self, game: Rules, state: Any, player: str, legal: Sequence[Any],
              rng: random.Random) -> tuple[Any, Any | None, tuple[float, ...]]:
        """`choose_with_state`, and each legal action's rating (none where there is one action): the
        figures' version digests them, since a rating can move without moving the choice in the few
        reference games, yet move it in others."""
        if len(legal) == 1:  # nothing to compare: the look-ahead's seed and the choice are drawn all the same
            rng.randrange(1 << 30)
            return rng.choice(legal), None, ()
        scored = []
        advance, evaluate = game.advance, game.evaluate  # the states alone: nobody reads their events
        redeal = self.redeal and game.resample is not None
        world = game.deal(state, player, _aside(rng)) if redeal else state
        for action in legal:
            chance = Chance.seeded(rng.randrange(1 << 30))
            after = advance(world, action, chance)
            value = evaluate(after, player)
            # The state it leads to is the true one's only where it looked ahead on the true state.
            known = not redeal and not chance.log
            scored.append((value if value is not None else float("-inf"), action, after if known else None))
        best = max(v for v, _, _ in scored)
        _, action, after = rng.choice([s for s in scored if s[0] == best])
        return action, after, tuple(v for v, _, _ in scored)


# The search's rollouts where a game rates positions (it keeps no state): they play on a world the
# search has already re-dealt.
_AHEAD = LookaheadPlayer(redeal=False)


def _aside(rng: random.Random) -> Chance:
    """Chance for a re-deal, seeded from `rng`'s state without drawing from it (see the module's note):
    a checksum of its words, the same in every process (`hash` of the state tuple is not: it holds
    None, whose hash is its address before Python 3.12), and unlike the next numbers it will draw."""
    return Chance.seeded(zlib.crc32(repr(rng.getstate()[1]).encode()) & 0x3FFFFFFF)


class _Node:
    """One action sequence in the search tree: who chose its last action, and what followed."""

    __slots__ = ("actor", "available", "children", "prior", "rank", "total", "visits")

    def __init__(self, actor: str | None) -> None:
        self.actor = actor
        self.visits = 0
        self.total = 0.0
        self.available = 0  # simulations in which this action was legal (ISMCTS's availability count)
        self.children: dict[Any, _Node] = {}
        self.rank: dict[Any, float] = {}  # the order untried actions are tried in (higher first)
        self.prior: dict[Any, float] = {}  # PUCT's prior share of each action (from `rank`)


@dataclass(frozen=True)
class MoveStat:
    """One legal move at the search's root: the simulations that began with it and their mean return
    for the mover (its estimated win rate, 0 to 1; None for a move never tried)."""

    action: Any
    visits: int
    value: float | None


@dataclass(frozen=True)
class Analysis:
    """Why the search moves: every legal move, the chosen one first, then by visits (and mean)."""

    moves: tuple[MoveStat, ...]
    simulations: int  # simulations run for this decision (kept ones from the last decision not counted)
    seconds: float  # think time (CPU of this process)

    @property
    def best(self) -> Any:
        return self.moves[0].action

    def top(self, k: int = 3) -> tuple[MoveStat, ...]:
        return self.moves[:k]


@dataclass
class SearchPlayer:
    """Information-set Monte Carlo tree search (see the module's note)."""

    simulations: int = 100
    # Actions played past the new node before the position is rated: by the look-ahead where the game
    # rates positions (a random continuation only adds noise to a good rating; measured on the vampire
    # chase, 0 random actions beat 10 and 40), else at random. None: the game's `rollout` hint where it
    # rates positions (0 unless a turn's moves pay off together), to the end of the game where not.
    rollout_depth: int | None = None
    exploration: float = 0.7  # UCB1's constant, for returns in [0, 1]
    # Progressive widening: a node with n visits has at most widening * sqrt(n + 1) children, so a
    # position with dozens of moves is searched deep along the promising ones instead of one visit each.
    widening: float = 1.5
    # Order a tree node's untried moves by the game's rating one step ahead (as at the root), from the
    # node's second visit on, where the game rates positions.
    rank_deep: bool = True
    # PUCT (AlphaZero's selection) with the one-step ratings as the prior, in place of UCB1 and
    # widening: 0 is off, else the prior's weight; None: the weight the game's hints give (`priors`).
    # With few simulations the search then plays the look-ahead's move, and leaves it only on the
    # evidence of the simulations.
    puct: float | None = None
    # Think time a move (process CPU seconds): the search stops at `simulations` or when it is spent,
    # whichever comes first; None: the simulations alone (a seed then replays a game exactly).
    seconds: float | None = None
    # Keep the subtree under the chosen move for the next decision (see the module's note).
    keep: bool = False
    # False: search as if the game gave no hints (no rating, priors or rollout; the same rules), to
    # measure what the search finds by itself (make bench, `--policy search-hints-off`).
    hinted: bool = True
    name: str = "search"

    def __post_init__(self) -> None:
        budget = f"{self.simulations} simulations" if self.seconds is None else \
            f"up to {self.simulations} simulations or {self.seconds:g} s"
        kept, bare = ", tree kept" if self.keep else "", "" if self.hinted else ", hints off"
        self.name = f"search ({budget} a move{kept}{bare})"
        self._bare: tuple[Rules, Rules] | None = None  # a game met, and the same game without its hints
        self.searched, self.thought = 0, 0.0  # simulations run and think time spent, over every decision
        self._kept: tuple[_Node, str, Any] | None = None  # the subtree kept, for whom, the observation expected

    def choose(self, game: Rules, state: Any, player: str, legal: Sequence[Any], rng: random.Random) -> Any:
        return self.analyse(game, state, player, legal, rng).best

    def analyse(self, game: Rules, state: Any, player: str, legal: Sequence[Any], rng: random.Random) -> Analysis:
        """Search from `state` for `player`; the moves with their visits and values, the chosen first."""
        started = time.process_time()
        if not self.hinted:
            game = self._unhinted(game)
        if len(legal) == 1:
            self._kept = None
            return Analysis((MoveStat(legal[0], 0, None),), 0, 0.0)
        root = self._reused(game, state, player) or _Node(None)
        # The root's ratings and the scale's centre on a re-dealt world too: the true state's hidden
        # order must not order or weigh the moves.
        seen = state if game.resample is None else game.deal(state, player, _aside(rng))
        scale, ratings = _Scale.around(game, seen, player, legal, rng)
        root.rank = {a: r for a, r in zip(legal, ratings, strict=True) if r is not None}
        resample = game.resample
        depth = self.rollout_depth
        rated = any(r is not None for r in ratings)
        if depth is None:
            depth = game.hints.rollout if rated else game.type.max_actions
        puct = game.hints.priors if self.puct is None else self.puct
        deadline = None if self.seconds is None else started + self.seconds
        done = 0
        while done < self.simulations:
            done += 1
            chance = Chance.seeded(rng.randrange(1 << 30))
            world = resample(state, player, chance) if resample is not None else state
            self._simulate(game, world, root, rng, chance, lambda v, p: scale(game, seen, v, p), depth, puct,
                           rated)
            if deadline is not None and time.process_time() >= deadline:
                break
        # The most visited action; ties by the better mean, then the listed order (deterministic): a
        # stable sort keeps the listed order among equals.
        ranked = sorted(legal, key=lambda a: _rank(root.children.get(a)), reverse=True)
        moves = tuple(MoveStat(a, n.visits if n else 0, n.total / n.visits if n and n.visits else None)
                      for a in ranked for n in [root.children.get(a)])
        if self.keep:
            self._keep(game, state, player, ranked[0], root.children.get(ranked[0]))
        spent = time.process_time() - started
        self.searched, self.thought = self.searched + done, self.thought + spent
        return Analysis(moves, done, spent)

    def _unhinted(self, game: Rules) -> Rules:
        """`game` with no hints, the same rules otherwise (made once per game this player meets)."""
        if self._bare is None or self._bare[0] is not game:
            self._bare = (game, dataclasses.replace(cast(Any, game), hints=Hints()))
        return self._bare[1]

    def _keep(self, game: Rules, state: Any, player: str, action: Any, child: _Node | None) -> None:
        """Keep `child` where the move leads, without chance, to `player`'s own next decision: the
        position is then foreseen exactly (its observation is stored to recognise it)."""
        self._kept = None
        if child is None or not child.children:
            return
        chance = Chance.seeded(0)
        after = game.play(state, action, chance)[0]
        if chance.log or game.players_to_act(after) != [player]:
            return
        self._kept = (child, player, game.observe(after, player))

    def _reused(self, game: Rules, state: Any, player: str) -> _Node | None:
        kept, self._kept = self._kept, None
        if kept is None or not self.keep or kept[1] != player or game.observe(state, player) != kept[2]:
            return None
        node = kept[0]
        node.actor, node.rank, node.prior = None, {}, {}  # the root: rated afresh below
        return node

    def _simulate(self, game: Rules, state: Any, root: _Node, rng: random.Random, chance: Chance,
                  scale: Callable[[float, str], float], depth: int, puct: float, rated: bool) -> None:
        node, path = root, []
        expanded = False
        while not expanded:
            actors = game.players_to_act(state)
            if not actors:
                break
            actor = actors[0] if len(actors) == 1 else rng.choice(actors)
            legal = game.legal_actions(state, actor)
            children = node.children
            if puct:
                action, child, expanded = self._puct(game, state, node, actor, legal, rng, puct)
                state = game.play(state, action, chance)[0]
                path.append(child)
                node = child
                continue
            untried = []
            for a in legal:
                known = children.get(a)
                if known is None:
                    untried.append(a)
                else:
                    known.available += 1
            room = len(children) < self.widening * math.sqrt(node.visits + 1) or len(untried) == len(legal)
            if untried and room:
                if self.rank_deep and node.visits and not node.rank and len(legal) > 1:
                    # A node expanded a second time orders its moves one step ahead, as the root does: a
                    # subtree's mean is then made of good continuations, not of random ones.
                    node.rank = _ratings(game, state, actor, legal, rng)
                rank = node.rank
                if rank:
                    best = max(rank.get(a, -math.inf) for a in untried)
                    untried = [a for a in untried if rank.get(a, -math.inf) == best]
                action = rng.choice(untried)
                child = children[action] = _Node(actor)
                child.available = 1
                expanded = True
            else:
                action, child = self._select(node, [a for a in legal if a in children])
            state = game.play(state, action, chance)[0]
            path.append(child)
            node = child
        values = self._rollout(game, state, rng, chance, scale, depth, rated)
        root.visits += 1
        for n in path:
            n.visits += 1
            n.total += values(n.actor or "")

    def _puct(self, game: Rules, state: Any, node: _Node, actor: str, legal: Sequence[Any],
              rng: random.Random, weight: float) -> tuple[Any, _Node, bool]:
        """PUCT's choice at `node`: the child, and whether it is new (the simulation's leaf)."""
        if not node.prior:
            if not node.rank and len(legal) > 1:
                node.rank = _ratings(game, state, actor, legal, rng)
            node.prior = _softmax(node.rank, game.hints.rating_unit)
        children, prior = node.children, node.prior
        visited = [children[a] for a in legal if a in children]
        n = sum(c.visits for c in visited)
        fpu = sum(c.total for c in visited) / n if n else 0.5  # an untried move: as good as the tried ones on average
        root_n = math.sqrt(n + 1)
        uniform = 1.0 / len(legal)
        best, best_score = legal[0], -math.inf
        for a in legal:
            child = children.get(a)
            visits = child.visits if child is not None else 0
            q = child.total / visits if child is not None and visits else fpu
            score = q + weight * prior.get(a, uniform) * root_n / (1 + visits)
            if score > best_score:
                best, best_score = a, score
        child = children.get(best)
        if child is None:
            child = children[best] = _Node(actor)
            return best, child, True
        return best, child, False

    def _select(self, node: _Node, legal: Sequence[Any]) -> tuple[Any, _Node]:
        best, best_score = legal[0], -math.inf
        c = self.exploration
        for a in legal:
            child = node.children[a]
            score = child.total / child.visits + c * math.sqrt(math.log(max(child.available, 1)) / child.visits)
            if score > best_score:
                best, best_score = a, score
        return best, node.children[best]

    def _rollout(self, game: Rules, state: Any, rng: random.Random, chance: Chance,
                 scale: Callable[[float, str], float], depth: int, rated: bool) -> Callable[[str], float]:
        for _ in range(depth):
            actors = game.players_to_act(state)
            if not actors:
                break
            actor = actors[0] if len(actors) == 1 else rng.choice(actors)
            legal = game.legal_actions(state, actor)
            action = _AHEAD.choose(game, state, actor, legal, rng) if rated else rng.choice(legal)
            state = game.play(state, action, chance)[0]
        if not game.players_to_act(state):
            return lambda p: returns(game, state, p)
        cache: dict[str, float] = {}

        def estimate(p: str) -> float:
            if p not in cache:
                rated = game.evaluate(state, p)
                cache[p] = 0.5 if rated is None else scale(rated, p)
            return cache[p]
        return estimate


class _Scale:
    """Ratings turned into returns in (0, 1): the game's `evaluate` has no fixed scale, so a rating is
    measured against the position searched from, in units of how much one action can change it
    (the spread of the ratings one step ahead), and squashed by the logistic function. A terminal
    win is 1 and a loss 0 beside them."""

    def __init__(self, centre: dict[str, float], unit: float) -> None:
        self.centre = centre
        self.unit = unit

    @classmethod
    def around(cls, game: Rules, state: Any, player: str, legal: Sequence[Any],
               rng: random.Random) -> tuple[_Scale, list[float | None]]:
        """The scale, and each action's rating one step ahead (the order the root tries them in)."""
        rated = [game.evaluate(game.play(state, a, Chance.seeded(rng.randrange(1 << 30)))[0], player) for a in legal]
        return cls({}, _unit([v for v in rated if v is not None], game.hints.rating_unit)), rated

    def __call__(self, game: Rules, root: Any, value: float, player: str) -> float:
        centre = self.centre.get(player)
        if centre is None:
            rated = game.evaluate(root, player)
            centre = self.centre[player] = 0.0 if rated is None else rated
        x = (value - centre) / self.unit
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, x))))


def _unit(values: Sequence[float], fallback: float = 1.0) -> float:
    """How much one action typically changes the rating: half the spread of the middle half of the
    ratings one step ahead. Robust on purpose: one move that loses the game on the spot (a rating
    thousands below the rest) must not flatten every other difference to nothing. Where most moves
    rate the same, the smallest difference from them; the game's `fallback` (a difference that matters
    in play) where all do. Differences within float rounding of the ratings count as none: a sum of
    the same terms in another order is not a better move, and as a unit it would make every real
    difference look infinite."""
    middle = statistics.median(values) if values else 0.0
    noise = 1e-9 * max(1.0, abs(middle))
    if len(values) >= 4:
        q1, _, q3 = statistics.quantiles(values, n=4, method="inclusive")
        if q3 - q1 > noise:
            return (q3 - q1) / 2
    gaps = [abs(v - middle) for v in values if abs(v - middle) > noise]
    return min(gaps) if gaps else fallback


def _ratings(game: Rules, state: Any, player: str, legal: Sequence[Any], rng: random.Random) -> dict[Any, float]:
    """Each action's rating one step ahead for `player` (chance in it a throwaway); {} where the game
    rates no positions."""
    out = {}
    for a in legal:
        rated = game.evaluate(game.play(state, a, Chance.seeded(rng.randrange(1 << 30)))[0], player)
        if rated is None:
            return {}
        out[a] = rated
    return out


def _softmax(ratings: Mapping[Any, float], fallback: float = 1.0) -> dict[Any, float]:
    """Ratings as shares summing to 1, in units of their own spread (see `_unit`); {} for none."""
    if not ratings:
        return {}
    unit, top = _unit(list(ratings.values()), fallback), max(ratings.values())
    weights = {a: math.exp(max(-30.0, (r - top) / unit)) for a, r in ratings.items()}
    total = sum(weights.values())
    return {a: w / total for a, w in weights.items()}


def _rank(node: _Node | None) -> tuple[int, float]:
    if node is None or node.visits == 0:
        return (0, 0.0)
    return (node.visits, node.total / node.visits)


POLICIES: Mapping[str, str] = {
    "random": "uniformly random legal actions",
    "greedy": "one step ahead: the legal action whose result the engine rates best",
    "search": "Monte Carlo tree search over whole games (information-set, chance sampled), "
              "strength named by its simulations per move",
    "search-hints-off": "the same search without the game's hints (its rating of positions): random play "
                        "to the end of the game rates every position it reaches (for measuring the search)",
}
SEARCHES = ("search", "search-hints-off")  # the policies that search: their strength is simulations a move


def player_for(policy: str, simulations: int = 100, rollout_depth: int | None = None) -> Player:
    if policy == "random":
        return RandomPlayer()
    if policy == "greedy":
        return LookaheadPlayer()
    if policy in SEARCHES:
        return SearchPlayer(simulations=simulations, rollout_depth=rollout_depth, hinted=policy == "search")
    raise ValueError(f"unknown policy {policy!r}; expected one of: {', '.join(POLICIES)}")
