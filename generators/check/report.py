"""The report model: where the rules check puts what it publishes, as the site and the build read it.
The site reads the check's outputs through these names and imports no other engine code, so an edit
to the engine rebuilds the site only through the outputs it shows (their keys in the manifest)."""

PARTS = "games"  # check/games/<game>.json: each game's part of the report
SIMULATIONS = "simulations"  # check/simulations/<game>/<policy>-<setting>.json: one line of whole-game figures
