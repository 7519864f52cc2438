"""Whole games the computer played, as the check's report carries them (`simulations`), turned into
lines a player reads on a game's overview: per policy and setting, how often each result came up and
the average of each figure. The site runs no engine code; the words come from the report."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from generators.rules.stats import rate, won
from generators.rules.wording import listed


@dataclass(frozen=True)
class Played:
    setting: str
    games: int
    results: str  # "won 40 % (31–50 %), lost 60 % (50–69 %)": each share with its 95 % interval
    figures: str  # "game length 17 actions on average, damage taken 2.5 ..."


@dataclass(frozen=True)
class Policy:
    name: str
    says: str  # what the policy does, in words
    rows: tuple[Played, ...]


def _words(key: str) -> str:
    return str(key).replace("_", " ").replace("-", " ")


def _setting(label: Any, names: Mapping[str, str]) -> str:
    """A setting as players know it: the printed title where the label is a face's id (the vampire
    chase's missions), else the label in words."""
    return names.get(str(label)) or _words(str(label))


def _number(x: Any) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".") if isinstance(x, float) else str(x)


def _share(key: str, v: dict[str, Any]) -> str:
    """"won 40 % (31–50 %)": a share with its 95 % interval, when the report gives one."""
    text = f"{_words(key)} {_number(v.get('percent'))} %"
    if "low" in v and "high" in v:
        text += f" ({_number(v['low'])}–{_number(v['high'])} %)"
    return text


def game_plays(data: Any, names: Mapping[str, str] | None = None) -> tuple[Policy, ...]:
    """The report's simulations of one game (or nothing, when the build played none); `names`: the
    game's printed titles by face id, for settings named after a face."""
    names = names or {}
    if not isinstance(data, dict):
        return ()
    said = _dict(data.get("policies"))
    by_policy: dict[str, list[Played]] = {}
    for s in data.get("settings") or ():
        if not isinstance(s, dict):
            continue
        results = _dict(s.get("results"))
        figures = _dict(s.get("figures"))
        result_text = ", ".join(_share(k, v) for k, v in results.items() if isinstance(v, dict))
        figure_text = "; ".join(f"{'actions' if k == 'actions' else _words(k)} {_number(v.get('mean'))}"
                                for k, v in figures.items() if isinstance(v, dict))
        by_policy.setdefault(str(s.get("policy", "random")), []).append(
            Played(_setting(s.get("setting", ""), names), int(s.get("games", 0)), result_text, figure_text))
    return tuple(Policy(name, str(said.get(name, name)), tuple(rows)) for name, rows in by_policy.items())


# --- the committed figures: how hard each setting is for the computer players ---------------------

STRENGTH = ("search", "greedy", "random")  # the strongest player first
PLAYER_WORDS = {
    "search": "the strong player (it plays each move out many times to the end first: {n} simulated "
              "continuations a move)",
    "greedy": "the careful player (it tries every move and keeps the one that leaves it best placed)",
    "random": "the random player (it picks any legal move at random)",
}


@dataclass(frozen=True)
class Hardness:
    """One setting's win rate for the strongest player measured, with its interval."""

    setting: str
    won: str  # "37 % (32–42 %)"
    games: int


@dataclass(frozen=True)
class Careful:
    player: str  # who played, in words
    rows: tuple[Hardness, ...]
    current: bool  # computed for this version of the rules data and code
    findings: tuple[str, ...]  # balance effects outside the noise, in words
    competitive: bool = False  # rows give each seat's share of the wins, not one win rate
    order: tuple[str, ...] = ()  # whether the settings come out as hard as expected, in words
    rebalanced: tuple[str, ...] = ()  # house designs changed after a finding: before and after, in words
    versus: tuple[str, ...] = ()  # head-to-head comparisons of the computer players, in words
    in_short: str = ""  # the findings that matter at the table, in one sentence: who wins more, who less
    measured: str = ""  # who played the balance games and how many, and what the corrected range is
    undecided: tuple[str, ...] = ()  # per setting of a competitive game: how often nobody won
    constant: tuple[str, ...] = ()  # settings every game of which ended alike: nothing to compare there
    unclear: tuple[str, ...] = ()  # effects outside the plain 95 % range only: not called findings
    confirmed_by: str = ""  # who re-measured the findings and orders, on how many games ("" when nobody has)
    unconfirmed: tuple[str, ...] = ()  # findings of the one-step player the search did not confirm
    search_order: tuple[str, ...] = ()  # the difficulty order as the search's win rates tell it


