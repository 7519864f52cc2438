"""Vampire chase (untitled), as an executable rules model (source: ../shared/rulebooks/vampire-chase.txt).

A solo deckbuilder. One player drives two vampires (the Driver and the Passenger, each with a draw deck
and a discard pile), blocks one of three gears each turn, buys from a market with corpses, and fights an
enemy gang whose cards sit on a ring of six Chase Board slots.

Facts the rulebook prints (setup counts, Health 9 and Shield 0, the speed zones, at most -2 HP per speed
check, up to 3 cards played, a hand of 5) are constants here or facts of the boards in content. Every
card (vampire cards, enemies, bosses, missions) is a house design read from the content faces' `facts:`
(`facts_specs`); card effects are a small data vocabulary (`Effect`, `EnemyEffect`), so no card is
hard-coded by name.

Ring
    Slots 1..6; clockwise is counting up (#1 is the vehicle's start, #2 the space in front of it, the
    rest filled clockwise). Ring distance is the shorter way round.

Setup (scenarios; every key optional)
    mission, driver, passenger, checkpoint (1-based, which of the mission's tiers is being fought)
    ring: six entries, slot 1 first: "vehicle", an enemy card id, {card, health}, or null (empty)
    reserves: {"1": [top .. bottom], "2": [...], "3": [...]} (boss, if any, at the bottom)
    driver_deck / passenger_deck (top first), driver_discard / passenger_discard, hand
    played: [{card, enhanced}], tucked: [cards], speed_bonus
    market_deck (top first), market_row, gears {play, move, market}: a gear card id or null
    phase: shift | draw | actions | hand | reward;  shifter: the gear the Gear-Shifter covers (in the
    shift phase: where it stayed last turn); done: gears whose action is taken this turn
    turn, health, shield, corpses, buried, graveyard, kills (slots where enemies died this turn),
    overkills (this checkpoint), retaliate

Actions
    {do: shift, gear: play|move|market}      {do: draw, driver: n, passenger: n}
    {do: play, card, enhance: bool, target: slot}   {do: tuck, card}      {do: move, to: slot}
    {do: buy, card}   {do: trash, card, pile: hand|discard}   {do: cycle, order: [three cards]}
    {do: end_turn, speed: n}  (speed: the gauge total chosen, when the PLAY action was taken)
    {do: reward, card}   {do: discard, card}   {do: keep}

The engine's readings where the rulebook is silent or unclear are in NOTES (shown on the site).
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, ClassVar, Literal

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

# --- facts printed in the rulebook ---------------------------------------------------------------

SLOTS = (1, 2, 3, 4, 5, 6)  # Chase Board: six numbered locations on a ring
VEHICLE_START = 1  # Setup 5: the vehicle on location #1
START_ENEMIES = 5  # Setup 6: five Tier-I enemies fill the other locations from #2 clockwise
HAND_SIZE = 5  # Player Turn 2 (draw up to 5) and Cleanup 3 (discard down to 5)
PLAY_LIMIT = 3  # Action PLAY: up to 3 Vampire cards
MARKET_ROW = 3  # Setup 4: three cards face up
GEARS = ("play", "move", "market")  # the three gear slots are the three actions
GAUGE_MIN, GAUGE_MAX = 1, 6  # Check Speed: you cannot go below segment 1 or above 6
ZONES = ((1, 2, "Cyan", "Cautious"), (3, 4, "Purple", "Moderate"), (5, 6, "Dark Blue", "Fast"))
MAX_SPEED_DAMAGE = 2  # -1 HP per colour zone of difference (max -2 HP)
ENHANCE_COST = 1  # Bury a Corpse to Enhance
PLAYER = "player"

Gear = Literal["play", "move", "market"]
Role = Literal["driver", "passenger"]
ROLES: tuple[Role, Role] = ("driver", "passenger")

NOTES: tuple[tuple[str, str], ...] = (
    ("check-speed", "The speed total is chosen when the turn ends (the end-turn step names it): a card with a "
     "choice of speed values counts as either, and the total is then held between 1 and 6."),
    ("check-speed", "The range compared is the one on the back of the top card of the reserve of the tier being "
     "fought; when that reserve is empty, the tier's default printed on the Side Board. A range spanning several "
     "zones costs nothing if the gauge is in any of them."),
    ("check-speed", "Speed-check damage comes off Health directly (the rulebook writes it as -1 HP); Shield only "
     "stops enemy attacks."),
    ("enemy-activation", "Activation starts with the enemy in the lowest-numbered slot next to the vehicle that "
     "holds an enemy (if neither neighbour holds one, from the lower-numbered neighbour) and goes clockwise once "
     "round the ring. Late enemies then activate in the same order, then the End-of-turn effects of Final "
     "Activation enemies."),
    ("enemy-activation", "An enemy reduced below 1 Health during its own activation finishes it and is then "
     "removed; a Final Activation effect it had not yet resolved is lost with it."),
    ("enemy-activation", "An enemy that moves during activation goes one slot the shorter way towards the vehicle "
     "(ties to the lower-numbered slot) and swaps with an enemy standing there; it never enters the vehicle's slot."),
    ("reposition", "Repositioning is read as closing in on the vehicle: repeatedly, the enemy in the lowest-"
     "numbered slot that can reach an empty slot nearer the vehicle slides to the nearest such slot (ring distance, "
     "shorter way; ties to the lower-numbered slot), until no enemy can. Read literally (every enemy moves to the "
     "nearest empty slot), each move empties another slot and the step never ends."),
    ("enemy-arrival", "Arrivals come from the reserve of the tier being fought. The slots where enemies were killed "
     "this turn stay empty this cleanup if no surviving enemy took them."),
    ("checkpoint-passed", "All enemies are defeated when none is on the Chase Board and none is left in the reserve "
     "of the tier being fought. A PLAY turn that empties the board while that reserve still holds cards goes on to "
     "the chase (a speed check with no one to activate) and to cleanup, where enemies arrive."),
    ("checkpoint-passed", "The next checkpoint of the mission starts like setup steps 5 and 6 with the next tier: the "
     "vehicle on #1 and five of that tier's cards from #2 clockwise; Health, decks, corpses and gears carry over."),
    ("play-action", "Playing at least one card counts as taking the PLAY action. Once another action begins, PLAY is "
     "over. Tucking is allowed once a card has been played, for any number of cards, and ends the playing of cards."),
    ("play-action", "All the targeted effects of one card share one target (the enemy it hits or the slot it moves "
     "to). An enemy brought below 1 Health stays until the card has resolved, so an Enhance can overkill it."),
    ("market-action", "A replaced gear card goes to the Graveyard. Gear effects happen when their action is taken: "
     "PLAY and MARKET gears as the action begins, MOVE gears after the move."),
    ("draw-hand", "A vampire's discard is shuffled into a new draw deck as soon as the deck runs out while drawing "
     "(and, if the discard was empty then, when the next card is needed)."),
    ("enemies-defeated", "An enemy is overkilled when it is removed with Health below 0 (more damage than it had "
     "left)."),
    ("mission", "Each house mission card prints the tiers fought (one checkpoint each), the turn dawn comes on and "
     "the Health healed between checkpoints; the mission is lost at dawn, or when Health reaches 0. Health never "
     "rises above its starting 9."),
)


# --- content facts (read from the faces' facts:) ----------------------------------------------------

EffectKind = Literal["damage", "shield", "heal", "move", "draw", "corpse", "speed", "retaliate"]
Reach = Literal["adjacent", "any", "all-adjacent", "all"]
TARGETED = ("adjacent", "any")


@dataclass(frozen=True)
class Effect:
    """One effect of a vampire or gear card."""

    do: EffectKind = field(metadata={
        "doc": "what happens: damage enemies; shield, heal or corpse adds that much; draw: cards from the card's "
               "vampire's deck; move: the vehicle to the card's target slot; speed: added to the speed total; "
               "retaliate: damage back to each enemy that attacks this turn"})
    amount: int = field(default=1, metadata={"doc": "how much (speed may be negative; move ignores it)",
                                             "min": -6, "max": 9})
    range: Reach = field(default="adjacent", metadata={
        "doc": "damage only: adjacent (the card's target, next to the vehicle), any (the card's target, anywhere), "
               "all-adjacent (every enemy next to the vehicle) or all (every enemy)"})

    @property
    def targeted(self) -> bool:
        return self.do == "move" or (self.do == "damage" and self.range in TARGETED)

    def check(self) -> tuple[str, str] | None:
        if self.do != "speed" and self.amount < 1 and self.do != "move":
            return "amount", "only a speed effect can be 0 or negative"
        return None


@dataclass(frozen=True)
class VampireCard:
    """Facts of a vampire card (Starter or Advanced; ability or gear)."""

    vampire: str = field(metadata={"doc": "the vampire whose deck it belongs to"})
    set: Literal["starter", "advanced"] = field(metadata={"doc": "starter deck or market (advanced)"})
    kind: Literal["ability", "gear"] = field(default="ability", metadata={
        "doc": "ability: played from the hand; gear: goes onto the Gear Board when bought"})
    cost: int = field(default=0, metadata={"doc": "corpses to buy it (top-left)", "min": 0, "max": 9})
    speed: tuple[int, ...] = field(default=(), metadata={"doc": "the speed symbol: one value, or a choice"})
    effects: tuple[Effect, ...] = field(default=(), metadata={
        "doc": "what it does when played, in order (a gear: each time its action is taken)"})
    enhance: tuple[Effect, ...] = field(default=(), metadata={"doc": "applied after the effects if a corpse is buried"})
    gear: Gear | None = field(default=None, metadata={"doc": "gear cards: the gear slot it replaces"})
    plays: int | None = field(default=None, metadata={"doc": "PLAY gears: cards that may be played", "min": 1})

    def check(self) -> tuple[str, str] | None:
        if self.kind == "gear":
            if self.gear is None:
                return "gear", "a gear card names the gear slot it replaces"
            if any(e.targeted for e in self.effects) or self.enhance:
                return "effects", "a gear's effects have no target and no Enhance"
            if self.plays is not None and self.gear != "play":
                return "plays", "only a PLAY gear changes how many cards are played"
            return None
        if self.gear is not None or self.plays is not None:
            return "gear", "only gear cards have a gear slot"
        if len(self.speed) not in (1, 2):
            return "speed", "an ability card shows one speed value, or a choice of two"
        targeted = {(e.do, e.range if e.do == "damage" else "") for e in (*self.effects, *self.enhance) if e.targeted}
        if len(targeted) > 1:
            return "enhance", "all targeted effects of a card share its one target: use one kind and range"
        return None


EnemyKind = Literal["attack", "heal", "move", "destruct"]


@dataclass(frozen=True)
class EnemyEffect:
    """One ability of an enemy card, resolved top-down."""

    do: EnemyKind = field(metadata={
        "doc": "attack: the player loses amount (Shield first); heal: enemy Health back, never above the card's; "
               "move: one slot towards the vehicle unless next to it; destruct: its own Health drops to 0"})
    amount: int = field(default=1, metadata={"doc": "damage dealt or Health healed", "min": 1, "max": 9})
    range: Literal["adjacent", "any", "self", "all"] = field(
        default="adjacent", metadata={"doc": "attack: adjacent or any; heal: self or all"})

    def check(self) -> tuple[str, str] | None:
        if self.do == "attack" and self.range not in ("adjacent", "any"):
            return "range", "an attack reaches adjacent or any"
        if self.do == "heal" and self.range not in ("self", "all"):
            return "range", "a heal is self or all"
        return None


@dataclass(frozen=True)
class EnemyCard:
    """Facts of an enemy gang card (front and the speed range on its back)."""

    tier: Literal[1, 2, 3] = field(metadata={"doc": "the tier reserve it belongs to (I, II or III)"})
    health: int = field(metadata={"min": 1, "max": 6, "doc": "starting Health (shown with a die)"})
    range: tuple[int, ...] = field(metadata={"doc": "speed range on the back: [low, high]"})
    abilities: tuple[EnemyEffect, ...] = field(default=(), metadata={
        "doc": "what it does when it activates, top-down"})
    boss: bool = field(default=False, metadata={"doc": "the tier's boss: it waits at the bottom of the reserve"})
    timing: Literal["normal", "late", "ongoing"] = field(default="normal", metadata={
        "doc": "normal: activates in clockwise order; late: after all the others; ongoing: only when its trigger "
               "happens, never in Chase Activation"})
    trigger: Literal["move", "defeat"] | None = field(
        default=None, metadata={"doc": "Ongoing: when the vehicle moves, or when another enemy is defeated"})
    eot: tuple[EnemyEffect, ...] = field(default=(), metadata={"doc": "end-of-turn effects, after its abilities"})
    final: bool = field(default=False, metadata={"doc": "Final Activation: its end-of-turn effects resolve last"})
    corpses: int = field(default=1, metadata={"min": 0, "max": 9, "doc": "corpses gained when it is defeated"})

    def check(self) -> tuple[str, str] | None:
        if len(self.range) != 2 or not GAUGE_MIN <= self.range[0] <= self.range[1] <= GAUGE_MAX:
            return "range", "a speed range is [low, high] within 1..6"
        if (self.timing == "ongoing") != (self.trigger is not None):
            return "trigger", "an Ongoing enemy names its trigger, and only an Ongoing one"
        if self.final and not self.eot:
            return "final", "a Final Activation enemy has end-of-turn effects"
        return None


@dataclass(frozen=True)
class Mission:
    """Facts of a mission card."""

    difficulty: int = field(metadata={"doc": "the difficulty printed on the card (stars)", "min": 1, "max": 5})
    tiers: tuple[Literal[1, 2, 3], ...] = field(metadata={"doc": "the tier fought at each checkpoint, in order"})
    dawn: int = field(metadata={"min": 1, "max": 99, "doc": "the last turn before sunrise"})
    overkills: int = field(default=2, metadata={"min": 1, "doc": "Checkpoint Bonus Objective: enemies to overkill"})
    rest: int = field(default=0, metadata={"min": 0, "doc": "Health healed at each Checkpoint Passed but the last"})

    def check(self) -> tuple[str, str] | None:
        if not self.tiers:
            return "tiers", "a mission has at least one checkpoint"
        return None


@dataclass(frozen=True)
class SideBoard:
    """The Side Board's printed default speeds of the three tier reserve locations."""

    defaults: tuple[tuple[int, ...], ...] = field(metadata={"doc": "tier I, II, III default speed ranges"})

    def check(self) -> tuple[str, str] | None:
        if len(self.defaults) != 3 or any(len(r) != 2 or not 1 <= r[0] <= r[1] <= 6 for r in self.defaults):
            return "defaults", "three ranges [low, high], one per tier"
        return None


