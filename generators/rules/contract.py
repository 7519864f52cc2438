"""The contract every game's rules implement, and the one class that runs any of them.

Learned from OpenSpiel (a small state API: who acts, legal actions, apply, terminal, returns; static
data on a game object) and boardgame.io (moves, phases and turn order declared as data). A game's
package (`generators/games/<game>/`) builds one `Game` from its parts and exposes it as `GAME`:

- `GameType`: players, information, utility, the bound on a game's length;
- `Specs`: the dataclasses a scenario's `setup:`, a whole game's options, each action (`do:`) and
  each component's `facts:` are converted to (located errors, JSON Schemas for editors);
- the state API, as plain functions of the game's own typed state: `start` (a whole game from the
  rulebook's setup), `from_setup` (a scenario's position), `actors` (who may act), `phase_of`;
- `phases`: each phase names the moves it allows and whether one player or several act in it;
- `moves`: per action kind, its `options` (every concrete action worth asking about) and its `rules`
  (each returns None when it holds, else why not, in players' words), and `resolve` (the rules applied
  to a copy). Legal actions are the options every rule allows, and a refusal is the first rule that
  does not hold: one piece of code answers both questions.
- `Words`, `Drawing`, `Hints`: players' wording, SVG drawings and optional search hints.

Randomness reaches the rules only through `Chance`. The engine never sees a scenario's `expect`.
"""

from __future__ import annotations

import importlib
import importlib.util
import itertools
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, Literal, TypeVar, cast

from generators.build_system.code_layers import add_games_folder
from generators.build_system.errors import ContentError, KeyPath
from generators.content.schema import convert, fields_of, to_data
from generators.content.yaml_io import Doc
from generators.rules.chance import Chance
from generators.rules.facts import GameContent
from generators.rules.refusals import IllegalAction, Limit, SetupError
from generators.rules.svg import Focus, Piece, Swatch, changes_between, window_of

DEAL_TRIES = 20  # re-deals `Game.deal` tries before it keeps the state as it is
Spec = type  # a dataclass a spec converts to (named so: inside `Game`, `type` is the game's GameType)
S = TypeVar("S")  # a game's state
A = TypeVar("A")  # a game's action (the union of its action specs)
T = TypeVar("T")


# --- events ------------------------------------------------------------------------------------


class Event:
    """Something that happened while applying an action: `kind` plus JSON-ready details."""

    def __init__(self, kind: str, data: dict[str, Any] | None = None) -> None:
        self.kind = kind
        self.data = {} if data is None else data

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Event) and (self.kind, self.data) == (other.kind, other.data)

    def __repr__(self) -> str:
        return f"Event({self.kind!r}, {self.data!r})"

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, **self.data}


# --- static data -------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameType:
    """What kind of game this is. `information` tells the search player whether it must re-deal what
    the acting player cannot see (`Game.resample`); `utility` how results turn into a player's return;
    `max_actions` bounds a whole game, whatever is played (the simulator and the suite enforce it)."""

    name: str
    min_players: int
    max_players: int
    information: Literal["perfect", "imperfect"] = "perfect"
    utility: Literal["solo", "competitive", "cooperative"] = "competitive"
    max_actions: int = 5000


@dataclass(frozen=True)
class Setting:
    """One whole-game configuration the simulator plays (a difficulty, a player count)."""

    label: str
    options: Mapping[str, Any]


@dataclass(frozen=True)
class Harder:
    """Settings expected to get harder in this order (easiest first), and why, in players' words: the
    rulebook's own levels, or a house design's declared difficulty. The simulator tells whether a
    careful player's win rates come out in that order, outside the noise."""

    settings: tuple[str, ...]
    because: str


@dataclass(frozen=True)
class Specs:
    """The dataclasses content is converted to: a scenario's setup, a whole game's options, each
    action by its `do:` value, each component's `facts:` by component id."""

    setup: type
    options: type
    actions: Mapping[str, type]
    facts: Mapping[str, type] = field(default_factory=dict)


@dataclass(frozen=True)
class Phase:
    """A stage of play, declared as data: the moves it allows (by `do:` value), how players name it
    (where play is, as a refusal tells it: "the start of a turn"), and whether one player acts at a
    time or several may act in any order (a simultaneous step). A move it does not allow is refused by
    the rule that holds it back: `says[kind]` where this moment has its own for that move (a gear the
    Gear-Shifter blocks), else `rule` where the moment holds back every other move (hits placed first,
    a drawn card resolved first), else the move's own moment (`Game.moments`). Each names its section."""

    id: str
    words: str
    moves: tuple[str, ...]
    acts: Literal["one", "several"] = "one"
    rule: str = ""
    says: Mapping[str, str | Callable[[Any], str]] = field(default_factory=dict, hash=False)


