"""The battle of Conqueror: Empire Rises (ER-8, ER-9 in battle, ER-12 ships and siege engines, ER-15 battle
edges): each test sets up a battle, resolves it with given dice (ER-0.4: index i is face [1,1,2,3,4,4][i-1];
1 -> 1, 3 -> 2, 4 -> 3, 5 -> 4) and checks what the rule demands."""

from __future__ import annotations

from dataclasses import replace

import pytest

from adjudicator.engine.chance import GivenDice
from adjudicator.rulesets.conqueror.battle import publication, resolve_battle
from adjudicator.rulesets.conqueror.battle_types import (
    ATTACKER,
    DEFENDER,
    INDEPENDENT,
    Army,
    Battle,
    BattleError,
    BattleOutcome,
    Neighbour,
    Plan,
    Reinforcement,
    Standing,
)
from adjudicator.rulesets.conqueror.data import Automa, Cards, Effect, Elite, Hero, Options, Tactic, Units
from adjudicator.rulesets.conqueror.vocabulary import Condition, read_condition, read_selector, read_trigger

ONE, TWO, THREE, FOUR = 1, 3, 4, 5  # dice-file numbers giving faces 1, 2, 3, 4 (ER-0.4)


def eff(op: str, when: str = "battle.melee", *conds: str, who: str = "self", key: str = "", **args: object) -> Effect:
    """An effect of ER-13.6 written the way the data files write it."""
    conditions = []
    for text in conds:
        condition = read_condition(text)
        assert isinstance(condition, Condition)
        conditions.append(condition)
    typed = {k: read_selector(v) if k == "per" else v for k, v in args.items()}
    trigger = read_trigger(when)
    assert not isinstance(trigger, str) and hasattr(trigger, "name")
    return Effect(op, typed, trigger, who=who, conditions=tuple(conditions), key=key or f"test.{op}")  # type: ignore[arg-type]


def hero(hid: str, strength: int, *effects: Effect) -> Hero:
    return Hero(hid, "aurel", hid, 3, strength, tuple(effects))


def tactic(tid: str, strength: int, *effects: Effect) -> Tactic:
    return Tactic(tid, tid, 1, strength, tuple(effects))


CARDS = Cards(
    heroes=(
        hero("brute", 2),
        hero("warden", 1, eff("shields", "battle.casualties", n=1)),
        hero("butcher", 1, eff("casualties", "battle.casualties", "margin_ge(3)", n=1, unblockable=True)),
        hero("sage", 0, eff("manual", "battle.melee", key="sage.0", text="moderator decides")),
        hero("herald", 0, eff("manual", "battle.after_win", key="herald.0", text="after the win")),
        hero("marksman", 0, eff("archer_hit_on", "battle.volley", k=3)),
        hero("gambler", 0, eff("reroll", "battle.melee", what="melee_die", n=1)),
        hero("banker", 0, eff("coins", "battle.after_win", "won", n=2)),
    ),
    tactics=(
        tactic("wall", 0, eff("shields", "battle.casualties", n=2)),
        tactic("charge", 2, eff("strength", per="own.cavalry", cap=2, n=1)),
        tactic(
            "breach", 1, eff("casualties", "battle.casualties", "attacking", "area_fort(large)", n=1, unblockable=True)
        ),
        tactic("raid", 0, eff("casualties", "battle.casualties", n=2)),
        tactic("drill", 0, eff("archer_dice", "battle.volley", n=1)),
        tactic("aim", 0, eff("reroll", "battle.volley", what="volley_miss", n=1)),
        tactic("sap", 0, eff("strength", who="opponent", n=-2)),
        tactic("toll", 0, eff("draw_tactic", "battle.casualties", n=1)),
    ),
    automa=(
        Automa("weak", 1, 0),
        Automa("mid", 2, 1),
        Automa("strong", 3, 1, unblockable=True),
    ),
    chronicles=(),
    megaprojects=(),
)
FREE_MEN = Elite(
    "Free Men",
    frozenset({"infantry"}),
    2,
    2,
    effects=(
        eff("strength", "battle.melee", "own_units(infantry>=2)", n=2),
        eff("self_removal", "battle.casualties", type="infantry", n=1),
    ),
)
IMMORTALS = Elite("Immortals", frozenset({"infantry"}), 2, 3, effects=(eff("archer_dice", "battle.volley", n=1),))
CHARIOT = Elite(
    "Chariot", frozenset({"cavalry"}), 2, 3, effects=(eff("strength", "battle.melee", "enemy_units(infantry>=1)", n=1),)
)
COMPANIONS = Elite(
    "Companions",
    frozenset({"cavalry"}),
    2,
    3,
    effects=(eff("strength", "battle.melee", "accompanied_by(infantry)", n=1),),
)


def army(player: str, area: str, **kw: object) -> Army:
    return Army(player, area, **kw)  # type: ignore[arg-type]


def battle(attacker: Army, defender: Army | None = None, **kw: object) -> Battle:
    kw.setdefault("land", True)
    kw.setdefault("cards", CARDS)
    return Battle("X", attacker=attacker, defender=defender, **kw)  # type: ignore[arg-type]


def run(
    b: Battle,
    dice: list[int],
    plans: dict[str, Plan] | None = None,
    orders: dict[str, Standing] | None = None,
    **kw: object,
) -> tuple[BattleOutcome, GivenDice]:
    given = GivenDice(values=list(dice))
    outcome = resolve_battle(b, plans or {}, orders or {}, given, **kw)  # type: ignore[arg-type]
    assert given.unused == 0, f"{given.unused} dice left unused: {given.log}"
    return outcome, given


def lost(outcome: BattleOutcome, player: str) -> dict[str, int]:
    return {k: n for k, n in outcome.losses.get(player, {}).items() if n}


# -- ER-8.16 to ER-8.19: melee -----------------------------------------------------------------------------------
def test_ER_8_16_melee_sums_units_fort_and_one_die_each() -> None:
    b = battle(army("a", "O", cavalry=2, infantry=1), army("d", "X", infantry=2), fort="small")
    outcome, dice = run(b, [ONE, FOUR])
    assert outcome.strengths == {ATTACKER: 5 + 1, DEFENDER: 2 + 1 + 4}  # 2*2+1, 2*1 + small fort 1
    assert outcome.winner == DEFENDER
    assert [purpose for purpose, _ in dice.log] == ["melee attacker", "melee defender"]  # ER-0.5 (2)
    assert lost(outcome, "a") == {"infantry": 1}  # ER-14.13 default: archers, then infantry
    assert outcome.moves[0].to == "O" and outcome.moves[0].source == "X"  # ER-8.24: back to the origin