@dataclass(frozen=True)
class PlayerBoard:
    """Setup 7: the player board's starting Health and Shield."""

    health: int = field(metadata={"doc": "starting Health, also the most Health can be", "min": 1})
    shield: int = field(default=0, metadata={"doc": "starting Shield", "min": 0})


# --- the game's content as the rules read it ---------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Library:
    """Every card's facts by id, shared (never copied) by all states of a game."""

    vampire_cards: Mapping[str, VampireCard]
    titles: Mapping[str, str]
    counts: Mapping[str, int]
    enemies: Mapping[str, EnemyCard]
    missions: Mapping[str, Mission]
    defaults: Mapping[int, tuple[int, int]]
    start_health: int
    start_shield: int

    def __deepcopy__(self, memo: dict[int, Any]) -> Library:
        return self  # immutable facts

    def vampires(self) -> list[str]:
        return sorted({c.vampire for c in self.vampire_cards.values()})

    def cards_of(self, vampire: str, set_name: str) -> list[str]:
        out: list[str] = []
        for cid, card in self.vampire_cards.items():
            if card.vampire == vampire and card.set == set_name:
                out += [cid] * self.counts[cid]
        return out

    def tier_cards(self, tier: int) -> tuple[list[str], list[str]]:
        """(regular cards, bosses) of a tier, each repeated by its count."""
        regular: list[str] = []
        bosses: list[str] = []
        for cid, card in self.enemies.items():
            if card.tier == tier:
                (bosses if card.boss else regular).extend([cid] * self.counts[cid])
        return regular, bosses


def library(content: GameContent) -> Library:
    vampire_cards: dict[str, VampireCard] = {}
    enemies: dict[str, EnemyCard] = {}
    missions: dict[str, Mission] = {}
    titles: dict[str, str] = {}
    counts: dict[str, int] = {}
    defaults: dict[int, tuple[int, int]] = {}
    start = (9, 0)
    for faces in content.components.values():
        for face in faces:
            facts = face.facts
            titles[face.id] = face.title
            counts[face.id] = face.count
            if isinstance(facts, VampireCard):
                vampire_cards[face.id] = facts
            elif isinstance(facts, EnemyCard):
                enemies[face.id] = facts
            elif isinstance(facts, Mission):
                missions[face.id] = facts
            elif isinstance(facts, SideBoard):
                defaults = {i + 1: (r[0], r[1]) for i, r in enumerate(facts.defaults)}
            elif isinstance(facts, PlayerBoard):
                start = (facts.health, facts.shield)
    return Library(vampire_cards, titles, counts, enemies, missions, defaults, start[0], start[1])


# --- state -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Enemy:
    """An enemy card on the Chase Board; its Health is shown by the die on it."""

    card: str
    health: int
    uid: int


@dataclass(frozen=True)
class Played:
    card: str
    enhanced: bool = False


Phase = Literal["shift", "draw", "actions", "hand", "reward", "over"]


@dataclass
class State:
    lib: Library = field(compare=False, repr=False)
    mission: str
    checkpoint: int  # 0-based index into the mission's tiers
    vampires: dict[str, str]  # role -> vampire id
    vehicle: int
    ring: dict[int, Enemy | None]
    reserves: dict[int, list[str]]  # tier -> cards, top first
    decks: dict[str, list[str]]  # role -> cards, top first
    discards: dict[str, list[str]]
    hand: list[str]
    played: list[Played]
    tucked: list[str]
    speed_bonus: int
    market_deck: list[str]
    market_row: list[str]
    gears: dict[str, str | None]
    shifter: str | None
    phase: Phase
    done: list[str]  # gears whose action was taken (or begun) this turn, in order
    turn: int
    health: int
    shield: int
    corpses: int
    buried: int
    graveyard: list[str]
    kills: list[int]
    overkills: int
    retaliate: int
    next_uid: int
    result: str | None = None  # won | lost
    reason: str | None = None
    checkpoint_done: bool = False  # in the reward/hand phases after a checkpoint is passed
    gauge: int | None = None  # the last speed check's gauge
    stats: dict[str, int] = field(default_factory=dict)

    def copy(self) -> State:
        return replace(
            self, vampires=dict(self.vampires), ring=dict(self.ring),
            reserves={k: list(v) for k, v in self.reserves.items()},
            decks={k: list(v) for k, v in self.decks.items()}, discards={k: list(v) for k, v in self.discards.items()},
            hand=list(self.hand), played=list(self.played), tucked=list(self.tucked),
            market_deck=list(self.market_deck), market_row=list(self.market_row), gears=dict(self.gears),
            done=list(self.done), graveyard=list(self.graveyard), kills=list(self.kills), stats=dict(self.stats))

    # -- derived --

    @property
    def tier(self) -> int:
        return self.lib.missions[self.mission].tiers[self.checkpoint]

    @property
    def open_gears(self) -> list[str]:
        return [g for g in GEARS if g != self.shifter]

    @property
    def play_started(self) -> bool:
        return bool(self.played)

    def role_of(self, card: str) -> str:
        vampire = self.lib.vampire_cards[card].vampire
        for role, v in self.vampires.items():
            if v == vampire:
                return role
        raise KeyError(card)

    def enemies(self) -> list[tuple[int, Enemy]]:
        return [(s, e) for s in SLOTS if (e := self.ring[s]) is not None]

    def find(self, uid: int) -> int | None:
        for s in SLOTS:
            e = self.ring[s]
            if e is not None and e.uid == uid:
                return s
        return None

    def bump(self, key: str, n: int = 1) -> None:
        self.stats[key] = self.stats.get(key, 0) + n


# --- ring geometry -----------------------------------------------------------------------------------


def ring_distance(a: int, b: int) -> int:
    d = abs(a - b) % len(SLOTS)
    return min(d, len(SLOTS) - d)


def step(slot: int, direction: int) -> int:
    return (slot - 1 + direction) % len(SLOTS) + 1


def neighbours(slot: int) -> tuple[int, int]:
    return step(slot, -1), step(slot, 1)


def adjacent(a: int, b: int) -> bool:
    return ring_distance(a, b) == 1


def clockwise_from(start: int) -> list[int]:
    return [step(start, i) for i in range(len(SLOTS))]


def move_destinations(state: State) -> list[int]:
    """MOVE: through any number of empty slots, forward or back; entering an occupied slot ends it."""
    out: set[int] = set()
    for direction in (1, -1):
        slot = state.vehicle
        for _ in range(len(SLOTS) - 1):
            slot = step(slot, direction)
            out.add(slot)
            if state.ring[slot] is not None:
                break
    return sorted(out)


# --- speed ---------------------------------------------------------------------------------------------


def zone(gauge: int) -> int:
    for i, (low, high, _, _) in enumerate(ZONES):
        if low <= gauge <= high:
            return i
    raise ValueError(gauge)


def clamp_speed(total: int) -> int:
    return max(GAUGE_MIN, min(GAUGE_MAX, total))


def speed_damage(gauge: int, rng: tuple[int, int]) -> int:
    """Check Speed: no damage inside the range's zone(s); -1 HP per zone of difference, at most -2."""
    diff = min(abs(zone(gauge) - zone(s)) for s in range(rng[0], rng[1] + 1))
    return min(MAX_SPEED_DAMAGE, diff)


def reachable_speeds(values: Sequence[tuple[int, ...]], bonus: int = 0) -> list[int]:
    """Every gauge value the cards' speed symbols (one choice per card) can set, clamped to 1..6."""
    totals = {bonus}
    for options in values:
        totals = {t + v for t in totals for v in options}
    return sorted({clamp_speed(t) for t in totals})


def chase_range(state: State) -> tuple[int, int]:
    """The speed range to match: the back of the tier's top reserve card, or the tier's printed default."""
    reserve = state.reserves[state.tier]
    if reserve:
        low, high = state.lib.enemies[reserve[0]].range
        return low, high
    return state.lib.defaults[state.tier]


def zone_name(gauge: int) -> str:
    return ZONES[zone(gauge)][2]


# --- specs -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class EnemySpec:
    """An enemy on a Chase Board slot, with its Health if it has been hurt."""

    card: str = field(metadata={"doc": "the enemy card's id"})
    health: int | None = field(default=None, metadata={"doc": "current Health (default: the card's)"})


