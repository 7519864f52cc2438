"""Дроноводи: hints for players that look ahead or search (never the rules). `evaluate` rates the
team's position (the game is cooperative: every player shares one rating); `resample` deals again what
the players cannot see.

Hidden information: the Trench lies face down, so which Character a Trench hit takes is unknown to the
players, though the state records the order (a scenario sets it). The decks' middles are drawn by
chance when they are drawn, so their order is never stored; a scenario's known deck tops are known
only to the scenario, not to players, so they go back into the shuffled middle too.
"""

from __future__ import annotations

import math
from typing import Any
from weakref import WeakKeyDictionary

from generators.games.dronovody.abilities import can_fly, has_ammunition, points, recon
from generators.games.dronovody.facts import (
    D6,
    HORDE_PER_PLAYER,
    THREATS_PER_PLAYER,
    WOUNDED_LIMIT,
    Catalogue,
    ThreatFacts,
)
from generators.games.dronovody.state import Player, State
from generators.rules.chance import Chance
from generators.rules.information import seen

WIN, LOSS = 10_000.0, -10_000.0
# The search leans on the rating's one-step order as its prior over moves (PUCT): a turn is many small
# moves whose worth shows only rounds later.
PRIORS = 1.0
# The rating is the team's chance of surviving every Threat phase still to come, in thousandths; the
# rest (Logistics, drones, activated Projects) only breaks ties between positions equally safe.
SURVIVAL = 1000.0
# A rating difference that matters in play, the search's scale where a turn's moves rate alike (most
# of a turn's small moves change no one's survival): five hundredths of the team's survival chance.
UNIT = 50.0
# Look-ahead actions the search plays on past each new position before rating it: a turn's small moves
# (a sortie's launch, attacks and landing) are worth something only together.
ROLLOUT = 6
# Sorties a ready player flies in a round (of four turns, the other Actions wanted too), and the
# wounds a Medic or an Aid Station takes off in one.
SORTIES_PER_ROUND = 2.0
EVACUATED_PER_ROUND = 0.8


def _below(lam: float, k: int) -> float:
    """P(X < k) for X Poisson with mean `lam`: the chance to take fewer than `k` more wounds."""
    return _below_each(lam, k)[k] if k > 0 else 0.0


def _below_each(lam: float, top: int) -> list[float]:
    """`_below(lam, k)` for every k from 0 to `top`, the Poisson terms summed once."""
    out = [0.0]
    if top <= 0:
        return out
    term = total = math.exp(-lam)
    out.append(total if total < 1.0 else 1.0)  # min(1.0, total), without a call per term
    for i in range(1, top):
        term *= lam / i
        total += term
        out.append(total if total < 1.0 else 1.0)
    return out


Growth = tuple[float, float, tuple[float, float, float]]
_GROWTH: WeakKeyDictionary[Catalogue, Growth] = WeakKeyDictionary()


def _growth(cat: Catalogue) -> Growth:
    """Trench and Crew hits one newly drawn Threat card brings on average (over the whole deck), and
    the share of them on ground enemies that a drone reaching 0, 1 or 2 can destroy."""
    g = _GROWTH.get(cat)
    if g is None:
        cards = [(cat.counts.get(t, 1), f) for t, f in cat.threats.items()]
        total = sum(k for k, _ in cards)
        trench = sum(k * f.trench for k, f in cards)
        crew = sum(k * f.crew for k, f in cards)
        reach0, reach1, reach2 = (sum(k * (f.trench + f.crew) for k, f in cards
                                      if f.kind == "enemy" and f.distance <= r) / (trench + crew) for r in (0, 1, 2))
        g = _GROWTH[cat] = (trench / total, crew / total, (reach0, reach1, reach2))
    return g


def _strike(s: State, p: Player) -> tuple[float, int, int]:
    """The player's best strike drone ready to fly: its chance to hit a target (bonuses aside), attacks a
    sortie and reach; (0, 0, 0) for none."""
    best = (0.0, 0, 0)
    reach = -1
    for d in p.warehouse:
        f = s.cat.drones[d.card]
        if d.broken or not f.attacks or f.to_hit is None or not can_fly(s, p, d.card):
            continue
        if f.ammunition and not has_ammunition(s, p):
            continue
        if not f.kamikaze:
            if reach < 0:
                reach = recon(s, p)
            if reach < 1:
                continue
        h = min(1.0, max(0.0, (7 - f.to_hit) / 6))
        far = f.reach if f.kamikaze else min(f.reach, reach)
        if h * f.attacks > best[0] * best[1]:
            best = (h, f.attacks, far)
    return best


_Roll = tuple[float, float, int, list[int], list[int]]


