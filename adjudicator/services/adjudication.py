"""Adjudication: resolving the due player-turns from stored orders (or from files alone with `pbem
resolve`), asking the decisions a turn needs, and writing what the archive holds and the disk lacks.

Every operation that stores something does it in one archive transaction, and writes files only after the
commit, so that a failure leaves the archive as it was."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from adjudicator.engine.chance import (
    ORDERS_KEYED,
    GivenDice,
    KeyedDice,
    hidden_turn_key,
    orders_digest,
    orders_key,
    parse_dice_file,
    turn_dice,
    turn_key,
)
from adjudicator.engine.decisions import Answer, Answers, Pending, answers_of
from adjudicator.engine.protocol import hides_information
from adjudicator.engine.steps import NotDue, Step, StepResult, resolve_step
from adjudicator.errors import PbemError
from adjudicator.orders import parse_orders, parse_turn_file
from adjudicator.orders.parser import split_blocks
from adjudicator.orders.sets import OrderError, OrderSet
from adjudicator.render import render, write_atomically
from adjudicator.render.i18n import gettext
from adjudicator.rulesets import Ruleset
from adjudicator.services.chain import link_turn
from adjudicator.services.clock import SYSTEM_CLOCK, Clock, timestamp
from adjudicator.services.games import (
    current_game,
    due_steps,
    due_turns,
    expected_turn,
    game_checkpoints,
    game_folder,
    game_ruleset,
    load_snapshot,
    snapshot_json,
)
from adjudicator.services.orders import Receipt, check_against, verdict_lines
from adjudicator.services.passwords import authenticate, redacted, without_passwords
from adjudicator.services.positions import partial_view
from adjudicator.services.reports import turn_context, write_decision_notices, write_turn_files

# The archive (sqlmodel, SQLAlchemy: a large part of a command's start-up time) is imported by the functions
# that use it, so that the commands that work on files alone (`pbem check --state`) do not load it.
if TYPE_CHECKING:
    from sqlmodel import Session

    from adjudicator.archive import Archive
    from adjudicator.archive.models import DecisionRow, GameRow, TurnRow


def play(
    ruleset: Ruleset,
    state: Any,
    orders_text: str,
    dice: KeyedDice | GivenDice,
    answers: Answers | None = None,
    ask: bool = False,
    settled: frozenset[tuple[str, str]] = frozenset(),
    *,
    in_place: bool = False,
) -> StepResult:
    """Resolve the step due with its order text ("" when none was received): one seat's order set, or for a step
    of several seats their order sets one after the other, each under its GAME header (step_orders_text)."""
    step = ruleset.due(state)
    if step is None:
        raise NotDue(f"game {state.game} has ended; there is no turn to resolve")
    if len(step.seats) > 1:
        by_seat = {block.header.player: block for block in seat_order_sets(orders_text, ruleset) if block.header}
    else:
        orders = parse_orders(orders_text, ruleset) if orders_text else None
        if orders is not None and orders.header is not None and orders.header.player not in step.seats:
            raise NotDue(f"orders are for {orders.header.player}, but the player-turn due is {step.seats[0]}'s")
        by_seat = {seat: orders for seat in step.seats}
    return resolve_step(ruleset, state, step, by_seat, dice, answers, ask=ask, settled=settled, in_place=in_place)


def seat_order_sets(text: str, ruleset: Ruleset) -> list[OrderSet]:
    """The order sets of a step of several seats (step_orders_text), each numbered from its own first line as its
    seat's receipt numbered it, not from the top of the joined text."""
    return [parse_orders(block, ruleset) for _, block in split_blocks(text)]


def step_orders_text(texts: dict[str, str]) -> str:
    """The order text of a step from each seat's stored order set (in the step's seat order; "" for none): one
    seat's set as it is, several seats' sets one after the other (each begins with its GAME header)."""
    sent = [text for text in texts.values() if text]
    if len(texts) <= 1:
        return "".join(sent)
    return "".join(text if text.endswith("\n") else text + "\n" for text in sent)


def step_seat(step: Step) -> str | None:
    """What the archive stores as a step's seat: its one seat, the seats of a sealed step joined, or None (a step
    in which nobody orders)."""
    return ", ".join(step.seats) or None


def step_seats(row: TurnRow) -> list[str]:
    """The seats who ordered in a stored step (step_seat's inverse): none for the setup or a step without orders."""
    return row.seat.split(", ") if row.seat else []


def verdicts(result: StepResult) -> list[Any] | dict[str, list[Any]]:
    """The verdicts of a step as stored: one seat's list (Conquest of the Empire's player-turn, as ever), or each
    seat's list under its name for a step of several seats."""
    if len(result.order_results) > 1:
        return {seat: [verdict.to_json() for verdict in found] for seat, found in result.order_results.items()}
    return [verdict.to_json() for results in result.order_results.values() for verdict in results]


