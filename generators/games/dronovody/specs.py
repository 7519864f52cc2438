"""Дроноводи: what content converts to: a scenario's `setup:` (see the package's docstring), a whole
game's options, and each action by its `do:` value."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field, make_dataclass
from functools import cache
from typing import Any, Literal

from generators.games.dronovody.facts import EXTENDED_ROUNDS, MAX_PLAYERS, ROUNDS
from generators.games.dronovody.state import Rules


@dataclass(frozen=True)
class DroneSetup:
    """A drone in a Warehouse, working or broken."""

    card: str = field(metadata={"doc": "the Drone card, by id"})
    broken: bool = field(default=False, metadata={"doc": "turned face down (broken): it cannot fly until repaired; "
                                                  "default: working"})


@dataclass(frozen=True)
class ProjectSetup:
    """A Project card beside a player board: open, or activated (and perhaps face down for the round)."""

    card: str = field(metadata={"doc": "the Project (a Support card), by id"})
    active: bool = field(default=False, metadata={"doc": "activated (its Characters discarded): its Effect may be "
                                                  "used; default: open, not yet activated"})
    used: bool = field(default=False, metadata={"doc": "an activated once-per-round Project turned face down: its "
                                                "Effect is spent until the Recovery phase; default: face up"})


@dataclass(frozen=True)
class PlayerSetup:
    """One player's board, hand and cards."""

    name: str = field(metadata={"doc": "the player's name, unique (actions and other keys name players by it)"})
    logistics: int = field(default=3, metadata={
        "doc": "the Logistics marker's space on the track (at most the track's last space); default: 3, the "
               "starting space", "min": 0})
    crew: tuple[str, ...] = field(default=(), metadata={
        "doc": "Characters in the Crew (top of the board; their top half applies), by id"})
    hq: tuple[str, ...] = field(default=(), metadata={
        "doc": "Characters in the HQ (their bottom half applies), by id; no Character twice across Crew and HQ"})
    warehouse: tuple[str | DroneSetup, ...] = field(default=(), metadata={
        "doc": "the drones in the Warehouse (at most its spaces): a Drone card id, or {card, broken: true}"})
    hand: tuple[str, ...] = field(default=(), metadata={"doc": "the Support cards in hand, by id"})
    projects: tuple[str | ProjectSetup, ...] = field(default=(), metadata={
        "doc": "the Projects played: an id (open), or {card, active, used}"})
    defence: tuple[str, ...] = field(default=(), metadata={
        "doc": "Defence cards in play (Bunker, EW) until the Recovery phase, by id, no two alike"})
    trophies: tuple[str, ...] = field(default=(), metadata={
        "doc": "enemy cards the player hit and has not exchanged, by id (never a Mishap)"})
    wounded: tuple[str, ...] = field(default=(), metadata={
        "doc": "wounded Characters not yet evacuated, by id (fewer than 4, or the game is lost)"})
    used: tuple[str, ...] = field(default=(), metadata={
        "doc": "Characters in the Crew or HQ turned face down: their once-per-round Effect is spent until Recovery"})
    exchanged: bool = field(default=False, metadata={
        "doc": "the player has already exchanged a trophy this round (one a round); default: not yet"})
    dealt: tuple[str, ...] = field(default=(), metadata={
        "doc": "deal phase: the Support cards dealt to choose from (with ISTAR, the draft packet in hand), by id"})


@dataclass(frozen=True)
class DeckTops:
    """The known top cards of the four face-down decks; the rest of each deck is shuffled (drawn by chance)."""

    characters: tuple[str, ...] = field(default=(), metadata={"doc": "the Character deck's top cards, top first"})
    drones: tuple[str, ...] = field(default=(), metadata={"doc": "the Drone deck's top cards, top first"})
    support: tuple[str, ...] = field(default=(), metadata={"doc": "the Support deck's top cards, top first"})
    threats: tuple[str, ...] = field(default=(), metadata={"doc": "the Threat deck's top cards, top first"})


