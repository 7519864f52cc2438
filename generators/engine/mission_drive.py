"""Mission: Drive, as an executable rules model (source: the Mission: Drive rulebook only).

Board and coordinates
    The road is `lanes` columns by `rows` rows (default 5 x 12: two road boards of 6 rows end to end;
    the rulebook prints no size). A space is `[col, row]`; row 0 is the edge nearest the player
    (the dashboard end), forward = row + 1, back = row - 1, left = col - 1, right = col + 1.
    Boss tiles, vulnerable spots, targeted spaces, activation spaces and boss movement-card positions
    are not printed in the rulebook: they always come from the scenario setup (house / proxy data).

Setup (all keys optional unless noted; unknown keys are refused with their key path)
    road: {lanes: 5, rows: 12}
    phase: mission | upgrades | boss                      (default mission; a short game's upgrade
                                                          step comes before its mission, 7 points)
    variant: standard | short                             (short = the short-game variant)
    mission: 1 | 2 | 3;  cards: [green, pink]             (cards are checked against the mission)
    reward: rookie | normal | expert                      (mission reward level, default normal)
    health_track: 6      spaces on the dashboard's health track; health = spaces right of the leftmost
    hero: {at: [c, r], health: n}                         (default: centre of row 0, full health)
    enemies / civilians: [{type: car|motorcycle|truck, at: [c, r], damaged: false}]
    uplinks: [[c, r], ...]                                (satellite up-link spaces, one energy cube each)
    dashboard: {left: [forward, left], center: [...], right: null}   hero cards by their arrows
    mirrors: {left: true, center: true, right: true}      (true = face up / active)
    deck: [[forward], enemy, civilian, ...]               movement deck, top card first; discard: [...]
    destroyed: [{side: civilian, type: truck}]            vehicles destroyed earlier in this mission
    upgrades: [{id, cost, charge_spaces, charges, device}]   installed; offer: [...] revealed, for sale
    points: n   (upgrade step);  laser_used: false;  start_forward: 0
    boss: {parts: [{id, at: [dc, dr], tile: main, vulnerable, targets: [[dc, dr]]}],  offsets from the
           tile's anchor (targets from the part); activation: [[dc, dr]] from the first tile's anchor;
           column: [{number, color, front: {at, weapons}, back: {...}, flipped}]  (closest first)
           | cards: [the six green/pink cards] + difficulty (+ pink: [2, 3]);  weapons: {target: laser};
           at: [c, r] or {tile: [c, r]} (already on the board); damaged: [part ids]; name}
    tokens: [{kind: rocket|drone, at: [c, r]}]             weapon tokens already on the board;  turn: boss|hero

Actions (`do` picks the kind; every other key is checked)
    {do: move, slot: left|center|right, mirror: false, fire: before|after, energy: [...], discard: [...]}
    {do: brake, slot: S, spaces: 0|1|2, energy: [...], discard: [...]}
    {do: enemy_fire, target: [c, r], enemy: [c, r]}      resolves a drawn enemy card
    {do: civilian_move, civilian: [c, r], to: [c, r]}    resolves a drawn civilian card
    {do: laser_strike, target: [c, r]}                   rookie reward level, once, during missions
    {do: use_upgrade, upgrade: id, pay: charge|discard}
    {do: score}                                          after a mission is accomplished
    {do: spend, buy: health|install|charge|start_forward, upgrade: id, times: 1}
    {do: finish}                                         ends the upgrade step; unspent points are lost
    {do: boss_setup}                                     builds the boss column (pink choice and weapon
                                                         cards from setup, else from the scripted chance)
    {do: boss_turn, hero_to: [c, r], energy: [...], discard: [...]}
    Choices that only arise mid-action ride on the action: `energy` (each up-link's energy: `health` or
    `{charge: upgrade}`), `discard` (each electric shock: `{charge: upgrade}` or `{card: upgrade}`),
    `hero_to` (where the hero goes when the boss lands on it). A needed choice with several options
    and none given is an IllegalAction listing them; a choice given but never needed is one too.

Outcome keys (see `outcome`)
    phase, variant, mission, reward, mission_status (playing | accomplished | exhaustion |
    immobilization | boss-defeated | null), game (playing | won | lost), pending (null | enemy-card |
    civilian-card), hero {at, health}, health, health_track, damage_taken (since the setup), vehicles
    [{at, side, type, damaged}] sorted by row then column, destroyed {enemy|civilian: {car, motorcycle,
    truck, total}},
    uplinks, dashboard {slot: arrows | null}, mirrors {slot: bool}, deck, discard (counts), upgrades
    {id: {charges, charge_spaces, device}}, offer [ids], points, score, points_lost, laser_strike
    {available, used}, start_forward, boss (null | {name, at, damaged, vulnerable_left, defeated,
    column [{number, color, side}], weapons, turn}), boss_damage, weapon_tokens [{kind, at}], supply
    {rocket, drone}, events [{kind, ...}] (those passed in: one step's, or the whole scenario's).
    After an upgrade step, phase becomes next-mission (missions 1-2) or boss-setup (after mission 3,
    with the hero on its start space); a new scenario sets up what follows.

House decisions where the rulebook is silent are in NOTES (rule id, note); the runner copies them
into the check report so the site can show them beside the rule.
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from generators.content.scenario import plain
from generators.content.schema import convert
from generators.content.yaml_io import Doc
from generators.engine import svg as draw
from generators.engine.base import Chance, Engine, Event, GameContent, GameType, IllegalAction, SetupError
from generators.errors import ContentError, KeyPath

# --- facts from the rulebook -------------------------------------------------------------------

SLOTS = ("left", "center", "right")
FIRE_DIRECTION = {"left": "left", "center": "forward", "right": "right"}  # Firing a Weapon
DELTA = {"forward": (0, 1), "back": (0, -1), "left": (-1, 0), "right": (1, 0)}
MIRRORED = {"left": "right", "right": "left", "forward": "forward", "back": "back"}
REWARD_POINTS = {"rookie": 8, "normal": 7, "expert": 6}  # Mission Scoring table
PINK_CARDS = {"rookie": 1, "normal": 2, "expert": 3}  # Boss Movement Card Setup table
MISSION_SIDES = {1: ("green", "green"), 2: ("green", "pink"), 3: ("pink", "pink")}  # Setting Up a Mission
SHORT_GAME_SIDES = ("green", "pink")
SHORT_GAME_POINTS = 7
START_FORWARD_LIMIT = 4
BOSS_DAMAGE_TOKENS = 4  # Components: 4 boss damage tokens
WEAPON_SUPPLY = {"rocket": 2, "drone": 2}  # Components: 4 weapon tokens (2 missiles / 2 drones)
WEAPON_CARDS: dict[str, tuple[str, str]] = {  # card -> (symbol, outcome), from Weapons
    "laser": ("target", "explosion"),
    "lightning-coils": ("target", "electric-shock"),
    "flash-grenades": ("target", "disorientation"),
    "concussion-missile": ("launch", "explosion"),
    "voltage-missile": ("launch", "electric-shock"),
    "dazzling-missile": ("launch", "disorientation"),
    "blaster-drone": ("drone", "explosion"),
    "buzzing-drone": ("drone", "electric-shock"),
    "smoke-drone": ("drone", "disorientation"),
}
WEAPON_TYPES = ("target", "launch", "drone")
TOKEN_OF = {"launch": "rocket", "drone": "drone"}

# Our reading where the rulebook is silent or ambiguous: (rule id, note). Shown on the site.
NOTES: tuple[tuple[str, str], ...] = (
    ("hero-damage", "The rulebook does not say how long the dashboard's health track is. The model uses 6 spaces "
     "(health 5 down to 0, the leftmost space) by default; scenarios can change it with health_track."),
    ("game-setup", "The road boards' size is not printed. The model uses 5 lanes and two boards of 6 rows (12 rows)."),
    ("moving", "\"Adjacent\" is read as the four spaces in front, behind, left and right. Only drones use the "
     "8 surrounding spaces, because their rule says so."),
    ("mirrors", "A mirror token mirrors only the card's arrows. The firing direction stays the one of the card's "
     "slot, because the slot decides the direction."),
    ("ramming", "\"Occupied\" (a pushed car is crushed) means another vehicle or the boss is there. A car pushed "
     "onto a satellite up-link discards the cube, like any vehicle moving there."),
    ("ramming", "A ram resolves fully before the end of the mission is checked. If one effect both leaves the hero "
     "without health and destroys the last enemy, immobilization counts."),
    ("civilian-card", "A civilian may move onto an up-link space (the cube is discarded), but never onto a vehicle."),
    ("satellite-uplink", "The energy must be used at once, on one health (never above the rightmost space) or "
     "one charge on an upgrade with a free charge space. If neither is possible, it is lost."),
    ("laser-strike", "The one-point penalty applies from the upgrade step that follows the mission in which the "
     "strike was used. The strike is a free action during the hero's turn."),
    ("mission-ending", "A mission ends the moment its ending happens. The rest of the card's arrows and its shot "
     "are not played, and no replacement card is drawn."),
    ("mission-scoring", "A score never goes below 0."),
    ("weapon-outcomes", "Electric shock during the hero's own movement: the hero brakes two spaces, then the "
     "remaining arrows continue. Only disorientation cancels the rest of the movement and the shot."),
    ("weapon-outcomes", "Disorientation with an empty movement deck moves the hero nowhere, but it still cancels "
     "the movement in progress."),
    ("boss-move", "When the boss lands on the hero, the hero moves to a free adjacent space: one with no vehicle, "
     "boss part or token. If there is none, the hero stays where it is."),
    ("weapon-activation", "A target weapon strikes once per activation, however many boss parts target the hero's "
     "space."),
    ("launch-weapons", "Activation spaces are measured from the boss's first tile. \"Closest\" means the fewest "
     "orthogonal steps from the hero; ties go to the space listed first. If the supply is empty, the oldest "
     "token of that kind is moved."),
    ("launch-weapons", "A rocket moves one orthogonal step that brings it closer to the hero. It moves along the "
     "axis with the larger gap (rows on a tie) and avoids the boss when another such step exists. Upkeep "
     "handles tokens in the order they were placed."),
    ("upgrades", "The effects of the 15 upgrade cards are not printed in the rulebook. The model tracks only "
     "their cost, charge spaces and charges."),
    ("weapon-outcomes", "The rulebook never defines a \"device card\". The model treats it as an upgrade card "
     "that the setup marks device: true."),
    ("satellite-uplink", "The rulebook calls the cube on an up-link space an energy cube and a token. The model "
     "treats it as one cube per up-link space."),
    ("launch-weapons", "The components list 2 missiles, and the weapon cards place ROCKET tokens. The model "
     "treats them as the same 2 tokens."),
    ("boss-setup", "Weapon symbols are read from both sides of the three chosen movement cards, because each "
     "card shows its other side after it flips."),
    ("card-replacement", "The \"top\" of the column is its far end. The column runs 1, 2, 3 away from the "
     "player, so the used card goes behind the others, flipped."),
    ("enemy-card", "The player always picks the target, even when there is only one (it may be the hero)."),
    ("playing-against-boss", "Every boss part that is hit gets a damage token (there are 4). Only the parts the "
     "setup marks as vulnerable count towards defeating the boss."),
)

# --- house defaults (the rulebook gives no value) ----------------------------------------------

DEFAULT_LANES = 5
DEFAULT_ROWS = 12
BOARD_ROWS = 6  # one road board; only used to draw the seam between the two boards
DEFAULT_HEALTH_TRACK = 6

Pos = tuple[int, ...]
Arrow = Literal["forward", "back", "left", "right"]
VehicleType = Literal["car", "motorcycle", "truck"]
Level = Literal["rookie", "normal", "expert"]
Slot = Literal["left", "center", "right"]
WeaponType = Literal["target", "launch", "drone"]
CardSpec = tuple[Arrow, ...] | Literal["enemy", "civilian"]


# --- setup schema ------------------------------------------------------------------------------


@dataclass(frozen=True)
class RoadSpec:
    lanes: int = field(default=DEFAULT_LANES, metadata={"min": 2})
    rows: int = field(default=DEFAULT_ROWS, metadata={"min": 2})


@dataclass(frozen=True)
class HeroSpec:
    at: Pos | None = None
    health: int | None = field(default=None, metadata={"min": 0})


@dataclass(frozen=True)
class VehicleSpec:
    type: VehicleType
    at: Pos
    damaged: bool = False

    def check(self) -> tuple[str, str] | None:
        if self.damaged and self.type != "truck":
            return "damaged", "only trucks have a damaged side"
        return None


@dataclass(frozen=True)
class DestroyedSpec:
    side: Literal["enemy", "civilian"]
    type: VehicleType


@dataclass(frozen=True)
class UpgradeSpec:
    id: str
    cost: int = field(default=0, metadata={"min": 0})
    charge_spaces: int = field(default=0, metadata={"min": 0})
    charges: int = field(default=0, metadata={"min": 0})
    device: bool = False

    def check(self) -> tuple[str, str] | None:
        if self.charges > self.charge_spaces:
            return "charges", f"{self.charges} charges do not fit on {self.charge_spaces} charge spaces"
        return None


@dataclass(frozen=True)
class DashboardSpec:
    left: tuple[Arrow, ...] | None = None
    center: tuple[Arrow, ...] | None = None
    right: tuple[Arrow, ...] | None = None


@dataclass(frozen=True)
class MirrorSpec:
    left: bool = True
    center: bool = True
    right: bool = True


@dataclass(frozen=True)
class TokenSpec:
    kind: Literal["rocket", "drone"]
    at: Pos


@dataclass(frozen=True)
class BossPartSpec:
    id: str
    at: Pos
    tile: str = "main"
    vulnerable: bool = False
    targets: tuple[Pos, ...] = ()


@dataclass(frozen=True)
class BossFaceSpec:
    at: Pos | dict[str, Pos]
    weapons: tuple[WeaponType, ...] = ()


@dataclass(frozen=True)
class BossCardSpec:
    number: Literal[1, 2, 3]
    color: Literal["green", "pink"]
    front: BossFaceSpec
    back: BossFaceSpec
    flipped: bool = False


@dataclass(frozen=True)
class BossSpec:
    parts: tuple[BossPartSpec, ...]
    name: str = "boss"
    difficulty: Level = "normal"
    activation: tuple[Pos, ...] = ()
    column: tuple[BossCardSpec, ...] = ()
    cards: tuple[BossCardSpec, ...] = ()
    pink: tuple[int, ...] | None = None
    weapons: dict[str, str] = field(default_factory=dict)
    at: Pos | dict[str, Pos] | None = None
    damaged: tuple[str, ...] = ()

    def check(self) -> tuple[str, str] | None:
        if bool(self.column) == bool(self.cards):
            return "column", "give either column (the set-up column, closest first) or cards (the six to set up)"
        if not self.parts:
            return "parts", "a boss needs at least one part"
        if not any(p.vulnerable for p in self.parts):
            return "parts", "no part is vulnerable, so the boss could never be defeated"
        ids = [p.id for p in self.parts]
        if len(set(ids)) != len(ids):
            return "parts", "part ids must be unique"
        for kind, name in self.weapons.items():
            if kind not in WEAPON_TYPES:
                return "weapons", f"unknown weapon type {kind!r}; expected one of {', '.join(WEAPON_TYPES)}"
            if WEAPON_CARDS.get(name, ("",))[0] != kind:
                names = [n for n, (t, _) in WEAPON_CARDS.items() if t == kind]
                return "weapons", f"{name!r} is not a {kind} weapon card; expected one of {', '.join(names)}"
        unknown = [d for d in self.damaged if d not in ids]
        if unknown:
            return "damaged", f"unknown part {unknown[0]!r}; parts are {', '.join(ids)}"
        return None


@dataclass(frozen=True)
class SetupSpec:
    road: RoadSpec = field(default_factory=RoadSpec)
    phase: Literal["mission", "upgrades", "boss"] = "mission"
    variant: Literal["standard", "short"] = "standard"
    mission: Literal[1, 2, 3] = 1
    cards: tuple[Literal["green", "pink"], ...] | None = None
    reward: Level = "normal"
    health_track: int = field(default=DEFAULT_HEALTH_TRACK, metadata={"min": 2})
    hero: HeroSpec = field(default_factory=HeroSpec)
    enemies: tuple[VehicleSpec, ...] = ()
    civilians: tuple[VehicleSpec, ...] = ()
    uplinks: tuple[Pos, ...] = ()
    dashboard: DashboardSpec = field(default_factory=DashboardSpec)
    mirrors: MirrorSpec = field(default_factory=MirrorSpec)
    deck: tuple[CardSpec, ...] = ()
    discard: tuple[CardSpec, ...] = ()
    destroyed: tuple[DestroyedSpec, ...] = ()
    upgrades: tuple[UpgradeSpec, ...] = ()
    offer: tuple[UpgradeSpec, ...] = ()
    points: int | None = field(default=None, metadata={"min": 0})
    laser_used: bool = False
    start_forward: int = field(default=0, metadata={"min": 0, "max": START_FORWARD_LIMIT})
    boss: BossSpec | None = None
    tokens: tuple[TokenSpec, ...] = ()
    turn: Literal["boss", "hero"] = "boss"


# --- action schema -----------------------------------------------------------------------------


@dataclass(frozen=True)
class ChargeChoice:
    charge: str


@dataclass(frozen=True)
class DiscardChoice:
    charge: str | None = None
    card: str | None = None

    def check(self) -> tuple[str, str] | None:
        if (self.charge is None) == (self.card is None):
            return "", "give exactly one of charge: <upgrade> or card: <device upgrade>"
        return None


EnergyChoice = Literal["health"] | ChargeChoice


@dataclass(frozen=True)
class MoveAction:
    do: str
    slot: Slot
    mirror: bool = False
    fire: Literal["before", "after"] | None = None
    energy: tuple[EnergyChoice, ...] = ()
    discard: tuple[DiscardChoice, ...] = ()


@dataclass(frozen=True)
class BrakeAction:
    do: str
    slot: Slot
    spaces: Literal[0, 1, 2]
    energy: tuple[EnergyChoice, ...] = ()
    discard: tuple[DiscardChoice, ...] = ()


@dataclass(frozen=True)
class EnemyFireAction:
    do: str
    target: Pos
    enemy: Pos | None = None


@dataclass(frozen=True)
class CivilianMoveAction:
    do: str
    civilian: Pos
    to: Pos


@dataclass(frozen=True)
class LaserStrikeAction:
    do: str
    target: Pos


@dataclass(frozen=True)
class UseUpgradeAction:
    do: str
    upgrade: str
    pay: Literal["charge", "discard"] | None = None


@dataclass(frozen=True)
class PlainAction:
    do: str


@dataclass(frozen=True)
class SpendAction:
    do: str
    buy: Literal["health", "install", "charge", "start_forward"]
    upgrade: str | None = None
    times: int = field(default=1, metadata={"min": 1})

    def check(self) -> tuple[str, str] | None:
        needs = self.buy in ("install", "charge")
        if needs and self.upgrade is None:
            return "upgrade", f"buying {self.buy} needs upgrade: <id>"
        if not needs and self.upgrade is not None:
            return "upgrade", f"buying {self.buy} takes no upgrade"
        return None


@dataclass(frozen=True)
class BossTurnAction:
    do: str
    hero_to: Pos | None = None
    energy: tuple[EnergyChoice, ...] = ()
    discard: tuple[DiscardChoice, ...] = ()


ACTIONS: dict[str, type] = {
    "move": MoveAction,
    "brake": BrakeAction,
    "enemy_fire": EnemyFireAction,
    "civilian_move": CivilianMoveAction,
    "laser_strike": LaserStrikeAction,
    "use_upgrade": UseUpgradeAction,
    "score": PlainAction,
    "spend": SpendAction,
    "finish": PlainAction,
    "boss_setup": PlainAction,
    "boss_turn": BossTurnAction,
}


# --- state -------------------------------------------------------------------------------------

Space = tuple[int, int]


@dataclass
class Vehicle:
    side: str
    type: str
    at: Space
    damaged: bool = False


@dataclass
class Card:
    kind: str  # hero | enemy | civilian
    arrows: tuple[str, ...] = ()

    def label(self) -> Any:
        return list(self.arrows) if self.kind == "hero" else self.kind


@dataclass
class Upgrade:
    id: str
    cost: int
    charge_spaces: int
    charges: int
    device: bool


@dataclass
class Token:
    id: int
    kind: str  # rocket | drone
    at: Space


@dataclass
class BossPart:
    id: str
    tile: str
    offset: Space
    vulnerable: bool
    targets: tuple[Space, ...]


@dataclass
class BossFace:
    at: dict[str, Space]
    weapons: tuple[str, ...]


@dataclass
class BossCard:
    number: int
    color: str
    faces: tuple[BossFace, BossFace]
    up: int = 0  # 0 = front, 1 = back

    @property
    def face(self) -> BossFace:
        return self.faces[self.up]


@dataclass
class Boss:
    name: str
    difficulty: str
    parts: list[BossPart]
    tiles: list[str]
    activation: list[Space]
    column: list[BossCard]
    cards: list[BossCard]
    pink: tuple[int, ...] | None
    weapons: dict[str, str]
    fixed_weapons: dict[str, str]
    at: dict[str, Space] | None
    damaged: list[str]


@dataclass
class State:
    lanes: int
    rows: int
    phase: str  # mission | upgrades | boss | next-mission | boss-setup
    variant: str
    mission: int
    reward: str
    health_track: int
    health: int
    hero: Space
    vehicles: list[Vehicle]
    uplinks: list[Space]
    slots: dict[str, Card | None]
    mirrors: dict[str, bool]
    deck: list[Card]
    discard: list[Card]
    destroyed: list[dict[str, str]]
    upgrades: list[Upgrade]
    offer: list[Upgrade]
    points: int
    laser_used: bool
    start_forward: int
    boss: Boss | None
    tokens: list[Token]
    turn: str | None  # boss phase: setup | boss | hero
    mission_status: str | None = "playing"
    game: str = "playing"
    pending: dict[str, Any] | None = None
    damage_taken: int = 0
    score: int | None = None
    points_lost: int = 0
    next_token: int = 1
    supply: dict[str, int] = field(default_factory=lambda: dict(WEAPON_SUPPLY))

    @property
    def max_health(self) -> int:
        return self.health_track - 1


# --- building the initial state ----------------------------------------------------------------


def _parse(tp: type, data: Any) -> Any:
    """Convert with the content schema, turning its located errors into SetupErrors (same key path)."""
    try:
        return convert(Doc("<scenario>", data, {}), tp, (), data)
    except ContentError as exc:
        raise SetupError(exc.keypath, exc.message) from None


def _space(value: Pos, path: KeyPath, lanes: int, rows: int, on_board: bool = True) -> Space:
    if len(value) != 2:
        raise SetupError(path, f"a space is [column, row], got {list(value)}")
    col, row = value
    if on_board and not (0 <= col < lanes and 0 <= row < rows):
        raise SetupError(path, f"[{col}, {row}] is off the road ({lanes} lanes x {rows} rows, from [0, 0])")
    return col, row


def _card(spec: Any, path: KeyPath) -> Card:
    if isinstance(spec, str):
        return Card(spec)
    if not spec:
        raise SetupError(path, "a hero card needs at least one arrow")
    return Card("hero", tuple(spec))


def initial_state(setup: Mapping[str, Any]) -> State:
    """Build the state a scenario's `setup` describes; malformed setups raise SetupError(path)."""
    spec: SetupSpec = setup if isinstance(setup, SetupSpec) else _parse(SetupSpec, plain(setup))
    lanes, rows = spec.road.lanes, spec.road.rows

    def sp(value: Pos, path: KeyPath) -> Space:
        return _space(value, path, lanes, rows)

    health = spec.health_track - 1 if spec.hero.health is None else spec.hero.health
    if health > spec.health_track - 1:
        raise SetupError(("hero", "health"), f"health {health} does not fit a track of {spec.health_track} spaces")
    default_row = spec.start_forward if spec.phase == "boss" else 0
    hero = sp(spec.hero.at, ("hero", "at")) if spec.hero.at is not None else (lanes // 2, default_row)
    _check_mission_cards(spec)
    state = State(
        lanes=lanes, rows=rows, phase=spec.phase, variant=spec.variant, mission=spec.mission,
        reward=spec.reward, health_track=spec.health_track, health=health, hero=hero,
        vehicles=[Vehicle(side, v.type, sp(v.at, (key, i, "at")), v.damaged)
                  for side, key in (("enemy", "enemies"), ("civilian", "civilians"))
                  for i, v in enumerate(getattr(spec, key))],
        uplinks=[sp(u, ("uplinks", i)) for i, u in enumerate(spec.uplinks)],
        slots={s: (Card("hero", tuple(getattr(spec.dashboard, s))) if getattr(spec.dashboard, s) else None)
               for s in SLOTS},
        mirrors={s: getattr(spec.mirrors, s) for s in SLOTS},
        deck=[_card(c, ("deck", i)) for i, c in enumerate(spec.deck)],
        discard=[_card(c, ("discard", i)) for i, c in enumerate(spec.discard)],
        destroyed=[{"side": d.side, "type": d.type, "by": "earlier"} for d in spec.destroyed],
        upgrades=[_upgrade(u) for u in spec.upgrades],
        offer=[_upgrade(u) for u in spec.offer],
        points=_initial_points(spec),
        laser_used=spec.laser_used,
        start_forward=spec.start_forward,
        boss=None,
        tokens=[],
        turn=None,
    )
    _check_upgrade_ids(spec)
    if spec.phase == "boss":
        _setup_boss_phase(state, spec)
    elif spec.boss is not None or spec.tokens:
        raise SetupError(("boss",) if spec.boss is not None else ("tokens",), "the boss and weapon tokens only "
                         "appear in a boss encounter (phase: boss)")
    _check_overlaps(state, spec)
    if spec.phase == "upgrades":
        state.mission_status = None if spec.variant == "short" else "accomplished"
    _settle(state)
    return state


def _upgrade(u: UpgradeSpec) -> Upgrade:
    return Upgrade(u.id, u.cost, u.charge_spaces, u.charges, u.device)


def _initial_points(spec: SetupSpec) -> int:
    if spec.phase != "upgrades":
        return spec.points or 0
    if spec.points is not None:
        return spec.points
    if spec.variant == "short":
        return SHORT_GAME_POINTS  # Variant - Short Game: 7 points before you start
    raise SetupError(("points",), "an upgrade step needs points: n (the points scored by the mission)")


def _check_mission_cards(spec: SetupSpec) -> None:
    if spec.cards is None:
        return
    wanted = SHORT_GAME_SIDES if spec.variant == "short" else MISSION_SIDES[spec.mission]
    if sorted(spec.cards) != sorted(wanted):
        which = "the short game" if spec.variant == "short" else f"mission {spec.mission}"
        raise SetupError(("cards",), f"{which} uses mission card sides {' / '.join(wanted)}, got "
                         f"{' / '.join(spec.cards)}")


def _check_upgrade_ids(spec: SetupSpec) -> None:
    seen: set[str] = set()
    for key, group in (("upgrades", spec.upgrades), ("offer", spec.offer)):
        for i, u in enumerate(group):
            if u.id in seen:
                raise SetupError((key, i, "id"), f"upgrade {u.id!r} appears twice")
            seen.add(u.id)


def _check_overlaps(state: State, spec: SetupSpec) -> None:
    """Two things in one space would make every later rule ambiguous: refuse them at the second."""
    taken: dict[Space, str] = {}

    def claim(space: Space, path: KeyPath, what: str) -> None:
        if space in taken:
            raise SetupError(path, f"{what} is on {list(space)}, which {taken[space]} already occupies")
        taken[space] = what

    claim(state.hero, ("hero", "at"), "the hero")
    for key, group in (("enemies", spec.enemies), ("civilians", spec.civilians)):
        for i, v in enumerate(group):
            claim(tuple(v.at), (key, i, "at"), f"{key}[{i}]")  # type: ignore[arg-type]
    for i, u in enumerate(state.uplinks):
        claim(u, ("uplinks", i), f"uplinks[{i}]")
    for i, t in enumerate(state.tokens):
        claim(t.at, ("tokens", i, "at"), f"tokens[{i}]")
    if state.boss is not None and state.boss.at is not None:
        for part in state.boss.parts:
            claim(_part_space(state.boss, part), ("boss", "at"), f"boss part {part.id!r}")


def _setup_boss_phase(state: State, spec: SetupSpec) -> None:
    if spec.boss is None:
        raise SetupError(("boss",), "a boss encounter needs boss: (its parts and movement cards)")
    for key, group in (("enemies", spec.enemies), ("civilians", spec.civilians), ("uplinks", spec.uplinks)):
        if group:
            raise SetupError((key,), "a boss encounter uses no mission cards, so it has no vehicles or up-links")
    b = spec.boss
    parts = [BossPart(p.id, p.tile, _space(p.at, ("boss", "parts", i, "at"), 0, 0, False), p.vulnerable,
                      tuple(_space(t, ("boss", "parts", i, "targets", j), 0, 0, False)
                            for j, t in enumerate(p.targets)))
             for i, p in enumerate(b.parts)]
    tiles = list(dict.fromkeys(p.tile for p in parts))
    key = "column" if b.column else "cards"
    cards = [_boss_card(c, ("boss", key, i), tiles, parts, state) for i, c in enumerate(b.column or b.cards)]
    boss = Boss(
        name=b.name, difficulty=b.difficulty, parts=parts, tiles=tiles,
        activation=[_space(a, ("boss", "activation", i), 0, 0, False) for i, a in enumerate(b.activation)],
        column=cards if b.column else [], cards=[] if b.column else cards, pink=b.pink,
        weapons=dict(b.weapons) if b.column else {}, fixed_weapons=dict(b.weapons),
        at=None if b.at is None else _anchors(b.at, ("boss", "at"), tiles, parts, state),
        damaged=sorted(b.damaged),
    )
    state.boss = boss
    state.turn = spec.turn if b.column else "setup"
    if b.column:
        _check_column(boss, state)
    else:
        _check_cards(boss, b)
    for i, t in enumerate(spec.tokens):
        kind_type = "launch" if t.kind == "rocket" else "drone"
        if b.column and kind_type not in boss.weapons:
            raise SetupError(("tokens", i, "kind"), f"a {t.kind} token needs a {kind_type} weapon card in boss.weapons")
        state.tokens.append(Token(state.next_token, t.kind, _space(t.at, ("tokens", i, "at"), state.lanes, state.rows)))
        state.next_token += 1
        state.supply[t.kind] -= 1
        if state.supply[t.kind] < 0:
            raise SetupError(("tokens", i), f"the game has only {WEAPON_SUPPLY[t.kind]} {t.kind} tokens")


def _anchors(value: Pos | Mapping[str, Pos], path: KeyPath, tiles: list[str], parts: list[BossPart],
             state: State) -> dict[str, Space]:
    """A boss position: one space for a one-tile boss, else {tile: space}; every part must be on the road."""
    if isinstance(value, Mapping):
        if sorted(value) != sorted(tiles):
            raise SetupError(path, f"give a space for each boss tile: {', '.join(tiles)}")
        anchors = {t: _space(value[t], (*path, t), state.lanes, state.rows, False) for t in tiles}
    else:
        if len(tiles) != 1:
            raise SetupError(path, f"this boss has tiles {', '.join(tiles)}: write at: {{tile: [c, r], ...}}")
        anchors = {tiles[0]: _space(value, path, state.lanes, state.rows, False)}
    for part in parts:
        col, row = _add(anchors[part.tile], part.offset)
        if not (0 <= col < state.lanes and 0 <= row < state.rows):
            raise SetupError(path, f"boss part {part.id!r} would be off the road at [{col}, {row}]")
    return anchors


def _boss_card(c: BossCardSpec, path: KeyPath, tiles: list[str], parts: list[BossPart], state: State) -> BossCard:
    faces = tuple(BossFace(_anchors(f.at, (*path, side, "at"), tiles, parts, state), tuple(f.weapons))
                  for side, f in (("front", c.front), ("back", c.back)))
    return BossCard(c.number, c.color, faces, 1 if c.flipped else 0)  # type: ignore[arg-type]


def _check_column(boss: Boss, state: State) -> None:
    if sorted(c.number for c in boss.column) != [1, 2, 3]:
        raise SetupError(("boss", "column"), "the column holds the boss's cards 1, 2 and 3 once each")
    for i, card in enumerate(boss.column):
        for side, face in zip(("front", "back"), card.faces, strict=False):
            for j, kind in enumerate(face.weapons):
                if kind not in boss.weapons:
                    raise SetupError(("boss", "column", i, side, "weapons", j),
                                     f"this card shows a {kind} symbol but boss.weapons has no {kind} card")


def _check_cards(boss: Boss, b: BossSpec) -> None:
    have = sorted((c.number, c.color) for c in boss.cards)
    if have != sorted((n, col) for n in (1, 2, 3) for col in ("green", "pink")):
        raise SetupError(("boss", "cards"), "cards lists the boss's six movement cards: green and pink 1, 2, 3")
    if b.pink is not None:
        wanted = PINK_CARDS[b.difficulty]
        if len(b.pink) != wanted or len(set(b.pink)) != wanted or not set(b.pink) <= {1, 2, 3}:
            raise SetupError(("boss", "pink"), f"{b.difficulty} boss difficulty uses {wanted} pink card(s) "
                             f"among 1, 2, 3, got {list(b.pink)}")


# --- geometry and lookups ----------------------------------------------------------------------


def _add(a: Space, b: Space) -> Space:
    return a[0] + b[0], a[1] + b[1]


def _on_board(s: State, p: Space) -> bool:
    return 0 <= p[0] < s.lanes and 0 <= p[1] < s.rows


def _neighbours(s: State, p: Space) -> list[Space]:
    """The orthogonally adjacent spaces on the road (our reading of "adjacent")."""
    return [q for d in DELTA.values() if _on_board(s, q := _add(p, d))]


def _manhattan(a: Space, b: Space) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def _vehicle_at(s: State, p: Space) -> Vehicle | None:
    return next((v for v in s.vehicles if v.at == p), None)


def _token_at(s: State, p: Space) -> Token | None:
    return next((t for t in s.tokens if t.at == p), None)


def _part_space(boss: Boss, part: BossPart) -> Space:
    assert boss.at is not None
    return _add(boss.at[part.tile], part.offset)


def _part_at(s: State, p: Space) -> BossPart | None:
    if s.boss is None or s.boss.at is None:
        return None
    return next((part for part in s.boss.parts if _part_space(s.boss, part) == p), None)


def _blocked(s: State, p: Space) -> bool:
    """A vehicle (or the hero) or the boss is there: nothing can move in without ramming."""
    return p == s.hero or _vehicle_at(s, p) is not None or _part_at(s, p) is not None


def _empty(s: State, p: Space) -> bool:
    return not _blocked(s, p) and _token_at(s, p) is None and p not in s.uplinks


def _halted(s: State) -> bool:
    return s.game != "playing" or s.mission_status not in ("playing", None)


def _enemies(s: State) -> list[Vehicle]:
    return [v for v in s.vehicles if v.side == "enemy"]


# --- applying actions --------------------------------------------------------------------------


@dataclass
class _Ctx:
    """One action in progress: the state being changed, the events so far, and its scripted choices."""

    s: State
    chance: Chance
    events: list[Event] = field(default_factory=list)
    energy: list[Any] = field(default_factory=list)
    discard: list[Any] = field(default_factory=list)
    hero_to: Space | None = None

    def event(self, kind: str, /, **data: Any) -> None:
        self.events.append(Event(kind, {k: _jsonable(v) for k, v in data.items()}))


def _jsonable(value: Any) -> Any:
    if isinstance(value, (tuple, list)):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    return value


def _parse_action(action: Any) -> Any:
    if type(action) in ACTIONS.values():
        return action
    if not isinstance(action, Mapping):
        raise SetupError((), "an action is a mapping such as {do: move, slot: left}")
    kind = action.get("do")
    if kind not in ACTIONS:
        raise SetupError(("do",), f"unknown action {kind!r}; expected one of: {', '.join(ACTIONS)}")
    return _parse(ACTIONS[kind], plain(action))


def _action_space(s: State, value: Pos | None, key: str) -> Space | None:
    if value is None:
        return None
    return _space(value, (key,), s.lanes, s.rows, on_board=False)


def apply(state: State, action: Mapping[str, Any], chance: Chance) -> tuple[State, list[Event]]:
    """Apply one action to a copy of `state`; returns the new state and what happened."""
    act = _parse_action(action)
    new = copy.deepcopy(state)
    ctx = _Ctx(new, chance, energy=list(getattr(act, "energy", ())), discard=list(getattr(act, "discard", ())))
    legal = legal_actions(state)
    opening = _opening_problem(new, act)
    if opening:
        raise IllegalAction(opening, legal)
    HANDLERS[act.do](ctx, act)
    _check_choices_used(ctx)
    if new.mission_status != state.mission_status and new.mission_status not in ("playing", None):
        ctx.event("mission_ended", status=new.mission_status)
    if new.game != state.game:
        ctx.event("game_over", result=new.game)
    return new, ctx.events


def _opening_problem(s: State, act: Any) -> str | None:
    """Why this kind of action cannot be taken now (None when it can)."""
    if s.game != "playing":
        return f"the game is over ({s.game})"
    if s.pending and act.do not in ("enemy_fire", "civilian_move"):
        return f"a drawn {s.pending['kind']} card must be resolved first"
    if act.do in ("move", "brake", "use_upgrade"):
        if not _hero_turn_open(s):
            return "it is not the hero's turn"
        if act.do != "use_upgrade" and s.slots[act.slot] is None:
            return f"the {act.slot} slot holds no hero card"
        if act.do == "move" and act.mirror and not s.mirrors[act.slot]:
            return f"the {act.slot} mirror token is already face down"
        return None
    needs = {
        "enemy_fire": (s.pending or {}).get("kind") == "enemy",
        "civilian_move": (s.pending or {}).get("kind") == "civilian",
        "laser_strike": s.phase == "mission" and s.mission_status == "playing",
        "score": s.phase == "mission" and s.mission_status == "accomplished" and s.variant == "standard",
        "spend": s.phase == "upgrades",
        "finish": s.phase == "upgrades",
        "boss_setup": s.phase == "boss" and s.turn == "setup",
        "boss_turn": s.phase == "boss" and s.turn == "boss",
    }
    if not needs[act.do]:
        return f"{act.do} is not possible now (phase {s.phase}, mission status {s.mission_status}, turn {s.turn})"
    return None


def _hero_turn_open(s: State) -> bool:
    if s.pending or s.game != "playing":
        return False
    if s.phase == "mission":
        return s.mission_status == "playing"
    return s.phase == "boss" and s.turn == "hero"


def _check_choices_used(ctx: _Ctx) -> None:
    unused = [("energy", c) for c in ctx.energy] + [("discard", c) for c in ctx.discard]
    if ctx.hero_to is not None:
        unused.append(("hero_to", list(ctx.hero_to)))
    if unused:
        raise IllegalAction(f"choices given but never needed: {', '.join(f'{k}: {_choice(v)}' for k, v in unused)}")


def _choice(value: Any) -> Any:
    if isinstance(value, ChargeChoice):
        return {"charge": value.charge}
    if isinstance(value, DiscardChoice):
        return {"charge": value.charge} if value.charge is not None else {"card": value.card}
    return value


# --- the hero's turn ---------------------------------------------------------------------------


def _do_move(ctx: _Ctx, act: MoveAction) -> None:
    s = ctx.s
    card = s.slots[act.slot]
    assert card is not None
    arrows = card.arrows
    if act.mirror:
        s.mirrors[act.slot] = False
        arrows = tuple(MIRRORED[a] for a in arrows)
        ctx.event("mirror_used", slot=act.slot, arrows=arrows)
    ctx.event("card_played", slot=act.slot, use="move", arrows=arrows)
    if act.fire == "before":
        _fire(ctx, act.slot)
    completed = False if _halted(s) else _move_path(ctx, arrows)
    if act.fire == "after":
        if completed:
            _fire(ctx, act.slot)
        elif not _halted(s):
            ctx.event("fire_cancelled", reason="disorientation")
    _end_hero_turn(ctx, act.slot)


def _do_brake(ctx: _Ctx, act: BrakeAction) -> None:
    ctx.event("card_played", slot=act.slot, use="brake", spaces=act.spaces)
    _move_path(ctx, ("back",) * act.spaces)
    _end_hero_turn(ctx, act.slot)


def _end_hero_turn(ctx: _Ctx, slot: str) -> None:
    """Playing Your Turn: the used card goes to the discard pile and the slot is refilled."""
    s = ctx.s
    card = s.slots[slot]
    if card is not None:
        s.slots[slot] = None
        s.discard.append(card)
        ctx.event("card_discarded", slot=slot, card=card.label())
    if _halted(s):
        return
    _refill(ctx, slot)
    _settle(s)
    if s.phase == "boss" and not _halted(s):
        s.turn = "boss"


def _refill(ctx: _Ctx, slot: str) -> None:
    """Draw until a hero card fills the slot; enemy and civilian cards are resolved on the way.
    A card needing a choice pauses here (state.pending) until its action arrives."""
    s = ctx.s
    while s.deck:
        card = s.deck.pop(0)
        ctx.event("card_drawn", slot=slot, card=card.label())
        if card.kind == "hero":
            s.slots[slot] = card
            return
        has_choice = bool(_enemy_targets(s)) if card.kind == "enemy" else bool(_civilian_moves(s))
        if has_choice:
            s.pending = {"kind": card.kind, "slot": slot, "card": card}
            return
        ctx.event(f"{card.kind}_card_no_effect", reason=_no_choice_reason(s, card.kind))
        s.discard.append(card)
    ctx.event("deck_empty", slot=slot)


def _no_choice_reason(s: State, kind: str) -> str:
    side = "enemy" if kind == "enemy" else "civilian"
    if not any(v.side == side for v in s.vehicles):
        return f"no {side} vehicles left"
    return "no legal target" if kind == "enemy" else "no civilian can move"


def _resume_after_card(ctx: _Ctx) -> None:
    s = ctx.s
    assert s.pending is not None
    slot, card = s.pending["slot"], s.pending["card"]
    s.pending = None
    s.discard.append(card)
    ctx.event("card_discarded", slot=slot, card=card.label())
    _settle(s)
    if not _halted(s):
        _refill(ctx, slot)
        _settle(s)


def _enemy_targets(s: State) -> list[Space]:
    """Enemy Card: any civilian vehicle or the hero that is adjacent to an enemy vehicle."""
    near = {q for e in _enemies(s) for q in _neighbours(s, e.at)}
    targets = [v.at for v in s.vehicles if v.side == "civilian" and v.at in near]
    if s.hero in near:
        targets.append(s.hero)
    return sorted(targets)


def _civilian_moves(s: State) -> list[tuple[Space, Space]]:
    """Civilian Card: a civilian moves to an adjacent empty space (backwards too); it never rams."""
    return sorted((v.at, q) for v in s.vehicles if v.side == "civilian"
                  for q in _neighbours(s, v.at) if not _blocked(s, q))


def _do_enemy_fire(ctx: _Ctx, act: EnemyFireAction) -> None:
    s = ctx.s
    target = _action_space(s, act.target, "target")
    targets = _enemy_targets(s)
    if target not in targets:
        raise IllegalAction(f"{list(target or ())} is not a civilian or the hero next to an enemy",
                            [{"do": "enemy_fire", "target": list(t)} for t in targets])
    if act.enemy is not None:
        enemy = _action_space(s, act.enemy, "enemy")
        v = _vehicle_at(s, enemy) if enemy else None
        if v is None or v.side != "enemy" or target not in _neighbours(s, enemy):  # type: ignore[arg-type]
            raise IllegalAction(f"there is no enemy on {list(act.enemy)} next to the target")
    ctx.event("enemy_fires", target=target)
    if target == s.hero:
        _damage_hero(ctx, "enemy card")
    else:
        victim = _vehicle_at(s, target)  # type: ignore[arg-type]
        assert victim is not None
        _hit_vehicle(ctx, victim, "enemy")
    _resume_after_card(ctx)


def _do_civilian_move(ctx: _Ctx, act: CivilianMoveAction) -> None:
    s = ctx.s
    move = (_action_space(s, act.civilian, "civilian"), _action_space(s, act.to, "to"))
    moves = _civilian_moves(s)
    if move not in moves:
        raise IllegalAction("that civilian cannot move there (it needs an adjacent empty space)",
                            [{"do": "civilian_move", "civilian": list(a), "to": list(b)} for a, b in moves])
    v = _vehicle_at(s, move[0])  # type: ignore[arg-type]
    assert v is not None and move[1] is not None
    v.at = move[1]
    ctx.event("civilian_moved", **{"from": move[0]}, to=move[1])
    _vehicle_enters(ctx, v)
    _resume_after_card(ctx)


# --- movement, ramming, firing -----------------------------------------------------------------


def _move_path(ctx: _Ctx, arrows: tuple[str, ...]) -> bool:
    """Move the hero arrow by arrow; False if the movement was cut short (disorientation, mission end)."""
    for arrow in arrows:
        if _halted(ctx.s):
            return False
        completed = _step(ctx, arrow)
        _settle(ctx.s)
        if not completed:
            return False
    return not _halted(ctx.s)


def _step(ctx: _Ctx, arrow: str) -> bool:
    """One arrow: off-road is ignored, vehicles and the boss are rammed. False = movement cancelled."""
    s = ctx.s
    delta = DELTA[arrow]
    dest = _add(s.hero, delta)
    if not _on_board(s, dest):
        ctx.event("off_road", arrow=arrow, at=s.hero)
        return True
    part = _part_at(s, dest)
    if part is not None:
        ctx.event("rammed", target="boss", part=part.id, at=dest)
        _damage_hero(ctx, "rammed the boss")
        return True
    victim = _vehicle_at(s, dest)
    if victim is None:
        s.hero = dest
        ctx.event("hero_moved", arrow=arrow, to=dest)
        return _hero_enters(ctx, dest)
    ctx.event("rammed", target=victim.type, side=victim.side, at=dest)
    if victim.type == "truck":
        _damage_hero(ctx, "rammed a truck")
        return True
    s.hero = dest
    ctx.event("hero_moved", arrow=arrow, to=dest)
    if victim.type == "motorcycle":
        _destroy(ctx, victim, "rammed")
    else:
        _push_car(ctx, victim, delta)
        _damage_hero(ctx, "rammed a car")
    return _hero_enters(ctx, dest)


def _push_car(ctx: _Ctx, car: Vehicle, delta: Space) -> None:
    s = ctx.s
    beyond = _add(car.at, delta)
    if not _on_board(s, beyond) or _blocked(s, beyond):
        _destroy(ctx, car, "crushed")
        return
    ctx.event("vehicle_pushed", side=car.side, **{"from": car.at}, to=beyond)
    car.at = beyond
    _vehicle_enters(ctx, car)


def _vehicle_enters(ctx: _Ctx, v: Vehicle) -> None:
    """A non-hero vehicle arrived: it discards an up-link cube and removes a weapon token there."""
    s = ctx.s
    if v.at in s.uplinks:
        s.uplinks.remove(v.at)
        ctx.event("uplink_discarded", at=v.at, by=v.side)
    token = _token_at(s, v.at)
    if token is not None:
        _remove_token(ctx, token, f"collided with a {v.side} {v.type}")


def _hero_enters(ctx: _Ctx, p: Space) -> bool:
    """The hero arrived on `p`: collect an up-link, collide with a weapon token. False = disoriented."""
    s = ctx.s
    if p in s.uplinks:
        s.uplinks.remove(p)
        ctx.event("uplink_collected", at=p)
        _gain_energy(ctx)
    token = _token_at(s, p)
    if token is None:
        return True
    _remove_token(ctx, token, "collided with the hero")
    if token.kind == "rocket" and s.boss is not None and "launch" in s.boss.weapons:
        return _weapon_outcome(ctx, WEAPON_CARDS[s.boss.weapons["launch"]][1], "rocket")
    return True


def _fire(ctx: _Ctx, slot: str) -> None:
    """Firing a Weapon: one shot into the adjacent space in the slot's direction."""
    s = ctx.s
    direction = FIRE_DIRECTION[slot]
    target = _add(s.hero, DELTA[direction])
    ctx.event("fired", slot=slot, direction=direction, at=target)
    part = _part_at(s, target) if _on_board(s, target) else None
    victim = _vehicle_at(s, target)
    token = _token_at(s, target)
    if part is not None:
        _hit_boss(ctx, part)
    elif victim is not None:
        _hit_vehicle(ctx, victim, "shot")
    elif token is not None:
        _remove_token(ctx, token, "shot")
    else:
        ctx.event("shot_missed", at=target)
    _settle(s)


def _hit_vehicle(ctx: _Ctx, v: Vehicle, by: str) -> None:
    """One damage: motorcycles and cars are destroyed, a truck flips to damaged, a damaged one dies."""
    if v.type == "truck" and not v.damaged:
        v.damaged = True
        ctx.event("truck_damaged", side=v.side, at=v.at, by=by)
        return
    _destroy(ctx, v, by)


def _destroy(ctx: _Ctx, v: Vehicle, by: str) -> None:
    ctx.s.vehicles.remove(v)
    ctx.s.destroyed.append({"side": v.side, "type": v.type, "by": by})
    ctx.event("vehicle_destroyed", side=v.side, type=v.type, at=v.at, by=by)


def _damage_hero(ctx: _Ctx, cause: str) -> None:
    """Hero Damage: the health cube moves one space left; on the leftmost space the mission ends."""
    s = ctx.s
    s.health = max(0, s.health - 1)
    s.damage_taken += 1
    ctx.event("hero_damaged", cause=cause, health=s.health)


def _settle(s: State) -> None:
    """Check how the mission (or the boss encounter) ends; immobilization is checked first."""
    if s.game != "playing" or s.phase not in ("mission", "boss") or s.mission_status != "playing":
        return
    if s.health <= 0:
        s.mission_status, s.game = "immobilization", "lost"
    elif s.phase == "boss" and s.boss is not None and not _vulnerable_left(s.boss):
        s.mission_status, s.game = "boss-defeated", "won"
    elif s.phase == "mission" and not _enemies(s):
        s.mission_status = "accomplished"
        if s.variant == "short":
            s.game = "won"  # Variant - Short Game: you win if you defeat all enemies
    elif not s.pending and not s.deck and not any(s.slots.values()):
        s.mission_status, s.game = "exhaustion", "lost"


# --- energy, upgrades, weapon outcomes ---------------------------------------------------------


def _energy_options(s: State) -> list[Any]:
    options: list[Any] = ["health"] if s.health < s.max_health else []
    options += [{"charge": u.id} for u in s.upgrades if u.charges < u.charge_spaces]
    return options


def _gain_energy(ctx: _Ctx) -> None:
    """Satellite Uplink: one energy, spent at once on one health or one charge."""
    s = ctx.s
    options = _energy_options(s)
    choice = _pick(ctx.energy, options, "an up-link's energy (energy: [health] or [{charge: upgrade}])")
    if choice is None:
        ctx.event("energy_unused", reason="health is full and no upgrade has a free charge space")
        return
    if choice == "health":
        s.health += 1
    else:
        _upgrade_by_id(s, choice["charge"]).charges += 1
    ctx.event("energy_spent", on=choice)


def _pick(queue: list[Any], options: list[Any], what: str) -> Any:
    """Take the next scripted choice (which must be legal), or the only option, or None if there is none."""
    if queue:
        choice = _choice(queue.pop(0))
        if choice not in options:
            raise IllegalAction(f"{_short(choice)} is not possible for {what}", options)
        return choice
    if len(options) > 1:
        raise IllegalAction(f"choose {what}", options)
    return options[0] if options else None


def _short(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {v}" for k, v in value.items()) + "}"
    return str(value)


def _upgrade_by_id(s: State, uid: str) -> Upgrade:
    found = next((u for u in s.upgrades if u.id == uid), None)
    if found is None:
        raise IllegalAction(f"no installed upgrade {uid!r}", [u.id for u in s.upgrades])
    return found


def _weapon_outcome(ctx: _Ctx, outcome: str, source: str) -> bool:
    """Weapon Outcomes. Returns False for disorientation: it cancels the movement in progress."""
    s = ctx.s
    ctx.event("weapon_outcome", outcome=outcome, source=source)
    if outcome == "explosion":
        _damage_hero(ctx, f"explosion ({source})")
    elif outcome == "electric-shock":
        _shock_discard(ctx)
        _move_path(ctx, ("back", "back"))
    else:
        if s.deck:
            card = s.deck.pop(0)
            s.discard.append(card)
            ctx.event("disoriented", card=card.label())
            if card.kind == "hero":
                _move_path(ctx, card.arrows)
        else:
            ctx.event("disoriented", card=None)
    _settle(s)
    return outcome != "disorientation"


def _shock_discard(ctx: _Ctx) -> None:
    s = ctx.s
    options = [{"charge": u.id} for u in s.upgrades if u.charges] + [{"card": u.id} for u in s.upgrades if u.device]
    choice = _pick(ctx.discard, options, "an electric shock (discard: [{charge: upgrade}] or [{card: upgrade}])")
    if choice is None:
        ctx.event("shock_nothing_to_discard")
        return
    upgrade = _upgrade_by_id(s, choice.get("charge") or choice["card"])
    if "charge" in choice:
        upgrade.charges -= 1
    else:
        s.upgrades.remove(upgrade)
    ctx.event("shock_discarded", what=choice)


def _do_use_upgrade(ctx: _Ctx, act: UseUpgradeAction) -> None:
    """Using Upgrades: each use removes a charge or sends the card to the box (its effect is on the card)."""
    s = ctx.s
    upgrade = _upgrade_by_id(s, act.upgrade)
    pay = act.pay or ("charge" if upgrade.charges else "discard")
    if pay == "charge":
        if not upgrade.charges:
            raise IllegalAction(f"{upgrade.id} has no charge left; pay: discard sends it to the box",
                                [{"do": "use_upgrade", "upgrade": upgrade.id, "pay": "discard"}])
        upgrade.charges -= 1
    else:
        s.upgrades.remove(upgrade)
    ctx.event("upgrade_used", upgrade=upgrade.id, paid=pay, charges=upgrade.charges)


def _do_laser_strike(ctx: _Ctx, act: LaserStrikeAction) -> None:
    """Satellite Laser Strike: rookie mission reward level, once, during the three missions."""
    s = ctx.s
    if s.reward != "rookie":
        raise IllegalAction(f"the laser strike is only for the rookie mission reward level (this is {s.reward})")
    if s.laser_used:
        raise IllegalAction("the satellite laser strike has already been used")
    target = _action_space(s, act.target, "target")
    victim = _vehicle_at(s, target) if target else None
    if victim is None or victim.side != "enemy":
        raise IllegalAction("the laser strike destroys an enemy vehicle",
                            [{"do": "laser_strike", "target": list(e.at)} for e in sorted(_enemies(s), key=_vkey)])
    s.laser_used = True
    _destroy(ctx, victim, "laser strike")
    _settle(s)


# --- scoring and the upgrade step --------------------------------------------------------------


def _do_score(ctx: _Ctx, act: PlainAction) -> None:
    """Mission Scoring: reward level points minus one per civilian destroyed (by anyone)."""
    s = ctx.s
    civilians = sum(1 for d in s.destroyed if d["side"] == "civilian")
    s.score = max(0, REWARD_POINTS[s.reward] - civilians)
    penalty = 1 if s.laser_used else 0
    s.points = max(0, s.score - penalty)
    s.phase = "upgrades"
    ctx.event("scored", reward=s.reward, civilians_destroyed=civilians, score=s.score, laser_penalty=penalty,
              points=s.points)


def _spend_options(s: State) -> list[dict[str, Any]]:
    """Repairs and Upgrades: what one point (or a card's cost) can buy right now."""
    out: list[dict[str, Any]] = []
    if s.points >= 1 and s.health < s.max_health:
        out.append({"do": "spend", "buy": "health"})
    out += [{"do": "spend", "buy": "install", "upgrade": u.id} for u in s.offer if u.cost <= s.points]
    if s.points >= 1:
        out += [{"do": "spend", "buy": "charge", "upgrade": u.id} for u in s.upgrades if u.charges < u.charge_spaces]
    if (s.points >= 1 and s.variant == "standard" and s.mission == 3 and s.start_forward < START_FORWARD_LIMIT):
        out.append({"do": "spend", "buy": "start_forward"})
    return out


def _do_spend(ctx: _Ctx, act: SpendAction) -> None:
    for _ in range(act.times):
        _spend_once(ctx, act)


def _spend_once(ctx: _Ctx, act: SpendAction) -> None:
    s = ctx.s
    wanted = {"do": "spend", "buy": act.buy, **({"upgrade": act.upgrade} if act.upgrade else {})}
    options = _spend_options(s)
    if wanted not in options:
        raise IllegalAction(f"cannot spend on {act.buy}{' ' + act.upgrade if act.upgrade else ''} with "
                            f"{s.points} point(s) left", [*options, {"do": "finish"}])
    if act.buy == "health":
        s.health += 1
        cost = 1
    elif act.buy == "install":
        upgrade = next(u for u in s.offer if u.id == act.upgrade)
        s.offer.remove(upgrade)
        upgrade.charges = 0  # an installed upgrade comes with no charges
        s.upgrades.append(upgrade)
        cost = upgrade.cost
    elif act.buy == "charge":
        _upgrade_by_id(s, act.upgrade or "").charges += 1
        cost = 1
    else:
        s.start_forward += 1
        cost = 1
    s.points -= cost
    ctx.event("points_spent", buy=act.buy, upgrade=act.upgrade, cost=cost, points_left=s.points)


def _do_finish(ctx: _Ctx, act: PlainAction) -> None:
    """End the upgrade step: unspent points are lost; the game moves on."""
    s = ctx.s
    s.points_lost, s.points = s.points, 0
    ctx.event("points_lost", points=s.points_lost)
    if s.variant == "short":
        s.phase, s.mission_status = "mission", "playing"  # the short game's one mission starts now
        _settle(s)
    elif s.mission < 3:
        s.phase, s.mission = "next-mission", s.mission + 1
    else:
        # The boss board starts empty; the hero starts forward by the spaces bought (Board Setup).
        s.phase, s.vehicles, s.uplinks = "boss-setup", [], []
        s.hero = (s.lanes // 2, s.start_forward)
        ctx.event("boss_board_start", hero=s.hero)


# --- the boss ----------------------------------------------------------------------------------


def _do_boss_setup(ctx: _Ctx, act: PlainAction) -> None:
    """Setting Up the Boss: pink cards by difficulty, one weapon card per symbol, hero-only deck."""
    s = ctx.s
    boss = s.boss
    assert boss is not None
    count = PINK_CARDS[boss.difficulty]
    pink = boss.pink
    if pink is None:
        options = [list(c) for c in itertools.combinations((1, 2, 3), count)]
        pink = tuple(ctx.chance.choice("pink boss cards", options))
    boss.column = [next(c for c in boss.cards if c.number == n and c.color == ("pink" if n in pink else "green"))
                   for n in (1, 2, 3)]
    ctx.event("boss_column", pink=sorted(pink), column=[f"{c.number} {c.color}" for c in boss.column])
    shown = {w for c in boss.column for f in c.faces for w in f.weapons}
    for kind in (k for k in WEAPON_TYPES if k in shown):
        name = boss.fixed_weapons.get(kind)
        if name is None:
            name = ctx.chance.choice(f"{kind} weapon card", [n for n, (t, _) in WEAPON_CARDS.items() if t == kind])
        boss.weapons[kind] = name
        ctx.event("weapon_card", type=kind, card=name)
    removed = [c for c in s.deck + s.discard if c.kind != "hero"]
    s.deck = [c for c in s.deck if c.kind == "hero"]
    s.discard = [c for c in s.discard if c.kind == "hero"]
    if removed:
        ctx.event("cards_to_box", cards=[c.kind for c in removed])
    # Like every mission setup, the boss encounter starts with all three mirrors active (notes.yaml).
    if not all(s.mirrors.values()):
        s.mirrors = dict.fromkeys(SLOTS, True)
        ctx.event("mirrors_reset")
    s.turn = "boss"


def _do_boss_turn(ctx: _Ctx, act: BossTurnAction) -> None:
    """The Boss' Turn: upkeep, move, weapon activation, card replacement."""
    s = ctx.s
    ctx.hero_to = _action_space(s, act.hero_to, "hero_to")
    for step in (_boss_upkeep, _boss_move, _boss_activate, _boss_replace_card):
        step(ctx)
        _settle(s)
        if _halted(s):
            return
    s.turn = "hero"


def _boss_upkeep(ctx: _Ctx) -> None:
    s = ctx.s
    assert s.boss is not None
    for token in sorted(s.tokens, key=lambda t: t.id):
        if token not in s.tokens or _halted(s):
            continue  # removed by an earlier collision this upkeep
        if token.kind == "rocket" and "launch" in s.boss.weapons:
            _rocket_upkeep(ctx, token)
        elif token.kind == "drone" and "drone" in s.boss.weapons and _surrounds(token.at, s.hero):
            ctx.event("drone_triggered", at=token.at)
            _weapon_outcome(ctx, WEAPON_CARDS[s.boss.weapons["drone"]][1], "drone")
        _settle(s)


def _surrounds(a: Space, b: Space) -> bool:
    """Drone Weapons: `b` is one of the 8 spaces around `a`."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1


def _rocket_upkeep(ctx: _Ctx, token: Token) -> None:
    s = ctx.s
    dest = _rocket_step(s, token.at)
    if dest is None:
        return
    ctx.event("token_moved", token="rocket", **{"from": token.at}, to=dest)
    token.at = dest
    if dest == s.hero:
        _remove_token(ctx, token, "collided with the hero")
        assert s.boss is not None
        _weapon_outcome(ctx, WEAPON_CARDS[s.boss.weapons["launch"]][1], "rocket")
        return
    other = next((t for t in s.tokens if t.at == dest and t is not token), None)
    if _part_at(s, dest) is not None or _vehicle_at(s, dest) is not None or other is not None:
        _remove_token(ctx, token, "collided")
        if other is not None:
            _remove_token(ctx, other, "collided")


def _rocket_step(s: State, frm: Space) -> Space | None:
    """One orthogonal step that brings the rocket closer to the hero, avoiding the boss if it can."""
    closer = [p for p in _neighbours(s, frm) if _manhattan(p, s.hero) < _manhattan(frm, s.hero)]
    if not closer:
        return None
    clear = [p for p in closer if _part_at(s, p) is None] or closer
    gaps = {"row": abs(s.hero[1] - frm[1]), "col": abs(s.hero[0] - frm[0])}

    def preference(p: Space) -> tuple[int, int]:
        axis = "row" if p[1] != frm[1] else "col"
        return -gaps[axis], 0 if axis == "row" else 1

    return min(clear, key=preference)


def _boss_spaces(boss: Boss) -> list[Space]:
    return [_part_space(boss, p) for p in boss.parts]


def _boss_move(ctx: _Ctx) -> None:
    s = ctx.s
    boss = s.boss
    assert boss is not None
    face = boss.column[0].face
    first = boss.at is None
    boss.at = dict(face.at)
    ctx.event("boss_placed" if first else "boss_moved", card=boss.column[0].number, at=boss.at)
    spaces = _boss_spaces(boss)
    for token in [t for t in s.tokens if t.at in spaces]:
        _remove_token(ctx, token, "the boss landed on it")
    for v in [v for v in s.vehicles if v.at in spaces]:
        s.vehicles.remove(v)
        ctx.event("token_removed", token=f"{v.side} {v.type}", at=v.at, reason="the boss landed on it")
    if s.hero not in spaces:
        return
    _damage_hero(ctx, "the boss landed on the hero")
    _settle(s)
    if _halted(s):
        return
    free = [q for q in _neighbours(s, s.hero) if q not in spaces and _empty(s, q)]
    if not free:
        ctx.event("hero_trapped", at=s.hero)
        return
    choice = ctx.hero_to
    ctx.hero_to = None
    if choice is None and len(free) > 1:
        raise IllegalAction("the boss landed on the hero: choose hero_to, a free adjacent space",
                            [{"do": "boss_turn", "hero_to": list(q)} for q in free])
    if choice is not None and choice not in free:
        raise IllegalAction(f"{list(choice)} is not a free space next to the hero",
                            [{"do": "boss_turn", "hero_to": list(q)} for q in free])
    s.hero = choice or free[0]
    ctx.event("hero_pushed_aside", to=s.hero)


def _boss_activate(ctx: _Ctx) -> None:
    s = ctx.s
    boss = s.boss
    assert boss is not None
    for kind in boss.column[0].face.weapons:
        name = boss.weapons[kind]
        outcome = WEAPON_CARDS[name][1]
        ctx.event("weapon_activated", type=kind, card=name)
        if kind == "target":
            targeted = {_add(_part_space(boss, p), t) for p in boss.parts if p.id not in boss.damaged
                        for t in p.targets}
            if s.hero in targeted:
                _weapon_outcome(ctx, outcome, name)
        else:
            _place_token(ctx, TOKEN_OF[kind])
        _settle(s)
        if _halted(s):
            return


def _place_token(ctx: _Ctx, kind: str) -> None:
    """Put a rocket or drone on the closest empty activation space (reusing one if the supply is out)."""
    s = ctx.s
    boss = s.boss
    assert boss is not None and boss.at is not None
    anchor = boss.at[boss.tiles[0]]
    spaces = [p for p in (_add(anchor, a) for a in boss.activation) if _on_board(s, p) and _empty(s, p)]
    if not spaces:
        ctx.event("token_not_placed", token=kind, reason="no empty activation space")
        return
    where = min(spaces, key=lambda p: (_manhattan(p, s.hero), spaces.index(p)))
    if s.supply[kind] > 0:
        s.supply[kind] -= 1
        s.tokens.append(Token(s.next_token, kind, where))
        s.next_token += 1
        ctx.event("token_placed", token=kind, at=where)
        return
    oldest = min((t for t in s.tokens if t.kind == kind), key=lambda t: t.id)
    ctx.event("token_moved", token=kind, **{"from": oldest.at}, to=where, reason="supply empty")
    oldest.at = where


def _boss_replace_card(ctx: _Ctx) -> None:
    boss = ctx.s.boss
    assert boss is not None
    card = boss.column.pop(0)
    card.up = 1 - card.up
    boss.column.append(card)
    ctx.event("boss_card_replaced", card=card.number, side="back" if card.up else "front",
              next=boss.column[0].number)


def _remove_token(ctx: _Ctx, token: Token, reason: str) -> None:
    ctx.s.tokens.remove(token)
    ctx.s.supply[token.kind] += 1
    ctx.event("token_removed", token=token.kind, at=token.at, reason=reason)


def _hit_boss(ctx: _Ctx, part: BossPart) -> None:
    """Playing Against the Boss: a damage token on the part fired upon, unless it already has one."""
    boss = ctx.s.boss
    assert boss is not None
    if part.id in boss.damaged:
        ctx.event("boss_already_damaged", part=part.id)
    elif len(boss.damaged) >= BOSS_DAMAGE_TOKENS:
        ctx.event("no_damage_token_left", part=part.id)
    else:
        boss.damaged = sorted([*boss.damaged, part.id])
        ctx.event("boss_damaged", part=part.id, vulnerable=part.vulnerable)


def _vulnerable_left(boss: Boss) -> list[str]:
    return sorted(p.id for p in boss.parts if p.vulnerable and p.id not in boss.damaged)


HANDLERS = {
    "move": _do_move,
    "brake": _do_brake,
    "enemy_fire": _do_enemy_fire,
    "civilian_move": _do_civilian_move,
    "laser_strike": _do_laser_strike,
    "use_upgrade": _do_use_upgrade,
    "score": _do_score,
    "spend": _do_spend,
    "finish": _do_finish,
    "boss_setup": _do_boss_setup,
    "boss_turn": _do_boss_turn,
}


# --- legal actions -----------------------------------------------------------------------------


def legal_actions(state: State) -> list[dict[str, Any]]:
    """Every action the rules allow now (mid-action choices such as energy are not expanded)."""
    s = state
    if s.game != "playing":
        return []
    if s.pending:
        if s.pending["kind"] == "enemy":
            return [{"do": "enemy_fire", "target": list(t)} for t in _enemy_targets(s)]
        return [{"do": "civilian_move", "civilian": list(a), "to": list(b)} for a, b in _civilian_moves(s)]
    if s.phase == "upgrades":
        return [*_spend_options(s), {"do": "finish"}]
    if s.phase == "mission" and s.mission_status == "accomplished":
        return [{"do": "score"}] if s.variant == "standard" else []
    if s.phase == "boss" and s.turn in ("setup", "boss"):
        return [{"do": "boss_setup" if s.turn == "setup" else "boss_turn"}]
    if not _hero_turn_open(s):
        return []
    out = _card_actions(s)
    out += [{"do": "use_upgrade", "upgrade": u.id} for u in s.upgrades]
    if s.phase == "mission" and s.reward == "rookie" and not s.laser_used:
        out += [{"do": "laser_strike", "target": list(e.at)} for e in sorted(_enemies(s), key=_vkey)]
    return out


def _card_actions(s: State) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for slot in SLOTS:
        if s.slots[slot] is None:
            continue
        for mirror in (False, True) if s.mirrors[slot] else (False,):
            for fire in (None, "before", "after"):
                act: dict[str, Any] = {"do": "move", "slot": slot}
                if mirror:
                    act["mirror"] = True
                if fire:
                    act["fire"] = fire
                out.append(act)
        out += [{"do": "brake", "slot": slot, "spaces": n} for n in (0, 1, 2)]
    return out


# --- outcome -----------------------------------------------------------------------------------


def _vkey(v: Vehicle) -> tuple[int, int]:
    return v.at[1], v.at[0]


def outcome(state: State, events: list[Event]) -> dict[str, Any]:
    """The observable result the runner compares with a scenario's `expect` (keys in the docstring)."""
    s = state
    destroyed = {side: {t: 0 for t in ("car", "motorcycle", "truck")} for side in ("enemy", "civilian")}
    for d in s.destroyed:
        destroyed[d["side"]][d["type"]] += 1
    for counts in destroyed.values():
        counts["total"] = sum(counts.values())
    return {
        "phase": s.phase,
        "variant": s.variant,
        "mission": s.mission,
        "reward": s.reward,
        "mission_status": s.mission_status,
        "game": s.game,
        "pending": f"{s.pending['kind']}-card" if s.pending else None,
        "hero": {"at": list(s.hero), "health": s.health},
        "health": s.health,
        "health_track": s.health_track,
        "damage_taken": s.damage_taken,
        "vehicles": [{"at": list(v.at), "side": v.side, "type": v.type, "damaged": v.damaged}
                     for v in sorted(s.vehicles, key=_vkey)],
        "destroyed": destroyed,
        "uplinks": sorted(list(u) for u in s.uplinks),
        "dashboard": {slot: (list(c.arrows) if c else None) for slot, c in s.slots.items()},
        "mirrors": dict(s.mirrors),
        "deck": len(s.deck),
        "discard": len(s.discard),
        "upgrades": {u.id: {"charges": u.charges, "charge_spaces": u.charge_spaces, "device": u.device}
                     for u in sorted(s.upgrades, key=lambda u: u.id)},
        "offer": sorted(u.id for u in s.offer),
        "points": s.points,
        "score": s.score,
        "points_lost": s.points_lost,
        "laser_strike": {"used": s.laser_used,
                         "available": s.reward == "rookie" and not s.laser_used and s.phase == "mission"},
        "start_forward": s.start_forward,
        "boss": _boss_outcome(s),
        "boss_damage": len(s.boss.damaged) if s.boss else 0,
        "weapon_tokens": sorted(({"kind": t.kind, "at": list(t.at)} for t in s.tokens),
                                key=lambda t: (t["at"][1], t["at"][0], t["kind"])),
        "supply": dict(s.supply),
        "events": [e.as_dict() for e in events],
    }


def _boss_outcome(s: State) -> dict[str, Any] | None:
    boss = s.boss
    if boss is None:
        return None
    return {
        "name": boss.name,
        "at": None if boss.at is None else {t: list(p) for t, p in boss.at.items()},
        "damaged": list(boss.damaged),
        "vulnerable_left": _vulnerable_left(boss),
        "defeated": not _vulnerable_left(boss),
        "column": [{"number": c.number, "color": c.color, "side": "back" if c.up else "front"} for c in boss.column],
        "weapons": dict(sorted(boss.weapons.items())),
        "turn": s.turn,
    }


# --- drawing -----------------------------------------------------------------------------------

CELL = 36
MARGIN = 16
PANEL = 118  # dashboard area under the road
ARROW_GLYPH = {"forward": "↑", "back": "↓", "left": "←", "right": "→"}


def draw_svg(state: State) -> str:
    """The road (row 0 at the bottom), vehicles by side and type, boss, tokens, and the dashboard."""
    s = state
    width = max(s.lanes * CELL, 3 * 110) + 2 * MARGIN
    road_x = (width - s.lanes * CELL) / 2
    grid = draw.Grid(road_x, MARGIN, s.lanes, s.rows, CELL)
    pic = draw.Svg(width, MARGIN * 2 + grid.height + PANEL, title=f"Mission: Drive — {s.phase}")
    pic.rect(0, 0, pic.width, pic.height, draw.COLORS["paper"])
    draw.draw_grid(pic, grid, BOARD_ROWS if s.rows % BOARD_ROWS == 0 else 0)
    for u in sorted(s.uplinks):
        cx, cy = grid.center(*u)
        r = CELL * 0.22
        pic.polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], draw.COLORS["uplink"], "#0b5563")
    _draw_boss(pic, grid, s)
    for t in sorted(s.tokens, key=lambda t: t.id):
        _draw_token(pic, grid, t)
    for v in sorted(s.vehicles, key=_vkey):
        draw.draw_vehicle(pic, grid, v.at[0], v.at[1], v.type, v.side, v.damaged, v.type[0].upper())
    draw.draw_vehicle(pic, grid, s.hero[0], s.hero[1], "car", "hero", label="H")
    _draw_dashboard(pic, s, MARGIN * 2 + grid.height)
    return pic.render()


