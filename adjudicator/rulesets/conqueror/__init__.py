"""Conqueror: Empire Rises (rule IDs ER-n.m of the spec, games/conqueror-er/): so far its game data only
(ER-13: the data format, its checks, the template); play comes later."""
