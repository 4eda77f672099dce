"""Rule tests for Classic land battles (C-6), their edge cases (C-16) and the battle decisions (C-15.5 to
C-15.9). Every test gives the dice roll by roll and checks how many were consumed and what they did.
Macedonia (the active player) is always the attacker and Egyptus the defender. Test names carry the rule
IDs of games/coe-classic/rules.md."""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator.rulesets.coe.orders import BattleOrder, RetreatRule
from adjudicator.rulesets.coe.state import Captive, Force, GameState
from adjudicator.rulesets.coe.turn import TurnResult
from tests.helpers import force, march, place, play, start

ATT, DEF, THIRD = "Macedonia", "Egyptus", "Hispania"
BLANK, INF, CAV, CAT, GAL = 6, 1, 3, 4, 5


def contest(
    area: str = "THR", owner: str | None = DEF, city: str | None = None, *, att: dict[str, Any], dfn: dict[str, Any]
) -> GameState:
    """Macedonia's pieces `att` and Egyptus's pieces `dfn` in `area` (leaders taken from their homes)."""
    state = start()
    for seat, pieces in ((ATT, att), (DEF, dfn)):
        home = state.force(state.players[seat].home, seat)
        for number in pieces.get("generals", []):
            home.generals.remove(number)
        if pieces.get("caesar"):
            home.caesar = 0
        place(state, area, seat, owner=False, **{k: list(v) if isinstance(v, list) else v for k, v in pieces.items()})
    state.area(area).owner = owner
    state.area(area).city = city
    return state


def answer(seat: str, **keys: str) -> dict[str, dict[str, str]]:
    """Answers of one seat; key words use '_' for '.' (battle_THR_1_retreat -> battle.THR.1.retreat)."""
    return {seat: {k.replace("_", "."): v for k, v in keys.items()}}


ATT_RETREATS = answer(ATT, battle_THR_1_retreat="retreat to MAC")  # ends a battle after round 1
DEF_RETREATS = answer(DEF, battle_THR_1_retreat="retreat to MOE")


def purposes(result: TurnResult) -> list[str]:
    """What each consumed die was rolled for, in order ('THR round 1: attacker' ...)."""
    return [purpose for purpose, _ in result.dice]


def rounds(result: TurnResult) -> list[dict[str, Any]]:
    return [e.data for e in result.events if e.kind == "battle_round"]


def events(result: TurnResult, kind: str) -> list[dict[str, Any]]:
    return [e.data for e in result.events if e.kind == kind]


def decisions(result: TurnResult, ending: str = "") -> list[tuple[str, str, str, str]]:
    """(seat, key, choice, source) of every decision whose key ends with `ending`."""
    return [
        (e.seat or "", e.data["key"], e.data["choice"], e.data["source"])
        for e in result.events
        if e.kind == "decision" and e.data["key"].endswith(ending)
    ]


def retreat_rule(
    condition: str, threshold: int | None = None, origin: str | None = None, to: list[str] | None = None
) -> dict[str, Any]:
    return {"from": origin, "condition": condition, "threshold": threshold, "to": to or []}


# -- C-6.1 to C-6.4: when and where ----------------------------------------------------------------------------


def test_C_6_1_a_battle_in_every_province_with_both_players_combat_units() -> None:
    state = contest(att={"generals": [1], "infantry": 1}, dfn={"infantry": 1})
    place(state, "MOE", ATT, owner=False, infantry=1)
    state.force("MAC", ATT).infantry = 4
    place(state, "MOE", DEF, owner=True, galleys=[1])  # galleys alone are no defenders: no battle in MOE
    result = play(state, dice=[INF, BLANK])  # no order needed: the battle in THR must be fought
    assert [(e["area"], e["defender"]) for e in events(result, "battle")] == [("THR", DEF)]
    assert result.state.areas["THR"].owner == ATT
    assert result.state.areas["MOE"].owner == ATT and force(result, "MOE", DEF).galleys == []  # C-5.28, C-8.1
    assert len(result.dice) == 2


def two_battles() -> GameState:
    state = contest(att={"generals": [1], "infantry": 1}, dfn={"infantry": 1})
    state.force("MAC", ATT).generals.remove(2)
    place(state, "ACH", ATT, owner=False, generals=[2], infantry=1)
    place(state, "ACH", DEF, owner=True, infantry=1)
    return state


def test_C_6_2_battles_by_area_code_unless_the_attacker_orders_them() -> None:
    result = play(two_battles(), dice=[INF, BLANK, INF, BLANK])
    assert [e["area"] for e in events(result, "battle")] == ["ACH", "THR"]  # C-15.4 default
    assert purposes(result) == [
        "ACH round 1: attacker",
        "ACH round 1: defender",
        "THR round 1: attacker",
        "THR round 1: defender",
    ]
    result = play(
        two_battles(), BattleOrder(("THR", "ACH"), line=1, text="battles THR ACH"), dice=[INF, BLANK, BLANK, INF]
    )
    assert [e["area"] for e in events(result, "battle")] == ["THR", "ACH"]
    assert purposes(result)[:2] == ["THR round 1: attacker", "THR round 1: defender"]  # each fought to its end
    assert result.state.areas["THR"].owner == ATT and result.state.areas["ACH"].owner == DEF


def test_C_6_2_battle_order_naming_no_battle_is_refused() -> None:
    result = play(two_battles(), BattleOrder(("MOE",), line=1, text="battles MOE"), dice=[INF, BLANK, INF, BLANK])
    (verdict,) = result.order_results
    assert not verdict.accepted and verdict.rule == "C-6.2"


