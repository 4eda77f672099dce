"""The `pbem` command: argument parsing and printing only; the work is done in adjudicator.services.

No `from __future__ import annotations` here: typer reads every command's annotations, and evaluating them from
strings (typing.get_type_hints) took two thirds of building the commands, paid by `pbem --help`."""

import os
import re
import sys
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from typer.core import TyperCommand, TyperGroup

from adjudicator.cli import DATA_ENV, DB_ENV, DEFAULT_DATA, run_check, run_ingest
from adjudicator.errors import PbemError
from adjudicator.resources import release
from adjudicator.settings import DEFAULT_RULESET

# The help texts say what each ruleset's [help] table says (ruleset.toml; the core names no game): a text names a
# topic as {ruleset:NAME}, filled in from the tables when the help is shown, so that no other command reads them.
RULESET_WORDS = re.compile(r"\{ruleset:(\w+)\}")


def _filled(text: str | None) -> str | None:
    """A help text with the rulesets' words put in."""
    return RULESET_WORDS.sub(lambda found: _ruleset_words()[found.group(1)], text) if text else text


def _ruleset_words() -> dict[str, str]:
    """The phrases the help texts take from the rulesets' [help] and [demo] tables, by placeholder name."""
    from adjudicator.rulesets import ruleset_infos

    infos = ruleset_infos()  # the default ruleset first
    own = next((dict(info.help) for info in infos if info.name == DEFAULT_RULESET), {})
    demo = next((str(info.demo.get("help", "")) for info in infos if info.name == DEFAULT_RULESET), "")

    def texts(topic: str) -> list[str]:
        return [info.help[topic] for info in infos if topic in info.help]

    def each(topic: str) -> str:  # 'conqueror-er: imperator or conquest'
        return "; ".join(f"{info.name}: {info.help[topic]}" for info in infos if topic in info.help)

    def first(topic: str) -> str:  # a ruleset that has words for `topic`, as an example
        return next((info.name for info in infos if topic in info.help), DEFAULT_RULESET)

    def names(found: list[str]) -> str:  # 'a, b or c'
        return " or ".join(filter(None, [", ".join(found[:-1]), *found[-1:]]))

    bots = f"(e.g. {first('modes')}), bot players"
    return {
        "game": f"{own['game']} and other " if "game" in own else "",
        "players": "; ".join(texts("players")),
        "modes": each("modes"),
        "option": next(iter(texts("option")), "KEY=VALUE"),
        "scripted": names([info.name for info in infos if info.demo]),
        "demo": f"Play {demo} from bundled order files and print where the reports are; with --ruleset {bots}"
        if demo
        else f"Bot players of a ruleset {bots.removesuffix(', bot players')}",
        "odds": "".join(f"\n\n{info.name}: {info.help['odds']}" for info in infos if "odds" in info.help),
        "odds_rulesets": names([info.name for info in infos if info.help.keys() & {"odds", "odds_attacker"}]),
        "odds_attacker": own.get("odds_attacker", "The attacker's pieces."),
        "odds_defender": own.get("odds_defender", "The defender's pieces."),
        "odds_naval": own.get("odds_naval", "A naval battle."),
        "odds_orders": own.get("odds_orders", "File of the attacker's standing orders, one a line."),
        "odds_area": own.get("odds_area", "The battle's area."),
        "odds_game_data": each("odds_game_data"),
        "game_data": "; ".join(texts("game_data")),
        "game_data_example": first("game_data"),
        "seat": own.get("seat", "SeatA"),
        "other_seat": own.get("other_seat", "SeatB"),
    }


class _Command(TyperCommand):
    """A command whose help texts take words from the rulesets ({ruleset:NAME})."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        self.help = _filled(self.help)
        for param in self.params:
            param.help = _filled(getattr(param, "help", None))  # type: ignore[attr-defined]
        super().format_help(ctx, formatter)


class _Commands(TyperGroup):
    """The commands, with the one error path: a PbemError from any of them is one line and exit status 1. Its help
    and its list of commands take words from the rulesets, as _Command's do."""

    def invoke(self, ctx: typer.Context) -> Any:
        try:
            return super().invoke(ctx)
        except PbemError as problem:
            fail(str(problem))

    def format_help(self, ctx: Any, formatter: Any) -> None:
        self.help = _filled(self.help)
        for command in self.commands.values():
            command.help = _filled(command.help)
        super().format_help(ctx, formatter)


app = typer.Typer(
    cls=_Commands,
    help="Play-by-email adjudicator for {ruleset:game}ancient-world conquest games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain help: loading rich would double the start-up time of every command
)


def _print_version(asked: bool) -> None:
    if asked:
        typer.echo(f"pbem {release()}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_print_version,
            is_eager=True,
            help="Print pbem's release (its version and a digest of what writes its texts, which its mails and site "
            "pages name) and exit.",
        ),
    ] = False,
) -> None:
    """Options of every command."""


DataOption = Annotated[
    Path,
    typer.Option("--data", envvar=DATA_ENV, help="Folder of the archive and the game files.", show_default=True),
]
DbOption = Annotated[
    str | None,
    typer.Option(
        "--db", envvar=DB_ENV, help="Archive database URL (default: SQLite file archive.sqlite in the data folder)."
    ),
]
LanguageOption = Annotated[
    str | None, typer.Option(help="Language: en, de, it or nl (English, Deutsch, Italiano, Nederlands).")
]


def fail(message: str) -> NoReturn:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(1)


def _exit(status: int) -> None:
    """End with exit status `status` (none for 0), as the work shared with the lean route (cli/__init__.py) says."""
    if status:
        raise typer.Exit(status)


def _archive(data: Path, db: str | None):  # type: ignore[no-untyped-def]
    from adjudicator.archive import Archive

    return Archive.open(data, db)


def _language(name: str | None) -> str | None:
    from adjudicator.orders.keywords import language_code

    return language_code(name) if name else None


def _read(path: Path, what: str) -> str:
    from adjudicator.services.orders import read_text_file

    return read_text_file(path, what)


