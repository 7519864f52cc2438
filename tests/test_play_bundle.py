"""What the Play pages load, made by the build: each game's content as JSON gives back exactly the
content the build's engine sees, and the engine zip alone (no PyYAML, ReportLab or Pillow, as in
Pyodide) plays a game through the browser's entry points, which send the table view only."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from generators.play.bundle import content_data, content_from_data, content_json, engine_zip
from generators.rules.contract import load_engine
from generators.rules.facts import game_content
from tests.helpers import real_content

GAMES = [g for g in real_content().games if g.game.engine]


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_content_json_round_trips_to_the_engines_content(game) -> None:
    engine = load_engine(game.game.engine)
    facts = game_content(game, engine)
    back = content_from_data(json.loads(content_json(facts)), engine.facts_specs)
    assert back == facts
    assert content_data(back) == content_data(facts)


# Runs in a fresh interpreter with only the zip on its path and the heavy libraries refused.
PLAY = """
import json, sys
class Refuse:
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in ('yaml', 'reportlab', 'PIL', 'jinja2'):
            raise ImportError('not in the browser: ' + name)
sys.meta_path.insert(0, Refuse())
sys.path.insert(0, sys.argv[1])
from generators.play import browser
assert browser.__file__.startswith(sys.argv[1]), browser.__file__
view = json.loads(browser.start(sys.argv[2], open(sys.argv[3]).read(), "{}", json.dumps({"seed": 3})))
for _ in range(6):
    if view["over"]:
        break
    view = json.loads(browser.computer(0.01) if view["computer_to_act"] else browser.choose(1))
print(json.dumps({"keys": sorted(view), "log": len(view["log"]), "undo": json.loads(browser.undo())["undo"]}))
"""


def test_the_engine_zip_plays_without_yaml_reportlab_or_pillow(tmp_path: Path) -> None:
    zipped = tmp_path / "engine.zip"
    zipped.write_bytes(engine_zip([g.game.engine for g in GAMES]))
    assert zipped.read_bytes() == engine_zip([g.game.engine for g in GAMES]), "the zip's bytes vary"
    names = zipfile.ZipFile(zipped).namelist()
    assert not [n for n in names if n.startswith(("generators/pdf/", "generators/site/"))], names
    game = GAMES[0]
    engine = load_engine(game.game.engine)
    data = tmp_path / "content.json"
    data.write_bytes(content_json(game_content(game, engine)))
    done = subprocess.run([sys.executable, "-I", "-S", "-c", PLAY, str(zipped), game.game.engine, str(data)],
                          capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    got = json.loads(done.stdout)
    assert {"svg", "log", "choices", "figures", "saved"} <= set(got["keys"])
    assert got["log"] > 0


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_play_from_here_starts_at_an_examples_setup_and_undoes_back_to_it(game) -> None:
    from generators.play import browser
    from generators.play.bundle import examples_json

    engine = load_engine(game.game.engine)
    facts = game_content(game, engine)
    examples = examples_json(game, engine, facts).decode()
    offered = sorted(json.loads(examples))
    assert offered, f"{game.id}: no worked example to play from"
    view = json.loads(browser.start(game.game.engine, content_json(facts).decode(), examples,
                                    json.dumps({"example": offered[0], "seed": 2})))
    assert view["saved"]["example"] == offered[0] and "as in the example" in view["log"][0]["said"]
    if view["choices"]:
        json.loads(browser.choose(1))
        assert json.loads(browser.undo())["log"] == view["log"]
