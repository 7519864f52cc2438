"""Дроноводи: the moves. For each action kind, the concrete actions worth asking about (`options`, for
one player), the rules that allow or refuse one (each None when it holds, else why not, in players'
words), and its resolution (`resolve`). Legal actions are the options every rule allows; a refusal is
the first rule that does not hold. Every action names its player (`complete` fills in the default).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from generators.games.dronovody.abilities import (
    active,
    artillery_targets,
    can_evacuate,
    destinations,
    evacuation_sources,
    extra_action_source,
    pending_options,
    recon,
    recon_words,
    reconned,
    repair_sources,
    sortie_problem,
    target_ok,
)
from generators.games.dronovody.facts import PLACES
from generators.games.dronovody.resolve import resolver
from generators.games.dronovody.specs import act
from generators.games.dronovody.state import Player, State
from generators.games.dronovody.turns import actors, has_free_action, not_waiting_on, waiting_on
from generators.rules.contract import Ask, Move

Why = str | None
AskS = Ask[State]


def listed(names: Sequence[str]) -> str:
    return ", ".join(names) or "none"


def complete(s: State, a: Any) -> Any:
    """`a` with its player filled in when the scenario leaves it out: the player the game waits on,
    else the only player who may act (left out when several may: the first rule asks to name one)."""
    if a.player is not None:
        return a
    waiting = waiting_on(s)
    who = waiting if len(waiting) == 1 else actors(s)
    if len(who) != 1:
        return a
    new = object.__new__(type(a))  # a frozen action: set without its __setattr__
    new.__dict__.update(a.__dict__)
    new.__dict__["player"] = who[0]
    return new


def _waiting(ask: AskS) -> list[str]:
    return ask.cached("waiting", lambda: waiting_on(ask.state))


def _me(ask: AskS, a: Any) -> Player:
    return ask.state.players[a.player]


def _reach(ask: AskS, p: Player) -> int:
    """The player's Reconnaissance (`recon`), worked out once per question: every target asks it."""
    key = ("recon", p.name)
    return ask.cached(key, lambda: recon(ask.state, p))


# --- rules every move asks --------------------------------------------------------------------


def who_acts(ask: AskS, a: Any) -> Why:
    s = ask.state
    if a.player is None:
        return f"say which player acts (players who may act: {listed(actors(s))})"
    if a.player not in s.players:
        return f"there is no player {a.player} in this game"
    return None


def in_turn(ask: AskS, a: Any) -> Why:
    """A move of the turn, the roll, the deal or a hit: only for a player the game waits on."""
    if a.player in _waiting(ask):
        return None
    return not_waiting_on(ask.state, a.player)


def _turn_options(kind: str, make: Callable[[State, Player], list[Any]]) -> Callable[[AskS, str], list[Any]]:
    """Options for a player the game waits on (nobody else has any)."""
    def options(ask: AskS, player: str) -> list[Any]:
        if player not in _waiting(ask):
            return []
        s = ask.state
        return make(s, s.players[player])
    options.__name__ = f"_{kind}_options"
    return options


# --- the deal ------------------------------------------------------------------------------------


def _discard_support(s: State, p: Player) -> list[Any]:
    if s.phase == "deal":
        return [] if s.rules.istar else [act("discard_support", p.name, card=c) for c in sorted(set(p.dealt))]
    return [act("discard_support", p.name, card=c) for c in sorted(set(p.hand))]


def _discard_from(ask: AskS, a: Any) -> Why:
    s, p = ask.state, _me(ask, a)
    if s.phase == "deal":
        if s.rules.istar:
            return "with ISTAR the dealt cards are drafted: keep one (draft), the rest pass on"
        return None if a.card in p.dealt else f"{s.cat.title(a.card)} is not among the cards dealt to them"
    return None if a.card in p.hand else f"{s.cat.title(a.card)} is not in their hand"


def _draft(s: State, p: Player) -> list[Any]:
    return [act("draft", p.name, card=c) for c in sorted(set(p.dealt))] if s.rules.istar else []


