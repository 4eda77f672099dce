"""Odds in Conqueror's decision notices: a player asked whether to reinforce a battle (ER-14.12) or to use Free Men
(ER-14.15) gets the odds of each answer, on what he can know where the question arose: nobody's sealed plan before
the reveal (ER-8.14), the others' standing orders as the defaults (ER-14), the dice rolled so far as they fell.
ER-n.m: games/conqueror-er/rules.md."""

from __future__ import annotations

from dataclasses import replace
from itertools import product
from pathlib import Path

import pytest

from adjudicator.archive.models import DecisionRow, GameRow
from adjudicator.engine.decisions import Pending
from adjudicator.engine.vocabulary import AttackOdds
from adjudicator.rulesets.conqueror import battle_types as bt
from adjudicator.rulesets.conqueror.battle_setup import Attack, build_battle, fits, standing_of
from adjudicator.rulesets.conqueror.decision_odds import BattlePoint
from adjudicator.rulesets.conqueror.game import ConquerorGame
from adjudicator.rulesets.conqueror.odds import battle_odds
from adjudicator.rulesets.conqueror.orders import BattlePlan, Reinforce
from adjudicator.rulesets.conqueror.setup import options_from_json
from adjudicator.rulesets.conqueror.state import GameState
from adjudicator.services.reports import write_decision_notices
from adjudicator.services.turn import questions_now
from tests.test_conqueror_asks import ask
from tests.test_conqueror_campaign import FOUR, ONE, campaign_of, keep, kesh_in

ATTACK = "ATTACK 1 CAV 2 INF 1 ARC: BRE -> ORO"
DICE = [ONE, FOUR, ONE]


def oro_battle() -> tuple[ConquerorGame, GameState]:
    """Aurel attacks kesh's 2 INF in ORO from BRE; thal, next door in its capital THA, may reinforce either side."""
    rules, state = campaign_of("aurel")
    kesh_in(state, "ORO", infantry=2)
    state.army["BRE"] = state.army.pop("AUR")
    return rules, state


def reinforce_question(rules: ConquerorGame, state: GameState, *lines: str) -> Pending:
    result = ask(rules, state, "aurel", DICE, {}, *(lines or (ATTACK,)))
    return next(p for p in result.pending if p.key == "battle.ORO.1.reinforce")


def expected(rules: ConquerorGame, state: GameState, joined: str | None) -> tuple[float, float, float]:
    """The attack's battle as the engine builds it with thal joining `joined`'s side with all of THA (or nobody),
    every player on the defaults: the attacker's chance and each side's expected losses."""
    attack = Attack("aurel", "BRE", "ORO", {"cavalry": 1, "infantry": 2, "archer": 1}, BattlePlan())
    wish = Reinforce(seat=joined, origin="THA") if joined else None
    army = fits(state, rules.data, attack, "kesh", "thal", wish) if wish else None
    battle = build_battle(
        state,
        rules.data,
        options_from_json(state.options),
        attack,
        lambda faction, _: army if faction == "thal" else None,
    )
    odds = battle_odds(battle, {}, standing_of(state, rules.data, battle))
    lost = odds.expected_losses
    side = {"aurel": 0, "kesh": 1, "thal": 0 if joined == "aurel" else 1}
    losses = [sum(float(n) for player, n in lost.items() if side[player] == s) for s in (0, 1)]
    return float(odds.attacker_wins), losses[0], losses[1]


def figures(found: list[tuple[str, AttackOdds]]) -> list[tuple[str, tuple[float, float, float]]]:
    return [(choice, (o.wins, o.attacker_losses, o.defender_losses)) for choice, o in found]


def test_ER_14_12_each_way_to_reinforce_gets_the_odds_of_the_battle_it_makes() -> None:
    rules, state = oro_battle()
    asked = reinforce_question(rules, state)
    found = figures(rules.decision_odds(state, "thal", asked.key, asked.position))
    assert [choice for choice, _ in found] == ["REINFORCE NEVER", "REINFORCE aurel FROM THA", "REINFORCE kesh FROM THA"]
    for (_, got), joined in zip(found, (None, "aurel", "kesh"), strict=True):
        assert got == pytest.approx(expected(rules, state, joined), abs=1e-12)
    assert found[2][1][0] < found[0][1][0] < found[1][1][0]  # kesh's side helped, nobody, aurel's side helped


def test_ER_14_12_not_reinforcing_is_the_battle_the_attackers_receipt_reckons() -> None:
    rules, state = oro_battle()
    asked = reinforce_question(rules, state)
    never = rules.decision_odds(state, "thal", asked.key, asked.position)[0][1]
    (receipt,) = rules.attack_odds(state, "aurel", 5, ask_orders(rules, state, ATTACK))
    assert (never.wins, never.attacker_losses, never.defender_losses) == pytest.approx(
        (receipt.wins, receipt.attacker_losses, receipt.defender_losses), abs=1e-12
    )


def ask_orders(rules: ConquerorGame, state: GameState, *lines: str) -> object:
    from tests.test_conqueror_campaign import orders

    return orders("aurel", *lines, side=rules.data.map_for(state.players_count).side)


