"""Escape Deathrace 2182 Micro: an executable model of the rulebook.

The rulebook transcription (`rulebooks/escape-deathrace-2182-micro.txt`) is the only source of rules.
Where it is silent or contradicts itself the engine picks one reading: a ruling in
content/escape-deathrace-2182-micro/notes.yaml, marked `# ruling: <id>` where the code applies it. The
car bomb, printed twice, is a setup option.

Facts come from the game's content, never retyped here: the characters (title, starting HP and
abilities, as ability ids this module knows) from the character cards, the weapon drops in the box,
the power and event cards (how each is dealt, and what it does as an `Effect`: a small vocabulary of
parts the engine interprets, so no card is coded by name), the road tiles (kind, shape, boss HP) from
the `facts:` of their faces. The power and event card effects are house designs (the rulebook prints
no card text).

Randomness comes only through `Chance`, each request labelled: `movement` (a movement draw),
`movement (event card)`, `hazard`, `landmine`, `battle-it-out X->Y`, `counter Y->X`, `drive-by X->Y`,
`boss battle X-><boss>`, `final tile X->Y`, `road tile` (the next tile of a stack whose order is not
listed), `power card` and `event card` (the next card of a deck whose order is not listed),
`power deck` / `event deck` (a discard pile shuffled into a new deck), and for a whole game
`characters`, `first player`, `power cards`, `power deck`, `event deck`, `road tiles` (shuffles and
deals).

A turn is a series of decisions, each taken after the randomness it depends on:
`draw` (the movement D4), then `draw_tile` / `lay_tile` one road tile at a time, then `drive` a
path; a hazard landed on is tried with `hazard_attempt`; a boss battle opens with `boss_battle` and
goes on with `attack`; a power card is played with `play_power` (its target, or the drop it clears,
named); an event card happens when it is drawn, and the movement it orders is a `drive` (after
`draw_tile` / `lay_tile` for a new draw); choices other players make on the way (a strike in a
battle-it-out between three or more cars, a boss reward) are their decisions, and so are the cards
and drops a card gives or takes (`draw_power`, `collect_drop`, `discard_drop`). `legal_actions` lists every one of them
concretely (paths, tiles, places, targets), so a program can play alone.

Setup (`setup:` of a scenario) and actions: see `SetupSpec` and the action dataclasses below (their
field docs are exported as the scenario JSON Schema). Outcome keys: see `outcome`.

Exact odds: `odds()` enumerates D4 results through the same rule functions the engine resolves rolls
with (`hazard_roll`, `strike_hit`, `landmine_hit`, `damage_taken`, `strikes`,
`first_strike_cancelled`), so a table and the engine cannot disagree.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from fractions import Fraction
from typing import Any, Literal, get_args, get_type_hints

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
DROP_KINDS: tuple[str, ...] = get_args(DropKind)
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

    def __deepcopy__(self, memo: dict[int, Any]) -> Box:
        return self

    @classmethod
    def of(cls, content: GameContent) -> Box:
        chars = {f.id: Character(f.id, f.title, f.facts.hp, frozenset(f.facts.abilities))
                 for f in content.faces("character-cards")}
        drops = {k: 0 for k in DROP_KINDS}
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
        return cls(chars, drops, power, each, events, effects, titles, tiles)

    def of_kind(self, kind: str) -> list[str]:
        return [t.id for t in self.tiles.values() if t.kind == kind]

    # Cached (the box never changes; read-only results): evaluating a state asks for these many times.
    @functools.cached_property
    def bosses(self) -> dict[str, int]:
        return {t.id: t.hp or 0 for t in self.tiles.values() if t.kind in BOSS_KINDS}

    @functools.cached_property
    def sub_bosses(self) -> list[str]:
        return self.of_kind("boss")

    @functools.cached_property
    def final(self) -> str:
        return self.of_kind("final-boss")[0]

    def face_for(self, kind: str, shape: str) -> str | None:
        return next((t.id for t in self.tiles.values() if t.kind == kind and t.shape == shape), None)


# ---------------------------------------------------------------------------------------------
# Setup spec (a scenario's `setup:`)

SIDE_DOC = "a side of the compass (x grows east, y grows south)"


@dataclass(frozen=True)
class DropCounts:
    """Weapon drops by kind."""

    landmine: int = field(default=0, metadata={"doc": "landmine drops", "min": 0})
    smoke: int = field(default=0, metadata={"doc": "smoke bombs", "min": 0})
    gunfire: int = field(default=0, metadata={"doc": "gunfire drops", "min": 0})
    fire: int = field(default=0, metadata={"doc": "fire drops", "min": 0})

    def as_dict(self) -> dict[str, int]:
        return {k: getattr(self, k) for k in DROP_KINDS}


@dataclass(frozen=True)
class PlayerSpec:
    """One car in the race."""

    name: str = field(metadata={"doc": "the player's name, used in actions and outcomes"})
    character: str = field(metadata={"doc": "a character card's id (components/character-cards.yaml)"})
    hp: int | None = field(default=None, metadata={"doc": "health now (default: the character's starting HP)",
                                                   "min": 1})
    at: str | None = field(default=None, metadata={"doc": "the tile the car is on (default: the start tile)"})
    hazard_side: Side | None = field(default=None, metadata={
        "doc": "on a hazard tile (except for GoodDay): the side the car is stopped on"})
    drops: DropCounts | None = field(default=None, metadata={"doc": "weapon drops held (default: one of each)"})
    power: tuple[str, ...] | None = field(default=None, metadata={
        "doc": "power cards held, by face id (default: the cards every player is dealt, such as the Magic "
               "Monkey Wrench, and the n-th of the other cards in the box's order for the n-th player)"})


@dataclass(frozen=True)
class TileSpec:
    """One road tile on the table."""

    id: str = field(metadata={"doc": "the tile's name in paths and outcomes"})
    kind: str = field(metadata={"doc": "start, straight, hazard, event, fire, nitro-nos, or a boss tile's id "
                                       "(death-turret, omg-zilla-1, omg-zilla-2, final-boss)"})
    at: tuple[int, ...] = field(metadata={"doc": "[x, y]: x grows east, y grows south"})
    exits: str | None = field(default=None, metadata={
        "doc": "the sides the road leaves by: EW or NS (straight), NESW (4-way), one side (dead end); default "
               "EW, NESW for a sub-boss, W for the final boss", "pattern": "[NESW]{1,4}",
        "pattern_doc": "sides from N, E, S, W such as EW or NESW"})
    arrow: Side | None = field(default=None, metadata={"doc": "a nitro-nos tile's arrows (default: east, or the "
                                                              "first side of its exits)"})

    def check(self) -> tuple[str, str] | None:
        if len(self.at) != 2:
            return "at", f"expected [x, y], got {len(self.at)} number(s)"
        return None


@dataclass(frozen=True)
class BoardDropSpec:
    """A weapon drop lying on the road."""

    kind: Literal["landmine", "smoke", "fire"] = field(metadata={"doc": "landmine, smoke or fire"})
    tile: str = field(metadata={"doc": "the tile it lies on"})
    owner: str = field(metadata={"doc": "the player who placed it (smoke and fire clear at their next turn)"})
    on: tuple[str, ...] = field(default=(), metadata={
        "doc": "a landmine dropped where these cars were: it goes off at the first of their next turns"})


@dataclass(frozen=True)
class RulesSpec:
    """Readings and house options."""

    car_bomb: CarBomb = field(default="same-tile", metadata={
        "doc": "same-tile: the Battle-It-Out panel's car bomb; all-players: the Final Boss section's"})
    round_limit: int | None = field(default=None, metadata={
        "doc": "house: the race ends with nobody escaping after this many rounds (default: no limit)", "min": 1})


@dataclass(frozen=True)
class SetupSpec:
    """An Escape Deathrace 2182 Micro position: cars, road, stack, bosses, drops and cards."""

    players: tuple[PlayerSpec, ...] = field(metadata={
        "doc": "1 to 4 cars, in turn order (counter-clockwise from whoever moves first)"})
    road: tuple[TileSpec, ...] = field(metadata={"doc": "the road tiles on the table; one is the start tile"})
    tile_stack: tuple[str, ...] | None = field(default=None, metadata={
        "doc": "the face-down road tiles by face id, top first (the final boss tile comes after them); default: "
               "the rest of the box in an unknown order, each drawn as a 'road tile' result"})
    boss_hp: dict[str, int] = field(default_factory=dict, metadata={
        "doc": "boss health by boss tile id (default: each boss's full HP)"})
    turn: str | None = field(default=None, metadata={"doc": "whose turn has just begun (default: the first player)"})
    phase: Literal["start", "moved"] = field(default="start", metadata={
        "doc": "start: nothing done yet this turn; moved: the movement is done"})
    board: tuple[BoardDropSpec, ...] = field(default=(), metadata={"doc": "weapon drops lying on the road"})
    graveyard: DropCounts = field(default=DropCounts(), metadata={"doc": "used weapon drops"})
    power_deck: tuple[str, ...] | None = field(default=None, metadata={
        "doc": "the power card deck by face id, top first (default: the cards nobody holds and nobody discarded, "
               "in an unknown order: each card drawn from it is a 'power card' result)"})
    power_discard: tuple[str, ...] = field(default=(), metadata={"doc": "the face-up discard pile, top last"})
    event_deck: tuple[str, ...] | None = field(default=None, metadata={
        "doc": "the event deck by face id, top first (default: every event card, in an unknown order: each card "
               "drawn from it is an 'event card' result)"})
    final_arrivals: tuple[str, ...] = field(default=(), metadata={
        "doc": "the cars on the final boss tile, in the order they landed there"})
    rules: RulesSpec = field(default=RulesSpec(), metadata={"doc": "readings and house options"})


@dataclass(frozen=True)
class Options:
    """How a whole game is set up."""

    players: int = field(default=2, metadata={"doc": "how many play (1 to 4)", "min": 1, "max": MAX_PLAYERS})
    characters: tuple[str, ...] | None = field(default=None, metadata={
        "doc": "character ids in seat order (default: dealt at random)"})
    car_bomb: CarBomb = field(default="same-tile", metadata={"doc": "which printed car bomb rule to play"})
    round_limit: int = field(default=DEFAULT_ROUND_LIMIT, metadata={
        "doc": "house: the portal closes after this many rounds and nobody escapes (the engine's declared "
               "action bound allows at most the default)", "min": 1, "max": DEFAULT_ROUND_LIMIT})


# ---------------------------------------------------------------------------------------------
# Actions: one dataclass per `do:` kind

WHO = {"doc": "the player taking the decision"}


@dataclass(frozen=True)
class PickDrop:
    """Setup, step 4: take one weapon drop token from the supply."""

    do: Literal["pick_drop"]
    player: str = field(metadata=WHO)
    kind: DropKind = field(metadata={"doc": "the drop taken"})


@dataclass(frozen=True)
class Draw:
    """The movement draw: shuffle the D4 cards and draw one."""

    do: Literal["draw"]
    player: str = field(metadata=WHO)


@dataclass(frozen=True)
class DrawTile:
    """Draw the next road tile from the stack (it is laid with lay_tile)."""

    do: Literal["draw_tile"]
    player: str = field(metadata=WHO)


@dataclass(frozen=True)
class LayTile:
    """Lay the road tile just drawn, joining an open road end."""

    do: Literal["lay_tile"]
    player: str = field(metadata=WHO)
    at: tuple[int, ...] = field(metadata={"doc": "[x, y] of the empty space it goes on"})
    source: str | None = field(default=None, metadata={
        "key": "from", "doc": "the tile whose open end it joins, when more than one leads to that space"})
    arrow: Side | None = field(default=None, metadata={"doc": "a nitro-nos tile's arrows"})

    def check(self) -> tuple[str, str] | None:
        return ("at", "expected [x, y]") if len(self.at) != 2 else None


@dataclass(frozen=True)
class Drive:
    """Drive the car along connected tiles, one tile id per step."""

    do: Literal["drive"]
    player: str = field(metadata=WHO)
    path: tuple[str, ...] = field(metadata={"doc": "the tiles driven onto, in order; the last is where it stops"})


@dataclass(frozen=True)
class NitroDraw:
    """At the end of the road on a nitro-nos tile: draw a tile, lay it ahead and move onto it."""

    do: Literal["nitro_draw"]
    player: str = field(metadata=WHO)


@dataclass(frozen=True)
class HazardAttempt:
    """Draw to get past the hazard tile the car is stopped on."""

    do: Literal["hazard_attempt"]
    player: str = field(metadata=WHO)


@dataclass(frozen=True)
class BossBattle:
    """Begin the boss battle sequence: the boss's first strike."""

    do: Literal["boss_battle"]
    player: str = field(metadata=WHO)
    smoke: bool = field(default=False, metadata={"doc": "use a smoke bomb so the first strike misses"})


@dataclass(frozen=True)
class Attack:
    """The sequence's D4 action: against the boss, or one strike at a player on the dead final tile."""

    do: Literal["attack"]
    player: str = field(metadata=WHO)
    target: str | None = field(default=None, metadata={"doc": "on the dead final tile: the player struck"})


@dataclass(frozen=True)
class Strike:
    """A strike in a battle-it-out between three or more cars: at which car."""

    do: Literal["strike"]
    player: str = field(metadata=WHO)
    target: str = field(metadata={"doc": "the car struck"})


@dataclass(frozen=True)
class ChooseTarget:
    """A third or fourth arrival on the dead final tile targets a car; that car strikes first."""

    do: Literal["choose_target"]
    player: str = field(metadata=WHO)
    target: str = field(metadata={"doc": "the car targeted"})


@dataclass(frozen=True)
class UseDrop:
    """Use one weapon drop (Mista: two fire drops at once)."""

    do: Literal["use_drop"]
    player: str = field(metadata=WHO)
    kind: DropKind = field(metadata={"doc": "the drop used"})
    count: int = field(default=1, metadata={"doc": "2: Mista's two fire drops at once", "min": 1, "max": 2})
    tile: str | None = field(default=None, metadata={"doc": "where a landmine or fire drop goes"})
    tiles: tuple[str, ...] = field(default=(), metadata={"doc": "Mista's two fire drops: two tiles"})
    target: str | None = field(default=None, metadata={"doc": "gunfire's target, or a player hit on the final tile"})
    targets: tuple[str, ...] = field(default=(), metadata={
        "doc": "Mista's two fire drops on the dead final tile: the player each one hits"})


@dataclass(frozen=True)
class PlayPower:
    """Play a power card: it goes face up on the discard pile and does what its face says."""

    do: Literal["play_power"]
    player: str = field(metadata=WHO)
    card: str = field(metadata={"doc": "the card's face id"})
    target: str | None = field(default=None, metadata={
        "doc": "the car it hits (a card that hits a car, or strikes one on the final tile)"})
    tile: str | None = field(default=None, metadata={"doc": "the tile of the weapon drop it clears"})
    kind: Literal["landmine", "smoke", "fire"] | None = field(default=None, metadata={
        "doc": "the weapon drop it clears (on that tile)"})


@dataclass(frozen=True)
class TradePower:
    """Trade a power card in for the top of the deck or the face-up discard."""

    do: Literal["trade_power"]
    player: str = field(metadata=WHO)
    card: str = field(metadata={"doc": "the card traded in"})
    take: Literal["deck", "discard"] = field(default="deck", metadata={"doc": "where the new card comes from"})


@dataclass(frozen=True)
class DrawPower:
    """A reward's (or a card's) power card: from the deck or the face-up discard."""

    do: Literal["draw_power"]
    player: str = field(metadata=WHO)
    take: Literal["deck", "discard"] = field(default="deck", metadata={"doc": "where the card comes from"})


@dataclass(frozen=True)
class CollectDrop:
    """A reward (or a card's gift): one weapon drop from the used pile (or, for a card that says so, from the
    supply of tokens nobody picked at setup)."""

    do: Literal["collect_drop"]
    player: str = field(metadata=WHO)
    kind: DropKind = field(metadata={"doc": "the drop taken"})


@dataclass(frozen=True)
class DiscardDrop:
    """An event card takes one of the player's weapon drops: which one (it goes on the used pile)."""

    do: Literal["discard_drop"]
    player: str = field(metadata=WHO)
    kind: DropKind = field(metadata={"doc": "the drop given up"})


@dataclass(frozen=True)
class EndTurn:
    """End the turn; play passes counter-clockwise."""

    do: Literal["end_turn"]
    player: str = field(metadata=WHO)


ACTION_SPECS: dict[str, type] = {
    get_args(get_type_hints(spec)["do"])[0]: spec
    for spec in (PickDrop, Draw, DrawTile, LayTile, Drive, NitroDraw, HazardAttempt, BossBattle, Attack, Strike,
                 ChooseTarget, UseDrop, PlayPower, TradePower, DrawPower, CollectDrop, DiscardDrop, EndTurn)
}
Action = Any  # one of the dataclasses above

# ---------------------------------------------------------------------------------------------
# State


@dataclass(frozen=True)
class Tile:
    id: str
    kind: str  # start, straight, hazard, event, fire, nitro-nos, boss, final-boss
    face: str  # the road tile face (a boss tile's face id is its boss)
    x: int
    y: int
    exits: str  # sides in NESW order
    arrow: str | None = None  # nitro-nos: the direction of the rainbow arrows

    def __deepcopy__(self, memo: dict[int, Any]) -> Tile:
        return self

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

    def __deepcopy__(self, memo: dict[int, Any]) -> BoardDrop:
        return self


@dataclass
class Player:
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
class Turn:
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
class Battle:
    """A battle-it-out in progress between three or more cars: who strikes next, and how often."""

    tile: str
    fighters: list[str]
    queue: list[tuple[str, str, int]]  # (fighter, context, strikes left)
    then_event: bool