def _drafted(ask: AskS, a: Any) -> Why:
    s = ask.state
    if not s.rules.istar:
        return "only with ISTAR are Support cards drafted; keep four of the five dealt by discarding one"
    return None if a.card in _me(ask, a).dealt else f"{s.cat.title(a.card)} is not in the packet they hold"


# --- the Support card ----------------------------------------------------------------------------


def _play_support(s: State, p: Player) -> list[Any]:
    out = []
    for card in sorted(set(p.hand)):
        f = s.cat.support[card]
        if f.cost > p.logistics or (f.type == "defence" and card in p.defence):
            continue  # refused by the rules below; not worth offering
        if f.type == "artillery":
            out += [act("play_support", p.name, card=card, target=t) for t in artillery_targets(s, p, card)]
        elif f.effect == "transfer":
            out += [act("play_support", p.name, card=card, character=c, to=to) for c in sorted(set(s.trench))
                    for to in PLACES if c not in p.board]
        else:
            out.append(act("play_support", p.name, card=card))
    return out


def _in_hand(ask: AskS, a: Any) -> Why:
    return None if a.card in _me(ask, a).hand else f"{ask.state.cat.title(a.card)} is not in their hand"


def _affordable(ask: AskS, a: Any) -> Why:
    s, p = ask.state, _me(ask, a)
    f = s.cat.support[a.card]
    if f.cost > p.logistics:
        return f"{s.cat.title(a.card)} costs {f.cost} Logistics; {p.name} has {p.logistics}"
    if f.type == "defence" and a.card in p.defence:
        return "a player may not have two identical Defence cards"
    return None


def _support_target(ask: AskS, a: Any) -> Why:
    """An Artillery card names its target; a Transfer Order the Character and where it goes; no other card
    names either."""
    s, p = ask.state, _me(ask, a)
    f = s.cat.support[a.card]
    if f.type == "artillery":
        if a.character is not None or a.to is not None:
            return "only a Transfer Order moves a Character"
        if a.target not in s.battlefield:
            return "name an enemy on the field as the target"
        t = s.cat.threats[a.target]
        if t.kind != "enemy":
            return "Artillery attacks ground targets, not enemy drones"
        if t.distance > f.distance:
            return f"{s.cat.title(a.card)} reaches distance {f.distance}"
        if not reconned(s, p, a.target, _reach(ask, p)):
            return f"Artillery needs Reconnaissance at distance {t.distance}; {recon_words(s, p)}"
        return None
    if a.target is not None:
        return "only an Artillery card attacks a target"
    if f.effect == "transfer":
        if a.character not in s.trench:
            return "name a Character in the Trench"
        if a.character in p.board:
            return "a player may not have two identical Characters"
        if a.to is None:
            return "name where the Character goes: crew or hq"
        return None
    if a.character is not None or a.to is not None:
        return "only a Transfer Order moves a Character"
    return None


# --- the Action ----------------------------------------------------------------------------------


def _recruit(s: State, p: Player) -> list[Any]:
    return [act("recruit", p.name)]


def _characters_left(ask: AskS, a: Any) -> Why:
    return None if len(ask.state.decks["characters"]) else "the Character deck is empty: there is no one to recruit"


def _place(s: State, p: Player) -> list[Any]:
    t = s.turn
    assert t is not None
    return [act("place", p.name, card=c, to=to) for c in sorted(set(t.recruit)) for to in ("crew", "hq", "trench")]


def _drawn(ask: AskS, a: Any) -> Why:
    s = ask.state
    t = s.turn
    if t is None or a.card not in t.recruit:
        return f"{s.cat.title(a.card)} is not among the Characters drawn"
    if a.to != "trench" and a.card in _me(ask, a).board:  # ruling: identical-characters
        return "a player may not have two identical Characters"
    return None


def _move(s: State, p: Player) -> list[Any]:
    t = s.turn
    assert t is not None
    moved = t.moved if t.mode == "move" else ()
    return [act("move", p.name, card=c, to=to) for c in sorted(p.board) if c not in moved
            for to in destinations(p, c)]