def careful_player(figures: Any, names: Mapping[str, str] | None = None,
                   made: Mapping[str, str] | None = None) -> Careful | None:
    """From the report's committed figures of one game: the win rate per setting for the strongest
    player that was measured, and the balance findings outside the noise (`made`: who made what each
    printed title shows, `LoadedGame.made_by`)."""
    names = names or {}
    plays = figures.get("plays") if isinstance(figures, dict) else None
    if not isinstance(plays, dict):
        return None
    lines = [s for s in plays.get("settings") or () if isinstance(s, dict)]
    policy = next((p for p in STRENGTH if any(s.get("policy") == p for s in lines)), None)
    competitive = plays.get("utility") == "competitive"
    if policy is None:
        return None
    rows = []
    for s in lines:
        if s.get("policy") != policy:
            continue
        results = _dict(s.get("results"))
        games = int(s.get("games", 0))
        if competitive:  # who wins how often: each result ("blue wins", "nobody") with its interval
            share = ", ".join(f"{_words(k)} {_interval_text(int(v.get('games', 0)), games)}"
                              for k, v in results.items() if isinstance(v, dict)) if games else "–"
        else:
            share = _interval_text(won(s).hits, games) if games else "–"  # the same wins the order check counts
        rows.append(Hardness(_setting(s.get("setting", ""), names), share, games))
    sims = next((s.get("simulations") for s in lines if s.get("policy") == policy and s.get("simulations")), None)
    balance = figures.get("balance")
    confirmed = _confirmation(balance, figures.get("confirmed"))
    return Careful(PLAYER_WORDS[policy].format(n=sims), tuple(rows), bool(plays.get("current")),
                   _findings(balance, names, made or {}, confirmed), competitive,
                   _order(plays.get("difficulty"), policy, names), _rebalanced(balance, names),
                   _versus(figures.get("players"), names), _in_short(balance, names, confirmed),
                   *_balance_notes(balance, names), *_confirmed_notes(balance, confirmed, names))


def _confirmation(balance: Any, confirmed: Any) -> dict[str, Any] | None:
    """The search's re-measurement of these very findings (current, and made for the stored balance),
    or None when there is none."""
    if not isinstance(confirmed, dict) or not confirmed.get("current") or not isinstance(balance, dict) \
            or confirmed.get("balance_version") != balance.get("version"):
        return None
    return confirmed


def _verdict(e: Mapping[str, Any], confirmed: dict[str, Any] | None) -> dict[str, Any] | None:
    """The search's verdict on one finding, from its re-measurement."""
    for f in (confirmed or {}).get("findings") or ():
        if isinstance(f, dict) and (f.get("setting"), f.get("kind"), f.get("value")) == \
                (e.get("setting"), e.get("kind"), e.get("value")):
            return f
    return None


def _search_said(f: Mapping[str, Any] | None) -> str:
    s = _dict((f or {}).get("search"))
    if not isinstance(s.get("interval"), list):
        return "not measured"
    low, high = s["interval"]
    text = f"{_signed(s.get('effect'))} points on {s.get('games')} games (95 % range {_signed(low)} to {_signed(high)}"
    wide = _dict(s.get("corrected")).get("interval")
    if isinstance(wide, list) and len(wide) == 2:
        text += f", corrected range {_signed(wide[0])} to {_signed(wide[1])}"
    return text + ")"


def _confirmed_notes(balance: Any, confirmed: dict[str, Any] | None,
                     names: Mapping[str, str]) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    """Who confirmed the findings; the one-step player's findings the search did not confirm; the
    difficulty order as the search's win rates tell it."""
    if confirmed is None:
        return "", (), ()
    by = (f"{PLAYER_WORDS['search'].format(n=confirmed.get('simulations'))}, at every seat, "
          f"{confirmed.get('games_per_setting')} games per setting")
    unconfirmed = []
    policy = str(_dict(balance).get("policy", ""))
    measurer = SHORT_WORDS.get(policy, policy)
    for e, _ in _flagged(balance, None):
        f = _verdict(e, confirmed)
        if f is None or f.get("verdict") != "confirmed":
            way = ("its corrected range leaves out 0 the other way" if f and f.get("verdict") == "contradicted"
                   else "its corrected range holds 0")
            unconfirmed.append(f"{_words(str(e.get('value', '')))} ({_setting(e.get('setting', ''), names)}): "
                               f"{_signed(e.get('effect'))} points for {measurer}; the strong player "
                               f"found {_search_said(f)}: {way}")
    return by, tuple(unconfirmed), _order(confirmed.get("difficulty"), "search", names)


SHORT_WORDS = {"search": "the strong player", "greedy": "the careful player", "random": "the random player"}