_UNASKED = object()  # a key `Ask.cached` has not computed yet


class Ask(Generic[S]):
    """One question put to the rules about a state (list the legal actions, or why one is refused),
    with a memo that lives only as long as the question: rules share what they compute (the spaces in
    range, a dry run) without writing anything into the state."""

    __slots__ = ("memo", "state")

    def __init__(self, state: S) -> None:
        self.state = state
        self.memo: dict[Any, Any] = {}

    def cached(self, key: Any, compute: Callable[[], T]) -> T:
        """`compute()`, made once per question under `key` (None is an answer too). A miss is a `get`,
        not a raised KeyError: each question misses once per key, and rules ask for every option."""
        found = self.memo.get(key, _UNASKED)
        if found is _UNASKED:
            found = self.memo[key] = compute()
        return cast(T, found)


Rule = Callable[[Ask[Any], Any], "str | None"]  # None when the rule allows the action, else why not


@dataclass(frozen=True)
class Move(Generic[S, A]):
    """One kind of action (`do:`). `options(ask, player)` yields the concrete actions worth asking
    about (parameters filled in, a superset of the legal ones); `rules` decide, in order, each
    returning None when it allows the action or the reason it does not, in players' words, naming
    the rule; `resolve(state, action, chance)` applies an allowed action to a copy, with its events.
    `options_meet`: how many of the first rules every listed option meets by how `options` makes it (a slot
    with a card, a civilian's free space): listing skips them, a refusal still asks every rule, and
    the shared suite asks each listed action's refusal, so a wrong count fails there."""

    words: str
    options: Callable[[Ask[S], str], Iterable[A]]
    rules: tuple[Callable[[Ask[S], A], str | None], ...]
    resolve: Callable[[S, A, Chance], tuple[S, list[Event]]]
    options_meet: int = 0
    # `resolve` without its events, for players that read only the state (the look-ahead): the same
    # rules, the same state; optional (without it, `Game.advance` drops resolve's events).
    advance: Callable[[S, A, Chance], S] | None = None

    @property
    def listing(self) -> tuple[Callable[[Ask[S], A], str | None], ...]:
        """The rules listing asks of each option (see `options_meet`)."""
        return self.rules[self.options_meet:]


@dataclass(frozen=True)
class Figure:
    """A number or place a player follows through an example, named as the step lines name it: whose
    (`piece`: "Z", "the hero", "Olena"; "" in a one-vehicle game) and what ("HP", "Logistics")."""

    piece: str
    name: str


@dataclass(frozen=True)
class Place:
    """Where a piece is, as a figure: it changes when `at` does (a space or tile id) and is told by a
    line that names the piece and `words` (the place as the lines name it: a tile's printed title)."""

    at: str
    words: str = field(compare=False)


@dataclass(frozen=True)
class Words(Generic[S, A]):
    """Players' wording for the site's step lists: an action (`action(action, state, content)`), a
    roll or draw (`random(label, value, content)`), where an example ends (`end(state, content)`), and
    what the rules did on their own inside a step (`event(event, state, content)`, `state` the one the
    step ends in: an end-of-turn check, an enemy's attack, a heal, damage an ability takes away; None
    for an event not worth telling, or one the action's own line tells), so every figure an example's
    outcome shows changes by a line the reader sees. `figures(state, content)`: the figures a player
    follows, each a count or a `Place`; a test replays every example and checks that each change of
    one is told by a line of its step."""

    action: Callable[[A, S | None, GameContent | None], str] | None = None
    random: Callable[[str, Any, GameContent | None], str] | None = None
    end: Callable[[S, GameContent | None], str] | None = None
    event: Callable[[Event, S | None, GameContent | None], str | None] | None = None
    figures: Callable[[S, GameContent | None], Mapping[Figure, int | Place]] | None = None


