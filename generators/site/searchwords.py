"""Other spellings of an English rules entry's key words (its title and the glossary names it explains),
for the search index alone: the site writes them in a hidden paragraph under the entry, as
`inflect.py` writes a translation's inflected forms.

Material's search (lunr) matches each query word as the start of an indexed word and has no typo
tolerance, and its stemmer does not join or split words. So an entry is also indexed by:

- the joined and split forms of a verb and its particle: "Setting up" also as "setup" and "set up",
  "Setup" also as "set up" and "setting up", "Drive-By" as "driveby";
- the words for the small numbers its text writes as digits ("zero" for "Shield goes back to 0");
- one-slip misspellings of its key words of five letters or more, the three slips spell checkers
  meet most: two neighbouring letters swapped ("minefeild", "checkpiont"), a doubled letter written
  once ("reconnaisance", "dificulty"), a single consonant between vowels written twice ("hazzard",
  "civillian").

Only key words get forms: a misspelling of every word of a body would multiply the index for words
nobody searches by.
"""

from __future__ import annotations

import re

PARTICLES = ("up", "out", "off", "by", "down", "over", "back")
MIN_TYPO = 5  # shorter words have too many near neighbours among real words
VOWELS = set("aeiouy")
_WORD = re.compile(r"[a-z]+(?:-[a-z]+)*")


NUMBERS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")


def forms(key_text: str, body: str = "") -> list[str]:
    """The other spellings of the words of `key_text` (an entry's title and names) and the number
    words of `body`'s digits, sorted, none of them a word the key text already has."""
    text = key_text.casefold()
    words = _WORD.findall(text)
    plain = {w for word in words for w in word.split("-")}
    out: set[str] = set()
    for word in words:
        out.update(_joined(word))
    out.update(_phrasal(text))
    for word in plain:
        out.update(_split(word))
        if len(word) >= MIN_TYPO:
            out.update(slips(word))
    out.update(NUMBERS[int(n)] for n in re.findall(r"(?<![\d.,])\d+(?![\d.,]\d)", body) if int(n) < len(NUMBERS))
    return sorted(out - plain - set(words))


def slips(word: str) -> set[str]:
    """The one-slip misspellings of `word` (see the module's note); the first letter is kept."""
    found: set[str] = set()
    for i in range(1, len(word) - 1):
        a, b = word[i], word[i + 1]
        if a != b:
            found.add(word[:i] + b + a + word[i + 2:])  # swapped
        else:
            found.add(word[:i] + word[i + 1:])  # a doubled letter once
        if a not in VOWELS and word[i - 1] in VOWELS and b in VOWELS:
            found.add(word[: i + 1] + a + word[i + 1:])  # a single consonant twice
    found.discard(word)
    return found


def _joined(word: str) -> set[str]:
    """A hyphenated verb and particle written as one word: "drive-by" -> "driveby"."""
    parts = word.split("-")
    return {"".join(parts)} if len(parts) == 2 and parts[1] in PARTICLES else set()


def _phrasal(text: str) -> set[str]:
    """A verb and its particle written apart ("setting up", "set up") also joined: "setup"."""
    found: set[str] = set()
    for verb, particle in re.findall(rf"\b([a-z]+) ({'|'.join(PARTICLES)})\b", text):
        for base in _bases(verb):
            found.update({base + particle, f"{base} {particle}"})
    return found


def _split(word: str) -> set[str]:
    """A word that is a verb and its particle ("setup", "cleanup") also apart, in its -ing form too."""
    for particle in PARTICLES:
        verb = word.removesuffix(particle)
        if verb != word and len(verb) >= 3:
            return {f"{verb} {particle}", f"{_ing(verb)} {particle}"}
    return set()


def _bases(verb: str) -> set[str]:
    """A verb as written and its plain form: "setting" -> "set", "moving" -> "mov", "move"."""
    if not verb.endswith("ing") or len(verb) < 6:
        return {verb}
    stem = verb[:-3]
    if len(stem) >= 2 and stem[-1] == stem[-2] and stem[-1] not in VOWELS:
        return {stem[:-1]}
    return {stem, stem + "e"}


def _ing(verb: str) -> str:
    """"set" -> "setting", "clean" -> "cleaning", "make" -> "making"."""
    if verb.endswith("e") and not verb.endswith("ee"):
        return verb[:-1] + "ing"
    if len(verb) == 3 and verb[1] in VOWELS and verb[0] not in VOWELS and verb[2] not in VOWELS | {"w", "x"}:
        return verb + verb[-1] + "ing"
    return verb + "ing"
