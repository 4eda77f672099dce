"""Odds in Conqueror: Empire Rises receipts: for every battle a campaign turn's orders would start, the exact odds
and expected losses of the battle as it would start (odds.battle_odds on the real battle's inputs), with the
attacker's own plan and standing orders, and nothing the attacker cannot see: the defender's hand, face-down heroes
and standing orders (ER-14) leave the figure as it is."""

from __future__ import annotations

from pathlib import Path

from adjudicator.archive import Archive
from adjudicator.engine.chance import KeyedDice
from adjudicator.rulesets.conqueror import battle_types as bt
from adjudicator.rulesets.conqueror.attack_odds import as_seen_by
from adjudicator.rulesets.conqueror.battle_setup import Attack, build_battle, standing_of
from adjudicator.rulesets.conqueror.game import ConquerorGame
from adjudicator.rulesets.conqueror.odds import battle_odds
from adjudicator.rulesets.conqueror.orders import BattlePlan
from adjudicator.rulesets.conqueror.setup import options_from_json
from adjudicator.rulesets.conqueror.state import Army, GameState
from adjudicator.services.game_reads import current_game
from tests.conftest import Pbem
from tests.test_conqueror_asks import play_until
from tests.test_conqueror_campaign import campaign_of, orders
from tests.test_conqueror_receipts_i18n import mailed, start

NO_DICE = KeyedDice(key=bytes(32))
ATTACK_SOL = "ATTACK 1 CAV 2 INF 1 ARC: AUR -> SOL TACTICS rally"
SECRETS = {  # thal's standing orders that would change the figure: a defence plan playing its card, its losses
    "defence": "DEFENCE TACTIC last-stand",
    "losses": "LOSSES INF, CAV, ARC",
}


def border_war() -> tuple[ConquerorGame, GameState]:
    """Aurel's campaign turn; thal holds SOL (a small fort) next to aurel's capital AUR with 1 CAV 2 INF."""
    rules, state = campaign_of("aurel")
    state.army["SOL"] = Army("thal", {"cavalry": 1, "infantry": 2})
    state.army["THA"].units["infantry"] -= 2  # the pieces came from thal's own army (ER-2.4: one army an area)
    return rules, state


def odds_of(rules: ConquerorGame, state: GameState, *lines: str) -> list[tuple[object, ...]]:
    found = rules.attack_odds(state, "aurel", 5, orders("aurel", *lines))
    return [(o.area, o.attacker, o.defender, o.wins, o.attacker_losses, o.defender_losses) for o in found]


def test_conqueror_receipt_odds_are_the_odds_of_the_battle_the_attack_starts() -> None:
    """ER-8: the real battle's inputs (build_battle) with aurel's plan (ER-8.13: rally) and every player's default
    standing orders (ER-14) give what the receipt says."""
    rules, state = border_war()
    attack = Attack("aurel", "AUR", "SOL", {"cavalry": 1, "infantry": 2, "archer": 1}, BattlePlan(tactics=("rally",)))
    battle = build_battle(state, rules.data, options_from_json(state.options), attack)
    odds = battle_odds(battle, {"aurel": bt.Plan(tactics=("rally",))}, standing_of(state, rules.data, battle))
    assert odds_of(rules, state, ATTACK_SOL) == [
        (
            "SOL",
            "1 CAV 2 INF 1 ARC (rally)",
            "thal 1 CAV 2 INF, small fort",
            float(odds.attacker_wins),
            float(odds.expected_losses["aurel"]),
            float(odds.expected_losses["thal"]),
        )
    ]


def test_conqueror_odds_never_read_what_the_attacker_cannot_see() -> None:
    """ER-14, ER-14.14: thal's standing orders, hand and face-down heroes are its secret: a position with other
    ones gives the same line; read, they would change it."""
    rules, state = border_war()
    plain = odds_of(rules, state, ATTACK_SOL)
    secret = state.copy()
    secret.players["thal"].standing = dict(SECRETS)
    secret.players["thal"].hand = ["last-stand", "last-stand"]
    secret.players["thal"].heroes_down = [rules.data.cards.heroes[0].id]
    secret.decks.automa.reverse()  # the automa deck's order is nobody's to know (ER-8.31)
    assert odds_of(rules, secret, ATTACK_SOL) == plain
    attack = Attack("aurel", "AUR", "SOL", {"cavalry": 1, "infantry": 2, "archer": 1}, BattlePlan(tactics=("rally",)))
    battle = build_battle(secret, rules.data, options_from_json(secret.options), attack)
    plans = {"aurel": bt.Plan(tactics=("rally",)), "thal": bt.Plan(tactics=("last-stand",))}
    leaked = battle_odds(battle, plans, standing_of(secret, rules.data, battle))
    assert float(leaked.attacker_wins) != plain[0][3]


