"""The Play page of each game: the page, and what it loads from build/play/ (the engine zip, the
game's content as JSON, Pyodide), staged only when `roadkit build` made them. Pyodide and the engine
zip live once at the top of the site (the hub), where every game's page reaches them; file names
carry a digest of their bytes, so a browser's cache (and the offline copy) never mixes versions.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from generators.site.escape import text
from generators.site.staged_docs import Stage

PLAY = "play"  # build/play/, and the hub's folder of the same name
PAGE = "play.md"
CONTENT = "content.json"
EXAMPLES = "examples.json"
ENGINE_ZIP = "engine.zip"


@dataclass(frozen=True)
class PlayFiles:
    pyodide: Path  # build/play/pyodide-<version>/
    engine_zip: Path

    @property
    def engine_name(self) -> str:
        return f"engine-{_digest(self.engine_zip)}.zip"


def play_files(out: Path) -> PlayFiles | None:
    """What build/play/ holds for the Play pages, or None when it was not made."""
    folder = out / PLAY
    found = sorted(folder.glob("pyodide-*")) if folder.is_dir() else []
    if not found or not (folder / ENGINE_ZIP).is_file():
        return None
    return PlayFiles(found[-1], folder / ENGINE_ZIP)


def key_files(out: Path, game: str | None) -> list[Path]:
    """The files a project's key hashes for its Play parts: the hub's Pyodide and engine zip, a game's
    content JSON and the zip (its page names the zip's digest)."""
    files = play_files(out)
    if files is None:
        return []
    if game is None:
        return [files.engine_zip, *sorted(files.pyodide.iterdir())]
    return [files.engine_zip, out / PLAY / game / CONTENT, out / PLAY / game / EXAMPLES]


def stage_hub(stage: Stage, out: Path) -> None:
    files = play_files(out)
    if files is None:
        return
    for path in sorted(files.pyodide.iterdir()):
        stage.copy(f"{PLAY}/{files.pyodide.name}/{path.name}", path)
    stage.copy(f"{PLAY}/{files.engine_name}", files.engine_zip)


def stage_game(stage: Stage, out: Path, game_id: str, engine: str, name: str) -> str | None:
    """The game's Play page (its docs path), or None when build/play/ lacks what it needs."""
    files = play_files(out)
    source = out / PLAY / game_id / CONTENT
    if files is None or not source.is_file() or not (out / PLAY / game_id / EXAMPLES).is_file() or not engine:
        return None
    content = f"{PLAY}/content-{_digest(source)}.json"
    stage.copy(f"{game_id}/{content}", source)
    examples_source = out / PLAY / game_id / EXAMPLES
    examples = f"{PLAY}/examples-{_digest(examples_source)}.json"
    stage.copy(f"{game_id}/{examples}", examples_source)
    page = f"{game_id}/{PAGE}"
    stage.text(page, page_text(name, engine, game_id, content, examples, files))
    return page


def page_text(name: str, engine: str, game_id: str, content: str, examples: str, files: PlayFiles) -> str:
    return f"""# Play {text(name)}

Play a game against the computer in this page: the same rules that check this site's worked examples
run in your browser. Your game is kept in this browser and goes on after a reload.

<div id="rk-play" data-game="{game_id}" data-engine="{engine}" data-content="{content}" data-examples="{examples}"
 data-pyodide="../{PLAY}/{files.pyodide.name}/" data-engine-zip="../{PLAY}/{files.engine_name}"
 data-worker="assets/play-worker.js" data-sw="../play-sw.js" data-sw-scope="../">
<p class="rk-play-status">The game needs JavaScript: its rules run in the page.</p>
</div>

<script src="assets/play.js"></script>
"""


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:12]


def playable_examples(out: Path, game_id: str) -> frozenset[str]:
    """The worked examples the Play page can open at their setup ("play from here")."""
    path = out / PLAY / game_id / EXAMPLES
    try:
        return frozenset(json.loads(path.read_text("utf-8")))
    except (OSError, ValueError):
        return frozenset()