@app.command()
def rulesets(
    game_data: Annotated[
        Path | None,
        typer.Option(
            "--game-data", help="A moderator's data folder: the seats of the ruleset it is for (default: its example)."
        ),
    ] = None,
) -> None:
    """List the rulesets this adjudicator knows, each with its seats."""
    from adjudicator.rulesets import load_ruleset, ruleset_names
    from adjudicator.services.game_data import ruleset_seats

    broken = False
    for name in ruleset_names():
        try:
            ruleset = load_ruleset(name)
        except PbemError as error:  # a broken ruleset folder (PBEM_RULESETS) hides none of the others
            typer.echo(f"{name:14} NOT USABLE: {error}", err=True)
            broken = True
            continue
        typer.echo(f"{name:14} {ruleset.description}")
        try:
            found = ruleset_seats(name, game_data)
        except PbemError as error:  # the moderator's data folder (--game-data) does not load
            typer.echo(f"{'':14} no seats read: {error}", err=True)
            broken = True
            continue
        seats = ", ".join(seat if seat == title else f"{seat} ({title})" for seat, title in found.seats)
        if found.folder is None:
            typer.echo(f"{'':14} seats: {seats}")
            continue
        where = "its example data" if found.example else "the game data"
        typer.echo(f"{'':14} seats from {where} in {found.folder}:")
        typer.echo(f"{'':14}   {seats}")
        for count, playing in found.by_players.items():
            typer.echo(f"{'':14}   {count} players: {', '.join(playing)}")
        if found.example:
            typer.echo(
                f"{'':14}   (invented example data; a game is played with the moderator's: `pbem new --game-data "
                "DIR`, its seats by `pbem rulesets --game-data DIR`)"
            )
    if broken:
        raise typer.Exit(1)


@app.command(cls=_Command)
def new(
    game: Annotated[str, typer.Argument(help="Name of the new game, e.g. rome1.")],
    ruleset: Annotated[str, typer.Option(help="Ruleset name or alias (see `pbem rulesets`).")] = DEFAULT_RULESET,
    seat: Annotated[
        list[str] | None,
        typer.Option(help="SEAT=EMAIL, once per player, e.g. --seat {ruleset:seat}=alice@example.org."),
    ] = None,
    language: Annotated[
        list[str] | None,
        typer.Option(
            help="SEAT=LANGUAGE for a seat's mail and reports in de, it or nl (default en), e.g. --language "
            "{ruleset:seat}=it. Players can change it with a LANGUAGE order."
        ),
    ] = None,
    pace: Annotated[
        str,
        typer.Option(help="'turn': one player-turn per deadline; 'round': every seat orders its coming turn at once."),
    ] = "turn",
    decisions: Annotated[
        str,
        typer.Option(
            help="Decisions outside one's turn with no answer or standing order: 'default' applies the default "
            "at once; 'ask' suspends the turn and asks the player."
        ),
    ] = "default",
    decision_hours: Annotated[int, typer.Option(help="With --decisions ask: hours before the default applies.")] = 48,
    from_snapshot: Annotated[
        Path | None, typer.Option(help="Start from this position (snapshot.json), e.g. a game played so far by hand.")
    ] = None,
    moderator: Annotated[str, typer.Option(help="Moderator's mail address (NMR alerts, refused mail).")] = "",
    turn_hours: Annotated[int, typer.Option(help="Hours from one adjudication to the next deadline.")] = 72,
    reminder_hours: Annotated[int, typer.Option(help="Remind seats without orders this long before.")] = 24,
    sender_check: Annotated[bool, typer.Option(help="Order mail must come from the seat's registered address.")] = True,
    anonymous_press: Annotated[bool, typer.Option(help="Relay press without the sender's name.")] = False,
    nmr_alert: Annotated[int, typer.Option(help="Alert the moderator after this many missed turns.")] = 2,
    bot_after: Annotated[
        int,
        typer.Option(min=0, help="The ruleset's bot runs a seat after this many missed steps in a row (0: never)."),
    ] = 0,
    timezone: Annotated[
        list[str] | None,
        typer.Option(
            help="SEAT=ZONE: the seat's mails also state deadlines in this IANA time zone, e.g. --timezone "
            "{ruleset:other_seat}=Europe/Berlin. Players can change it with a TIMEZONE line."
        ),
    ] = None,
    observers: Annotated[
        str,
        typer.Option(
            help="'open': anybody may OBSERVE by mail (public reports only); 'closed': only `pbem gm observe`."
        ),
    ] = "open",
    early: Annotated[
        str,
        typer.Option(
            help="When a turn is resolved before its deadline: 'orders', once every due seat's orders are in (a "
            "seat's WAIT line holds it); 'ready', once every due seat has sent a READY line."
        ),
    ] = "orders",
    grace_hours: Annotated[
        int, typer.Option(help="After the deadline, wait this long more for seats without orders (late orders).")
    ] = 0,
    away_days: Annotated[
        int, typer.Option(help="The longest absence (AWAY) a player may announce, in days; its turns are not missed.")
    ] = 14,
    game_data: Annotated[
        Path | None,
        typer.Option(
            help="The game's data folder, for a ruleset whose map and cards the moderator supplies "
            "({ruleset:game_data_example}: `pbem data template|check`); the game keeps a copy."
        ),
    ] = None,
    mode: Annotated[
        str | None,
        typer.Option(help="The game mode, for a ruleset that has modes ({ruleset:modes})."),
    ] = None,
    option: Annotated[
        list[str] | None, typer.Option(help="KEY=VALUE: a game option of the ruleset, e.g. --option hand_limit=7.")
    ] = None,
    data: DataOption = DEFAULT_DATA,
    db: DbOption = None,
) -> None:
    """Create a game: check the seats, make passwords and the dice commitment, write turn 0, queue the welcome
    mails (with the passwords) for `pbem send`."""
    from adjudicator.services.games import NewGameOptions, new_game

    seats = _seat_pairs("--seat", seat, "SEAT=EMAIL", "{ruleset:seat}=alice@example.org")
    if not seats:
        fail("name the players with --seat SEAT=EMAIL, one per player")
    languages = _seat_pairs("--language", language, "SEAT=LANGUAGE", "{ruleset:seat}=it")
    zones = _seat_pairs("--timezone", timezone, "SEAT=ZONE", "{ruleset:seat}=Europe/Rome")
    position = _read(from_snapshot, "snapshot") if from_snapshot else None
    settings = NewGameOptions(
        name=game,
        ruleset=ruleset,
        seats=seats,
        pace=pace,
        decisions=decisions,
        decision_hours=decision_hours,
        position=position,
        mail={
            "moderator": moderator,
            "turn_hours": turn_hours,
            "reminder_hours": reminder_hours,
            "check_sender": sender_check,
            "anonymous_press": anonymous_press,
            "nmr_alert": nmr_alert,
            "bot_after": bot_after,
            "observers": observers,
            "early": early,
            "grace_hours": grace_hours,
            "away_days": away_days,
        },
        languages=languages,
        timezones=zones,
        game_data=game_data,
        mode=mode,
        ruleset_options=_seat_pairs("--option", option, "KEY=VALUE", "hand_limit=7"),
    )
    created = new_game(_archive(data, db), data, settings)
    typer.echo(f"Game {created.game} created ({len(created.passwords)} seats). Passwords (shown only now):")
    for name, password in created.passwords.items():
        typer.echo(f"  {name:12} {password}")
    typer.echo(f"Starting report: {created.files[0]}")
    typer.echo(f"Welcome messages: {created.folder / 'outbox'} (queued: `pbem send` mails them)")


