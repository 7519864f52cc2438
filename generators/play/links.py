"""A game as a short link: its setting, seed, the seats people play and each move as its number among
the legal moves at that point, packed densely (`pack`), and read back with a plain reason for any link
that is not one (`unpack`), never a traceback.

    g1.<setting>.<seed>.<people>.<moves>[.<example>]

`setting` (its place among the game's settings), `seed` and `people` (a bit per seat, in the order the
seats first act) are base 36; `moves` is base64url of one varint per move: the move's number times two,
plus one where a person took it (undo goes back to a person's decision). A game of 300 moves with
under 64 choices a move takes about 400 characters. `example` is the worked example the game began
from ("play from here"). Nothing here knows a game: the session turns numbers into moves
(`Session.play_numbers`).
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Sequence
from dataclasses import dataclass

PREFIX = "g1"
MOST_CHARS = 40_000  # a longer link is refused before it is read (a game of thousands of moves fits)
MOST_MOVES = 20_000
MOST_NUMBER = 1 << 20  # no position offers a million moves
_BASE36 = re.compile(r"[0-9a-z]{1,13}")
_EXAMPLE = re.compile(r"[A-Za-z0-9_-]{1,200}")


class LinkError(ValueError):
    """A link that does not hold a game this page can replay: the reason, in players' words."""


@dataclass(frozen=True)
class Link:
    setting: int  # the setting's place in the game's list
    seed: int
    people: int  # bit i: the i-th seat (in first-acting order) is played by a person
    moves: tuple[tuple[int, bool], ...]  # (number among the legal moves, taken by a person)
    example: str = ""


def _b36(n: int) -> str:
    digits = ""
    while True:
        n, d = divmod(n, 36)
        digits = "0123456789abcdefghijklmnopqrstuvwxyz"[d] + digits
        if not n:
            return digits


def pack(link: Link) -> str:
    data = bytearray()
    for number, person in link.moves:
        value = number * 2 + person
        while value >= 0x80:
            data.append(value & 0x7F | 0x80)
            value >>= 7
        data.append(value)
    parts = [PREFIX, _b36(link.setting), _b36(link.seed), _b36(link.people),
             base64.urlsafe_b64encode(bytes(data)).decode().rstrip("=")]
    return ".".join(parts + ([link.example] if link.example else []))


def unpack(text: str) -> Link:
    """The link `pack` wrote; LinkError saying what is wrong with any other text."""
    text = text.strip()
    if len(text) > MOST_CHARS:
        raise LinkError(f"the link is longer than any game's ({len(text):,} characters)")
    parts = text.split(".")
    if not parts or parts[0] != PREFIX or len(parts) not in (5, 6):
        raise LinkError("this is not a link to a game of this site (it may have been cut short or changed)")
    numbers = []
    for name, part in zip(("setting", "seed", "seats played"), parts[1:4], strict=True):
        if not _BASE36.fullmatch(part):
            raise LinkError(f"the link's {name} is not a number")
        numbers.append(int(part, 36))
    example = parts[5] if len(parts) == 6 else ""
    if example and not _EXAMPLE.fullmatch(example):
        raise LinkError("the link names a worked example no page has")
    return Link(numbers[0], numbers[1], numbers[2], _moves(parts[4]), example)


def _moves(part: str) -> tuple[tuple[int, bool], ...]:
    if not re.fullmatch(r"[A-Za-z0-9_-]*", part):
        raise LinkError("the link's moves are not written as a link writes them")
    try:
        data = base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))
    except (binascii.Error, ValueError):
        raise LinkError("the link's moves are cut short") from None
    out: list[tuple[int, bool]] = []
    value = shift = 0
    for byte in data:
        value |= (byte & 0x7F) << shift
        shift += 7
        if value >= 2 * MOST_NUMBER:
            raise LinkError(f"move {len(out) + 1} of the link is not one a game offers")
        if not byte & 0x80:
            out.append((value >> 1, bool(value & 1)))
            value = shift = 0
            if len(out) > MOST_MOVES:
                raise LinkError(f"the link holds more than {MOST_MOVES:,} moves")
    if shift:
        raise LinkError("the link's last move is cut short")
    return tuple(out)


def people_of(mask: int, seats: Sequence[str]) -> frozenset[str]:
    if mask >> len(seats):
        raise LinkError(f"the link names a seat this game does not have (it has {len(seats)})")
    return frozenset(s for i, s in enumerate(seats) if mask >> i & 1)


def mask_of(people: frozenset[str], seats: Sequence[str]) -> int:
    return sum(1 << i for i, s in enumerate(seats) if s in people)
