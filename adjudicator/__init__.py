"""PBEM adjudicator for ancient-world conquest board games."""

__version__ = "0.1.0"
