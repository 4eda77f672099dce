"""Conqueror: Empire Rises: the effects of ER-13.6 outside battle (effects_apply.py, effects_triggers.py), with the
round's triggers (ER-4.4, ER-4.6, ER-5.2, ER-5.3, ER-11.5, ER-11.6, ER-10.3). Each test sets up a position on our
own example data (games/conqueror-er/example-data, invented for pbem), resolves it through the engine and checks
what the rule demands. Effects the example data lacks are added to a faction's ability (`ability(...)`)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from adjudicator.engine.steps import resolve_step
from adjudicator.rulesets import load_ruleset
from adjudicator.rulesets.conqueror import rounds
from adjudicator.rulesets.conqueror.data import Effect, GameData, frozen
from adjudicator.rulesets.conqueror.game import ConquerorGame
from adjudicator.rulesets.conqueror.loader import load_folder
from adjudicator.rulesets.conqueror.movement import thoroughbred_units
from adjudicator.rulesets.conqueror.setup import game_options
from adjudicator.rulesets.conqueror.state import (
    DYNASTY_ACTIVE,
    DYNASTY_FLIPPED,
    FOOD_HELD,
    Army,
    GameState,
    food_limit,
    food_supply,
    standard_units,
)
from adjudicator.rulesets.conqueror.vocabulary import Condition, Trigger
from tests.conftest import Pbem
from tests.test_conqueror_campaign import campaign_of, sentences, verdicts
from tests.test_conqueror_campaign import play as play_campaign
from tests.test_conqueror_new import data_copy, new_er, whole_snapshot
from tests.test_conqueror_plans_cli import PLANS, SEATS3, submit
from tests.test_conqueror_politics import plans_position, verdict
from tests.test_conqueror_politics import play as play_plans
from tests.test_conqueror_setup import run, to_phase
from tests.test_conqueror_state import dice, example, set_up


def effect(op: str, when: str, n_when: int | None = None, **args: object) -> Effect:
    conditions = tuple(args.pop("conditions", ()))  # type: ignore[arg-type]
    who = str(args.pop("who", "self"))
    return Effect(op=op, args=frozen(args), when=Trigger(when, n_when), who=who, conditions=conditions)


def ability(faction: str, *effects: Effect) -> GameData:
    """The example data with `effects` added to `faction`'s standard board ability."""
    data = example()
    found = data.factions[faction]
    boards = tuple(replace(b, ability=b.ability + effects) if b.kind == "standard" else b for b in found.boards)
    return replace(data, factions={**data.factions, faction: replace(found, boards=boards)})


def game_with(data: GameData, players: int = 3) -> tuple[ConquerorGame, GameState]:
    rules = load_ruleset("conqueror-er").with_data(data, game_options(data, "imperator", {}))  # type: ignore[attr-defined]
    state = rules.initial_state("g1", list(data.setup.factions_by_players[players]))
    step = rules.due(state)
    return rules, resolve_step(rules, state, step, {}, dice()).state


def in_force(state: GameState, chronicle: str) -> None:
    """The chronicle `chronicle` in force this round (taken out of the deck, ER-4.4.4)."""
    decks = state.decks
    decks.chronicles = [c for c in decks.chronicles if c != chronicle]
    decks.chronicles_done = [c for c in decks.chronicles_done if c != chronicle]
    if decks.chronicle is not None:
        decks.chronicles_done.append(decks.chronicle)
    decks.chronicle = chronicle


def at(state: GameState, phase: str, round_: int = 2) -> GameState:
    state.round, state.phase = round_, phase
    return state


# -- Taxation: other income (ER-5.2) and Persia (ER-5.3) ----------------------------------------------------------


