"""Odds in Conquest of the Empire's decision notices: asked in the middle of a battle (whether to continue or retreat,
C-15.7 and O-14.6; a battle legion, C-15.5; a round's losses, C-15.6; the galleys that sink, C-15.10; a 1984 shot's
target, O-14.4, O-14.5, O-6.24), a seat gets the odds of each answer reckoned on the battle as it stands at that
question, on what he can know: his own standing orders, the enemy following the defaults (C-15), the enemy's unseen
choices of the round too."""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import replace
from math import comb
from pathlib import Path

import pytest

from adjudicator.archive.models import DecisionRow, GameRow
from adjudicator.engine.chance import GivenDice, KeyedDice
from adjudicator.engine.decisions import Pending
from adjudicator.engine.steps import resolve_step
from adjudicator.engine.vocabulary import Event
from adjudicator.orders import parse_orders
from adjudicator.render.i18n import engine_text, gettext, keywords_written
from adjudicator.rulesets import load_ruleset
from adjudicator.rulesets.coe.battle import FACES, fill, units_text
from adjudicator.rulesets.coe.decision_odds import expected_pursuit_losses
from adjudicator.rulesets.coe.economy import tribute_value
from adjudicator.rulesets.coe.odds import land_odds, naval_odds
from adjudicator.rulesets.coe.state import Force, GameState
from adjudicator.services.reports import choice_rows, write_decision_notices
from adjudicator.services.turn import questions_now
from tests.conftest import SEATS, Pbem
from tests.helpers import place, start
from tests.test_coe_1984_battles import at_sea as at_sea_1984
from tests.test_coe_1984_battles import fleet_at_mac
from tests.test_coe_classic_naval import BLANK, GALLEY, at_sea, fleet, one_round
from tests.test_decisions_cli import Write, contested_position
from tests.test_receipt_odds import ATTACK, HEADER, SECRET_STANDING, border_war

RULES = load_ruleset("coe-classic")
ODDS_FIELDS = ("choice", "area", "attacker", "defender", "wins", "attacker_losses", "defender_losses")
NONE = {"infantry": 0, "cavalry": 0, "catapult": 0}
KEY = bytes(32)  # its dice leave Macedonia 2 INF 1 CAV (and G1) against Egyptus's 1 INF 2 CAV after round 1


def retreat_question(seat: str, before: GameState | None = None) -> tuple[GameState, Pending]:
    """Macedonia's attack on Thracia resolved in ask mode: the position before it, and `seat`'s first retreat
    question (C-15.7), which keeps the position it arose in."""
    state = before or border_war("coe-classic")
    orders = parse_orders(f"{HEADER}\n{ATTACK}\n", RULES)
    result = resolve_step(RULES, state, RULES.due(state), {"Macedonia": orders}, KeyedDice(key=KEY), ask=True)
    asked = [p for p in result.pending if p.seat == seat and p.key.endswith(".retreat")]
    return state, asked[0]


def forces_left(point: GameState) -> tuple[dict[str, int], dict[str, int]]:
    """Each side's units in Thracia at the question."""
    return tuple(  # type: ignore[return-value]
        {kind: getattr(point.areas["THR"].units[seat], kind) for kind in ("infantry", "cavalry", "catapult")}
        for seat in ("Macedonia", "Egyptus")
    )


def test_C_15_7_to_continue_is_to_fight_the_battle_on_from_the_forces_left_after_the_round() -> None:
    before, asked = retreat_question("Macedonia")
    assert asked.key == "battle.THR.1.retreat"
    mine, his = forces_left(asked.position.state)
    assert (mine, his) == ({"infantry": 2, "cavalry": 1, "catapult": 0}, {"infantry": 1, "cavalry": 2, "catapult": 0})
    (choice, odds), _ = RULES.decision_odds(before, "Macedonia", asked.key, asked.position)
    expected = land_odds(RULES, {**mine, "leaders": 1}, {**his, "fortified": False}, area="THR")
    assert choice == "continue" and odds.wins == pytest.approx(float(expected.attacker_wins), abs=1e-12)
    assert odds.attacker_losses == pytest.approx(float(sum(expected.attacker_losses.values())), abs=1e-12)
    assert odds.defender_losses == pytest.approx(float(sum(expected.defender_losses.values())), abs=1e-12)
    start = land_odds(RULES, {"infantry": 4, "cavalry": 1, "leaders": 1}, {"infantry": 2, "cavalry": 2}, area="THR")
    assert odds.wins != pytest.approx(float(start.attacker_wins))  # not the battle's odds from its start


def test_C_6_16_to_retreat_is_to_lose_the_battle_and_what_the_pursuit_takes() -> None:
    before, asked = retreat_question("Macedonia")
    _, (choice, odds) = RULES.decision_odds(before, "Macedonia", asked.key, asked.position)
    # Egyptus pursues with 3 units, 2 of them cavalry: at most 2 hits, one die in six a cavalry face (C-1.8)
    assert choice == "retreat to MAC" and odds.wins == 0.0 and odds.defender_losses == 0.0
    assert odds.attacker_losses == pytest.approx(1 - (5 / 6) ** 3 + 3 * (1 / 6) ** 2 * (5 / 6) + (1 / 6) ** 3)
    before, asked = retreat_question("Egyptus")  # the defender retreating: the attacker wins at once
    _, (choice, odds) = RULES.decision_odds(before, "Egyptus", asked.key, asked.position)
    assert choice == "retreat to ASI" and odds.wins == 1.0 and odds.attacker_losses == 0.0
    assert odds.defender_losses == pytest.approx(1 - (5 / 6) ** 3)  # Macedonia's one cavalry: at most 1 hit


