"""Rule tests for the 1984 edition outside movement, economy and combat: definitions (O-0), board (O-2), setup
(O-3), the turn (O-4), leaders, capture, ransom and elimination (O-7), alliances (O-12), victory (O-13) and the
decisions of section 14 that concern them. Test names carry the rule IDs of games/coe-1984/rules.md.

Most captures here need no battle: a leader standing alone where the mover's combat units end their move is
captured at the end of movement (O-5.32). The few battles are tiny, with given dice: one die per shot, the
attacker's shot first (O-6.13); the default target is the enemy unit with the lowest target number (O-14.4).
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from adjudicator.orders import parse_orders
from adjudicator.resources import resource_dir
from adjudicator.rulesets import Ruleset, coe, load_ruleset
from adjudicator.rulesets.coe.orders import (
    CAESAR,
    BattleOrder,
    Captives,
    Concede,
    DestroyCity,
    FreedTo,
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
from adjudicator.rulesets.coe.state import Captive, Cargo, Force, GameState, snapshot_text
from adjudicator.rulesets.coe.turn import NotDue, TurnResult, resolve
from adjudicator.rulesets.coe.vocabulary import PIECES, UNIT_KINDS
from tests.helpers import buy, force, march, place, play, sail, start, verdicts
from tests.rule_coverage import rule_ids

OK = (True, "")
MAC, GAL, EGY, NUM, HIS, ITA = "Macedonia", "Galatia", "Egyptus", "Numidia", "Hispania", "Italia"
SIX = [MAC, GAL, EGY, NUM, HIS, ITA]
STRAITS = [("THR", "ASI"), ("SIC", "NEA"), ("BAE", "TIN"), ("SAR", "COR"), ("BRI", "BEL")]
RULES_MD = resource_dir("games") / "coe-1984" / "rules.md"


# -- tiny helpers ------------------------------------------------------------------------------------------------


def rules() -> Ruleset:
    return load_ruleset("coe-1984")


def game(seats: list[str] | None = None) -> GameState:
    """Turn 0 of a 1984 game (Macedonia, Egyptus, Hispania unless named)."""
    return start(seats or [MAC, EGY, HIS], ruleset="coe-1984")


def send(state: GameState, seat: str, area: str, *leaders: int, inf: int = 0) -> GameState:
    """Take leaders and infantry of `seat` from his home province (where his city still leads the rest) and stand
    them in `area`; control is not changed."""
    home, there = state.force(state.players[seat].home, seat), state.force(area, seat)
    for leader in leaders:
        if leader == CAESAR:
            home.caesar, there.caesar = 0, 1
        else:
            home.generals.remove(leader)
            there.generals.append(leader)
    home.infantry -= inf
    there.infantry += inf
    return state


def own(state: GameState, seat: str, *codes: str) -> GameState:
    for code in codes:
        state.area(code).owner = seat
    return state


def prisoner(state: GameState, holder: str, owner: str, general: int) -> GameState:
    """`owner`'s general, taken from his home province, is held by `holder`."""
    state.force(state.players[owner].home, owner).generals.remove(general)
    state.players[holder].captives.append(Captive(owner, general))
    return state


def events(result: TurnResult, kind: str) -> list[tuple[str | None, dict[str, Any]]]:
    return [(e.seat, e.data) for e in result.events if e.kind == kind]


def decisions(result: TurnResult, prefix: str) -> list[tuple[str | None, str, str, str, str]]:
    return [
        (e.seat, e.data["key"], e.data["choice"], e.data["source"], e.data["rule"])
        for e in result.events
        if e.kind == "decision" and e.data["key"].startswith(prefix)
    ]


def captured(result: TurnResult) -> list[tuple[str | None, str, str, str]]:
    """(captor, owner, leader, choice) of every capture."""
    return [(s, d["owner"], d["leader"], d["choice"]) for s, d in events(result, "captured")]


def generals_of(state: GameState, seat: str) -> list[int]:
    return sorted(g for area in state.areas.values() if seat in area.units for g in area.units[seat].generals)


def treasury(result: TurnResult, seat: str = MAC) -> int:
    return result.state.players[seat].treasury


def offer(
    owner: str, general: int, talents: int = 0, prisoners: tuple[tuple[str, int], ...] = (), line: int = 1
) -> RansomOffer:
    return RansomOffer(owner, general, talents, prisoners, line=line, text=f"RANSOM OFFER {owner} G{general}")


def accept(owner: str, general: int, talents: int, line: int = 1) -> RansomAccept:
    return RansomAccept(owner, general, talents, line=line, text=f"RANSOM ACCEPT {owner} G{general}")


def concede(to: str, line: int = 1) -> Concede:
    return Concede(to, line=line, text=f"CONCEDE TO {to}")


def press(to: str | None, message: str, line: int = 1) -> Press:
    return Press(to, message, line=line, text=f"PRESS {message}")


def lone_caesar(state: GameState, seat: str = EGY, area: str = "THR") -> GameState:
    """`seat`'s Caesar stands alone in `area`; Macedonia's G1 with 2 INF stands there too (captured at the end of
    Macedonia's movement, O-5.32)."""
    return send(send(state, seat, area, CAESAR), MAC, area, 1, inf=2)


def spec_text() -> tuple[str, str]:
    """The rules spec split into the numbered rules and the index of ambiguities (section 16)."""
    body, index = RULES_MD.read_text(encoding="utf-8").split("## 16. Index of ambiguities")
    return body, index


# -- O-0: conventions and definitions --------------------------------------------------------------------------


def test_O_0_1_every_rejection_in_a_1984_game_cites_an_O_rule_of_the_spec() -> None:
    result = play(
        game(),
        march((1,), "MAC", "ASI", line=1),
        march((), "MAC", "THR", inf=1, line=2),
        Sail((1,), "MAC", ("AEG",), line=3, text="SAIL GALLEY 1: MAC -> AEG"),
        NavalBattle("AEG", line=4, text="NAVAL AEG"),
        BattleOrder(("THR",), line=5, text="BATTLES THR"),
        DestroyCity("EGY", line=6, text="DESTROY CITY EGY"),
        buy(Purchase("city"), Purchase("infantry", 70), Purchase("road", at="MAC", to="THR"), line=7),
        offer(EGY, 1, 10, line=8),
        concede(MAC, line=9),
        Homes(("MAC",), line=10, text="HOMES MAC"),
        march((7,), "MAC", "THR", line=11),
        march((1,), "EGY", "PAL", line=12),
        accept(HIS, 2, 5, line=13),
    )
    known = set(rule_ids("coe-1984"))
    assert len(result.order_results) == 15 and not any(r.accepted for r in result.order_results)
    for verdict in result.order_results:
        assert re.fullmatch(r"O-\d+\.\d+", verdict.rule) and verdict.rule in known, verdict
        assert verdict.verdict.startswith(f"rejected ({verdict.rule}): ")
    cited = {r.line: r.rule for r in result.order_results}
    assert (cited[8], cited[9], cited[10], cited[13]) == ("O-7.4", "O-13.2", "O-14.1", "O-7.4")


