"""Rule tests for Classic naval battles (C-7.1 to C-7.7), their edge cases (C-16.12 to C-16.15, C-16.30) and
the decisions they take (C-15.3, C-15.10). Test names carry the rule IDs of games/coe-classic/rules.md.

Dice order of a naval round (C-7.4): the attacker's 2 dice per galley, then the defender's 2 per galley.
"""

from __future__ import annotations

from typing import Any

from adjudicator.rulesets.coe.orders import CAESAR, BattleOrder, Buy, NavalBattle, Order, Purchase
from adjudicator.rulesets.coe.state import Area, Captive, Cargo, Force, GameState
from adjudicator.rulesets.coe.turn import TurnResult
from tests.helpers import force, place, play, sail, start, verdicts

OK = (True, "")
MAC, EGY, HIS = "Macedonia", "Egyptus", "Hispania"
BLANK, GALLEY = 6, 5


def at_sea(
    state: GameState, zone: str, number: int, seat: str = MAC, leaders: tuple[int, ...] = (), inf: int = 0, cav: int = 0
) -> GameState:
    """Galley `number` of `seat` in the sea zone `zone`, carrying leaders and infantry taken from the seat's home
    province (and new cavalry): the force of the zone counts the pieces aboard too."""
    base, sea = state.force(state.players[seat].home, seat), state.force(zone, seat)
    for leader in leaders:
        if leader == CAESAR:
            base.caesar, sea.caesar = 0, 1
        else:
            base.generals.remove(leader)
            sea.generals.append(leader)
    base.infantry -= inf
    sea.infantry += inf
    sea.cavalry += cav
    sea.galleys.append(number)
    sea.aboard[number] = Cargo(
        caesar=int(CAESAR in leaders), generals=[n for n in leaders if n], infantry=inf, cavalry=cav
    )
    return state


def naval(zone: str, against: str | None = None, line: int = 1) -> NavalBattle:
    return NavalBattle(zone, against, line=line, text=f"NAVAL {zone}" + (f" VS {against}" if against else ""))


def events(result: TurnResult, kind: str) -> list[dict[str, Any]]:
    return [e.data for e in result.events if e.kind == kind]


def decisions(result: TurnResult, prefix: str) -> list[tuple[str | None, str, str, str]]:
    """(seat, key, choice, source) of every decision whose key starts with `prefix`."""
    return [
        (e.seat, e.data["key"], e.data["choice"], e.data["source"])
        for e in result.events
        if e.kind == "decision" and e.data["key"].startswith(prefix)
    ]


def duel() -> GameState:
    """Macedonia's galley 1 (G1 and 2 INF aboard) and Egyptus's galley 1 (G2 and 3 INF aboard) in the Aegean."""
    state = at_sea(start(), "AEG", 1, MAC, (1,), inf=2)
    return at_sea(state, "AEG", 1, EGY, (2,), inf=3)


def owners(state: GameState) -> dict[str, str | None]:
    return {code: area.owner for code, area in state.areas.items() if area.owner}


# -- C-7.1, C-15.3, C-16.15, C-16.30: declaring a naval battle -------------------------------------------------


def test_C_7_1_C_15_3_a_naval_battle_is_never_compulsory() -> None:
    state = duel()
    result = play(state)  # no dice given: a roll would fail
    assert not events(result, "naval_battle") and result.dice == []
    assert force(result, "AEG", MAC) == state.areas["AEG"].units[MAC]
    assert force(result, "AEG", EGY) == state.areas["AEG"].units[EGY]


def test_C_7_1_declared_where_both_have_galleys_even_if_they_did_not_move() -> None:
    result = play(duel(), naval("AEG"), dice=[BLANK] * 12)
    assert verdicts(result) == [OK]
    assert events(result, "naval_battle") == [{"area": "AEG", "defender": EGY, "rule": "C-7.1"}]


def test_C_7_1_only_in_a_sea_zone_holding_own_and_other_galleys() -> None:
    state = at_sea(duel(), "EUX", 2, MAC)
    place(state, "THR", MAC, galleys=[3])
    result = play(
        state,
        naval("THR", line=1),
        naval("EPI", line=2),
        naval("EUX", line=3),
        naval("AEG", HIS, line=4),
        naval("AEG", line=5),
        naval("AEG", EGY, line=6),
        dice=[BLANK] * 12,
    )
    assert verdicts(result) == [
        (False, "C-7.1"),
        (False, "C-7.1"),
        (False, "C-7.1"),
        (False, "C-7.1"),
        OK,
        (False, "C-7.1"),
    ]  # the last one: declared already
    assert len(events(result, "naval_battle")) == 1


