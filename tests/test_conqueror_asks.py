"""Conqueror: Empire Rises: the campaign's decisions of ER-14 asked by mail (ask mode: answer > standing order >
default), and the campaign's open rules ER-15.3 (exhaustion carried across a round), ER-15.8 (Thoroughbred
cavalry attack again on a second line) and ER-15.21 (blocked units stay blocked when the army splits). Each test
sets up a position with the real setup on our own example data, resolves the step through the engine and checks
what the rule demands, refusals included.

Dice (ER-0.4): a dice-file number i gives face [1, 1, 2, 3, 4, 4][i - 1]; FOUR (5) is a 4, ONE (1) is a 1."""

from __future__ import annotations

from pathlib import Path

from adjudicator.archive import Archive
from adjudicator.engine.chance import GivenDice
from adjudicator.engine.steps import StepResult, resolve_step
from adjudicator.rulesets.conqueror.game import ConquerorGame
from adjudicator.rulesets.conqueror.state import Army, GameState
from adjudicator.services.game_reads import current_game
from tests.conftest import Pbem
from tests.test_conqueror_campaign import (
    FOUR,
    ONE,
    blocker_position,
    campaign_of,
    keep,
    kesh_in,
    of,
    orders,
    play,
    units,
    verdicts,
)
from tests.test_conqueror_new import data_copy, new_er
from tests.test_conqueror_plans_cli import SEATS3


def thal_in(state: GameState, area: str, **kinds: int) -> None:
    """Thal's units moved from its capital's army to `area` (the barracks count holds, ER-1.1)."""
    home = state.army["THA"]
    for kind, n in kinds.items():
        home.add(kind, -n)
    if home.total == 0:
        del state.army["THA"]
    state.army[area] = Army("thal", dict(kinds))


def run_until(rules: ConquerorGame, state: GameState, phase: str, seat: str | None = None) -> GameState:
    """Resolve the steps that need no orders (and the sealed plans step with none) until `phase` (`seat`'s)."""
    for _ in range(20):
        step = rules.due(state)
        assert step is not None
        if step.phase == phase and (seat is None or step.seats == (seat,)):
            return state
        state = resolve_step(rules, state, step, dict.fromkeys(step.seats), GivenDice(values=[1] * 40)).state
    raise AssertionError(f"never reached {phase}")


# -- ER-15.3: exhaustion of a reinforcing unit (ER-7.6) ---------------------------------------------------------------


def kesh_reinforces_thal() -> StepResult:
    """Turn order kesh, aurel, thal: in aurel's turn kesh (whose turn is over) reinforces thal's army in ORO from
    DUN by its standing order."""
    rules, state = campaign_of("aurel")
    thal_in(state, "ORO", infantry=2)
    kesh_in(state, "DUN", cavalry=1, infantry=1)
    state.army["BRE"] = state.army.pop("AUR")
    keep(state, "kesh", **{"REINFORCE@thal/DUN": "REINFORCE thal FROM DUN"})
    return play(rules, state, "aurel", [ONE, FOUR, ONE, FOUR], "ATTACK 1 CAV 2 INF 1 ARC: BRE -> ORO")


def test_ER_15_3_a_unit_that_reinforced_after_its_owners_turn_stays_exhausted_through_its_next_turn() -> None:
    rules = campaign_of("aurel")[0]
    result = kesh_reinforces_thal()
    assert result.state.army["DUN"].exhausted == {"cavalry": 1, "infantry": 1}  # ER-8.6
    # thal's turn, the end of the round and the next round up to kesh's campaign turn: still exhausted
    state = run_until(rules, result.state, "campaign", "kesh")
    assert state.round == result.state.round + 1
    assert state.army["DUN"].exhausted == {"cavalry": 1, "infantry": 1}
    mail = orders("kesh", "MOVE 1 INF: DUN -> BRE")
    step = rules.due(state)
    assert step is not None
    turn = resolve_step(rules, state, step, {"kesh": mail}, GivenDice(values=[]))
    assert verdicts(turn, "kesh") == [(False, "ER-7.2")]  # ER-7.6: it cannot move in that turn
    assert turn.state.army["DUN"].exhausted == {}  # readied at the end of kesh's turn (ER-7.1)


