"""Seas of Destiny (ER-0.8, section 12) end to end: the game option, the setup of ER-12.1 to ER-12.3, the fourth
agent action (megaprojects and the wharf, ER-12.6 to ER-12.10), siege engines in Preparation (ER-12.16 to
ER-12.18), temples and ports paying (ER-12.8, ER-12.10, ER-5.11), wonders and temples scoring (ER-12.7, ER-12.8),
the captured wharf (ER-12.14, ER-15.19). Positions: the real setup of a 3-seat game (kesh, aurel, thal) on our
own example data with `--option seas_of_destiny=true`, changed where a rule needs it; orders go through the real
parser and the step through the engine."""

from __future__ import annotations

from pathlib import Path

from adjudicator.engine.chance import GivenDice
from adjudicator.engine.steps import resolve_step
from adjudicator.rulesets import load_ruleset
from adjudicator.rulesets.conqueror import effects_triggers as fire
from adjudicator.rulesets.conqueror import rounds, seas
from adjudicator.rulesets.conqueror.effects_apply import counted
from adjudicator.rulesets.conqueror.game import ConquerorGame
from adjudicator.rulesets.conqueror.setup import SetupError, game_options
from adjudicator.rulesets.conqueror.state import Army, GameState, broken, public_part, read_state
from tests.conftest import Pbem
from tests.test_conqueror_campaign import AUTOMA, FOUR, ONE, orders
from tests.test_conqueror_effects import ability, effect
from tests.test_conqueror_new import data_copy, new_er, whole_snapshot
from tests.test_conqueror_plans_cli import PLANS, SEATS3, submit
from tests.test_conqueror_politics import plans_position, play, verdict
from tests.test_conqueror_setup import run, to_phase
from tests.test_conqueror_state import dice, example


def sod_game(players: int = 3, **options: str) -> tuple[ConquerorGame, GameState]:
    """A game with Seas of Destiny after its setup step."""
    data = example()
    chosen = game_options(data, "imperator", {"seas_of_destiny": "true", **options})
    rules = load_ruleset("conqueror-er").with_data(data, chosen)  # type: ignore[attr-defined]
    state = rules.initial_state("g1", list(data.setup.factions_by_players[players]))
    step = rules.due(state)
    assert step is not None and step.phase == "setup"
    return rules, resolve_step(rules, state, step, {}, dice()).state


def sod_plans(players: int = 3, **options: str) -> tuple[ConquerorGame, GameState]:
    rules, state = sod_game(players, **options)
    return rules, to_phase(rules, state, "plans")


def held(state: GameState, area: str) -> tuple[str, dict[str, int]] | None:
    army = state.army.get(area)
    return (army.owner, dict(army.units)) if army is not None else None


# -- ER-0.8: the option ------------------------------------------------------------------------------------------


def test_ER_0_8_without_the_module_every_seas_of_destiny_order_is_refused() -> None:
    rules, state = plans_position()
    state.players["kesh"].coins = 30
    texts = {"kesh": "AGENT WHARF AT KES SHIP NSE\nRECRUIT 1 SIEGE AT KES", "aurel": "AGENT TEMPLE"}
    result = play(rules, state, texts)
    assert result.state.seas is None and "seas" not in public_part(result.state)
    for seat in ("kesh", "aurel"):
        refused = verdict(result, seat)
        assert not refused.accepted and "ER-0.8" in refused.reason
    siege = verdict(result, "kesh", 3)
    assert not siege.accepted and siege.rule == "ER-0.8"
    assert result.state.players["kesh"].coins == 30 and "siege" not in result.state.army["KES"].units


def test_ER_0_8_the_option_is_a_game_option_and_is_named_when_wrong() -> None:
    data = example()
    assert game_options(data, "imperator", {"seas_of_destiny": "on"}).seas_of_destiny
    assert not game_options(data, "imperator", {}).seas_of_destiny
    try:
        game_options(data, "imperator", {"seas_of_destiny": "maybe"})
    except ValueError as wrong:
        assert "seas_of_destiny=maybe" in str(wrong)
    else:
        raise AssertionError("a wrong value was taken")


# -- setup (ER-3.12, ER-12.1, ER-12.2) ---------------------------------------------------------------------------


