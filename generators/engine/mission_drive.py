"""Mission: Drive, as an executable rules model (source: the Mission: Drive rulebook only).

Board and coordinates
    The road is the two road boards end to end: `lanes` columns by `rows` rows, read from the road
    boards' facts (5 x 12). A space is `[col, row]`; row 0 is the edge nearest the player (the
    dashboard end), forward = row + 1, back = row - 1, left = col - 1, right = col + 1.

Content the engine reads (`facts:` on the faces, never retyped here)
    movement-cards (hero arrows, enemy and civilian cards, counts), mission-cards (each side's
    vehicles and up-links, on one road board), boss-weapons (symbol type and outcome), upgrade-cards
    (the house upgrades: cost, charge spaces, device mark, effect), boss-tiles and boss-movement-cards (the house
    bosses: parts, vulnerable spots, targeted and activation spaces; each card side's position on the
    far road board and its weapon symbols), the vehicle and weapon tokens and the boss damage tokens
    (how many the box has), the dashboard (health track) and the road boards (size).

A whole game (`new_game`) follows Setting Up the Game: the mission deck and the upgrade deck are
shuffled, six upgrades revealed, and mission 1 is set up from the top two mission cards (movement
deck shuffled, three hero cards dealt). Stages follow each other by actions: `score` after an
accomplished mission, the upgrade step (`spend`, `finish`), `start_mission` for the next mission,
`boss_setup` after the third, then alternating `boss_turn` and hero turns until the boss is
defeated or the hero loses. The short game is one green/pink mission after a 7-point upgrade step.

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

Upgrades (house designs) carry an effect of a small vocabulary (`UpgradeEffect`): most act at once, three
last for the rest of the turn (`State.effects`), a shield until the hero's next turn (`State.shield`).

`evaluate` rates a state for the simulator's greedy policy: progress (missions, enemies destroyed, the
boss's vulnerable spots hit) first, then health and upgrades, then how close the hero is to something it
can hit and whether a dashboard card could hit it next turn (`WORTH`).

Outcome keys: see `outcome`. Readings where the rulebook is silent or unclear are rulings in
content/mission-drive/notes.yaml, marked `# ruling: <id>` where the code applies them.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from generators.content.schema import to_data
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
from generators.errors import KeyPath

# --- facts from the rulebook (tables and numbers printed in its text, not on a component) ------

SLOTS = ("left", "center", "right")
FIRE_DIRECTION = {"left": "left", "center": "forward", "right": "right"}  # Firing a Weapon
DELTA = {"forward": (0, 1), "back": (0, -1), "left": (-1, 0), "right": (1, 0)}
MIRRORED = {"left": "right", "right": "left", "forward": "forward", "back": "back"}
# ruling: scoring-example
REWARD_POINTS = {"rookie": 8, "normal": 7, "expert": 6}  # Mission Scoring table
PINK_CARDS = {"rookie": 1, "normal": 2, "expert": 3}  # Boss Movement Card Setup table
# ruling: mission-2-card-order
MISSION_SIDES = {1: ("green", "green"), 2: ("green", "pink"), 3: ("pink", "pink")}  # Setting Up a Mission
SHORT_GAME_SIDES = ("green", "pink")  # Variant - Short Game
SHORT_GAME_POINTS = 7
START_FORWARD_LIMIT = 4  # Repairs and Upgrades
# ruling: upgrade-offer-once
UPGRADES_REVEALED = 6  # Setting Up a Mission: reveal the top six upgrade cards
LASER_PENALTY = 1  # Satellite Laser Strike: one less point in each upgrade step
WEAPON_TYPES = ("target", "launch", "drone")
# ruling: rocket-missile-names
TOKEN_OF = {"launch": "rocket", "drone": "drone"}
LEVELS = ("rookie", "normal", "expert")

Pos = tuple[int, ...]
Space = tuple[int, int]
Arrow = Literal["forward", "back", "left", "right"]
VehicleType = Literal["car", "motorcycle", "truck"]
Side = Literal["enemy", "civilian"]
Level = Literal["rookie", "normal", "expert"]
Slot = Literal["left", "center", "right"]
WeaponType = Literal["target", "launch", "drone"]
Outcome = Literal["explosion", "electric-shock", "disorientation"]
CardSpec = tuple[Arrow, ...] | Literal["enemy", "civilian"]

# How a space is written, repeated in the docs of the fields that hold one (editors show each alone).
ROAD_SPACE = "[column, row] on the road (column 0 is the left lane, row 0 the row nearest the player)"
OFFSET = "[columns right, rows away from the player]"


# --- facts specs: what the engine reads from each component's faces ---------------------------


def _on_card(at: Pos, lanes: int, rows: int) -> bool:
    return len(at) == 2 and 0 <= at[0] < lanes and 0 <= at[1] < rows


@dataclass(frozen=True)
class WeaponFacts:
    """A boss weapon card: the symbol it answers and the outcome it causes (Weapons)."""

    type: WeaponType = field(metadata={"doc": "the symbol on boss movement cards that activates it"})
    outcome: Outcome = field(metadata={"doc": "what happens when it strikes the hero: explosion (one damage), "
                                       "electric-shock (discard a charge or a device card, then brake two spaces) "
                                       "or disorientation (move by the movement deck's top card)"})


@dataclass(frozen=True)
class MovementCardFacts:
    """A movement card: a hero card's arrows, or an enemy / civilian card."""

    kind: Literal["hero", "enemy", "civilian"] = field(
        metadata={"doc": "hero: played from the dashboard; enemy or civilian: resolved when drawn"})
    arrows: tuple[Arrow, ...] = field(default=(), metadata={"doc": "a hero card's arrows, in the order the hero "
                                                            "moves them; none on enemy and civilian cards"})

    def check(self) -> tuple[str, str] | None:
        if (self.kind == "hero") != bool(self.arrows):
            return "arrows", "a hero card has arrows; enemy and civilian cards have none"
        return None


@dataclass(frozen=True)
class LayoutVehicle:
    """A vehicle token a mission card side places on its road board."""

    side: Side = field(metadata={"doc": "enemy (destroy them all to accomplish the mission) or civilian"})
    type: VehicleType = field(metadata={"doc": "the face of the token placed up"})
    at: Pos = field(metadata={"doc": "[column, row] on this card's road board, 5 x 6 (column 0 is the left lane, "
                                     "row 0 the row nearest the player)"})


@dataclass(frozen=True)
class MissionLayout:
    """One side of a mission card, on one road board (5 lanes x 6 rows, row 0 nearest the player)."""

    vehicles: tuple[LayoutVehicle, ...] = field(default=(), metadata={"doc": "the vehicles this side places"})
    uplinks: tuple[Pos, ...] = field(default=(), metadata={
        "doc": "satellite up-link spaces, one energy cube each, [column, row] as for vehicles (pink sides only)"})

    def check(self) -> tuple[str, str] | None:
        spaces = [v.at for v in self.vehicles] + list(self.uplinks)
        for i, at in enumerate(spaces):
            if not _on_card(at, 5, 6):
                return "vehicles" if i < len(self.vehicles) else "uplinks", f"{list(at)} is off the 5 x 6 board"
        if len(set(spaces)) != len(spaces):
            return "vehicles", "two things share one space"
        return None


@dataclass(frozen=True)
class MissionCardFacts:
    """A mission card: the layout of each side (a mission is two cards end to end)."""

    green: MissionLayout = field(metadata={"doc": "the easier side: both cards of mission 1, the near card of "
                                           "mission 2"})
    pink: MissionLayout = field(metadata={"doc": "the harder side, with up-links: the far card of mission 2, both "
                                          "cards of mission 3"})

    def check(self) -> tuple[str, str] | None:
        if self.green.uplinks:
            return "green", "satellite up-links are on pink sides only (Setting Up a Mission)"
        return None


EffectKind = Literal["repair", "shot", "shift", "mirror", "redraw", "civilian", "disarm", "ram-proof", "double-shot",
                     "jam", "shield"]
NEEDS_DIRECTIONS = ("shot", "shift")
THIS_TURN = ("ram-proof", "double-shot", "jam")  # effects that last until the end of the turn they are used in
EFFECT_DOC = (
    "what one use does. At once: repair (gain `amount` health, never above full), shot (fire in one of "
    "`directions`: the first vehicle, boss part or weapon token up to `range` spaces away in that line takes one "
    "hit, as from your weapon), shift (move the hero one space in one of `directions`, ramming as an arrow does), "
    "mirror (turn one face-down mirror token face up), redraw (discard the hero card of one dashboard slot and "
    "refill the slot from the movement deck, resolving enemy and civilian cards drawn), civilian (move one "
    "civilian vehicle to an adjacent empty space, as a civilian card does), disarm (remove every rocket and drone "
    "token up to `range` spaces from the hero, diagonals included). For the rest of this turn: ram-proof (ramming "
    "costs the hero no health), double-shot (the hero card played may fire both before and after moving), jam "
    "(enemy cards drawn have no effect). Until your next turn: shield (the next `amount` damage the hero would "
    "take is prevented)")


@dataclass(frozen=True)
class UpgradeEffect:
    """What one use of an upgrade does: one kind of a small effect vocabulary the engine plays, with its
    numbers (house design: the rulebook prints no upgrade card)."""

    kind: EffectKind = field(metadata={"doc": EFFECT_DOC})
    amount: int = field(default=1, metadata={"doc": "repair: the health gained; shield: the damage prevented "
                                             "(other kinds: leave at 1)", "min": 1})
    range: int = field(default=1, metadata={"doc": "shot: how many spaces the shot reaches along its line; disarm: "
                                            "how many spaces around the hero it reaches (other kinds: leave at 1)",
                                            "min": 1})
    directions: tuple[Arrow, ...] = field(default=(), metadata={
        "doc": "shot and shift: the directions (forward, back, left, right, as seen looking up the road) the "
               "player chooses from at each use; other kinds have none"})

    def check(self) -> tuple[str, str] | None:
        if (self.kind in NEEDS_DIRECTIONS) != bool(self.directions):
            return "directions", "shot and shift choose among directions; other effects have none"
        if len(set(self.directions)) != len(self.directions):
            return "directions", "a direction is listed twice"
        if self.amount != 1 and self.kind not in ("repair", "shield"):
            return "amount", f"a {self.kind} effect has no amount"
        if self.range != 1 and self.kind not in ("shot", "disarm"):
            return "range", f"a {self.kind} effect has no range"
        return None


@dataclass(frozen=True)
class UpgradeFacts:
    """An upgrade card (house design: the rulebook names 15 upgrades but prints none)."""

    cost: int = field(metadata={"doc": "points to install it in the upgrade step", "min": 0})
    charge_spaces: int = field(metadata={"doc": "the most charge cubes it can hold", "min": 0})
    effect: UpgradeEffect = field(metadata={"doc": "what each use of it does (each use costs a charge or the card)"})
    device: bool = field(default=False, metadata={"doc": "a device card: an electric shock may discard it"})


@dataclass(frozen=True)
class VehicleTokenFacts:
    """A vehicle token: its side and the vehicle types its two faces show."""

    side: Side = field(metadata={"doc": "enemy or civilian"})
    types: tuple[VehicleType, ...] = field(metadata={
        "doc": "the vehicle types its faces show: [car, motorcycle], or [truck] (its back is the damaged truck)"})


@dataclass(frozen=True)
class WeaponTokenFacts:
    """A weapon token a boss's weapon cards put on the road."""

    kind: Literal["rocket", "drone"] = field(metadata={"doc": "rocket (launch weapons) or drone (drone weapons)"})


@dataclass(frozen=True)
class CountFacts:
    """A component the engine only counts (the boss damage tokens)."""


@dataclass(frozen=True)
class DashboardFacts:
    """The dashboard: the length of its health track."""

    health_spaces: int = field(metadata={"doc": "spaces on the health track, the leftmost (no health left) included, "
                                         "so full health is one less", "min": 2})


@dataclass(frozen=True)
class RoadBoardFacts:
    """One road board's size; the boards lie end to end, so the road is as long as their rows together."""

    lanes: int = field(metadata={"doc": "columns (lanes) across the board", "min": 2})
    rows: int = field(metadata={"doc": "rows along the board", "min": 1})


@dataclass(frozen=True)
class BossPartFacts:
    """One part of a boss tile (a road space it covers)."""

    id: str = field(metadata={"doc": "the part's name, unique on its tile; a tile used twice "
                              "prefixes it with the tile (rover-1-cab)"})
    at: Pos = field(metadata={"doc": f"offset {OFFSET} from the tile's left space, which is [0, 0]"})
    vulnerable: bool = field(default=False, metadata={"doc": "a vulnerable spot: damaging every vulnerable part "
                                                      "defeats the boss"})
    targets: tuple[Pos, ...] = field(default=(), metadata={
        "doc": f"spaces a target weapon strikes from this part while it is undamaged, each an offset {OFFSET} from "
               "the part (negative rows: toward the player)"})


@dataclass(frozen=True)
class BossTileFacts:
    """A boss tile: the boss it belongs to, its parts (offsets from the tile's left space), the spaces
    they target and the activation spaces (both as offsets from the tile)."""

    boss: str = field(metadata={"doc": "the boss it belongs to (a boss may have several tiles)"})
    parts: tuple[BossPartFacts, ...] = field(metadata={"doc": "the road spaces the tile covers"})
    activation: tuple[Pos, ...] = field(default=(), metadata={
        "doc": f"activation spaces, where launch and drone weapons place their tokens: offsets {OFFSET} from the "
               "tile's left space"})

    def check(self) -> tuple[str, str] | None:
        ids = [p.id for p in self.parts]
        if not ids or len(set(ids)) != len(ids):
            return "parts", "a tile has parts with different ids"
        return None


@dataclass(frozen=True)
class BossCardSideFacts:
    """Where the boss moves: the space of each tile's left part on the far road board (row 0 nearest
    the player), one per tile in the order of the boss tiles; and the weapon symbols shown."""

    at: tuple[Pos, ...] = field(metadata={
        "doc": "one [column, row] per boss tile, in the order of the tiles: the space of its left part on the far "
               "road board (row 0 is that board's row nearest the player)"})
    weapons: tuple[WeaponType, ...] = field(default=(), metadata={
        "doc": "the weapon symbols shown (pink cards only): each activates the boss's weapon card of that type"})

    def check(self) -> tuple[str, str] | None:
        if not self.at or any(len(p) != 2 for p in self.at):
            return "at", "give one [column, row] per boss tile"
        return None


@dataclass(frozen=True)
class BossCardFacts:
    """A boss movement card: which boss, its number and colour, and where each side moves the boss."""

    boss: str = field(metadata={"doc": "the boss it moves (as named by the boss tiles)"})
    number: Literal[1, 2, 3] = field(metadata={"doc": "its place in the column at boss setup (1 nearest the player)"})
    color: Literal["green", "pink"] = field(metadata={"doc": "green: no weapon symbols; pink: weapon symbols "
                                                      "(boss difficulty decides how many are pink)"})
    front: BossCardSideFacts = field(metadata={"doc": "the side up at boss setup"})
    back: BossCardSideFacts = field(metadata={"doc": "the side shown after card replacement flips it"})

    def check(self) -> tuple[str, str] | None:
        if self.color == "green" and (self.front.weapons or self.back.weapons):
            return "color", "green boss cards show no weapon symbols (pink cards are the ones with weapon icons)"
        return None