def _seat_pairs(option: str, entries: list[str] | None, form: str, example: str) -> dict[str, str]:
    """Repeated SEAT=VALUE options as a dict, refusing a malformed one with the form it should have."""
    pairs: dict[str, str] = {}
    for entry in entries or []:
        name, sep, value = entry.partition("=")
        if not sep or not name or not value:
            fail(f"{option} {entry!r}: write {form}, e.g. {option} {_filled(example)}")
        pairs[name] = value
    return pairs


@app.command()
def check(
    file: Annotated[Path, typer.Argument(help="The order file to check.")],
    game: Annotated[str | None, typer.Option(help="Check against this archived game's position.")] = None,
    state: Annotated[Path | None, typer.Option(help="Check against this snapshot.json instead.")] = None,
    game_data: Annotated[
        Path | None,
        typer.Option(help="With --state: the game's data folder, for a ruleset whose data the moderator supplies."),
    ] = None,
    data: DataOption = DEFAULT_DATA,
    db: DbOption = None,
) -> None:
    """Check an order set without storing it: one verdict per order. Exit 1 if any order fails."""
    _exit(run_check(file, game, state, game_data, data, db))


@app.command()
def submit(
    game: Annotated[str, typer.Argument(help="The game the orders are for.")],
    file: Annotated[Path, typer.Argument(help="The order file, headed GAME .. TURN .. PLAYER .. PASSWORD ..")],
    for_seat: Annotated[
        str | None,
        typer.Option(
            "--for",
            help="Enter the orders for this seat without its password (orders by phone): stored marked "
            "as the moderator's, and the seat is mailed the receipt.",
        ),
    ] = None,
    data: DataOption = DEFAULT_DATA,
    db: DbOption = None,
) -> None:
    """Authenticate, check and store an order set; print the receipt."""
    from adjudicator.services.orders import submit as submit_orders
    from adjudicator.services.orders import submit_for

    if for_seat is not None:
        receipt = submit_for(_archive(data, db), game, for_seat, _read(file, "order file"))
    else:
        receipt = submit_orders(_archive(data, db), game, _read(file, "order file"))
    typer.echo(receipt.text, nl=False)
    if not (receipt.stored or receipt.withdrawn):
        raise typer.Exit(1)


@app.command()
def adjudicate(
    game: Annotated[str, typer.Argument(help="The game to adjudicate.")],
    turn_file: Annotated[
        Path | None, typer.Option(help="A file of several seats' order blocks, stored before resolving.")
    ] = None,
    defaults: Annotated[
        bool,
        typer.Option("--defaults", help="Apply the defaults to decisions still unanswered (the waiting time is over)."),
    ] = False,
    now: Annotated[
        bool, typer.Option("--now", help="Resolve before the deadline although due seats have sent no orders.")
    ] = False,
    data: DataOption = DEFAULT_DATA,
    db: DbOption = None,
) -> None:
    """Resolve the due player-turn(s) (with the steps nobody orders in after them), archive them, write the reports
    and queue their mails (`pbem send` delivers them). Before the deadline, seats without orders make it refuse
    (naming them) unless --now is given."""
    from adjudicator.services.adjudication import adjudicate as adjudicate_game

    text = _read(turn_file, "turn file") if turn_file else None
    done = adjudicate_game(_archive(data, db), data, game, text, defaults, early=now)
    for seat, error in done.not_understood:
        typer.echo(
            f"warning: {seat}, turn file line {error.line}: not understood (column {error.column}: "
            f"{error.message}): {error.text}",
            err=True,
        )
    if done.stored_blocks:
        typer.echo(f"Stored orders from the turn file: {', '.join(done.stored_blocks)}")
    for row in done.turns:
        named = f"Turn {row.number} ({row.seat})" if row.seat else f"Turn {row.number}"
        typer.echo(f"{named} resolved{'' if row.orders_text else ': no orders received'}")
    for decision in done.waiting:
        typer.echo(f"Waiting for {decision.seat}: {decision.key} ({decision.question}; default {decision.default})")
    for path in done.files:
        typer.echo(f"  wrote {path}")
    for path in done.repaired:
        typer.echo(f"  wrote {path} (missing: its turn was stored, its file never written)")
    for line in done.news:
        typer.echo(line)


@app.command()
def repair(
    game: Annotated[str | None, typer.Argument(help="The game (default: every game).")] = None,
    data: DataOption = DEFAULT_DATA,
    db: DbOption = None,
) -> None:
    """Write what the archive holds and the disk lacks: the files of stored turns (reports, private reports,
    snapshot, map) and the decision notices of a waiting turn, e.g. after a crash between a commit and its files."""
    from adjudicator.services.repair import repair as repair_games

    written, failed = repair_games(_archive(data, db), data, game)
    for name, paths in written.items():
        for path in paths:
            typer.echo(f"  wrote {path}")
        typer.echo(f"{name}: {len(paths)} missing file(s) written" if paths else f"{name}: no file missing")
    for name, why in failed.items():
        typer.echo(f"{name}: FAILED ({why})")
    if failed:
        raise typer.Exit(1)