def test_ER_12_1_ER_3_12_n_cards_of_each_type_wonders_highest_first_and_n_wharf_markers() -> None:
    _, state = sod_game(3)
    assert state.seas is not None
    vp = {card.id: card.vp for card in example().cards.megaprojects}
    wonders = [c for c in state.seas.cards if c.startswith("wonder")]
    assert [vp[c] for c in wonders] == [15, 11, 9]  # the 7-VP cards removed until 3 remain
    assert sum(c.startswith("temple") for c in state.seas.cards) == 3
    assert sum(c.startswith("port") for c in state.seas.cards) == 3
    assert state.seas.wharf_markers == 3 and broken(state, example()) == []
    _, five = sod_game(5)
    assert five.seas is not None and [vp[c] for c in five.seas.cards if c.startswith("wonder")] == [15, 11, 9, 7, 7]


def test_ER_12_1_the_module_survives_the_snapshot() -> None:
    _, state = sod_plans()
    assert state.seas is not None
    state.seas.wharves["kesh"] = "KES"
    state.seas.wharf_markers -= 1
    again = read_state("g1", 3, public_part(state), {}, {})
    assert again.seas == state.seas


def test_ER_12_2_two_siege_engines_per_barracks_more_breaks_the_invariants() -> None:
    _, state = sod_plans()
    assert state.seas is not None
    state.seas.siege_recruited["kesh"] = 3
    state.army["KES"].add("siege", 3)
    assert any("ER-12.2" in problem for problem in broken(state, example()))


def test_ER_12_9_ships_on_land_only_on_their_owners_wharf() -> None:
    _, state = wharf_position()
    assert broken(state, example()) == []
    state.army["KES"].add("ship", 1)  # kesh's wharf is in DUN, not in KES
    assert any("KES: ships on land" in problem for problem in broken(state, example()))


# -- the fourth agent action (ER-12.6 to ER-12.10) -----------------------------------------------------------------


def test_ER_12_6_a_megaproject_is_priced_like_a_district_by_builds_space_and_discount() -> None:
    rules, state = sod_plans()
    state.players["kesh"].coins = 20
    state.players["aurel"].coins, state.players["aurel"].builds = 20, {"temple": 1}
    state.players["thal"].coins, state.players["thal"].discount = 20, True
    texts = {"kesh": "AGENT TEMPLE", "aurel": "AGENT TEMPLE", "thal": "AGENT WONDER"}
    result = play(rules, state, texts)
    after = result.state.players
    assert after["kesh"].agent == "megaproject:temple:1" and after["kesh"].coins == 20 - 6
    assert after["aurel"].agent == "megaproject:temple:2" and after["aurel"].coins == 20 - (8 + 2)
    assert after["thal"].coins == 20 - (8 - 1) and after["thal"].builds == {"wonder": 1}
    assert result.state.seas is not None and result.state.seas.built["kesh"] == {"temple-1": "district"}
    assert broken(result.state, example()) == []


def test_ER_13_6_a_megaproject_discount_in_force_lowers_the_price() -> None:
    rules, state = sod_plans()
    state.players["kesh"].coins = 20
    plain = play(rules, state.copy(), {"kesh": "AGENT TEMPLE"}).state.players["kesh"].coins
    assert plain == 20 - 6
    data = ability("kesh", effect("discount", "on_build", target="megaproject", n=2))
    cheap = load_ruleset("conqueror-er").with_data(data, rules.options)  # type: ignore[attr-defined]
    assert play(cheap, state, {"kesh": "AGENT TEMPLE"}).state.players["kesh"].coins == 20 - (6 - 2)


def test_ER_12_6_the_card_takes_the_slot_named_and_counts_against_districts_and_upgrades() -> None:
    rules, state = sod_plans()
    kesh = state.players["kesh"]
    kesh.coins, kesh.trade, kesh.upgrades = 40, 8, ["heavy_cavalry", "discipline", "rapid_aim"]
    for card in kesh.upgrades:
        state.supply.upgrades[card] -= 1
    result = play(rules, state, {"kesh": "AGENT PORT SLOT UPGRADE\nEXTRA AGENT UPGRADE MARINE"})
    assert result.state.seas is not None and result.state.seas.built["kesh"] == {"port-1": "upgrade"}
    refused = verdict(result, "kesh", 3)
    assert not refused.accepted and "ER-5.20" in refused.reason  # the 4th upgrade slot holds the port


