"""The engine's decisions (DESIGN.md "Decisions made outside one's own turn"): one take() makes every decision of
every ruleset, in the order the design fixes: the seat's answer, then its standing order, then the default. An
answer that is none of a decision's choices is refused naming them and the game's decisions rule (`decisions_rule`
of its ruleset.toml); in ask mode a decision that fell to its default is pending, and the bots answer every
question with its default."""

from __future__ import annotations

import random

import pytest

from adjudicator.engine.chance import GivenDice
from adjudicator.engine.decisions import (
    Answer,
    BadAnswer,
    Decision,
    Decisions,
    Pending,
    Question,
    answers_of,
    default_answers,
    take,
)
from adjudicator.rulesets import load_ruleset
from adjudicator.rulesets.coe.turn import Turn
from adjudicator.services.turn import play as play_text
from tests.helpers import start
from tests.test_coe_classic_battles import ATT, BLANK, DEF, answer, contest, decisions, events, retreat_rule
from tests.test_coe_classic_battles import play as coe_play
from tests.test_conqueror_asks import ATTACK_MIR, RETREAT_KEY, ask, retreat_position
from tests.test_conqueror_asks import decisions as er_decisions
from tests.test_conqueror_campaign import FOUR, ONE, campaign_of, of
from tests.test_reports import mid_round


def captive(standing: str | None = None, choices: tuple[str, ...] = ("kill", "ransom")) -> Decision[str]:
    """A decision with few choices, as CAPTIVES is (C-15.11): read as written."""
    return Decision(
        seat="Egyptus",
        key="captive.Macedonia.G1",
        question="kill Macedonia's captured general G1 or hold him for ransom?",
        rule="C-15.11",
        default="ransom",
        standing=standing,
        choices=choices,
        visible_to=frozenset({"Egyptus"}),
    )


def given(text: str) -> dict[str, dict[str, str]]:
    return answers_of([Answer("Egyptus", "captive.Macedonia.G1", text)])


def test_C_15_an_answer_beats_the_standing_order_which_beats_the_default() -> None:
    answered = take(captive(standing="kill"), Decisions(answers=given("RANSOM")), (0, 0))
    assert (answered.value, answered.source, answered.answer) == ("ransom", "answer", "RANSOM")
    kept = take(captive(standing="kill"), Decisions(), (0, 0))
    assert (kept.value, kept.source, kept.answer) == ("kill", "standing order", None)
    default = take(captive(), Decisions(), (0, 0))
    assert (default.value, default.source) == ("ransom", "default")
    # every decision taken is an event naming its source, only the seat's to read
    assert [t.event.data["source"] for t in (answered, kept, default)] == ["answer", "standing order", "default"]
    assert answered.event.data == {
        "key": "captive.Macedonia.G1",
        "question": "kill Macedonia's captured general G1 or hold him for ransom?",
        "choice": "ransom",
        "source": "answer",
        "rule": "C-15.11",
    }
    assert answered.event.visible_to == frozenset({"Egyptus"}) and answered.refusal is None


@pytest.mark.parametrize(
    ("ruleset", "rule"), [("coe-classic", "C-15"), ("coe-1984", "O-14"), ("conqueror-er", "ER-14")]
)
def test_C_15_O_14_ER_14_an_answer_not_among_the_choices_is_refused_naming_them_and_the_decisions_rule(
    ruleset: str, rule: str
) -> None:
    declared = load_ruleset(ruleset).decisions_rule  # ruleset.toml decisions_rule
    assert declared == rule
    taken = take(captive(standing="kill"), Decisions(answers=given("spare him"), decisions_rule=declared), (4, 2))
    assert taken.refusal is not None and taken.refusal.kind == "answer_refused"
    assert taken.refusal.data == {
        "key": "captive.Macedonia.G1",
        "answer": "spare him",
        "reason": f"'spare him' is not one of kill, ransom ({rule})",
    }
    # the refused answer decides nothing: the standing order does, after the refusal
    assert (taken.value, taken.source) == ("kill", "standing order")
    assert [e.kind for e in taken.events] == ["answer_refused", "decision"]


def test_C_15_a_reader_refuses_an_answer_with_its_own_reason() -> None:
    def read(text: str) -> str:
        if text != "kill":
            raise BadAnswer("answer kill (C-15.11)")
        return text

    decision = Decision(
        seat="Egyptus", key="captive.Macedonia.G1", question="?", rule="C-15.11", default="x", read=read
    )
    taken = take(decision, Decisions(answers=given("ransom")), (0, 0))
    assert taken.refusal is not None and taken.refusal.data["reason"] == "answer kill (C-15.11)"
    assert (taken.value, taken.source) == ("x", "default")


def test_C_15_in_ask_mode_a_default_is_pending_where_it_arose_unless_settled() -> None:
    asking = Decisions(answers=given("spare"), ask=True, decisions_rule="C-15")
    taken = take(captive(), asking, (7, 3))
    # the refusal is event 7, the decision event 8: the question arose there, after 3 rolls
    expected = Pending("Egyptus", "captive.Macedonia.G1", captive().question, "ransom", "C-15.11", 8, 3)
    assert asking.pending == [expected] and taken.pending == expected
    settled = Decisions(ask=True, settled=frozenset({("Egyptus", "captive.Macedonia.G1")}))
    assert take(captive(), settled, (0, 0)).source == "default" and settled.pending == []
    standing = Decisions(ask=True)
    assert take(captive(standing="kill"), standing, (0, 0)).source == "standing order" and standing.pending == []


