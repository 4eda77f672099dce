"""Every answer a decision notice suggests (the default, written as the notice writes it) is accepted
when fed back unchanged, in every kind of decision of both editions (C-15, O-14), and means what it says: a
turn resolved with those answers ends exactly as the same turn resolved with the defaults."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from adjudicator.engine.chance import GivenDice, KeyedDice
from adjudicator.orders import parse_orders
from adjudicator.rulesets import load_ruleset
from adjudicator.rulesets.coe.bot import chain_keys, dice_secret, orders_digest, random_orders, seats_in_play, turn_rng
from adjudicator.rulesets.coe.orders import Header, Order, OrderSet
from adjudicator.rulesets.coe.state import GameState, snapshot_text
from adjudicator.rulesets.coe.turn import TurnResult, resolve
from tests.helpers import start


def _answered(ruleset_name: str, seed: int, turns: int) -> tuple[set[str], list[dict[str, object]]]:
    """Self-play `turns` player-turns; each turn is resolved asking, every pending decision answered with the
    default the notice shows, until nothing is pending. Returns the kinds of decision answered and the
    answer_refused events."""
    ruleset = load_ruleset(ruleset_name)
    state = ruleset.initial_state("answers", seats_in_play(ruleset, 4))
    keys = chain_keys(dice_secret(seed), turns + 1)
    kinds: set[str] = set()
    refused: list[dict[str, object]] = []
    for number in range(1, turns + 1):
        if state.active is None:
            break
        text = random_orders(ruleset, state, state.active, turn_rng(seed, number))
        orders = parse_orders(text, ruleset)

        def run(
            answers: dict[str, dict[str, str]],
            ask: bool,
            key: bytes = keys[number],
            digest: str = orders_digest([text]),
            orders: OrderSet = orders,
            state: GameState = state,
        ) -> TurnResult:
            return resolve(ruleset, state, orders, KeyedDice(key=key, orders_hash=digest), answers, ask=ask)

        plain = run({}, False)
        answers, result = _answered_with_defaults(run)
        kinds |= {key.split(".")[0] + "." + key.split(".")[-1] for given in answers.values() for key in given}
        refused += [e.data for e in result.events if e.kind == "answer_refused"]
        assert snapshot_text(result.state) == snapshot_text(plain.state), (number, answers)
        state = result.state
    return kinds, refused


@pytest.mark.parametrize(
    ("ruleset", "seed"), [("coe-classic", 11), ("coe-classic", 12), ("coe-1984", 11), ("coe-1984", 12)]
)
def test_C_15_and_O_14_every_suggested_answer_is_accepted_and_means_the_default(ruleset: str, seed: int) -> None:
    kinds, refused = _answered(ruleset, seed, 60)
    assert not refused
    assert kinds  # decisions were asked


def _answered_with_defaults(
    run: Callable[[dict[str, dict[str, str]], bool], TurnResult],
) -> tuple[dict[str, dict[str, str]], TurnResult]:
    """Resolve asking, and answer every pending decision with the default it shows until nothing is pending."""
    answers: dict[str, dict[str, str]] = {}
    result = run(answers, True)
    for _ in range(100):  # a refused answer would be asked again and again
        if not result.pending:
            break
        for need in result.pending:
            answers.setdefault(need.seat, {})[need.key] = need.default
        result = run(answers, True)
    assert not result.pending, result.pending
    return answers, result


def _fed_back(state: GameState, orders: list[Order], dice: list[int]) -> tuple[set[str], TurnResult]:
    """Resolve the active seat's turn asking; answer every pending decision with the default it shows, until
    nothing is pending. The answered keys, and the result, which must equal the defaults' result."""
    ruleset = load_ruleset(state.ruleset)
    order_set = OrderSet(Header("test", state.turn + 1, state.active or "", "x"), tuple(orders))

    def run(answers: dict[str, dict[str, str]], ask: bool) -> TurnResult:
        return resolve(ruleset, state, order_set, GivenDice(values=list(dice)), answers, ask=ask)

    plain = run({}, False)
    answers, result = _answered_with_defaults(run)
    assert not [e.data for e in result.events if e.kind == "answer_refused"]
    assert snapshot_text(result.state) == snapshot_text(plain.state)
    return {key for seat in answers.values() for key in seat}, result


def test_C_15_9_the_suggested_pursuit_answer_is_accepted() -> None:
    from tests.test_coe_classic_battles import CAV, DEF, contest, retreat_rule

    state = contest(
        att={"generals": [1], "cavalry": 3}, dfn={"generals": [1], "infantry": 2, "cavalry": 1, "catapult": 1}
    )
    state.players[DEF].standing["retreat"] = [retreat_rule("units_below", 99, to=["MOE"])]
    keys, _ = _fed_back(state, [], [6] * 3 + [6] * 4 + [CAV, CAV, 6])
    assert "battle.THR.pursuit" in keys


@pytest.mark.parametrize("ruleset", ["coe-classic", "coe-1984"])
def test_C_15_10_and_O_14_4_the_suggested_naval_answers_are_accepted(ruleset: str) -> None:
    from tests.helpers import sail
    from tests.test_coe_classic_naval import EGY, MAC, at_sea, naval

    state = start(ruleset=ruleset)
    for number in (1, 2, 3):  # Macedonia's galleys come from the Aegean into the Black Sea (1984: a battle, O-6.2)
        at_sea(state, "AEG", number, MAC, inf=number - 1)
        at_sea(state, "EUX", number, EGY, inf=3 - number)
    orders = [sail((1, 2, 3), "AEG", "EUX"), naval("EUX", EGY, line=2)]
    dice = [5, 6, 6, 6, 6, 6] * 2 + [6] * 24 if ruleset == "coe-classic" else [4, 3] * 60
    keys, _ = _fed_back(state, orders if ruleset == "coe-classic" else orders[:1], dice)
    assert any(key.startswith("naval.EUX.") for key in keys), keys
