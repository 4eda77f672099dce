"""Rule tests for the Classic edition outside movement, battles and capture: definitions (C-0), components
(C-1), board (C-2), setup (C-3), the turn (C-4), tribute (C-9), city destruction (C-10), purchase and inflation
(C-11), placement (C-12), ransom and agreements (C-13), concession (C-14), decisions (C-15) and the edge cases
of section 16 about them. Test names carry the rule IDs of ../shared/rules/coe-classic.md."""

from __future__ import annotations

import re

import pytest

from adjudicator.engine.chance import GivenDice, parse_dice_file
from adjudicator.resources import resource_dir
from adjudicator.rulesets.coe.dice import COMBAT_DIE_SYMBOLS
from adjudicator.rulesets.coe.economy import tribute_value
from adjudicator.rulesets.coe.orders import (
    CAESAR,
    BattleOrder,
    Concede,
    DestroyCity,
    Header,
    Homes,
    NavalBattle,
    OrderSet,
    Press,
    Purchase,
    RansomAccept,
    RansomOffer,
    Sail,
)
from adjudicator.rulesets.coe.setup import SetupError
from adjudicator.rulesets.coe.state import Captive, Force, GameState
from adjudicator.rulesets.coe.turn import NotDue, TurnResult, resolve
from adjudicator.rulesets.coe.vocabulary import PIECES, UNIT_KINDS
from tests.helpers import buy, classic, force, march, own, place, play, sail, start, verdicts
from tests.rule_coverage import rule_ids

OK = (True, "")
MAC, EGY, HIS = "Macedonia", "Egyptus", "Hispania"
FIVE = ["Macedonia", "Mesopotamia", "Egyptus", "Hispania", "Italia"]
# Provinces worth 85 in all, far from Macedonia's home: with MAC (15) Macedonia's tribute is 100.
WORTH_85 = ["BRI", "BEL", "GER", "LUG", "AQU", "NAR", "RAE", "NOR", "CAE", "AFR", "SAR", "COR", "BLR"]


# -- tiny helpers ------------------------------------------------------------------------------------------------


def relocate(state: GameState, seat: str, leader: int, to: str) -> GameState:
    """Take one of `seat`'s leaders from his home province and stand him in `to`."""
    home = state.force(state.players[seat].home, seat)
    target = state.force(to, seat)
    if leader == CAESAR:
        home.caesar, target.caesar = 0, 1
    else:
        home.generals.remove(leader)
        target.generals.append(leader)
    return state


def prisoner(state: GameState, holder: str, owner: str, general: int) -> GameState:
    """`owner`'s general (taken from his home province) is `holder`'s prisoner."""
    state.force(state.players[owner].home, owner).generals.remove(general)
    state.players[holder].captives.append(Captive(owner, general))
    return state


def duel(state: GameState, area: str, owner: str | None = EGY, attacker: str = MAC, defender: str = EGY) -> GameState:
    """One infantry of each side stands in `area` (a battle there in the attacker's Phase 2)."""
    place(state, area, attacker, owner=False, infantry=1)
    place(state, area, defender, owner=False, infantry=1)
    state.area(area).owner = owner
    return state


def costs(result: TurnResult) -> list[int]:
    return [e.data["cost"] for e in result.events if e.kind == "bought"]


def kinds(result: TurnResult) -> list[str]:
    return [e.kind for e in result.events]


def events(result: TurnResult, kind: str) -> list[dict[str, object]]:
    return [e.data for e in result.events if e.kind == kind]


def treasury(result: TurnResult, seat: str = MAC) -> int:
    return result.state.players[seat].treasury


def offer(
    owner: str, general: int, talents: int = 0, prisoners: tuple[tuple[str, int], ...] = (), line: int = 1
) -> RansomOffer:
    return RansomOffer(owner, general, talents, prisoners, line=line, text=f"ransom offer {owner} G{general}")


def accept(owner: str, general: int, talents: int, line: int = 1) -> RansomAccept:
    return RansomAccept(owner, general, talents, line=line, text=f"ransom accept {owner} G{general}")


def concede(to: str, line: int = 1) -> Concede:
    return Concede(to, line=line, text=f"concede to {to}")


# -- C-0: definitions --------------------------------------------------------------------------------------------


def test_C_0_1_every_rejection_cites_a_rule_id_of_the_spec() -> None:
    result = play(
        start(),
        march((1,), "MAC", "ASI", line=1),
        march((), "MAC", "THR", inf=1, line=2),
        Sail((1,), "MAC", ("AEG",), line=3, text="sail"),
        NavalBattle("AEG", line=4, text="naval"),
        BattleOrder(("THR",), line=5, text="battles"),
        DestroyCity("EGY", line=6, text="destroy"),
        buy(Purchase("city"), Purchase("infantry", 30), Purchase("road", at="MAC", to="THR"), line=7),
        offer(EGY, 1, 10, line=8),
        concede(MAC, line=9),
        Homes(("MAC",), line=10, text="homes"),
    )
    known = set(rule_ids("coe-classic"))
    rejected = [r for r in result.order_results if not r.accepted]
    assert len(rejected) == len(result.order_results) == 12
    for verdict in rejected:
        assert re.fullmatch(r"C-\d+\.\d+", verdict.rule) and verdict.rule in known, verdict
        assert verdict.verdict.startswith(f"rejected ({verdict.rule}): ")


def test_C_0_1_rule_ids_are_unique_and_well_formed() -> None:
    text = (resource_dir("games") / "coe-classic" / "rules.md").read_text(encoding="utf-8")
    text = text.split("## 17. Index of ambiguities")[0]  # the index repeats IDs defined above
    defined = re.findall(r"^(?:- |\| )(C-\d+\.\d+)\b", text, flags=re.MULTILINE)
    assert len(defined) == len(set(defined)) > 200
    for rule in defined:
        section, number = rule[2:].split(".")
        assert int(section) <= 16 and int(number) >= 1


def test_C_0_2_every_ambiguity_has_a_binding_resolution() -> None:
    text = (resource_dir("games") / "coe-classic" / "rules.md").read_text(encoding="utf-8")
    body, index = text.split("## 17. Index of ambiguities")
    items = re.split(r"^- (?=C-\d+\.\d+ )", body, flags=re.MULTILINE)[1:]
    ambiguous = set()
    for item in items:
        rule = item.split()[0]
        if "Ambiguity:" in item and rule != "C-0.2":
            assert "Resolution:" in item.split("Ambiguity:", 1)[1], rule
            ambiguous.add(rule)
    assert set(re.findall(r"^\| (C-\d+\.\d+) ", index, flags=re.MULTILINE)) == ambiguous
    # and a resolution is what the adjudicator does: C-2.4 Sardinia-Corsica is not adjacent
    state = place(start(), "SAR", MAC, infantry=1)
    relocate(state, MAC, 1, "SAR")
    result = play(state, march((1,), "SAR", "COR", inf=1))
    assert verdicts(result) == [(False, "C-2.2")]


def test_C_0_3_an_area_is_a_land_province_or_a_sea_zone_of_the_board() -> None:
    board = classic().board
    assert {a.kind for a in board.areas.values()} == {"land", "sea"}
    assert sum(a.is_land for a in board.areas.values()) == 42 and len(board.areas) == 60
    result = play(start(), march((1,), "MAC", "XYZ", line=1), march((1,), "MAC", "ACH", line=2))
    assert verdicts(result) == [(False, "C-2.2"), OK]
    assert all(code in board.areas for code in result.state.areas)