@dataclass(frozen=True)
class Drawing(Generic[S]):
    """The state as a deterministic SVG (whole, or the window a `Focus` names), the pieces in board
    units and players' words (for the zoom, arrows and alt text), and a legend of piece kinds."""

    svg: Callable[[S, Focus | None], str]
    pieces: Callable[[S], list[Piece]] = lambda state: []
    legend: Callable[[], list[Swatch]] = lambda: []
    # The places (board units) a piece passed through during one action, from its events and the
    # state after it, in order, so a move is drawn the way it was driven; pieces not named go straight.
    route: Callable[[S, Sequence[Event]], dict[str, list[tuple[float, float]]]] = lambda state, events: {}


@dataclass(frozen=True)
class Hints(Generic[S, A]):
    """Optional knowledge that only makes a player better or faster, never changes the rules:
    `evaluate(state, player)` rates a position (higher is better) for the look-ahead, for the order
    the search tries moves in and for rating the positions it reaches. `priors`: the weight the search
    gives those one-step ratings as its prior over moves (PUCT); 0 (the default) tries moves in the
    ratings' order but chooses among them by the simulations alone (UCB1). `rating_unit`: a rating difference
    that matters in play, the search's scale where the moves one step ahead rate (almost) alike.
    `rollout`: actions the look-ahead plays on past each new position of the search before it is rated,
    for games whose moves pay off together (a turn of small steps); 0 rates the position itself."""

    evaluate: Callable[[S, str], float] | None = None
    priors: float = 0.0
    rating_unit: float = 1.0
    rollout: int = 0


@dataclass(frozen=True)
class Table(Generic[S, A]):
    """What a game adds to the shared table view (generators/play/table.py) beyond its drawing, figures and
    words; every part optional. `panel(state, seat, content)`: titled sections of lines in players'
    words that `seat` may look at (its hand with card text, tracks, resources), never what it cannot
    see. `seats(state, content)`: each seat's identity ("P1": "Mista"). `parts(state, action)`: the
    words of each part of a decision players make one part at a time (a market row cycled: the row,
    then which card goes under first, then the rest), so the view offers the first part, then the
    next, and never every combination at once; an action with one part (or `()`) is offered whole.
    `path(state, action)`: the action is one step of a move whose path
    the rules leave free, so the seat's next decision continues it (the view offers the destinations).
    `unseen`: by chance label, the words said in place of a result no seat sees (a shuffled order)."""

    panel: Callable[[S, str, GameContent | None], Sequence[tuple[str, Sequence[str]]]] | None = None
    seats: Callable[[S, GameContent | None], Mapping[str, str]] | None = None
    parts: Callable[[S, A, GameContent | None], Sequence[str]] | None = None
    path: Callable[[S, A], bool] | None = None
    unseen: Mapping[str, str] = field(default_factory=dict)