def turn_row(
    ruleset: Ruleset,
    game: GameRow,
    number: int,
    seat: str | None,
    round_: int,
    orders_text: str,
    result: StepResult,
    dice: KeyedDice | GivenDice,
    answers: Answers | None = None,
    *,
    clock: Clock,
) -> TurnRow:
    from adjudicator.archive.models import TurnRow

    assert game.id is not None
    state_json = ruleset.snapshot_text(result.state)
    return TurnRow(
        game_id=game.id,
        number=number,
        seat=seat,
        round=round_,
        orders_text=orders_text,
        dice_source="keyed" if isinstance(dice, KeyedDice) else "given",
        given_dice=" ".join(str(v) for v in dice.values) if isinstance(dice, GivenDice) else "",
        turn_key=dice.key.hex() if isinstance(dice, KeyedDice) else "",
        # the hidden stream's key also salts the turn's chain hash, so that hidden cards cannot be guessed from it
        hidden_key=dice.hidden_key.hex() if isinstance(dice, KeyedDice) and hides_information(ruleset) else "",
        # secret until the game's end: it keys the orders hash and salts the chain hash, so that neither gives away
        # orders never made public (a sealed plan, a failed order)
        orders_key=dice.orders_key.hex() if isinstance(dice, KeyedDice) else "",
        state_json=state_json,
        **replayed_fields(orders_text, result, dice, state_json),
        answers_json=json.dumps(answers or {}, sort_keys=True),
        created=timestamp(clock),
    )


def replayed_fields(
    orders_text: str, result: StepResult, dice: KeyedDice | GivenDice, state_json: str
) -> dict[str, str]:
    """The fields of a stored turn that its replay must reproduce exactly (what `pbem verify` compares);
    `state_json` is the snapshot text of the resulting state."""
    return {
        "state_hash": hashlib.sha256(state_json.encode()).hexdigest(),
        "events_json": json.dumps([e.to_json() for e in result.events], ensure_ascii=False),
        "results_json": json.dumps(verdicts(result), ensure_ascii=False),
        "dice_json": json.dumps(result.dice),
        "hidden_dice_json": json.dumps(dice.hidden_log) if dice.hidden_log else "",
        "orders_hash": dice.orders_hash if isinstance(dice, KeyedDice) else orders_digest([orders_text]),
    }


@dataclass
class Adjudication:
    game: GameRow
    ruleset: Ruleset
    turns: list[TurnRow] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)
    stored_blocks: list[str] = field(default_factory=list)
    waiting: list[DecisionRow] = field(default_factory=list)  # decisions asked for; the turn waits for them
    waiting_on: tuple[int, StepResult] | None = None  # the turn that waits, as far as it got
    languages: dict[str, str] = field(default_factory=dict)  # seat -> language of its reports and notices
    before: str | None = None  # the snapshot text before the first turn resolved (for the battle headers)
    not_understood: list[tuple[str, OrderError]] = field(default_factory=list)  # lines of the turn file's blocks
    repaired: list[Path] = field(default_factory=list)  # files of earlier turns that the disk lacked, written now
    news: list[str] = field(default_factory=list)  # what was queued for the players (reports)

    def write_files(self, data: Path) -> list[Path]:
        """The reports of the turns resolved and the notices of the decisions asked (after the commit)."""
        folder = game_folder(data, self.game.name)
        self.files = write_turn_files(folder, self.ruleset, self.game, self.turns, self.languages, self.before)
        if self.waiting_on is not None:
            before = self.turns[-1].state_json if self.turns else self.before
            self.files += write_decision_notices(
                folder, self.ruleset, self.game, *self.waiting_on, self.waiting, self.languages, before
            )
        return self.files


def adjudicate(
    archive: Archive,
    data: Path,
    name: str,
    turn_file: str | None = None,
    defaults: bool = False,
    early: bool = True,
    *,
    clock: Clock = SYSTEM_CLOCK,
) -> Adjudication:
    """Resolve the due player-turn(s) from stored orders (and a turn file's blocks), in one transaction that holds
    the game's lock and also queues the report mails; write the files after the commit. Without `early`, a game
    whose deadline has not passed while due seats have no orders stored is refused (the moderator's `--now`
    allows it)."""
    from adjudicator.services.deadlines import mail_news, queue_news  # deadlines builds on this module

    # files of a turn whose writer died after its commit
    repaired = write_missing_files(archive, data, name, clock=clock)
    with archive.session() as session:
        game, ruleset, state = current_game(session, name, lock=True)
        done = adjudicate_locked(session, game, ruleset, state, turn_file, defaults, early=early, clock=clock)
        # the reports and NMR counts go in the turn's own transaction, as the tick's do
        done.news, questions = queue_news(session, game, ruleset, clock=clock)
    done.write_files(data)
    done.repaired = repaired
    if questions:
        done.news += mail_news(archive, data, name, clock=clock)
    return done


