"""Rule tests for conquest, capture of leaders, elimination and victory (C-5.29, C-5.31, C-8.1 to C-8.13,
C-14.1), their edge cases (C-16.16, C-16.27) and the decisions they take (C-15.11 to C-15.13). Test names carry
the rule IDs of games/coe-classic/rules.md.

Battles here are tiny and use given dice: land rounds roll the attacker's dice, then the defender's; naval rounds
2 dice per galley, attacker first. A lone leader is captured without dice (C-5.31), which most tests use.
"""

from __future__ import annotations

from typing import Any

from adjudicator.rulesets.coe.orders import (
    CAESAR,
    BattleOrder,
    Buy,
    Captives,
    Concede,
    NavalBattle,
    Purchase,
    RansomAccept,
)
from adjudicator.rulesets.coe.state import Captive, Cargo, Force, GameState
from adjudicator.rulesets.coe.turn import TurnResult
from tests.helpers import force, march, place, play, road, start, verdicts

OK = (True, "")
MAC, EGY, HIS = "Macedonia", "Egyptus", "Hispania"
BLANK, GALLEY = 6, 5


def send(state: GameState, seat: str, area: str, *leaders: int, inf: int = 0, cav: int = 0) -> GameState:
    """Put leaders and infantry of `seat` from his home province into `area` (control unchanged), plus new
    cavalry."""
    base, there = state.force(state.players[seat].home, seat), state.force(area, seat)
    for leader in leaders:
        if leader == CAESAR:
            base.caesar, there.caesar = 0, 1
        else:
            base.generals.remove(leader)
            there.generals.append(leader)
    base.infantry -= inf
    there.infantry += inf
    there.cavalry += cav
    return state


def at_sea(state: GameState, zone: str, number: int, seat: str, *leaders: int, inf: int = 0) -> GameState:
    """Galley `number` of `seat` in the sea zone `zone` carrying leaders and infantry from his home."""
    send(state, seat, zone, *leaders, inf=inf)
    sea = state.force(zone, seat)
    sea.galleys.append(number)
    sea.aboard[number] = Cargo(caesar=int(CAESAR in leaders), generals=[n for n in leaders if n], infantry=inf)
    return state


def prisoner(state: GameState, holder: str, owner: str, general: int) -> GameState:
    """`owner`'s general, taken off his home province, is held by `holder`."""
    state.force(state.players[owner].home, owner).generals.remove(general)
    state.players[holder].captives.append(Captive(owner, general))
    return state


def lone_caesar(state: GameState, seat: str = EGY, area: str = "THR") -> GameState:
    """`seat`'s Caesar alone in `area`, where Macedonia's G1 stands with 2 INF: captured at the end of movement."""
    return send(send(state, seat, area, CAESAR), MAC, area, 1, inf=2)


def events(result: TurnResult, kind: str) -> list[tuple[str | None, dict[str, Any]]]:
    return [(e.seat, e.data) for e in result.events if e.kind == kind]


def decisions(result: TurnResult, prefix: str) -> list[tuple[str | None, str, str, str]]:
    return [
        (e.seat, e.data["key"], e.data["choice"], e.data["source"])
        for e in result.events
        if e.kind == "decision" and e.data["key"].startswith(prefix)
    ]


def pieces_of(state: GameState, seat: str) -> list[str]:
    return sorted(code for code, area in state.areas.items() if seat in area.units)


def all_generals(state: GameState, seat: str) -> list[int]:
    return sorted(g for area in state.areas.values() if seat in area.units for g in area.units[seat].generals)


# C-5.29, C-8.2 (who conquers) and C-5.31 are rule cases: games/coe-classic/cases/ (docs/rule-cases.md).


# -- C-5.31, C-16.16: lone leaders ---------------------------------------------------------------------------------


def test_C_16_16_a_lone_leader_may_not_enter_enemy_units_and_is_taken_where_they_end_their_move() -> None:
    state = place(start(), "MAC", MAC, cavalry=2)
    place(state, "ACH", EGY, owner=False, infantry=1)
    send(state, EGY, "MOE", 2)
    send(state, EGY, "DAL", 3)
    result = play(
        state,
        march((1,), "MAC", "ACH", line=1),  # alone into Egyptus's troops
        march((2,), "MAC", "MOE", "DAC", cav=1, line=2),  # through G2's province: he stays free
        march((3,), "MAC", "DAL", cav=1, line=3),
    )  # ends in G3's province: he is captured
    assert verdicts(result) == [(False, "C-5.10"), OK, OK]
    assert result.state.players[MAC].captives == [Captive(EGY, 3)]
    assert force(result, "MOE", EGY).generals == [2]


