"""`pbem new` builds one options value (NewGameOptions) from its command-line options and hands it to the games
service, which takes it whole: the game the command makes is the game the service makes from the same options."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import select
from typer.testing import CliRunner

from adjudicator.archive import Archive
from adjudicator.archive.models import GameRow, SeatRow
from adjudicator.cli import app
from adjudicator.services.games import NewGameOptions, new_game

SEATS = {"Macedonia": "mac@example.org", "Egyptus": "egy@example.org", "Hispania": "his@example.org"}
# what differs between two games made alike: their name, keys, times and the rows' ids
OWN = {
    "id",
    "game_id",
    "name",
    "seed",
    "commitment",
    "checkpoints",
    "chain_head",
    "created",
    "deadline",
    "password_hash",
}


def stored(archive: Archive, name: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The game's row and its seats' rows, without what every game has of its own."""
    with archive.session() as session:
        game = session.exec(select(GameRow).where(GameRow.name == name)).one()
        seats = session.exec(select(SeatRow).where(SeatRow.game_id == game.id).order_by(SeatRow.seat)).all()
        strip = lambda row: {k: v for k, v in row.model_dump().items() if k not in OWN}  # noqa: E731
        return strip(game), [strip(seat) for seat in seats]


def test_pbem_new_makes_the_game_the_service_makes_from_the_same_options(tmp_path: Path) -> None:
    data = tmp_path / "data"
    seats = [a for seat, mail in SEATS.items() for a in ("--seat", f"{seat}={mail}")]
    given = [
        *("--pace", "round", "--decisions", "ask", "--decision-hours", "12", "--moderator", "gm@example.org"),
        *("--turn-hours", "48", "--reminder-hours", "6", "--no-sender-check", "--anonymous-press"),
        *("--nmr-alert", "3", "--observers", "closed", "--language", "Egyptus=de", "--language", "Hispania=Italiano"),
        *("--timezone", "Egyptus=Europe/Berlin"),
    ]
    result = CliRunner().invoke(app, ["new", "bycli", *seats, *given, "--data", str(data)])
    assert result.exit_code == 0, result.output
    archive = Archive.in_folder(data)
    options = NewGameOptions(
        name="byservice",
        ruleset="coe-classic",
        seats=SEATS,
        pace="round",
        decisions="ask",
        decision_hours=12,
        mail={
            "moderator": "gm@example.org",
            "turn_hours": 48,
            "reminder_hours": 6,
            "check_sender": False,
            "anonymous_press": True,
            "nmr_alert": 3,
            "observers": "closed",
        },
        languages={"Egyptus": "de", "Hispania": "Italiano"},
        timezones={"Egyptus": "Europe/Berlin"},
    )
    new_game(archive, data, options)
    by_cli, by_service = stored(archive, "bycli"), stored(archive, "byservice")
    assert by_cli == by_service
    game, seat_rows = by_cli
    assert (game["pace"], game["decisions"], game["decision_hours"], game["turn_hours"]) == ("round", "ask", 12, 48)
    assert (game["check_sender"], game["anonymous_press"], game["observers"]) == (False, True, "closed")
    assert {s["seat"]: (s["language"], s["timezone"]) for s in seat_rows} == {
        "Egyptus": ("de", "Europe/Berlin"),
        "Hispania": ("it", ""),
        "Macedonia": ("en", ""),
    }


def test_new_game_takes_one_frozen_options_value_and_no_positional_settings(tmp_path: Path) -> None:
    archive = Archive.in_folder(tmp_path)
    options = NewGameOptions("rome1", "coe-classic", SEATS)
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.pace = "round"  # type: ignore[misc]
    with pytest.raises(TypeError):
        new_game(archive, tmp_path, "rome1", "coe-classic", SEATS)  # type: ignore[call-arg]
    made = new_game(archive, tmp_path, dataclasses.replace(options, pace="round"))
    assert made.game == "rome1" and set(made.passwords) == set(SEATS)
    assert stored(archive, "rome1")[0]["pace"] == "round"
