"""House variants as content: a small YAML overlay on a game's faces, played by the engine in place of
the content as it is, so a designer tries a house rule without touching Python.

```yaml
game: mission-drive                 # the game it changes
name: Side Cannons reach 2 spaces   # how reports name it
faces:
  upgrade-cards/side-cannons:       # component/face (or the face id alone where no other face shares it)
    facts: {effect: {range: 2}}     # merged into the face's facts: a mapping key by key, anything else replaced
    count: 2                        # optional: how many copies of the face
```

The merged facts go through the engine's own fact spec, so a mistake is one located line, in the
overlay's file where the overlay set the value (`variant.yaml:5:20: faces.upgrade-cards/side-cannons.
facts.effect.range: expected a whole number, ...`) and in the content's file where it did not.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from generators.build_system.errors import ContentError, KeyPath
from generators.content.model import LoadedGame
from generators.content.schema import convert, describe, suggest
from generators.content.yaml_io import Doc, load_yaml
from generators.rules.facts import FaceFacts, GameContent, HasFacts, game_content

TOP = ("game", "name", "faces")
FACE = ("facts", "count")
MAX_COUNT = 200


@dataclass(frozen=True)
class Variant:
    """A game's content with an overlay applied: its name, its file, and what the engine plays."""

    name: str
    file: str
    content: GameContent
    changed: tuple[str, ...]  # the printed titles of the faces it changes


def game_of(path: Path) -> str:
    """The game a variant file names (`game:`), for choosing what to load; a located error if none."""
    doc = load_yaml(path)
    _check_keys(doc, (), doc.data, TOP)
    game = doc.data.get("game")
    if not isinstance(game, str) or not game:
        raise doc.error(("game",), f"expected the game's folder name, got {describe(game)}")
    return game


def load_variant(path: Path, game: LoadedGame, engine: HasFacts) -> Variant:
    """`game`'s content for `engine` with the overlay at `path` applied."""
    doc = load_yaml(path)
    _check_keys(doc, (), doc.data, TOP)
    if doc.data.get("game") != game.id:
        raise doc.error(("game",), f"expected {game.id!r} (the game this variant is played with), "
                        f"got {describe(doc.data.get('game'))}")
    name = doc.data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise doc.error(("name",), f"expected a short name for the reports, got {describe(name)}")
    faces = doc.data.get("faces")
    if not isinstance(faces, dict) or not faces:
        raise doc.error(("faces",), f"expected a mapping of component/face to its changes, got {describe(faces)}")
    base = game_content(game, engine)
    components = {c: list(f) for c, f in base.components.items()}
    changed = []
    for key, change in faces.items():
        where: KeyPath = ("faces", key)
        comp_id, index = _locate(doc, where, str(key), game, components)
        _check_keys(doc, where, change, FACE)
        face = components[comp_id][index]
        if "count" in change:
            count = change["count"]
            if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MAX_COUNT:
                raise doc.error((*where, "count"), f"expected a whole number of copies from 0 to {MAX_COUNT}, "
                                f"got {describe(count)}")
            face = replace(face, count=count)
        if "facts" in change:
            face = replace(face, facts=_merged_facts(doc, where, change["facts"], game, engine, comp_id, face))
        components[comp_id][index] = face
        changed.append(face.title)
    content = GameContent(base.game, {c: tuple(f) for c, f in components.items()}, base.names)
    return Variant(name.strip(), doc.file, content, tuple(changed))


def _check_keys(doc: Doc, where: KeyPath, value: Any, allowed: tuple[str, ...]) -> None:
    if not isinstance(value, dict):
        raise doc.error(where, f"expected a mapping with {', '.join(allowed)}, got {describe(value)}")
    for key in value:
        if key not in allowed:
            raise doc.error((*where, key), f"unknown key {key!r}{suggest(str(key), list(allowed))}; "
                            f"expected one of: {', '.join(allowed)}")


def _locate(doc: Doc, where: KeyPath, key: str, game: LoadedGame,
            components: dict[str, list[FaceFacts]]) -> tuple[str, int]:
    """The component and index of the face `key` names (`component/face`, or a face id no other
    component of the engine's shares)."""
    comp_id, sep, face_id = key.partition("/")
    if not sep:
        comp_id, face_id = "", key
    found = [(c, i) for c, faces in components.items() if not comp_id or c == comp_id
             for i, f in enumerate(faces) if f.id == face_id]
    if len(found) == 1:
        return found[0]
    if found:
        raise doc.error(where, f"more than one component has a face {face_id!r}; name it as component/face: "
                        f"{', '.join(f'{c}/{face_id}' for c, _ in found)}")
    if comp_id and comp_id not in components:
        known = [c.id for c in game.components]
        why = ("the engine reads nothing from it, so a change there cannot change play" if comp_id in known
               else f"{game.id} has no such component{suggest(comp_id, known)}")
        raise doc.error(where, f"component {comp_id!r}: {why}; expected one of: {', '.join(sorted(components))}")
    ids = [f"{c}/{f.id}" for c, faces in components.items() for f in faces if not comp_id or c == comp_id]
    raise doc.error(where, f"no face {key!r} the engine plays with{suggest(key, ids)}")


def _merged_facts(doc: Doc, where: KeyPath, overlay: Any, game: LoadedGame, engine: HasFacts, comp_id: str,
                  face: FaceFacts) -> Any:
    """The face's facts as written in the content, with the overlay merged in, converted by the engine's
    spec; a mistake is reported where its value was written (the overlay or the content)."""
    base_doc = game.docs[comp_id]
    at: KeyPath = ("faces", next(i for i, f in enumerate(base_doc.data["faces"]) if f.get("id") == face.id), "facts")
    raw = base_doc.data
    for part in at:
        raw = raw[part]
    merged = _merge(raw, overlay)
    layered = _Layered(base_doc.file, base_doc.data, base_doc.marks, base_doc, doc, at, (*where, "facts"), overlay)
    return convert(layered, engine.facts_specs[comp_id], at, merged)


def _merge(base: Any, over: Any) -> Any:
    """A mapping merged key by key (recursively); anything else (a list, a number) replaced whole."""
    if isinstance(base, dict) and isinstance(over, dict):
        return {**base, **{k: _merge(base.get(k), v) for k, v in over.items()}}
    return over


@dataclass(frozen=True)
class _Layered(Doc):
    """The content's document with an overlay's values merged into one face's facts: an error points
    into the overlay where the overlay set the value, into the content elsewhere."""

    base: Doc | None = None
    over: Doc | None = None
    at: KeyPath = ()  # the facts' path in the content's document
    over_at: KeyPath = ()  # their path in the overlay's document
    overlay: Any = None  # the overlay's facts

    def error(self, path: KeyPath, message: str) -> ContentError:
        path = tuple(path)
        assert self.base is not None and self.over is not None
        if path[:len(self.at)] == self.at and self._set_by_overlay(path[len(self.at):]):
            return self.over.error((*self.over_at, *path[len(self.at):]), message)
        return self.base.error(path, message)

    def _set_by_overlay(self, rest: KeyPath) -> bool:
        """Whether the overlay wrote the value at `rest` (or a value it lies inside, replaced whole)."""
        value = self.overlay
        for part in rest:
            if not isinstance(value, dict):
                return True  # inside a list or value the overlay replaced
            if part not in value:
                return False
            value = value[part]
        return True
