"""House variants as content: a YAML overlay on a game's faces, played in place of the content and
compared with it on the same seeds (paired), with located errors for a bad overlay."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from generators.build_system.errors import ContentError
from generators.check.runner import engine_of
from generators.cli import main as cli_main
from generators.content.loader import load_content
from generators.play.balance import Tally, paired
from generators.play.variants import load_variant
from generators.rules.facts import game_content

ROOT = Path(__file__).resolve().parent.parent
SIDE_CANNONS = "game: mission-drive\nname: Side Cannons reach 2 spaces\nfaces:\n  upgrade-cards/side-cannons:\n" \
               "    facts: {effect: {range: 2}}\n"


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "variant.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_an_overlay_changes_the_facts_it_names_and_nothing_else(tmp_path: Path) -> None:
    game = load_content(ROOT / "content", ["mission-drive"]).game("mission-drive")
    engine = engine_of(game)
    base = game_content(game, engine)
    variant = load_variant(_write(tmp_path, SIDE_CANNONS), game, engine)
    assert variant.name == "Side Cannons reach 2 spaces" and variant.changed == ("Side Cannons",)
    old, new = base.face("upgrade-cards", "side-cannons"), variant.content.face("upgrade-cards", "side-cannons")
    assert new.facts.effect.range == 2 != old.facts.effect.range
    assert (new.facts.cost, new.facts.effect.directions) == (old.facts.cost, old.facts.effect.directions)  # merged
    changed = [(c, f.id) for c, faces in base.components.items() for f in faces
               if f != variant.content.face(c, f.id)]
    assert changed == [("upgrade-cards", "side-cannons")]


@pytest.mark.parametrize(("body", "where", "says"), [
    ("faces: {upgrade-cards/side-cannons: {facts: {effect: {range: two}}}}", "3:55",
     "faces.upgrade-cards/side-cannons.facts.effect.range: expected a whole number"),
    ("faces: {upgrade-cards/side-cannons: {facts: {effect: {rnage: 2}}}}", "3:55",
     "unknown key 'rnage' (did you mean 'range'?)"),
    ("faces: {upgrade-cards/side-canons: {count: 1}}", "3:9", "did you mean 'upgrade-cards/side-cannons'?"),
    ("faces: {side-cannons: {cont: 1}}", "3:24", "faces.side-cannons.cont: unknown key 'cont' (did you mean 'count'?)"),
    ("faces: {side-cannons: {count: -1}}", "3:24", "faces.side-cannons.count: expected a whole number of copies"),
])
def test_a_bad_overlay_is_one_located_line(tmp_path: Path, body: str, where: str, says: str,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, f"game: mission-drive\nname: t\n{body}\n")
    game = load_content(ROOT / "content", ["mission-drive"]).game("mission-drive")
    with pytest.raises(ContentError) as err:
        load_variant(path, game, engine_of(game))
    assert f"variant.yaml:{where}: " in str(err.value) and says in str(err.value)
    assert cli_main(["balance", "--variant", str(path), "--games", "1"]) == 2  # before any game is played
    out = capsys.readouterr()
    assert out.out == "" and says in out.err and "Traceback" not in out.err


def test_an_overlay_for_another_game_or_with_write_is_refused(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, SIDE_CANNONS.replace("game: mission-drive", "game: nowhere"))
    assert cli_main(["balance", "--variant", str(path), "--games", "1"]) == 2
    assert "'nowhere' (named by the variant) is no game with an engine" in capsys.readouterr().err
    assert cli_main(["balance", "--variant", str(_write(tmp_path, SIDE_CANNONS)), "--games", "1", "--write"]) == 2
    assert "not of a variant" in capsys.readouterr().err


def test_a_variant_of_one_house_card_is_compared_with_the_base_in_one_command(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, SIDE_CANNONS)
    assert cli_main(["balance", "--variant", str(path), "--games", "12", "-j", "1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)["mission-drive"]
    v = report["variant"]
    assert (v["before"], v["after"], v["changed"]) == ("the content as it is", "Side Cannons reach 2 spaces",
                                                       ["Side Cannons"])
    rows = {(c["setting"], c["kind"], c["value"]): c for c in v["comparisons"]}
    game = load_content(ROOT / "content", ["mission-drive"]).game("mission-drive")
    labels = {s.label for s in engine_of(game).simulation_setups()}
    assert {s for s, k, _ in rows if k == "game"} == labels  # every setting's result, paired
    for c in rows.values():
        p = c["paired"]
        assert sum(p.values()) == c["games"]
        assert c["before"]["games"] == p["both"] + p["only_before"]
        assert c["after"]["games"] == p["both"] + p["only_after"]
        low, high = c["interval"]
        wide = c["corrected"]["interval"]
        assert wide[0] <= low <= c["effect"] <= high <= wide[1]
        assert c["flagged"] == (wide[0] > 0 or wide[1] < 0)
    assert cli_main(["balance", "--variant", str(path), "--games", "12", "-j", "1"]) == 0
    text = capsys.readouterr().out
    assert "Side Cannons reach 2 spaces against the content as it is, on the same seeds (paired;" in text
    assert "upgrade offered at the start Side Cannons: won" in text


def test_paired_comparison_finds_a_real_change_and_not_a_null_one() -> None:
    rng = random.Random(9)
    before, same, better = [], [], []
    for seed in range(600):
        won = rng.random() < 0.3
        lift = won or rng.random() < 0.2  # the variant wins every game the base won, and a fifth more
        features = [(None, "card", rng.choice("ab"))]
        before.append(Tally("solo", ("me",), frozenset({"me"} if won else ()), features, seed))
        same.append(Tally("solo", ("me",), frozenset({"me"} if won else ()), features, seed))
        better.append(Tally("solo", ("me",), frozenset({"me"} if lift else ()), features, seed))
    [null] = [c for c in paired(before, same, "solo") if c["kind"] == "game"]
    assert null["effect"] == 0 and not null["flagged"] and null["paired"]["only_after"] == 0
    found = {(c["kind"], c["value"]): c for c in paired(before, better, "solo")}
    assert found[("game", "won")]["flagged"] and found[("game", "won")]["corrected"]["interval"][0] > 0
    assert found[("game", "won")]["paired"]["only_before"] == 0


def test_a_variant_kept_with_the_game_is_validated_with_its_content(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    import shutil

    content = tmp_path / "content"
    content.mkdir()
    shutil.copy(ROOT / "content" / "icons.yaml", content)
    shutil.copytree(ROOT / "content" / "mission-drive", content / "mission-drive")
    kept = content / "mission-drive" / "variants" / "before-rebalance.yaml"
    assert cli_main(["validate", "--content", str(content)]) == 0  # the shipped one applies
    capsys.readouterr()
    kept.write_text(kept.read_text(encoding="utf-8").replace("range: 2}", "range: far}"), encoding="utf-8")
    assert cli_main(["validate", "--content", str(content)]) == 2
    err = capsys.readouterr().err
    assert "before-rebalance.yaml:8:22: faces.upgrade-cards/side-cannons.facts.effect.range: expected a whole number" \
        in err


def test_a_rebalance_played_again_beside_its_design_before_keeps_the_paired_comparison(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import shutil

    content = tmp_path / "content"
    content.mkdir()
    shutil.copy(ROOT / "content" / "icons.yaml", content)
    shutil.copytree(ROOT / "content" / "mission-drive", content / "mission-drive")
    stored = content / "mission-drive" / "figures.json"
    first = json.loads(stored.read_text(encoding="utf-8"))["balance"]["rebalanced"]
    old = next(r for r in first if r["value"] == "Side Cannons")
    before = content / "mission-drive" / "variants" / "before-rebalance.yaml"
    assert cli_main(["balance", "--content", str(content), "--base", str(before), "--write", "--games", "4", "-j", "1",
                     "--rebalanced", "Side Cannons=the next space only"]) == 0
    capsys.readouterr()
    balance = json.loads(stored.read_text(encoding="utf-8"))["balance"]
    assert "variant" not in balance  # the comparison lives in the record, not beside the findings
    record = next(r for r in balance["rebalanced"] if r["value"] == "Side Cannons")
    assert record["before"] == old["before"] and record["change"] == "the next space only"  # first findings kept
    assert record["paired"]["file"] == "variants/before-rebalance.yaml" and record["paired"]["games_per_setting"] == 4
    assert {c["value"] for c in record["paired"]["comparisons"]} <= {"Side Cannons", "won"}
    assert cli_main(["validate", "--content", str(content)]) == 0
