"""The game's end (ER-10.2, ER-10.3): the final scores per player and per item the rules count are kept in the
state, written to the public snapshot (`final_scores`) and read back; the last public report lists them (the whole
game by mail: tests/test_conqueror_demo.py). Positions: the real setup of a 4-seat Conquest game on our example
data, changed where a rule needs it, and the real end-of-round step."""

from __future__ import annotations

from adjudicator.engine.protocol import PUBLIC
from adjudicator.render import render
from adjudicator.rulesets.conqueror.state import Army
from tests.test_conqueror_setup import run
from tests.test_conqueror_state import example, set_up


def test_ER_10_2_ER_10_3_the_final_scores_item_by_item_are_in_the_state_the_snapshot_and_the_last_report() -> None:
    rules, state = set_up(4, "conquest")
    data = example()
    side = data.map_for(4)
    assert (side.areas["BRE"].fort, side.areas["MIR"].fort) == ("large", "none")
    for area in ("BRE", "MIR"):
        state.army[area] = Army("aurel", {"infantry": 1})
    state.fort_markers.append("MIR")  # a fort aurel built: a small fort (ER-10.4)
    state.supply.fort_markers -= 1  # taken from the supply (ER-1.2)
    aurel = state.players["aurel"]
    aurel.vp, aurel.coins = 5, 14
    aurel.districts = {"granary": 2, "bazaar": 1, "academy": 1}  # 4 districts: the bonus (ER-10.3)
    for kind, count in aurel.districts.items():
        state.supply.districts[kind] -= count  # taken from the supply (ER-1.2)
    aurel.upgrades = ["heavy_cavalry", "discipline", "rapid_aim", "naval_mastery"]  # the example's bonus count: 4
    for card in aurel.upgrades:
        state.supply.upgrades[card] -= 1
    trade = data.tracks.trade["conquest"]
    aurel.trade = len(trade)  # ER-5.8: the last space's VP count at game end
    state.round, state.phase = data.tracks.rounds["conquest"], "end_of_round"  # the last round (ER-10.2)
    state, events = run(rules, state)
    (won,) = [e for e in events if e.kind == "game_won"]
    assert state.ended and won.data["forts"] is False  # 4 forts: no fort victory (ER-10.1), VP decide
    sheet = state.final_scores["aurel"]
    assert {item: (row["count"], row["vp"]) for item, row in sheet.items() if row["count"] or row["vp"]} == {
        "vp_during_play": (5, 5),
        "capitals": (1, 10),  # AUR
        "large_forts": (1, 6),  # BRE
        "small_forts": (2, 8),  # SOL, and MIR built
        "districts": (4, 8),
        "districts_bonus": (1, 2),
        "upgrades": (4, 8),
        "upgrades_bonus": (1, 3),
        "coins": (14, 2),
        "last_trade_space": (1, trade[-1].vp),
    }
    for faction, scored in state.final_scores.items():  # every item sums to the score that decided the game
        assert sum(row["vp"] for row in scored.values()) == won.data["scores"][faction]
    assert set(state.final_scores) == set(state.in_play())

    public = rules.snapshot(state, PUBLIC)
    assert public["public"]["final_scores"] == state.final_scores
    assert rules.read_snapshot(rules.snapshot(state)).final_scores == state.final_scores
    report = render("report.txt.j2", ruleset=rules, title=rules.title, game="g1", turns=[], state=public)
    total = won.data["scores"]["aurel"]
    assert "=== Final scores (ER-10.3) ===" in report and f"  aurel: {total} VP\n" in report
    assert "    capitals controlled: 1, 10 VP\n    other large forts controlled: 1, 6 VP\n" in report
    assert "    bonus for unit upgrades: 3 VP\n    coins: 14, 2 VP\n" in report
    german = render("report.txt.j2", "de", ruleset=rules, title=rules.title, game="g1", turns=[], state=public)
    assert "=== Endwertung (ER-10.3) ===" in german and "    Münzen: 14, 2 SP\n" in german


def test_ER_10_3_a_game_not_ended_has_no_final_scores_in_its_snapshot_or_report() -> None:
    rules, state = set_up(4, "conquest")
    state.phase = "end_of_round"
    state, _ = run(rules, state)
    assert not state.ended and state.final_scores == {}
    public = rules.snapshot(state, PUBLIC)
    assert "final_scores" not in public["public"]
    assert "Final scores" not in render("report.txt.j2", ruleset=rules, title="t", game="g1", turns=[], state=public)
