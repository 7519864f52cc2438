"""The typed, immutable content model. Its type hints are the schema (see schema.py).

A game is a folder `content/<game>/` holding `game.yaml` (metadata, theme), `components/*.yaml`
(one component each), `rules/*.md` (one rules entry each, YAML front matter + Markdown),
`glossary.yaml` and `examples/*.yaml` (scenarios, owned by the engine). Shared icons live in
`content/icons.yaml`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Literal

ID = r"[a-z0-9][a-z0-9-]*"
ID_DOC = "an id of lower-case letters, digits and dashes (like 'boss-weapons')"
HEX = r"#[0-9a-fA-F]{6}"
HEX_DOC = "a colour like '#1f6feb'"

Provenance = Literal["rulebook", "house", "proxy"]
Direction = Literal["forward", "back", "left", "right", "forward-left", "forward-right", "back-left", "back-right"]


def _meta(doc: str, **kw: Any) -> dict[str, Any]:
    return {"doc": doc, **kw}


# A path or file name: no control character (a tab, a line break or a NUL written as a YAML escape)
# may reach the file system or an error message.
PATH = r"[^\x00-\x1f\x7f-\x9f]+"
PATH_DOC = "a file path without control characters (tabs, line breaks, escapes such as \\0)"


def _id_meta(doc: str) -> dict[str, Any]:
    # Metadata, not a field: type checkers only know a `field(...)` call has no default.
    return _meta(doc, pattern=ID, pattern_doc=ID_DOC)


# ---------------------------------------------------------------------------------------------
# Sizes


@dataclass(frozen=True)
class Millimetres:
    """An explicit size in millimetres."""

    width: float = field(metadata=_meta("Width in millimetres.", min=5, max=2000))
    height: float = field(metadata=_meta("Height in millimetres.", min=5, max=2000))


SizeName = Literal["poker", "mini", "tarot", "square-tile", "small-tile", "round-token", "square-token", "large-token"]
Size = SizeName | Millimetres

NAMED_SIZES: dict[str, tuple[float, float]] = {
    "poker": (63.0, 88.0),
    "mini": (44.0, 63.0),
    "tarot": (70.0, 120.0),
    "square-tile": (70.0, 70.0),
    "small-tile": (50.0, 50.0),
    "round-token": (25.0, 25.0),
    "square-token": (25.0, 25.0),
    "large-token": (38.0, 38.0),
}


def size_mm(size: Size) -> tuple[float, float]:
    if isinstance(size, Millimetres):
        return (size.width, size.height)
    return NAMED_SIZES[size]


# ---------------------------------------------------------------------------------------------
# Art: the drawings on a face


@dataclass(frozen=True)
class Cell:
    """One marked space of a grid diagram."""

    at: tuple[int, ...] = field(metadata=_meta("[column, row]; column 0 is the left lane, row 0 the nearest row."))
    icon: str | None = field(default=None, metadata=_meta("Icon drawn in the space."))
    label: str | None = field(default=None, metadata=_meta("Short text drawn in the space."))
    color: str | None = field(default=None, metadata=_meta("Theme colour name or hex colour of the mark."))

    def check(self) -> tuple[str, str] | None:
        if len(self.at) != 2:
            return ("at", "expected [column, row]")
        return None


@dataclass(frozen=True)
class Grid:
    """A grid of spaces with marked cells (a road, a mission layout, a boss card)."""

    cols: int = field(metadata=_meta("Number of columns.", min=1, max=40))
    rows: int = field(metadata=_meta("Number of rows.", min=1, max=40))
    cells: tuple[Cell, ...] = field(default=(), metadata=_meta("The marked spaces."))
    rails: bool = field(default=False, metadata=_meta("Draw guard rails on the left and right edges."))

    def check(self) -> tuple[str, str] | None:
        for i, cell in enumerate(self.cells):
            c, r = cell.at
            if not (0 <= c < self.cols and 0 <= r < self.rows):
                return ("cells", f"cells[{i}] at {list(cell.at)} is outside the {self.cols}x{self.rows} grid")
        return None


@dataclass(frozen=True)
class Track:
    """A row of numbered spaces (a health track)."""

    spaces: int = field(metadata=_meta("How many spaces.", min=1, max=60))
    labels: tuple[str, ...] = field(default=(), metadata=_meta("Label per space, left to right."))
    icon: str | None = field(default=None, metadata=_meta("Icon drawn in every space."))


@dataclass(frozen=True)
class Tile:
    """A road tile's exits, drawn as road."""

    exits: tuple[Literal["north", "south", "east", "west"], ...] = field(
        metadata=_meta("Which edges the road leaves by.")
    )
    icon: str | None = field(default=None, metadata=_meta("Icon drawn where the roads meet."))