@app.command()
def backup(
    dest: Annotated[Path, typer.Argument(help="The new file to copy the archive to.")],
    data: DataOption = DEFAULT_DATA,
    db: DbOption = None,
) -> None:
    """Copy the SQLite archive whole to a new file, safely while other commands write it (SQLite's online backup:
    the commits still in its WAL file too). The game files can be written again from it (`pbem repair`). A
    PostgreSQL archive is backed up with pg_dump."""
    import sqlite3

    try:
        games = _archive(data, db).backup(dest)
    except sqlite3.Error as trouble:
        fail(f"the backup to {dest} failed: {trouble} (nothing was written to {dest})")
    typer.echo(f"backed up the archive to {dest} ({games} game{'s' if games != 1 else ''})")


@app.command()
def answer(
    game: Annotated[str, typer.Argument(help="The game.")],
    file: Annotated[Path, typer.Argument(help="Header line plus ANSWER <key>: <choice> lines.")],
    data: DataOption = DEFAULT_DATA,
    db: DbOption = None,
) -> None:
    """Store a seat's answers to the decisions its turn is waiting for (then run adjudicate again)."""
    from adjudicator.services.orders import answer as store_answers

    receipt = store_answers(_archive(data, db), game, _read(file, "answer file"))
    typer.echo(f"Answers of {receipt.seat} for turn {receipt.turn} of {receipt.game}:")
    for key in receipt.stored:
        typer.echo(f"  stored   {key}")
    for problem in receipt.problems:
        typer.echo(f"  refused  {problem}")
    typer.echo(f"Still open: {', '.join(receipt.open) or 'nothing'}")
    if receipt.problems:
        raise typer.Exit(1)


@app.command()
def resolve(
    state: Annotated[Path, typer.Option(help="The snapshot.json to start from.")],
    out: Annotated[Path, typer.Option(help="Folder for report.txt and snapshot.json.")],
    orders: Annotated[
        list[Path] | None,
        typer.Option(
            help="The turn file: one order block per seat. For a sealed step (its seats order at once): one orders "
            "file per seat, --orders again for each. None: the steps due that nobody orders in."
        ),
    ] = None,
    dice: Annotated[Path | None, typer.Option(help="Dice file: rolls 1-6 in order (see DESIGN.md).")] = None,
    strict_dice: Annotated[
        bool, typer.Option("--strict-dice", help="Rolls of the dice file left over are an error (nothing is written).")
    ] = False,
    game_data: Annotated[
        Path | None,
        typer.Option(help="The game's data folder, for a ruleset whose map and cards the moderator supplies."),
    ] = None,
    key: Annotated[
        list[str] | None,
        typer.Option(
            help="TURN=HEX: the turn key of a step to resolve (its report reveals it), so that its draws are the "
            "game's own; once per step resolved."
        ),
    ] = None,
    hidden_key: Annotated[
        list[str] | None,
        typer.Option(help="TURN=HEX: the key of the step's hidden draws (the archive's; revealed when the game ends)."),
    ] = None,
    orders_key: Annotated[
        list[str] | None,
        typer.Option(
            help="TURN=HEX: the key of the step's orders commitment (the archive's; revealed with the seed when the "
            "game ends). None: the unkeyed orders hash of games made by older versions."
        ),
    ] = None,
    no_orders: Annotated[
        list[str] | None,
        typer.Option(
            help="SEAT: a seat of the step due that sent no orders (resolved as past the deadline); once per seat."
        ),
    ] = None,
    joined_orders: Annotated[
        bool,
        typer.Option(
            "--joined-orders",
            help="With --orders-key, a sealed step of a game begun before each seat's orders were committed apart "
            "(its report prints no 'orders commitment of' lines): commit to the seats' orders joined, as it did.",
        ),
    ] = False,
) -> None:
    """Resolve the due player-turn(s) from files alone, with no archive. Lines not understood and spare dice
    are reported (on stderr and in report.txt)."""
    from adjudicator.services.turn_files import resolve_files, turn_keys

    state_text = _read(state, "state file")
    paths = orders or []
    texts = [_read(path, "orders file") for path in paths]
    keys = turn_keys(
        _seat_pairs("--key", key, "TURN=HEX", "7=<64 hex digits>"),
        _seat_pairs("--hidden-key", hidden_key, "TURN=HEX", "7=<64 hex digits>"),
        _seat_pairs("--orders-key", orders_key, "TURN=HEX", "7=<64 hex digits>"),
    )
    done = resolve_files(
        state_text,
        texts[0] if len(paths) == 1 else [(str(path), text) for path, text in zip(paths, texts, strict=True)],
        _read(dice, "dice file") if dice else None,
        out,
        strict_dice,
        game_data=game_data,
        keys=keys,
        silent=no_orders or [],
        joined_orders=joined_orders,
    )
    for seat, error in done.not_understood:
        typer.echo(
            f"warning: {seat}, orders file line {error.line}: not understood (column {error.column}: "
            f"{error.message}): {error.text}",
            err=True,
        )
    if done.spare_dice:
        typer.echo(f"warning: {done.spare_dice} rolls of the dice file were not used", err=True)
    for row in done.turns:
        typer.echo(f"Turn {row.number} ({row.seat}) resolved" if row.seat else f"Turn {row.number} resolved")
    for path in done.files:
        typer.echo(f"  wrote {path}")


@app.command()
def verify(
    game: Annotated[str | None, typer.Argument(help="The game to verify (none with --from-reports).")] = None,
    eml_dir: Annotated[
        list[Path] | None,
        typer.Option(
            help="A folder of .eml files `pbem send --eml-dir` wrote: the chain heads in its mails are checked too "
            "(repeatable)."
        ),
    ] = None,
    from_reports: Annotated[
        Path | None,
        typer.Option(
            help="A player's check, with no archive: a folder of the reports he received (.eml mails, report "
            "files, a saved copy of the site), checked against the dice commitment and against each other."
        ),
    ] = None,
    data: DataOption = DEFAULT_DATA,
    db: DbOption = None,
) -> None:
    """Replay every stored turn from its archived inputs and report any difference; hold the archive against the
    chain heads its reports published (turn files, mails) and check the rows outside the chain. With
    --from-reports, a player checks the reports he kept instead (docs/players-verify.md)."""
    notes: list[str] = []
    turns: list[tuple[bool, str]] = []  # the player's check: a line per turn, and whether it passed
    if from_reports is not None:
        from adjudicator.services.verify_reports import verify_reports

        checked = verify_reports(from_reports)
        passed, problems, notes, turns = checked.lines, checked.problems, checked.notes, checked.turns
    elif game is None:
        fail("name the game to verify, or give --from-reports DIR")
    else:
        from adjudicator.services.verification import verify_stored

        passed, problems = verify_stored(data, db, game, eml_dir or [], notes)
    for ok, line in turns:
        typer.echo(f"{'ok' if ok else 'FAILED':8} {line}")
    for line in passed:
        typer.echo(f"ok       {line}")
    for line in notes:
        typer.echo(f"note     {line}")
    for line in problems:
        typer.echo(f"PROBLEM  {line}")
    typer.echo(f"{len(passed) + sum(ok for ok, _ in turns)} checks passed, {len(problems)} problems")
    if problems:
        raise typer.Exit(1)


