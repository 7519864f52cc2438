"""The build system, beneath every other layer: keys taken from the code an output imports, one
manifest, commits that leave build/ whole, one build at a time, the one worker pool; with what every
layer shares with it (the error types behind the exit codes, the bounded values a user hands in)."""
