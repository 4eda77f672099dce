"""Conqueror: Empire Rises: rules already built but not yet named by a test (tests.rule_coverage). Each test sets
up a position with the real setup on our own example data (games/conqueror-er/example-data, invented for pbem),
resolves it through the engine and checks what the rule demands, refusals included.

Dice (ER-0.4): a dice-file number i gives face [1, 1, 2, 3, 4, 4][i - 1]; FOUR (5) is a 4, ONE (1) is a 1."""

from __future__ import annotations

from adjudicator.engine.steps import resolve_step
from adjudicator.rulesets.conqueror.state import (
    INDEPENDENT,
    Army,
    GameState,
    controller,
    food_limit,
    food_supply,
    fort_count,
    standard_units,
)
from tests.test_conqueror_battle import army, battle
from tests.test_conqueror_battle import run as run_battle
from tests.test_conqueror_campaign import (
    FOUR,
    ONE,
    blocker_position,
    campaign_of,
    kesh_in,
    of,
    play,
    units,
    verdicts,
)
from tests.test_conqueror_politics import plans_position, verdict
from tests.test_conqueror_politics import play as play_plans
from tests.test_conqueror_setup import run
from tests.test_conqueror_state import dice, example, set_up

# -- the map and its resources (ER-2) -------------------------------------------------------------------------------


def test_ER_2_5_taxation_pays_the_coins_of_areas_won_and_of_an_uncontested_empty_capital() -> None:
    rules, state = set_up(4)
    side = example().map_for(4)
    assert side.areas["AUR"].capital == "aurel" and side.areas["BRE"].coins == 2  # the example map (tests below)
    state.army.pop("AUR")  # the capital left without units: still aurel's (ER-2.3)
    state.army["BRE"] = Army("aurel", {"cavalry": 1, "infantry": 2, "archer": 1})  # an area won
    state.phase = "taxation"
    state, events = run(rules, state)
    # base income 3 (example board) + AUR 2 + BRE 2
    assert state.players["aurel"].coins == 3 + 2 + 2
    assert next(e for e in events if e.kind == "taxes" and e.seat == "aurel").data["coins"] == 7


def test_ER_2_5_an_enemy_in_the_capital_takes_its_resources() -> None:
    rules, state = set_up(4)
    kesh = state.players["kesh"].coins
    state.army["AUR"] = Army("kesh", {"infantry": 1})  # aurel's units gone, kesh holds the capital
    state.army["KES"].add("infantry", -1)
    state.phase = "taxation"
    state, _ = run(rules, state)
    assert state.players["aurel"].coins == 3  # base income only
    assert state.players["kesh"].coins == kesh + 3 + 3 + 2  # base, KES 3, AUR 2


def test_ER_2_9_food_supply_follows_the_areas_held_at_once() -> None:
    rules, state = set_up(4)
    side = example().map_for(4)
    before = food_supply(state, side, "aurel")
    state.army["MIR"] = Army("aurel", {"infantry": 1})  # MIR: 2 food symbols
    assert food_supply(state, side, "aurel") == before + 2
    state.army["MIR"] = Army("kesh", {"infantry": 1})
    assert food_supply(state, side, "aurel") == before and food_supply(state, side, "kesh") >= 2


# -- turn order (ER-4.2) --------------------------------------------------------------------------------------------


def test_ER_4_2_turn_order_set_in_new_year_stays_for_the_round() -> None:
    rules, state = set_up(3)
    state.phase = "new_year"
    while state.phase != "campaign":
        step = rules.due(state)
        assert step is not None
        if step.seats:
            from tests.test_conqueror_politics import play as plans_play

            state = plans_play(rules, state, {}).state
        else:
            state, _ = run(rules, state)
    order = list(state.turn_order)
    first = order[0]
    # the first seat conquers forts in its campaign turn: the order of the round does not change (ER-4.2)
    state.army["BRE"] = Army(first, {"infantry": 1})
    state.army["SOL"] = Army(first, {"infantry": 1})
    step = rules.due(state)
    assert step is not None and step.seats == (first,)
    from adjudicator.engine.chance import GivenDice
    from adjudicator.engine.steps import resolve_step

    after = resolve_step(rules, state, step, {}, GivenDice(values=[])).state
    assert after.turn_order == order
    assert rules.due(after).seats == (order[1],)  # type: ignore[union-attr]


