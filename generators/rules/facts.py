"""What an engine sees of its game's content: faces with the typed facts its engine declared.

An engine reads the very data the print kit draws (a road tile's map of spaces), never a copy typed
again in Python. Views derived from the content (an engine's card library) are kept on the content
object itself (`GameContent.view`), so they live and die with it: no module-level cache.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, field
from dataclasses import fields as dataclass_fields
from typing import Any, Protocol, TypeVar

from generators.build_system.errors import ContentError, KeyPath
from generators.content.model import LoadedGame, Side
from generators.content.schema import convert
from generators.content.yaml_io import Doc

T = TypeVar("T")


class HasFacts(Protocol):
    """What `game_content` needs of an engine: the spec of each component's `facts:`."""

    @property
    def facts_specs(self) -> Mapping[str, type]: ...




@dataclass(frozen=True)
class FaceFacts:
    """One face of a component, with its count and the typed facts its engine declared. The printed
    sides come along for facts that are drawn (a road tile's map of spaces), so the engine reads
    the very data the print kit draws instead of a copy."""

    component: str
    id: str
    title: str
    count: int
    facts: Any
    front: Side | None = None
    back: Side | None = None


@dataclass(frozen=True)
class GameContent:
    """What an engine sees of its game's content: faces with typed facts, by component id."""

    game: str
    components: Mapping[str, tuple[FaceFacts, ...]]
    names: Mapping[str, str] = field(default_factory=dict)  # every face id -> its title, component id -> name
    # Views derived from this content by `view`, by the function that derives them (not compared, not pickled).
    _views: dict[Callable[[GameContent], Any], Any] = field(default_factory=dict, compare=False, repr=False)

    def view(self, derive: Callable[[GameContent], T]) -> T:
        """`derive(self)`, computed once for this content (an engine's card library, a tile index)."""
        try:
            return self._views[derive]  # type: ignore[no-any-return]
        except KeyError:
            made = self._views[derive] = derive(self)
            return made

    def derived(self) -> tuple[Any, ...]:
        """The views derived so far (a check that compares states may treat them as shared parts)."""
        return tuple(self._views.values())

    def __getstate__(self) -> dict[str, Any]:
        # A worker process derives its own views: functions defined in tests or closures do not pickle.
        return {**self.__dict__, "_views": {}}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    def name(self, key: str) -> str:
        """What players read for an id: the face's printed title or the component's name (else `key`)."""
        return self.names.get(key, key)

    def faces(self, component: str) -> tuple[FaceFacts, ...]:
        if component not in self.components:
            raise KeyError(f"{self.game} has no component {component!r} with engine facts")
        return self.components[component]

    def face(self, component: str, face_id: str) -> FaceFacts:
        for f in self.faces(component):
            if f.id == face_id:
                return f
        raise KeyError(f"{self.game}: component {component!r} has no face {face_id!r}")


# What an engine may read of a printed side: its name and its art, where drawn facts live (a road
# tile's map of spaces). Text and layout are the printer's: leaving them out means an edit to card
# text cannot change play, so whole-game figures are not replayed for it (the build keys them on
# the GameContent).
DRAWN = ("title", "provenance", "art")


def drawn(side: Side | None) -> Side | None:
    if side is None:
        return None
    kept = {f.name: getattr(side, f.name) for f in dataclass_fields(side)
            if f.name in DRAWN or (f.default is MISSING and f.default_factory is MISSING)}
    return Side(**kept)


def game_content(game: LoadedGame, engine: HasFacts) -> GameContent:
    """Convert every face's `facts:` with the engine's declared spec; mistakes are located errors."""
    by_component: dict[str, tuple[FaceFacts, ...]] = {}
    for comp in game.components:
        spec = engine.facts_specs.get(comp.id)
        doc = game.docs.get(comp.id)
        faces = []
        for fi, face in enumerate(comp.faces):
            where = ("faces", fi, "facts")
            if spec is None:
                if face.facts is not None and doc is not None:
                    raise doc.error(where, f"the {game.game.engine} engine reads no facts from {comp.id}; "
                                    "remove the key")
                continue
            if face.facts is None or doc is None:
                raise ContentError(game.component_files.get(comp.id, game.dir), 1, 1, ("faces", fi),
                                   f"the {game.game.engine} engine reads facts: from every face of {comp.id}")
            facts: Any = convert(doc, spec, where, _raw(doc, where))
            faces.append(FaceFacts(comp.id, face.id, face.front.title, face.count, facts, drawn(face.front),
                                   drawn(face.back or comp.back)))
        if spec is not None:
            by_component[comp.id] = tuple(faces)
    missing = sorted(set(engine.facts_specs) - set(by_component))
    if missing:
        raise ContentError(f"{game.dir}/game.yaml", 1, 1, ("engine",),
                           f"the {game.game.engine} engine reads facts from component(s) {', '.join(missing)}, "
                           "which this game does not have")
    return GameContent(game.id, by_component, printed_names(game))


def printed_names(game: LoadedGame) -> dict[str, str]:
    """Every face id with the title printed on its front, and every component id with its name; a
    face id two components share keeps the first title."""
    names: dict[str, str] = {}
    for comp in game.components:
        names.setdefault(comp.id, comp.name)
        for face in comp.faces:
            names.setdefault(face.id, face.front.title)
    return names


def _raw(doc: Doc, path: KeyPath) -> Any:
    value = doc.data
    for part in path:
        value = value[part]
    return value


