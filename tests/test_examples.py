"""Every worked example in content/*/examples/ is its own test item (pytest's YAML-collector pattern).

`verified` and `erratum` pass; `failed` fails with the runner's message, which names the file, the
step, what was expected and what the engine computed. Coverage is derived from the content: every
rules entry the engine can replay (not marked `replayable: false`) has at least one example.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from generators.content.loader import load_content
from generators.engine.runner import fmt, rules_of, run_scenario
from generators.engine.scenario import load_scenarios

ROOT = Path(__file__).resolve().parent.parent
CONTENT = load_content(ROOT / "content")
GAMES = {g.id: g for g in CONTENT.games}
SCENARIOS = sorted((ROOT / "content").glob("*/examples/*.yaml"))
WITH_ENGINE = [g for g in CONTENT.games if g.engine]
# The worked examples printed in each rulebook (counted in the rulebook's text: "Example:" and "Example play").
PRINTED = {"mission-drive": 11}


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_example(path: Path) -> None:
    game = GAMES[path.parent.parent.name]
    [(scenario, doc)] = load_scenarios([path], rule_ids=[r.id for r in game.rules])
    assert scenario.id == path.stem, f"{doc.file}: the file name must be the scenario id ({scenario.id}.yaml)"
    record = run_scenario(game.id, scenario, doc, rules_of(game))
    if record["status"] == "failed":
        detail = f"\n  expected: {fmt(record['expected'])}\n  computed: {fmt(record['computed'])}"
        pytest.fail(record["message"] + detail, pytrace=False)
    assert record["status"] in ("verified", "erratum")


def _scenarios(game) -> list:
    files = sorted((Path(game.dir) / "examples").glob("*.yaml"))
    return [s for s, _ in load_scenarios(files, rule_ids=[r.id for r in game.rules])]


@pytest.mark.parametrize("game", WITH_ENGINE, ids=lambda g: g.id)
def test_every_replayable_rule_has_an_example(game) -> None:
    covered = {s.rule for s in _scenarios(game)}
    missing = sorted(r.id for r in game.rules if r.meta.replayable and r.id not in covered)
    assert not missing, f"{game.id}: rules entries without a worked example: {missing}"


@pytest.mark.parametrize("game_id,count", sorted(PRINTED.items()))
def test_every_printed_example_is_replayed(game_id: str, count: int) -> None:
    sources = Counter(s.source for s in _scenarios(GAMES[game_id]))
    assert sources["printed"] == count