@pytest.mark.parametrize(
    ("pursuer", "fleeing", "expected"),
    [
        (Force(infantry=5), Force(infantry=3), 0.0),  # no cavalry, no pursuit (C-6.16)
        (Force(cavalry=1), Force(infantry=3), 1 / 6),
        (Force(cavalry=2), Force(infantry=1), 1 - (5 / 6) ** 2),  # never more hits than units fleeing
        (Force(cavalry=2), Force(infantry=2), 2 / 6),
    ],
)
def test_C_6_16_the_pursuit_takes_a_unit_for_each_cavalry_face_up_to_its_cavalry_and_the_units_fleeing(
    pursuer: Force, fleeing: Force, expected: float
) -> None:
    assert expected_pursuit_losses(pursuer, fleeing) == pytest.approx(expected)


def test_C_6_20_a_retreat_with_no_province_to_go_to_loses_every_unit() -> None:
    before, asked = retreat_question("Egyptus")
    for code in RULES.board.land_neighbours("THR"):  # every way out held by a third player's army
        place(asked.position.state, code, "Hispania", owner=False, infantry=1)
    _, (choice, odds) = RULES.decision_odds(before, "Egyptus", asked.key, asked.position)
    assert choice == "retreat" and odds.defender_losses == 3.0  # 1 INF 2 CAV


def test_C_15_the_figures_read_the_asked_seats_standing_orders_and_never_the_enemys() -> None:
    secret = {"retreat": SECRET_STANDING["coe-classic"]["retreat"]}  # Egyptus leaves when below 3 units
    plain, asked = retreat_question("Macedonia")
    with_secret = border_war("coe-classic", secret)  # his secret: the battle runs as before up to the question
    hidden = retreat_question("Macedonia", with_secret)[1]
    assert hidden.position.state.players["Egyptus"].standing == secret
    figure = RULES.decision_odds(with_secret, "Macedonia", hidden.key, hidden.position)
    assert figure == RULES.decision_odds(plain, "Macedonia", asked.key, asked.position)
    mine, his = forces_left(asked.position.state)
    leaked = land_odds(RULES, {**mine, "leaders": 1}, his, None, secret, area="THR")
    assert figure[0][1].wins != pytest.approx(float(leaked.attacker_wins))  # read, it would change the figure
    before, own = retreat_question("Egyptus")
    without = RULES.decision_odds(before, "Egyptus", own.key, own.position)
    own.position.state.players["Egyptus"].standing = {"losses": ["cavalry"]}  # his own are his to know
    assert RULES.decision_odds(before, "Egyptus", own.key, own.position)[0] != without[0]


def test_decisions_without_odds_get_none() -> None:
    before, asked = retreat_question("Macedonia")
    assert RULES.decision_odds(before, "Macedonia", "capture.THR.1", asked.position) == []
    assert RULES.decision_odds(before, "Macedonia", asked.key, None) == []  # no position kept: no figure


def notices(
    folder: Path, state: GameState, answers: dict[str, dict[str, str]], languages: dict[str, str], move: str = ATTACK
) -> tuple[dict[str, str], list[Pending]]:
    """Macedonia's attack on Thracia resolved in ask mode with `answers`: the decision notices of the questions
    asked first, by seat, as the moderator's tool writes them, and those questions."""
    orders = parse_orders(f"{HEADER}\n{move}\n", RULES)
    result = resolve_step(RULES, state, RULES.due(state), {"Macedonia": orders}, KeyedDice(key=KEY), answers, ask=True)
    asked = questions_now(result.pending)
    game = GameRow(id=1, name="test", ruleset=RULES.name, seed="", commitment="", created="", decision_hours=48)
    waiting = [
        DecisionRow(game_id=1, turn=1, seat=q.seat, key=q.key, question=q.question, default=q.default, rule=q.rule)
        for q in asked
    ]
    written = write_decision_notices(folder, RULES, game, 1, result, waiting, languages, RULES.snapshot_text(state))
    return {path.name.split("-")[-1][:-4]: path.read_text(encoding="utf-8") for path in written}, asked


def test_the_retreat_notice_gives_each_choices_odds_in_the_readers_language(tmp_path: Path) -> None:
    state = border_war("coe-classic")
    answers = {seat: {"battle.THR.1.losses": "INF, CAV"} for seat in ("Macedonia", "Egyptus")}
    notices_by_seat, asked = notices(tmp_path, state, answers, {"Egyptus": "de"})
    assert [(q.seat, q.key) for q in asked] == [(s, "battle.THR.1.retreat") for s in ("Egyptus", "Macedonia")]
    for seat, language in (("Macedonia", "en"), ("Egyptus", "de")):
        figures = RULES.decision_odds(state, seat, "battle.THR.1.retreat", asked[seat == "Macedonia"].position)
        for choice, area, attacker, defender, *row in choice_rows(figures):
            forces = [engine_text(language, text, RULES.name) for text in (attacker, defender)]  # units, leaders
            line = gettext(
                language,
                "if you answer %(choice)s: %(area)s: %(attacker)s against %(defender)s: the attacker wins %(wins)s; "
                "expected losses: the attacker's %(attacker_losses)s, the defender's %(defender_losses)s",
                **dict(
                    zip(
                        ODDS_FIELDS,
                        (keywords_written(language, choice, RULES.name), area, *forces, *row[:3]),
                        strict=True,
                    )
                ),
            )
            assert line in notices_by_seat[seat], notices_by_seat[seat]
    assert (
        "if you answer continue: THR: 2 INF 1 CAV, 1 leader against Egyptus 1 INF 2 CAV: the attacker wins 64.8%"
        in notices_by_seat["Macedonia"]
    )
    assert (
        "wenn du WEITER antwortest: THR: 2 INF 1 KAV, 1 Anführer gegen Egyptus 1 INF 2 KAV"
        in notices_by_seat["Egyptus"]
    )


