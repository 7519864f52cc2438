"""The game overview's "whole games played by the computer": from what `roadkit simulate` writes
into the check's report to the lines a player reads (settings, results in percent, averages)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from generators.check.runner import engine_of
from generators.content.loader import load_content
from generators.play.simulate import POLICIES, simulate
from generators.rules.facts import game_content
from generators.site.context import face_titles
from generators.site.played_games import _signed, careful_player, game_plays

ROOT = Path(__file__).resolve().parent.parent


def test_simulated_games_read_as_settings_results_and_averages() -> None:
    game = load_content(ROOT / "content", ["mission-drive"]).game("mission-drive")
    engine = engine_of(game)
    settings = simulate(game.engine or "", game_content(game, engine), games=3, jobs=1)
    plays = game_plays({"policies": POLICIES, "settings": settings})
    assert [p.name for p in plays] == sorted({s["policy"] for s in settings}, key=list(POLICIES).index)
    labels = [s.label for s in engine.simulation_setups()]
    for policy in plays:
        assert policy.says == POLICIES[policy.name]
        assert [r.setting for r in policy.rows] == [label.replace("-", " ") for label in labels]
        for row in policy.rows:
            assert row.games == 3
            assert row.results.endswith("%)") and "_" not in row.results
            # every share carries its 95 % interval, which holds the share
            for share, low, high in re.findall(r"([\d.]+) % \(([\d.]+)–([\d.]+) %\)", row.results):
                assert float(low) <= float(share) <= float(high)
            assert re.search(r"\d % \(\d", row.results)
            assert "actions" in row.figures and "_" not in row.figures


def test_no_simulations_no_section() -> None:
    assert game_plays(None) == ()
    assert game_plays({"settings": "not a list of settings"}) == ()


def test_the_careful_players_figures_read_as_win_rates_with_intervals() -> None:

    lines = [{"policy": "random", "setting": "rookie", "games": 400, "results": {"lost": {"games": 400}}},
             {"policy": "greedy", "setting": "rookie", "games": 400,
              "results": {"won": {"games": 147}, "lost": {"games": 253}}},
             {"policy": "greedy", "setting": "short-game", "games": 400,
              "results": {"won (rotation)": {"games": 100}, "won (technologies)": {"games": 40},
                          "lost": {"games": 260}}}]
    balance = {"current": True, "effects": [
        {"flagged": True, "kind": "seat", "value": "1st to play", "setting": "3 players", "games": 900,
         "won": {"percent": 42.7, "low": 39.5, "high": 46.0}, "against": 33.3, "baseline": "a fair share of 1 in 3"},
        {"flagged": False, "kind": "seat", "value": "2nd to play", "setting": "3 players", "games": 900,
         "won": {"percent": 33.0, "low": 30.0, "high": 36.0}, "against": 33.3, "baseline": "a fair share"}]}
    careful = careful_player({"plays": {"current": False, "settings": lines}, "balance": balance})
    assert careful is not None and "tries every move" in careful.player  # the strongest measured: greedy
    assert [r.setting for r in careful.rows] == ["rookie", "short game"]
    assert careful.rows[0].won == "36.8 % (32.2–41.6 %)"
    assert careful.rows[1].won.startswith("35 % (")  # both kinds of win counted
    assert not careful.current
    assert len(careful.findings) == 1 and "1st to play" in careful.findings[0] and "39.5–46" in careful.findings[0]
    assert "more than its share" in careful.findings[0] and "rulebook" not in careful.findings[0]  # a seat: nobody's
    assert careful_player({}) is None


def test_a_setting_named_after_a_card_reads_as_its_printed_title() -> None:
    """The vampire chase's settings are its mission cards: the overview names them as printed, in the
    table, the difficulty order and the findings alike."""

    from generators.site.played_games import careful_player

    game = load_content(ROOT / "content").game("vampire-chase")
    titles = face_titles(game)
    figures = json.loads((Path(game.dir) / "figures.json").read_text(encoding="utf-8"))
    careful = careful_player(figures, titles)
    assert careful is not None
    shown = [r.setting for r in careful.rows]
    stored = {s["setting"] for s in figures["plays"]["settings"]}
    assert sorted(shown) == sorted(titles[label] for label in stored), shown  # "Red Mile", not "red-mile"
    assert careful.order and all(any(t in line for t in shown) for line in careful.order)


def test_head_to_head_reads_as_sentences_with_the_gap_and_its_interval() -> None:
    """`roadkit simulate --against` figures on the overview: each player's wins on the same games, the
    gap with its interval and the verdict, in players' words; stale ones are not shown."""
    from generators.site.played_games import careful_player

    plays = {"current": True, "settings": [{"setting": "red-mile", "policy": "greedy", "games": 100,
                                            "results": {"won": {"games": 30, "percent": 30.0}}}]}
    comparison = {"setting": "red-mile", "against": "greedy", "games": 150, "seat": "each in turn", "simulations": 100,
                  "against_won": {"games": 45, "percent": 30.0, "low": 23.2, "high": 37.8},
                  "challengers": [{"player": "search", "won": {"games": 90, "percent": 60.0},
                                   "gap": {"points": 30.0, "low": 18.9, "high": 40.1}, "verdict": "better"}]}
    careful = careful_player({"plays": plays, "players": {"current": True, "comparisons": [comparison]}},
                             {"red-mile": "Red Mile"})
    assert careful is not None
    [line] = careful.versus
    assert line.startswith("Red Mile: ") and "100 simulated continuations" in line
    assert "won 60 % (" in line and "of 150 games" in line and "the careful player won 30 % (" in line
    assert "+30 points (+18.9 to +40.1), better, by more than chance explains" in line
    assert "in each seat in turn" in line and "from the same seats" in line
    stale = careful_player({"plays": plays, "players": {"current": False, "comparisons": [comparison]}})
    assert stale is not None and stale.versus == ()


