"""Thunder Road: Ignition: shots and damage (3. Shoot, Taking Damage): a shot's roll, drawing a
damage token and resolving its effect, and the token placed under the car (a second one sends it to
the pit)."""

from __future__ import annotations

from generators.games.thunder_road_ignition.board import link, walk
from generators.games.thunder_road_ignition.events import end_move, log, note, push, roll, to_pit
from generators.games.thunder_road_ignition.facts import FINISHED, DamageFacts, shot_hits
from generators.games.thunder_road_ignition.state import Car, State, Task, cars_at
from generators.rules.chance import Chance
from generators.rules.contract import Event


def t_shot(s: State, t: Task, chance: Chance, events: list[Event]) -> None:
    target = s.cars[t.other]
    face = roll(chance, "shooting", s.kit.shooting, events)
    hit = shot_hits(face, target.size)
    s.bump("shots")
    note(events, "shot", shooter=t.car or None, target=target.id, face=face, hit=hit, how=t.how)
    log(events, f"{t.how} at {target.id}: shooting die {face}: {'hit' if hit else 'miss'}")
    if hit:
        s.bump("hits")
        push(s, Task("damage", car=target.id))


def t_damage(s: State, t: Task, chance: Chance, events: list[Event]) -> None:
    car = s.cars[t.car]
    if car.at not in s.board.spaces:
        return
    end_move(s, car.id)
    s.hit(car.id)
    if not s.pile:
        s.pile, s.discard = s.discard, ()
        note(events, "reshuffle", tokens=len(s.pile))
    # ruling: damage-with-no-tokens-left
    if not s.pile:
        log(events, f"{car.id} would take damage, but every damage token is under a car")
        return
    token = roll(chance, "damage", s.pile, events)
    pile = list(s.pile)
    pile.remove(token)
    s.pile = tuple(pile)
    s.bump("damage")
    facts = s.kit.effects[token]
    note(events, "damage", car=car.id, token=token, effect=facts.effect)
    log(events, f"{car.id} takes damage: {token}")
    push(s, *_effect(s, car, facts, chance, events), Task("place-token", car=car.id, space=token))


def _effect(s: State, car: Car, facts: DamageFacts, chance: Chance, events: list[Event]) -> list[Task]:
    at = car.at
    kit = s.kit
    if facts.effect == "battery-discharge":
        d = roll(chance, "direction", kit.direction, events)
        target = link(s.board, at, d)
        victims = cars_at(s, target) if target in s.board.spaces else []
        log(events, f"battery discharge {d}: " + (", ".join(victims) if victims else "no car there"))
        return [Task("damage", car=v) for v in victims]
    if facts.effect == "skid":
        # ruling: skid-direction
        d = facts.direction or "front"
        return [Task("enter", car=car.id, space=link(s.board, at, d), how="skid", direction=d)]
    if facts.effect == "dazed":
        n = roll(chance, "stunt", kit.stunt, events)
        return [Task("dazed", car=car.id, n=n, how=str(s.hits.get(car.id, 0)))]
    if facts.effect == "blast-off":
        n = roll(chance, "stunt", kit.stunt, events)
        d = roll(chance, "direction", kit.direction, events)
        log(events, f"{car.id} blasts off {n} {d}")
        return [Task("enter", car=car.id, space=walk(s.board, at, d, n), how="blast", direction=d)]
    return []


def t_dazed(s: State, t: Task, chance: Chance, events: list[Event]) -> None:
    car = s.cars[t.car]
    # ruling: dazed-stops
    if t.n <= 0 or car.at not in s.board.spaces or str(s.hits.get(car.id, 0)) != t.how:
        return
    d = roll(chance, "direction", s.kit.direction, events)
    push(s, Task("enter", car=car.id, space=link(s.board, car.at, d), how="dazed", direction=d),
         Task("dazed", car=car.id, n=t.n - 1, how=t.how))


def t_place_token(s: State, t: Task, chance: Chance, events: list[Event]) -> None:
    car = s.cars[t.car]
    # ruling: damage-with-no-tokens-left
    if car.at == FINISHED:
        s.discard = (*s.discard, t.space)
        return
    car = car._replace(tokens=(*car.tokens, t.space))
    s.put_car(car)
    # Told apart from the draw: a token's effect can stop play for a decision (a skid into a slam,
    # whose reroll a player decides), and the token goes under the car only after it.
    note(events, "token", car=car.id, token=t.space, count=len(car.tokens))
    if len(car.tokens) >= 2 and car.at in s.board.spaces:
        log(events, f"{car.id} has a second damage token")
        to_pit(s, car.id, "second damage", events)
