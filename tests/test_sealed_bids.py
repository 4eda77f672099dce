"""The test ruleset of the game-neutral core (tests/rulesets/sealed_bids/), plugged in through the Ruleset protocol
alone: sealed steps, private hands, verifiable shuffles, and no private card in a public view. Rule IDs B-n are
in tests/rulesets/sealed_bids/game.py."""

from __future__ import annotations

import json
import random
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from adjudicator.engine.chance import (
    Dice,
    DiceError,
    GivenDice,
    KeyedDice,
    hidden_turn_key,
    orders_digest,
    parse_dice_file,
    turn_key,
)
from adjudicator.engine.protocol import EVERYONE, PUBLIC, Ruleset
from adjudicator.engine.ruleset_source import RulesetDataError
from adjudicator.engine.steps import NotDue, Step, StepNotReady, StepOrders, StepResult, resolve_step
from adjudicator.engine.vocabulary import Event
from adjudicator.rulesets import UnknownRuleset, load_ruleset, ruleset_names

RULESETS = Path(__file__).parent / "rulesets"
SEATS = ["North", "East", "South"]
SEED = b"sealed bids test seed"


@pytest.fixture
def bids(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("PBEM_RULESETS", str(RULESETS))
    return load_ruleset("sealed-bids")


def keyed(step: int, orders: tuple[str, ...] = ()) -> KeyedDice:
    """The verifiable stream of a step: its turn key, and the hash of the orders received."""
    return KeyedDice(
        key=turn_key(SEED, step), orders_hash=orders_digest(orders), hidden_key=hidden_turn_key(SEED, step)
    )


def dealt(bids: Any, seats: list[str] = SEATS, dice: Dice | None = None) -> StepResult:
    state = bids.initial_state("g1", seats)
    return resolve_step(bids, state, bids.due(state), {}, dice or keyed(1))


def bid(bids: Any, state: Any, texts: dict[str, str], deadline_passed: bool = False) -> StepResult:
    """Collect the seats' order texts for the due sealed step, then resolve it."""
    step = bids.due(state)
    collected = StepOrders(step)
    for seat, text in texts.items():
        collected.submit(seat, bids.parse_orders(text))
    return resolve_step(bids, state, step, collected.for_resolution(deadline_passed), keyed(step.number))


def public_view(bids: Any, state: Any, events: list[Event]) -> str:
    """What every player, observer and the site may read: public events and the public snapshot."""
    shown = [e.to_json() for e in events if e.public]
    return json.dumps([shown, bids.snapshot(state, PUBLIC)])


def seat_view(bids: Any, state: Any, events: list[Event], seat: str) -> str:
    """What `seat` may read: the public view, its private events and its own snapshot."""
    own = [e.to_json() for e in events if e.public or e.private_to(seat)]
    return json.dumps([own, bids.snapshot(state, seat)])


def mentions(text: str, card: str) -> bool:
    return re.search(rf"\b{card}\b", text) is not None


def test_the_test_ruleset_comes_from_pbem_rulesets_through_the_protocol(bids: Any) -> None:
    assert isinstance(bids, Ruleset)
    assert "sealed_bids" in ruleset_names() and load_ruleset("bids") is bids
    assert bids.folder == RULESETS / "sealed_bids" and bids.grammar_files[-1] == RULESETS / "sealed_bids" / "bids.lark"
    assert bids.seat_names == tuple(SEATS) and bids.lookup_seat("so") == ["South"]


def test_without_pbem_rulesets_the_test_ruleset_is_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PBEM_RULESETS", raising=False)
    with pytest.raises(UnknownRuleset, match="known rulesets: coe-1984, coe-classic, conqueror-er, empires-aw$"):
        load_ruleset("sealed-bids")


def test_B_1_the_deal_gives_each_seat_a_hand_from_the_shuffled_deck(bids: Any) -> None:
    state = bids.initial_state("g1", SEATS)
    assert bids.due(state) == Step(1, "deal", (), sealed=False)
    dice = keyed(1)
    result = dealt(bids, dice=dice)
    hands = result.state.hands
    assert [len(hands[seat]) for seat in SEATS] == [3, 3, 3]
    assert len({card for hand in hands.values() for card in hand}) == 9
    # the deal is a hidden draw: the public dice log (printed in the report with the turn key) holds none of it
    assert result.dice == [] and all(purpose.startswith("shuffle deck") for purpose, _ in dice.hidden_log)
    assert not bids.broken_invariants(result.state)


def test_B_1_the_shuffle_is_reproducible_from_the_hidden_key_and_not_from_the_revealed_turn_key(bids: Any) -> None:
    first, again = dealt(bids), dealt(bids)
    assert first.state.hands == again.state.hands
    hidden = hidden_turn_key(SEED, 1)
    same_secret = KeyedDice(key=turn_key(b"another seed", 1), orders_hash=orders_digest([]), hidden_key=hidden)
    assert dealt(bids, dice=same_secret).state.hands == first.state.hands  # the revealed key plays no part
    other = KeyedDice(key=turn_key(SEED, 1), orders_hash=orders_digest([]), hidden_key=hidden_turn_key(b"x", 1))
    assert dealt(bids, dice=other).state.hands != first.state.hands  # 12!/3! deals: another secret deals otherwise


def test_B_1_a_dice_file_drives_the_shuffle(bids: Any) -> None:

    names = [card.name for card in bids.rules.deck]
    values = parse_dice_file("1 " * 30)
    result = dealt(bids, dice=GivenDice(values=list(values)))
    deck = GivenDice(values=list(values)).shuffle(names, "deck")
    assert [result.state.hands[seat] for seat in SEATS] == [deck[0:3], deck[3:6], deck[6:9]]
    assert result.state.hands != dealt(bids, dice=GivenDice(values=parse_dice_file("2 " * 30))).state.hands
    with pytest.raises(DiceError, match="ran out.*shuffle deck"):
        dealt(bids, dice=GivenDice(values=[1, 1]))


def test_B_1_a_shuffle_of_twelve_cards_takes_eleven_draws_of_a_dice_file(bids: Any) -> None:
    dice = GivenDice(values=parse_dice_file("12 11 10 9 8 7 6 5 4 3 2", largest=12))
    result = dealt(bids, dice=dice)
    assert dice.unused == 0 and len(dice.hidden_log) == 11 and result.dice == []
    assert [result.state.hands[seat] for seat in SEATS] == [
        ["Lion", "Eagle", "Bull"],
        ["Wolf", "Bear", "Boar"],
        ["Stag", "Horse", "Hound"],
    ]


def test_B_2_a_sealed_step_waits_for_every_seat(bids: Any) -> None:
    state = dealt(bids).state
    step = bids.due(state)
    assert step == Step(2, "bid", tuple(SEATS), sealed=True)
    collected = StepOrders(step)
    collected.submit("North", bids.parse_orders(f"BID {state.hands['North'][0]}"))
    assert collected.waiting_for == ("East", "South")
    with pytest.raises(StepNotReady, match="still waits for East, South"):
        collected.for_resolution()


def test_B_2_a_seats_orders_are_not_in_another_seats_view_before_the_step_resolves(bids: Any) -> None:
    state = dealt(bids).state
    collected = StepOrders(bids.due(state))
    north = bids.parse_orders(f"BID {state.hands['North'][0]}")
    collected.submit("North", north)
    assert collected.visible_to("North") == {"North": north}
    assert collected.visible_to("East") == {} and collected.visible_to("South") == {}


def test_B_3_the_bids_are_revealed_together_and_the_highest_card_wins(bids: Any) -> None:
    state = dealt(bids).state
    best = {seat: max(state.hands[seat], key=bids.value) for seat in SEATS}
    result = bid(bids, state, {seat: f"BID {card}" for seat, card in best.items()})
    revealed = [e for e in result.events if e.kind == "bids_revealed"]
    assert len(revealed) == 1 and revealed[0].data["bids"] == best and revealed[0].public
    winner = max(SEATS, key=lambda seat: bids.value(best[seat]))
    assert [e.seat for e in result.events if e.kind == "round_won"] == [winner]
    assert result.state.scores == {seat: int(seat == winner) for seat in SEATS}
    assert all(result.order_results[seat][0].accepted for seat in SEATS)


def test_B_3_the_order_the_bids_arrived_in_changes_nothing(bids: Any) -> None:
    state = dealt(bids).state
    texts = {seat: f"BID {state.hands[seat][1]}" for seat in SEATS}
    forward = bid(bids, state, texts)
    backward = bid(bids, state, dict(reversed(texts.items())))
    assert forward.events == backward.events and forward.state == backward.state


def test_B_4_a_seat_without_a_valid_bid_bids_its_lowest_card_when_the_deadline_has_passed(bids: Any) -> None:
    state = dealt(bids).state
    lowest = min(state.hands["East"], key=bids.value)
    result = bid(bids, state, {"North": f"BID {state.hands['North'][0]}"}, deadline_passed=True)
    assert result.state.played[0]["East"] == lowest
    result = bid(bids, state, {seat: "BID Nothing" for seat in SEATS})
    assert result.order_results["East"][0].rule == "B-2" and result.state.played[0]["East"] == lowest


def test_B_5_one_card_per_round(bids: Any) -> None:
    state = dealt(bids).state
    first, second = state.hands["South"][:2]
    result = bid(bids, state, {"South": f"BID {first}\nBID {second}"}, deadline_passed=True)
    assert [(r.line, r.accepted, r.rule) for r in result.order_results["South"]] == [(1, True, ""), (2, False, "B-5")]
    assert result.state.played[0]["South"] == first


def test_B_6_after_the_last_round_the_game_ends_and_every_hand_is_shown(bids: Any) -> None:
    state = dealt(bids).state
    for _ in range(2):
        state = bid(bids, state, {}, deadline_passed=True).state
    assert bids.due(state) is None and state.revealed
    assert bids.snapshot(state, PUBLIC)["public"]["hands"] == state.hands
    assert all(len(hand) == 1 for hand in state.hands.values())
    with pytest.raises(NotDue, match="the game has ended"):
        resolve_step(bids, state, Step(4, "bid", tuple(SEATS), True), {}, keyed(4))


def test_private_hands_appear_only_in_their_seats_view_until_the_end(bids: Any) -> None:
    result = dealt(bids)
    state, events = result.state, list(result.events)
    rng = random.Random(13)
    while bids.due(state) is not None:
        public = public_view(bids, state, events)
        for seat in SEATS:
            own = seat_view(bids, state, events, seat)
            assert all(mentions(own, card) for card in state.hands[seat])
            for holder in SEATS:
                for card in state.hands[holder]:
                    assert not mentions(public, card), f"{holder}'s {card} leaks into the public view"
                    assert holder == seat or not mentions(own, card), f"{holder}'s {card} leaks to {seat}"
        result = bid(bids, state, {seat: f"BID {rng.choice(state.hands[seat])}" for seat in SEATS})
        state, events = result.state, events + result.events
    final = public_view(bids, state, events)
    assert all(mentions(final, card) for hand in state.hands.values() for card in hand)  # B-6


def test_snapshots_the_public_one_a_seats_own_and_the_whole(bids: Any) -> None:
    state = dealt(bids).state
    public, north, whole = (bids.snapshot(state, v) for v in (PUBLIC, "North", EVERYONE))
    assert public["schema"] == 2 and "private" not in public
    assert north["private"] == {"North": {"hand": state.hands["North"]}} and north["public"] == public["public"]
    assert set(whole["private"]) == set(SEATS)
    assert bids.read_snapshot(whole) == state


@pytest.mark.parametrize("players", [2, 3])
def test_invariants_hold_in_random_games(bids: Any, players: int) -> None:
    for game in range(20):
        rng = random.Random(game)
        seats = rng.sample(SEATS, players)
        result = dealt(
            bids,
            seats,
            dice=KeyedDice(key=turn_key(SEED, 1), orders_hash=str(game), hidden_key=hidden_turn_key(SEED, 1)),
        )
        state = result.state
        while bids.due(state) is not None:
            assert not bids.broken_invariants(state)
            texts = {s: f"BID {rng.choice(state.hands[s] + ['Ghost'])}" for s in state.seats if rng.random() < 0.8}
            state = bid(bids, state, texts, deadline_passed=True).state
            assert bids.read_snapshot(bids.snapshot(state)) == state
        assert not bids.broken_invariants(state)
        assert sum(state.scores.values()) <= 2 and state.revealed


def test_a_wrong_value_in_the_test_rulesets_data_names_the_file_and_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "sealed_bids"
    shutil.copytree(RULESETS / "sealed_bids", folder)
    text = (folder / "ruleset.toml").read_text(encoding="utf-8")
    (folder / "ruleset.toml").write_text(text.replace("value = 11", 'value = "11"'), encoding="utf-8")
    monkeypatch.setenv("PBEM_RULESETS", str(tmp_path))
    with pytest.raises(RulesetDataError, match=re.escape("ruleset.toml: card[1].value: expected an integer")):
        load_ruleset("sealed_bids")
