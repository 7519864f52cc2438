"""What keeps the print kit fast without changing it: ReportLab's C accelerator in use, binary (not
ASCII85) streams, and the same content still giving byte-identical PDFs."""

from __future__ import annotations

from generators.content.loader import load_content
from tests.helpers import CONTENT


def test_reportlab_uses_its_c_accelerator() -> None:
    from reportlab.lib import rl_accel

    for name in ("fp_str", "escapePDF", "instanceStringWidthTTF", "unicode2T1"):
        assert getattr(rl_accel, name).__module__ == "_rl_accel", name


def test_documents_have_binary_streams_and_stay_byte_identical() -> None:
    from generators.pdf import documents
    from generators.pdf.faces import Look
    from generators.pdf.options import CARD_KINDS, Options

    content = load_content(CONTENT, ["mission-drive"])
    game = content.games[0]
    made = [documents.duplex(game, Look(game, content.icons), Options(paper="a4"), CARD_KINDS, "cards")
            for _ in range(2)]
    assert made[0] == made[1]
    assert b"/FlateDecode" in made[0] and b"ASCII85" not in made[0]


def test_the_text_fit_cache_draws_only_changed_sides_and_still_finds_overflow(tmp_path, monkeypatch) -> None:
    import pytest

    from generators.build_system import build_cache
    from generators.build_system.errors import ContentError
    from generators.pdf import fit
    from tests.helpers import copy_content

    content = copy_content(tmp_path, ("mission-drive",))
    card = content / "mission-drive" / "components" / "zz-fit.yaml"
    head = "id: fit\nname: Fit\nkind: cards\ncount: 1\nfaces:\n  - id: a\n    front:\n"
    fine = "      title: Fine\n      provenance: house\n"
    card.write_text(head + fine, "utf-8")
    drawn: list[str] = []
    real = fit.audit_side
    monkeypatch.setattr(fit, "audit_side", lambda look, comp, side: drawn.append(side.title) or real(look, comp, side))
    with build_cache.caching(tmp_path / "cache"):
        _fitted(content)
        build_cache.save()
    assert len(drawn) > 20 and (tmp_path / "cache" / fit.CACHE_FILE).exists()
    drawn.clear()
    with build_cache.caching(tmp_path / "cache"):
        _fitted(content)  # nothing changed: nothing drawn
    assert drawn == []
    card.write_text(head + fine + "      text: >-\n        " + "Move one space and roll. " * 60 + "\n", "utf-8")
    with build_cache.caching(tmp_path / "cache"), pytest.raises(ContentError, match="does not fit"):
        _fitted(content)
    assert drawn == ["Fine"]  # only the edited side
    drawn.clear()
    with build_cache.caching(None), pytest.raises(ContentError, match="does not fit"):
        _fitted(content)  # without the cache: the same mistake, every side drawn until it
    assert len(drawn) > 1


def _fitted(root) -> None:
    """Load the content and run the fit check on every game, as the validation pass does."""
    from generators.pdf.fit import check_text_fit

    content = load_content(root)
    for game in content.games:
        check_text_fit(game, content.icons)


def _printed(tmp_path, games: tuple[str, ...]):
    """A copy of `games`' content printed once (A4, no PNGs): (content, build folder, the CLI arguments)."""
    from tests.helpers import copy_content, run_cli

    content = copy_content(tmp_path, games)
    out = tmp_path / "build"
    args = ("print", "--no-png", "--paper", "a4", "--content", content, "--out", out, "-q")
    assert run_cli(*args).returncode == 0
    return content, out, args


def test_a_remembered_content_model_never_hides_a_new_mistake(tmp_path) -> None:
    from tests.helpers import run_cli

    content, out, args = _printed(tmp_path, ("mission-drive",))
    assert (out / ".cache" / "content-mission-drive.pickle").exists() and (out / ".cache" / "text-fit.json").exists()
    assert run_cli(*args).returncode == 0  # remembered
    game = content / "mission-drive" / "game.yaml"
    game.write_text(game.read_text("utf-8").replace("name:", "name: [unclosed", 1), "utf-8")
    broken = run_cli(*args)
    assert broken.returncode == 2 and "game.yaml:" in broken.stderr, broken.stderr