@dataclass(frozen=True)
class Border:
    """A line drawn just inside a space's edge (a double yellow border, say)."""

    color: str = field(metadata=_meta("Theme colour name or hex colour of the line."))
    style: Literal["single", "double"] = field(default="double", metadata=_meta("One line or two."))


@dataclass(frozen=True)
class Terrain:
    """One kind of space on a space map, and how it is drawn (an entry of the map's legend)."""

    id: str = field(metadata=_id_meta("What spaces name in their `terrain`."))
    label: str = field(metadata=_meta("The kind's name, for people (legends, the site)."))
    color: str | None = field(default=None, metadata=_meta("Theme colour name or hex colour of the space."))
    icon: str | None = field(default=None, metadata=_meta("Icon drawn in each space of this kind."))
    border: Border | None = field(default=None, metadata=_meta("A line just inside the space's edge."))


@dataclass(frozen=True)
class MapDirection:
    """A direction the map's links are given in, and its opposite."""

    id: str = field(metadata=_id_meta("The direction's name (front-left, back, ...)."))
    opposite: str = field(metadata=_meta("The direction that leads back (front-left: back-right)."))


@dataclass(frozen=True)
class MapSpace:
    """One space of a space map."""

    id: str = field(metadata=_id_meta("Unique within the map (c4: lane c, row 4)."))
    at: tuple[int, ...] = field(metadata=_meta("[lane, row]; lane 0 is on the left going forward, row 0 at the back."))
    terrain: str = field(metadata=_meta("The id of its kind in the map's legend."))
    links: tuple[str, ...] = field(default=(), metadata=_meta(
        "The space lying in each of the map's directions, in their order: a space id of this map, 'off' (off "
        "the edge), 'next:<lane>' (that lane of the next piece's back row) or 'prev:<lane>' (the previous "
        "piece's front row)."))
    walls: tuple[Literal["front", "back"], ...] = field(default=(), metadata=_meta(
        "Edges of the space with a wall (a barricade) along them."))
    arrow: bool = field(default=False, metadata=_meta("An entry arrow at the space's back edge."))

    def check(self) -> tuple[str, str] | None:
        if len(self.at) != 2:
            return ("at", "expected [lane, row]")
        return None


BEND_KINDS = ("straight", "left", "right")


@dataclass(frozen=True)
class SpaceMap:
    """A piece of road as spaces in lanes and rows, straight or bent through a quarter turn; each
    space has a terrain from the legend and, optionally, its neighbour in each direction (the same
    data a rules engine reads)."""

    lanes: int = field(metadata=_meta("Lanes side by side.", min=1, max=20))
    rows: int = field(metadata=_meta("Rows from back to front.", min=1, max=40))
    bend: Literal["straight", "left", "right"] = field(default="straight", metadata=_meta(
        "straight: a rectangle; left / right: a quarter ring turning that way, entered at the bottom edge."))
    inner: float = field(default=0.0, metadata=_meta("A bend's inner radius, in lane widths.", min=0, max=20))
    margin: float = field(default=0.0, metadata=_meta(
        "Roadside on both sides of a straight piece (outside a bend), in lane widths; titles go there.",
        min=0, max=5))
    number: str | None = field(default=None, metadata=_meta("A mark printed large on the piece (a side number)."))
    ids: bool = field(default=True, metadata=_meta("Print each space's id small in its corner."))
    directions: tuple[MapDirection, ...] = field(default=(), metadata=_meta("The directions links are given in."))
    legend: tuple[Terrain, ...] = field(default=(), metadata=_meta("The kinds of space."))
    spaces: tuple[MapSpace, ...] = field(default=(), metadata=_meta("The spaces."))

    def check(self) -> tuple[str, str] | None:
        if self.bend != "straight" and self.inner <= 0:
            return ("inner", "a bend needs an inner radius above 0")
        checks = (("directions", self._directions_problem), ("legend", lambda: _duplicate(self.legend)),
                  ("spaces", self._spaces_problem), ("spaces", self._links_problem))
        for key, check in checks:  # in order: links are only checked once the directions are sound
            problem = check()
            if problem:
                return (key, problem)
        return None

    def _directions_problem(self) -> str | None:
        ids = [d.id for d in self.directions]
        for d in self.directions:
            if d.opposite not in ids:
                return f"direction {d.id!r}: its opposite {d.opposite!r} is not a direction of this map"
        return _duplicate(self.directions)

    def _spaces_problem(self) -> str | None:
        kinds = {t.id for t in self.legend}
        seen: dict[tuple[int, ...], str] = {}
        for i, s in enumerate(self.spaces):
            lane, row = s.at
            if not (0 <= lane < self.lanes and 0 <= row < self.rows):
                return f"spaces[{i}] ({s.id}) at {list(s.at)} is outside {self.lanes} lanes x {self.rows} rows"
            if s.at in seen:
                return f"spaces[{i}] ({s.id}) is at {list(s.at)}, where {seen[s.at]} already is"
            seen[s.at] = s.id
            if s.terrain not in kinds:
                return f"spaces[{i}] ({s.id}): terrain {s.terrain!r} is not in the legend ({', '.join(sorted(kinds))})"
        return _duplicate(self.spaces)

    def _links_problem(self) -> str | None:
        """Every link names a real target, and a link to a space of this map is answered by that
        space's link in the opposite direction."""
        dirs = [d.id for d in self.directions]
        opposite = {d.id: d.opposite for d in self.directions}
        by_id = {s.id: s for s in self.spaces}
        for i, s in enumerate(self.spaces):
            if not s.links:
                continue
            if len(s.links) != len(dirs):
                return f"spaces[{i}] ({s.id}) has {len(s.links)} links; the map has {len(dirs)} directions"
            for d, target in zip(dirs, s.links, strict=True):
                problem = self._target_problem(target, by_id)
                if problem:
                    return f"spaces[{i}] ({s.id}), {d}: {problem}"
                other = by_id.get(target)
                if other is not None and other.links:
                    back = other.links[dirs.index(opposite[d])]
                    if back != s.id:
                        return (f"spaces[{i}] ({s.id}) leads {d} to {target}, but {target} leads {opposite[d]} "
                                f"to {back}, not back to {s.id}")
        return None

    def _target_problem(self, target: str, by_id: dict[str, MapSpace]) -> str | None:
        if target == "off" or target in by_id:
            return None
        kind, _, lane = target.partition(":")
        if kind in ("next", "prev") and lane.isascii() and lane.isdigit() and len(lane) <= 6 and int(lane) < self.lanes:
            return None
        return f"{target!r} is no space of this map, 'off', 'next:<lane>' or 'prev:<lane>'"


