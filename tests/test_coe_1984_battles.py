"""Rule tests for the 1984 battles (O-6.1 to O-6.27), the battle decisions (O-14.3 to O-14.7, O-14.10) and
their edge cases (O-15.1 to O-15.12). Every test gives the dice and checks every shot: who shot, at what,
the number needed, the die (or "automatic") and the hit. Macedonia (the active player) attacks, Egyptus
defends. Test names carry the rule IDs of games/coe-1984/rules.md.

Dice order (O-6.13): one die per shot that needs a roll, attacker, defender, attacker, ...; automatic hits
consume none.
"""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator.render import environment
from adjudicator.rulesets.coe.orders import CAESAR, BattleOrder, Priority, RetreatRule
from adjudicator.rulesets.coe.state import Captive, Cargo, GameState
from adjudicator.rulesets.coe.turn import TurnResult
from tests.helpers import force, march, place, play, road, sail, start

ATT, DEF, THIRD = "Macedonia", "Egyptus", "Hispania"
AUTO = "automatic"


def game() -> GameState:
    return start(ruleset="coe-1984")


def take_leaders(state: GameState, seat: str, leaders: list[int]) -> None:
    """Leaders leave their home province (to be put elsewhere by the caller)."""
    home = state.force(state.players[seat].home, seat)
    for number in leaders:
        if number == CAESAR:
            home.caesar = 0
        else:
            home.generals.remove(number)


def contest(
    area: str = "THR",
    owner: str | None = DEF,
    city: str | None = None,
    *,
    att: dict[str, Any],
    dfn: dict[str, Any],
    state: GameState | None = None,
) -> GameState:
    """Macedonia's pieces `att` and Egyptus's pieces `dfn` in `area` (leaders taken from their homes,
    combat units new from the shared supply)."""
    state = state or game()
    for seat, pieces in ((ATT, att), (DEF, dfn)):
        take_leaders(state, seat, pieces.get("generals", []) + ([CAESAR] if pieces.get("caesar") else []))
        place(state, area, seat, owner=False, **{k: list(v) if isinstance(v, list) else v for k, v in pieces.items()})
    state.area(area).owner = owner
    state.area(area).city = city
    return state


def at_sea(
    state: GameState,
    zone: str,
    galley: int,
    seat: str,
    leaders: tuple[int, ...] = (),
    inf: int = 0,
    cav: int = 0,
    cat: int = 0,
) -> GameState:
    """`seat`'s galley in a sea zone carrying leaders (from home) and new combat units."""
    take_leaders(state, seat, list(leaders))
    sea = state.force(zone, seat)
    sea.caesar = sea.caesar or int(CAESAR in leaders)
    sea.generals += [n for n in leaders if n]
    sea.infantry += inf
    sea.cavalry += cav
    sea.catapult += cat
    sea.galleys.append(galley)
    if leaders or inf or cav or cat:
        sea.aboard[galley] = Cargo(
            caesar=int(CAESAR in leaders), generals=[n for n in leaders if n], infantry=inf, cavalry=cav, catapult=cat
        )
    return state


def fleet_at_mac(state: GameState, *galleys: int) -> GameState:
    """Macedonia's galleys on the Aegean coast of its home province."""
    mac = state.force("MAC", ATT)
    for number in galleys:
        mac.galleys.append(number)
        mac.galley_coasts[number] = "AEG"
    return state


def answer(seat: str, **keys: str) -> dict[str, dict[str, str]]:
    """Answers of one seat; '_' in the key words stands for '.' (battle_THR_1_retreat)."""
    return {seat: {k.replace("_", "."): v for k, v in keys.items()}}


def both(*answer_sets: dict[str, dict[str, str]]) -> dict[str, dict[str, str]]:
    merged: dict[str, dict[str, str]] = {}
    for answers in answer_sets:
        for seat, keys in answers.items():
            merged.setdefault(seat, {}).update(keys)
    return merged


def shots(result: TurnResult) -> list[tuple[str, str, int, int | str, bool]]:
    """(shooter, target, number needed, die or 'automatic', hit) of every shot, in order."""
    return [
        (
            e.seat or "",
            e.data["target"] + (f" {e.data['galley']}" if e.data["galley"] else ""),
            e.data["needed"],
            e.data["die"],
            e.data["hit"],
        )
        for e in result.events
        if e.kind == "shot"
    ]


def events(result: TurnResult, kind: str) -> list[dict[str, Any]]:
    return [e.data for e in result.events if e.kind == kind]


def decisions(result: TurnResult, ending: str = "") -> list[tuple[str, str, str, str]]:
    """(seat, key, choice, source) of every decision whose key ends with `ending`."""
    return [
        (e.seat or "", e.data["key"], e.data["choice"], e.data["source"])
        for e in result.events
        if e.kind == "decision" and e.data["key"].endswith(ending)
    ]


def purposes(result: TurnResult) -> list[str]:
    return [purpose for purpose, _ in result.dice]


def ending(result: TurnResult) -> list[tuple[str, str, str]]:
    return [(e["area"], e["winner"], e["how"]) for e in events(result, "battle_end")]


def retreat_rule(
    condition: str, threshold: int | None = None, origin: str | None = None, to: list[str] | None = None
) -> dict[str, Any]:
    return {"from": origin, "condition": condition, "threshold": threshold, "to": to or []}


def retreat_to(area: str, cycle: int = 1, where: str = "THR") -> dict[str, dict[str, str]]:
    return {ATT: {f"battle.{where}.{cycle}.retreat": f"retreat to {area}"}}


# -- O-6.1 to O-6.4, O-14.3: when and where; who fights -----------------------------------------------------


