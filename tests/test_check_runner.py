"""The rules-check runner: statuses, messages, located content errors, and its outputs."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from generators.build_system.errors import ContentError
from generators.check.runner import check, prepare, project, run_scenario
from generators.cli import main as cli_main
from generators.content.loader import load_content
from generators.content.scenario import load_scenarios
from generators.games.mission_drive import GAME
from generators.rules.contract import Game
from generators.rules.contract import Game as Engine
from generators.rules.facts import game_content
from tests.helpers import real_content

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "scenarios" / "mission-drive"
MD = real_content().game("mission-drive")


def check_main(argv: list[str]) -> int:
    return cli_main(["check", *argv])


def run_fixture(name: str, engine: Engine = GAME) -> dict[str, Any]:
    [loaded] = load_scenarios([FIXTURES / f"{name}.yaml"], engine)
    return run_scenario("mission-drive", prepare(engine, game_content(MD, engine), loaded), engine)


def test_verified() -> None:
    record = run_fixture("verified")
    assert record["status"] == "verified", record["message"]
    assert record["message"] == ""
    assert record["computed"] == {"hero": {"at": [2, 1]}, "damage_taken": 0}


def test_erratum_needs_a_mismatch_and_a_note() -> None:
    record = run_fixture("erratum")
    assert record["status"] == "erratum"
    assert "damage_taken: expected 1, computed 0" in record["message"]
    assert record["discrepancy"].startswith("Fixture note")


def test_mismatch_without_note_fails_naming_file_expected_and_computed() -> None:
    record = run_fixture("mismatch")
    assert record["status"] == "failed"
    assert "mismatch.yaml: final outcome: damage_taken: expected 1, computed 0" in record["message"]
    assert record["expected"] == {"hero": {"at": [2, 1]}, "damage_taken": 1}
    assert record["computed"] == {"hero": {"at": [2, 1]}, "damage_taken": 0}


def test_stale_note_fails() -> None:
    record = run_fixture("stale-note")
    assert record["status"] == "failed"
    assert "stale" in record["message"]


def test_illegal_action_fails_listing_legal_actions() -> None:
    record = run_fixture("illegal-action")
    assert record["status"] == "failed"
    message = record["message"]
    assert "illegal-action.yaml: actions[1]: illegal action {do: move, slot: right, mirror: true}" in message
    assert "mirror token is already face down" in message
    # The legal alternatives are listed, including the same slot without the used mirror.
    assert "Legal: " in message and "{do: move, slot: right}" in message
    assert "{do: move, slot: right, mirror: true}" not in message.split("Legal: ")[1]


def _like_game(cls: type[Game]) -> Any:
    """GAME's parts, assembled into a subclass of Game that changes one method."""
    return cls(**{f.name: getattr(GAME, f.name) for f in dataclasses.fields(GAME) if f.init})


def test_engine_exception_fails_with_the_error() -> None:
    class Broken(Game):
        def apply(self, state: Any, action: Any, chance: Any) -> Any:
            raise ZeroDivisionError("boom")

    record = run_fixture("engine-exception", _like_game(Broken))
    assert record["status"] == "failed"
    assert "engine-exception.yaml: the engine raised ZeroDivisionError: boom" in record["message"]


def test_engine_never_sees_expect() -> None:
    seen: list[Any] = []

    class Spy(Game):
        def apply(self, state: Any, action: Any, chance: Any) -> Any:
            seen.append(action)
            return super().apply(state, action, chance)

    run_fixture("step-mismatch", _like_game(Spy))
    assert seen and all(not hasattr(action, "expect") for action in seen)
    assert all(type(a) in GAME.action_specs.values() for a in seen), "the engine gets typed actions"


def test_unknown_expect_key_fails() -> None:
    record = run_fixture("unknown-expect-key")
    assert record["status"] == "failed"
    assert "engine does not compute 'hero.helth'" in record["message"]


def test_step_expectation_is_checked_after_its_step() -> None:
    record = run_fixture("step-mismatch")
    assert record["status"] == "failed"
    assert "step-mismatch.yaml: after actions[0]: hero.at[1]: expected 2, computed 1" in record["message"]
    assert record["steps"] == [{"step": "actions[0]", "expected": {"hero": {"at": [2, 2]}},
                                "computed": {"hero": {"at": [2, 1]}}, "ok": False}]


def test_missing_random_result_fails() -> None:
    record = run_fixture("chance-exhausted")
    assert record["status"] == "failed"
    assert "actions[0]" in record["message"] and "ran out of scripted random results" in record["message"]


def test_unused_random_result_fails() -> None:
    record = run_fixture("unused-random")
    assert record["status"] == "failed"
    assert "1 scripted result(s) were never used (pink boss cards)" in record["message"]


def test_random_result_for_another_roll_fails() -> None:
    record = run_fixture("chance-mismatch")
    assert record["status"] == "failed"
    assert "random[0] answers 'target weapon card', but the engine asked for 'pink boss cards'" in record["message"]