def test_ER_5_2_other_income_of_ability_and_chronicle_is_paid_at_taxation() -> None:
    rules, state = set_up(4)
    state.players["sunmar"].board = "alternative-1"  # +1 coin at Taxation while it holds stored food
    state.players["sunmar"].stored_food = FOOD_HELD
    state.supply.food_markers -= 1
    in_force(state, "busy-markets")  # +1 coin to every player at Taxation
    at(state, "taxation")
    data = example()
    printed = {f: rounds.income(state, data, f) for f in state.in_play()}
    coins = {f: p.coins for f, p in state.players.items()}
    after, events = run(rules, state)
    for faction in state.in_play():
        extra = 1 + (1 if faction == "sunmar" else 0)
        assert after.players[faction].coins == coins[faction] + printed[faction] + extra
        taxes = next(e for e in events if e.kind == "taxes" and e.seat == faction)
        assert taxes.data["coins"] == printed[faction] + extra


def test_ER_5_3_persia_gains_one_per_full_five_of_the_phases_income_before_the_bonus() -> None:
    rules, state = set_up(5)  # varun's standard board: coins +1 per income/5 at Taxation (our Persia)
    data = example()
    base = rounds.income(state, data, "varun")
    bazaars = next(k for k in range(5) if (base + 2 * k + 1) % 5 == 0)  # the chronicle's coin reaches a five
    state.players["varun"].districts["bazaar"] = bazaars
    state.supply.districts["bazaar"] -= bazaars
    in_force(state, "busy-markets")
    at(state, "taxation")
    printed = rounds.income(state, data, "varun")
    assert (printed + 1) % 5 == 0 and printed % 5 == 4  # without the chronicle's coin one bonus fewer
    coins = state.players["varun"].coins
    after, events = run(rules, state)
    total = printed + 1
    assert after.players["varun"].coins == coins + total + total // 5
    bonus = [e for e in events if e.kind == "effect_applied" and e.seat == "varun" and e.data["n"] == total // 5]
    assert bonus and bonus[-1].data["source"] == "varun ability"


def test_ER_13_6_on_gain_coins_answers_coins_gained_once_without_recursion() -> None:
    rules, state = game_with(ability("kesh", effect("coins", "on_gain_coins", n=1)))
    at(state, "taxation")
    coins = state.players["kesh"].coins
    printed = rounds.income(state, rules.data, "kesh")
    after, _ = run(rules, state)
    assert after.players["kesh"].coins == coins + printed + 1  # its own coin triggers nothing more
    after = to_phase(rules, after, "plans")
    coins = after.players["kesh"].coins
    space = rules.data.tracks.trade["imperator"][1]  # the second trade space: its coins are gained in trade
    traded = play_plans(rules, after, {"kesh": "AGENT TRADE WITH aurel"}).state
    assert traded.players["kesh"].coins == coins + space.coins + (1 if space.coins > 0 else 0)


# -- New Year: the chronicle for all (ER-4.4.4), dynasty (ER-11.5), durations --------------------------------------


def test_ER_4_4_4_the_chronicle_drawn_applies_to_all_players_for_the_round_only() -> None:
    rules, state = set_up(3)
    at(state, "new_year")
    state.decks.chronicles = ["good-harvest"] + [c for c in state.decks.chronicles if c != "good-harvest"]
    state.decks.chronicles_done = [c for c in state.decks.chronicles_done if c != "good-harvest"]
    side = example().map_for(3)
    before = {f: food_supply(state, side, f) for f in state.in_play()}
    state, events = run(rules, state)
    assert state.decks.chronicle == "good-harvest"
    assert {f: food_supply(state, side, f) for f in state.in_play()} == {f: n + 1 for f, n in before.items()}
    assert len([e for e in events if e.kind == "effect_applied" and e.data["op"] == "food"]) == 3  # once each
    state.phase = "end_of_round"
    state, _ = run(rules, state)
    assert state.decks.chronicle is None and "good-harvest" in state.decks.chronicles_done
    assert {f: food_supply(state, side, f) for f in state.in_play()} == before  # duration round: ended


def test_ER_13_6_food_with_respect_limit_stops_at_the_food_tracks_end() -> None:
    rules, state = game_with(ability("kesh", effect("food", "new_year", n=50, respect_limit=True)))
    at(state, "new_year")
    state, _ = run(rules, state)
    assert food_supply(state, rules.data.map_for(3), "kesh") == len(rules.data.tracks.food) - 1


def test_ER_11_5_the_dynasty_recruit_places_a_unit_from_the_barracks_in_the_capital() -> None:
    rules, state = plans_position()
    state.round = 2
    infantry = state.army["AUR"].count("infantry")
    result = play_plans(rules, state, {"aurel": "DYNASTY"})
    assert result.state.army["AUR"].count("infantry") == infantry + 1
    recruited = [e for e in result.events if e.kind == "effect_applied" and e.data["op"] == "recruit"]
    assert recruited and recruited[0].data["area"] == "AUR" and recruited[0].data["n"] == 1
    assert sentences(recruited) == ["aurel dynasty: aurel places 1 infantry in AUR (ER-13.6)."]


# -- end of round (ER-4.6, ER-11.6), next round, game end (ER-10.3) -------------------------------------------------


def test_ER_11_6_the_dynasty_loses_at_the_end_of_its_round_flips_and_then_feeds_at_two_or_less() -> None:
    rules, state = set_up(3)
    player = state.players["aurel"]
    player.dynasty, player.coins = DYNASTY_ACTIVE, 5
    at(state, "end_of_round")
    state, _ = run(rules, state)
    assert state.players["aurel"].coins == 3 and state.players["aurel"].dynasty == DYNASTY_FLIPPED
    side = example().map_for(3)
    # the passive back: +1 food while the supply is 2 or less (checked after Taxation, for the round)
    for area in [a for a, army in state.army.items() if army.owner == "aurel" and a != "AUR"]:
        del state.army[area]
    assert food_supply(state, side, "aurel") <= 2
    kesh = food_supply(state, side, "kesh")
    state = to_phase(rules, at(state, "taxation"), "plans")
    assert state.players["aurel"].food_bonus == 1
    assert state.players["kesh"].food_bonus == 0 and kesh <= 2  # as low, but no flipped dynasty: no passive


def test_ER_11_6_the_loss_takes_no_more_coins_than_held() -> None:
    rules, state = set_up(3)
    state.players["aurel"].dynasty, state.players["aurel"].coins = DYNASTY_ACTIVE, 1
    state, _ = run(rules, at(state, "end_of_round"))
    assert state.players["aurel"].coins == 0


def test_ER_13_6_on_food_le_of_an_ability_feeds_only_at_or_under_its_number() -> None:
    rules, state = set_up(3)
    state.players["kesh"].board = "alternative-2"  # food +1 for the round when the supply is 2 or less
    side = example().map_for(3)
    assert food_supply(state, side, "kesh") <= 2
    after = to_phase(rules, at(state.copy(), "taxation"), "plans")
    assert after.players["kesh"].food_bonus == 1
    state.players["kesh"].districts["granary"] = 2  # +2 food (ER-5.15): above its number
    state.supply.districts["granary"] -= 2
    assert food_supply(state, side, "kesh") > 2
    after = to_phase(rules, at(state, "taxation"), "plans")
    assert after.players["kesh"].food_bonus == 0


def test_ER_13_6_end_of_round_effects_of_the_chronicle_with_a_condition() -> None:
    rules, state = set_up(3)
    in_force(state, "great-games")  # +1 VP at the end of the round to a player with food 3 or less
    side = example().map_for(3)
    low = {f for f in state.in_play() if food_supply(state, side, f) <= 3}
    vp = {f: state.players[f].vp for f in state.in_play()}
    state, _ = run(rules, at(state, "end_of_round"))
    assert {f: state.players[f].vp for f in vp} == {f: vp[f] + (1 if f in low else 0) for f in vp}


def test_ER_13_6_next_round_draws_at_the_start_of_the_next_round_hidden_from_others() -> None:
    rules, state = set_up(3)
    in_force(state, "war-council")  # next_round: every player draws one tactic card
    hands = {f: len(state.players[f].hand) for f in state.in_play()}
    top = state.decks.tactics[:3]
    state, events = run(rules, at(state, "end_of_round"))
    assert state.round == 3 and state.decks.chronicle is None
    assert {f: len(state.players[f].hand) for f in hands} == {f: n + 1 for f, n in hands.items()}
    drawn = [e for e in events if e.kind == "tactic_drawn"]
    assert [e.data["card"] for e in drawn] == top  # the deck's top cards, in turn order (ER-0.5)
    assert all(e.visible_to == frozenset({e.seat}) for e in drawn)


def test_ER_13_6_game_end_vp_per_counter_at_final_scoring() -> None:
    rules, state = set_up(3)
    data = example()
    before = rounds.final_scores(state, data)["kesh"]
    state.players["kesh"].board = "alternative-1"  # game_end: 1 VP per full 3 coins
    state.players["kesh"].coins = 11
    assert rounds.final_scores(state, data)["kesh"] == before + 11 // 3 + (11 // 5 - 0)
    state.players["thal"].board = "alternative-2"  # game_end: 1 VP per district
    thal = rounds.final_scores(state, data)["thal"]
    state.players["thal"].districts["granary"] = 2
    state.supply.districts["granary"] -= 2
    per = data.tracks.scoring.vp_per_district
    assert rounds.final_scores(state, data)["thal"] == thal + 2 * per + 2


def test_ER_10_3_a_controlled_capital_scores_10_vp_even_with_its_fort_blanked() -> None:
    data = example()
    side = data.map_for(3)
    assert side.areas["SUN"].capital == "sunmar" and side.areas["SUN"].fort == "large"  # sunmar plays at 4+
    blanked = replace(side, blanked={**side.blanked, 3: (*side.blanked.get(3, ()), "SUN")})
    data = replace(data, maps={**data.maps, side.side: blanked})
    rules, state = game_with(data)
    assert blanked.fort_at("SUN", 3) == "none"
    state.army.pop("SUN", None)
    before = rounds.final_scores(state, data)["kesh"]
    state.army["SUN"] = Army("kesh", {"infantry": 1})
    state.army["KES"].add("infantry", -1)
    assert rounds.final_scores(state, data)["kesh"] == before + 10  # ER-10.3: each capital controlled: 10


# -- recruit, discount, extra agent action, rerecruit (the plans step) ----------------------------------------------


def test_ER_13_6_recruit_of_the_chronicle_places_units_where_it_says_within_food() -> None:
    rules, state = plans_position()
    in_force(state, "fortify")  # preparation: 1 archer in a large fort, food not respected
    archers = {f: sum(a.count("archer") for a in state.army.values() if a.owner == f) for f in state.in_play()}
    result = play_plans(rules, state, {})
    after = result.state
    for faction in state.in_play():
        assert sum(a.count("archer") for a in after.army.values() if a.owner == faction) == archers[faction] + 1
    assert after.army["AUR"].count("archer") == state.army["AUR"].count("archer") + 1  # aurel's large fort


def test_ER_13_6_recruit_respecting_food_stops_at_the_food_limit() -> None:
    rules, state = plans_position()
    in_force(state, "levy")  # preparation: 1 infantry in a controlled area, within the food limit
    data = example()
    full = {f for f in state.in_play() if standard_units(state, f) >= food_limit(state, data, f)}
    result = play_plans(rules, state, {})
    for faction in state.in_play():
        grown = standard_units(result.state, faction) - standard_units(state, faction)
        assert grown == (0 if faction in full else 1)


def test_ER_13_6_discount_lowers_district_upgrade_hero_and_elite_prices() -> None:
    _, plain = plans_position()
    data = ability(
        "kesh",
        effect("discount", "on_build", target="district", n=1),
        effect("discount", "preparation", target="elite", n=2),
    )
    rules, state = game_with(data)
    state = to_phase(rules, state, "plans")
    state.players["kesh"].coins = plain.players["kesh"].coins = 30
    texts = {"kesh": "AGENT BAZAAR\nRECRUIT ELITE"}
    cheap = play_plans(rules, state, texts)
    full = play_plans(load_ruleset("conqueror-er").with_data(example()), plain, texts)  # type: ignore[attr-defined]
    price = next(e for e in full.events if e.kind == "district_built").data["price"]
    assert next(e for e in cheap.events if e.kind == "district_built").data["price"] == max(0, price - 1)
    cost = next(e for e in full.events if e.kind == "elite_recruited").data["cost"]
    assert next(e for e in cheap.events if e.kind == "elite_recruited").data["cost"] == max(0, cost - 2)


def test_ER_13_6_extra_agent_action_of_the_chronicle_holds_from_round_3() -> None:
    rules, state = plans_position()
    in_force(state, "envoys")  # extra agent action for all, from round 3
    texts = {"kesh": "AGENT TRADE WITH aurel\nEXTRA AGENT TRADE WITH thal"}
    state.round = 2
    refused = play_plans(rules, state.copy(), texts)
    assert not verdict(refused, "kesh", 3).accepted and verdict(refused, "kesh", 3).rule == "ER-5.6"
    state.round = 3
    taken = play_plans(rules, state, texts)
    assert verdict(taken, "kesh", 3).accepted and taken.state.players["kesh"].trade == 3


def test_ER_13_6_rerecruit_of_heroes_lets_discarded_heroes_back_without_an_academy() -> None:
    rules, state = plans_position()
    player = state.players["kesh"]
    own = [h.id for h in example().cards.heroes if h.faction == "kesh"]
    player.heroes_down, player.heroes_up, player.heroes_discarded, player.coins = [], {}, list(own), 20
    text = {"kesh": f"RECRUIT HERO {own[0]}"}
    refused = play_plans(rules, state.copy(), text)
    assert not verdict(refused, "kesh").accepted and verdict(refused, "kesh").rule == "ER-6.12"
    in_force(state, "heroes-return")
    taken = play_plans(rules, state, text)
    assert verdict(taken, "kesh").accepted and own[0] in taken.state.players["kesh"].heroes_down


def test_ER_13_6_look_hand_on_trade_is_a_notice_to_the_looker_only() -> None:
    data = ability("kesh", effect("look_hand", "on_trade", target="partner"))
    rules, state = game_with(data)
    state = to_phase(rules, state, "plans")
    result = play_plans(rules, state, {"kesh": "AGENT TRADE WITH aurel"})
    seen = [e for e in result.events if e.kind == "hand_seen"]
    assert seen and seen[-1].visible_to == frozenset({"kesh"})
    assert seen[-1].data["hand"] == state.players["aurel"].hand


# -- campaign: forbid_attack, move_twice ------------------------------------------------------------------------------


def test_ER_13_6_forbid_attack_of_the_chronicle_refuses_an_attack_on_independents() -> None:
    rules, state = campaign_of("aurel")
    in_force(state, "truce")
    assert state.army["MIR"].owner == "independent"
    result = play_campaign(rules, state, "aurel", [], "MOVE 1 CAV 1 INF: AUR -> MIR")
    assert verdicts(result, "aurel") == [(False, "ER-13.6")]
    assert result.state.army["MIR"].owner == "independent"


def test_ER_13_6_move_twice_of_a_board_ability_lets_its_elite_move_twice() -> None:
    rules, state = set_up(5)
    data = example()
    assert "elite" not in thoroughbred_units(state, data, "varun")
    state.players["varun"].board = "alternative-1"  # its elite: move_twice own.elite, while on the map
    assert thoroughbred_units(state, data, "varun") == frozenset()
    state.players["varun"].elite = "recruited"
    state.army["VAR"].add("elite", 1)
    assert thoroughbred_units(state, data, "varun") == frozenset({"elite"})


# -- what stays the moderator's ------------------------------------------------------------------------------------


def test_ER_13_6_manual_and_battle_only_effects_outside_battle_are_named_for_the_moderator() -> None:
    data = ability(
        "kesh",
        effect("manual", "taxation", text="the moderator decides"),
        effect("coins", "taxation", n=1, conditions=(Condition("attacking"),)),
    )
    rules, state = game_with(data)
    coins = state.players["kesh"].coins
    printed = rounds.income(state, data, "kesh")
    state, events = run(rules, at(state, "taxation"))
    manual = [e for e in events if e.kind == "manual_effect" and e.seat == "kesh"]
    assert [e.data["op"] for e in manual] == ["manual", "coins"]
    assert state.players["kesh"].coins == coins + printed  # nothing applied by guess


def test_leak_ER_13_6_look_hand_reaches_the_looker_only(pbem: Pbem, tmp_path: Path) -> None:
    """Through the CLI: kesh's ability shows a trade partner's hand (look_hand on_trade); aurel's cards are named
    in kesh's report, never in a public file or the site, nor in thal's files unless thal holds the same card."""
    folder = data_copy(tmp_path)
    factions = folder / "factions.toml"
    sailors = 'text = "Sailors: +1 in sea battles.", if = ["at_sea"], when = "battle.melee" },\n'
    text = factions.read_text(encoding="utf-8")
    assert sailors in text
    factions.write_text(
        text.replace(sailors, sailors + '  { op = "look_hand", target = "partner", when = "on_trade" },\n', 1),
        encoding="utf-8",
    )
    created = new_er(pbem, folder, seats=SEATS3)
    assert created.startswith("0\n"), created
    for line in created.splitlines():  # each seat's password, as `pbem new` prints it
        parts = line.split()
        if len(parts) == 2 and parts[0] in SEATS3:
            pbem.passwords[parts[0]] = parts[1]
    assert pbem("adjudicate", "er1", "--now").exit_code == 0  # taxation (ER-5.2)
    hands = {seat: part["hand"] for seat, part in whole_snapshot(pbem, PLANS - 1)["private"].items()}
    names = {t.id: t.name for t in load_folder(folder).cards.tactics}
    submit(pbem, "kesh", "AGENT TRADE WITH aurel")
    assert pbem("adjudicate", "er1", "--now").exit_code == 0
    game = pbem.data / "games" / "er1"
    own = (game / f"turn-{PLANS:04d}" / "report-kesh.txt").read_text(encoding="utf-8")
    assert hands["aurel"] and all(card in own for card in hands["aurel"])  # the looker sees them
    site = tmp_path / "site"
    assert pbem("site", "er1", "--out", str(site)).exit_code == 0
    public = [p for p in game.rglob("*") if p.is_file() and p.name in ("report.txt", "snapshot.json")]
    public += [p for p in site.rglob("*") if p.is_file()]
    thal = [p for p in game.rglob("*") if p.is_file() and "thal" in p.name]
    checked = 0
    for path in public + thal:
        content = path.read_text(encoding="utf-8")
        for card in hands["aurel"]:
            if path in public or card not in hands["thal"]:
                assert card not in content and names[card] not in content, f"{card} of aurel in {path}"
                checked += 1
    assert checked >= len(public)


def test_ER_13_6_campaign_turn_effects_apply_at_the_start_of_the_seats_turn() -> None:
    rules, state = game_with(ability("aurel", effect("coins", "campaign_turn", n=2)))
    state.phase, state.campaign_index = "campaign", state.in_play().index("aurel")
    coins = {f: p.coins for f, p in state.players.items()}
    result = play_campaign(rules, state, "aurel", [])
    assert result.state.players["aurel"].coins == coins["aurel"] + 2
    assert all(result.state.players[f].coins == coins[f] for f in coins if f != "aurel")