RULES_1984 = load_ruleset("coe-1984")


def retreat_question_1984() -> tuple[GameState, Pending]:
    """The same attack under the 1984 rules, its targets answered: Macedonia's first retreat question (O-14.6)."""
    state = border_war("coe-1984")
    orders = parse_orders(f"{HEADER}\n{ATTACK}\n", RULES_1984)
    answers = {seat: {"battle.THR.1.target": "INF"} for seat in ("Macedonia", "Egyptus")}
    result = resolve_step(
        RULES_1984, state, RULES_1984.due(state), {"Macedonia": orders}, KeyedDice(key=KEY), answers, ask=True
    )
    (asked,) = [p for p in questions_now(result.pending) if p.key.endswith(".retreat")]
    return state, asked


def test_O_14_6_a_1984_retreat_notice_gives_fighting_on_from_the_forces_left_and_a_retreat_without_pursuit() -> None:
    before, asked = retreat_question_1984()
    assert (asked.seat, asked.key, asked.position.retreat_to) == ("Macedonia", "battle.THR.1.retreat", "MAC")
    mine, his = forces_left(asked.position.state)
    (choice, odds), (retreat, back) = RULES_1984.decision_odds(before, "Macedonia", asked.key, asked.position)
    expected = land_odds(RULES_1984, {**mine, "leaders": 1, "by_sea": {}}, {**his, "fortified": False}, area="THR")
    assert choice == "continue" and odds.wins == pytest.approx(float(expected.attacker_wins), abs=1e-12)
    assert odds.attacker_losses == pytest.approx(float(sum(expected.attacker_losses.values())), abs=1e-12)
    assert retreat == "retreat to MAC" and (back.wins, back.attacker_losses, back.defender_losses) == (0, 0, 0)


def test_O_6_17_units_that_came_by_sea_take_away_the_retreat_his_standing_order_would_make() -> None:
    before, asked = retreat_question_1984()
    no_order = RULES_1984.decision_odds(before, "Macedonia", asked.key, asked.position)[0][1]
    asked.position.state.players["Macedonia"].standing = {  # his own: leave when below 3 units
        "retreat": [{"from": None, "condition": "units_below", "threshold": 3, "to": []}]
    }
    by_land = RULES_1984.decision_odds(before, "Macedonia", asked.key, asked.position)[0][1]
    assert by_land.wins != pytest.approx(no_order.wins)  # he would leave: his standing order is his to know
    mine, _ = forces_left(asked.position.state)
    all_by_sea = replace(asked.position, by_sea=dict(mine))  # every unit left landed from the galleys
    fought_out = RULES_1984.decision_odds(before, "Macedonia", asked.key, all_by_sea)[0][1]
    assert fought_out.wins == pytest.approx(no_order.wins, abs=1e-12)  # no retreat any more: fought to the end


def single_kind_defence() -> GameState:
    """Macedonia's 4 INF 1 CAV next to Egyptus's 3 INF in Thracia: Egyptus has no choice of legion or losses."""
    state = start()
    place(state, "MAC", "Macedonia", infantry=4, cavalry=1)
    place(state, "THR", "Egyptus", infantry=3)
    for seat, player in state.players.items():
        player.tribute = tribute_value(RULES, state, seat)
    return state


def losses_question(state: GameState, key: bytes = KEY) -> tuple[Pending, list[Event]]:
    """Macedonia's first losses question in his attack on Thracia, and the turn's events (its defaults taken)."""
    orders = parse_orders(f"{HEADER}\n{ATTACK}\n", RULES)
    result = resolve_step(RULES, state, RULES.due(state), {"Macedonia": orders}, KeyedDice(key=key), ask=True)
    (asked,) = [p for p in questions_now(result.pending) if p.seat == "Macedonia" and p.key.endswith(".losses")]
    return asked, result.events


def test_C_15_6_each_way_to_take_the_hits_gets_the_odds_of_the_battle_from_the_forces_it_leaves() -> None:
    state = single_kind_defence()
    asked, events = losses_question(state)
    point = asked.position
    assert (asked.key, point.hits, dict(point.legion)) == (
        "battle.THR.1.losses",
        2,
        {**NONE, "infantry": 4, "cavalry": 1},
    )
    round_one = next(e for e in events if e.kind == "battle_round" and e.data["round"] == 1)
    assert units_text(point.enemy_losses) == round_one.data["defender_losses"] == "1 INF"  # seen: all alike
    figures = RULES.decision_odds(state, "Macedonia", asked.key, point)
    assert [choice for choice, _ in figures] == ["2 INF", "1 INF 1 CAV"]  # C-6.9: any mix, one cavalry at most
    for (_, odds), left in zip(figures, ({"infantry": 2, "cavalry": 1}, {"infantry": 3, "cavalry": 0}), strict=True):
        on = land_odds(RULES, {**left, "leaders": 1}, {"infantry": 2, "fortified": False}, None, area="THR")
        assert odds.wins == pytest.approx(float(on.attacker_wins), abs=1e-12)
        assert odds.attacker_losses == pytest.approx(2 + float(sum(on.attacker_losses.values())), abs=1e-12)
        assert odds.defender_losses == pytest.approx(1 + float(sum(on.defender_losses.values())), abs=1e-12)