def test_C_6_3_galleys_take_no_part_and_leaders_elsewhere_do_not_count_C_6_10() -> None:
    # Macedonia's Caesar and three generals stay in MAC: only G1 counts (battle legion 6, not 10).
    state = contest(att={"generals": [1], "infantry": 7}, dfn={"infantry": 6, "galleys": [1, 2]})
    state.force("MAC", ATT).galleys = [1]
    result = play(state, dice=[INF] * 6 + [BLANK] * 5, answers=ATT_RETREATS)
    (first,) = rounds(result)
    assert purposes(result) == ["THR round 1: attacker"] * 6 + ["THR round 1: defender"] * 5  # no galley dice
    assert first["attacker_hits"] == 5  # six matched, but the defender's battle legion has five (C-6.10)
    defender = force(result, "THR", DEF)
    assert defender.infantry == 1 and defender.galleys == [1, 2]  # reserve and galleys never hit
    assert force(result, "MAC", ATT).galleys == [1]


def test_C_6_4_and_C_6_6_rounds_with_battle_legions_formed_anew_C_6_13_reserves_fight_on() -> None:
    state = contest(att={"generals": [1], "infantry": 6}, dfn={"infantry": 4, "cavalry": 2})
    # Round 1: Egyptus fields 1 CAV 4 INF (C-15.5) and loses all five; round 2 his former reserve fights.
    result = play(state, dice=[INF] * 5 + [BLANK] + [BLANK] * 5 + [INF] + [BLANK] * 5 + [BLANK])
    first, second = rounds(result)
    assert (first["defender_legion"], first["attacker_hits"]) == ("4 INF 1 CAV", 5)
    assert (second["round"], second["defender_legion"], second["attacker_legion"]) == (2, "1 CAV", "6 INF")
    assert purposes(result) == (
        ["THR round 1: attacker"] * 6
        + ["THR round 1: defender"] * 5
        + ["THR round 2: attacker"] * 6
        + ["THR round 2: defender"]
    )
    # C-6.13: after round 1 both were asked (the defender first) and both continued by default.
    assert decisions(result, "retreat") == [
        (DEF, "battle.THR.1.retreat", "continue", "default"),
        (ATT, "battle.THR.1.retreat", "continue", "default"),
    ]
    assert result.state.areas["THR"].owner == ATT


def test_C_6_6_the_defender_chooses_his_battle_legion_first() -> None:
    state = contest(att={"infantry": 5, "cavalry": 2}, dfn={"infantry": 4, "cavalry": 3})
    result = play(state, dice=[BLANK] * 10 + [BLANK] * 7, answers=ATT_RETREATS)  # 7 pursuit dice
    assert [(seat, key) for seat, key, _, _ in decisions(result, "legion")] == [
        (DEF, "battle.THR.1.legion"),
        (ATT, "battle.THR.1.legion"),
    ]


# -- C-6.5, C-16.28: battle legion size ------------------------------------------------------------------------


def test_C_6_5_and_C_16_28_battle_legion_is_five_plus_one_per_leader_as_large_as_possible() -> None:
    state = contest(att={"generals": [1, 2], "infantry": 12}, dfn={"infantry": 3})
    result = play(state, dice=[INF, INF, INF] + [BLANK] * 4 + [BLANK] * 3)
    (first,) = rounds(result)
    assert (first["attacker_legion"], first["defender_legion"]) == ("7 INF", "3 INF")  # 12 + 2 leaders: 7; 3: 3
    assert purposes(result) == ["THR round 1: attacker"] * 7 + ["THR round 1: defender"] * 3


def test_C_6_5_without_leaders_five_and_the_caesar_counts_as_a_leader() -> None:
    state = contest(att={"infantry": 9}, dfn={"caesar": 1, "generals": [1], "infantry": 9})
    result = play(state, dice=[BLANK] * 5 + [BLANK] * 7, answers=ATT_RETREATS)
    (first,) = rounds(result)
    assert (first["attacker_legion"], first["defender_legion"]) == ("5 INF", "7 INF")
    assert len(result.dice) == 12


# -- C-6.7 to C-6.9, C-16.1 to C-16.4: dice, matching, hits ----------------------------------------------------


def test_C_6_8_each_face_matches_one_own_unit_of_its_kind() -> None:
    state = contest(att={"generals": [1], "infantry": 2, "cavalry": 1, "catapult": 2}, dfn={"infantry": 6})
    # Attacker: three infantry faces for 2 INF, two cavalry faces for 1 CAV: 2 + 1 hits.
    # Defender (no cavalry, no catapult): galley, blank, catapult and cavalry faces score nothing.
    result = play(state, dice=[INF, INF, 2, CAV, CAV] + [GAL, BLANK, CAT, CAV, INF], answers=ATT_RETREATS)
    (first,) = rounds(result)
    assert (first["attacker_hits"], first["defender_hits"]) == (3, 1)
    assert force(result, "THR", DEF).infantry == 3


def test_C_16_2_a_catapult_in_reserve_scores_for_an_all_infantry_battle_legion() -> None:
    state = contest(att={"infantry": 5, "catapult": 1}, dfn={"infantry": 3})
    result = play(state, dice=[CAT, BLANK, BLANK, BLANK, BLANK] + [BLANK] * 3, answers=ATT_RETREATS)
    (first,) = rounds(result)
    assert first["attacker_legion"] == "5 INF" and first["attacker_hits"] == 1
    assert purposes(result).count("THR round 1: attacker") == 5  # the reserve catapult rolls no die
    assert force(result, "THR", DEF).infantry == 2


