"""A player's reports held to his game's record (game_record.py): every report his mails hold, public and private,
is the text the record renders.

The record's replay (verify_reports.py) proves its positions are the game's, and its chain heads that it is the
game the public reports printed. What the player read, though, are texts: a public report's events and position,
and his private report, which nobody else sees (his cards, his verdicts, his orders template). A moderator could
have mailed him a hand the game never dealt him. So each report a mail holds is rendered again from the record
(reports.turn_reports, reports.seat_report), for its turns, seat and language, and must be the mail's text line by
line. A private report's turns must be those of the public reports before it (news.py renders both of the same
turns), and in a report mail every other line must be one pbem writes there: the bot's notes, the deadline, the
record's note. A saved site page, and the site's index page, must be whole the page the record makes.

The texts are written by this release's code and templates (resources.release): a mail of another release (its
X-PBEM-Version header) is not compared, nor a text that is no mail, which names none."""

from __future__ import annotations

import html
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from itertools import zip_longest
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from adjudicator.mail.clock import DEADLINE_LINES
from adjudicator.orders.keywords import KEYWORD_LANGUAGES
from adjudicator.render.i18n import engine_text, message_pattern, translations
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
MOMENT = r"\d{4}-\d\d-\d\d \d\d:\d\d"
FIELD_FORMS = {"utc": MOMENT + " UTC", "zone": r"[A-Za-z0-9_/+-]{1,40}", "local": MOMENT + r" [A-Za-z0-9+-]{1,8}"}
REPORT_MAIL, PAGE = "report mail", "site page"  # the texts that hold nothing but their reports and pbem's own lines
_HEADING = re.compile(r"=== (.*) ===\Z")
_PAGE_NAME = re.compile(r"turn-\d{4}\.html?")
SITE_INDEX = re.compile(r'<table id="turns">')  # what only the site's index page holds (site/index.html.j2)
_INDEX_GAME = re.compile(r"<h1>([^<]{1,200})</h1>")
_INDEX_LATEST = re.compile(r'<p><a href="turn-(\d{4,})\.html">')
_PAGE_LANGUAGE = re.compile(r'<html lang="([a-z]{2,3})">')


@dataclass(frozen=True)
class MailShown:
    """What a report mail shows besides its text part: its subject, its HTML part and its map.svg ("" for none)."""

    subject: str
    html: str
    map_svg: str


@dataclass(frozen=True)
class ReportCopy:
    """One report as a text (a mail's, a site page's, a file's) holds it."""

    game: str
    seat: str | None  # the seat of a private report; None for a public one
    language: str
    turns: tuple[int, ...]  # the turns its headings name, in order (a public report has one)
    text: tuple[str, ...]  # the whole text it is in, shared by the reports of that text
    start: int  # the index in `text` of its first line, the rules' title (its own title is the next)
    source: str  # the text's name (a mail's text part)
    version: str  # the pbem release of the mail or page ("" for a file, or a mail of an older pbem)
    frame: str  # REPORT_MAIL or PAGE: a text that holds nothing else; "" for others (a welcome, an answer)
    lines: tuple[str, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "lines", self.text[self.start :])  # from its first line to the end of the text

    @property
    def where(self) -> str:
        return f"{self.source}:{self.start + 2}"  # its title line

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
def _rules_titles() -> frozenset[str]:
    """The line that begins every report, the title of its rules, as each ruleset gives it in each language: a
    report's title quoted elsewhere (in press) lacks it."""
    from adjudicator.rulesets import ruleset_infos

    return frozenset(
        engine_text(language, info.title, info.name) for info in ruleset_infos() for language in KEYWORD_LANGUAGES
    )


@cache
def _headings(title: str, language: str) -> tuple[re.Pattern[str], ...]:
    return tuple(message_pattern(translations(language).gettext(heading)) for heading in HEADINGS[title])


def report_copies(source: str, text: str, version: str, frame: str = "") -> list[ReportCopy]:
    """The reports a text holds (`source`: how its problems name it, `version`: its mail's or page's pbem release,
    `frame`: REPORT_MAIL or PAGE for a text that holds nothing else)."""
    lines = tuple(text.splitlines())
    found = []
    for index, line in enumerate(lines[1:], 1):
        kind, language, title = next(
            ((t, lang, m) for t, lang, p in _titles() if (m := p.match(line.strip()))), ("", "", None)
        )
        rules = lines[index - 1]
        if title is None or rules.strip() not in _rules_titles():
            continue
        turns = []
        for heading in lines[index + 1 :]:
            if heading == rules:
                break  # the next report begins
            named = _HEADING.match(heading.strip())
            patterns = _headings(kind, language) if named else ()
            number = next((m.group("number") for p in patterns if named and (m := p.match(named[1]))), "")
            if number.isdecimal() and number.isascii() and len(number) < 10:
                turns.append(int(number))
        seat = title.groupdict().get("seat")
        turns = turns if seat else turns[:1]
        found.append(ReportCopy(title["game"], seat, language, tuple(turns), lines, index - 1, source, version, frame))
    return found