def test_C_7_1_C_15_3_several_other_players_the_opponent_must_be_named() -> None:
    state = at_sea(duel(), "AEG", 1, HIS)
    result = play(state, naval("AEG", line=1), naval("AEG", HIS, line=2), dice=[BLANK] * 12)
    assert verdicts(result) == [(False, "C-7.1"), OK]
    assert [e["defender"] for e in events(result, "naval_battle")] == [HIS]
    assert force(result, "AEG", EGY).galleys == [1]


def test_C_16_15_one_battle_against_each_other_player_fought_separately_in_the_order_given() -> None:
    state = at_sea(duel(), "AEG", 1, HIS)
    dice = [GALLEY, BLANK, BLANK, BLANK]  # against Hispania: his only galley sinks in round 1, the battle ends
    dice += [BLANK] * 12  # against Egyptus: three rounds without a hit
    result = play(state, naval("AEG", HIS, line=1), naval("AEG", EGY, line=2), dice=dice)
    assert verdicts(result) == [OK, OK]
    assert [e["defender"] for e in events(result, "naval_battle")] == [HIS, EGY]
    assert [(e["defender"], e["round"]) for e in events(result, "naval_round")] == [
        (HIS, 1),
        (EGY, 1),
        (EGY, 2),
        (EGY, 3),
    ]
    assert HIS not in result.state.areas["AEG"].units and force(result, "AEG", EGY).galleys == [1]


def test_C_16_30_no_battle_in_a_zone_the_galley_only_sailed_through() -> None:
    state = at_sea(start(), "AEG", 1, EGY)
    place(state, "MAC", MAC, galleys=[1, 2], galley_coasts={1: "AEG", 2: "AEG"})
    result = play(state, sail((1,), "MAC", "AEG", "EUX", line=1), naval("AEG", line=2))
    assert verdicts(result) == [OK, (False, "C-7.1")]
    assert not events(result, "naval_battle")
    # a galley that ends its movement there may fight
    result = play(state, sail((1,), "MAC", "AEG", line=1), naval("AEG", line=2), dice=[BLANK] * 12)
    assert verdicts(result) == [OK, OK] and len(events(result, "naval_round")) == 3


# -- C-7.2 to C-7.7: the battle ------------------------------------------------------------------------------------


def test_C_7_2_every_galley_rolls_two_dice_and_the_cargo_none() -> None:
    state = at_sea(at_sea(duel(), "AEG", 2, MAC), "AEG", 3, MAC, (3,), inf=3)
    result = play(state, naval("AEG"), dice=[BLANK] * 24)
    rounds = events(result, "naval_round")
    assert [(len(r["attacker_dice"]), len(r["defender_dice"])) for r in rounds] == [(6, 2)] * 3
    assert force(result, "AEG", MAC) == state.areas["AEG"].units[MAC]


def test_C_7_3_at_most_three_rounds_and_C_16_14_survivors_stay_at_sea_with_their_cargo() -> None:
    state = duel()
    result = play(state, naval("AEG"), dice=[BLANK] * 13)
    assert len(result.dice) == 12 and [r["round"] for r in events(result, "naval_round")] == [1, 2, 3]
    assert not events(result, "retreat")
    assert force(result, "AEG", MAC) == state.areas["AEG"].units[MAC]
    assert force(result, "AEG", EGY).aboard == {1: Cargo(generals=[2], infantry=3)}


def test_C_7_4_galley_faces_are_hits_without_matching_and_the_hit_galleys_still_roll() -> None:
    state = at_sea(at_sea(duel(), "AEG", 2, EGY), "AEG", 3, EGY)
    # Macedonia's single galley scores two hits; Egyptus rolls for all three galleys, the two sinking ones too.
    result = play(state, naval("AEG"), dice=[GALLEY, GALLEY, BLANK, BLANK, BLANK, BLANK, BLANK, GALLEY])
    first = events(result, "naval_round")[0]
    assert len(first["defender_dice"]) == 6
    assert first["defender_sunk"] == [2, 3] and first["attacker_sunk"] == [1]
    assert force(result, "AEG", EGY).galleys == [1] and MAC not in result.state.areas["AEG"].units
    assert len(events(result, "naval_round")) == 1  # C-7.5: Macedonia has no galley left


