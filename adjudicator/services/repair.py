"""Repair (`pbem repair`, and every adjudication and tick before it works): writing what the archive holds and the
disk lacks, the files of a turn or the decision notices whose writer died after its commit. Nothing is stored."""

from __future__ import annotations

import os
from collections.abc import Collection
from dataclasses import dataclass, field
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
    from adjudicator.archive.models import DecisionRow, GameRow, TurnRow


def write_missing_files(archive: Archive, data: Path, name: str, *, clock: Clock = SYSTEM_CLOCK) -> list[Path]:
    """Write what the archive holds and the disk lacks: the files of every stored turn and the
    decision notices of the turn waiting for answers, which a process that died after its commit never wrote.
    Nothing is stored; returns the files written."""
    with archive.session() as session:
        missing = missing_files(session, data, name, clock=clock)
    return missing.write()


@dataclass
class MissingFiles:
    """What the disk lacks of a game's stored turns and waiting questions, read from the archive, to be written
    (`write`) once the transaction that read it is over."""

    folder: Path
    ruleset: Ruleset
    game: GameRow
    languages: dict[str, str]
    numbers: list[int]
    lacking_turns: dict[int, set[str]]
    rows: dict[int, TurnRow]
    waiting: tuple[int, StepResult, list[DecisionRow]] | None = None
    lacking_seats: set[str] = field(default_factory=set)
    latest: str | None = None  # the snapshot text before the waiting turn
    bots: dict[int, list[str]] = field(default_factory=dict)  # turn -> the seats whose orders the bot gave

    def write(self) -> list[Path]:
        """Write the files found lacking; returns them."""
        written: list[Path] = []
        for i, number in enumerate(self.numbers):
            if self.lacking_turns[number]:
                before = self.rows[self.numbers[i - 1]].state_json if i > 0 else None
                written += write_turn_files(
                    self.folder,
                    self.ruleset,
                    self.game,
                    [self.rows[number]],
                    self.languages,
                    before,
                    only=self.lacking_turns[number],
                    bots=self.bots,
                )
        if self.waiting is not None:
            number, result, questions = self.waiting
            lacking = [d for d in questions if d.seat in self.lacking_seats]
            if lacking:
                written += write_decision_notices(
                    self.folder, self.ruleset, self.game, number, result, lacking, self.languages, self.latest
                )
        return written


def missing_files(
    session: Session,
    data: Path,
    name: str,
    *,
    clock: Clock = SYSTEM_CLOCK,
    written_by_caller: Collection[int] = (),
    notices_by_caller: bool = False,
    game: GameRow | None = None,
    languages: dict[str, str] | None = None,
    newest: bool = False,
) -> MissingFiles:
    """What write_missing_files writes, read in the caller's transaction. A caller that resolved turns in it leaves
    out the turns it writes the files of itself (`written_by_caller`) and, when it asked questions, their notices
    (`notices_by_caller`): a tick reads this in its turn's own transaction, so that a game takes one commit. A
    caller that read the game and its seats' languages in the transaction passes them (`game`, `languages`). With
    `newest` (a tick's check) the files of the turns a writer may have died writing are looked at, not those of
    every turn (`_lacking_newest`)."""
    from adjudicator.archive import queries as db

    game = game if game is not None else db.find_game(session, name)
    ruleset = game_ruleset(game)
    if languages is None:
        languages = {s.seat: s.language for s in db.game_seats(session, game)}
    folder = game_folder(data, name)
    names = {"report.txt", "snapshot.json", "map.svg", *(f"report-{seat}.txt" for seat in languages)}
    if hides_information(ruleset):  # each seat's own view of a game with hidden cards (ER-13)
        names |= {f"snapshot-{seat}.json" for seat in languages}
    numbers = [n for n in db.turn_numbers(session, game) if n not in written_by_caller]
    # only the turns with a file lacking are read, with the turn before each (its position names the leaders)
    if newest:
        lacking_turns = _lacking_newest(folder, numbers, names)
    else:
        lacking_turns = {number: _lacking(folder, number, names) for number in numbers}
    wanted = {n for n in numbers if lacking_turns[n]}
    wanted |= {numbers[i - 1] for i, n in enumerate(numbers) if n in wanted and i > 0}
    rows = {row.number: row for row in db.turns_numbered(session, game, wanted)}
    missing = MissingFiles(folder, ruleset, game, languages, numbers, lacking_turns, rows)
    if "report.txt" in {name for number in wanted for name in lacking_turns[number]}:  # it names the bot's orders
        missing.bots = db.bot_seats(session, game, wanted)
    if notices_by_caller:
        return missing
    # the position is read only for a game with questions unanswered (a tick checks every game it ticks)
    state = current_game(session, name)[2] if db.has_unanswered_decisions(session, game) else None
    due = ruleset.steps_done(state) + 1 if state is not None else None
    unanswered = [d for d in db.decisions(session, game, due) if d.answer is None] if due is not None else []
    # the turn is resolved again (as far as it gets) only when a notice is missing
    missing.lacking_seats = {d.seat for d in unanswered if not _notice_written(folder, d)}
    missing.waiting = _waiting_turn(session, game, ruleset, state, clock=clock) if missing.lacking_seats else None
    # before the waiting turn
    missing.latest = db.latest_turn(session, game).state_json if missing.waiting is not None else None
    return missing


def _lacking(folder: Path, number: int, names: set[str]) -> set[str]:
    """The files of turn `number` that the disk lacks: one listing of its folder (every adjudication looks at every
    stored turn), a link followed as exists() follows it."""
    turn = folder / f"turn-{number:04d}"
    try:
        with os.scandir(turn) as entries:
            found = {e.name for e in entries if e.name in names and (not e.is_symlink() or os.path.exists(e.path))}
    except OSError:
        return {n for n in names if not (turn / n).exists()}
    return names - found


def _lacking_newest(folder: Path, numbers: list[int], names: set[str]) -> dict[int, set[str]]:
    """The files lacking of the turns `numbers` (oldest first) that a writer may have died writing: every turn whose
    folder is gone (one listing of the game's folder), and the newest turns back to the first whose files are all
    there. A game's turns are written oldest first, a tick writing the lacking files of older turns before those of
    its own: a turn whose files are all there has every older turn's too, but for a file deleted by hand inside a
    folder, which `pbem repair` and `pbem adjudicate` write (they look at every turn)."""
    try:
        with os.scandir(folder) as entries:
            folders = {entry.name for entry in entries if entry.is_dir()}
    except OSError:
        folders = set()
    lacking: dict[int, set[str]] = {}
    whole_seen = False
    for number in reversed(numbers):
        if f"turn-{number:04d}" not in folders:
            lacking[number] = set(names)
        elif whole_seen:
            lacking[number] = set()
        else:
            lacking[number] = _lacking(folder, number, names)
            whole_seen = not lacking[number]
    return lacking


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
