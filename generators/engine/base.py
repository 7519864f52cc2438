"""The contract every game's rules module implements (as OpenSpiel declares a game type).

A game module defines one `Engine` subclass and exposes an instance as `GAME`. The engine declares:

- `type`: a `GameType` (players, sequential or simultaneous, chance, hidden information, utility);
- `setup_spec`: the dataclass a scenario's `setup:` is converted to (the content schema mechanism, so
  mistakes are located at file:line:column and a JSON Schema is exported for editors);
- `action_specs`: one dataclass per action kind, keyed by its `do:` value (each has a `do` field);
- `facts_specs`: per component id, the dataclass a face's `facts:` are converted to (card facts the
  engine reads from content instead of retyping them);
- `options_spec`: the choices a whole game is set up with (`new_game`).

Required functions: `initial_state` (a scenario's setup plus the game's content), `new_game` (a
complete game from the rulebook's setup), `players_to_act`, `legal_actions` (every concrete action,
parameters included), `apply` (pure: a new state and the events), `outcome` (JSON-ready, what
scenarios compare), `result` (whole-game figures), `draw_svg`. Optional, with defaults here: `odds`
(or `odds_for`, when the tables need the game's card facts), `describe_action` (player wording for
the site), `notes`, `simulation_setups`.

Randomness reaches an engine only through `Chance`: labelled rolls, draws and shuffles, answered by
a scenario's scripted `random:` entries (each names the roll it answers) or by a seeded generator.
The engine never sees a scenario's `expect`.
"""

from __future__ import annotations

import importlib
import itertools
import random as _random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import MISSING, dataclass, field
from dataclasses import fields as dataclass_fields
from typing import Any, ClassVar, Literal

from generators.content.model import LoadedGame, Side
from generators.content.scenario import Scripted
from generators.content.schema import convert, fields_of, to_data
from generators.content.yaml_io import Doc
from generators.engine.svg import Focus, Piece, Swatch, changes_between, window_of
from generators.errors import ContentError, KeyPath


class IllegalAction(Exception):
    """The action breaks the rules in this state; `legal` lists what was allowed (dicts)."""

    def __init__(self, message: str, legal: Sequence[Any] = ()):
        super().__init__(message)
        self.message = message
        self.legal = list(legal)


class SetupError(Exception):
    """A setup, option or action is malformed or unreachable for this game; `path` points into it
    (relative to the `setup` / action mapping) so callers can report file:line:column."""

    def __init__(self, path: KeyPath, message: str):
        super().__init__(message)
        self.path = tuple(path)
        self.message = message


class ChanceExhausted(Exception):
    """The engine needed a random result the scenario did not script."""


class ChanceMismatch(Exception):
    """A scripted random result answers another roll than the one the engine asked for."""


# --- chance ------------------------------------------------------------------------------------


