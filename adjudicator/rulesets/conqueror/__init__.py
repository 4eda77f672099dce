"""Conqueror: Empire Rises (rule IDs ER-n.m of the spec, games/conqueror-er/): the moderator's game data (ER-13),
the state and round, the plans and campaign steps, the battle, the order language and the map. Being built: the
README's table of rulesets says what is not in force yet."""
