"""Odds in Empires of the Ancient World receipts: for every attack of a plan on an area another player holds, the
exact odds of the battle (odds.battle_odds) with the attacker's own stack and standing orders, against every stack
the defender could form from what he could hold: his known cards and each home army of his half that fits what is
public (EAW-1.4, EAW-3.8), equally likely. What the attacker cannot see (the home army the defender drew, his
standing orders) leaves the figure as it is. Test map and cards: tests/eaw_helpers.py."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from adjudicator.archive import Archive
from adjudicator.archive.models import DecisionRow, GameRow
from adjudicator.engine.chance import GivenDice
from adjudicator.engine.steps import resolve_step
from adjudicator.mail.inbound import read_message
from adjudicator.orders import parse_orders
from adjudicator.rulesets import load_ruleset
from adjudicator.rulesets.empires import standing
from adjudicator.rulesets.empires.attack_odds import could_hold
from adjudicator.rulesets.empires.battle_stacks import OPEN
from adjudicator.rulesets.empires.board import attack_route, is_last_province
from adjudicator.rulesets.empires.game import EmpiresGame
from adjudicator.rulesets.empires.odds import Forces, Plan, Side, battle_odds
from adjudicator.rulesets.empires.state import GameState
from adjudicator.services.games import NewGameOptions, new_game
from adjudicator.services.mailbox import ingest
from adjudicator.services.reports import write_decision_notices
from adjudicator.services.selfplay import playable
from tests.eaw_helpers import position, small_data
from tests.test_eaw_mail import OPTIONS, Mailed, addresses, fixed_secrets, mail_due, message
from tests.test_eaw_mail import position as game_position

DATA = small_data()
HEADER = "GAME t TURN 5 PLAYER red PASSWORD x"
RED = ["pike", "blade", "archer", "guard_a", "guard_a#2", "horse_a"]  # red's hand: home army A and three cards
ATTACK = "ATTACK RAE FROM GAL"


def border_war(group: str = "d", blue_standing: tuple[str, ...] = ()) -> tuple[EmpiresGame, GameState]:
    """Red (north, home army A) next to blue's Raetia; blue (south) holds a rider everybody saw it take and the
    home army `group` it drew unseen (EAW-3.8), with `blue_standing` orders."""
    rules = EmpiresGame(load_ruleset("empires-aw").info, DATA, DATA.options)
    blue = ["rider", f"guard_{group}", f"guard_{group}#2", f"horse_{group}"]
    state = position(DATA, control={"GAL": "red", "RAE": "blue", "ITA": "blue"}, hands={"red": RED, "blue": blue})
    state.phase = "plans"
    state.players["red"].half, state.players["red"].home_group = "north", "A"
    state.players["blue"].half, state.players["blue"].home_group = "south", group.upper()
    for line in blue_standing:
        [order] = parse_orders(f"GAME t TURN 5 PLAYER blue PASSWORD x\n{line}\n", rules).orders
        assert standing.store(state.players["blue"], order)
    return rules, state


def odds_of(rules: EmpiresGame, state: GameState, *lines: str) -> list[tuple[object, ...]]:
    orders = parse_orders("\n".join(["GAME t TURN 5 PLAYER red PASSWORD x", *lines]) + "\n", rules)
    assert orders.errors == (), orders.errors
    return [
        (o.area, o.attacker, o.defender, o.wins, o.attacker_losses, o.defender_losses)
        for o in rules.attack_odds(state, "red", 5, orders)
    ]


def expected(stack: tuple[str, ...], markers: str | None = None) -> tuple[float, float, float]:
    """The odds function's figure for red's `stack` against blue's rider and any home army of the south (D, E, F:
    EAW-1.4), each equally likely, each legal stack of a hand too."""
    each = [
        battle_odds(
            Forces(
                DATA, DATA.options, OPEN, Side(stack), Side(("rider", f"guard_{g}", f"guard_{g}", f"horse_{g}"), False)
            ),
            (Plan(markers), None),
        )
        for g in "def"
    ]

    def mean(values: list[Fraction]) -> float:
        return float(sum(values, Fraction(0)) / len(values))

    return (
        mean([o.attacker_wins for o in each]),
        mean([o.cards_lost["attacker"] for o in each]),
        mean([o.cards_lost["defender"] for o in each]),
    )


def test_eaw_receipt_odds_average_over_the_home_armies_the_defender_could_hold() -> None:
    """EAW-12.6: without a STACK, red fights with its default stack; blue with any stack of any south home army."""
    rules, state = border_war()
    default = ("archer", "blade", "pike", "guard_a", "guard_a")
    assert odds_of(rules, state, ATTACK) == [
        ("RAE", ", ".join(default), "blue (4 cards, 3 possible home armies)", *expected(default))
    ]


def test_eaw_receipt_odds_take_the_attacks_stack_and_the_attackers_standing_orders() -> None:
    """EAW-12.6, EAW-12.7: the stack sent with the attack and red's MARKERS PULL (sent in the same mail) count; a
    stack the battle would refuse is the default stack (EAW-8.21: two cards where five can be stacked)."""
    rules, state = border_war()
    stack = ("archer", "horse_a", "guard_a", "pike", "blade")
    found = odds_of(rules, state, "MARKERS PULL", f"ATTACK RAE FROM GAL WITH {', '.join(stack)}")
    assert found == [("RAE", ", ".join(stack), "blue (4 cards, 3 possible home armies)", *expected(stack, "pull"))]
    assert found != odds_of(rules, state, f"ATTACK RAE FROM GAL WITH {', '.join(stack)}")
    refused = odds_of(rules, state, "ATTACK RAE FROM GAL WITH horse_a, pike")
    [(area, default, *rest)] = odds_of(rules, state, ATTACK)
    assert refused == [(area, f"{default} (the default stack, EAW-8.21)", *rest)]


def test_eaw_odds_never_read_what_the_attacker_cannot_see() -> None:
    """EAW-3.8, EAW-12: the home army blue drew and its standing orders are its secret: other ones give the same
    line; read, its real hand would give another figure."""
    rules, state = border_war("d")
    plain = odds_of(rules, state, ATTACK)
    secret = ("STACK OPEN DEFEND: rider, guard_e", "MARKERS PULL", "DEFEND SIEGE", "LOSSES rider")
    other_rules, other = border_war("e", secret)
    assert odds_of(other_rules, other, ATTACK) == plain
    default = ("archer", "blade", "pike", "guard_a", "guard_a")
    real = battle_odds(
        Forces(DATA, DATA.options, OPEN, Side(default), Side(("rider", "guard_d", "guard_d", "horse_d"), False))
    )
    leaked = (float(real.attacker_wins), float(real.cards_lost["attacker"]), float(real.cards_lost["defender"]))
    assert leaked != plain[0][3:]


def test_eaw_public_facts_narrow_the_home_armies() -> None:
    """EAW-8.4: an empire card blue revealed in a battle names its home army; a group seen in a third player's
    hand is not blue's; the attacker's own group is not either (EAW-1.4)."""
    rules, state = border_war("d")
    state.players["green"].half, state.players["green"].hand = "south", ["guard_e", "guard_e#2", "horse_e"]
    state.players["green"].revealed = ["guard_e"]
    assert [hand[1] for hand in could_hold(DATA, state, "red", "blue")] == ["guard_d", "guard_f"]
    state.players["blue"].revealed = ["horse_d"]
    assert could_hold(DATA, state, "red", "blue") == [("rider", "horse_d", "guard_d", "guard_d")]


def test_eaw_orders_without_an_attack_on_a_player_have_no_odds() -> None:
    rules, state = border_war()
    assert odds_of(rules, state, "CONTROL GAL") == []
    assert odds_of(rules, state, "ATTACK GER FROM GAL") == []  # not adjacent: refused, no battle (EAW-7.1)


@pytest.fixture(scope="module")
def placed(tmp_path_factory: pytest.TempPathFactory) -> Mailed:
    """A game on the example data by mail, its placement mailed and ticked: round I's plans step is due."""
    from collections import Counter

    from adjudicator.services.deadlines import tick

    data = tmp_path_factory.mktemp("eaw-odds") / "data"
    archive = Archive.in_folder(data)
    ruleset, folder = playable(load_ruleset("empires-aw"), None, None, OPTIONS)
    with fixed_secrets("eaw-odds"):
        done = new_game(
            archive,
            data,
            NewGameOptions("mailed", ruleset.name, addresses(), game_data=folder, ruleset_options=OPTIONS),
        )
    mailed = Mailed(data, dict(done.passwords), Counter(), [])
    assert all(text == "orders stored" for text in mail_due(mailed, {}))
    assert not tick(archive, data).failures
    return mailed


