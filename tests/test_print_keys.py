"""A print document's key covers everything its bytes depend on, and no more: an edit outside what the
key holds leaves the document's bytes as they were, and an edit that changes them changes the key.
The class this catches: a document that reads content beyond its own kinds (the legend card goes on
the tokens' sheets or with the cards depending on both; dice nets pair faces as the road tiles do)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from generators.content.loader import Content, load_content
from generators.content.model import Component, LoadedGame, Side
from generators.pdf.options import CARD_KINDS, TOKEN_KINDS, Options
from generators.pdf.print_targets import document_targets

ROOT = Path(__file__).resolve().parent.parent
Edit = Callable[[LoadedGame], LoadedGame]


@pytest.fixture(scope="module")
def content() -> Content:
    return load_content(ROOT / "content", only=("escape-deathrace-2182-micro", "thunder-road-ignition"))


def _game(content: Content, game_id: str) -> LoadedGame:
    return next(g for g in content.games if g.id == game_id)


def _documents(content: Content, game: LoadedGame, paper: str = "a4") -> dict[str, tuple[str, Callable[[], bytes]]]:
    return {t.path.stem.removeprefix(f"{game.id}-"): (t.key, t.make)
            for t in document_targets(content, game, [Options(paper=paper)], Path("build"))}


def _without(kinds: tuple[str, ...]) -> Edit:
    return lambda g: replace(g, components=tuple(c for c in g.components if c.kind not in kinds))


def _retitled(kinds: tuple[str, ...]) -> Edit:
    """The first face of the first component of `kinds` with another title (its size and count kept)."""
    def edit(g: LoadedGame) -> LoadedGame:
        first = next(c for c in g.components if c.kind in kinds)

        def renamed(c: Component) -> Component:
            if c is not first:
                return c
            face = c.faces[0]
            return replace(c, faces=(replace(face, front=replace(face.front, title=face.front.title + " X")),
                                     *c.faces[1:]))
        return replace(g, components=tuple(renamed(c) for c in g.components))
    return edit


def _no_map(side: Side | None) -> Side | None:
    return side if side is None or side.art is None else replace(side, art=replace(side.art, spaces=None))


def _spaces_dropped(g: LoadedGame) -> LoadedGame:
    """The game's road tiles without their space maps (which pair the directions the dice show)."""
    def plain(c: Component) -> Component:
        if c.kind == "dice":
            return c
        return replace(c, faces=tuple(replace(f, front=_no_map(f.front), back=_no_map(f.back)) for f in c.faces))
    return replace(g, components=tuple(plain(c) for c in g.components))


# (game, edit, the documents whose key must change, the documents whose key must stay)
CASES = [
    ("escape-deathrace-2182-micro", "no cards", _without(CARD_KINDS), {"tokens"}, set()),
    ("escape-deathrace-2182-micro", "a card retitled", _retitled(CARD_KINDS), {"cards-duplex"}, {"tokens"}),
    ("escape-deathrace-2182-micro", "a token retitled", _retitled(TOKEN_KINDS), {"tokens"}, {"cards-duplex"}),
    ("thunder-road-ignition", "no space maps", _spaces_dropped, {"dice"}, set()),
    ("thunder-road-ignition", "a tile retitled", _retitled(("tiles",)), {"tokens"}, {"dice"}),
]


@pytest.mark.parametrize(("game_id", "what", "edit", "changes", "stays"), CASES, ids=[c[1] for c in CASES])
def test_a_key_changes_exactly_when_the_bytes_do(content: Content, game_id: str, what: str, edit: Edit,
                                                 changes: set[str], stays: set[str]) -> None:
    game = _game(content, game_id)
    before, after = _documents(content, game), _documents(content, edit(game))
    for name in changes:
        assert before[name][0] != after[name][0], f"{what}: the {name} key missed an input it depends on"
    for name in stays:
        assert before[name][0] == after[name][0], f"{what}: the {name} key holds an input it does not need"
    for name in sorted(set(before) & set(after)):
        if before[name][0] == after[name][0]:  # the key says the document is the same: so must its bytes be
            assert before[name][1]() == after[name][1](), f"{what}: {name} changed under the same key"
        elif name in changes:  # and the change the key saw is real
            assert before[name][1]() != after[name][1](), f"{what}: {name} has a new key for the same bytes"


def test_the_legend_card_moves_with_the_cards(content: Content) -> None:
    """The case that was missed: without cards the legend goes onto the tokens' sheets."""
    from generators.pdf.documents import legend_home

    game = _game(content, "escape-deathrace-2182-micro")
    assert legend_home(game, "a4") == set(CARD_KINDS)
    assert legend_home(_without(CARD_KINDS)(game), "a4") == set(TOKEN_KINDS)


def test_replacing_an_artwork_file_changes_every_key_that_draws_it(content: Content, tmp_path: Path) -> None:
    """The Tabletop Simulator images drew a side's artwork without its bytes in their key."""
    from PIL import Image

    from generators.pdf.tts import tts_targets

    game = _game(content, "escape-deathrace-2182-micro")
    art = tmp_path / "art.png"
    deck = next(c for c in game.components if c.kind == "cards")
    face = deck.faces[0]
    pictured = replace(deck, faces=(replace(face, front=replace(face.front, image="art.png")), *deck.faces[1:]))
    game = replace(game, dir=str(tmp_path), components=tuple(pictured if c is deck else c for c in game.components))

    def keys() -> dict[str, tuple[str, Callable[[], bytes]]]:
        made = {t.path.name: (t.key, t.make) for t in tts_targets(content, game, Path("build"))}
        return made | {f"print:{k}": v for k, v in _documents(content, game).items()}

    drawn = (f"{game.id}-{deck.id}-faces-1.png", "print:cards-duplex")
    Image.new("RGB", (40, 40), "red").save(art)
    before = keys()
    red = {name: before[name][1]() for name in drawn}  # drawn now: a maker reads the file when called
    Image.new("RGB", (40, 40), "blue").save(art)
    after = keys()
    for name in drawn:
        assert before[name][0] != after[name][0], f"{name}: its key missed the artwork file"
        assert red[name] != after[name][1](), name
    untouched = [n for n in before if n.startswith("print:") and not n.startswith("print:cards")]
    assert untouched and all(before[n][0] == after[n][0] for n in untouched)