def _versus(players: Any, names: Mapping[str, str]) -> tuple[str, ...]:
    """Each head-to-head comparison (`roadkit simulate --against`) as a sentence: who won how often
    on the same games, and the gap with its interval."""
    if not isinstance(players, dict) or not players.get("current"):
        return ()
    out = []
    for c in players.get("comparisons") or ():
        if not isinstance(c, dict):
            continue
        games, against = int(c.get("games", 0)), str(c.get("against", ""))
        seat = c.get("seat")
        where = (f"in each seat in turn, the other seats played by {SHORT_WORDS.get(against, against)}"
                 if seat else "")
        base = _dict(c.get("against_won"))
        for row in c.get("challengers") or ():
            if not isinstance(row, dict):
                continue
            who = str(row.get("player", ""))
            won_, gap = _dict(row.get("won")), _dict(row.get("gap"))
            verdict = {"better": "better, by more than chance explains", "worse": "worse, by more than chance explains",
                       "not told apart": "not told apart at this many games"}.get(str(row.get("verdict")), "")
            named = PLAYER_WORDS.get(who, who).format(n=c.get("simulations"))
            label = _setting(c.get("setting", ""), names)
            out.append(f"{label[:1].upper() + label[1:]}: {named}{', ' + where if where else ''}, won "
                       f"{_interval_text(int(won_.get('games', 0)), games)} of {games} games; "
                       f"{SHORT_WORDS.get(against, against)} won {_interval_text(int(base.get('games', 0)), games)} "
                       f"of the same games{' from the same seats' if seat else ''}: "
                       f"{_signed(gap.get('points'))} points "
                       f"({_signed(gap.get('low'))} to {_signed(gap.get('high'))}), {verdict}.")
    return tuple(out)


def _order(found: Any, policy: str, names: Mapping[str, str]) -> tuple[str, ...]:
    """Each expected difficulty step as a sentence: in order, out of order, or not told apart."""
    out: list[str] = []
    for order in found if isinstance(found, list) else ():
        if not isinstance(order, dict) or order.get("policy") != policy:
            continue
        first = len(out)
        for p in order.get("pairs") or ():
            if not isinstance(p, dict):
                continue
            easier, harder = _setting(p.get("easier", ""), names), _setting(p.get("harder", ""), names)
            gap = _dict(p.get("gap"))
            span = f"{_number(gap.get('low'))} to {_number(gap.get('high'))} points"
            verdict = {
                "in order": f"{easier} is easier than {harder}, as expected",
                "out of order": f"{easier} came out harder than {harder}, against what we expected",
                "not told apart": f"{easier} and {harder} could not be told apart at this many games",
            }.get(str(p.get("verdict")), "")
            if verdict:
                said = f"{verdict}: the gap in wins is {span} (95 % range)"
                if len(out) == first and order.get("because"):
                    said += f"; we expect this order because {order['because']}"
                out.append(said[:1].upper() + said[1:])
    return tuple(out)


def _interval_text(hits: int, games: int) -> str:
    """A win rate with its 95 % interval (several kinds of win, such as "won (rotation)", summed)."""
    r = rate(hits, games)

    def pc(x: float) -> str:
        return _number(round(100 * x, 1))
    return f"{pc(r.share)} % ({pc(r.low)}–{pc(r.high)} %)"


MADE_WORDS = {"rulebook": "a rule of the book: we report it and leave it as printed",
              "house": "our own design (house)"}


def _flagged(balance: Any, confirmed: dict[str, Any] | None) -> list[tuple[dict[str, Any], bool]]:
    """The balance effects outside the noise, each with whether it won more than its fair share (only
    from a current report, and read defensively); where the search re-measured them, only those it
    confirmed."""
    if not isinstance(balance, dict) or not balance.get("current"):
        return []
    out = []
    for e in balance.get("effects") or ():
        if not isinstance(e, dict) or not e.get("flagged"):
            continue
        if confirmed is not None and (_verdict(e, confirmed) or {}).get("verdict") != "confirmed":
            continue
        won, against = _dict(e.get("won")).get("percent"), e.get("against")
        if isinstance(won, (int, float)) and isinstance(against, (int, float)):
            out.append((e, won > against))
    return out


