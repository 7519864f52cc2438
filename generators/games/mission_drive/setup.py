"""Mission: Drive: a scenario's position (`initial_state`, refused with its key path when the rules
cannot reach it) and a whole game from the rulebook's setup (`new_game`), with the mission setup the
later missions repeat (`_setup_mission`, `_deal`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from generators.build_system.errors import KeyPath
from generators.games.mission_drive.context import Ctx
from generators.games.mission_drive.facts import (
    MISSION_SIDES,
    PINK_CARDS,
    REWARD_POINTS,
    SHORT_GAME_POINTS,
    SHORT_GAME_SIDES,
    SLOTS,
    UPGRADES_REVEALED,
    BossCard,
    BossDesign,
    BossFace,
    BossPart,
    Card,
    Facts,
    Pos,
    Space,
    facts_of,
    pair,
)
from generators.games.mission_drive.flow import settle
from generators.games.mission_drive.specs import BossCardSpec, BossSpec, Options, SetupSpec, UpgradeSpec
from generators.games.mission_drive.state import Boss, Destroyed, State, Token, Upgrade, Vehicle, add, part_space
from generators.rules.chance import Chance
from generators.rules.facts import GameContent
from generators.rules.refusals import SetupError

# --- building a scenario's state ---------------------------------------------------------------


def _space(value: Pos, path: KeyPath, lanes: int, rows: int, on_board: bool = True) -> Space:
    if len(value) != 2:
        raise SetupError(path, f"a space is [column, row], got {list(value)}")
    col, row = value
    if on_board and not (0 <= col < lanes and 0 <= row < rows):
        raise SetupError(path, f"[{col}, {row}] is off the road ({lanes} lanes x {rows} rows, from [0, 0])")
    return col, row


def _card(spec: Any, path: KeyPath) -> Card:
    if isinstance(spec, str):
        return Card(spec)
    if not spec:
        raise SetupError(path, "a hero card needs at least one arrow")
    return Card("hero", tuple(spec))


def initial_state(spec: SetupSpec, facts: Facts) -> State:
    """The state a scenario's setup describes; SetupError(path) if the rules cannot reach it."""
    lanes, rows = (spec.road.lanes, spec.road.rows) if spec.road else (facts.lanes, facts.rows)

    def sp(value: Pos, path: KeyPath) -> Space:
        return _space(value, path, lanes, rows)

    track = spec.health_track or facts.health_spaces
    health = track - 1 if spec.hero.health is None else spec.hero.health
    if health > track - 1:
        raise SetupError(("hero", "health"), f"health {health} does not fit a track of {track} spaces")
    default_row = spec.start_forward if spec.phase == "boss" else 0
    hero = sp(spec.hero.at, ("hero", "at")) if spec.hero.at is not None else (lanes // 2, default_row)
    _check_progress(spec)
    _check_uplinks(spec, facts, rows)
    state = State(
        facts=facts, lanes=lanes, rows=rows, phase=spec.phase, variant=spec.variant, mission=spec.mission,
        reward=spec.reward, difficulty=spec.difficulty, boss_name=spec.boss.name if spec.boss else "tank",
        health_track=track, health=health, hero=hero,
        vehicles=[Vehicle(side, v.type, sp(v.at, (key, i, "at")), v.damaged)
                  for side, key in (("enemy", "enemies"), ("civilian", "civilians"))
                  for i, v in enumerate(getattr(spec, key))],
        uplinks=[sp(u, ("uplinks", i)) for i, u in enumerate(spec.uplinks)],
        slots={s: (Card("hero", tuple(getattr(spec.dashboard, s))) if getattr(spec.dashboard, s) else None)
               for s in SLOTS},
        mirrors={s: getattr(spec.mirrors, s) for s in SLOTS},
        deck=[_card(c, ("deck", i)) for i, c in enumerate(spec.deck)],
        discard=[_card(c, ("discard", i)) for i, c in enumerate(spec.discard)],
        destroyed=[Destroyed(d.side, d.type, "earlier") for d in spec.destroyed],
        upgrades=[_upgrade(u, facts, ("upgrades", i)) for i, u in enumerate(spec.upgrades)],
        offer=[_upgrade(u, facts, ("offer", i)) for i, u in enumerate(spec.offer)],
        mission_deck=_mission_deck(spec, facts),
        points=_initial_points(spec),
        laser_used=spec.laser_used,
        start_forward=spec.start_forward,
        supply=dict(facts.supply),
    )
    _check_upgrades(spec)
    _check_box(state, spec)
    _check_movement_cards(state, spec)
    if spec.phase == "boss":
        _setup_boss_phase(state, spec)
    elif spec.boss is not None and spec.boss != BossSpec(name=spec.boss.name):
        raise SetupError(("boss",), "before the boss encounter (phase: boss), boss: gives only the name of the "
                         "boss chosen at game setup")
    elif spec.tokens:
        raise SetupError(("tokens",), "weapon tokens only appear in a boss encounter (phase: boss)")
    if spec.boss is not None and not spec.boss.parts and spec.boss.name not in facts.bosses:
        raise SetupError(("boss", "name"), f"no boss {spec.boss.name!r} in the content; bosses: "
                         f"{', '.join(facts.bosses)}")
    _check_overlaps(state, spec)
    _check_dashboard(state)
    if spec.phase == "upgrades":
        state.mission_status = None if spec.variant == "short" else "accomplished"
    settle(state)
    return state


def _upgrade(u: UpgradeSpec, facts: Facts, path: KeyPath) -> Upgrade:
    """An upgrade: a content card by its id (values from the card unless given), or one written out."""
    card = facts.upgrades.get(u.id)
    cost = u.cost if u.cost is not None else (card.cost if card else 0)
    spaces = u.charge_spaces if u.charge_spaces is not None else (card.charge_spaces if card else 0)
    device = u.device if u.device is not None else (card.device if card else False)
    effect = u.effect if u.effect is not None else (card.effect if card else None)
    if u.charges > spaces:
        raise SetupError((*path, "charges"), f"{u.charges} charges do not fit on {spaces} charge spaces")
    return Upgrade(u.id, cost, spaces, u.charges, device, effect)


def _mission_deck(spec: SetupSpec, facts: Facts) -> list[str]:
    for i, mid in enumerate(spec.mission_deck):
        if mid not in facts.missions:
            raise SetupError(("mission_deck", i), f"no mission card {mid!r}; cards: {', '.join(facts.missions)}")
        if mid in spec.mission_deck[:i]:
            raise SetupError(("mission_deck", i), f"mission card {mid!r} appears twice")
    left = len(facts.missions) - 2 * spec.mission  # two cards per mission, the current one's on the road
    if spec.mission_deck and len(spec.mission_deck) != left:
        raise SetupError(("mission_deck",), f"after the cards of mission {spec.mission}, {left} mission cards are "
                         f"left in the deck, not {len(spec.mission_deck)}")
    return list(spec.mission_deck)


def _initial_points(spec: SetupSpec) -> int:
    if spec.phase != "upgrades":
        if spec.points:
            raise SetupError(("points",), "points are only held during an upgrade step (phase: upgrades)")
        return 0
    most = SHORT_GAME_POINTS if spec.variant == "short" else REWARD_POINTS[spec.reward]
    if spec.points is None:
        if spec.variant == "short":
            return SHORT_GAME_POINTS  # Variant - Short Game: 7 points before you start
        raise SetupError(("points",), "an upgrade step needs points: n (the points scored by the mission)")
    if spec.points > most:
        where = "the short game gives" if spec.variant == "short" else f"a {spec.reward} mission scores at most"
        raise SetupError(("points",), f"{spec.points} points: {where} {most}")
    return spec.points


def _check_progress(spec: SetupSpec) -> None:
    """Mission sides, variant, laser strike and head start as far as the game can have got."""
    if spec.cards is not None:
        wanted = SHORT_GAME_SIDES if spec.variant == "short" else MISSION_SIDES[spec.mission]
        if sorted(spec.cards) != sorted(wanted):
            which = "the short game" if spec.variant == "short" else f"mission {spec.mission}"
            raise SetupError(("cards",), f"{which} uses mission card sides {' / '.join(wanted)}, got "
                             f"{' / '.join(spec.cards)}")
    sides = SHORT_GAME_SIDES if spec.variant == "short" else MISSION_SIDES[spec.mission]
    if spec.uplinks and spec.phase != "boss" and "pink" not in sides:
        raise SetupError(("uplinks", 0), f"satellite up-links are only on pink mission cards, and mission "
                         f"{spec.mission} is played on two green cards (Setting Up a Mission)")
    if spec.variant == "short" and (spec.mission != 1 or spec.phase == "boss"):
        key = "phase" if spec.phase == "boss" else "mission"
        raise SetupError((key,), "the short game is one mission, with no boss encounter")
    if spec.laser_used and spec.reward != "rookie":
        raise SetupError(("laser_used",), "the satellite laser strike is only for the rookie mission reward level")
    if spec.start_forward and not (spec.phase == "boss" or (spec.phase == "upgrades" and spec.mission == 3
                                                            and spec.variant == "standard")):
        raise SetupError(("start_forward",), "the head start is only bought in the upgrade step after the third "
                         "mission, for the boss encounter")


def _check_uplinks(spec: SetupSpec, facts: Facts, rows: int) -> None:
    """Each up-link on a pink card: the road is the two mission cards end to end, the near one first."""
    if not spec.uplinks or spec.phase == "boss" or rows != 2 * facts.board_rows:
        return  # a boss has none (checked with its setup); a road of another size has no cards to tell apart
    # ruling: mission-2-card-order
    sides = spec.cards or (SHORT_GAME_SIDES if spec.variant == "short" else MISSION_SIDES[spec.mission])
    for i, (_, row) in enumerate(spec.uplinks):
        card = min(row // facts.board_rows, 1) if row >= 0 else 0
        if sides[card] != "pink":
            which = "nearest you" if card == 0 else "beyond"
            raise SetupError(("uplinks", i), f"satellite up-links are only on pink mission cards, and row {row} is "
                             f"on the green card {which} (Setting Up a Mission)")


def _check_upgrades(spec: SetupSpec) -> None:
    seen: set[str] = set()
    for key, group in (("upgrades", spec.upgrades), ("offer", spec.offer)):
        for i, u in enumerate(group):
            if u.id in seen:
                raise SetupError((key, i, "id"), f"upgrade {u.id!r} appears twice")
            seen.add(u.id)
            if len(seen) > UPGRADES_REVEALED:
                raise SetupError((key, i), f"only {UPGRADES_REVEALED} upgrade cards are revealed in a game, so at "
                                 f"most {UPGRADES_REVEALED} can be installed or on offer")


def _check_box(state: State, spec: SetupSpec) -> None:
    """No more vehicles of a kind than the box has tokens (on the road plus destroyed this mission)."""
    left = {(side, types): count for side, types, count in state.facts.box}
    entries = [("enemy" if key == "enemies" else "civilian", v.type, (key, i))
               for key in ("enemies", "civilians") for i, v in enumerate(getattr(spec, key))]
    entries += [(d.side, d.type, ("destroyed", i)) for i, d in enumerate(spec.destroyed)]
    for side, vtype, path in entries:
        group = next(((s, t) for s, t, _ in state.facts.box if s == side and vtype in t), None)
        if group is None or left[group] == 0:
            total = sum(c for s, t, c in state.facts.box if s == side and vtype in t)
            tokens = "token" if total == 1 else "tokens"
            raise SetupError(path, f"the box has only {total} {side} {tokens} that can show a {vtype}")
        left[group] -= 1


def _check_movement_cards(state: State, spec: SetupSpec) -> None:
    """No more hero, enemy or civilian cards than the movement deck has; none of the last two once the
    boss is set up (Hero Card Setup)."""
    left = {kind: state.facts.count(kind) for kind in ("hero", "enemy", "civilian")}
    boss_ready = spec.phase == "boss" and spec.boss is not None and bool(spec.boss.column)
    places: list[tuple[KeyPath, Card | None]] = [(("dashboard", s), state.slots[s]) for s in SLOTS]
    places += [(("deck", i), c) for i, c in enumerate(state.deck)]
    places += [(("discard", i), c) for i, c in enumerate(state.discard)]
    for path, card in places:
        if card is None:
            continue
        if boss_ready and card.kind != "hero":
            raise SetupError(path, f"the {card.kind} cards go back in the box at boss setup")
        if left[card.kind] == 0:
            raise SetupError(path, f"the movement deck has only {state.facts.count(card.kind)} {card.kind} cards")
        left[card.kind] -= 1


def _check_dashboard(state: State) -> None:
    """A used slot is refilled at once, so it stays empty only once the movement deck is used up."""
    if state.phase not in ("mission", "boss") or not state.deck:
        return
    for slot in SLOTS:
        if state.slots[slot] is None:
            raise SetupError(("dashboard", slot), "a slot is refilled from the movement deck at once; it can only "
                             "be empty once the deck is used up")


def _check_overlaps(state: State, spec: SetupSpec) -> None:
    """Two things in one space would make every later rule ambiguous: refuse them at the second."""
    taken: dict[Space, str] = {}

    def claim(space: Space, path: KeyPath, what: str) -> None:
        if space in taken:
            raise SetupError(path, f"{what} is on {list(space)}, which {taken[space]} already occupies")
        taken[space] = what

    claim(state.hero, ("hero", "at"), "the hero")
    for key, group in (("enemies", spec.enemies), ("civilians", spec.civilians)):
        for i, v in enumerate(group):
            claim(pair(v.at), (key, i, "at"), f"{key}[{i}]")
    for i, u in enumerate(state.uplinks):
        claim(u, ("uplinks", i), f"uplinks[{i}]")
    for i, t in enumerate(state.tokens):
        claim(t.at, ("tokens", i, "at"), f"tokens[{i}]")
    if state.boss is not None and state.boss.at is not None:
        for part in state.boss.parts:
            claim(part_space(state.boss, part), ("boss", "at"), f"boss part {part.id!r}")


def _setup_boss_phase(state: State, spec: SetupSpec) -> None:
    b = spec.boss or BossSpec()
    for key, group in (("enemies", spec.enemies), ("civilians", spec.civilians), ("uplinks", spec.uplinks),
                       ("destroyed", spec.destroyed)):
        if group:
            raise SetupError((key,), "a boss encounter uses no mission cards, so it has no vehicles or up-links")
    if b.parts:
        parts = tuple(BossPart(p.id, p.tile, _space(p.at, ("boss", "parts", i, "at"), 0, 0, False), p.vulnerable,
                               tuple(_space(t, ("boss", "parts", i, "targets", j), 0, 0, False)
                                     for j, t in enumerate(p.targets)))
                      for i, p in enumerate(b.parts))
        tiles = tuple(dict.fromkeys(p.tile for p in parts))
        activation = tuple((tiles[0], _space(a, ("boss", "activation", i), 0, 0, False))
                           for i, a in enumerate(b.activation))
    else:
        design = state.facts.bosses.get(b.name)
        if design is None:
            raise SetupError(("boss", "name"), f"no boss {b.name!r} in the content; bosses: "
                             f"{', '.join(state.facts.bosses)}")
        parts, tiles, activation = design.parts, design.tiles, design.activation
    if b.column or b.cards:
        key = "column" if b.column else "cards"
        cards = tuple(_boss_card(c, ("boss", key, i), tiles, parts, state) for i, c in enumerate(b.column or b.cards))
    else:
        if b.at is not None or b.damaged:
            raise SetupError(("boss", "at" if b.at is not None else "damaged"), "a boss set up from its cards "
                             "(boss_setup) is not on the road yet")
        cards = design_cards(state, state.facts.bosses[b.name], ("boss", "name"))
    boss = Boss(
        name=b.name, parts=parts, tiles=tiles, activation=activation,
        column=list(cards) if b.column else [], cards=() if b.column else cards, pink=b.pink,
        weapons=dict(b.weapons) if b.column else {}, fixed_weapons=dict(b.weapons),
        at=None if b.at is None else _anchors(b.at, ("boss", "at"), tiles, parts, state),
        damaged=sorted(b.damaged),
    )
    state.boss = boss
    state.turn = spec.turn if b.column else "setup"
    start = (state.lanes // 2, spec.start_forward)
    if not b.column and state.hero != start:
        raise SetupError(("hero", "at"), f"before the boss's first turn the hero is on its start space {list(start)} "
                         "(the centre of the near edge, start_forward spaces up)")
    _check_weapons(state, b)
    if b.column:
        _check_column(boss)
        _check_first_turn(boss, state.turn)
    else:
        _check_cards(boss, b, state.difficulty)
    unknown = [d for d in b.damaged if d not in {p.id for p in parts}]
    if unknown:
        raise SetupError(("boss", "damaged"), f"unknown part {unknown[0]!r}; parts are "
                         f"{', '.join(p.id for p in parts)}")
    if len(set(b.damaged)) != len(b.damaged):
        raise SetupError(("boss", "damaged"), "a boss part carries one damage token at most")
    if len(b.damaged) > state.facts.damage_tokens:
        raise SetupError(("boss", "damaged"), f"the game has only {state.facts.damage_tokens} boss damage tokens")
    for i, t in enumerate(spec.tokens):
        kind_type = "launch" if t.kind == "rocket" else "drone"
        if kind_type not in boss.weapons:
            raise SetupError(("tokens", i, "kind"), f"a {t.kind} token needs a {kind_type} weapon card in "
                             "boss.weapons (and a set-up column)")
        state.tokens.append(Token(state.next_token, t.kind, _space(t.at, ("tokens", i, "at"), state.lanes,
                                                                   state.rows)))
        state.next_token += 1
        state.supply[t.kind] = state.supply.get(t.kind, 0) - 1
        if state.supply[t.kind] < 0:
            raise SetupError(("tokens", i), f"the game has only {state.facts.supply.get(t.kind, 0)} {t.kind} tokens")


def design_cards(state: State, design: BossDesign, path: KeyPath) -> tuple[BossCard, ...]:
    """The content boss's six cards in road coordinates: a card shows the far road board."""
    offset = state.rows - state.facts.board_rows
    cards = []
    for c in design.cards:
        faces = []
        for side in (c.front, c.back):
            if len(side.at) != len(design.tiles):
                raise SetupError(path, f"{design.name} card {c.number} {c.color} gives {len(side.at)} space(s) for "
                                 f"{len(design.tiles)} tile(s)")
            at = dict(zip(design.tiles, side.at, strict=True))
            faces.append(BossFace(_anchor_pairs({t: (p[0], p[1] + offset) for t, p in at.items()}, path,
                                                design.tiles, design.parts, state), tuple(side.weapons)))
        cards.append(BossCard(c.number, c.color, (faces[0], faces[1])))
    return tuple(cards)


def _anchor_pairs(value: Mapping[str, Pos], path: KeyPath, tiles: Sequence[str], parts: Sequence[BossPart],
                  state: State) -> tuple[tuple[str, Space], ...]:
    return tuple(_anchors(value, path, tiles, parts, state).items())


def _anchors(value: Pos | Mapping[str, Pos], path: KeyPath, tiles: Sequence[str], parts: Sequence[BossPart],
             state: State) -> dict[str, Space]:
    """A boss position: one space for a one-tile boss, else {tile: space}; every part must be on the road."""
    if isinstance(value, Mapping):
        if sorted(value) != sorted(tiles):
            raise SetupError(path, f"give a space for each boss tile: {', '.join(tiles)}")
        anchors = {t: _space(value[t], (*path, t), state.lanes, state.rows, False) for t in tiles}
    else:
        if len(tiles) != 1:
            raise SetupError(path, f"this boss has tiles {', '.join(tiles)}: write at: {{tile: [c, r], ...}}")
        anchors = {tiles[0]: _space(value, path, state.lanes, state.rows, False)}
    spaces: set[Space] = set()
    for part in parts:
        col, row = add(anchors[part.tile], part.offset)
        if not (0 <= col < state.lanes and 0 <= row < state.rows):
            raise SetupError(path, f"boss part {part.id!r} would be off the road at [{col}, {row}]")
        if (col, row) in spaces:
            raise SetupError(path, f"two boss parts would share [{col}, {row}]")
        spaces.add((col, row))
    return anchors


def _boss_card(c: BossCardSpec, path: KeyPath, tiles: Sequence[str], parts: Sequence[BossPart],
               state: State) -> BossCard:
    faces = tuple(BossFace(tuple(_anchors(f.at, (*path, side, "at"), tiles, parts, state).items()), tuple(f.weapons))
                  for side, f in (("front", c.front), ("back", c.back)))
    return BossCard(c.number, c.color, (faces[0], faces[1]), 1 if c.flipped else 0)


def _check_weapons(state: State, b: BossSpec) -> None:
    for kind, name in b.weapons.items():
        card = state.facts.weapons.get(name)
        if card is None or card.type != kind:
            names = [n for n, w in state.facts.weapons.items() if w.type == kind]
            raise SetupError(("boss", "weapons", kind), f"{name!r} is not a {kind} weapon card; expected one of "
                             f"{', '.join(names)}")


def _check_column(boss: Boss) -> None:
    if sorted(c.number for c in boss.column) != [1, 2, 3]:
        raise SetupError(("boss", "column"), "the column holds the boss's cards 1, 2 and 3 once each")
    for i, card in enumerate(boss.column):
        for side, face in zip(("front", "back"), card.faces, strict=True):
            for j, kind in enumerate(face.weapons):
                if kind not in boss.weapons:
                    raise SetupError(("boss", "column", i, side, "weapons", j),
                                     f"this card shows a {kind} symbol but boss.weapons has no {kind} card")


def _check_first_turn(boss: Boss, turn: str | None) -> None:
    """A boss not on the road yet has had no turn: its column is still 1, 2, 3, front sides up."""
    if boss.at is not None:
        return
    if turn == "hero":
        raise SetupError(("boss", "at"), "after the boss's first turn the boss is on the road: give boss.at")
    if [(c.number, c.up) for c in boss.column] != [(1, 0), (2, 0), (3, 0)]:
        raise SetupError(("boss", "column"), "before the boss's first turn the column is 1, 2, 3, front sides up")


def _check_cards(boss: Boss, b: BossSpec, difficulty: str) -> None:
    have = sorted((c.number, c.color) for c in boss.cards)
    if have != sorted((n, col) for n in (1, 2, 3) for col in ("green", "pink")):
        raise SetupError(("boss", "cards"), "cards lists the boss's six movement cards: green and pink 1, 2, 3")
    if b.pink is not None:
        wanted = PINK_CARDS[difficulty]
        if len(b.pink) != wanted or len(set(b.pink)) != wanted or not set(b.pink) <= {1, 2, 3}:
            raise SetupError(("boss", "pink"), f"{difficulty} boss difficulty uses {wanted} pink card(s) "
                             f"among 1, 2, 3, got {list(b.pink)}")


# --- whole games -------------------------------------------------------------------------------


def new_game(options: Options, facts: Facts, chance: Chance) -> State:
    """Setting Up the Game, then mission 1 (or the short game's upgrade step before its mission)."""
    if options.boss not in facts.bosses:
        raise SetupError(("boss",), f"no boss {options.boss!r} in the content; bosses: {', '.join(facts.bosses)}")
    s = State(facts=facts, lanes=facts.lanes, rows=facts.rows, phase="mission", variant=options.variant, mission=1,
              reward=options.reward, difficulty=options.difficulty, boss_name=options.boss,
              health_track=facts.health_spaces, health=facts.health_spaces - 1, hero=(facts.lanes // 2, 0),
              supply=dict(facts.supply))
    ctx = Ctx(s, chance)
    s.mission_deck = chance.shuffle("mission deck", list(facts.missions))
    upgrades = chance.shuffle("upgrade deck", list(facts.upgrades))
    s.offer = [_content_upgrade(uid, facts) for uid in upgrades[:UPGRADES_REVEALED]]
    setup_mission(ctx)
    if s.variant == "short":  # Variant - Short Game: 7 points to spend before the mission starts
        s.phase, s.mission_status, s.points = "upgrades", None, SHORT_GAME_POINTS
    return s


def _content_upgrade(uid: str, facts: Facts) -> Upgrade:
    card = facts.upgrades[uid]
    return Upgrade(uid, card.cost, card.charge_spaces, 0, card.device, card.effect)


def setup_mission(ctx: Ctx) -> None:
    """Setting Up a Mission: two mission cards (sides by mission), vehicles and up-links as drawn, the
    hero on the centre of the near edge, mirrors face up, the movement deck shuffled and dealt."""
    s, facts = ctx.s, ctx.s.facts
    assert (s.lanes, s.rows) == (facts.lanes, facts.rows), "the rules check the road's size first"
    if len(s.mission_deck) < 2:
        # A scenario that starts part-way through a game may leave the mission deck out: shuffle it now.
        s.mission_deck = ctx.chance.shuffle("mission deck", list(facts.missions))
    # ruling: mission-2-card-order
    sides = SHORT_GAME_SIDES if s.variant == "short" else MISSION_SIDES[s.mission]
    s.mission_cards = list(zip(s.mission_deck[:2], sides, strict=True))
    s.mission_deck = s.mission_deck[2:]
    s.vehicles, s.uplinks, s.tokens, s.destroyed = [], [], [], []
    for board, (mid, side) in enumerate(s.mission_cards):
        layout = getattr(facts.missions[mid], side)
        rows = board * facts.board_rows
        s.vehicles += [Vehicle(v.side, v.type, (v.at[0], v.at[1] + rows)) for v in layout.vehicles]
        s.uplinks += [(u[0], u[1] + rows) for u in layout.uplinks]
    s.hero = (s.lanes // 2, 0)
    s.mirrors = dict.fromkeys(SLOTS, True)
    s.pending, s.phase, s.mission_status, s.score = None, "mission", "playing", None
    s.effects, s.shield = [], 0
    ctx.event("mission_set_up", mission=s.mission, cards=[f"{mid} {side}" for mid, side in s.mission_cards])
    deal(ctx, [fid for fid, _ in facts.movement])


def deal(ctx: Ctx, face_ids: list[str]) -> None:
    """Shuffle the movement deck and deal one hero card into each slot, left to right. Enemy and
    civilian cards drawn on the way go back, and the deck is shuffled again."""
    s, facts = ctx.s, ctx.s.facts
    order = ctx.chance.shuffle("movement deck", face_ids)
    slots: list[Card] = []
    back: list[str] = []
    while order and len(slots) < len(SLOTS):
        fid = order.pop(0)
        card = facts.card(fid)
        if card.kind == "hero":
            slots.append(card)
        else:
            back.append(fid)
    # ruling: opening-deal
    if back:
        order = ctx.chance.shuffle("movement deck", order + back)
    s.slots = {slot: (slots[i] if i < len(slots) else None) for i, slot in enumerate(SLOTS)}
    s.deck = [facts.card(fid) for fid in order]
    s.discard = []
    ctx.event("dashboard_dealt", cards=[c.label() for c in slots], reshuffled=len(back))


def from_setup(spec: SetupSpec, content: GameContent) -> State:
    return initial_state(spec, facts_of(content))


def start(options: Options, content: GameContent, chance: Chance) -> State:
    return new_game(options, facts_of(content), chance)
