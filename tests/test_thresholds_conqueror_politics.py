"""Conqueror: Empire Rises, Politics (rulesets/conqueror/politics.py) pinned where a mutation run found it unpinned:
each agent action is played in a real plans step (orders through the real parser, tests/test_conqueror_politics.py)
and its verdict and events are asserted whole: the reason each refusal gives with its rule (ER-14.6 lists the
refused choices), the price paid at the boundary and one coin short."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from adjudicator.rulesets.conqueror.state import Army, GameState
from tests.test_conqueror_politics import plans_position, play, verdict
from tests.test_conqueror_seas import sod_plans
from tests.test_conqueror_state import example


def coins(n: int) -> Callable[[GameState], None]:
    def given(state: GameState) -> None:
        state.players["kesh"].coins = n

    return given


def then(*changes: Callable[[GameState], None]) -> Callable[[GameState], None]:
    def given(state: GameState) -> None:
        for change in changes:
            change(state)

    return given


def passed(reason: str) -> tuple[bool, str, str]:
    return False, "ER-14.6", f"choice 1: {reason}; so a pass"


REFUSALS: list[tuple[str, str, Callable[[GameState], None], tuple[bool, str, str]]] = [
    (
        "ER_5_7_own_space",
        "AGENT TRADE WITH kesh",
        coins(6),
        passed("a player never trades on its own faction's space (ER-5.7)"),
    ),
    (
        "ER_5_7_no_player",
        "AGENT TRADE WITH varun",
        coins(6),
        passed("varun is no faction of a player in the game (ER-5.7)"),
    ),
    (
        "ER_5_13_one_coin_short",
        "AGENT ACADEMY",
        coins(3),
        passed("the academy costs 4 coins and kesh holds 3 (ER-5.13)"),
    ),
    ("ER_5_13_exactly_the_price", "AGENT ACADEMY", coins(4), (True, "", "choice 1 taken")),
    (
        "ER_15_12_no_card_left",
        "AGENT ACADEMY",
        then(coins(30), lambda s: s.supply.districts.__setitem__("academy", 0)),
        passed("no academy card is left in the supply (ER-15.12)"),
    ),
    (
        "ER_5_13_no_free_slot",
        "AGENT ACADEMY",
        then(coins(30), lambda s: s.players["kesh"].districts.update({"granary": 9})),
        passed("no free civil district slot on the player board (ER-5.13)"),
    ),
    (
        "ER_5_13_no_fort_marker",
        "AGENT FORTIFICATION AT MIR",
        then(coins(30), lambda s: setattr(s.supply, "fort_markers", 0)),
        passed("no fort marker is left in the supply (ER-5.13)"),
    ),
    (
        "ER_5_14_not_a_controlled_area_without_a_fort",
        "AGENT FORTIFICATION AT AUR",
        coins(30),
        passed("AUR is not a land area kesh controls without a fort (ER-5.14)"),
    ),
    (
        "ER_9_4_the_card_must_be_named",
        "AGENT UPGRADE CAVALRY",
        coins(30),
        passed("name the upgrade card: heavy_cavalry, thoroughbred, aggression (ER-9.4)"),
    ),
    (
        "ER_5_20_one_coin_short",
        "AGENT UPGRADE discipline",
        coins(5),
        passed("the upgrade costs 6 coins and kesh holds 5 (ER-5.20)"),
    ),
    ("ER_5_20_exactly_the_price", "AGENT UPGRADE discipline", coins(6), (True, "", "choice 1 taken")),
    (
        "ER_5_23_owned_already",
        "AGENT UPGRADE discipline",
        then(coins(30), lambda s: s.players["kesh"].upgrades.append("discipline")),
        passed("kesh already owns discipline (ER-5.23)"),
    ),
    (
        "ER_5_20_no_card_left",
        "AGENT UPGRADE discipline",
        then(coins(30), lambda s: s.supply.upgrades.__setitem__("discipline", 0)),
        passed("no discipline card is left in the supply (ER-5.20)"),
    ),
    (
        "ER_5_23_four_upgrades_at_most",
        "AGENT UPGRADE discipline",
        then(
            coins(30),
            lambda s: s.players["kesh"].upgrades.extend(["heavy_cavalry", "rapid_aim", "deadly_aim", "thoroughbred"]),
        ),
        passed("kesh already owns 4 upgrades (ER-5.23)"),
    ),
]


@pytest.mark.parametrize(("case", "text", "given", "expected"), REFUSALS, ids=[c[0] for c in REFUSALS])
def test_ER_5_4_each_agent_action_is_taken_or_refused_naming_its_rule(
    case: str, text: str, given: Callable[[GameState], None], expected: tuple[bool, str, str]
) -> None:
    rules, state = plans_position()
    given(state)
    before = state.players["kesh"].coins
    result = play(rules, state, {"kesh": text})
    answer = verdict(result, "kesh")
    assert (answer.accepted, answer.rule, answer.reason) == expected
    if not answer.accepted:
        assert result.state.players["kesh"].coins == before, case  # a pass pays nothing


def test_ER_5_8_ER_5_10_a_trade_moves_the_marker_and_pays_the_partner_one_coin() -> None:
    rules, state = plans_position()
    result = play(rules, state, {"kesh": "AGENT TRADE WITH aurel"})
    traded = [(e.kind, e.seat, e.data) for e in result.events if e.kind in ("traded", "trade_partner_paid")]
    assert traded == [
        ("traded", "kesh", {"partner": "aurel", "space": 2, "coins": 1, "vp": 0, "discount": False}),
        ("trade_partner_paid", "aurel", {"from": "kesh", "coins": 1}),
    ]
    taken = play(rules, state, {"kesh": "AGENT TRADE WITH aurel", "thal": "AGENT TRADE WITH aurel"})
    answer = verdict(taken, "thal")
    assert (answer.accepted, answer.reason) == (
        False,
        "choice 1: the trade space of aurel is taken (ER-5.5); so a pass",
    )


@pytest.mark.parametrize(("space", "price"), [(1, 5), (2, 7)])
def test_ER_5_16_a_district_on_the_second_space_costs_two_more(space: int, price: int) -> None:
    rules, state = plans_position()
    state.players["kesh"].coins = 30
    result = play(rules, state, {"kesh": f"AGENT GRANARY SPACE {space}"})
    built = [(e.seat, e.data) for e in result.events if e.kind == "district_built"]
    assert built == [("kesh", {"district": "granary", "price": price, "space": space, "site": None})]
    assert result.state.players["kesh"].coins == 30 - price


def test_ER_5_14_a_fort_is_built_on_a_controlled_area_without_one() -> None:
    rules, state = plans_position()
    state.players["kesh"].coins = 30
    state.army["MIR"] = Army("kesh", {"infantry": 1})
    markers = state.supply.fort_markers
    result = play(rules, state, {"kesh": "AGENT FORTIFICATION AT MIR"})
    assert verdict(result, "kesh").accepted
    (built,) = [(e.seat, e.data) for e in result.events if e.kind == "district_built"]
    assert built[0] == "kesh" and built[1]["district"] == "fort" and built[1]["site"] == "MIR"
    assert result.state.fort_markers[-1] == "MIR" and result.state.supply.fort_markers == markers - 1
    assert result.state.players["kesh"].coins == 30 - built[1]["price"]


def test_ER_5_5_a_space_taken_by_another_agent_is_refused() -> None:
    rules, state = plans_position()
    for seat in ("kesh", "aurel"):
        state.players[seat].coins = 30
    result = play(rules, state, {"kesh": "AGENT GRANARY SPACE 1", "aurel": "AGENT GRANARY SPACE 1"})
    answers = {seat: verdict(result, seat) for seat in ("kesh", "aurel")}
    refused = [a for a in answers.values() if not a.accepted]
    assert len(refused) == 1
    assert refused[0].reason == "choice 1: space 1 is taken by another player's agent (ER-5.5); so a pass"


# -- ER-5.8 to ER-5.10: the trade track's spaces -------------------------------------------------------------------
@pytest.mark.parametrize(
    ("start", "space", "coins", "vp", "discount"),
    [(1, 2, 1, 0, False), (2, 3, 1, 0, True), (6, 7, 2, 2, False), (7, 8, 0, 0, False), (8, 8, 0, 0, False)],
)
def test_ER_5_8_ER_5_9_each_trade_space_pays_its_coins_and_vp_and_the_last_space_vp_wait_for_game_end(
    start: int, space: int, coins: int, vp: int, discount: bool
) -> None:
    rules, state = plans_position()
    kesh = state.players["kesh"]
    kesh.trade, kesh.vp, kesh.coins = start, 3, 10
    result = play(rules, state, {"kesh": "AGENT TRADE WITH INDEPENDENTS"})
    traded = [(e.seat, e.data) for e in result.events if e.kind == "traded"]
    assert traded == [
        ("kesh", {"partner": "independents", "space": space, "coins": coins, "vp": vp, "discount": discount})
    ]
    after = result.state.players["kesh"]
    assert (after.trade, after.vp, after.coins, after.discount) == (space, 3 + vp, 10 + coins, discount)
    assert not [e for e in result.events if e.kind == "trade_partner_paid"]  # ER-5.10a: players only


def test_ER_5_9_the_look_space_shows_the_partners_hand_to_the_trader_only() -> None:
    rules, state = plans_position()
    state.players["kesh"].trade = 4
    result = play(rules, state, {"kesh": "AGENT TRADE WITH aurel"})
    (seen,) = [e for e in result.events if e.kind == "hand_seen"]
    aurel = state.players["aurel"]
    assert seen.seat == "kesh" and seen.visible_to == frozenset({"kesh"})
    assert seen.data == {"partner": "aurel", "hand": list(aurel.hand), "heroes": list(aurel.heroes_down)}


# -- ER-5.5, ER-5.6: the agent spaces ------------------------------------------------------------------------------
def test_ER_5_5_both_spaces_taken_and_ER_5_6_the_extra_action_on_the_first_actions_space() -> None:
    rules, state = plans_position()
    state.players["aurel"].agent, state.players["thal"].agent = "district:granary:1", "district:granary:2"
    kesh = state.players["kesh"]
    kesh.trade, kesh.coins = 8, 30  # the last trade space: the extra action (ER-5.6)
    result = play(rules, state, {"kesh": "AGENT GRANARY"})
    first = verdict(result, "kesh")
    assert (first.accepted, first.reason) == (
        False,
        "choice 1: both spaces are taken by other players' agents (ER-5.5); so a pass",
    )
    state.players["aurel"].agent = state.players["thal"].agent = None
    again = play(rules, state, {"kesh": "AGENT ACADEMY SPACE 1\nEXTRA AGENT ACADEMY SPACE 1 ELSE ACADEMY SPACE 2"})
    extra = verdict(again, "kesh", 3)
    assert extra.accepted and extra.reason == (
        "choice 1: the extra action must take another space than the first action (ER-5.6); choice 2 taken"
    )


# -- ER-5.4, ER-5.6: one agent action and one extra action a round -------------------------------------------------
def test_ER_5_4_ER_5_6_later_agent_lines_are_refused_naming_the_line_that_counts() -> None:
    rules, state = plans_position()
    kesh = state.players["kesh"]
    kesh.trade, kesh.coins = 8, 30
    text = "AGENT GRANARY\nAGENT PASS\nEXTRA AGENT PASS\nEXTRA AGENT BAZAAR"
    result = play(rules, state, {"kesh": text})
    assert [(r.line, r.text, r.accepted, r.reason, r.rule) for r in result.order_results["kesh"]] == [
        (2, "AGENT GRANARY", True, "choice 1 taken", ""),
        (3, "AGENT PASS", False, "one agent action a round: line 2 is the one", "ER-5.4"),
        (4, "EXTRA AGENT PASS", True, "the agent stays home (ER-5.4)", ""),
        (5, "EXTRA AGENT BAZAAR", False, "one extra action a round: line 4 is the one", "ER-5.6"),
    ]
    passes = [(e.seat, e.data) for e in result.events if e.kind == "agent_passed" and e.seat == "kesh"]
    assert passes == [("kesh", {"extra": True})]
    after = result.state.players["kesh"]
    assert after.districts == {"granary": 1} and after.agent == "district:granary:1"  # back on its first space


@pytest.mark.parametrize(("trade", "allowed"), [(7, False), (8, True)])
def test_ER_5_6_the_extra_action_needs_the_last_trade_space_and_keeps_the_first_space_when_refused(
    trade: int, allowed: bool
) -> None:
    rules, state = plans_position()
    kesh = state.players["kesh"]
    kesh.trade, kesh.coins = trade, 30
    kesh.trade_bans = ["thal"]  # last round's ban (ER-5.10b) ends as Politics begins
    result = play(rules, state, {"kesh": "AGENT GRANARY\nEXTRA AGENT TRADE WITH thal ELSE GRANARY SPACE 1"})
    extra = verdict(result, "kesh", 3)
    after = result.state.players["kesh"]
    if allowed:
        assert (extra.accepted, extra.reason) == (True, "choice 1 taken") and after.agent == "trade:thal"
    else:
        assert (extra.line, extra.text, extra.accepted, extra.rule) == (
            3,
            "EXTRA AGENT TRADE WITH thal ELSE GRANARY SPACE 1",
            False,
            "ER-5.6",
        )
        assert extra.reason == "the extra agent action needs the trade marker on the last trade space"
        assert after.agent == "district:granary:1"


def test_ER_5_6_an_extra_action_that_passes_leaves_the_agent_on_its_first_space() -> None:
    rules, state = plans_position()
    kesh = state.players["kesh"]
    kesh.trade, kesh.coins = 8, 30
    state.supply.districts["bazaar"] = 0
    result = play(rules, state, {"kesh": "AGENT GRANARY\nEXTRA AGENT BAZAAR"})
    assert not verdict(result, "kesh", 3).accepted
    assert result.state.players["kesh"].agent == "district:granary:1"


# -- ER-5.20 to ER-5.23: upgrades ----------------------------------------------------------------------------------
def upgrade(given: Callable[[GameState], None], text: str) -> tuple[object, GameState, list[tuple[object, object]]]:
    rules, state = plans_position()
    state.players["kesh"].coins = 30
    given(state)
    result = play(rules, state, {"kesh": text})
    bought = [(e.seat, e.data) for e in result.events if e.kind == "upgrade_bought"]
    return verdict(result, "kesh"), result.state, bought


def test_ER_5_20_an_upgrade_takes_one_card_from_the_supply_at_its_price() -> None:
    answer, after, bought = upgrade(
        lambda s: s.supply.upgrades.__setitem__("discipline", 2), "AGENT UPGRADE discipline"
    )
    assert bought == [("kesh", {"upgrade": "discipline", "unit": "infantry", "price": 6})]
    assert after.supply.upgrades["discipline"] == 1 and after.players["kesh"].upgrades == ["discipline"]
    assert after.players["kesh"].coins == 30 - 6


@pytest.mark.parametrize("supply", [1, 2])
def test_ER_9_4_the_unit_type_names_the_card_when_only_one_it_lacks_is_left(supply: int) -> None:
    def given(state: GameState) -> None:
        state.players["kesh"].upgrades = ["heavy_cavalry"]
        state.supply.upgrades["thoroughbred"] = 0
        state.supply.upgrades["aggression"] = supply

    answer, after, bought = upgrade(given, "AGENT UPGRADE CAVALRY")
    assert answer.accepted and [d["upgrade"] for _, d in bought] == ["aggression"]
    assert after.supply.upgrades["aggression"] == supply - 1


def test_ER_5_23_ER_5_20_every_card_of_the_type_owned_or_none_left() -> None:
    owned, _, _ = upgrade(
        lambda s: s.players["kesh"].upgrades.extend(["heavy_cavalry", "thoroughbred", "aggression"]),
        "AGENT UPGRADE CAVALRY",
    )
    assert (owned.accepted, owned.reason) == (False, "choice 1: kesh owns every cavalry upgrade (ER-5.23); so a pass")

    def none_left(state: GameState) -> None:
        for card in ("heavy_cavalry", "thoroughbred", "aggression"):
            state.supply.upgrades[card] = 0

    gone, _, _ = upgrade(none_left, "AGENT UPGRADE CAVALRY")
    assert gone.reason == "choice 1: no cavalry upgrade card it lacks is left in the supply (ER-5.20); so a pass"


def test_ER_2_1_a_fort_site_off_this_board_side_is_refused() -> None:
    rules, state = plans_position()
    state.players["kesh"].coins = 30
    result = play(rules, state, {"kesh": "AGENT FORTIFICATION AT FEN"})  # an area of the 5-6 player side only
    answer = verdict(result, "kesh")
    side = example().map_for(state.players_count).side
    assert answer.reason == f"choice 1: FEN is no area of the {side} board (ER-2.1); so a pass"


# -- ER-5.9, ER-5.10: a trade space's own effects ------------------------------------------------------------------
def test_ER_5_9_a_trade_spaces_effects_pay_the_partner_on_trade_and_draw_at_once() -> None:
    rules, state = plans_position()
    kesh, aurel = state.players["kesh"], state.players["aurel"]
    kesh.trade = 3  # to space 4: the partner gets 1 more coin on the trade (our example track)
    before = aurel.coins
    result = play(rules, state, {"kesh": "AGENT TRADE WITH aurel"})
    assert result.state.players["aurel"].coins == before + 1 + 1  # ER-5.10a's coin and the space's
    rules, state = plans_position()
    state.players["kesh"].trade = 5  # to space 6: one tactic card drawn at once
    hand = len(state.players["kesh"].hand)
    drawn = play(rules, state, {"kesh": "AGENT TRADE WITH INDEPENDENTS"})
    assert len(drawn.state.players["kesh"].hand) == hand + 1


# -- ER-12.6 with ER-5.13 and ER-5.20: megaproject cards take slots ------------------------------------------------
@pytest.mark.parametrize(
    ("slot", "text", "reason"),
    [
        (
            "upgrade",
            "AGENT UPGRADE discipline",
            "no free upgrade slot on the player board: megaprojects take slots too (ER-5.20)",
        ),
        ("district", "AGENT GRANARY", "no free civil district slot on the player board (ER-5.13)"),
    ],
)
def test_ER_12_6_a_megaproject_card_on_the_last_slot_leaves_none_free(slot: str, text: str, reason: str) -> None:
    for cards, allowed in ((0, True), (1, False)):
        rules, state = sod_plans()
        assert state.seas is not None
        kesh = state.players["kesh"]
        kesh.coins = 30
        if slot == "upgrade":
            kesh.upgrades = ["heavy_cavalry", "rapid_aim", "naval_mastery"]
        else:
            kesh.districts = {"bazaar": 1, "academy": 2}
        state.seas.built["kesh"] = {"temple-1": slot} if cards else {}
        answer = verdict(play(rules, state, {"kesh": text}), "kesh")
        assert answer.accepted is allowed, (slot, cards)
        if not allowed:
            assert answer.reason == f"choice 1: {reason}; so a pass"
