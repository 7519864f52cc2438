"""The Play page's side of a game, run by Pyodide in a Web Worker (site/assets/play-worker.js).

Every call takes and returns JSON text, so the worker passes strings alone and the page sees only
what `Session.view` gives a person's seat: nothing a seat cannot see crosses to the page. One game
at a time lives here; its moves (a person's and the computer's) are the save, so a reload or a link
replays it exactly from its seed. The computer's randomness is its own stream, never the game's
chance, so a hint asked changes no move the computer makes.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

from generators.play.bundle import content_from_data
from generators.play.players import SearchPlayer
from generators.play.table import Entry, Session, seats_of
from generators.rules.chance import Chance
from generators.rules.contract import Game, load_engine
from generators.rules.facts import GameContent

SIMULATIONS = 400  # the most a computer move or a hint searches; the seconds cap comes first in the page
HINTS = 3  # the moves a hint shows


class Table:
    """The one game the worker holds."""

    def __init__(self, engine: Game[Any, Any], content: GameContent, session: Session) -> None:
        self.engine, self.content, self.session = engine, content, session

    def seat(self) -> str:
        """Whose view the page shows: the person to act, else the first person's seat."""
        humans = sorted(self.session.humans, key=self.session.seats.index)
        acting = [s for s in self.session.to_act() if s in self.session.humans]
        return acting[0] if acting else humans[0] if humans else self.session.seats[0]

    def view(self) -> dict[str, Any]:
        while self.session.forced():
            pass
        view = self.session.view(self.seat())
        view["computer_to_act"] = bool(self.session.to_act()) and not any(
            s in self.session.humans for s in self.session.to_act())
        view["undo"] = any(h for _, h in self.session.moves)
        view["saved"] = self.session.saved()
        return view


@dataclass
class FromSetup(Session):
    """A game that begins at a worked example's setup ("play from here") instead of the rulebook's."""

    setup: Any = None
    example: str = ""
    title: str = ""

    def _replay(self, moves: list[tuple[Any, bool]]) -> None:
        super()._replay([])  # the session's own bookkeeping; then the example's table in place of the book's
        self.chance = Chance.seeded(self.seed)
        self.state = self.engine.initial_state(self.setup, self.content)
        self.log = [Entry("", "rules", f"The table is set as in the example “{self.title}”.", ())]
        self.moves = []
        for action, human in moves:
            self._play(action, human)

    def saved(self) -> dict[str, Any]:
        return {**super().saved(), "example": self.example}


_TABLE: Table | None = None
_CONTENT: dict[str, GameContent] = {}


def settings(engine_name: str) -> str:
    """The game's settings and seats, as the page's settings form offers them."""
    engine = load_engine(engine_name)
    return json.dumps({"settings": [s.label for s in engine.simulation_setups()]})


def start(engine_name: str, content_json: str, examples_json: str, request_json: str) -> str:
    """A new game (setting, seed, humans), a saved one (with its moves) or one from a worked
    example's setup (`example`); its view."""
    global _TABLE
    request = json.loads(request_json)
    engine = load_engine(engine_name)
    if engine_name not in _CONTENT:
        _CONTENT[engine_name] = content_from_data(json.loads(content_json), engine.facts_specs)
    content = _CONTENT[engine_name]
    setups = engine.simulation_setups()
    label = request.get("setting") or setups[0].label
    if request.get("example"):
        example = json.loads(examples_json).get(request["example"])
        if example is None:
            raise ValueError(f"no worked example {request['example']!r} to play from")
        moves = [(engine.parse_action(m["action"]), m.get("by") == "you") for m in request.get("moves", [])]
        session: Session = FromSetup(engine, content, setups[0], int(request.get("seed", 1)), frozenset(), moves,
                                     setup=engine.parse_setup(example["setup"]), example=request["example"],
                                     title=example["title"])
    elif "moves" in request:
        session = Session.resume(engine, content, {**request, "game": engine.type.name, "setting": label})
    else:
        setting = next((s for s in setups if s.label == label), setups[0])
        session = Session(engine, content, setting, int(request.get("seed", 1)), frozenset())
    seats = seats_of(engine, session.state) if not session.seats else session.seats
    wanted = [s for s in request.get("humans", []) if s in seats] or seats[:1]
    session.humans = frozenset(wanted)
    _TABLE = Table(engine, content, session)
    return json.dumps(_TABLE.view(), ensure_ascii=False)


def _table() -> Table:
    if _TABLE is None:
        raise RuntimeError("no game started")
    return _TABLE


def choose(n: int) -> str:
    """The person to act takes choice `n` (numbered from 1 as the view lists them)."""
    table = _table()
    found = table.session.choices(table.seat())
    table.session.take(found[int(n) - 1], human=True)
    return json.dumps(table.view(), ensure_ascii=False)


def computer(seconds: float) -> str:
    """The computer plays one move for the seat it holds that is to act, in at most `seconds`."""
    table = _table()
    session = table.session
    actors = [s for s in session.to_act() if s not in session.humans]
    if actors:
        seat = actors[0]
        found = session.choices(seat)
        # The search weighs one action per choice; its own generator for each decision, so a replay,
        # an undo or a hint asked never changes what it plays from the same position.
        rng = random.Random(f"computer-{session.seed}-{len(session.moves)}")
        player = SearchPlayer(simulations=SIMULATIONS, seconds=float(seconds))
        best = player.choose(table.engine, session.state, seat, [c.actions[0] for c in found], rng)
        session.take(next(c for c in found if c.actions[0] == best), human=False)
    return json.dumps(table.view(), ensure_ascii=False)


def hint(seconds: float) -> str:
    """The search player's top moves for the person to act, with how often each won in its simulations."""
    table = _table()
    session = table.session
    seat = table.seat()
    if seat not in session.to_act():
        return json.dumps({"simulations": 0, "moves": []})
    legal = table.engine.legal_actions(session.state, seat)
    # Its own generator: a hint never moves the computer's stream.
    found = SearchPlayer(simulations=SIMULATIONS, seconds=float(seconds)).analyse(
        table.engine, session.state, seat, legal, random.Random(f"hint-{session.seed}-{len(session.moves)}"))
    moves = [{"words": table.engine.describe_action(m.action, session.state, table.content), "tried": m.visits,
              "won": None if m.value is None else round(100 * m.value)} for m in found.top(HINTS)]
    return json.dumps({"simulations": found.simulations, "moves": moves}, ensure_ascii=False)


def undo() -> str:
    table = _table()
    table.session.undo()
    return json.dumps(table.view(), ensure_ascii=False)