def _duplicate(items: tuple[Any, ...]) -> str | None:
    seen: set[str] = set()
    for item in items:
        if item.id in seen:
            return f"{item.id!r} is listed twice"
        seen.add(item.id)
    return None


ART_KINDS = ("icon", "arrows", "grid", "track", "tile", "pips", "number", "spaces")


MAX_DICE = 30  # a die is a net of its own: more than a box of dice is a typo, and slow to print



@dataclass(frozen=True)
class Art:
    """The picture area of a face: exactly one of its kinds."""

    icon: str | None = field(default=None, metadata=_meta("One large icon."))
    arrows: tuple[Direction, ...] | None = field(default=None, metadata=_meta("Movement arrows, in order."))
    grid: Grid | None = field(default=None, metadata=_meta("A grid of spaces with marked cells."))
    track: Track | None = field(default=None, metadata=_meta("A row of numbered spaces."))
    tile: Tile | None = field(default=None, metadata=_meta("A road tile with its exits."))
    pips: int | None = field(default=None, metadata=_meta("A die face with this many pips.", min=1, max=6))
    number: str | None = field(default=None, metadata=_meta("One large number or symbol."))
    spaces: SpaceMap | None = field(default=None, metadata=_meta(
        "A piece of road as a map of spaces (full-layout faces: it covers the face)."))
    caption: str | None = field(default=None, metadata=_meta("Small text under the picture."))
    color: str | None = field(default=None, metadata=_meta(
        "Theme colour name or hex colour of an icon picture (default: ink), for a mark whose colour matters."))

    def check(self) -> tuple[str, str] | None:
        kinds = [k for k in ART_KINDS if getattr(self, k) is not None]
        if len(kinds) != 1:
            return ("", f"expected exactly one of {', '.join(ART_KINDS)}; got {kinds or 'none'}")
        return None


@dataclass(frozen=True)
class Element:
    """A placed element on a board, positioned in millimetres from the board's top-left corner."""

    x: float = field(metadata=_meta("Left edge, mm from the board's left edge.", min=0, max=2000))
    y: float = field(metadata=_meta("Top edge, mm from the board's top edge.", min=0, max=2000))
    width: float = field(metadata=_meta("Width in mm.", min=1, max=2000))
    height: float = field(metadata=_meta("Height in mm.", min=1, max=2000))
    label: str | None = field(default=None, metadata=_meta("Text inside the element."))
    art: Art | None = field(default=None, metadata=_meta("A picture inside the element."))
    style: Literal["slot", "space", "panel", "plain"] = field(
        default="panel", metadata=_meta("slot: dashed card outline; space: a round token space; panel: framed.")
    )
    color: str | None = field(
        default=None,
        metadata=_meta("Theme colour name or hex colour of this element's frame and art (default: the side's)."))
    holds: tuple[str, ...] = field(default=(), metadata=_meta(
        "The components (ids) whose pieces go in this slot, one at a time: the slot must be at least each of "
        "them. Every slot says what it holds; an area for several pieces is a panel (a layout guide)."))

    def check(self) -> tuple[str, str] | None:
        if self.style == "slot" and not self.holds:
            return ("holds", "a slot outlines one piece: say which component's pieces it holds (holds: [id]), "
                    "or make it a panel, a layout guide for several")
        return None