def _draw_boss(pic: draw.Svg, grid: draw.Grid, s: State) -> None:
    boss = s.boss
    if boss is None or boss.at is None:
        return
    for part in boss.parts:
        x, y = grid.corner(*_part_space(boss, part))
        pic.rect(x + 2, y + 2, CELL - 4, CELL - 4, draw.COLORS["boss"], draw.COLORS["ink"], rx=3)
        if part.vulnerable:
            pic.circle(x + CELL / 2, y + CELL / 2, CELL * 0.3, "none", draw.COLORS["vulnerable"], 2.5)
        if part.id in boss.damaged:
            pic.line(x + 8, y + 8, x + CELL - 8, y + CELL - 8, draw.COLORS["damage"], 4)
            pic.line(x + CELL - 8, y + 8, x + 8, y + CELL - 8, draw.COLORS["damage"], 4)
        pic.text(x + CELL / 2, y + CELL - 4, part.id[:6], size=7, fill=draw.COLORS["paper"])


def _draw_token(pic: draw.Svg, grid: draw.Grid, t: Token) -> None:
    cx, cy = grid.center(*t.at)
    r = CELL * 0.26
    if t.kind == "rocket":
        pic.polygon([(cx, cy + r), (cx + r * 0.7, cy - r), (cx - r * 0.7, cy - r)], draw.COLORS["rocket"],
                    draw.COLORS["ink"])
    else:
        pic.circle(cx, cy, r, draw.COLORS["drone"], draw.COLORS["ink"])
        pic.line(cx - r, cy - r, cx + r, cy + r, draw.COLORS["ink"])
        pic.line(cx - r, cy + r, cx + r, cy - r, draw.COLORS["ink"])


