"""A player's private reports held to his game's record (game_record.py): the cards, verdicts and positions each one
showed him are those of the game the record replays.

The record's replay (verify_reports.py) proves its positions are the game's, and its chain heads that it is the game
the public reports printed. A private report, though, is rendered for one seat and seen by nobody else: a moderator
could show a player cards the game never dealt him. So each private report a mail holds is rendered again from the
record (reports.seat_report), for the seat and the turns its headings name and in its language, and must be the
mail's text line by line.

The texts are this pbem's templates: a mail written by another version (its X-PBEM-Version header) is not compared,
nor a text that is no mail, which names no version."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from adjudicator.mail.clock import DEADLINE_LINES
from adjudicator.orders.keywords import KEYWORD_LANGUAGES
from adjudicator.render.i18n import message_pattern, translations
from adjudicator.resources import release
from adjudicator.services.notices import RECORD_NOTE
from adjudicator.services.verify_published import spans

if TYPE_CHECKING:
    from adjudicator.archive.verify_rows import GameRows

PRIVATE_TITLE = "Game %(game)s - private report for %(seat)s"
PRIVATE_HEADINGS = ("Turn %(number)s: %(seat)s", "Turn %(number)s")
_HEADING = re.compile(r"=== (.*) ===\Z")


@dataclass(frozen=True)
class PrivateCopy:
    """One private report as a mail (or a file) holds it."""

    game: str
    seat: str
    language: str
    turns: tuple[int, ...]  # the turns its headings name, in order
    lines: tuple[str, ...]  # the text from its title line ("Game demo - private report for aurel") to the end
    source: str  # the file (a mail's text part) it is in
    first: int  # the line number of its title line in it
    version: str  # the pbem version of the mail ("" for a file that is no mail, or a mail of an older pbem)
    report_mail: bool  # in a report mail, which ends with it, the deadline and the record's note

    @property
    def where(self) -> str:
        return f"{self.source}:{self.first}"


@cache
def _titles() -> tuple[tuple[str, re.Pattern[str]], ...]:
    """(language, pattern) of a private report's title line in each language the catalogues have."""
    return tuple(
        (language, message_pattern(translations(language).gettext(PRIVATE_TITLE))) for language in KEYWORD_LANGUAGES
    )


@cache
def _headings(language: str) -> tuple[re.Pattern[str], ...]:
    return tuple(message_pattern(translations(language).gettext(heading)) for heading in PRIVATE_HEADINGS)


def private_copies(source: str, text: str, version: str, report_mail: bool = False) -> list[PrivateCopy]:
    """The private reports a text holds (`source`: how its problems name it, `version`: its mail's pbem version,
    `report_mail`: whether it is a report mail's text)."""
    lines = text.splitlines()
    found = []
    for index, line in enumerate(lines):
        language, title = next(((lang, m) for lang, p in _titles() if (m := p.match(line.strip()))), ("", None))
        if title is None:
            continue
        rules = lines[index - 1] if index else None  # the rules' title, which begins every report
        turns = []
        for heading in lines[index + 1 :]:
            if heading == rules:
                break  # the next report begins
            named = _HEADING.match(heading.strip())
            number = next((m.group("number") for p in _headings(language) if named and (m := p.match(named[1]))), "")
            if number.isdecimal() and number.isascii() and len(number) < 10:
                turns.append(int(number))
        shown, turns_named = tuple(lines[index:]), tuple(turns)
        seat, first = title["seat"], index + 1
        found.append(
            PrivateCopy(title["game"], seat, language, turns_named, shown, source, first, version, report_mail)
        )
    return found