def test_ER_8_19_tie_no_defeat_casualty_and_attacker_returns() -> None:
    b = battle(army("a", "O", infantry=2), army("d", "X", infantry=2))
    outcome, _ = run(b, [THREE, THREE])
    assert outcome.winner is None
    assert outcome.losses["a"]["infantry"] == 0 and outcome.losses["d"]["infantry"] == 0  # ER-15.7
    assert [(m.player, m.to) for m in outcome.moves] == [("a", "O")]


def test_ER_15_7_tie_still_applies_card_casualties_and_shields() -> None:
    b = battle(army("a", "O", infantry=3, hand=("raid",)), army("d", "X", infantry=3, hand=("wall",)))
    plans = {"a": Plan(tactics=("raid",)), "d": Plan(tactics=("wall",))}
    outcome, _ = run(b, [TWO, TWO], plans)
    assert outcome.winner is None
    assert outcome.casualties[DEFENDER].net == 0  # 2 blockable, 2 shields


def test_ER_8_16d_fort_bonuses_capital_temporary_and_blank() -> None:
    def defence(**kw: object) -> int:
        outcome, _ = run(battle(army("a", "O", infantry=1), army("d", "X", infantry=1), **kw), [ONE, ONE])
        return outcome.strengths[DEFENDER] - 1 - 1

    assert defence(fort="none") == 0
    assert defence(fort="small") == 1
    assert defence(fort="built") == 1
    assert defence(fort="blanked") == 0  # ER-2.7
    assert defence(fort="large") == 2
    assert defence(fort="large", capital_of="c") == 2  # another player's capital: a large fort
    assert defence(fort="large", capital_of="d") == 4
    assert defence(fort="large", temporary_capital_of="d") == 4  # Resolution: +4 only


def test_ER_8_17_ER_8_40_allies_roll_no_die_and_their_abilities_are_ignored() -> None:
    ally = army("c", "N", infantry=2, effects=(eff("strength", n=5),), upgrades=frozenset({"naval_mastery"}))
    b = battle(army("a", "O", infantry=1), army("d", "X", infantry=1), reinforcements=(Reinforcement(ally, ATTACKER),))
    outcome, dice = run(b, [ONE, ONE])
    assert outcome.strengths[ATTACKER] == 1 + 2 + 1  # the ally's units only
    assert len(dice.log) == 2


def test_ER_8_6_ER_14_12_reinforcements_count_may_be_casualties_and_stay() -> None:
    ally = army("c", "N", cavalry=1)
    b = battle(army("a", "O", infantry=1), army("d", "X", infantry=2), reinforcements=(Reinforcement(ally, DEFENDER),))
    outcome, _ = run(b, [ONE, ONE])
    assert outcome.strengths[DEFENDER] == 2 + 2 + 1
    assert outcome.winner == DEFENDER
    assert all(m.player != "c" for m in outcome.moves)


def test_ER_8_4_ER_8_5_ER_12_13_refusals_one_army_each_own_side_no_ships_on_land() -> None:
    a, d = army("a", "O", infantry=1), army("d", "X", infantry=1)
    twice = (Reinforcement(army("c", "N", infantry=1), ATTACKER), Reinforcement(army("c", "M", infantry=1), ATTACKER))
    with pytest.raises(BattleError, match="ER-8.5"):
        run(battle(a, d, reinforcements=twice), [])
    with pytest.raises(BattleError, match="ER-8.4"):
        run(battle(a, d, reinforcements=(Reinforcement(army("d", "M", infantry=1), ATTACKER),)), [])
    with pytest.raises(BattleError, match="ER-12.13"):
        run(battle(a, d, reinforcements=(Reinforcement(army("c", "S", ship=1), ATTACKER),)), [])


def test_ER_8_7_land_units_may_reinforce_a_sea_battle() -> None:
    b = battle(
        army("a", "S1", ship=1),
        army("d", "X", ship=1),
        land=False,
        reinforcements=(Reinforcement(army("a", "C", infantry=1), ATTACKER),),
    )
    outcome, _ = run(b, [ONE, ONE])
    assert outcome.strengths[ATTACKER] == 2 + 1 + 1


# -- ER-8.9 to ER-8.11: volley -----------------------------------------------------------------------------------
def test_ER_8_9_no_archer_no_volley() -> None:
    _, dice = run(battle(army("a", "O", infantry=1), army("d", "X", infantry=1)), [ONE, ONE])
    assert [p for p, _ in dice.log] == ["melee attacker", "melee defender"]


def test_ER_8_10_ER_14_13_defender_fires_first_at_most_two_dice_four_hits() -> None:
    b = battle(army("a", "O", cavalry=2, archer=1), army("d", "X", archer=3, infantry=1))
    outcome, dice = run(b, [FOUR, THREE, TWO, TWO])
    purposes = [p for p, _ in dice.log]
    assert purposes == ["volley defender 1/2", "volley defender 2/2", "melee attacker", "melee defender"]
    assert outcome.volley_hits[ATTACKER] == 1  # a 4 hits, a 3 does not
    assert outcome.losses["a"]["archer"] == 1  # ER-14.13: archers first, so the attacker's archer never fires (ER-8.11)
    assert "volley attacker 1/1" not in purposes


def test_ER_8_11_volley_losses_count_and_shields_do_not_cancel_them() -> None:
    b = battle(army("a", "O", infantry=3, hand=("wall",)), army("d", "X", archer=1, infantry=3))
    outcome, _ = run(b, [FOUR, FOUR, ONE], {"a": Plan(tactics=("wall",))})
    assert outcome.volley_hits[ATTACKER] == 1
    assert outcome.losses["a"]["infantry"] == 1  # the wall's shields only meet step 5 casualties
    assert outcome.winner == ATTACKER


def test_ER_9_4_deadly_aim_hits_on_three() -> None:
    b = battle(army("a", "O", archer=1, infantry=2, upgrades=frozenset({"deadly_aim"})), army("d", "X", infantry=2))
    outcome, _ = run(b, [THREE, ONE, ONE])
    assert outcome.volley_hits[DEFENDER] == 1


def test_ER_9_4_rapid_aim_rerolls_one_missed_die_once() -> None:
    b = battle(army("a", "O", archer=2, infantry=2, upgrades=frozenset({"rapid_aim"})), army("d", "X", infantry=3))
    outcome, dice = run(b, [ONE, ONE, FOUR, ONE, ONE])
    assert [p for p, _ in dice.log][:3] == ["volley attacker 1/2", "volley attacker 2/2", "volley attacker re-roll 1"]
    assert outcome.volley_hits[DEFENDER] == 1


def test_ER_8_10_dice_follow_each_owners_upgrades_principal_first() -> None:
    ally = army("c", "N", archer=1, upgrades=frozenset({"deadly_aim"}))
    b = battle(
        army("a", "O", archer=1, infantry=1),
        army("d", "X", infantry=3),
        reinforcements=(Reinforcement(ally, ATTACKER),),
    )
    outcome, _ = run(b, [THREE, THREE, ONE, ONE])  # the principal's 3 misses, the ally's 3 hits
    assert outcome.volley_hits[DEFENDER] == 1