def test_O_6_1_O_6_4_every_combat_unit_fights_and_galleys_are_no_defenders() -> None:
    # 8 attacking infantry all fight (no battle legion); Egyptus's galley in THR is no target.
    state = contest(att={"generals": [1, 2], "infantry": 8}, dfn={"generals": [1], "infantry": 1, "galleys": [1]})
    place(state, "MOE", ATT, owner=False, generals=[3], infantry=1)
    take_leaders(state, ATT, [3])
    place(state, "MOE", DEF, owner=True, generals=[3], infantry=1)
    take_leaders(state, DEF, [3])
    place(state, "ACH", ATT, owner=False, generals=[4], infantry=1)
    take_leaders(state, ATT, [4])
    place(state, "ACH", DEF, owner=True, galleys=[2])  # galleys alone: no battle in ACH (conquest instead)
    result = play(state, dice=[4, 4])
    assert [(e["area"], e["defender"], e["attacker_forces"]) for e in events(result, "battle")] == [
        ("MOE", DEF, "1 INF"),
        ("THR", DEF, "8 INF"),
    ]
    assert shots(result) == [(ATT, "infantry", 4, 4, True), (ATT, "infantry", 4, 4, True)]
    assert purposes(result) == ["MOE cycle 1: attacker", "THR cycle 1: attacker"]
    assert force(result, "THR", ATT).infantry == 8  # all fought, none lost
    assert result.state.areas["ACH"].owner == ATT and force(result, "ACH", DEF).galleys == []
    assert force(result, "THR", DEF).galleys == []  # destroyed by the conquest (O-6.22), never shot


def two_battles() -> GameState:
    state = contest(att={"generals": [1], "infantry": 1}, dfn={"generals": [1], "infantry": 1})
    take_leaders(state, ATT, [2])
    place(state, "ACH", ATT, owner=False, generals=[2], infantry=1)
    take_leaders(state, DEF, [2])
    place(state, "ACH", DEF, owner=True, generals=[2], infantry=1)
    return state


def test_O_6_3_O_14_3_battles_by_area_code_unless_ordered_each_fought_to_its_end() -> None:
    result = play(two_battles(), dice=[6, 1, 1, 6])
    assert [e["area"] for e in events(result, "battle")] == ["ACH", "THR"]
    assert purposes(result) == [
        "ACH cycle 1: attacker",
        "THR cycle 1: attacker",
        "THR cycle 1: defender",
        "THR cycle 2: attacker",
    ]
    result = play(two_battles(), BattleOrder(("THR", "ACH"), line=1, text="battles THR ACH"), dice=[1, 1, 6, 6])
    assert [e["area"] for e in events(result, "battle")] == ["THR", "ACH"]
    assert purposes(result) == [
        "THR cycle 1: attacker",
        "THR cycle 1: defender",
        "THR cycle 2: attacker",
        "ACH cycle 1: attacker",
    ]
    assert ending(result) == [("THR", ATT, "elimination"), ("ACH", ATT, "elimination")]


def test_O_6_2_O_6_23_naval_battle_compulsory_in_a_zone_entered_with_a_galley() -> None:
    state = fleet_at_mac(game(), 1)
    at_sea(state, "AEG", 1, DEF, (2,), inf=1)
    at_sea(state, "EPI", 5, ATT, (3,), inf=1)  # Macedonia's galley 5 did not enter EPI: no battle there
    at_sea(state, "EPI", 2, DEF, (3,), inf=1)
    result = play(state, sail((1,), "MAC", "AEG", leaders=(1,), inf=2), dice=[4, 1, 3])  # no NAVAL order
    assert [(e["area"], e["defender"]) for e in events(result, "naval_battle")] == [("AEG", DEF)]
    assert shots(result) == [
        (ATT, "infantry 1", 4, 4, True),
        (DEF, "infantry 1", 4, 1, False),
        (ATT, "galley 1", 3, 3, True),
    ]
    assert purposes(result) == ["AEG cycle 1: attacker", "AEG cycle 1: defender", "AEG cycle 2: attacker"]
    assert force(result, "AEG", DEF).galleys == [] and force(result, "EPI", DEF).galleys == [2]


def test_O_6_2_one_naval_battle_against_each_other_player_in_the_zone() -> None:
    state = game()
    state = fleet_at_mac(state, 1)
    at_sea(state, "AEG", 1, DEF)
    at_sea(state, "AEG", 1, THIRD)
    result = play(state, sail((1,), "MAC", "AEG", leaders=(1,), inf=2), dice=[3, 3])
    assert [e["defender"] for e in events(result, "naval_battle")] == [DEF, THIRD]
    assert shots(result) == [(ATT, "galley 1", 3, 3, True), (ATT, "galley 1", 3, 3, True)]
    assert force(result, "AEG", ATT).galleys == [1] and set(result.state.areas["AEG"].units) == {ATT}


# -- O-6.5, O-6.6, O-15.3 to O-15.5: strength and advantage --------------------------------------------------


def test_O_6_5_O_15_4_catapults_and_the_defenders_fortified_city_the_weaker_side_has_no_advantage() -> None:
    # Macedonia 3 catapults (strength 3) against 1 catapult and a fortified city (strength 2).
    state = contest(
        city="fortified",
        att={"generals": [1], "catapult": 3, "infantry": 1},
        dfn={"generals": [1], "catapult": 1, "infantry": 1},
    )
    result = play(state, dice=[3, 1, 5], answers=answer(DEF, battle_THR_1_target="inf"))
    (battle,) = events(result, "battle")
    assert (battle["attacker_strength"], battle["defender_strength"]) == (3, 2)
    assert [(e["shooter"], e["advantage"]) for e in events(result, "shot")] == [(ATT, 1), (DEF, 0), (ATT, 1)]
    assert shots(result) == [
        (ATT, "infantry", 3, 3, True),
        (DEF, "infantry", 4, 1, False),
        (ATT, "catapult", 5, 5, True),
    ]
    assert result.state.areas["THR"].owner == ATT and result.state.areas["THR"].city == "fortified"


def test_O_6_5_O_15_5_equal_strengths_cancel_out() -> None:
    state = contest(
        city="fortified",
        att={"generals": [1], "catapult": 2, "infantry": 1},
        dfn={"generals": [1], "catapult": 1, "infantry": 1},
    )
    result = play(state, dice=[4, 3, 6])
    assert [(e["attacker_strength"], e["defender_strength"]) for e in events(result, "battle")] == [(2, 2)]
    assert shots(result) == [
        (ATT, "infantry", 4, 4, True),
        (DEF, "infantry", 4, 3, False),
        (ATT, "catapult", 6, 6, True),
    ]