@dataclass(frozen=True)
class PlayedSpec:
    """A card played this turn."""

    card: str = field(metadata={"doc": "the vampire card's id"})
    enhanced: bool = field(default=False, metadata={"doc": "a corpse was buried to apply its Enhance section"})


@dataclass(frozen=True)
class GearsSpec:
    """The gear cards on the Gear Board, one per gear slot; null: no gear card there."""

    play: str | None = field(default=None, metadata={"doc": "the PLAY gear card's id (null: none)"})
    move: str | None = field(default=None, metadata={"doc": "the MOVE gear card's id (null: none)"})
    market: str | None = field(default=None, metadata={"doc": "the MARKET gear card's id (null: none)"})


@dataclass(frozen=True)
class ReservesSpec:
    """The three tier reserve decks on the Side Board, by tier."""

    tier1: tuple[str, ...] = field(default=(), metadata={
        "key": "1", "doc": "tier I reserve, top first (its boss, if any, at the bottom)"})
    tier2: tuple[str, ...] = field(default=(), metadata={
        "key": "2", "doc": "tier II reserve, top first (its boss, if any, at the bottom)"})
    tier3: tuple[str, ...] = field(default=(), metadata={
        "key": "3", "doc": "tier III reserve, top first (its boss, if any, at the bottom)"})


RingEntry = str | EnemySpec | None


@dataclass(frozen=True)
class SetupSpec:
    """A scenario's starting state: the chase at some step of a turn (the vehicle on slot 1 and an empty ring
    unless given)."""

    mission: str = field(default="last-orders", metadata={"doc": "the mission card's id"})
    driver: str = field(default="ilse", metadata={"doc": "the Driver vampire, as its cards' facts name it"})
    passenger: str = field(default="caspar", metadata={"doc": "the Passenger vampire, not the Driver"})
    checkpoint: int = field(default=1, metadata={
        "doc": "which of the mission's checkpoints is being fought, from 1 (the mission card gives each one's tier)",
        "min": 1, "max": 3})
    ring: tuple[RingEntry, ...] = field(default=("vehicle", None, None, None, None, None),
                                        metadata={"doc": "slots 1..6: vehicle, an enemy card, {card, health} or null"})
    reserves: ReservesSpec = field(default_factory=ReservesSpec, metadata={
        "doc": 'the enemy cards left in each tier reserve, as {"1": [...], "2": [...], "3": [...]}'})
    driver_deck: tuple[str, ...] = field(default=(), metadata={"doc": "the Driver's draw deck, top first"})
    passenger_deck: tuple[str, ...] = field(default=(), metadata={"doc": "the Passenger's draw deck, top first"})
    driver_discard: tuple[str, ...] = field(default=(), metadata={"doc": "the Driver's discard pile"})
    passenger_discard: tuple[str, ...] = field(default=(), metadata={"doc": "the Passenger's discard pile"})
    hand: tuple[str, ...] = field(default=(), metadata={"doc": "the cards in hand (either vampire's; no gear cards)"})
    played: tuple[PlayedSpec, ...] = field(default=(), metadata={
        "doc": "the cards played this turn, in order (phase actions, with play in done)"})
    tucked: tuple[str, ...] = field(default=(), metadata={
        "doc": "the cards tucked under the played ones this turn: only their speed symbols count"})
    speed_bonus: int = field(default=0, metadata={
        "doc": "speed added by speed effects this turn, on top of the cards' speed symbols"})
    market_deck: tuple[str, ...] = field(default=(), metadata={"doc": "the Market Deck, top first"})
    market_row: tuple[str, ...] = field(default=(), metadata={"doc": "the face-up Market Row, at most 3 cards"})
    gears: GearsSpec = field(default_factory=GearsSpec, metadata={"doc": "the gear cards on the Gear Board"})
    phase: Literal["shift", "draw", "actions", "hand", "reward"] = field(default="shift", metadata={
        "doc": "the step the turn is at: shift (Shift Gears), draw (Draw hand), actions (the actions, then "
               "end_turn), hand (cleanup: discard down to 5, then keep) or reward (the Checkpoint Bonus Reward)"})
    shifter: Gear | None = field(default=None, metadata={
        "doc": "the gear slot the Gear-Shifter covers (required after the shift step); in the shift step, where it "
               "stood last turn, so it must move; null: not placed yet (the first turn)"})
    done: tuple[Gear, ...] = field(default=(), metadata={
        "doc": "the actions (by gear) taken or begun this turn, in order"})
    turn: int = field(default=1, metadata={
        "doc": "the turn number, from 1; the mission is lost when the mission card's dawn turn ends", "min": 1})
    health: int | None = field(default=None, metadata={
        "doc": "the player's Health (0 loses); default: the player board's starting Health, also its most",
        "min": 1})
    shield: int = field(default=0, metadata={
        "doc": "Shield: it absorbs enemy attack damage first and is set to 0 at cleanup", "min": 0})
    corpses: int = field(default=0, metadata={
        "doc": "corpses in the Corpse Pile, buried to buy cards and to Enhance", "min": 0})
    buried: int = field(default=0, metadata={"doc": "corpses buried so far in the game (a tally)", "min": 0})
    graveyard: tuple[str, ...] = field(default=(), metadata={"doc": "trashed cards and replaced gear cards"})
    kills: tuple[int, ...] = field(default=(), metadata={
        "doc": "slots where enemies were defeated this turn (empty now): cleanup brings no reserve enemy there"})
    overkills: int = field(default=0, metadata={
        "doc": "enemies overkilled at this checkpoint (removed below 0 Health); the mission card says how many earn "
               "the Checkpoint Bonus Reward", "min": 0})
    retaliate: int = field(default=0, metadata={
        "doc": "damage dealt back to each enemy that attacks the player this turn (from retaliate effects)",
        "min": 0})


@dataclass(frozen=True)
class Options:
    """A whole game: which mission, and which vampire drives."""

    mission: str = field(default="last-orders", metadata={"doc": "the mission card's id"})
    driver: str = field(default="ilse", metadata={"doc": "the Driver vampire, as its cards' facts name it"})
    passenger: str = field(default="caspar", metadata={"doc": "the Passenger vampire, not the Driver"})


@dataclass(frozen=True)
class ShiftAction:
    """Shift Gears: cover one gear slot with the Gear-Shifter; the other two are this turn's actions."""

    do: Literal["shift"]
    gear: Gear = field(metadata={"doc": "the slot covered (not the one it covered last turn)"})


@dataclass(frozen=True)
class DrawAction:
    """Draw hand: up to 5 cards, from the two vampires' decks in any split."""

    do: Literal["draw"]
    driver: int = field(default=0, metadata={"doc": "cards drawn from the Driver's deck", "min": 0})
    passenger: int = field(default=0, metadata={"doc": "cards drawn from the Passenger's deck", "min": 0})


@dataclass(frozen=True)
class PlayAction:
    """PLAY: play a card from the hand; it acts at once."""

    do: Literal["play"]
    card: str = field(metadata={"doc": "the card's id, from the hand"})
    enhance: bool = field(default=False, metadata={
        "doc": "bury a corpse to apply its Enhance section after its effects"})
    target: int | None = field(default=None, metadata={
        "doc": "the Chase Board slot (1 to 6) of its targeted effects: the enemy to damage, or the slot to move to; "
               "null when it has none or nothing can be targeted"})


@dataclass(frozen=True)
class TuckAction:
    """PLAY: tuck a card from the hand under the played cards, for its speed symbol only."""

    do: Literal["tuck"]
    card: str = field(metadata={"doc": "the card's id, from the hand"})


@dataclass(frozen=True)
class MoveAction:
    """MOVE: the vehicle moves through empty slots; entering an occupied one swaps with its enemy."""

    do: Literal["move"]
    to: int = field(metadata={"doc": "the Chase Board slot (1 to 6) the vehicle ends on"})


@dataclass(frozen=True)
class BuyAction:
    """MARKET: buy a Market Row card by burying its cost in corpses."""

    do: Literal["buy"]
    card: str = field(metadata={"doc": "the card's id, from the Market Row"})


@dataclass(frozen=True)
class TrashAction:
    """MARKET: send a card to the Graveyard."""

    do: Literal["trash"]
    card: str = field(metadata={"doc": "the card's id"})
    pile: Literal["hand", "discard"] = field(default="hand", metadata={
        "doc": "where it is: the hand, or its vampire's discard pile"})


@dataclass(frozen=True)
class CycleAction:
    """MARKET: the Market Row goes under the Market Deck, and three new cards are turned up."""

    do: Literal["cycle"]
    order: tuple[str, ...] = field(metadata={
        "doc": "all the Market Row's cards, in the order they go under the deck (the first nearest the top)"})


@dataclass(frozen=True)
class EndTurnAction:
    """End the actions: after a PLAY action come the speed check, the chase and cleanup (or Checkpoint Passed)."""

    do: Literal["end_turn"]
    speed: int | None = field(default=None, metadata={
        "doc": "when cards were played (only then): the speed total chosen, 1 to 6, one the played and tucked "
               "cards' speed symbols and speed effects can make"})


@dataclass(frozen=True)
class RewardAction:
    """Checkpoint Bonus Reward: take a card from the Market Row."""

    do: Literal["reward"]
    card: str = field(metadata={"doc": "the card's id, from the Market Row"})


@dataclass(frozen=True)
class DiscardAction:
    """Cleanup: discard a card from the hand to its vampire's discard pile."""

    do: Literal["discard"]
    card: str = field(metadata={"doc": "the card's id, from the hand"})


@dataclass(frozen=True)
class KeepAction:
    """Cleanup: keep the rest of the hand (at most 5); Shield goes to 0 and the next turn begins."""

    do: Literal["keep"]


ACTIONS: dict[str, type] = {
    "shift": ShiftAction, "draw": DrawAction, "play": PlayAction, "tuck": TuckAction, "move": MoveAction,
    "buy": BuyAction, "trash": TrashAction, "cycle": CycleAction, "end_turn": EndTurnAction,
    "reward": RewardAction, "discard": DiscardAction, "keep": KeepAction,
}


# --- building states ---------------------------------------------------------------------------------


def _check_vampires(lib: Library, driver: str, passenger: str, at: tuple[str, ...] = ()) -> None:
    known = lib.vampires()
    for key, v in (("driver", driver), ("passenger", passenger)):
        if v not in known:
            raise SetupError((*at, key), f"unknown vampire {v!r}; the vampires are {', '.join(known)}")
    if driver == passenger:
        raise SetupError((*at, "passenger"), "the Driver and the Passenger are two different vampires")


def _check_mission(lib: Library, mission: str) -> None:
    if mission not in lib.missions:
        raise SetupError(("mission",), f"unknown mission {mission!r}; missions: {', '.join(sorted(lib.missions))}")


def new_state(lib: Library, mission: str, driver: str, passenger: str) -> State:
    return State(
        lib=lib, mission=mission, checkpoint=0, vampires={"driver": driver, "passenger": passenger},
        vehicle=VEHICLE_START, ring={s: None for s in SLOTS}, reserves={1: [], 2: [], 3: []},
        decks={"driver": [], "passenger": []}, discards={"driver": [], "passenger": []}, hand=[], played=[],
        tucked=[], speed_bonus=0, market_deck=[], market_row=[], gears={g: None for g in GEARS}, shifter=None,
        phase="shift", done=[], turn=1, health=lib.start_health, shield=lib.start_shield, corpses=0, buried=0,
        graveyard=[], kills=[], overkills=0, retaliate=0, next_uid=1)


