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
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from adjudicator import __version__
from adjudicator.orders.keywords import KEYWORD_LANGUAGES
from adjudicator.render.i18n import message_pattern, translations
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
    lines: tuple[str, ...]  # the text from the report's first line (the rules' title) to the end
    source: str  # the file (a mail's text part) it is in
    first: int  # the line number of lines[0] in it
    version: str  # the pbem version of the mail ("" for a file that is no mail, or a mail of an older pbem)

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


def private_copies(source: str, text: str, version: str) -> list[PrivateCopy]:
    """The private reports a text holds (`source`: how its problems name it, `version`: its mail's pbem version)."""
    lines = text.splitlines()
    found = []
    for index, line in enumerate(lines):
        language, title = next(((lang, m) for lang, p in _titles() if (m := p.match(line.strip()))), ("", None))
        if title is None or index == 0:
            continue
        first = index - 1  # the rules' title, which begins every report
        turns = []
        for heading in lines[index + 1 :]:
            if heading == lines[first]:
                break  # the next report begins
            named = _HEADING.match(heading.strip())
            number = next((m.group("number") for p in _headings(language) if named and (m := p.match(named[1]))), "")
            if number.isdecimal() and number.isascii() and len(number) < 10:
                turns.append(int(number))
        shown = tuple(lines[first:])
        found.append(PrivateCopy(title["game"], title["seat"], language, tuple(turns), shown, source, index, version))
    return found


def check_private_reports(
    record: str, stored: GameRows, copies: list[PrivateCopy]
) -> tuple[list[str], list[str], list[str]]:
    """(lines, problems, notes) of holding a game's private reports to its record (`record`: where it is), which
    has replayed."""
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
    other = Counter(copy.version or "none" for copy in copies if copy.version != __version__)
    for copy in (copy for copy in copies if copy.version == __version__):
        label = f"{copy.where}: game {game.name}"
        missing = [number for number in copy.turns if number not in rows]
        if copy.seat not in seats or not copy.turns or missing:
            what = f"turn(s) {spans(missing)} are not in it" if missing else f"it has no seat {copy.seat} of such turns"
            problems.append(f"{label}: a private report for {copy.seat} that the record ({record}) cannot give: {what}")
            continue
        try:
            text = seat_report(ruleset, game, [rows[n] for n in copy.turns], states, copy.seat, copy.language)
        except Exception as broken:  # noqa: BLE001 (a forged record that replays yet renders nothing is named)
            problems.append(f"{label}: the record ({record}) cannot render {copy.seat}'s report: {broken}")
            continue
        differs = _first_difference(text.splitlines(), copy.lines)
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
        f"game {game.name}: {count} private report(s) in texts of pbem version {version} (this is {__version__}; "
        "none: no mail, or a mail of an older pbem) are not compared with the record: other templates word them "
        "otherwise"
        for version, count in sorted(other.items())
    ]
    return lines, problems, notes


def _first_difference(rendered: list[str], mailed: tuple[str, ...]) -> tuple[int, str, str] | None:
    """(index, mailed line, rendered line) of the first line the texts differ in, trailing spaces aside; None when
    the mail holds the rendered text."""
    for index, line in enumerate(rendered):
        held = mailed[index] if index < len(mailed) else "(the text ends)"
        if held.rstrip() != line.rstrip():
            return index, held, line
    return None