@dataclass(frozen=True)
class Discards:
    """The face-up discard piles (Characters have none: they go under their deck)."""

    drones: tuple[str, ...] = field(default=(), metadata={"doc": "discarded Drone cards"})
    support: tuple[str, ...] = field(default=(), metadata={"doc": "discarded Support cards"})
    threats: tuple[str, ...] = field(default=(), metadata={"doc": "discarded Threat cards (exchanged trophies, "
                                                           "Mishaps)"})


@dataclass(frozen=True)
class RulesSetup:
    """The advanced rules in play (all optional, off by default)."""

    extended_rotation: bool = field(default=False, metadata={"doc": "Extended Rotation: 6 rounds instead of 4"})
    rounds: int | None = field(default=None, metadata={
        "doc": "an agreed length in rounds (Extended Rotation), instead of 4 or 6; default: not set", "min": 1})
    fog_of_war: bool = field(default=False, metadata={
        "doc": "Fog of War: new Threat cards are placed before the defence rolls"})
    horde: bool = field(default=False, metadata={"doc": "Horde: 4 new Threat cards per player each round instead "
                                                 "of 3"})
    istar: bool = field(default=False, metadata={"doc": "ISTAR: Support cards are drafted instead of dealt"})


@dataclass(frozen=True)
class StartSetup:
    """Setup choices the Operations Duty Officer applies (with phase: setup)."""

    first_game: bool = field(default=False, metadata={
        "doc": "first game: every red-triangle Threat card is left out of the game"})
    random_start: bool = field(default=False, metadata={
        "doc": "Random Start: each player starts with a random Character and Drone instead of the Universal Pilot "
               "and the Mavic"})


@dataclass(frozen=True)
class SetupSpec:
    """A scenario's starting state (see the module docstring)."""

    players: tuple[PlayerSetup, ...] = field(metadata={
        "doc": "1 to 4 players in seat order, clockwise (the next seat is on the left)"})
    trench: tuple[str, ...] = field(default=(), metadata={
        "doc": "the Characters in the shared Trench, face down, top first (Trench hits take the top ones); must not "
               "be empty (except in phase: setup)"})
    odo: str | None = field(default=None, metadata={
        "doc": "the player holding the Operations Duty Officer token; default: the first seat"})
    round: int = field(default=1, metadata={"doc": "the round number, from 1 (at most the game's rounds)", "min": 1})
    phase: Literal["setup", "deal", "management", "threat"] = field(default="management", metadata={
        "doc": "setup: before the Operations Duty Officer sets up (give only player names, odo, start, rules and "
               "cards); deal: players choose from their dealt cards; management; threat"})
    start: StartSetup = field(default=StartSetup(), metadata={
        "doc": "phase: setup only: the first-game and Random Start choices"})
    cards: dict[str, dict[str, Any]] = field(default_factory=dict, metadata={
        "doc": "card values to play with instead of the kit's house values (an owner's printed card), by card "
               "id: {mavic: {to_hit: 5}}; the keys are the card's facts"})
    turn: str | None = field(default=None, metadata={
        "doc": "management phase: the player in turn; default: the Operations Duty Officer"})
    step: Literal["support", "action", "done"] = field(default="support", metadata={
        "doc": "management phase: where the turn is: support (play or discard a Support card first), action "
               "(take an Action), done (free actions, then end the turn)"})
    bonus: tuple[str, ...] = field(default=(), metadata={
        "doc": "the Bonus cards the player in turn played this turn (discarded when the turn ends), by id"})
    shop: tuple[str, ...] = field(default=(), metadata={"doc": "the face-up Drone cards of the Drone Shop, by id"})
    field: tuple[str, ...] = field(default=(), metadata={
        "doc": "the enemy cards on the field, by id (each sits in the line of its distance; never a Mishap)"})
    # `field` now names the field above in this class body: the function is reached through its module.
    rolled: tuple[str, ...] = dataclasses.field(default=(), metadata={
        "doc": "threat phase: the players who have already made their defence roll"})
    threats_placed: bool = dataclasses.field(default=False, metadata={
        "doc": "threat phase: this round's new Threat cards are already drawn and placed (Fog of War places them "
               "first)"})
    decks: DeckTops = dataclasses.field(default=DeckTops(), metadata={
        "doc": "known cards on top of the face-down decks; every card placed nowhere is in the shuffled middle of "
               "its deck"})
    discards: Discards = dataclasses.field(default=Discards(), metadata={"doc": "the discard piles"})
    out_of_game: tuple[str, ...] = dataclasses.field(default=(), metadata={
        "doc": "cards back in the box (spare starting cards, red-triangle cards in a first game), by id"})
    rules: RulesSetup = dataclasses.field(default=RulesSetup(), metadata={"doc": "the advanced rules in play"})