# ---------------------------------------------------------------------------------------------
# Faces


@dataclass(frozen=True)
class FieldLine:
    """A labelled line of a face (Activation: …, Upkeep: …)."""

    label: str = field(metadata=_meta("The label, printed in bold."))
    text: str = field(metadata=_meta("What follows the label; :icon: and **bold** work here."))
    icon: str | None = field(default=None, metadata=_meta("Icon printed before the label."))


@dataclass(frozen=True)
class WriteIn:
    """A write-in space of a proxy face: a label, then ruled lines for the owner's own card text."""

    label: str = field(metadata=_meta("What to write there (Name, Cost, Effect...)."))
    lines: int = field(default=1, metadata=_meta("How many ruled lines (the first one starts after the label).",
                                                  min=1, max=12))


@dataclass(frozen=True)
class Side:
    """One printed side: what is drawn on it."""

    title: str = field(metadata=_meta("The name printed on the side."))
    provenance: Provenance = field(
        metadata=_meta("rulebook: printed in the rulebook; house: our design; proxy: stand-in.")
    )
    section: str | None = field(
        default=None, metadata=_meta(
            "The rulebook section the side comes from (required for rulebook); on a house side, the section "
            "whose contents it restates where only its count or layout is ours (see Origin).")
    )
    subtitle: str | None = field(default=None, metadata=_meta("A type line under the title."))
    text: str | None = field(default=None, metadata=_meta("Body text; :icon: inserts an icon, **bold** is bold."))
    fields: tuple[FieldLine, ...] = field(default=(), metadata=_meta("Labelled lines (Activation: ...)."))
    art: Art | None = field(default=None, metadata=_meta("The picture area."))
    image: str | None = field(
        default=None, metadata=_meta("Artwork file (PNG or JPEG), relative to the game folder.", pattern=PATH,
                                     pattern_doc=PATH_DOC)
    )
    elements: tuple[Element, ...] = field(default=(), metadata=_meta("Placed elements (boards)."))
    color: str | None = field(default=None, metadata=_meta("Theme colour name or hex colour of the frame."))
    corner: str | None = field(default=None, metadata=_meta("Short mark in the top corner (a number, a symbol)."))
    corner_left: str | None = field(
        default=None, metadata=_meta("Short mark in the top-left corner (a cost, a distance); the title moves "
                                     "right of it."))
    note: str | None = field(
        default=None, metadata=_meta("Why this side is house or proxy; shown on the site, not printed.")
    )
    layout: Literal["framed", "full"] = field(
        default="framed",
        metadata=_meta("framed: title band and footer; full: art and elements cover the face (boards end to end)."),
    )
    write_in: tuple[WriteIn, ...] = field(default=(), metadata=_meta(
        "Labelled ruled lines under the text, for the owner's own card text (proxy sides only)."))

    def check(self) -> tuple[str, str] | None:
        if self.provenance == "rulebook" and not self.section:
            return ("section", "a rulebook side must cite its rulebook section (section: ...)")
        if self.write_in and self.provenance != "proxy":
            return ("write_in", "write-in lines belong on proxy sides (provenance: proxy)")
        if self.write_in and self.layout != "framed":
            return ("write_in", "write-in lines are drawn on framed sides only (layout: framed)")
        return None


Source = Literal["rulebook", "house"]


@dataclass(frozen=True)
class Origin:
    """Who decided what a face's own contents do not show: a face is as the rulebook prints it only if
    the rulebook also gives how many copies of it there are and where its parts sit. Validation asks
    for each where it applies to a face with a side tagged rulebook, so a tag cannot claim the publisher
    for our choice (a face of ours may state it too)."""

    counts: Source | None = field(default=None, metadata=_meta(
        "rulebook: the rulebook gives how many of each face there are; house: it gives only the total (or "
        "nothing), so the mix is ours. Stated for every component of more than one face (dice excepted: "
        "a die lists its six sides once each)."))
    layout: Source | None = field(default=None, metadata=_meta(
        "rulebook: the rulebook prints where the parts of the face sit; house: the arrangement is ours. "
        "Stated for every face with a layout: placed elements (boards, trackers), a grid or track, a space "
        "map or road tile exits."))


def has_layout(side: Side) -> bool:
    """Whether a side arranges parts of its own (slots, panels, tracks, grids, spaces, exits): an
    arrangement a text rulebook rarely prints, unlike a card's standard frame."""
    art = side.art
    return bool(side.elements) or (art is not None and any(
        part is not None for part in (art.spaces, art.tile, art.grid, art.track)))