# -- Preparation (ER-6) ---------------------------------------------------------------------------------------------


def test_ER_6_1_ER_6_6_recruitment_in_any_order_standard_units_free_elite_and_hero_for_coins() -> None:
    rules, state = plans_position()
    state.players["aurel"].coins = 10
    state.players["aurel"].food_bonus = 3
    text = "RECRUIT 1 INF 1 ARC AT AUR\nRECRUIT ELITE"
    result = play_plans(rules, state, {"aurel": text})
    assert verdict(result, "aurel", 2).accepted and verdict(result, "aurel", 3).accepted
    army = result.state.army["AUR"]
    assert army.units["infantry"] == 3 and army.units["archer"] == 2 and army.count("elite") == 1
    assert result.state.players["aurel"].coins == 10 - 4  # the elite's cost only: standard units are free (ER-6.6)
    rules, state = plans_position()
    state.players["aurel"].coins = 0
    state.players["aurel"].food_bonus = 3
    free = play_plans(rules, state, {"aurel": "RECRUIT 2 INF AT AUR"})
    assert verdict(free, "aurel").accepted and free.state.players["aurel"].coins == 0  # ER-6.6: no coins needed
    broke = play_plans(rules, state, {"aurel": "RECRUIT ELITE"})
    assert not verdict(broke, "aurel").accepted  # ER-6.1: only while coins last


def test_ER_6_8_the_elite_needs_no_food_and_is_not_an_excess_unit() -> None:
    rules, state = plans_position()
    state.army["KES"].add("elite", 1)
    state.players["kesh"].elite = "recruited"
    assert standard_units(state, "kesh") == 4  # kesh's food 1 allows 4 standard units: exactly full
    result = play_plans(rules, state, {})
    assert not [e for e in result.events if e.kind == "excess_removed" and e.seat == "kesh"]
    assert result.state.army["KES"].count("elite") == 1 and result.state.army["KES"].total == 5


# -- heroes used twice (ER-6.11, ER-15.13) --------------------------------------------------------------------------


def test_ER_6_11_a_hero_face_up_after_its_first_battle_is_discarded_after_its_second() -> None:
    rules, state = campaign_of("aurel")
    state.players["aurel"].heroes_down.append("aurel-1")
    first = play(rules, state, "aurel", [FOUR, FOUR], "ATTACK 1 CAV 2 INF 1 ARC: AUR -> MIR HERO aurel-1")
    assert first.state.players["aurel"].heroes_up == {"aurel-1": 1}
    rules, state = campaign_of("aurel")
    state.players["aurel"].heroes_up = {"aurel-1": 1}  # used once: played face up now
    second = play(rules, state, "aurel", [FOUR, FOUR], "ATTACK 1 CAV 2 INF 1 ARC: AUR -> MIR HERO aurel-1")
    player = second.state.players["aurel"]
    assert verdicts(second, "aurel") == [(True, "")]
    assert player.heroes_up == {} and player.heroes_down == [] and player.heroes_discarded == ["aurel-1"]
    assert rules.broken_invariants(second.state) == []


def test_ER_15_13_with_an_academy_a_discarded_hero_returns_only_when_all_five_are_discarded() -> None:
    rules, state = campaign_of("aurel")
    state.players["aurel"].heroes_up = {"aurel-1": 1}
    state = play(rules, state, "aurel", [FOUR, FOUR], "ATTACK 1 CAV 2 INF 1 ARC: AUR -> MIR HERO aurel-1").state
    rules, plans = plans_position()
    aurel = plans.players["aurel"]
    aurel.coins, aurel.districts = 10, {"academy": 1}
    plans.supply.districts["academy"] -= 1
    aurel.heroes_discarded = ["aurel-1", "aurel-2", "aurel-3", "aurel-4"]  # 4 of 5 discarded
    refused = play_plans(rules, plans, {"aurel": "RECRUIT HERO aurel-1"})
    assert not verdict(refused, "aurel").accepted and verdict(refused, "aurel").rule == "ER-6.12"
    aurel.heroes_discarded.append("aurel-5")
    again = play_plans(rules, plans, {"aurel": "RECRUIT HERO aurel-1"})
    assert verdict(again, "aurel").accepted and again.state.players["aurel"].heroes_down == ["aurel-1"]
    assert state.players["aurel"].heroes_discarded == ["aurel-1"]


