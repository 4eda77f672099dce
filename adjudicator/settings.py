"""The tool's configuration that is no game's: the one place the core names a ruleset."""

# The ruleset of `pbem selfplay`, `demo` and `odds` when no --ruleset is given, and the one whose words the help
# texts give first (`pbem odds --help` speaks its forms). Any registered ruleset's name will do.
DEFAULT_RULESET = "coe-classic"
