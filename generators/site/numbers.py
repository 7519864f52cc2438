"""Short rule numbers for the table: "MD 2.4" is the fourth entry of Mission: Drive's second chapter.

A number is the game's code (declared in its game.yaml), the chapter's place in `game.yaml` and the
entry's place in its chapter (by `order`). They are shown on every rule, used in cross-links and
are searchable. A change (a new entry in the middle of a chapter) is visible in review: the site
tests pin every number in a golden file.
"""

from __future__ import annotations

from collections.abc import Iterable

from generators.content.model import LoadedGame


def game_codes(games: Iterable[LoadedGame]) -> dict[str, str]:
    """Each game's code, as its game.yaml declares it (unique: the loader checks), so adding a game
    never renumbers another's rules."""
    return {g.id: g.game.code for g in games}


def rule_numbers(game: LoadedGame, code: str) -> dict[str, str]:
    """Rule id -> "CODE chapter.entry", chapters in game.yaml order, entries in reading order."""
    out: dict[str, str] = {}
    for c_index, chapter in enumerate(game.game.chapters, 1):
        entries = [r for r in game.rules if r.meta.chapter == chapter.id]
        for e_index, entry in enumerate(entries, 1):
            out[entry.id] = f"{code} {c_index}.{e_index}"
    return out
