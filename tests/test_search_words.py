"""The English search words a rules entry is also indexed by (generators/site/searchwords.py): a verb
and its particle joined and apart, number words for digits, one-slip misspellings; and the content
rules that keep the index honest (no rule-body subsection called just "Example")."""

from __future__ import annotations

import re

import pytest

from generators.site.searchwords import forms, inflections, slips
from tests.helpers import CONTENT


@pytest.mark.parametrize(("written", "typed"), [
    ("Minefield", "minefeild"), ("Reconnaissance", "reconnaisance"), ("boss difficulty", "dificulty"),
    ("Hazard road tiles", "hazzard"), ("Civilian card", "civillian"), ("Checkpoint passed", "checkpiont"),
    ("Battle-It-Out", "battel"), ("Artillery cards", "artilery")])
def test_a_one_slip_misspelling_finds_the_word(written: str, typed: str) -> None:
    assert typed in forms(written)


@pytest.mark.parametrize(("written", "typed"), [
    ("Setting up the race", "setup"), ("Setting up the race", "set up"), ("Setup", "setting up"),
    ("Setup", "set up"), ("Drive-By", "driveby"), ("Cleanup", "clean up")])
def test_a_verb_and_its_particle_are_found_joined_and_apart(written: str, typed: str) -> None:
    assert typed in forms(written)


@pytest.mark.parametrize(("written", "typed"), [
    ("Boss move", "moves"), ("Boss move", "moving"), ("Ramming", "rammed"), ("Slams", "slammed"),
    ("Firing", "fired"), ("Exiting the board", "exits"), ("Enemy card", "enemies"), ("Pit stop", "stopped")])
def test_a_key_word_is_found_by_its_other_inflections(written: str, typed: str) -> None:
    # Zensical's search has no stemmer: "boss moves" found nothing titled "Boss move".
    assert typed in forms(written)


def test_digits_of_the_body_are_found_by_their_words() -> None:
    found = forms("Hand management", "Shield goes back to **0**; keep up to 5 cards; 1.5 mm; 20 HP")
    assert {"zero", "five"} <= set(found)
    assert "one" not in found and "twenty" not in found  # a decimal's digits and large numbers: none


def test_forms_never_repeat_the_written_words_and_keep_the_first_letter() -> None:
    found = forms("Ramming the truck")
    assert "ramming" not in found and "truck" not in found
    assert all(f[0] in "rt" for f in found)
    assert set(forms("Road")) == inflections("road") and slips("ab") == set()  # short words: no misspellings
    assert all(len(f) == len("minefield") or abs(len(f) - len("minefield")) == 1 for f in slips("minefield"))


def test_no_rule_body_has_a_subsection_called_just_example() -> None:
    """A rule-body heading "Example" became its own search result that outranked its rule: an example
    inside a rule is an `!!! example "Example: what it shows"` box, part of the rule's entry."""
    bare = [f"{path.relative_to(CONTENT)}:{n}" for path in sorted(CONTENT.glob("*/rules/*.md"))
            for n, line in enumerate(path.read_text("utf-8").splitlines(), 1)
            if re.match(r"#+\s*Example\b", line) or re.match(r'!!!\s*example\s*"Example"\s*$', line)]
    assert not bare, bare

