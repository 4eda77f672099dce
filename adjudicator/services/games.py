"""Games: creating one, and what every other service reads of a game (its current position, the player-turns
due, the turn an order set is for, a snapshot file's position)."""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import timedelta
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from adjudicator.engine.chance import ORDERS_KEYED, chain_checkpoints
from adjudicator.engine.envelope import DATA_KEY
from adjudicator.engine.steps import SETUP
from adjudicator.errors import PbemError
from adjudicator.orders.keywords import language_code
from adjudicator.orders.sets import PASSWORD_MARK
from adjudicator.render import write_atomically
from adjudicator.rulesets import Ruleset, load_ruleset
from adjudicator.services.chain import link_turn
from adjudicator.services.clock import SYSTEM_CLOCK, Clock, timestamp
from adjudicator.services.passwords import hash_password
from adjudicator.services.positions import partial_view, read_position, stored_state

# The archive (sqlmodel, SQLAlchemy: a large part of a command's start-up time) is imported by the functions
# that use it, so that the commands that work on files alone (`pbem check --state`) do not load it.
if TYPE_CHECKING:
    from sqlmodel import Session

    from adjudicator.archive import Archive
    from adjudicator.archive.models import GameRow
    from adjudicator.engine.steps import Step


PACES = ("turn", "round")


@dataclass
class NewGame:
    game: str
    passwords: dict[str, str]
    folder: Path
    files: list[Path]


