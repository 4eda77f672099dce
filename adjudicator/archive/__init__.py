"""The game archive: sqlmodel tables and the functions that read and write them."""

from adjudicator.archive.store import Archive, ArchiveError

__all__ = ["Archive", "ArchiveError"]