@app.command()
def report(
    game: Annotated[str, typer.Argument(help="The game.")],
    turn: Annotated[int | None, typer.Option(help="Turn number (default: the latest).")] = None,
    seat: Annotated[str | None, typer.Option(help="Show this seat's private report instead.")] = None,
    language: LanguageOption = None,
    data: DataOption = DEFAULT_DATA,
    db: DbOption = None,
) -> None:
    """Print a stored turn's report (a private report comes in the seat's language unless --language is given)."""
    from adjudicator.services.reports import stored_report

    typer.echo(stored_report(_archive(data, db), game, turn, seat, _language(language)), nl=False)


@app.command()
def site(
    game: Annotated[str, typer.Argument(help="The game.")],
    out: Annotated[Path, typer.Option(help="Folder for the HTML files (made if missing).")],
    record: Annotated[
        bool,
        typer.Option(
            help="Once the game is over by its rules, write its record (record.json): every turn's orders, answers, "
            "keys and positions and the game's data, for the players to replay the whole game."
        ),
    ] = True,
    language: LanguageOption = None,
    data: DataOption = DEFAULT_DATA,
    db: DbOption = None,
) -> None:
    """Write a static HTML archive of a game: its turns' public reports, maps, battles and dice keys, with how to
    check the dice. Nothing private to a seat is included while the game runs; once it is over, its record too
    (unless --no-record)."""
    from adjudicator.services.reports import write_game_site

    try:
        files = write_game_site(
            _archive(data, db),
            game,
            out,
            lambda done: typer.echo(f"  {done}", err=True),
            _language(language) or "en",
            record,
        )
    except OSError as problem:
        fail(str(problem))
    typer.echo(f"Wrote {len(files)} files; open {out / 'index.html'}")


@app.command(cls=_Command)
def selfplay(
    game: Annotated[
        str, typer.Argument(help="Name of the new game the bot plays (with --games N: NAME-1 to NAME-N).")
    ] = "selfplay",
    ruleset: Annotated[str, typer.Option(help="Ruleset name or alias (see `pbem rulesets`).")] = DEFAULT_RULESET,
    players: Annotated[int, typer.Option("--players", "--seats", help="Number of seats ({ruleset:players}).")] = 3,
    turns: Annotated[int, typer.Option(help="Player-turns to play at most (a winner ends the game sooner).")] = 30,
    seed: Annotated[int, typer.Option(help="Seed of the bot's orders (the dice are the game's own).")] = 1,
    pace: Annotated[str, typer.Option(help="'turn' or 'round', as for `pbem new`.")] = "turn",
    games: Annotated[int, typer.Option(help="Games to play, the k-th with seed SEED+k-1.")] = 1,
    game_data: Annotated[
        Path | None,
        typer.Option("--game-data", help="The game's data folder, for rulesets that need one (default: its example)."),
    ] = None,
    mode: Annotated[str | None, typer.Option(help="The game mode ({ruleset:modes}).")] = None,
    option: Annotated[
        list[str] | None,
        typer.Option(help="KEY=VALUE: a game option, as for `pbem new` (e.g. --option {ruleset:option})."),
    ] = None,
    data: DataOption = DEFAULT_DATA,
    db: DbOption = None,
) -> None:
    """Let a ruleset's bot play new games with legal random orders, submitted and adjudicated like a real game's,
    the invariants checked after every step and the archive verified at the end: to try the tool, test a ruleset,
    or make archives for benchmarks. Prints one line per player-turn."""
    from adjudicator.rulesets import load_ruleset
    from adjudicator.services.selfplay import SelfPlayStep, bot_of, play_archived_game, playable, selfplay_seats

    def say(turn: SelfPlayStep) -> None:
        typer.echo(
            f"turn {turn.number:4} {turn.seat:12} {turn.accepted:3} orders accepted, {turn.rejected:2} "
            f"rejected, {turn.battles} battle(s)"
        )

    if games < 1:
        fail(f"--games {games}: play at least one game")
    try:
        options = _seat_pairs("--option", option, "KEY=VALUE", _ruleset_words()["option"])
        rules, folder = playable(load_ruleset(ruleset), game_data, mode, options)
        if folder is not None and game_data is None:
            typer.echo(f"{rules.name} needs a game's data: playing with its example data ({folder}).")
        seats = selfplay_seats(rules, players)
        archive = _archive(data, db)
        for number in range(1, games + 1):
            name = game if games == 1 else f"{game}-{number}"
            played = play_archived_game(
                archive,
                data,
                name,
                rules.name,
                seats,
                seed + number - 1,
                turns,
                say,
                pace,
                game_data=folder,
                mode=mode,
                options=options,
            )
            winner = bot_of(rules).winner(rules, played[-1].state) if played else None
            typer.echo(
                f"Game {name}: {len(played)} player-turns played"
                + (f"; {winner} wins" if winner else "")
                + f". Reports in {data / 'games' / name}; check it with `pbem verify {name}`."
            )
    except ValueError as problem:
        fail(str(problem))


