"""What a stored turn shows: its reports, snapshot and map (as files and as text for mails), decision
notices, a stored report again, and the game's static web site."""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable, Collection, Mapping, Sequence
from functools import cache, partial
from itertools import groupby
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from adjudicator.engine.chance import ORDERS_BY_SEAT, ORDERS_KEYED, seat_commitments
from adjudicator.engine.envelope import envelope_text
from adjudicator.engine.protocol import PUBLIC, hides_information
from adjudicator.engine.vocabulary import AttackOdds, OrderResult
from adjudicator.errors import PbemError
from adjudicator.orders import parse_turn_file
from adjudicator.render import render, write_atomically
from adjudicator.render.i18n import gettext
from adjudicator.render.svgmap import render_map_for_turn
from adjudicator.rulesets import Ruleset
from adjudicator.services.chain import DIGESTED, turn_digest
from adjudicator.services.orders import odds_rows, verdict_lines
from adjudicator.services.positions import stored_state
from adjudicator.services.turn import seat_texts

# The archive (sqlmodel, SQLAlchemy: a large part of a command's start-up time) is imported by the functions
# that use it, so that the commands that work on files alone (`pbem check --state`) do not load it.
if TYPE_CHECKING:
    from adjudicator.archive import Archive
    from adjudicator.archive.models import DecisionRow, GameRow, OutboxRow, TurnRow
    from adjudicator.archive.verify_rows import GameRows
    from adjudicator.engine.steps import StepResult


def turn_context(
    ruleset: Ruleset, row: TurnRow, before: str | None = None, bots: Sequence[str] = (), digested: bool = False
) -> dict[str, Any]:
    """What the report templates see of one stored turn; `before` (the snapshot text before it) names the leaders
    in its battles; `bots`, the seats whose orders the bot gave (queries.bot_seats); `digested`, whether its game's
    chain links are made from the turns' digests (chain.py), which the public report then prints."""
    verdicts = _verdicts(json.loads(row.results_json), row.seat)
    sources = _sources(ruleset, row)
    return {
        "number": row.number,
        "seat": row.seat,
        "round": row.round,
        "turn_key": row.turn_key,
        # a position imported as the game's start (`pbem new --from-snapshot`): no turn was played, it is the setup
        "start": row.dice_source == "imported",
        "orders_hash": row.orders_hash,
        "seat_hashes": _seat_hashes(row),
        **_senders(ruleset, row),
        "bots": list(bots),
        "events": ruleset.report_events(
            [ruleset.read_event(e) for e in json.loads(row.events_json)],
            json.loads(before) if before else None,
        ),
        **verdicts,
        # each seat's verdicts line by line, the lines as the seat wrote them (services/orders.py verdict_lines)
        "sources": sources,
        "lines_of": {
            seat: verdict_lines(found, sources.get(seat, "")) for seat, found in verdicts["results_of"].items()
        },
        "dice": json.loads(row.dice_json),
        "draws": public_draws(row),
        "chain": row.chain,  # the game's chain head after this turn, published so that players can hold to it
        "digest": turn_digest(row) if digested and row.chain else "",  # what the head covers of the turn
    }


def _seat_hashes(row: TurnRow) -> list[tuple[str, str]]:
    """Each seat's commitment in a step that commits seat by seat (engine/chance.py step_commitment), as its report
    prints them for the seats to check their own orders; none for any other step."""
    by_seat = seat_texts(row) if row.orders_key else None
    try:  # a row edited past the archive is verify's to name: its report prints no lines it cannot make
        return list(seat_commitments(bytes.fromhex(row.orders_key), by_seat).items()) if by_seat else []
    except ValueError:
        return []


def public_draws(row: TurnRow) -> list[tuple[int, str, int, int]]:
    """A stored turn's public draws as its report prints them: (number, purpose, faces, value); none for a turn of
    an older archive, which kept no faces."""
    return _draws(row.dice_json, row.dice_faces)


