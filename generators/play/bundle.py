"""What a Play page runs in the browser: a game's content as JSON (no YAML parser in the page), the
engine code as one zip of the `generators` modules the table view and the game's package import
(read from their syntax trees by code_layers, so nothing else ships), and Pyodide, pinned.

The JSON holds exactly what the engine sees (`GameContent`): each face's typed facts as plain data
and the drawn parts of its sides; `content_from_data` converts them back with the engine's own specs,
so the page plays the very content the build checked (a test compares the round trip).
"""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import zipfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generators.build_system.build_graph import Commit, Manifest
from generators.build_system.code_layers import label, module_names, module_path
from generators.build_system.errors import ContentError
from generators.content.model import Side
from generators.content.schema import convert, to_data
from generators.content.yaml_io import Doc, load_yaml
from generators.play.pyodide import FILES, FOLDER, cached
from generators.rules.contract import Game, load_engine
from generators.rules.facts import FaceFacts, GameContent, drawn, game_content
from generators.rules.refusals import SetupError

if TYPE_CHECKING:
    from generators.content.loader import Content
    from generators.content.model import LoadedGame

# What the page imports: the table view, the players (the hint and the computer seats) and the
# browser's entry points; each game's package comes with its own zip entry list (dynamic loads).
ROOTS = ("generators.play.browser",)
STAMP = (1980, 1, 1, 0, 0, 0)  # every zip entry's time: the same code gives the same bytes
PLAY = "play"  # build/play/
ENGINE_ZIP = "engine.zip"
EXAMPLES = "examples.json"  # the worked examples a Play page can open at their setup


def content_data(content: GameContent) -> dict[str, Any]:
    """`content` as plain JSON-ready data."""
    return {
        "game": content.game,
        "names": dict(content.names),
        "components": {
            comp: [{"id": f.id, "title": f.title, "count": f.count, "facts": to_data(f.facts),
                    "front": None if f.front is None else to_data(f.front),
                    "back": None if f.back is None else to_data(f.back)} for f in faces]
            for comp, faces in content.components.items()},
    }


def content_from_data(data: Mapping[str, Any], facts_specs: Mapping[str, type]) -> GameContent:
    """The `GameContent` `content_data` wrote, its facts converted with the engine's specs."""
    doc = Doc(f"{data['game']}.json", data, {})
    components = {}
    for comp, faces in data["components"].items():
        spec = facts_specs[comp]
        components[comp] = tuple(
            FaceFacts(comp, f["id"], f["title"], f["count"], convert(doc, spec, (), f["facts"]),
                      _side(doc, f["front"]), _side(doc, f["back"]))
            for f in faces)
    return GameContent(data["game"], components, dict(data["names"]))


def _side(doc: Doc, data: Any) -> Side | None:
    # A drawn side keeps no rulebook section (facts.drawn), which Side's own check asks of a rulebook
    # side: a stand-in passes the check, and drawn() leaves it out again, as the build's content has it.
    return None if data is None else drawn(convert(doc, Side, (), {**data, "section": "-"}))


def examples_json(game: LoadedGame, engine: Game[Any, Any], facts: GameContent) -> bytes:
    """Each worked example whose setup the engine accepts, by id: its title and its setup as data
    ("play from here" opens the game at that position)."""
    out = {}
    for path in sorted((Path(game.dir) / "examples").glob("*.yaml")):
        data = load_yaml(path).data
        if not isinstance(data, dict) or "setup" not in data or "id" not in data:
            continue
        try:
            engine.initial_state(engine.parse_setup(data["setup"]), facts)
        except (ContentError, SetupError, ValueError, TypeError, KeyError):
            continue  # an example of a setup the rules refuse: nothing to play from
        out[str(data["id"])] = {"title": str(data.get("title", data["id"])), "setup": data["setup"]}
    return json.dumps(out, ensure_ascii=False, sort_keys=True, separators=(",", ":"), default=str).encode()


def content_json(content: GameContent) -> bytes:
    return json.dumps(content_data(content), ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()


def engine_modules(engines: Iterable[str]) -> list[str]:
    """The dotted names of every module the page may import, the given games' packages included."""
    return sorted(module_names(ROOTS, loads=list(engines)))


def engine_zip(engines: Iterable[str]) -> bytes:
    """The modules as a zip Pyodide unpacks into its file system (bytes fixed by the code alone)."""
    paths = {label(module_path(name)): module_path(name) for name in engine_modules(engines)}
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for rel, path in sorted(paths.items()):
            info = zipfile.ZipInfo("generators/" + rel, STAMP)
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, path.read_bytes())
    return buf.getvalue()


def short_digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:12]


def write_play(content: Content, out: Path, manifest: Manifest | None = None) -> Path:
    """build/play/: Pyodide (once per version), the engine zip and each ready game's content JSON, in
    one commit of the build's transaction (a later step that fails puts the old ones back); only files
    whose bytes change are written, and a game's files that are no longer made are removed."""
    folder = out / PLAY
    files: dict[str, bytes] = {}
    engines = []
    for game in content.games:
        if game.game.status != "ready" or not game.game.engine:
            continue
        engine = load_engine(game.game.engine)
        engines.append(game.game.engine)
        facts = game_content(game, engine)
        files[f"{game.id}/content.json"] = content_json(facts)
        files[f"{game.id}/{EXAMPLES}"] = examples_json(game, engine, facts)
    files[ENGINE_ZIP] = engine_zip(engines)
    with Commit(manifest) as commit:
        pyodide = folder / FOLDER
        if not all((pyodide / f).is_file() for f in FILES):
            new = commit.temp_folder(pyodide)
            for f in FILES:
                shutil.copyfile(cached() / f, new / f)
            commit.folder(new, pyodide)
        # Pyodide's other versions stay: the site a failed run puts back may still load one of them.
        commit.sync_folder(folder, files, keep=lambda rel: rel.startswith("pyodide-"))
        commit.apply()
    return folder
