"""One rules package per game, named by `engine:` in its `game.yaml` and loaded by that name
(`generators.rules.contract.load_engine`); a package imports the rules core, never another game."""