def hidden_draws(row: TurnRow) -> list[tuple[int, str, int, int]]:
    """A stored turn's hidden draws as the site shows them once the game has ended, like public_draws."""
    return _draws(row.hidden_dice_json or "[]", row.hidden_faces)


def _draws(dice_json: str, faces_json: str) -> list[tuple[int, str, int, int]]:
    dice = json.loads(dice_json)
    faces = json.loads(faces_json) if faces_json else []
    if len(faces) != len(dice):
        return []
    drawn = zip(dice, faces, strict=True)
    return [(number, purpose, count, value) for number, ((purpose, value), count) in enumerate(drawn, 1)]


def _senders(ruleset: Ruleset, row: TurnRow) -> dict[str, list[str]]:
    """The seats of a stored step who sent orders (`senders`) and those who did not (`silent`); a step of several
    seats holds each sender's order set under its header."""
    seats = row.seat.split(", ") if row.seat else []
    if len(seats) <= 1:
        sent = seats if row.orders_text else []
    else:
        headers = {block.header.player for block in parse_turn_file(row.orders_text, ruleset) if block.header}
        sent = [seat for seat in seats if seat in headers] if row.orders_text else []
    return {"senders": sent, "silent": [seat for seat in seats if seat not in sent]}


def _sources(ruleset: Ruleset, row: TurnRow) -> dict[str, str]:
    """Each seat's order text of a stored step (its lines numbered from its own first line, as its receipt did)."""
    seats = row.seat.split(", ") if row.seat else []
    if not row.orders_text or not seats:
        return {}
    if len(seats) == 1:
        return {seats[0]: row.orders_text}
    return {block.header.player: block.source for block in parse_turn_file(row.orders_text, ruleset) if block.header}


def _verdicts(stored: list[dict[str, Any]] | dict[str, list[dict[str, Any]]], seat: str | None) -> dict[str, Any]:
    """A step's verdicts for the templates: `results` (all, seat after seat), `results_of` (seat -> its own) and
    `ordering` (the seats who ordered). One seat's step stores a list, a step of several seats one per seat."""
    if isinstance(stored, dict):
        results_of = {name: [OrderResult(**r) for r in found] for name, found in stored.items()}
    else:
        results_of = {seat: [OrderResult(**r) for r in stored]} if seat else {}
    results = [r for found in results_of.values() for r in found] if results_of else []
    return {"results": results, "results_of": results_of, "ordering": list(results_of)}


def hidden_draws_revealed(ruleset: Ruleset, state: Any, game: GameRow) -> bool:
    """Whether a report reveals the game's seed: a game that has ended, with hidden draws or keyed orders
    commitments (engine/chance.py) for the seed to let anybody check."""
    return (hides_information(ruleset) or orders_keyed(game)) and ruleset.due(state) is None


def orders_keyed(game: GameRow) -> bool:
    """Whether the game's orders hashes are keyed commitments (engine/chance.py orders_commitment)."""
    return game.orders_hash_version >= ORDERS_KEYED


def orders_by_seat(ruleset: Ruleset, game: GameRow) -> bool:
    """Whether the game's steps of several seats commit to each seat's orders (engine/chance.py step_commitment):
    a game of a ruleset that has such steps (Conquest of the Empire has none), begun by a version that does so."""
    return ruleset.shared_steps and game.orders_hash_version >= ORDERS_BY_SEAT


