"""Дроноводи (Drone Operators): an executable model of the rulebook (`rulebooks/dronovody.txt` only).

A cooperative card game for 1-4 players. Every card's numbers (costs, attacks, to-hit values, threat
distances, activation values, Project requirements) are read from the content faces' `facts:` through
`facts_specs`; the rulebook's own numbers (Logistics starts at 3, a Warehouse of 3, trophy exchange 1 or
2, 3 Characters and 3 enemies per player, 4 wounded, 4 rounds, 3 Projects per player) are constants
here. Where the rulebook is silent the engine's reading is a ruling in content/dronovody/notes.yaml,
marked `# ruling: <id>` where the code applies it.

State
    Each player: Logistics, Warehouse (drones, some broken), Crew, HQ, hand, Projects (open or
    activated; an activated one may be face down for the round), Defence cards, trophies, wounded,
    Characters whose once-per-round Effect is spent. Shared: the Trench (face down, top first), the
    Drone Shop, the field (first line = distance 1, second line = distance 2), four decks and three
    discard piles (Characters go to the bottom of their deck), the Operations Duty Officer.

Decks
    A deck is a known top (in order), an unknown middle drawn through `Chance` (a shuffled deck), and
    a known bottom (cards put under it). `new_game` puts every card in the middle, so each draw is a
    labelled chance result: `{character draw: engineer}`, `{drone draw: fury}`, `{support deal: [...]}`,
    `{threat draw: [...]}`; a scenario's `decks:` gives a known top instead.

Setup (`setup:` of a scenario; card ids are the content faces' ids)
    players: [{name, logistics: 3, crew: [...], hq: [...], warehouse: [mavic, {card: x, broken: true}],
               hand: [...], projects: [ai-module, {card: delta, active: true, used: false}],
               defence: [...], trophies: [...], wounded: [...], used: [...], exchanged: false,
               dealt: [...]}]                      # seat order, clockwise (the next seat is on the left)
    trench: [...]                                  # top first; must not be empty
    odo: name                                      # Operations Duty Officer (default: the first seat)
    round: 1;  phase: deal | management | threat;  turn: name;  step: support | action | done
    bonus: [...]                                   # Bonus cards the player in turn played this turn
    shop: [...];  field: [...];  rolled: [...];  threats_placed: false
    decks: {characters: [...], drones: [...], support: [...], threats: [...]}   # known tops
    discards: {drones: [...], support: [...], threats: [...]};  out_of_game: [...]
    rules: {extended_rotation, rounds, fog_of_war, horde, istar}
    cards: {mavic: {to_hit: 5}}                    # play a card's printed values instead of the kit's house ones
    start: {first_game, random_start}              # with phase: setup (only names, odo, rules and cards besides)
    Cards not placed anywhere are in the middle of their deck.

Actions (`player` defaults to the one who must act when only one may)
    Management, the player in turn:  {do: play_support, card, target?, character?, to?}
        {do: discard_support, card}  then one Action: {do: recruit} -> {do: place, card, to: crew|hq|trench};
        {do: move, card, to} ... {do: end_move};  {do: evacuate, card};  {do: buy} -> {do: take_drone, card,
        discard?} | {do: decline};  {do: sortie, drone} -> {do: attack, target, guaranteed?} ... {do: end_sortie}
        then {do: extra_action} (Commander) or {do: end_turn}.
    Free actions, whenever the player may act (own turn; Threat phase before their roll):
        {do: exchange_trophy, card};  {do: activate_project, card};  {do: evacuate_effect, source, card};
        {do: repair, source, drone}.
    Threat phase: {do: defend} (everyone, simultaneous);  {do: choose, card} (a hit on the Crew or on
        drones that the player places).  Deal (setup, Recovery): {do: discard_support, card} or, with
        ISTAR, {do: draft, card}.

Outcome keys: see `outcome`.

Exact odds: `odds()` enumerates the D6 through `attack_hits`, `breaks_down`, `artillery_hits` and
`activates`, the functions the engine resolves rolls with.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, ClassVar, Literal

from generators.content.schema import convert, to_data
from generators.content.yaml_io import Doc
from generators.engine import svg as draw
from generators.engine.base import (
    Chance,
    Engine,
    Event,
    GameContent,
    GameType,
    IllegalAction,
    Setting,
    SetupError,
)
from generators.errors import ContentError, KeyPath

# ---------------------------------------------------------------------------------------------
# Printed numbers (rulebook)

D6 = (1, 2, 3, 4, 5, 6)
MAX_PLAYERS = 4
TRENCH_PER_PLAYER = 3  # Setup 2: 3 Characters per player face down on the Defeat card
FIELD_PER_PLAYER = 3  # Setup 2: 3 distance-1 enemies per player
SHOP_START = 3  # Setup 2: 3 Drone cards face up
DEAL = 5  # Setup 1 and Recovery: draw 5, discard 1
THREATS_PER_PLAYER = 3  # Threat phase (Horde: 4)
HORDE_PER_PLAYER = 4
ROUNDS = 4  # Rotation (Extended Rotation: 6)
EXTENDED_ROUNDS = 6
PROJECTS_PER_PLAYER = 3  # Technologies
WOUNDED_LIMIT = 4  # 4 wounded Characters for one player: everyone loses
WOUND_POINTS = -3  # per unevacuated wounded Character
RECRUIT_DRAW = 2  # Recruiting: take 2 (Psychologist in the HQ: 4)
DRONE_TYPES = ("fpv", "mavic", "wing", "multirotor")
DroneType = Literal["fpv", "mavic", "wing", "multirotor"]
PLACES = ("crew", "hq")


# ---------------------------------------------------------------------------------------------
# Card facts (content faces' `facts:`)


@dataclass(frozen=True)
class BoardFacts:
    """The player board: where the Logistics marker starts, how far the track runs, Warehouse spaces."""

    logistics_start: int = field(metadata={"doc": "the Logistics track space the marker starts on", "min": 0})
    logistics_max: int = field(metadata={"doc": "the last space of the Logistics track", "min": 1})
    warehouse: int = field(metadata={"doc": "drone spaces in the Warehouse", "min": 1})


@dataclass(frozen=True)
class CharacterFacts:
    """What a Character does: the top half applies in the Crew, the bottom half in the HQ."""

    pilots: tuple[DroneType, ...] = field(default=(), metadata={
        "doc": "drone types this Pilot flies from the Crew (any Pilot also flies the Mavic)"})
    attack_bonus: int = field(default=0, metadata={"doc": "Crew: added to drone attacks (of bonus_type)"})
    bonus_type: DroneType | None = field(default=None, metadata={"doc": "the drone type attack_bonus applies to"})
    crew_ammunition: bool = field(default=False, metadata={"doc": "Crew: gives Ammunition"})
    crew_evacuation: bool = field(default=False, metadata={
        "doc": "Crew: allows Evacuation as an Action, and once per round as an Effect"})
    crew_logistics_per_hit: int = field(default=0, metadata={"doc": "Crew: Logistics for each drone hit"})
    crew_artillery_correction: bool = field(default=False, metadata={"doc": "Crew: re-roll a missed Artillery roll"})
    hq_repair: bool = field(default=False, metadata={"doc": "HQ: once per round, repair a drone"})
    hq_recruit_choice: int = field(default=RECRUIT_DRAW, metadata={
        "doc": "HQ: Characters drawn when Recruiting", "min": 1})
    hq_trophy_bonus: int = field(default=0, metadata={"doc": "HQ: extra Logistics per trophy exchanged"})
    hq_extra_action: bool = field(default=False, metadata={"doc": "HQ: one extra Action in the player's turn"})
    once_per_round: bool = field(default=False, metadata={
        "doc": "its Effect (evacuation, repair, extra Action) turns it face down until Recovery"})

    def check(self) -> tuple[str, str] | None:
        if self.hq_extra_action and not self.once_per_round:
            return "once_per_round", "an extra Action must be once per round, or a turn would never end"
        if self.attack_bonus and not self.pilots:
            return "attack_bonus", "only a Pilot gives an attack bonus"
        return None


@dataclass(frozen=True)
class DroneFacts:
    """A Drone card: type, cost, attacks per sortie, resources, to-hit value, red-die breakdown."""

    type: DroneType = field(metadata={"doc": "fpv, mavic, wing or multirotor: flying it needs a Pilot of this type "
                                      "in the Crew (any Pilot flies the Mavic)"})
    cost: int = field(metadata={"doc": "Logistics to buy it", "min": 0})
    attacks: int = field(default=0, metadata={"doc": "attacks on ground targets per sortie", "min": 0, "max": 3})
    drone_attacks: int = field(default=0, metadata={"doc": "attacks on enemy drones per sortie", "min": 0})
    reach: int = field(default=1, metadata={"doc": "the farthest distance it attacks", "min": 1, "max": 2})
    to_hit: int | None = field(default=None, metadata={"doc": "the total an attack needs", "min": 1, "max": 7})
    breakdown: int | None = field(default=None, metadata={"doc": "red-die value: rolling it breaks the drone"})
    kamikaze: bool = field(default=False, metadata={"doc": "discarded after its sortie; needs no Reconnaissance"})
    ammunition: bool = field(default=False, metadata={"doc": "needs Ammunition to attack"})
    recon: int = field(default=0, metadata={"doc": "gives Reconnaissance up to this distance", "min": 0, "max": 2})
    artillery_correction: bool = field(default=False, metadata={"doc": "re-roll a missed Artillery roll"})

    def check(self) -> tuple[str, str] | None:
        if (self.attacks or self.drone_attacks) and self.to_hit is None:
            return "to_hit", "a drone that attacks needs a to-hit value"
        if self.kamikaze and self.breakdown is not None:
            return "breakdown", "a kamikaze drone is discarded after its sortie; it has no breakdown value"
        return None


SupportType = Literal["project", "bonus", "artillery", "defence"]
Effect = Literal["guaranteed-hit", "reconnaissance", "evacuation", "repair", "ammunition", "attack-bonus",
                 "trophy-bonus", "logistics", "transfer", "counter-battery", "bunker", "ew", "strike"]
EFFECTS_BY_TYPE: dict[str, tuple[str, ...]] = {
    "project": ("guaranteed-hit", "reconnaissance", "evacuation", "repair", "ammunition", "attack-bonus",
                "trophy-bonus"),
    "bonus": ("ammunition", "reconnaissance", "logistics", "transfer", "counter-battery"),
    "artillery": ("strike",),
    "defence": ("bunker", "ew"),
}


@dataclass(frozen=True)
class SupportFacts:
    """A Support card: Project, Bonus, Artillery or Defence, its cost and its effect."""

    type: SupportType = field(metadata={
        "doc": "project (stays beside the board; activated to use), bonus (for this turn), artillery (an attack, "
               "then discarded) or defence (in play until the Recovery phase)"})
    cost: int = field(metadata={"doc": "Logistics to play it", "min": 0})
    effect: Effect = field(metadata={
        "doc": "what it does, one of its type's effects: project: guaranteed-hit, reconnaissance, evacuation, "
               "repair, ammunition, attack-bonus, trophy-bonus; bonus: ammunition, reconnaissance, logistics, "
               "transfer (a Character out of the Trench), counter-battery; artillery: strike; defence: bunker "
               "(cancels hits on the Crew), ew (cancels enemy drones and hits on drones)"})
    value: int = field(default=0, metadata={"doc": "the effect's number (distance, Logistics, bonus)"})
    requires: tuple[str, ...] = field(default=(), metadata={"doc": "Project: Characters discarded to activate it"})
    once_per_round: bool = field(default=False, metadata={"doc": "its Effect turns it face down until Recovery"})
    distance: int = field(default=0, metadata={"doc": "Artillery: the farthest target distance", "min": 0})
    to_hit: int = field(default=0, metadata={"doc": "Artillery: the die result it needs", "min": 0, "max": 6})

    def check(self) -> tuple[str, str] | None:
        if self.effect not in EFFECTS_BY_TYPE[self.type]:
            return "effect", f"a {self.type} card's effect is one of {', '.join(EFFECTS_BY_TYPE[self.type])}"
        if self.type == "project" and not self.requires:
            return "requires", "a Project shows the Characters discarded to activate it"
        if self.type == "artillery" and not (self.distance and self.to_hit):
            return "distance", "an Artillery card has a distance and a to-hit value"
        return None


@dataclass(frozen=True)
class ThreatFacts:
    """A Threat card: an enemy (ground or drone) with distance, trophy and activation values, or a Mishap."""

    kind: Literal["enemy", "drone", "mishap"] = field(metadata={
        "doc": "enemy (a ground target on the field), drone (an enemy drone on the field) or mishap (dealt to a "
               "player, resolved at once and discarded)"})
    distance: int = field(default=0, metadata={"doc": "1 (first line) or 2 (second line)", "min": 0, "max": 2})
    trophy: int = field(default=0, metadata={"doc": "the number on the trophy flag", "min": 0, "max": 4})
    activation: int = field(default=0, metadata={"doc": "the defence roll that activates it", "min": 0, "max": 6})
    trench: int = field(default=0, metadata={"doc": "Characters hit in the Trench", "min": 0})
    crew: int = field(default=0, metadata={"doc": "Characters hit in the Crew", "min": 0})
    drones: int = field(default=0, metadata={"doc": "drones shot down", "min": 0})
    wing: int = field(default=0, metadata={"doc": "Wing-type drones shot down", "min": 0})
    affects: Literal["one", "all"] = field(default="one", metadata={
        "doc": "one: the player whose roll activated it; all: every player"})
    armour: int = field(default=0, metadata={"doc": "modifier to drone attacks on this card", "max": 0})
    jamming: int = field(default=0, metadata={"doc": "modifier to every drone attack while on the field", "max": 0})
    artillery_jamming: int = field(default=0, metadata={
        "doc": "modifier to every Artillery roll while on the field", "max": 0})
    artillery: bool = field(default=False, metadata={"doc": "an Artillery, MLRS or TOS (counter-battery target)"})
    red_triangle: bool = field(default=False, metadata={"doc": "a permanent effect; left out of the first game"})
    logistics: int = field(default=0, metadata={"doc": "Logistics lost (negative) when activated or dealt", "max": 0})
    break_drones: int = field(default=0, metadata={"doc": "working drones that break down", "min": 0})

    def check(self) -> tuple[str, str] | None:
        if self.kind != "mishap" and not (self.distance and self.activation and self.trophy):
            return "distance", "an enemy card has a distance, an activation value and a trophy value"
        if self.red_triangle != bool(self.jamming or self.artillery_jamming):
            return "red_triangle", "the red triangle marks exactly the cards with a permanent effect"
        return None


# ---------------------------------------------------------------------------------------------
# The catalogue: every card's facts, read once from content


@dataclass(frozen=True, eq=False)
class Catalogue:
    """All card facts and titles by face id, with the number of copies; immutable, shared by states."""

    board: BoardFacts
    characters: Mapping[str, CharacterFacts]
    drones: Mapping[str, DroneFacts]
    support: Mapping[str, SupportFacts]
    threats: Mapping[str, ThreatFacts]
    counts: Mapping[str, int]
    titles: Mapping[str, str]

    def __deepcopy__(self, memo: dict[int, Any]) -> Catalogue:
        return self  # immutable: every state copy shares it

    def __eq__(self, other: object) -> bool:
        return self is other  # one catalogue per game or scenario, shared by every state copy

    def __hash__(self) -> int:
        return id(self)

    def title(self, card: str) -> str:
        return self.titles.get(card, card)

    def deck_of(self, card: str) -> str:
        for name, table in (("characters", self.characters), ("drones", self.drones), ("support", self.support),
                            ("threats", self.threats)):
            if card in table:
                return name
        raise KeyError(card)


DECKS = ("characters", "drones", "support", "threats")
COMPONENTS = {"characters": "character-cards", "drones": "drone-cards", "support": "support-cards",
              "threats": "threat-cards"}


def catalogue(content: GameContent) -> Catalogue:
    tables: dict[str, dict[str, Any]] = {}
    counts: dict[str, int] = {}
    titles: dict[str, str] = {}
    for deck, comp in COMPONENTS.items():
        tables[deck] = {}
        for f in content.faces(comp):
            tables[deck][f.id] = f.facts
            counts[f.id] = f.count
            titles[f.id] = f.title
    [board] = content.faces("player-boards")
    return Catalogue(board.facts, tables["characters"], tables["drones"], tables["support"], tables["threats"],
                     counts, titles)


# ---------------------------------------------------------------------------------------------
# State


@dataclass
class Deck:
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
        pool = [c for c in self.pool if allowed is None or c in allowed]
        need = min(k - len(out), len(pool))
        if need:
            # Copies of one card are all alike: taking them asks nothing of chance.
            got = pool[:need] if len(set(pool)) == 1 else chance.sample(label, pool, need)
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
class Drone:
    card: str
    broken: bool = False

    def label(self) -> str:
        return f"{self.card} (broken)" if self.broken else self.card


@dataclass
class Project:
    card: str
    active: bool = False
    used: bool = False  # face down: its once-per-round Effect is spent

    def label(self) -> str:
        return f"{self.card} (face down)" if self.used else self.card


@dataclass
class Player:
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


@dataclass
class Sortie:
    drone: str
    attacks: int
    drone_attacks: int
    made: int = 0


@dataclass
class Turn:
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


@dataclass
class State:
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
    pending: list[Pending] = field(default_factory=list)
    result: Literal["won", "lost"] | None = None
    how: str | None = None
    start: Start = Start()
    hits: int = 0  # enemies taken as trophies this game (kept or exchanged): a whole-game figure

    def p(self, name: str) -> Player:
        return self.players[name]

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        """A deep copy, written out: states are copied for every action tried, so this is hot."""
        new = _shallow(self)
        new.__dict__.pop("_legal", None)  # the copy is made to be changed
        new.seats = self.seats[:]
        new.players = {n: _copy_player(p) for n, p in self.players.items()}
        new.trench, new.shop, new.battlefield = self.trench[:], self.shop[:], self.battlefield[:]
        new.out_of_game, new.rolled, new.pending = self.out_of_game[:], self.rolled[:], self.pending[:]
        new.decks = {k: Deck(d.top[:], d.pool, d.bottom[:]) for k, d in self.decks.items()}
        new.discards = {k: v[:] for k, v in self.discards.items()}
        if self.turn is not None:
            t = new.turn = _shallow(self.turn)
            t.bonus, t.moved, t.recruit = self.turn.bonus[:], self.turn.moved[:], self.turn.recruit[:]
            t.sortie = _shallow(self.turn.sortie) if self.turn.sortie is not None else None
        return new


def _shallow(obj: Any) -> Any:
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    return new


def _copy_player(p: Player) -> Player:
    new = _shallow(p)  # every list copied, written out (no loop over names): this runs for each action tried
    new.crew, new.hq, new.hand, new.defence = p.crew[:], p.hq[:], p.hand[:], p.defence[:]
    new.trophies, new.wounded, new.used, new.dealt = p.trophies[:], p.wounded[:], p.used[:], p.dealt[:]
    new.warehouse = [_shallow(d) for d in p.warehouse]
    new.projects = [_shallow(pr) for pr in p.projects]
    return new


def _as_player(action: Any, player: str | None) -> Any:
    """`action` taken by `player` (dataclasses.replace without its generic machinery: every action has a
    `player` field and nothing computed after __init__)."""
    if action.player == player:
        return action
    new = _shallow(action)
    new.__dict__["player"] = player  # frozen: set without __setattr__
    return new


# ---------------------------------------------------------------------------------------------
# Setup spec (scenarios) and options (whole games)


@dataclass(frozen=True)
class DroneSetup:
    """A drone in a Warehouse, working or broken."""

    card: str = field(metadata={"doc": "the Drone card, by id"})
    broken: bool = field(default=False, metadata={"doc": "turned face down (broken): it cannot fly until repaired; "
                                                  "default: working"})


@dataclass(frozen=True)
class ProjectSetup:
    """A Project card beside a player board: open, or activated (and perhaps face down for the round)."""

    card: str = field(metadata={"doc": "the Project (a Support card), by id"})
    active: bool = field(default=False, metadata={"doc": "activated (its Characters discarded): its Effect may be "
                                                  "used; default: open, not yet activated"})
    used: bool = field(default=False, metadata={"doc": "an activated once-per-round Project turned face down: its "
                                                "Effect is spent until the Recovery phase; default: face up"})


@dataclass(frozen=True)
class PlayerSetup:
    """One player's board, hand and cards."""

    name: str = field(metadata={"doc": "the player's name, unique (actions and other keys name players by it)"})
    logistics: int = field(default=3, metadata={
        "doc": "the Logistics marker's space on the track (at most the track's last space); default: 3, the "
               "starting space", "min": 0})
    crew: tuple[str, ...] = field(default=(), metadata={
        "doc": "Characters in the Crew (top of the board; their top half applies), by id"})
    hq: tuple[str, ...] = field(default=(), metadata={
        "doc": "Characters in the HQ (their bottom half applies), by id; no Character twice across Crew and HQ"})
    warehouse: tuple[str | DroneSetup, ...] = field(default=(), metadata={
        "doc": "the drones in the Warehouse (at most its spaces): a Drone card id, or {card, broken: true}"})
    hand: tuple[str, ...] = field(default=(), metadata={"doc": "the Support cards in hand, by id"})
    projects: tuple[str | ProjectSetup, ...] = field(default=(), metadata={
        "doc": "the Projects played: an id (open), or {card, active, used}"})
    defence: tuple[str, ...] = field(default=(), metadata={
        "doc": "Defence cards in play (Bunker, EW) until the Recovery phase, by id, no two alike"})
    trophies: tuple[str, ...] = field(default=(), metadata={
        "doc": "enemy cards the player hit and has not exchanged, by id (never a Mishap)"})
    wounded: tuple[str, ...] = field(default=(), metadata={
        "doc": "wounded Characters not yet evacuated, by id (fewer than 4, or the game is lost)"})
    used: tuple[str, ...] = field(default=(), metadata={
        "doc": "Characters in the Crew or HQ turned face down: their once-per-round Effect is spent until Recovery"})
    exchanged: bool = field(default=False, metadata={
        "doc": "the player has already exchanged a trophy this round (one a round); default: not yet"})
    dealt: tuple[str, ...] = field(default=(), metadata={
        "doc": "deal phase: the Support cards dealt to choose from (with ISTAR, the draft packet in hand), by id"})


