"""Дроноводи: the rulebook's numbers, the card facts each content face carries (`facts:`), the
catalogue of every card's facts (a view of the content), and the rule functions the odds enumerate."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from generators.rules.facts import GameContent

# --- printed numbers (rulebook) ---

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

# --- card facts (content faces' `facts:`) ---


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
    requires: tuple[str, ...] = field(default=(), metadata={
        "doc": "Project: Characters discarded to activate it, each named once", "unique": True})
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


# --- the catalogue: every card's facts, read once from content ---


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
    """Every card's facts, derived once per content (`content.view(catalogue)`)."""
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


# --- rule functions (the odds tables enumerate these) ---


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




FACTS: dict[str, type] = {"player-boards": BoardFacts, "character-cards": CharacterFacts, "drone-cards": DroneFacts,
                          "support-cards": SupportFacts, "threat-cards": ThreatFacts}
FREE = ("exchange_trophy", "activate_project", "evacuate_effect", "repair")  # free actions, any player, any time