def turn_reports(
    ruleset: Ruleset,
    game: GameRow,
    row: TurnRow,
    seats: Mapping[str, str] | None = None,
    language: str | None = "en",
    before: str | None = None,
    languages: Mapping[str, str] | None = None,
    bots: Sequence[str] = (),
) -> dict[str, str]:
    """A stored turn's files, rendered from the archive alone: report.txt (in `language`; none when None),
    snapshot.json and report-<seat>.txt for each of `seats` (seat -> language; default: every seat, in its
    language of `languages` or English). `before` is the snapshot text of the turn before (its battles then name
    their leaders); `bots`, the seats whose orders the bot gave (queries.bot_seats), are named in the reports. A
    game with hidden information (a snapshot with private parts) gets the public view in snapshot.json and
    report.txt, and each seat its own view in snapshot-<seat>.json and its private report.

    A report is rendered once per process for the same inputs: a tick writes a turn's files and then mails the
    same texts, and a tick of many games must be fast."""
    # read once per process for the same text (a tick renders a turn's reports in three calls); only read by these
    snapshot = _snapshot(ruleset, row.state_json)
    hidden = "private" in snapshot  # a snapshot with private parts (schema 2): each reader gets his own view

    def position() -> Any:
        """Read only when something is rendered (a tick's files find their texts rendered for its mails)."""
        return _position(ruleset, row.state_json)

    inputs = _report_inputs(game, row, before, bots)

    def common() -> dict[str, Any]:
        """What the public and private reports share (read-only to the templates): made once per process for the
        same inputs (a tick renders a turn's public and private reports in two calls)."""
        return _made_once(ruleset, (*inputs, "common"), shared)

    def view(viewer: str | None) -> dict[str, Any]:
        """The public or one seat's snapshot view of a position with private parts: made once per process for
        the same text (its report and its snapshot file both show it)."""
        return _made_once(ruleset, ("view", row.state_json, viewer), lambda: ruleset.snapshot(position(), viewer))

    def report_context() -> dict[str, Any]:
        """The ruleset's part of the private reports: the same for every seat of the turn (read-only)."""
        return _made_once(ruleset, ("report_context", row.state_json), lambda: ruleset.report_context(position()))

    def shared() -> dict[str, Any]:
        state = position()
        return {
            "ruleset": ruleset,
            "title": ruleset.title,
            "game": game.name,
            "turns": [turn_context(ruleset, row, before, bots, game.chain_version >= DIGESTED)],
            "state": view(PUBLIC) if hidden else snapshot,
            "commitment": game.commitment,
            "seats": list(ruleset.seats_of(state)),
            # hidden draws can be checked once the game is over: its end reveals the seed they are keyed from
            "seed_revealed": game.seed if hidden_draws_revealed(ruleset, state, game) else "",
            "orders_keyed": orders_keyed(game),
            "orders_by_seat": orders_by_seat(ruleset, game),
            "chain_digested": game.chain_version >= DIGESTED,  # its heads follow from the digests printed
        }

    def public() -> str:
        assert language is not None
        return render("report.txt.j2", language, **common())

    def private(seat: str, spoken: str) -> str:
        own = {"state": view(seat)} if hidden else {}
        return render("report-seat.txt.j2", spoken, seat=seat, **common() | own, **report_context())

    outputs = {"snapshot.json": envelope_text(view(PUBLIC)) if hidden else row.state_json}
    if language is not None:
        outputs["report.txt"] = _made_once(ruleset, (*inputs, "report.txt", language), public)
    if seats is None:  # every seat of the game, each in its language
        seats = {seat: (languages or {}).get(seat, "en") for seat in ruleset.seats_of(position())}
    for seat, spoken in seats.items():
        key = (*inputs, "report-seat", seat, spoken)
        outputs[f"report-{seat}.txt"] = _made_once(ruleset, key, partial(private, seat, spoken))
        if hidden:
            outputs[f"snapshot-{seat}.json"] = envelope_text(view(seat))
    return outputs


def seat_report(
    ruleset: Ruleset,
    game: GameRow,
    rows: list[TurnRow],
    states: dict[int, str],
    seat: str,
    say: str,
    bots: Mapping[int, Sequence[str]] | None = None,
) -> str:
    """A seat's private report of several turns, as a mail of them holds it (turn_reports renders the same text for
    one): each turn's private events and the seat's verdicts, then its position after the last. `states`: the
    snapshot texts by turn number, of the turns before `rows` too (their battles then name their leaders); `bots`:
    turn -> the seats whose orders the bot gave (their lines are echoed in the reader's keywords)."""
    state = stored_state(ruleset, rows[-1].state_json)
    hidden = "private" in json.loads(rows[-1].state_json)  # its own view of a game with hidden cards
    return render(
        "report-seat.txt.j2",
        say,
        ruleset=ruleset,
        title=ruleset.title,
        game=game.name,
        turns=[
            turn_context(ruleset, row, states.get(row.number - 1), (bots or {}).get(row.number, ())) for row in rows
        ],
        state=ruleset.snapshot(state, seat) if hidden else json.loads(rows[-1].state_json),
        commitment=game.commitment,
        seats=list(ruleset.seats_of(state)),
        seed_revealed=game.seed if hidden_draws_revealed(ruleset, state, game) else "",
        orders_keyed=orders_keyed(game),
        orders_by_seat=orders_by_seat(ruleset, game),
        seat=seat,
        **ruleset.report_context(state),
    )


