"""Small pieces of players' English every engine's words and drawings share."""


def counted(n: int, word: str) -> str:
    """"1 card", "2 cards", "-1 card": a count with its noun in the right number (regular plurals)."""
    return f"{n} {word}" if abs(n) == 1 else f"{n} {word}s"