def test_ER_9_2_immortals_add_a_volley_die() -> None:
    b = battle(army("a", "O", infantry=1, elite=IMMORTALS), army("d", "X", infantry=2))
    outcome, dice = run(b, [FOUR, ONE, ONE])
    assert dice.log[0][0] == "volley attacker 1/1" and outcome.volley_hits[DEFENDER] == 1


def test_ER_8_2_ER_8_11_cards_are_played_after_the_volley_so_their_volley_effects_do_not_change_it() -> None:
    """ER-8.2: the volley (step 2) comes before the council of war (step 3, ER-8.12 to ER-8.14): a hero or tactic
    card's extra die, hit number or re-roll does not act on the volley of its battle; the same effect on an
    elite, which is in the battle from the start, does."""
    b = battle(
        army("a", "O", archer=1, infantry=2, heroes={"marksman": 0}, hand=("drill", "aim")), army("d", "X", infantry=4)
    )
    plans = {"a": Plan(heroes=("marksman",), tactics=("drill", "aim"))}
    outcome, dice = run(b, [THREE, ONE, ONE], plans)
    assert [p for p, _ in dice.log] == ["volley attacker 1/1", "melee attacker", "melee defender"]
    assert outcome.volley_hits[DEFENDER] == 0  # a 3 misses: the marksman's hit on 3 came too late
    assert outcome.tactics_discarded["a"] == ("drill", "aim")  # the cards were still played (ER-8.27)
    sharp = Elite("Sharp", frozenset({"infantry"}), 2, 3, effects=(eff("archer_hit_on", "battle.volley", k=3),))
    elite_side = battle(army("a", "O", archer=1, infantry=1, elite=sharp), army("d", "X", infantry=4))
    outcome, _ = run(elite_side, [THREE, ONE, ONE])
    assert outcome.volley_hits[DEFENDER] == 1


def test_ER_8_10_ER_9_2_an_elite_that_is_an_archer_rolls_one_volley_die() -> None:
    """ER-8.10: one die per archer; ER-9.2 "also an archer: adds one volley die": the elite is one archer, so an
    elite typed archer whose data also carry archer_dice rolls one die, not two; a standard archer beside it
    rolls its own."""
    bowman = Elite(
        "Bowman", frozenset({"infantry", "archer"}), 2, 3, effects=(eff("archer_dice", "battle.volley", n=1),)
    )
    flagged = Elite("Flagged", frozenset({"infantry"}), 2, 3, effects=(eff("unit_flag", "immediate", flag="archer"),))
    for elite in (bowman, flagged):
        _, dice = run(battle(army("a", "O", elite=elite), army("d", "X", infantry=3)), [ONE, ONE, ONE])
        assert [p for p, _ in dice.log] == ["volley attacker 1/1", "melee attacker", "melee defender"]
    _, dice = run(battle(army("a", "O", archer=1, elite=bowman), army("d", "X", infantry=3)), [ONE, ONE, ONE, ONE])
    assert [p for p, _ in dice.log][:2] == ["volley attacker 1/2", "volley attacker 2/2"]


def test_ER_0_5_ER_13_6_melee_reroll_only_when_not_ahead_a_tie_included() -> None:
    """The spec says a card may re-roll a melee die (ER-13.6) and when it is rolled (ER-0.5), not when a player
    takes it; the reading: a side takes it when it is not ahead (behind or level, since a tie wins nothing,
    ER-8.19), unless its plan declines it."""
    ahead = battle(army("a", "O", infantry=3, heroes={"gambler": 0}), army("d", "X", infantry=2))
    outcome, dice = run(ahead, [FOUR, ONE], {"a": Plan(heroes=("gambler",))})
    assert [p for p, _ in dice.log] == ["melee attacker", "melee defender"] and outcome.winner == ATTACKER
    level = battle(army("a", "O", infantry=2), army("d", "X", infantry=2, heroes={"gambler": 0}))
    outcome, dice = run(level, [TWO, TWO, FOUR], {"d": Plan(heroes=("gambler",))})
    assert [p for p, _ in dice.log] == ["melee attacker", "melee defender", "melee defender re-roll"]
    assert outcome.winner == DEFENDER and outcome.dice[DEFENDER] == 4


# -- ER-8.26, ER-15.14: a side wiped out by the volley -----------------------------------------------------------
def test_ER_8_26_attack_wiped_out_by_volley_no_cards_played() -> None:
    b = battle(army("a", "O", archer=1, heroes={"brute": 0}), army("d", "X", archer=2, infantry=1))
    outcome, dice = run(b, [FOUR, ONE], {"a": Plan(heroes=("brute",))})
    assert outcome.winner == DEFENDER and len(dice.log) == 2  # no melee dice
    assert outcome.heroes_face_up == {} and outcome.tactics_discarded == {}
    assert outcome.draws == (("a", 1), ("d", 1))  # ER-8.27/8.28 still apply


def test_ER_8_26_defender_wiped_out_attacker_enters_without_casualties() -> None:
    b = battle(army("a", "O", archer=2, infantry=1), army("d", "X", infantry=1))
    outcome, dice = run(b, [FOUR, ONE])
    assert outcome.winner == ATTACKER and outcome.conquered
    assert outcome.moves[-1].to == "X" and outcome.moves[-1].units == {"infantry": 1, "archer": 2}
    assert sum(outcome.losses["a"].values()) == 0


def test_ER_15_1_defender_in_own_capital_fights_on_with_zero_units() -> None:
    b = battle(army("a", "O", archer=1, infantry=1), army("d", "X", infantry=1), fort="large", capital_of="d")
    outcome, _ = run(b, [FOUR, ONE, FOUR])
    assert outcome.strengths[DEFENDER] == 4 + 4
    assert outcome.winner == DEFENDER and outcome.moves == (outcome.moves[0],)


def test_ER_8_3_ER_15_1_unit_less_capital_is_defended_by_fort_and_cards() -> None:
    b = battle(army("a", "O", infantry=3), army("d", "X", heroes={"brute": 0}), fort="large", capital_of="d")
    outcome, _ = run(b, [ONE, ONE], {"d": Plan(heroes=("brute",))})
    assert outcome.strengths == {ATTACKER: 4, DEFENDER: 4 + 2 + 1}
    assert outcome.winner == DEFENDER and outcome.heroes_face_up == {"a": (), "d": ("brute",)}


def test_ER_15_14_elite_killed_by_volley_adds_nothing_in_melee() -> None:
    b = battle(army("a", "O", elite=CHARIOT, infantry=1), army("d", "X", archer=1, infantry=1))
    orders = {"a": Standing(loss_priority=("elite",))}
    outcome, _ = run(b, [FOUR, ONE, ONE], orders=orders)
    assert outcome.losses["a"]["elite"] == 1
    assert outcome.strengths[ATTACKER] == 1 + 1


