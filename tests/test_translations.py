"""A game's rules in another language (game.yaml `translations:`): complete or refused at its file and
line, and on the site beside the English pages with a language switch both ways."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generators.build_system.errors import ContentError
from generators.content.loader import load_content
from generators.site import escape
from generators.site.build import alternates
from generators.site.collect import collect
from generators.site.inflect import forms, key_words
from generators.site.quick import load_quick
from tests.helpers import CONTENT, copy_content, run_cli

GAME = "dronovody"
CYRILLIC = re.compile(r"[А-Яа-яЄєІіЇїҐґ]")


@pytest.fixture(scope="module")
def content():
    return load_content(CONTENT, only=[GAME])


def _refused(tmp_path: Path, change) -> ContentError:
    root = copy_content(tmp_path, (GAME,))
    change(root / GAME)
    with pytest.raises(ContentError) as err:
        load_content(root)
    return err.value


def test_every_entry_and_term_is_translated_and_in_the_language(content):
    (game,) = content.games
    (tr,) = game.translations
    assert tr.spec.language == "uk"
    assert set(tr.rules) == {r.id for r in game.rules}
    for rule in game.rules:
        text = tr.rules[rule.id]
        assert text.meta.title != rule.meta.title or not CYRILLIC.search(rule.meta.title), rule.id
        # Written in Ukrainian: most letters Cyrillic (names such as Mavic, FPV stay as printed).
        letters = [c for c in text.body if c.isalpha()]
        assert sum(bool(CYRILLIC.match(c)) for c in letters) / len(letters) > 0.8, rule.id
        # Numbers carry over: every number of the English entry is in the translation.
        assert set(re.findall(r"\d+", rule.body)) <= set(re.findall(r"\d+", text.body)), rule.id
        assert text.meta.section == rule.meta.section  # the same rulebook section cited
    assert len(tr.glossary.terms) == len(game.glossary.terms)
    assert {t.rule for t in tr.glossary.terms} == {t.rule for t in game.glossary.terms}


def test_a_missing_entry_is_refused_at_the_translation(tmp_path):
    err = _refused(tmp_path, lambda g: (g / "uk" / "rules" / "horde.md").unlink())
    assert err.file.endswith("game.yaml") and err.keypath[:2] == ("translations", 0), err
    assert "horde" in str(err) and err.line > 1


def test_an_entry_the_english_lacks_is_refused_at_its_file(tmp_path):
    def add(g: Path) -> None:
        (g / "uk" / "rules" / "no-such-rule.md").write_text("---\ntitle: Ні\n---\nТекст.\n", "utf-8")
    err = _refused(tmp_path, add)
    assert err.file.endswith("no-such-rule.md") and "no English rules entry" in str(err)


def test_a_bad_front_matter_key_is_located(tmp_path):
    def typo(g: Path) -> None:
        path = g / "uk" / "rules" / "horde.md"
        path.write_text(path.read_text("utf-8").replace("title:", "titel:"), "utf-8")
    err = _refused(tmp_path, typo)
    assert err.file.endswith("horde.md") and err.line == 2 and "titel" in str(err)


def test_a_missing_chapter_title_and_a_glossary_link_to_no_rule_are_refused(tmp_path):
    def drop(g: Path) -> None:
        path = g / "game.yaml"
        path.write_text(path.read_text("utf-8").replace(
            "      advanced: Додаткові правила\n", ""), "utf-8")
    err = _refused(tmp_path, drop)
    assert "advanced" in str(err) and err.keypath[-1] == "chapters"

    def bad_rule(g: Path) -> None:
        path = g / "uk" / "glossary.yaml"
        path.write_text(path.read_text("utf-8").replace(
            "    rule: overview\n", "    rule: overveiw\n", 1), "utf-8")
    err = _refused(tmp_path / "b", bad_rule)
    assert err.file.endswith("uk/glossary.yaml") and "overveiw" in str(err) and err.keypath[-1] == "rule"


def test_the_cli_refuses_with_exit_2_and_one_located_line(tmp_path):
    root = copy_content(tmp_path, (GAME,))
    (root / GAME / "uk" / "glossary.yaml").unlink()
    result = run_cli("validate", "--content", root)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert re.match(r"^\S*game\.yaml:\d+:\d+: translations\[0\]\.language: .*glossary", result.stderr.strip())


def test_the_pages_stand_beside_the_english_ones_with_links_both_ways(content, tmp_path):
    collected = collect(content, tmp_path)
    texts = {p: b.decode("utf-8") for p, b in collected.stage.texts.items() if p.endswith(".md")}
    (game,) = content.games
    tr = game.translations[0]
    for chapter in game.game.chapters:
        english, ukrainian = f"{GAME}/rules/{chapter.id}.md", f"{GAME}/uk/rules/{chapter.id}.md"
        assert f"](../uk/rules/{chapter.id}.md)" in texts[english]  # the switch on the English page
        assert f"](../../rules/{chapter.id}.md)" in texts[ukrainian]  # and back
        assert f"# {tr.spec.chapters[chapter.id]}" in texts[ukrainian]
        assert '<div lang="uk"' in texts[ukrainian]
        for rule in game.rules:
            if rule.meta.chapter == chapter.id:
                assert f"{{#{rule.id}}}" in texts[ukrainian]  # the same anchors as the English page
    every = "".join(texts[p] for p in texts if p.startswith(f"{GAME}/uk/"))
    for rule in tr.rules.values():
        assert rule.meta.title.replace("'", "&#39;") in every or rule.meta.title in every, rule.id
    # Links between entries stay in the language: no Ukrainian page links an English rules page
    # except by its language link.
    for path, text in texts.items():
        if path.startswith(f"{GAME}/uk/rules/"):
            assert len(re.findall(r"\]\(\.\./\.\./rules/", text)) == 1, path
    quick = texts[f"{GAME}/uk/quick-reference.md"]
    english_quick = load_quick(game)
    ukrainian_quick = load_quick(game, "uk")
    assert [c.rule for c in ukrainian_quick.cards] == [c.rule for c in english_quick.cards]
    for card, theirs in zip(ukrainian_quick.cards, english_quick.cards, strict=True):
        assert f"## {escape.text(card.title)}" in quick
        # Numbers carry over, answer by answer.
        assert sorted(re.findall(r"\d+", card.text)) == sorted(re.findall(r"\d+", theirs.text)), card.title
    assert "](../notes.md#management-turns)" in quick  # our ruling, on the English rulings page
    assert alternates(content, GAME) == [
        {"name": "English", "link": "index.html", "lang": "en"},
        {"name": "Українська", "link": "uk/index.html", "lang": "uk"}]
    assert alternates(content, "no-such-game") == []


@pytest.mark.parametrize(("written", "typed"), [
    ("дрони", "дронів"), ("Поранений", "поранених"), ("Склад", "складі"), ("трофей", "трофеїв"),
    ("Евакуація", "евакуацією"), ("програють", "програємо"), ("Окоп", "окопу")])
def test_a_word_is_indexed_with_the_forms_players_type(written: str, typed: str) -> None:
    # Material searches each typed word as a prefix of an indexed word.
    assert typed.casefold() != written.casefold()
    assert any(f.startswith(typed) for f in [written.casefold(), *forms(written, "uk")]), (written, typed)


def test_forms_only_for_a_language_with_endings_and_never_the_written_words() -> None:
    assert forms("Ramming the truck", "en") == []
    assert forms("дрони", "xx") == []
    assert "дрони" not in forms("дрони", "uk")
    assert key_words("Дія: Евакуація", ["Медик", "поранені"]) == "Дія: Евакуація Медик поранені"


def test_the_forms_are_in_the_search_index_only(content, tmp_path) -> None:
    texts = {p: b.decode("utf-8") for p, b in collect(content, tmp_path).stage.texts.items() if p.endswith(".md")}
    page = texts[f"{GAME}/uk/rules/actions.md"]
    hidden = re.findall(r'<p hidden class="rk-forms">([^<]*)</p>', page)
    assert len(hidden) == 5  # one per entry of the page
    assert "евакуацією" in " ".join(hidden).split()  # the page writes "Евакуація"
    english = " ".join(re.findall(r'<p hidden class="rk-forms">Other spellings searched: ([^<]*)</p>',
                                  texts[f"{GAME}/rules/actions.md"]))
    assert english and not CYRILLIC.search(english)  # English pages: English spellings (searchwords.py) alone