@dataclass(frozen=True)
class Options:
    """How a whole game is set up: players and the advanced rules."""

    players: int = field(default=2, metadata={
        "doc": "how many players (1 to 4), named P1, P2, ... in seat order; P1 holds the Operations Duty Officer "
               "token", "min": 1, "max": MAX_PLAYERS})
    first_game: bool = field(default=False, metadata={
        "doc": "first game: every red-triangle Threat card is left out of the game"})
    extended_rotation: bool = field(default=False, metadata={"doc": "Extended Rotation: 6 rounds instead of 4"})
    random_start: bool = field(default=False, metadata={
        "doc": "Random Start: each player starts with a random Character and Drone instead of the Universal Pilot "
               "and the Mavic"})
    fog_of_war: bool = field(default=False, metadata={
        "doc": "Fog of War: new Threat cards are placed before the defence rolls"})
    horde: bool = field(default=False, metadata={"doc": "Horde: 4 new Threat cards per player each round instead "
                                                 "of 3"})
    istar: bool = field(default=False, metadata={"doc": "ISTAR: Support cards are drafted instead of dealt"})


def rules_of(extended: bool, rounds: int | None, fog: bool, horde: bool, istar: bool) -> Rules:
    return Rules(rounds or (EXTENDED_ROUNDS if extended else ROUNDS), fog, horde, istar)


# --- actions ---


PLAYER_DOC = ("the player who acts, by name; default: the player the game waits on (the one in turn, or the only "
              "one still to roll or to place a hit); name one for another player's free action, or when several "
              "players are still to roll")


def _action(name: str, doc: str, fields: Sequence[tuple[str, Any, Any, str]] = ()) -> type:
    """A frozen action dataclass with docstring `doc`: `do`, the given fields (name, type, default or `...` for
    none, doc), and `player` (default: whoever must act)."""
    spec = [("do", Literal[name])]
    for n, t, d, text in fields:
        meta = {"doc": text}
        spec.append((n, t, field(metadata=meta) if d is ... else field(default=d, metadata=meta)))  # type: ignore[arg-type]
    spec.append(("player", str | None, field(default=None, metadata={"doc": PLAYER_DOC})))  # type: ignore[arg-type]
    cls = make_dataclass("".join(w.title() for w in name.split("_")) + "Action", spec, frozen=True)
    cls.__module__ = __name__
    cls.__doc__ = doc
    globals()[cls.__name__] = cls  # found by name: actions pickle (the purity check, worker processes)
    return cls