def test_ER_12_6_no_free_slot_of_the_kind_named_is_refused() -> None:
    rules, state = sod_plans()
    kesh = state.players["kesh"]
    kesh.coins, kesh.districts = 40, {"granary": 2, "bazaar": 2}
    state.supply.districts["granary"] -= 2
    state.supply.districts["bazaar"] -= 2
    result = play(rules, state, {"kesh": "AGENT WONDER SLOT DISTRICT ELSE WONDER"})
    taken = verdict(result, "kesh")
    assert taken.accepted and "ER-12.6" in taken.reason and "choice 2 taken" in taken.reason
    assert result.state.seas is not None and result.state.seas.built["kesh"] == {"wonder-1": "upgrade"}


def test_ER_12_6_a_card_type_that_ran_out_is_refused() -> None:
    rules, state = sod_plans()
    assert state.seas is not None
    state.seas.cards = [c for c in state.seas.cards if not c.startswith("port")]
    state.seas.built["thal"] = {"port-1": "district", "port-2": "district", "port-3": "district"}
    state.players["kesh"].coins = 20
    result = play(rules, state, {"kesh": "AGENT PORT"})
    refused = verdict(result, "kesh")
    assert not refused.accepted and "no port card is left" in refused.reason
    assert result.state.players["kesh"].coins == 20


def test_ER_12_7_wonders_score_15_11_9_then_7_by_the_order_built() -> None:
    rules, state = sod_plans()
    for seat in state.players.values():
        seat.coins = 30
    result = play(rules, state, {"kesh": "AGENT WONDER", "aurel": "AGENT WONDER", "thal": "AGENT TEMPLE"})
    after = result.state
    assert after.seas is not None and after.seas.wonders == ["wonder-1", "wonder-2"]
    data = example()
    assert seas.megaproject_vp(after, data, "kesh") == 15 and seas.megaproject_vp(after, data, "aurel") == 11
    assert [seas.wonder_vp(n) for n in range(5)] == [15, 11, 9, 7, 7]
    without = after.copy()
    assert without.seas is not None
    del without.seas.built["kesh"]
    per_district = data.tracks.scoring.vp_per_district  # ER-12.6: the card on a district slot counts as one
    scored = rounds.final_scores(after, data)["kesh"] - rounds.final_scores(without, data)["kesh"]
    assert scored == 15 + per_district


def test_ER_12_8_temples_without_effects_pay_in_taxation_and_score_from_the_options() -> None:
    _, state = sod_plans(temple_coins="4", temple_vp="5")
    data = example()
    assert not next(c for c in data.cards.megaprojects if c.id == "temple-6").effects
    without = rounds.income(state, data, "kesh")
    assert state.seas is not None and "temple-6" not in state.seas.cards  # 3 players: temples 1 to 3 in supply
    state.seas.built["kesh"] = {"temple-6": "district"}
    assert rounds.income(state, data, "kesh") == without + 4
    assert seas.megaproject_vp(state, data, "kesh") == 5


def test_ER_12_8_a_temple_card_with_effects_overrides_the_options() -> None:
    rules, state = sod_game(temple_coins="4", temple_vp="5")  # temple-1: coins 3 at taxation, vp 3 at game end
    data = example()
    state = to_phase(rules, state, "taxation")
    assert state.seas is not None
    state.seas.cards.remove("temple-1")
    state.seas.built["kesh"] = {"temple-1": "district"}
    printed = rounds.income(state, data, "kesh")
    assert seas.temple_income(state, data, "kesh") == 0 and seas.megaproject_vp(state, data, "kesh") == 0
    coins = state.players["kesh"].coins
    after = run(rules, state)[0]
    assert after.players["kesh"].coins == coins + printed + 3  # the card's 3, not the option's 4
    assert fire.game_end_points(after, data, "kesh") == (3, 0)  # the card's 3 VP, not the option's 5