@dataclass(frozen=True)
class DeckTops:
    """The known top cards of the four face-down decks; the rest of each deck is shuffled (drawn by chance)."""

    characters: tuple[str, ...] = field(default=(), metadata={"doc": "the Character deck's top cards, top first"})
    drones: tuple[str, ...] = field(default=(), metadata={"doc": "the Drone deck's top cards, top first"})
    support: tuple[str, ...] = field(default=(), metadata={"doc": "the Support deck's top cards, top first"})
    threats: tuple[str, ...] = field(default=(), metadata={"doc": "the Threat deck's top cards, top first"})


@dataclass(frozen=True)
class Discards:
    """The face-up discard piles (Characters have none: they go under their deck)."""

    drones: tuple[str, ...] = field(default=(), metadata={"doc": "discarded Drone cards"})
    support: tuple[str, ...] = field(default=(), metadata={"doc": "discarded Support cards"})
    threats: tuple[str, ...] = field(default=(), metadata={"doc": "discarded Threat cards (exchanged trophies, "
                                                           "Mishaps)"})


@dataclass(frozen=True)
class RulesSetup:
    """The advanced rules in play (all optional, off by default)."""

    extended_rotation: bool = field(default=False, metadata={"doc": "Extended Rotation: 6 rounds instead of 4"})
    rounds: int | None = field(default=None, metadata={
        "doc": "an agreed length in rounds (Extended Rotation), instead of 4 or 6; default: not set", "min": 1})
    fog_of_war: bool = field(default=False, metadata={
        "doc": "Fog of War: new Threat cards are placed before the defence rolls"})
    horde: bool = field(default=False, metadata={"doc": "Horde: 4 new Threat cards per player each round instead "
                                                 "of 3"})
    istar: bool = field(default=False, metadata={"doc": "ISTAR: Support cards are drafted instead of dealt"})


@dataclass(frozen=True)
class StartSetup:
    """Setup choices the Operations Duty Officer applies (with phase: setup)."""

    first_game: bool = field(default=False, metadata={
        "doc": "first game: every red-triangle Threat card is left out of the game"})
    random_start: bool = field(default=False, metadata={
        "doc": "Random Start: each player starts with a random Character and Drone instead of the Universal Pilot "
               "and the Mavic"})


@dataclass(frozen=True)
class SetupSpec:
    """A scenario's starting state (see the module docstring)."""

    players: tuple[PlayerSetup, ...] = field(metadata={
        "doc": "1 to 4 players in seat order, clockwise (the next seat is on the left)"})
    trench: tuple[str, ...] = field(default=(), metadata={
        "doc": "the Characters in the shared Trench, face down, top first (Trench hits take the top ones); must not "
               "be empty (except in phase: setup)"})
    odo: str | None = field(default=None, metadata={
        "doc": "the player holding the Operations Duty Officer token; default: the first seat"})
    round: int = field(default=1, metadata={"doc": "the round number, from 1 (at most the game's rounds)", "min": 1})
    phase: Literal["setup", "deal", "management", "threat"] = field(default="management", metadata={
        "doc": "setup: before the Operations Duty Officer sets up (give only player names, odo, start, rules and "
               "cards); deal: players choose from their dealt cards; management; threat"})
    start: StartSetup = field(default=StartSetup(), metadata={
        "doc": "phase: setup only: the first-game and Random Start choices"})
    cards: dict[str, dict[str, Any]] = field(default_factory=dict, metadata={
        "doc": "card values to play with instead of the kit's house values (an owner's printed card), by card "
               "id: {mavic: {to_hit: 5}}; the keys are the card's facts"})
    turn: str | None = field(default=None, metadata={
        "doc": "management phase: the player in turn; default: the Operations Duty Officer"})
    step: Literal["support", "action", "done"] = field(default="support", metadata={
        "doc": "management phase: where the turn is: support (play or discard a Support card first), action "
               "(take an Action), done (free actions, then end the turn)"})
    bonus: tuple[str, ...] = field(default=(), metadata={
        "doc": "the Bonus cards the player in turn played this turn (discarded when the turn ends), by id"})
    shop: tuple[str, ...] = field(default=(), metadata={"doc": "the face-up Drone cards of the Drone Shop, by id"})
    field: tuple[str, ...] = field(default=(), metadata={
        "doc": "the enemy cards on the field, by id (each sits in the line of its distance; never a Mishap)"})
    # `field` now names the field above in this class body: the function is reached through its module.
    rolled: tuple[str, ...] = dataclasses.field(default=(), metadata={
        "doc": "threat phase: the players who have already made their defence roll"})
    threats_placed: bool = dataclasses.field(default=False, metadata={
        "doc": "threat phase: this round's new Threat cards are already drawn and placed (Fog of War places them "
               "first)"})
    decks: DeckTops = dataclasses.field(default=DeckTops(), metadata={
        "doc": "known cards on top of the face-down decks; every card placed nowhere is in the shuffled middle of "
               "its deck"})
    discards: Discards = dataclasses.field(default=Discards(), metadata={"doc": "the discard piles"})
    out_of_game: tuple[str, ...] = dataclasses.field(default=(), metadata={
        "doc": "cards back in the box (spare starting cards, red-triangle cards in a first game), by id"})
    rules: RulesSetup = dataclasses.field(default=RulesSetup(), metadata={"doc": "the advanced rules in play"})


@dataclass(frozen=True)
class Options:
    """How a whole game is set up: players and the advanced rules."""

    players: int = field(default=2, metadata={
        "doc": "how many players (1 to 4), named P1, P2, ... in seat order; P1 holds the Operations Duty Officer "
               "token", "min": 1, "max": MAX_PLAYERS})
    first_game: bool = field(default=False, metadata={
        "doc": "first game: every red-triangle Threat card is left out of the game"})
    extended_rotation: bool = field(default=False, metadata={"doc": "Extended Rotation: 6 rounds instead of 4"})
    random_start: bool = field(default=False, metadata={
        "doc": "Random Start: each player starts with a random Character and Drone instead of the Universal Pilot "
               "and the Mavic"})
    fog_of_war: bool = field(default=False, metadata={
        "doc": "Fog of War: new Threat cards are placed before the defence rolls"})
    horde: bool = field(default=False, metadata={"doc": "Horde: 4 new Threat cards per player each round instead "
                                                 "of 3"})
    istar: bool = field(default=False, metadata={"doc": "ISTAR: Support cards are drafted instead of dealt"})