def _findings(balance: Any, names: Mapping[str, str], made: Mapping[str, str],
              confirmed: dict[str, Any] | None = None) -> tuple[str, ...]:
    """Each balance effect outside the noise as a sentence: what, where, how often it won against its
    share, which way, by how much with both ranges (the plain one and the corrected one that decides),
    and whose design it is (a rulebook fact is reported, never changed)."""
    out = []
    for e, more in _flagged(balance, confirmed):
        won = _dict(e.get("won"))
        value, where = str(e.get("value", "")), _setting(e.get("setting", ""), names)
        who = MADE_WORDS.get(made.get(value, ""))
        said = (f"{_words(value)} ({_words(e.get('kind', ''))}, {where}): won {_number(won.get('percent'))} % "
                f"({_number(won.get('low'))}–{_number(won.get('high'))} %) of the {e.get('games')} "
                f"{_counted(e)} it was in, against {_number(e.get('against'))} % for {e.get('baseline')}: "
                f"{'more' if more else 'less'} than its share, by more than chance explains ({_ranges(e)})"
                f"{'; the strong player confirms it: ' + _search_said(_verdict(e, confirmed)) if confirmed else ''}"
                f"{'; ' + who if who else ''}.")
        out.append(said[:1].upper() + said[1:])
    return tuple(out)


def _counted(e: Mapping[str, Any]) -> str:
    """The games a share is of: a competitive seat's share is of the games somebody won."""
    return "decided games" if str(e.get("baseline", "")).startswith("an even share") else "games"


def _ranges(e: Mapping[str, Any]) -> str:
    """An effect in points with its 95 % range and, where stored, the corrected range beside it."""
    low, high = (e.get("interval") or [None, None])[:2]
    text = f"{_signed(e.get('effect'))} points, 95 % range {_signed(low)} to {_signed(high)}"
    wide = _dict(e.get("corrected")).get("interval")
    if isinstance(wide, list) and len(wide) == 2:
        text += f", corrected range {_signed(wide[0])} to {_signed(wide[1])}"
    return text


def _balance_notes(balance: Any, names: Mapping[str, str]) -> tuple[str, tuple[str, ...], tuple[str, ...],
                                                                    tuple[str, ...]]:
    """Who measured the balance and what its ranges mean; how often nobody won each competitive
    setting; the settings left out because every game ended alike; the effects outside the plain
    95 % range only (not called findings: among many, some land there by chance)."""
    if not isinstance(balance, dict) or not balance.get("current"):
        return "", (), (), ()
    policy, games = str(balance.get("policy", "")), balance.get("games_per_setting")
    family = balance.get("family") or len([e for e in balance.get("effects") or () if isinstance(e, dict)])
    measured = (f"Measured by {PLAYER_WORDS.get(policy, policy).format(n=balance.get('simulations'))}, "
                f"{games} games per setting. Each effect is the gap, in points, between its win rate and what it is "
                f"compared with; its 95 % range holds the true gap 19 times in 20. Because {family} effects were "
                "measured at once, some would leave out 0 by chance alone, so a finding is only one whose "
                "corrected range (widened for that many at once, the Bonferroni correction) still leaves out 0")
    undecided = tuple(f"{_setting(u.get('setting', ''), names)}: nobody won "
                      f"{_interval_text(int(_dict(u.get('nobody')).get('games', 0)), int(u.get('games', 0)))} "
                      f"of {u.get('games')} games, so a seat's even share is of the games somebody won"
                      for u in balance.get("undecided") or () if isinstance(u, dict)
                      and _dict(u.get("nobody")).get("games"))
    constant = tuple(f"{_setting(c.get('setting', ''), names)}: {'every one' if c.get('won') else 'none'} of its "
                     f"{c.get('games')} games won, so nothing in it can be compared"
                     for c in balance.get("constant") or () if isinstance(c, dict))
    unclear = tuple(f"{_words(str(e.get('value', '')))} ({_setting(e.get('setting', ''), names)}, "
                    f"{_signed(e.get('effect'))} points)"
                    for e in balance.get("effects") or () if isinstance(e, dict) and not e.get("flagged")
                    and isinstance(e.get("interval"), list) and (e["interval"][0] > 0 or e["interval"][1] < 0))
    return measured, undecided, constant, unclear


def _in_short(balance: Any, names: Mapping[str, str], confirmed: dict[str, Any] | None = None) -> str:
    """The findings at a glance: which ones win more than their share, and in which settings, then
    which win less ("Reegad (character) at 2, 3 and 4 players ... win more often than an even share; ...")."""
    ways: dict[bool, dict[tuple[str, str], list[str]]] = {True: {}, False: {}}
    for e, more in _flagged(balance, confirmed):
        key = (_words(str(e.get("value", ""))), _words(str(e.get("kind", ""))))
        ways[more].setdefault(key, []).append(_setting(e.get("setting", ""), names))
    parts = []
    for more, found in ways.items():
        told = [f"{value} ({kind}) at {listed(_shared(where), 'and')}" for (value, kind), where in found.items()]
        if told:
            parts.append(f"{listed(told, 'and')} {'win' if len(told) > 1 else 'wins'} "
                         f"{'more' if more else 'less'} often than an even share")
    return "; ".join(parts)


