"""Mission: Drive: each kind of action as a `Move`: its options (every concrete action worth asking
about, the choices it meets filled in), its rules (each gives the players'-words reason it does not
hold, else None) and its resolution (`resolve`: the handlers of `road`, `upgrades`, `between` and
`boss`, run on a copy of the state).

Choices that arise in the middle of an action (an up-link's energy, an electric shock's discard,
where the hero goes when the boss lands on it) are written on the action. Which ones an action meets
depends on where its arrows lead, so the rule that checks them resolves the action on a copy and
reports the first choice that is missing, impossible or never asked; the memo of the question
(`Ask`) keeps what listing the options already resolved, and nothing is written into the state.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any, Literal

from generators.games.mission_drive.between import (
    spend_options,
    spend_refusal,
)
from generators.games.mission_drive.context import NeedChoice
from generators.games.mission_drive.facts import NEEDS_DIRECTIONS, SLOTS, Space, pair
from generators.games.mission_drive.resolve import advance, choice_needed, resolve, run
from generators.games.mission_drive.road import (
    civilian_may_move,
    civilian_moves,
    enemy_targets,
    shock_options,
)
from generators.games.mission_drive.specs import (
    BossSetupAction,
    BossTurnAction,
    BrakeAction,
    CivilianMoveAction,
    EnemyFireAction,
    FinishAction,
    LaserStrikeAction,
    MoveAction,
    ScoreAction,
    SpendAction,
    StartMissionAction,
    UseUpgradeAction,
)
from generators.games.mission_drive.state import State, Upgrade, deltas, enemies, vehicle_at, vkey
from generators.games.mission_drive.upgrades import effect_choices_refusal
from generators.rules.chance import Chance
from generators.rules.contract import Ask, Move
from generators.rules.refusals import IllegalAction

Rule = Callable[[Ask[State], Any], "str | None"]
Fire = Literal["before", "after", "both"] | None
_NO_CHANCE = Chance()  # only start_mission and boss_setup ask for chance, and neither carries choices


# --- the choices met in the middle of an action ------------------------------------------------


def _tried(ask: Ask[State], act: Any) -> str | None:
    """Why the choices written on `act` do not fit what it meets (None when they do), by resolving it."""
    try:
        hash(act)
    except TypeError:  # written by hand with lists: asked once, not kept
        return _try(ask.state, act)
    return ask.cached(("tried", act), lambda: _try(ask.state, act))


def _try(s: State, act: Any) -> str | None:
    try:
        run(s, act, _NO_CHANCE)
    except NeedChoice as need:
        return choice_needed(s, need)
    except IllegalAction as exc:
        return exc.message
    return None


def _choices_possible(s: State) -> bool:
    """Whether a hero move can meet a choice: up-link energy (only up-links give it) or an electric
    shock with something to discard (options never grow during a boss-phase action)."""
    if s.uplinks:
        return True
    if s.boss is None or not shock_options(s):
        return False
    return any(s.facts.weapons[name].outcome == "electric-shock" for name in s.boss.weapons.values())


def _steps(s: State, act: Any) -> int:
    """At most how many spaces the hero's own movement takes in this action."""
    if act.do == "move":
        card = s.slots[act.slot]
        return len(card.arrows) if card is not None else 0
    if act.do == "brake":
        return int(act.spaces)
    return 1  # an upgrade's shift: one space


def _may_meet_choice(ask: Ask[State], act: Any) -> bool:
    """Whether the hero's card (or shift) can meet a choice. In a mission only an up-link gives one, and
    the hero reaches no space farther than its steps; against the boss an electric shock can come from
    anywhere (a rocket, a drone, a boss part)."""
    s, memo = ask.state, ask.memo
    if not s.uplinks and s.boss is None:  # _choices_possible's first answer, without the memo
        return False
    possible = memo.get("choices possible")
    if possible is None:  # asked for every listed option: a plain lookup, not a call
        possible = memo["choices possible"] = _choices_possible(s)
    if not possible:
        return False
    if s.phase != "mission":
        return True
    (col, row) = s.hero
    if act.do == "move" or act.do == "brake":
        card = s.slots[act.slot]
        if card is not None:
            # The hero's own steps are all it moves in a mission; a step not taken (off the road, a truck
            # rammed) leaves it where it is, so every space it enters is the start plus some of its steps.
            reached = _reached(card.arrows, act.mirror) if act.do == "move" else _reached(("back",) * act.spaces)
            return any((u[0] - col, u[1] - row) in reached for u in s.uplinks)
    reach = _steps(s, act)
    return any(abs(u[0] - col) + abs(u[1] - row) <= reach for u in s.uplinks)