def test_C_0_4_galleys_are_not_combat_units_they_add_no_battle_dice() -> None:
    assert UNIT_KINDS == ("infantry", "cavalry", "catapult")
    state = duel(start(), "THR")
    state.force("THR", MAC).galleys = [1]
    state.force("THR", EGY).galleys = [1]
    result = play(state, dice=[1, 6])  # one die each: the galleys roll nothing
    assert [value for _, value in result.dice] == [1, 6]
    assert result.state.areas["THR"].owner == MAC
    assert force(result, "THR", MAC).galleys == [1] and EGY not in result.state.areas["THR"].units


def test_C_0_4_a_galley_alone_never_conquers_or_fights_on_land() -> None:
    state = place(start(), "ACH", EGY, owner=False, infantry=2)
    state.force("AEG", MAC).galleys = [1]
    state.force("RHO", MAC).galleys = [2]
    result = play(state, sail((1,), "AEG", "ACH", line=1), sail((2,), "RHO", "ASI", line=2))
    assert verdicts(result) == [OK, OK]
    assert "battle" not in kinds(result) and not result.dice
    assert result.state.areas["ACH"].owner is None and force(result, "ACH", EGY).infantry == 2
    assert result.state.areas["ASI"].owner is None and force(result, "ASI", MAC).galleys == [2]


def test_C_0_5_the_caesar_is_a_leader_like_a_general() -> None:
    state = place(start(), "MAC", MAC, infantry=20)
    result = play(
        state,
        march((CAESAR,), "MAC", "THR", inf=8, line=1),
        march((CAESAR,), "MAC", "THR", inf=7, line=2),
        march((CAESAR,), "THR", "MOE", inf=7, line=3),
    )
    assert verdicts(result) == [(False, "C-5.6"), OK, (False, "C-5.2")]
    assert force(result, "THR", MAC) == Force(caesar=1, infantry=7)
    alone = play(start(), march((CAESAR,), "MAC", "THR"))
    assert verdicts(alone) == [OK] and alone.state.areas["THR"].owner is None  # leaders conquer nothing


def test_C_0_6_the_active_player_is_the_attacker_of_every_battle_of_his_turn() -> None:
    state = duel(start(), "THR")
    result = play(state, dice=[6, 1])
    (battle,) = events(result, "battle")
    assert battle["defender"] == EGY and next(e for e in result.events if e.kind == "battle").seat == MAC
    assert result.dice[0][0] == "THR round 1: attacker"
    assert result.state.areas["THR"].owner == EGY  # the defender kept it
    state = duel(start(), "THR", owner=MAC)
    state.active = EGY
    result = play(state, dice=[1, 6])
    assert next(e for e in result.events if e.kind == "battle").seat == EGY
    assert events(result, "battle")[0]["defender"] == MAC
    assert result.state.areas["THR"].owner == EGY


def test_C_0_7_and_C_13_5_and_C_15_19_alliances_change_nothing() -> None:
    state = duel(start(), "THR")
    state.players[EGY].treasury = 7
    ally = Press(EGY, "Let us be allies against Hispania", line=1, text="press")
    result = play(state, ally, dice=[1, 6])
    assert verdicts(result) == [OK] and result.order_results[0].reason == "relayed to Egyptus"
    assert events(result, "press") == [{"to": EGY, "message": "Let us be allies against Hispania"}]
    assert events(result, "battle")[0]["defender"] == EGY  # the ally's units are still fought
    assert result.state.areas["THR"].owner == MAC and treasury(result, EGY) == 7


def test_C_0_8_sea_zones_are_never_controlled() -> None:
    state = start()
    state.force("MAC", MAC).galleys = [1]
    state.force("MAC", MAC).galley_coasts = {1: "AEG"}
    result = play(state, sail((1,), "MAC", "AEG", leaders=(1,), inf=2))
    assert verdicts(result) == [OK]
    assert force(result, "AEG", MAC).infantry == 2 and result.state.areas["AEG"].owner is None
    board = classic().board
    for code, area in result.state.areas.items():
        assert area.owner is None or (board.is_land(code) and area.owner in result.state.players)


def test_C_0_9_tribute_marker_shows_the_value_and_the_treasury_never_goes_negative() -> None:
    state = own(start(), "THR", seat=EGY)
    state.area("THR").city = "city"
    result = play(state, march((1,), "MAC", "THR", inf=1), buy(Purchase("cavalry", 1), Purchase("infantry", 2)))
    assert verdicts(result) == [OK, OK, (False, "C-11.1")]
    for seat, player in result.state.players.items():
        assert player.tribute == tribute_value(classic(), result.state, seat)
    assert result.state.players[MAC].tribute == 25 and result.state.players[EGY].tribute == 15
    assert treasury(result) == 25 - 20 >= 0


def test_C_0_10_a_round_is_one_turn_of_each_player_still_in_the_game() -> None:
    state = start()
    del state.areas["EGY"].units[EGY]
    state.areas["EGY"].owner = HIS
    state.players[EGY].eliminated, state.players[EGY].captor = True, HIS
    first = play(state)
    assert (first.state.active, first.state.round, first.state.turn) == (HIS, 1, 1)
    second = play(first.state)
    assert (second.state.active, second.state.round, second.state.turn) == (MAC, 2, 2)
    phases = [e.data["number"] for e in first.events if e.kind == "phase"]
    assert phases == [1, 2, 4, 5]  # one turn: the phases of one player


def test_C_0_11_seats_are_named_after_their_home_provinces() -> None:
    ruleset = classic()
    for seat in ruleset.seats:
        assert ruleset.board.name(seat.home) == seat.name
    state = start()
    assert {seat: p.home for seat, p in state.players.items()} == {MAC: "MAC", EGY: "EGY", HIS: "HIS"}


# -- C-1: components and limits ----------------------------------------------------------------------------------


def test_C_1_1_own_colour_limits() -> None:
    limits = classic().data["limits"]
    assert (limits["generals"], limits["infantry"], limits["cavalry"], limits["catapult"], limits["galley"]) == (
        4,
        20,
        20,
        6,
        8,
    )
    state = place(
        start(),
        "MAC",
        MAC,
        catapult=5,
        cavalry=19,
        galleys=[1, 2, 3, 4, 5, 6, 7],
        galley_coasts={n: "AEG" for n in range(1, 8)},
    )
    state.players[MAC].treasury = 500
    result = play(
        state,
        buy(
            Purchase("catapult", 2),
            Purchase("catapult", 1),
            Purchase("catapult", 1),
            Purchase("cavalry", 2),
            Purchase("cavalry", 1),
            Purchase("galley", 2),
            Purchase("galley", 1),
        ),
    )
    assert verdicts(result) == [(False, "C-11.4"), OK, (False, "C-11.4"), (False, "C-11.4"), OK, (False, "C-11.4"), OK]
    assert "C-1.1" in result.order_results[0].reason
    home = force(result, "MAC", MAC)
    assert (home.catapult, home.cavalry, len(home.galleys), home.caesar, len(home.generals)) == (6, 20, 8, 1, 4)