def adjudicate_locked(
    session: Session,
    game: GameRow,
    ruleset: Ruleset,
    state: Any,
    turn_file: str | None = None,
    defaults: bool = False,
    early: bool = True,
    *,
    clock: Clock = SYSTEM_CLOCK,
) -> Adjudication:
    """The work of `adjudicate` inside the caller's transaction, which holds the game's lock. When turns are
    resolved, the next deadline is set from the clock's time in the same transaction.

    In a game that asks for decisions, a turn that needs an unanswered decision is not stored: the questions
    are (Adjudication.write_files writes the notices), and a later call resolves the turn again from the same
    inputs with the answers (or, with `defaults` or once the waiting time is over, with the defaults).
    """
    from adjudicator.archive import queries as db

    done = Adjudication(game, ruleset, languages={s.seat: s.language for s in db.game_seats(session, game)})
    if ruleset.due(state) is None:
        raise PbemError(f"game {game.name} has ended")
    due = due_turns(ruleset, state, game.pace)
    done.before = ruleset.snapshot_text(state)
    if turn_file is not None:
        for block in parse_turn_file(turn_file, ruleset):
            seat = authenticate(session, game, block).seat
            assert block.header is not None
            if seat not in {s for _, s in due}:
                raise PbemError(
                    f"line {block.header.line}: the turn file has orders for {seat}, whose "
                    f"player-turn is not due (due: {', '.join(f'{n} {s}' for n, s in due)})"
                )
            number = expected_turn(ruleset, state, game.pace, seat, block.header.turn)
            db.store_orders(session, game, number, seat, without_passwords(block.source), timestamp(clock), "turn-file")
            done.stored_blocks.append(seat)
            done.not_understood += [(seat, e) for e in redacted(block).errors]
    if not early:
        refuse_before_deadline(session, game, due, clock=clock)
    seed, checkpoints = bytes.fromhex(game.seed), game_checkpoints(game)
    planned = due_steps(ruleset, state, game.pace)
    while (step := ruleset.due(state)) is not None:
        if planned and step == planned[0]:
            planned.pop(0)
        elif step.seats:
            break  # the due steps are done (or a seat was eliminated earlier in the round)
        # else a step nobody orders in (Conqueror's New Year, Taxation, end of round): it resolves in the same
        # run as the step before it, so that it neither waits for a deadline nor mails a report of its own
        number, seat = step.number, step_seat(step)
        text, asked, answers, dice = turn_inputs(session, game, seed, number, step.seats, checkpoints)
        result = play(
            ruleset,
            state,
            text,
            dice,
            answers,
            ask=game.decisions == "ask" and not defaults,
            settled=_settled(game, asked, clock=clock),
        )
        if result.pending:
            done.waiting = _ask(session, game, number, asked, questions_now(result.pending), clock=clock)
            done.waiting_on = (number, result)
            break
        row = turn_row(ruleset, game, number, seat, ruleset.round_of(state), text, result, dice, answers, clock=clock)
        link_turn(session, game, row)
        session.add(row)
        done.turns.append(row)
        state = result.state
    if done.turns:
        game.deadline = (clock.now() + timedelta(hours=game.turn_hours)).isoformat(timespec="seconds")
        if game.pace == "turn":
            recheck_orders_sent_ahead(session, game, ruleset, state, clock=clock)
    if ruleset.due(state) is None:
        game.status = "ended"
    session.add(game)
    return done


def turn_inputs(
    session: Session, game: GameRow, seed: bytes, number: int, seats: tuple[str, ...], checkpoints: dict[int, bytes]
) -> tuple[str, list[DecisionRow], Answers, KeyedDice]:
    """What a step is resolved from: its seats' stored orders, the decisions asked with their answers, and the
    step's dice stream."""
    from adjudicator.archive import queries as db

    texts = {}
    for seat in seats:
        stored = db.current_orders(session, game, number, seat)
        texts[seat] = stored.text if stored else ""
    text = step_orders_text(texts)
    asked = db.decisions(session, game, number)
    answers = answers_of(Answer(d.seat, d.key, d.answer) for d in asked if d.answer is not None)
    # a game begun with an older version keeps its unkeyed orders hash, so that its dice stay as they were made
    keyed = orders_key(seed, number) if game.orders_hash_version >= ORDERS_KEYED else b""
    dice = turn_dice(turn_key(seed, number, checkpoints), text, hidden_turn_key(seed, number), keyed)
    return text, asked, answers, dice


def write_missing_files(archive: Archive, data: Path, name: str, *, clock: Clock = SYSTEM_CLOCK) -> list[Path]:
    """Write what the archive holds and the disk lacks: the files of every stored turn and the
    decision notices of the turn waiting for answers, which a process that died after its commit never wrote.
    Nothing is stored; returns the files written."""
    from adjudicator.archive import queries as db

    with archive.session() as session:
        game = db.find_game(session, name)
        ruleset = game_ruleset(game)
        languages = {s.seat: s.language for s in db.game_seats(session, game)}
        folder = game_folder(data, name)
        names = {"report.txt", "snapshot.json", "map.svg", *(f"report-{seat}.txt" for seat in languages)}
        if hides_information(ruleset):  # each seat's own view of a game with hidden cards (ER-13)
            names |= {f"snapshot-{seat}.json" for seat in languages}
        numbers = db.turn_numbers(session, game)
        # only the turns with a file lacking are read, with the turn before each (its position names the leaders)
        lacking_turns = {number: _lacking(folder, number, names) for number in numbers}
        wanted = {n for n in numbers if lacking_turns[n]}
        wanted |= {numbers[i - 1] for i, n in enumerate(numbers) if n in wanted and i > 0}
        rows = {row.number: row for row in db.turns_numbered(session, game, wanted)}
        # the position is read only for a game with questions unanswered (a tick checks every game it ticks)
        state = current_game(session, name)[2] if db.has_unanswered_decisions(session, game) else None
        due = ruleset.steps_done(state) + 1 if state is not None else None
        unanswered = [d for d in db.decisions(session, game, due) if d.answer is None] if due is not None else []
        # the turn is resolved again (as far as it gets) only when a notice is missing
        lacking_seats = {d.seat for d in unanswered if not _notice_written(folder, d)}
        waiting = _waiting_turn(session, game, ruleset, state, clock=clock) if lacking_seats else None
        latest = db.latest_turn(session, game).state_json if waiting is not None else None  # before the waiting turn
    written: list[Path] = []
    for i, number in enumerate(numbers):
        if lacking_turns[number]:
            before = rows[numbers[i - 1]].state_json if i > 0 else None
            written += write_turn_files(
                folder, ruleset, game, [rows[number]], languages, before, only=lacking_turns[number]
            )
    if waiting is not None:
        number, result, questions = waiting
        lacking = [d for d in questions if d.seat in lacking_seats]
        if lacking:
            written += write_decision_notices(folder, ruleset, game, number, result, lacking, languages, latest)
    return written


