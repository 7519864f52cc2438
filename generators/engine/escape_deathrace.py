"""Escape Deathrace 2182 Micro: an executable model of the rulebook.

The rulebook transcription (`rulebooks/escape-deathrace-2182-micro.txt`) is the only source. Where it
is silent or contradicts itself the engine picks one reading and states it in `NOTES` (rule id, note;
the runner copies them into the check report). The car bomb, printed twice, is a setup option.

Randomness comes only through `Chance`: every "ROLL" (drawing a D4 card) is `chance.next("D4 ...",
(1, 2, 3, 4))`; a road tile is drawn from `tile_stack` when the setup lists one (top first), or
through `chance.next("road tile", kinds)` when it does not. Power and event cards are opaque: the
rulebook prints no card text, so the engine only moves them between deck, hand and discard.

Setup (`setup:` of a scenario)
------------------------------
    players:                 # 1-4, in turn order (counter-clockwise from whoever moves first)
      - name: X              # required
        character: gooday | mista | rebecca-jones | shooter | reegad | ariel-and-flamin
        hp: 20               # default 20
        at: t1               # tile id, default the start tile
        hazard_side: W       # required on a hazard tile (except for GoodDay): the side the car is on
        drops: {landmine: 1, smoke: 1, gunfire: 1, fire: 1}   # default one of each
        power: [magic-monkey-wrench, power-a]                  # opaque card names (default: 2 cards)
    road:                    # tiles on the table
      - {id: s, kind: start, at: [0, 0], exits: EW}
      - {id: n1, kind: nitro-nos, at: [1, 0], arrow: E}
    tile_stack: [straight, hazard]     # optional, top first; without it tiles are drawn via Chance
    boss_hp: {death-turret: 7, omg-zilla-1: 10, omg-zilla-2: 10, final-boss: 20}   # tracker
    turn: X                  # whose turn has just begun (default the first player)
    phase: start | moved     # default start
    board: [{kind: landmine, tile: t2, owner: Y, on: [X]}]   # drops lying on the road
    graveyard: {smoke: 1}    # used weapon drops
    power_deck: [...]        # opaque, top first;  power_discard: [...] (last = face up)
    event_deck: [...]        # opaque, top first
    final_arrivals: [Y, X]   # who landed on the final boss tile, in order
    rules: {car_bomb: same-tile | all-players}

Tile kinds: start, straight, hazard, event ("82"), fire, nitro-nos, death-turret, omg-zilla-1,
omg-zilla-2, final-boss ("H"). Exits are written as sides of the compass (x grows east, y grows
south): a straight road has two opposite sides (EW, NS), a 4-way intersection NESW, a dead end one
side. Boss tiles are 4-way, the final boss tile is a dead end; others default to EW.

Actions (one mapping each; `player` defaults to whoever's turn it is)
--------------------------------------------------------------------
    {do: move, path: [t2, t3], lay: [{id: t3, at: [3, 0]}], nitro_draw: true,
     hazard: attempt | wait, targets: {X: Y, Y: [X, Z]}, target: Y}
        Draw the D4, lay up to that many tiles (GoodDay one more) from the stack, then drive `path`
        (tile ids, one step each). `hazard` decides what happens on landing on a hazard tile
        (default attempt); `targets` names who strikes whom when three or more share the landing
        tile; `target` is the player a 3rd/4th arrival on the dead final boss tile targets;
        `nitro_draw` draws and lays a tile beyond a nitro-nos tile the path ends on, and moves onto it.
    {do: hazard_attempt}                 try again to get past the hazard you are stopped at
    {do: boss_battle, smoke: false}      begin the boss battle sequence (the boss's first strike)
    {do: attack, target: Y}              the sequence's D4 action (target only on the final tile
                                         once the final boss is dead; Ariel & FlaMiN may give two)
    {do: use_drop, kind: landmine|smoke|gunfire|fire, tile: t2, target: Y, count: 1}
        Landmine / fire: `tile`, one touched this turn (Mista: count 2 and `tiles: [a, b]`); smoke covers
        your own tile; gunfire: `target`. On a live boss tile the drop hits the boss (-3, no tile or
        target); on the dead final tile it hits `target` (-3) and smoke shields you.
    {do: play_power, card: NAME}         {do: trade_power, card: NAME, take: deck | discard}
    {do: collect_drop, player: Y, kind: gunfire}      a boss-battle reward from the graveyard
    {do: event_move, path: [...], spaces: 2 | roll: true}   movement an event card orders
    {do: resolve_event}                  the active event card is done (its text is not modelled)
    {do: end_turn}

Outcome keys (`outcome(state, events)`)
---------------------------------------
    turn, phase, hp {player: n}, eliminated [..], positions {player: tile|None},
    hazard_side {player: side} (cars stopped on hazard tiles), boss_hp {boss: n},
    bosses_defeated [..], tiles_laid n, road {tile: kind}, tile_stack_left n|None,
    drops_on_board ["kind@tile", ..], inventory {player: {kind: n}}, drops_held {player: n},
    power_cards {player: n}, graveyard {kind: n}, event_active card|None, events_owed n,
    event_cards_drawn n, rewards_owed [..], final_arrivals [..], first_on_final_tile player|None,
    shielded [..], winner player|None, can [legal `do` values now],
    and from `events`: events [kinds], damage {player: total taken}, damage_log ["X -2 fire-tile"],
    rolls [n, ..], hazard pass|fail|skipped|wait|None.

Exact odds: `odds()` enumerates D4 results through the same rule functions the engine resolves rolls
with (`hazard_roll`, `strike_hit`, `landmine_hit`, `damage_taken`, `strikes`, `first_strike_cancelled`),
so a table and the engine cannot disagree.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, make_dataclass
from fractions import Fraction
from typing import Any

from generators.content.schema import to_data
from generators.engine import svg as draw
from generators.engine.base import Chance, Engine, Event, GameContent, GameType, IllegalAction, SetupError
from generators.errors import KeyPath

# ---------------------------------------------------------------------------------------------
# Printed facts (rulebook tables and numbers)

D4 = (1, 2, 3, 4)
START_HP = 20
CHARACTERS = {
    "gooday": "GoodDay",
    "mista": "Mista",
    "rebecca-jones": "Rebecca Jones",
    "shooter": "Shooter",
    "reegad": "Reegad",
    "ariel-and-flamin": "Ariel & FlaMiN",
}
DROP_KINDS = ("landmine", "smoke", "gunfire", "fire")
BOSS_HP = {"death-turret": 7, "omg-zilla-1": 10, "omg-zilla-2": 10, "final-boss": 20}
SUB_BOSSES = ("death-turret", "omg-zilla-1", "omg-zilla-2")
PLAIN_KINDS = ("straight", "hazard", "event", "fire", "nitro-nos")
TILE_KINDS = ("start", *PLAIN_KINDS, *BOSS_HP)
ROAD_TILES = 20  # start + 18 shuffled + the final boss tile, which is always laid last
POWER_CARDS = 11
EVENT_CARDS = 13
MAX_PLAYERS = 4  # the D4 card set and "third and fourth players" on the final tile

HAZARD_TABLE = {1: (False, 1), 2: (False, 2), 3: (True, 1), 4: (True, 0)}  # roll -> (passed, damage)
STRIKE_TABLE = {1: 1, 2: 2, 3: 3, 4: 0}  # battle-it-out, drive-by and the boss-battle D4 action
LANDMINE_TABLE = {1: 1, 2: 2, 3: 3, 4: 4}  # driving over a landmine
LANDMINE_LANDING = 3
FIRE_DAMAGE = 2  # fire road tile and fire drop alike
GUNFIRE_BY_DISTANCE = {1: 2, 2: 1}
BOSS_DROP_DAMAGE = 3  # landmine, gunfire or fire used in a boss battle (and on the dead final tile)
FIRST_STRIKE = 3
CAR_BOMB = 1
CAR_BOMB_READINGS = ("same-tile", "all-players")
DEFAULT_RULES = {"car_bomb": "same-tile"}

# Our reading where the rulebook is silent or ambiguous: (rule id, note). The runner copies these into
# the check report; notes/escape-deathrace-engine.md lists them for the site team.
NOTES: tuple[tuple[str, str], ...] = (
    ("car-bomb", "The rulebook states the car bomb twice. By default the engine follows the Car Bomb panel: -1 to "
     "every other car and to a live boss on the exploding car's tile. Setup rules: {car_bomb: all-players} follows "
     "the Final Boss section instead: -1 to every other car still in the race, wherever it is."),
    ("characters", "The sheet's shade names are read from the abilities they go with: Yellow Shades = GoodDay "
     "(hazards), Blue Shades = Ariel & FlaMiN (second strike), Green Shades = Rebecca Jones (counters drive-bys), "
     "Black Shades = Shooter (first strike)."),
    ("reegad", "Reegad loses 1 HP less from every damaging hit (the car bomb too), never below 0: a 1-point hit "
     "does nothing to him."),
    ("rebecca-jones", "Her extra -1 is added to a hit, so a roll of 4 is still a miss. It applies to her gunfire, "
     "her drive-bys, every counter attack (to a drive-by or in a battle-it-out) and any damage she deals in a boss "
     "battle (once per hit, including her first strike on the final tile)."),
    ("shooter", "His automatic first strike is read as: a first strike (the boss's -3, or a player's on the dead "
     "final tile) never hits him. It is not an extra attack. His immunity to drive-bys covers the counter attack "
     "in a drive-by he makes, and nobody rolls a drive-by against him."),
    ("ariel-and-flamin", "Two strikes are two D4 rolls, each on the damage table; in a battle-it-out with three or "
     "more cars they may go to two different targets. A landmine she drives onto still goes off (she takes "
     "nothing)."),
    ("hazard-tiles", "Landing on a hazard stops the car. The player then attempts at once (the printed example) or "
     "ends the turn at the start of the tile. A pass puts the car on the connecting tile, or on the far side of "
     "the hazard if there is none, and ends the movement. A failed or postponed attempt is retried on a later "
     "turn instead of that turn's movement; retreating is a normal move back out of the side the car is on."),
    ("taking-a-turn", "A movement draw lets the player lay up to that many tiles (GoodDay one more) before moving; "
     "the engine does not force laying tiles the player will not drive on. A turn is: movement (or a hazard "
     "attempt), at most one weapon drop and one power card play or trade, before or after moving."),
    ("movement", "A move never visits the same tile twice, and must cover at least one space (Q&A 3). Once the "
     "final boss is dead, every step must bring the car closer to the final tile (the most direct path)."),
    ("nitro-nos-tile", "A nitro-nos tile entered along its arrows costs no movement unless the car turns off it. "
     "If the move ends on it and the space ahead of the arrows is empty, the player may draw a tile, lay it "
     "there and move onto it. Reegad gains one more space each time he enters a nitro-nos tile along its arrows."),
    ("boss-battle", "Each turn a car spends on a live boss tile is one sequence: the boss's -3 first strike, then "
     "the three actions. The D4 action uses the battle table (1, 2, 3, miss). Smoke against the first strike "
     "is that sequence's one weapon drop."),
    ("boss-rewards", "Rewards come from the used weapon drops (the graveyard); with none there, there is nothing "
     "to collect. A boss killed by a car bomb pays only the cars present (nobody is the killer)."),
    ("king-of-the-hill", "A player's first strike on the dead final tile deals -3, like a boss's. Arrivals are "
     "counted from the first car ever to land there: a car that lands third counts as the third arrival even if "
     "it is the first since the boss died. Defeating a player there pays the killer a used weapon drop and a "
     "power card; the other players present get nothing. The winner is the last car alive once the final "
     "boss is dead."),
    ("landmine", "A landmine dropped on a tile with other cars goes off when the first of them starts a turn; "
     "a car that drives onto or over a landmine sets it off, whoever it hurts."),
    ("smoke-bomb", "Smoke covers the placer's own tile. It stops gunfire fired into or out of that tile, drive-bys "
     "past it and battle-it-outs on it."),
    ("gunfire", "Range is counted in road tiles along connected tiles; a car on the same tile cannot be shot."),
    ("fire-drop", "Fire drops go on a tile touched this turn (the tile the car started on included), never on a "
     "fire road tile, the start tile or a hazard tile."),
    ("weapon-drops", "One weapon drop per turn (Mista's double fire is one use), before or after moving; none on "
     "the start tile or a hazard tile."),
    ("battle-it-out", "The car that arrived strikes first; the others counter in turn order. A car destroyed "
     "before its strike does not strike."),
    ("drive-by", "Passing a tile with other cars always triggers a drive-by against each of them."),
    ("landing-on-tiles", "On landing: fire and landmines first, then the battle-it-out, then the event card."),
    ("event-tile", "Event card texts are not printed, so the engine only draws and discards them. Movement an "
     "event card orders is scripted with event_move; a second event card waits until the first is resolved."),
    ("start-tile", "Q&A 1 forbids playing power cards on the start tile; trading one in is still allowed."),
)

DIRS = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}

# ---------------------------------------------------------------------------------------------
# Rule functions: the engine resolves every roll through these, and `odds()` enumerates them.


def skips_hazard(character: str) -> bool:
    """GoodDay drives through hazard tiles without rolling."""
    return character == "gooday"


def hazard_roll(roll: int) -> tuple[bool, int]:
    """(passed, damage before protections) for one hazard attempt."""
    return HAZARD_TABLE[roll]


def dealt(attacker: str, base: int, context: str) -> int:
    """Damage a hit deals before the target's protections; Rebecca Jones adds 1 to hits she lands in
    gunfire, drive-bys, counter attacks and boss battles (a miss stays a miss)."""
    if base > 0 and attacker == "rebecca-jones" and context in ("gunfire", "drive-by", "counter", "boss"):
        return base + 1
    return base


def strike_hit(attacker: str, roll: int, context: str) -> int:
    """One D4 strike (battle-it-out, drive-by, counter attack, boss-battle roll) before protections."""
    return dealt(attacker, STRIKE_TABLE[roll], context)


IMMUNE = {
    "mista": ("fire-tile", "fire-drop"),
    "shooter": ("gunfire", "drive-by"),
    "ariel-and-flamin": ("landmine",),
}


def damage_taken(character: str, amount: int, source: str) -> int:
    """What a character actually loses from `amount` of damage of kind `source`."""
    if source in IMMUNE.get(character, ()):
        return 0
    if character == "reegad":
        return max(0, amount - 1)
    return amount


def counters_drive_by(character: str) -> bool:
    """Only Rebecca Jones (the sheet's "Green Shades") strikes back at a drive-by."""
    return character == "rebecca-jones"


def strikes(character: str) -> int:
    """How many D4 strikes a character makes in a drive-by, battle-it-out or boss-battle action."""
    return 2 if character == "ariel-and-flamin" else 1


def landmine_hit(roll: int) -> int:
    """Driving over a landmine (or having one dropped on you): the roll is the damage."""
    return LANDMINE_TABLE[roll]


def first_strike_cancelled(character: str, smoke: bool) -> str | None:
    """Why a first strike (a boss's, or a player's on the dead final tile) misses this car, if it does."""
    if smoke:
        return "smoke"
    return "shooter" if character == "shooter" else None


# ---------------------------------------------------------------------------------------------
# State


@dataclass
class Tile:
    id: str
    kind: str
    x: int
    y: int
    exits: str  # sides in NESW order
    arrow: str | None = None  # nitro-nos: the direction of the rainbow arrows


@dataclass
class Player:
    name: str
    character: str
    hp: int
    tile: str | None
    drops: dict[str, int]
    power: list[str]
    hazard_side: str | None = None  # on a hazard tile: the side the car is on
    alive: bool = True


@dataclass
class BoardDrop:
    kind: str
    tile: str
    owner: str
    on: list[str] = field(default_factory=list)  # landmine dropped on these players' location


@dataclass
class Turn:
    player: str
    phase: str = "start"  # start | moved | boss-pending | boss | over
    touched: list[str] = field(default_factory=list)
    drop_used: bool = False
    power_used: bool = False
    attacked: bool = False


@dataclass
class State:
    tiles: dict[str, Tile]
    players: dict[str, Player]
    order: list[str]
    turn: Turn
    boss_hp: dict[str, int]
    tile_stack: list[str] | None
    board: list[BoardDrop]
    graveyard: dict[str, int]
    power_deck: list[str]
    power_discard: list[str]
    event_deck: list[str]
    event_discard: list[str]
    rules: dict[str, str]
    event_active: str | None = None
    events_owed: int = 0
    events_drawn: int = 0
    rewards: list[str] = field(default_factory=list)
    final_arrivals: list[str] = field(default_factory=list)
    shielded: list[str] = field(default_factory=list)
    laid: int = 0
    winner: str | None = None


# ---------------------------------------------------------------------------------------------
# Setup parsing


_MISSING = object()


def _field(m: dict[str, Any], key: str, path: KeyPath, kinds: type | tuple[type, ...], default: Any = _MISSING) -> Any:
    if key not in m or m[key] is None:
        if default is _MISSING:
            raise SetupError(path, f"missing required key {key!r}")
        return default
    value = m[key]
    if isinstance(value, bool) and bool not in (kinds if isinstance(kinds, tuple) else (kinds,)):
        raise SetupError((*path, key), f"expected {_kind_name(kinds)}, got {value!r}")
    if not isinstance(value, kinds):
        raise SetupError((*path, key), f"expected {_kind_name(kinds)}, got {value!r}")
    return value


def _kind_name(kinds: type | tuple[type, ...]) -> str:
    names = {str: "text", int: "a whole number", list: "a list", dict: "a mapping", bool: "true or false"}
    seq = kinds if isinstance(kinds, tuple) else (kinds,)
    return " or ".join(names.get(k, k.__name__) for k in seq)


def _only_keys(m: Any, allowed: Iterable[str], path: KeyPath) -> dict[str, Any]:
    if not isinstance(m, dict):
        raise SetupError(path, "expected a mapping")
    allowed = tuple(allowed)
    for key in m:
        if key not in allowed:
            raise SetupError((*path, key), f"unknown key {key!r}; expected one of: {', '.join(allowed)}")
    return m


def _choice(value: Any, options: Sequence[str], path: KeyPath, what: str) -> str:
    if value not in options:
        raise SetupError(path, f"unknown {what} {value!r}; expected one of: {', '.join(options)}")
    return value


def _exits_ok(exits: str) -> bool:
    """Straight (two opposite sides), 4-way (all four) or dead end (one side)."""
    if len(exits) == 1 or exits == "NESW":
        return True
    return len(exits) == 2 and OPPOSITE[exits[0]] == exits[1]


def _norm_exits(value: Any, path: KeyPath) -> str:
    if not isinstance(value, str) or not value or any(c not in DIRS for c in value) or len(set(value)) != len(value):
        raise SetupError(path, f"exits must be sides from N, E, S, W (e.g. EW, NESW), got {value!r}")
    exits = "".join(d for d in "NESW" if d in value)
    if not _exits_ok(exits):
        raise SetupError(path, f"exits {value!r} is not straight (EW, NS), a 4-way intersection (NESW) or a dead end")
    return exits


def _default_exits(kind: str) -> str:
    if kind in SUB_BOSSES:
        return "NESW"
    return "W" if kind == "final-boss" else "EW"


def _parse_tile(raw: Any, path: KeyPath) -> Tile:
    m = _only_keys(raw, ("id", "kind", "at", "exits", "arrow"), path)
    tid = str(_field(m, "id", path, (str, int)))
    kind = _choice(_field(m, "kind", path, str), TILE_KINDS, (*path, "kind"), "tile kind")
    at = _field(m, "at", path, list)
    if len(at) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in at):
        raise SetupError((*path, "at"), f"expected [x, y] whole numbers, got {at!r}")
    exits = _norm_exits(m.get("exits", _default_exits(kind)), (*path, "exits"))
    if kind in SUB_BOSSES and exits != "NESW":
        raise SetupError((*path, "exits"), f"a {kind} tile is a 4-way intersection (NESW)")
    if kind == "final-boss" and len(exits) != 1:
        raise SetupError((*path, "exits"), "the final boss tile is a dead end (one side)")
    if kind == "hazard" and len(exits) != 2:
        raise SetupError((*path, "exits"), "a hazard tile is a straight road (two opposite sides)")
    arrow = None
    if kind == "nitro-nos":
        default = next(d for d in "ESNW" if d in exits)
        arrow = _choice(m.get("arrow", default), tuple(DIRS), (*path, "arrow"), "arrow direction")
        if arrow not in exits:
            raise SetupError((*path, "arrow"), f"the arrows must point along the road ({exits})")
    elif "arrow" in m:
        raise SetupError((*path, "arrow"), "only nitro-nos tiles have arrows")
    return Tile(tid, kind, at[0], at[1], exits, arrow)