def test_C_1_2_shared_pool_of_roads() -> None:
    cities = ["THR", "MOE", "DAC", "PAN", "DAL", "NOR", "ITA", "RAE", "NAR", "GER", "LUG", "AQU", "BEL"]
    state = own(start(), "MOE")
    for code in cities:
        state.area(code).city = "city"  # 3 home cities + 13 = all 16 cities of the pool
    board = classic().board
    pairs = sorted(
        {
            tuple(sorted((a, b)))
            for a in [*cities, "MAC", "HIS"]
            for b in [*cities, "MAC", "HIS"]
            if a != b and board.land_border(a, b)
        }
        - {("MAC", "MOE")}
    )
    for a, b in pairs[:20]:  # all 20 roads of the pool
        state.area(a).roads.append(b)
        state.area(b).roads.append(a)
    state.players[MAC].treasury = 100
    result = play(state, buy(Purchase("road", at="MAC", to="MOE")))
    assert verdicts(result) == [(False, "C-11.4")]
    assert "C-1.2" in result.order_results[0].reason and treasury(result) == 100 + 15 + 10
    a, b = pairs[0]
    state.area(a).roads.remove(b)
    state.area(b).roads.remove(a)
    assert verdicts(play(state, buy(Purchase("road", at="MAC", to="MOE")))) == [OK]


def test_C_1_3_money_and_control_markers_are_unlimited() -> None:
    state = start()
    state.players[MAC].treasury = 5000  # far more than the coins in the box (625 talents)
    land = [c for c, a in classic().board.areas.items() if a.is_land and c not in ("EGY", "HIS")]
    own(state, *land)
    result = play(state, buy(Purchase("infantry", 10)))
    assert verdicts(result) == [OK]
    assert result.state.players[MAC].tribute == sum(classic().board.value(c) for c in land) + 5
    assert treasury(result) == 5000 + result.state.players[MAC].tribute - 100


def test_C_1_4_a_unit_lost_in_battle_can_be_bought_again_in_the_same_turn() -> None:
    state = place(start(), "MAC", MAC, infantry=19)
    duel(state, "THR")  # Macedonia has 20 infantry on the board
    state.players[MAC].treasury = 50
    assert verdicts(play(state.copy(), buy(Purchase("infantry", 1)), dice=[1, 6])) == [(False, "C-11.4")]
    result = play(state, buy(Purchase("infantry", 1)), dice=[6, 1])  # the Thracian infantry falls
    assert verdicts(result) == [OK]
    assert force(result, "MAC", MAC).infantry == 20 and result.state.areas["THR"].owner == EGY


def test_C_1_4_a_destroyed_city_returns_to_the_pool_at_once_C_16_25() -> None:
    state = own(start(), "THR", "ACH")
    free = [
        c for c, a in classic().board.areas.items() if a.is_land and not state.area(c).city and c not in ("ACH", "THR")
    ]
    for code in ["THR", *free[:12]]:
        state.area(code).city = "city"  # the pool of 16 cities is empty
    state.players[MAC].treasury = 100
    result = play(state, DestroyCity("THR", line=1, text="destroy"), buy(Purchase("city", at="ACH"), line=2))
    assert verdicts(result) == [OK, OK]
    assert result.state.areas["ACH"].city == "city" and result.state.areas["THR"].city is None
    # C-16.25: the tribute collected before (MAC 15, THR 10, ACH 10) is kept; the city in ACH gives back the 5
    assert treasury(result) == 100 + 35 - 30 and result.state.players[MAC].tribute == 35


def test_C_1_5_leaders_are_never_bought_and_a_killed_general_is_gone_for_good() -> None:
    assert not {"caesar", "general", "generals", "leader"} & set(PIECES)
    assert set(classic().data["prices"]) == set(PIECES)
    state = relocate(start(), EGY, 3, "THR")
    result = play(state, march((1,), "MAC", "THR", inf=1), answers={MAC: {"captive.Egyptus.G3": "kill"}})
    assert [e["choice"] for e in events(result, "captured")] == ["kill"]
    assert not result.state.players[MAC].captives
    state = result.state
    for _ in range(3):
        state = play(state).state
    generals = [g for a in state.areas.values() if EGY in a.units for g in a.units[EGY].generals]
    assert sorted(generals) == [1, 2, 4]


def test_C_1_6_two_to_six_players() -> None:
    ruleset = classic()
    with pytest.raises(SetupError, match="C-1.6"):
        ruleset.initial_state("g", list(ruleset.seat_names))  # all seven seats
    with pytest.raises(SetupError, match="C-1.6"):
        ruleset.initial_state("g", [MAC])
    assert len(ruleset.initial_state("g", [EGY, HIS]).players) == 2
    assert len(ruleset.initial_state("g", [MAC, "Galatia", EGY, "Numidia", HIS, "Italia"]).players) == 6


def test_C_1_7_taken_over_pieces_do_not_count_against_the_captors_limits() -> None:
    state = place(start(), "MAC", MAC, infantry=15)
    relocate(state, EGY, CAESAR, "THR")  # Egyptus's Caesar stands alone in Thracia
    state.players[MAC].treasury = 100
    result = play(
        state, march((1,), "MAC", "THR", inf=1, line=1), buy(Purchase("infantry", 5), Purchase("infantry", 1), line=2)
    )
    assert result.state.players[EGY].eliminated and result.state.players[EGY].captor == MAC
    assert force(result, "EGY", MAC).infantry == 5  # Egyptus's 5 infantry are Macedonia's now
    assert verdicts(result) == [OK, OK, (False, "C-11.4")]  # 15 own + 5 bought = 20; the 5 taken over are extra
    assert sum(f.infantry for a in result.state.areas.values() for s, f in a.units.items() if s == MAC) == 25
    assert result.state.players[MAC].inherited == {"infantry": 5}


def test_C_1_7_taken_over_pieces_that_leave_the_board_are_never_bought_again() -> None:
    state = place(start(), "MAC", MAC, infantry=18)
    place(state, "THR", MAC, owner=False, infantry=2)  # 20 own infantry ...
    place(state, "THR", EGY, owner=False, infantry=1)
    state.players[MAC].inherited = {"infantry": 1}
    place(state, "ACH", MAC, infantry=1)  # ... and 1 taken over
    state.players[MAC].treasury = 100
    result = play(state, buy(Purchase("infantry", 1)), dice=[1, 6, 1])  # 1 hit each side
    assert force(result, "THR", MAC).infantry == 1 and result.state.areas["THR"].owner == MAC
    assert not result.state.players[MAC].inherited  # the piece lost was the one taken over
    assert verdicts(result) == [(False, "C-11.4")]  # still 20 own infantry: nothing to buy


def test_C_1_7_galleys_bought_next_to_taken_over_galleys() -> None:
    state = start()
    state.force("AEG", MAC).galleys = list(range(1, 10))  # 7 own galleys and 2 taken over
    state.players[MAC].inherited = {"galley": 2}
    state.players[MAC].treasury = 100
    result = play(state, buy(Purchase("galley", 1), Purchase("galley", 1)))
    assert verdicts(result) == [OK, (False, "C-11.4")]
    assert force(result, "MAC", MAC).galleys == [10] and treasury(result) == 95