# -- ER-8.12 to ER-8.15, ER-8.27: council of war ----------------------------------------------------------------
def test_ER_8_12_refuses_a_hero_not_recruited_or_used_twice() -> None:
    with pytest.raises(BattleError, match="ER-8.12"):
        run(battle(army("a", "O", infantry=1), army("d", "X", infantry=1)), [], {"a": Plan(heroes=("brute",))})
    b = battle(army("a", "O", infantry=1, heroes={"brute": 2}), army("d", "X", infantry=1))
    with pytest.raises(BattleError, match="ER-8.27"):
        run(b, [], {"a": Plan(heroes=("brute",))})


def test_ER_8_13_refuses_a_tactic_card_not_in_hand() -> None:
    b = battle(army("a", "O", infantry=1, hand=("wall",)), army("d", "X", infantry=1))
    with pytest.raises(BattleError, match="ER-8.13"):
        run(b, [], {"a": Plan(tactics=("wall", "wall"))})


def test_ER_8_27_first_use_face_up_second_discarded_tactics_discarded() -> None:
    b = battle(
        army("a", "O", infantry=2, heroes={"brute": 0, "warden": 1}, hand=("charge",)), army("d", "X", infantry=1)
    )
    outcome, _ = run(b, [ONE, ONE], {"a": Plan(heroes=("brute", "warden"), tactics=("charge",))})
    assert outcome.strengths[ATTACKER] == 2 + 2 + 1 + 2 + 1  # units, brute, warden, charge (no cavalry), die
    assert outcome.heroes_face_up["a"] == ("brute",) and outcome.heroes_discarded["a"] == ("warden",)
    assert outcome.tactics_discarded["a"] == ("charge",)


def test_ER_8_15_defender_learns_face_up_heroes_and_count_only() -> None:
    a = army("a", "O", infantry=1, heroes={"brute": 1, "warden": 0, "sage": 0})
    assert publication(a, Plan(heroes=("brute", "warden", "sage"))) == (("brute",), 2)


def test_ER_13_6_per_unit_strength_with_cap_and_opponent_effects() -> None:
    b = battle(army("a", "O", cavalry=3, hand=("charge",)), army("d", "X", infantry=1, hand=("sap",)))
    outcome, _ = run(b, [ONE, ONE], {"a": Plan(tactics=("charge",)), "d": Plan(tactics=("sap",))})
    assert outcome.strengths[ATTACKER] == 6 + 2 + 2 - 2 + 1  # cap 2; the defender's sap -2


def test_ER_13_6_manual_effect_blocks_until_the_moderator_rules() -> None:
    b = battle(army("a", "O", infantry=1, heroes={"sage": 0}), army("d", "X", infantry=1))
    plans = {"a": Plan(heroes=("sage",))}
    outcome, dice = run(b, [], plans)
    assert not outcome.finished and outcome.pending[0].key == "sage.0" and dice.log == []
    ruling = {"sage.0": (eff("strength", n=3),)}
    outcome, _ = run(b, [ONE, ONE], plans, rulings=ruling)
    assert outcome.finished and outcome.strengths[ATTACKER] == 1 + 3 + 1


def test_ER_13_6_manual_after_win_is_pending_but_the_result_stands() -> None:
    b = battle(army("a", "O", infantry=3, heroes={"herald": 0}), army("d", "X", infantry=1))
    outcome, _ = run(b, [FOUR, ONE], {"a": Plan(heroes=("herald",))})
    assert outcome.finished and outcome.winner == ATTACKER
    assert [(p.key, p.blocking) for p in outcome.pending] == [("herald.0", False)]


def test_ER_13_6_melee_reroll_when_behind_attacker_first() -> None:
    b = battle(army("a", "O", infantry=2, heroes={"gambler": 0}), army("d", "X", infantry=2))
    outcome, dice = run(b, [ONE, FOUR, FOUR], {"a": Plan(heroes=("gambler",))})
    assert [p for p, _ in dice.log] == ["melee attacker", "melee defender", "melee attacker re-roll"]
    assert outcome.winner is None  # 2+4 vs 2+4
    declined, dice = run(b, [ONE, FOUR], {"a": Plan(heroes=("gambler",), melee_reroll=False)})
    assert declined.winner == DEFENDER


# -- ER-8.20 to ER-8.23: casualties ------------------------------------------------------------------------------
def test_ER_8_21_shields_cancel_blockable_never_unblockable() -> None:
    b = battle(
        army("a", "O", infantry=4, heroes={"butcher": 0}, hand=("breach",)),
        army("d", "X", infantry=4, heroes={"warden": 0}, hand=("wall",)),
        fort="large",
    )
    plans = {"a": Plan(heroes=("butcher",), tactics=("breach",)), "d": Plan(heroes=("warden",), tactics=("wall",))}
    outcome, _ = run(b, [FOUR, ONE], plans)
    # attacker 4 + 1 + 1 + 4 = 10; defender 4 + 2 + 1 + 1 = 8: margin 2, the butcher needs 3
    c = outcome.casualties[DEFENDER]
    assert (c.blockable, c.unblockable, c.shields, c.net) == (1, 1, 3, 1)
    assert outcome.losses["d"]["infantry"] == 1


def test_ER_8_20_win_margin_card_and_defeat_casualty() -> None:
    b = battle(army("a", "O", infantry=4, heroes={"butcher": 0}), army("d", "X", infantry=1))
    outcome, _ = run(b, [FOUR, ONE], {"a": Plan(heroes=("butcher",))})
    assert (outcome.casualties[DEFENDER].blockable, outcome.casualties[DEFENDER].unblockable) == (1, 1)
    assert outcome.losses["d"]["infantry"] == 1  # ER-15.15: beyond the units, ignored
    assert outcome.moves[-1].to == "X" and outcome.conquered


def test_ER_8_22_ER_14_16_opposing_principal_assigns_principal_first_then_standing_order() -> None:
    ally = army("c", "N", infantry=3)
    b = battle(
        army("a", "O", infantry=2, hand=("raid",)),
        army("d", "X", infantry=1),
        reinforcements=(Reinforcement(ally, DEFENDER),),
    )
    plans = {"a": Plan(tactics=("raid",))}
    outcome, _ = run(b, [FOUR, ONE], plans)  # 2+4 vs 4+1: 3 casualties on the defending side
    assert (lost(outcome, "d"), lost(outcome, "c")) == ({"infantry": 1}, {"infantry": 2})  # ER-14.16 default
    outcome, _ = run(b, [FOUR, ONE], plans, {"a": Standing(assign_order=("c",))})
    assert (lost(outcome, "d"), lost(outcome, "c")) == ({}, {"infantry": 3})
    assert outcome.moves[-1].to == "X"  # the ally's units stay where they are (ER-8.6)