@functools.cache
def _reached(arrows: tuple[str, ...], mirrored: bool = False) -> frozenset[Space]:
    """Every sum of some of the arrows' steps (mirrored or not): where the hero can be after each of them."""
    sums: set[Space] = set()
    for d_col, d_row in deltas(arrows, mirrored):
        sums |= {(c + d_col, r + d_row) for c, r in sums} | {(d_col, d_row)}
    return frozenset(sums)


def choices_fit(ask: Ask[State], act: Any) -> str | None:
    """The choices the action meets are written, in order, each one possible, none never met."""
    # (a boss turn's hero_to is a space by its type: [column, row], two numbers, or the action is refused)
    if act.do != "boss_turn" and not (act.energy or act.discard):  # move, brake and use_upgrade carry both
        s = ask.state
        if not s.uplinks and s.boss is None:  # no choice to meet (_may_meet_choice's first answer)
            return None
        if act.do == "use_upgrade" and _effect_kind(s, act) != "shift":
            return None
        if not _may_meet_choice(ask, act):
            return None
    return _tried(ask, act)


def _with_choices(ask: Ask[State], act: Any) -> list[Any]:
    """`act` with every combination of the choices it meets (depth first, in the order they are
    offered); each complete one is kept in the question's memo for `choices_fit`."""
    s = ask.state
    try:
        run(s, act, _NO_CHANCE)
    except NeedChoice as need:
        out: list[Any] = []
        for option in need.options:
            if need.key == "hero_to":
                out += _with_choices(ask, replace(act, hero_to=option))
            else:
                out += _with_choices(ask, replace(act, **{need.key: (*getattr(act, need.key), option)}))
        return out
    except IllegalAction:
        return []
    ask.memo[("tried", act)] = None
    return [act]


# --- the hero's card ---------------------------------------------------------------------------


def _titles(s: State, effect: str) -> list[str]:
    """The printed titles of the upgrades with this effect."""
    return [s.facts.title(uid) for uid, u in s.facts.upgrades.items() if u.effect.kind == effect]


def slot_holds_card(ask: Ask[State], act: MoveAction | BrakeAction) -> str | None:
    if ask.state.slots[act.slot] is None:
        return f"the {act.slot} slot holds no hero card"
    return None


def card_playable(ask: Ask[State], act: MoveAction) -> str | None:
    """The slot holds a card; its mirror token, if used, is face up; a shot both before and after
    moving needs an upgrade that fires twice."""
    s = ask.state
    if s.slots[act.slot] is None:
        return f"the {act.slot} slot holds no hero card"
    if act.mirror and not s.mirrors[act.slot]:
        return f"the {act.slot} mirror token is already face down"
    if act.fire == "both" and "double-shot" not in s.effects:
        return ("firing both before and after moving needs an upgrade that fires twice ("
                + ", ".join(_titles(s, "double-shot")) + ") used this turn")
    return None


# Every move and brake without choices, made once: frozen, so every state's options share them.
_FIRES: tuple[Fire, ...] = (None, "before", "after")
_FIRES_BOTH: tuple[Fire, ...] = (*_FIRES, "both")
_MOVES = {(slot, mirror, fire): MoveAction("move", slot, mirror, fire)
          for slot in SLOTS for mirror in (False, True) for fire in _FIRES_BOTH}
_BRAKES = {(slot, n): BrakeAction("brake", slot, n) for slot in SLOTS for n in (0, 1, 2)}
# The same, a slot's (and mirror's) whole row at once, for a state where no choice can be met.
_MOVE_ROWS = {(slot, mirror, both): tuple(_MOVES[slot, mirror, fire] for fire in (_FIRES_BOTH if both else _FIRES))
              for slot in SLOTS for mirror in (False, True) for both in (False, True)}
