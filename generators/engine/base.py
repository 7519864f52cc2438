"""The engine base class of the first engines, kept while each game moves to `contract.Game`.

TRANSITIONAL: a game still written as an `Engine` subclass works through every caller unchanged (its
methods have the names `Game`'s have); this module goes when the last game has its package. New code
imports from `contract`, `chance`, `facts` and `refusals`, which this module re-exports.
"""

from __future__ import annotations

import importlib
import itertools
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from generators.content.schema import to_data
from generators.content.yaml_io import Doc
from generators.engine.chance import Chance, ChanceExhausted, ChanceMismatch
from generators.engine.contract import Event, Game, Setting, _convert, _error, field_names, named
from generators.engine.facts import FaceFacts, GameContent, drawn, game_content, printed_names
from generators.engine.refusals import IllegalAction, SetupError
from generators.engine.svg import Focus, Piece, Swatch, changes_between, window_of
from generators.errors import KeyPath

__all__ = [
    "Chance",
    "ChanceExhausted",
    "ChanceMismatch",
    "Engine",
    "Event",
    "FaceFacts",
    "Game",
    "GameContent",
    "GameType",
    "IllegalAction",
    "Setting",
    "SetupError",
    "drawn",
    "field_names",
    "game_content",
    "load_engine",
    "printed_names",
]


@dataclass(frozen=True)
class GameType:
    """The first engines' game type (TRANSITIONAL, see the module's note)."""

    name: str
    min_players: int
    max_players: int
    dynamics: Literal["sequential", "simultaneous"] = "sequential"
    chance: Literal["deterministic", "explicit"] = "explicit"
    information: Literal["perfect", "imperfect"] = "perfect"
    utility: Literal["solo", "competitive", "cooperative"] = "competitive"
    max_actions: int = 5000


# --- the engine --------------------------------------------------------------------------------


