"""`roadkit play`: a whole game in the terminal, on the shared table view (generators/play/table.py).

Before each of the player's decisions: the log since the last one (every action, the computer's too,
with what the rules did, "Then: ..."), the phase, the position in words, the game's panel (a hand,
tracks), and the choices grouped as players think of them, numbered. `u` undoes to the player's
previous decision, `s [FILE]` saves (`--resume FILE` goes on), `r TERM` looks a rule or glossary entry
up, `h` shows the search's top moves with how often each won in its simulations. The computer's moves
come from its own random stream per decision, so a hint never changes them, and a seed and the moves
replay a game exactly. Nothing here knows one game from another.
"""

from __future__ import annotations

import errno
import json
import os
import random
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

from generators.build_system.errors import ContentError, one_line
from generators.play.players import SearchPlayer
from generators.play.table import Session, look_up
from generators.rules.facts import GameContent
from generators.rules.refusals import SetupError

HELP = ("Type the number of an action, h for a hint, u to undo, s to save, r TERM to look a rule up, "
        "or q to stop.")
HINTS = 3  # moves a hint lists
WIDE = 100  # a panel section longer than this is printed a line each


class Quit(Exception):
    """The player typed q (or the input ended)."""


def play_in_terminal(engine: Any, content: GameContent, *, setting: str | None, seat: str | Sequence[str] | None,
                     seed: int, hint: bool, simulations: int, seconds: float | None = None, resume: str | None = None,
                     rules: Sequence[Mapping[str, str]] = (), cards: Mapping[str, str] | None = None,
                     name: str = "game",
                     read: Callable[[str], str] | None = None, out: TextIO | None = None) -> int:
    """Play one game (or the one saved in `resume`); people take `seat` (one or more seats; default: the
    first to act), the computer the rest. Returns the exit status."""
    wanted = [seat] if isinstance(seat, str) else list(seat or ())
    if resume is not None:
        try:
            session = Session.resume(engine, content, json.loads(_read_saved(Path(resume))))
        except (OSError, ValueError, KeyError, TypeError, RecursionError, ContentError, SetupError) as e:
            # RecursionError: JSON nested too deep to read
            why = getattr(e, "strerror", None) or e
            print(one_line(f"roadkit play: cannot resume {resume}: {why}"), file=sys.stderr)
            return 2
        seed = session.seed
        people = wanted or sorted(session.humans, key=lambda s: session.seats.index(s) if s in session.seats else 0) \
            or session.seats[:1]
    else:
        settings = engine.simulation_setups()
        chosen = next((s for s in settings if s.label == setting), None) if setting else settings[0]
        if chosen is None:
            print(f"roadkit play: no setting {setting!r}; the settings are: "
                  f"{', '.join(s.label for s in settings)}", file=sys.stderr)
            return 2
        session = Session(engine, content, chosen, seed)
        people = wanted or (session.to_act() or session.seats or [""])[:1]
    session.cards = cards or {}
    unknown = [p for p in people if p not in session.seats]
    if unknown:
        print(f"roadkit play: no seat {unknown[0]!r} in this game; the seats are: {', '.join(session.seats)}",
              file=sys.stderr)
        return 2
    session.humans = frozenset(people)
    # The computer's tree is kept between its moves; hints search on their own (their own tree and
    # random stream), so asking for one never changes what the computer plays.
    computer = SearchPlayer(simulations=simulations, seconds=seconds, keep=True)
    advisor = SearchPlayer(simulations=simulations, seconds=seconds)
    stream = out or sys.stdout
    say = stream.write
    read = read or _read_line
    view = session.view(people[0])
    named = {s["seat"]: _seat_words(s) for s in view["seats"]}
    say(f"{view['game']}: {view['setting']}. "
        + ("" if len(named) < 2 else f"You play {named[people[0]]}. " if len(people) == 1 else
           f"People play {', '.join(named[p] for p in people)}, passing the terminal between turns. ")
        + (f"Seats: {', '.join(named.values())}. " if len(named) > 1 else "") + f"{HELP}\n")
    shown = dict.fromkeys(people, 0)  # how much of the log each person has seen
    told: set[str] = set()  # cards whose text was printed once (r NAME prints it again)
    holder = people[0] if len(people) == 1 else ""  # who looks at the terminal now
    try:
        while not session.over:
            if session.forced():
                continue
            actors = session.to_act()
            actor = next((a for a in actors if a in session.humans), actors[0])
            if actor not in session.humans:
                legal = engine.legal_actions(session.state, actor)
                rng = random.Random(f"computer-{seed}-{len(session.moves)}")
                session.play(computer.choose(engine, session.state, actor, legal, rng), human=False)
                continue
            if actor != holder:  # one person per screen: hide the last one's hand before the next looks
                _hand_over(named[actor], read, say, stream)
                holder = actor
            shown[actor] = _show(session.view(actor), shown[actor], say, told=told)
            if hint:
                say(f"  (hint: {_hints(session, actor, advisor, seed)[0]})\n")
            while True:
                answer = _answer(session, actor, advisor, seed, rules, name, read, say)
                if answer == "undo":
                    shown = {p: max(0, min(n, len(session.log)) - 3) for p, n in shown.items()}
                    break
                if answer == "back":
                    break
                if answer is not None:
                    session.take(answer, seat=actor)
                    break
    except Quit:
        say("Stopped.\n")
        return 130
    for person in people:
        view = session.view(person)
        _show(view, shown[person] if person == holder else len(view["log"]), say, choices=False)
        verdict = "a win" if view["won"] else "not a win"
        say((f"Game over: {view['result']}. {view['status']}\n" if person == people[0] else "")
            + (f"Your result: {verdict}.\n" if len(people) == 1 else f"{named[person]}'s result: {verdict}.\n"))
    return 0