def test_a_finding_says_which_way_and_whose_design_it_is() -> None:
    """Escape Deathrace's printed characters come out unbalanced: the overview says which win more and
    which less than their share, that they are the rulebook's (reported, not changed), in sentences."""
    game = load_content(ROOT / "content").game("escape-deathrace-2182-micro")
    figures = json.loads((Path(game.dir) / "figures.json").read_text(encoding="utf-8"))
    figures["balance"]["current"] = True
    careful = careful_player(figures, face_titles(game), game.made_by())
    assert careful is not None and careful.findings
    flagged = [e for e in figures["balance"]["effects"] if e.get("flagged")]
    assert len(careful.findings) == len(flagged)
    for line, e in zip(careful.findings, flagged, strict=True):
        assert line.startswith(f"{e['value']} (character, ")
        way = "more" if e["won"]["percent"] > e["against"] else "less"
        assert f": {way} than its share, by more than chance explains (" in line
        assert line.endswith("; a rule of the book: we report it and leave it as printed.")
        low, high = e["interval"]
        assert f"95 % range {_signed(low)} to {_signed(high)}" in line
        if "corrected" in e:  # the range that decides the flag, beside the plain one
            wide = e["corrected"]["interval"]
            assert f"corrected range {_signed(wide[0])} to {_signed(wide[1])}" in line
            assert wide[0] > 0 or wide[1] < 0
    more = {e["value"] for e in flagged if e["won"]["percent"] > e["against"]}
    stronger, _, weaker = careful.in_short.partition("; ")
    assert stronger.endswith("win more often than an even share") and weaker.endswith("less often than an even share")
    assert more and all(f"{v} (character) at " in stronger for v in more)
    assert all(f"{e['value']} (character) at " in weaker for e in flagged if e["value"] not in more)
    house = {"current": True, "effects": [dict(flagged[0], value="Bat Swarm")]}
    [line] = careful_player({**figures, "balance": house}, {}, {"Bat Swarm": "house"}).findings  # type: ignore[union-attr]
    assert line.endswith("; our own design (house).")


def test_a_gap_below_zero_has_a_minus_sign() -> None:
    from generators.site.played_games import _signed
    assert (_signed(-32.2), _signed(9.2), _signed(0.0)) == ("\u221232.2", "+9.2", "0")


