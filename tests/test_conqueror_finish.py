"""Conqueror: Empire Rises: the last logic gaps (issue 14, wave 3). Cards' effects outside battle (the reading of
ER-8.14: in force once played, for their duration), the megaproject cards' own effects (ER-12.8, ER-12.10), the
spec's game options (ER-0.2), Persia's alternative elite (ER-7.3, ER-12.4) and the temporary capital at the start
of a later phase (ER-11.1, ER-14.5). Positions are built with the real setup on our own example data."""

from __future__ import annotations

from adjudicator.rulesets.conqueror import rounds
from adjudicator.rulesets.conqueror.campaign import block_effects
from adjudicator.rulesets.conqueror.effects_apply import played_cards
from adjudicator.rulesets.conqueror.effects_triggers import attack_forbidden, discount
from adjudicator.rulesets.conqueror.state import public_part
from tests.test_conqueror_campaign import FOUR, campaign_of, keep, of, play, units, verdicts
from tests.test_conqueror_effects import at
from tests.test_conqueror_politics import play as play_plans
from tests.test_conqueror_setup import run, to_phase
from tests.test_conqueror_state import example, set_up

# -- cards' effects outside battle (ER-8.14 reading, ER-13.6 duration) ---------------------------------------------


def test_ER_8_14_a_played_tactics_move_twice_acts_for_the_rest_of_the_turn_then_ends() -> None:
    rules, state = campaign_of("aurel")
    state.decks.tactics.remove("forced-march")
    state.players["aurel"].hand.append("forced-march")  # move_twice own.any, duration turn
    before = play(rules, state, "aurel", [], "MOVE 1 INF: AUR -> SOL -> WSE")
    assert verdicts(before, "aurel") == [(False, "ER-7.3")]  # held in hand, not played: no effect
    lines = ("ATTACK 1 CAV 1 INF 1 ARC: AUR -> MIR TACTICS forced-march", "MOVE 1 INF: AUR -> SOL -> WSE")
    result = play(rules, state, "aurel", [FOUR, FOUR], *lines)
    assert verdicts(result, "aurel") == [(True, ""), (True, "")]
    assert units(result.state, "WSE") == ("aurel", {"infantry": 1})
    forced = of(result.events, "effect_in_force")
    assert [e.data for e in forced] == [{"source": "card forced-march", "op": "move_twice", "duration": "turn"}]
    assert result.state.players["aurel"].in_force == []  # the turn ended: so did the effect


def test_ER_8_14_a_face_down_hero_takes_force_only_at_its_reveal() -> None:
    rules, state = campaign_of("thal")
    state.players["thal"].heroes_down.append("thal-5")  # move_twice own.infantry for the turn
    held = play(rules, state, "thal", [], "MOVE 2 INF: THA -> ORO -> BRE")
    assert verdicts(held, "thal") == [(False, "ER-7.3")]
    assert "in_force" not in public_part(held.state)["factions"]["thal"]  # nothing of the hero shows
    lines = ("ATTACK 1 CAV 1 ARC: THA -> GAR HERO thal-5", "MOVE 2 INF: THA -> ORO -> BRE")
    result = play(rules, state, "thal", [FOUR, FOUR], *lines)
    assert verdicts(result, "thal") == [(True, ""), (True, "")]
    assert units(result.state, "BRE") == ("thal", {"infantry": 2})
    revealed = of(result.events, "effect_in_force")[0]
    assert revealed.visible_to is None and revealed.data["source"] == "card thal-5"  # public once revealed


def test_ER_8_14_a_game_long_discount_of_a_played_hero_lowers_the_district_price_later() -> None:
    rules, state = set_up(4)
    data = example()
    plain = to_phase(rules, state.copy(), "plans")
    played_cards(state, data, "sunmar", "aurel", ["sunmar-5"], after_win=False)  # discount district 1, game
    assert state.players["sunmar"].in_force == ["sunmar-5:0:game"]
    state = to_phase(rules, state, "plans")
    assert discount(state, data, "sunmar", "district") == 1
    state.players["sunmar"].coins = plain.players["sunmar"].coins = 30
    texts = {"sunmar": "AGENT BAZAAR"}
    cheap = next(e for e in play_plans(rules, state, texts).events if e.kind == "district_built")
    full = next(e for e in play_plans(rules, plain, texts).events if e.kind == "district_built")
    assert cheap.data["price"] == full.data["price"] - 1


def test_ER_8_14_on_gain_coins_of_a_played_hero_answers_the_next_taxation() -> None:
    rules, state = set_up(5)
    data = example()
    played_cards(state, data, "varun", None, ["varun-4"], after_win=True)  # +1 whenever coins are gained
    at(state, "taxation")
    coins = {f: p.coins for f, p in state.players.items()}
    after, events = run(rules, state)
    gained = {f: after.players[f].coins - coins[f] for f in coins}
    printed = rounds.income(state, data, "varun")
    assert gained["varun"] >= printed + 1
    extra = [e for e in events if e.kind == "effect_applied" and e.data["source"] == "card varun-4"]
    assert [(e.seat, e.data["n"]) for e in extra] == [("varun", 1)]


def test_ER_8_14_a_ban_after_a_won_battle_binds_the_opponent_for_the_round_only() -> None:
    rules, state = set_up(6)
    data = example()
    lost = played_cards(state, data, "ostra", "kesh", ["ostra-4"], after_win=False)
    assert lost == [] and not attack_forbidden(state, data, "kesh", "faction")  # no win, no ban
    played_cards(state, data, "ostra", "kesh", ["ostra-4"], after_win=True)  # forbid_attack faction, opponent
    assert attack_forbidden(state, data, "kesh", "faction")
    assert not attack_forbidden(state, data, "ostra", "faction")
    after = to_phase(rules, at(state, "end_of_round"), "taxation")
    assert after.round == state.round + 1 and not attack_forbidden(after, data, "kesh", "faction")


def test_ER_8_14_a_played_block_card_lets_its_owner_block_at_later_turns_of_the_round() -> None:
    rules, state = campaign_of("aurel", players=5)  # varun on its standard board: no block of its own
    data = example()
    keep(state, "varun", BLOCK="BLOCK aurel MAX 4")
    assert block_effects(state, data, "varun") == []
    free = play(rules, state.copy(), "aurel", [], "MOVE 1 CAV 1 INF: AUR -> SOL")
    assert verdicts(free, "aurel") == [(True, "")]
    played_cards(state, data, "varun", "kesh", ["varun-3"], after_win=False)  # block_move 4, cost 0, round
    assert state.players["kesh"].in_force == []  # the block is its owner's, whoever it stops
    coins = state.players["varun"].coins
    result = play(rules, state, "aurel", [], "MOVE 1 CAV 1 INF: AUR -> SOL")
    assert verdicts(result, "aurel") == [(False, "ER-12.5")]
    assert result.state.players["varun"].coins == coins  # this card's block costs nothing
