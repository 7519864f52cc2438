"""The table view: one game as a seat sees it, shared by every front end (`roadkit play` in the
terminal, the Play page in the browser) and every game, through the engine contract alone.

`Session` holds a game (its setting, seed and every action taken, so a seed and the moves replay it
exactly) and answers, for a seat, `view(seat)`: plain JSON-ready data (dicts, lists, str, int, bool,
None), to be rendered as it is::

    {"game": str, "setting": str, "seat": str,          # the game's name, its setting, who looks
     "seats": [{"seat": str, "who": str, "you": bool, "acting": bool}],
     "phase": str,                                       # the step of the turn, in players' words
     "status": str,                                      # the position in one paragraph of words
     "figures": [{"piece": str, "name": str, "value": int | str}],   # HP, Health, places, ...
     "panel": [{"title": str, "lines": [str]}],          # the game's own sections (a hand, tracks)
     "cards": [{"name": str, "text": str}],              # the printed text of each card the panel names
     "svg": str,                                         # the position, by the game's own drawing
     "log": [{"seat": str, "by": "you" | "computer" | "rules", "said": str, "then": [str]}],
     "choices": [{"n": int, "words": str}],              # numbered from 1; empty when not seat's turn
     "choosing": [str],                                  # the parts of a decision picked so far
     "to_act": [str], "over": bool, "result": str | None, "won": bool | None}

Nothing in it is what the seat cannot see: the drawing, figures, words and panel are read from the
state (the shared test checks that a world the seat cannot tell apart gives the same view), and the
log words a chance result no seat sees (a shuffled order) with the game's `Table.unseen` words.

Choices are grouped as players think of them (`choices`): actions with one outcome are one choice
(the same observation and the same events), a decision players make in parts (`Table.parts`: a market
row's cards put under one after the other) is offered a part at a time (a choice with `more`), the
steps of a move whose path the rules leave free (`Table.path`) are offered as whole moves to each
destination, and a decision with one choice is not asked (`Session.forced` plays it). A game declares its part in
`Game.table` (contract.Table); nothing here names a game.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from generators.content import inline
from generators.content.model import LoadedGame
from generators.content.schema import to_data
from generators.play.links import Link, LinkError, mask_of, pack
from generators.rules.chance import Chance
from generators.rules.contract import Game, Place, Setting
from generators.rules.facts import GameContent

PATH_NODES = 4000  # the most positions looked at to list a free path's destinations


@dataclass(frozen=True)
class Choice:
    """One choice as players think of it: the actions it plays, in order, and its words; or the first
    part of a decision made in parts (no actions: `more` holds the next part's choices)."""

    actions: tuple[Any, ...]
    words: str
    more: tuple[Choice, ...] = ()


BACK = Choice((), "Back: choose something else")  # leaves a decision made in parts


def leaves(found: Sequence[Choice]) -> list[Choice]:
    """The choices that play actions, those in parts included (what a computer chooses among)."""
    return [leaf for c in found for leaf in (leaves(c.more) if c.more else [c] if c.actions else [])]


def _in_parts(lines: Sequence[tuple[Sequence[str], Choice]]) -> list[Choice]:
    """Choices whose words come in parts, offered by their first part: one choice for each first part,
    whole where one line has it, else opening the choices of the next part."""
    groups: dict[str, list[tuple[Sequence[str], Choice]]] = {}
    for parts, choice in lines:
        groups.setdefault(parts[0], []).append((parts[1:], choice))
    out = []
    for first, rest in groups.items():
        if len(rest) == 1 or not rest[0][0]:  # one line, or no part left to tell the lines apart
            parts, choice = rest[0]
            out.append(Choice(choice.actions, ", ".join((first, *parts))))
        else:
            out.append(Choice((), first, tuple(_in_parts(rest))))
    return out


@dataclass(frozen=True)
class Entry:
    """One step of the log: who acted (or the rules, at setup), in words, and what followed."""

    seat: str
    by: str  # "you", "computer" or "rules"
    said: str
    then: tuple[str, ...]

    def as_data(self) -> dict[str, Any]:
        return {"seat": self.seat, "by": self.by, "said": self.said, "then": list(self.then)}


def _key(value: Any) -> str:
    """Comparable text of plain data (observations are plain already) or of actions (by their repr)."""
    return json.dumps(value, sort_keys=True, default=repr, ensure_ascii=False)


def chance_words(engine: Game[Any, Any], content: GameContent | None, label: str, value: Any) -> str:
    """A chance result in players' words, as every seat may hear it: an unseen one (a shuffled
    order) in the game's words that leave the result out."""
    unseen = engine.table.unseen.get(label)
    return unseen if unseen is not None else engine.describe_random(label, value, content)


_DOER = re.compile(r"(rolls|draws|flips|reveals|picks|takes|discards) ")  # words that start with their verb


def said_by(seat: str, words: str) -> str:
    """`words` as `seat`'s: prefixed with the seat unless the words already name it first."""
    return words if not seat or words.startswith(f"{seat} ") or words.startswith(f"{seat}:") else \
        f"{seat}: {words}"


def _outcome(engine: Game[Any, Any], content: GameContent | None, state: Any, seat: str,
             actions: Sequence[Any]) -> tuple[Any, list[str], bool]:
    """The state `actions` lead to from `state`, the events told, and whether chance took part."""
    probe = Chance.seeded(0)
    told: list[str] = []
    for action in actions:
        state, events = engine.play(state, action, probe)
        told += engine.describe_events(events, content, state)
    return state, told, bool(probe.log)


def choices(engine: Game[Any, Any], content: GameContent | None, state: Any, seat: str) -> list[Choice]:
    """The seat's legal choices, grouped: see the module's note. Empty when the seat does not act."""
    if seat not in engine.players_to_act(state):
        return []
    table = engine.table
    leaves: list[tuple[Any, ...]] = []
    budget = [PATH_NODES]

    def walk(at: Any, prefix: tuple[Any, ...]) -> None:
        legal = engine.legal_actions(at, seat)
        steps = [a for a in legal if table.path is not None and table.path(at, a)]
        if prefix and not steps:  # the move is over: this is a destination
            leaves.append(prefix)
            return
        for action in legal:
            line = (*prefix, action)
            if action not in steps:
                leaves.append(line)
                continue
            budget[0] -= 1
            after, _, rolled = _outcome(engine, content, at, seat, [action])
            if rolled and prefix:
                leaves.append(prefix)  # chance comes in on this step: the move so far, then ask again
            elif rolled or budget[0] <= 0 or seat not in engine.players_to_act(after):
                leaves.append(line)
            else:
                walk(after, line)

    walk(state, ())
    grouped: dict[str, Choice] = {}
    for line in leaves:
        after, told, rolled = _outcome(engine, content, state, seat, line)
        # a whole move is told by where it leads (the figures players follow), whatever its path
        seen = [sorted(map(repr, engine.figures(after, content).items())), engine.phase_of(after)] \
            if len(line) > 1 else [engine.observe(after, seat), told]
        key = _key(line) if rolled else "outcome:" + _key(seen)
        if key not in grouped:
            grouped[key] = Choice(line, _words(engine, content, state, seat, line))
    # Whole moves first, by where they end (their words begin with it), then the single steps.
    found = sorted(grouped.values(), key=lambda c: (0, c.words) if len(c.actions) > 1 else (1, "")) \
        if table.path is not None else list(grouped.values())
    if table.parts is None:
        return found
    # Choices in parts stand where their first part first comes, the others where they were.
    parted = {i: tuple(table.parts(state, c.actions[0], content)) if len(c.actions) == 1 else ()
              for i, c in enumerate(found)}
    out: list[Choice] = []
    firsts: dict[str, int] = {}
    for i, c in enumerate(found):
        if len(parted[i]) < 2:
            out.append(c)
        elif parted[i][0] not in firsts:
            firsts[parted[i][0]] = len(out)
            out.append(c)
    for first, at in firsts.items():
        lines = [(parted[i], c) for i, c in enumerate(found) if parted[i][:1] == (first,)]
        if len(lines) > 1:  # a lone line stays whole, in its own words
            out[at] = _in_parts(lines)[0]
    return out


def _words(engine: Game[Any, Any], content: GameContent | None, state: Any, seat: str,
           line: tuple[Any, ...]) -> str:
    """A choice in words: its action's, or a whole move's steps and where it ends (each place that
    changed, as the figures tell it), and what the seat decides next if the move leaves it a choice
    (a road bonus's roll)."""
    if len(line) == 1:
        return engine.describe_action(line[0], state, content)
    said, at = [], state
    for action in line:
        said.append(engine.describe_action(action, at, content))
        at = engine.play(at, action, Chance.seeded(0))[0]
    before = engine.figures(state, content)
    ends = [f"{f.piece} to {v.words}" for f, v in engine.figures(at, content).items()
            if isinstance(v, Place) and before.get(f) != v]
    steps = said[0] + "".join(f", then {s[:1].lower()}{s[1:]}" for s in said[1:])
    path = engine.table.path
    if path is not None and seat in engine.players_to_act(at) and \
            any(path(at, a) for a in engine.legal_actions(at, seat)):  # the move goes on after a roll
        steps += f"; then {engine.phase(at).words}"
    return f"{'; '.join(ends)}: {steps[:1].lower()}{steps[1:]}" if ends else steps


def seats_of(engine: Game[Any, Any], state: Any) -> list[str]:
    """Every seat of the game, in the order they first act (looked ahead on a copy, bounded)."""
    found: list[str] = [p for p, _, _ in engine.varies(state) if p is not None]
    chance = Chance.seeded(0)
    for _ in range(400):
        actors = engine.players_to_act(state)
        if not actors:
            break
        found += [a for a in actors if a not in found]
        state = engine.play(state, engine.legal_actions(state, actors[0])[0], chance)[0]
    return list(dict.fromkeys(found))


@dataclass
class Session:
    """A game at the table: its setting and seed, the actions taken, the state they lead to, the log."""

    engine: Game[Any, Any]
    content: GameContent
    setting: Setting
    seed: int
    humans: frozenset[str] = frozenset()  # the seats people play (the log says "you" for them)
    moves: list[tuple[Any, bool]] = field(default_factory=list)  # (action, a decision a person took)
    log: list[Entry] = field(default_factory=list)
    cards: Mapping[str, str] = field(default_factory=dict)  # printed name -> text (`card_texts`)
    # A decision in parts under way, per seat: the parts picked (a choice with `more` each), not saved.
    picked: dict[str, list[Choice]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        moves = list(self.moves)
        self._replay([])  # the seats from the start: a finished game has none left to act
        self.seats: list[str] = seats_of(self.engine, self.state)
        if moves:
            self._replay(moves)

    def _replay(self, moves: list[tuple[Any, bool]]) -> None:
        self.chance = Chance.seeded(self.seed)
        self.state = self.engine.new_game(self.engine.parse_options(dict(self.setting.options)), self.content,
                                          self.chance)
        self.log = [Entry("", "rules", chance_words(self.engine, self.content, r.label, r.value), ())
                    for r in self.chance.log]
        self.moves = []
        self.numbers: list[int] = []  # each move's number among the moves offered then (`offered`)
        self._listed: dict[str, list[Choice]] = {}  # each seat's choices in this state, once listed
        self.picked = {}
        for action, human in moves:
            self._play(action, human)

    def offered(self) -> list[tuple[str, Any]]:
        """Every legal move now with its seat, the seats to act in turn, each move once: what a move's
        number (in a link) counts in."""
        out: list[tuple[str, Any]] = []
        for seat in self.to_act():
            out += [(seat, a) for a in self.engine.legal_actions(self.state, seat)
                    if not any(a == b for _, b in out)]
        return out

    def _play(self, action: Any, human: bool) -> None:
        engine, content, state = self.engine, self.content, self.state
        offered = self.offered()
        number = next((i for i, (_, a) in enumerate(offered) if a == action), None)
        if number is None:
            raise ValueError("a move the rules do not offer at that point")
        seat = offered[number][0]
        said = said_by(seat, engine.describe_action(action, state, content))
        rolled = len(self.chance.log)
        self.state, events = engine.play(state, action, self.chance)
        # a roll or draw told without its doer ("rolls 4 on the shooting die") is the acting player's:
        # told with their name; words with a subject of their own ("a movement die shows 4") stay as they are
        then = [said_by(seat, w) if _DOER.match(w) else w
                for w in (chance_words(engine, content, r.label, r.value) for r in self.chance.log[rolled:])]
        then += engine.describe_events(events, content, self.state)
        by = "you" if human or seat in self.humans else "rules" if not seat else "computer"
        self.log.append(Entry(seat, by, said, tuple(then)))
        self.moves.append((action, human))
        self.numbers.append(number)
        self._listed = {}
        self.picked = {}

    # -- playing --

    def to_act(self) -> list[str]:
        return self.engine.players_to_act(self.state)

    @property
    def over(self) -> bool:
        return not self.to_act()

    def choices(self, seat: str) -> list[Choice]:
        """The seat's choices now: the next part's (and a way back) while a decision in parts is under way."""
        if seat in self.picked:
            return [*self.picked[seat][-1].more, BACK]
        if seat not in self._listed:
            self._listed[seat] = choices(self.engine, self.content, self.state, seat)
        return self._listed[seat]

    def take(self, choice: Choice, human: bool = True, seat: str | None = None) -> None:
        """Play `choice` (of `seat`'s choices; by default the seat that was offered it); a part of a
        decision (or BACK) only moves through the parts."""
        if not choice.actions:
            seat = seat if seat is not None else next(
                (s for s in self.to_act() if choice in self.choices(s)), "")
            if choice.more:
                self.picked.setdefault(seat, []).append(choice)
            elif seat in self.picked:
                self.picked[seat].pop()
                if not self.picked[seat]:
                    del self.picked[seat]
            return
        for action in choice.actions:
            self._play(action, human)

    def play(self, action: Any, human: bool = False) -> None:
        """One legal action (a computer's, chosen among the legal actions)."""
        self._play(action, human)

    def forced(self) -> bool:
        """Play the one choice of a person's decision that offers only one (not asked); True if played."""
        for seat in self.to_act():
            if seat in self.humans:
                found = self.choices(seat)
                if len(found) == 1:
                    self.take(found[0], human=False)
                    return True
        return False

    def undo(self) -> bool:
        """Back out of a decision in parts under way, else to before the last decision a person took;
        False when there is none."""
        if self.picked:
            self.picked = {}
            return True
        last = max((i for i, (_, human) in enumerate(self.moves) if human), default=None)
        if last is None:
            return False
        self._replay(self.moves[:last])
        return True

    # -- saving --

    def play_numbers(self, moves: Sequence[tuple[int, bool]]) -> None:
        """Play moves given by their numbers among those offered (a link's); LinkError at the first
        number that is no move, saying which (never what the moves offered were: a seat's hand)."""
        for n, (number, human) in enumerate(moves, 1):
            offered = [] if self.over else self.offered()
            if number >= len(offered):
                raise LinkError(f"move {n} of the link is not one the game offers at that point (the link may "
                                "have been changed, or made by another version of the rules)")
            self._play(offered[number][1], human)

    def link(self, example: str = "") -> str:
        """The game as a short link (links.py): setting, seed, the seats people play, each move's number."""
        labels = [s.label for s in self.engine.simulation_setups()]
        return pack(Link(labels.index(self.setting.label) if self.setting.label in labels else 0, self.seed,
                         mask_of(self.humans, self.seats),
                         tuple((n, h) for n, (_, h) in zip(self.numbers, self.moves, strict=True)), example))

    def saved(self) -> dict[str, Any]:
        """The game as plain data: its setting, seed and every action (a faithful replay)."""
        return {"game": self.engine.type.name, "setting": self.setting.label, "seed": self.seed,
                "humans": sorted(self.humans),
                "moves": [{"action": to_data(a), "by": "you" if h else "computer"} for a, h in self.moves]}

    @classmethod
    def resume(cls, engine: Game[Any, Any], content: GameContent, data: dict[str, Any]) -> Session:
        """The session `saved` wrote (ValueError when it is not a game of this engine, or not of the
        shape `saved` writes: a file or a request is the user's, so any shape may come)."""
        _check_saved(data)
        if data.get("game") != engine.type.name:
            raise ValueError(f"the file holds a game of {data.get('game')!r}, not of {engine.type.name!r}")
        setting = next((s for s in engine.simulation_setups() if s.label == data.get("setting")), None)
        if setting is None:
            raise ValueError(f"no setting {data.get('setting')!r} in {engine.type.name}")
        moves = [(engine.parse_action(m["action"]), m.get("by") == "you") for m in data.get("moves", [])]
        return cls(engine, content, setting, int(data["seed"]), frozenset(data.get("humans", ())), moves)

    # -- the view --

    def view(self, seat: str) -> dict[str, Any]:
        """What `seat` sees at the table, as plain data (the shape is in the module's note)."""
        view = table_view(self.engine, self.content, self.state, seat, setting=self.setting.label,
                          seats=self.seats, log=self.log, humans=self.humans, listed=self.choices(seat),
                          cards=self.cards)
        view["choosing"] = [c.words for c in self.picked.get(seat, [])]
        return view


# The seeds a saved game may hold: those `roadkit play --seed` takes.
MAX_SEED = 2**63 - 1


def _check_saved(data: Any) -> None:
    """ValueError unless `data` has the shape `Session.saved` writes."""
    if not isinstance(data, dict):
        raise ValueError("it is not a saved game (a JSON object with game, setting, seed and moves)")
    seed = data.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise ValueError(f"its seed {str(seed)[:40]!r} is not a whole number from 0 to {MAX_SEED:,}")
    moves, humans = data.get("moves", []), data.get("humans", [])
    if not isinstance(moves, list) or not all(isinstance(m, dict) and "action" in m for m in moves):
        raise ValueError("its moves are not a list of {action: ..., by: ...}")
    if not isinstance(humans, list) or not all(isinstance(h, str) for h in humans):
        raise ValueError("its people are not a list of seat names")


_ICON = re.compile(r"(?<!\\):(" + inline.NAME + r"):\s*")  # an icon's code: the printed card shows a picture


def plain(text: str) -> str:
    """Content text as a line of words: no icon codes, no bold marks, spaces collapsed."""
    return " ".join(_ICON.sub("", text).replace("**", "").split())


def card_texts(game: LoadedGame) -> dict[str, str]:
    """Each card's printed name and the words on its front (type line, text, labelled lines), plain."""
    out: dict[str, str] = {}
    for component in game.components:
        for face in component.faces:
            side = face.front
            words = [side.subtitle or "", side.text or "", *(f"{f.label}: {f.text}" for f in side.fields)]
            text = " ".join(plain(w) for w in words if plain(w))
            if text and side.title not in out:
                out[side.title] = text
    return out


def reference(game: LoadedGame) -> list[dict[str, str]]:
    """The game's glossary and rules entries as plain data for `look_up` (a page gets it as JSON)."""
    terms = [{"title": t.term, "text": plain(t.definition), "also": " ".join(t.aliases)} for t in game.glossary.terms]
    rules = [{"title": r.meta.title, "text": plain(r.body), "also": r.meta.section} for r in game.rules]
    cards = [{"title": name, "text": text, "also": ""} for name, text in card_texts(game).items()]
    return terms + rules + cards


def look_up(entries: Sequence[Mapping[str, str]], term: str, most: int = 3, width: int = 600) -> list[dict[str, str]]:
    """The entries about `term`: those whose title or other names hold it first, then those whose text
    does; each text cut to `width` characters."""
    want = term.strip().casefold()
    if not want:
        return []
    named = [e for e in entries if want in e["title"].casefold() or want in e.get("also", "").casefold()]
    told = [e for e in entries if e not in named and want in e["text"].casefold()]
    return [{"title": e["title"], "text": e["text"] if len(e["text"]) <= width else e["text"][:width - 1] + "…"}
            for e in (named + told)[:most]]


def _value(value: int | Place) -> int | str:
    return value.words if isinstance(value, Place) else int(value)


def table_view(engine: Game[Any, Any], content: GameContent, state: Any, seat: str, *, setting: str = "",
               seats: Sequence[str] = (), log: Sequence[Entry] = (),
               humans: frozenset[str] = frozenset(), listed: Sequence[Choice] | None = None,
               cards: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The view of `state` for `seat` (see the module's note): a pure function of what it is given."""
    table = engine.table
    to_act = engine.players_to_act(state)
    identity = table.seats(state, content) if table.seats is not None else {}
    over = not to_act
    winners = list(engine.winners(state)) if over else []
    panel = table.panel(state, seat, content) if table.panel is not None else ()
    shown = "\n".join(line for _, lines in panel for line in lines)
    alone = len(seats or to_act) <= 1  # one seat: its name before every line of the log says nothing
    return {
        "game": engine.type.name, "setting": content.name(setting) if setting else setting, "seat": seat,
        "seats": [{"seat": s, "who": identity.get(s, s), "you": s == seat or s in humans, "acting": s in to_act}
                  for s in (seats or to_act)],
        "phase": "" if over else engine.phase(state).words,
        "status": engine.describe_end(state, content),
        "figures": [{"piece": f.piece, "name": f.name, "value": _value(v)}
                    for f, v in engine.figures(state, content).items()],
        "panel": [{"title": title, "lines": list(lines)} for title, lines in panel],
        "cards": [{"name": name, "text": text} for name, text in (cards or {}).items()
                  if re.search(rf"(?<!\w){re.escape(name)}(?!\w)", shown)],
        "svg": engine.draw_svg(state, None),
        "log": [{**e.as_data(), "said": e.said.removeprefix(f"{e.seat}: ")} if alone and e.seat else e.as_data()
                for e in log],
        "choices": [{"n": i, "words": c.words} for i, c in
                    enumerate(choices(engine, content, state, seat) if listed is None else listed, 1)],
        "choosing": [],
        "to_act": list(to_act), "over": over,
        "result": str(engine.result(state).get("result")) if over else None,
        "won": (seat in winners) if over else None,
    }
