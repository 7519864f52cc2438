"""Дроноводи: states to start from: a scenario's setup (checked against the rulebook's numbers and the
cards there are), and a whole game set up as the rulebook says (Setup 1-2, with the advanced rules)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from generators.build_system.errors import ContentError, KeyPath
from generators.content.schema import convert, to_data
from generators.content.yaml_io import Doc
from generators.games.dronovody.facts import (
    DECKS,
    DRONE_TYPES,
    FIELD_PER_PLAYER,
    MAX_PLAYERS,
    SHOP_START,
    TRENCH_PER_PLAYER,
    WOUNDED_LIMIT,
    Catalogue,
    CharacterFacts,
    DroneFacts,
    SupportFacts,
    ThreatFacts,
    catalogue,
)
from generators.games.dronovody.flow import deal
from generators.games.dronovody.specs import DroneSetup, Options, PlayerSetup, ProjectSetup, SetupSpec, rules_of
from generators.games.dronovody.state import Deck, Drone, Player, Project, Rules, Start, State, Turn
from generators.rules.chance import Chance
from generators.rules.contract import Event
from generators.rules.facts import GameContent
from generators.rules.refusals import SetupError


def _count_placed(placed: list[tuple[KeyPath, str]], cat: Catalogue) -> dict[str, int]:
    used: dict[str, int] = {}
    for path, card in placed:
        if card not in cat.counts:
            raise SetupError(path, f"no card {card!r} in this game")
        used[card] = used.get(card, 0) + 1
        if used[card] > cat.counts[card]:
            raise SetupError(path, f"the game has {cat.counts[card]} {cat.title(card)} card(s); this setup places more")
    return used


def _expect(path: KeyPath, card: str, table: Mapping[str, Any], what: str) -> str:
    if card not in table:
        raise SetupError(path, f"{card!r} is not a {what}; {what}s: {', '.join(sorted(table))}")
    return card


FACT_TABLES = {"characters": CharacterFacts, "drones": DroneFacts, "support": SupportFacts, "threats": ThreatFacts}


def with_card_values(cat: Catalogue, cards: Mapping[str, Mapping[str, Any]]) -> Catalogue:
    """The catalogue with some cards' facts replaced (a scenario playing printed values the kit
    designs as house): each given key replaces the kit's value; the card is checked as content is."""
    if not cards:
        return cat
    tables = {d: dict(getattr(cat, d)) for d in FACT_TABLES}
    for card, values in cards.items():
        if card not in cat.counts:
            raise SetupError(("cards", card), f"no card {card!r} in this game")
        deck = cat.deck_of(card)
        merged = {**to_data(tables[deck][card]), **dict(values)}
        try:
            tables[deck][card] = convert(Doc("<setup>", merged, {}), FACT_TABLES[deck], (), merged)
        except ContentError as exc:
            raise SetupError(("cards", card, *exc.keypath), exc.message) from None
    return replace(cat, **tables)  # type: ignore[arg-type]  # the four fact tables, by field name


def from_setup(spec: SetupSpec, content: GameContent) -> State:
    """The state a scenario's setup describes; SetupError where the rules cannot reach it."""
    return initial_state(spec, content.view(catalogue))


def start(options: Options, content: GameContent, chance: Chance) -> State:
    return new_game(options, content.view(catalogue), chance)


def initial_state(spec: SetupSpec, cat: Catalogue) -> State:
    cat = with_card_values(cat, spec.cards)
    if not 1 <= len(spec.players) <= MAX_PLAYERS:
        raise SetupError(("players",), f"1 to {MAX_PLAYERS} players play; this setup seats {len(spec.players)}")
    names = [p.name for p in spec.players]
    if len(set(names)) != len(names):
        raise SetupError(("players",), "player names must differ")
    r = spec.rules
    rules = rules_of(r.extended_rotation, r.rounds, r.fog_of_war, r.horde, r.istar)
    if spec.phase == "setup":
        return _scenario_setup_state(spec, cat, rules, names)
    placed: list[tuple[KeyPath, str]] = []
    players = {}
    for i, ps in enumerate(spec.players):
        players[ps.name] = _player(ps, ("players", i), cat, placed)
    for key, table, what in (("trench", cat.characters, "Character"), ("shop", cat.drones, "Drone card"),
                             ("field", cat.threats, "Threat card"), ("bonus", cat.support, "Support card")):
        for j, card in enumerate(getattr(spec, key)):
            placed.append(((key, j), _expect((key, j), card, table, what)))
    if not spec.trench:
        raise SetupError(("trench",), "an empty Trench means the game is already lost; place at least one Character")
    for j, card in enumerate(spec.field):
        if cat.threats[card].kind == "mishap":
            raise SetupError(("field", j), "Mishaps are dealt to players, never placed on the field")
    decks = {d: Deck() for d in DECKS}
    for deck in DECKS:
        for j, card in enumerate(getattr(spec.decks, deck)):
            table = getattr(cat, deck)
            placed.append((("decks", deck, j), _expect(("decks", deck, j), card, table, f"{deck[:-1]} card")))
            decks[deck].top.append(card)
    discards: dict[str, list[str]] = {"drones": [], "support": [], "threats": []}
    for deck in discards:
        for j, card in enumerate(getattr(spec.discards, deck)):
            table = getattr(cat, deck)
            placed.append((("discards", deck, j), _expect(("discards", deck, j), card, table, f"{deck[:-1]} card")))
            discards[deck].append(card)
    for j, card in enumerate(spec.out_of_game):
        placed.append((("out_of_game", j), card))
    used = _count_placed(placed, cat)
    for card, n in cat.counts.items():
        decks[cat.deck_of(card)].pool += (card,) * (n - used.get(card, 0))
    for d in decks.values():
        d.pool = tuple(sorted(d.pool))
    state = State(cat, rules, names, players,
                  spec.odo or names[0], list(spec.trench), spec.round, spec.phase, None, list(spec.shop),
                  list(spec.field), decks, discards, list(spec.out_of_game), list(spec.rolled),
                  spec.threats_placed)
    _check_turn(spec, state)
    return state


