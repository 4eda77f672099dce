"""Conqueror: Empire Rises: the campaign step (ER-7 movement, ER-8 battles applied to the state, ER-11.1 to
ER-11.3, ER-12.12, ER-15). Each test sets up a position with the real setup on our own example data
(games/conqueror-er/example-data, invented for pbem), parses the seat's orders with the game's order language,
resolves the step through the engine and checks what the rule demands, refusals included.

Dice (ER-0.4): a dice-file number i gives face [1, 1, 2, 3, 4, 4][i - 1]; FOUR (5) is a 4, ONE (1) is a 1."""

from __future__ import annotations

from functools import cache

from adjudicator.engine.chance import GivenDice
from adjudicator.engine.steps import StepResult, resolve_step
from adjudicator.engine.vocabulary import Event
from adjudicator.orders import parse_orders
from adjudicator.orders.sets import OrderSet
from adjudicator.rulesets.conqueror.game import ConquerorGame
from adjudicator.rulesets.conqueror.parse import OrderLanguage
from adjudicator.rulesets.conqueror.state import Army, GameState
from tests.test_conqueror_state import example, set_up

ONE, TWO, FOUR = 1, 3, 5  # dice-file numbers for the faces 1, 2 and 4 (ER-0.4)
AUTOMA = ["automa-2", "automa-1", "automa-3", "automa-4", "automa-5"]  # automa-2: strength 2, 1 casualty


@cache
def language(side: str = "3-4") -> OrderLanguage:
    return OrderLanguage(example(), side)


def orders(seat: str, *lines: str, side: str = "3-4") -> OrderSet:
    text = "\n".join([f"GAME g1 TURN 5 PLAYER {seat} PASSWORD x", *lines])
    found = parse_orders(text, language(side))  # type: ignore[arg-type]
    assert found.errors == (), found.errors
    return found


def campaign_of(seat: str, players: int = 3) -> tuple[ConquerorGame, GameState]:
    """A 3-player game (kesh, aurel, thal; or `players`) after setup, at `seat`'s campaign turn, the automa deck
    in a known order."""
    rules, state = set_up(players)
    state.phase, state.campaign_index = "campaign", state.in_play().index(seat)
    state.decks.automa = list(AUTOMA)
    return rules, state


