"""Odds in Empires of the Ancient World's battle notices.

Stack questions (EAW-12.6): a seat asked for its stack gets the odds of its default and of its best other stacks,
each against every stack the enemy could form from every hand he could hold (the enemy's stack is his secret).
Marker questions (EAW-12.7, with the option `marker_choice` = `winner_chooses`): the winner of a comparison asked
whether to push or pull gets the odds of each answer, the battle played on from the markers it leaves, with his own
stack, against every stack the enemy could have formed that begins with the cards he revealed (his stack's order
and his unrevealed cards are his secret). Test map and cards: tests/eaw_helpers.py."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from adjudicator.archive.models import DecisionRow, GameRow
from adjudicator.engine.chance import GivenDice
from adjudicator.engine.decisions import Pending
from adjudicator.engine.steps import StepResult, resolve_step
from adjudicator.render.i18n import engine_text
from adjudicator.rulesets import load_ruleset
from adjudicator.rulesets.empires import attack_odds
from adjudicator.rulesets.empires.attack_odds import could_hold
from adjudicator.rulesets.empires.battle import ATTACKER_SIDE, DEFENDER_SIDE, PULL, PUSH, move_marker
from adjudicator.rulesets.empires.battle_stacks import OPEN, base_id, numbered
from adjudicator.rulesets.empires.game import EmpiresGame
from adjudicator.rulesets.empires.odds import candidate_stacks, stack_odds
from adjudicator.rulesets.empires.play import in_english
from adjudicator.rulesets.empires.state import GameState
from adjudicator.services.reports import write_decision_notices
from adjudicator.services.turn import questions_now
from tests.eaw_helpers import small_data
from tests.test_receipt_odds_empires import attack_planned, border_war

DATA = small_data(marker_choice="winner_chooses")
RULES = EmpiresGame(load_ruleset("empires-aw").info, DATA, DATA.options)
STACK = "archer, horse_a, guard_a, pike, blade"  # red's values 5, 3, 3, 4, 5 against blue's 4, 3, 4, 3


def marker_battle(stack: str = STACK) -> tuple[GameState, list[Pending]]:
    """Red attacks blue's Raetia with `stack` (the siege test's position, the winner choosing its marker moves):
    the position before the step and the marker questions asked (blue at comparison 3, red at comparison 5)."""
    state, result = marker_step(stack)
    return state, [p for p in result.pending if p.key.startswith("marker.")]


def marker_step(stack: str = STACK, answers: dict[str, dict[str, str]] | None = None) -> tuple[GameState, StepResult]:
    _, state = border_war()
    attack_planned(RULES, state, stack)
    step = RULES.due(state)
    assert step is not None
    return state, resolve_step(RULES, state, step, {}, GivenDice(values=[2] * 40), answers, ask=True)


def figures(found: list) -> list[tuple[str, tuple[float, float, float]]]:
    return [(choice, (o.wins, o.attacker_losses, o.defender_losses)) for choice, o in found]


def stack_question(stack: str = STACK) -> tuple[GameState, Pending, Pending]:
    """Blue's stack question when red attacks Raetia with `stack` (its orders' STACK, which blue cannot see), and
    blue's first marker question after it (its point holds the battle's melee bonuses)."""
    state, result = marker_step(stack)
    asked, marker = result.pending[0], result.pending[1]
    assert (asked.seat, asked.key, marker.key) == ("blue", "stack.RAE", "marker.RAE.3")
    return state, asked, marker


def enemy_stacks(state: GameState) -> list[list[tuple[str, ...]]]:
    """Per hand red could hold as blue knows it, every stack of the largest size red could form from it."""
    return [candidate_stacks(DATA, numbered(hand), OPEN, False) for hand in could_hold(DATA, state, "blue", "red")]


def test_EAW_12_6_each_stack_answer_gets_the_odds_against_every_stack_the_enemy_could_form() -> None:
    state, asked, marker = stack_question()
    found = RULES.decision_odds(state, "blue", asked.key, asked.position)
    hand = state.players["blue"].hand
    largest = {tuple(base_id(c) for c in s) for s in candidate_stacks(DATA, hand, OPEN, False)}
    assert len(largest) == 2 and {answer for answer, _ in found} == {", ".join(s) for s in largest}
    assert found[0][0] == asked.default == "rider, horse_d, guard_d, guard_d"  # the default comes first
    per_hand = enemy_stacks(state)
    for answer, line in found:
        mine = numbered(answer.split(", "))
        each = [
            sum((stack_odds(DATA, OPEN, (red, mine), marker.position.bonus).attacker_wins for red in hand), Fraction(0))
            / len(hand)
            for hand in per_hand
        ]
        assert line.wins == pytest.approx(float(sum(each, Fraction(0)) / len(each)), abs=1e-12)
    # ranked for blue, the defender: the lower red's chance, the better
    ranks = sorted(found, key=lambda item: item[1].wins)
    for rank, (answer, line) in enumerate(ranks, start=1):
        assert line.defender == f"{answer} (rank {rank} of 2 stacks)"
    assert found[0][1].wins > found[1][1].wins  # here the default is not blue's best stack
    assert found[0][1].attacker == "red (6 cards, 3 possible home armies)"


def test_EAW_12_6_the_stack_the_attacker_ordered_never_shapes_the_defenders_figure() -> None:
    """Red's STACK in its orders is red's secret: blue's figures are the same whatever red ordered."""
    state, asked, _ = stack_question()
    other_state, other, _ = stack_question("archer, horse_a, guard_a, blade, pike")
    assert figures(RULES.decision_odds(state, "blue", asked.key, asked.position)) == figures(
        RULES.decision_odds(other_state, "blue", other.key, other.position)
    )