def _scenario_setup_state(spec: SetupSpec, cat: Catalogue, rules: Rules, names: list[str]) -> State:
    """The moment before the Operations Duty Officer sets up: only names and the setup choices count."""
    bare = SetupSpec(players=tuple(PlayerSetup(n) for n in names), phase="setup", odo=spec.odo, start=spec.start,
                     rules=spec.rules, cards=spec.cards)
    if spec != bare:
        raise SetupError(("phase",), "a setup-phase scenario gives only player names, odo, start and rules: every "
                         "card is still in its deck")
    odo = spec.odo or names[0]
    if odo not in names:
        raise SetupError(("odo",), f"no player {odo!r}")
    return setup_state(cat, rules, names, odo, Start(spec.start.first_game, spec.start.random_start))


def _player(ps: PlayerSetup, path: KeyPath, cat: Catalogue, placed: list[tuple[KeyPath, str]]) -> Player:
    p = Player(ps.name, ps.logistics, exchanged=ps.exchanged)
    if ps.logistics > cat.board.logistics_max:
        raise SetupError((*path, "logistics"), f"the Logistics track ends at {cat.board.logistics_max}")
    for key, table, what in (("crew", cat.characters, "Character"), ("hq", cat.characters, "Character"),
                             ("hand", cat.support, "Support card"), ("defence", cat.support, "Support card"),
                             ("trophies", cat.threats, "Threat card"), ("wounded", cat.characters, "Character"),
                             ("dealt", cat.support, "Support card")):
        for j, card in enumerate(getattr(ps, key)):
            placed.append(((*path, key, j), _expect((*path, key, j), card, table, what)))
            getattr(p, key).append(card)
    for j, item in enumerate(ps.warehouse):
        d = DroneSetup(item) if isinstance(item, str) else item
        placed.append(((*path, "warehouse", j), _expect((*path, "warehouse", j), d.card, cat.drones, "Drone card")))
        p.warehouse.append(Drone(d.card, d.broken))
    for j, entry in enumerate(ps.projects):
        pr = ProjectSetup(entry) if isinstance(entry, str) else entry
        card = _expect((*path, "projects", j), pr.card, cat.support, "Support card")
        if cat.support[card].type != "project":
            raise SetupError((*path, "projects", j), f"{cat.title(card)} is not a Project")
        if pr.used and not (pr.active and cat.support[card].once_per_round):
            raise SetupError((*path, "projects", j), "only an activated once-per-round Project can be face down")
        placed.append(((*path, "projects", j), card))
        p.projects.append(Project(card, pr.active, pr.used))
    _check_player(ps, path, p, cat)
    return p


def _check_player(ps: PlayerSetup, path: KeyPath, p: Player, cat: Catalogue) -> None:
    if len(set(p.board)) != len(p.board):  # ruling: identical-characters
        raise SetupError((*path, "crew"), "a player may not have two identical Characters")
    if len(p.warehouse) > cat.board.warehouse:
        raise SetupError((*path, "warehouse"), f"the Warehouse holds {cat.board.warehouse} drones")
    if len(set(p.defence)) != len(p.defence) or any(cat.support[c].type != "defence" for c in p.defence):
        raise SetupError((*path, "defence"), "Defence cards only, no two identical")
    if len(p.wounded) >= WOUNDED_LIMIT:
        raise SetupError((*path, "wounded"), f"{WOUNDED_LIMIT} wounded Characters means the game is already lost")
    if any(cat.threats[t].kind == "mishap" for t in p.trophies):
        raise SetupError((*path, "trophies"), "a Mishap is never a trophy")
    for j, c in enumerate(ps.used):
        if c not in p.board:
            raise SetupError((*path, "used", j), f"{c!r} is not in this player's Crew or HQ")
        p.used.append(c)


