"""A tiny player by mail for tests/test_play_by_mail.py: he knows only the mails he was sent (besides the printed
board and the rulebook's piece counts in his box, and the words of his language), reads the orders template at
the end of his latest welcome or report, fills its forms in with choices read from that same mail, and mails the
orders back, as a human player would.

The orders template a player reads (the contract a ruleset's template meets; see the test module's docstring):

    GAME <game> TURN <n> PLAYER <seat> PASSWORD <your password>    the header: four keywords (in the seat's
                                                                    language), each with its value; the password
                                                                    a placeholder in angle brackets
    # Heading:                                                      comment lines at the left margin: headings
    #   information line                                            indented comment lines: information ...
    # Examples:                                                     ... until the template's last heading that
    #   ORDER FORM <placeholder> ...   # explanation                ends in ':'; the indented comment lines after
                                                                    it are order forms, which a player sends once
                                                                    he has replaced each <placeholder> (a form
                                                                    without one can be sent as it stands, but
                                                                    WITHDRAW, which takes the orders back)
"""

from __future__ import annotations

import os
import random
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from functools import cache
from pathlib import Path

from typer.testing import CliRunner

from adjudicator.cli import app
from adjudicator.orders.keywords import written
from adjudicator.render.i18n import gettext
from adjudicator.resources import resource_dir

HEADER = re.compile(r"^(\S+) (\S+) (\S+) (\d+) (\S+) (\S+) (\S+) <[^<>]+>\s*$")
PLACEHOLDER = re.compile(r"<[^<>]+>")


@dataclass(frozen=True)
class Words:
    """The language a player reads and writes: the phrases of his mails (the catalogue's, as a native reader
    knows them) and his order keywords."""

    language: str = "en"

    def text(self, msgid: str, **values: object) -> str:
        return gettext(self.language, msgid, **values)

    def prefix(self, msgid: str) -> str:
        """The translated message up to its first value."""
        return self.text(msgid).split("%(")[0]

    def pattern(self, msgid: str) -> re.Pattern[str]:
        """The translated message as a regular expression, each %(name)s a group of that name."""
        parts = re.split(r"%\((\w+)\)s", self.text(msgid))
        pieces = [re.escape(part) if i % 2 == 0 else f"(?P<{part}>.+?)" for i, part in enumerate(parts)]
        return re.compile("".join(pieces) + "$", re.MULTILINE)

    def kw(self, name: str) -> str:
        return written(self.language, name)


ENGLISH = Words()


@dataclass
class MovableClock:
    """The moderator's clock, which the test moves on past reminders and deadlines."""

    moment: datetime

    def now(self) -> datetime:
        return self.moment

    def advance(self, hours: float) -> None:
        self.moment += timedelta(hours=hours)


@dataclass
class Template:
    """The orders template at the end of a mail: its header fields, information lines and order forms."""

    game: str
    turn: int
    seat: str
    header: str  # the header line as given, with the password placeholder
    information: dict[str, list[str]]  # heading -> the indented lines under it
    headings: list[str]  # every heading line, as written (a heading may carry text after its ':')
    forms: list[str]  # the order forms, without '#' and explanation

    def with_password(self, password: str) -> str:
        return PLACEHOLDER.sub(password, self.header)


def read_template(body: str, game: str, seat: str) -> Template | None:
    """The last orders template for `seat` of `game` in a mail's body, or None."""
    lines = body.splitlines()
    starts = [
        i
        for i, line in enumerate(lines)
        if (m := HEADER.match(line)) and m.group(2) == game and m.group(6).casefold() == seat.casefold()
    ]
    if not starts:
        return None
    first = HEADER.match(lines[starts[-1]])
    assert first is not None
    comments = []
    for line in lines[starts[-1] + 1 :]:
        if not line.startswith("#"):
            break
        comments.append(line[1:])
    headings = [i for i, text in enumerate(comments) if text.strip() and not text.startswith("  ")]
    information: dict[str, list[str]] = {}
    for number, at in enumerate(headings):
        end = headings[number + 1] if number + 1 < len(headings) else len(comments)
        information[comments[at].strip()] = [text.strip() for text in comments[at + 1 : end] if text.strip()]
    last = max((i for i in headings if comments[i].rstrip().endswith(":")), default=None)
    forms = [] if last is None else [re.sub(r"\s{2,}#.*$", "", text).strip() for text in comments[last + 1 :]]
    return Template(
        game=first.group(2),
        turn=int(first.group(4)),
        seat=first.group(6),
        header=lines[starts[-1]].strip(),
        information=information,
        headings=[comments[i].strip() for i in headings],
        forms=[form for form in forms if form],
    )