FACTS_SPECS: dict[str, type] = {
    "boss-weapons": WeaponFacts,
    "movement-cards": MovementCardFacts,
    "mission-cards": MissionCardFacts,
    "upgrade-cards": UpgradeFacts,
    "enemy-vehicles": VehicleTokenFacts,
    "civilian-vehicles": VehicleTokenFacts,
    "enemy-trucks": VehicleTokenFacts,
    "civilian-trucks": VehicleTokenFacts,
    "weapon-tokens": WeaponTokenFacts,
    "boss-damage-tokens": CountFacts,
    "dashboard": DashboardFacts,
    "road-boards": RoadBoardFacts,
    "boss-tiles": BossTileFacts,
    "boss-movement-cards": BossCardFacts,
}


# --- the game's facts, as the engine uses them -------------------------------------------------


@dataclass(frozen=True)
class Card:
    """A movement card: a hero card with its arrows, or an enemy / civilian card."""

    kind: str  # hero | enemy | civilian
    arrows: tuple[str, ...] = ()

    def label(self) -> Any:
        return list(self.arrows) if self.kind == "hero" else self.kind


@dataclass(frozen=True)
class BossPart:
    id: str
    tile: str
    offset: Space
    vulnerable: bool
    targets: tuple[Space, ...]


@dataclass(frozen=True)
class BossFace:
    at: tuple[tuple[str, Space], ...]  # (tile, its anchor space on the road)
    weapons: tuple[str, ...]


@dataclass(frozen=True)
class BossCard:
    number: int
    color: str
    faces: tuple[BossFace, BossFace]
    up: int = 0  # 0 = front, 1 = back

    @property
    def face(self) -> BossFace:
        return self.faces[self.up]

    def flipped(self) -> BossCard:
        return replace(self, up=1 - self.up)


@dataclass(frozen=True)
class BossDesign:
    """A boss from the content: tiles, parts and the six movement cards (far-board positions)."""

    name: str
    tiles: tuple[str, ...]
    parts: tuple[BossPart, ...]
    activation: tuple[tuple[str, Space], ...]
    cards: tuple[BossCardFacts, ...]


@dataclass(frozen=True, eq=False)
class Facts:
    """Everything the engine reads from the content, built once per content and shared by states."""

    lanes: int
    rows: int
    board_rows: int
    health_spaces: int
    movement: tuple[tuple[str, Card], ...]  # (face id, card), one entry per copy, content order
    weapons: Mapping[str, WeaponFacts]
    missions: Mapping[str, MissionCardFacts]
    upgrades: Mapping[str, UpgradeFacts]
    bosses: Mapping[str, BossDesign]
    box: tuple[tuple[str, tuple[str, ...], int], ...]  # vehicle tokens: (side, types, how many)
    supply: Mapping[str, int]  # weapon tokens by kind
    damage_tokens: int
    titles: Mapping[str, str] = field(default_factory=dict)  # face id -> its printed title, for messages

    def title(self, face_id: str) -> str:
        return self.titles.get(face_id, face_id)

    def __deepcopy__(self, memo: dict[int, Any]) -> Facts:
        return self  # read-only, shared by every state of a game

    def card(self, face_id: str) -> Card:
        return next(card for fid, card in self.movement if fid == face_id)

    def count(self, kind: str) -> int:
        return sum(1 for _, card in self.movement if card.kind == kind)


_FACTS: dict[int, tuple[GameContent, Facts]] = {}


def facts_of(content: GameContent) -> Facts:
    """The engine's view of the content (cached per content object)."""
    cached = _FACTS.get(id(content))
    if cached is not None and cached[0] is content:
        return cached[1]
    facts = _build_facts(content)
    _FACTS[id(content)] = (content, facts)
    return facts


def _build_facts(content: GameContent) -> Facts:
    boards = content.faces("road-boards")
    lanes = boards[0].facts.lanes
    movement = tuple((f.id, Card(f.facts.kind, tuple(f.facts.arrows))) for f in content.faces("movement-cards")
                     for _ in range(f.count))
    box = tuple((f.facts.side, tuple(f.facts.types), f.count)
                for comp in ("enemy-vehicles", "civilian-vehicles", "enemy-trucks", "civilian-trucks")
                for f in content.faces(comp))
    supply: dict[str, int] = {}
    for f in content.faces("weapon-tokens"):
        supply[f.facts.kind] = supply.get(f.facts.kind, 0) + f.count
    return Facts(
        # ruling: road-size
        lanes=lanes,
        rows=sum(f.facts.rows * f.count for f in boards),
        board_rows=boards[-1].facts.rows,
        # ruling: health-track-length
        health_spaces=content.faces("dashboard")[0].facts.health_spaces,
        movement=movement,
        weapons={f.id: f.facts for f in content.faces("boss-weapons")},
        missions={f.id: f.facts for f in content.faces("mission-cards")},
        upgrades={f.id: f.facts for f in content.faces("upgrade-cards")},
        bosses=_boss_designs(content),
        box=box,
        supply=supply,
        damage_tokens=sum(f.count for f in content.faces("boss-damage-tokens")),
        titles=dict(content.names),
    )


def _boss_designs(content: GameContent) -> dict[str, BossDesign]:
    """Each boss's tiles (a face used twice, like the rovers, gives tiles rover-1 and rover-2) and cards."""
    tiles: dict[str, list[str]] = {}
    parts: dict[str, list[BossPart]] = {}
    activation: dict[str, list[tuple[str, Space]]] = {}
    for face in content.faces("boss-tiles"):
        f = face.facts
        names = [face.id] if face.count == 1 else [f"{face.id}-{i}" for i in range(1, face.count + 1)]
        for tile in names:
            tiles.setdefault(f.boss, []).append(tile)
            prefix = "" if face.count == 1 else f"{tile}-"
            parts.setdefault(f.boss, []).extend(
                BossPart(prefix + p.id, tile, _pair(p.at), p.vulnerable, tuple(_pair(t) for t in p.targets))
                for p in f.parts)
            activation.setdefault(f.boss, []).extend((tile, _pair(a)) for a in f.activation)
    cards: dict[str, list[BossCardFacts]] = {}
    for face in content.faces("boss-movement-cards"):
        cards.setdefault(face.facts.boss, []).extend([face.facts] * face.count)
    return {name: BossDesign(name, tuple(tiles[name]), tuple(parts[name]), tuple(activation.get(name, ())),
                             tuple(cards.get(name, ())))
            for name in tiles}


def _pair(p: Sequence[int]) -> Space:
    return int(p[0]), int(p[1])


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


# --- state -------------------------------------------------------------------------------------


def _shallow(obj: Any) -> Any:
    """A shallow copy of a plain (unslotted, unfrozen) dataclass instance: copy.copy without its
    generic protocol, which costs several times more in the simulator's look-aheads."""
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    return new


@dataclass
class Vehicle:
    side: str
    type: str
    at: Space
    damaged: bool = False


@dataclass
class Upgrade:
    id: str
    cost: int
    charge_spaces: int
    charges: int
    device: bool
    effect: UpgradeEffect | None = None  # frozen, shared between copies

    def copy(self) -> Upgrade:
        return _shallow(self)


@dataclass
class Token:
    id: int
    kind: str  # rocket | drone
    at: Space


@dataclass(frozen=True)
class Pending:
    """A drawn enemy or civilian card waiting for the player's choice. `ends_turn`: it was drawn while
    refilling after the hero card was played (not by an upgrade during the turn)."""

    kind: str
    slot: str
    card: Card
    ends_turn: bool = True


@dataclass(frozen=True)
class Destroyed:
    side: str
    type: str
    by: str


@dataclass
class Boss:
    name: str
    parts: tuple[BossPart, ...]
    tiles: tuple[str, ...]
    activation: tuple[tuple[str, Space], ...]
    column: list[BossCard]
    cards: tuple[BossCard, ...]  # the six to set up (before boss_setup)
    pink: tuple[int, ...] | None
    weapons: dict[str, str]
    fixed_weapons: dict[str, str]
    at: dict[str, Space] | None
    damaged: list[str]

    def clone(self) -> Boss:
        new = _shallow(self)
        new.column, new.weapons, new.fixed_weapons = list(self.column), dict(self.weapons), dict(self.fixed_weapons)
        new.at, new.damaged = None if self.at is None else dict(self.at), list(self.damaged)
        return new


@dataclass
class State:
    facts: Facts
    lanes: int
    rows: int
    phase: str  # mission | upgrades | next-mission | boss-setup | boss
    variant: str
    mission: int
    reward: str
    difficulty: str
    boss_name: str
    health_track: int
    health: int
    hero: Space
    vehicles: list[Vehicle] = field(default_factory=list)
    uplinks: list[Space] = field(default_factory=list)
    slots: dict[str, Card | None] = field(default_factory=lambda: dict.fromkeys(SLOTS))
    mirrors: dict[str, bool] = field(default_factory=lambda: dict.fromkeys(SLOTS, True))
    deck: list[Card] = field(default_factory=list)
    discard: list[Card] = field(default_factory=list)
    destroyed: list[Destroyed] = field(default_factory=list)
    upgrades: list[Upgrade] = field(default_factory=list)
    offer: list[Upgrade] = field(default_factory=list)
    mission_cards: list[tuple[str, str]] = field(default_factory=list)  # (card id, side), near card first
    mission_deck: list[str] = field(default_factory=list)
    points: int = 0
    laser_used: bool = False
    start_forward: int = 0
    boss: Boss | None = None
    tokens: list[Token] = field(default_factory=list)
    turn: str | None = None  # boss phase: setup | boss | hero
    mission_status: str | None = "playing"
    game: str = "playing"
    pending: Pending | None = None
    damage_taken: int = 0
    score: int | None = None
    points_lost: int = 0
    next_token: int = 1
    supply: dict[str, int] = field(default_factory=dict)
    turns: int = 0  # hero turns played (missions and boss encounter)
    effects: list[str] = field(default_factory=list)  # upgrade effects lasting for the rest of this turn
    shield: int = 0  # damage an upgrade will prevent before the hero's next turn
    upgrades_used: int = 0
    boss_turns: int = 0
    missions_accomplished: int = 0
    total_score: int = 0

    @property
    def max_health(self) -> int:
        return self.health_track - 1

    def __getstate__(self) -> dict[str, Any]:
        # The dry runs' cache (`_tried`) and copy-on-write marks (`_own`) are not the game's state:
        # they never travel with it, and a refusal that only filled the cache left the state as it was.
        return {k: v for k, v in self.__dict__.items() if k not in ("_tried", "_own")}

    def clone(self) -> State:
        """A copy `apply` changes freely: every mutable part is copied; frozen parts (cards, facts) are
        shared, and so are the vehicles, installed and offered upgrades until one changes (see _own)."""
        new = _shallow(self)
        new.__dict__.pop("_tried", None)  # the dry runs' results belong to this state, not its copy
        new.__dict__.pop("_own", None)
        new.vehicles = list(self.vehicles)
        new.uplinks = list(self.uplinks)
        new.slots = dict(self.slots)
        new.mirrors = dict(self.mirrors)
        new.deck = list(self.deck)
        new.discard = list(self.discard)
        new.destroyed = list(self.destroyed)
        new.upgrades = list(self.upgrades)
        new.offer = list(self.offer)  # never changed while on offer: installing one copies it
        new.effects = list(self.effects)
        new.mission_cards = list(self.mission_cards)
        new.mission_deck = list(self.mission_deck)
        new.boss = None if self.boss is None else self.boss.clone()
        new.tokens = [_shallow(t) for t in self.tokens]
        new.supply = dict(self.supply)
        return new

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        new = self.clone()
        new.vehicles = [_shallow(v) for v in self.vehicles]
        new.upgrades = [u.copy() for u in self.upgrades]
        new.offer = [u.copy() for u in self.offer]
        return new


def _own(s: State, items: list[Any], item: Any) -> Any:
    """`item` (a vehicle or an installed upgrade of `s`) made this state's own before it changes: a clone
    shares them with the state it copies (most actions change none), so the first change puts a copy in
    its place. Later changes in the same action find the copy, which is `s`'s already."""
    mine = s.__dict__.setdefault("_own", set())
    if id(item) in mine:
        return item
    i = next(i for i, x in enumerate(items) if x is item)
    items[i] = new = _shallow(item)
    mine.add(id(new))
    return new


# --- building a scenario's state ---------------------------------------------------------------


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


