"""A game's whole-game figures as a committed artefact: `content/<game>/figures.json`.

Figures that mean something take thousands of games, far more than a build can afford, so
`roadkit simulate --write` plays them once and stores them beside the game's content, with the version
they were computed for: a digest of what the engine reads of the content and of how the engine plays a
few seeded reference games move by move (so a faster or tidier engine keeps them current). The
build never plays them again; the rules check reads the file, tells whether it is still current, and
the site shows the figures, marked as computed for an earlier version when they are not.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generators.build_system.errors import ContentError, KeyPath
from generators.content.model import LoadedGame
from generators.content.schema import convert
from generators.content.yaml_io import Doc, parse_yaml, read_text
from generators.play.players import LookaheadPlayer, SearchPlayer
from generators.rules.chance import Chance
from generators.rules.contract import Game, load_engine
from generators.rules.facts import GameContent

FILE = "figures.json"
BEHAVIOUR_SEEDS = {"random": (1, 2), "greedy": (1,)}  # the reference games, per setting
SEARCHED = {"players", "confirmed"}  # parts whose figures the search player played
SEARCH_PROBE = (24, 40)  # the search's simulations, and the positions it analyses (`search_behaviour`)


def version(engine: str, content: GameContent, part: str = "plays") -> str:
    """What a part's figures depend on: what the engine reads of the content, and how the engine plays
    (`behaviour`), so an edit that only makes the code faster or clearer keeps them current, and any
    edit that changes a legal move, a rating or a result in the reference games does not. Head-to-head
    figures (`players`) depend on the search player too (`search_behaviour`)."""
    return _versions(engine, content, {part})[part]


def _versions(engine: str, content: GameContent, parts: set[str]) -> dict[str, str]:
    game = load_engine(engine)
    h = hashlib.sha256()
    # Each face's count and typed facts; its printed wording and colours only where play shows them.
    h.update(repr([(c, f.id, f.count, f.facts) for c, faces in sorted(content.components.items())
                   for f in faces]).encode())
    h.update(behaviour(game, content).encode())
    out = {part: h.hexdigest()[:16] for part in parts}
    if SEARCHED & parts:
        h.update(search_behaviour(game, content).encode())
        out.update({part: h.hexdigest()[:16] for part in SEARCHED & parts})
    return out


def behaviour(engine: Game[Any, Any], content: GameContent) -> str:
    """A digest of reference games played through the contract: per setting, seeded games by the
    random and the look-ahead players, every list of legal moves and every result hashed."""
    h = hashlib.sha256()
    for setting in engine.simulation_setups():
        for policy, seeds in BEHAVIOUR_SEEDS.items():
            for seed in seeds:
                h.update(_reference_game(engine, content, dict(setting.options), seed, policy).encode())
    return h.hexdigest()


def search_behaviour(engine: Game[Any, Any], content: GameContent) -> str:
    """A digest of the search player's analysis on a small budget at positions spread over a seeded
    look-ahead game of the first setting: every root move's visits and mean return, not only the move
    chosen. The means read the scale, the rollouts and the game's hints in every simulation, so any
    change to how it searches moves one of them long before it changes a figure, and the positions run
    to the game's end, where more is hidden and more is at stake than in its first moves (a probe of
    the first 12 moves' choices missed the root's ratings moving to a re-dealt world)."""
    simulations, probes = SEARCH_PROBE
    setting = engine.simulation_setups()[0]
    positions, _ = _played(engine, content, dict(setting.options), 1, "greedy")
    choices = [p for p in positions if len(p[2]) > 1]
    step = max(1, len(choices) // probes)
    rng = random.Random("search-reference")
    h = hashlib.sha256()
    for state, player, legal, _ in choices[step // 2::step][:probes]:
        found = SearchPlayer(simulations=simulations).analyse(engine, state, player, legal, rng)
        # Means rounded: the same search gives the same digest on another machine's floating point.
        h.update(repr([(m.action, m.visits, None if m.value is None else round(m.value, 6))
                       for m in found.moves]).encode())
    return h.hexdigest()


def _reference_game(engine: Game[Any, Any], content: GameContent, options: dict[str, Any], seed: int,
                    policy: str) -> str:
    positions, end = _played(engine, content, options, seed, policy)
    h = hashlib.sha256()
    for _, _, legal, ratings in positions:
        h.update(repr(legal).encode())
        # The look-ahead's reasons too, rounded as the search's means are (see search_behaviour).
        h.update(repr([round(r, 6) for r in ratings]).encode())
    h.update(repr(sorted(engine.result(end).items())).encode())
    h.update(repr(tuple(engine.winners(end))).encode())
    return h.hexdigest()


def _played(engine: Game[Any, Any], content: GameContent, options: dict[str, Any], seed: int,
            policy: str) -> tuple[list[tuple[Any, str, list[Any], tuple[float, ...]]], Any]:
    """A seeded reference game by `policy` (random, or the look-ahead where the game rates positions):
    each decision's state, player, legal moves and the look-ahead's ratings of them (none for a random
    move), and the final state."""
    chance = Chance.seeded(seed)
    rng = random.Random(f"reference-{seed}")
    look = LookaheadPlayer()
    state = engine.new_game(engine.parse_options(options), content, chance)
    positions = []
    for _ in range(engine.type.max_actions + 1):
        players = engine.players_to_act(state)
        if not players:
            break
        player = players[0] if len(players) == 1 else rng.choice(players)
        legal = engine.legal_actions(state, player)
        after: Any = None
        ratings: tuple[float, ...] = ()
        if policy == "greedy" and len(legal) > 1 and engine.evaluate(state, player) is not None:
            action, after, ratings = look.rated(engine, state, player, legal, rng)
        else:
            action = rng.choice(legal)
        positions.append((state, player, legal, ratings))
        state = after if after is not None else engine.play(state, action, chance)[0]
    return positions, state


def path_of(game: LoadedGame) -> Path:
    return Path(game.dir) / FILE


def read(game: LoadedGame) -> dict[str, Any] | None:
    path = path_of(game)
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


# --- the file's shape, checked by validate like any content file -----------------------------------
# What the site and the check read of it, typed; the inner tables (results, figures, outcomes per
# seat or setting) are the engine's own data and pass as they are.


@dataclass(frozen=True)
class _Setting:
    setting: str
    policy: str
    games: int = field(metadata={"min": 0})
    results: dict[str, dict[str, Any]]
    figures: dict[str, dict[str, Any]] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class _Order:
    policy: str
    settings: tuple[str, ...]
    pairs: tuple[Any, ...]
    because: str = ""


@dataclass(frozen=True)
class _Plays:
    version: str
    seed: int
    settings: tuple[_Setting, ...]
    policies: dict[str, str] = field(default_factory=dict)
    utility: str = ""
    difficulty: tuple[_Order, ...] = ()


@dataclass(frozen=True)
class _Effect:
    kind: str
    value: str
    setting: str
    baseline: str
    games: int = field(metadata={"min": 0})
    effect: float
    interval: tuple[float, ...]
    against: float
    flagged: bool
    won: dict[str, float] = field(default_factory=dict)
    corrected: dict[str, Any] = field(default_factory=dict)  # the interval widened for every effect measured


@dataclass(frozen=True)
class _Rebalanced:
    value: str
    change: str
    before_version: str
    before: tuple[Any, ...]
    paired: dict[str, Any] | None = None  # played again beside the design before (`--base`), same seeds


@dataclass(frozen=True)
class _Balance:
    version: str
    policy: str
    seed: int
    games_per_setting: int = field(metadata={"min": 0})
    effects: tuple[_Effect, ...]
    simulations: int | None = None
    rebalanced: tuple[_Rebalanced, ...] = ()
    utility: str = ""
    family: int = field(default=0, metadata={"min": 0})  # effects the correction counts
    undecided: tuple[dict[str, Any], ...] = ()  # per competitive setting: the games nobody won
    constant: tuple[dict[str, Any], ...] = ()  # settings every game of which ended alike


@dataclass(frozen=True)
class _Comparison:
    setting: str
    against: str
    challengers: tuple[dict[str, Any], ...]
    games: int = field(metadata={"min": 0})
    seed: int
    simulations: int
    policies: dict[str, str]
    outcomes: dict[str, str]
    against_won: dict[str, float]
    seat: str | None = None


@dataclass(frozen=True)
class _Players:
    version: str
    comparisons: tuple[_Comparison, ...]


@dataclass(frozen=True)
class _Confirmed:
    version: str
    policy: str
    simulations: int
    games_per_setting: int = field(metadata={"min": 0})
    seed: int
    settings: tuple[str, ...]
    findings: tuple[dict[str, Any], ...]
    difficulty: tuple[Any, ...] = ()
    rebalanced: tuple[dict[str, Any], ...] = ()
    balance_version: str | None = None


@dataclass(frozen=True)
class FiguresFile:
    plays: _Plays | None = None
    balance: _Balance | None = None
    players: _Players | None = None
    confirmed: _Confirmed | None = None  # the search's re-measurement (`roadkit balance --confirm`)


def check_file(game_dir: Path) -> None:
    """A game's figures.json, if it has one, read as JSON and of the shape above; else a located
    ContentError (a file the site would pass over shows players no figures at all)."""
    path = game_dir / FILE
    if not path.exists() and not path.is_symlink():
        return
    name, text = read_text(path)
    try:
        data = json.loads(text)
    except ValueError as exc:
        line, col = (exc.lineno, exc.colno) if isinstance(exc, json.JSONDecodeError) else (1, 1)
        raise ContentError(name, line, col, (), f"not valid JSON ({getattr(exc, 'msg', exc)}); write the figures "
                           "again with `roadkit simulate --write` or restore the file from git") from None

    class Located(Doc):
        """Positions of the JSON values (JSON reads as YAML), parsed only for an error message."""

        def where(self, keys: KeyPath) -> tuple[int, int]:
            try:
                return parse_yaml(text, name).where(keys)
            except ContentError:
                return (1, 1)

    convert(Located(name, data, {}), FiguresFile, (), data)


def store(game: LoadedGame, part: str, data: dict[str, Any]) -> Path:
    """Put one part (`plays`, `balance`) of the game's figures, keeping the others; the file is
    written whole or not at all (a temporary file renamed into place)."""
    data = {**(read(game) or {}), part: data}
    path = path_of(game)
    tmp = path.with_name(f".{FILE}.roadkit-tmp")
    tmp.write_text(json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(tmp, path)
    return path


def for_report(game: LoadedGame, engine: str, content: GameContent) -> dict[str, Any]:
    """Each stored part with `current` saying whether it was computed for this very version."""
    data = {part: value for part, value in (read(game) or {}).items() if isinstance(value, dict)}
    now = _versions(engine, content, set(data))
    return {part: {**value, "current": value.get("version") == now[part]} for part, value in data.items()}
