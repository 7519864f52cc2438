"""Where the site's hand-written sources live, relative to the repository."""

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SITE_SRC = REPO / "site"  # hand-written pages and assets, copied as they are
# What the hub puts at the top of the site besides the hand-written pages (MkDocs' and Material's
# files, the search index): a game's folder there would collide with one of them.
HUB_NAMES = frozenset({"assets", "search", "index", "404", "sitemap"})


def reserved_names(site_src: Path = SITE_SRC) -> frozenset[str]:
    """Names a game's folder may not have: the site's own at its top."""
    own = {p.name.split(".", 1)[0] for p in site_src.iterdir()} if site_src.is_dir() else set()
    return HUB_NAMES | own