def test_O_6_5_the_attacker_never_counts_a_fortified_city() -> None:
    # The fortified city in THR is Macedonia's: it gives the attacker nothing, and nothing to Egyptus either.
    state = contest(
        owner=ATT, city="fortified", att={"generals": [1], "infantry": 1}, dfn={"generals": [1], "infantry": 1}
    )
    result = play(state, dice=[3, 3, 4])
    assert [(e["attacker_strength"], e["defender_strength"]) for e in events(result, "battle")] == [(0, 0)]
    assert shots(result) == [
        (ATT, "infantry", 4, 3, False),
        (DEF, "infantry", 4, 3, False),
        (ATT, "infantry", 4, 4, True),
    ]


def test_O_6_6_O_15_3_a_catapult_hit_by_the_attacker_changes_the_defenders_reply_at_once() -> None:
    state = contest(att={"generals": [1], "infantry": 2}, dfn={"generals": [1], "catapult": 1, "infantry": 1})
    result = play(state, dice=[6, 3, 4], answers=answer(ATT, battle_THR_1_target="cat"))
    # without the catapult Egyptus has no advantage: 4+ for infantry, so the 3 misses
    assert shots(result) == [
        (ATT, "catapult", 6, 6, True),
        (DEF, "infantry", 4, 3, False),
        (ATT, "infantry", 4, 4, True),
    ]


def test_O_6_6_O_15_3_a_catapult_hit_by_the_defender_counts_from_the_next_cycle() -> None:
    state = contest(att={"generals": [1], "catapult": 1, "infantry": 1}, dfn={"generals": [1], "infantry": 2})
    result = play(state, dice=[1, 6, 3, 4], answers=answer(DEF, battle_THR_1_target="cat"))
    assert shots(result) == [
        (ATT, "infantry", 3, 1, False),
        (DEF, "catapult", 6, 6, True),
        (ATT, "infantry", 4, 3, False),
        (DEF, "infantry", 4, 4, True),
    ]
    assert ending(result) == [("THR", DEF, "elimination")]


# -- O-6.7, O-15.1, O-15.2: target numbers -----------------------------------------------------------------

TABLE = {  # O-6.7: advantage 0 to 5
    "infantry": ["4+", "3+", "2+", AUTO, AUTO, AUTO],
    "cavalry": ["5+", "4+", "3+", "2+", AUTO, AUTO],
    "catapult": ["6+", "5+", "4+", "3+", "2+", AUTO],
}


@pytest.mark.parametrize("kind", sorted(TABLE))
@pytest.mark.parametrize("advantage", range(6))
def test_O_6_7_O_15_1_O_15_2_target_numbers_fall_with_the_advantage(kind: str, advantage: int) -> None:
    defending_catapults = int(kind == "catapult")
    state = contest(
        att={"generals": [1], "catapult": advantage + defending_catapults, "infantry": 1},
        dfn={"generals": [1], kind: 1},
    )
    expected = TABLE[kind][advantage]
    needed = int(expected[0]) if expected != AUTO else None
    result = play(state, dice=[needed] if needed else [])
    ((shooter, target, number, die, hit),) = shots(result)  # O-15.2: the last unit gone, no reply
    assert (shooter, target, hit) == (ATT, kind, True)
    assert number == {"infantry": 4, "cavalry": 5, "catapult": 6}[kind] - advantage
    assert die == (needed if needed else AUTO)
    assert len(result.dice) == (1 if needed else 0)  # an automatic hit rolls no die
    assert ending(result) == [("THR", ATT, "elimination")]


def test_O_15_2_the_last_defending_unit_hit_ends_the_battle_at_once_and_his_leaders_are_captured() -> None:
    state = contest(att={"generals": [1], "infantry": 1}, dfn={"caesar": 1, "generals": [1, 2], "infantry": 1})
    result = play(state, dice=[5])
    assert shots(result) == [(ATT, "infantry", 4, 5, True)]
    assert sorted(e["leader"] for e in events(result, "captured")) == ["Caesar", "G1", "G2"]
    assert result.state.players[DEF].eliminated  # O-7.5
    assert result.state.winner is None  # Hispania still plays


def test_O_6_9_O_6_10_O_15_1_automatic_hits_one_at_a_time_and_the_defender_shoots_back() -> None:
    # +3 against infantry: automatic, no die; each shot eliminates one unit and Egyptus replies every time.
    state = contest(att={"generals": [1], "catapult": 3}, dfn={"generals": [1], "infantry": 3})
    result = play(state, dice=[2, 6, 1, 1, 2])
    assert shots(result) == [
        (ATT, "infantry", 1, AUTO, True),
        (DEF, "catapult", 6, 2, False),
        (ATT, "infantry", 1, AUTO, True),
        (DEF, "catapult", 6, 6, True),
        (ATT, "infantry", 2, 1, False),
        (DEF, "catapult", 6, 1, False),  # a miss changes nothing (O-6.9)
        (ATT, "infantry", 2, 2, True),
    ]
    assert purposes(result) == [
        "THR cycle 1: defender",
        "THR cycle 2: defender",
        "THR cycle 3: attacker",
        "THR cycle 3: defender",
        "THR cycle 4: attacker",
    ]
    assert force(result, "THR", ATT).catapult == 2


def test_O_6_8_O_6_13_cycles_alternate_and_use_one_die_per_shot_in_shot_order() -> None:
    state = contest(att={"generals": [1], "infantry": 2}, dfn={"generals": [1], "infantry": 2})
    result = play(state, dice=[1, 6, 6, 1, 5])
    assert shots(result) == [
        (ATT, "infantry", 4, 1, False),
        (DEF, "infantry", 4, 6, True),
        (ATT, "infantry", 4, 6, True),
        (DEF, "infantry", 4, 1, False),
        (ATT, "infantry", 4, 5, True),
    ]
    assert purposes(result) == [
        "THR cycle 1: attacker",
        "THR cycle 1: defender",
        "THR cycle 2: attacker",
        "THR cycle 2: defender",
        "THR cycle 3: attacker",
    ]
    assert [e["cycle"] for e in events(result, "shot")] == [1, 1, 2, 2, 3]
    assert decisions(result, "retreat") == [
        (ATT, "battle.THR.1.retreat", "continue", "default"),
        (ATT, "battle.THR.2.retreat", "continue", "default"),
    ]
    assert force(result, "THR", ATT).infantry == 1 and result.state.areas["THR"].owner == ATT


