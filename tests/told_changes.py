"""Whether the lines of a step tell every change of a figure it makes ("Z loses 3 HP" for 20 -> 17):
the check the worked examples' steps (tests/test_example_wording.py) and the Play page's moves
(tests/test_play_browser.py) both pass."""

from __future__ import annotations

import re
from collections.abc import Mapping

from generators.rules.contract import Figure, Place

# A minus sign belongs to its number ("Health -1"); a hyphen between two numbers does not ("1-2").
NUMBER = re.compile(r"(?<![\w.#])(-?\d+|an?|one|two|three|four|five|six)(?![\w.])", re.IGNORECASE)
SPELLED = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}


def numbers_in(line: str) -> set[int]:
    """The amounts a line states: digits, and "a"/"one" … "six" spelled out ("picks a drop")."""
    return {int(n) if n.lstrip("-").isdigit() else SPELLED[n.lower()] for n in NUMBER.findall(line)}


def named_at(line: str, piece: str) -> int | None:
    """Where the line first names the piece itself ("Y loses 2 HP", not "Y's strike"), or None."""
    if not piece:
        return 0
    m = re.search(rf"(?<![\w-]){re.escape(piece)}(?![\w-]|['’]s\b)", line)
    return m.start() if m else None


def names(line: str, piece: str) -> bool:
    """The line names the piece itself ("Y loses 2 HP", not "Y's strike")."""
    return named_at(line, piece) is not None


def explains(line: str, figure: Figure, before: int | Place, after: int | Place) -> bool:
    """A line tells a change when it names the piece and either the figure with the amount or the
    new value (a count; a line that prints no amount at all may just name them), or the new place."""
    if not names(line, figure.piece):
        return False
    if isinstance(after, int) and isinstance(before, int):
        amounts = numbers_in(line)
        return figure.name.lower() in line.lower() and (not amounts or bool({after, abs(after - before)} & amounts))
    return isinstance(after, Place) and after.words.lower() in line.lower()


def added_up(lines: list[str], figure: Figure, before: int | Place, after: int | Place) -> bool:
    """Several lines naming the piece and the figure, each with the amount right before the figure or
    the piece, not before the line names the piece ("1 corpse gained", "takes a damage token", "an
    enemy car"), that add up to the change, each a gain or a loss ("loses 2 HP", then "regains 3 HP":
    12 -> 13)."""
    if not (isinstance(after, int) and isinstance(before, int)):
        return False
    words = "|".join(re.escape(w) for w in (figure.name, figure.piece) if w)
    amount = re.compile(rf"{NUMBER.pattern} (?:[\w-]+ )?(?:{words})", re.IGNORECASE)
    # An amount counts for the piece the line is about: one stated with or after the line's naming of
    # it ("an enemy car"; "P2 loses 3 HP to P1's strike (P1 is ...)" is P2's loss, though it names P1).
    amounts = [numbers_in(m.group(1)).pop() for line in lines
               if (at := named_at(line, figure.piece)) is not None and figure.name.lower() in line.lower()
               for m in [next((m for m in amount.finditer(line) if m.end() > at), None)] if m]
    sums = {0}
    for n in amounts:
        sums = {t + n for t in sums} | {t - n for t in sums}
    return len(amounts) > 1 and (after - before) in sums


def untold(before: Mapping[Figure, int | Place], after: Mapping[Figure, int | Place], lines: list[str]) -> list[str]:
    """Each figure present before and after a step that changed with no line of the step telling it."""
    return [f"{f.piece or 'the'} {f.name}: {before[f]} -> {after[f]}" for f in before
            if f in after and before[f] != after[f] and not added_up(lines, f, before[f], after[f])
            and not any(explains(line, f, before[f], after[f]) for line in lines)]
