"""PBEM adjudicator for ancient-world conquest board games."""

__version__ = "0.1.0"
# the header of each mail pbem sends naming its release (resources.release: the version and a digest of what writes
# the texts): a player's check renders his reports again from the game's record only with the same
# (services/verify_rendered.py)
VERSION_HEADER = "X-PBEM-Version"