def test_C_16_3_two_catapult_faces_with_one_catapult_give_one_hit() -> None:
    state = contest(att={"infantry": 4, "catapult": 1}, dfn={"infantry": 3})
    result = play(state, dice=[CAT, CAT, BLANK, BLANK, BLANK] + [BLANK] * 3, answers=ATT_RETREATS)
    assert rounds(result)[0]["attacker_hits"] == 1
    assert force(result, "THR", DEF).infantry == 2


def test_C_6_7_and_C_16_4_fortified_city_two_extra_dice_that_must_still_match() -> None:
    state = contest(city="fortified", att={"generals": [1], "infantry": 3}, dfn={"infantry": 2})
    result = play(state, dice=[BLANK] * 3 + [BLANK, BLANK, INF, INF], answers=ATT_RETREATS)
    (first,) = rounds(result)
    assert first["fortress_dice"] == 2 and first["defender_hits"] == 2  # the extra dice matched the 2 INF
    assert purposes(result) == ["THR round 1: attacker"] * 3 + ["THR round 1: defender"] * 4
    assert force(result, "MAC", ATT).infantry == 5 + 1


def test_C_6_7_and_C_16_4_one_extra_die_against_a_catapult_even_in_reserve() -> None:
    state = contest(city="fortified", att={"infantry": 5, "catapult": 1}, dfn={"infantry": 2})
    # The third infantry face finds no unmatched defender unit: 2 hits, not 3.
    result = play(state, dice=[BLANK] * 5 + [INF, INF, INF], answers=ATT_RETREATS)
    (first,) = rounds(result)
    assert first["attacker_legion"] == "5 INF" and first["fortress_dice"] == 1
    assert first["defender_hits"] == 2 and len(result.dice) == 8


def test_C_6_7_fortress_dice_counted_at_the_start_of_each_round() -> None:
    state = contest(city="fortified", att={"generals": [1], "infantry": 4, "catapult": 1}, dfn={"infantry": 3})
    answers = answer(ATT, battle_THR_1_losses="cat", battle_THR_2_retreat="retreat to MAC")
    result = play(state, dice=[BLANK] * 5 + [INF, BLANK, BLANK, BLANK] + [BLANK] * 4 + [BLANK] * 5, answers=answers)
    first, second = rounds(result)
    assert (first["fortress_dice"], first["attacker_losses"]) == (1, "1 CAT")
    assert second["fortress_dice"] == 2  # the attacker's only catapult is gone
    assert purposes(result).count("THR round 2: defender") == 5


def test_C_6_9_the_owner_chooses_his_hit_units_which_still_roll_C_6_11() -> None:
    state = contest(att={"generals": [1], "infantry": 3}, dfn={"infantry": 2, "cavalry": 1})
    # The defender lays down his cavalry; it still rolls and its cavalry face hits (simultaneous removal).
    result = play(
        state,
        dice=[INF, BLANK, BLANK] + [CAV, BLANK, BLANK],
        answers={**answer(DEF, battle_THR_1_losses="cav"), **ATT_RETREATS},
    )
    (first,) = rounds(result)
    assert (first["defender_losses"], first["defender_hits"], first["attacker_losses"]) == ("1 CAV", 1, "1 INF")
    assert force(result, "THR", DEF) == Force(infantry=2)
    assert force(result, "MAC", ATT).infantry == 5 + 2


def test_C_6_12_dice_order_attacker_then_defender_with_fortress_dice_then_pursuit() -> None:
    state = contest(city="fortified", att={"generals": [1], "infantry": 3, "cavalry": 2}, dfn={"infantry": 2})
    given = [GAL, BLANK, CAT, BLANK, GAL] + [6, 6, 6, 6] + [1, 2, 4, 5, 6]  # no catapult: CAT scores nothing
    result = play(state, dice=given, answers=DEF_RETREATS)
    (first,) = rounds(result)
    assert purposes(result) == (["THR round 1: attacker"] * 5 + ["THR round 1: defender"] * 4 + ["THR pursuit"] * 5)
    assert [value for _, value in result.dice] == given
    assert first["fortress_dice"] == 2
    assert first["attacker_dice"] == given[:5] and first["defender_dice"] == given[5:9]
    assert events(result, "pursuit")[0]["dice"] == given[9:]


# -- C-6.13, C-6.14: continue, retreat, end by elimination -----------------------------------------------------


def test_C_6_13_the_defender_declares_first_and_his_retreat_ends_the_battle() -> None:
    state = contest(att={"generals": [1], "infantry": 3}, dfn={"infantry": 3})
    result = play(state, dice=[BLANK] * 3 + [BLANK] * 3, answers={**DEF_RETREATS, **ATT_RETREATS})
    assert decisions(result, "retreat") == [(DEF, "battle.THR.1.retreat", "retreat to MOE", "answer")]
    assert len(rounds(result)) == 1 and force(result, "MOE", DEF).infantry == 3


# -- C-6.15 to C-6.21, C-16.7 to C-16.9, C-16.29: retreat and pursuit ------------------------------------------


def test_C_6_15_and_C_6_17_all_survivors_move_together_to_the_named_destination() -> None:
    state = contest(att={"generals": [1], "infantry": 3}, dfn={"generals": [1], "infantry": 7, "catapult": 1})
    result = play(state, dice=[BLANK] * 3 + [BLANK] * 6, answers=DEF_RETREATS)
    assert events(result, "retreat")[0]["to"] == "MOE"
    assert force(result, "MOE", DEF) == Force(generals=[1], infantry=7, catapult=1)  # reserve and leader too
    assert DEF not in result.state.areas["THR"].units