def test_ER_15_3_a_unit_that_reinforced_before_its_owners_turn_is_readied_at_the_end_of_that_turn() -> None:
    rules = campaign_of("aurel")[0]
    result = kesh_reinforces_thal()
    assert result.state.army["ORO"].owner in ("thal", "aurel")
    # thal's own army, in THA next to ORO, did not reinforce; kesh's did: in thal's turn only thal's are readied
    state = run_until(rules, result.state, "campaign", "thal")
    turn = resolve_step(rules, state, rules.due(state), {"thal": None}, GivenDice(values=[]))  # type: ignore[arg-type]
    assert turn.state.army["DUN"].exhausted == {"cavalry": 1, "infantry": 1}


# -- ER-15.21: blocked units stay blocked after the army splits -------------------------------------------------------


def test_ER_15_21_blocked_units_stay_blocked_when_the_army_splits_and_the_others_move() -> None:
    rules, state = blocker_position(1, "BLOCK aurel MAX 4")
    state.army["AUR"].add("infantry", 1)  # AUR: 1 cavalry, 3 infantry, 1 archer
    state.army["SOL"] = Army("aurel", {"cavalry": 1})
    result = play(
        rules,
        state,
        "aurel",
        [FOUR, FOUR],
        "MOVE 2 INF: AUR -> SOL",  # blocked: varun pays its coin (ER-12.5)
        "MOVE 1 CAV 2 INF: AUR -> SOL",  # the blocked infantry are part of it: refused
        "ATTACK 1 CAV: SOL -> MIR REINFORCE FROM AUR 2 INF",  # a blocked army may still reinforce (ER-12.5)
        "MOVE 1 INF: AUR -> SOL",  # the third infantry was never blocked
    )
    assert verdicts(result, "aurel") == [(False, "ER-12.5"), (False, "ER-15.21"), (True, ""), (True, "")]
    assert units(result.state, "SOL") == ("aurel", {"infantry": 1})  # the cavalry won MIR and stayed there


# -- ER-15.8: Thoroughbred cavalry that win attack again --------------------------------------------------------------


def thoroughbred(state: GameState, seat: str) -> None:
    state.players[seat].upgrades.append("thoroughbred")
    state.supply.upgrades["thoroughbred"] -= 1


def test_ER_15_8_thoroughbred_cavalry_that_win_attack_again_on_a_second_line_and_infantry_are_exhausted() -> None:
    rules, state = campaign_of("aurel")
    thoroughbred(state, "aurel")
    state.army["AUR"].add("cavalry", 1)  # 2 cavalry, 2 infantry, 1 archer
    state.army.pop("SOL", None)
    kesh_in(state, "SOL", infantry=1)
    # MIR: volley 1 die (aurel's archer, a miss); melee 4+2+0 + 4 = 10 against 2 cav 1 inf (5) + automa-2 (2)
    # then SOL: no archer; melee 2 cav (4) + 4 against kesh 1 inf + 1 (die)
    result = play(
        rules,
        state,
        "aurel",
        [ONE, FOUR, FOUR, ONE],
        "ATTACK 2 CAV 2 INF 1 ARC: AUR -> MIR",
        "ATTACK 2 CAV: MIR -> SOL",
        "MOVE 1 INF: MIR -> BRE",
    )
    assert [r.data["winner"] for r in of(result.events, "battle_result")] == ["attacker", "attacker"]
    assert verdicts(result, "aurel") == [(True, ""), (True, ""), (False, "ER-7.2")]  # ER-15.8: infantry moved once
    assert units(result.state, "SOL") is not None and result.state.army["SOL"].owner == "aurel"
    assert result.state.army["SOL"].count("cavalry") >= 1 and "cavalry" not in result.state.army["MIR"].units
    assert rules.broken_invariants(result.state) == []