@dataclass
class State:
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
    cache: dict[str, Any] | None = field(default=None, compare=False, repr=False)
    # What follows from this layout of tiles alone (road distances from each origin asked for, the open road
    # ends, ...): (tiles laid, {key tuple: value}). Copies share it until a tile is laid (tiles are only ever
    # added, see _place).
    roads: tuple[int, dict[Any, Any]] | None = field(default=None, compare=False, repr=False)

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        return _copy(self)  # everything mutable is copied; tiles, drops on the road and the box are immutable


def _clone(obj: Any, **changes: Any) -> Any:
    """A shallow copy with some attributes replaced (much cheaper than dataclasses.replace)."""
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__, **changes)
    return new


def _copy(s: State) -> State:
    """A copy deep enough for `apply` to change freely (tiles, drops on the road and the box are immutable;
    the tiles and spots mappings are shared: laying a tile replaces them, see _place; the turn order and
    the rules never change once set up: shared too)."""
    t = s.turn
    _layout(s)  # made before copying, so that the copies share what they learn of the layout
    return _clone(
        s,
        players={n: _clone(p, drops=dict(p.drops), power=list(p.power)) for n, p in s.players.items()},
        turn=_clone(t, touched=list(t.touched), moved_over=list(t.moved_over), events_seen=list(t.events_seen)),
        boss_hp=dict(s.boss_hp), stack=list(s.stack), board=list(s.board), graveyard=dict(s.graveyard),
        power_deck=list(s.power_deck), power_discard=list(s.power_discard), event_deck=list(s.event_deck),
        event_discard=list(s.event_discard), rewards=list(s.rewards),
        battle=None if s.battle is None else _clone(s.battle, fighters=list(s.battle.fighters),
                                                    queue=list(s.battle.queue)),
        final_arrivals=list(s.final_arrivals), shielded=list(s.shielded), draft=list(s.draft),
        cache=None,
    )


# ---------------------------------------------------------------------------------------------
# Setup: from a scenario's typed setup, checked to be reachable


def _norm_exits(value: str, path: KeyPath) -> str:
    if len(set(value)) != len(value):
        raise SetupError(path, f"exits {value!r} names a side twice")
    exits = "".join(d for d in "NESW" if d in value)
    if _shape(exits) is None:
        raise SetupError(path, f"exits {value!r} is not straight (EW, NS), a 4-way intersection (NESW) or a dead end")
    return exits


def _shape(exits: str) -> str | None:
    if len(exits) == 1:
        return "dead-end"
    if exits == "NESW":
        return "4-way"
    if len(exits) == 2 and OPPOSITE[exits[0]] == exits[1]:
        return "straight"
    return None


def _setup_tile(box: Box, spec: TileSpec, path: KeyPath) -> Tile:
    """A setup road tile: a face of the box's road tiles with that kind and shape."""
    if spec.kind in box.tiles and box.tiles[spec.kind].kind in BOSS_KINDS:
        face = box.tiles[spec.kind]
        kind = face.kind
        default = "NESW" if face.shape == "4-way" else "W"
    elif spec.kind in SETUP_KINDS:
        kind, default, face = spec.kind, "EW", None
    else:
        bosses = ", ".join(box.bosses)
        raise SetupError((*path, "kind"), f"unknown tile kind {spec.kind!r}; expected one of: "
                         f"{', '.join(SETUP_KINDS)}, {bosses}")
    exits = _norm_exits(spec.exits or default, (*path, "exits"))
    shape = _shape(exits)
    if face is None:
        found = box.face_for(kind, shape or "")
        if found is None:
            shapes = ", ".join(sorted(t.shape for t in box.tiles.values() if t.kind == kind))
            raise SetupError((*path, "exits"), f"the box has no {shape} {kind} tile (its {kind} tiles: {shapes})")
        face = box.tiles[found]
    elif face.shape != shape:
        raise SetupError((*path, "exits"), f"the {face.title} tile is a {face.shape} tile, not {exits}")
    arrow = spec.arrow
    if kind == "nitro-nos":
        arrow = arrow or next(d for d in "ESNW" if d in exits)
        if arrow not in exits:
            raise SetupError((*path, "arrow"), f"the arrows must point along the road ({exits})")
    elif arrow is not None:
        raise SetupError((*path, "arrow"), "only nitro-nos tiles have arrows")
    return Tile(spec.id, kind, face.id, spec.at[0], spec.at[1], exits, arrow)


def _setup_road(box: Box, specs: Sequence[TileSpec]) -> dict[str, Tile]:
    tiles: dict[str, Tile] = {}
    spots: dict[tuple[int, int], str] = {}
    for i, spec in enumerate(specs):
        tile = _setup_tile(box, spec, ("road", i))
        if tile.id in tiles:
            raise SetupError(("road", i, "id"), f"tile id {tile.id!r} is used twice")
        if (tile.x, tile.y) in spots:
            raise SetupError(("road", i, "at"), f"tile {spots[(tile.x, tile.y)]!r} is already at {list(spec.at)}")
        tiles[tile.id] = tile
        spots[(tile.x, tile.y)] = tile.id
    starts = [t.id for t in tiles.values() if t.kind == "start"]
    if len(starts) != 1:
        raise SetupError(("road",), f"the road needs exactly one start tile, found {len(starts)}")
    reach = _reachable(tiles, spots, starts[0])
    for i, spec in enumerate(specs):
        if spec.id not in reach:
            raise SetupError(("road", i), f"tile {spec.id!r} is not joined to the road from the start tile "
                             "(every tile is laid joining an open road end)")
    return tiles


def _reachable(tiles: Mapping[str, Tile], spots: Mapping[tuple[int, int], str], start: str) -> set[str]:
    seen, frontier = {start}, [start]
    while frontier:
        tile = tiles[frontier.pop()]
        for d in tile.exits:
            other_id = spots.get((tile.x + DIRS[d][0], tile.y + DIRS[d][1]))
            if other_id and other_id not in seen and OPPOSITE[d] in tiles[other_id].exits:
                seen.add(other_id)
                frontier.append(other_id)
    return seen


def _setup_stack(box: Box, spec: SetupSpec, tiles: Mapping[str, Tile]) -> tuple[list[str], bool]:
    """The face-down stack (known order) or the pool of tiles not on the table (unknown order); the box's
    counts bound both, and the final boss tile is never in it: it is set aside to come last."""
    used: dict[str, int] = {}
    for i, t in enumerate(tiles.values()):
        used[t.face] = used.get(t.face, 0) + 1
        if used[t.face] > box.tiles[t.face].count:
            raise SetupError(("road", i), f"the box holds {box.tiles[t.face].count} {box.tiles[t.face].title} "
                             f"road tile(s); this road has more")
    on_road_final = any(t.kind == "final-boss" for t in tiles.values())
    if spec.tile_stack is None:
        pool = [f.id for f in box.tiles.values() if f.kind not in ("start", "final-boss")
                for _ in range(f.count - used.get(f.id, 0))]
        return ([] if on_road_final else pool), False
    for i, face in enumerate(spec.tile_stack):
        if face not in box.tiles or box.tiles[face].kind in ("start", "final-boss"):
            faces = ", ".join(f for f, t in box.tiles.items() if t.kind not in ("start", "final-boss"))
            hint = " (the final boss tile is set aside and comes last)" if face == box.final else ""
            raise SetupError(("tile_stack", i), f"no road tile {face!r} goes in the stack{hint}; expected one of: "
                             f"{faces}")
        used[face] = used.get(face, 0) + 1
        if used[face] > box.tiles[face].count:
            raise SetupError(("tile_stack", i), f"the box holds {box.tiles[face].count} {face} tile(s); road and "
                             "stack have more")
    if on_road_final and spec.tile_stack:
        raise SetupError(("tile_stack",), "the final boss tile is the last tile laid: with it on the road the "
                         "stack is empty")
    return list(spec.tile_stack), True


def _setup_players(box: Box, spec: SetupSpec, tiles: Mapping[str, Tile], subs_dead: bool) -> dict[str, Player]:
    if not 1 <= len(spec.players) <= MAX_PLAYERS:
        raise SetupError(("players",), f"the race is for 1 to {MAX_PLAYERS} players; this setup has "
                         f"{len(spec.players)}")
    start = next(t.id for t in tiles.values() if t.kind == "start")
    players: dict[str, Player] = {}
    spare = _spare_power(box, spec)
    for i, ps in enumerate(spec.players):
        path: KeyPath = ("players", i)
        if ps.character not in box.characters:
            raise SetupError((*path, "character"), f"unknown character {ps.character!r}; expected one of: "
                             f"{', '.join(box.characters)}")
        char = box.characters[ps.character]
        if ps.name in players:
            raise SetupError((*path, "name"), f"player {ps.name!r} is listed twice")
        if any(q.character == ps.character for q in players.values()):
            raise SetupError((*path, "character"), f"{char.title} is already taken")
        hp = char.hp if ps.hp is None else ps.hp
        if hp > char.hp:
            raise SetupError((*path, "hp"), f"{char.title} starts with {char.hp} HP and never gains any; got {hp}")
        at = ps.at or start
        if at not in tiles:
            raise SetupError((*path, "at"), f"no tile {at!r} on the road")
        tile = tiles[at]
        if tile.kind == "final-boss" and not subs_dead:
            raise SetupError((*path, "at"), "no car can be on the final boss tile while a sub-boss lives")
        side = ps.hazard_side
        if tile.kind == "hazard" and not skips_hazard(char.abilities):
            if side is None or side not in tile.exits:
                raise SetupError((*path, "hazard_side"), f"a car stopped on hazard {at} is on one of its sides: "
                                 f"{', '.join(tile.exits)}")
        elif side is not None:
            raise SetupError((*path, "hazard_side"), "only a car stopped on a hazard tile has a side "
                             "(GoodDay never stops)")
        drops = ps.drops.as_dict() if ps.drops is not None else {k: 1 for k in DROP_KINDS}
        power = list(ps.power) if ps.power is not None else [*box.power_each, *spare[:1]]
        spare = spare[1:] if ps.power is None else spare
        for j, card in enumerate(power):
            if card not in box.power:
                raise SetupError((*path, "power", j), f"no power card {card!r}; expected one of: "
                                 f"{', '.join(box.power)}")
        players[ps.name] = Player(ps.name, ps.character, char.abilities, hp, at, drops, power, side)
    return players


def _spare_power(box: Box, spec: SetupSpec) -> list[str]:
    """The other power cards (not dealt one to each) that no listed hand or pile holds, in the box's order:
    a player whose hand the setup does not list gets the next one."""
    listed = [c for ps in spec.players for c in ps.power or ()] + list(spec.power_discard) + list(spec.power_deck or ())
    spare = []
    for face in _other_power(box):
        spare += [face] * max(0, box.power[face] - listed.count(face))
    return spare


def _other_power(box: Box) -> list[str]:
    return [f for f in box.power if f not in box.power_each]


def _setup_counts(box: Box, spec: SetupSpec, players: Mapping[str, Player], board: Sequence[BoardDrop]) -> None:
    """More drops or cards than the box holds is a setup no game reaches: the error points at the
    entry that goes over the box's count."""
    for kind in DROP_KINDS:
        places: list[tuple[KeyPath, int]] = [(("players", i, "drops", kind), p.drops[kind])
                                             for i, p in enumerate(players.values())]
        places += [(("board", i), 1) for i, d in enumerate(board) if d.kind == kind]
        places.append((("graveyard", kind), getattr(spec.graveyard, kind)))
        _within(places, box.drops[kind], f"{kind} drop(s)")
    piles = [*((("players", i, "power", j), c) for i, p in enumerate(players.values()) for j, c in enumerate(p.power)),
             *((("power_deck", j), c) for j, c in enumerate(spec.power_deck or ())),
             *((("power_discard", j), c) for j, c in enumerate(spec.power_discard))]
    for path, card in piles:
        if card not in box.power:
            raise SetupError(path, f"no power card {card!r}; expected one of: {', '.join(box.power)}")
    for face, count in box.power.items():
        _within([(path, 1) for path, card in piles if card == face], count, f"{face} power card(s)")


def _within(places: Sequence[tuple[KeyPath, int]], limit: int, what: str) -> None:
    total = 0
    for path, n in places:
        total += n
        if total > limit:
            raise SetupError(path, f"the box holds {limit} {what}; this setup has at least {total}")


def _setup_power_deck(box: Box, spec: SetupSpec, players: Mapping[str, Player]) -> tuple[list[str], bool]:
    """The deck as listed (known order), or the cards nobody holds or discarded (an unknown order)."""
    if spec.power_deck is not None:
        return list(spec.power_deck), True
    out = []
    held = [c for p in players.values() for c in p.power] + list(spec.power_discard)
    for face in [*_other_power(box), *box.power_each]:
        out += [face] * (box.power[face] - held.count(face))
    return out, False


def _setup_events(box: Box, spec: SetupSpec) -> tuple[list[str], bool]:
    """The event deck as listed (known order), or every event card (an unknown order)."""
    if spec.event_deck is None:
        return [face for face, n in box.events.items() for _ in range(n)], False
    for i, card in enumerate(spec.event_deck):
        if card not in box.events:
            raise SetupError(("event_deck", i), f"no event card {card!r}; expected one of: {', '.join(box.events)}")
        if spec.event_deck[:i + 1].count(card) > box.events[card]:
            raise SetupError(("event_deck", i), f"the box holds {box.events[card]} {card} event card(s); the deck "
                             "has more")
    return list(spec.event_deck), True


def _setup_bosses(box: Box, spec: SetupSpec, tiles: Mapping[str, Tile]) -> dict[str, int]:
    boss_hp = dict(box.bosses)
    laid = {t.face for t in tiles.values()}
    for key, value in spec.boss_hp.items():
        if key not in boss_hp:
            raise SetupError(("boss_hp", key), f"no boss {key!r}; expected one of: {', '.join(boss_hp)}")
        if not 0 <= value <= box.bosses[key]:
            raise SetupError(("boss_hp", key), f"{key} has 0 to {box.bosses[key]} HP, got {value}")
        if value < box.bosses[key] and key not in laid:
            raise SetupError(("boss_hp", key), f"{key} has been fought, so its tile is on the road: add it to road")
        boss_hp[key] = value
    if boss_hp[box.final] < box.bosses[box.final] and any(boss_hp[b] for b in box.sub_bosses):
        raise SetupError(("boss_hp", box.final), "nobody can fight the final boss while a sub-boss lives")
    return boss_hp


def _setup_board(spec: SetupSpec, tiles: Mapping[str, Tile], players: Mapping[str, Player],
                 boss_hp: Mapping[str, int]) -> list[BoardDrop]:
    out: list[BoardDrop] = []
    for i, d in enumerate(spec.board):
        path: KeyPath = ("board", i)
        if d.tile not in tiles:
            raise SetupError((*path, "tile"), f"no tile {d.tile!r} on the road")
        if d.owner not in players:
            raise SetupError((*path, "owner"), f"no player {d.owner!r}")
        tile = tiles[d.tile]
        why = _spot_problem(tile, d.kind, boss_hp)
        if why:
            raise SetupError((*path, "tile"), why)
        if any(o.tile == d.tile and o.kind == d.kind for o in out):
            raise SetupError((*path, "tile"), f"there is already a {d.kind} on {d.tile}")
        for j, name in enumerate(d.on):
            if d.kind != "landmine" or name not in players or players[name].tile != d.tile or name == d.owner:
                raise SetupError((*path, "on", j), "on: names other cars on a landmine's tile")
        out.append(BoardDrop(d.kind, d.tile, d.owner, tuple(d.on)))
    return out


def _spot_problem(tile: Tile, kind: str, boss_hp: Mapping[str, int]) -> str | None:
    """Why a drop cannot lie on this tile."""
    if tile.kind in ("start", "hazard"):
        return f"weapon drops cannot be used on a {tile.kind} tile"
    if kind == "fire" and tile.kind == "fire":
        return "fire drops cannot be placed on fire road tiles"
    if tile.boss is not None and (boss_hp[tile.boss] > 0 or tile.kind == "final-boss"):
        return "on a boss tile weapon drops are used against the boss (or, once the final boss is dead, players)"
    return None


def initial_state(spec: SetupSpec, box: Box) -> State:
    """The state a scenario's typed setup describes; SetupError(path) if no game can reach it."""
    tiles = _setup_road(box, spec.road)
    stack, known = _setup_stack(box, spec, tiles)
    boss_hp = _setup_bosses(box, spec, tiles)
    subs_dead = all(boss_hp[b] == 0 for b in box.sub_bosses)
    players = _setup_players(box, spec, tiles, subs_dead)
    board = _setup_board(spec, tiles, players, boss_hp)
    _setup_counts(box, spec, players, board)
    order = list(players)
    turn = spec.turn or order[0]
    if turn not in players:
        raise SetupError(("turn",), f"no player {turn!r}; expected one of: {', '.join(order)}")
    on_final = [n for n in order if tiles[players[n].tile or ""].kind == "final-boss"]
    for i, name in enumerate(spec.final_arrivals):
        if name not in on_final or name in spec.final_arrivals[:i]:
            raise SetupError(("final_arrivals", i), f"{name!r} is not a car on the final boss tile (or is listed "
                             "twice)")
    if len(spec.final_arrivals) != len(on_final):
        raise SetupError(("final_arrivals",), f"list every car on the final boss tile in arrival order: "
                         f"{', '.join(on_final)}")
    power_deck, power_known = _setup_power_deck(box, spec, players)
    event_deck, events_known = _setup_events(box, spec)
    state = State(
        box=box, tiles=tiles, spots={(t.x, t.y): t.id for t in tiles.values()}, players=players, order=order,
        turn=Turn(turn, spec.phase, [players[turn].tile or ""]), boss_hp=boss_hp, stack=stack, stack_known=known,
        board=board, graveyard={k: v for k, v in spec.graveyard.as_dict().items() if v},
        power_deck=power_deck, power_discard=list(spec.power_discard), event_deck=event_deck, event_discard=[],
        rules={"car_bomb": spec.rules.car_bomb, "round_limit": spec.rules.round_limit},
        power_known=power_known, events_known=events_known, final_arrivals=list(spec.final_arrivals),
    )
    _set_phase_for_position(state, players[turn], spec.phase)
    return state