def initial_state(spec: SetupSpec, facts: Facts) -> State:
    """The state a scenario's setup describes; SetupError(path) if the rules cannot reach it."""
    lanes, rows = (spec.road.lanes, spec.road.rows) if spec.road else (facts.lanes, facts.rows)

    def sp(value: Pos, path: KeyPath) -> Space:
        return _space(value, path, lanes, rows)

    track = spec.health_track or facts.health_spaces
    health = track - 1 if spec.hero.health is None else spec.hero.health
    if health > track - 1:
        raise SetupError(("hero", "health"), f"health {health} does not fit a track of {track} spaces")
    default_row = spec.start_forward if spec.phase == "boss" else 0
    hero = sp(spec.hero.at, ("hero", "at")) if spec.hero.at is not None else (lanes // 2, default_row)
    _check_progress(spec)
    state = State(
        facts=facts, lanes=lanes, rows=rows, phase=spec.phase, variant=spec.variant, mission=spec.mission,
        reward=spec.reward, difficulty=spec.difficulty, boss_name=spec.boss.name if spec.boss else "tank",
        health_track=track, health=health, hero=hero,
        vehicles=[Vehicle(side, v.type, sp(v.at, (key, i, "at")), v.damaged)
                  for side, key in (("enemy", "enemies"), ("civilian", "civilians"))
                  for i, v in enumerate(getattr(spec, key))],
        uplinks=[sp(u, ("uplinks", i)) for i, u in enumerate(spec.uplinks)],
        slots={s: (Card("hero", tuple(getattr(spec.dashboard, s))) if getattr(spec.dashboard, s) else None)
               for s in SLOTS},
        mirrors={s: getattr(spec.mirrors, s) for s in SLOTS},
        deck=[_card(c, ("deck", i)) for i, c in enumerate(spec.deck)],
        discard=[_card(c, ("discard", i)) for i, c in enumerate(spec.discard)],
        destroyed=[Destroyed(d.side, d.type, "earlier") for d in spec.destroyed],
        upgrades=[_upgrade(u, facts, ("upgrades", i)) for i, u in enumerate(spec.upgrades)],
        offer=[_upgrade(u, facts, ("offer", i)) for i, u in enumerate(spec.offer)],
        mission_deck=_mission_deck(spec, facts),
        points=_initial_points(spec),
        laser_used=spec.laser_used,
        start_forward=spec.start_forward,
        supply=dict(facts.supply),
    )
    _check_upgrades(spec)
    _check_box(state, spec)
    _check_movement_cards(state, spec)
    if spec.phase == "boss":
        _setup_boss_phase(state, spec)
    elif spec.boss is not None and spec.boss != BossSpec(name=spec.boss.name):
        raise SetupError(("boss",), "before the boss encounter (phase: boss), boss: gives only the name of the "
                         "boss chosen at game setup")
    elif spec.tokens:
        raise SetupError(("tokens",), "weapon tokens only appear in a boss encounter (phase: boss)")
    if spec.boss is not None and not spec.boss.parts and spec.boss.name not in facts.bosses:
        raise SetupError(("boss", "name"), f"no boss {spec.boss.name!r} in the content; bosses: "
                         f"{', '.join(facts.bosses)}")
    _check_overlaps(state, spec)
    _check_dashboard(state)
    if spec.phase == "upgrades":
        state.mission_status = None if spec.variant == "short" else "accomplished"
    _settle(state)
    return state


def _upgrade(u: UpgradeSpec, facts: Facts, path: KeyPath) -> Upgrade:
    """An upgrade: a content card by its id (values from the card unless given), or one written out."""
    card = facts.upgrades.get(u.id)
    cost = u.cost if u.cost is not None else (card.cost if card else 0)
    spaces = u.charge_spaces if u.charge_spaces is not None else (card.charge_spaces if card else 0)
    device = u.device if u.device is not None else (card.device if card else False)
    effect = u.effect if u.effect is not None else (card.effect if card else None)
    if u.charges > spaces:
        raise SetupError((*path, "charges"), f"{u.charges} charges do not fit on {spaces} charge spaces")
    return Upgrade(u.id, cost, spaces, u.charges, device, effect)


def _mission_deck(spec: SetupSpec, facts: Facts) -> list[str]:
    for i, mid in enumerate(spec.mission_deck):
        if mid not in facts.missions:
            raise SetupError(("mission_deck", i), f"no mission card {mid!r}; cards: {', '.join(facts.missions)}")
        if mid in spec.mission_deck[:i]:
            raise SetupError(("mission_deck", i), f"mission card {mid!r} appears twice")
    left = len(facts.missions) - 2 * spec.mission  # two cards per mission, the current one's on the road
    if spec.mission_deck and len(spec.mission_deck) != left:
        raise SetupError(("mission_deck",), f"after the cards of mission {spec.mission}, {left} mission cards are "
                         f"left in the deck, not {len(spec.mission_deck)}")
    return list(spec.mission_deck)


def _initial_points(spec: SetupSpec) -> int:
    if spec.phase != "upgrades":
        if spec.points:
            raise SetupError(("points",), "points are only held during an upgrade step (phase: upgrades)")
        return 0
    most = SHORT_GAME_POINTS if spec.variant == "short" else REWARD_POINTS[spec.reward]
    if spec.points is None:
        if spec.variant == "short":
            return SHORT_GAME_POINTS  # Variant - Short Game: 7 points before you start
        raise SetupError(("points",), "an upgrade step needs points: n (the points scored by the mission)")
    if spec.points > most:
        where = "the short game gives" if spec.variant == "short" else f"a {spec.reward} mission scores at most"
        raise SetupError(("points",), f"{spec.points} points: {where} {most}")
    return spec.points


def _check_progress(spec: SetupSpec) -> None:
    """Mission sides, variant, laser strike and head start as far as the game can have got."""
    if spec.cards is not None:
        wanted = SHORT_GAME_SIDES if spec.variant == "short" else MISSION_SIDES[spec.mission]
        if sorted(spec.cards) != sorted(wanted):
            which = "the short game" if spec.variant == "short" else f"mission {spec.mission}"
            raise SetupError(("cards",), f"{which} uses mission card sides {' / '.join(wanted)}, got "
                             f"{' / '.join(spec.cards)}")
    sides = SHORT_GAME_SIDES if spec.variant == "short" else MISSION_SIDES[spec.mission]
    if spec.uplinks and spec.phase != "boss" and "pink" not in sides:
        raise SetupError(("uplinks", 0), f"satellite up-links are only on pink mission cards, and mission "
                         f"{spec.mission} is played on two green cards (Setting Up a Mission)")
    if spec.variant == "short" and (spec.mission != 1 or spec.phase == "boss"):
        key = "phase" if spec.phase == "boss" else "mission"
        raise SetupError((key,), "the short game is one mission, with no boss encounter")
    if spec.laser_used and spec.reward != "rookie":
        raise SetupError(("laser_used",), "the satellite laser strike is only for the rookie mission reward level")
    if spec.start_forward and not (spec.phase == "boss" or (spec.phase == "upgrades" and spec.mission == 3
                                                            and spec.variant == "standard")):
        raise SetupError(("start_forward",), "the head start is only bought in the upgrade step after the third "
                         "mission, for the boss encounter")


def _check_upgrades(spec: SetupSpec) -> None:
    seen: set[str] = set()
    for key, group in (("upgrades", spec.upgrades), ("offer", spec.offer)):
        for i, u in enumerate(group):
            if u.id in seen:
                raise SetupError((key, i, "id"), f"upgrade {u.id!r} appears twice")
            seen.add(u.id)
            if len(seen) > UPGRADES_REVEALED:
                raise SetupError((key, i), f"only {UPGRADES_REVEALED} upgrade cards are revealed in a game, so at "
                                 f"most {UPGRADES_REVEALED} can be installed or on offer")


def _check_box(state: State, spec: SetupSpec) -> None:
    """No more vehicles of a kind than the box has tokens (on the road plus destroyed this mission)."""
    left = {(side, types): count for side, types, count in state.facts.box}
    entries = [("enemy" if key == "enemies" else "civilian", v.type, (key, i))
               for key in ("enemies", "civilians") for i, v in enumerate(getattr(spec, key))]
    entries += [(d.side, d.type, ("destroyed", i)) for i, d in enumerate(spec.destroyed)]
    for side, vtype, path in entries:
        group = next(((s, t) for s, t, _ in state.facts.box if s == side and vtype in t), None)
        if group is None or left[group] == 0:
            total = sum(c for s, t, c in state.facts.box if s == side and vtype in t)
            raise SetupError(path, f"the box has only {total} {side} token(s) that can show a {vtype}")
        left[group] -= 1


def _check_movement_cards(state: State, spec: SetupSpec) -> None:
    """No more hero, enemy or civilian cards than the movement deck has; none of the last two once the
    boss is set up (Hero Card Setup)."""
    left = {kind: state.facts.count(kind) for kind in ("hero", "enemy", "civilian")}
    boss_ready = spec.phase == "boss" and spec.boss is not None and bool(spec.boss.column)
    places = [(("dashboard", s), state.slots[s]) for s in SLOTS]
    places += [(("deck", i), c) for i, c in enumerate(state.deck)]
    places += [(("discard", i), c) for i, c in enumerate(state.discard)]
    for path, card in places:
        if card is None:
            continue
        if boss_ready and card.kind != "hero":
            raise SetupError(path, f"the {card.kind} cards go back in the box at boss setup")
        if left[card.kind] == 0:
            raise SetupError(path, f"the movement deck has only {state.facts.count(card.kind)} {card.kind} cards")
        left[card.kind] -= 1


def _check_dashboard(state: State) -> None:
    """A used slot is refilled at once, so it stays empty only once the movement deck is used up."""
    if state.phase not in ("mission", "boss") or not state.deck:
        return
    for slot in SLOTS:
        if state.slots[slot] is None:
            raise SetupError(("dashboard", slot), "a slot is refilled from the movement deck at once; it can only "
                             "be empty once the deck is used up")


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
            claim(_pair(v.at), (key, i, "at"), f"{key}[{i}]")
    for i, u in enumerate(state.uplinks):
        claim(u, ("uplinks", i), f"uplinks[{i}]")
    for i, t in enumerate(state.tokens):
        claim(t.at, ("tokens", i, "at"), f"tokens[{i}]")
    if state.boss is not None and state.boss.at is not None:
        for part in state.boss.parts:
            claim(_part_space(state.boss, part), ("boss", "at"), f"boss part {part.id!r}")


def _setup_boss_phase(state: State, spec: SetupSpec) -> None:
    b = spec.boss or BossSpec()
    for key, group in (("enemies", spec.enemies), ("civilians", spec.civilians), ("uplinks", spec.uplinks),
                       ("destroyed", spec.destroyed)):
        if group:
            raise SetupError((key,), "a boss encounter uses no mission cards, so it has no vehicles or up-links")
    if b.parts:
        parts = tuple(BossPart(p.id, p.tile, _space(p.at, ("boss", "parts", i, "at"), 0, 0, False), p.vulnerable,
                               tuple(_space(t, ("boss", "parts", i, "targets", j), 0, 0, False)
                                     for j, t in enumerate(p.targets)))
                      for i, p in enumerate(b.parts))
        tiles = tuple(dict.fromkeys(p.tile for p in parts))
        activation = tuple((tiles[0], _space(a, ("boss", "activation", i), 0, 0, False))
                           for i, a in enumerate(b.activation))
    else:
        design = state.facts.bosses.get(b.name)
        if design is None:
            raise SetupError(("boss", "name"), f"no boss {b.name!r} in the content; bosses: "
                             f"{', '.join(state.facts.bosses)}")
        parts, tiles, activation = design.parts, design.tiles, design.activation
    if b.column or b.cards:
        key = "column" if b.column else "cards"
        cards = tuple(_boss_card(c, ("boss", key, i), tiles, parts, state) for i, c in enumerate(b.column or b.cards))
    else:
        if b.at is not None or b.damaged:
            raise SetupError(("boss", "at" if b.at is not None else "damaged"), "a boss set up from its cards "
                             "(boss_setup) is not on the road yet")
        cards = _design_cards(state, state.facts.bosses[b.name], ("boss", "name"))
    boss = Boss(
        name=b.name, parts=parts, tiles=tiles, activation=activation,
        column=list(cards) if b.column else [], cards=() if b.column else cards, pink=b.pink,
        weapons=dict(b.weapons) if b.column else {}, fixed_weapons=dict(b.weapons),
        at=None if b.at is None else _anchors(b.at, ("boss", "at"), tiles, parts, state),
        damaged=sorted(b.damaged),
    )
    state.boss = boss
    state.turn = spec.turn if b.column else "setup"
    start = (state.lanes // 2, spec.start_forward)
    if not b.column and state.hero != start:
        raise SetupError(("hero", "at"), f"before the boss's first turn the hero is on its start space {list(start)} "
                         "(the centre of the near edge, start_forward spaces up)")
    _check_weapons(state, b)
    if b.column:
        _check_column(boss)
        _check_first_turn(boss, state.turn)
    else:
        _check_cards(boss, b, state.difficulty)
    unknown = [d for d in b.damaged if d not in {p.id for p in parts}]
    if unknown:
        raise SetupError(("boss", "damaged"), f"unknown part {unknown[0]!r}; parts are "
                         f"{', '.join(p.id for p in parts)}")
    if len(set(b.damaged)) != len(b.damaged):
        raise SetupError(("boss", "damaged"), "a boss part carries one damage token at most")
    if len(b.damaged) > state.facts.damage_tokens:
        raise SetupError(("boss", "damaged"), f"the game has only {state.facts.damage_tokens} boss damage tokens")
    for i, t in enumerate(spec.tokens):
        kind_type = "launch" if t.kind == "rocket" else "drone"
        if kind_type not in boss.weapons:
            raise SetupError(("tokens", i, "kind"), f"a {t.kind} token needs a {kind_type} weapon card in "
                             "boss.weapons (and a set-up column)")
        state.tokens.append(Token(state.next_token, t.kind, _space(t.at, ("tokens", i, "at"), state.lanes,
                                                                   state.rows)))
        state.next_token += 1
        state.supply[t.kind] = state.supply.get(t.kind, 0) - 1
        if state.supply[t.kind] < 0:
            raise SetupError(("tokens", i), f"the game has only {state.facts.supply.get(t.kind, 0)} {t.kind} tokens")


def _design_cards(state: State, design: BossDesign, path: KeyPath) -> tuple[BossCard, ...]:
    """The content boss's six cards in road coordinates: a card shows the far road board."""
    offset = state.rows - state.facts.board_rows
    cards = []
    for c in design.cards:
        faces = []
        for side in (c.front, c.back):
            if len(side.at) != len(design.tiles):
                raise SetupError(path, f"{design.name} card {c.number} {c.color} gives {len(side.at)} space(s) for "
                                 f"{len(design.tiles)} tile(s)")
            at = dict(zip(design.tiles, side.at, strict=True))
            faces.append(BossFace(_anchor_pairs({t: (p[0], p[1] + offset) for t, p in at.items()}, path,
                                                design.tiles, design.parts, state), tuple(side.weapons)))
        cards.append(BossCard(c.number, c.color, (faces[0], faces[1])))
    return tuple(cards)


def _anchor_pairs(value: Mapping[str, Pos], path: KeyPath, tiles: Sequence[str], parts: Sequence[BossPart],
                  state: State) -> tuple[tuple[str, Space], ...]:
    return tuple(_anchors(value, path, tiles, parts, state).items())


def _anchors(value: Pos | Mapping[str, Pos], path: KeyPath, tiles: Sequence[str], parts: Sequence[BossPart],
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
    spaces: set[Space] = set()
    for part in parts:
        col, row = _add(anchors[part.tile], part.offset)
        if not (0 <= col < state.lanes and 0 <= row < state.rows):
            raise SetupError(path, f"boss part {part.id!r} would be off the road at [{col}, {row}]")
        if (col, row) in spaces:
            raise SetupError(path, f"two boss parts would share [{col}, {row}]")
        spaces.add((col, row))
    return anchors


def _boss_card(c: BossCardSpec, path: KeyPath, tiles: Sequence[str], parts: Sequence[BossPart],
               state: State) -> BossCard:
    faces = tuple(BossFace(tuple(_anchors(f.at, (*path, side, "at"), tiles, parts, state).items()), tuple(f.weapons))
                  for side, f in (("front", c.front), ("back", c.back)))
    return BossCard(c.number, c.color, (faces[0], faces[1]), 1 if c.flipped else 0)


def _check_weapons(state: State, b: BossSpec) -> None:
    for kind, name in b.weapons.items():
        card = state.facts.weapons.get(name)
        if card is None or card.type != kind:
            names = [n for n, w in state.facts.weapons.items() if w.type == kind]
            raise SetupError(("boss", "weapons", kind), f"{name!r} is not a {kind} weapon card; expected one of "
                             f"{', '.join(names)}")


def _check_column(boss: Boss) -> None:
    if sorted(c.number for c in boss.column) != [1, 2, 3]:
        raise SetupError(("boss", "column"), "the column holds the boss's cards 1, 2 and 3 once each")
    for i, card in enumerate(boss.column):
        for side, face in zip(("front", "back"), card.faces, strict=True):
            for j, kind in enumerate(face.weapons):
                if kind not in boss.weapons:
                    raise SetupError(("boss", "column", i, side, "weapons", j),
                                     f"this card shows a {kind} symbol but boss.weapons has no {kind} card")


def _check_first_turn(boss: Boss, turn: str | None) -> None:
    """A boss not on the road yet has had no turn: its column is still 1, 2, 3, front sides up."""
    if boss.at is not None:
        return
    if turn == "hero":
        raise SetupError(("boss", "at"), "after the boss's first turn the boss is on the road: give boss.at")
    if [(c.number, c.up) for c in boss.column] != [(1, 0), (2, 0), (3, 0)]:
        raise SetupError(("boss", "column"), "before the boss's first turn the column is 1, 2, 3, front sides up")


def _check_cards(boss: Boss, b: BossSpec, difficulty: str) -> None:
    have = sorted((c.number, c.color) for c in boss.cards)
    if have != sorted((n, col) for n in (1, 2, 3) for col in ("green", "pink")):
        raise SetupError(("boss", "cards"), "cards lists the boss's six movement cards: green and pink 1, 2, 3")
    if b.pink is not None:
        wanted = PINK_CARDS[difficulty]
        if len(b.pink) != wanted or len(set(b.pink)) != wanted or not set(b.pink) <= {1, 2, 3}:
            raise SetupError(("boss", "pink"), f"{difficulty} boss difficulty uses {wanted} pink card(s) "
                             f"among 1, 2, 3, got {list(b.pink)}")


# --- whole games -------------------------------------------------------------------------------


def new_game(options: Options, facts: Facts, chance: Chance) -> State:
    """Setting Up the Game, then mission 1 (or the short game's upgrade step before its mission)."""
    if options.boss not in facts.bosses:
        raise SetupError(("boss",), f"no boss {options.boss!r} in the content; bosses: {', '.join(facts.bosses)}")
    s = State(facts=facts, lanes=facts.lanes, rows=facts.rows, phase="mission", variant=options.variant, mission=1,
              reward=options.reward, difficulty=options.difficulty, boss_name=options.boss,
              health_track=facts.health_spaces, health=facts.health_spaces - 1, hero=(facts.lanes // 2, 0),
              supply=dict(facts.supply))
    ctx = _Ctx(s, chance)
    s.mission_deck = chance.shuffle("mission deck", list(facts.missions))
    upgrades = chance.shuffle("upgrade deck", list(facts.upgrades))
    s.offer = [_content_upgrade(uid, facts) for uid in upgrades[:UPGRADES_REVEALED]]
    _setup_mission(ctx)
    if s.variant == "short":  # Variant - Short Game: 7 points to spend before the mission starts
        s.phase, s.mission_status, s.points = "upgrades", None, SHORT_GAME_POINTS
    return s


def _content_upgrade(uid: str, facts: Facts) -> Upgrade:
    card = facts.upgrades[uid]
    return Upgrade(uid, card.cost, card.charge_spaces, 0, card.device, card.effect)


def _setup_mission(ctx: _Ctx) -> None:
    """Setting Up a Mission: two mission cards (sides by mission), vehicles and up-links as drawn, the
    hero on the centre of the near edge, mirrors face up, the movement deck shuffled and dealt."""
    s, facts = ctx.s, ctx.s.facts
    if (s.lanes, s.rows) != (facts.lanes, facts.rows):
        raise IllegalAction(f"mission cards fit the {facts.lanes} x {facts.rows} road only")
    if len(s.mission_deck) < 2:
        # A scenario that starts part-way through a game may leave the mission deck out: shuffle it now.
        s.mission_deck = ctx.chance.shuffle("mission deck", list(facts.missions))
    # ruling: mission-2-card-order
    sides = SHORT_GAME_SIDES if s.variant == "short" else MISSION_SIDES[s.mission]
    s.mission_cards = list(zip(s.mission_deck[:2], sides, strict=True))
    s.mission_deck = s.mission_deck[2:]
    s.vehicles, s.uplinks, s.tokens, s.destroyed = [], [], [], []
    for board, (mid, side) in enumerate(s.mission_cards):
        layout = getattr(facts.missions[mid], side)
        rows = board * facts.board_rows
        s.vehicles += [Vehicle(v.side, v.type, (v.at[0], v.at[1] + rows)) for v in layout.vehicles]
        s.uplinks += [(u[0], u[1] + rows) for u in layout.uplinks]
    s.hero = (s.lanes // 2, 0)
    s.mirrors = dict.fromkeys(SLOTS, True)
    s.pending, s.phase, s.mission_status, s.score = None, "mission", "playing", None
    s.effects, s.shield = [], 0
    ctx.event("mission_set_up", mission=s.mission, cards=[f"{mid} {side}" for mid, side in s.mission_cards])
    _deal(ctx, [fid for fid, _ in facts.movement])


def _deal(ctx: _Ctx, face_ids: list[str]) -> None:
    """Shuffle the movement deck and deal one hero card into each slot, left to right. Enemy and
    civilian cards drawn on the way go back, and the deck is shuffled again."""
    s, facts = ctx.s, ctx.s.facts
    order = ctx.chance.shuffle("movement deck", face_ids)
    slots: list[Card] = []
    back: list[str] = []
    while order and len(slots) < len(SLOTS):
        fid = order.pop(0)
        card = facts.card(fid)
        if card.kind == "hero":
            slots.append(card)
        else:
            back.append(fid)
    # ruling: opening-deal
    if back:
        order = ctx.chance.shuffle("movement deck", order + back)
    s.slots = {slot: (slots[i] if i < len(slots) else None) for i, slot in enumerate(SLOTS)}
    s.deck = [facts.card(fid) for fid in order]
    s.discard = []
    ctx.event("dashboard_dealt", cards=[c.label() for c in slots], reshuffled=len(back))


# --- geometry and lookups ----------------------------------------------------------------------


def _add(a: Space, b: Space) -> Space:
    return a[0] + b[0], a[1] + b[1]


def _on_board(s: State, p: Space) -> bool:
    return 0 <= p[0] < s.lanes and 0 <= p[1] < s.rows


# ruling: adjacent
def _neighbours(s: State, p: Space) -> list[Space]:
    """The orthogonally adjacent spaces on the road (our reading of "adjacent")."""
    return [q for d in DELTA.values() if _on_board(s, q := _add(p, d))]


def _manhattan(a: Space, b: Space) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def _vehicle_at(s: State, p: Space) -> Vehicle | None:
    for v in s.vehicles:  # a plain loop: this runs millions of times in simulations
        if v.at == p:
            return v
    return None


def _token_at(s: State, p: Space) -> Token | None:
    for t in s.tokens:
        if t.at == p:
            return t
    return None


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


def _outcome_of(s: State, kind: str) -> str:
    assert s.boss is not None
    return s.facts.weapons[s.boss.weapons[kind]].outcome


# --- applying actions --------------------------------------------------------------------------


class _Event(Event):
    """An event whose details become JSON-ready when first read: the simulator's look-aheads make
    millions and read none. Nothing changes the details once given (words, numbers, spaces and arrows as
    tuples, frozen choices, lists and mappings made for the event), so converting later gives what
    converting now would."""

    def __init__(self, kind: str, data: dict[str, Any]) -> None:
        own = self.__dict__  # frozen: set without __setattr__
        own["kind"], own["_raw"] = kind, data

    @property
    def data(self) -> dict[str, Any]:  # type: ignore[override]
        done = self.__dict__.get("_data")
        if done is None:
            done = self.__dict__["_data"] = {k: v if type(v) in _PLAIN else _jsonable(v)
                                             for k, v in self.__dict__["_raw"].items()}
        return done


class _NeedChoice(Exception):
    """An action reached a choice (`key`) it does not carry; `options` are the possible ones."""

    def __init__(self, key: str, options: list[Any], what: str):
        super().__init__(what)
        self.key, self.options, self.what = key, options, what


@dataclass
class _Ctx:
    """One action in progress: the state being changed, the events so far, and its written choices."""

    s: State
    chance: Chance
    events: list[Event] = field(default_factory=list)
    choices: dict[str, list[Any]] = field(default_factory=lambda: {"energy": [], "discard": [], "hero_to": []})

    def event(self, kind: str, /, **data: Any) -> None:
        """Details are kept as given and made JSON-ready when read (see _Event): give values nothing changes
        later (words, numbers, tuples, frozen choices, or lists and mappings made for the event)."""
        self.events.append(_Event(kind, data))

    def pick(self, key: str, options: list[Any], what: str) -> Any:
        """The next written choice for `key` (it must be possible), None if nothing is possible."""
        if not options:
            return None
        queue = self.choices[key]
        if not queue:
            raise _NeedChoice(key, options, what)
        choice = queue.pop(0)
        if choice not in options:
            words = functools.partial(_option_words, self.s.facts)
            raise IllegalAction(f"{words(choice)} is not possible for {what}; possible: "
                                f"{', '.join(words(o) for o in options)}")
        return choice


_PLAIN = frozenset({str, int, float, bool, type(None)})  # JSON-ready as they are


def _jsonable(value: Any) -> Any:
    if isinstance(value, (tuple, list)):
        return [v if type(v) in _PLAIN else _jsonable(v) for v in value]
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, (ChargeChoice, DiscardChoice)):
        return _choice_data(value)
    return value


def _choice_data(value: Any) -> Any:
    if isinstance(value, ChargeChoice):
        return {"charge": value.charge}
    if isinstance(value, DiscardChoice):
        return {"charge": value.charge} if value.charge is not None else {"card": value.card}
    if isinstance(value, tuple):
        return list(value)
    return value


def _option_words(facts: Facts, value: Any) -> str:
    """One possible choice in players' words (a charge on an upgrade, a card, a space)."""
    if isinstance(value, ChargeChoice):
        return f"a charge on {facts.title(value.charge)}"
    if isinstance(value, DiscardChoice):
        return _discard_words(value, facts.title)
    if value == "health":
        return "one health"
    return str(value)


def _run(state: State, act: Any, chance: Chance) -> tuple[State, list[Event]]:
    """Apply `act` to a copy of `state`; _NeedChoice or IllegalAction if it cannot be applied as written."""
    new = state.clone()
    ctx = _Ctx(new, chance)
    for key in ("energy", "discard"):
        ctx.choices[key] = list(getattr(act, key, ()))
    hero_to = getattr(act, "hero_to", None)
    if hero_to is not None and len(hero_to) != 2:
        raise IllegalAction(f"the hero's space is written as [column, row], not {list(hero_to)}")
    ctx.choices["hero_to"] = [] if hero_to is None else [_pair(hero_to)]
    problem = _opening_problem(new, act)
    if problem:
        raise IllegalAction(problem)
    HANDLERS[act.do](ctx, act)
    unused = [(k, c) for k, queue in ctx.choices.items() for c in queue]
    if unused:
        asked = {"energy": "an energy payment", "discard": "a discard", "hero_to": "a space for the hero"}
        raise IllegalAction("this move never asks for " + ", ".join(
            f"{asked.get(k, 'a choice')} ({_option_words(state.facts, c)})" for k, c in unused))
    if new.mission_status != state.mission_status and new.mission_status not in ("playing", None):
        ctx.event("mission_ended", status=new.mission_status)
    if new.game != state.game:
        ctx.event("game_over", result=new.game)
    return new, ctx.events


def apply(state: State, act: Any, chance: Chance) -> tuple[State, list[Event]]:
    """Apply one typed action to a copy of `state`; a refusal names every legal action."""
    if type(act) not in ACTIONS.values():
        raise TypeError(f"apply takes a typed action (one of the action specs), got {act!r}")
    tried = _tried_result(state, act)
    if tried is not None:
        return tried
    try:
        return _run(state, act, chance)
    except _NeedChoice as need:
        message = f"choose {need.what}: {' or '.join(_option_words(state.facts, o) for o in need.options)}"
    except IllegalAction as exc:
        message = exc.message
    raise IllegalAction(message, [to_data(a) for a in legal_actions(state)])


def _titles(s: State, effect: str) -> list[str]:
    """The printed titles of the upgrades with this effect."""
    return [s.facts.title(uid) for uid, u in s.facts.upgrades.items() if u.effect.kind == effect]


def _opening_problem(s: State, act: Any) -> str | None:
    """Why this kind of action cannot be taken now (None when it can)."""
    if s.game != "playing":
        return f"the game is over ({s.game})"
    # ruling: upgrade-timing
    if s.pending and act.do not in ("enemy_fire", "civilian_move"):
        return f"a drawn {s.pending.kind} card must be resolved first"
    if act.do in ("move", "brake", "use_upgrade"):
        if not _hero_turn_open(s):
            return "it is not the hero's turn"
        if act.do != "use_upgrade" and s.slots[act.slot] is None:
            return f"the {act.slot} slot holds no hero card"
        if act.do == "move" and act.mirror and not s.mirrors[act.slot]:
            return f"the {act.slot} mirror token is already face down"
        if act.do == "move" and act.fire == "both" and "double-shot" not in s.effects:
            return ("firing both before and after moving needs an upgrade that fires twice ("
                    + ", ".join(_titles(s, "double-shot")) + ") used this turn")
        return None
    needs = {
        "enemy_fire": s.pending is not None and s.pending.kind == "enemy",
        "civilian_move": s.pending is not None and s.pending.kind == "civilian",
        "laser_strike": s.phase == "mission" and s.mission_status == "playing",
        "score": s.phase == "mission" and s.mission_status == "accomplished" and s.variant == "standard",
        "spend": s.phase == "upgrades",
        "finish": s.phase == "upgrades",
        "start_mission": s.phase == "next-mission",
        "boss_setup": s.phase == "boss-setup" or (s.phase == "boss" and s.turn == "setup"),
        "boss_turn": s.phase == "boss" and s.turn == "boss",
    }
    if not needs[act.do]:
        return _WHEN[act.do]
    return None


# Why a step outside its moment is refused: the rule that says when it happens, in players' words.
_WHEN = {
    "enemy_fire": "enemies fire only while a drawn enemy card is resolved",
    "civilian_move": "civilians move only while a drawn civilian card is resolved",
    "laser_strike": "the laser strikes only while a mission is being played",
    "score": "a mission is scored only once it is accomplished (standard game)",
    "spend": "points are spent only in the upgrade step between missions",
    "finish": "the upgrade step can be finished only while it is open",
    "start_mission": "the next mission starts only after the upgrade step",
    "boss_setup": "the boss is set up only when the boss battle begins",
    "boss_turn": "the boss acts only on its own turn",
}


def _hero_turn_open(s: State) -> bool:
    if s.pending or s.game != "playing":
        return False
    if s.phase == "mission":
        return s.mission_status == "playing"
    return s.phase == "boss" and s.turn == "hero"


# --- the hero's turn ---------------------------------------------------------------------------


def _do_move(ctx: _Ctx, act: MoveAction) -> None:
    s = ctx.s
    card = s.slots[act.slot]
    assert card is not None
    arrows = card.arrows
    if act.mirror:
        s.mirrors[act.slot] = False
        # ruling: mirror-which-token
        arrows = tuple(MIRRORED[a] for a in arrows)
        ctx.event("mirror_used", slot=act.slot, arrows=arrows)
    ctx.event("card_played", slot=act.slot, use="move", arrows=arrows)
    if act.fire in ("before", "both"):
        _fire(ctx, act.slot)
    completed = False if _halted(s) else _move_path(ctx, arrows)
    if act.fire in ("after", "both"):
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
    s.turns += 1
    card = s.slots[slot]
    if card is not None:
        s.slots[slot] = None
        s.discard.append(card)
        ctx.event("card_discarded", slot=slot, card=card.label())
    if not _halted(s):
        _refill(ctx, slot)
        _settle(s)
    if not s.pending:
        _turn_over(ctx)
    if s.phase == "boss" and not _halted(s):
        s.turn = "boss"


def _turn_over(ctx: _Ctx) -> None:
    """The hero's turn is over (its card played, the slot refilled): effects for this turn end; in a mission
    the hero's next turn follows at once, so a shield ends too (in a boss encounter, after the boss's turn)."""
    s = ctx.s
    if s.effects:
        ctx.event("effects_ended", effects=list(s.effects))
        s.effects = []
    # ruling: upgrade-timing
    if s.shield and s.phase == "mission":
        _drop_shield(ctx)


def _drop_shield(ctx: _Ctx) -> None:
    ctx.event("shield_ended", unused=ctx.s.shield)
    ctx.s.shield = 0


def _refill(ctx: _Ctx, slot: str, ends_turn: bool = True) -> None:
    """Draw until a hero card fills the slot; enemy and civilian cards are resolved on the way.
    A card needing a choice pauses here (state.pending) until its action arrives."""
    s = ctx.s
    while s.deck:
        card = s.deck.pop(0)
        ctx.event("card_drawn", slot=slot, card=card.label())
        if card.kind == "hero":
            s.slots[slot] = card
            return
        if card.kind == "enemy" and "jam" in s.effects:
            ctx.event("enemy_card_jammed")
            s.discard.append(card)
            continue
        has_choice = _enemy_has_target(s) if card.kind == "enemy" else _civilian_can_move(s)
        if has_choice:
            s.pending = Pending(card.kind, slot, card, ends_turn)
            return
        ctx.event(f"{card.kind}_card_no_effect", reason=_no_choice_reason(s, card.kind))
        s.discard.append(card)
    ctx.event("deck_empty", slot=slot)


def _no_choice_reason(s: State, kind: str) -> str:
    if not any(v.side == kind for v in s.vehicles):
        return f"no {kind} vehicles left"
    return "no legal target" if kind == "enemy" else "no civilian can move"


def _resume_after_card(ctx: _Ctx) -> None:
    s = ctx.s
    assert s.pending is not None
    slot, card, ends_turn = s.pending.slot, s.pending.card, s.pending.ends_turn
    s.pending = None
    s.discard.append(card)
    ctx.event("card_discarded", slot=slot, card=card.label())
    _settle(s)
    if not _halted(s):
        _refill(ctx, slot, ends_turn)
        _settle(s)
    if ends_turn and not s.pending and not _halted(s):
        _turn_over(ctx)


def _enemy_targets(s: State) -> list[Space]:
    """Enemy Card: any civilian vehicle or the hero that is adjacent to an enemy vehicle."""
    near = {q for e in _enemies(s) for q in _neighbours(s, e.at)}
    targets = [v.at for v in s.vehicles if v.side == "civilian" and v.at in near]
    if s.hero in near:
        targets.append(s.hero)
    return sorted(targets)


# ruling: civilian-onto-uplink
def _civilian_moves(s: State) -> list[tuple[Space, Space]]:
    """Civilian Card: a civilian moves to an adjacent empty space (backwards too); it never rams."""
    return sorted((v.at, q) for v in s.vehicles if v.side == "civilian"
                  for q in _neighbours(s, v.at) if not _blocked(s, q))


def _enemy_has_target(s: State) -> bool:
    """Whether _enemy_targets has any: a civilian or the hero next to an enemy, without listing them all."""
    near = {q for v in s.vehicles if v.side == "enemy" for q in _neighbours(s, v.at)}
    return s.hero in near or any(v.side == "civilian" and v.at in near for v in s.vehicles)


def _civilian_can_move(s: State) -> bool:
    """Whether _civilian_moves has any: the first one found answers, without listing and sorting all."""
    return any(not _blocked(s, q) for v in s.vehicles if v.side == "civilian" for q in _neighbours(s, v.at))


def _civilian_may_move(s: State, frm: tuple[Any, ...], to: tuple[Any, ...]) -> bool:
    """Whether (frm, to) is one of _civilian_moves, decided without listing and sorting them all."""
    return (any(v.side == "civilian" and v.at == frm for v in s.vehicles) and to in _neighbours(s, frm)
            and not _blocked(s, to))


def _do_enemy_fire(ctx: _Ctx, act: EnemyFireAction) -> None:
    s = ctx.s
    target = _pair(act.target) if len(act.target) == 2 else None
    if target not in _enemy_targets(s):
        raise IllegalAction(f"{list(act.target)} is not a civilian or the hero next to an enemy")
    ctx.event("enemy_fires", target=target)
    if target == s.hero:
        _damage_hero(ctx, "enemy card")
    else:
        victim = _vehicle_at(s, target)
        assert victim is not None
        _hit_vehicle(ctx, victim, "enemy")
    _resume_after_card(ctx)


def _do_civilian_move(ctx: _Ctx, act: CivilianMoveAction) -> None:
    _move_civilian(ctx, act.civilian, act.to)
    _resume_after_card(ctx)


def _move_civilian(ctx: _Ctx, civilian: Sequence[int], to: Sequence[int]) -> None:
    """A civilian moved by a card or an upgrade: one step to an adjacent empty space."""
    s = ctx.s
    if not _civilian_may_move(s, tuple(civilian), tuple(to)):
        raise IllegalAction("that civilian cannot move there (it needs an adjacent empty space)")
    v = _vehicle_at(s, _pair(civilian))
    assert v is not None
    v = _own(s, s.vehicles, v)
    v.at = _pair(to)
    ctx.event("civilian_moved", **{"from": _pair(civilian)}, to=v.at)
    _vehicle_enters(ctx, v)


# --- movement, ramming, firing -----------------------------------------------------------------


def _move_path(ctx: _Ctx, arrows: tuple[str, ...]) -> bool:
    """Move the hero arrow by arrow; False if the movement was cut short (disorientation, mission end)."""
    # ruling: mission-ends-at-once
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
        _damage_hero(ctx, "rammed the boss", ram=True)
        return True
    victim = _vehicle_at(s, dest)
    if victim is None:
        s.hero = dest
        ctx.event("hero_moved", arrow=arrow, to=dest)
        return _hero_enters(ctx, dest)
    ctx.event("rammed", target=victim.type, side=victim.side, at=dest)
    # ruling: ram-continue
    if victim.type == "truck":
        _damage_hero(ctx, "rammed a truck", ram=True)
        return True
    s.hero = dest
    ctx.event("hero_moved", arrow=arrow, to=dest)
    if victim.type == "motorcycle":
        _destroy(ctx, victim, "rammed")
    else:
        _push_car(ctx, victim, delta)
        _damage_hero(ctx, "rammed a car", ram=True)
    return _hero_enters(ctx, dest)


def _push_car(ctx: _Ctx, car: Vehicle, delta: Space) -> None:
    s = ctx.s
    beyond = _add(car.at, delta)
    # ruling: crush-occupied
    if not _on_board(s, beyond) or _blocked(s, beyond):
        _destroy(ctx, car, "crushed")
        return
    ctx.event("vehicle_pushed", side=car.side, **{"from": car.at}, to=beyond)
    car = _own(s, s.vehicles, car)
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
        return _weapon_outcome(ctx, _outcome_of(s, "launch"), "rocket")
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
        v = _own(ctx.s, ctx.s.vehicles, v)
        v.damaged = True
        ctx.event("truck_damaged", side=v.side, at=v.at, by=by)
        return
    _destroy(ctx, v, by)


def _destroy(ctx: _Ctx, v: Vehicle, by: str) -> None:
    ctx.s.vehicles.remove(v)
    ctx.s.destroyed.append(Destroyed(v.side, v.type, by))
    ctx.event("vehicle_destroyed", side=v.side, type=v.type, at=v.at, by=by)


def _damage_hero(ctx: _Ctx, cause: str, ram: bool = False) -> None:
    """Hero Damage: the health cube moves one space left; on the leftmost space the mission ends. A
    ram-proof upgrade this turn takes away the damage of rams; a shield prevents damage of any kind."""
    s = ctx.s
    if ram and "ram-proof" in s.effects:
        ctx.event("damage_prevented", cause=cause, by="ram-proof")
        return
    if s.shield:
        s.shield -= 1
        ctx.event("damage_prevented", cause=cause, by="shield", shield_left=s.shield)
        return
    s.health = max(0, s.health - 1)
    s.damage_taken += 1
    ctx.event("hero_damaged", cause=cause, health=s.health)


def _settle(s: State) -> None:
    """Check how the mission (or the boss encounter) ends; immobilization is checked first."""
    if s.game != "playing" or s.phase not in ("mission", "boss") or s.mission_status != "playing":
        return
    # ruling: simultaneous-endings
    if s.health <= 0:
        s.mission_status, s.game = "immobilization", "lost"
    elif s.phase == "boss" and s.boss is not None and not _vulnerable_left(s.boss):
        s.mission_status, s.game = "boss-defeated", "won"
    # ruling: goal-wording
    elif s.phase == "mission" and not any(v.side == "enemy" for v in s.vehicles):
        s.mission_status = "accomplished"
        # ruling: short-game-end
        if s.variant == "short":
            s.game = "won"  # Variant - Short Game: you win if you defeat all enemies
            s.missions_accomplished += 1
    # ruling: losing-to-boss
    elif not s.pending and not s.deck and not any(s.slots.values()):
        s.mission_status, s.game = "exhaustion", "lost"


# --- energy, upgrades, weapon outcomes ---------------------------------------------------------


def _energy_options(s: State) -> list[Any]:
    options: list[Any] = ["health"] if s.health < s.max_health else []
    options += [ChargeChoice(u.id) for u in s.upgrades if u.charges < u.charge_spaces]
    return options


# ruling: cube-names
def _gain_energy(ctx: _Ctx) -> None:
    """Satellite Uplink: one energy, spent at once on one health or one charge."""
    s = ctx.s
    # ruling: uplink-energy
    choice = ctx.pick("energy", _energy_options(s), "the up-link's energy")
    if choice is None:
        ctx.event("energy_unused", reason="health is full and no upgrade has a free charge space")
        return
    if choice == "health":
        s.health += 1
    else:
        _own(s, s.upgrades, _upgrade_by_id(s, choice.charge)).charges += 1
    ctx.event("energy_spent", on=choice)


def _upgrade_by_id(s: State, uid: str) -> Upgrade:
    found = next((u for u in s.upgrades if u.id == uid), None)
    if found is None:
        raise IllegalAction(f"no installed upgrade {uid!r}")
    return found


def _weapon_outcome(ctx: _Ctx, outcome: str, source: str) -> bool:
    """Weapon Outcomes. Returns False for disorientation: it cancels the movement in progress."""
    s = ctx.s
    ctx.event("weapon_outcome", outcome=outcome, source=source)
    if outcome == "explosion":
        _damage_hero(ctx, f"explosion ({source})")
    # ruling: shock-mid-move
    elif outcome == "electric-shock":
        _shock_discard(ctx)
        _move_path(ctx, ("back", "back"))
    else:
        if s.deck:
            card = s.deck.pop(0)
            s.discard.append(card)
            ctx.event("disoriented", card=card.label())
            # ruling: disorientation-traffic-card
            if card.kind == "hero":
                _move_path(ctx, card.arrows)
        # ruling: disorientation-empty-deck
        else:
            ctx.event("disoriented", card=None)
    _settle(s)
    return outcome != "disorientation"


# ruling: device-card
def _shock_options(s: State) -> list[DiscardChoice]:
    return ([DiscardChoice(charge=u.id) for u in s.upgrades if u.charges]
            + [DiscardChoice(card=u.id) for u in s.upgrades if u.device])


def _shock_discard(ctx: _Ctx) -> None:
    s = ctx.s
    choice = ctx.pick("discard", _shock_options(s), "the electric shock's discard")
    if choice is None:
        ctx.event("shock_nothing_to_discard")
        return
    upgrade = _upgrade_by_id(s, choice.charge or choice.card)
    if choice.charge is not None:
        _own(s, s.upgrades, upgrade).charges -= 1
    else:
        s.upgrades.remove(upgrade)
    ctx.event("shock_discarded", what=choice)


def _do_use_upgrade(ctx: _Ctx, act: UseUpgradeAction) -> None:
    """Using Upgrades: each use removes a charge or sends the card to the box, then its effect happens."""
    s = ctx.s
    upgrade = _upgrade_by_id(s, act.upgrade)
    _check_effect_choices(s, upgrade.effect, act)
    # ruling: upgrade-payment
    if act.pay == "charge":
        if not upgrade.charges:
            raise IllegalAction(f"{s.facts.title(upgrade.id)} has no charge left; discard it instead (to the box)")
        upgrade = _own(s, s.upgrades, upgrade)
        upgrade.charges -= 1
    else:
        s.upgrades.remove(upgrade)
    s.upgrades_used += 1
    ctx.event("upgrade_used", upgrade=upgrade.id, paid=act.pay, charges=upgrade.charges,
              effect=upgrade.effect.kind if upgrade.effect else None)
    if upgrade.effect is not None:
        EFFECTS[upgrade.effect.kind](ctx, upgrade.effect, act)
        _settle(s)


# What each effect kind needs written on the use_upgrade action (beyond upgrade and pay).
EFFECT_CHOICES: dict[str, tuple[str, ...]] = {"shot": ("direction",), "shift": ("direction",), "mirror": ("slot",),
                                              "redraw": ("slot",), "civilian": ("civilian", "to")}


def _check_effect_choices(s: State, effect: UpgradeEffect | None, act: UseUpgradeAction) -> None:
    wanted = EFFECT_CHOICES.get(effect.kind, ()) if effect else ()
    for key in ("direction", "slot", "civilian", "to"):
        given = getattr(act, key) is not None
        if given and key not in wanted:
            what = f"a {effect.kind} effect" if effect else "an upgrade with no effect"
            raise IllegalAction(f"{key}: is not used by {what}")
        if not given and key in wanted:
            raise IllegalAction(f"a {effect.kind} effect needs {key}: (see the legal actions)")  # type: ignore[union-attr]
    if effect is not None and effect.kind in NEEDS_DIRECTIONS and act.direction not in effect.directions:
        raise IllegalAction(f"this upgrade's {effect.kind} goes {' or '.join(effect.directions)}, not {act.direction}")


def _effect_repair(ctx: _Ctx, effect: UpgradeEffect, act: UseUpgradeAction) -> None:
    s = ctx.s
    gained = min(effect.amount, s.max_health - s.health)
    s.health += gained
    ctx.event("health_repaired", gained=gained, health=s.health)


def _effect_shot(ctx: _Ctx, effect: UpgradeEffect, act: UseUpgradeAction) -> None:
    """A shot along a line: the first vehicle, boss part or weapon token within range takes the hit."""
    s = ctx.s
    assert act.direction is not None
    delta = DELTA[act.direction]
    at = s.hero
    for _ in range(effect.range):
        at = _add(at, delta)
        if not _on_board(s, at):
            break
        part, victim, token = _part_at(s, at), _vehicle_at(s, at), _token_at(s, at)
        if part is None and victim is None and token is None:
            continue
        ctx.event("upgrade_shot", direction=act.direction, at=at)
        if part is not None:
            _hit_boss(ctx, part)
        elif victim is not None:
            _hit_vehicle(ctx, victim, "upgrade shot")
        else:
            assert token is not None
            _remove_token(ctx, token, "shot")
        return
    ctx.event("shot_missed", direction=act.direction, reach=effect.range)


def _effect_shift(ctx: _Ctx, effect: UpgradeEffect, act: UseUpgradeAction) -> None:
    assert act.direction is not None
    _move_path(ctx, (act.direction,))


def _effect_mirror(ctx: _Ctx, effect: UpgradeEffect, act: UseUpgradeAction) -> None:
    s = ctx.s
    assert act.slot is not None
    if s.mirrors[act.slot]:
        raise IllegalAction(f"the {act.slot} mirror token is face up already")
    s.mirrors[act.slot] = True
    ctx.event("mirror_restored", slot=act.slot)


def _effect_redraw(ctx: _Ctx, effect: UpgradeEffect, act: UseUpgradeAction) -> None:
    s = ctx.s
    assert act.slot is not None
    card = s.slots[act.slot]
    if card is None:
        raise IllegalAction(f"the {act.slot} slot holds no hero card to replace")
    s.slots[act.slot] = None
    s.discard.append(card)
    ctx.event("card_discarded", slot=act.slot, card=card.label())
    _refill(ctx, act.slot, ends_turn=False)


def _effect_civilian(ctx: _Ctx, effect: UpgradeEffect, act: UseUpgradeAction) -> None:
    assert act.civilian is not None and act.to is not None
    _move_civilian(ctx, act.civilian, act.to)


def _effect_disarm(ctx: _Ctx, effect: UpgradeEffect, act: UseUpgradeAction) -> None:
    s = ctx.s
    near = [t for t in s.tokens if max(abs(t.at[0] - s.hero[0]), abs(t.at[1] - s.hero[1])) <= effect.range]
    for token in sorted(near, key=lambda t: t.id):
        _remove_token(ctx, token, "disarmed")
    if not near:
        ctx.event("nothing_disarmed", reach=effect.range)


def _effect_this_turn(ctx: _Ctx, effect: UpgradeEffect, act: UseUpgradeAction) -> None:
    s = ctx.s
    if effect.kind not in s.effects:
        s.effects.append(effect.kind)
    ctx.event("effect_this_turn", effect=effect.kind)


def _effect_shield(ctx: _Ctx, effect: UpgradeEffect, act: UseUpgradeAction) -> None:
    ctx.s.shield += effect.amount
    ctx.event("shield_raised", shield=ctx.s.shield)


EFFECTS = {
    "repair": _effect_repair,
    "shot": _effect_shot,
    "shift": _effect_shift,
    "mirror": _effect_mirror,
    "redraw": _effect_redraw,
    "civilian": _effect_civilian,
    "disarm": _effect_disarm,
    "ram-proof": _effect_this_turn,
    "double-shot": _effect_this_turn,
    "jam": _effect_this_turn,
    "shield": _effect_shield,
}


def _do_laser_strike(ctx: _Ctx, act: LaserStrikeAction) -> None:
    """Satellite Laser Strike: rookie mission reward level, once, during the three missions."""
    s = ctx.s
    if s.reward != "rookie":
        raise IllegalAction(f"the laser strike is only for the rookie mission reward level (this is {s.reward})")
    if s.laser_used:
        raise IllegalAction("the satellite laser strike has already been used")
    victim = _vehicle_at(s, _pair(act.target)) if len(act.target) == 2 else None
    if victim is None or victim.side != "enemy":
        raise IllegalAction("the laser strike destroys an enemy vehicle")
    s.laser_used = True
    _destroy(ctx, victim, "laser strike")
    _settle(s)


# --- scoring, the upgrade step and the next stage ----------------------------------------------


def _do_score(ctx: _Ctx, act: ScoreAction) -> None:
    """Mission Scoring: reward level points minus one per civilian destroyed (by anyone)."""
    s = ctx.s
    civilians = sum(1 for d in s.destroyed if d.side == "civilian")
    # ruling: negative-score
    s.score = max(0, REWARD_POINTS[s.reward] - civilians)
    # ruling: laser-strike-penalty
    penalty = LASER_PENALTY if s.laser_used else 0
    s.points = max(0, s.score - penalty)
    s.phase = "upgrades"
    s.missions_accomplished += 1
    s.total_score += s.score
    ctx.event("scored", reward=s.reward, civilians_destroyed=civilians, score=s.score, laser_penalty=penalty,
              points=s.points)


def _spend_options(s: State) -> list[SpendAction]:
    """Repairs and Upgrades: what the points left can buy now, each as often as it can be bought."""
    out: list[SpendAction] = []

    def add(buy: str, most: int, upgrade: str | None = None) -> None:
        out.extend(SpendAction("spend", buy, upgrade, n) for n in range(1, most + 1))  # type: ignore[arg-type]

    add("health", min(s.points, s.max_health - s.health))
    for u in s.offer:
        if u.cost <= s.points:
            add("install", 1, u.id)
    for u in s.upgrades:
        add("charge", min(s.points, u.charge_spaces - u.charges), u.id)
    if s.variant == "standard" and s.mission == 3:
        add("start_forward", min(s.points, START_FORWARD_LIMIT - s.start_forward))
    return out


def _spend_refusal(s: State, act: SpendAction) -> str:
    """The Repairs and Upgrades rule a purchase breaks, in players' words."""
    left = f"{s.points} point{'s' if s.points != 1 else ''} left"
    if s.points <= 0:
        return "no points are left to spend in this upgrade step"
    if act.buy == "health":
        return f"the car is already at its full health of {s.max_health}"
    name = s.facts.title(act.upgrade) if act.upgrade in s.facts.upgrades else repr(act.upgrade or "")
    if act.buy == "install":
        offered = next((u for u in s.offer if u.id == act.upgrade), None)
        if offered is None:
            return f"{name} is not among the upgrade cards on offer"
        return f"{name} costs {offered.cost} points and only {left}"
    if act.buy == "charge":
        installed = next((u for u in s.upgrades if u.id == act.upgrade), None)
        if installed is None:
            return f"{name} is not installed on the car, so it cannot be charged"
        return f"{name} has no empty charge space (it holds {installed.charges} of {installed.charge_spaces})"
    if not (s.variant == "standard" and s.mission == 3):
        return "a head start is bought only in the upgrade step after the third mission (standard game)"
    return f"the head start is at most {START_FORWARD_LIMIT} spaces"


def _do_spend(ctx: _Ctx, act: SpendAction) -> None:
    for _ in range(act.times):
        _spend_once(ctx, act)


def _spend_once(ctx: _Ctx, act: SpendAction) -> None:
    s = ctx.s
    if SpendAction("spend", act.buy, act.upgrade) not in _spend_options(s):
        raise IllegalAction(_spend_refusal(s, act))
    if act.buy == "health":
        s.health += 1
        cost = 1
    elif act.buy == "install":
        upgrade = next(u for u in s.offer if u.id == act.upgrade)
        s.offer.remove(upgrade)
        upgrade = upgrade.copy()  # the offer's is shared with the state before
        upgrade.charges = 0  # an installed upgrade comes with no charges
        s.upgrades.append(upgrade)
        cost = upgrade.cost
    elif act.buy == "charge":
        _own(s, s.upgrades, _upgrade_by_id(s, act.upgrade or "")).charges += 1
        cost = 1
    else:
        s.start_forward += 1
        cost = 1
    s.points -= cost
    ctx.event("points_spent", buy=act.buy, upgrade=act.upgrade, cost=cost, points_left=s.points)


def _do_finish(ctx: _Ctx, act: FinishAction) -> None:
    """End the upgrade step: unspent points are lost; the game moves on."""
    s = ctx.s
    s.points_lost, s.points = s.points, 0
    s.effects, s.shield = [], 0  # nothing an upgrade did lasts past the mission it was used in
    ctx.event("points_lost", points=s.points_lost)
    if s.variant == "short":
        s.phase, s.mission_status = "mission", "playing"  # the short game's one mission starts now
        _settle(s)
    elif s.mission < 3:
        s.phase, s.mission = "next-mission", s.mission + 1
    else:
        # The boss board starts empty; the hero starts forward by the spaces bought (Board Setup).
        s.phase, s.vehicles, s.uplinks, s.mission_status = "boss-setup", [], [], None
        # ruling: head-start-position
        s.hero = (s.lanes // 2, s.start_forward)
        ctx.event("boss_board_start", hero=s.hero)


def _do_start_mission(ctx: _Ctx, act: StartMissionAction) -> None:
    _setup_mission(ctx)


# --- the boss ----------------------------------------------------------------------------------


def _do_boss_setup(ctx: _Ctx, act: BossSetupAction) -> None:
    """Setting Up the Boss: pink cards by difficulty, one weapon card per symbol, hero-only deck."""
    s = ctx.s
    from_mission = s.phase == "boss-setup"
    if from_mission:
        design = s.facts.bosses[s.boss_name]
        s.boss = Boss(name=design.name, parts=design.parts, tiles=design.tiles, activation=design.activation,
                      column=[], cards=_design_cards(s, design, ("boss",)), pink=None, weapons={},
                      fixed_weapons={}, at=None, damaged=[])
        s.phase, s.mission_status, s.turn = "boss", "playing", "setup"
    boss = s.boss
    assert boss is not None
    count = PINK_CARDS[s.difficulty]
    pink = boss.pink
    if pink is None:
        options = [list(c) for c in itertools.combinations((1, 2, 3), count)]
        # Expert difficulty takes all three pink cards: nothing is left to chance.
        pink = tuple(options[0] if len(options) == 1 else ctx.chance.choice("pink boss cards", options))
    boss.column = [next(c for c in boss.cards if c.number == n and c.color == ("pink" if n in pink else "green"))
                   for n in (1, 2, 3)]
    ctx.event("boss_column", pink=sorted(pink), column=[f"{c.number} {c.color}" for c in boss.column])
    # ruling: boss-card-flip
    shown = {w for c in boss.column for f in c.faces for w in f.weapons}
    for kind in (k for k in WEAPON_TYPES if k in shown):
        name = boss.fixed_weapons.get(kind)
        if name is None:
            name = ctx.chance.choice(f"{kind} weapon card", [n for n, w in s.facts.weapons.items() if w.type == kind])
        boss.weapons[kind] = name
        ctx.event("weapon_card", type=kind, card=name)
    if from_mission:
        _deal(ctx, [fid for fid, card in s.facts.movement if card.kind == "hero"])
    else:
        removed = [c for c in s.deck + s.discard if c.kind != "hero"]
        s.deck = [c for c in s.deck if c.kind == "hero"]
        s.discard = [c for c in s.discard if c.kind == "hero"]
        if removed:
            ctx.event("cards_to_box", cards=[c.kind for c in removed])
    # ruling: boss-setup-reset
    # Like every mission setup, the boss encounter starts with all three mirrors active (notes.yaml).
    if not all(s.mirrors.values()):
        s.mirrors = dict.fromkeys(SLOTS, True)
        ctx.event("mirrors_reset")
    s.turn = "boss"
    _settle(s)


def _do_boss_turn(ctx: _Ctx, act: BossTurnAction) -> None:
    """The Boss' Turn: upkeep, move, weapon activation, card replacement."""
    s = ctx.s
    s.boss_turns += 1
    for step in (_boss_upkeep, _boss_move, _boss_activate, _boss_replace_card):
        step(ctx)
        _settle(s)
        if _halted(s):
            return
    s.turn = "hero"
    if s.shield:
        _drop_shield(ctx)  # a shield lasts until the hero's next turn, which starts now


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
            _weapon_outcome(ctx, _outcome_of(s, "drone"), "drone")
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
        _weapon_outcome(ctx, _outcome_of(s, "launch"), "rocket")
        return
    other = next((t for t in s.tokens if t.at == dest and t is not token), None)
    if _part_at(s, dest) is not None or _vehicle_at(s, dest) is not None or other is not None:
        _remove_token(ctx, token, "collided")
        if other is not None:
            _remove_token(ctx, other, "collided")


# ruling: rocket-path
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
    # ruling: road-size
    ctx.event("boss_placed" if first else "boss_moved", card=boss.column[0].number, at=dict(boss.at))
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
    # ruling: boss-landing
    free = [q for q in _neighbours(s, s.hero) if q not in spaces and _empty(s, q)]
    if not free:
        ctx.event("hero_trapped", at=s.hero)
        return
    s.hero = ctx.pick("hero_to", free, "where the hero goes when the boss lands on it")
    ctx.event("hero_pushed_aside", to=s.hero)


def _boss_activate(ctx: _Ctx) -> None:
    s = ctx.s
    boss = s.boss
    assert boss is not None
    for kind in boss.column[0].face.weapons:
        name = boss.weapons[kind]
        ctx.event("weapon_activated", type=kind, card=name)
        if kind == "target":
            targeted = {_add(_part_space(boss, p), t) for p in boss.parts if p.id not in boss.damaged
                        for t in p.targets}
            # ruling: multiple-strikes
            if s.hero in targeted:
                _weapon_outcome(ctx, s.facts.weapons[name].outcome, name)
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
    spaces = list(dict.fromkeys(_add(boss.at[tile], off) for tile, off in boss.activation))
    spaces = [p for p in spaces if _on_board(s, p) and _empty(s, p)]
    if not spaces:
        ctx.event("token_not_placed", token=kind, reason="no empty activation space")
        return
    # ruling: closest-activation-space
    where = min(spaces, key=lambda p: (_manhattan(p, s.hero), spaces.index(p)))
    if s.supply.get(kind, 0) > 0:
        s.supply[kind] -= 1
        s.tokens.append(Token(s.next_token, kind, where))
        s.next_token += 1
        ctx.event("token_placed", token=kind, at=where)
        return
    oldest = min((t for t in s.tokens if t.kind == kind), key=lambda t: t.id, default=None)
    if oldest is None:
        ctx.event("token_not_placed", token=kind, reason="the game has no such token")
        return
    ctx.event("token_moved", token=kind, **{"from": oldest.at}, to=where, reason="supply empty")
    oldest.at = where


def _boss_replace_card(ctx: _Ctx) -> None:
    boss = ctx.s.boss
    assert boss is not None
    # ruling: boss-card-flip
    card = boss.column.pop(0).flipped()
    boss.column.append(card)
    ctx.event("boss_card_replaced", card=card.number, side="back" if card.up else "front",
              next=boss.column[0].number)


def _remove_token(ctx: _Ctx, token: Token, reason: str) -> None:
    ctx.s.tokens.remove(token)
    ctx.s.supply[token.kind] = ctx.s.supply.get(token.kind, 0) + 1
    ctx.event("token_removed", token=token.kind, at=token.at, reason=reason)


def _hit_boss(ctx: _Ctx, part: BossPart) -> None:
    """Playing Against the Boss: a damage token on the part fired upon, unless it already has one."""
    boss = ctx.s.boss
    assert boss is not None
    # ruling: vulnerable-spots
    if part.id in boss.damaged:
        ctx.event("boss_already_damaged", part=part.id)
    elif len(boss.damaged) >= ctx.s.facts.damage_tokens:
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
    "start_mission": _do_start_mission,
    "boss_setup": _do_boss_setup,
    "boss_turn": _do_boss_turn,
}


# --- legal actions -----------------------------------------------------------------------------

_NO_CHANCE = Chance()  # dry runs never ask for chance: only start_mission and boss_setup do


def legal_actions(s: State) -> list[Any]:
    """Every action the rules allow now, each with the mid-action choices it will need."""
    if s.game != "playing":
        return []
    if s.pending:
        if s.pending.kind == "enemy":
            return [EnemyFireAction("enemy_fire", t) for t in _enemy_targets(s)]
        return [CivilianMoveAction("civilian_move", a, b) for a, b in _civilian_moves(s)]
    if s.phase == "upgrades":
        return [*_spend_options(s), FinishAction("finish")]
    if s.phase == "next-mission":
        return [StartMissionAction("start_mission")]
    if s.phase == "boss-setup" or (s.phase == "boss" and s.turn == "setup"):
        return [BossSetupAction("boss_setup")]
    if s.phase == "mission" and s.mission_status == "accomplished":
        return [ScoreAction("score")] if s.variant == "standard" else []
    if s.phase == "boss" and s.turn == "boss":
        return _with_choices(s, BossTurnAction("boss_turn"))
    if not _hero_turn_open(s):
        return []
    out = _card_actions(s)
    for u in s.upgrades:
        for pay in ("charge", "discard") if u.charges else ("discard",):
            out += _upgrade_uses(s, u, pay)
    if s.phase == "mission" and s.reward == "rookie" and not s.laser_used:
        out += [LaserStrikeAction("laser_strike", e.at) for e in sorted(_enemies(s), key=_vkey)]
    return out


def _card_actions(s: State) -> list[Any]:
    choices = _choices_possible(s)
    out: list[Any] = []
    for slot in SLOTS:
        if s.slots[slot] is None:
            continue
        fires = (None, "before", "after", "both") if "double-shot" in s.effects else (None, "before", "after")
        for mirror in (False, True) if s.mirrors[slot] else (False,):
            for fire in fires:
                move = MoveAction("move", slot, mirror, fire)  # type: ignore[arg-type]
                out += _with_choices(s, move) if choices else [move]
        # ruling: mirrors-braking
        for n in (0, 1, 2):
            brake = BrakeAction("brake", slot, n)  # type: ignore[arg-type]
            out += _with_choices(s, brake) if choices else [brake]
    return out


def _upgrade_uses(s: State, u: Upgrade, pay: str) -> list[UseUpgradeAction]:
    """Every way to use `u` now: one per choice its effect offers (a direction, a slot, a civilian's move),
    none when the effect has nothing to act on (no face-down mirror, no card to replace, no civilian free to
    move); a shift carries the choices it meets, found by dry runs."""
    base = UseUpgradeAction("use_upgrade", u.id, pay)  # type: ignore[arg-type]
    kind = u.effect.kind if u.effect else None
    if kind in NEEDS_DIRECTIONS:
        assert u.effect is not None
        uses = [replace(base, direction=d) for d in u.effect.directions]
        if kind == "shift":
            return [a for use in uses for a in _with_choices(s, use)]
        return uses
    if kind == "mirror":
        return [replace(base, slot=slot) for slot in SLOTS if not s.mirrors[slot]]
    if kind == "redraw":
        return [replace(base, slot=slot) for slot in SLOTS if s.slots[slot] is not None]
    if kind == "civilian":
        return [replace(base, civilian=a, to=b) for a, b in _civilian_moves(s)]
    return [base]


def _choices_possible(s: State) -> bool:
    """Whether a hero move or brake can meet a choice: up-link energy (only up-links give it) or an
    electric shock with something to discard (options never grow during a boss-phase action)."""
    if s.uplinks:
        return True
    if s.boss is None or not _shock_options(s):
        return False
    return any(s.facts.weapons[name].outcome == "electric-shock" for name in s.boss.weapons.values())


def _with_choices(s: State, act: Any) -> list[Any]:
    """`act` with every combination of the choices it meets, found by dry runs (depth first, in the
    order the options are offered). A dry run that completes is kept for `apply` (see _tried_result)."""
    try:
        done = _run(s, act, _NO_CHANCE)
    except _NeedChoice as need:
        out: list[Any] = []
        for option in need.options:
            if need.key == "hero_to":
                out += _with_choices(s, replace(act, hero_to=option))
            else:
                out += _with_choices(s, replace(act, **{need.key: (*getattr(act, need.key), option)}))
        return out
    s.__dict__.setdefault("_tried", {})[act] = done
    return [act]


def _tried_result(s: State, act: Any) -> tuple[State, list[Event]] | None:
    """The result of a dry run of `act` on `s` made while listing the legal actions, handed out once (a
    simulator's look-ahead then applies what listing already played). States are never changed after
    they are made, and a dry run that completed asked no chance, so it is exactly what `apply` would
    compute now."""
    tried = s.__dict__.get("_tried")
    if not tried:
        return None
    try:
        return tried.pop(act, None)
    except TypeError:  # an action holding lists (built by hand) is not hashable: never listed as such
        return None


# --- outcome and result ------------------------------------------------------------------------


def _vkey(v: Vehicle) -> tuple[int, int]:
    return v.at[1], v.at[0]


def outcome(state: State, events: list[Event]) -> dict[str, Any]:
    """The observable result the runner compares with a scenario's `expect`."""
    s = state
    destroyed = {side: {t: 0 for t in ("car", "motorcycle", "truck")} for side in ("enemy", "civilian")}
    for d in s.destroyed:
        destroyed[d.side][d.type] += 1
    for counts in destroyed.values():
        counts["total"] = sum(counts.values())
    return {
        "phase": s.phase,
        "variant": s.variant,
        "mission": s.mission,
        "mission_cards": [{"card": mid, "side": side} for mid, side in s.mission_cards],
        "mission_deck": len(s.mission_deck),
        "reward": s.reward,
        "difficulty": s.difficulty,
        "mission_status": s.mission_status,
        "game": s.game,
        "pending": f"{s.pending.kind}-card" if s.pending else None,
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
        "effects": list(s.effects),
        "shield": s.shield,
        "offer": sorted(u.id for u in s.offer),
        "points": s.points,
        "score": s.score,
        "points_lost": s.points_lost,
        "missions_accomplished": s.missions_accomplished,
        "total_score": s.total_score,
        "turns": s.turns,
        "laser_strike": {"used": s.laser_used,
                         "available": s.reward == "rookie" and not s.laser_used and s.phase == "mission"},
        "start_forward": s.start_forward,
        "boss": _boss_outcome(s),
        "boss_damage": len(s.boss.damaged) if s.boss else 0,
        "weapon_tokens": sorted(({"kind": t.kind, "at": list(t.at)} for t in s.tokens),
                                key=lambda t: (t["at"][1], t["at"][0], t["kind"])),
        "supply": dict(sorted(s.supply.items())),
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
        "turns": s.boss_turns,
    }


def result(state: State) -> dict[str, Any]:
    """Whole-game figures: won or lost, damage taken, missions accomplished, points scored, turns."""
    s = state
    return {
        "result": s.game,
        "damage_taken": s.damage_taken,
        "missions": s.missions_accomplished,
        "score": s.total_score,
        "turns": s.turns,
        "boss_damage": len(s.boss.damaged) if s.boss else 0,
        "reached_boss": int(s.boss is not None and s.boss.at is not None),
        "upgrades_used": s.upgrades_used,
    }


# --- drawing -----------------------------------------------------------------------------------

CELL = 36
MARGIN = 14
PANEL = 124  # dashboard area under the road
SLOT_W = 100
CONTEXT_ROWS = 1  # rows shown around what changed
MIN_ROWS = 4  # a zoomed drawing shows at least this many rows
VEHICLE_REACH = 4.0  # spaces: farther apart, two alike vehicles are two vehicles (one gone, one new)
ARROW_GLYPH = {"forward": "↑", "back": "↓", "left": "←", "right": "→"}
SIDE_WORDS = {"enemy": "enemy", "civilian": "civilian", "hero": "hero"}


def _unit(s: State, space: Space) -> tuple[float, float]:
    """Board units of a space's centre: x across the lanes, y down the road from the far end (as drawn)."""
    return space[0] + 0.5, s.rows - 1 - space[1] + 0.5


def _lane_row(space: Space) -> str:
    return f"lane {space[0] + 1}, row {space[1] + 1}"


def pieces(state: State) -> list[draw.Piece]:
    """The hero, vehicles, boss parts, weapon tokens and up-links, for the zoom, arrows and alt text."""
    s = state
    out = [draw.Piece("hero", "hero", "the hero", _lane_row(s.hero), *_unit(s, s.hero), health=s.health, unit="health")]
    for v in sorted(s.vehicles, key=_vkey):
        name = f"the {SIDE_WORDS.get(v.side, v.side)} {v.type}"
        out.append(draw.Piece(f"{v.side}-{v.type}", f"{v.side}-{v.type}", name, _lane_row(v.at), *_unit(s, v.at),
                              status="damaged" if v.damaged else "", reach=VEHICLE_REACH))
    if s.boss is not None and s.boss.at is not None:
        for part in s.boss.parts:
            at = _part_space(s.boss, part)
            name = part.id.removeprefix(f"{part.tile}-").replace("-", " ")
            name = name[:1].upper() + name[1:]  # a part's name as its tile prints it ("Engine", "Left track")
            out.append(draw.Piece(f"boss-{part.id}", "boss-vulnerable" if part.vulnerable else "boss",
                                  f"the boss's {name}", _lane_row(at), *_unit(s, at),
                                  status="damaged" if part.id in s.boss.damaged else ""))
    for t in sorted(s.tokens, key=lambda t: t.id):
        out.append(draw.Piece(f"token-{t.id}", t.kind, f"the {t.kind} token", _lane_row(t.at), *_unit(s, t.at)))
    for u in sorted(s.uplinks):
        out.append(draw.Piece("uplink", "uplink", "the up-link's energy", _lane_row(u), *_unit(s, u), reach=0))
    return out


def _rows_shown(s: State, focus: draw.Focus | None) -> tuple[int, int]:
    """The rows (drawn from the far end, top first) a drawing shows: all, or those around the focus."""
    if focus is None:
        return 0, s.rows
    window = focus.window or draw.Box(*(c - 0.5 for c in _unit(s, s.hero)), 1, 1)
    top = max(0, math.floor(window.y + 1e-6) - CONTEXT_ROWS)
    bottom = min(s.rows, math.ceil(window.y1 - 1e-6) + CONTEXT_ROWS)
    while bottom - top < min(MIN_ROWS, s.rows):
        top, bottom = (top - 1, bottom) if top > 0 else (top, bottom + 1)
    return top, bottom


def draw_svg(state: State, focus: draw.Focus | None = None) -> str:
    """The road (row 0 at the bottom), vehicles by side and type, boss, tokens, and the dashboard; with
    a focus, only the rows around what changed (full width, so lanes stay countable), marked."""
    s = state
    width = max(s.lanes * CELL, 3 * SLOT_W) + 2 * MARGIN
    road_x = (width - s.lanes * CELL) / 2
    grid = draw.Grid(road_x, MARGIN, s.lanes, s.rows, CELL)
    top, bottom = _rows_shown(s, focus)
    road_top, road_bottom = MARGIN + top * CELL, MARGIN + bottom * CELL
    height = road_bottom + MARGIN + PANEL
    pic = draw.Svg(width, height, title=f"Mission: Drive — {s.phase}")
    pic.rect(0, 0, pic.width, pic.height, draw.COLORS["paper"])
    board = s.facts.board_rows
    draw.draw_grid(pic, grid, board if s.rows % board == 0 else 0)
    for u in sorted(s.uplinks):
        _draw_uplink(pic, *grid.center(*u))
    _draw_boss(pic, grid, s)
    for t in sorted(s.tokens, key=lambda t: t.id):
        _draw_token(pic, *grid.center(*t.at), t.kind)
    for v in sorted(s.vehicles, key=_vkey):
        draw.draw_vehicle(pic, grid, v.at[0], v.at[1], v.type, v.side, v.damaged, v.type[0].upper())
    draw.draw_vehicle(pic, grid, s.hero[0], s.hero[1], "car", "hero", label="H")
    for row in range(s.rows - bottom, s.rows - top):
        y = grid.center(0, row)[1]
        pic.text(road_x - 4, y + 4, row + 1, size=10, anchor="end", fill="#555555")
    draw.overlay(pic, focus, lambda p: (road_x + p[0] * CELL, MARGIN + p[1] * CELL), CELL)
    pic.rect(0, road_bottom, width, height - road_bottom, draw.COLORS["paper"])  # the road below the window
    pic.rect(0, 0, width, road_top, draw.COLORS["paper"])  # and above it
    if top > 0:
        pic.text(width / 2, road_top - 3, "⋮ the road goes on", size=10, fill="#555555")
    pic.rect(road_x, road_top, s.lanes * CELL, road_bottom - road_top, "none", draw.COLORS["ink"], width=2)
    _draw_dashboard(pic, s, road_bottom + MARGIN)
    view = draw.Box(0, road_top - MARGIN, width, height - road_top + MARGIN)
    return pic.render(view if focus is not None else None)


def _draw_uplink(pic: draw.Svg, cx: float, cy: float) -> None:
    r = CELL * 0.22
    pic.polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], draw.COLORS["uplink"], "#0b5563")


def legend() -> list[draw.Swatch]:
    """Every kind of piece, drawn as the road draws it, in players' words."""
    def vehicle(vtype: str, side: str, damaged: bool = False) -> Any:
        def paint(pic: draw.Svg, cx: float, cy: float, n: float) -> None:
            grid = draw.Grid(cx - CELL / 2, cy - CELL / 2, 1, 1, CELL)
            draw.draw_vehicle(pic, grid, 0, 0, vtype, side, damaged, "H" if side == "hero" else vtype[0].upper())
        return paint

    entries = [draw.swatch("hero", "H: the hero's car (gold)", vehicle("car", "hero"))]
    for side, colour in (("enemy", "red"), ("civilian", "blue")):
        for vtype in ("car", "motorcycle", "truck"):
            entries.append(draw.swatch(f"{side}-{vtype}", f"{vtype[0].upper()}: {side} {vtype} ({colour})",
                                       vehicle(vtype, side)))
    entries.append(draw.swatch("truck-damaged", "damaged truck (dashed, cracked)", vehicle("truck", "enemy", True)))
    entries.append(draw.swatch("uplink", "satellite up-link energy", lambda p, cx, cy, n: _draw_uplink(p, cx, cy)))
    entries.append(draw.swatch("boss", "boss part (purple)", lambda p, cx, cy, n: _boss_tile(p, cx - CELL / 2,
                                                                                            cy - CELL / 2)))
    entries.append(draw.swatch("boss-vulnerable", "boss part: vulnerable spot (yellow ring)",
                               lambda p, cx, cy, n: _boss_tile(p, cx - CELL / 2, cy - CELL / 2, vulnerable=True)))
    entries.append(draw.swatch("rocket", "rocket token", lambda p, cx, cy, n: _draw_token(p, cx, cy, "rocket")))
    entries.append(draw.swatch("drone", "drone token", lambda p, cx, cy, n: _draw_token(p, cx, cy, "drone")))
    return entries


def _boss_tile(pic: draw.Svg, x: float, y: float, vulnerable: bool = False, damaged: bool = False) -> None:
    pic.rect(x + 2, y + 2, CELL - 4, CELL - 4, draw.COLORS["boss"], draw.COLORS["ink"], rx=3)
    if vulnerable:
        pic.circle(x + CELL / 2, y + CELL / 2, CELL * 0.3, "none", draw.COLORS["vulnerable"], 2.5)
    if damaged:
        pic.line(x + 8, y + 8, x + CELL - 8, y + CELL - 8, draw.COLORS["damage"], 4)
        pic.line(x + CELL - 8, y + 8, x + 8, y + CELL - 8, draw.COLORS["damage"], 4)


def _draw_boss(pic: draw.Svg, grid: draw.Grid, s: State) -> None:
    boss = s.boss
    if boss is None or boss.at is None:
        return
    for part in boss.parts:
        x, y = grid.corner(*_part_space(boss, part))
        _boss_tile(pic, x, y, part.vulnerable, part.id in boss.damaged)
        name = part.id.removeprefix(f"{part.tile}-")
        pic.text(x + CELL / 2, y + CELL - 4, name[:6], size=9, fill=draw.COLORS["paper"])


def _draw_token(pic: draw.Svg, cx: float, cy: float, kind: str) -> None:
    r = CELL * 0.26
    if kind == "rocket":
        pic.polygon([(cx, cy + r), (cx + r * 0.7, cy - r), (cx - r * 0.7, cy - r)], draw.COLORS["rocket"],
                    draw.COLORS["ink"])
    else:
        pic.circle(cx, cy, r, draw.COLORS["drone"], draw.COLORS["ink"])
        pic.line(cx - r, cy - r, cx + r, cy + r, draw.COLORS["ink"])
        pic.line(cx - r, cy + r, cx + r, cy - r, draw.COLORS["ink"])


FIRE_GLYPH = {"left": "←", "forward": "↑", "right": "→"}


def _draw_dashboard(pic: draw.Svg, s: State, top: float) -> None:
    x0 = (pic.width - 3 * SLOT_W) / 2
    for i, slot in enumerate(SLOTS):
        x = x0 + i * SLOT_W
        card = s.slots[slot]
        pic.rect(x + 3, top, SLOT_W - 6, 56, "#f4f1ea", draw.COLORS["ink"], rx=4)
        pic.text(x + SLOT_W / 2, top + 14, f"{slot}, fires {FIRE_GLYPH.get(FIRE_DIRECTION[slot], '')}", size=10)
        arrows = " ".join(ARROW_GLYPH[a] for a in card.arrows) if card else "(empty)"
        pic.text(x + SLOT_W / 2, top + 35, arrows, size=16 if card else 10)
        pic.text(x + SLOT_W / 2, top + 51, "mirror ready" if s.mirrors[slot] else "mirror used", size=10,
                 fill=draw.COLORS["ink"] if s.mirrors[slot] else "#767676")
    track_y = top + 64
    box = min(22.0, (pic.width - 2 * MARGIN - 60) / s.health_track)
    pic.text(MARGIN, track_y + box * 0.7, "health", size=10, anchor="start")
    for i in range(s.health_track):
        x = MARGIN + 48 + i * box
        pic.rect(x, track_y, box - 2, box - 2, "#fdecea" if i == 0 else "#ffffff", draw.COLORS["ink"])
        if i == s.health:
            pic.rect(x + 4, track_y + 4, box - 10, box - 10, draw.COLORS["enemy"])
    status = f"{s.phase} · {s.mission_status or '-'} · deck {len(s.deck)} · discard {len(s.discard)}"
    pic.text(MARGIN, track_y + box + 18, status, size=10, anchor="start")
    if s.pending:
        pic.text(pic.width - MARGIN, track_y + box + 18, f"{s.pending.kind} card drawn", size=10, anchor="end")


# --- evaluation (the simulator's greedy policy) ---------------------------------------------------

# Weights of a state's worth to the hero, in rough units of "one health". Progress through the game comes
# first; resources (health, charges, upgrades, mirrors) next; then how close the hero is to something it can
# hit, so that a one-step look-ahead drives toward enemies and the boss's vulnerable spots.
WORTH = {
    "won": 10_000.0, "lost": -10_000.0, "mission": 400.0, "boss_stage": 1_300.0, "vulnerable_hit": 120.0,
    "enemy": 40.0, "truck_hit": 15.0, "civilian": -8.0, "health": 10.0, "last_health": 15.0, "charge": 3.0,
    "mirror": 1.0, "start_forward": 2.0, "reach": -4.0, "passed": -6.0, "threat": 10.0,
    "shield": 6.0, "jam": 10.0, "laser_strike": 28.0, "upgrade_step": 4.0,
}
# What an installed upgrade is worth to the greedy policy, by its effect kind (before its charges).
EFFECT_WORTH = {"shot": 7.0, "double-shot": 6.0, "repair": 5.0, "shield": 5.0, "shift": 4.0, "ram-proof": 3.0,
                "jam": 3.0, "disarm": 3.0, "redraw": 3.0, "civilian": 2.0, "mirror": 2.0}


def evaluate(s: State) -> float:
    """How good `s` looks for the hero (higher is better): the simulator's greedy one-step policy."""
    if s.game != "playing":
        return WORTH[s.game] + _progress(s)
    value = _progress(s)
    value += WORTH["health"] * s.health + (WORTH["last_health"] if s.health > 1 else 0.0)
    value += sum(WORTH["charge"] * u.charges + (EFFECT_WORTH[u.effect.kind] if u.effect else 0.0)
                 for u in s.upgrades)
    value += WORTH["mirror"] * sum(s.mirrors.values()) + WORTH["start_forward"] * s.start_forward
    if s.reward == "rookie" and s.variant == "standard":
        # The laser strike: worth keeping for a hard moment; once used, each later upgrade step has a point less.
        steps_after = 3 - s.mission + (s.phase == "mission")
        value += WORTH["laser_strike"] if not s.laser_used else -WORTH["upgrade_step"] * steps_after
    if s.phase in ("mission", "upgrades"):  # the short game's upgrade step comes with its mission laid out
        value += _mission_shaping(s)
    elif s.phase == "boss" and s.boss is not None:
        value += _boss_shaping(s)
    return value


def _progress(s: State) -> float:
    value = WORTH["mission"] * s.missions_accomplished
    if s.boss is not None:
        value += WORTH["boss_stage"] + WORTH["vulnerable_hit"] * sum(
            1 for p in s.boss.parts if p.vulnerable and p.id in s.boss.damaged)
    if s.phase == "mission":
        value += sum(WORTH["enemy"] if d.side == "enemy" else WORTH["civilian"] for d in s.destroyed
                     if d.by != "earlier")
        value += WORTH["truck_hit"] * sum(1 for v in s.vehicles if v.side == "enemy" and v.damaged)
    return value


def _mission_shaping(s: State) -> float:
    """Toward the nearest enemy's firing spaces and a card that can hit one next; enemies left behind are
    hard to reach again; protection is worth something while an enemy is next to the hero."""
    enemies = _enemies(s)
    if not enemies:
        return 0.0
    reach, passed, exposed = None, 0, False  # counted in one pass: this runs on every look-ahead
    hero_col, hero_row = s.hero
    for e in enemies:
        here = _reach(s, e.at, ram=e.type == "motorcycle")
        reach = here if reach is None or here < reach else reach
        passed += e.at[1] < hero_row - 1
        exposed = exposed or abs(hero_col - e.at[0]) + abs(hero_row - e.at[1]) == 1
    value = WORTH["reach"] * reach + WORTH["passed"] * passed
    value += WORTH["threat"] * _threat(s, [e.at for e in enemies], ram=True)
    if exposed and s.deck:
        enemy_cards = sum(1 for c in s.deck if c.kind == "enemy") / len(s.deck)
        value += WORTH["jam"] * enemy_cards * ("jam" in s.effects)
    return value + WORTH["shield"] * s.shield * (1.0 if exposed else 0.2)


def _boss_shaping(s: State) -> float:
    boss = s.boss
    assert boss is not None
    value = WORTH["shield"] * s.shield
    if boss.at is None:
        return value
    spots = [_part_space(boss, p) for p in boss.parts if p.vulnerable and p.id not in boss.damaged]
    value += WORTH["reach"] * min((_reach(s, p) for p in spots), default=0)
    return value + WORTH["threat"] * _threat(s, spots, ram=False)


def _reach(s: State, target: Space, ram: bool = False) -> int:
    """Steps from the hero to a space it can fire into `target` from (beside it, or below it), or to the
    target itself when ramming destroys it."""
    col, row = target
    hero_col, hero_row = s.hero
    best = abs(hero_col - col) + abs(hero_row - row) if ram else None
    for c, r in ((col - 1, row), (col + 1, row), (col, row - 1)):
        if 0 <= c < s.lanes and 0 <= r < s.rows:
            steps = abs(hero_col - c) + abs(hero_row - r)
            best = steps if best is None or steps < best else best
    return 0 if best is None else best


def _threat(s: State, targets: Sequence[Space], ram: bool) -> int:
    """The most targets one dashboard card could hit next turn (its arrows, mirrored or not, with a shot
    before or after, both under a double-shot effect; rammed enemy motorcycles when `ram`): a cheap sketch of
    the movement rules, in which a car, truck or boss part in the way stops the card."""
    wanted = set(targets)
    blocked = {v.at: v for v in s.vehicles}
    if s.boss is not None and s.boss.at is not None:
        blocked.update((sp, None) for sp in _boss_spaces(s.boss))
    both = "double-shot" in s.effects
    lanes, rows = s.lanes, s.rows
    best = 0
    for slot in SLOTS:
        card = s.slots[slot]
        if card is None:
            continue
        aim_col, aim_row = DELTA[FIRE_DIRECTION[slot]]
        first = (s.hero[0] + aim_col, s.hero[1] + aim_row)
        before = first in wanted
        for mirrored in (False, True) if s.mirrors[slot] else (False,):
            (col, row), rammed = s.hero, None
            for d_col, d_row in _deltas(card.arrows, mirrored):
                step = (col + d_col, row + d_row)
                if not (0 <= step[0] < lanes and 0 <= step[1] < rows):
                    continue
                if step in blocked:
                    v = blocked[step]
                    if not (ram and v is not None and v.type == "motorcycle"):
                        break
                    rammed = step if step in wanted else rammed
                col, row = step
            last = (col + aim_col, row + aim_row)
            after = last in wanted and last != rammed
            shots = before + after if both and first != last else max(before, after)
            best = max(best, shots + (rammed is not None))
    return best


@functools.cache
def _deltas(arrows: tuple[str, ...], mirrored: bool) -> tuple[Space, ...]:
    """The steps a card's arrows make, mirrored or not (a pure function of a card's arrows)."""
    return tuple(DELTA[MIRRORED[arrow] if mirrored else arrow] for arrow in arrows)


# --- players' wording --------------------------------------------------------------------------

_SLOT_NAME = {"left": "left", "center": "centre", "right": "right"}


def describe_action(act: Any, s: State | None = None, name: Callable[[str], str] = str) -> str:
    """An action in players' words, for the site's step lists: upgrades by their printed titles
    (`name`), spaces told from where the hero is in `s` (the position the action is played from)."""
    text = _describe(act, s, name)
    extra = [f"the up-link's energy goes to {_energy_words(c, name)}" for c in getattr(act, "energy", ())]
    extra += [f"the shock costs {_discard_words(c, name)}" for c in getattr(act, "discard", ())]
    if getattr(act, "hero_to", None) is not None:
        extra.append(f"the hero moves aside to {_place(s, act.hero_to)}")
    return text + ("; " + "; ".join(extra) if extra else "")


def _place(s: State | None, pos: Sequence[int]) -> str:
    """A space as a player points at it, from the hero's car: "2 rows ahead, 1 lane to the left"."""
    if s is None:
        return "that space"
    dx, dy = pos[0] - s.hero[0], pos[1] - s.hero[1]
    if not dx and not dy:
        return "the hero's space"
    rows = "level with the hero" if not dy else \
        f"{abs(dy)} row{'s' if abs(dy) != 1 else ''} {'ahead of' if dy > 0 else 'behind'} the hero"
    lanes = "in the same lane" if not dx else \
        f"{abs(dx)} lane{'s' if abs(dx) != 1 else ''} to the {'right' if dx > 0 else 'left'}"
    return f"the space {rows}, {lanes}"


def _describe(act: Any, s: State | None, name: Callable[[str], str]) -> str:
    if isinstance(act, MoveAction):
        text = f"Move with the {_SLOT_NAME[act.slot]} card" + (", mirrored" if act.mirror else "")
        if act.fire == "both":
            text += f", firing {FIRE_DIRECTION[act.slot]} before and after moving"
        elif act.fire:
            text += f", firing {FIRE_DIRECTION[act.slot]} {act.fire} moving"
        return text
    if isinstance(act, BrakeAction):
        return f"Brake {act.spaces} space{'s' if act.spaces != 1 else ''} with the {_SLOT_NAME[act.slot]} card"
    if isinstance(act, EnemyFireAction):
        return f"Enemy card: the enemy fires at {_place(s, act.target)}"
    if isinstance(act, CivilianMoveAction):
        return f"Civilian card: the civilian on {_place(s, act.civilian)} moves to {_place(s, act.to)}"
    if isinstance(act, LaserStrikeAction):
        return f"Call the satellite laser strike on the enemy on {_place(s, act.target)}"
    if isinstance(act, UseUpgradeAction):
        paid = "removing a charge" if act.pay == "charge" else "discarding the card"
        text = f"Use {name(act.upgrade)}, {paid}"
        if act.direction is not None:
            text += f", {act.direction}"
        if act.slot is not None:
            text += f", on the {_SLOT_NAME[act.slot]} slot"
        if act.civilian is not None and act.to is not None:
            text += f", moving the civilian on {_place(s, act.civilian)} to {_place(s, act.to)}"
        return text
    if isinstance(act, SpendAction):
        upgrade = name(act.upgrade or "")
        what = {"health": "one health", "install": f"installing {upgrade}", "charge": f"a charge on {upgrade}",
                "start_forward": "starting one space forward"}[act.buy]
        return f"Spend points on {what}" + (f", {act.times} times" if act.times > 1 else "")
    words = {"score": "Score the mission", "finish": "End the upgrade step", "start_mission": "Set up the next mission",
             "boss_setup": "Set up the boss", "boss_turn": "Play the boss's turn"}
    return words[act.do]


def _energy_words(choice: Any, name: Callable[[str], str] = str) -> str:
    return "one health" if choice == "health" else f"a charge on {name(choice.charge)}"


def _discard_words(choice: DiscardChoice, name: Callable[[str], str] = str) -> str:
    if choice.charge is not None:
        return f"a charge from {name(choice.charge)}"
    return f"the device card {name(choice.card or '')}"


def describe_end(o: Mapping[str, Any]) -> str:
    """The hero's health, what was destroyed this mission, the boss's damage and the game's result."""
    gone = o["destroyed"]
    parts = [f"the hero has {o['health']} health",
             f"{gone['enemy']['total']} enemy and {gone['civilian']['total']} civilian vehicles destroyed this mission"]
    if o.get("boss"):
        parts.append(f"the boss has taken {o['boss_damage']} damage")
    if o["game"] != "playing":
        parts.append(f"the game is {o['game']}")
    text = "; ".join(parts)
    return text[:1].upper() + text[1:] + "."


_DECKS = {"mission deck": "mission cards", "upgrade deck": "upgrade cards", "movement deck": "movement cards"}


def describe_random(label: str, value: Any, name: Callable[[str], str], facts: Facts | None = None) -> str:
    """A shuffle or draw in players' words: cards by their printed titles, a movement card by its
    kind and arrows (every hero card has the same title)."""
    if isinstance(value, (list, tuple)):
        shown = ", ".join(_card_words(str(v), name, facts) for v in value)
        if label in _DECKS:
            return f"the {_DECKS[label]} are shuffled, top first: {shown}"
        return f"{label} drawn: {shown}"
    return f"draws the {label}: {name(str(value))}"


def _card_words(face: str, name: Callable[[str], str], facts: Facts | None) -> str:
    card = next((c for fid, c in facts.movement if fid == face), None) if facts is not None else None
    if card is None or not card.arrows:
        return name(face)
    return f"{name(face)} {''.join(_ARROW_MARK.get(a, a) for a in card.arrows)}"


_ARROW_MARK = {"forward": "↑", "left": "←", "right": "→", "back": "↓"}  # as the cards print their arrows


# --- the engine contract -----------------------------------------------------------------------


# A whole game ends within 300 actions, whatever is played. Per mission: at most 14 hero turns (each
# discards a hero card for good), 7 traffic cards resolved, 28 upgrade uses (each spends one of at most
# 6 x 3 charges, 4 up-link energies or 6 cards) and the score: 3 x 50, plus 2 mission setups. Each
# upgrade step spends at most 8 points and finishes: 3 x 9. The boss: its setup, 14 hero turns, 15
# boss turns and 24 upgrade uses. In all 150 + 2 + 27 + 54 = 233 (the short game: 57).
MAX_ACTIONS = 300


class MissionDrive(Engine):
    type = GameType(name="Mission: Drive", min_players=1, max_players=1, utility="solo", max_actions=MAX_ACTIONS)
    setup_spec = SetupSpec
    action_specs = ACTIONS
    options_spec = Options
    facts_specs = FACTS_SPECS

    def initial_state(self, setup: Any, content: GameContent) -> State:
        return initial_state(setup, facts_of(content))

    def new_game(self, options: Any, content: GameContent, chance: Chance) -> State:
        return new_game(options, facts_of(content), chance)

    def players_to_act(self, state: State) -> list[str]:
        return ["hero"] if state.game == "playing" else []

    def legal_actions(self, state: State, player: str | None = None) -> list[Any]:
        if player not in (None, "hero"):
            return []
        return legal_actions(state)

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

    def describe_action(self, action: Any, state: Any = None, content: GameContent | None = None) -> str:
        return describe_action(action, state, content.name if content is not None else str)

    def describe_random(self, label: str, value: Any, content: GameContent | None = None) -> str:
        if content is None:
            return describe_random(label, value, str)
        return describe_random(label, value, content.name, facts_of(content))

    def evaluate(self, state: State, player: str) -> float | None:
        return evaluate(state)

    def describe_end(self, state: State, content: GameContent | None = None) -> str:
        return describe_end(outcome(state, []))

    def simulation_setups(self) -> list[Setting]:
        """One setting per difficulty (reward level and boss difficulty alike), and the short game."""
        out = [Setting(level, {"reward": level, "difficulty": level}) for level in LEVELS]
        return [*out, Setting("short game", {"variant": "short"})]


GAME = MissionDrive()
