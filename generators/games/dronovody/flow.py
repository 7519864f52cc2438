"""Дроноводи: how play moves on by itself: drawing and dealing, whose turn is next, wounds and defeat,
Logistics, the steps after an action (forced hits, new threats, the end of the Threat phase, Recovery),
and the parts of actions several moves share (an Artillery attack, a trophy taken, a sortie ending)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

from generators.games.dronovody.abilities import (
    artillery_modifier,
    has_correction,
    pending_options,
    target_ok,
)
from generators.games.dronovody.facts import (
    D6,
    DEAL,
    HORDE_PER_PLAYER,
    THREATS_PER_PLAYER,
    WOUNDED_LIMIT,
    artillery_hits,
)
from generators.games.dronovody.state import Drone, Pending, Player, State, Turn, replace_in
from generators.rules.chance import Chance
from generators.rules.contract import Event


def draw_cards(s: State, deck: str, label: str, chance: Chance, k: int = 1) -> list[str]:
    """Draw from a deck, shuffling its discard pile in when it runs short (not Characters: no discard)."""
    d = s.deck(deck)
    if len(d) < k and s.discards.get(deck):  # ruling: support-deck-short
        d.shuffle_in(s.discards[deck])
        s.discards[deck] = []
    return d.draw(label, chance, k)


def deal(s: State, chance: Chance, events: list[Event]) -> None:  # ruling: istar-every-deal
    """Deal 5 Support cards to each player, from the Operations Duty Officer round the table."""
    s.phase = "deal"
    for n in from_odo(s):
        s.p(n).dealt = draw_cards(s, "support", "support deal", chance, DEAL)
        s.p(n).picked = False
    settle_deal(s, events)


def from_odo(s: State) -> list[str]:
    i = s.seats.index(s.odo)
    return s.seats[i:] + s.seats[:i]


def left_of(s: State, name: str) -> str:
    return s.seats[(s.seats.index(name) + 1) % len(s.seats)]


def settle_deal(s: State, events: list[Event]) -> None:
    """Finish choices nobody has to make (a packet of one card); once every hand is dealt, end the
    Recovery phase if the deal was its own, and start the Management phase."""
    for p in map(s.p, s.seats):
        if not s.rules.istar and len(p.dealt) <= 1:
            p.hand += p.dealt
            p.dealt = []
        elif s.rules.istar and len(p.dealt) == 1:
            s.discards["support"] += p.dealt
            p.dealt = []
    if all(not p.dealt for p in s.players.values()):
        if s.recovering:
            end_recovery(s, events)
        start_management(s)


def start_management(s: State) -> None:
    s.phase = "management"
    s.turn = None
    next_turn(s, None)


def next_turn(s: State, after: str | None) -> None:
    """The next player with Support cards in hand, going left from `after` (from the ODO at the start)."""
    order = from_odo(s)
    if after is not None:
        i = order.index(after)
        order = order[i + 1:] + order[:i + 1]
    for n in order:  # ruling: management-turns
        if s.p(n).hand:
            s.turn = Turn(n)
            return
    s.turn = None
    start_threats(s)


def wound(s: State, p: Player, card: str, where: str, events: list[Event]) -> None:
    p.wounded.append(card)
    if card in p.used:
        p.used.remove(card)
    events.append(Event("wound", {"player": p.name, "card": card, "from": where}))
    check_defeat(s, events)


def check_defeat(s: State, events: list[Event]) -> None:
    if s.result is not None:
        return
    if not s.trench:
        end_game(s, "lost", "trench", events)
    elif any(len(p.wounded) >= WOUNDED_LIMIT for p in s.players.values()):
        end_game(s, "lost", "wounded", events)


def end_game(s: State, result: Literal["won", "lost"], how: str, events: list[Event]) -> None:
    s.result, s.how, s.phase = result, how, "over"
    s.turn = None
    s.pending = []
    events.append(Event("game-over", {"result": result, "how": how}))


def gain(s: State, p: Player, amount: int, why: str, events: list[Event]) -> None:
    before = p.logistics
    p.logistics = max(0, min(s.cat.board.logistics_max, p.logistics + amount))
    if p.logistics != before:
        events.append(Event("logistics", {"player": p.name, "change": p.logistics - before, "why": why}))


def to_character_bottom(s: State, cards: Iterable[str]) -> None:
    s.deck("characters").bottom += list(cards)


def remove_character(p: Player, card: str) -> None:
    (p.crew if card in p.crew else p.hq).remove(card)
    if card in p.used:
        p.used.remove(card)


def settle(s: State, chance: Chance, events: list[Event]) -> None:
    """Automatic steps after an action: forced choices, new threats, the end of the Threat phase, Recovery."""
    resolve_forced(s, events)
    while s.phase == "threat" and not s.pending and s.result is None:
        everyone = len(s.rolled) == len(s.seats)
        if not s.threats_placed and (s.rules.fog_of_war or everyone):  # ruling: fog-of-war-order
            place_threats(s, chance, events)  # Fog of War: before the defence rolls
            resolve_forced(s, events)
            continue
        if everyone:
            end_threats(s, chance, events)
            continue
        break


def resolve_forced(s: State, events: list[Event]) -> None:
    """Place hits that leave no choice (one option or none)."""
    i = 0
    while i < len(s.pending) and s.result is None:
        x = s.pending[i]
        p = s.p(x.player)
        options = pending_options(s, p, x)
        if len(options) <= 1:
            s.pending.pop(i)
            if options:
                place_hit(s, p, x, options[0], events)
            else:  # ruling: empty-crew-hit
                events.append(Event("no-effect", {"player": p.name, "hit": x.kind, "source": x.source}))
            continue
        i += 1


def place_hit(s: State, p: Player, x: Pending, card: str, events: list[Event]) -> None:
    if x.kind == "wound":
        remove_character(p, card)
        wound(s, p, card, "crew", events)
    elif x.kind in ("lose-drone", "lose-wing"):
        drone = pick_drone(p, card, prefer_broken=True)
        p.warehouse.remove(drone)
        s.discards["drones"].append(card)
        events.append(Event("shot-down", {"player": p.name, "drone": card, "by": x.source}))
    else:
        replace_in(p.warehouse, pick_drone(p, card, prefer_broken=False), broken=True)
        events.append(Event("broken", {"player": p.name, "drone": card, "by": x.source}))


def pick_drone(p: Player, card: str, prefer_broken: bool) -> Drone:
    same = [d for d in p.warehouse if d.card == card]
    same.sort(key=lambda d: d.broken != prefer_broken)
    return same[0]


# --- deal ---


def after_support(s: State) -> None:
    if s.turn is not None:  # None when the card ended the game (a Transfer Order emptying the Trench)
        s.turn.step = "action"


def artillery(s: State, p: Player, card: str, target: str, chance: Chance, events: list[Event]) -> None:
    f = s.cat.support[card]
    mod = artillery_modifier(s)
    die = chance.choice("artillery die", D6)
    rolls = [die]
    hit = artillery_hits(die, f.to_hit, mod)
    if not hit and has_correction(s, p):  # ruling: artillery-correction-reroll
        die = chance.choice("artillery re-roll", D6)
        rolls.append(die)
        hit = artillery_hits(die, f.to_hit, mod)
    events.append(Event("artillery", {"player": p.name, "card": card, "target": target, "rolls": rolls,
                                      "modifier": mod, "needed": f.to_hit, "hit": hit}))
    if hit:
        take_trophy(s, p, target, events)


def take_trophy(s: State, p: Player, target: str, events: list[Event]) -> None:
    s.battlefield.remove(target)
    p.trophies.append(target)
    s.hits += 1
    events.append(Event("trophy", {"player": p.name, "card": target}))


# --- management: the Action ---


def use_action(s: State) -> Turn:
    t = s.turn
    assert t is not None
    t.actions -= 1
    return t


def action_done(s: State) -> None:
    t = s.turn
    assert t is not None
    t.mode = None
    t.step = "done"


def evacuate(s: State, p: Player, card: str, how: str, events: list[Event]) -> None:
    p.wounded.remove(card)
    to_character_bottom(s, [card])
    events.append(Event("evacuated", {"player": p.name, "card": card, "by": how}))


def attack_options_left(s: State, p: Player) -> bool:
    t = s.turn
    assert t is not None and t.sortie is not None
    return any(target_ok(s, p, t.sortie.drone, x, t.sortie) is None for x in set(s.battlefield))


def end_sortie(s: State, p: Player, events: list[Event]) -> None:
    t = s.turn
    assert t is not None and t.sortie is not None
    drone = t.sortie.drone
    if s.cat.drones[drone].kamikaze:  # ruling: kamikaze-after-sortie
        p.warehouse.remove(pick_drone(p, drone, prefer_broken=False))
        s.discards["drones"].append(drone)
        events.append(Event("drone-discarded", {"player": p.name, "drone": drone, "why": "kamikaze"}))
    events.append(Event("sortie-over", {"player": p.name, "drone": drone}))
    t.sortie = None
    action_done(s)


def spend_effect(s: State, p: Player, source: str) -> None:  # ruling: once-per-round-effects
    if source in s.cat.characters:
        if s.cat.characters[source].once_per_round:
            p.used.append(source)
        return
    project = next(pr for pr in p.projects if pr.card == source and pr.active and not pr.used)
    if s.cat.support[source].once_per_round:
        replace_in(p.projects, project, used=True)


# --- the Threat phase ---


def start_threats(s: State) -> None:
    s.phase = "threat"
    s.rolled = []
    s.threats_placed = False


def resolve_enemy(s: State, card: str, roller: str, events: list[Event]) -> None:
    f = s.cat.threats[card]
    for name in (s.seats if f.affects == "all" else [roller]):  # ruling: threat-player-count
        p = s.p(name)
        if f.kind == "drone" and "ew" in defence_effects(s, p):
            events.append(Event("cancelled", {"player": name, "card": card, "by": "ew"}))
            continue
        for _ in range(f.trench):
            if s.trench:
                wound(s, p, s.trench.pop(0), "trench", events)  # ruling: trench-face-down
            if s.result is not None:
                return
        queue_hits(s, p, "wound", f.crew, card, "bunker", events)
        queue_hits(s, p, "lose-drone", f.drones, card, "ew", events)
        queue_hits(s, p, "lose-wing", f.wing, card, "ew", events)
        queue_hits(s, p, "break-drone", f.break_drones, card, "ew", events)
        if f.logistics:
            gain(s, p, f.logistics, card, events)


def queue_hits(s: State, p: Player, kind: Any, n: int, source: str, shield: str, events: list[Event]) -> None:
    if not n:
        return
    if shield in defence_effects(s, p):
        events.append(Event("cancelled", {"player": p.name, "card": source, "by": shield}))
        return
    s.pending += [Pending(p.name, kind, source) for _ in range(n)]


def defence_effects(s: State, p: Player) -> set[str]:  # ruling: defence-cards-effects
    return {s.cat.support[c].effect for c in p.defence}


def place_threats(s: State, chance: Chance, events: list[Event]) -> None:
    """New Threat cards: enemies onto the field, Mishaps dealt round the table from the ODO."""
    per = HORDE_PER_PLAYER if s.rules.horde else THREATS_PER_PLAYER
    drawn = draw_cards(s, "threats", "threat draw", chance, per * len(s.seats))
    s.threats_placed = True
    order = from_odo(s)
    k = 0
    for card in drawn:
        f = s.cat.threats[card]
        if f.kind != "mishap":
            s.battlefield.append(card)
            continue
        p = s.p(order[k % len(order)])  # ruling: mishaps-round-the-table
        k += 1
        events.append(Event("mishap", {"player": p.name, "card": card}))
        if f.logistics:
            gain(s, p, f.logistics, card, events)
        s.pending += [Pending(p.name, "break-drone", card) for _ in range(f.break_drones)]
        s.pending += [Pending(p.name, "wound", card) for _ in range(f.crew)]
        s.discards["threats"].append(card)
    events.append(Event("threats-placed", {"cards": drawn}))


def end_threats(s: State, chance: Chance, events: list[Event]) -> None:
    s.odo = left_of(s, s.odo)
    events.append(Event("token-passed", {"to": s.odo}))
    if s.round >= s.rules.rounds:  # ruling: rotation-end
        end_game(s, "won", "rotation", events)
        return
    recovery(s, chance, events)


def recovery(s: State, chance: Chance, events: list[Event]) -> None:
    """3. Recovery Phase, in the book's order: Defence cards are discarded, five Support cards are dealt
    (the deal belongs to the ending round: no second trophy exchange, no once-per-round Effect used
    again), then `end_recovery` once every hand is dealt."""
    for p in map(s.p, s.seats):
        s.discards["support"] += p.defence
        p.defence = []
    s.rolled = []
    s.threats_placed = False
    s.recovering = True
    deal(s, chance, events)


def end_recovery(s: State, events: list[Event]) -> None:
    """Recovery's steps after the deal: HQ Logistics, once-per-round cards face up; then the next round
    begins, with its trophy exchange."""
    for p in map(s.p, s.seats):
        gain(s, p, len(p.hq), "HQ", events)  # ruling: hq-logistics-timing
        p.used = []
        p.exchanged = False
        p.projects = [pr.evolve(used=False) if pr.used else pr for pr in p.projects]
    s.recovering = False
    s.round += 1
    events.append(Event("recovery", {"round": s.round}))
