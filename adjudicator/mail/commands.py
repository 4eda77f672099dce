"""Mail commands: lines of an order mail that ask the judge something instead of ordering the game.

    HELP [game]                      what one can write (answered to registered addresses only)
    PASSWORD RESET <game> <seat>     a new password, mailed to the seat's registered address only (the old one
                                     works until the new one is first used)
    OBSERVE <game> [token]           receive a game's public reports: without the token, a confirmation with
                                     the token is mailed; with it, observing starts
    UNOBSERVE <game>                 stop receiving them
    STATUS                           (after an order header) deadline, who has sent orders, missed turns
    TIMEZONE <zone>                  (after an order header) the seat's time zone for deadlines
    MYORDERS                         (after an order header) the orders stored for the seat's open turn, checked
                                     again: a fresh receipt
    REPORT [n]                       (after an order header) turn n's report as the seat got it (default: the latest)
    HISTORY                          (after an order header) the game's turns, whose they were and when resolved
    LIST                             the sender's games and seats (answered to registered addresses only)
    RESIGN                           (after an order header) the seat is given up for good; the moderator is told
    SET ADDRESS <address>            (after an order header) a token is mailed to the new address, which sends
    SET ADDRESS <game> <token>       this line back (no header) to become the seat's address
    READY / WAIT                     (after an order header) the seat's turn may be resolved before its deadline /
                                     not before it (the game's option `early` says when a turn goes early)
    AWAY <from> <to>                 (after an order header) an absence (dates, UTC): its turns are not counted
                                     missed; AWAY alone ends it

The keywords are in grammar/keywords.toml in the four languages. The mailbox service (services/mailbox.py) takes
these lines out of the text before the order parser reads it (blanked, so that the parser's line numbers stay
those of the mail).
"""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.orders.keywords import KEYWORD_LANGUAGES, keyword_of, keyword_table

COMMANDS = (
    *("HELP", "STATUS", "OBSERVE", "UNOBSERVE", "TIMEZONE", "MYORDERS", "REPORT", "HISTORY", "LIST", "RESIGN"),
    *("READY", "WAIT", "AWAY"),
)
# the commands of two keywords: the first word, then the second, which names the command
PAIRS = {"PASSWORD": "RESET", "SET": "ADDRESS"}
WITHOUT_HEADER = ("HELP", "RESET", "OBSERVE", "UNOBSERVE", "LIST", "ADDRESS")  # RESET: PASSWORD RESET


@dataclass(frozen=True)
class Command:
    name: str  # one of COMMANDS, or the second word of a pair: RESET (PASSWORD RESET), ADDRESS (SET ADDRESS)
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
    second = PAIRS.get(first or "")
    if second is not None and len(words) > 1 and keyword_of().get(words[1].casefold()) == second:
        return Command(second, tuple(words[2:]), number, _language_of(words[1], second))
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
