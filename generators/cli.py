"""`roadkit`: build the print kit, the rules check and the site from content/.

Every command first runs the one validation pass (generators/validate.py); commands that write then
hold build/ for themselves (one run at a time) and make what is stale through the one build graph
(generators/build_system/outputs.py).

Exit codes (also in the README): 0 success; 1 a rules example failed; 2 a content mistake or a
command-line mistake (one located line, nothing in build/ touched); 3 build/ cannot be written
(read-only, full, no permission); 4 MkDocs failed; 5 a bad environment variable (SOURCE_DATE_EPOCH);
70 an internal error (a bug: the traceback is printed); 130 interrupted. For 3 to 5 the line says
what failed, and build/ is left as it was."""

from __future__ import annotations

import argparse
import os
import sys
import time
import traceback
from collections.abc import Sequence
from pathlib import Path

from generators import streams
from generators.build_system import arguments, memo, phases
from generators.build_system.errors import CheckUsageError, ContentError, EnvironmentFault, OutputError, SettingError
from generators.build_system.memo import caching
from generators.build_system.outputs import (
    Manifest,
    StrayFolder,
    Target,
    build_lock,
    code_version,
    describe_fault,
    digest,
    files_key,
    realize,
    source_date_epoch_problem,
    user_path,
)
from generators.build_system.phases import phase
from generators.build_system.tree import files
from generators.check.runner import assemble_check, check_targets, owned_by_check, report_status, run_check
from generators.check.schemas import schema_targets
from generators.play.balance import run_balance
from generators.play.bundle import write_play
from generators.play.confirm import run_confirm
from generators.play.console import play_in_terminal
from generators.play.simulate import run_simulate
from generators.play.table import card_texts, reference
from generators.play.versus import run_head_to_head
from generators.rules.contract import load_engine
from generators.rules.facts import game_content
from generators.site.paths import REPO, SITE_SRC

PAPERS = ("a4", "letter")
# Whole games per setting and policy that `roadkit build` plays for each game's overview;
# ROADKIT_SIMULATE=N changes it (0 plays none: the overviews then leave the section out).
SIMULATED_GAMES = 30


def _simulated_games() -> int:
    return arguments.env_games("ROADKIT_SIMULATE", SIMULATED_GAMES)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--game", action="append", help="only this game (folder name); may be repeated")
    p.add_argument("--content", type=Path, default=Path("content"), help="content folder (default: content/)")
    p.add_argument("--out", type=Path, default=Path("build"), help="output folder (default: build/)")
    p.add_argument("-q", "--quiet", action="store_true", help="print only errors and the summary")


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
    p = arguments.Parser(prog="roadkit", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="everything: validate, PDFs and PNGs, rules check, site")
    _common(b)
    _print_options(b)
    b.add_argument("--no-site", action="store_true", help="skip the site")
    v = sub.add_parser("validate", help="check the content and report the first mistake")
    _common(v)
    pr = sub.add_parser("print", help="the print kit: PDFs for each paper and a PNG per face")
    _common(pr)
    _print_options(pr)
    ch = sub.add_parser("check", help="replay every worked example through the rules engine")
    _common(ch)
    ch.add_argument("--json", action="store_true", help="print the report as JSON")
    ch.add_argument("paths", nargs="*", type=Path, help="extra scenario files or folders")
    s = sub.add_parser("site", help="generate the site's pages and build it into build/site/")
    _common(s)
    s.add_argument("--serve", action="store_true", help="live preview that rebuilds on content edits")
    s.add_argument("--engine", choices=("material", "zensical"), default="material",
                   help="material (default): MkDocs with Material into build/site/; zensical: the same pages "
                        "built by Zensical into build/site-zensical/ (pip install -e '.[zensical]'; "
                        "README: what it lacks)")
    sc = sub.add_parser("schema", help="export the JSON Schemas for editors into build/schema/")
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
                     help="random, greedy (one step ahead) or search (Monte Carlo tree search); repeatable "
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
    pl.add_argument("--seat", default=None, metavar="S", help="the seat you play (default: the first to act)")
    pl.add_argument("--seed", type=arguments.SEED, default=1, metavar="S", help="the dice and shuffles (default 1)")
    pl.add_argument("--hint", action="store_true", help="show the search player's choice before each of yours")
    pl.add_argument("--resume", default=None, metavar="FILE", help="go on with a game saved with s (its setting, "
                    "seed and moves)")
    pl.add_argument("--simulations", type=arguments.SIMULATIONS, default=200, metavar="N",
                    help=f"the search player's strength: simulations per move, 1 to {arguments.MAX_SIMULATIONS:,} "
                         "(default 200)")
    pl.add_argument("--seconds", type=arguments.think_time, default=None, metavar="S",
                    help="at most this much think time a move for the search player (CPU seconds, more than 0 and "
                         f"at most {arguments.MAX_SECONDS:g}; it stops at --simulations or S, whichever comes first)")
    return p


