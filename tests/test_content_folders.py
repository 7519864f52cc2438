"""Nothing under content/ is passed over: every folder is a game or a located error (and a game's
components/, rules/, examples/ hold only their own kind of file), a game's stored
figures (figures.json) are checked like any content file, and a control character written as a
YAML escape is refused where any text is read (a path or an id above all). Each case is one
located line from `roadkit validate`, exit 2, and a build that stops on it leaves build/ as it was."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from generators.build_system.errors import ContentError
from generators.site.paths import HUB_NAMES, reserved_names
from generators.validate import validate
from tests.helpers import copy_content, fingerprint, run_cli

GAME = "vampire-chase"
LINE = re.compile(r"^(?P<file>[^\n]+?):(?P<line>\d+):(?P<col>\d+): (?P<path>[^\n]+?): (?P<msg>[^\n]+)$")


def _copy(content: Path, name: str) -> Path:
    shutil.copytree(content / GAME, content / name)
    return content / name


def _game_yml(content: Path) -> Path:
    folder = _copy(content, "second-game")
    (folder / "game.yaml").rename(folder / "game.yml")
    return folder


# (what is done to a content copy, returns the folder to be named; a word the message must hold)
FOLDERS: dict[str, tuple[Callable[[Path], Path], str]] = {
    "game.yml instead of game.yaml": (_game_yml, "game.yml"),
    "an empty folder": (lambda c: (c / "notes").mkdir() or c / "notes", "game.yaml"),
    "a name with spaces and dots": (lambda c: _copy(c, "Bad Name..x"), "id"),
    "an upper-case name": (lambda c: _copy(c, "Vampire"), "id"),
    "a name too long": (lambda c: _copy(c, "x" * 65), "id"),
    "the site's assets": (lambda c: _copy(c, "assets"), "site"),
    "the site's search": (lambda c: _copy(c, "search"), "site"),
    "a hand-written page's name": (lambda c: _copy(c, "about"), "site"),
    "a broken link": (lambda c: (c / "gone").symlink_to(c / "nowhere") or c / "gone", "link"),
    "a folder of links in a circle": (lambda c: (c / "loop-a").symlink_to(c / "loop-b") or
                                      (c / "loop-b").symlink_to(c / "loop-a") or c / "loop-a", "link"),
    "a lookalike of a game's name": (lambda c: _copy(c, "vamp\u0456re-chase"), "id"),
    "a rules page linked to a device": (lambda c: (c / GAME / "rules" / "zero.md").symlink_to("/dev/zero")
                                        or c / GAME / "rules" / "zero.md", "not a file"),
    "a subfolder of rules": (lambda c: (c / GAME / "rules" / "extra").mkdir() or c / GAME / "rules" / "extra",
                             "never reads"),
    "a component file named .yml": (lambda c: (c / GAME / "components" / "more.yml").write_text("{}")
                                    and c / GAME / "components" / "more.yml", "never reads"),
    "an example saved as .txt": (lambda c: (c / GAME / "examples" / "race.yaml.txt").write_text("{}")
                                 and c / GAME / "examples" / "race.yaml.txt", "never reads"),
    "game.yaml a folder": (lambda c: (_copy(c, "other") / "game.yaml").unlink() or (c / "other" / "game.yaml").mkdir()
                           or c / "other" / "game.yaml", "folder"),
}


@pytest.mark.parametrize("case", FOLDERS)
def test_every_folder_is_a_game_or_a_located_error(tmp_path: Path, case: str) -> None:
    content = copy_content(tmp_path, (GAME,))
    change, word = FOLDERS[case]
    named = change(content)
    with pytest.raises(ContentError) as err:
        validate(content, [GAME])  # also when --game leaves the folder out
    e = err.value
    assert Path(e.file).name == named.name or Path(e.file).resolve() == named.resolve(), str(e)
    assert (e.line, e.column) == (1, 1) and word in e.message, str(e)


def test_hidden_files_and_backups_beside_content_are_left_alone(tmp_path: Path) -> None:
    content = copy_content(tmp_path, (GAME,))
    for name in (".more.yaml.swp", "more.yaml~", ".DS_Store"):
        (content / GAME / "components" / name).write_text("{}", "utf-8")
    (content / GAME / "rules" / ".drafts").mkdir()
    validate(content, [GAME])  # no error: nobody means these as content


def test_reserved_names_hold_the_hubs_and_the_hand_written_pages(tmp_path: Path) -> None:
    site = tmp_path / "site"
    (site / "extra").mkdir(parents=True)
    (site / "rules-intro.md").write_text("# x\n", "utf-8")
    assert reserved_names(site) == HUB_NAMES | {"extra", "rules-intro"}


def _figures(mutate: Callable[[dict], object]) -> Callable[[Path], str]:
    def write(folder: Path) -> str:
        path = folder / "figures.json"
        data = json.loads(path.read_text("utf-8"))
        mutate(data)
        path.write_text(json.dumps(data, indent=1, sort_keys=True), "utf-8")
        return path.read_text("utf-8")
    return write


def test_a_truncated_figures_file_is_refused_at_its_end(tmp_path: Path) -> None:
    content = copy_content(tmp_path, (GAME,))
    path = content / GAME / "figures.json"
    text = path.read_text("utf-8")[:3000]
    path.write_text(text, "utf-8")
    with pytest.raises(ContentError) as err:
        validate(content, [GAME])
    lines = text.split("\n")
    assert Path(err.value.file).name == "figures.json"
    assert (err.value.line, err.value.column) == (len(lines), len(lines[-1]) + 1) or \
        err.value.line == len(lines), str(err.value)  # where the JSON reader stopped: the cut
    assert "JSON" in err.value.message


@pytest.mark.parametrize(("mutate", "keypath"), [
    (lambda d: d["plays"]["settings"][0].__setitem__("games", "lots"), "plays.settings[0].games"),
    (lambda d: d["plays"].__setitem__("settingz", d["plays"].pop("settings")), "plays.settingz"),
    (lambda d: d.__setitem__("plays", []), "plays"),
    (lambda d: d["balance"]["effects"][1].__setitem__("flagged", "no"), "balance.effects[1].flagged"),
], ids=["a number as text", "a misspelt key", "a part as a list", "a flag as text"])
def test_a_figures_file_of_the_wrong_shape_is_refused_at_the_value(tmp_path: Path, mutate: Callable[[dict], object],
                                                                  keypath: str) -> None:
    content = copy_content(tmp_path, (GAME,))
    text = _figures(mutate)(content / GAME)
    with pytest.raises(ContentError) as err:
        validate(content, [GAME])
    e = err.value
    assert Path(e.file).name == "figures.json" and str(e).split(": ")[1] == keypath, str(e)
    key = keypath.rsplit(".", 1)[-1].split("[")[0]
    assert f'"{key}"' in text.split("\n")[e.line - 1], str(e)  # the line of the value's key


@pytest.mark.parametrize("escape", ["\\0", "\\t", "\\n", "\\x07", "\\e", "\\u0085", "\\x9b", "\\x7f"])
def test_a_control_character_from_an_escape_is_refused_where_a_path_is_read(tmp_path: Path, escape: str) -> None:
    content = copy_content(tmp_path, (GAME,))
    comp = sorted((content / GAME / "components").glob("*.yaml"))[0]
    lines = comp.read_text("utf-8").split("\n")
    at = next(i for i, line in enumerate(lines) if re.match(r"\s+title: ", line))
    indent = re.match(r"\s+", lines[at]).group(0)
    lines.insert(at + 1, f'{indent}image: "art{escape}.png"')
    comp.write_text("\n".join(lines), "utf-8")
    with pytest.raises(ContentError) as err:
        validate(content, [GAME])
    e = err.value
    assert Path(e.file).name == comp.name and (e.line, e.column) == (at + 2, len(indent) + 1), str(e)
    assert e.keypath[-1] == "image" and "control character" in e.message


def test_a_control_character_in_a_mapping_key_is_refused(tmp_path: Path) -> None:
    content = copy_content(tmp_path, (GAME,))
    game_yaml = content / GAME / "game.yaml"
    text = game_yaml.read_text("utf-8")
    m = re.search(r"\n(\s+)colors:\n", text)
    assert m
    game_yaml.write_text(text[:m.end()] + f'{m.group(1)}  "ink\\0": "#000000"\n' + text[m.end():], "utf-8")
    with pytest.raises(ContentError) as err:
        validate(content, [GAME])
    assert "control character" in err.value.message and Path(err.value.file).name == "game.yaml"


@pytest.mark.parametrize("case", ["game.yml", "figures", "escape"])
def test_the_command_exits_2_with_one_line_and_leaves_build_as_it_was(tmp_path: Path, case: str) -> None:
    content = copy_content(tmp_path, (GAME,))
    out = tmp_path / "build"
    out.mkdir()
    (out / "keep.txt").write_text("as it was", "utf-8")
    before = fingerprint(out)
    if case == "game.yml":
        _game_yml(content)
    elif case == "figures":
        (content / GAME / "figures.json").write_text('{"plays": ', "utf-8")
    else:
        game_yaml = content / GAME / "game.yaml"
        text = re.sub(r"^name: .*$", 'name: "A\\0B"', game_yaml.read_text("utf-8"), count=1, flags=re.M)
        game_yaml.write_text(text, "utf-8")
    result = run_cli("build", "--content", content, "--out", out, "-q")
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and LINE.match(lines[0]), result.stderr
    assert fingerprint(out) == before
