"""Mission: Drive: the stages of play as data (which moves each allows, how players name it) and who
acts: the one player, the hero, until the game is won or lost."""

from __future__ import annotations

from collections.abc import Callable

from generators.games.mission_drive.state import State
from generators.rules.contract import Phase

PLAYER = "hero"
_HERO_TURN = ("move", "brake", "use_upgrade")
# ruling: upgrade-timing
PHASES: dict[str, Phase] = {p.id: p for p in (
    Phase("hero turn", "your turn in a mission", (*_HERO_TURN, "laser_strike")),
    Phase("hero turn against the boss", "your turn against the boss", _HERO_TURN),
    Phase("enemy card", "a drawn enemy card", ("enemy_fire",),
          rule="a drawn enemy card is resolved before anything else is done (Enemy Card)"),
    Phase("civilian card", "a drawn civilian card", ("civilian_move",),
          rule="a drawn civilian card is resolved before anything else is done (Civilian Card)"),
    Phase("scoring", "the mission's scoring", ("score",)),
    Phase("upgrade step", "the upgrade step", ("spend", "finish")),
    Phase("next mission", "the setup of the next mission", ("start_mission",)),
    Phase("boss setup", "the boss setup", ("boss_setup",)),
    Phase("boss turn", "the boss's turn (it is not the hero's turn)", ("boss_turn",)),
    Phase("over", "the end of the game", ()),
)}


def _score_moment(s: State) -> str:
    rule = "a mission is scored when it is accomplished: every enemy vehicle destroyed (Mission Scoring)"
    enemies = sum(v.side == "enemy" for v in s.vehicles)
    return f"enemies remain ({enemies} on the road): {rule}" if s.phase == "mission" and enemies else rule


# When each move is taken, by the rule that says so: the refusal of a move out of its moment.
MOMENTS: dict[str, str | Callable[[State], str]] = {
    "move": "a hero card moves the hero in your turn, in a mission or against the boss (Moving the Hero "
            "Vehicle)",
    "brake": "a hero card is played to brake in your turn, in a mission or against the boss (Braking)",
    "use_upgrade": "an upgrade is used at any time during your turn (Using Upgrades)",
    "laser_strike": "the satellite laser strike is called in your turn, once, during the first three missions "
                    "of a rookie game (Satellite Laser Strike (Optional))",
    "enemy_fire": "an enemy card is resolved as it is drawn, after a hero card (Enemy Card)",
    "civilian_move": "a civilian card is resolved as it is drawn, after a hero card (Civilian Card)",
    "score": _score_moment,
    "spend": "points are spent in the upgrade step, after a mission is scored (Repairs and Upgrades)",
    "finish": "the upgrade step ends after a mission is scored, once its points are spent (Repairs and "
              "Upgrades)",
    "start_mission": "the next mission is set up after the upgrade step (Setting Up a Mission)",
    "boss_setup": "the boss is set up after the third mission's upgrade step (Setting Up the Boss)",
    "boss_turn": "the boss takes its turn after each of your turns against it (The Boss' Turn)",
}
_BOSS = {"setup": "boss setup", "boss": "boss turn", "hero": "hero turn against the boss"}
_PLAYING = (PLAYER,)


def phase_of(s: State) -> str:
    if s.game != "playing":
        return "over"
    if s.pending is not None:
        return f"{s.pending.kind} card"
    if s.phase == "mission":
        if s.mission_status == "playing":
            return "hero turn"
        return "scoring" if s.mission_status == "accomplished" and s.variant == "standard" else "over"
    if s.phase == "upgrades":
        return "upgrade step"
    if s.phase == "next-mission":
        return "next mission"
    if s.phase == "boss-setup":
        return "boss setup"
    return _BOSS.get(s.turn or "", "over")


def actors(s: State) -> tuple[str, ...]:
    return () if phase_of(s) == "over" else _PLAYING