def test_C_1_8_dice_faces_and_their_numbers() -> None:
    assert parse_dice_file("inf cav cat gal blank 2", COMBAT_DIE_SYMBOLS) == [1, 3, 4, 5, 6, 2]
    assert parse_dice_file("infantry cavalry catapult galley # comment\n1 6", COMBAT_DIE_SYMBOLS) == [1, 3, 4, 5, 1, 6]
    state = place(start(), "THR", MAC, owner=False, infantry=2)
    place(state, "THR", EGY, infantry=2)
    result = play(state, dice=[2, 5, 6, 6, 1, 6, 6])  # face 2 is an infantry hit, the galley face hits nothing on land
    assert [r["attacker_hits"] for r in events(result, "battle_round")] == [1, 1]
    assert force(result, "THR", MAC).infantry == 2 and result.state.areas["THR"].owner == MAC


def test_C_1_8_a_roll_may_need_more_dice_than_the_box_holds() -> None:
    state = start()
    del state.areas["MAC"].units[MAC]
    place(state, "THR", MAC, owner=False, caesar=1, generals=[1, 2, 3, 4], infantry=12)
    place(state, "THR", EGY, infantry=1)
    result = play(state, dice=[6] * 9 + [1, 6])
    attacker = [v for purpose, v in result.dice if purpose.endswith("attacker")]
    assert len(attacker) == 10  # a battle legion of 5 + 5 leaders
    assert result.state.areas["THR"].owner == MAC


# -- C-2: board ------------------------------------------------------------------------------------------------


def test_C_2_1_home_provinces_are_worth_ten_even_when_not_in_play() -> None:
    board = classic().board
    assert {c for c in ("HIS", "ITA", "MAC", "GAL", "NUM", "MES", "EGY") if board.value(c) == 10} == {
        "HIS",
        "ITA",
        "MAC",
        "GAL",
        "NUM",
        "MES",
        "EGY",
    }
    state = place(start(), "ASI", MAC, infantry=1)
    relocate(state, MAC, 2, "ASI")
    result = play(state, march((2,), "ASI", "GAL", inf=1, line=1), march((1,), "MAC", "THR", inf=1, line=2))
    assert verdicts(result) == [OK, OK]
    assert result.state.players[MAC].tribute == 15 + 10 + 10 + 5  # MAC, ASI, Galatia (gold), Thracia (silver)


def test_C_2_2_moves_go_into_adjacent_areas_only() -> None:
    state = start()
    state.force("AEG", MAC).galleys = [1]
    result = play(
        state,
        march((1,), "MAC", "ACH", inf=1, line=1),
        march((2,), "MAC", "ASI", line=2),
        sail((1,), "AEG", "ALX", line=3),
        sail((1,), "AEG", "RHO", "ALX", line=4),
    )
    assert verdicts(result) == [OK, (False, "C-2.2"), (False, "C-5.18"), OK]
    assert force(result, "ALX", MAC).galleys == [1] and force(result, "ACH", MAC).infantry == 1


def test_C_2_5_egyptus_is_one_province_with_one_coast() -> None:
    board = classic().board
    assert board.coasts("EGY") == (frozenset({"ALX", "PEL"}),)
    state = start()
    state.active = EGY
    state.force("ALX", EGY).galleys = [1]
    result = play(
        state,
        sail((1,), "ALX", "EGY", "PEL", line=1),
        march((1,), "EGY", "PAL", inf=1, line=2),
        march((2,), "EGY", "CYR", inf=1, line=3),
    )
    assert verdicts(result) == [OK, OK, OK]
    assert force(result, "PEL", EGY).galleys == [1]


# -- C-3: setup --------------------------------------------------------------------------------------------------


def test_C_3_2_and_C_15_1_one_home_per_player_assigned_at_creation() -> None:
    ruleset = classic()
    for count, homes in ruleset.data["setup"]["homes"].items():
        seats = [ruleset.seat_of_home(h) for h in homes]
        state = ruleset.initial_state("g", seats)
        assert sorted(p.home for p in state.players.values()) == sorted(homes) and len(seats) == int(count)
    with pytest.raises(SetupError, match="twice"):
        ruleset.initial_state("g", [MAC, MAC, EGY])
    result = play(start(), Homes(("HIS", "MAC"), line=1, text="homes his mac"))
    assert verdicts(result) == [(False, "C-15.1")]
    assert {s: p.home for s, p in result.state.players.items()} == {MAC: "MAC", EGY: "EGY", HIS: "HIS"}


def test_C_3_3_each_colour_has_its_own_pieces() -> None:
    state = place(start(), "MAC", MAC, infantry=20)
    for seat in (MAC, EGY):
        state.players[seat].treasury = 200
    result = play(state, buy(Purchase("infantry", 1)))
    assert verdicts(result) == [(False, "C-11.4")]
    state = result.state  # Egyptus's turn: his colour still has 15 infantry in the box
    result = play(state, buy(Purchase("infantry", 15)))
    assert verdicts(result) == [OK] and force(result, "EGY", EGY).infantry == 20


def test_C_3_6_every_other_province_starts_neutral_and_empty() -> None:
    state = start()
    board = classic().board
    for code in board.areas:
        area = state.areas.get(code)
        if code in ("MAC", "EGY", "HIS"):
            assert area is not None and area.owner is not None
        else:
            assert area is None or (area.owner is None and not area.units), code
    for code in ("GAL", "MES", "NUM", "ITA"):  # home provinces not in play
        assert code not in state.areas


def test_C_3_7_no_roads_no_other_cities_base_prices() -> None:
    state = start()
    assert state.inflation == 0 and not state.inflation_pending
    assert all(not a.roads for a in state.areas.values())
    assert sorted(c for c, a in state.areas.items() if a.city) == ["EGY", "HIS", "MAC"]
    state.players[MAC].treasury = 200
    result = play(state, buy(*(Purchase(p, 1) for p in UNIT_KINDS)))
    assert costs(result) == [10, 20, 30]


# -- C-4: turn sequence ------------------------------------------------------------------------------------------


def test_C_4_2_six_phases_in_order_and_none_revisited() -> None:
    state = own(start(), "MOE")
    state.area("MOE").city = "city"
    result = play(
        state,
        buy(Purchase("infantry", 1), line=1),
        march((1,), "MAC", "THR", inf=6, line=2),
        DestroyCity("MOE", line=3, text="destroy"),
        march((2,), "MAC", "THR", inf=5, line=4),
    )
    assert verdicts(result) == [OK, (False, "C-5.3"), OK, OK]  # the unit bought in Phase 5 cannot move
    sequence = [
        (e.kind, e.data.get("number"))
        for e in result.events
        if e.kind in ("phase", "tribute", "city_destroyed", "bought", "turn_end")
    ]
    assert sequence == [
        ("phase", 1),
        ("phase", 2),
        ("tribute", None),
        ("phase", 4),
        ("city_destroyed", None),
        ("phase", 5),
        ("bought", None),
        ("turn_end", None),
    ]
    assert treasury(result) == 15 + 10 + 5 - 10  # tribute of MAC, MOE with its city and THR, before the destruction


def test_C_4_3_only_the_active_player_gives_orders() -> None:
    state = start()
    orders = OrderSet(Header("test", 1, EGY, "x"), (march((1,), "EGY", "PAL", inf=1),))
    with pytest.raises(NotDue, match="Macedonia"):
        resolve(classic(), state, orders, None)  # type: ignore[arg-type]
    result = play(start(), march((1,), "EGY", "PAL", inf=1))
    assert verdicts(result) == [(False, "C-5.3")]


