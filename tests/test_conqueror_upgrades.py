"""UPGRADE names its upgrade card (ER-9.4), and every rule of upgrades holds for a named card: the type's agent
space and its surcharge (ER-5.19), a free slot, the price, a copy in the supply (ER-5.20), the price by the
upgrades of the type already owned (ER-5.22), at most 4 and never the same twice (ER-5.23), and ER-3.11's
purchases. The type alone still names a card when only one is left to take. Positions: the real setup of a
3-seat game on our example data; orders through the real parser; prices from the example data's upgrade board."""

from __future__ import annotations

from pathlib import Path

from adjudicator.orders.parser import parse_orders
from adjudicator.rulesets.conqueror.orders import Upgrade, canonical
from tests.conftest import Pbem
from tests.test_conqueror_plans_cli import PLANS
from tests.test_conqueror_politics import plans_position, play, verdict
from tests.test_conqueror_purchases import play as play_purchases
from tests.test_conqueror_purchases import purchases_position, verdicts
from tests.test_conqueror_receipts_i18n import mailed, start
from tests.test_conqueror_seas import sod_plans

CAVALRY = (8, 12, 14)  # the example data's cavalry upgrade prices (ER-5.22)


def test_ER_9_4_a_named_card_is_bought_aggression_before_thoroughbred() -> None:
    rules, state = plans_position()
    state.players["kesh"].coins = 30
    supply = state.supply.upgrades["aggression"]
    result = play(rules, state, {"kesh": "AGENT UPGRADE aggression"})
    kesh = result.state.players["kesh"]
    assert verdict(result, "kesh").accepted
    assert kesh.upgrades == ["aggression"] and kesh.coins == 30 - CAVALRY[0] and kesh.agent == "upgrade:cavalry:1"
    assert result.state.supply.upgrades["aggression"] == supply - 1
    bought = next(e for e in result.events if e.kind == "upgrade_bought")
    assert bought.data == {"upgrade": "aggression", "unit": "cavalry", "price": CAVALRY[0]}


def test_ER_5_22_a_named_card_pays_by_the_upgrades_of_its_type_already_owned_and_ER_5_19_the_second_space() -> None:
    rules, state = plans_position()
    aurel = state.players["aurel"]
    aurel.coins, aurel.upgrades = 40, ["aggression", "discipline"]
    state.supply.upgrades["aggression"] -= 1
    state.supply.upgrades["discipline"] -= 1
    result = play(rules, state, {"aurel": "AGENT UPGRADE Heavy-Cavalry SPACE 2"})  # the id in any case, - for _
    after = result.state.players["aurel"]
    assert after.upgrades == ["aggression", "discipline", "heavy_cavalry"]
    assert after.coins == 40 - (CAVALRY[1] + 2) and after.agent == "upgrade:cavalry:2"


def test_ER_5_23_the_same_card_twice_is_refused_and_the_next_alternative_taken() -> None:
    rules, state = plans_position()
    kesh = state.players["kesh"]
    kesh.coins, kesh.upgrades = 30, ["heavy_cavalry"]
    state.supply.upgrades["heavy_cavalry"] -= 1
    result = play(rules, state, {"kesh": "AGENT UPGRADE heavy_cavalry ELSE UPGRADE thoroughbred"})
    taken = verdict(result, "kesh")
    assert taken.accepted
    assert "choice 1: kesh already owns heavy_cavalry (ER-5.23); choice 2 taken" == taken.reason
    assert result.state.players["kesh"].upgrades == ["heavy_cavalry", "thoroughbred"]
    assert result.state.players["kesh"].coins == 30 - CAVALRY[1]


def test_ER_5_20_a_named_card_with_no_copy_left_in_the_supply_is_refused() -> None:
    rules, state = plans_position()
    state.players["kesh"].coins = 30
    state.supply.upgrades["thoroughbred"] = 0
    result = play(rules, state, {"kesh": "AGENT UPGRADE thoroughbred"})
    refused = verdict(result, "kesh")
    assert not refused.accepted and refused.rule == "ER-14.6"
    assert "no thoroughbred card is left in the supply (ER-5.20)" in refused.reason
    assert result.state.players["kesh"].coins == 30 and not result.state.players["kesh"].upgrades


def test_ER_5_23_the_fourth_upgrade_is_bought_and_a_fifth_refused() -> None:
    rules, state = plans_position()
    owned = ["heavy_cavalry", "discipline", "rapid_aim"]
    for seat in ("kesh", "aurel"):
        state.players[seat].coins = 40
        state.players[seat].upgrades = list(owned) + (["naval_mastery"] if seat == "aurel" else [])
    for card in [*owned, *owned, "naval_mastery"]:
        state.supply.upgrades[card] -= 1
    result = play(rules, state, {"kesh": "AGENT UPGRADE aggression", "aurel": "AGENT UPGRADE elite_armor"})
    assert verdict(result, "kesh").accepted and len(result.state.players["kesh"].upgrades) == 4
    refused = verdict(result, "aurel")
    assert not refused.accepted and "aurel already owns 4 upgrades (ER-5.23)" in refused.reason
    assert result.state.players["aurel"].coins == 40


def test_ER_5_20_a_named_card_the_seat_cannot_pay_is_refused_at_one_coin_short() -> None:
    rules, state = plans_position()
    state.players["kesh"].coins = CAVALRY[0] - 1
    state.players["aurel"].coins = CAVALRY[0]
    result = play(rules, state, {"kesh": "AGENT UPGRADE thoroughbred", "aurel": "AGENT UPGRADE thoroughbred"})
    refused = verdict(result, "kesh")
    assert not refused.accepted and f"the upgrade costs {CAVALRY[0]} coins and kesh holds {CAVALRY[0] - 1}" in (
        refused.reason
    )
    assert result.state.players["aurel"].upgrades == ["thoroughbred"] and result.state.players["aurel"].coins == 0