def test_C_7_4_hits_beyond_the_defenders_galleys_are_lost() -> None:
    state = at_sea(duel(), "AEG", 2, MAC)
    result = play(state, naval("AEG"), dice=[GALLEY] * 4 + [BLANK] * 2)
    assert events(result, "naval_round")[0]["defender_sunk"] == [1]
    assert EGY not in result.state.areas["AEG"].units and force(result, "AEG", MAC).galleys == [1, 2]


def test_C_7_4_all_sunk_galleys_are_removed_together_at_the_end_of_the_round() -> None:
    result = play(duel(), naval("AEG"), dice=[GALLEY, BLANK, GALLEY, BLANK])
    assert [e.seat for e in result.events if e.kind == "galleys_sunk"] == [MAC, EGY]
    assert not result.state.areas["AEG"].units and len(result.dice) == 4
    assert result.state.players[EGY].captives == [Captive(MAC, 1)]
    assert result.state.players[MAC].captives == [Captive(EGY, 2)]


def test_C_7_5_the_battle_ends_as_soon_as_a_side_has_no_galleys() -> None:
    state = at_sea(duel(), "AEG", 2, MAC)
    result = play(
        state,
        naval("AEG"),
        dice=[
            BLANK,
            BLANK,
            BLANK,
            BLANK,
            BLANK,
            BLANK,  # round 1
            GALLEY,
            BLANK,
            BLANK,
            BLANK,
            BLANK,
            BLANK,
        ],
    )  # round 2
    assert [r["round"] for r in events(result, "naval_round")] == [1, 2] and len(result.dice) == 12
    assert force(result, "AEG", MAC).galleys == [1, 2] and EGY not in result.state.areas["AEG"].units
    assert events(result, "naval_end") == [{"area": "AEG", "defender": EGY}]


def test_C_7_6_a_sunk_galley_takes_its_units_down_and_its_leaders_are_captured_by_the_sinker() -> None:
    result = play(duel(), naval("AEG"), dice=[GALLEY, BLANK, BLANK, BLANK])
    assert EGY not in result.state.areas["AEG"].units
    egypt_infantry = sum(a.units[EGY].infantry for a in result.state.areas.values() if EGY in a.units)
    assert egypt_infantry == 2  # 5 at the start, 3 went down with the galley
    assert result.state.players[MAC].captives == [Captive(EGY, 2)]
    assert events(result, "captured") == [
        {"owner": EGY, "leader": "G2", "area": "AEG", "choice": "ransom", "rule": "C-7.6"}
    ]
    assert force(result, "AEG", MAC).aboard == {1: Cargo(generals=[1], infantry=2)}


def test_C_7_7_a_naval_battle_changes_control_of_no_province() -> None:
    state = duel()
    state.area("THR").owner = EGY
    result = play(state, naval("AEG"), dice=[GALLEY, BLANK, BLANK, GALLEY])
    assert owners(result.state) == owners(state)
    assert not events(result, "conquered")
    assert result.state.areas["AEG"].owner is None


# -- C-16.12, C-16.13: Caesars at sea -----------------------------------------------------------------------------


def test_C_16_12_the_active_players_caesar_sunk_in_his_own_naval_battle() -> None:
    state = at_sea(start(), "AEG", 1, MAC, (CAESAR,))
    at_sea(state, "AEG", 1, EGY)
    state.players[MAC].treasury = 20
    result = play(
        state,
        naval("AEG", line=1),
        Buy((Purchase("infantry"),), line=2, text="BUY 1 INF"),
        dice=[BLANK, BLANK, GALLEY, BLANK],
    )
    mac, egy = result.state.players[MAC], result.state.players[EGY]
    assert mac.eliminated and mac.captor == EGY
    assert egy.treasury == 20 and result.state.areas["MAC"].owner == EGY
    assert force(result, "MAC", EGY) == Force(generals=[5, 6, 7, 8], infantry=5)
    assert not any(MAC in a.units for a in result.state.areas.values())
    # the rest of the turn follows C-8.10: phases 3 to 6 are skipped, the next player in turn order follows
    assert verdicts(result) == [OK, (False, "C-8.10")]
    assert not events(result, "tribute") and result.state.active == EGY
    assert egy.tribute == 30