def _place(state: State, slot: int, card: str, health: int | None = None) -> None:
    state.ring[slot] = Enemy(card, state.lib.enemies[card].health if health is None else health, state.next_uid)
    state.next_uid += 1


def fill_for_checkpoint(state: State) -> None:
    """Setup 5-6: the vehicle on #1, then one enemy from the tier's reserve in each other slot from #2 clockwise."""
    state.vehicle = VEHICLE_START
    state.ring = {s: None for s in SLOTS}
    reserve = state.reserves[state.tier]
    for slot in clockwise_from(step(VEHICLE_START, 1))[:START_ENEMIES]:
        if reserve:
            _place(state, slot, reserve.pop(0))


def start_game(lib: Library, options: Options, chance: Chance) -> State:
    _check_mission(lib, options.mission)
    _check_vampires(lib, options.driver, options.passenger)
    state = new_state(lib, options.mission, options.driver, options.passenger)
    for tier in (1, 2, 3):  # Setup 2: bosses at the bottom, the rest shuffled over them
        regular, bosses = lib.tier_cards(tier)
        state.reserves[tier] = [*chance.shuffle(f"tier {tier} reserve", sorted(regular)), *bosses]
    for role in ROLES:  # Setup 3
        state.decks[role] = chance.shuffle(f"{role} deck", sorted(lib.cards_of(state.vampires[role], "starter")))
    market = [*lib.cards_of(options.driver, "advanced"), *lib.cards_of(options.passenger, "advanced")]
    state.market_deck = chance.shuffle("market deck", sorted(market))  # Setup 4
    state.market_row = [state.market_deck.pop(0) for _ in range(min(MARKET_ROW, len(state.market_deck)))]
    fill_for_checkpoint(state)  # Setup 5-6
    return state


def state_from_setup(lib: Library, s: SetupSpec) -> State:
    _check_mission(lib, s.mission)
    _check_vampires(lib, s.driver, s.passenger)
    mission = lib.missions[s.mission]
    if s.checkpoint > len(mission.tiers):
        raise SetupError(("checkpoint",), f"mission {s.mission} has {len(mission.tiers)} checkpoint(s)")
    state = new_state(lib, s.mission, s.driver, s.passenger)
    state.checkpoint = s.checkpoint - 1
    _setup_ring(state, s)
    _setup_cards(state, s)
    _setup_turn(state, s)
    _check_counts(state)
    return state


def _setup_ring(state: State, s: SetupSpec) -> None:
    lib = state.lib
    if len(s.ring) != len(SLOTS):
        raise SetupError(("ring",), f"the ring has {len(SLOTS)} slots; give {len(SLOTS)} entries, slot 1 first")
    vehicles = [i for i, e in enumerate(s.ring) if e == "vehicle"]
    if len(vehicles) != 1:
        raise SetupError(("ring",), "exactly one entry is the vehicle")
    state.vehicle = vehicles[0] + 1
    for i, entry in enumerate(s.ring):
        if entry is None or entry == "vehicle":
            continue
        spec = entry if isinstance(entry, EnemySpec) else EnemySpec(entry)
        if spec.card not in lib.enemies:
            raise SetupError(("ring", i), f"unknown enemy card {spec.card!r}")
        if spec.health is not None and not 1 <= spec.health <= lib.enemies[spec.card].health:
            raise SetupError(("ring", i, "health"), f"{spec.card} has 1 to {lib.enemies[spec.card].health} Health")
        _place(state, i + 1, spec.card, spec.health)
    for tier, cards in ((1, s.reserves.tier1), (2, s.reserves.tier2), (3, s.reserves.tier3)):
        for j, card in enumerate(cards):
            facts = lib.enemies.get(card)
            if facts is None or facts.tier != tier:
                raise SetupError(("reserves", str(tier), j), f"{card!r} is not a tier {tier} enemy card")
            if facts.boss and j != len(cards) - 1:
                raise SetupError(("reserves", str(tier), j), "a boss waits at the bottom of its tier's reserve")
        state.reserves[tier] = list(cards)
    for j, slot in enumerate(s.kills):
        if slot not in SLOTS or state.ring[slot] is not None or slot == state.vehicle:
            raise SetupError(("kills", j), "a kill slot is an empty slot of the ring")
    state.kills = list(s.kills)


def _vampire_card(state: State, card: str, path: tuple[Any, ...], role: str | None = None) -> None:
    facts = state.lib.vampire_cards.get(card)
    if facts is None:
        raise SetupError(path, f"unknown vampire card {card!r}")
    if facts.vampire not in state.vampires.values():
        raise SetupError(path, f"{card} belongs to {facts.vampire}, who is not in this game")
    if role is not None and facts.vampire != state.vampires[role]:
        raise SetupError(path, f"{card} belongs to {facts.vampire}, not the {role} ({state.vampires[role]})")


def _setup_cards(state: State, s: SetupSpec) -> None:
    piles: list[tuple[str, Sequence[str], str | None]] = [
        ("driver_deck", s.driver_deck, "driver"), ("passenger_deck", s.passenger_deck, "passenger"),
        ("driver_discard", s.driver_discard, "driver"), ("passenger_discard", s.passenger_discard, "passenger"),
        ("hand", s.hand, None), ("tucked", s.tucked, None), ("market_deck", s.market_deck, None),
        ("market_row", s.market_row, None), ("graveyard", s.graveyard, None)]
    for key, cards, role in piles:
        for j, card in enumerate(cards):
            _vampire_card(state, card, (key, j), role)
            if key in ("hand", "tucked") and state.lib.vampire_cards[card].kind == "gear":
                raise SetupError((key, j), "gear cards are never in hand: they go straight onto the Gear Board")
    for j, p in enumerate(s.played):
        _vampire_card(state, p.card, ("played", j, "card"))
        if p.enhanced and not state.lib.vampire_cards[p.card].enhance:
            raise SetupError(("played", j, "enhanced"), f"{p.card} has no Enhance section")
    if len(s.market_row) > MARKET_ROW:
        raise SetupError(("market_row",), f"the Market Row holds {MARKET_ROW} cards")
    for gear in GEARS:
        card = getattr(s.gears, gear)
        if card is not None:
            _vampire_card(state, card, ("gears", gear))
            if state.lib.vampire_cards[card].gear != gear:
                raise SetupError(("gears", gear), f"{card} is not a {gear.upper()} gear card")
        state.gears[gear] = card
    state.decks = {"driver": list(s.driver_deck), "passenger": list(s.passenger_deck)}
    state.discards = {"driver": list(s.driver_discard), "passenger": list(s.passenger_discard)}
    state.hand = list(s.hand)
    state.played = [Played(p.card, p.enhanced) for p in s.played]
    state.tucked = list(s.tucked)
    state.speed_bonus = s.speed_bonus
    state.market_deck = list(s.market_deck)
    state.market_row = list(s.market_row)
    state.graveyard = list(s.graveyard)


def _setup_turn(state: State, s: SetupSpec) -> None:
    state.phase = s.phase
    state.shifter = s.shifter
    state.turn = s.turn
    state.health = state.lib.start_health if s.health is None else s.health
    if state.health > state.lib.start_health:
        raise SetupError(("health",), f"Health never rises above {state.lib.start_health}")
    state.shield, state.corpses, state.buried = s.shield, s.corpses, s.buried
    state.overkills, state.retaliate = s.overkills, s.retaliate
    if s.phase in ("actions", "draw", "hand", "reward") and s.shifter is None:
        raise SetupError(("shifter",), "after the Shift Gears step the Gear-Shifter covers a gear; name it")
    for j, gear in enumerate(s.done):
        if gear == s.shifter:
            raise SetupError(("done", j), f"the {gear.upper()} gear is blocked this turn")
    if len(set(s.done)) != len(s.done):
        raise SetupError(("done",), "each action is taken once per turn")
    if (s.played or s.tucked) and "play" not in s.done:
        raise SetupError(("played",), "cards are in play only once the PLAY action is taken: add play to done")
    if s.tucked and not s.played:
        raise SetupError(("tucked",), "cards are tucked under played cards; play one first")
    if s.phase != "actions" and (s.played or s.tucked):
        raise SetupError(("played",), "played and tucked cards belong to the actions step (cleanup discards them)")
    state.done = list(s.done)
    if s.phase == "reward":
        state.checkpoint_done = True
    limit = _play_limit(state)
    if len(s.played) > limit:
        raise SetupError(("played",), f"at most {limit} cards are played in a turn")


def _check_counts(state: State) -> None:
    """A setup may use each card no more often than the kit has it."""
    used: Counter[str] = Counter()
    for pile in (*state.decks.values(), *state.discards.values(), state.hand, state.tucked, state.market_deck,
                 state.market_row, state.graveyard, [p.card for p in state.played],
                 [g for g in state.gears.values() if g]):
        used.update(pile)
    for tier_cards in state.reserves.values():
        used.update(tier_cards)
    used.update(e.card for _, e in state.enemies())
    for card, n in sorted(used.items()):
        if n > state.lib.counts[card]:
            raise SetupError((), f"{card} is used {n} times, but the kit has {state.lib.counts[card]}")


# --- rules: drawing, damage, removal -------------------------------------------------------------------


def _reshuffle(state: State, role: str, chance: Chance, events: list[Event]) -> None:
    state.decks[role] = state.decks[role] + chance.shuffle(f"{role} deck", sorted(state.discards[role]))
    events.append(Event("reshuffle", {"vampire": role, "cards": len(state.discards[role])}))
    state.discards[role] = []


def draw_cards(state: State, role: str, n: int, chance: Chance, events: list[Event]) -> int:
    """Draw n cards from a vampire's deck; its discard becomes a new deck the moment the deck runs out."""
    drawn = 0
    for _ in range(n):
        if not state.decks[role] and state.discards[role]:
            _reshuffle(state, role, chance, events)
        if not state.decks[role]:
            break
        state.hand.append(state.decks[role].pop(0))
        drawn += 1
        if not state.decks[role] and state.discards[role]:
            _reshuffle(state, role, chance, events)
    if drawn:
        events.append(Event("draw", {"vampire": role, "cards": drawn}))
    return drawn


def available(state: State, role: str) -> int:
    return len(state.decks[role]) + len(state.discards[role])


def hurt_player(state: State, amount: int, source: str, events: list[Event], shield: bool = True) -> int:
    """Damage to the player: Shield absorbs first (not for the speed check); Health 0 loses the game."""
    absorbed = min(state.shield, amount) if shield else 0
    state.shield -= absorbed
    lost = amount - absorbed
    state.health -= lost
    state.bump("damage_taken", lost)
    events.append(Event("player_hurt", {"source": source, "amount": amount, "absorbed": absorbed,
                                        "health": state.health}))
    if state.health <= 0 and state.result is None:
        state.result, state.reason, state.phase = "lost", "health", "over"
        events.append(Event("lost", {"reason": "Health reached 0"}))
    return lost


def hurt_enemy(state: State, slot: int, amount: int, source: str, events: list[Event]) -> None:
    enemy = state.ring[slot]
    if enemy is None:
        return
    state.ring[slot] = replace(enemy, health=enemy.health - amount)
    events.append(Event("enemy_hurt", {"card": enemy.card, "slot": slot, "amount": amount,
                                       "health": enemy.health - amount, "source": source}))