def new_game(
    archive: Archive,
    data: Path,
    name: str,
    ruleset_name: str,
    seats: dict[str, str],
    pace: str = "turn",
    decisions: str = "default",
    decision_hours: int = 48,
    position: str | None = None,
    mail: dict[str, Any] | None = None,
    languages: dict[str, str] | None = None,
    timezones: dict[str, str] | None = None,
    *,
    clock: Clock = SYSTEM_CLOCK,
    game_data: Path | None = None,
    mode: str | None = None,
    options: dict[str, str] | None = None,
) -> NewGame:
    """Create a game: check the seats, make passwords and the dice seed, write turn 0 (report, snapshot).

    `languages` gives seats a language other than English (seat -> code or name, e.g. "de" or "Deutsch") for
    their welcome message, private reports, receipts and notices.

    `position` (snapshot JSON text) starts the game from a position played elsewhere, e.g. by hand.
    `mail` sets the mail options of the Game table (moderator, turn_hours, reminder_hours, check_sender,
    anonymous_press, nmr_alert, observers, selfplay). `timezones` (seat -> IANA zone) makes the seat's mails
    state deadlines in its own time too.

    The welcome messages (with the passwords) are queued in the outbox in the same transaction, except in a
    self-play game, which mails nobody.
    """
    from adjudicator.archive import queries as db
    from adjudicator.archive.models import GameRow, SeatRow, TurnRow
    from adjudicator.mail.clock import zone_name
    from adjudicator.mail.inbound import address_problem
    from adjudicator.services.notices import queue_welcome, render_welcome

    ruleset, stored_data = _with_game_data(load_ruleset(ruleset_name), game_data, mode, options)
    if pace not in PACES:
        raise PbemError(f"unknown pace {pace!r}: choose 'turn' (one player-turn per deadline) or 'round'")
    if decisions not in ("default", "ask"):
        raise PbemError(f"unknown decision mode {decisions!r}: choose 'default' (at once) or 'ask' (and wait)")
    if decision_hours < 1:
        raise PbemError("the waiting time for decisions must be at least 1 hour")
    if not name or not all(c.isalnum() or c in "-_" for c in name):
        raise PbemError(f"game name {name!r}: use letters, digits, '-' and '_' only")
    canonical = {}
    for seat, email in seats.items():
        matches = ruleset.lookup_seat(seat)
        if len(matches) != 1:
            raise PbemError(f"unknown seat {seat!r}; seats of {ruleset.name}: {', '.join(ruleset.seat_names)}")
        problem = address_problem(email)
        if problem is not None:  # an address with CR or LF could never be sent to
            raise PbemError(f"seat {matches[0]}: {email!r} is not a mail address: {problem}")
        canonical[matches[0]] = email
    spoken = {seat: "en" for seat in canonical} | _seat_option(ruleset, canonical, languages, "language", language_code)
    zones = _seat_option(ruleset, canonical, timezones, "time zone", zone_name)
    if (mail or {}).get("observers", "open") not in ("open", "closed"):
        raise PbemError(f"observers {mail['observers']!r}: choose 'open' (anybody may OBSERVE) or 'closed'")  # type: ignore[index]
    if position is not None:
        state, imported = load_snapshot(position, game_data, adopt=True)
        if partial_view(imported, state, snapshot_json(position)):  # a game cannot go on without the hidden part
            raise PbemError(
                "the position is a public or one seat's snapshot: a game starts from the whole snapshot, with every "
                "seat's hidden part and the decks' order (the snapshot.json `pbem resolve` writes, or an archive's)"
            )
        if imported.name != ruleset.name:
            raise PbemError(f"the position is of ruleset {imported.name}, not {ruleset.name}")
        if sorted(ruleset.seats_of(state)) != sorted(canonical):
            raise PbemError(
                f"the position's seats are {', '.join(ruleset.seats_of(state))}; name each once with --seat"
            )
        state.game = name  # load_snapshot has checked its rules, as every read of a position does (positions.py)
    else:
        try:
            state = ruleset.initial_state(name, list(canonical))
        except ValueError as refused:
            raise PbemError(str(refused)) from None
    seed = secrets.token_bytes(32)
    checkpoints = chain_checkpoints(seed)  # one walk of the chain gives the commitment and the checkpoints
    passwords = {seat: secrets.token_urlsafe(9) for seat in ruleset.seats_of(state)}
    with archive.session() as session:
        if db.game_named(session, name) is not None:
            raise PbemError(f"a game named {name!r} already exists in this archive")
        game = GameRow(
            name=name,
            ruleset=ruleset.name,
            pace=pace,
            seed=seed.hex(),
            commitment=checkpoints[0].hex(),  # the chain's end, key 0 (engine/chance.py commitment)
            checkpoints=checkpoints_text(checkpoints),
            decisions=decisions,
            decision_hours=decision_hours,
            created=timestamp(clock),
            game_data=stored_data,
            orders_hash_version=ORDERS_KEYED,  # its orders hashes tell nothing of the orders (engine/chance.py)
            **(mail or {}),
        )
        if not game.selfplay:  # the clock runs from the start: the welcome and first receipts state the deadline
            game.deadline = (clock.now() + timedelta(hours=game.turn_hours)).isoformat(timespec="seconds")
        session.add(game)
        session.flush()
        assert game.id is not None
        seat_rows = [
            SeatRow(
                game_id=game.id,
                seat=seat,
                email=canonical[seat],
                language=spoken[seat],
                timezone=zones.get(seat, ""),
                password_hash=hash_password(passwords[seat]),
            )
            for seat in ruleset.seats_of(state)
        ]
        session.add_all(seat_rows)
        state_json = ruleset.snapshot_text(state)
        row = TurnRow(
            game_id=game.id,
            number=ruleset.steps_done(state),
            seat=None,
            round=0,
            state_json=state_json,
            state_hash=hashlib.sha256(state_json.encode()).hexdigest(),
            dice_source="imported" if position else "keyed",
            created=timestamp(clock),
        )
        link_turn(None, game, row)
        session.add(row)
        rows = [row, *_setup_steps(session, ruleset, game, state, seed, checkpoints, clock)]
        welcomes = {s.seat: render_welcome(ruleset, game, row, s, passwords[s.seat]) for s in seat_rows}
        if not game.selfplay:  # the players learn their passwords by mail (`pbem send`)
            for seat_row in seat_rows:
                queue_welcome(  # with the position after the setup's deal: the hand and orders template it gives
                    session,
                    ruleset,
                    game,
                    rows[-1],
                    seat_row,
                    passwords[seat_row.seat],
                    welcomes[seat_row.seat],
                    clock=clock,
                )
    from adjudicator.services.reports import write_turn_files  # here: reading a game draws no map

    folder = game_folder(data, name)
    files = write_turn_files(folder, ruleset, game, rows, spoken)
    for seat, text in welcomes.items():  # the moderator's copy: the password travels only in the queued mail
        path = folder / "outbox" / f"welcome-{seat}.txt"
        write_atomically(path, text.replace(passwords[seat], PASSWORD_MARK))
        files.append(path)
    return NewGame(name, passwords, folder, files)


def _with_game_data(
    ruleset: Ruleset, folder: Path | None, mode: str | None, options: dict[str, str] | None
) -> tuple[Ruleset, str]:
    """A ruleset whose printed facts the moderator supplies (protocol member `game_data`) is bound to the data of
    `folder`, which must pass its check (every problem named, as `pbem data check`); returns it with the files to
    store with the game. Other rulesets take no data, mode or options."""
    member = ruleset.game_data
    if member is None:
        if folder is not None or mode is not None or options:
            raise PbemError(f"{ruleset.name} takes no --game-data, --mode or --option")
        return ruleset, ""
    if folder is None:
        raise PbemError(
            f"{ruleset.name}: name the game's data with --game-data DIR "
            f"(`pbem data template {ruleset.name} DIR` writes one to fill in, `pbem data check DIR` checks it)"
        )
    report = member.check(folder)
    if report.problems:
        listed = "\n".join(f"  {problem.text()}" for problem in report.problems)
        raise PbemError(f"{folder}: the game data has {len(report.problems)} problem(s) (`pbem data check`):\n{listed}")
    files = member.files(folder)
    stored = {"files": files, "mode": mode, "options": dict(options or {})}
    return ruleset.with_game_data(files, mode, options), json.dumps(stored, sort_keys=True)