# ruling: first-player-and-weapon-picks
def new_game(options: Options, box: Box, chance: Chance) -> State:
    """Setup, steps 1 to 9: characters, power cards, the weapon drop draft, decks, the road stack."""
    n = options.players
    names = [f"P{i + 1}" for i in range(n)]
    if options.characters is not None:
        if len(options.characters) != n:
            raise SetupError(("characters",), f"{n} players need {n} characters, got {len(options.characters)}")
        for i, c in enumerate(options.characters):
            if c not in box.characters or c in options.characters[:i]:
                raise SetupError(("characters", i), f"unknown or repeated character {c!r}; expected: "
                                 f"{', '.join(box.characters)}")
        chars = list(options.characters)
    else:
        chars = list(chance.sample("characters", list(box.characters), n))
    first = chance.choice("first player", names)
    order = names[names.index(first):] + names[:names.index(first)]
    others = chance.shuffle("power cards", [f for f in _other_power(box) for _ in range(box.power[f])])
    hands = {name: [*box.power_each, others.pop(0)] for name in order}
    rest = others + [f for f in box.power_each for _ in range(box.power[f] - n)]
    players = {name: Player(name, c, box.characters[c].abilities, box.characters[c].hp, "s",
                            {k: 0 for k in DROP_KINDS}, hands[name]) for name, c in zip(names, chars, strict=True)}
    start = box.of_kind("start")[0]
    road = [f.id for f in box.tiles.values() if f.kind not in ("start", "final-boss") for _ in range(f.count)]
    state = State(
        box=box, tiles={"s": Tile("s", "start", start, 0, 0, "EW")}, spots={(0, 0): "s"}, players=players,
        order=order, turn=Turn(first, "draft", ["s"]), boss_hp=dict(box.bosses),
        stack=chance.shuffle("road tiles", road), stack_known=True, board=[], graveyard={},
        power_deck=chance.shuffle("power deck", rest), power_discard=[],
        event_deck=chance.shuffle("event deck", [f for f, k in box.events.items() for _ in range(k)]),
        event_discard=[],
        rules={"car_bomb": options.car_bomb, "round_limit": options.round_limit},
        draft=order * STARTING_DROPS,
    )
    return state


# ---------------------------------------------------------------------------------------------
# Board geometry


def _direction(a: Tile, b: Tile) -> str | None:
    return _DIRECTION_OF.get((b.x - a.x, b.y - a.y))


_DIRECTION_OF = {step: d for d, step in DIRS.items()}  # a step between neighbouring spaces -> its direction


def connected(a: Tile, b: Tile) -> bool:
    d = _direction(a, b)
    return d is not None and d in a.exits and OPPOSITE[d] in b.exits


def _neighbour(s: State, tile: Tile, d: str) -> Tile | None:
    tid = s.spots.get((tile.x + DIRS[d][0], tile.y + DIRS[d][1]))
    return s.tiles[tid] if tid is not None else None


def _neighbours(s: State, tile: Tile) -> list[Tile]:
    out = []
    for d in tile.exits:  # _neighbour inlined: this runs millions of times in simulations
        dx, dy = DIRS[d]
        tid = s.spots.get((tile.x + dx, tile.y + dy))
        if tid is not None and OPPOSITE[d] in (other := s.tiles[tid]).exits:
            out.append(other)
    return out


def _distances(s: State, origin: str) -> Mapping[str, int]:
    """Road distance in tiles from `origin` to every tile it connects to (read-only: shared by every
    state with this layout of tiles, since the simulator's look-ahead asks for the same ones again and
    again)."""
    known = _layout(s)
    key = ("from", origin)
    if key not in known:
        known[key] = _breadth_first(s, origin)
    return known[key]


def _grown_layout(s: State, old: dict[Any, Any] | None, tile: Tile) -> dict[Any, Any]:
    """What is known of the layout once `tile` is laid, from what was known before: a tile joined to at
    most one other adds itself one step beyond it to each distance known (no path gets shorter)."""
    joined = _neighbours(s, tile)
    if old is None or len(joined) > 1:
        return {}
    grown: dict[Any, Any] = {}
    for key, dist in old.items():
        if key[0] == "from":
            dist = dict(dist)
            if joined and joined[0].id in dist:
                dist[tile.id] = dist[joined[0].id] + 1
            grown[key] = dist
    return grown


def _layout(s: State) -> dict[Any, Any]:
    """The values kept for this layout of tiles (see State.roads)."""
    if s.roads is None or s.roads[0] != len(s.tiles):
        s.roads = (len(s.tiles), {})
    return s.roads[1]


def _breadth_first(s: State, origin: str) -> dict[str, int]:
    """Road distance in tiles from `origin` to every tile it connects to (breadth-first)."""
    seen = {origin: 0}
    frontier = [origin]
    while frontier:
        nxt = []
        for tid in frontier:
            for other in _neighbours(s, s.tiles[tid]):
                if other.id not in seen:
                    seen[other.id] = seen[tid] + 1
                    nxt.append(other.id)
        frontier = nxt
    return seen


def _boss_alive(s: State, tile: Tile) -> bool:
    return tile.boss is not None and s.boss_hp[tile.boss] > 0


def _subs_dead(s: State) -> bool:
    return all(s.boss_hp[b] == 0 for b in s.box.sub_bosses)


def _final_dead(s: State) -> bool:
    return s.boss_hp[s.box.final] == 0


def _final_tile(s: State) -> Tile | None:
    known = _layout(s)  # kept for the layout: evaluating a state asks for it every time
    if ("final",) not in known:
        known[("final",)] = next((t for t in s.tiles.values() if t.kind == "final-boss"), None)
    return known[("final",)]


def _tile_of(s: State, p: Player) -> Tile:
    assert p.tile is not None, f"{p.name} is not on the road"
    return s.tiles[p.tile]


# ruling: active-boss-battle-tiles
def _peaceful(s: State, tile: Tile) -> str | None:
    """Why no battle-it-out, drive-by or gunfire can happen on this tile (None if they can)."""
    if tile.kind == "start":
        return "start tile"
    if tile.kind == "hazard":
        return "hazard tile"
    if any(d.kind == "smoke" and d.tile == tile.id for d in s.board):
        return "smoke"
    return None


def _turn_order_from(s: State, name: str) -> list[str]:
    i = s.order.index(name)
    return s.order[i:] + s.order[:i]


def _others_on(s: State, tile_id: str | None, me: str) -> list[Player]:
    return [s.players[n] for n in _turn_order_from(s, me)
            if n != me and s.players[n].alive and s.players[n].tile == tile_id]


def _alive(s: State) -> list[Player]:
    return [p for p in s.players.values() if p.alive]


# ---------------------------------------------------------------------------------------------
# Damage, car bombs, bosses, rewards


def _hurt(s: State, target: Player, amount: int, source: str, by: str | None, events: list[Event]) -> None:
    """Apply `amount` base damage of kind `source`; protections apply here, once."""
    if not target.alive:
        return
    taken = min(target.hp, damage_taken(target.abilities, amount, source))
    if taken == 0:
        if amount > 0:
            events.append(Event("damage-prevented", {"target": target.name, "amount": amount, "source": source}))
        return
    target.hp -= taken
    target.damage += taken
    events.append(Event("damage", {"target": target.name, "amount": taken, "source": source, "by": by}))
    if target.hp == 0:
        _explode(s, target, events)


# ruling: car-bomb-two-statements
def _explode(s: State, dead: Player, events: list[Event]) -> None:
    """A car at 0 HP is out; its car bomb hurts the others (which ones: the reading in `rules`)."""
    dead.alive = False
    tile_id = dead.tile
    events.append(Event("eliminated", {"player": dead.name, "tile": tile_id}))
    dead.tile = None
    dead.hazard_side = None
    if dead.name in s.shielded:  # nothing left to hide: the smoke token is used up
        s.shielded.remove(dead.name)
        _graveyard_add(s, "smoke")
        events.append(Event("drop-expired", {"kind": "smoke", "tile": tile_id, "owner": dead.name}))
    if s.turn.player == dead.name:
        _turn_player_out(s, events)
    reading = s.rules["car_bomb"]
    events.append(Event("car-bomb", {"player": dead.name, "reading": reading}))
    if reading == "all-players":
        victims = _alive(s)
    else:
        victims = [p for p in _alive(s) if p.tile == tile_id]
        tile = s.tiles[tile_id] if tile_id else None
        if tile is not None and _boss_alive(s, tile):
            _hurt_boss(s, tile, CAR_BOMB, None, events, source="car-bomb")
    for victim in victims:
        _hurt(s, victim, CAR_BOMB, "car-bomb", dead.name, events)
    _check_end(s, events)


def _turn_player_out(s: State, events: list[Event]) -> None:
    """The car whose turn it is was destroyed: what it had open ends with it."""
    t = s.turn
    t.phase = "over"
    t.nitro_open, t.extra_move, t.choosing_target = False, None, False
    if s.event_active is not None:
        s.event_discard.append(s.event_active)
        events.append(Event("event-card-discarded", {"card": s.event_active, "owed": s.events_owed}))
        s.event_active, s.events_owed = None, 0


def _hurt_boss(s: State, tile: Tile, amount: int, by: str | None, events: list[Event], source: str) -> None:
    boss = tile.boss
    assert boss is not None
    before = s.boss_hp[boss]
    s.boss_hp[boss] = max(0, before - amount)
    events.append(Event("boss-damage", {"boss": boss, "amount": before - s.boss_hp[boss], "by": by, "source": source}))
    if before > 0 and s.boss_hp[boss] == 0:
        events.append(Event("boss-defeated", {"boss": boss, "by": by}))
        present = [p.name for p in _alive(s) if p.tile == tile.id]
        killer = by if by is not None and s.players[by].alive else None
        first = killer or s.turn.player
        ordered = [n for n in _turn_order_from(s, first) if n in present]
        _owe(s, killer, ordered, events)
        _check_end(s, events)


def _owe(s: State, killer: str | None, present: Sequence[str], events: list[Event]) -> None:
    """The killer is owed a power card and a used drop; every other car present, a used drop."""
    owed = ([("power", killer)] if killer is not None else []) + [("drop", name) for name in present]
    s.rewards += owed
    for what, name in owed:
        events.append(Event("reward-owed", {"player": name, "reward": what}))


# ruling: kills-on-the-final-tile
def _player_killed(s: State, killer: Player, tile: Tile, events: list[Event]) -> None:
    """Defeating a player on the final tile pays like a boss victory (to the killer only)."""
    if tile.kind == "final-boss" and killer.alive:
        _owe(s, killer.name, [killer.name], events)


def _graveyard_add(s: State, kind: str, n: int = 1) -> None:
    s.graveyard[kind] = s.graveyard.get(kind, 0) + n


# ruling: power-card-discard-pile
def _draw_power(s: State, p: Player, take: str, chance: Chance, events: list[Event]) -> None:
    """Take the face-up discard, or the top of the deck (the discard reshuffled into a new deck when the
    deck is used up)."""
    if take == "discard":
        card = s.power_discard.pop()
    else:
        if not s.power_deck:
            s.power_deck = chance.shuffle("power deck", s.power_discard)
            s.power_discard, s.power_known = [], True
            events.append(Event("power-deck-reshuffled", {"cards": len(s.power_deck)}))
        card = _top(s.power_deck, s.power_known, "power card", chance)
    p.power.append(card)
    events.append(Event("power-card-drawn", {"player": p.name, "card": card, "from": take}))


def _top(deck: list[str], known: bool, label: str, chance: Chance) -> str:
    """The top card of a deck in a known order; from a deck in an unknown order (a scenario that does not
    list it), the card is a labelled chance result among the faces left."""
    card = deck[0] if known else chance.choice(label, sorted(set(deck)))
    deck.remove(card)
    return card


def _check_end(s: State, events: list[Event]) -> None:
    alive = _alive(s)
    if s.ended is not None:
        return
    if not alive:
        s.ended = "all-eliminated"
        events.append(Event("race-over", {"result": "nobody", "reason": "every car was destroyed"}))
    elif _final_dead(s) and len(alive) == 1:
        s.winner, s.ended = alive[0].name, "escaped"
        events.append(Event("winner", {"player": alive[0].name}))


# ---------------------------------------------------------------------------------------------
# Paths


def _roll(chance: Chance, what: str, events: list[Event], who: str) -> int:
    value = chance.choice(what, D4)
    events.append(Event("roll", {"what": what, "player": who, "value": value}))
    return value


# ruling: nitro-nos-direction
def _step_cost(prev: Tile, tile: Tile, nxt: Tile | None) -> int:
    """A nitro-nos tile entered along its arrows is a free space unless you turn off it."""
    if tile.kind != "nitro-nos" or _direction(prev, tile) != tile.arrow:
        return 1
    if nxt is not None and _direction(tile, nxt) != tile.arrow:
        return 1
    return 0


def _path_cost(s: State, p: Player, here: Tile, path: Sequence[str]) -> tuple[int, int]:
    """(spaces used, extra spaces earned): Reegad moves one more for each nitro-nos entered along its arrows."""
    cost = bonus = 0
    prev = here
    bonus_each = 1 if "nitro-bonus" in p.abilities else 0
    for i, tid in enumerate(path):
        tile = s.tiles[tid]
        nxt = s.tiles[path[i + 1]] if i + 1 < len(path) else None
        cost += _step_cost(prev, tile, nxt)
        if tile.kind == "nitro-nos" and _direction(prev, tile) == tile.arrow:
            bonus += bonus_each
        prev = tile
    return cost, bonus


def _cannot_leave(s: State, p: Player, here: Tile) -> str | None:
    if here.kind == "final-boss":
        return "once on the final boss tile you cannot move off it"
    if _boss_alive(s, here):
        return f"{p.name} cannot leave {here.id} until its boss is defeated"
    return None


# ruling: active-boss-battle-tiles
def _stops(s: State, p: Player, tile: Tile) -> bool:
    """Tiles that end a move: hazards (except for GoodDay), live bosses, the final boss tile."""
    return (tile.kind == "hazard" and not skips_hazard(p.abilities)) or _boss_alive(s, tile) \
        or tile.kind == "final-boss"


@dataclass
class _PathRules:
    """What every step of one car's drive is checked against."""

    here: Tile
    final_dist: dict[str, int] | None  # once the final boss is dead: distances to the final tile


def _path_rules(s: State, p: Player) -> _PathRules:
    final = _final_tile(s)
    dist = _distances(s, final.id) if final is not None and _final_dead(s) else None
    return _PathRules(_tile_of(s, p), dist)


# ruling: direct-path-after-final-boss
def _step_problem(s: State, p: Player, r: _PathRules, prev: Tile, tile: Tile, seen: set[str], last: bool) -> str | None:
    if not connected(prev, tile):
        return f"{tile.id} is not connected to {prev.id}"
    if prev is r.here and p.hazard_side is not None and _direction(prev, tile) != p.hazard_side:
        return (f"{p.name} is stopped at the {p.hazard_side} side of hazard {prev.id}: get past it with "
                "hazard_attempt, or retreat out of that side")
    if tile.id in seen:
        return f"the path visits {tile.id} twice"
    if r.final_dist is not None and r.final_dist.get(tile.id, 1 << 20) >= r.final_dist.get(prev.id, 1 << 20):
        return f"the final boss is dead: {p.name} must take the most direct path to the final tile"
    if tile.kind == "final-boss" and not _subs_dead(s):
        return f"nobody may land on the final boss tile until all {len(s.box.sub_bosses)} sub-bosses are defeated"
    if not last and _stops(s, p, tile):
        return f"{tile.id} ends the move (a hazard, or a boss battle): the path must end there"
    return None


# ruling: movement-up-to-vs-at-least-one
def _path_problem(s: State, p: Player, path: Sequence[str], allowance: int) -> str | None:
    """Why `path` is not a legal drive for `p` with `allowance` spaces (None if it is)."""
    if not path:
        return "you must move at least 1 space (Q&A 3)"
    r = _path_rules(s, p)
    if why := _cannot_leave(s, p, r.here):
        return why
    seen = {r.here.id}
    prev = r.here
    for i, tid in enumerate(path):
        tile = s.tiles.get(tid)
        if tile is None:
            return f"no tile {tid!r} on the road"
        if why := _step_problem(s, p, r, prev, tile, seen, i == len(path) - 1):
            return why
        seen.add(tid)
        prev = tile
    cost, bonus = _path_cost(s, p, r.here, path)
    if cost > allowance + bonus:
        return f"the path costs {cost} spaces; {p.name} may move {allowance + bonus}"
    return None