def test_ER_15_8_a_third_move_is_refused_and_the_receipt_accepts_the_second_line_if_the_attack_is_won() -> None:
    rules, state = campaign_of("aurel")
    thoroughbred(state, "aurel")
    lines = ("ATTACK 1 CAV 2 INF 1 ARC: AUR -> MIR", "MOVE 1 CAV: MIR -> SOL", "MOVE 1 CAV: SOL -> VAL")
    receipt = rules.check_orders(state, "aurel", 5, orders("aurel", *lines), GivenDice(values=[]))
    assert [(r.accepted, r.rule) for r in receipt] == [(True, ""), (True, ""), (False, "ER-7.2")]
    assert "if the attack on MIR is won" in receipt[1].reason
    far = rules.check_orders(
        state, "aurel", 5, orders("aurel", lines[0], "MOVE 1 CAV: MIR -> DUN"), GivenDice(values=[])
    )
    assert [(r.accepted, r.rule) for r in far] == [(True, ""), (False, "ER-7.2")]  # DUN is not next to MIR
    result = play(rules, state, "aurel", [ONE, FOUR], *lines)
    assert verdicts(result, "aurel") == [(True, ""), (True, ""), (False, "ER-7.2")]  # two moves made (ER-7.3)
    assert units(result.state, "SOL") == ("aurel", {"cavalry": 1})


def test_ER_15_8_the_receipt_of_a_second_line_still_checks_its_battle_plan() -> None:
    rules, state = campaign_of("aurel")
    thoroughbred(state, "aurel")
    state.army.pop("SOL", None)
    kesh_in(state, "SOL", infantry=1)
    lines = ("ATTACK 1 CAV 2 INF 1 ARC: AUR -> MIR", "ATTACK 1 CAV: MIR -> SOL HERO aurel-1")
    receipt = rules.check_orders(state, "aurel", 5, orders("aurel", *lines), GivenDice(values=[]))
    assert [(r.accepted, r.rule) for r in receipt] == [(True, ""), (False, "ER-8.12")]  # no hero recruited
    assert "aurel-1" in receipt[1].reason


# -- decisions asked by mail (ER-14: answer > standing order > default) -----------------------------------------------


def ask(
    rules: ConquerorGame, state: GameState, seat: str, given: list[int], answers: dict[str, dict[str, str]], *lines: str
) -> StepResult:
    """`seat`'s campaign step in a game that asks (ask mode), with the answers given so far."""
    step = rules.due(state)
    assert step is not None and step.seats == (seat,)
    mail = orders(seat, *lines, side=rules.data.map_for(state.players_count).side)
    return resolve_step(rules, state, step, {seat: mail}, GivenDice(values=given), answers, ask=True)


def asked(result: StepResult) -> list[tuple[str, str, str, str]]:
    return [(p.seat, p.key, p.default, p.rule) for p in result.pending]


def decisions(result: StepResult) -> list[tuple[str | None, str, str, str]]:
    return [(e.seat, e.data["key"], e.data["choice"], e.data["source"]) for e in of(result.events, "decision")]


def retreat_position() -> tuple[ConquerorGame, GameState]:
    """aurel attacks kesh's 2 infantry in MIR and wins: kesh's survivor retreats to BRE or SOL (both empty)."""
    rules, state = campaign_of("aurel")
    del state.army["MIR"]
    kesh_in(state, "MIR", infantry=2)
    return rules, state


ATTACK_MIR = "ATTACK 1 CAV 2 INF 1 ARC: AUR -> MIR"
RETREAT_KEY = "battle.MIR.1.retreat"


def test_ER_14_18_the_defenders_retreat_is_asked_at_the_point_it_arises_with_the_default_meanwhile() -> None:
    rules, state = retreat_position()
    result = ask(rules, state, "aurel", [ONE, FOUR, ONE], {}, ATTACK_MIR)
    assert asked(result) == [("kesh", RETREAT_KEY, "RETREAT TO BRE", "ER-14.18")]
    point = result.pending[0]
    assert result.events[point.event].kind == "decision"  # the notice shows the turn up to the question
    assert [e.kind for e in result.events[: point.event]].count("battle_result") == 1  # the battle was fought
    assert point.rolls == 3  # the volley die and both melee dice were rolled before it
    assert units(result.state, "BRE") == ("kesh", {"infantry": 1})  # the default meanwhile (ER-14.18)
    quiet = play(rules, state, "aurel", [ONE, FOUR, ONE], ATTACK_MIR)  # default mode: nothing asked
    assert quiet.pending == [] and decisions(quiet) == [("kesh", RETREAT_KEY, "RETREAT TO BRE", "default")]


