"""Every worked example's steps read in players' words: the lines the examples pages show (what is
done, every roll and draw, why a step is refused), built by the site from the rules check's record,
hold no identifier a player never sees.

Flagged, per game: a component face's id (where it is not also its printed title), an action kind
(`do:`) as written or with its underscores as spaces, any snake_case or kebab-case token that the
game's own player text (rules, glossary, printed titles) never uses, a code of letters and digits
(a tile or space id such as t2) unless it is printed on a map, backticks and braces.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from generators.check.runner import engine_of, prepare, run_scenario
from generators.content.model import LoadedGame
from generators.content.scenario import load_scenarios, plain
from generators.rules.contract import Figure, Place
from generators.rules.facts import game_content
from generators.site.narrative import Step, steps
from tests.helpers import counted_nouns, disagreements, real_content
from tests.told_changes import explains, untold

ROOT = Path(__file__).resolve().parent.parent
CONTENT = real_content()
WITH_ENGINE = [g for g in CONTENT.games if g.engine and list((Path(g.dir) / "examples").glob("*.yaml"))]

TOKEN = re.compile(r"[\w'’-]+")
JOINED = re.compile(r"^[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)+$")  # snake_case or kebab-case
CODE = re.compile(r"^(?=.*\d)(?=.*[A-Za-z])[A-Za-z0-9]+(?::[A-Za-z0-9]+)*$|^\d+:[A-Za-z0-9]+$")  # t2, 1:c1
ORDINAL = re.compile(r"^\d+(st|nd|rd|th|s)$|^\d+[A-Z]?$")  # 3rd, 1970s, a printed card number


def _player_text(game: LoadedGame) -> str:
    """What a player reads of the game besides the examples: rules, glossary, printed titles and text."""
    parts = [r.body for r in game.rules] + [r.meta.title for r in game.rules]
    parts += [f"{t.term} {t.definition} {' '.join(t.aliases)}" for t in game.glossary.terms]
    for comp in game.components:
        parts.append(comp.name)
        for face in comp.faces:
            for side in (face.front, face.back):
                if side is not None:
                    parts += [side.title, side.subtitle or "", side.text or ""]
    text = "\n".join(parts)
    text = re.sub(r"\]\([^)]*\)|\{[^}]*\}|`[^`]*`", " ", text)  # link targets, attributes, code
    return text


@cache
def _vocabulary(game_id: str) -> frozenset[str]:
    game = next(g for g in CONTENT.games if g.id == game_id)
    return frozenset(TOKEN.findall(_player_text(game)))


@cache
def _prose(game_id: str) -> str:
    return " ".join(_player_text(next(g for g in CONTENT.games if g.id == game_id)).lower().split())


@cache
def _printed_spaces(game_id: str) -> frozenset[str]:
    """Space ids printed on the game's maps (a map with `ids: true` prints each in its corner)."""
    game = next(g for g in CONTENT.games if g.id == game_id)
    found: set[str] = set()
    for comp in game.components:
        for face in comp.faces:
            for side in (face.front, face.back):
                spaces = side.art.spaces if side is not None and side.art is not None else None
                if spaces is not None and spaces.ids:
                    found.update(s.id for s in spaces.spaces)
    return frozenset(found)


def _forbidden_ids(game: LoadedGame) -> set[str]:
    """Face ids a player never reads: every id that is not, letter for letter, a word of its title."""
    out = set()
    for comp in game.components:
        for face in comp.faces:
            if face.id not in TOKEN.findall(face.front.title):
                out.add(face.id)
    return out


def problems_in(line: str, game: LoadedGame, kinds: set[str]) -> list[str]:
    found = []
    if re.search(r"[`{}]", line):
        found.append("backticks or braces")
    vocabulary, spaces, ids = _vocabulary(game.id), _printed_spaces(game.id), _forbidden_ids(game)
    for token in TOKEN.findall(line):
        token = token.strip("'’-")
        if not token or token in vocabulary:
            continue
        if "_" in token or (JOINED.match(token) and token.lower() not in {v.lower() for v in vocabulary}):
            found.append(f"identifier {token!r}")
        elif token in ids and token not in spaces:
            found.append(f"face id {token!r}")
        elif CODE.match(token) and not ORDINAL.match(token) and token.split(":")[-1] not in spaces:
            found.append(f"code {token!r}")
    low, prose = line.lower(), _prose(game.id)
    for kind in kinds:
        spaced = re.escape(kind.replace("_", " "))
        if "_" in kind and re.search(rf"(?<![\w-]){spaced}(?![\w-])", low) and not re.search(rf"\b{spaced}\b", prose):
            found.append(f"action kind {kind!r}")
    return found