def legal_paths(s: State, p: Player, allowance: int) -> list[tuple[str, ...]]:
    """Every drive `_path_problem` accepts, in a fixed order (depth first, exits in N, E, S, W order)."""
    r = _path_rules(s, p)
    if _cannot_leave(s, p, r.here):
        return []
    nitros = {t.id for t in s.tiles.values() if t.kind == "nitro-nos"} if "nitro-bonus" in p.abilities else set()
    out: list[tuple[str, ...]] = []

    def grow(path: tuple[str, ...], prev: Tile, seen: set[str]) -> None:
        for tile in _neighbours(s, prev):
            if _step_problem(s, p, r, prev, tile, seen, True):
                continue
            candidate = (*path, tile.id)
            cost, bonus = _path_cost(s, p, r.here, candidate)  # a lower bound for any longer path
            if cost > allowance + bonus + len(nitros - seen - {tile.id}):
                continue
            if cost <= allowance + bonus:
                out.append(candidate)
            if not _stops(s, p, tile):
                grow(candidate, tile, seen | {tile.id})

    grow((), r.here, {r.here.id})
    return out


# ---------------------------------------------------------------------------------------------
# Laying road tiles


def _tiles_left(s: State) -> int:
    final_pending = 0 if _final_tile(s) is not None else 1
    return len(s.stack) + final_pending


def _next_tile(s: State, chance: Chance) -> str:
    """The next road tile: the top of a listed stack, or one of an unordered pool; the final boss tile,
    set aside at setup, comes when the stack is used up."""
    if s.stack:
        if s.stack_known:
            return s.stack.pop(0)
        face = chance.choice("road tile", s.stack)
        s.stack.remove(face)
        return face
    return s.box.final


def _open_spots(s: State) -> dict[tuple[int, int], list[Tile]]:
    """Empty spaces an open road end leads to, with the tiles whose ends lead there (sorted by id; kept for
    the layout: read-only)."""
    known = _layout(s)
    if ("open-spots",) not in known:
        known[("open-spots",)] = _find_open_spots(s)
    return known[("open-spots",)]


def _find_open_spots(s: State) -> dict[tuple[int, int], list[Tile]]:
    out: dict[tuple[int, int], list[Tile]] = {}
    for tile in s.tiles.values():
        for d in tile.exits:
            spot = (tile.x + DIRS[d][0], tile.y + DIRS[d][1])
            if spot not in s.spots:
                out.setdefault(spot, []).append(tile)
    return {spot: sorted(sources, key=lambda t: t.id) for spot, sources in sorted(out.items())}


def _laid_exits(shape: str, toward: str) -> str:
    """A laid tile's exits: it joins the road on the `toward` side."""
    if shape == "4-way":
        return "NESW"
    if shape == "dead-end":
        return toward
    return "".join(d for d in "NESW" if d in (toward, OPPOSITE[toward]))


def _lay_options(s: State, p: Player, face: str) -> list[LayTile]:
    kind, shape = s.box.tiles[face].kind, s.box.tiles[face].shape
    out = []
    for (x, y), sources in _open_spots(s).items():
        for src in sources:
            toward = _toward(x, y, src)
            arrows = [d for d in "NESW" if d in _laid_exits(shape, toward)] if kind == "nitro-nos" else [None]
            named = src.id if len(sources) > 1 else None
            out += [LayTile("lay_tile", p.name, (x, y), named, a) for a in arrows]
    return out


def _toward(x: int, y: int, src: Tile) -> str:
    """The side of the space (x, y) that faces `src`."""
    return next(d for d, (dx, dy) in DIRS.items() if (x + dx, y + dy) == (src.x, src.y))


def _place(s: State, face: str, x: int, y: int, src: Tile, arrow: str | None, events: list[Event]) -> Tile:
    kind = s.box.tiles[face].kind
    exits = _laid_exits(s.box.tiles[face].shape, _toward(x, y, src))
    if kind == "nitro-nos":
        arrow = arrow or OPPOSITE[_toward(x, y, src)]
    s.laid_count += 1
    n = s.laid_count
    while f"n{n}" in s.tiles:
        n += 1
    tile = Tile(f"n{n}", kind, face, x, y, exits, arrow)
    old = s.roads[1] if s.roads is not None and s.roads[0] == len(s.tiles) else None
    s.tiles = {**s.tiles, tile.id: tile}  # new mappings: copies of the state before share the old ones
    s.spots = {**s.spots, (x, y): tile.id}
    s.roads = (len(s.tiles), _grown_layout(s, old, tile))  # a new layout, its own (the old one's is shared)
    events.append(Event("tile-laid", {"tile": tile.id, "kind": tile.label, "face": face, "at": [x, y]}))
    return tile


# ---------------------------------------------------------------------------------------------
# Driving and landing


def _touch(s: State, tid: str) -> None:
    if tid not in s.turn.touched:
        s.turn.touched.append(tid)
    if tid not in s.turn.moved_over:
        s.turn.moved_over.append(tid)


def _drive(s: State, p: Player, path: Sequence[str], chance: Chance, events: list[Event]) -> None:
    """Drive a checked path: the effects of each tile passed over, then of the landing tile."""
    for i, tid in enumerate(path):
        prev = _tile_of(s, p)
        tile = s.tiles[tid]
        last = i == len(path) - 1
        p.tile = tid
        p.hazard_side = None
        _touch(s, tid)
        _enter(s, p, tile, last, chance, events)
        if not p.alive:
            return
        if not last:
            _drive_bys(s, p, tile, chance, events)
            if not p.alive:
                return
        else:
            events.append(Event("moved", {"player": p.name, "path": list(path)}))
            _land(s, p, prev, tile, chance, events)


def _enter(s: State, p: Player, tile: Tile, landing: bool, chance: Chance, events: list[Event]) -> None:
    """Fire and landmines hurt whoever drives through or onto them."""
    if tile.kind == "fire":
        _hurt(s, p, FIRE_DAMAGE, "fire-tile", None, events)
    for drop in [d for d in s.board if d.tile == tile.id]:
        if not p.alive:
            return
        if drop.kind == "fire":
            _hurt(s, p, FIRE_DAMAGE, "fire-drop", drop.owner, events)
        elif drop.kind == "landmine":
            s.board.remove(drop)
            _graveyard_add(s, "landmine")
            events.append(Event("landmine-detonated", {"tile": tile.id, "player": p.name}))
            if landing:
                _hurt(s, p, LANDMINE_LANDING, "landmine", drop.owner, events)
            else:
                _hurt(s, p, landmine_hit(_roll(chance, "landmine", events, p.name)), "landmine", drop.owner, events)


# ruling: drive-by-each-car
def _drive_bys(s: State, p: Player, tile: Tile, chance: Chance, events: list[Event]) -> None:
    targets = _others_on(s, tile.id, p.name)
    if not targets:
        return
    why = _peaceful(s, tile)
    if why:
        events.append(Event("drive-by-prevented", {"by": p.name, "tile": tile.id, "reason": why}))
        return
    for target in targets:
        _drive_by(s, p, target, chance, events)
        if not p.alive:
            return


def _drive_by(s: State, p: Player, target: Player, chance: Chance, events: list[Event]) -> None:
    events.append(Event("drive-by", {"by": p.name, "target": target.name}))
    if immune(target.abilities, "drive-by"):  # nothing to roll for
        events.append(Event("damage-prevented", {"target": target.name, "amount": None, "source": "drive-by"}))
        return
    _strikes(s, p, target, "drive-by", "drive-by", strikes(p.abilities), chance, events)
    if target.alive and counters_drive_by(target.abilities):
        events.append(Event("counter-attack", {"by": target.name, "target": p.name}))
        _strikes(s, target, p, "counter", "drive-by", strikes(target.abilities), chance, events)


def _strikes(s: State, attacker: Player, target: Player, context: str, source: str, n: int, chance: Chance,
             events: list[Event]) -> None:
    """`n` D4 strikes at one target."""
    for _ in range(n):
        if not target.alive or not attacker.alive:
            return
        roll = _roll(chance, f"{context} {attacker.name}->{target.name}", events, attacker.name)
        events.append(Event("strike", {"by": attacker.name, "target": target.name, "roll": roll, "context": context}))
        _hurt(s, target, strike_hit(attacker.abilities, roll, context), source, attacker.name, events)


# ruling: landing-order
def _land(s: State, p: Player, prev: Tile, tile: Tile, chance: Chance, events: list[Event]) -> None:
    """What the landing tile does: hazard stop, boss battle, final tile, battle-it-out, event card."""
    if tile.kind == "hazard":
        if skips_hazard(p.abilities):
            events.append(Event("hazard", {"player": p.name, "result": "skipped"}))
        else:
            p.hazard_side = _direction(tile, prev)
            events.append(Event("hazard", {"player": p.name, "result": "stopped"}))
        return
    if tile.kind == "final-boss":
        _arrive_final(s, p, tile, events)
        return
    if _boss_alive(s, tile):
        s.turn.phase = "boss-pending"
        events.append(Event("boss-battle", {"player": p.name, "boss": tile.boss}))
        return
    _battle_it_out(s, p, tile, chance, events)


# ruling: final-boss-example-first-strike
def _arrive_final(s: State, p: Player, tile: Tile, events: list[Event]) -> None:
    """Arrivals on the final tile are counted; once the boss is dead, first strikes follow."""
    s.final_arrivals.append(p.name)
    number = len(s.final_arrivals)
    events.append(Event("final-arrival", {"player": p.name, "number": number}))
    if _boss_alive(s, tile):
        s.turn.phase = "boss-pending"
        events.append(Event("boss-battle", {"player": p.name, "boss": tile.boss}))
        return
    s.turn.phase = "boss"
    s.turn.strikes_left = strikes(p.abilities)
    if number == 2:
        first = s.players[s.final_arrivals[0]]
        if first.alive and first.tile == tile.id:
            _first_strike(s, first, p, events)
    elif number > 2:
        candidates = _targets(s, p)
        if len(candidates) == 1:
            events.append(Event("targeted", {"by": p.name, "target": candidates[0].name}))
            _first_strike(s, candidates[0], p, events)
        elif candidates:
            s.turn.choosing_target = True
        else:
            events.append(Event("no-target", {"player": p.name, "reason": "smoke covers every car here"}))


# ruling: final-tile-first-strike-once
def _first_strike(s: State, striker: Player, target: Player, events: list[Event]) -> None:
    """A player's first strike on the dead final tile: -3 like a boss's (players are the bosses now)."""
    reason = first_strike_cancelled(target.abilities, False)
    if reason:
        events.append(Event("first-strike-cancelled", {"player": target.name, "reason": reason}))
        return
    events.append(Event("first-strike", {"by": striker.name, "target": target.name}))
    tile = _tile_of(s, target)
    _hurt(s, target, dealt(striker.abilities, FIRST_STRIKE, "boss"), "first-strike", striker.name, events)
    if not target.alive:
        _player_killed(s, striker, tile, events)


def _targets(s: State, p: Player) -> list[Player]:
    """Cars `p` may target on the dead final tile (smoke keeps a car from being targeted)."""
    return [q for q in _others_on(s, p.tile, p.name) if q.name not in s.shielded]


def _battle_it_out(s: State, p: Player, tile: Tile, chance: Chance, events: list[Event]) -> None:
    others = _others_on(s, tile.id, p.name)
    then_event = tile.kind == "event"
    if others:
        why = _peaceful(s, tile)
        if why:
            events.append(Event("battle-it-out-prevented", {"tile": tile.id, "reason": why}))
        else:
            fighters = [p, *others]
            events.append(Event("battle-it-out", {"players": [f.name for f in fighters]}))
            queue = [(f.name, "battle-it-out" if f is p else "counter", strikes(f.abilities)) for f in fighters]
            s.battle = Battle(tile.id, [f.name for f in fighters], queue, then_event)
            _run_battle(s, chance, events)
            return
    if then_event:
        _event_card(s, p, chance, events)


def _battle_candidates(s: State, b: Battle, f: Player) -> list[Player]:
    return [s.players[n] for n in b.fighters if n != f.name and s.players[n].alive and s.players[n].tile == b.tile]


# ruling: battle-it-out-order
def _run_battle(s: State, chance: Chance, events: list[Event]) -> None:
    """Strike after strike; stop where a striker has a target to choose (a decision of theirs)."""
    b = s.battle
    assert b is not None
    while b.queue:
        name, _, left = b.queue[0]
        f = s.players[name]
        candidates = _battle_candidates(s, b, f)
        if not f.alive or f.tile != b.tile or left == 0 or not candidates:
            b.queue.pop(0)
            continue
        if len(candidates) > 1:
            return
        _battle_strike(s, f, candidates[0], chance, events)
    s.battle = None
    mover = s.players[s.turn.player]
    if b.then_event and mover.alive and mover.tile == b.tile:
        _event_card(s, mover, chance, events)


def _battle_strike(s: State, f: Player, target: Player, chance: Chance, events: list[Event]) -> None:
    b = s.battle
    assert b is not None
    name, context, left = b.queue[0]
    b.queue[0] = (name, context, left - 1)
    _strikes(s, f, target, context, "battle-it-out", 1, chance, events)


def _event_card(s: State, p: Player, chance: Chance, events: list[Event]) -> None:
    """The 82 tile's event card; a second one waits until the one in play is resolved (Q&A 6)."""
    if s.event_active is not None:
        s.events_owed += 1
        events.append(Event("event-card-owed", {"player": p.name}))
        return
    _take_event(s, p, chance, events)


# ruling: event-card-resolved-in-full
def _take_event(s: State, p: Player, chance: Chance, events: list[Event]) -> None:
    """Draw the next event card and carry it out: what happens at once, then the movement it orders (the card
    stays in play until that movement is done). Cards drawn this turn do not come back in it."""
    if not s.event_deck:
        back = list(s.event_discard)
        for card in s.turn.events_seen:
            if card in back:
                back.remove(card)
        if back:
            for card in back:
                s.event_discard.remove(card)
            s.event_deck, s.events_known = chance.shuffle("event deck", back), True
    if not s.event_deck:
        events.append(Event("event-deck-empty", {"player": p.name}))
        return
    card = _top(s.event_deck, s.events_known, "event card", chance)
    s.event_active = card
    s.events_drawn += 1
    s.turn.events_seen.append(card)
    events.append(Event("event-card-drawn", {"player": p.name, "card": card}))
    effect = s.box.effects[card]
    _effect_now(s, p, effect, chance, events)
    if s.event_active != card:  # the car was destroyed: the card went with it
        return
    if effect.move or effect.roll:
        _open_move(s, p, effect, "event", chance, events)
    else:
        _resolve_event(s, p, chance, events)


def _resolve_event(s: State, p: Player, chance: Chance, events: list[Event]) -> None:
    """The card in play is done: to the discard pile; an event card owed meanwhile is drawn now (Q&A 6)."""
    card = s.event_active
    assert card is not None
    s.event_discard.append(card)
    s.event_active = None
    if s.turn.extra_move == "event":
        s.turn.extra_move = None
    events.append(Event("event-card-resolved", {"player": p.name, "card": card}))
    if s.events_owed and p.alive:
        s.events_owed -= 1
        _take_event(s, p, chance, events)


# ---------------------------------------------------------------------------------------------
# Card effects (power and event cards: house designs, read from the cards' facts)


def _effect_now(s: State, p: Player, e: Effect, chance: Chance, events: list[Event], target: str | None = None,
                tile: str | None = None, kind: str | None = None) -> None:
    """The parts of a card that happen at once, in the order `Effect` lists them; choices it leaves the player
    (cards and drops to take or give up) are queued like boss rewards. Its movement is opened by the caller."""
    here = _tile_of(s, p)
    if e.lose:
        _hurt(s, p, e.lose, "event", None, events)
    if e.everyone:
        for q in [s.players[n] for n in _turn_order_from(s, p.name)]:
            if q.alive and q.tile is not None and s.tiles[q.tile].kind != "start":
                _hurt(s, q, e.everyone, "event", None, events)
    if e.near and p.alive:
        dist = _distances(s, here.id)
        for q in _near_cars(s, p, dist):
            _hurt(s, q, e.near, "event", p.name, events)
    if not p.alive:
        return
    if e.hit and target is not None:
        _card_hit(s, p, s.players[target], e.hit, here, events)
    if e.boss and _boss_alive(s, here):
        _hurt_boss(s, here, dealt(p.abilities, e.boss, "boss"), p.name, events, source="power-card")
    for _ in range(e.strike):
        _card_strike(s, p, here, target, chance, events)
    if e.heal and p.alive:
        _heal(s, p, e.heal, events)
    if e.clear_drop and tile is not None:
        drop = next(d for d in s.board if d.tile == tile and d.kind == kind)
        s.board.remove(drop)
        _graveyard_add(s, drop.kind)
        events.append(Event("drop-cleared", {"player": p.name, "kind": drop.kind, "tile": tile}))
    if e.hazard_pass:
        events.append(Event("hazard", {"player": p.name, "result": "pass"}))
        _pass_hazard(s, p, here, chance, events)
    if not p.alive:
        return
    queued = [("power", p.name)] * e.power + [("discard", p.name)] * e.lose_drop
    if e.take_drop:
        queued.append(("drop" if e.take_drop == "used" else "supply", p.name))
    s.rewards += queued


def _near_cars(s: State, p: Player, dist: Mapping[str, int]) -> list[Player]:
    """Other cars within NEAR road tiles of `p` (its own tile included), except on the start tile."""
    return [q for q in (s.players[n] for n in _turn_order_from(s, p.name)[1:])
            if q.alive and q.tile is not None and dist.get(q.tile, NEAR + 1) <= NEAR
            and s.tiles[q.tile].kind != "start"]


def _heal(s: State, p: Player, amount: int, events: list[Event]) -> None:
    top = s.box.characters[p.character].hp
    gained = min(amount, top - p.hp)
    p.hp += gained
    events.append(Event("healed", {"player": p.name, "amount": gained}))