# --- the game ----------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Game(Generic[S, A]):
    """One game's rules, assembled from its parts. Every caller (the check runner, the simulator, the
    search player, the site, the tests) goes through these methods; none is overridden per game."""

    type: GameType
    specs: Specs
    start: Callable[[Any, GameContent, Chance], S]
    from_setup: Callable[[Any, GameContent], S]
    actors: Callable[[S], Sequence[str]]
    phase_of: Callable[[S], str]
    phases: Mapping[str, Phase]
    moves: Mapping[str, Move[S, A]]
    # Per move, when the rules let it be taken, naming the rule's section ("the road bonus is taken
    # after the move's last step (2. Move)"), or a function of the state where that depends on it (a
    # sortie's attacks used up): what refuses a move out of its moment, unless the phase says (Phase).
    moments: Mapping[str, str | Callable[[S], str]]
    outcome: Callable[[S, list[Event]], dict[str, Any]]
    result: Callable[[S], dict[str, Any]]
    # The players who won a finished game (every seat in a won solo or cooperative game, none in a
    # lost one): players' returns come from it, never from parsing the result's wording.
    winners: Callable[[S], Sequence[str]]
    drawing: Drawing[S]
    words: Words[S, A] = field(default_factory=Words)
    odds: Callable[[GameContent], list[dict[str, Any]]] = lambda content: []
    hints: Hints[S, A] = field(default_factory=Hints)
    table: Table[S, A] = field(default_factory=Table)
    settings: tuple[Setting, ...] = (Setting("default", {}),)
    limits: tuple[Limit, ...] = ()  # setups the rules never reach, each refused (see Limit)
    harder: tuple[Harder, ...] = ()  # difficulty orders the settings should come out in
    # What `player` observes of a state, as plain data (OpenSpiel's information state; see
    # generators/rules/information.py): every game declares it; `information.whole` where nothing is hidden.
    observation: Callable[[S, str], Any] | None = None
    # Imperfect information: a copy of the state with everything `player` cannot observe dealt again
    # by `chance` from what they can (OpenSpiel's resample_from_infostate): a function of their
    # observation and `chance` alone, so players that decide on re-dealt worlds never read the true one.
    resample: Callable[[S, str, Chance], S] | None = None
    # What varies between games, read at a game's start for the balance report: (player or None,
    # kind, value) such as ("P1", "character", "Reegad") or (None, "mission", "red-mile").
    variety: Callable[[S], Sequence[tuple[str | None, str, str]]] | None = None
    # A scripted action with its defaults filled in from the state (who acts, when a scenario leaves
    # it out), before the rules are asked: legal actions name every field, so they compare equal.
    complete: Callable[[S, A], A] | None = None
    # Options converted so far, by their data's canonical JSON (see parse_options); never read otherwise.
    _options_seen: dict[str, Any] = field(default_factory=dict, init=False, repr=False)
    # Written actions converted without a document (the shared suite's and the search's), by their data's
    # repr: the action, or the SetupError's (path, message). Never read otherwise.
    _actions_seen: dict[str, Any] = field(default_factory=dict, init=False, repr=False)
    # Per phase, each allowed move's (options, rules listing asks), in the phase's order: made once from
    # `phases` and `moves` (both fixed), so listing legal actions looks nothing up per move.
    _listing: dict[str, tuple[tuple[Any, tuple[Any, ...]], ...]] = field(default_factory=dict, init=False,
                                                                          repr=False)

    def __post_init__(self) -> None:
        kinds = set(self.specs.actions)
        if set(self.moves) != kinds:
            raise TypeError(f"{self.type.name}: moves {sorted(self.moves)} do not match actions {sorted(kinds)}")
        for phase in self.phases.values():
            unknown = set(phase.moves) - kinds
            if unknown:
                raise TypeError(f"{self.type.name}: phase {phase.id} allows unknown moves {sorted(unknown)}")
            untold = [k for k in sorted(kinds - set(phase.moves)) if phase.moves and not (
                phase.says.get(k) or phase.rule or self.moments.get(k))]
            if untold:  # no generic refusal: every move out of its moment is refused by a rule
                raise TypeError(f"{self.type.name}: in phase {phase.id}, no rule refuses {untold}")
        labels = {s.label for s in self.settings}
        for order in self.harder:
            unknown = set(order.settings) - labels
            if unknown or len(order.settings) < 2:
                raise TypeError(f"{self.type.name}: a difficulty order names settings {sorted(unknown)} that "
                                "are not among its settings, or fewer than two")
        if self.observation is None:
            raise TypeError(f"{self.type.name}: declare what each seat observes (observation)")
        if (self.type.information == "imperfect") != (self.resample is not None):
            raise TypeError(f"{self.type.name}: a game of imperfect information re-deals hidden parts "
                            "(resample), and only such a game does")
        self._listing.update({phase.id: tuple((self.moves[kind].options, self.moves[kind].listing)
                                              for kind in phase.moves) for phase in self.phases.values()})

    # -- static data, as callers name it --

    @property
    def action_specs(self) -> Mapping[str, Spec]:
        return self.specs.actions

    @property
    def facts_specs(self) -> Mapping[str, Spec]:
        return self.specs.facts

    @property
    def setup_spec(self) -> Spec:
        return self.specs.setup

    @property
    def options_spec(self) -> Spec:
        return self.specs.options

    def simulation_setups(self) -> list[Setting]:
        return list(self.settings)

    # -- the state API --

    def initial_state(self, setup: Any, content: GameContent) -> S:
        """The state a scenario's typed setup describes; SetupError(path) if the rules cannot reach it."""
        return self.from_setup(setup, content)

    def new_game(self, options: Any, content: GameContent, chance: Chance) -> S:
        """A complete game at its start, set up as the rulebook says (shuffles and deals by `chance`)."""
        return self.start(options, content, chance)

    def players_to_act(self, state: S) -> list[str]:
        """Who may act now: one player, or several in a simultaneous step; [] when the game is over."""
        who = list(self.actors(state))
        if len(who) > 1 and self.phase(state).acts == "one":
            raise AssertionError(f"{self.type.name}: {len(who)} players act in a one-player phase")
        return who

    def is_terminal(self, state: S) -> bool:
        return not self.actors(state)

    def phase(self, state: S) -> Phase:
        return self.phases[self.phase_of(state)]

    def legal_actions(self, state: S, player: str | None = None) -> list[A]:
        """Every concrete legal action for `player` (default: everyone who may act), in a stable order."""
        who = self.actors(state)
        players = who if player is None else [player] if player in who else []
        if not players:
            return []
        ask: Ask[S] = Ask(state)
        out: list[A] = []
        for options, rules in self._listing[self.phase_of(state)]:
            n = len(rules)
            for p in players:
                found = options(ask, p)
                if not found:  # an empty list or tuple: nothing to ask the rules
                    continue
                # The same test in every branch (every rule allows it), unrolled for the common
                # rule counts: a look-ahead lists legal actions millions of times.
                if n == 0:
                    out.extend(found)
                elif n == 1:
                    only = rules[0]
                    out.extend([a for a in found if only(ask, a) is None])
                elif n == 2:
                    r1, r2 = rules
                    out.extend([a for a in found if r1(ask, a) is None and r2(ask, a) is None])
                elif n == 3:
                    r1, r2, r3 = rules
                    out.extend([a for a in found if r1(ask, a) is None and r2(ask, a) is None
                                and r3(ask, a) is None])
                elif n == 4:
                    r1, r2, r3, r4 = rules
                    out.extend([a for a in found if r1(ask, a) is None and r2(ask, a) is None
                                and r3(ask, a) is None and r4(ask, a) is None])
                else:
                    for a in found:
                        for rule in rules:
                            if rule(ask, a) is not None:
                                break
                        else:
                            out.append(a)
        return out

    def refusal(self, state: S, action: A, player: str | None = None) -> str | None:
        """Why the rules refuse `action` now, in players' words; None when they allow it. The same
        rules as `legal_actions`, asked in the same order, so the two always agree."""
        kind = getattr(action, "do", None)
        move = self.moves.get(kind) if isinstance(kind, str) else None
        if move is None or type(action) is not self.specs.actions[kind]:  # type: ignore[index]
            return f"{self.type.name} has no such action"
        if self.complete is not None:
            action = self.complete(state, action)
        who = self.actors(state)
        if not who:
            return "the game is over"
        phase = self.phase(state)
        if kind not in phase.moves:
            return self.out_of_moment(state, str(kind), phase)
        ask: Ask[S] = Ask(state)
        for rule in move.rules:
            reason = rule(ask, action)
            if reason is not None:
                return reason
        players = who if player is None else [player]
        if not any(action == option for p in players for option in move.options(ask, p)):
            # Every rule allows it, yet it is not among the choices: a rule is missing (the shared
            # suite fails on this message, so it never reaches players).
            return f"no rule explains why this cannot be done ({move.words}); please report it"
        return None

    def out_of_moment(self, state: S, kind: str, phase: Phase) -> str:
        """Why a move is refused at a moment of play that does not allow it: the rule that holds it
        back (see Phase), then where play is."""
        why = phase.says.get(kind) or phase.rule or self.moments[kind]
        return f"{why if isinstance(why, str) else why(state)}; play is at {phase.words}"

    def apply(self, state: S, action: A, chance: Chance) -> tuple[S, list[Event]]:
        """Apply one action to a copy of `state` (never changed); IllegalAction with the reason when
        the rules refuse it."""
        reason = self.refusal(state, action)
        if reason is not None:
            raise IllegalAction(reason)
        if self.complete is not None:
            action = self.complete(state, action)
        return self.moves[action.do].resolve(state, action, chance)  # type: ignore[attr-defined]

    def play(self, state: S, action: A, chance: Chance) -> tuple[S, list[Event]]:
        """`apply` for an action taken from `legal_actions` of this very state: the rules already
        allowed it, so they are not asked again (the simulator's and the search's hot path)."""
        return self.moves[action.do].resolve(state, action, chance)  # type: ignore[attr-defined]

    def advance(self, state: S, action: A, chance: Chance) -> S:
        """`play` for a caller that reads only the state it leads to: no events are made."""
        move = self.moves[action.do]  # type: ignore[attr-defined]
        if move.advance is not None:
            return move.advance(state, action, chance)
        return move.resolve(state, action, chance)[0]

    def observe(self, state: S, player: str) -> Any:
        """What `player` can know of `state`, as plain data: equal for states they cannot tell apart."""
        assert self.observation is not None  # every game declares it (__post_init__)
        return self.observation(state, player)

    def deal(self, state: S, player: str, chance: Chance, tries: int = DEAL_TRIES) -> S:
        """A world `player` cannot tell from `state`: its hidden parts re-dealt by `chance` (`resample`)
        until the moves offered to them agree too (a move may bundle a choice made after a face-down
        card is drawn, and so tell it); `state` itself where no world agrees in `tries` deals (the menu
        alone then tells what is hidden), and in a game of perfect information."""
        if self.resample is None:
            return state
        legal = self.legal_actions(state, player)
        for _ in range(tries):
            world = self.resample(state, player, chance)
            if self.legal_actions(world, player) == legal:
                return world
        return state

    def varies(self, state: S) -> list[tuple[str | None, str, str]]:
        return [] if self.variety is None else list(self.variety(state))

    # -- hints --

    def evaluate(self, state: S, player: str) -> float | None:
        """How good `state` looks for `player` (higher is better); None: the game offers no rating."""
        return None if self.hints.evaluate is None else self.hints.evaluate(state, player)

    # -- players' words --

    def describe_action(self, action: A, state: S | None = None, content: GameContent | None = None) -> str:
        if self.words.action is not None:
            return self.words.action(action, state, content)
        data = to_data(action)
        kind = str(data.pop("do", "")).replace("_", " ")
        rest = ", ".join(f"{k.replace('_', ' ')} {named(content, v)}" for k, v in data.items())
        return f"{kind} ({rest})" if rest else kind

    def describe_random(self, label: str, value: Any, content: GameContent | None = None) -> str:
        if self.words.random is not None:
            return self.words.random(label, value, content)
        return random_words(label, value, content)

    def describe_events(self, events: Sequence[Event], content: GameContent | None = None,
                        state: S | None = None) -> list[str]:
        """What the rules did on their own in one step (ending in `state`), in players' words, in order."""
        told = self.words.event
        if told is None:
            return []
        return [line for e in events if (line := told(e, state, content))]

    def describe_end(self, state: S, content: GameContent | None = None) -> str:
        return "" if self.words.end is None else self.words.end(state, content)

    def figures(self, state: S, content: GameContent | None = None) -> Mapping[Figure, int | Place]:
        """The figures a player follows in `state` (see `Words.figures`); none where a game names none."""
        return {} if self.words.figures is None else self.words.figures(state, content)

    # -- drawings and tables --

    def draw_svg(self, state: S, focus: Focus | None = None) -> str:
        return self.drawing.svg(state, focus)

    def pieces(self, state: S) -> list[Piece]:
        return self.drawing.pieces(state)

    def legend(self) -> list[Swatch]:
        return self.drawing.legend()

    def route(self, state: S, events: Sequence[Event]) -> dict[str, list[tuple[float, float]]]:
        return self.drawing.route(state, events)

    def focus_on(self, states: Sequence[S]) -> Focus:
        """The window around everything that changes from one state to the next along `states`
        (the same window for every drawing of an example, so they compare), without marks."""
        lists = [self.pieces(s) for s in states]
        window = None
        for before, after in itertools.pairwise(lists):
            found = window_of(changes_between(before, after))
            window = found.union(window) if found else window
        return Focus(window)

    def odds_for(self, content: GameContent) -> list[dict[str, Any]]:
        return self.odds(content)

    # -- reading scenarios and options --

    def parse_setup(self, data: Any, doc: Doc | None = None, path: KeyPath = ()) -> Any:
        return _convert(self.specs.setup, data, doc, path)

    def parse_options(self, data: Any) -> Any:
        """A whole game's options as their typed (frozen) spec. The simulator asks for the same few
        settings before every game, so each conversion is kept by its data's canonical JSON."""
        try:
            key = json.dumps(data, sort_keys=True)
        except (TypeError, ValueError):  # not plain data: converted (and refused) every time
            return _convert(self.specs.options, data, None, ())
        known = self._options_seen.get(key)
        if known is None:
            known = self._options_seen[key] = _convert(self.specs.options, data, None, ())
        return known

    def parse_action(self, data: Any, doc: Doc | None = None, path: KeyPath = ()) -> A:
        """A scripted action (a mapping with `do:`) as its typed spec; SetupError / located error if not."""
        if not isinstance(data, Mapping):
            raise _error(doc, path, "an action is a mapping such as {do: ...}")
        kind = data.get("do")
        if not isinstance(kind, str) or kind not in self.specs.actions:
            kinds = ", ".join(self.specs.actions)
            raise _error(doc, (*path, "do"), f"unknown action {kind!r}; expected one of: {kinds}")
        key = repr(data) if doc is None and _plain(data) else None
        if key is None:
            return _convert(self.specs.actions[kind], data, doc, path)  # type: ignore[no-any-return]
        known = self._actions_seen.get(key)
        if known is None:
            try:
                known = self._actions_seen[key] = _convert(self.specs.actions[kind], data, None, ())
            except SetupError as exc:
                known = self._actions_seen[key] = SetupError(exc.path, exc.message)
        if isinstance(known, SetupError):
            raise SetupError(known.path, known.message)
        return known  # type: ignore[no-any-return]

    def legal_data(self, state: S, player: str | None = None) -> list[dict[str, Any]]:
        """The legal actions as plain mappings, in the form a scenario writes them."""
        return [to_data(a) for a in self.legal_actions(state, player)]