def test_ER_8_14_the_sealed_plans_and_secret_standing_orders_of_others_never_shape_the_figures() -> None:
    rules, state = oro_battle()
    plain = figures(rules.decision_odds(state, "thal", *where(reinforce_question(rules, state))))
    card = state.players["aurel"].hand[0]
    keep(state, "kesh", DEFENCE=f"DEFENCE TACTICS {state.players['kesh'].hand[0]}", LOSSES="LOSSES INF")
    sealed = reinforce_question(rules, state, f"{ATTACK} TACTICS {card}")
    assert figures(rules.decision_odds(state, "thal", *where(sealed))) == plain


def where(asked: Pending) -> tuple[str, object]:
    return asked.key, asked.position


def free_men_question() -> tuple[ConquerorGame, GameState, Pending]:
    """Aurel attacks ostra's capital OST with 2 CAV 6 INF 1 ARC; ostra's elite may add +2 for a standard infantry
    (ER-8.18), asked after the reveal and the two volley dice, the defender's first (ER-14.15, ER-8.10)."""
    rules, state = campaign_of("aurel", players=6)
    state.army["OST"].add("elite", 1)
    state.army["AUR"].add("infantry", 4)
    state.army["AUR"].add("cavalry", 1)
    result = ask(rules, state, "aurel", [ONE, ONE, FOUR, ONE], {}, "ATTACK 2 CAV 6 INF 1 ARC: AUR -> OST")
    return rules, state, next(p for p in result.pending if p.key == "battle.OST.1.freemen")


def at_faces(point: BattlePoint, faces: tuple[int, ...]) -> BattlePoint:
    return replace(point, known=faces)


def test_ER_14_15_free_men_odds_take_the_volley_dice_as_they_fell() -> None:
    rules, state, asked = free_men_question()
    point = asked.position
    assert point.known == (1, 1)  # the two volley dice the notice shows: both missed (ER-8.10)
    found = figures(rules.decision_odds(state, "ostra", asked.key, point))
    assert [choice for choice, _ in found] == ["FREEMEN USE", "FREEMEN NEVER"]
    hit = figures(rules.decision_odds(state, "ostra", asked.key, at_faces(point, (1, 6))))  # aurel's archer hits
    assert hit != found and hit[1][1][2] > found[1][1][2]  # ostra lost a unit to the volley


@pytest.mark.parametrize("use", [True, False])
def test_ER_14_15_over_every_way_the_first_dice_fall_the_figures_average_to_the_battles_odds_from_its_start(
    use: bool,
) -> None:
    """The figure at the question, weighed over all 36 ways the battle's first two dice could fall, is the battle's
    figure from its start (the law of total probability): the known dice are taken as they fell, no more, no less."""
    rules, state, asked = free_men_question()
    point = asked.position
    plans = {player: replace(plan, free_men=use and player == "ostra") for player, plan in point.plans.items()}
    start = battle_odds(point.battle, plans, point.orders)
    total, seen = [0.0, 0.0, 0.0], set()
    for faces in product(range(1, 7), repeat=2):
        (_, used), (_, unused) = rules.decision_odds(state, "ostra", asked.key, at_faces(point, faces))
        line = (
            (used if use else unused).wins,
            (used if use else unused).attacker_losses,
            (used if use else unused).defender_losses,
        )
        seen.add(line)
        total = [t + f / 36 for t, f in zip(total, line, strict=True)]
    lost = start.expected_losses
    assert len(seen) > 2  # the dice that fell change the figure
    assert total == pytest.approx([float(start.attacker_wins), float(lost["aurel"]), float(lost["ostra"])], abs=1e-9)


def test_ER_14_15_the_enemys_own_free_men_answer_is_his_secret() -> None:
    """Aurel given an elite like ostra's: whether he uses his Free Men is his answer, which ostra's figures never
    read; read, it would change them."""
    rules, state, asked = free_men_question()
    battle = asked.position.battle
    assert battle.defender is not None
    both = replace(
        asked.position, battle=replace(battle, attacker=replace(battle.attacker, elite=battle.defender.elite))
    )
    plain = figures(rules.decision_odds(state, "ostra", asked.key, both))
    aurel_uses = {player: replace(plan, free_men=player == "aurel") for player, plan in both.plans.items()}
    assert figures(rules.decision_odds(state, "ostra", asked.key, replace(both, plans=aurel_uses))) == plain
    nobody = {player: replace(plan, free_men=False) for player, plan in both.plans.items()}
    read = battle_odds(both.battle, aurel_uses, both.orders, known=both.known)
    assert read != battle_odds(both.battle, nobody, both.orders, known=both.known)


def test_other_conqueror_questions_get_no_odds() -> None:
    rules, state, asked = free_men_question()
    assert rules.decision_odds(state, "ostra", "battle.OST.1.retreat", asked.position) == []
    assert rules.decision_odds(state, "ostra", asked.key, None) == []


