"""Mission: Drive: players' wording of an action, a shuffle or draw, and where an example ends: every
card by its printed title, every space told from the hero's car."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from generators.games.mission_drive.context import discard_words
from generators.games.mission_drive.facts import FIRE_DIRECTION, REWARD_POINTS, Facts, facts_of
from generators.games.mission_drive.results import outcome
from generators.games.mission_drive.specs import (
    BrakeAction,
    CivilianMoveAction,
    EnemyFireAction,
    LaserStrikeAction,
    MoveAction,
    SpendAction,
    UseUpgradeAction,
)
from generators.games.mission_drive.state import State
from generators.rules.contract import Event, Figure, Place, Words, namer
from generators.rules.facts import GameContent
from generators.rules.wording import counted

# --- players' wording --------------------------------------------------------------------------

_SLOT_NAME = {"left": "left", "center": "centre", "right": "right"}


def describe_action(act: Any, s: State | None = None, name: Callable[[str], str] = str) -> str:
    """An action in players' words, for the site's step lists: upgrades by their printed titles
    (`name`), spaces told from where the hero is in `s` (the position the action is played from)."""
    text = _describe(act, s, name)
    extra = [f"the up-link's energy goes to {_energy_words(c, name)}" for c in getattr(act, "energy", ())]
    extra += [f"the shock costs {discard_words(c, name)}" for c in getattr(act, "discard", ())]
    if getattr(act, "hero_to", None) is not None:
        extra.append(f"the hero moves aside to {place(s, act.hero_to)}")
    return text + ("; " + "; ".join(extra) if extra else "")


def place(s: State | None, pos: Sequence[int]) -> str:
    """A space as a player points at it, from the hero's car: "2 rows ahead, 1 lane to the left"."""
    if s is None:
        return "that space"
    dx, dy = pos[0] - s.hero[0], pos[1] - s.hero[1]
    if not dx and not dy:
        return "the hero's space"
    rows = "level with the hero" if not dy else \
        f"{abs(dy)} row{'s' if abs(dy) != 1 else ''} {'ahead of' if dy > 0 else 'behind'} the hero"
    lanes = "in the same lane" if not dx else \
        f"{abs(dx)} lane{'s' if abs(dx) != 1 else ''} to the {'right' if dx > 0 else 'left'}"
    return f"the space {rows}, {lanes}"


def _arrows(s: State | None, slot: str) -> str:
    """The arrows of the card in a dashboard slot, as the card prints them (" ↑←↑")."""
    card = s.slots.get(slot) if s is not None else None
    return f" {marks(card.arrows)}" if card is not None else ""


def marks(arrows: Sequence[Any]) -> str:
    return "".join(_ARROW_MARK.get(str(a), str(a)) for a in arrows)


def _describe(act: Any, s: State | None, name: Callable[[str], str]) -> str:
    if isinstance(act, MoveAction):
        text = f"Move with the {_SLOT_NAME[act.slot]} card{_arrows(s, act.slot)}" + (", mirrored" if act.mirror else "")
        if act.fire == "both":
            text += f", firing {FIRE_DIRECTION[act.slot]} before and after moving"
        elif act.fire:
            text += f", firing {FIRE_DIRECTION[act.slot]} {act.fire} moving"
        return text
    if isinstance(act, BrakeAction):
        return f"Brake {act.spaces} space{'s' if act.spaces != 1 else ''} with the {_SLOT_NAME[act.slot]} card"
    if isinstance(act, EnemyFireAction):
        return f"Enemy card: the enemy fires at {place(s, act.target)}"
    if isinstance(act, CivilianMoveAction):
        return f"Civilian card: the civilian on {place(s, act.civilian)} moves to {place(s, act.to)}"
    if isinstance(act, LaserStrikeAction):
        return f"Call the satellite laser strike on the enemy on {place(s, act.target)}"
    if isinstance(act, UseUpgradeAction):
        paid = "removing a charge" if act.pay == "charge" else "discarding the card"
        text = f"Use {name(act.upgrade)}, {paid}"
        if act.direction is not None:
            text += f", {act.direction}"
        if act.slot is not None:
            text += f", on the {_SLOT_NAME[act.slot]} slot"
        if act.civilian is not None and act.to is not None:
            text += f", moving the civilian on {place(s, act.civilian)} to {place(s, act.to)}"
        return text
    if isinstance(act, SpendAction):
        upgrade = name(act.upgrade or "")
        what = {"health": "one health for the hero", "install": f"installing {upgrade}",
                "charge": f"a charge on {upgrade}", "start_forward": "starting one space forward"}[act.buy]
        return f"Spend points on {what}" + (f", {act.times} times" if act.times > 1 else "")
    words = {"score": "Score the mission", "finish": "End the upgrade step", "start_mission": "Set up the next mission",
             "boss_setup": "Set up the boss", "boss_turn": "Play the boss's turn"}
    return words[act.do]


