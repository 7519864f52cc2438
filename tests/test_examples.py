"""Every worked example in content/*/examples/ is its own test item (pytest's YAML-collector pattern).

`verified` and `erratum` pass; `failed` fails with the runner's message, which names the file, the
step, what was expected and what the engine computed. Each example's whole final outcome (every key
the engine computes, its events included) is pinned in `tests/golden/outcomes/<game>/<id>.json`, and its
wording (the steps in players' words, where it ends) apart in `tests/golden/wording/<game>/<id>.json`, so a
wording change never rewrites an outcome file: a change in anything an engine computes shows as a diff
to review, and `pytest --update-golden` rewrites them. An erratum's golden file pins the value the
engine computes, not the printed one.
Coverage is derived from the content: every rules entry the engine can replay (not marked
`replayable: false`) has at least one example.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from generators.check.runner import engine_of, fmt, prepare, run_scenario
from generators.content.scenario import load_scenarios
from generators.rules.facts import game_content
from tests.helpers import real_content

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"
CONTENT = real_content()
GAMES = {g.id: g for g in CONTENT.games}
SCENARIOS = sorted((ROOT / "content").glob("*/examples/*.yaml"))
WITH_ENGINE = [g for g in CONTENT.games if g.engine]


def _run(path: Path) -> dict:
    game = GAMES[path.parent.parent.name]
    engine = engine_of(game)
    [loaded] = load_scenarios([path], engine, rule_ids=[r.id for r in game.rules])
    assert loaded.scenario.id == path.stem, f"{loaded.doc.file}: the file name must be the scenario id"
    return run_scenario(game.id, prepare(engine, game_content(game, engine), loaded), engine, full=True)


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_example(path: Path, request: pytest.FixtureRequest) -> None:
    record = _run(path)
    if record["status"] == "failed":
        detail = f"\n  expected: {fmt(record['expected'])}\n  computed: {fmt(record['computed'])}"
        pytest.fail(record["message"] + detail, pytrace=False)
    assert record["status"] in ("verified", "erratum")
    pinned = {"outcomes": {"status": record["status"], "outcome": record["outcome"]},
              "wording": {"narrative": record["narrative"], "ending": record["ending"]}}
    for kind, value in pinned.items():
        golden = GOLDEN / kind / path.parent.parent.name / f"{path.stem}.json"
        text = json.dumps(value, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
        if request.config.getoption("--update-golden"):
            golden.parent.mkdir(parents=True, exist_ok=True)
            golden.write_text(text, encoding="utf-8")
            continue
        assert golden.is_file(), f"no golden file {golden.relative_to(ROOT)}: run pytest --update-golden and review it"
        assert json.loads(golden.read_text(encoding="utf-8")) == value, (
            f"{path.relative_to(ROOT)}: the computed {kind} differ from {golden.relative_to(ROOT)}; if the change "
            "is intended, run pytest --update-golden and review the diff")


def test_no_golden_file_without_its_example() -> None:
    known = {(p.parent.parent.name, p.stem) for p in SCENARIOS}
    orphans = [p for p in GOLDEN.glob("*/*/*.json") if (p.parent.name, p.stem) not in known]
    assert not orphans, f"golden files of deleted examples: {orphans}"


def _scenarios(game) -> list:
    files = sorted((Path(game.dir) / "examples").glob("*.yaml"))
    return [s.scenario for s in load_scenarios(files, engine_of(game), rule_ids=[r.id for r in game.rules])]


@pytest.mark.parametrize("game", WITH_ENGINE, ids=lambda g: g.id)
def test_every_replayable_rule_has_an_example(game) -> None:
    covered = {s.rule for s in _scenarios(game)}
    missing = sorted(r.id for r in game.rules if r.meta.replayable and r.id not in covered)
    assert not missing, f"{game.id}: rules entries without a worked example: {missing}"


@pytest.mark.parametrize("game_id", [g.id for g in WITH_ENGINE if g.tests.printed_examples is not None])
def test_every_printed_example_is_replayed(game_id: str) -> None:
    """As many examples marked printed as the rulebook prints (the game's tests.yaml `printed_examples`)."""
    sources = Counter(s.source for s in _scenarios(GAMES[game_id]))
    assert sources["printed"] == GAMES[game_id].tests.printed_examples