def test_C_6_17_a_retreat_needs_no_leader_and_C_6_19_conquers_the_destination() -> None:
    state = contest(att={"infantry": 3}, dfn={"infantry": 3})
    result = play(state, dice=[BLANK] * 3 + [BLANK] * 3, answers=answer(ATT, battle_THR_1_retreat="retreat to MOE"))
    assert force(result, "MOE", ATT).infantry == 3 and result.state.areas["MOE"].owner == ATT
    assert result.state.areas["THR"].owner == DEF  # C-6.21: the attacker retreated


@pytest.mark.parametrize("destination", ["MAC", "AEG", "ACH"])
def test_C_6_17_no_retreat_into_enemy_units_a_sea_zone_or_a_non_adjacent_province(destination: str) -> None:
    state = contest(att={"generals": [1], "infantry": 3}, dfn={"infantry": 3})
    state.players[DEF].standing["retreat"] = [retreat_rule("units_below", 99, to=["MOE"])]
    result = play(state, dice=[BLANK] * 6, answers=answer(DEF, battle_THR_1_retreat=f"retreat to {destination}"))
    (refused,) = events(result, "answer_refused")
    assert refused["key"] == "battle.THR.1.retreat" and destination in refused["reason"]
    assert decisions(result, "retreat") == [(DEF, "battle.THR.1.retreat", "retreat to MOE", "standing order")]
    assert force(result, "MOE", DEF).infantry == 3


def test_C_16_29_a_retreat_crosses_a_strait() -> None:
    state = contest("SIC", att={"generals": [1], "infantry": 3}, dfn={"infantry": 2})
    result = play(state, dice=[BLANK] * 5, answers=answer(DEF, battle_SIC_1_retreat="retreat to NEA"))
    assert force(result, "NEA", DEF).infantry == 2 and result.state.areas["NEA"].owner == DEF
    assert result.state.areas["SIC"].owner == ATT


def test_C_16_29_never_from_sardinia_to_corsica() -> None:
    state = contest("SAR", att={"generals": [1], "infantry": 3}, dfn={"infantry": 2})
    result = play(
        state,
        dice=[BLANK] * 5 + [INF, INF, BLANK] + [BLANK, BLANK],
        answers=answer(DEF, battle_SAR_1_retreat="retreat to COR"),
    )
    assert events(result, "answer_refused")[0]["key"] == "battle.SAR.1.retreat"
    assert "COR" not in result.state.areas or DEF not in result.state.areas["COR"].units
    assert result.state.areas["SAR"].owner == ATT and len(rounds(result)) == 2


def pursuit_position() -> GameState:
    """Attacker: G1, 6 INF, 2 CAV (battle legion 6, reserve 1 INF 1 CAV). Defender: G1, 2 INF, 1 CAV, 1 CAT."""
    return contest(
        att={"generals": [1], "infantry": 6, "cavalry": 2},
        dfn={"generals": [1], "infantry": 2, "cavalry": 1, "catapult": 1},
    )


PURSUIT_DICE = [BLANK] * 6 + [BLANK] * 4 + [CAV, CAV, CAV, INF, CAT, BLANK, BLANK, BLANK]


def test_C_6_16_pursuit_one_die_per_winning_unit_cavalry_faces_matched_with_his_cavalry() -> None:
    result = play(pursuit_position(), dice=PURSUIT_DICE, answers=DEF_RETREATS)
    (pursuit,) = events(result, "pursuit")
    assert purposes(result)[10:] == ["THR pursuit"] * 8  # battle legion and reserve, no fortress dice
    assert pursuit["hits"] == 2  # three cavalry faces, two cavalry units
    assert force(result, "MOE", DEF) == Force(generals=[1], infantry=2)  # C-15.9 default: CAT, CAV first
    assert result.state.areas["THR"].owner == ATT and result.state.areas["MOE"].owner == DEF  # C-6.21, C-6.19


@pytest.mark.parametrize(
    ("standing", "answers", "left", "source"),
    [
        (None, {}, Force(generals=[1], infantry=2), "default"),
        (["infantry"], {}, Force(generals=[1], cavalry=1, catapult=1), "standing order"),
        (["infantry"], {"battle.THR.pursuit": "cav, inf"}, Force(generals=[1], infantry=1, catapult=1), "answer"),
    ],
)
def test_C_15_9_which_retreating_units_the_pursuit_eliminates(
    standing: list[str] | None, answers: dict[str, str], left: Force, source: str
) -> None:
    state = pursuit_position()
    if standing:
        state.players[ATT].standing["pursuit"] = standing
    result = play(state, dice=PURSUIT_DICE, answers={**DEF_RETREATS, ATT: answers})
    assert force(result, "MOE", DEF) == left
    assert [(seat, src) for seat, _, _, src in decisions(result, "pursuit")] == [(ATT, source)]


def test_C_16_7_no_cavalry_no_pursuit_the_attacker_takes_province_city_and_coast() -> None:
    state = contest(
        city="fortified", att={"generals": [1], "infantry": 3, "catapult": 1}, dfn={"infantry": 2, "galleys": [1]}
    )
    result = play(state, dice=[BLANK] * 4 + [BLANK] * 3, answers=DEF_RETREATS)
    assert len(result.dice) == 7 and not events(result, "pursuit")
    thr = result.state.areas["THR"]
    assert thr.owner == ATT and thr.city == "fortified" and DEF not in thr.units  # the galley is destroyed
    assert force(result, "MOE", DEF).infantry == 2


