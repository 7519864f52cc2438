"""Every subcommand of `roadkit` and its options: the command line's one declaration, read by the
command that runs it (generators/cli.py) and by the editors' guide, which prints each subcommand's
`--help` from this parser (generators/site/guide.py), so the reference cannot drift from the code."""

from __future__ import annotations

import argparse
from pathlib import Path

from generators.build_system import arguments

DESCRIPTION = "`roadkit`: build the print kit, the rules check and the site from content/."

PAPERS = ("a4", "letter")
def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--game", action="append", help="only this game (folder name); may be repeated")
    p.add_argument("--content", type=Path, default=Path("content"), help="content folder (default: content/)")
    p.add_argument("--out", type=Path, default=Path("build"), help="output folder (default: build/)")
    p.add_argument("-q", "--quiet", action="store_true", help="print only errors and the summary")
    p.add_argument("--engines", type=arguments.folder, default=None, metavar="DIR",
                   help="a folder of more rules packages, beside generators/games/: a game.yaml's engine: may "
                        "name one (a game kept outside the repository, the tests' own game)")


def _print_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--paper", choices=(*PAPERS, "all"), default="all", help="paper size (default: both)")
    p.add_argument("--ink-saver", action="store_true", help="light backgrounds, no full-bleed fills")
    p.add_argument("--proxies", action="store_true",
                   help="write-in stand-ins instead of our house designs, for owners of the boxed games")
    p.add_argument("--back-offset", type=arguments.offset, default=(0.0, 0.0), metavar="X,Y",
                   help="shift back pages by X,Y mm to match your printer's duplex drift")
    p.add_argument("--no-png", action="store_true", help="skip the PNG export of each face")
    p.add_argument("--jobs", "-j", type=arguments.JOBS, default=None, metavar="N",
                   help=f"render on N processes, 1 to {arguments.MAX_JOBS} (default: every core)")
    p.add_argument("--tts", action="store_true",
                   help="also export Tabletop Simulator deck sheets and a saved object per game into build/tts/")
    p.add_argument("--tts-url", metavar="BASE", default=None, type=arguments.url,
                   help="base URL the build/tts/<game>/ folders will be served from "
                        "(default: image names relative to the save, to copy into TTS's Mods/Images)")