def test_EAW_12_6_stacks_are_ranked_up_to_the_pairs_a_notice_weighs_then_the_default_stands_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state, asked, _ = stack_question()
    pairs = 2 * sum(len(stacks) for stacks in enemy_stacks(state))  # blue's two stacks by red's
    monkeypatch.setattr(attack_odds, "MOST_STACK_PAIRS", pairs)
    assert len(RULES.decision_odds(state, "blue", asked.key, asked.position)) == 2
    monkeypatch.setattr(attack_odds, "MOST_STACK_PAIRS", pairs - 1)
    [(answer, line)] = RULES.decision_odds(state, "blue", asked.key, asked.position)
    assert answer == asked.default and line.defender == asked.default  # no rank: the others were not weighed


def test_EAW_12_6_no_more_stacks_are_listed_than_a_notice_shows(monkeypatch: pytest.MonkeyPatch) -> None:
    state, asked, _ = stack_question()
    monkeypatch.setattr(attack_odds, "STACKS_LISTED", 1)
    [(answer, line)] = RULES.decision_odds(state, "blue", asked.key, asked.position)
    assert answer == asked.default and line.defender.endswith("(rank 2 of 2 stacks)")


def blue_notice(folder: Path, state: GameState, result: StepResult, key: str, language: str = "de") -> str:
    """Blue's notice in `language`, written by the real notice writer for the one question `key` the step asks now."""
    asked = questions_now(result.pending)
    assert [q.key for q in asked] == [key]
    game = GameRow(id=1, name="t", ruleset=RULES.name, seed="", commitment="", created="", decision_hours=48)
    rows = [
        DecisionRow(game_id=1, turn=1, seat=q.seat, key=q.key, question=q.question, default=q.default, rule=q.rule)
        for q in asked
    ]
    snapshot = RULES.snapshot_text(state)
    [path] = write_decision_notices(folder, RULES, game, 1, result, rows, {"blue": language}, snapshot)
    return path.read_text(encoding="utf-8")


def german_odds_lines(folder: Path, state: GameState, result: StepResult, key: str) -> list[str]:
    """The odds lines of blue's notice in German."""
    lines = blue_notice(folder, state, result, key).splitlines()
    return [line.strip() for line in lines if line.strip().startswith("# wenn")]


def test_the_notice_says_the_enemys_unseen_stack_is_weighed_over_every_one_he_could_form(tmp_path: Path) -> None:
    """Read as blue reads it: red's stack is not taken as red's default (the lines average over red's stacks), and
    the sentence above the answers says so."""
    state, result = marker_step()
    notice = blue_notice(tmp_path, state, result, "stack.RAE", "en")
    assert "every stack he could form from every hand he could hold counts alike" in notice
    assert "your enemy is taken to follow the defaults" not in notice


def test_the_stack_notice_lists_each_stacks_odds_and_rank_in_the_readers_language(tmp_path: Path) -> None:
    state, result = marker_step()
    lines = german_odds_lines(tmp_path, state, result, "stack.RAE")
    assert [line.split(":")[0] for line in lines] == [
        "# wenn du rider, horse_d, guard_d, guard_d antwortest",
        "# wenn du horse_d, rider, guard_d, guard_d antwortest",
    ]
    assert "(Rang 2 von 2 Stapeln)" in lines[0] and "(Rang 1 von 2 Stapeln)" in lines[1]


def test_EAW_8_4_the_battle_goes_on_from_the_markers_a_comparison_left() -> None:
    """Two known stacks without dice: the odds from the markers after comparison 2 are the odds from the start."""
    red, blue = numbered(("archer", "horse_a", "guard_a")), numbered(("rider", "horse_d", "guard_d"))
    whole = stack_odds(DATA, OPEN, (red, blue))
    after_two = (ATTACKER_SIDE, 0, 0)  # 5 against 4 pushed red's way; 3 against 3 moved nothing
    assert stack_odds(DATA, OPEN, (red, blue), after=(after_two, 2)) == whole
    routed = stack_odds(DATA, OPEN, (red, blue), after=((DEFENDER_SIDE,) * 3, 2))  # a rout ends it (EAW-8.10)
    assert (routed.defender_wins, routed.defender_routs) == (1, 1)


