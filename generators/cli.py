"""`roadkit`: build the print kit, the rules check and the site from content/.

Every command first runs the one validation pass (generators/validate.py); commands that write then
hold build/ for themselves (one run at a time) and make what is stale through the one build graph
(generators/build_system/build_graph.py).

Every subcommand and option is declared in generators/build_system/commands.py, every exit code in
generators/build_system/errors.py (`Exit`); the editors' guide prints both from there."""

from __future__ import annotations

import sys
import traceback
from collections.abc import Sequence

from generators import streams
from generators.build_system import phases
from generators.build_system.build_cache import caching
from generators.build_system.build_graph import StrayFolder, describe_fault
from generators.build_system.commands import parser
from generators.build_system.errors import (
    CheckUsageError,
    ContentError,
    EnvironmentFault,
    Exit,
    OutputError,
)


def main(argv: Sequence[str] | None = None) -> int:
    try:
        with streams.guarded():
            return _main(argv)
    except streams.OutputLost as exc:  # the terminal or pipe failed, not build/ (a fault there rolled it back)
        return streams.lost(exc)


def _main(argv: Sequence[str] | None) -> int:
    args = parser().parse_args(argv)
    try:
        from generators.run import WRITERS, run  # lazy: the commands' code (0.3 s) loads after parsing: --help

        # Writers remember the loaded content and which sides' text fits (build/.cache/), so a rebuild
        # reads and draws only what changed.
        with caching(args.out / ".cache" if args.command in WRITERS else None):
            return run(args)
    except ContentError as exc:
        print(exc, file=sys.stderr)
        return Exit.MISTAKE
    except (CheckUsageError, StrayFolder) as exc:
        print(f"roadkit {args.command}: {exc}", file=sys.stderr)
        return Exit.MISTAKE
    except EnvironmentFault as exc:
        print(f"roadkit: {exc}", file=sys.stderr)
        return exc.exit_code
    except OSError as exc:  # a file Roadkit needs (not content) could not be read or written
        print(f"roadkit: {OutputError(describe_fault(exc))}", file=sys.stderr)  # one short line
        return Exit.CANNOT_WRITE
    except KeyboardInterrupt:
        return Exit.INTERRUPTED
    except streams.OutputLost:
        raise  # main() reports it: the terminal or pipe failed, not Roadkit
    except Exception:
        traceback.print_exc()
        print("roadkit: internal error (a bug in Roadkit, not in your content); please report it with the "
              "traceback above", file=sys.stderr)
        return Exit.INTERNAL
    finally:
        phases.write()


if __name__ == "__main__":
    sys.exit(main())
