"""Inflected forms of a translated page's words, for the search index: Material's search (lunr) has
no Ukrainian stemmer (lunr-languages has none; MkDocs falls back to Russian's, whose Snowball rules
miss Ukrainian endings: -ів, -і, -ою, -ємо), and it searches each query word as a prefix of an
indexed word. So each word of an entry is indexed with its other forms: the stem (the word less its
longest ending) followed by every ending, and a player's "дронів" or "поранених" then finds the
entry that says "дрони" or "поранений". Only the longest endings are written: the prefix search
finds the shorter ones in them ("дронам" answers "дрона").

A language is one table of endings here; a language without one gets no extra forms.
"""

from __future__ import annotations

import re

# Ukrainian inflectional endings of nouns, adjectives, participles and verbs (present, past,
# infinitive, imperative), as they end written words; a stem keeps at least MIN_STEM letters.
_UK = ("а я у ю і ї и е є о ь й ом ем єм ою ею єю ів їв ей ям ам ах ях ами ями ові еві єві "
       "ий ій ого ому им ім ої ую юю ая яя их іх ими іми "
       "ти ть ться ємо имо ете ите ють ять уть ать ить ив ила ило или ла ло ли")
ENDINGS: dict[str, tuple[str, ...]] = {"uk": tuple(sorted(set(_UK.split()), key=len, reverse=True))}
# The forms written for each stem: the cases, persons and numbers players type most; a prefix search
# finds the shorter endings in them ("дронам" answers "дрона"). Every form of every word would
# double a page's search entry for forms nobody types.
_UK_TAILS = "ів їв ей ами ями ах ях ові ою ею єю ом ій их ого ому ими ємо ють ять ти ла ли ло ують"
_TAILS = {"uk": tuple(_UK_TAILS.split())}
MIN_STEM = 3
# Spellings players still type: the 2019 orthography writes "проєкт" where "проект" was written.
_SPELLINGS: dict[str, tuple[tuple[str, str], ...]] = {"uk": (("оєк", "оек"),)}
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")


def _longest(endings: tuple[str, ...]) -> tuple[str, ...]:
    """The endings no other ending starts with (a prefix search finds those in the longer ones)."""
    return tuple(e for e in endings if not any(o != e and o.startswith(e) for o in endings))


def stem(word: str, language: str) -> str:
    endings = ENDINGS.get(language, ())
    low = word.casefold()
    for ending in endings:  # longest first
        if low.endswith(ending) and len(low) - len(ending) >= MIN_STEM:
            return low[: -len(ending)]
    return low


def stems(word: str, language: str) -> list[str]:
    """Every stem the word may have: an ending can be part of the stem ("трофей" is "трофе-й", not
    "троф-ей"), so each ending it may have gives one."""
    low = word.casefold()
    found = [low[: -len(e)] for e in ENDINGS.get(language, ()) if low.endswith(e) and len(low) - len(e) >= MIN_STEM]
    return found or [low]


def key_words(title: str, terms: list[str]) -> str:
    """The words an entry is found by: its title and the glossary terms it explains. (Its bold words
    too made each entry's search text so long that lunr's length weighting ranked entries below
    their neighbours: 11 of 14 questions in the top three against 13 of 14 without forms.)"""
    return " ".join([title, *terms])


def forms(text: str, language: str) -> list[str]:
    """The other forms of the words of `text` a player may type, sorted; none for a language
    without an ending table. Words of fewer than MIN_STEM + 1 letters are left as they are."""
    endings = ENDINGS.get(language)
    if not endings:
        return []
    written = {w.casefold() for w in _WORD.findall(text)}
    tails = _TAILS.get(language) or _longest(endings)
    out: set[str] = set()
    for word in written:
        if len(word) <= MIN_STEM or not re.search(r"[а-яєіїґ]", word):
            continue
        for base in stems(word, language):
            for spelled in {base, *(base.replace(new, old) for new, old in _SPELLINGS.get(language, ()))}:
                out.add(spelled)
                out.update(spelled + tail for tail in tails)
    return sorted(out - written)