def _rules(extended: bool, rounds: int | None, fog: bool, horde: bool, istar: bool) -> Rules:
    return Rules(rounds or (EXTENDED_ROUNDS if extended else ROUNDS), fog, horde, istar)


# ---------------------------------------------------------------------------------------------
# Actions


PLAYER_DOC = ("the player who acts, by name; default: the only player who may act (name one when several may, as "
              "in the Threat phase)")


def _action(name: str, doc: str, fields: Sequence[tuple[str, Any, Any, str]] = ()) -> type:
    """A frozen action dataclass with docstring `doc`: `do`, the given fields (name, type, default or `...` for
    none, doc), and `player` (default: whoever must act)."""
    from dataclasses import make_dataclass

    spec = [("do", Literal[name])]  # type: ignore[valid-type]
    for n, t, d, text in fields:
        meta = {"doc": text}
        spec.append((n, t, field(metadata=meta) if d is ... else field(default=d, metadata=meta)))  # type: ignore[arg-type]
    spec.append(("player", str | None, field(default=None, metadata={"doc": PLAYER_DOC})))  # type: ignore[arg-type]
    cls = make_dataclass("".join(w.title() for w in name.split("_")) + "Action", spec, frozen=True)
    cls.__module__ = __name__
    cls.__doc__ = doc
    return cls


Place = Literal["crew", "hq", "trench"]
ACTIONS: dict[str, type] = {
    "play_support": _action("play_support", "Management: pay a Support card's cost and play it (the turn's Support "
                            "card; an Artillery card attacks at once)", [
        ("card", str, ..., "the Support card played from hand, by id"),
        ("target", str | None, None, "Artillery: the enemy card on the field it attacks"),
        ("character", str | None, None, "Transfer Order: the Character taken out of the Trench"),
        ("to", Literal["crew", "hq"] | None, None, "Transfer Order: where that Character goes, crew or hq")]),
    "discard_support": _action("discard_support", "Discard a Support card: unplayed as the turn's Support card, or "
                               "the one dealt card let go (the rest go to hand)", [
        ("card", str, ..., "the Support card discarded (from hand, or from the dealt cards), by id")]),
    "draft": _action("draft", "ISTAR: keep one card of the packet; the rest pass to the player on the left", [
        ("card", str, ..., "the Support card kept, by id")]),
    "recruit": _action("recruit", "Action: draw 2 Characters (4 with a Psychologist in the HQ) to place one"),
    "place": _action("place", "Recruiting: place one drawn Character; the others go under the Character deck", [
        ("card", str, ..., "the drawn Character placed, by id"),
        ("to", Place, ..., "crew, hq (not a Character the player already has) or trench (under the Trench)")]),
    "move": _action("move", "Movement (an Action): move one Character between the Crew and the HQ, or into the "
                    "Trench; repeat for others, then end_move", [
        ("card", str, ..., "a Character in the player's Crew or HQ not yet moved this Action, by id"),
        ("to", Place, ..., "crew or hq (the other one), or trench (never back out)")]),
    "end_move": _action("end_move", "End the Movement Action"),
    "evacuate": _action("evacuate", "Action (Medic in the Crew or an activated Aid Station): evacuate a wounded "
                        "Character", [
        ("card", str, ..., "the wounded Character put under the Character deck, by id")]),
    "buy": _action("buy", "Action: reveal one more Drone card in the Shop, then take a drone or decline"),
    "take_drone": _action("take_drone", "Buying: pay for a drone of the Shop and put it in the Warehouse (the space "
                          "is refilled)", [
        ("card", str, ..., "the Drone card bought from the Shop, by id"),
        ("discard", str | None, None, "with a full Warehouse: the drone discarded to make room (a broken copy "
         "first); default: none")]),
    "decline": _action("decline", "Buying: buy nothing (the Action is spent)"),
    "sortie": _action("sortie", "Action: a combat sortie with one drone (a Pilot of its type in the Crew, and the "
                      "Reconnaissance and Ammunition it needs)", [
        ("drone", str, ..., "the Drone card in the Warehouse that flies, by id")]),
    "attack": _action("attack", "Combat sortie: one of the drone's attacks on an enemy card", [
        ("target", str, ..., "the enemy card on the field attacked, by id"),
        ("guaranteed", bool, False, "hit without rolling, using an activated guaranteed-hit Project (AI module); "
         "default: roll the die")]),
    "end_sortie": _action("end_sortie", "End the combat sortie (a kamikaze drone is discarded)"),
    "extra_action": _action("extra_action", "A Character's Effect in the HQ: one more Action this turn (the "
                            "Character turns face down)"),
    "end_turn": _action("end_turn", "End the turn (Bonus cards played this turn are discarded)"),
    "exchange_trophy": _action("exchange_trophy", "Free: discard a trophy for Logistics (+1 for trophy value 1, +2 "
                               "for 2 to 4), once a round", [
        ("card", str, ..., "the trophy (an enemy card the player hit), by id")]),
    "activate_project": _action("activate_project", "Free: activate an open Project, discarding the Characters it "
                                "names from the Crew or HQ", [
        ("card", str, ..., "the open Project, by id")]),
    "evacuate_effect": _action("evacuate_effect", "Free: evacuate a wounded Character with an Effect", [
        ("source", str, ..., "whose Effect: a Character in the Crew that evacuates (Medic) or an activated Project "
         "(Aid Station), by id"),
        ("card", str, ..., "the wounded Character put under the Character deck, by id")]),
    "repair": _action("repair", "Free: repair a broken drone with an Effect", [
        ("source", str, ..., "whose Effect: a Character in the HQ that repairs (Engineer) or an activated Project, "
         "by id"),
        ("drone", str, ..., "the broken Drone card in the Warehouse, by id")]),
    "set_up": _action("set_up", "The Operations Duty Officer sets up the Trench, the Drone Shop, the field and "
                      "deals the Support cards"),
    "defend": _action("defend", "Threat phase: roll the die; every enemy on the field with that activation value "
                      "strikes"),
    "choose": _action("choose", "Place a hit the player takes: a Crew Character wounded, or a drone lost or broken", [
        ("card", str, ..., "the Character in the Crew, or the Drone card in the Warehouse, that takes the hit, by "
         "id")]),
}
FREE = ("exchange_trophy", "activate_project", "evacuate_effect", "repair")


def act(kind: str, player: str, **kw: Any) -> Any:
    return ACTIONS[kind](do=kind, player=player, **kw)


# ---------------------------------------------------------------------------------------------
# Rule functions (the odds tables enumerate these)


def attack_hits(die: int, modifier: int, to_hit: int) -> bool:
    """A drone attack hits when the die plus every bonus and penalty reaches the drone's value."""
    return die + modifier >= to_hit


def breaks_down(die: int, breakdown: int | None) -> bool:
    """A reusable drone breaks when the die shows its red-die value."""
    return breakdown is not None and die == breakdown


def artillery_hits(die: int, to_hit: int, modifier: int = 0) -> bool:
    return die + modifier >= to_hit


def activates(die: int, activation: int) -> bool:
    """A defence roll activates every enemy card whose activation value equals it."""
    return die == activation


def trophy_logistics(trophy: int) -> int:
    """Trophy exchange: value 1 gives +1 Logistics; 2, 3 or 4 give +2."""
    return 1 if trophy <= 1 else 2


# ---------------------------------------------------------------------------------------------
# Queries


def _in_crew(s: State, p: Player, pred: Any) -> list[str]:
    return [c for c in p.crew if pred(s.cat.characters[c])]


def _in_hq(s: State, p: Player, pred: Any) -> list[str]:
    return [c for c in p.hq if pred(s.cat.characters[c])]


def _active(s: State, p: Player, effect: str) -> list[Project]:
    return [pr for pr in p.projects if pr.active and s.cat.support[pr.card].effect == effect]


def _turn_bonus(s: State, p: Player, effect: str) -> list[str]:
    if s.turn is None or s.turn.player != p.name or s.phase != "management":
        return []
    return [b for b in s.turn.bonus if s.cat.support[b].effect == effect]


def can_fly(s: State, p: Player, drone: str) -> bool:
    """A matching Pilot in the Crew; any Pilot flies the Mavic."""
    kind = s.cat.drones[drone].type
    for c in p.crew:
        pilots = s.cat.characters[c].pilots
        if kind in pilots or (pilots and kind == "mavic"):
            return True
    return False


def recon(s: State, p: Player) -> int:
    """The farthest distance the player has Reconnaissance at."""
    best = 0
    for d in p.warehouse:
        facts = s.cat.drones[d.card]
        if facts.recon and not d.broken and can_fly(s, p, d.card):
            best = max(best, facts.recon)
    for pr in _active(s, p, "reconnaissance"):
        best = max(best, s.cat.support[pr.card].value)
    for b in _turn_bonus(s, p, "reconnaissance"):
        best = max(best, s.cat.support[b].value)
    return best


def has_ammunition(s: State, p: Player) -> bool:  # ruling: resources-not-spent
    return bool(_in_crew(s, p, lambda f: f.crew_ammunition) or _active(s, p, "ammunition")
                or _turn_bonus(s, p, "ammunition"))


def has_correction(s: State, p: Player) -> bool:
    drones = [d for d in p.warehouse if not d.broken and s.cat.drones[d.card].artillery_correction
              and can_fly(s, p, d.card)]
    return bool(drones or _in_crew(s, p, lambda f: f.crew_artillery_correction))


def _reconned(s: State, p: Player, target: str) -> bool:
    t = s.cat.threats[target]
    return recon(s, p) >= t.distance or bool(t.artillery and _turn_bonus(s, p, "counter-battery"))


def attack_modifiers(s: State, p: Player, drone: str, target: str) -> list[tuple[str, int]]:
    """Every bonus and penalty to one drone attack, labelled as players would say it."""
    kind = s.cat.drones[drone].type
    mods: list[tuple[str, int]] = []
    for c in p.crew:
        f = s.cat.characters[c]
        if f.attack_bonus and f.bonus_type in (None, kind):
            mods.append((s.cat.title(c), f.attack_bonus))
    for pr in _active(s, p, "attack-bonus"):
        mods.append((s.cat.title(pr.card), s.cat.support[pr.card].value))
    armour = s.cat.threats[target].armour
    if armour:
        mods.append((s.cat.title(target), armour))
    for card in s.battlefield:
        if s.cat.threats[card].jamming:
            mods.append((s.cat.title(card), s.cat.threats[card].jamming))
    return mods


def artillery_modifier(s: State) -> int:
    return sum(s.cat.threats[c].artillery_jamming for c in s.battlefield)


def _target_ok(s: State, p: Player, drone: str, target: str, sortie: Sortie) -> str | None:
    if target not in s.battlefield:
        return f"{s.cat.title(target)} is not on the field"
    d, t = s.cat.drones[drone], s.cat.threats[target]
    if t.kind == "drone" and sortie.drone_attacks <= 0:
        if not d.drone_attacks:
            return f"the {s.cat.title(drone)} does not attack enemy drones"
        return f"the {s.cat.title(drone)} has no attack left on enemy drones"
    if t.kind == "enemy" and sortie.attacks <= 0:
        if not d.attacks:
            return f"the {s.cat.title(drone)} attacks only enemy drones"
        return f"the {s.cat.title(drone)} has no attack left on ground targets"
    if t.distance > d.reach:
        return f"the {s.cat.title(drone)} reaches distance {d.reach}; the {s.cat.title(target)} is at {t.distance}"
    if not d.kamikaze and not _reconned(s, p, target):
        return (f"the attack needs Reconnaissance at distance {t.distance}; "
                f"{p.name} has it at distance {recon(s, p)}")
    if d.ammunition and not has_ammunition(s, p):
        return f"the {s.cat.title(drone)} needs Ammunition"
    if not can_fly(s, p, drone):
        return f"no Pilot in the Crew flies the {s.cat.title(drone)}"
    return None


def _sortie_problem(s: State, p: Player, drone: str) -> str | None:
    own = [d for d in p.warehouse if d.card == drone]
    if not own:
        return f"{p.name} has no {s.cat.title(drone)} in the Warehouse"
    if all(d.broken for d in own):
        return f"the {s.cat.title(drone)} is broken"
    facts = s.cat.drones[drone]
    if not (facts.attacks or facts.drone_attacks):
        return f"the {s.cat.title(drone)} is not a strike drone"
    if not can_fly(s, p, drone):
        return f"no Pilot in the Crew flies the {s.cat.title(drone)} (a {facts.type} drone)"
    if facts.ammunition and not has_ammunition(s, p):
        return f"the {s.cat.title(drone)} needs Ammunition"
    probe = Sortie(drone, facts.attacks, facts.drone_attacks)
    reasons = [_target_ok(s, p, drone, t, probe) for t in sorted(set(s.battlefield))]
    if not s.battlefield or all(reasons):
        why = next((r for r in reasons if r), "there is no enemy on the field")
        return f"no target for the {s.cat.title(drone)}: {why}"
    return None


def _artillery_targets(s: State, p: Player, card: str) -> list[str]:
    f = s.cat.support[card]
    return sorted({t for t in s.battlefield if s.cat.threats[t].kind == "enemy"
                   and s.cat.threats[t].distance <= f.distance and _reconned(s, p, t)})


def points(s: State, p: Player) -> int:
    """Victory points: trophy flags kept, costs of activated Projects, -3 per wounded Character."""
    trophies = sum(s.cat.threats[t].trophy for t in p.trophies)
    projects = sum(s.cat.support[pr.card].cost for pr in p.projects if pr.active)
    return trophies + projects + WOUND_POINTS * len(p.wounded)


def winners(s: State) -> list[str]:  # ruling: tie-break-count
    """Most points; a tie goes to the most Characters in the Crew and HQ; a tie on both is shared."""
    best = max((points(s, p), len(p.board)) for p in s.players.values())
    return [n for n in s.seats if (points(s, s.p(n)), len(s.p(n).board)) == best]


def activated_total(s: State) -> int:
    return sum(1 for p in s.players.values() for pr in p.projects if pr.active)


# ---------------------------------------------------------------------------------------------
# Building states


def _count_placed(placed: list[tuple[KeyPath, str]], cat: Catalogue) -> dict[str, int]:
    used: dict[str, int] = {}
    for path, card in placed:
        if card not in cat.counts:
            raise SetupError(path, f"no card {card!r} in this game")
        used[card] = used.get(card, 0) + 1
        if used[card] > cat.counts[card]:
            raise SetupError(path, f"the game has {cat.counts[card]} {cat.title(card)} card(s); this setup places more")
    return used