def _energy_words(choice: Any, name: Callable[[str], str] = str) -> str:
    return "the hero: one more health" if choice == "health" else f"a charge on {name(choice.charge)}"


def describe_end(o: Mapping[str, Any]) -> str:
    """The hero's health, what was destroyed this mission, the boss's damage and the game's result."""
    gone = o["destroyed"]
    parts = [f"the hero has {o['health']} health",
             f"{gone['enemy']['total']} enemy and {gone['civilian']['total']} civilian vehicles destroyed this mission"]
    if o.get("boss"):
        parts.append(f"the boss has taken {o['boss_damage']} damage")
    if o["game"] != "playing":
        parts.append(f"the game is {o['game']}")
    text = "; ".join(parts)
    return text[:1].upper() + text[1:] + "."


_DECKS = {"mission deck": "mission cards", "upgrade deck": "upgrade cards", "movement deck": "movement cards"}


def describe_random(label: str, value: Any, name: Callable[[str], str], facts: Facts | None = None) -> str:
    """A shuffle or draw in players' words: cards by their printed titles, a movement card by its
    kind and arrows (every hero card has the same title)."""
    if isinstance(value, (list, tuple)):
        shown = ", ".join(_card_words(str(v), name, facts) for v in value)
        if label in _DECKS:
            return f"the {_DECKS[label]} are shuffled, top first: {shown}"
        return f"{label} drawn: {shown}"
    return f"draws the {label}: {name(str(value))}"


def _card_words(face: str, name: Callable[[str], str], facts: Facts | None) -> str:
    card = next((c for fid, c in facts.movement if fid == face), None) if facts is not None else None
    if card is None or not card.arrows:
        return name(face)
    return f"{name(face)} {''.join(_ARROW_MARK.get(a, a) for a in card.arrows)}"


_ARROW_MARK = {"forward": "↑", "left": "←", "right": "→", "back": "↓"}  # as the cards print their arrows


# --- what the rules did on their own inside a step ---------------------------------------------------

_HURT_BY = {"enemy card": "the enemy's fire", "rammed the boss": "ramming the boss",
            "rammed a truck": "ramming a truck", "rammed a car": "ramming a car",
            "the boss landed on the hero": "the boss landing on the hero"}
_DESTROYED_BY = {"shot": "by the hero's fire", "enemy": "by the enemy's fire", "rammed": "by the hero's ram",
                 "crushed": "(crushed: pushed where it cannot go)",
                 "upgrade shot": "by an upgrade's shot", "laser strike": "by the laser strike"}


_ENDED = {"accomplished": "the mission is accomplished", "boss-defeated": "the boss is defeated",
          "exhaustion": "the mission is lost by exhaustion", "immobilization": "the mission is lost by immobilization"}


def _cause(cause: str, name: Callable[[str], str]) -> str:
    """What hurt the hero: "ramming a car", "an explosion (Dazzling Missile)"."""
    if cause.startswith("explosion (") and cause.endswith(")"):
        return f"an explosion ({name(cause[len('explosion ('):-1])})"
    return _HURT_BY.get(cause, cause)