def remove_enemy(state: State, slot: int, events: list[Event]) -> None:
    """An enemy below 1 Health leaves the board: corpses, its kill slot, an overkill if below 0."""
    enemy = state.ring[slot]
    assert enemy is not None
    facts = state.lib.enemies[enemy.card]
    state.ring[slot] = None
    state.kills.append(slot)
    state.corpses += facts.corpses
    state.bump("defeated")
    overkill = enemy.health < 0
    if overkill:
        state.overkills += 1
    events.append(Event("defeated", {"card": enemy.card, "slot": slot, "corpses": facts.corpses,
                                     "overkill": overkill}))


def sweep(state: State, events: list[Event]) -> None:
    """Remove every enemy below 1 Health (lowest slot first), then Ongoing 'when an enemy is defeated' triggers."""
    dead = [s for s, e in state.enemies() if e.health < 1]
    for slot in dead:
        remove_enemy(state, slot, events)
    for _ in dead:
        if state.result:
            return
        _trigger(state, "defeat", events)


def _trigger(state: State, trigger: str, events: list[Event]) -> None:
    """Ongoing enemies whose written trigger happened act now, in activation order."""
    for uid in activation_order(state):
        slot = state.find(uid)
        if slot is None or state.result:
            continue
        enemy = state.ring[slot]
        assert enemy is not None
        facts = state.lib.enemies[enemy.card]
        if facts.timing == "ongoing" and facts.trigger == trigger and enemy.health >= 1:
            events.append(Event("activate", {"card": enemy.card, "slot": slot, "step": "ongoing"}))
            _run_enemy(state, uid, facts.abilities, events)
            _remove_if_dead(state, uid, events)


def _remove_if_dead(state: State, uid: int, events: list[Event]) -> None:
    """After its own activation (or trigger), an enemy below 1 Health is removed."""
    slot = state.find(uid)
    if slot is not None and (e := state.ring[slot]) is not None and e.health < 1:
        remove_enemy(state, slot, events)
        if not state.result:
            _trigger(state, "defeat", events)


# --- rules: vampire effects --------------------------------------------------------------------------


def effect_targets(state: State, effect: Effect) -> list[int]:
    """Slots a targeted effect may choose."""
    if effect.do == "move":
        return move_destinations(state)
    if effect.range == "adjacent":
        return [s for s, _ in state.enemies() if adjacent(s, state.vehicle)]
    return [s for s, _ in state.enemies()]


def card_targets(state: State, card: str, enhance: bool) -> list[int | None]:
    """The target choices of a card (None when it has no targeted effect, or nothing to target)."""
    facts = state.lib.vampire_cards[card]
    targeted = [e for e in (*facts.effects, *(facts.enhance if enhance else ())) if e.targeted]
    if not targeted:
        return [None]
    slots = effect_targets(state, targeted[0])
    return list(slots) if slots else [None]


def move_vehicle(state: State, to: int, events: list[Event]) -> None:
    """The vehicle moves; entering an occupied slot swaps with that enemy, whose die goes with it."""
    before = state.vehicle
    enemy = state.ring[to]
    state.ring[to] = None
    state.ring[before] = enemy
    state.vehicle = to
    events.append(Event("vehicle_moved", {"from": before, "to": to, "swapped": enemy.card if enemy else None}))
    _trigger(state, "move", events)


def apply_effects(state: State, effects: Iterable[Effect], target: int | None, role: str, chance: Chance,
                  events: list[Event]) -> None:
    for effect in effects:
        if state.result:
            return
        apply_effect(state, effect, target, role, chance, events)


def apply_effect(state: State, effect: Effect, target: int | None, role: str, chance: Chance,
                 events: list[Event]) -> None:
    n = effect.amount
    if effect.do == "damage":
        if effect.range in TARGETED:
            slots = [target] if target is not None and state.ring[target] is not None else []
        elif effect.range == "all-adjacent":
            slots = [s for s, _ in state.enemies() if adjacent(s, state.vehicle)]
        else:
            slots = [s for s, _ in state.enemies()]
        for slot in slots:
            hurt_enemy(state, slot, n, "card", events)
    elif effect.do == "shield":
        state.shield += n
        events.append(Event("shield", {"amount": n, "shield": state.shield}))
    elif effect.do == "heal":
        healed = min(n, state.lib.start_health - state.health)
        state.health += healed
        events.append(Event("heal", {"amount": healed, "health": state.health}))
    elif effect.do == "move":
        if target is not None and target != state.vehicle:
            move_vehicle(state, target, events)
    elif effect.do == "draw":
        draw_cards(state, role, n, chance, events)
    elif effect.do == "corpse":
        state.corpses += n
        events.append(Event("corpses", {"gained": n, "corpses": state.corpses}))
    elif effect.do == "speed":
        state.speed_bonus += n
        events.append(Event("speed_bonus", {"amount": n}))
    elif effect.do == "retaliate":
        state.retaliate += n
        events.append(Event("retaliate", {"amount": state.retaliate}))


def gear_effects(state: State, gear: str, chance: Chance, events: list[Event]) -> None:
    card = state.gears[gear]
    if card is None:
        return
    facts = state.lib.vampire_cards[card]
    if facts.effects:
        events.append(Event("gear", {"gear": gear, "card": card}))
        apply_effects(state, facts.effects, None, state.role_of(card), chance, events)
        sweep(state, events)


def _play_limit(state: State) -> int:
    card = state.gears["play"]
    plays = state.lib.vampire_cards[card].plays if card else None
    return plays or PLAY_LIMIT


# --- rules: chase activation ---------------------------------------------------------------------------


def activation_order(state: State) -> list[int]:
    """Enemies (by uid) clockwise once round, from the lowest-numbered slot next to the vehicle holding one."""
    near = sorted(neighbours(state.vehicle))
    occupied = [s for s in near if state.ring[s] is not None]
    start = occupied[0] if occupied else near[0]
    return [e.uid for s in clockwise_from(start) if (e := state.ring[s]) is not None]


def _enemy_move(state: State, uid: int, events: list[Event]) -> None:
    slot = state.find(uid)
    if slot is None or adjacent(slot, state.vehicle):
        return
    forward, back = step(slot, 1), step(slot, -1)
    options = sorted((ring_distance(s, state.vehicle), s) for s in (forward, back))
    dest = options[0][1]
    mover, other = state.ring[slot], state.ring[dest]
    state.ring[dest], state.ring[slot] = mover, other
    assert mover is not None
    events.append(Event("enemy_moved", {"card": mover.card, "from": slot, "to": dest,
                                        "swapped": other.card if other else None}))


def _run_enemy(state: State, uid: int, effects: Iterable[EnemyEffect], events: list[Event]) -> None:
    for effect in effects:
        slot = state.find(uid)
        if slot is None or state.result:
            return
        enemy = state.ring[slot]
        assert enemy is not None
        if effect.do == "attack":
            if effect.range == "adjacent" and not adjacent(slot, state.vehicle):
                events.append(Event("attack_out_of_reach", {"card": enemy.card, "slot": slot}))
                continue
            hurt_player(state, effect.amount, enemy.card, events)
            if state.retaliate and not state.result:
                hurt_enemy(state, slot, state.retaliate, "retaliation", events)
        elif effect.do == "heal":
            targets = [slot] if effect.range == "self" else [s for s, _ in state.enemies()]
            for s in targets:
                e = state.ring[s]
                assert e is not None
                top = state.lib.enemies[e.card].health
                if e.health >= 1 and e.health < top:
                    state.ring[s] = replace(e, health=min(top, e.health + effect.amount))
                    events.append(Event("enemy_healed", {"card": e.card, "slot": s, "health": state.ring[s].health}))
        elif effect.do == "move":
            _enemy_move(state, uid, events)
        elif effect.do == "destruct":
            state.ring[slot] = replace(enemy, health=min(enemy.health, 0))
            events.append(Event("self_destruct", {"card": enemy.card, "slot": slot}))


def chase_activation(state: State, events: list[Event]) -> None:
    """Enemies activate: normal ones in order, then Late ones, then Final Activation end-of-turn effects."""
    order = activation_order(state)
    timing = {}
    for uid in order:
        slot = state.find(uid)
        assert slot is not None
        enemy = state.ring[slot]
        assert enemy is not None
        timing[uid] = state.lib.enemies[enemy.card]
    normal = [u for u in order if timing[u].timing == "normal"]
    late = [u for u in order if timing[u].timing == "late"]
    finals: list[int] = []
    for step_name, group in (("activation", normal), ("late", late)):
        for uid in group:
            slot = state.find(uid)
            if slot is None or state.result:
                continue
            enemy = state.ring[slot]
            assert enemy is not None
            if enemy.health < 1:  # reduced below 1 before its activation: skipped and removed
                _remove_if_dead(state, uid, events)
                continue
            facts = timing[uid]
            events.append(Event("activate", {"card": enemy.card, "slot": slot, "step": step_name}))
            _run_enemy(state, uid, facts.abilities, events)
            if facts.eot and not facts.final:
                _run_enemy(state, uid, facts.eot, events)
            elif facts.final:
                finals.append(uid)
            _remove_if_dead(state, uid, events)
    for uid in finals:
        slot = state.find(uid)
        if slot is None or state.result:
            continue
        enemy = state.ring[slot]
        assert enemy is not None
        events.append(Event("activate", {"card": enemy.card, "slot": slot, "step": "final"}))
        _run_enemy(state, uid, timing[uid].eot, events)
        _remove_if_dead(state, uid, events)


# --- rules: cleanup ------------------------------------------------------------------------------------


def reposition(state: State, events: list[Event]) -> None:
    """Enemies close in: repeatedly the lowest-numbered enemy that can reach an empty slot nearer the vehicle
    slides to the nearest such slot (shorter way round; ties to the lower-numbered slot)."""
    while True:
        empty = [s for s in SLOTS if state.ring[s] is None and s != state.vehicle]
        moved = False
        for slot, enemy in state.enemies():
            here = ring_distance(slot, state.vehicle)
            closer = [s for s in empty if ring_distance(s, state.vehicle) < here]
            if closer:
                dest = min(closer, key=lambda s: (ring_distance(slot, s), s))
                state.ring[dest], state.ring[slot] = enemy, None
                events.append(Event("reposition", {"card": enemy.card, "from": slot, "to": dest}))
                moved = True
                break
        if not moved:
            return


def arrivals(state: State, events: list[Event]) -> None:
    """Reserve enemies fill the empty slots left, lowest-numbered first, never a slot of this turn's kills."""
    reserve = state.reserves[state.tier]
    for slot in SLOTS:
        if not reserve:
            return
        if slot == state.vehicle or state.ring[slot] is not None or slot in state.kills:
            continue
        card = reserve.pop(0)
        _place(state, slot, card)
        events.append(Event("arrival", {"card": card, "slot": slot}))


def discard_play_area(state: State) -> None:
    for card in [*(p.card for p in state.played), *state.tucked]:
        state.discards[state.role_of(card)].append(card)
    state.played, state.tucked, state.speed_bonus = [], [], 0


def begin_next_turn(state: State, events: list[Event]) -> None:
    """Back to the Player Turn; the mission is lost if dawn has come."""
    mission = state.lib.missions[state.mission]
    state.done, state.kills, state.retaliate = [], [], 0
    if state.turn >= mission.dawn:
        state.result, state.reason, state.phase = "lost", "dawn", "over"
        events.append(Event("lost", {"reason": f"dawn after turn {mission.dawn}"}))
        return
    state.turn += 1
    state.phase = "shift"