# -- the campaign (ER-7) --------------------------------------------------------------------------------------------


def test_ER_7_5_an_attack_takes_units_from_its_one_area_only() -> None:
    rules, state = campaign_of("aurel")
    state.army["SOL"] = Army("aurel", {"infantry": 1})
    # SOL holds 1 infantry, AUR the cavalry: the attack cannot gather both areas' units
    result = play(rules, state, "aurel", [], "ATTACK 1 CAV 1 INF: SOL -> MIR")
    assert verdicts(result, "aurel") == [(False, "ER-7.2")]
    assert "SOL holds 0 cavalry" in result.order_results["aurel"][0].reason
    assert units(result.state, "MIR") == (INDEPENDENT, {"cavalry": 2, "infantry": 1})
    assert units(result.state, "SOL") == ("aurel", {"infantry": 1})


def test_ER_7_8_two_separate_attacks_on_one_area_each_from_its_own_area() -> None:
    rules, state = campaign_of("aurel")
    state.army["SOL"] = Army("aurel", {"cavalry": 2, "infantry": 2})
    # 1st: 1 + 1 (die) against 2 cav 1 inf (5) + automa-2 (2): lost. 2nd: 6 + 4 against 5 + automa-1 (1): won
    result = play(rules, state, "aurel", [ONE, FOUR], "ATTACK 1 INF: AUR -> MIR", "ATTACK 2 CAV 2 INF: SOL -> MIR")
    assert verdicts(result, "aurel") == [(True, ""), (True, "")]
    battles = of(result.events, "battle")
    assert [(b.data["area"], b.data["from"]) for b in battles] == [("MIR", "AUR"), ("MIR", "SOL")]
    assert [r.data["winner"] for r in of(result.events, "battle_result")] == ["defender", "attacker"]
    assert units(result.state, "MIR") == ("aurel", {"cavalry": 2, "infantry": 2})
    assert units(result.state, "AUR") == ("aurel", {"cavalry": 1, "infantry": 1, "archer": 1})


def test_ER_7_7_a_forbidden_attack_is_rejected_citing_the_rule_and_the_rest_goes_on() -> None:
    rules, state = campaign_of("aurel")
    kesh_in(state, "SOL", infantry=1)
    state.players["aurel"].trade_bans = ["kesh"]  # traded with kesh this round (ER-5.10b)
    result = play(
        rules, state, "aurel", [FOUR, FOUR], "ATTACK 1 CAV: AUR -> SOL", "ATTACK 1 CAV 2 INF 1 ARC: AUR -> MIR"
    )
    assert verdicts(result, "aurel") == [(False, "ER-5.10b"), (True, "")]
    assert "ER-5.10b" in result.order_results["aurel"][0].rule
    assert units(result.state, "SOL") == ("kesh", {"infantry": 1})


def test_ER_7_9_a_persian_block_stops_an_attack() -> None:
    rules, state = blocker_position(2, "BLOCK aurel MAX 4")
    result = play(rules, state, "aurel", [], "ATTACK 1 CAV 1 INF: AUR -> MIR")
    assert verdicts(result, "aurel") == [(False, "ER-12.5")]
    assert units(result.state, "MIR") == (INDEPENDENT, {"cavalry": 2, "infantry": 1})  # no battle was fought
    assert not of(result.events, "battle") and result.state.players["varun"].coins == 1


def test_ER_7_12_siege_engines_and_ships_move_like_other_units() -> None:
    rules, state = campaign_of("aurel")
    state.army["AUR"].add("siege", 1)
    state.army["WSE"] = Army("aurel", {"ship": 1})
    result = play(rules, state, "aurel", [], "MOVE 1 SIEGE 1 INF: AUR -> SOL", "MOVE 1 SHIP: WSE -> ISE")
    assert verdicts(result, "aurel") == [(True, ""), (True, "")]
    assert units(result.state, "SOL") == ("aurel", {"infantry": 1, "siege": 1})
    assert units(result.state, "ISE") == ("aurel", {"ship": 1}) and "WSE" not in result.state.army