# Actions with a space, made once per value and shared (frozen, equal by value): making a frozen
# dataclass costs more than the rules that judge it, and the same few spaces come up all game.
_laser_strike = functools.lru_cache(maxsize=1 << 10)(LaserStrikeAction)
_enemy_fire = functools.lru_cache(maxsize=1 << 10)(EnemyFireAction)
_civilian_move = functools.lru_cache(maxsize=1 << 12)(CivilianMoveAction)


def move_options(ask: Ask[State], player: str) -> list[MoveAction]:
    s = ask.state
    both = "double-shot" in s.effects
    out: list[MoveAction] = []
    for slot in SLOTS:
        if s.slots[slot] is None:
            continue
        for mirror in (False, True) if s.mirrors[slot] else (False,):
            if _may_meet_choice(ask, _MOVES[slot, mirror, None]):
                for fire in _FIRES_BOTH if both else _FIRES:
                    out += _with_choices(ask, _MOVES[slot, mirror, fire])
            else:
                out += _MOVE_ROWS[slot, mirror, both]
    return out


def brake_options(ask: Ask[State], player: str) -> list[BrakeAction]:
    s = ask.state
    out: list[BrakeAction] = []
    for slot in SLOTS:
        if s.slots[slot] is None:
            continue
        # ruling: mirrors-braking
        for n in (0, 1, 2):
            brake = _BRAKES[slot, n]
            if _may_meet_choice(ask, brake):
                out += _with_choices(ask, brake)
            else:
                out.append(brake)
    return out


# --- upgrades and the laser strike -------------------------------------------------------------


def _installed(s: State, uid: str) -> Upgrade | None:
    return next((u for u in s.upgrades if u.id == uid), None)


def _effect_kind(s: State, act: UseUpgradeAction) -> str | None:
    u = _installed(s, act.upgrade)
    return u.effect.kind if u is not None and u.effect is not None else None


def upgrade_installed(ask: Ask[State], act: UseUpgradeAction) -> str | None:
    s = ask.state
    u = _installed(s, act.upgrade)
    if u is None:
        name = s.facts.title(act.upgrade) if act.upgrade in s.facts.upgrades else "that upgrade"
        return f"{name} is not installed on the car"
    reason = effect_choices_refusal(s, u.effect, act)
    if reason is not None:
        return reason
    # ruling: upgrade-payment
    if act.pay == "charge" and not u.charges:
        return f"{s.facts.title(u.id)} has no charge left; discard it instead (to the box)"
    return None


def effect_has_a_target(ask: Ask[State], act: UseUpgradeAction) -> str | None:
    """What the effect acts on is there: a face-down mirror, a card to replace, a civilian free to move."""
    s = ask.state
    kind = _effect_kind(s, act)
    if kind == "mirror" and act.slot is not None and s.mirrors[act.slot]:
        return f"the {act.slot} mirror token is face up already"
    if kind == "redraw" and act.slot is not None and s.slots[act.slot] is None:
        return f"the {act.slot} slot holds no hero card to replace"
    if kind == "civilian" and act.civilian is not None and act.to is not None and not civilian_may_move(
            s, tuple(act.civilian), tuple(act.to)):
        return "that civilian cannot move there (it needs an adjacent empty space)"
    return None


def upgrade_options(ask: Ask[State], player: str) -> Iterable[UseUpgradeAction]:
    s = ask.state
    for u in s.upgrades:
        for pay in ("charge", "discard") if u.charges else ("discard",):
            yield from _upgrade_uses(ask, u, pay)


def _upgrade_uses(ask: Ask[State], u: Upgrade, pay: str) -> list[UseUpgradeAction]:
    """Every way to use `u` now: one per choice its effect offers (a direction, a slot, a civilian's
    move); a shift carries the choices it meets."""
    s = ask.state
    base = UseUpgradeAction("use_upgrade", u.id, pay)  # type: ignore[arg-type]
    kind = u.effect.kind if u.effect else None
    if kind in NEEDS_DIRECTIONS:
        assert u.effect is not None
        uses = [replace(base, direction=d) for d in u.effect.directions]
        if kind == "shift" and _may_meet_choice(ask, base):
            return [a for use in uses for a in _with_choices(ask, use)]
        return uses
    if kind == "mirror":
        return [replace(base, slot=slot) for slot in SLOTS if not s.mirrors[slot]]
    if kind == "redraw":
        return [replace(base, slot=slot) for slot in SLOTS if s.slots[slot] is not None]
    if kind == "civilian":
        return [replace(base, civilian=a, to=b) for a, b in civilian_moves(s)]
    return [base]