def _card_hit(s: State, p: Player, q: Player, amount: int, here: Tile, events: list[Event]) -> None:
    """A power card's hit on a car: on the dead final tile players are the bosses (boss-battle damage)."""
    if here.kind == "final-boss":
        _hurt(s, q, dealt(p.abilities, amount, "boss"), "power-card", p.name, events)
        if not q.alive:
            _player_killed(s, p, here, events)
    else:
        _hurt(s, q, amount, "power-card", p.name, events)


def _card_strike(s: State, p: Player, here: Tile, target: str | None, chance: Chance, events: list[Event]) -> None:
    """One more D4 strike on the battle table: at the live boss, or at a car on the dead final tile."""
    if not p.alive:
        return
    if target is None:
        if _boss_alive(s, here):
            _strike_boss(s, p, here, chance, events)
        return
    q = s.players[target]
    if q.alive:
        _strike_car(s, p, q, here, chance, events)


def _strike_boss(s: State, p: Player, tile: Tile, chance: Chance, events: list[Event]) -> None:
    """One D4 strike on the battle table at the tile's boss."""
    roll = _roll(chance, f"boss battle {p.name}->{tile.boss}", events, p.name)
    events.append(Event("strike", {"by": p.name, "target": tile.boss, "roll": roll, "context": "boss"}))
    _hurt_boss(s, tile, strike_hit(p.abilities, roll, "boss"), p.name, events, source="strike")


def _strike_car(s: State, p: Player, q: Player, tile: Tile, chance: Chance, events: list[Event]) -> None:
    """One D4 strike on the battle table at a car on the dead final tile (the cars are the bosses there)."""
    roll = _roll(chance, f"final tile {p.name}->{q.name}", events, p.name)
    events.append(Event("strike", {"by": p.name, "target": q.name, "roll": roll, "context": "boss"}))
    _hurt(s, q, strike_hit(p.abilities, roll, "boss"), "strike", p.name, events)
    if not q.alive:
        _player_killed(s, p, tile, events)


def _open_move(s: State, p: Player, e: Effect, source: str, chance: Chance, events: list[Event]) -> None:
    """A card's movement: a number of spaces, or a new movement draw that lays road tiles as well."""
    t = s.turn
    if e.roll:
        roll = _roll(chance, "movement (event card)", events, p.name)
        t.allowance = t.lay_allowance = roll + extra_space(p.abilities)
    else:
        t.allowance, t.lay_allowance = e.move + extra_space(p.abilities), 0
    t.laid, t.extra_move = 0, source
    events.append(Event("card-move", {"player": p.name, "allowance": t.allowance, "lay": t.lay_allowance}))


# ---------------------------------------------------------------------------------------------
# Turns


# ruling: boss-sequence-each-turn
def _set_phase_for_position(s: State, p: Player, phase: str) -> None:
    tile = s.tiles[p.tile] if p.tile else None
    if tile is not None and _boss_alive(s, tile):
        s.turn.phase = "boss-pending"
    elif tile is not None and tile.kind == "final-boss":
        s.turn.phase = "boss"
        s.turn.strikes_left = strikes(p.abilities)
    else:
        s.turn.phase = phase


def _next_seat(s: State, name: str) -> tuple[str, list[str]]:
    """The next car still in the race, and the seats of destroyed cars passed on the way."""
    ring = [*_turn_order_from(s, name)[1:], name]
    passed = []
    for n in ring:
        if s.players[n].alive:
            return n, passed
        passed.append(n)
    return name, passed


# ruling: endless-roaming
def _end_turn(s: State, p: Player, chance: Chance, events: list[Event]) -> None:
    p.last_moved = tuple(s.turn.moved_over)
    nxt, passed = _next_seat(s, p.name)
    if s.order.index(nxt) <= s.order.index(p.name):
        s.round += 1
        limit = s.rules.get("round_limit")
        if limit is not None and s.round > limit:
            s.ended = "portal-closed"
            events.append(Event("race-over", {"result": "nobody", "reason": f"the portal closed after {limit} rounds"}))
            return
    _begin_turn(s, s.players[nxt], passed, chance, events)


# ruling: timed-drops-of-destroyed-cars
def _begin_turn(s: State, p: Player, passed: Sequence[str], chance: Chance, events: list[Event]) -> None:
    """Your smoke and fire clear (and those of destroyed cars whose seat was passed); a landmine dropped
    on you goes off."""
    s.turn = Turn(p.name, "start", [p.tile] if p.tile else [])
    events.append(Event("turn", {"player": p.name, "round": s.round}))
    owners = {p.name, *passed}
    for drop in [d for d in s.board if d.owner in owners and d.kind in ("smoke", "fire")]:
        s.board.remove(drop)
        _graveyard_add(s, drop.kind)
        events.append(Event("drop-expired", {"kind": drop.kind, "tile": drop.tile, "owner": drop.owner}))
    if p.name in s.shielded:
        s.shielded.remove(p.name)
        _graveyard_add(s, "smoke")
        events.append(Event("drop-expired", {"kind": "smoke", "tile": p.tile, "owner": p.name}))
    for drop in [d for d in s.board if d.kind == "landmine" and p.name in d.on and d.tile == p.tile]:
        s.board.remove(drop)
        _graveyard_add(s, "landmine")
        events.append(Event("landmine-detonated", {"tile": drop.tile, "player": p.name}))
        _hurt(s, p, landmine_hit(_roll(chance, "landmine", events, p.name)), "landmine", drop.owner, events)
        if not p.alive:
            return
    _set_phase_for_position(s, p, "start")


def _settle(s: State, chance: Chance, events: list[Event]) -> None:
    """After every action: rewards and card gifts nobody can take lapse (they never block the game), a power
    card with only one pile to come from is drawn at once, a card's movement with nowhere to go ends its card,
    and the race ends when it is over."""
    if s.turn.phase == "draft" and (not s.draft or not any(_supply(s).values())):
        s.draft = []  # every car holds its drops, or the supply ran out: the first turn begins
        _begin_turn(s, s.players[s.turn.player], (), chance, events)
    while True:
        _settle_rewards(s, chance, events)
        if s.rewards or s.ended is not None or not _move_blocked(s):
            break
        p = s.players[s.turn.player]
        events.append(Event("card-move-blocked", {"player": p.name, "card": s.event_active}))
        s.turn.extra_move = None
        if s.event_active is not None:
            _resolve_event(s, p, chance, events)
    _check_end(s, events)


def _settle_rewards(s: State, chance: Chance, events: list[Event]) -> None:
    while s.rewards:
        what, name = s.rewards[0]
        p = s.players[name]
        why = _lapses(s, what, p)
        if not p.alive:
            s.rewards.pop(0)
        elif why:
            s.rewards.pop(0)
            reward = "drop" if what == "supply" else what
            events.append(Event("reward-lapsed", {"player": name, "reward": reward, "reason": why}))
        elif what == "power" and not s.power_discard:
            s.rewards.pop(0)
            _draw_power(s, p, "deck", chance, events)
        else:
            break


# ruling: rewards-when-the-graveyard-runs-out
def _lapses(s: State, what: str, p: Player) -> str | None:
    """Why a reward or card gift cannot be taken (None if it can)."""
    if what == "drop" and not s.graveyard:
        return "no used drop left"
    if what == "supply" and not s.graveyard and not any(_supply(s).values()):
        return "no drop left in the supply or the used pile"
    if what == "power" and not s.power_deck and not s.power_discard:
        return "no power card left"
    if what == "discard" and not any(p.drops.values()):
        return "no weapon drop to give up"
    return None


def _move_blocked(s: State) -> bool:
    """A card's movement is open but the car can neither drive nor lay a road tile."""
    t = s.turn
    if t.extra_move is None or s.battle is not None or t.choosing_target:
        return False
    p = s.players[t.player]
    return p.alive and not _move_actions(s, p)


# ---------------------------------------------------------------------------------------------
# Who acts, and what they may do


def actor(s: State) -> str | None:
    """The one player whose decision the game waits for (None when the race is over)."""
    if s.ended is not None:
        return None
    if s.turn.phase == "draft":
        return s.draft[0]
    if s.rewards:
        return s.rewards[0][1]
    if s.battle is not None:
        return s.battle.queue[0][0]
    return s.turn.player


def legal(s: State) -> list[Action]:
    """Every legal action of the player to act (cached on the state, which is never changed afterwards)."""
    if s.cache is None:
        s.cache = {}
    if "legal" not in s.cache:
        s.cache["legal"] = _legal(s)
    return s.cache["legal"]


def _legal_written(s: State) -> list[dict[str, Any]]:
    """The legal actions as a scenario writes them (for refusals; cached like `legal`)."""
    assert s.cache is not None
    if "written" not in s.cache:
        s.cache["written"] = [to_data(a) for a in legal(s)]
    return [dict(a) for a in s.cache["written"]]


def _legal(s: State) -> list[Action]:
    who = actor(s)
    if who is None:
        return []
    p = s.players[who]
    if s.turn.phase == "draft":
        supply = _supply(s)
        return [PickDrop("pick_drop", who, k) for k in DROP_KINDS if supply[k] > 0]
    if s.rewards:
        return _reward_actions(s, p)
    if s.battle is not None:
        return [Strike("strike", who, q.name) for q in _battle_candidates(s, s.battle, p)]
    return _turn_actions(s, p)


def _supply(s: State) -> dict[str, int]:
    """Tokens nobody picked at setup (Setup, step 4): the box less those held, on the road and used."""
    out = {}
    for k in DROP_KINDS:
        used = sum(q.drops[k] for q in s.players.values()) + s.graveyard.get(k, 0)
        used += sum(1 for d in s.board if d.kind == k) + (len(s.shielded) if k == "smoke" else 0)
        out[k] = s.box.drops[k] - used
    return out


def _reward_actions(s: State, p: Player) -> list[Action]:
    what = s.rewards[0][0]
    if what == "power":
        return [DrawPower("draw_power", p.name, "deck"), DrawPower("draw_power", p.name, "discard")]
    if what == "discard":
        return [DiscardDrop("discard_drop", p.name, k) for k in DROP_KINDS if p.drops[k]]
    return [CollectDrop("collect_drop", p.name, k) for k in DROP_KINDS if _gift_pile(s, what).get(k)]


def _gift_pile(s: State, what: str) -> dict[str, int]:
    """Where a drop reward comes from: the used pile; or, for a supply gift, the supply while it lasts."""
    if what == "supply":
        supply = _supply(s)
        if any(supply.values()):
            return supply
    return s.graveyard


# ruling: boss-d4-roll-required
def _turn_actions(s: State, p: Player) -> list[Action]:
    t = s.turn
    me = p.name
    if t.phase == "over":
        return [EndTurn("end_turn", me)]
    if t.choosing_target:
        return [ChooseTarget("choose_target", me, q.name) for q in _targets(s, p)]
    if t.extra_move is not None:
        return _move_actions(s, p)
    if t.phase == "boss-pending":
        out: list[Action] = [BossBattle("boss_battle", me)]
        return out + ([BossBattle("boss_battle", me, True)] if p.drops["smoke"] else [])
    if t.phase == "drawn":
        return _drawn_actions(s, p)
    out = []
    if t.phase == "start":
        out.append(Draw("draw", me))
        if p.hazard_side is not None:
            out.append(HazardAttempt("hazard_attempt", me))
    if t.phase == "moved":
        if p.hazard_side is not None and not t.hazard_tried:
            out.append(HazardAttempt("hazard_attempt", me))
        if t.nitro_open:
            out.append(NitroDraw("nitro_draw", me))
    attacks = _attack_actions(s, p) if t.phase == "boss" and t.strikes_left else []
    out += attacks
    if not t.drop_used:
        out += _drop_actions(s, p)
    if not t.power_used:
        out += _power_actions(s, p)
    if t.phase != "start" and not attacks:  # the boss battle sequence's D4 roll is not optional
        out.append(EndTurn("end_turn", me))
    return out


# ruling: tiles-laid-per-draw
def _move_actions(s: State, p: Player) -> list[Action]:
    """The open movement (a draw's, or a card's): lay the tile in hand, draw another, or drive."""
    t = s.turn
    if t.tile_in_hand is not None:
        return list(_lay_options(s, p, t.tile_in_hand))
    out: list[Action] = []
    if t.laid < t.lay_allowance and _tiles_left(s) and _open_spots(s):
        out.append(DrawTile("draw_tile", p.name))
    out += [Drive("drive", p.name, path) for path in legal_paths(s, p, t.allowance)]
    return out


# ruling: movement-up-to-vs-at-least-one
def _drawn_actions(s: State, p: Player) -> list[Action]:
    # no road to drive on and nothing to lay: the turn may end (ruling: movement-up-to-vs-at-least-one)
    return _move_actions(s, p) or [EndTurn("end_turn", p.name)]


def _attack_actions(s: State, p: Player) -> list[Action]:
    tile = _tile_of(s, p)
    if _boss_alive(s, tile):
        return [Attack("attack", p.name)]
    if tile.kind == "final-boss":
        return [Attack("attack", p.name, q.name) for q in _targets(s, p)]
    return []


# ruling: one-weapon-drop-per-turn
def _drop_actions(s: State, p: Player) -> list[Action]:
    tile = _tile_of(s, p)
    held = [k for k in DROP_KINDS if p.drops[k]]
    me = p.name
    two_fires = "double-fire" in p.abilities and p.drops["fire"] >= 2
    if not held or tile.kind in ("start", "hazard") or s.turn.phase in ("boss-pending", "drawn"):
        return []
    if _boss_alive(s, tile):
        if s.turn.phase != "boss":
            return []
        out = [UseDrop("use_drop", me, k) for k in held if k != "smoke"]
        return out + ([UseDrop("use_drop", me, "fire", 2)] if two_fires else [])
    if tile.kind == "final-boss":
        targets = [q.name for q in _targets(s, p)]
        out = [UseDrop("use_drop", me, k, target=q) for k in held if k != "smoke" for q in targets]
        if two_fires:
            out += [UseDrop("use_drop", me, "fire", 2, targets=(a, b)) for i, a in enumerate(targets)
                    for b in targets[i:]]
        if p.drops["smoke"] and me not in s.shielded:
            out.append(UseDrop("use_drop", me, "smoke"))
        return out
    out = []
    for k in held:
        if k == "smoke":
            if not any(d.kind == "smoke" and d.tile == tile.id for d in s.board):
                out.append(UseDrop("use_drop", me, "smoke"))
        elif k == "gunfire":
            out += [UseDrop("use_drop", me, "gunfire", target=q.name) for q in _gunfire_targets(s, p)]
        else:
            out += [UseDrop("use_drop", me, k, tile=tid) for tid in _drop_spots(s, p, k)]
    if two_fires:
        spots = _drop_spots(s, p, "fire")
        out += [UseDrop("use_drop", me, "fire", 2, tiles=(a, b)) for i, a in enumerate(spots) for b in spots[i + 1:]]
    return out


# ruling: fire-drop-most-recent-turn
def _fire_reach(s: State, p: Player) -> list[str]:
    """Tiles moved onto or over in the player's most recent turn: this one once it has moved, else the last."""
    return list(s.turn.moved_over) if s.turn.moved_over else list(p.last_moved)


def _drop_spots(s: State, p: Player, kind: str) -> list[str]:
    """Where a landmine (a tile touched this turn) or a fire drop (see `_fire_reach`) may go."""
    spots = s.turn.touched if kind == "landmine" else _fire_reach(s, p)
    return [tid for tid in spots if tid in s.tiles and _spot_problem(s.tiles[tid], kind, s.boss_hp) is None
            and not any(d.tile == tid and d.kind == kind for d in s.board)]


Where = tuple[str | None, str | None, str | None]  # a power card's (target, tile, kind)


# ruling: unprinted-cards
def _plays(s: State, p: Player, e: Effect) -> list[Where]:
    """Every way a power card can be played now: its one timed part decides when (and at what); a card with
    none can be played whenever power cards can, if any of its parts has something to do."""
    here, t = _tile_of(s, p), s.turn
    fighting = t.phase == "boss" and _boss_alive(s, here)
    final = t.phase == "boss" and here.kind == "final-boss" and not _boss_alive(s, here)
    none: list[Where] = [(None, None, None)]
    if e.move:
        return none if t.phase == "moved" and legal_paths(s, p, e.move + extra_space(p.abilities)) else []
    if e.boss:
        return none if fighting else []
    if e.strike:
        return none if fighting else [(q.name, None, None) for q in _targets(s, p)] if final else []
    if e.hit:
        if _boss_alive(s, here):
            return []
        cars = _targets(s, p) if here.kind == "final-boss" else _gunfire_targets(s, p)
        return [(q.name, None, None) for q in cars]
    if e.clear_drop:
        dist = _distances(s, here.id)
        return [(None, d.tile, d.kind) for d in sorted(s.board, key=lambda d: (d.tile, d.kind))
                if dist.get(d.tile, e.clear_drop + 1) <= e.clear_drop]
    if e.hazard_pass:
        return none if p.hazard_side is not None and not t.hazard_tried and t.phase in ("start", "moved") else []
    useful = (e.heal or (e.power and (s.power_deck or s.power_discard))
              or (e.take_drop and (s.graveyard or (e.take_drop == "supply" and any(_supply(s).values())))))
    return none if useful else []


# ruling: gunfire-in-motion
def _gunfire_targets(s: State, p: Player) -> list[Player]:
    if _peaceful(s, _tile_of(s, p)):
        return []
    dist = _distances(s, _tile_of(s, p).id)
    return [q for q in (s.players[n] for n in _turn_order_from(s, p.name)[1:])
            if q.alive and dist.get(q.tile or "") in GUNFIRE_BY_DISTANCE and not _peaceful(s, _tile_of(s, q))
            and q.name not in s.shielded]