# Reports rendered in this process, and what a turn's reports share: (ruleset, what they are rendered from) -> (the
# ruleset, the text or the shared context); the ruleset is kept so that its id is not reused while the entry lives.
# Oldest first, bounded.
_RENDERED: dict[tuple[Any, ...], tuple[Ruleset, Any]] = {}
RENDERED_KEPT = 128  # a turn of a game that hides cards keeps about a dozen entries (texts, views, contexts)
T = TypeVar("T")


# Positions read for reports in this process: (ruleset id, snapshot text) -> (the ruleset, the position), which
# the reports only read. A tick renders a turn's mails and files in several calls: the position is read once.
_POSITIONS: dict[tuple[int, str], tuple[Ruleset, Any]] = {}
POSITIONS_KEPT = 8


def _position(ruleset: Ruleset, text: str) -> Any:
    found = _POSITIONS.get((id(ruleset), text))
    if found is not None and found[0] is ruleset:
        return found[1]
    state = stored_state(ruleset, text)
    _POSITIONS[(id(ruleset), text)] = (ruleset, state)
    if len(_POSITIONS) > POSITIONS_KEPT:
        del _POSITIONS[next(iter(_POSITIONS))]
    return state


def _report_inputs(game: GameRow, row: TurnRow, before: str | None, bots: Sequence[str]) -> tuple[Any, ...]:
    """Everything of a game and a stored turn that its reports show (what turn_context and the templates read)."""
    return (
        game.name,
        game.commitment,
        game.orders_hash_version,
        game.chain_version,
        row.number,
        row.seat,
        row.round,
        row.turn_key,
        row.orders_hash,
        row.orders_text,  # who sent orders (a sealed step's senders are read from it)
        row.events_json,
        row.results_json,
        row.dice_json,
        row.dice_faces,
        row.chain,
        row.state_json,
        before,
        tuple(bots),  # the seats whose orders the bot gave (archived as the order sets' source)
    )


def _snapshot(ruleset: Ruleset, text: str) -> dict[str, Any]:
    """The data of a snapshot text, read once per process for the reports and the map of a turn (which only read
    it): a tick renders a turn's files and mails in several calls."""
    return _made_once(ruleset, ("snapshot", text), lambda: json.loads(text))  # type: ignore[no-any-return]


def _made_once(ruleset: Ruleset, key: tuple[Any, ...], make: Callable[[], T]) -> T:
    full_key = (id(ruleset), *key)
    found = _RENDERED.get(full_key)
    if found is not None and found[0] is ruleset:
        return found[1]  # type: ignore[no-any-return]
    made = make()
    _RENDERED[full_key] = (ruleset, made)
    if len(_RENDERED) > RENDERED_KEPT:
        del _RENDERED[next(iter(_RENDERED))]
    return made


def turn_map(ruleset: Ruleset, game: GameRow, row: TurnRow, language: str = "en") -> str:
    """map.svg of a stored turn: the position after it, with the turn's moves and battles marked ("" for a ruleset
    without a map)."""
    if ruleset.map_layers is None:
        return ""
    if row.seat:
        heading = gettext(
            language, "%(game)s, turn %(number)s (%(seat)s)", game=game.name, number=row.number, seat=row.seat
        )
    elif row.number == 0:  # the position the game was made with
        heading = gettext(language, "%(game)s, turn %(number)s (setup)", game=game.name, number=row.number)
    else:  # a step of several seats, or of none
        heading = gettext(language, "%(game)s, turn %(number)s", game=game.name, number=row.number)
    key = ("map.svg", row.state_json, row.events_json, heading, language)  # drawn for the files and the mails
    return _made_once(
        ruleset,
        key,
        lambda: render_map_for_turn(
            ruleset, row.state_json, row.events_json, heading, language, snapshot=_snapshot(ruleset, row.state_json)
        ),
    )


