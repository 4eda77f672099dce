"""Odds in Conqueror: Empire Rises receipts: for every battle a campaign turn's orders would start, the exact odds
and expected losses of the battle as it would start (odds.battle_odds on the real battle's inputs), with the
attacker's own plan and standing orders, and nothing the attacker cannot see: the defender's hand, face-down heroes
and standing orders (ER-14) leave the figure as it is. A second figure weighs the defender's hidden hand: its size
is known (ER-6.10), its cards any of those the attacker has not seen, each played where it would help him (ER-8.13)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from adjudicator.archive import Archive
from adjudicator.engine.chance import KeyedDice
from adjudicator.rulesets.conqueror import attack_odds
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


def with_unseen(rules: ConquerorGame, state: GameState, unseen: dict[str, int], thal_hand: list[str]) -> GameState:
    """`state` where the tactic cards aurel has not seen are `unseen` (every other card discarded but the Rally
    aurel holds, ER-1.2), thal holding `thal_hand` of them and the deck the rest; kesh holds none."""
    state = state.copy()
    every = [card.id for card in rules.data.cards.tactics for _ in range(card.count)]
    hidden = [card for card, count in unseen.items() for _ in range(count)]
    discards = list(every)
    for card in [*hidden, "rally"]:
        discards.remove(card)
    deck = list(hidden)
    for card in thal_hand:
        deck.remove(card)
    state.decks.tactic_discards, state.decks.tactics = discards, deck
    for seat, player in state.players.items():
        player.hand = {"thal": list(thal_hand), "aurel": ["rally"]}.get(seat, [])
    return state


def sol_battle(rules: ConquerorGame, state: GameState, thal_plays: tuple[str, ...] = ()) -> bt.Battle:
    attack = Attack("aurel", "AUR", "SOL", {"cavalry": 1, "infantry": 2, "archer": 1}, BattlePlan(tactics=("rally",)))
    state = state.copy()
    state.players["thal"].hand = list(thal_plays)
    return build_battle(state, rules.data, options_from_json(state.options), attack)


def wins_if(rules: ConquerorGame, state: GameState, thal_plays: tuple[str, ...]) -> Fraction:
    """aurel's chance at SOL if thal plays `thal_plays` (odds.battle_odds on the real battle's inputs)."""
    battle = sol_battle(rules, state, thal_plays)
    plans = {"aurel": bt.Plan(tactics=("rally",)), "thal": bt.Plan(tactics=thal_plays)}
    return battle_odds(battle, plans, standing_of(as_seen_by(state, "aurel"), rules.data, battle)).attacker_wins


def if_played(rules: ConquerorGame, state: GameState) -> object:
    [line] = rules.attack_odds(state, "aurel", 5, orders("aurel", ATTACK_SOL))
    return line.if_played


def test_ER_8_13_a_defender_whose_hand_can_only_hold_one_card_is_taken_to_play_it() -> None:
    """The only tactic cards aurel has not seen are 4 Last Stand; thal holds one card: it is one of them, and he
    plays it (it helps him: ER-8.13). The second figure is the battle with it played."""
    rules, state = border_war()
    state = with_unseen(rules, state, {"last-stand": 4}, ["last-stand"])
    played = if_played(rules, state)
    assert played is not None
    assert (played.cards, played.helps, played.sets) == (1, 1.0, 1)
    assert played.wins == float(wins_if(rules, state, ("last-stand",)))
    assert played.wins < float(wins_if(rules, state, ()))


def test_ER_8_13_each_hand_counts_by_its_share_and_a_card_without_effect_here_is_not_played() -> None:
    """4 Last Stand and 3 Forced March unseen (a campaign card: no effect in a battle), thal holds 1: with 4 chances
    in 7 he holds a Last Stand and plays it; else he plays nothing."""
    rules, state = border_war()
    state = with_unseen(rules, state, {"last-stand": 4, "forced-march": 3}, ["forced-march"])
    played = if_played(rules, state)
    assert played is not None
    assert (played.cards, played.sets) == (1, 2)
    assert played.helps == float(Fraction(4, 7))
    expected = Fraction(4, 7) * wins_if(rules, state, ("last-stand",)) + Fraction(3, 7) * wins_if(rules, state, ())
    assert played.wins == float(expected)


def test_ER_8_13_a_hand_of_two_weighs_each_pair_it_could_hold() -> None:
    """Two cards from 2 Last Stand and 1 Forced March: both Last Stands (1 way in 3) or one of them (2 ways)."""
    rules, state = border_war()
    state = with_unseen(rules, state, {"last-stand": 2, "forced-march": 1}, ["last-stand", "forced-march"])
    played = if_played(rules, state)
    assert played is not None
    assert (played.cards, played.sets, played.helps) == (2, 2, 1.0)
    both, one = wins_if(rules, state, ("last-stand", "last-stand")), wins_if(rules, state, ("last-stand",))
    assert played.wins == float(Fraction(1, 3) * both + Fraction(2, 3) * one)


def test_ER_6_10_the_cards_in_the_defenders_hand_never_shape_the_figure_but_their_number_does() -> None:
    """Two positions that differ only in which unseen cards thal holds (and so which lie in the deck) give the
    same second figure; one more card in his hand changes it."""
    rules, state = border_war()
    unseen = {"last-stand": 4, "forced-march": 3, "charge": 2}
    first = if_played(rules, with_unseen(rules, state, unseen, ["forced-march"]))
    assert first == if_played(rules, with_unseen(rules, state, unseen, ["last-stand"]))
    assert first == if_played(rules, with_unseen(rules, state, unseen, ["charge"]))
    more = if_played(rules, with_unseen(rules, state, unseen, ["charge", "charge"]))
    assert more is not None and first is not None and more.cards == 2 and more.wins != first.wins


def test_ER_6_10_an_empty_hand_has_no_second_figure_nor_has_an_independent_army() -> None:
    rules, state = border_war()
    assert if_played(rules, with_unseen(rules, state, {"last-stand": 4}, [])) is None
    [line] = rules.attack_odds(state, "aurel", 5, orders("aurel", "ATTACK 1 CAV 2 INF 1 ARC: AUR -> MIR"))
    assert line.if_played is None


def test_a_receipt_weighs_at_most_its_limit_of_sets_of_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    """At the limit the sets are weighed; one past it the line says the hand is too large to weigh, with the
    chance that he holds a card that would help him. On the game's full deck a hand of 4 (692 sets) is weighed and a
    hand of 5 (over 1800 sets) is not."""
    rules, state = border_war()
    two_sets = with_unseen(rules, state, {"last-stand": 4, "forced-march": 3}, ["forced-march"])
    monkeypatch.setattr(attack_odds, "MOST_PLAYED_SETS", 2)
    assert if_played(rules, two_sets).wins is not None  # type: ignore[attr-defined]
    monkeypatch.setattr(attack_odds, "MOST_PLAYED_SETS", 1)
    too_many = if_played(rules, two_sets)
    assert too_many is not None and (too_many.wins, too_many.sets, too_many.helps) == (None, 1, float(Fraction(4, 7)))
    monkeypatch.undo()
    deck = state.decks.tactics
    state.players["thal"].hand, state.decks.tactics = deck[:4], deck[4:]
    assert if_played(rules, state).wins is not None  # type: ignore[attr-defined]
    state.players["thal"].hand, state.decks.tactics = deck[:5], deck[5:]
    assert if_played(rules, state).wins is None  # type: ignore[attr-defined]


@pytest.mark.parametrize("defending", [{"cavalry": 3, "infantry": 3, "archer": 2}, {"infantry": 1}])
def test_ER_8_13_hand_odds_are_the_battle_odds_of_each_set_of_cards(defending: dict[str, int]) -> None:
    """odds.hand_odds (the volley played once, ER-8.2; sets of cards alike in what they do played on as one) gives
    each set of thal's cards exactly the odds battle_odds gives it: every set of up to 2 of the game's tactic cards
    and some of 3, against an army whose volley can end in several ways, and one the volley can wipe out (ER-8.26)."""
    from itertools import combinations_with_replacement

    from adjudicator.rulesets.conqueror.odds import hand_odds

    rules, state = border_war()
    state.army["SOL"] = Army("thal", defending)
    kinds = sorted(card.id for card in rules.data.cards.tactics)
    sets = [cards for n in (0, 1, 2) for cards in combinations_with_replacement(kinds, n)]
    sets += [("ambush", "breach", "shield-wall"), ("rally", "sea-raid", "spoils"), ("charge", "charge", "last-stand")]
    battle = sol_battle(rules, state)
    plans = {"aurel": bt.Plan(tactics=("rally",))}
    standing = standing_of(as_seen_by(state, "aurel"), rules.data, battle)
    expected = [
        battle_odds(sol_battle(rules, state, cards), {**plans, "thal": bt.Plan(tactics=cards)}, standing)
        for cards in sets
    ]
    assert hand_odds(battle, plans, standing, sets) == expected


def test_the_receipt_prints_the_figure_if_the_defender_plays_his_cards() -> None:
    """The receipt's odds line is followed by the second figure, in the reader's language, in per cent as the
    first; a hand too large to weigh is said to be so."""
    from adjudicator.services.orders import checked_receipt

    rules, state = border_war()
    state = with_unseen(rules, state, {"last-stand": 4, "forced-march": 3}, ["forced-march"])
    receipt = checked_receipt("g1", "round", rules, state, orders("aurel", ATTACK_SOL), "aurel", 5)
    played = receipt.odds[0].if_played
    assert played is not None and played.wins is not None
    text = receipt.text
    line = next(line.strip() for line in text.splitlines() if line.strip().startswith("if he plays every card"))
    assert f"you win {100 * played.wins:.1f}%" in line and "1 in his hand" in line and "57.1%" in line, text
    assert "wenn er jede Karte spielt" in receipt.text_in("de")


# -- ER-8.12: the defender's heroes ----------------------------------------------------------------------------


def with_heroes(state: GameState, down: list[str], up: tuple[str, ...] = ()) -> GameState:
    """`state` where thal holds the heroes `down` face down and `up` face up (used once, ER-6.11)."""
    state = state.copy()
    thal = state.players["thal"]
    thal.heroes_down, thal.heroes_up = list(down), dict.fromkeys(up, 1)
    return state


def thal_heroes(rules: ConquerorGame) -> list[str]:
    return sorted(hero.id for hero in rules.data.cards.heroes if hero.faction == "thal")


def wins_with(rules: ConquerorGame, state: GameState, heroes: tuple[str, ...]) -> Fraction:
    """aurel's chance at SOL if thal, holding his heroes as `state` says, plays `heroes` and no card."""
    battle = sol_battle(rules, state)
    plans = {"aurel": bt.Plan(tactics=("rally",)), "thal": bt.Plan(heroes=heroes)}
    return battle_odds(battle, plans, standing_of(as_seen_by(state, "aurel"), rules.data, battle)).attacker_wins