@dataclass(frozen=True)
class _Record:
    """What the reports are rendered from: the record's rows, read once."""

    where: str
    stored: GameRows
    ruleset: Any
    rows: dict[int, Any]
    states: dict[int, str]
    bots: dict[int, list[str]]
    seats: frozenset[str]
    parts: dict[tuple[str, int | None], Any] = field(default_factory=dict)  # what the sites are made of, when asked
    sites: dict[tuple[str, int | None, bool], dict[str, str]] = field(default_factory=dict)

    def site(self, language: str, upto: int | None = None, recorded: bool = False) -> dict[str, str]:
        """The game's site in `language` as pbem makes it of the record (reports.game_site), made once; `upto`: as
        it stood after that many turns, while the game ran; `recorded`: offering the record, as a finished site may
        (the same pages: only the files are made again)."""
        from adjudicator.render.site import site_files
        from adjudicator.services.game_record import RECORD_FILE
        from adjudicator.services.reports import site_parts

        made = self.sites.get((language, upto, recorded))
        if made is None:
            if (language, upto) not in self.parts:
                running = upto is not None and upto < len(self.stored.turns)
                game = (
                    SimpleNamespace(**{**vars(self.stored.game), "status": "running"}) if running else self.stored.game
                )
                stood = replace(self.stored, game=game, turns=self.stored.turns[:upto])
                self.parts[language, upto] = site_parts(stood, self.bots, language)
            about, pages, standings = self.parts[language, upto]
            about = about | {"record": RECORD_FILE if recorded else ""}
            made = self.sites[language, upto, recorded] = site_files(about, pages, language, standings)
        return made

    @classmethod
    def read(cls, where: str, stored: GameRows) -> _Record:
        from adjudicator.services.game_reads import game_ruleset
        from adjudicator.services.game_record import bot_turns

        rows = {row.number: row for row in stored.turns}
        states = {number: row.state_json for number, row in rows.items()}
        seats = frozenset(seat.seat for seat in stored.seats)
        return cls(where, stored, game_ruleset(stored.game), rows, states, bot_turns(stored), seats)


def check_rendered(
    record: str,
    stored: GameRows,
    copies: list[ReportCopy],
    shown: Mapping[str, MailShown] | None = None,
    pages: Mapping[str, tuple[str, str]] | None = None,
    indexes: Mapping[str, tuple[str, str]] | None = None,
) -> tuple[list[str], list[str], list[str]]:
    """(lines, problems, notes) of holding a game's reports to its record (`record`: where it is), which has
    replayed. `shown`: what each report mail (by its text's name) shows besides its text; `pages`: each site page
    (by its name) and the map beside it, which must be what pbem makes of the record; `indexes`: each site index
    page (by its name) and its release, held whole to the record's (_index_differs)."""
    compared = [copy for copy in copies if copy.version == release()]
    read = _Record.read(record, stored)
    agreed, problems = _compare_all(compared, read, shown or {}, pages or {})
    name = stored.game.name
    lines = [
        f"game {name}: {len(found)} "
        + (f"private report(s) for {seat}" if seat else "public report(s)")
        + f" (turn(s) {spans(sorted({n for c in found for n in c.turns}))}) are the record's, line for line"
        + (": the cards, verdicts and positions they showed are the game's" if seat else "")
        for seat, found in sorted(agreed.items(), key=lambda item: item[0] or "")
    ]
    indexes = indexes or {}
    ours = [where for where, (page, _) in indexes.items() if _index_game(page) == name]
    held = [where for where in ours if indexes[where][1] == release()]
    wrong = [problem for where in held for problem in _index_differs(where, indexes[where][0], read)]
    problems += wrong
    if held and not wrong:
        lines.append(
            f"game {name}: {len(held)} site index page(s) are the record's: the standings, the latest map and the "
            "turns' keys they showed"
        )
    other = Counter(copy.version for copy in copies if copy.version != release())
    other.update(indexes[where][1] for where in ours if where not in held)
    notes = [
        f"game {name}: {count} report(s) "
        + (f"in mails of pbem {version}" if version else "in texts that name no pbem release (files, older mails)")
        + f" are not compared with the record: this is pbem {release()}, whose texts may be worded otherwise"
        for version, count in sorted(other.items())
    ]
    return lines, problems, notes