# -- C-8.1: the effects of a conquest -------------------------------------------------------------------------------


def test_C_8_1_conquest_gives_control_tribute_the_city_intact_and_takes_galleys_and_leaders() -> None:
    state = road(start(), "THR", "MAC")
    thrace = state.area("THR")
    thrace.owner, thrace.city = EGY, "fortified"
    place(state, "THR", EGY, galleys=[1])
    send(state, EGY, "THR", 2)
    result = play(state, march((1,), "MAC", "THR", inf=2))
    after = result.state.areas["THR"]
    assert after.owner == MAC and after.city == "fortified" and after.roads == ["MAC"]
    assert result.state.players[MAC].tribute == 15 + 5 + 5 and result.state.players[EGY].tribute == 15
    assert [d["galleys"] for _, d in events(result, "galleys_destroyed")] == [[1]]
    assert result.state.players[MAC].captives == [Captive(EGY, 2)]
    assert EGY not in after.units


# -- C-8.3 to C-8.6, C-15.11: capture ------------------------------------------------------------------------------


def test_C_8_3_leaders_are_never_hit_and_fall_with_the_last_unit_of_their_side() -> None:
    state = place(start(), "THR", EGY, infantry=1)
    send(state, EGY, "THR", 2)
    send(state, MAC, "THR", 1, inf=2)
    result = play(state, dice=[1, BLANK, 1])  # each side scores one infantry hit
    assert force(result, "THR", MAC) == Force(generals=[1], infantry=1)
    assert result.state.players[MAC].captives == [Captive(EGY, 2)]
    assert result.state.areas["THR"].owner == MAC


def test_C_8_4_C_15_11_a_captured_general_is_held_for_ransom_by_default() -> None:
    result = play(send(start(), EGY, "THR", 2), march((1,), "MAC", "THR", inf=2))
    assert result.state.players[MAC].captives == [Captive(EGY, 2)]
    assert decisions(result, "captive.") == [(MAC, "captive.Egyptus.G2", "ransom", "default")]


def test_C_8_4_C_15_11_captives_kill_as_standing_order_globally_or_per_owner() -> None:
    state = send(send(start(), EGY, "THR", 2), HIS, "THR", 3)
    result = play(
        state,
        Captives("kill", line=1, text="CAPTIVES KILL"),
        Captives("ransom", HIS, line=2, text="CAPTIVES RANSOM Hispania"),
        march((1,), "MAC", "THR", inf=2),
    )
    assert result.state.players[MAC].captives == [Captive(HIS, 3)]
    assert sorted(decisions(result, "captive.")) == [
        (MAC, "captive.Egyptus.G2", "kill", "standing order"),
        (MAC, "captive.Hispania.G3", "ransom", "standing order"),
    ]
    assert all_generals(result.state, EGY) == [1, 3, 4]  # G2 is gone for good


def test_C_15_11_an_answer_beats_the_standing_order() -> None:
    state = send(start(), EGY, "THR", 2)
    state.players[MAC].standing["captives"] = {"*": "ransom"}
    result = play(state, march((1,), "MAC", "THR", inf=2), answers={MAC: {"captive.Egyptus.G2": "kill"}})
    assert result.state.players[MAC].captives == []
    assert decisions(result, "captive.") == [(MAC, "captive.Egyptus.G2", "kill", "answer")]


def test_C_15_11_the_captor_decides_even_outside_his_turn() -> None:
    state = at_sea(at_sea(start(), "AEG", 1, MAC, 1, inf=1), "AEG", 1, EGY)
    state.players[EGY].standing["captives"] = {MAC: "kill"}
    result = play(state, NavalBattle("AEG", line=1, text="NAVAL AEG"), dice=[BLANK, BLANK, GALLEY, BLANK])
    assert decisions(result, "captive.") == [(EGY, "captive.Macedonia.G1", "kill", "standing order")]
    assert result.state.players[EGY].captives == [] and all_generals(result.state, MAC) == [2, 3, 4]


def test_C_8_5_a_prisoner_is_off_the_board_and_cannot_be_killed_later() -> None:
    state = prisoner(start(), MAC, EGY, 2)
    result = play(state, Captives("kill", line=1, text="CAPTIVES KILL"))
    assert result.state.players[MAC].captives == [Captive(EGY, 2)]
    assert all_generals(result.state, EGY) == [1, 3, 4]
    egypt = play(result.state, march((2,), "EGY", "CYR", inf=1))
    assert verdicts(egypt) == [(False, "C-5.3")]  # G2 can neither move nor lead troops


