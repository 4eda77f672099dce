"""PBEM adjudicator for ancient-world conquest board games."""

from adjudicator import codecache

__version__ = "0.1.0"

codecache.install()  # before the package's dataclasses are defined: their methods' code is kept (codecache.py)
