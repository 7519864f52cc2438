"""Mission: Drive: the numbers the rulebook prints (tables, limits) and what the engine reads from each
component's `facts:` (movement cards, mission cards, weapon cards, upgrade cards, boss tiles and boss
movement cards, token counts, the dashboard, the road boards), typed, and viewed once per content
(`facts_of`). Nothing of a card is typed again here: the engine reads the very data the print kit draws.

The road is the two road boards end to end: `lanes` columns by `rows` rows (5 x 12). A space is
`[col, row]`; row 0 is the edge nearest the player (the dashboard end), forward = row + 1."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from generators.rules.facts import GameContent

# --- facts from the rulebook (tables and numbers printed in its text, not on a component) ------

SLOTS: tuple[Slot, ...] = ("left", "center", "right")
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

Pos = tuple[int, int]
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
        return self._cards[face_id]

    @functools.cached_property
    def _cards(self) -> dict[str, Card]:
        """Each movement face id's card (the first entry of each, as a search through `movement` finds it),
        kept on these facts: every deal looks cards up."""
        cards: dict[str, Card] = {}
        for fid, card in self.movement:
            cards.setdefault(fid, card)
        return cards

    def count(self, kind: str) -> int:
        return sum(1 for _, card in self.movement if card.kind == kind)




def facts_of(content: GameContent) -> Facts:
    """The engine's view of the content, derived once per content object (kept on it)."""
    return content.view(_build_facts)


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
                BossPart(prefix + p.id, tile, pair(p.at), p.vulnerable, tuple(pair(t) for t in p.targets))
                for p in f.parts)
            activation.setdefault(f.boss, []).extend((tile, pair(a)) for a in f.activation)
    cards: dict[str, list[BossCardFacts]] = {}
    for face in content.faces("boss-movement-cards"):
        cards.setdefault(face.facts.boss, []).extend([face.facts] * face.count)
    return {name: BossDesign(name, tuple(tiles[name]), tuple(parts[name]), tuple(activation.get(name, ())),
                             tuple(cards.get(name, ())))
            for name in tiles}


def pair(p: Sequence[int]) -> Space:
    return int(p[0]), int(p[1])