@pytest.mark.parametrize(("threshold", "leaves"), [(4, True), (3, False)])
def test_C_15_7_his_standing_retreat_decides_right_after_his_losses(threshold: int, leaves: bool) -> None:
    """3 units are left after either answer: RETREAT WHEN UNITS < 4 leaves at once, unpursued (Egyptus has no
    cavalry, C-6.16); < 3 fights on."""
    state = single_kind_defence()
    state.players["Macedonia"].standing = {
        "retreat": [{"from": None, "condition": "units_below", "threshold": threshold, "to": []}]
    }
    asked, _ = losses_question(state)
    figures = RULES.decision_odds(state, "Macedonia", asked.key, asked.position)
    assert [(odds.wins == 0.0, odds.attacker_losses == 2.0) for _, odds in figures] == [(leaves, leaves)] * 2


def rolled(dice: int, legion: dict[str, int], catapults: int) -> dict[int, float]:
    """The chances of each number of matched hits a roll of `dice` symbol dice scores (C-6.8), die by die."""
    faces: dict[tuple[int, int, int], float] = {(0, 0, 0): 1.0}
    for _ in range(dice):
        following: dict[tuple[int, int, int], float] = defaultdict(float)
        for (i, c, k), p in faces.items():
            for face in FACES.values():
                following[(i + (face == "infantry"), c + (face == "cavalry"), k + (face == "catapult"))] += p / 6
        faces = following
    hits: dict[int, float] = defaultdict(float)
    for (i, c, k), p in faces.items():
        hits[min(i, legion["infantry"]) + min(c, legion["cavalry"]) + min(k, catapults)] += p
    return hits


def fought_on(
    mine: dict[str, int], his: dict[str, int], leaders: int, fortified: bool = False
) -> tuple[float, float, float]:
    """The attacker's chance to win and each side's expected losses of a battle from these forces on, neither side
    with standing orders (an eliminated side has lost, C-6.14)."""
    if not sum(mine.values()) or not sum(his.values()):
        return (1.0 if sum(mine.values()) and not sum(his.values()) else 0.0), 0.0, 0.0
    on = land_odds(RULES, {**mine, "leaders": leaders}, {**his, "fortified": fortified}, area="THR")
    return float(on.attacker_wins), float(sum(on.attacker_losses.values())), float(sum(on.defender_losses.values()))


def round_then_on(
    forces: tuple[dict[str, int], dict[str, int]],
    leaders: int,
    legions: tuple[dict[str, int], dict[str, int]],
    hits: tuple[dict[int, float], dict[int, float]],
    losses: tuple[dict[str, int] | None, dict[str, int] | None] = (None, None),
    fortified: bool = False,
) -> tuple[float, float, float]:
    """The figure a round and the battle after it give: each side takes the hits of `hits` (the attacker's, then the
    defender's, with their chances), losing `losses` where chosen, else infantry, cavalry, catapults first (C-15.6)."""
    total = [0.0, 0.0, 0.0]
    for to_attacker, p in hits[0].items():
        for to_defender, q in hits[1].items():
            lost = [
                chosen or fill(legion, min(h, sum(legion.values())), list(NONE))
                for chosen, legion, h in zip(losses, legions, (to_attacker, to_defender), strict=True)
            ]
            left = [{kind: force[kind] - gone[kind] for kind in NONE} for force, gone in zip(forces, lost, strict=True)]
            wins, mine_on, his_on = fought_on(*left, leaders, fortified)
            figure = (wins, sum(lost[0].values()) + mine_on, sum(lost[1].values()) + his_on)
            total = [t + p * q * f for t, f in zip(total, figure, strict=True)]
    return total[0], total[1], total[2]


def figures_of(found: list) -> list[tuple[str, tuple[float, float, float]]]:
    return [(choice, (odds.wins, odds.attacker_losses, odds.defender_losses)) for choice, odds in found]


def assert_figures(found: list, expected: list[tuple[str, tuple[float, float, float]]]) -> None:
    assert [choice for choice, _ in figures_of(found)] == [choice for choice, _ in expected]
    for (_, got), (_, want) in zip(figures_of(found), expected, strict=True):
        assert got == pytest.approx(want, abs=1e-9)


def big_army(state: GameState) -> GameState:
    """Macedonia's 7 INF 2 CAV with two generals next to Egyptus's 3 INF 2 CAV in Thracia: Macedonia's legion is
    7 of his 9 units (C-6.5: 5 plus one per leader), Egyptus fights with all of his."""
    place(state, "MAC", "Macedonia", infantry=7, cavalry=2)
    place(state, "THR", "Egyptus", infantry=3, cavalry=2)
    for seat, player in state.players.items():
        player.tribute = tribute_value(RULES, state, seat)
    return state


BIG_ATTACK = "MOVE G1, G2 WITH 7 INF, 2 CAV: MAC -> THR"
ATTACKER = {**NONE, "infantry": 7, "cavalry": 2}
DEFENDER = {**NONE, "infantry": 3, "cavalry": 2}


def first_question(state: GameState, move: str, seat: str, what: str, answers: dict | None = None) -> Pending:
    orders = parse_orders(f"{HEADER}\n{move}\n", RULES)
    result = resolve_step(RULES, state, RULES.due(state), {"Macedonia": orders}, KeyedDice(key=KEY), answers, ask=True)
    return next(p for p in result.pending if p.seat == seat and p.key == f"battle.THR.1.{what}")


