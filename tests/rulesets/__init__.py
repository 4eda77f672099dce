"""Rulesets that exist only for the tests, plugged in through the Ruleset protocol alone (PBEM_RULESETS)."""