WRITERS = ("build", "print", "check", "site", "schema")  # the commands that write into --out


def main(argv: Sequence[str] | None = None) -> int:
    try:
        with streams.guarded():
            return _main(argv)
    except streams.OutputLost as exc:  # the terminal or pipe failed, not build/ (a fault there rolled it back)
        return streams.lost(exc)


def _main(argv: Sequence[str] | None) -> int:
    args = parser().parse_args(argv)

    try:
        # Writers remember the loaded content and which sides' text fits (build/.cache/), so a rebuild
        # reads and draws only what changed.
        with caching(args.out / ".cache" if args.command in WRITERS else None):
            return _run(args)
    except ContentError as exc:
        print(exc, file=sys.stderr)
        return 2
    except (CheckUsageError, StrayFolder) as exc:
        print(f"roadkit {args.command}: {exc}", file=sys.stderr)
        return 2
    except EnvironmentFault as exc:
        print(f"roadkit: {exc}", file=sys.stderr)
        return exc.exit_code
    except OSError as exc:  # a file Roadkit needs (not content) could not be read or written
        print(f"roadkit: {OutputError(describe_fault(exc))}", file=sys.stderr)  # one short line
        return 3
    except KeyboardInterrupt:
        return 130
    except streams.OutputLost:
        raise  # main() reports it: the terminal or pipe failed, not Roadkit
    except Exception:
        traceback.print_exc()
        print("roadkit: internal error (a bug in Roadkit, not in your content); please report it with the "
              "traceback above", file=sys.stderr)
        return 70
    finally:
        phases.write()


def _say(args: argparse.Namespace, message: str) -> None:
    if not args.quiet:
        print(message, flush=True)


def _waiting(message: str) -> None:
    print(f"roadkit: {message}", file=sys.stderr, flush=True)