def test_ER_12_10_ER_5_11_each_port_pays_when_the_agent_goes_on_the_trade_board() -> None:
    rules, state = sod_plans(port_coins="2")
    assert state.seas is not None
    state.seas.built["kesh"] = {"port-5": "district", "port-6": "upgrade"}  # no effects: the option pays
    coins = state.players["kesh"].coins
    result = play(rules, state, {"kesh": "AGENT TRADE WITH aurel", "aurel": "AGENT TRADE WITH kesh"})
    space = example().tracks.trade["imperator"][1].coins
    assert result.state.players["kesh"].coins == coins + space + 2 * 2 + 1  # +1 as aurel's trade partner
    (paid,) = [e for e in result.events if e.kind == "port_income"]
    assert paid.seat == "kesh" and paid.data["coins"] == 4


def test_ER_12_10_a_port_card_with_effects_pays_by_them_on_trade_not_by_the_option() -> None:
    rules, state = sod_plans(port_coins="2")
    assert state.seas is not None
    state.seas.cards = [c for c in state.seas.cards if c not in ("port-1", "port-2")]
    state.seas.built["kesh"] = {"port-1": "district", "port-2": "upgrade"}  # each: coins 1 on_trade
    coins = state.players["kesh"].coins
    result = play(rules, state, {"kesh": "AGENT TRADE WITH aurel", "aurel": "AGENT TRADE WITH kesh"})
    space = example().tracks.trade["imperator"][1].coins
    assert result.state.players["kesh"].coins == coins + space + 2 * 1 + 1
    assert [e for e in result.events if e.kind == "port_income"] == []
    paid = [e.data["source"] for e in result.events if e.kind == "effect_applied" and e.seat == "kesh"]
    assert paid == ["megaproject port-1", "megaproject port-2"]


def test_ER_13_6_the_megaproject_counters_count_the_seas_pieces() -> None:
    _, state = sod_plans(4)
    data = example()
    assert state.seas is not None
    state.seas.built["sunmar"] = {"wonder-1": "district", "temple-5": "district", "port-5": "upgrade"}
    state.seas.wonders.append("wonder-1")
    state.seas.wharves["sunmar"] = "SUN"
    counts = {name: counted(state, data, "sunmar", name) for name in ("wonders", "temples", "ports", "megaprojects")}
    assert counts == {"wonders": 1, "temples": 1, "ports": 1, "megaprojects": 4}  # the wharf is one too
    state.players["sunmar"].board = "alternative-2"  # vp 2 per wonder at game end
    assert fire.game_end_points(state, data, "sunmar") == (2, 0)


def test_ER_12_9_the_wharf_and_its_two_ships_in_the_sea_area_named() -> None:
    rules, state = sod_plans()
    state.players["kesh"].coins = 10
    result = play(rules, state, {"kesh": "AGENT WHARF AT KES SHIP NSE"})
    after = result.state
    assert after.seas is not None and after.seas.wharves == {"kesh": "KES"} and after.seas.wharf_markers == 2
    assert held(after, "NSE") == ("kesh", {"ship": 2}) and after.players["kesh"].coins == 10 - 3
    assert after.players["kesh"].agent == "megaproject:wharf:1" and broken(after, example()) == []


def test_ER_12_9_the_wharf_site_must_be_a_controlled_coastal_land_area() -> None:
    rules, state = sod_plans()
    state.players["kesh"].coins = 10
    result = play(rules, state, {"kesh": "AGENT WHARF AT AUR", "aurel": "AGENT WHARF AT MIR"})
    for seat in ("kesh", "aurel"):
        refused = verdict(result, seat)
        assert not refused.accepted and "ER-12.9" in refused.reason
    assert result.state.seas is not None and result.state.seas.wharves == {}


def test_ER_12_9_an_enemy_held_sea_only_when_all_are_and_then_the_ships_stay_on_the_wharf() -> None:
    rules, state = sod_plans()
    state.players["kesh"].coins = 10
    state.army["NSE"] = Army("aurel", {"ship": 2})
    refused = play(rules, state.copy(), {"kesh": "AGENT WHARF AT KES SHIP NSE"})
    assert not verdict(refused, "kesh").accepted and "ER-12.9" in verdict(refused, "kesh").reason
    default = play(rules, state.copy(), {"kesh": "AGENT WHARF AT KES"})
    assert held(default.state, "ESE") == ("kesh", {"ship": 2})  # the free one
    state.army["ESE"] = Army("thal", {"ship": 1})
    onto = play(rules, state, {"kesh": "AGENT WHARF AT KES SHIP NSE"})
    assert verdict(onto, "kesh").accepted and onto.state.army["KES"].count("ship") == 2


