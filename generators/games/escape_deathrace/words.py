"""Escape Deathrace 2182 Micro: actions, draws and endings in players' words (printed names, never ids)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from generators.games.escape_deathrace.facts import DIRS, STRIKE_TABLE
from generators.games.escape_deathrace.specs import Action, LayTile, UseDrop
from generators.games.escape_deathrace.state import State, Tile
from generators.rules.contract import Event, Figure, Place, Words, namer
from generators.rules.facts import GameContent


def _describe(a: Action, s: State | None = None) -> str:
    """An action in players' words: cards and tiles by their printed titles (with `s`, the position
    it is played from, a tile is named by its title and, where several share it, which one)."""
    who = a.player
    words: dict[str, Callable[[], str]] = {
        "pick_drop": lambda: f"{who} picks a {a.kind} drop",
        "draw": lambda: f"{who} draws for movement",
        "draw_tile": lambda: f"{who} draws a road tile",
        "lay_tile": lambda: f"{who} lays it {_beside(s, a)}"
                            + (f", arrows pointing {SIDE[a.arrow]}" if a.arrow else ""),
        "drive": lambda: f"{who} drives {_path_words(s, a.path)}",
        "nitro_draw": lambda: f"{who} draws a tile beyond the Nitro-Nos and moves onto it",
        "hazard_attempt": lambda: f"{who} tries to get past the hazard",
        "boss_battle": lambda: f"{who} faces the boss's first strike" + (" behind a smoke drop" if a.smoke else ""),
        "attack": lambda: f"{who} attacks " + (a.target or "the boss"),
        "strike": lambda: f"{who} strikes {a.target}",
        "choose_target": lambda: f"{who} targets {a.target}",
        "use_drop": lambda: f"{who} uses {'two ' if a.count == 2 else 'a '}{a.kind} drop{'s' if a.count == 2 else ''}"
                            + _drop_where(s, a),
        "play_power": lambda: f"{who} plays a power card: {card_title(s, a.card)}"
                              + (f" at {a.target}" if a.target else "")
                              + (f" on the {a.kind} on {tile_words(s, a.tile)}" if a.tile else ""),
        "trade_power": lambda: f"{who} trades in {card_title(s, a.card)} for the top card of the {_PILE[a.take]}",
        "draw_power": lambda: f"{who} draws a power card from the {_PILE[a.take]}",
        "collect_drop": lambda: f"{who} takes a used {a.kind} drop",
        "discard_drop": lambda: f"{who} gives up a {a.kind} drop",
        "end_turn": lambda: f"{who} ends the turn",
    }
    return words[a.do]()


SIDE = {"N": "north", "E": "east", "S": "south", "W": "west"}
_PILE = {"deck": "power deck", "discard": "discard pile"}
_KIND_WORDS = {"move": "moving", "draw": "drawing for movement", "drive": "driving", "end_turn": "ending the turn",
               "boss_battle": "the boss battle", "hazard_attempt": "the hazard attempt"}


def card_title(s: State | None, face: str) -> str:
    return s.box.titles.get(face, face) if s is not None else face


def _tile_title(s: State, tile: Tile) -> str:
    face = s.box.tiles.get(tile.face)
    return face.title if face is not None else tile.kind.replace("-", " ").capitalize()


def tile_words(s: State | None, tid: str | None) -> str:
    """A tile as players point at it: "the Event tile", or "the 2nd Straight Road tile" (in the order
    the road was laid) where several share the title."""
    tile = s.tiles.get(tid or "") if s is not None else None
    if s is None or tile is None:
        return "that tile"
    which = tile_ordinal(s, tile)
    return f"the {which + ' ' if which else ''}{_tile_title(s, tile)} tile"


def tile_ordinal(s: State, tile: Tile) -> str:
    """"2nd" for the second tile laid with this title; nothing when the title is the only one."""
    title = _tile_title(s, tile)
    same = [t for t in s.tiles.values() if _tile_title(s, t) == title]
    return _ordinal(same.index(tile) + 1) if len(same) > 1 else ""


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _path_words(s: State | None, path: Sequence[str]) -> str:
    steps = len(path)
    where = " → ".join(tile_words(s, t) for t in path)
    return f"{steps} tile{'s' if steps != 1 else ''}: {where}" if steps else "nowhere"


def _beside(s: State | None, a: LayTile) -> str:
    """Where a laid tile goes: on which side of the tile it joins."""
    x, y = a.at[0], a.at[1]
    near = [a.source] if a.source else []
    if s is not None:
        near += [s.spots[(x - dx, y - dy)] for dx, dy in DIRS.values() if (x - dx, y - dy) in s.spots]
    for tid in near:
        tile = s.tiles.get(tid) if s is not None else None
        if tile is not None:
            side = next((SIDE[d] for d, v in DIRS.items() if v == (x - tile.x, y - tile.y)), None)
            if side:
                return f"{side} of {tile_words(s, tid)}"
    return "at the end of the road"


def _drop_where(s: State | None, a: UseDrop) -> str:
    if a.tiles:
        return f" on {' and '.join(tile_words(s, t) for t in a.tiles)}"
    if a.tile:
        return f" on {tile_words(s, a.tile)}"
    if a.targets:
        return f" at {' and '.join(a.targets)}"
    if a.target:
        return f" at {a.target}"
    return ""


def describe_end(s: State) -> str:
    """Each car's HP and tile, each hurt boss's HP, and who escaped, in players' words."""
    parts = [f"{p.name} has {p.hp} HP on {tile_words(s, p.tile)}" if p.alive else f"{p.name} is out of the race"
             for p in (s.players[n] for n in s.order)]
    for boss, hp in s.boss_hp.items():
        face = s.box.tiles.get(boss)
        if face is not None and face.hp is not None and hp < face.hp:
            parts.append(f"{face.title} has {hp} HP left" if hp else f"{face.title} is defeated")
    if s.winner is not None:
        parts.append(f"{s.winner} escapes and wins")
    elif s.ended == "all-eliminated":
        parts.append("every car is destroyed: nobody wins")
    return "; ".join(parts) + "."


