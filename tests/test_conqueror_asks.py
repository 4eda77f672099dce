"""Conqueror: Empire Rises: the campaign's decisions of ER-14 asked by mail (ask mode: answer > standing order >
default), and the campaign's open rules ER-15.3 (exhaustion carried across a round), ER-15.8 (Thoroughbred
cavalry attack again on a second line) and ER-15.21 (blocked units stay blocked when the army splits). Each test
sets up a position with the real setup on our own example data, resolves the step through the engine and checks
what the rule demands, refusals included.

Dice (ER-0.4): a dice-file number i gives face [1, 1, 2, 3, 4, 4][i - 1]; FOUR (5) is a 4, ONE (1) is a 1."""

from __future__ import annotations

from adjudicator.engine.chance import GivenDice
from adjudicator.engine.steps import StepResult, resolve_step
from adjudicator.rulesets.conqueror.game import ConquerorGame
from adjudicator.rulesets.conqueror.state import Army, GameState
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
    result = play(rules, state, "aurel", [ONE, FOUR], *lines)
    assert verdicts(result, "aurel") == [(True, ""), (True, ""), (False, "ER-7.2")]  # two moves made (ER-7.3)
    assert units(result.state, "SOL") == ("aurel", {"cavalry": 1})
