"""Empires of the Ancient World played through the moderator's commands on the example data (short rounds: 4 and 3
action rounds, EAW-4.3): `pbem new`, orders stored with `pbem submit`, `pbem adjudicate` at each deadline, through
round II's scoring (the end is played in-process, test_eaw_game.py); `pbem verify` replays it, and `pbem resolve`
reproduces its stored steps from files alone (the deal, the sealed placement and plans, the steps nobody orders in, a
step that waits for a seat whose plan ran out).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from adjudicator.cli import app
from tests.test_conqueror_resolve_files import StoredStep, step_files, stored_steps

EXAMPLE = Path(__file__).resolve().parent.parent / "games/empires-aw/example-data"
SEATS = ("red", "blue", "green")


def pbem(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


@dataclass(frozen=True)
class Played:
    data: Path
    steps: tuple[StoredStep, ...]
    outputs: list[str]  # what each adjudication printed


def submit(data: Path, folder: Path, turn: int, seat: str, *lines: str) -> Result:
    path = folder / f"{turn}-{seat}.txt"
    path.write_text("\n".join([f"GAME e1 TURN {turn} PLAYER {seat} PASSWORD x", *lines]) + "\n", encoding="utf-8")
    done = pbem("submit", "e1", str(path), "--for", seat, "--data", str(data))
    assert done.exit_code == 0, done.output
    return done


def adjudicate(data: Path) -> str:
    done = pbem("adjudicate", "e1", "--now", "--data", str(data))
    assert done.exit_code == 0, done.output
    return done.output


def due(data: Path) -> str:
    return pbem("games", "--data", str(data)).output


def public(data: Path) -> dict[str, Any]:
    """The public part of the game's latest position (its newest turn folder's snapshot.json)."""
    newest = max((data / "games" / "e1").glob("turn-*"))
    part: dict[str, Any] = json.loads((newest / "snapshot.json").read_text(encoding="utf-8"))["public"]
    return part


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    base = tmp_path_factory.mktemp("eaw-files")
    data = base / "moderator"
    seats = [a for seat in SEATS for a in ("--seat", f"{seat}={seat}@example.org")]
    made = pbem("new", "e1", "--ruleset", "empires-aw", *seats, "--game-data", str(EXAMPLE),
                "--option", "action_rounds_first=4", "--data", str(data))  # fmt: skip
    assert made.exit_code == 0, made.output
    assert "due 2 red, 2 blue, 2 green" in due(data)  # the deal is made with the game: the placement is due
    submit(data, base, 2, "red", "START NLR, BRE, COR", "PLACE LVT, KYR", "FORT NLR")
    outputs = [adjudicate(data)]  # blue and green: the defaults (EAW-12.1, 12.13, 12.14)
    assert "due 4 red, 4 blue, 4 green" in due(data)  # revolt and income ran at once: the plans are due
    submit(data, base, 4, "red", "RECRUIT best", "RECRUIT best", "DEFEND SIEGE")
    submit(data, base, 4, "green", "AMBUSH YES")  # standing orders and no action: its first action waits
    outputs.append(adjudicate(data))
    waiting = due(data)
    assert "green;" in waiting and "missing orders: green" in waiting
    turn = int(waiting.split("due ")[1].split()[0])
    submit(data, base, turn, "green", "RECRUIT best", "RECRUIT best")  # its first line now, the rest its plan
    while public(data)["round"] < 3:  # to round II's scoring: the end is played in-process (test_eaw_game.py)
        outputs.append(adjudicate(data))  # a seat whose plan ran out sends nothing: the default at the deadline
    return Played(data, stored_steps(data, "e1"), outputs)


def test_EAW_4_4_a_game_by_the_moderators_commands_through_round_II_scoring_and_it_verifies(played: Played) -> None:
    last = json.loads(played.steps[-1].after)
    assert last["public"]["round"] == 3 and last["public"]["phase"] in ("revolt", "plans")
    assert [len(s["scores"]) for s in last["public"]["players"].values()] == [1, 1, 1]  # round II's (EAW-10.2)
    checked = pbem("verify", "e1", "--data", str(played.data))
    assert checked.exit_code == 0 and ", 0 problems" in checked.output, checked.output


def test_EAW_12_2_the_game_waits_only_for_a_seat_that_sent_a_plan_and_ran_out(played: Played) -> None:
    alone = [(s.number, s.seats, bool(next(iter(s.orders.values())))) for s in played.steps if len(s.seats) == 1]
    assert {seats for _, seats, _ in alone} == {("red",), ("green",)}  # blue sent no plan: it never stops the game
    assert any(seats == ("green",) and sent for _, seats, sent in alone)  # green's mail for its waiting step
    red = [number for number, seats, _ in alone if seats == ("red",)]
    assert red  # red's plan of two lines ran out in round I


def test_the_stored_steps_are_reproduced_by_pbem_resolve_from_files(played: Played, tmp_path: Path) -> None:
    kinds: set[str] = set()
    chosen = []  # the first step of each phase, every step of one seat, and the last (to keep the test short)
    for step in played.steps:
        phase = json.loads(step.before)["public"]["phase"]
        if phase not in kinds or len(step.seats) == 1 or step is played.steps[-1]:
            chosen.append(step)
            kinds.add(phase)
    for step in chosen:
        out = tmp_path / f"out-{step.number}"
        done = pbem("resolve", *step_files(step, tmp_path / f"in-{step.number}"), "--out", str(out),
                    "--game-data", str(EXAMPLE))  # fmt: skip
        assert done.exit_code == 0, f"step {step.number}: {done.output}"
        assert (out / "snapshot.json").read_text(encoding="utf-8") == step.after, f"step {step.number} differs"
    assert kinds == {"setup", "placement", "revolt", "plans", "action", "scoring"}  # the deal too