def play(rules: ConquerorGame, state: GameState, seat: str, given: list[int], *lines: str) -> StepResult:
    step = rules.due(state)
    assert step is not None and step.phase == "campaign" and step.seats == (seat,)
    side = example().map_for(state.players_count).side
    return resolve_step(rules, state, step, {seat: orders(seat, *lines, side=side)}, GivenDice(values=given))


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def of(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


def verdicts(result: StepResult, seat: str) -> list[tuple[bool, str]]:
    return [(r.accepted, r.rule) for r in result.order_results[seat]]


def units(state: GameState, area: str) -> tuple[str, dict[str, int]] | None:
    army = state.army.get(area)
    return (army.owner, dict(army.units)) if army is not None else None


# -- movement (ER-7) --------------------------------------------------------------------------------------------------


def test_ER_7_1_units_are_readied_at_the_end_of_the_turn_and_the_next_seat_follows() -> None:
    rules, state = campaign_of("aurel")
    result = play(rules, state, "aurel", [], "MOVE 1 INF: AUR -> SOL")
    assert result.state.army["SOL"].exhausted == {}  # ER-7.1 (2): readied
    assert result.state.phase == "campaign" and rules.due(result.state).seats == ("thal",)  # type: ignore[union-attr]
    last = play(rules, result.state, "thal", [], "MOVE 1 INF: THA -> ORO")
    assert last.state.phase == "end_of_round"  # ER-4.1: after the last campaign turn the round ends


def test_ER_7_6_readying_applies_only_to_the_active_players_units() -> None:
    rules, state = campaign_of("aurel")
    state.army["KES"].exhausted = {"infantry": 2}  # kesh reinforced earlier in the round
    result = play(rules, state, "aurel", [], "MOVE 1 INF: AUR -> SOL")
    assert result.state.army["KES"].exhausted == {"infantry": 2}


def test_ER_7_3_two_steps_only_for_thoroughbred_cavalry() -> None:
    rules, state = campaign_of("aurel")
    refused = play(rules, state, "aurel", [], "MOVE 1 CAV: AUR -> SOL -> WSE")
    assert verdicts(refused, "aurel") == [(False, "ER-7.3")]
    state.players["aurel"].upgrades.append("thoroughbred")
    state.supply.upgrades["thoroughbred"] -= 1
    mixed = play(rules, state, "aurel", [], "MOVE 1 CAV 1 INF: AUR -> SOL -> WSE")
    assert verdicts(mixed, "aurel") == [(False, "ER-7.3")]  # infantry move once
    done = play(rules, state, "aurel", [], "MOVE 1 CAV: AUR -> SOL -> WSE")
    assert verdicts(done, "aurel") == [(True, "")]
    assert units(done.state, "WSE") == ("aurel", {"cavalry": 1}) and "SOL" not in done.state.army
    assert rules.broken_invariants(done.state) == []


def test_ER_7_11_receipts_check_the_orders_in_the_order_written() -> None:
    rules, state = campaign_of("aurel")
    step = rules.due(state)
    assert step is not None
    mail = orders("aurel", "MOVE 1 INF: AUR -> SOL", "MOVE 1 INF: SOL -> VAL", "ATTACK 1 CAV: AUR -> MIR TACTICS rally")
    found = rules.check_orders(state, "aurel", step.number, mail, GivenDice(values=[]))
    assert [(r.accepted, r.rule) for r in found] == [(True, ""), (False, "ER-7.2"), (True, "")]
    assert "AUR" in state.army and "SOL" not in state.army  # the receipt changes nothing


# -- an attack on an independent army (ER-8.30 to ER-8.36) ------------------------------------------------------


def test_ER_8_27_a_played_tactic_card_is_revealed_and_discarded() -> None:
    rules, state = campaign_of("aurel")
    assert "rally" in state.players["aurel"].hand
    result = play(rules, state, "aurel", [FOUR, FOUR], "ATTACK 1 CAV 2 INF 1 ARC: AUR -> MIR TACTICS rally")
    council = of(result.events, "battle_council")[0]
    assert council.visible_to is None and council.data["tactics"] == ["rally"]  # ER-8.14: public once played
    assert "rally" not in result.state.players["aurel"].hand
    assert result.state.decks.tactic_discards[-1] == "rally"


def test_ER_8_27_a_hero_played_the_first_time_goes_face_up() -> None:
    rules, state = campaign_of("aurel")
    state.players["aurel"].heroes_down.append("aurel-1")
    result = play(rules, state, "aurel", [FOUR, FOUR], "ATTACK 1 CAV 2 INF 1 ARC: AUR -> MIR HERO aurel-1")
    player = result.state.players["aurel"]
    assert player.heroes_down == [] and player.heroes_up == {"aurel-1": 1}


def test_ER_8_6_a_reinforcing_army_fights_is_exhausted_and_stays_in_its_area() -> None:
    rules, state = campaign_of("aurel")
    state.army["SOL"] = Army("aurel", {"infantry": 2})
    result = play(
        rules,
        state,
        "aurel",
        [FOUR, FOUR],
        "ATTACK 1 CAV 1 ARC: AUR -> MIR REINFORCE FROM SOL 2 INF",
        "MOVE 1 INF: SOL -> VAL",
    )
    assert verdicts(result, "aurel") == [(True, ""), (False, "ER-7.2")]  # ER-8.6: exhausted at once
    melee = of(result.events, "battle_melee")[0].data
    assert melee["strengths"]["attacker"] == 4  # 2 (cavalry) + 0 (archer) + 2 (the two reinforcing infantry)
    assert units(result.state, "SOL") == ("aurel", {"infantry": 2}) or units(result.state, "SOL") == (
        "aurel",
        {"infantry": 1},
    )  # a casualty may fall on the reinforcement (ER-8.6); it never moves in
    assert units(result.state, "MIR") is not None and result.state.army["MIR"].owner == "aurel"
    assert "infantry" not in result.state.army["MIR"].units


# -- attacks on another seat (ER-8.1 to ER-8.29, ER-15) ---------------------------------------------------------


def kesh_in(state: GameState, area: str, **units: int) -> None:
    """Kesh's units moved to `area` (from its capital's army, so that the barracks count holds, ER-1.1)."""
    home = state.army["KES"]
    for kind, n in units.items():
        home.add(kind, -n)
    if home.total == 0:
        del state.army["KES"]
    state.army[area] = Army("kesh", dict(units))


def test_ER_8_24_the_beaten_defender_retreats_to_an_empty_area_and_both_draw() -> None:
    rules, state = campaign_of("aurel")
    del state.army["MIR"]  # the independent army there is gone
    kesh_in(state, "MIR", infantry=2)
    hands = {f: len(p.hand) for f, p in state.players.items()}
    # volley (aurel's archer): 1, a miss; melee 2+2+0 + 4 = 8 against 2 + 1 (die) = 3
    result = play(rules, state, "aurel", [ONE, FOUR, ONE], "ATTACK 1 CAV 2 INF 1 ARC: AUR -> MIR")
    after = result.state
    assert of(result.events, "battle_result")[0].data["winner"] == "attacker"
    # ER-8.24, ER-14.18: no area kesh controls next to MIR; the empty ones are BRE and SOL: the lowest id
    assert units(after, "BRE") == ("kesh", {"infantry": 1})
    assert units(after, "MIR") == ("aurel", {"cavalry": 1, "infantry": 2, "archer": 1})
    # ER-8.28: the attacker lost nothing (1 card), the defender 1 unit, its defeat casualty (1 card)
    drawn = {e.seat: e.data["count"] for e in of(result.events, "tactics_drawn_count")}
    assert drawn == {"aurel": 1, "kesh": 1}
    assert {f: len(p.hand) for f, p in after.players.items()} == {
        **hands,
        "aurel": hands["aurel"] + 1,
        "kesh": hands["kesh"] + 1,
    }
    private = of(result.events, "tactics_drawn")
    assert all(e.visible_to == frozenset({e.seat}) for e in private)  # the cards are private: hidden information
    assert rules.broken_invariants(after) == []


def test_ER_15_1_a_capital_without_units_is_defended_and_ER_11_1_the_temporary_capital_follows() -> None:
    rules, state = campaign_of("aurel")
    kesh_in(state, "PEL", cavalry=1, infantry=2, archer=1)  # KES is left without units
    del_pel = state.army  # the independent army in PEL was replaced by kesh's
    assert del_pel["PEL"].owner == "kesh"
    state.army["DUN"] = Army("aurel", {"cavalry": 2})
    state.army["AUR"].add("cavalry", -1)
    state.army["AUR"].add("infantry", -1)
    # no archers; melee: aurel 4 + 4 (die) = 8; kesh 0 units + 4 (own capital, ER-8.16d) + 1 (die) = 5
    result = play(rules, state, "aurel", [FOUR, ONE], "ATTACK 2 CAV: DUN -> KES")
    after = result.state
    battle = of(result.events, "battle")[0]
    assert battle.data["defender"] == "kesh"  # ER-15.1: a battle, not an occupation
    melee = of(result.events, "battle_melee")[0].data
    assert melee["totals"] == {"attacker": 8, "defender": 5}
    assert units(after, "KES") is not None and after.army["KES"].owner == "aurel"
    # ER-11.1: kesh's capital is held by an enemy and kesh controls no large fort: PEL (its one land area)
    assert after.players["kesh"].temporary_capital == "PEL"
    assert of(result.events, "temporary_capital_placed")[0].data == {"area": "PEL"}


def test_ER_4_7_a_seat_that_loses_its_last_unit_and_area_is_out_at_once() -> None:
    rules, state = campaign_of("aurel")
    kesh_in(state, "SOL", infantry=1)
    state.army["KES"] = Army("thal", {"infantry": 1})  # thal holds kesh's capital: kesh's last area is SOL
    state.army["THA"].add("infantry", -1)
    # aurel's archer misses (1); melee 2+2+0 + 4 = 8 against 1 + 1 (small fort) + 1 (die) = 3
    result = play(rules, state, "aurel", [ONE, FOUR, ONE], "ATTACK 1 CAV 2 INF 1 ARC: AUR -> SOL")
    after = result.state
    assert of(result.events, "battle_result")[0].data["winner"] == "attacker"
    assert after.players["kesh"].eliminated and "kesh" not in after.turn_order
    assert [e.seat for e in of(result.events, "eliminated")] == ["kesh"]
    assert rules.due(after).seats == ("thal",)  # type: ignore[union-attr]


# -- transports (ER-12.12) ----------------------------------------------------------------------------------------


def test_ER_12_12_a_ship_carries_two_units_over_a_sea_area_and_both_are_exhausted() -> None:
    rules, state = campaign_of("aurel")
    state.army["WSE"] = Army("aurel", {"ship": 1})
    result = play(
        rules,
        state,
        "aurel",
        [],
        "TRANSPORT 1 CAV 1 INF: AUR -> WSE -> ILS",
        "TRANSPORT 1 INF: AUR -> WSE -> GAR",  # the one ship is exhausted now
        "MOVE 1 INF: ILS -> GAR",
    )
    assert verdicts(result, "aurel") == [(True, ""), (False, "ER-12.12"), (False, "ER-7.2")]
    assert units(result.state, "ILS") == ("aurel", {"cavalry": 1, "infantry": 1})


def test_ER_12_12_a_transport_needs_a_ship_and_carries_at_most_two_units_per_ship() -> None:
    rules, state = campaign_of("aurel")
    none = play(rules, state, "aurel", [], "TRANSPORT 1 INF: AUR -> WSE -> ILS")
    assert verdicts(none, "aurel") == [(False, "ER-12.12")]
    state.army["WSE"] = Army("aurel", {"ship": 1})
    many = play(rules, state, "aurel", [], "TRANSPORT 1 CAV 2 INF: AUR -> WSE -> ILS")
    assert verdicts(many, "aurel") == [(False, "ER-12.12")]
    assert "at most 2" in many.order_results["aurel"][0].reason


def test_ER_12_12_a_transport_into_an_enemy_area_is_an_attack_from_the_starting_area() -> None:
    rules, state = campaign_of("aurel")
    state.army["WSE"] = Army("aurel", {"ship": 1})
    # GAR: independent 1 cav 1 inf; no archers carried; melee 2 + 1 + 4 = 7 against 3 + automa-2 (2) = 5
    result = play(rules, state, "aurel", [FOUR], "TRANSPORT 1 CAV 1 INF: AUR -> WSE -> GAR")
    battle = of(result.events, "battle")[0]
    assert battle.data["from"] == "AUR" and battle.data["area"] == "GAR"
    assert result.state.army["GAR"].owner == "aurel"


# -- the whole step, its snapshot and its invariants --------------------------------------------------------------


def test_ER_7_1_a_whole_campaign_step_against_an_independent_army_and_a_seat() -> None:
    rules, state = campaign_of("aurel")
    kesh_in(state, "SOL", infantry=1)
    result = play(
        rules,
        state,
        "aurel",
        [FOUR, FOUR, FOUR, ONE],
        "ATTACK 1 CAV 1 INF 1 ARC: AUR -> MIR",  # volley 4 hits; melee 2+1+0+4 = 7 against 2 cav + automa-2
        "ATTACK 1 INF: AUR -> SOL",  # melee 1 + 4 (die) = 5 against kesh's 1 inf + 1 (small fort) + 1 = 3
        "PRESS TO kesh: nothing personal",
    )
    after = result.state
    assert verdicts(result, "aurel") == [(True, ""), (True, ""), (True, "")]
    assert [e.data["winner"] for e in of(result.events, "battle_result")] == ["attacker", "attacker"]
    assert after.army["MIR"].owner == "aurel" and after.army["SOL"].owner == "aurel"
    assert rules.broken_invariants(after) == []
    again = rules.read_snapshot(rules.snapshot(after))  # the state survives its snapshot (schema 2)
    assert rules.snapshot(again) == rules.snapshot(after)


# -- the report (templates/conqueror/battle.j2) -----------------------------------------------------------------


def sentences(events: list[Event]) -> list[str]:
    from adjudicator.render import render

    return [render("_sentence.txt.j2", "en", event=e, ruleset_templates="conqueror").strip() for e in events]


def test_ER_8_14_the_report_tells_the_battle_with_the_cards_revealed_and_the_draws_stay_private() -> None:
    rules, state = campaign_of("aurel")
    kesh_in(state, "SOL", infantry=1)
    result = play(
        rules,
        state,
        "aurel",
        [FOUR, FOUR, FOUR, ONE],
        "ATTACK 1 CAV 1 INF 1 ARC: AUR -> MIR TACTICS rally",
        "ATTACK 1 INF: AUR -> SOL",
    )
    public = [e for e in result.events if e.visible_to is None]
    text = "\n".join(sentences(public))
    assert "Battle in MIR: aurel attacks from AUR with 1 cavalry, 1 infantry, 1 archer; independent defends" in text
    assert "Council of war, attacker: heroes nothing; tactic cards rally (ER-8.14)." in text  # revealed: public
    assert "The beaten independent army's 1 cavalry leave the game (ER-8.33)." in text
    assert "aurel conquers SOL with 1 infantry (ER-8.24)." in text
    assert "kesh draws 1 tactic card (ER-8.28)." in text
    for event in result.events:  # hidden information: a drawn card is named only to its drawer
        if event.kind == "tactics_drawn":
            assert event.visible_to == frozenset({event.seat})
    drawn = {card for e in of(result.events, "tactics_drawn") for card in e.data["cards"]}
    assert drawn and not any(card in str(e.data) for e in public for card in drawn if e.kind != "battle_council")
    assert all(not s.startswith(("battle", "moved", "occupied")) for s in sentences(result.events))  # all worded


# -- manual effects (ER-13.6): the decision of the step ------------------------------------------------------------


def with_manual_before_result() -> ConquerorGame:
    """The example data with the hero aurel-5's manual effect moved before the result (battle.melee)."""
    from dataclasses import replace

    from adjudicator.rulesets.conqueror.vocabulary import Trigger

    data = example()
    heroes = tuple(
        replace(h, effects=tuple(replace(e, when=Trigger("battle.melee")) for e in h.effects))
        if h.id == "aurel-5"
        else h
        for h in data.cards.heroes
    )
    changed = replace(data, cards=replace(data.cards, heroes=heroes))
    rules, _ = campaign_of("aurel")
    return ConquerorGame(rules.info, changed, rules.options)


def manual_key() -> str:
    hero = next(h for h in example().cards.heroes if h.id == "aurel-5")
    return f"manual.aurel-5.{hero.effects[0].key}"


def attack_with_aurel_5(answers: dict[str, dict[str, str]], ask: bool) -> StepResult:
    rules = with_manual_before_result()
    _, state = campaign_of("aurel")
    state.players["aurel"].heroes_down.append("aurel-5")
    step = rules.due(state)
    assert step is not None
    mail = orders("aurel", "ATTACK 1 CAV 2 INF 1 ARC: AUR -> MIR HERO aurel-5")
    return resolve_step(rules, state, step, {"aurel": mail}, GivenDice(values=[FOUR, FOUR]), answers, ask=ask)


def test_ER_13_6_a_manual_effect_before_the_result_takes_its_default_and_is_asked_in_ask_mode() -> None:
    quiet = attack_with_aurel_5({}, ask=False)
    ruled = of(quiet.events, "battle_manual_ruled")[0]
    assert ruled.data["from"] == "default" and ruled.data["ruling"] == "none" and quiet.pending == []
    asked = attack_with_aurel_5({}, ask=True)
    assert [(p.seat, p.key, p.default, p.rule) for p in asked.pending] == [
        ("aurel", manual_key(), "none", "ER-13.6"),
        ("aurel", "battle.MIR.1.losses", "LOSSES ARC, INF, CAV, SIEGE, SHIP, ELITE", "ER-14.17"),  # its casualty
    ]
    assert of(asked.events, "battle_melee")[0].data["totals"]["attacker"] == 8  # the default: no effect


def test_ER_13_6_the_ruling_answered_takes_effect_and_a_bad_answer_is_refused() -> None:
    answered = attack_with_aurel_5({"aurel": {manual_key(): "strength 3"}}, ask=True)
    assert [p.key for p in answered.pending] == ["battle.MIR.1.losses"]  # the ruling is no longer asked
    assert of(answered.events, "battle_manual_ruled")[0].data["from"] == "answer"
    assert of(answered.events, "battle_melee")[0].data["totals"]["attacker"] == 11  # 8 + the ruled 3
    bad = attack_with_aurel_5({"aurel": {manual_key(): "lots"}}, ask=False)
    refused = of(bad.events, "answer_refused")[0]
    assert "ER-13.6" in refused.data["reason"] and of(bad.events, "battle_manual_ruled")[0].data["from"] == "default"


def test_ER_13_6_a_manual_effect_after_a_win_is_named_for_the_moderator_and_the_result_stands() -> None:
    rules, state = campaign_of("aurel")
    state.players["aurel"].heroes_down.append("aurel-5")
    result = play(rules, state, "aurel", [FOUR, FOUR], "ATTACK 1 CAV 2 INF 1 ARC: AUR -> MIR HERO aurel-5")
    assert result.state.army["MIR"].owner == "aurel"
    manual = of(result.events, "battle_manual")
    assert [(e.seat, e.data["source"]) for e in manual] == [("aurel", "aurel-5")]
    assert "moderator rules on" in sentences(manual)[0]


# -- standing orders of battle (ER-14.12 to ER-14.18), as the plans step keeps them (canonical lines) ----------


def keep(state: GameState, faction: str, **lines: str) -> None:
    """`faction`'s standing orders as the plans step keeps them: order lines by key (Player.standing)."""
    player = state.players[faction]
    standing = dict(getattr(player, "standing", {}))
    standing.update(lines)
    player.standing = standing  # type: ignore[attr-defined]


def test_ER_14_14_the_defenders_standing_plan_is_played_and_its_cards_revealed() -> None:
    rules, state = campaign_of("aurel")
    kesh_in(state, "SOL", infantry=2)
    card = state.players["kesh"].hand[0]
    keep(state, "kesh", DEFENCE=f"DEFENCE TACTICS {card}")
    result = play(rules, state, "aurel", [ONE, FOUR, ONE], "ATTACK 1 CAV 2 INF 1 ARC: AUR -> SOL")
    council = [e.data for e in of(result.events, "battle_council") if e.data["side"] == "defender"]
    assert council == [{"rule": "ER-8.14", "side": "defender", "heroes": [], "tactics": [card]}]
    assert card in result.state.decks.tactic_discards


def test_ER_14_14_a_standing_plan_plays_only_the_cards_still_held() -> None:
    rules, state = campaign_of("aurel")
    kesh_in(state, "SOL", infantry=2)
    keep(state, "kesh", DEFENCE="DEFENCE HERO kesh-1 TACTICS rally")  # neither recruited nor in hand
    result = play(rules, state, "aurel", [ONE, FOUR, ONE], "ATTACK 1 CAV 2 INF 1 ARC: AUR -> SOL")
    council = [e.data for e in of(result.events, "battle_council") if e.data["side"] == "defender"]
    assert council[0]["heroes"] == [] and council[0]["tactics"] == []


def test_ER_14_18_the_standing_retreat_list_is_followed() -> None:
    rules, state = campaign_of("aurel")
    del state.army["MIR"]
    kesh_in(state, "MIR", infantry=2)
    keep(state, "kesh", RETREAT="RETREAT FROM MIR TO SOL")  # the default would be BRE (the lowest id)
    result = play(rules, state, "aurel", [ONE, FOUR, ONE], "ATTACK 1 CAV 2 INF 1 ARC: AUR -> MIR")
    assert units(result.state, "SOL") == ("kesh", {"infantry": 1}) and "BRE" not in result.state.army
    assert of(result.events, "battle_retreat")[0].data == {"units": {"infantry": 1}, "from": "MIR", "to": "SOL"}


def test_ER_14_13_the_standing_loss_priority_chooses_the_casualty() -> None:
    rules, state = campaign_of("aurel")
    del state.army["MIR"]
    kesh_in(state, "MIR", cavalry=1, infantry=2)
    keep(state, "kesh", LOSSES="LOSSES CAVALRY")  # the default would lose an infantry first (ER-14.13)
    # melee 2+2+0 + 4 = 8 against 2+2 + 1 = 5; one casualty on kesh
    result = play(rules, state, "aurel", [ONE, FOUR, ONE], "ATTACK 1 CAV 2 INF 1 ARC: AUR -> MIR")
    assert of(result.events, "battle_result")[0].data["losses"]["kesh"] == {"cavalry": 1}
    assert units(result.state, "BRE") == ("kesh", {"infantry": 2})


def allies_position() -> tuple[ConquerorGame, GameState]:
    """aurel attacks kesh's army in ORO from BRE; thal's army in THA is next to ORO."""
    rules, state = campaign_of("aurel")
    kesh_in(state, "ORO", infantry=2)
    home = state.army.pop("AUR")
    state.army["BRE"] = home
    return rules, state


def test_ER_14_12_a_standing_reinforcement_joins_the_named_side_and_is_exhausted() -> None:
    rules, state = allies_position()
    keep(state, "thal", **{"REINFORCE@kesh/THA": "REINFORCE kesh FROM THA 1 CAV 2 INF"})
    # no archers on the defence: aurel's archer misses (1); melee 4 + 4 = 8 against kesh 2 + 1 (small fort)
    # + thal's 1 cav 2 inf (4) + 1 (die) = 8: a tie, the attacker goes back (ER-8.19)
    result = play(rules, state, "aurel", [ONE, FOUR, ONE], "ATTACK 1 CAV 2 INF 1 ARC: BRE -> ORO")
    melee = of(result.events, "battle_melee")[0].data
    assert melee["strengths"]["defender"] == 7 and melee["totals"] == {"attacker": 8, "defender": 8}
    assert result.state.army["THA"].exhausted == {"cavalry": 1, "infantry": 2}  # ER-8.6, ER-7.6
    drawn = [(e.seat, e.data["count"]) for e in of(result.events, "tactics_drawn_count")]
    assert drawn == [("aurel", 1), ("kesh", 1), ("thal", 1)]  # ER-8.28, ER-8.40: the ally draws too, last
    assert units(result.state, "ORO") == ("kesh", {"infantry": 2})  # thal never moves in (ER-8.40)


def test_ER_15_4_an_ally_does_not_reinforce_against_a_seat_it_traded_with() -> None:
    rules, state = allies_position()
    keep(state, "thal", **{"REINFORCE@kesh/THA": "REINFORCE kesh FROM THA 1 CAV 2 INF"})
    state.players["thal"].trade_bans = ["aurel"]  # type: ignore[attr-defined]
    result = play(rules, state, "aurel", [ONE, FOUR, ONE], "ATTACK 1 CAV 2 INF 1 ARC: BRE -> ORO")
    assert of(result.events, "battle_melee")[0].data["strengths"]["defender"] == 3  # 2 + 1 (small fort)
    assert result.state.army["THA"].exhausted == {}


def test_ER_14_12_reinforce_never_clears_the_standing_reinforcements() -> None:
    rules, state = allies_position()
    keep(state, "thal", **{"REINFORCE@kesh/THA": "REINFORCE kesh FROM THA", "REINFORCE": "REINFORCE NEVER"})
    result = play(rules, state, "aurel", [ONE, FOUR, ONE], "ATTACK 1 CAV 2 INF 1 ARC: BRE -> ORO")
    assert of(result.events, "battle_melee")[0].data["strengths"]["defender"] == 3


# -- the Persian block (ER-7.9, ER-12.5, ER-14.11, ER-15.21) -------------------------------------------------------


def blocker_position(coins: int, line: str) -> tuple[ConquerorGame, GameState]:
    """A 5-player game; varun plays its alternative board whose ability blocks (op block_move, cost 1)."""
    rules, state = campaign_of("aurel", players=5)
    state.players["varun"].board, state.players["varun"].coins = "alternative-1", coins
    keep(state, "varun", BLOCK=line)
    return rules, state


def test_ER_12_5_a_matching_army_is_blocked_for_a_coin_and_stays_blocked_for_the_turn() -> None:
    rules, state = blocker_position(2, "BLOCK aurel MAX 4")
    result = play(
        rules,
        state,
        "aurel",
        [],
        "MOVE 1 CAV 1 INF: AUR -> SOL",  # strength 3: blocked, varun pays 1
        "MOVE 1 CAV: AUR -> SOL",  # that cavalry stays blocked (ER-15.21)
        "MOVE 1 INF: AUR -> SOL",  # the other infantry: blocked again, varun's last coin
        "MOVE 1 ARC: AUR -> SOL",  # varun cannot pay any more
    )
    assert verdicts(result, "aurel") == [(False, "ER-12.5"), (False, "ER-15.21"), (False, "ER-12.5"), (True, "")]
    assert result.state.players["varun"].coins == 0
    assert units(result.state, "SOL") == ("aurel", {"archer": 1})
    assert [e.seat for e in of(result.events, "blocked")] == ["varun", "varun"]
    blocked = sentences(of(result.events, "blocked"))[0]
    assert "varun pays 1 coin and blocks aurel's 1 cavalry, 1 infantry in AUR" in blocked


def test_ER_14_11_no_block_outside_the_filters_or_without_standing_orders() -> None:
    rules, state = blocker_position(3, "BLOCK kesh, thal TO MIR")
    strong = play(rules, state, "aurel", [], "MOVE 1 CAV 1 INF: AUR -> SOL")
    assert verdicts(strong, "aurel") == [(True, "")]  # not a faction the filter names
    rules, state = blocker_position(3, "BLOCK aurel MAX 2")
    result = play(rules, state, "aurel", [], "MOVE 1 CAV 1 INF: AUR -> SOL")  # strength 3 > 2
    assert verdicts(result, "aurel") == [(True, "")] and result.state.players["varun"].coins == 3
    rules, state = blocker_position(3, "BLOCK NEVER")
    assert verdicts(play(rules, state, "aurel", [], "MOVE 1 INF: AUR -> SOL"), "aurel") == [(True, "")]


# -- sea battles (ER-8.45, ER-12.13, ER-12.14) ---------------------------------------------------------------------


def test_ER_8_45_ships_attack_at_sea_and_the_beaten_ship_retreats_to_an_open_sea_area() -> None:
    rules, state = campaign_of("aurel")
    state.army["WSE"] = Army("aurel", {"ship": 2})
    state.army["ISE"] = Army("kesh", {"ship": 2})
    # melee: 2 ships (4) + 4 (die) = 8 against 2 ships (4) + 1 (kesh's Sailors, at sea: ER-8.45) + 1 (die) = 6;
    # one casualty on kesh (ER-12.15)
    result = play(rules, state, "aurel", [FOUR, ONE], "ATTACK 2 SHIP: WSE -> ISE")
    after = result.state
    assert of(result.events, "battle_melee")[0].data["totals"] == {"attacker": 8, "defender": 6}
    assert units(after, "ISE") == ("aurel", {"ship": 2})
    # ER-12.14, ER-14.19: an adjacent sea area held by kesh or empty, the lowest id (WSE, left by the attack)
    assert units(after, "MSE") == ("kesh", {"ship": 1})


def test_ER_12_11_ships_move_only_into_sea_areas() -> None:
    rules, state = campaign_of("aurel")
    state.army["WSE"] = Army("aurel", {"ship": 1})
    result = play(rules, state, "aurel", [], "MOVE 1 SHIP: WSE -> SOL")
    assert verdicts(result, "aurel") == [(False, "ER-12.11")]


# -- trade restrictions (ER-7.7, ER-5.10b, ER-15.4, ER-15.5) ---------------------------------------------------------


def test_ER_5_10b_no_attack_on_a_trade_partner_this_round() -> None:
    rules, state = campaign_of("aurel")
    kesh_in(state, "SOL", infantry=1)
    state.players["aurel"].trade_bans = ["kesh"]  # type: ignore[attr-defined]
    result = play(rules, state, "aurel", [], "ATTACK 1 CAV: AUR -> SOL")
    assert verdicts(result, "aurel") == [(False, "ER-5.10b")]
    assert units(result.state, "SOL") == ("kesh", {"infantry": 1})


def test_ER_15_5_no_attack_on_independent_armies_after_trading_with_them() -> None:
    rules, state = campaign_of("aurel")
    state.players["aurel"].trade_bans = ["independents"]  # type: ignore[attr-defined]
    result = play(rules, state, "aurel", [], "ATTACK 1 CAV: AUR -> MIR", "MOVE 1 INF: AUR -> SOL")
    assert verdicts(result, "aurel") == [(False, "ER-15.5"), (True, "")]


def test_ER_15_4_being_attacked_by_the_partner_lifts_the_ban() -> None:
    rules, state = campaign_of("aurel")
    kesh_in(state, "SOL", infantry=2)
    state.players["kesh"].trade_bans = ["aurel"]  # type: ignore[attr-defined]
    result = play(rules, state, "aurel", [ONE, FOUR, ONE], "ATTACK 1 CAV 2 INF 1 ARC: AUR -> SOL")
    assert result.state.players["kesh"].trade_bans == []  # type: ignore[attr-defined]


def test_ER_13_6_coins_gained_after_a_battle_answer_on_gain_coins_as_every_coin_gained() -> None:
    from tests.test_conqueror_effects import ability, effect, game_with

    won, gain = effect("coins", "battle.after_win", n=2), effect("coins", "on_gain_coins", n=1)
    rules, state = game_with(ability("aurel", won, gain))
    state.phase, state.campaign_index = "campaign", state.in_play().index("aurel")
    state.decks.automa = list(AUTOMA)
    coins = state.players["aurel"].coins
    # MIR's independents: aurel 2+2+0 + 4 (die) = 8 against 5 + automa-2 (2): aurel wins
    result = play(rules, state, "aurel", [ONE, FOUR], "ATTACK 1 CAV 2 INF 1 ARC: AUR -> MIR")
    assert of(result.events, "battle_result")[0].data["winner"] == "attacker"
    assert result.state.players["aurel"].coins == coins + 2 + 1  # the after-win coins, then on_gain_coins once
    answered = [e for e in of(result.events, "effect_applied") if e.data["op"] == "coins"]
    assert [(e.seat, e.data["n"]) for e in answered] == [("aurel", 1)]
