"""The game's status: the STATUS mail, `pbem status`, `pbem games`, and the log of mails received."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlmodel import Session

from adjudicator.archive import Archive
from adjudicator.archive import queries as db
from adjudicator.archive.models import GameRow, MessageRow
from adjudicator.mail.clock import deadline_line
from adjudicator.render import render
from adjudicator.services.game_reads import current_game, due_turns, game_ruleset


@dataclass
class SeatStatus:
    seat: str
    email: str
    language: str
    timezone: str
    missed: int
    due: int | None  # the number of the seat's player-turn open for orders now, if any
    orders: str | None  # when its orders for that turn arrived; None when none are stored


@dataclass
class GameStatus:
    game: str
    ruleset: str
    turn: int  # the last resolved player-turn
    status: str  # running | paused | ended | waiting for decisions
    deadline: str | None
    seats: list[SeatStatus]
    observers: list[str]
    selfplay: bool

    @property
    def due(self) -> list[SeatStatus]:
        return [s for s in self.seats if s.due is not None]

    @property
    def missing(self) -> list[SeatStatus]:
        return [s for s in self.due if s.orders is None]


def game_status(session: Session, game: GameRow, state: Any) -> GameStatus:
    """Deadline, due steps and whose orders are in (never what they order: a sealed step's orders are their
    seat's alone until it resolves), missed turns, observers."""
    ruleset = game_ruleset(game)
    due = {seat: number for number, seat in due_turns(ruleset, state, game.pace)}
    done = ruleset.steps_done(state)
    seats = []
    for row in db.game_seats(session, game):
        number = due.get(row.seat)
        stored = db.current_orders(session, game, number, row.seat) if number is not None else None
        seats.append(
            SeatStatus(
                row.seat, row.email, row.language, row.timezone, row.missed, number, stored.received if stored else None
            )
        )
    waiting = any(d.answer is None for d in db.decisions(session, game, done + 1))
    status = "paused" if game.paused and game.status == "running" else game.status
    if status == "running" and waiting:
        status = "waiting for decisions"
    return GameStatus(
        game.name,
        game.ruleset,
        done,
        status,
        game.deadline,
        seats,
        [o.email for o in db.observers(session, game)],
        game.selfplay,
    )


def status_text(language: str, status: GameStatus, zone: str) -> str:
    """The STATUS answer: what every player may know (no addresses)."""
    return render("status.txt.j2", language, s=status, deadline=deadline_line(language, status.deadline, zone))


def read_status(archive: Archive, name: str) -> GameStatus:
    with archive.session() as session:
        game, _, state = current_game(session, name)
        return game_status(session, game, state)


def all_games(archive: Archive) -> list[GameStatus]:
    """`pbem games`: every game's status, by name."""
    with archive.session() as session:
        found = []
        for name in db.game_names(session):
            game, _, state = current_game(session, name)
            found.append(game_status(session, game, state))
    return found


def message_log(archive: Archive, game: str | None, limit: int) -> list[MessageRow]:
    """`pbem log`: the latest mails received and what became of each (a stranger's mail included)."""
    with archive.session() as session:
        return db.messages(session, game, limit)