def test_ER_12_6_at_most_one_wharf_per_player() -> None:
    rules, state = sod_plans()
    assert state.seas is not None
    state.seas.wharves["kesh"], state.seas.wharf_markers = "KES", 2
    state.players["kesh"].coins = 10
    result = play(rules, state, {"kesh": "AGENT WHARF AT KES"})
    refused = verdict(result, "kesh")
    assert not refused.accepted and "ER-12.6" in refused.reason and "at most one" in refused.reason


# -- siege engines (ER-12.16 to ER-12.18) --------------------------------------------------------------------------


def test_ER_12_16_siege_engines_cost_4_in_a_large_fort_besides_its_production() -> None:
    rules, state = sod_plans()
    state.players["kesh"].coins = 9
    state.army["KES"].add("archer", -1)  # room under the food limit (ER-6.5) for the fort's cavalry
    result = play(rules, state, {"kesh": "RECRUIT 1 CAV 2 SIEGE AT KES"})
    army = result.state.army["KES"]
    assert verdict(result, "kesh").accepted and army.count("siege") == 2 and army.count("cavalry") == 2
    assert result.state.players["kesh"].coins == 1 and result.state.seas is not None
    assert result.state.seas.siege_recruited == {"kesh": 2} and broken(result.state, example()) == []


def test_ER_12_16_siege_engines_need_a_controlled_large_fort_and_the_coins() -> None:
    rules, state = sod_plans()
    state.players["kesh"].coins, state.players["aurel"].coins = 9, 3
    state.army["DUN"] = Army("kesh", {"infantry": 1})  # a small fort
    result = play(rules, state, {"kesh": "RECRUIT 1 SIEGE AT DUN", "aurel": "RECRUIT 1 SIEGE AT AUR"})
    small, poor = verdict(result, "kesh"), verdict(result, "aurel")
    assert not small.accepted and small.rule == "ER-12.16" and "large fort" in small.reason
    assert not poor.accepted and poor.rule == "ER-12.16" and "4 coins" in poor.reason
    assert "siege" not in result.state.army["AUR"].units and result.state.players["aurel"].coins == 3


def test_ER_12_18_an_eliminated_siege_engine_is_out_of_the_game() -> None:
    rules, state = sod_plans()
    assert state.seas is not None
    state.seas.siege_recruited["kesh"] = 2  # both recruited before and eliminated since: none on the map
    state.players["kesh"].coins = 10
    result = play(rules, state, {"kesh": "RECRUIT 1 SIEGE AT KES"})
    refused = verdict(result, "kesh")
    # the barracks' 2 are the limit (ER-12.2): the eliminated ones do not come back
    assert not refused.accepted and refused.rule == "ER-12.2" and result.state.players["kesh"].coins == 10


# -- the captured wharf (ER-12.13, ER-12.14, ER-15.19) -------------------------------------------------------------


def wharf_position() -> tuple[ConquerorGame, GameState]:
    """kesh's wharf in DUN (small fort, coastal) with 1 infantry and its 2 ships on it; thal's big army in ORO
    next to it; thal's campaign turn."""
    rules, state = sod_game()
    assert state.seas is not None
    state.seas.wharves["kesh"], state.seas.wharf_markers = "DUN", 2
    state.army["DUN"] = Army("kesh", {"infantry": 1, "ship": 2})
    state.army["ORO"] = Army("thal", {"cavalry": 1, "infantry": 2, "archer": 1})
    state.phase, state.campaign_index = "campaign", state.in_play().index("thal")
    state.decks.automa = list(AUTOMA)
    return rules, state


def test_ER_12_14_ER_15_19_ships_on_a_conquered_wharf_are_lost_and_the_marker_stays() -> None:
    rules, state = wharf_position()
    side = example().map_for(3)
    assert seas.wharf_of(state, side, "DUN") == "kesh"
    step = rules.due(state)
    assert step is not None and step.seats == ("thal",)
    mail = {"thal": orders("thal", "ATTACK 1 CAV 2 INF 1 ARC: ORO -> DUN")}
    result = resolve_step(rules, state, step, mail, GivenDice(values=[ONE, FOUR, ONE] * 4))
    after = result.state
    assert held(after, "DUN") is not None and held(after, "DUN")[0] == "thal"  # type: ignore[index]
    assert after.army["DUN"].count("ship") == 0 and seas.wharf_of(after, side, "DUN") is None
    lost = [e for e in result.events if e.kind == "battle_eliminated" and e.data["units"].get("ship")]
    assert lost and lost[0].seat == "kesh" and lost[0].data["rule"] == "ER-15.19"
    assert after.seas is not None and after.seas.wharves == {"kesh": "DUN"}  # the marker stays (ER-12.14)
    after.army["DUN"] = Army("kesh", {"infantry": 1})
    assert seas.wharf_of(after, side, "DUN") == "kesh"  # the owner's again once it controls the area