def test_C_6_18_and_C_16_8_leaders_escape_when_the_pursuit_destroys_every_unit_C_6_19() -> None:
    state = contest(att={"generals": [1], "cavalry": 3}, dfn={"caesar": 1, "generals": [1], "infantry": 2})
    state.area("MOE").owner = THIRD
    result = play(state, dice=[BLANK] * 3 + [BLANK] * 2 + [CAV, CAV, CAV], answers=DEF_RETREATS)
    assert events(result, "pursuit")[0]["hits"] == 2
    assert force(result, "MOE", DEF) == Force(caesar=1, generals=[1])
    assert not result.state.players[DEF].eliminated
    assert result.state.areas["MOE"].owner == THIRD  # only leaders arrived: control does not change


def test_C_6_19_retreating_units_conquer_another_players_empty_province() -> None:
    state = contest(att={"generals": [1], "infantry": 3}, dfn={"infantry": 3})
    state.area("MOE").owner = THIRD
    result = play(state, dice=[BLANK] * 6, answers=DEF_RETREATS)
    assert result.state.areas["MOE"].owner == DEF
    conquests = [(e["area"], e["rule"]) for e in events(result, "conquered")]
    assert conquests == [("MOE", "C-6.19"), ("THR", "C-6.21")]
    assert result.state.players[THIRD].tribute == 15 and result.state.players[DEF].tribute == 15 + 5 - 5 + 5


@pytest.mark.parametrize("area", ["ACH", "SAR"])
def test_C_6_20_and_C_16_9_retreat_without_destination_loses_units_and_leaders(area: str) -> None:
    # ACH borders only MAC, which holds Macedonia's units; SAR is an island without a strait.
    state = contest(area, att={"generals": [1], "infantry": 2, "cavalry": 1}, dfn={"generals": [2], "infantry": 3})
    result = play(state, dice=[BLANK] * 3 + [BLANK] * 3, answers={DEF: {f"battle.{area}.1.retreat": "retreat"}})
    assert events(result, "retreat") == [{"area": area, "to": None, "rule": "C-6.17"}]
    assert events(result, "retreat_failed")[0]["rule"] == "C-6.20"
    assert len(result.dice) == 6  # no pursuit dice, although the winner has cavalry
    assert DEF not in result.state.areas[area].units and result.state.areas[area].owner == ATT  # C-6.21
    assert result.state.players[ATT].captives == [Captive(DEF, 2)]


@pytest.mark.parametrize(("side", "rule"), [(DEF, "C-6.23"), (ATT, "C-6.24")])
def test_C_6_20_a_captured_caesars_galleys_in_the_battle_province_are_destroyed_not_taken_over(
    side: str, rule: str
) -> None:
    loser: dict[str, Any] = {"caesar": 1, "infantry": 2, "galleys": [1]}
    state = contest(
        "SAR",
        att=loser if side == ATT else {"generals": [1], "infantry": 2},
        dfn=loser if side == DEF else {"infantry": 2},
    )
    result = play(state, dice=[BLANK] * 4, answers={side: {"battle.SAR.1.retreat": "retreat"}})
    winner = DEF if side == ATT else ATT
    assert result.state.players[side].eliminated and result.state.players[side].captor == winner
    assert [(e.seat, e.data["rule"]) for e in result.events if e.kind == "galleys_destroyed"] == [(side, rule)]
    assert force(result, "SAR", winner).galleys == [] and result.state.areas["SAR"].owner == winner


def test_C_6_21_an_attacker_eliminated_during_the_defenders_retreat_conquers_nothing_C_6_19() -> None:
    # Macedonia's Caesar stands alone in Moesia; Egyptus retreats into it, conquers it and captures him.
    state = contest(att={"generals": [1], "infantry": 3}, dfn={"infantry": 3})
    state.force("MAC", ATT).caesar = 0
    place(state, "MOE", ATT, owner=False, caesar=1)
    result = play(state, dice=[BLANK] * 6, answers=DEF_RETREATS)
    after = result.state
    assert after.players[ATT].eliminated and after.players[ATT].captor == DEF
    assert after.areas["MOE"].owner == DEF and after.areas["THR"].owner == DEF  # not the eliminated Macedonia
    assert [e["area"] for e in events(result, "conquered")] == ["MOE"]
    assert force(result, "THR", DEF).infantry == 3  # Macedonia's units there, now Egyptus's (C-8.8)


def test_C_6_17_units_retreating_into_their_own_province_capture_lone_enemy_leaders_there() -> None:
    state = contest(att={"generals": [1], "infantry": 3}, dfn={"infantry": 3})
    state.force("MAC", ATT).generals.remove(2)
    place(state, "MOE", ATT, owner=False, generals=[2])
    state.area("MOE").owner = DEF
    result = play(state, dice=[BLANK] * 6, answers=DEF_RETREATS)  # C-8.3: entered by his combat units
    assert result.state.players[DEF].captives == [Captive(ATT, 2)]
    assert set(result.state.areas["MOE"].units) == {DEF}


def test_C_6_21_the_attacker_retreats_and_the_defender_keeps_the_province() -> None:
    state = contest(att={"generals": [1], "infantry": 3}, dfn={"cavalry": 1, "infantry": 1})
    result = play(state, dice=[BLANK] * 3 + [BLANK] * 2 + [CAV, BLANK], answers=ATT_RETREATS)
    assert result.state.areas["THR"].owner == DEF
    assert events(result, "battle_end") == [{"area": "THR", "winner": DEF, "how": "retreat"}]
    assert events(result, "pursuit")[0]["hits"] == 1  # the defender pursues the retreating attacker
    home = force(result, "MAC", ATT)
    assert sorted(home.generals) == [1, 2, 3, 4] and home.infantry == 5 + 2