@dataclass(frozen=True)
class Face:
    """One kind of card, token or tile: its front, its back (or the component's back), its count."""

    id: str = field(metadata=_id_meta("Unique within its component; names the PNG file."))
    front: Side = field(metadata=_meta("The front side."))
    count: int = field(default=1, metadata=_meta("How many copies the game has.", min=1, max=500))
    back: Side | None = field(default=None, metadata=_meta("This face's own back; otherwise the component's back."))
    facts: dict[str, Any] | None = field(default=None, metadata=_meta(
        "Game facts the rules engine reads from this face (a weapon's symbol, a character's hit points); "
        "their keys are checked against the engine's own spec."))
    origin: Origin | None = field(default=None, metadata=_meta(
        "This face's own origin where it differs from the component's (`origin:`), key by key."))


@dataclass(frozen=True)
class Proxy:
    """The write-in stand-ins the proxies kit (`roadkit print --proxies`) prints in place of a component's
    house sides, for owners of the boxed game who copy their own cards' text onto them."""

    front: Side = field(metadata=_meta("Printed instead of every house front (provenance: proxy)."))
    back: Side | None = field(default=None, metadata=_meta(
        "Printed instead of every house side a face has as its own back (a two-sided card); default: the front."))

    def check(self) -> tuple[str, str] | None:
        for key, side in (("front", self.front), ("back", self.back)):
            if side is not None and side.provenance != "proxy":
                return (key, "a write-in stand-in is provenance: proxy")
        return None


@dataclass(frozen=True)
class Component:
    """A component of the rulebook's list: a deck, a set of tokens or tiles, a board, dice, cubes."""

    id: str = field(metadata=_id_meta("Unique within the game; names output files."))
    name: str = field(metadata=_meta("As the rulebook's component list names it."))
    kind: Literal["cards", "tokens", "tiles", "board", "dice", "cubes"] = field(metadata=_meta("How it is printed."))
    count: int = field(metadata=_meta(
        "The rulebook's count; must equal the sum of the faces' counts (dice: how many dice, each with six faces).",
        min=1, max=500))
    section: str = field(default="Components", metadata=_meta("The rulebook section that lists it."))
    size: Size = field(default="poker", metadata=_meta("A named size or {width, height} in mm."))
    shape: Literal["rect", "round"] = field(default="rect", metadata=_meta("round: cut as a disc (tokens)."))
    back: Side | None = field(default=None, metadata=_meta("The back shared by every face without its own."))
    faces: tuple[Face, ...] = field(default=(), metadata=_meta("The different faces, each with its count.",
                                                                max_items=200))
    description: str | None = field(default=None, metadata=_meta("A sentence for the components page."))
    order: int = field(default=100, metadata=_meta("Sort order within the game."))
    proxy: Proxy | None = field(default=None, metadata=_meta(
        "Write-in stand-ins that the proxies kit prints instead of this component's house sides (the default kit "
        "prints the house sides)."))
    origin: Origin = field(default_factory=Origin, metadata=_meta(
        "Whether the rulebook gives the mix of faces and the layout of its faces (see Origin); a face may "
        "override it."))
    sits_on: tuple[str, ...] = field(default=(), metadata=_meta(
        "For a marker: the components (ids) whose tracks or grids it sits on; it must be no larger than their "
        "smallest square."))

    def source(self, face: Face, key: Literal["counts", "layout"]) -> Source | None:
        """Who decided this face's `key`: the face's own origin, else the component's."""
        own = getattr(face.origin, key) if face.origin is not None else None
        return own if own is not None else getattr(self.origin, key)

    def ours(self, face: Face) -> bool:
        """Whether the face is our choice beyond its own contents: its count or its layout."""
        return "house" in (self.source(face, "counts"), self.source(face, "layout"))

    def check(self) -> tuple[str, str] | tuple[tuple[str | int, ...], str] | None:
        problem = self._origin_problem()
        if problem:
            return problem
        if self.proxy is not None and not any(s.provenance == "house" for f in self.faces
                                              for s in (f.front, f.back) if s is not None):
            return ("proxy", "no face has a house side for the proxies kit to replace")
        total = sum(f.count for f in self.faces)
        if self.kind == "dice":
            # A die's faces are its six sides; `count` is how many such dice the game has.
            if len(self.faces) != 6 or total != 6:
                return ("faces", f"a die has six faces, each listed once; got {total}")
            if self.count > MAX_DICE:
                return ("count", f"at most {MAX_DICE} dice are printed (one net each); got {self.count}")
            return None
        if (self.kind != "cubes" or self.faces) and total != self.count:
            return ("count", f"the faces add up to {total} but count says {self.count}; the two must agree")
        return None

    def _origin_problem(self) -> tuple[tuple[str | int, ...], str] | None:
        """Every origin that applies is stated, and no side claims the rulebook for what is ours."""
        for i, face in enumerate(self.faces):
            where: tuple[str | int, ...] = ("faces", i)
            sides = (("front", face.front), ("back", face.back))
            if not any(s is not None and s.provenance == "rulebook" for _, s in sides):
                continue  # a side of ours claims nothing: the questions below are for the rulebook's
            if self.kind != "dice" and len(self.faces) > 1 and self.source(face, "counts") is None:
                return ((*where, "origin", "counts"), "say whether the rulebook gives how many of this face there "
                        "are (rulebook) or only the total (house), here or in the component's origin")
            if any(s is not None and has_layout(s) for _, s in sides) and self.source(face, "layout") is None:
                return ((*where, "origin", "layout"), "this face lays out parts of its own: say whether the rulebook "
                        "prints that layout (rulebook) or it is ours (house), here or in the component's origin")
            for key, side in sides:
                if side is not None and side.provenance == "rulebook" and self.ours(face):
                    mine = "count" if self.source(face, "counts") == "house" else "layout"
                    return ((*where, key, "provenance"), f"the {mine} of this face is ours (origin), so the side "
                            "is not as the rulebook prints it: tag it house (keep `section:` to say what it follows)")
        return None


