"""Short rule numbers for the table: "MD 2.4" is the fourth entry of Mission: Drive's second chapter.

A number is the game's code (initials of its name), the chapter's place in `game.yaml` and the
entry's place in its chapter (by `order`). They are shown on every rule, used in cross-links and
are searchable. A change (a new entry in the middle of a chapter) is visible in review: the site
tests pin every number in a golden file.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from generators.content.model import LoadedGame

_WORD = re.compile(r"[^\W\d_]+")


def _code(name: str, letters: int) -> str:
    """Initials of the first words of `name`; a one-word name gives its first letters."""
    words = _WORD.findall(name)
    if not words:
        return "G"
    if len(words) == 1:
        return words[0][: 1 + letters].upper()
    initials = "".join(w[0] for w in words[:2])
    return (initials + words[-1][1:letters]).upper() if letters > 1 else initials.upper()


def game_codes(games: Iterable[LoadedGame]) -> dict[str, str]:
    """A short code per game id, unique among the games given (longer where initials collide)."""
    games = list(games)
    out: dict[str, str] = {}
    for letters in range(1, 6):
        wanted = {g.id: _code(g.game.name, letters) for g in games if g.id not in out}
        counts: dict[str, int] = {}
        for code in [*out.values(), *wanted.values()]:
            counts[code] = counts.get(code, 0) + 1
        out.update({gid: code for gid, code in wanted.items() if counts[code] == 1})
        if len(out) == len(games):
            break
    for g in games:  # still colliding after five letters: the game id is unique by construction
        out.setdefault(g.id, g.id.upper())
    return out


def rule_numbers(game: LoadedGame, code: str) -> dict[str, str]:
    """Rule id -> "CODE chapter.entry", chapters in game.yaml order, entries in reading order."""
    out: dict[str, str] = {}
    for c_index, chapter in enumerate(game.game.chapters, 1):
        entries = [r for r in game.rules if r.meta.chapter == chapter.id]
        for e_index, entry in enumerate(entries, 1):
            out[entry.id] = f"{code} {c_index}.{e_index}"
    return out