def _expect(path: KeyPath, card: str, table: Mapping[str, Any], what: str) -> str:
    if card not in table:
        raise SetupError(path, f"{card!r} is not a {what}; {what}s: {', '.join(sorted(table))}")
    return card


FACT_TABLES = {"characters": CharacterFacts, "drones": DroneFacts, "support": SupportFacts, "threats": ThreatFacts}


def with_card_values(cat: Catalogue, cards: Mapping[str, Mapping[str, Any]]) -> Catalogue:
    """The catalogue with some cards' facts replaced (a scenario playing printed values the kit
    designs as house): each given key replaces the kit's value; the card is checked as content is."""
    if not cards:
        return cat
    tables = {d: dict(getattr(cat, d)) for d in FACT_TABLES}
    for card, values in cards.items():
        if card not in cat.counts:
            raise SetupError(("cards", card), f"no card {card!r} in this game")
        deck = cat.deck_of(card)
        merged = {**to_data(tables[deck][card]), **dict(values)}
        try:
            tables[deck][card] = convert(Doc("<setup>", merged, {}), FACT_TABLES[deck], (), merged)
        except ContentError as exc:
            raise SetupError(("cards", card, *exc.keypath), exc.message) from None
    return replace(cat, **tables)


def initial_state(spec: SetupSpec, cat: Catalogue) -> State:
    cat = with_card_values(cat, spec.cards)
    if not 1 <= len(spec.players) <= MAX_PLAYERS:
        raise SetupError(("players",), f"1 to {MAX_PLAYERS} players")
    names = [p.name for p in spec.players]
    if len(set(names)) != len(names):
        raise SetupError(("players",), "player names must differ")
    r = spec.rules
    rules = _rules(r.extended_rotation, r.rounds, r.fog_of_war, r.horde, r.istar)
    if spec.phase == "setup":
        return _scenario_setup_state(spec, cat, rules, names)
    placed: list[tuple[KeyPath, str]] = []
    players = {}
    for i, ps in enumerate(spec.players):
        players[ps.name] = _player(ps, ("players", i), cat, placed)
    for key, table, what in (("trench", cat.characters, "Character"), ("shop", cat.drones, "Drone card"),
                             ("field", cat.threats, "Threat card"), ("bonus", cat.support, "Support card")):
        for j, card in enumerate(getattr(spec, key)):
            placed.append(((key, j), _expect((key, j), card, table, what)))
    if not spec.trench:
        raise SetupError(("trench",), "an empty Trench means the game is already lost; place at least one Character")
    for j, card in enumerate(spec.field):
        if cat.threats[card].kind == "mishap":
            raise SetupError(("field", j), "Mishaps are dealt to players, never placed on the field")
    decks = {d: Deck() for d in DECKS}
    for deck in DECKS:
        for j, card in enumerate(getattr(spec.decks, deck)):
            table = getattr(cat, deck)
            placed.append((("decks", deck, j), _expect(("decks", deck, j), card, table, f"{deck[:-1]} card")))
            decks[deck].top.append(card)
    discards: dict[str, list[str]] = {"drones": [], "support": [], "threats": []}
    for deck in discards:
        for j, card in enumerate(getattr(spec.discards, deck)):
            table = getattr(cat, deck)
            placed.append((("discards", deck, j), _expect(("discards", deck, j), card, table, f"{deck[:-1]} card")))
            discards[deck].append(card)
    for j, card in enumerate(spec.out_of_game):
        placed.append((("out_of_game", j), card))
    used = _count_placed(placed, cat)
    for card, n in cat.counts.items():
        decks[cat.deck_of(card)].pool += (card,) * (n - used.get(card, 0))
    for d in decks.values():
        d.pool = tuple(sorted(d.pool))
    state = State(cat, rules, names, players,
                  spec.odo or names[0], list(spec.trench), spec.round, spec.phase, None, list(spec.shop),
                  list(spec.field), decks, discards, list(spec.out_of_game), list(spec.rolled),
                  spec.threats_placed)
    _check_turn(spec, state)
    return state


def _scenario_setup_state(spec: SetupSpec, cat: Catalogue, rules: Rules, names: list[str]) -> State:
    """The moment before the Operations Duty Officer sets up: only names and the setup choices count."""
    bare = SetupSpec(players=tuple(PlayerSetup(n) for n in names), phase="setup", odo=spec.odo, start=spec.start,
                     rules=spec.rules, cards=spec.cards)
    if spec != bare:
        raise SetupError(("phase",), "a setup-phase scenario gives only player names, odo, start and rules: every "
                         "card is still in its deck")
    odo = spec.odo or names[0]
    if odo not in names:
        raise SetupError(("odo",), f"no player {odo!r}")
    return _setup_state(cat, rules, names, odo, Start(spec.start.first_game, spec.start.random_start))


def _player(ps: PlayerSetup, path: KeyPath, cat: Catalogue, placed: list[tuple[KeyPath, str]]) -> Player:
    p = Player(ps.name, ps.logistics, exchanged=ps.exchanged)
    if ps.logistics > cat.board.logistics_max:
        raise SetupError((*path, "logistics"), f"the Logistics track ends at {cat.board.logistics_max}")
    for key, table, what in (("crew", cat.characters, "Character"), ("hq", cat.characters, "Character"),
                             ("hand", cat.support, "Support card"), ("defence", cat.support, "Support card"),
                             ("trophies", cat.threats, "Threat card"), ("wounded", cat.characters, "Character"),
                             ("dealt", cat.support, "Support card")):
        for j, card in enumerate(getattr(ps, key)):
            placed.append(((*path, key, j), _expect((*path, key, j), card, table, what)))
            getattr(p, key).append(card)
    for j, item in enumerate(ps.warehouse):
        d = DroneSetup(item) if isinstance(item, str) else item
        placed.append(((*path, "warehouse", j), _expect((*path, "warehouse", j), d.card, cat.drones, "Drone card")))
        p.warehouse.append(Drone(d.card, d.broken))
    for j, item in enumerate(ps.projects):
        pr = ProjectSetup(item) if isinstance(item, str) else item
        card = _expect((*path, "projects", j), pr.card, cat.support, "Support card")
        if cat.support[card].type != "project":
            raise SetupError((*path, "projects", j), f"{cat.title(card)} is not a Project")
        if pr.used and not (pr.active and cat.support[card].once_per_round):
            raise SetupError((*path, "projects", j), "only an activated once-per-round Project can be face down")
        placed.append(((*path, "projects", j), card))
        p.projects.append(Project(card, pr.active, pr.used))
    _check_player(ps, path, p, cat)
    return p


def _check_player(ps: PlayerSetup, path: KeyPath, p: Player, cat: Catalogue) -> None:
    if len(set(p.board)) != len(p.board):  # ruling: identical-characters
        raise SetupError((*path, "crew"), "a player may not have two identical Characters")
    if len(p.warehouse) > cat.board.warehouse:
        raise SetupError((*path, "warehouse"), f"the Warehouse holds {cat.board.warehouse} drones")
    if len(set(p.defence)) != len(p.defence) or any(cat.support[c].type != "defence" for c in p.defence):
        raise SetupError((*path, "defence"), "Defence cards only, no two identical")
    if len(p.wounded) >= WOUNDED_LIMIT:
        raise SetupError((*path, "wounded"), f"{WOUNDED_LIMIT} wounded Characters means the game is already lost")
    if any(cat.threats[t].kind == "mishap" for t in p.trophies):
        raise SetupError((*path, "trophies"), "a Mishap is never a trophy")
    for j, c in enumerate(ps.used):
        if c not in p.board:
            raise SetupError((*path, "used", j), f"{c!r} is not in this player's Crew or HQ")
        p.used.append(c)


def _check_turn(spec: SetupSpec, s: State) -> None:
    if s.odo not in s.players:
        raise SetupError(("odo",), f"no player {s.odo!r}")
    if spec.round > s.rules.rounds:
        raise SetupError(("round",), f"the game lasts {s.rules.rounds} rounds")
    for j, n in enumerate(spec.rolled):
        if n not in s.players:
            raise SetupError(("rolled", j), f"no player {n!r}")
    if spec.phase == "management":
        name = spec.turn or s.odo
        if name not in s.players:
            raise SetupError(("turn",), f"no player {name!r}")
        if spec.step == "support" and not s.p(name).hand:
            raise SetupError(("turn",), f"{name} has no Support card to play or discard")
        for j, b in enumerate(spec.bonus):
            if s.cat.support[b].type != "bonus":
                raise SetupError(("bonus", j), f"{s.cat.title(b)} is not a Bonus card")
        s.turn = Turn(name, spec.step, bonus=list(spec.bonus), actions=0 if spec.step == "done" else 1)
    elif spec.phase == "deal" and not any(p.dealt for p in s.players.values()):
        raise SetupError(("phase",), "a deal phase needs dealt cards (players[].dealt)")


def new_game(opts: Options, cat: Catalogue, chance: Chance) -> State:
    """A whole game at its start: the setup state, then the Operations Duty Officer's setup (chance)."""
    names = [f"P{i + 1}" for i in range(opts.players)]
    rules = _rules(opts.extended_rotation, None, opts.fog_of_war, opts.horde, opts.istar)
    s = _setup_state(cat, rules, names, names[0], Start(opts.first_game, opts.random_start))
    _set_up(s, chance, [])
    return s


def _setup_state(cat: Catalogue, rules: Rules, names: list[str], odo: str, start: Start) -> State:
    """Boards out, Logistics at the start space, every card in its deck: the Operations Duty Officer
    is about to set up."""
    players = {n: Player(n, cat.board.logistics_start) for n in names}
    decks = {d: Deck() for d in DECKS}
    for card, n in sorted(cat.counts.items()):
        decks[cat.deck_of(card)].pool += (card,) * n
    return State(cat, rules, names, players, odo, [], phase="setup", decks=decks, start=start)


def _set_up(s: State, chance: Chance, events: list[Event]) -> None:
    """Setup 1-2: starting Pilot and Mavic (or Random Start), the Trench, the Drone Shop, the field of
    distance-1 enemies, five Support cards each."""
    cat, decks = s.cat, s.decks
    out: list[str] = []
    if s.start.first_game:  # the first game leaves out every red-triangle card
        for card, facts in sorted(cat.threats.items()):
            while facts.red_triangle and card in decks["threats"].pool:
                out.append(decks["threats"].take(card))
    if s.start.random_start:  # ruling: random-start-reading
        for n in s.seats:
            s.p(n).crew += decks["characters"].draw("random start character", chance)
            s.p(n).warehouse += [Drone(c) for c in decks["drones"].draw("random start drone", chance)]
    else:
        pilot, mavic = _starting_pair(cat)
        for n in s.seats:
            s.p(n).crew.append(decks["characters"].take(pilot))
            s.p(n).warehouse.append(Drone(decks["drones"].take(mavic)))
        for card in (pilot, mavic):  # the spare starting cards stay in the box  # ruling: starting-cards
            deck = decks[cat.deck_of(card)]
            while card in deck.pool:
                out.append(deck.take(card))
    s.out_of_game = sorted([*s.out_of_game, *out])
    n = len(s.seats)
    s.trench = decks["characters"].draw("trench", chance, TRENCH_PER_PLAYER * n)
    s.shop = decks["drones"].draw("drone shop", chance, SHOP_START)
    first_line = [c for c, f in cat.threats.items() if f.kind == "enemy" and f.distance == 1]
    s.battlefield = decks["threats"].draw("starting field", chance, FIELD_PER_PLAYER * n, allowed=first_line)
    events.append(Event("set-up", {"trench": len(s.trench), "shop": list(s.shop), "field": list(s.battlefield),
                                   "out_of_game": list(s.out_of_game)}))
    _deal(s, chance)


def _starting_pair(cat: Catalogue) -> tuple[str, str]:
    """The Universal Pilot (flies every drone type) and the Mavic, found by their facts."""
    pilots = [c for c, f in cat.characters.items() if set(f.pilots) == set(DRONE_TYPES)]
    mavics = [c for c, f in cat.drones.items() if f.type == "mavic"]
    if len(pilots) != 1 or len(mavics) != 1:
        raise ValueError("the content needs exactly one Universal Pilot face and one Mavic face")
    return pilots[0], mavics[0]


# ---------------------------------------------------------------------------------------------
# Moving cards


def _draw(s: State, deck: str, label: str, chance: Chance, k: int = 1) -> list[str]:
    """Draw from a deck, shuffling its discard pile in when it runs short (not Characters: no discard)."""
    d = s.decks[deck]
    if len(d) < k and s.discards.get(deck):  # ruling: support-deck-short
        d.shuffle_in(s.discards[deck])
        s.discards[deck] = []
    return d.draw(label, chance, k)


def _deal(s: State, chance: Chance) -> None:  # ruling: istar-every-deal
    """Deal 5 Support cards to each player, from the Operations Duty Officer round the table."""
    s.phase = "deal"
    for n in _from_odo(s):
        s.p(n).dealt = _draw(s, "support", "support deal", chance, DEAL)
        s.p(n).picked = False
    _settle_deal(s)


def _from_odo(s: State) -> list[str]:
    i = s.seats.index(s.odo)
    return s.seats[i:] + s.seats[:i]


def _left_of(s: State, name: str) -> str:
    return s.seats[(s.seats.index(name) + 1) % len(s.seats)]


def _settle_deal(s: State) -> None:
    """Finish choices nobody has to make (a packet of one card), then start the Management phase."""
    for p in s.players.values():
        if not s.rules.istar and len(p.dealt) <= 1:
            p.hand += p.dealt
            p.dealt = []
        elif s.rules.istar and len(p.dealt) == 1:
            s.discards["support"] += p.dealt
            p.dealt = []
    if all(not p.dealt for p in s.players.values()):
        _start_management(s)


def _start_management(s: State) -> None:
    s.phase = "management"
    s.turn = None
    _next_turn(s, None)


def _next_turn(s: State, after: str | None) -> None:
    """The next player with Support cards in hand, going left from `after` (from the ODO at the start)."""
    order = _from_odo(s)
    if after is not None:
        i = order.index(after)
        order = order[i + 1:] + order[:i + 1]
    for n in order:  # ruling: management-turns
        if s.p(n).hand:
            s.turn = Turn(n)
            return
    s.turn = None
    _start_threats(s)