# ---------------------------------------------------------------------------------------------
# Game, theme, glossary, rules


@dataclass(frozen=True)
class Theme:
    """Colours and font of a game's printed components."""

    colors: dict[str, str] = field(
        default_factory=dict, metadata=_meta("Named colours; 'primary', 'accent', 'ink', 'paper' are used by default.")
    )
    font: Literal["dejavu-sans", "dejavu-sans-condensed"] = field(
        default="dejavu-sans", metadata=_meta("Font family of every printed text (embedded, with Cyrillic)."))

    def check(self) -> tuple[str, str] | None:
        for name, value in self.colors.items():
            if not re.fullmatch(HEX, value):
                return ("colors", f"colors.{name}: expected {HEX_DOC}, got {value!r}")
        return None


@dataclass(frozen=True)
class Game:
    """game.yaml: a game's metadata."""

    name: str = field(metadata=_meta("The game's name as the rulebook gives it."))
    status: Literal["ready", "coming"] = field(metadata=_meta("ready: content is complete; coming: listed as coming."))
    code: str = field(metadata=_meta(
        "The game's short code that begins its rule numbers on the site (\"MD 2.4\"): declared here, never "
        "derived, so a game added later renumbers no other game's rules.", pattern=r"[A-ZА-ЯЁЄІЇҐ]{1,5}",
        pattern_doc="one to five capital letters (Latin or Cyrillic)"))
    rulebook: str = field(metadata=_meta("The rulebook transcription this content restates."))
    summary: str = field(metadata=_meta("One or two sentences for the home page."))
    players: str | None = field(default=None, metadata=_meta("How many players, as text (\"1–4\")."))
    subtitle: str | None = field(default=None, metadata=_meta(
        "Shown under the name (a translation of a name in another script, a tagline)."))
    engine: str | None = field(
        default=None, metadata=_meta("The rules package under generators/games/ (or in a folder given with "
                                      "--engines).", pattern=r"[a-z_][a-z0-9_]*")
    )
    theme: Theme = field(default_factory=Theme, metadata=_meta("Colours and font of the printed pieces."))
    # A page each, and every page's navigation lists them all (MkDocs' cost grows as their square).
    chapters: tuple[Chapter, ...] = field(default=(), metadata=_meta("Rules pages, in reading order.", max_items=50))
    needs: tuple[str, ...] = field(default=(), metadata=_meta("What else you need to play (site overview)."))
    order: int = field(default=100, metadata=_meta("Order of the game on the home page."))
    translations: tuple[Translation, ...] = field(default=(), metadata=_meta(
        "Languages the rules reference is also written in: each one's rules entries are "
        "content/<game>/<language>/rules/<id>.md and its glossary content/<game>/<language>/glossary.yaml.",
        max_items=10))


@dataclass(frozen=True)
class PageWords:
    """The words the rules pages print around the content, in a translation's language."""

    rules: str = field(metadata=_meta("The heading of the list of rules pages (\"Rules\")."))
    rulebook: str = field(metadata=_meta("Before the cited section (\"Rulebook\")."))
    related: str = field(metadata=_meta("Before the related entries (\"Related\")."))
    glossary: str = field(metadata=_meta("The glossary page's title (\"Terms\")."))
    quick: str = field(metadata=_meta("The quick reference's title (\"Quick reference\")."))
    glossary_intro: str = field(metadata=_meta("One sentence under the glossary page's title."))
    intro: str = field(metadata=_meta("One or two sentences on the translation's first page: what it is."))


@dataclass(frozen=True)
class Translation:
    """A language the game's rules reference is also written in."""

    language: str = field(metadata=_meta("The language's code (ISO 639-1, as in HTML's lang).", pattern=r"[a-z]{2}"))
    label: str = field(metadata=_meta("The language's own name, on the language switch (\"Українська\")."))
    chapters: dict[str, str] = field(metadata=_meta(
        "Each chapter id of the game with its page title in this language."))
    words: PageWords = field(metadata=_meta("The words the pages print around the content."))