@dataclass
class Chance:
    """The only source of randomness: labelled scripted results in order (scenarios), or a seeded
    generator (simulations). Every request names what it is for (`label`, such as "movement" or
    "road tile"); a scripted result for another label is a mismatch, never silently consumed."""

    script: list[Scripted] = field(default_factory=list)
    rng: _random.Random | None = None
    used: int = 0
    log: list[Scripted] = field(default_factory=list)  # what was asked and answered, in order
    seed: int | None = None  # the generator's seed, until the first request makes `rng` from it

    @classmethod
    def seeded(cls, seed: int) -> Chance:
        # Seeded on first use: seeding costs more than many a simulator's look-ahead, and most never roll.
        return cls(seed=seed)

    def _generator(self, label: str) -> _random.Random:
        if self.rng is None:
            if self.seed is None:
                raise self._exhausted(label)
            self.rng = _random.Random(self.seed)
        return self.rng

    def _scripted(self, label: str) -> Scripted | None:
        if self.used >= len(self.script):
            return None
        entry = self.script[self.used]
        if entry.label != label:
            raise ChanceMismatch(f"random[{self.used}] answers {entry.label!r}, but the engine asked for {label!r}")
        self.used += 1
        return entry

    def _exhausted(self, label: str) -> ChanceExhausted:
        return ChanceExhausted(f"the scenario ran out of scripted random results at {label!r}; "
                               f"add {{{label}: ...}} to random:")

    def _record(self, label: str, value: Any) -> Any:
        self.log.append(Scripted(label, value))
        return value

    def choice(self, label: str, options: Sequence[Any]) -> Any:
        """One result among `options` (a die roll, a card drawn from a known set)."""
        entry = self._scripted(label)
        if entry is not None:
            if entry.value not in options:
                shown = ", ".join(map(str, options))
                raise IllegalAction(f"scripted {label} {entry.value!r} is not possible here; possible: {shown}",
                                    [])
            return self._record(label, entry.value)
        rng = self._generator(label)
        if not options:
            raise IllegalAction(f"{label}: nothing to choose from")
        return self._record(label, rng.choice(list(options)))

    def sample(self, label: str, options: Sequence[Any], k: int) -> tuple[Any, ...]:
        """`k` different results among `options`, in order (cards dealt from a known set)."""
        entry = self._scripted(label)
        if entry is not None:
            value = tuple(entry.value) if isinstance(entry.value, (list, tuple)) else (entry.value,)
            pool = list(options)
            for item in value:
                if item not in pool:
                    raise IllegalAction(f"scripted {label} {list(value)} is not {k} different items of "
                                        f"{', '.join(map(str, options))}")
                pool.remove(item)
            if len(value) != k:
                raise IllegalAction(f"scripted {label} gives {len(value)} item(s); {k} are dealt")
        else:
            value = tuple(self._generator(label).sample(list(options), k))
        self._record(label, list(value))  # logged as a list: JSON-ready, as a scenario writes it
        return value

    def shuffle(self, label: str, items: Sequence[Any]) -> list[Any]:
        """A shuffled copy of `items` (a deck). A scripted shuffle gives the whole order, top first,
        and must be a rearrangement of exactly these items."""
        entry = self._scripted(label)
        if entry is not None:
            order = list(entry.value) if isinstance(entry.value, (list, tuple)) else [entry.value]
            if sorted(map(repr, order)) != sorted(map(repr, items)):
                raise IllegalAction(f"scripted {label} {order} is not an order of {list(items)}")
            return self._record(label, order)
        order = list(items)
        self._generator(label).shuffle(order)
        return self._record(label, order)

    @property
    def unused(self) -> list[Scripted]:
        return self.script[self.used:]


# --- events ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Event:
    """Something that happened while applying an action: `kind` plus JSON-ready details."""

    kind: str
    data: dict[str, Any] = field(default_factory=dict)

    def __init__(self, kind: str, data: dict[str, Any] | None = None) -> None:
        # Set at once, not through the frozen __setattr__: a simulated game makes millions of events.
        self.__dict__.update(kind=kind, data={} if data is None else data)

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, **self.data}


# --- the game type -----------------------------------------------------------------------------


@dataclass(frozen=True)
class GameType:
    """What kind of game this is, as the shared suite and the simulator need to know it."""

    name: str
    min_players: int
    max_players: int
    dynamics: Literal["sequential", "simultaneous"] = "sequential"
    chance: Literal["deterministic", "explicit"] = "explicit"
    information: Literal["perfect", "imperfect"] = "perfect"
    utility: Literal["solo", "competitive", "cooperative"] = "competitive"
    max_actions: int = 5000  # a whole game ends within this many actions, whatever is played


@dataclass(frozen=True)
class Setting:
    """One whole-game configuration the simulator plays (a difficulty, a player count)."""

    label: str
    options: Mapping[str, Any]


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
        rest = ", ".join(f"{k.replace('_', ' ')} {_named(content, v)}" for k, v in data.items())
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
            return f"{label}, in order: {_named(content, value)}"
        return f"{label}: {_named(content, value)}"

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

    def legal_data(self, state: Any, player: str | None = None) -> list[dict[str, Any]]:
        """The legal actions as plain mappings, in the form a scenario writes them."""
        return [to_data(a) for a in self.legal_actions(state, player)]


def _named(content: GameContent | None, value: Any) -> str:
    """A value as words, each face or component id replaced by its printed name."""
    if isinstance(value, (list, tuple)):
        return ", ".join(_named(content, v) for v in value)
    return content.name(value) if content is not None and isinstance(value, str) else str(value)


def _error(doc: Doc | None, path: KeyPath, message: str) -> Exception:
    return doc.error(path, message) if doc is not None else SetupError(path, message)


def _convert(tp: type, data: Any, doc: Doc | None, path: KeyPath) -> Any:
    """Convert with the content schema; without a document, errors become SetupErrors (same key path)."""
    if doc is not None:
        return convert(doc, tp, path, data)
    try:
        return convert(Doc("<setup>", data, {}), tp, (), data)
    except ContentError as exc:
        raise SetupError(exc.keypath, exc.message) from None


