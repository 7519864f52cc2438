"""The rules core the game packages build on: the contract, chance, the content's facts, records,
refusals, what each seat observes, SVG drawing helpers and shared words. Imports content and the
build system only."""
