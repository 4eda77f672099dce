"""Repair (`pbem repair`, and every adjudication and tick before it works): writing what the archive holds and the
disk lacks, the files of a turn or the decision notices whose writer died after its commit. Nothing is stored."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from adjudicator.engine.protocol import hides_information
from adjudicator.engine.steps import StepResult
from adjudicator.errors import PbemError
from adjudicator.rulesets import Ruleset
from adjudicator.services.clock import SYSTEM_CLOCK, Clock
from adjudicator.services.game_reads import (
    current_game,
    game_checkpoints,
    game_folder,
    game_ruleset,
)
from adjudicator.services.reports import write_decision_notices, write_turn_files
from adjudicator.services.turn import (
    play,
    questions_now,
    settled_questions,
    turn_inputs,
)

# The archive (sqlmodel, SQLAlchemy: a large part of a command's start-up time) is imported by the functions
# that use it, so that the commands that work on files alone (`pbem check --state`) do not load it.
if TYPE_CHECKING:
    from sqlmodel import Session

    from adjudicator.archive import Archive
    from adjudicator.archive.models import DecisionRow, GameRow


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
    result = play(ruleset, state, text, dice, answers, ask=True, settled=settled_questions(game, asked, clock=clock))
    now_asked = {(need.seat, need.key) for need in questions_now(result.pending)}
    questions = [d for d in asked if d.answer is None and (d.seat, d.key) in now_asked]
    return (number, result, questions) if questions else None


def _notice_written(folder: Path, decision: DecisionRow) -> bool:
    """Whether the seat's notice of the decision's turn was written when (or after) the decision was asked; an
    older one is from an asking that a roll-back withdrew."""
    notice = folder / "outbox" / f"decisions-turn-{decision.turn:04d}-{decision.seat}.txt"
    asked = datetime.fromisoformat(decision.asked) - timedelta(seconds=1)
    return notice.exists() and datetime.fromtimestamp(notice.stat().st_mtime, UTC) >= asked