def test_ER_14_18_the_answer_chooses_the_retreat_and_a_wrong_answer_is_refused() -> None:
    rules, state = retreat_position()
    answered = ask(rules, state, "aurel", [ONE, FOUR, ONE], {"kesh": {RETREAT_KEY: "RETREAT TO SOL"}}, ATTACK_MIR)
    assert answered.pending == [] and units(answered.state, "SOL") == ("kesh", {"infantry": 1})
    assert decisions(answered) == [("kesh", RETREAT_KEY, "RETREAT TO SOL", "answer")]
    wrong = ask(rules, state, "aurel", [ONE, FOUR, ONE], {"kesh": {RETREAT_KEY: "RETREAT TO VAL"}}, ATTACK_MIR)
    refused = of(wrong.events, "answer_refused")[0]
    assert "BRE, SOL" in refused.data["reason"] and "ER-14.18" in refused.data["reason"]
    assert units(wrong.state, "BRE") == ("kesh", {"infantry": 1})  # the default, and asked again
    assert asked(wrong) == [("kesh", RETREAT_KEY, "RETREAT TO BRE", "ER-14.18")]
    unread = ask(rules, state, "aurel", [ONE, FOUR, ONE], {"kesh": {RETREAT_KEY: "go home"}}, ATTACK_MIR)
    assert "cannot be read" in of(unread.events, "answer_refused")[0].data["reason"]


def test_ER_14_18_a_standing_retreat_list_decides_and_nothing_is_asked() -> None:
    rules, state = retreat_position()
    keep(state, "kesh", RETREAT="RETREAT FROM MIR TO SOL")
    result = ask(rules, state, "aurel", [ONE, FOUR, ONE], {}, ATTACK_MIR)
    assert result.pending == [] and decisions(result) == [("kesh", RETREAT_KEY, "RETREAT TO SOL", "standing order")]
    settled = resolve_step(  # the waiting time is over: the default, not asked again
        rules,
        retreat_position()[1],
        rules.due(state),  # type: ignore[arg-type]
        {"aurel": orders("aurel", ATTACK_MIR)},
        GivenDice(values=[ONE, FOUR, ONE]),
        {},
        ask=True,
        settled=frozenset({("kesh", RETREAT_KEY)}),
    )
    assert settled.pending == [] and decisions(settled) == [("kesh", RETREAT_KEY, "RETREAT TO BRE", "default")]


def test_ER_14_17_which_units_are_lost_is_asked_of_a_player_with_a_choice_and_the_answer_chooses() -> None:
    rules, state = campaign_of("aurel")
    del state.army["MIR"]
    kesh_in(state, "MIR", cavalry=1, infantry=2)
    # melee 2+2+0 + 4 = 8 against 2+2 + 1 = 5; one casualty on kesh, who holds two kinds of units
    result = ask(rules, state, "aurel", [ONE, FOUR, ONE], {}, ATTACK_MIR)
    key = "battle.MIR.1.losses"
    assert asked(result)[0] == ("kesh", key, "LOSSES ARC, INF, CAV, SIEGE, SHIP, ELITE", "ER-14.17")
    assert result.pending[0].rolls == 3 and of(result.events, "battle_result")[0].data["losses"]["kesh"] == {
        "infantry": 1
    }
    answered = ask(rules, state, "aurel", [ONE, FOUR, ONE], {"kesh": {key: "LOSSES CAV"}}, ATTACK_MIR)
    assert of(answered.events, "battle_result")[0].data["losses"]["kesh"] == {"cavalry": 1}
    assert key not in [p.key for p in answered.pending]
    keep(state, "kesh", LOSSES="LOSSES CAVALRY")
    standing = ask(rules, state, "aurel", [ONE, FOUR, ONE], {}, ATTACK_MIR)
    assert ("kesh", key, "LOSSES CAV", "standing order") in decisions(standing)
    assert key not in [p.key for p in standing.pending]


def test_ER_14_13_a_volley_hit_asks_before_the_attackers_volley_is_rolled() -> None:
    rules, state = campaign_of("aurel")
    del state.army["MIR"]
    kesh_in(state, "MIR", infantry=1, archer=1)
    # kesh's archer fires first (a 4: a hit on aurel's side, which holds three kinds): asked after that one die
    result = ask(rules, state, "aurel", [FOUR, ONE, FOUR, ONE], {}, ATTACK_MIR)
    first = result.pending[0]
    assert (first.seat, first.key, first.rolls) == ("aurel", "battle.MIR.1.losses", 1)


