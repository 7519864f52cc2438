"""Дроноводи: what a player has and can do, read from the state: Pilots, Reconnaissance, Ammunition,
Artillery correction, attack modifiers, which targets a drone or an Artillery card can reach, whose
Effects are ready, and the points at the end."""

from __future__ import annotations

from typing import Any

from generators.games.dronovody.facts import WOUND_POINTS
from generators.games.dronovody.state import Pending, Player, Project, Sortie, State

# A drone type as players read it, with its article.
TYPE_WORDS = {"fpv": "an FPV", "mavic": "a Mavic", "wing": "a Wing", "multirotor": "a Multirotor"}


def in_crew(s: State, p: Player, pred: Any) -> list[str]:
    return [c for c in p.crew if pred(s.cat.characters[c])]


def in_hq(s: State, p: Player, pred: Any) -> list[str]:
    return [c for c in p.hq if pred(s.cat.characters[c])]


def active(s: State, p: Player, effect: str) -> list[Project]:
    return [pr for pr in p.projects if pr.active and s.cat.support[pr.card].effect == effect]


def turn_bonus(s: State, p: Player, effect: str) -> list[str]:
    if s.turn is None or s.turn.player != p.name or s.phase != "management":
        return []
    return [b for b in s.turn.bonus if s.cat.support[b].effect == effect]


def can_fly(s: State, p: Player, drone: str) -> bool:
    """A matching Pilot in the Crew; any Pilot flies the Mavic."""
    kind = s.cat.drones[drone].type
    for c in p.crew:
        pilots = s.cat.characters[c].pilots
        if kind in pilots or (pilots and kind == "mavic"):
            return True
    return False


def recon(s: State, p: Player) -> int:
    """The farthest distance the player has Reconnaissance at."""
    best = 0
    for d in p.warehouse:
        facts = s.cat.drones[d.card]
        if facts.recon and not d.broken and can_fly(s, p, d.card):
            best = max(best, facts.recon)
    for pr in active(s, p, "reconnaissance"):
        best = max(best, s.cat.support[pr.card].value)
    for b in turn_bonus(s, p, "reconnaissance"):
        best = max(best, s.cat.support[b].value)
    return best


def has_ammunition(s: State, p: Player) -> bool:  # ruling: resources-not-spent
    return bool(in_crew(s, p, lambda f: f.crew_ammunition) or active(s, p, "ammunition")
                or turn_bonus(s, p, "ammunition"))


def has_correction(s: State, p: Player) -> bool:
    drones = [d for d in p.warehouse if not d.broken and s.cat.drones[d.card].artillery_correction
              and can_fly(s, p, d.card)]
    return bool(drones or in_crew(s, p, lambda f: f.crew_artillery_correction))


def recon_words(s: State, p: Player) -> str:
    """How far the player's Reconnaissance reaches, in words ("has none" rather than "at distance 0")."""
    best = recon(s, p)
    return f"{p.name} has it at distance {best}" if best else f"{p.name} has no Reconnaissance"


def reconned(s: State, p: Player, target: str, reach: int | None = None) -> bool:
    """`reach`: the player's `recon`, when the caller asks about several targets."""
    t = s.cat.threats[target]
    return (recon(s, p) if reach is None else reach) >= t.distance or bool(
        t.artillery and turn_bonus(s, p, "counter-battery"))


def attack_modifiers(s: State, p: Player, drone: str, target: str) -> list[tuple[str, int]]:
    """Every bonus and penalty to one drone attack, labelled as players would say it."""
    kind = s.cat.drones[drone].type
    mods: list[tuple[str, int]] = []
    for c in p.crew:
        f = s.cat.characters[c]
        if f.attack_bonus and f.bonus_type in (None, kind):
            mods.append((s.cat.title(c), f.attack_bonus))
    for pr in active(s, p, "attack-bonus"):
        mods.append((s.cat.title(pr.card), s.cat.support[pr.card].value))
    armour = s.cat.threats[target].armour
    if armour:
        mods.append((s.cat.title(target), armour))
    for card in s.battlefield:
        if s.cat.threats[card].jamming:
            mods.append((s.cat.title(card), s.cat.threats[card].jamming))
    return mods


def artillery_modifier(s: State) -> int:
    return sum(s.cat.threats[c].artillery_jamming for c in s.battlefield)


def target_ok(s: State, p: Player, drone: str, target: str, sortie: Sortie, reach: int | None = None) -> str | None:
    """Why `drone` cannot attack `target` now (None: it can); `reach` as for `reconned`."""
    if target not in s.battlefield:
        return f"{s.cat.title(target)} is not on the field"
    d, t = s.cat.drones[drone], s.cat.threats[target]
    if t.kind == "drone" and sortie.drone_attacks <= 0:
        if not d.drone_attacks:
            return f"the {s.cat.title(drone)} does not attack enemy drones"
        return f"the {s.cat.title(drone)} has no attack left on enemy drones"
    if t.kind == "enemy" and sortie.attacks <= 0:
        if not d.attacks:
            return f"the {s.cat.title(drone)} attacks only enemy drones"
        return f"the {s.cat.title(drone)} has no attack left on ground targets"
    if t.distance > d.reach:
        return f"the {s.cat.title(drone)} reaches distance {d.reach}; the {s.cat.title(target)} is at {t.distance}"
    if not d.kamikaze and not reconned(s, p, target, reach):
        return f"the attack needs Reconnaissance at distance {t.distance}; {recon_words(s, p)}"
    if d.ammunition and not has_ammunition(s, p):
        return f"the {s.cat.title(drone)} needs Ammunition"
    if not can_fly(s, p, drone):
        return f"no Pilot in the Crew flies the {s.cat.title(drone)}"
    return None


