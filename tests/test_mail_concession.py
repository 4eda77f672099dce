"""Ending a game by concession by mail (C-14.2, O-14.15): every other player still in the game mails
`CONCEDE TO <seat>` in his own player-turn, each receipt accepts it, and the player-turn that completes the
concessions ends the game: the report mails name the winner, the game is over, and no turn is due after it.
The rulesets of Conqueror and Empires have no vote to end a game: their games end by their victory rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.archive import Archive
from adjudicator.services.adjudication import adjudicate
from adjudicator.services.game_reads import current_game, due_turns
from adjudicator.services.games import NewGameOptions, new_game
from adjudicator.services.mailbox import ingest
from tests.conftest import SEATS
from tests.test_mail_commands import last_id, orders, queued

WINNER = "Macedonia"


def due(archive: Archive) -> tuple[int, str]:
    with archive.session() as session:
        game, ruleset, state = current_game(session, "rome1")
        return due_turns(ruleset, state, game.pace)[0]


@pytest.mark.parametrize("edition", ["coe-classic", "coe-1984"])
def test_C_14_2_O_14_15_every_other_player_concedes_by_mail_and_the_game_ends(
    tmp_path: Path, archive: Archive, edition: str
) -> None:
    passwords = new_game(archive, tmp_path, NewGameOptions("rome1", edition, SEATS)).passwords
    conceded: list[str] = []
    while len(conceded) < len(SEATS) - 1:
        number, seat = due(archive)
        if seat != WINNER:
            mark = last_id(archive)
            mail = orders(seat, passwords[seat], f"CONCEDE TO {WINNER}", turn=number, mid=f"{number}")
            assert ingest(archive, mail).text == "orders stored"
            (receipt,) = [m for m in queued(archive, mark) if m.to == SEATS[seat]]
            assert f"CONCEDE TO {WINNER}" in receipt.body and "1 accepted, 0 rejected" in receipt.body
            conceded.append(seat)
        mark = last_id(archive)
        adjudicate(archive, tmp_path, "rome1")
        reports = queued(archive, mark)
    assert reports and all(f"{WINNER} wins the game" in m.body for m in reports if m.to in SEATS.values())
    with archive.session() as session:
        game, ruleset, state = current_game(session, "rome1")
        assert game.status == "ended" and ruleset.due(state) is None


def test_C_14_2_one_concession_short_the_game_goes_on(tmp_path: Path, archive: Archive) -> None:
    passwords = new_game(archive, tmp_path, NewGameOptions("rome1", "coe-classic", SEATS)).passwords
    number, seat = due(archive)
    while seat == WINNER:
        adjudicate(archive, tmp_path, "rome1")
        number, seat = due(archive)
    assert ingest(archive, orders(seat, passwords[seat], f"CONCEDE TO {WINNER}", turn=number)).text == "orders stored"
    adjudicate(archive, tmp_path, "rome1")
    with archive.session() as session:
        game, ruleset, state = current_game(session, "rome1")
        assert game.status == "running" and ruleset.due(state) is not None