# ruling: start-tile-power-cards
def _power_actions(s: State, p: Player) -> list[Action]:
    if s.turn.phase in ("boss-pending", "drawn"):
        return []
    cards = sorted(set(p.power))
    out: list[Action] = []
    if _tile_of(s, p).kind != "start":
        for c in cards:
            out += [PlayPower("play_power", p.name, c, *where) for where in _plays(s, p, s.box.effects[c])]
    if s.power_deck or s.power_discard:
        out += [TradePower("trade_power", p.name, c, "deck") for c in cards]
    if s.power_discard:
        out += [TradePower("trade_power", p.name, c, "discard") for c in cards]
    return out


# ---------------------------------------------------------------------------------------------
# Applying actions


def apply(s: State, action: Action, chance: Chance) -> tuple[State, list[Event]]:
    """Apply one listed action to a copy of `s`; IllegalAction (naming the legal ones) for any other."""
    options = legal(s)
    if action not in options:
        raise IllegalAction(_why_refused(s, action), _legal_written(s))
    s = _copy(s)
    s.turn.nitro_open = False  # a nitro-nos draw is open only right after the drive that earned it
    events: list[Event] = []
    HANDLERS[action.do](s, s.players[action.player], action, chance, events)
    _settle(s, chance, events)
    return s, events


def _why_refused(s: State, action: Action) -> str:
    """The reason an action that is not listed is refused, as specific as can be said."""
    if s.ended is not None:
        return f"the race is over ({_result_word(s)})"
    who = actor(s)
    if action.player != who:
        if s.rewards:
            return f"{who} must first take a boss reward"
        if s.battle is not None:
            return f"{who} picks the target of the next strike in the battle-it-out"
        return f"it is {who}'s turn to act, not {action.player}'s"
    kinds = {a.do for a in legal(s)}
    p = s.players[action.player]
    t = s.turn
    if action.do in kinds:
        return _why_not_these(s, p, action)
    if isinstance(action, PlayPower) and action.card in p.power and not t.power_used and t.extra_move is None \
            and t.phase not in ("boss-pending", "drawn") and p.tile and s.tiles[p.tile].kind != "start":
        return _power_refusal(s, p, action)
    if t.extra_move == "event":
        return (f"{_doing(action)} must wait: the event card {_card(s, s.event_active or '')} orders a movement, "
                "which comes first (an event card is resolved completely, Q&A 6)")
    if t.extra_move == "power":
        return f"{_doing(action)} must wait: the power card's movement comes first"
    if t.phase == "boss-pending":
        return "the boss battle sequence must begin (the boss strikes first)"
    if t.phase == "drawn" and t.tile_in_hand is not None:
        return f"lay the road tile just drawn ({t.tile_in_hand}) first"
    if action.do == "end_turn" and t.phase in ("start", "drawn"):
        return "you cannot skip your turn: move at least 1 space (Q&A 3)"
    if action.do == "drive" and t.phase == "start":
        return "draw for movement first (draw)"
    if action.do in ("drive", "draw", "draw_tile") and t.phase != "start":
        return "the movement is already done this turn"
    if action.do == "play_power" and p.tile and s.tiles[p.tile].kind == "start":
        return "power cards cannot be played on the start tile (Q&A 1)"
    if action.do == "use_drop" and p.tile and s.tiles[p.tile].kind in ("start", "hazard"):
        return f"weapon drops cannot be used on the {s.tiles[p.tile].kind} tile"
    if action.do in ("use_drop", "play_power", "trade_power"):
        return f"{action.do}: already done this turn, or nothing to use now"
    return f"{action.do} is not possible now (phase {t.phase})"


def _why_not_these(s: State, p: Player, action: Action) -> str:
    """The kind of action is open, but not with these parameters."""
    if isinstance(action, Drive):
        why = _path_problem(s, p, action.path, s.turn.allowance)
        if why:
            return why
    if isinstance(action, UseDrop):
        if p.drops.get(action.kind, 0) < action.count:
            return f"{p.name} holds {p.drops.get(action.kind, 0)} {action.kind} drop(s)"
        if action.count == 2 and "double-fire" not in p.abilities:
            return "only Mista may use two drops at once (fire drops)"
        if action.tile is not None and action.kind in ("landmine", "fire"):
            return _spot_refusal(s, p, action.kind, action.tile)
    if isinstance(action, (PlayPower, TradePower)) and action.card not in p.power:
        return f"{p.name} holds no power card {action.card!r}"
    if isinstance(action, PlayPower):
        return _power_refusal(s, p, action)
    return f"{_describe(action, s)} is not one of the legal choices now"


def _power_refusal(s: State, p: Player, a: PlayPower) -> str:
    """Why this power card cannot be played like this now (its timing, or its target)."""
    e = s.box.effects[a.card]
    title = s.box.titles[a.card]
    plays = _plays(s, p, e)
    if not plays:
        return f"{title} cannot be played now: {_timing(e)}"
    shown = "; ".join(_play_words(s, w) for w in plays)
    return f"{title} can be played now only this way: {shown}" if len(plays) == 1 else \
        f"{title} can be played now in these ways: {shown}"


def _play_words(s: State, way: tuple[Any, ...]) -> str:
    """One way to play a power card (target, tile, kind of drop) in words."""
    target, tile, kind = way
    parts = [f"at {target}"] if target else []
    if tile:
        parts.append(f"on the {kind or 'drop'} on {_tile_words(s, tile)}")
    return ", ".join(parts) or "as it is"


def _doing(action: Any) -> str:
    return _KIND_WORDS.get(action.do, action.do.replace("_", " ")).capitalize()


def _timing(e: Effect) -> str:
    """When a power card can be played, in players' words (from its timed part)."""
    if e.move:
        return "after your movement, with road to move on"
    if e.boss:
        return "in a boss battle, against a live boss"
    if e.strike:
        return "in a boss battle, or on the final tile at a car once the final boss is dead"
    if e.hit:
        return "with a car in gunfire range (or a car to target on the final tile), not while fighting a boss"
    if e.clear_drop:
        return f"with a weapon drop lying within {e.clear_drop} road tiles"
    if e.hazard_pass:
        return "stopped at a hazard you have not tried this turn"
    return "it has nothing to do (no card, no drop to take)"


def _spot_refusal(s: State, p: Player, kind: str, tid: str) -> str:
    if tid not in s.tiles:
        return f"no tile {tid!r} on the road"
    why = _spot_problem(s.tiles[tid], kind, s.boss_hp)
    if why:
        return why
    if kind == "landmine":
        return f"a landmine goes on a tile {p.name} touched this turn ({_tiles_words(s, s.turn.touched)})"
    reach = _tiles_words(s, _fire_reach(s, p)) or "none"
    return f"a fire drop goes on a tile {p.name} moved over in its most recent turn ({reach})"


def _tiles_words(s: State, tids: Sequence[str]) -> str:
    return ", ".join(_tile_words(s, t) for t in tids)


def _do_pick_drop(s: State, p: Player, a: PickDrop, chance: Chance, events: list[Event]) -> None:
    p.drops[a.kind] += 1
    s.draft.pop(0)
    events.append(Event("drop-picked", {"player": p.name, "kind": a.kind}))


def _do_draw(s: State, p: Player, a: Draw, chance: Chance, events: list[Event]) -> None:
    roll = _roll(chance, "movement", events, p.name)
    t = s.turn
    t.allowance = t.lay_allowance = roll + extra_space(p.abilities)
    t.phase = "drawn"
    events.append(Event("movement-draw", {"player": p.name, "roll": roll, "allowance": t.allowance}))


def _do_draw_tile(s: State, p: Player, a: DrawTile, chance: Chance, events: list[Event]) -> None:
    face = _next_tile(s, chance)
    s.turn.tile_in_hand = face
    s.turn.laid += 1
    events.append(Event("tile-drawn", {"player": p.name, "face": face, "kind": s.box.tiles[face].kind}))


def _do_lay_tile(s: State, p: Player, a: LayTile, chance: Chance, events: list[Event]) -> None:
    face = s.turn.tile_in_hand
    assert face is not None
    x, y = a.at
    sources = _open_spots(s)[(x, y)]
    src = next(t for t in sources if t.id == a.source) if a.source else sources[0]
    _place(s, face, x, y, src, a.arrow, events)
    s.turn.tile_in_hand = None


def _do_drive(s: State, p: Player, a: Drive, chance: Chance, events: list[Event]) -> None:
    t = s.turn
    by_card, card = t.extra_move, s.event_active
    t.extra_move = None
    if by_card is None:
        t.phase = "moved"
    start = _tile_of(s, p)
    _drive(s, p, a.path, chance, events)
    if by_card == "event" and p.alive and s.event_active == card and card is not None:
        _resolve_event(s, p, chance, events)  # the card's movement was the last of it
    if p.alive and s.event_active is None and s.battle is None and t.extra_move is None:
        prev = s.tiles[a.path[-2]] if len(a.path) > 1 else start
        t.nitro_open = _nitro_ahead(s, p, prev, s.tiles[a.path[-1]]) is not None


def _nitro_ahead(s: State, p: Player, prev: Tile, last: Tile) -> tuple[int, int] | None:
    """The empty space ahead of a nitro-nos tile the car stopped on, entered along its arrows."""
    if last.kind != "nitro-nos" or p.tile != last.id or not _tiles_left(s) or _direction(prev, last) != last.arrow:
        return None
    assert last.arrow is not None
    spot = (last.x + DIRS[last.arrow][0], last.y + DIRS[last.arrow][1])
    return None if spot in s.spots else spot


def _do_nitro_draw(s: State, p: Player, a: NitroDraw, chance: Chance, events: list[Event]) -> None:
    """Landing on a nitro-nos tile at the end of the road: draw a tile ahead and move onto it."""
    here = _tile_of(s, p)
    assert here.arrow is not None
    s.turn.nitro_open = False
    x, y = here.x + DIRS[here.arrow][0], here.y + DIRS[here.arrow][1]
    face = _next_tile(s, chance)
    events.append(Event("tile-drawn", {"player": p.name, "face": face, "kind": s.box.tiles[face].kind}))
    tile = _place(s, face, x, y, here, None, events)
    if tile.kind == "final-boss" and not _subs_dead(s):
        events.append(Event("nitro-stopped", {"player": p.name, "reason": "the final boss tile waits for the "
                                                                          "sub-bosses"}))
        return
    if connected(here, tile):
        _drive(s, p, [tile.id], chance, events)


def _do_hazard_attempt(s: State, p: Player, a: HazardAttempt, chance: Chance, events: list[Event]) -> None:
    tile = _tile_of(s, p)
    t = s.turn
    t.phase, t.hazard_tried = "moved", True
    assert p.hazard_side is not None
    roll = _roll(chance, "hazard", events, p.name)
    passed, damage = hazard_roll(roll)
    events.append(Event("hazard", {"player": p.name, "roll": roll, "result": "pass" if passed else "fail"}))
    _hurt(s, p, damage, "hazard", None, events)
    if p.alive and passed:
        _pass_hazard(s, p, tile, chance, events)


# ruling: hazard-after-passing
def _pass_hazard(s: State, p: Player, tile: Tile, chance: Chance, events: list[Event]) -> None:
    """Past the hazard: onto the connecting tile, or to the far side if there is none; the movement ends."""
    t = s.turn
    t.phase, t.hazard_tried = "moved", True
    assert p.hazard_side is not None
    far = OPPOSITE[p.hazard_side]
    beyond = _neighbour(s, tile, far)
    if beyond is not None and connected(tile, beyond) and (beyond.kind != "final-boss" or _subs_dead(s)):
        _drive(s, p, [beyond.id], chance, events)  # the pass ends the movement
    else:
        p.hazard_side = far


def _do_boss_battle(s: State, p: Player, a: BossBattle, chance: Chance, events: list[Event]) -> None:
    """The sequence opens with the boss's -3 first strike, unless smoke or Shooter cancel it."""
    tile = _tile_of(s, p)
    if a.smoke:  # the smoke is this sequence's one weapon drop
        p.drops["smoke"] -= 1
        _graveyard_add(s, "smoke")
        s.turn.drop_used = True
        events.append(Event("drop-used", {"player": p.name, "kind": "smoke", "count": 1, "on": tile.boss}))
    s.turn.phase = "boss"
    s.turn.strikes_left = strikes(p.abilities)
    reason = first_strike_cancelled(p.abilities, a.smoke)
    if reason:
        events.append(Event("first-strike-cancelled", {"player": p.name, "reason": reason}))
    else:
        events.append(Event("first-strike", {"by": tile.boss, "target": p.name}))
        _hurt(s, p, FIRST_STRIKE, "first-strike", tile.boss, events)


def _do_attack(s: State, p: Player, a: Attack, chance: Chance, events: list[Event]) -> None:
    """The sequence's D4 action: every strike at the boss, or one strike at a player on the dead final tile."""
    tile = _tile_of(s, p)
    t = s.turn
    if a.target is None:
        while t.strikes_left and _boss_alive(s, tile) and p.alive:
            t.strikes_left -= 1
            _strike_boss(s, p, tile, chance, events)
        t.strikes_left = 0
        return
    t.strikes_left -= 1
    _strike_car(s, p, s.players[a.target], tile, chance, events)


def _do_strike(s: State, p: Player, a: Strike, chance: Chance, events: list[Event]) -> None:
    _battle_strike(s, p, s.players[a.target], chance, events)
    _run_battle(s, chance, events)


def _do_choose_target(s: State, p: Player, a: ChooseTarget, chance: Chance, events: list[Event]) -> None:
    s.turn.choosing_target = False
    events.append(Event("targeted", {"by": p.name, "target": a.target}))
    _first_strike(s, s.players[a.target], p, events)


def _do_use_drop(s: State, p: Player, a: UseDrop, chance: Chance, events: list[Event]) -> None:
    tile = _tile_of(s, p)
    s.turn.drop_used = True
    p.drops[a.kind] -= a.count
    if _boss_alive(s, tile):
        _graveyard_add(s, a.kind, a.count)
        events.append(Event("drop-used", {"player": p.name, "kind": a.kind, "count": a.count, "on": tile.boss}))
        for _ in range(a.count):
            if _boss_alive(s, tile):
                _hurt_boss(s, tile, dealt(p.abilities, BOSS_DROP_DAMAGE, "boss"), p.name, events, source=a.kind)
    elif tile.kind == "final-boss":
        _drop_on_final(s, p, tile, a, events)
    elif a.kind == "gunfire":
        _gunfire(s, p, s.players[a.target or ""], events)
    else:
        spots = [p.tile or ""] if a.kind == "smoke" else list(a.tiles) or [a.tile or ""]
        for tid in spots:
            on = tuple(q.name for q in _others_on(s, tid, p.name)) if a.kind == "landmine" else ()
            s.board.append(BoardDrop(a.kind, tid, p.name, on))
            events.append(Event("drop-placed", {"player": p.name, "kind": a.kind, "tile": tid, "on": list(on)}))


def _drop_on_final(s: State, p: Player, tile: Tile, a: UseDrop, events: list[Event]) -> None:
    """On the dead final tile drops hit players for -3; smoke keeps you from being targeted."""
    if a.kind == "smoke":
        s.shielded.append(p.name)
        events.append(Event("drop-used", {"player": p.name, "kind": "smoke", "count": 1, "on": p.name}))
        return
    targets = list(a.targets) or [a.target or ""]
    _graveyard_add(s, a.kind, a.count)
    events.append(Event("drop-used", {"player": p.name, "kind": a.kind, "count": a.count, "on": targets}))
    source = "fire-drop" if a.kind == "fire" else a.kind
    for name in targets:
        target = s.players[name]
        if target.alive:
            _hurt(s, target, dealt(p.abilities, BOSS_DROP_DAMAGE, "boss"), source, p.name, events)
            if not target.alive:
                _player_killed(s, p, tile, events)


def _gunfire(s: State, p: Player, target: Player, events: list[Event]) -> None:
    gap = _distances(s, _tile_of(s, p).id)[_tile_of(s, target).id]
    _graveyard_add(s, "gunfire")
    events.append(Event("drop-used", {"player": p.name, "kind": "gunfire", "count": 1, "on": target.name,
                                      "distance": gap}))
    _hurt(s, target, dealt(p.abilities, GUNFIRE_BY_DISTANCE[gap], "gunfire"), "gunfire", p.name, events)


def _do_play_power(s: State, p: Player, a: PlayPower, chance: Chance, events: list[Event]) -> None:
    """The card goes face up on the discard pile, then does what its face says."""
    p.power.remove(a.card)
    s.power_discard.append(a.card)
    s.turn.power_used = True
    events.append(Event("power-card-played", {"player": p.name, "card": a.card}))
    effect = s.box.effects[a.card]
    _effect_now(s, p, effect, chance, events, a.target, a.tile, a.kind)
    if effect.move and p.alive:
        _open_move(s, p, effect, "power", chance, events)


def _do_trade_power(s: State, p: Player, a: TradePower, chance: Chance, events: list[Event]) -> None:
    """Trade one card for the top of the deck or the face-up discard; the card traded in goes face up."""
    _draw_power(s, p, a.take, chance, events)
    p.power.remove(a.card)
    s.power_discard.append(a.card)
    s.turn.power_used = True
    events.append(Event("power-card-traded", {"player": p.name, "card": a.card}))


def _do_draw_power(s: State, p: Player, a: DrawPower, chance: Chance, events: list[Event]) -> None:
    s.rewards.pop(0)
    _draw_power(s, p, a.take, chance, events)