def check_private_reports(
    record: str, stored: GameRows, copies: list[PrivateCopy], public: Mapping[str, list[tuple[int, int]]]
) -> tuple[list[str], list[str], list[str]]:
    """(lines, problems, notes) of holding a game's private reports to its record (`record`: where it is), which
    has replayed. `public`: the (line, turn) of each public report's turn section, by the text it is in: a private
    report covers the turns of the public sections before it (news.py renders both of the same turns)."""
    from adjudicator.services.game_reads import game_ruleset
    from adjudicator.services.reports import seat_report

    game = stored.game
    ruleset = game_ruleset(game)
    rows = {row.number: row for row in stored.turns}
    states = {number: row.state_json for number, row in rows.items()}
    seats = {seat.seat for seat in stored.seats}
    problems: list[str] = []
    agreed: dict[str, set[int]] = {}
    reports: Counter[str] = Counter()
    other = Counter(copy.version for copy in copies if copy.version != release())
    for copy in (copy for copy in copies if copy.version == release()):
        label = f"{copy.where}: game {game.name}"
        missing = [number for number in copy.turns if number not in rows]
        reported = _reported(copy, copies, public.get(copy.source, []))
        if copy.seat not in seats or not copy.turns or missing or reported not in ([], sorted(copy.turns)):
            problems.append(
                f"{label}: a private report for {copy.seat} that the record ({record}) cannot give: "
                + (
                    f"it has no seat {copy.seat}"
                    if copy.seat not in seats
                    else "it names no turn"
                    if not copy.turns
                    else f"turn(s) {spans(missing)} are not in it"
                    if missing
                    else f"its turns ({spans(list(copy.turns))}) are not those of the public reports before it "
                    f"({spans(reported)})"
                )
            )
            continue
        try:
            text = seat_report(ruleset, game, [rows[n] for n in copy.turns], states, copy.seat, copy.language)
        except Exception as broken:  # noqa: BLE001 (a forged record that replays yet renders nothing is named)
            problems.append(f"{label}: the record ({record}) cannot render {copy.seat}'s report: {broken}")
            continue
        rendered = text.splitlines()[1:]  # from its title: the rules' title aside
        differs = _first_difference(rendered, copy.lines)
        if differs is None and copy.report_mail:
            differs = _added(copy.lines[len(rendered) :], copy.language, len(rendered))
        if differs is not None:
            at, mailed, rendered = differs
            problems.append(
                f"{copy.source}:{copy.first + at}: game {game.name} turn(s) {spans(list(copy.turns))}: "
                f"{copy.seat}'s private report is not the one the record ({record}) gives: this line reads "
                f"{mailed!r}; rendered from the record it reads {rendered!r}"
            )
            continue
        agreed.setdefault(copy.seat, set()).update(copy.turns)
        reports[copy.seat] += 1
    lines = [
        f"game {game.name}: {reports[seat]} private report(s) for {seat} (turn(s) {spans(sorted(turns))}) are the "
        "record's, line for line: the cards, verdicts and positions they showed are the game's"
        for seat, turns in sorted(agreed.items())
    ]
    notes = [
        f"game {game.name}: {count} private report(s) "
        + (f"in mails of pbem {version}" if version else "in texts that name no pbem release (files, older mails)")
        + f" are not compared with the record: this is pbem {release()}, whose texts may be worded otherwise"
        for version, count in sorted(other.items())
    ]
    return lines, problems, notes


def _reported(copy: PrivateCopy, copies: list[PrivateCopy], sections: list[tuple[int, int]]) -> list[int]:
    """The turns of the public sections between the private report before `copy` in its text (or the text's start)
    and `copy`."""
    since = max((c.first for c in copies if c.source == copy.source and c.first < copy.first), default=0)
    return sorted({turn for line, turn in sections if since < line < copy.first})


def _added(after: tuple[str, ...], language: str, at: int) -> tuple[int, str, str] | None:
    """In a report mail, what follows the private report (`after`, from its line `at`) that pbem does not write
    there: it writes only the deadline and, at the game's end, the record's note."""
    say = translations(language).gettext
    allowed = [message_pattern(say(line)) for line in DEADLINE_LINES]
    for index, line in enumerate(after):
        if line.strip() and line.strip() != say(RECORD_NOTE) and not any(p.match(line.strip()) for p in allowed):
            return at + index, line, "(nothing: pbem writes only the deadline and the record's note after it)"
    return None


def _first_difference(rendered: list[str], mailed: tuple[str, ...]) -> tuple[int, str, str] | None:
    """(index, mailed line, rendered line) of the first line the texts differ in, trailing spaces aside; None when
    the mail holds the rendered text."""
    for index, line in enumerate(rendered):
        held = mailed[index] if index < len(mailed) else "(the text ends)"
        if held.rstrip() != line.rstrip():
            return index, held, line
    return None