def parser() -> argparse.ArgumentParser:
    p = arguments.Parser(prog="roadkit", description=DESCRIPTION)
    sub = p.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="everything: validate, PDFs and PNGs, rules check, site",
                       description="Everything `make build` makes: validates, then the print kit, the rules "
                                   "check, the schemas and the site, each only where stale; stops before the "
                                   "site if a worked example fails (exit 1).")
    _common(b)
    _print_options(b)
    b.add_argument("--no-site", action="store_true", help="skip the site")
    v = sub.add_parser("validate", help="check the content and report the first mistake",
                       description="Loads and checks all content and worked examples; reports the first "
                                   "mistake as file:line:column: key.path: message (exit 2); writes nothing.")
    _common(v)
    pr = sub.add_parser("print", help="the print kit: PDFs for each paper and a PNG per face",
                        description="The PDFs and PNGs of the print kit: the stale ones only, on every core "
                                    "unless -j says otherwise.")
    _common(pr)
    _print_options(pr)
    ch = sub.add_parser("check", help="replay every worked example through the rules engine",
                        description="Replays every worked example, plus the scenario files or folders given "
                                    "as paths: those runs are reported in the terminal only and write nothing "
                                    "to build/, which the site publishes. Exit 1 if one fails.")
    _common(ch)
    ch.add_argument("--json", action="store_true", help="print the report as JSON")
    ch.add_argument("paths", nargs="*", type=Path, help="extra scenario files or folders")
    s = sub.add_parser("site", help="generate the site's pages and build it into build/site/",
                       description="The rules reference site, with the editors' guide, into build/site/. "
                                   "--serve is the live preview behind `make serve`.")
    _common(s)
    s.add_argument("--serve", action="store_true", help="live preview that rebuilds on content edits")
    s.add_argument("--engine", choices=("material", "zensical"), default="material",
                   help="material (default): MkDocs with Material into build/site/; zensical: the same pages "
                        "built by Zensical into build/site-zensical/ (pip install -e '.[zensical]'; "
                        "the editors' guide says what it lacks)")
    sc = sub.add_parser("schema", help="export the JSON Schemas for editors into build/schema/",
                        description="Writes the JSON Schemas of the content files, and one scenario schema "
                                    "per game with an engine, to build/schema/ (`make build` does too).")
    _common(sc)
    sim = sub.add_parser("simulate", help="play whole games with rules-legal players and report results with "
                                          "their 95 %% intervals")
    _common(sim)
    sim.add_argument("--games", type=arguments.GAMES, default=200, metavar="N",
                     help=f"games per setting, 1 to {arguments.MAX_GAMES:,} (default 200)")
    sim.add_argument("--seed", type=arguments.SEED, default=1, metavar="S", help="first seed (default 1)")
    sim.add_argument("--json", action="store_true", help="print the results as JSON")
    sim.add_argument("--jobs", "-j", type=arguments.JOBS, default=None, metavar="N",
                     help=f"play on N processes, 1 to {arguments.MAX_JOBS} (default: every core)")
    sim.add_argument("--policy", action="append", default=None, metavar="P",
                     help="random, greedy (one step ahead), search (Monte Carlo tree search) or search-hints-off "
                          "(the search without the game's rating, to measure it); repeatable "
                          "(default: random, and greedy where the game rates positions)")
    sim.add_argument("--simulations", type=arguments.SIMULATIONS, default=100, metavar="N",
                     help=f"the search player's strength: simulations per move, 1 to {arguments.MAX_SIMULATIONS:,} "
                          "(default 100)")
    sim.add_argument("--write", action="store_true",
                     help="store the figures in content/<game>/figures.json for the site (with the version of "
                          "the rules data and code they were computed for)")
    sim.add_argument("--precision", type=arguments.precision, default=None, metavar="POINTS",
                     help="play more games (on the next seeds) until every result's 95 %% interval is within "
                          "± POINTS percentage points, e.g. 3 (the site's figures use 3)")
    sim.add_argument("--max-games", type=arguments.GAMES, default=20000, metavar="N",
                     help="with --precision, stop at N games per setting all the same (default 20000)")
    sim.add_argument("--setting", action="append", default=None, metavar="LABEL",
                     help="only the setting with this label (e.g. '3 players'); repeatable; not with --write")
    sim.add_argument("--against", default=None, metavar="P",
                     help="head to head: each --policy (default search) against P on the same seeds; in a "
                          "competitive game it takes each seat in turn and P plays the others; with --write the "
                          "comparison is stored for the game's overview")
    sim.add_argument("--scheduler", default=None, metavar="ADDRESS", type=arguments.scheduler,
                     help="play the games on a Dask distributed cluster (tcp://host:8786) instead of local "
                          "processes: the same seeds give the same figures")
    bal = sub.add_parser("balance", help="what each seat, character or card that varies does to the win rate, "
                                        "with 95 %% intervals and the outliers flagged")
    _common(bal)
    bal.add_argument("--games", type=arguments.GAMES, default=None, metavar="N",
                     help=f"games per setting, 1 to {arguments.MAX_GAMES:,} (default 300; with --confirm 100)")
    bal.add_argument("--seed", type=arguments.SEED, default=1, metavar="S", help="first seed (default 1)")
    bal.add_argument("--policy", default="greedy", choices=("random", "greedy", "search"),
                     help="who plays every seat (default greedy)")
    bal.add_argument("--simulations", type=arguments.SIMULATIONS, default=100, metavar="N",
                     help=f"the search player's strength, 1 to {arguments.MAX_SIMULATIONS:,} (default 100)")
    bal.add_argument("--json", action="store_true", help="print the report as JSON")
    bal.add_argument("--write", action="store_true", help="store the findings in content/<game>/figures.json")
    bal.add_argument("--jobs", "-j", type=arguments.JOBS, default=None, metavar="N",
                     help=f"play on N processes, 1 to {arguments.MAX_JOBS} (default: every core)")
    bal.add_argument("--scheduler", default=None, metavar="ADDRESS", type=arguments.scheduler,
                     help="play the games on a Dask distributed cluster (tcp://host:8786) instead of local "
                          "processes: the same seeds give the same findings")
    bal.add_argument("--rebalanced", action="append", default=[], metavar="NAME=CHANGE",
                     help="with --write: record that the house design NAME was changed (CHANGE in words, e.g. "
                          "'Side Cannons=range 2 -> 1 space'), keeping its stored findings as the before; "
                          "may be repeated")
    bal.add_argument("--confirm", action="store_true",
                     help="measure every stored finding, difficulty order and re-balance again with the search "
                          "player at every seat, on the settings they concern (--simulations, --games: the "
                          "budget); with --write, stored as the search's confirmation")
    bal.add_argument("--variant", type=Path, default=None, metavar="FILE",
                     help="a YAML overlay on a game's faces (changed facts or counts): play it and compare it, "
                          "seed for seed, with the content as it is (or with --base)")
    bal.add_argument("--base", type=Path, default=None, metavar="FILE",
                     help="a YAML overlay to compare with instead of the content as it is; alone, the "
                          "content as it is is compared with it (the design before a re-balance: with "
                          "--write --rebalanced, the paired comparison is kept in the record)")
    pl = sub.add_parser("play", help="play a whole game in the terminal against the search player")
    _common(pl)
    pl.add_argument("--setting", default=None, metavar="LABEL", help="which setting (default: the first)")
    pl.add_argument("--seat", action="append", default=None, metavar="S",
                    help="a seat a person plays (default: the first to act); repeat it for people sharing the "
                         "terminal, who pass it between turns")
    pl.add_argument("--seed", type=arguments.SEED, default=1, metavar="S", help="the dice and shuffles (default 1)")
    pl.add_argument("--hint", action="store_true", help="show the search player's choice before each of yours")
    pl.add_argument("--resume", default=None, metavar="FILE", help="go on with a game saved with s (its setting, "
                    "seed and moves; the seed tells every face-down order, so the file is for going on with "
                    "your own game: share it once the game is over)")
    pl.add_argument("--simulations", type=arguments.SIMULATIONS, default=200, metavar="N",
                    help=f"the search player's strength: simulations per move, 1 to {arguments.MAX_SIMULATIONS:,} "
                         "(default 200)")
    pl.add_argument("--seconds", type=arguments.think_time, default=None, metavar="S",
                    help="at most this much think time a move for the search player (CPU seconds, more than 0 and "
                         f"at most {arguments.MAX_SECONDS:g}; it stops at --simulations or S, whichever comes first)")
    return p