def test_C_16_13_both_caesars_sink_the_attacker_falls_first_and_the_defenders_leaders_go_free() -> None:
    state = at_sea(start(), "AEG", 1, MAC, (CAESAR,), inf=2)
    at_sea(state, "AEG", 1, EGY, (CAESAR, 1), inf=1)
    result = play(state, naval("AEG"), dice=[GALLEY, BLANK, GALLEY, BLANK])
    assert result.state.players[MAC].eliminated and not result.state.players[EGY].eliminated
    assert [(e.seat, e.data["leader"]) for e in result.events if e.kind == "captured"] == [(EGY, "Caesar")]
    assert [(e.seat, e.data["leader"], e.data["area"]) for e in result.events if e.kind == "freed"] == [
        (EGY, "G1", "EGY"),
        (EGY, "Caesar", "EGY"),
    ]
    home = force(result, "EGY", EGY)
    assert (home.caesar, sorted(home.generals), home.infantry) == (1, [1, 2, 3, 4], 4)
    assert result.state.players[EGY].captives == []
    assert not result.state.areas["AEG"].units


def test_C_16_13_a_freed_caesar_whose_home_is_lost_goes_to_another_province_he_controls() -> None:
    state = at_sea(start(), "AEG", 1, MAC, (CAESAR,))
    at_sea(state, "AEG", 1, EGY, (CAESAR,))
    home = state.areas["EGY"]
    home.owner = HIS  # Hispania took Egypt; Egyptus's remaining pieces hold Cyrenaica
    state.areas["CYR"] = Area(owner=EGY, units={EGY: home.units.pop(EGY)})
    state.force("CYR", EGY).infantry = 4
    result = play(state, naval("AEG"), dice=[GALLEY, BLANK, GALLEY, BLANK])
    # Egyptus now controls Macedonia (5 INF taken over) and Cyrenaica (4 INF): the default is the province
    # with most of his combat units (C-15.12)
    assert force(result, "MAC", EGY).caesar == 1 and force(result, "EGY", EGY).caesar == 0
    assert decisions(result, "freed.") == [(EGY, "freed.Caesar", "MAC", "default")]
    answered = play(state, naval("AEG"), dice=[GALLEY, BLANK, GALLEY, BLANK], answers={EGY: {"freed.Caesar": "CYR"}})
    assert force(answered, "CYR", EGY).caesar == 1


def test_C_7_6_the_defenders_caesar_sunk_and_his_other_fleet_is_no_longer_an_enemy() -> None:
    state = at_sea(start(), "AEG", 1, MAC, (1,), inf=1)
    at_sea(state, "AEG", 1, EGY, (CAESAR,), inf=1)
    at_sea(state, "AEG", 2, EGY)
    at_sea(at_sea(state, "ALX", 1, MAC), "ALX", 3, EGY)
    # both sides score: Macedonia's G1 is captured first (C-8.13), then Egyptus's Caesar; Egyptus falls and
    # Macedonia, taking over his prisoners, gets G1 back (C-8.9)
    result = play(state, naval("AEG", line=1), naval("ALX", line=2), dice=[GALLEY, GALLEY, GALLEY, BLANK, BLANK, BLANK])
    assert result.state.players[EGY].eliminated and result.state.players[EGY].captor == MAC
    assert [(e.seat, e.data["leader"]) for e in result.events if e.kind == "captured"] == [(EGY, "G1"), (MAC, "Caesar")]
    assert [(e.seat, e.data["leader"], e.data["area"]) for e in result.events if e.kind == "freed"] == [
        (MAC, "G1", "MAC")
    ]
    assert result.state.players[MAC].captives == []
    # the battle declared in the Alexandrian sea is not fought: both fleets there are Macedonia's now
    assert [e["area"] for e in events(result, "naval_battle")] == ["AEG"]
    assert force(result, "ALX", MAC).galleys == [1, 2] and len(result.dice) == 6


# -- C-15.10: which galleys sink -----------------------------------------------------------------------------------


def fleet() -> GameState:
    """Egyptus in the Aegean: galley 1 with the Caesar, 2 with G1 and 3 INF, 3 with G2 and 1 INF, 4 empty;
    Macedonia: two empty galleys."""
    state = at_sea(start(), "AEG", 1, EGY, (CAESAR,))
    at_sea(state, "AEG", 2, EGY, (1,), inf=3)
    at_sea(state, "AEG", 3, EGY, (2,), inf=1)
    at_sea(state, "AEG", 4, EGY)
    return at_sea(at_sea(state, "AEG", 1, MAC), "AEG", 2, MAC)