def test_ER_15_11_excess_units_after_losing_a_food_area_fight_until_the_next_preparation() -> None:
    rules, state = campaign_of("aurel")
    state.army["AUR"].add("infantry", 5)  # 9 standard units: aurel held food areas and lost them; food allows 6
    assert standard_units(state, "aurel") == 9 and food_limit(state, example(), "aurel") == 6
    result = play(rules, state, "aurel", [], "MOVE 1 CAV 7 INF 1 ARC: AUR -> SOL")
    assert verdicts(result, "aurel") == [(True, "")]  # they move normally; nothing removed at once
    state = result.state
    assert units(state, "SOL") == ("aurel", {"cavalry": 1, "infantry": 7, "archer": 1})
    while state.phase != "plans":  # the other seats' campaign turns, end of round, New Year, taxation
        step = rules.due(state)
        assert step is not None
        state = resolve_step(rules, state, step, {}, dice(f"n{step.number}")).state
    prepared = play_plans(rules, state, {})
    removed = [e for e in prepared.events if e.kind == "excess_removed" and e.seat == "aurel"]
    assert food_limit(prepared.state, example(), "aurel") == 8  # AUR and SOL: food 3
    assert [e.data["units"] for e in removed] == [{"archer": 1}] and standard_units(prepared.state, "aurel") == 8


# -- victory (ER-10.3, ER-10.4, ER-15.9, ER-15.10) ------------------------------------------------------------------


def hold(state: GameState, faction: str, *areas: str) -> None:
    for area in areas:
        state.army[area] = Army(faction, {"infantry": 1})


def test_ER_10_3_ER_10_4_final_scores_count_forts_districts_upgrades_coins_and_a_built_fort_as_a_small_fort() -> None:
    rules, state = set_up(4, "conquest")
    side = example().map_for(4)
    assert (side.areas["BRE"].fort, side.areas["DUN"].fort, side.areas["MIR"].fort) == ("large", "small", "none")
    assert state.army["SOL"].owner == "aurel" and side.areas["SOL"].fort == "small"  # the 4-player setup
    hold(state, "aurel", "BRE", "DUN", "MIR", "KES")  # KES: kesh's capital taken
    state.fort_markers.append("MIR")  # a fort aurel built (ER-5.14)
    aurel = state.players["aurel"]
    aurel.districts = {"granary": 2, "bazaar": 1, "academy": 1}  # 4 districts: the bonus (ER-10.3)
    aurel.upgrades = ["heavy_cavalry", "discipline"]  # 2 upgrades: below the example's bonus count (4)
    aurel.coins = 14
    state.phase = "end_of_round"
    state, events = run(rules, state)
    (won,) = [e for e in events if e.kind == "game_won"]
    # capitals AUR and KES 2 * 10, BRE large 6, DUN and SOL small 2 * 4, MIR built: small 4 (ER-10.4: not a
    # district); 4 districts * 2 + 2 bonus; 2 upgrades * 2; 14 coins: 2
    assert won.data["scores"]["aurel"] == 20 + 6 + 8 + 4 + 8 + 2 + 4 + 2
    assert state.ended and state.winners == ["aurel"]


def test_ER_15_9_forts_reached_in_a_turn_but_lost_later_give_no_win() -> None:
    rules, state = set_up(4, "conquest")
    side = example().map_for(4)
    hold(state, "aurel", "BRE", "DUN", "GAR")  # with AUR and SOL: 5 forts, the Conquest target
    assert fort_count(state, side, "aurel") == 5
    state.army["DUN"] = Army("kesh", {"infantry": 1})  # a later player's campaign turn takes one back
    state.phase = "end_of_round"
    state, events = run(rules, state)
    assert not state.ended and state.winners == [] and state.round == 2
    assert not [e for e in events if e.kind == "game_won"]