def _shared(settings: list[str]) -> list[str]:
    """Settings that end alike said once: "2 players", "3 players" -> "2", "3 players"."""
    tails = {s.partition(" ")[2] for s in settings}
    if len(settings) > 1 and len(tails) == 1 and all(s.partition(" ")[0].isdigit() for s in settings):
        return [s.partition(" ")[0] for s in settings[:-1]] + [settings[-1]]
    return settings


def _rebalanced(balance: Any, names: Mapping[str, str]) -> tuple[str, ...]:
    """Each re-balanced house design: what changed, and its effect on the win rate before and after."""
    if not isinstance(balance, dict):
        return ()
    now = [e for e in balance.get("effects") or () if isinstance(e, dict)]
    out = []
    for r in balance.get("rebalanced") or ():
        if not isinstance(r, dict):
            continue
        after = {e.get("setting"): e for e in now if e.get("value") == r.get("value")}
        parts = [f"{_setting(e.get('setting', ''), names)}: {_effect(e)} before, "
                 f"{_effect(after.get(e.get('setting')))} now" for e in r.get("before") or () if isinstance(e, dict)]
        said = (f"{_words(r.get('value', ''))} (our design) was changed: {r.get('change', '')}. "
                f"Its effect on the win rate, in points: {'; '.join(parts)}.")
        order = [str(e.get("setting")) for e in r.get("before") or () if isinstance(e, dict)]
        same = _paired(r.get("paired"), names, order)
        out.append(said + (f" {same}" if same else ""))
    return tuple(out)


def _paired(record: Any, names: Mapping[str, str], order: Sequence[str] = ()) -> str:
    """The design before and after played again on the same games: per setting, how often the games
    were won (or, where the design is dealt, won with it) before and after, and the gap with its paired
    range; beyond the noise marked as such."""
    if not isinstance(record, dict):
        return ""
    parts = []
    rows = [c for c in record.get("comparisons") or () if isinstance(c, dict) and isinstance(c.get("interval"), list)]
    place = {s: i for i, s in enumerate(order)}  # the settings in the game's own order, all games first
    for c in sorted(rows, key=lambda c: (place.get(str(c.get("setting")), len(place)), c.get("kind") != "game")):
        low, high = c["interval"]
        wide = _dict(c.get("corrected")).get("interval") or [low, high]
        mark = ", a finding" if c.get("flagged") else ", unclear" if low > 0 or high < 0 else ""
        what = "all games" if c.get("kind") == "game" else f"games with {_words(str(c.get('value', '')))}"
        before, after = _dict(c.get("before")).get("percent"), _dict(c.get("after")).get("percent")
        parts.append(f"{_setting(c.get('setting', ''), names)}, {what}: {_number(before)} % won before, "
                     f"{_number(after)} % after, "
                     f"{_signed(c.get('effect'))} ({_signed(low)} to {_signed(high)}; corrected "
                     f"{_signed(wide[0])} to {_signed(wide[1])}{mark})")
    if not parts:
        return ""
    return (f"Played again as it was and as it is on the same {record.get('games_per_setting')} games per setting "
            f"(the same deal for both, so the gap is paired): {'; '.join(parts)}.")


def _effect(e: Any) -> str:
    """An effect with its 95 % range, marked when that range leaves out 0: a finding when the
    corrected range does too, else "unclear" (outside the 95 % range only)."""
    if not isinstance(e, dict) or not isinstance(e.get("interval"), list):
        return "not measured"
    low, high = e["interval"]
    mark = ", a finding" if e.get("flagged") else ", unclear" if low > 0 or high < 0 else ""
    return f"{_signed(e.get('effect'))} ({_signed(low)} to {_signed(high)}{mark})"


def _signed(x: Any) -> str:
    """A gap with its sign: +9.2, −32.2 (a minus sign, not a hyphen)."""
    if isinstance(x, (int, float)) and x < 0:
        return f"\u2212{_number(-x)}"
    return f"{'+' if isinstance(x, (int, float)) and x > 0 else ''}{_number(x)}"


def _dict(value: Any) -> dict[Any, Any]:
    """`value` if it is a mapping, else an empty one (the report is read defensively)."""
    return value if isinstance(value, dict) else {}