def test_the_reinforcement_notice_lists_each_answers_odds(tmp_path: Path) -> None:
    rules, state = oro_battle()
    result = ask(rules, state, "aurel", DICE, {}, ATTACK)
    asked = questions_now(result.pending)
    game = GameRow(id=1, name="er1", ruleset=rules.name, seed="", commitment="", created="", decision_hours=48)
    waiting = [
        DecisionRow(game_id=1, turn=5, seat=q.seat, key=q.key, question=q.question, default=q.default, rule=q.rule)
        for q in asked
    ]
    (path,) = write_decision_notices(
        tmp_path, rules, game, 5, result, waiting, {"thal": "de"}, rules.snapshot_text(state)
    )
    notice = path.read_text(encoding="utf-8")
    assert "(Vorgabe: VERSTÄRKE NIE; ER-14.12)" in notice  # the default in the reader's keywords, as he answers
    lines = [line.strip() for line in notice.splitlines() if line.strip().startswith("# wenn")]
    assert [line.split(":")[0] for line in lines] == [
        "# wenn du VERSTÄRKE NIE antwortest",
        "# wenn du VERSTÄRKE aurel AUS THA antwortest",
        "# wenn du VERSTÄRKE kesh AUS THA antwortest",
    ]


def volley_loss_question(state_change: dict[str, str] | None = None) -> tuple[ConquerorGame, GameState, Pending]:
    """Aurel attacks kesh's 1 INF 1 ARC in MIR; kesh's archer fires first and hits (a 4): aurel, with three kinds of
    units, is asked which are lost first, after that one die (ER-14.17, ER-14.13)."""
    rules, state = campaign_of("aurel")
    del state.army["MIR"]
    kesh_in(state, "MIR", infantry=1, archer=1)
    keep(state, "kesh", **(state_change or {}))
    result = ask(rules, state, "aurel", [FOUR, ONE, FOUR, ONE], {}, "ATTACK 1 CAV 2 INF 1 ARC: AUR -> MIR")
    return rules, state, next(p for p in result.pending if p.key == "battle.MIR.1.losses" and p.seat == "aurel")


def loss_order(*kinds: str) -> tuple[str, ...]:
    return (*kinds, *(kind for kind in bt.LOSS_PRIORITY if kind not in kinds))


def test_ER_14_17_each_order_of_losses_gets_the_odds_of_the_battle_on_from_the_die_that_fell() -> None:
    rules, state, asked = volley_loss_question()
    point = asked.position
    assert point.known == (5,) and set(point.plans) == {"aurel"}  # before the council: his own plan alone
    found = rules.decision_odds(state, "aurel", asked.key, point)
    # six orders of ARC, INF, CAV; only the kind lost first changes the figure here: three lines
    assert [choice for choice, _ in found] == ["LOSSES ARC, INF, CAV", "LOSSES INF, ARC, CAV", "LOSSES CAV, ARC, INF"]
    for (_, line), first in zip(found, ("archer", "infantry", "cavalry"), strict=True):
        orders = {**point.orders, "aurel": replace(point.orders["aurel"], loss_priority=loss_order(first))}
        odds = battle_odds(point.battle, point.plans, orders, known=(5,))
        assert line.wins == pytest.approx(float(odds.attacker_wins), abs=1e-12)
        assert line.attacker_losses == pytest.approx(float(odds.expected_losses["aurel"]), abs=1e-12)
    assert len({line.wins for _, line in found}) == 3


def test_ER_14_17_over_every_face_of_the_die_that_fell_the_default_answer_averages_to_the_odds_from_the_start() -> None:
    rules, state, asked = volley_loss_question()
    point = asked.position
    total = sum(
        rules.decision_odds(state, "aurel", asked.key, replace(point, known=(face,)))[0][1].wins / 6
        for face in range(1, 7)
    )
    assert total == pytest.approx(float(battle_odds(point.battle, point.plans, point.orders).attacker_wins), abs=1e-9)


def test_ER_8_14_a_defence_plan_is_not_read_before_the_council_reveals_it() -> None:
    rules, state, asked = volley_loss_question()
    plain = figures(rules.decision_odds(state, "aurel", asked.key, asked.position))
    card = state.players["kesh"].hand[0]
    rules, state, hidden = volley_loss_question({"DEFENCE": f"DEFENCE TACTICS {card}", "LOSSES": "LOSSES ARC"})
    assert figures(rules.decision_odds(state, "aurel", hidden.key, hidden.position)) == plain


def test_ER_14_16_the_order_of_a_sides_players_gets_its_odds_and_equal_figures_are_given_once() -> None:
    """After the melee every die has fallen and the casualty is one unit whoever takes it: one line."""
    rules, state = oro_battle()
    keep(state, "thal", **{"REINFORCE@kesh/THA": "REINFORCE kesh FROM THA 2 INF"})
    result = ask(rules, state, "aurel", DICE, {}, ATTACK)
    asked = next(p for p in result.pending if p.key == "battle.ORO.1.assign_defender")
    assert set(asked.position.plans) == {"aurel", "kesh"}  # after the council: every principal's plan
    (found,) = rules.decision_odds(state, "aurel", asked.key, asked.position)
    assert found[0] == "CASUALTIES kesh, thal" and (found[1].wins, found[1].defender_losses) == (1.0, 1.0)
