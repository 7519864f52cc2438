"""Mission: Drive: what content is converted to: a scenario's setup, a whole game's options and each
action (`do:`), with the docs editors show.

Setup (a scenario's state; all keys optional, unknown keys refused with their key path)
    road: {lanes, rows}                       (default: the road boards)
    phase: mission | upgrades | boss          (a short game's upgrade step comes before its mission)
    variant: standard | short;  mission: 1 | 2 | 3;  cards: [green, pink]  (checked against the mission)
    mission_deck: [mission card ids]          the mission cards still to come, top first
    reward: rookie | normal | expert          (mission reward level);  difficulty: boss difficulty
    health_track: n                           spaces on the health track (default: the dashboard's)
    hero: {at: [c, r], health: n}             (default: centre of row 0, full health)
    enemies / civilians: [{type: car|motorcycle|truck, at: [c, r], damaged: false}]
    uplinks: [[c, r], ...]                    satellite up-link spaces, one energy cube each
    dashboard: {left: [forward, left], center: [...], right: null}   hero cards by their arrows
    mirrors: {left: true, center: true, right: true}      (true = face up / active)
    deck: [[forward], enemy, civilian, ...]   movement deck, top card first; discard: [...]
    destroyed: [{side: civilian, type: truck}]            vehicles destroyed earlier in this mission
    upgrades: [{id, cost, charge_spaces, charges, device}]   installed; offer: [...] revealed, for sale
    points: n (upgrade step);  laser_used: false;  start_forward: 0
    boss: {name: tank}                        the house boss (content), chosen at game setup; in a boss
                                              encounter it is set up by boss_setup (pink: [..] and
                                              weapons: {type: card} fix what chance would pick)
          | {parts: [{id, at: [dc, dr], tile: main, vulnerable, targets: [[dc, dr]]}], activation,
             column: [{number, color, front: {at, weapons}, back: {...}, flipped}] | cards: [six],
             weapons: {target: laser}, at: [c, r] or {tile: [c, r]}, damaged: [part ids], name}
                                              a boss written out in road coordinates (phase: boss)
    tokens: [{kind: rocket|drone, at: [c, r]}]   weapon tokens on the board;  turn: boss | hero

Actions (`do` picks the kind; every other key is checked)
    {do: move, slot: left|center|right, mirror: false, fire: before|after|both, energy: [...], discard: [...]}
    {do: brake, slot: S, spaces: 0|1|2, energy: [...], discard: [...]}
    {do: enemy_fire, target: [c, r]}                     resolves a drawn enemy card
    {do: civilian_move, civilian: [c, r], to: [c, r]}    resolves a drawn civilian card
    {do: laser_strike, target: [c, r]}                   rookie reward level, once, during missions
    {do: use_upgrade, upgrade: id, pay: charge|discard, direction: D, slot: S, civilian: [c, r], to: [c, r]}
                                                         (the effect's choices only: see UpgradeEffect)
    {do: score}                                          after a mission is accomplished
    {do: spend, buy: health|install|charge|start_forward, upgrade: id, times: 1}
    {do: finish}                                         ends the upgrade step; unspent points are lost
    {do: start_mission}                                  sets up the next mission (shuffles by chance)
    {do: boss_setup}                                     pink cards and weapon cards by chance
    {do: boss_turn, hero_to: [c, r], discard: [...]}
    Choices that arise in the middle of an action ride on it, in the order they arise: `energy` (each
    up-link's energy: `health` or `{charge: upgrade}`), `discard` (each electric shock: `{charge:
    upgrade}` or `{card: upgrade}`), `hero_to` (where the hero goes when the boss lands on it). A choice
    is written whenever it arises with at least one possibility (even one); one that never arises is
    refused. `legal_actions` lists every action with its choices: chance is only used by
    `start_mission` and `boss_setup`, so a dry run of any other action shows the choices it needs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from generators.games.mission_drive.facts import (
    OFFSET,
    ROAD_SPACE,
    START_FORWARD_LIMIT,
    WEAPON_TYPES,
    Arrow,
    CardSpec,
    Level,
    Pos,
    Side,
    Slot,
    UpgradeEffect,
    VehicleType,
    WeaponType,
)

# --- setup schema ------------------------------------------------------------------------------


@dataclass(frozen=True)
class RoadSpec:
    """A road of another size, for a small example (mission cards need the road boards' size)."""

    lanes: int = field(metadata={"doc": "columns (lanes) across the road", "min": 2})
    rows: int = field(metadata={"doc": "rows along the road, row 0 nearest the player", "min": 2})


@dataclass(frozen=True)
class HeroSpec:
    """The hero vehicle: where it is and how much health it has left."""

    at: Pos | None = field(default=None, metadata={
        "doc": f"the hero's space, {ROAD_SPACE}; default: the centre lane of row 0 (in a boss encounter, of row "
               "start_forward)"})
    health: int | None = field(default=None, metadata={
        "doc": "health left, from 0 (immobilized) to one less than health_track; default: full", "min": 0})


@dataclass(frozen=True)
class VehicleSpec:
    """An enemy or civilian vehicle on the road."""

    type: VehicleType = field(metadata={"doc": "one damage destroys a car or a motorcycle; a truck takes two"})
    at: Pos = field(metadata={"doc": f"its space, {ROAD_SPACE}"})
    damaged: bool = field(default=False, metadata={"doc": "a truck turned to its damaged side: the next hit "
                                                   "destroys it"})

    def check(self) -> tuple[str, str] | None:
        if self.damaged and self.type != "truck":
            return "damaged", "only trucks have a damaged side"
        return None


@dataclass(frozen=True)
class DestroyedSpec:
    """A vehicle destroyed earlier in this mission: its token is out of play, and a civilian costs a point at
    scoring."""

    side: Side = field(metadata={"doc": "enemy or civilian"})
    type: VehicleType = field(metadata={"doc": "the vehicle type it was"})


@dataclass(frozen=True)
class UpgradeSpec:
    """An upgrade card: one from the content by its id (its numbers read from the card unless given), or one
    written out here."""

    id: str = field(metadata={"doc": "an upgrade card's face id in the content (like upgrade-01), or a new name "
                              "for one written out"})
    cost: int | None = field(default=None, metadata={
        "doc": "points to install it; default: the card's (0 for one written out)", "min": 0})
    charge_spaces: int | None = field(default=None, metadata={
        "doc": "the most charges it can hold; default: the card's (0 for one written out)", "min": 0})
    charges: int = field(default=0, metadata={
        "doc": "charge cubes on it now, at most charge_spaces (an upgrade is installed with none)", "min": 0})
    device: bool | None = field(default=None, metadata={
        "doc": "a device card, which an electric shock may discard; default: the card's (false for one written out)"})
    effect: UpgradeEffect | None = field(default=None, metadata={
        "doc": "what each use does; default: the card's (for one written out: nothing, a use only pays its cost)"})


@dataclass(frozen=True)
class DashboardSpec:
    """The hero cards in the dashboard's three slots, each written as its arrows."""

    left: tuple[Arrow, ...] | None = field(default=None, metadata={
        "doc": "the left slot's hero card (fires left), as its arrows like [forward, left]; null: empty, which "
               "only happens once the movement deck is used up"})
    center: tuple[Arrow, ...] | None = field(default=None, metadata={
        "doc": "the centre slot's hero card (fires forward), as its arrows; null: empty"})
    right: tuple[Arrow, ...] | None = field(default=None, metadata={
        "doc": "the right slot's hero card (fires right), as its arrows; null: empty"})


@dataclass(frozen=True)
class MirrorSpec:
    """The mirror tokens above the three slots: face up (true) can still be used, face down (false) is used."""

    left: bool = field(default=True, metadata={"doc": "the left slot's mirror token is face up (still usable)"})
    center: bool = field(default=True, metadata={"doc": "the centre slot's mirror token is face up (still usable)"})
    right: bool = field(default=True, metadata={"doc": "the right slot's mirror token is face up (still usable)"})


@dataclass(frozen=True)
class TokenSpec:
    """A weapon token on the road (boss encounter)."""

    kind: Literal["rocket", "drone"] = field(metadata={"doc": "rocket (needs a launch weapon card in boss.weapons) "
                                                       "or drone (needs a drone weapon card)"})
    at: Pos = field(metadata={"doc": f"its space, {ROAD_SPACE}"})


@dataclass(frozen=True)
class BossPartSpec:
    """One part of a boss written out by hand: a road space the boss covers."""

    id: str = field(metadata={"doc": "the part's name, unique in the boss (boss.damaged names it)"})
    at: Pos = field(metadata={"doc": f"offset {OFFSET} from its tile's position (boss.at and the cards' at)"})
    tile: str = field(default="main", metadata={
        "doc": "the boss tile it belongs to; a boss of several tiles gives each tile its own position"})
    vulnerable: bool = field(default=False, metadata={
        "doc": "a vulnerable spot: damaging every vulnerable part defeats the boss"})
    targets: tuple[Pos, ...] = field(default=(), metadata={
        "doc": f"spaces a target weapon strikes from this part while it is undamaged, each an offset {OFFSET} from "
               "the part (negative rows: toward the player)"})


@dataclass(frozen=True)
class BossFaceSpec:
    """One side of a boss movement card, in road coordinates."""

    at: Pos | dict[str, Pos] = field(metadata={
        "doc": f"where the boss moves when this side is the nearest card: its position, {ROAD_SPACE}; for a boss of "
               "several tiles, {tile: [column, row]}"})
    weapons: tuple[WeaponType, ...] = field(default=(), metadata={
        "doc": "the weapon symbols shown (pink cards only): each activates the weapon card of that type"})


@dataclass(frozen=True)
class BossCardSpec:
    """A boss movement card written out: number, colour and both sides."""

    number: Literal[1, 2, 3] = field(metadata={"doc": "its place in the column at boss setup (1 nearest the player)"})
    color: Literal["green", "pink"] = field(metadata={"doc": "green: no weapon symbols; pink: weapon symbols"})
    front: BossFaceSpec = field(metadata={"doc": "the side up at boss setup"})
    back: BossFaceSpec = field(metadata={"doc": "the side shown after card replacement flips it"})
    flipped: bool = field(default=False, metadata={"doc": "the back side is up (card replacement flipped it)"})


@dataclass(frozen=True)
class BossSpec:
    """The boss: before the boss encounter only its name; in it (phase: boss), either the content boss by name
    or one written out part by part, with its movement cards, weapons, position and damage."""

    name: str = field(default="tank", metadata={
        "doc": "the boss chosen at game setup: a boss of the content (tank, rovers, jet); for a boss written out "
               "with parts, only its name"})
    parts: tuple[BossPartSpec, ...] = field(default=(), metadata={
        "doc": "a boss written out by hand: its parts (default: the named boss's tiles from the content)"})
    activation: tuple[Pos, ...] = field(default=(), metadata={
        "doc": f"a written-out boss's activation spaces, where launch and drone tokens are placed: offsets {OFFSET} "
               "from its first tile's position"})
    column: tuple[BossCardSpec, ...] = field(default=(), metadata={
        "doc": "the set-up column of boss movement cards, nearest the player first (the next boss turn plays "
               "the first); cards 1, 2 and 3 once each"})
    cards: tuple[BossCardSpec, ...] = field(default=(), metadata={
        "doc": "instead of column: the boss's six movement cards (green and pink 1, 2, 3), not set up yet "
               "(boss_setup builds the column); default: the named boss's cards from the content"})
    pink: tuple[int, ...] | None = field(default=None, metadata={
        "doc": "the card numbers boss_setup takes pink, as many as the boss difficulty gives (rookie 1, normal 2, "
               "expert 3); default: chosen by chance"})
    weapons: dict[str, str] = field(default_factory=dict, metadata={
        "doc": "weapon card per weapon type, like {target: laser}: with a column, the weapon cards in play; "
               "before boss_setup, the card it takes for that type instead of one chosen by chance"})
    at: Pos | dict[str, Pos] | None = field(default=None, metadata={
        "doc": f"where the boss is: its position, {ROAD_SPACE} (the space its parts' offsets count from); for a "
               "boss of several tiles, {tile: [column, row]}; default: not on the road yet (before its first turn)"})
    damaged: tuple[str, ...] = field(default=(), metadata={"doc": "ids of the parts carrying a damage token"})

    def check(self) -> tuple[str, str] | None:
        if self.column and self.cards:
            return "column", "give either column (the set-up column, closest first) or cards (the six to set up)"
        if (self.column or self.cards) and not self.parts:
            return "parts", "a boss written out card by card needs its parts too"
        if self.activation and not self.parts:
            return "activation", "activation spaces belong to written-out parts; a house boss has its own"
        if self.parts and not any(p.vulnerable for p in self.parts):
            return "parts", "no part is vulnerable, so the boss could never be defeated"
        ids = [p.id for p in self.parts]
        if len(set(ids)) != len(ids):
            return "parts", "part ids must be unique"
        for kind in self.weapons:
            if kind not in WEAPON_TYPES:
                return "weapons", f"unknown weapon type {kind!r}; expected one of {', '.join(WEAPON_TYPES)}"
        return None


@dataclass(frozen=True)
class SetupSpec:
    """A scenario's starting state: a mission in play, an upgrade step or the boss encounter."""

    road: RoadSpec | None = field(default=None, metadata={"doc": "the road's size; default: the road boards end "
                                                          "to end"})
    phase: Literal["mission", "upgrades", "boss"] = field(default="mission", metadata={
        "doc": "mission: a mission in play; upgrades: the repairs and upgrades step after it (a short game's comes "
               "before its mission); boss: the boss encounter"})
    variant: Literal["standard", "short"] = field(default="standard", metadata={
        "doc": "standard: three missions and the boss; short: one green/pink mission after a 7-point upgrade step"})
    mission: Literal[1, 2, 3] = field(default=1, metadata={
        "doc": "which mission (1: green/green cards, 2: green/pink, 3: pink/pink); in the standard game's upgrade "
               "step, the one just played"})
    cards: tuple[Literal["green", "pink"], ...] | None = field(default=None, metadata={
        "doc": "the sides of the mission's two cards, like [green, pink] (in any order), checked against the mission; "
               "default: not checked"})
    mission_deck: tuple[str, ...] = field(default=(), metadata={
        "doc": "the mission cards still in the mission deck, by id, top first: every card missions 1 to `mission` "
               "have not used, or none (then they are shuffled by chance when the next mission is set up)"})
    reward: Level = field(default="normal", metadata={
        "doc": "mission reward level: points per mission (rookie 8, normal 7, expert 6); rookie also has the "
               "satellite laser strike"})
    difficulty: Level = field(default="normal", metadata={
        "doc": "boss difficulty: how many of the boss's three movement cards are pink (rookie 1, normal 2, "
               "expert 3)"})
    health_track: int | None = field(default=None, metadata={
        "doc": "spaces on the health track, the leftmost (no health left) included; default: the dashboard's",
        "min": 2})
    hero: HeroSpec = field(default_factory=HeroSpec, metadata={"doc": "the hero vehicle's space and health"})
    enemies: tuple[VehicleSpec, ...] = field(default=(), metadata={"doc": "the enemy vehicles on the road"})
    civilians: tuple[VehicleSpec, ...] = field(default=(), metadata={"doc": "the civilian vehicles on the road"})
    uplinks: tuple[Pos, ...] = field(default=(), metadata={
        "doc": f"satellite up-link spaces still holding their energy cube, each {ROAD_SPACE}"})
    dashboard: DashboardSpec = field(default_factory=DashboardSpec, metadata={
        "doc": "the hero cards in the left, centre and right slots"})
    mirrors: MirrorSpec = field(default_factory=MirrorSpec, metadata={
        "doc": "which mirror tokens are still face up (default: all)"})
    deck: tuple[CardSpec, ...] = field(default=(), metadata={
        "doc": "the movement deck, top card first: a hero card as its arrows (like [forward, left]), or enemy or "
               "civilian"})
    discard: tuple[CardSpec, ...] = field(default=(), metadata={
        "doc": "the movement discard pile, cards written as in deck"})
    destroyed: tuple[DestroyedSpec, ...] = field(default=(), metadata={
        "doc": "vehicles destroyed earlier in this mission (civilians count at scoring)"})
    upgrades: tuple[UpgradeSpec, ...] = field(default=(), metadata={"doc": "the hero's installed upgrades"})
    offer: tuple[UpgradeSpec, ...] = field(default=(), metadata={
        "doc": "the revealed upgrade cards not installed yet, for sale in the upgrade step"})
    points: int | None = field(default=None, metadata={
        "doc": "points left to spend (phase upgrades only, where it is required except in the short game, "
               "which starts with 7)", "min": 0})
    laser_used: bool = field(default=False, metadata={
        "doc": "the satellite laser strike was used (rookie reward level): one point less in each upgrade step "
               "after"})
    start_forward: int = field(default=0, metadata={
        "doc": "spaces of head start bought after mission 3: the hero starts the boss encounter that many rows "
               "forward", "min": 0, "max": START_FORWARD_LIMIT})
    boss: BossSpec | None = field(default=None, metadata={
        "doc": "the boss: its name only before the boss encounter, its full state in it; default: the tank"})
    tokens: tuple[TokenSpec, ...] = field(default=(), metadata={"doc": "weapon tokens on the road (phase boss)"})
    turn: Literal["boss", "hero"] = field(default="boss", metadata={
        "doc": "in a boss encounter with a set-up column: whose turn is next (otherwise boss_setup comes first)"})


@dataclass(frozen=True)
class Options:
    """How a whole game is set up (Setting Up the Game, Mission Scoring, Variant - Short Game)."""

    reward: Level = field(default="normal", metadata={
        "doc": "mission reward level: points per mission (rookie 8, normal 7, expert 6); rookie also has the "
               "satellite laser strike"})
    difficulty: Level = field(default="normal", metadata={
        "doc": "boss difficulty: how many of the boss's three movement cards are pink (rookie 1, normal 2, "
               "expert 3)"})
    variant: Literal["standard", "short"] = field(default="standard", metadata={
        "doc": "standard: three missions and the boss; short: one green/pink mission after a 7-point upgrade step"})
    boss: str = field(default="tank", metadata={"doc": "the boss to face, by name (tank, rovers, jet in the "
                                                "content); the tank is recommended for new players"})


# --- action schema -----------------------------------------------------------------------------


@dataclass(frozen=True)
class ChargeChoice:
    """An up-link's energy spent on one charge."""

    charge: str = field(metadata={"doc": "the installed upgrade that gets the charge (it needs a free charge space)"})


@dataclass(frozen=True)
class DiscardChoice:
    """What an electric shock discards: one charge, or a device card (give exactly one)."""

    charge: str | None = field(default=None, metadata={"doc": "the installed upgrade that loses one charge"})
    card: str | None = field(default=None, metadata={"doc": "the installed device upgrade sent to the box"})

    def check(self) -> tuple[str, str] | None:
        if (self.charge is None) == (self.card is None):
            return "", "give exactly one of charge: <upgrade> or card: <device upgrade>"
        return None


EnergyChoice = Literal["health"] | ChargeChoice


@dataclass(frozen=True)
class MoveAction:
    """The hero's turn: play a hero card to move by its arrows, and perhaps fire."""

    do: Literal["move"]
    slot: Slot = field(metadata={"doc": "the dashboard slot of the card played; it also sets the firing direction "
                                 "(left: left, center: forward, right: right)"})
    mirror: bool = field(default=False, metadata={
        "doc": "turn the slot's mirror token face down to play the arrows mirrored (left and right swapped)"})
    fire: Literal["before", "after", "both"] | None = field(default=None, metadata={
        "doc": "fire into the adjacent space in the slot's direction before or after moving; both: before and "
               "after (only while a double-shot upgrade is in effect this turn); null: no shot"})
    energy: tuple[EnergyChoice, ...] = field(default=(), metadata={
        "doc": "each up-link's energy, in the order the hero reaches them: health, or {charge: <upgrade id>}"})
    discard: tuple[DiscardChoice, ...] = field(default=(), metadata={
        "doc": "for each electric shock met, in order: {charge: <upgrade id>} or {card: <device upgrade id>}"})


@dataclass(frozen=True)
class BrakeAction:
    """The hero's turn: spend a hero card to brake (move backwards, never firing)."""

    do: Literal["brake"]
    slot: Slot = field(metadata={"doc": "the dashboard slot of the card spent (its arrows do not matter)"})
    spaces: Literal[0, 1, 2] = field(metadata={"doc": "how many spaces the hero moves back"})
    energy: tuple[EnergyChoice, ...] = field(default=(), metadata={
        "doc": "each up-link's energy, in the order the hero reaches them: health, or {charge: <upgrade id>}"})
    discard: tuple[DiscardChoice, ...] = field(default=(), metadata={
        "doc": "for each electric shock met, in order: {charge: <upgrade id>} or {card: <device upgrade id>}"})


@dataclass(frozen=True)
class EnemyFireAction:
    """Resolve a drawn enemy card: an enemy vehicle fires at a vehicle next to it."""

    do: Literal["enemy_fire"]
    target: Pos = field(metadata={"doc": f"the space of the civilian vehicle or the hero that takes one damage "
                                  f"(next to an enemy vehicle), {ROAD_SPACE}"})


@dataclass(frozen=True)
class CivilianMoveAction:
    """Resolve a drawn civilian card: a civilian vehicle moves one space."""

    do: Literal["civilian_move"]
    civilian: Pos = field(metadata={"doc": f"the space of the civilian vehicle that moves, {ROAD_SPACE}"})
    to: Pos = field(metadata={"doc": "the adjacent empty space it moves to (backwards too), [column, row]"})


@dataclass(frozen=True)
class LaserStrikeAction:
    """The satellite laser strike (rookie reward level, once in the game, during a mission)."""

    do: Literal["laser_strike"]
    target: Pos = field(metadata={"doc": f"the space of the enemy vehicle it destroys, {ROAD_SPACE}"})


@dataclass(frozen=True)
class UseUpgradeAction:
    """Use an installed upgrade during the hero's turn, before the hero card is played: pay for the use, then
    its effect happens, with the choices the effect needs."""

    do: Literal["use_upgrade"]
    upgrade: str = field(metadata={"doc": "the installed upgrade's id"})
    pay: Literal["charge", "discard"] = field(metadata={
        "doc": "charge: remove one of its charges; discard: send the card to the box"})
    direction: Arrow | None = field(default=None, metadata={
        "doc": "shot and shift effects: the direction chosen among the card's (forward, back, left, right)"})
    slot: Slot | None = field(default=None, metadata={
        "doc": "mirror effect: the slot whose face-down mirror token turns face up; redraw effect: the slot whose "
               "hero card is replaced"})
    civilian: Pos | None = field(default=None, metadata={
        "doc": f"civilian effect: the space of the civilian vehicle that moves, {ROAD_SPACE}"})
    to: Pos | None = field(default=None, metadata={
        "doc": "civilian effect: the adjacent empty space it moves to, [column, row]"})
    energy: tuple[EnergyChoice, ...] = field(default=(), metadata={
        "doc": "shift effect onto an up-link: its energy, health or {charge: <upgrade id>}"})
    discard: tuple[DiscardChoice, ...] = field(default=(), metadata={
        "doc": "shift effect into an electric shock: {charge: <upgrade id>} or {card: <device upgrade id>}"})


@dataclass(frozen=True)
class ScoreAction:
    """Score an accomplished mission; its points go to the upgrade step."""

    do: Literal["score"]


@dataclass(frozen=True)
class SpendAction:
    """Spend points in the upgrade step (Repairs and Upgrades)."""

    do: Literal["spend"]
    buy: Literal["health", "install", "charge", "start_forward"] = field(metadata={
        "doc": "health: one health (1 point); install: an offered upgrade (its cost); charge: one charge on an "
               "installed upgrade (1 point); start_forward: one space of head start for the boss encounter "
               "(1 point, after mission 3, at most 4)"})
    upgrade: str | None = field(default=None, metadata={
        "doc": "the upgrade's id, for install and charge only"})
    times: int = field(default=1, metadata={"doc": "how many times to buy it, each paid", "min": 1})

    def check(self) -> tuple[str, str] | None:
        needs = self.buy in ("install", "charge")
        if needs and self.upgrade is None:
            return "upgrade", f"buying {self.buy} needs upgrade: <id>"
        if not needs and self.upgrade is not None:
            return "upgrade", f"buying {self.buy} takes no upgrade"
        return None


@dataclass(frozen=True)
class FinishAction:
    """End the upgrade step; unspent points are lost."""

    do: Literal["finish"]


@dataclass(frozen=True)
class StartMissionAction:
    """Set up the next mission (mission cards from the mission deck, movement deck shuffled by chance)."""

    do: Literal["start_mission"]


@dataclass(frozen=True)
class BossSetupAction:
    """Set up the boss: pink cards and weapon cards by chance (unless boss.pink and boss.weapons fix them)."""

    do: Literal["boss_setup"]


@dataclass(frozen=True)
class BossTurnAction:
    """The boss's turn: upkeep, move, weapon activation, card replacement."""

    do: Literal["boss_turn"]
    hero_to: Pos | None = field(default=None, metadata={
        "doc": "when the boss lands on the hero: the free adjacent space the hero moves to, [column, row]"})
    discard: tuple[DiscardChoice, ...] = field(default=(), metadata={
        "doc": "for each electric shock met, in order: {charge: <upgrade id>} or {card: <device upgrade id>}"})


ACTIONS: dict[str, type] = {
    "move": MoveAction,
    "brake": BrakeAction,
    "enemy_fire": EnemyFireAction,
    "civilian_move": CivilianMoveAction,
    "laser_strike": LaserStrikeAction,
    "use_upgrade": UseUpgradeAction,
    "score": ScoreAction,
    "spend": SpendAction,
    "finish": FinishAction,
    "start_mission": StartMissionAction,
    "boss_setup": BossSetupAction,
    "boss_turn": BossTurnAction,
}
Action = (MoveAction | BrakeAction | EnemyFireAction | CivilianMoveAction | LaserStrikeAction | UseUpgradeAction
          | ScoreAction | SpendAction | FinishAction | StartMissionAction | BossSetupAction | BossTurnAction)
