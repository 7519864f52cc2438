"""A game's whole-game figures at a glance, for the top of its overview: one sentence per setting in
the book's order that a player reads once ("a careful player wins Red Mile about 1 game in 7"), the
strong player's figure beside it, and the table behind each sentence (player, games, 95 % range).

Two computer players are named for players, not for their algorithms: the careful player (tries
every move, keeps the best one: the policy the stored plays and balance runs use) and the strong
player (plays each move out many times first: the search). Every share is of one basis per game,
said in `basis`: of all games for a game played alone or together, of the games somebody won that it
played in for a game played against each other. The site runs no engine code; this reads the
report's stored figures defensively, as `played_games.py` does."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from generators.rules.stats import rate, won
from generators.site.escape import text as esc

CAREFUL = "greedy"
STRONG = "search"
NAMES = {CAREFUL: "careful player", STRONG: "strong player", "random": "random player"}
EXPLAINED = {
    CAREFUL: "a computer player that tries every legal move and keeps the one that leaves it best placed",
    STRONG: "a computer player that, before each move, plays the game out many times from there "
            "({n} times a move) and picks the move that won most often",
    "random": "a computer player that picks any legal move at random",
}


@dataclass(frozen=True)
class Share:
    """Who won how often: `hits` of `games`, with its 95 % range."""

    player: str  # "careful player", "strong player"
    setting: str
    hits: int
    games: int
    who: str = ""  # a competitive game's seat or character ("" when it is the player's own win rate)
    even: str = ""  # a competitive game's even share in words ("1 in 4")

    @property
    def percent(self) -> str:
        return _pc(rate(self.hits, self.games).share)

    @property
    def interval(self) -> str:
        r = rate(self.hits, self.games)
        return f"{_pc(r.low)}–{_pc(r.high)} %"

    @property
    def words(self) -> str:
        return often(self.hits, self.games)


@dataclass(frozen=True)
class Glance:
    lines: tuple[str, ...]  # Markdown sentences, one per setting (and one for the strong player)
    shares: tuple[Share, ...]  # every figure a sentence gives, for the folded table
    basis: str  # what every share is a share of
    players: tuple[str, ...]  # each player named, with its one-line explanation
    competitive: bool


def often(hits: int, games: int) -> str:
    """A share as a player says it, after "wins": "about 1 game in 7", "about 8 games in 10", "no game
    in 400" ("wins never in 400 games" is not English)."""
    if games <= 0:
        return "not measured"
    p = hits / games
    if hits == 0:
        return f"no game in {games}"
    if hits == games:
        return f"every one of {games} games"
    if p < 0.02:
        return f"almost never ({hits} of {games} games)"
    if p > 0.98:
        return f"almost always ({hits} of {games} games)"
    if p < 0.3:
        return f"about 1 game in {round(1 / p)}"
    tenths = min(9, max(3, round(10 * p)))
    return f"about {tenths} games in 10"


def book_order(settings: Sequence[str]) -> list[str]:
    """Settings as a rulebook lists them: plain player counts first, in number order, then the
    variants ("2 players, first game") in the order given; settings without counts keep theirs."""
    def key(item: tuple[int, str]) -> tuple[int, int, int]:
        i, s = item
        m = re.match(r"(\d+) players?(,)?", s)
        if m is None:
            return (0, 0, i)
        return (1 if m.group(2) else 0, 0 if m.group(2) else int(m.group(1)), i)
    return [s for _, s in sorted(enumerate(settings), key=key)]


def glance(figures: Any, names: Mapping[str, str] | None = None) -> Glance | None:
    """The figures at a glance from the report's stored figures of one game (None without plays)."""
    names = names or {}
    plays = _dict(_dict(figures).get("plays"))
    lines = [s for s in plays.get("settings") or () if isinstance(s, dict)]
    if not any(s.get("policy") == CAREFUL for s in lines):
        return None
    competitive = plays.get("utility") == "competitive"
    if competitive:
        return _competitive(figures, names)
    careful = {str(s.get("setting")): s for s in lines if s.get("policy") == CAREFUL}
    strong = _strong_solo(figures)
    shares: list[Share] = []
    said = []
    for label in book_order(list(careful)):
        setting = _title(label, names)
        mine = won(careful[label])
        c = Share(NAMES[CAREFUL], setting, mine.hits, mine.games)
        shares.append(c)
        text = f"- **{esc(setting)}**: the careful player wins {c.words}"
        if label in strong:
            hits, games = strong[label]
            s = Share(NAMES[STRONG], setting, hits, games)
            shares.append(s)
            text += f"; the strong player {s.words}"
        said.append(text + ".")
    basis = "Every share is of all the games played in that setting."
    return Glance(tuple(said), tuple(shares), basis, _players(figures, bool(strong)), False)


def _strong_solo(figures: Any) -> dict[str, tuple[int, int]]:
    """The strong player's wins per setting: its head-to-head run where it has one (most games),
    else its re-measurement of the difficulty order (current only)."""
    out: dict[str, tuple[int, int]] = {}
    confirmed = _dict(_dict(figures).get("confirmed"))
    if confirmed.get("current"):
        for order in confirmed.get("difficulty") or ():
            for p in _dict(order).get("pairs") or ():
                for side in ("easier", "harder"):
                    w = _dict(_dict(p).get(f"{side}_won"))
                    if "games" in w:
                        out[str(p.get(side))] = (int(w["games"]), int(confirmed.get("games_per_setting") or 0))
    for c in _comparisons(figures):
        if c.get("seat"):
            continue
        for row in c.get("challengers") or ():
            if _dict(row).get("player") == STRONG:
                out[str(c.get("setting"))] = (int(_dict(row.get("won")).get("games", 0)), int(c.get("games", 0)))
    return out


