"""What the tests of `pbem serve` and of `pbem ingest` handing its mail to it share: one real Classic game in a
SQLite archive, copies of that archive, and players' mails."""

from __future__ import annotations

import re
import shutil
from email.message import EmailMessage
from pathlib import Path

from adjudicator.archive import Archive
from adjudicator.services.games import NewGameOptions, new_game

SEATS = {"Macedonia": "mac@example.org", "Egyptus": "egy@example.org", "Hispania": "his@example.org"}
STAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00")  # the archive's timestamps (to the second)


def made_game(folder: Path) -> tuple[Path, dict[str, str]]:
    """A Classic game with a moderator (told of forged mails), in one SQLite archive in `folder`; its passwords."""
    archive = Archive.in_folder(folder)
    options = NewGameOptions("rome1", "coe-classic", SEATS, mail={"moderator": "gm@example.org"})
    passwords = new_game(archive, folder, options).passwords
    archive.close()
    return folder, passwords


def copy_of(made: tuple[Path, dict[str, str]], folder: Path) -> Path:
    folder.mkdir()
    shutil.copy(made[0] / "archive.sqlite", folder / "archive.sqlite")
    return folder


def letter(tag: str, number: int, body: str, sender: str = "mac@example.org", **fields: str) -> bytes:
    """A mail as a player's mail program sends it (quoted-printable, a signature), with its own Message-ID
    (<TAG NUMBER@players.example.org>)."""
    message = EmailMessage()
    message["From"] = f"Player <{sender}>"
    message["To"] = "pbem@example.org"
    message["Subject"] = f"orders {number}"
    message["Message-ID"] = f"<{tag}{number}@players.example.org>"
    for name, value in fields.items():
        message[name] = value
    message.set_content(f"Hello,\n\n{body}\n-- \nPlayer\n", charset="utf-8", cte="quoted-printable")
    return bytes(message)