def random_words(label: str, value: Any, content: GameContent | None) -> str:
    """A roll or a draw in plain words: what a game without words of its own says, and what one says of
    the draws it does not word its own way."""
    if isinstance(value, int) and not isinstance(value, bool):
        return f"rolls {value} on the {label}" if label.endswith("die") else f"rolls {value} for the {label}"
    if isinstance(value, (list, tuple)):
        return f"{label}, in order: {named(content, value)}"
    return f"{label}: {named(content, value)}"


def namer(content: GameContent | None) -> Callable[[str], str]:
    """A face's or component's printed name by its id (without the content, the id itself)."""
    return content.name if content is not None else str


def named_cards(content: GameContent | None, cards: Sequence[str]) -> str:
    """Cards by their printed names, comma-separated, or "none" (a line of a table panel)."""
    return named(content, list(cards)) or "none"


def named(content: GameContent | None, value: Any) -> str:
    """A value as words, each face or component id replaced by its printed name."""
    if isinstance(value, (list, tuple)):
        return ", ".join(named(content, v) for v in value)
    return content.name(value) if content is not None and isinstance(value, str) else str(value)


def _error(doc: Doc | None, path: KeyPath, message: str) -> Exception:
    return doc.error(path, message) if doc is not None else SetupError(path, message)


