"""Vampire chase: what content is converted to: a scenario's setup, a whole game's options, and each
action by its `do:` value (located errors and JSON Schemas come from these)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from generators.games.vampire_chase.facts import Gear


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


Action = (ShiftAction | DrawAction | PlayAction | TuckAction | MoveAction | BuyAction | TrashAction | CycleAction
          | EndTurnAction | RewardAction | DiscardAction | KeepAction)