def test_C_4_3_the_defender_decides_his_own_retreat_in_the_attackers_turn() -> None:
    state = place(start(), "THR", MAC, owner=False, infantry=2)
    place(state, "THR", EGY, owner=False, infantry=2)
    result = play(state, dice=[6, 6, 6, 6], answers={EGY: {"battle.THR.1.retreat": "retreat to MOE"}})
    decision = next(e for e in result.events if e.kind == "decision" and e.data["key"] == "battle.THR.1.retreat")
    assert decision.seat == EGY and decision.data["source"] == "answer"
    assert force(result, "MOE", EGY).infantry == 2 and result.state.areas["THR"].owner == MAC


def test_C_4_4_every_phase_is_gone_through_without_orders() -> None:
    result = play(start())
    assert [e.data["number"] for e in result.events if e.kind == "phase"] == [1, 2, 4, 5]
    assert events(result, "tribute") == [{"amount": 15, "treasury": 15}]
    assert kinds(result)[-1] == "turn_end" and result.state.active == EGY


def test_C_4_5_play_goes_on_until_the_game_is_won() -> None:
    state = start()
    for _ in range(7):
        state = play(state).state
    assert state.winner is None and state.active == EGY and state.round == 3
    state = play(play(state, concede(HIS)).state).state  # Egyptus concedes to Hispania
    result = play(state, concede(HIS))  # so does Macedonia
    assert result.state.winner == HIS and result.state.active is None
    with pytest.raises(NotDue, match="ended"):
        resolve(classic(), result.state, None, GivenDice())


# -- C-9: tribute --------------------------------------------------------------------------------------------------


def test_C_9_2_a_new_city_moves_the_marker_at_once() -> None:
    state = own(start(), *WORTH_85)
    state.players[MAC].treasury = 100
    assert tribute_value(classic(), state, MAC) == 100
    result = play(state, buy(Purchase("city", at="BRI"), Purchase("infantry", 1)))
    assert verdicts(result) == [OK, OK]
    order = kinds(result)
    bought = [i for i, kind in enumerate(order) if kind == "bought"]
    assert order.index("inflation_triggered") < bought[1]  # at the placement, before the next item
    assert result.state.players[MAC].tribute == 105
    assert result.state.inflation_pending == [{"level": 1, "seat": MAC}]


def test_C_9_2_conquest_moves_both_markers() -> None:
    state = own(start(), "THR", seat=EGY)
    state.area("THR").city = "fortified"
    result = play(state, march((1,), "MAC", "THR", inf=1))
    assert result.state.players[MAC].tribute == 15 + 5 + 5 and result.state.players[EGY].tribute == 15
    assert result.state.areas["THR"].city == "fortified"  # no tribute for the fortification (C-9.1)


def test_C_9_3_tribute_is_collected_after_the_conquests_of_combat() -> None:
    state = duel(start(), "ASI")
    state.players[EGY].treasury = 3
    result = play(state, dice=[1, 6])
    assert result.state.areas["ASI"].owner == MAC
    (tribute,) = events(result, "tribute")
    assert tribute == {"amount": 25, "treasury": 25}
    assert treasury(result, EGY) == 3  # the loser pays nothing (C-13.6)


def test_C_9_5_inflation_follows_the_tribute_value_not_the_treasury() -> None:
    state = start()
    state.players[MAC].treasury = 5000
    result = play(state, march((1,), "MAC", "THR", inf=1))
    assert not result.state.inflation_pending and result.state.inflation == 0  # 5000 talents trigger nothing
    assert treasury(result) == 5020


def test_C_9_5_a_players_tribute_falls_in_the_turn_of_another() -> None:
    state = own(start(), "THR", "MOE", seat=EGY)
    assert tribute_value(classic(), state, EGY) == 25
    result = play(state, march((1,), "MAC", "THR", inf=1))
    assert result.state.players[EGY].tribute == 20  # Thracia lost in Macedonia's turn
    assert result.state.players[EGY].treasury == 0


def test_C_9_6_and_C_16_17_control_markers_do_not_stop_and_passing_does_not_conquer() -> None:
    state = own(start(), "THR", seat=EGY)
    place(state, "MAC", MAC, cavalry=2)
    result = play(state, march((1,), "MAC", "THR", "ASI", cav=1))
    assert verdicts(result) == [OK]
    assert result.state.areas["THR"].owner == EGY and result.state.areas["ASI"].owner == MAC
    result = play(state, march((1,), "MAC", "THR", cav=2, line=1), march((1,), "THR", "ASI", cav=1, line=2))
    assert verdicts(result) == [OK, OK]
    assert result.state.areas["THR"].owner == MAC  # one cavalry stayed: Thracia is conquered
    assert result.state.players[EGY].tribute == 15


def test_C_9_7_roads_outlive_a_change_of_controller() -> None:
    state = own(start(), "MOE", "DAC", seat=EGY)
    for code in ("MOE", "DAC"):
        state.area(code).city = "city"
    state.area("MOE").roads.append("DAC")
    state.area("DAC").roads.append("MOE")
    result = play(state, march((1,), "MAC", "MOE", inf=1))
    assert result.state.areas["MOE"].owner == MAC and result.state.areas["MOE"].roads == ["DAC"]
    assert result.state.areas["DAC"].roads == ["MOE"]
    result = play(state, march((1,), "MAC", "MOE", inf=1, line=1), DestroyCity("MOE", line=2, text="destroy"))
    assert verdicts(result) == [OK, OK]
    assert result.state.areas["DAC"].roads == [] and result.state.areas["DAC"].city == "city"


# -- C-10: destroying cities ---------------------------------------------------------------------------------------


def test_C_10_3_destroying_a_city_keeps_control_and_value() -> None:
    result = play(start(), DestroyCity("MAC", line=1, text="destroy"))
    assert verdicts(result) == [OK]
    area = result.state.areas["MAC"]
    assert area.owner == MAC and area.city is None  # the fortification went with the city (C-10.2)
    assert result.state.players[MAC].tribute == classic().board.value("MAC") == 10


def test_C_10_4_tribute_collected_before_the_destruction_is_kept() -> None:
    state = own(start(), "THR")
    state.area("THR").city = "city"
    result = play(state, DestroyCity("THR", line=1, text="destroy"), DestroyCity("MAC", line=2, text="destroy"))
    assert verdicts(result) == [OK, OK]
    assert treasury(result) == 15 + 10  # collected with both cities
    assert result.state.players[MAC].tribute == 15
    assert play(play(play(result.state).state).state).state.players[MAC].treasury == 25 + 15


# -- C-11: purchases and inflation ----------------------------------------------------------------------------------


def test_C_11_2_every_purchasable_piece() -> None:
    state = own(start(), "MOE", "THR")
    state.players[MAC].treasury = 165
    result = play(
        state,
        buy(
            Purchase("infantry", 1),
            Purchase("cavalry", 1),
            Purchase("catapult", 1),
            Purchase("galley", 1),
            Purchase("city", at="MOE"),
            Purchase("fortification", at="MOE"),
            Purchase("fortified_city", at="THR"),
            Purchase("road", at="MAC", to="MOE"),
        ),
    )
    assert verdicts(result) == [OK] * 8
    assert costs(result) == [10, 20, 30, 20, 30, 20, 50, 10] and treasury(result) == 0
    assert result.state.areas["MOE"].city == result.state.areas["THR"].city == "fortified"


