"""Other spellings of an English rules entry's key words (its title and the glossary names it explains),
for the search index alone: the site writes them in a hidden paragraph under the entry, as
`inflect.py` writes a translation's inflected forms.

Material's search (lunr) matches each query word as the start of an indexed word and has no typo
tolerance, and its stemmer does not join or split words. So an entry is also indexed by:

- the joined and split forms of a verb and its particle: "Setting up" also as "setup" and "set up",
  "Setup" also as "set up" and "setting up", "Drive-By" as "driveby";
- the words for the small numbers its text writes as digits ("zero" for "Shield goes back to 0");
- its key words' other inflections ("move": moves, moved, moving; "slammed": slam, slams,
  slamming): Zensical's search has no stemmer (Material's does, so there they weigh nothing new);
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


FUNCTION_WORDS = frozenset(("the", "and", "for", "with", "your", "you", "from", "into", "onto", "its", "not", "any",
                            "all", "each", "per", "than", "then", "when", "who", "what", "how", "can", "may",
                            "must", "one", "two"))
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
        out.update(inflections(word))
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


def inflections(word: str) -> set[str]:
    """`word`'s other English inflections, as a noun and as a verb (which it is is not known):
    "move" -> moves, moved, moving; "rammed" -> ram, rams, ramming; "cards" -> card, carded, carding."""
    if len(word) < 3 or not word.isalpha() or word in PARTICLES or word in FUNCTION_WORDS:
        return set()
    if word.endswith("ing"):
        bases = _bases(word)
    elif word.endswith("ed") and len(word) > 4:
        bases = _bases(word[:-2] + "ing")
    elif word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        bases = {word[:-2] if word.endswith(("ches", "shes", "xes", "sses")) else word[:-1]}
    else:
        bases = {word}
    found = {f for base in bases if len(base) >= 3 for f in (base, _plural(base), _past(base), _ing(base))}
    found.discard(word)
    return found


def _plural(word: str) -> str:
    """"card" -> "cards", "boss" -> "bosses", "enemy" -> "enemies"."""
    if word.endswith(("s", "x", "z", "ch", "sh")):
        return word + "es"
    if word.endswith("y") and len(word) > 2 and word[-2] not in VOWELS:
        return word[:-1] + "ies"
    return word + "s"


def _past(word: str) -> str:
    """"move" -> "moved", "ram" -> "rammed", "fire" -> "fired", "carry" -> "carried"."""
    if word.endswith("e"):
        return word + "d"
    if word.endswith("y") and len(word) > 2 and word[-2] not in VOWELS:
        return word[:-1] + "ied"
    return _ing(word)[: -len("ing")] + "ed"


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
    """"set" -> "setting", "slam" -> "slamming", "clean" -> "cleaning", "make" -> "making"."""
    if verb.endswith("e") and not verb.endswith("ee"):
        return verb[:-1] + "ing"
    if 3 <= len(verb) <= 4 and verb[-2] in VOWELS and verb[-3] not in VOWELS and verb[-1] not in VOWELS | {"w", "x"}:
        return verb + verb[-1] + "ing"
    return verb + "ing"