def test_an_edit_to_one_game_reloads_that_game_alone(tmp_path) -> None:
    from tests.helpers import run_cli

    games = ("mission-drive", "vampire-chase")
    content, out, args = _printed(tmp_path, games)
    cached = {g: out / ".cache" / f"content-{g}.pickle" for g in games}
    before = {g: p.read_bytes() for g, p in cached.items()}
    rules = sorted((content / "vampire-chase" / "rules").glob("*.md"))[0]
    rules.write_text(rules.read_text("utf-8") + "\nOne more sentence for the test.\n", "utf-8")
    assert run_cli(*args).returncode == 0
    assert cached["mission-drive"].read_bytes() == before["mission-drive"]  # taken as it was
    assert cached["vampire-chase"].read_bytes() != before["vampire-chase"]  # loaded again, with the edit
    assert b"One more sentence for the test." in cached["vampire-chase"].read_bytes()
    shared = content / "icons.yaml"  # outside every game: each game is loaded again
    shared.write_text(shared.read_text("utf-8") + "\n", "utf-8")
    assert run_cli(*args).returncode == 0
    assert cached["mission-drive"].read_bytes() != before["mission-drive"]


def test_a_removed_games_remembered_model_goes_with_it_and_older_versions_entries(tmp_path) -> None:
    import shutil

    from tests.helpers import run_cli

    content, out, args = _printed(tmp_path, ("mission-drive", "vampire-chase"))
    cache = out / ".cache"
    (cache / "content.pickle").write_bytes(b"an entry of an older version")
    # What Zensical wrote here while earlier versions ran it in build/: numbered files and its index.
    zensical = ("10450421714888733546", "mkdocstrings.json", "objects.inv", ".gitignore")
    for name in zensical:
        (cache / name).write_bytes(b"{}")
    shutil.rmtree(content / "vampire-chase")
    assert run_cli(*args).returncode == 0
    assert (cache / "content-mission-drive.pickle").exists()
    assert not (cache / "content-vampire-chase.pickle").exists() and not (cache / "content.pickle").exists()
    assert not [name for name in zensical if (cache / name).exists()]
    assert (cache / "text-fit.json").exists()  # a live entry stays


def test_the_site_pages_are_checked_again_only_when_they_change(tmp_path, monkeypatch) -> None:
    """The hand-written pages' check runs once per change of their bytes (a print of one edited card
    skips it), and a mistake written there later is still found."""
    import shutil

    from generators import validate
    from generators.cli import main as cli_main
    from generators.site import paths
    from tests.helpers import copy_content

    site = tmp_path / "site"
    shutil.copytree(paths.SITE_SRC, site)
    monkeypatch.setattr(paths, "SITE_SRC", site)
    calls: list[int] = []
    real = validate.check_site_pages
    monkeypatch.setattr(validate, "check_site_pages", lambda **kw: calls.append(1) or real(**kw))
    content = copy_content(tmp_path, ("vampire-chase",))
    game = content / "vampire-chase" / "game.yaml"
    args = ["print", "--content", str(content), "--out", str(tmp_path / "build"), "--paper", "a4", "--no-png", "-q"]

    def edit(n: int) -> None:  # a change to the content, so that the run is not a no-op
        game.write_text(game.read_text("utf-8") + f"\n# edit {n}\n", "utf-8")

    assert cli_main(args) == 0 and len(calls) == 1
    edit(1)
    assert cli_main(args) == 0 and len(calls) == 1  # the pages as they were: not checked again
    about = site / "about.md"
    about.write_text(about.read_text("utf-8") + "\n[a dead link](no-such-page.md)\n", "utf-8")
    edit(2)
    assert cli_main(args) == 2 and len(calls) == 2  # checked again, and the mistake found
    edit(3)
    assert cli_main(args) == 2 and len(calls) == 3  # a failed check is never remembered
