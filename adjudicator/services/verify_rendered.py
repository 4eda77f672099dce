"""A player's reports held to his game's record (game_record.py): every report his mails hold, public and private,
is the text the record renders.

The record's replay (verify_reports.py) proves its positions are the game's, and its chain heads that it is the
game the public reports printed. What the player read, though, are texts: a public report's events and position,
and his private report, which nobody else sees (his cards, his verdicts, his orders template). A moderator could
have mailed him a hand the game never dealt him. So each report a mail holds is rendered again from the record
(reports.turn_reports, reports.seat_report), for its turns, seat and language, and must be the mail's text line by
line. A private report's turns must be those of the public reports before it (news.py renders both of the same
turns), and in a report mail every other line must be one pbem writes there: the bot's notes, the deadline, the
record's note.

The texts are written by this release's code and templates (resources.release): a mail of another release (its
X-PBEM-Version header) is not compared, nor a text that is no mail, which names none."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING

from adjudicator.mail.clock import DEADLINE_LINES
from adjudicator.orders.keywords import KEYWORD_LANGUAGES
from adjudicator.render.i18n import message_pattern, translations
from adjudicator.resources import release
from adjudicator.services.bots import BACK_FROM_BOT, RUN_BY_BOT, TAKE_BACK
from adjudicator.services.notices import RECORD_NOTE
from adjudicator.services.verify_published import spans

if TYPE_CHECKING:
    from adjudicator.archive.verify_rows import GameRows

PUBLIC_TITLE = "Game %(game)s - public report"
PRIVATE_TITLE = "Game %(game)s - private report for %(seat)s"
HEADINGS = {  # a public report's one turn; a private report's turns
    PUBLIC_TITLE: ("Turn %(number)s: %(seat)s (round %(round)s)", "Turn %(number)s: setup", "Turn %(number)s"),
    PRIVATE_TITLE: ("Turn %(number)s: %(seat)s", "Turn %(number)s"),
}
MAIL_LINES = (*DEADLINE_LINES, RECORD_NOTE, TAKE_BACK, RUN_BY_BOT, BACK_FROM_BOT)  # a report mail's other lines
_HEADING = re.compile(r"=== (.*) ===\Z")


@dataclass(frozen=True)
class ReportCopy:
    """One report as a text (a mail's, a file's) holds it."""

    game: str
    seat: str | None  # the seat of a private report; None for a public one
    language: str
    turns: tuple[int, ...]  # the turns its headings name, in order (a public report has one)
    text: tuple[str, ...]  # the whole text it is in, shared by the reports of that text
    index: int  # its title line's index in `text`
    source: str  # the text's name (a mail's text part)
    version: str  # the pbem release of the mail ("" for a file that is no mail, or a mail of an older pbem)
    report_mail: bool  # in a report mail, which holds nothing else but pbem's notes
    lines: tuple[str, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "lines", self.text[self.index :])  # from its title to the end of the text

    @property
    def where(self) -> str:
        return f"{self.source}:{self.index + 1}"

    @property
    def kind(self) -> str:
        return f"{self.seat}'s private report" if self.seat else "the public report"


@cache
def _titles() -> tuple[tuple[str, str, re.Pattern[str]], ...]:
    """(title, language, pattern) of the reports' title lines in each language the catalogues have."""
    return tuple(
        (title, language, message_pattern(translations(language).gettext(title)))
        for title in HEADINGS
        for language in KEYWORD_LANGUAGES
    )


@cache
def _headings(title: str, language: str) -> tuple[re.Pattern[str], ...]:
    return tuple(message_pattern(translations(language).gettext(heading)) for heading in HEADINGS[title])


def report_copies(source: str, text: str, version: str, report_mail: bool = False) -> list[ReportCopy]:
    """The reports a text holds (`source`: how its problems name it, `version`: its mail's pbem release,
    `report_mail`: whether it is a report mail's text)."""
    lines = tuple(text.splitlines())
    found = []
    for index, line in enumerate(lines):
        kind, language, title = next(
            ((t, lang, m) for t, lang, p in _titles() if (m := p.match(line.strip()))), ("", "", None)
        )
        if title is None:
            continue
        rules = lines[index - 1] if index else None  # the rules' title, which begins every report
        turns = []
        for heading in lines[index + 1 :]:
            if heading == rules:
                break  # the next report begins
            named = _HEADING.match(heading.strip())
            patterns = _headings(kind, language) if named else ()
            number = next((m.group("number") for p in patterns if (m := p.match(named[1])) and named), "")
            if number.isdecimal() and number.isascii() and len(number) < 10:
                turns.append(int(number))
        seat = title.groupdict().get("seat")
        turns = turns if seat else turns[:1]
        found.append(
            ReportCopy(title["game"], seat, language, tuple(turns), lines, index, source, version, report_mail)
        )
    return found


