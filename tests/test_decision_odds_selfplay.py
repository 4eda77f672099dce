"""Every battle question a game asks gets the odds of its answers: the bots play games of each ruleset in ask mode
(their orders, the step's keyed dice), and at every step each pending question's odds are reckoned where it arose
(Ruleset.decision_odds with the question's point). None may fail, and each question that changes a battle (those
this suite's rule tests check figure by figure) must have a figure. Captives, capitals and retreats after a battle
have none."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from adjudicator.engine.chance import turn_dice
from adjudicator.engine.decisions import Pending
from adjudicator.engine.steps import resolve_step
from adjudicator.orders import parse_orders
from adjudicator.rulesets import Ruleset, load_ruleset
from adjudicator.services.selfplay import bot_of, header, playable, step_rng

BATTLE_QUESTIONS = {  # the questions of each ruleset whose answers change a battle: (first, last part of the key)
    "coe-classic": {("battle", "retreat"), ("battle", "legion"), ("battle", "losses"), ("naval", "losses")},
    "coe-1984": {("battle", "retreat"), ("battle", "target"), ("naval", "target")},
    "conqueror-er": {("battle", "losses"), ("battle", "reinforce"), ("battle", "freemen")},
    "empires-aw": {("stack", ""), ("marker", ""), ("siege", ""), ("ambush", "")},
}
OPTIONS = {"empires-aw": {"marker_choice": "winner_chooses"}}


def kind_of(key: str) -> tuple[str, str]:
    parts = key.split(".")
    return (parts[0], "") if parts[0] in ("stack", "marker", "siege", "ambush") else (parts[0], parts[-1])


def questions_met(ruleset: str, games: int, steps: int) -> Iterator[tuple[Ruleset, Any, Pending]]:
    """Each question the bots' seeded games of `ruleset` ask (in ask mode, 3 seats, Empires 4), with the ruleset and
    the position before its step; the games go on with the defaults."""
    rules, _ = playable(load_ruleset(ruleset), None, None, OPTIONS.get(ruleset))
    bot = bot_of(rules)
    for game in range(games):
        state = rules.initial_state(f"g{game}", bot.seats(rules, 3 if ruleset != "empires-aw" else 4))
        for number in range(steps):
            step = rules.due(state)
            if step is None:
                break
            texts = {
                s: bot.orders(rules, state, s, header("g", step.number, s, "x"), step_rng(game, step.number))
                for s in step.seats
            }
            given = {s: parse_orders(text, rules) for s, text in texts.items()}
            key = f"game {game} step {number}".encode().ljust(32, b".")
            result = resolve_step(rules, state, step, given, turn_dice(key, str(number), key), ask=True)
            for pending in result.pending:
                yield rules, state, pending
            state = resolve_step(rules, state, step, given, turn_dice(key, str(number), key)).state


@pytest.mark.parametrize(
    ("ruleset", "games", "steps"),
    [("coe-classic", 6, 60), ("coe-1984", 3, 50), ("conqueror-er", 2, 45), ("empires-aw", 1, 80)],
)
def test_every_battle_question_the_bots_meet_gets_its_answers_odds(ruleset: str, games: int, steps: int) -> None:
    asked: Counter[tuple[str, str]] = Counter()
    for rules, state, pending in questions_met(ruleset, games, steps):
        kind = kind_of(pending.key)
        if kind in BATTLE_QUESTIONS[ruleset]:
            asked[kind] += 1
            assert rules.decision_odds(state, pending.seat, pending.key, pending.position), pending
    assert asked, "no battle question was asked"
