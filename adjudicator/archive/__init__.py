"""The game archive: sqlmodel tables and the functions that read and write them.

`Archive` and `ArchiveError` load SQLAlchemy on first use, so that importing a module of this package that needs
none of it (tables.py, lean.py: `pbem check --game` on a SQLite archive) starts fast."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from adjudicator.archive.store import Archive, ArchiveError

__all__ = ["Archive", "ArchiveError"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from adjudicator.archive import store

        return getattr(store, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
