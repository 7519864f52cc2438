"""Where the site's hand-written sources live, relative to the repository."""

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SITE_SRC = REPO / "site"  # hand-written pages and assets, copied as they are
