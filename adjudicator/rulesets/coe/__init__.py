"""Conquest of the Empire, both editions (Classic 2005 and the original 1984): everything of the game.

play.py is the entry the registry calls (initial_state, play_turn, broken_invariants); the rule steps are the
other modules, named after what they resolve."""