def test_ER_8_12_a_face_down_hero_is_weighed_over_every_hero_the_defender_could_hold() -> None:
    """thal holds no card and one hero face down: any of his faction's 5, each as likely (he chose it, nobody sees
    which, ER-6.10); he plays it if it helps him (ER-8.12). The figure is the mean of the battle with each of them
    played; one of them has no effect in a battle, so he holds a hero that helps with 4 chances in 5."""
    rules, state = border_war()
    state = with_unseen(rules, state, {"last-stand": 4}, [])
    heroes = thal_heroes(rules)
    assert len(heroes) == 5
    played = if_played(rules, with_heroes(state, heroes[:1]))
    assert played is not None and played.heroes == 1 and played.cards == 0
    each = [wins_with(rules, with_heroes(state, [hero]), (hero,)) for hero in heroes]
    helping = [wins for wins in each if wins < wins_with(rules, state, ())]
    assert len(helping) == 4  # the fifth changes nothing here: played or not, the same battle
    assert played.wins == float(sum(each, Fraction(0)) / 5)
    assert (played.helps, played.sets) == (0.8, 5)  # each helping hero, or none played


def test_ER_6_10_which_heroes_the_defender_holds_face_down_never_shapes_the_figure_but_their_number_does() -> None:
    rules, state = border_war()
    state = with_unseen(rules, state, {"last-stand": 4}, [])
    heroes = thal_heroes(rules)
    first = if_played(rules, with_heroes(state, heroes[:1]))
    assert first == if_played(rules, with_heroes(state, heroes[3:4]))
    two = if_played(rules, with_heroes(state, heroes[1:3]))
    assert two is not None and first is not None and two.heroes == 2 and two.wins != first.wins
    assert two == if_played(rules, with_heroes(state, [heroes[0], heroes[4]]))