def _wound(s: State, p: Player, card: str, where: str, events: list[Event]) -> None:
    p.wounded.append(card)
    if card in p.used:
        p.used.remove(card)
    events.append(Event("wound", {"player": p.name, "card": card, "from": where}))
    _check_defeat(s, events)


def _check_defeat(s: State, events: list[Event]) -> None:
    if s.result is not None:
        return
    if not s.trench:
        _end(s, "lost", "trench", events)
    elif any(len(p.wounded) >= WOUNDED_LIMIT for p in s.players.values()):
        _end(s, "lost", "wounded", events)


def _end(s: State, result: Literal["won", "lost"], how: str, events: list[Event]) -> None:
    s.result, s.how, s.phase = result, how, "over"
    s.turn = None
    s.pending = []
    events.append(Event("game-over", {"result": result, "how": how}))


def _gain(s: State, p: Player, amount: int, why: str, events: list[Event]) -> None:
    before = p.logistics
    p.logistics = max(0, min(s.cat.board.logistics_max, p.logistics + amount))
    if p.logistics != before:
        events.append(Event("logistics", {"player": p.name, "change": p.logistics - before, "why": why}))


def _to_character_bottom(s: State, cards: Iterable[str]) -> None:
    s.decks["characters"].bottom += list(cards)


def _remove_character(p: Player, card: str) -> None:
    (p.crew if card in p.crew else p.hq).remove(card)
    if card in p.used:
        p.used.remove(card)


# ---------------------------------------------------------------------------------------------
# Legal actions


def waiting_on(s: State) -> list[str]:
    """The players the game waits on: the one in turn, those still to roll or choose, those placing hits."""
    if s.phase == "over":
        return []
    if s.pending:
        return [n for n in s.seats if any(x.player == n for x in s.pending)]
    if s.phase == "setup":
        return [s.odo]
    if s.phase == "deal":
        return [n for n in s.seats if s.p(n).dealt and not (s.rules.istar and s.p(n).picked)]
    if s.phase == "management":
        return [s.turn.player] if s.turn else []
    return [n for n in s.seats if n not in s.rolled]


def players_to_act(s: State) -> list[str]:
    """Who may act: the players the game waits on, and any other player with a free action to take
    ("at any time during the game"), in seat order."""
    waiting = waiting_on(s)
    if not _free_time(s):
        return waiting
    return [n for n in s.seats if n in waiting or _free(s, s.p(n), n)]


def _free_time(s: State) -> bool:
    """Free actions may be taken now: the game has begun, is not over, and no hit waits to be placed."""
    # ruling: free-actions-any-time
    # ruling: hits-before-free-actions
    return s.phase not in ("setup", "over") and not s.pending


def legal_actions(s: State, player: str | None = None) -> list[Any]:
    """Every legal action; `player` is left out (None) when only one player may act. Worked out once per
    state and player (a state is never changed once made, and the simulator lists and then applies)."""
    known = s.__dict__.setdefault("_legal", {})
    if player not in known:
        known[player] = _legal_actions(s, player)
    return list(known[player])


def _legal_actions(s: State, player: str | None) -> list[Any]:
    who = players_to_act(s)
    out: list[Any] = []
    for n in who:
        if player is None or player == n:
            out += _legal_for(s, s.p(n), None if len(who) == 1 else n)
    return out


def _legal_for(s: State, p: Player, me: str | None) -> list[Any]:
    if p.name not in waiting_on(s):
        return _free(s, p, me)  # another player's turn or roll: only free actions
    mine = [x for x in s.pending if x.player == p.name]
    if mine:
        return [act("choose", me, card=c) for c in _pending_options(s, p, mine[0])]
    if s.phase == "setup":
        return [act("set_up", me)]
    if s.phase == "deal":
        kind = "draft" if s.rules.istar else "discard_support"
        return [act(kind, me, card=c) for c in sorted(set(p.dealt))]
    if s.phase == "threat":
        return [act("defend", me), *_free(s, p, me)]
    t = s.turn
    assert t is not None
    if t.mode == "recruit":
        out = [act("place", me, card=c, to=to) for c in sorted(set(t.recruit)) for to in ("crew", "hq", "trench")
               if to == "trench" or c not in p.board]
    elif t.mode == "move":
        out = [act("move", me, card=c, to=to) for c in sorted(p.board) if c not in t.moved
               for to in _destinations(p, c)]
        out.append(act("end_move", me))
    elif t.mode == "buy":
        out = _buy_options(s, p, me)
    elif t.mode == "sortie":
        out = _attack_options(s, p, me)
    elif t.step == "support":
        out = _support_options(s, p, me)
    elif t.step == "action":
        out = _action_options(s, p, me)
    else:
        out = [act("end_turn", me)]
        if t.actions == 0 and _extra_action_source(s, p):
            out.append(act("extra_action", me))
    return out + _free(s, p, me)


def _pending_options(s: State, p: Player, x: Pending) -> list[str]:
    if x.kind == "wound":
        return sorted(p.crew)
    if x.kind == "lose-drone":
        return sorted({d.card for d in p.warehouse})
    if x.kind == "lose-wing":
        return sorted({d.card for d in p.warehouse if s.cat.drones[d.card].type == "wing"})
    return sorted({d.card for d in p.warehouse if not d.broken})


def _support_options(s: State, p: Player, me: str | None) -> list[Any]:
    out = []
    for card in sorted(set(p.hand)):
        out += _plays(s, p, card, me)
        out.append(act("discard_support", me, card=card))
    return out


def _plays(s: State, p: Player, card: str, me: str | None) -> list[Any]:
    f = s.cat.support[card]
    if f.cost > p.logistics:
        return []
    if f.type == "artillery":
        return [act("play_support", me, card=card, target=t) for t in _artillery_targets(s, p, card)]
    if f.type == "defence" and card in p.defence:
        return []
    if f.effect == "transfer":
        return [act("play_support", me, card=card, character=c, to=to) for c in sorted(set(s.trench))
                for to in PLACES if c not in p.board]
    return [act("play_support", me, card=card)]


def _action_options(s: State, p: Player, me: str | None) -> list[Any]:
    t = s.turn
    assert t is not None
    out = []
    if len(s.decks["characters"]):
        out.append(act("recruit", me))
    out += [act("move", me, card=c, to=to) for c in sorted(p.board) for to in _destinations(p, c)]
    if _can_evacuate(s, p):
        out += [act("evacuate", me, card=c) for c in sorted(set(p.wounded))]
    out.append(act("buy", me))
    if not t.sortied:
        out += [act("sortie", me, drone=d) for d in sorted({d.card for d in p.warehouse})
                if _sortie_problem(s, p, d) is None]
    return out


def _destinations(p: Player, card: str) -> list[str]:
    """Movement: between the Crew and the HQ, or into the Trench."""
    return ["hq" if card in p.crew else "crew", "trench"]


def _can_evacuate(s: State, p: Player) -> bool:
    return bool(_in_crew(s, p, lambda f: f.crew_evacuation) or _active(s, p, "evacuation"))


def _buy_options(s: State, p: Player, me: str | None) -> list[Any]:
    out = []
    full = len(p.warehouse) >= s.cat.board.warehouse
    for card in sorted(set(s.shop)):
        if s.cat.drones[card].cost > p.logistics:
            continue
        if full:  # ruling: warehouse-discard-any
            out += [act("take_drone", me, card=card, discard=d)
                    for d in sorted({card, *(d.card for d in p.warehouse)})]
        else:
            out.append(act("take_drone", me, card=card))
    return [*out, act("decline", me)]


def _attack_options(s: State, p: Player, me: str | None) -> list[Any]:
    t = s.turn
    assert t is not None and t.sortie is not None
    sortie = t.sortie
    out = []
    sure = any(not pr.used for pr in _active(s, p, "guaranteed-hit"))
    for target in sorted(set(s.battlefield)):
        if _target_ok(s, p, sortie.drone, target, sortie) is None:
            out.append(act("attack", me, target=target))
            if sure:
                out.append(act("attack", me, target=target, guaranteed=True))
    if sortie.made or not out:
        out.append(act("end_sortie", me))
    return out


def _extra_action_source(s: State, p: Player) -> str | None:
    return next((c for c in _in_hq(s, p, lambda f: f.hq_extra_action) if _ready(s, p, c)), None)


def _ready(s: State, p: Player, character: str) -> bool:
    """A Character's Effect can be used: it is not face down for the round (or has no such limit)."""
    return not (s.cat.characters[character].once_per_round and character in p.used)


def _free(s: State, p: Player, me: str | None) -> list[Any]:
    if not _free_time(s):
        return []
    out = []
    if not p.exchanged:
        out += [act("exchange_trophy", me, card=c) for c in sorted(set(p.trophies))]
    for card in sorted({pr.card for pr in p.projects if not pr.active}):
        if all(c in p.board for c in s.cat.support[card].requires):
            out.append(act("activate_project", me, card=card))
    if p.wounded:
        for src in _evacuation_sources(s, p):
            out += [act("evacuate_effect", me, source=src, card=c) for c in sorted(set(p.wounded))]
    broken = sorted({d.card for d in p.warehouse if d.broken})
    if broken:
        for src in _repair_sources(s, p):
            out += [act("repair", me, source=src, drone=d) for d in broken]
    return out


def _evacuation_sources(s: State, p: Player) -> list[str]:
    chars = [c for c in _in_crew(s, p, lambda f: f.crew_evacuation) if _ready(s, p, c)]
    projects = sorted({pr.card for pr in _active(s, p, "evacuation") if not pr.used})
    return sorted(chars) + projects


def _repair_sources(s: State, p: Player) -> list[str]:
    chars = [c for c in _in_hq(s, p, lambda f: f.hq_repair) if _ready(s, p, c)]
    projects = sorted({pr.card for pr in _active(s, p, "repair") if not pr.used})
    return sorted(chars) + projects


# ---------------------------------------------------------------------------------------------
# Applying actions


def _who(s: State, action: Any) -> str:
    """The acting player: named, or the only one who may act."""
    if action.player is not None:
        return str(action.player)
    waiting = waiting_on(s)  # by default the player the game waits on acts
    acting = waiting if len(waiting) == 1 else players_to_act(s)
    if len(acting) != 1:
        raise IllegalAction(f"say which player acts (players who may act: {', '.join(acting) or 'none'})")
    return acting[0]


# What a refused action was, in players' words ("Olena cannot play a Support card: ...").
_TRIED = {"play_support": "play a Support card", "discard_support": "discard a Support card",
          "end_move": "end the Movement", "take_drone": "take a drone", "evacuate_effect": "evacuate",
          "activate_project": "activate a Project", "exchange_trophy": "exchange a trophy",
          "extra_action": "take an extra Action", "set_up": "set up", "end_turn": "end the turn",
          "end_sortie": "end the sortie"}


def apply(state: State, action: Any, chance: Chance) -> tuple[State, list[Event]]:
    if state.phase == "over":
        raise IllegalAction("the game is over")
    name = _who(state, action)
    if name not in state.players:
        raise IllegalAction(f"no player {name!r}")
    acting = players_to_act(state)
    canonical = _as_player(action, None if acting == [name] else name)
    if canonical not in legal_actions(state, name):
        full = _as_player(action, name)
        reason = _why_not(state, full) or "it is not one of the legal actions now"
        raise IllegalAction(f"{name} cannot {_TRIED.get(action.do, action.do)}: {reason}",
                            [to_data(a) for a in legal_actions(state)])
    s = copy.deepcopy(state)
    events: list[Event] = []
    HANDLERS[action.do](s, s.p(name), _as_player(action, name), chance, events)
    if s.phase != "over":
        _settle(s, chance, events)
    return s, events


def _settle(s: State, chance: Chance, events: list[Event]) -> None:
    """Automatic steps after an action: forced choices, new threats, the end of the Threat phase, Recovery."""
    _resolve_forced(s, events)
    while s.phase == "threat" and not s.pending and s.result is None:
        everyone = len(s.rolled) == len(s.seats)
        if not s.threats_placed and (s.rules.fog_of_war or everyone):  # ruling: fog-of-war-order
            _place_threats(s, chance, events)  # Fog of War: before the defence rolls
            _resolve_forced(s, events)
            continue
        if everyone:
            _end_threats(s, chance, events)
            continue
        break


def _resolve_forced(s: State, events: list[Event]) -> None:
    """Place hits that leave no choice (one option or none)."""
    i = 0
    while i < len(s.pending) and s.result is None:
        x = s.pending[i]
        p = s.p(x.player)
        options = _pending_options(s, p, x)
        if len(options) <= 1:
            s.pending.pop(i)
            if options:
                _place_hit(s, p, x, options[0], events)
            else:
                events.append(Event("no-effect", {"player": p.name, "hit": x.kind, "source": x.source}))
            continue
        i += 1


def _place_hit(s: State, p: Player, x: Pending, card: str, events: list[Event]) -> None:
    if x.kind == "wound":
        _remove_character(p, card)
        _wound(s, p, card, "crew", events)
    elif x.kind in ("lose-drone", "lose-wing"):
        drone = _pick_drone(p, card, prefer_broken=True)
        p.warehouse.remove(drone)
        s.discards["drones"].append(card)
        events.append(Event("shot-down", {"player": p.name, "drone": card, "by": x.source}))
    else:
        _pick_drone(p, card, prefer_broken=False).broken = True
        events.append(Event("broken", {"player": p.name, "drone": card, "by": x.source}))


def _pick_drone(p: Player, card: str, prefer_broken: bool) -> Drone:
    same = [d for d in p.warehouse if d.card == card]
    same.sort(key=lambda d: d.broken != prefer_broken)
    return same[0]


# --- deal ---


def _do_discard_support(s: State, p: Player, a: Any, chance: Chance, events: list[Event]) -> None:
    if s.phase == "deal":
        p.dealt.remove(a.card)
        s.discards["support"].append(a.card)
        p.hand += p.dealt
        p.dealt = []
        events.append(Event("kept", {"player": p.name, "hand": list(p.hand)}))
        _settle_deal(s)
        return
    p.hand.remove(a.card)
    s.discards["support"].append(a.card)
    events.append(Event("support-discarded", {"player": p.name, "card": a.card}))
    _after_support(s)