def _run(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    if problem := source_date_epoch_problem():  # every command: validate's text fit reads it too (ReportLab)
        raise SettingError(problem)
    if args.command == "build":
        _simulated_games()  # a bad ROADKIT_SIMULATE stops the run before anything is read or written
    if args.command in WRITERS and (problem := arguments.out_problem(args.out, args.content)):
        print(f"roadkit {args.command}: {problem}", file=sys.stderr)
        return 2
    zensical = args.command == "site" and args.engine == "zensical"
    if zensical and args.serve:
        print("roadkit site: --serve previews with MkDocs; it does not take --engine zensical", file=sys.stderr)
        return 2
    if args.command == "site" and args.serve:
        from generators.site.build import serve  # lazy: MkDocs, Jinja: site commands only

        return serve(args.content, args.out)  # reports content mistakes live, keeping the last good pages
    run = _run_inputs(args) if args.command in WRITERS else None
    if run is not None and not zensical and _nothing_to_do(args, run):  # Zensical's build is not in the manifest
        _say(args, f"up to date (nothing changed since the last `roadkit {args.command}`) in "
             f"{time.perf_counter() - started:.2f} s")
        return 0
    from generators.validate import validate  # lazy: ReportLab (0.5 s): a no-op run skips it

    with phase("validate"):
        checked = validate(args.content, args.game, args.paths if args.command == "check" else ())
    content = checked.content
    if args.command == "validate":
        n = sum(len(w.scenarios) for w in checked.work)
        _say(args, f"content OK: {len(content.games)} games, "
             f"{sum(len(g.components) for g in content.games)} components, {n} examples")
        return 0
    if args.command == "balance":
        if args.confirm:
            if args.variant or args.base or args.rebalanced or args.policy != "greedy":
                print("roadkit balance: --confirm plays the search on the stored findings: leave out --variant, "
                      "--base, --rebalanced and --policy", file=sys.stderr)
                return 2
            return run_confirm(content, args.game, games=args.games or 100, seed=args.seed,
                               simulations=args.simulations, as_json=args.json, write=args.write, jobs=args.jobs,
                               scheduler=args.scheduler)
        return run_balance(content, args.game, games=args.games or 300, seed=args.seed, policy=args.policy,
                           simulations=args.simulations, as_json=args.json, write=args.write,
                           changes=args.rebalanced, jobs=args.jobs, scheduler=args.scheduler,
                           variant=args.variant, base=args.base)
    if args.command == "play":
        chosen = [g for g in content.games if g.engine and (not args.game or g.id in args.game)]
        if len(chosen) != 1:
            names = ", ".join(g.id for g in content.games if g.engine)
            print(f"roadkit play: choose one game with --game; the games are: {names}", file=sys.stderr)
            return 2

        engine = load_engine(chosen[0].engine or "")
        return play_in_terminal(engine, game_content(chosen[0], engine), setting=args.setting, seat=args.seat,
                                seed=args.seed, hint=args.hint, simulations=args.simulations, seconds=args.seconds,
                                resume=args.resume, rules=reference(chosen[0]), cards=card_texts(chosen[0]),
                                name=chosen[0].id)
    if args.command == "simulate":
        if args.setting and args.write and not args.against:
            print("roadkit simulate: --write stores every setting's figures: leave out --setting", file=sys.stderr)
            return 2
        if args.against:
            return run_head_to_head(content, args.game, games=args.games, seed=args.seed, as_json=args.json,
                                    jobs=args.jobs, quiet=args.quiet, challengers=args.policy or ["search"],
                                    against=args.against, simulations=args.simulations, scheduler=args.scheduler,
                                    write=args.write, settings=args.setting)
        return run_simulate(content, args.game, games=args.games, seed=args.seed, as_json=args.json,
                            jobs=args.jobs, quiet=args.quiet, policies_wanted=args.policy,
                            simulations=args.simulations, scheduler=args.scheduler, write=args.write,
                            precision=None if args.precision is None else args.precision / 100,
                            max_games=args.max_games, settings=args.setting)

    with build_lock(args.out, _waiting):
        manifest = Manifest.load(args.out)
        # Every step writes into the run's staging copy of build/; build/ changes at one commit at the end.
        with manifest.transaction() as into:
            status = _write(argparse.Namespace(**{**vars(args), "out": into}), checked, manifest)
        memo.save()  # validation passed and nothing failed: what it loaded and found to fit is worth remembering
        if status == 0 and run is not None:
            manifest.record_run(args.command, run)
    if args.command in ("print", "build") and status == 0:
        _say(args, f"done in {time.perf_counter() - started:.2f} s")
    return status


def _run_inputs(args: argparse.Namespace) -> str | None:
    """Everything a writing run reads: its options, every file of the content folder, the code and
    tools (`code_version`), the hand-written site; None where that cannot be told cheaply (extra
    scenario files given to `check`)."""

    if getattr(args, "paths", None):
        return None
    options = {k: v for k, v in sorted(vars(args).items()) if k not in ("quiet", "jobs", "json", "out")}
    root = args.content
    content = files(root)  # linked folders followed, as the loader follows them
    site = [REPO / "mkdocs.yml", *files(SITE_SRC)]
    return digest(code_version(), repr(options), os.environ.get("ROADKIT_SIMULATE"), files_key(root, content),
                  files_key(REPO, site))


def _nothing_to_do(args: argparse.Namespace, run: str) -> bool:
    if args.command == "check" and args.json:
        return False  # it prints the report
    try:
        return Manifest.load(args.out).run_current(args.command, run)
    except OSError:
        return False


def _write(args: argparse.Namespace, checked, manifest) -> int:
    """The writing commands, build/ held: each makes only what is stale."""

    content = checked.content
    if args.command == "schema":
        with phase("schema"):
            paths = _schemas(args, content, manifest)
        for path in paths:
            _say(args, f"wrote {path}")
        return 0
    if args.command == "check":
        with phase("check"):
            return run_check(content, args.paths, args.out, games=args.game, as_json=args.json, quiet=args.quiet,
                             loaded=checked.work, manifest=manifest)
    if args.command == "site" and args.engine == "zensical":
        from generators.site import zensical_run  # lazy: MkDocs, Jinja: site commands only

        with phase("site"):
            zensical_run.build(content, args.out, say=lambda m: _say(args, m))
        return 0
    if args.command == "site":
        from generators.site.build import build_site  # lazy: MkDocs, Jinja: site commands only

        with phase("play"):
            write_play(content, args.out, manifest)
        with phase("site"):
            build_site(content, args.out, say=lambda m: _say(args, m), manifest=manifest)
        return 0
    from generators.pdf.kit import warm_up  # lazy: ReportLab, pypdfium2: print commands only

    targets, owned = _print_targets(args, content)
    simulate = _simulated_games() if args.command == "build" else 0
    if args.command == "build":  # the check's games and simulations share the workers with the print kit
        targets = check_targets(checked.work, args.out, simulate) + targets
        owned += owned_by_check(args.out, args.game)
    with phase("print" if args.command == "print" else "print + check"):
        report = realize(targets, manifest, owned, on_make=lambda t: _say(args, f"  making {user_path(t.path)}"),
                         jobs=args.jobs, prepare=lambda: warm_up(content))
    _say(args, f"print kit{' and check' if args.command == 'build' else ''}: {len(report.made)} made, "
         f"{len(report.kept)} up to date")
    if args.command == "print":
        return 0
    with phase("schema"):
        _schemas(args, content, manifest)
    with phase("check"):
        status = report_status(assemble_check(checked.work, args.out, manifest, simulate), args.out / "check",
                               as_json=False, quiet=True)
    if status != 0:
        print("roadkit build: a worked example failed; see build/check/report.json "
              "(run `roadkit check` for details). The site was not rebuilt.", file=sys.stderr)
        return status
    if not args.no_site:
        from generators.site.build import build_site  # lazy: MkDocs, Jinja: site commands only

        with phase("play"):
            write_play(content, args.out, manifest)
        with phase("site"):
            build_site(content, args.out, say=lambda m: _say(args, m), manifest=manifest)
    return 0


def _schemas(args: argparse.Namespace, content, manifest) -> list[Path]:
    """build/schema/: made from the code alone (and which games have engines)."""

    folder = args.out / "schema"
    targets = schema_targets(content, folder)
    realize(targets, manifest, [str(folder) + "/"], jobs=1)
    return [t.path for t in targets]


def _print_targets(args: argparse.Namespace, content) -> tuple[list, list[str]]:
    """The print kit's targets, and the output prefixes it owns (anything there no target claims is
    stale)."""
    from generators.pdf.kit import (  # lazy: ReportLab, pypdfium2: print commands only
        CALIBRATION,
        calibration_targets,
        document_targets,
        png_targets,
        variant_dir,
    )
    from generators.pdf.options import Options  # lazy: ReportLab, pypdfium2: print commands only

    papers = PAPERS if args.paper == "all" else (args.paper,)
    targets: list[Target] = []
    owned: list[str] = []
    variants = [Options(paper=paper, back_offset=args.back_offset, ink_saver=args.ink_saver, proxies=args.proxies)
                for paper in papers]
    targets.extend(calibration_targets(variants, args.out))
    owned += [str(args.out / "print" / variant_dir(opts) / CALIBRATION) for opts in variants]
    for game in content.games:
        targets.extend(document_targets(content, game, variants, args.out))
        owned += [str(args.out / "print" / variant_dir(opts) / f"{game.id}-") for opts in variants]
        if not args.no_png:
            targets.extend(png_targets(content, game, args.out))
            owned.append(str(args.out / "png" / game.id) + "/")
        if args.tts:
            from generators.pdf.tts import tts_targets  # lazy: ReportLab, pypdfium2: print commands only

            url = f"{args.tts_url.rstrip('/')}/{game.id}/" if args.tts_url else None
            targets.extend(tts_targets(content, game, args.out, url))
            owned.append(str(args.out / "tts" / game.id) + "/")
    return targets, owned


if __name__ == "__main__":
    sys.exit(main())
