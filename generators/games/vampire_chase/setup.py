"""Vampire chase: a whole game set up as the rulebook's Setup says (`start`), and a scenario's position
(`from_setup`), with the setups the rules cannot reach refused (SetupError, pointing into the setup)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from generators.games.vampire_chase.effects import play_limit
from generators.games.vampire_chase.facts import (
    GEARS,
    MARKET_ROW,
    ROLES,
    SLOTS,
    START_ENEMIES,
    VEHICLE_START,
    Library,
    build_library,
)
from generators.games.vampire_chase.specs import EnemySpec, Options, SetupSpec
from generators.games.vampire_chase.state import EMPTY_RING, Enemy, Played, State, clockwise_from, step
from generators.rules.chance import Chance
from generators.rules.facts import GameContent
from generators.rules.refusals import SetupError


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
        vehicle=VEHICLE_START, ring=EMPTY_RING, reserves={1: (), 2: (), 3: ()},
        decks={"driver": (), "passenger": ()}, discards={"driver": (), "passenger": ()}, hand=(), played=(),
        tucked=(), speed_bonus=0, market_deck=(), market_row=(), gears={g: None for g in GEARS}, shifter=None,
        phase="shift", done=(), turn=1, health=lib.start_health, shield=lib.start_shield, corpses=0, buried=0,
        graveyard=(), kills=(), overkills=0, retaliate=0, next_uid=1)


def place(state: State, slot: int, card: str, health: int | None = None) -> None:
    """An enemy card onto a slot, with a die at its Health (the card's, unless given)."""
    state.put(slot, Enemy(card, state.lib.enemies[card].health if health is None else health, state.next_uid))
    state.next_uid += 1


def fill_for_checkpoint(state: State) -> None:
    """Setup 5-6: the vehicle on #1, then one enemy from the tier's reserve in each other slot from #2 clockwise."""
    state.vehicle = VEHICLE_START
    state.ring = EMPTY_RING
    tier = state.tier
    reserve = state.reserves[tier]
    slots = clockwise_from(step(VEHICLE_START, 1))[:START_ENEMIES]
    for slot, card in zip(slots, reserve, strict=False):
        place(state, slot, card)
    state.reserves = {**state.reserves, tier: reserve[len(slots):]}


def _piles(content: GameContent) -> dict[tuple[str, ...], tuple[str, ...]]:
    """The piles setup shuffles, each sorted (a stable order for the seeded shuffle), derived once per
    content: each tier's regular cards and bosses, each vampire's starter and advanced cards."""
    lib = content.view(build_library)
    piles: dict[tuple[str, ...], tuple[str, ...]] = {}
    for tier in (1, 2, 3):
        regular, bosses = lib.tier_cards(tier)
        piles["tier", str(tier)], piles["boss", str(tier)] = tuple(sorted(regular)), tuple(bosses)
    for vampire in lib.vampires():
        for set_name in ("starter", "advanced"):
            piles[vampire, set_name] = tuple(sorted(lib.cards_of(vampire, set_name)))
    return piles


def start(options: Options, content: GameContent, chance: Chance) -> State:
    lib = content.view(build_library)
    _check_mission(lib, options.mission)
    _check_vampires(lib, options.driver, options.passenger)
    piles = content.view(_piles)
    state = new_state(lib, options.mission, options.driver, options.passenger)
    reserves: dict[int, tuple[str, ...]] = {}
    for tier in (1, 2, 3):  # Setup 2: bosses at the bottom, the rest shuffled over them
        reserves[tier] = (*chance.shuffle(f"tier {tier} reserve", piles["tier", str(tier)]), *piles["boss", str(tier)])
    state.reserves = reserves
    state.decks = {role: tuple(chance.shuffle(f"{role} deck", piles[state.vampires[role], "starter"]))
                   for role in ROLES}  # Setup 3
    market = sorted((*piles[options.driver, "advanced"], *piles[options.passenger, "advanced"]))
    deck = tuple(chance.shuffle("market deck", market))  # Setup 4
    n = min(MARKET_ROW, len(deck))
    state.market_row, state.market_deck = deck[:n], deck[n:]
    fill_for_checkpoint(state)  # Setup 5-6
    return state


def from_setup(s: SetupSpec, content: GameContent) -> State:
    lib = content.view(build_library)
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
        place(state, i + 1, spec.card, spec.health)
    reserves: dict[int, tuple[str, ...]] = {}
    for tier, cards in ((1, s.reserves.tier1), (2, s.reserves.tier2), (3, s.reserves.tier3)):
        for j, card in enumerate(cards):
            facts = lib.enemies.get(card)
            if facts is None or facts.tier != tier:
                raise SetupError(("reserves", str(tier), j), f"{card!r} is not a tier {tier} enemy card")
            if facts.boss and j != len(cards) - 1:
                raise SetupError(("reserves", str(tier), j), "a boss waits at the bottom of its tier's reserve")
        reserves[tier] = tuple(cards)
    state.reserves = reserves
    for j, slot in enumerate(s.kills):
        if slot not in SLOTS or state.ring[slot] is not None or slot == state.vehicle:
            raise SetupError(("kills", j), "a kill slot is an empty slot of the ring")
    state.kills = tuple(s.kills)


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
    gears: dict[str, str | None] = {}
    for gear in GEARS:
        card = getattr(s.gears, gear)
        if card is not None:
            _vampire_card(state, card, ("gears", gear))
            if state.lib.vampire_cards[card].gear != gear:
                raise SetupError(("gears", gear), f"{card} is not a {gear.upper()} gear card")
        gears[gear] = card
    state.gears = gears
    state.decks = {"driver": tuple(s.driver_deck), "passenger": tuple(s.passenger_deck)}
    state.discards = {"driver": tuple(s.driver_discard), "passenger": tuple(s.passenger_discard)}
    state.hand = tuple(s.hand)
    state.played = tuple(Played(p.card, p.enhanced) for p in s.played)
    state.tucked = tuple(s.tucked)
    state.speed_bonus = s.speed_bonus
    state.market_deck = tuple(s.market_deck)
    state.market_row = tuple(s.market_row)
    state.graveyard = tuple(s.graveyard)


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
    state.done = tuple(s.done)
    if s.phase == "reward":
        state.checkpoint_done = True
    limit = play_limit(state)
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
