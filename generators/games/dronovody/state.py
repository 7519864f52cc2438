"""Дроноводи: the state. Each player's board and cards; the shared Trench, Drone Shop, field, decks
and discard piles; the turn in play. Records (`generators.rules.records.Record`): an action copies the
state once (`State.changed`, written out) and changes only its copy, so `apply` never touches the state
it is given (the shared suite checks it by pickling)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from generators.games.dronovody.facts import DECKS, ROUNDS, Catalogue
from generators.rules.chance import Chance
from generators.rules.records import Record


@dataclass
class Deck(Record):
    """A face-down deck: a known top (in order), an unknown middle (drawn by chance), a known bottom."""

    top: list[str] = field(default_factory=list)
    pool: tuple[str, ...] = ()  # sorted, as its order is unknown; a tuple, so state copies share it
    bottom: list[str] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.top) + len(self.pool) + len(self.bottom)

    def draw(self, label: str, chance: Chance, k: int = 1, allowed: Iterable[str] | None = None) -> list[str]:
        """Up to `k` cards: the known top first, then the middle by chance, then the bottom. `allowed`
        limits a draw from the middle to some cards (the rest stay, as if shuffled back)."""
        out: list[str] = []
        while len(out) < k and self.top:
            out.append(self.top.pop(0))
        pool = self.pool if allowed is None else [c for c in self.pool if c in allowed]
        need = min(k - len(out), len(pool))
        if need:
            # Copies of one card are all alike: taking them asks nothing of chance.
            got = list(pool[:need]) if pool.count(pool[0]) == len(pool) else chance.sample(label, pool, need)
            rest = list(self.pool)
            for card in got:
                rest.remove(card)
            self.pool = tuple(rest)
            out += got
        while len(out) < k and self.bottom and allowed is None:
            out.append(self.bottom.pop(0))
        return out

    def take(self, card: str) -> str:
        """A known card out of the middle (a starting card sorted out before the shuffle)."""
        rest = list(self.pool)
        rest.remove(card)
        self.pool = tuple(rest)
        return card

    def shuffle_in(self, cards: Iterable[str]) -> None:
        self.pool = tuple(sorted([*self.pool, *cards]))


@dataclass
class Drone(Record):
    card: str
    broken: bool = False

    def label(self) -> str:
        return f"{self.card} (broken)" if self.broken else self.card


@dataclass
class Project(Record):
    card: str
    active: bool = False
    used: bool = False  # face down: its once-per-round Effect is spent

    def label(self) -> str:
        return f"{self.card} (face down)" if self.used else self.card


@dataclass
class Player(Record):
    name: str
    logistics: int
    crew: list[str] = field(default_factory=list)
    hq: list[str] = field(default_factory=list)
    warehouse: list[Drone] = field(default_factory=list)
    hand: list[str] = field(default_factory=list)
    projects: list[Project] = field(default_factory=list)
    defence: list[str] = field(default_factory=list)
    trophies: list[str] = field(default_factory=list)
    wounded: list[str] = field(default_factory=list)
    used: list[str] = field(default_factory=list)  # Characters face down for the round
    exchanged: bool = False
    dealt: list[str] = field(default_factory=list)  # deal phase: cards to choose from (a draft packet)
    picked: bool = False  # ISTAR: picked from this packet already

    @property
    def board(self) -> list[str]:
        return [*self.crew, *self.hq]

    def changed(self) -> Player:
        new = self.copy()  # every list copied, written out: this runs for each action played
        new.crew, new.hq, new.hand, new.defence = self.crew[:], self.hq[:], self.hand[:], self.defence[:]
        new.trophies, new.wounded, new.used, new.dealt = self.trophies[:], self.wounded[:], self.used[:], self.dealt[:]
        # Drones and Projects are never changed in place (`replace_in`), so the copies share them.
        new.warehouse, new.projects = self.warehouse[:], self.projects[:]
        return new


R = TypeVar("R", bound=Record)


def replace_in(items: list[R], old: R, **changes: Any) -> R:
    """`old` (that very record, not one equal to it) replaced in `items` by a copy with `changes`:
    a board's drones and Projects are shared by the states copied from it, so none changes in place."""
    for i, x in enumerate(items):
        if x is old:
            new = items[i] = old.evolve(**changes)
            return new
    raise ValueError(f"{old!r} is not in the list")