def _parse_road(raw: Any) -> dict[str, Tile]:
    if not isinstance(raw, list) or not raw:
        raise SetupError(("road",), "expected a list of tiles, starting with the start tile")
    tiles: dict[str, Tile] = {}
    spots: dict[tuple[int, int], str] = {}
    for i, item in enumerate(raw):
        tile = _parse_tile(item, ("road", i))
        if tile.id in tiles:
            raise SetupError(("road", i, "id"), f"tile id {tile.id!r} is used twice")
        if (tile.x, tile.y) in spots:
            raise SetupError(("road", i, "at"), f"tile {spots[(tile.x, tile.y)]!r} is already at {[tile.x, tile.y]}")
        if tile.kind in ("start", *BOSS_HP) and any(t.kind == tile.kind for t in tiles.values()):
            raise SetupError(("road", i, "kind"), f"there is only one {tile.kind} tile")
        tiles[tile.id] = tile
        spots[(tile.x, tile.y)] = tile.id
    if not any(t.kind == "start" for t in tiles.values()):
        raise SetupError(("road",), "the road needs the start tile")
    return tiles


def _parse_counts(raw: Any, path: KeyPath) -> dict[str, int]:
    m = _only_keys(raw, DROP_KINDS, path)
    out = {}
    for kind in DROP_KINDS:
        n = _field(m, kind, path, int, 0)
        if n < 0:
            raise SetupError((*path, kind), f"expected 0 or more, got {n}")
        out[kind] = n
    return out


def _parse_player(raw: Any, path: KeyPath, tiles: dict[str, Tile], start: str) -> Player:
    keys = ("name", "character", "hp", "at", "hazard_side", "drops", "power")
    m = _only_keys(raw, keys, path)
    name = str(_field(m, "name", path, (str, int)))
    character = _choice(_field(m, "character", path, str), tuple(CHARACTERS), (*path, "character"), "character")
    hp = _field(m, "hp", path, int, START_HP)
    if not 0 < hp <= START_HP:
        raise SetupError((*path, "hp"), f"HP must be 1 to {START_HP} for a car still in the race, got {hp}")
    at = str(_field(m, "at", path, (str, int), start))
    if at not in tiles:
        raise SetupError((*path, "at"), f"no tile {at!r} on the road")
    side = m.get("hazard_side")
    if tiles[at].kind == "hazard" and character != "gooday":
        side = _choice(side, tuple(tiles[at].exits), (*path, "hazard_side"), "hazard side")
    elif side is not None:
        raise SetupError((*path, "hazard_side"), "only a car stopped on a hazard tile has a side (GoodDay never stops)")
    drops = _parse_counts(m.get("drops", {k: 1 for k in DROP_KINDS}), (*path, "drops"))
    power = [str(c) for c in _field(m, "power", path, list, ["magic-monkey-wrench", f"power-{name}"])]
    return Player(name, character, hp, at, drops, power, side)


