"""Дроноводи: what each move does. `resolver` applies an action to one copy of the state through its
handler (`HANDLERS`, by action kind), then runs the steps that follow on their own (`flow.settle`).
The rules that allow or refuse an action are in `moves`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from generators.games.dronovody.abilities import (
    activated_total,
    active,
    attack_modifiers,
    extra_action_source,
    in_crew,
)
from generators.games.dronovody.facts import (
    D6,
    PROJECTS_PER_PLAYER,
    RECRUIT_DRAW,
    activates,
    attack_hits,
    breaks_down,
    trophy_logistics,
)
from generators.games.dronovody.flow import (
    action_done,
    after_support,
    artillery,
    attack_options_left,
    check_defeat,
    draw_cards,
    end_game,
    end_sortie,
    evacuate,
    gain,
    left_of,
    next_turn,
    pick_drone,
    place_hit,
    remove_character,
    resolve_enemy,
    settle,
    settle_deal,
    spend_effect,
    take_trophy,
    to_character_bottom,
    use_action,
)
from generators.games.dronovody.setup import set_up
from generators.games.dronovody.state import Drone, Player, Project, Sortie, State, replace_in
from generators.rules.chance import Chance
from generators.rules.contract import Event


def _do_discard_support(s: State, p: Player, a: Any, chance: Chance, events: list[Event]) -> None:
    if s.phase == "deal":
        p.dealt.remove(a.card)
        s.discards["support"].append(a.card)
        p.hand += p.dealt
        p.dealt = []
        events.append(Event("kept", {"player": p.name, "hand": list(p.hand)}))
        settle_deal(s, events)
        return
    p.hand.remove(a.card)
    s.discards["support"].append(a.card)
    events.append(Event("support-discarded", {"player": p.name, "card": a.card}))
    after_support(s)


def _do_draft(s: State, p: Player, a: Any, chance: Chance, events: list[Event]) -> None:
    p.dealt.remove(a.card)
    p.hand.append(a.card)
    p.picked = True
    events.append(Event("drafted", {"player": p.name, "card": a.card}))
    holders = [q for q in s.players.values() if q.dealt or q.picked]
    if all(q.picked for q in holders):
        if any(len(q.dealt) > 1 for q in holders):
            packets = {n: s.p(n).dealt for n in s.seats}
            for n in s.seats:  # each packet goes to the player on the left
                s.p(left_of(s, n)).dealt = packets[n]
        for q in map(s.p, s.seats):  # the last card of a packet is discarded where it is
            q.picked = False
        settle_deal(s, events)


# --- management: the Support card ---


def _do_play_support(s: State, p: Player, a: Any, chance: Chance, events: list[Event]) -> None:
    f = s.cat.support[a.card]
    p.hand.remove(a.card)
    gain(s, p, -f.cost, f"played {a.card}", events)
    events.append(Event("support-played", {"player": p.name, "card": a.card, "type": f.type}))
    assert s.turn is not None
    if f.type == "project":
        p.projects.append(Project(a.card))
    elif f.type == "defence":
        p.defence.append(a.card)
    elif f.type == "artillery":
        artillery(s, p, a.card, a.target, chance, events)  # ruling: artillery-timing
        s.discards["support"].append(a.card)
    else:
        s.turn.bonus.append(a.card)
        if f.effect == "logistics":
            gain(s, p, f.value, a.card, events)
        elif f.effect == "transfer":
            s.trench.remove(a.character)
            getattr(p, a.to).append(a.character)
            events.append(Event("transferred", {"player": p.name, "card": a.character, "to": a.to}))
            check_defeat(s, events)
    after_support(s)


def _do_recruit(s: State, p: Player, a: Any, chance: Chance, events: list[Event]) -> None:
    t = use_action(s)
    k = max([RECRUIT_DRAW, *(s.cat.characters[c].hq_recruit_choice for c in p.hq)])
    t.recruit = s.deck("characters").draw("character draw", chance, k)
    t.mode = "recruit"
    events.append(Event("recruit-drawn", {"player": p.name, "cards": list(t.recruit)}))


def _do_place(s: State, p: Player, a: Any, chance: Chance, events: list[Event]) -> None:
    t = s.turn
    assert t is not None
    rest = list(t.recruit)
    rest.remove(a.card)
    if a.to == "trench":
        s.trench.append(a.card)  # the Trench is face down: a new Character goes underneath
    else:
        getattr(p, a.to).append(a.card)
    to_character_bottom(s, rest)  # ruling: recruit-leftovers
    events.append(Event("recruited", {"player": p.name, "card": a.card, "to": a.to, "to_bottom": rest}))
    t.recruit = []
    action_done(s)


def _do_move(s: State, p: Player, a: Any, chance: Chance, events: list[Event]) -> None:
    t = s.turn
    assert t is not None
    if t.mode != "move":
        use_action(s)
        t.mode = "move"
    take_off_board(p, a.card)
    if a.to == "trench":
        s.trench.append(a.card)
        if a.card in p.used:
            p.used.remove(a.card)
    else:
        getattr(p, a.to).append(a.card)
    t.moved.append(a.card)  # ruling: movement-each-once
    events.append(Event("moved", {"player": p.name, "card": a.card, "to": a.to}))


def take_off_board(p: Player, card: str) -> None:
    (p.crew if card in p.crew else p.hq).remove(card)


def _do_end_move(s: State, p: Player, a: Any, chance: Chance, events: list[Event]) -> None:
    assert s.turn is not None
    s.turn.moved = []
    action_done(s)


def _do_evacuate(s: State, p: Player, a: Any, chance: Chance, events: list[Event]) -> None:
    use_action(s)
    evacuate(s, p, a.card, "action", events)
    action_done(s)


def _do_buy(s: State, p: Player, a: Any, chance: Chance, events: list[Event]) -> None:
    t = use_action(s)
    revealed = draw_cards(s, "drones", "drone draw", chance)
    s.shop += revealed  # ruling: drone-shop-grows
    events.append(Event("shop-revealed", {"cards": revealed}))
    t.mode = "buy"


def _do_take_drone(s: State, p: Player, a: Any, chance: Chance, events: list[Event]) -> None:
    s.shop.remove(a.card)
    gain(s, p, -s.cat.drones[a.card].cost, f"bought {a.card}", events)
    p.warehouse.append(Drone(a.card))
    if a.discard is not None:  # ruling: warehouse-discard-any
        old = pick_drone(p, a.discard, prefer_broken=True)
        p.warehouse.remove(old)
        s.discards["drones"].append(a.discard)
        events.append(Event("drone-discarded", {"player": p.name, "drone": a.discard, "why": "Warehouse limit"}))
    refill = draw_cards(s, "drones", "drone draw", chance)
    s.shop += refill
    events.append(Event("bought", {"player": p.name, "drone": a.card, "refill": refill}))
    action_done(s)


def _do_decline(s: State, p: Player, a: Any, chance: Chance, events: list[Event]) -> None:
    events.append(Event("declined", {"player": p.name}))
    action_done(s)


def _do_sortie(s: State, p: Player, a: Any, chance: Chance, events: list[Event]) -> None:
    t = use_action(s)
    f = s.cat.drones[a.drone]
    t.mode, t.sortied = "sortie", True
    t.sortie = Sortie(a.drone, f.attacks, f.drone_attacks)
    events.append(Event("sortie", {"player": p.name, "drone": a.drone}))


def _do_attack(s: State, p: Player, a: Any, chance: Chance, events: list[Event]) -> None:
    t = s.turn
    assert t is not None and t.sortie is not None
    sortie, f = t.sortie, s.cat.drones[t.sortie.drone]
    target = s.cat.threats[a.target]
    if target.kind == "drone":
        sortie.drone_attacks -= 1
    else:
        sortie.attacks -= 1
    sortie.made += 1  # ruling: sortie-attacks
    record: dict[str, Any] = {"player": p.name, "drone": sortie.drone, "target": a.target, "needed": f.to_hit}
    broke = False
    if a.guaranteed:
        project = next(pr for pr in active(s, p, "guaranteed-hit") if not pr.used)
        replace_in(p.projects, project, used=s.cat.support[project.card].once_per_round)
        hit = True
        record.update({"die": None, "modifiers": {}, "total": None, "guaranteed": project.card, "hit": True})
    else:
        die = chance.choice("attack die", D6)
        mods = attack_modifiers(s, p, sortie.drone, a.target)
        total = die + sum(v for _, v in mods)
        hit = attack_hits(die, total - die, f.to_hit or 0)
        broke = breaks_down(die, f.breakdown)  # ruling: red-die-breakdown
        record.update({"die": die, "modifiers": dict(merge_modifiers(mods)), "total": total, "guaranteed": None,
                       "hit": hit})
    record["breakdown"] = broke
    events.append(Event("attack", record))
    if hit:
        take_trophy(s, p, a.target, events)
        for c in in_crew(s, p, lambda cf: cf.crew_logistics_per_hit):
            gain(s, p, s.cat.characters[c].crew_logistics_per_hit, c, events)
    if broke:
        replace_in(p.warehouse, pick_drone(p, sortie.drone, prefer_broken=False), broken=True)
        events.append(Event("broken", {"player": p.name, "drone": sortie.drone, "by": "breakdown"}))
        end_sortie(s, p, events)
    elif not attack_options_left(s, p):
        end_sortie(s, p, events)


def merge_modifiers(mods: list[tuple[str, int]]) -> list[tuple[str, int]]:
    out: dict[str, int] = {}
    for label, v in mods:
        out[label] = out.get(label, 0) + v
    return list(out.items())


def _do_end_sortie(s: State, p: Player, a: Any, chance: Chance, events: list[Event]) -> None:
    end_sortie(s, p, events)


def _do_extra_action(s: State, p: Player, a: Any, chance: Chance, events: list[Event]) -> None:
    source = extra_action_source(s, p)
    assert source is not None and s.turn is not None
    p.used.append(source)
    s.turn.actions += 1
    s.turn.step = "action"
    events.append(Event("extra-action", {"player": p.name, "by": source}))


def _do_end_turn(s: State, p: Player, a: Any, chance: Chance, events: list[Event]) -> None:
    t = s.turn
    assert t is not None
    s.discards["support"] += t.bonus  # Bonus cards are discarded at the end of the turn they were played
    events.append(Event("turn-over", {"player": p.name}))
    next_turn(s, p.name)


# --- free actions ---


def _do_exchange_trophy(s: State, p: Player, a: Any, chance: Chance, events: list[Event]) -> None:
    p.trophies.remove(a.card)
    s.discards["threats"].append(a.card)
    p.exchanged = True
    bonus = sum(s.cat.characters[c].hq_trophy_bonus for c in p.hq)
    bonus += sum(s.cat.support[pr.card].value for pr in active(s, p, "trophy-bonus"))
    gain(s, p, trophy_logistics(s.cat.threats[a.card].trophy) + bonus, f"trophy {a.card}", events)
    events.append(Event("trophy-exchanged", {"player": p.name, "card": a.card}))


def _do_activate_project(s: State, p: Player, a: Any, chance: Chance, events: list[Event]) -> None:
    project = next(pr for pr in p.projects if pr.card == a.card and not pr.active)
    needs = s.cat.support[a.card].requires
    for c in needs:  # ruling: activation-face-down-characters
        remove_character(p, c)
    to_character_bottom(s, needs)
    replace_in(p.projects, project, active=True)
    events.append(Event("project-activated", {"player": p.name, "card": a.card, "discarded": list(needs)}))
    if activated_total(s) >= PROJECTS_PER_PLAYER * len(s.seats):  # ruling: technologies-win-at-once
        end_game(s, "won", "technologies", events)


def _do_evacuate_effect(s: State, p: Player, a: Any, chance: Chance, events: list[Event]) -> None:
    spend_effect(s, p, a.source)
    evacuate(s, p, a.card, a.source, events)


def _do_repair(s: State, p: Player, a: Any, chance: Chance, events: list[Event]) -> None:
    spend_effect(s, p, a.source)
    replace_in(p.warehouse, pick_drone(p, a.drone, prefer_broken=True), broken=False)
    events.append(Event("repaired", {"player": p.name, "drone": a.drone, "by": a.source}))


def _do_defend(s: State, p: Player, a: Any, chance: Chance, events: list[Event]) -> None:
    die = chance.choice("defence die", D6)
    s.rolled.append(p.name)
    hit = [c for c in s.battlefield if activates(die, s.cat.threats[c].activation)]
    events.append(Event("defence", {"player": p.name, "die": die, "activated": hit}))
    for card in hit:
        resolve_enemy(s, card, p.name, events)
        if s.result is not None:
            return


def _do_choose(s: State, p: Player, a: Any, chance: Chance, events: list[Event]) -> None:
    x = next(x for x in s.pending if x.player == p.name)
    s.pending.remove(x)
    place_hit(s, p, x, a.card, events)


def _do_set_up(s: State, p: Player, a: Any, chance: Chance, events: list[Event]) -> None:
    set_up(s, chance, events)


HANDLERS = {
    "set_up": _do_set_up,
    "play_support": _do_play_support, "discard_support": _do_discard_support, "draft": _do_draft,
    "recruit": _do_recruit, "place": _do_place, "move": _do_move, "end_move": _do_end_move,
    "evacuate": _do_evacuate, "buy": _do_buy, "take_drone": _do_take_drone, "decline": _do_decline,
    "sortie": _do_sortie, "attack": _do_attack, "end_sortie": _do_end_sortie, "extra_action": _do_extra_action,
    "end_turn": _do_end_turn, "exchange_trophy": _do_exchange_trophy, "activate_project": _do_activate_project,
    "evacuate_effect": _do_evacuate_effect, "repair": _do_repair, "defend": _do_defend, "choose": _do_choose,
}


def resolver(kind: str) -> Callable[[State, Any, Chance], tuple[State, list[Event]]]:
    """The move applied to one copy of the state, then the steps that follow on their own."""
    handler = HANDLERS[kind]

    def resolve(state: State, a: Any, chance: Chance) -> tuple[State, list[Event]]:
        s = state.changed()
        events: list[Event] = []
        handler(s, s.p(a.player), a, chance, events)
        if s.phase != "over":
            settle(s, chance, events)
        return s.settled(), events
    return resolve
