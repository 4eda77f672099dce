"""Mail in (eml, mbox, Maildir, IMAP) and out (SMTP, or .eml files in an outbox)."""

from adjudicator.mail.inbound import Incoming, MailError, html_to_text, order_text, read_message
from adjudicator.mail.sources import (
    Delivery,
    MailSourceError,
    from_bytes,
    from_imap,
    from_maildir,
    from_mbox,
)

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