_SCALARS = frozenset({str, int, float, bool, type(None)})


def _plain(data: Any) -> bool:
    """Data whose repr names every value and its type (so equal reprs convert alike)."""
    kind = type(data)
    if kind is dict:
        if not all(type(k) is str for k in data):
            return False
        items = data.values()
    elif kind is list or kind is tuple:
        items = data
    else:
        return kind in _SCALARS
    return all(type(v) in _SCALARS or _plain(v) for v in items)


def _convert(tp: type, data: Any, doc: Doc | None, path: KeyPath) -> Any:
    """Convert with the content schema; without a document, errors become SetupErrors (same key path)."""
    if doc is not None:
        return convert(doc, tp, path, data)
    try:
        return convert(Doc("<setup>", data, {}), tp, (), data)
    except ContentError as exc:
        raise SetupError(exc.keypath, exc.message) from None


def field_names(spec: type) -> tuple[str, ...]:
    return tuple(f.name for f in fields_of(spec))


def add_engines(folder: Path) -> None:
    """Let `load_engine` find the rules packages in `folder` too (`roadkit --engines DIR`): each is
    imported as generators.games.<name>, like a package of generators/games/, so a game kept outside
    the repository (the tests' own game) is run, keyed and bundled by the same code."""
    games = importlib.import_module("generators.games")
    path = str(folder.resolve())
    if path not in games.__path__:
        games.__path__.append(path)
    add_games_folder(folder)


def has_engine(name: str) -> bool:
    """Whether generators/games/ (or a folder `add_engines` added) holds the rules package `name`."""
    return importlib.util.find_spec(f"generators.games.{name}") is not None


def load_engine(name: str) -> Game[Any, Any]:
    """The `GAME` of the rules package generators/games/<name>/."""
    module = importlib.import_module(f"generators.games.{name}")
    game = module.__dict__.get("GAME")
    if not isinstance(game, Game):
        raise TypeError(f"generators.games.{name} defines no GAME")
    return game
