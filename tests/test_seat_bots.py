"""A bot for an empty seat, in every ruleset: the moderator puts a seat on the ruleset's bot (`pbem gm bot`), or the
game does after `bot_after` missed steps; at the tick the bot's orders are stored as the seat's, with the source
"bot", the reports say that the bot runs the seat, `pbem verify` replays the game, and the seat's player takes the
seat back by sending orders (or a new player by `pbem gm replace`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlmodel import select

from adjudicator.archive import Archive
from adjudicator.archive import queries as db
from adjudicator.archive.models import DecisionRow, OrderSetRow
from adjudicator.rulesets import Ruleset, load_ruleset
from adjudicator.services.adjudication import adjudicate
from adjudicator.services.bots import bot_notes, set_bot
from adjudicator.services.clock import FixedClock
from adjudicator.services.deadlines import tick
from adjudicator.services.game_reads import current_game, due_turns
from adjudicator.services.games import NewGameOptions, new_game
from adjudicator.services.gm import replace_player
from adjudicator.services.orders import submit
from adjudicator.services.selfplay import bot_of, header, playable, selfplay_seats, step_rng
from adjudicator.services.verification import verify, verify_stored
from tests.conftest import Pbem
from tests.test_eaw_mail import fixed_secrets

RULESETS = ("coe-classic", "coe-1984", "conqueror-er", "empires-aw")
GAME = "seated"
START = datetime(2026, 11, 1, tzinfo=UTC)
RUN_BY_BOT = "%s is run by the bot."
BACK = "%s is played by its player again."
SEAT_ARGS = [a for s in ("Macedonia", "Egyptus", "Hispania") for a in ("--seat", f"{s}={s.casefold()}@example.org")]


@dataclass
class Game:
    archive: Archive
    data: Path
    ruleset: Ruleset
    seats: list[str]
    passwords: dict[str, str]
    moment: datetime = START

    def tick(self) -> list[str]:
        """A tick after the deadline (the first one sets it), with the clock moved on past it."""
        self.moment += timedelta(hours=100)
        return tick(self.archive, self.data, clock=FixedClock(self.moment)).lines

    def tick_until(self, done: Callable[[], bool], most: int = 40) -> None:
        """Tick until `done` (checked before each tick too); a test failure after `most` ticks."""
        for _ in range(most):
            if done():
                return
            self.tick()
        raise AssertionError(f"not done after {most} ticks")

    def seat(self, name: str) -> tuple[bool, bool, int]:
        """The seat's (run by the bot, taken back, missed steps)."""
        with self.archive.session() as session:
            row = db.find_seat(session, db.find_game(session, GAME), name)
            return row.run_by_bot, row.back_from_bot, row.missed

    def order_sources(self, seat: str) -> list[str]:
        with self.archive.session() as session:
            rows = session.exec(select(OrderSetRow).where(OrderSetRow.seat == seat).order_by(OrderSetRow.id)).all()
            return [row.source for row in rows]

    def due(self) -> list[tuple[int, str]]:
        with self.archive.session() as session:
            game, ruleset, state = current_game(session, GAME)
            return due_turns(ruleset, state, game.pace)

    def own_orders(self, seat: str) -> str:
        """The seat's player's orders (the bot's self-play orders, as a player would write them) for its due step."""
        with self.archive.session() as session:
            game, ruleset, state = current_game(session, GAME)
            number = next(n for n, s in due_turns(ruleset, state, game.pace) if s == seat)
        text = header(GAME, number, seat, self.passwords[seat])
        return bot_of(ruleset).seat_orders(ruleset, state, seat, text, step_rng(1, number))

    def outbox(self) -> list[tuple[str, str]]:
        from adjudicator.archive.models import OutboxRow

        with self.archive.session() as session:
            return [(row.to, row.body) for row in session.exec(select(OutboxRow).order_by(OutboxRow.id)).all()]