def all_defeated(state: State) -> bool:
    """Every enemy of the checkpoint is defeated: none on the Chase Board and none left in its tier's reserve."""
    return not state.enemies() and not state.reserves[state.tier]


def checkpoint_passed(state: State, events: list[Event]) -> None:
    mission = state.lib.missions[state.mission]
    bonus = state.overkills >= mission.overkills
    events.append(Event("checkpoint_passed", {"checkpoint": state.checkpoint + 1, "bonus": bonus}))
    state.bump("checkpoints")
    if state.checkpoint + 1 >= len(mission.tiers):
        state.result, state.reason, state.phase = "won", "mission complete", "over"
        events.append(Event("won", {}))
        return
    state.checkpoint_done = True
    if mission.rest:
        healed = min(mission.rest, state.lib.start_health - state.health)
        state.health += healed
        events.append(Event("heal", {"amount": healed, "health": state.health}))
    discard_play_area(state)
    state.phase = "reward" if bonus and state.market_row else "hand"


def next_checkpoint(state: State, events: list[Event]) -> None:
    state.checkpoint += 1
    state.checkpoint_done = False
    state.overkills = 0
    fill_for_checkpoint(state)
    events.append(Event("checkpoint_started", {"checkpoint": state.checkpoint + 1, "tier": state.tier}))


# --- legal actions -------------------------------------------------------------------------------------


def _distinct(cards: Iterable[str]) -> list[str]:
    return sorted(set(cards))


def legal_actions(state: State) -> list[Any]:
    if state.result or state.phase == "over":
        return []
    if state.phase == "shift":
        return [ShiftAction("shift", g) for g in GEARS if state.turn == 1 or g != state.shifter]
    if state.phase == "draw":
        return _draw_options(state)
    if state.phase == "reward":
        return [RewardAction("reward", c) for c in _distinct(state.market_row)]
    if state.phase == "hand":
        out: list[Any] = [DiscardAction("discard", c) for c in _distinct(state.hand)]
        if len(state.hand) <= HAND_SIZE:
            out.append(KeepAction("keep"))
        return out
    return _turn_actions(state)


def _draw_options(state: State) -> list[Any]:
    need = max(0, HAND_SIZE - len(state.hand))
    d, p = available(state, "driver"), available(state, "passenger")
    total = min(need, d + p)
    return [DrawAction("draw", a, total - a) for a in range(total + 1) if a <= d and total - a <= p]


def _action_open(state: State, gear: str) -> bool:
    """The gear is uncovered, and its action not yet taken; PLAY may continue while it is the last begun."""
    if gear not in state.open_gears:
        return False
    if gear == "play":
        return "play" not in state.done or state.done[-1] == "play"
    return gear not in state.done


def _turn_actions(state: State) -> list[Any]:
    out: list[Any] = []
    if _action_open(state, "play"):
        if not state.tucked and len(state.played) < _play_limit(state):
            for card in _distinct(state.hand):
                facts = state.lib.vampire_cards[card]
                for enhance in (False, True) if facts.enhance and state.corpses >= ENHANCE_COST else (False,):
                    out += [PlayAction("play", card, enhance, t) for t in card_targets(state, card, enhance)]
        if state.played:
            out += [TuckAction("tuck", c) for c in _distinct(state.hand)]
    if _action_open(state, "move"):
        out += [MoveAction("move", s) for s in move_destinations(state)]
    if _action_open(state, "market"):
        corpses = state.corpses + _gear_corpses(state, "market")
        out += [BuyAction("buy", c) for c in _distinct(state.market_row) if state.lib.vampire_cards[c].cost <= corpses]
        out += [TrashAction("trash", c, "hand") for c in _distinct(state.hand)]
        out += [TrashAction("trash", c, "discard") for c in _distinct([*state.discards["driver"],
                                                                       *state.discards["passenger"]])]
        if state.market_row:
            out += [CycleAction("cycle", tuple(p)) for p in sorted(set(itertools.permutations(state.market_row)))]
    if state.played:
        out += [EndTurnAction("end_turn", s) for s in reachable_speeds(_speed_values(state), state.speed_bonus)]
    else:
        out.append(EndTurnAction("end_turn"))
    return out


def _gear_corpses(state: State, gear: str) -> int:
    """Corpses a gear gives as its action begins (so a purchase can count on them)."""
    card = state.gears[gear]
    if card is None or gear in state.done:
        return 0
    return sum(e.amount for e in state.lib.vampire_cards[card].effects if e.do == "corpse")


def _speed_values(state: State) -> list[tuple[int, ...]]:
    return [state.lib.vampire_cards[c].speed for c in [*(p.card for p in state.played), *state.tucked]]


# --- applying actions ----------------------------------------------------------------------------------


def why_not(state: State, action: Any) -> str:
    """Why a well-formed action is not allowed now, in players' words."""
    if state.result:
        return f"the game is over ({state.result})"
    kind = action.do
    phase_of = {"shift": "shift", "draw": "draw", "reward": "reward", "discard": "hand", "keep": "hand"}
    wanted = phase_of.get(kind, "actions")
    if state.phase != wanted:
        return f"it is the {state.phase} step now, not the time to {kind.replace('_', ' ')}"
    if kind == "shift" and action.gear == state.shifter:
        return "the Gear-Shifter cannot stay on the same gear two turns in a row"
    if kind == "draw":
        need = max(0, HAND_SIZE - len(state.hand))
        if need == 0:
            return f"the hand already holds {len(state.hand)} cards (5 or more): draw nothing"
        return f"draw {need} cards in all (up to a hand of 5), no more from a vampire than its deck and discard hold"
    if kind == "keep":
        return f"the hand holds {len(state.hand)} cards: discard down to {HAND_SIZE} first"
    if kind in ("play", "tuck", "move", "buy", "trash", "cycle"):
        gear = {"play": "play", "tuck": "play", "move": "move"}.get(kind, "market")
        if gear == state.shifter:
            return f"the {gear.upper()} gear is blocked by the Gear-Shifter this turn"
        if not _action_open(state, gear):
            return f"the {gear.upper()} action is already taken this turn"
    if kind == "play":
        return _why_not_play(state, action)
    if kind == "tuck":
        return "tuck a card from the hand, under a card played this turn" if state.played else \
            "play a card before tucking one"
    if kind in ("discard", "reward", "trash", "buy") and action.card not in _pool(state, kind, action):
        return f"{action.card} is not there to {kind}"
    if kind == "buy":
        return f"{action.card} costs {state.lib.vampire_cards[action.card].cost} corpses; you have {state.corpses}"
    if kind == "move":
        return f"the vehicle cannot reach slot {action.to}: it passes only through empty slots"
    if kind == "end_turn":
        return "name the speed total when cards were played (and only then): one the played and tucked cards can make"
    return "not allowed now"


def _pool(state: State, kind: str, action: Any) -> list[str]:
    if kind in ("discard",) or (kind == "trash" and action.pile == "hand"):
        return state.hand
    if kind == "trash":
        return [*state.discards["driver"], *state.discards["passenger"]]
    return state.market_row


def _why_not_play(state: State, action: PlayAction) -> str:
    if state.tucked:
        return "cards are being tucked: no more cards are played this turn"
    if len(state.played) >= _play_limit(state):
        return f"{_play_limit(state)} cards are played already; tuck more for their speed"
    if action.card not in state.hand:
        return f"{action.card} is not in the hand"
    facts = state.lib.vampire_cards[action.card]
    if action.enhance and not facts.enhance:
        return f"{action.card} has no Enhance section"
    if action.enhance and state.corpses < ENHANCE_COST:
        return "Enhance needs a corpse to bury, and the Corpse Pile is empty"
    choices = card_targets(state, action.card, action.enhance)
    return f"{action.card} cannot target slot {action.target}; it may target {choices}"


def apply(state: State, action: Any, chance: Chance) -> tuple[State, list[Event]]:
    if action not in legal_actions(state):
        raise IllegalAction(why_not(state, action), [to_data(a) for a in legal_actions(state)])
    new = state.copy()
    events: list[Event] = []
    HANDLERS[action.do](new, action, chance, events)
    return new, events


def _do_shift(state: State, a: ShiftAction, chance: Chance, events: list[Event]) -> None:
    state.shifter = a.gear
    state.phase = "draw"
    events.append(Event("shift", {"blocked": a.gear, "open": state.open_gears}))


def _do_draw(state: State, a: DrawAction, chance: Chance, events: list[Event]) -> None:
    draw_cards(state, "driver", a.driver, chance, events)
    draw_cards(state, "passenger", a.passenger, chance, events)
    state.phase = "actions"


def _begin(state: State, gear: str, chance: Chance, events: list[Event]) -> None:
    """An action begins: the action before it is over; PLAY and MARKET gears act now."""
    if gear in state.done:
        return
    state.done.append(gear)
    if gear in ("play", "market"):
        gear_effects(state, gear, chance, events)


def _do_play(state: State, a: PlayAction, chance: Chance, events: list[Event]) -> None:
    _begin(state, "play", chance, events)
    if state.result:
        return
    facts = state.lib.vampire_cards[a.card]
    state.hand.remove(a.card)
    state.played.append(Played(a.card, a.enhance))
    role = state.role_of(a.card)
    events.append(Event("played", {"card": a.card, "enhanced": a.enhance, "target": a.target}))
    apply_effects(state, facts.effects, a.target, role, chance, events)
    if a.enhance and not state.result:
        state.corpses -= ENHANCE_COST
        state.buried += ENHANCE_COST
        apply_effects(state, facts.enhance, a.target, role, chance, events)
    if not state.result:
        sweep(state, events)


def _do_tuck(state: State, a: TuckAction, chance: Chance, events: list[Event]) -> None:
    state.hand.remove(a.card)
    state.tucked.append(a.card)
    events.append(Event("tucked", {"card": a.card}))


def _do_move(state: State, a: MoveAction, chance: Chance, events: list[Event]) -> None:
    _begin(state, "move", chance, events)
    move_vehicle(state, a.to, events)
    if not state.result:
        gear_effects(state, "move", chance, events)


def _acquire(state: State, card: str, events: list[Event]) -> None:
    """A market card joins you: ability cards on top of their vampire's deck, gear cards onto the Gear Board."""
    facts = state.lib.vampire_cards[card]
    place = state.market_row.index(card)
    if state.market_deck:  # refill the emptied place from the top of the Market Deck
        state.market_row[place] = state.market_deck.pop(0)
    else:
        del state.market_row[place]
    if facts.kind == "gear":
        assert facts.gear is not None
        old = state.gears[facts.gear]
        if old is not None:
            state.graveyard.append(old)
        state.gears[facts.gear] = card
    else:
        state.decks[state.role_of(card)].insert(0, card)
    state.bump("cards_gained")
    events.append(Event("acquired", {"card": card, "to": facts.gear or state.role_of(card)}))


def _do_buy(state: State, a: BuyAction, chance: Chance, events: list[Event]) -> None:
    _begin(state, "market", chance, events)
    cost = state.lib.vampire_cards[a.card].cost
    state.corpses -= cost
    state.buried += cost
    _acquire(state, a.card, events)


def _do_trash(state: State, a: TrashAction, chance: Chance, events: list[Event]) -> None:
    _begin(state, "market", chance, events)
    if a.pile == "hand":
        state.hand.remove(a.card)
    else:
        state.discards[state.role_of(a.card)].remove(a.card)
    state.graveyard.append(a.card)
    events.append(Event("trashed", {"card": a.card, "from": a.pile}))