def test_ER_14_17_loss_priority_standing_order() -> None:
    b = battle(army("a", "O", infantry=3), army("d", "X", cavalry=1, infantry=1, archer=1))
    outcome, _ = run(b, [ONE, FOUR, ONE], orders={"d": Standing(loss_priority=("cavalry",))})
    assert lost(outcome, "d") == {"cavalry": 1}


def test_ER_8_18_ER_8_20_ER_14_15_free_men_plus_two_and_self_removal_not_shielded() -> None:
    gaul = army("a", "O", infantry=2, elite=FREE_MEN, heroes={"warden": 0})
    b = battle(gaul, army("d", "X", infantry=3))
    outcome, _ = run(b, [ONE, ONE], {"a": Plan(heroes=("warden",), free_men=True)})
    assert outcome.strengths[ATTACKER] == 2 + 2 + 2 + 1 + 1  # units, elite, Free Men, warden, die
    assert outcome.losses["a"]["infantry"] == 1 and outcome.casualties[ATTACKER].self_removal == 1
    assert outcome.draws[0] == ("a", 1)
    unused, _ = run(b, [ONE, ONE], {"a": Plan(heroes=("warden",))})  # ER-14.15 default: not used
    assert unused.strengths[ATTACKER] == 2 + 2 + 1 + 1 and unused.losses["a"]["infantry"] == 0


def test_ER_15_18_free_men_needs_another_infantry_unit() -> None:
    b = battle(army("a", "O", cavalry=1, elite=FREE_MEN), army("d", "X", infantry=3))
    outcome, _ = run(b, [ONE, ONE], {"a": Plan(free_men=True)})
    assert outcome.strengths[ATTACKER] == 2 + 2 + 1
    assert any(e.rule == "ER-15.18" for e in outcome.events)


# -- ER-8.24, ER-8.25, ER-15.6: conquest and retreat ------------------------------------------------------------
NEIGHBOURS = (
    Neighbour("A", True, controller="d", units=1),
    Neighbour("B", True, controller="d", units=3),
    Neighbour("C", True),
    Neighbour("E", True, controller="e", units=2),
    Neighbour("S", False),
)


def test_ER_14_18_defender_retreats_to_own_area_with_most_units() -> None:
    b = battle(army("a", "O", infantry=4), army("d", "X", infantry=3), neighbours=NEIGHBOURS)
    outcome, _ = run(b, [FOUR, ONE])
    retreat = next(m for m in outcome.moves if m.player == "d")
    assert (retreat.to, retreat.units) == ("B", {"infantry": 2})
    assert retreat.options == ("A", "B", "C")  # E is enemy-held, S is sea
    standing, _ = run(b, [FOUR, ONE], orders={"d": Standing(retreat=("E", "C", "B"))})
    assert next(m for m in standing.moves if m.player == "d").to == "C"  # E is enemy-held


def test_ER_8_24_empty_uncontrolled_area_with_lowest_id_never_sea_from_land() -> None:
    near = (Neighbour("S", False), Neighbour("Q", True), Neighbour("P", True), Neighbour("R", True, independent=True))
    b = battle(army("a", "O", infantry=4), army("d", "X", infantry=3), neighbours=near)
    outcome, _ = run(b, [FOUR, ONE])
    assert next(m for m in outcome.moves if m.player == "d").to == "P"


def test_ER_15_6_surrounded_defender_is_eliminated() -> None:
    near = (Neighbour("E", True, controller="e"), Neighbour("S", False))
    b = battle(army("a", "O", infantry=4), army("d", "X", infantry=3), neighbours=near)
    outcome, _ = run(b, [FOUR, ONE])
    move = next(m for m in outcome.moves if m.player == "d")
    assert move.to is None and move.why == "ER-15.6"


def test_ER_8_24_sea_defender_may_retreat_to_land_or_sea() -> None:
    near = (Neighbour("L", True), Neighbour("T", False, controller="e"))
    b = battle(army("a", "O", infantry=4), army("d", "X", infantry=3), land=False, neighbours=near)
    outcome, _ = run(b, [FOUR, ONE])
    assert next(m for m in outcome.moves if m.player == "d").to == "L"


def test_ER_8_24_winner_may_leave_one_unit_behind() -> None:
    b = battle(army("a", "O", infantry=3, cavalry=1), army("d", "X", infantry=1), neighbours=NEIGHBOURS)
    outcome, _ = run(b, [FOUR, ONE], {"a": Plan(leave_behind="cavalry")})
    enter = outcome.moves[-1]
    assert (enter.source, enter.to, enter.units) == ("O", "X", {"infantry": 3})


def test_ER_8_24_ER_2_3_a_lone_survivor_is_never_left_behind() -> None:
    """ER-8.24: the winner controls the area, and control needs a unit in it (ER-2.3): leaving 1 unit behind
    is allowed only when another survivor enters."""
    b = battle(army("a", "O", cavalry=1), army("d", "X", infantry=1), neighbours=NEIGHBOURS)
    outcome, _ = run(b, [FOUR, ONE], {"a": Plan(leave_behind="cavalry")})
    enter = outcome.moves[-1]
    assert (enter.source, enter.to, enter.units) == ("O", "X", {"cavalry": 1}) and outcome.conquered
    assert not [e for e in outcome.events if e.what == "left_behind"]


def test_ER_14_17_a_principals_reinforcing_army_loses_before_its_army_in_the_area() -> None:
    """ER-14.17 lets each player choose their own losses by unit kind; between a principal's two armies of the
    same kind the spec is silent: the default takes the reinforcing army's unit first (it stays in its own
    area, ER-8.6, so the army that enters or retreats keeps its strength). The kind order still comes first."""
    own = (Reinforcement(army("a", "P", infantry=1), ATTACKER),)
    b = battle(army("a", "O", infantry=2), army("d", "X", infantry=4), reinforcements=own)
    outcome, _ = run(b, [ONE, FOUR])
    assert outcome.winner == DEFENDER
    assert outcome.area_losses[("a", "P")]["infantry"] == 1 and outcome.area_losses[("a", "O")]["infantry"] == 0
    b = battle(army("a", "O", archer=1, infantry=1), army("d", "X", infantry=4), reinforcements=own)
    outcome, _ = run(b, [ONE, ONE, FOUR])  # the attacker's archer fires (miss), then the melee
    assert outcome.area_losses[("a", "O")]["archer"] == 1 and outcome.area_losses[("a", "P")]["infantry"] == 0


def test_ER_8_25_ER_15_15_winner_without_survivors_leaves_the_area_empty() -> None:
    b = battle(
        army("a", "O", infantry=1, hand=("raid",)), army("d", "X", infantry=2, hand=("raid",)), neighbours=NEIGHBOURS
    )
    outcome, _ = run(b, [FOUR, ONE], {"a": Plan(tactics=("raid",)), "d": Plan(tactics=("raid",))})
    assert outcome.winner == ATTACKER and not outcome.conquered
    assert [m.player for m in outcome.moves] == []  # the defender has no survivors either (ER-15.15)
    assert any(e.rule == "ER-8.25" for e in outcome.events)


