"""Each game's quick reference answers what a player needs first: a turn in order (the rulebook's
steps, named in the book's order), setup and who starts, every phase, how the game is won and lost,
scoring and costs. Each is checked against a checklist written from its rulebook's sections
(each game's tests.yaml `quick:`); every answer is whole sentences with its number, never a
pointer, and every ruling it rests on is linked as ours."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from generators.content.model import QuickTrial
from generators.site.quick import load_quick
from tests.helpers import real_content

ROOT = Path(__file__).resolve().parent.parent
GAMES = {g.id: g for g in real_content().games}
# The rulebook transcriptions sit beside the repository (../shared/rulebooks); ROADKIT_RULEBOOKS
# points elsewhere. A checkout without them skips the tests that compare with the books.
BOOKS = Path(os.environ.get("ROADKIT_RULEBOOKS") or ROOT.parent / "shared" / "rulebooks")


def book_text(game) -> str:
    path = BOOKS / game.game.rulebook
    if not path.is_file():
        pytest.skip(f"no rulebook transcription at {path} (set ROADKIT_RULEBOOKS)")
    return path.read_text(encoding="utf-8")

CARDS = ("Setup", "Win and loss")


def trial(game_id: str) -> QuickTrial:
    """What the game's tests.yaml says its quick reference must answer."""
    quick = GAMES[game_id].tests.quick
    assert quick is not None, f"{game_id}: no `quick:` in its tests.yaml"
    return quick


def _flat(text: str) -> str:
    return " ".join(re.sub(r"[*_`]|\]\([^)]*\)|\[", "", text).split()).casefold()


def in_order(text: str, words: list[str]) -> list[str]:
    """The words not found in `text` in the given order (each searched after the one before)."""
    missing, at = [], 0
    for w in words:
        i = text.find(w.casefold(), at)
        if i < 0:
            missing.append(w)
        else:
            at = i + len(w)
    return missing


def test_in_order_needs_the_order() -> None:
    assert in_order("command, then move, then shoot", ["command", "move", "shoot"]) == []
    assert in_order("shoot, then move, then command", ["command", "move", "shoot"]) == ["move", "shoot"]


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_turn_steps_are_the_rulebooks_in_its_order(game_id: str) -> None:
    book = book_text(GAMES[game_id])
    turn = trial(game_id).turn
    assert turn.starts in book
    section = " ".join(book[book.index(turn.starts):].split()).casefold()
    assert not in_order(section, [s.book for s in turn.steps]), "the step list is not the rulebook's"


def quick_text(game) -> str:
    """The quick reference as a player reads it: each answer's title and text, flattened."""
    return _flat("\n".join(f"{c.title}. {c.text}" for c in load_quick(game).cards))


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_quick_reference_turn_names_every_step_in_order(game_id: str) -> None:
    missing = in_order(quick_text(GAMES[game_id]), [s.ours for s in trial(game_id).turn.steps])
    assert not missing, f"{game_id}: the quick reference's turn lacks, in order: {missing}"


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_quick_reference_says_who_starts_the_start_and_the_end(game_id: str) -> None:
    game = GAMES[game_id]
    cards = {c.title: c for c in load_quick(game).cards}
    assert set(CARDS) <= set(cards), f"{game_id}: quick reference cards {sorted(cards)}"
    assert all(c.rule for c in cards.values()), "every answer names the rule it restates"
    book = " ".join(book_text(game).split()).casefold()
    first = trial(game_id).first
    assert first.book.casefold() in book and first.ours in quick_text(game)
    assert re.search(r"\d", cards["Setup"].text)
    end = _flat(cards["Win and loss"].text)
    assert re.search(r"\bwins?\b|\bwon\b", end) and re.search(r"\blose|\blost\b|\bloses\b", end)


