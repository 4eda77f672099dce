"""Empires of the Ancient World (games/empires-aw/rules.md, rule IDs EAW-n.m), played with the moderator's data."""