# A counter attack is told as a plain strike: in a battle of three cars the third strikes a car
# that never struck it, and "striking back" said otherwise.
_STRIKES = {"battle-it-out": "{a}'s strike at {b} (battle it out)", "counter": "{a}'s strike at {b}",
            "drive-by": "{a}'s drive-by at {b}", "boss battle": "{a}'s strike at {b}",
            "final tile": "{a}'s strike at {b} on the final tile"}
_DRAWS = {"movement": "for movement", "movement (event card)": "for the event card's movement",
          "landmine": "for the landmine", "hazard": "to get past the hazard"}


def describe_random(label: str, value: Any, names: Callable[[str], str]) -> str:
    """A labelled draw in players' words: D4 cards drawn for what, cards and tiles by their titles."""
    if isinstance(value, int) and not isinstance(value, bool):
        if "->" in label:
            context, pair = label.rsplit(" ", 1)
            a, b = pair.split("->", 1)
            purpose = "for " + _STRIKES.get(context, context + " {a} at {b}").format(a=a, b=names(b))
        else:
            purpose = _DRAWS.get(label, f"for {label}")
        return f"draws a {value} from the D4 cards {purpose}"
    if isinstance(value, (list, tuple)):
        return f"{label}, in order: {', '.join(names(str(v)) for v in value)}"
    if label == "first player":
        return f"{value} goes first"
    return {"power card": "draws {} from the power deck", "event card": "draws the event card {}",
            "road tile": "draws the road tile {}"}.get(label, label + ": {}").format(names(str(value)))


# --- what the rules did on their own inside a step ---------------------------------------------------

# Whose harm it is, by the damage's source: "{by}" is who dealt it (a car, or a boss by its title).
_HARM = {"battle-it-out": "{by}'s strike", "drive-by": "{by}'s strike in the drive-by", "strike": "{by}'s strike",
         "counter": "{by}'s strike back", "car-bomb": "{by}'s car bomb", "fire-tile": "the Fire tile",
         "fire-drop": "the fire drop", "landmine": "the landmine", "first-strike": "{by}'s first strike",
         "event": "the event card", "power-card": "{by}'s power card", "hazard": "the hazard",
         "gunfire": "{by}'s gunfire drop"}


def _who(s: State | None, name: str, names: Callable[[str], str]) -> str:
    """A car by its player's name, anything else (a boss) by its printed title."""
    return name if s is not None and name in s.players else names(name)


def _harm(d: dict[str, Any], s: State | None, names: Callable[[str], str]) -> str:
    """The harm by its source, and whose it is where the rules say ("X's gunfire", "a drive-by")."""
    words = _HARM.get(str(d["source"]), "{by}'s attack")
    by = d.get("by")
    return words.format(by=_who(s, str(by), names)) if by else words.replace("{by}'s ", "a ")


def _why_less_or_more(d: dict[str, Any], s: State | None, names: Callable[[str], str]) -> str:
    """The abilities that changed a hit: the striker's extra damage, the target's toughness."""
    if s is None:
        return ""
    why = []
    by, target = s.players.get(str(d.get("by"))), s.players.get(str(d["target"]))
    # (a battle-it-out strike adds one only as a strike back: the event does not say which it was)
    if by is not None and "extra-damage" in by.abilities and d["source"] in ("gunfire", "drive-by", "strike",
                                                                               "first-strike"):
        why.append(f"{by.name} is {names(by.character)}: one more")
    if target is not None and "tough" in target.abilities:
        why.append(f"{target.name} is {names(target.character)}: one less")
    return f" ({'; '.join(why)})" if why else ""