def test_C_15_5_each_battle_legion_gets_the_odds_of_its_round_against_the_enemys_default_legion_and_on() -> None:
    state = big_army(start())
    asked = first_question(state, BIG_ATTACK, "Macedonia", "legion")
    found = RULES.decision_odds(state, "Macedonia", asked.key, asked.position)
    expected = []
    for legion in (
        {**NONE, "infantry": 7},
        {**NONE, "infantry": 6, "cavalry": 1},
        {**NONE, "infantry": 5, "cavalry": 2},
    ):
        hits = (rolled(5, DEFENDER, 0), rolled(7, legion, 0))
        expected.append((units_text(legion), round_then_on((ATTACKER, DEFENDER), 2, (legion, DEFENDER), hits)))
    assert_figures(found, expected)  # 7 of 9 units (5 + 2 leaders, C-6.5): three legions, no fourth


@pytest.mark.parametrize(("generals", "legions"), [(1, ["5 INF 1 CAV", "4 INF 2 CAV"]), (2, [])])
def test_C_6_5_the_legions_offered_are_five_units_plus_one_a_leader(generals: int, legions: list[str]) -> None:
    """5 INF 2 CAV: with one general a legion of 6, with two all 7 fight and nothing is asked."""
    state = big_army(start())
    place(state, "MAC", "Macedonia", infantry=5, cavalry=2)
    move = f"MOVE {', '.join(f'G{n}' for n in range(1, generals + 1))} WITH 5 INF, 2 CAV: MAC -> THR"
    orders = parse_orders(f"{HEADER}\n{move}\n", RULES)
    result = resolve_step(RULES, state, RULES.due(state), {"Macedonia": orders}, KeyedDice(key=KEY), ask=True)
    asked = [p for p in result.pending if p.key == "battle.THR.1.legion"]
    found = RULES.decision_odds(state, "Macedonia", asked[0].key, asked[0].position) if asked else []
    assert [choice for choice, _ in found] == legions


@pytest.mark.parametrize("fortress", [0, 2])
def test_C_15_6_a_defenders_losses_get_the_odds_of_his_coming_roll_against_the_attackers_default_losses(
    fortress: int,
) -> None:
    """His roll to come: a die per unit of his legion, and 2 more for his fortified city (C-6.7)."""
    state = border_war("coe-classic")  # Egyptus's 2 INF 2 CAV: he chooses which units take the hits
    if fortress:
        state.areas["THR"].city, state.areas["THR"].owner = "fortified", "Egyptus"
    asked = first_question(state, ATTACK, "Egyptus", "losses")
    point = asked.position
    assert (dict(point.legion), point.hits) == ({**NONE, "infantry": 2, "cavalry": 2}, 1)
    found = RULES.decision_odds(state, "Egyptus", asked.key, point)
    mine, his = {**NONE, "infantry": 4, "cavalry": 1}, {**NONE, "infantry": 2, "cavalry": 2}
    expected = [
        (
            units_text(lost),
            round_then_on(
                (mine, his), 1, (mine, his), (rolled(4 + fortress, his, 0), {1: 1.0}), (None, lost), bool(fortress)
            ),
        )
        for lost in ({**NONE, "infantry": 1}, {**NONE, "cavalry": 1})
    ]
    assert_figures(found, expected)


def test_C_15_6_an_attacker_who_did_not_see_the_defenders_losses_takes_them_as_the_defaults_make_them() -> None:
    state = border_war("coe-classic")
    figures = []
    for his_answer in ("INF", "CAV"):  # what Egyptus chose is not Macedonia's to see: the same figures
        answers = {"Egyptus": {"battle.THR.1.losses": his_answer}}
        asked = first_question(state, ATTACK, "Macedonia", "losses", answers)
        assert asked.position.enemy_losses is None
        figures.append(figures_of(RULES.decision_odds(state, "Macedonia", asked.key, asked.position)))
    assert figures[0] == figures[1]
    point = asked.position
    assert (point.hits, point.enemy_hits) == (2, 1)
    mine, his = {**NONE, "infantry": 4, "cavalry": 1}, {**NONE, "infantry": 2, "cavalry": 2}
    expected = [
        (units_text(lost), round_then_on((mine, his), 1, (mine, his), ({2: 1.0}, {1: 1.0}), (lost, None)))
        for lost in ({**NONE, "infantry": 2}, {**NONE, "infantry": 1, "cavalry": 1})
    ]
    assert_figures(RULES.decision_odds(state, "Macedonia", asked.key, point), expected)


def test_C_15_the_enemys_secret_standing_orders_never_shape_a_round_figure_and_ones_own_do() -> None:
    state = big_army(start())
    asked = first_question(state, BIG_ATTACK, "Macedonia", "legion")
    plain = figures_of(RULES.decision_odds(state, "Macedonia", asked.key, asked.position))
    secret = {"losses": ["cavalry"], "retreat": [{"from": None, "condition": "units_below", "threshold": 4, "to": []}]}
    asked.position.state.players["Egyptus"].standing = secret
    assert figures_of(RULES.decision_odds(state, "Macedonia", asked.key, asked.position)) == plain
    asked.position.state.players["Macedonia"].standing = {"losses": ["cavalry"]}  # his own: his to know
    assert figures_of(RULES.decision_odds(state, "Macedonia", asked.key, asked.position)) != plain


BASE_1984 = RULES_1984.data["targets"]  # O-6.7: the number a die must reach to hit each kind


def shot_chance(needed: int) -> float:
    """A die reaching `needed` (O-6.7); 1 or less hits without a die (O-15.1)."""
    return 1.0 if needed <= 1 else max(0, 7 - needed) / 6


