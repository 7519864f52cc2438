"""Mission: Drive: between missions. Mission scoring, the upgrade step (what points can buy, why a
purchase is refused) and the start of the next stage."""

from __future__ import annotations

from generators.games.mission_drive.context import Ctx
from generators.games.mission_drive.facts import LASER_PENALTY, REWARD_POINTS, START_FORWARD_LIMIT
from generators.games.mission_drive.flow import settle
from generators.games.mission_drive.road import upgrade_by_id
from generators.games.mission_drive.setup import setup_mission
from generators.games.mission_drive.specs import FinishAction, ScoreAction, SpendAction, StartMissionAction
from generators.games.mission_drive.state import State

# --- scoring, the upgrade step and the next stage ----------------------------------------------


def do_score(ctx: Ctx, act: ScoreAction) -> None:
    """Mission Scoring: reward level points minus one per civilian destroyed (by anyone)."""
    s = ctx.s
    civilians = sum(1 for d in s.destroyed if d.side == "civilian")
    # ruling: negative-score
    s.score = max(0, REWARD_POINTS[s.reward] - civilians)
    # ruling: laser-strike-penalty
    penalty = LASER_PENALTY if s.laser_used else 0
    s.points = max(0, s.score - penalty)
    s.phase = "upgrades"
    s.missions_accomplished += 1
    s.total_score += s.score
    ctx.event("scored", reward=s.reward, civilians_destroyed=civilians, score=s.score, laser_penalty=penalty,
              points=s.points)


def spend_options(s: State) -> list[SpendAction]:
    """Repairs and Upgrades: what the points left can buy now, each as often as it can be bought."""
    out: list[SpendAction] = []

    def add(buy: str, most: int, upgrade: str | None = None) -> None:
        out.extend(SpendAction("spend", buy, upgrade, n) for n in range(1, most + 1))  # type: ignore[arg-type]

    add("health", min(s.points, s.max_health - s.health))
    for u in s.offer:
        if u.cost <= s.points:
            add("install", 1, u.id)
    for u in s.upgrades:
        add("charge", min(s.points, u.charge_spaces - u.charges), u.id)
    if s.variant == "standard" and s.mission == 3:
        add("start_forward", min(s.points, START_FORWARD_LIMIT - s.start_forward))
    return out


def spend_refusal(s: State, act: SpendAction) -> str | None:
    """The Repairs and Upgrades rule a purchase (`times` over) breaks, in players' words; None if none."""
    n, points = act.times, s.points
    left = f"{points} point{'s' if points != 1 else ''} left"
    if points <= 0:
        return "no points are left to spend in this upgrade step"
    name = s.facts.title(act.upgrade) if act.upgrade is not None and act.upgrade in s.facts.upgrades else "that upgrade"
    if act.buy == "health":
        room = s.max_health - s.health
        if room <= 0:
            return f"the car is already at its full health of {s.max_health}"
        if n > room:
            return f"the car can gain only {room} more health (its full health is {s.max_health})"
    elif act.buy == "install":
        offered = next((u for u in s.offer if u.id == act.upgrade), None)
        if offered is None:
            return f"{name} is not among the upgrade cards on offer"
        if n > 1:
            return f"{name} is installed once"
        if offered.cost > points:
            return f"{name} costs {offered.cost} points and only {left}"
        return None
    elif act.buy == "charge":
        installed = next((u for u in s.upgrades if u.id == act.upgrade), None)
        if installed is None:
            return f"{name} is not installed on the car, so it cannot be charged"
        free = installed.charge_spaces - installed.charges
        if free <= 0:
            return f"{name} has no empty charge space (it holds {installed.charges} of {installed.charge_spaces})"
        if n > free:
            return f"{name} has only {free} empty charge space{'s' if free != 1 else ''}"
    else:
        if not (s.variant == "standard" and s.mission == 3):
            return "a head start is bought only in the upgrade step after the third mission (standard game)"
        room = START_FORWARD_LIMIT - s.start_forward
        if n > room:
            return f"the head start is at most {START_FORWARD_LIMIT} spaces"
    if n > points:
        bought = {"health": "health", "charge": "charges", "start_forward": "spaces of head start"}[act.buy]
        return f"{n} {bought} cost {n} points and only {left}"
    return None


def do_spend(ctx: Ctx, act: SpendAction) -> None:
    for _ in range(act.times):
        _spend_once(ctx, act)


def _spend_once(ctx: Ctx, act: SpendAction) -> None:
    s = ctx.s
    if act.buy == "health":
        s.health += 1
        cost = 1
    elif act.buy == "install":
        upgrade = next(u for u in s.offer if u.id == act.upgrade)
        i = s.offer.index(upgrade)
        s.offer = s.offer[:i] + s.offer[i + 1:]  # a new list: the state before shares it
        upgrade = upgrade.copy()  # the offer's is shared with the state before
        upgrade.charges = 0  # an installed upgrade comes with no charges
        s.upgrades.append(upgrade)
        cost = upgrade.cost
    elif act.buy == "charge":
        ctx.own(s.upgrades, upgrade_by_id(s, act.upgrade or "")).charges += 1
        cost = 1
    else:
        s.start_forward += 1
        cost = 1
    s.points -= cost
    ctx.event("points_spent", buy=act.buy, upgrade=act.upgrade, cost=cost, points_left=s.points)


def do_finish(ctx: Ctx, act: FinishAction) -> None:
    """End the upgrade step: unspent points are lost; the game moves on."""
    s = ctx.s
    s.points_lost, s.points = s.points, 0
    s.effects, s.shield = [], 0  # nothing an upgrade did lasts past the mission it was used in
    ctx.event("points_lost", points=s.points_lost)
    if s.variant == "short":
        s.phase, s.mission_status = "mission", "playing"  # the short game's one mission starts now
        settle(s)
    elif s.mission < 3:
        s.phase, s.mission = "next-mission", s.mission + 1
    else:
        # The boss board starts empty; the hero starts forward by the spaces bought (Board Setup).
        s.phase, s.vehicles, s.uplinks, s.mission_status = "boss-setup", [], [], None
        # ruling: head-start-position
        s.hero = (s.lanes // 2, s.start_forward)
        ctx.event("boss_board_start", hero=s.hero)


def do_start_mission(ctx: Ctx, act: StartMissionAction) -> None:
    setup_mission(ctx)