def test_expected_refusal_passes_only_with_its_reason() -> None:
    record = run_fixture("refused")
    assert record["status"] == "verified", record["message"]
    assert record["steps"][0]["ok"] and "already face down" in record["steps"][0]["reason"]
    wrong = run_fixture("refused-wrong-reason")
    assert wrong["status"] == "failed"
    assert 'does not say "not the hero' in wrong["message"]
    allowed = run_fixture("refused-but-allowed")
    assert allowed["status"] == "failed"
    assert "should be refused" in allowed["message"] and "the rules allowed it" in allowed["message"]


def test_outcome_can_report_the_legal_actions() -> None:
    record = run_fixture("legal-listed")
    assert record["status"] == "verified", record["message"]


@pytest.mark.parametrize(
    ("name", "line", "column", "keypath", "text"),
    [
        ("malformed-setup", 10, 5, "setup.hero.att", "unknown key 'att'"),
        ("malformed-action", 13, 28, "actions[1].arrows", "unknown key 'arrows'"),
        ("off-road-setup", 10, 21, "setup.enemies[1].at", "off the road"),
    ],
)
def test_malformed_setup_or_action_is_a_located_content_error(name: str, line: int, column: int, keypath: str,
                                                               text: str) -> None:
    with pytest.raises(ContentError) as caught:
        run_fixture(name)
    err = caught.value
    assert err.file.endswith(f"{name}.yaml")
    assert (err.line, err.column) == (line, column)
    assert str(err).split(": ")[1] == keypath
    assert text in err.message


def test_duplicate_id_is_reported_at_the_second_file() -> None:
    with pytest.raises(ContentError) as caught:
        load_scenarios([FIXTURES / "duplicates"], GAME)
    assert caught.value.file.endswith("second.yaml")
    assert (caught.value.line, caught.value.column, caught.value.keypath) == (1, 1, ("id",))
    assert "duplicate scenario id 'same-id'" in caught.value.message


def test_unknown_rule_id_is_a_content_error() -> None:
    with pytest.raises(ContentError, match="unknown rule id 'ramming'"):
        load_scenarios([FIXTURES / "verified.yaml"], GAME, rule_ids={"moving"})


def test_projection_compares_only_expected_keys() -> None:
    computed = {"a": {"b": 1, "c": 2}, "d": [{"x": 1, "y": 2}], "flag": True}
    assert project({"a": {"b": 1}, "d": [{"x": 1}]}, computed) == ({"a": {"b": 1}, "d": [{"x": 1}]}, [])
    _, problems = project({"flag": 1}, computed)  # a boolean never equals a number
    assert problems == ["flag: expected 1, computed true"]
    _, problems = project({"d": []}, computed)
    assert problems == ["d: expected [], computed [{x: 1, y: 2}]"]


GOOD = ["verified", "erratum", "mismatch", "stale-note", "illegal-action"]


@pytest.fixture(scope="module")
def content():
    return load_content(ROOT / "content", ["mission-drive"])


def _fixture_summary(examples: list[dict[str, Any]]) -> dict[str, int]:
    ours = [e for e in examples if "fixtures" in e["file"]]
    return {s: sum(1 for e in ours if e["status"] == s) for s in ("verified", "erratum", "failed")}


def test_check_writes_report_and_svgs(tmp_path: Path, content) -> None:
    paths = [FIXTURES / f"{n}.yaml" for n in GOOD]
    report = check(content, None, paths, tmp_path)
    # The content's own examples run too, and all of them pass; the fixtures add their statuses.
    assert _fixture_summary(report.examples) == {"verified": 1, "erratum": 1, "failed": 3}
    assert report.summary["failed"] == 3
    data = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert data["summary"] == report.summary
    first = data["examples"][0]
    for key in ("game", "id", "title", "rule", "source", "status", "expected", "computed", "message", "file",
                "section", "claim", "discrepancy", "before_svg", "after_svg"):
        assert key in first
    assert first["game"] == "mission-drive"
    assert (tmp_path / first["before_svg"]).read_text(encoding="utf-8").startswith("<svg")
    assert (tmp_path / "svg" / "mission-drive" / "verified-after.svg").is_file()
    # Two actions: one drawing per completed step; the illegal second step draws no "after".
    illegal = next(e for e in data["examples"] if e["id"] == "illegal-action")
    assert illegal["after_svg"] is None
    assert illegal["step_svgs"] == ["svg/mission-drive/illegal-action-step-0.svg"]
    # The engines' readings are rulings in notes.yaml, told on the site: the report carries none of its own.
    assert "notes" not in data
    assert not list(tmp_path.rglob("*.tmp")), "atomic writes leave no temporary files"


def test_check_output_is_deterministic(tmp_path: Path, content) -> None:
    paths = [FIXTURES / f"{n}.yaml" for n in GOOD]
    check(content, None, paths, tmp_path / "one")
    check(content, None, paths, tmp_path / "two")
    one = sorted(p.relative_to(tmp_path / "one") for p in (tmp_path / "one").rglob("*") if p.is_file())
    two = sorted(p.relative_to(tmp_path / "two") for p in (tmp_path / "two").rglob("*") if p.is_file())
    assert one == two
    for rel in one:
        assert (tmp_path / "one" / rel).read_bytes() == (tmp_path / "two" / rel).read_bytes(), rel