@app.command(cls=_Command, help="{ruleset:demo} play a whole game by mail, to its final score.")
def demo(
    data: Annotated[Path, typer.Option("--data", help="Fresh folder for the demo game.")] = Path("pbem-demo"),
    ruleset: Annotated[
        str,
        typer.Option(help="{ruleset:scripted}: the scripted game; another ruleset with a bot: a whole game by mail."),
    ] = DEFAULT_RULESET,
    seats: Annotated[int | None, typer.Option(help="Seats of a bot demo (default 3).")] = None,
    mode: Annotated[str | None, typer.Option(help="Mode of a bot demo ({ruleset:modes}).")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed of the bots' orders in a bot demo (default 1).")] = None,
    turns: Annotated[
        int | None,
        typer.Option(min=1, help="Stop a bot demo after this many steps (default: play to the end, 1,000 at most)."),
    ] = None,
) -> None:
    from adjudicator.rulesets import load_ruleset
    from adjudicator.services.bot_demo import BotDemo, run_bot_demo
    from adjudicator.services.demo import run_demo

    rules = load_ruleset(ruleset)
    if not rules.demo:  # no scripted game: its bot plays one
        run_bot_demo(data, typer.echo, BotDemo(rules.name, seats or 3, mode, seed or 1, turns))
        return
    if (seats, mode, seed, turns) != (None, None, None, None):
        fail(
            f"the {rules.name} demo is scripted: --seats, --mode, --seed, --turns are for a bot demo of another ruleset"
        )
    run_demo(data, typer.echo, rules)


@app.command()
def tick(
    data: DataOption = DEFAULT_DATA,
    db: DbOption = None,
) -> None:
    """For cron: adjudicate every game whose deadline passed or whose orders are all in (with the steps nobody
    orders in after it); send reminders. Reports and notices are queued in the outbox (`pbem send` delivers them)."""
    from adjudicator.services.deadlines import tick as tick_games

    report = tick_games(_archive(data, db), data)
    for line in report.lines:
        typer.echo(line)
    for name, trace in report.failures.items():
        typer.echo(f"{name}: tick failed, the other games were ticked:\n{trace}", err=True)
    if report.failures:
        raise typer.Exit(1)


@app.command()
def ingest(
    eml: Annotated[Path | None, typer.Argument(help="One message as a .eml file (default: read stdin).")] = None,
    mbox: Annotated[Path | None, typer.Option(help="Read every message of this mbox file.")] = None,
    maildir: Annotated[Path | None, typer.Option(help="Read the new messages of this Maildir.")] = None,
    imap: Annotated[str | None, typer.Option(help="IMAP host: fetch the unseen messages over TLS.")] = None,
    imap_port: Annotated[int, typer.Option(help="IMAP port (993 for TLS, 143 with --imap-starttls).")] = 993,
    imap_user: Annotated[str | None, typer.Option(envvar="PBEM_IMAP_USER", help="IMAP login.")] = None,
    imap_starttls: Annotated[bool, typer.Option(help="Plain IMAP upgraded with STARTTLS.")] = False,
    imap_mailbox: Annotated[str, typer.Option(help="IMAP mailbox.")] = "INBOX",
    imap_cafile: Annotated[
        Path | None,
        typer.Option(help="Trust the IMAP server's certificate from this PEM file (default: the system's CAs)."),
    ] = None,
    data: DataOption = DEFAULT_DATA,
    db: DbOption = None,
) -> None:
    """Read order mail, check and store it, and queue a receipt for each (password from PBEM_IMAP_PASSWORD).
    A message is marked done (IMAP: seen) only after the archive commit; the same Message-ID twice changes
    nothing."""
    status = run_ingest(
        eml, data, db, mbox, maildir, imap, imap_port, imap_user, imap_starttls, imap_mailbox, imap_cafile
    )
    _exit(status)


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port to listen on (0: a free one, printed).")] = 2003,
    socket: Annotated[
        Path | None, typer.Option(help="Listen on this Unix socket instead of TCP (Postfix's lmtp:unix:).")
    ] = None,
    workers: Annotated[int, typer.Option(min=1, help="Mails handled at once (password checks use a core each).")] = 2,
    lock_wait: Annotated[
        float,
        typer.Option(min=0.001, help="Seconds a mail waits for a busy archive before the mail server retries later."),
    ] = 30.0,
    handoff: Annotated[
        bool,
        typer.Option(
            help="Take the mail of `pbem ingest` runs of the same archive too, on the socket ingest.sock in the data "
            "folder, so that each skips most of its start-up."
        ),
    ] = True,
    data: DataOption = DEFAULT_DATA,
    db: DbOption = None,
) -> None:
    """Listen for order mail delivered by a mail server over LMTP (Postfix, Dovecot) until SIGTERM or SIGINT: each
    mail is checked, stored and answered as `pbem ingest` does it, without a new process per mail."""
    from adjudicator.mail.lmtp import Handoff, Where
    from adjudicator.mail.lmtp import serve as serve_lmtp

    where = Where(host, port, socket)
    serve_lmtp(
        _archive(data, db),
        where,
        workers=workers,
        lock_wait=lock_wait,
        say=lambda line: typer.echo(line),
        taking=Handoff(data, db) if handoff else None,
    )


# The options speak the default ruleset's words; each other ruleset's forms are a paragraph of the command's help.
@app.command(
    cls=_Command,
    help="Exact odds of a battle (computed, not sampled): who wins, retreats and expected losses.{ruleset:odds}",
)
def odds(
    attacker: Annotated[str, typer.Option(help="{ruleset:odds_attacker}")],
    defender: Annotated[str, typer.Option(help="{ruleset:odds_defender}")],
    ruleset: Annotated[str, typer.Option(help="{ruleset:odds_rulesets}.")] = DEFAULT_RULESET,
    naval: Annotated[bool, typer.Option("--naval", help="{ruleset:odds_naval}")] = False,
    attacker_orders: Annotated[Path | None, typer.Option(help="{ruleset:odds_orders}")] = None,
    defender_orders: Annotated[
        Path | None, typer.Option(help="File of the defender's standing orders (as --attacker-orders).")
    ] = None,
    area: Annotated[str | None, typer.Option(help="{ruleset:odds_area}")] = None,
    game_data: Annotated[Path | None, typer.Option(help="{ruleset:odds_game_data}")] = None,
) -> None:
    from adjudicator.rulesets import load_ruleset

    rules = load_ruleset(ruleset)
    if game_data is not None:
        rules = _odds_game_data(rules, game_data)
    computer = rules.odds
    if computer is None:
        fail(f"{rules.name} computes no battle odds: `pbem odds` is for rulesets that do (see `pbem rulesets`)")

    def standing(path: Path | None) -> Any:
        return None if path is None else computer.read_standing(rules, str(path), _read(path, "orders file"))

    try:
        forces = computer.read_forces(rules, attacker, defender, naval)
        sides = (standing(attacker_orders), standing(defender_orders))
        text = computer.battle_text(rules, forces, sides, area)
    except ValueError as problem:
        fail(str(problem))
    typer.echo(text)


