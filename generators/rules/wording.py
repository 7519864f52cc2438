"""Small pieces of players' English every engine's words and drawings share."""

from collections.abc import Iterable
from fractions import Fraction


def counted(n: int, word: str) -> str:
    """"1 card", "2 cards", "-1 card": a count with its noun in the right number (regular plurals)."""
    return f"{n} {word}" if abs(n) == 1 else f"{n} {word}s"


def listed(names: Iterable[object], word: str = "or") -> str:
    """"A, B or C" ("and" with `word`); "none" for nothing."""
    items = [str(n) for n in names]
    if not items:
        return "none"
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} {word} {items[-1]}"


def fraction(f: Fraction) -> str:
    """An exact chance as a reader writes it: "1/6", or a whole number alone ("1")."""
    return str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"


def chance_cell(f: Fraction) -> dict[str, str]:
    """A cell of an odds table (the games' `odds`): the exact fraction and its percentage to one decimal."""
    return {"fraction": fraction(f), "percent": f"{float(f) * 100:.1f}%"}