CLEAR = "\x1b[H\x1b[2J\x1b[3J"  # home, clear the screen and its scrollback


def _hand_over(who: str, read: Callable[[str], str], say: Callable[[str], Any], stream: TextIO) -> None:
    """Between two people's turns: the screen cleared (on a terminal), then wait for the next one."""
    if stream.isatty():
        say(CLEAR)
    say(f"\n== Pass the terminal to {who} ==\nEveryone else, look away: the next screen shows {who}'s own cards.\n")
    try:
        read(f"{who}: press Enter to see your table ")
    except EOFError:
        raise Quit from None
    if stream.isatty():
        say(CLEAR)


def _seat_words(seat: Mapping[str, Any]) -> str:
    return seat["seat"] if seat["who"] == seat["seat"] else f"{seat['seat']} ({seat['who']})"


def _show(view: Mapping[str, Any], shown: int, say: Callable[[str], Any], choices: bool = True,
          told: set[str] | None = None) -> int:
    """The log since `shown`, the status panel (with the text of each card not told yet) and the
    choices; the log's new length."""
    for entry in view["log"][shown:]:
        said = entry["said"] if entry["seat"] or entry["by"] != "rules" else f"({entry['said']})"
        say(f"{said}\n" + "".join(f"    Then: {line}\n" for line in entry["then"]))
    if not choices:
        return len(view["log"])
    if view.get("choosing"):  # a decision in parts under way: the parts so far, then the next part's choices
        say("  " + "; ".join(view["choosing"]) + ":\n")
        for choice in view["choices"]:
            say(f"  {choice['n']}. {choice['words']}\n")
        return len(view["log"])
    say(f"\n== {view['phase']} ==\n{view['status']}\n")
    for section in view["panel"]:
        lines = section["lines"]
        if len("; ".join(lines)) <= WIDE:
            say(f"  {section['title']}: " + "; ".join(lines) + "\n" if lines else "")
        else:  # a long section a line each (every player's board, every vehicle on the road)
            say(f"  {section['title']}:\n" + "".join(f"    - {line}\n" for line in lines))
    for card in view.get("cards", ()):
        if told is not None and card["name"] not in told:
            told.add(card["name"])
            say(f"    {card['name']}: {card['text']}\n")
    for choice in view["choices"]:
        say(f"  {choice['n']}. {choice['words']}\n")
    return len(view["log"])


def _hints(session: Session, seat: str, advisor: SearchPlayer, seed: int) -> list[str]:
    """The search's top moves for `seat`, each with how often it won in the simulations."""
    engine, state = session.engine, session.state
    found = advisor.analyse(engine, state, seat, engine.legal_actions(state, seat),
                            random.Random(f"hint-{seed}-{len(session.moves)}"))
    numbers = {c.actions[0]: i for i, c in enumerate(session.choices(seat), 1) if c.actions}
    lines = []
    for move in found.top(HINTS):
        if not move.visits:
            continue
        words = engine.describe_action(move.action, state, session.content)
        number = f"{numbers[move.action]}: " if move.action in numbers else ""
        lines.append(f"{number}{words}: won {round(100 * (move.value or 0))} % of the {move.visits} of "
                     f"{found.simulations} simulations that tried it")
    return lines or ["no move was tried"]