def test_C_15_ER_14_both_bots_answer_every_question_with_its_default() -> None:
    asked = [
        Question("Egyptus", "battle.THR.1.losses", "which units are lost?", "infantry, cavalry, catapult", "C-15.5"),
        Question("Egyptus", "battle.THR.1.retreat", "continue or retreat?", "continue", "C-15.7"),
    ]
    expected = "GAME g TURN 1 PLAYER Egyptus PASSWORD x\n"
    expected += "ANSWER battle.THR.1.losses: infantry, cavalry, catapult\nANSWER battle.THR.1.retreat: continue\n"
    assert default_answers("GAME g TURN 1 PLAYER Egyptus PASSWORD x", asked) == expected
    header = "GAME g TURN 1 PLAYER Egyptus PASSWORD x"
    (coe, coe_state), (er, er_state) = (load_ruleset("coe-classic"), start()), campaign_of("aurel")
    for ruleset, state in ((coe, coe_state), (er, er_state)):
        assert ruleset.bot.answers(ruleset, state, "Egyptus", header, asked, random.Random(1)) == expected


def test_C_15_a_coe_turn_takes_its_decisions_with_the_engine_take_and_its_decisions_rule() -> None:
    # a wrong answer is refused, the standing order decides (C-15.7); without either, ask mode makes it pending
    state = contest(att={"generals": [1], "infantry": 3}, dfn={"infantry": 3})
    state.players[DEF].standing["retreat"] = [retreat_rule("units_below", 99, to=["MOE"])]
    result = coe_play(state, dice=[BLANK] * 6, answers=answer(DEF, battle_THR_1_retreat="retreat to ACH"))
    assert [e["key"] for e in events(result, "answer_refused")] == ["battle.THR.1.retreat"]
    assert decisions(result, "retreat") == [(DEF, "battle.THR.1.retreat", "retreat to MOE", "standing order")]
    answered = coe_play(state, dice=[BLANK] * 6, answers=answer(DEF, battle_THR_1_retreat="retreat to MOE"))
    assert decisions(answered, "retreat") == [(DEF, "battle.THR.1.retreat", "retreat to MOE", "answer")]
    # the turn is the Asking that take() reads: its ruleset's decisions rule is cited for a choice not offered
    for name, rule in (("coe-classic", "C-15"), ("coe-1984", "O-14")):
        ruleset = load_ruleset(name)
        turn = Turn(ruleset, start(ruleset=name), ATT, (), GivenDice(values=[]), given("spare"), ask=True)
        taken = take(captive(), turn, (len(turn.events), 0))
        assert taken.refusal is not None and taken.refusal.data["reason"].endswith(f"({rule})")
        assert turn.pending == [taken.pending] and isinstance(taken.pending, Pending)


def test_C_15_6_a_coe_decision_left_to_its_default_in_ask_mode_is_the_engines_pending() -> None:
    state, text = mid_round()  # Macedonia attacks Thracia: Egyptus's losses are its decision (C-15.6)
    dice = [3, 3, 1, 6, 6, 6] + [2, 2, 3, 3, 5] + [3] * 20
    result = play_text(load_ruleset("coe-classic"), state, text, GivenDice(values=dice), {}, ask=True)
    assert result.pending and all(isinstance(p, Pending) for p in result.pending)
    first = result.pending[0]
    assert (first.seat, first.key, first.rule) == ("Egyptus", "battle.THR.1.losses", "C-15.6")
    assert result.events[first.event].kind == "decision" and result.events[first.event].data["source"] == "default"


def test_ER_14_a_conqueror_step_takes_its_decisions_with_the_engine_take() -> None:
    rules, state = retreat_position()
    pending = ask(rules, state, "aurel", [ONE, FOUR, ONE], {}, ATTACK_MIR)
    assert [type(p) for p in pending.pending] == [Pending] and pending.pending[0].key == RETREAT_KEY
    assert er_decisions(pending) == [("kesh", RETREAT_KEY, "RETREAT TO BRE", "default")]
    answered = ask(rules, state, "aurel", [ONE, FOUR, ONE], {"kesh": {RETREAT_KEY: "RETREAT TO SOL"}}, ATTACK_MIR)
    assert er_decisions(answered) == [("kesh", RETREAT_KEY, "RETREAT TO SOL", "answer")] and answered.pending == []
    wrong = ask(rules, state, "aurel", [ONE, FOUR, ONE], {"kesh": {RETREAT_KEY: "RETREAT TO VAL"}}, ATTACK_MIR)
    refused = of(wrong.events, "answer_refused")
    assert [e.data["key"] for e in refused] == [RETREAT_KEY] and refused[0].visible_to == frozenset({"kesh"})
    assert er_decisions(wrong) == [("kesh", RETREAT_KEY, "RETREAT TO BRE", "default")]