def test_ER_15_10_two_players_above_the_target_with_equal_forts_victory_points_decide_between_them_only() -> None:
    rules, state = set_up(4, "conquest")
    side = example().map_for(4)
    hold(state, "aurel", "BRE", "DUN", "GAR")  # AUR, SOL, BRE, DUN, GAR
    hold(state, "kesh", "ORO", "ILS", "SUN", "PEL")  # KES, ORO, ILS, SUN (sunmar's capital), PEL built
    state.fort_markers.append("PEL")
    assert fort_count(state, side, "aurel") == fort_count(state, side, "kesh") == 5
    state.players["aurel"].coins, state.players["kesh"].coins = 30, 0  # aurel: 28 + 6 = 34 VP; kesh: 32 VP
    state.players["thal"].coins = 200  # thal (THA, 40 VP from coins) has the most VP but only 1 fort
    state.phase = "end_of_round"
    state, events = run(rules, state)
    (won,) = [e for e in events if e.kind == "game_won"]
    assert won.data["scores"]["aurel"] == 34 and won.data["scores"]["kesh"] == 32
    assert won.data["scores"]["thal"] > 34
    assert state.ended and state.winners == ["aurel"] and won.data["forts"] is True


# -- the temporary capital (ER-11.2 to ER-11.4, ER-15.2, ER-15.16) --------------------------------------------------


def without_capital(state: GameState, at: str, **kinds: int) -> None:
    """aurel's capital AUR is held by thal (1 infantry from THA); aurel's army stands in `at`."""
    state.army["THA"].add("infantry", -1)
    state.army["AUR"] = Army("thal", {"infantry": 1})
    state.army[at] = Army("aurel", dict(kinds))


def test_ER_11_2_a_temporary_capital_recruits_as_a_large_fort() -> None:
    rules, state = plans_position()
    without_capital(state, "SOL", cavalry=1, infantry=2, archer=1)
    state.players["aurel"].temporary_capital = "SOL"  # SOL: a small fort
    result = play_plans(rules, state, {"aurel": "RECRUIT 2 INF AT SOL"})
    assert verdict(result, "aurel").accepted  # a small fort makes 1 foot unit only (ER-6.3)
    assert result.state.army["SOL"].units["infantry"] == 4
    rules, state = plans_position()
    without_capital(state, "SOL", cavalry=1)
    state.army["BRE"] = Army("aurel", {"infantry": 2, "archer": 1})  # ER-11.1, ER-14.5: the token goes here
    refused = play_plans(rules, state, {"aurel": "RECRUIT 2 INF AT SOL"})
    assert refused.state.players["aurel"].temporary_capital == "BRE"
    assert not verdict(refused, "aurel").accepted and verdict(refused, "aurel").rule == "ER-6.3"


def test_ER_11_2_a_temporary_capital_gives_a_coin_a_food_and_the_capital_defence() -> None:
    rules, state = set_up(3)
    without_capital(state, "SOL", infantry=2)
    state.army["AUR"].units["infantry"] = 1
    side = example().map_for(3)
    food = food_supply(state, side, "aurel")
    state.players["aurel"].temporary_capital = "SOL"
    assert food_supply(state, side, "aurel") == food + 1
    state.phase = "taxation"
    taxed, _ = run(rules, state)
    assert taxed.players["aurel"].coins == 3 + side.areas["SOL"].coins + 1
    rules, state = campaign_of("kesh")
    without_capital(state, "SOL", infantry=2)
    state.players["aurel"].temporary_capital = "SOL"
    kesh_in(state, "MIR", cavalry=1)
    # kesh 2 + 1 (die) against aurel 2 + 4 (own temporary capital, ER-8.16d) + 1 (die)
    result = play(rules, state, "kesh", [ONE, ONE], "ATTACK 1 CAV: MIR -> SOL")
    melee = of(result.events, "battle_melee")[0].data
    assert melee["strengths"] == {"attacker": 2, "defender": 6} and melee["winner"] == "defender"


def test_ER_11_3_a_captured_temporary_capital_moves_to_another_controlled_land_area() -> None:
    rules, state = campaign_of("kesh")
    without_capital(state, "SOL", infantry=1)
    state.army["VAL"] = Army("aurel", {"infantry": 1})  # VAL: another land area aurel controls
    state.players["aurel"].temporary_capital = "SOL"
    kesh_in(state, "MIR", cavalry=1, infantry=2)
    # kesh 4 + 4 against aurel 1 + 4 + 1: kesh wins and takes SOL
    result = play(rules, state, "kesh", [FOUR, ONE], "ATTACK 1 CAV 2 INF: MIR -> SOL")
    assert units(result.state, "SOL") is not None and result.state.army["SOL"].owner == "kesh"
    assert result.state.players["aurel"].temporary_capital == "VAL"
    assert [e.data["area"] for e in of(result.events, "temporary_capital_lost")] == ["SOL"]