def test_O_6_8_every_shot_is_told_in_the_report() -> None:
    state = contest(att={"generals": [1], "catapult": 3}, dfn={"generals": [1], "infantry": 1, "cavalry": 1})
    result = play(state, dice=[1, 3])
    macro = environment().from_string('{% from "coe/events.j2" import sentence %}{{ sentence(e) }}')
    lines = [macro.render(e=e).strip() for e in result.events if e.kind in ("shot", "battle_end")]
    assert lines == [
        "Macedonia shoots at Egyptus's infantry with advantage +3: automatic hit [O-6.7]",
        "Egyptus shoots at Macedonia's catapult: needs 6+, rolls 1: miss [O-6.7]",
        "Macedonia shoots at Egyptus's cavalry with advantage +3: needs 2+, rolls 3: hit [O-6.7]",
        "The battle in THR ends by elimination: Macedonia wins",
    ]


def test_O_6_11_the_shooter_names_the_unit_hit_not_the_owner() -> None:
    state = contest(att={"generals": [1], "infantry": 2}, dfn={"generals": [1], "infantry": 1, "cavalry": 1})
    state.players[DEF].standing["losses"] = ["infantry"]  # a Classic standing order counts for nothing here
    result = play(state, dice=[5, 1, 4], answers=answer(ATT, battle_THR_1_target="cav"))
    assert shots(result) == [
        (ATT, "cavalry", 5, 5, True),
        (DEF, "infantry", 4, 1, False),
        (ATT, "infantry", 4, 4, True),
    ]
    assert decisions(result, "target")[0] == (ATT, "battle.THR.1.target", "cavalry", "answer")


# -- O-6.12, O-6.14, O-6.18, O-6.22, O-7.1: the ends of a battle ------------------------------------------------


def test_O_6_12_O_6_14_A_O_6_18_O_7_1_attacker_eliminated_leaders_captured_galleys_destroyed() -> None:
    state = fleet_at_mac(game(), 1)
    state.players[DEF].standing["captives"] = {"*": "kill"}
    contest(att={}, dfn={"generals": [1], "infantry": 1}, state=state)
    result = play(state, sail((1,), "MAC", "AEG", "THR", leaders=(1, 2), inf=1), dice=[1, 6])
    assert shots(result) == [(ATT, "infantry", 4, 1, False), (DEF, "infantry", 4, 6, True)]
    assert ending(result) == [("THR", DEF, "elimination")]
    assert not decisions(result, "retreat")  # the battle ended at step 8, before any retreat (O-6.8)
    assert events(result, "galleys_destroyed") == [{"area": "THR", "galleys": [1], "rule": "O-6.18"}]
    assert [(e["leader"], e["choice"], e["rule"]) for e in events(result, "captured")] == [
        ("G1", "kill", "O-6.14"),
        ("G2", "kill", "O-6.14"),
    ]
    assert ATT not in result.state.areas["THR"].units
    assert result.state.areas["THR"].owner == DEF and force(result, "THR", DEF).infantry == 1


def test_O_6_14_C_O_6_20_O_6_22_the_attacker_conquers_with_every_effect() -> None:
    state = contest(
        city="city", att={"generals": [1], "infantry": 2}, dfn={"generals": [1, 2], "infantry": 1, "galleys": [1]}
    )
    road(state, "THR", "MOE")
    state.area("MOE").owner = DEF
    result = play(state, dice=[4])
    assert shots(result) == [(ATT, "infantry", 4, 4, True)]
    thr = result.state.areas["THR"]
    assert (thr.owner, thr.city, thr.roads) == (ATT, "city", [])  # the city passes, its roads go (O-15.15)
    assert result.state.areas["MOE"].roads == [] and result.state.areas["MOE"].city == "city"
    assert force(result, "THR", DEF).galleys == [] and DEF not in thr.units
    assert [c.general for c in result.state.players[ATT].captives] == [1, 2]
    assert result.state.players[ATT].tribute == 10 + 5 + 5 + 5  # MAC and its city, THR and its city
    assert force(result, "THR", ATT).infantry == 2 and force(result, "THR", ATT).generals == [1]  # O-6.20


def test_O_6_14_B_O_6_16_O_6_21_retreat_takes_every_unit_and_leader_into_one_controlled_province() -> None:
    state = contest(
        att={"caesar": 1, "generals": [1], "infantry": 7, "catapult": 1}, dfn={"generals": [1], "infantry": 3}
    )
    result = play(state, dice=[1, 6], answers=retreat_to("MAC"))
    assert shots(result) == [(ATT, "infantry", 3, 1, False), (DEF, "infantry", 4, 6, True)]
    assert events(result, "retreat") == [{"area": "THR", "to": "MAC", "rule": "O-6.16"}]
    assert ending(result) == [("THR", DEF, "retreat")]
    mac = force(result, "MAC", ATT)
    assert (mac.caesar, sorted(mac.generals), mac.infantry, mac.catapult) == (1, [1, 2, 3, 4, 5, 6], 4 + 6, 1)
    assert ATT not in result.state.areas["THR"].units and result.state.areas["THR"].owner == DEF


def test_O_6_15_O_15_11_only_the_attacker_retreats_and_only_after_the_defenders_shot() -> None:
    state = contest(att={"generals": [1], "infantry": 2}, dfn={"generals": [1], "infantry": 2})
    state.players[DEF].standing["retreat"] = [retreat_rule("units_below", 9)]
    answers = both(retreat_to("MAC"), answer(DEF, battle_THR_1_retreat="retreat to EGY"))
    result = play(state, dice=[6, 1], answers=answers)
    assert shots(result) == [(ATT, "infantry", 4, 6, True), (DEF, "infantry", 4, 1, False)]
    assert decisions(result, "retreat") == [(ATT, "battle.THR.1.retreat", "retreat to MAC", "answer")]
    assert force(result, "MAC", ATT).infantry == 4 + 2 and force(result, "THR", DEF).infantry == 1