Place = Literal["crew", "hq", "trench"]
ACTIONS: dict[str, type] = {
    "play_support": _action("play_support", "Management: pay a Support card's cost and play it (the turn's Support "
                            "card; an Artillery card attacks at once)", [
        ("card", str, ..., "the Support card played from hand, by id"),
        ("target", str | None, None, "Artillery: the enemy card on the field it attacks"),
        ("character", str | None, None, "Transfer Order: the Character taken out of the Trench"),
        ("to", Literal["crew", "hq"] | None, None, "Transfer Order: where that Character goes, crew or hq")]),
    "discard_support": _action("discard_support", "Discard a Support card: unplayed as the turn's Support card, or "
                               "the one dealt card let go (the rest go to hand)", [
        ("card", str, ..., "the Support card discarded (from hand, or from the dealt cards), by id")]),
    "draft": _action("draft", "ISTAR: keep one card of the packet; the rest pass to the player on the left", [
        ("card", str, ..., "the Support card kept, by id")]),
    "recruit": _action("recruit", "Action: draw 2 Characters (4 with a Psychologist in the HQ) to place one"),
    "place": _action("place", "Recruiting: place one drawn Character; the others go under the Character deck", [
        ("card", str, ..., "the drawn Character placed, by id"),
        ("to", Place, ..., "crew, hq (not a Character the player already has) or trench (under the Trench)")]),
    "move": _action("move", "Movement (an Action): move one Character between the Crew and the HQ, or into the "
                    "Trench; repeat for others, then end_move", [
        ("card", str, ..., "a Character in the player's Crew or HQ not yet moved this Action, by id"),
        ("to", Place, ..., "crew or hq (the other one), or trench (never back out)")]),
    "end_move": _action("end_move", "End the Movement Action"),
    "evacuate": _action("evacuate", "Action (Medic in the Crew or an activated Aid Station): evacuate a wounded "
                        "Character", [
        ("card", str, ..., "the wounded Character put under the Character deck, by id")]),
    "buy": _action("buy", "Action: reveal one more Drone card in the Shop, then take a drone or decline"),
    "take_drone": _action("take_drone", "Buying: pay for a drone of the Shop and put it in the Warehouse (the space "
                          "is refilled)", [
        ("card", str, ..., "the Drone card bought from the Shop, by id"),
        ("discard", str | None, None, "with a full Warehouse: the drone discarded to make room (a broken copy "
         "first); default: none")]),
    "decline": _action("decline", "Buying: buy nothing (the Action is spent)"),
    "sortie": _action("sortie", "Action: a combat sortie with one drone (a Pilot of its type in the Crew, and the "
                      "Reconnaissance and Ammunition it needs)", [
        ("drone", str, ..., "the Drone card in the Warehouse that flies, by id")]),
    "attack": _action("attack", "Combat sortie: one of the drone's attacks on an enemy card", [
        ("target", str, ..., "the enemy card on the field attacked, by id"),
        ("guaranteed", bool, False, "hit without rolling, using an activated guaranteed-hit Project (AI module); "
         "default: roll the die")]),
    "end_sortie": _action("end_sortie", "End the combat sortie (a kamikaze drone is discarded)"),
    "extra_action": _action("extra_action", "A Character's Effect in the HQ: one more Action this turn (the "
                            "Character turns face down)"),
    "end_turn": _action("end_turn", "End the turn (Bonus cards played this turn are discarded)"),
    "exchange_trophy": _action("exchange_trophy", "Free: discard a trophy for Logistics (+1 for trophy value 1, +2 "
                               "for 2 to 4), once a round", [
        ("card", str, ..., "the trophy (an enemy card the player hit), by id")]),
    "activate_project": _action("activate_project", "Free: activate an open Project, discarding the Characters it "
                                "names from the Crew or HQ", [
        ("card", str, ..., "the open Project, by id")]),
    "evacuate_effect": _action("evacuate_effect", "Free: evacuate a wounded Character with an Effect", [
        ("source", str, ..., "whose Effect: a Character in the Crew that evacuates (Medic) or an activated Project "
         "(Aid Station), by id"),
        ("card", str, ..., "the wounded Character put under the Character deck, by id")]),
    "repair": _action("repair", "Free: repair a broken drone with an Effect", [
        ("source", str, ..., "whose Effect: a Character in the HQ that repairs (Engineer) or an activated Project, "
         "by id"),
        ("drone", str, ..., "the broken Drone card in the Warehouse, by id")]),
    "set_up": _action("set_up", "The Operations Duty Officer sets up the Trench, the Drone Shop, the field and "
                      "deals the Support cards"),
    "defend": _action("defend", "Threat phase: roll the die; every enemy on the field with that activation value "
                      "strikes"),
    "choose": _action("choose", "Place a hit the player takes: a Crew Character wounded, or a drone lost or broken", [
        ("card", str, ..., "the Character in the Crew, or the Drone card in the Warehouse, that takes the hit, by "
         "id")]),
}
Action = Any  # the union of the action classes above (made from data, so named here as Any)


@cache  # actions are frozen and equal by value: each one is made once, then shared (a C-level lookup)
def act(kind: str, player: str | None, **kw: Any) -> Any:
    return ACTIONS[kind](do=kind, player=player, **kw)


