"""ER-15.3 keeps units exhausted across the end of the round; every way units leave an army must then keep the
exhausted count within the units present (ER-7.2). Positions: the real 3-seat setup on our example data."""

from __future__ import annotations

from tests.test_conqueror_politics import plans_position, play


def test_ER_15_3_ER_6_2_excess_units_removed_from_an_exhausted_army_leave_no_phantom_exhaustion() -> None:
    rules, state = plans_position()
    kes = state.army["KES"]
    kes.add("infantry", 2)  # 6 standard units, 2 over kesh's food limit
    kes.exhausted = {"infantry": 4}  # they reinforced after kesh's turn last round: still exhausted (ER-15.3)
    result = play(rules, state, {})
    after = result.state.army["KES"]
    assert after.units == {"cavalry": 1, "infantry": 3}  # an archer, then an infantry leave (ER-14.8)
    assert after.exhausted == {"infantry": 3}
    assert not rules.broken_invariants(result.state)


def test_ER_7_2_removing_units_never_leaves_more_exhausted_than_present() -> None:
    _, state = plans_position()
    kes = state.army["KES"]
    kes.add("infantry", 1)  # 3 infantry
    kes.exhausted = {"infantry": 3}
    kes.add("infantry", -2)
    assert kes.units["infantry"] == 1 and kes.exhausted == {"infantry": 1}
