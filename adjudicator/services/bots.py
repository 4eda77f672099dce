"""A bot for an empty seat: the ruleset's bot (engine/protocol.py Bot, `seat_orders`) orders for a seat whose player
has vanished, as the seat and through the same checks as the seat's own orders (services/orders.py store_order_set),
stored with the source "bot", so that `pbem verify` replays them like any orders. The moderator puts a seat on the
bot (`pbem gm bot`), or the game does after `bot_after` missed steps in a row; the seat's player sending orders again,
or a new player (`pbem gm replace`), takes it back. The reports say which seats the bot runs, and who took one back.

The seats' state is here; the bot's orders are stored by bot_orders.py."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adjudicator.render.i18n import N_

if TYPE_CHECKING:
    from sqlmodel import Session

    from adjudicator.archive import Archive
    from adjudicator.archive.lean_mail import LeanSession
    from adjudicator.archive.models import GameRow, SeatRow
    from adjudicator.rulesets import Ruleset


def set_bot(archive: Archive, name: str, seat_name: str, on: bool = True) -> bool:
    """`pbem gm bot`: the bot runs the seat from the next tick on (`on`), or stops running it (`--off`: the seat
    waits for its player's orders again). Returns False when there was nothing to change."""
    from adjudicator.archive import queries as db
    from adjudicator.errors import PbemError
    from adjudicator.services.game_reads import current_game

    with archive.session() as session:
        game, ruleset, _ = current_game(session, name, lock=True)
        if ruleset.bot is None:
            raise PbemError(f"{ruleset.name} has no bot to run a seat")
        if game.status != "running":
            raise PbemError(f"game {name} has ended")
        seat = db.find_seat(session, game, seat_name)
        if seat.run_by_bot == on:
            return False
        if on:
            seat.run_by_bot, seat.back_from_bot = True, False
        else:
            take_back(session, seat)
        session.add(seat)
    return True


def take_back(session: Session | LeanSession, seat: SeatRow) -> None:
    """The seat's player (or a new one) plays it again: the bot stops, and the next report says so. `session` may be
    a one-shot ingest's (archive/lean_mail.py), whose rows are saved through its queries."""
    from adjudicator.archive.lean_mail import queries_for

    if seat.run_by_bot:
        seat.run_by_bot, seat.back_from_bot = False, True
        queries_for(session).save(seat)


def after_missed(game: GameRow, ruleset: Ruleset, seat: SeatRow) -> None:
    """The game's NMR policy: `bot_after` missed steps in a row put the seat on the bot (0: never)."""
    if game.bot_after and seat.missed >= game.bot_after and not seat.run_by_bot and ruleset.bot is not None:
        seat.run_by_bot, seat.back_from_bot = True, False


TAKE_BACK = N_("The bot orders for your seat until you send orders again: the template at the end of this mail does.")
RUN_BY_BOT = N_("%(seat)s is run by the bot.")
BACK_FROM_BOT = N_("%(seat)s is played by its player again.")


def take_back_note(seat: SeatRow) -> str:
    """The line a seat the bot runs reads in its own report: how its player takes it back ("" for other seats)."""
    from adjudicator.render.i18n import gettext

    return gettext(seat.language, TAKE_BACK) + "\n" if seat.run_by_bot else ""


def bot_notes(seats: list[SeatRow], say: str) -> str:
    """The report's lines on the seats the bot runs and those their players took back ("" when none)."""
    from adjudicator.render.i18n import gettext

    lines = [gettext(say, RUN_BY_BOT, seat=s.seat) for s in seats if s.run_by_bot]
    lines += [gettext(say, BACK_FROM_BOT, seat=s.seat) for s in seats if s.back_from_bot]
    return "".join(line + "\n" for line in lines)