def _draw_dashboard(pic: draw.Svg, s: State, top: float) -> None:
    x0 = (pic.width - 3 * 110) / 2
    for i, slot in enumerate(SLOTS):
        x = x0 + i * 110
        card = s.slots[slot]
        pic.rect(x + 4, top, 102, 52, "#f4f1ea", draw.COLORS["ink"], rx=4)
        pic.text(x + 55, top + 13, f"{slot} (fires {FIRE_DIRECTION[slot]})", size=9)
        arrows = " ".join(ARROW_GLYPH[a] for a in card.arrows) if card else "(empty)"
        pic.text(x + 55, top + 34, arrows, size=16 if card else 10)
        pic.text(x + 55, top + 48, "mirror ready" if s.mirrors[slot] else "mirror used", size=8,
                 fill=draw.COLORS["ink"] if s.mirrors[slot] else draw.COLORS["muted"])
    track_y = top + 62
    box = min(22.0, (pic.width - 2 * MARGIN - 60) / s.health_track)
    pic.text(MARGIN, track_y + box * 0.7, "health", size=10, anchor="start")
    for i in range(s.health_track):
        x = MARGIN + 48 + i * box
        pic.rect(x, track_y, box - 2, box - 2, "#fdecea" if i == 0 else "#ffffff", draw.COLORS["ink"])
        if i == s.health:
            pic.rect(x + 4, track_y + 4, box - 10, box - 10, draw.COLORS["enemy"])
    status = f"{s.phase} · {s.mission_status or '-'} · game {s.game} · deck {len(s.deck)} · discard {len(s.discard)}"
    pic.text(MARGIN, track_y + box + 18, status, size=9, anchor="start")
    if s.pending:
        pic.text(pic.width - MARGIN, track_y + box + 18, f"{s.pending['kind']} card drawn", size=9, anchor="end")


