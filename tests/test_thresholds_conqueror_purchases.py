"""Conqueror: Empire Rises, Conquest mode's purchases before round 1 (rulesets/conqueror/purchases.py) pinned where
a mutation run found them unpinned: the verdicts of a real purchases step (orders through the real parser) and of
the check of one seat's orders, asserted whole (line, order text, verdict, reason, rule)."""

from __future__ import annotations

from adjudicator.engine.vocabulary import OrderResult
from tests.test_conqueror_purchases import parsed, play, purchases_position, verdicts
from tests.test_conqueror_state import dice


def whole(results: list[OrderResult]) -> list[tuple[int, str, bool, str, str]]:
    return [(r.line, r.text, r.accepted, r.reason, r.rule) for r in results]


def test_ER_3_11_the_first_buy_line_counts_and_every_other_line_is_refused_naming_why() -> None:
    rules, state = purchases_position()
    result = play(rules, state, {"kesh": "BUY GRANARY\nBUY BAZAAR\nAGENT ACADEMY\nPRESS TO aurel: hello"})
    assert whole(verdicts(result, "kesh")) == [
        (2, "BUY GRANARY", True, "5 coins paid, 5 left (ER-3.11)", ""),
        (3, "BUY BAZAAR", False, "one BUY line before round 1, of at most 2 items: line 2 is the one", "ER-3.11"),
        (
            4,
            "AGENT ACADEMY",
            False,
            "before round 1 only BUY orders are taken (and PRESS); send the others with the plans of round 1",
            "ER-3.11",
        ),
        (5, "PRESS TO aurel: hello", True, "", ""),
    ]


def test_ER_3_11_a_refused_item_keeps_its_line_and_text_and_the_next_item_is_still_bought() -> None:
    rules, state = purchases_position()
    state.players["kesh"].coins = 5
    result = play(rules, state, {"kesh": "BUY UPGRADE CAVALRY AND GRANARY"})
    (upgrade, granary) = verdicts(result, "kesh")
    assert (upgrade.line, upgrade.text, upgrade.accepted) == (2, "BUY UPGRADE CAV", False)
    assert (granary.line, granary.text, granary.accepted, granary.reason) == (
        2,
        "BUY GRANARY",
        True,
        "5 coins paid, 0 left (ER-3.11)",
    )


def test_ER_3_11_the_check_of_one_seat_notes_that_earlier_players_buy_first() -> None:
    rules, state = purchases_position()
    step = rules.due(state)
    assert step is not None
    found = parsed(rules, state, "aurel", "BUY BAZAAR, UPGRADE CAVALRY\nPRESS TO kesh: hi")
    first, second, press = rules.check_orders(state, "aurel", step.number, found, dice())
    note = "judged as the position stands now; players before you in seating order buy first (ER-3.11)"
    assert (first.line, first.text, first.accepted, first.rule) == (2, "BUY BAZAAR", True, "")
    assert first.reason == f"3 coins paid, 7 left (ER-3.11); {note}"
    assert (second.line, second.accepted, second.rule) == (2, False, "ER-5.20")
    assert second.reason.endswith(f"; {note}") and "holds 7" in second.reason
    assert whole([press]) == [(3, "PRESS TO kesh: hi", True, "", "")]  # not a purchase: no note


def test_ER_3_9_ER_3_10_buying_starts_with_the_hourglass_holder_in_seating_order() -> None:
    rules, state = purchases_position()
    state.supply.districts["academy"] = 1
    seating = list(state.seating)
    state.hourglass = seating[1]
    result = play(rules, state, {f: "BUY ACADEMY" for f in seating})
    won = [f for f in seating if result.state.players[f].districts.get("academy")]
    assert won == [seating[1]]