def _parse_board(setup: dict[str, Any], tiles: dict[str, Tile], names: Sequence[str]) -> list[BoardDrop]:
    out = []
    for i, item in enumerate(_field(setup, "board", (), list, [])):
        path = ("board", i)
        m = _only_keys(item, ("kind", "tile", "owner", "on"), path)
        kind = _choice(_field(m, "kind", path, str), ("landmine", "smoke", "fire"), (*path, "kind"), "drop on the road")
        tile = str(_field(m, "tile", path, (str, int)))
        if tile not in tiles:
            raise SetupError((*path, "tile"), f"no tile {tile!r} on the road")
        owner = _choice(str(_field(m, "owner", path, (str, int))), names, (*path, "owner"), "player")
        on = [_choice(str(n), names, (*path, "on", j), "player") for j, n in enumerate(_field(m, "on", path, list, []))]
        out.append(BoardDrop(kind, tile, owner, on))
    return out


def _parse_stack(setup: dict[str, Any], tiles: dict[str, Tile]) -> list[str] | None:
    """The face-down road tiles, top first (the final boss tile is never in it: it comes last)."""
    raw = _field(setup, "tile_stack", (), list, None)
    if raw is None:
        return None
    stack = [_choice(k, (*PLAIN_KINDS, *SUB_BOSSES), ("tile_stack", i), "stack tile") for i, k in enumerate(raw)]
    seen = {t.kind for t in tiles.values()}
    for i, kind in enumerate(stack):
        if kind in SUB_BOSSES and kind in seen:
            raise SetupError(("tile_stack", i), f"there is only one {kind} tile")
        seen.add(kind)
    return stack


def _parse_deck(setup: dict[str, Any], key: str, default: list[str]) -> list[str]:
    return [str(c) for c in _field(setup, key, (), list, default)]


SETUP_KEYS = (
    "players", "road", "tile_stack", "boss_hp", "turn", "phase", "board", "graveyard", "power_deck",
    "power_discard", "event_deck", "final_arrivals", "rules",
)


def initial_state(setup: dict[str, Any]) -> State:
    """Build a state from a scenario's `setup` (see the module docstring)."""
    setup = _only_keys(setup, SETUP_KEYS, ())
    tiles = _parse_road(setup.get("road"))
    start = next(t.id for t in tiles.values() if t.kind == "start")
    raw_players = _field(setup, "players", (), list)
    if not 1 <= len(raw_players) <= MAX_PLAYERS:
        raise SetupError(("players",), f"1 to {MAX_PLAYERS} players, got {len(raw_players)}")
    players: dict[str, Player] = {}
    for i, raw in enumerate(raw_players):
        p = _parse_player(raw, ("players", i), tiles, start)
        if p.name in players:
            raise SetupError(("players", i, "name"), f"player {p.name!r} is listed twice")
        if any(q.character == p.character for q in players.values()):
            raise SetupError(("players", i, "character"), f"{CHARACTERS[p.character]} is already taken")
        players[p.name] = p
    order = list(players)
    stack = _parse_stack(setup, tiles)
    boss_hp = dict(BOSS_HP)
    for key, value in _only_keys(setup.get("boss_hp", {}), BOSS_HP, ("boss_hp",)).items():
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= BOSS_HP[key]:
            raise SetupError(("boss_hp", key), f"expected 0 to {BOSS_HP[key]}, got {value!r}")
        boss_hp[key] = value
    turn = _choice(str(setup.get("turn", order[0])), order, ("turn",), "player")
    phase = _choice(setup.get("phase", "start"), ("start", "moved"), ("phase",), "phase")
    rules = dict(DEFAULT_RULES)
    for key, value in _only_keys(setup.get("rules", {}), DEFAULT_RULES, ("rules",)).items():
        rules[key] = _choice(value, CAR_BOMB_READINGS, ("rules", key), "car bomb reading")
    dealt = sum(len(p.power) for p in players.values())
    state = State(
        tiles=tiles,
        players=players,
        order=order,
        turn=Turn(turn, phase, [players[turn].tile or start]),
        boss_hp=boss_hp,
        tile_stack=stack,
        board=_parse_board(setup, tiles, order),
        graveyard={k: v for k, v in _parse_counts(setup.get("graveyard", {}), ("graveyard",)).items() if v},
        power_deck=_parse_deck(setup, "power_deck", [f"power-{i + 1}" for i in range(max(0, POWER_CARDS - dealt))]),
        power_discard=_parse_deck(setup, "power_discard", []),
        event_deck=_parse_deck(setup, "event_deck", [f"event-{i + 1}" for i in range(EVENT_CARDS)]),
        event_discard=[],
        rules=rules,
        final_arrivals=[_choice(str(n), order, ("final_arrivals", i), "player")
                        for i, n in enumerate(_field(setup, "final_arrivals", (), list, []))],
        laid=len(tiles),
    )
    _set_phase_for_position(state, state.players[turn], phase)
    return state


# ---------------------------------------------------------------------------------------------
# Board geometry


def _at(state: State, x: int, y: int) -> Tile | None:
    for tile in state.tiles.values():
        if (tile.x, tile.y) == (x, y):
            return tile
    return None


def _direction(a: Tile, b: Tile) -> str | None:
    for d, (dx, dy) in DIRS.items():
        if (a.x + dx, a.y + dy) == (b.x, b.y):
            return d
    return None


def connected(a: Tile, b: Tile) -> bool:
    d = _direction(a, b)
    return d is not None and d in a.exits and OPPOSITE[d] in b.exits


def _neighbours(state: State, tile: Tile) -> list[Tile]:
    out = []
    for d in tile.exits:
        dx, dy = DIRS[d]
        other = _at(state, tile.x + dx, tile.y + dy)
        if other is not None and connected(tile, other):
            out.append(other)
    return out


def distance(state: State, a: str, b: str) -> int | None:
    """Road distance in tiles (breadth-first over connected tiles)."""
    seen = {a: 0}
    frontier = [a]
    while frontier:
        nxt = []
        for tid in frontier:
            for other in _neighbours(state, state.tiles[tid]):
                if other.id not in seen:
                    seen[other.id] = seen[tid] + 1
                    nxt.append(other.id)
        frontier = nxt
    return seen.get(b)


def _boss_of(tile: Tile) -> str | None:
    return tile.kind if tile.kind in BOSS_HP else None


def _boss_alive(state: State, tile: Tile) -> bool:
    boss = _boss_of(tile)
    return boss is not None and state.boss_hp[boss] > 0


def _subs_dead(state: State) -> bool:
    return all(state.boss_hp[b] == 0 for b in SUB_BOSSES)


def _final_dead(state: State) -> bool:
    return state.boss_hp["final-boss"] == 0


def _on_final(state: State, p: Player) -> bool:
    return p.tile is not None and state.tiles[p.tile].kind == "final-boss"


def _peaceful(state: State, tile: Tile) -> str | None:
    """Why no battle-it-out, drive-by or weapon drop can happen on this tile (None if they can)."""
    if tile.kind == "start":
        return "start tile"
    if tile.kind == "hazard":
        return "hazard tile"
    if any(d.kind == "smoke" and d.tile == tile.id for d in state.board):
        return "smoke"
    return None


def _others_on(state: State, tile_id: str, me: str) -> list[Player]:
    return [state.players[n] for n in _turn_order_from(state, me) if n != me
            and state.players[n].alive and state.players[n].tile == tile_id]


def _turn_order_from(state: State, name: str) -> list[str]:
    i = state.order.index(name)
    return state.order[i:] + state.order[:i]


# ---------------------------------------------------------------------------------------------
# Damage, car bombs, bosses


def _hurt(state: State, target: Player, amount: int, source: str, by: str | None, events: list[Event]) -> None:
    """Apply `amount` base damage of kind `source`; protections apply here, once."""
    if not target.alive:
        return
    taken = damage_taken(target.character, amount, source)
    if taken == 0:
        if amount > 0:
            events.append(Event("damage-prevented", {"target": target.name, "amount": amount, "source": source}))
        return
    target.hp = max(0, target.hp - taken)
    events.append(Event("damage", {"target": target.name, "amount": taken, "source": source, "by": by}))
    if target.hp == 0:
        _explode(state, target, events)


def _explode(state: State, dead: Player, events: list[Event]) -> None:
    dead.alive = False
    tile_id = dead.tile
    events.append(Event("eliminated", {"player": dead.name, "tile": tile_id}))
    dead.tile = None
    dead.hazard_side = None
    if state.turn.player == dead.name:
        state.turn.phase = "over"
    state.rewards = [n for n in state.rewards if n != dead.name]
    reading = state.rules["car_bomb"]
    events.append(Event("car-bomb", {"player": dead.name, "reading": reading}))
    if reading == "all-players":
        victims = [p for p in state.players.values() if p.alive]
    else:
        victims = [p for p in state.players.values() if p.alive and p.tile == tile_id]
        tile = state.tiles[tile_id] if tile_id else None
        if tile is not None and _boss_alive(state, tile):
            _hurt_boss(state, tile, CAR_BOMB, None, events, source="car-bomb")
    for victim in victims:
        _hurt(state, victim, CAR_BOMB, "car-bomb", dead.name, events)
    _check_winner(state, events)


def _hurt_boss(state: State, tile: Tile, amount: int, by: str | None, events: list[Event], source: str) -> None:
    boss = _boss_of(tile)
    assert boss is not None
    before = state.boss_hp[boss]
    state.boss_hp[boss] = max(0, before - amount)
    lost = before - state.boss_hp[boss]
    events.append(Event("boss-damage", {"boss": boss, "amount": lost, "by": by, "source": source}))
    if before > 0 and state.boss_hp[boss] == 0:
        events.append(Event("boss-defeated", {"boss": boss, "by": by}))
        _reward(state, tile.id, by, events)
        _check_winner(state, events)


def _reward(state: State, tile_id: str, killer: str | None, events: list[Event]) -> None:
    """The killer draws a power card and collects a used drop; others present collect a used drop."""
    present = [p.name for p in state.players.values() if p.alive and p.tile == tile_id]
    if killer is not None and state.players[killer].alive:
        _draw_power(state, state.players[killer], events)
    for name in present:
        if sum(state.graveyard.values()) > 0:
            state.rewards.append(name)
            events.append(Event("reward-owed", {"player": name}))
        else:
            events.append(Event("reward-empty", {"player": name}))


def _draw_power(state: State, p: Player, events: list[Event]) -> None:
    if not state.power_deck and state.power_discard:
        state.power_deck, state.power_discard = state.power_discard, []  # reshuffled: order is opaque
    if state.power_deck:
        card = state.power_deck.pop(0)
        p.power.append(card)
        events.append(Event("power-card-drawn", {"player": p.name, "card": card}))


def _check_winner(state: State, events: list[Event]) -> None:
    alive = [p.name for p in state.players.values() if p.alive]
    if state.winner is None and _final_dead(state) and len(alive) == 1:
        state.winner = alive[0]
        events.append(Event("winner", {"player": alive[0]}))