# -- ER-8.28: tactic draws --------------------------------------------------------------------------------------
def test_ER_8_28_draws_by_units_lost_attacker_defender_allies() -> None:
    ally = army("c", "N", infantry=1)
    b = battle(
        army("a", "O", infantry=5, hand=("raid",)),
        army("d", "X", infantry=4),
        reinforcements=(Reinforcement(ally, DEFENDER),),
        neighbours=NEIGHBOURS,
    )
    outcome, _ = run(b, [FOUR, ONE], {"a": Plan(tactics=("raid",))}, {"a": Standing(assign_order=("d",))})
    assert outcome.losses["d"]["infantry"] == 3
    assert outcome.draws == (("a", 1), ("d", 2), ("c", 1))


def test_ER_8_28_draw_count_table() -> None:
    from adjudicator.rulesets.conqueror.battle_losses import draw_count

    assert [draw_count(n) for n in range(6)] == [1, 1, 2, 2, 3, 3]


# -- ER-9.1, ER-9.2, ER-9.4 in battle ---------------------------------------------------------------------------
def test_ER_9_3_ER_9_4_heavy_cavalry_elite_armor_and_elite_upgrades() -> None:
    ups = frozenset({"heavy_cavalry", "elite_armor"})
    b = battle(army("a", "O", cavalry=2, infantry=1, elite=CHARIOT, upgrades=ups), army("d", "X", cavalry=1))
    outcome, _ = run(b, [ONE, ONE])
    assert outcome.strengths[ATTACKER] == (4 + 2) + (1 + 1) + (2 + 1) + 1  # ER-9.3: the elite cavalry +1 too


def test_ER_9_4_long_spears_per_unit_and_per_side_option() -> None:
    spears = army("d", "X", infantry=2, upgrades=frozenset({"long_spears"}))
    b = battle(army("a", "O", cavalry=5), spears)
    outcome, _ = run(b, [ONE, ONE])
    assert outcome.strengths[DEFENDER] == 2 + 2 * 4 + 1
    per_side, _ = run(replace(b, options=Options(long_spears_cap="per_side")), [ONE, ONE])
    assert per_side.strengths[DEFENDER] == 2 + 4 + 1


def test_ER_9_4_aggression_one_casualty_and_one_more_on_a_margin_of_four() -> None:
    b = battle(
        army("a", "O", cavalry=3, upgrades=frozenset({"aggression"})), army("d", "X", infantry=5), neighbours=NEIGHBOURS
    )
    close, _ = run(b, [TWO, ONE])  # 6+2 vs 5+1: margin 2
    assert close.casualties[DEFENDER].blockable == 1 + 1
    wide, _ = run(b, [FOUR, ONE])  # 6+4 vs 6: margin 4
    assert wide.casualties[DEFENDER].blockable == 1 + 2
    tie, _ = run(b, [ONE, TWO])  # 7 vs 7
    assert tie.casualties[DEFENDER].blockable == 1 and tie.winner is None


def test_ER_9_4_discipline_one_shield_with_own_infantry() -> None:
    b = battle(
        army("a", "O", cavalry=3),
        army("d", "X", infantry=1, cavalry=1, upgrades=frozenset({"discipline"})),
        neighbours=NEIGHBOURS,
    )
    outcome, _ = run(b, [FOUR, ONE])
    assert outcome.casualties[DEFENDER].shields == 1 and outcome.casualties[DEFENDER].net == 0


def test_ER_9_4_ER_12_11_ER_12_12_naval_mastery_at_sea_and_amphibious_assault_from_sea() -> None:
    sea = battle(army("a", "O", ship=1, upgrades=frozenset({"naval_mastery"})), army("d", "X", ship=1), land=False)
    outcome, _ = run(sea, [ONE, ONE])
    assert outcome.strengths[ATTACKER] == 2 + 3 + 1
    land = battle(
        army("a", "O", infantry=1, upgrades=frozenset({"amphibious_assault"})),
        army("d", "X", infantry=1),
        from_sea=True,
        options=Options(amphibious_assault=2),
    )
    outcome, _ = run(land, [ONE, ONE])
    assert outcome.strengths[ATTACKER] == 1 + 2 + 1


def test_ER_9_1_abilities_conditions_from_data_effects() -> None:
    home = army(
        "d", "X", infantry=1, effects=(eff("strength", "battle.melee", "defending", "on_land", "area_fort(none)", n=1),)
    )
    europe = army("d", "X", infantry=1, effects=(eff("strength", "battle.melee", "defending", "region(europe)", n=1),))
    outcome, _ = run(battle(army("a", "O", infantry=1), home), [ONE, ONE])
    assert outcome.strengths[DEFENDER] == 1 + 1 + 1
    outcome, _ = run(battle(army("a", "O", infantry=1), home, fort="small"), [ONE, ONE])
    assert outcome.strengths[DEFENDER] == 1 + 1 + 1  # fort +1, ability off
    outcome, _ = run(battle(army("a", "O", infantry=1), europe, europe=True), [ONE, ONE])
    assert outcome.strengths[DEFENDER] == 1 + 1 + 1


def test_ER_9_2_elite_abilities_enemy_infantry_and_same_army() -> None:
    b = battle(army("a", "O", elite=CHARIOT), army("d", "X", infantry=1))
    outcome, _ = run(b, [ONE, ONE])
    assert outcome.strengths[ATTACKER] == 2 + 1 + 1
    alone = army("a", "O", elite=COMPANIONS)
    ally = Reinforcement(army("a", "N", infantry=1), ATTACKER)
    outcome, _ = run(battle(alone, army("d", "X", cavalry=1), reinforcements=(ally,)), [ONE, ONE])
    assert outcome.strengths[ATTACKER] == 2 + 1 + 1  # the infantry is in another army: no +1
    together = replace(alone, infantry=1)
    outcome, _ = run(battle(together, army("d", "X", cavalry=1)), [ONE, ONE])
    assert outcome.strengths[ATTACKER] == 2 + 1 + 1 + 1


def test_ER_9_4_unknown_upgrade_refused() -> None:
    with pytest.raises(BattleError, match="ER-9.4"):
        run(battle(army("a", "O", infantry=1, upgrades=frozenset({"laser"})), army("d", "X", infantry=1)), [])


# -- ER-12: ships and siege engines ------------------------------------------------------------------------------
def test_ER_12_17_siege_engine_four_attacking_a_fort_zero_otherwise() -> None:
    fort = battle(army("a", "O", siege=1, infantry=1), army("d", "X", infantry=1), fort="small")
    outcome, _ = run(fort, [ONE, ONE])
    assert outcome.strengths[ATTACKER] == 4 + 1 + 1
    open_land = battle(army("a", "O", siege=1, infantry=1), army("d", "X", infantry=1))
    outcome, _ = run(open_land, [ONE, ONE])
    assert outcome.strengths[ATTACKER] == 1 + 1