def step_lines(step: Step) -> list[str]:
    return [step.text, *step.draws, *([step.refused] if step.refused else []), *step.then]


@cache
def _records(game_id: str) -> list[tuple[str, tuple[Step, ...]]]:
    """Each example's step lines, with its ending (where it ends, in words) as one more step."""
    game = next(g for g in CONTENT.games if g.id == game_id)
    engine = engine_of(game)
    facts = game_content(game, engine)
    files = sorted((Path(game.dir) / "examples").glob("*.yaml"))
    out = []
    for loaded in load_scenarios(files, engine, rule_ids=[r.id for r in game.rules]):
        prepared = prepare(engine, facts, loaded)
        record = run_scenario(game.id, prepared, engine)
        told = steps(record, [plain(a) for a in loaded.scenario.actions])
        # A setup the rules refuse ends there: its reason, scanned like any step, stands for the ending.
        out.append((loaded.scenario.id, (*told, Step(prepared.refused or record.get("ending") or ""))))
    return out


@pytest.mark.parametrize("game", WITH_ENGINE, ids=lambda g: g.id)
def test_example_steps_name_nothing_by_its_id(game: LoadedGame) -> None:
    kinds = set(engine_of(game).action_specs)
    records = _records(game.id)
    assert sum(len(s) for _, s in records) > 10, "too few steps: the scan would pass vacuously"
    bad = [f"{ex}: {line!r}: {', '.join(p)}" for ex, ss in records for step in ss for line in step_lines(step)
           if (p := problems_in(line, game, kinds))]
    assert not bad, f"{len(bad)} step lines in developer words:\n" + "\n".join(bad[:40])


@pytest.mark.parametrize("game", WITH_ENGINE, ids=lambda g: g.id)
def test_every_example_ends_with_where_it_ends_in_words(game: LoadedGame) -> None:
    endings = [s[-1].text for _, s in _records(game.id)]
    assert all(len(e) > 10 for e in endings), f"{game.id}: an example without its ending in words"


@pytest.mark.parametrize("game", WITH_ENGINE, ids=lambda g: g.id)
def test_every_roll_and_draw_is_told_in_its_step(game: LoadedGame) -> None:
    """The report's labelled chance results and the worded draws match one for one."""
    engine = engine_of(game)
    facts = game_content(game, engine)
    files = sorted((Path(game.dir) / "examples").glob("*.yaml"))
    told = 0
    for loaded in load_scenarios(files, engine, rule_ids=[r.id for r in game.rules]):
        record = run_scenario(game.id, prepare(engine, facts, loaded), engine)
        for item in record["narrative"]:
            assert len(item.get("draws") or []) == len(item.get("random") or []), item
            told += len(item.get("draws") or [])
    assert told > 0, f"{game.id}: no example rolls or draws anything"


# --- numbers and who did what -------------------------------------------------------------------

ANSWER = re.compile(r"\b([\w'’]+) (?:striking back at|strikes back at|strikes back against|hits back at) ([\w'’]+)")
STRIKE = r"(?:{a} strikes {b}\b|{a}'s (?:strike|drive-by|attack) (?:at|on) {b}\b|{a} attacks {b}\b)"


def answers_without_a_strike(lines: list[str]) -> list[str]:
    """Lines where a car "strikes back" at one that never struck it earlier in the same example."""
    bad = []
    for i, line in enumerate(lines):
        for a, b in ANSWER.findall(line):
            before = " ".join([*lines[:i], line[:line.find(a)]])
            if not re.search(STRIKE.format(a=re.escape(b), b=re.escape(a)), before):
                bad.append(line)
    return bad