def test_ER_9_4_the_type_alone_names_the_one_card_left_and_is_refused_when_several_are() -> None:
    rules, state = plans_position()
    kesh, aurel = state.players["kesh"], state.players["aurel"]
    kesh.coins, kesh.upgrades = 30, ["rapid_aim"]
    aurel.coins = 30
    state.supply.upgrades["rapid_aim"] -= 1
    result = play(rules, state, {"kesh": "AGENT UPGRADE ARCHER", "aurel": "AGENT UPGRADE CAVALRY ELSE TRADE WITH thal"})
    assert verdict(result, "kesh").accepted and result.state.players["kesh"].upgrades == ["rapid_aim", "deadly_aim"]
    fallback = verdict(result, "aurel")
    assert fallback.accepted and result.state.players["aurel"].upgrades == []
    assert fallback.reason == (
        "choice 1: name the upgrade card: heavy_cavalry, thoroughbred, aggression (ER-9.4); choice 2 taken"
    )


def test_ER_3_11_a_purchase_names_its_card_without_surcharge_and_the_same_card_twice_is_refused() -> None:
    rules, state = purchases_position()
    texts = {"kesh": "BUY UPGRADE deadly_aim AND UPGRADE deadly_aim", "aurel": "BUY UPGRADE long_spears"}
    result = play_purchases(rules, state, texts)
    first, second = verdicts(result, "kesh")
    assert (
        first.accepted and first.text == "BUY UPGRADE deadly_aim" and "5 coins paid, 5 left (ER-3.11)" in first.reason
    )
    assert not second.accepted and second.rule == "ER-5.23"
    assert result.state.players["kesh"].upgrades == ["deadly_aim"]
    assert result.state.players["aurel"].upgrades == ["long_spears"] and result.state.players["aurel"].coins == 4


def test_ER_9_4_an_unknown_card_gets_did_you_mean_with_its_column_and_the_form_round_trips() -> None:
    rules, state = plans_position()
    step = rules.due(state)
    assert step is not None
    header = f"GAME g1 TURN {step.number} PLAYER kesh PASSWORD x\n"
    wrong = parse_orders(header + "AGENT BAZAAR ELSE UPGRADE thorougbred", rules)
    (error,) = wrong.errors
    assert error.line == 2 and error.column == 27
    assert error.message == "unknown upgrade card 'thorougbred' (did you mean thoroughbred?)"
    named = Upgrade("infantry", space=2, card="long_spears")
    for language in ("en", "de", "it", "nl"):
        line = canonical(parse_orders(header + "AGENT UPGRADE long_spears SPACE 2", rules).orders[0], language)
        (order,) = parse_orders(header + line, rules).orders
        assert order.choices == (named,), line  # type: ignore[attr-defined]
    assert canonical(parse_orders(header + "AGENT AUSBAU long_spears", rules).orders[0]) == "AGENT UPGRADE long_spears"


def test_ER_9_4_a_german_receipt_names_an_unknown_card_and_the_choice_of_cards(pbem: Pbem, tmp_path: Path) -> None:
    start(pbem, tmp_path)  # kesh reads German
    body = mailed(pbem, "kesh", PLANS, "AGENT UPGRADE Dicipline", "AGENT UPGRADE ARCHER")
    assert "unbekannte Verbesserungskarte 'Dicipline' (meintest du discipline?)" in body
    assert "nenne die Verbesserungskarte: rapid_aim, deadly_aim (ER-9.4)" in body


def test_ER_5_20_ER_12_6_a_named_card_needs_a_free_upgrade_slot_and_a_megaproject_can_take_the_last() -> None:
    rules, state = sod_plans()
    owned = ["heavy_cavalry", "discipline", "rapid_aim"]
    for seat in ("kesh", "aurel"):
        state.players[seat].coins, state.players[seat].upgrades = 40, list(owned)
    for card in owned * 2:
        state.supply.upgrades[card] -= 1
    assert state.seas is not None
    state.seas.built["kesh"] = {"port-1": "upgrade"}  # kesh's 4th upgrade slot holds a port
    state.seas.cards.remove("port-1")
    result = play(rules, state, {"kesh": "AGENT UPGRADE naval_mastery", "aurel": "AGENT UPGRADE naval_mastery"})
    refused = verdict(result, "kesh")
    assert not refused.accepted and "no free upgrade slot on the player board" in refused.reason
    assert "(ER-5.20)" in refused.reason and result.state.players["kesh"].coins == 40
    assert verdict(result, "aurel").accepted and result.state.players["aurel"].upgrades[-1] == "naval_mastery"


def test_ER_5_6_ER_5_19_the_extra_action_names_another_card_of_the_type_on_its_other_space() -> None:
    rules, state = plans_position()
    kesh = state.players["kesh"]
    kesh.coins, kesh.trade = 40, len(rules.data.tracks.trade[state.mode])  # the last trade space (ER-5.6)
    result = play(rules, state, {"kesh": "AGENT UPGRADE heavy_cavalry\nEXTRA AGENT UPGRADE thoroughbred"})
    assert verdict(result, "kesh", 2).accepted and verdict(result, "kesh", 3).accepted
    after = result.state.players["kesh"]
    assert after.upgrades == ["heavy_cavalry", "thoroughbred"]
    assert after.coins == 40 - CAVALRY[0] - (CAVALRY[1] + 2)  # the second card of the type, on the second space
