"""The print kit's renderers. ReportLab settings every document we write shares are made here, on
the package's import, so no renderer can miss them."""

from reportlab import rl_config

# Streams stay binary (Flate only): ASCII85 made them 25 % bigger for PDF readers that all accept
# binary, and cost CPU. Same content still gives byte-identical PDFs (invariant=1).
rl_config.useA85 = 0