class Engine(ABC):
    """One game's rules. Subclasses set the class attributes and implement the abstract methods."""

    type: ClassVar[GameType]
    setup_spec: ClassVar[type]
    action_specs: ClassVar[Mapping[str, type]]
    options_spec: ClassVar[type]
    facts_specs: ClassVar[Mapping[str, type]] = {}
    notes: ClassVar[tuple[tuple[str, str], ...]] = ()  # (rule id, our reading where the book is silent)

    # -- required --

    @abstractmethod
    def initial_state(self, setup: Any, content: GameContent) -> Any:
        """The state a scenario's typed setup describes; SetupError(path) if the rules cannot reach it."""

    @abstractmethod
    def new_game(self, options: Any, content: GameContent, chance: Chance) -> Any:
        """A complete game at its start, set up as the rulebook says (shuffles and deals by `chance`)."""

    @abstractmethod
    def players_to_act(self, state: Any) -> list[str]:
        """Who may act now (one player in sequential play; several in a simultaneous phase); [] when over."""

    @abstractmethod
    def legal_actions(self, state: Any, player: str | None = None) -> list[Any]:
        """Every concrete legal action (typed, parameters and choices included) for `player`
        (default: everyone who may act)."""

    @abstractmethod
    def apply(self, state: Any, action: Any, chance: Chance) -> tuple[Any, list[Event]]:
        """Apply one typed action to a copy of `state`; IllegalAction when the rules refuse it."""

    @abstractmethod
    def outcome(self, state: Any, events: list[Event]) -> dict[str, Any]:
        """The observable result a scenario's `expect` is compared with (JSON-ready)."""

    @abstractmethod
    def result(self, state: Any) -> dict[str, Any]:
        """Whole-game figures for a finished game: `result` (a word such as won / lost / a winner)
        plus numbers worth averaging (damage taken, rounds)."""

    @abstractmethod
    def draw_svg(self, state: Any, focus: Focus | None = None) -> str:
        """The state as a deterministic SVG. With a `focus` (from `focus_on`), only the window around
        what changed, with arrows for moves and bursts for hits (`svg.overlay`); without one, the
        whole board, as any caller may ask."""

    # -- optional --

    def odds(self) -> list[dict[str, Any]]:
        """Exact probability tables for the site, computed through the same rule functions the engine
        resolves with: {id, title, rule, columns, rows: [[label, {fraction, percent}...]], means}."""
        return []

    def odds_for(self, content: GameContent) -> list[dict[str, Any]]:
        """`odds` for tables that need the game's content (card facts); by default the content-free `odds`."""
        return self.odds()

    def describe_action(self, action: Any, state: Any = None, content: GameContent | None = None) -> str:
        """An action in players' words (for the site's step lists): every name as the content prints
        it (`content.name`), never an id. `state` is the position the action is played from."""
        data = to_data(action)
        kind = str(data.pop("do", "")).replace("_", " ")
        rest = ", ".join(f"{k.replace('_', ' ')} {named(content, v)}" for k, v in data.items())
        return f"{kind} ({rest})" if rest else kind

    def pieces(self, state: Any) -> list[Piece]:
        """The pieces on the board in players' words and board units, for the zoom, the arrows and
        the alt text (default: none, so drawings stay whole and unmarked)."""
        return []

    def legend(self) -> list[Swatch]:
        """One entry per kind of piece the drawings show, drawn as the drawings draw it."""
        return []

    def focus_on(self, states: Sequence[Any]) -> Focus:
        """The window around everything that changes from one state to the next along `states`
        (the same window for every drawing of an example, so they compare), without marks."""
        lists = [self.pieces(s) for s in states]
        window = None
        for before, after in itertools.pairwise(lists):
            found = window_of(changes_between(before, after))
            window = found.union(window) if found else window
        return Focus(window)

    def describe_random(self, label: str, value: Any, content: GameContent | None = None) -> str:
        """One labelled roll or draw in players' words ("rolls 4 for movement", "draws Oil slick"),
        for the step it happens in."""
        if isinstance(value, int) and not isinstance(value, bool):
            return f"rolls {value} on the {label}" if label.endswith("die") else f"rolls {value} for the {label}"
        if isinstance(value, (list, tuple)):
            return f"{label}, in order: {named(content, value)}"
        return f"{label}: {named(content, value)}"

    def describe_end(self, state: Any, content: GameContent | None = None) -> str:
        """Where an example ends, in players' words (who won, health or damage, where the pieces
        are): the site writes it under the example's outcome. Empty: the engine says nothing."""
        return ""

    def simulation_setups(self) -> list[Setting]:
        """The configurations `roadkit simulate` plays (default: the default options)."""
        return [Setting("default", {})]

    def evaluate(self, state: Any, player: str) -> float | None:
        """How good `state` looks for `player` (higher is better), for the simulator's greedy policy,
        which plays the action whose result evaluates best. None: the engine offers no evaluation,
        and only the random policy is played."""
        return None

    # -- shared, not overridden --

    def parse_setup(self, data: Any, doc: Doc | None = None, path: KeyPath = ()) -> Any:
        return _convert(self.setup_spec, data, doc, path)

    def parse_options(self, data: Any) -> Any:
        return _convert(self.options_spec, data, None, ())

    def parse_action(self, data: Any, doc: Doc | None = None, path: KeyPath = ()) -> Any:
        """A scripted action (a mapping with `do:`) as its typed spec; SetupError / located error if not."""
        if not isinstance(data, Mapping):
            raise _error(doc, path, "an action is a mapping such as {do: ...}")
        kind = data.get("do")
        if not isinstance(kind, str) or kind not in self.action_specs:
            kinds = ", ".join(self.action_specs)
            raise _error(doc, (*path, "do"), f"unknown action {kind!r}; expected one of: {kinds}")
        return _convert(self.action_specs[kind], data, doc, path)

    def is_terminal(self, state: Any) -> bool:
        return not self.players_to_act(state)

    def varies(self, state: Any) -> list[tuple[str | None, str, str]]:
        return []

    resample = None

    def play(self, state: Any, action: Any, chance: Chance) -> tuple[Any, list[Event]]:
        return self.apply(state, action, chance)

    def refusal(self, state: Any, action: Any, player: str | None = None) -> str | None:
        try:
            self.apply(state, action, Chance.seeded(0))
        except IllegalAction as exc:
            return exc.message
        return None

    def legal_data(self, state: Any, player: str | None = None) -> list[dict[str, Any]]:
        """The legal actions as plain mappings, in the form a scenario writes them."""
        return [to_data(a) for a in self.legal_actions(state, player)]


def load_engine(name: str) -> Engine | Game[Any, Any]:
    """The `GAME` of generators.engine.<name> (a module or a package)."""
    module = importlib.import_module(f"generators.engine.{name}")
    game = module.__dict__.get("GAME")
    if not isinstance(game, (Engine, Game)):
        raise TypeError(f"generators.engine.{name} defines no GAME")
    return game