def test_C_11_3_a_fortification_for_an_own_city_or_one_bought_this_phase() -> None:
    state = own(start(), "MOE", "THR")
    state.area("MOE").city = "city"
    own(state, "ACH", seat=EGY)
    state.area("ACH").city = "city"
    state.players[MAC].treasury = 200
    result = play(
        state,
        buy(
            Purchase("fortification", at="MOE"),
            Purchase("fortification", at="ACH"),
            Purchase("city", at="THR"),
            Purchase("fortification", at="THR"),
        ),
    )
    assert verdicts(result) == [OK, (False, "C-12.7"), OK, OK]
    assert costs(result) == [20, 30, 20]
    assert result.state.areas["ACH"].city == "city"


def test_C_11_5_nothing_is_paid_for_what_cannot_be_placed() -> None:
    state = own(start(), "THR", "ASI")
    for code in ("THR", "ASI"):
        state.area(code).city = "city"
    state.players[MAC].treasury = 100
    result = play(
        state,
        buy(
            Purchase("road", at="THR", to="ASI"),
            Purchase("city", at="THR"),
            Purchase("infantry", 1, at="THR"),
            Purchase("fortification"),
            Purchase("road"),
        ),
    )
    assert verdicts(result) == [
        (False, "C-12.8"),
        (False, "C-12.6"),
        (False, "C-12.2"),
        (False, "C-15.16"),
        (False, "C-15.16"),
    ]
    assert treasury(result) == 100 + 15 + 10 + 15 and not costs(result)


def test_C_11_8_the_multiplier_never_decreases() -> None:
    state = start()
    state.inflation_pending = [{"level": 1, "seat": HIS}, {"level": 2, "seat": EGY}]  # level 2 came before 1 acted
    for seat in state.players:
        state.players[seat].treasury = 100
    mac = play(state, buy(Purchase("infantry", 1)))
    egy = play(mac.state, buy(Purchase("infantry", 1)))
    his = play(egy.state, buy(Purchase("infantry", 1)))
    assert (costs(mac), costs(egy), costs(his)) == ([10], [30], [30])
    assert [e["level"] for e in events(egy, "inflation")] == [2] and not events(his, "inflation")
    assert his.state.inflation == 2 and not his.state.inflation_pending


def test_C_11_10_ransom_is_an_agreed_amount_not_a_price() -> None:
    state = prisoner(start(), MAC, EGY, 1)
    state.inflation = 2
    state.players[EGY].treasury = 40
    state.players[EGY].standing["ransom_accept"] = [{"owner": EGY, "general": 1, "talents": 30}]
    result = play(state, offer(EGY, 1, 30))
    assert verdicts(result) == [OK]
    assert treasury(result, EGY) == 10 and treasury(result) == 15 + 30


# -- C-12: placement -----------------------------------------------------------------------------------------------


def test_C_12_1_placements_are_part_of_the_orders() -> None:
    state = own(start(), "THR", "MOE")
    state.players[MAC].treasury = 100
    result = play(
        state,
        buy(
            Purchase("city", at="MOE"),
            Purchase("cavalry", 1, at="MAC"),
            Purchase("galley", 1, coast="AEG"),
            Purchase("cavalry", 1, at="THR"),
        ),
    )
    assert verdicts(result) == [OK, OK, OK, (False, "C-12.2")]
    assert [e["where"] for e in events(result, "bought")] == ["MOE", "MAC", "MAC (coast AEG)"]
    home = force(result, "MAC", MAC)
    assert home.cavalry == 1 and home.galley_coasts == {1: "AEG"} and force(result, "THR", MAC).cavalry == 0


def test_C_12_10_ransom_comes_after_the_purchases() -> None:
    state = prisoner(start(), MAC, EGY, 1)
    state.players[EGY].treasury = 40
    state.players[EGY].standing["ransom_accept"] = [{"owner": EGY, "general": 1, "talents": 30}]
    result = play(state, offer(EGY, 1, 30, line=1), buy(Purchase("infantry", 2), line=2))
    assert verdicts(result) == [OK, (False, "C-11.1")]  # the ransom is paid in Phase 6, after the purchases
    assert treasury(result) == 45
    order = kinds(result)
    assert max(i for i, kind in enumerate(order) if kind in ("phase", "bought")) < order.index("ransomed")


# -- C-13: ransom and agreements -------------------------------------------------------------------------------------


def test_C_13_1_and_C_13_3_and_C_15_17_the_holder_offers_and_the_owners_acceptance_executes_it() -> None:
    state = prisoner(start(), MAC, EGY, 1)
    state.active = EGY
    state.players[EGY].treasury = 35  # + 15 tribute
    state = play(state, accept(EGY, 1, 40)).state  # Egyptus pays at most 40 talents for G1
    assert state.players[EGY].standing["ransom_accept"] == [{"owner": EGY, "general": 1, "talents": 40}]
    state = play(state).state  # Hispania
    too_much = play(state, offer(EGY, 1, 45))
    assert verdicts(too_much) == [(False, "C-15.17")] and too_much.state.players[MAC].captives
    result = play(state, offer(EGY, 1, 40))
    assert verdicts(result) == [OK]
    assert treasury(result, EGY) == 10 and treasury(result) == 15 + 40
    assert not result.state.players[MAC].captives and 1 in force(result, "EGY", EGY).generals
    assert not result.state.players[EGY].standing["ransom_accept"]  # the acceptance is used up
    (ransomed,) = events(result, "ransomed")
    assert ransomed["payer"] == EGY and ransomed["generals"] == ["Egyptus G1"] and ransomed["rule"] == "C-13.3"


def test_C_13_1_the_owner_offers_and_the_holders_acceptance_executes_it() -> None:
    state = prisoner(start(), EGY, MAC, 2)
    state.players[EGY].standing["ransom_accept"] = [{"owner": MAC, "general": 2, "talents": 20}]
    state.players[MAC].treasury = 10
    too_little = play(state, offer(MAC, 2, 15))
    assert verdicts(too_little) == [(False, "C-15.17")]
    result = play(state, offer(MAC, 2, 25))
    assert verdicts(result) == [OK]
    assert treasury(result) == 0 and treasury(result, EGY) == 25
    assert sorted(force(result, "MAC", MAC).generals) == [1, 2, 3, 4] and not result.state.players[EGY].captives


def test_C_13_1_only_the_holder_or_the_owner_may_agree() -> None:
    state = prisoner(start(), HIS, EGY, 1)
    state.players[EGY].standing["ransom_accept"] = [{"owner": EGY, "general": 1, "talents": 50}]
    state.players[HIS].standing["ransom_accept"] = [{"owner": EGY, "general": 1, "talents": 0}]
    result = play(state, offer(EGY, 1, 10, line=1), offer(EGY, 2, 10, line=2))
    assert verdicts(result) == [(False, "C-13.1"), (False, "C-13.1")]
    assert result.state.players[HIS].captives == [Captive(EGY, 1)]


def test_C_13_1_acceptances_only_from_the_holder_or_the_owner_of_a_prisoner() -> None:
    state = prisoner(start(), HIS, EGY, 1)  # Hispania holds Egyptus's G1; Macedonia is a third party
    result = play(state, accept(EGY, 1, 30, line=1), accept(EGY, 2, 30, line=2))
    assert verdicts(result) == [(False, "C-13.1"), (False, "C-13.1")]
    assert "ransom_accept" not in result.state.players[MAC].standing


