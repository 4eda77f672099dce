"""How much of one mail is read, and reading it from a stream within that: standard library only, so that `pbem
ingest` can read a mail before it knows whether a running `pbem serve` takes it (handoff.py)."""

from __future__ import annotations

from typing import BinaryIO

# Limits of what is read of one mail: an order mail is a few KB of text; these leave room for an HTML
# alternative, a signature image and an attached orders file, and keep a hostile mail from costing the site memory
# and time. Constants, not game options: they protect the site, whatever the game.
MAX_MAIL_BYTES = 2 * 1024 * 1024  # a larger mail is refused unread: only its header is read
HEAD_BYTES = 64 * 1024  # how much of a mail's beginning is read for its header fields


def limited(stream: BinaryIO) -> tuple[bytes, int]:
    """A message from a stream: its bytes, or only its beginning when it is larger than MAX_MAIL_BYTES (the rest is
    read and counted in small pieces, never kept); and its size."""
    data = stream.read(MAX_MAIL_BYTES + 1)
    if len(data) <= MAX_MAIL_BYTES:
        return data, len(data)
    size, head = len(data), data[:HEAD_BYTES]
    del data
    while piece := stream.read(1024 * 1024):
        size += len(piece)
    return head, size
