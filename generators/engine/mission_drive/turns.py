"""Mission: Drive: the stages of play as data (which moves each allows, how players name it) and who
acts: the one player, the hero, until the game is won or lost."""

from __future__ import annotations

from generators.engine.contract import Phase
from generators.engine.mission_drive.state import State

PLAYER = "hero"
_HERO_TURN = ("move", "brake", "use_upgrade")
# ruling: upgrade-timing
PHASES: dict[str, Phase] = {p.id: p for p in (
    Phase("hero turn", "your turn in a mission", (*_HERO_TURN, "laser_strike")),
    Phase("hero turn against the boss", "your turn against the boss", _HERO_TURN),
    Phase("enemy card", "a drawn enemy card, which must be resolved first", ("enemy_fire",)),
    Phase("civilian card", "a drawn civilian card, which must be resolved first", ("civilian_move",)),
    Phase("scoring", "the mission's scoring", ("score",)),
    Phase("upgrade step", "the upgrade step", ("spend", "finish")),
    Phase("next mission", "the setup of the next mission", ("start_mission",)),
    Phase("boss setup", "the boss setup", ("boss_setup",)),
    Phase("boss turn", "the boss's turn (it is not the hero's turn)", ("boss_turn",)),
    Phase("over", "the end of the game", ()),
)}
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