def make_game(
    tmp_path: Path, ruleset_name: str, bot_after: int = 0, pace: str = "turn", decisions: str = "default"
) -> Game:
    ruleset, folder = playable(load_ruleset(ruleset_name))
    seats = selfplay_seats(ruleset, 3)
    archive = Archive.in_folder(tmp_path)
    made = new_game(
        archive,
        tmp_path,
        NewGameOptions(
            GAME,
            ruleset.name,
            {s: f"{s.casefold()}@example.org" for s in seats},
            pace=pace,
            decisions=decisions,
            decision_hours=10_000,  # only an answer settles a decision within a test
            mail={"bot_after": bot_after, "moderator": "gm@example.org"},
            game_data=folder,
        ),
        clock=FixedClock(START),
    )
    return Game(archive, tmp_path, ruleset, seats, made.passwords)


@pytest.mark.parametrize("ruleset_name", RULESETS)
def test_a_seat_on_the_bot_is_ordered_for_reported_and_verified(tmp_path: Path, ruleset_name: str) -> None:
    game = make_game(tmp_path, ruleset_name)
    seat = game.seats[0]
    assert set_bot(game.archive, GAME, seat)
    assert not set_bot(game.archive, GAME, seat)  # already on the bot: nothing to do
    mailed = len(game.outbox())
    game.tick_until(lambda: game.order_sources(seat).count("bot") >= 2)
    assert set(game.order_sources(seat)) == {"bot"}
    assert game.seat(seat) == (True, False, 0)  # a seat the bot runs misses nothing
    told = {to for to, body in game.outbox()[mailed:] if RUN_BY_BOT % seat in body}
    assert told >= {f"{s.casefold()}@example.org" for s in game.seats}  # its own report and the others' say so
    _, problems = verify(game.archive, GAME, game.data)
    assert problems == []
    assert verify_stored(game.data, None, GAME)[1] == []  # `pbem verify`, which reads the rows without SQLAlchemy


@pytest.mark.parametrize("ruleset_name", RULESETS)
def test_bot_after_two_missed_steps_and_the_player_takes_the_seat_back(tmp_path: Path, ruleset_name: str) -> None:
    game = make_game(tmp_path, ruleset_name, bot_after=2)
    watched = game.seats[0]
    history: list[tuple[bool, bool, int]] = []

    def on_the_bot() -> bool:
        history.append(game.seat(watched))
        return history[-1][0]

    game.tick_until(on_the_bot)
    assert (False, False, 1) in history  # one missed step is not enough
    assert history[-1] == (True, False, 2)
    assert game.order_sources(watched) == []  # nothing was stored for it before
    game.tick_until(lambda: bool(game.order_sources(watched)))
    assert game.order_sources(watched) == ["bot"]
    game.tick_until(lambda: watched in {s for _, s in game.due()})

    receipt = submit(game.archive, GAME, game.own_orders(watched), clock=FixedClock(game.moment))
    assert receipt.stored
    assert game.seat(watched)[:2] == (False, True)
    mailed = len(game.outbox())
    game.tick_until(lambda: len(game.outbox()) > mailed)
    # the next reports say so (a seat of conqueror-er, whose reports wait for its own step, ER-4, may get none yet)
    assert any(BACK % watched in body for _, body in game.outbox()[mailed:])
    assert game.seat(watched)[:2] == (False, False)  # said once
    assert game.order_sources(watched)[-1] == "file"
    _, problems = verify(game.archive, GAME, game.data)
    assert problems == []


def test_a_new_player_takes_the_seat_from_the_bot(tmp_path: Path) -> None:
    game = make_game(tmp_path, "coe-classic")
    seat = game.seats[1]
    set_bot(game.archive, GAME, seat)
    replace_player(game.archive, GAME, seat, "new@example.org", clock=FixedClock(START))
    assert game.seat(seat)[:2] == (False, True)


def test_gm_bot_off_gives_the_seat_back_to_its_player(tmp_path: Path) -> None:
    game = make_game(tmp_path, "coe-classic")
    seat = game.due()[0][1]
    set_bot(game.archive, GAME, seat)
    assert set_bot(game.archive, GAME, seat, on=False)
    lines = game.tick()
    assert game.order_sources(seat) == []
    assert any(f"waiting for {seat}" in line or "reminded" in line or "resolved" in line for line in lines)