def test_ER_11_4_ER_15_2_the_capital_regained_when_the_enemy_leaves_ends_the_temporary_capital_at_round_end() -> None:
    rules, state = set_up(3)
    without_capital(state, "SOL", infantry=2)
    state.players["aurel"].temporary_capital = "SOL"
    side = example().map_for(3)
    state.army.pop("AUR")  # thal's unit left aurel's capital: control returns to aurel at once (ER-2.3)
    assert controller(state, side, "AUR") == "aurel"
    assert state.players["aurel"].temporary_capital == "SOL"  # not at once: at the end of the round
    state.phase = "end_of_round"
    state, events = run(rules, state)
    assert state.players["aurel"].temporary_capital is None
    assert [e.data for e in events if e.kind == "temporary_capital_returned"] == [{"area": "SOL"}]


def test_ER_11_4_a_large_fort_controlled_also_returns_the_temporary_capital() -> None:
    rules, state = set_up(3)
    without_capital(state, "SOL", infantry=2)
    state.players["aurel"].temporary_capital = "SOL"
    state.phase = "end_of_round"
    kept, _ = run(rules, state)
    assert kept.players["aurel"].temporary_capital == "SOL"  # no large fort: it stays
    rules, state = set_up(3)
    without_capital(state, "SOL", infantry=2)
    state.players["aurel"].temporary_capital = "SOL"
    state.army["SUN"] = Army("aurel", {"cavalry": 1})  # SUN: a large fort with 3 players (no one's capital)
    state.phase = "end_of_round"
    ended, _ = run(rules, state)
    assert ended.players["aurel"].temporary_capital is None


# -- Politics: agent spaces and upgrades (ER-5.19, ER-5.21) ---------------------------------------------------------


def test_ER_5_19_the_second_agent_space_of_a_unit_type_costs_2_coins_more() -> None:
    rules, state = plans_position()
    for seat in state.turn_order:
        state.players[seat].coins = 30
    line = "AGENT UPGRADE heavy_cavalry"
    result = play_plans(rules, state, dict.fromkeys(state.turn_order, line))
    after = result.state.players
    first, second, third = state.turn_order
    assert after[first].agent == "upgrade:cavalry:1" and after[second].agent == "upgrade:cavalry:2"
    assert 30 - after[second].coins == 30 - after[first].coins + 2  # the same first upgrade, 2 coins more
    refused = verdict(result, third)  # 2 spaces only: the third seat passes
    assert not refused.accepted and "both spaces are taken" in refused.reason and after[third].coins == 30


def test_ER_5_21_a_bought_upgrade_is_kept_and_applies_to_the_elite_of_its_type() -> None:
    rules, state = plans_position()
    state.players["kesh"].coins = 8
    supply = state.supply.upgrades["heavy_cavalry"]
    result = play_plans(rules, state, {"kesh": "AGENT UPGRADE heavy_cavalry"})
    state = result.state
    assert state.players["kesh"].upgrades == ["heavy_cavalry"] and state.supply.upgrades["heavy_cavalry"] == supply - 1
    assert state.players["kesh"].coins == 0
    state.army["KES"].add("elite", 1)  # kesh's elite (example data): cavalry, strength 4
    state.players["kesh"].elite = "recruited"
    fought = play(rules, state, "kesh", [ONE, ONE], "ATTACK 1 CAV ELITE: KES -> PEL")
    # cavalry 2 + 1 (Heavy Cavalry) and the elite 4 + 1 (Heavy Cavalry: it is cavalry, ER-9.3)
    assert of(fought.events, "battle_melee")[0].data["strengths"]["attacker"] == 8
    assert fought.state.players["kesh"].upgrades == ["heavy_cavalry"]  # permanent


# -- a capital held by an enemy (ER-15.16) --------------------------------------------------------------------------