def _do_cycle(state: State, a: CycleAction, chance: Chance, events: list[Event]) -> None:
    _begin(state, "market", chance, events)
    state.market_deck += list(a.order)
    state.market_row = []
    while state.market_deck and len(state.market_row) < MARKET_ROW:
        state.market_row.append(state.market_deck.pop(0))
    events.append(Event("cycled", {"row": list(state.market_row)}))


def _do_end_turn(state: State, a: EndTurnAction, chance: Chance, events: list[Event]) -> None:
    if not state.played:  # no PLAY action: back to the player turn
        events.append(Event("no_chase", {}))
        begin_next_turn(state, events)
        return
    if all_defeated(state):
        checkpoint_passed(state, events)
        return
    assert a.speed is not None
    state.gauge = a.speed
    rng = chase_range(state)
    damage = speed_damage(a.speed, rng)
    events.append(Event("speed_check", {"gauge": a.speed, "zone": zone_name(a.speed), "range": list(rng),
                                        "range_zone": zone_name(rng[0]), "damage": damage}))
    if damage:
        hurt_player(state, damage, "speed check", events, shield=False)
    if not state.result:
        chase_activation(state, events)
    if state.result:
        return
    if all_defeated(state):
        checkpoint_passed(state, events)
        return
    if state.kills:
        reposition(state, events)
    arrivals(state, events)
    discard_play_area(state)
    state.phase = "hand"


def _do_reward(state: State, a: RewardAction, chance: Chance, events: list[Event]) -> None:
    _acquire(state, a.card, events)
    state.phase = "hand"


def _do_discard(state: State, a: DiscardAction, chance: Chance, events: list[Event]) -> None:
    state.hand.remove(a.card)
    state.discards[state.role_of(a.card)].append(a.card)
    events.append(Event("discarded", {"card": a.card}))


def _do_keep(state: State, a: KeepAction, chance: Chance, events: list[Event]) -> None:
    state.shield = 0
    if state.checkpoint_done:
        next_checkpoint(state, events)
    begin_next_turn(state, events)


HANDLERS = {"shift": _do_shift, "draw": _do_draw, "play": _do_play, "tuck": _do_tuck, "move": _do_move,
            "buy": _do_buy, "trash": _do_trash, "cycle": _do_cycle, "end_turn": _do_end_turn,
            "reward": _do_reward, "discard": _do_discard, "keep": _do_keep}


# --- outcome -------------------------------------------------------------------------------------------


def ring_view(state: State) -> list[Any]:
    out: list[Any] = []
    for s in SLOTS:
        e = state.ring[s]
        out.append("vehicle" if s == state.vehicle else None if e is None else {"card": e.card, "health": e.health})
    return out


def outcome(state: State, events: list[Event]) -> dict[str, Any]:
    return {
        "result": state.result or "playing",
        "reason": state.reason,
        "phase": state.phase,
        "turn": state.turn,
        "checkpoint": state.checkpoint + 1,
        "tier": state.tier,
        "health": state.health,
        "shield": state.shield,
        "corpses": state.corpses,
        "buried": state.buried,
        "vehicle": state.vehicle,
        "ring": ring_view(state),
        "reserves": {str(t): list(c) for t, c in state.reserves.items()},
        "chase_range": list(chase_range(state)),
        "hand": list(state.hand),
        "driver_deck": list(state.decks["driver"]),
        "passenger_deck": list(state.decks["passenger"]),
        "driver_discard": list(state.discards["driver"]),
        "passenger_discard": list(state.discards["passenger"]),
        "played": [p.card for p in state.played],
        "tucked": list(state.tucked),
        "market_row": list(state.market_row),
        "market_deck": list(state.market_deck),
        "gears": dict(state.gears),
        "shifter": state.shifter,
        "done": list(state.done),
        "graveyard": list(state.graveyard),
        "kills": list(state.kills),
        "overkills": state.overkills,
        "gauge": state.gauge,
        "speed_check": _last(events, "speed_check"),
        "activations": [f"{e.data['card']}@{e.data['slot']}" + ("" if e.data["step"] == "activation"
                                                               else f" ({e.data['step']})")
                        for e in events if e.kind == "activate"],
        "defeated": [e.data["card"] for e in events if e.kind == "defeated"],
        "events": [e.as_dict() for e in events],
    }


def _last(events: list[Event], kind: str) -> dict[str, Any] | None:
    found = [e.data for e in events if e.kind == kind]
    return dict(found[-1]) if found else None


def result(state: State) -> dict[str, Any]:
    return {
        "result": state.result or "unfinished",
        "turns": state.turn,
        "health": max(state.health, 0),
        "checkpoints": state.stats.get("checkpoints", 0),
        "defeated": state.stats.get("defeated", 0),
        "damage_taken": state.stats.get("damage_taken", 0),
        "cards_gained": state.stats.get("cards_gained", 0),
        "lost_at_dawn": int(state.reason == "dawn"),
    }


# --- words ---------------------------------------------------------------------------------------------


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if abs(n) == 1 else f"{n} {word}s"


def effect_words(e: Effect) -> str:
    """One vampire-card effect in players' words (the card faces print exactly these)."""
    n = e.amount
    if e.do == "damage":
        whom = {"adjacent": "an adjacent enemy", "any": "any enemy", "all-adjacent": "each adjacent enemy",
                "all": "every enemy"}[e.range]
        return f"Deal {n} damage to {whom}."
    return {
        "shield": f"Gain {n} Shield.",
        "heal": f"Heal {n}.",
        "move": "Move your vehicle as the MOVE action does.",
        "draw": f"Draw {_plural(n, 'card')} from this vampire's deck.",
        "corpse": f"Gain {_plural(n, 'corpse')}.",
        "speed": f"{signed(n, plus=True)} speed this turn.",
        "retaliate": f"Until cleanup, each enemy that attacks you takes {n} damage.",
    }[e.do]


def enemy_effect_words(e: EnemyEffect) -> str:
    if e.do == "attack":
        return f"Attack {e.amount}" + (" (any range)." if e.range == "any" else " (adjacent).")
    if e.do == "heal":
        return f"Heal {e.amount}." if e.range == "self" else f"Every enemy heals {e.amount}."
    if e.do == "move":
        return "Move 1 toward you."
    return "Destroy itself."


def effects_text(effects: Iterable[Effect]) -> str:
    return " ".join(effect_words(e) for e in effects)


def enemy_text(effects: Iterable[EnemyEffect]) -> str:
    return " ".join(enemy_effect_words(e) for e in effects)


def signed(n: int, plus: bool = False) -> str:
    """A number as printed: a true minus sign, and a plus sign where asked."""
    return f"−{-n}" if n < 0 else (f"+{n}" if plus else str(n))


def speed_words(values: Sequence[int]) -> str:
    """A card's speed symbol as its top-right corner prints it: one value, or the choice ("1 / 3")."""
    return " / ".join(signed(v) for v in values)


def describe_end(state: State) -> str:
    """Health, corpses, the checkpoint, the enemies on the road and defeated, and the result."""
    title = state.lib.titles.get
    parts = [f"Health {state.health}, {state.corpses} corpse{'s' if state.corpses != 1 else ''}, "
             f"checkpoint {state.checkpoint + 1}"]
    road = [f"{title(e.card, e.card)} ({e.health} health) in slot {slot}" for slot in SLOTS
            if slot != state.vehicle and (e := state.ring[slot]) is not None]
    parts.append(f"on the road: {', '.join(road)}" if road else "no enemy on the road")
    if state.result:
        parts.append(f"the chase is {state.result}" + (f" ({state.reason})" if state.reason else ""))
    return "; ".join(parts) + "."


def describe(state_lib: Library | None, action: Any) -> str:
    title = (lambda c: state_lib.titles.get(c, c)) if state_lib else (lambda c: c)
    kind = action.do
    if kind == "shift":
        return f"Shift gears: the Gear-Shifter covers {action.gear.upper()}"
    if kind == "draw":
        return f"Draw {action.driver} from the Driver's deck and {action.passenger} from the Passenger's"
    if kind == "play":
        parts = [f"Play {title(action.card)}"]
        if action.enhance:
            parts.append("enhanced (bury a corpse)")
        if action.target is not None:
            parts.append(f"at slot {action.target}")
        return " ".join(parts)
    if kind == "tuck":
        return f"Tuck {title(action.card)} for its speed"
    if kind == "move":
        return f"MOVE the vehicle to slot {action.to}"
    if kind == "buy":
        return f"MARKET: buy {title(action.card)}"
    if kind == "trash":
        return f"MARKET: trash {title(action.card)} from the {action.pile}"
    if kind == "cycle":
        return "MARKET: cycle the row (" + ", ".join(title(c) for c in action.order) + " to the bottom)"
    if kind == "end_turn":
        return "End the turn" + (f" with speed {action.speed}" if action.speed is not None else " without PLAY")
    if kind == "reward":
        return f"Checkpoint bonus: take {title(action.card)} from the market"
    if kind == "discard":
        return f"Discard {title(action.card)}"
    return "Keep the rest of the hand"


# --- drawing -------------------------------------------------------------------------------------------

RING_CENTRE, RING_RADIUS = (170.0, 170.0), 118.0
SLOT_W, SLOT_H = 100.0, 66.0


def _slot_angle(slot: int) -> float:
    """Slot 1 at the top, the others clockwise (SVG's y axis points down, so clockwise is a growing angle)."""
    return math.radians(-90 + 60 * (slot - 1))


def _on_ring(angle: float, radius: float = RING_RADIUS) -> tuple[float, float]:
    return RING_CENTRE[0] + radius * math.cos(angle), RING_CENTRE[1] + radius * math.sin(angle)


def pieces(state: State) -> list[draw.Piece]:
    """The vehicle and the enemies on the ring, in pixels of the drawing (it is never zoomed: the ring
    and the vehicle's numbers beside it are the whole table and fit a phone)."""
    x, y = _on_ring(_slot_angle(state.vehicle))
    out = [draw.Piece("vehicle", "vehicle", "the vehicle", f"slot #{state.vehicle}", x, y, SLOT_H / 2,
                      health=state.health, unit="health")]
    for slot in SLOTS:
        enemy = state.ring[slot]
        if enemy is not None and slot != state.vehicle:
            x, y = _on_ring(_slot_angle(slot))
            title = state.lib.titles.get(enemy.card, enemy.card)
            out.append(draw.Piece(f"enemy-{enemy.card}", "enemy", f"the {title}", f"slot #{slot}", x, y,
                                  SLOT_H / 2, health=enemy.health))
    return out


def legend() -> list[draw.Swatch]:
    def card(fill: str, stroke: str, text: str, dash: str | None = None) -> Any:
        def paint(svg: draw.Svg, cx: float, cy: float, n: float) -> None:
            svg.rect(2, 6, n - 4, n - 12, fill, stroke, rx=4, width=2, dash=dash)
            svg.text(cx, cy + 4, text, size=11, weight="bold")
        return paint

    return [draw.swatch("vehicle", "your vehicle's slot (gold)", card(draw.COLORS["hero"], draw.COLORS["ink"], "V")),
            draw.swatch("enemy", "an enemy, its health in the circle (red)", card("#fbe9e7", draw.COLORS["enemy"], "")),
            draw.swatch("empty", "an empty slot (dashed)", card(draw.COLORS["paper"], "#999999", "", "4 3"))]


