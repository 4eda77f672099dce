"""The turn: one due step of an archived game read from the archive (its seats' stored orders, the decisions
asked with their answers, its dice stream), resolved (as far as it gets, when it waits for answers), and stored as
a turn row. Adjudication (adjudication.py), the setup (games.py), repair (repair.py) and the files interface
(turn_files.py) all resolve a step through it."""

from __future__ import annotations

import hashlib
import json
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from adjudicator.engine.chance import (
    ORDERS_BY_SEAT,
    ORDERS_KEYED,
    GivenDice,
    KeyedDice,
    hidden_turn_key,
    orders_digest,
    orders_key,
    turn_dice,
    turn_key,
)
from adjudicator.engine.decisions import Answer, Answers, Pending, answers_of
from adjudicator.engine.protocol import hides_information
from adjudicator.engine.steps import NotDue, Step, StepResult, resolve_step
from adjudicator.orders import parse_orders
from adjudicator.orders.parser import split_blocks
from adjudicator.orders.sets import OrderSet
from adjudicator.rulesets import Ruleset
from adjudicator.services.clock import Clock, timestamp

# The archive (sqlmodel, SQLAlchemy: a large part of a command's start-up time) is imported by the functions
# that use it, so that the commands that work on files alone (`pbem check --state`) do not load it.
if TYPE_CHECKING:
    from sqlmodel import Session

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


def turn_name(row: TurnRow) -> str:
    """'turn 5 (Egyptus)' as the moderator's lines name a turn; 'turn 5' for a step nobody orders in."""
    return f"turn {row.number} ({row.seat})" if row.seat else f"turn {row.number}"


def seat_texts(row: TurnRow) -> dict[str, str] | None:
    """The seats' order texts a step of several seats stores (TurnRow.seat_orders; none for most steps), in the
    step's seat order; None when garbled."""
    try:
        by_seat = json.loads(row.seat_orders) if row.seat_orders else {}
    except ValueError:
        return None
    if not isinstance(by_seat, dict) or not all(isinstance(t, str) for t in by_seat.values()):
        return None
    return by_seat


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
        dice_faces=json.dumps(dice.faces_log) if [tuple(d) for d in result.dice] == dice.log else "",
        hidden_faces=json.dumps(dice.hidden_faces_log) if dice.hidden_log else "",
        seat_orders=json.dumps(dice.by_seat, ensure_ascii=False)
        if isinstance(dice, KeyedDice) and dice.by_seat
        else "",
    )


def replayed_fields(
    orders_text: str, result: StepResult, dice: KeyedDice | GivenDice, state_json: str, state_hash: str = ""
) -> dict[str, str]:
    """The fields of a stored turn that its replay must reproduce exactly (what `pbem verify` compares);
    `state_json` is the snapshot text of the resulting state, `state_hash` its hash when the caller has it."""
    return {
        "state_hash": state_hash or hashlib.sha256(state_json.encode()).hexdigest(),
        "events_json": json.dumps([e.to_json() for e in result.events], ensure_ascii=False),
        "results_json": json.dumps(verdicts(result), ensure_ascii=False),
        "dice_json": json.dumps(result.dice),
        "hidden_dice_json": json.dumps(dice.hidden_log) if dice.hidden_log else "",
        "orders_hash": dice.orders_hash if isinstance(dice, KeyedDice) else orders_digest([orders_text]),
    }


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
    by_seat = texts if len(texts) > 1 and game.orders_hash_version >= ORDERS_BY_SEAT else None
    dice = turn_dice(turn_key(seed, number, checkpoints), text, hidden_turn_key(seed, number), keyed, by_seat)
    return text, asked, answers, dice


def settled_questions(game: GameRow, asked: list[DecisionRow], *, clock: Clock) -> frozenset[tuple[str, str]]:
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