def test_eaw_odds_reach_the_player_by_mail(placed: Mailed) -> None:
    """A plan with an attack on another player's province mailed through ingest: the receipt holds the line the
    ruleset computes on the game's position."""
    from adjudicator.services.game_reads import current_game

    with Archive.open(placed.data, None).session() as session:
        _, rules, state = current_game(session, "mailed")
    step = rules.due(state)
    assert step is not None and step.phase == "plans"
    seat = step.seats[0]
    origin, target = next(
        (origin, target)
        for origin in state.controlled(seat)
        for target, held in sorted(state.control.items())
        if held.seat != seat
        and attack_route(rules.data.map, origin, target) is not None
        and not is_last_province(state, rules.data.map, target)
    )
    attack = f"ATTACK {target} FROM {origin}"
    text = f"GAME mailed TURN {step.number} PLAYER {seat} PASSWORD {placed.passwords[seat]}\n{attack}\n"
    outcome = ingest(Archive.open(placed.data, None), read_message(message(seat, step.number, text, 99)))
    assert outcome.text == "orders stored"
    [odds] = rules.attack_odds(state, seat, step.number, parse_orders(text, rules))
    with Archive.open(placed.data, None).session() as session:
        from adjudicator.archive import queries as db

        body = [m.body for m in db.outbox_after(session, 0) if m.to == f"{seat}@example.org"][-1]
    line = f"{target}: {odds.attacker} against {odds.defender}: you win {100 * odds.wins:.1f}%"
    assert line in body, body
    assert f"yours {odds.attacker_losses:.2f}, his {odds.defender_losses:.2f}" in body
    assert game_position(placed.data) is not None