def draw_svg(state: State, focus: draw.Focus | None = None) -> str:
    svg = draw.Svg(610, 345, "Vampire chase: the Chase Board ring")
    svg.rect(0, 0, 610, 345, draw.COLORS["paper"])
    svg.circle(*RING_CENTRE, RING_RADIUS, "none", "#b0b0b0", width=2)
    for slot in SLOTS:  # an arrowhead half-way to the next slot: the clockwise order
        a = _slot_angle(slot) + math.radians(30)
        (x, y), (tx, ty), (nx, ny) = _on_ring(a), (-math.sin(a), math.cos(a)), (math.cos(a), math.sin(a))
        svg.polygon([(x + 8 * tx, y + 8 * ty), (x - 6 * tx + 6 * nx, y - 6 * ty + 6 * ny),
                     (x - 6 * tx - 6 * nx, y - 6 * ty - 6 * ny)], "#8a8a8a")
    svg.text(RING_CENTRE[0], RING_CENTRE[1] - 4, "clockwise", size=13, fill="#777777")
    svg.text(RING_CENTRE[0], RING_CENTRE[1] + 14, "1 → 2 → … → 6", size=12, fill="#777777")
    for slot in SLOTS:
        _draw_slot(svg, state, slot)
    _side_panel(svg, state)
    draw.overlay(svg, focus, lambda p: p, 1.0)
    return svg.render()


def _draw_slot(svg: draw.Svg, state: State, slot: int) -> None:
    cx, cy = _on_ring(_slot_angle(slot))
    x, y = cx - SLOT_W / 2, cy - SLOT_H / 2
    enemy = state.ring[slot]
    if slot == state.vehicle:
        svg.rect(x, y, SLOT_W, SLOT_H, draw.COLORS["hero"], draw.COLORS["ink"], rx=7, width=2)
        svg.text(cx, cy + 6, "VEHICLE", size=14, weight="bold")
    elif enemy is not None:
        facts = state.lib.enemies[enemy.card]
        svg.rect(x, y, SLOT_W, SLOT_H, "#fbe9e7", draw.COLORS["enemy"], rx=7, width=2)
        _wrapped(svg, cx, cy - 8, state.lib.titles.get(enemy.card, enemy.card))
        marks = [m for m, on in (("boss", facts.boss), (facts.timing, facts.timing != "normal"),
                                 ("final", facts.final)) if on]
        if marks:
            svg.text(x + SLOT_W - 5, y + 13, " ".join(marks), size=9, anchor="end", fill=draw.COLORS["enemy"])
        svg.circle(cx, cy + 19, 10, draw.COLORS["paper"], draw.COLORS["enemy"], width=1.5)
        svg.text(cx, cy + 23.5, enemy.health, size=12, weight="bold")
    else:
        svg.rect(x, y, SLOT_W, SLOT_H, draw.COLORS["paper"], "#999999", rx=7, width=1, dash="4 3")
        svg.text(cx, cy + 5, "empty", size=12, fill="#888888")
    svg.text(x + 5, y + 14, f"#{slot}", size=12, anchor="start", weight="bold")


def _wrapped(svg: draw.Svg, cx: float, y: float, text: str) -> None:
    words, lines, line = text.split(), [], ""
    for w in words:
        if line and len(line) + len(w) > 13:
            lines.append(line)
            line = w
        else:
            line = f"{line} {w}".strip()
    lines.append(line)
    for i, ln in enumerate(lines[:2]):
        svg.text(cx, y + i * 13, ln, size=11)


def _side_panel(svg: draw.Svg, state: State) -> None:
    rng = chase_range(state)
    lines = [
        f"Health {state.health} · Shield {state.shield}",
        f"Corpses {state.corpses} (buried {state.buried})",
        f"Turn {state.turn} · checkpoint {state.checkpoint + 1}, tier {state.tier}",
        f"Reserve: {len(state.reserves[state.tier])} left · range {rng[0]}–{rng[1]}",
        f"Gear-Shifter on {(state.shifter or 'none').upper()}",
        f"Hand {len(state.hand)} · played {len(state.played)} · tucked {len(state.tucked)}",
        f"Decks: Driver {len(state.decks['driver'])}, Passenger {len(state.decks['passenger'])}",
    ]
    if state.gauge is not None:
        lines.append(f"Speed {state.gauge} ({zone_name(state.gauge)})")
    if state.result:
        lines.append(f"Mission {state.result.upper()}")
    for i, text in enumerate(lines):
        svg.text(345, 40 + i * 26, text, size=14, anchor="start", weight="bold" if i == 0 or text.startswith("Mission")
                 else None)


# --- odds ----------------------------------------------------------------------------------------------


def _frac(f: Fraction) -> str:
    return str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"


def _cell(f: Fraction) -> dict[str, str]:
    return {"fraction": _frac(f), "percent": f"{float(f) * 100:.1f}%"}


def damage_table(ranges: Sequence[tuple[int, int]]) -> dict[str, Any]:
    rows = []
    for gauge in range(GAUGE_MIN, GAUGE_MAX + 1):
        cells = []
        for rng in ranges:
            d = speed_damage(gauge, rng)
            cells.append("no damage" if d == 0 else f"−{d} HP")
        rows.append([f"gauge {gauge} ({zone_name(gauge)})", *cells])
    return {"id": "speed-check-damage", "title": "Speed check: damage for every gauge and range",
            "rule": "check-speed", "columns": ["your speed", *(f"range {a}–{b} ({zone_name(a)})" for a, b in ranges)],
            "rows": rows, "means": None}


def zones_reached(hand: Sequence[str], lib: Library) -> set[int]:
    """The zones some cards of this hand can set the gauge in (at least one played, the rest tucked)."""
    reached: set[int] = set()
    cards = list(hand)
    for k in range(1, len(cards) + 1):
        for combo in itertools.combinations(cards, k):
            values = [lib.vampire_cards[c].speed for c in combo]
            bonus = sum(e.amount for c in combo for e in lib.vampire_cards[c].effects if e.do == "speed")
            reached |= {zone(g) for g in reachable_speeds(values, bonus)}
    return reached


def _hands(deck: Sequence[str], k: int) -> Counter[tuple[str, ...]]:
    """Every k-card draw from a shuffled deck, as sorted hands with their number of equally likely orders."""
    return Counter(tuple(sorted(deck[i] for i in idx)) for idx in itertools.combinations(range(len(deck)), k))


def zone_reach_table(lib: Library, driver: str, passenger: str) -> dict[str, Any]:
    d_deck, p_deck = lib.cards_of(driver, "starter"), lib.cards_of(passenger, "starter")
    rows = []
    for a in range(HAND_SIZE, -1, -1):
        b = HAND_SIZE - a
        if a > len(d_deck) or b > len(p_deck):
            continue
        hits = [0] * len(ZONES)
        total = 0
        for dh, dn in _hands(d_deck, a).items():
            for ph, pn in _hands(p_deck, b).items():
                n = dn * pn
                total += n
                for z in zones_reached([*dh, *ph], lib):
                    hits[z] += n
        rows.append([f"{a} from {driver.title()}, {b} from {passenger.title()}",
                     *(_cell(Fraction(h, total)) for h in hits)])
    return {"id": f"zone-reach-{driver}-{passenger}",
            "title": f"First hand: chance to reach each speed zone ({driver.title()} drives, "
                     f"{passenger.title()} rides)",
            "rule": "check-speed",
            "columns": ["first hand drawn", *(f"{z[2]} ({z[0]}–{z[1]})" for z in ZONES)],
            "rows": rows, "means": None}


def odds_tables(lib: Library) -> list[dict[str, Any]]:
    ranges = sorted({(c.range[0], c.range[1]) for c in lib.enemies.values()} | set(lib.defaults.values()))
    default = (Options.driver, Options.passenger)
    pairs = sorted(itertools.permutations(lib.vampires(), 2), key=lambda pair: (pair != default, pair))
    tables = [damage_table(ranges)]
    for driver, passenger in pairs:
        tables.append(zone_reach_table(lib, driver, passenger))
    return tables


# --- the engine contract -------------------------------------------------------------------------------

FACTS: dict[str, type] = {
    "ilse-deck": VampireCard, "caspar-deck": VampireCard,
    "tier-1-reserve": EnemyCard, "tier-2-reserve": EnemyCard, "tier-3-reserve": EnemyCard,
    "mission-cards": Mission, "side-board": SideBoard, "player-board": PlayerBoard,
}


class VampireChase(Engine):
    type = GameType(name="Vampire chase (untitled)", min_players=1, max_players=1, information="imperfect",
                    utility="solo", max_actions=4000)
    setup_spec = SetupSpec
    action_specs = ACTIONS
    options_spec = Options
    facts_specs: ClassVar[Mapping[str, type]] = FACTS
    notes = NOTES

    def __init__(self) -> None:
        self._libs: dict[int, tuple[GameContent, Library]] = {}
        self._last: Library | None = None

    def _lib(self, content: GameContent) -> Library:
        cached = self._libs.get(id(content))
        if cached is None or cached[0] is not content:
            cached = (content, library(content))
            self._libs[id(content)] = cached
        self._last = cached[1]
        return cached[1]

    def initial_state(self, setup: Any, content: GameContent) -> State:
        return state_from_setup(self._lib(content), setup)

    def new_game(self, options: Any, content: GameContent, chance: Chance) -> State:
        return start_game(self._lib(content), options, chance)

    def players_to_act(self, state: State) -> list[str]:
        return [] if state.result else [PLAYER]

    def legal_actions(self, state: State, player: str | None = None) -> list[Any]:
        if player not in (None, PLAYER):
            return []
        return legal_actions(state)

    def apply(self, state: State, action: Any, chance: Chance) -> tuple[State, list[Event]]:
        return apply(state, action, chance)

    def outcome(self, state: State, events: list[Event]) -> dict[str, Any]:
        return outcome(state, events)

    def result(self, state: State) -> dict[str, Any]:
        return result(state)

    def pieces(self, state: State) -> list[draw.Piece]:
        return pieces(state)

    def legend(self) -> list[draw.Swatch]:
        return legend()

    def draw_svg(self, state: State, focus: draw.Focus | None = None) -> str:
        return draw_svg(state, focus)

    def describe_action(self, action: Any, state: Any = None, content: GameContent | None = None) -> str:
        return describe(state.lib if state is not None else self._last, action)

    def describe_end(self, state: State, content: GameContent | None = None) -> str:
        return describe_end(state)

    def describe_random(self, label: str, value: Any, content: GameContent | None = None) -> str:
        """A shuffle in players' words: the cards it orders, by their printed titles."""
        if isinstance(value, (list, tuple)) and label.endswith(("deck", "reserve")):
            names = content.name if content is not None else str
            deck = {"driver deck": "the Driver's deck", "passenger deck": "the Passenger's deck",
                    "market deck": "the Market Deck"}.get(label, f"the {label}")
            return f"cards for {deck} are shuffled, in order: {', '.join(names(str(v)) for v in value)}"
        return super().describe_random(label, value, content)

    def odds_for(self, content: GameContent) -> list[dict[str, Any]]:
        return odds_tables(self._lib(content))

    def simulation_setups(self) -> list[Setting]:
        return [Setting("last-orders", {"mission": "last-orders"}),
                Setting("red-mile", {"mission": "red-mile"}),
                Setting("sunrise-run", {"mission": "sunrise-run"})]


GAME = VampireChase()