def _do_draft(s: State, p: Player, a: Any, chance: Chance, events: list[Event]) -> None:
    p.dealt.remove(a.card)
    p.hand.append(a.card)
    p.picked = True
    events.append(Event("drafted", {"player": p.name, "card": a.card}))
    holders = [q for q in s.players.values() if q.dealt or q.picked]
    if all(q.picked for q in holders):
        if any(len(q.dealt) > 1 for q in holders):
            packets = {n: s.p(n).dealt for n in s.seats}
            for n in s.seats:  # each packet goes to the player on the left
                s.p(_left_of(s, n)).dealt = packets[n]
        for q in s.players.values():  # the last card of a packet is discarded where it is
            q.picked = False
        _settle_deal(s)


# --- management: the Support card ---


def _after_support(s: State) -> None:
    if s.turn is not None:  # None when the card ended the game (a Transfer Order emptying the Trench)
        s.turn.step = "action"


def _do_play_support(s: State, p: Player, a: Any, chance: Chance, events: list[Event]) -> None:
    f = s.cat.support[a.card]
    p.hand.remove(a.card)
    _gain(s, p, -f.cost, f"played {a.card}", events)
    events.append(Event("support-played", {"player": p.name, "card": a.card, "type": f.type}))
    assert s.turn is not None
    if f.type == "project":
        p.projects.append(Project(a.card))
    elif f.type == "defence":
        p.defence.append(a.card)
    elif f.type == "artillery":
        _artillery(s, p, a.card, a.target, chance, events)  # ruling: artillery-timing
        s.discards["support"].append(a.card)
    else:
        s.turn.bonus.append(a.card)
        if f.effect == "logistics":
            _gain(s, p, f.value, a.card, events)
        elif f.effect == "transfer":
            s.trench.remove(a.character)
            getattr(p, a.to).append(a.character)
            events.append(Event("transferred", {"player": p.name, "card": a.character, "to": a.to}))
            _check_defeat(s, events)
    _after_support(s)


def _artillery(s: State, p: Player, card: str, target: str, chance: Chance, events: list[Event]) -> None:
    f = s.cat.support[card]
    mod = artillery_modifier(s)
    die = chance.choice("artillery die", D6)
    rolls = [die]
    hit = artillery_hits(die, f.to_hit, mod)
    if not hit and has_correction(s, p):  # ruling: artillery-correction-reroll
        die = chance.choice("artillery re-roll", D6)
        rolls.append(die)
        hit = artillery_hits(die, f.to_hit, mod)
    events.append(Event("artillery", {"player": p.name, "card": card, "target": target, "rolls": rolls,
                                      "modifier": mod, "needed": f.to_hit, "hit": hit}))
    if hit:
        _take_trophy(s, p, target, events)


def _take_trophy(s: State, p: Player, target: str, events: list[Event]) -> None:
    s.battlefield.remove(target)
    p.trophies.append(target)
    s.hits += 1
    events.append(Event("trophy", {"player": p.name, "card": target}))


# --- management: the Action ---


def _use_action(s: State) -> Turn:
    t = s.turn
    assert t is not None
    t.actions -= 1
    return t


def _action_done(s: State) -> None:
    t = s.turn
    assert t is not None
    t.mode = None
    t.step = "done"


def _do_recruit(s: State, p: Player, a: Any, chance: Chance, events: list[Event]) -> None:
    t = _use_action(s)
    k = max([RECRUIT_DRAW, *(s.cat.characters[c].hq_recruit_choice for c in p.hq)])
    t.recruit = s.decks["characters"].draw("character draw", chance, k)
    t.mode = "recruit"
    events.append(Event("recruit-drawn", {"player": p.name, "cards": list(t.recruit)}))


def _do_place(s: State, p: Player, a: Any, chance: Chance, events: list[Event]) -> None:
    t = s.turn
    assert t is not None
    rest = list(t.recruit)
    rest.remove(a.card)
    if a.to == "trench":
        s.trench.append(a.card)  # the Trench is face down: a new Character goes underneath
    else:
        getattr(p, a.to).append(a.card)
    _to_character_bottom(s, rest)  # ruling: recruit-leftovers
    events.append(Event("recruited", {"player": p.name, "card": a.card, "to": a.to, "to_bottom": rest}))
    t.recruit = []
    _action_done(s)


def _do_move(s: State, p: Player, a: Any, chance: Chance, events: list[Event]) -> None:
    t = s.turn
    assert t is not None
    if t.mode != "move":
        _use_action(s)
        t.mode = "move"
    _remove_character_keep_used(p, a.card)
    if a.to == "trench":
        s.trench.append(a.card)
        if a.card in p.used:
            p.used.remove(a.card)
    else:
        getattr(p, a.to).append(a.card)
    t.moved.append(a.card)  # ruling: movement-each-once
    events.append(Event("moved", {"player": p.name, "card": a.card, "to": a.to}))


def _remove_character_keep_used(p: Player, card: str) -> None:
    (p.crew if card in p.crew else p.hq).remove(card)


def _do_end_move(s: State, p: Player, a: Any, chance: Chance, events: list[Event]) -> None:
    assert s.turn is not None
    s.turn.moved = []
    _action_done(s)


def _do_evacuate(s: State, p: Player, a: Any, chance: Chance, events: list[Event]) -> None:
    _use_action(s)
    _evacuate(s, p, a.card, "action", events)
    _action_done(s)


def _evacuate(s: State, p: Player, card: str, how: str, events: list[Event]) -> None:
    p.wounded.remove(card)
    _to_character_bottom(s, [card])
    events.append(Event("evacuated", {"player": p.name, "card": card, "by": how}))


def _do_buy(s: State, p: Player, a: Any, chance: Chance, events: list[Event]) -> None:
    t = _use_action(s)
    revealed = _draw(s, "drones", "drone draw", chance)
    s.shop += revealed  # ruling: drone-shop-grows
    events.append(Event("shop-revealed", {"cards": revealed}))
    t.mode = "buy"


def _do_take_drone(s: State, p: Player, a: Any, chance: Chance, events: list[Event]) -> None:
    s.shop.remove(a.card)
    _gain(s, p, -s.cat.drones[a.card].cost, f"bought {a.card}", events)
    p.warehouse.append(Drone(a.card))
    if a.discard is not None:  # ruling: warehouse-discard-any
        old = _pick_drone(p, a.discard, prefer_broken=True)
        p.warehouse.remove(old)
        s.discards["drones"].append(a.discard)
        events.append(Event("drone-discarded", {"player": p.name, "drone": a.discard, "why": "Warehouse limit"}))
    refill = _draw(s, "drones", "drone draw", chance)
    s.shop += refill
    events.append(Event("bought", {"player": p.name, "drone": a.card, "refill": refill}))
    _action_done(s)


def _do_decline(s: State, p: Player, a: Any, chance: Chance, events: list[Event]) -> None:
    events.append(Event("declined", {"player": p.name}))
    _action_done(s)


def _do_sortie(s: State, p: Player, a: Any, chance: Chance, events: list[Event]) -> None:
    t = _use_action(s)
    f = s.cat.drones[a.drone]
    t.mode, t.sortied = "sortie", True
    t.sortie = Sortie(a.drone, f.attacks, f.drone_attacks)
    events.append(Event("sortie", {"player": p.name, "drone": a.drone}))


def _do_attack(s: State, p: Player, a: Any, chance: Chance, events: list[Event]) -> None:
    t = s.turn
    assert t is not None and t.sortie is not None
    sortie, f = t.sortie, s.cat.drones[t.sortie.drone]
    target = s.cat.threats[a.target]
    if target.kind == "drone":
        sortie.drone_attacks -= 1
    else:
        sortie.attacks -= 1
    sortie.made += 1  # ruling: sortie-attacks
    record: dict[str, Any] = {"player": p.name, "drone": sortie.drone, "target": a.target, "needed": f.to_hit}
    broke = False
    if a.guaranteed:
        project = next(pr for pr in _active(s, p, "guaranteed-hit") if not pr.used)
        project.used = s.cat.support[project.card].once_per_round
        hit = True
        record.update({"die": None, "modifiers": {}, "total": None, "guaranteed": project.card, "hit": True})
    else:
        die = chance.choice("attack die", D6)
        mods = attack_modifiers(s, p, sortie.drone, a.target)
        total = die + sum(v for _, v in mods)
        hit = attack_hits(die, total - die, f.to_hit or 0)
        broke = breaks_down(die, f.breakdown)  # ruling: red-die-breakdown
        record.update({"die": die, "modifiers": dict(_merge(mods)), "total": total, "guaranteed": None, "hit": hit})
    record["breakdown"] = broke
    events.append(Event("attack", record))
    if hit:
        _take_trophy(s, p, a.target, events)
        for c in _in_crew(s, p, lambda cf: cf.crew_logistics_per_hit):
            _gain(s, p, s.cat.characters[c].crew_logistics_per_hit, c, events)
    if broke:
        _pick_drone(p, sortie.drone, prefer_broken=False).broken = True
        events.append(Event("broken", {"player": p.name, "drone": sortie.drone, "by": "breakdown"}))
        _end_sortie(s, p, events)
    elif not _attack_options_left(s, p):
        _end_sortie(s, p, events)


def _merge(mods: list[tuple[str, int]]) -> list[tuple[str, int]]:
    out: dict[str, int] = {}
    for label, v in mods:
        out[label] = out.get(label, 0) + v
    return list(out.items())


def _attack_options_left(s: State, p: Player) -> bool:
    t = s.turn
    assert t is not None and t.sortie is not None
    return any(_target_ok(s, p, t.sortie.drone, x, t.sortie) is None for x in set(s.battlefield))


def _do_end_sortie(s: State, p: Player, a: Any, chance: Chance, events: list[Event]) -> None:
    _end_sortie(s, p, events)


def _end_sortie(s: State, p: Player, events: list[Event]) -> None:
    t = s.turn
    assert t is not None and t.sortie is not None
    drone = t.sortie.drone
    if s.cat.drones[drone].kamikaze:  # ruling: kamikaze-after-sortie
        p.warehouse.remove(_pick_drone(p, drone, prefer_broken=False))
        s.discards["drones"].append(drone)
        events.append(Event("drone-discarded", {"player": p.name, "drone": drone, "why": "kamikaze"}))
    events.append(Event("sortie-over", {"player": p.name, "drone": drone}))
    t.sortie = None
    _action_done(s)


def _do_extra_action(s: State, p: Player, a: Any, chance: Chance, events: list[Event]) -> None:
    source = _extra_action_source(s, p)
    assert source is not None and s.turn is not None
    p.used.append(source)
    s.turn.actions += 1
    s.turn.step = "action"
    events.append(Event("extra-action", {"player": p.name, "by": source}))


def _do_end_turn(s: State, p: Player, a: Any, chance: Chance, events: list[Event]) -> None:
    t = s.turn
    assert t is not None
    s.discards["support"] += t.bonus  # Bonus cards are discarded at the end of the turn they were played
    events.append(Event("turn-over", {"player": p.name}))
    _next_turn(s, p.name)


# --- free actions ---


def _do_exchange_trophy(s: State, p: Player, a: Any, chance: Chance, events: list[Event]) -> None:
    p.trophies.remove(a.card)
    s.discards["threats"].append(a.card)
    p.exchanged = True
    bonus = sum(s.cat.characters[c].hq_trophy_bonus for c in p.hq)
    bonus += sum(s.cat.support[pr.card].value for pr in _active(s, p, "trophy-bonus"))
    _gain(s, p, trophy_logistics(s.cat.threats[a.card].trophy) + bonus, f"trophy {a.card}", events)
    events.append(Event("trophy-exchanged", {"player": p.name, "card": a.card}))


def _do_activate_project(s: State, p: Player, a: Any, chance: Chance, events: list[Event]) -> None:
    project = next(pr for pr in p.projects if pr.card == a.card and not pr.active)
    needs = s.cat.support[a.card].requires
    for c in needs:  # ruling: activation-face-down-characters
        _remove_character(p, c)
    _to_character_bottom(s, needs)
    project.active = True
    events.append(Event("project-activated", {"player": p.name, "card": a.card, "discarded": list(needs)}))
    if activated_total(s) >= PROJECTS_PER_PLAYER * len(s.seats):  # ruling: technologies-win-at-once
        _end(s, "won", "technologies", events)


def _do_evacuate_effect(s: State, p: Player, a: Any, chance: Chance, events: list[Event]) -> None:
    _spend_effect(s, p, a.source)
    _evacuate(s, p, a.card, a.source, events)


def _do_repair(s: State, p: Player, a: Any, chance: Chance, events: list[Event]) -> None:
    _spend_effect(s, p, a.source)
    _pick_drone(p, a.drone, prefer_broken=True).broken = False
    events.append(Event("repaired", {"player": p.name, "drone": a.drone, "by": a.source}))


def _spend_effect(s: State, p: Player, source: str) -> None:  # ruling: once-per-round-effects
    if source in s.cat.characters:
        if s.cat.characters[source].once_per_round:
            p.used.append(source)
        return
    project = next(pr for pr in p.projects if pr.card == source and pr.active and not pr.used)
    if s.cat.support[source].once_per_round:
        project.used = True


# --- the Threat phase ---


def _start_threats(s: State) -> None:
    s.phase = "threat"
    s.rolled = []
    s.threats_placed = False


def _do_defend(s: State, p: Player, a: Any, chance: Chance, events: list[Event]) -> None:
    die = chance.choice("defence die", D6)
    s.rolled.append(p.name)
    hit = [c for c in s.battlefield if activates(die, s.cat.threats[c].activation)]
    events.append(Event("defence", {"player": p.name, "die": die, "activated": hit}))
    for card in hit:
        _resolve_enemy(s, card, p.name, events)
        if s.result is not None:
            return


def _resolve_enemy(s: State, card: str, roller: str, events: list[Event]) -> None:
    f = s.cat.threats[card]
    for name in (s.seats if f.affects == "all" else [roller]):  # ruling: threat-player-count
        p = s.p(name)
        if f.kind == "drone" and "ew" in _defence_effects(s, p):
            events.append(Event("cancelled", {"player": name, "card": card, "by": "ew"}))
            continue
        for _ in range(f.trench):
            if s.trench:
                _wound(s, p, s.trench.pop(0), "trench", events)  # ruling: trench-face-down
            if s.result is not None:
                return
        _queue(s, p, "wound", f.crew, card, "bunker", events)
        _queue(s, p, "lose-drone", f.drones, card, "ew", events)
        _queue(s, p, "lose-wing", f.wing, card, "ew", events)
        _queue(s, p, "break-drone", f.break_drones, card, "ew", events)
        if f.logistics:
            _gain(s, p, f.logistics, card, events)