def _graveyard_add(state: State, kind: str, n: int = 1) -> None:
    state.graveyard[kind] = state.graveyard.get(kind, 0) + n


# ---------------------------------------------------------------------------------------------
# Movement


def _roll(chance: Chance, what: str, events: list[Event], who: str) -> int:
    value = chance.choice(what, D4)
    events.append(Event("roll", {"what": what, "player": who, "value": value}))
    return value


def _step_cost(prev: Tile, tile: Tile, nxt: Tile | None) -> int:
    """A nitro-nos tile entered along its arrows is a free space unless you turn off it."""
    if tile.kind != "nitro-nos" or _direction(prev, tile) != tile.arrow:
        return 1
    if nxt is not None and _direction(tile, nxt) != tile.arrow:
        return 1
    return 0


def _nitro_bonus(p: Player, prev: Tile, tile: Tile) -> int:
    """Reegad moves one more tile when he lands on a nitro-nos tile along its arrows."""
    return 1 if p.character == "reegad" and tile.kind == "nitro-nos" and _direction(prev, tile) == tile.arrow else 0


def _check_path(state: State, p: Player, path: list[str], allowance: int, key: KeyPath) -> None:
    """Raise IllegalAction unless `path` is a legal drive for `p` with `allowance` spaces."""
    if not path:
        raise IllegalAction("you must move at least 1 space (Q&A 3)")
    assert p.tile is not None
    here = state.tiles[p.tile]
    _check_can_leave(state, p, here)
    seen = {here.id}
    cost, bonus = 0, 0
    final_dist = distance_map(state, _final_tile(state)) if _final_dead(state) and not _on_final(state, p) else None
    prev = here
    for i, tid in enumerate(path):
        if tid not in state.tiles:
            raise SetupError((*key, i), f"no tile {tid!r} on the road")
        tile = state.tiles[tid]
        if not connected(prev, tile):
            raise IllegalAction(f"{tid} is not connected to {prev.id}")
        if prev.id == here.id and p.hazard_side is not None and _direction(prev, tile) != p.hazard_side:
            raise IllegalAction(f"{p.name} is stopped at the {p.hazard_side} side of hazard {prev.id}: "
                                "pass it with hazard_attempt, or retreat")
        if tid in seen:
            raise IllegalAction(f"the path visits {tid} twice")
        if final_dist is not None and final_dist.get(tid, 99) >= final_dist.get(prev.id, 99):
            raise IllegalAction(f"the final boss is dead: {p.name} must take the most direct path to the final tile")
        seen.add(tid)
        last = i == len(path) - 1
        _check_stop(state, p, tile, last)
        nxt = None if last else state.tiles.get(path[i + 1])
        cost += _step_cost(prev, tile, nxt)
        bonus += _nitro_bonus(p, prev, tile)
        prev = tile
    if cost > allowance + bonus:
        raise IllegalAction(f"the path costs {cost} spaces; {p.name} may move {allowance + bonus}")


def _check_can_leave(state: State, p: Player, here: Tile) -> None:
    if here.kind == "final-boss":
        raise IllegalAction("once on the final boss tile you cannot move off it")
    if _boss_alive(state, here):
        raise IllegalAction(f"{p.name} cannot leave {here.id} until its boss is defeated")


def _check_stop(state: State, p: Player, tile: Tile, last: bool) -> None:
    """Tiles that end a move: hazards (except for GoodDay), live bosses, the final boss tile."""
    if tile.kind == "final-boss" and not _subs_dead(state):
        raise IllegalAction("nobody may land on the final boss tile until all three sub-bosses are defeated")
    if last:
        return
    if tile.kind == "hazard" and p.character != "gooday":
        raise IllegalAction(f"a hazard tile ({tile.id}) stops the car: the path must end there")
    if _boss_alive(state, tile) or tile.kind == "final-boss":
        raise IllegalAction(f"landing on {tile.id} starts a boss battle: the path must end there")


def _final_tile(state: State) -> str | None:
    return next((t.id for t in state.tiles.values() if t.kind == "final-boss"), None)


def distance_map(state: State, goal: str | None) -> dict[str, int]:
    if goal is None:
        return {}
    return {tid: d for tid in state.tiles if (d := distance(state, tid, goal)) is not None}


def legal_paths(state: State, p: Player, allowance: int) -> list[list[str]]:
    """Every drive over tiles already on the table that `_check_path` accepts."""
    if p.tile is None:
        return []
    free = sum(1 for t in state.tiles.values() if t.kind == "nitro-nos")
    longest = allowance + 2 * free  # a nitro is free, and worth one more to Reegad
    out: list[list[str]] = []

    def grow(path: list[str]) -> None:
        last = state.tiles[path[-1] if path else p.tile]  # type: ignore[index]
        for other in _neighbours(state, last):
            candidate = [*path, other.id]
            if len(candidate) > longest or not _path_ok(state, p, candidate, 99):
                continue
            if _path_ok(state, p, candidate, allowance):
                out.append(candidate)
            grow(candidate)

    grow([])
    return out


def _path_ok(state: State, p: Player, path: list[str], allowance: int) -> bool:
    try:
        _check_path(state, p, path, allowance, ())
    except (IllegalAction, SetupError):
        return False
    return True


def _draw_tile_kind(state: State, chance: Chance) -> str | None:
    """The next road tile: from the listed stack, else via Chance; the final boss tile comes last."""
    if state.tile_stack is not None:
        if state.tile_stack:
            return state.tile_stack.pop(0)
    else:
        laid = {t.kind for t in state.tiles.values()}
        if len(state.tiles) < ROAD_TILES - 1:
            options = [k for k in (*PLAIN_KINDS, *SUB_BOSSES) if k in PLAIN_KINDS or k not in laid]
            return chance.choice("road tile", options)
    return None if _final_tile(state) else "final-boss"


def _lay(state: State, spec: Any, key: KeyPath, chance: Chance, events: list[Event],
         forced: tuple[int, int] | None = None, from_tile: Tile | None = None) -> Tile:
    """Draw a tile and lay it where the action says, joined to the road."""
    if forced is not None:
        spec = spec if isinstance(spec, dict) else {}
        at = list(forced)
    else:
        spec = _only_keys(spec, ("id", "at", "from", "exits", "arrow"), key)
        at = _field(spec, "at", key, list)
    if len(at) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in at):
        raise SetupError((*key, "at"), f"expected [x, y] whole numbers, got {at!r}")
    if _at(state, at[0], at[1]) is not None:
        raise IllegalAction(f"there is already a tile at {at}")
    state.laid += 1
    tid = str(spec.get("id", f"L{state.laid}"))
    if tid in state.tiles:
        raise SetupError((*key, "id"), f"tile id {tid!r} is already on the road")
    source = from_tile or _lay_source(state, at, spec.get("from"), key)
    kind = _draw_tile_kind(state, chance)
    if kind is None:
        raise IllegalAction("the road tile stack is empty")
    toward = _direction(Tile("", "", at[0], at[1], ""), source)
    assert toward is not None
    exits = _laid_exits(kind, toward, spec, key)
    arrow = None
    if kind == "nitro-nos":
        arrow = _choice(spec.get("arrow", OPPOSITE[toward]), tuple(exits), (*key, "arrow"), "arrow direction")
    tile = Tile(tid, kind, at[0], at[1], exits, arrow)
    state.tiles[tid] = tile
    events.append(Event("tile-laid", {"tile": tid, "kind": kind, "at": list(at)}))
    return tile


def _lay_source(state: State, at: list[int], named: Any, key: KeyPath) -> Tile:
    """The road tile a new tile joins: the one named in `from`, else the only open neighbour."""
    probe = Tile("", "", at[0], at[1], "NESW")
    open_sides = [t for t in state.tiles.values() if (d := _direction(t, probe)) is not None and d in t.exits]
    if named is not None:
        match = [t for t in open_sides if t.id == str(named)]
        if not match:
            raise IllegalAction(f"tile {named!r} has no open road toward {at}")
        return match[0]
    if len(open_sides) != 1:
        names = ", ".join(sorted(t.id for t in open_sides)) or "none"
        raise IllegalAction(f"a tile at {at} must join exactly one open road end (found: {names}); name it with from")
    return open_sides[0]


def _laid_exits(kind: str, toward: str, spec: dict[str, Any], key: KeyPath) -> str:
    if kind in SUB_BOSSES:
        return "NESW"
    if kind == "final-boss":
        return toward
    if "exits" in spec:
        exits = _norm_exits(spec["exits"], (*key, "exits"))
        if toward not in exits or (kind == "hazard" and len(exits) != 2):
            raise IllegalAction(f"exits {exits} do not join the road on the {toward} side")
        return exits
    return "".join(d for d in "NESW" if d in (toward, OPPOSITE[toward]))


# ---------------------------------------------------------------------------------------------
# Driving and landing


def _drive(state: State, p: Player, path: list[str], action: dict[str, Any], chance: Chance,
           events: list[Event]) -> None:
    """Drive the checked path: effects of each tile passed over, then of the landing tile."""
    for i, tid in enumerate(path):
        prev = state.tiles[p.tile]  # type: ignore[index]
        tile = state.tiles[tid]
        last = i == len(path) - 1
        p.tile = tid
        p.hazard_side = None
        if tid not in state.turn.touched:
            state.turn.touched.append(tid)
        _enter(state, p, tile, last, chance, events)
        if not p.alive:
            return
        if not last:
            _drive_bys(state, p, tile, chance, events)
            if not p.alive:
                return
        else:
            events.append(Event("moved", {"player": p.name, "path": list(path)}))
            _land(state, p, prev, tile, action, chance, events)


def _enter(state: State, p: Player, tile: Tile, landing: bool, chance: Chance, events: list[Event]) -> None:
    """Fire and landmines hurt whoever drives through or onto them."""
    if tile.kind == "fire":
        _hurt(state, p, FIRE_DAMAGE, "fire-tile", None, events)
    for drop in [d for d in state.board if d.tile == tile.id]:
        if drop.kind == "fire" and p.alive:
            _hurt(state, p, FIRE_DAMAGE, "fire-drop", drop.owner, events)
        elif drop.kind == "landmine" and p.alive:
            state.board.remove(drop)
            _graveyard_add(state, "landmine")
            events.append(Event("landmine-detonated", {"tile": tile.id, "player": p.name}))
            if landing:
                _hurt(state, p, LANDMINE_LANDING, "landmine", drop.owner, events)
            else:
                roll = _roll(chance, "landmine", events, p.name)
                _hurt(state, p, landmine_hit(roll), "landmine", drop.owner, events)


def _drive_bys(state: State, p: Player, tile: Tile, chance: Chance, events: list[Event]) -> None:
    targets = _others_on(state, tile.id, p.name)
    if not targets:
        return
    why = _peaceful(state, tile)
    if why:
        events.append(Event("drive-by-prevented", {"by": p.name, "tile": tile.id, "reason": why}))
        return
    for target in targets:
        _drive_by(state, p, target, chance, events)
        if not p.alive:
            return


def _drive_by(state: State, p: Player, target: Player, chance: Chance, events: list[Event]) -> None:
    events.append(Event("drive-by", {"by": p.name, "target": target.name}))
    if damage_taken(target.character, 1, "drive-by") == 0 and target.character == "shooter":
        # Immune: nothing to roll for.
        events.append(Event("damage-prevented", {"target": target.name, "amount": None, "source": "drive-by"}))
        return
    _strikes(state, p, [target], "drive-by", "drive-by", chance, events)
    if target.alive and counters_drive_by(target.character):
        events.append(Event("counter-attack", {"by": target.name, "target": p.name}))
        _strikes(state, target, [p], "counter", "drive-by", chance, events)


