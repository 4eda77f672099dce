"""Games: creating one (`pbem new`): its seats, passwords, dice seed, turn 0 and the setup's steps, and the welcome
mails. What every other service reads of a game is in game_reads.py."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from adjudicator.engine.chance import ORDERS_BY_SEAT, chain_checkpoints
from adjudicator.engine.steps import SETUP
from adjudicator.errors import PbemError
from adjudicator.orders.keywords import language_code
from adjudicator.orders.sets import PASSWORD_MARK
from adjudicator.render import write_atomically
from adjudicator.rulesets import Ruleset, load_ruleset
from adjudicator.services.chain import DIGESTED, link_turn
from adjudicator.services.clock import SYSTEM_CLOCK, Clock, timestamp
from adjudicator.services.game_reads import (
    checkpoints_text,
    game_folder,
    load_snapshot,
    snapshot_json,
    with_game_data,
)
from adjudicator.services.passwords import hash_password
from adjudicator.services.positions import partial_view

# The archive (sqlmodel, SQLAlchemy: a large part of a command's start-up time) is imported by the functions
# that use it, so that the commands that work on files alone (`pbem check --state`) do not load it.
if TYPE_CHECKING:
    from sqlmodel import Session

    from adjudicator.archive import Archive
    from adjudicator.archive.models import GameRow


PACES = ("turn", "round")


@dataclass
class NewGame:
    game: str
    passwords: dict[str, str]
    folder: Path
    files: list[Path]


@dataclass(frozen=True)
class NewGameOptions:
    """What a new game is made with (`pbem new` builds it from its options).

    `seats` maps each seat (or its alias) to the player's mail address. `languages` gives seats a language other
    than English (seat -> code or name, e.g. "de" or "Deutsch") for their welcome message, private reports,
    receipts and notices; `timezones` (seat -> IANA zone) makes the seat's mails state deadlines in its own time
    too. `position` (snapshot JSON text) starts the game from a position played elsewhere, e.g. by hand. `mail`
    sets the mail options of the Game table (moderator, turn_hours, reminder_hours, check_sender,
    anonymous_press, nmr_alert, bot_after, observers, selfplay, early). `game_data`, `mode` and `ruleset_options` are
    for a ruleset whose data the moderator supplies (its data folder, game mode and KEY=VALUE options)."""

    name: str
    ruleset: str
    seats: Mapping[str, str]
    pace: str = "turn"
    decisions: str = "default"
    decision_hours: int = 48
    position: str | None = None
    mail: Mapping[str, Any] | None = None
    languages: Mapping[str, str] | None = None
    timezones: Mapping[str, str] | None = None
    game_data: Path | None = None
    mode: str | None = None
    ruleset_options: Mapping[str, str] | None = None


def _check_choices(mail: Mapping[str, Any]) -> None:
    """The mail options that take one of a few words."""
    if mail.get("observers", "open") not in ("open", "closed"):
        raise PbemError(f"observers {mail['observers']!r}: choose 'open' (anybody may OBSERVE) or 'closed'")
    if mail.get("early", "orders") not in ("orders", "ready"):
        raise PbemError(f"early {mail['early']!r}: choose 'orders' (once all orders are in) or 'ready'")
    if mail.get("grace_hours", 0) < 0:
        raise PbemError(f"grace hours {mail['grace_hours']}: a grace period cannot be negative")


def new_game(archive: Archive, data: Path, options: NewGameOptions, *, clock: Clock = SYSTEM_CLOCK) -> NewGame:
    """Create a game: check the seats, make passwords and the dice seed, write turn 0 (report, snapshot).

    The welcome messages (with the passwords) are queued in the outbox in the same transaction, except in a
    self-play game, which mails nobody.
    """
    from adjudicator.archive import queries as db
    from adjudicator.archive.models import GameRow, SeatRow, TurnRow
    from adjudicator.mail.clock import zone_name
    from adjudicator.mail.inbound import address_problem
    from adjudicator.services.notices import queue_welcome, render_welcome

    name, seats, pace, decisions, mail = options.name, options.seats, options.pace, options.decisions, options.mail
    decision_hours, position, game_data = options.decision_hours, options.position, options.game_data
    ruleset, stored_data = with_game_data(
        load_ruleset(options.ruleset), game_data, options.mode, _as_dict(options.ruleset_options)
    )
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
    spoken = {seat: "en" for seat in canonical} | _seat_option(
        ruleset, canonical, options.languages, "language", language_code
    )
    zones = _seat_option(ruleset, canonical, options.timezones, "time zone", zone_name)
    _check_choices(mail or {})
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
            # its orders hashes tell nothing of the orders, and commit to each seat's apart (engine/chance.py)
            orders_hash_version=ORDERS_BY_SEAT,
            chain_version=DIGESTED,  # its reports print each turn's digest: players follow the chain (chain.py)
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
                    earlier=rows[:-1],
                )
    from adjudicator.services.reports import write_turn_files  # here: reading a game draws no map

    folder = game_folder(data, name)
    files = write_turn_files(folder, ruleset, game, rows, spoken)
    for seat, text in welcomes.items():  # the moderator's copy: the password travels only in the queued mail
        path = folder / "outbox" / f"welcome-{seat}.txt"
        write_atomically(path, text.replace(passwords[seat], PASSWORD_MARK))
        files.append(path)
    return NewGame(name, passwords, folder, files)


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
    from adjudicator.services.turn import play, turn_inputs, turn_row

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


def _as_dict(given: Mapping[str, str] | None) -> dict[str, str] | None:
    """A mapping of the options as the ruleset takes it (None stays None: no options given)."""
    return None if given is None else dict(given)