def sortie_problem(s: State, p: Player, drone: str, reach: int | None = None) -> str | None:
    """Why `drone` cannot fly a sortie now (None: it can); `reach` as for `reconned`."""
    own = [d for d in p.warehouse if d.card == drone]
    if not own:
        return f"{p.name} has no {s.cat.title(drone)} in the Warehouse"
    if all(d.broken for d in own):
        return f"the {s.cat.title(drone)} is broken"
    facts = s.cat.drones[drone]
    if not (facts.attacks or facts.drone_attacks):
        return f"the {s.cat.title(drone)} is not a strike drone"
    if not can_fly(s, p, drone):
        return f"no Pilot in the Crew flies the {s.cat.title(drone)} ({TYPE_WORDS[facts.type]} drone)"
    if facts.ammunition and not has_ammunition(s, p):
        return f"the {s.cat.title(drone)} needs Ammunition"
    probe = Sortie(drone, facts.attacks, facts.drone_attacks)
    if reach is None:
        reach = recon(s, p)
    reasons = [target_ok(s, p, drone, t, probe, reach) for t in sorted(set(s.battlefield))]
    if not s.battlefield or all(reasons):
        why = next((r for r in reasons if r), "there is no enemy on the field")
        return f"no target for the {s.cat.title(drone)}: {why}"
    return None


def artillery_targets(s: State, p: Player, card: str) -> list[str]:
    f = s.cat.support[card]
    reach = recon(s, p)
    return sorted({t for t in s.battlefield if s.cat.threats[t].kind == "enemy"
                   and s.cat.threats[t].distance <= f.distance and reconned(s, p, t, reach)})


def points(s: State, p: Player) -> int:
    """Victory points: trophy flags kept, costs of activated Projects, -3 per wounded Character."""
    trophies = sum(s.cat.threats[t].trophy for t in p.trophies)
    projects = sum(s.cat.support[pr.card].cost for pr in p.projects if pr.active)
    return trophies + projects + WOUND_POINTS * len(p.wounded)


def winners(s: State) -> list[str]:  # ruling: tie-break-count
    """Most points; a tie goes to the most Characters in the Crew and HQ; a tie on both is shared."""
    best = max((points(s, p), len(p.board)) for p in s.players.values())
    return [n for n in s.seats if (points(s, s.p(n)), len(s.p(n).board)) == best]


def activated_total(s: State) -> int:
    return sum(1 for p in s.players.values() for pr in p.projects if pr.active)

def pending_options(s: State, p: Player, x: Pending) -> list[str]:
    if x.kind == "wound":
        return sorted(p.crew)
    if x.kind == "lose-drone":
        return sorted({d.card for d in p.warehouse})
    if x.kind == "lose-wing":
        return sorted({d.card for d in p.warehouse if s.cat.drones[d.card].type == "wing"})
    return sorted({d.card for d in p.warehouse if not d.broken})


def destinations(p: Player, card: str) -> list[str]:
    """Movement: between the Crew and the HQ, or into the Trench."""
    return ["hq" if card in p.crew else "crew", "trench"]


def can_evacuate(s: State, p: Player) -> bool:
    return bool(in_crew(s, p, lambda f: f.crew_evacuation) or active(s, p, "evacuation"))


def extra_action_source(s: State, p: Player) -> str | None:
    return next((c for c in in_hq(s, p, lambda f: f.hq_extra_action) if ready(s, p, c)), None)


def ready(s: State, p: Player, character: str) -> bool:
    """A Character's Effect can be used: it is not face down for the round (or has no such limit)."""
    return not (s.cat.characters[character].once_per_round and character in p.used)


def evacuation_sources(s: State, p: Player) -> list[str]:
    chars = [c for c in in_crew(s, p, lambda f: f.crew_evacuation) if ready(s, p, c)]
    projects = sorted({pr.card for pr in active(s, p, "evacuation") if not pr.used})
    return sorted(chars) + projects


def repair_sources(s: State, p: Player) -> list[str]:
    chars = [c for c in in_hq(s, p, lambda f: f.hq_repair) if ready(s, p, c)]
    projects = sorted({pr.card for pr in active(s, p, "repair") if not pr.used})
    return sorted(chars) + projects


def _ready_source(s: State, p: Player, effect: str) -> bool:
    """`evacuation_sources` (effect "evacuation") or `repair_sources` ("repair") names one: asked for
    every player on every step (who may act), so it builds no list."""
    chars = s.cat.characters
    for c in p.crew if effect == "evacuation" else p.hq:
        f = chars[c]
        if (f.crew_evacuation if effect == "evacuation" else f.hq_repair) and not (f.once_per_round and c in p.used):
            return True
    support = s.cat.support
    return any(pr.active and not pr.used and support[pr.card].effect == effect for pr in p.projects)


def has_evacuation_source(s: State, p: Player) -> bool:
    return _ready_source(s, p, "evacuation")


def has_repair_source(s: State, p: Player) -> bool:
    return _ready_source(s, p, "repair")