def fought_on_1984(mine: dict[str, int], his: dict[str, int]) -> tuple[float, float, float]:
    """Like fought_on, under the 1984 rules (Macedonia came by land, one leader)."""
    if not sum(mine.values()) or not sum(his.values()):
        return (1.0 if sum(mine.values()) else 0.0), 0.0, 0.0
    on = land_odds(RULES_1984, {**mine, "leaders": 1, "by_sea": {}}, {**his, "fortified": False}, area="THR")
    return float(on.attacker_wins), float(sum(on.attacker_losses.values())), float(sum(on.defender_losses.values()))


def less(force: dict[str, int], kind: str) -> dict[str, int]:
    return {**force, kind: force[kind] - 1}


def target_question(attacker: dict[str, int], defender: dict[str, int], seat: str) -> tuple[GameState, Pending]:
    """Macedonia's `attacker` marching on Egyptus's `defender` in Thracia under the 1984 rules: `seat`'s first target
    question (O-14.4, O-14.5)."""
    state = start(ruleset="coe-1984")
    place(state, "MAC", "Macedonia", **attacker)
    place(state, "THR", "Egyptus", **defender)
    for name, player in state.players.items():
        player.tribute = tribute_value(RULES_1984, state, name)
    units = ", ".join(f"{n} {kind[:3].upper()}" for kind, n in attacker.items() if n)
    orders = parse_orders(f"{HEADER}\nMOVE G1 WITH {units}: MAC -> THR\n", RULES_1984)
    result = resolve_step(RULES_1984, state, RULES_1984.due(state), {"Macedonia": orders}, KeyedDice(key=KEY), ask=True)
    return state, next(p for p in result.pending if p.seat == seat and p.key == "battle.THR.1.target")


@pytest.mark.parametrize(
    ("mine", "his", "kinds"),
    [  # lowest target number first (O-14.4): 4, 5, 6 without advantage; with 3 catapults against none 1 (no die,
        # O-15.1) and 2 (a die: the boundary)
        (
            {"infantry": 4, "cavalry": 1},
            {"infantry": 2, "cavalry": 1, "catapult": 1},
            ["infantry", "cavalry", "catapult"],
        ),
        ({"infantry": 2, "catapult": 3}, {"infantry": 2, "cavalry": 1}, ["infantry", "cavalry"]),
    ],
)
def test_O_14_4_each_target_of_the_attackers_shot_gets_its_chance_then_the_defenders_default_reply_and_on(
    mine: dict[str, int], his: dict[str, int], kinds: list[str]
) -> None:
    mine, his = {**NONE, **mine}, {**NONE, **his}
    state, asked = target_question(mine, his, "Macedonia")
    found = RULES_1984.decision_odds(state, "Macedonia", asked.key, asked.position)
    expected = []
    for kind in kinds:
        total = [0.0, 0.0, 0.0]
        for hit in (True, False):
            chance = shot_chance(BASE_1984[kind] - max(0, mine["catapult"] - his["catapult"]))  # O-6.5, O-6.6
            p = chance if hit else 1 - chance
            his_left = less(his, kind) if hit else his
            advantage = max(0, his_left["catapult"] - mine["catapult"])
            q = shot_chance(BASE_1984["infantry"] - advantage)  # his default: the lowest number, our infantry
            for reply, chance in ((True, q), (False, 1 - q)):
                mine_left = less(mine, "infantry") if reply else mine
                wins, more_mine, more_his = fought_on_1984(mine_left, his_left)
                figure = (wins, reply + more_mine, hit + more_his)
                total = [t + p * chance * f for t, f in zip(total, figure, strict=True)]
        expected.append((kind, (total[0], total[1], total[2])))
    assert_figures(found, expected)


def test_O_14_5_each_target_of_the_defenders_shot_gets_its_chance_then_the_battle_on() -> None:
    mine, his = {**NONE, "infantry": 4, "cavalry": 1, "catapult": 1}, {**NONE, "infantry": 2, "cavalry": 2}
    state, asked = target_question(mine, his, "Egyptus")
    at = asked.position.state.areas["THR"].units  # after the attacker's first shot
    mine, his = ({kind: getattr(at[seat], kind) for kind in NONE} for seat in ("Macedonia", "Egyptus"))
    found = RULES_1984.decision_odds(state, "Egyptus", asked.key, asked.position)
    expected = []
    for kind in ("infantry", "cavalry", "catapult"):  # no advantage: 4, 5, 6 (O-6.7)
        p = shot_chance(BASE_1984[kind])
        hit, miss = fought_on_1984(less(mine, kind), his), fought_on_1984(mine, his)
        figure = [p * a + (1 - p) * b for a, b in zip(hit, miss, strict=True)]
        expected.append((kind, (figure[0], figure[1] + p, figure[2])))
    assert_figures(found, expected)


def test_O_14_4_the_defenders_secret_targets_never_shape_the_attackers_figures_and_his_own_do() -> None:
    mine, his = {**NONE, "infantry": 4, "cavalry": 1}, {**NONE, "infantry": 2, "cavalry": 1, "catapult": 1}
    state, asked = target_question(mine, his, "Macedonia")
    plain = figures_of(RULES_1984.decision_odds(state, "Macedonia", asked.key, asked.position))
    asked.position.state.players["Egyptus"].standing = {"targets": ["cavalry"]}
    assert figures_of(RULES_1984.decision_odds(state, "Macedonia", asked.key, asked.position)) == plain
    asked.position.state.players["Macedonia"].standing = {"targets": ["catapult"]}  # his later shots
    assert figures_of(RULES_1984.decision_odds(state, "Macedonia", asked.key, asked.position)) != plain