def _compare_all(
    compared: list[ReportCopy],
    read: _Record,
    shown: Mapping[str, MailShown],
    pages: Mapping[str, tuple[str, str]],
) -> tuple[dict[str | None, list[ReportCopy]], list[str]]:
    """Each report of this release against the record, then what holds it (a report mail's other lines, HTML and
    map; a site page whole): the reports that agree, by seat (None: public), and the problems."""
    problems: list[str] = []
    covered: dict[str, set[int]] = {}  # the line indexes of each text that its reports cover
    failed: set[str] = set()  # the texts with a report that is not the record's (named once)
    agreed: dict[str | None, list[ReportCopy]] = {}
    for copy in compared:
        problem, length = _compare(copy, read, compared)
        if problem:
            problems.append(problem)
            failed.add(copy.source)
            continue
        covered.setdefault(copy.source, set()).update(range(copy.start, copy.start + length))
        agreed.setdefault(copy.seat, []).append(copy)
    for source, copy in {c.source: c for c in compared if c.frame}.items():
        if source not in failed:
            framed = _other_lines(copy, covered.get(source, set()), read.seats)
            if not framed and source in shown:
                framed = _shown_differs(copy, shown[source], read, compared)
            if not framed and source in pages:
                framed = _page_differs(copy, pages[source], read)
            problems += framed
    return agreed, problems


def _compare(copy: ReportCopy, record: _Record, copies: list[ReportCopy]) -> tuple[str, int]:
    """(the problem of one report against the record or "", the number of its lines)."""
    from adjudicator.services.reports import seat_report, turn_reports

    game, label = record.stored.game, f"{copy.where}: game {record.stored.game.name}"
    missing = [number for number in copy.turns if number not in record.rows]
    reported = _reported(copy, copies) if copy.seat else list(copy.turns)
    seated = copy.seat is None or copy.seat in record.seats
    if not seated or not copy.turns or missing or reported != sorted(copy.turns):
        return f"{label}: {copy.kind} that the record ({record.where}) cannot give: " + (
            f"it has no seat {copy.seat}"
            if not seated
            else "it names no turn"
            if not copy.turns
            else f"turn(s) {spans(missing)} are not in it"
            if missing
            else f"its turns ({spans(list(copy.turns))}) are not those of the public reports before it "
            f"({spans(reported) or 'none'})"
        ), 0
    rows, states = record.rows, record.states
    try:
        if copy.seat:
            found = [rows[n] for n in copy.turns]
            text = seat_report(record.ruleset, game, found, states, copy.seat, copy.language, record.bots)
        else:
            number, say = copy.turns[0], copy.language
            bots = record.bots.get(number, ())
            made = turn_reports(record.ruleset, game, rows[number], {}, say, states.get(number - 1), bots=bots)
            text = made["report.txt"]
    except Exception as broken:  # noqa: BLE001 (a forged record that replays yet renders nothing is named)
        return f"{label}: the record ({record.where}) cannot render {copy.kind}: {broken}", 0
    rendered = text.splitlines()
    for index, line in enumerate(rendered):
        held = copy.lines[index] if index < len(copy.lines) else "(the text ends)"
        if held.rstrip() != line.rstrip():
            return (
                f"{copy.source}:{copy.start + index + 1}: game {game.name} turn(s) {spans(list(copy.turns))}: "
                f"{copy.kind} is not the one the record ({record.where}) gives: this line reads {held!r}; rendered "
                f"from the record it reads {line!r}"
            ), 0
    return "", len(rendered)


def _shown_differs(copy: ReportCopy, shown: MailShown, record: _Record, copies: list[ReportCopy]) -> list[str]:
    """A report mail's HTML part and map.svg against what pbem makes of its text part (now held to the record) and
    of the record's map of its last turn (news.py, mail/outbound.py build_message)."""
    from adjudicator.render import report_mail_html, with_map
    from adjudicator.services.reports import turn_map

    mail = copy.source.removesuffix(" (mail text)")
    last = max(n for c in copies if c.source == copy.source for n in c.turns)
    drawn = turn_map(record.ruleset, record.stored.game, record.rows[last], copy.language)
    if shown.map_svg and _differs(shown.map_svg, drawn):  # none: a mail saved without its attachments
        return [f"{mail}: its map.svg is not the map of turn {last} the record draws"]
    if not shown.html:
        return []
    text = "\n".join(copy.text) + "\n"  # the text part as sent: with its last line's end, which pbem adds if need be
    made = [with_map(report_mail_html(copy.language, shown.subject, body), drawn) for body in (text, text[:-1])]
    differs = [_differs(shown.html, html) for html in made]
    if not all(differs):
        return []
    at, held = differs[0] or (0, "")
    return [f"{mail}: its HTML part is not what pbem makes of its text and the record's map: line {at} reads {held!r}"]