def test_ER_8_12_a_face_up_hero_is_known_and_played_and_is_no_hero_he_could_hold_face_down() -> None:
    """A hero used once lies face up (ER-6.11): everybody knows it. With no hero face down, the figure is the
    battle with it played; with one face down too, that one is any of the other 4."""
    rules, state = border_war()
    state = with_unseen(rules, state, {"last-stand": 4}, [])
    heroes = thal_heroes(rules)
    known = with_heroes(state, [], up=(heroes[0],))
    played = if_played(rules, known)
    assert played is not None and (played.heroes, played.sets) == (0, 1)
    assert played.wins == float(wins_with(rules, known, (heroes[0],)))
    both = if_played(rules, with_heroes(state, heroes[1:2], up=(heroes[0],)))
    each = [wins_with(rules, with_heroes(state, [h], up=(heroes[0],)), (heroes[0], h)) for h in heroes[1:]]
    assert both is not None and both.wins == float(sum(each, Fraction(0)) / 4)


def test_the_receipt_names_the_heroes_weighed_in_the_readers_language() -> None:
    from adjudicator.services.orders import checked_receipt

    rules, state = border_war()
    state = with_unseen(rules, state, {"last-stand": 4, "forced-march": 3}, ["forced-march"])
    state = with_heroes(state, thal_heroes(rules)[:1])
    receipt = checked_receipt("g1", "round", rules, state, orders("aurel", ATTACK_SOL), "aurel", 5)
    played = receipt.odds[0].if_played
    assert played is not None and played.wins is not None and played.heroes == 1
    line = next(line.strip() for line in receipt.text.splitlines() if line.strip().startswith("if he plays every"))
    assert "every card and hero" in line and "cards in his hand: 1; heroes face down: 1" in line, receipt.text
    assert f"you win {100 * played.wins:.1f}%" in line
    assert "Helden" in receipt.text_in("de")


