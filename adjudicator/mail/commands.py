"""Mail commands: lines of an order mail that ask the judge something instead of ordering the game.

    HELP [game]                      what one can write (answered to registered addresses only)
    PASSWORD RESET <game> <seat>     a new password, mailed to the seat's registered address only (the old one
                                     works until the new one is first used)
    OBSERVE <game> [token]           receive a game's public reports: without the token, a confirmation with
                                     the token is mailed; with it, observing starts
    UNOBSERVE <game>                 stop receiving them
    STATUS                           (after an order header) deadline, who has sent orders, missed turns
    TIMEZONE <zone>                  (after an order header) the seat's time zone for deadlines

The keywords are in grammar/keywords.toml in the four languages. The mailbox service (services/mailbox.py) takes
these lines out of the text before the order parser reads it (blanked, so that the parser's line numbers stay
those of the mail).
"""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.orders.keywords import KEYWORD_LANGUAGES, keyword_of, keyword_table

COMMANDS = ("HELP", "STATUS", "OBSERVE", "UNOBSERVE", "TIMEZONE")
WITHOUT_HEADER = ("HELP", "RESET", "OBSERVE", "UNOBSERVE")  # RESET: the PASSWORD RESET command


@dataclass(frozen=True)
class Command:
    name: str  # HELP, STATUS, OBSERVE, UNOBSERVE, TIMEZONE or RESET (for PASSWORD RESET)
    args: tuple[str, ...]
    line: int
    language: str  # the language of the command's keyword: the answer's language for a sender without a seat


def _language_of(word: str, name: str) -> str:
    """The first language (English first) that spells keyword `name` as `word`."""
    spelled = keyword_table()[name]
    return next((lang for lang in KEYWORD_LANGUAGES if word.upper() in spelled[lang]), "en")


def command_of(line: str, number: int) -> Command | None:
    """The mail command a line holds, or None when it is no command (an order, a header, a greeting)."""
    words = line.split("#", 1)[0].split()
    if not words:
        return None
    first = keyword_of().get(words[0].casefold())
    if first == "PASSWORD" and len(words) > 1 and keyword_of().get(words[1].casefold()) == "RESET":
        return Command("RESET", tuple(words[2:]), number, _language_of(words[1], "RESET"))
    if first in COMMANDS:
        return Command(first, tuple(words[1:]), number, _language_of(words[0], first))
    return None


def split_commands(text: str) -> tuple[str, list[Command]]:
    """The mail commands of a text, and the text with their lines blanked (the other lines keep their numbers)."""
    lines = text.split("\n")
    found = []
    for i, line in enumerate(lines):
        command = command_of(line, i + 1)
        if command is not None:
            found.append(command)
            lines[i] = ""
    return "\n".join(lines), found