def _strikes(state: State, attacker: Player, targets: list[Player], context: str, source: str, chance: Chance,
             events: list[Event]) -> None:
    """The attacker's D4 strikes (two for Ariel & FlaMiN), each at the next named target."""
    for n in range(strikes(attacker.character)):
        target = targets[n % len(targets)]
        if not target.alive or not attacker.alive:
            return
        roll = _roll(chance, f"{context} {attacker.name}->{target.name}", events, attacker.name)
        events.append(Event("strike", {"by": attacker.name, "target": target.name, "roll": roll, "context": context}))
        _hurt(state, target, strike_hit(attacker.character, roll, context), source, attacker.name, events)


def _land(state: State, p: Player, prev: Tile, tile: Tile, action: dict[str, Any], chance: Chance,
          events: list[Event]) -> None:
    """What the landing tile does: hazard stop, boss battle, final tile, battle-it-out, event card."""
    if tile.kind == "hazard":
        _land_hazard(state, p, prev, tile, action, chance, events)
        return
    if _boss_alive(state, tile):
        _arrive_final(state, p, tile, action, chance, events)
        state.turn.phase = "boss-pending"
        events.append(Event("boss-battle", {"player": p.name, "boss": tile.kind}))
        return
    if tile.kind == "final-boss":
        _arrive_final(state, p, tile, action, chance, events)
        state.turn.phase = "boss" if p.alive else "over"
        return
    _battle_it_out(state, p, tile, action.get("targets"), chance, events)
    if p.alive and tile.kind == "event":
        _event_card(state, p, events)


def _land_hazard(state: State, p: Player, prev: Tile, tile: Tile, action: dict[str, Any], chance: Chance,
                 events: list[Event]) -> None:
    if skips_hazard(p.character):
        events.append(Event("hazard", {"player": p.name, "result": "skipped"}))
        return
    p.hazard_side = _direction(tile, prev)
    choice = _choice(action.get("hazard", "attempt"), ("attempt", "wait"), ("hazard",), "hazard choice")
    if choice == "wait":
        events.append(Event("hazard", {"player": p.name, "result": "wait"}))
        return
    _attempt_hazard(state, p, tile, action, chance, events)


def _attempt_hazard(state: State, p: Player, tile: Tile, action: dict[str, Any], chance: Chance,
                    events: list[Event]) -> None:
    assert p.hazard_side is not None
    roll = _roll(chance, "hazard", events, p.name)
    passed, damage = hazard_roll(roll)
    events.append(Event("hazard", {"player": p.name, "roll": roll, "result": "pass" if passed else "fail"}))
    _hurt(state, p, damage, "hazard", None, events)
    if not p.alive or not passed:
        return
    far = OPPOSITE[p.hazard_side]
    dx, dy = DIRS[far]
    beyond = _at(state, tile.x + dx, tile.y + dy)
    if beyond is not None and connected(tile, beyond) and _may_land(state, beyond):
        # The pass ends the movement: a second hazard right behind is not attempted this turn.
        _drive(state, p, [beyond.id], {**action, "hazard": "wait"}, chance, events)
    else:
        p.hazard_side = far


def _may_land(state: State, tile: Tile) -> bool:
    return tile.kind != "final-boss" or _subs_dead(state)


def _arrive_final(state: State, p: Player, tile: Tile, action: dict[str, Any], chance: Chance,
                  events: list[Event]) -> None:
    """Arrivals on the final tile are recorded; once the boss is dead, first strikes follow."""
    if tile.kind != "final-boss":
        return
    state.final_arrivals.append(p.name)
    number = len(state.final_arrivals)
    events.append(Event("final-arrival", {"player": p.name, "number": number}))
    if not _final_dead(state):
        return
    others = _others_on(state, tile.id, p.name)
    if number == 2:
        first = state.players[state.final_arrivals[0]]
        striker = first if first.alive and first.tile == tile.id else None
    else:
        wanted = action.get("target")
        striker = None
        if others:
            if wanted is None:
                raise IllegalAction(f"arrival number {number} on the dead final tile must target a player",
                                    [{"target": q.name} for q in others if q.name not in state.shielded])
            striker = _target(state, p, wanted, ("target",))
    if striker is not None:
        _first_strike(state, striker, p, events)


def _first_strike(state: State, striker: Player, target: Player, events: list[Event]) -> None:
    """A player's first strike on the dead final tile: -3 like a boss's (players are the bosses now)."""
    reason = first_strike_cancelled(target.character, False)
    if reason:
        events.append(Event("first-strike-cancelled", {"player": target.name, "reason": reason}))
        return
    events.append(Event("first-strike", {"by": striker.name, "target": target.name}))
    _hurt(state, target, dealt(striker.character, FIRST_STRIKE, "boss"), "first-strike", striker.name, events)


def _battle_it_out(state: State, p: Player, tile: Tile, targets: Any, chance: Chance, events: list[Event]) -> None:
    others = _others_on(state, tile.id, p.name)
    if not others:
        return
    why = _peaceful(state, tile)
    if why:
        events.append(Event("battle-it-out-prevented", {"tile": tile.id, "reason": why}))
        return
    fighters = [p, *others]
    events.append(Event("battle-it-out", {"players": [f.name for f in fighters]}))
    picks = _battle_targets(state, fighters, targets)
    for fighter in fighters:
        if fighter.alive:
            context = "battle-it-out" if fighter is p else "counter"
            _strikes(state, fighter, picks[fighter.name], context, "battle-it-out", chance, events)


def _battle_targets(state: State, fighters: list[Player], targets: Any) -> dict[str, list[Player]]:
    """Two cars: each strikes the other. More: each names a target (Ariel & FlaMiN may name two)."""
    if len(fighters) == 2 and targets is None:
        return {fighters[0].name: [fighters[1]], fighters[1].name: [fighters[0]]}
    names = [f.name for f in fighters]
    raw = _only_keys(targets if targets is not None else {}, names, ("targets",))
    out = {}
    for f in fighters:
        pick = raw.get(f.name)
        if pick is None:
            others = ", ".join(n for n in names if n != f.name)
            raise SetupError(("targets",), f"{f.name} must pick a target among {others}")
        picks = pick if isinstance(pick, list) else [pick]
        if not 1 <= len(picks) <= strikes(f.character):
            raise IllegalAction(f"{f.name} strikes {strikes(f.character)} time(s) and names that many targets at most")
        chosen = []
        for j, name in enumerate(picks):
            key: KeyPath = ("targets", f.name, j) if isinstance(pick, list) else ("targets", f.name)
            if str(name) not in names or str(name) == f.name:
                raise SetupError(key, f"{name!r} is not another car on this tile")
            chosen.append(state.players[str(name)])
        out[f.name] = chosen
    return out


def _event_card(state: State, p: Player, events: list[Event]) -> None:
    """The 82 tile's event card; a second one waits until the one in play is resolved (Q&A 6)."""
    if state.event_active is not None:
        state.events_owed += 1
        events.append(Event("event-card-owed", {"player": p.name}))
        return
    _take_event(state, p, events)


def _take_event(state: State, p: Player, events: list[Event]) -> None:
    if not state.event_deck and state.event_discard:
        state.event_deck, state.event_discard = state.event_discard, []
    if not state.event_deck:
        events.append(Event("event-deck-empty", {"player": p.name}))
        return
    card = state.event_deck.pop(0)
    state.event_active = card
    state.events_drawn += 1
    events.append(Event("event-card-drawn", {"player": p.name, "card": card}))


# ---------------------------------------------------------------------------------------------
# Actions


ACTION_KEYS = {
    "move": ("path", "lay", "nitro_draw", "hazard", "targets", "target"),
    "hazard_attempt": ("targets",),
    "boss_battle": ("smoke",),
    "attack": ("target",),
    "use_drop": ("kind", "tile", "tiles", "target", "count"),
    "play_power": ("card",),
    "trade_power": ("card", "take"),
    "collect_drop": ("kind",),
    "event_move": ("path", "spaces", "roll", "hazard", "targets", "target"),
    "resolve_event": (),
    "end_turn": (),
}


def apply(state: State, action: dict[str, Any], chance: Chance) -> tuple[State, list[Event]]:
    """Apply one action to a copy of `state`; raise IllegalAction / SetupError when it cannot be."""
    if not isinstance(action, dict):
        raise SetupError((), "an action is a mapping with a `do` key")
    action = {k: v for k, v in action.items() if k != "expect"}  # the runner's business, never read here
    do = _choice(action.get("do"), tuple(ACTION_KEYS), ("do",), "action")
    _only_keys(action, ("do", "player", *ACTION_KEYS[do]), ())
    state = copy.deepcopy(state)
    events: list[Event] = []
    name = str(action.get("player", state.turn.player))
    if name not in state.players:
        raise SetupError(("player",), f"no player {name!r}")
    p = state.players[name]
    if state.winner is not None:
        raise IllegalAction(f"the game is over: {state.winner} escaped")
    if do == "collect_drop":
        _collect(state, p, action, events)
        return state, events
    if name != state.turn.player:
        raise IllegalAction(f"it is {state.turn.player}'s turn, not {name}'s", legal_actions(state))
    allowed = {a["do"] for a in legal_actions(state)}
    if do not in allowed:
        raise IllegalAction(_why_not(state, do), legal_actions(state))
    HANDLERS[do](state, p, action, chance, events)
    return state, events


def _why_not(state: State, do: str) -> str:
    t = state.turn
    tile = state.tiles[state.players[t.player].tile] if state.players[t.player].tile else None
    if state.event_active is not None:
        return f"{do} must wait: the event card {state.event_active} has to be resolved first (Q&A 6)"
    if do == "end_turn" and state.rewards:
        return f"boss rewards are still to collect ({', '.join(state.rewards)})"
    if do == "end_turn" and t.phase == "start":
        return "you cannot skip your turn: move at least 1 space (Q&A 3)"
    if t.phase == "boss-pending":
        return "the boss battle sequence must begin (boss_battle)"
    if do == "play_power" and tile is not None and tile.kind == "start" and not t.power_used:
        return "power cards cannot be played on the start tile (Q&A 1)"
    if do == "use_drop" and tile is not None and tile.kind in ("start", "hazard") and not t.drop_used:
        return f"weapon drops cannot be used on the {tile.kind} tile"
    if do in ("use_drop", "play_power", "trade_power"):
        return f"{do}: already done this turn, or nothing left to use"
    return f"{do} is not possible now (phase {t.phase})"


def _do_move(state: State, p: Player, action: dict[str, Any], chance: Chance, events: list[Event]) -> None:
    roll = _roll(chance, "movement", events, p.name)
    allowance = roll + (1 if p.character == "gooday" else 0)
    events.append(Event("movement-draw", {"player": p.name, "roll": roll, "allowance": allowance}))
    lay = _field(action, "lay", (), list, [])
    if len(lay) > allowance:
        raise IllegalAction(f"a draw of {roll} lays at most {allowance} tile(s), not {len(lay)}")
    for i, spec in enumerate(lay):
        _lay(state, spec, ("lay", i), chance, events)
    path = _checked_path(state, p, action, allowance)
    if action.get("nitro_draw"):
        path.append(_nitro_draw(state, p, path, action["nitro_draw"], chance, events).id)
    state.turn.phase = "moved"
    _drive(state, p, path, action, chance, events)


