"""The bot's orders for the seats it runs (services/bots.py), stored at the tick as the seat's own would be, through
the same checks (services/orders.py store_order_set), with the source "bot": `pbem verify` replays them like any.

The bot plays from the position as the seat may know it (engine/protocol.py Bot.seat_orders), and its random stream is
keyed by the game's secret seed, the step and the seat: the same position gives the same orders."""

from __future__ import annotations

import hmac
import random
from typing import TYPE_CHECKING, Any

from adjudicator.archive import queries as db
from adjudicator.engine.decisions import Question
from adjudicator.orders import parse_orders
from adjudicator.services.orders import store_answers, store_order_set

if TYPE_CHECKING:
    from sqlmodel import Session

    from adjudicator.archive.models import GameRow, SeatRow
    from adjudicator.rulesets import Ruleset
    from adjudicator.services.clock import Clock


def order_for_bots(
    session: Session, game: GameRow, ruleset: Ruleset, state: Any, due: list[tuple[int, str]], *, clock: Clock
) -> tuple[list[tuple[int, str]], list[SeatRow] | None]:
    """Store the bot's orders for each seat of the `due` steps (step, seat) without orders that the bot runs, as the
    seat's own would be stored, with the source "bot". Returns the steps and seats still without orders, and the
    game's seats when they were read (only when orders are missing: a step with every seat's orders reads none)."""
    missing = [(number, seat) for number, seat in due if db.current_orders(session, game, number, seat) is None]
    if not missing:
        return missing, None
    seats = db.game_seats(session, game)
    bot = ruleset.bot
    if bot is None:
        return missing, seats
    run = {seat.seat: seat for seat in seats if seat.run_by_bot}
    first: dict[str, int] = {}  # a seat orders its first open step alone (games.expected_turn), as a player does
    for number, seat_name in due:
        first.setdefault(seat_name, number)
    ordered = [(number, name) for number, name in missing if name in run and first[name] == number]
    for number, seat_name in ordered:
        header = f"GAME {game.name} TURN {number} PLAYER {seat_name} PASSWORD -"
        text = bot.seat_orders(ruleset, state, seat_name, header, bot_rng(game, number, seat_name))
        orders = parse_orders(text, ruleset)
        store_order_set(session, game, ruleset, state, orders, run[seat_name], "bot", clock=clock, with_odds=False)
    return [step for step in missing if step not in ordered], seats


def answer_for_bots(session: Session, game: GameRow, ruleset: Ruleset, state: Any, *, clock: Clock) -> None:
    """In a game that asks for decisions, the bot answers those asked of the seats it runs for the step being
    resolved, as the seat's ANSWER lines would be stored (the seat would wait until the defaults apply otherwise)."""
    bot = ruleset.bot
    if bot is None or game.decisions != "ask":
        return
    number = ruleset.steps_done(state) + 1
    asked = [d for d in db.decisions(session, game, number) if d.answer is None]
    if not asked:
        return
    run = {seat.seat for seat in db.game_seats(session, game) if seat.run_by_bot}
    for seat in sorted({d.seat for d in asked} & run):
        questions = [Question(d.seat, d.key, d.question, d.default, d.rule) for d in asked if d.seat == seat]
        header = f"GAME {game.name} TURN {number} PLAYER {seat} PASSWORD -"
        text = bot.answers(ruleset, state, seat, header, questions, bot_rng(game, number, seat))
        store_answers(session, game, state, parse_orders(text, ruleset), seat, clock=clock)


def bot_rng(game: GameRow, number: int, seat: str) -> random.Random:
    """The bot's random stream for a seat's step, keyed by the game's secret seed: the other players cannot run the
    bot ahead of it to foresee its orders, and once the seed is revealed at the game's end anyone can check that the
    bot played as it would. (Verify needs no stream: it replays the archived orders.)"""
    return random.Random(hmac.digest(bytes.fromhex(game.seed), f"pbem-bot:{number}:{seat}".encode(), "sha256"))
