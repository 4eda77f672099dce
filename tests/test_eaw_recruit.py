"""Recruiting and disbanding (EAW-7.20 to EAW-7.23, EAW-12.3, EAW-13.17, EAW-13.22, EAW-13.24, the hand limit of
EAW-1.2) on the cards of tests/eaw_helpers.py."""

from __future__ import annotations

from typing import Any

from adjudicator.rulesets.empires import actions
from adjudicator.rulesets.empires.orders import Disband, PlanLine, Recruit
from adjudicator.rulesets.empires.play import Play
from adjudicator.rulesets.empires.state import GameState
from tests.eaw_helpers import Pieces, play, position, small_data

DISPLAY = ["pike", "archer", "galley", "blade", "envoy", "slinger"]
DECK = ["rider", "catapult", "pike#2", "camel", "galley#2", "trader", "blade#2", "archer#2"]


def recruit(*wants: str, refresh: str = "no") -> PlanLine:
    return PlanLine((Recruit(tuple(wants), refresh),), line=6, text="RECRUIT")


def events(p: Play, kind: str) -> list[dict[str, Any]]:
    return [e.data for e in p.events if e.kind == kind]


def table(**more: Any) -> GameState:
    more.setdefault("control", {"GAL": "red"})
    more.setdefault("display", DISPLAY)
    more.setdefault("deck", DECK)
    return position(**more)


def rejected(state: GameState, seat: str, action: Recruit | Disband, **data: Any) -> str | None:
    found = actions.refusal(play(state, small_data(**data)), seat, action)
    return None if found is None else found.rule


# -- EAW-7.20: the display -----------------------------------------------------------------------------------
def test_EAW_7_20_a_card_is_taken_from_the_display_of_6_and_the_deck_refills_it() -> None:
    state = table()
    p = play(state)
    actions.take_action(p, "red", recruit("archer"))
    assert state.players["red"].hand == ["archer"]
    assert state.display == ["pike", "galley", "blade", "envoy", "slinger", "rider"] and state.deck[0] == "catapult"
    assert events(p, "display_refilled") == [{"cards": ["rider"], "short": False, "rule": "EAW-7.20"}]


def test_EAW_7_20_refresh_pays_1_discards_the_six_and_takes_from_the_new_display() -> None:
    state = table(warehouse={"red": 1})
    p = play(state)
    actions.take_action(p, "red", recruit("galley", refresh="yes"))
    assert state.players["red"].warehouse == 0 and state.discards == DISPLAY
    assert state.players["red"].hand == ["galley#2"]
    assert state.display == ["rider", "catapult", "pike#2", "camel", "trader", "blade#2"]


def test_EAW_7_20_refresh_is_refused_with_an_empty_warehouse() -> None:
    state = table(warehouse={"red": 0})
    assert rejected(state, "red", Recruit(("galley",), "yes")) == "EAW-7.20"


def test_EAW_7_20_having_paid_the_player_must_take_one_the_best_when_nothing_matches() -> None:
    state = table(warehouse={"red": 1})
    p = play(state)
    actions.take_action(p, "red", recruit("general", refresh="yes"))
    assert state.players["red"].hand == ["rider"]  # value 4, the first of the highest


def test_EAW_7_20_an_empty_deck_is_made_of_the_shuffled_discards_hidden() -> None:
    state = table(deck=[])
    state.discards = ["rider", "camel"]
    p = play(state, dice=[2])
    actions.take_action(p, "red", recruit("pike"))
    assert state.display[-1] == "rider" and state.deck == ["camel"] and state.discards == []
    assert p.dice.log == [] and len(p.dice.hidden_log) == 1
    assert events(p, "deck_reshuffled") == [{"cards": 2, "rule": "EAW-7.20"}]


def test_EAW_7_20_without_deck_and_discards_the_display_stays_short() -> None:
    state = table(deck=[])
    p = play(state)
    actions.take_action(p, "red", recruit("pike"))
    assert len(state.display) == 5 and events(p, "display_refilled")[0]["short"]


def test_EAW_7_20_an_empty_display_deck_and_discards_refuse_recruiting() -> None:
    state = table(display=[], deck=[])
    assert rejected(state, "red", Recruit((), "no")) == "EAW-7.20"
    assert rejected(state, "red", Recruit((), "yes")) == "EAW-7.20"


# -- EAW-12.3: the priority list -----------------------------------------------------------------------------
def test_EAW_12_3_the_first_of_the_list_the_display_holds_is_taken_ids_categories_types() -> None:
    for wants, taken in ((("rider", "sword"), "blade"), (("diplomat",), "envoy"), (("foot", "pike"), "slinger")):
        state = table()
        actions.take_action(play(state), "red", recruit(*wants))
        assert state.players["red"].hand + state.players["red"].personalities == [taken]


def test_EAW_12_3_best_and_an_empty_list_take_the_highest_value() -> None:
    for wants in (("best",), ()):
        state = table()
        actions.take_action(play(state), "red", recruit(*wants))
        assert state.players["red"].hand == ["blade"]


def test_EAW_12_3_a_list_without_a_match_is_refused_so_that_the_fall_back_is_tried() -> None:
    state = table()
    assert rejected(state, "red", Recruit(("rider",))) == "EAW-12.3"
    p = play(state)
    actions.take_action(p, "red", PlanLine((Recruit(("rider",)), Recruit(("pike",))), line=1, text=""))
    assert state.players["red"].hand == ["pike"]