def test_counts_agree_with_their_nouns() -> None:
    """Over every example's steps and endings in every game: no "1 positions", no "3 point"."""
    lines = {g.id: [(ex, line) for ex, ss in _records(g.id) for st in ss for line in step_lines(st)]
             for g in WITH_ENGINE}
    nouns = counted_nouns([line for ls in lines.values() for _, line in ls])
    assert {"tiles", "cards"} <= nouns, f"too few counted nouns found: {sorted(nouns)}"
    bad = [f"{g}/{ex}: {d!r}" for g, ls in lines.items() for ex, line in ls for d in disagreements(line, nouns)]
    assert not bad, "\n".join(bad[:40])


DOUBLED = re.compile(r"\b([^\W\d]+)\s+\1\b", re.IGNORECASE)  # "the the", "takes takes"
MISSING = re.compile(r"\b(?:None|null|nan|undefined)\b|\bnone (?:against|to hit|HP|Health|health|damage|points?)\b")


def slips(line: str) -> list[str]:
    """A value that was never filled in ("turn None", "none against 5") or a word written twice."""
    return [m.group(0) for m in (*MISSING.finditer(line), *DOUBLED.finditer(line))]


def test_no_step_line_shows_a_missing_value_or_a_doubled_word() -> None:
    lines = [(g.id, ex, line) for g in WITH_ENGINE for ex, ss in _records(g.id) for st in ss for line in step_lines(st)]
    assert len(lines) > 1000, "too few lines: the scan would pass vacuously"
    bad = [f"{g}/{ex}: {line!r}: {found}" for g, ex, line in lines if (found := slips(line))]
    assert not bad, "\n".join(bad[:40])


def test_the_slip_scan_catches_what_it_is_for() -> None:
    assert slips("X ends turn None") and slips("hits the Tank (none against 5 to hit)")
    assert slips("Y loses loses 2 HP") and slips("the The Event tile")
    assert not slips("X buys nothing; none of the cars moves; 2 2") and not slips("Olena has 3 Logistics")


@pytest.mark.parametrize("game", WITH_ENGINE, ids=lambda g: g.id)
def test_a_car_strikes_back_only_at_one_that_struck_it(game: LoadedGame) -> None:
    bad = [f"{ex}: {line!r}" for ex, ss in _records(game.id)
           for line in answers_without_a_strike([line for st in ss for line in step_lines(st)])]
    assert not bad, "\n".join(bad)


def test_the_number_and_answer_checks_catch_what_they_are_for() -> None:
    nouns = counted_nouns(["2 positions", "a position", "3 points", "1 point", "2 takes", "4 player boards"])
    assert nouns == {"positions", "points"}
    assert disagreements("The 1 positions in between", nouns) and disagreements("scores 3 point", nouns)
    assert not disagreements("The 2 positions in between; 1 point; 4 player boards", nouns)
    three_cars = ["X strikes Y", "draws a 3 for X's strike at Y", "Y strikes X", "Y striking back at X",
                  "Z strikes Y", "draws a 1 for Z striking back at Y"]
    assert answers_without_a_strike(three_cars) == ["draws a 1 for Z striking back at Y"]


def test_the_scan_catches_what_it_is_for() -> None:
    game = next(g for g in CONTENT.games if g.id == "escape-deathrace-2182-micro")
    kinds = {"end_turn", "play_power"}
    assert problems_in("X plays a power card (harpoon-gun)", game, kinds)
    assert problems_in("X drives to t2 → t3", game, kinds)
    assert problems_in("play power: card Harpoon gun", game, kinds)
    assert problems_in("X ends the turn {x}", game, kinds)
    assert problems_in("end_turn", game, kinds)
    assert not problems_in("X ends the turn", game, kinds)


# --- every change of a figure told by its step (tests/told_changes.py) -----------------------------