def test_pbem_gm_bot_and_new_with_bot_after(pbem: Pbem) -> None:
    made = pbem("new", "rome2", "--ruleset", "coe-classic", "--bot-after", "3", *SEAT_ARGS)
    assert made.exit_code == 0, made.output
    assert pbem.sql("select bot_after from game where name = 'rome2'") == [(3,)]
    result = pbem("gm", "bot", "rome2", "Egyptus")
    assert result.exit_code == 0, result.output
    assert "Egyptus of rome2 is run by the bot" in result.output
    assert pbem("gm", "bot", "rome2", "Egyptus").output.strip() == "nothing to do"
    assert pbem.sql("select seat from seat where run_by_bot") == [("Egyptus",)]
    off = pbem("gm", "bot", "rome2", "Egyptus", "--off")
    assert "Egyptus of rome2 is run by its player" in off.output
    assert pbem.sql("select seat from seat where run_by_bot or back_from_bot") == [("Egyptus",)]
    assert pbem.sql("select count(*) from seat where run_by_bot") == [(0,)]


def test_the_notes_are_in_the_seats_language(tmp_path: Path) -> None:
    game = make_game(tmp_path, "coe-classic")
    set_bot(game.archive, GAME, game.seats[0])
    with game.archive.session() as session:
        seats = db.game_seats(session, db.find_game(session, GAME))
    assert bot_notes(seats, "de") == f"{game.seats[0]} wird vom Bot gespielt.\n"
    assert bot_notes(seats, "en") == RUN_BY_BOT % game.seats[0] + "\n"


def test_a_seat_on_the_bot_is_neither_reminded_nor_waited_for(tmp_path: Path) -> None:
    game = make_game(tmp_path, "coe-classic", pace="round")
    bot_seat, *players = game.seats
    set_bot(game.archive, GAME, bot_seat)
    tick(game.archive, game.data, clock=FixedClock(START))  # the deadline: 72 hours on
    lines = tick(game.archive, game.data, clock=FixedClock(START + timedelta(hours=60))).lines
    assert sorted(lines) == sorted(f"{GAME}: reminded {seat} (turn {n})" for n, seat in game.due() if seat in players)
    for seat in players:
        assert submit(game.archive, GAME, game.own_orders(seat), clock=FixedClock(START)).stored
    due = game.due()
    lines = tick(game.archive, game.data, clock=FixedClock(START + timedelta(hours=61))).lines
    # before the deadline: every seat's orders are in, the bot's too
    assert [line for line in lines if "resolved" in line] == [f"{GAME}: turn {n} ({seat}) resolved" for n, seat in due]
    assert game.seat(bot_seat) == (True, False, 0)


@pytest.mark.parametrize("ruleset_name", ["coe-1984", "empires-aw"])
def test_the_bot_answers_the_decisions_asked_of_its_seats(tmp_path: Path, ruleset_name: str) -> None:
    with fixed_secrets(f"bot-answers-{ruleset_name}"):  # its dice repeat: a game that asks within the ticks below
        game = make_game(tmp_path, ruleset_name, decisions="ask")
    for seat in game.seats:
        set_bot(game.archive, GAME, seat)

    def answered() -> list[DecisionRow]:
        with game.archive.session() as session:
            return [row for row in session.exec(select(DecisionRow)).all() if row.answer is not None]

    def tick_early() -> bool:
        """A tick an hour on: every seat's orders are in, so the step is resolved before its deadline, and the
        decisions it needs are asked (after the deadline they would take their defaults)."""
        game.moment += timedelta(hours=1)
        tick(game.archive, game.data, clock=FixedClock(game.moment))
        return bool(answered())

    for _ in range(80):
        if tick_early():
            break
    rows = answered()
    assert rows and all(row.answered is not None for row in rows)
    assert {row.seat for row in rows} <= set(game.seats)
    _, problems = verify(game.archive, GAME, game.data)
    assert problems == []


def test_pbem_adjudicate_orders_for_a_seat_on_the_bot_too(tmp_path: Path) -> None:
    game = make_game(tmp_path, "coe-classic")
    (number, seat), *_ = game.due()
    set_bot(game.archive, GAME, seat)
    done = adjudicate(game.archive, game.data, GAME, early=False, clock=FixedClock(START))  # not refused: all in
    assert [(row.number, row.seat) for row in done.turns] == [(number, seat)]
    assert game.order_sources(seat) == ["bot"]
    assert game.seat(seat) == (True, False, 0)