def check_rendered(record: str, stored: GameRows, copies: list[ReportCopy]) -> tuple[list[str], list[str], list[str]]:
    """(lines, problems, notes) of holding a game's reports to its record (`record`: where it is), which has
    replayed."""
    problems: list[str] = []
    compared = [copy for copy in copies if copy.version == release()]
    covered: dict[str, set[int]] = {}  # the line indexes of each text that its reports cover
    failed: set[str] = set()  # the texts with a report that is not the record's (named once)
    agreed: dict[str | None, list[ReportCopy]] = {}
    for copy in compared:
        found = _compare(copy, stored, compared, record)
        if isinstance(found, str):
            problems.append(found)
            failed.add(copy.source)
            continue
        covered.setdefault(copy.source, set()).update(range(copy.index - 1, copy.index + found))  # the rules' title too
        agreed.setdefault(copy.seat, []).append(copy)
    for source, copy in {c.source: c for c in compared if c.report_mail}.items():
        if source not in failed:
            problems += _other_lines(copy, covered.get(source, set()))
    name = stored.game.name
    lines = [
        f"game {name}: {len(found)} "
        + (f"private report(s) for {seat}" if seat else "public report(s)")
        + f" (turn(s) {spans(sorted({n for c in found for n in c.turns}))}) are the record's, line for line"
        + (": the cards, verdicts and positions they showed are the game's" if seat else "")
        for seat, found in sorted(agreed.items(), key=lambda item: item[0] or "")
    ]
    other = Counter(copy.version for copy in copies if copy.version != release())
    notes = [
        f"game {name}: {count} report(s) "
        + (f"in mails of pbem {version}" if version else "in texts that name no pbem release (files, older mails)")
        + f" are not compared with the record: this is pbem {release()}, whose texts may be worded otherwise"
        for version, count in sorted(other.items())
    ]
    return lines, problems, notes


def _compare(copy: ReportCopy, stored: GameRows, copies: list[ReportCopy], record: str) -> str | int:
    """A problem of one report against the record, or the number of its lines the record renders."""
    from adjudicator.services.game_reads import game_ruleset
    from adjudicator.services.game_record import bot_turns
    from adjudicator.services.reports import seat_report, turn_reports

    game, label = stored.game, f"{copy.where}: game {stored.game.name}"
    rows = {row.number: row for row in stored.turns}
    missing = [number for number in copy.turns if number not in rows]
    reported = _reported(copy, copies) if copy.seat else []
    seated = copy.seat is None or copy.seat in {seat.seat for seat in stored.seats}
    if not seated or not copy.turns or missing or reported not in ([], sorted(copy.turns)):
        return f"{label}: {copy.kind} that the record ({record}) cannot give: " + (
            f"it has no seat {copy.seat}"
            if not seated
            else "it names no turn"
            if not copy.turns
            else f"turn(s) {spans(missing)} are not in it"
            if missing
            else f"its turns ({spans(list(copy.turns))}) are not those of the public reports before it "
            f"({spans(reported)})"
        )
    ruleset, states = game_ruleset(game), {number: row.state_json for number, row in rows.items()}
    try:
        if copy.seat:
            text = seat_report(ruleset, game, [rows[n] for n in copy.turns], states, copy.seat, copy.language)
        else:
            number = copy.turns[0]
            bots = bot_turns(stored).get(number, ())
            text = turn_reports(ruleset, game, rows[number], {}, copy.language, states.get(number - 1), bots=bots)[
                "report.txt"
            ]
    except Exception as broken:  # noqa: BLE001 (a forged record that replays yet renders nothing is named)
        return f"{label}: the record ({record}) cannot render {copy.kind}: {broken}"
    rendered = text.splitlines()[1:]  # from its title: the rules' title aside
    for index, line in enumerate(rendered):
        held = copy.lines[index] if index < len(copy.lines) else "(the text ends)"
        if held.rstrip() != line.rstrip():
            return (
                f"{copy.source}:{copy.index + index + 1}: game {game.name} turn(s) {spans(list(copy.turns))}: "
                f"{copy.kind} is not the one the record ({record}) gives: this line reads {held!r}; rendered from "
                f"the record it reads {line!r}"
            )
    return len(rendered)


def _reported(copy: ReportCopy, copies: list[ReportCopy]) -> list[int]:
    """The turns of the public reports between the private report before `copy` in its text (or the text's start)
    and `copy`."""
    same = [c for c in copies if c.source == copy.source and c.index < copy.index]
    since = max((c.index for c in same if c.seat), default=-1)
    return sorted({n for c in same if c.seat is None and c.index > since for n in c.turns})


def _other_lines(copy: ReportCopy, covered: set[int]) -> list[str]:
    """The lines of a report mail's text outside its reports that pbem does not write there."""
    say = translations(copy.language).gettext
    allowed = [message_pattern(say(line)) for line in MAIL_LINES]
    for index, line in enumerate(copy.text):
        if index not in covered and line.strip() and not any(p.match(line.strip()) for p in allowed):
            return [
                f"{copy.source}:{index + 1}: game {copy.game}: a line pbem does not write in a report mail, outside "
                f"its reports: {line!r}"
            ]
    return []
