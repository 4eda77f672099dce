"""The game options of Empires of the Ancient World (EAW-11.7) as `pbem new --option key=value` gives them: each
choice checked against data.OPTION_CHOICES, numbers within their bounds (at the bound and one past it),
start_markers as players:markers pairs, plunder_vp an integer or unset; every wrong pair named at once; no modes."""

from __future__ import annotations

import pytest

from adjudicator.errors import PbemError
from adjudicator.rulesets.empires.data import OPTION_CHOICES, GameData, Options
from adjudicator.rulesets.empires.loader import load_folder
from adjudicator.rulesets.empires.options import OPTION_RULES, game_options
from tests.eaw_data_helpers import EXAMPLE


@pytest.fixture(scope="module")
def data() -> GameData:
    return load_folder(EXAMPLE)


def test_EAW_11_7_no_pairs_keep_the_datas_options(data: GameData) -> None:
    assert game_options(data, None, {}) == data.options
    assert game_options(data) == data.options


@pytest.mark.parametrize("key", sorted(OPTION_CHOICES))
def test_EAW_11_7_every_choice_of_every_option_is_taken_and_another_word_refused(data: GameData, key: str) -> None:
    for choice in OPTION_CHOICES[key]:
        assert getattr(game_options(data, None, {key: choice.upper()}), key) == choice
    with pytest.raises(PbemError) as refused:
        game_options(data, None, {key: "sometimes"})
    choices = ", ".join(OPTION_CHOICES[key])
    assert str(refused.value) == f"game options: {key}=sometimes: choose one of {choices} ({OPTION_RULES[key]})"


def test_EAW_3_1_start_markers_as_players_markers_pairs(data: GameData) -> None:
    assert dict(game_options(data, None, {"start_markers": "3:7,4:6,5:5"}).start_markers) == {3: 7, 4: 6, 5: 5}
    assert dict(game_options(data, None, {"start_markers": "3:8"}).start_markers) == {3: 8, 4: 6, 5: 5}
    assert dict(game_options(data, None, {"start_markers": " 5 : 10 "}).start_markers) == {3: 7, 4: 6, 5: 10}
    for wrong, why in (
        ("6:4", "write players:markers pairs for 3 to 5 players, e.g. 3:7,4:6,5:5 (EAW-3.1)"),
        ("3-7", "write players:markers pairs for 3 to 5 players, e.g. 3:7,4:6,5:5 (EAW-3.1)"),
        ("3:11", "write a whole number from 1 to 10 (EAW-3.1)"),
        ("3:0", "write a whole number from 1 to 10 (EAW-3.1)"),
    ):
        with pytest.raises(PbemError) as refused:
            game_options(data, None, {"start_markers": wrong})
        assert str(refused.value) == f"game options: start_markers={wrong}: {why}"


def test_EAW_10_6_plunder_vp_an_integer_from_0_to_10_or_unset(data: GameData) -> None:
    assert data.options.plunder_vp == 1
    assert game_options(data, None, {"plunder_vp": "0"}).plunder_vp == 0
    assert game_options(data, None, {"plunder_vp": "10"}).plunder_vp == 10
    assert game_options(data, None, {"plunder_vp": "unset"}).plunder_vp is None
    for wrong in ("11", "-1", "two", "1.5"):
        with pytest.raises(PbemError) as refused:
            game_options(data, None, {"plunder_vp": wrong})
        assert str(refused.value) == f"game options: plunder_vp={wrong}: write a whole number from 0 to 10 (EAW-10.6)"


def test_EAW_4_3_action_rounds_first_from_4_to_20(data: GameData) -> None:
    assert game_options(data, None, {"action_rounds_first": "4"}).action_rounds(4) == 1
    assert game_options(data, None, {"action_rounds_first": "20"}).action_rounds_first == 20
    for wrong in ("3", "21", "9" * 5000):
        with pytest.raises(PbemError) as refused:
            game_options(data, None, {"action_rounds_first": wrong})
        assert str(refused.value).endswith(": write a whole number from 4 to 20 (EAW-4.3)")


def test_EAW_11_7_every_wrong_pair_is_named_at_once_and_nothing_is_changed(data: GameData) -> None:
    pairs = {"trade_reach": "controlled_only", "tie_break": "dice", "speed": "fast", "plunder_vp": "99"}
    with pytest.raises(PbemError) as refused:
        game_options(data, None, pairs)
    known = ", ".join(sorted(Options.__dataclass_fields__))
    assert str(refused.value) == (
        "game options: tie_break=dice: choose one of shared, most_control, most_trade (EAW-10.8); "
        f"speed: no such option (options: {known}); "
        "plunder_vp=99: write a whole number from 0 to 10 (EAW-10.6)"
    )
    assert data.options.trade_reach == "chain"


def test_EAW_11_7_the_game_has_no_modes(data: GameData) -> None:
    with pytest.raises(PbemError) as refused:
        game_options(data, "conquest", {"threshold": "wrong"})
    assert str(refused.value) == (
        "game options: mode 'conquest': Empires of the Ancient World has no modes; "
        "threshold=wrong: choose one of ge, gt (EAW-0.4)"
    )


def test_EAW_11_7_changed_options_are_named_for_the_reports(data: GameData) -> None:
    options = game_options(
        data, None, {"trade_reach": "controlled_only", "start_markers": "4:5", "plunder_vp": "unset"}
    )
    assert options.changed() == {"trade_reach": "controlled_only", "start_markers": "3:7,4:5,5:5"}


def test_EAW_11_7_a_stored_option_that_is_no_text_is_named(data: GameData) -> None:
    with pytest.raises(PbemError) as refused:
        game_options(data, None, {"plunder_vp": 3})  # type: ignore[dict-item]
    assert str(refused.value) == "game options: plunder_vp=3: not a text"