def _answer(session: Session, seat: str, advisor: SearchPlayer, seed: int, rules: Sequence[Mapping[str, str]],
            name: str, read: Callable[[str], str], say: Callable[[str], Any]) -> Any:
    """The choice typed, "undo" after an undo ("back" out of a decision in parts), or None after a
    command that leaves the decision open."""
    try:
        answer = read(f"{seat}> ").strip()
    except EOFError:
        raise Quit from None
    listed = session.choices(seat)
    chosen = {str(i): c for i, c in enumerate(listed, 1)}.get(answer)
    if chosen is not None:  # only the numbers listed: not '²', '①' or a number of 5,000 digits
        return chosen
    word, _, rest = answer.partition(" ")
    word = word.casefold()
    if word in ("q", "quit"):
        raise Quit
    if word in ("h", "hint"):
        lines = _hints(session, seat, advisor, seed)
        say(f"  The search player would play {lines[0]}\n" + "".join(f"    {line}\n" for line in lines[1:]))
        return None
    if word in ("u", "undo"):
        if session.picked and session.undo():
            say("  Undone: back to the whole decision.\n")
            return "back"
        if session.undo():
            say("  Undone: back to your previous decision.\n")
            return "undo"
        say("  Nothing to undo: you have not decided anything yet.\n")
        return None
    if word in ("s", "save"):
        path = Path(rest.strip() or f"roadkit-{name}-{session.seed}.json")
        try:
            _write(path, json.dumps(session.saved(), ensure_ascii=False, indent=1) + "\n")
        except (OSError, ValueError) as e:  # ValueError: a NUL in the name
            say(f"  Cannot save to {_shown(path)}: {getattr(e, 'strerror', None) or e}\n")
            return None
        say(f"  Saved to {path}; go on later with: roadkit play --game {name} --resume {path}\n"
            "  (The file holds the game's seed, which tells every face-down order: keep it to yourself until "
            "the game is over.)\n")
        return None
    if word in ("r", "rule", "rules"):
        found = look_up(rules, rest)
        for entry in found:
            say(f"  {entry['title']}: {entry['text']}\n")
        if not found:
            say(f"  No rule or glossary entry mentions {_shown(rest.strip())}.\n" if rest.strip() else
                "  Type r and a word, such as: r ram\n")
        return None
    say(f"  {HELP}\n")
    return None


# A saved game is a few KB a hundred moves; a file far larger is not one (and /dev/zero never ends).
MAX_SAVED_BYTES = 10_000_000


def _read_saved(path: Path) -> str:
    """A saved game's text: a plain file (a folder, a device or a pipe is refused, never read) of at
    most MAX_SAVED_BYTES."""
    if path.is_dir():
        raise IsADirectoryError(errno.EISDIR, "that is a folder, not a saved game")
    if not path.is_file():
        raise FileNotFoundError(errno.ENOENT, "no such file" if not path.exists() else "that is not a plain file")
    with path.open("rb") as f:
        data = f.read(MAX_SAVED_BYTES + 1)
    if len(data) > MAX_SAVED_BYTES:
        raise ValueError(f"the file is over {MAX_SAVED_BYTES // 1_000_000} MB: not a saved game")
    return data.decode("utf-8")


def _shown(text: object) -> str:
    """What the player typed, quoted and cut short enough to read on one line."""
    said = repr(str(text))
    return said if len(said) <= 80 else said[:77] + "..."


def _write(path: Path, text: str) -> None:
    """Write `text` to `path` whole or not at all, and only ever as a regular file: a folder (`.`, `/`)
    or a device (`/dev/full`) is refused, never replaced; nothing is left behind when it fails."""
    if not path.name or path.is_dir():
        raise IsADirectoryError(errno.EISDIR, "that is a folder; give a file name", str(path))
    if path.exists() and not path.is_file():
        raise OSError(errno.EINVAL, "that is not a plain file; give a file name", str(path))
    fd, part = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".roadkit-tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(part, path)
    except BaseException:
        Path(part).unlink(missing_ok=True)
        raise


def _read_line(prompt: str) -> str:
    """A line from the terminal; EOFError when there is none any more: the input ended, was closed
    (`<&-`: input() would raise RuntimeError) or the terminal went away (EIO)."""
    if sys.stdin is None or sys.stdin.closed:
        raise EOFError
    try:
        return input(prompt)
    except (OSError, RuntimeError, UnicodeDecodeError):
        raise EOFError from None