def test_C_6_22_after_a_battle_no_piece_moves() -> None:
    state = contest(att={"generals": [1], "infantry": 3, "cavalry": 1}, dfn={"infantry": 1})
    result = play(state, march((2,), "MAC", "MOE", inf=1), dice=[INF, BLANK, BLANK, BLANK] + [BLANK])
    kinds = [e.kind for e in result.events]
    assert kinds.index("moved") < kinds.index("battle") and "moved" not in kinds[kinds.index("battle_end") :]
    assert force(result, "THR", ATT) == Force(generals=[1], infantry=3, cavalry=1)
    assert force(result, "MOE", ATT) == Force(generals=[2], infantry=1)
    assert force(result, "MAC", ATT) == Force(caesar=1, generals=[3, 4], infantry=4)


# -- C-6.23, C-6.24: galleys in the battle province ------------------------------------------------------------


@pytest.mark.parametrize(
    ("dice", "answers"),
    [
        ([BLANK] + [INF], {}),  # C-6.14 (b)
        ([INF] + [INF], {}),  # C-6.14 (c)
        ([BLANK] + [BLANK], answer(ATT, battle_THR_1_retreat="retreat to MOE")),  # the attacker's retreat
    ],
)
def test_C_6_24_the_attackers_galleys_are_destroyed_when_the_defender_keeps_the_province(
    dice: list[int], answers: dict[str, dict[str, str]]
) -> None:
    state = contest(att={"generals": [1], "infantry": 1, "galleys": [1, 2]}, dfn={"infantry": 1, "galleys": [1]})
    result = play(state, dice=dice, answers=answers)
    thr = result.state.areas["THR"]
    assert thr.owner == DEF and ATT not in thr.units and thr.units[DEF].galleys == [1]
    assert [e["rule"] for e in events(result, "galleys_destroyed")] == ["C-6.24"]


# -- C-16.26: a conquered fortification defends its new owner --------------------------------------------------


def test_C_16_26_conquered_fortified_city_gives_value_plus_five_and_the_extra_dice() -> None:
    state = contest(city="fortified", att={"generals": [1], "infantry": 3}, dfn={"infantry": 1})
    result = play(state, dice=[INF, BLANK, BLANK] + [BLANK, BLANK, BLANK])
    after = result.state
    assert after.areas["THR"].owner == ATT and after.areas["THR"].city == "fortified"
    assert after.players[ATT].tribute == 15 + 5 + 5 and after.players[DEF].tribute == 15
    after.force("EGY", DEF).generals.remove(2)
    place(after, "THR", DEF, owner=False, generals=[2], infantry=2)  # Egyptus attacks Thracia in his turn
    result = play(after, dice=[BLANK] * 2 + [BLANK] * 5, answers=answer(DEF, battle_THR_1_retreat="retreat to MOE"))
    (first,) = rounds(result)
    assert first["defender"] == ATT and first["fortress_dice"] == 2
    assert purposes(result) == ["THR round 1: attacker"] * 2 + ["THR round 1: defender"] * 5


# -- C-15.5 to C-15.8: battle decisions ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("standing", "answers", "legion", "source"),
    [
        (None, {}, "4 INF 1 CAV", "default"),
        (["catapult", "cavalry"], {}, "2 INF 2 CAV 1 CAT", "standing order"),
        (["catapult", "cavalry"], {"battle.THR.1.legion": "cav"}, "3 INF 2 CAV", "answer"),
    ],
)
def test_C_15_5_battle_legion_composition(
    standing: list[str] | None, answers: dict[str, str], legion: str, source: str
) -> None:
    state = contest(att={"generals": [1], "infantry": 3}, dfn={"infantry": 4, "cavalry": 2, "catapult": 1})
    if standing:
        state.players[DEF].standing["battlelegion"] = standing
    # The defender's catapult face scores in every case, the catapult being in his battle legion or reserve.
    result = play(
        state,
        dice=[BLANK] * 3 + [CAT, BLANK, BLANK, BLANK, BLANK] + [BLANK] * 7,  # + pursuit
        answers={**ATT_RETREATS, DEF: answers},
    )
    (first,) = rounds(result)
    assert first["defender_legion"] == legion and first["defender_hits"] == 1
    assert decisions(result, "legion") == [(DEF, "battle.THR.1.legion", legion, source)]  # the attacker: no choice


@pytest.mark.parametrize(
    ("standing", "answers", "lost", "source"),
    [
        (None, {}, "2 INF", "default"),
        (["catapult", "cavalry"], {}, "1 CAV 1 CAT", "standing order"),
        (["catapult", "cavalry"], {"battle.THR.1.losses": "cav"}, "1 INF 1 CAV", "answer"),
    ],
)
def test_C_15_6_which_units_take_the_hits(
    standing: list[str] | None, answers: dict[str, str], lost: str, source: str
) -> None:
    state = contest(att={"generals": [1], "infantry": 4}, dfn={"infantry": 2, "cavalry": 1, "catapult": 1})
    if standing:
        state.players[DEF].standing["losses"] = standing
    result = play(
        state,
        dice=[INF, INF, BLANK, BLANK] + [BLANK] * 4 + [BLANK] * 2,  # + pursuit if he has CAV
        answers={**ATT_RETREATS, DEF: answers},
    )
    assert rounds(result)[0]["defender_losses"] == lost
    assert [(seat, src) for seat, _, _, src in decisions(result, "losses")] == [(DEF, source)]