def test_the_limit_counts_the_sets_of_cards_and_heroes_together(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hand of one card (4 chances in 7 to help him) and one hero face down (4 of his 5 help): 2 sets of cards
    times 5 sets of heroes are 10 sets, weighed at a limit of 10 and too many at 9; the receipt then says so."""
    from adjudicator.services.orders import checked_receipt

    rules, state = border_war()
    state = with_unseen(rules, state, {"last-stand": 4, "forced-march": 3}, ["forced-march"])
    state = with_heroes(state, thal_heroes(rules)[:1])
    monkeypatch.setattr(attack_odds, "MOST_PLAYED_SETS", 10)
    weighed = if_played(rules, state)
    assert weighed is not None and weighed.sets == 10 and weighed.wins is not None
    monkeypatch.setattr(attack_odds, "MOST_PLAYED_SETS", 9)
    too_many = if_played(rules, state)
    assert too_many is not None and (too_many.wins, too_many.sets, too_many.heroes) == (None, 9, 1)
    assert too_many.helps == weighed.helps == float(1 - Fraction(3, 7) * Fraction(1, 5))
    text = checked_receipt("g1", "round", rules, state, orders("aurel", ATTACK_SOL), "aurel", 5).text
    assert "too many hands to weigh (more than 9 sets of cards and heroes)" in text, text