def _lacking(folder: Path, number: int, names: set[str]) -> set[str]:
    """The files of turn `number` that the disk lacks."""
    return {n for n in names if not (folder / f"turn-{number:04d}" / n).exists()}


def repair(
    archive: Archive, data: Path, name: str | None = None, *, clock: Clock = SYSTEM_CLOCK
) -> tuple[dict[str, list[Path]], dict[str, str]]:
    """`pbem repair [GAME]`: write what the archive holds and the disk lacks, for one game or every game; returns
    the files written per game, and the games that could not be repaired with the reason."""
    from adjudicator.archive import queries as db

    with archive.session() as session:
        names = [db.find_game(session, name).name] if name else db.game_names(session)
    written, failed = {}, {}
    for game in names:
        try:
            written[game] = write_missing_files(archive, data, game, clock=clock)
        except PbemError as damaged:  # a damaged row (its stored game data): named, without a type
            failed[game] = str(damaged)
        except Exception as trouble:  # noqa: BLE001 (a damaged game must not keep the others from their files)
            failed[game] = f"{type(trouble).__name__}: {trouble}"
    return written, failed


def _waiting_turn(
    session: Session, game: GameRow, ruleset: Ruleset, state: Any, *, clock: Clock
) -> tuple[int, StepResult, list[DecisionRow]] | None:
    """The turn that waits for answers, resolved again as far as it gets, with the questions asked now (as
    adjudicate_locked asks them); None when no turn waits."""
    step = ruleset.due(state)
    if step is None or len(step.seats) != 1 or game.decisions != "ask":
        return None
    number, seat = step.number, step.seats[0]
    text, asked, answers, dice = turn_inputs(
        session, game, bytes.fromhex(game.seed), number, (seat,), game_checkpoints(game)
    )
    if all(d.answer is not None for d in asked):
        return None
    result = play(ruleset, state, text, dice, answers, ask=True, settled=_settled(game, asked, clock=clock))
    now_asked = {(need.seat, need.key) for need in questions_now(result.pending)}
    questions = [d for d in asked if d.answer is None and (d.seat, d.key) in now_asked]
    return (number, result, questions) if questions else None


def _notice_written(folder: Path, decision: DecisionRow) -> bool:
    """Whether the seat's notice of the decision's turn was written when (or after) the decision was asked; an
    older one is from an asking that a roll-back withdrew."""
    notice = folder / "outbox" / f"decisions-turn-{decision.turn:04d}-{decision.seat}.txt"
    asked = datetime.fromisoformat(decision.asked) - timedelta(seconds=1)
    return notice.exists() and datetime.fromtimestamp(notice.stat().st_mtime, UTC) >= asked


def _settled(game: GameRow, asked: list[DecisionRow], *, clock: Clock) -> frozenset[tuple[str, str]]:
    """The questions asked and left unanswered longer than the waiting time: they take their defaults (the ruleset's
    decisions_rule, e.g. C-15), while the decisions after them are still asked in their turn."""
    late = clock.now() - timedelta(hours=game.decision_hours)
    return frozenset((d.seat, d.key) for d in asked if d.answer is None and datetime.fromisoformat(d.asked) <= late)


def questions_now(pending: list[Pending]) -> list[Pending]:
    """The decisions to ask now: the first one the turn needed, and those right after it with no die rolled and
    nothing else happening in between. A later decision may depend on a roll not yet made or on the first
    answer: asking it now would tell the players what the dice or the defaults did, which would not be fair."""
    now_asked = pending[:1]
    for need in pending[1:]:
        last = now_asked[-1]
        if need.rolls != last.rolls or need.event != last.event + 1:
            break
        now_asked.append(need)
    return now_asked