def test_EAW_12_3_refresh_if_none_refreshes_only_without_a_match() -> None:
    state = table(warehouse={"red": 1})
    p = play(state)
    actions.take_action(p, "red", recruit("pike", refresh="if_none"))
    assert state.players["red"].hand == ["pike"] and state.players["red"].warehouse == 1
    p = play(state)
    actions.take_action(p, "red", recruit("catapult", refresh="if_none"))
    assert state.players["red"].hand == ["pike", "catapult"] and state.players["red"].warehouse == 0
    assert events(p, "display_refreshed")


# -- EAW-7.21, EAW-13.17: disband ----------------------------------------------------------------------------
def test_EAW_7_21_a_card_of_the_hand_is_discarded() -> None:
    state = table(hands={"red": ["rider", "guard_a"]})
    p = play(state)
    actions.take_action(p, "red", PlanLine((Disband("rider"),), line=1, text=""))
    assert state.players["red"].hand == ["guard_a"] and state.discards == ["rider"]
    state = table(hands={"red": ["rider#2"]})
    actions.take_action(play(state), "red", PlanLine((Disband("rider#2"),), line=1, text=""))  # an instance named
    assert state.players["red"].hand == [] and state.discards == ["rider#2"]


def test_EAW_13_17_disband_is_refused_while_an_identical_card_lies_face_up() -> None:
    state = table(hands={"red": ["pike#3"]})
    assert rejected(state, "red", Disband("pike")) == "EAW-13.17"


def test_EAW_7_21_home_army_and_personality_cards_are_never_discarded_nor_cards_not_held() -> None:
    state = table(hands={"red": ["guard_a"]}, personalities={"red": ["general"]})
    assert rejected(state, "red", Disband("guard_a")) == "EAW-7.21"
    assert rejected(state, "red", Disband("general")) == "EAW-7.21"
    assert rejected(state, "red", Disband("catapult")) == "EAW-7.21"


# -- EAW-7.22, EAW-13.24: personalities ----------------------------------------------------------------------
def test_EAW_7_22_a_personality_is_played_face_up_at_once() -> None:
    state = table()
    p = play(state)
    actions.take_action(p, "red", recruit("envoy"))
    assert state.players["red"].personalities == ["envoy"] and state.players["red"].hand == []
    assert p.events[0].visible_to is None


def test_EAW_13_24_a_second_diplomat_is_refused_a_second_merchant_is_not() -> None:
    state = table(personalities={"red": ["envoy#2"]})
    assert rejected(state, "red", Recruit(("envoy",))) == "EAW-12.3"
    found = actions.refusal(play(state), "red", Recruit(("envoy",)))
    assert found is not None
    state = table(display=["trader#2", "pike"], personalities={"red": ["trader"]})
    actions.take_action(play(state), "red", recruit("merchant"))
    assert state.players["red"].personalities == ["trader", "trader#2"]


def test_EAW_7_22_the_refused_personality_tells_the_rule_when_nothing_else_may_be_taken() -> None:
    state = table(display=["envoy"], deck=[], personalities={"red": ["envoy#2"]})
    p = play(state)
    actions.take_action(p, "red", PlanLine((Recruit(()),), line=1, text=""))
    assert [e["rule"] for e in events(p, "alternative_refused")] == ["EAW-7.20"]
    from adjudicator.rulesets.empires.recruit import may_take

    found = may_take(p, "red", "envoy")
    assert found is not None and found.rule == "EAW-7.22"


# -- EAW-7.23, EAW-13.22: labels -----------------------------------------------------------------------------
def test_EAW_7_23_an_N_card_needs_a_northern_province_an_S_card_a_southern_one() -> None:
    state = table(display=["rider", "camel"], control={"GAL": "red", "MOC": "red"})
    assert rejected(state, "red", Recruit(("rider",))) is None
    assert rejected(state, "red", Recruit(("camel",))) == "EAW-12.3"
    state = table(display=["rider", "camel"], control={"AFR": "red"})
    assert rejected(state, "red", Recruit(("camel",))) is None
    assert rejected(state, "red", Recruit(("rider",))) == "EAW-12.3"


def test_EAW_13_22_an_N_card_held_stays_but_no_other_is_recruited_without_the_north() -> None:
    state = table(display=["rider#2"], hands={"red": ["rider"]}, control={"AFR": "red", "MOC": "red"})
    p = play(state)
    from adjudicator.rulesets.empires.recruit import may_take

    found = may_take(p, "red", "rider#2")
    assert found is not None and found.rule == "EAW-7.23"  # a sea area is no province of a half
    assert state.players["red"].hand == ["rider"]


# -- EAW-1.2: the hand limit ---------------------------------------------------------------------------------
def test_EAW_1_2_the_hand_limit_admits_a_card_below_it_and_none_at_it() -> None:
    data = small_data(pieces=Pieces(hand_limit=2))
    state = table(hands={"red": ["guard_a"]})
    actions.take_action(play(state, data), "red", recruit("pike"))
    assert state.players["red"].hand == ["guard_a", "pike"]
    found = actions.refusal(play(state, data), "red", Recruit(("archer",)))
    assert found is not None
    actions.take_action(play(state, data), "red", recruit("envoy"))  # a personality is not held in hand
    assert state.players["red"].personalities == ["envoy"]