def test_ER_15_16_no_temporary_capital_while_a_large_fort_is_held_and_the_elite_recruits_elsewhere() -> None:
    rules, state = campaign_of("aurel")
    kesh_in(state, "PEL", cavalry=1, infantry=2, archer=1)  # KES is left without units
    state.army["SUN"] = Army("kesh", {"infantry": 1})  # SUN: a large fort (3 players) kesh holds
    state.army["DUN"] = Army("aurel", {"cavalry": 2})
    state.army["AUR"].add("cavalry", -1)
    state.army["AUR"].add("infantry", -1)
    result = play(rules, state, "aurel", [FOUR, ONE], "ATTACK 2 CAV: DUN -> KES")
    after = result.state
    assert after.army["KES"].owner == "aurel"
    assert after.players["kesh"].temporary_capital is None and not of(result.events, "temporary_capital_placed")
    while after.phase != "plans":
        step = rules.due(after)
        assert step is not None
        after = resolve_step(rules, after, step, {}, dice(f"c{step.number}")).state
    after.players["kesh"].coins = 10
    recruited = play_plans(rules, after, {"kesh": "RECRUIT ELITE"})
    assert verdict(recruited, "kesh").accepted
    placed = [a for a, army in recruited.state.army.items() if army.owner == "kesh" and army.count("elite")]
    assert placed and placed[0] != "KES"


def test_ER_15_17_two_seats_reaching_the_last_trade_space_take_their_extra_actions_after_all_others() -> None:
    rules, state = plans_position()
    for seat in ("kesh", "aurel", "thal"):
        state.players[seat].coins = 20
    state.players["kesh"].trade = state.players["aurel"].trade = 7  # one space before the last (example: 8)
    assert state.turn_order == ["kesh", "aurel", "thal"]
    texts = {
        "kesh": "AGENT TRADE WITH thal\nEXTRA AGENT GRANARY",
        "aurel": "AGENT TRADE WITH kesh\nEXTRA AGENT BAZAAR",
        "thal": "AGENT GRANARY",
    }
    result = play_plans(rules, state, texts)
    assert result.state.players["kesh"].trade == result.state.players["aurel"].trade == 8
    done = [(e.kind, e.seat) for e in result.events if e.kind in ("traded", "district_built")]
    # the normal actions in turn order (thal's too), then the extra actions in turn order
    assert done == [
        ("traded", "kesh"),
        ("traded", "aurel"),
        ("district_built", "thal"),
        ("district_built", "kesh"),
        ("district_built", "aurel"),
    ]
    built = [e.data["space"] for e in result.events if e.kind == "district_built"]
    assert built == [1, 2, 1]  # thal took the first granary space before kesh's extra action (ER-5.5)


# -- Europe (ER-2.10) -----------------------------------------------------------------------------------------------


def test_ER_2_10_a_europe_only_ability_counts_in_europe_areas_only() -> None:
    data = example()
    ability = (data.factions["ostra"].board("standard") or data.factions["ostra"].standard).ability
    side = data.map_for(3)
    assert side.areas["AUR"].europe and not side.areas["KES"].europe  # the example's Europe set
    strengths = {}
    for europe in (True, False):
        b = battle(army("a", "O", infantry=2), army("ostra", "X", infantry=2, effects=ability), europe=europe)
        outcome, _ = run_battle(b, [ONE, ONE])
        strengths[europe] = outcome.strengths
    # 2 infantry + 1 (die) each; ostra's example ability: +1 defending in Europe (ER-8.16)
    assert strengths[True] == {"attacker": 3, "defender": 4}
    assert strengths[False] == {"attacker": 3, "defender": 3}


# -- effects after a battle (ER-13.6) -------------------------------------------------------------------------------


def test_ER_13_6_a_played_heros_effect_without_a_number_is_named_for_the_moderator() -> None:
    """A look at the opponent's hand (ER-5.9b style) carries no `n`: the battle still ends and the report names
    the effect for the moderator instead of failing."""
    rules, state = campaign_of("thal")
    state.players["thal"].heroes_down.append("thal-3")  # Kleon the Wise: look_hand, opponent
    result = play(rules, state, "thal", [ONE, FOUR], "ATTACK 1 CAV 2 INF 1 ARC: THA -> GAR HERO thal-3")
    assert verdicts(result, "thal") == [(True, "")]
    named = [e for e in of(result.events, "battle_effect") if e.data["source"] == "thal-3"]
    assert [(e.data["op"], e.data["applied"]) for e in named] == [("look_hand", False)]
    assert result.state.players["thal"].heroes_up == {"thal-3": 1}