def test_ER_15_20_ER_12_18_defending_siege_engine_adds_nothing_but_can_be_a_casualty() -> None:
    b = battle(army("a", "O", infantry=4), army("d", "X", siege=1), fort="large", neighbours=NEIGHBOURS)
    outcome, _ = run(b, [FOUR, ONE])
    assert outcome.strengths[DEFENDER] == 0 + 2 + 1
    assert outcome.losses["d"]["siege"] == 1


def test_ER_8_23_ER_12_15_at_most_one_casualty_per_battle_on_ships() -> None:
    b = battle(army("a", "O", ship=2, hand=("raid",)), army("d", "X", ship=3), land=False, neighbours=NEIGHBOURS)
    outcome, _ = run(b, [FOUR, ONE], {"a": Plan(tactics=("raid",))})
    assert outcome.casualties[DEFENDER].net == 3 and outcome.losses["d"]["ship"] == 1


def test_ER_12_14_ER_14_19_beaten_ships_retreat_to_sea_else_own_wharf_else_lost() -> None:
    near = (
        Neighbour("L", True, controller="d", wharf_of="d"),
        Neighbour("T", False, controller="e"),
        Neighbour("U", False),
    )
    b = battle(army("a", "O", ship=3), army("d", "X", ship=2), land=False, neighbours=near)
    outcome, _ = run(b, [FOUR, ONE])
    assert next(m for m in outcome.moves if m.player == "d").to == "U"
    outcome, _ = run(replace(b, neighbours=near[:2]), [FOUR, ONE])
    assert next(m for m in outcome.moves if m.player == "d").to == "L"
    outcome, _ = run(replace(b, neighbours=near[1:2]), [FOUR, ONE])
    assert next(m for m in outcome.moves if m.player == "d").to is None


# -- ER-8.30 to ER-8.36: independent armies ---------------------------------------------------------------------
def independent(units: Units, **kw: object) -> Battle:
    kw.setdefault("automa_deck", ("mid", "weak"))
    return Battle("X", True, army("a", "O", cavalry=2, infantry=1), independent=units, cards=CARDS, **kw)  # type: ignore[arg-type]


def test_ER_8_31_automa_card_instead_of_a_die_no_capital_bonus() -> None:
    b = independent(Units(cavalry=1, infantry=1), fort="large", capital_of="z")
    outcome, dice = run(b, [FOUR])
    assert [p for p, _ in dice.log] == ["melee attacker"]
    assert outcome.automa_card == "mid" and outcome.dice[DEFENDER] == 2
    assert outcome.strengths[DEFENDER] == 3 + 2 + 2  # large fort +2, not +4
    assert outcome.automa_deck == ("weak",) and outcome.automa_discards == ("mid",)


def test_ER_8_32_ER_8_35_automa_casualties_and_defeat_casualty_on_the_player() -> None:
    b = independent(Units(cavalry=2, infantry=2), automa_deck=("strong",))
    outcome, _ = run(b, [ONE], orders={"a": Standing(loss_priority=("cavalry",))})
    assert outcome.winner == DEFENDER
    c = outcome.casualties[ATTACKER]
    assert (c.blockable, c.unblockable) == (1, 1)
    assert outcome.losses["a"]["cavalry"] == 2 and outcome.draws == ()  # ER-8.35


def test_ER_8_33_beaten_independent_army_is_removed_weakest_first() -> None:
    b = independent(Units(cavalry=1, infantry=1, archer=1), automa_deck=("weak",))
    outcome, dice = run(b, [ONE, FOUR])  # its archer fires and misses... then the attacker's melee die
    assert outcome.winner == ATTACKER and outcome.independent_removed and outcome.conquered
    assert outcome.losses[INDEPENDENT]["archer"] == 1  # the defeat casualty: weakest first
    assert next(m for m in outcome.moves if m.player == INDEPENDENT).to is None


def test_ER_8_33_independent_army_that_wins_stays() -> None:
    b = independent(Units(cavalry=3), automa_deck=("strong",))
    outcome, _ = run(b, [ONE])
    assert outcome.winner == DEFENDER and not outcome.independent_removed
    assert [(m.player, m.to) for m in outcome.moves] == [("a", "O")]


def test_ER_8_36_empty_automa_deck_is_reshuffled_from_discards() -> None:
    b = independent(Units(infantry=1), automa_deck=(), automa_discards=("weak", "mid", "strong"))
    outcome, dice = run(b, [FOUR, 3, 1])
    assert [p for p, _ in dice.log] == ["melee attacker"]
    assert [p for p, _ in dice.hidden_log] == ["shuffle automa deck 1/2", "shuffle automa deck 2/2"]
    assert outcome.automa_deck and len(outcome.automa_deck) == 2 and len(outcome.automa_discards) == 1


def test_ER_8_8_ER_8_29_independent_armies_are_never_reinforced_but_attackers_may_be() -> None:
    with pytest.raises(BattleError, match="ER-8.8"):
        run(independent(Units(infantry=1), reinforcements=(Reinforcement(army("c", "N", infantry=1), DEFENDER),)), [])
    ally = Reinforcement(army("c", "N", infantry=1), ATTACKER)
    outcome, _ = run(independent(Units(infantry=1), reinforcements=(ally,)), [FOUR])
    assert outcome.strengths[ATTACKER] == 5 + 1 + 4 and outcome.draws == ()  # ER-8.29


# -- ER-0.5 and the outcome's follow-ups --------------------------------------------------------------------------
def test_ER_0_5_full_consumption_order() -> None:
    a = army("a", "O", archer=2, infantry=2, heroes={"gambler": 0}, upgrades=frozenset({"rapid_aim"}))
    d = army("d", "X", archer=1, infantry=3, upgrades=frozenset({"rapid_aim"}))
    ally = Reinforcement(army("c", "N", archer=1), DEFENDER)
    b = battle(a, d, reinforcements=(ally,))
    _, dice = run(b, [ONE, ONE, ONE, ONE, ONE, ONE, ONE, FOUR, ONE], {"a": Plan(heroes=("gambler",))})
    assert [p for p, _ in dice.log] == [
        "volley defender 1/2",
        "volley defender 2/2",
        "volley defender re-roll 1",
        "volley attacker 1/2",
        "volley attacker 2/2",
        "volley attacker re-roll 1",
        "melee attacker",
        "melee defender",
        "melee attacker re-roll",
    ]


def test_ER_13_6_after_win_effects_become_follow_ups_for_the_state() -> None:
    b = battle(army("a", "O", infantry=3, heroes={"banker": 0}, hand=("toll",)), army("d", "X", infantry=1))
    outcome, _ = run(b, [FOUR, ONE], {"a": Plan(heroes=("banker",), tactics=("toll",))})
    assert sorted((f.player, f.effect.op) for f in outcome.follow_ups) == [("a", "coins"), ("a", "draw_tactic")]
    lost_battle, _ = run(b, [ONE, FOUR], {"a": Plan(heroes=("banker",), tactics=("toll",))})
    assert [f.effect.op for f in lost_battle.follow_ups] == ["draw_tactic"]