def game_ruleset(game: GameRow) -> Ruleset:
    """The ruleset a game is played with: bound to the data stored with it, if the ruleset takes data."""
    if game.game_data:
        try:
            return _bound(game.ruleset, game.game_data)
        except PbemError as damaged:  # a damaged row: every command reading the game names it
            raise PbemError(f"game {game.name}: {damaged}") from None
    return load_ruleset(game.ruleset)


@lru_cache(maxsize=8)
def _bound(name: str, stored: str) -> Ruleset:
    """A ruleset bound to stored data with the game's mode and options, read once per process for each game."""
    from adjudicator.services.game_data import stored_game_ruleset

    return stored_game_ruleset(name, stored)


def _setup_steps(
    session: Session,
    ruleset: Ruleset,
    game: GameRow,
    state: Any,
    seed: bytes,
    checkpoints: dict[int, bytes],
    clock: Clock,
) -> list[Any]:
    """The steps due at once that nobody orders in and that belong to the setup (a deal of cards): resolved with the
    game's committed key chain, so that their shuffles are verifiable like any turn's."""
    from adjudicator.services.adjudication import play, turn_inputs, turn_row

    rows = []
    step = ruleset.due(state)
    while step is not None and not step.seats and step.phase == SETUP:
        text, _, answers, dice = turn_inputs(session, game, seed, step.number, (), checkpoints)
        result = play(ruleset, state, text, dice, answers)
        row = turn_row(
            ruleset, game, step.number, None, ruleset.round_of(state), text, result, dice, answers, clock=clock
        )
        link_turn(session, game, row)
        session.add(row)
        rows.append(row)
        state = result.state
        step = ruleset.due(state)
    return rows


def _seat_option(
    ruleset: Ruleset, seats: Mapping[str, str], given: Mapping[str, str] | None, what: str, read: Callable[[str], str]
) -> dict[str, str]:
    """A per-seat option of `pbem new` (seat or its alias -> value), each value checked by `read`."""
    values = {}
    for seat, value in (given or {}).items():
        matches = [s for s in ruleset.lookup_seat(seat) if s in seats]
        if len(matches) != 1:
            raise PbemError(f"a {what} is given for {seat!r}, which is not a seat of this game")
        try:
            values[matches[0]] = read(value)
        except ValueError as unknown:  # an unknown language or time zone
            raise PbemError(f"seat {matches[0]}: {unknown}") from None
    return values


def due_steps(ruleset: Ruleset, state: Any, pace: str) -> list[Step]:
    """The steps open for orders: the one due, or the rest of the round (round pace)."""
    coming = ruleset.coming_steps(state)
    return coming if pace == "round" else coming[:1]


def due_turns(ruleset: Ruleset, state: Any, pace: str) -> list[tuple[int, str]]:
    """The (step number, seat) pairs open for orders: one per seat of each due step (CoE: the active seat's
    player-turn, or the rest of the round)."""
    return [(step.number, seat) for step in due_steps(ruleset, state, pace) for seat in step.seats]


def expected_turn(ruleset: Ruleset, state: Any, pace: str, seat: str, header_turn: int) -> int:
    """The step an order set is for: a due one, or in turn pace the seat's next step (the one its report's
    orders template names), for which orders may be sent ahead; any other is refused."""
    due: dict[str, int] = {}
    for number, due_seat in due_turns(ruleset, state, pace):
        due.setdefault(due_seat, number)  # a seat of a sealed step and of a later step of the round: its first
    if ruleset.due(state) is None:
        raise PbemError(f"game {state.game} has ended; no orders are taken")
    if pace == "turn" and seat not in due:
        due = ruleset.next_steps(state)  # orders ahead: only for the seat's very next player-turn
    if seat not in due:
        first = next(iter(due_steps(ruleset, state, pace)), None) or ruleset.due(state)
        whose = f"{first.seats[0]}'s" if len(first.seats) == 1 else f"{first.phase}, for {', '.join(first.seats)}"
        whose = whose if first.seats else f"{first.phase}, in which nobody orders"
        raise PbemError(
            f"{seat}: no player-turn of yours is open for orders now; the turn due is turn {first.number}, {whose}"
        )
    if header_turn != due[seat]:
        raise PbemError(f"header says TURN {header_turn}, but {seat}'s coming player-turn is turn {due[seat]}")
    return due[seat]