def _movable(ask: AskS, a: Any) -> Why:
    s, p = ask.state, _me(ask, a)
    if a.card in s.trench and a.card not in p.board:
        return "Characters never leave the Trench by Movement (only a Transfer Order moves them)"
    if a.card not in p.board:
        return f"{s.cat.title(a.card)} is not in their Crew or HQ"
    t = s.turn
    if t is not None and t.mode == "move" and a.card in t.moved:  # ruling: movement-each-once
        return f"{s.cat.title(a.card)} has already moved in this Movement"
    if (a.to == "crew" and a.card in p.crew) or (a.to == "hq" and a.card in p.hq):
        return f"{s.cat.title(a.card)} is already there"
    return None


def _end_move(s: State, p: Player) -> list[Any]:
    return [act("end_move", p.name)]


def _evacuate(s: State, p: Player) -> list[Any]:
    return [act("evacuate", p.name, card=c) for c in sorted(set(p.wounded))] if can_evacuate(s, p) else []


def _wounded(ask: AskS, a: Any) -> Why:
    return None if a.card in _me(ask, a).wounded else f"{ask.state.cat.title(a.card)} is not wounded"


def _evacuation(ask: AskS, a: Any) -> Why:
    if can_evacuate(ask.state, _me(ask, a)):
        return None
    return "Evacuation needs a Medic in the Crew or an activated Aid Station"


def _buy(s: State, p: Player) -> list[Any]:
    return [act("buy", p.name)]


def _take_drone(s: State, p: Player) -> list[Any]:
    out = []
    full = len(p.warehouse) >= s.cat.board.warehouse
    for card in sorted(set(s.shop)):
        if s.cat.drones[card].cost > p.logistics:
            continue
        if full:  # ruling: warehouse-discard-any
            choices = sorted({card, *(d.card for d in p.warehouse)})
            out += [act("take_drone", p.name, card=card, discard=d) for d in choices]
        else:
            out.append(act("take_drone", p.name, card=card))
    return out


def _in_shop(ask: AskS, a: Any) -> Why:
    s, p = ask.state, _me(ask, a)
    if a.card not in s.shop:
        return f"{s.cat.title(a.card)} is not in the Drone Shop"
    cost = s.cat.drones[a.card].cost
    if cost > p.logistics:
        return f"{s.cat.title(a.card)} costs {cost} Logistics; {p.name} has {p.logistics}"
    return None


def _warehouse_room(ask: AskS, a: Any) -> Why:
    s, p = ask.state, _me(ask, a)
    full = len(p.warehouse) >= s.cat.board.warehouse
    if full and a.discard is None:
        return f"the Warehouse holds {s.cat.board.warehouse} drones: name one to discard"
    if not full and a.discard is not None:
        return "the Warehouse has room; nothing is discarded"
    if a.discard is not None and a.discard != a.card and all(d.card != a.discard for d in p.warehouse):
        return f"no {s.cat.title(a.discard)} in the Warehouse, nor is it the drone bought"
    return None


def _decline(s: State, p: Player) -> list[Any]:
    return [act("decline", p.name)]


def _sortie(s: State, p: Player) -> list[Any]:
    return [act("sortie", p.name, drone=d) for d in sorted({d.card for d in p.warehouse})]


def _one_sortie(ask: AskS, a: Any) -> Why:
    t = ask.state.turn
    # ruling: sortie-attacks
    return "attacks may be made with only one drone per turn" if t is not None and t.sortied else None


def _ready_to_fly(ask: AskS, a: Any) -> Why:
    p = _me(ask, a)
    return sortie_problem(ask.state, p, a.drone, _reach(ask, p))


def _attack(s: State, p: Player) -> list[Any]:
    sure = any(not pr.used for pr in active(s, p, "guaranteed-hit"))
    out = []
    for target in sorted(set(s.battlefield)):
        out.append(act("attack", p.name, target=target))
        if sure:
            out.append(act("attack", p.name, target=target, guaranteed=True))
    return out


def _guaranteed(ask: AskS, a: Any) -> Why:
    if a.guaranteed and not any(not pr.used for pr in active(ask.state, _me(ask, a), "guaranteed-hit")):
        return "no activated, face-up Project guarantees a hit"
    return None


def _target(ask: AskS, a: Any) -> Why:
    s = ask.state
    t = s.turn
    assert t is not None and t.sortie is not None
    p = _me(ask, a)
    return target_ok(s, p, t.sortie.drone, a.target, t.sortie, _reach(ask, p))