def test_a_losses_notice_gives_each_answers_odds_in_the_readers_keywords(tmp_path: Path) -> None:
    by_seat, asked = notices(tmp_path, single_kind_defence(), {}, {"Macedonia": "de"})
    assert [(q.seat, q.key) for q in asked] == [("Macedonia", "battle.THR.1.losses")]
    lines = [line.strip() for line in by_seat["Macedonia"].splitlines() if line.strip().startswith("# wenn du ")]
    assert [line.split(":")[0] for line in lines] == ["# wenn du 2 INF antwortest", "# wenn du 1 INF 1 KAV antwortest"]


def test_a_legion_notice_gives_each_legions_odds_in_the_readers_keywords(tmp_path: Path) -> None:
    by_seat, asked = notices(tmp_path, big_army(start()), {}, {"Macedonia": "de"}, BIG_ATTACK)
    assert [(q.seat, q.key) for q in asked] == [("Macedonia", "battle.THR.1.legion")]
    lines = [line.strip() for line in by_seat["Macedonia"].splitlines() if line.strip().startswith("# wenn du ")]
    assert [line.split(":")[0] for line in lines] == [
        "# wenn du 7 INF antwortest",
        "# wenn du 6 INF 1 KAV antwortest",
        "# wenn du 5 INF 2 KAV antwortest",
    ]


def test_by_mail_a_legion_notice_carries_the_odds_of_each_legion(pbem: Pbem, write: Write, tmp_path: Path) -> None:
    """End to end: a game that asks; Macedonia's G1 marches 5 INF 2 CAV on Thracia, a legion of 6 of 7 (C-6.5). The
    tick asks before any die, and the notice mailed to Macedonia gives each legion's odds."""
    position = contested_position(pbem, write)
    snapshot = json.loads(position.read_text())
    snapshot["areas"]["MOE"]["units"]["Macedonia"]["infantry"] = 5
    big = write("big.json", json.dumps(snapshot))
    seats = [a for seat, mail in SEATS.items() for a in ("--seat", f"{seat}={mail}")]
    created = pbem("new", "rome1", "--from-snapshot", str(big), *seats, "--decisions", "ask")
    assert created.exit_code == 0, created.output
    pbem.passwords = {
        line.split()[0]: line.split()[1]
        for line in created.output.splitlines()
        if len(line.split()) == 2 and line.split()[0] in SEATS
    }
    assert (
        pbem("submit", "rome1", str(pbem.orders("Macedonia", 1, "MOVE G1 WITH 5 INF 2 CAV: MOE -> THR"))).exit_code == 0
    )
    waiting = pbem("adjudicate", "rome1")
    assert "Waiting for Macedonia: battle.THR.1.legion" in waiting.output, waiting.output
    mails = [m for m in pbem.sent() if m["To"] == SEATS["Macedonia"] and "decisions" in m["Subject"]]
    (body,) = [m.get_body(("plain",)).get_content() for m in mails]
    lines = [line.strip() for line in body.splitlines() if line.strip().startswith("# if you answer")]
    assert [line.split(":")[0] for line in lines] == ["# if you answer 5 INF 1 CAV", "# if you answer 4 INF 2 CAV"]
    assert "the attacker wins" in lines[0] and "your enemy is taken to follow the defaults" in body


def naval_question(state: GameState, dice: list[int], seat: str) -> Pending:
    """Macedonia's NAVAL AEG resolved in ask mode with these dice: `seat`'s naval losses question of round 1."""
    for name, player in state.players.items():
        player.tribute = tribute_value(RULES, state, name)
    orders = parse_orders(f"{HEADER}\nNAVAL AEG\n", RULES)
    result = resolve_step(RULES, state, RULES.due(state), {"Macedonia": orders}, GivenDice(values=dice), ask=True)
    return next(p for p in result.pending if p.seat == seat and p.key == "naval.AEG.1.losses")


def binomial_at_most(dice: int, most: int) -> dict[int, float]:
    """Galley faces among `dice` dice (one face in six, C-7.3), the hits capped at `most` galleys."""
    found: dict[int, float] = defaultdict(float)
    for hits in range(dice + 1):
        found[min(hits, most)] += comb(dice, hits) * (1 / 6) ** hits * (5 / 6) ** (dice - hits)
    return found


def test_C_15_10_each_pair_of_galleys_to_sink_gets_the_odds_of_the_round_and_the_rounds_left() -> None:
    """Egyptus's fleet (the Caesar's galley 1, galley 2 with 3 INF, 3 with 1 INF, 4 empty) takes 2 hits from
    Macedonia's 2 empty galleys; Egyptus rolls his 8 dice after answering."""
    asked = naval_question(fleet(), one_round(2), "Egyptus")
    found = RULES.decision_odds(fleet(), "Egyptus", asked.key, asked.position)
    assert [choice for choice, _ in found] == ["1, 2", "1, 3", "1, 4", "2, 3", "2, 4", "3, 4"]
    cargo = {1: 0, 2: 3, 3: 1, 4: 0}
    for choice, odds in found:
        sunk = [int(g) for g in choice.split(", ")]
        wins = mine = his = 0.0
        for hits, p in binomial_at_most(8, 2).items():  # Macedonia loses empty galleys
            his_lost = len(sunk) + sum(cargo[g] for g in sunk)
            if 1 in sunk:  # his Caesar's galley: the captor takes over (C-8.13)
                figure = (1.0, hits, his_lost)
            elif hits == 2:  # Macedonia's fleet is gone (C-7.5)
                figure = (0.0, 2, his_lost)
            else:
                left = [
                    {"infantry": cargo[g], **({"caesar": True} if g == 1 else {})}
                    for g in (1, 2, 3, 4)
                    if g not in sunk
                ]
                on = naval_odds(RULES, 2 - hits, left, rounds=2)
                figure = (
                    float(on.attacker_wins),
                    hits + float(sum(on.attacker_losses.values())),
                    his_lost + float(sum(on.defender_losses.values())),
                )
            wins, mine, his = wins + p * figure[0], mine + p * figure[1], his + p * figure[2]
        assert (odds.wins, odds.attacker_losses, odds.defender_losses) == pytest.approx((wins, mine, his), abs=1e-9)