def _check_turn(spec: SetupSpec, s: State) -> None:
    if s.odo not in s.players:
        raise SetupError(("odo",), f"no player {s.odo!r}")
    if spec.round > s.rules.rounds:
        raise SetupError(("round",), f"the game lasts {s.rules.rounds} rounds")
    for j, n in enumerate(spec.rolled):
        if n not in s.players:
            raise SetupError(("rolled", j), f"no player {n!r}")
    if spec.phase == "management":
        name = spec.turn or s.odo
        if name not in s.players:
            raise SetupError(("turn",), f"no player {name!r}")
        if spec.step == "support" and not s.p(name).hand:
            raise SetupError(("turn",), f"{name} has no Support card to play or discard")
        for j, b in enumerate(spec.bonus):
            if s.cat.support[b].type != "bonus":
                raise SetupError(("bonus", j), f"{s.cat.title(b)} is not a Bonus card")
        s.turn = Turn(name, spec.step, bonus=list(spec.bonus), actions=0 if spec.step == "done" else 1)
    elif spec.phase == "deal" and not any(p.dealt for p in s.players.values()):
        raise SetupError(("phase",), "a deal phase needs dealt cards (players[].dealt)")


def new_game(opts: Options, cat: Catalogue, chance: Chance) -> State:
    """A whole game at its start: the setup state, then the Operations Duty Officer's setup (chance)."""
    names = [f"P{i + 1}" for i in range(opts.players)]
    rules = rules_of(opts.extended_rotation, None, opts.fog_of_war, opts.horde, opts.istar)
    s = setup_state(cat, rules, names, names[0], Start(opts.first_game, opts.random_start))
    set_up(s, chance, [])
    return s


def setup_state(cat: Catalogue, rules: Rules, names: list[str], odo: str, start: Start) -> State:
    """Boards out, Logistics at the start space, every card in its deck: the Operations Duty Officer
    is about to set up."""
    players = {n: Player(n, cat.board.logistics_start) for n in names}
    decks = {d: Deck() for d in DECKS}
    for card, n in sorted(cat.counts.items()):
        decks[cat.deck_of(card)].pool += (card,) * n
    return State(cat, rules, names, players, odo, [], phase="setup", decks=decks, start=start)


def set_up(s: State, chance: Chance, events: list[Event]) -> None:
    """Setup 1-2: starting Pilot and Mavic (or Random Start), the Trench, the Drone Shop, the field of
    distance-1 enemies, five Support cards each."""
    cat = s.cat
    decks = {name: s.deck(name) for name in DECKS}  # owned: the setup may run as a move
    out: list[str] = []
    if s.start.first_game:  # the first game leaves out every red-triangle card
        for card, facts in sorted(cat.threats.items()):
            while facts.red_triangle and card in decks["threats"].pool:
                out.append(decks["threats"].take(card))
    if s.start.random_start:  # ruling: random-start-reading
        for n in s.seats:
            s.p(n).crew += decks["characters"].draw("random start character", chance)
            s.p(n).warehouse += [Drone(c) for c in decks["drones"].draw("random start drone", chance)]
    else:
        pilot, mavic = _starting_pair(cat)
        for n in s.seats:
            s.p(n).crew.append(decks["characters"].take(pilot))
            s.p(n).warehouse.append(Drone(decks["drones"].take(mavic)))
        for card in (pilot, mavic):  # the spare starting cards stay in the box  # ruling: starting-cards
            deck = decks[cat.deck_of(card)]
            while card in deck.pool:
                out.append(deck.take(card))
    s.out_of_game = sorted([*s.out_of_game, *out])
    seated = len(s.seats)
    s.trench = decks["characters"].draw("trench", chance, TRENCH_PER_PLAYER * seated)
    s.shop = decks["drones"].draw("drone shop", chance, SHOP_START)
    first_line = [c for c, f in cat.threats.items() if f.kind == "enemy" and f.distance == 1]
    s.battlefield = decks["threats"].draw("starting field", chance, FIELD_PER_PLAYER * seated, allowed=first_line)
    events.append(Event("set-up", {"trench": len(s.trench), "shop": list(s.shop), "field": list(s.battlefield),
                                   "out_of_game": list(s.out_of_game)}))
    deal(s, chance, events)


def _starting_pair(cat: Catalogue) -> tuple[str, str]:
    """The Universal Pilot (flies every drone type) and the Mavic, found by their facts."""
    pilots = [c for c, f in cat.characters.items() if set(f.pilots) == set(DRONE_TYPES)]
    mavics = [c for c, f in cat.drones.items() if f.type == "mavic"]
    if len(pilots) != 1 or len(mavics) != 1:
        raise ValueError("the content needs exactly one Universal Pilot face and one Mavic face")
    return pilots[0], mavics[0]