# --- the game's content, as engines read it ----------------------------------------------------


@dataclass(frozen=True)
class FaceFacts:
    """One face of a component, with its count and the typed facts its engine declared. The printed
    sides come along for facts that are drawn (a road tile's map of spaces), so the engine reads
    the very data the print kit draws instead of a copy."""

    component: str
    id: str
    title: str
    count: int
    facts: Any
    front: Side | None = None
    back: Side | None = None


@dataclass(frozen=True)
class GameContent:
    """What an engine sees of its game's content: faces with typed facts, by component id."""

    game: str
    components: Mapping[str, tuple[FaceFacts, ...]]
    names: Mapping[str, str] = field(default_factory=dict)  # every face id -> its title, component id -> name

    def name(self, key: str) -> str:
        """What players read for an id: the face's printed title or the component's name (else `key`)."""
        return self.names.get(key, key)

    def faces(self, component: str) -> tuple[FaceFacts, ...]:
        if component not in self.components:
            raise KeyError(f"{self.game} has no component {component!r} with engine facts")
        return self.components[component]

    def face(self, component: str, face_id: str) -> FaceFacts:
        for f in self.faces(component):
            if f.id == face_id:
                return f
        raise KeyError(f"{self.game}: component {component!r} has no face {face_id!r}")


# What an engine may read of a printed side: its name and its art, where drawn facts live (a road
# tile's map of spaces). Text and layout are the printer's: leaving them out means an edit to card
# text cannot change play, so whole-game figures are not replayed for it (the build keys them on
# the GameContent).
DRAWN = ("title", "provenance", "art")


def drawn(side: Side | None) -> Side | None:
    if side is None:
        return None
    kept = {f.name: getattr(side, f.name) for f in dataclass_fields(side)
            if f.name in DRAWN or (f.default is MISSING and f.default_factory is MISSING)}
    return Side(**kept)


def game_content(game: LoadedGame, engine: Engine) -> GameContent:
    """Convert every face's `facts:` with the engine's declared spec; mistakes are located errors."""
    by_component: dict[str, tuple[FaceFacts, ...]] = {}
    for comp in game.components:
        spec = engine.facts_specs.get(comp.id)
        doc = game.docs.get(comp.id)
        faces = []
        for fi, face in enumerate(comp.faces):
            where = ("faces", fi, "facts")
            if spec is None:
                if face.facts is not None and doc is not None:
                    raise doc.error(where, f"the {game.game.engine} engine reads no facts from {comp.id}; "
                                    "remove the key")
                continue
            if face.facts is None or doc is None:
                raise ContentError(game.component_files.get(comp.id, game.dir), 1, 1, ("faces", fi),
                                   f"the {game.game.engine} engine reads facts: from every face of {comp.id}")
            facts = convert(doc, spec, where, _raw(doc, where))
            faces.append(FaceFacts(comp.id, face.id, face.front.title, face.count, facts, drawn(face.front),
                                   drawn(face.back or comp.back)))
        if spec is not None:
            by_component[comp.id] = tuple(faces)
    missing = sorted(set(engine.facts_specs) - set(by_component))
    if missing:
        raise ContentError(f"{game.dir}/game.yaml", 1, 1, ("engine",),
                           f"the {game.game.engine} engine reads facts from component(s) {', '.join(missing)}, "
                           "which this game does not have")
    return GameContent(game.id, by_component, printed_names(game))


def printed_names(game: LoadedGame) -> dict[str, str]:
    """Every face id with the title printed on its front, and every component id with its name; a
    face id two components share keeps the first title."""
    names: dict[str, str] = {}
    for comp in game.components:
        names.setdefault(comp.id, comp.name)
        for face in comp.faces:
            names.setdefault(face.id, face.front.title)
    return names


def _raw(doc: Doc, path: KeyPath) -> Any:
    value = doc.data
    for part in path:
        value = value[part]
    return value


def load_engine(name: str) -> Engine:
    """The `GAME` of module generators.engine.<name>, checked to be an Engine."""
    module = importlib.import_module(f"generators.engine.{name}")
    game = module.__dict__.get("GAME")
    if not isinstance(game, Engine):
        raise TypeError(f"generators.engine.{name} defines no GAME = <Engine subclass>()")
    return game


def field_names(spec: type) -> tuple[str, ...]:
    return tuple(f.name for f in fields_of(spec))