# --- the engine contract -----------------------------------------------------------------------


@dataclass(frozen=True)
class Options:
    """How a whole game is set up (Game Setup, Mission Scoring, Variant - Short Game)."""

    reward: Level = "normal"
    variant: Literal["standard", "short"] = "standard"


class MissionDrive(Engine):
    type = GameType(name="Mission: Drive", min_players=1, max_players=1, utility="solo", max_actions=3000)
    setup_spec = SetupSpec
    action_specs = ACTIONS
    options_spec = Options
    notes = NOTES

    def initial_state(self, setup: Any, content: GameContent) -> State:
        return initial_state(setup)

    def new_game(self, options: Any, content: GameContent, chance: Chance) -> State:
        raise NotImplementedError("whole games are not set up yet")

    def players_to_act(self, state: State) -> list[str]:
        return ["hero"] if legal_actions(state) else []

    def legal_actions(self, state: State, player: str | None = None) -> list[Any]:
        return [self.parse_action(a) for a in legal_actions(state)]

    def apply(self, state: State, action: Any, chance: Chance) -> tuple[State, list[Event]]:
        return apply(state, action, chance)

    def outcome(self, state: State, events: list[Event]) -> dict[str, Any]:
        return outcome(state, events)

    def result(self, state: State) -> dict[str, Any]:
        return {"result": state.game, "damage_taken": state.damage_taken}

    def draw_svg(self, state: State) -> str:
        return draw_svg(state)


GAME = MissionDrive()