def test_O_6_16_O_15_10_no_retreat_into_a_neutral_or_enemy_neighbour() -> None:
    state = contest(att={"generals": [1], "infantry": 2}, dfn={"generals": [1], "infantry": 2})
    answers = both(retreat_to("MOE", 1), {ATT: {"battle.THR.2.retreat": "retreat"}})
    result = play(state, dice=[1, 1, 1, 1], answers=answers)
    assert [e["answer"] for e in events(result, "answer_refused")] == ["retreat to MOE"]
    assert decisions(result, "retreat") == [
        (ATT, "battle.THR.1.retreat", "continue", "default"),
        (ATT, "battle.THR.2.retreat", "retreat to MAC", "answer"),
    ]
    assert events(result, "retreat")[0]["to"] == "MAC" and len(result.dice) == 4


def test_O_6_16_no_controlled_neighbour_no_retreat() -> None:
    state = contest("PAL", att={"generals": [1], "infantry": 1}, dfn={"generals": [1], "infantry": 1})
    result = play(state, dice=[1, 1, 1, 6], answers={ATT: {"battle.PAL.1.retreat": "retreat"}})
    assert not decisions(result, "retreat")
    assert events(result, "retreat_impossible") == [
        {"area": "PAL", "reason": "no adjacent province of Macedonia's to retreat into", "rule": "O-6.16"}
    ]
    assert ending(result) == [("PAL", DEF, "elimination")]


def landing(land: int = 0, sea: int = 2) -> tuple[GameState, list[Any]]:
    """Egyptus holds THR with G1 and 4 INF; Macedonia lands G1 with `sea` INF from galley 1 (MAC -> AEG -> THR)
    and marches G2 with `land` INF from MAC."""
    state = fleet_at_mac(game(), 1)
    contest(att={}, dfn={"generals": [1], "infantry": 4}, state=state)
    state.force("MAC", ATT).infantry = 7
    orders: list[Any] = [sail((1,), "MAC", "AEG", "THR", leaders=(1,), inf=sea, line=1)]
    if land:
        orders.append(march((2,), "MAC", "THR", inf=land, line=2))
    return state, orders


def test_O_6_17_O_15_8_an_attack_made_entirely_from_the_sea_cannot_retreat() -> None:
    state, orders = landing(sea=2)
    result = play(state, *orders, dice=[1, 6, 1, 6], answers=retreat_to("MAC"))  # MAC is his, next door
    assert shots(result) == [
        (ATT, "infantry", 4, 1, False),
        (DEF, "infantry", 4, 6, True),
        (ATT, "infantry", 4, 1, False),
        (DEF, "infantry", 4, 6, True),
    ]
    assert not decisions(result, "retreat")
    assert [e["rule"] for e in events(result, "retreat_impossible")] == ["O-6.17"]
    assert ending(result) == [("THR", DEF, "elimination")]
    assert events(result, "galleys_destroyed")[0]["galleys"] == [1]


def test_O_6_17_O_15_8_an_island_attack_is_fought_to_the_end() -> None:
    state = at_sea(game(), "AEG", 1, ATT, (1,), inf=2)
    contest("CRE", att={}, dfn={"generals": [1], "infantry": 1}, state=state)
    result = play(state, sail((1,), "AEG", "CRE"), dice=[1, 1, 4], answers=retreat_to("MAC", where="CRE"))
    assert shots(result) == [
        (ATT, "infantry", 4, 1, False),
        (DEF, "infantry", 4, 1, False),
        (ATT, "infantry", 4, 4, True),
    ]
    assert [e["reason"] for e in events(result, "retreat_impossible")] == [
        "every attacking unit came by sea: the battle is fought to the end"
    ]
    assert result.state.areas["CRE"].owner == ATT and force(result, "CRE", ATT).galleys == [1]


def test_O_6_17_O_15_9_land_and_sea_attack_may_retreat_while_a_unit_that_came_by_land_survives() -> None:
    state, orders = landing(land=1, sea=2)
    answers = both(retreat_to("MAC"), answer(DEF, battle_THR_1_target="infantry by sea"))
    result = play(state, *orders, dice=[1, 6], answers=answers)
    assert shots(result) == [(ATT, "infantry", 4, 1, False), (DEF, "infantry", 4, 6, True)]
    assert events(result, "shot")[1]["origin"] == "sea"
    assert events(result, "retreat")[0]["to"] == "MAC"
    mac = force(result, "MAC", ATT)
    assert mac.infantry == 7 - 3 + 2 and 1 in mac.generals and 2 in mac.generals  # sea-borne units retreat too
    assert events(result, "galleys_destroyed") == [{"area": "THR", "galleys": [1], "rule": "O-6.18"}]


def test_O_6_17_O_15_9_once_the_units_that_came_by_land_are_lost_the_rest_cannot_retreat() -> None:
    state, orders = landing(land=1, sea=2)
    # By default the defender aims at a unit that came by land (the module's resolution of O-6.17).
    result = play(state, *orders, dice=[1, 6, 1, 6, 1, 6], answers=retreat_to("MAC", 2))
    assert shots(result) == [(ATT, "infantry", 4, 1, False), (DEF, "infantry", 4, 6, True)] * 3
    assert [e["origin"] for e in events(result, "shot")][1] == "land"
    assert decisions(result, ".1.target") == [(DEF, "battle.THR.1.target", "infantry (came by land)", "default")]
    assert not decisions(result, "retreat")
    assert events(result, "retreat_impossible")[0]["reason"].startswith("every attacking unit that came by land")
    assert ending(result) == [("THR", DEF, "elimination")]


def test_O_6_18_O_15_12_galleys_left_on_the_coast_are_destroyed_those_put_out_to_sea_are_not() -> None:
    state = contest(
        owner=None, att={"generals": [1], "infantry": 2, "galleys": [1, 2]}, dfn={"generals": [1], "infantry": 1}
    )
    result = play(state, sail((2,), "THR", "AEG"), dice=[1, 1], answers=retreat_to("MAC"))
    assert events(result, "galleys_destroyed") == [{"area": "THR", "galleys": [1], "rule": "O-6.18"}]
    assert force(result, "AEG", ATT).galleys == [2]


def test_O_6_19_no_pursuit_after_a_retreat() -> None:
    state = contest(att={"generals": [1], "infantry": 2}, dfn={"generals": [1], "cavalry": 5})
    result = play(state, dice=[1, 1], answers=retreat_to("MAC"))
    assert len(result.dice) == 2 and not events(result, "pursuit")
    assert force(result, "MAC", ATT).infantry == 4 + 2


