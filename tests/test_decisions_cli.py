"""Decisions outside one's turn through the CLI (C-15): ask-and-wait games, `pbem answer`, defaults."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

from tests.conftest import SEATS, Pbem

Write = Callable[[str, str | bytes], Path]


def contested_position(pbem: Pbem, write: Write) -> Path:
    """Turn 0 of a 3-seat game, but Macedonia's G1 with 4 INF 2 CAV stands in Moesia, next to Egyptus's
    G1 with 3 INF and 2 CAV in Thracia: Macedonia attacks with ATTACK."""
    pbem.new_game(name="template")
    snapshot = json.loads((pbem.data / "games/template/turn-0000/snapshot.json").read_text())
    areas = snapshot["areas"]
    areas["MAC"]["units"]["Macedonia"]["generals"] = [2, 3, 4]
    areas["EGY"]["units"]["Egyptus"]["generals"] = [2, 3, 4]
    areas["MOE"] = {
        "owner": "Macedonia",
        "city": None,
        "roads": [],
        "units": {
            "Macedonia": {"caesar": 0, "generals": [1], "infantry": 4, "cavalry": 2, "catapult": 0, "galleys": []}
        },
    }
    areas["THR"] = {
        "owner": "Egyptus",
        "city": None,
        "roads": [],
        "units": {"Egyptus": {"caesar": 0, "generals": [1], "infantry": 3, "cavalry": 2, "catapult": 0, "galleys": []}},
    }
    areas["MAC"]["units"]["Macedonia"]["infantry"] = 1
    areas["EGY"]["units"]["Egyptus"]["infantry"] = 2
    snapshot["players"]["Egyptus"]["tribute"] = 20
    snapshot["players"]["Macedonia"]["tribute"] = 20
    return write("contested.json", json.dumps(snapshot))


def new_from(pbem: Pbem, position: Path, *options: str) -> None:
    seats = [a for seat, mail in SEATS.items() for a in ("--seat", f"{seat}={mail}")]
    result = pbem("new", "rome1", "--from-snapshot", str(position), *seats, *options)
    assert result.exit_code == 0, result.output
    pbem.passwords = {
        line.split()[0]: line.split()[1]
        for line in result.output.splitlines()
        if len(line.split()) == 2 and line.split()[0] in SEATS
    }
    attack = pbem.orders("Macedonia", 1, *ATTACK)
    assert pbem("submit", "rome1", str(attack)).exit_code == 0


ATTACK = ("MOVE G1 WITH 4 INF 2 CAV: MOE -> THR",)


def test_C_15_ask_and_wait_until_answered_then_resolve_with_the_answers(pbem: Pbem, write: Write) -> None:
    new_from(pbem, contested_position(pbem, write), "--decisions", "ask")
    answered, seats = 0, set()
    for _ in range(30):
        result = pbem("adjudicate", "rome1")
        assert result.exit_code == 0, result.output
        waiting = re.findall(r"Waiting for (\w+): (\S+) \(.*; default (.*)\)", result.output)
        if not waiting:
            break
        assert not (pbem.data / "games/rome1/turn-0001").exists()  # the archive never holds half a turn
        notice = pbem.data / f"games/rome1/outbox/decisions-turn-0001-{waiting[0][0]}.txt"
        assert f"ANSWER {waiting[0][1]}" in notice.read_text()
        for seat, key, default in waiting:
            header = f"GAME rome1 TURN 1 PLAYER {seat} PASSWORD {pbem.passwords[seat]}"
            answer = pbem("answer", "rome1", str(write(f"a{answered}.txt", f"{header}\nANSWER {key}: {default}\n")))
            assert answer.exit_code == 0 and f"stored   {key}" in answer.output, answer.output
            answered += 1
            seats.add(seat)
    assert "Turn 1 (Macedonia) resolved" in result.output
    assert answered > 0
    report = (pbem.data / "games/rome1/turn-0001/report.txt").read_text()
    assert "Land battle in THR" in report and "(answer, C-15." not in report  # a decision is the seat's own
    for seat in seats:
        assert "(answer, C-15." in (pbem.data / f"games/rome1/turn-0001/report-{seat}.txt").read_text()
    verify = pbem("verify", "rome1")
    assert verify.exit_code == 0 and "0 problems" in verify.output, verify.output


def test_C_15_ask_mode_defaults_when_the_moderator_says_so(pbem: Pbem, write: Write) -> None:
    new_from(pbem, contested_position(pbem, write), "--decisions", "ask")
    first = pbem("adjudicate", "rome1")
    assert "Waiting for" in first.output
    result = pbem("adjudicate", "rome1", "--defaults")
    assert result.exit_code == 0 and "Turn 1 (Macedonia) resolved" in result.output
    reports = "".join((pbem.data / f"games/rome1/turn-0001/report-{s}.txt").read_text() for s in SEATS)
    assert "(default, C-15." in reports and "(answer," not in reports
    assert pbem("verify", "rome1").exit_code == 0


def test_C_15_default_mode_resolves_at_once_and_names_the_sources(pbem: Pbem, write: Write) -> None:
    new_from(pbem, contested_position(pbem, write))
    standing = pbem.orders("Macedonia", 1, *ATTACK, "LOSSES CAV, INF", "CAPTIVES KILL")
    assert pbem("submit", "rome1", str(standing)).exit_code == 0
    result = pbem("adjudicate", "rome1")
    assert result.exit_code == 0 and "Waiting" not in result.output
    report = (pbem.data / "games/rome1/turn-0001/report.txt").read_text()
    assert "Land battle in THR" in report and "Round 1:" in report
    reports = "".join((pbem.data / f"games/rome1/turn-0001/report-{s}.txt").read_text() for s in SEATS)
    assert re.search(r"decides \((default|standing order), C-15\.\d+\)", reports)


def test_answers_are_refused_for_the_wrong_turn_or_an_unknown_key(pbem: Pbem, write: Write) -> None:
    new_from(pbem, contested_position(pbem, write), "--decisions", "ask")
    pbem("adjudicate", "rome1")
    header = f"GAME rome1 TURN 1 PLAYER Egyptus PASSWORD {pbem.passwords['Egyptus']}"
    wrong_key = pbem("answer", "rome1", str(write("k.txt", f"{header}\nANSWER battle.ITA.1.losses: inf\n")))
    assert wrong_key.exit_code == 1 and "no decision 'battle.ITA.1.losses' is asked of Egyptus" in wrong_key.output
    wrong_turn = header.replace("TURN 1", "TURN 2")
    result = pbem("answer", "rome1", str(write("t.txt", f"{wrong_turn}\nANSWER battle.THR.1.losses: inf\n")))
    assert result.exit_code == 1 and "turn being resolved, turn 1" in result.output
    forged = pbem(
        "answer",
        "rome1",
        str(write("f.txt", "GAME rome1 TURN 1 PLAYER Egyptus PASSWORD x\nANSWER battle.THR.1.losses: inf\n")),
    )
    assert forged.exit_code == 1 and "wrong password" in forged.output


def crowded_position(pbem: Pbem, write: Write) -> Path:
    """As contested_position, but both armies are larger than their battle legions, so that every land-battle
    decision is asked: Macedonia's G1 and G2 with 8 INF 2 CAV in Moesia (a legion of 7) against Egyptus's G1
    with 6 INF 2 CAV in Thracia (a legion of 6)."""
    path = contested_position(pbem, write)
    snapshot = json.loads(path.read_text())
    areas = snapshot["areas"]
    areas["MAC"]["units"]["Macedonia"]["generals"] = [3, 4]
    areas["MOE"]["units"]["Macedonia"].update(generals=[1, 2], infantry=8, cavalry=2)
    areas["THR"]["units"]["Egyptus"].update(infantry=6, cavalry=2)
    return write("crowded.json", json.dumps(snapshot))


def test_C_15_every_ready_made_answer_line_of_a_decision_notice_is_accepted_as_it_stands(
    pbem: Pbem, write: Write
) -> None:
    """The notice's ANSWER lines (read from the notice file the tool writes) fed back unchanged are
    all used (C-6.5, C-6.9, C-15.5 to C-15.11): none is refused when the turn is resolved."""
    seats = [a for seat, mail in SEATS.items() for a in ("--seat", f"{seat}={mail}")]
    result = pbem("new", "rome1", "--from-snapshot", str(crowded_position(pbem, write)), *seats, "--decisions", "ask")
    assert result.exit_code == 0, result.output
    pbem.passwords = {
        line.split()[0]: line.split()[1]
        for line in result.output.splitlines()
        if len(line.split()) == 2 and line.split()[0] in SEATS
    }
    attack = pbem.orders("Macedonia", 1, "MOVE G1 G2 WITH 8 INF 2 CAV: MOE -> THR")
    assert pbem("submit", "rome1", str(attack)).exit_code == 0
    sent: set[tuple[str, str]] = set()
    for _ in range(40):
        result = pbem("adjudicate", "rome1")
        assert result.exit_code == 0, result.output
        asked = sorted(set(re.findall(r"Waiting for (\w+):", result.output)))
        if not asked:
            break
        for seat in asked:
            notice = (pbem.data / f"games/rome1/outbox/decisions-turn-0001-{seat}.txt").read_text()
            lines = [
                f"ANSWER {key}: {value}"
                for key, value in re.findall(r"^\s*ANSWER (\S+): (.+?)\s*$", notice, re.MULTILINE)
                if (seat, key) not in sent
            ]
            assert lines, notice
            header = f"GAME rome1 TURN 1 PLAYER {seat} PASSWORD {pbem.passwords[seat]}"
            answer = pbem("answer", "rome1", str(write(f"answer-{len(sent)}.txt", "\n".join([header, *lines]))))
            assert answer.exit_code == 0, answer.output
            sent |= {(seat, line.split()[1].rstrip(":")) for line in lines}
    assert "Turn 1 (Macedonia) resolved" in result.output
    assert {key.rsplit(".", 1)[1] for _, key in sent} >= {"legion", "losses", "retreat"}
    # each seat's decisions, with their source, are in its private report
    private = "".join(
        (pbem.data / f"games/rome1/turn-0001/report-{seat}.txt").read_text() for seat in {seat for seat, _ in sent}
    )
    assert "is not usable" not in private
    assert private.count("(answer, C-15.") >= len(sent)
    assert pbem("verify", "rome1").exit_code == 0


def test_C_15_orders_of_a_turn_waiting_for_decisions_cannot_be_replaced(pbem: Pbem, write: Write) -> None:
    """The dice are keyed by the turn's orders: replacing them after a notice showed rolls would roll again."""
    new_from(pbem, contested_position(pbem, write), "--decisions", "ask")
    assert "Waiting for" in pbem("adjudicate", "rome1").output
    before = pbem.dump()
    again = pbem("submit", "rome1", str(pbem.orders("Macedonia", 1, *ATTACK, "# the same orders again")))
    assert again.exit_code == 1 and "waiting for decisions" in again.output
    assert "only ANSWER lines are taken (C-15)" in again.output
    assert pbem.dump() == before