@cache
def land_neighbours(ruleset: str) -> dict[str, list[str]]:
    """The printed board a player has in his box: each land area's land neighbours (straits left out)."""
    board = tomllib.loads((resource_dir("games") / ruleset / "board.toml").read_text(encoding="utf-8"))
    land = {a["code"] for a in board["area"] if a["kind"] == "land"}
    return {a["code"]: sorted(n for n in a["adjacent"] if n in land) for a in board["area"] if a["code"] in land}


@dataclass
class Pieces:
    leaders: list[str] = field(default_factory=list)  # generals: G1, G2 ...
    caesar: int = 0
    counts: dict[str, int] = field(default_factory=dict)  # unit word -> number
    city: bool = False
    arrived: int = 0  # combat units that moved here this turn (C-5.2: their move is spent)
    arrived_leaders: int = 0

    def leading(self) -> int:
        """Leaders in the sense of the stacking limit: Caesar, generals, and a city he controls (O-5.7)."""
        return self.caesar + len(self.leaders) + self.arrived_leaders + int(self.city)

    def units(self) -> int:
        return sum(self.counts.values()) + self.arrived


def my_pieces(lines: list[str], words: Words = ENGLISH) -> dict[str, Pieces]:
    """`MAC: CAESAR G2 G3 4 INF GALLEY 1 (fortified city)` lines (in the player's words) -> area -> pieces."""
    found = {}
    for line in lines:
        m = re.match(r"^([A-Z]{3,4}): (.*)$", line)
        if not m:
            continue
        pieces = Pieces(city="(" in m.group(2))
        said = m.group(2).split("(")[0].split()
        i = 0
        while i < len(said):
            if re.fullmatch(r"G\d+", said[i]):
                pieces.leaders.append(said[i])
            elif said[i] == words.kw("caesar"):
                pieces.caesar = 1
            elif said[i] == words.kw("galley"):
                i += 1  # its number
            elif said[i].isdigit() and i + 1 < len(said):
                pieces.counts[said[i + 1]] = int(said[i])
                i += 1
            i += 1
        found[m.group(1)] = pieces
    return found


# The infantry in the box (C-1.1: 20 of each colour; O-1.2: 60 shared by all players)
BOX_INFANTRY = {"coe-classic": (20, "own"), "coe-1984": (60, "shared")}


def infantry_on_board(body: str, unit: str, seat: str | None, words: Words = ENGLISH) -> int:
    """The infantry the (first) position in a mail shows: of `seat`, or of every seat when None."""
    lines = body.split(words.text("Pieces on the board") + "\n", 1)[1].split("\n\n", 1)[0].splitlines()
    count, owner = 0, ""
    for line in lines:
        words = line.split(":", 1)[1].split()
        for i, word in enumerate(words):
            if word.endswith(":"):
                owner = word[:-1]
            elif word == unit and words[i - 1].isdigit() and seat in (None, owner):
                count += int(words[i - 1])
    return count


def distances(ruleset: str, sources: set[str]) -> dict[str, int]:
    """Land steps from each area to the nearest of `sources` on the printed board."""
    found = dict.fromkeys(sources, 0)
    frontier = sorted(sources)
    while frontier:
        nearer = []
        for area in frontier:
            for near in land_neighbours(ruleset).get(area, []):
                if near not in found:
                    found[near] = found[area] + 1
                    nearer.append(near)
        frontier = nearer
    return found


