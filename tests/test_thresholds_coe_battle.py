"""Conquest of the Empire land battles (rulesets/coe/battle.py) pinned where a mutation run found them unpinned:
each battle is played as a real turn with given dice (the helpers of tests/test_coe_classic_battles.py), and
what the players read of its end (decisions, retreat, pursuit, captures, conquest) is asserted whole, with the
rule each event cites. Macedonia attacks, Egyptus defends."""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator.rulesets.coe.turn import TurnResult
from tests.helpers import force, place, play
from tests.test_coe_classic_battles import (
    ATT,
    ATT_RETREATS,
    BLANK,
    CAV,
    DEF,
    INF,
    answer,
    contest,
    decisions,
    retreat_rule,
)

ENDING = ("decision", "retreat", "retreat_failed", "pursuit", "captured", "conquered", "battle_end")


def ending(result: TurnResult) -> list[tuple[str, str | None, dict[str, Any]]]:
    return [(e.kind, e.seat, e.data) for e in result.events if e.kind in ENDING]


def asked(seat: str, key: str, question: str, choice: str, source: str, rule: str) -> tuple[str, str, dict[str, Any]]:
    return ("decision", seat, {"key": key, "question": question, "choice": choice, "source": source, "rule": rule})


def test_C_6_16_C_6_17_a_retreat_with_one_cavalry_face_of_two_pursuers_loses_one_unit() -> None:
    state = contest(att={"generals": [1], "infantry": 2, "cavalry": 1}, dfn={"infantry": 2, "cavalry": 2})
    result = play(state, dice=[BLANK] * 3 + [BLANK] * 4 + [CAV, BLANK, BLANK, BLANK], answers=ATT_RETREATS)
    question = "continue the battle in THR or retreat (to %s)?"
    assert ending(result) == [
        asked(DEF, "battle.THR.1.retreat", question % "ASI, MOE", "continue", "default", "C-15.7"),
        asked(ATT, "battle.THR.1.retreat", question % "MAC, ASI, MOE", "retreat to MAC", "answer", "C-15.7"),
        ("retreat", ATT, {"area": "THR", "to": "MAC", "rule": "C-6.17"}),
        asked(
            DEF,
            "battle.THR.pursuit",
            "which retreating units in THR does your pursuit eliminate?",
            "catapult, cavalry, infantry",  # C-15.9's default
            "default",
            "C-15.9",
        ),
        (
            "pursuit",
            DEF,
            {"area": "THR", "dice": [CAV, BLANK, BLANK, BLANK], "hits": 1, "losses": "1 CAV", "rule": "C-6.16"},
        ),
        ("battle_end", ATT, {"area": "THR", "winner": DEF, "how": "retreat"}),
    ]
    assert force(result, "MAC", ATT).infantry == 5 + 2 and force(result, "MAC", ATT).cavalry == 0


def test_C_6_20_C_6_21_a_defender_with_nowhere_to_go_perishes_and_its_general_is_captured() -> None:
    state = contest(att={"generals": [1], "infantry": 3}, dfn={"generals": [1], "infantry": 2})
    for code in ("ASI", "MOE"):
        place(state, code, ATT, infantry=1)  # THR's other land neighbours hold Macedonian units (C-6.17)
    result = play(state, dice=[BLANK] * 3 + [BLANK] * 2, answers=answer(DEF, battle_THR_1_retreat="retreat"))
    question = "continue the battle in THR or retreat (to nowhere)?"
    captive = "kill Egyptus's captured general G1 or hold him for ransom?"
    assert ending(result) == [
        asked(DEF, "battle.THR.1.retreat", question, "retreat to nowhere (C-6.20)", "answer", "C-15.7"),
        ("retreat", DEF, {"area": "THR", "to": None, "rule": "C-6.17"}),
        ("retreat_failed", DEF, {"area": "THR", "rule": "C-6.20"}),
        asked(ATT, "captive.Egyptus.G1", captive, "ransom", "default", "C-15.11"),
        ("captured", ATT, {"owner": DEF, "leader": "G1", "area": "THR", "choice": "ransom", "rule": "C-6.20"}),
        ("conquered", ATT, {"area": "THR", "previous": DEF, "value": 5, "city": None, "rule": "C-6.21"}),
        ("battle_end", ATT, {"area": "THR", "winner": ATT, "how": "retreat"}),
    ]


def test_C_6_14_the_attacker_that_eliminates_the_defender_conquers() -> None:
    result = play(contest(att={"generals": [1], "infantry": 3}, dfn={"infantry": 1}), dice=[INF, BLANK, BLANK, BLANK])
    assert ending(result) == [
        ("battle_end", ATT, {"area": "THR", "winner": ATT, "how": "elimination"}),
        ("conquered", ATT, {"area": "THR", "previous": DEF, "value": 5, "city": None, "rule": "C-6.14"}),
    ]


def test_C_6_14_the_defender_that_eliminates_the_attacker_captures_its_leader() -> None:
    result = play(contest(att={"generals": [1], "infantry": 1}, dfn={"infantry": 3}), dice=[BLANK, INF, BLANK, BLANK])
    captive = "kill Macedonia's captured general G1 or hold him for ransom?"
    assert ending(result) == [
        ("battle_end", ATT, {"area": "THR", "winner": DEF, "how": "elimination"}),
        asked(DEF, "captive.Macedonia.G1", captive, "ransom", "default", "C-15.11"),
        ("captured", DEF, {"owner": ATT, "leader": "G1", "area": "THR", "choice": "ransom", "rule": "C-6.14"}),
    ]


# -- C-15.7: a standing RETREAT order at its threshold and one past it -----------------------------------------------
@pytest.mark.parametrize(
    ("rule", "caesar", "retreats"),
    [
        (retreat_rule("below_enemy"), False, False),  # 2 against 2: not below
        (retreat_rule("below_enemy"), False, True),  # 2 against 3
        (retreat_rule("caesar_and_units_below", 2), True, False),  # 2 units: not below 2
        (retreat_rule("caesar_and_units_below", 3), True, True),
    ],
)
def test_C_15_7_a_standing_retreat_holds_below_its_threshold_only(
    rule: dict[str, Any], caesar: bool, retreats: bool
) -> None:
    attackers = 3 if retreats and rule["condition"] == "below_enemy" else 2
    dfn: dict[str, Any] = {"caesar": 1, "infantry": 2} if caesar else {"infantry": 2}
    state = contest(att={"generals": [1], "infantry": attackers}, dfn=dfn)
    state.players[DEF].standing["retreat"] = [rule]
    result = play(state, dice=[BLANK] * attackers + [BLANK] * 2, answers=ATT_RETREATS)
    choice = "retreat to ASI" if retreats else "continue"
    assert decisions(result, "retreat")[0] == (DEF, "battle.THR.1.retreat", choice, "standing order")