def _odds_game_data(rules: Any, folder: Path) -> Any:
    """The ruleset bound to the checked data of `folder` (`pbem odds --game-data`)."""
    from adjudicator.engine.protocol import game_data_of

    member = game_data_of(rules)
    if member is None:
        fail(f"{rules.name} takes no --game-data")
    report = member.check(folder)
    if report.problems:
        fail(
            "\n".join(
                [f"{folder}: the game data has problems (`pbem data check`):", *(p.text() for p in report.problems)]
            )
        )
    return rules.with_game_data(member.files(folder))


@app.command()
def send(
    eml_dir: Annotated[Path | None, typer.Option(help="Write .eml files here instead of sending by SMTP.")] = None,
    limit: Annotated[int | None, typer.Option(help="Send at most this many mails.")] = None,
    png: Annotated[bool, typer.Option(help="Attach each map as map.png beside map.svg (--no-png: SVG only).")] = True,
    data: DataOption = DEFAULT_DATA,
    db: DbOption = None,
) -> None:
    """Deliver the outbox: by SMTP (PBEM_SMTP_HOST, _PORT, _SECURITY starttls|tls|none, _USER, _PASSWORD,
    _FROM) or as .eml files. A failed mail stays queued and is tried again next time."""
    from adjudicator.mail.outbound import send_outbox, smtp_settings_from_env

    try:
        smtp = None if eml_dir else smtp_settings_from_env()
        if smtp is None and eml_dir is None:
            fail("set PBEM_SMTP_HOST (and PBEM_SMTP_USER/_PASSWORD...) or give --eml-dir")
        report = send_outbox(_archive(data, db), smtp, eml_dir, limit, with_png=png)
    except ValueError as problem:
        fail(str(problem))
    typer.echo(f"{report.sent} sent, {report.failed} failed (still queued)")
    for error in report.errors:
        typer.echo(f"  {error}")
    if report.failed:
        raise typer.Exit(1)


@app.command()
def games(data: DataOption = DEFAULT_DATA, db: DbOption = None) -> None:
    """One line per game: turn, due seat(s), deadline (UTC), missing orders, state."""
    from adjudicator.services.status import all_games

    found = all_games(_archive(data, db))
    for s in found:
        due = ", ".join(f"{x.due} {x.seat}" for x in s.due) or "-"
        missing = ", ".join(x.seat for x in s.missing) or "none"
        state = s.status + (" (self-play)" if s.selfplay else "")
        typer.echo(
            f"{s.game}: after turn {s.turn}; due {due}; deadline {s.deadline or 'not set'}; "
            f"missing orders: {missing}; {state}"
        )
    if not found:
        typer.echo("no games")


@app.command()
def status(
    game: str,
    messages: Annotated[int, typer.Option(help="How many of the latest mails to list.")] = 5,
    data: DataOption = DEFAULT_DATA,
    db: DbOption = None,
) -> None:
    """What a player's STATUS mail says, and for the moderator: addresses, zones, observers, latest mails."""
    from adjudicator.services.status import message_log, read_status

    archive = _archive(data, db)
    s = read_status(archive, game)
    log = message_log(archive, game, messages)
    typer.echo(
        f"{s.game} ({s.ruleset}): {s.status}{' (self-play)' if s.selfplay else ''}; after turn {s.turn}; "
        f"deadline {s.deadline or 'not set'} UTC"
    )
    for x in s.seats:
        due = (
            (f"turn {x.due}: " + (f"orders received {x.orders}" if x.orders else "NO ORDERS YET"))
            if x.due is not None
            else "not due"
        )
        typer.echo(
            f"  {x.seat:12} {due}; missed {x.missed}; {x.email} ({x.language}{', ' + x.timezone if x.timezone else ''})"
        )
    typer.echo(f"  observers: {', '.join(s.observers) or 'none'}")
    for m in log:
        typer.echo(f"  {m.received} {m.sender} {m.seat or '-'}: {m.outcome}")


@app.command()
def log(
    game: Annotated[str | None, typer.Option(help="Only the mail of this game.")] = None,
    limit: Annotated[int, typer.Option(help="How many of the latest mails.")] = 50,
    data: DataOption = DEFAULT_DATA,
    db: DbOption = None,
) -> None:
    """The mails received and what became of each (also those of strangers, who are never answered)."""
    from adjudicator.services.status import message_log

    rows = message_log(_archive(data, db), game, limit)
    for m in rows:
        typer.echo(f"{m.received} {m.sender} {m.game or '-'} {m.seat or '-'} {m.message_id}: {m.outcome}")


gm = typer.Typer(help="Game-master tools: deadlines, players, pause, roll-back, end.", no_args_is_help=True)
app.add_typer(gm, name="gm")


@gm.command()
def extend(
    game: str,
    hours: Annotated[int, typer.Option(help="Hours to add.")] = 24,
    data: DataOption = DEFAULT_DATA,
    db: DbOption = None,
) -> None:
    """Extend the game's deadline (all seats are told)."""
    from adjudicator.services.gm import extend_deadline

    typer.echo(f"Deadline of {game}: {extend_deadline(_archive(data, db), game, hours)}")


@gm.command()
def deadline(
    game: str,
    when: Annotated[str, typer.Argument(help="The new deadline, e.g. 2026-12-01T18:00Z (UTC).")],
    data: DataOption = DEFAULT_DATA,
    db: DbOption = None,
) -> None:
    """Set the game's deadline to a fixed time ahead (all seats are told)."""
    from adjudicator.services.gm import set_deadline

    typer.echo(f"Deadline of {game}: {set_deadline(_archive(data, db), game, when)}")