def _do_collect_drop(s: State, p: Player, a: CollectDrop, chance: Chance, events: list[Event]) -> None:
    what, _ = s.rewards.pop(0)
    pile = _gift_pile(s, what)
    if pile is s.graveyard:
        s.graveyard[a.kind] -= 1
        if not s.graveyard[a.kind]:
            del s.graveyard[a.kind]
    p.drops[a.kind] += 1
    events.append(Event("drop-collected", {"player": p.name, "kind": a.kind,
                                           "from": "used" if pile is s.graveyard else "supply"}))


def _do_discard_drop(s: State, p: Player, a: DiscardDrop, chance: Chance, events: list[Event]) -> None:
    s.rewards.pop(0)
    p.drops[a.kind] -= 1
    _graveyard_add(s, a.kind)
    events.append(Event("drop-discarded", {"player": p.name, "kind": a.kind}))


def _do_end_turn(s: State, p: Player, a: EndTurn, chance: Chance, events: list[Event]) -> None:
    _end_turn(s, p, chance, events)


HANDLERS: dict[str, Callable[[State, Player, Any, Chance, list[Event]], None]] = {
    "pick_drop": _do_pick_drop,
    "draw": _do_draw,
    "draw_tile": _do_draw_tile,
    "lay_tile": _do_lay_tile,
    "drive": _do_drive,
    "nitro_draw": _do_nitro_draw,
    "hazard_attempt": _do_hazard_attempt,
    "boss_battle": _do_boss_battle,
    "attack": _do_attack,
    "strike": _do_strike,
    "choose_target": _do_choose_target,
    "use_drop": _do_use_drop,
    "play_power": _do_play_power,
    "trade_power": _do_trade_power,
    "draw_power": _do_draw_power,
    "collect_drop": _do_collect_drop,
    "discard_drop": _do_discard_drop,
    "end_turn": _do_end_turn,
}


# ---------------------------------------------------------------------------------------------
# Outcome, result, wording


def outcome(s: State, events: list[Event]) -> dict[str, Any]:
    """The observable result (stable keys)."""
    players = s.players.values()
    final = _final_tile(s)
    return {
        "turn": s.turn.player,
        "phase": s.turn.phase,
        "round": s.round,
        "to_act": actor(s),
        "hp": {p.name: p.hp for p in players},
        "eliminated": [p.name for p in players if not p.alive],
        "positions": {p.name: p.tile for p in players},
        "hazard_side": {p.name: p.hazard_side for p in players if p.hazard_side},
        "boss_hp": dict(s.boss_hp),
        "bosses_defeated": [b for b in s.boss_hp if s.boss_hp[b] == 0],
        "tiles_laid": len(s.tiles),
        "road": {t.id: t.label for t in s.tiles.values()},
        "tile_stack_left": len(s.stack) if s.stack_known else None,
        "tile_drawn": s.turn.tile_in_hand,
        "drops_on_board": sorted(f"{d.kind}@{d.tile}" for d in s.board),
        "inventory": {p.name: {k: n for k, n in p.drops.items() if n} for p in players},
        "drops_held": {p.name: sum(p.drops.values()) for p in players},
        "power_cards": {p.name: len(p.power) for p in players},
        "power_hands": {p.name: sorted(p.power) for p in players},
        "power_discard": list(s.power_discard),
        "graveyard": {k: s.graveyard[k] for k in DROP_KINDS if s.graveyard.get(k)},
        "event_active": s.event_active,
        "events_owed": s.events_owed,
        "event_cards_drawn": s.events_drawn,
        "event_cards_this_turn": list(s.turn.events_seen),
        "card_move": s.turn.allowance if s.turn.extra_move else None,
        "rewards_owed": [name for what, name in s.rewards if what in ("drop", "supply")],
        "power_owed": [name for what, name in s.rewards if what == "power"],
        "discard_owed": [name for what, name in s.rewards if what == "discard"],
        "final_arrivals": list(s.final_arrivals),
        "first_on_final_tile": s.final_arrivals[0] if s.final_arrivals else None,
        "final_tile": final.id if final else None,
        "shielded": list(s.shielded),
        "winner": s.winner,
        "ended": s.ended,
        "can": sorted({a.do for a in legal(s)}),
        **_event_summary(events),
    }


def _event_summary(events: list[Event]) -> dict[str, Any]:
    damage: dict[str, int] = {}
    log = []
    hazard = None
    for e in events:
        if e.kind == "damage":
            damage[e.data["target"]] = damage.get(e.data["target"], 0) + e.data["amount"]
            by = f" by {e.data['by']}" if e.data.get("by") else ""
            log.append(f"{e.data['target']} -{e.data['amount']} {e.data['source']}{by}")
        elif e.kind == "hazard":
            hazard = e.data["result"]
    return {
        "events": [e.kind for e in events if e.kind != "roll"],
        "damage": damage,
        "damage_log": log,
        "rolls": [e.data["value"] for e in events if e.kind == "roll"],
        "hazard": hazard,
    }


def _result_word(s: State) -> str:
    if s.winner is not None:
        return s.box.characters[s.players[s.winner].character].title
    return "nobody"


def result(s: State) -> dict[str, Any]:
    """Whole-game figures: who escaped (a character) or nobody, and how the race went."""
    return {
        "result": _result_word(s),
        "rounds": s.round - 1 if s.ended == "portal-closed" else s.round,
        "eliminated": sum(1 for p in s.players.values() if not p.alive),
        "damage_taken": sum(p.damage for p in s.players.values()),
        "bosses_defeated": sum(1 for hp in s.boss_hp.values() if hp == 0),
        "tiles_laid": len(s.tiles),
        "event_cards_drawn": s.events_drawn,
        "portal_closed": 1 if s.ended == "portal-closed" else 0,
    }


def _describe(a: Action, s: State | None = None) -> str:
    """An action in players' words: cards and tiles by their printed titles (with `s`, the position
    it is played from, a tile is named by its title and, where several share it, which one)."""
    who = a.player
    words: dict[str, Callable[[], str]] = {
        "pick_drop": lambda: f"{who} picks a {a.kind} drop",
        "draw": lambda: f"{who} draws for movement",
        "draw_tile": lambda: f"{who} draws a road tile",
        "lay_tile": lambda: f"{who} lays it {_beside(s, a)}"
                            + (f", arrows pointing {_SIDE[a.arrow]}" if a.arrow else ""),
        "drive": lambda: f"{who} drives {_path_words(s, a.path)}",
        "nitro_draw": lambda: f"{who} draws a tile beyond the Nitro-Nos and moves onto it",
        "hazard_attempt": lambda: f"{who} tries to get past the hazard",
        "boss_battle": lambda: f"{who} faces the boss's first strike" + (" behind smoke" if a.smoke else ""),
        "attack": lambda: f"{who} attacks " + (a.target or "the boss"),
        "strike": lambda: f"{who} strikes {a.target}",
        "choose_target": lambda: f"{who} targets {a.target}",
        "use_drop": lambda: f"{who} uses {'two ' if a.count == 2 else 'a '}{a.kind} drop{'s' if a.count == 2 else ''}"
                            + _drop_where(s, a),
        "play_power": lambda: f"{who} plays {_card(s, a.card)}" + (f" at {a.target}" if a.target else "")
                              + (f" on the {a.kind} on {_tile_words(s, a.tile)}" if a.tile else ""),
        "trade_power": lambda: f"{who} trades in {_card(s, a.card)} for the top card of the {_PILE[a.take]}",
        "draw_power": lambda: f"{who} draws a power card from the {_PILE[a.take]}",
        "collect_drop": lambda: f"{who} takes a used {a.kind} drop",
        "discard_drop": lambda: f"{who} gives up a {a.kind} drop",
        "end_turn": lambda: f"{who} ends the turn",
    }
    return words[a.do]()


_SIDE = {"N": "north", "E": "east", "S": "south", "W": "west"}
_PILE = {"deck": "power deck", "discard": "discard pile"}
_KIND_WORDS = {"move": "moving", "draw": "drawing for movement", "drive": "driving", "end_turn": "ending the turn",
               "boss_battle": "the boss battle", "hazard_attempt": "the hazard attempt"}


def _card(s: State | None, face: str) -> str:
    return s.box.titles.get(face, face) if s is not None else face


def _tile_title(s: State, tile: Tile) -> str:
    face = s.box.tiles.get(tile.face)
    return face.title if face is not None else tile.kind.replace("-", " ").capitalize()


def _tile_words(s: State | None, tid: str | None) -> str:
    """A tile as players point at it: "the Event tile", or "the 2nd Straight Road tile" (in the order
    the road was laid) where several share the title."""
    tile = s.tiles.get(tid or "") if s is not None else None
    if s is None or tile is None:
        return "that tile"
    which = _tile_ordinal(s, tile)
    return f"the {which + ' ' if which else ''}{_tile_title(s, tile)} tile"


def _tile_ordinal(s: State, tile: Tile) -> str:
    """"2nd" for the second tile laid with this title; nothing when the title is the only one."""
    title = _tile_title(s, tile)
    same = [t for t in s.tiles.values() if _tile_title(s, t) == title]
    return _ordinal(same.index(tile) + 1) if len(same) > 1 else ""


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _path_words(s: State | None, path: Sequence[str]) -> str:
    steps = len(path)
    where = " → ".join(_tile_words(s, t) for t in path)
    return f"{steps} tile{'s' if steps != 1 else ''}: {where}" if steps else "nowhere"


def _beside(s: State | None, a: LayTile) -> str:
    """Where a laid tile goes: on which side of the tile it joins."""
    x, y = a.at[0], a.at[1]
    near = [a.source] if a.source else []
    if s is not None:
        near += [s.spots[(x - dx, y - dy)] for dx, dy in DIRS.values() if (x - dx, y - dy) in s.spots]
    for tid in near:
        tile = s.tiles.get(tid) if s is not None else None
        if tile is not None:
            side = next((_SIDE[d] for d, v in DIRS.items() if v == (x - tile.x, y - tile.y)), None)
            if side:
                return f"{side} of {_tile_words(s, tid)}"
    return "at the end of the road"


def _drop_where(s: State | None, a: UseDrop) -> str:
    if a.tiles:
        return f" on {' and '.join(_tile_words(s, t) for t in a.tiles)}"
    if a.tile:
        return f" on {_tile_words(s, a.tile)}"
    if a.targets:
        return f" at {' and '.join(a.targets)}"
    if a.target:
        return f" at {a.target}"
    return ""


def describe_end(s: State) -> str:
    """Each car's HP and tile, each hurt boss's HP, and who escaped, in players' words."""
    parts = [f"{p.name} has {p.hp} HP on {_tile_words(s, p.tile)}" if p.alive else f"{p.name} is out of the race"
             for p in (s.players[n] for n in s.order)]
    for boss, hp in s.boss_hp.items():
        face = s.box.tiles.get(boss)
        if face is not None and face.hp is not None and hp < face.hp:
            parts.append(f"{face.title} has {hp} HP left" if hp else f"{face.title} is defeated")
    if s.winner is not None:
        parts.append(f"{s.winner} escapes and wins")
    elif s.ended == "all-eliminated":
        parts.append("every car is destroyed: nobody wins")
    return "; ".join(parts) + "."


_STRIKES = {"battle-it-out": "{a}'s strike at {b} (battle it out)", "counter": "{a} striking back at {b}",
            "drive-by": "{a}'s drive-by at {b}", "boss battle": "{a}'s strike at {b}",
            "final tile": "{a}'s strike at {b} on the final tile"}
_DRAWS = {"movement": "for movement", "movement (event card)": "for the event card's movement",
          "landmine": "for the landmine", "hazard": "to get past the hazard"}


def describe_random(label: str, value: Any, names: Callable[[str], str]) -> str:
    """A labelled draw in players' words: D4 cards drawn for what, cards and tiles by their titles."""
    if isinstance(value, int) and not isinstance(value, bool):
        if "->" in label:
            context, pair = label.rsplit(" ", 1)
            a, b = pair.split("->", 1)
            purpose = "for " + _STRIKES.get(context, context + " {a} at {b}").format(a=a, b=names(b))
        else:
            purpose = _DRAWS.get(label, f"for {label}")
        return f"draws a {value} from the D4 cards {purpose}"
    if isinstance(value, (list, tuple)):
        return f"{label}, in order: {', '.join(names(str(v)) for v in value)}"
    if label == "first player":
        return f"{value} goes first"
    return {"power card": "draws {} from the power deck", "event card": "draws the event card {}",
            "road tile": "draws the road tile {}"}.get(label, label + ": {}").format(names(str(value)))


# ---------------------------------------------------------------------------------------------
# Drawing

CELL = 96
KIND_STYLE = {  # fill, label
    "start": ("#d9ead3", "START"),
    "straight": ("#eeeeee", ""),
    "hazard": ("#fce5cd", "HAZARD"),
    "event": ("#d0e0f0", "82"),
    "fire": ("#f4cccc", "FIRE"),
    "nitro-nos": ("#ead1dc", "NOS"),
    "boss": ("#d9d2e9", ""),
    "final-boss": ("#cccccc", "H H H"),
}
ARROWS = {"N": "\u2191", "E": "\u2192", "S": "\u2193", "W": "\u2190"}
LAID_PER_EXAMPLE = 4  # a zoomed drawing makes room for at most this many tiles laid beyond the road
CAR_COLOURS = ("#c0392b", "#2471a3", "#1e8449", "#b9770e")


def _car_spots(s: State) -> dict[str, tuple[float, float]]:
    """Each car on the road, in tile units (x, y of the tile grid; cars sharing a tile side by side)."""
    slots: dict[str, int] = {}
    out = {}
    for name in s.order:
        p = s.players[name]
        if not p.alive or p.tile is None:
            continue
        tile = s.tiles[p.tile]
        n = slots.get(tile.id, 0)
        slots[tile.id] = n + 1
        out[name] = (tile.x + (20 + 19 * n) / CELL, tile.y + (CELL / 2 + 8) / CELL)
    return out


def pieces(s: State) -> list[draw.Piece]:
    """The road tiles, cars and bosses, in tile units (the road is a few tiles: it is always drawn
    whole, in a frame wide enough for every tile an example lays)."""
    out = [draw.Piece(f"tile-{t.id}", "tile", f"road tile {t.id}", "the road", t.x + 0.5, t.y + 0.5, 0.5, on="on")
           for t in sorted(s.tiles.values(), key=lambda t: t.id)]
    for name, (x, y) in _car_spots(s).items():
        p = s.players[name]
        out.append(draw.Piece(f"car-{name}", f"car-{s.order.index(name) % len(CAR_COLOURS)}", f"{name}'s car",
                              f"tile {p.tile}", x, y, 9 / CELL, health=p.hp, on="on"))
    for tile in sorted(s.tiles.values(), key=lambda t: t.id):
        if tile.boss is not None:
            out.append(draw.Piece(f"boss-{tile.boss}", "boss", f"the boss {s.box.tiles[tile.face].title}",
                                  f"tile {tile.id}", tile.x + 0.5, tile.y + 0.5, 0.3, health=s.boss_hp[tile.boss],
                                  on="on"))
    return out


def legend() -> list[draw.Swatch]:
    def car(i: int) -> Any:
        def paint(svg: draw.Svg, cx: float, cy: float, n: float) -> None:
            svg.circle(cx, cy, 9, CAR_COLOURS[i], draw.COLORS["ink"])
        return paint

    out = [draw.swatch(f"car-{i}", f"car of the {('first', 'second', 'third', 'fourth')[i]} player (its initials)",
                       car(i)) for i in range(len(CAR_COLOURS))]
    out.append(draw.swatch("tile", "road tile: its id top left, the road in grey",
                           lambda svg, cx, cy, n: (svg.rect(1, 1, n - 2, n - 2, "#eeeeee", draw.COLORS["ink"]),
                                                   svg.line(1, cy, n - 1, cy, draw.COLORS["lane"], 8))))
    out.append(draw.swatch("boss", "boss tile: its HP left in purple",
                           lambda svg, cx, cy, n: svg.text(cx, cy + 4, "HP", size=12, fill=draw.COLORS["boss"],
                                                           weight="bold")))
    return out


def draw_svg(s: State, focus: draw.Focus | None = None) -> str:
    """The laid road (kind, exits, boss HP, drops), the cars and a legend; deterministic."""
    tiles = sorted(s.tiles.values(), key=lambda t: (t.y, t.x, t.id))
    min_x, max_x = min(t.x for t in tiles), max(t.x for t in tiles)
    min_y, max_y = min(t.y for t in tiles), max(t.y for t in tiles)
    if focus is not None and focus.window is not None:  # room for every tile the example lays
        w = focus.window
        n = LAID_PER_EXAMPLE
        min_x, max_x = max(min(min_x, math.floor(w.x)), min_x - n), min(max(max_x, math.ceil(w.x1) - 1), max_x + n)
        min_y, max_y = max(min(min_y, math.floor(w.y)), min_y - n), min(max(max_y, math.ceil(w.y1) - 1), max_y + n)
    board_h = (max_y - min_y + 1) * CELL
    width = max((max_x - min_x + 1) * CELL + 20, 460)
    height = board_h + 40 + 16 * len(s.order)
    svg = draw.Svg(width, height, f"Escape Deathrace: {s.turn.player} to play")
    svg.rect(0, 0, width, height, draw.COLORS["paper"])
    origin = (10 - min_x * CELL, 10 - min_y * CELL)
    for tile in tiles:
        _draw_tile(svg, s, tile, origin)
    _draw_cars(svg, s, origin)
    _draw_legend(svg, s, board_h + 30)
    draw.overlay(svg, focus, lambda p: (origin[0] + p[0] * CELL, origin[1] + p[1] * CELL), CELL)
    return svg.render()