def _checked_path(state: State, p: Player, action: dict[str, Any], allowance: int) -> list[str]:
    """The action's path, or an IllegalAction listing the drives this draw allows."""
    path = [str(t) for t in _field(action, "path", (), list)]
    try:
        _check_path(state, p, path, allowance, ("path",))
    except IllegalAction as exc:
        legal = [{"do": action["do"], "path": q} for q in legal_paths(state, p, allowance)]
        raise IllegalAction(exc.message, legal) from None
    return path


def _nitro_draw(state: State, p: Player, path: list[str], action_value: Any, chance: Chance,
                events: list[Event]) -> Tile:
    """Landing on a nitro-nos tile at the end of the road: draw a tile ahead and move onto it."""
    last = state.tiles[path[-1]]
    prev = state.tiles[path[-2]] if len(path) > 1 else state.tiles[p.tile]  # type: ignore[index]
    if last.kind != "nitro-nos" or _direction(prev, last) != last.arrow:
        raise IllegalAction("nitro_draw needs a path ending on a nitro-nos tile, driven along its arrows")
    dx, dy = DIRS[last.arrow]
    if _at(state, last.x + dx, last.y + dy) is not None:
        raise IllegalAction("nitro_draw is only for an empty space ahead of the arrows")
    spec = {} if action_value is True else {"id": str(action_value)}
    tile = _lay(state, spec, ("nitro_draw",), chance, events, forced=(last.x + dx, last.y + dy), from_tile=last)
    if tile.kind == "final-boss" and not _subs_dead(state):
        raise IllegalAction("nobody may land on the final boss tile until all three sub-bosses are defeated")
    return tile


def _do_hazard_attempt(state: State, p: Player, action: dict[str, Any], chance: Chance, events: list[Event]) -> None:
    tile = state.tiles[p.tile]  # type: ignore[index]
    state.turn.phase = "moved"
    _attempt_hazard(state, p, tile, action, chance, events)


def _do_boss_battle(state: State, p: Player, action: dict[str, Any], chance: Chance, events: list[Event]) -> None:
    """The sequence opens with the boss's -3 first strike, unless smoke or Shooter cancel it."""
    tile = state.tiles[p.tile]  # type: ignore[index]
    smoke = bool(_field(action, "smoke", (), bool, False))
    if smoke:
        # The smoke is this sequence's one weapon drop.
        _spend_drop(state, p, "smoke", 1)
        _graveyard_add(state, "smoke")
        state.turn.drop_used = True
    reason = first_strike_cancelled(p.character, smoke)
    if reason:
        events.append(Event("first-strike-cancelled", {"player": p.name, "reason": reason}))
    else:
        events.append(Event("first-strike", {"by": tile.kind, "target": p.name}))
        _hurt(state, p, FIRST_STRIKE, "first-strike", tile.kind, events)
    if p.alive:
        state.turn.phase = "boss"


def _do_attack(state: State, p: Player, action: dict[str, Any], chance: Chance, events: list[Event]) -> None:
    """The sequence's D4 action: against the boss, or a player on the dead final tile."""
    state.turn.attacked = True
    tile = state.tiles[p.tile]  # type: ignore[index]
    if _boss_alive(state, tile):
        if action.get("target") is not None:
            raise IllegalAction("while the boss lives, the D4 action strikes the boss")
        for _ in range(strikes(p.character)):
            if not _boss_alive(state, tile):
                break
            roll = _roll(chance, f"boss battle {p.name}->{tile.kind}", events, p.name)
            events.append(Event("strike", {"by": p.name, "target": tile.kind, "roll": roll, "context": "boss"}))
            _hurt_boss(state, tile, strike_hit(p.character, roll, "boss"), p.name, events, source="strike")
        return
    raw = action.get("target")
    picks = raw if isinstance(raw, list) else [raw]
    if raw is None or not 1 <= len(picks) <= strikes(p.character):
        raise IllegalAction("name the player to strike",
                            [{"do": "attack", "target": q.name} for q in _targets(state, p)])
    targets = [_target(state, p, name, ("target",)) for name in picks]
    for _n, target in enumerate(targets * (strikes(p.character) if len(targets) == 1 else 1)):
        if not target.alive:
            continue
        roll = _roll(chance, f"final tile {p.name}->{target.name}", events, p.name)
        events.append(Event("strike", {"by": p.name, "target": target.name, "roll": roll, "context": "boss"}))
        before = target.alive
        _hurt(state, target, strike_hit(p.character, roll, "boss"), "strike", p.name, events)
        if before and not target.alive:
            _reward_player_kill(state, p, events)


def _targets(state: State, p: Player) -> list[Player]:
    """Players `p` may target on the dead final tile (smoke keeps a car from being targeted)."""
    return [q for q in _others_on(state, p.tile, p.name) if q.name not in state.shielded]  # type: ignore[arg-type]


def _target(state: State, p: Player, name: Any, key: KeyPath) -> Player:
    allowed = _targets(state, p)
    match = [q for q in allowed if q.name == str(name)]
    if not match:
        raise IllegalAction(f"{name!r} cannot be targeted by {p.name} here", [q.name for q in allowed])
    return match[0]


def _reward_player_kill(state: State, killer: Player, events: list[Event]) -> None:
    """Defeating a player on the final tile pays like a boss victory (to the killer)."""
    _draw_power(state, killer, events)
    if killer.alive and sum(state.graveyard.values()) > 0:
        state.rewards.append(killer.name)
        events.append(Event("reward-owed", {"player": killer.name}))


def _spend_drop(state: State, p: Player, kind: str, n: int) -> None:
    if p.drops.get(kind, 0) < n:
        raise IllegalAction(f"{p.name} has {p.drops.get(kind, 0)} {kind} drop(s), needs {n}")
    p.drops[kind] -= n


def _do_use_drop(state: State, p: Player, action: dict[str, Any], chance: Chance, events: list[Event]) -> None:
    kind = _choice(action.get("kind"), DROP_KINDS, ("kind",), "weapon drop")
    tile = state.tiles[p.tile]  # type: ignore[index]
    state.turn.drop_used = True
    if _boss_alive(state, tile):
        _drop_on_boss(state, p, tile, kind, action, events)
    elif tile.kind == "final-boss":
        _drop_on_final(state, p, kind, action, events)
    elif kind == "gunfire":
        _gunfire(state, p, action, events)
    else:
        _place_drop(state, p, kind, action, events)


def _count(p: Player, kind: str, action: dict[str, Any]) -> int:
    """Mista may use two fire drops at once; everyone else one drop per turn."""
    n = _field(action, "count", (), int, 1)
    if n == 2 and kind == "fire" and p.character == "mista":
        return 2
    if n != 1:
        raise IllegalAction("only Mista may use two drops at once (fire drops)")
    return 1


def _drop_on_boss(state: State, p: Player, tile: Tile, kind: str, action: dict[str, Any], events: list[Event]) -> None:
    if kind == "smoke":
        raise IllegalAction("in a boss battle smoke only cancels the first strike (boss_battle with smoke: true)")
    n = _count(p, kind, action)
    _spend_drop(state, p, kind, n)
    _graveyard_add(state, kind, n)
    events.append(Event("drop-used", {"player": p.name, "kind": kind, "count": n, "on": tile.kind}))
    for _ in range(n):
        if _boss_alive(state, tile):
            _hurt_boss(state, tile, dealt(p.character, BOSS_DROP_DAMAGE, "boss"), p.name, events, source=kind)


def _drop_on_final(state: State, p: Player, kind: str, action: dict[str, Any], events: list[Event]) -> None:
    """On the dead final tile drops hit players for -3; smoke keeps you from being targeted."""
    if kind == "smoke":
        _spend_drop(state, p, "smoke", 1)
        state.shielded.append(p.name)
        events.append(Event("drop-used", {"player": p.name, "kind": "smoke", "on": p.name}))
        return
    raw = action.get("target")
    picks = raw if isinstance(raw, list) else [raw]
    n = _count(p, kind, action)
    if raw is None or len(picks) not in (1, n):
        raise IllegalAction(f"name the player to hit (or {n} players)", [q.name for q in _targets(state, p)])
    targets = [_target(state, p, name, ("target",)) for name in picks] * (n if len(picks) == 1 else 1)
    _spend_drop(state, p, kind, n)
    _graveyard_add(state, kind, n)
    events.append(Event("drop-used", {"player": p.name, "kind": kind, "count": n, "on": [t.name for t in targets]}))
    source = {"fire": "fire-drop"}.get(kind, kind)
    for target in targets:
        before = target.alive
        _hurt(state, target, dealt(p.character, BOSS_DROP_DAMAGE, "boss"), source, p.name, events)
        if before and not target.alive:
            _reward_player_kill(state, p, events)


def _gunfire(state: State, p: Player, action: dict[str, Any], events: list[Event]) -> None:
    target = state.players.get(str(action.get("target")))
    if target is None or not target.alive or target is p:
        raise SetupError(("target",), "gunfire needs a target: another player in the race")
    gap = distance(state, p.tile, target.tile)  # type: ignore[arg-type]
    if gap not in GUNFIRE_BY_DISTANCE:
        raise IllegalAction(f"{target.name} is {gap} tiles away; gunfire reaches 1 or 2 tiles")
    for who in (p, target):
        why = _peaceful(state, state.tiles[who.tile])  # type: ignore[index]
        if why:
            raise IllegalAction("no gunfire into or out of smoke" if why == "smoke"
                                else f"no gunfire: {who.name} is on a {why}")
    _spend_drop(state, p, "gunfire", 1)
    _graveyard_add(state, "gunfire")
    events.append(Event("drop-used", {"player": p.name, "kind": "gunfire", "on": target.name, "distance": gap}))
    _hurt(state, target, dealt(p.character, GUNFIRE_BY_DISTANCE[gap], "gunfire"), "gunfire", p.name, events)


def _place_drop(state: State, p: Player, kind: str, action: dict[str, Any], events: list[Event]) -> None:
    """Landmines and fire go on tiles touched this turn; smoke covers your own tile."""
    n = _count(p, kind, action)
    if kind == "smoke":
        spots = [p.tile]
    elif n == 2:
        spots = [str(t) for t in _field(action, "tiles", (), list)]
        if len(spots) != 2 or spots[0] == spots[1]:
            raise IllegalAction("two fire drops go on two different tiles (tiles: [a, b])")
    else:
        spots = [str(_field(action, "tile", (), (str, int)))]
    for tid in spots:
        _check_drop_spot(state, p, kind, tid)
    _spend_drop(state, p, kind, n)
    for tid in spots:
        on = [q.name for q in _others_on(state, tid, p.name)] if kind == "landmine" else []  # type: ignore[arg-type]
        state.board.append(BoardDrop(kind, tid, p.name, on))
        events.append(Event("drop-placed", {"player": p.name, "kind": kind, "tile": tid, "on": on}))


def _check_drop_spot(state: State, p: Player, kind: str, tid: str) -> None:
    if tid not in state.tiles:
        raise IllegalAction(f"no tile {tid!r} on the road")
    tile = state.tiles[tid]
    if kind != "smoke" and tid not in state.turn.touched:
        raise IllegalAction(f"a {kind} goes on a tile {p.name} touched this turn ({', '.join(state.turn.touched)})")
    if kind == "fire" and tile.kind == "fire":
        raise IllegalAction("fire drops cannot be placed on fire road tiles")
    if tile.kind in ("start", "hazard"):
        raise IllegalAction(f"weapon drops cannot be used on a {tile.kind} tile")
    if _boss_alive(state, tile):
        raise IllegalAction("on a live boss tile weapon drops are used against the boss")
    if any(d.tile == tid and d.kind == kind for d in state.board):
        raise IllegalAction(f"there is already a {kind} on {tid}")