def _end_sortie(s: State, p: Player) -> list[Any]:
    return [act("end_sortie", p.name)]


def _attacked(ask: AskS, a: Any) -> Why:
    s = ask.state
    t = s.turn
    assert t is not None and t.sortie is not None
    if t.sortie.made:
        return None
    p = _me(ask, a)
    reach = _reach(ask, p)
    if any(target_ok(s, p, t.sortie.drone, x, t.sortie, reach) is None for x in set(s.battlefield)):
        return "a sortie makes at least one attack"
    return None


def _extra_action(s: State, p: Player) -> list[Any]:
    return [act("extra_action", p.name)]


def _commander(ask: AskS, a: Any) -> Why:
    if extra_action_source(ask.state, _me(ask, a)) is not None:
        return None
    return "no Commander in the HQ with an unused Effect this round"


def _end_turn(s: State, p: Player) -> list[Any]:
    return [act("end_turn", p.name)]


# --- free actions: any player, at any time -------------------------------------------------------


def _free(make: Callable[[State, Player], list[Any]]) -> Callable[[AskS, str], list[Any]]:
    def options(ask: AskS, player: str) -> list[Any]:
        s = ask.state
        p = s.players[player]
        # A player with no free action to take has no free move the rules allow (`has_free_action`
        # answers exactly that, once per question for the four free moves): none is worth listing.
        free = ask.cached(("free", player), lambda: has_free_action(s, p))
        return make(s, p) if free else []
    return options


def _exchange(s: State, p: Player) -> list[Any]:
    return [] if p.exchanged else [act("exchange_trophy", p.name, card=c) for c in sorted(set(p.trophies))]


def _trophy(ask: AskS, a: Any) -> Why:
    s, p = ask.state, _me(ask, a)
    if a.card not in p.trophies:
        return f"{s.cat.title(a.card)} is not one of their trophies"
    return "each player may exchange only one trophy per round" if p.exchanged else None


def _activate(s: State, p: Player) -> list[Any]:
    return [act("activate_project", p.name, card=c) for c in sorted({pr.card for pr in p.projects if not pr.active})]


def _open_project(ask: AskS, a: Any) -> Why:
    s, p = ask.state, _me(ask, a)
    if not any(pr.card == a.card and not pr.active for pr in p.projects):
        return f"no open {s.cat.title(a.card)} Project"
    # ruling: activation-face-down-characters
    missing = [c for c in s.cat.support[a.card].requires if c not in p.board]
    if missing:
        return "activation discards " + ", ".join(s.cat.title(c) for c in missing) + " from the Crew or HQ"
    return None


def _evacuate_effect(s: State, p: Player) -> list[Any]:
    if not p.wounded:
        return []
    return [act("evacuate_effect", p.name, source=src, card=c) for src in evacuation_sources(s, p)
            for c in sorted(set(p.wounded))]


def _evacuation_source(ask: AskS, a: Any) -> Why:
    s = ask.state
    if a.source in evacuation_sources(s, _me(ask, a)):
        return None
    return f"{s.cat.title(a.source)} gives no Evacuation now (once per round, from the Crew or activated)"


def _repair(s: State, p: Player) -> list[Any]:
    broken = sorted({d.card for d in p.warehouse if d.broken})
    if not broken:
        return []
    return [act("repair", p.name, source=src, drone=d) for src in repair_sources(s, p) for d in broken]


def _repair_source(ask: AskS, a: Any) -> Why:
    s = ask.state
    if a.source in repair_sources(s, _me(ask, a)):
        return None
    return f"{s.cat.title(a.source)} repairs no drone now (once per round, from the HQ or activated)"


def _broken(ask: AskS, a: Any) -> Why:
    s = ask.state
    if any(d.card == a.drone and d.broken for d in _me(ask, a).warehouse):
        return None
    return f"no broken {s.cat.title(a.drone)}"


# --- setup, the Threat phase, hits -----------------------------------------------------------------


def _set_up(s: State, p: Player) -> list[Any]:
    return [act("set_up", p.name)]


def _defend(s: State, p: Player) -> list[Any]:
    return [act("defend", p.name)]