# -- O-6.23 to O-6.27, O-15.6, O-15.7: naval battles ------------------------------------------------------


def test_O_6_24_O_6_25_O_15_6_a_galley_is_a_target_only_once_its_combat_units_are_gone() -> None:
    state = fleet_at_mac(game(), 1)
    at_sea(state, "AEG", 1, DEF, (2,), inf=1)
    answers = answer(ATT, naval_AEG_1_target="galley 1")
    result = play(state, sail((1,), "MAC", "AEG", leaders=(1,), inf=2), dice=[4, 1, 3], answers=answers)
    assert [e["answer"] for e in events(result, "answer_refused")] == []  # a single target: nothing to ask
    assert shots(result) == [
        (ATT, "infantry 1", 4, 4, True),
        (DEF, "infantry 1", 4, 1, False),
        (ATT, "galley 1", 3, 3, True),
    ]
    assert events(result, "galleys_sunk") == [{"area": "AEG", "galleys": [1], "rule": "O-6.25"}]
    assert [(e["owner"], e["leader"], e["rule"]) for e in events(result, "captured")] == [(DEF, "G2", "O-6.25")]
    assert result.state.players[ATT].captives == [Captive(DEF, 2)]


def test_O_6_24_O_15_6_a_galley_carrying_units_cannot_be_named() -> None:
    state = fleet_at_mac(game(), 1)
    at_sea(state, "AEG", 1, DEF, (2,), inf=1)
    at_sea(state, "AEG", 2, DEF, (3,))  # leaders alone do not protect a galley
    answers = answer(ATT, naval_AEG_1_target="galley 1", naval_AEG_2_target="inf 1")
    result = play(state, sail((1,), "MAC", "AEG", leaders=(1,), inf=2), dice=[1, 1, 4, 1, 3, 1, 3], answers=answers)
    assert [e["answer"] for e in events(result, "answer_refused")] == ["galley 1"]
    assert shots(result) == [
        (ATT, "galley 2", 3, 1, False),
        (DEF, "infantry 1", 4, 1, False),
        (ATT, "infantry 1", 4, 4, True),
        (DEF, "infantry 1", 4, 1, False),
        (ATT, "galley 1", 3, 3, True),
        (DEF, "infantry 1", 4, 1, False),
        (ATT, "galley 2", 3, 3, True),
    ]
    assert [(e["leader"], e["rule"]) for e in events(result, "captured")] == [("G2", "O-6.25"), ("G3", "O-6.25")]
    assert DEF not in result.state.areas["AEG"].units and force(result, "AEG", ATT).infantry == 2


def test_O_6_7_O_15_7_cavalry_aboard_is_hit_on_4() -> None:
    state = fleet_at_mac(game(), 1)
    at_sea(state, "AEG", 1, DEF, (2,), cav=1)
    result = play(state, sail((1,), "MAC", "AEG", leaders=(1,), inf=1), dice=[4, 1, 3])
    assert shots(result) == [
        (ATT, "cavalry 1", 4, 4, True),
        (DEF, "infantry 1", 4, 1, False),
        (ATT, "galley 1", 3, 3, True),
    ]


def test_O_6_5_O_6_23_catapults_aboard_count_at_sea_fortified_cities_never() -> None:
    state = fleet_at_mac(game(), 1)
    state.force("MAC", ATT).catapult = 1
    at_sea(state, "AEG", 1, DEF, (2,), inf=1)
    state.area("THR").city, state.area("THR").owner = "fortified", DEF  # a coast of AEG: no help at sea
    place(state, "THR", DEF, owner=True, generals=[3])
    take_leaders(state, DEF, [3])
    result = play(state, sail((1,), "MAC", "AEG", leaders=(1,), inf=1, cat=1), dice=[3, 1, 2])
    assert [e["advantage"] for e in events(result, "shot")] == [1, 0, 1]
    assert shots(result) == [
        (ATT, "infantry 1", 3, 3, True),
        (DEF, "infantry 1", 4, 1, False),
        (ATT, "galley 1", 2, 2, True),
    ]


def test_O_6_26_O_6_27_no_retreat_at_sea_the_battle_goes_to_the_end_and_changes_no_control() -> None:
    state = fleet_at_mac(game(), 1, 2)
    at_sea(state, "AEG", 1, DEF, (2,), inf=2)
    state.players[ATT].standing["retreat"] = [retreat_rule("units_below", 9)]
    owners = {c: a.owner for c, a in state.areas.items() if a.owner}
    answers = {ATT: {"battle.AEG.1.retreat": "retreat to MAC", "naval.AEG.1.retreat": "retreat to MAC"}}
    result = play(state, sail((1,), "MAC", "AEG", leaders=(1,), inf=1), dice=[1, 6, 1, 3], answers=answers)
    assert shots(result) == [
        (ATT, "infantry 1", 4, 1, False),
        (DEF, "infantry 1", 4, 6, True),
        (ATT, "infantry 1", 4, 1, False),
        (DEF, "galley 1", 3, 3, True),
    ]
    assert not decisions(result, "retreat") and not events(result, "retreat")
    assert events(result, "naval_end")[0]["winner"] == DEF
    assert [(e["leader"], e["rule"]) for e in events(result, "captured")] == [("G1", "O-6.25")]
    assert force(result, "MAC", ATT).galleys == [2]  # not in the battle
    assert {c: a.owner for c, a in result.state.areas.items() if a.owner} == owners


def test_O_6_25_O_7_5_the_sinker_of_the_caesars_galley_ends_that_player_and_the_battle() -> None:
    state = fleet_at_mac(game(), 1)
    at_sea(state, "AEG", 1, DEF, (CAESAR,))
    at_sea(state, "AEG", 2, DEF, (2,), inf=1)
    result = play(state, sail((1,), "MAC", "AEG", leaders=(1,), inf=2), dice=[3])
    assert shots(result) == [(ATT, "galley 1", 3, 3, True)]  # 3+ beats infantry's 4+ (O-14.4)
    assert result.state.players[DEF].eliminated and result.state.players[DEF].captor == ATT
    assert events(result, "naval_end")[0]["winner"] == ATT
    assert len(force(result, "AEG", ATT).galleys) == 2  # galley 2 and its legion taken over (O-7.6)


