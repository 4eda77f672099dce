"""Empires of the Ancient World in round pace (`pbem new --pace round`): the steps foreseen to the end of the game
round (coming_steps) are what the moderator's adjudication resolves at one deadline, and it stops where a seat's plan
runs out (EAW-12.2); played with the moderator's commands on the example data."""

from __future__ import annotations

from pathlib import Path

from tests.test_eaw_game_files import EXAMPLE, SEATS, adjudicate, due, pbem, submit


def test_EAW_12_2_round_pace_runs_the_round_at_one_deadline_and_stops_where_a_plan_ran_out(tmp_path: Path) -> None:
    data = tmp_path / "moderator"
    seats = [a for seat in SEATS for a in ("--seat", f"{seat}={seat}@example.org")]
    made = pbem("new", "e1", "--ruleset", "empires-aw", *seats, "--game-data", str(EXAMPLE), "--pace", "round",
                "--option", "action_rounds_first=4", "--data", str(data))  # fmt: skip
    assert made.exit_code == 0, made.output
    done = adjudicate(data)  # the placement (defaults), then round I's revolt in the same run
    assert "Turn 2 (red, blue, green) resolved" in done and "Turn 3 resolved" in done
    assert "due 4 red, 4 blue, 4 green" in due(data)
    submit(data, tmp_path, 4, "red", "RECRUIT best", "RECRUIT best")  # two actions of four
    for seat in ("blue", "green"):
        submit(data, tmp_path, 4, seat, "RECRUIT best", "RECRUIT best", "RECRUIT best", "RECRUIT best")
    done = pbem("adjudicate", "e1", "--data", str(data))  # every order is in: no need to wait for the deadline
    assert done.exit_code == 0, done.output
    waiting = due(data)  # red's third action (action round 3) waits for its mail; the others' steps ran
    assert "red;" in waiting and "missing orders: red;" in waiting
    turn = int(waiting.split("due ")[1].split()[0])
    assert 5 + 6 <= turn <= 4 + 9  # after the two action rounds its plan covered, within the third
    submit(data, tmp_path, turn, "red", "RECRUIT best", "RECRUIT best")
    done = pbem("adjudicate", "e1", "--data", str(data))
    assert done.exit_code == 0, done.output
    resolved = ", ".join(str(n) for n in range(turn, 18))
    assert f"reports of turn(s) {resolved} queued" in done.output  # to the round's end and round II's revolt
    assert "due 18 red, 18 blue, 18 green" in due(data)  # round II's plans: 4 + 12 actions + its revolt before