def test_the_balance_names_its_player_its_games_and_what_it_left_out() -> None:
    """Who measured the balance, over how many games; the games nobody won as their own line; a setting
    that always ends alike said once; an effect outside the plain 95 % range only, named but not called
    a finding (never shown as noise)."""
    effect = {"kind": "seat", "value": "3rd to play", "setting": "3 players", "games": 250, "effect": -6.0,
              "won": {"percent": 27.3, "low": 22.1, "high": 33.1}, "against": 33.3, "interval": [-11.2, -0.2],
              "corrected": {"interval": [-14.0, 2.4], "level": 99.81}, "flagged": False,
              "baseline": "an even share of the decided games (1 in 3)"}
    balance = {"current": True, "policy": "greedy", "games_per_setting": 300, "family": 27, "effects": [effect],
               "undecided": [{"setting": "3 players", "games": 300, "nobody": {"games": 48}}],
               "constant": [{"setting": "sunrise-run", "games": 300, "won": False}]}
    plays = {"current": True, "settings": [{"policy": "greedy", "setting": "3 players", "games": 10,
                                            "results": {"won": {"games": 4}}}]}
    careful = careful_player({"plays": plays, "balance": balance}, {"sunrise-run": "Sunrise Run"})
    assert careful is not None and careful.findings == ()
    assert careful.measured.startswith("Measured by the careful player (it tries every move")
    assert "300 games per setting" in careful.measured and "27 effects" in careful.measured
    assert careful.undecided == ("3 players: nobody won 16 % (12.3–20.6 %) of 300 games, so a seat's even share "
                                 "is of the games somebody won",)
    assert careful.constant == ("Sunrise Run: none of its 300 games won, so nothing in it can be compared",)
    assert careful.unclear == ("3rd to play (3 players, \u22126 points)",)


def test_a_rebalance_played_again_beside_its_design_before_reads_as_a_paired_gap() -> None:
    def row(setting: str, kind: str, value: str, effect: float, interval: list, flagged: bool) -> dict:
        return {"setting": setting, "kind": kind, "value": value, "effect": effect, "interval": interval,
                "corrected": {"interval": [interval[0] - 5, interval[1] + 5]}, "flagged": flagged,
                "before": {"percent": 50.0}, "after": {"percent": 50.0 + effect}}
    record = {"value": "Side Cannons", "change": "next space only",
              "before": [{"setting": "rookie", "effect": 26.6, "interval": [15.3, 37.1], "flagged": True},
                         {"setting": "expert", "effect": 1.0, "interval": [-5.0, 7.0], "flagged": False}],
              "paired": {"games_per_setting": 300, "comparisons": [
                  row("expert", "upgrade", "Side Cannons", -14.8, [-23.4, -6.0], False),
                  row("rookie", "upgrade", "Side Cannons", -20.0, [-30.0, -12.0], True),
                  row("rookie", "game", "won", 1.3, [-3.5, 6.2], False)]}}
    plays = {"current": True, "settings": [{"policy": "greedy", "setting": "rookie", "games": 10,
                                            "results": {"won": {"games": 4}}}]}
    careful = careful_player({"plays": plays, "balance": {"effects": [], "rebalanced": [record]}})
    assert careful is not None
    [line] = careful.rebalanced
    said = line.partition("Played again as it was and as it is on the same 300 games per setting")[2]
    assert said.index("rookie, all games") < said.index("rookie, games with Side Cannons") < said.index("expert,")
    assert "rookie, games with Side Cannons: 50 % won before, 30 % after, \u221220 (\u221230 to \u221212; " \
           "corrected \u221235 to \u22127, a finding)" in said
    assert "expert, games with Side Cannons: 50 % won before, 35.2 % after, \u221214.8 (\u221223.4 to \u22126; " \
           "corrected \u221228.4 to \u22121, unclear)" in said
    assert "rookie, all games: 50 % won before, 51.3 % after, +1.3 (\u22123.5 to +6.2; corrected \u22128.5 to " \
           "+11.2)" in said