@dataclass(frozen=True)
class RuleText:
    """Front matter of a rules entry's translation (content/<game>/<language>/rules/<id>.md); the body
    below it is the entry in that language, in our own words like the English one."""

    title: str = field(metadata=_meta("The entry's heading in this language."))
    summary: str | None = field(default=None, metadata=_meta("One line in this language."))


@dataclass(frozen=True)
class Chapter:
    """A page of rules entries on the site."""

    id: str = field(metadata=_id_meta("The page's file name and anchor."))
    title: str = field(metadata=_meta("Page title."))


@dataclass(frozen=True)
class Term:
    """A glossary entry."""

    term: str = field(metadata=_meta("The word or phrase as the rules use it."))
    definition: str = field(metadata=_meta("One or two sentences, shown as the tooltip."))
    rule: str | None = field(default=None, metadata=_meta("The rules entry that explains it."))
    aliases: tuple[str, ...] = field(default=(), metadata=_meta("Other spellings that get the same tooltip.",
                                                                max_items=20))


@dataclass(frozen=True)
class Glossary:
    terms: tuple[Term, ...] = field(default=(), metadata=_meta("The glossary entries.", max_items=400))


@dataclass(frozen=True)
class RuleMeta:
    """Front matter of a rules entry (content/<game>/rules/<id>.md)."""

    title: str = field(metadata=_meta("The entry's heading on the site."))
    chapter: str = field(metadata=_meta("The chapter (page) id it belongs to."))
    section: str = field(metadata=_meta("The rulebook section it restates."))
    order: int = field(default=100, metadata=_meta("Reading order within the chapter."))
    related: tuple[str, ...] = field(default=(), metadata=_meta("Ids of related rules entries.", max_items=30))
    summary: str | None = field(default=None, metadata=_meta("One line for the turn summary."))
    replayable: bool = field(
        default=True,
        metadata=_meta("false for entries the engine has nothing to replay in (setup procedures, component lists); "
                       "every other entry needs at least one worked example."),
    )
    gallery: tuple[str, ...] = field(default=(), metadata=_meta(
        "Ids of components whose every face (both sides) is shown under the entry: a tile atlas, a die's faces."))


@dataclass(frozen=True)
class RuleNote:
    """A place where the rulebook is unclear or contradicts itself (content/<game>/notes.yaml)."""

    id: str = field(metadata=_id_meta("Stable anchor."))
    title: str = field(metadata=_meta("Short title."))
    section: str = field(metadata=_meta("The rulebook section concerned."))
    text: str = field(metadata=_meta("What is unclear, the readings, and which one Roadkit follows."))
    rule: str | None = field(default=None, metadata=_meta("The rules entry the note belongs to."))
    settles: Literal["play", "kit"] = field(default="play", metadata=_meta(
        "What the ruling settles: `play`, a reading the rules engine applies (its code marks the place with "
        "`# ruling: <id>`), or `kit`, a question about this kit's components, its printed data or the book's "
        "text that no play depends on."))


@dataclass(frozen=True)
class Notes:
    notes: tuple[RuleNote, ...] = field(default=(), metadata=_meta("The rulebook notes.", max_items=300))


# ---------------------------------------------------------------------------------------------
# tests.yaml: what the tests and the benchmark ask of a game, kept with the game so that a game added
# declares its own and no shared test or tool names a game. No player sees it.


@dataclass(frozen=True)
class SearchTrial:
    """How the search player is measured in this game (tests/test_search_player.py, `make bench`)."""

    setting: str = field(metadata=_meta(
        "The engine's simulation setting (its label) to play: one where the one-step look-ahead neither "
        "always wins nor always loses, so the search has room to show."))
    games: int = field(metadata=_meta("Games per player in the test.", min=2, max=1000))
    simulations: int = field(metadata=_meta("The search's simulations a move in the test.", min=1, max=10000))
    beats_look_ahead: bool = field(default=True, metadata=_meta(
        "The test's few games show the search beating the look-ahead; false where its edge needs more games "
        "than a test plays (the stored large run in figures.json shows it), with the reason in a comment."))


@dataclass(frozen=True)
class BookWords:
    """Words the rulebook prints, and the words our quick reference uses for them."""

    book: str = field(metadata=_meta("Words the rulebook transcription prints (checked against it)."))
    ours: str = field(metadata=_meta("The words the quick reference must hold for them."))


@dataclass(frozen=True)
class TurnSteps:
    """A turn as the rulebook orders it."""

    starts: str = field(metadata=_meta("Words where the turn's section begins in the rulebook."))
    steps: tuple[BookWords, ...] = field(metadata=_meta("Each step, in the book's order.", max_items=30))