def one_round(hits: int) -> list[int]:
    """Macedonia's 4 dice with `hits` galley faces, Egyptus's 8 blank dice, then two rounds without hits."""
    return [GALLEY] * hits + [BLANK] * (4 - hits) + [BLANK] * 8 + [BLANK] * 2 * (4 + 2 * (4 - hits))


def test_C_15_10_default_empty_first_then_fewest_units_generals_before_the_caesar() -> None:
    result = play(fleet(), naval("AEG"), dice=one_round(3))
    assert events(result, "naval_round")[0]["defender_sunk"] == [4, 3, 2]
    assert decisions(result, "naval.") == [(EGY, "naval.AEG.1.losses", "galley 4, galley 3, galley 2", "default")]
    assert force(result, "AEG", EGY).galleys == [1] and force(result, "AEG", EGY).caesar == 1


def test_C_15_10_standing_order_of_the_defender() -> None:
    state = fleet()
    state.players[EGY].standing["naval_losses"] = ["generals", "empty"]
    result = play(state, naval("AEG"), dice=one_round(2))
    assert events(result, "naval_round")[0]["defender_sunk"] == [3, 2]
    assert decisions(result, "naval.") == [(EGY, "naval.AEG.1.losses", "galley 3, galley 2", "standing order")]


def test_C_15_10_an_answer_beats_the_standing_order_and_a_bad_answer_is_refused() -> None:
    state = fleet()
    state.players[EGY].standing["naval_losses"] = ["generals"]
    result = play(state, naval("AEG"), dice=one_round(1), answers={EGY: {"naval.AEG.1.losses": "galley 4"}})
    assert events(result, "naval_round")[0]["defender_sunk"] == [4]
    assert decisions(result, "naval.")[0][3] == "answer"
    result = play(state, naval("AEG"), dice=one_round(1), answers={EGY: {"naval.AEG.1.losses": "7"}})
    assert events(result, "naval_round")[0]["defender_sunk"] == [3]
    assert [e["key"] for e in events(result, "answer_refused")] == ["naval.AEG.1.losses"]


def test_C_15_10_the_attacker_chooses_his_own_losses() -> None:
    state = at_sea(at_sea(start(), "AEG", 1, MAC, (1,), inf=1), "AEG", 2, MAC)
    at_sea(state, "AEG", 1, EGY)
    dice = [BLANK] * 4 + [GALLEY, BLANK] + [BLANK] * 8  # then two rounds of one galley against one
    assert force(play(state, naval("AEG"), dice=dice), "AEG", MAC).galleys == [1]  # default: the empty one
    result = play(state, naval("AEG"), dice=dice, answers={MAC: {"naval.AEG.1.losses": "1"}})
    assert force(result, "AEG", MAC).galleys == [2]
    assert result.state.players[EGY].captives == [Captive(MAC, 1)]


def test_C_15_10_no_decision_when_there_is_nothing_to_choose() -> None:
    result = play(fleet(), naval("AEG"), dice=one_round(0))
    assert decisions(result, "naval.") == []  # no hits in any round
    state = at_sea(at_sea(start(), "AEG", 1, EGY), "AEG", 2, EGY, (1,), inf=1)
    at_sea(state, "AEG", 1, MAC)
    result = play(state, naval("AEG"), dice=[GALLEY, GALLEY] + [BLANK] * 4)
    assert decisions(result, "naval.") == []  # every galley sinks
    assert EGY not in result.state.areas["AEG"].units


def test_C_15_3_C_15_4_a_declared_naval_battle_is_fought_in_the_order_of_the_battles_order() -> None:
    state = duel()
    place(state, "THR", MAC, owner=False, generals=[3], infantry=1)
    place(state, "THR", HIS, owner=True, infantry=1)
    state.force("MAC", MAC).generals.remove(3)
    state.force("MAC", MAC).infantry -= 1
    orders: list[Order] = [naval("AEG", line=1), BattleOrder(("AEG", "THR"), line=2, text="BATTLES AEG, THR")]
    result = play(state, *orders, dice=[GALLEY, BLANK, BLANK, BLANK] + [1, 6])
    kinds = [e.kind for e in result.events if e.kind in ("naval_battle", "battle")]
    assert kinds == ["naval_battle", "battle"] and verdicts(result) == [OK, OK]
    assert result.state.areas["THR"].owner == MAC