def test_every_game_has_a_checklist() -> None:
    missing = [g for g in GAMES if GAMES[g].tests.quick is None]
    assert not missing, f"no `quick:` in these games' tests.yaml: {missing}"


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_checklist_is_the_rulebooks(game_id: str) -> None:
    """Each checklist item quotes words its rulebook prints (so it was written from the book)."""
    book = " ".join(book_text(GAMES[game_id]).split()).casefold()
    absent = [i.book for i in trial(game_id).checklist if " ".join(i.book.split()).casefold() not in book]
    assert not absent, f"{game_id}: checklist words not in the rulebook: {absent}"


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_quick_reference_passes_its_rulebook_checklist(game_id: str) -> None:
    game = GAMES[game_id]
    text = quick_text(game)
    raw = "\n".join(c.text for c in load_quick(game).cards)
    missing = [f"{i.section}: {w!r}" for i in trial(game_id).checklist for w in i.says if w.casefold() not in text]
    assert not missing, f"{game_id}: the quick reference does not say: {missing}"
    notes = {n.id for n in game.notes.notes}
    for item in trial(game_id).checklist:
        if item.ruling:
            assert item.ruling in notes, f"{game_id}: no ruling {item.ruling!r}"
            assert f"[our ruling](#{item.ruling})" in raw, \
                f"{game_id}: {item.section} rests on the ruling {item.ruling!r}, not marked as ours"


_LINK = re.compile(r"\[([^\]]*)\]\(([^)]*)\)")
_SENTENCE_END = re.compile(r"[.!?](?:\*\*)?\)?$")


def answer_problems(text: str) -> list[str]:
    """What keeps an answer from being whole: a cut (an ellipsis, no full stop), a bare pointer (a
    link where the answer should be), no number; each list item and paragraph is checked alone."""
    problems = []
    if not re.search(r"\*\*\d", text):
        problems.append("no number in bold")
    for part in re.split(r"\n\s*\n|\n\s*(?=\d+\.\s|[-*+]\s)", text.strip()):
        part = " ".join(part.split())
        answer = re.sub(r"^(?:\d+\.|[-*+])\s+", "", part).rpartition("? ")[2]  # after a question, its answer
        words = _LINK.sub("", answer).split()
        if "…" in part or "..." in part:
            problems.append(f"cut: {part[-40:]!r}")
        elif not _SENTENCE_END.search(part):
            problems.append(f"not a whole sentence: {part[-40:]!r}")
        elif len(words) < 4:
            problems.append(f"a pointer, not an answer: {part!r}")
        elif answer[:1].islower():
            problems.append(f"starts mid-sentence: {answer[:40]!r}")
    return problems


def test_answer_problems_finds_cuts_and_pointers() -> None:
    assert answer_problems("Roll **2** dice and move that far.") == []
    assert answer_problems("Spend it on **1** charge or upgrade with a free…")
    assert answer_problems("Car bomb: who does it hurt? [The Battle-It-Out panel](#battle-it-out).")
    assert answer_problems("Car bomb: who does it hurt? the Battle-It-Out panel.")
    assert answer_problems("Roll the dice and move.")  # no number
    assert answer_problems("1. Roll **2** dice.\n2. then move")


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_answer_is_whole_sentences_with_its_number(game_id: str) -> None:
    found = {c.title: answer_problems(c.text) for c in load_quick(GAMES[game_id]).cards}
    found = {k: v for k, v in found.items() if v}
    assert not found, f"{game_id}: {found}"


def test_a_quick_reference_naming_no_rule_is_a_located_content_error(tmp_path: Path) -> None:
    from dataclasses import replace

    from generators.build_system.errors import ContentError

    game = next(iter(GAMES.values()))
    (tmp_path / "quick-reference.yaml").write_text(
        f"turn: [{game.rules[0].id}]\ncards:\n  - title: Who starts\n    rule: nowhere\n    text: Anyone.\n",
        encoding="utf-8")
    with pytest.raises(ContentError) as err:
        load_quick(replace(game, dir=str(tmp_path)))
    message = str(err.value)
    assert "quick-reference.yaml:4:" in message and "cards[0].rule" in message and "'nowhere'" in message


def test_validation_finds_a_bad_link_in_a_quick_reference_answer(tmp_path: Path) -> None:
    import shutil

    from generators.build_system.errors import ContentError
    from generators.validate import validate

    content = tmp_path / "content"
    game = sorted(GAMES)[0]
    shutil.copytree(ROOT / "content" / game, content / game)
    shutil.copy(ROOT / "content" / "icons.yaml", content / "icons.yaml")
    path = content / game / "quick-reference.yaml"
    text = path.read_text(encoding="utf-8")
    broken = re.sub(r"\*\*\d+\*\*", "[two](#no-such-rule)", text, count=1)  # every answer has a number
    assert broken != text
    path.write_text(broken, encoding="utf-8")
    with pytest.raises(ContentError) as err:
        validate(content, [game])
    line = next(n for n, t in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if "no-such-rule" in t)
    assert f"quick-reference.yaml:{line}:" in str(err.value) and "'#no-such-rule'" in str(err.value)