def laser_allowed(ask: Ask[State], act: LaserStrikeAction) -> str | None:
    s = ask.state
    if s.reward != "rookie":
        return f"the laser strike is only for the rookie mission reward level (this is {s.reward})"
    if s.laser_used:
        return "the satellite laser strike has already been used"
    victim = vehicle_at(s, pair(act.target)) if len(act.target) == 2 else None
    if victim is None or victim.side != "enemy":
        return "the laser strike destroys an enemy vehicle"
    return None


def laser_options(ask: Ask[State], player: str) -> Iterable[LaserStrikeAction]:
    s = ask.state
    if s.reward == "rookie" and not s.laser_used:
        yield from (_laser_strike("laser_strike", e.at) for e in sorted(enemies(s), key=vkey))


# --- drawn enemy and civilian cards ------------------------------------------------------------


def enemy_target(ask: Ask[State], act: EnemyFireAction) -> str | None:
    target = pair(act.target) if len(act.target) == 2 else None
    if target not in enemy_targets(ask.state):
        return f"{list(act.target)} is not a civilian or the hero next to an enemy"
    return None


def civilian_step(ask: Ask[State], act: CivilianMoveAction) -> str | None:
    if not civilian_may_move(ask.state, tuple(act.civilian), tuple(act.to)):
        return "that civilian cannot move there (it needs an adjacent empty space)"
    return None


# --- between missions and the boss -------------------------------------------------------------


def spend_allowed(ask: Ask[State], act: SpendAction) -> str | None:
    return spend_refusal(ask.state, act)


def road_fits_mission_cards(ask: Ask[State], act: StartMissionAction) -> str | None:
    s, facts = ask.state, ask.state.facts
    if (s.lanes, s.rows) != (facts.lanes, facts.rows):
        return f"mission cards fit the {facts.lanes} x {facts.rows} road only"
    return None


def _one(action: Any) -> Callable[[Ask[State], str], Iterable[Any]]:
    return lambda ask, player: (action,)


def _move(words: str, options: Callable[[Ask[State], str], Iterable[Any]], rules: tuple[Rule, ...],
          options_meet: int = 0) -> Move[State, Any]:
    """One action kind, resolved by `run` (with its events, or without for a look-ahead)."""
    return Move(words, options, rules, resolve, options_meet=options_meet, advance=advance)


MOVES: dict[str, Move[State, Any]] = {
    # options_meet: the options hold only playable cards, targets and free spaces, and a move's or brake's options
    # carry every choice it meets (`_with_choices`, whose resolutions `choices_fit` finds in the memo).
    "move": _move("move with a hero card", move_options, (card_playable, choices_fit), options_meet=2),
    "brake": _move("brake with a hero card", brake_options, (slot_holds_card, choices_fit), options_meet=2),
    "use_upgrade": _move("use an upgrade", upgrade_options, (upgrade_installed, effect_has_a_target, choices_fit)),
    "laser_strike": _move("call the satellite laser strike", laser_options, (laser_allowed,), options_meet=1),
    "enemy_fire": _move("resolve an enemy card", lambda ask, p: (
        _enemy_fire("enemy_fire", t) for t in enemy_targets(ask.state)), (enemy_target,), options_meet=1),
    "civilian_move": _move("resolve a civilian card", lambda ask, p: (
        _civilian_move("civilian_move", a, b) for a, b in civilian_moves(ask.state)), (civilian_step,),
        options_meet=1),
    "score": _move("score a mission", _one(ScoreAction("score")), ()),
    "spend": _move("spend points", lambda ask, p: spend_options(ask.state), (spend_allowed,)),
    "finish": _move("finish the upgrade step", _one(FinishAction("finish")), ()),
    "start_mission": _move("start the next mission", _one(StartMissionAction("start_mission")),
                           (road_fits_mission_cards,)),
    "boss_setup": _move("set up the boss", _one(BossSetupAction("boss_setup")), ()),
    "boss_turn": _move("play the boss's turn", lambda ask, p: _with_choices(ask, BossTurnAction("boss_turn")),
                       (choices_fit,), options_meet=1),
}
