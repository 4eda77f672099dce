"""Empires of the Ancient World: snapshots (schema 2 envelope: public, private per seat, secret) written and read
back, the refusal of a position that is not one of the game (each problem named by its field path) and the
invariants every step keeps. The game is made once per module by the real deal and placement steps."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from adjudicator.engine.chance import GivenDice
from adjudicator.engine.protocol import EVERYONE, PUBLIC
from adjudicator.engine.steps import resolve_step
from adjudicator.errors import PbemError
from adjudicator.rulesets import load_ruleset
from adjudicator.rulesets.empires.data import Pieces
from adjudicator.rulesets.empires.game import EmpiresGame
from adjudicator.rulesets.empires.orders import PlaceControl, PlanLine, Recruit
from adjudicator.rulesets.empires.state import REVOLT, GameState
from tests.eaw_helpers import small_data

SEATS = ("red", "blue", "green")
DATA = small_data(pieces=Pieces(control_markers=12, trade_markers=20, forts=3))


def bound() -> EmpiresGame:
    return EmpiresGame(load_ruleset("empires-aw").info, DATA, DATA.options)


@pytest.fixture(scope="module")
def placed() -> GameState:
    """A game after its deal and placement (defaults), with a plan, standing orders, trade and plunder added."""
    game = bound()
    state = game.initial_state("g", list(SEATS))
    for dice in ([1] * 20 + [2], [2, 1, 1, 3]):
        step = game.due(state)
        assert step is not None
        state = resolve_step(game, state, step, dict.fromkeys(step.seats), GivenDice(values=dice)).state
    assert state.phase == REVOLT
    red = state.players["red"]
    red.plan = [PlanLine((PlaceControl("ITA"),), line=2, text="CONTROL ITA").to_json()]
    red.standing = {"markers": "pull"}
    red.warehouse, red.stock_trade = 3, 15
    state.trade = {"EGY": {"red": 1}}
    state.players["blue"].plunder = {"red": 1}
    assert game.broken_invariants(state) == []
    return state


def test_the_whole_snapshot_reads_back_the_same_state(placed: GameState) -> None:
    game = bound()
    text = game.snapshot_text(placed, EVERYONE)
    assert game.read_stored_snapshot(text) == placed
    assert game.read_snapshot(json.loads(text)) == placed


def test_the_public_snapshot_shows_counts_and_no_hand_plan_group_or_deck_order(placed: GameState) -> None:
    game = bound()
    public = game.snapshot(placed, PUBLIC)
    assert "private" not in public and "secret" not in public
    text = json.dumps(public)
    hidden = {c for p in placed.players.values() for c in p.hand} | set(placed.deck)
    assert not any(f'"{card}"' in text for card in hidden)
    assert public["public"]["players"]["red"]["hand"] == len(placed.players["red"].hand)
    assert public["public"]["players"]["red"]["plan"] == 1 and "CONTROL" not in text
    assert public["public"]["deck"] == len(placed.deck) and public["public"]["home_groups"] == {"north": 2, "south": 1}


def test_a_seat_snapshot_holds_its_own_hand_and_plan_only(placed: GameState) -> None:
    game = bound()
    own = game.snapshot(placed, "red")
    assert list(own["private"]) == ["red"] and "secret" not in own
    assert own["private"]["red"]["hand"] == placed.players["red"].hand
    written = own["private"]["red"]["plan"]
    assert [line["text"] for line in written] == ["CONTROL ITA"]
    assert [json.loads(line["order"]) for line in written] == placed.players["red"].plan
    assert own["private"]["red"]["home_group"] == placed.players["red"].home_group
    state = game.read_snapshot(own)  # a view reads back: the card counts are checked only for the whole
    assert state.players["red"].hand == placed.players["red"].hand and state.players["blue"].hand == []


def broken(placed: GameState, change: Callable[[dict[str, Any]], None]) -> str:
    data = copy.deepcopy(bound().snapshot(placed, EVERYONE))
    change(data)
    with pytest.raises(PbemError) as refused:
        bound().read_snapshot(data)
    return str(refused.value)


CASES = [
    ("unknown area", lambda d: d["public"]["control"].update(XYZ={"seat": "red", "markers": 1}), "control.XYZ"),
    ("no markers", lambda d: d["public"]["control"][next(iter(d["public"]["control"]))].update(markers=0), "EAW-2.4"),
    (
        "a stranger",
        lambda d: d["public"]["control"][next(iter(d["public"]["control"]))].update(seat="black"),
        "is not a seat (EAW-2.4)",
    ),
    ("a text", lambda d: d["public"]["players"]["red"].update(warehouse="3"), "public.players.red.warehouse"),
    ("missing", lambda d: d["public"]["players"]["blue"].pop("vp"), "public.players.blue.vp: missing"),
    ("sea fort", lambda d: d["public"]["forts"].update(MCE="red"), "forts.MCE"),
    ("over capacity", lambda d: d["public"]["trade"].update(RAE={"red": 2, "blue": 1}), "EAW-2.6"),
    ("unknown card", lambda d: d["private"]["red"]["hand"].append("dragon"), "'dragon' is no card"),
    ("a card twice", lambda d: d["public"]["display"].append(d["secret"]["deck"][0]), "in two places"),
    ("a lost card", lambda d: d["secret"]["deck"].pop(), "general deck is not whole"),
    (
        "two leaders",
        lambda d: d["public"]["players"]["red"]["personalities"].extend(["general", "general"]),
        "EAW-7.22",
    ),
    ("a piece more", lambda d: d["public"]["players"]["red"].update(stock_forts=9), "EAW-1.2"),
    ("a southern group", lambda d: d["private"]["red"].update(home_group="D"), "red.home_group: 'D' is no group"),
    ("a home card", lambda d: d["private"]["green"]["hand"].pop(0), "home army"),
    ("bad plan", lambda d: d["private"]["red"]["plan"].append({"kind": "fly"}), "players.red.plan[1]"),
    ("four rounds", lambda d: d["public"].update(round=5), "EAW-4.1"),
    ("a stranger starts", lambda d: d["public"].update(start_player="black"), "start_player: 'black'"),
    ("a wrong option", lambda d: d["public"]["options"].update(threshold="maybe"), "options.threshold: 'maybe'"),
    ("bad standing", lambda d: d["private"]["red"]["standing"].update(markers=5), "players.red.standing.markers"),
    ("a round at setup", lambda d: d["public"].update(phase="placement"), "round: 1 is not 0 to 0"),
    ("a marker more", lambda d: d["public"]["players"]["red"].update(stock_control=12), "control markers on the map"),
    ("early winners", lambda d: d["public"].update(winners=["red"]), "EAW-10.8"),
    ("bad options", lambda d: d["public"]["options"].update(start_markers=[1]), "public.options"),
]


@pytest.mark.parametrize(("what", "change", "named"), CASES, ids=[c[0] for c in CASES])
def test_a_position_that_breaks_the_rules_or_the_data_is_refused_naming_the_field(
    placed: GameState, what: str, change: Callable[[dict[str, Any]], None], named: str
) -> None:
    assert named in broken(placed, change)


def test_a_snapshot_of_another_ruleset_is_refused(placed: GameState) -> None:
    data = bound().snapshot(placed, EVERYONE) | {"ruleset": "conqueror-er"}
    with pytest.raises(PbemError, match="ruleset 'conqueror-er'"):
        bound().read_snapshot(data)


def test_the_invariants_name_what_a_step_broke(placed: GameState) -> None:
    state = placed.copy()
    state.players["red"].warehouse = -1
    state.display = state.deck[:7]
    found = bound().broken_invariants(state)
    assert any("players.red.warehouse: -1" in p for p in found)
    assert any("more than 6 (EAW-7.20)" in p for p in found)


def test_EAW_2_5_a_fort_at_sea_is_refused_and_EAW_2_6_trade_beyond_an_areas_value(placed: GameState) -> None:
    assert "forts.MCE: not a province" in broken(placed, lambda d: d["public"]["forts"].update(MCE="red"))
    over = broken(placed, lambda d: d["public"]["trade"].update(RAE={"red": 2, "blue": 1}))
    assert "trade.RAE: 3 markers, more than its value 2 (EAW-2.6)" in over
    state = placed.copy()
    state.trade["RAE"] = {"red": 1, "blue": 1}  # an area of value 2 holds 2 in all (EAW-13.20)
    state.players["red"].stock_trade -= 1  # type: ignore[operator]
    state.players["blue"].stock_trade -= 1  # type: ignore[operator]
    assert bound().broken_invariants(state) == []


def test_EAW_2_4_an_area_holds_the_markers_of_one_player_at_least_one(placed: GameState) -> None:
    assert all(c.markers >= 1 and c.seat in SEATS for c in placed.control.values())
    assert "(an area held has at least 1 marker, EAW-2.4)" in broken(
        placed, lambda d: d["public"]["control"][next(iter(d["public"]["control"]))].update(markers=0)
    )


def test_EAW_4_3_the_public_snapshot_names_the_action_rounds_of_the_round_under_the_games_options() -> None:
    data = small_data(action_rounds_first=6)
    game = EmpiresGame(load_ruleset("empires-aw").info, data, data.options)
    state = game.initial_state("g", list(SEATS))
    assert game.snapshot(state, PUBLIC)["public"]["action_rounds"] == 0  # before round I
    state.round, state.phase, state.start_player, state.first_setup_player = 3, "plans", "red", "red"
    assert game.snapshot(state, PUBLIC)["public"]["action_rounds"] == 4  # 6, 5, 4 (EAW-4.3)


def test_EAW_7_22_personalities_are_counted_by_their_data_entry_merchants_any_number(placed: GameState) -> None:
    state = placed.copy()
    state.display = [c for c in state.display if c not in ("trader", "trader#2", "envoy", "envoy#2")]
    state.deck = [c for c in state.deck if c not in ("trader", "trader#2", "envoy", "envoy#2")]
    state.players["red"].personalities = ["trader", "trader#2"]  # two merchants: allowed
    state.players["blue"].personalities = ["envoy", "envoy#2"]  # two diplomats: not (EAW-13.24)
    assert bound().broken_invariants(state) == ["players.blue.personalities: two of diplomat (EAW-7.22)"]


def test_the_words_of_a_plan_are_no_hidden_items_of_the_snapshot(placed: GameState) -> None:
    """The leak test (test_conformance.py) takes each single word of a seat's private part for a hidden item: a plan
    line is written as its text and its JSON text, as Conqueror keeps its standing orders as lines, so that an area
    or a word it names is not taken for a hidden card; the hand and the home army still are."""
    from tests.test_conformance import hidden_items

    state = placed.copy()
    line = PlanLine((Recruit(("best",)), PlaceControl("NUM")), line=3, text="RECRUIT best ELSE CONTROL NUM")
    state.players["red"].plan.append(line.to_json())
    whole = bound().snapshot(state, EVERYONE)
    hidden = hidden_items(whole)["red"]
    cards = {card for card in state.players["red"].hand if "#" not in card}  # the test's items: word characters
    assert cards and cards <= hidden
    assert not hidden & {"best", "no", "recruit", "control", "ITA", "NUM"}
    assert bound().read_snapshot(whole) == state


def test_EAW_7_20_EAW_8_4_the_hand_cards_everybody_saw_are_public_the_unseen_home_army_is_not(
    placed: GameState,
) -> None:
    from tests.test_conformance import hidden_items

    state = placed.copy()
    red = state.players["red"]
    recruited = state.display.pop(0)  # taken face up from the display (EAW-7.20)
    red.hand.append(recruited)
    shown, unseen = red.hand[0], red.hand[1]  # two home-army cards: a battle revealed the first (EAW-8.4)
    red.revealed.append(shown)
    whole = bound().snapshot(state, EVERYONE)
    assert whole["public"]["players"]["red"]["known"] == sorted([recruited, shown])
    hidden = hidden_items(whole)["red"]
    assert recruited not in hidden and shown not in hidden and (unseen in hidden or "#" in unseen)
    assert bound().read_snapshot(whole) == state
