"""The one base of the errors a user can cause: the CLI turns any of them into one line and exit status 1."""

from __future__ import annotations


class PbemError(Exception):
    """A problem with the user's input or request; the message says what and where."""
