"""Conqueror: Empire Rises: the last logic gaps. Cards' effects outside battle (the reading of
ER-8.14: in force once played, for their duration), the megaproject cards' own effects (ER-12.8, ER-12.10), the
spec's game options (ER-0.2), Persia's alternative elite (ER-7.3, ER-12.4) and the temporary capital at the start
of a later phase (ER-11.1, ER-14.5). Positions are built with the real setup on our own example data."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

from adjudicator.resources import resource_dir
from adjudicator.rulesets.conqueror import rounds
from adjudicator.rulesets.conqueror.campaign import block_effects
from adjudicator.rulesets.conqueror.data import Options
from adjudicator.rulesets.conqueror.effects_apply import played_cards
from adjudicator.rulesets.conqueror.effects_triggers import attack_forbidden, discount
from adjudicator.rulesets.conqueror.game import ConquerorGame
from adjudicator.rulesets.conqueror.state import Army, GameState, public_part
from tests.conftest import Pbem
from tests.test_conqueror_campaign import FOUR, campaign_of, keep, of, play, sentences, units, verdicts
from tests.test_conqueror_effects import at
from tests.test_conqueror_new import data_copy, new_er, whole_snapshot
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
    said = "card forced-march: its effect move_twice is in force for aurel until the end of this turn (ER-8.14)."
    assert sentences(forced) == [said]
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


# -- ER-0.2: every Resolution the spec calls a game option is one, its default the Resolution ---------------------

RULES = resource_dir("games") / "conqueror-er" / "rules.md"  # the spec, as the repository holds it
# the option, its rule and the spec's Resolution as the default (chronicle_round1 None: by mode, ER-4.5)
RESOLUTIONS = {
    "chronicle_round1": ("ER-4.5", None),
    "long_spears_cap": ("ER-9.4", "per_unit"),
    "dynasty_first_round": ("ER-11.5", {"imperator": 2, "conquest": 2}),
    "seas_of_destiny": ("ER-0.8", False),  # "an optional module", set at `pbem new`
    "hand_limit": ("ER-13.5", 0),  # "hand limit (default none)"
    "amphibious_assault": ("ER-9.4", 3),  # "Data; if none, +3"
    "temple_coins": ("ER-12.8", 3),
    "temple_vp": ("ER-12.8", 3),
    "port_coins": ("ER-12.10", 1),
}
SET = {  # a value other than the default for each, as `pbem new --option` takes it, and what the game stores
    "chronicle_round1": ("on", True),
    "long_spears_cap": ("per_side", "per_side"),
    "dynasty_first_round": ("imperator:4", {"imperator": 4, "conquest": 2}),
    "seas_of_destiny": ("true", True),
    "hand_limit": ("7", 7),
    "amphibious_assault": ("2", 2),
    "temple_coins": ("4", 4),
    "temple_vp": ("5", 5),
    "port_coins": ("2", 2),
}


def spec_options() -> set[str]:
    """The option names the spec writes after "option" or "game option", and those ER-13.5 lists."""
    text = re.sub(r"\s+", " ", RULES.read_text(encoding="utf-8"))
    named = set(re.findall(r"option `(\w+)`", text))
    listed = re.search(r"ER-13\.5 Options for gaps: (.*?)\. - ER-13\.6", text)
    assert listed is not None
    return named | set(re.findall(r"`(\w+)`", listed.group(1)))


def test_ER_0_2_every_spec_option_is_an_options_field_defaulting_to_its_resolution() -> None:
    named = spec_options()
    assert named >= {"chronicle_round1", "long_spears_cap", "dynasty_first_round"}
    assert named <= set(RESOLUTIONS), (
        f"a game option of the spec without its Resolution here: {named - set(RESOLUTIONS)}"
    )
    defaults = Options()
    assert {f.name for f in fields(Options)} >= set(RESOLUTIONS)
    for name, (rule, resolution) in RESOLUTIONS.items():
        value = getattr(defaults, name)
        assert (dict(value) if hasattr(value, "items") else value) == resolution, rule
    assert not defaults.chronicle_in_round1("imperator") and defaults.chronicle_in_round1("conquest")  # ER-4.5
    assert example().options == defaults  # the example data keeps the Resolutions


def test_ER_0_2_every_game_option_is_settable_with_pbem_new(pbem: Pbem, tmp_path: Path) -> None:
    folder = data_copy(tmp_path)
    pairs = [a for name, (text, _) in SET.items() for a in ("--option", f"{name}={text}")]
    output = new_er(pbem, folder, *pairs)
    assert output.startswith("0\n"), output
    stored = whole_snapshot(pbem, 1)["public"]["options"]
    assert {name: stored[name] for name in SET} == {name: value for name, (_, value) in SET.items()}
    wrong = new_er(pbem, folder, "--option", "dynasty_first_round=later", name="er2")
    assert wrong.startswith("1\n") and "dynasty_first_round=later: write a round number" in wrong


# -- ER-7.3, ER-12.4: Persia's alternative elite moves or attacks twice in the round ---------------------------------


def test_ER_12_4_ER_7_3_persias_alternative_elite_attacks_twice_and_no_more() -> None:
    lines = ("ATTACK 1 ELITE 1 CAV 1 ARC: VAR -> FEN", "ATTACK 1 ELITE: FEN -> TEM", "MOVE 1 ELITE: TEM -> FEN")
    found = {}
    for board in ("alternative-1", "standard"):  # move_twice own.elite, duration round; the standard elite: none
        rules, state = campaign_of("varun", players=5)
        varun = state.players["varun"]
        varun.board, varun.elite = board, "recruited"
        state.army["VAR"].add("elite", 1)
        found[board] = play(rules, state, "varun", [FOUR] * 6, *lines)
    twice = found["alternative-1"]
    assert verdicts(twice, "varun") == [(True, ""), (True, ""), (False, "ER-7.2")]  # a third move: exhausted
    assert units(twice.state, "TEM") == ("varun", {"elite": 1})
    assert verdicts(found["standard"], "varun") == [(True, ""), (False, "ER-7.2"), (False, "ER-7.2")]


# -- ER-11.1, ER-14.5: the temporary capital at the start of a later phase -----------------------------------------


def capital_lost() -> tuple[ConquerorGame, GameState]:
    """A 3-player game: aurel holds kesh's capital KES, kesh's units stand in BRE (taken without a battle, so
    nothing placed its temporary capital yet) and MIR; kesh controls no large fort (ER-11.1)."""
    rules, state = set_up(3)
    kesh, aurel = state.army.pop("KES"), state.army.pop("AUR")
    state.army["KES"] = aurel
    del state.army["MIR"]  # the independent army there is gone
    state.army["BRE"] = Army("kesh", {"infantry": 2})
    state.army["MIR"] = Army("kesh", {k: n for k, n in kesh.units.items() if k != "infantry"})
    assert state.players["kesh"].temporary_capital is None
    return rules, state


def test_ER_11_1_a_temporary_capital_due_is_placed_as_taxation_begins() -> None:
    rules, state = capital_lost()
    after, events = run(rules, at(state, "taxation", 1))
    placed = [e for e in events if e.kind == "temporary_capital_placed"]
    assert [(e.seat, e.data["area"]) for e in placed] == [("kesh", "BRE")]  # ER-14.5: most units, then lowest id
    assert after.players["kesh"].temporary_capital == "BRE"
    assert events.index(placed[0]) < events.index(next(e for e in events if e.kind == "taxes"))  # +1 coin counted


def test_ER_11_1_ER_14_5_the_standing_capital_list_is_followed_at_a_campaign_turns_start() -> None:
    rules, state = capital_lost()
    keep(state, "kesh", CAPITAL="CAPITAL MIR")
    state.phase, state.campaign_index = "campaign", state.in_play().index("aurel")
    result = play(rules, state, "aurel", [])
    assert result.state.players["kesh"].temporary_capital == "MIR"
    assert [e.data["area"] for e in of(result.events, "temporary_capital_placed")] == ["MIR"]


def test_ER_8_2_pbem_data_check_names_a_cards_volley_effect(pbem: Pbem, tmp_path: Path) -> None:
    folder = data_copy(tmp_path)
    cards = folder / "cards.toml"
    text = cards.read_text(encoding="utf-8")
    melee = 'per = "side.archer", cap = 2, when = "battle.melee"'  # the tactic card volley-drill
    cards.write_text(text.replace(melee, 'per = "side.archer", cap = 2, when = "battle.volley"', 1), encoding="utf-8")
    result = pbem("data", "check", str(folder), data=False)
    assert result.exit_code == 1
    assert "cards.toml: tactic[2].effects[0].when (ER-8.2): cards are played after the archer volley" in result.output