def refuse_before_deadline(session: Session, game: GameRow, due: list[tuple[int, str]], *, clock: Clock) -> None:
    """Adjudicating before the deadline while due seats have sent no orders would cut their time short: refused,
    naming them (the moderator may insist with `pbem adjudicate --now`)."""
    from adjudicator.archive import queries as db

    if game.deadline is None or clock.now() >= datetime.fromisoformat(game.deadline):
        return
    missing = [
        f"{seat} (turn {number})" for number, seat in due if db.current_orders(session, game, number, seat) is None
    ]
    if missing:
        raise PbemError(
            f"the deadline {game.deadline} (UTC) has not passed and no orders are stored for "
            f"{', '.join(missing)}; wait, or adjudicate with --now to resolve without them"
        )


def recheck_orders_sent_ahead(session: Session, game: GameRow, ruleset: Ruleset, state: Any, *, clock: Clock) -> None:
    """Orders sent ahead for a player-turn that has just opened are checked again against the position as it
    now stands, and the seat gets a fresh receipt, queued in the adjudication's transaction. Like the first
    receipt it answers the seat's order mail and ends with the deadline of the step it opens."""
    from adjudicator.archive import queries as db
    from adjudicator.services.notices import deadline_text

    threads: dict[str, Any] | None = None
    for number, seat_name in due_turns(ruleset, state, game.pace):
        stored = db.current_orders(session, game, number, seat_name)
        if stored is None:
            continue
        seat = db.find_seat(session, game, seat_name)
        orders = parse_orders(stored.text, ruleset)
        receipt = Receipt(
            game.name,
            seat_name,
            number,
            list(orders.errors),
            check_against(ruleset, state, orders, seat_name, number),
            stored=True,
            rechecked=True,
            source=stored.text,
        )
        if threads is None:
            threads = db.last_order_mails(session, game)
        mail = threads.get(seat_name) if stored.source == "mail" else None
        say = seat.language
        db.queue_mail(
            session,
            seat.email,
            f"[{game.name}] " + gettext(say, "Receipt for turn %(turn)s", turn=number),
            receipt.text_in(say) + "\n" + deadline_text(game, seat),
            timestamp(clock),
            game.name,
            **({"in_reply_to": mail.message_id, "thread": mail.message_id} if mail else {}),
        )


def _ask(
    session: Session,
    game: GameRow,
    number: int,
    asked: list[DecisionRow],
    pending: list[Pending],
    *,
    clock: Clock,
) -> list[DecisionRow]:
    """Store the decisions the turn needs (once each) and return those still unanswered."""
    from adjudicator.archive.models import DecisionRow

    known = {(d.seat, d.key): d for d in asked}
    waiting = []
    for need in pending:
        decision = known.get((need.seat, need.key))
        if decision is None:
            assert game.id is not None
            decision = DecisionRow(
                game_id=game.id,
                turn=number,
                seat=need.seat,
                key=need.key,
                question=need.question,
                default=need.default,
                rule=need.rule,
                asked=timestamp(clock),
            )
            session.add(decision)
        waiting.append(decision)
    return waiting


@dataclass
class FileResolution:
    turns: list[TurnRow]
    files: list[Path]
    state: Any
    not_understood: list[tuple[str, OrderError]] = field(default_factory=list)  # (seat, line of the turn file)
    spare_dice: int = 0  # rolls of the dice file that no battle needed


def given_dice(dice_text: str | None, ruleset: Ruleset) -> GivenDice | None:
    """The draws of a dice file, or None for the keyed stream."""
    if dice_text is None:
        return None
    return GivenDice(values=parse_dice_file(dice_text, ruleset.dice_words, ruleset.largest_draw))


# step number -> (turn key, key of its hidden draws or b"", key of its orders commitment or b"" for an unkeyed hash)
TurnKeys = dict[int, tuple[bytes, bytes, bytes]]


def turn_keys(keys: Mapping[str, str], hidden: Mapping[str, str], orders: Mapping[str, str] | None = None) -> TurnKeys:
    """`pbem resolve --key TURN=HEX --hidden-key TURN=HEX --orders-key TURN=HEX`: the keys of the steps to resolve,
    as a game's reports reveal them (the turn key) and its archive keeps them (the hidden key and the orders key,
    secret until the game ends). A step without --orders-key is resolved with the unkeyed orders hash of the games
    of older versions."""
    found: TurnKeys = {}
    for option, pairs in (("--key", keys), ("--hidden-key", hidden), ("--orders-key", orders or {})):
        for turn, text in pairs.items():
            number = turn.strip()
            if not number.isdigit() or len(number) > 9:
                raise PbemError(f"{option} {turn}={text}: the turn is a number, e.g. {option} 7=<64 hex digits>")
            try:
                key = bytes.fromhex(text.strip())
            except ValueError:
                key = b""
            if len(key) != 32:
                raise PbemError(f"{option} {turn}={text}: a key is 64 hexadecimal digits")
            if option == "--key":
                found[int(number)] = (key, b"", b"")
            elif int(number) not in found:
                raise PbemError(f"{option} {turn}=...: no --key {turn}=... is given for that turn")
            elif option == "--hidden-key":
                found[int(number)] = (found[int(number)][0], key, found[int(number)][2])
            else:
                found[int(number)] = (*found[int(number)][:2], key)
    return found


