"""Escape Deathrace 2182 Micro: a scenario's position, checked to be one the rules can reach, and a
whole game set up as the rulebook's Setup says."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from generators.build_system.errors import KeyPath
from generators.games.escape_deathrace.facts import (
    BOSS_KINDS,
    DIRS,
    DROP_KINDS,
    MAX_PLAYERS,
    OPPOSITE,
    SETUP_KINDS,
    STARTING_DROPS,
    Box,
    skips_hazard,
)
from generators.games.escape_deathrace.flow import set_phase_for_position
from generators.games.escape_deathrace.road import spot_problem
from generators.games.escape_deathrace.specs import Options, SetupSpec, TileSpec
from generators.games.escape_deathrace.state import BoardDrop, Player, State, Tile, Turn
from generators.rules.chance import Chance
from generators.rules.facts import GameContent
from generators.rules.refusals import SetupError

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
        arrow = arrow or next(d for d in ("E", "S", "N", "W") if d in exits)
        if arrow is None or arrow not in exits:
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
        drops: dict[str, int] = ps.drops.as_dict() if ps.drops is not None else {k: 1 for k in DROP_KINDS}
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
            n = box.events[card]
            raise SetupError(("event_deck", i), f"the box holds {n} {box.titles.get(card, card)} event "
                             f"{'card' if n == 1 else 'cards'}; the deck has more")
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
        why = spot_problem(tile, d.kind, boss_hp)
        if why:
            raise SetupError((*path, "tile"), why)
        if any(o.tile == d.tile and o.kind == d.kind for o in out):
            raise SetupError((*path, "tile"), f"there is already a {d.kind} on {d.tile}")
        for j, name in enumerate(d.on):
            if d.kind != "landmine" or name not in players or players[name].tile != d.tile or name == d.owner:
                raise SetupError((*path, "on", j), "on: names other cars on a landmine's tile")
        out.append(BoardDrop(d.kind, d.tile, d.owner, tuple(d.on)))
    return out


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
    set_phase_for_position(state, players[turn], spec.phase)
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


def from_setup(spec: SetupSpec, content: GameContent) -> State:
    return initial_state(spec, content.view(Box.of))


def start(options: Options, content: GameContent, chance: Chance) -> State:
    return new_game(options, content.view(Box.of), chance)