def test_C_8_6_a_captured_caesar_eliminates_his_player_without_a_choice() -> None:
    result = play(lone_caesar(start()))
    assert [(s, d["leader"], d["choice"]) for s, d in events(result, "captured")] == [(MAC, "Caesar", "")]
    assert decisions(result, "captive.") == []
    assert result.state.players[EGY].eliminated and result.state.players[EGY].captor == MAC
    assert [(s, d["captor"], d["rule"]) for s, d in events(result, "eliminated")] == [(EGY, MAC, "C-8.8")]


# -- C-8.7 to C-8.9, C-15.12: elimination ---------------------------------------------------------------------------


def test_C_8_7_C_8_12_only_the_caesar_counts_not_provinces_or_generals() -> None:
    state = start()
    home = state.areas["EGY"]
    home.owner = HIS
    home.units[EGY] = Force(caesar=1)  # Egyptus has lost every province and every piece but his Caesar
    result = play(state)
    assert not result.state.players[EGY].eliminated and result.state.active == EGY
    egypt = play(result.state)
    assert [d["amount"] for s, d in events(egypt, "tribute")] == [0]
    assert not egypt.state.players[EGY].eliminated and egypt.state.active == HIS


def test_C_8_7_losing_generals_does_not_eliminate() -> None:
    result = play(send(start(), EGY, "THR", 1, 2, 3, 4), march((1,), "MAC", "THR", inf=2))
    assert len(result.state.players[MAC].captives) == 4 and not result.state.players[EGY].eliminated


def takeover() -> GameState:
    """Egyptus (30 talents; Egypt with 3 INF, G1, G2; Cyrenaica with a city; galleys 1 and 2 in the Alexandrian
    sea, galley 1 carrying G3 with 2 INF) holds Hispania's G1 and Macedonia's G2; Hispania holds Egyptus's G4.
    Egyptus's Caesar stands alone in Thracia, where Macedonia has G1 and 2 INF."""
    state = lone_caesar(start())
    state.players[EGY].treasury = 30
    cyrenaica = state.area("CYR")
    cyrenaica.owner, cyrenaica.city = EGY, "city"
    at_sea(state, "ALX", 1, EGY, 3, inf=2)
    at_sea(state, "ALX", 2, EGY)
    prisoner(state, EGY, HIS, 1)
    prisoner(state, EGY, MAC, 2)
    return prisoner(state, HIS, EGY, 4)


def test_C_8_8_the_captor_takes_over_everything_the_loser_had() -> None:
    result = play(takeover())
    state, mac, egy = result.state, result.state.players[MAC], result.state.players[EGY]
    assert egy.eliminated and pieces_of(state, EGY) == [] and egy.treasury == 0 and egy.tribute == 0
    assert egy.captives == []
    assert state.areas["EGY"].owner == MAC and state.areas["EGY"].city == "fortified"
    assert state.areas["CYR"].owner == MAC and state.areas["CYR"].city == "city"
    # pieces where they stand, generals numbered after the captor's own (G1 to G4): G5 to G8
    assert force(result, "EGY", MAC) == Force(generals=[5, 6], infantry=3)
    assert force(result, "ALX", MAC) == Force(
        generals=[7], infantry=2, galleys=[1, 2], aboard={1: Cargo(generals=[7], infantry=2), 2: Cargo()}
    )
    # prisoners: Hispania's G1 is now Macedonia's; Egyptus's G4, held by Hispania, is Macedonia's G8
    assert mac.captives == [Captive(HIS, 1)]
    assert state.players[HIS].captives == [Captive(MAC, 8)]
    # tribute: Macedonia 15 + Thracia 5 + Egypt 15 + Cyrenaica 15, collected this turn with the treasury taken
    assert mac.tribute == 50 and mac.treasury == 30 + 50
    assert mac.inherited == {"infantry": 5, "galley": 2}


def test_C_8_9_own_generals_among_the_losers_prisoners_are_freed_at_home() -> None:
    result = play(takeover())
    assert [(s, d["leader"], d["area"], d["rule"]) for s, d in events(result, "freed")] == [(MAC, "G2", "MAC", "C-8.9")]
    assert sorted(force(result, "MAC", MAC).generals) == [2, 3, 4]
    assert not any(c.owner == MAC for c in result.state.players[MAC].captives)