def test_in_round_pace_the_bot_orders_a_seats_first_open_step_alone(tmp_path: Path) -> None:
    """A seat of Conqueror's sealed plans step has its campaign step due in the same round too (round pace): like
    its player, the bot orders the first (games.expected_turn refuses orders for the later one), once."""
    game = make_game(tmp_path, "conqueror-er", pace="round")
    for seat in game.seats:
        set_bot(game.archive, GAME, seat)
    due = game.due()
    assert len(due) > len({seat for _, seat in due})  # a seat has two steps due
    for hours in (1, 2, 3):  # before the deadline: the later steps wait for it, as a player's would
        lines = tick(game.archive, game.data, clock=FixedClock(START + timedelta(hours=hours))).lines
        assert not [line for line in lines if "FAILED" in line]
    assert all(game.order_sources(seat) == ["bot"] for seat in game.seats)


def test_the_bots_stream_is_keyed_by_the_games_secret_seed() -> None:
    """Players know the game's name, the step and the seat: a stream drawn from those alone would let them run the
    bot ahead of the tick. Keyed by the secret seed, two games alike but for it draw differently; one seed, alike."""
    from adjudicator.archive.models import GameRow
    from adjudicator.services.bot_orders import bot_rng

    def draws(seed: str) -> list[float]:
        game = GameRow(name="rome1", ruleset="coe-classic", seed=seed, commitment="")
        stream = bot_rng(game, 3, "Macedonia")
        return [stream.random() for _ in range(3)]

    assert draws("11" * 32) == draws("11" * 32)
    assert draws("11" * 32) != draws("22" * 32)


def test_the_seat_on_the_bot_is_told_in_its_own_mail_how_to_take_it_back(tmp_path: Path) -> None:
    """Only the seat the bot runs reads, in its own report, that its orders take the seat back."""
    from adjudicator.services.bots import TAKE_BACK

    game = make_game(tmp_path, "coe-classic")
    seat = game.seats[0]
    set_bot(game.archive, GAME, seat)
    mailed = len(game.outbox())
    game.tick_until(lambda: "bot" in game.order_sources(seat))
    told = {to for to, body in game.outbox()[mailed:] if TAKE_BACK in body}
    assert told == {f"{seat.casefold()}@example.org"}


@pytest.mark.parametrize("ruleset_name", ["coe-classic", "conqueror-er"])
def test_the_public_report_names_the_turns_whose_orders_the_bot_gave_in_file_site_mail_and_report(
    tmp_path: Path, ruleset_name: str
) -> None:
    """The report.txt of a turn the bot ordered in, its page on the site, the report mails, `pbem report` and a
    file rewritten by `pbem repair` all say that the bot gave the seat's orders; other turns say nothing of it."""
    from adjudicator.services.repair import write_missing_files
    from adjudicator.services.reports import stored_report, write_game_site

    game = make_game(tmp_path, ruleset_name)
    seat = game.seats[0]
    set_bot(game.archive, GAME, seat)
    game.tick_until(lambda: "bot" in game.order_sources(seat))
    line = f"The orders of {seat} were given by the bot."
    with game.archive.session() as session:
        bot_turns = set(db.bot_seats(session, db.find_game(session, GAME), range(200)))
    (number,) = bot_turns
    report = game.data / "games" / GAME / f"turn-{number:04d}" / "report.txt"
    assert line in report.read_text(encoding="utf-8")
    earlier = game.data / "games" / GAME / f"turn-{number - 1:04d}" / "report.txt"
    assert "given by the bot" not in earlier.read_text(encoding="utf-8")
    assert any(line in body for to, body in game.outbox() if to == f"{game.seats[1].casefold()}@example.org")
    assert line in stored_report(game.archive, GAME, number, None)
    report.unlink()
    assert report in write_missing_files(game.archive, game.data, GAME)
    assert line in report.read_text(encoding="utf-8")
    write_game_site(game.archive, GAME, tmp_path / "site")
    assert line in (tmp_path / "site" / f"turn-{number:04d}.html").read_text(encoding="utf-8")
