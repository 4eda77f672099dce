"""The short cuts taken for speed give what the long ways gave: turn keys from the checkpoints stored
with a game, report mails with the texts of the turn's files, a repair that reads only the turns it writes."""

from __future__ import annotations

import json
from pathlib import Path

from adjudicator.engine.chance import chain_checkpoints, turn_key
from adjudicator.services.game_reads import checkpoints_text
from tests.conftest import SEATS, Pbem, sent_map


def game_row(pbem: Pbem, name: str = "rome1") -> tuple[str, str, str]:
    """seed, commitment, checkpoints of a game."""
    ((seed, commitment, checkpoints),) = pbem.sql(
        f"select seed, commitment, checkpoints from game where name = '{name}'"
    )
    return str(seed), str(commitment), str(checkpoints)


def stored_key(pbem: Pbem, number: int, name: str = "rome1") -> str:
    ((key,),) = pbem.sql(
        f"select turn_key from turn where number = {number} and game_id = (select id from game where name = '{name}')"
    )
    return str(key)


def play_turn(pbem: Pbem, seat: str, number: int, *lines: str) -> None:
    assert pbem("submit", "rome1", str(pbem.orders(seat, number, *lines))).exit_code == 0
    result = pbem("adjudicate", "rome1")
    assert result.exit_code == 0, result.output


def test_a_new_game_keeps_its_checkpoints_secret_and_its_turn_keys_are_those_of_the_walk_from_the_seed(
    pbem: Pbem,
) -> None:
    pbem.new_game()
    seed, commitment, checkpoints = game_row(pbem)
    stored = json.loads(checkpoints)
    assert stored["0"] == commitment  # the chain's end is the published commitment
    assert len(stored) == 100  # turns 0, 100, ..., 9900
    play_turn(pbem, "Macedonia", 1, "BUY 1 INF")
    assert stored_key(pbem, 1) == turn_key(bytes.fromhex(seed), 1).hex()
    result = pbem("verify", "rome1")
    assert result.exit_code == 0, result.output
    # a checkpoint reveals every key before its turn: no file written for the game shows one
    secrets = [key for turn, key in stored.items() if turn != "0"]
    for path in (pbem.data / "games").rglob("*"):
        if path.is_file():
            text = path.read_text(encoding="utf-8", errors="replace")
            assert not any(key in text for key in secrets), path


def test_a_game_without_checkpoints_or_with_another_games_gets_its_own_at_its_first_adjudication(pbem: Pbem) -> None:
    pbem.new_game()
    seed, _, _ = game_row(pbem)
    pbem.sql("update game set checkpoints = '' where name = 'rome1'")  # an archive made before they were kept
    play_turn(pbem, "Macedonia", 1, "BUY 1 INF")
    assert stored_key(pbem, 1) == turn_key(bytes.fromhex(seed), 1).hex()
    assert json.loads(game_row(pbem)[2])["0"] == game_row(pbem)[1]
    # a row copied with another game's checkpoints: they do not end in this game's commitment, so they are not used
    copied = checkpoints_text(chain_checkpoints(bytes(32)))
    pbem.sql(f"update game set checkpoints = '{copied}' where name = 'rome1'")
    play_turn(pbem, "Egyptus", 2, "BUY 1 INF")
    assert stored_key(pbem, 2) == turn_key(bytes.fromhex(seed), 2).hex()
    assert json.loads(game_row(pbem)[2])["0"] == game_row(pbem)[1]
    result = pbem("verify", "rome1")
    assert result.exit_code == 0, result.output


def test_the_report_mail_of_a_tick_holds_the_texts_of_the_turns_files(pbem: Pbem) -> None:
    pbem.new_game()
    assert pbem("submit", "rome1", str(pbem.orders("Macedonia", 1, "BUY 1 INF"))).exit_code == 0
    result = pbem("tick")  # every due order set is in: the turn is resolved, its files written, its mails queued
    assert result.exit_code == 0, result.output
    assert "rome1: turn 1 (Macedonia) resolved" in result.output
    turn = pbem.data / "games/rome1/turn-0001"
    public = (turn / "report.txt").read_text(encoding="utf-8")
    for seat, address in SEATS.items():
        ((body,),) = pbem.sql(f"select body from outbox where \"to\" = '{address}' and subject like '%Report%'")
        private = (turn / f"report-{seat}.txt").read_text(encoding="utf-8")
        assert str(body).startswith(public + "\n" + private), seat
    reports = [mail for mail in pbem.sent() if "Report" in mail["Subject"]]
    assert [mail["To"] for mail in reports] == list(SEATS.values())
    assert all(sent_map(mail) == (turn / "map.svg").read_text(encoding="utf-8") for mail in reports)


def test_repair_writes_a_lacking_turns_files_as_they_were_from_the_turns_it_reads(pbem: Pbem) -> None:
    pbem.new_game()
    play_turn(pbem, "Macedonia", 1, "MOVE G1 WITH 2 INF: MAC -> THR")
    play_turn(pbem, "Egyptus", 2, "BUY 1 INF")
    play_turn(pbem, "Hispania", 3, "BUY 1 INF")
    game = pbem.data / "games/rome1"
    before = {path: path.read_bytes() for path in sorted(game.glob("turn-000[23]/*"))}
    for path in [*game.glob("turn-0002/report*"), game / "turn-0003/map.svg"]:
        path.unlink()
    result = pbem("repair", "rome1")
    assert result.exit_code == 0, result.output
    assert {path: path.read_bytes() for path in sorted(game.glob("turn-000[23]/*"))} == before
    assert {Path(p).name for p in result.output.split()} >= {"report.txt", "map.svg"}