@dataclass
class FileChance:
    """Where the draws of the steps `pbem resolve` resolves come from: a dice file, the turn keys given (the game's
    own stream, so that a stored step is reproduced exactly), or else a stream keyed by each step's snapshot."""

    given: GivenDice | None = None
    keys: TurnKeys | None = None

    def keyed(self, number: int) -> bool:
        """Whether step `number` may be resolved: with turn keys given, only the steps they name are."""
        return self.keys is None or number in self.keys

    def dice(self, number: int, before: str, text: str) -> KeyedDice | GivenDice:
        if self.given is not None:
            return self.given
        if self.keys is not None:
            if number not in self.keys:
                raise PbemError(f"no --key for turn {number}: with --key, give the turn key of every step resolved")
            key, hidden, orders = self.keys[number]
            return turn_dice(key, text, hidden, orders)
        state_key = hashlib.sha256(before.encode()).digest()
        # files alone: nothing is secret from the moderator who runs them, so the hidden draws are keyed likewise
        return KeyedDice(
            key=state_key, orders_hash=orders_digest([text]), hidden_key=hidden_turn_key(state_key, number)
        )


def file_step(
    ruleset: Ruleset,
    game: GameRow,
    state: Any,
    number: int,
    seat: str | None,
    text: str,
    chance: FileChance,
    rows: list[TurnRow],
    befores: list[str],
    *,
    clock: Clock,
) -> Any:
    """Resolve the step due from its order text with no archive; its row and the snapshot before it are added to
    `rows` and `befores`. Returns the state after it."""
    before = ruleset.snapshot_text(state)
    befores.append(before)
    dice = chance.dice(number, before, text)
    result = play(ruleset, state, text, dice)
    rows.append(turn_row(ruleset, game, number, seat, ruleset.round_of(state), text, result, dice, clock=clock))
    return result.state


def turn_file(
    ruleset: Ruleset,
    game: GameRow,
    state: Any,
    orders_text: str,
    chance: FileChance,
    rows: list[TurnRow],
    befores: list[str],
    *,
    clock: Clock,
) -> tuple[Any, list[tuple[str, OrderError]]]:
    """The player-turns of one seat each from a turn file (one block per seat), as resolve_files tells."""
    blocks = parse_turn_file(orders_text, ruleset)
    # the coming steps of one seat each; a step nobody orders in or a sealed step ends them (ER-4: a round's phases)
    coming = [(s.number, s.seats[0]) for s in ruleset.coming_steps(state) if len(s.seats) == 1 and not s.sealed]
    numbers: dict[str, int] = {}
    for number, seat in coming:
        numbers.setdefault(seat, number)
    by_seat: dict[str, str] = {}
    not_understood = [(block.header.player, e) for block in map(redacted, blocks) if block.header for e in block.errors]
    for block in blocks:
        if block.header is None:
            raise PbemError("orders file: " + "; ".join(e.located for e in block.errors))
        seat = block.header.player
        if block.header.game.casefold() != state.game.casefold():
            raise PbemError(
                f"orders file line {block.header.line}: game {block.header.game!r}, but the state "
                f"is of game {state.game!r}"
            )
        if seat not in numbers:
            raise PbemError(
                f"orders file line {block.header.line}: {seat}'s player-turn is not due in this "
                f"round (due: {', '.join(f'{n} {s}' for n, s in coming)})"
            )
        if block.header.turn != numbers[seat]:
            raise PbemError(
                f"orders file line {block.header.line}: TURN {block.header.turn}, but {seat}'s "
                f"coming player-turn is turn {numbers[seat]}"
            )
        if seat in by_seat:
            raise PbemError(f"orders file line {block.header.line}: a second block for {seat}")
        by_seat[seat] = block.source
    last = max((numbers[s] for s in by_seat), default=coming[0][0] if coming else 0)
    for number, seat in coming:
        step = ruleset.due(state)
        if number > last or step is None or step.seats != (seat,):
            break
        state = file_step(ruleset, game, state, number, seat, by_seat.get(seat, ""), chance, rows, befores, clock=clock)
    return state, not_understood


def steps_without_orders(
    ruleset: Ruleset,
    game: GameRow,
    state: Any,
    chance: FileChance,
    rows: list[TurnRow],
    befores: list[str],
    *,
    clock: Clock,
    keyed_only: bool = False,
) -> Any:
    """The steps due that nobody orders in (a deal, taxation, the end of a round), up to the next step with seats or
    the game's end, or with `keyed_only` up to the first step without a turn key given; the state after them."""
    step = ruleset.due(state)
    while step is not None and not step.seats and (not keyed_only or chance.keyed(step.number)):
        state = file_step(ruleset, game, state, step.number, None, "", chance, rows, befores, clock=clock)
        step = ruleset.due(state)
    return state


