"""Small pieces of players' English every engine's words and drawings share."""

from collections.abc import Iterable


def counted(n: int, word: str) -> str:
    """"1 card", "2 cards", "-1 card": a count with its noun in the right number (regular plurals)."""
    return f"{n} {word}" if abs(n) == 1 else f"{n} {word}s"


def listed(names: Iterable[object], word: str = "or") -> str:
    """"A, B or C" ("and" with `word`); "none" for nothing."""
    items = [str(n) for n in names]
    if not items:
        return "none"
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} {word} {items[-1]}"
