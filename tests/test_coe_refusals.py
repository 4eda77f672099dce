"""The refusals MOVE and SAIL orders share (rulesets/coe/refusals.py), word for word: the archives store these
reasons, so one check serving both orders must keep each order's own wording (Classic, games/coe-classic/rules.md).
"""

from __future__ import annotations

from adjudicator.rulesets.coe.state import Cargo, GameState
from tests.helpers import march, place, play, sail, start

MAC, EGY = "Macedonia", "Egyptus"


def reasons(state: GameState, *orders: object) -> list[tuple[str, str]]:
    """(rule, reason) of each order of the active seat's turn."""
    result = play(state, *orders)  # type: ignore[arg-type]
    return [(r.rule, r.reason) for r in result.order_results]


def guarded() -> GameState:
    """Macedonia with cavalry and galley 1 at home (MAC, coasts on AEG and EPI); Egyptian infantry in neutral THR,
    next to MAC and on the AEG coast."""
    state = start()
    place(state, "MAC", MAC, cavalry=3, galleys=[1])
    place(state, "THR", EGY, owner=False, infantry=2)
    return state


def test_C_5_9_a_move_and_a_galley_route_stop_at_other_players_combat_units() -> None:
    state = guarded()
    home = state.force("MAC", MAC)
    home.generals.remove(1)  # G1 and 2 cavalry are aboard galley 2 in the Aegean
    home.cavalry -= 2
    place(
        state, "AEG", MAC, owner=False, generals=[1], cavalry=2, galleys=[2], aboard={2: Cargo(generals=[1], cavalry=2)}
    )
    assert reasons(state, march((2,), "MAC", "THR", "MOE", cav=1), sail((2,), "AEG", "THR", "EUX", line=2)) == [
        ("C-5.9", "the move must stop in THR, which holds Egyptus's combat units"),
        ("C-5.9", "the galleys must stop in THR, which holds Egyptus's combat units"),
    ]


def test_C_5_10_leaders_alone_neither_enter_nor_land_where_others_have_combat_units() -> None:
    assert reasons(guarded(), march((1,), "MAC", "THR"), sail((1,), "MAC", "AEG", "THR", leaders=(2,), line=2)) == [
        ("C-5.10", "leaders without combat units may not enter THR, held by Egyptus's combat units"),
        ("C-5.10", "leaders without combat units may not land in THR, held by Egyptus's combat units"),
    ]


def test_C_5_3_C_5_24_pieces_not_there_are_refused_moving_and_embarking_each_in_its_words() -> None:
    orders = (
        march((1,), "MAC", "DAL", cav=4),
        sail((1,), "MAC", "AEG", leaders=(1,), cav=4, line=2),
        march((9,), "MAC", "DAL", line=3),
        sail((1,), "MAC", "AEG", leaders=(9,), line=4),
    )
    assert reasons(guarded(), *orders) == [
        ("C-5.3", "you have only 3 cavalry in MAC"),
        ("C-5.24", "you have only 3 cavalry in MAC to embark"),
        ("C-5.3", "your G9 is not in MAC"),
        ("C-5.24", "your G9 is not in MAC to embark there"),
    ]
