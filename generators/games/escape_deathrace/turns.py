"""Escape Deathrace 2182 Micro: turns. Who acts, and the steps of play as data (the moves each allows
and how players name it); a turn's beginning and end, and what settles after every action, are in
`flow`."""

from __future__ import annotations

from generators.games.escape_deathrace.state import State
from generators.rules.contract import Phase

# ---------------------------------------------------------------------------------------------
# Who acts, and the steps of play as data

TURN_MOVES = ("draw", "hazard_attempt", "nitro_draw", "attack", "use_drop", "play_power", "trade_power",
              "end_turn", "drive", "draw_tile", "lay_tile")
MOVEMENT_MOVES = ("draw_tile", "lay_tile", "drive", "end_turn")

def _stay_on_boss_tile(s: State) -> str:
    """A car on a live boss's tile stays there (and on the final tile for good)."""
    p = s.players[s.turn.player]
    here = s.tiles[p.tile] if p.tile else None
    if here is not None and here.kind == "final-boss":
        return "once on the final boss tile a car cannot move off it (Final Boss)"
    return "a car cannot move off a boss's tile until that boss is defeated (Boss Battle)"


_OFF_THE_TILE = ("draw", "draw_tile", "lay_tile", "drive", "nitro_draw", "hazard_attempt")

PHASES: dict[str, Phase] = {p.id: p for p in (
    Phase("draft", "the weapon drop picks of Setup", ("pick_drop",),
          rule="the weapon drops are picked in Setup, before the first turn (Setup)"),
    Phase("reward", "a reward being taken (a boss's, a kill's or a card's gift)",
          ("draw_power", "collect_drop", "discard_drop"),
          rule="a reward is taken as it is won, before play goes on (Landing on Road Tiles)"),
    Phase("battle", "a battle-it-out between three or more cars", ("strike",),
          rule="a battle-it-out is fought first: each car on the tile picks one car to attack (Battle-It-Out)"),
    Phase("target", "a newcomer's arrival on the final tile", ("choose_target",),
          rule="a third or fourth car to land on the final tile once the boss is dead targets a player at once "
               "(Final Boss)"),
    Phase("boss-pending", "the start of a boss battle sequence", ("boss_battle",),
          rule="the boss battle sequence begins first, and the boss always gets first strike (Boss Battle)",
          says=dict.fromkeys(_OFF_THE_TILE, _stay_on_boss_tile)),
    Phase("drawn", "the movement: laying road tiles and driving", MOVEMENT_MOVES),
    Phase("card-move", "a card's movement", MOVEMENT_MOVES),
    Phase("turn", "a turn", TURN_MOVES),
    Phase("over", "the end of the turn, with nothing left to do but end it", ("end_turn",)),
    Phase("race-over", "the end of the race", ()),
)}

# When each move is taken, by the rule that says so: the refusal of a move out of its moment.
MOMENTS: dict[str, str] = {
    "pick_drop": "weapon drops are picked in Setup, before the first turn (Setup)",
    "draw": "the movement card is drawn once a turn, at its start (Taking a Turn)",
    "draw_tile": "road tiles are drawn one at a time after the movement draw, as many as it shows (Taking a Turn)",
    "lay_tile": "a drawn road tile is laid after the movement draw, before the car drives (Taking a Turn)",
    "drive": "a car drives after the movement draw, up to as many road tiles as it shows (Taking a Turn)",
    "nitro_draw": "a nitro-nos draw comes when a car lands on a nitro-nos tile along its arrows with an empty "
                  "space ahead (Landing on Road Tiles)",
    "hazard_attempt": "a hazard is tried by a car stopped at its start, once a turn (Hazard Road Tiles)",
    "boss_battle": "a boss battle sequence begins when a car lands on a live boss's tile, or starts its turn "
                   "there (Boss Battle)",
    "attack": "a car attacks in its boss battle sequence, or at another car on the final tile once the final "
              "boss is dead (Boss Battle)",
    "strike": "strikes are picked in a battle-it-out of three or more cars on one tile (Battle-It-Out)",
    "choose_target": "a car picks its target as it lands third or fourth on the final tile once the boss is "
                     "dead (Final Boss)",
    "use_drop": "a weapon drop is used once a turn, before or after the movement, never in the middle (Taking "
                "a Turn)",
    "play_power": "a power card is played once a turn, before or after the movement, never in the middle "
                  "(Taking a Turn)",
    "trade_power": "a power card is traded in on a turn no power card is played, before or after the movement "
                   "(Taking a Turn)",
    "draw_power": "a power card is drawn as a reward, when a boss or a car is defeated or a card gives one "
                  "(Landing on Road Tiles)",
    "collect_drop": "a used weapon drop is collected as a reward, when a boss or a car is defeated or a card "
                    "gives one (Landing on Road Tiles)",
    "discard_drop": "a weapon drop is given up when a card takes one of yours, as the card is played (Taking a "
                    "Turn)",
    "end_turn": "the turn ends once its movement is done or left out, never in its middle (Taking a Turn)",
}


def actor(s: State) -> str | None:
    """The one player whose decision the game waits for (None when the race is over)."""
    if s.ended is not None:
        return None
    if s.turn.phase == "draft":
        return s.draft[0]
    if s.rewards:
        return s.rewards[0][1]
    if s.battle is not None:
        return s.battle.queue[0][0]
    return s.turn.player


def actors(s: State) -> tuple[str, ...]:
    who = actor(s)
    return () if who is None else (who,)


def phase_of(s: State) -> str:
    t = s.turn
    if s.ended is not None:
        return "race-over"
    if t.phase == "draft":
        return "draft"
    if s.rewards:
        return "reward"
    if s.battle is not None:
        return "battle"
    if t.phase == "over":
        return "over"
    if t.choosing_target:
        return "target"
    if t.extra_move is not None:
        return "card-move"
    if t.phase in ("boss-pending", "drawn"):
        return t.phase
    return "turn"