def _page_differs(copy: ReportCopy, page: tuple[str, str], record: _Record) -> list[str]:
    """A site page, and the map beside it, against the page pbem makes of the record (reports.game_site): its
    battles, dice and map too, not only its report. A page saved while the game ran is the page of the site as it
    stood then: without the hidden draws the game's end reveals, and, when it was the latest, without a link to
    the next turn."""
    name = copy.source.replace("\\", "/").rsplit("/", 1)[-1]
    number = int(name[5:9]) if _PAGE_NAME.fullmatch(name) else -1
    at = next((i for i, row in enumerate(record.stored.turns) if row.number == number), None)
    last = len(record.stored.turns)
    stood = [None, last - 1]  # the finished site; the site while the game ran, at a later turn than this page's
    if at is not None and at + 1 < last and 'rel="next"' not in page[0]:
        stood.append(at + 1)  # the site when this page was the latest
    for shown, suffix, what in ((page[0], ".html", "page"), (page[1], ".svg", "map")):
        if not shown and what == "map":
            continue  # no map beside the page: a site saved without its maps
        named = name.rsplit(".", 1)[0] + suffix
        differs = [_differs(shown, record.site(copy.language, upto).get(named, "")) for upto in stood[:1]]
        for upto in stood[1:] if differs[0] else ():  # the sites of the game running, made only when needed
            differs.append(_differs(shown, record.site(copy.language, upto).get(named, "")))
        if all(differs):
            line, held = differs[0] or (0, "")
            return [
                f"{copy.source}: its {what} is not what pbem makes of the record ({record.where}): its line {line} "
                f"reads {held!r}"
            ]
    return []


def _index_game(page: str) -> str:
    """The game a site index page names in its heading ("" for none)."""
    found = _INDEX_GAME.search(page)
    return html.unescape(found.group(1)) if found else ""


def _index_differs(where: str, page: str, record: _Record) -> list[str]:
    """A site index page (its standings, latest map, turns and keys) against the index pbem makes of the record: of
    the finished game, with or without the record offered, or of the game running when its latest turn was the
    one the page links to as such."""
    language = _PAGE_LANGUAGE.search(page)
    if language is None or language.group(1) not in KEYWORD_LANGUAGES:
        return [f"{where}: a site index page in no language pbem writes"]
    say = language.group(1)
    latest = _INDEX_LATEST.search(page)
    numbers = [row.number for row in record.stored.turns]
    at = numbers.index(int(latest.group(1))) if latest and int(latest.group(1)) in numbers else len(numbers) - 1
    # a page whose latest turn is not the game's last was written while the game ran; the finished site may offer
    # the record or not (`pbem site --no-record`)
    stood = [(at + 1, False)] if at + 1 < len(numbers) else [(None, False), (None, True)]
    first = None
    for upto, recorded in stood:  # the second site made only when the first differs
        differs = _differs(page, record.site(say, upto, recorded)["index.html"])
        if differs is None:
            return []
        first = first or differs
    line, held = first or (0, "")
    return [
        f"{where}: its index page is not what pbem makes of the record ({record.where}): its line {line} reads {held!r}"
    ]


def _differs(shown: str, made: str) -> tuple[int, str] | None:
    """(the line number, the line shown, cut short) of the first line in which two texts differ; None for none."""
    for number, (held, wanted) in enumerate(zip_longest(shown.splitlines(), made.splitlines()), 1):
        if held != wanted:
            return number, "(the text ends)" if held is None else held[:120]
    return None


def _reported(copy: ReportCopy, copies: list[ReportCopy]) -> list[int]:
    """The turns of the public reports between the private report before `copy` in its text (or the text's start)
    and `copy`: pbem writes a private report after the public reports of its turns."""
    same = [c for c in copies if c.source == copy.source and c.start < copy.start]
    since = max((c.start for c in same if c.seat), default=-1)
    return sorted({n for c in same if c.seat is None and c.start > since for n in c.turns})


def _other_lines(copy: ReportCopy, covered: set[int], seats: frozenset[str]) -> list[str]:
    """The lines of a report mail's text or a site page's report outside its reports that pbem does not write
    there: in a mail, the notes on seats the bot runs (the game's seats), the deadline and the record's note."""
    say = translations(copy.language).gettext
    forms = {**FIELD_FORMS, "seat": "|".join(re.escape(seat) for seat in sorted(seats)) or "(?!)"}
    allowed = [message_pattern(say(line), forms=forms) for line in MAIL_LINES] if copy.frame == REPORT_MAIL else []
    for index, line in enumerate(copy.text):
        if index not in covered and line.strip() and not any(p.match(line.strip()) for p in allowed):
            return [
                f"{copy.source}:{index + 1}: game {copy.game}: a line pbem does not write in a {copy.frame}, outside "
                f"its reports: {line!r}"
            ]
    return []