def test_ER_14_12_a_player_next_to_the_battle_is_asked_whether_to_reinforce_before_any_die() -> None:
    rules, state = campaign_of("aurel")
    kesh_in(state, "ORO", infantry=2)
    state.army["BRE"] = state.army.pop("AUR")
    attack = "ATTACK 1 CAV 2 INF 1 ARC: BRE -> ORO"
    key = "battle.ORO.1.reinforce"
    result = ask(rules, state, "aurel", [ONE, FOUR, ONE], {}, attack)
    assert asked(result)[0] == ("thal", key, "REINFORCE NEVER", "ER-14.12")
    point = result.pending[0]
    assert point.rolls == 0 and "battle" not in [e.kind for e in result.events[: point.event]]
    assert of(result.events, "battle_melee")[0].data["strengths"]["defender"] == 3  # the default: no
    joined = ask(
        rules, state, "aurel", [ONE, FOUR, ONE], {"thal": {key: "REINFORCE kesh FROM THA 1 CAV 2 INF"}}, attack
    )
    assert of(joined.events, "battle_melee")[0].data["strengths"]["defender"] == 7  # 2 + 1 (fort) + 4 (thal)
    assert joined.state.army["THA"].exhausted == {"cavalry": 1, "infantry": 2}  # ER-8.6
    assert key not in [p.key for p in joined.pending]
    wrong = ask(rules, state, "aurel", [ONE, FOUR, ONE], {"thal": {key: "REINFORCE kesh FROM DUN"}}, attack)
    assert "no units in DUN" in of(wrong.events, "answer_refused")[0].data["reason"]
    assert of(wrong.events, "battle_melee")[0].data["strengths"]["defender"] == 3


def test_ER_14_12_a_decision_taken_by_a_standing_order_stays_with_its_seat() -> None:
    rules, state = campaign_of("aurel")
    kesh_in(state, "ORO", infantry=2)
    state.army["BRE"] = state.army.pop("AUR")
    keep(state, "thal", REINFORCE="REINFORCE NEVER")  # a standing order is private (state.py PRIVATE_FIELDS)
    result = play(rules, state, "aurel", [ONE, FOUR, ONE], "ATTACK 1 CAV 2 INF 1 ARC: BRE -> ORO")
    (decision,) = [e for e in of(result.events, "decision") if e.seat == "thal"]
    assert (decision.data["choice"], decision.data["source"]) == ("REINFORCE NEVER", "standing order")
    assert decision.visible_to == frozenset({"thal"})  # the others see only that no one reinforced
    assert not [e for e in result.events if e.public and "REINFORCE NEVER" in str(e.data)]
    keep(state, "thal", REINFORCE="REINFORCE kesh FROM THA 2 INF")
    joined = play(rules, state, "aurel", [ONE, FOUR, ONE], "ATTACK 1 CAV 2 INF 1 ARC: BRE -> ORO")
    (seen,) = of(joined.events, "battle_reinforced")  # what the decision does is seen by all (ER-8.4)
    assert seen.public and (seen.seat, seen.data["from"], seen.data["side"]) == ("thal", "THA", "defender")
    assert seen.data["units"] == {"infantry": 2}


def test_ER_14_16_the_opposing_principal_is_asked_how_a_side_of_two_players_takes_its_casualty() -> None:
    rules, state = campaign_of("aurel")
    kesh_in(state, "ORO", infantry=2)
    state.army["BRE"] = state.army.pop("AUR")
    keep(state, "thal", **{"REINFORCE@kesh/THA": "REINFORCE kesh FROM THA 2 INF"})
    attack = "ATTACK 1 CAV 2 INF 1 ARC: BRE -> ORO"
    # melee 8 against 2 + 1 (fort) + 2 (thal) + 1 (die) = 6: kesh's side suffers 1 casualty
    result = ask(rules, state, "aurel", [ONE, FOUR, ONE], {}, attack)
    key = "battle.ORO.1.assign_defender"
    assert asked(result)[0] == ("aurel", key, "CASUALTIES kesh, thal", "ER-14.16")
    assert of(result.events, "battle_result")[0].data["losses"] == {"kesh": {"infantry": 1}}
    answered = ask(rules, state, "aurel", [ONE, FOUR, ONE], {"aurel": {key: "CASUALTIES thal"}}, attack)
    assert of(answered.events, "battle_result")[0].data["losses"] == {"thal": {"infantry": 1}}