# -- the steps, and the battle on the example data ---------------------------------------------------------------
def test_ER_8_1_a_battle_has_a_defending_player_or_an_independent_army() -> None:
    with pytest.raises(BattleError, match="ER-8.1"):
        run(Battle("X", True, army("a", "O", infantry=1)), [])
    with pytest.raises(BattleError, match="ER-8.1"):
        run(Battle("X", True, army("a", "O", infantry=1), army("d", "X", infantry=1), independent=Units(1)), [])


def test_ER_8_2_ER_8_14_ER_14_14_steps_in_order_and_no_cards_by_default() -> None:
    b = battle(army("a", "O", archer=1, infantry=2), army("d", "X", archer=1, infantry=2))
    outcome, _ = run(b, [ONE, ONE, TWO, ONE])
    steps = [e.rule for e in outcome.events if e.what in ("volley", "council", "melee", "casualties")]
    assert steps == ["ER-8.10", "ER-8.10", "ER-8.14", "ER-8.14", "ER-8.19", "ER-8.21", "ER-8.21"]
    council = [e.data for e in outcome.events if e.what == "council"]
    assert [(c["side"], c["heroes"], c["tactics"]) for c in council] == [(ATTACKER, (), ()), (DEFENDER, (), ())]


def test_ER_8_30_ER_8_34_heroes_and_tactics_against_an_independent_army() -> None:
    a = army("a", "O", infantry=2, heroes={"warden": 0}, hand=("raid",))
    b = replace(independent(Units(infantry=3), automa_deck=("mid",)), attacker=a)
    outcome, _ = run(b, [FOUR], {"a": Plan(heroes=("warden",), tactics=("raid",))})
    assert outcome.strengths == {ATTACKER: 2 + 1 + 4, DEFENDER: 3 + 2}
    assert outcome.casualties[ATTACKER].net == 0  # the automa card's casualty, one shield
    assert outcome.losses[INDEPENDENT]["infantry"] == 3 and outcome.independent_removed
    assert outcome.heroes_face_up["a"] == ("warden",) and outcome.draws == ()


def test_ER_15_19_ships_on_the_wharf_are_lost_when_the_area_is_conquered() -> None:
    b = battle(army("a", "O", infantry=3), army("d", "X", infantry=1), wharf_ships={"d": 2}, neighbours=NEIGHBOURS)
    outcome, _ = run(b, [FOUR, ONE])
    assert [(m.player, m.units, m.to, m.why) for m in outcome.moves if m.why == "ER-15.19"] == [
        ("d", {"ship": 2}, None, "ER-15.19")
    ]
    held, _ = run(b, [ONE, FOUR])
    assert all(m.why != "ER-15.19" for m in held.moves)


def example_board(faction: str, board: str = "standard") -> tuple[object, object]:
    from adjudicator.resources import resource_dir
    from adjudicator.rulesets.conqueror.loader import load_folder

    data = load_folder(resource_dir("games") / "conqueror-er" / "example-data")
    chosen = data.factions[faction].board(board)
    assert chosen is not None
    return data, chosen


def test_ER_8_45_sea_battle_on_the_example_data() -> None:
    data, kesh = example_board("kesh")
    _, ostra = example_board("ostra")
    attacker = army("kesh", "S1", ship=1, elite=kesh.elite, effects=kesh.ability)  # type: ignore[attr-defined]
    defender = army("ostra", "X", ship=2, effects=ostra.ability)  # type: ignore[attr-defined]
    b = Battle("X", False, attacker, defender, cards=data.cards, options=data.options)  # type: ignore[attr-defined]
    outcome, _ = run(b, [ONE, ONE])
    assert outcome.strengths == {ATTACKER: 2 + (4 - 2) + 1 + 1, DEFENDER: 4 + 1}  # elite -2 at sea, sailors +1


def test_ER_9_2_elite_that_is_an_archer_adds_one_die_on_the_example_data() -> None:
    data, varun = example_board("varun")
    elite = varun.elite  # type: ignore[attr-defined]
    assert "archer" in elite.types and any(e.op == "archer_dice" for e in elite.effects)
    b = battle(army("varun", "O", infantry=1, elite=elite), army("d", "X", infantry=2), cards=data.cards)  # type: ignore[attr-defined]
    _, dice = run(b, [ONE, ONE, ONE])
    assert [p for p, _ in dice.log] == ["volley attacker 1/1", "melee attacker", "melee defender"]


def test_ER_8_40_allies_play_no_cards_and_leave_behind_names_a_unit_kind() -> None:
    ally = Reinforcement(army("c", "N", infantry=1, hand=("raid",)), ATTACKER)
    b = battle(army("a", "O", infantry=2), army("d", "X", infantry=1), reinforcements=(ally,))
    with pytest.raises(BattleError, match="ER-8.40"):
        run(b, [], {"c": Plan(tactics=("raid",))})
    with pytest.raises(BattleError, match="ER-8.24"):
        run(b, [], {"a": Plan(leave_behind="elephant")})


def test_ER_9_1_own_units_include_the_players_reinforcing_army() -> None:
    greek = eff("strength", "battle.melee", "own_units(infantry>=2)", n=1)
    a = army("a", "O", infantry=1, effects=(greek,))
    alone, _ = run(battle(a, army("d", "X", infantry=3)), [ONE, ONE])
    helped = battle(
        a, army("d", "X", infantry=3), reinforcements=(Reinforcement(army("a", "N", infantry=1), ATTACKER),)
    )
    outcome, _ = run(helped, [ONE, ONE])
    assert (alone.strengths[ATTACKER], outcome.strengths[ATTACKER]) == (1 + 1, 2 + 1 + 1)


def test_ER_12_4_enemy_strength_counts_units_and_upgrades_not_cards_or_fort() -> None:
    gaul = army(
        "a", "O", infantry=1, effects=(eff("strength", "battle.melee", "attacking", "enemy_strength_ge(5)", n=1),)
    )
    four = army("d", "X", cavalry=1, infantry=2, heroes={"brute": 0})
    outcome, _ = run(battle(gaul, four, fort="large"), [ONE, ONE], {"d": Plan(heroes=("brute",))})
    assert outcome.strengths[ATTACKER] == 1 + 1  # 4 in units: the hero and the fort do not count
    five = replace(four, upgrades=frozenset({"heavy_cavalry"}))
    outcome, _ = run(battle(gaul, five, fort="large"), [ONE, ONE], {"d": Plan(heroes=("brute",))})
    assert outcome.strengths[ATTACKER] == 1 + 1 + 1