def _queue(s: State, p: Player, kind: Any, n: int, source: str, shield: str, events: list[Event]) -> None:
    if not n:
        return
    if shield in _defence_effects(s, p):
        events.append(Event("cancelled", {"player": p.name, "card": source, "by": shield}))
        return
    s.pending += [Pending(p.name, kind, source) for _ in range(n)]


def _defence_effects(s: State, p: Player) -> set[str]:  # ruling: defence-cards-effects
    return {s.cat.support[c].effect for c in p.defence}


def _do_choose(s: State, p: Player, a: Any, chance: Chance, events: list[Event]) -> None:
    x = next(x for x in s.pending if x.player == p.name)
    s.pending.remove(x)
    _place_hit(s, p, x, a.card, events)


def _place_threats(s: State, chance: Chance, events: list[Event]) -> None:
    """New Threat cards: enemies onto the field, Mishaps dealt round the table from the ODO."""
    per = HORDE_PER_PLAYER if s.rules.horde else THREATS_PER_PLAYER
    drawn = _draw(s, "threats", "threat draw", chance, per * len(s.seats))
    s.threats_placed = True
    order = _from_odo(s)
    k = 0
    for card in drawn:
        f = s.cat.threats[card]
        if f.kind != "mishap":
            s.battlefield.append(card)
            continue
        p = s.p(order[k % len(order)])  # ruling: mishaps-round-the-table
        k += 1
        events.append(Event("mishap", {"player": p.name, "card": card}))
        if f.logistics:
            _gain(s, p, f.logistics, card, events)
        s.pending += [Pending(p.name, "break-drone", card) for _ in range(f.break_drones)]
        s.pending += [Pending(p.name, "wound", card) for _ in range(f.crew)]
        s.discards["threats"].append(card)
    events.append(Event("threats-placed", {"cards": drawn}))


def _end_threats(s: State, chance: Chance, events: list[Event]) -> None:
    s.odo = _left_of(s, s.odo)
    events.append(Event("token-passed", {"to": s.odo}))
    if s.round >= s.rules.rounds:  # ruling: rotation-end
        _end(s, "won", "rotation", events)
        return
    _recovery(s, chance, events)


def _recovery(s: State, chance: Chance, events: list[Event]) -> None:
    for p in s.players.values():
        s.discards["support"] += p.defence
        p.defence = []
        _gain(s, p, len(p.hq), "HQ", events)  # ruling: hq-logistics-timing
        p.used = []
        p.exchanged = False
        for pr in p.projects:
            pr.used = False
    s.round += 1
    s.rolled = []
    s.threats_placed = False
    events.append(Event("recovery", {"round": s.round}))
    _deal(s, chance)


def _do_set_up(s: State, p: Player, a: Any, chance: Chance, events: list[Event]) -> None:
    _set_up(s, chance, events)


HANDLERS = {
    "set_up": _do_set_up,
    "play_support": _do_play_support, "discard_support": _do_discard_support, "draft": _do_draft,
    "recruit": _do_recruit, "place": _do_place, "move": _do_move, "end_move": _do_end_move,
    "evacuate": _do_evacuate, "buy": _do_buy, "take_drone": _do_take_drone, "decline": _do_decline,
    "sortie": _do_sortie, "attack": _do_attack, "end_sortie": _do_end_sortie, "extra_action": _do_extra_action,
    "end_turn": _do_end_turn, "exchange_trophy": _do_exchange_trophy, "activate_project": _do_activate_project,
    "evacuate_effect": _do_evacuate_effect, "repair": _do_repair, "defend": _do_defend, "choose": _do_choose,
}


# ---------------------------------------------------------------------------------------------
# Why an action is refused (players' words)


def _why_not(s: State, a: Any) -> str | None:
    p = s.p(a.player)
    if a.player not in players_to_act(s):
        if s.pending and a.do in FREE:
            return "first the hits just taken are placed (free actions wait until then)"
        return "it is not their turn to act"
    if a.player not in waiting_on(s) and a.do not in FREE:
        if s.pending:
            return "first the hits just taken are placed"
        return "it is not their turn: between turns a player takes only free actions"
    if any(x.player == p.name for x in s.pending) and a.do != "choose":
        return "first place the hit they took (choose)"
    t = s.turn
    kind = a.do
    if kind in FREE:
        if s.pending:
            return "first the hits just taken are placed (free actions wait until then)"
        return _why_not_free(s, p, a)
    if kind in ("play_support", "discard_support"):
        if s.phase == "management" and t is not None and t.step != "support":
            return "one Support card per turn, before the Action"
        if a.card not in (p.dealt if s.phase == "deal" else p.hand):
            return f"{s.cat.title(a.card)} is not in their hand"
        if kind == "play_support":
            return _why_not_play(s, p, a)
        return None
    if t is not None and t.step == "support" and kind in ("recruit", "move", "evacuate", "buy", "sortie"):
        return "first play or discard a Support card"
    if t is not None and t.step == "done" and kind in ("recruit", "move", "evacuate", "buy", "sortie"):
        return "one Action per turn (a Commander in the HQ gives one more, once per round)"
    if kind == "place" and t is not None and t.mode == "recruit":
        if a.card not in t.recruit:
            return f"{s.cat.title(a.card)} is not among the Characters drawn"
        if a.card in p.board:
            return "a player may not have two identical Characters"
    if kind == "move":
        return _why_not_move(s, p, a)
    if kind == "evacuate":
        if a.card not in p.wounded:
            return f"{s.cat.title(a.card)} is not wounded"
        if not _can_evacuate(s, p):
            return "Evacuation needs a Medic in the Crew or an activated Aid Station"
    if kind == "take_drone":
        return _why_not_take(s, p, a)
    if kind == "sortie":
        if t is not None and t.sortied:
            return "attacks may be made with only one drone per turn"
        return _sortie_problem(s, p, a.drone)
    if kind == "attack" and t is not None and t.sortie is not None:
        if a.guaranteed and not any(not pr.used for pr in _active(s, p, "guaranteed-hit")):
            return "no activated, face-up Project guarantees a hit"
        return _target_ok(s, p, t.sortie.drone, a.target, t.sortie)
    if kind == "end_sortie" and t is not None and t.sortie is not None and not t.sortie.made:
        return "a sortie makes at least one attack"
    if kind == "extra_action":
        return "no Commander in the HQ with an unused Effect this round, or the Action is not taken yet"
    return None


def _why_not_play(s: State, p: Player, a: Any) -> str | None:
    f = s.cat.support[a.card]
    if f.cost > p.logistics:
        return f"{s.cat.title(a.card)} costs {f.cost} Logistics; {p.name} has {p.logistics}"
    if f.type == "defence" and a.card in p.defence:
        return "a player may not have two identical Defence cards"
    if f.type == "artillery":
        if a.target not in s.battlefield:
            return "name an enemy on the field as the target"
        t = s.cat.threats[a.target]
        if t.kind != "enemy":
            return "Artillery attacks ground targets, not enemy drones"
        if t.distance > f.distance:
            return f"{s.cat.title(a.card)} reaches distance {f.distance}"
        if not _reconned(s, p, a.target):
            return f"Artillery needs Reconnaissance at distance {t.distance}; {p.name} has it at distance {recon(s, p)}"
    if f.effect == "transfer":
        if a.character not in s.trench:
            return "name a Character in the Trench"
        if a.character in p.board:
            return "a player may not have two identical Characters"
    return None


def _why_not_move(s: State, p: Player, a: Any) -> str | None:
    if a.card in s.trench and a.card not in p.board:
        return "Characters never leave the Trench by Movement (only a Transfer Order moves them)"
    if a.card not in p.board:
        return f"{s.cat.title(a.card)} is not in their Crew or HQ"
    t = s.turn
    if t is not None and a.card in t.moved:
        return f"{s.cat.title(a.card)} has already moved in this Movement"
    if (a.to == "crew" and a.card in p.crew) or (a.to == "hq" and a.card in p.hq):
        return f"{s.cat.title(a.card)} is already there"
    return None


def _why_not_take(s: State, p: Player, a: Any) -> str | None:
    if a.card not in s.shop:
        return f"{s.cat.title(a.card)} is not in the Drone Shop"
    cost = s.cat.drones[a.card].cost
    if cost > p.logistics:
        return f"{s.cat.title(a.card)} costs {cost} Logistics; {p.name} has {p.logistics}"
    full = len(p.warehouse) >= s.cat.board.warehouse
    if full and a.discard is None:
        return f"the Warehouse holds {s.cat.board.warehouse} drones: name one to discard"
    if not full and a.discard is not None:
        return "the Warehouse has room; nothing is discarded"
    if a.discard is not None and a.discard != a.card and all(d.card != a.discard for d in p.warehouse):
        return f"no {s.cat.title(a.discard)} in the Warehouse, nor is it the drone bought"
    return None


def _why_not_free(s: State, p: Player, a: Any) -> str | None:
    if a.do == "exchange_trophy":
        if a.card not in p.trophies:
            return f"{s.cat.title(a.card)} is not one of their trophies"
        if p.exchanged:
            return "each player may exchange only one trophy per round"
    if a.do == "activate_project":
        open_ = [pr for pr in p.projects if pr.card == a.card and not pr.active]
        if not open_:
            return f"no open {s.cat.title(a.card)} Project"
        missing = [c for c in s.cat.support[a.card].requires if c not in p.board]
        if missing:
            return "activation discards " + ", ".join(s.cat.title(c) for c in missing) + " from the Crew or HQ"
    if a.do == "evacuate_effect":
        if a.card not in p.wounded:
            return f"{s.cat.title(a.card)} is not wounded"
        if a.source not in _evacuation_sources(s, p):
            return f"{s.cat.title(a.source)} gives no Evacuation now (once per round, from the Crew or activated)"
    if a.do == "repair":
        if a.source not in _repair_sources(s, p):
            return f"{s.cat.title(a.source)} repairs no drone now (once per round, from the HQ or activated)"
        if not any(d.card == a.drone and d.broken for d in p.warehouse):
            return f"no broken {s.cat.title(a.drone)}"
    return None


# ---------------------------------------------------------------------------------------------
# Outcome, result, words


def outcome(s: State, events: list[Event]) -> dict[str, Any]:
    players = [s.p(n) for n in s.seats]
    t = s.turn
    over = s.phase == "over"
    return {
        "round": s.round,
        "phase": s.phase,
        "turn": t.player if t else None,
        "step": t.step if t else None,
        "mode": t.mode if t else None,
        "odo": s.odo,
        "acting": waiting_on(s),
        "logistics": {p.name: p.logistics for p in players},
        "crew": {p.name: list(p.crew) for p in players},
        "hq": {p.name: list(p.hq) for p in players},
        "warehouse": {p.name: [d.label() for d in p.warehouse] for p in players},
        "hand": {p.name: sorted(p.hand) for p in players},
        "dealt": {p.name: sorted(p.dealt) for p in players},
        "projects": {p.name: [pr.card for pr in p.projects if not pr.active] for p in players},
        "activated": {p.name: [pr.label() for pr in p.projects if pr.active] for p in players},
        "defence": {p.name: list(p.defence) for p in players},
        "trophies": {p.name: list(p.trophies) for p in players},
        "wounded": {p.name: list(p.wounded) for p in players},
        "used": {p.name: list(p.used) for p in players},
        "exchanged": {p.name: p.exchanged for p in players},
        "reconnaissance": {p.name: recon(s, p) for p in players},
        "ammunition": {p.name: has_ammunition(s, p) for p in players},
        "trench": list(s.trench),
        "trench_size": len(s.trench),
        "shop": list(s.shop),
        "field": {"first_line": [c for c in s.battlefield if s.cat.threats[c].distance == 1],
                  "second_line": [c for c in s.battlefield if s.cat.threats[c].distance == 2]},
        "decks": {d: len(s.decks[d]) for d in DECKS},
        "character_deck_bottom": list(s.decks["characters"].bottom),
        "discards": {k: list(v) for k, v in s.discards.items()},
        "bonus": list(t.bonus) if t else [],
        "sortie": None if not (t and t.sortie) else {"drone": t.sortie.drone, "attacks_left": t.sortie.attacks,
                                                      "drone_attacks_left": t.sortie.drone_attacks},
        "recruit_choices": list(t.recruit) if t else [],
        "pending": [{"player": x.player, "hit": x.kind, "source": x.source} for x in s.pending],
        "rolled": list(s.rolled),
        "threats_placed": s.threats_placed,
        "activated_projects": activated_total(s),
        "result": s.result,
        "how": s.how,
        "points": {p.name: points(s, p) for p in players},
        "winners": winners(s) if over and s.result == "won" else [],
        "can": sorted({a.do for n in waiting_on(s) for a in legal_actions(s, n)}),
        **_event_summary(events),
    }


def _event_summary(events: list[Event]) -> dict[str, Any]:
    attacks = [{k: v for k, v in e.data.items() if k != "player"} for e in events if e.kind == "attack"]
    return {
        "events": [e.kind for e in events],
        "attacks": attacks,
        "artillery": [{k: v for k, v in e.data.items() if k != "player"} for e in events if e.kind == "artillery"],
        "defence_rolls": [{"player": e.data["player"], "die": e.data["die"], "activated": e.data["activated"]}
                          for e in events if e.kind == "defence"],
        "wounds": [f"{e.data['player']}: {e.data['card']} ({e.data['from']})" for e in events if e.kind == "wound"],
        "logistics_changes": [f"{e.data['player']} {e.data['change']:+d} ({e.data['why']})"
                              for e in events if e.kind == "logistics"],
        "cancelled": [f"{e.data['player']}: {e.data['card']} ({e.data['by']})" for e in events
                      if e.kind == "cancelled"],
        "mishaps": [f"{e.data['player']}: {e.data['card']}" for e in events if e.kind == "mishap"],
    }


def result(s: State) -> dict[str, Any]:
    players = list(s.players.values())
    return {
        "result": f"{s.result or 'unfinished'} ({s.how})" if s.how else (s.result or "unfinished"),
        "rounds": s.round,
        "enemies_hit": s.hits,
        "activated_projects": activated_total(s),
        "wounded": sum(len(p.wounded) for p in players),
        "best_points": max(points(s, p) for p in players),
    }