def test_ER_12_13_ships_on_the_wharf_take_no_part_in_its_land_battle() -> None:
    from adjudicator.rulesets.conqueror.battle_setup import Attack, build_battle
    from adjudicator.rulesets.conqueror.orders import BattlePlan
    from adjudicator.rulesets.conqueror.setup import options_from_json

    _, state = wharf_position()
    attack = Attack("thal", "ORO", "DUN", {"cavalry": 1}, BattlePlan())
    battle = build_battle(state, example(), options_from_json(state.options), attack)
    assert battle.defender is not None and battle.defender.ship == 0 and battle.defender.infantry == 1
    assert dict(battle.wharf_ships) == {"kesh": 2}


# -- ER-5.6: a refused extra action leaves the agent where it was ------------------------------------------------


def test_ER_5_6_a_refused_extra_action_leaves_the_agent_on_its_first_space() -> None:
    rules, state = plans_position()
    for faction in ("kesh", "aurel"):
        state.players[faction].trade, state.players[faction].coins = 8, 20
    texts = {
        "kesh": "AGENT GRANARY SPACE 1\nEXTRA AGENT TRADE WITH kesh",
        "aurel": "AGENT TRADE WITH thal\nEXTRA AGENT GRANARY SPACE 1",
    }
    result = play(rules, state, texts)
    assert not verdict(result, "kesh", 3).accepted
    assert result.state.players["kesh"].agent == "district:granary:1"
    taken = verdict(result, "aurel", 3)
    assert not taken.accepted and "ER-5.5" in taken.reason and result.state.players["aurel"].districts == {}


# -- end to end: `pbem new --option seas_of_destiny=true`, orders by mail, receipts, reports -------------------------


def test_ER_0_8_ER_12_a_game_with_the_module_by_mail(pbem: Pbem, tmp_path: Path) -> None:
    created = new_er(pbem, data_copy(tmp_path), "--option", "seas_of_destiny=true", seats=SEATS3)
    assert created.startswith("0\n"), created
    for line in created.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] in SEATS3:
            pbem.passwords[parts[0]] = parts[1]
    assert pbem("adjudicate", "er1", "--now").exit_code == 0  # taxation (ER-5.2)
    receipt = submit(pbem, "kesh", "AGENT WHARF AT AUR SHIP NSE ELSE WHARF AT KES SHIP NSE", "RECRUIT 1 SIEGE AT DUN")
    assert "ER-12.9" in receipt and "rejected (ER-12.16)" in receipt
    receipt = submit(pbem, "aurel", "AGENT TEMPLE ELSE PORT SLOT UPGRADE")  # 5 coins: the temple costs 6
    assert "the temple costs 6 coins and aurel holds 5 (ER-12.6)" in receipt
    adjudicated = pbem("adjudicate", "er1", "--now")
    assert adjudicated.exit_code == 0, adjudicated.output
    public = whole_snapshot(pbem, PLANS)["public"]
    assert public["seas"]["wharves"] == {"kesh": "KES"} and public["army"]["NSE"]["units"] == {"ship": 2}
    assert public["seas"]["built"] == {"aurel": {"port-1": "upgrade"}}
    report = (pbem.data / "games" / "er1" / f"turn-{PLANS:04d}" / "report.txt").read_text(encoding="utf-8")
    assert "kesh builds a wharf in KES for 3 coins; its 2 ships go to NSE (ER-12.9)" in report
    assert "aurel builds a port (port-1) for 4 coins; it takes one of its upgrade slots (ER-12.6)" in report
    verified = pbem("verify", "er1")
    assert verified.exit_code == 0 and "0 problems" in verified.output, verified.output