def sealed_files(
    ruleset: Ruleset,
    game: GameRow,
    state: Any,
    files: list[tuple[str, str]],
    chance: FileChance,
    rows: list[TurnRow],
    befores: list[str],
    *,
    clock: Clock,
    silent: Sequence[str] = (),
) -> tuple[Any, list[tuple[str, OrderError]]]:
    """The steps nobody orders in (a deal), then the sealed step due after them, from one orders file per seat of
    it: each file one order set under its GAME header; the seats `silent` sent none (as the archive resolves a seat
    that missed the deadline). A seat of the step without a file, a file for a seat that does not order in it, or a
    second file for a seat is an error naming the seat and the file; the state after the sealed step is returned,
    with the lines not understood."""
    state = steps_without_orders(ruleset, game, state, chance, rows, befores, clock=clock)
    step = ruleset.due(state)
    if step is None:
        given = files[0][0] if files else f"--no-orders {silent[0]}"
        raise PbemError(
            f"game {state.game} ends with turn {ruleset.steps_done(state)}, which nobody orders in: {given} has "
            "no step to be for (resolve without --orders to end the game)"
        )
    if not step.sealed:
        raise PbemError(f"the step due, turn {step.number}, is {step.seats[0]}'s alone: give one turn file")
    texts: dict[str, str] = {}
    named: dict[str, str] = {}
    not_understood: list[tuple[str, OrderError]] = []
    for name, text in files:
        seat, block = _seat_file(name, text, ruleset, state, step)
        if seat in named:
            raise PbemError(f"{name}: a second orders file for {seat} (the first is {named[seat]})")
        texts[seat], named[seat] = block.source, name
        not_understood += [(seat, e) for e in redacted(block).errors]
    for seat in silent:
        if seat not in step.seats:
            whose = ", ".join(step.seats)
            raise PbemError(f"--no-orders {seat}: {seat} does not order in turn {step.number} (its seats: {whose})")
        if seat in texts:
            raise PbemError(f"--no-orders {seat}: {named[seat]} has {seat}'s orders")
        texts[seat] = ""  # a seat that sent nothing: no text, as the archive resolves it (step_orders_text)
    missing = [seat for seat in step.seats if seat not in texts]
    if missing:
        raise PbemError(
            f"no orders file for {', '.join(missing)}: turn {step.number} is sealed, so every seat of it "
            f"({', '.join(step.seats)}) gives one (--orders for each; the header line alone orders nothing), "
            "or --no-orders SEAT for a seat that sent none"
        )
    text = step_orders_text({seat: texts[seat] for seat in step.seats})
    state = file_step(ruleset, game, state, step.number, step_seat(step), text, chance, rows, befores, clock=clock)
    return state, not_understood


def _seat_file(name: str, text: str, ruleset: Ruleset, state: Any, step: Step) -> tuple[str, OrderSet]:
    """The seat and order set of one seat's orders file for the sealed `step` (a PbemError naming the file)."""
    blocks = parse_turn_file(text, ruleset)
    if len(blocks) != 1 or blocks[0].header is None:
        problems = "; ".join(e.located for block in blocks if block.header is None for e in block.errors)
        raise PbemError(
            f"{name}: one seat's order set under its GAME header, not {len(blocks)} blocks {problems}".strip()
        )
    header = blocks[0].header
    if header.game.casefold() != state.game.casefold():
        raise PbemError(f"{name} line {header.line}: game {header.game!r}, but the state is of game {state.game!r}")
    if header.player not in step.seats:
        raise PbemError(
            f"{name} line {header.line}: {header.player} does not order in turn {step.number} "
            f"(its seats: {', '.join(step.seats)})"
        )
    if header.turn != step.number:
        raise PbemError(f"{name} line {header.line}: TURN {header.turn}, but the step due is turn {step.number}")
    return header.player, blocks[0]