def test_ER_14_16_an_answer_to_the_side_the_seat_does_not_assign_changes_nothing() -> None:
    rules, state = campaign_of("aurel")
    thal_in(state, "SOL", infantry=1)
    keep(state, "thal", **{"REINFORCE@aurel/SOL": "REINFORCE aurel FROM SOL 1 INF"})
    # against the independent army in MIR (5 + its automa card) aurel's side (5, dice 1) loses 2 units; aurel hands
    # its side's losses out (ER-8.22: the attacker against an independent army), and no one assigns the independents'
    default = ask(rules, state, "aurel", [ONE, ONE], {}, ATTACK_MIR)
    assert of(default.events, "battle_result")[0].data["losses"] == {"aurel": {"infantry": 1, "archer": 1}}
    key = "battle.MIR.1.assign_attacker"
    assert asked(default)[0] == ("aurel", key, "CASUALTIES aurel, thal", "ER-14.16")
    stray = {"aurel": {"battle.MIR.1.assign_defender": "CASUALTIES thal"}}  # a key no one is asked
    result = ask(rules, state, "aurel", [ONE, ONE], stray, ATTACK_MIR)
    assert of(result.events, "battle_result")[0].data["losses"] == {"aurel": {"infantry": 1, "archer": 1}}
    assert ("aurel", key, "CASUALTIES aurel, thal", "default") in decisions(result)
    answered = ask(rules, state, "aurel", [ONE, ONE], {"aurel": {key: "CASUALTIES thal"}}, ATTACK_MIR)
    assert of(answered.events, "battle_result")[0].data["losses"] == {"aurel": {"archer": 1}, "thal": {"infantry": 1}}


def test_ER_14_11_a_blocker_without_standing_orders_is_asked_at_the_start_of_each_other_turn() -> None:
    rules, state = campaign_of("aurel", players=5)
    state.players["varun"].board, state.players["varun"].coins = "alternative-1", 2
    result = ask(rules, state, "aurel", [], {}, "MOVE 1 CAV 1 INF: AUR -> SOL")
    assert asked(result) == [("varun", "block.aurel", "BLOCK NEVER", "ER-14.11")]
    assert result.pending[0].event == 1 and result.pending[0].rolls == 0  # before any move
    decision = of(result.events, "decision")[0]
    assert decision.visible_to == frozenset({"varun"})  # the blocker's intentions are its own
    assert verdicts(result, "aurel") == [(True, "")]  # the default meanwhile: no block
    answers = {"varun": {"block.aurel": "BLOCK aurel MAX 4"}}
    blocked = ask(rules, state, "aurel", [], answers, "MOVE 1 CAV 1 INF: AUR -> SOL")
    assert verdicts(blocked, "aurel") == [(False, "ER-12.5")] and blocked.pending == []
    assert blocked.state.players["varun"].coins == 1
    poor = campaign_of("aurel", players=5)[1]
    poor.players["varun"].board = "alternative-1"  # no coin to pay with: no decision
    assert ask(rules, poor, "aurel", [], {}, "MOVE 1 INF: AUR -> SOL").pending == []


def test_ER_14_5_the_temporary_capital_site_is_asked_among_the_controlled_land_areas() -> None:
    rules, state = campaign_of("aurel")
    kesh_in(state, "PEL", cavalry=1, infantry=1, archer=1)  # KES is left without units
    kesh_in(state, "TEM", infantry=1)
    state.army["DUN"] = Army("aurel", {"cavalry": 2})
    state.army["AUR"].add("cavalry", -1)
    state.army["AUR"].add("infantry", -1)
    keep(state, "kesh", REINFORCE="REINFORCE NEVER")  # ER-14.12 (SO): PEL next to KES does not reinforce
    attack = "ATTACK 2 CAV: DUN -> KES"
    # melee: aurel 4 + 4 (die) = 8; kesh 0 units + 4 (own capital) + 1 (die) = 5: KES falls
    result = ask(rules, state, "aurel", [FOUR, ONE], {}, attack)
    assert asked(result) == [("kesh", "capital.1", "CAPITAL PEL", "ER-14.5")]  # most units, then the lowest id
    assert result.state.players["kesh"].temporary_capital == "PEL"
    answered = ask(rules, state, "aurel", [FOUR, ONE], {"kesh": {"capital.1": "CAPITAL TEM"}}, attack)
    assert answered.state.players["kesh"].temporary_capital == "TEM" and answered.pending == []
    keep(state, "kesh", CAPITAL="CAPITAL TEM, PEL")
    standing = play(rules, state, "aurel", [FOUR, ONE], attack)
    assert standing.state.players["kesh"].temporary_capital == "TEM"  # ER-14.5 (SO): the first possible area