def _do_play_power(state: State, p: Player, action: dict[str, Any], chance: Chance, events: list[Event]) -> None:
    card = _hand_card(p, action)
    if state.tiles[p.tile].kind == "start":  # type: ignore[index]
        raise IllegalAction("power cards cannot be played on the start tile (Q&A 1)")
    p.power.remove(card)
    state.power_discard.append(card)
    state.turn.power_used = True
    events.append(Event("power-card-played", {"player": p.name, "card": card, "effect": "not printed in the rulebook"}))


def _do_trade_power(state: State, p: Player, action: dict[str, Any], chance: Chance, events: list[Event]) -> None:
    """Trade one card for the top of the deck or the face-up discard."""
    card = _hand_card(p, action)
    take = _choice(action.get("take", "deck"), ("deck", "discard"), ("take",), "pile")
    if take == "discard":
        if not state.power_discard:
            raise IllegalAction("the power card discard pile is empty")
        new = state.power_discard.pop()
        p.power.append(new)
        events.append(Event("power-card-drawn", {"player": p.name, "card": new}))
    else:
        _draw_power(state, p, events)
    p.power.remove(card)
    state.power_discard.append(card)
    state.turn.power_used = True
    events.append(Event("power-card-traded", {"player": p.name, "card": card}))


def _hand_card(p: Player, action: dict[str, Any]) -> str:
    card = str(_field(action, "card", (), (str, int)))
    if card not in p.power:
        raise IllegalAction(f"{p.name} holds no power card {card!r}", list(p.power))
    return card


def _collect(state: State, p: Player, action: dict[str, Any], events: list[Event]) -> None:
    kind = _choice(action.get("kind"), DROP_KINDS, ("kind",), "weapon drop")
    if p.name not in state.rewards:
        raise IllegalAction(f"{p.name} has no boss reward to collect", [{"do": "collect_drop", "player": n}
                                                                         for n in state.rewards])
    if state.graveyard.get(kind, 0) == 0:
        raise IllegalAction(f"no used {kind} in the graveyard", sorted(state.graveyard))
    state.rewards.remove(p.name)
    state.graveyard[kind] -= 1
    if not state.graveyard[kind]:
        del state.graveyard[kind]
    p.drops[kind] = p.drops.get(kind, 0) + 1
    events.append(Event("drop-collected", {"player": p.name, "kind": kind}))


def _do_event_move(state: State, p: Player, action: dict[str, Any], chance: Chance, events: list[Event]) -> None:
    """Movement an event card orders; its text is not printed, so the scenario states the spaces."""
    if action.get("roll"):
        allowance = _roll(chance, "movement (event card)", events, p.name)
        allowance += 1 if p.character == "gooday" else 0
    else:
        allowance = _field(action, "spaces", (), int)
    path = _checked_path(state, p, action, allowance)
    _drive(state, p, path, action, chance, events)


def _do_resolve_event(state: State, p: Player, action: dict[str, Any], chance: Chance, events: list[Event]) -> None:
    card = state.event_active
    assert card is not None
    state.event_discard.append(card)
    state.event_active = None
    events.append(Event("event-card-resolved", {"player": p.name, "card": card}))
    if state.events_owed and p.alive:
        state.events_owed -= 1
        _take_event(state, p, events)


def _do_end_turn(state: State, p: Player, action: dict[str, Any], chance: Chance, events: list[Event]) -> None:
    alive = [n for n in _turn_order_from(state, p.name)[1:] if state.players[n].alive]
    nxt = alive[0] if alive else p.name
    _begin_turn(state, state.players[nxt], chance, events)


def _begin_turn(state: State, p: Player, chance: Chance, events: list[Event]) -> None:
    """Your smoke and fire fade; a landmine dropped on you goes off."""
    state.turn = Turn(p.name, "start", [p.tile] if p.tile else [])
    events.append(Event("turn", {"player": p.name}))
    for drop in [d for d in state.board if d.owner == p.name and d.kind in ("smoke", "fire")]:
        state.board.remove(drop)
        _graveyard_add(state, drop.kind)
        events.append(Event("drop-expired", {"kind": drop.kind, "tile": drop.tile}))
    if p.name in state.shielded:
        state.shielded.remove(p.name)
        _graveyard_add(state, "smoke")
        events.append(Event("drop-expired", {"kind": "smoke", "tile": p.tile}))
    for drop in [d for d in state.board if d.kind == "landmine" and p.name in d.on and d.tile == p.tile]:
        state.board.remove(drop)
        _graveyard_add(state, "landmine")
        events.append(Event("landmine-detonated", {"tile": drop.tile, "player": p.name}))
        roll = _roll(chance, "landmine", events, p.name)
        _hurt(state, p, landmine_hit(roll), "landmine", drop.owner, events)
    if p.alive:
        _set_phase_for_position(state, p, "start")


def _set_phase_for_position(state: State, p: Player, phase: str) -> None:
    tile = state.tiles[p.tile] if p.tile else None
    if tile is not None and _boss_alive(state, tile):
        state.turn.phase = "boss-pending"
    elif tile is not None and tile.kind == "final-boss":
        state.turn.phase = "boss"
    else:
        state.turn.phase = phase


HANDLERS: dict[str, Callable[[State, Player, dict[str, Any], Chance, list[Event]], None]] = {
    "move": _do_move,
    "hazard_attempt": _do_hazard_attempt,
    "boss_battle": _do_boss_battle,
    "attack": _do_attack,
    "use_drop": _do_use_drop,
    "play_power": _do_play_power,
    "trade_power": _do_trade_power,
    "event_move": _do_event_move,
    "resolve_event": _do_resolve_event,
    "end_turn": _do_end_turn,
}


# ---------------------------------------------------------------------------------------------
# Legal actions


def legal_actions(state: State) -> list[dict[str, Any]]:
    """What the player whose turn it is may do now (move paths over tiles already laid)."""
    out: list[dict[str, Any]] = [{"do": "collect_drop", "player": n} for n in state.rewards]
    if state.winner is not None:
        return out
    t = state.turn
    p = state.players[t.player]
    me = {"player": p.name}
    if state.event_active is not None:
        return [*out, {"do": "event_move", **me}, {"do": "resolve_event", **me}]
    if t.phase == "over":
        return out + ([{"do": "end_turn", **me}] if not state.rewards else [])
    if t.phase == "boss-pending":
        return [*out, {"do": "boss_battle", **me}]
    if t.phase == "start":
        out += _movement_actions(state, p)
    if t.phase == "boss" and not t.attacked and _has_attack(state, p):
        out.append({"do": "attack", **me})
    if not t.drop_used and any(p.drops.values()) and _may_drop(state, p):
        out.append({"do": "use_drop", **me})
    if not t.power_used and p.power:
        if state.tiles[p.tile].kind != "start":  # type: ignore[index]
            out.append({"do": "play_power", **me})
        out.append({"do": "trade_power", **me})
    if not state.rewards and (t.phase != "start" or not _can_move(state, p)):
        out.append({"do": "end_turn", **me})
    return out


def _movement_actions(state: State, p: Player) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    tile = state.tiles[p.tile]  # type: ignore[index]
    if tile.kind == "hazard" and p.hazard_side is not None:
        out.append({"do": "hazard_attempt", "player": p.name})
    if _can_move(state, p):
        out.append({"do": "move", "player": p.name})
    return out


def _can_move(state: State, p: Player) -> bool:
    tile = state.tiles[p.tile]  # type: ignore[index]
    if tile.kind == "final-boss" or _boss_alive(state, tile):
        return False
    stack_left = state.tile_stack is None or bool(state.tile_stack) or _final_tile(state) is None
    return bool(legal_paths(state, p, 4)) or stack_left


def _has_attack(state: State, p: Player) -> bool:
    tile = state.tiles[p.tile]  # type: ignore[index]
    return _boss_alive(state, tile) or (tile.kind == "final-boss" and bool(_targets(state, p)))


def _may_drop(state: State, p: Player) -> bool:
    tile = state.tiles[p.tile]  # type: ignore[index]
    if tile.kind in ("start", "hazard"):
        return False
    return state.turn.phase != "boss-pending"


# ---------------------------------------------------------------------------------------------
# Outcome


def outcome(state: State, events: list[Event]) -> dict[str, Any]:
    """The observable result (stable keys; see the module docstring)."""
    players = state.players.values()
    return {
        "turn": state.turn.player,
        "phase": state.turn.phase,
        "hp": {p.name: p.hp for p in players},
        "eliminated": [p.name for p in players if not p.alive],
        "positions": {p.name: p.tile for p in players},
        "hazard_side": {p.name: p.hazard_side for p in players if p.hazard_side},
        "boss_hp": dict(state.boss_hp),
        "bosses_defeated": [b for b in BOSS_HP if state.boss_hp[b] == 0],
        "tiles_laid": len(state.tiles),
        "road": {t.id: t.kind for t in state.tiles.values()},
        "tile_stack_left": None if state.tile_stack is None else len(state.tile_stack),
        "drops_on_board": sorted(f"{d.kind}@{d.tile}" for d in state.board),
        "inventory": {p.name: {k: n for k, n in p.drops.items() if n} for p in players},
        "drops_held": {p.name: sum(p.drops.values()) for p in players},
        "power_cards": {p.name: len(p.power) for p in players},
        "graveyard": {k: state.graveyard[k] for k in DROP_KINDS if state.graveyard.get(k)},
        "event_active": state.event_active,
        "events_owed": state.events_owed,
        "event_cards_drawn": state.events_drawn,
        "rewards_owed": list(state.rewards),
        "final_arrivals": list(state.final_arrivals),
        "first_on_final_tile": state.final_arrivals[0] if state.final_arrivals else None,
        "shielded": list(state.shielded),
        "winner": state.winner,
        "can": sorted({a["do"] for a in legal_actions(state)}),
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
    "death-turret": ("#d9d2e9", "DEATH TURRET"),
    "omg-zilla-1": ("#d9d2e9", "OMG-ZILLA #1"),
    "omg-zilla-2": ("#d9d2e9", "OMG-ZILLA #2"),
    "final-boss": ("#cccccc", "H H H"),
}
ARROWS = {"N": "\u2191", "E": "\u2192", "S": "\u2193", "W": "\u2190"}
CAR_COLOURS = ("#c0392b", "#2471a3", "#1e8449", "#b9770e")


def draw_svg(state: State) -> str:
    """The laid road (kind, exits, boss HP, drops), the cars and a legend; deterministic."""
    tiles = sorted(state.tiles.values(), key=lambda t: (t.y, t.x, t.id))
    min_x, max_x = min(t.x for t in tiles), max(t.x for t in tiles)
    min_y, max_y = min(t.y for t in tiles), max(t.y for t in tiles)
    board_h = (max_y - min_y + 1) * CELL
    width = max((max_x - min_x + 1) * CELL + 20, 420)
    height = board_h + 40 + 16 * len(state.order)
    svg = draw.Svg(width, height, f"Escape Deathrace: {state.turn.player} to play")
    svg.rect(0, 0, width, height, draw.COLORS["paper"])
    origin = (10 - min_x * CELL, 10 - min_y * CELL)
    for tile in tiles:
        _draw_tile(svg, state, tile, origin)
    _draw_cars(svg, state, origin)
    _draw_legend(svg, state, board_h + 30)
    return svg.render()


