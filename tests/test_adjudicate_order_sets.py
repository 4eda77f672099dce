"""adjudicate as self-play calls it: the seats' order sets stored as `submit` takes them and the step resolved in one
transaction (`order_sets`), a refused set storing nothing at all; and without `repair`, no look for files of earlier
turns. A real SQLite archive and real files."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from adjudicator.archive import Archive
from adjudicator.archive import queries as db
from adjudicator.errors import PbemError
from adjudicator.rulesets import load_ruleset
from adjudicator.services.adjudication import adjudicate
from adjudicator.services.game_reads import current_game, due_turns
from adjudicator.services.games import NewGame, NewGameOptions, new_game
from adjudicator.services.selfplay import header

SEATS = ["Egyptus", "Hispania", "Macedonia"]


def made(folder: Path) -> tuple[Archive, NewGame]:
    archive = Archive.in_folder(folder)
    seats = {seat: f"{seat.casefold()}@example.invalid" for seat in SEATS}
    return archive, new_game(archive, folder, NewGameOptions("g", "coe-classic", seats))


def bot_orders(archive: Archive, passwords: dict[str, str]) -> list[str]:
    """The bot's order set of each due seat, as self-play writes them."""
    ruleset = load_ruleset("coe-classic")
    with archive.session() as session:
        state = current_game(session, "g")[2]
    assert ruleset.bot is not None
    return [
        ruleset.bot.orders(ruleset, state, seat, header("g", number, seat, passwords[seat]), random.Random(7))
        for number, seat in due_turns(ruleset, state, "turn")
    ]


def test_the_order_sets_are_stored_and_the_step_resolved_from_them(tmp_path: Path) -> None:
    archive, game = made(tmp_path)
    texts = bot_orders(archive, game.passwords)
    done = adjudicate(archive, tmp_path, "g", order_sets=texts)
    assert [row.number for row in done.turns] == [1]
    with archive.session() as session:
        row = db.get_turn(session, db.find_game(session, "g"), 1)
        stored = db.order_texts(session, db.find_game(session, "g"), 1, row.seat or "")
    assert len(stored) == 1 and game.passwords[row.seat or ""] not in stored[0]  # stored as submit stores it
    assert stored[0].splitlines()[1:] == texts[0].splitlines()[1:]
    assert (game.folder / "turn-0001" / "report.txt").is_file()


def test_a_refused_order_set_stores_nothing_and_resolves_nothing(tmp_path: Path) -> None:
    archive, game = made(tmp_path)
    texts = bot_orders(archive, {seat: "wrong-password" for seat in SEATS})
    before = archive.dump()
    with pytest.raises(PbemError, match="wrong password"):
        adjudicate(archive, tmp_path, "g", order_sets=texts)
    assert archive.dump() == before
    assert not (game.folder / "turn-0001").exists()


def test_without_repair_the_files_of_earlier_turns_are_not_looked_for(tmp_path: Path) -> None:
    archive, game = made(tmp_path)
    adjudicate(archive, tmp_path, "g", order_sets=bot_orders(archive, game.passwords))
    lost = game.folder / "turn-0001" / "report.txt"
    lost.unlink()
    adjudicate(archive, tmp_path, "g", repair=False, order_sets=bot_orders(archive, game.passwords))
    assert not lost.exists()
    done = adjudicate(archive, tmp_path, "g", order_sets=bot_orders(archive, game.passwords))
    assert lost in done.repaired and lost.is_file()