def test_ER_14_15_free_men_is_asked_after_the_reveal_before_the_melee_dice() -> None:
    rules, state = campaign_of("aurel", players=6)
    state.army["OST"].add("elite", 1)  # ostra's elite (ER-9.2 Free Men style: +2 for one standard infantry)
    attack = "ATTACK 1 CAV 2 INF 1 ARC: AUR -> OST"
    key = "battle.OST.1.freemen"
    result = ask(rules, state, "aurel", [ONE, ONE, FOUR, ONE], {}, attack)
    point = next(p for p in result.pending if p.key == key)
    assert (point.seat, point.default, point.rule) == ("ostra", "FREEMEN NEVER", "ER-14.15")
    assert point.rolls == 2  # the two volley dice; the melee dice come after the decision
    assert "battle_council" in [e.kind for e in result.events[: point.event]]
    assert not of(result.events, "battle_free_men")  # the default: not used
    used = ask(rules, state, "aurel", [ONE, ONE, FOUR, ONE], {"ostra": {key: "FREEMEN USE"}}, attack)
    assert [e.data["used"] for e in of(used.events, "battle_free_men")] == [True]
    assert key not in [p.key for p in used.pending]


def test_ER_14_19_a_beaten_ships_retreat_is_asked_when_two_sea_areas_are_open() -> None:
    rules, state = campaign_of("aurel")
    state.army["WSE"] = Army("aurel", {"ship": 2})
    state.army["ISE"] = Army("kesh", {"ship": 2})
    result = ask(rules, state, "aurel", [FOUR, ONE], {}, "ATTACK 2 SHIP: WSE -> ISE")
    key = "battle.ISE.1.ship_retreat"
    found = [p for p in result.pending if p.key == key]
    # ER-12.14: MSE, SSE and WSE (left by the attack) are open sea areas next to ISE: the default is the lowest
    assert (found[0].seat, found[0].rule, found[0].default) == ("kesh", "ER-14.19", "RETREAT SHIP TO MSE")
    other = "SSE"
    answered = ask(
        rules, state, "aurel", [FOUR, ONE], {"kesh": {key: f"RETREAT SHIP TO {other}"}}, "ATTACK 2 SHIP: WSE -> ISE"
    )
    assert units(answered.state, other) == ("kesh", {"ship": 1})


# -- by mail: the notice, the answer, the replay ----------------------------------------------------------------------


def due_step(pbem: Pbem) -> tuple[int, str, tuple[str, ...]]:
    with Archive.open(pbem.data, pbem.db).session() as session:
        _, rules, state = current_game(session, "er1")
    step = rules.due(state)
    assert step is not None
    return step.number, step.phase, step.seats


def play_until(pbem: Pbem, round_: int, seat: str, moves: dict[tuple[int, str], tuple[str, ...]]) -> int:
    """Adjudicate step after step (with the campaign orders `moves` by round and seat) until `seat`'s campaign
    turn of round `round_`; its step number."""
    for _ in range(40):
        number, phase, seats = due_step(pbem)
        with Archive.open(pbem.data, pbem.db).session() as session:
            rounds_seen = current_game(session, "er1")[2].round  # New Year resolves in the run before (ER-4.4)
        if phase == "campaign" and seats == (seat,) and rounds_seen == round_:
            return number
        lines = moves.get((rounds_seen, seats[0]), ()) if phase == "campaign" else ()
        if lines:
            assert pbem("submit", "er1", str(pbem.orders(seats[0], number, *lines, game="er1"))).exit_code == 0
        done = pbem("adjudicate", "er1", "--now")
        assert done.exit_code == 0, done.output
    raise AssertionError("never reached the turn")