@cache
def _changes(game_id: str) -> tuple[int, tuple[str, ...]]:
    """Every example of a game replayed step by step: how many figure changes its steps make, and
    each one no line of its step tells."""
    from generators.rules.chance import Chance

    game = next(g for g in CONTENT.games if g.id == game_id)
    engine = engine_of(game)
    facts = game_content(game, engine)
    files = sorted((Path(game.dir) / "examples").glob("*.yaml"))
    changed, bad = 0, []
    for loaded in load_scenarios(files, engine, rule_ids=[r.id for r in game.rules]):
        prepared = prepare(engine, facts, loaded)
        if prepared.state is None:
            continue
        state, chance = prepared.state, Chance(list(loaded.random))
        figures = engine.figures(state, facts)
        for i, step in enumerate(loaded.steps):
            if step.refused is not None:
                continue
            asked = len(chance.log)
            after, events = engine.apply(state, step.action, chance)
            lines = [engine.describe_action(step.action, state, facts),
                     *(engine.describe_random(r.label, r.value, facts) for r in chance.log[asked:]),
                     *engine.describe_events(events, facts, after)]
            now = engine.figures(after, facts)
            changed += sum(1 for f in figures if f in now and figures[f] != now[f])
            bad += [f"{loaded.scenario.id} step {i + 1}: {u}; the lines: {lines}" for u in untold(figures, now, lines)]
            state, figures = after, now
    return changed, tuple(bad)


@pytest.mark.parametrize("game", WITH_ENGINE, ids=lambda g: g.id)
def test_every_change_of_a_figure_is_told_by_its_step(game: LoadedGame) -> None:
    """Each figure a player follows (HP, Health, damage, Logistics, cards and drops held, places) that
    changes inside a step is told by that step's lines: an end-of-turn check, an enemy's attack, a
    collision, damage an ability takes away, a refill; no example changes a number silently."""
    changed, bad = _changes(game.id)
    assert changed >= 20, f"{game.id}: only {changed} changes of a figure: the check would pass vacuously"
    assert not bad, f"{len(bad)} of {changed} changes untold:\n" + "\n".join(bad[:30])


def test_the_figure_check_catches_what_it_is_for() -> None:
    hp = Figure("Z", "HP")
    assert explains("Z loses 2 HP (18 left)", hp, 20, 18) and explains("Z: HP 18", hp, 20, 18)
    assert not explains("Y loses 2 HP", hp, 20, 18) and not explains("Z draws a 2", hp, 20, 18)
    assert explains("Z loses HP", hp, 20, 18) and not explains("Z loses 3 HP", hp, 20, 18)
    assert not explains("Zed loses 2 HP", hp, 20, 18)
    drops = Figure("X", "drop")
    assert explains("X picks a gunfire drop", drops, 0, 1) and not explains("X picks a gunfire drop", drops, 0, 2)
    place = Figure("X", "place")
    assert explains("X drives 1 tile: the Event tile", place, Place("s", "Start"), Place("e", "Event"))
    assert not explains("Y drives 1 tile: the Event tile", place, Place("s", "Start"), Place("e", "Event"))
    assert not explains("X's strike at Z", Figure("X", "HP"), 20, 17)
    boss = Figure("OMG-ZILLA #1", "HP")
    assert explains("OMG-ZILLA #1 loses 3 HP", boss, 10, 7) and not explains("OMG-ZILLA #1 loses 2 HP", boss, 10, 7)
    assert untold({hp: 20}, {hp: 17}, ["X strikes Z", "draws a 3 for X's strike at Z"])
    assert not untold({hp: 20}, {hp: 17}, ["X strikes Z", "Z loses 3 HP"])
    assert not untold({hp: 20}, {hp: 17}, ["Z loses 1 HP", "Z loses 2 HP"])
    # An amount is the named piece's only once the line names it: Y's loss naming Z at its end is not Z's.
    assert untold({hp: 20}, {hp: 14}, ["Z loses 2 HP", "Z loses 3 HP", "Y loses 1 HP to Z's strike (Z is X: one more)"])
    assert not untold({hp: 20}, {hp: 15}, ["Z loses 2 HP", "Z loses 3 HP", "Y loses 3 HP to Z's strike (Z is X)"])
    health = Figure("", "Health")
    assert explains("the van hits for 2: Health -1", health, 4, -1)  # a minus sign is part of its number
    assert not explains("the van hits for 2: Health -1", health, 4, 1)
    assert untold({hp: 20}, {hp: 17}, ["Z loses 1 HP", "Z loses 1 HP"])
    assert untold({hp: 20}, {hp: 17}, ["Z loses 1 HP", "Z loses 1 HP", "Z is on tile 1 (HP low)"])