def _draw_tile(svg: draw.Svg, s: State, tile: Tile, origin: tuple[int, int]) -> None:
    x0, y0 = origin[0] + tile.x * CELL, origin[1] + tile.y * CELL
    cx = x0 + CELL / 2
    fill, label = KIND_STYLE[tile.kind]
    if tile.kind == "boss":
        label = s.box.tiles[tile.face].title.upper()
    svg.rect(x0 + 2, y0 + 2, CELL - 4, CELL - 4, fill, draw.COLORS["ink"])
    for d in tile.exits:  # road stubs show the exits
        dx, dy = DIRS[d]
        svg.line(cx, y0 + CELL / 2, cx + dx * (CELL / 2 - 2), y0 + CELL / 2 + dy * (CELL / 2 - 2),
                 draw.COLORS["lane"], 14)
    if tile.arrow:
        label = f"{ARROWS[tile.arrow]} NOS {ARROWS[tile.arrow]}"
    which = _tile_ordinal(s, tile)
    if which:  # the steps say "the 2nd Straight Road tile": the drawing names it the same way
        svg.text(x0 + 6, y0 + 14, which, size=10, anchor="start")
    svg.text(cx, y0 + 28, label, size=9 if len(label) > 12 else 10, weight="bold")
    if tile.boss is not None:
        hp = s.boss_hp[tile.boss]
        svg.text(cx, y0 + CELL - 8, f"{hp}/{s.box.bosses[tile.boss]} HP" if hp else "defeated", size=10,
                 fill=draw.COLORS["boss"], weight="bold")
    for i, drop in enumerate(sorted(d.kind for d in s.board if d.tile == tile.id)):
        svg.text(x0 + CELL - 6, y0 + 14 + 12 * i, drop, size=9, anchor="end", fill=draw.COLORS["enemy"])


def _draw_cars(svg: draw.Svg, s: State, origin: tuple[int, int]) -> None:
    spots = _car_spots(s)  # the same places the zoom and the change marks use
    for i, name in enumerate(s.order):
        if name not in spots:
            continue
        p = s.players[name]
        x, y = origin[0] + spots[name][0] * CELL, origin[1] + spots[name][1] * CELL
        svg.circle(x, y, 9, CAR_COLOURS[i % len(CAR_COLOURS)], draw.COLORS["ink"])
        svg.text(x, y + 4, name[:2], size=9, fill=draw.COLORS["paper"], weight="bold")
        if p.hazard_side:
            svg.text(x, y + 20, f"side {p.hazard_side}", size=8)


def _draw_legend(svg: draw.Svg, s: State, top: float) -> None:
    head = f"Round {s.round}, turn: {s.turn.player} ({s.turn.phase})"
    if s.ended:
        head = f"Race over: {_result_word(s)} escaped" if s.winner else f"Race over: nobody escaped ({s.ended})"
    svg.text(10, top, head, size=12, anchor="start", weight="bold")
    for i, name in enumerate(s.order):
        p = s.players[name]
        drops = ", ".join(f"{k} {n}" for k, n in p.drops.items() if n) or "no drops"
        status = f"{p.hp} HP" if p.alive else "out"
        title = s.box.characters[p.character].title
        line = f"{name} ({title}): {status}; {drops}; {len(p.power)} power card(s)"
        svg.text(10, top + 16 * (i + 1), line, size=11, anchor="start", fill=CAR_COLOURS[i % len(CAR_COLOURS)])


# ---------------------------------------------------------------------------------------------
# Exact odds (enumerating D4 draws through the same rule functions the engine uses)


@dataclass(frozen=True)
class OddsTable:
    """One exact distribution table: rows of (outcome label, probability per column)."""

    id: str
    title: str
    rule: str
    ability: str  # an ability id, or "any"
    columns: tuple[str, ...]  # probability columns (the first column, the outcome, is `outcome`)
    outcome: str
    rows: tuple[tuple[str, tuple[Fraction, ...]], ...]
    means: tuple[Fraction, ...] | None = None  # expected damage per column, where rows are damage

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "rule": self.rule,
            "ability": self.ability,
            "columns": [self.outcome, *self.columns],
            "rows": [[label, *({"fraction": _frac(p), "percent": _pct(p)} for p in probs)]
                     for label, probs in self.rows],
            "means": None if self.means is None else [_frac(m) for m in self.means],
        }


def _frac(f: Fraction) -> str:
    return str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"


def _pct(f: Fraction) -> str:
    return f"{float(f) * 100:.1f}%"


def distribution(n_rolls: int, value: Callable[..., Any]) -> dict[Any, Fraction]:
    """Exact distribution of `value(*rolls)` over `n_rolls` independent D4 draws."""
    out: dict[Any, Fraction] = {}
    combos: list[tuple[int, ...]] = [()]
    for _ in range(n_rolls):
        combos = [(*c, r) for c in combos for r in D4]
    weight = Fraction(1, len(D4) ** n_rolls)
    for combo in combos:
        key = value(*combo)
        out[key] = out.get(key, Fraction(0)) + weight
    return out


PLAIN: Abilities = frozenset()
WHO_HAS = {  # how a table names a car with one ability (the character cards say which character has it)
    "extra-damage": "a car that deals 1 extra damage",
    "tough": "a car that takes 1 less from every hit",
    "hazard-free": "a car that drives through hazards",
    "two-strikes": "a car that strikes twice",
    "gunproof": "a car immune to gunfire and drive-bys",
    "mineproof": "a car immune to landmines",
    "first-strike": "a car no first strike hits",
}


def _damage_table(key: str, title: str, ability: str | None, columns: dict[str, dict[int, Fraction]]) -> OddsTable:
    """A table whose rows are HP lost."""
    label = ability or "any"
    who = f", for {WHO_HAS[ability]}" if ability else ""
    values = sorted({v for dist in columns.values() for v in dist})
    rows = tuple((f"-{v} HP" if v else "0 HP", tuple(dist.get(v, Fraction(0)) for dist in columns.values()))
                 for v in values)
    means = tuple(sum((v * p for v, p in dist.items()), Fraction(0)) for dist in columns.values())
    return OddsTable(f"{key}-{label}", title + who, key, label, tuple(columns), "HP lost", rows, means)


def _ab(ability: str | None) -> Abilities:
    return frozenset({ability}) if ability else PLAIN


def _strike_dist(attacker: Abilities, target: Abilities, context: str, source: str) -> dict[int, Fraction]:
    """HP the target loses from all of the attacker's strikes in one action (two for Ariel & FlaMiN)."""
    return distribution(strikes(attacker), lambda *rolls: sum(
        damage_taken(target, strike_hit(attacker, r, context), source) for r in rolls))


def _hazard_outcome(ab: Abilities, roll: int) -> tuple[bool, int]:
    passed, damage = hazard_roll(roll)
    return passed, damage_taken(ab, damage, "hazard")


def _hazard_tables() -> list[OddsTable]:
    out = []
    for ability in (None, "tough", "hazard-free"):
        ab = _ab(ability)
        dist = ({(True, 0): Fraction(1)} if skips_hazard(ab)
                else distribution(1, lambda r, ab=ab: _hazard_outcome(ab, r)))
        order = sorted(dist, key=lambda k: (not k[0], k[1]))
        rows = tuple((f"{'pass' if ok else 'fail'}, {f'-{d} HP' if d else '0 HP'}", (dist[(ok, d)],))
                     for ok, d in order)
        mean = sum((d * pr for (_, d), pr in dist.items()), Fraction(0))
        who = f", for {WHO_HAS[ability]}" if ability else ""
        out.append(OddsTable(f"hazard-attempt-{ability or 'any'}", f"One hazard attempt{who}", "hazard-tiles",
                             ability or "any", ("probability",), "result", rows, (mean,)))
    return out


def _battle_tables() -> list[OddsTable]:
    return [_damage_table("battle-it-out", "Battle-it-out exchange, against a car with no ability", a, {
        "dealt by its strike as the mover": _strike_dist(_ab(a), PLAIN, "battle-it-out", "battle-it-out"),
        "dealt by its counter attack": _strike_dist(_ab(a), PLAIN, "counter", "battle-it-out"),
        "taken from the other car's strike": _strike_dist(PLAIN, _ab(a), "battle-it-out", "battle-it-out"),
    }) for a in (None, "extra-damage", "tough", "two-strikes")]


def _drive_by_tables() -> list[OddsTable]:
    out = []
    for a in (None, "extra-damage", "gunproof", "tough", "two-strikes"):
        ab = frozenset({"extra-damage", "counters-drive-by"}) if a == "extra-damage" else _ab(a)
        columns = {
            "dealt by its drive-by": _strike_dist(ab, PLAIN, "drive-by", "drive-by"),
            "taken from a drive-by": _strike_dist(PLAIN, ab, "drive-by", "drive-by"),
        }
        if counters_drive_by(ab):
            columns["dealt by its counter attack"] = _strike_dist(ab, PLAIN, "counter", "drive-by")
        out.append(_damage_table("drive-by", "Drive-by, against a car with no ability", a, columns))
    return out


def _landmine_tables() -> list[OddsTable]:
    out = []
    for a in (None, "tough", "mineproof"):
        ab = _ab(a)
        out.append(_damage_table("landmine", "Landmine", a, {
            "taken driving over it": distribution(1, lambda r, ab=ab: damage_taken(ab, landmine_hit(r), "landmine")),
            "taken landing on it": {damage_taken(ab, LANDMINE_LANDING, "landmine"): Fraction(1)},
        }))
    return out


def _boss_tables() -> list[OddsTable]:
    out = []
    for a in (None, "extra-damage", "tough", "first-strike", "two-strikes"):
        ab = _ab(a)
        hit = 0 if first_strike_cancelled(ab, False) else damage_taken(ab, FIRST_STRIKE, "first-strike")
        out.append(_damage_table("boss-battle", "Boss battle round: first strike, then the D4 action", a, {
            "boss loses to the D4 action": distribution(
                strikes(ab), lambda *r, ab=ab: sum(strike_hit(ab, x, "boss") for x in r)),
            "player loses to the first strike": {hit: Fraction(1)},
        }))
    return out


def odds() -> list[OddsTable]:
    """Exact distributions for every roll the rulebook resolves on a D4 table."""
    return [*_hazard_tables(), *_battle_tables(), *_drive_by_tables(), *_landmine_tables(), *_boss_tables()]


# ---------------------------------------------------------------------------------------------
# Rating a state (the simulator's greedy policy): a plain sum of what a player can see on the table

WON, LOST = 10_000.0, -10_000.0
RATE = {  # points per unit; one HP is one point
    "drop": 1.5,  # a weapon drop held: worth about half the -3 it deals a boss
    "card": 1.5,  # a power card held
    "boss_hp": 1.0,  # each HP a boss has lost (everyone needs the bosses dead to escape)
    "boss_down": 4.0,  # each boss defeated
    "tile": 0.5,  # each road tile laid (the bosses and the final tile are in the stack)
    "step": 1.5,  # each road tile between the car and where it is heading
    "rival_hp": 0.3,  # each HP a rival still has (1.0 once the final boss is dead: rivals stand in the way)
    "danger": 2.0,  # each rival's landmine or fire drop lying within 2 road tiles of the car
    "trap": 1.0,  # each of its own landmine or fire drops lying within 2 road tiles of a rival
}


def evaluate(s: State, name: str) -> float:
    """How good `s` looks for `name`: HP, drops and cards held, boss damage, road laid, and how far the car
    is from where it is heading (the nearest live sub-boss, then the final tile, else the end of the road)."""
    if s.ended is not None:
        return WON if s.winner == name else LOST
    p = s.players[name]
    if not p.alive:
        return LOST
    rival = RATE["rival_hp"] if not _final_dead(s) else 1.0
    value = p.hp + RATE["drop"] * sum(p.drops.values()) + RATE["card"] * len(p.power)
    value -= rival * sum(q.hp for q in _alive(s) if q.name != name)
    value += sum(RATE["boss_hp"] * (s.box.bosses[b] - hp) + (RATE["boss_down"] if hp == 0 else 0)
                 for b, hp in s.boss_hp.items())
    value += RATE["tile"] * (len(s.tiles) + (s.turn.tile_in_hand is not None))
    value += sum(RATE["drop"] for what, who in s.rewards if who == name and what in ("drop", "supply"))
    value += sum(RATE["card"] for what, who in s.rewards if who == name and what == "power")
    value -= sum(RATE["drop"] for what, who in s.rewards if who == name and what == "discard")
    steps = _steps_to_goal(s, p)
    if s.turn.player == name and s.turn.extra_move is not None:  # a card's move still to make: as good as made
        steps = max(0, steps - s.turn.allowance)
    return value - RATE["step"] * steps - _dangers(s, p)


def _dangers(s: State, p: Player) -> float:
    """Rivals' landmines and fire drops the car could run into (within 2 road tiles), less (at a lower rate)
    the car's own drops that rivals could run into."""
    traps = [d for d in s.board if d.kind in ("landmine", "fire")]
    if not traps:
        return 0.0
    value = 0.0
    for q in _alive(s):
        dist = _distances(s, _tile_of(s, q).id)
        for d in traps:
            if dist.get(d.tile, NEAR + 1) <= NEAR:
                if q is p and d.owner != p.name:
                    value += RATE["danger"]
                elif q is not p and d.owner == p.name:
                    value -= RATE["trap"]
    return value


def _steps_to_goal(s: State, p: Player) -> int:
    """Road tiles from the car to its goal: a live sub-boss, else the final tile, else an open road end (kept
    for the layout, by the car's tile and which bosses live: every look-ahead asks for it)."""
    key = ("goal", p.tile, *map(bool, s.boss_hp.values()))  # boss HP never goes below 0
    known = _layout(s)
    if key not in known:
        known[key] = _goal_distance(s, _tile_of(s, p))
    return known[key]


def _goal_distance(s: State, here: Tile) -> int:
    if _boss_alive(s, here) or here.kind == "final-boss":
        return 0
    dist = _distances(s, here.id)
    live = [t.id for t in _boss_tiles(s) if _boss_alive(s, t)]
    final = _final_tile(s)
    if live:
        goals = live
    elif final is not None and _subs_dead(s):
        goals = [final.id]
    else:
        goals = _open_ends(s)
    return min((dist[g] for g in goals if g in dist), default=len(s.tiles))


def _boss_tiles(s: State) -> list[Tile]:
    """The sub-boss tiles laid, in the order laid (kept for the layout: read-only)."""
    known = _layout(s)
    if ("boss-tiles",) not in known:
        known[("boss-tiles",)] = [t for t in s.tiles.values() if t.kind == "boss"]
    return known[("boss-tiles",)]


def _open_ends(s: State) -> list[str]:
    """The tiles with an exit onto an empty space (kept for the layout: read-only)."""
    known = _layout(s)
    if ("open-ends",) not in known:
        known[("open-ends",)] = [t.id for t in s.tiles.values() if any(
            (t.x + DIRS[d][0], t.y + DIRS[d][1]) not in s.spots for d in t.exits)]
    return known[("open-ends",)]


# ---------------------------------------------------------------------------------------------
# The engine contract


class EscapeDeathrace(Engine):
    # A bound, not a typical length (a random game takes a few hundred actions): the draft, then the round
    # limit times four cars times the most one turn can hold: the draw and the drive 2, drawing and laying
    # the 19 road tiles a game has 38 (by movement draws and Roll Again! cards alike), nitro draws 4, 13
    # event cards at a drive and a choice each 26, a power card's play, move and choice 3, up to 8 strike
    # choices on each of 20 landings (the drive, a hazard pass, 4 nitro draws, 13 event moves, a power
    # card's move), rewards for 4 bosses and 3 cars 26, the rest 8.
    type = GameType(name="Escape Deathrace 2182 Micro", min_players=1, max_players=MAX_PLAYERS,
                    information="imperfect",  # face-down road stack, power and event decks
                    max_actions=16 + MAX_PLAYERS * DEFAULT_ROUND_LIMIT * 270)
    setup_spec = SetupSpec
    action_specs = ACTION_SPECS
    options_spec = Options
    facts_specs = FACTS_SPECS

    def initial_state(self, setup: SetupSpec, content: GameContent) -> State:
        return initial_state(setup, Box.of(content))

    def new_game(self, options: Options, content: GameContent, chance: Chance) -> State:
        return new_game(options, Box.of(content), chance)

    def players_to_act(self, state: State) -> list[str]:
        who = actor(state)
        return [] if who is None else [who]

    def legal_actions(self, state: State, player: str | None = None) -> list[Action]:
        if player is not None and player != actor(state):
            return []
        return list(legal(state))

    def apply(self, state: State, action: Action, chance: Chance) -> tuple[State, list[Event]]:
        if type(action) not in ACTION_SPECS.values():
            raise SetupError((), "not an Escape Deathrace action")
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
        return [t.as_dict() for t in odds()]

    def describe_action(self, action: Any, state: Any = None, content: GameContent | None = None) -> str:
        return _describe(action, state)

    def describe_random(self, label: str, value: Any, content: GameContent | None = None) -> str:
        return describe_random(label, value, content.name if content is not None else str)

    def evaluate(self, state: State, player: str) -> float | None:
        return evaluate(state, player)

    def describe_end(self, state: State, content: GameContent | None = None) -> str:
        return describe_end(state)

    def simulation_setups(self) -> list[Setting]:
        return [Setting(f"{n} players", {"players": n}) for n in (2, 3, 4)]


GAME = EscapeDeathrace()
