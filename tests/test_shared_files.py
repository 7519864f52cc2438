"""A game added touches nothing shared: what the tests and the benchmark ask of a game is in its own
content (content/<game>/tests.yaml), and tests that need every game find them. So no shared file in
tests/ or tools/ names a game, save a file that is the game's own (named for it: its engine tests, its
golden records) and the files listed below, each with why it needs that game; and none of those lists
every game (a table a new game would have to join), save a record of the past.

The games are found, not listed: every content/<game>/ folder and every rules package."""

from __future__ import annotations

import re
from pathlib import Path

from tests.helpers import ROOT, real_content

GAME_IDS = sorted(p.parent.name for p in (ROOT / "content").glob("*/game.yaml"))
PACKAGES = sorted(p.parent.name for p in (ROOT / "generators" / "games").glob("*/__init__.py"))
NAMED = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, sorted({*GAME_IDS, *PACKAGES}, key=len, reverse=True)))
                   + r")(?![\w])")
PACKAGE_OF = {g.id: (g.engine,) if g.engine else () for g in real_content().games}
SKIPPED = ("fixtures/kerb-dash", "golden/", "vendor/")  # the sixth game itself; recorded outputs; others' code

# Why a file names a game it is not named for.
SAMPLE = "one game as a sample, to keep the run short: the check holds for any game"
EDITS = "edits a copy of that game's files on purpose: the lines, ids and faces it changes are that game's"
FEATURE = "the game with the feature under test (its map, translation, dealt cards, settings or seats)"
REPORTED = "the cases of an earlier bug report, named as reported"
RECORD = "a record of figures measured before a change: a game added since has none"
PROSE = "names a game in prose or a sample line of text only"
ALLOWED: dict[str, str] = {
    "tests/fuzz_build.py": SAMPLE, "tests/test_bad_input.py": EDITS, "tests/test_balance.py": FEATURE,
    "tests/test_bounds.py": SAMPLE, "tests/test_build_graph.py": EDITS, "tests/test_check_runner.py": FEATURE,
    "tests/test_check_targets.py": EDITS, "tests/test_code_keys.py": EDITS, "tests/test_concurrency.py": SAMPLE,
    "tests/test_confirm.py": SAMPLE, "tests/test_content_folders.py": EDITS, "tests/test_diagrams.py": FEATURE,
    "tests/test_difficulty_order.py": FEATURE, "tests/test_example_wording.py": FEATURE,
    "tests/test_exit_codes.py": SAMPLE, "tests/test_faults.py": EDITS, "tests/test_figures_version.py": FEATURE,
    "tests/test_fuzz.py": SAMPLE, "tests/test_gallery.py": EDITS, "tests/test_growth.py": SAMPLE,
    "tests/test_information.py": FEATURE, "tests/test_layers.py": PROSE, "tests/test_play_browser.py": FEATURE,
    "tests/test_play_links.py": FEATURE, "tests/test_play_terminal.py": FEATURE, "tests/test_print.py": EDITS,
    "tests/test_print_details.py": REPORTED, "tests/test_print_fit.py": EDITS, "tests/test_print_keys.py": EDITS,
    "tests/test_print_labels.py": FEATURE, "tests/test_print_marks.py": SAMPLE,
    "tests/test_print_provenance.py": REPORTED, "tests/test_print_safe.py": REPORTED,
    "tests/test_print_seams.py": FEATURE, "tests/test_print_sheets.py": REPORTED,
    "tests/test_print_sizes.py": REPORTED, "tests/test_print_speed.py": EDITS, "tests/test_progress.py": PROSE,
    "tests/test_read_only.py": SAMPLE, "tests/test_rule_codes.py": FEATURE, "tests/test_safe_links.py": EDITS,
    "tests/test_schema.py": FEATURE, "tests/test_search_player.py": FEATURE, "tests/test_simulate_cluster.py": SAMPLE,
    "tests/test_simulate_setting.py": FEATURE, "tests/test_site.py": REPORTED, "tests/test_site_page_links.py": SAMPLE,
    "tests/test_site_plays.py": FEATURE,
    "tests/test_site_rulings_text.py": FEATURE, "tests/test_table.py": FEATURE, "tests/test_translations.py": FEATURE,
    "tests/test_validate_agrees.py": SAMPLE, "tests/test_variants.py": EDITS, "tests/test_versus.py": FEATURE,
    "tests/test_workers.py": SAMPLE, "tools/sheets_before.json": RECORD,
}
EVERY_GAME_ALLOWED = {RECORD, REPORTED}  # a list of all five is only a record or a bug report's cases


def shared_files() -> list[Path]:
    files = [p for folder in ("tests", "tools") for p in sorted((ROOT / folder).rglob("*"))
             if p.is_file() and "__pycache__" not in p.parts and p.suffix in (".py", ".yaml", ".yml", ".json", ".md")]
    return [p for p in files if not any(s in p.relative_to(ROOT).as_posix() for s in SKIPPED)]


def own_game(path: Path) -> set[str]:
    """The game ids and packages a file is named for (test_engine_<package>.py, golden/<x>/<game>.json,
    fixtures/scenarios/<game>/): those whose first two words its path holds."""
    text = path.relative_to(ROOT).as_posix().replace("-", "_")
    return {name for game_id in GAME_IDS for name in (game_id, *PACKAGE_OF[game_id])
            if any("_".join(n.replace("-", "_").split("_")[:2]) in text for n in (game_id, *PACKAGE_OF[game_id]))}


def named_games(path: Path) -> set[str]:
    return set(NAMED.findall(path.read_text("utf-8", errors="replace")))


def test_no_shared_file_names_a_game_without_its_reason() -> None:
    files = shared_files()
    assert len(files) > 50 and len(GAME_IDS) >= 2, "too few files or games found: the scan would pass vacuously"
    unexplained, stale, tables = [], [], []
    for path in files:
        rel = path.relative_to(ROOT).as_posix()
        named = named_games(path) - own_game(path)
        if named and rel not in ALLOWED:
            unexplained.append(f"{rel}: {sorted(named)}")
        if rel in ALLOWED and not named:
            stale.append(rel)
        ids = {g for g in GAME_IDS if {g, *PACKAGE_OF[g]} & (named | own_game(path))}
        if len(ids) == len(GAME_IDS) and ALLOWED.get(rel) not in EVERY_GAME_ALLOWED:
            tables.append(rel)
    assert not unexplained, ("these files name games: move what they hold per game into the game's tests.yaml "
                             "(or find the game by what the test needs), or list the file here with why:\n"
                             + "\n".join(unexplained))
    assert not stale, f"listed here but naming no game any more: take them off ALLOWED: {stale}"
    assert not tables, f"these files list every game (a table a new game would have to join): {tables}"


def test_every_reason_is_one_of_the_kinds() -> None:
    kinds = {SAMPLE, EDITS, FEATURE, REPORTED, RECORD, PROSE}
    assert set(ALLOWED.values()) <= kinds


def test_the_scan_catches_what_it_is_for(tmp_path: Path) -> None:
    game = GAME_IDS[0]
    sample = ROOT / "tests" / "test_x.py"
    assert own_game(ROOT / "tests" / "golden" / "x" / f"{game}.json") == {game, *PACKAGE_OF[game]}
    assert not own_game(sample)
    table = tmp_path / "table.py"
    table.write_text(repr({g: 1 for g in GAME_IDS}), "utf-8")
    assert named_games(table) == set(GAME_IDS)
    other = tmp_path / "other.py"
    other.write_text(f"GAME = '{game}x'\nPATH = 'content/{game}/game.yaml'\n", "utf-8")
    assert named_games(other) == {game}
