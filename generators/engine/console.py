"""`roadkit play`: a whole game in the terminal, through the engine contract alone.

The position in players' words, every legal action numbered in players' words, the search player in
the other seats (or, with `--hint`, as an advisor to yours), and chance from `--seed`, so a game can
be played again exactly. Works for every game with an engine: nothing here knows one game from
another.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from generators.engine.chance import Chance
from generators.engine.facts import GameContent
from generators.engine.players import SearchPlayer, returns

HELP = "Type the number of an action, h for a hint, or q to stop."


class Quit(Exception):
    """The player typed q (or the input ended)."""


def play_in_terminal(engine: Any, content: GameContent, *, setting: str | None, seat: str | None, seed: int,
                     hint: bool, simulations: int, seconds: float | None = None,
                     read: Callable[[str], str] | None = None, out: TextIO | None = None) -> int:
    """Play one game; the human takes `seat` (default: the first to act). Returns the exit status."""
    settings = engine.simulation_setups()
    chosen = next((s for s in settings if s.label == setting), None) if setting else settings[0]
    if chosen is None:
        print(f"roadkit play: no setting {setting!r}; the settings are: "
              f"{', '.join(s.label for s in settings)}", file=sys.stderr)
        return 2
    chance = Chance.seeded(seed)
    rng = random.Random(f"play-{seed}")
    state = engine.new_game(engine.parse_options(dict(chosen.options)), content, chance)
    first = engine.players_to_act(state)
    human = seat or (first[0] if first else "")
    if seat is not None and not _seat_known(engine, state, seat):
        print(f"roadkit play: no seat {seat!r} in this game; try one of: {', '.join(first)}", file=sys.stderr)
        return 2
    # The tree kept between moves: nothing stored is measured here, so the faster search plays.
    search = SearchPlayer(simulations=simulations, seconds=seconds, keep=True)
    say = (out or sys.stdout).write
    read = read or _read_line
    say(f"{engine.type.name}: {chosen.label}. You play {human}. {HELP}\n")
    logged = len(chance.log)
    try:
        while True:
            actors = engine.players_to_act(state)
            if not actors:
                break
            actor = human if human in actors else actors[0]
            legal = engine.legal_actions(state, actor)
            if actor == human:
                action = _ask(engine, content, state, actor, legal, search, rng, hint, read, say)
            else:
                action = search.choose(engine, state, actor, legal, rng)
                say(f"{actor}: {engine.describe_action(action, state, content)}\n")
            state = engine.play(state, action, chance)[0]
            for r in chance.log[logged:]:
                say(f"  {engine.describe_random(r.label, r.value, content)}\n")
            logged = len(chance.log)
    except Quit:
        say("Stopped.\n")
        return 130
    said = engine.describe_end(state, content)
    result = engine.result(state)
    say(f"Game over: {result.get('result')}. {said}\n")
    say(f"Your result: {'a win' if returns(engine, state, human) >= 1 else 'not a win'}.\n")
    return 0


def _seat_known(engine: Any, state: Any, seat: str) -> bool:
    """Is `seat` one of the game's players? Asked by playing ahead until it acts (bounded)."""
    chance = Chance.seeded(0)
    for _ in range(200):
        actors = engine.players_to_act(state)
        if not actors:
            return False
        if seat in actors:
            return True
        state = engine.play(state, engine.legal_actions(state, actors[0])[0], chance)[0]
    return False


def _ask(engine: Any, content: GameContent, state: Any, actor: str, legal: Sequence[Any], search: SearchPlayer,
         rng: random.Random, hint: bool, read: Callable[[str], str], say: Callable[[str], Any]) -> Any:
    where = engine.describe_end(state, content)
    if where:
        say(f"\n{where}\n")
    for i, action in enumerate(legal, 1):
        say(f"  {i}. {engine.describe_action(action, state, content)}\n")
    if hint:
        say(f"  (hint: {legal.index(search.choose(engine, state, actor, legal, rng)) + 1})\n")
    while True:
        try:
            answer = read(f"{actor}> ").strip().casefold()
        except EOFError:
            raise Quit from None
        chosen = {str(i): action for i, action in enumerate(legal, 1)}.get(answer)
        if chosen is not None:  # only the numbers listed: not '²', '①' or a number of 5,000 digits
            return chosen
        if answer in ("q", "quit"):
            raise Quit
        if answer in ("h", "hint"):
            found = search.analyse(engine, state, actor, legal, rng)
            say(f"  The search player would play {legal.index(found.best) + 1}: "
                f"{engine.describe_action(found.best, state, content)}\n")
            for move in found.top(3):
                if move.visits:
                    say(f"    {legal.index(move.action) + 1}: tried in {move.visits} of {found.simulations} "
                        f"simulations, scoring {round(100 * (move.value or 0))} % on average (a win 100 %)\n")
            continue
        say(f"  {HELP}\n")


def _read_line(prompt: str) -> str:
    """A line from the terminal; EOFError when there is none any more: the input ended, was closed
    (`<&-`: input() would raise RuntimeError) or the terminal went away (EIO)."""
    if sys.stdin is None or sys.stdin.closed:
        raise EOFError
    try:
        return input(prompt)
    except (OSError, RuntimeError, UnicodeDecodeError):
        raise EOFError from None