def test_O_0_1_every_rule_the_engine_cites_exists_in_the_1984_spec() -> None:
    ruleset, known = rules(), set(rule_ids("coe-1984"))
    engine = Path(coe.__file__).resolve().parent
    cited: set[str] = set()
    direct: set[str] = set()
    for path in sorted(engine.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        cited |= set(re.findall(r"""rule\(\s*["'](\d+\.\d+)["']\s*\)""", text))
        direct |= set(re.findall(r"\bO-\d+\.\d+\b", text))
    assert {"1.6", "3.1", "5.31", "8.8", "13.1", "14.1", "15.11"} <= cited
    missing = {number: ruleset.rule(number) for number in cited if ruleset.rule(number) not in known}
    assert not missing, f"Classic numbers the engine cites whose 1984 ID is not in the spec: {missing}"
    assert direct <= known, sorted(direct - known)
    assert set(ruleset.data["rule_map"].values()) <= known
    assert all(re.fullmatch(r"\d+\.\d+", number) for number in ruleset.data["rule_map"])


def test_O_0_1_rule_ids_are_unique_and_well_formed() -> None:
    body, _ = spec_text()
    defined = re.findall(r"^(?:- |\| )(O-\d+\.\d+)\b", body, flags=re.MULTILINE)
    assert len(defined) == len(set(defined)) > 150
    for rule in defined:
        section, number = rule[2:].split(".")
        assert int(section) <= 15 and int(number) >= 1
    assert set(defined) == set(rule_ids("coe-1984"))  # section 16 only repeats IDs defined above


def test_O_0_2_every_ambiguity_has_a_binding_resolution_and_is_indexed() -> None:
    body, index = spec_text()
    classic = (resource_dir("games") / "coe-classic" / "rules.md").read_text(encoding="utf-8")
    ambiguous = set()
    for item in re.split(r"^- (?=O-\d+\.\d+ )", body, flags=re.MULTILINE)[1:]:
        rule = item.split()[0]
        if rule == "O-0.2":
            continue
        if "Ambiguity:" in item:
            assert "Resolution:" in item.split("Ambiguity:", 1)[1], rule
            ambiguous.add(rule)
        elif re.search(r"ambiguity and resolution", item, flags=re.IGNORECASE):
            # "as C-x.y": the Classic rule named there carries the binding resolution
            twins = [classic.split(f"- {twin} ", 1)[1].split("\n- ", 1)[0] for twin in re.findall(r"C-\d+\.\d+", item)]
            assert any("Ambiguity:" in twin and "Resolution:" in twin for twin in twins), rule
            ambiguous.add(rule)
    assert set(re.findall(r"^\| (O-\d+\.\d+) ", index, flags=re.MULTILINE)) == ambiguous
    # resolutions are what the adjudicator does: Britannia-Belgica is not adjacent (O-2.3), no starting money (O-3.5)
    state = own(send(game(), MAC, "BRI", 1, inf=1), MAC, "BRI")
    result = play(state, march((1,), "BRI", "BEL", inf=1))
    assert not result.order_results[0].accepted and force(result, "BRI", MAC).infantry == 1
    assert all(p.treasury == 0 for p in game().players.values())


def test_O_0_3_an_area_is_a_land_province_or_a_sea_zone_of_the_board() -> None:
    board = rules().board
    assert {a.kind for a in board.areas.values()} == {"land", "sea"}
    assert sum(a.is_land for a in board.areas.values()) == 42 and len(board.areas) == 60
    result = play(
        game(), march((1,), "MAC", "XYZ", line=1), march((1,), "MAC", "AEG", line=2), march((1,), "MAC", "ACH", line=3)
    )
    assert verdicts(result) == [(False, "O-2.2"), (False, "O-5.19"), OK]
    assert all(code in board.areas for code in result.state.areas)
    state = place(game(), "MAC", MAC, galleys=[1], galley_coasts={1: "AEG"})
    result = play(state, sail((1,), "MAC", "AEG", leaders=(1,), inf=2))
    assert verdicts(result) == [OK] and result.state.areas["AEG"].owner is None  # sea zones are never controlled
    for code, area in result.state.areas.items():
        assert area.owner is None or board.is_land(code)


def test_O_0_4_combat_units_are_infantry_cavalry_catapults_and_galleys_never_conquer() -> None:
    assert UNIT_KINDS == ("infantry", "cavalry", "catapult")
    limits = rules().data["limits"]
    assert (limits["infantry"], limits["cavalry"], limits["catapult"], limits["galley"]) == (60, 30, 20, 6)
    state = game()
    state.force("AEG", MAC).galleys = [1]
    state.force("RHO", MAC).galleys = [2]
    result = play(state, sail((1,), "AEG", "ACH", line=1), sail((2,), "RHO", "ASI", line=2))
    assert verdicts(result) == [OK, OK]
    assert result.state.areas["ACH"].owner is None and force(result, "ACH", MAC).galleys == [1]
    assert result.state.areas["ASI"].owner is None and result.state.players[MAC].tribute == 15


def test_O_0_5_a_city_is_a_stationary_leader() -> None:
    # the Caesar and all six generals leave: the 4 infantry stay with the city, their leader
    result = play(game(), march((CAESAR, 1, 2, 3, 4, 5, 6), "MAC", "THR"))
    assert verdicts(result) == [OK]
    assert force(result, "MAC", MAC) == Force(infantry=4) and result.state.areas["MAC"].owner == MAC
    # but a city moves nothing: units without a Caesar or general stay where they are
    result = play(game(), march((), "MAC", "THR", inf=1))
    assert verdicts(result) == [(False, "O-5.5")] and force(result, "MAC", MAC).infantry == 4
    # and where there is no city, combat units may not be left without a Caesar or general
    result = play(game(), march((1,), "MAC", "THR", inf=2, line=1), march((1,), "THR", "MOE", line=2))
    assert verdicts(result) == [OK, (False, "O-5.7")]
    assert force(result, "THR", MAC) == Force(generals=[1], infantry=2)


def test_O_0_6_a_legion_is_a_leader_with_one_to_seven_combat_units() -> None:
    state = place(game(), "MAC", MAC, infantry=10)
    result = play(
        state,
        march((1,), "MAC", "THR", inf=8, line=1),
        march((1,), "MAC", "THR", inf=7, line=2),
        march((2,), "MAC", "MOE", line=3),
    )
    assert verdicts(result) == [(False, "O-5.7"), OK, OK]  # a general alone may move (O-5.8)
    assert force(result, "THR", MAC) == Force(generals=[1], infantry=7)
    assert force(result, "MOE", MAC) == Force(generals=[2]) and result.state.areas["MOE"].owner is None


def test_O_0_7_turn_round_control_tribute_and_treasury_as_classic() -> None:
    state = game()
    assert all(state.areas[c].owner == s for c, s in (("MAC", MAC), ("EGY", EGY), ("HIS", HIS)))
    first = play(state, march((1,), "MAC", "THR", inf=1))
    assert first.state.areas["THR"].owner == MAC  # neutral before, controlled now
    assert first.state.players[MAC].tribute == 20 and treasury(first) == 20  # the treasury gets the tribute value
    second = play(play(first.state).state)
    assert (second.state.active, second.state.round, second.state.turn) == (MAC, 2, 3)
    third = play(second.state)
    assert treasury(third) == 40  # the treasury carries over


def test_O_0_7_O_12_2_allied_pieces_are_still_other_players_pieces() -> None:
    state = send(game(), EGY, "THR", 2)
    send(state, EGY, "MOE", 3, inf=1)
    alliance = press(EGY, "An alliance: you take Asia, I take Thracia", line=1)
    result = play(state, alliance, march((1,), "MAC", "THR", inf=1, line=2), march((CAESAR,), "MAC", "MOE", line=3))
    assert verdicts(result) == [OK, OK, (False, "O-5.11")]  # leaders alone may not enter the ally's units
    assert captured(result) == [(MAC, EGY, "G2", "ransom")]  # the ally's lone general is captured all the same
    assert result.state.areas["THR"].owner == MAC


def test_O_0_8_a_shot_is_one_die_at_one_named_unit() -> None:
    state = own(send(game(), EGY, "THR", 1, inf=1), EGY, "THR")
    state.force("THR", EGY).cavalry = 1
    # shot 1 (attacker): the infantry (4+) is named and hit with a 4, the cavalry stays;
    # shot 2 (defender): a 1 misses; shot 3 (attacker): the cavalry (5+) falls to a 5 and the battle ends
    result = play(state, march((1,), "MAC", "THR", inf=2), dice=[4, 1, 5])
    assert [value for _, value in result.dice] == [4, 1, 5]
    assert force(result, "THR", MAC) == Force(generals=[1], infantry=2)
    assert result.state.areas["THR"].owner == MAC and captured(result) == [(MAC, EGY, "G1", "ransom")]


# -- O-2: board and adjacency ------------------------------------------------------------------------------------


def test_O_2_1_six_red_ten_homes_and_mesopotamia_is_an_ordinary_province() -> None:
    ruleset = rules()
    board_data = tomllib.loads((resource_dir("games") / "coe-1984" / "board.toml").read_text(encoding="utf-8"))
    red_tens = {a["code"] for a in board_data["area"] if a.get("home_1984")}
    assert red_tens == {s.home for s in ruleset.seats} == {"HIS", "ITA", "MAC", "GAL", "NUM", "EGY"}
    assert ruleset.seat_names == tuple(SIX)
    assert ruleset.lookup_seat("Mesopotamia") == [] and ruleset.seat_of_home("MES") is None
    assert not ruleset.data.get("galley_sites")  # no Mesopotamia galley rule (O-11.3)
    assert ruleset.board.value("MES") == 10
    state = own(send(game(), MAC, "ARM", 1, inf=1), MAC, "ARM")
    result = play(state, march((1,), "ARM", "MES", inf=1))
    assert verdicts(result) == [OK] and result.state.areas["MES"].owner == MAC
    assert result.state.players[MAC].tribute == 15 + 5 + 10  # worth its printed 10, like any province


def test_O_2_2_one_move_into_an_adjacent_area() -> None:
    state = game()
    state.force("AEG", MAC).galleys = [1]
    result = play(
        state,
        march((1,), "MAC", "ACH", inf=1, line=1),
        march((2,), "MAC", "GAL", line=2),
        sail((1,), "AEG", "ALX", line=3),
        sail((1,), "AEG", "RHO", "ALX", line=4),
    )
    assert verdicts(result) == [OK, (False, "O-2.2"), (False, "O-5.23"), OK]
    assert force(result, "ACH", MAC) == Force(generals=[1], infantry=1) and force(result, "ALX", MAC).galleys == [1]


@pytest.mark.parametrize(("here", "there"), STRAITS + [(b, a) for a, b in STRAITS])
def test_O_2_3_no_land_move_across_any_of_the_five_straits(here: str, there: str) -> None:
    state = own(send(game(), MAC, here, 1, inf=1), MAC, here)
    result = play(state, march((1,), here, there, inf=1))
    (verdict,) = result.order_results
    assert not verdict.accepted and verdict.rule in ("O-2.2", "O-2.3", "O-5.27"), verdict
    assert force(result, here, MAC) == Force(generals=[1], infantry=1) and there not in result.state.areas
    assert there not in rules().board.land_neighbours(here)


def test_O_2_3_the_classic_edition_still_crosses_its_four_straits() -> None:
    classic = load_ruleset("coe-classic").board
    crossing = {frozenset(pair) for pair in STRAITS if pair[1] in classic.land_neighbours(pair[0])}
    assert crossing == {frozenset(p) for p in STRAITS if p != ("SAR", "COR")}
    state = own(send(start(), MAC, "THR", 1, inf=1), MAC, "THR")
    assert verdicts(play(state, march((1,), "THR", "ASI", inf=1))) == [OK]


def test_O_2_3_a_galley_carries_a_legion_over_a_strait() -> None:
    state = own(send(game(), MAC, "THR", 1, inf=2), MAC, "THR")
    place(state, "THR", MAC, galleys=[1])
    result = play(state, sail((1,), "THR", "AEG", "ASI", leaders=(1,), inf=2))
    assert verdicts(result) == [OK]
    assert result.state.areas["ASI"].owner == MAC
    assert force(result, "ASI", MAC) == Force(generals=[1], infantry=2, galleys=[1])


def test_O_2_3_O_11_6_no_road_across_a_strait() -> None:
    state = own(game(), MAC, "SIC", "NEA", "THR")
    for code in ("SIC", "NEA", "THR"):
        state.area(code).city = "city"
    result = play(state, buy(Purchase("road", at="SIC", to="NEA"), Purchase("road", at="MAC", to="THR")))
    assert verdicts(result) == [(False, "O-11.6"), OK]
    assert result.state.areas["SIC"].roads == [] and result.state.areas["MAC"].roads == ["THR"]


def test_O_2_4_egyptus_is_one_province_with_one_coast() -> None:
    board = rules().board
    assert board.coasts("EGY") == (frozenset({"ALX", "PEL"}),)
    state = game()
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
    assert result.state.areas["PAL"].owner == EGY and result.state.areas["CYR"].owner == EGY


def test_O_2_5_hispania_italia_and_macedonia_have_two_coasts() -> None:
    board = rules().board
    assert set(board.split_coasts) == {"HIS", "ITA", "MAC"}
    assert all(len(board.coasts(code)) == 2 for code in ("HIS", "ITA", "MAC"))
    state = place(game(), "MAC", MAC, galleys=[1, 2], galley_coasts={1: "EPI", 2: "EPI"})
    result = play(state, sail((1,), "MAC", "AEG", line=1), sail((2,), "MAC", "EPI", line=2))
    assert verdicts(result) == [(False, "O-5.26"), OK]
    assert force(result, "MAC", MAC).galleys == [1] and force(result, "EPI", MAC).galleys == [2]


def test_O_2_6_the_board_data_is_authoritative_and_no_strait_is_adjacent() -> None:
    board, classic = rules().board, load_ruleset("coe-classic").board
    assert board.areas == classic.areas and board.adjacency == classic.adjacency
    assert board.split_coasts == classic.split_coasts
    data = tomllib.loads((resource_dir("games") / "coe-1984" / "board.toml").read_text(encoding="utf-8"))
    pairs = {frozenset(s["between"]) for s in data["strait"]}
    assert pairs == {frozenset(p) for p in STRAITS}
    assert board.straits == frozenset()
    for pair in pairs:
        a, b = sorted(pair)
        assert b not in board.land_neighbours(a) and a not in board.land_neighbours(b)
        assert not board.land_border(a, b)


# -- O-3: setup -----------------------------------------------------------------------------------------------------


HOMES = {
    2: ["EGY", "HIS"],
    3: ["MAC", "EGY", "HIS"],
    4: ["MAC", "GAL", "NUM", "HIS"],
    5: ["MAC", "GAL", "EGY", "HIS", "ITA"],
    6: ["MAC", "GAL", "EGY", "NUM", "HIS", "ITA"],
}


@pytest.mark.parametrize("players", sorted(HOMES))
def test_O_3_1_home_provinces_in_play_by_number_of_players(players: int) -> None:
    ruleset = rules()
    seats = [ruleset.seat_of_home(code) or code for code in HOMES[players]]
    state = ruleset.initial_state("g", list(reversed(seats)))
    assert [p.home for p in state.players.values()] == HOMES[players]  # in turn order (O-4.1)
    assert sorted(c for c, a in state.areas.items() if a.owner) == sorted(HOMES[players])


def test_O_3_1_wrong_seats_are_refused_citing_O_3_1() -> None:
    ruleset = rules()
    refused = [[ITA, EGY, HIS], [MAC, EGY, NUM, HIS], [MAC, GAL, NUM, HIS, ITA], [MAC, "Mesopotamia", HIS], [MAC, HIS]]
    for seats in refused:
        with pytest.raises(SetupError, match=r"\(O-3\.1\)") as refusal:
            ruleset.initial_state("g", seats)
        assert "C-3.1" not in str(refusal.value)
    for seats in ([MAC], SIX + ["Mesopotamia"]):
        with pytest.raises(SetupError, match=r"\(O-1\.8\)"):
            ruleset.initial_state("g", seats)
    with pytest.raises(SetupError, match="C-3.1"):  # the Classic edition keeps its own ID
        load_ruleset("coe-classic").initial_state("g", [ITA, EGY, HIS])


def test_O_3_2_O_14_1_one_home_per_player_assigned_when_the_game_is_created() -> None:
    with pytest.raises(SetupError, match=r"twice.*\(O-3\.2\)"):
        rules().initial_state("g", [MAC, MAC, EGY])
    state = game()
    assert len({p.home for p in state.players.values()}) == len(state.players) == 3
    result = play(state, Homes(("HIS", "MAC"), line=1, text="HOMES HIS, MAC"))
    assert verdicts(result) == [(False, "O-14.1")]
    assert {s: p.home for s, p in result.state.players.items()} == {MAC: "MAC", EGY: "EGY", HIS: "HIS"}


def test_O_3_3_a_caesar_and_six_generals_of_the_players_colour() -> None:
    assert rules().data["limits"]["generals"] == 6
    state = game(SIX)
    for seat, player in state.players.items():
        home = state.areas[player.home].units[seat]
        assert home.caesar == 1 and home.generals == [1, 2, 3, 4, 5, 6]
    result = play(
        state,
        march((5,), "MAC", "THR", inf=1, line=1),
        march((6,), "MAC", "MOE", line=2),
        march((7,), "MAC", "ACH", line=3),
    )
    assert verdicts(result) == [OK, OK, (False, "O-4.3")]  # there is no seventh general
    assert force(result, "THR", MAC) == Force(generals=[5], infantry=1)


def test_O_3_4_caesar_six_generals_four_infantry_and_a_fortified_city_at_home() -> None:
    state = game(SIX)
    for seat, player in state.players.items():
        home = state.areas[player.home]
        assert home.owner == seat and home.city == "fortified" and home.roads == []
        assert home.units == {seat: Force(caesar=1, generals=[1, 2, 3, 4, 5, 6], infantry=4)}


def test_O_3_5_tribute_value_15_and_an_empty_treasury() -> None:
    state = game()
    assert all((p.tribute, p.treasury) == (15, 0) for p in state.players.values())
    result = play(state, buy(Purchase("infantry", 2), Purchase("infantry", 1)))
    assert verdicts(result) == [(False, "O-10.1"), OK]  # 15 talents collected in the first tribute phase
    assert treasury(result) == 5 and force(result, "MAC", MAC).infantry == 5


def test_O_3_6_every_other_province_neutral_and_empty_no_roads_base_prices() -> None:
    state = game()
    for code in rules().board.areas:
        area = state.areas.get(code)
        if code in ("MAC", "EGY", "HIS"):
            assert area is not None and area.owner is not None
        else:
            assert area is None or (area.owner is None and not area.units and not area.city), code
    assert "MES" not in state.areas and "GAL" not in state.areas
    assert state.inflation == 0 and not state.inflation_pending
    assert all(not a.roads for a in state.areas.values())
    state.players[MAC].treasury = 200
    result = play(state, buy(*(Purchase(p, 1) for p in UNIT_KINDS)))
    assert [d["cost"] for _, d in events(result, "bought")] == [10, 25, 40]


# -- O-4: turn order and turn sequence ---------------------------------------------------------------------------


def test_O_4_1_clockwise_from_macedonia_without_mesopotamia() -> None:
    state = game(list(reversed(SIX)))
    assert list(state.players) == SIX and state.active == MAC
    order = []
    for _ in range(7):
        order.append(state.active)
        state = play(state).state
    assert order == [*SIX, MAC] and state.round == 2
    five = game([ITA, HIS, EGY, GAL, MAC])
    seen = []
    for _ in range(5):
        seen.append(five.active)
        five = play(five).state
    assert seen == [MAC, GAL, EGY, HIS, ITA]  # Numidia is not in play


def test_O_4_1_eliminated_players_are_skipped() -> None:
    result = play(lone_caesar(game()))
    assert result.state.players[EGY].eliminated and result.state.active == HIS
    following = play(result.state)
    assert (following.state.active, following.state.round) == (MAC, 2)


def test_O_4_2_six_actions_in_order() -> None:
    state = own(game(), MAC, "MOE")
    state.area("MOE").city = "city"
    result = play(
        state,
        buy(Purchase("infantry", 1), line=1),
        march((1,), "MAC", "THR", inf=5, line=2),
        DestroyCity("MOE", line=3, text="DESTROY CITY MOE"),
        march((2,), "MAC", "THR", inf=4, line=4),
    )
    assert verdicts(result) == [OK, (False, "O-4.3"), OK, OK]  # the unit bought in action 5 cannot move
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
    assert treasury(result) == 15 + 5 + 5 + 5 - 10  # tribute of MAC, MOE with its city and THR, before destruction


def test_O_4_3_only_the_active_player_acts() -> None:
    orders = OrderSet(Header("test", 1, EGY, "x"), (march((1,), "EGY", "PAL", inf=1),))
    with pytest.raises(NotDue, match="Macedonia"):
        resolve(rules(), game(), orders, None)  # type: ignore[arg-type]
    result = play(game(), march((1,), "EGY", "PAL", inf=1))
    assert verdicts(result) == [(False, "O-4.3")] and "PAL" not in result.state.areas


def test_O_4_3_O_14_8_the_defender_decides_about_the_leaders_he_captures() -> None:
    state = own(send(game(), EGY, "THR", 2, inf=1), EGY, "THR")
    result = play(state, march((1,), "MAC", "THR", inf=1), dice=[1, 4])  # the attacker misses, the defender hits
    assert result.state.areas["THR"].owner == EGY
    assert captured(result) == [(EGY, MAC, "G1", "ransom")]
    assert decisions(result, "captive.") == [(EGY, "captive.Macedonia.G1", "ransom", "default", "O-14.8")]
    assert result.state.players[EGY].captives == [Captive(MAC, 1)]


def test_O_4_4_play_continues_until_the_game_is_won() -> None:
    state = game()
    for _ in range(7):
        state = play(state).state
    assert state.winner is None and state.active == EGY and state.round == 3
    state = play(play(state, concede(HIS)).state).state
    result = play(state, concede(HIS))
    assert result.state.winner == HIS and result.state.active is None
    with pytest.raises(NotDue, match="ended"):
        resolve(rules(), result.state, None, None)  # type: ignore[arg-type]


# -- O-7: capture, prisoners, ransom, elimination ----------------------------------------------------------------


def test_O_7_1_O_5_32_leaders_alone_are_captured_when_combat_units_enter() -> None:
    state = send(game(), EGY, "THR", 1, 2)
    send(state, EGY, "MOE", 3)
    result = play(state, march((1,), "MAC", "THR", inf=1, line=1), march((2,), "MAC", "MOE", line=2))
    assert verdicts(result) == [OK, OK]
    assert captured(result) == [(MAC, EGY, "G1", "ransom"), (MAC, EGY, "G2", "ransom")]
    assert all(d["rule"] == "O-5.32" for _, d in events(result, "captured"))
    # a general without combat units captures nobody (O-5.34)
    assert force(result, "MOE", EGY) == Force(generals=[3]) and force(result, "MOE", MAC) == Force(generals=[2])


def test_O_7_1_O_6_12_leaders_are_never_shot_and_fall_with_their_last_combat_unit() -> None:
    state = own(send(game(), EGY, "THR", CAESAR, 2, inf=1), EGY, "THR")
    result = play(state, march((1,), "MAC", "THR", inf=1), dice=[4])  # one shot: the infantry is the only target
    assert [value for _, value in result.dice] == [4]
    assert captured(result) == [(MAC, EGY, "G2", "ransom"), (MAC, EGY, "Caesar", "")]
    assert result.state.players[EGY].eliminated and result.state.areas["THR"].owner == MAC


def test_O_7_2_O_14_8_a_captured_general_is_held_for_ransom_by_default() -> None:
    result = play(send(game(), EGY, "THR", 3), march((1,), "MAC", "THR", inf=1))
    assert decisions(result, "captive.") == [(MAC, "captive.Egyptus.G3", "ransom", "default", "O-14.8")]
    assert result.state.players[MAC].captives == [Captive(EGY, 3)]
    assert generals_of(result.state, EGY) == [1, 2, 4, 5, 6]


def test_O_7_2_O_14_8_a_killed_general_is_gone_for_good() -> None:
    state = send(game(), EGY, "THR", 3)
    state.players[MAC].standing["captives"] = {EGY: "kill"}
    result = play(state, march((1,), "MAC", "THR", inf=1))
    assert decisions(result, "captive.") == [(MAC, "captive.Egyptus.G3", "kill", "standing order", "O-14.8")]
    assert result.state.players[MAC].captives == []
    assert not {"caesar", "general", "generals", "leader"} & set(PIECES)  # leaders are never bought (O-1.7)
    state = result.state
    for _ in range(3):
        state = play(state).state
    assert generals_of(state, EGY) == [1, 2, 4, 5, 6]


def test_O_7_2_O_14_8_standing_order_and_answer() -> None:
    state = send(game(), EGY, "THR", 3, 4)
    result = play(
        state,
        Captives("kill", line=1, text="CAPTIVES KILL"),
        march((1,), "MAC", "THR", inf=1, line=2),
        answers={MAC: {"captive.Egyptus.G4": "ransom"}},
    )
    assert decisions(result, "captive.") == [
        (MAC, "captive.Egyptus.G3", "kill", "standing order", "O-14.8"),
        (MAC, "captive.Egyptus.G4", "ransom", "answer", "O-14.8"),
    ]
    assert result.state.players[MAC].captives == [Captive(EGY, 4)]


def test_O_7_2_O_15_23_a_prisoner_is_no_leader_in_the_captors_home() -> None:
    state = prisoner(place(game(), "MAC", MAC, infantry=8), MAC, EGY, 1)
    leaders = (CAESAR, 1, 2, 3, 4, 5, 6)
    result = play(state, march(leaders, "MAC", "THR"))
    assert verdicts(result) == [(False, "O-5.7")]  # 8 infantry, the city and a prisoner: only 7 may stay
    result = play(state, march(leaders, "MAC", "THR", inf=1))
    assert verdicts(result) == [OK] and force(result, "MAC", MAC) == Force(infantry=7)


def test_O_7_3_a_prisoner_cannot_move_or_act_and_cannot_be_killed_later() -> None:
    state = prisoner(game(), MAC, EGY, 2)
    result = play(state, Captives("kill", line=1, text="CAPTIVES KILL"))
    assert result.state.players[MAC].captives == [Captive(EGY, 2)]
    assert generals_of(result.state, EGY) == [1, 3, 4, 5, 6]
    egypt = play(result.state, march((2,), "EGY", "CYR", inf=1))
    assert verdicts(egypt) == [(False, "O-4.3")]


def test_O_7_4_O_14_14_ransom_by_offer_and_standing_acceptance() -> None:
    state = prisoner(game(), MAC, EGY, 2)
    state.players[EGY].treasury = 30
    state.players[EGY].standing["ransom_accept"] = [{"owner": EGY, "general": 2, "talents": 25}]
    result = play(state, offer(EGY, 2, 30, line=1), offer(EGY, 2, 25, line=2))
    assert verdicts(result) == [(False, "O-14.14"), OK]  # Egyptus pays at most 25 talents
    assert result.state.players[MAC].captives == [] and 2 in force(result, "EGY", EGY).generals
    assert treasury(result, EGY) == 5 and treasury(result) == 15 + 25
    assert [(s, d["payer"], d["talents"], d["rule"]) for s, d in events(result, "ransomed")] == [
        (MAC, EGY, 25, "O-7.4")
    ]


def test_O_7_4_O_14_14_no_agreement_without_an_acceptance_or_the_money_or_the_home() -> None:
    state = prisoner(game(), MAC, EGY, 2)
    state.players[EGY].treasury = 10
    result = play(state, offer(EGY, 2, 10))
    assert verdicts(result) == [(False, "O-14.14")] and result.state.players[MAC].captives == [Captive(EGY, 2)]
    state.players[EGY].standing["ransom_accept"] = [{"owner": EGY, "general": 2, "talents": 50}]
    result = play(state, offer(EGY, 2, 40))
    assert verdicts(result) == [(False, "O-7.4")] and "does not have 40 talents" in result.order_results[0].reason
    state.areas["EGY"].owner = HIS
    result = play(state, offer(EGY, 2, 10))
    assert verdicts(result) == [(False, "O-7.4")] and "home province" in result.order_results[0].reason
    assert treasury(result, EGY) == 10


def test_O_7_5_a_captured_caesar_puts_his_player_out_at_once() -> None:
    result = play(lone_caesar(game()))
    assert captured(result) == [(MAC, EGY, "Caesar", "")]
    assert decisions(result, "captive.") == []  # no choice to make
    assert result.state.players[EGY].eliminated and result.state.players[EGY].captor == MAC
    assert [(s, d["captor"], d["rule"]) for s, d in events(result, "eliminated")] == [(EGY, MAC, "O-7.6")]


def takeover() -> GameState:
    """Egyptus (30 talents; Egypt with 2 INF and G1, G2, G5, G6; Cyrenaica with a city; galleys 1 and 2 in the
    Alexandrian sea, galley 1 carrying G3 with 2 INF) holds Hispania's G1 and Macedonia's G2; Hispania holds
    Egyptus's G4. Egyptus's Caesar stands alone in Thracia, where Macedonia's G1 ends his move with 2 INF."""
    state = send(game(), EGY, "THR", CAESAR)
    state.players[EGY].treasury = 30
    own(state, EGY, "CYR").area("CYR").city = "city"
    send(state, EGY, "ALX", 3, inf=2)
    alx = state.force("ALX", EGY)
    alx.galleys = [1, 2]
    alx.aboard = {1: Cargo(generals=[3], infantry=2), 2: Cargo()}
    prisoner(state, EGY, HIS, 1)
    prisoner(state, EGY, MAC, 2)
    return prisoner(state, HIS, EGY, 4)


def test_O_7_6_O_1_10_the_captor_takes_over_everything_the_loser_had() -> None:
    result = play(takeover(), march((1,), "MAC", "THR", inf=2))
    state, mac, egy = result.state, result.state.players[MAC], result.state.players[EGY]
    assert egy.eliminated and egy.treasury == 0 and egy.captives == []
    assert not any(EGY in a.units for a in state.areas.values())
    assert state.areas["EGY"].owner == MAC and state.areas["EGY"].city == "fortified"
    assert state.areas["CYR"].owner == MAC and state.areas["CYR"].city == "city"
    # his generals keep their own colour: numbered after the captor's six (G7 to G12), never as one of them
    assert force(result, "EGY", MAC) == Force(generals=[7, 8, 11, 12], infantry=2)
    assert force(result, "ALX", MAC) == Force(
        generals=[9], infantry=2, galleys=[1, 2], aboard={1: Cargo(generals=[9], infantry=2), 2: Cargo()}
    )
    assert mac.captives == [Captive(HIS, 1)] and state.players[HIS].captives == [Captive(MAC, 10)]
    # Macedonia 15 + Thracia 5 + Egypt 15 + Cyrenaica 15, collected with the 30 talents taken over
    assert mac.tribute == 50 and mac.treasury == 30 + 50


def test_O_7_6_O_1_10_taken_over_galleys_do_not_count_against_the_captors_colour() -> None:
    state = takeover()
    state.force("AEG", MAC).galleys = [1, 2, 3, 4, 5]  # five of Macedonia's own six galleys
    result = play(
        state, march((1,), "MAC", "THR", inf=2, line=1), buy(Purchase("galley", 1), Purchase("galley", 1), line=2)
    )
    assert sorted(force(result, "ALX", MAC).galleys) == [6, 7]  # Egyptus's two, under free numbers
    assert verdicts(result) == [OK, OK, (False, "O-10.4")]  # one more of his own, then his colour is used up
    assert len(force(result, "MAC", MAC).galleys) == 1


def test_O_7_6_O_7_2_taken_over_generals_never_take_the_number_of_a_killed_general() -> None:
    state = takeover()
    state.force("MAC", MAC).generals.remove(6)  # Macedonia's G6 was killed long ago
    result = play(state, march((1,), "MAC", "THR", inf=2))
    assert generals_of(result.state, MAC) == [1, 2, 3, 4, 5, 7, 8, 9, 11, 12]
    assert result.state.players[HIS].captives == [Captive(MAC, 10)]


def test_O_7_6_own_generals_among_the_losers_prisoners_go_free_at_home() -> None:
    result = play(takeover(), march((1,), "MAC", "THR", inf=2))
    assert [(s, d["leader"], d["area"], d["rule"]) for s, d in events(result, "freed")] == [(MAC, "G2", "MAC", "O-7.6")]
    assert sorted(force(result, "MAC", MAC).generals) == [2, 3, 4, 5, 6]
    assert not any(c.owner == MAC for c in result.state.players[MAC].captives)


def homeless() -> GameState:
    """Macedonia lost his home to Hispania: his Caesar and generals (G2 is Egyptus's prisoner) stand in Thracia with
    the 4 INF, but G3 holds Moesia with 2 more. Egyptus (3 INF at home) has his Caesar alone in Thracia."""
    state = prisoner(game(), EGY, MAC, 2)
    state.areas["MAC"].owner = HIS
    state.area("THR").units[MAC] = state.areas["MAC"].units.pop(MAC)
    state.areas["THR"].owner = MAC
    state.force("THR", MAC).generals.remove(3)
    place(state, "MOE", MAC, generals=[3], infantry=2)
    state.force("EGY", EGY).infantry = 3  # fewer than Thracia's 4 (O-14.9 default)
    return send(state, EGY, "THR", CAESAR)


def test_O_14_9_freed_leader_without_the_home_province_by_default_where_most_units_stand() -> None:
    result = play(homeless())
    assert decisions(result, "freed.") == [(MAC, "freed.G2", "THR", "default", "O-14.9")]
    assert 2 in force(result, "THR", MAC).generals


def test_O_14_9_freed_leader_by_standing_order_or_answer() -> None:
    state = homeless()
    result = play(state, FreedTo(("ITA", "MOE"), line=1, text="FREED TO ITA, MOE"))  # Italia is not his
    assert decisions(result, "freed.") == [(MAC, "freed.G2", "MOE", "standing order", "O-14.9")]
    assert force(result, "MOE", MAC).generals == [3, 2]
    result = play(state, answers={MAC: {"freed.G2": "EGY"}})
    assert 2 in force(result, "EGY", MAC).generals


def test_O_7_6_O_14_10_the_captor_fights_the_remaining_battles_with_his_own_choices() -> None:
    """Macedonia's Caesar falls in Thracia; Egyptus takes his pieces over and fights the battle in Moesia."""
    state = own(send(game(), EGY, "THR", 1, inf=1), EGY, "THR")
    send(state, MAC, "THR", CAESAR, inf=1)
    own(send(state, HIS, "MOE", 1, inf=1), HIS, "MOE")
    send(state, MAC, "MOE", 1, inf=1)
    state.players[EGY].standing["captives"] = {"*": "kill"}
    state.players[MAC].treasury = 40
    result = play(
        state,
        BattleOrder(("THR", "MOE"), line=1, text="BATTLES THR, MOE"),
        buy(Purchase("infantry", 1), line=2),
        dice=[
            1,
            4,  # Thracia: Macedonia misses, Egyptus hits: Macedonia's Caesar is captured
            4,
        ],
    )  # Moesia, fought by Egyptus: Hispania's infantry falls to the first shot
    assert result.state.players[MAC].eliminated and result.state.players[MAC].captor == EGY
    assert result.state.areas["MOE"].owner == EGY and HIS not in result.state.areas["MOE"].units
    assert captured(result) == [(EGY, MAC, "Caesar", ""), (EGY, HIS, "G1", "kill")]
    assert decisions(result, "captive.Hispania") == [(EGY, "captive.Hispania.G1", "kill", "standing order", "O-14.8")]
    assert verdicts(result) == [OK, (False, "O-7.6")]  # Macedonia's actions 3 to 6 are skipped
    assert not events(result, "tribute") and treasury(result, EGY) == 40
    assert result.state.active == EGY


def test_O_7_7_a_player_with_his_caesar_stays_in_the_game_without_provinces() -> None:
    state = game()
    state.areas["EGY"].owner = HIS
    state.areas["EGY"].units[EGY] = Force(caesar=1)  # nothing left but his Caesar
    result = play(state)
    assert not result.state.players[EGY].eliminated and result.state.active == EGY
    egypt = play(result.state)
    assert [d["amount"] for _, d in events(egypt, "tribute")] == [0]
    assert not egypt.state.players[EGY].eliminated and egypt.state.active == HIS and egypt.state.winner is None


# -- O-12: alliances ---------------------------------------------------------------------------------------------


def test_O_12_1_O_14_16_alliances_may_be_proposed_at_any_time_and_change_nothing() -> None:
    state = game()
    quiet = play(state, march((1,), "MAC", "THR", inf=1, line=1))
    talk = play(
        state,
        press(EGY, "Alliance against Hispania until Asia falls?", line=1),
        march((1,), "MAC", "THR", inf=1, line=2),
        press(None, "Macedonia and Egyptus are friends", line=3),
    )
    assert verdicts(talk) == [OK, OK, OK]
    assert [r.reason for r in talk.order_results if r.line != 2] == ["relayed to Egyptus", "relayed"]
    assert [d for _, d in events(talk, "press")] == [
        {"to": EGY, "message": "Alliance against Hispania until Asia falls?"},
        {"to": None, "message": "Macedonia and Egyptus are friends"},
    ]
    assert snapshot_text(talk.state) == snapshot_text(quiet.state)  # no rule effect at all


def test_O_12_3_no_talents_or_pieces_pass_except_by_ransom_and_elimination() -> None:
    state = own(game(), EGY, "THR")
    state.players[MAC].treasury = 50
    state.players[EGY].treasury = 7
    state.players[EGY].standing["ransom_accept"] = [{"owner": EGY, "general": 1, "talents": 0}]
    # a "gift" dressed as a ransom for a general nobody holds is no agreement
    result = play(state, offer(EGY, 1, 0, line=1), march((1,), "MAC", "THR", inf=1, line=2))
    assert verdicts(result) == [(False, "O-7.4"), OK]
    assert treasury(result, EGY) == 7 and treasury(result) == 50 + 20  # a conquest takes no talents
    assert force(result, "THR", MAC) == Force(generals=[1], infantry=1)
    text = f"GAME test TURN 1 PLAYER {MAC} PASSWORD x\nGIVE 10 TALENTS TO {EGY}\nTRANSFER 2 INF TO {EGY}\n"
    parsed = parse_orders(text, rules())
    assert not parsed.orders and len(parsed.errors) == 2  # the order language has no gift


# -- O-13: victory ---------------------------------------------------------------------------------------------------


def test_O_13_1_the_last_caesar_wins() -> None:
    state = game([EGY, HIS])
    assert state.active == EGY
    send(state, HIS, "CYR", CAESAR)
    result = play(state, march((1,), "EGY", "CYR", inf=1, line=1), buy(Purchase("infantry"), line=2))
    assert result.state.winner == EGY and result.state.active is None
    assert [(s, d["rule"]) for s, d in events(result, "victory")] == [(EGY, "O-13.1")]
    assert verdicts(result) == [OK, (False, "O-13.1")]  # the game is over
    assert "Egyptus wins" in result.order_results[1].reason


def test_O_13_1_no_winner_while_two_caesars_remain() -> None:
    result = play(lone_caesar(game()))
    assert result.state.players[EGY].eliminated and result.state.winner is None
    assert result.state.active == HIS and not events(result, "victory")
    assert len(rules().board.areas) > len([c for c, a in result.state.areas.items() if a.owner])  # nobody needs all


def test_O_13_2_O_14_15_a_winner_declared_by_common_agreement() -> None:
    state = game()
    result = play(state, concede(MAC, line=1), concede("Italia", line=2), concede(HIS, line=3))
    assert verdicts(result) == [(False, "O-13.2"), (False, "O-13.2"), OK]
    assert result.state.winner is None and result.state.players[MAC].conceded_to == HIS
    following = play(result.state, concede(HIS))
    assert following.state.winner == HIS and following.state.active is None
    assert [(s, d["rule"]) for s, d in events(following, "victory")] == [(HIS, "O-13.2")]


def test_O_14_15_without_concessions_the_game_goes_on() -> None:
    state = game()
    for _ in range(6):
        state = play(state).state
    assert state.winner is None and all(p.conceded_to is None for p in state.players.values())


# -- O-14: decisions during play -----------------------------------------------------------------------------------


def test_O_14_2_without_orders_nothing_moves() -> None:
    state = send(game(), MAC, "THR", 1, inf=1)
    own(state, MAC, "THR")
    result = play(state)
    for code in ("MAC", "THR", "EGY", "HIS"):
        assert result.state.areas[code].units == state.areas[code].units
    assert not events(result, "moved") and treasury(result) == 20


def test_O_14_11_cities_are_destroyed_only_by_order() -> None:
    state = own(game(), MAC, "THR")
    state.area("THR").city = "city"
    assert play(state).state.areas["THR"].city == "city"
    result = play(
        state, DestroyCity("THR", line=1, text="DESTROY CITY THR"), DestroyCity("EGY", line=2, text="DESTROY CITY EGY")
    )
    assert verdicts(result) == [OK, (False, "O-9.1")]
    assert result.state.areas["THR"].city is None and result.state.areas["THR"].owner == MAC
    assert result.state.players[MAC].tribute == 20 and result.state.areas["EGY"].city == "fortified"


def test_O_14_12_nothing_is_bought_without_an_order() -> None:
    state = game()
    state.players[MAC].treasury = 100
    result = play(state)
    assert treasury(result) == 115 and not events(result, "bought")
    assert force(result, "MAC", MAC) == state.areas["MAC"].units[MAC]


def test_O_14_13_placement_defaults() -> None:
    state = own(game(), MAC, "THR")
    state.players[MAC].treasury = 200
    result = play(
        state,
        buy(
            Purchase("infantry", 2),
            Purchase("galley", 1),
            Purchase("city"),
            Purchase("fortification"),
            Purchase("road", at="MAC"),
        ),
    )
    assert verdicts(result) == [OK, OK, (False, "O-14.13"), (False, "O-14.13"), (False, "O-14.13")]
    home = force(result, "MAC", MAC)
    assert home.infantry == 6 and home.galleys == [1]
    assert home.galley_coasts == {1: min(rules().board.coasts("MAC")[0])}  # the first coast in the board data
    assert result.state.areas["THR"].city is None and all(not a.roads for a in result.state.areas.values())
    assert treasury(result) == 200 + 20 - 20 - 25