def test_ER_12_14_the_map_draws_a_wharf_marker_left_without_ships() -> None:
    import xml.etree.ElementTree as ET

    from tests.test_conqueror_map import SVG, by_id, draw, labels

    rules, state = wharf_position()
    state.army["DUN"] = Army("thal", {"cavalry": 1})  # taken: the ships are gone, the marker stays
    svg = ET.fromstring(draw(rules, state))
    assert labels(svg, "DUN") == [("thal", "1C"), ("kesh", "\u2693")]
    assert "wharf of kesh" in (by_id(svg, "forces-DUN").findtext(SVG + "title") or "")


# -- alternative boards (ER-3.7, ER-12.3, ER-14.1) -----------------------------------------------------------------


def test_ER_12_3_ER_14_1_an_alternative_board_is_assigned_by_the_moderator_with_the_module_only() -> None:
    _, state = sod_game(boards="kesh:alternative-1, thal:alternative-2")
    assert state.players["kesh"].board == "alternative-1" and state.players["aurel"].board == "standard"
    assert state.players["thal"].board == "alternative-2" and broken(state, example()) == []
    data = example()
    rules = load_ruleset("conqueror-er").with_data(
        data, game_options(data, "imperator", {"boards": "kesh:alternative-1"})
    )  # type: ignore[attr-defined]
    try:
        rules.initial_state("g1", list(data.setup.factions_by_players[3]))
    except SetupError as refused:
        assert "kesh:alternative-1: alternative boards need Seas of Destiny (ER-12.3, ER-0.8)" in str(refused)
    else:
        raise AssertionError("an alternative board was taken without the module")
    wrong = load_ruleset("conqueror-er").with_data(
        data, game_options(data, "imperator", {"boards": "kesh:gold,rome:standard"})
    )  # type: ignore[attr-defined]
    try:
        wrong.initial_state("g1", list(data.setup.factions_by_players[3]))
    except SetupError as refused:
        assert "kesh has no board 'gold'" in str(refused) and "rome is no faction of this game" in str(refused)
    else:
        raise AssertionError("a wrong board was taken")


def test_ER_12_3_a_position_with_an_alternative_board_but_no_module_breaks_the_invariants() -> None:
    rules, state = plans_position()
    state.players["kesh"].board = "alternative-1"
    assert any("ER-12.3" in problem for problem in broken(state, example()))


# -- ships after the wharf (ER-12.11, ER-12.12) ----------------------------------------------------------------------


def test_ER_12_11_ER_12_12_the_wharfs_ships_transport_and_move_in_the_campaign() -> None:
    rules, state = sod_plans()
    state.players["kesh"].coins = 10
    state = play(rules, state, {"kesh": "AGENT WHARF AT KES SHIP NSE"}).state
    step = rules.due(state)
    assert step is not None and step.phase == "campaign" and step.seats == ("kesh",)
    moves = ("TRANSPORT 2 INF: KES -> NSE -> DUN", "MOVE 2 SHIP: NSE -> ESE", "MOVE 1 SHIP: NSE -> ESE")
    result = resolve_step(rules, state, step, {"kesh": orders("kesh", *moves)}, GivenDice(values=[]))
    assert [r.accepted for r in result.order_results["kesh"]] == [True, False, True]  # 1 ship carried 2 units
    assert held(result.state, "DUN") == ("kesh", {"infantry": 2})
    assert held(result.state, "NSE") == ("kesh", {"ship": 1}) and held(result.state, "ESE") == ("kesh", {"ship": 1})


def test_ER_12_11_ships_on_their_wharf_move_only_to_an_adjacent_sea_area() -> None:
    rules, state = wharf_position()
    state.phase, state.campaign_index = "campaign", state.in_play().index("kesh")
    step = rules.due(state)
    assert step is not None
    mail = {"kesh": orders("kesh", "MOVE 2 SHIP: DUN -> KES", "MOVE 2 SHIP: DUN -> NSE")}
    result = resolve_step(rules, state, step, mail, GivenDice(values=[]))
    refused, moved = result.order_results["kesh"]
    assert not refused.accepted and refused.rule == "ER-12.11" and moved.accepted
    assert held(result.state, "NSE") == ("kesh", {"ship": 2}) and held(result.state, "DUN") == ("kesh", {"infantry": 1})