def attack_planned(rules: EmpiresGame, state: GameState, stack: str) -> None:
    """The border war made a whole position of the action phase, as the archive stores one (the deck, green on home
    army E, the home armies left), with red's plan: attack Raetia with `stack`."""
    state.phase = "action"
    held = {c for p in state.players.values() for c in p.hand}
    state.deck = [c for c in DATA.general_deck if c not in held]
    state.players["green"].half, state.players["green"].home_group = "south", "E"
    state.players["green"].hand = list(DATA.home_army("E"))
    state.home_groups = {"north": ["B", "C"], "south": ["F"]}
    plan = parse_orders(f"{HEADER}\n{ATTACK} WITH {stack}\n", rules)
    state.players["red"].plan, state.players["red"].planned = [o.to_json() for o in plan.orders], True


def test_EAW_12_4_a_siege_decision_notice_gives_the_odds_of_each_choice(tmp_path: Path) -> None:
    """EAW-12.4: asked whether to defend Raetia's fort in a siege, blue's notice gives the odds of the siege and of
    the open battle, on what blue can know: its own hand against any stack red could form from what it could hold
    (the stack red sent with the attack is its secret)."""
    rules, state = border_war()
    state.forts = {"RAE": "blue"}
    attack_planned(rules, state, "archer, horse_a, guard_a, pike, blade")
    step = rules.due(state)
    assert step is not None
    result = resolve_step(rules, state, step, {}, GivenDice(values=[3] * 40), ask=True)
    asked = [p for p in result.pending if p.key == "siege.RAE"]
    game = GameRow(id=1, name="t", ruleset=rules.name, seed="", commitment="", created="", decision_hours=48)
    waiting = [
        DecisionRow(
            game_id=1, turn=1, seat=q.seat, key=q.key, question=q.question, default=q.default, rule=q.rule, asked=""
        )
        for q in asked
    ]
    [path] = write_decision_notices(tmp_path, rules, game, step.number, result, waiting, {}, rules.snapshot_text(state))
    notice = path.read_text(encoding="utf-8")
    lines = [line.strip() for line in notice.splitlines() if "if you answer" in line]
    assert [line.split(":")[0] for line in lines] == ["# if you answer siege", "# if you answer open"], notice
    choices = rules.decision_odds(state, "blue", "siege.RAE")
    for line, (answer, odds) in zip(lines, choices, strict=True):
        assert f"if you answer {answer}: RAE: {odds.attacker} against {odds.defender}: the attacker wins" in line
        assert f"{100 * odds.wins:.1f}%" in line
    hands = could_hold(DATA, state, "blue", "red")  # home armies A, B and C of the north (EAW-1.4), red's cards
    assert len(hands) == 3
    blue = Side(("rider", "horse_d", "guard_d", "guard_d"))  # its default open stack (EAW-12.6)
    each = [battle_odds(Forces(DATA, DATA.options, OPEN, Side(hand, False), blue)) for hand in hands]
    assert choices[1][1].wins == float(sum((o.attacker_wins for o in each), Fraction(0)) / 3)
    other = state.copy()  # red sent no stack: the same figures, its stack being its secret
    other.players["red"].plan = [o.to_json() for o in parse_orders(f"{HEADER}\n{ATTACK}\n", rules).orders]
    assert rules.decision_odds(other, "blue", "siege.RAE") == choices