def mail_map(ruleset: Ruleset, game: GameRow, row: TurnRow, language: str) -> dict[str, Any]:
    """The fields of a mail (queries.mail_fields) that carries the map of turn `row` in `language`: the turn named by
    its chain head, its map drawn when the mail is sent (queued_maps), so that the archive holds no copy of it per
    seat; a turn of an older archive, without a chain head, has its map drawn now. Nothing for a ruleset without a
    map."""
    if ruleset.map_layers is None:
        return {}
    if not row.chain:
        return {"map_svg": turn_map(ruleset, game, row, language)}
    return {"map_turn": (row.chain, language)}


def queued_maps(archive: Archive) -> Callable[[OutboxRow], str]:
    """The map of a queued mail that names its turn (mail_map), drawn from the archive as the turn's files draw it;
    each turn's map in a language is drawn once. A turn no longer in the archive is an ArchiveError (the mail stays
    queued)."""
    from adjudicator.archive import ArchiveError
    from adjudicator.archive import queries as db

    games: dict[str, tuple[GameRow, Ruleset]] = {}

    @cache
    def draw(game_name: str, chain: str, language: str) -> str:
        with archive.session() as session:
            if game_name not in games:
                game = db.find_game(session, game_name)
                games[game_name] = game, _game_ruleset(game)
            game, ruleset = games[game_name]
            row = db.turn_of_chain(session, game, chain)
        if row is None:
            raise ArchiveError(f"the turn of this mail's map (chain head {chain[:16]}...) is not in the archive")
        return turn_map(ruleset, game, row, language)

    return lambda mail: draw(mail.game or "", mail.map_turn, mail.map_language) if mail.map_turn else mail.map_svg


def queued_records(archive: Archive) -> Callable[[OutboxRow], bytes | None]:
    """The game's record a queued mail carries (OutboxRow.record_turn), gzipped, made when the mail is sent: once
    per game and turn in a run of `pbem send`; None for a mail without one."""
    from adjudicator.archive.verify_rows import orm_rows
    from adjudicator.services.game_record import record_until

    @cache
    def make(game_name: str, chain: str) -> bytes:
        with archive.session() as session:
            stored = orm_rows(session, game_name)
        return gzip.compress(record_until(stored, chain).encode(), mtime=0)

    return lambda mail: make(mail.game or "", mail.record_turn) if mail.record_turn else None


def write_turn_files(
    folder: Path,
    ruleset: Ruleset,
    game: GameRow,
    rows: list[TurnRow],
    languages: Mapping[str, str],
    before: str | None = None,
    only: Collection[str] | None = None,
    bots: Mapping[int, Sequence[str]] | None = None,
) -> list[Path]:
    """Report, private reports (each in its seat's language), snapshot (and each seat's own snapshot in a game with
    hidden cards) and map of each turn (written after the commit, atomically); `before` is the snapshot text before
    the first of them. `only`: just these file names. `bots`: turn -> the seats whose orders the bot gave."""
    written = []
    for row in rows:
        turn_folder = folder / f"turn-{row.number:04d}"
        reports = turn_reports(
            ruleset, game, row, before=before, languages=languages, bots=(bots or {}).get(row.number, ())
        )
        outputs = {**reports, "map.svg": turn_map(ruleset, game, row)}
        if not outputs["map.svg"]:
            del outputs["map.svg"]
        before = row.state_json
        made = False
        for filename, text in outputs.items():
            if only is not None and filename not in only:
                continue
            if not made:
                turn_folder.mkdir(parents=True, exist_ok=True)  # once for the turn's files
                made = True
            # the public report and map follow the umask; private reports and the snapshot (which holds every
            # seat's standing orders) stay the moderator's
            public = filename in ("report.txt", "map.svg")
            write_atomically(turn_folder / filename, text, public=public, folder_made=True)
            written.append(turn_folder / filename)
    return written


