"""Conquest of the Empire, both editions (Classic 2005 and the original 1984): everything of the game.

ruleset.py is the entry the registry loads (`load`: the editions' data, and the CoeRuleset class implementing the
Ruleset protocol of adjudicator/engine/protocol.py); play.py plays one player-turn as its six phases; the rule
steps are the other modules, named after what they resolve."""