@pytest.mark.parametrize(
    ("rules", "caesar", "retreats", "source"),
    [
        (None, False, False, "default"),
        ([retreat_rule("units_below", 3)], False, True, "standing order"),
        ([retreat_rule("units_below", 2)], False, False, "standing order"),
        ([retreat_rule("below_enemy")], False, True, "standing order"),
        ([retreat_rule("caesar_and_units_below", 3)], False, False, "standing order"),
        ([retreat_rule("caesar_and_units_below", 3)], True, True, "standing order"),
        ([retreat_rule("units_below", 3), retreat_rule("never", origin="THR")], False, False, "standing order"),
        ([retreat_rule("units_below", 3, origin="ASI")], False, False, "default"),
    ],
)
def test_C_15_7_continue_or_retreat(
    rules: list[dict[str, Any]] | None, caesar: bool, retreats: bool, source: str
) -> None:
    dfn: dict[str, Any] = {"caesar": 1, "infantry": 3} if caesar else {"infantry": 3}
    state = contest(att={"generals": [1], "infantry": 4}, dfn=dfn)
    if rules:
        state.players[DEF].standing["retreat"] = rules
    # After round 1 the defender has 2 units, the attacker 4.
    result = play(state, dice=[INF, BLANK, BLANK, BLANK] + [BLANK] * 3, answers=ATT_RETREATS)
    choice = "retreat to ASI" if retreats else "continue"  # C-15.8: ASI (10) before MOE (5)
    assert decisions(result, "retreat")[0] == (DEF, "battle.THR.1.retreat", choice, source)
    assert (force(result, "ASI", DEF).infantry == 2) is retreats
    assert result.state.areas["THR"].owner == (ATT if retreats else DEF)


def test_C_15_7_an_answer_beats_the_standing_order_and_the_attacker_declares_after_the_defender() -> None:
    state = contest(att={"generals": [1], "infantry": 4}, dfn={"infantry": 3})
    state.players[DEF].standing["retreat"] = [retreat_rule("units_below", 3)]
    orders = RetreatRule("units_below", 5, destinations=("MOE",), line=1, text="retreat to MOE when units below 5")
    result = play(
        state,
        orders,
        dice=[INF, BLANK, BLANK, BLANK] + [INF, BLANK, BLANK],
        answers=answer(DEF, battle_THR_1_retreat="continue"),
    )
    assert decisions(result, "retreat") == [
        (DEF, "battle.THR.1.retreat", "continue", "answer"),
        (ATT, "battle.THR.1.retreat", "retreat to MOE", "standing order"),
    ]
    assert force(result, "MOE", ATT).infantry == 3 and result.state.areas["THR"].owner == DEF


def moesia_battle() -> GameState:
    """Battle in Moesia: Egyptus may retreat into DAC, DAL, PAN or THR (all worth 5), not into MAC."""
    return contest("MOE", att={"generals": [1], "infantry": 3}, dfn={"infantry": 3})


@pytest.mark.parametrize(
    ("owned", "units_in", "expected"),
    [
        ([], None, "DAC"),  # then area code
        (["PAN"], None, "PAN"),  # controlled first
        (["PAN", "DAL"], "DAL", "DAL"),  # then most of his combat units
    ],
)
def test_C_15_8_default_retreat_destination(owned: list[str], units_in: str | None, expected: str) -> None:
    state = moesia_battle()
    for code in owned:
        state.area(code).owner = DEF
    if units_in:
        place(state, units_in, DEF, infantry=1)
    result = play(state, dice=[BLANK] * 6, answers=answer(DEF, battle_MOE_1_retreat="retreat"))
    assert events(result, "retreat")[0]["to"] == expected
    assert force(result, expected, DEF).infantry == 3 + (1 if units_in else 0)


def test_C_15_8_default_prefers_the_higher_value() -> None:
    state = contest(att={"generals": [1], "infantry": 3}, dfn={"infantry": 3})
    result = play(state, dice=[BLANK] * 6, answers=answer(DEF, battle_THR_1_retreat="retreat"))
    assert events(result, "retreat")[0]["to"] == "ASI"  # ASI 10 before MOE 5; MAC holds enemy units


def test_C_15_8_standing_destination_list_in_priority() -> None:
    state = moesia_battle()
    state.players[DEF].standing["retreat"] = [retreat_rule("units_below", 99, to=["MAC", "THR", "PAN"])]
    result = play(state, dice=[BLANK] * 6)
    assert decisions(result, "retreat")[0] == (DEF, "battle.MOE.1.retreat", "retreat to THR", "standing order")
    assert force(result, "THR", DEF).infantry == 3


def test_C_15_8_and_C_16_9_the_default_never_retreats_into_nothing() -> None:
    state = contest("ACH", att={"generals": [1], "infantry": 3}, dfn={"infantry": 2})
    state.players[DEF].standing["retreat"] = [retreat_rule("units_below", 99)]
    result = play(state, dice=[BLANK] * 5 + [INF, INF, BLANK] + [BLANK, BLANK])
    assert [(seat, choice) for seat, _, choice, _ in decisions(result, "retreat")] == [
        (DEF, "continue"),
        (ATT, "continue"),
    ]
    assert not events(result, "retreat") and len(rounds(result)) == 2
    assert result.state.areas["ACH"].owner == ATT