def _competitive(figures: Any, names: Mapping[str, str]) -> Glance | None:
    """Who wins how often, per seat or character, of the games somebody won that it played in (the
    balance run's basis, where an even share is 1 in the number of players); the strong player's
    head-to-head as counts of its games, which the stored run does not split by who won."""
    balance = _dict(_dict(figures).get("balance"))
    effects = [e for e in balance.get("effects") or () if isinstance(e, dict) and isinstance(e.get("won"), dict)]
    if not effects or not balance.get("current"):
        return None
    by_setting: dict[str, list[dict[str, Any]]] = {}
    for e in effects:
        by_setting.setdefault(str(e.get("setting")), []).append(e)
    shares: list[Share] = []
    said = []
    for label in book_order(list(by_setting)):
        setting = _title(label, names)
        rows = sorted(by_setting[label], key=lambda e: (str(e.get("kind")) != "character", _share(e)))
        even = _even(rows[0])
        shares += [Share(NAMES[CAREFUL], setting, int(e["won"].get("games", 0)), int(e.get("games", 0)),
                         str(e.get("value", "")), even) for e in rows]
        parts = []
        for kind in dict.fromkeys(str(e.get("kind")) for e in rows):
            same = [e for e in rows if str(e.get("kind")) == kind]
            kinds = f"{kind}s" if kind != "seat" else "seats"
            if all(_holds(e) for e in same):
                parts.append(f"the {kinds} win about evenly")
                continue
            low, high = same[0], same[-1]
            parts.append(f"{esc(high.get('value'))} wins most ({_often(high)}), "
                         f"{esc(low.get('value'))} least ({_often(low)})")
        said.append(f"- **{esc(setting)}** (an even share: {even}): {'; '.join(parts)}.")
    for c in _comparisons(figures):
        games = int(c.get("games", 0))
        base = int(_dict(c.get("against_won")).get("games", 0))
        for row in c.get("challengers") or ():
            if _dict(row).get("player") != STRONG:
                continue
            mine = int(_dict(row.get("won")).get("games", 0))
            setting = _title(str(c.get("setting")), names)
            shares.append(Share(NAMES[STRONG], setting, mine, games, "one seat, careful players in the others; "
                                                                      "of all its games"))
            shares.append(Share(NAMES[CAREFUL], setting, base, games, "the same seat; of all its games"))
            said.append(f"- **The strong player** ({esc(setting)}), in one seat with careful players in the others, "
                        f"won {mine} of its {games} games; a careful player in the same seat, {base}.")
    owned = list(dict.fromkeys(str(e.get("kind", "")) for e in effects))
    owners = " or ".join(f"{k}'s" for k in owned)
    basis = f"A {owners} share is of the games it played that somebody won."
    return Glance(tuple(said), tuple(shares), basis, _players(figures, any(s.player == NAMES[STRONG] for s in shares)),
                  True)


def _share(e: Mapping[str, Any]) -> float:
    return rate(int(_dict(e.get("won")).get("games", 0)), int(e.get("games", 0))).share


def _often(e: Mapping[str, Any]) -> str:
    return often(int(_dict(e.get("won")).get("games", 0)), int(e.get("games", 0))).removeprefix("about ")


def _holds(e: Mapping[str, Any]) -> bool:
    """Whether a seat's or character's 95 % range holds its even share: nothing to tell apart."""
    w = _dict(e.get("won"))
    r = rate(int(w.get("games", 0)), int(e.get("games", 0)))
    return r.low <= float(e.get("against", 0)) / 100 <= r.high


def _even(e: Mapping[str, Any]) -> str:
    """An even share in words, from the stored baseline ("... (1 in 4)")."""
    m = re.search(r"\((1 in \d+)\)", str(e.get("baseline", "")))
    return m.group(1) if m else f"{_pc(float(e.get('against', 0)) / 100)} %"


def _players(figures: Any, strong: bool) -> tuple[str, ...]:
    sims = next((c.get("simulations") for c in _comparisons(figures) if c.get("simulations")), None) \
        or _dict(_dict(figures).get("confirmed")).get("simulations")
    out = [f"**The careful player**: {EXPLAINED[CAREFUL]} (it looks one move ahead)."]
    if strong:
        out.append(f"**The strong player**: {EXPLAINED[STRONG].format(n=sims)}; closer to a good human player.")
    return tuple(out)


def _comparisons(figures: Any) -> list[dict[str, Any]]:
    players = _dict(_dict(figures).get("players"))
    if not players.get("current"):
        return []
    return [c for c in players.get("comparisons") or () if isinstance(c, dict) and c.get("against") == CAREFUL]


def _title(label: str, names: Mapping[str, str]) -> str:
    text = names.get(label) or label.replace("-", " ")
    return text[:1].upper() + text[1:]


def _pc(x: float) -> str:
    return f"{round(100 * x, 1):.1f}".rstrip("0").rstrip(".")


def _dict(value: Any) -> dict[Any, Any]:
    return value if isinstance(value, dict) else {}