def _seats(ruleset: Ruleset, state_json: str) -> tuple[str, ...]:
    return ruleset.seats_of(stored_state(ruleset, state_json))


def write_decision_notices(
    folder: Path,
    ruleset: Ruleset,
    game: GameRow,
    number: int,
    result: StepResult,
    waiting: list[DecisionRow],
    languages: Mapping[str, str],
    before: str | None = None,
) -> list[Path]:
    """One notice per asked seat, in its language: the turn up to the point where the first question arose and
    the questions, with how to answer them. Nothing after that point is shown, neither an event nor a die."""
    written = []
    point = result.pending[0]
    told = ruleset.report_events(result.events[: point.event], json.loads(before) if before else None)
    events = [e for e in told if e.public]
    rolls = [
        (purpose, [value for _, value in group])
        for purpose, group in groupby(result.dice[: point.rolls], key=lambda roll: roll[0])
    ]
    position = stored_state(ruleset, before) if before else None
    points = {(p.seat, p.key): p.position for p in result.pending}  # where each arose, if the ruleset kept it
    odds = {
        (d.seat, d.key): choice_rows(ruleset.decision_odds(position, d.seat, d.key, points.get((d.seat, d.key))))
        for d in waiting
        if position
    }
    for seat in sorted({d.seat for d in waiting}):
        path = folder / "outbox" / f"decisions-turn-{number:04d}-{seat}.txt"
        write_atomically(
            path,
            render(
                "decisions.txt.j2",
                languages.get(seat, "en"),
                ruleset=ruleset,
                title=ruleset.title,
                game=game.name,
                turn=number,
                seat=seat,
                events=events,
                rolls=rolls,
                symbols=ruleset.symbol_dice,
                questions=[d for d in waiting if d.seat == seat],
                odds={key: rows for (asked, key), rows in odds.items() if asked == seat},
                hours=game.decision_hours,
            ),
        )
        written.append(path)
    return written


def choice_rows(odds: list[tuple[str, AttackOdds]]) -> list[tuple[str, ...]]:
    """Each choice of a decision with its odds as a receipt's odds lines write them (services/orders.py odds_rows)."""
    return [(choice, *row) for (choice, _), row in zip(odds, odds_rows([o for _, o in odds]), strict=True)]


def stored_report(
    archive: Archive, name: str, number: int | None, seat: str | None, language: str | None = None
) -> str:
    """Render a stored turn's public (or a seat's private) report again from the archive, in `language` (default:
    English, or the seat's language)."""
    from adjudicator.archive import queries as db

    with archive.session() as session:
        game = db.find_game(session, name)
        row = db.latest_turn(session, game) if number is None else db.get_turn(session, game, number)
        before = next((r.state_json for r in reversed(db.turns(session, game)) if r.number < row.number), None)
        spoken = {}
        if seat is not None:
            found = db.find_seat(session, game, seat)
            seat, spoken = found.seat, {found.seat: language or found.language}
        bots = db.bot_seats(session, game, [row.number]).get(row.number, ())
    reports = turn_reports(_game_ruleset(game), game, row, spoken, language or "en", before, bots=bots)
    return reports[f"report-{seat}.txt" if seat else "report.txt"]