def homeless() -> GameState:
    """Macedonia lost his home to Hispania: his pieces (without G2, Egyptus's prisoner) stand in Thracia with
    5 INF; he holds Moesia with 2 INF. Egyptus (3 INF at home) has his Caesar alone in Thracia."""
    state = prisoner(start(), EGY, MAC, 2)
    state.areas["MAC"].owner = HIS
    state.area("THR").units[MAC] = state.areas["MAC"].units.pop(MAC)
    state.area("THR").owner = MAC
    place(state, "MOE", MAC, infantry=2)
    send(state, EGY, "THR", CAESAR)
    state.force("EGY", EGY).infantry = 3
    return state


def test_C_15_12_freed_general_without_the_home_province_default_most_units() -> None:
    result = play(homeless())
    assert decisions(result, "freed.") == [(MAC, "freed.G2", "THR", "default")]
    assert 2 in force(result, "THR", MAC).generals


def test_C_15_12_freed_general_by_standing_order_or_answer() -> None:
    state = homeless()
    state.players[MAC].standing["freed"] = ["ITA", "MOE"]  # Italia is not his: the next one
    result = play(state)
    assert force(result, "MOE", MAC).generals == [2]
    assert decisions(result, "freed.") == [(MAC, "freed.G2", "MOE", "standing order")]
    result = play(state, answers={MAC: {"freed.G2": "EGY"}})
    assert 2 in force(result, "EGY", MAC).generals
    result = play(state, answers={MAC: {"freed.G2": "ITA"}})
    assert [d["key"] for _, d in events(result, "answer_refused")] == ["freed.G2"]
    assert force(result, "MOE", MAC).generals == [2]


# -- C-8.10, C-8.11, C-15.13, C-16.27: elimination during the turn ---------------------------------------------------


def fall_at_sea() -> GameState:
    """Macedonia's Caesar aboard galley 1 in the Aegean facing Egyptus's galley 1; Macedonia's G1 with 3 INF
    faces 1 INF of Hispania in Thracia, and his G2 with 2 INF faces 1 INF of Egyptus in Moesia."""
    state = at_sea(at_sea(start(), "AEG", 1, MAC, CAESAR), "AEG", 1, EGY)
    send(state, MAC, "THR", 1, inf=3)
    send(state, HIS, "THR", inf=1)
    send(state, MAC, "MOE", 2, inf=2)
    return send(state, EGY, "MOE", inf=1)


def test_C_8_10_the_captor_fights_the_remaining_battles_and_phases_3_to_6_are_skipped() -> None:
    state = fall_at_sea()
    state.players[MAC].treasury = 20
    result = play(
        state,
        NavalBattle("AEG", line=1, text="NAVAL AEG"),
        BattleOrder(("AEG", "MOE", "THR"), line=2, text="BATTLES AEG, MOE, THR"),
        Buy((Purchase("infantry"),), line=3, text="BUY 1 INF"),
        dice=[
            BLANK,
            BLANK,
            GALLEY,
            BLANK,  # naval round 1: Macedonia's galley sinks
            1,
            BLANK,
            BLANK,
            BLANK,
        ],
    )  # Thracia, fought by Egyptus: 3 dice, then Hispania's 1
    assert result.state.players[MAC].eliminated
    assert [(s, d["area"], d["defender"]) for s, d in events(result, "battle")] == [(EGY, "THR", HIS)]
    assert force(result, "MOE", EGY) == Force(generals=[6], infantry=3)  # no battle: both are Egyptus's now
    assert force(result, "THR", EGY) == Force(generals=[5], infantry=3)
    assert result.state.areas["THR"].owner == EGY and HIS not in result.state.areas["THR"].units
    assert verdicts(result) == [OK, OK, (False, "C-8.10")]
    assert not events(result, "tribute") and result.state.players[EGY].treasury == 20
    assert result.state.active == EGY


def test_C_15_13_the_captor_makes_the_attackers_choices_with_his_own_standing_orders() -> None:
    state = fall_at_sea()
    send(state, MAC, "THR", cav=1)
    state.players[MAC].standing["losses"] = ["infantry"]
    state.players[EGY].standing["losses"] = ["cavalry"]
    result = play(
        state,
        NavalBattle("AEG", line=1, text="NAVAL AEG"),
        BattleOrder(("AEG",), line=2, text="BATTLES AEG"),
        dice=[BLANK, BLANK, GALLEY, BLANK, 1, BLANK, BLANK, BLANK, 1],
    )
    assert decisions(result, "battle.THR") == [
        (EGY, "battle.THR.1.losses", "cavalry, infantry, catapult", "standing order")
    ]
    assert force(result, "THR", EGY) == Force(generals=[5], infantry=3)


