"""Thunder Road: Ignition: exact odds tables for the site, enumerating the dice faces read from
content through the same rule functions the rules resolve rolls with."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from generators.games.thunder_road_ignition.facts import DIRECTIONS, SIZES, Kit, read_kit, shot_hits, slam_mover
from generators.rules.facts import GameContent
from generators.rules.wording import chance_cell

ROWS_GAINED = {"front-left": 1, "front": 1, "front-right": 1, "back-left": -1, "back": -1, "back-right": -1}
# The stunt, slam and shooting dice faces are ours (the rulebook prints only the direction die's).
HOUSE_FACES = "house die faces"




def _table(table_id: str, title: str, rule: str, columns: Sequence[str],
           rows: Sequence[tuple[str, Sequence[Fraction]]], means: Sequence[Fraction] | None = None) -> dict[str, Any]:
    return {"id": table_id, "title": title, "rule": rule, "columns": list(columns),
            "rows": [[label, *(chance_cell(p) for p in probs)] for label, probs in rows],
            "means": None if means is None else [f"{float(m):.2f}" for m in means]}


def _spread(faces: Sequence[Any]) -> dict[Any, Fraction]:
    """How likely each face value is (faces may repeat)."""
    counts = Counter(faces)
    return {v: Fraction(n, len(faces)) for v, n in counts.items()}


def _shot_table(kit: Kit) -> dict[str, Any]:
    rows = []
    for size in SIZES:
        hit = sum((p for face, p in _spread(kit.shooting).items() if shot_hits(face, size)), Fraction(0))
        rows.append((f"{size} car", (hit, 1 - hit)))
    return _table("shot-hits", f"A shot (or missile) hits, by the target's size ({HOUSE_FACES})", "shoot",
                  ["target", "hit", "miss"], rows)


def _slam_table(kit: Kit) -> dict[str, Any]:
    """Which car moves: no reroll; and when the owner of the larger car rerolls whenever the first roll
    would move their own car (the second roll stands)."""
    faces = _spread(kit.slam)

    def moves(larger: str | None) -> dict[str, Fraction]:
        out = {"top": Fraction(0), "bottom": Fraction(0)}
        for first, p in faces.items():
            mover = slam_mover(first, "top", "bottom")
            if larger is not None and mover == larger:
                for second, q in faces.items():
                    out[slam_mover(second, "top", "bottom")] += p * q
            else:
                out[mover] += p
        return out

    rows = [("same size: no reroll", moves(None)), ("larger car on top, rerolled when it would move", moves("top")),
            ("larger car underneath, rerolled when it would move", moves("bottom"))]
    return _table("slam-mover", f"Which car moves in a slam ({HOUSE_FACES})", "slam-reroll",
                  ["slam", "top car moves", "bottom car moves"],
                  [(label, (m["top"], m["bottom"])) for label, m in rows])


def _direction_table(kit: Kit) -> dict[str, Any]:
    faces = _spread(kit.direction)
    return _table("direction", "The direction die: each of the six directions", "direction-die",
                  ["direction", "chance"], [(d, (faces.get(d, Fraction(0)),)) for d in DIRECTIONS])


def _jump_tables(kit: Kit) -> list[dict[str, Any]]:
    stunt = _spread(kit.stunt)
    distance = [(f"{n} space{'s' if n > 1 else ''}", (p,)) for n, p in sorted(stunt.items())]
    mean = sum((n * p for n, p in stunt.items()), Fraction(0))
    ramp = _table("omni-ramp-distance", f"How far an omni-ramp throws a car ({HOUSE_FACES})", "omni-ramp",
                  ["distance", "chance"], distance, [mean])
    slip = _table("slipstream-distance", f"How far Slipstream moves a car ({HOUSE_FACES})", "slipstream",
                  ["spaces", "chance"], distance, [mean])
    gained: dict[int, Fraction] = {}
    for n, p in stunt.items():
        for d, q in _spread(kit.direction).items():
            gained[n * ROWS_GAINED[d]] = gained.get(n * ROWS_GAINED[d], Fraction(0)) + p * q
    blast = _table("blast-off-rows", f"Blast Off: rows gained (minus: lost) on an open road ({HOUSE_FACES})",
                   "blast-off", ["rows", "chance"], [(f"{k:+d}", (v,)) for k, v in sorted(gained.items())],
                   [sum((k * v for k, v in gained.items()), Fraction(0))])
    return [slip, ramp, blast]


def _dazed_table(kit: Kit) -> dict[str, Any]:
    """Net rows after Dazed on an open road with no other car: the stunt die's moves, each one row
    forward or back as the direction die says."""
    step = _spread([ROWS_GAINED[d] for d in kit.direction])
    out: dict[int, Fraction] = {}
    for n, p in _spread(kit.stunt).items():
        paths: dict[int, Fraction] = {0: Fraction(1)}
        for _ in range(n):
            nxt: dict[int, Fraction] = {}
            for at, q in paths.items():
                for delta, r in step.items():
                    nxt[at + delta] = nxt.get(at + delta, Fraction(0)) + q * r
            paths = nxt
        for at, q in paths.items():
            out[at] = out.get(at, Fraction(0)) + p * q
    return _table("dazed-rows", f"Dazed: where the car ends up, in rows, on an open road ({HOUSE_FACES})", "dazed",
                  ["rows", "chance"], [(f"{k:+d}", (v,)) for k, v in sorted(out.items())],
                  [sum((k * v for k, v in out.items()), Fraction(0))])


def _dazed_length_table(kit: Kit) -> dict[str, Any]:
    stunt = _spread(kit.stunt)
    return _table("dazed-moves", f"Dazed: how many moves at most ({HOUSE_FACES})", "dazed",
                  ["moves", "chance"], [(str(n), (p,)) for n, p in sorted(stunt.items())])


def odds_tables(kit: Kit) -> list[dict[str, Any]]:
    """Exact tables, enumerating the dice faces read from content through the engine's own rules."""
    return [_shot_table(kit), _slam_table(kit), _direction_table(kit), *_jump_tables(kit), _dazed_length_table(kit),
            _dazed_table(kit)]


def odds_for(content: GameContent) -> list[dict[str, Any]]:
    return odds_tables(content.view(read_kit))