# -- O-14.4 to O-14.7, O-14.10: decisions --------------------------------------------------------------------


def test_O_14_4_default_target_lowest_number_then_catapult_cavalry_galley_infantry() -> None:
    # Egyptus's catapult gives him strength 1: Macedonia's 6 catapults have +5, every hit is automatic.
    state = contest(
        att={"generals": [1], "catapult": 6}, dfn={"generals": [1], "infantry": 1, "cavalry": 1, "catapult": 1}
    )
    result = play(state, dice=[1, 1])
    assert shots(result) == [
        (ATT, "catapult", 1, AUTO, True),
        (DEF, "catapult", 6, 1, False),
        (ATT, "cavalry", -1, AUTO, True),
        (DEF, "catapult", 6, 1, False),
        (ATT, "infantry", -2, AUTO, True),
    ]
    # without advantage the lowest number comes first: infantry (4) before cavalry (5)
    state = contest(att={"generals": [1], "infantry": 2}, dfn={"generals": [1], "infantry": 1, "cavalry": 1})
    result = play(state, dice=[4, 1, 5])
    assert [s[1] for s in shots(result) if s[0] == ATT] == ["infantry", "cavalry"]


def test_O_14_4_default_target_at_sea_the_caesars_galley_then_most_generals_then_lowest_number() -> None:
    state = at_sea(game(), "AEG", 1, DEF, (1,), inf=1)
    at_sea(state, "AEG", 2, DEF, (2, 3), inf=1)
    at_sea(state, "AEG", 3, DEF, (4,), inf=1)
    state = fleet_at_mac(state, 1)
    state.force("MAC", ATT).catapult = 3
    order = sail((1,), "MAC", "AEG", leaders=(1,), cat=3)  # +3: every hit automatic
    result = play(state, order, dice=[1] * 5)
    assert [s[1] for s in shots(result) if s[0] == ATT] == [
        "infantry 2",
        "galley 2",
        "infantry 1",
        "galley 1",
        "infantry 3",
        "galley 3",
    ]
    assert all(s == (DEF, "catapult 1", 6, 1, False) for s in shots(result) if s[0] == DEF)
    state = at_sea(game(), "AEG", 1, DEF, (2, 3), inf=1)
    at_sea(state, "AEG", 2, DEF, (CAESAR,), inf=1)
    state = fleet_at_mac(state, 1)
    state.force("MAC", ATT).catapult = 3
    result = play(state, order, dice=[1])
    assert [s[1] for s in shots(result) if s[0] == ATT] == ["infantry 2", "galley 2"]  # the Caesar's galley first
    assert result.state.players[DEF].eliminated


def test_O_14_4_standing_targets_order_and_answers() -> None:
    state = contest(
        att={"generals": [1], "infantry": 3}, dfn={"generals": [1], "infantry": 2, "cavalry": 1, "catapult": 1}
    )
    targets = Priority(kind="targets", values=("galley", "catapult", "cavalry"), line=1, text="TARGETS gal cat cav")
    answers = answer(ATT, battle_THR_2_target="infantry")
    result = play(state, targets, dice=[6, 1, 4, 1, 5, 1, 4], answers=answers)
    assert result.state.players[ATT].standing["targets"] == ["galley", "catapult", "cavalry"]
    assert [s[1:] for s in shots(result) if s[0] == ATT] == [
        ("catapult", 6, 6, True),
        ("infantry", 4, 4, True),
        ("cavalry", 5, 5, True),
        ("infantry", 4, 4, True),
    ]
    assert [(d[1], d[3]) for d in decisions(result, "target") if d[0] == ATT] == [
        ("battle.THR.1.target", "standing order"),
        ("battle.THR.2.target", "answer"),
        ("battle.THR.3.target", "standing order"),
    ]  # a single kind left in cycle 4: nothing to decide


def test_O_14_5_the_defender_names_his_targets_by_standing_order_or_answer() -> None:
    state = contest(
        att={"generals": [1], "infantry": 2, "cavalry": 1, "catapult": 1}, dfn={"generals": [1], "infantry": 3}
    )
    state.players[DEF].standing["targets"] = ["cavalry"]
    result = play(state, dice=[1, 5, 1, 6, 1, 1, 1, 4, 1, 6], answers=answer(DEF, battle_THR_2_target="cat"))
    assert shots(result) == [
        (ATT, "infantry", 3, 1, False),
        (DEF, "cavalry", 5, 5, True),
        (ATT, "infantry", 3, 1, False),
        (DEF, "catapult", 6, 6, True),
        (ATT, "infantry", 4, 1, False),
        (DEF, "infantry", 4, 1, False),
        (ATT, "infantry", 4, 1, False),
        (DEF, "infantry", 4, 4, True),
        (ATT, "infantry", 4, 1, False),
        (DEF, "infantry", 4, 6, True),
    ]
    assert [
        (e.data["key"], e.data["source"], e.data["rule"])
        for e in result.events
        if e.kind == "decision" and e.seat == DEF and e.data["key"].endswith("target")
    ] == [("battle.THR.1.target", "standing order", "O-14.5"), ("battle.THR.2.target", "answer", "O-14.5")]
    assert ending(result) == [("THR", DEF, "elimination")]


RETREATS = [  # (standing rule, Caesar in the battle, retreats after cycle 1 with 1 INF left against 3 INF 1 CAT)
    (retreat_rule("units_below", 2), False, True),
    (retreat_rule("units_below", 1), False, False),
    (retreat_rule("below_enemy"), False, True),
    (retreat_rule("caesar_and_units_below", 2), False, False),
    (retreat_rule("caesar_and_units_below", 2), True, True),
    (retreat_rule("enemy_advantage_at_least", 1), False, True),
    (retreat_rule("enemy_advantage_at_least", 2), False, False),
    (retreat_rule("never"), False, False),
    (retreat_rule("units_below", 2, origin="MOE"), False, False),  # a rule for another province
    (retreat_rule("units_below", 2, origin="THR", to=["MOE"]), False, False),  # MOE is not his: continue
]