def test_C_8_11_C_16_27_a_defender_eliminated_in_the_movers_battle_the_turn_goes_on() -> None:
    state = place(start(), "THR", EGY, infantry=1)
    send(state, EGY, "THR", CAESAR)
    send(state, MAC, "THR", 1, inf=2)
    state.players[EGY].treasury = 40
    result = play(state, Buy((Purchase("infantry", 7),), line=1, text="BUY 7 INF"), dice=[1, BLANK, BLANK])
    mac = result.state.players[MAC]
    assert result.state.players[EGY].eliminated and not mac.eliminated
    # tribute before Phase 3: Macedonia 15 + Thracia 5 + Egypt 15; the 40 talents taken over are spent at once
    assert [d["amount"] for _, d in events(result, "tribute")] == [35]
    assert verdicts(result) == [OK] and mac.treasury == 40 + 35 - 70
    assert force(result, "MAC", MAC).infantry == 3 + 7
    assert result.state.active == HIS  # Egyptus is skipped


def test_C_8_13_attackers_losses_first_then_the_attacker_captures() -> None:
    state = at_sea(at_sea(start(), "AEG", 1, MAC, 1, inf=1), "AEG", 1, EGY, 2, inf=1)
    result = play(state, NavalBattle("AEG", line=1, text="NAVAL AEG"), dice=[GALLEY, BLANK, GALLEY, BLANK])
    assert [(s, d["owner"], d["leader"]) for s, d in events(result, "captured")] == [(EGY, MAC, "G1"), (MAC, EGY, "G2")]
    assert result.state.players[EGY].captives == [Captive(MAC, 1)]
    assert result.state.players[MAC].captives == [Captive(EGY, 2)]


def test_C_8_13_C_8_9_if_the_attacker_falls_the_defenders_leaders_lost_in_that_round_go_free() -> None:
    state = at_sea(at_sea(start(), "AEG", 1, MAC, CAESAR), "AEG", 1, EGY, 2, inf=1)
    result = play(state, NavalBattle("AEG", line=1, text="NAVAL AEG"), dice=[GALLEY, BLANK, GALLEY, BLANK])
    assert [(s, d["leader"]) for s, d in events(result, "captured")] == [(EGY, "Caesar")]
    assert [(s, d["leader"], d["area"], d["rule"]) for s, d in events(result, "freed")] == [(EGY, "G2", "EGY", "C-8.9")]
    assert result.state.players[EGY].captives == [] and 2 in force(result, "EGY", EGY).generals
    assert force(result, "EGY", EGY).infantry == 4  # the infantry aboard went down


# -- C-14.1: victory ----------------------------------------------------------------------------------------------


def test_C_14_1_the_last_caesar_standing_wins() -> None:
    state = start([EGY, HIS])
    send(state, HIS, "LUS", CAESAR)
    send(state, EGY, "LUS", 1, inf=1)
    result = play(state)
    assert result.state.winner == EGY and result.state.active is None
    assert [(s, d["rule"]) for s, d in events(result, "victory")] == [(EGY, "C-14.1")]


def test_C_14_1_after_the_victory_the_winners_later_phases_are_not_played() -> None:
    state = start([EGY, HIS])
    send(state, HIS, "LUS", CAESAR)
    send(state, EGY, "LUS", 1, inf=1)
    result = play(state, Buy((Purchase("infantry"),), line=1, text="BUY 1 INF"))
    assert verdicts(result) == [(False, "C-14.1")]
    assert "game is over: Egyptus wins" in result.order_results[0].reason


def test_C_8_10_every_later_order_of_a_fallen_mover_gets_a_verdict() -> None:
    state = fall_at_sea()
    result = play(
        state,
        NavalBattle("AEG", line=1, text="NAVAL AEG"),
        BattleOrder(("AEG", "MOE", "THR"), line=2, text="BATTLES AEG, MOE, THR"),
        RansomAccept(HIS, 1, 10, line=3, text="RANSOM ACCEPT"),
        Concede(HIS, line=4, text="CONCEDE"),
        dice=[BLANK, BLANK, GALLEY, BLANK, 1, BLANK, BLANK, BLANK],
    )
    assert result.state.players[MAC].eliminated
    assert verdicts(result)[2:] == [(False, "C-8.10"), (False, "C-8.10")]


def test_C_14_1_no_winner_while_two_caesars_remain() -> None:
    result = play(lone_caesar(start()))
    assert result.state.players[EGY].eliminated and result.state.winner is None
    assert result.state.active == HIS and not events(result, "victory")