def write_game_site(
    archive: Archive,
    name: str,
    out: Path,
    progress: Callable[[str], None] | None = None,
    language: str = "en",
    record: bool = True,
) -> list[Path]:
    """`pbem site`: the game's public archive as static HTML (adjudicator/render/site.py) in `out`; with `record`,
    once the game is over by its rules, its record too (game_record.py), for the players to replay it."""
    from adjudicator.archive import queries as db
    from adjudicator.archive.verify_rows import GameRows
    from adjudicator.render.site import write_site
    from adjudicator.services.game_record import RECORD_FILE

    with archive.session() as session:
        game = db.find_game(session, name)
        rows = db.turns(session, game)
        bots = db.bot_seats(session, game, [row.number for row in rows])
        # what a record reads of the game (archive/verify_rows.py: the rest is the archive's alone)
        stored = GameRows(
            game, rows, db.game_seats(session, game), db.decisions_after(session, game, -1), set(), [], {}, [], []
        )
    recorded = _site_record(stored, progress) if record else ""
    if not recorded:
        (out / RECORD_FILE).unlink(missing_ok=True)  # a record written before (a --no-record site, a roll-back)
    written = write_site(out, game_site(stored, bots, language, bool(recorded)), progress)
    if recorded:
        write_atomically(out / RECORD_FILE, recorded, public=True)
        written.append(out / RECORD_FILE)
    return written


def game_site(
    stored: GameRows, bots: Mapping[int, Sequence[str]], language: str = "en", recorded: bool = False
) -> dict[str, str]:
    """The site's files of a game's rows (render/site.py site_files), from the archive or from the game's record:
    `bots`, the seats whose orders the bot gave by turn; `recorded`, whether the site offers the game's record."""
    from adjudicator.render.site import site_files
    from adjudicator.services.game_record import RECORD_FILE

    about, pages, standings = site_parts(stored, bots, language)
    return site_files(about | {"record": RECORD_FILE if recorded else ""}, pages, language, standings)


def site_parts(
    stored: GameRows, bots: Mapping[int, Sequence[str]], language: str = "en"
) -> tuple[dict[str, Any], list[Any], list[dict[str, Any]]]:
    """What game_site makes the site's files of: the game, a page's contents per turn (render/site.py SiteTurn,
    their reports and maps: most of the work), and the standings after the latest turn."""
    from adjudicator.render.site import SiteTurn

    game, rows = stored.game, stored.turns
    ruleset = _game_ruleset(game)
    befores = [None, *(row.state_json for row in rows[:-1])]
    # the game's end reveals the seed, and with it the hidden draws, which anybody can then recompute
    ended = bool(rows) and hidden_draws_revealed(ruleset, stored_state(ruleset, rows[-1].state_json), game)
    pages = [
        SiteTurn(
            number=row.number,
            seat=row.seat,
            round=row.round,
            report=turn_reports(ruleset, game, row, {}, language, before, bots=bots.get(row.number, ()))["report.txt"],
            map_svg=turn_map(ruleset, game, row, language),
            events=[e for e in turn_context(ruleset, row, before)["events"] if e.public],
            turn_key=row.turn_key,
            orders_hash=row.orders_hash,
            dice=json.loads(row.dice_json),
            dice_source=row.dice_source,
            hidden_draws=hidden_draws(row) if ended else [],
        )
        for row, before in zip(rows, befores, strict=True)
    ]
    about = {
        "name": game.name,
        "ruleset": ruleset.name,
        "title": ruleset.title,
        "status": game.status,
        "commitment": game.commitment,
        "orders_keyed": orders_keyed(game),
        "seats": list(_seats(ruleset, rows[-1].state_json)) if rows else [],
    }
    # who holds what after the latest turn, as the ruleset tells it (none: the index shows no standings)
    standings = ruleset.report_context(stored_state(ruleset, rows[-1].state_json)).get("standings") if rows else None
    return about, pages, standings or []


def _site_record(stored: GameRows, progress: Callable[[str], None] | None) -> str:
    """The text of the game's record for its site: "" for a game not over, and for one whose record is refused (its
    orders hold private press), which `progress` is told."""
    from adjudicator.services.game_record import game_over, record_text

    if not game_over(stored):
        return ""
    try:
        return record_text(stored)
    except PbemError as refused:
        if progress is not None:
            progress(str(refused))
        return ""


def _game_ruleset(game: GameRow) -> Ruleset:
    """The game's ruleset, bound to its stored data (services/game_reads.py)."""
    from adjudicator.services.game_reads import game_ruleset

    return game_ruleset(game)