def _draw_tile(svg: draw.Svg, state: State, tile: Tile, origin: tuple[int, int]) -> None:
    x0, y0 = origin[0] + tile.x * CELL, origin[1] + tile.y * CELL
    cx, cy = x0 + CELL / 2, y0 + CELL / 2
    fill, label = KIND_STYLE[tile.kind]
    svg.rect(x0 + 2, y0 + 2, CELL - 4, CELL - 4, fill, draw.COLORS["ink"])
    for d in tile.exits:  # road stubs show the exits
        dx, dy = DIRS[d]
        svg.line(cx, cy, cx + dx * (CELL / 2 - 2), cy + dy * (CELL / 2 - 2), draw.COLORS["lane"], 14)
    if tile.arrow:
        label = f"{ARROWS[tile.arrow]} NOS {ARROWS[tile.arrow]}"
    svg.text(x0 + 6, y0 + 14, tile.id, size=10, anchor="start")
    svg.text(cx, y0 + 28, label, size=10, weight="bold")
    boss = _boss_of(tile)
    if boss is not None:
        hp = state.boss_hp[boss]
        svg.text(cx, y0 + CELL - 8, f"{hp}/{BOSS_HP[boss]} HP" if hp else "defeated", size=10,
                 fill=draw.COLORS["boss"], weight="bold")
    for i, drop in enumerate(sorted(d.kind for d in state.board if d.tile == tile.id)):
        svg.text(x0 + CELL - 6, y0 + 14 + 12 * i, drop, size=9, anchor="end", fill=draw.COLORS["enemy"])


def _draw_cars(svg: draw.Svg, state: State, origin: tuple[int, int]) -> None:
    slots: dict[str, int] = {}
    for i, name in enumerate(state.order):
        p = state.players[name]
        if not p.alive or p.tile is None:
            continue
        tile = state.tiles[p.tile]
        n = slots.get(tile.id, 0)
        slots[tile.id] = n + 1
        x = origin[0] + tile.x * CELL + 20 + 19 * n
        y = origin[1] + tile.y * CELL + CELL / 2 + 8
        svg.circle(x, y, 9, CAR_COLOURS[i % len(CAR_COLOURS)], draw.COLORS["ink"])
        svg.text(x, y + 4, name[:2], size=9, fill=draw.COLORS["paper"], weight="bold")
        if p.hazard_side:
            svg.text(x, y + 20, f"side {p.hazard_side}", size=8)


def _draw_legend(svg: draw.Svg, state: State, top: float) -> None:
    svg.text(10, top, f"Turn: {state.turn.player} ({state.turn.phase})", size=12, anchor="start", weight="bold")
    for i, name in enumerate(state.order):
        p = state.players[name]
        drops = ", ".join(f"{k} {n}" for k, n in p.drops.items() if n) or "no drops"
        status = f"{p.hp} HP" if p.alive else "out"
        line = f"{name} ({CHARACTERS[p.character]}): {status}; {drops}; {len(p.power)} power card(s)"
        svg.text(10, top + 16 * (i + 1), line, size=11, anchor="start", fill=CAR_COLOURS[i % len(CAR_COLOURS)])


# ---------------------------------------------------------------------------------------------
# Exact odds (enumerating D4 draws through the same rule functions the engine uses)


@dataclass(frozen=True)
class OddsTable:
    """One exact distribution table: rows of (outcome label, probability per column)."""

    id: str
    title: str
    rule: str
    character: str  # a character id, or "any"
    columns: tuple[str, ...]  # probability columns (the first column, the outcome, is `outcome`)
    outcome: str
    rows: tuple[tuple[str, tuple[Fraction, ...]], ...]
    means: tuple[Fraction, ...] | None = None  # expected damage per column, where rows are damage

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "rule": self.rule,
            "character": self.character,
            "columns": [self.outcome, *self.columns],
            "rows": [[label, *({"fraction": _frac(p), "percent": _pct(p)} for p in probs)]
                     for label, probs in self.rows],
            "means": None if self.means is None else [_frac(m) for m in self.means],
        }


def _frac(f: Fraction) -> str:
    return str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"


def _pct(f: Fraction) -> str:
    return f"{float(f) * 100:.1f}%"


def distribution(n_rolls: int, result: Callable[..., Any]) -> dict[Any, Fraction]:
    """Exact distribution of `result(*rolls)` over `n_rolls` independent D4 draws."""
    out: dict[Any, Fraction] = {}
    combos: list[tuple[int, ...]] = [()]
    for _ in range(n_rolls):
        combos = [(*c, r) for c in combos for r in D4]
    weight = Fraction(1, len(D4) ** n_rolls)
    for combo in combos:
        key = result(*combo)
        out[key] = out.get(key, Fraction(0)) + weight
    return out


def _damage_table(key: str, title: str, character: str, columns: dict[str, dict[int, Fraction]]) -> OddsTable:
    """A table whose rows are HP lost; `key` is the rule entry (the character's own entry if not generic)."""
    label = "any" if character == GENERIC else character
    who = "" if character == GENERIC else f" ({CHARACTERS[character]})"
    values = sorted({v for dist in columns.values() for v in dist})
    rows = tuple((f"-{v} HP" if v else "0 HP", tuple(dist.get(v, Fraction(0)) for dist in columns.values()))
                 for v in values)
    means = tuple(sum((v * p for v, p in dist.items()), Fraction(0)) for dist in columns.values())
    rule = key if character == GENERIC else character
    return OddsTable(f"{key}-{label}", title + who, rule, label, tuple(columns), "HP lost", rows, means)


GENERIC = "generic"  # a car whose ability changes nothing in the table at hand


def _strike_dist(attacker: str, target: str, context: str, source: str) -> dict[int, Fraction]:
    """HP the target loses from all of the attacker's strikes in one action (two for Ariel & FlaMiN)."""
    return distribution(strikes(attacker), lambda *rolls: sum(
        damage_taken(target, strike_hit(attacker, r, context), source) for r in rolls))


def _hazard_outcome(character: str, roll: int) -> tuple[bool, int]:
    passed, damage = hazard_roll(roll)
    return passed, damage_taken(character, damage, "hazard")


def _hazard_tables() -> list[OddsTable]:
    out = []
    for character in (GENERIC, "reegad", "gooday"):
        if skips_hazard(character):
            dist = {(True, 0): Fraction(1)}
        else:
            dist = distribution(1, lambda r, c=character: _hazard_outcome(c, r))
        order = sorted(dist, key=lambda k: (not k[0], k[1]))
        rows = tuple((f"{'pass' if ok else 'fail'}, {f'-{d} HP' if d else '0 HP'}", (dist[(ok, d)],))
                     for ok, d in order)
        mean = sum((d * pr for (_, d), pr in dist.items()), Fraction(0))
        label = "any" if character == GENERIC else character
        who = "" if character == GENERIC else f" ({CHARACTERS[character]})"
        out.append(OddsTable(f"hazard-attempt-{label}", f"One hazard attempt{who}",
                             "hazard-tiles" if character == GENERIC else character, label, ("probability",),
                             "result", rows, (mean,)))
    return out


def _battle_tables() -> list[OddsTable]:
    return [_damage_table("battle-it-out", "Battle-it-out exchange, against a car with no ability", c, {
        "dealt by its strike as the mover": _strike_dist(c, GENERIC, "battle-it-out", "battle-it-out"),
        "dealt by its counter attack": _strike_dist(c, GENERIC, "counter", "battle-it-out"),
        "taken from the other car's strike": _strike_dist(GENERIC, c, "battle-it-out", "battle-it-out"),
    }) for c in (GENERIC, "rebecca-jones", "reegad", "ariel-and-flamin")]


def _drive_by_tables() -> list[OddsTable]:
    out = []
    for c in (GENERIC, "rebecca-jones", "shooter", "reegad", "ariel-and-flamin"):
        columns = {
            "dealt by its drive-by": _strike_dist(c, GENERIC, "drive-by", "drive-by"),
            "taken from a drive-by": _strike_dist(GENERIC, c, "drive-by", "drive-by"),
        }
        if counters_drive_by(c):
            columns["dealt by its counter attack"] = _strike_dist(c, GENERIC, "counter", "drive-by")
        out.append(_damage_table("drive-by", "Drive-by, against a car with no ability", c, columns))
    return out


def _landmine_tables() -> list[OddsTable]:
    return [_damage_table("landmine", "Landmine", c, {
        "taken driving over it": distribution(1, lambda r, c=c: damage_taken(c, landmine_hit(r), "landmine")),
        "taken landing on it": {damage_taken(c, LANDMINE_LANDING, "landmine"): Fraction(1)},
    }) for c in (GENERIC, "reegad", "ariel-and-flamin")]


def _boss_tables() -> list[OddsTable]:
    out = []
    for c in (GENERIC, "rebecca-jones", "reegad", "shooter", "ariel-and-flamin"):
        hit = 0 if first_strike_cancelled(c, False) else damage_taken(c, FIRST_STRIKE, "first-strike")
        out.append(_damage_table("boss-battle", "Boss battle round: first strike, then the D4 action", c, {
            "boss loses to the D4 action": distribution(
                strikes(c), lambda *r, c=c: sum(strike_hit(c, x, "boss") for x in r)),
            "player loses to the first strike": {hit: Fraction(1)},
        }))
    return out


def odds() -> list[OddsTable]:
    """Exact distributions for every roll the rulebook resolves on a D4 table."""
    return [*_hazard_tables(), *_battle_tables(), *_drive_by_tables(), *_landmine_tables(), *_boss_tables()]


# --- the engine contract -----------------------------------------------------------------------

SetupSpec = make_dataclass("SetupSpec", [(k, Any, field(default=None)) for k in SETUP_KEYS], frozen=True)
ACTION_SPECS = {do: make_dataclass(f"{do.title().replace('_', '')}Action",
                                   [("do", str), ("player", Any, field(default=None)),
                                    *((k, Any, field(default=None)) for k in keys)], frozen=True)
                for do, keys in ACTION_KEYS.items()}


@dataclass(frozen=True)
class Options:
    """How a whole game is set up."""

    players: int = 2


class EscapeDeathrace(Engine):
    type = GameType(name="Escape Deathrace 2182 Micro", min_players=1, max_players=MAX_PLAYERS, max_actions=5000)
    setup_spec = SetupSpec
    action_specs = ACTION_SPECS
    options_spec = Options
    notes = NOTES

    def initial_state(self, setup: Any, content: GameContent) -> State:
        return initial_state({k: v for k, v in to_data(setup).items() if v is not None})

    def new_game(self, options: Any, content: GameContent, chance: Chance) -> State:
        raise NotImplementedError("whole games are not set up yet")

    def players_to_act(self, state: State) -> list[str]:
        return sorted({a.get("player", state.turn.player) for a in legal_actions(state)})

    def legal_actions(self, state: State, player: str | None = None) -> list[Any]:
        return [self.parse_action(a) for a in legal_actions(state)
                if player is None or a.get("player", state.turn.player) == player]

    def apply(self, state: State, action: Any, chance: Chance) -> tuple[State, list[Event]]:
        return apply(state, {k: v for k, v in to_data(action).items() if v is not None}, chance)

    def outcome(self, state: State, events: list[Event]) -> dict[str, Any]:
        return outcome(state, events)

    def result(self, state: State) -> dict[str, Any]:
        return {"result": state.winner or "none"}

    def draw_svg(self, state: State) -> str:
        return draw_svg(state)

    def odds(self) -> list[dict[str, Any]]:
        return [t.as_dict() for t in odds()]


GAME = EscapeDeathrace()