def describe_event(e: Event, s: State | None, content: GameContent | None) -> str | None:
    """What the rules did on their own, where it changes a figure the reader follows or explains why
    one did not change: damage (with the abilities that changed it), damage an ability prevents, a
    miss, a fight the tile or smoke prevents, a first strike that misses, a strike back, a boss hurt
    and defeated, a car out of the race and its car bomb, a heal, a hazard passed, cards drawn."""
    names = namer(content)
    d = e.data
    if e.kind == "damage":
        return f"{d['target']} loses {d['amount']} HP to {_harm(d, s, names)}{_why_less_or_more(d, s, names)}"
    if e.kind == "damage-prevented":
        car = s.players.get(str(d["target"])) if s is not None else None
        if car is None:
            return f"{d['target']} takes no damage from {_harm(d, s, names)}"
        if "tough" in car.abilities and d.get("amount") == 1:
            return f"{car.name} takes no damage from {_harm(d, s, names)} ({car.name} is {names(car.character)}: " \
                   "one less than 1)"
        return f"{car.name} ({names(car.character)}) takes no damage from {_harm(d, s, names)}"
    if e.kind == "strike" and STRIKE_TABLE[int(d["roll"])] == 0:
        return f"{_who(s, d['by'], names)}'s strike at {_who(s, d['target'], names)} misses"
    if e.kind == "boss-damage" and d["amount"]:
        by = f" to {d['by']}'s {_BOSS_HARM.get(str(d['source']), str(d['source']))}" if d.get("by") else ""
        return f"{names(str(d['boss']))} loses {d['amount']} HP{by}"
    if e.kind == "boss-defeated":
        return f"{names(str(d['boss']))} is defeated"
    if e.kind == "eliminated":
        return f"{d['player']} is out of the race"
    if e.kind == "car-bomb":
        return f"{d['player']}'s car bomb goes off"
    if e.kind == "healed":
        return f"{d['player']} regains {d['amount']} HP"
    if e.kind == "hazard" and d["result"] == "pass" and s is not None:
        car = s.players[str(d["player"])]
        onto = s.tiles.get(car.tile or "")
        return f"{car.name} gets past the hazard onto the {_tile_title(s, onto)} tile" if onto else None
    if e.kind == "tile-drawn" and s is not None and s.stack_known:  # from an unknown stack, its draw tells it
        face = s.box.tiles.get(str(d["face"]))
        return f"{d['player']} draws the road tile {face.title if face else names(str(d['face']))}"
    if e.kind in ("battle-it-out-prevented", "drive-by-prevented"):
        what = "no battle it out" if e.kind == "battle-it-out-prevented" else f"no drive-by for {d['by']}"
        return f"{what}: {_PEACEFUL.get(str(d['reason']), str(d['reason']))}"
    if e.kind == "first-strike-cancelled":
        car = s.players.get(str(d["player"])) if s is not None else None
        why = "smoke hides it" if d["reason"] == "smoke" else \
            f"{car.name} is {names(car.character)}" if car is not None else "an ability"
        return f"the first strike at {d['player']} misses: {why}"
    if e.kind == "counter-attack":
        return f"{d['by']} strikes back at {d['target']}"
    if e.kind == "power-card-drawn":
        return f"{d['player']} draws a power card from the {_PILE[str(d['from'])]}"
    return None


_PEACEFUL = {"start tile": "nobody fights on the Start tile", "hazard tile": "nobody fights on a Hazard tile",
             "smoke": "smoke covers the tile"}
_BOSS_HARM = {"strike": "strike", "power-card": "power card", "car-bomb": "car bomb", "gunfire": "gunfire drop",
              "landmine": "landmine drop", "fire": "fire drop"}


def figures(s: State, content: GameContent | None) -> dict[Figure, int | Place]:
    """Each car's HP, drops and power cards held and place; each boss's HP."""
    names = namer(content)
    out: dict[Figure, int | Place] = {}
    for p in s.players.values():
        out[Figure(p.name, "HP")] = p.hp
        out[Figure(p.name, "drop")] = sum(p.drops.values())
        out[Figure(p.name, "power card")] = len(p.power)
        tile = s.tiles.get(p.tile or "")
        out[Figure(p.name, "place")] = Place(p.tile or "", _tile_title(s, tile) if tile else "out of the race")
    for boss, hp in s.boss_hp.items():
        out[Figure(names(boss), "HP")] = hp
    return out


WORDS: Words[State, Action] = Words(
    action=lambda a, s, content: _describe(a, s),
    random=lambda label, value, content: describe_random(label, value, namer(content)),
    end=lambda s, content: describe_end(s), event=describe_event, figures=figures)