def coe_orders(
    ruleset: str, body: str, template: Template, rng: random.Random, first: bool, words: Words = ENGLISH
) -> list[str]:
    """A Conquest of the Empire player's orders: up to two generals march with some infantry to a neighbouring
    province on the way to the nearest enemy province, he buys the infantry his treasury and tribute pay for
    (and a city where he can), and he copies the standing order the template shows (the first time).
    Everything but the board and the rulebook's numbers comes from the mail."""
    seat = template.seat
    pieces = my_pieces([line for lines in template.information.values() for line in lines], words)
    said = next(h for h in template.headings if h.startswith(words.text("Prices now:")))
    prices = {name.strip().casefold(): int(price) for name, price in re.findall(r"([^\d,:]+) (\d+)", said)}
    infantry_price, city_price = prices[words.text("infantry").casefold()], prices[words.text("city").casefold()]
    money = sum(map(int, words.pattern("Treasury %(treasury)s, tribute %(tribute)s.").search(body).groups()))  # type: ignore[union-attr]
    table = body.split(words.text("Players (turn order)"), 1)[1]
    table = table.split("\n" + words.prefix("Inflation level %(level)s"), 1)[0]  # the latest position's
    owners = {m.group(1): set(m.group(2).split()) for m in re.finditer(r"^(\w+)\s+\d+\s+\d+  (.*)$", table, re.M)}
    mine = owners.pop(seat, set())
    enemy = distances(ruleset, set().union(*owners.values()))
    city = f"(?:{re.escape(words.text('fortified city'))}|{re.escape(words.text('city'))})"
    cities = set(re.findall(rf"^  ([A-Z]{{3,4}}) \[\w+\] {city}", body, re.MULTILINE))
    home = words.pattern("You play %(seat)s (home province %(home)s). Turn order: %(seats)s.").search(body)
    orders = []
    move = next((f for f in template.forms if re.fullmatch(r"\S+ \S+ \S+ \d+ \S+: [A-Z]{3,4} -> <[^>]+>", f)), None)
    keyword, _, with_word, _, unit = move.split(": ")[0].split() if move else ("", "", "", "", "")
    for area in sorted(pieces) if move else []:
        here = pieces[area]
        for general in list(here.leaders):
            infantry = here.counts.get(unit, 0)
            # O-5.7 (1984): what stays may not exceed 7 per leader left there; C-5.6: 7 units a leader moves
            least = max(1, here.units() - 7 * (here.leading() - 1))
            if len(orders) == 2 or least > min(infantry, 7):
                continue
            count = rng.randint(least, min(infantry, 7))
            fitting = [
                t
                for t in land_neighbours(ruleset)[area]
                if pieces.get(t, Pieces()).units() + count <= 7 * (pieces.get(t, Pieces()).leading() + 1)
            ]
            if not fitting:
                continue
            nearest = min(enemy.get(t, 99) for t in fitting)  # towards the nearest enemy province
            target = rng.choice([t for t in fitting if enemy.get(t, 99) == nearest])
            here.counts[unit] = infantry - count
            here.leaders.remove(general)
            there = pieces.setdefault(target, Pieces())
            there.arrived_leaders += 1
            there.arrived += count
            orders.append(f"{keyword} {general} {with_word} {count} {unit}: {area} -> {target}")
    buy = next(f for f in template.forms if re.fullmatch(r"\S+ \d+ \S+, \S+ \S+ <[^>]+>", f))
    buy_word, _, buy_unit, city_word, at_word, _ = buy.replace(",", "").split()
    if home is None or home.group("home") in mine:  # C-12.4: no units without the home province
        limit, pool = BOX_INFANTRY[ruleset]
        left = limit - infantry_on_board(body, buy_unit, seat if pool == "own" else None, words)
        infantry = max(0, min(money // infantry_price, 4, left))
        rest = money - infantry * infantry_price
        sites = sorted(a for a in mine if a not in cities and a in pieces)
        if infantry and sites and rest >= city_price:
            orders.append(f"{buy_word} {infantry} {buy_unit}, {city_word} {at_word} {rng.choice(sites)}")
        elif infantry:
            orders.append(f"{buy_word} {infantry} {buy_unit}")
    if first:
        orders += as_they_stand(template, words)
    return orders


def forms_as_they_stand(
    ruleset: str, body: str, template: Template, rng: random.Random, first: bool, words: Words = ENGLISH
) -> list[str]:
    """A player who knows no more of a game than its template: he sends the forms that need nothing filled in."""
    return as_they_stand(template, words)


def as_they_stand(template: Template, words: Words) -> list[str]:
    """The forms that need nothing filled in, but WITHDRAW, which stands alone in a mail (it takes the orders back)."""
    return [f for f in template.forms if not PLACEHOLDER.search(f) and f.split()[0] != words.kw("withdraw")]


Chooser = Callable[[str, str, Template, random.Random, bool, Words], list[str]]
CHOOSERS: dict[str, Chooser] = {
    "coe-classic": coe_orders,
    "coe-1984": coe_orders,
    "conqueror-er": forms_as_they_stand,
}


def body_of(mail: EmailMessage) -> str:
    part = mail.get_body(("plain",))
    assert part is not None, f"no text part in {mail['Subject']!r}"
    return part.get_content()  # type: ignore[no-any-return]


@dataclass
class Player:
    """One seat's human: his address, the mails he got, the mails he sent."""

    game: str
    ruleset: str
    seat: str
    address: str
    rng: random.Random
    words: Words = ENGLISH
    inbox: list[EmailMessage] = field(default_factory=list)
    sent: dict[str, str] = field(default_factory=dict)  # Message-ID -> the order text
    mails: list[EmailMessage] = field(default_factory=list)  # what he sent
    turns_sent: list[int] = field(default_factory=list)
    answered: set[str] = field(default_factory=set)  # the Message-IDs of the decision notices he answered
    count: int = 0

    @property
    def password(self) -> str:
        """From the welcome mail: `Your password is: ...`."""
        for mail in self.inbox:
            found = self.words.pattern("Your password is: %(password)s").search(body_of(mail))
            if found:
                return found.group("password")
        raise AssertionError(f"{self.seat} was mailed no password")

    def latest(self) -> tuple[EmailMessage, Template] | None:
        """His latest mail with an orders template, and the template."""
        for mail in reversed(self.inbox):
            template = read_template(body_of(mail), self.game, self.seat)
            if template is not None:
                return mail, template
        return None

    def unanswered_notice(self, subject: re.Pattern[str]) -> tuple[EmailMessage, str, list[str]] | None:
        """His latest decision notice (a subject that `subject` finds) if he has not answered it: the mail, its
        header line and its ready-made ANSWER lines, each the default written as an answer."""
        notices = [m for m in self.inbox if subject.search(m["Subject"])]
        if not notices or notices[-1]["Message-ID"] in self.answered:
            return None
        lines = [line.strip() for line in body_of(notices[-1]).splitlines()]
        (header,) = [line for line in lines if HEADER.match(line)]
        answer = written(self.words.language, "answer")
        return notices[-1], header, [line for line in lines if line.startswith(answer + " ")]

    def orders(self) -> tuple[EmailMessage, Template, list[str]]:
        """The orders he writes from his latest report (or welcome)."""
        latest = self.latest()
        assert latest is not None, f"{self.seat} has no orders template to answer"
        mail, template = latest
        # what the latest mail says comes first; the welcome (his first mail) adds the home province
        body = "\n".join([body_of(mail), body_of(self.inbox[0])])
        lines = CHOOSERS[self.ruleset](self.ruleset, body, template, self.rng, not self.turns_sent, self.words)
        return mail, template, lines

    def mail(self, header: str, lines: list[str], answering: EmailMessage | None = None) -> tuple[str, bytes]:
        """An order mail as a mail program writes it: a greeting, the orders, a signature."""
        self.count += 1
        message = EmailMessage()
        message["From"] = f"{self.seat} player <{self.address}>"
        message["To"] = "moderator@example.org"
        message["Subject"] = f"Re: {answering['Subject']}" if answering else "orders"
        message["Message-ID"] = f"<{self.seat}.{self.count}@players.example.org>"
        if answering is not None:
            message["In-Reply-To"] = answering["Message-ID"]
        text = "\n".join([header, *lines])
        message.set_content(f"Hello,\n\n{text}\n\n-- \n{self.seat}\n", charset="utf-8")
        self.sent[message["Message-ID"]] = text
        self.mails.append(message)
        return message["Message-ID"], bytes(message)


def receipt_problems(body: str, words: Words = ENGLISH) -> dict[int, str]:
    """A receipt's lines that were not understood or rejected: line number -> the verdict."""
    bad = "|".join(
        re.escape(words.prefix(msgid))
        for msgid in (
            "not understood (column %(column)s): %(problem)s",
            "rejected (%(rule)s): %(reason)s",
            "rejected: %(reason)s",
        )
    )
    found = {}
    for m in re.finditer(rf"^  {re.escape(words.text('line'))} +(\d+)  .*\n +((?:{bad}).*)$", body, re.MULTILINE):
        found[int(m.group(1))] = m.group(2)
    return found


def not_understood(verdict: str, words: Words = ENGLISH) -> re.Match[str] | None:
    return words.pattern("not understood (column %(column)s): %(problem)s").match(verdict)


def corrected(text: str, problems: dict[int, str], words: Words = ENGLISH) -> str:
    """The order text with each not-understood word replaced by the receipt's "did you mean" suggestion (of
    several, the one that begins as the mistaken word does: what the player meant)."""
    lines = text.splitlines()
    for number, verdict in problems.items():
        said = not_understood(verdict, words)
        m = said and re.search(r"'([^']+)' \(did you mean (.*)\?\)$", said.group("problem"))
        assert said and m, f"line {number}: no suggestion to correct it with: {verdict}"
        column, wrong = int(said.group("column")), m.group(1)
        suggested = re.findall(r"(?:^|, | or )([A-Z][A-Z0-9]*)\b", m.group(2))
        right = max(suggested, key=lambda word: len(os.path.commonprefix([word, wrong])))
        line = lines[number - 1]
        assert line[column - 1 : column - 1 + len(wrong)] == wrong, (line, verdict)
        lines[number - 1] = line[: column - 1] + right + line[column - 1 + len(wrong) :]
    return "\n".join(lines)


class Postman:
    """`pbem send --eml-dir` into a folder, and each new .eml file handed to the player it is addressed to."""

    def __init__(self, data: Path, folder: Path, players: dict[str, Player], moderator: str) -> None:
        self.data, self.folder, self.players, self.moderator = data, folder, players, moderator
        self.runner = CliRunner()
        self.seen: set[str] = set()
        self.moderators: list[EmailMessage] = []

    def deliver(self) -> list[tuple[Player, EmailMessage]]:
        sent = self.runner.invoke(app, ["send", "--eml-dir", str(self.folder), "--data", str(self.data)])
        assert sent.exit_code == 0 and "0 failed" in sent.output, sent.output
        new = []
        for path in sorted(self.folder.glob("*.eml"), key=lambda p: int(p.name.split("-")[0])):
            if path.name in self.seen:
                continue
            self.seen.add(path.name)
            mail = BytesParser(policy=policy.default).parsebytes(path.read_bytes())
            assert isinstance(mail, EmailMessage)
            if mail["To"] == self.moderator:
                self.moderators.append(mail)
                continue
            (player,) = [p for p in self.players.values() if p.address == mail["To"]]
            player.inbox.append(mail)
            new.append((player, mail))
        return new
