"""Mail in (eml, mbox, Maildir, IMAP) and out (SMTP, or .eml files in an outbox).

The names below are loaded when first asked for: `pbem ingest` imports adjudicator.mail.handoff to pass a mail to a
running listener, and must not pay for the mail parser (the email package) on the way."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from adjudicator.mail.inbound import Incoming, MailError, html_to_text, order_text, read_message
    from adjudicator.mail.sources import (
        Delivery,
        MailSourceError,
        from_bytes,
        from_imap,
        from_maildir,
        from_mbox,
    )

_HOMES = {
    "Incoming": "inbound",
    "MailError": "inbound",
    "html_to_text": "inbound",
    "order_text": "inbound",
    "read_message": "inbound",
    "Delivery": "sources",
    "MailSourceError": "sources",
    "from_bytes": "sources",
    "from_imap": "sources",
    "from_maildir": "sources",
    "from_mbox": "sources",
}

__all__ = [
    "Delivery",
    "Incoming",
    "MailError",
    "MailSourceError",
    "from_bytes",
    "from_imap",
    "from_maildir",
    "from_mbox",
    "html_to_text",
    "order_text",
    "read_message",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{home}"), name)