def test_C_13_1_several_agreements_in_one_phase_6() -> None:
    state = prisoner(start(), MAC, EGY, 1)
    prisoner(state, MAC, HIS, 3)
    state.players[EGY].treasury = 20
    state.players[HIS].treasury = 20
    state.players[EGY].standing["ransom_accept"] = [{"owner": EGY, "general": 1, "talents": 20}]
    state.players[HIS].standing["ransom_accept"] = [{"owner": HIS, "general": 3, "talents": 20}]
    result = play(state, offer(EGY, 1, 20, line=1), offer(HIS, 3, 15, line=2))
    assert verdicts(result) == [OK, OK]
    assert treasury(result) == 15 + 35 and not result.state.players[MAC].captives
    assert 3 in force(result, "HIS", HIS).generals and 1 in force(result, "EGY", EGY).generals


def test_C_13_1_no_agreement_without_an_offer_and_an_acceptance() -> None:
    state = prisoner(start(), MAC, EGY, 1)
    state.players[EGY].treasury = 100
    result = play(state, offer(EGY, 1, 10))
    assert verdicts(result) == [(False, "C-15.17")]  # Egyptus accepted nothing
    state = result.state
    for _ in range(3):
        state = play(state).state
    assert state.players[MAC].captives == [Captive(EGY, 1)] and state.players[EGY].treasury == 100 + 15


def test_C_13_2_prisoners_in_return_must_be_held_by_the_offering_party() -> None:
    state = prisoner(start(), EGY, MAC, 2)  # Egyptus holds Macedonia's G2 ...
    prisoner(state, MAC, EGY, 4)  # ... and Macedonia holds Egyptus's G4
    state.players[EGY].standing["ransom_accept"] = [{"owner": MAC, "general": 2, "talents": 0}]
    result = play(state, offer(MAC, 2, 0, prisoners=((EGY, 3),), line=1))
    assert verdicts(result) == [(False, "C-13.2")]  # Macedonia does not hold G3
    result = play(state, offer(MAC, 2, 0, prisoners=((EGY, 4),), line=1))  # an exchange of prisoners
    assert verdicts(result) == [OK]
    assert 2 in force(result, "MAC", MAC).generals and 4 in force(result, "EGY", EGY).generals
    assert not result.state.players[MAC].captives and not result.state.players[EGY].captives
    assert treasury(result) == 15 and treasury(result, EGY) == 0


def test_C_13_2_prisoners_of_a_third_player_are_no_part_of_an_agreement() -> None:
    state = prisoner(start(), MAC, EGY, 1)
    prisoner(state, MAC, HIS, 2)
    state.players[EGY].treasury = 50
    state.players[EGY].standing["ransom_accept"] = [{"owner": EGY, "general": 1, "talents": 50}]
    result = play(
        state, offer(EGY, 1, 30, prisoners=((HIS, 2),), line=1), offer(EGY, 1, 30, prisoners=((EGY, 1),), line=2)
    )
    assert verdicts(result) == [(False, "C-13.2"), (False, "C-13.2")]
    assert result.state.players[MAC].captives == [Captive(EGY, 1), Captive(HIS, 2)]
    assert treasury(result, EGY) == 50


def test_C_13_3_the_payer_must_have_the_talents_and_the_placement_must_be_legal_C_16_24() -> None:
    state = prisoner(start(), MAC, EGY, 1)
    state.players[EGY].treasury = 20
    state.players[EGY].standing["ransom_accept"] = [{"owner": EGY, "general": 1, "talents": 50}]
    result = play(state, offer(EGY, 1, 30))
    assert verdicts(result) == [(False, "C-13.3")] and treasury(result, EGY) == 20
    state = prisoner(start(), EGY, MAC, 1)  # Egyptus holds Macedonia's G1; Egyptus took Macedonia's home
    state.areas["THR"] = state.areas.pop("MAC")
    state.area("MAC").owner = EGY
    state.areas["THR"].city = None
    state.players[EGY].standing["ransom_accept"] = [{"owner": MAC, "general": 1, "talents": 0}]
    result = play(state, offer(MAC, 1, 0))
    assert verdicts(result) == [(False, "C-13.3")] and "C-12.5" in result.order_results[0].reason
    assert result.state.players[EGY].captives == [Captive(MAC, 1)]


def test_C_13_4_promises_are_not_enforced() -> None:
    state = duel(start(), "THR")
    promise = Press(None, "Macedonia promises never to attack Egyptus", line=1, text="press")
    with_press, without = play(state, promise, dice=[1, 6]), play(state, dice=[1, 6])
    assert verdicts(with_press) == [(True, "")] and with_press.order_results[0].reason == "relayed"
    assert with_press.state == without.state  # the promise changed nothing; the battle was fought


def test_C_13_6_conquest_passes_no_talents_and_no_pieces() -> None:
    state = own(start(), "THR", seat=EGY)
    state.force("THR", EGY).galleys = [1]
    state.players[EGY].treasury = 30
    result = play(state, march((1,), "MAC", "THR", inf=1))
    assert result.state.areas["THR"].owner == MAC
    assert force(result, "THR", MAC).galleys == [] and force(result, "THR", EGY).galleys == []  # destroyed (C-8.1)
    assert treasury(result, EGY) == 30 and treasury(result) == 20


def test_C_13_7_and_C_14_2_concession_crowns_one_player_only() -> None:
    state = start()
    state = play(state, concede(HIS)).state  # Macedonia concedes to Hispania
    result = play(state, concede(MAC))  # Egyptus concedes to Macedonia: no winner
    assert result.state.winner is None and result.state.active == HIS
    state = play(result.state).state  # Hispania
    result = play(state, concede(HIS))  # Macedonia keeps his concession; Egyptus still conceded to Macedonia
    assert result.state.winner is None
    result = play(result.state, concede(HIS))  # Egyptus concedes to Hispania too
    assert result.state.winner == HIS and result.state.active is None
    assert events(result, "victory") == [{"rule": "C-14.2"}]


def test_C_14_2_concession_counts_only_players_still_in_the_game() -> None:
    state = start()
    del state.areas["EGY"].units[EGY]
    state.areas["EGY"].owner = HIS
    state.players[EGY].eliminated, state.players[EGY].captor = True, HIS
    result = play(state, concede(MAC, line=1), concede(EGY, line=2), concede(HIS, line=3))
    assert verdicts(result) == [(False, "C-14.2"), (False, "C-14.2"), OK]
    assert result.state.winner == HIS and result.state.active is None


# -- C-15: decisions -------------------------------------------------------------------------------------------------


def test_C_15_2_without_orders_nothing_moves() -> None:
    state = place(start(), "THR", MAC, infantry=2, generals=[])
    before = {c: dict(a.units) for c, a in state.areas.items()}
    result = play(state)
    assert {c: dict(a.units) for c, a in result.state.areas.items() if a.units} == {
        c: u for c, u in before.items() if u
    }
    assert "moved" not in kinds(result)


def test_C_15_4_battles_in_the_order_given_then_by_area_code() -> None:
    state = duel(duel(start(), "THR"), "ASI")
    result = play(state, dice=[1, 6, 1, 6])
    assert [e["area"] for e in events(result, "battle")] == ["ASI", "THR"]
    result = play(state, BattleOrder(("THR",), line=1, text="battles THR"), dice=[1, 6, 1, 6])
    assert verdicts(result) == [OK]
    assert [e["area"] for e in events(result, "battle")] == ["THR", "ASI"]
    result = play(state, BattleOrder(("MOE", "THR"), line=1, text="battles"), dice=[1, 6, 1, 6])
    assert verdicts(result) == [(False, "C-6.2")]
    assert [e["area"] for e in events(result, "battle")] == ["ASI", "THR"]


