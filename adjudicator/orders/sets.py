"""What every game's order set holds: the header, the orders (each with its line), the lines not understood.

A ruleset's orders subclass `Order`; this module knows no game (rulesets/<game>/orders.py holds the orders).
"""

from __future__ import annotations

from dataclasses import dataclass, field

# The password of every header line is replaced by this mark before an order text is stored (order sets, turns,
# mails): the archive holds no password but its hash. The mark parses as a password, so a stored text replays.
PASSWORD_MARK = "[removed]"


@dataclass(frozen=True)
class Order:
    """One order of any game: the line it came from and its text, so that verdicts and errors can name it."""

    line: int = field(default=0, kw_only=True)
    text: str = field(default="", kw_only=True)


# Orders that every game's mail carries beside its own: press to other seats, the seat's language, and answers
# to the decisions its step waits for (DESIGN.md, Decisions). A ruleset's grammar and builder make them.


@dataclass(frozen=True)
class Press(Order):
    to: str | None  # None: broadcast to every seat
    message: str


@dataclass(frozen=True)
class Language(Order):
    """LANGUAGE de: the seat's reports, receipts and notices come in this language from now on (a code of
    adjudicator.orders.keywords.LANGUAGE_NAMES). The moderator records it; the engine only confirms it."""

    code: str


@dataclass(frozen=True)
class Answer(Order):
    """An answer to a pending decision by its key, e.g. ANSWER battle.NAR.1.retreat: retreat to ITA (C-15)."""

    key: str
    value: str


@dataclass(frozen=True)
class Withdraw(Order):
    """WITHDRAW alone on a line: takes back the seat's stored orders for the turn, so that it has sent none. Read by
    the shared parser for every game (as the END mark is); the services act on it, a ruleset never sees it."""


# Orders that are no move in the game: a mail holding only these leaves the seat's stored orders as they are.
NOT_GAME_ORDERS = (Press, Language, Withdraw)


@dataclass(frozen=True)
class Header:
    game: str
    turn: int
    player: str
    password: str
    line: int = 1


@dataclass(frozen=True)
class OrderError:
    """A line that could not be understood (invalid) or named something ambiguous."""

    line: int
    column: int
    message: str
    kind: str = "invalid"  # "invalid" | "ambiguous"
    text: str = ""

    @property
    def located(self) -> str:
        """The message with its place: 'line 4, column 7: unexpected ...'."""
        return f"line {self.line}, column {self.column}: {self.message}"


@dataclass(frozen=True)
class OrderSet:
    """One seat's orders for one turn: the parser's output."""

    header: Header | None
    orders: tuple[Order, ...] = ()
    errors: tuple[OrderError, ...] = ()
    source: str = ""