def test_conqueror_odds_never_read_a_third_players_standing_reinforcement() -> None:
    """ER-14.12: kesh's standing order to reinforce thal from VAL, next to SOL, is kesh's secret: the figure takes
    ER-14.12's default (nobody else reinforces); fought, the battle would have kesh's units on thal's side."""
    rules, state = border_war()
    state.army["VAL"] = Army("kesh", {"cavalry": 2, "infantry": 2})
    plain = odds_of(rules, state, ATTACK_SOL)
    state.players["kesh"].standing = {"reinforce": "REINFORCE thal FROM VAL"}
    assert odds_of(rules, state, ATTACK_SOL) == plain
    attack = Attack("aurel", "AUR", "SOL", {"cavalry": 1, "infantry": 2, "archer": 1}, BattlePlan(tactics=("rally",)))
    battle = build_battle(state, rules.data, options_from_json(state.options), attack)
    assert [joined.army.player for joined in battle.reinforcements] == ["kesh"]  # read, it would join
    leaked = battle_odds(battle, {"aurel": bt.Plan(tactics=("rally",))}, standing_of(state, rules.data, battle))
    assert float(leaked.attacker_wins) != plain[0][3]


def test_conqueror_odds_count_the_attackers_own_plan_and_standing_orders() -> None:
    """ER-8.13: the tactic card aurel plays with the attack is his to know, and the figure follows it; his own
    standing orders stay in the position the odds read (ER-14.13)."""
    rules, state = border_war()
    without = odds_of(rules, state, "ATTACK 1 CAV 2 INF 1 ARC: AUR -> SOL")
    assert without[0][3] != odds_of(rules, state, ATTACK_SOL)[0][3]
    state.players["aurel"].standing = {"losses": "LOSSES CAV, INF, ARC"}
    assert as_seen_by(state, "aurel").players["aurel"].standing == state.players["aurel"].standing


def test_conqueror_orders_without_an_attack_have_no_odds() -> None:
    rules, state = border_war()
    assert odds_of(rules, state, "MOVE 1 INF: AUR -> WSE") == []


def test_conqueror_odds_of_an_attack_on_an_independent_army_average_the_automa_deck() -> None:
    """ER-8.31: the top automa card is unknown to all, so each card of the deck counts by its share."""
    rules, state = border_war()
    [(area, _, defender, wins, *_)] = odds_of(rules, state, "ATTACK 1 CAV 2 INF 1 ARC: AUR -> MIR")
    attack = Attack("aurel", "AUR", "MIR", {"cavalry": 1, "infantry": 2, "archer": 1}, BattlePlan())
    battle = build_battle(state, rules.data, options_from_json(state.options), attack)
    assert (area, defender) == ("MIR", "independent 2 CAV 1 INF")
    assert wins == float(battle_odds(battle, {}).attacker_wins)


def test_conqueror_three_attacks_of_three_armies_each_have_their_line() -> None:
    """ER-7.11: the orders in the order written, each battle as it would start (an earlier attack checked as
    failing, campaign.check_campaign); an army that attacked is exhausted (ER-7.2), so its second attack starts no
    battle and has no line."""
    rules, state = border_war()
    state.army["BRE"] = Army("aurel", {"cavalry": 2, "infantry": 3, "archer": 1})
    state.army["ILS"] = Army("aurel", {"cavalry": 1, "infantry": 2})
    three = odds_of(
        rules,
        state,
        ATTACK_SOL,
        "ATTACK 1 CAV: AUR -> MIR",
        "ATTACK 2 CAV 3 INF 1 ARC: BRE -> VAL",
        "ATTACK 1 CAV 2 INF: ILS -> GAR",
    )
    assert [line[0] for line in three] == ["SOL", "VAL", "GAR"]


def test_conqueror_odds_reach_the_player_by_mail(pbem: Pbem, tmp_path: Path) -> None:
    """A campaign attack mailed through ingest: the receipt holds the line the ruleset computes on the game's
    position, in the seat's own language (kesh reads German)."""
    start(pbem, tmp_path)
    number = play_until(pbem, 1, "kesh", {})
    attack = "ATTACK 1 CAV 2 INF 1 ARC: KES -> PEL"
    body = mailed(pbem, "kesh", number, attack)
    with Archive.open(pbem.data, pbem.db).session() as session:
        _, rules, state = current_game(session, "er1")
    [odds] = rules.attack_odds(state, "kesh", number, orders("kesh", attack))
    assert (odds.area, odds.defender) == ("PEL", "independent 1 CAV 1 INF")
    line = next(line.strip() for line in body.splitlines() if line.strip().startswith("PEL: "))
    assert f"{100 * odds.wins:.1f}%" in line and f"{odds.attacker_losses:.2f}" in line, body
    assert f"{odds.defender_losses:.2f}" in line


def test_ER_7_3_a_thoroughbred_attack_made_again_is_one_battle_and_one_line() -> None:
    """ER-7.3, ER-15.8: Thoroughbred cavalry back from a failed attack may attack again with its second move; checked
    as failing, the second attack is the same battle, computed and printed once."""
    rules, state = border_war()
    state.players["aurel"].upgrades.append("thoroughbred")
    state.supply.upgrades["thoroughbred"] -= 1
    twice = ("ATTACK 1 CAV: AUR -> MIR", "ATTACK 1 CAV: AUR -> MIR")
    step = rules.due(state)
    assert step is not None
    verdicts = rules.check_orders(state, "aurel", step.number, orders("aurel", *twice), NO_DICE)
    assert [v.accepted for v in verdicts] == [True, True]
    assert [line[0] for line in odds_of(rules, state, *twice)] == ["MIR"]
