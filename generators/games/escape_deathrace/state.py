"""Escape Deathrace 2182 Micro: the state records.

Tiles and drops on the road are frozen and shared by every state; a state's other parts are records
(`Record.copy`: one dictionary copy) and plain lists and dicts, copied once per action by `copied`.
What follows from the layout of tiles alone (road distances, open road ends) is kept in `Roads`, shared
by every state with that layout: derived data, never part of a state's value.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from generators.games.escape_deathrace.facts import BOSS_KINDS, Abilities, Box
from generators.rules.records import Record


class Roads:
    """What one layout of tiles implies (distances from an origin, open spots, open road ends), filled in
    as the rules ask. States with the same tiles share one; laying a tile makes a new one. It is derived
    data: it pickles empty and compares equal, so a state's value (and the purity check) never sees it."""

    __slots__ = ("base", "joined", "laid", "memo")

    def __init__(self, base: dict[Any, Any] | None = None, laid: Tile | None = None,
                 joined: str | None = None) -> None:
        self.memo: dict[Any, Any] = {}
        # The layout one tile ago and the tile laid since: what is asked again is grown from what that
        # layout knew, on demand (open road ends, boss tiles; distances when the new tile joins only
        # `joined`, a dead end of the road, so no path gets shorter).
        self.base = base
        self.laid = laid
        self.joined = joined

    def __reduce__(self) -> tuple[type, tuple[()]]:
        return (Roads, ())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Roads)

    def __hash__(self) -> int:
        return 0



@dataclass(frozen=True)
class Tile:
    id: str
    kind: str  # start, straight, hazard, event, fire, nitro-nos, boss, final-boss
    face: str  # the road tile face (a boss tile's face id is its boss)
    x: int
    y: int
    exits: str  # sides in NESW order
    arrow: str | None = None  # nitro-nos: the direction of the rainbow arrows

    @property
    def boss(self) -> str | None:
        return self.face if self.kind in BOSS_KINDS else None

    @property
    def label(self) -> str:
        """The tile's kind as outcomes name it: a boss tile by its boss."""
        return self.face if self.kind in BOSS_KINDS else self.kind


@dataclass(frozen=True)
class BoardDrop:
    kind: str
    tile: str
    owner: str
    on: tuple[str, ...] = ()  # a landmine dropped on these cars' location


@dataclass
class Player(Record):
    name: str
    character: str
    abilities: Abilities
    hp: int
    tile: str | None
    drops: dict[str, int]
    power: list[str]
    hazard_side: str | None = None  # on a hazard tile: the side the car is on
    alive: bool = True
    last_moved: tuple[str, ...] = ()  # tiles moved onto or over in the player's previous turn
    damage: int = 0  # HP lost so far (a whole game's figure)


@dataclass
class Turn(Record):
    player: str
    phase: str = "start"  # draft | start | drawn | moved | boss-pending | boss | over
    touched: list[str] = field(default_factory=list)  # this turn: the start tile and every tile entered
    moved_over: list[str] = field(default_factory=list)  # this turn: every tile entered
    allowance: int = 0  # spaces for the drive now open
    lay_allowance: int = 0
    laid: int = 0
    tile_in_hand: str | None = None
    drop_used: bool = False
    power_used: bool = False
    strikes_left: int = 0  # D4 strikes left in the boss battle sequence
    hazard_tried: bool = False
    nitro_open: bool = False
    extra_move: str | None = None  # a card's movement is open (drive next): "event" or "power"
    choosing_target: bool = False  # a third or fourth arrival must target a car
    events_seen: list[str] = field(default_factory=list)  # event cards drawn this turn


@dataclass
class Battle(Record):
    """A battle-it-out in progress between three or more cars: who strikes next, and how often."""

    tile: str
    fighters: list[str]
    queue: list[tuple[str, str, int]]  # (fighter, context, strikes left)
    then_event: bool


@dataclass
class State(Record):
    box: Box
    tiles: dict[str, Tile]
    spots: dict[tuple[int, int], str]
    players: dict[str, Player]
    order: list[str]
    turn: Turn
    boss_hp: dict[str, int]
    stack: list[str]  # face-down road tiles (face ids), top first; or the unordered pool
    stack_known: bool
    board: list[BoardDrop]
    graveyard: dict[str, int]
    power_deck: list[str]  # top first; or the unordered pool (power_known False)
    power_discard: list[str]
    event_deck: list[str]  # top first; or the unordered pool (events_known False)
    event_discard: list[str]
    rules: dict[str, Any]
    power_known: bool = True
    events_known: bool = True
    event_active: str | None = None
    events_owed: int = 0
    events_drawn: int = 0
    rewards: list[tuple[str, str]] = field(default_factory=list)  # ("power" | "drop", player), in order
    battle: Battle | None = None
    final_arrivals: list[str] = field(default_factory=list)
    shielded: list[str] = field(default_factory=list)
    winner: str | None = None
    ended: str | None = None  # escaped | all-eliminated | portal-closed
    round: int = 1
    laid_count: int = 0
    draft: list[str] = field(default_factory=list)  # who picks the next weapon drops, in order
    roads: Roads = field(default_factory=Roads, compare=False, repr=False)  # see Roads


def copied(s: State) -> State:
    """A copy deep enough for an action to change freely: the cars and the turn are copied; tiles, drops on
    the road and the box are immutable, and the state's other mappings and lists are replaced whole when
    they change (a tile laid, a card drawn, a drop placed), so they are shared."""
    new = s.copy()
    players = new.players = {}
    for n, p in s.players.items():  # each car: its record, drops and power cards (every action copies them)
        q = players[n] = object.__new__(Player)
        d = q.__dict__ = p.__dict__.copy()
        d["drops"], d["power"] = dict(p.drops), list(p.power)
    new.turn = s.turn.copy()  # its lists are shared: the rules replace them whole when they grow
    # The boss tracker, graveyard, piles, drops on the road, rewards owed, arrivals, smoke and picks are
    # shared: the rules replace them whole when they change (see harm.without), never change them in place.
    if s.battle is not None:
        b = new.battle = s.battle.copy()
        b.fighters, b.queue = list(b.fighters), list(b.queue)
    return new