def _roll(bearers: list[ThreatFacts], far: int, crewed: bool, ew: bool, bunker: bool) -> _Roll:
    """A player's next defence roll against the field: its expected wounds and, of them, those on enemies
    the team's drones reach (each per face, so over 6), and the Trench and Crew hits on each face (EW
    cancels drones, a Bunker the Crew hits, an empty Crew takes none); `trench_sum`: the Trench hits
    over all six faces."""
    trench_hits = [0] * 7
    crew_hits = [0] * 7
    e = hit = 0.0
    for f in bearers:
        x = f.trench + (f.crew if crewed else 0)
        e += x
        if f.kind == "enemy" and f.distance <= far:
            hit += x
        if f.kind == "drone" and ew:
            continue
        trench_hits[f.activation] += f.trench
        if not bunker:
            crew_hits[f.activation] += f.crew
    return e / 6, hit / 6, sum(trench_hits), trench_hits, crew_hits


def evaluate(state: State, player: str) -> float:
    """Higher is better for the whole team: a win; else the chance that no player reaches the wounded
    limit and the Trench holds, through the Threat phases left. Each player's next defence roll is
    counted face by face against the field (Bunker, EW and an empty Crew cancel what they cancel); the
    later ones as a Poisson count from the field as it is, the new threats each round brings, less the
    enemies the team's ready drones can be expected to destroy and the wounded a Medic evacuates."""
    if state.result == "won":
        return WIN + max(points(state, p) for p in state.players.values())
    if state.result == "lost":
        return LOSS + 100.0 * state.round
    s = state
    cat = s.cat
    threats = cat.threats
    n = len(s.seats)
    rolling = s.phase == "threat"
    later = s.rules.rounds - s.round - s.recovering  # Threat phases after this round's (the next's in Recovery)
    per = (HORDE_PER_PLAYER if s.rules.horde else THREATS_PER_PLAYER) * n
    g_trench, g_crew, share = _growth(cat)
    g_trench, g_crew = per * g_trench / 6, per * g_crew / 6  # one roll's expected wounds added a round
    # Wound-bearing enemies on the field; the team's ready drones destroy some of those they reach.
    bearers = [threats[c] for c in s.battlefield if threats[c].trench or threats[c].crew]
    kills = now = 0.0
    far = 0
    t = s.turn
    for name in s.seats:
        p = s.players[name]
        h, attacks, reach = _strike(s, p)
        if not h:
            continue
        far = max(far, reach)
        kills += SORTIES_PER_ROUND * h * attacks
        if t is not None and t.player == name and t.sortie is not None and t.sortie.attacks:
            now = h * t.sortie.attacks  # the sortie under way
    chars = cat.characters
    survive = 1.0
    trench_rate = 0.0
    extra = 0.0
    rolls_of: dict[tuple[bool, bool, bool], _Roll] = {}  # players alike in these see the same roll
    for name in s.seats:
        p = s.players[name]
        effects = {cat.support[c].effect for c in p.defence}
        crew = len(p.crew)
        key = (bool(crew), "ew" in effects, "bunker" in effects)
        roll = rolls_of.get(key)
        if roll is None:
            roll = rolls_of[key] = _roll(bearers, far, *key)
        e, hit, trench_sum, trench_hits, crew_hits = roll
        trench_rate += trench_sum / 6
        evac = EVACUATED_PER_ROUND if (any(chars[c].crew_evacuation for c in p.crew) or any(
            pr.active and cat.support[pr.card].effect == "evacuation" for pr in p.projects)) else 0.0
        lam = 0.0
        for k in range(1, later + 1):
            grown = k * (g_trench + (g_crew if crew else 0.0))
            reached = hit + grown * share[far]
            lam += max(0.0, e + grown - min(reached, (now + kills * k) / 6) - evac)
        room = WOUNDED_LIMIT - len(p.wounded)
        if rolling and name in s.rolled:
            chance = _below(lam, room)
        else:
            below = _below_each(lam, room)
            total = 0.0  # summed face by face, in order, as sum() would (from 0.0: the same sums)
            for d in D6:
                lost = trench_hits[d] + (crew_hits[d] if crew_hits[d] < crew else crew)
                total += below[room - lost if lost < room else 0]
            chance = total / 6
        survive *= chance
        extra += min(p.logistics, 8) + 2.0 * sum(1 for d in p.warehouse if not d.broken)
        extra += 20.0 * sum(1 for pr in p.projects if pr.active)
    rolls = later + (0 if rolling and len(s.rolled) == n else 1)
    survive *= _below(trench_rate * rolls + n * g_trench * later * (later + 1) / 2, len(s.trench))
    return SURVIVAL * survive + extra


def _unknown_tops(state: State) -> dict[str, Any]:
    """Each deck with its known top (a scenario's, not the players') back in the unknown middle."""
    return {name: deck.evolve(top=[], pool=tuple(sorted([*deck.pool, *deck.top]))) if deck.top else deck
            for name, deck in state.decks.items()}


def observe(state: State, player: str) -> Any:
    """What the players see: the state without the Trench's order and the decks' known tops."""
    return seen(state, {"trench": sorted(state.trench), "decks": _unknown_tops(state)})


def resample(state: State, player: str, chance: Chance) -> State:
    """A copy with the Trench's order and the decks' known tops dealt again by `chance`."""
    new = state.copy()
    new.trench = chance.shuffle("trench", sorted(state.trench))
    new.decks = _unknown_tops(state)
    return new