@dataclass(frozen=True)
class ChecklistItem:
    """One thing the quick reference must say, written from a rulebook section."""

    section: str = field(metadata=_meta("The rulebook section."))
    book: str = field(metadata=_meta("Words the rulebook prints in that section (checked against it)."))
    says: tuple[str, ...] = field(metadata=_meta("Words and numbers the quick reference must hold.", max_items=20))
    ruling: str | None = field(default=None, metadata=_meta(
        "The note (notes.yaml id) the answer rests on: the quick reference links it as our ruling."))


@dataclass(frozen=True)
class QuickTrial:
    """What the quick reference must answer (tests/test_site_quick_reference.py)."""

    turn: TurnSteps = field(metadata=_meta("The rulebook's turn, step by step."))
    first: BookWords = field(metadata=_meta("Who starts, as the book and as we say it."))
    checklist: tuple[ChecklistItem, ...] = field(metadata=_meta(
        "The rulebook's sections in its order, each with what our quick reference must say.",
        max_items=100))


@dataclass(frozen=True)
class SearchQuestion:
    """A question players ask mid-game, typed as into the site's search, and the entry answering it."""

    query: str = field(metadata=_meta("The words typed."))
    rule: str = field(metadata=_meta("The rules entry id that must be among the first three results."))
    lang: str | None = field(default=None, metadata=_meta(
        "The translation whose pages are searched (game.yaml translations); none: the English pages.",
        pattern=r"[a-z]{2}"))


@dataclass(frozen=True)
class GameTests:
    """tests.yaml: what the tests and the benchmark ask of this game (no player sees it)."""

    search: SearchTrial | None = field(default=None, metadata=_meta(
        "How the search player is measured; every game with an engine gives it."))
    quick: QuickTrial | None = field(default=None, metadata=_meta(
        "What the quick reference must answer; every game with a quick reference gives it."))
    printed_examples: int | None = field(default=None, metadata=_meta(
        "How many worked examples the rulebook prints (counted in its text: \"Example:\", \"Example play\"), "
        "where each is replayed as one example with `source: printed`.", min=0, max=500))
    questions: tuple[SearchQuestion, ...] = field(default=(), metadata=_meta(
        "Players' questions the site's search must answer in its first three results (at least six for a "
        "ready game); grow it with every question the search answered badly.", max_items=200))


@dataclass(frozen=True)
class Icon:
    """A vector icon as SVG path data in a 24x24 box."""

    path: str = field(metadata=_meta("SVG path data (M, L, H, V, C, Q, Z, absolute or relative)."))
    fill: bool = field(default=True, metadata=_meta("Filled (even-odd) or drawn as an outline."))
    title: str | None = field(default=None, metadata=_meta("What the icon shows, for people and tooltips."))


@dataclass(frozen=True)
class Icons:
    icons: dict[str, Icon] = field(default_factory=dict, metadata=_meta("Icons by name (lower-case, dashes)."))


# ---------------------------------------------------------------------------------------------
# Loaded, cross-checked bundle (not a file format)


@dataclass(frozen=True)
class RuleEntry:
    id: str
    meta: RuleMeta
    body: str
    file: str


@dataclass(frozen=True)
class LoadedTranslation:
    """A translation of the game's rules reference: every rules entry and the glossary."""

    spec: Translation
    rules: dict[str, RuleEntry]  # English entry id -> its translation (meta: the English entry's, title swapped)
    glossary: Glossary
    glossary_file: str


@dataclass(frozen=True)
class LoadedGame:
    id: str
    dir: str
    game: Game
    components: tuple[Component, ...]
    rules: tuple[RuleEntry, ...]
    glossary: Glossary
    notes: Notes
    files: dict[str, str] = field(repr=False, default_factory=dict)  # display path -> sha256 of bytes
    docs: dict[str, Any] = field(repr=False, compare=False, default_factory=dict)  # component id -> its Doc
    translations: tuple[LoadedTranslation, ...] = ()
    tests: GameTests = field(default_factory=GameTests, repr=False)  # tests.yaml

    @property
    def component_files(self) -> dict[str, str]:
        return {cid: doc.file for cid, doc in self.docs.items()}

    @property
    def name(self) -> str:
        return self.game.name

    @property
    def engine(self) -> str | None:
        return self.game.engine

    def made_by(self) -> dict[str, str]:
        """Who made what each printed title shows: "house" where every side with that title is our
        design, "rulebook" where any is the rulebook's or restates a rulebook section (a house side
        with `section:`, ours only for its count or layout: its effect is still the rulebook's);
        titles of write-in proxies are left out."""
        sides: dict[str, set[str]] = {}
        for comp in self.components:
            for face in comp.faces:
                for side in (face.front, face.back or comp.back):
                    if side is not None and side.title:
                        follows = side.provenance == "house" and side.section is not None
                        sides.setdefault(side.title, set()).add("rulebook" if follows else side.provenance)
        return {title: "rulebook" if "rulebook" in kinds else "house" for title, kinds in sides.items()
                if "rulebook" in kinds or kinds == {"house"}}
