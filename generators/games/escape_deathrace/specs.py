"""Escape Deathrace 2182 Micro: what content is converted to: a scenario's setup, a whole game's options
and each action (`do:`); their field docs are exported as the scenario JSON Schema."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, get_args, get_type_hints

from generators.games.escape_deathrace.facts import (
    DEFAULT_ROUND_LIMIT,
    DROP_KINDS,
    MAX_PLAYERS,
    CarBomb,
    DropKind,
    Side,
)

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