# -- C-6.9: any mix of units takes the hits; counts in answers and standing orders --------------------------


def _losses_standing(line: str) -> list[Any]:
    """The standing dict entry a parsed LOSSES/BATTLELEGION order leaves (as a turn records it)."""
    from adjudicator.orders import parse_orders
    from adjudicator.rulesets import load_ruleset
    from adjudicator.rulesets.coe.decisions import record_standing_order

    parsed = parse_orders(f"GAME g TURN 1 PLAYER Egyptus PASSWORD x\n{line}", load_ruleset("coe-classic"))
    assert not parsed.errors, parsed.errors
    standing: dict[str, Any] = {}
    record_standing_order(standing, parsed.orders[0])
    return next(iter(standing.values()))


@pytest.mark.parametrize(
    ("standing", "answers", "lost", "source"),
    [
        (None, {"battle.THR.1.losses": "1 INF 1 CAT"}, "1 INF 1 CAT", "answer"),
        (None, {"battle.THR.1.losses": "1 cat, 1 cav"}, "1 CAV 1 CAT", "answer"),
        ("LOSSES 1 CAV, CAT", {}, "1 CAV 1 CAT", "standing order"),
        ("LOSSES 1 INF, 1 CAT", {}, "1 INF 1 CAT", "standing order"),
        ("LOSSES 1 INF, CAT", {"battle.THR.1.losses": "2 INF"}, "2 INF", "answer"),
    ],
)
def test_C_6_9_the_owner_names_any_mix_of_units_with_counts(
    standing: str | None, answers: dict[str, str], lost: str, source: str
) -> None:
    state = contest(att={"generals": [1], "infantry": 4}, dfn={"infantry": 2, "cavalry": 1, "catapult": 1})
    if standing:
        state.players[DEF].standing["losses"] = _losses_standing(standing)
    result = play(
        state, dice=[INF, INF, BLANK, BLANK] + [BLANK] * 4 + [BLANK] * 2, answers={**ATT_RETREATS, DEF: answers}
    )
    assert rounds(result)[0]["defender_losses"] == lost
    assert [(seat, src) for seat, _, _, src in decisions(result, "losses")] == [(DEF, source)]
    assert not events(result, "answer_refused")


@pytest.mark.parametrize(
    ("given", "reason"),
    [
        ("3 INF", "3 infantry named, but your battle legion has only 2"),
        ("1 INF", "name 2 unit(s), not 1"),
        ("2 CAT", "2 catapult named, but your battle legion has only 1"),
        ("2 INF 1", "the count 1 names no unit kind (INF, CAV, CAT)"),
    ],
)
def test_C_6_9_an_answer_naming_units_that_are_not_there_is_refused_and_the_default_applies(
    given: str, reason: str
) -> None:
    state = contest(att={"generals": [1], "infantry": 4}, dfn={"infantry": 2, "cavalry": 1, "catapult": 1})
    result = play(
        state,
        dice=[INF, INF, BLANK, BLANK] + [BLANK] * 4 + [BLANK] * 2,
        answers={**ATT_RETREATS, DEF: {"battle.THR.1.losses": given}},
    )
    assert rounds(result)[0]["defender_losses"] == "2 INF"
    (refused,) = events(result, "answer_refused")
    assert refused["reason"] == reason
    assert decisions(result, "losses")[0][3] == "default"


@pytest.mark.parametrize(
    ("standing", "answers", "legion", "source"),
    [
        (None, {"battle.THR.1.legion": "3 INF 2 CAV"}, "3 INF 2 CAV", "answer"),
        (None, {"battle.THR.1.legion": "4 INF 1 CAV"}, "4 INF 1 CAV", "answer"),  # the default, as a notice shows it
        ("BATTLELEGION 1 CAT, 2 CAV, INF", {}, "2 INF 2 CAV 1 CAT", "standing order"),
        ("BATTLELEGION 1 CAV, INF", {}, "4 INF 1 CAV", "standing order"),  # C-15.5's default, written out
    ],
)
def test_C_6_5_and_C_15_5_a_battle_legion_named_with_counts(
    standing: str | None, answers: dict[str, str], legion: str, source: str
) -> None:
    state = contest(att={"generals": [1], "infantry": 3}, dfn={"infantry": 4, "cavalry": 2, "catapult": 1})
    if standing:
        state.players[DEF].standing["battlelegion"] = _losses_standing(standing)
    result = play(
        state,
        dice=[BLANK] * 3 + [CAT, BLANK, BLANK, BLANK, BLANK] + [BLANK] * 7,
        answers={**ATT_RETREATS, DEF: answers},
    )
    (first,) = rounds(result)
    assert first["defender_legion"] == legion
    assert decisions(result, "legion") == [(DEF, "battle.THR.1.legion", legion, source)]
    assert not events(result, "answer_refused")


def test_C_15_a_priority_with_counts_is_kept_in_the_snapshot_and_old_priorities_keep_their_form() -> None:
    from adjudicator.rulesets.coe.state import from_snapshot, to_snapshot

    assert _losses_standing("LOSSES CAV, INF") == ["cavalry", "infantry"]  # as every snapshot so far holds it
    counted = _losses_standing("LOSSES 4 INF, 1 CAV, INF")
    assert counted == [{"kind": "infantry", "count": 4}, {"kind": "cavalry", "count": 1}, "infantry"]
    state = start()
    state.players[DEF].standing["losses"] = counted
    assert from_snapshot(to_snapshot(state)).players[DEF].standing["losses"] == counted
