"""The Play page's replay link (generators/play/links.py): short (a seed and each move's number, packed), the
same game when opened, and any bad or changed link answered with a plain reason and a new game, never
an error and never a word of what a seat's moves were (its hand) in the reason."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from generators.play.links import MOST_CHARS, Link, LinkError, pack, unpack
from tests.play_helpers import GAMES, finished, played, start


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_game_going_on_has_no_link_to_read_its_shuffles_from(game_id: str) -> None:
    """A link holds the seed, and the seed every face-down order: a game not over has none to read
    (it resumes from the browser's save); once over, its link replays it."""
    for moves in (0, 3, 8):
        view = played(game_id, 9, moves)
        assert not view["over"]
        assert view["link"] == "", f"after {moves} moves the page has a link that tells the seed"
        assert "g1." not in json.dumps({k: v for k, v in view.items() if k != "saved"}), "a link elsewhere in the view"
    done = finished(game_id, 9)
    assert unpack(done["link"]).seed == 9


def test_pack_and_unpack_are_inverse() -> None:
    rng = random.Random(1)
    for _ in range(200):
        link = Link(rng.randrange(5), rng.randrange(10**12), rng.randrange(16),
                    tuple((rng.choice([0, 1, 5, 63, 64, 127, 128, 5000, rng.randrange(1 << 19)]), rng.random() < .5)
                          for _ in range(rng.randrange(40))), rng.choice(["", "boss-fight_2"]))
        assert unpack(pack(link)) == link


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_link_replays_the_same_game_and_is_short(game_id: str) -> None:
    view = finished(game_id, 7)
    moves = len(view["saved"]["moves"])
    assert moves > 10
    again = start(game_id, {"link": view["link"]})
    assert not again["notice"]
    assert again["log"] == view["log"] and again["saved"] == view["saved"] and again["link"] == view["link"]
    # Each move takes a character or two, and the link is far shorter than the game's saved JSON.
    assert len(view["link"]) <= 24 + 2 * moves, (len(view["link"]), moves)
    assert len(view["link"]) * 5 < len(json.dumps(view["saved"])), "no shorter than the save it replaces"


def _hands(view: dict[str, Any]) -> list[str]:
    """Words a reason must never hold: every choice and panel line the seat was shown."""
    return [c["words"] for c in view["choices"]] + [line for p in view["panel"] for line in p["lines"] if len(line) > 6]


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_bad_or_changed_link_says_why_and_starts_a_new_game(game_id: str) -> None:
    view = finished(game_id, 8)
    good = view["link"]
    head, moves = good.rsplit(".", 1) if good.count(".") == 4 else (good, "")
    bad = ["", "hello", "g2" + good[2:], good + ".x.y", good[:-3], head + ".!!", head + "." + "_" * 60,
           "g1.zz.1.1." + moves, "g1.0.1.zzzz." + moves, "g1.0.-1.1." + moves, "g1.0.1.1.A",
           "g1.0.1.1." + "_" * 10 + "A", "x" * (MOST_CHARS + 1), good + ".no such example", "g1.0.1.1.AA.ex",
           "g1.0." + "z" * 14 + ".1." + moves, "g1.0.1.1.%E2%82%AC", "g1.0.1.1./w==", "g1.٣.1.1." + moves]
    rng = random.Random(game_id)
    for _ in range(25):  # one character changed anywhere
        i = rng.randrange(len(good))
        bad.append(good[:i] + rng.choice("0az_-.AZ9") + good[i + 1:])
    refused = 0
    for link in bad:
        got = start(game_id, {"link": link})
        if got["notice"]:
            refused += 1
            assert got["notice"].startswith("This link could not be replayed: ") and "Traceback" not in got["notice"]
            assert not [w for w in _hands(view) if w in got["notice"]], f"{link!r}: the reason tells moves"
            assert len(got["saved"]["moves"]) <= 1, "a refused link starts a new game"
        else:  # a change that still reads as a game replays as one, from the start
            assert got["over"] or got["choices"] or got["computer_to_act"], f"{link!r}: a game stuck"
    assert refused >= 19, "the links made bad on purpose are refused"


def test_unpack_names_what_is_wrong() -> None:
    with pytest.raises(LinkError, match="not a link to a game"):
        unpack("https://example.org/")
    with pytest.raises(LinkError, match="seed is not a number"):
        unpack("g1.0.-5.1.AA")
    with pytest.raises(LinkError, match="last move is cut short"):
        unpack("g1.0.1.1.gA")
    with pytest.raises(LinkError, match="longer than any game"):
        unpack("g1." + "A" * MOST_CHARS)


def test_an_old_long_link_or_save_that_does_not_replay_starts_a_new_game() -> None:
    game_id = "thunder-road-ignition"
    view = played(game_id, 9, 12)
    saved = view["saved"]
    assert start(game_id, saved)["saved"] == saved, "a good save resumes"
    broken = {**saved, "moves": [*saved["moves"][:3], {"action": {"do": "nonsense"}, "by": "you"}]}
    got = start(game_id, broken)
    assert got["notice"] and "could not be replayed" in got["notice"] and len(got["saved"]["moves"]) <= 1
    assert not [w for w in _hands(view) if w in got["notice"]]