@dataclass
class Sortie(Record):
    drone: str
    attacks: int
    drone_attacks: int
    made: int = 0


@dataclass
class Turn(Record):
    player: str
    step: Literal["support", "action", "done"] = "support"
    mode: Literal["recruit", "move", "buy", "sortie"] | None = None
    bonus: list[str] = field(default_factory=list)
    actions: int = 1
    sortied: bool = False
    moved: list[str] = field(default_factory=list)
    recruit: list[str] = field(default_factory=list)
    sortie: Sortie | None = None


@dataclass(frozen=True)
class Pending:
    """A hit the player must place: a Crew Character to wound, a drone to lose or to break."""

    player: str
    kind: Literal["wound", "lose-drone", "lose-wing", "break-drone"]
    source: str


@dataclass(frozen=True)
class Start:
    """Setup choices the Operations Duty Officer applies: the first game, Random Start."""

    first_game: bool = False
    random_start: bool = False


@dataclass(frozen=True)
class Rules:
    rounds: int = ROUNDS
    fog_of_war: bool = False
    horde: bool = False
    istar: bool = False


@dataclass(eq=False)
class State(Record):
    cat: Catalogue
    rules: Rules
    seats: list[str]
    players: dict[str, Player]
    odo: str
    trench: list[str]
    round: int = 1
    phase: Literal["setup", "deal", "management", "threat", "over"] = "management"
    turn: Turn | None = None
    shop: list[str] = field(default_factory=list)
    battlefield: list[str] = field(default_factory=list)  # the field: enemies in play
    decks: dict[str, Deck] = field(default_factory=lambda: {d: Deck() for d in DECKS})
    discards: dict[str, list[str]] = field(default_factory=lambda: {"drones": [], "support": [], "threats": []})
    out_of_game: list[str] = field(default_factory=list)
    rolled: list[str] = field(default_factory=list)
    threats_placed: bool = False
    recovering: bool = False  # the Recovery phase's deal: the ending round's, before its last steps
    pending: list[Pending] = field(default_factory=list)
    result: Literal["won", "lost"] | None = None
    how: str | None = None
    start: Start = Start()
    hits: int = 0  # enemies taken as trophies this game (kept or exchanged): a whole-game figure

    def p(self, name: str) -> Player:
        """A player's board. In an action's draft (`changed`), the player is copied the first time it
        is asked for, so an action copies only the players it touches (every change goes through here)."""
        owned = self.__dict__.get("_own")
        if owned is None or name in owned:
            return self.players[name]
        owned.add(name)
        player = self.players[name] = self.players[name].changed()
        return player

    def deck(self, name: str) -> Deck:
        """A deck to draw from or put under; in a draft, copied the first time it is asked for (as `p`)."""
        owned = self.__dict__.get("_own")
        key = ("deck", name)  # apart from player names (a scenario may name a player anything)
        if owned is None or key in owned:
            return self.decks[name]
        owned.add(key)
        d = self.decks[name]
        new = self.decks[name] = d.copy()
        new.top, new.bottom = d.top[:], d.bottom[:]
        return new

    def changed(self) -> State:
        """The draft one action changes: the shared parts copied, written out (no generic copy), as it
        runs for every action a simulation or a look-ahead plays; each player's board is copied when
        `p` first asks for it. `settled` ends the draft. Facts, tuples and the seats are shared."""
        new = self.copy()
        new.players = dict(self.players)
        new.__dict__["_own"] = set()
        new.trench, new.shop, new.battlefield = self.trench[:], self.shop[:], self.battlefield[:]
        new.rolled, new.pending = self.rolled[:], self.pending[:]
        new.decks = dict(self.decks)  # each deck copied when `deck` first asks for it
        new.discards = {k: v[:] for k, v in self.discards.items()}
        if self.turn is not None:
            t = new.turn = self.turn.copy()
            t.bonus, t.moved, t.recruit = t.bonus[:], t.moved[:], t.recruit[:]
            t.sortie = t.sortie.copy() if t.sortie is not None else None
        return new

    def settled(self) -> State:
        """The draft, done: nothing of the draft's bookkeeping stays in the state."""
        del self.__dict__["_own"]
        return self