def describe_event(e: Event, s: State | None, content: GameContent | None) -> str | None:
    """What the rules did on their own, where it changes a figure the reader follows: the hero hurt
    (and by what) or spared by a shield, disoriented or held back by the road's edge, health
    repaired, vehicles destroyed and trucks damaged, the boss hit, the mission's score, points spent
    and lost, the mission's and the game's end."""
    name = namer(content)
    d = e.data
    kind = e.kind
    if kind == "hero_damaged":
        return f"the hero takes 1 damage from {_cause(str(d['cause']), name)}: health {d['health']}"
    if kind == "damage_prevented":
        spared = "the shield takes" if d["by"] == "shield" else "the upgrade used this turn takes away"
        return f"{spared} the damage from {_cause(str(d['cause']), name)}"
    if kind == "health_repaired":
        return f"the hero repairs {d['gained']} health: health {d['health']}"
    if kind in ("vehicle_destroyed", "truck_damaged"):
        what = f"{d['type']} is destroyed" if kind == "vehicle_destroyed" else "truck is damaged"
        how = _DESTROYED_BY.get(str(d["by"]), "")
        return f"a{'n' if d['side'] == 'enemy' else ''} {d['side']} {what} {how}".rstrip()
    if kind == "disoriented":
        return f"the hero is disoriented and moves {marks(d['card'])} instead"
    if kind == "off_road":
        return f"the hero cannot move {_ARROW_MARK.get(str(d['arrow']), d['arrow'])}: that would leave the road"
    if kind == "boss_damaged":
        return f"the boss takes 1 damage: its {str(d['part']).replace('-', ' ')} is hit"
    if kind == "boss_already_damaged":
        return f"the boss's {str(d['part']).replace('-', ' ')} is already damaged: no more damage"
    if kind == "scored":
        civilians = int(d["civilians_destroyed"])
        why = f" ({REWARD_POINTS[str(d['reward'])]} at {d['reward']} level, less 1 for each civilian destroyed: " \
              f"{civilians})" if civilians else ""
        laser = f" (less {d['laser_penalty']} for the laser strike)" if d["laser_penalty"] else ""
        score, points = counted(int(d["score"]), "point"), counted(int(d["points"]), "point")
        return f"the mission scores {score}{why}: {points} to spend{laser}"
    if kind == "points_spent":
        return f"{counted(int(d['cost']), 'point')} spent: {counted(int(d['points_left']), 'point')} left"
    if kind == "points_lost" and d["points"]:
        return f"{counted(int(d['points']), 'point')} left unspent {'is' if d['points'] == 1 else 'are'} lost"
    if kind == "mission_set_up":
        return f"mission {d['mission']} begins: enemy and civilian vehicles destroyed count from 0 again"
    if kind == "mission_ended":
        return _ENDED.get(str(d["status"]), f"the mission ends: {str(d['status']).replace('-', ' ')}")
    if kind == "game_over":
        return f"the game is {d['result']}"
    return None


def figures(s: State, content: GameContent | None) -> dict[Figure, int | Place]:
    """The hero's health, vehicles destroyed, points to spend, each upgrade's charges, the boss's damage."""
    name = namer(content)
    out: dict[Figure, int | Place] = {Figure("the hero", "health"): s.health, Figure("", "point"): s.points}
    for side in ("enemy", "civilian"):
        out[Figure(side, "destroyed")] = sum(1 for d in s.destroyed if d.side == side)
    for u in s.upgrades:
        out[Figure(name(u.id), "charge")] = u.charges
    if s.boss is not None:
        out[Figure("the boss", "damage")] = len(s.boss.damaged)
    return out


def _random_words(label: str, value: Any, content: GameContent | None) -> str:
    if content is None:
        return describe_random(label, value, str)
    return describe_random(label, value, content.name, facts_of(content))


WORDS: Words[State, Any] = Words(
    action=lambda action, state, content: describe_action(action, state, namer(content)),
    random=_random_words,
    end=lambda state, content: describe_end(outcome(state, [])),
    event=describe_event,
    figures=figures,
)