@gm.command()
def replace(
    game: str,
    seat: str,
    email: Annotated[str, typer.Option(help="The new player's address.")],
    language: LanguageOption = None,
    data: DataOption = DEFAULT_DATA,
    db: DbOption = None,
) -> None:
    """Give a seat to a new player: new address and password (mailed to him with the position and his orders
    template, in his language; shown once here). The old player is told."""
    from adjudicator.services.gm import replace_player

    password = replace_player(_archive(data, db), game, seat, email, _language(language))
    typer.echo(f"{seat} of {game} now belongs to {email}; new password: {password}")


@gm.command()
def bot(
    game: str,
    seat: str,
    off: Annotated[bool, typer.Option("--off", help="The bot stops; the seat waits for its player again.")] = False,
    data: DataOption = DEFAULT_DATA,
    db: DbOption = None,
) -> None:
    """Put an empty seat on the ruleset's bot: from the next tick it orders for the seat (stored as the bot's), until
    the seat's player sends orders again or `pbem gm replace` gives the seat to a new player."""
    from adjudicator.services.bots import set_bot

    changed = set_bot(_archive(data, db), game, seat, not off)
    runner = "its player" if off else "the bot"
    typer.echo(f"{seat} of {game} is run by {runner}" if changed else "nothing to do")


@gm.command()
def observe(
    game: str,
    email: str,
    remove: Annotated[bool, typer.Option(help="Remove the observer.")] = False,
    language: LanguageOption = None,
    data: DataOption = DEFAULT_DATA,
    db: DbOption = None,
) -> None:
    """Add an observer (public reports only; also in a game with closed observers), or remove one."""
    from adjudicator.services.gm import set_observer

    changed = set_observer(_archive(data, db), game, email, not remove, _language(language) or "en")
    typer.echo(f"{email} {'removed from' if remove else 'observes'} {game}" if changed else "nothing to do")


@gm.command()
def pause(game: str, data: DataOption = DEFAULT_DATA, db: DbOption = None) -> None:
    """Pause a game: `pbem tick` leaves it alone."""
    from adjudicator.services.gm import set_paused

    set_paused(_archive(data, db), game, True)
    typer.echo(f"{game} paused")


@gm.command()
def resume(game: str, data: DataOption = DEFAULT_DATA, db: DbOption = None) -> None:
    """Resume a paused game."""
    from adjudicator.services.gm import set_paused

    set_paused(_archive(data, db), game, False)
    typer.echo(f"{game} resumed")


@gm.command()
def rollback(
    game: str,
    to: Annotated[int, typer.Option(help="The turn whose position is restored.")],
    data: DataOption = DEFAULT_DATA,
    db: DbOption = None,
) -> None:
    """Return to the position after turn TO; later turns stay archived as withdrawn."""
    from adjudicator.services.gm import rollback as roll_back

    withdrawn = roll_back(_archive(data, db), data, game, to)
    typer.echo(f"{game} is back after turn {to}; withdrawn turns: {', '.join(map(str, withdrawn))}")


@gm.command()
def end(game: str, data: DataOption = DEFAULT_DATA, db: DbOption = None) -> None:
    """End a game now."""
    from adjudicator.services.gm import end_game

    end_game(_archive(data, db), game)
    typer.echo(f"{game} ended")


data_commands = typer.Typer(
    cls=_Commands,
    help="The game data a moderator supplies ({ruleset:game_data}).",
    no_args_is_help=True,
)
app.add_typer(data_commands, name="data")


@data_commands.command("template", cls=_Command)
def data_template(
    ruleset: Annotated[str, typer.Argument(help="The ruleset, e.g. {ruleset:game_data_example}.")],
    folder: Annotated[Path, typer.Argument(help="The folder to write (its files must not exist yet).")],
) -> None:
    """Write a skeleton data folder: every value the rules read, commented with its rule IDs; fill in the empty
    ones, then run `pbem data check`."""
    from adjudicator.render.i18n import gettext
    from adjudicator.services.game_data import write_template

    files = write_template(ruleset, folder)
    typer.echo(gettext("en", "Wrote %(count)s files into %(folder)s:", count=len(files), folder=folder))
    for path in files:
        typer.echo(f"  {path.name}")
    typer.echo(
        gettext(
            "en", "Fill in every empty value; `pbem data check %(folder)s` names those still missing.", folder=folder
        )
    )


@data_commands.command("check")
def data_check(
    folder: Annotated[Path, typer.Argument(help="The data folder.")],
    private: Annotated[
        Path | None,
        typer.Option(help="Folder of the moderator's private texts (printed wording); default: FOLDER/private."),
    ] = None,
    ruleset: Annotated[str | None, typer.Option(help="The ruleset (default: the one game-data.toml names).")] = None,
    language: LanguageOption = None,
) -> None:
    """Check a data folder: print every missing or inconsistent value (file, key, rule ID) and exit 1, or say
    that the data is complete."""
    from adjudicator.render.i18n import gettext
    from adjudicator.services.game_data import check_data

    say = _language(language) or "en"
    result = check_data(folder, private, ruleset, say)
    for problem in result.problems:
        typer.echo(problem)
    for note in result.notes:
        typer.echo(gettext(say, "note: %(note)s", note=note))
    if not result.complete:
        typer.echo(gettext(say, "%(folder)s: problems found: %(count)s", folder=folder, count=len(result.problems)))
        raise typer.Exit(1)
    typer.echo(gettext(say, "%(folder)s: the data is complete (%(ruleset)s)", folder=folder, ruleset=result.ruleset))


def only_command(argv: list[str]) -> Any:
    """The click group of `pbem`, holding only the command that `argv` names when it names one: typer builds
    every command's parameters from its signature before running any, about a quarter of a per-mail command's
    start-up, and a command invoked by name needs none of the others. Anything else (`--help`, no command, an
    unknown name) gets the whole group, so that the list of commands and the errors stay as they are."""
    import copy

    from typer.main import get_command_name, get_group

    name = argv[0] if argv else ""
    commands = [c for c in app.registered_commands if (c.name or get_command_name(c.callback.__name__)) == name]
    groups = [g for g in app.registered_groups if g.name == name]
    if not commands and not groups:
        return get_group(app)
    alone = copy.copy(app)  # the group itself (help, options, error path) stays as it is
    alone.registered_commands, alone.registered_groups = commands, groups
    return get_group(alone)


def main() -> None:
    os.environ.setdefault("PYTHONIOENCODING", "utf-8")
    only_command(sys.argv[1:])()


if __name__ == "__main__":
    main()
