"""The rules check: every worked example replayed, the scenario schemas, and the report model the
site reads."""
