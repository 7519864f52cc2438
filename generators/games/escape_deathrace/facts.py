"""Escape Deathrace 2182 Micro: the rulebook's numbers and tables, the rule functions every roll is
resolved through (the odds tables enumerate the same ones), and the box as the engine reads it from
content (characters, weapon drops, power and event cards with their effects, road tiles)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Literal, get_args

from generators.rules.facts import GameContent

# ---------------------------------------------------------------------------------------------
# Printed rules: tables and numbers of the rulebook's rules (the box's contents come from content)

D4 = (1, 2, 3, 4)
MAX_PLAYERS = 4  # the four D4 cards and "third and fourth players" on the final tile
STARTING_DROPS = 4  # Setup, step 4
HAZARD_TABLE = {1: (False, 1), 2: (False, 2), 3: (True, 1), 4: (True, 0)}  # roll -> (passed, damage)
# ruling: boss-battle-d4-damage
STRIKE_TABLE = {1: 1, 2: 2, 3: 3, 4: 0}  # battle-it-out, drive-by and the boss-battle D4 action
LANDMINE_TABLE = {1: 1, 2: 2, 3: 3, 4: 4}  # driving over a landmine
LANDMINE_LANDING = 3
FIRE_DAMAGE = 2  # fire road tile and fire drop alike
GUNFIRE_BY_DISTANCE = {1: 2, 2: 1}
BOSS_DROP_DAMAGE = 3  # landmine, gunfire or fire used in a boss battle (and on the dead final tile)
FIRST_STRIKE = 3
CAR_BOMB = 1
DEFAULT_ROUND_LIMIT = 60  # house: whole games end when the portal closes (ruling: endless-roaming)

Side = Literal["N", "E", "S", "W"]
DropKind = Literal["landmine", "smoke", "gunfire", "fire"]
DROP_KINDS: tuple[DropKind, ...] = get_args(DropKind)
SIDES: tuple[Side, ...] = get_args(Side)
TileKind = Literal["start", "straight", "hazard", "event", "fire", "nitro-nos", "boss", "final-boss"]
Shape = Literal["straight", "4-way", "dead-end"]
# ruling: shades-shorthand
Ability = Literal[
    "extra-space",  # +1 space with every movement, and one tile more laid (GoodDay)
    "hazard-free",  # drives through hazard tiles without rolling (GoodDay)
    "fireproof",  # fire drops and fire road tiles do nothing (Mista)
    "double-fire",  # may use two fire drops at once (Mista)
    "counters-drive-by",  # strikes back at a drive-by (Rebecca Jones)
    "extra-damage",  # +1 to hits in gunfire, drive-bys, counters and boss battles (Rebecca Jones)
    "gunproof",  # gunfire drops and drive-bys do nothing (Shooter)
    "first-strike",  # no first strike ever hits (Shooter)
    "tough",  # 1 less from every hit (Reegad)
    "nitro-bonus",  # one more space for each nitro-nos tile entered along its arrows (Reegad)
    "mineproof",  # landmines do nothing (Ariel & FlaMiN)
    "two-strikes",  # two strikes in a drive-by, battle-it-out or boss battle (Ariel & FlaMiN)
]
CarBomb = Literal["same-tile", "all-players"]
BOSS_KINDS = ("boss", "final-boss")
SETUP_KINDS = ("start", "straight", "hazard", "event", "fire", "nitro-nos")  # kinds a setup names; bosses by id

DIRS = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}

# ---------------------------------------------------------------------------------------------
# Rule functions: the engine resolves every roll through these, and `odds()` enumerates them.

Abilities = frozenset[str]
IMMUNITY = {"fireproof": ("fire-tile", "fire-drop"), "gunproof": ("gunfire", "drive-by"), "mineproof": ("landmine",)}


def skips_hazard(ab: Abilities) -> bool:
    """GoodDay drives through hazard tiles without rolling."""
    return "hazard-free" in ab


# ruling: gooday-extra-tile
def extra_space(ab: Abilities) -> int:
    """GoodDay moves (and lays) one more with every movement."""
    return 1 if "extra-space" in ab else 0


def hazard_roll(roll: int) -> tuple[bool, int]:
    """(passed, damage before protections) for one hazard attempt."""
    return HAZARD_TABLE[roll]


# ruling: rebecca-extra-damage
def dealt(ab: Abilities, base: int, context: str) -> int:
    """Damage a hit deals before the target's protections; Rebecca Jones adds 1 to hits she lands in
    gunfire, drive-bys, counter attacks and boss battles (a miss stays a miss)."""
    if base > 0 and "extra-damage" in ab and context in ("gunfire", "drive-by", "counter", "boss"):
        return base + 1
    return base


def strike_hit(ab: Abilities, roll: int, context: str) -> int:
    """One D4 strike (battle-it-out, drive-by, counter attack, boss-battle roll) before protections."""
    return dealt(ab, STRIKE_TABLE[roll], context)


def immune(ab: Abilities, source: str) -> bool:
    return any(source in IMMUNITY.get(a, ()) for a in ab)


# ruling: reegad-damage-floor
def damage_taken(ab: Abilities, amount: int, source: str) -> int:
    """What a car with abilities `ab` actually loses from `amount` of damage of kind `source`."""
    if immune(ab, source):
        return 0
    if "tough" in ab:
        return max(0, amount - 1)
    return amount


def counters_drive_by(ab: Abilities) -> bool:
    """Only Rebecca Jones (the sheet's "Green Shades") strikes back at a drive-by."""
    return "counters-drive-by" in ab


# ruling: ariel-two-strikes
def strikes(ab: Abilities) -> int:
    """How many D4 strikes a car makes in a drive-by, battle-it-out or boss-battle action."""
    return 2 if "two-strikes" in ab else 1


def landmine_hit(roll: int) -> int:
    """Driving over a landmine (or having one dropped on you): the roll is the damage."""
    return LANDMINE_TABLE[roll]


# ruling: shooter-first-strike
def first_strike_cancelled(ab: Abilities, smoke: bool) -> str | None:
    """Why a first strike (a boss's, or a player's on the dead final tile) misses this car, if it does."""
    if smoke:
        return "smoke"
    return "first-strike" if "first-strike" in ab else None


# ---------------------------------------------------------------------------------------------
# Facts read from content (declared as `facts_specs`)


@dataclass(frozen=True)
class CharacterFacts:
    """A character card's game facts: starting health and special abilities."""

    hp: int = field(metadata={"doc": "starting health (Setup, step 1: 20)", "min": 1})
    abilities: tuple[Ability, ...] = field(metadata={"doc": "the card's special abilities, as engine ability ids"})


@dataclass(frozen=True)
class DropFacts:
    """A weapon drop token's kind."""

    kind: DropKind = field(metadata={"doc": "which weapon drop this token is"})


NEAR = 2  # road tiles: how far an event card's blast reaches (as far as gunfire)
SITUATIONAL = ("move", "boss", "strike", "hit", "clear_drop", "hazard_pass")  # parts that need a moment to play
EVENT_ONLY = ("lose", "everyone", "near", "lose_drop", "roll")  # parts that happen to the car that drew the card
POWER_ONLY = ("boss", "strike", "hit", "clear_drop", "hazard_pass")  # parts the player aims or times


@dataclass(frozen=True)
class Effect:
    """What a power or event card does, as parts the engine interprets (house designs: the rulebook prints no
    card text). A card may combine parts; they happen in the order listed here. Power cards are played as the
    turn allows (Taking a Turn; Boss Battle: one of the three actions); a part that needs a moment (`move`,
    `boss`, `strike`, `hit`, `clear_drop`, `hazard_pass`) makes the card playable only then. Event cards happen
    to the car that drew them, in full before the next event card (Q&A 6)."""

    lose: int = field(default=0, metadata={"doc": "event: the car that drew it loses this many HP", "min": 0})
    everyone: int = field(default=0, metadata={
        "doc": "event: every car in the race that is not on the start tile loses this many HP, the drawer "
               "included", "min": 0})
    near: int = field(default=0, metadata={
        "doc": f"event: every other car within {NEAR} road tiles (its own tile included), not on the start "
               "tile, loses this many HP", "min": 0})
    hit: int = field(default=0, metadata={
        "doc": "power: one car the player could hit with gunfire (or, on the final tile once the final boss is "
               "dead, a car there the player may target) loses this many HP; not while fighting a live boss",
        "min": 0})
    boss: int = field(default=0, metadata={
        "doc": "power: in a boss battle, the live boss on the player's tile loses this many HP", "min": 0})
    strike: int = field(default=0, metadata={
        "doc": "power: in a boss battle (or on the final tile once the final boss is dead, at a car there), this "
               "many more D4 strikes on the battle table", "min": 0, "max": 2})
    heal: int = field(default=0, metadata={
        "doc": "the player regains up to this many HP, never above the character's starting HP", "min": 0})
    clear_drop: int = field(default=0, metadata={
        "doc": "power: one weapon drop lying on the road within this many road tiles goes to the used pile",
        "min": 0})
    hazard_pass: bool = field(default=False, metadata={
        "doc": "power: a car stopped at a hazard tile gets past it without drawing and without damage (that "
               "turn's attempt)"})
    power: int = field(default=0, metadata={
        "doc": "the player draws this many power cards (each from the deck or the face-up discard)", "min": 0})
    take_drop: Literal["used", "supply"] | None = field(default=None, metadata={
        "doc": "the player takes one weapon drop of their choice: used, from the used pile; supply, from the "
               "tokens nobody picked at setup (from the used pile when that is empty)"})
    lose_drop: int = field(default=0, metadata={
        "doc": "event: the player puts this many of their weapon drops (their choice) on the used pile", "min": 0})
    move: int = field(default=0, metadata={
        "doc": "move up to this many spaces on the road already laid (GoodDay one more); power cards: after the "
               "turn's movement", "min": 0})
    roll: bool = field(default=False, metadata={
        "doc": "event: roll again: a new movement draw, laying up to that many road tiles and moving"})

    def parts(self) -> tuple[str, ...]:
        """The parts this card has, in the order they happen."""
        return tuple(f.name for f in fields(self) if getattr(self, f.name))

    def check(self) -> tuple[str, str] | None:
        if not self.parts():
            return "", "a card does something: give at least one part"
        if self.move and self.roll:
            return "roll", "a card orders one movement: move or roll, not both"
        return None


@dataclass(frozen=True)
class PowerFacts:
    """How a power card is dealt at setup (Setup, step 2) and what it does when played."""

    setup: Literal["one-each", "random"] = field(
        metadata={"doc": "one-each: every player is dealt one (the Magic Monkey Wrench); random: among the cards "
                         "dealt one to each player at random, the rest shuffled into the deck"})
    effect: Effect = field(metadata={"doc": "what the card does when played"})

    def check(self) -> tuple[str, str] | None:
        parts = self.effect.parts()
        if bad := [x for x in parts if x in EVENT_ONLY]:
            return "effect", f"{', '.join(bad)}: an event card's part (it happens to whoever draws the card)"
        if len([x for x in parts if x in SITUATIONAL]) > 1:
            return "effect", f"one of {', '.join(SITUATIONAL)} per power card (each says when it can be played)"
        return None


@dataclass(frozen=True)
class EventFacts:
    """What an event card does to the car that drew it."""

    effect: Effect = field(metadata={"doc": "what happens when the card is drawn"})

    def check(self) -> tuple[str, str] | None:
        if bad := [x for x in self.effect.parts() if x in POWER_ONLY]:
            return "effect", f"{', '.join(bad)}: a power card's part (a player aims or times it)"
        return None


@dataclass(frozen=True)
class TileFacts:
    """A road tile's game facts: what it does, its shape, and a boss tile's boss HP."""

    kind: TileKind = field(metadata={"doc": "what the tile does (boss: a sub-boss; final-boss: the H tile)"})
    shape: Shape = field(metadata={"doc": "straight road, 4-way intersection or dead end"})
    hp: int | None = field(default=None, metadata={"doc": "a boss tile's boss health (Boss Battle Tiles)", "min": 1})

    def check(self) -> tuple[str, str] | None:
        if (self.kind in BOSS_KINDS) != (self.hp is not None):
            return "hp", "a boss tile (and only a boss tile) gives its boss's HP"
        if self.kind == "boss" and self.shape != "4-way":
            return "shape", "a sub-boss tile is a 4-way intersection (Boss Battle Tiles)"
        if self.kind == "final-boss" and self.shape != "dead-end":
            return "shape", "the final boss tile is a dead end (Boss Battle Tiles)"
        if self.kind == "hazard" and self.shape != "straight":
            return "shape", "a hazard tile is a straight road: it is passed from one side to the other"
        return None


FACTS_SPECS: dict[str, type] = {
    "character-cards": CharacterFacts,
    "weapon-drops": DropFacts,
    "power-cards": PowerFacts,
    "event-cards": EventFacts,
    "road-tiles": TileFacts,
}


@dataclass(frozen=True)
class Character:
    id: str
    title: str
    hp: int
    abilities: Abilities


@dataclass(frozen=True)
class TileFace:
    id: str
    title: str
    kind: str
    shape: str
    hp: int | None
    count: int


@dataclass(frozen=True, eq=False)
class Box:
    """The game's components as the engine reads them from content (shared by every state: immutable)."""

    characters: dict[str, Character]
    drops: dict[str, int]  # kind -> tokens in the box
    power: dict[str, int]  # face id -> cards
    power_each: tuple[str, ...]  # faces dealt one to each player
    events: dict[str, int]  # event card face id -> cards
    effects: dict[str, Effect]  # power and event card face id -> what it does
    titles: dict[str, str]  # power and event card face id -> its title
    tiles: dict[str, TileFace]
    bosses: dict[str, int]  # boss tile face id -> full HP
    sub_bosses: list[str]
    final: str  # the final boss tile's face id

    @classmethod
    def of(cls, content: GameContent) -> Box:
        """The box of `content` (derived once per content: `GameContent.view(Box.of)`)."""
        chars = {f.id: Character(f.id, f.title, f.facts.hp, frozenset(f.facts.abilities))
                 for f in content.faces("character-cards")}
        drops: dict[str, int] = {k: 0 for k in DROP_KINDS}
        for f in content.faces("weapon-drops"):
            drops[f.facts.kind] += f.count
        power = {f.id: f.count for f in content.faces("power-cards")}
        each = tuple(f.id for f in content.faces("power-cards") if f.facts.setup == "one-each")
        events = {f.id: f.count for f in content.faces("event-cards")}
        cards = [*content.faces("power-cards"), *content.faces("event-cards")]
        clash = sorted(set(power) & set(events))
        if clash:
            raise KeyError(f"power and event cards share face ids ({', '.join(clash)}); actions name cards by id")
        effects = {f.id: f.facts.effect for f in cards}
        titles = {f.id: f.title for f in cards}
        tiles = {f.id: TileFace(f.id, f.title, f.facts.kind, f.facts.shape, f.facts.hp, f.count)
                 for f in content.faces("road-tiles")}
        bosses = {t.id: t.hp or 0 for t in tiles.values() if t.kind in BOSS_KINDS}
        subs = [t.id for t in tiles.values() if t.kind == "boss"]
        final = next(t.id for t in tiles.values() if t.kind == "final-boss")
        return cls(chars, drops, power, each, events, effects, titles, tiles, bosses, subs, final)

    def of_kind(self, kind: str) -> list[str]:
        return [t.id for t in self.tiles.values() if t.kind == kind]

    def face_for(self, kind: str, shape: str) -> str | None:
        return next((t.id for t in self.tiles.values() if t.kind == kind and t.shape == shape), None)
