"""Conqueror: Empire Rises rules pinned at their thresholds: each test resolves a real position through the
ruleset at the boundary the rule names and one step past it, so a changed number or comparison fails here.
Battles use the helpers of tests/test_conqueror_battle.py (dice-file numbers: ER-0.4)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from adjudicator.render.i18n import engine_text, gettext
from adjudicator.rulesets.conqueror.battle_types import (
    ATTACKER,
    DEFENDER,
    Battle,
    Neighbour,
    Plan,
    Reinforcement,
    Standing,
)
from adjudicator.rulesets.conqueror.data import Units
from adjudicator.rulesets.conqueror.rounds import hourglass_holder
from adjudicator.rulesets.conqueror.state import (
    DYNASTY_ACTIVE,
    DYNASTY_UNUSED,
    FOOD_HELD,
    INDEPENDENT,
    Army,
    GameState,
    controlled_areas,
    food_supply,
    fort_count,
    fort_of,
    large_and_small_forts,
)
from tests.test_conqueror_battle import CARDS, FOUR, FREE_MEN, NEIGHBOURS, ONE, THREE, TWO, army, battle, run
from tests.test_conqueror_campaign import blocker_position, units, verdicts
from tests.test_conqueror_campaign import play as campaign_play
from tests.test_conqueror_politics import plans_position, verdict
from tests.test_conqueror_politics import play as plans_play
from tests.test_conqueror_seas import sod_plans
from tests.test_conqueror_setup import run as run_step
from tests.test_conqueror_state import example, set_up


def take(state: GameState, faction: str, kind: str, n: int) -> None:
    """Give `faction` `n` more areas with a fort of `kind` (no capital of a seat in play, no seat's army), one
    infantry each; short of small forts, built fort markers make more (ER-2.6: a small fort in every respect)."""
    side = example().map_for(state.players_count)
    capitals = {side.capital_of(f) for f in state.in_play()}
    free = [
        a
        for a, x in sorted(side.areas.items())
        if x.land and a not in capitals and state.army.get(a, Army(INDEPENDENT)).owner == INDEPENDENT
    ]
    chosen = [a for a in free if fort_of(state, side, a) == kind][:n]
    if kind == "small":
        built = [a for a in free if fort_of(state, side, a) == "none"][: n - len(chosen)]
        state.fort_markers += built
        chosen += built
    assert len(chosen) == n, (kind, free)
    for area in chosen:
        state.army[area] = Army(faction, {"infantry": 1})


# -- ER-0.4: the die --------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("index", "face"), [(1, 1), (2, 1), (3, 2), (4, 3), (5, 4), (6, 4)])
def test_ER_0_4_each_die_index_gives_its_face_in_the_melee(index: int, face: int) -> None:
    outcome, _ = run(battle(army("a", "O", infantry=1), army("d", "X", infantry=1)), [index, ONE])
    assert outcome.strengths[ATTACKER] == 1 + face


@pytest.mark.parametrize(("index", "hit"), [(1, False), (2, False), (3, False), (4, False), (5, True), (6, True)])
def test_ER_0_4_an_archer_hits_only_on_the_two_faces_of_four(index: int, hit: bool) -> None:
    """The volley reads the same die: faces 1, 1, 2, 3 miss and 4, 4 hit (ER-8.12's 4)."""
    b = battle(army("a", "O", archer=1, infantry=1), army("d", "X", infantry=2))
    outcome, _ = run(b, [index, ONE, ONE])
    assert outcome.strengths[DEFENDER] == (2 - int(hit)) + 1


# -- ER-9.4 Aggression: 1 casualty with cavalry, 1 more on a win by 4 or more --------------------------------------
def test_ER_9_4_aggression_adds_one_more_casualty_at_a_margin_of_four_not_three() -> None:
    b = battle(
        army("a", "O", cavalry=3, upgrades=frozenset({"aggression"})), army("d", "X", infantry=5), neighbours=NEIGHBOURS
    )
    three, _ = run(b, [THREE, ONE])  # 6+3 vs 5+1: margin 3
    assert three.winner == ATTACKER and three.casualties[DEFENDER].blockable == 1 + 1
    four, _ = run(b, [FOUR, ONE])  # 6+4 vs 5+1: margin 4
    assert four.winner == ATTACKER and four.casualties[DEFENDER].blockable == 1 + 2


def test_ER_9_4_aggression_needs_one_own_cavalry_in_the_battle() -> None:
    ups = frozenset({"aggression"})
    foot, _ = run(battle(army("a", "O", infantry=6, upgrades=ups), army("d", "X", infantry=5)), [TWO, ONE])
    assert foot.casualties[DEFENDER].blockable == 1  # the defeat casualty only
    one, _ = run(battle(army("a", "O", infantry=4, cavalry=1, upgrades=ups), army("d", "X", infantry=5)), [TWO, ONE])
    assert one.casualties[DEFENDER].blockable == 1 + 1


# -- ER-8.24: the beaten defender's retreat -------------------------------------------------------------------
def test_ER_8_24_a_land_defender_never_retreats_to_sea_and_is_eliminated_without_land() -> None:
    near = (Neighbour("S", False), Neighbour("E", True, controller="e"))
    outcome, _ = run(battle(army("a", "O", infantry=4), army("d", "X", infantry=3), neighbours=near), [FOUR, ONE])
    move = next(m for m in outcome.moves if m.player == "d")
    assert move.to is None and move.options == () and move.units == {"infantry": 2}
    # one step over: the same neighbours around a sea area let the survivors into the sea
    at_sea, _ = run(
        battle(army("a", "O", infantry=4), army("d", "X", infantry=3), land=False, neighbours=near), [FOUR, ONE]
    )
    assert next(m for m in at_sea.moves if m.player == "d").to == "S"


# -- ER-8.25 and ER-15.15: winners and losers without survivors -------------------------------------------------
def test_ER_8_25_a_winner_without_survivors_still_drives_the_defenders_survivors_out() -> None:
    b = battle(
        army("a", "O", cavalry=1, hand=("raid",)), army("d", "X", infantry=4, hand=("raid",)), neighbours=NEIGHBOURS
    )
    outcome, _ = run(b, [FOUR, ONE], {"a": Plan(tactics=("raid",)), "d": Plan(tactics=("raid",))})
    assert outcome.winner == ATTACKER and not outcome.conquered  # 2+4 vs 4+1; the raid kills the cavalry
    retreat = [m for m in outcome.moves if m.player == "d"]
    assert [(m.source, m.units) for m in retreat] == [("X", {"infantry": 1})] and retreat[0].to is not None
    assert not [m for m in outcome.moves if m.player == "a"]
    assert any(e.rule == "ER-8.25" for e in outcome.events)


def test_ER_8_25_a_defender_that_wins_without_survivors_leaves_the_area_empty() -> None:
    b = battle(army("a", "O", infantry=3, hand=("raid",)), army("d", "X", infantry=2), neighbours=NEIGHBOURS)
    outcome, _ = run(b, [ONE, FOUR], {"a": Plan(tactics=("raid",))})
    assert outcome.winner == DEFENDER and not outcome.conquered  # 3+1 vs 2+4
    assert outcome.losses["d"]["infantry"] == 2 and outcome.losses["a"]["infantry"] == 1
    assert [(m.player, m.to, m.units) for m in outcome.moves] == [("a", "O", {"infantry": 2})]


@pytest.mark.parametrize(("units", "lost", "survive"), [(2, 2, 0), (3, 3, 0), (4, 3, 1)])
def test_ER_15_15_casualties_beyond_the_units_are_ignored_and_none_retreat(units: int, lost: int, survive: int) -> None:
    """Three casualties (1 for the defeat, 2 for the raid) against 2, 3 and 4 defending units."""
    b = battle(army("a", "O", cavalry=3, hand=("raid",)), army("d", "X", infantry=units), neighbours=NEIGHBOURS)
    outcome, _ = run(b, [FOUR, ONE], {"a": Plan(tactics=("raid",))})
    assert outcome.winner == ATTACKER and outcome.casualties[DEFENDER].net == 3
    assert outcome.losses["d"]["infantry"] == lost
    retreat = [m.units for m in outcome.moves if m.player == "d"]
    assert retreat == ([{"infantry": survive}] if survive else [])


# -- ER-10.1: forts to win at the end of the round ---------------------------------------------------------------
@pytest.mark.parametrize(("mode", "needed"), [("conquest", 5), ("imperator", 6)])
def test_ER_10_1_one_fort_short_plays_on_and_the_number_wins(mode: str, needed: int) -> None:
    for forts, wins in ((needed - 1, False), (needed, True)):
        rules, state = set_up(4, mode)
        side = example().map_for(4)
        take(state, "aurel", "small", forts - fort_count(state, side, "aurel"))
        assert fort_count(state, side, "aurel") == forts
        state.phase = "end_of_round"
        after, events = run_step(rules, state)
        assert after.ended is wins, (mode, forts)
        assert (after.winners == ["aurel"]) is wins and (events[-1].kind == "game_won") is wins


# -- ER-11.5: the dynasty card's fort limit (at most 1 large and 2 small forts) -----------------------------------
@pytest.mark.parametrize(("large", "small", "allowed"), [(1, 2, True), (2, 2, False), (1, 3, False)])
def test_ER_11_5_the_dynasty_is_refused_one_fort_past_its_limit(large: int, small: int, allowed: bool) -> None:
    rules, state = plans_position()
    state.round = 2
    side = example().map_for(state.players_count)
    have = large_and_small_forts(state, side, "aurel")
    take(state, "aurel", "large", large - have[0])
    take(state, "aurel", "small", small - have[1])
    assert large_and_small_forts(state, side, "aurel") == (large, small)
    result = plans_play(rules, state, {"aurel": "DYNASTY"})
    answer = verdict(result, "aurel")
    assert answer.accepted is allowed
    assert result.state.players["aurel"].dynasty == (DYNASTY_ACTIVE if allowed else DYNASTY_UNUSED)
    if not allowed:
        assert answer.rule == "ER-11.5" and "at most 1 large and 2 small forts" in answer.reason


# -- ER-12.5: the Persian block stops an army of strength 5 or less -------------------------------------------------
@pytest.mark.parametrize(("infantry", "blocked"), [(1, True), (2, False)])
def test_ER_12_5_an_army_of_strength_five_is_blocked_and_six_moves(infantry: int, blocked: bool) -> None:
    rules, state = blocker_position(3, "BLOCK aurel")  # no MAX: the board's own 5
    state.army["AUR"] = Army("aurel", {"cavalry": 2, "infantry": 2})
    result = campaign_play(rules, state, "aurel", [], f"MOVE 2 CAV {infantry} INF: AUR -> SOL")  # 4 + infantry
    assert verdicts(result, "aurel") == [(False, "ER-12.5") if blocked else (True, "")]
    assert result.state.players["varun"].coins == (2 if blocked else 3)
    assert units(result.state, "SOL") == (None if blocked else ("aurel", {"cavalry": 2, "infantry": 2}))


# -- ER-5.17: two builds of one type in one round, priced by ER-5.16 ------------------------------------------------
def test_ER_5_17_a_second_build_of_a_type_in_the_same_round_is_allowed_at_the_second_price() -> None:
    rules, state = plans_position()
    kesh = state.players["kesh"]
    kesh.trade, kesh.coins = 8, 30  # the last trade space: the extra action of ER-5.6
    result = plans_play(rules, state, {"kesh": "AGENT GRANARY\nEXTRA AGENT GRANARY SPACE 2"})
    assert verdict(result, "kesh").accepted and verdict(result, "kesh", 3).accepted
    after = result.state.players["kesh"]
    assert after.districts == {"granary": 2} and after.builds == {"granary": 2}
    assert after.coins == 30 - 5 - (6 + 2)  # 1st price; 2nd price + 2 on the second space (ER-5.16)


@pytest.mark.parametrize(("kind", "built", "price"), [("granary", 2, 7), ("granary", 5, 7), ("academy", 2, 6)])
def test_ER_5_16_the_third_and_later_builds_pay_the_last_price(kind: str, built: int, price: int) -> None:
    rules, state = plans_position()
    kesh = state.players["kesh"]
    kesh.coins, kesh.builds = 20, {kind: built}
    result = plans_play(rules, state, {"kesh": f"AGENT {kind.upper()}"})
    assert verdict(result, "kesh").accepted and result.state.players["kesh"].coins == 20 - price


# -- ER-12.2: two siege engines in each barracks ------------------------------------------------------------------
@pytest.mark.parametrize(("before", "asked", "allowed"), [(0, 2, True), (0, 3, False), (1, 1, True), (1, 2, False)])
def test_ER_12_2_a_third_siege_engine_is_refused(before: int, asked: int, allowed: bool) -> None:
    rules, state = sod_plans()
    assert state.seas is not None
    state.seas.siege_recruited["kesh"] = before  # recruited before and eliminated since (ER-12.18)
    state.players["kesh"].coins = 20
    result = plans_play(rules, state, {"kesh": f"RECRUIT {asked} SIEGE AT KES"})
    answer = verdict(result, "kesh")
    assert answer.accepted is allowed
    assert result.state.army["KES"].count("siege") == (asked if allowed else 0)
    assert result.state.players["kesh"].coins == 20 - (4 * asked if allowed else 0)
    if not allowed:  # the limit is the barracks' 2 (ER-12.2); ER-12.18 only says why none come back
        assert answer.rule == "ER-12.2" and answer.reason == (
            f"each barracks holds 2 siege engines and kesh has {2 - before} left; an eliminated one is out of the game"
        )


@pytest.mark.parametrize("language", ["de", "it", "nl"])
def test_ER_12_2_the_siege_refusal_stored_by_older_archives_still_translates(language: str) -> None:
    """Archives store the English reason: the text refusals carried when they cited ER-12.18 stays translatable."""
    stored = "kesh has 1 siege engines left; an eliminated one is out of the game"
    msgid = "%(faction)s has %(left)s siege engines left; an eliminated one is out of the game"
    assert engine_text(language, stored) == gettext(language, msgid, faction="kesh", left="1") != stored
    now = "each barracks holds 2 siege engines and kesh has 1 left; an eliminated one is out of the game"
    new_id = (
        "each barracks holds %(limit)s siege engines and %(faction)s has %(left)s left; an eliminated one is out of "
        "the game"
    )
    assert engine_text(language, now) == gettext(language, new_id, limit="2", faction="kesh", left="1") != now


# -- ER-14.9: a silent seat recruits nothing and does not use its stored food ------------------------------------------
def test_ER_14_9_a_silent_seat_recruits_nothing_and_keeps_its_stored_food() -> None:
    rules, state = plans_position()
    kesh = state.players["kesh"]
    kesh.coins, kesh.stored_food = 30, FOOD_HELD
    state.supply.food_markers -= 1
    state.army["KES"].add("archer", -1)  # room under the food limit (ER-6.5) for the fort's production
    army, heroes = dict(state.army["KES"].units), (dict(kesh.heroes_up), list(kesh.heroes_down))
    result = plans_play(rules, state, {})
    after = result.state.players["kesh"]
    assert result.state.army["KES"].units == army and (after.heroes_up, after.heroes_down) == heroes
    assert after.stored_food == FOOD_HELD and result.state.supply.food_markers == state.supply.food_markers
    assert not [e for e in result.events if e.seat == "kesh" and "recruit" in e.kind]
    assert after.coins == 30
    # one step over: the same seat that orders a recruitment gets it
    ordered = plans_play(rules, state, {"kesh": "RECRUIT 1 CAV AT KES"})
    assert verdict(ordered, "kesh").accepted and ordered.state.army["KES"].count("cavalry") == army["cavalry"] + 1


# -- battle losses: the numbers and comparisons a mutation run left unpinned ------------------------------------------
def test_ER_9_4_discipline_needs_one_own_infantry_in_the_battle() -> None:
    ups = frozenset({"discipline"})
    riders, _ = run(battle(army("a", "O", cavalry=3), army("d", "X", cavalry=1, upgrades=ups)), [FOUR, ONE])
    assert riders.casualties[DEFENDER].shields == 0 and riders.losses["d"]["cavalry"] == 1
    foot, _ = run(battle(army("a", "O", cavalry=3), army("d", "X", cavalry=1, infantry=1, upgrades=ups)), [FOUR, ONE])
    assert foot.casualties[DEFENDER].shields == 1


def test_ER_8_24_two_survivors_are_enough_to_leave_one_behind() -> None:
    b = battle(army("a", "O", cavalry=1, infantry=1), army("d", "X", infantry=1), neighbours=NEIGHBOURS)
    outcome, _ = run(b, [FOUR, ONE], {"a": Plan(leave_behind="cavalry")})
    assert outcome.conquered and not outcome.independent_removed  # a player's army is beaten, not removed
    assert [(m.source, m.to, m.units) for m in outcome.moves if m.player == "a"] == [("O", "X", {"infantry": 1})]
    assert [e.data for e in outcome.events if e.what == "left_behind"] == [{"kind": "cavalry", "area": "O"}]


def test_ER_8_32_the_automa_casualty_adds_to_the_defeat_casualty() -> None:
    b = Battle("X", True, army("a", "O", cavalry=2, infantry=1), independent=Units(cavalry=3), cards=CARDS)
    outcome, _ = run(replace(b, automa_deck=("mid",)), [ONE])  # 5+1 against 6+2
    assert outcome.winner == DEFENDER
    assert (outcome.casualties[ATTACKER].blockable, outcome.casualties[ATTACKER].unblockable) == (1 + 1, 0)
    assert sum(outcome.losses["a"].values()) == 2


def test_ER_8_33_an_independent_army_wiped_out_on_a_tie_leaves_the_game() -> None:
    attacker = army("a", "O", cavalry=2, infantry=1, hand=("raid",))
    b = Battle("X", True, attacker, independent=Units(cavalry=2), cards=CARDS, automa_deck=("mid",))  # type: ignore[arg-type]
    outcome, _ = run(b, [ONE], {"a": Plan(tactics=("raid",))})  # 5+1 against 4+2: a tie, the raid kills both
    assert outcome.winner is None and outcome.independent_removed and not outcome.conquered
    still, _ = run(
        Battle(**{**b.__dict__, "independent": Units(cavalry=2, infantry=1)}), [TWO], {"a": Plan(tactics=("raid",))}
    )
    assert still.winner is None and not still.independent_removed  # one independent unit survives: it stays


def test_ER_8_21_two_unblockable_casualties_add_up() -> None:
    a = army("a", "O", cavalry=4, hand=("breach",), heroes={"butcher": 0})
    b = battle(a, army("d", "X", infantry=3), fort="large", neighbours=NEIGHBOURS)
    outcome, _ = run(b, [FOUR, ONE], {"a": Plan(tactics=("breach",), heroes=("butcher",))})
    assert outcome.winner == ATTACKER and outcome.casualties[DEFENDER].unblockable == 1 + 1


def test_ER_8_20_free_men_remove_an_infantry_unit_never_the_archer() -> None:
    gaul = army("a", "O", infantry=2, archer=1, elite=FREE_MEN)
    outcome, _ = run(
        battle(gaul, army("d", "X", infantry=1), neighbours=NEIGHBOURS), [ONE, FOUR, ONE], {"a": Plan(free_men=True)}
    )
    assert outcome.winner == ATTACKER and outcome.casualties[ATTACKER].net == 0
    assert outcome.losses["a"]["infantry"] == 1 and outcome.losses["a"]["archer"] == 0


def test_ER_8_22_ER_14_17_a_players_losses_in_two_areas_add_up() -> None:
    own = (Reinforcement(army("a", "P", infantry=1), ATTACKER),)
    b = battle(army("a", "O", infantry=2), army("d", "X", infantry=6, hand=("raid",)), reinforcements=own)
    outcome, _ = run(b, [ONE, FOUR], {"d": Plan(tactics=("raid",))})  # 3 casualties: 1 defeat + 2 raid
    assert outcome.winner == DEFENDER and outcome.losses["a"]["infantry"] == 3
    assert outcome.area_losses[("a", "P")]["infantry"] == 1 and outcome.area_losses[("a", "O")]["infantry"] == 2


def test_ER_14_16_the_defender_hands_the_attackers_casualty_to_its_ally() -> None:
    ally = (Reinforcement(army("c", "N", infantry=1), ATTACKER),)
    b = battle(army("a", "O", infantry=1), army("d", "X", infantry=5), reinforcements=ally)
    outcome, _ = run(b, [ONE, FOUR], orders={"d": Standing(assign_order=("c",))})
    assert outcome.winner == DEFENDER
    assert outcome.losses["c"]["infantry"] == 1 and outcome.losses["a"]["infantry"] == 0
    default, _ = run(b, [ONE, FOUR])  # ER-14.16 default: the principal first
    assert default.losses["a"]["infantry"] == 1 and default.losses["c"]["infantry"] == 0


def test_ER_8_21_ER_8_22_the_report_names_each_sides_casualties_and_each_unit_lost() -> None:
    """The battle report (rendered for the players) carries the numbers and rules of step 5 and the conquest."""
    b = battle(
        army("a", "O", cavalry=3, hand=("raid",)), army("d", "X", infantry=4, hand=("wall",)), neighbours=NEIGHBOURS
    )
    outcome, _ = run(b, [FOUR, ONE], {"a": Plan(tactics=("raid",)), "d": Plan(tactics=("wall",))})
    said = [(e.rule, e.what, dict(e.data)) for e in outcome.events]
    casualties = [x for x in said if x[1] == "casualties"]
    assert casualties == [
        ("ER-8.21", "casualties", {"side": ATTACKER, "blockable": 0, "unblockable": 0, "shields": 0, "net": 0}),
        ("ER-8.21", "casualties", {"side": DEFENDER, "blockable": 1 + 2, "unblockable": 0, "shields": 2, "net": 1}),
    ]
    lost = [x for x in said if x[1] == "unit_lost"]
    assert lost == [("ER-8.22", "unit_lost", {"player": "d", "kind": "infantry", "area": "X"})]
    assert [(m.player, m.why) for m in outcome.moves] == [("d", "ER-8.24"), ("a", "ER-8.24")]
    beaten, _ = run(battle(army("a", "O", infantry=2), army("d", "X", infantry=3)), [ONE, FOUR])
    assert [(m.player, m.to, m.why) for m in beaten.moves] == [("a", "O", "ER-8.24")]
    empty, _ = run(
        battle(army("a", "O", infantry=1, hand=("raid",)), army("d", "X", infantry=2, hand=("raid",))),
        [FOUR, ONE],
        {"a": Plan(tactics=("raid",)), "d": Plan(tactics=("raid",))},
    )
    assert [(e.rule, e.what) for e in empty.events if e.what == "area_left_empty"] == [("ER-8.25", "area_left_empty")]


# -- ER-4.4.1 and ER-4.6: the round's bookkeeping ------------------------------------------------------------------
def test_ER_4_4_1_a_tie_passes_the_hourglass_clockwise_from_any_seat_the_holder_last() -> None:
    rules, state = set_up(4)
    data = example()
    side = data.map_for(4)
    foods = {f: food_supply(state, side, f) for f in state.in_play()}
    for faction in state.in_play():  # every player ties on forts (its capital) and food
        state.players[faction].food_bonus = max(foods.values()) - foods[faction]
    seating = list(state.seating)
    state.hourglass = seating[2]
    assert hourglass_holder(state, data) == seating[3]
    state.players[seating[3]].food_bonus += 1
    state.players[seating[0]].food_bonus += 1
    assert hourglass_holder(state, data) == seating[1]  # clockwise 3, 0, 1: the first tied one
    state.players[seating[1]].food_bonus += 1
    assert hourglass_holder(state, data) == seating[2]  # the holder alone is left: reached last


def test_ER_4_6_the_round_ends_with_its_food_bonus_chronicle_and_campaign_turn_cleared() -> None:
    rules, state = set_up(4)
    state.players["aurel"].food_bonus = 2
    card = state.decks.chronicles.pop(0)
    state.decks.chronicle = card
    state.phase, state.campaign_index = "end_of_round", 3
    after, _ = run_step(rules, state)
    assert after.round == 2 and after.phase == "new_year" and after.campaign_index == 0
    assert after.players["aurel"].food_bonus == 0  # ER-5.30: food for this round only
    assert after.decks.chronicle is None and after.decks.chronicles_done[-1] == card  # ER-4.4.4


def test_ER_8_33_ER_12_14_the_moves_of_a_beaten_independent_army_and_of_beaten_ships() -> None:
    b = Battle("X", True, army("a", "O", cavalry=2, infantry=1), independent=Units(cavalry=2, infantry=2), cards=CARDS)
    outcome, _ = run(replace(b, automa_deck=("weak",)), [FOUR])  # 5+4 against 6+1: 1 defeat casualty
    assert outcome.winner == ATTACKER and outcome.independent_removed
    gone = next(m for m in outcome.moves if m.player == INDEPENDENT)
    assert (gone.units, gone.source, gone.to, gone.why) == ({"cavalry": 2, "infantry": 1}, "X", None, "ER-8.33")
    near = (Neighbour("S", False), Neighbour("L", True))
    fleet = battle(army("a", "O", ship=3), army("d", "X", ship=2), land=False, neighbours=near)
    sea, _ = run(fleet, [FOUR, ONE])  # 6+4 against 4+1: one casualty, a ship (ER-12.15)
    ships = next(m for m in sea.moves if m.player == "d")
    assert (ships.units, ships.source, ships.to, ships.why, ships.options) == (
        {"ship": 1},
        "X",
        "S",
        "ER-12.14",
        ("S",),
    )


# -- ER-5.2 with ER-11.2: taxation adds to the coins held --------------------------------------------------------
@pytest.mark.parametrize(("bazaars", "temporary", "extra"), [(0, False, 0), (2, False, 4), (0, True, 1)])
def test_ER_5_2_ER_11_2_taxes_add_two_per_bazaar_and_one_for_a_temporary_capital(
    bazaars: int, temporary: bool, extra: int
) -> None:
    rules, state = set_up(4)
    side = example().map_for(4)
    player = state.players["aurel"]
    player.coins = 7
    if bazaars:
        player.districts["bazaar"] = bazaars
        state.supply.districts["bazaar"] -= bazaars
    if temporary:  # aurel's capital held by thal: a temporary capital in a small fort (ER-11.1)
        capital = side.capital_of("aurel")
        assert capital is not None
        state.army[capital] = Army("thal", {"infantry": 1})
        area = next(a for a, x in sorted(side.areas.items()) if x.land and a not in state.army and not x.capital)
        state.army[area] = Army("aurel", {"infantry": 1})
        player.temporary_capital = area
    area_coins = sum(side.areas[a].coins for a in controlled_areas(state, side, "aurel"))
    after, events = run_step(rules, state)
    paid = 3 + area_coins + extra
    assert after.players["aurel"].coins == 7 + paid
    (taxes,) = [e for e in events if e.kind == "taxes" and e.seat == "aurel"]
    assert taxes.data == {"coins": paid, "total": 7 + paid}