@pytest.mark.parametrize(("rule", "caesar", "retreats"), RETREATS)
def test_O_14_6_retreat_by_standing_order(rule: dict[str, Any], caesar: bool, retreats: bool) -> None:
    state = contest(
        att={"generals": [1], "infantry": 2, "caesar": int(caesar)}, dfn={"generals": [1], "infantry": 3, "catapult": 1}
    )
    state.players[ATT].standing["retreat"] = [rule]
    result = play(state, dice=[1, 6, 1, 6])
    assert shots(result) == [(ATT, "infantry", 4, 1, False), (DEF, "infantry", 3, 6, True)] * (1 if retreats else 2)
    source = "standing order" if rule["from"] in (None, "THR") else "default"
    assert decisions(result, "1.retreat") == [
        (ATT, "battle.THR.1.retreat", "retreat to MAC" if retreats else "continue", source)
    ]
    assert len(result.dice) == (2 if retreats else 4)
    assert ending(result) == [("THR", DEF, "retreat" if retreats else "elimination")]


def test_O_14_6_retreat_when_the_enemy_advantage_reaches_a_threshold_now() -> None:
    def position() -> GameState:
        return contest(att={"generals": [1], "infantry": 2}, dfn={"generals": [1], "infantry": 2, "catapult": 1})

    order = RetreatRule(
        condition="enemy_advantage_at_least",
        threshold=1,
        origin="THR",
        line=1,
        text="RETREAT FROM THR WHEN ENEMY ADVANTAGE >= 1",
    )
    result = play(position(), order, dice=[1, 1])
    assert result.state.players[ATT].standing["retreat"] == [retreat_rule("enemy_advantage_at_least", 1, "THR")]
    assert shots(result) == [(ATT, "infantry", 4, 1, False), (DEF, "infantry", 3, 1, False)]
    assert decisions(result, "retreat") == [(ATT, "battle.THR.1.retreat", "retreat to MAC", "standing order")]
    # once Egyptus's catapult is gone he has no advantage any more: the battle goes on
    result = play(position(), order, dice=[6, 1, 4, 1, 4], answers=answer(ATT, battle_THR_1_target="cat"))
    assert shots(result) == [
        (ATT, "catapult", 6, 6, True),
        (DEF, "infantry", 4, 1, False),
        (ATT, "infantry", 4, 4, True),
        (DEF, "infantry", 4, 1, False),
        (ATT, "infantry", 4, 4, True),
    ]
    assert [d[2:] for d in decisions(result, "retreat")] == [("continue", "standing order")] * 2
    assert ending(result) == [("THR", ATT, "elimination")]


def test_O_14_6_default_continue_and_answers() -> None:
    state = contest(att={"generals": [1], "infantry": 2}, dfn={"generals": [1], "infantry": 3})
    result = play(state, dice=[1, 1, 1, 1], answers={ATT: {"battle.THR.2.retreat": "RETREAT TO mac"}})
    assert [d[2:] for d in decisions(result, "retreat")] == [("continue", "default"), ("retreat to MAC", "answer")]
    result = play(state, dice=[1, 1, 1, 6, 1, 6], answers={ATT: {"battle.THR.1.retreat": "maybe"}})
    assert [e["reason"] for e in events(result, "answer_refused")] == ["answer CONTINUE or RETREAT [TO] <area>"]
    assert ending(result) == [("THR", DEF, "elimination")]


def test_O_14_7_default_destination_where_most_attacking_units_came_from() -> None:
    state = contest(att={}, dfn={"generals": [1], "infantry": 3})
    place(state, "MOE", ATT, generals=[1], infantry=2)  # Macedonia's MOE (5) next to THR, besides MAC (10)
    take_leaders(state, ATT, [1])
    orders = [march((1,), "MOE", "THR", inf=2, line=1), march((2,), "MAC", "THR", inf=1, line=2)]
    result = play(state, *orders, dice=[1, 1], answers={ATT: {"battle.THR.1.retreat": "retreat"}})
    assert events(result, "retreat")[0]["to"] == "MOE"
    assert force(result, "MOE", ATT).infantry == 3


def test_O_14_7_default_destination_then_most_own_units_then_value_and_the_to_list() -> None:
    def position() -> GameState:
        state = contest(att={"generals": [1], "infantry": 2}, dfn={"generals": [1], "infantry": 3})
        take_leaders(state, ATT, [2])
        place(state, "MOE", ATT, generals=[2], infantry=1)
        return state

    state = position()
    result = play(state, dice=[1, 1], answers={ATT: {"battle.THR.1.retreat": "retreat"}})
    assert events(result, "retreat")[0]["to"] == "MAC"  # 4 INF there against 1 in MOE
    state = position()
    state.players[ATT].standing["retreat"] = [retreat_rule("units_below", 9, to=["MOE", "MAC"])]
    result = play(state, dice=[1, 1])
    assert events(result, "retreat")[0]["to"] == "MOE"
    assert decisions(result, "retreat") == [(ATT, "battle.THR.1.retreat", "retreat to MOE", "standing order")]


def test_O_14_10_the_captor_fights_the_pending_battles_with_his_own_orders() -> None:
    state = contest("ACH", att={"caesar": 1, "infantry": 1}, dfn={"generals": [1], "infantry": 1})
    take_leaders(state, ATT, [1])
    place(state, "THR", ATT, owner=False, generals=[1], infantry=2)
    take_leaders(state, THIRD, [1])
    place(state, "THR", THIRD, generals=[1], infantry=1, cavalry=1)
    state.players[DEF].standing["targets"] = ["cavalry"]
    result = play(state, dice=[1, 6, 5, 1, 4])
    assert result.state.players[ATT].eliminated and result.state.players[ATT].captor == DEF
    assert shots(result) == [
        (ATT, "infantry", 4, 1, False),
        (DEF, "infantry", 4, 6, True),  # ACH
        (DEF, "cavalry", 5, 5, True),
        (THIRD, "infantry", 4, 1, False),  # THR
        (DEF, "infantry", 4, 4, True),
    ]
    assert result.state.areas["THR"].owner == DEF
    (thr,) = [e for e in result.events if e.kind == "battle" and e.data["area"] == "THR"]
    assert thr.seat == DEF
    assert (DEF, "battle.THR.1.target", "cavalry", "standing order") in decisions(result, "target")