def _choose(s: State, p: Player) -> list[Any]:
    mine = next(x for x in s.pending if x.player == p.name)
    return [act("choose", p.name, card=c) for c in pending_options(s, p, mine)]


_HIT_WORDS = {"wound": "a Character in their Crew", "lose-drone": "a drone in their Warehouse",
              "lose-wing": "a Wing drone in their Warehouse", "break-drone": "a working drone in their Warehouse"}


def _hit_choice(ask: AskS, a: Any) -> Why:
    s, p = ask.state, _me(ask, a)
    mine = next(x for x in s.pending if x.player == p.name)
    if a.card in pending_options(s, p, mine):
        return None
    return f"the hit from the {s.cat.title(mine.source)} falls on {_HIT_WORDS[mine.kind]}"


# --- the table -----------------------------------------------------------------------------------

_T = (who_acts, in_turn)  # every move of a turn, a roll, the deal or a hit


# `options_meet`: how many of a move's own rules every option meets by how `make` makes it (a card from the
# hand, a target in range); the shared rules always are (options name a player the game waits on, or
# one with a free action), so listing asks neither (see `Move.options_meet`).


def _turn_move(kind: str, words: str, make: Callable[[State, Player], list[Any]],
               *rules: Callable[[AskS, Any], Why], options_meet: int = 0) -> Move[State, Any]:
    return Move(words, _turn_options(kind, make), (*_T, *rules), resolver(kind), options_meet=len(_T) + options_meet)


def _free_move(kind: str, words: str, make: Callable[[State, Player], list[Any]],
               *rules: Callable[[AskS, Any], Why], options_meet: int = 0) -> Move[State, Any]:
    # ruling: free-actions-any-time
    return Move(words, _free(make), (who_acts, *rules), resolver(kind), options_meet=1 + options_meet)


MOVES: dict[str, Move[State, Any]] = {
    "set_up": _turn_move("set_up", "set up", _set_up),
    "discard_support": _turn_move("discard_support", "discard a Support card", _discard_support, _discard_from,
                                  options_meet=1),
    "draft": _turn_move("draft", "draft a Support card", _draft, _drafted, options_meet=1),
    "play_support": _turn_move("play_support", "play a Support card", _play_support, _in_hand, _affordable,
                               _support_target, options_meet=3),
    "recruit": _turn_move("recruit", "recruit", _recruit, _characters_left),
    "place": _turn_move("place", "place a Character", _place, _drawn),
    "move": _turn_move("move", "move a Character", _move, _movable, options_meet=1),
    "end_move": _turn_move("end_move", "end the Movement", _end_move),
    "evacuate": _turn_move("evacuate", "evacuate", _evacuate, _wounded, _evacuation, options_meet=2),
    "buy": _turn_move("buy", "buy a drone", _buy),
    "take_drone": _turn_move("take_drone", "take a drone", _take_drone, _in_shop, _warehouse_room, options_meet=2),
    "decline": _turn_move("decline", "buy nothing", _decline),
    "sortie": _turn_move("sortie", "fly a combat sortie", _sortie, _one_sortie, _ready_to_fly),
    "attack": _turn_move("attack", "attack", _attack, _guaranteed, _target, options_meet=1),
    "end_sortie": _turn_move("end_sortie", "end the sortie", _end_sortie, _attacked),
    "extra_action": _turn_move("extra_action", "take an extra Action", _extra_action, _commander),
    "end_turn": _turn_move("end_turn", "end the turn", _end_turn),
    "exchange_trophy": _free_move("exchange_trophy", "exchange a trophy", _exchange, _trophy, options_meet=1),
    "activate_project": _free_move("activate_project", "activate a Project", _activate, _open_project),
    "evacuate_effect": _free_move("evacuate_effect", "evacuate with an Effect", _evacuate_effect, _wounded,
                                  _evacuation_source, options_meet=2),
    "repair": _free_move("repair", "repair a drone", _repair, _repair_source, _broken, options_meet=2),
    "defend": _turn_move("defend", "roll the defence die", _defend),
    "choose": _turn_move("choose", "place a hit", _choose, _hit_choice, options_meet=1),
}