def thal_attacks_pel(pbem: Pbem, tmp_path: Path, *options: str) -> int:
    """A 3-seat game in ask mode (ER-14.12) played to round 2, where thal's campaign turn attacks kesh's PEL from ORO
    (kesh may reinforce it: a decision asked of a seat whose step is not due); the step number, its orders stored."""
    created = new_er(pbem, data_copy(tmp_path), "--decisions", "ask", *options, seats=SEATS3)
    assert created.startswith("0\n"), created
    for line in created.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] in SEATS3:
            pbem.passwords[parts[0]] = parts[1]
    round_one = {(1, "kesh"): ("MOVE 1 CAV 1 INF: KES -> DUN",), (1, "thal"): ("MOVE 1 CAV 2 INF: THA -> ORO",)}
    number = play_until(pbem, 2, "thal", round_one)
    attack = pbem.orders("thal", number, "ATTACK 1 CAV 2 INF: ORO -> PEL", game="er1")
    assert pbem("submit", "er1", str(attack)).exit_code == 0
    return number


def test_ER_14_12_by_mail_the_turn_waits_for_the_answer_the_notice_names_the_form_and_verify_replays(
    pbem: Pbem, tmp_path: Path
) -> None:
    number = thal_attacks_pel(pbem, tmp_path)
    waiting = pbem("adjudicate", "er1", "--now")
    assert waiting.exit_code == 0, waiting.output
    assert due_step(pbem)[0] == number  # the turn waits for kesh (ER-14.12: DUN and KES are next to PEL)
    notice = (pbem.data / "games" / "er1" / "outbox" / f"decisions-turn-{number:04d}-kesh.txt").read_text()
    assert "thal attacks PEL from ORO: do you reinforce a side, and from where?" in notice
    assert "ANSWER battle.PEL.1.reinforce: REINFORCE NEVER" in notice and "ER-14.12" in notice
    odds = [line.strip() for line in notice.splitlines() if line.strip().startswith("# if you answer REINFORCE")]
    assert odds[0].startswith("# if you answer REINFORCE NEVER: PEL: ") and len(odds) > 1, notice  # each answer's odds
    assert "REINFORCE thal FROM DUN" in "".join(odds) and "the attacker wins" in odds[0]
    assert "battle" not in notice.split("Answer by sending")[0].split("campaign turn")[-1].casefold()  # no die yet
    answer = pbem.orders("kesh", number, "ANSWER battle.PEL.1.reinforce: REINFORCE thal FROM DUN", game="er1")
    assert pbem("answer", "er1", str(answer)).exit_code == 0
    assert pbem("adjudicate", "er1", "--defaults").exit_code == 0  # later questions (dice dependent): defaults
    assert due_step(pbem)[0] > number
    turn = pbem.data / "games" / "er1" / f"turn-{number:04d}"
    private = (turn / "report-kesh.txt").read_text()
    assert "kesh decides (answer, ER-14.12)" in private and "REINFORCE thal FROM DUN" in private
    report = (turn / "report.txt").read_text()  # the others see the reinforcement, not kesh's decision
    assert "kesh decides" not in report and "kesh reinforces the attacker from DUN with 1 cavalry" in report
    verified = pbem("verify", "er1")
    assert verified.exit_code == 0 and "0 problems" in verified.output, verified.output


def test_ER_14_new_orders_for_a_step_waiting_for_decisions_are_refused_citing_the_games_own_rule(
    pbem: Pbem, tmp_path: Path
) -> None:
    """The step's dice are keyed by its orders: once a decision is asked, only answers are taken, and the
    refusal cites Conqueror's decisions rule (ER-14), not Conquest of the Empire's (C-15)."""
    number = thal_attacks_pel(pbem, tmp_path)
    assert pbem("adjudicate", "er1", "--now").exit_code == 0
    again = pbem.orders("thal", number, "ATTACK 1 CAV 1 INF: ORO -> PEL", game="er1")
    refused = pbem("submit", "er1", str(again))
    assert refused.exit_code == 1 and "only ANSWER lines are taken (ER-14)" in refused.output, refused.output
    assert "C-15" not in refused.output