def current_game(session: Session, name: str, lock: bool = False) -> tuple[GameRow, Ruleset, Any]:
    """The game, its ruleset and its current position; with `lock`, the game stays locked until the
    transaction ends (every operation that changes a game takes it first, before reading the position)."""
    from adjudicator.archive import queries as db

    game = db.find_game(session, name, lock)
    ruleset = game_ruleset(game)
    state = stored_state(ruleset, db.latest_turn(session, game).state_json)
    return game, ruleset, state


def game_checkpoints(game: GameRow) -> dict[int, bytes]:
    """The checkpoints of the game's dice chain (turn -> key): those stored with the game, else (an archive made
    before they were kept, or checkpoints that do not end in the game's commitment) made from the seed and kept
    on the row, so that the game's next commit stores them."""
    if game.checkpoints:
        stored = {int(turn): bytes.fromhex(key) for turn, key in json.loads(game.checkpoints).items()}
        if stored.get(0, b"").hex() == game.commitment:
            return stored
    made = chain_checkpoints(bytes.fromhex(game.seed))
    game.checkpoints = checkpoints_text(made)
    return made


def checkpoints_text(checkpoints: dict[int, bytes]) -> str:
    """How GameRow.checkpoints stores them."""
    return json.dumps({str(turn): key.hex() for turn, key in sorted(checkpoints.items())})


def game_folder(data: Path, name: str) -> Path:
    return data / "games" / name


def snapshot_json(text: str) -> Any:
    """The JSON data of a state file, or a PbemError naming the line where it stops being JSON we can read."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as bad:
        raise PbemError(f"state file: not JSON (line {bad.lineno}, column {bad.colno}: {bad.msg})") from None
    except RecursionError:  # json.loads recurses once per level of nesting
        line = text.count("\n", 0, _deep_nesting(text)) + 1
        raise PbemError(
            f"state file line {line}: arrays or objects nested too deeply (a snapshot has 7 levels)"
        ) from None
    except ValueError:  # a number of more than 4,300 digits (Python's limit on converting text to int)
        found = re.search(r"\d{4300,}", text)
        line = text.count("\n", 0, found.start() if found else 0) + 1
        raise PbemError(f"state file line {line}: a number of more than 4,300 digits") from None


def _deep_nesting(text: str, limit: int = 100) -> int:
    """Where `text` opens its `limit`-th nested array or object (strings skipped), else its end."""
    depth, inside, escaped = 0, False, False
    for at, char in enumerate(text):
        if inside:
            escaped, inside = char == "\\" and not escaped, inside and (char != '"' or escaped)
        elif char == '"':
            inside = True
        elif char in "[{":
            depth += 1
            if depth >= limit:
                return at
        elif char in "]}":
            depth -= 1
    return len(text)


def load_snapshot(text: str, game_data: Path | None = None, *, adopt: bool = False) -> tuple[Any, Ruleset]:
    """A snapshot file's state and ruleset, or a PbemError naming what breaks the schema. A ruleset whose data the
    moderator supplies is bound to the data folder `game_data`, which must be the data the snapshot names by its
    digest (engine/envelope.py data_digest); with `adopt`, a snapshot that names none (one made before snapshots
    named their data) is taken as made with it, and the state read names it."""
    data = snapshot_json(text)
    ruleset_name = data.get("ruleset") if isinstance(data, dict) else None
    if not isinstance(ruleset_name, str):
        raise PbemError("state file: missing field 'ruleset'")
    ruleset = snapshot_ruleset(load_ruleset(ruleset_name), data, game_data)
    digest = ruleset.data_digest
    if adopt and digest and not data.get(DATA_KEY):
        data = {**data, DATA_KEY: digest}
    return read_position(ruleset, data), ruleset


def snapshot_ruleset(ruleset: Ruleset, data: dict[str, Any], game_data: Path | None) -> Ruleset:
    """The ruleset that reads and plays a snapshot: as it is, or bound to `game_data` for a ruleset whose data the
    moderator supplies (a game is played with its data), refused when the snapshot names other data."""
    if not ruleset.takes_game_data:
        if game_data is not None:
            raise PbemError(f"{ruleset.name} takes no --game-data: its data ships with it")
        return ruleset
    if game_data is None:
        raise PbemError(
            f"state file: a game of {ruleset.name} is played with its data: give the game's data with --game-data DIR"
        )
    bound, _ = _with_game_data(ruleset, game_data, None, None)
    named, own = data.get(DATA_KEY), bound.data_digest
    if named and named != own:
        raise PbemError(
            f"state file: the snapshot was made with the game data {named}, but the data of {game_data} is {own}: "
            "give the data folder the game is played with"
        )
    return bound