@pytest.mark.parametrize("rounds", [1, 2, 3])
def test_C_7_5_a_naval_battle_has_three_rounds_and_the_odds_go_on_for_those_left(rounds: int) -> None:
    """One galley against one: a round sinks a galley with 1 - (5/6)^2 each; after the rounds left, no winner."""
    odds = naval_odds(RULES, 1, 1, rounds=rounds)
    stay = (25 / 36) ** 2  # neither galley sunk in a round
    assert float(odds.draw) == pytest.approx(stay**rounds + (1 - stay**rounds) * (11 / 36) ** 2 / (1 - stay), abs=1e-12)
    assert naval_odds(RULES, 1, 1) == naval_odds(RULES, 1, 1, rounds=3)


def test_C_15_10_the_defenders_secret_naval_losses_never_shape_the_attackers_figure() -> None:
    """Macedonia (galley 1 with G1 and 1 INF, galley 2 empty) takes a hit after both rolls: Egyptus's losses of the
    round, his choice, are taken by the default; his standing NAVAL LOSSES does not change the figure."""

    def two_fleets() -> GameState:
        state = at_sea(at_sea(start(), "AEG", 1, "Macedonia", (1,), inf=1), "AEG", 2, "Macedonia")
        return at_sea(at_sea(at_sea(state, "AEG", 1, "Egyptus", (1,), inf=2), "AEG", 2, "Egyptus"), "AEG", 3, "Egyptus")

    dice = [GALLEY, BLANK, BLANK, BLANK] + [GALLEY] + [BLANK] * 5 + [BLANK] * 20
    plain = naval_question(two_fleets(), dice, "Macedonia")
    assert (plain.position.hits, plain.position.enemy_hits) == (1, 1)
    figure = RULES.decision_odds(two_fleets(), "Macedonia", plain.key, plain.position)
    assert [choice for choice, _ in figure] == ["1", "2"]
    secret = two_fleets()
    secret.players["Egyptus"].standing["naval_losses"] = ["generals"]
    hidden = naval_question(secret, dice, "Macedonia")
    assert RULES.decision_odds(secret, "Macedonia", hidden.key, hidden.position) == figure


def test_O_6_24_at_sea_the_default_targets_figure_is_the_battles_odds_from_its_start() -> None:
    """Macedonia's galley 1 (G1, 2 INF) sails into the Aegean against Egyptus's galley 1 (G2, 1 INF) and galley 2
    (G3 alone): the first shot's default target, played out, is the battle the odds function gives from the start;
    the other target is the other way to fight it."""
    state = fleet_at_mac(start(ruleset="coe-1984"), 1)
    at_sea_1984(state, "AEG", 1, "Egyptus", (2,), inf=1)
    at_sea_1984(state, "AEG", 2, "Egyptus", (3,))
    for name, player in state.players.items():
        player.tribute = tribute_value(RULES_1984, state, name)
    orders = parse_orders(f"{HEADER}\nSAIL GALLEY 1: MAC -> AEG CARRYING G1 WITH 2 INF\n", RULES_1984)
    result = resolve_step(
        RULES_1984,
        state,
        RULES_1984.due(state),
        {"Macedonia": orders},
        GivenDice(values=[1, 1, 4, 1, 3, 1, 3] * 3),
        ask=True,
    )
    asked = next(p for p in result.pending if p.key == "naval.AEG.1.target")
    found = RULES_1984.decision_odds(state, "Macedonia", asked.key, asked.position)
    assert [choice for choice, _ in found] == ["galley 2", "infantry aboard galley 1"]  # O-14.4: 3 before 4
    start_odds = naval_odds(
        RULES_1984, [{"infantry": 2, "generals": 1}], [{"infantry": 1, "generals": 1}, {"generals": 1}]
    )
    default = found[0][1]
    assert default.wins == pytest.approx(float(start_odds.attacker_wins), abs=1e-12)
    assert default.attacker_losses == pytest.approx(float(sum(start_odds.attacker_losses.values())), abs=1e-12)
    assert default.defender_losses == pytest.approx(float(sum(start_odds.defender_losses.values())), abs=1e-12)
    assert found[1][1].defender_losses != pytest.approx(default.defender_losses)


def test_O_14_4_on_land_the_default_targets_figure_is_the_battles_odds_from_its_start() -> None:
    mine, his = {**NONE, "infantry": 4, "cavalry": 1}, {**NONE, "infantry": 2, "cavalry": 1, "catapult": 1}
    state, asked = target_question(mine, his, "Macedonia")
    (_, default), *_ = RULES_1984.decision_odds(state, "Macedonia", asked.key, asked.position)
    start_odds = land_odds(RULES_1984, {**mine, "leaders": 1, "by_sea": {}}, {**his, "fortified": False}, area="THR")
    assert default.wins == pytest.approx(float(start_odds.attacker_wins), abs=1e-12)
    assert default.attacker_losses == pytest.approx(float(sum(start_odds.attacker_losses.values())), abs=1e-12)
