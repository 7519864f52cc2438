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

from generators.build_system.errors import ContentError
from generators.play.bundle import content_from_data
from generators.play.links import LinkError, people_of, unpack
from generators.play.players import SearchPlayer
from generators.play.table import Entry, Session, leaves, seats_of
from generators.rules.chance import Chance
from generators.rules.contract import Game, load_engine
from generators.rules.facts import GameContent
from generators.rules.refusals import SetupError

SIMULATIONS = 400  # the most a computer move or a hint searches; the seconds cap comes first in the page
HINTS = 3  # the moves a hint shows


class Table:
    """The one game the worker holds."""

    def __init__(self, engine: Game[Any, Any], content: GameContent, session: Session, notice: str = "") -> None:
        self.engine, self.content, self.session = engine, content, session
        self.notice = notice  # said once, with the first view: why a link was not replayed
        self.holder = ""  # the person whose view the page showed last (who holds the device)

    def seat(self) -> str:
        """Whose view the page shows: the person to act, else the person who last looked (so the
        computer's turn shows nobody else's hand), else the first person's seat."""
        humans = sorted(self.session.humans, key=self.session.seats.index)
        acting = [s for s in self.session.to_act() if s in self.session.humans]
        return acting[0] if acting else self.holder or (humans[0] if humans else self.session.seats[0])

    def view(self) -> dict[str, Any]:
        while self.session.forced():
            pass
        self.holder = self.seat()
        view = self.session.view(self.holder)
        view["computer_to_act"] = bool(self.session.to_act()) and not any(
            s in self.session.humans for s in self.session.to_act())
        view["undo"] = bool(self.session.picked) or any(h for _, h in self.session.moves)
        view["saved"] = self.session.saved()
        example = self.session.example if isinstance(self.session, FromSetup) else ""
        # The link holds the seed, and with it every face-down order: a player could read the shuffles of
        # a game still going from it, so only a finished game gets one (a game going on resumes from the
        # browser's save instead).
        view["link"] = self.session.link(example) if self.session.over else ""
        view["people"] = len(self.session.humans)  # more than one: the page hands the device over between them
        view["notice"], self.notice = self.notice, ""
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


def settings(engine_name: str, content_json: str = "") -> str:
    """The game's settings as the page's settings form offers them: each one's label and its words (a
    mission's printed name)."""
    engine = load_engine(engine_name)
    names = json.loads(content_json).get("names", {}) if content_json else {}
    return json.dumps({"settings": [{"label": s.label, "words": names.get(s.label, s.label)}
                                    for s in engine.simulation_setups()]}, ensure_ascii=False)


def start(engine_name: str, content_json: str, examples_json: str, request_json: str) -> str:
    """A new game (setting, seed, humans), a saved one (with its moves), one from a link (`link`) or
    from a worked example's setup (`example`); its view. A link or save that cannot be replayed starts
    a new game instead, its view saying why (`notice`): the page never fails on a link."""
    global _TABLE
    request = json.loads(request_json)
    engine = load_engine(engine_name)
    if engine_name not in _CONTENT:
        _CONTENT[engine_name] = content_from_data(json.loads(content_json), engine.facts_specs)
    content = _CONTENT[engine_name]
    examples = json.loads(examples_json)
    notice = ""
    try:
        session = _session(engine, content, examples, request)
    except LinkError as e:
        notice = f"This link could not be replayed: {e}. A new game is set up instead."
    except (ValueError, KeyError, TypeError, IndexError, AttributeError, SetupError, ContentError):
        # A save or an old link's moves: its words may name a move the rules refuse, so only say where.
        notice = ("The saved game or link could not be replayed (it may have been changed, or made by another "
                  "version of the rules). A new game is set up instead.")
    if notice:
        request = {"seed": request.get("seed") if isinstance(request.get("seed"), int) else 1}
        session = _session(engine, content, examples, request)
    _TABLE = Table(engine, content, session, notice)
    return json.dumps(_TABLE.view(), ensure_ascii=False)


def _session(engine: Game[Any, Any], content: GameContent, examples: dict[str, Any],
             request: dict[str, Any]) -> Session:
    setups = engine.simulation_setups()
    label = request.get("setting") or setups[0].label
    link = unpack(request["link"]) if isinstance(request.get("link"), str) else None
    if link is not None:
        if link.setting >= len(setups):
            raise LinkError("the link names a setting this game does not have")
        label = setups[link.setting].label
        request = {**request, "seed": link.seed, "example": link.example}
    if request.get("example"):
        example = examples.get(request["example"])
        if example is None:
            raise LinkError(f"no worked example {request['example']!r} to play from")
        moves = [] if link else [(engine.parse_action(m["action"]), m.get("by") == "you")
                                 for m in request.get("moves", [])]
        session: Session = FromSetup(engine, content, setups[0], int(request.get("seed", 1)), frozenset(), moves,
                                     setup=engine.parse_setup(example["setup"]), example=request["example"],
                                     title=example["title"])
    elif "moves" in request and link is None:
        session = Session.resume(engine, content, {**request, "game": engine.type.name, "setting": label})
    else:
        setting = next((s for s in setups if s.label == label), setups[0])
        session = Session(engine, content, setting, int(request.get("seed", 1)), frozenset())
    seats = seats_of(engine, session.state) if not session.seats else session.seats
    if link is not None:
        session.humans = people_of(link.people, seats)
        session.play_numbers(link.moves)
    else:
        session.humans = frozenset(s for s in request.get("humans", []) if s in seats)
    session.humans = session.humans or frozenset(seats[:1])
    return session


def _table() -> Table:
    if _TABLE is None:
        raise RuntimeError("no game started")
    return _TABLE


def choose(n: int) -> str:
    """The person to act takes choice `n` (numbered from 1 as the view lists them)."""
    table = _table()
    seat = table.seat()
    found = table.session.choices(seat)
    table.session.take(found[int(n) - 1], human=True, seat=seat)
    return json.dumps(table.view(), ensure_ascii=False)


def computer(seconds: float) -> str:
    """The computer plays one move for the seat it holds that is to act, in at most `seconds`."""
    table = _table()
    session = table.session
    actors = [s for s in session.to_act() if s not in session.humans]
    if actors:
        seat = actors[0]
        found = leaves(session.choices(seat))
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