def describe_action(a: Any, name: Callable[[str], str]) -> str:
    """An action in players' words: cards by the titles `name` gives (the content's printed ones)."""

    def _t(card: str | None) -> str:
        return name(card or "")

    who = f"{a.player}: " if a.player else ""
    words = {
        "play_support": lambda: f"play {_t(a.card)}" + (f" at the {_t(a.target)}" if a.target else "")
        + (f", moving {_t(a.character)} from the Trench to the {a.to.upper() if a.to == 'hq' else a.to}"
           if a.character else ""),
        "discard_support": lambda: f"discard {_t(a.card)}",
        "draft": lambda: f"keep {_t(a.card)} from the draft",
        "recruit": lambda: "Recruiting: draw Characters",
        "place": lambda: f"place {_t(a.card)} in the {'HQ' if a.to == 'hq' else a.to.title()}",
        "move": lambda: f"move {_t(a.card)} to the {'HQ' if a.to == 'hq' else a.to.title()}",
        "end_move": lambda: "end the Movement",
        "evacuate": lambda: f"Evacuation: {_t(a.card)} leaves",
        "buy": lambda: "Buying a drone: reveal one more",
        "take_drone": lambda: f"buy the {_t(a.card)}" + (f", discarding the {_t(a.discard)}" if a.discard else ""),
        "decline": lambda: "buy nothing",
        "sortie": lambda: f"combat sortie with the {_t(a.drone)}",
        "attack": lambda: f"attack the {_t(a.target)}" + (" (guaranteed hit)" if a.guaranteed else ""),
        "end_sortie": lambda: "end the sortie",
        "extra_action": lambda: "take an extra Action (Commander)",
        "end_turn": lambda: "end the turn",
        "exchange_trophy": lambda: f"exchange the {_t(a.card)} trophy for Logistics",
        "activate_project": lambda: f"activate the {_t(a.card)} Project",
        "evacuate_effect": lambda: f"{_t(a.source)} evacuates {_t(a.card)}",
        "repair": lambda: f"{_t(a.source)} repairs the {_t(a.drone)}",
        "defend": lambda: "roll the defence die",
        "choose": lambda: f"the hit falls on {_t(a.card)}",
        "set_up": lambda: "set up the game (Operations Duty Officer)",
    }
    return who + words[a.do]()


def describe_end(s: State, name: Callable[[str], str]) -> str:
    """Each player's Logistics and wounded, the threats left on the field, and the result."""
    parts = []
    for p in (s.p(n) for n in s.seats):
        hurt = f", {', '.join(name(c) for c in p.wounded)} wounded" if p.wounded else ""
        parts.append(f"{p.name} has {p.logistics} Logistics{hurt}")
    field_cards = [name(c) for c in s.battlefield]
    parts.append(f"on the field: {', '.join(field_cards)}" if field_cards else "the field is clear")
    if s.result is not None:
        parts.append(f"the players have {s.result}" + (f" ({_HOW.get(s.how or '', s.how)})" if s.how else ""))
    return "; ".join(parts) + "."


_DEALT = {"drone draw": "reveals {} from the Drone deck", "random start character": "the random starting Character: {}",
          "random start drone": "the random starting drone: {}", "trench": "dealt to the Trench: {}",
          "drone shop": "dealt to the Shop: {}", "starting field": "dealt to the field: {}",
          "support deal": "Support cards dealt: {}"}
_HOW = {"trench": "the Trench is full", "wounded": "too many wounded", "technologies": "technologies",
        "rotation": "rotation"}


# ---------------------------------------------------------------------------------------------
# Drawing

PLAYER_COLOURS = ("#2e6da4", "#b9770e", "#1e8449", "#8e44ad")


FIELD_LINES = ((2, 40, "the second line"), (1, 82, "the first line"))  # distance, top, players' words


def pieces(s: State) -> list[draw.Piece]:
    """The enemies and drones on the field, in pixels of the drawing (the tableau is drawn whole:
    the players' panels under the field are where most of a turn happens)."""
    out = []
    for distance, top, words in FIELD_LINES:
        cards = [c for c in s.battlefield if s.cat.threats[c].distance == distance]
        for j, card in enumerate(cards[:7]):
            kind = "threat-drone" if s.cat.threats[card].kind == "drone" else "threat"
            out.append(draw.Piece(card, kind, f"the {_short(s, card)}", words, 10 + j * 132 + 64, top + 27, 14))
    return out


def legend() -> list[draw.Swatch]:
    def card(fill: str, width: float) -> Any:
        def paint(svg: draw.Svg, cx: float, cy: float, n: float) -> None:
            svg.rect(2, cy - 9, n - 4, 18, fill, draw.COLORS["enemy"], rx=3, width=width)
        return paint

    return [draw.swatch("threat", "an enemy on the field: name · activation · ⚑ trophy", card("#fbeaea", 1)),
            draw.swatch("threat-drone", "an enemy drone on the field (lilac)", card("#f3e5f5", 1)),
            draw.swatch("threat-red", "thick border: a red-triangle enemy", card("#fbeaea", 2.5))]


def draw_svg(s: State, focus: draw.Focus | None = None) -> str:
    width = 960
    height = 190 + 118 * len(s.seats)
    svg = draw.Svg(width, height, f"Дроноводи: round {s.round}, {s.phase}")
    svg.rect(0, 0, width, height, draw.COLORS["paper"])
    turn = f" · turn: {s.turn.player} ({s.turn.mode or s.turn.step})" if s.turn else ""
    head = f"Round {s.round} of {s.rules.rounds} · {s.phase}{turn} · Duty Officer: {s.odo}"
    if s.result:
        head += f" · {s.result.upper()} ({s.how})"
    svg.text(10, 20, head, size=14, anchor="start", weight="bold")
    _cards_row(svg, s, 10, 40, "Field, second line (distance 2)",
               [c for c in s.battlefield if s.cat.threats[c].distance == 2], draw.COLORS["enemy"])
    _cards_row(svg, s, 10, 82, "Field, first line (distance 1)",
               [c for c in s.battlefield if s.cat.threats[c].distance == 1], draw.COLORS["enemy"])
    svg.text(10, 140, f"Trench: {len(s.trench)} Character(s) face down · Drone Shop: "
             + (", ".join(_short(s, c) for c in s.shop) or "empty"), size=11, anchor="start")
    decks = " · ".join(f"{d} {len(s.decks[d])}" for d in DECKS)
    svg.text(10, 158, f"Decks: {decks}", size=10, anchor="start", fill="#555555")
    for i, n in enumerate(s.seats):
        _player_panel(svg, s, s.p(n), 10, 172 + 118 * i, PLAYER_COLOURS[i % len(PLAYER_COLOURS)])
    draw.overlay(svg, focus, lambda p: p, 1.0)
    return svg.render()


def _short(s: State, card: str) -> str:
    return s.cat.title(card)


def _cards_row(svg: draw.Svg, s: State, x: float, y: float, label: str, cards: list[str], colour: str) -> None:
    """A line of the field: each enemy with its activation value (die) and trophy flag."""
    svg.text(x, y + 10, label, size=11, anchor="start", fill="#555555")
    for j, card in enumerate(cards[:7]):
        f = s.cat.threats[card]
        cx = x + j * 132
        fill = "#f3e5f5" if f.kind == "drone" else "#fbeaea"
        svg.rect(cx, y + 14, 128, 26, fill, colour, rx=3, width=2 if f.red_triangle else 1)
        svg.text(cx + 64, y + 31, f"{_short(s, card)[:15]} · {f.activation} · ⚑{f.trophy}", size=10)
    if len(cards) > 7:
        svg.text(x + 7 * 132 + 4, y + 31, f"+{len(cards) - 7}", size=11, anchor="start")


def _player_panel(svg: draw.Svg, s: State, p: Player, x: float, y: float, colour: str) -> None:
    svg.rect(x, y, 940, 110, "#ffffff", colour, rx=4, width=2)
    svg.text(x + 8, y + 18, f"{p.name} · Logistics {p.logistics} · points {points(s, p)}", size=12, anchor="start",
             fill=colour, weight="bold")
    lines = [
        "Crew: " + (", ".join(_short(s, c) + (" (used)" if c in p.used else "") for c in p.crew) or "—"),
        "HQ: " + (", ".join(_short(s, c) + (" (used)" if c in p.used else "") for c in p.hq) or "—"),
        "Warehouse: " + (", ".join(_short(s, d.card) + (" (broken)" if d.broken else "") for d in p.warehouse) or "—"),
        "Projects: " + (", ".join(_short(s, pr.card) + (" [activated" + (", face down]" if pr.used else "]")
                                                        if pr.active else " [open]") for pr in p.projects) or "—")
        + " · Defence: " + (", ".join(_short(s, c) for c in p.defence) or "—"),
        f"Hand: {len(p.hand)} · Trophies: " + (", ".join(_short(s, c) for c in p.trophies) or "—")
        + " · Wounded: " + (", ".join(_short(s, c) for c in p.wounded) or "—"),
    ]
    for k, line in enumerate(lines):
        svg.text(x + 8, y + 36 + 16 * k, line, size=11, anchor="start")


# ---------------------------------------------------------------------------------------------
# Exact odds


def _p(f: Fraction) -> dict[str, str]:
    frac = str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"
    return {"fraction": frac, "percent": f"{float(f) * 100:.1f}%"}


def _chance(pred: Any) -> Fraction:
    return Fraction(sum(1 for d in D6 if pred(d)), len(D6))


def _attack_table(to_hit: int) -> dict[str, Any]:
    rows = []
    for mod in range(-3, 4):
        once = _chance(lambda d, m=mod: attack_hits(d, m, to_hit))
        twice = 1 - (1 - once) ** 2
        rows.append([f"{mod:+d}" if mod else "0", _p(once), _p(twice)])
    return {"id": f"drone-attack-{to_hit}", "title": f"One drone attack needing {to_hit}: chance to hit",
            "rule": "attack-procedure",
            "columns": ["modifier to the die", "one roll", "with a re-roll (as Artillery correction gives)"],
            "rows": rows, "means": None}


def _artillery_table() -> dict[str, Any]:
    rows = []
    for to_hit in (2, 3, 4, 5, 6):
        once = _chance(lambda d, n=to_hit: artillery_hits(d, n))
        rows.append([f"{to_hit} or more", _p(once), _p(1 - (1 - once) ** 2)])
    return {"id": "artillery-hit", "title": "An Artillery card's roll: chance to hit", "rule": "artillery-cards",
            "columns": ["the card needs", "no correction", "with Artillery correction (one re-roll)"],
            "rows": rows, "means": None}


def _breakdown_table() -> dict[str, Any]:
    rows = []
    for attacks in (1, 2, 3):
        never = (1 - _chance(lambda d: breaks_down(d, 1))) ** attacks
        rows.append([f"{attacks} attack(s) rolled", _p(1 - never)])
    return {"id": "breakdown", "title": "A reusable drone with the red die on 1: chance it breaks during a sortie",
            "rule": "attack-procedure", "columns": ["sortie", "breaks down"], "rows": rows, "means": None}


def _defence_table() -> dict[str, Any]:
    rows = []
    for k in range(0, 7):
        one = _chance(lambda d, k=k: any(activates(d, v) for v in range(1, k + 1)))
        row: list[Any] = [f"{k} different value(s) on the field", _p(one)]
        for n in (2, 3, 4):
            row.append(_p(1 - (1 - one) ** n))
        rows.append(row)
    return {"id": "defence-activation", "title": "A defence roll activates at least one enemy",
            "rule": "threat-phase",
            "columns": ["activation values present", "one player's roll", "any of 2 players", "any of 3 players",
                        "any of 4 players"], "rows": rows, "means": None}


def odds() -> list[dict[str, Any]]:
    return [*(_attack_table(v) for v in (3, 4, 5, 6)), _breakdown_table(), _artillery_table(), _defence_table()]


# ---------------------------------------------------------------------------------------------
# The engine contract


class Dronovody(Engine):
    type = GameType(name="Дроноводи (Drone Operators)", min_players=1, max_players=MAX_PLAYERS,
                    dynamics="simultaneous", chance="explicit", information="imperfect", utility="cooperative",
                    max_actions=4000)
    setup_spec = SetupSpec
    action_specs = ACTIONS
    options_spec = Options
    facts_specs: ClassVar[Mapping[str, type]] = {
        "player-boards": BoardFacts, "character-cards": CharacterFacts, "drone-cards": DroneFacts,
        "support-cards": SupportFacts, "threat-cards": ThreatFacts}

    def initial_state(self, setup: Any, content: GameContent) -> State:
        return initial_state(setup, catalogue(content))

    def new_game(self, options: Any, content: GameContent, chance: Chance) -> State:
        return new_game(options, catalogue(content), chance)

    def players_to_act(self, state: State) -> list[str]:
        return players_to_act(state)

    def legal_actions(self, state: State, player: str | None = None) -> list[Any]:
        return legal_actions(state, player)

    def apply(self, state: State, action: Any, chance: Chance) -> tuple[State, list[Event]]:
        return apply(state, action, chance)

    def outcome(self, state: State, events: list[Event]) -> dict[str, Any]:
        return outcome(state, events)

    def result(self, state: State) -> dict[str, Any]:
        return result(state)

    def draw_svg(self, state: State, focus: draw.Focus | None = None) -> str:
        return draw_svg(state, focus)

    def pieces(self, state: State) -> list[draw.Piece]:
        return pieces(state)

    def legend(self) -> list[draw.Swatch]:
        return legend()

    def odds(self) -> list[dict[str, Any]]:
        return odds()

    def describe_action(self, action: Any, state: Any = None, content: GameContent | None = None) -> str:
        return describe_action(action, content.name if content is not None else str)

    def describe_end(self, state: State, content: GameContent | None = None) -> str:
        return describe_end(state, content.name if content is not None else str)

    def describe_random(self, label: str, value: Any, content: GameContent | None = None) -> str:
        if isinstance(value, (list, tuple)) and label in _DEALT:
            names = content.name if content is not None else str
            return _DEALT[label].format(", ".join(names(str(v)) for v in value))
        return super().describe_random(label, value, content)

    def simulation_setups(self) -> list[Setting]:
        return [
            Setting("2 players", {"players": 2}),
            Setting("1 player", {"players": 1}),
            Setting("3 players", {"players": 3}),
            Setting("4 players", {"players": 4}),
            Setting("2 players, first game", {"players": 2, "first_game": True}),
            Setting("2 players, every advanced rule", {"players": 2, "extended_rotation": True, "random_start": True,
                                                        "fog_of_war": True, "horde": True, "istar": True}),
        ]


GAME = Dronovody()