def resolve_files(
    state_text: str,
    orders_text: str | Sequence[tuple[str, str]],
    dice_text: str | None,
    out: Path,
    strict_dice: bool = False,
    *,
    clock: Clock = SYSTEM_CLOCK,
    game_data: Path | None = None,
    keys: TurnKeys | None = None,
    silent: Sequence[str] = (),
) -> FileResolution:
    """`pbem resolve`: the due player-turns of a snapshot from a turn file, with no archive.

    Turns are resolved in turn order from the active seat up to the last seat of the round with an order
    block; seats in between without a block do nothing. Passwords cannot be checked without an archive.
    Without a dice file the dice stream is keyed by the snapshot's hash (reproducible, not secret), or by the
    turn keys given (`keys`: the game's own stream). Lines not understood do nothing; the report gives them their
    verdict among the orders' verdicts. Rolls of the dice file left over are reported; with `strict_dice` they are
    an error and nothing is written.

    A sealed step (its seats order at once) takes one orders file per seat instead: `orders_text` is then each
    file's (name, text); see sealed_files. With no orders file at all, the steps due that nobody orders in are
    resolved (up to the next step with seats, or the game's end). A ruleset whose data the moderator supplies
    reads the snapshot with the data folder `game_data` (services/games.py load_snapshot). The seats `silent`
    (`--no-orders`) sent no orders for the step due: a seat of a sealed step, or the seat of the one-seat step due;
    the step is resolved as the archive resolves it past the deadline, with no text from them.
    """
    from adjudicator.archive.models import GameRow

    state, ruleset = load_snapshot(state_text, game_data)
    if partial_view(ruleset, state, snapshot_json(state_text)):
        raise PbemError(
            "state file: a public or one seat's snapshot (not every seat's hidden part): resolving needs the whole "
            "snapshot, with every seat's hidden part and the decks' order (the snapshot.json `pbem resolve` writes)"
        )
    files = [("orders file", orders_text)] if isinstance(orders_text, str) else list(orders_text)
    game = GameRow(id=0, name=state.game, ruleset=ruleset.name, seed="", commitment="", created="")
    rows: list[TurnRow] = []
    befores: list[str] = []
    due = ruleset.due(state)
    if due is None:
        raise PbemError(
            f"game {state.game} has ended (after turn {ruleset.steps_done(state)}): there is no step to resolve"
        )
    if dice_text is not None and keys:
        raise PbemError("give either a dice file (--dice) or the turn keys (--key), not both")
    chance = FileChance(given_dice(dice_text, ruleset), keys if keys else None)
    given = chance.given
    if not files and not silent:
        if due.seats:
            raise PbemError(
                f"turn {due.number} is {', '.join(due.seats)}'s to order: give the orders with --orders "
                "(a file of the header line alone orders nothing)"
            )
        # with turn keys, the steps they name: a stored game is reproduced one step at a time
        state = steps_without_orders(ruleset, game, state, chance, rows, befores, clock=clock, keyed_only=True)
        not_understood: list[tuple[str, OrderError]] = []
    elif due.sealed or not due.seats:
        state, not_understood = sealed_files(
            ruleset, game, state, files, chance, rows, befores, clock=clock, silent=silent
        )
    elif silent:
        if files or list(silent) != list(due.seats):
            raise PbemError(
                f"--no-orders {', '.join(silent)}: the step due, turn {due.number}, is {due.seats[0]}'s alone: "
                f"give its turn file, or --no-orders {due.seats[0]} alone"
            )
        state = file_step(ruleset, game, state, due.number, due.seats[0], "", chance, rows, befores, clock=clock)
        not_understood = []
    elif len(files) > 1:
        raise PbemError(
            f"{files[1][0]}: one orders file per seat is for a sealed step, and the step due is turn {due.number}, "
            f"{', '.join(due.seats)}'s: give one turn file, with a block per seat"
        )
    else:
        state, not_understood = turn_file(ruleset, game, state, files[0][1], chance, rows, befores, clock=clock)
    unused_keys = sorted(set(keys or {}) - {row.number for row in rows})
    if unused_keys:
        raise PbemError(
            f"--key for turn {', '.join(map(str, unused_keys))}, which was not resolved "
            f"(resolved: {', '.join(str(row.number) for row in rows) or 'none'})"
        )
    spare = given.unused if given is not None else 0
    if spare and strict_dice:
        raise PbemError(f"{spare} rolls of the dice file were not used (--strict-dice)")
    contexts = [
        with_lines_not_understood(turn_context(ruleset, r, b), r.orders_text, ruleset)
        for r, b in zip(rows, befores, strict=True)
    ]
    common = {
        "ruleset": ruleset,
        "title": ruleset.title,
        "game": state.game,
        "turns": contexts,
        "state": json.loads(ruleset.snapshot_text(state)),
        "commitment": "",
        "seats": list(ruleset.seats_of(state)),
    }
    # report.txt of `pbem resolve` is the moderator's (the interface keeps each seat's verdicts there); what the
    # public may read is public.txt, and each seat's orders, verdicts and decisions are in its private report
    outputs = {
        "report.txt": render("report.txt.j2", **common, moderator=True),
        "public.txt": render("report.txt.j2", **common),
        "snapshot.json": ruleset.snapshot_text(state),
    }
    if spare:
        unused = gettext("en", "%(count)s rolls of the dice file were not used.", count=spare)
        outputs["report.txt"] += f"\n{unused}\n"
    template = ruleset.report_context(state)
    for seat in ruleset.seats_of(state):
        outputs[f"report-{seat}.txt"] = render("report-seat.txt.j2", seat=seat, **common, **template)
    for filename, text in outputs.items():
        write_atomically(out / filename, text, public=filename == "public.txt")
    return FileResolution(rows, [out / filename for filename in outputs], state, not_understood, spare)


def with_lines_not_understood(context: dict[str, Any], orders_text: str, ruleset: Ruleset) -> dict[str, Any]:
    """A turn's report context whose verdicts include the lines of its order set that were not understood (they
    did nothing), in line order, so that every line sent gets a verdict."""
    if orders_text and len(context["senders"]) > 1:
        # a sealed step: each seat's order set under its header (step_orders_text), its lines numbered as its own
        sets = {block.header.player: block for block in seat_order_sets(orders_text, ruleset) if block.header}
        of = context["results_of"]
        for seat, block in sets.items():
            of[seat] = sorted([*of.get(seat, []), *block.errors], key=lambda item: item.line)
        context["results"] = [item for found in of.values() for item in found]
    else:
        errors = list(parse_orders(orders_text, ruleset).errors) if orders_text else []
        if errors:
            context["results"] = sorted([*context["results"], *errors], key=lambda item: item.line)
            of = context["results_of"]
            for seat in of:  # the one seat of the step: its private report too
                of[seat] = sorted([*of[seat], *errors], key=lambda item: item.line)
    sources = context.get("sources", {})
    context["lines_of"] = {
        seat: verdict_lines(found, sources.get(seat, "")) for seat, found in context["results_of"].items()
    }
    return context
