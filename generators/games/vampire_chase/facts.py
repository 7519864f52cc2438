"""Vampire chase: facts printed in the rulebook, the card facts content declares (`facts:` of each
face), and the card library the rules read, derived once per content (`content.view(build_library)`).

Every card (vampire cards, enemies, bosses, missions) is a house design read from the content faces'
`facts:`; card effects are a small data vocabulary (`Effect`, `EnemyEffect`), so no card is
hard-coded by name.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from generators.rules.facts import GameContent

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
    # What a card's targeted effects aim at, played plain or enhanced: "move" (a slot to drive to), an
    # enemy "adjacent" or "any", or None (no target). Derived once: the legal listing asks it per card.
    aims: Mapping[tuple[str, bool], str | None] = field(default_factory=dict)
    # Each vampire card's cost, and each enemy's Health plus 2 (what `evaluate` weighs it by), by id:
    # derived once, as `evaluate` sums them over every card of the decks for each position rated.
    costs: Mapping[str, int] = field(default_factory=dict)
    enemy_weights: Mapping[str, int] = field(default_factory=dict)

    def __deepcopy__(self, memo: dict[int, Any]) -> Library:
        return self  # immutable facts, shared by every state of a game

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


def build_library(content: GameContent) -> Library:
    """The library of `content` (callers read it through `content.view(build_library)`: once per content)."""
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
    aims: dict[tuple[str, bool], str | None] = {}
    for cid, card in vampire_cards.items():
        for enhanced in (False, True):
            targeted = [e for e in (*card.effects, *(card.enhance if enhanced else ())) if e.targeted]
            aims[cid, enhanced] = None if not targeted else "move" if targeted[0].do == "move" else targeted[0].range
    costs = {cid: card.cost for cid, card in vampire_cards.items()}
    weights = {cid: card.health + 2 for cid, card in enemies.items()}
    return Library(vampire_cards, titles, counts, enemies, missions, defaults, start[0], start[1], aims, costs,
                   weights)



# The facts each component's faces declare.
FACTS: dict[str, type] = {
    "ilse-deck": VampireCard, "caspar-deck": VampireCard,
    "tier-1-reserve": EnemyCard, "tier-2-reserve": EnemyCard, "tier-3-reserve": EnemyCard,
    "mission-cards": Mission, "side-board": SideBoard, "player-board": PlayerBoard,
}

