"""What each `roadkit` command does once its arguments are parsed (generators/cli.py parses them and
maps what goes wrong to exit codes): the validation pass first, then, for the commands that write, the
build graph holding build/ (generators/build_system/build_graph.py)."""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from generators.build_system import arguments, build_cache
from generators.build_system.build_graph import (
    Manifest,
    Target,
    build_lock,
    code_version,
    digest,
    files_key,
    realize,
    source_date_epoch_problem,
    user_path,
)
from generators.build_system.commands import PAPERS
from generators.build_system.errors import SettingError
from generators.build_system.phases import phase
from generators.build_system.tree import files
from generators.site.paths import REPO, SITE_SRC

# Whole games per setting and policy that `roadkit build` plays for each game's overview;
# ROADKIT_SIMULATE=N changes it (0 plays none: the overviews then leave the section out).
SIMULATED_GAMES = 30


def _simulated_games() -> int:
    return arguments.env_games("ROADKIT_SIMULATE", SIMULATED_GAMES)


WRITERS = ("build", "print", "check", "site", "schema")  # the commands that write into --out


def _say(args: argparse.Namespace, message: str) -> None:
    if not args.quiet:
        print(message, flush=True)


def _waiting(message: str) -> None:
    print(f"roadkit: {message}", file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    if args.engines is not None:  # before anything loads a game's rules (the validation pass does)
        from generators.rules.contract import add_engines  # lazy: a no-op run skips it

        add_engines(args.engines)
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
        from generators.play.balance import run_balance  # lazy: a no-op run skips it
        from generators.play.confirm import run_confirm  # lazy: a no-op run skips it

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
        from generators.play.console import play_in_terminal  # lazy: a no-op run skips it
        from generators.play.table import card_texts, reference  # lazy: a no-op run skips it
        from generators.rules.contract import load_engine  # lazy: a no-op run skips it
        from generators.rules.facts import game_content  # lazy: a no-op run skips it

        engine = load_engine(chosen[0].engine or "")
        return play_in_terminal(engine, game_content(chosen[0], engine), setting=args.setting, seat=args.seat,
                                seed=args.seed, hint=args.hint, simulations=args.simulations, seconds=args.seconds,
                                resume=args.resume, rules=reference(chosen[0]), cards=card_texts(chosen[0]),
                                name=chosen[0].id)
    if args.command == "simulate":
        from generators.play.simulate import run_simulate  # lazy: a no-op run skips it
        from generators.play.versus import run_head_to_head  # lazy: a no-op run skips it

        if args.setting and args.write and not args.against:
            print("roadkit simulate: --write stores every setting's figures: leave out --setting", file=sys.stderr)
            return 2
        if args.write and "search-hints-off" in (*(args.policy or ()), args.against):
            print("roadkit simulate: the search with hints off is for measuring the search; --write stores only "
                  "the players the site describes", file=sys.stderr)
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
        build_cache.save()  # validation passed and nothing failed: what it loaded and found to fit is worth remembering
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
    from generators.check.runner import (  # lazy: a no-op run skips it
        assemble_check,
        check_targets,
        owned_by_check,
        report_status,
        run_check,
    )
    from generators.play.bundle import write_play  # lazy: a no-op run skips it

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
            zensical_run.build(content, args.out, say=lambda m: _say(args, m), manifest=manifest)
        return 0
    if args.command == "site":
        from generators.site.build import build_site  # lazy: MkDocs, Jinja: site commands only

        with phase("play"):
            write_play(content, args.out, manifest)
        with phase("site"):
            build_site(content, args.out, say=lambda m: _say(args, m), manifest=manifest)
        return 0
    from generators.pdf.print_targets import warm_up  # lazy: ReportLab, pypdfium2: print commands only

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

    from generators.check.schemas import schema_targets  # lazy: a no-op run skips it

    folder = args.out / "schema"
    targets = schema_targets(content, folder)
    realize(targets, manifest, [str(folder) + "/"], jobs=1)
    return [t.path for t in targets]


def _print_targets(args: argparse.Namespace, content) -> tuple[list, list[str]]:
    """The print kit's targets, and the output prefixes it owns (anything there no target claims is
    stale)."""
    from generators.pdf.options import Options  # lazy: ReportLab, pypdfium2: print commands only
    from generators.pdf.print_targets import (  # lazy: ReportLab, pypdfium2: print commands only
        CALIBRATION,
        calibration_targets,
        document_targets,
        png_targets,
        variant_dir,
    )

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

