"""Moved to adjudicator/rulesets/coe/told.py (what Conquest of the Empire's reports tell beyond the events).

Kept for the callers that import it from here until they take it from the ruleset (issue 13: the services move
onto the ruleset protocol in the next wave); then this file goes.
"""

from adjudicator.rulesets.coe.told import losses_of, told

__all__ = ["losses_of", "told"]