def test_EAW_12_7_each_move_gets_the_odds_of_the_comparisons_left_against_the_stacks_the_enemy_could_have() -> None:
    state, asked = marker_battle()
    question = asked[0]
    assert (question.seat, question.key) == ("blue", "marker.RAE.3")
    point = question.position
    found = RULES.decision_odds(state, "blue", question.key, point)
    assert [choice for choice, _ in found] == [PUSH, PULL]
    # red's stacks: any legal stack of each hand red could hold that begins archer, horse_a, guard_a
    shown = ["archer", "horse_a", "guard_a"]
    stacks = [
        s
        for hand in could_hold(DATA, state, "blue", "red")
        for s in candidate_stacks(DATA, numbered(hand), OPEN, False)
        if [DATA.card(c).id for c in s[:3]] == shown
    ]
    assert (
        len(stacks) > 1
        and f"({len(state.players['red'].hand)} cards, {len(stacks)} possible stacks)" in found[0][1].attacker
    )
    for choice, line in found:
        moved, _ = move_marker(point.markers, DEFENDER_SIDE, choice)
        each = [stack_odds(DATA, OPEN, (s, point.stacks["blue"]), point.bonus, after=(moved, 3)) for s in stacks]
        wins = sum((o.attacker_wins for o in each), Fraction(0)) / len(each)
        assert line.wins == pytest.approx(float(wins), abs=1e-12)
    assert figures(found)[0][1] != figures(found)[1][1]


def test_EAW_12_7_the_enemys_cards_not_yet_revealed_never_shape_the_figure() -> None:
    """Red's last two cards in the other order: blue's question, after three comparisons, gets the same figures."""
    state, asked = marker_battle()
    other_state, other = marker_battle("archer, horse_a, guard_a, blade, pike")
    assert other[0].key == asked[0].key == "marker.RAE.3"
    assert figures(RULES.decision_odds(state, "blue", asked[0].key, asked[0].position)) == figures(
        RULES.decision_odds(other_state, "blue", other[0].key, other[0].position)
    )


def test_EAW_12_7_with_every_card_revealed_the_figure_is_the_battles_end() -> None:
    """Red's question at comparison 5: blue's four cards are all shown, one stack is left to weigh."""
    state, asked = marker_battle()
    question = asked[1]
    assert (question.seat, question.key) == ("red", "marker.RAE.5")
    (push, pushed), (pull, pulled) = RULES.decision_odds(state, "red", question.key, question.position)
    assert pushed.defender == "blue (4 cards)" and (pushed.wins, pulled.wins) == (1.0, 1.0)
    assert pushed.attacker_losses > pulled.attacker_losses  # a marker left on his side costs red a card (EAW-8.8)


def test_the_marker_notice_gives_each_moves_odds_in_the_readers_keywords(tmp_path: Path) -> None:
    state, result = marker_step(answers={"blue": {"stack.RAE": "rider, horse_d, guard_d, guard_d"}})
    lines = german_odds_lines(tmp_path, state, result, "marker.RAE.3")
    assert [line.split(":")[0] for line in lines] == ["# wenn du SCHIEBE antwortest", "# wenn du ZIEHE antwortest"]
    assert "mögliche Stapel" in lines[0]


@pytest.mark.parametrize("answer", ["pull", "ZIEHE", "tira", "TREK"])
def test_EAW_12_7_a_move_is_answered_in_any_languages_keyword(answer: str) -> None:
    """The notice writes the moves in the reader's keywords: each of them is read as the answer."""
    defaulted = marker_step()[1]
    answered = marker_step(answers={"blue": {"marker.RAE.3": answer}})[1]
    moved = [e.data["move"] for e in answered.events if e.kind == "marker_moved" and e.data["n"] == 3]
    assert moved == ["pull"] and not [e for e in answered.events if e.kind == "answer_refused"]
    assert [e.data["move"] for e in defaulted.events if e.kind == "marker_moved" and e.data["n"] == 3] == ["push"]


def test_EAW_12_7_an_answer_that_is_no_move_is_refused_naming_the_moves() -> None:
    refused = [
        e for e in marker_step(answers={"blue": {"marker.RAE.3": "ZIEH"}})[1].events if e.kind == "answer_refused"
    ]
    assert [e.data["reason"] for e in refused] == ["'ZIEH' is not one of push, pull (EAW-12)"]


@pytest.mark.parametrize("language", ["de", "it", "nl"])
def test_EAW_12_a_choice_shown_in_the_readers_words_can_be_typed_back_as_the_answer(language: str) -> None:
    """A notice shows the default in the reader's words ("standaard: schuiven"): each choice so written is read."""
    for choice in ("push", "pull", "siege", "open", "yes", "no"):
        assert in_english(engine_text(language, choice, RULES.name)) == choice, (language, choice)