def test_C_15_14_cities_are_destroyed_only_by_order() -> None:
    state = own(start(), "THR")
    state.area("THR").city = "city"
    result = play(state)
    assert result.state.areas["THR"].city == "city" and "city_destroyed" not in kinds(result)
    result = play(state, DestroyCity("THR", line=1, text="destroy"))
    assert result.state.areas["THR"].city is None


def test_C_15_15_nothing_is_bought_without_an_order() -> None:
    state = start()
    state.players[MAC].treasury = 500
    result = play(state)
    assert treasury(result) == 515 and "bought" not in kinds(result)


def test_C_15_16_placement_defaults() -> None:
    state = start()
    state.players[MAC].treasury = 100
    result = play(
        state,
        buy(
            Purchase("galley", 1),
            Purchase("infantry", 2),
            Purchase("city"),
            Purchase("fortified_city"),
            Purchase("fortification"),
            Purchase("road", at="MAC"),
        ),
    )
    assert verdicts(result) == [OK, OK, (False, "C-15.16"), (False, "C-15.16"), (False, "C-15.16"), (False, "C-15.16")]
    home = force(result, "MAC", MAC)
    assert home.galley_coasts == {1: "EPI"} and home.infantry == 7  # first coast of MAC in the board data
    state = start(FIVE)
    state.active = "Mesopotamia"
    own(state, "ARM", "SYR", seat="Mesopotamia")
    state.players["Mesopotamia"].treasury = 100
    result = play(state, buy(Purchase("galley", 1), Purchase("galley", 1, at="ARM")))
    assert verdicts(result) == [OK, OK]
    assert force(result, "SYR", "Mesopotamia").galleys == [1] and force(result, "ARM", "Mesopotamia").galleys == [2]


def test_C_15_18_without_concessions_the_game_goes_on() -> None:
    state = start()
    for _ in range(6):
        result = play(state)
        assert result.state.winner is None and not events(result, "conceded")
        state = result.state
    assert state.active == MAC and all(p.conceded_to is None for p in state.players.values())


def test_C_15_19_press_is_relayed_and_changes_nothing() -> None:
    result = play(
        start(), Press(None, "Hail Caesar", line=1, text="press"), Press(HIS, "Alliance?", line=2, text="press")
    )
    assert [r.reason for r in result.order_results] == ["relayed", "relayed to Hispania"]
    assert result.state == play(start()).state


# -- C-16: edge cases ------------------------------------------------------------------------------------------------


def test_C_16_11_a_retreating_defender_conquers_and_can_trigger_inflation() -> None:
    state = place(start(), "THR", MAC, owner=False, infantry=2)
    place(state, "THR", EGY, owner=False, infantry=2)
    own(state, *WORTH_85, seat=EGY)  # Egyptus: 100
    result = play(state, dice=[6, 6, 6, 6], answers={EGY: {"battle.THR.1.retreat": "retreat to MOE"}})
    assert result.state.areas["MOE"].owner == EGY and result.state.players[EGY].tribute == 105
    assert result.state.inflation_pending == [{"level": 1, "seat": EGY}]
    egyptus = play(result.state, buy(Purchase("infantry", 1)))
    assert egyptus.state.inflation == 1 and costs(egyptus) == [20]  # at Egyptus's next turn


def test_C_16_11_only_leaders_reaching_the_province_do_not_conquer_it() -> None:
    state = place(start(), "THR", MAC, owner=False, cavalry=1)
    place(state, "THR", EGY, owner=False, infantry=1)
    relocate(state, EGY, 3, "THR")
    result = play(state, dice=[6, 6, 3], answers={EGY: {"battle.THR.1.retreat": "retreat to MOE"}})
    assert force(result, "MOE", EGY) == Force(generals=[3])  # the pursuit took the infantry; G3 escaped
    assert result.state.areas["MOE"].owner is None and result.state.areas["THR"].owner == MAC


def test_C_16_21_inflation_from_a_conquest_in_phase_2() -> None:
    state = own(start(), *WORTH_85[:-1])  # Macedonia: 95
    duel(state, "ASI")
    for seat in state.players:
        state.players[seat].treasury = 100
    mac = play(state, buy(Purchase("infantry", 1)), dice=[1, 6])
    assert mac.state.players[MAC].tribute == 105 and mac.state.inflation_pending == [{"level": 1, "seat": MAC}]
    egy = play(mac.state, buy(Purchase("infantry", 1)))
    his = play(egy.state, buy(Purchase("infantry", 1)))
    again = play(his.state, buy(Purchase("infantry", 1)))
    assert (costs(mac), costs(egy), costs(his), costs(again)) == ([10], [10], [10], [20])


def test_C_16_22_a_jump_past_both_thresholds_makes_prices_triple() -> None:
    state = own(start(), *WORTH_85)  # Macedonia: 100
    own(
        state,
        "SIC",
        "NEA",
        "DAL",
        "PAN",
        "DAC",
        "CYP",
        "CYR",
        "ARA",
        "PAL",
        "CIL",
        "CAP",
        "BIT",
        "SYR",
        "MOE",
        seat=EGY,
    )  # Egyptus: 100
    assert tribute_value(classic(), state, EGY) == 100
    relocate(state, EGY, CAESAR, "THR")
    result = play(state, march((1,), "MAC", "THR", inf=1))
    assert result.state.players[EGY].eliminated and result.state.players[MAC].tribute == 205
    assert sorted(p["level"] for p in result.state.inflation_pending) == [1, 2]
    his = play(result.state, buy(Purchase("infantry", 1)))
    mac = play(his.state, buy(Purchase("infantry", 1)))
    assert costs(his) == [10] and costs(mac) == [30] and mac.state.inflation == 2


def test_C_16_23_falling_back_below_105_does_not_cancel_inflation() -> None:
    state = own(start(), *WORTH_85[:-1], "ARA")  # Macedonia: 100 with Arabia
    state.players[MAC].treasury = 100
    mac = play(state, buy(Purchase("city", at="BRI")))  # 105
    assert mac.state.inflation_pending == [{"level": 1, "seat": MAC}]
    egy = play(mac.state, march((1,), "EGY", "ARA", inf=1))  # Egyptus takes Arabia: Macedonia 100
    assert egy.state.players[MAC].tribute == 100
    his = play(egy.state)
    again = play(his.state, buy(Purchase("infantry", 1)), march((1,), "MAC", "THR", inf=1))  # 105 again
    assert again.state.inflation == 1 and costs(again) == [20]
    assert not again.state.inflation_pending and not events(again, "inflation_triggered")


def test_C_16_24_mesopotamia_without_syria_or_armenia_buys_no_galleys() -> None:
    state = start(FIVE)
    state.active = "Mesopotamia"
    state.players["Mesopotamia"].treasury = 100
    result = play(state, buy(Purchase("galley", 1), Purchase("infantry", 1)))
    assert verdicts(result) == [(False, "C-12.4"), OK]
    assert treasury(result, "Mesopotamia") == 100 + 15 - 10