def test_check_main_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base = ["--content", str(ROOT / "content"), "--game", "mission-drive", "--out", str(tmp_path)]
    assert check_main([*base, str(FIXTURES / "verified.yaml"), str(FIXTURES / "erratum.yaml")]) == 0
    assert ", 0 failed" in capsys.readouterr().out
    assert check_main([*base, "--json", str(FIXTURES / "mismatch.yaml")]) == 1
    printed = json.loads(capsys.readouterr().out)
    assert printed["summary"]["failed"] == 1
    assert _fixture_summary(printed["examples"]) == {"verified": 0, "erratum": 0, "failed": 1}
    assert check_main([*base, str(FIXTURES / "malformed-setup.yaml")]) == 2
    err = capsys.readouterr().err
    assert "malformed-setup.yaml:10:5: setup.hero.att: unknown key 'att'" in err
    assert check_main(["--out", str(tmp_path), "--game", "no-such-game"]) == 2
    assert "no game 'no-such-game'" in capsys.readouterr().err


def test_path_outside_a_game_needs_game(tmp_path: Path) -> None:
    stray = tmp_path / "stray.yaml"
    stray.write_text((FIXTURES / "verified.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    assert check_main(["--out", str(tmp_path / "out"), str(stray)]) == 2
    code = check_main(["--content", str(ROOT / "content"), "--game", "mission-drive", "--out", str(tmp_path / "out"),
                       str(stray)])
    assert code == 0


def test_a_dealt_sample_is_logged_as_written() -> None:
    """A sample (cards dealt) is logged as a list, so a replay's narrative is JSON-ready and equals its
    golden copy; the engine still gets the cards in order."""
    from generators.content.scenario import Scripted
    from generators.rules.chance import Chance

    scripted = Chance([Scripted("deal", ["b", "a"])])
    assert scripted.sample("deal", ["a", "b", "c"], 2) == ("b", "a")
    seeded = Chance.seeded(3)
    dealt = seeded.sample("deal", ["a", "b", "c"], 2)
    for chance, value in ((scripted, ["b", "a"]), (seeded, list(dealt))):
        assert chance.log[-1].value == value and isinstance(chance.log[-1].value, list)


def test_a_setup_the_rules_refuse_is_an_expectation_like_any_other() -> None:
    """`expect: {refused: text}`: the setup's refusal is judged, without stopping the run."""
    record = run_fixture("setup-refused")
    assert record["status"] == "verified", record["message"]
    assert "off the road" in record["computed"]["refused"]
    other = run_fixture("setup-refused-other-reason")
    assert other["status"] == "failed"
    assert "does not say 'too many motorcycles'" in other["message"]
    allowed = run_fixture("setup-not-refused")
    assert allowed["status"] == "failed"
    assert "should be refused" in allowed["message"] and "the rules allowed it" in allowed["message"]


def test_a_refused_setup_expectation_compares_nothing_else(tmp_path: Path) -> None:
    text = (FIXTURES / "setup-refused.yaml").read_text().replace("  refused: off the road",
                                                                 "  refused: off the road\n  damage_taken: 0")
    (tmp_path / "mixed.yaml").write_text(text)
    with pytest.raises(ContentError) as exc:
        load_scenarios([tmp_path / "mixed.yaml"], GAME)
    assert exc.value.keypath == ("expect",)


def test_scenario_files_given_as_paths_never_reach_build(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`roadkit check PATH` reports the author's draft in the terminal; build/check, which the
    published site shows, stays as the plain check left it."""
    from tests.helpers import fingerprint

    out = tmp_path / "build"
    base = ["--content", str(ROOT / "content"), "--game", "mission-drive", "--out", str(out)]
    assert check_main(base) == 0
    before = fingerprint(out)
    capsys.readouterr()
    assert check_main([*base, "--json", str(FIXTURES / "verified.yaml"), str(FIXTURES / "mismatch.yaml")]) == 1
    printed = json.loads(capsys.readouterr().out)
    assert _fixture_summary(printed["examples"]) == {"verified": 1, "erratum": 0, "failed": 1}
    assert check_main([*base, str(FIXTURES / "verified.yaml")]) == 0
    assert "nothing written to build/" in capsys.readouterr().out
    assert fingerprint(out) == before
    assert "fixtures" not in (out / "check" / "report.json").read_text("utf-8")


def test_the_summary_names_the_report_where_it_lands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The run writes into a staging copy of build/ and commits it at the end: the line a person reads
    names the report's final place, never the staging copy's temporary name."""
    out = tmp_path / "build"
    assert cli_main(["check", "--game", "vampire-chase", "--out", str(out)]) == 0
    said = capsys.readouterr()
    line = next(x for x in (said.out + said.err).splitlines() if "(report: " in x)
    named = line.split("(report: ", 1)[1].rstrip(")")
    assert "roadkit-tmp" not in named and Path(named).name == "report.json", line
    assert (out / "check" / "report.json").is_file()
